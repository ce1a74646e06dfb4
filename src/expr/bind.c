/*
 * Binding (expr.h, cp_expr_bind): resolves column names against a ROW type, types every node and
 * makes Spark's implicit coercions explicit, so that evaluation and pruning never meet two
 * operands of different representations.
 *
 * Per node, after its children are bound:
 *  - text literals and untyped NULLs ("pending" literals) take their type from the operand they
 *    meet (parse.c decides what text means for that type; numbers are read as SQL number
 *    literals), or STRING / BOOLEAN where nothing says otherwise;
 *  - the operands of comparisons and IN are brought to the common type of coerce.c, except that
 *    operands whose values already compare correctly are left alone (integers of any width,
 *    timestamps of any precision, decimals of equal scale), and a literal that converts exactly
 *    to the column's type is converted instead of casting the column (same result, and the
 *    vectorized column-vs-literal kernels apply);
 *  - casts of literals are folded at once; BETWEEN becomes two comparisons; NOT IN, NOT LIKE and
 *    NOT BETWEEN become NOT(...); literal LIKE patterns are compiled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr_internal.h"
#include "expr/like.h"

typedef struct bind_ctx {
  const cp_type *row;
  bool ci;
  int depth; /* recursion of bind_node, guarded */
} bind_ctx;

static int bind_node(bind_ctx *ctx, const cp_expr *u, cp_expr **out, paimon_error *err);

static bool pending(const cp_expr *e) {
  return e->kind == CP_EXPR_LITERAL && e->literal != CP_LIT_TYPED;
}

static bool is_ts(const cp_type *t) {
  return t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ;
}

/* Formats "<prefix><describe(a)><mid><describe(b)><suffix>" into err. */
static int type_error(paimon_error *err, const char *prefix, const cp_expr *a, const char *mid,
                      const cp_expr *b, const char *suffix) {
  cp_buf msg = CP_BUF_INIT;
  cp_buf_appendf(&msg, NULL, "%s", prefix);
  cp_expr_describe(a, &msg);
  if (b) {
    cp_buf_appendf(&msg, NULL, "%s", mid);
    cp_expr_describe(b, &msg);
  }
  cp_buf_appendf(&msg, NULL, "%s", suffix ? suffix : "");
  paimon_error_set(err, PAIMON_EINVAL, "%.*s", (int)msg.len, msg.data ? (char *)msg.data : "");
  cp_buf_free(&msg);
  return PAIMON_EINVAL;
}

/* Replaces the literal `e` by a typed literal of type t (copied) with value v. */
static int retype_literal(cp_expr *e, const cp_type *t, const cp_datum *v, paimon_error *err) {
  cp_expr *lit;
  CP_RETURN_IF_ERROR(cp_expr_bound_literal(&lit, t, v, err));
  cp_type_free(e->type);
  free(e->storage);
  e->type = lit->type;
  e->storage = lit->storage;
  e->value = lit->value;
  e->literal = CP_LIT_TYPED;
  lit->type = NULL;
  lit->storage = NULL;
  cp_expr_free(lit);
  return PAIMON_OK;
}

static int settle_null(cp_expr *e, const cp_type *t, paimon_error *err) {
  cp_datum null = cp_datum_null();
  return retype_literal(e, t, &null, err);
}

/* Fails for a text literal that is not a value of `t`: "cannot <verb> <other> with <e>: why", or
 * "cannot use <e> as <t>: why" without `other`. */
static int settle_error(const cp_expr *e, const cp_type *t, const cp_expr *other, const char *verb,
                        const char *why, paimon_error *err) {
  char prefix[64], suffix[160];
  if (other) {
    snprintf(prefix, sizeof prefix, "cannot %s ", verb);
    snprintf(suffix, sizeof suffix, ": %s", why);
    return type_error(err, prefix, other, " with ", e, suffix);
  }
  cp_buf name = CP_BUF_INIT;
  cp_type_append_name(t, &name);
  snprintf(suffix, sizeof suffix, " as %.*s: %s", (int)name.len,
           name.data ? (char *)name.data : "?", why);
  cp_buf_free(&name);
  return type_error(err, "cannot use ", e, "", NULL, suffix);
}

/* Types the pending literal `e` for type `t` (the type of `other`, when there is one): an untyped
 * NULL becomes a NULL of `t`; text is read as an SQL number for numeric types (keeping the
 * number's own type, for the coercion rules to widen) and as a value of `t` otherwise. */
static int settle_as(cp_expr *e, const cp_type *t, const cp_expr *other, const char *verb,
                     paimon_error *err) {
  if (e->literal == CP_LIT_UNTYPED_NULL) return settle_null(e, t, err);
  const char *s = (const char *)e->value.v.bytes.data;
  size_t len = e->value.v.bytes.len;
  if (cp_type_is_numeric(t)) {
    cp_type *nt;
    cp_datum v;
    if (cp_parse_number_literal(s, len, &nt, &v) != 0)
      return settle_error(e, t, other, verb, "not a number", err);
    int rc = retype_literal(e, nt, &v, err);
    cp_type_free(nt);
    return rc;
  }
  if (cp_type_is_nested(t) || t->kind == CP_TYPE_VARIANT)
    return settle_error(e, t, other, verb, "no literal of that type", err);
  cp_arena arena = CP_ARENA_INIT;
  cp_datum v;
  const char *why = "invalid";
  int rc;
  if (cp_parse_value(t, s, len, true, &arena, &v, &why) != 0) {
    rc = settle_error(e, t, other, verb, why, err);
  } else {
    cp_type *copy = NULL;
    rc = cp_type_copy_nullable(&copy, t, true, err);
    if (rc == 0) rc = retype_literal(e, copy, &v, err);
    cp_type_free(copy);
  }
  cp_arena_free(&arena);
  return rc;
}

static int settle(cp_expr *e, const cp_expr *other, const char *verb, paimon_error *err) {
  return settle_as(e, other->type, other, verb, err);
}

static int settle_kind(cp_expr *e, cp_type_kind kind, paimon_error *err) {
  cp_type *t = cp_type_make(kind);
  if (!t) return CP_ENOMEM(err, "type");
  int rc = settle_as(e, t, NULL, NULL, err);
  cp_type_free(t);
  return rc;
}

/* Makes *slot produce type t: nothing when the representation already matches, a folded literal,
 * or a CAST node. */
static int coerce_as(cp_expr **slot, const cp_type *t, bool explicit_cast, paimon_error *err) {
  cp_expr *e = *slot;
  if (cp_type_same_repr(e->type, t)) return PAIMON_OK;
  if (!(explicit_cast ? cp_cast_explicit_allowed(e->type, t) : cp_cast_allowed(e->type, t))) {
    cp_buf name = CP_BUF_INIT;
    cp_type_append_name(t, &name);
    cp_buf_nul_terminate(&name, NULL);
    char suffix[160];
    snprintf(suffix, sizeof suffix, " to %s", name.data ? (char *)name.data : "?");
    cp_buf_free(&name);
    return type_error(err, "cannot cast ", e, "", NULL, suffix);
  }
  if (e->kind == CP_EXPR_LITERAL) {
    cp_arena arena = CP_ARENA_INIT;
    cp_datum v;
    int rc = cp_cast_datum(e->type, &e->value, t, &arena, &v, err);
    if (rc == 0) rc = retype_literal(e, t, &v, err);
    cp_arena_free(&arena);
    return rc;
  }
  cp_expr *c = cp_expr_alloc(CP_EXPR_CAST, 1);
  if (!c) return CP_ENOMEM(err, "cast");
  c->bound = true;
  if (cp_type_copy_nullable(&c->type, t, true, err) != 0) {
    cp_expr_free(c);
    return PAIMON_ENOMEM;
  }
  c->args[0] = e;
  c->depth = e->depth;
  *slot = c;
  return PAIMON_OK;
}

/* An implicit conversion (Spark's type coercion). */
static int coerce(cp_expr **slot, const cp_type *t, paimon_error *err) {
  return coerce_as(slot, t, false, err);
}

/* Operands of these types compare correctly on their values without a cast. */
static bool compare_compatible(const cp_type *a, const cp_type *b) {
  if (cp_type_same_repr(a, b)) return true;
  if (cp_type_is_integer(a) && cp_type_is_integer(b)) return true;
  if (is_ts(a) && is_ts(b)) return true;
  return a->kind == CP_TYPE_DECIMAL && b->kind == CP_TYPE_DECIMAL && a->scale == b->scale;
}

/* Casts from `from` to `to` that keep every value exactly. */
static bool exact_widening(const cp_type *from, const cp_type *to) {
  if (compare_compatible(from, to)) return true;
  if (cp_type_is_integer(from)) {
    if (to->kind == CP_TYPE_DECIMAL) {
      int p, s;
      cp_integer_decimal(from->kind, &p, &s);
      return to->precision - to->scale >= p;
    }
    if (to->kind == CP_TYPE_DOUBLE) return from->kind != CP_TYPE_BIGINT;
    if (to->kind == CP_TYPE_FLOAT)
      return from->kind == CP_TYPE_TINYINT || from->kind == CP_TYPE_SMALLINT;
    return false;
  }
  if (from->kind == CP_TYPE_FLOAT) return to->kind == CP_TYPE_DOUBLE;
  if (from->kind == CP_TYPE_DECIMAL && to->kind == CP_TYPE_DECIMAL)
    return to->scale >= from->scale && to->precision - to->scale >= from->precision - from->scale;
  return from->kind == CP_TYPE_DATE && is_ts(to);
}

/* When the literal `lit` (non-null) converts to type `t` and back without change: *out holds the
 * converted value and true is returned. */
static bool literal_fits(const cp_expr *lit, const cp_type *t, cp_arena *arena, cp_datum *out) {
  if (!cp_cast_allowed(lit->type, t) || !cp_cast_allowed(t, lit->type)) return false;
  cp_datum back;
  if (cp_cast_datum(lit->type, &lit->value, t, arena, out, NULL) != 0 || out->is_null) return false;
  if (cp_cast_datum(t, out, lit->type, arena, &back, NULL) != 0 || back.is_null) return false;
  return cp_value_compare(lit->type, &back, &lit->value) == 0;
}

static bool comparable_type(const cp_type *t) {
  return !cp_type_is_nested(t) && t->kind != CP_TYPE_VARIANT && t->kind != CP_TYPE_BLOB;
}

/* Brings the value and the candidates of a comparison or IN list to one comparable form.
 * args[0] is the value, args[1..n) what it is compared with. */
static int unify_compare(cp_expr **args, size_t n, paimon_error *err) {
  size_t typed = SIZE_MAX;
  for (size_t i = 0; i < n && typed == SIZE_MAX; i++)
    if (!pending(args[i])) typed = i;
  for (size_t i = 0; i < n; i++) {
    if (!pending(args[i])) continue;
    if (typed == SIZE_MAX)
      CP_RETURN_IF_ERROR(settle_kind(args[i], CP_TYPE_VARCHAR, err));
    else
      CP_RETURN_IF_ERROR(settle(args[i], args[typed], "compare", err));
  }
  for (size_t i = 0; i < n; i++)
    if (!comparable_type(args[i]->type))
      return type_error(err, "cannot compare ", args[0], " with ", args[i ? i : 1], "");
  cp_type *common = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy_nullable(&common, args[0]->type, true, err));
  for (size_t i = 1; i < n; i++) {
    cp_type *next;
    int rc = cp_common_compare_type(common, args[i]->type, &next, err);
    cp_type_free(common);
    if (rc != 0) return rc;
    if (!next) return type_error(err, "cannot compare ", args[0], " with ", args[i], "");
    common = next;
  }
  /* Compare in the value's own type when every literal converts to it exactly. */
  const cp_type *target = common;
  cp_arena arena = CP_ARENA_INIT;
  int rc = 0;
  if (args[0]->kind != CP_EXPR_LITERAL && exact_widening(args[0]->type, common)) {
    bool all = true;
    cp_datum v;
    for (size_t i = 1; i < n && all; i++) {
      const cp_expr *a = args[i];
      all = a->kind == CP_EXPR_LITERAL &&
            (a->value.is_null || compare_compatible(a->type, args[0]->type) ||
             literal_fits(a, args[0]->type, &arena, &v));
    }
    if (all) target = args[0]->type;
  }
  for (size_t i = 0; i < n && rc == 0; i++)
    if (!compare_compatible(args[i]->type, target)) rc = coerce(&args[i], target, err);
  cp_arena_free(&arena);
  cp_type_free(common);
  return rc;
}

/* Settles pending operands of a BOOLEAN context and checks the types (strings are cast). */
static int need_boolean(cp_expr **slot, const char *what, paimon_error *err) {
  if (pending(*slot)) CP_RETURN_IF_ERROR(settle_kind(*slot, CP_TYPE_BOOLEAN, err));
  const cp_type *t = (*slot)->type;
  if (t->kind == CP_TYPE_BOOLEAN) return PAIMON_OK;
  if (cp_type_is_string(t)) {
    cp_type *b = cp_type_make(CP_TYPE_BOOLEAN);
    if (!b) return CP_ENOMEM(err, "type");
    int rc = coerce(slot, b, err);
    cp_type_free(b);
    return rc;
  }
  char prefix[64];
  snprintf(prefix, sizeof prefix, "%s needs a BOOLEAN operand, not ", what);
  return type_error(err, prefix, *slot, "", NULL, "");
}

/* A new bound node of `kind` taking the (bound) children `args`. On failure the children stay
 * the caller's (as everywhere in this file: a failing finish_* leaves args[] to bind_node). */
static int bound_node(cp_expr **out, cp_expr_kind kind, int op, cp_expr **args, size_t n,
                      cp_type_kind result, paimon_error *err) {
  cp_expr *e = cp_expr_alloc(kind, n);
  if (!e || (result != (cp_type_kind)-1 && !(e->type = cp_type_make(result)))) {
    cp_expr_free(e);
    *out = NULL;
    return CP_ENOMEM(err, "expression node");
  }
  e->bound = true;
  e->op = op;
  for (size_t i = 0; i < n; i++) e->args[i] = args[i];
  cp_expr_set_depth(e);
  *out = e;
  return PAIMON_OK;
}

/* Wraps the node just built in NOT. On failure the node is freed without its children, which
 * are still in the caller's args[] array. */
static int wrap_not(cp_expr **e, paimon_error *err) {
  cp_expr *n;
  if (bound_node(&n, CP_EXPR_NOT, 0, e, 1, CP_TYPE_BOOLEAN, err) != 0) {
    (*e)->n_args = 0;
    cp_expr_free(*e);
    *e = NULL;
    return PAIMON_ENOMEM;
  }
  *e = n;
  return PAIMON_OK;
}

/* ---- per kind ----------------------------------------------------------------------------- */

static int bind_column(bind_ctx *ctx, const cp_expr *u, cp_expr **out, paimon_error *err) {
  ptrdiff_t i =
      ctx->ci ? cp_row_field_index_ci(ctx->row, u->name) : cp_row_field_index(ctx->row, u->name);
  if (i < 0) {
    cp_buf names = CP_BUF_INIT;
    for (size_t k = 0; k < ctx->row->n_fields && k < 32; k++)
      cp_buf_appendf(&names, NULL, "%s%s", k ? ", " : "", ctx->row->fields[k].name);
    if (ctx->row->n_fields > 32) cp_buf_appendf(&names, NULL, ", ...");
    paimon_error_set(err, PAIMON_ENOTFOUND, "column '%s' not found among: %.*s", u->name,
                     (int)names.len, names.data ? (char *)names.data : "");
    cp_buf_free(&names);
    return PAIMON_ENOTFOUND;
  }
  cp_expr *e = cp_expr_alloc(CP_EXPR_COLUMN, 0);
  const cp_field *f = &ctx->row->fields[i];
  if (!e || !(e->name = strdup(f->name)) || cp_type_copy(&e->type, f->type, err) != 0) {
    cp_expr_free(e);
    return CP_ENOMEM(err, "column reference");
  }
  e->bound = true;
  e->column = (int32_t)i;
  *out = e;
  return PAIMON_OK;
}

static void free_children(cp_expr **args, size_t n) {
  if (!args) return;
  for (size_t i = 0; i < n; i++) cp_expr_free(args[i]);
  free(args);
}

static bool holds_map(const cp_type *t) {
  if (t->kind == CP_TYPE_MAP) return true;
  if (t->element && holds_map(t->element)) return true;
  for (size_t i = 0; i < t->n_fields; i++)
    if (holds_map(t->fields[i].type)) return true;
  return false;
}

/* `a = b` / `a <> b` between ARRAY or ROW values of the same type: NESTED_EQUAL (Spark compares
 * them; MAPs, which it does not, keep the type error). 1 when not of that shape. */
static int nested_equal(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  if (u->kind != CP_EXPR_COMPARE || (u->op != CP_CMP_EQ && u->op != CP_CMP_NE)) return 1;
  if (pending(args[0]) || pending(args[1])) return 1;
  const cp_type *a = args[0]->type, *b = args[1]->type;
  if (!cp_type_is_nested(a) || holds_map(a) || holds_map(b) ||
      !cp_type_equals(a, b,
                      CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS |
                          CP_TYPE_EQ_IGNORE_FIELD_DOCS))
    return 1;
  CP_RETURN_IF_ERROR(
      bound_node(out, CP_EXPR_FUNC, CP_FUNC_NESTED_EQUAL, args, 2, CP_TYPE_BOOLEAN, err));
  return (u->op == CP_CMP_NE) != u->negated ? wrap_not(out, err) : PAIMON_OK;
}

static int finish_compare(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  int rc = nested_equal(u, args, out, err);
  if (rc != 1) return rc;
  if (u->kind == CP_EXPR_COMPARE && args[0]->kind == CP_EXPR_LITERAL &&
      args[1]->kind != CP_EXPR_LITERAL) {
    /* `5 < age`: the column is the value the literal is fitted to. */
    cp_expr *swapped[2] = {args[1], args[0]};
    rc = unify_compare(swapped, 2, err);
    args[0] = swapped[1];
    args[1] = swapped[0];
  } else {
    rc = unify_compare(args, u->n_args, err);
  }
  if (rc != 0) return rc;
  CP_RETURN_IF_ERROR(bound_node(out, u->kind, u->op, args, u->n_args, CP_TYPE_BOOLEAN, err));
  if (u->kind == CP_EXPR_COMPARE && u->op == CP_CMP_EQ_NULL_SAFE) (*out)->type->nullable = false;
  if (u->negated) return wrap_not(out, err);
  return PAIMON_OK;
}

static int to_string_operand(cp_expr **slot, paimon_error *err) {
  if (pending(*slot)) return settle_kind(*slot, CP_TYPE_VARCHAR, err);
  const cp_type *t = (*slot)->type;
  if (cp_type_is_string(t)) return PAIMON_OK;
  cp_type *s = cp_type_make(CP_TYPE_VARCHAR);
  if (!s) return CP_ENOMEM(err, "type");
  int rc = cp_cast_allowed(t, s) ? coerce(slot, s, err)
                                 : type_error(err, "expected a string, not ", *slot, "", NULL, "");
  cp_type_free(s);
  return rc;
}

static int finish_like(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  for (int i = 0; i < 2; i++) CP_RETURN_IF_ERROR(to_string_operand(&args[i], err));
  cp_like_pattern *pattern = NULL;
  const cp_expr *p = args[1];
  if (p->kind == CP_EXPR_LITERAL && !p->value.is_null)
    CP_RETURN_IF_ERROR(cp_like_compile((cp_like_kind)u->op, p->value.v.bytes.data,
                                       p->value.v.bytes.len, u->escape, &pattern, err));
  int rc = bound_node(out, CP_EXPR_LIKE, u->op, args, 2, CP_TYPE_BOOLEAN, err);
  if (rc != 0) {
    cp_like_free(pattern);
    return rc;
  }
  (*out)->like = pattern;
  (*out)->escape = u->escape;
  if (u->negated) return wrap_not(out, err);
  return PAIMON_OK;
}

/* Brings args[0..n) (COALESCE values, CASE branches) to their wider common type in *common. */
static int unify_branches(cp_expr **args, const size_t *idx, size_t n, cp_type **common,
                          paimon_error *err) {
  *common = NULL;
  for (size_t k = 0; k < n; k++) {
    const cp_expr *a = args[idx[k]];
    if (pending(a)) continue;
    if (!*common) {
      CP_RETURN_IF_ERROR(cp_type_copy_nullable(common, a->type, true, err));
      continue;
    }
    cp_type *next = NULL;
    if (cp_type_equals(*common, a->type,
                       CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS |
                           CP_TYPE_EQ_IGNORE_FIELD_DOCS))
      continue;
    int rc = cp_common_wider_type(*common, a->type, &next, err);
    if (rc == 0 && !next) {
      cp_expr probe = {.kind = CP_EXPR_LITERAL, .literal = CP_LIT_TYPED, .type = *common};
      probe.value = cp_datum_null();
      rc = type_error(err, "no common type for ", &probe, " and ", a, "");
    }
    cp_type_free(*common);
    *common = next;
    if (rc != 0) return rc;
  }
  if (!*common && !(*common = cp_type_make(CP_TYPE_VARCHAR))) return CP_ENOMEM(err, "type");
  for (size_t k = 0; k < n; k++) {
    cp_expr **slot = &args[idx[k]];
    int rc = pending(*slot) ? settle_as(*slot, *common, NULL, NULL, err) : 0;
    if (rc == 0 && !cp_type_is_nested(*common)) rc = coerce(slot, *common, err);
    if (rc != 0) {
      cp_type_free(*common);
      *common = NULL;
      return rc;
    }
  }
  return PAIMON_OK;
}

static int finish_branches(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  size_t n = u->n_args, *idx = malloc(n * sizeof *idx), m = 0;
  if (!idx) return CP_ENOMEM(err, "branches");
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    bool is_cond = u->kind == CP_EXPR_CASE && i % 2 == 0 && i + 1 < n;
    if (is_cond)
      rc = rc ? rc : need_boolean(&args[i], "CASE WHEN", err);
    else
      idx[m++] = i;
  }
  cp_type *common = NULL;
  if (rc == 0) rc = unify_branches(args, idx, m, &common, err);
  free(idx);
  if (rc != 0) return rc;
  rc = bound_node(out, u->kind, 0, args, n, (cp_type_kind)-1, err);
  if (rc != 0) {
    cp_type_free(common);
    return rc;
  }
  (*out)->type = common;
  return PAIMON_OK;
}

static int finish_func(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err);
static int days_operand(cp_expr **slot, paimon_error *err);

/* DATE + n, n + DATE, DATE - n: Spark's DateAdd / DateSub, as DATE_ADD (a negated n for -). */
static int date_arith(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  if (args[0]->type->kind != CP_TYPE_DATE) {
    cp_expr *t = args[0];
    args[0] = args[1];
    args[1] = t;
  }
  if (u->op == CP_ARITH_SUB) {
    CP_RETURN_IF_ERROR(days_operand(&args[1], err));
    cp_expr *neg = cp_expr_alloc(CP_EXPR_NEGATE, 1);
    if (!neg) return CP_ENOMEM(err, "date arithmetic");
    neg->bound = true;
    neg->args[0] = args[1];
    cp_expr_set_depth(neg);
    if (cp_type_copy(&neg->type, args[1]->type, err) != 0) {
      neg->args[0] = NULL;
      cp_expr_free(neg);
      return PAIMON_ENOMEM;
    }
    args[1] = neg;
  }
  cp_expr f;
  memset(&f, 0, sizeof f);
  f.kind = CP_EXPR_FUNC;
  f.op = CP_FUNC_DATE_ADD;
  f.n_args = 2;
  return finish_func(&f, args, out, err);
}

static int finish_arith(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  static const char SYM[] = "+-*/%";
  bool d0 = !pending(args[0]) && args[0]->type->kind == CP_TYPE_DATE;
  bool d1 = !pending(args[1]) && args[1]->type->kind == CP_TYPE_DATE;
  if (d0 && d1 && u->op == CP_ARITH_SUB)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "not supported: DATE - DATE (an INTERVAL in Spark); use "
                            "datediff(end, start) for the days between them");
  if ((d0 != d1) && (u->op == CP_ARITH_ADD || (u->op == CP_ARITH_SUB && d0)))
    return date_arith(u, args, out, err);
  char prefix[48];
  snprintf(prefix, sizeof prefix, "cannot apply %c to ", SYM[u->op]);
  for (int i = 0; i < 2; i++) {
    cp_expr *o = args[1 - i];
    if (!pending(args[i])) continue;
    if (!pending(o) && cp_type_is_numeric(o->type)) {
      CP_RETURN_IF_ERROR(settle(args[i], o, "apply an operator to", err));
    } else if (args[i]->literal == CP_LIT_UNTYPED_NULL) {
      CP_RETURN_IF_ERROR(settle_kind(args[i], CP_TYPE_DOUBLE, err));
    } else {
      CP_RETURN_IF_ERROR(settle_kind(args[i], CP_TYPE_DOUBLE, err));
    }
  }
  cp_type *dbl = cp_type_make(CP_TYPE_DOUBLE);
  if (!dbl) return CP_ENOMEM(err, "type");
  int rc = 0;
  for (int i = 0; i < 2 && rc == 0; i++)
    if (cp_type_is_string(args[i]->type)) rc = coerce(&args[i], dbl, err);
  cp_type_free(dbl);
  CP_RETURN_IF_ERROR(rc);
  /* Spark's DecimalPrecision: an integer literal beside a decimal is a DECIMAL of just its own
   * digits (3 is DECIMAL(1, 0), not INT's DECIMAL(10, 0); spark.sql.legacy.literal.
   * pickMinimumPrecision, on by default), which keeps `dec / 3` at scale 6. */
  cp_type *minimal[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) {
    const cp_expr *a = args[i];
    if (a->kind != CP_EXPR_LITERAL || a->literal != CP_LIT_TYPED || a->value.is_null ||
        !cp_type_is_integer(a->type) || args[1 - i]->type->kind != CP_TYPE_DECIMAL)
      continue;
    uint64_t m = a->value.v.i64 < 0 ? 0 - (uint64_t)a->value.v.i64 : (uint64_t)a->value.v.i64;
    int digits = 1;
    while (m >= 10) m /= 10, digits++;
    if (!(minimal[i] = cp_type_make_decimal(digits, 0))) rc = CP_ENOMEM(err, "type");
  }
  cp_type *tl = NULL, *tr = NULL, *tres = NULL;
  if (rc == 0)
    rc = cp_arith_types((cp_arith_op)u->op, minimal[0] ? minimal[0] : args[0]->type,
                        minimal[1] ? minimal[1] : args[1]->type, &tl, &tr, &tres, err);
  cp_type_free(minimal[0]);
  cp_type_free(minimal[1]);
  if (rc == 1) return type_error(err, prefix, args[0], " and ", args[1], "");
  CP_RETURN_IF_ERROR(rc);
  rc = coerce(&args[0], tl, err);
  if (rc == 0) rc = coerce(&args[1], tr, err);
  cp_type_free(tl);
  cp_type_free(tr);
  if (rc == 0) rc = bound_node(out, CP_EXPR_ARITH, u->op, args, 2, (cp_type_kind)-1, err);
  if (rc != 0) {
    cp_type_free(tres);
    return rc;
  }
  (*out)->type = tres;
  return PAIMON_OK;
}

/* NEGATE and ABS: one numeric operand (strings become DOUBLE), result of the operand's type. */
static int numeric_operand(cp_expr **slot, const char *what, paimon_error *err) {
  if (pending(*slot))
    CP_RETURN_IF_ERROR(settle_kind(
        *slot, (*slot)->literal == CP_LIT_UNTYPED_NULL ? CP_TYPE_DOUBLE : CP_TYPE_VARCHAR, err));
  if (cp_type_is_string((*slot)->type)) {
    cp_type *d = cp_type_make(CP_TYPE_DOUBLE);
    if (!d) return CP_ENOMEM(err, "type");
    int rc = coerce(slot, d, err);
    cp_type_free(d);
    CP_RETURN_IF_ERROR(rc);
  }
  if (cp_type_is_numeric((*slot)->type)) return PAIMON_OK;
  char prefix[48];
  snprintf(prefix, sizeof prefix, "%s needs a number, not ", what);
  return type_error(err, prefix, *slot, "", NULL, "");
}

static int same_type_node(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy_nullable(&t, args[0]->type, true, err));
  int rc = bound_node(out, u->kind, u->op, args, u->n_args, (cp_type_kind)-1, err);
  if (rc != 0) {
    cp_type_free(t);
    return rc;
  }
  (*out)->type = t;
  return PAIMON_OK;
}

/* SIZE(a): a must be an ARRAY, MAP or MULTISET; INT NOT NULL. */
static int finish_size(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  const cp_expr *a = args[0];
  cp_type_kind k = pending(a) ? CP_TYPE_VARCHAR : a->type->kind;
  if (k != CP_TYPE_ARRAY && k != CP_TYPE_MAP && k != CP_TYPE_MULTISET)
    return type_error(err, "SIZE needs an ARRAY or a MAP, not ", a, "", NULL, "");
  CP_RETURN_IF_ERROR(bound_node(out, CP_EXPR_FUNC, u->op, args, 1, CP_TYPE_INT, err));
  (*out)->type->nullable = false;
  return PAIMON_OK;
}

/* ARRAY(x, ...): the elements meet at their wider type as COALESCE's branches do. */
static int finish_array(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  size_t n = u->n_args, *idx = malloc(n * sizeof *idx);
  if (!idx) return CP_ENOMEM(err, "ARRAY");
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    idx[i] = i;
    if (!rc && !pending(args[i]) &&
        (cp_type_is_nested(args[i]->type) || args[i]->type->kind == CP_TYPE_VARIANT))
      rc = type_error(err, "ARRAY elements must be atomic values, not ", args[i], "", NULL, "");
  }
  cp_type *element = NULL, *array = NULL;
  if (rc == 0) rc = unify_branches(args, idx, n, &element, err);
  free(idx);
  if (rc == 0) rc = cp_type_new_collection(&array, CP_TYPE_ARRAY, element, false, err);
  if (rc == 0) rc = bound_node(out, CP_EXPR_FUNC, u->op, args, n, (cp_type_kind)-1, err);
  if (rc != 0) {
    cp_type_free(array);
    return rc;
  }
  (*out)->type = array;
  return PAIMON_OK;
}

/* NAMED_STRUCT: names from the string literals, fields of the values' types (a text literal a
 * STRING, an untyped NULL a nullable STRING, as no type says otherwise). */
static int finish_named_struct(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  size_t n = u->n_args / 2;
  cp_field *fields = calloc(n + 1, sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "named_struct");
  int rc = 0;
  size_t made = 0;
  for (size_t k = 0; rc == 0 && k < n; k++) {
    cp_expr *name = args[2 * k], **value = &args[2 * k + 1];
    if (name->kind != CP_EXPR_LITERAL || name->value.is_null ||
        (!pending(name) && !cp_type_is_string(name->type))) {
      rc = type_error(err, "named_struct field names must be string literals, not ", name, "", NULL,
                      "");
      break;
    }
    if (pending(*value) && (*value)->literal == CP_LIT_UNTYPED_NULL) {
      cp_type *str = cp_type_make(CP_TYPE_VARCHAR);
      rc = str ? settle_null(*value, str, err) : CP_ENOMEM(err, "named_struct");
      cp_type_free(str);
    } else if (pending(*value)) {
      rc = settle_kind(*value, CP_TYPE_VARCHAR, err);
    }
    char *text =
        rc ? NULL : strndup((const char *)name->value.v.bytes.data, name->value.v.bytes.len);
    cp_type *t = NULL;
    if (rc == 0 && !text) rc = CP_ENOMEM(err, "named_struct");
    if (rc == 0) rc = cp_type_copy_nullable(&t, (*value)->type, true, err);
    if (rc == 0) rc = cp_field_init(&fields[k], (int32_t)k, text, t, NULL, NULL, err);
    if (rc == 0) made++;
    free(text);
  }
  cp_type *row = NULL;
  if (rc == 0) {
    rc = cp_type_new_row(&row, fields, n, false, err);
    made = 0;
  }
  for (size_t k = 0; k < made; k++) cp_field_clear(&fields[k]);
  free(fields);
  if (rc == 0) rc = bound_node(out, CP_EXPR_FUNC, u->op, args, u->n_args, (cp_type_kind)-1, err);
  if (rc != 0) { /* args stay the caller's */
    cp_type_free(row);
    return rc;
  }
  (*out)->type = row;
  return PAIMON_OK;
}

/* A DATE argument (date_add, datediff): a DATE, or a string or timestamp cast to one, as Spark's
 * implicit casts for these functions. */
static int date_operand(cp_expr **slot, paimon_error *err) {
  if (pending(*slot)) CP_RETURN_IF_ERROR(settle_kind(*slot, CP_TYPE_DATE, err));
  const cp_type *t = (*slot)->type;
  if (t->kind == CP_TYPE_DATE) return PAIMON_OK;
  if (!cp_type_is_string(t) && !is_ts(t))
    return type_error(err, "expected a DATE, not ", *slot, "", NULL, "");
  cp_type *d = cp_type_make(CP_TYPE_DATE);
  if (!d) return CP_ENOMEM(err, "type");
  int rc = coerce(slot, d, err);
  cp_type_free(d);
  return rc;
}

/* A number of days: an integer (TINYINT, SMALLINT or INT; Spark refuses BIGINT and fractions). */
static int days_operand(cp_expr **slot, paimon_error *err) {
  cp_type *i = cp_type_make(CP_TYPE_INT);
  if (!i) return CP_ENOMEM(err, "type");
  int rc = pending(*slot) ? settle_as(*slot, i, NULL, NULL, err) : 0;
  const cp_type *t = (*slot)->type;
  if (rc == 0 && !(cp_type_is_integer(t) && t->kind != CP_TYPE_BIGINT))
    rc = type_error(err, "a number of days must be TINYINT, SMALLINT or INT, not ", *slot, "", NULL,
                    "");
  if (rc == 0) rc = coerce(slot, i, err);
  cp_type_free(i);
  return rc;
}

/* GET_FIELD / SUBSCRIPT / ELEMENT_AT: the field's, element's or map value's type, nullable. */
static int finish_access(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  const cp_type *t = pending(args[0]) ? NULL : args[0]->type;
  const cp_type *result = NULL;
  if (u->op == CP_FUNC_GET_FIELD) {
    int64_t i = args[1]->value.v.i64;
    if (!t || t->kind != CP_TYPE_ROW || i < 0 || (size_t)i >= t->n_fields)
      return type_error(err, "a field can only be taken from a ROW, not ", args[0], "", NULL, "");
    result = t->fields[i].type;
  } else if (t && (t->kind == CP_TYPE_ARRAY || t->kind == CP_TYPE_VECTOR)) {
    cp_type *it = cp_type_make(CP_TYPE_INT);
    if (!it) return CP_ENOMEM(err, "type");
    int rc = pending(args[1]) ? settle_as(args[1], it, NULL, NULL, err) : 0;
    if (rc == 0 && !cp_type_is_integer(args[1]->type))
      rc = type_error(err, "an array index must be an integer, not ", args[1], "", NULL, "");
    if (rc == 0) rc = coerce(&args[1], it, err);
    cp_type_free(it);
    CP_RETURN_IF_ERROR(rc);
    result = t->element;
  } else if (t && t->kind == CP_TYPE_MAP) {
    if (pending(args[1])) CP_RETURN_IF_ERROR(settle_as(args[1], t->key, args[0], "look up", err));
    if (!cp_cast_allowed(args[1]->type, t->key))
      return type_error(err, "cannot look up ", args[0], " with ", args[1], "");
    CP_RETURN_IF_ERROR(coerce(&args[1], t->key, err));
    result = t->value;
  } else {
    return type_error(err, "[] and element_at need an ARRAY or a MAP, not ", args[0], "", NULL, "");
  }
  cp_type *copy = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy_nullable(&copy, result, true, err));
  int rc = bound_node(out, CP_EXPR_FUNC, u->op, args, 2, (cp_type_kind)-1, err);
  if (rc != 0) {
    cp_type_free(copy);
    return rc;
  }
  (*out)->type = copy;
  return PAIMON_OK;
}

static int finish_func(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  size_t n = u->n_args;
  cp_type_kind result = CP_TYPE_VARCHAR;
  int rc = 0;
  switch ((cp_func)u->op) {
  case CP_FUNC_SIZE: return finish_size(u, args, out, err);
  case CP_FUNC_ARRAY: return finish_array(u, args, out, err);
  case CP_FUNC_NAMED_STRUCT: return finish_named_struct(u, args, out, err);
  case CP_FUNC_ABS:
    CP_RETURN_IF_ERROR(numeric_operand(&args[0], "ABS", err));
    return same_type_node(u, args, out, err);
  case CP_FUNC_GET_FIELD:
  case CP_FUNC_SUBSCRIPT:
  case CP_FUNC_ELEMENT_AT: return finish_access(u, args, out, err);
  case CP_FUNC_DATE_ADD:
  case CP_FUNC_DATE_DIFF:
    CP_RETURN_IF_ERROR(date_operand(&args[0], err));
    if (u->op == CP_FUNC_DATE_DIFF)
      CP_RETURN_IF_ERROR(date_operand(&args[1], err));
    else
      CP_RETURN_IF_ERROR(days_operand(&args[1], err));
    result = u->op == CP_FUNC_DATE_ADD ? CP_TYPE_DATE : CP_TYPE_INT;
    break;
  case CP_FUNC_CONCAT: {
    bool all_binary = true;
    for (size_t i = 0; i < n; i++)
      all_binary = all_binary && !pending(args[i]) && cp_type_is_binary(args[i]->type);
    if (all_binary) {
      result = CP_TYPE_VARBINARY;
      break;
    }
    for (size_t i = 0; i < n && rc == 0; i++) rc = to_string_operand(&args[i], err);
    break;
  }
  case CP_FUNC_LENGTH:
  case CP_FUNC_SUBSTRING:
    /* BLOB values are bytes too: length() counts them, as Spark's on the BINARY it reads. */
    if (!pending(args[0]) &&
        (cp_type_is_binary(args[0]->type) || args[0]->type->kind == CP_TYPE_BLOB))
      result = CP_TYPE_VARBINARY;
    else
      rc = to_string_operand(&args[0], err);
    if (u->op == CP_FUNC_LENGTH) result = CP_TYPE_INT;
    for (size_t i = 1; i < n && rc == 0; i++) {
      cp_type *it = cp_type_make(CP_TYPE_INT);
      if (!it) return CP_ENOMEM(err, "type");
      if (pending(args[i])) rc = settle_as(args[i], it, NULL, NULL, err);
      if (rc == 0 && !cp_type_is_numeric(args[i]->type) && !cp_type_is_string(args[i]->type))
        rc = type_error(err, "SUBSTRING needs an integer position and length, not ", args[i], "",
                        NULL, "");
      if (rc == 0) rc = coerce(&args[i], it, err);
      cp_type_free(it);
    }
    break;
  default: rc = to_string_operand(&args[0], err); break;
  }
  CP_RETURN_IF_ERROR(rc);
  return bound_node(out, CP_EXPR_FUNC, u->op, args, n, result, err);
}

/* Consumes args (also on failure). */
static int finish_cast(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  cp_expr *child = args[0];
  free(args);
  int rc = 0;
  if (pending(child))
    rc = child->literal == CP_LIT_UNTYPED_NULL ? settle_null(child, u->type, err)
                                               : settle_kind(child, CP_TYPE_VARCHAR, err);
  /* Spark's CAST (non-ANSI) of a DATE to a number or BOOLEAN is allowed and always NULL
   * (Cast.castToInt & co. `case DateType => _ => null`); only an explicit CAST does that. */
  const cp_type_kind tk = u->type->kind;
  if (rc == 0 && child->type->kind == CP_TYPE_DATE &&
      (cp_type_is_numeric(u->type) || tk == CP_TYPE_BOOLEAN)) {
    cp_datum null = cp_datum_null();
    cp_expr *lit = NULL;
    rc = cp_expr_bound_literal(&lit, u->type, &null, err);
    cp_expr_free(child);
    child = lit;
  }
  if (rc == 0 && cp_type_is_nested(child->type) && cp_type_is_string(u->type)) {
    /* CAST(nested AS STRING): Spark's text of the value (then to the string type asked for) */
    cp_expr *text = NULL;
    rc = bound_node(&text, CP_EXPR_FUNC, CP_FUNC_NESTED_TO_STRING, &child, 1, CP_TYPE_VARCHAR, err);
    if (rc == 0) child = text;
  }
  if (rc == 0) rc = coerce_as(&child, u->type, true, err);
  if (rc != 0) {
    cp_expr_free(child);
    return rc;
  }
  *out = child;
  return PAIMON_OK;
}

/* BETWEEN is `value >= low AND value <= high` (Spark's rewrite), NOT BETWEEN its negation. */
static int bind_between(bind_ctx *ctx, const cp_expr *u, cp_expr **out, paimon_error *err) {
  cp_expr *c[4] = {NULL, NULL, NULL, NULL}, *ge = NULL, *le = NULL, *both = NULL;
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++) rc = cp_expr_copy(&c[i], u->args[i < 2 ? 0 : i - 1], err);
  if (rc != 0) {
    for (int i = 0; i < 4; i++) cp_expr_free(c[i]);
    return rc;
  }
  /* c = value, value, low, high */
  rc = cp_expr_compare(&ge, CP_CMP_GE, c[0], c[2], err);
  if (rc == 0)
    rc = cp_expr_compare(&le, CP_CMP_LE, c[1], c[3], err);
  else
    cp_expr_free(c[1]), cp_expr_free(c[3]);
  if (rc == 0)
    rc = cp_expr_and2(&both, ge, le, err);
  else
    cp_expr_free(ge);
  if (rc == 0 && u->negated) rc = cp_expr_not(&both, both, err);
  if (rc == 0) rc = bind_node(ctx, both, out, err);
  cp_expr_free(both);
  return rc;
}

static int finish(const cp_expr *u, cp_expr **args, cp_expr **out, paimon_error *err) {
  switch (u->kind) {
  case CP_EXPR_COMPARE:
  case CP_EXPR_IN: return finish_compare(u, args, out, err);
  case CP_EXPR_IS_NULL: {
    if (pending(args[0])) CP_RETURN_IF_ERROR(settle_kind(args[0], CP_TYPE_VARCHAR, err));
    CP_RETURN_IF_ERROR(bound_node(out, CP_EXPR_IS_NULL, 0, args, 1, CP_TYPE_BOOLEAN, err));
    (*out)->negated = u->negated;
    (*out)->type->nullable = false;
    return PAIMON_OK;
  }
  case CP_EXPR_LIKE: return finish_like(u, args, out, err);
  case CP_EXPR_AND:
  case CP_EXPR_OR:
  case CP_EXPR_NOT: {
    const char *what = u->kind == CP_EXPR_AND ? "AND" : u->kind == CP_EXPR_OR ? "OR" : "NOT";
    for (size_t i = 0; i < u->n_args; i++) CP_RETURN_IF_ERROR(need_boolean(&args[i], what, err));
    return bound_node(out, u->kind, 0, args, u->n_args, CP_TYPE_BOOLEAN, err);
  }
  case CP_EXPR_ARITH: return finish_arith(u, args, out, err);
  case CP_EXPR_NEGATE:
    CP_RETURN_IF_ERROR(numeric_operand(&args[0], "unary minus", err));
    return same_type_node(u, args, out, err);
  case CP_EXPR_COALESCE:
  case CP_EXPR_CASE: return finish_branches(u, args, out, err);
  case CP_EXPR_FUNC: return finish_func(u, args, out, err);
  default: return paimon_error_set(err, PAIMON_EINVAL, "cannot bind expression kind %d", u->kind);
  }
}

/* Node `u` whose first argument is bound already (`first`, consumed): binds the other arguments
 * and the node. */
static int bind_above(bind_ctx *ctx, const cp_expr *u, cp_expr *first, cp_expr **out,
                      paimon_error *err) {
  *out = NULL;
  if (u->kind == CP_EXPR_CAST && !u->type) {
    cp_expr_free(first);
    return paimon_error_set(err, PAIMON_EINVAL, "CAST without a target type");
  }
  cp_expr **args = calloc(u->n_args, sizeof *args);
  if (!args) {
    cp_expr_free(first);
    return CP_ENOMEM(err, "expression children");
  }
  args[0] = first;
  int rc = 0;
  for (size_t i = 1; rc == 0 && i < u->n_args; i++) rc = bind_node(ctx, u->args[i], &args[i], err);
  if (rc == 0 && u->kind == CP_EXPR_CAST) return finish_cast(u, args, out, err);
  if (rc == 0) rc = finish(u, args, out, err);
  if (rc != 0)
    free_children(args, u->n_args);
  else
    free(args);
  return rc;
}

/* A node bound as a whole rather than above its first argument. */
static bool binds_whole(const cp_expr *u) {
  return u->kind == CP_EXPR_COLUMN || u->kind == CP_EXPR_LITERAL || u->kind == CP_EXPR_BETWEEN ||
         u->n_args == 0;
}

static int bind_whole(bind_ctx *ctx, const cp_expr *u, cp_expr **out, paimon_error *err) {
  if (u->kind == CP_EXPR_COLUMN) return bind_column(ctx, u, out, err);
  if (u->kind == CP_EXPR_LITERAL) {
    CP_RETURN_IF_ERROR(cp_expr_copy(out, u, err));
    (*out)->bound = true;
    return PAIMON_OK;
  }
  if (u->kind == CP_EXPR_BETWEEN) return bind_between(ctx, u, out, err);
  return paimon_error_set(err, PAIMON_EINVAL, "expression kind %d has no arguments", u->kind);
}

/* Binds the chain of first arguments bottom up with a loop (expr.h, "Depth"); the other
 * arguments recurse, bounded by the tree's depth and, for trees not made by the constructors,
 * by this guard. */
static int bind_node(bind_ctx *ctx, const cp_expr *u, cp_expr **out, paimon_error *err) {
  *out = NULL;
  if (ctx->depth >= 2 * CP_EXPR_MAX_DEPTH + 16)
    return paimon_error_set(err, PAIMON_EINVAL, "expression nested too deeply to bind");
  cp_chain s;
  CP_RETURN_IF_ERROR(cp_expr_spine(&s, u, err));
  size_t k = 0;
  while (!binds_whole(cp_spine_node(&s, k))) k++;
  ctx->depth++;
  cp_expr *acc = NULL;
  int rc = bind_whole(ctx, cp_spine_node(&s, k), &acc, err);
  while (rc == 0 && k-- > 0) rc = bind_above(ctx, cp_spine_node(&s, k), acc, &acc, err);
  ctx->depth--;
  cp_chain_free(&s);
  if (rc == 0) *out = acc;
  return rc;
}

int cp_expr_bind(const cp_expr *unbound, const cp_type *row, bool case_insensitive, cp_expr **out,
                 paimon_error *err) {
  *out = NULL;
  if (!row || row->kind != CP_TYPE_ROW)
    return paimon_error_set(err, PAIMON_EINVAL, "expressions bind to a ROW type");
  bind_ctx ctx = {row, case_insensitive, 0};
  cp_expr *e;
  CP_RETURN_IF_ERROR(bind_node(&ctx, unbound, &e, err));
  if (pending(e)) {
    int rc =
        settle_kind(e, e->literal == CP_LIT_UNTYPED_NULL ? CP_TYPE_BOOLEAN : CP_TYPE_VARCHAR, err);
    if (rc != 0) {
      cp_expr_free(e);
      return rc;
    }
  }
  *out = e;
  return PAIMON_OK;
}
