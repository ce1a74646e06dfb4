/*
 * GROUP BY and aggregate functions (docs/sql.md, "Aggregation"), with Spark's result types and
 * NULL rules (sql/catalyst expressions/aggregate/Count, Sum, Average, Min, Max, non-ANSI mode):
 *
 *   COUNT(*)            BIGINT, rows;   COUNT(x) non-NULL values;   COUNT(DISTINCT x) distinct ones
 *   SUM(integral)       BIGINT (wraps on overflow);   SUM(FLOAT/DOUBLE) DOUBLE
 *   SUM(DECIMAL(p, s))  DECIMAL(min(38, p + 10), s), NULL on overflow
 *   AVG(numeric)        DOUBLE;   AVG(DECIMAL(p, s)) DECIMAL(min(38, p + 4), min(38, s + 4)),
 * HALF_UP MIN / MAX           the argument's type, Spark's ordering (NaN largest) a STRING argument
 * of SUM / AVG is cast to DOUBLE, as Spark's implicit casts do
 *
 * Every aggregate but COUNT is NULL over no non-NULL value; a query without GROUP BY has exactly
 * one group, even over no row. Groups are found by hashing the key columns (arrow/ops.h
 * cp_hash_rows, cp_rows_equal: NULL keys form their own group), in order of first appearance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/bitmap.h"
#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"
#include "types/type_arrow.h"

/* ---- grouping ------------------------------------------------------------------------------- */

/* group_of[r] for each row, first_row[g] for each group (malloc'd). Rows are equal when every
 * column in cols[0..n_cols) is. */
static int assign_groups(const cp_array_view *cols, size_t n_cols, int64_t rows, int64_t **group_of,
                         int64_t **first_row, int64_t *n_groups, paimon_error *err) {
  *group_of = NULL;
  *first_row = NULL;
  *n_groups = 0;
  size_t cap = 16;
  while (cap < (size_t)rows * 2 + 2) cap *= 2;
  uint64_t *hashes = malloc(((size_t)rows + 1) * sizeof *hashes);
  int64_t *slots = malloc(cap * sizeof *slots);
  int64_t *gof = malloc(((size_t)rows + 1) * sizeof *gof);
  int64_t *first = malloc(((size_t)rows + 1) * sizeof *first);
  int rc = (!hashes || !slots || !gof || !first) ? CP_ENOMEM(err, "grouping") : PAIMON_OK;
  if (!rc && n_cols) rc = cp_hash_rows(cols, (int64_t)n_cols, hashes, err);
  if (!rc && !n_cols) memset(hashes, 0, ((size_t)rows + 1) * sizeof *hashes);
  int64_t n = 0;
  if (!rc) {
    for (size_t i = 0; i < cap; i++) slots[i] = -1;
    size_t mask = cap - 1;
    for (int64_t r = 0; r < rows; r++) {
      size_t pos = (size_t)hashes[r] & mask;
      int64_t g = -1;
      while (slots[pos] >= 0) {
        int64_t cand = slots[pos];
        if (hashes[first[cand]] == hashes[r]) {
          bool eq = true;
          for (size_t c = 0; c < n_cols && eq; c++)
            eq = cp_rows_equal(&cols[c], r, &cols[c], first[cand]);
          if (eq) {
            g = cand;
            break;
          }
        }
        pos = (pos + 1) & mask;
      }
      if (g < 0) {
        g = n++;
        first[g] = r;
        slots[pos] = g;
      }
      gof[r] = g;
    }
  }
  free(hashes);
  free(slots);
  if (rc) {
    free(gof);
    free(first);
    return rc;
  }
  *group_of = gof;
  *first_row = first;
  *n_groups = n;
  return PAIMON_OK;
}

int cp_sql_group_rows(const cp_rel *r, size_t n_cols, int64_t **group_of, int64_t **first_row,
                      int64_t *n_groups, paimon_error *err) {
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  int rc = assign_groups(v.children, n_cols, v.length, group_of, first_row, n_groups, err);
  cp_array_view_reset(&v);
  return rc;
}

int cp_sql_distinct_rows(const cp_rel *r, size_t n_cols, int64_t **idx, int64_t *n,
                         paimon_error *err) {
  int64_t *group_of = NULL;
  int rc = cp_sql_group_rows(r, n_cols, &group_of, idx, n, err);
  free(group_of);
  return rc;
}

static bool has_map(const cp_type *t) {
  switch (t->kind) {
  case CP_TYPE_MAP: return true;
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
  case CP_TYPE_MULTISET: return has_map(t->element);
  case CP_TYPE_ROW:
    for (size_t i = 0; i < t->n_fields; i++)
      if (has_map(t->fields[i].type)) return true;
    return false;
  default: return false;
  }
}

int cp_sql_refuse_map(cp_sql_map_use use, const cp_type *t, const char *what, cp_sql_pos pos,
                      paimon_error *err) {
  if (!has_map(t)) return PAIMON_OK;
  cp_buf type = CP_BUF_INIT;
  int rc = cp_sql_spark_type(t, true, &type, err);
  if (!rc) rc = cp_buf_nul_terminate(&type, err);
  if (rc) {
    cp_buf_free(&type);
    return rc;
  }
  const char *ts = (const char *)type.data;
  switch (use) {
  case CP_SQL_MAP_GROUP_BY:
    rc = cp_sql_error_at(err, PAIMON_EINVAL, pos,
                         "[GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE] The expression \"%s\" cannot be "
                         "used as a grouping expression because its data type \"%s\" is not an "
                         "orderable data type.",
                         what, ts);
    break;
  case CP_SQL_MAP_ORDER_BY:
  case CP_SQL_MAP_MIN_MAX: {
    int fn_len = use == CP_SQL_MAP_ORDER_BY ? 9 : (int)strcspn(what, "(");
    rc = cp_sql_error_at(err, PAIMON_EINVAL, pos,
                         "[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve \"%s\" due to "
                         "data type mismatch: The `%.*s` does not support ordering on type \"%s\".",
                         what, fn_len, use == CP_SQL_MAP_ORDER_BY ? "sortorder" : what, ts);
    break;
  }
  case CP_SQL_MAP_SET_OP:
    rc = cp_sql_error_at(err, PAIMON_EINVAL, pos,
                         "[UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE] The feature is not "
                         "supported: Cannot have MAP type columns in DataFrame which calls set "
                         "operations (INTERSECT, EXCEPT, etc.), but the type of column `%s` is "
                         "\"%s\".",
                         what, ts);
    break;
  }
  cp_buf_free(&type);
  return rc;
}

/* ---- aggregate specifications ---------------------------------------------------------------- */

typedef enum agg_fn { AGG_COUNT_STAR, AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX } agg_fn;

typedef struct agg_spec {
  agg_fn fn;
  bool distinct;
  cp_expr *arg;    /* bound argument (NULL for COUNT(*)) */
  cp_expr *filter; /* FILTER (WHERE ...), bound; NULL without */
  /* count([DISTINCT] a, b, ...): every argument, bound (arg is NULL then) */
  cp_expr **tuple;
  size_t n_tuple;
  cp_type *result; /* owned */
  char *name;      /* display name */
} agg_spec;

static void spec_clear(agg_spec *a) {
  cp_expr_free(a->arg);
  cp_expr_free(a->filter);
  for (size_t i = 0; i < a->n_tuple; i++) cp_expr_free(a->tuple[i]);
  free(a->tuple);
  cp_type_free(a->result);
  free(a->name);
  memset(a, 0, sizeof *a);
}

/* The result type of SUM / AVG over `t`, or EINVAL. *cast_double when a STRING argument is to be
 * cast to DOUBLE first. */
static int numeric_result(agg_fn fn, const cp_sql_expr *call, const cp_type *t, cp_type **out,
                          bool *cast_double, paimon_error *err) {
  *cast_double = false;
  if (cp_type_is_integer(t))
    return cp_type_new(out, fn == AGG_SUM ? CP_TYPE_BIGINT : CP_TYPE_DOUBLE, true, err);
  if (t->kind == CP_TYPE_FLOAT || t->kind == CP_TYPE_DOUBLE || cp_type_is_string(t)) {
    *cast_double = cp_type_is_string(t);
    return cp_type_new(out, CP_TYPE_DOUBLE, true, err);
  }
  if (t->kind == CP_TYPE_DECIMAL) {
    int p = t->precision + (fn == AGG_SUM ? 10 : 4), s = t->scale + (fn == AGG_SUM ? 0 : 4);
    if (p > CP_DECIMAL_MAX_PRECISION) p = CP_DECIMAL_MAX_PRECISION;
    if (s > CP_DECIMAL_MAX_PRECISION) s = CP_DECIMAL_MAX_PRECISION;
    return cp_type_new_decimal(out, p, s, true, err);
  }
  char name[128];
  cp_sql_type_name(t, name, sizeof name);
  return cp_sql_error_at(err, PAIMON_EINVAL, call->pos,
                         "function %s requires a numeric argument, got %s",
                         fn == AGG_SUM ? "sum" : "avg", name);
}

static int bind_arg(const cp_sql_scope *scope, const cp_sql_expr *call, agg_spec *a,
                    paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sql_bind(scope, call->args[0], &a->arg, err));
  if (a->fn == AGG_COUNT) return cp_type_new(&a->result, CP_TYPE_BIGINT, false, err);
  if (a->fn == AGG_MIN || a->fn == AGG_MAX) {
    CP_RETURN_IF_ERROR(
        cp_sql_refuse_map(CP_SQL_MAP_MIN_MAX, a->arg->type, a->name, call->pos, err));
    return cp_type_copy_nullable(&a->result, a->arg->type, true, err);
  }
  bool cast_double = false;
  CP_RETURN_IF_ERROR(numeric_result(a->fn, call, a->arg->type, &a->result, &cast_double, err));
  if (!cast_double) return PAIMON_OK;
  cp_expr *cast = NULL, *bound = NULL;
  int rc = cp_expr_cast(&cast, a->arg, a->result, err);
  a->arg = NULL;
  if (!rc) rc = cp_expr_bind(cast, scope->row, false, &bound, err);
  cp_expr_free(cast);
  a->arg = bound;
  return rc;
}

static int make_spec(const cp_sql_scope *scope, const cp_sql_expr *call, agg_spec *a,
                     paimon_error *err) {
  memset(a, 0, sizeof *a);
  const char *name = call->name.parts[0];
  a->distinct = call->distinct;
  if (strcasecmp(name, "count") == 0)
    a->fn = call->star_arg ? AGG_COUNT_STAR : AGG_COUNT;
  else if (strcasecmp(name, "sum") == 0)
    a->fn = AGG_SUM;
  else if (strcasecmp(name, "min") == 0)
    a->fn = AGG_MIN;
  else if (strcasecmp(name, "max") == 0)
    a->fn = AGG_MAX;
  else
    a->fn = AGG_AVG; /* avg, mean */
  CP_RETURN_IF_ERROR(cp_sql_display_name(call, &a->name, err));
  if (call->filter) {
    if (cp_sql_has_aggregate(call->filter))
      return cp_sql_error_at(err, PAIMON_EINVAL, call->filter->pos,
                             "aggregate functions are not allowed in the FILTER of %s", a->name);
    CP_RETURN_IF_ERROR(cp_sql_bind_predicate(scope, call->filter, &a->filter, err));
  }
  if (a->fn == AGG_COUNT_STAR) return cp_type_new(&a->result, CP_TYPE_BIGINT, false, err);
  if (call->star_arg)
    return cp_sql_error_at(err, PAIMON_EINVAL, call->pos, "'*' is only allowed in count(*)");
  if (a->fn == AGG_COUNT && call->n_args > 1) {
    /* count([DISTINCT] a, b): (distinct) tuples of non-NULL values (Spark's Count over several). */
    a->tuple = calloc(call->n_args, sizeof *a->tuple);
    if (!a->tuple) return CP_ENOMEM(err, "count");
    for (size_t i = 0; i < call->n_args; i++, a->n_tuple++)
      CP_RETURN_IF_ERROR(cp_sql_bind(scope, call->args[i], &a->tuple[i], err));
    return cp_type_new(&a->result, CP_TYPE_BIGINT, false, err);
  }
  if (call->n_args != 1)
    return cp_sql_error_at(err, PAIMON_EINVAL, call->pos, "function %s takes 1 argument, got %zu",
                           name, call->n_args);
  return bind_arg(scope, call, a, err);
}

/* ---- computing one aggregate ----------------------------------------------------------------- */

static cp_int128 dec_of(const cp_array_view *v, int64_t i) {
  cp_dec128 d = cp_view_get_decimal128(v, i);
  return (cp_int128)(((unsigned __int128)(uint64_t)d.hi << 64) | d.lo);
}

static cp_dec128 dec_to(cp_int128 v) {
  cp_dec128 d;
  d.lo = (uint64_t)v;
  d.hi = (int64_t)(v >> 64);
  return d;
}

static cp_int128 pow10_128(int n) {
  cp_int128 p = 1;
  for (int i = 0; i < n; i++) p *= 10;
  return p;
}

/* Marks keep[r] for the first row of each (group, value) pair with a non-NULL value. */
static int distinct_mask(const cp_array_view *v, const int64_t *group_of, int64_t rows,
                         const uint8_t *pass, bool *keep, paimon_error *err) {
  size_t cap = 16;
  while (cap < (size_t)rows * 2 + 2) cap *= 2;
  int64_t *slots = malloc(cap * sizeof *slots);
  if (!slots) return CP_ENOMEM(err, "DISTINCT");
  for (size_t i = 0; i < cap; i++) slots[i] = -1;
  for (int64_t r = 0; r < rows; r++) {
    keep[r] = false;
    if (cp_view_is_null(v, r) || (pass && !cp_bit_get(pass, r))) continue;
    uint64_t h = cp_hash_value(v, r, (uint64_t)group_of[r] * 0x9E3779B97F4A7C15ull + 1);
    size_t pos = (size_t)h & (cap - 1);
    bool seen = false;
    while (slots[pos] >= 0 && !seen) {
      int64_t o = slots[pos];
      seen = group_of[o] == group_of[r] && cp_rows_equal(v, r, v, o);
      pos = (pos + 1) & (cap - 1);
    }
    if (!seen) {
      slots[pos] = r;
      keep[r] = true;
    }
  }
  free(slots);
  return PAIMON_OK;
}

typedef struct acc {
  int64_t count;
  bool overflow;
  int64_t i64;
  double f64;
  cp_int128 dec;
  int64_t best; /* MIN / MAX row */
} acc;

static void accumulate(const agg_spec *a, const cp_array_view *v, int64_t r, acc *g) {
  if (a->fn == AGG_COUNT_STAR) {
    g->count++;
    return;
  }
  if (cp_view_is_null(v, r)) return;
  g->count++;
  const cp_type *t = a->arg->type;
  if (a->fn == AGG_MIN || a->fn == AGG_MAX) {
    if (g->best < 0)
      g->best = r;
    else {
      int c = cp_compare_values(v, r, v, g->best);
      if ((a->fn == AGG_MIN && c < 0) || (a->fn == AGG_MAX && c > 0)) g->best = r;
    }
  } else if (t->kind == CP_TYPE_DECIMAL) {
    if (__builtin_add_overflow(g->dec, dec_of(v, r), &g->dec)) g->overflow = true;
  } else if (cp_type_is_integer(t) && a->fn == AGG_SUM) {
    g->i64 = (int64_t)((uint64_t)g->i64 + (uint64_t)cp_view_get_int64(v, r));
  } else {
    g->f64 += cp_view_get_double(v, r);
  }
}

/* AVG of a decimal: sum / count at the result scale, rounded HALF_UP; false on overflow. */
static bool decimal_avg(cp_int128 sum, int64_t count, int from_scale, const cp_type *result,
                        cp_int128 *out) {
  cp_int128 scaled;
  if (__builtin_mul_overflow(sum, pow10_128(result->scale - from_scale), &scaled)) return false;
  cp_int128 q = scaled / count, rem = scaled % count;
  if (rem < 0) rem = -rem;
  if (rem * 2 >= count) q += scaled < 0 ? -1 : 1;
  cp_int128 limit = pow10_128(result->precision);
  *out = q;
  return q < limit && q > -limit;
}

static int append_result(const agg_spec *a, const acc *g, cp_builder *b, paimon_error *err) {
  const cp_type *t = a->arg ? a->arg->type : NULL;
  if (a->fn == AGG_COUNT_STAR || a->fn == AGG_COUNT)
    return cp_builder_append_int64(b, g->count, err);
  if (g->count == 0 || g->overflow) return cp_builder_append_null(b, err);
  if (a->result->kind == CP_TYPE_DOUBLE) {
    double v = g->f64;
    if (a->fn == AGG_AVG) v /= (double)g->count;
    return cp_builder_append_double(b, v, err);
  }
  if (a->result->kind == CP_TYPE_BIGINT) return cp_builder_append_int64(b, g->i64, err);
  cp_int128 v = g->dec;
  if (a->fn == AGG_AVG && !decimal_avg(g->dec, g->count, t->scale, a->result, &v))
    return cp_builder_append_null(b, err);
  cp_int128 limit = pow10_128(a->result->precision);
  if (v >= limit || v <= -limit) return cp_builder_append_null(b, err);
  return cp_builder_append_decimal128(b, dec_to(v), err);
}

/* count([DISTINCT] a, b, ...) per group: the (distinct) (group, a, b, ...) rows whose values are
 * all non-NULL (and pass the FILTER). Rows that do not count are moved to group -1. */
static int count_tuples(const cp_rel *in, const agg_spec *a, const int64_t *group_of,
                        int64_t n_groups, struct ArrowSchema *schema, struct ArrowArray *array,
                        paimon_error *err) {
  int64_t rows = cp_rel_rows(in);
  size_t n = a->n_tuple;
  struct ArrowSchema *ss = calloc(n + 1, sizeof *ss), gs;
  struct ArrowArray *aa = calloc(n + 1, sizeof *aa), ga;
  cp_array_view *views = calloc(n + 1, sizeof *views);
  int64_t *counts = calloc((size_t)n_groups + 1, sizeof *counts), *tuple_of = NULL, *first = NULL,
          n_tuples = 0;
  uint8_t *pass = NULL;
  int64_t n_pass = 0;
  memset(&gs, 0, sizeof gs);
  memset(&ga, 0, sizeof ga);
  cp_builder *b = NULL;
  int rc = (!ss || !aa || !views || !counts) ? CP_ENOMEM(err, "count") : PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    rc = cp_sql_eval(in, a->tuple[i], a->name, &ss[i], &aa[i], err);
    if (!rc) rc = cp_array_view_init(&views[i + 1], &ss[i], &aa[i], err);
  }
  if (!rc && a->filter) rc = cp_sql_select_bits(in, a->filter, &pass, &n_pass, err);
  cp_type *big = NULL;
  if (!rc) rc = cp_type_new(&big, CP_TYPE_BIGINT, false, err);
  if (!rc) rc = cp_type_to_arrow(big, "#group", &gs, err);
  if (!rc) rc = cp_builder_create(&b, &gs, err);
  for (int64_t r = 0; !rc && r < rows; r++) {
    bool counted = !pass || cp_bit_get(pass, r);
    for (size_t i = 0; counted && i < n; i++) counted = !cp_view_is_null(&views[i + 1], r);
    if (counted && !a->distinct) counts[group_of[r]]++; /* count(a, b): every such row */
    rc = cp_builder_append_int64(b, counted ? group_of[r] : -1, err);
  }
  if (!rc) rc = cp_builder_finish(b, &ga, err);
  if (!rc) rc = cp_array_view_init(&views[0], &gs, &ga, err);
  if (!rc && a->distinct)
    rc = assign_groups(views, (int64_t)n + 1, rows, &tuple_of, &first, &n_tuples, err);
  for (int64_t t = 0; !rc && t < n_tuples; t++) {
    int64_t g = cp_view_get_int64(&views[0], first[t]);
    if (g >= 0) counts[g]++;
  }
  cp_builder_free(b);
  b = NULL;
  if (!rc) rc = cp_type_to_arrow(a->result, a->name, schema, err);
  if (!rc) rc = cp_builder_create(&b, schema, err);
  for (int64_t g = 0; !rc && g < n_groups; g++) rc = cp_builder_append_int64(b, counts[g], err);
  if (!rc) rc = cp_builder_finish(b, array, err);
  cp_builder_free(b);
  for (size_t i = 0; views && i <= n; i++) cp_array_view_reset(&views[i]);
  for (size_t i = 0; ss && aa && i < n; i++) cp_array_release(&aa[i]), cp_schema_release(&ss[i]);
  cp_array_release(&ga);
  cp_schema_release(&gs);
  cp_type_free(big);
  free(ss), free(aa), free(views), free(counts), free(tuple_of), free(first), free(pass);
  return rc;
}

/* Evaluates aggregate `a` over `in` for every group into `schema` / `array`. */
static int compute(const cp_rel *in, const agg_spec *a, const int64_t *group_of, int64_t n_groups,
                   struct ArrowSchema *schema, struct ArrowArray *array, paimon_error *err) {
  if (a->n_tuple) return count_tuples(in, a, group_of, n_groups, schema, array, err);
  int64_t rows = cp_rel_rows(in);
  struct ArrowSchema arg_schema;
  struct ArrowArray arg_array;
  cp_array_view v;
  memset(&arg_array, 0, sizeof arg_array);
  memset(&arg_schema, 0, sizeof arg_schema);
  memset(&v, 0, sizeof v);
  acc *accs = calloc((size_t)n_groups + 1, sizeof *accs);
  bool *keep = calloc((size_t)rows + 1, sizeof *keep);
  cp_builder *b = NULL;
  int rc = (!accs || !keep) ? CP_ENOMEM(err, "aggregate") : PAIMON_OK;
  for (int64_t g = 0; !rc && g < n_groups; g++) accs[g].best = -1;
  if (!rc && a->arg) rc = cp_sql_eval(in, a->arg, a->name, &arg_schema, &arg_array, err);
  if (!rc && a->arg) rc = cp_array_view_init(&v, &arg_schema, &arg_array, err);
  /* FILTER (WHERE ...): only the rows it is TRUE for. */
  uint8_t *pass = NULL;
  int64_t n_pass = 0;
  if (!rc && a->filter) rc = cp_sql_select_bits(in, a->filter, &pass, &n_pass, err);
  if (!rc && a->distinct && a->arg) rc = distinct_mask(&v, group_of, rows, pass, keep, err);
  for (int64_t r = 0; !rc && r < rows; r++)
    if ((!a->distinct || keep[r]) && (!pass || cp_bit_get(pass, r)))
      accumulate(a, &v, r, &accs[group_of[r]]);
  free(pass);
  if (!rc && (a->fn == AGG_MIN || a->fn == AGG_MAX)) {
    int64_t *idx = malloc(((size_t)n_groups + 1) * sizeof *idx);
    rc = idx ? PAIMON_OK : CP_ENOMEM(err, "aggregate");
    for (int64_t g = 0; !rc && g < n_groups; g++) idx[g] = accs[g].best;
    if (!rc) rc = cp_take(&v, idx, n_groups, array, err);
    if (!rc) rc = cp_schema_copy(schema, &arg_schema, err);
    free(idx);
  } else if (!rc) {
    rc = cp_type_to_arrow(a->result, a->name, schema, err);
    if (!rc) rc = cp_builder_create(&b, schema, err);
    for (int64_t g = 0; !rc && g < n_groups; g++) rc = append_result(a, &accs[g], b, err);
    if (!rc) rc = cp_builder_finish(b, array, err);
    if (rc) cp_schema_release(schema);
  }
  cp_builder_free(b);
  cp_array_view_reset(&v);
  cp_array_release(&arg_array);
  cp_schema_release(&arg_schema);
  free(accs);
  free(keep);
  return rc;
}

/* ---- aggregates over window frames ---------------------------------------------------------- */

int cp_sql_window_aggregate(const cp_rel *in, const cp_sql_scope *scope, const cp_sql_expr *call,
                            const int64_t *order, const int64_t *lo, const int64_t *hi,
                            const int64_t *part_lo, int64_t n, cp_type **type,
                            struct ArrowSchema *schema, struct ArrowArray *array,
                            paimon_error *err) {
  agg_spec a;
  struct ArrowSchema arg_schema, sorted_schema;
  struct ArrowArray arg_array, sorted;
  memset(&arg_schema, 0, sizeof arg_schema);
  memset(&arg_array, 0, sizeof arg_array);
  memset(&sorted_schema, 0, sizeof sorted_schema);
  memset(&sorted, 0, sizeof sorted);
  cp_array_view v, sv;
  memset(&v, 0, sizeof v);
  memset(&sv, 0, sizeof sv);
  cp_builder *b = NULL;
  int64_t *idx = malloc(((size_t)n + 1) * sizeof *idx);
  int rc = idx ? make_spec(scope, call, &a, err) : CP_ENOMEM(err, "window");
  if (!rc && (a.filter || a.n_tuple))
    rc = cp_sql_error_at(err, PAIMON_EUNSUPPORTED, call->pos,
                         "not supported: FILTER or several arguments in a window aggregate");
  bool minmax = !rc && (a.fn == AGG_MIN || a.fn == AGG_MAX);
  if (!rc && a.arg) rc = cp_sql_eval(in, a.arg, a.name, &arg_schema, &arg_array, err);
  if (!rc && a.arg) rc = cp_array_view_init(&v, &arg_schema, &arg_array, err);
  if (!rc && !minmax) rc = cp_type_to_arrow(a.result, a.name, &sorted_schema, err);
  if (!rc && !minmax) rc = cp_builder_create(&b, &sorted_schema, err);
  /* The frame grows while it keeps its start (running totals: one pass); else it is summed
   * again from its start. */
  acc g;
  memset(&g, 0, sizeof g);
  g.best = -1;
  int64_t cur_lo = 0, cur_hi = -1;
  for (int64_t p = 0; !rc && p < n; p++) {
    if (p == part_lo[p] || lo[p] != cur_lo || hi[p] < cur_hi) {
      memset(&g, 0, sizeof g);
      g.best = -1;
      cur_lo = lo[p];
      cur_hi = lo[p] - 1;
    }
    while (cur_hi < hi[p]) accumulate(&a, &v, order[++cur_hi], &g);
    if (minmax)
      idx[order[p]] = g.best;
    else
      rc = append_result(&a, &g, b, err);
  }
  if (!rc && minmax) {
    rc = cp_take(&v, idx, n, array, err);
    if (!rc) rc = cp_schema_copy(schema, &arg_schema, err);
  } else if (!rc) {
    /* Results came in position order; back to row order. */
    rc = cp_builder_finish(b, &sorted, err);
    if (!rc) rc = cp_array_view_init(&sv, &sorted_schema, &sorted, err);
    for (int64_t p = 0; !rc && p < n; p++) idx[order[p]] = p;
    if (!rc) rc = cp_take(&sv, idx, n, array, err);
    if (!rc) rc = cp_schema_copy(schema, &sorted_schema, err);
  }
  if (!rc) rc = cp_type_copy_nullable(type, a.result, true, err);
  cp_builder_free(b);
  cp_array_view_reset(&v);
  cp_array_view_reset(&sv);
  cp_array_release(&arg_array);
  cp_schema_release(&arg_schema);
  cp_array_release(&sorted);
  cp_schema_release(&sorted_schema);
  if (idx) spec_clear(&a);
  free(idx);
  return rc;
}

/* ---- the whole aggregation ------------------------------------------------------------------ */

/* Evaluates the keys into a relation and groups its rows. */
static int group_keys(const cp_rel *in, const cp_sql_scope *scope, cp_sql_expr *const *keys,
                      size_t n_keys, cp_rel *key_rel, int64_t **group_of, int64_t **first_row,
                      int64_t *n_groups, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t k = 0; !rc && k < n_keys; k++) {
    cp_expr *e = NULL;
    char *name = NULL;
    struct ArrowSchema s;
    struct ArrowArray a;
    rc = cp_sql_bind(scope, keys[k], &e, err);
    if (!rc) rc = cp_sql_display_name(keys[k], &name, err);
    if (!rc) rc = cp_sql_refuse_map(CP_SQL_MAP_GROUP_BY, e->type, name, keys[k]->pos, err);
    if (!rc) rc = cp_sql_eval(in, e, name, &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, name, NULL, e->type, false, &s, &a, err);
    free(name);
    cp_expr_free(e);
  }
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_rel_builder_finish(&b, cp_rel_rows(in), key_rel, err));
  cp_array_view v;
  rc = cp_rel_view(key_rel, &v, err);
  if (!rc) rc = assign_groups(v.children, n_keys, v.length, group_of, first_row, n_groups, err);
  cp_array_view_reset(&v);
  if (!rc && n_keys == 0 && *n_groups == 0) *n_groups = 1; /* a global aggregate has one row */
  return rc;
}

int cp_sql_aggregate(const cp_rel *in, const cp_sql_scope *scope, cp_sql_expr *const *keys,
                     size_t n_keys, cp_sql_expr *const *aggs, size_t n_aggs, cp_rel *out,
                     paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_rel key_rel, groups;
  memset(&key_rel, 0, sizeof key_rel);
  memset(&groups, 0, sizeof groups);
  int64_t *group_of = NULL, *first_row = NULL, n_groups = 0;
  agg_spec *specs = calloc(n_aggs + 1, sizeof *specs);
  int rc = specs ? PAIMON_OK : CP_ENOMEM(err, "aggregates");
  for (size_t j = 0; !rc && j < n_aggs; j++) rc = make_spec(scope, aggs[j], &specs[j], err);
  if (!rc)
    rc = group_keys(in, scope, keys, n_keys, &key_rel, &group_of, &first_row, &n_groups, err);
  if (!rc) rc = cp_rel_take_keys(&key_rel, first_row, n_keys ? n_groups : 0, n_keys, &groups, err);
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  for (size_t k = 0; !rc && k < n_keys; k++) rc = cp_rel_builder_add_from(&b, &groups, k, err);
  for (size_t j = 0; !rc && j < n_aggs; j++) {
    struct ArrowSchema s;
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    rc = compute(in, &specs[j], group_of, n_groups, &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, specs[j].name, NULL, specs[j].result, false, &s, &a, err);
  }
  if (!rc)
    rc = cp_rel_builder_finish(&b, n_groups, out, err);
  else
    cp_rel_builder_free(&b);
  for (size_t j = 0; specs && j < n_aggs; j++) spec_clear(&specs[j]);
  free(specs);
  free(group_of);
  free(first_row);
  cp_rel_free(&key_rel);
  cp_rel_free(&groups);
  return rc;
}
