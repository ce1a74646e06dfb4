/*
 * The SQL lexer (lexer.h): one pass over the input, tokens into a growing array, decoded texts in
 * an arena. Spark's lexer rules (SqlBaseLexer.g4, unescapeSQLString) decide what a token is: a
 * string has no doubled-quote escape ('it''s' is two literals, which the parser joins: "its").
 */
#include "sql/lexer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"

typedef struct lexer {
  const char *src;
  size_t len;
  size_t pos;
  int line;
  size_t line_start; /* offset of the current line's first byte */
  cp_sql_tokens *out;
  size_t cap;
  bool bad; /* a bad token was seen (first_error says which) */
  paimon_error first_error;
} lexer;

static int lex_error(lexer *lx, size_t at, paimon_error *err, const char *what) {
  /* From the lexer's own line count where it can (a scan from the start for every bad byte made
   * a run of them quadratic), counting any newline between the position and `at`. */
  int line = lx->line;
  size_t line_start = lx->line_start, from = lx->pos;
  if (at < line_start) line = 1, line_start = 0, from = 0; /* a token that spans lines */
  for (size_t i = from; i < at && i < lx->len; i++)
    if (lx->src[i] == '\n') line++, line_start = i + 1;
  return paimon_error_set(err, PAIMON_EINVAL, "line %d:%zu: %s", line, at - line_start + 1, what);
}

static int push(lexer *lx, cp_sql_tok_kind kind, size_t start, int line, int col, const char *text,
                size_t text_len, paimon_error *err);
static void advance(lexer *lx, size_t n);

/* A bad token from `start` to `end` (exclusive): an error token the parser reports when it
 * reaches it, so that the statements before it still run and lexing goes on after it. */
static int bad_token(lexer *lx, size_t start, size_t at, size_t end, const char *what,
                     paimon_error *err) {
  paimon_error e;
  lex_error(lx, at, &e, what);
  if (!lx->bad) lx->first_error = e;
  lx->bad = true;
  int line = lx->line, col = (int)(start - lx->line_start + 1);
  advance(lx, end - lx->pos);
  return push(lx, CP_TOK_ERROR, start, line, col, e.message, strlen(e.message), err);
}

static void advance(lexer *lx, size_t n) {
  for (size_t i = 0; i < n && lx->pos < lx->len; i++) {
    if (lx->src[lx->pos] == '\n') {
      lx->line++;
      lx->line_start = lx->pos + 1;
    }
    lx->pos++;
  }
}

static int peek(const lexer *lx, size_t ahead) {
  return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static int push(lexer *lx, cp_sql_tok_kind kind, size_t start, int line, int col, const char *text,
                size_t text_len, paimon_error *err) {
  cp_sql_tokens *t = lx->out;
  if (t->count == lx->cap) {
    size_t cap = lx->cap ? lx->cap * 2 : 64;
    cp_sql_token *items = realloc(t->items, cap * sizeof *items);
    if (!items) return CP_ENOMEM(err, "SQL tokens");
    t->items = items;
    lx->cap = cap;
  }
  cp_sql_token *tok = &t->items[t->count];
  char *copy = cp_arena_strndup(&t->arena, text ? text : "", text ? text_len : 0);
  if (!copy) return CP_ENOMEM(err, "SQL tokens");
  tok->kind = kind;
  tok->line = line;
  tok->col = col;
  tok->offset = start;
  tok->end = lx->pos;
  tok->text = copy;
  tok->text_len = text ? text_len : 0;
  t->count++;
  return PAIMON_OK;
}

/* Skips whitespace and comments; EINVAL for an unterminated block comment. */
static int skip_space(lexer *lx, paimon_error *err) {
  for (;;) {
    int c = peek(lx, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance(lx, 1);
    } else if (c == '-' && peek(lx, 1) == '-') {
      while (lx->pos < lx->len && lx->src[lx->pos] != '\n') advance(lx, 1);
    } else if (c == '/' && peek(lx, 1) == '*') {
      size_t start = lx->pos;
      int depth = 0;
      do {
        if (lx->pos >= lx->len) return lex_error(lx, start, err, "unterminated comment");
        if (peek(lx, 0) == '/' && peek(lx, 1) == '*') {
          depth++;
          advance(lx, 2);
        } else if (peek(lx, 0) == '*' && peek(lx, 1) == '/') {
          depth--;
          advance(lx, 2);
        } else {
          advance(lx, 1);
        }
      } while (depth > 0);
    } else {
      return PAIMON_OK;
    }
  }
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Appends code point `cp` as UTF-8. */
static int append_utf8(cp_buf *b, uint32_t cp, paimon_error *err) {
  uint8_t u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (uint8_t)cp;
    n = 1;
  } else if (cp < 0x800) {
    u[0] = (uint8_t)(0xC0 | (cp >> 6));
    u[1] = (uint8_t)(0x80 | (cp & 0x3F));
    n = 2;
  } else {
    u[0] = (uint8_t)(0xE0 | (cp >> 12));
    u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (uint8_t)(0x80 | (cp & 0x3F));
    n = 3;
  }
  return cp_buf_append(b, u, n, err);
}

/* One backslash escape at lx->pos (just after the backslash) into `b`. */
static int lex_escape(lexer *lx, cp_buf *b, paimon_error *err) {
  int c = peek(lx, 0);
  if (c == 'u' && hexval(peek(lx, 1)) >= 0 && hexval(peek(lx, 2)) >= 0 &&
      hexval(peek(lx, 3)) >= 0 && hexval(peek(lx, 4)) >= 0) {
    uint32_t cp = 0;
    for (size_t k = 1; k <= 4; k++) cp = cp * 16 + (uint32_t)hexval(peek(lx, k));
    advance(lx, 5);
    return append_utf8(b, cp, err);
  }
  if (c >= '0' && c <= '3' && peek(lx, 1) >= '0' && peek(lx, 1) <= '7' && peek(lx, 2) >= '0' &&
      peek(lx, 2) <= '7') {
    uint8_t v = (uint8_t)((c - '0') * 64 + (peek(lx, 1) - '0') * 8 + (peek(lx, 2) - '0'));
    advance(lx, 3);
    return cp_buf_append(b, &v, 1, err);
  }
  char ch;
  switch (c) {
  case '0': ch = '\0'; break;
  case 'b': ch = '\b'; break;
  case 'n': ch = '\n'; break;
  case 'r': ch = '\r'; break;
  case 't': ch = '\t'; break;
  case 'Z': ch = 26; break;
  case '%':
  case '_': CP_RETURN_IF_ERROR(cp_buf_append(b, "\\", 1, err)); /* fall through */
  default: ch = (char)c; break;
  }
  advance(lx, 1);
  return cp_buf_append(b, &ch, 1, err);
}

/* A quoted string or identifier starting at the quote character `q`. */
static int lex_quoted(lexer *lx, char q, cp_sql_tok_kind kind, paimon_error *err) {
  size_t start = lx->pos;
  int line = lx->line, col = (int)(lx->pos - lx->line_start + 1);
  cp_buf b = CP_BUF_INIT;
  int rc = PAIMON_OK;
  advance(lx, 1);
  for (;;) {
    if (lx->pos >= lx->len) {
      rc = lex_error(lx, start, err,
                     kind == CP_TOK_QIDENT ? "unterminated quoted identifier"
                                           : "unterminated string literal");
      break;
    }
    char c = lx->src[lx->pos];
    if (c == q) {
      /* A doubled back quote is one in an identifier; in a string it ends the literal, and the
       * next one starts another that the parser joins to it (Spark: 'it''s' is "its"). */
      if (kind == CP_TOK_QIDENT && peek(lx, 1) == q) {
        advance(lx, 2);
        rc = cp_buf_append(&b, &q, 1, err);
        if (rc) break;
        continue;
      }
      advance(lx, 1);
      break;
    }
    if (c == '\0' && kind == CP_TOK_QIDENT) {
      /* Names are C strings everywhere below (catalog, files): a NUL would cut them short. */
      rc = lex_error(lx, start, err, "quoted identifier contains a NUL byte");
      break;
    }
    if (c == '\\' && kind == CP_TOK_STRING && lx->pos + 1 < lx->len) {
      advance(lx, 1);
      rc = lex_escape(lx, &b, err);
    } else {
      advance(lx, 1);
      rc = cp_buf_append(&b, &c, 1, err);
    }
    if (rc) break;
  }
  if (!rc) rc = push(lx, kind, start, line, col, b.data ? (const char *)b.data : "", b.len, err);
  cp_buf_free(&b);
  return rc;
}

static bool ident_char(int c) { return c >= 0 && (isalnum(c) || c == '_'); }

static int lex_number(lexer *lx, paimon_error *err) {
  size_t start = lx->pos;
  int line = lx->line, col = (int)(lx->pos - lx->line_start + 1);
  size_t p = lx->pos;
  const char *s = lx->src;
  while (p < lx->len && isdigit((unsigned char)s[p])) p++;
  if (p < lx->len && s[p] == '.') {
    p++;
    while (p < lx->len && isdigit((unsigned char)s[p])) p++;
  }
  if (p < lx->len && (s[p] == 'e' || s[p] == 'E')) {
    size_t q = p + 1;
    if (q < lx->len && (s[q] == '+' || s[q] == '-')) q++;
    if (q < lx->len && isdigit((unsigned char)s[q])) {
      while (q < lx->len && isdigit((unsigned char)s[q])) q++;
      p = q;
    }
  }
  /* Type suffixes: BD, or one of L S Y D F, when not followed by more identifier characters. */
  if (p + 1 < lx->len && strncasecmp(s + p, "bd", 2) == 0 &&
      !ident_char(p + 2 < lx->len ? (unsigned char)s[p + 2] : -1)) {
    p += 2;
  } else if (p < lx->len && strchr("lLsSyYdDfF", s[p]) &&
             !ident_char(p + 1 < lx->len ? (unsigned char)s[p + 1] : -1)) {
    p++;
  }
  if (p < lx->len && ident_char((unsigned char)s[p])) {
    size_t end = p;
    while (end < lx->len && ident_char((unsigned char)s[end])) end++;
    return bad_token(lx, start, p, end, "invalid number literal", err);
  }
  advance(lx, p - lx->pos);
  return push(lx, CP_TOK_NUMBER, start, line, col, s + start, p - start, err);
}

static int lex_operator(lexer *lx, paimon_error *err) {
  static const struct {
    const char *text;
    cp_sql_tok_kind kind;
  } ops[] = {
      {"<=>", CP_TOK_NSEQ},  {"==", CP_TOK_EQ},      {"<>", CP_TOK_NE},      {"!=", CP_TOK_NE},
      {"<=", CP_TOK_LE},     {">=", CP_TOK_GE},      {"||", CP_TOK_CONCAT},  {"(", CP_TOK_LPAREN},
      {")", CP_TOK_RPAREN},  {",", CP_TOK_COMMA},    {".", CP_TOK_DOT},      {";", CP_TOK_SEMI},
      {"*", CP_TOK_STAR},    {"+", CP_TOK_PLUS},     {"-", CP_TOK_MINUS},    {"/", CP_TOK_SLASH},
      {"%", CP_TOK_PERCENT}, {"=", CP_TOK_EQ},       {"<", CP_TOK_LT},       {">", CP_TOK_GT},
      {":", CP_TOK_COLON},   {"[", CP_TOK_LBRACKET}, {"]", CP_TOK_RBRACKET}, {"~", CP_TOK_TILDE},
      {"&", CP_TOK_AMP},     {"|", CP_TOK_PIPE},     {"^", CP_TOK_CARET}};
  size_t start = lx->pos;
  int line = lx->line, col = (int)(lx->pos - lx->line_start + 1);
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    size_t n = strlen(ops[i].text);
    if (lx->len - lx->pos >= n && memcmp(lx->src + lx->pos, ops[i].text, n) == 0) {
      advance(lx, n);
      return push(lx, ops[i].kind, start, line, col, ops[i].text, n, err);
    }
  }
  unsigned char c = (unsigned char)lx->src[lx->pos];
  char what[64];
  if (c >= 0x20 && c < 0x7f)
    snprintf(what, sizeof what, "unexpected character '%c'", c);
  else
    snprintf(what, sizeof what, "unexpected byte 0x%02X", c);
  (void)line;
  (void)col;
  return bad_token(lx, start, start, start + 1, what, err);
}

static int lex_one(lexer *lx, paimon_error *err) {
  int c = peek(lx, 0);
  if ((c == 'x' || c == 'X') && peek(lx, 1) == '\'') {
    size_t start = lx->pos;
    int line = lx->line, col = (int)(lx->pos - lx->line_start + 1);
    size_t p = lx->pos + 2, bad = 0;
    while (p < lx->len && lx->src[p] != '\'') {
      if (hexval((unsigned char)lx->src[p]) < 0 && !bad) bad = p;
      p++;
    }
    if (p >= lx->len) return lex_error(lx, start, err, "unterminated binary literal");
    if (bad)
      return bad_token(lx, start, bad, p + 1, "invalid hexadecimal digit in binary literal", err);
    size_t digits = p - lx->pos - 2;
    advance(lx, p + 1 - lx->pos);
    return push(lx, CP_TOK_HEX, start, line, col, lx->src + start + 2, digits, err);
  }
  if (c == '_' || isalpha(c)) {
    size_t start = lx->pos;
    int line = lx->line, col = (int)(lx->pos - lx->line_start + 1);
    /* '$' inside a word names a system table (t$snapshots), as Flink's lexer allows; Spark needs
     * back quotes there, which work too. */
    while (ident_char(peek(lx, 0)) || peek(lx, 0) == '$') advance(lx, 1);
    return push(lx, CP_TOK_IDENT, start, line, col, lx->src + start, lx->pos - start, err);
  }
  if (isdigit(c) || (c == '.' && peek(lx, 1) >= 0 && isdigit(peek(lx, 1))))
    return lex_number(lx, err);
  if (c == '\'' || c == '"') return lex_quoted(lx, (char)c, CP_TOK_STRING, err);
  if (c == '`') return lex_quoted(lx, '`', CP_TOK_QIDENT, err);
  return lex_operator(lx, err);
}

int cp_sql_lex(const char *src, size_t len, cp_sql_tokens *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  lexer lx;
  memset(&lx, 0, sizeof lx);
  lx.src = src;
  lx.len = len;
  lx.line = 1;
  lx.out = out;
  int rc = PAIMON_OK;
  for (;;) {
    rc = skip_space(&lx, err);
    if (rc) break;
    if (lx.pos >= len) {
      rc = push(&lx, CP_TOK_EOF, lx.pos, lx.line, (int)(lx.pos - lx.line_start + 1), "", 0, err);
      break;
    }
    rc = lex_one(&lx, err);
    if (rc) break;
  }
  if (!rc && lx.bad) {
    /* Tokens are complete; the first bad token is the call's error. */
    if (err) *err = lx.first_error;
    rc = lx.first_error.code ? lx.first_error.code : PAIMON_EINVAL;
    return rc;
  }
  if (rc) {
    /* Keep what was lexed, ended by an EOF token where lexing stopped, so that the statements
     * before the bad spot can still run; the parser reports `error` when it reaches that EOF. */
    out->failed = true;
    if (err)
      out->error = *err;
    else
      out->error.code = rc;
    int col = (int)(lx.pos - lx.line_start + 1);
    if (rc == PAIMON_ENOMEM || push(&lx, CP_TOK_EOF, lx.pos, lx.line, col, "", 0, NULL) != 0) {
      free(out->items);
      out->items = NULL;
      out->count = 0;
    }
  }
  return rc;
}

void cp_sql_tokens_free(cp_sql_tokens *t) {
  if (!t) return;
  free(t->items);
  cp_arena_free(&t->arena);
  memset(t, 0, sizeof *t);
}

const char *cp_sql_tok_kind_name(cp_sql_tok_kind kind) {
  switch (kind) {
  case CP_TOK_EOF: return "end of input";
  case CP_TOK_IDENT: return "identifier";
  case CP_TOK_QIDENT: return "quoted identifier";
  case CP_TOK_STRING: return "string literal";
  case CP_TOK_NUMBER: return "number";
  case CP_TOK_HEX: return "binary literal";
  case CP_TOK_LPAREN: return "'('";
  case CP_TOK_RPAREN: return "')'";
  case CP_TOK_COMMA: return "','";
  case CP_TOK_DOT: return "'.'";
  case CP_TOK_SEMI: return "';'";
  case CP_TOK_STAR: return "'*'";
  case CP_TOK_PLUS: return "'+'";
  case CP_TOK_MINUS: return "'-'";
  case CP_TOK_SLASH: return "'/'";
  case CP_TOK_PERCENT: return "'%'";
  case CP_TOK_EQ: return "'='";
  case CP_TOK_NE: return "'<>'";
  case CP_TOK_LT: return "'<'";
  case CP_TOK_LE: return "'<='";
  case CP_TOK_GT: return "'>'";
  case CP_TOK_GE: return "'>='";
  case CP_TOK_NSEQ: return "'<=>'";
  case CP_TOK_CONCAT: return "'||'";
  case CP_TOK_COLON: return "':'";
  case CP_TOK_LBRACKET: return "'['";
  case CP_TOK_RBRACKET: return "']'";
  case CP_TOK_TILDE: return "'~'";
  case CP_TOK_AMP: return "'&'";
  case CP_TOK_PIPE: return "'|'";
  case CP_TOK_CARET: return "'^'";
  case CP_TOK_ERROR: return "invalid token";
  }
  return "token";
}

bool cp_sql_reserved_word(const char *word) {
  static const char *const words[] = {
      "all",   "and",    "as",        "between", "by",   "case", "cross",   "distinct",
      "else",  "end",    "except",    "false",   "from", "full", "group",   "having",
      "in",    "inner",  "intersect", "into",    "is",   "join", "lateral", "left",
      "like",  "limit",  "minus",     "natural", "not",  "null", "on",      "or",
      "order", "outer",  "right",     "select",  "set",  "then", "true",    "union",
      "using", "values", "when",      "where",   "with"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcasecmp(word, words[i]) == 0) return true;
  return false;
}

bool cp_sql_tok_is(const cp_sql_token *tok, const char *word) {
  return tok->kind == CP_TOK_IDENT && strcasecmp(tok->text, word) == 0;
}

bool cp_sql_input_complete(const char *src, size_t len) {
  cp_sql_tokens t;
  if (cp_sql_lex(src, len, &t, NULL) != 0 && t.failed) {
    cp_sql_tokens_free(&t);
    return false;
  }
  bool complete = t.count >= 2 && t.items[t.count - 2].kind == CP_TOK_SEMI;
  cp_sql_tokens_free(&t);
  return complete;
}
