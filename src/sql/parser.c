/*
 * The parser's plumbing (parser.h): token access, syntax errors with line:column and what was
 * expected, arena allocation, the depth guard, identifiers and strings, and the statement
 * dispatch. The statements themselves are in parse_stmt.c (DML) and parse_ddl.c (catalog
 * statements), expressions in parse_expr.c, SELECT in parse_query.c, types in parse_type.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "sql/parser_internal.h"

/* Statement rules (parse_stmt.c, parse_ddl.c). */
int cp_ps_insert(cp_sql_parser *p, paimon_error *err);
int cp_ps_update(cp_sql_parser *p, paimon_error *err);
int cp_ps_delete(cp_sql_parser *p, paimon_error *err);
int cp_ps_merge(cp_sql_parser *p, paimon_error *err);
int cp_ps_create(cp_sql_parser *p, paimon_error *err);
int cp_ps_drop(cp_sql_parser *p, paimon_error *err);
int cp_ps_alter(cp_sql_parser *p, paimon_error *err);
int cp_ps_use_show_describe(cp_sql_parser *p, paimon_error *err);

/* ---- tokens and errors ---------------------------------------------------------------------- */

const cp_sql_token *cp_ps_next(cp_sql_parser *p) {
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind != CP_TOK_EOF) p->i++;
  return t;
}

bool cp_ps_accept(cp_sql_parser *p, cp_sql_tok_kind k) {
  if (!cp_ps_is(p, k)) return false;
  cp_ps_next(p);
  return true;
}

bool cp_ps_accept_kw(cp_sql_parser *p, const char *word) {
  if (!cp_ps_kw(p, word)) return false;
  cp_ps_next(p);
  return true;
}

int cp_ps_expect(cp_sql_parser *p, cp_sql_tok_kind k, paimon_error *err) {
  if (cp_ps_accept(p, k)) return PAIMON_OK;
  return cp_ps_error(p, cp_sql_tok_kind_name(k), err);
}

int cp_ps_expect_kw(cp_sql_parser *p, const char *word, paimon_error *err) {
  if (cp_ps_accept_kw(p, word)) return PAIMON_OK;
  char upper[64];
  size_t i = 0;
  for (; word[i] && i + 1 < sizeof upper; i++)
    upper[i] = (char)(word[i] >= 'a' && word[i] <= 'z' ? word[i] - 32 : word[i]);
  upper[i] = '\0';
  return cp_ps_error(p, upper, err);
}

int cp_ps_error(cp_sql_parser *p, const char *expected, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind == CP_TOK_ERROR) return paimon_error_set(err, PAIMON_EINVAL, "%s", t->text);
  if (t->kind == CP_TOK_EOF && p->toks.failed) {
    if (err) *err = p->toks.error;
    return p->toks.error.code ? p->toks.error.code : PAIMON_EINVAL;
  }
  if (t->kind == CP_TOK_EOF)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "line %d:%d: syntax error at end of input: expected %s", t->line,
                            t->col, expected);
  const char *shown = t->kind == CP_TOK_STRING ? "string literal" : t->text;
  size_t len = t->kind == CP_TOK_STRING ? strlen(shown) : t->text_len;
  return paimon_error_set(err, PAIMON_EINVAL, "line %d:%d: syntax error at '%.*s': expected %s",
                          t->line, t->col, (int)(len > 40 ? 40 : len), shown, expected);
}

int cp_ps_error_at(cp_sql_parser *p, cp_sql_pos pos, paimon_error *err, const char *fmt, ...) {
  (void)p;
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return paimon_error_set(err, PAIMON_EINVAL, "line %d:%d: %s", pos.line, pos.col, msg);
}

bool cp_ps_reserved(const cp_sql_token *tok) {
  return tok->kind == CP_TOK_IDENT && cp_sql_reserved_word(tok->text);
}

/* ---- allocation ----------------------------------------------------------------------------- */

void *cp_ps_alloc(cp_sql_parser *p, size_t n, paimon_error *err) {
  void *m = cp_arena_calloc(&p->stmt->arena, n ? n : 1);
  if (!m) CP_ENOMEM(err, "SQL syntax tree");
  return m;
}

const char *cp_ps_strdup(cp_sql_parser *p, const char *s, size_t n, paimon_error *err) {
  char *m = cp_arena_strndup(&p->stmt->arena, s, n);
  if (!m) CP_ENOMEM(err, "SQL syntax tree");
  return m;
}

int cp_ps_vec_push(cp_ps_vec *v, void *item, paimon_error *err) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    void **items = realloc(v->items, cap * sizeof *items);
    if (!items) return CP_ENOMEM(err, "SQL syntax tree");
    v->items = items;
    v->cap = cap;
  }
  v->items[v->n++] = item;
  return PAIMON_OK;
}

int cp_ps_vec_finish(cp_sql_parser *p, cp_ps_vec *v, size_t elem_size, void **out,
                     paimon_error *err) {
  size_t size = elem_size ? elem_size : sizeof(void *);
  uint8_t *arr = cp_ps_alloc(p, v->n * size, err);
  if (!arr) return PAIMON_ENOMEM;
  for (size_t i = 0; i < v->n; i++) {
    if (elem_size)
      memcpy(arr + i * size, v->items[i], size);
    else
      memcpy(arr + i * size, &v->items[i], size);
  }
  *out = arr;
  cp_ps_vec_free(v);
  return PAIMON_OK;
}

void cp_ps_vec_free(cp_ps_vec *v) {
  free(v->items);
  v->items = NULL;
  v->n = v->cap = 0;
}

int cp_ps_enter(cp_sql_parser *p, paimon_error *err) {
  if (p->depth >= CP_SQL_MAX_DEPTH)
    return cp_ps_error_at(p, cp_ps_pos(p), err, "statement nested too deeply (more than %d levels)",
                          CP_SQL_MAX_DEPTH);
  p->depth++;
  return PAIMON_OK;
}

/* ---- names and strings ---------------------------------------------------------------------- */

int cp_ps_ident(cp_sql_parser *p, const char **out, cp_sql_pos *pos, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind == CP_TOK_QIDENT && t->text_len == 0)
    return cp_ps_error_at(p, cp_ps_pos(p), err, "empty quoted identifier");
  if (t->kind != CP_TOK_QIDENT && (t->kind != CP_TOK_IDENT || cp_ps_reserved(t)))
    return cp_ps_error(p, "an identifier", err);
  if (pos) *pos = cp_ps_pos(p);
  cp_ps_next(p);
  *out = cp_ps_strdup(p, t->text, t->text_len, err);
  return *out ? PAIMON_OK : PAIMON_ENOMEM;
}

int cp_ps_qualified_name(cp_sql_parser *p, size_t max_parts, cp_sql_name *out, paimon_error *err) {
  cp_ps_vec v = {0};
  out->pos = cp_ps_pos(p);
  int rc = PAIMON_OK;
  do {
    const char *id;
    rc = cp_ps_ident(p, &id, NULL, err);
    if (!rc && v.n == max_parts)
      rc = cp_ps_error_at(p, out->pos, err, "name has more than %zu parts", max_parts);
    if (!rc) rc = cp_ps_vec_push(&v, (void *)id, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_DOT));
  out->n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)&out->parts, err);
  cp_ps_vec_free(&v);
  return rc;
}

int cp_ps_string(cp_sql_parser *p, const char **out, size_t *len, paimon_error *err) {
  if (!cp_ps_is(p, CP_TOK_STRING)) return cp_ps_error(p, "a string literal", err);
  const cp_sql_token *t = cp_ps_next(p);
  if (!cp_ps_is(p, CP_TOK_STRING)) {
    *len = t->text_len;
    *out = cp_ps_strdup(p, t->text, t->text_len, err);
    return *out ? PAIMON_OK : PAIMON_ENOMEM;
  }
  cp_buf b = CP_BUF_INIT;
  int rc = cp_buf_append(&b, t->text, t->text_len, err);
  while (!rc && cp_ps_is(p, CP_TOK_STRING)) {
    t = cp_ps_next(p);
    rc = cp_buf_append(&b, t->text, t->text_len, err);
  }
  if (!rc) {
    *len = b.len;
    *out = cp_ps_strdup(p, (const char *)b.data, b.len, err);
    if (!*out) rc = PAIMON_ENOMEM;
  }
  cp_buf_free(&b);
  return rc;
}

/* ---- statements ----------------------------------------------------------------------------- */

int cp_sql_parser_new(cp_sql_parser **out, const char *src, size_t len, paimon_error *err) {
  cp_sql_parser *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "SQL parser");
  int rc = cp_sql_lex(src, len, &p->toks, err);
  if (rc && p->toks.count == 0) {
    cp_sql_tokens_free(&p->toks);
    free(p);
    return rc == PAIMON_ENOMEM ? rc : rc;
  }
  if (err) paimon_error_clear(err);
  *out = p;
  return PAIMON_OK;
}

void cp_sql_parser_free(cp_sql_parser *p) {
  if (!p) return;
  cp_sql_tokens_free(&p->toks);
  free(p);
}

cp_sql_pos cp_sql_parser_pos(const cp_sql_parser *p) { return cp_ps_pos(p); }

void cp_sql_stmt_free(cp_sql_stmt *stmt) {
  if (!stmt) return;
  cp_arena_free(&stmt->arena);
  free(stmt);
}

static int dispatch(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  if (cp_ps_kw(p, "select") || cp_ps_kw(p, "with") || cp_ps_starts_subquery(p)) {
    s->kind = CP_SQL_S_SELECT;
    return cp_ps_query(p, &s->query, err);
  }
  if (cp_ps_kw(p, "insert")) return cp_ps_insert(p, err);
  if (cp_ps_kw(p, "update")) return cp_ps_update(p, err);
  if (cp_ps_kw(p, "delete")) return cp_ps_delete(p, err);
  if (cp_ps_kw(p, "merge")) return cp_ps_merge(p, err);
  if (cp_ps_kw(p, "create")) return cp_ps_create(p, err);
  if (cp_ps_kw(p, "drop")) return cp_ps_drop(p, err);
  if (cp_ps_kw(p, "alter")) return cp_ps_alter(p, err);
  if (cp_ps_kw(p, "truncate")) return cp_ps_truncate(p, err);
  if (cp_ps_kw(p, "call")) return cp_ps_call(p, err);
  if (cp_ps_kw(p, "use") || cp_ps_kw(p, "show") || cp_ps_kw(p, "describe") || cp_ps_kw(p, "desc"))
    return cp_ps_use_show_describe(p, err);
  return cp_ps_error(
      p,
      "a statement (SELECT, INSERT, UPDATE, DELETE, MERGE, CREATE, DROP, ALTER, TRUNCATE, CALL, "
      "USE, SHOW or DESCRIBE)",
      err);
}

/* Moves past the rest of a failed statement, up to and including its ';'. */
static void skip_statement(cp_sql_parser *p) {
  while (!cp_ps_is(p, CP_TOK_EOF) && !cp_ps_is(p, CP_TOK_SEMI)) cp_ps_next(p);
  cp_ps_accept(p, CP_TOK_SEMI);
}

int cp_sql_parse_next(cp_sql_parser *p, cp_sql_stmt **out, paimon_error *err) {
  *out = NULL;
  while (cp_ps_accept(p, CP_TOK_SEMI)) {
  }
  if (cp_ps_is(p, CP_TOK_EOF)) {
    if (!p->toks.failed) return PAIMON_OK;
    if (err) *err = p->toks.error;
    p->toks.failed = false; /* reported once */
    return p->toks.error.code ? p->toks.error.code : PAIMON_EINVAL;
  }
  cp_sql_stmt *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "SQL statement");
  const cp_sql_token *first = cp_ps_peek(p);
  s->pos.line = first->line;
  s->pos.col = first->col;
  s->text_start = first->offset;
  p->stmt = s;
  p->depth = 0;
  p->ctes = NULL;
  p->weight = 0;
  int rc = dispatch(p, err);
  if (!rc && !cp_ps_is(p, CP_TOK_SEMI) && !cp_ps_is(p, CP_TOK_EOF))
    rc = cp_ps_error(p, "';' or the end of the statement", err);
  if (!rc && cp_ps_is(p, CP_TOK_EOF) && p->toks.failed) rc = cp_ps_error(p, "';'", err);
  if (!rc) {
    s->text_end = p->i > 0 ? p->toks.items[p->i - 1].end : s->text_start;
    cp_ps_accept(p, CP_TOK_SEMI);
    *out = s;
  } else {
    if (!(cp_ps_is(p, CP_TOK_EOF) && p->toks.failed))
      skip_statement(p);
    else
      p->toks.failed = false;
    cp_sql_stmt_free(s);
  }
  p->stmt = NULL;
  return rc;
}

void cp_sql_stmts_free(cp_sql_stmt **stmts, size_t n) {
  for (size_t i = 0; stmts && i < n; i++) cp_sql_stmt_free(stmts[i]);
  free(stmts);
}

int cp_sql_parse(const char *src, size_t len, cp_sql_stmt ***out, size_t *n, paimon_error *err) {
  *out = NULL;
  *n = 0;
  cp_sql_parser *p = NULL;
  CP_RETURN_IF_ERROR(cp_sql_parser_new(&p, src, len, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  for (;;) {
    cp_sql_stmt *s = NULL;
    rc = cp_sql_parse_next(p, &s, err);
    if (rc || !s) break;
    rc = cp_ps_vec_push(&v, s, err);
    if (rc) {
      cp_sql_stmt_free(s);
      break;
    }
  }
  cp_sql_parser_free(p);
  if (rc) {
    cp_sql_stmts_free((cp_sql_stmt **)v.items, v.n);
    return rc;
  }
  *out = (cp_sql_stmt **)v.items;
  *n = v.n;
  return PAIMON_OK;
}

int cp_sql_parse_expr(const char *src, size_t len, cp_sql_stmt **owner, cp_sql_expr **out,
                      paimon_error *err) {
  *owner = NULL;
  *out = NULL;
  cp_sql_parser *p = NULL;
  CP_RETURN_IF_ERROR(cp_sql_parser_new(&p, src, len, err));
  cp_sql_stmt *s = calloc(1, sizeof *s);
  int rc = s ? PAIMON_OK : CP_ENOMEM(err, "SQL statement");
  if (!rc) {
    p->stmt = s;
    rc = cp_ps_expr(p, out, err);
    cp_ps_accept(p, CP_TOK_SEMI);
    if (!rc && !cp_ps_is(p, CP_TOK_EOF)) rc = cp_ps_error(p, "the end of the expression", err);
    if (!rc && p->toks.failed) rc = cp_ps_error(p, "the end of the expression", err);
  }
  cp_sql_parser_free(p);
  if (rc) {
    cp_sql_stmt_free(s);
    *out = NULL;
    return rc;
  }
  *owner = s;
  return PAIMON_OK;
}
