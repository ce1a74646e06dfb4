/*
 * SQL sessions (session.h): the catalog and current database, and the dispatch of each parsed
 * statement to its executor. Messages of failed statements start with the line:column of the
 * statement unless a more precise position was already given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"

int cp_sql_session_open_catalog(cp_sql_session **out, paimon_catalog *catalog, paimon_error *err) {
  *out = NULL;
  cp_sql_session *s = calloc(1, sizeof *s);
  if (!s) {
    paimon_catalog_free(catalog);
    return CP_ENOMEM(err, "SQL session");
  }
  s->catalog = catalog;
  s->database = strdup(CP_SQL_DEFAULT_DATABASE);
  if (!s->database) {
    cp_sql_session_free(s);
    return CP_ENOMEM(err, "SQL session");
  }
  *out = s;
  return PAIMON_OK;
}

int cp_sql_session_open(cp_sql_session **out, const char *warehouse, paimon_error *err) {
  *out = NULL;
  paimon_catalog *c;
  CP_RETURN_IF_ERROR(paimon_catalog_open(&c, warehouse, err));
  return cp_sql_session_open_catalog(out, c, err);
}

void cp_sql_session_free(cp_sql_session *s) {
  if (!s) return;
  paimon_catalog_free(s->catalog);
  free(s->database);
  free(s);
}

const char *cp_sql_session_database(const cp_sql_session *s) { return s->database; }

void cp_sql_result_release(cp_sql_result *r) {
  if (!r) return;
  cp_schema_release(&r->schema);
  cp_array_release(&r->batch);
  memset(r, 0, sizeof *r);
}

static int run_select(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                      paimon_error *err) {
  cp_sql_exec x;
  CP_RETURN_IF_ERROR(cp_sql_exec_init(&x, s, stmt, err));
  cp_rel rel;
  bool ordered = false;
  int rc = cp_sql_run_query(&x, stmt->query, &rel, &ordered, err);
  cp_sql_exec_free(&x);
  CP_RETURN_IF_ERROR(rc);
  out->has_rows = true;
  out->ordered = ordered;
  cp_schema_move(&rel.schema, &out->schema);
  cp_array_move(&rel.batch, &out->batch);
  cp_rel_free(&rel);
  return PAIMON_OK;
}

int cp_sql_execute(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                   paimon_error *err) {
  memset(out, 0, sizeof *out);
  int rc;
  cp_sql_subq_ctx subqueries;
  cp_sql_subq_begin(&subqueries, s);
  switch (stmt->kind) {
  case CP_SQL_S_SELECT: rc = run_select(s, stmt, out, err); break;
  case CP_SQL_S_INSERT: rc = cp_sql_exec_insert(s, stmt, err); break;
  case CP_SQL_S_UPDATE: rc = cp_sql_exec_update(s, stmt, err); break;
  case CP_SQL_S_DELETE: rc = cp_sql_exec_delete(s, stmt, err); break;
  case CP_SQL_S_MERGE: rc = cp_sql_exec_merge(s, stmt, err); break;
  default: rc = cp_sql_exec_catalog(s, stmt, out, err); break;
  }
  cp_sql_subq_end(&subqueries);
  if (rc && stmt->kind >= CP_SQL_S_SELECT && stmt->kind <= CP_SQL_S_MERGE) {
    cp_sql_result_release(out);
    if (rc != PAIMON_ENOMEM && err && strncmp(err->message, "line ", 5) != 0)
      paimon_error_prefix(err, "line %d:%d", stmt->pos.line, stmt->pos.col);
  }
  return rc;
}
