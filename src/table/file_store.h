/*
 * Reading a snapshot's file set: manifest lists → manifests → entries folded into the live files
 * (spec/format.md §4.8), and the index manifest (§7.1). Used by scans and by the committer's
 * conflict checks.
 *
 * Everything decoded is allocated in the caller's arena; the vectors' item arrays are malloc'd.
 */
#ifndef CP_TABLE_FILE_STORE_H
#define CP_TABLE_FILE_STORE_H

#include "base/fs.h"
#include "meta/data_file.h"
#include "meta/snapshot.h"

int cp_read_manifest_list(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                          cp_manifest_meta_vec *out, paimon_error *err);
int cp_read_manifest(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                     cp_entry_vec *out, paimon_error *err);
int cp_read_index_manifest(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                           cp_index_entry_vec *out, paimon_error *err);

/* Folds entries in order: an ADD is inserted (a second ADD of the same file is ECORRUPT, Java's
 * "Trying to add file ... which is already added"); a DELETE removes the matching ADD, or stays
 * as a pending DELETE when none is present. The result keeps first-insertion order. */
int cp_merge_entries(const cp_manifest_entry *in, size_t n, cp_entry_vec *out, paimon_error *err);

/* Optional filter on manifests and entries by partition (NULL = all). `meta_fn` may skip a whole
 * manifest by its partition stats; `entry_fn` decides per entry. */
typedef struct cp_partition_filter {
  bool (*meta_fn)(void *ctx, const cp_manifest_file_meta *meta);
  bool (*entry_fn)(void *ctx, const cp_manifest_entry *entry);
  void *ctx;
} cp_partition_filter;

/* The merged entries of a snapshot (base list, then delta list): the live files as ADD entries
 * (pending DELETEs are dropped unless `keep_deletes`). */
int cp_snapshot_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                        const cp_partition_filter *filter, bool keep_deletes, cp_arena *arena,
                        cp_entry_vec *out, paimon_error *err);

/* The entries of the snapshot's delta list only (what that commit changed), unmerged. */
int cp_snapshot_delta_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                              cp_arena *arena, cp_entry_vec *out, paimon_error *err);

/* A data file's place in the table as text: its partition (serialized row, as hex) and bucket
 * ("0a1b.../3"); with the file name it identifies a file as Java's FileEntry.Identifier does. */
void cp_manifest_entry_key(const cp_manifest_entry *e, char *out, size_t cap);

/* The snapshot's live index files (its index manifest; none when it has no index manifest). */
int cp_snapshot_index_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                              cp_arena *arena, cp_index_entry_vec *out, paimon_error *err);

#endif
