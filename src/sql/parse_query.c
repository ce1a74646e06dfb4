/*
 * SELECT grammar of the SQL parser (parser.h), after Spark's querySpecification / fromClause /
 * relation / joinRelation rules:
 *
 *   SELECT [DISTINCT | ALL] item, ... [FROM relation, ...] [WHERE e] [GROUP BY e, ...]
 *     [HAVING e] [ORDER BY e [ASC | DESC] [NULLS FIRST | LAST], ...] [LIMIT e]
 *   relation := primary ([INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN primary ON e
 *               | CROSS JOIN primary)*
 *   primary  := name [[FOR] (VERSION | SYSTEM_VERSION) AS OF n] [[AS] alias]
 *             | '(' query ')' [[AS] alias]
 *
 * A comma between relations is a cross join, as in Spark.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "sql/parser_internal.h"

int cp_ps_opt_alias(cp_sql_parser *p, const char **out, paimon_error *err) {
  *out = NULL;
  if (cp_ps_accept_kw(p, "as")) return cp_ps_ident(p, out, NULL, err);
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind == CP_TOK_QIDENT || (t->kind == CP_TOK_IDENT && !cp_ps_reserved(t)))
    return cp_ps_ident(p, out, NULL, err);
  return PAIMON_OK;
}

/* [FOR] (VERSION | SYSTEM_VERSION) AS OF <integer>: 1 when parsed, 0 when absent. */
static int time_travel(cp_sql_parser *p, cp_sql_from *f, paimon_error *err) {
  size_t k = cp_ps_kw(p, "for") ? 1 : 0;
  bool version = cp_ps_kw_at(p, k, "version") || cp_ps_kw_at(p, k, "system_version");
  bool timestamp = cp_ps_kw_at(p, k, "timestamp") || cp_ps_kw_at(p, k, "system_time");
  if ((!version && !timestamp) || !cp_ps_kw_at(p, k + 1, "as") || !cp_ps_kw_at(p, k + 2, "of"))
    return 0;
  cp_sql_pos pos = cp_ps_pos(p);
  if (timestamp)
    return cp_ps_error_at(p, pos, err,
                          "TIMESTAMP AS OF is not supported; use VERSION AS OF <snapshot id>");
  for (size_t i = 0; i < k + 3; i++) cp_ps_next(p);
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind == CP_TOK_STRING || t->kind == CP_TOK_NUMBER) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(t->text, &end, 10);
    if (t->text_len > 0 && end == t->text + t->text_len && errno == 0 && v > 0) {
      cp_ps_next(p);
      f->has_version = true;
      f->version = v;
      return 1;
    }
    if (t->kind == CP_TOK_STRING)
      return cp_ps_error_at(
          p, pos, err, "VERSION AS OF '%s': tags are not supported; give a snapshot id", t->text);
  }
  return cp_ps_error(p, "a snapshot id (a positive integer)", err);
}

int cp_ps_table_primary(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  cp_sql_from *f = cp_ps_alloc(p, sizeof *f, err);
  if (!f) return PAIMON_ENOMEM;
  f->pos = cp_ps_pos(p);
  *out = f;
  if (cp_ps_is(p, CP_TOK_LPAREN)) {
    if (!cp_ps_kw_at(p, 1, "select") && !cp_ps_is(p, CP_TOK_LPAREN))
      return cp_ps_error_at(p, f->pos, err, "expected a subquery after '('");
    cp_ps_next(p);
    f->kind = CP_SQL_FROM_SUBQUERY;
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    int rc = cp_ps_query(p, &f->query, err);
    cp_ps_leave(p);
    CP_RETURN_IF_ERROR(rc);
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
    return cp_ps_opt_alias(p, &f->alias, err);
  }
  f->kind = CP_SQL_FROM_TABLE;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &f->table, err));
  int rc = time_travel(p, f, err);
  if (rc < 0) return rc;
  return cp_ps_opt_alias(p, &f->alias, err);
}

/* A join keyword sequence at the next token: 1 and *kind when present. */
static int join_keyword(cp_sql_parser *p, cp_sql_join_kind *kind, paimon_error *err) {
  static const struct {
    const char *word;
    cp_sql_join_kind kind;
  } kinds[] = {{"inner", CP_SQL_JOIN_INNER},
               {"left", CP_SQL_JOIN_LEFT},
               {"right", CP_SQL_JOIN_RIGHT},
               {"full", CP_SQL_JOIN_FULL},
               {"cross", CP_SQL_JOIN_CROSS}};
  if (cp_ps_accept_kw(p, "join")) {
    *kind = CP_SQL_JOIN_INNER;
    return 1;
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    if (!cp_ps_kw(p, kinds[i].word)) continue;
    if (cp_ps_kw_at(p, 1, "semi") || cp_ps_kw_at(p, 1, "anti"))
      return cp_ps_error_at(p, cp_ps_pos(p), err, "SEMI and ANTI joins are not supported");
    cp_ps_next(p);
    if (kinds[i].kind != CP_SQL_JOIN_INNER && kinds[i].kind != CP_SQL_JOIN_CROSS)
      cp_ps_accept_kw(p, "outer");
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "join", err));
    *kind = kinds[i].kind;
    return 1;
  }
  if (cp_ps_kw(p, "natural"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "NATURAL joins are not supported");
  return 0;
}

static int relation(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_table_primary(p, out, err));
  for (;;) {
    cp_sql_pos pos = cp_ps_pos(p);
    cp_sql_join_kind kind = CP_SQL_JOIN_INNER;
    int rc = join_keyword(p, &kind, err);
    if (rc <= 0) return rc;
    cp_sql_from *j = cp_ps_alloc(p, sizeof *j, err);
    if (!j) return PAIMON_ENOMEM;
    j->kind = CP_SQL_FROM_JOIN;
    j->pos = pos;
    j->join = kind;
    j->left = *out;
    CP_RETURN_IF_ERROR(cp_ps_table_primary(p, &j->right, err));
    if (kind != CP_SQL_JOIN_CROSS) {
      if (cp_ps_kw(p, "using"))
        return cp_ps_error_at(p, cp_ps_pos(p), err, "JOIN ... USING is not supported; use ON");
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "on", err));
      CP_RETURN_IF_ERROR(cp_ps_expr(p, &j->on, err));
    }
    *out = j;
  }
}

static int from_clause(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(relation(p, out, err));
  while (cp_ps_is(p, CP_TOK_COMMA)) {
    cp_sql_pos pos = cp_ps_pos(p);
    cp_ps_next(p);
    cp_sql_from *j = cp_ps_alloc(p, sizeof *j, err);
    if (!j) return PAIMON_ENOMEM;
    j->kind = CP_SQL_FROM_JOIN;
    j->pos = pos;
    j->join = CP_SQL_JOIN_CROSS;
    j->left = *out;
    CP_RETURN_IF_ERROR(relation(p, &j->right, err));
    *out = j;
  }
  return PAIMON_OK;
}

static int select_list(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  cp_ps_vec items = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_select_item *it = cp_ps_alloc(p, sizeof *it, err);
    if (!it) {
      rc = PAIMON_ENOMEM;
      break;
    }
    rc = cp_ps_expr(p, &it->expr, err);
    if (!rc && it->expr->kind != CP_SQL_E_STAR) rc = cp_ps_opt_alias(p, &it->alias, err);
    if (!rc) rc = cp_ps_vec_push(&items, it, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  q->n_items = items.n;
  if (!rc) rc = cp_ps_vec_finish(p, &items, sizeof(cp_sql_select_item), (void **)&q->items, err);
  cp_ps_vec_free(&items);
  return rc;
}

static int group_by(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_expr *e = NULL;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&v, e, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  q->n_group_by = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)&q->group_by, err);
  cp_ps_vec_free(&v);
  return rc;
}

static int order_by(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_order_item *it = cp_ps_alloc(p, sizeof *it, err);
    if (!it) {
      rc = PAIMON_ENOMEM;
      break;
    }
    rc = cp_ps_expr(p, &it->expr, err);
    if (rc) break;
    if (cp_ps_accept_kw(p, "desc"))
      it->desc = true;
    else
      cp_ps_accept_kw(p, "asc");
    if (cp_ps_accept_kw(p, "nulls")) {
      if (cp_ps_accept_kw(p, "first"))
        it->nulls = CP_SQL_NULLS_FIRST;
      else if (cp_ps_accept_kw(p, "last"))
        it->nulls = CP_SQL_NULLS_LAST;
      else
        rc = cp_ps_error(p, "FIRST or LAST", err);
    }
    if (!rc) rc = cp_ps_vec_push(&v, it, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  q->n_order_by = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_order_item), (void **)&q->order_by, err);
  cp_ps_vec_free(&v);
  return rc;
}

static int query_body(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  q->pos = cp_ps_pos(p);
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "select", err));
  if (cp_ps_accept_kw(p, "distinct"))
    q->distinct = true;
  else
    cp_ps_accept_kw(p, "all");
  CP_RETURN_IF_ERROR(select_list(p, q, err));
  if (cp_ps_accept_kw(p, "from")) CP_RETURN_IF_ERROR(from_clause(p, &q->from, err));
  if (cp_ps_accept_kw(p, "where")) CP_RETURN_IF_ERROR(cp_ps_expr(p, &q->where, err));
  if (cp_ps_kw(p, "group")) {
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "by", err));
    CP_RETURN_IF_ERROR(group_by(p, q, err));
  }
  if (cp_ps_accept_kw(p, "having")) CP_RETURN_IF_ERROR(cp_ps_expr(p, &q->having, err));
  if (cp_ps_kw(p, "order")) {
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "by", err));
    CP_RETURN_IF_ERROR(order_by(p, q, err));
  }
  if (cp_ps_accept_kw(p, "limit")) CP_RETURN_IF_ERROR(cp_ps_expr(p, &q->limit, err));
  if (cp_ps_kw(p, "union") || cp_ps_kw(p, "except") || cp_ps_kw(p, "intersect"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "UNION, EXCEPT and INTERSECT are not supported");
  return PAIMON_OK;
}

int cp_ps_query(cp_sql_parser *p, cp_sql_query **out, paimon_error *err) {
  if (cp_ps_is(p, CP_TOK_LPAREN)) {
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    int rc = cp_ps_query(p, out, err);
    cp_ps_leave(p);
    CP_RETURN_IF_ERROR(rc);
    return cp_ps_expect(p, CP_TOK_RPAREN, err);
  }
  if (cp_ps_kw(p, "with"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "WITH (common table expressions) is not supported");
  cp_sql_query *q = cp_ps_alloc(p, sizeof *q, err);
  if (!q) return PAIMON_ENOMEM;
  *out = q;
  return query_body(p, q, err);
}
