/*
 * Window functions (exec.h; docs/sql.md "Window functions"): `f(...) OVER ([PARTITION BY ...]
 * [ORDER BY ...] [ROWS | RANGE BETWEEN ...])` in the select list and ORDER BY, evaluated after
 * WHERE, GROUP BY and HAVING, before DISTINCT, ORDER BY and LIMIT, as in Spark.
 *
 * Each call becomes one column of the relation the select list reads (cp_sql_scope.windows maps
 * the call to it). A call sorts the rows once — by partition (hash grouping of the PARTITION BY
 * values, then a stable counting pass) and within a partition by its ORDER BY — and walks the
 * sorted positions: ranking functions from the partition and peer boundaries (peers: rows equal
 * on every ORDER BY value), lag / lead by position, first_value / last_value and aggregates over
 * each row's frame (exec_agg.c, incrementally while the frame only grows). Frames: Spark's
 * defaults (with ORDER BY, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, i.e. up to the
 * current row's last peer; without, the whole partition), ROWS with any bounds, RANGE with
 * UNBOUNDED / CURRENT ROW bounds. The relation is materialized, so memory is that of the rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/bind.h"
#include "sql/exec.h"
#include "types/type_arrow.h"

typedef enum win_fn {
  W_ROW_NUMBER,
  W_RANK,
  W_DENSE_RANK,
  W_PERCENT_RANK,
  W_CUME_DIST,
  W_NTILE,
  W_LAG,
  W_LEAD,
  W_FIRST_VALUE,
  W_LAST_VALUE,
  W_AGGREGATE
} win_fn;

static const struct {
  const char *name;
  win_fn fn;
  size_t min_args, max_args;
} FUNCS[] = {
    {"row_number", W_ROW_NUMBER, 0, 0},
    {"rank", W_RANK, 0, 0},
    {"dense_rank", W_DENSE_RANK, 0, 0},
    {"percent_rank", W_PERCENT_RANK, 0, 0},
    {"cume_dist", W_CUME_DIST, 0, 0},
    {"ntile", W_NTILE, 1, 1},
    {"lag", W_LAG, 1, 3},
    {"lead", W_LEAD, 1, 3},
    {"first_value", W_FIRST_VALUE, 1, 1},
    {"last_value", W_LAST_VALUE, 1, 1},
    {"first", W_FIRST_VALUE, 1, 1},
    {"last", W_LAST_VALUE, 1, 1},
};

/* ---- collecting the calls ------------------------------------------------------------------- */

static int push_call(const cp_sql_expr *e, const cp_sql_expr ***list, size_t *n,
                     paimon_error *err) {
  for (size_t i = 0; i < *n; i++)
    if ((*list)[i] == e) return PAIMON_OK;
  const cp_sql_expr **grown = realloc(*list, (*n + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "window functions");
  *list = grown;
  grown[(*n)++] = e;
  return PAIMON_OK;
}

/* The window calls in `e` (not inside a window call's own arguments or a subquery). */
static int collect(const cp_sql_expr *e, const cp_sql_expr ***list, size_t *n, paimon_error *err) {
  for (; e; e = e->n_args ? e->args[0] : NULL) { /* first arguments with a loop (ast.h) */
    if (e->kind == CP_SQL_E_FUNC && e->window) return push_call(e, list, n, err);
    for (size_t i = 1; i < e->n_args; i++) CP_RETURN_IF_ERROR(collect(e->args[i], list, n, err));
  }
  return PAIMON_OK;
}

int cp_sql_collect_windows(const cp_sql_query *q, const cp_sql_expr ***list, size_t *n,
                           paimon_error *err) {
  *list = NULL;
  *n = 0;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < q->n_items; i++)
    if (q->items[i].expr) rc = collect(q->items[i].expr, list, n, err);
  for (size_t i = 0; !rc && i < q->n_order_by; i++) rc = collect(q->order_by[i].expr, list, n, err);
  if (rc) {
    free(*list);
    *list = NULL;
    *n = 0;
  }
  return rc;
}

/* ---- one call ------------------------------------------------------------------------------- */

typedef struct win_rows {
  int64_t n;
  int64_t *order;   /* position -> row, partition by partition */
  int64_t *part_lo; /* per position: its partition's first and last positions */
  int64_t *part_hi;
  int64_t *peer_lo; /* and its peers' (equal ORDER BY values) */
  int64_t *peer_hi;
  int64_t *frame_lo; /* its frame (lo > hi: empty) */
  int64_t *frame_hi;
} win_rows;

static void win_rows_free(win_rows *w) {
  free(w->order);
  free(w->part_lo);
  free(w->part_hi);
  free(w->peer_lo);
  free(w->peer_hi);
  free(w->frame_lo);
  free(w->frame_hi);
  memset(w, 0, sizeof *w);
}

/* Evaluates `exprs` over `r` into a relation (column names "#k<i>"). */
static int eval_columns(const cp_rel *r, const cp_sql_scope *scope, cp_sql_expr *const *exprs,
                        const cp_sql_order_item *items, size_t n, cp_rel *out, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    const cp_sql_expr *e = exprs ? exprs[i] : items[i].expr;
    cp_expr *bound = NULL;
    struct ArrowSchema s;
    struct ArrowArray a;
    char name[32];
    snprintf(name, sizeof name, "#k%zu", i);
    rc = cp_sql_bind(scope, e, &bound, err);
    if (!rc) rc = cp_sql_eval(r, bound, name, &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, name, NULL, bound->type, false, &s, &a, err);
    cp_expr_free(bound);
  }
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  return cp_rel_builder_finish(&b, cp_rel_rows(r), out, err);
}

/* Sorts the rows into partitions (first appearance order) and ORDER BY within each, and finds
 * the partition and peer boundaries of every position. */
static int arrange(const cp_rel *r, const cp_sql_scope *scope, const cp_sql_window *w,
                   win_rows *out, paimon_error *err) {
  int64_t n = cp_rel_rows(r);
  memset(out, 0, sizeof *out);
  out->n = n;
  size_t bytes = ((size_t)n + 1) * sizeof(int64_t);
  out->order = malloc(bytes);
  out->part_lo = malloc(bytes), out->part_hi = malloc(bytes);
  out->peer_lo = malloc(bytes), out->peer_hi = malloc(bytes);
  out->frame_lo = malloc(bytes), out->frame_hi = malloc(bytes);
  int64_t *sorted = malloc(bytes), *group_of = NULL, *first = NULL, n_groups = 1;
  cp_rel keys, ord;
  memset(&keys, 0, sizeof keys);
  memset(&ord, 0, sizeof ord);
  cp_array_view ov;
  memset(&ov, 0, sizeof ov);
  cp_sort_key *sk = calloc(w->n_order_by + 1, sizeof *sk);
  int rc = (!out->order || !out->part_lo || !out->part_hi || !out->peer_lo || !out->peer_hi ||
            !out->frame_lo || !out->frame_hi || !sorted || !sk)
               ? CP_ENOMEM(err, "window")
               : PAIMON_OK;
  /* Partitions. */
  if (!rc && w->n_partition_by) {
    rc = eval_columns(r, scope, w->partition_by, NULL, w->n_partition_by, &keys, err);
    if (!rc) rc = cp_sql_group_rows(&keys, w->n_partition_by, &group_of, &first, &n_groups, err);
  }
  /* Order within partitions: a stable sort by the ORDER BY values, then a stable counting pass
   * by partition. */
  if (!rc && w->n_order_by) {
    rc = eval_columns(r, scope, NULL, w->order_by, w->n_order_by, &ord, err);
    if (!rc) rc = cp_rel_view(&ord, &ov, err);
    for (size_t i = 0; !rc && i < w->n_order_by; i++) {
      sk[i].column = &ov.children[i];
      sk[i].descending = w->order_by[i].desc;
      sk[i].nulls_first = cp_sql_nulls_first(&w->order_by[i]);
    }
    if (!rc && n) rc = cp_sort_indices(sk, (int64_t)w->n_order_by, sorted, err);
  } else if (!rc) {
    for (int64_t i = 0; i < n; i++) sorted[i] = i;
  }
  int64_t *start = NULL;
  if (!rc) {
    start = calloc((size_t)n_groups + 1, sizeof *start);
    if (!start) rc = CP_ENOMEM(err, "window");
  }
  if (!rc) {
    for (int64_t i = 0; i < n; i++) start[(group_of ? group_of[i] : 0) + 1]++;
    for (int64_t g = 0; g < n_groups; g++) start[g + 1] += start[g];
    int64_t *fill = malloc(((size_t)n_groups + 1) * sizeof *fill);
    if (!fill) rc = CP_ENOMEM(err, "window");
    if (fill) {
      memcpy(fill, start, ((size_t)n_groups + 1) * sizeof *fill);
      for (int64_t i = 0; i < n; i++) {
        int64_t row = sorted[i], g = group_of ? group_of[row] : 0;
        out->order[fill[g]++] = row;
      }
      free(fill);
    }
  }
  for (int64_t p = 0; !rc && p < n; p++) {
    int64_t g = group_of ? group_of[out->order[p]] : 0;
    out->part_lo[p] = start[g];
    out->part_hi[p] = start[g + 1] - 1;
    bool peer = p > out->part_lo[p];
    for (size_t k = 0; peer && k < w->n_order_by; k++)
      peer = cp_rows_equal(&ov.children[k], out->order[p], &ov.children[k], out->order[p - 1]);
    if (!w->n_order_by)
      peer = p > out->part_lo[p]; /* no ORDER BY: the partition is one peer group */
    out->peer_lo[p] = peer ? out->peer_lo[p - 1] : p;
  }
  for (int64_t p = n; !rc && p-- > 0;)
    out->peer_hi[p] =
        p < out->part_hi[p] && out->peer_lo[p + 1] == out->peer_lo[p] ? out->peer_hi[p + 1] : p;
  free(start);
  free(sorted);
  free(sk);
  free(group_of);
  free(first);
  cp_array_view_reset(&ov);
  cp_rel_free(&keys);
  cp_rel_free(&ord);
  if (rc) win_rows_free(out);
  return rc;
}

static int64_t bound_pos(const win_rows *w, int64_t p, const cp_sql_frame_bound *b, bool range,
                         bool is_end) {
  switch (b->kind) {
  case CP_SQL_BOUND_UNBOUNDED_PRECEDING: return w->part_lo[p];
  case CP_SQL_BOUND_UNBOUNDED_FOLLOWING: return w->part_hi[p];
  case CP_SQL_BOUND_CURRENT_ROW: return range ? (is_end ? w->peer_hi[p] : w->peer_lo[p]) : p;
  case CP_SQL_BOUND_PRECEDING: {
    int64_t v = p - b->offset;
    return v < w->part_lo[p] - 1 ? w->part_lo[p] - 1 : v;
  }
  case CP_SQL_BOUND_FOLLOWING: {
    int64_t v = p + b->offset;
    return v > w->part_hi[p] + 1 ? w->part_hi[p] + 1 : v;
  }
  }
  return p;
}

/* Every position's frame, Spark's default when the call has none. */
static int frames(const cp_sql_expr *call, win_rows *w, paimon_error *err) {
  const cp_sql_window *s = call->window;
  if (s->has_frame && s->range &&
      (s->start.kind == CP_SQL_BOUND_PRECEDING || s->start.kind == CP_SQL_BOUND_FOLLOWING ||
       s->end.kind == CP_SQL_BOUND_PRECEDING || s->end.kind == CP_SQL_BOUND_FOLLOWING))
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, s->pos,
                           "not supported: RANGE frames with offsets (use ROWS, or UNBOUNDED / "
                           "CURRENT ROW bounds)");
  if (s->has_frame && (s->start.kind == CP_SQL_BOUND_UNBOUNDED_FOLLOWING ||
                       s->end.kind == CP_SQL_BOUND_UNBOUNDED_PRECEDING))
    return cp_sql_error_at(err, PAIMON_EINVAL, s->pos,
                           "[INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC] invalid window frame: the "
                           "frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED "
                           "PRECEDING");
  for (int64_t p = 0; p < w->n; p++) {
    if (!s->has_frame) {
      w->frame_lo[p] = w->part_lo[p];
      w->frame_hi[p] = s->n_order_by ? w->peer_hi[p] : w->part_hi[p];
      continue;
    }
    w->frame_lo[p] = bound_pos(w, p, &s->start, s->range, false);
    w->frame_hi[p] = bound_pos(w, p, &s->end, s->range, true);
    if (w->frame_lo[p] < w->part_lo[p]) w->frame_lo[p] = w->part_lo[p];
    if (w->frame_hi[p] > w->part_hi[p]) w->frame_hi[p] = w->part_hi[p];
  }
  return PAIMON_OK;
}

/* An INT or DOUBLE column from per-row values (ranking functions). */
static int number_column(const cp_type *t, const char *name, const win_rows *w, const int64_t *iv,
                         const double *dv, struct ArrowSchema *schema, struct ArrowArray *array,
                         paimon_error *err) {
  cp_builder *b = NULL;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(t, name, schema, err));
  int rc = cp_builder_create(&b, schema, err);
  for (int64_t r = 0; !rc && r < w->n; r++)
    rc = iv ? cp_builder_append_int64(b, iv[r], err) : cp_builder_append_double(b, dv[r], err);
  if (!rc) rc = cp_builder_finish(b, array, err);
  cp_builder_free(b);
  if (rc) cp_schema_release(schema);
  return rc;
}

static int ranking(win_fn fn, int64_t buckets, const char *name, const win_rows *w,
                   struct ArrowSchema *schema, struct ArrowArray *array, paimon_error *err) {
  int64_t *iv = NULL;
  double *dv = NULL;
  bool dbl = fn == W_PERCENT_RANK || fn == W_CUME_DIST;
  if (dbl)
    dv = malloc(((size_t)w->n + 1) * sizeof *dv);
  else
    iv = malloc(((size_t)w->n + 1) * sizeof *iv);
  if (!iv && !dv) return CP_ENOMEM(err, "window");
  int64_t dense = 0;
  for (int64_t p = 0; p < w->n; p++) {
    int64_t row = w->order[p], lo = w->part_lo[p], size = w->part_hi[p] - lo + 1;
    if (p == lo) dense = 0;
    if (w->peer_lo[p] == p) dense++;
    int64_t rank = w->peer_lo[p] - lo + 1;
    switch (fn) {
    case W_ROW_NUMBER: iv[row] = p - lo + 1; break;
    case W_RANK: iv[row] = rank; break;
    case W_DENSE_RANK: iv[row] = dense; break;
    case W_PERCENT_RANK: dv[row] = size > 1 ? (double)(rank - 1) / (double)(size - 1) : 0.0; break;
    case W_CUME_DIST: dv[row] = (double)(w->peer_hi[p] - lo + 1) / (double)size; break;
    default: { /* NTILE: Spark's bucket of the i-th row (0-based) of `size` into `buckets` */
      int64_t i = p - lo, per = size / buckets, extra = size % buckets;
      int64_t big = extra * (per + 1);
      iv[row] = i < big ? i / (per + 1) + 1 : (per ? extra + (i - big) / per + 1 : i + 1);
      break;
    }
    }
  }
  cp_type *t = NULL;
  int rc = cp_type_new(&t, dbl ? CP_TYPE_DOUBLE : CP_TYPE_INT, true, err);
  if (!rc) rc = number_column(t, name, w, iv, dv, schema, array, err);
  cp_type_free(t);
  free(iv);
  free(dv);
  return rc;
}

/* A constant integer argument (lag / lead offset, ntile's buckets). */
static int int_arg(const cp_sql_expr *call, size_t i, int64_t dflt, int64_t *out,
                   paimon_error *err) {
  *out = dflt;
  if (call->n_args <= i) return PAIMON_OK;
  return cp_sql_eval_constant_int(call->args[i], call->name.parts[call->name.n - 1], out, err);
}

/* lag / lead / first_value / last_value: the argument at another position of the partition (or
 * lag / lead's default there), taken row by row. */
static int value_at(win_fn fn, const cp_rel *r, const cp_sql_scope *scope, const cp_sql_expr *call,
                    const char *name, const win_rows *w, cp_type **type, struct ArrowSchema *schema,
                    struct ArrowArray *array, paimon_error *err) {
  int64_t off = 0;
  if (fn == W_LAG || fn == W_LEAD) CP_RETURN_IF_ERROR(int_arg(call, 1, 1, &off, err));
  if (fn == W_LAG) off = -off;
  cp_expr *arg = NULL, *dflt = NULL;
  struct ArrowSchema xs, ds, cs;
  struct ArrowArray xa, da, ca;
  memset(&xa, 0, sizeof xa), memset(&da, 0, sizeof da), memset(&ca, 0, sizeof ca);
  memset(&xs, 0, sizeof xs), memset(&ds, 0, sizeof ds), memset(&cs, 0, sizeof cs);
  cp_array_view views[2];
  memset(views, 0, sizeof views);
  int64_t n = w->n, *idx = malloc(((size_t)n + 1) * sizeof *idx);
  bool has_default = (fn == W_LAG || fn == W_LEAD) && call->n_args == 3;
  int rc = idx ? cp_sql_bind(scope, call->args[0], &arg, err) : CP_ENOMEM(err, "window");
  if (!rc) rc = cp_sql_eval(r, arg, name, &xs, &xa, err);
  if (!rc && has_default) {
    rc = cp_sql_bind_assigned(scope, call->args[2], arg->type, &dflt, err);
    if (!rc) rc = cp_sql_eval(r, dflt, name, &ds, &da, err);
    if (!rc && !cp_type_equals(dflt->type, arg->type, CP_TYPE_EQ_IGNORE_NULLABILITY)) {
      struct ArrowSchema s2;
      struct ArrowArray a2;
      rc = cp_sql_assign_array(dflt->type, &ds, &da, arg->type, name, &s2, &a2, err);
      cp_schema_release(&ds), cp_array_release(&da);
      if (!rc) ds = s2, da = a2;
    }
  }
  if (!rc) rc = cp_array_view_init(&views[0], &xs, &xa, err);
  if (!rc && has_default) rc = cp_array_view_init(&views[1], &xs, &da, err);
  for (int64_t p = 0; !rc && p < n; p++) {
    int64_t row = w->order[p], at;
    if (fn == W_FIRST_VALUE)
      at = w->frame_lo[p] <= w->frame_hi[p] ? w->frame_lo[p] : -1;
    else if (fn == W_LAST_VALUE)
      at = w->frame_lo[p] <= w->frame_hi[p] ? w->frame_hi[p] : -1;
    else
      at = p + off >= w->part_lo[p] && p + off <= w->part_hi[p] ? p + off : -1;
    idx[row] = at >= 0 ? w->order[at] : has_default ? n + row : -1;
  }
  if (!rc && has_default) {
    /* x's rows then the default's, so one take picks either. */
    rc = cp_concat(views, 2, &ca, err);
    cp_array_view_reset(&views[0]);
    if (!rc) rc = cp_array_view_init(&views[0], &xs, &ca, err);
  }
  if (!rc) rc = cp_take(&views[0], idx, n, array, err);
  if (!rc) rc = cp_schema_copy(schema, &xs, err);
  if (!rc) rc = cp_type_copy_nullable(type, arg->type, true, err);
  cp_array_view_reset(&views[0]);
  cp_array_view_reset(&views[1]);
  cp_array_release(&xa), cp_array_release(&da), cp_array_release(&ca);
  cp_schema_release(&xs), cp_schema_release(&ds), cp_schema_release(&cs);
  cp_expr_free(arg);
  cp_expr_free(dflt);
  free(idx);
  return rc;
}

static int compute(const cp_rel *r, const cp_sql_scope *scope, const cp_sql_expr *call,
                   const char *name, cp_type **type, struct ArrowSchema *schema,
                   struct ArrowArray *array, paimon_error *err) {
  const char *fname = call->name.parts[call->name.n - 1];
  win_fn fn = W_AGGREGATE;
  size_t min_args = 0, max_args = 0;
  bool known = false;
  for (size_t i = 0; i < sizeof FUNCS / sizeof FUNCS[0] && !known; i++)
    if (call->name.n == 1 && strcasecmp(fname, FUNCS[i].name) == 0)
      fn = FUNCS[i].fn, min_args = FUNCS[i].min_args, max_args = FUNCS[i].max_args, known = true;
  if (!known && !cp_sql_is_aggregate_function(call))
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, call->pos, "not supported: window function %s",
                           fname);
  if (call->distinct)
    return cp_sql_error_at(err, PAIMON_EINVAL, call->pos,
                           "DISTINCT is not supported in window functions (Spark: Distinct window "
                           "functions are not supported)");
  if (known && (call->n_args < min_args || call->n_args > max_args))
    return cp_sql_error_at(err, PAIMON_EINVAL, call->pos,
                           "function %s takes %zu to %zu arguments, got %zu", fname, min_args,
                           max_args, call->n_args);
  if (fn <= W_LEAD && !call->window->n_order_by)
    return cp_sql_error_at(err, PAIMON_EINVAL, call->pos,
                           "Window function %s() requires window to be ordered, please add ORDER "
                           "BY clause. For example SELECT %s()(value_expr) OVER (PARTITION BY "
                           "window_partition ORDER BY window_ordering) from table",
                           fname, fname);
  win_rows w;
  CP_RETURN_IF_ERROR(arrange(r, scope, call->window, &w, err));
  int rc = frames(call, &w, err);
  if (!rc && fn <= W_NTILE) {
    int64_t buckets = 0;
    if (fn == W_NTILE) rc = int_arg(call, 0, 1, &buckets, err);
    if (!rc && fn == W_NTILE && buckets <= 0)
      rc =
          cp_sql_error_at(err, PAIMON_EINVAL, call->pos,
                          "Buckets expression must be positive, but got: %lld", (long long)buckets);
    if (!rc) rc = ranking(fn, buckets, name, &w, schema, array, err);
    if (!rc)
      rc = cp_type_new(type,
                       fn == W_PERCENT_RANK || fn == W_CUME_DIST ? CP_TYPE_DOUBLE : CP_TYPE_INT,
                       true, err);
  } else if (!rc && fn != W_AGGREGATE) {
    rc = value_at(fn, r, scope, call, name, &w, type, schema, array, err);
  } else if (!rc) {
    rc = cp_sql_window_aggregate(r, scope, call, w.order, w.frame_lo, w.frame_hi, w.part_lo, w.n,
                                 type, schema, array, err);
  }
  win_rows_free(&w);
  return rc;
}

int cp_sql_compute_windows(cp_rel *r, cp_sql_scope *scope, const cp_sql_expr *const *calls,
                           size_t n, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  size_t base = r->n_cols;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < base; i++) rc = cp_rel_builder_add_from(&b, r, i, err);
  for (size_t i = 0; !rc && i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "#window%zu", i);
    struct ArrowSchema s;
    struct ArrowArray a;
    cp_type *t = NULL;
    rc = compute(r, scope, calls[i], name, &t, &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, name, NULL, t, true, &s, &a, err);
    cp_type_free(t);
  }
  cp_rel grown;
  memset(&grown, 0, sizeof grown);
  if (!rc)
    rc = cp_rel_builder_finish(&b, cp_rel_rows(r), &grown, err);
  else
    cp_rel_builder_free(&b);
  CP_RETURN_IF_ERROR(rc);
  /* The scope reads the grown relation: same columns first, then the windows'. */
  const cp_sql_agg_binding *agg = scope->agg;
  const char *clause = scope->clause;
  cp_sql_scope_free(scope);
  cp_rel_free(r);
  *r = grown;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(scope, r->cols, r->n_cols, clause, err));
  scope->agg = agg;
  scope->windows = calls;
  scope->n_windows = n;
  scope->window_col0 = base;
  return PAIMON_OK;
}
