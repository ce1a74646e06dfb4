/*
 * Statistics-based pruning (expr.h: cp_expr_may_match): decides from per-column min / max / null
 * counts (Paimon's SimpleStats of a data file or the partition statistics of a manifest,
 * spec/format.md §4.5 and §5.6) whether a predicate can select any row of the unit. Bounds may be
 * loose (Java's default truncate(16) mode stores a truncated min and an incremented truncated max)
 * or missing (null min/max, unknown null counts): both only make pruning less eager.
 *
 * Each node is mapped to the set of truth values it can take on some row of the unit: may it be
 * TRUE, FALSE, NULL? Leaves (a column, possibly under order-preserving casts, compared with
 * constants) derive the set from the statistics; AND / OR / NOT combine the sets; anything not
 * understood can be all three. The unit is skipped only when TRUE is impossible, so a unit that
 * holds a matching row is never skipped (the unit tests check this against evaluation on random
 * data).
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr_internal.h"
#include "expr/like.h"

typedef struct outcomes {
  bool t, f, n; /* may be TRUE, FALSE, NULL */
} outcomes;

static const outcomes ANY = {true, true, true};

typedef struct prune_ctx {
  cp_expr_stats_fn get_stats;
  void *ctx;
  cp_arena arena; /* constants and cast bounds */
} prune_ctx;

/* What is known about the values of a column-like operand. */
typedef struct operand_stats {
  const cp_type *type; /* of the operand (after casts) */
  cp_col_stats s;
} operand_stats;

static int analyze(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err);

/* Statistics of the column `e` cast to type `to` from `from`. */
static void cast_stats(prune_ctx *p, const cp_type *from, const cp_type *to, operand_stats *os) {
  cp_col_stats *s = &os->s;
  cp_datum lo = s->min, hi = s->max;
  /* A bound that does not convert (e.g. overflows the target) is dropped, not trusted. */
  if (s->has_min && (cp_cast_datum(from, &lo, to, &p->arena, &s->min, NULL) != 0 || s->min.is_null))
    s->has_min = false;
  if (s->has_max && (cp_cast_datum(from, &hi, to, &p->arena, &s->max, NULL) != 0 || s->max.is_null))
    s->has_max = false;
  os->type = to;
  s->null_count = -1; /* a cast may turn values into NULL */
}

/* A column under zero or more order-preserving casts: fills *os with its statistics, cast like
 * the values. Returns 1 when `e` is not of that shape. */
static int column_stats(prune_ctx *p, const cp_expr *e, operand_stats *os, paimon_error *err) {
  cp_chain chain;
  CP_RETURN_IF_ERROR(cp_expr_spine(&chain, e, err));
  size_t k = chain.n - 1;
  const cp_expr *col = cp_spine_node(&chain, k);
  int rc = col->kind == CP_EXPR_COLUMN ? 0 : 1;
  for (size_t i = 0; rc == 0 && i < k; i++)
    if (cp_spine_node(&chain, i)->kind != CP_EXPR_CAST ||
        !cp_cast_is_monotonic(cp_spine_node(&chain, i + 1)->type, cp_spine_node(&chain, i)->type))
      rc = 1;
  if (rc != 0) {
    cp_chain_free(&chain);
    return rc;
  }
  cp_col_stats *s = &os->s;
  memset(s, 0, sizeof *s);
  s->null_count = s->row_count = -1;
  rc = p->get_stats(p->ctx, col->column, s, err);
  if (rc == 0) {
    if (s->has_min && s->min.is_null) s->has_min = false;
    if (s->has_max && s->max.is_null) s->has_max = false;
    /* NaN rows may sit above a floating-point max (Parquet statistics leave NaN out). */
    if (col->type->kind == CP_TYPE_FLOAT || col->type->kind == CP_TYPE_DOUBLE) s->has_max = false;
    os->type = col->type;
    while (k-- > 0)
      cast_stats(p, cp_spine_node(&chain, k + 1)->type, cp_spine_node(&chain, k)->type, os);
  }
  cp_chain_free(&chain);
  return rc;
}

/* Evaluates a constant subexpression. */
static int constant(prune_ctx *p, const cp_expr *e, cp_datum *out, paimon_error *err) {
  bool known;
  CP_RETURN_IF_ERROR(cp_expr_eval_row_value(e, NULL, NULL, &p->arena, out, &known, err));
  return known ? 0 : 1;
}

static bool all_null(const cp_col_stats *s) {
  return s->null_count >= 0 && s->row_count >= 0 && s->null_count == s->row_count;
}

static bool some_null(const cp_col_stats *s) { return s->null_count != 0; }

static outcomes compare_outcomes(int op, const operand_stats *os, const cp_datum *k) {
  const cp_col_stats *s = &os->s;
  outcomes r = {false, false, false};
  if (s->row_count == 0) return r;
  bool null_safe = op == CP_CMP_EQ_NULL_SAFE;
  if (k->is_null) {
    if (!null_safe) return r.n = true, r;
    r.t = some_null(s);
    r.f = !all_null(s);
    return r;
  }
  if (null_safe)
    r.f = some_null(s), op = CP_CMP_EQ;
  else
    r.n = some_null(s);
  if (all_null(s)) return r;
  int lo = s->has_min ? cp_value_compare(os->type, &s->min, k) : -2; /* -2: unknown */
  int hi = s->has_max ? cp_value_compare(os->type, &s->max, k) : 2;
  bool single = s->has_min && s->has_max && lo == 0 && hi == 0;
  bool t = true, f = true;
  switch (op) {
  case CP_CMP_EQ:
    t = lo <= 0 && hi >= 0;
    f = !single;
    break;
  case CP_CMP_NE:
    t = !single;
    f = lo <= 0 && hi >= 0;
    break;
  case CP_CMP_LT:
    t = lo < 0;
    f = hi >= 0;
    break;
  case CP_CMP_LE:
    t = lo <= 0;
    f = hi > 0;
    break;
  case CP_CMP_GT:
    t = hi > 0;
    f = lo <= 0;
    break;
  default:
    t = hi >= 0;
    f = lo < 0;
    break;
  }
  r.t = t;
  r.f = r.f || f;
  return r;
}

static int flip(int op) {
  switch (op) {
  case CP_CMP_LT: return CP_CMP_GT;
  case CP_CMP_LE: return CP_CMP_GE;
  case CP_CMP_GT: return CP_CMP_LT;
  case CP_CMP_GE: return CP_CMP_LE;
  default: return op;
  }
}

static int compare_leaf(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  *out = ANY;
  int side = cp_expr_is_constant(e->args[1]) ? 0 : cp_expr_is_constant(e->args[0]) ? 1 : -1;
  if (side < 0) return PAIMON_OK;
  operand_stats os;
  int rc = column_stats(p, e->args[side], &os, err);
  if (rc != 0) return rc < 0 ? rc : 0;
  cp_datum k;
  rc = constant(p, e->args[1 - side], &k, err);
  if (rc != 0) return rc < 0 ? rc : 0;
  *out = compare_outcomes(side == 0 ? e->op : flip(e->op), &os, &k);
  return PAIMON_OK;
}

static int in_leaf(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  *out = ANY;
  for (size_t i = 1; i < e->n_args; i++)
    if (!cp_expr_is_constant(e->args[i])) return PAIMON_OK;
  operand_stats os;
  int rc = column_stats(p, e->args[0], &os, err);
  if (rc != 0) return rc < 0 ? rc : 0;
  const cp_col_stats *s = &os.s;
  outcomes r = {false, false, false};
  if (s->row_count == 0) {
    *out = r;
    return PAIMON_OK;
  }
  bool list_null = false, single_hit = false;
  r.n = some_null(s);
  for (size_t i = 1; i < e->n_args; i++) {
    cp_datum k;
    rc = constant(p, e->args[i], &k, err);
    if (rc != 0) return rc < 0 ? rc : 0;
    if (k.is_null) {
      list_null = true;
      continue;
    }
    outcomes eq = compare_outcomes(CP_CMP_EQ, &os, &k);
    r.t = r.t || eq.t;
    single_hit = single_hit || !eq.f;
  }
  if (!all_null(s)) {
    /* No match on a row: FALSE, or NULL when the list holds a NULL. */
    bool miss = !single_hit;
    r.f = miss && !list_null;
    r.n = r.n || (miss && list_null);
  }
  *out = r;
  return PAIMON_OK;
}

/* STARTS WITH / LIKE 'prefix%' / LIKE 'exact' on a string column: TRUE needs a value in
 * [prefix, prefix + 0xFF...], i.e. max >= prefix and min's first |prefix| bytes <= prefix. */
static int like_leaf(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  *out = ANY;
  const cp_like_pattern *lp = e->like;
  if (!lp ||
      (lp->match != CP_MATCH_PREFIX && lp->match != CP_MATCH_EXACT && lp->match != CP_MATCH_ALL))
    return PAIMON_OK;
  operand_stats os;
  int rc = column_stats(p, e->args[0], &os, err);
  if (rc != 0) return rc < 0 ? rc : 0;
  if (!cp_type_is_string(os.type)) return PAIMON_OK;
  const cp_col_stats *s = &os.s;
  outcomes r = {false, true, some_null(s)};
  if (s->row_count == 0 || all_null(s)) {
    r.f = false;
    r.n = s->row_count != 0;
    *out = r;
    return PAIMON_OK;
  }
  r.t = true;
  if (lp->match != CP_MATCH_ALL) {
    const uint8_t *pre = lp->text;
    size_t n = lp->text_len;
    if (s->has_max) {
      cp_datum k = cp_datum_bytes(pre, n);
      if (cp_value_compare(os.type, &s->max, &k) < 0) r.t = false;
    }
    if (s->has_min) {
      size_t m = s->min.v.bytes.len < n ? s->min.v.bytes.len : n;
      cp_datum head = cp_datum_bytes(s->min.v.bytes.data, m), k = cp_datum_bytes(pre, n);
      if (cp_value_compare(os.type, &head, &k) > 0) r.t = false;
    }
  }
  *out = r;
  return PAIMON_OK;
}

static int is_null_leaf(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  *out = ANY;
  if (e->args[0]->kind != CP_EXPR_COLUMN) {
    out->n = false;
    return PAIMON_OK;
  }
  operand_stats os;
  CP_RETURN_IF_ERROR(column_stats(p, e->args[0], &os, err));
  const cp_col_stats *s = &os.s;
  bool has_null = some_null(s) && s->row_count != 0;
  bool has_value = !all_null(s) && s->row_count != 0;
  out->t = e->negated ? has_value : has_null;
  out->f = e->negated ? has_null : has_value;
  out->n = false;
  return PAIMON_OK;
}

/* AND / OR over the outcomes of their operands; the first operand's outcomes are given. */
static int combine(prune_ctx *p, const cp_expr *e, outcomes first, outcomes *out,
                   paimon_error *err) {
  bool is_and = e->kind == CP_EXPR_AND;
  /* AND: TRUE needs every operand TRUE; FALSE needs one FALSE; NULL needs one NULL and the rest
   * TRUE or NULL. OR mirrors it. */
  outcomes r = {true, !is_and, true};
  bool any_null = false, any_dominant = false;
  for (size_t i = 0; i < e->n_args; i++) {
    outcomes c = first;
    if (i > 0) CP_RETURN_IF_ERROR(analyze(p, e->args[i], &c, err));
    bool dom = is_and ? c.f : c.t, other = is_and ? c.t : c.f;
    if (is_and)
      r.t = r.t && c.t;
    else
      r.f = r.f && c.f;
    any_dominant = any_dominant || dom;
    any_null = any_null || c.n;
    r.n = r.n && (other || c.n);
  }
  if (is_and)
    r.f = any_dominant;
  else
    r.t = any_dominant;
  r.n = r.n && any_null;
  *out = r;
  return PAIMON_OK;
}

/* A predicate that is not AND, OR or NOT. */
static int analyze_leaf(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  if (cp_expr_is_constant(e)) {
    cp_datum d;
    int rc = constant(p, e, &d, err);
    if (rc < 0) return rc;
    *out = rc != 0     ? ANY
           : d.is_null ? (outcomes){false, false, true}
                       : (outcomes){d.v.b, !d.v.b, false};
    return PAIMON_OK;
  }
  switch (e->kind) {
  case CP_EXPR_COMPARE: return compare_leaf(p, e, out, err);
  case CP_EXPR_IN: return in_leaf(p, e, out, err);
  case CP_EXPR_LIKE: return like_leaf(p, e, out, err);
  case CP_EXPR_IS_NULL: return is_null_leaf(p, e, out, err);
  default: *out = ANY; return PAIMON_OK;
  }
}

static bool is_logic(const cp_expr *e) {
  return e->kind == CP_EXPR_AND || e->kind == CP_EXPR_OR || e->kind == CP_EXPR_NOT;
}

/* The AND / OR / NOT nodes down first operands with a loop (expr.h, "Depth"), from the predicate
 * below them up; their other operands recurse. A constant part is evaluated where it starts,
 * and AND / OR / NOT above it combine its single outcome exactly. */
static int analyze(prune_ctx *p, const cp_expr *e, outcomes *out, paimon_error *err) {
  cp_chain logic;
  cp_chain_init(&logic);
  int rc = PAIMON_OK;
  for (; !rc && is_logic(e); e = e->args[0]) rc = cp_chain_push(&logic, e, err);
  outcomes c = ANY;
  if (!rc) rc = analyze_leaf(p, e, &c, err);
  for (size_t i = logic.n; !rc && i-- > 0;) {
    const cp_expr *node = logic.nodes[i];
    if (node->kind == CP_EXPR_NOT)
      c = (outcomes){c.f, c.t, c.n};
    else
      rc = combine(p, node, c, &c, err);
  }
  cp_chain_free(&logic);
  if (!rc) *out = c;
  return rc;
}

int cp_expr_may_match(const cp_expr *e, cp_expr_stats_fn get_stats, void *ctx, bool *out,
                      paimon_error *err) {
  *out = true;
  if (!e->bound || !e->type || e->type->kind != CP_TYPE_BOOLEAN)
    return paimon_error_set(err, PAIMON_EINVAL, "pruning needs a bound BOOLEAN predicate");
  prune_ctx p = {get_stats, ctx, CP_ARENA_INIT};
  outcomes r;
  int rc = analyze(&p, e, &r, err);
  cp_arena_free(&p.arena);
  if (rc == 0) *out = r.t;
  return rc;
}
