/*
 * SQL sessions: the front end's entry point (docs/sql.md). A session holds a catalog (a warehouse
 * directory, include/cpaimon/catalog.h) and the current database, and executes parsed statements
 * (parser.h) one at a time; each statement that changes a table commits at most one snapshot
 * (DESIGN.md, "each statement is one atomic commit").
 *
 * Queries (SELECT, SHOW, DESCRIBE) return their rows as one Arrow record batch, for the caller to
 * print (arrow/print.h). Errors name the line:column of the statement, or of the expression
 * or token involved, and the table or column.
 *
 * Ownership: the session is the caller's (cp_sql_session_free); a result's schema and batch are
 * the caller's (cp_sql_result_release). A session is not thread-safe.
 */
#ifndef CP_SQL_SESSION_H
#define CP_SQL_SESSION_H

#include <stdbool.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/error.h"
#include "sql/ast.h"

/* The database a session starts in; it is created when a statement first needs it. */
#define CP_SQL_DEFAULT_DATABASE "default"

typedef struct cp_sql_session cp_sql_session;

typedef struct cp_sql_result {
  bool has_rows;             /* a query: schema and batch are set */
  bool ordered;              /* the rows have a defined order (ORDER BY) */
  struct ArrowSchema schema; /* "+s" with one child per output column */
  struct ArrowArray batch;   /* struct array of schema */
} cp_sql_result;

/* Opens the catalog at `warehouse` (nothing is created until a database is). */
int cp_sql_session_open(cp_sql_session **out, const char *warehouse, paimon_error *err);
/* A session over an open catalog, which the session takes over (also on failure). */
int cp_sql_session_open_catalog(cp_sql_session **out, paimon_catalog *catalog, paimon_error *err);
void cp_sql_session_free(cp_sql_session *s);

/* The current database (borrowed; changes with USE). */
const char *cp_sql_session_database(const cp_sql_session *s);

/* Executes one statement. *out is zeroed first; for queries it receives the rows. */
int cp_sql_execute(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                   paimon_error *err);

void cp_sql_result_release(cp_sql_result *r);

#endif
