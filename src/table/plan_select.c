/*
 * Shards, slices and limits of a scan (read.h paimon_read_builder_set_shard / _set_slice /
 * _set_limit), applied to a plan after pruning, with pypaimon 2.1.0's rules so that a worker
 * running cpaimon and one running pypaimon agree on which rows shard i of n reads:
 *
 * - Data-evolution tables (pypaimon DataEvolutionSplitGenerator._divide_ranges_by_position): the
 *   row-id ranges of the planned files, sorted and merged where they overlap, are numbered by
 *   position; the positions [start, end) of the shard become one row-id range, and each group
 *   reads its intersection with it (a group at an edge is read in part, as pypaimon's
 *   IndexedSplit).
 * - Other tables (pypaimon slice_append_splits): the physical rows of the planned files are
 *   numbered in plan order ((partition, bucket) in order of first appearance, see plan.c), and
 *   each file reads the positions of the shard it holds (pypaimon's SlicedSplit).
 *
 * Shards divide the positions evenly into contiguous blocks, the first (total % n) one position
 * larger (pypaimon scan_distribution.shard_range). Rows deleted by deletion vectors hold positions
 * too: the reader drops them after selecting positions, as pypaimon does.
 *
 * The limit is Java's DataTableBatchScan.applyPushDownLimit as pypaimon mirrors it: splits are
 * kept until their merged row counts reach the limit; the reader stops at the limit itself.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr.h"
#include "table/scan.h"

typedef struct id_range {
  int64_t from, to; /* inclusive */
} id_range;

static int cmp_range(const void *x, const void *y) {
  const id_range *a = x, *b = y;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return a->to < b->to ? -1 : a->to > b->to;
}

/* Shard `index` of `count` over `total` positions: [*start, *end). */
static void shard_positions(int64_t total, int64_t index, int64_t count, int64_t *start,
                            int64_t *end) {
  int64_t base = total / count, rem = total % count;
  *start = index * base + (index < rem ? index : rem);
  *end = *start + base + (index < rem ? 1 : 0);
}

/* Restricts split `s` to its physical positions [from, to) (within [0, row_count)). */
static void narrow(cp_split *s, int64_t from, int64_t to) {
  if (from <= 0 && to >= s->row_count) return;
  s->sliced = true;
  s->slice_from = from;
  s->slice_to = to;
  s->row_count = to - from;
}

static void select_positions(const cp_plan_selection *sel, int64_t total, int64_t *start,
                             int64_t *end) {
  if (sel->mode == CP_SELECT_SHARD) {
    shard_positions(total, sel->a, sel->b, start, end);
  } else {
    *start = sel->a;
    *end = sel->b;
  }
}

/* Tables without data evolution: physical positions in plan order. */
static void select_plain(paimon_plan *p, const cp_plan_selection *sel) {
  int64_t total = 0, start, end, offset = 0;
  for (size_t i = 0; i < p->n_splits; i++) total += p->splits[i].row_count;
  select_positions(sel, total, &start, &end);
  size_t k = 0;
  for (size_t i = 0; i < p->n_splits; i++) {
    cp_split s = p->splits[i];
    int64_t n = s.row_count;
    int64_t lo = start - offset > 0 ? start - offset : 0;
    int64_t hi = end - offset < n ? end - offset : n;
    offset += n;
    if (lo >= hi) continue;
    narrow(&s, lo, hi);
    p->splits[k++] = s;
  }
  p->n_splits = k;
}

/* The row-id range [*lo, *hi] of positions [start, end) over the merged ranges `r` (n > 0, with
 * `total` ids); false when the positions hold no row. */
static bool positions_to_ids(const id_range *r, size_t n, int64_t total, int64_t start, int64_t end,
                             int64_t *lo, int64_t *hi) {
  if (start >= total) return false;
  bool have_lo = false, have_hi = false;
  int64_t cur = 0;
  for (size_t i = 0; i < n; i++) {
    int64_t count = r[i].to - r[i].from + 1, range_end = cur + count;
    if (!have_lo && start < range_end) {
      *lo = r[i].from + (start - cur);
      have_lo = true;
    }
    if (end <= range_end) {
      *hi = r[i].from + (end - cur) - 1;
      have_hi = true;
      break;
    }
    cur = range_end;
  }
  if (!have_lo) return false;
  if (!have_hi) *hi = r[n - 1].to;
  return true;
}

/* Data-evolution tables: positions over the distinct row ids, in row-id order. */
static int select_de(paimon_plan *p, const cp_plan_selection *sel, paimon_error *err) {
  if (p->n_splits == 0) return PAIMON_OK;
  id_range *r = malloc(p->n_splits * sizeof *r);
  if (!r) return CP_ENOMEM(err, "plan");
  for (size_t i = 0; i < p->n_splits; i++)
    r[i] = (id_range){p->splits[i].first_row_id,
                      p->splits[i].first_row_id + p->splits[i].row_count - 1};
  qsort(r, p->n_splits, sizeof *r, cmp_range);
  size_t n = 1;
  for (size_t i = 1; i < p->n_splits; i++) {
    if (r[i].from <= r[n - 1].to) {
      if (r[i].to > r[n - 1].to) r[n - 1].to = r[i].to;
    } else {
      r[n++] = r[i];
    }
  }
  int64_t total = 0, start, end, lo = 0, hi = -1;
  for (size_t i = 0; i < n; i++) total += r[i].to - r[i].from + 1;
  select_positions(sel, total, &start, &end);
  bool any = positions_to_ids(r, n, total, start, end, &lo, &hi);
  free(r);
  size_t k = 0;
  for (size_t i = 0; any && i < p->n_splits; i++) {
    cp_split s = p->splits[i];
    int64_t from = s.first_row_id, to = s.first_row_id + s.row_count - 1;
    int64_t a = lo > from ? lo : from, b = hi < to ? hi : to;
    if (a > b) continue;
    narrow(&s, a - from, b - from + 1);
    p->splits[k++] = s;
  }
  p->n_splits = k;
  return PAIMON_OK;
}

/* Java's applyPushDownLimit: keep splits until their merged row counts reach the limit. */
static void push_down_limit(paimon_table *t, paimon_plan *p, int64_t limit) {
  if (t->options.data_evolution && t->options.deletion_vectors) return;
  int64_t sum = 0;
  for (size_t i = 0; i < p->n_splits; i++) {
    const cp_split *s = &p->splits[i];
    /* A file-wide DV cardinality says nothing about the part of the file a slice reads. */
    if (s->sliced && s->dv_path && !t->options.data_evolution) return;
    sum += s->row_count - (s->dv_path && !s->sliced ? s->dv_cardinality : 0);
    if (sum >= limit) {
      p->n_splits = i + 1;
      return;
    }
  }
}

int cp_plan_select(paimon_table *t, paimon_plan *p, const cp_plan_selection *sel,
                   paimon_error *err) {
  if (sel->mode != CP_SELECT_ALL) {
    if (t->options.data_evolution)
      CP_RETURN_IF_ERROR(select_de(p, sel, err));
    else
      select_plain(p, sel);
  }
  if (sel->has_limit && sel->push_limit) push_down_limit(t, p, sel->limit);
  return PAIMON_OK;
}

/* ------------------------------------ builder settings ------------------------------------ */

int cp_plan_selection_shard(cp_plan_selection *sel, int64_t index, int64_t count,
                            paimon_error *err) {
  /* pypaimon's validate_shard messages, in its order. */
  if (count <= 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "number_of_para_subtasks must be a positive integer (got %" PRId64 ")",
                            count);
  if (index < 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "idx_of_this_subtask must be a non-negative integer (got %" PRId64 ")",
                            index);
  if (index >= count)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "idx_of_this_subtask must be less than number_of_para_subtasks "
                            "(%" PRId64 " >= %" PRId64 ")",
                            index, count);
  if (sel->mode == CP_SELECT_SLICE)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "with_shard and with_slice cannot be used simultaneously");
  sel->mode = CP_SELECT_SHARD;
  sel->a = index;
  sel->b = count;
  return PAIMON_OK;
}

int cp_plan_selection_slice(cp_plan_selection *sel, int64_t start, int64_t end, paimon_error *err) {
  if (start < 0 || start >= end)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "start_pos must be non-negative and less than end_pos; both must be "
                            "integers (got %" PRId64 ", %" PRId64 ")",
                            start, end);
  if (sel->mode == CP_SELECT_SHARD)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "with_slice and with_shard cannot be used simultaneously");
  sel->mode = CP_SELECT_SLICE;
  sel->a = start;
  sel->b = end;
  return PAIMON_OK;
}

static bool is_partition_key(const cp_table_schema *s, const char *name) {
  for (size_t i = 0; i < s->n_partition_keys; i++)
    if (strcmp(s->row->fields[cp_table_schema_partition_index(s, i)].name, name) == 0) return true;
  return false;
}

/* True when every column an unbound tree names is a partition key of `s`. */
static bool names_partition_keys_only(const cp_expr *e, const cp_table_schema *s) {
  for (; e; e = e->n_args ? e->args[0] : NULL) { /* first arguments with a loop (expr.h) */
    if (e->kind == CP_EXPR_COLUMN) return e->name && is_partition_key(s, e->name);
    for (size_t i = 1; i < e->n_args; i++)
      if (!names_partition_keys_only(e->args[i], s)) return false;
  }
  return true;
}

typedef struct expr_vec {
  cp_expr **items;
  size_t n, cap;
} expr_vec;

/* pypaimon's _split_and + trim_predicate_by_fields: the conjuncts of `e` that read partition
 * keys only, copied into `v`. */
static int keep_partition_conjuncts(const cp_expr *e, const cp_table_schema *s, expr_vec *v,
                                    paimon_error *err) {
  if (e->kind == CP_EXPR_AND) {
    for (size_t i = 0; i < e->n_args; i++)
      CP_RETURN_IF_ERROR(keep_partition_conjuncts(e->args[i], s, v, err));
    return PAIMON_OK;
  }
  if (s->n_partition_keys == 0 || !names_partition_keys_only(e, s)) return PAIMON_OK;
  if (v->n == v->cap) {
    size_t c = v->cap ? v->cap * 2 : 4;
    cp_expr **items = realloc(v->items, c * sizeof *items);
    if (!items) return CP_ENOMEM(err, "partition filter");
    v->items = items;
    v->cap = c;
  }
  CP_RETURN_IF_ERROR(cp_expr_copy(&v->items[v->n], e, err));
  v->n++;
  return PAIMON_OK;
}

int cp_partition_conjuncts(const cp_expr *unbound, const cp_table_schema *s, cp_expr **out,
                           paimon_error *err) {
  *out = NULL;
  expr_vec v = {0};
  int rc = keep_partition_conjuncts(unbound, s, &v, err);
  /* Nothing kept: a filter that keeps every partition (pypaimon then prunes no partition, not
   * even by the row filter). */
  if (!rc && v.n == 0)
    rc = cp_expr_bool(out, true, err);
  else if (!rc) {
    rc = cp_expr_and(out, v.items, v.n, err);
    v.n = 0; /* consumed */
  }
  for (size_t i = 0; i < v.n; i++) cp_expr_free(v.items[i]);
  free(v.items);
  return rc;
}

int cp_filter_reads_partitions_only(const cp_expr *bound, const cp_table_schema *s, bool *out,
                                    paimon_error *err) {
  *out = true;
  if (!bound) return PAIMON_OK;
  int32_t *cols = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(cp_expr_columns(bound, &cols, &n, err));
  for (size_t i = 0; i < n && *out; i++) {
    bool part = false;
    for (size_t k = 0; k < s->n_partition_keys && !part; k++)
      part = (size_t)cols[i] == cp_table_schema_partition_index(s, k);
    if (!part) *out = false;
  }
  free(cols);
  return PAIMON_OK;
}
