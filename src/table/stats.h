/*
 * Value statistics of a data file for its manifest entry (spec/format.md §5.6): per column the
 * collector chosen by `metadata.stats-mode` / `fields.<name>.stats-mode` (none, counts, full,
 * truncate(N); Java's default truncate(16)), in Java's dense store: columns with collector `none`
 * are left out and _VALUE_STATS_COLS lists the covered columns, or is null when all are covered.
 */
#ifndef CP_TABLE_STATS_H
#define CP_TABLE_STATS_H

#include "format/parquet/writer.h"
#include "meta/data_file.h"
#include "meta/options.h"

/* Builds the stats of a file whose columns are the fields of `row` from the writer's column
 * statistics. Everything is allocated in `arena`; `meta` receives value_stats,
 * has_value_stats_cols and value_stats_cols. */
int cp_build_value_stats(const cp_options *options, const cp_type *row,
                         const cp_pq_column_stats *cols, cp_arena *arena, cp_data_file_meta *meta,
                         paimon_error *err);

#endif
