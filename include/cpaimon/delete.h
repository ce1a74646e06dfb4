/*
 * Deleting rows of a data-evolution table, as pypaimon's TableUpdate.delete_by_row_id /
 * delete_by_predicate (spec/data-evolution.md §3.7).
 *
 * Deletes are deletion vectors: nothing is rewritten. Each call reads the latest snapshot, marks
 * the rows in the DVs of their row-range groups' anchor files (§2.6), writes one new DV index file
 * per (partition, bucket) it changes, and returns commit messages that add that file and remove
 * the bucket's old ones; committing them (include/cpaimon/commit.h) makes the rows disappear
 * atomically, as an OVERWRITE snapshot (§4.1). Messages carry the snapshot they were computed
 * from, so a concurrent delete or rewrite of the same bucket makes the commit fail with
 * PAIMON_ECONFLICT ("Deletion vector index conflict detected: ...") instead of losing a delete.
 *
 * Requirements and errors, in pypaimon's order and words (EINVAL):
 *   "delete requires 'data-evolution.enabled' = 'true'."
 *   "delete requires 'row-tracking.enabled' = 'true'."
 *   "delete requires 'deletion-vectors.enabled' = 'true'."
 *   "_ROW_ID value must not be null."
 *   "Row ID <id> does not belong to any valid range ['[a, b]', ...]" (ids past the table's rows,
 *     in a removed range, or negative)
 * Duplicate ids are ignored; no ids, or only rows already deleted, give no messages. Nothing is
 * changed in the table by these calls; a failed call leaves no file behind.
 *
 * Row tracking tables without data evolution delete by copy-on-write or DVs through
 * include/cpaimon/rowops.h instead.
 *
 * Ownership: *out is the caller's (paimon_commit_messages_free). The table is borrowed.
 */
#ifndef CPAIMON_DELETE_H
#define CPAIMON_DELETE_H

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

/* Deletes the rows whose _ROW_ID is one of ids[0..n). */
int paimon_delete_by_row_ids(paimon_table *table, const int64_t *ids, size_t n,
                             paimon_commit_messages **out, paimon_error *err);

/* The same with the ids as an Arrow integer array (any signed or unsigned width; a NULL element
 * is "_ROW_ID value must not be null."). The array is borrowed. */
int paimon_delete_by_row_id_array(paimon_table *table, const struct ArrowSchema *schema,
                                  const struct ArrowArray *ids, paimon_commit_messages **out,
                                  paimon_error *err);

/* Deletes the rows matching `predicate` (borrowed; NULL = every row). A predicate that names only
 * partition columns of a partitioned table drops the matching partitions instead: every data file
 * of those partitions becomes a DELETE entry and their index files are removed, which needs
 * neither data evolution nor deletion vectors; the commit then fails with "Overwrite conflict
 * detected: target partitions were modified after snapshot N." if another commit changed those
 * partitions in between. Any other predicate is evaluated on the latest snapshot (rows already
 * deleted do not match) and its rows are deleted by id. */
int paimon_delete_by_predicate(paimon_table *table, const paimon_predicate *predicate,
                               paimon_commit_messages **out, paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
