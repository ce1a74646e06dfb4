/*
 * Compaction of append tables with row tracking (spec/maintenance-and-blob.md §1), as Java
 * Paimon's `CALL sys.compact` does it on the same files, so Java and Spark (and pypaimon, but for
 * physical row ids: see below) read the compacted table exactly as before: the same rows,
 * `_ROW_ID`s and (per Java's rules)
 * `_SEQUENCE_NUMBER`s. pypaimon has no compaction; this is the first outside the JVM.
 *
 * Data-evolution tables (data-evolution.enabled): every bin of contiguous row-id groups that Java's
 * DataEvolutionCompactCoordinator would pick (target-file-size, source.split.open-file-cost,
 * compaction.min.file-num) is read merged — deleted rows kept — and written as ONE file holding
 * every column but BLOB ones, with the bin's first row id, min/max sequence numbers of its inputs
 * and file source COMPACT. Deletion vectors are moved onto the new file, not applied. Row ids and
 * `nextRowId` never change. Memory is bounded by read batches, not by bin size.
 *
 * The result is one COMPACT snapshot, committed with Java's checks: every rewritten file must still
 * be live (else "File deletion conflicts detected! Give up committing."), the new files' ranges
 * must still exist, and overlapping files must share ranges. A concurrent MERGE INTO / UPDATE that
 * wrote partial files on the old boundaries is rebased onto the compacted ranges in the same
 * commit, as Spark's procedure does; where Spark refuses (deletion vectors, a schema change) the
 * compaction fails with "For Data Evolution table, multiple 'MERGE INTO' and 'COMPACT' operations
 * have encountered conflicts, ...". A failed commit leaves the table as it was and deletes the
 * compaction's new files.
 *
 * Row-tracking tables without data evolution get Java's append compaction (AppendCompactCoordinator
 * + AppendCompactTask): per partition, files below target-file-size × compaction.small-file-ratio
 * — and, with deletion vectors, files whose DV deletes more than compaction.delete-ratio-threshold
 * of their rows — are packed by size (compaction.min.file-num, source.split.open-file-cost,
 * compaction.file-num-limit) and rewritten with every column plus `_ROW_ID` and
 * `_SEQUENCE_NUMBER` physically: surviving rows keep both, rows deleted by DV are dropped with
 * their DVs, nextRowId does not move. Conflicts are Java's file-deletion conflicts. (pypaimon
 * 2.1 ignores physical row ids and reads NULL _ROW_ID from such files.)
 *
 * Tables without row tracking are EUNSUPPORTED for now, as are tables whose file.format is not
 * parquet. Tables of a REST catalog commit the COMPACT snapshot through the server.
 */
#ifndef CPAIMON_COMPACT_H
#define CPAIMON_COMPACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/error.h"
#include "cpaimon/predicate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_compact_options {
  /* Only partitions this predicate may match (partition keys only, else EINVAL); NULL: all. */
  const paimon_predicate *partition_filter;
  /* Options that override the table's for this compaction (Spark's `options =>`):
   * target-file-size, source.split.open-file-cost, compaction.min.file-num, and for append
   * compaction compaction.small-file-ratio, compaction.delete-ratio-threshold,
   * compaction.file-num-limit. */
  const char *const *keys;
  const char *const *values;
  size_t n_options;
} paimon_compact_options;

typedef struct paimon_compact_result {
  int64_t snapshot_id;  /* the COMPACT snapshot; 0 when there was nothing to compact */
  int64_t tasks;        /* bins rewritten */
  int64_t files_before; /* data files replaced */
  int64_t files_after;  /* data files written */
  int64_t rows;         /* rows rewritten */
} paimon_compact_result;

/* Plans the latest snapshot and writes the compacted files, appending their (compaction) messages
 * to `out` without committing them; commit them with paimon_commit_commit (a COMPACT snapshot),
 * or delete them with paimon_commit_abort. Compaction messages cannot be committed together with
 * other messages. `options` and `result` may be NULL. */
int paimon_table_compact_prepare(paimon_table *table, const paimon_compact_options *options,
                                 paimon_commit_messages *out, paimon_compact_result *result,
                                 paimon_error *err);

/* Prepares and commits; on failure nothing is committed and no new file stays behind. */
int paimon_table_compact(paimon_table *table, const paimon_compact_options *options,
                         paimon_compact_result *result, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif
