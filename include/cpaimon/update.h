/*
 * Data-evolution updates (spec/data-evolution.md §3): changing columns of existing rows of a
 * table with `row-tracking.enabled` and `data-evolution.enabled` without rewriting the columns
 * that do not change.
 *
 * Every operation writes, for each row-id group it touches, ONE new data file holding only the
 * updated columns (`write_cols`) for the group's whole row-id range, with the group's
 * first_row_id; rows the operation does not change are copied from the group's current merged
 * values (deletion vectors are not applied to that copy, so deleted rows stay deleted). Nothing is
 * visible until the returned commit messages are committed (include/cpaimon/commit.h); the
 * messages carry the snapshot the updater read (`check_from_snapshot`), so a commit that raced
 * with a concurrent update of the same columns of the same groups fails with PAIMON_ECONFLICT and
 * Paimon's message (§4.5) instead of silently losing one of them.
 *
 * An updater reads one snapshot for its whole life: the one given to paimon_update_set_snapshot,
 * or else the latest snapshot when its first operation starts. The Python package creates one
 * updater per pypaimon-style call; the SQL front end pins the snapshot its statement read.
 *
 * Names follow pypaimon's TableUpdate (write/table_update.py): with_update_type →
 * paimon_update_set_update_cols, update_by_arrow_with_row_id → paimon_update_by_row_id,
 * update_by_predicate, upsert_by_arrow_with_key, merge_into, new_shard_updator. Error messages
 * are pypaimon's where it has one ("Input data contains duplicate _ROW_ID values").
 *
 * Ownership: handles from `_new` are the caller's (`_free`); an updater borrows its table, which
 * must outlive it; a shard updater borrows its updater. Arrow inputs are borrowed (never
 * released). Commit messages returned through `out` belong to the caller
 * (paimon_commit_messages_free); until committed, their files can be deleted with
 * paimon_commit_abort. A failed operation deletes the files it wrote and returns no messages.
 * Handles are not thread-safe.
 */
#ifndef CPAIMON_UPDATE_H
#define CPAIMON_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_predicate paimon_predicate;
typedef struct paimon_update paimon_update;
typedef struct paimon_shard_updater paimon_shard_updater;

/* An updater for `table` (borrowed). */
int paimon_update_new(paimon_update **out, paimon_table *table, paimon_error *err);
void paimon_update_free(paimon_update *u);

/* The columns the operations write (pypaimon's with_update_type): each must be a table column
 * ("Column <c> is not in table schema."); duplicates are dropped; naming every column means
 * "all" (as pypaimon, which resets to None). n == 0 resets to the default: the input's columns
 * (update by row id), every column (upsert's matched rows, shard updater). */
int paimon_update_set_update_cols(paimon_update *u, const char *const *cols, size_t n,
                                  paimon_error *err);

/* The columns a shard updater's reader returns (pypaimon's with_read_projection; `_ROW_ID` and
 * `_SEQUENCE_NUMBER` allowed). n == 0: every column. */
int paimon_update_set_read_projection(paimon_update *u, const char *const *cols, size_t n,
                                      paimon_error *err);

/* Reads snapshot `snapshot_id` instead of the latest one. Must be called before the first
 * operation (ESTATE afterwards). */
int paimon_update_set_snapshot(paimon_update *u, int64_t snapshot_id, paimon_error *err);

/* The snapshot the updater reads (pinned by its first operation), or -1 when it has not read one
 * yet or the table had no snapshot. Its messages carry it as check_from_snapshot. */
int64_t paimon_update_snapshot_id(const paimon_update *u);

/* ---- update by row id (§3.2) ---- */

/* `batch` (a record batch: struct array) holds a non-null BIGINT `_ROW_ID` column and the new
 * values of the update columns (the updater's update columns, else every other input column),
 * castable to the columns' types. Checks, in order (pypaimon's messages): "column_names cannot
 * be empty", "Input data must contain _ROW_ID column", "Column <c> not found in table schema",
 * "Input data contains duplicate _ROW_ID values", no rows (no messages), "Row ID <id> does not
 * belong to any valid range ['[a, b]', ...]" (pypaimon's rendering). Groups already written by an
 * earlier operation of the same updater for one of the columns are EINVAL ("Input batches contain
 * overlapping first_row_ids by column: ..."). Input order is irrelevant. Unlike pypaimon, a
 * row-tracking table without data evolution is refused (its reads would not merge the partial
 * files). */
int paimon_update_by_row_id(paimon_update *u, const struct ArrowSchema *schema,
                            const struct ArrowArray *batch, paimon_commit_messages **out,
                            paimon_error *err);

/* ---- update by predicate (§3.3) ---- */

typedef struct paimon_assignment {
  const char *column; /* a non-partition table column */
  /* The value: a literal when `literal` (value row 0, used for every matched row), else one value
   * per matched row in scan order ("Assignment array length must match matched row count: n != m."
   * otherwise). Cast to the column's type. */
  const struct ArrowSchema *schema;
  const struct ArrowArray *value;
  bool literal;
} paimon_assignment;

/* Sets the assigned columns of the rows matching `predicate` (NULL: every row; rows deleted by a
 * deletion vector do not match). Checks, in order: "update_by_predicate requires
 * 'data-evolution.enabled' = 'true'." (and the row-tracking variant), "assignments must not be
 * empty.", "Column <c> is not in table schema.", "update_by_predicate does not support updating
 * partition column '<c>'.". No match: no messages. */
int paimon_update_by_predicate(paimon_update *u, const paimon_predicate *predicate,
                               const paimon_assignment *assignments, size_t n,
                               paimon_commit_messages **out, paimon_error *err);

/* The checks of paimon_update_by_predicate on the table and the assigned columns (only `column`
 * is read), without reading anything: for callers computing values themselves. */
int paimon_update_check_assignments(paimon_update *u, const paimon_assignment *assignments,
                                    size_t n, paimon_error *err);

/* The rows matching `predicate` (NULL: all) as a stream of record batches with the columns
 * `read_cols` (table columns) then `_ROW_ID`, one batch per row-id group that has matches, in
 * scan order: what a caller computing new values itself (pypaimon's callable assignments) reads
 * before calling paimon_update_by_row_id on the same updater. Same checks as update_by_predicate
 * for the table options. The stream borrows the updater. */
int paimon_update_scan_matches(paimon_update *u, const paimon_predicate *predicate,
                               const char *const *read_cols, size_t n_read_cols,
                               struct ArrowArrayStream *out, paimon_error *err);

/* ---- upsert by key (§3.4) ---- */

/* For every input row: rows of the table with the same values of `keys` (within the row's
 * partition) get the update columns (default: all) from it, else it is appended as a new row
 * (with all its columns; absent ones NULL). Duplicate keys in the input: the last one wins.
 * Reads only the key columns and `_ROW_ID` of the table. Checks (pypaimon's messages):
 * "upsert_by_arrow_with_key requires 'data-evolution.enabled' = 'true'." (and row tracking),
 * "upsert_keys must not be empty.", "upsert_key '<k>' is not in table schema fields: [...]",
 * "upsert_key '<k>' is not in input data columns: [...]", "For partitioned tables, input data
 * must contain all partition key columns. Missing: [...]", "Input data is empty.". Updates and
 * appends are returned together (one commit). */
int paimon_update_upsert_by_key(paimon_update *u, const struct ArrowSchema *schema,
                                const struct ArrowArray *batch, const char *const *keys,
                                size_t n_keys, paimon_commit_messages **out, paimon_error *err);

/* ---- merge into (§3.5) ---- */

typedef enum paimon_merge_value_kind {
  PAIMON_MERGE_SOURCE_COL, /* the source column `ref` (source_col / "s.x") */
  PAIMON_MERGE_TARGET_COL, /* the target column `ref` (target_col / "t.x"); matched only */
  PAIMON_MERGE_LITERAL     /* row 0 of `literal` (lit / a plain value) */
} paimon_merge_value_kind;

typedef struct paimon_merge_set {
  const char *column; /* the target column set */
  paimon_merge_value_kind kind;
  const char *ref;
  const struct ArrowSchema *literal_schema;
  const struct ArrowArray *literal;
} paimon_merge_set;

typedef enum paimon_merge_action {
  PAIMON_MERGE_UPDATE, /* WhenMatched.update */
  PAIMON_MERGE_DELETE, /* WhenMatched.delete (needs deletion vectors) */
  PAIMON_MERGE_INSERT  /* WhenNotMatched */
} paimon_merge_action;

typedef struct paimon_merge_clause {
  paimon_merge_action action;
  /* SQL-like condition over `s.<col>` and `t.<col>` (comparisons, AND/OR/NOT, IS [NOT] NULL,
   * IN, BETWEEN, LIKE, arithmetic, literals); NULL: always. Only the last clause of each list may
   * omit it. A condition that is NULL counts as not satisfied. */
  const char *condition;
  bool all; /* '*': every target column from the same-named source column */
  const paimon_merge_set *set;
  size_t n_set;
} paimon_merge_clause;

/* MERGE INTO the table USING `source` (a record batch; NULL: the table itself, a self-merge,
 * which requires ON _ROW_ID) ON target_on[i] = source_on[i]. Matched target rows take the first
 * matched clause whose condition holds; source rows matching no target row take the first
 * not-matched clause whose condition holds and are inserted. Matched rows keep their row ids;
 * inserted rows get new ones. Messages: pypaimon's (data_evolution_merge_into.py), e.g. "MERGE
 * matched multiple source rows to the same target _ROW_ID. Deduplicate the source before
 * merging.". */
int paimon_update_merge_into(paimon_update *u, const struct ArrowSchema *source_schema,
                             const struct ArrowArray *source, const char *const *target_on,
                             const char *const *source_on, size_t n_on,
                             const paimon_merge_clause *matched, size_t n_matched,
                             const paimon_merge_clause *not_matched, size_t n_not_matched,
                             paimon_commit_messages **out, paimon_error *err);

/* ---- shard updater (§3.6) ---- */

/* Shard `shard_num` of `total_shards` of the table's row-id groups (contiguous blocks; the first
 * n % k shards get one more group), for computing columns (e.g. backfilling a new column) in
 * parallel, possibly in different processes. The updater (borrowed) gives the snapshot, the read
 * projection and the update columns. */
int paimon_shard_updater_new(paimon_shard_updater **out, paimon_update *u, int32_t shard_num,
                             int32_t total_shards, paimon_error *err);
void paimon_shard_updater_free(paimon_shard_updater *s);

/* The shard's rows with the read projection, in the order the writes must follow (deletion
 * vectors applied). The stream borrows the shard updater. */
int paimon_shard_updater_read(paimon_shard_updater *s, struct ArrowArrayStream *out,
                              paimon_error *err);

/* Writes the next rows of the update columns (a record batch, borrowed), in reader order; rows
 * fill the shard's groups one after another, each group one file. More rows than the shard read:
 * "No more row ranges to write. Ensure you write exactly the same number of rows as read from
 * this shard." */
int paimon_shard_updater_write(paimon_shard_updater *s, const struct ArrowSchema *schema,
                               const struct ArrowArray *batch, paimon_error *err);

/* The messages of everything written (one per partition). Unlike pypaimon, a group left partly
 * written is an error naming its range and the counts (the files are deleted). */
int paimon_shard_updater_prepare_commit(paimon_shard_updater *s, paimon_commit_messages **out,
                                        paimon_error *err);

/* Rows the shard's groups hold in total (what a caller must write). */
int64_t paimon_shard_updater_row_count(const paimon_shard_updater *s);

#ifdef __cplusplus
}
#endif
#endif
