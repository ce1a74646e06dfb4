/*
 * Internals of compaction (include/cpaimon/compact.h): the options both planners read, and
 * append compaction of row-tracking tables without data evolution (compact_append.c), which
 * compact.c calls for those tables.
 */
#ifndef CP_TABLE_COMPACT_INTERNAL_H
#define CP_TABLE_COMPACT_INTERNAL_H

#include <stdint.h>

#include "cpaimon/compact.h"
#include "meta/snapshot.h"
#include "table/scan.h"

/* spec/maintenance-and-blob.md §1.1, with the call's overrides applied. */
typedef struct cp_compact_cfg {
  int64_t target;          /* target-file-size */
  int64_t open_cost;       /* source.split.open-file-cost */
  int64_t min_files;       /* compaction.min.file-num */
  double small_file_ratio; /* compaction.small-file-ratio */
  double delete_ratio;     /* compaction.delete-ratio-threshold */
  int64_t file_num_limit;  /* compaction.file-num-limit */
} cp_compact_cfg;

/* Java's AppendCompactCoordinator + AppendCompactTask over `plan` (the live files of `snap`, one
 * file per split): small files, and files whose DV deletes too many rows, are packed per
 * partition and rewritten with their physical `_ROW_ID` and `_SEQUENCE_NUMBER`, deletion vectors
 * applied and dropped. Appends the compaction messages to `out`; the files written belong to them
 * (on failure nothing written by this call is left). */
int cp_compact_append(paimon_table *t, const cp_compact_cfg *cfg, const cp_snapshot *snap,
                      const paimon_plan *plan, paimon_commit_messages *out,
                      paimon_compact_result *result, paimon_error *err);

#endif
