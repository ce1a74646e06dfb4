/*
 * Evaluation of a bound expression on one row of datums (expr.h: cp_expr_eval_row,
 * cp_expr_eval_row_value), for partition pruning (partition values are datums, spec/format.md
 * §5.3) and for constant subexpressions.
 *
 * Columns may be absent (only the partition columns are known when pruning partitions). A value
 * that depends on an absent column is "unknown"; AND / OR still decide when another operand does
 * (FALSE AND unknown is FALSE), so the answer stays exact where it can be and is otherwise
 * UNKNOWN, never wrong. Everything else uses the per-value semantics of scalar.c.
 */
#include <stdlib.h>

#include "base/status.h"
#include "expr/expr_internal.h"

typedef struct row_ctx {
  const cp_datum *row;
  const bool *present;
  cp_arena *arena;
  int depth; /* recursion of eval, guarded */
} row_ctx;

static int eval(row_ctx *c, const cp_expr *e, cp_datum *out, bool *known, paimon_error *err);

/* Argument i of `e`: the first one's value is given (the chain of first arguments is evaluated
 * bottom up, see eval), the others are evaluated here. */
static int arg_value(row_ctx *c, const cp_expr *e, size_t i, const cp_datum *first,
                     bool first_known, cp_datum *out, bool *known, paimon_error *err) {
  if (i > 0) return eval(c, e->args[i], out, known, err);
  *out = *first;
  *known = first_known;
  return PAIMON_OK;
}

/* AND / OR: the dominant value (FALSE / TRUE) decides even when other operands are unknown. */
static int eval_logic(row_ctx *c, const cp_expr *e, const cp_datum *first, bool first_known,
                      cp_datum *out, bool *known, paimon_error *err) {
  bool dominant = e->kind == CP_EXPR_OR, saw_null = false, saw_unknown = false;
  for (size_t i = 0; i < e->n_args; i++) {
    cp_datum d;
    bool k;
    CP_RETURN_IF_ERROR(arg_value(c, e, i, first, first_known, &d, &k, err));
    if (!k)
      saw_unknown = true;
    else if (d.is_null)
      saw_null = true;
    else if (d.v.b == dominant) {
      *known = true;
      *out = d;
      return PAIMON_OK;
    }
  }
  *known = !saw_unknown;
  if (saw_null)
    *out = cp_datum_null();
  else {
    out->is_null = false;
    out->v.b = !dominant;
  }
  return PAIMON_OK;
}

/* CASE and COALESCE look at their arguments in order and stop at the first that decides; an
 * unknown argument before that makes the result unknown. */
static int eval_ordered(row_ctx *c, const cp_expr *e, const cp_datum *first, bool first_known,
                        cp_datum *out, bool *known, paimon_error *err) {
  bool is_case = e->kind == CP_EXPR_CASE;
  size_t step = is_case ? 2 : 1, end = is_case ? e->n_args - 1 : e->n_args;
  for (size_t i = 0; i < end; i += step) {
    cp_datum d;
    CP_RETURN_IF_ERROR(arg_value(c, e, i, first, first_known, &d, known, err));
    if (!*known) return PAIMON_OK;
    bool taken = is_case ? (!d.is_null && d.v.b) : !d.is_null;
    if (!taken) continue;
    if (!is_case) {
      *out = d;
      return PAIMON_OK;
    }
    return eval(c, e->args[i + 1], out, known, err);
  }
  if (!is_case) {
    *out = cp_datum_null();
    *known = true;
    return PAIMON_OK;
  }
  return eval(c, e->args[e->n_args - 1], out, known, err);
}

/* Node `e` above its first argument's value. */
static int eval_above(row_ctx *c, const cp_expr *e, const cp_datum *first, bool first_known,
                      cp_datum *out, bool *known, paimon_error *err) {
  switch (e->kind) {
  case CP_EXPR_AND:
  case CP_EXPR_OR: return eval_logic(c, e, first, first_known, out, known, err);
  case CP_EXPR_CASE:
  case CP_EXPR_COALESCE: return eval_ordered(c, e, first, first_known, out, known, err);
  default: break;
  }
  *known = first_known;
  *out = cp_datum_null();
  /* SIZE and ARRAY take or make a nested value, which has no datum form: unknown on one row. */
  if (e->kind == CP_EXPR_FUNC &&
      (e->op == CP_FUNC_SIZE || e->op == CP_FUNC_ARRAY || e->op >= CP_FUNC_GET_FIELD))
    *known = false;
  if (!*known) return PAIMON_OK;
  cp_datum stack[8];
  cp_datum *args = e->n_args <= 8 ? stack : malloc(e->n_args * sizeof *args);
  if (!args) return CP_ENOMEM(err, "argument values");
  args[0] = *first;
  int rc = 0;
  for (size_t i = 1; i < e->n_args && rc == 0 && *known; i++)
    rc = eval(c, e->args[i], &args[i], known, err);
  if (rc == 0 && *known) rc = cp_scalar_eval(e, args, c->arena, out, err);
  if (rc == 0 && !*known) *out = cp_datum_null();
  if (args != stack) free(args);
  return rc;
}

static int eval_leaf(row_ctx *c, const cp_expr *e, cp_datum *out, bool *known, paimon_error *err) {
  *known = true;
  if (e->kind == CP_EXPR_LITERAL) {
    *out = e->value;
    return PAIMON_OK;
  }
  if (e->kind != CP_EXPR_COLUMN)
    return paimon_error_set(err, PAIMON_EINVAL, "expression kind %d has no arguments", e->kind);
  if (!c->row || (c->present && !c->present[e->column])) {
    *known = false;
    *out = cp_datum_null();
    return PAIMON_OK;
  }
  *out = c->row[e->column];
  return PAIMON_OK;
}

/* The chain of first arguments bottom up with a loop (expr.h, "Depth"). */
static int eval(row_ctx *c, const cp_expr *e, cp_datum *out, bool *known, paimon_error *err) {
  if (c->depth >= 2 * CP_EXPR_MAX_DEPTH + 16)
    return paimon_error_set(err, PAIMON_EINVAL, "expression nested too deeply to evaluate");
  cp_chain s;
  CP_RETURN_IF_ERROR(cp_expr_spine(&s, e, err));
  c->depth++;
  size_t k = s.n - 1;
  int rc = eval_leaf(c, cp_spine_node(&s, k), out, known, err);
  while (rc == 0 && k-- > 0) {
    cp_datum first = *out;
    bool first_known = *known;
    rc = eval_above(c, cp_spine_node(&s, k), &first, first_known, out, known, err);
  }
  c->depth--;
  cp_chain_free(&s);
  return rc;
}

int cp_expr_eval_row_value(const cp_expr *e, const cp_datum *row, const bool *present,
                           cp_arena *arena, cp_datum *out, bool *known, paimon_error *err) {
  if (!e->bound) return paimon_error_set(err, PAIMON_ESTATE, "expression is not bound");
  row_ctx c = {row, present, arena, 0};
  return eval(&c, e, out, known, err);
}

int cp_expr_eval_row(const cp_expr *e, const cp_datum *row, const bool *present, cp_truth *out,
                     paimon_error *err) {
  if (!e->bound || !e->type || e->type->kind != CP_TYPE_BOOLEAN)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "cp_expr_eval_row needs a bound BOOLEAN expression");
  cp_arena arena = CP_ARENA_INIT;
  cp_datum d;
  bool known;
  int rc = cp_expr_eval_row_value(e, row, present, &arena, &d, &known, err);
  if (rc == 0) *out = !known ? CP_UNKNOWN : d.is_null ? CP_NULL : d.v.b ? CP_TRUE : CP_FALSE;
  cp_arena_free(&arena);
  return rc;
}
