/*
 * Row-level changes — UPDATE, DELETE and MERGE INTO — on row-tracking tables, as Spark executes
 * them (spec/data-evolution.md §1.5, §3.8.1): the caller finds the rows (by a predicate, a join,
 * anything) and hands over their `_ROW_ID`s with new values; everything is committed as one
 * snapshot.
 *
 * Tables without data evolution rewrite rows (copy-on-write). A row that moves to another file
 * keeps its `_ROW_ID` (stored physically in the new file) and its `_SEQUENCE_NUMBER` when it did
 * not change; a changed row's `_SEQUENCE_NUMBER` is stored as NULL, so readers see the snapshot
 * that changed it. Inserted rows are appended and get fresh row ids at commit.
 *   - without `deletion-vectors.enabled`: every data file holding a changed row is rewritten with
 *     all its surviving rows (updated ones with their new values, deleted ones left out) and the
 *     old file is deleted; files without changed rows are untouched;
 *   - with `deletion-vectors.enabled`: only the updated rows are written, to new files, and the
 *     old positions of updated and deleted rows are marked in the deletion vectors (one DV index
 *     file per partition and bucket, as include/cpaimon/delete.h).
 * The commit is OVERWRITE when files are deleted or DV index files change (§4.1), APPEND for
 * inserts only. A concurrent commit that rewrote or deleted one of the same files, or changed the
 * same bucket's DVs, makes the commit fail with PAIMON_ECONFLICT; the table is then unchanged.
 *
 * Data-evolution tables: deletes go to deletion vectors keyed by the row-range anchors (which
 * needs `deletion-vectors.enabled`, else pypaimon's "delete requires ..." message); updates are
 * partial-column files written by include/cpaimon/update.h, so paimon_row_changes_update is
 * EUNSUPPORTED there. Tables without row tracking have no `_ROW_ID`: EINVAL.
 *
 * Memory: the update batches handed in are copied (their columns converted to the table's types)
 * and kept until the changes are freed; files are read and rewritten batch by batch.
 *
 * Ownership: the handle is the caller's (paimon_row_changes_free, which also deletes files
 * written and not handed out); it borrows the table. Messages from prepare_commit are the
 * caller's.
 */
#ifndef CPAIMON_ROWOPS_H
#define CPAIMON_ROWOPS_H

#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/error.h"
#include "cpaimon/predicate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_row_changes paimon_row_changes;

/* Starts the changes of one statement on `table`, whose rows the caller read from snapshot
 * `base_snapshot` (0: the latest, pinned now). Row ids are resolved against that snapshot. */
int paimon_row_changes_new(paimon_row_changes **out, paimon_table *table, int64_t base_snapshot,
                           paimon_error *err);

/* The snapshot the changes are based on (0 for an empty table). */
int64_t paimon_row_changes_base_snapshot(const paimon_row_changes *rc);

/* New values for existing rows: `batch` is a record batch with a non-NULL integer `_ROW_ID`
 * column and one column per updated table column (by name; converted to the column's type as
 * writes are); other columns keep their values. Each row id may be changed once per statement
 * ("_ROW_ID <id> is changed more than once"). Partition columns cannot be updated (EUNSUPPORTED).
 * Borrowed. */
int paimon_row_changes_update(paimon_row_changes *rc, const struct ArrowSchema *schema,
                              const struct ArrowArray *batch, paimon_error *err);

/* Removes the rows with these ids (duplicates ignored). */
int paimon_row_changes_delete(paimon_row_changes *rc, const int64_t *row_ids, size_t n,
                              paimon_error *err);

/* New rows (a record batch of table columns, as paimon_write_batch; borrowed). */
int paimon_row_changes_insert(paimon_row_changes *rc, const struct ArrowSchema *schema,
                              const struct ArrowArray *batch, paimon_error *err);

/* UPDATE t SET ... WHERE predicate: every row of the base snapshot matching `predicate` (NULL:
 * all rows) gets `values`, a record batch of exactly one row whose columns are the assigned table
 * columns (borrowed). *matched (may be NULL) receives the number of rows. */
int paimon_row_changes_update_where(paimon_row_changes *rc, const paimon_predicate *predicate,
                                    const struct ArrowSchema *schema,
                                    const struct ArrowArray *values, int64_t *matched,
                                    paimon_error *err);

/* DELETE FROM t WHERE predicate (NULL: all rows). *matched (may be NULL) receives the count. */
int paimon_row_changes_delete_where(paimon_row_changes *rc, const paimon_predicate *predicate,
                                    int64_t *matched, paimon_error *err);

/* Reads what the changes touch, writes the new files (and DV index files) and returns the commit
 * messages of everything (*out may hold no message when nothing changes). A row id that is not a
 * live row of the base snapshot is EINVAL ("_ROW_ID <id> is not a row of table t at snapshot
 * n"). After this call the handle only accepts _free. */
int paimon_row_changes_prepare_commit(paimon_row_changes *rc, paimon_commit_messages **out,
                                      paimon_error *err);

void paimon_row_changes_free(paimon_row_changes *rc);

#ifdef __cplusplus
}
#endif
#endif
