/*
 * Planning and reading (include/cpaimon/read.h). Internals shared by the read path and by the
 * updaters that read before they write.
 */
#ifndef CP_TABLE_SCAN_H
#define CP_TABLE_SCAN_H

#include "cpaimon/read.h"
#include "meta/data_file.h"
#include "meta/snapshot.h"
#include "table/file_store.h"
#include "table/table.h"

/* One unit of reading: a single data file, or (data-evolution tables) a group of files covering
 * the same row-id range, read merged. Files point into the plan's arena. */
typedef struct cp_split {
  cp_bytes partition;
  int32_t bucket;
  cp_manifest_entry *files;
  size_t n_files;
  bool merged;          /* a data-evolution group: align files by position */
  int64_t first_row_id; /* merged groups: the group's range start (-1 if none) */
  int64_t row_count;    /* rows of the split */
  /* The split's deletion vector (deletion-vectors.enabled; spec/format.md §7.3, set by
   * cp_dv_attach in table/dv.h): the record at dv_offset of index file dv_path, whose f2 is
   * dv_length. Positions count from the first physical row of the split's files (for a
   * data-evolution group, its anchor's first row). dv_path is NULL when no row is deleted. */
  const char *dv_path;
  int64_t dv_offset, dv_length, dv_cardinality;
  /* A shard or slice reads physical positions [slice_from, slice_to) of the split only (counted
   * like DV positions); row_count is then that part's size. */
  bool sliced;
  int64_t slice_from, slice_to;
} cp_split;

struct paimon_plan {
  int64_t snapshot_id;
  cp_split *splits;
  size_t n_splits;
  cp_arena arena;
};

struct cp_expr;

/* The row type filters are bound to: the table's columns, then `_ROW_ID` and `_SEQUENCE_NUMBER`
 * (BIGINT NOT NULL) on row-tracking tables. *out is owned by the caller. */
int cp_table_filter_row(paimon_table *t, cp_type **out, paimon_error *err);
/* The same for reads with `schema` (a time-travel read's older schema; the table's options still
 * decide the hidden columns). */
int cp_schema_filter_row(paimon_table *t, const cp_table_schema *schema, cp_type **out,
                         paimon_error *err);

/* Plans the live files of `snap` (NULL: empty plan). Data-evolution tables group files by row-id
 * range (data-evolution.md §2.3). `filter` (bound to cp_table_filter_row, may be NULL) skips
 * manifests and partitions whose partition values cannot match, and — on tables without data
 * evolution, where each file holds whole rows — files whose value statistics cannot match. */
int cp_plan_snapshot(paimon_table *t, const cp_snapshot *snap, const struct cp_expr *filter,
                     paimon_plan **out, paimon_error *err);
/* As cp_plan_snapshot with `filter` bound to cp_schema_filter_row(t, schema) (time travel). */
int cp_plan_snapshot_schema(paimon_table *t, const cp_table_schema *schema, const cp_snapshot *snap,
                            const struct cp_expr *filter, paimon_plan **out, paimon_error *err);

/* What a scan keeps of a plan after pruning (paimon_read_builder_set_shard / _set_slice /
 * _set_limit). */
typedef enum { CP_SELECT_ALL, CP_SELECT_SHARD, CP_SELECT_SLICE } cp_select_mode;
typedef struct cp_plan_selection {
  cp_select_mode mode;
  int64_t a, b; /* shard: index, count; slice: start, end */
  bool has_limit;
  int64_t limit;
  bool push_limit; /* false when the row filter reads a non-partition column */
} cp_plan_selection;

/* Narrows `p` in place to the shard or slice (pypaimon's split generators: by row-id position on
 * data-evolution tables, by physical position on others), then drops the splits past the limit
 * (Java's applyPushDownLimit). Splits keep their order. */
int cp_plan_select(paimon_table *t, paimon_plan *p, const cp_plan_selection *sel,
                   paimon_error *err);

/* Validates and records a shard / slice (pypaimon's messages; EINVAL). */
int cp_plan_selection_shard(cp_plan_selection *sel, int64_t index, int64_t count,
                            paimon_error *err);
int cp_plan_selection_slice(cp_plan_selection *sel, int64_t start, int64_t end, paimon_error *err);

/* The partition filter pypaimon derives from a with_partition_filter predicate: the AND of the
 * top-level conjuncts of `unbound` that name partition keys of `schema` only (an unbound copy in
 * *out, owned by the caller), or TRUE when there is none. */
int cp_partition_conjuncts(const struct cp_expr *unbound, const cp_table_schema *schema,
                           struct cp_expr **out, paimon_error *err);
/* *out: whether the bound filter (NULL: none) reads partition keys only. */
int cp_filter_reads_partitions_only(const struct cp_expr *bound, const cp_table_schema *schema,
                                    bool *out, paimon_error *err);

/* As cp_plan_snapshot_schema; when `part_filter` is not NULL (bound like `filter`, reading only
 * partition keys) it decides which partitions are kept instead of `filter`, which then only
 * prunes by file statistics. */
int cp_plan_snapshot_parts(paimon_table *t, const cp_table_schema *schema, const cp_snapshot *snap,
                           const struct cp_expr *filter, const struct cp_expr *part_filter,
                           paimon_plan **out, paimon_error *err);

/* Reads through `rb` see snapshot `id`'s files with the table's current schema, unlike the
 * public paimon_read_builder_set_snapshot, which time-travels to the snapshot's own schema. For
 * the updaters, which read the rows of their base snapshot in the schema they are about to write
 * (Java's InnerTableScan.withSnapshot on the current table). The projection and filter already
 * set must resolve in that schema. EINVAL for id <= 0. */
int cp_read_builder_pin_snapshot(paimon_read_builder *rb, int64_t id, paimon_error *err);

/* Makes reads through `rb` ignore deletion vectors: the data-evolution updaters copy the current
 * values of every row of a group, deleted ones included, which stay deleted because the group's
 * DV keeps applying (data-evolution.md §3.2, §2.6). */
void cp_read_builder_ignore_deletion_vectors(paimon_read_builder *rb);

#endif
