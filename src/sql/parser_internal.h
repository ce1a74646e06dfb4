/*
 * Declarations shared by the parser's files (parser.c: statements and plumbing; parse_expr.c:
 * expressions; parse_query.c: SELECT; parse_type.c: data types). Not part of the layer's
 * interface.
 */
#ifndef CP_SQL_PARSER_INTERNAL_H
#define CP_SQL_PARSER_INTERNAL_H

#include <stdbool.h>

#include "sql/lexer.h"
#include "sql/parser.h"

/* A common table expression in scope (WITH name AS (query)), innermost first. */
typedef struct cp_ps_cte {
  const char *name;
  cp_sql_query *query;
  int64_t weight; /* table references the query stands for once every CTE in it is inlined */
  struct cp_ps_cte *outer;
} cp_ps_cte;

struct cp_sql_parser {
  cp_sql_tokens toks;
  size_t i;          /* next token */
  cp_sql_stmt *stmt; /* the statement being built (its arena takes every allocation) */
  int depth;         /* current nesting, bounded by CP_SQL_MAX_DEPTH */
  cp_ps_cte *ctes;   /* WITH names in scope (arena-allocated), NULL outside WITH */
  /* Table references the statement stands for with its CTEs inlined, bounded by
   * CP_SQL_MAX_REFERENCES: a CTE used twice by one used twice by ... grows exponentially. */
  int64_t weight;
};

/* ---- tokens ---- */

static inline const cp_sql_token *cp_ps_peek(const cp_sql_parser *p) {
  return &p->toks.items[p->i];
}
static inline const cp_sql_token *cp_ps_peek_at(const cp_sql_parser *p, size_t k) {
  size_t j = p->i + k;
  return j < p->toks.count ? &p->toks.items[j] : &p->toks.items[p->toks.count - 1];
}
/* Consumes and returns the next token (the EOF token is never passed). */
const cp_sql_token *cp_ps_next(cp_sql_parser *p);
static inline bool cp_ps_is(const cp_sql_parser *p, cp_sql_tok_kind k) {
  return cp_ps_peek(p)->kind == k;
}
/* True when the next token is the keyword `word`. */
static inline bool cp_ps_kw(const cp_sql_parser *p, const char *word) {
  return cp_sql_tok_is(cp_ps_peek(p), word);
}
static inline bool cp_ps_kw_at(const cp_sql_parser *p, size_t k, const char *word) {
  return cp_sql_tok_is(cp_ps_peek_at(p, k), word);
}
/* Consumes the token if it is `k` / the keyword `word`. */
bool cp_ps_accept(cp_sql_parser *p, cp_sql_tok_kind k);
bool cp_ps_accept_kw(cp_sql_parser *p, const char *word);
/* Consumes `k` / `word` or fails with "expected <what>". */
int cp_ps_expect(cp_sql_parser *p, cp_sql_tok_kind k, paimon_error *err);
int cp_ps_expect_kw(cp_sql_parser *p, const char *word, paimon_error *err);

/* The syntax error at the next token: "line L:C: syntax error at 'tok': expected <expected>". At
 * a lexical error it reports that instead. */
int cp_ps_error(cp_sql_parser *p, const char *expected, paimon_error *err);
/* An error at a given position with a free-form message ("line L:C: <msg>"). */
int cp_ps_error_at(cp_sql_parser *p, cp_sql_pos pos, paimon_error *err, const char *fmt, ...)
    PAIMON_PRINTF(4, 5);

/* True when the next tokens open a parenthesised query: '(' SELECT, '(' WITH or '(' '('. */
static inline bool cp_ps_starts_subquery(const cp_sql_parser *p) {
  return cp_ps_is(p, CP_TOK_LPAREN) && (cp_ps_kw_at(p, 1, "select") || cp_ps_kw_at(p, 1, "with") ||
                                        cp_ps_peek_at(p, 1)->kind == CP_TOK_LPAREN);
}

static inline cp_sql_pos cp_ps_pos(const cp_sql_parser *p) {
  cp_sql_pos pos = {cp_ps_peek(p)->line, cp_ps_peek(p)->col};
  return pos;
}

/* Reserved words: never taken as a column name, alias or function name without back-quotes. */
bool cp_ps_reserved(const cp_sql_token *tok);

/* ---- allocation in the statement's arena ---- */

void *cp_ps_alloc(cp_sql_parser *p, size_t n, paimon_error *err); /* zeroed */
const char *cp_ps_strdup(cp_sql_parser *p, const char *s, size_t n, paimon_error *err);

/* A growable array of pointers, copied into the arena when done. */
typedef struct cp_ps_vec {
  void **items;
  size_t n, cap;
} cp_ps_vec;
int cp_ps_vec_push(cp_ps_vec *v, void *item, paimon_error *err);
/* Copies the items into the arena as an array of `elem_size`-byte elements read from each pointer
 * (elem_size 0: an array of the pointers themselves) and frees the vector. */
int cp_ps_vec_finish(cp_sql_parser *p, cp_ps_vec *v, size_t elem_size, void **out,
                     paimon_error *err);
void cp_ps_vec_free(cp_ps_vec *v);

/* Depth guard around recursive rules. */
int cp_ps_enter(cp_sql_parser *p, paimon_error *err);
static inline void cp_ps_leave(cp_sql_parser *p) { p->depth--; }

/* ---- grammar pieces ---- */

/* identifier: a word that is not reserved, or a back-quoted name. */
int cp_ps_ident(cp_sql_parser *p, const char **out, cp_sql_pos *pos, paimon_error *err);
/* name ('.' name)*, at most `max_parts` parts. */
int cp_ps_qualified_name(cp_sql_parser *p, size_t max_parts, cp_sql_name *out, paimon_error *err);
/* A string literal (adjacent literals concatenated). */
int cp_ps_string(cp_sql_parser *p, const char **out, size_t *len, paimon_error *err);

int cp_ps_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err);
/* '(' expr (',' expr)* ')' */
int cp_ps_expr_list(cp_sql_parser *p, cp_sql_expr ***out, size_t *n, paimon_error *err);
int cp_ps_query(cp_sql_parser *p, cp_sql_query **out, paimon_error *err);
/* expr, expr, ... without parentheses (GROUP BY's, PARTITION BY's). */
int cp_ps_expr_items(cp_sql_parser *p, cp_sql_expr ***items, size_t *n, paimon_error *err);
/* expr [ASC | DESC] [NULLS FIRST | LAST], ... (ORDER BY's items, also a window's). */
int cp_ps_order_items(cp_sql_parser *p, cp_sql_order_item **items, size_t *n, paimon_error *err);
/* A table reference with optional VERSION AS OF and alias, or '(' query ')' alias. */
int cp_ps_table_primary(cp_sql_parser *p, cp_sql_from **out, paimon_error *err);
/* An optional [AS] alias; *out NULL when there is none. */
int cp_ps_opt_alias(cp_sql_parser *p, const char **out, paimon_error *err);
/* '(' k [= v] (',' k [= v])* ')' after PARTITION. */
int cp_ps_partition_spec(cp_sql_parser *p, cp_sql_assignment **out, size_t *n, paimon_error *err);
/* TRUNCATE TABLE t [PARTITION (...)] */
int cp_ps_truncate(cp_sql_parser *p, paimon_error *err);
int cp_ps_call(cp_sql_parser *p, paimon_error *err);
/* A data type, as Paimon type text (Spark names mapped, see parse_type.c). */
int cp_ps_type(cp_sql_parser *p, const char **out, paimon_error *err);

#endif
