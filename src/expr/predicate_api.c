/*
 * The public predicate builder (include/cpaimon/predicate.h), mirroring pypaimon's
 * PredicateBuilder. Literal values arrive as Arrow arrays and become expression literals: string
 * values become text literals, typed by the column at bind time (a '2024-01-31' for a DATE
 * column is a date, 'abc' for an INT column an error); other values keep their own type and are
 * widened with the column as in Spark SQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "base/status.h"
#include "expr/expr_internal.h"
#include "expr/predicate.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"

int cp_predicate_wrap(paimon_predicate **out, cp_expr *expr, paimon_error *err) {
  *out = NULL;
  if (!expr) return paimon_error_set(err, PAIMON_EINVAL, "predicate expression is NULL");
  paimon_predicate *p = malloc(sizeof *p);
  if (!p) {
    cp_expr_free(expr);
    return CP_ENOMEM(err, "predicate");
  }
  p->expr = expr;
  *out = p;
  return PAIMON_OK;
}

void paimon_predicate_free(paimon_predicate *p) {
  if (!p) return;
  cp_expr_free(p->expr);
  free(p);
}

int paimon_predicate_copy(const paimon_predicate *p, paimon_predicate **out, paimon_error *err) {
  *out = NULL;
  if (!p) return paimon_error_set(err, PAIMON_EINVAL, "no predicate to copy");
  cp_expr *e = NULL;
  CP_RETURN_IF_ERROR(cp_expr_copy(&e, p->expr, err));
  return cp_predicate_wrap(out, e, err);
}

int cp_predicate_bind(const paimon_predicate *p, const cp_type *row, cp_expr **out,
                      paimon_error *err) {
  *out = NULL;
  if (!p) return paimon_error_set(err, PAIMON_EINVAL, "predicate is NULL");
  CP_RETURN_IF_ERROR(cp_expr_bind(p->expr, row, false, out, err));
  if ((*out)->type->kind != CP_TYPE_BOOLEAN) {
    cp_expr_free(*out);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "a predicate must be BOOLEAN");
  }
  return PAIMON_OK;
}

size_t paimon_predicate_format(const paimon_predicate *p, char *buf, size_t size) {
  cp_buf text = CP_BUF_INIT;
  if (p) cp_expr_append_sql(p->expr, &text, NULL);
  size_t len = text.len;
  if (size > 0) {
    size_t n = len < size - 1 ? len : size - 1;
    if (n) memcpy(buf, text.data, n);
    buf[n] = '\0';
  }
  cp_buf_free(&text);
  return len;
}

/* ---- literals from Arrow ------------------------------------------------------------------ */

/* Row i of an unsigned integer column as a literal: BIGINT, or DECIMAL(20, 0) above INT64_MAX. */
static int unsigned_literal(const cp_array_view *v, int64_t i, cp_expr **out, paimon_error *err) {
  uint64_t u = cp_view_get_uint64(v, i);
  if (u <= INT64_MAX) return cp_expr_bigint(out, (int64_t)u, err);
  cp_type *t = cp_type_make_decimal(20, 0);
  if (!t) return CP_ENOMEM(err, "literal type");
  cp_datum d = {.is_null = false, .v.dec = (cp_int128)u};
  int rc = cp_expr_literal(out, t, &d, err);
  cp_type_free(t);
  return rc;
}

/* Row i of `v` (Paimon type `t`, NULL for the Arrow null type) as a literal expression. */
static int literal_at(const cp_type *t, const cp_array_view *v, int64_t i, cp_expr **out,
                      paimon_error *err) {
  if (cp_view_is_null(v, i) || v->type.id == CP_ARROW_NA) return cp_expr_null(out, err);
  if (cp_arrow_type_is_unsigned_int(v->type.id)) return unsigned_literal(v, i, out, err);
  cp_datum d;
  CP_RETURN_IF_ERROR(cp_datum_from_view(t, v, i, &d, err));
  if (cp_type_is_string(t)) {
    char *text = malloc(d.v.bytes.len + 1);
    if (!text) return CP_ENOMEM(err, "literal text");
    memcpy(text, d.v.bytes.data, d.v.bytes.len);
    text[d.v.bytes.len] = '\0';
    int rc = strlen(text) == d.v.bytes.len
                 ? cp_expr_text(out, text, err)
                 : paimon_error_set(err, PAIMON_EINVAL, "string value contains a NUL byte");
    free(text);
    return rc;
  }
  return cp_expr_literal(out, t, &d, err);
}

/* The values of an Arrow array as literals: *lits (malloc'd, n entries, caller frees them).
 * `min` / `max` bound the number of values. */
static int read_literals(const char *what, const char *column, const struct ArrowSchema *schema,
                         const struct ArrowArray *array, int64_t min, int64_t max, cp_expr ***lits,
                         size_t *n, paimon_error *err) {
  *lits = NULL;
  *n = 0;
  if (!schema || !array || !schema->release || !array->release)
    return paimon_error_set(err, PAIMON_EINVAL, "%s on column '%s': no value array", what, column);
  cp_array_view v;
  int rc = cp_array_view_init(&v, schema, array, err);
  if (rc != 0) {
    paimon_error_prefix(err, "%s on column '%s'", what, column);
    return rc; /* not prefix's return: it is 0 when err is NULL */
  }
  if (v.length < min || v.length > max) {
    long long got = (long long)v.length;
    cp_array_view_reset(&v);
    if (min == max)
      return paimon_error_set(err, PAIMON_EINVAL, "%s on column '%s' needs %lld value%s, got %lld",
                              what, column, (long long)min, min == 1 ? "" : "s", got);
    return paimon_error_set(err, PAIMON_EINVAL,
                            "%s on column '%s' needs at least %lld value, got %lld", what, column,
                            (long long)min, got);
  }
  cp_type *t = NULL;
  if (v.type.id != CP_ARROW_NA && !cp_arrow_type_is_unsigned_int(v.type.id)) {
    rc = cp_type_from_arrow(schema, &t, err);
    if (rc != 0) {
      cp_array_view_reset(&v);
      paimon_error_prefix(err, "%s on column '%s'", what, column);
      return rc;
    }
    if (cp_type_is_nested(t) || t->kind == CP_TYPE_VARIANT) {
      cp_type_free(t);
      cp_array_view_reset(&v);
      return paimon_error_set(err, PAIMON_EINVAL, "%s on column '%s': values must be atomic", what,
                              column);
    }
  }
  *lits = calloc((size_t)v.length, sizeof **lits);
  if (!*lits) rc = CP_ENOMEM(err, "literals");
  for (int64_t i = 0; rc == 0 && i < v.length; i++) rc = literal_at(t, &v, i, &(*lits)[i], err);
  if (rc == 0)
    *n = (size_t)v.length;
  else if (*lits) {
    for (int64_t i = 0; i < v.length; i++) cp_expr_free((*lits)[i]);
    free(*lits);
    *lits = NULL;
  }
  cp_type_free(t);
  cp_array_view_reset(&v);
  return rc;
}

static int check_column(const char *what, const char *column, paimon_error *err) {
  if (!column || !*column)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: the column name is empty", what);
  return PAIMON_OK;
}

/* ---- constructors ------------------------------------------------------------------------- */

static const cp_cmp_op CMP_OF[] = {CP_CMP_EQ, CP_CMP_NE, CP_CMP_LT,
                                   CP_CMP_LE, CP_CMP_GT, CP_CMP_GE};
static const char *const CMP_NAME[] = {"equal",         "not_equal",    "less_than",
                                       "less_or_equal", "greater_than", "greater_or_equal"};

static bool op_valid(paimon_compare_op op) {
  return (int)op >= PAIMON_COMPARE_EQUAL && op <= PAIMON_COMPARE_GREATER_OR_EQUAL;
}

/* column <op> literal, consuming `lit`. */
static int compare_with(paimon_predicate **out, paimon_compare_op op, const char *column,
                        cp_expr *lit, paimon_error *err) {
  cp_expr *col, *cmp;
  int rc = cp_expr_column(&col, column, err);
  if (rc != 0) {
    cp_expr_free(lit);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_expr_compare(&cmp, CMP_OF[op], col, lit, err));
  return cp_predicate_wrap(out, cmp, err);
}

int paimon_predicate_compare(paimon_predicate **out, paimon_compare_op op, const char *column,
                             const struct ArrowSchema *schema, const struct ArrowArray *value,
                             paimon_error *err) {
  *out = NULL;
  if (!op_valid(op))
    return paimon_error_set(err, PAIMON_EINVAL, "unknown comparison operator %d", (int)op);
  CP_RETURN_IF_ERROR(check_column(CMP_NAME[op], column, err));
  cp_expr **lits;
  size_t n;
  CP_RETURN_IF_ERROR(read_literals(CMP_NAME[op], column, schema, value, 1, 1, &lits, &n, err));
  cp_expr *lit = lits[0];
  free(lits);
  return compare_with(out, op, column, lit, err);
}

#define COMPARE_FN(name, op)                                                                       \
  int paimon_predicate_##name(paimon_predicate **out, const char *column,                          \
                              const struct ArrowSchema *schema, const struct ArrowArray *value,    \
                              paimon_error *err) {                                                 \
    return paimon_predicate_compare(out, op, column, schema, value, err);                          \
  }

COMPARE_FN(equal, PAIMON_COMPARE_EQUAL)
COMPARE_FN(not_equal, PAIMON_COMPARE_NOT_EQUAL)
COMPARE_FN(less_than, PAIMON_COMPARE_LESS_THAN)
COMPARE_FN(less_or_equal, PAIMON_COMPARE_LESS_OR_EQUAL)
COMPARE_FN(greater_than, PAIMON_COMPARE_GREATER_THAN)
COMPARE_FN(greater_or_equal, PAIMON_COMPARE_GREATER_OR_EQUAL)

int paimon_predicate_compare_text(paimon_predicate **out, paimon_compare_op op, const char *column,
                                  const char *literal, paimon_error *err) {
  *out = NULL;
  if (!op_valid(op))
    return paimon_error_set(err, PAIMON_EINVAL, "unknown comparison operator %d", (int)op);
  CP_RETURN_IF_ERROR(check_column(CMP_NAME[op], column, err));
  if (!literal)
    return paimon_error_set(err, PAIMON_EINVAL, "%s on column '%s': the value is NULL",
                            CMP_NAME[op], column);
  cp_expr *lit;
  CP_RETURN_IF_ERROR(cp_expr_text(&lit, literal, err));
  return compare_with(out, op, column, lit, err);
}

static int null_test(paimon_predicate **out, const char *column, bool negated, paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(check_column(negated ? "is_not_null" : "is_null", column, err));
  cp_expr *col, *e;
  CP_RETURN_IF_ERROR(cp_expr_column(&col, column, err));
  CP_RETURN_IF_ERROR(cp_expr_is_null(&e, col, negated, err));
  return cp_predicate_wrap(out, e, err);
}

int paimon_predicate_is_null(paimon_predicate **out, const char *column, paimon_error *err) {
  return null_test(out, column, false, err);
}

int paimon_predicate_is_not_null(paimon_predicate **out, const char *column, paimon_error *err) {
  return null_test(out, column, true, err);
}

static int in_list(paimon_predicate **out, const char *column, const struct ArrowSchema *schema,
                   const struct ArrowArray *values, bool negated, paimon_error *err) {
  *out = NULL;
  const char *what = negated ? "is_not_in" : "is_in";
  CP_RETURN_IF_ERROR(check_column(what, column, err));
  cp_expr **lits, *col, *e;
  size_t n;
  CP_RETURN_IF_ERROR(read_literals(what, column, schema, values, 1, INT64_MAX, &lits, &n, err));
  int rc = cp_expr_column(&col, column, err);
  if (rc != 0) {
    for (size_t i = 0; i < n; i++) cp_expr_free(lits[i]);
    free(lits);
    return rc;
  }
  rc = cp_expr_in(&e, col, lits, n, negated, err);
  free(lits);
  CP_RETURN_IF_ERROR(rc);
  return cp_predicate_wrap(out, e, err);
}

int paimon_predicate_is_in(paimon_predicate **out, const char *column,
                           const struct ArrowSchema *schema, const struct ArrowArray *values,
                           paimon_error *err) {
  return in_list(out, column, schema, values, false, err);
}

int paimon_predicate_is_not_in(paimon_predicate **out, const char *column,
                               const struct ArrowSchema *schema, const struct ArrowArray *values,
                               paimon_error *err) {
  return in_list(out, column, schema, values, true, err);
}

int paimon_predicate_between(paimon_predicate **out, const char *column,
                             const struct ArrowSchema *schema, const struct ArrowArray *values,
                             paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(check_column("between", column, err));
  cp_expr **lits, *col, *e;
  size_t n;
  CP_RETURN_IF_ERROR(read_literals("between", column, schema, values, 2, 2, &lits, &n, err));
  cp_expr *lo = lits[0], *hi = lits[1];
  free(lits);
  int rc = cp_expr_column(&col, column, err);
  if (rc != 0) {
    cp_expr_free(lo);
    cp_expr_free(hi);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_expr_between(&e, col, lo, hi, false, err));
  return cp_predicate_wrap(out, e, err);
}

static int string_test(paimon_predicate **out, cp_like_kind kind, const char *what,
                       const char *column, const struct ArrowSchema *schema,
                       const struct ArrowArray *value, paimon_error *err) {
  /* LIKE's escape is SQL's default, as pypaimon's like; the string tests take text literally */
  uint32_t escape = kind == CP_LIKE_PATTERN ? '\\' : 0;
  *out = NULL;
  CP_RETURN_IF_ERROR(check_column(what, column, err));
  cp_expr **lits, *col, *e;
  size_t n;
  CP_RETURN_IF_ERROR(read_literals(what, column, schema, value, 1, 1, &lits, &n, err));
  cp_expr *lit = lits[0];
  free(lits);
  int rc = cp_expr_column(&col, column, err);
  if (rc != 0) {
    cp_expr_free(lit);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_expr_like(&e, kind, col, lit, escape, false, err));
  return cp_predicate_wrap(out, e, err);
}

int paimon_predicate_startswith(paimon_predicate **out, const char *column,
                                const struct ArrowSchema *schema, const struct ArrowArray *value,
                                paimon_error *err) {
  return string_test(out, CP_LIKE_STARTS_WITH, "startswith", column, schema, value, err);
}

int paimon_predicate_endswith(paimon_predicate **out, const char *column,
                              const struct ArrowSchema *schema, const struct ArrowArray *value,
                              paimon_error *err) {
  return string_test(out, CP_LIKE_ENDS_WITH, "endswith", column, schema, value, err);
}

int paimon_predicate_like(paimon_predicate **out, const char *column,
                          const struct ArrowSchema *schema, const struct ArrowArray *value,
                          paimon_error *err) {
  return string_test(out, CP_LIKE_PATTERN, "like", column, schema, value, err);
}

int paimon_predicate_contains(paimon_predicate **out, const char *column,
                              const struct ArrowSchema *schema, const struct ArrowArray *value,
                              paimon_error *err) {
  return string_test(out, CP_LIKE_CONTAINS, "contains", column, schema, value, err);
}

/* Takes the trees out of `children` (freeing the wrappers) into a new array *exprs. */
static int unwrap(paimon_predicate **children, size_t n, cp_expr ***exprs, paimon_error *err) {
  cp_expr **e = calloc(n, sizeof *e);
  bool all = true;
  for (size_t i = 0; i < n; i++) {
    all = all && children[i];
    if (children[i] && e) {
      e[i] = children[i]->expr;
      children[i]->expr = NULL;
    }
    paimon_predicate_free(children[i]);
  }
  if (e && all) {
    *exprs = e;
    return PAIMON_OK;
  }
  if (e)
    for (size_t i = 0; i < n; i++) cp_expr_free(e[i]);
  free(e);
  return e ? paimon_error_set(err, PAIMON_EINVAL, "a child predicate is NULL")
           : CP_ENOMEM(err, "predicate children");
}

static int junction(paimon_predicate **out, bool is_and, paimon_predicate **children, size_t n,
                    paimon_error *err) {
  *out = NULL;
  if (n == 0 || !children)
    return paimon_error_set(err, PAIMON_EINVAL, "%s needs at least one predicate",
                            is_and ? "and" : "or");
  cp_expr **exprs = NULL, *e;
  CP_RETURN_IF_ERROR(unwrap(children, n, &exprs, err));
  int rc = is_and ? cp_expr_and(&e, exprs, n, err) : cp_expr_or(&e, exprs, n, err);
  free(exprs);
  CP_RETURN_IF_ERROR(rc);
  return cp_predicate_wrap(out, e, err);
}

int paimon_predicate_and(paimon_predicate **out, paimon_predicate **children, size_t n,
                         paimon_error *err) {
  return junction(out, true, children, n, err);
}

int paimon_predicate_or(paimon_predicate **out, paimon_predicate **children, size_t n,
                        paimon_error *err) {
  return junction(out, false, children, n, err);
}

int paimon_predicate_not(paimon_predicate **out, paimon_predicate *child, paimon_error *err) {
  *out = NULL;
  if (!child) return paimon_error_set(err, PAIMON_EINVAL, "not: the predicate is NULL");
  cp_expr *inner = child->expr, *e;
  child->expr = NULL;
  paimon_predicate_free(child);
  CP_RETURN_IF_ERROR(cp_expr_not(&e, inner, err));
  return cp_predicate_wrap(out, e, err);
}

/* Spark's `partitions` argument ("k1=v1,k2=v2;k1=v3") as a predicate: the OR of one AND of
 * equalities per spec, values parsed as the keys' types when bound. */
int paimon_predicate_partitions(const char *text, paimon_predicate **out, paimon_error *err) {
  char *copy = strdup(text), *save_spec = NULL;
  if (!copy) return CP_ENOMEM(err, "predicate");
  cp_expr *any = NULL;
  int rc = PAIMON_OK;
  for (char *spec = strtok_r(copy, ";", &save_spec); !rc && spec;
       spec = strtok_r(NULL, ";", &save_spec)) {
    cp_expr *all = NULL;
    char *save_kv = NULL;
    for (char *kv = strtok_r(spec, ",", &save_kv); !rc && kv; kv = strtok_r(NULL, ",", &save_kv)) {
      while (*kv == ' ') kv++;
      char *eq = strchr(kv, '=');
      if (!eq || eq == kv) {
        rc = paimon_error_set(err, PAIMON_EINVAL,
                              "partitions must be 'key=value[,key=value][;...]', got '%s'", text);
        break;
      }
      *eq = '\0';
      for (char *e = eq - 1; e > kv && *e == ' '; e--) *e = '\0';
      cp_expr *col = NULL, *val = NULL, *cmp = NULL;
      rc = cp_expr_column(&col, kv, err);
      if (!rc) rc = cp_expr_text(&val, eq + 1, err);
      if (!rc) {
        rc = cp_expr_compare(&cmp, CP_CMP_EQ, col, val, err);
        col = val = NULL;
      }
      cp_expr_free(col);
      cp_expr_free(val);
      if (!rc && all)
        rc = cp_expr_and2(&all, all, cmp, err);
      else if (!rc)
        all = cmp;
    }
    if (!rc && all && any)
      rc = cp_expr_or2(&any, any, all, err);
    else if (!rc && all)
      any = all;
    else
      cp_expr_free(all);
  }
  free(copy);
  if (!rc && !any)
    rc = paimon_error_set(err, PAIMON_EINVAL, "partitions '%s' names no partition", text);
  if (rc) {
    cp_expr_free(any);
    return rc;
  }
  return cp_predicate_wrap(out, any, err);
}
