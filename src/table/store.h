/*
 * Reading and publishing a table's versioned metadata files: snapshots (spec/format.md §3),
 * their LATEST / EARLIEST hints (§3.1) and schema files (§2), all through the file-I/O seam.
 *
 * Publishing follows §6.2: the content is written to a hidden temp file in the same directory and
 * fsynced, then renamed to its final name with a no-replace rename (never check-then-rename), and
 * the directory is fsynced. Losing the race to another writer is PAIMON_EEXIST; the temp file is
 * removed in every failure case.
 */
#ifndef CP_TABLE_STORE_H
#define CP_TABLE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/fs.h"
#include "cpaimon/error.h"
#include "meta/schema.h"
#include "meta/snapshot.h"

/* Ids of the files named <prefix><id> in `dir` (other names, hidden temp files and non-numeric
 * suffixes ignored, as Java's listVersionedFiles), sorted ascending. A missing directory is an
 * empty list. *ids is malloc'd (NULL when empty). */
int cp_list_versioned(cp_fs *fs, const char *dir, const char *prefix, int64_t **ids, size_t *n,
                      paimon_error *err);

/* The latest snapshot id (§3.1: LATEST hint if snapshot-(n+1) does not exist, else the listing's
 * max). *exists = false for a table without snapshots. */
int cp_snapshot_latest_id(cp_fs *fs, const char *table_path, int64_t *id, bool *exists,
                          paimon_error *err);
/* The earliest snapshot id (EARLIEST hint if that snapshot exists, else the listing's min). */
int cp_snapshot_earliest_id(cp_fs *fs, const char *table_path, int64_t *id, bool *exists,
                            paimon_error *err);
/* Loads snapshot-<id>; ENOTFOUND naming the table path and id when absent. */
int cp_snapshot_load(cp_fs *fs, const char *table_path, int64_t id, cp_snapshot **out,
                     paimon_error *err);
/* Publishes `snap` as snapshot-<snap->id> atomically; EEXIST when another commit took the id.
 * On success also writes the LATEST hint (failures to write the hint are ignored: it is
 * advisory). */
int cp_snapshot_publish(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                        paimon_error *err);

/* Replaces the hint file `name` ("LATEST" or "EARLIEST") in the snapshot directory with `id`,
 * atomically. */
int cp_snapshot_write_hint(cp_fs *fs, const char *table_path, const char *name, int64_t id,
                           paimon_error *err);
/* Deletes snapshot-<id>; a missing one is not an error. */
int cp_snapshot_delete(cp_fs *fs, const char *table_path, int64_t id, paimon_error *err);
/* Whether snapshot-<id> exists. */
int cp_snapshot_exists(cp_fs *fs, const char *table_path, int64_t id, bool *out, paimon_error *err);

/* Loads schema-<id>. */
int cp_schema_load(cp_fs *fs, const char *table_path, int64_t id, cp_table_schema **out,
                   paimon_error *err);
/* Loads the schema with the highest id; ENOTFOUND when the table has none. */
int cp_schema_load_latest(cp_fs *fs, const char *table_path, cp_table_schema **out,
                          paimon_error *err);
/* Publishes `schema` as schema-<schema->id> with write-if-absent semantics; EEXIST when taken. */
int cp_schema_publish(cp_fs *fs, const char *table_path, const cp_table_schema *schema,
                      paimon_error *err);

/* Publishes `data` as `dir/name` atomically and without replacing (cp_fs_publish: a temp file +
 * no-replace rename on a disk, a conditional PUT on an object store). EEXIST when `name` exists. */
int cp_publish_file(cp_fs *fs, const char *dir, const char *name, const void *data, size_t len,
                    paimon_error *err);

#endif
