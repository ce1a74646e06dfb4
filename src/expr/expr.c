/*
 * Expression trees: construction, copying, freeing, column lists and the SQL-like rendering used
 * in messages (expr.h). Binding lives in bind.c, evaluation in eval*.c.
 */
#include "expr/expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr_internal.h"
#include "expr/like.h"
#include "types/type_sql.h"

cp_expr *cp_expr_alloc(cp_expr_kind kind, size_t n_args) {
  cp_expr *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->kind = kind;
  e->column = -1;
  if (n_args) {
    e->args = calloc(n_args, sizeof *e->args);
    if (!e->args) {
      free(e);
      return NULL;
    }
  }
  e->n_args = e->args_cap = n_args;
  return e;
}

uint32_t cp_expr_set_depth(cp_expr *e) {
  uint32_t d = e->n_args && e->args[0] ? e->args[0]->depth : 0;
  for (size_t i = 1; i < e->n_args; i++)
    if (e->args[i] && e->args[i]->depth + 1 > d) d = e->args[i]->depth + 1;
  e->depth = d;
  return d;
}

static const void *first_arg(const void *node) {
  const cp_expr *e = node;
  return e->n_args ? e->args[0] : NULL;
}

int cp_expr_spine(cp_chain *c, const cp_expr *e, paimon_error *err) {
  return cp_chain_collect(c, e, first_arg, err);
}

/* Down the chain of first arguments with a loop (expr.h, "Depth"). */
void cp_expr_free(cp_expr *e) {
  while (e) {
    cp_expr *first = e->n_args ? e->args[0] : NULL;
    for (size_t i = 1; i < e->n_args; i++) cp_expr_free(e->args[i]);
    free(e->args);
    cp_type_free(e->type);
    free(e->name);
    free(e->storage);
    cp_like_free(e->like);
    free(e);
    e = first;
  }
}

static void free_all(cp_expr **args, size_t n) {
  for (size_t i = 0; i < n; i++) cp_expr_free(args[i]);
}

static int too_deep(paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL,
                          "expression nested too deeply: more than %d levels through operands "
                          "other than the first (a chain such as a + b + c or p OR q OR r may "
                          "have any length)",
                          CP_EXPR_MAX_DEPTH);
}

/* A node owning the `n` given children; on failure the children are freed. */
static int make_node(cp_expr **out, cp_expr_kind kind, int op, cp_expr **args, size_t n,
                     paimon_error *err) {
  *out = NULL;
  for (size_t i = 0; i < n; i++) {
    if (!args[i]) {
      free_all(args, n);
      return paimon_error_set(err, PAIMON_EINVAL, "expression argument %zu is NULL", i);
    }
  }
  cp_expr *e = cp_expr_alloc(kind, n);
  if (!e) {
    free_all(args, n);
    return CP_ENOMEM(err, "expression node");
  }
  e->op = op;
  for (size_t i = 0; i < n; i++) e->args[i] = args[i];
  if (cp_expr_set_depth(e) > CP_EXPR_MAX_DEPTH) {
    cp_expr_free(e);
    return too_deep(err);
  }
  *out = e;
  return PAIMON_OK;
}

int cp_expr_column(cp_expr **out, const char *name, paimon_error *err) {
  *out = NULL;
  if (!name || !*name) return paimon_error_set(err, PAIMON_EINVAL, "column name is empty");
  cp_expr *e = cp_expr_alloc(CP_EXPR_COLUMN, 0);
  if (!e || !(e->name = strdup(name))) {
    free(e);
    return CP_ENOMEM(err, "column reference");
  }
  *out = e;
  return PAIMON_OK;
}

static bool is_bytes_kind(cp_type_kind k) {
  return k == CP_TYPE_CHAR || k == CP_TYPE_VARCHAR || k == CP_TYPE_BINARY ||
         k == CP_TYPE_VARBINARY || k == CP_TYPE_BLOB;
}

/* Fills the literal part of `e`, copying variable-length bytes into e->storage. */
static int set_value(cp_expr *e, const cp_type *t, const cp_datum *v, paimon_error *err) {
  e->value = *v;
  if (!v->is_null && is_bytes_kind(t->kind)) {
    e->storage = malloc(v->v.bytes.len ? v->v.bytes.len : 1);
    if (!e->storage) return CP_ENOMEM(err, "literal bytes");
    if (v->v.bytes.len) memcpy(e->storage, v->v.bytes.data, v->v.bytes.len);
    e->value.v.bytes.data = e->storage;
  }
  return PAIMON_OK;
}

static int new_literal(cp_expr **out, const cp_type *t, const cp_datum *v, bool bound,
                       paimon_error *err) {
  *out = NULL;
  if ((cp_type_is_nested(t) || t->kind == CP_TYPE_VARIANT) && !v->is_null)
    return paimon_error_set(err, PAIMON_EINVAL, "a literal cannot have type %s",
                            cp_type_kind_name(t->kind));
  cp_expr *e = cp_expr_alloc(CP_EXPR_LITERAL, 0);
  if (!e) return CP_ENOMEM(err, "literal");
  e->bound = bound;
  int rc = cp_type_copy_nullable(&e->type, t, true, err);
  if (rc == 0) rc = set_value(e, t, v, err);
  if (rc != 0) {
    cp_expr_free(e);
    return rc;
  }
  *out = e;
  return PAIMON_OK;
}

int cp_expr_literal(cp_expr **out, const cp_type *t, const cp_datum *v, paimon_error *err) {
  return new_literal(out, t, v, false, err);
}

int cp_expr_bound_literal(cp_expr **out, const cp_type *t, const cp_datum *v, paimon_error *err) {
  return new_literal(out, t, v, true, err);
}

static int simple_literal(cp_expr **out, cp_type_kind kind, const cp_datum *v, paimon_error *err) {
  cp_type *t = cp_type_make(kind);
  if (!t) {
    *out = NULL;
    return CP_ENOMEM(err, "literal type");
  }
  int rc = cp_expr_literal(out, t, v, err);
  cp_type_free(t);
  return rc;
}

int cp_expr_bigint(cp_expr **out, int64_t v, paimon_error *err) {
  cp_datum d = cp_datum_int(v);
  return simple_literal(out, CP_TYPE_BIGINT, &d, err);
}

int cp_expr_int(cp_expr **out, int32_t v, paimon_error *err) {
  cp_datum d = cp_datum_int(v);
  return simple_literal(out, CP_TYPE_INT, &d, err);
}

int cp_expr_double(cp_expr **out, double v, paimon_error *err) {
  cp_datum d = {.is_null = false, .v.f64 = v};
  return simple_literal(out, CP_TYPE_DOUBLE, &d, err);
}

int cp_expr_string(cp_expr **out, const char *s, size_t len, paimon_error *err) {
  cp_datum d = cp_datum_bytes(s, len);
  return simple_literal(out, CP_TYPE_VARCHAR, &d, err);
}

int cp_expr_bool(cp_expr **out, bool v, paimon_error *err) {
  cp_datum d = {.is_null = false, .v.b = v};
  return simple_literal(out, CP_TYPE_BOOLEAN, &d, err);
}

int cp_expr_text(cp_expr **out, const char *text, paimon_error *err) {
  *out = NULL;
  if (!text) return paimon_error_set(err, PAIMON_EINVAL, "literal text is NULL");
  cp_expr *e = cp_expr_alloc(CP_EXPR_LITERAL, 0);
  if (!e) return CP_ENOMEM(err, "literal");
  e->literal = CP_LIT_TEXT;
  size_t len = strlen(text);
  e->storage = malloc(len + 1);
  if (!e->storage) {
    cp_expr_free(e);
    return CP_ENOMEM(err, "literal text");
  }
  memcpy(e->storage, text, len + 1);
  e->value = cp_datum_bytes(e->storage, len);
  *out = e;
  return PAIMON_OK;
}

int cp_expr_null(cp_expr **out, paimon_error *err) {
  cp_expr *e = cp_expr_alloc(CP_EXPR_LITERAL, 0);
  *out = e;
  if (!e) return CP_ENOMEM(err, "NULL literal");
  e->literal = CP_LIT_UNTYPED_NULL;
  e->value = cp_datum_null();
  return PAIMON_OK;
}

int cp_expr_compare(cp_expr **out, cp_cmp_op op, cp_expr *left, cp_expr *right, paimon_error *err) {
  cp_expr *a[2] = {left, right};
  if ((int)op < CP_CMP_EQ || op > CP_CMP_EQ_NULL_SAFE) {
    free_all(a, 2);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "unknown comparison operator %d", (int)op);
  }
  return make_node(out, CP_EXPR_COMPARE, op, a, 2, err);
}

int cp_expr_is_null(cp_expr **out, cp_expr *arg, bool negated, paimon_error *err) {
  CP_RETURN_IF_ERROR(make_node(out, CP_EXPR_IS_NULL, 0, &arg, 1, err));
  (*out)->negated = negated;
  return PAIMON_OK;
}

int cp_expr_in(cp_expr **out, cp_expr *value, cp_expr **list, size_t n, bool negated,
               paimon_error *err) {
  *out = NULL;
  cp_expr **a = malloc((n + 1) * sizeof *a);
  if (!a || n == 0) {
    free(a);
    cp_expr_free(value);
    free_all(list, n);
    return n == 0 ? paimon_error_set(err, PAIMON_EINVAL, "IN needs at least one value")
                  : CP_ENOMEM(err, "IN list");
  }
  a[0] = value;
  for (size_t i = 0; i < n; i++) a[i + 1] = list[i];
  int rc = make_node(out, CP_EXPR_IN, 0, a, n + 1, err);
  free(a);
  if (rc == 0) (*out)->negated = negated;
  return rc;
}

int cp_expr_between(cp_expr **out, cp_expr *value, cp_expr *low, cp_expr *high, bool negated,
                    paimon_error *err) {
  cp_expr *a[3] = {value, low, high};
  CP_RETURN_IF_ERROR(make_node(out, CP_EXPR_BETWEEN, 0, a, 3, err));
  (*out)->negated = negated;
  return PAIMON_OK;
}

int cp_expr_like(cp_expr **out, cp_like_kind kind, cp_expr *value, cp_expr *pattern,
                 uint32_t escape, bool negated, paimon_error *err) {
  cp_expr *a[2] = {value, pattern};
  if ((int)kind < CP_LIKE_PATTERN || kind > CP_LIKE_CONTAINS) {
    free_all(a, 2);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "unknown LIKE kind %d", (int)kind);
  }
  CP_RETURN_IF_ERROR(make_node(out, CP_EXPR_LIKE, kind, a, 2, err));
  (*out)->escape = kind == CP_LIKE_PATTERN ? escape : 0;
  (*out)->negated = negated;
  return PAIMON_OK;
}

/* logic() when args[0] is of the same kind: its argument array grows (doubling, so that a chain
 * built two at a time, `p = p OR q`, costs linear time) and takes the other operands. */
static int extend_logic(cp_expr **out, cp_expr **args, size_t n, size_t total, paimon_error *err) {
  cp_expr *base = args[0];
  for (size_t i = 1; i < n; i++)
    if (!args[i]) {
      free_all(args, n);
      return paimon_error_set(err, PAIMON_EINVAL, "expression argument %zu is NULL", i);
    }
  if (total > base->args_cap) {
    size_t cap = base->args_cap * 2 > total ? base->args_cap * 2 : total;
    cp_expr **grown = realloc(base->args, cap * sizeof *grown);
    if (!grown) {
      free_all(args, n);
      return CP_ENOMEM(err, "expression node");
    }
    base->args = grown;
    base->args_cap = cap;
  }
  uint32_t depth = base->depth;
  for (size_t i = 1; i < n; i++) {
    cp_expr *a = args[i];
    bool splice = a->kind == base->kind;
    cp_expr *const *from = splice ? a->args : &a;
    size_t m = splice ? a->n_args : 1;
    for (size_t k = 0; k < m; k++) {
      base->args[base->n_args++] = from[k];
      if (from[k]->depth + 1 > depth) depth = from[k]->depth + 1;
    }
    if (splice) {
      a->n_args = 0;
      cp_expr_free(a);
    }
  }
  base->depth = depth;
  if (depth > CP_EXPR_MAX_DEPTH) {
    cp_expr_free(base);
    *out = NULL;
    return too_deep(err);
  }
  *out = base;
  return PAIMON_OK;
}

/* AND / OR of `args`, flattened (expr.h, "Depth"): an argument of the same kind contributes its
 * own arguments, so chains built two at a time, in either direction, give one node. Both are
 * associative and commutative in three-valued logic and nothing is evaluated for effect, so this
 * changes no result. */
static int logic(cp_expr **out, cp_expr_kind kind, cp_expr **args, size_t n, paimon_error *err) {
  *out = NULL;
  if (n == 0) return paimon_error_set(err, PAIMON_EINVAL, "AND / OR needs at least one operand");
  if (n == 1) {
    if (!args[0]) return paimon_error_set(err, PAIMON_EINVAL, "expression argument 0 is NULL");
    *out = args[0];
    return PAIMON_OK;
  }
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += args[i] && args[i]->kind == kind ? args[i]->n_args : 1;
  if (total == n) return make_node(out, kind, 0, args, n, err);
  if (args[0] && args[0]->kind == kind && !args[0]->bound)
    return extend_logic(out, args, n, total, err);
  cp_expr **flat = malloc(total * sizeof *flat);
  if (!flat) {
    free_all(args, n);
    return CP_ENOMEM(err, "expression node");
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    cp_expr *a = args[i];
    if (!a || a->kind != kind) {
      flat[k++] = a;
      continue;
    }
    memcpy(flat + k, a->args, a->n_args * sizeof *flat);
    k += a->n_args;
    a->n_args = 0; /* the shell goes; its arguments moved to flat */
    cp_expr_free(a);
  }
  int rc = make_node(out, kind, 0, flat, total, err);
  free(flat);
  return rc;
}

int cp_expr_and(cp_expr **out, cp_expr **args, size_t n, paimon_error *err) {
  return logic(out, CP_EXPR_AND, args, n, err);
}

int cp_expr_or(cp_expr **out, cp_expr **args, size_t n, paimon_error *err) {
  return logic(out, CP_EXPR_OR, args, n, err);
}

int cp_expr_and2(cp_expr **out, cp_expr *a, cp_expr *b, paimon_error *err) {
  cp_expr *args[2] = {a, b};
  return logic(out, CP_EXPR_AND, args, 2, err);
}

int cp_expr_or2(cp_expr **out, cp_expr *a, cp_expr *b, paimon_error *err) {
  cp_expr *args[2] = {a, b};
  return logic(out, CP_EXPR_OR, args, 2, err);
}

int cp_expr_not(cp_expr **out, cp_expr *arg, paimon_error *err) {
  return make_node(out, CP_EXPR_NOT, 0, &arg, 1, err);
}

int cp_expr_arith(cp_expr **out, cp_arith_op op, cp_expr *left, cp_expr *right, paimon_error *err) {
  cp_expr *a[2] = {left, right};
  if ((int)op < CP_ARITH_ADD || op > CP_ARITH_MOD) {
    free_all(a, 2);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "unknown arithmetic operator %d", (int)op);
  }
  return make_node(out, CP_EXPR_ARITH, op, a, 2, err);
}

int cp_expr_negate(cp_expr **out, cp_expr *arg, paimon_error *err) {
  return make_node(out, CP_EXPR_NEGATE, 0, &arg, 1, err);
}

int cp_expr_cast(cp_expr **out, cp_expr *arg, const cp_type *to, paimon_error *err) {
  if (!to || cp_type_is_nested(to) || to->kind == CP_TYPE_VARIANT) {
    cp_expr_free(arg);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "CAST to %s is not supported",
                            to ? cp_type_kind_name(to->kind) : "(null)");
  }
  CP_RETURN_IF_ERROR(make_node(out, CP_EXPR_CAST, 0, &arg, 1, err));
  int rc = cp_type_copy_nullable(&(*out)->type, to, true, err);
  if (rc != 0) {
    cp_expr_free(*out);
    *out = NULL;
  }
  return rc;
}

int cp_expr_coalesce(cp_expr **out, cp_expr **args, size_t n, paimon_error *err) {
  if (n == 0) {
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "COALESCE needs at least one argument");
  }
  return make_node(out, CP_EXPR_COALESCE, 0, args, n, err);
}

int cp_expr_case(cp_expr **out, cp_expr **conds, cp_expr **values, size_t n, cp_expr *else_value,
                 paimon_error *err) {
  *out = NULL;
  size_t total = 2 * n + 1;
  cp_expr **a = n ? malloc(total * sizeof *a) : NULL;
  int rc = 0;
  if (!a) {
    free_all(conds, n);
    free_all(values, n);
    cp_expr_free(else_value);
    return n ? CP_ENOMEM(err, "CASE") : paimon_error_set(err, PAIMON_EINVAL, "CASE needs a WHEN");
  }
  for (size_t i = 0; i < n; i++) {
    a[2 * i] = conds[i];
    a[2 * i + 1] = values[i];
  }
  a[2 * n] = else_value;
  if (!else_value && (rc = cp_expr_null(&a[2 * n], err)) != 0) {
    free_all(a, 2 * n);
    free(a);
    return rc;
  }
  rc = make_node(out, CP_EXPR_CASE, 0, a, total, err);
  free(a);
  return rc;
}

int cp_expr_if(cp_expr **out, cp_expr *cond, cp_expr *then_value, cp_expr *else_value,
               paimon_error *err) {
  if (!else_value) {
    cp_expr_free(cond);
    cp_expr_free(then_value);
    *out = NULL;
    return paimon_error_set(err, PAIMON_EINVAL, "IF needs three arguments");
  }
  return cp_expr_case(out, &cond, &then_value, 1, else_value, err);
}

static const char *func_name(int f) {
  static const char *const NAMES[] = {
      "CONCAT",       "UPPER",       "LOWER",     "LENGTH",     "SUBSTRING",
      "TRIM",         "ABS",         "SIZE",      "ARRAY",      "DATE_ADD",
      "DATE_DIFF",    "GET_FIELD",   "SUBSCRIPT", "ELEMENT_AT", "NESTED_TO_STRING",
      "NESTED_EQUAL", "NAMED_STRUCT"};
  return f >= 0 && f <= CP_FUNC_NAMED_STRUCT ? NAMES[f] : "?";
}

int cp_expr_func(cp_expr **out, cp_func f, cp_expr **args, size_t n, paimon_error *err) {
  size_t lo = 1, hi = 1;
  if (f == CP_FUNC_CONCAT || f == CP_FUNC_ARRAY) hi = SIZE_MAX;
  if (f == CP_FUNC_NAMED_STRUCT) lo = 2, hi = n % 2 ? 0 : SIZE_MAX; /* name, value pairs */
  if (f == CP_FUNC_CONCAT) lo = 0;
  if (f == CP_FUNC_SUBSTRING) lo = 2, hi = 3;
  if ((f >= CP_FUNC_DATE_ADD && f <= CP_FUNC_ELEMENT_AT) || f == CP_FUNC_NESTED_EQUAL) lo = hi = 2;
  if ((int)f < CP_FUNC_CONCAT || f > CP_FUNC_NAMED_STRUCT || n < lo || n > hi) {
    free_all(args, n);
    *out = NULL;
    if ((int)f < CP_FUNC_CONCAT || f > CP_FUNC_NAMED_STRUCT)
      return paimon_error_set(err, PAIMON_EINVAL, "unknown function %d", (int)f);
    return paimon_error_set(err, PAIMON_EINVAL, "%s takes %zu%s arguments, not %zu", func_name(f),
                            lo,
                            hi == SIZE_MAX ? " or more"
                            : hi > lo      ? " or 3"
                                           : "",
                            n);
  }
  return make_node(out, CP_EXPR_FUNC, f, args, n, err);
}

/* A copy of node `e` whose first argument is left NULL for the caller to fill. */
static int copy_node(const cp_expr *e, cp_expr **out, paimon_error *err) {
  cp_expr *c = cp_expr_alloc(e->kind, e->n_args);
  if (!c) return CP_ENOMEM(err, "expression copy");
  c->op = e->op;
  c->negated = e->negated;
  c->bound = e->bound;
  c->column = e->column;
  c->literal = e->literal;
  c->escape = e->escape;
  c->depth = e->depth;
  int rc = 0;
  if (e->type) rc = cp_type_copy(&c->type, e->type, err);
  if (rc == 0 && e->name && !(c->name = strdup(e->name))) rc = CP_ENOMEM(err, "column name");
  if (rc == 0 && e->kind == CP_EXPR_LITERAL) {
    c->value = e->value;
    if (e->storage) {
      size_t len = e->literal == CP_LIT_TEXT ? e->value.v.bytes.len + 1 : e->value.v.bytes.len;
      c->storage = malloc(len ? len : 1);
      if (!c->storage)
        rc = CP_ENOMEM(err, "literal bytes");
      else {
        memcpy(c->storage, e->storage, len);
        c->value.v.bytes.data = c->storage;
      }
    }
  }
  if (rc == 0 && e->like) rc = cp_like_copy(&c->like, e->like, err);
  for (size_t i = 1; rc == 0 && i < e->n_args; i++) rc = cp_expr_copy(&c->args[i], e->args[i], err);
  if (rc != 0) {
    cp_expr_free(c);
    return rc;
  }
  *out = c;
  return PAIMON_OK;
}

/* Top down the chain of first arguments: each copy goes into the slot its parent's copy left. */
int cp_expr_copy(cp_expr **out, const cp_expr *e, paimon_error *err) {
  *out = NULL;
  cp_expr **slot = out;
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    int rc = copy_node(e, slot, err);
    if (rc != 0) {
      cp_expr_free(*out);
      *out = NULL;
      return rc;
    }
    slot = (*slot)->n_args ? &(*slot)->args[0] : NULL;
  }
  return PAIMON_OK;
}

/* ---- column lists ------------------------------------------------------------------------- */

static int add_column(int32_t column, int32_t **cols, size_t *n, size_t *cap, paimon_error *err) {
  for (size_t i = 0; i < *n; i++)
    if ((*cols)[i] == column) return PAIMON_OK;
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    int32_t *p = realloc(*cols, nc * sizeof *p);
    if (!p) return CP_ENOMEM(err, "column list");
    *cols = p;
    *cap = nc;
  }
  (*cols)[(*n)++] = column;
  return PAIMON_OK;
}

/* The passes below go down first arguments with a loop and recurse into the others. */
static int collect(const cp_expr *e, int32_t **cols, size_t *n, size_t *cap, paimon_error *err) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->kind == CP_EXPR_COLUMN) CP_RETURN_IF_ERROR(add_column(e->column, cols, n, cap, err));
    for (size_t i = 1; i < e->n_args; i++)
      CP_RETURN_IF_ERROR(collect(e->args[i], cols, n, cap, err));
  }
  return PAIMON_OK;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int cp_expr_columns(const cp_expr *bound, int32_t **out, size_t *n, paimon_error *err) {
  *out = NULL;
  *n = 0;
  if (!bound->bound)
    return paimon_error_set(err, PAIMON_ESTATE, "cp_expr_columns needs a bound expression");
  size_t cap = 0;
  int rc = collect(bound, out, n, &cap, err);
  if (rc != 0) {
    free(*out);
    *out = NULL;
    *n = 0;
    return rc;
  }
  if (*n) qsort(*out, *n, sizeof **out, cmp_i32);
  return PAIMON_OK;
}

int cp_expr_remap_columns(cp_expr *bound, const int32_t *map, size_t n_map, paimon_error *err) {
  for (cp_expr *e = bound; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->kind == CP_EXPR_COLUMN) {
      if (e->column < 0 || (size_t)e->column >= n_map || map[e->column] < 0)
        return paimon_error_set(err, PAIMON_EINVAL, "column '%s' (index %d) has no new index",
                                e->name ? e->name : "?", (int)e->column);
      e->column = map[e->column];
    }
    for (size_t i = 1; i < e->n_args; i++)
      CP_RETURN_IF_ERROR(cp_expr_remap_columns(e->args[i], map, n_map, err));
  }
  return PAIMON_OK;
}

bool cp_expr_is_constant(const cp_expr *e) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->kind == CP_EXPR_COLUMN) return false;
    for (size_t i = 1; i < e->n_args; i++)
      if (!cp_expr_is_constant(e->args[i])) return false;
  }
  return true;
}

/* ---- rendering ---------------------------------------------------------------------------- */

void cp_type_append_name(const cp_type *t, cp_buf *out) {
  if (!t) {
    cp_buf_appendf(out, NULL, "NULL");
    return;
  }
  cp_type shallow = *t;
  shallow.nullable = true;
  if (cp_type_append_sql(&shallow, out, NULL) != 0) cp_buf_appendf(out, NULL, "?");
}

static void append_quoted(cp_buf *out, const uint8_t *s, size_t len) {
  cp_buf_append(out, "'", 1, NULL);
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '\'') cp_buf_append(out, "'", 1, NULL);
    cp_buf_append(out, &s[i], 1, NULL);
  }
  cp_buf_append(out, "'", 1, NULL);
}

static void append_literal(const cp_expr *e, cp_buf *out) {
  if (e->literal == CP_LIT_TEXT) {
    append_quoted(out, e->value.v.bytes.data, e->value.v.bytes.len);
    return;
  }
  if (e->value.is_null || !e->type) {
    cp_buf_appendf(out, NULL, "NULL");
    return;
  }
  const cp_type *t = e->type;
  switch (t->kind) {
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: append_quoted(out, e->value.v.bytes.data, e->value.v.bytes.len); return;
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB:
    cp_buf_appendf(out, NULL, "X'");
    for (size_t i = 0; i < e->value.v.bytes.len; i++)
      cp_buf_appendf(out, NULL, "%02X", e->value.v.bytes.data[i]);
    cp_buf_appendf(out, NULL, "'");
    return;
  case CP_TYPE_BOOLEAN: cp_buf_appendf(out, NULL, "%s", e->value.v.b ? "TRUE" : "FALSE"); return;
  case CP_TYPE_DATE:
  case CP_TYPE_TIME:
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    cp_buf_appendf(out, NULL, "%s ",
                   t->kind == CP_TYPE_DATE   ? "DATE"
                   : t->kind == CP_TYPE_TIME ? "TIME"
                                             : "TIMESTAMP");
    cp_buf text = CP_BUF_INIT;
    cp_datum_append_text(t, &e->value, &text, NULL);
    append_quoted(out, text.data, text.len);
    cp_buf_free(&text);
    return;
  }
  default: cp_datum_append_text(t, &e->value, out, NULL); return;
  }
}

static const char *cmp_sym(int op) {
  static const char *const S[] = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
  return op >= 0 && op <= CP_CMP_EQ_NULL_SAFE ? S[op] : "?";
}

static void render(const cp_expr *e, cp_buf *out);

static bool is_leaf(const cp_expr *e) {
  return e->kind == CP_EXPR_COLUMN || e->kind == CP_EXPR_LITERAL || e->kind == CP_EXPR_CAST ||
         e->kind == CP_EXPR_FUNC || e->kind == CP_EXPR_COALESCE;
}

/* A child, in parentheses unless it is a leaf or a call. */
static void render_operand(const cp_expr *e, cp_buf *out) {
  bool leaf = is_leaf(e);
  if (!leaf) cp_buf_append(out, "(", 1, NULL);
  render(e, out);
  if (!leaf) cp_buf_append(out, ")", 1, NULL);
}

static void render_list(const cp_expr *const *args, size_t n, cp_buf *out) {
  for (size_t i = 0; i < n; i++) {
    if (i) cp_buf_appendf(out, NULL, ", ");
    render(args[i], out);
  }
}

/* render() writes a node as prefix, first argument, suffix, so that a chain of first arguments
 * renders with a loop (expr.h, "Depth"). The first argument is an operand in parentheses (see
 * render_operand) for operators, and plain inside calls. */
static bool first_is_operand(const cp_expr *e) {
  switch (e->kind) {
  case CP_EXPR_LIKE: return e->op == CP_LIKE_PATTERN;
  case CP_EXPR_CAST:
  case CP_EXPR_COALESCE:
  case CP_EXPR_CASE:
  case CP_EXPR_FUNC: return false;
  default: return true;
  }
}

static void render_prefix(const cp_expr *e, cp_buf *out) {
  static const char *const FN[] = {"", "STARTS_WITH", "ENDS_WITH", "CONTAINS"};
  switch (e->kind) {
  case CP_EXPR_LIKE:
    if (e->negated) cp_buf_appendf(out, NULL, "NOT ");
    if (e->op != CP_LIKE_PATTERN) cp_buf_appendf(out, NULL, "%s(", FN[e->op]);
    return;
  case CP_EXPR_NOT: cp_buf_appendf(out, NULL, "NOT "); return;
  case CP_EXPR_NEGATE: cp_buf_appendf(out, NULL, "-"); return;
  case CP_EXPR_CAST: cp_buf_appendf(out, NULL, "CAST("); return;
  case CP_EXPR_COALESCE: cp_buf_appendf(out, NULL, "COALESCE("); return;
  case CP_EXPR_CASE: cp_buf_appendf(out, NULL, "CASE WHEN "); return;
  case CP_EXPR_FUNC: cp_buf_appendf(out, NULL, "%s(", func_name(e->op)); return;
  default: return;
  }
}

static void render_suffix(const cp_expr *e, cp_buf *out) {
  static const char ARITH[] = "+-*/%";
  switch (e->kind) {
  case CP_EXPR_COMPARE:
    cp_buf_appendf(out, NULL, " %s ", cmp_sym(e->op));
    render_operand(e->args[1], out);
    return;
  case CP_EXPR_IS_NULL: cp_buf_appendf(out, NULL, " IS %sNULL", e->negated ? "NOT " : ""); return;
  case CP_EXPR_IN:
    cp_buf_appendf(out, NULL, " %sIN (", e->negated ? "NOT " : "");
    render_list((const cp_expr *const *)e->args + 1, e->n_args - 1, out);
    cp_buf_appendf(out, NULL, ")");
    return;
  case CP_EXPR_BETWEEN:
    cp_buf_appendf(out, NULL, " %sBETWEEN ", e->negated ? "NOT " : "");
    render_operand(e->args[1], out);
    cp_buf_appendf(out, NULL, " AND ");
    render_operand(e->args[2], out);
    return;
  case CP_EXPR_LIKE:
    if (e->op != CP_LIKE_PATTERN) {
      cp_buf_appendf(out, NULL, ", ");
      render(e->args[1], out);
      cp_buf_appendf(out, NULL, ")");
      return;
    }
    cp_buf_appendf(out, NULL, " LIKE ");
    render_operand(e->args[1], out);
    if (e->escape != '\\') {
      char esc[8] = {0};
      if (e->escape < 0x80) esc[0] = (char)e->escape;
      cp_buf_appendf(out, NULL, " ESCAPE '%s'", esc);
    }
    return;
  case CP_EXPR_AND:
  case CP_EXPR_OR:
    for (size_t i = 1; i < e->n_args; i++) {
      cp_buf_appendf(out, NULL, e->kind == CP_EXPR_AND ? " AND " : " OR ");
      render_operand(e->args[i], out);
    }
    return;
  case CP_EXPR_ARITH:
    cp_buf_appendf(out, NULL, " %c ", e->op >= 0 && e->op <= CP_ARITH_MOD ? ARITH[e->op] : '?');
    render_operand(e->args[1], out);
    return;
  case CP_EXPR_CAST:
    cp_buf_appendf(out, NULL, " AS ");
    cp_type_append_name(e->type, out);
    cp_buf_appendf(out, NULL, ")");
    return;
  case CP_EXPR_COALESCE:
  case CP_EXPR_FUNC:
    if (e->n_args > 1) cp_buf_appendf(out, NULL, ", ");
    render_list((const cp_expr *const *)e->args + 1, e->n_args - 1, out);
    cp_buf_appendf(out, NULL, ")");
    return;
  case CP_EXPR_CASE:
    cp_buf_appendf(out, NULL, " THEN ");
    render(e->args[1], out);
    for (size_t i = 2; i + 1 < e->n_args; i += 2) {
      cp_buf_appendf(out, NULL, " WHEN ");
      render(e->args[i], out);
      cp_buf_appendf(out, NULL, " THEN ");
      render(e->args[i + 1], out);
    }
    cp_buf_appendf(out, NULL, " ELSE ");
    render(e->args[e->n_args - 1], out);
    cp_buf_appendf(out, NULL, " END");
    return;
  default: return;
  }
}

static void render(const cp_expr *e, cp_buf *out) {
  cp_chain s;
  if (cp_expr_spine(&s, e, NULL) != 0) {
    cp_buf_appendf(out, NULL, "...");
    return;
  }
  size_t k = s.n - 1;
  for (size_t i = 0; i < k; i++) {
    render_prefix(cp_spine_node(&s, i), out);
    if (first_is_operand(cp_spine_node(&s, i)) && !is_leaf(cp_spine_node(&s, i + 1)))
      cp_buf_append(out, "(", 1, NULL);
  }
  const cp_expr *leaf = cp_spine_node(&s, k);
  if (leaf->kind == CP_EXPR_COLUMN)
    cp_buf_appendf(out, NULL, "%s", leaf->name ? leaf->name : "?");
  else if (leaf->kind == CP_EXPR_LITERAL)
    append_literal(leaf, out);
  else
    cp_buf_appendf(out, NULL, "?");
  for (size_t i = k; i-- > 0;) {
    if (first_is_operand(cp_spine_node(&s, i)) && !is_leaf(cp_spine_node(&s, i + 1)))
      cp_buf_append(out, ")", 1, NULL);
    render_suffix(cp_spine_node(&s, i), out);
  }
  cp_chain_free(&s);
}

int cp_expr_append_sql(const cp_expr *e, cp_buf *out, paimon_error *err) {
  size_t before = out->len;
  render(e, out);
  /* render() appends through cp_buf with a NULL error; a short buffer means allocation failed. */
  if (cp_buf_reserve(out, 1, err) != 0) {
    out->len = before;
    return PAIMON_ENOMEM;
  }
  return PAIMON_OK;
}

void cp_expr_describe(const cp_expr *e, cp_buf *out) {
  if (e->kind == CP_EXPR_COLUMN) {
    cp_buf_appendf(out, NULL, "column '%s'", e->name ? e->name : "?");
  } else if (e->kind == CP_EXPR_LITERAL) {
    if (e->literal == CP_LIT_TEXT || (e->type && cp_type_is_string(e->type) && !e->value.is_null))
      append_quoted(out, e->value.v.bytes.data, e->value.v.bytes.len);
    else
      append_literal(e, out);
  } else {
    cp_buf_append(out, "'", 1, NULL);
    render(e, out);
    cp_buf_append(out, "'", 1, NULL);
  }
  cp_buf_append(out, " (", 2, NULL);
  if (e->literal == CP_LIT_TEXT && e->kind == CP_EXPR_LITERAL)
    cp_buf_appendf(out, NULL, "STRING");
  else
    cp_type_append_name(e->type, out);
  cp_buf_append(out, ")", 1, NULL);
}
