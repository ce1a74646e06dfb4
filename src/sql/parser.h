/*
 * The SQL parser: a recursive-descent parser over the lexer's tokens (lexer.h) producing the
 * syntax trees of ast.h, one statement at a time, for the Spark SQL subset of docs/sql.md.
 * Spark's SqlBaseParser.g4 is the model for precedence and the shape of each statement.
 *
 * Errors (EINVAL) say where and what was expected: "line 3:14: syntax error at 'FORM': expected
 * FROM, WHERE, GROUP BY, ... or ';'". Parsing never allocates without bound on hostile input:
 * nesting deeper than CP_SQL_MAX_DEPTH is an error.
 */
#ifndef CP_SQL_PARSER_H
#define CP_SQL_PARSER_H

#include <stddef.h>

#include "cpaimon/error.h"
#include "sql/ast.h"

/* Deepest nesting of expressions, subqueries and types the parser accepts. */
#define CP_SQL_MAX_DEPTH 200
/* Table references a statement may stand for once its WITH clauses are inlined. */
#define CP_SQL_MAX_REFERENCES 10000

typedef struct cp_sql_parser cp_sql_parser;

/* A parser over src[0, len) (borrowed: it must outlive the parser and its statements' text
 * ranges). Only ENOMEM fails here; a lexical error is reported by the cp_sql_parse_next call that
 * reaches it, after the statements before it. */
int cp_sql_parser_new(cp_sql_parser **out, const char *src, size_t len, paimon_error *err);
void cp_sql_parser_free(cp_sql_parser *p);

/* Parses the next statement into *out (owned by the caller: cp_sql_stmt_free); *out is NULL at
 * the end of the input. Empty statements (";;") are skipped. After an error, the next call
 * continues after the failed statement's ';' (cp_sql_parser_skip). */
int cp_sql_parse_next(cp_sql_parser *p, cp_sql_stmt **out, paimon_error *err);

/* Position of the next token: where the next statement starts (for messages about it). */
cp_sql_pos cp_sql_parser_pos(const cp_sql_parser *p);

/* Parses all of src into *out (a malloc'd array of *n statements; free each and the array with
 * cp_sql_stmts_free). Stops at the first error. */
int cp_sql_parse(const char *src, size_t len, cp_sql_stmt ***out, size_t *n, paimon_error *err);
void cp_sql_stmts_free(cp_sql_stmt **stmts, size_t n);

/* Parses one expression (the whole input, an optional trailing ';' allowed), for tests. *out is
 * owned by *owner, a statement shell that holds the arena (cp_sql_stmt_free). */
int cp_sql_parse_expr(const char *src, size_t len, cp_sql_stmt **owner, cp_sql_expr **out,
                      paimon_error *err);

#endif
