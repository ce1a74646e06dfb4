/*
 * Deletion vectors of a table (spec/format.md §7.1–7.3, data-evolution.md §2.6): finding the DV
 * of a data file in a snapshot's index manifest, loading it, the data-evolution anchor rule, and
 * maintaining one DV index file per (partition, bucket) for writers that delete rows.
 *
 * Matching (§7.3): a DELETION_VECTORS index entry applies to the data files of its own partition
 * and bucket, by data file *name* (f0). On data-evolution tables a row-range group's DV is keyed
 * by its anchor — the normal (non-blob, non-vector) file with the smallest
 * (max_sequence_number, file name) — and its positions are rowId − anchor.first_row_id.
 *
 * Writing (§7.2, pypaimon's table_delete.py): for each (partition, bucket) a writer changes, it
 * reads every DV the base snapshot holds for that bucket (from all its DV index files), adds the
 * new positions, and writes ONE new index file with all of them (records sorted by data file
 * name); the commit message adds that file and deletes every old DV index entry of the bucket.
 * Readers therefore see at most one DV index file per bucket, which pypaimon requires.
 *
 * Ownership: lookups and maintainers are the caller's (`_free`). A lookup borrows the index
 * entries it was built from.
 */
#ifndef CP_TABLE_DV_H
#define CP_TABLE_DV_H

#include <stdbool.h>
#include <stdint.h>

#include "cpaimon/commit.h"
#include "meta/data_file.h"
#include "meta/deletion_vector.h"
#include "meta/snapshot.h"
#include "table/table.h"

/* The live DELETION_VECTORS entries of `snap`'s index manifest (none when it has none), decoded
 * into `arena`. */
int cp_dv_index_entries(paimon_table *t, const cp_snapshot *snap, cp_arena *arena,
                        cp_index_entry_vec *out, paimon_error *err);

/* The path of an index file: its external path, else <table>/index/<file name>. Malloc'd. */
int cp_index_file_path(paimon_table *t, const cp_index_manifest_entry *e, char **out,
                       paimon_error *err);

/* Where the DV of one data file lives. */
typedef struct cp_dv_ref {
  const cp_index_manifest_entry *entry; /* the index file */
  const cp_dv_meta *meta;               /* the DV inside it */
} cp_dv_ref;

/* DVs of a snapshot by (partition, bucket, data file name), for planning many splits. */
typedef struct cp_dv_lookup {
  cp_dv_ref *refs; /* sorted by data file name */
  size_t n;
} cp_dv_lookup;

int cp_dv_lookup_build(const cp_index_entry_vec *entries, cp_dv_lookup *out, paimon_error *err);
/* The DV of data file `name` in (partition, bucket), or NULL. */
const cp_dv_ref *cp_dv_lookup_find(const cp_dv_lookup *l, cp_bytes partition, int32_t bucket,
                                   const char *name);
void cp_dv_lookup_free(cp_dv_lookup *l);

/* Reads the DV at (offset, f2 = length) of index file `path` (version byte checked). */
int cp_dv_load(cp_fs *fs, const char *path, int64_t offset, int64_t length, cp_dv **out,
               paimon_error *err);

/* The anchor of a data-evolution row-range group (§2.6): the normal file with the smallest
 * (max_sequence_number, file_name); NULL when the group has none. */
const cp_manifest_entry *cp_dv_anchor(const cp_manifest_entry *files, size_t n);

/* Fills the DV fields of every split of `plan` (planned from `snap`) when the table has
 * deletion-vectors.enabled; a no-op otherwise (§7.3: readers ignore DVs unless enabled). */
struct paimon_plan;
int cp_dv_attach(paimon_table *t, const cp_snapshot *snap, struct paimon_plan *plan,
                 paimon_error *err);

/* ---- writing ---- */

typedef struct cp_dv_maintainer cp_dv_maintainer;

/* A maintainer for deletes against `base` (borrowed for the call only; NULL: empty table). */
int cp_dv_maintainer_new(cp_dv_maintainer **out, paimon_table *t, const cp_snapshot *base,
                         paimon_error *err);

/* Marks `position` of data file `data_file` in (partition, bucket) deleted; *added (may be NULL)
 * tells whether it was not deleted before. Loads the bucket's existing DVs on first use. */
int cp_dv_maintainer_delete(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket,
                            const char *data_file, int64_t position, bool *added,
                            paimon_error *err);

/* The DV (borrowed, NULL if none) `data_file` has in the maintainer: the base snapshot's positions
 * plus the ones added since. */
int cp_dv_maintainer_get(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket,
                         const char *data_file, const cp_dv **out, paimon_error *err);

/* Moves the DV of `from` (if it has one) to `to` in (partition, bucket): every deleted position p
 * becomes p + shift in `to`'s DV, and `from` has none afterwards — how a compaction carries the
 * deletions of the files it rewrites into its output (maintenance-and-blob.md §1.4). `to` NULL
 * drops the DV: an append compaction applied it (§1.6). */
int cp_dv_maintainer_move(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket, const char *from,
                          const char *to, int64_t shift, paimon_error *err);

/* Writes one new index file per bucket whose DVs changed and appends one commit message per such
 * bucket to `out` (index_adds = the new file, index_deletes = every DV index entry the bucket had,
 * check_from_snapshot as given; a bucket left without DVs only deletes). The files then belong
 * to the messages. */
int cp_dv_maintainer_prepare(cp_dv_maintainer *m, paimon_commit_messages *out,
                             int64_t check_from_snapshot, paimon_error *err);

/* Frees the maintainer, deleting index files it wrote that prepare did not hand out. */
void cp_dv_maintainer_free(cp_dv_maintainer *m);

/* Deletes rows by id with deletion vectors (data-evolution.md §3.7): `ids` (sorted, unique) are
 * located in the anchors of `snap`'s row-range groups (§2.6) — an id outside every anchor range is
 * EINVAL "Row ID <id> does not belong to any valid range [...]", checked before anything is
 * written — and one DV message per changed (partition, bucket) is appended to `out`, pinned to
 * `snap`. No options are checked here (delete.c does that). Implemented in delete.c. */
int cp_delete_row_ids(paimon_table *t, const cp_snapshot *snap, const int64_t *ids, size_t n,
                      paimon_commit_messages *out, paimon_error *err);

/* The _ROW_IDs of the rows of snapshot `snapshot_id` matching `predicate` (NULL: all rows), as a
 * reader sees them (deleted rows excluded), in scan order; *ids is malloc'd. Implemented in
 * delete.c, shared with the row-change API (rewrite.c). */
struct paimon_predicate;
int cp_table_row_ids(paimon_table *t, int64_t snapshot_id, const struct paimon_predicate *predicate,
                     int64_t **ids, size_t *n, paimon_error *err);

#endif
