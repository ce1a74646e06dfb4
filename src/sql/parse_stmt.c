/*
 * Data-changing statements of the SQL parser (parser.h), after Spark's grammar
 * (SqlBaseParser.g4 insertInto / updateTable / deleteFromTable / mergeIntoTable):
 *
 *   INSERT (INTO | OVERWRITE) [TABLE] t [PARTITION (k [= v], ...)] [(c, ...)]
 *       (VALUES (e, ...), ... | query)
 *   UPDATE t [[AS] a] SET c = e, ... [WHERE e]
 *   DELETE FROM t [[AS] a] [WHERE e]
 *   MERGE INTO t [[AS] a] USING (s | (query)) [[AS] b] ON e
 *       WHEN MATCHED [AND e] THEN UPDATE SET (* | c = e, ...) | DELETE
 *       WHEN NOT MATCHED [BY TARGET] [AND e] THEN INSERT (* | [(c, ...)] VALUES (e, ...))
 *       WHEN NOT MATCHED BY SOURCE [AND e] THEN UPDATE SET c = e, ... | DELETE
 *
 * The semantic checks of each statement (which columns exist, which clauses a data-evolution table
 * allows, spec/data-evolution.md §3.8) are the executor's.
 */
#include <string.h>

#include "base/status.h"
#include "sql/parser_internal.h"

int cp_ps_insert(cp_sql_parser *p, paimon_error *err);
int cp_ps_update(cp_sql_parser *p, paimon_error *err);
int cp_ps_delete(cp_sql_parser *p, paimon_error *err);
int cp_ps_merge(cp_sql_parser *p, paimon_error *err);

/* '(' ident, ... ')' */
static int ident_list(cp_sql_parser *p, const char ***out, size_t *n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    const char *id;
    rc = cp_ps_ident(p, &id, NULL, err);
    if (!rc) rc = cp_ps_vec_push(&v, (void *)id, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

static int assignments(cp_sql_parser *p, cp_sql_assignment **out, size_t *n, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_assignment *a = cp_ps_alloc(p, sizeof *a, err);
    if (!a) {
      rc = PAIMON_ENOMEM;
      break;
    }
    rc = cp_ps_qualified_name(p, 4, &a->target, err);
    if (!rc) rc = cp_ps_expect(p, CP_TOK_EQ, err);
    if (!rc) rc = cp_ps_expr(p, &a->value, err);
    if (!rc) rc = cp_ps_vec_push(&v, a, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_assignment), (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

/* PARTITION (k [= v], ...) */
int cp_ps_partition_spec(cp_sql_parser *p, cp_sql_assignment **out, size_t *n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_assignment *a = cp_ps_alloc(p, sizeof *a, err);
    if (!a) {
      rc = PAIMON_ENOMEM;
      break;
    }
    rc = cp_ps_qualified_name(p, 1, &a->target, err);
    if (!rc && cp_ps_accept(p, CP_TOK_EQ)) rc = cp_ps_expr(p, &a->value, err);
    if (!rc) rc = cp_ps_vec_push(&v, a, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_assignment), (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

static int values_rows(cp_sql_parser *p, cp_sql_insert *ins, paimon_error *err) {
  cp_ps_vec rows = {0}, lengths = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_expr **row = NULL;
    size_t n = 0;
    if (cp_ps_is(p, CP_TOK_LPAREN)) {
      rc = cp_ps_expr_list(p, &row, &n, err);
    } else { /* VALUES 1, 2: one-column rows, as Spark allows */
      row = cp_ps_alloc(p, sizeof *row, err);
      rc = row ? cp_ps_expr(p, &row[0], err) : PAIMON_ENOMEM;
      n = 1;
    }
    size_t *len = rc ? NULL : cp_ps_alloc(p, sizeof *len, err);
    if (!rc && !len) rc = PAIMON_ENOMEM;
    if (!rc) {
      *len = n;
      rc = cp_ps_vec_push(&rows, row, err);
    }
    if (!rc) rc = cp_ps_vec_push(&lengths, len, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  ins->n_rows = rows.n;
  if (!rc) rc = cp_ps_vec_finish(p, &rows, 0, (void **)&ins->rows, err);
  if (!rc) rc = cp_ps_vec_finish(p, &lengths, sizeof(size_t), (void **)&ins->row_lengths, err);
  cp_ps_vec_free(&rows);
  cp_ps_vec_free(&lengths);
  return rc;
}

int cp_ps_insert(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_sql_insert *ins = &s->insert;
  s->kind = CP_SQL_S_INSERT;
  cp_ps_next(p); /* INSERT */
  if (cp_ps_accept_kw(p, "overwrite"))
    ins->overwrite = true;
  else
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "into", err));
  cp_ps_accept_kw(p, "table");
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &ins->table, err));
  if (cp_ps_accept_kw(p, "partition"))
    CP_RETURN_IF_ERROR(cp_ps_partition_spec(p, &ins->partition, &ins->n_partition, err));
  if (cp_ps_is(p, CP_TOK_LPAREN) && !cp_ps_starts_subquery(p))
    CP_RETURN_IF_ERROR(ident_list(p, &ins->columns, &ins->n_columns, err));
  if (cp_ps_accept_kw(p, "values")) return values_rows(p, ins, err);
  if (cp_ps_kw(p, "select") || cp_ps_kw(p, "with") || cp_ps_is(p, CP_TOK_LPAREN))
    return cp_ps_query(p, &ins->query, err);
  return cp_ps_error(p, ins->n_columns ? "VALUES or SELECT" : "a column list, VALUES or SELECT",
                     err);
}

int cp_ps_update(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  s->kind = CP_SQL_S_UPDATE;
  cp_ps_next(p); /* UPDATE */
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &s->update.table, err));
  CP_RETURN_IF_ERROR(cp_ps_opt_alias(p, &s->update.alias, err));
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "set", err));
  CP_RETURN_IF_ERROR(assignments(p, &s->update.set, &s->update.n_set, err));
  if (cp_ps_accept_kw(p, "where")) return cp_ps_expr(p, &s->update.where, err);
  return PAIMON_OK;
}

int cp_ps_delete(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  s->kind = CP_SQL_S_DELETE;
  cp_ps_next(p); /* DELETE */
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "from", err));
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &s->del.table, err));
  CP_RETURN_IF_ERROR(cp_ps_opt_alias(p, &s->del.alias, err));
  if (cp_ps_accept_kw(p, "where")) return cp_ps_expr(p, &s->del.where, err);
  return PAIMON_OK;
}

/* THEN <action> of a WHEN clause. */
static int merge_action(cp_sql_parser *p, cp_sql_merge_clause *c, paimon_error *err) {
  bool matched = c->match != CP_SQL_NOT_MATCHED;
  if (matched && cp_ps_accept_kw(p, "delete")) {
    c->action = CP_SQL_MERGE_DELETE;
    return PAIMON_OK;
  }
  if (matched && cp_ps_accept_kw(p, "update")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "set", err));
    if (c->match == CP_SQL_MATCHED && cp_ps_accept(p, CP_TOK_STAR)) {
      c->action = CP_SQL_MERGE_UPDATE_STAR;
      return PAIMON_OK;
    }
    c->action = CP_SQL_MERGE_UPDATE;
    return assignments(p, &c->set, &c->n_set, err);
  }
  if (!matched && cp_ps_accept_kw(p, "insert")) {
    if (cp_ps_accept(p, CP_TOK_STAR)) {
      c->action = CP_SQL_MERGE_INSERT_STAR;
      return PAIMON_OK;
    }
    c->action = CP_SQL_MERGE_INSERT;
    if (cp_ps_is(p, CP_TOK_LPAREN))
      CP_RETURN_IF_ERROR(ident_list(p, &c->columns, &c->n_columns, err));
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "values", err));
    return cp_ps_expr_list(p, &c->values, &c->n_values, err);
  }
  return cp_ps_error(p, matched ? "UPDATE or DELETE" : "INSERT", err);
}

static int merge_clause(cp_sql_parser *p, cp_sql_merge_clause *c, paimon_error *err) {
  c->pos = cp_ps_pos(p);
  cp_ps_next(p); /* WHEN */
  if (cp_ps_accept_kw(p, "matched")) {
    c->match = CP_SQL_MATCHED;
  } else if (cp_ps_accept_kw(p, "not")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "matched", err));
    c->match = CP_SQL_NOT_MATCHED;
    if (cp_ps_accept_kw(p, "by")) {
      if (cp_ps_accept_kw(p, "source"))
        c->match = CP_SQL_NOT_MATCHED_BY_SOURCE;
      else if (!cp_ps_accept_kw(p, "target"))
        return cp_ps_error(p, "SOURCE or TARGET", err);
    }
  } else {
    return cp_ps_error(p, "MATCHED or NOT MATCHED", err);
  }
  if (cp_ps_accept_kw(p, "and")) CP_RETURN_IF_ERROR(cp_ps_expr(p, &c->cond, err));
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "then", err));
  return merge_action(p, c, err);
}

int cp_ps_merge(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_sql_merge *m = &s->merge;
  s->kind = CP_SQL_S_MERGE;
  cp_ps_next(p); /* MERGE */
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "into", err));
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &m->target, err));
  CP_RETURN_IF_ERROR(cp_ps_opt_alias(p, &m->target_alias, err));
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "using", err));
  CP_RETURN_IF_ERROR(cp_ps_table_primary(p, &m->source, err));
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "on", err));
  CP_RETURN_IF_ERROR(cp_ps_expr(p, &m->on, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  if (!cp_ps_kw(p, "when")) rc = cp_ps_error(p, "WHEN", err);
  while (!rc && cp_ps_kw(p, "when")) {
    cp_sql_merge_clause *c = cp_ps_alloc(p, sizeof *c, err);
    rc = c ? merge_clause(p, c, err) : PAIMON_ENOMEM;
    if (!rc) rc = cp_ps_vec_push(&v, c, err);
  }
  m->n_clauses = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_merge_clause), (void **)&m->clauses, err);
  cp_ps_vec_free(&v);
  return rc;
}
