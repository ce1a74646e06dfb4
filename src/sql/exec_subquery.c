/*
 * Subquery expressions (exec.h): `(SELECT ...)`, `EXISTS (SELECT ...)`, `x [NOT] IN (SELECT ...)`
 * in any expression of a statement. A subquery is uncorrelated — it sees only its own FROM, as
 * its own statement would — so it runs once, the first time the binder meets it, and its rows
 * are kept for the rest of the statement (a CTE or a MERGE clause may bind the same node again).
 * The binder turns the rows into constants (bind_expr.c): the value, whether there is a row, or
 * the distinct values as an IN list.
 *
 * The statement being executed is per thread (cp_sql_execute brackets it): the binder has no
 * executor to hand, and one session runs one statement at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/bitmap.h"
#include "base/status.h"
#include "sql/bind.h"
#include "sql/exec.h"

struct cp_sql_subq_entry {
  const cp_sql_expr *node;
  cp_rel rows;
  bool correlated; /* it failed to resolve a name: rows is empty, the error is `message` */
  char message[PAIMON_ERROR_MESSAGE_SIZE];
};
typedef struct cp_sql_subq_entry subq_entry;

static _Thread_local cp_sql_subq_ctx *current;

void cp_sql_subq_begin(cp_sql_subq_ctx *c, cp_sql_session *s) {
  memset(c, 0, sizeof *c);
  c->session = s;
  c->outer = current;
  current = c;
}

void cp_sql_subq_end(cp_sql_subq_ctx *c) {
  for (size_t i = 0; i < c->n; i++) cp_rel_free(&c->entries[i].rows);
  free(c->entries);
  current = c->outer;
  memset(c, 0, sizeof *c);
}

/* An unresolved name inside the subquery is, in Spark, most often a column of the outer query:
 * say that correlation is what is not supported. */
static int correlated_error(const cp_sql_expr *e, int rc, paimon_error *err) {
  if (!err || !strstr(err->message, "cannot be resolved")) return rc;
  char original[PAIMON_ERROR_MESSAGE_SIZE];
  snprintf(original, sizeof original, "%s", err->message);
  return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos,
                         "not supported: correlated subqueries (a subquery sees only its own "
                         "FROM; a column of the outer query is not visible in it): %s",
                         original);
}

int cp_sql_subquery_rows(const cp_sql_expr *e, const cp_rel **out, paimon_error *err) {
  *out = NULL;
  cp_sql_subq_ctx *c = current;
  if (!c)
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos,
                           "not supported: a subquery outside of a statement");
  for (size_t i = 0; i < c->n; i++)
    if (c->entries[i].node == e) {
      if (c->entries[i].correlated)
        return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s", c->entries[i].message);
      *out = &c->entries[i].rows;
      return PAIMON_OK;
    }
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 4;
    subq_entry *grown = realloc(c->entries, cap * sizeof *grown);
    if (!grown) return CP_ENOMEM(err, "subquery");
    c->entries = grown;
    c->cap = cap;
  }
  cp_sql_stmt stmt;
  memset(&stmt, 0, sizeof stmt);
  stmt.kind = CP_SQL_S_SELECT;
  stmt.query = e->query;
  cp_sql_exec x;
  CP_RETURN_IF_ERROR(cp_sql_exec_init(&x, c->session, &stmt, err));
  cp_rel rows;
  memset(&rows, 0, sizeof rows);
  bool ordered = false;
  int rc = cp_sql_run_query(&x, e->query, &rows, &ordered, err);
  cp_sql_exec_free(&x);
  subq_entry *entry = &c->entries[c->n];
  memset(entry, 0, sizeof *entry);
  entry->node = e;
  if (rc) {
    rc = correlated_error(e, rc, err);
    if (rc != PAIMON_EUNSUPPORTED) return rc;
    /* Remembered, so that the scan's filter pushdown and the WHERE clause ask only once. */
    entry->correlated = true;
    snprintf(entry->message, sizeof entry->message, "%s", err->message);
    c->n++;
    return rc;
  }
  entry->rows = rows;
  *out = &entry->rows;
  c->n++;
  return PAIMON_OK;
}

bool cp_sql_subquery_is_correlated(const cp_sql_expr *e) {
  if (!current) return false;
  for (size_t i = 0; i < current->n; i++)
    if (current->entries[i].node == e) return current->entries[i].correlated;
  return false;
}

/* ---- correlated EXISTS / IN in WHERE: semi and anti joins ----------------------------------- */

/* The conjuncts of an AND chain (ast.h: left-deep down args[0]), malloc'd. */
static int conjuncts(const cp_sql_expr *e, const cp_sql_expr ***out, size_t *n, paimon_error *err) {
  *out = NULL;
  *n = 0;
  cp_chain ands;
  CP_RETURN_IF_ERROR(cp_sql_expr_spine(&ands, e, err));
  const cp_sql_expr **v = calloc(ands.n + 1, sizeof *v);
  if (!v) {
    cp_chain_free(&ands);
    return CP_ENOMEM(err, "WHERE");
  }
  size_t k = 0;
  for (size_t i = 0; i < ands.n; i++) {
    const cp_sql_expr *node = ands.nodes[i];
    bool is_and = node->kind == CP_SQL_E_BINARY && node->op == CP_SQL_OP_AND;
    if (is_and) v[k++] = node->args[1];
    if (!is_and) {
      v[k++] = node;
      break;
    }
  }
  cp_chain_free(&ands);
  *out = v;
  *n = k;
  return PAIMON_OK;
}

/* A conjunct `[NOT] EXISTS (q)` or `[NOT] x [NOT] IN (q)`: the subquery node, and whether the
 * whole conjunct is negated. */
static const cp_sql_expr *subquery_predicate(const cp_sql_expr *e, bool *negated) {
  *negated = false;
  while (e->kind == CP_SQL_E_UNARY && e->op == CP_SQL_OP_NOT) {
    *negated = !*negated;
    e = e->args[0];
  }
  if (e->kind != CP_SQL_E_SUBQUERY || e->subquery == CP_SQL_SUBQ_SCALAR) return NULL;
  if (e->negated) *negated = !*negated;
  return e;
}

/* A node of a temporary AST (the binder only reads it). */
static cp_sql_expr *node2(cp_sql_expr_kind kind, cp_sql_op op, cp_sql_expr *a, cp_sql_expr *b,
                          cp_sql_pos pos) {
  cp_sql_expr *e = calloc(1, sizeof *e);
  cp_sql_expr **args = calloc(2, sizeof *args);
  if (!e || !args) {
    free(e);
    free(args);
    return NULL;
  }
  e->kind = kind;
  e->op = op;
  e->pos = pos;
  e->args = args;
  args[0] = a;
  args[1] = b;
  e->n_args = b ? 2 : 1;
  return e;
}

static void free_nodes(cp_sql_expr **nodes, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (nodes[i]) free(nodes[i]->args), free(nodes[i]);
}

/* The rows of `r` with (or, `anti`, without) a row of the subquery `sub` that its
 * correlated conditions (and, for IN, `x = y`; for NOT IN `(x = y) IS NOT FALSE`, Spark's
 * null-aware rule) pair them with. */
static int semi_join(const cp_sql_expr *sub, bool anti, const cp_rel *r, cp_rel *out,
                     paimon_error *err) {
  memset(out, 0, sizeof *out);
  const cp_sql_query *q = sub->query;
  if (q->set_op != CP_SQL_SET_NONE || q->n_group_by || q->having || q->limit || !q->from ||
      (sub->subquery == CP_SQL_SUBQ_IN && q->n_items != 1))
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, sub->pos,
                           "not supported: a correlated subquery with GROUP BY, HAVING, LIMIT, a "
                           "set operation or (for IN) more than one column");
  for (size_t i = 0; i < q->n_items; i++)
    if (cp_sql_has_aggregate(q->items[i].expr))
      return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, sub->pos,
                             "not supported: a correlated subquery with aggregates");
  cp_sql_subq_ctx *c = current;
  cp_sql_stmt stmt;
  memset(&stmt, 0, sizeof stmt);
  stmt.kind = CP_SQL_S_SELECT;
  stmt.query = (cp_sql_query *)q;
  cp_sql_exec x;
  CP_RETURN_IF_ERROR(cp_sql_exec_init(&x, c->session, &stmt, err));
  cp_rel inner;
  memset(&inner, 0, sizeof inner);
  int rc = cp_sql_run_from(&x, q->from, &inner, err);
  cp_sql_exec_free(&x);
  CP_RETURN_IF_ERROR(rc);

  const cp_sql_expr **conj = NULL;
  size_t n_conj = 0;
  cp_sql_scope in_scope, both;
  memset(&in_scope, 0, sizeof in_scope);
  memset(&both, 0, sizeof both);
  cp_rel_col *cols = calloc(r->n_cols + inner.n_cols + 1, sizeof *cols);
  /* temporary AST nodes: at most one AND per correlated conjunct, plus IN's two */
  cp_sql_expr **tmp = NULL;
  size_t n_tmp = 0;
  cp_sql_expr *cond = NULL;
  rc = cols ? PAIMON_OK : CP_ENOMEM(err, "subquery");
  if (!rc && q->where) rc = conjuncts(q->where, &conj, &n_conj, err);
  if (!rc) tmp = calloc(n_conj + 4, sizeof *tmp), rc = tmp ? PAIMON_OK : CP_ENOMEM(err, "subquery");
  if (!rc) rc = cp_sql_scope_init(&in_scope, inner.cols, inner.n_cols, "WHERE", err);
  /* The inner query's own conditions filter it first; those naming outer columns join. */
  for (size_t i = 0; !rc && i < n_conj; i++) {
    cp_expr *pred = NULL;
    paimon_error local;
    if (cp_sql_bind_predicate(&in_scope, conj[i], &pred, &local) == 0) {
      cp_rel kept;
      rc = cp_sql_filter(&inner, pred, &kept, err);
      cp_expr_free(pred);
      if (!rc) {
        cp_sql_scope_free(&in_scope);
        cp_rel_free(&inner);
        inner = kept;
        rc = cp_sql_scope_init(&in_scope, inner.cols, inner.n_cols, "WHERE", err);
      }
      continue;
    }
    cp_sql_expr *c2 = (cp_sql_expr *)conj[i];
    if (cond) {
      c2 = node2(CP_SQL_E_BINARY, CP_SQL_OP_AND, cond, c2, conj[i]->pos);
      if (!c2) rc = CP_ENOMEM(err, "subquery");
      tmp[n_tmp++] = c2;
    }
    cond = c2;
  }
  if (!rc && sub->subquery == CP_SQL_SUBQ_IN) {
    cp_sql_expr *eq =
        node2(CP_SQL_E_BINARY, CP_SQL_OP_EQ, sub->args[0], q->items[0].expr, sub->pos);
    tmp[n_tmp++] = eq;
    cp_sql_expr *m = eq;
    if (eq && anti) {
      /* (x = y) IS NOT FALSE: NOT IN fails on a NULL comparison too. */
      m = node2(CP_SQL_E_IS_BOOL, CP_SQL_OP_NONE, eq, NULL, sub->pos);
      if (m) m->negated = true, m->bool_value = false;
      tmp[n_tmp++] = m;
    }
    if (m && cond) {
      m = node2(CP_SQL_E_BINARY, CP_SQL_OP_AND, cond, m, sub->pos);
      tmp[n_tmp++] = m;
    }
    cond = m;
    if (!m) rc = CP_ENOMEM(err, "subquery");
  }
  cp_expr *on = NULL;
  if (!rc) {
    memcpy(cols, r->cols, r->n_cols * sizeof *cols);
    memcpy(cols + r->n_cols, inner.cols, inner.n_cols * sizeof *cols);
    rc = cp_sql_scope_init(&both, cols, r->n_cols + inner.n_cols, "WHERE", err);
  }
  if (!rc && cond) rc = cp_sql_bind_predicate(&both, cond, &on, err);
  cp_sql_pairs pairs;
  memset(&pairs, 0, sizeof pairs);
  if (!rc) rc = cp_sql_join_pairs(r, &inner, on, false, false, &pairs, err);
  int64_t rows = cp_rel_rows(r);
  uint8_t *bits = NULL;
  if (!rc) {
    bits = calloc((size_t)cp_bitmap_bytes(rows) + 1, 1);
    if (!bits) rc = CP_ENOMEM(err, "subquery");
  }
  if (!rc) {
    for (int64_t i = 0; i < pairs.n; i++) cp_bit_set(bits, pairs.left[i]);
    if (anti)
      for (int64_t i = 0; i < cp_bitmap_bytes(rows); i++) bits[i] = (uint8_t)~bits[i];
    rc = cp_rel_filter(r, bits, out, err);
  }
  free(bits);
  cp_sql_pairs_free(&pairs);
  cp_expr_free(on);
  cp_sql_scope_free(&both);
  cp_sql_scope_free(&in_scope);
  free_nodes(tmp, n_tmp);
  free(tmp);
  free(conj);
  free(cols);
  cp_rel_free(&inner);
  return rc;
}

int cp_sql_filter_where(const cp_rel *in, const cp_sql_scope *scope, const cp_sql_expr *where,
                        cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  const cp_sql_expr **conj = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(conjuncts(where, &conj, &n, err));
  /* Which conjuncts are correlated subquery predicates (asking runs the uncorrelated ones). */
  bool *correlated = calloc(n + 1, sizeof *correlated);
  size_t n_corr = 0;
  int rc = correlated ? PAIMON_OK : CP_ENOMEM(err, "WHERE");
  for (size_t i = 0; !rc && i < n; i++) {
    bool neg;
    const cp_sql_expr *sub = subquery_predicate(conj[i], &neg);
    const cp_rel *ignored_rows;
    paimon_error ignored;
    if (!sub || cp_sql_subquery_rows(sub, &ignored_rows, &ignored) == 0) continue;
    if (!cp_sql_subquery_is_correlated(sub)) {
      *err = ignored;
      rc = ignored.code;
      break;
    }
    correlated[i] = true;
    n_corr++;
  }
  if (!rc && n_corr == 0) {
    /* The usual case: one condition, one pass. */
    free(correlated);
    free(conj);
    cp_expr *pred = NULL;
    CP_RETURN_IF_ERROR(cp_sql_bind_predicate(scope, where, &pred, err));
    int frc = cp_sql_filter(in, pred, out, err);
    cp_expr_free(pred);
    return frc;
  }
  /* Each conjunct filters what the previous ones kept (`src`: `in`, then `cur`). */
  cp_rel cur;
  memset(&cur, 0, sizeof cur);
  const cp_rel *src = in;
  for (size_t i = 0; !rc && i < n; i++) {
    cp_rel kept;
    memset(&kept, 0, sizeof kept);
    if (correlated[i]) {
      bool neg;
      const cp_sql_expr *sub = subquery_predicate(conj[i], &neg);
      rc = semi_join(sub, neg, src, &kept, err);
    } else {
      cp_sql_scope sc;
      memset(&sc, 0, sizeof sc);
      cp_expr *pred = NULL;
      /* the same clause name as the caller's scope, for messages */
      rc = cp_sql_scope_init(&sc, src->cols, src->n_cols, scope->clause, err);
      if (!rc) rc = cp_sql_bind_predicate(&sc, conj[i], &pred, err);
      if (!rc) rc = cp_sql_filter(src, pred, &kept, err);
      cp_expr_free(pred);
      cp_sql_scope_free(&sc);
    }
    if (!rc) {
      cp_rel_free(&cur);
      cur = kept;
      src = &cur;
    }
  }
  free(correlated);
  free(conj);
  if (rc) {
    cp_rel_free(&cur);
    return rc;
  }
  *out = cur;
  return PAIMON_OK;
}
