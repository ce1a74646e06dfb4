/*
 * SELECT grammar of the SQL parser (parser.h), after Spark's querySpecification / fromClause /
 * relation / joinRelation rules:
 *
 *   query    := [WITH name AS '(' query ')', ...] set_expr
 *               [ORDER BY e [ASC | DESC] [NULLS FIRST | LAST], ...] [LIMIT e]
 *   set_expr := set_term ((UNION | EXCEPT | MINUS) [ALL | DISTINCT] set_term)*
 *   set_term := select (INTERSECT [ALL | DISTINCT] select)*      (INTERSECT binds tighter)
 *   select   := SELECT [DISTINCT | ALL] item, ... [FROM relation, ...] [WHERE e]
 *               [GROUP BY e, ...] [HAVING e]
 *             | '(' query ')'
 *   relation := primary ([INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER]] JOIN primary ON e
 *               | CROSS JOIN primary)*
 *   primary  := name [[FOR] (VERSION | SYSTEM_VERSION) AS OF n | 'tag'
 *               | [FOR] (TIMESTAMP | SYSTEM_TIME) AS OF 'ts'] [[AS] alias]
 *             | '(' query ')' [[AS] alias]
 *
 * A comma between relations is a cross join, as in Spark. A one-part table name that a WITH in
 * scope defines becomes that query as a subquery (aliased by the name unless given another), as
 * Spark's CTE substitution does; a CTE is visible to the ones after it and to the query body.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "base/time.h"
#include "table/system_table.h"
#include "sql/parser_internal.h"

int cp_ps_opt_alias(cp_sql_parser *p, const char **out, paimon_error *err) {
  *out = NULL;
  if (cp_ps_accept_kw(p, "as")) return cp_ps_ident(p, out, NULL, err);
  const cp_sql_token *t = cp_ps_peek(p);
  /* SEMI, ANTI, USING and NATURAL are strict non-reserved words in Spark: never an alias
   * without AS. */
  bool strict = cp_sql_tok_is(t, "semi") || cp_sql_tok_is(t, "anti") ||
                cp_sql_tok_is(t, "using") || cp_sql_tok_is(t, "natural");
  if (t->kind == CP_TOK_QIDENT || (t->kind == CP_TOK_IDENT && !cp_ps_reserved(t) && !strict))
    return cp_ps_ident(p, out, NULL, err);
  return PAIMON_OK;
}

/* [FOR] (VERSION | SYSTEM_VERSION) AS OF <integer> | '<tag>', or
 * [FOR] (TIMESTAMP | SYSTEM_TIME) AS OF '<local date-time>': 1 when parsed, 0 when absent. */
static int time_travel(cp_sql_parser *p, cp_sql_from *f, paimon_error *err) {
  size_t k = cp_ps_kw(p, "for") ? 1 : 0;
  bool version = cp_ps_kw_at(p, k, "version") || cp_ps_kw_at(p, k, "system_version");
  bool timestamp = cp_ps_kw_at(p, k, "timestamp") || cp_ps_kw_at(p, k, "system_time");
  if ((!version && !timestamp) || !cp_ps_kw_at(p, k + 1, "as") || !cp_ps_kw_at(p, k + 2, "of"))
    return 0;
  cp_sql_pos pos = cp_ps_pos(p);
  for (size_t i = 0; i < k + 3; i++) cp_ps_next(p);
  const cp_sql_token *t = cp_ps_peek(p);
  if (timestamp) {
    int64_t local;
    if (t->kind != CP_TOK_STRING) return cp_ps_error(p, "a timestamp string", err);
    if (cp_parse_timestamp(t->text, t->text_len, CP_UNIT_MILLI, &local, err) != 0)
      return cp_ps_error_at(p, pos, err, "TIMESTAMP AS OF '%s': not a timestamp", t->text);
    f->has_version = f->has_timestamp = true;
    f->timestamp = cp_java_epoch_millis(local);
    /* Token text lives only as long as the parser: the statement keeps its own copy. */
    if (!(f->timestamp_text = cp_ps_strdup(p, t->text, t->text_len, err))) return PAIMON_ENOMEM;
    cp_ps_next(p);
    return 1;
  }
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
    if (t->kind == CP_TOK_STRING && t->text_len > 0) {
      f->has_version = true;
      if (!(f->version_tag = cp_ps_strdup(p, t->text, t->text_len, err))) return PAIMON_ENOMEM;
      cp_ps_next(p);
      return 1;
    }
  }
  return cp_ps_error(p, "a snapshot id (a positive integer) or a tag name", err);
}

/* Counts `weight` more table references for the statement (parser_internal.h). */
static int add_weight(cp_sql_parser *p, int64_t weight, cp_sql_pos pos, paimon_error *err) {
  p->weight += weight;
  if (p->weight <= CP_SQL_MAX_REFERENCES) return PAIMON_OK;
  return cp_ps_error_at(p, pos, err,
                        "the statement reads more than %d tables once its WITH queries are "
                        "substituted",
                        CP_SQL_MAX_REFERENCES);
}

/* A table name that names a CTE in scope becomes its query. */
static int use_cte(cp_sql_parser *p, cp_sql_from *f, paimon_error *err) {
  const cp_ps_cte *c = p->ctes;
  if (f->table.n == 1)
    while (c && strcasecmp(c->name, f->table.parts[0]) != 0) c = c->outer;
  if (f->table.n != 1 || !c) return add_weight(p, 1, f->pos, err);
  if (f->has_version)
    return cp_ps_error_at(p, f->pos, err, "%s is a WITH query: VERSION AS OF applies to tables",
                          c->name);
  f->kind = CP_SQL_FROM_SUBQUERY;
  f->query = c->query;
  if (!f->alias) f->alias = c->name;
  return add_weight(p, c->weight + 1, f->pos, err);
}

int cp_ps_table_primary(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  cp_sql_from *f = cp_ps_alloc(p, sizeof *f, err);
  if (!f) return PAIMON_ENOMEM;
  f->pos = cp_ps_pos(p);
  *out = f;
  if (cp_ps_is(p, CP_TOK_LPAREN)) {
    if (!cp_ps_starts_subquery(p))
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
  CP_RETURN_IF_ERROR(cp_ps_opt_alias(p, &f->alias, err));
  return use_cte(p, f, err);
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
  /* [LEFT] SEMI JOIN, [LEFT] ANTI JOIN (Spark's joinType) */
  size_t at = cp_ps_kw(p, "left") ? 1 : 0;
  if (cp_ps_kw_at(p, at, "semi") || cp_ps_kw_at(p, at, "anti")) {
    *kind = cp_ps_kw_at(p, at, "semi") ? CP_SQL_JOIN_SEMI : CP_SQL_JOIN_ANTI;
    for (size_t i = 0; i <= at; i++) cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "join", err));
    return 1;
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    if (!cp_ps_kw(p, kinds[i].word)) continue;
    cp_ps_next(p);
    if (kinds[i].kind != CP_SQL_JOIN_INNER && kinds[i].kind != CP_SQL_JOIN_CROSS)
      cp_ps_accept_kw(p, "outer");
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "join", err));
    *kind = kinds[i].kind;
    return 1;
  }
  return 0;
}

/* Joins nest down `left` and the executor recurses on them, so each join counts as a level of
 * the nesting limit (relation and from_clause restore the depth when they return). */
static int relation_joins(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_table_primary(p, out, err));
  for (;;) {
    cp_sql_pos pos = cp_ps_pos(p);
    cp_sql_join_kind kind = CP_SQL_JOIN_INNER;
    bool natural = cp_ps_accept_kw(p, "natural");
    int rc = join_keyword(p, &kind, err);
    if (rc == 0 && natural) rc = cp_ps_error(p, "JOIN after NATURAL", err);
    if (rc <= 0) return rc;
    if (natural && kind != CP_SQL_JOIN_INNER && kind != CP_SQL_JOIN_LEFT &&
        kind != CP_SQL_JOIN_RIGHT && kind != CP_SQL_JOIN_FULL)
      return cp_ps_error_at(p, pos, err, "NATURAL CROSS, SEMI and ANTI joins are not allowed");
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    cp_sql_from *j = cp_ps_alloc(p, sizeof *j, err);
    if (!j) return PAIMON_ENOMEM;
    j->kind = CP_SQL_FROM_JOIN;
    j->pos = pos;
    j->join = kind;
    j->left = *out;
    j->natural = natural;
    CP_RETURN_IF_ERROR(cp_ps_table_primary(p, &j->right, err));
    if (natural) {
      /* no ON or USING: the common columns */
    } else if (kind != CP_SQL_JOIN_CROSS && cp_ps_accept_kw(p, "using")) {
      CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
      cp_ps_vec v = {0};
      int urc = PAIMON_OK;
      do {
        const char *id = NULL;
        urc = cp_ps_ident(p, &id, NULL, err);
        if (!urc) urc = cp_ps_vec_push(&v, (void *)id, err);
      } while (!urc && cp_ps_accept(p, CP_TOK_COMMA));
      j->n_using = v.n;
      if (!urc) urc = cp_ps_vec_finish(p, &v, 0, (void **)&j->using_cols, err);
      cp_ps_vec_free(&v);
      CP_RETURN_IF_ERROR(urc);
      CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
    } else if (kind != CP_SQL_JOIN_CROSS) {
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "on", err));
      CP_RETURN_IF_ERROR(cp_ps_expr(p, &j->on, err));
    }
    *out = j;
  }
}

static int relation(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  int depth = p->depth;
  int rc = relation_joins(p, out, err);
  p->depth = depth;
  return rc;
}

static int from_joins(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(relation(p, out, err));
  while (cp_ps_is(p, CP_TOK_COMMA)) {
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
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

static int from_clause(cp_sql_parser *p, cp_sql_from **out, paimon_error *err) {
  int depth = p->depth;
  int rc = from_joins(p, out, err);
  p->depth = depth;
  return rc;
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

int cp_ps_expr_items(cp_sql_parser *p, cp_sql_expr ***items, size_t *n, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_expr *e = NULL;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&v, e, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)items, err);
  cp_ps_vec_free(&v);
  return rc;
}

static int group_by(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  return cp_ps_expr_items(p, &q->group_by, &q->n_group_by, err);
}

static int order_by(cp_sql_parser *p, cp_sql_query *q, paimon_error *err) {
  return cp_ps_order_items(p, &q->order_by, &q->n_order_by, err);
}

int cp_ps_order_items(cp_sql_parser *p, cp_sql_order_item **items, size_t *n, paimon_error *err) {
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
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_order_item), (void **)items, err);
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
  return PAIMON_OK;
}

/* select := SELECT ... | '(' query ')' */
static int select_primary(cp_sql_parser *p, cp_sql_query **out, paimon_error *err) {
  if (cp_ps_is(p, CP_TOK_LPAREN)) {
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    int rc = cp_ps_query(p, out, err);
    cp_ps_leave(p);
    CP_RETURN_IF_ERROR(rc);
    return cp_ps_expect(p, CP_TOK_RPAREN, err);
  }
  cp_sql_query *q = cp_ps_alloc(p, sizeof *q, err);
  if (!q) return PAIMON_ENOMEM;
  *out = q;
  return query_body(p, q, err);
}

/* The set operator at the next token for the given precedence level (INTERSECT is level 1), or
 * NONE; consumes it with its ALL / DISTINCT. */
static cp_sql_set_op set_operator(cp_sql_parser *p, int level, bool *all) {
  cp_sql_set_op op = CP_SQL_SET_NONE;
  if (level == 1 && cp_ps_kw(p, "intersect"))
    op = CP_SQL_SET_INTERSECT;
  else if (level == 0 && cp_ps_kw(p, "union"))
    op = CP_SQL_SET_UNION;
  else if (level == 0 && (cp_ps_kw(p, "except") || cp_ps_kw(p, "minus")))
    op = CP_SQL_SET_EXCEPT;
  if (op == CP_SQL_SET_NONE) return op;
  cp_ps_next(p);
  *all = cp_ps_accept_kw(p, "all");
  if (!*all) cp_ps_accept_kw(p, "distinct");
  return op;
}

/* set_expr (level 0) and set_term (level 1), left-associative. */
static int set_expr(cp_sql_parser *p, int level, cp_sql_query **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(level ? select_primary(p, out, err) : set_expr(p, 1, out, err));
  for (;;) {
    cp_sql_pos pos = cp_ps_pos(p);
    bool all = false;
    cp_sql_set_op op = set_operator(p, level, &all);
    if (op == CP_SQL_SET_NONE) return PAIMON_OK;
    cp_sql_query *q = cp_ps_alloc(p, sizeof *q, err);
    if (!q) return PAIMON_ENOMEM;
    q->pos = pos;
    q->set_op = op;
    q->set_all = all;
    q->left = *out;
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    int rc = level ? select_primary(p, &q->right, err) : set_expr(p, 1, &q->right, err);
    cp_ps_leave(p);
    CP_RETURN_IF_ERROR(rc);
    *out = q;
  }
}

/* WITH name AS (query), ...: pushes each CTE in turn (a CTE sees the ones before it). `scope`
 * is the CTE list outside this WITH. */
static int with_clause(cp_sql_parser *p, const cp_ps_cte *scope, paimon_error *err) {
  cp_ps_next(p); /* WITH */
  if (cp_ps_kw(p, "recursive"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "WITH RECURSIVE is not supported");
  do {
    cp_ps_cte *c = cp_ps_alloc(p, sizeof *c, err);
    if (!c) return PAIMON_ENOMEM;
    cp_sql_pos pos = cp_ps_pos(p);
    CP_RETURN_IF_ERROR(cp_ps_ident(p, &c->name, NULL, err));
    for (const cp_ps_cte *o = p->ctes; o != scope; o = o->outer)
      if (strcasecmp(o->name, c->name) == 0)
        return cp_ps_error_at(p, pos, err, "CTE definition can't have duplicate names: '%s'.",
                              c->name);
    if (cp_ps_is(p, CP_TOK_LPAREN))
      return cp_ps_error_at(p, cp_ps_pos(p), err,
                            "column lists in WITH are not supported; alias the columns in the "
                            "query");
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "as", err));
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
    int64_t before = p->weight;
    CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
    int rc = cp_ps_query(p, &c->query, err);
    cp_ps_leave(p);
    CP_RETURN_IF_ERROR(rc);
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
    /* The body counted once here; every reference counts it again (use_cte). */
    c->weight = p->weight - before;
    c->outer = p->ctes;
    p->ctes = c;
  } while (cp_ps_accept(p, CP_TOK_COMMA));
  return PAIMON_OK;
}

/* *q becomes SELECT * FROM (*q): where an ORDER BY / LIMIT applies to a set operation or to a
 * query that already has its own. */
static int wrap_in_select(cp_sql_parser *p, cp_sql_pos pos, cp_sql_query **q, paimon_error *err) {
  cp_sql_query *w = cp_ps_alloc(p, sizeof *w, err);
  cp_sql_select_item *star = cp_ps_alloc(p, sizeof *star, err);
  cp_sql_expr *e = cp_ps_alloc(p, sizeof *e, err);
  cp_sql_from *f = cp_ps_alloc(p, sizeof *f, err);
  if (!w || !star || !e || !f) return PAIMON_ENOMEM;
  e->kind = CP_SQL_E_STAR;
  e->pos = pos;
  star->expr = e;
  f->kind = CP_SQL_FROM_SUBQUERY;
  f->pos = pos;
  f->query = *q;
  w->pos = pos;
  w->items = star;
  w->n_items = 1;
  w->from = f;
  *q = w;
  return PAIMON_OK;
}

int cp_ps_query(cp_sql_parser *p, cp_sql_query **out, paimon_error *err) {
  cp_ps_cte *scope = p->ctes; /* WITH names end with the query that declares them */
  cp_sql_pos pos = cp_ps_pos(p);
  int rc = cp_ps_kw(p, "with") ? with_clause(p, scope, err) : PAIMON_OK;
  if (!rc) rc = set_expr(p, 0, out, err);
  cp_sql_query *q = rc ? NULL : *out;
  bool order = !rc && cp_ps_kw(p, "order") && cp_ps_kw_at(p, 1, "by");
  bool limit = !rc && !order && cp_ps_kw(p, "limit");
  if (order || limit) {
    /* A plain SELECT takes them; anything else becomes SELECT * FROM (it). */
    if (q->set_op != CP_SQL_SET_NONE || q->n_order_by || q->limit) {
      rc = wrap_in_select(p, pos, &q, err);
      *out = q;
    }
  }
  if (!rc && order) {
    cp_ps_next(p);
    cp_ps_next(p);
    rc = order_by(p, q, err);
  }
  if (!rc && cp_ps_accept_kw(p, "limit")) {
    if (q->limit) {
      rc = wrap_in_select(p, pos, &q, err);
      *out = q;
    }
    if (!rc) rc = cp_ps_expr(p, &q->limit, err);
  }
  p->ctes = scope;
  return rc;
}
