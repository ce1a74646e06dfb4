/*
 * Type strings (type_sql.h): a recursive-descent parser over a small hand-written lexer, and the
 * asSQLString printer (spec/format.md §2.2; grammar facts from Java DataTypeJsonParser and the
 * asSQLString/FORMAT of each org.apache.paimon.types class).
 *
 * The parser never allocates in proportion to anything but the tree it returns, bounds its
 * recursion by CP_TYPE_MAX_DEPTH, and reports the byte offset of the token it stopped at.
 */
#include "types/type_sql.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"

typedef enum tok_kind {
  TK_END,
  TK_WORD,   /* keyword or plain identifier */
  TK_QIDENT, /* `quoted identifier` */
  TK_STRING, /* 'string literal' */
  TK_INT,    /* unsigned decimal integer */
  TK_PUNCT,  /* one of < > ( ) , : */
  TK_BAD     /* a byte that starts no token, or an unterminated quote */
} tok_kind;

typedef struct token {
  tok_kind kind;
  size_t pos; /* offset of the first byte */
  size_t len; /* bytes in the source, quotes included */
  int64_t ival;
} token;

typedef struct parser {
  const char *text;
  size_t len;
  size_t cursor; /* where the lexer resumes after `tok` */
  token tok;     /* the lookahead */
  int32_t next_id;
  paimon_error *err;
} parser;

/* ---- lexer --------------------------------------------------------------------------------- */

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_punct(char c) {
  return c == '<' || c == '>' || c == '(' || c == ')' || c == ',' || c == ':';
}

static bool is_word_byte(char c) {
  return !is_space(c) && !is_punct(c) && c != '\'' && c != '`' && c != '.' && c != '\0';
}

/* Scans a quoted token whose quote doubles as its own escape ('it''s', `a``b`). A NUL byte ends
 * it as malformed: names and comments become C strings. */
static void lex_quoted(parser *p, token *t, char q) {
  size_t i = t->pos + 1;
  while (i < p->len && p->text[i] != '\0') {
    if (p->text[i] == q) {
      if (i + 1 < p->len && p->text[i + 1] == q) {
        i += 2;
        continue;
      }
      t->len = i + 1 - t->pos;
      return;
    }
    i++;
  }
  t->kind = TK_BAD; /* unterminated */
  t->len = p->len - t->pos;
}

static void lex(parser *p) {
  size_t i = p->cursor;
  while (i < p->len && is_space(p->text[i])) i++;
  token t = {TK_END, i, 0, 0};
  if (i >= p->len) {
    p->tok = t;
    p->cursor = i;
    return;
  }
  char c = p->text[i];
  if (c >= '0' && c <= '9') {
    t.kind = TK_INT;
    size_t j = i;
    while (j < p->len && p->text[j] >= '0' && p->text[j] <= '9') {
      /* Saturate: any value above INT32_MAX is out of range for every type parameter. */
      if (t.ival <= INT32_MAX) t.ival = t.ival * 10 + (p->text[j] - '0');
      j++;
    }
    t.len = j - i;
  } else if (is_punct(c)) {
    t.kind = TK_PUNCT;
    t.len = 1;
  } else if (c == '\'' || c == '`') {
    t.kind = c == '\'' ? TK_STRING : TK_QIDENT;
    lex_quoted(p, &t, c);
  } else if (is_word_byte(c)) {
    t.kind = TK_WORD;
    size_t j = i;
    while (j < p->len && is_word_byte(p->text[j])) j++;
    t.len = j - i;
  } else {
    t.kind = TK_BAD;
    t.len = 1;
  }
  p->tok = t;
  p->cursor = t.pos + t.len;
}

static bool tok_is_word(const parser *p, const char *kw) {
  size_t n = strlen(kw);
  return p->tok.kind == TK_WORD && p->tok.len == n && strncasecmp(p->text + p->tok.pos, kw, n) == 0;
}

static bool tok_is_punct(const parser *p, char c) {
  return p->tok.kind == TK_PUNCT && p->text[p->tok.pos] == c;
}

/* ---- errors -------------------------------------------------------------------------------- */

/* Sets an error "type '<text>' at offset <pos>: <message>"; long inputs are shortened. */
static int fail_at(parser *p, int code, size_t pos, const char *fmt, ...) PAIMON_PRINTF(4, 5);

static int fail_at(parser *p, int code, size_t pos, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  int shown = p->len > 120 ? 120 : (int)p->len;
  return paimon_error_set(p->err, code, "type '%.*s%s' at offset %zu: %s", shown, p->text,
                          p->len > 120 ? "..." : "", pos, msg);
}

/* "expected X" plus what was found instead, unless the input simply ended. */
static int expected(parser *p, const char *what) {
  if (p->tok.kind == TK_END) return fail_at(p, PAIMON_EINVAL, p->tok.pos, "expected %s", what);
  if (p->tok.kind == TK_BAD && p->tok.len > 1)
    return fail_at(p, PAIMON_EINVAL, p->tok.pos, "expected %s, found an unterminated quote", what);
  int shown = p->tok.len > 40 ? 40 : (int)p->tok.len;
  return fail_at(p, PAIMON_EINVAL, p->tok.pos, "expected %s, found '%.*s'", what, shown,
                 p->text + p->tok.pos);
}

static int expect_punct(parser *p, char c) {
  if (!tok_is_punct(p, c)) {
    char what[4] = {'\'', c, '\'', 0};
    return expected(p, what);
  }
  lex(p);
  return PAIMON_OK;
}

static int expect_word(parser *p, const char *kw) {
  if (!tok_is_word(p, kw)) return expected(p, kw);
  lex(p);
  return PAIMON_OK;
}

/* Reads an integer token into *v, checking it lies in [lo, hi]; `what` names it in errors. */
static int expect_int(parser *p, const char *what, int64_t lo, int64_t hi, int64_t *v) {
  if (p->tok.kind != TK_INT) {
    char buf[64];
    snprintf(buf, sizeof buf, "an integer %s", what);
    return expected(p, buf);
  }
  if (p->tok.ival < lo || p->tok.ival > hi) {
    int shown = p->tok.len > 20 ? 20 : (int)p->tok.len;
    return fail_at(p, PAIMON_EINVAL, p->tok.pos, "%s %.*s must be between %lld and %lld", what,
                   shown, p->text + p->tok.pos, (long long)lo, (long long)hi);
  }
  *v = p->tok.ival;
  lex(p);
  return PAIMON_OK;
}

/* ---- parser -------------------------------------------------------------------------------- */

static int parse_type(parser *p, int depth, cp_type **out);

/* "(n)" if present, else *v unchanged. */
static int parse_opt_param(parser *p, const char *what, int64_t lo, int64_t hi, int64_t *v) {
  if (!tok_is_punct(p, '(')) return PAIMON_OK;
  lex(p);
  CP_RETURN_IF_ERROR(expect_int(p, what, lo, hi, v));
  return expect_punct(p, ')');
}

static int parse_sized(parser *p, cp_type_kind kind, const char *what, cp_type **out) {
  int64_t n = 1;
  CP_RETURN_IF_ERROR(parse_opt_param(p, what, 1, CP_TYPE_MAX_LENGTH, &n));
  return cp_type_new_sized(out, kind, n, true, p->err);
}

static int parse_decimal(parser *p, cp_type **out) {
  int64_t precision = CP_DECIMAL_DEFAULT_PRECISION, scale = 0;
  if (tok_is_punct(p, '(')) {
    lex(p);
    CP_RETURN_IF_ERROR(expect_int(p, "DECIMAL precision", 1, CP_DECIMAL_MAX_PRECISION, &precision));
    if (tok_is_punct(p, ',')) {
      lex(p);
      CP_RETURN_IF_ERROR(expect_int(p, "DECIMAL scale", 0, precision, &scale));
    }
    CP_RETURN_IF_ERROR(expect_punct(p, ')'));
  }
  return cp_type_new_decimal(out, precision, scale, true, p->err);
}

/* TIME / TIMESTAMP / TIMESTAMP_LTZ with their optional precision and zone clauses. */
static int parse_temporal(parser *p, cp_type_kind kind, cp_type **out) {
  int64_t precision =
      kind == CP_TYPE_TIME ? CP_TIME_DEFAULT_PRECISION : CP_TIMESTAMP_DEFAULT_PRECISION;
  CP_RETURN_IF_ERROR(parse_opt_param(p, "precision", 0, CP_TIMESTAMP_MAX_PRECISION, &precision));
  if (kind != CP_TYPE_TIMESTAMP_LTZ && tok_is_word(p, "WITHOUT")) {
    lex(p);
    CP_RETURN_IF_ERROR(expect_word(p, "TIME"));
    CP_RETURN_IF_ERROR(expect_word(p, "ZONE"));
  } else if (kind == CP_TYPE_TIMESTAMP && tok_is_word(p, "WITH")) {
    lex(p);
    CP_RETURN_IF_ERROR(expect_word(p, "LOCAL"));
    CP_RETURN_IF_ERROR(expect_word(p, "TIME"));
    CP_RETURN_IF_ERROR(expect_word(p, "ZONE"));
    kind = CP_TYPE_TIMESTAMP_LTZ;
  }
  return cp_type_new_precision(out, kind, precision, true, p->err);
}

/* The body of ARRAY<..>, MULTISET<..>, MAP<.., ..> or VECTOR<.., n>, after the keyword. */
static int parse_angle(parser *p, cp_type_kind kind, int depth, cp_type **out) {
  cp_type *a = NULL, *b = NULL;
  int64_t length = 0;
  size_t at = p->tok.pos;
  CP_RETURN_IF_ERROR(expect_punct(p, '<'));
  int rc = parse_type(p, depth + 1, &a);
  if (rc == 0 && (kind == CP_TYPE_MAP || kind == CP_TYPE_VECTOR)) {
    rc = expect_punct(p, ',');
    if (rc == 0 && kind == CP_TYPE_MAP) rc = parse_type(p, depth + 1, &b);
    if (rc == 0 && kind == CP_TYPE_VECTOR)
      rc = expect_int(p, "VECTOR length", 1, CP_TYPE_MAX_LENGTH, &length);
  }
  if (rc == 0) rc = expect_punct(p, '>');
  if (rc != 0) {
    cp_type_free(a);
    cp_type_free(b);
    return rc;
  }
  if (kind == CP_TYPE_MAP) return cp_type_new_map(out, a, b, true, p->err);
  if (kind == CP_TYPE_VECTOR) {
    rc = cp_type_new_vector(out, a, length, true, p->err);
    if (rc != 0) {
      char msg[PAIMON_ERROR_MESSAGE_SIZE];
      snprintf(msg, sizeof msg, "%s", p->err ? p->err->message : "");
      return fail_at(p, rc, at, "%s", msg);
    }
    return rc;
  }
  return cp_type_new_collection(out, kind, a, true, p->err);
}

/* Copies a quoted token's body, collapsing the doubled quote; NULL when out of memory. */
static char *unquote(const parser *p, const token *t) {
  char q = p->text[t->pos];
  char *s = malloc(t->len);
  if (!s) return NULL;
  size_t n = 0;
  for (size_t i = t->pos + 1; i + 1 < t->pos + t->len; i++) {
    s[n++] = p->text[i];
    if (p->text[i] == q) i++;
  }
  s[n] = '\0';
  return s;
}

/* One `name [:] type [COMMENT 'text']` of a ROW; fills *f (zeroed on failure). */
static int parse_field(parser *p, int depth, cp_field *f) {
  memset(f, 0, sizeof *f);
  char *name = NULL, *comment = NULL;
  cp_type *type = NULL;
  int rc = 0;
  if (p->tok.kind == TK_QIDENT) {
    name = unquote(p, &p->tok);
  } else if (p->tok.kind == TK_WORD) {
    name = strndup(p->text + p->tok.pos, p->tok.len);
  } else {
    return expected(p, "a field name");
  }
  if (!name) return CP_ENOMEM(p->err, "ROW field name");
  if (cp_check_utf8(name, strlen(name), "field name", NULL) != 0) {
    free(name);
    return fail_at(p, PAIMON_EINVAL, p->tok.pos, "field name is not valid UTF-8");
  }
  int32_t id = ++p->next_id;
  lex(p);
  if (tok_is_punct(p, ':')) lex(p);
  rc = parse_type(p, depth + 1, &type);
  if (rc == 0 && tok_is_word(p, "COMMENT")) {
    lex(p);
    if (p->tok.kind != TK_STRING) {
      rc = expected(p, "a quoted comment");
    } else {
      comment = unquote(p, &p->tok);
      if (!comment)
        rc = CP_ENOMEM(p->err, "ROW field comment");
      else if (cp_check_utf8(comment, strlen(comment), "comment", NULL) != 0)
        rc = fail_at(p, PAIMON_EINVAL, p->tok.pos, "comment is not valid UTF-8");
      lex(p);
    }
  }
  if (rc == 0)
    rc = cp_field_init(f, id, name, type, comment, NULL, p->err);
  else
    cp_type_free(type);
  free(name);
  free(comment);
  return rc;
}

/* ROW<...>, ROW<>, or Flink's ROW(...), after the keyword. */
static int parse_row(parser *p, int depth, cp_type **out) {
  char close = tok_is_punct(p, '(') ? ')' : '>';
  size_t at = p->tok.pos;
  if (close == '>')
    CP_RETURN_IF_ERROR(expect_punct(p, '<'));
  else
    lex(p);
  cp_field *fields = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  if (!tok_is_punct(p, close)) {
    for (;;) {
      if (n == cap) {
        size_t ncap = cap ? cap * 2 : 8;
        cp_field *nf = realloc(fields, ncap * sizeof *nf);
        if (!nf) {
          rc = CP_ENOMEM(p->err, "ROW fields");
          break;
        }
        fields = nf;
        cap = ncap;
      }
      rc = parse_field(p, depth, &fields[n]);
      if (rc != 0) break;
      n++;
      if (!tok_is_punct(p, ',')) break;
      lex(p);
    }
  }
  if (rc == 0) rc = expect_punct(p, close);
  if (rc != 0) {
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
    free(fields);
    return rc;
  }
  rc = cp_type_new_row(out, fields, n, true, p->err);
  free(fields);
  if (rc != 0) {
    char msg[PAIMON_ERROR_MESSAGE_SIZE];
    snprintf(msg, sizeof msg, "%s", p->err ? p->err->message : "");
    return fail_at(p, rc, at, "%s", msg);
  }
  return PAIMON_OK;
}

typedef struct simple_kw {
  const char *word;
  cp_type_kind kind;
} simple_kw;

static const simple_kw SIMPLE[] = {
    {"BOOLEAN", CP_TYPE_BOOLEAN}, {"TINYINT", CP_TYPE_TINYINT}, {"SMALLINT", CP_TYPE_SMALLINT},
    {"INT", CP_TYPE_INT},         {"INTEGER", CP_TYPE_INT},     {"BIGINT", CP_TYPE_BIGINT},
    {"FLOAT", CP_TYPE_FLOAT},     {"DATE", CP_TYPE_DATE},       {"VARIANT", CP_TYPE_VARIANT},
    {"BLOB", CP_TYPE_BLOB},
};

static const char *const UNSUPPORTED[] = {"INTERVAL", "RAW",       "LEGACY",
                                          "GEOMETRY", "GEOGRAPHY", "BLOB_REF"};

/* The type named by the current word, without its nullability. */
static int parse_base(parser *p, int depth, cp_type **out) {
  *out = NULL;
  if (depth > CP_TYPE_MAX_DEPTH)
    return fail_at(p, PAIMON_EINVAL, p->tok.pos, "type nested deeper than %d levels",
                   CP_TYPE_MAX_DEPTH);
  if (p->tok.kind != TK_WORD) return expected(p, "a type name");
  size_t at = p->tok.pos;
  for (size_t i = 0; i < sizeof SIMPLE / sizeof SIMPLE[0]; i++)
    if (tok_is_word(p, SIMPLE[i].word)) {
      lex(p);
      return cp_type_new(out, SIMPLE[i].kind, true, p->err);
    }
  if (tok_is_word(p, "DOUBLE")) {
    lex(p);
    if (tok_is_word(p, "PRECISION")) lex(p);
    return cp_type_new(out, CP_TYPE_DOUBLE, true, p->err);
  }
  if (tok_is_word(p, "STRING") || tok_is_word(p, "BYTES")) {
    cp_type_kind kind = tok_is_word(p, "STRING") ? CP_TYPE_VARCHAR : CP_TYPE_VARBINARY;
    lex(p);
    return cp_type_new_sized(out, kind, CP_TYPE_MAX_LENGTH, true, p->err);
  }
  static const simple_kw SIZED[] = {{"CHAR", CP_TYPE_CHAR},
                                    {"VARCHAR", CP_TYPE_VARCHAR},
                                    {"BINARY", CP_TYPE_BINARY},
                                    {"VARBINARY", CP_TYPE_VARBINARY}};
  for (size_t i = 0; i < 4; i++)
    if (tok_is_word(p, SIZED[i].word)) {
      lex(p);
      return parse_sized(p, SIZED[i].kind, "length", out);
    }
  if (tok_is_word(p, "DECIMAL") || tok_is_word(p, "NUMERIC") || tok_is_word(p, "DEC")) {
    lex(p);
    return parse_decimal(p, out);
  }
  static const simple_kw TEMPORAL[] = {{"TIME", CP_TYPE_TIME},
                                       {"TIMESTAMP", CP_TYPE_TIMESTAMP},
                                       {"TIMESTAMP_LTZ", CP_TYPE_TIMESTAMP_LTZ}};
  for (size_t i = 0; i < 3; i++)
    if (tok_is_word(p, TEMPORAL[i].word)) {
      lex(p);
      return parse_temporal(p, TEMPORAL[i].kind, out);
    }
  static const simple_kw NESTED[] = {{"ARRAY", CP_TYPE_ARRAY},
                                     {"MULTISET", CP_TYPE_MULTISET},
                                     {"MAP", CP_TYPE_MAP},
                                     {"VECTOR", CP_TYPE_VECTOR}};
  for (size_t i = 0; i < 4; i++)
    if (tok_is_word(p, NESTED[i].word)) {
      lex(p);
      return parse_angle(p, NESTED[i].kind, depth, out);
    }
  if (tok_is_word(p, "ROW")) {
    lex(p);
    return parse_row(p, depth, out);
  }
  int shown = p->tok.len > 40 ? 40 : (int)p->tok.len;
  for (size_t i = 0; i < sizeof UNSUPPORTED / sizeof UNSUPPORTED[0]; i++)
    if (tok_is_word(p, UNSUPPORTED[i]))
      return fail_at(p, PAIMON_EUNSUPPORTED, at, "type %.*s is not supported by cpaimon", shown,
                     p->text + at);
  return fail_at(p, PAIMON_EINVAL, at, "unknown type '%.*s'", shown, p->text + at);
}

/* "NOT NULL" -> false, "NULL" or nothing -> true. */
static int parse_nullability(parser *p, bool *nullable) {
  *nullable = true;
  if (tok_is_word(p, "NOT")) {
    lex(p);
    CP_RETURN_IF_ERROR(expect_word(p, "NULL"));
    *nullable = false;
  } else if (tok_is_word(p, "NULL")) {
    lex(p);
  }
  return PAIMON_OK;
}

static int parse_type(parser *p, int depth, cp_type **out) {
  cp_type *t = NULL;
  bool nullable;
  CP_RETURN_IF_ERROR(parse_base(p, depth, &t));
  int rc = parse_nullability(p, &nullable);
  t->nullable = nullable;
  while (rc == 0 && (tok_is_word(p, "ARRAY") || tok_is_word(p, "MULTISET"))) {
    cp_type_kind kind = tok_is_word(p, "ARRAY") ? CP_TYPE_ARRAY : CP_TYPE_MULTISET;
    if (++depth > CP_TYPE_MAX_DEPTH) {
      rc = fail_at(p, PAIMON_EINVAL, p->tok.pos, "type nested deeper than %d levels",
                   CP_TYPE_MAX_DEPTH);
      break;
    }
    lex(p);
    cp_type *wrapped = NULL;
    rc = cp_type_new_collection(&wrapped, kind, t, true, p->err);
    t = wrapped; /* the element was consumed either way */
    if (rc == 0) rc = parse_nullability(p, &nullable);
    if (rc == 0) t->nullable = nullable;
  }
  if (rc != 0) {
    cp_type_free(t);
    return rc;
  }
  *out = t;
  return PAIMON_OK;
}

int cp_type_parse_n(const char *text, size_t len, cp_type **out, paimon_error *err) {
  *out = NULL;
  parser p = {text, len, 0, {TK_END, 0, 0, 0}, -1, err};
  lex(&p);
  if (p.tok.kind == TK_END) return fail_at(&p, PAIMON_EINVAL, p.tok.pos, "expected a type name");
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(parse_type(&p, 0, &t));
  if (p.tok.kind != TK_END) {
    cp_type_free(t);
    return expected(&p, "end of type");
  }
  *out = t;
  return PAIMON_OK;
}

int cp_type_parse(const char *text, cp_type **out, paimon_error *err) {
  return cp_type_parse_n(text, strlen(text), out, err);
}

/* ---- printer ------------------------------------------------------------------------------- */

/* Appends `s` between `q` quotes with every `q` doubled (Java escapeIdentifier /
 * escapeSingleQuotes). */
static int append_quoted(cp_buf *out, const char *s, char q, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(out, &q, 1, err));
  for (const char *c = s; *c; c++) {
    CP_RETURN_IF_ERROR(cp_buf_append(out, c, 1, err));
    if (*c == q) CP_RETURN_IF_ERROR(cp_buf_append(out, &q, 1, err));
  }
  return cp_buf_append(out, &q, 1, err);
}

int cp_field_append_sql(const cp_field *f, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(append_quoted(out, f->name, '`', err));
  CP_RETURN_IF_ERROR(cp_buf_append(out, " ", 1, err));
  CP_RETURN_IF_ERROR(cp_type_append_sql(f->type, out, err));
  if (f->description && f->description[0]) {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " COMMENT "));
    CP_RETURN_IF_ERROR(append_quoted(out, f->description, '\'', err));
  }
  if (f->default_value)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " DEFAULT %s", f->default_value));
  return PAIMON_OK;
}

static int append_nested(const cp_type *t, cp_buf *out, paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s<", cp_type_kind_name(t->kind)));
    CP_RETURN_IF_ERROR(cp_type_append_sql(t->element, out, err));
    return cp_buf_append(out, ">", 1, err);
  case CP_TYPE_VECTOR:
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "VECTOR<"));
    CP_RETURN_IF_ERROR(cp_type_append_sql(t->element, out, err));
    return cp_buf_appendf(out, err, ", %d>", (int)t->length);
  case CP_TYPE_MAP:
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "MAP<"));
    CP_RETURN_IF_ERROR(cp_type_append_sql(t->key, out, err));
    CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
    CP_RETURN_IF_ERROR(cp_type_append_sql(t->value, out, err));
    return cp_buf_append(out, ">", 1, err);
  default:
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "ROW<"));
    for (size_t i = 0; i < t->n_fields; i++) {
      if (i > 0) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
      CP_RETURN_IF_ERROR(cp_field_append_sql(&t->fields[i], out, err));
    }
    return cp_buf_append(out, ">", 1, err);
  }
}

int cp_type_append_sql(const cp_type *t, cp_buf *out, paimon_error *err) {
  if (!t) return paimon_error_set(err, PAIMON_EINVAL, "cannot print a missing type");
  int rc;
  switch (t->kind) {
  case CP_TYPE_DECIMAL:
    rc = cp_buf_appendf(out, err, "DECIMAL(%d, %d)", (int)t->precision, (int)t->scale);
    break;
  case CP_TYPE_VARCHAR:
  case CP_TYPE_VARBINARY:
    if (t->length == CP_TYPE_MAX_LENGTH) {
      rc = cp_buf_appendf(out, err, "%s", t->kind == CP_TYPE_VARCHAR ? "STRING" : "BYTES");
      break;
    }
    /* fall through */
  case CP_TYPE_CHAR:
  case CP_TYPE_BINARY:
    rc = cp_buf_appendf(out, err, "%s(%d)", cp_type_kind_name(t->kind), (int)t->length);
    break;
  case CP_TYPE_TIME:
  case CP_TYPE_TIMESTAMP:
    rc = cp_buf_appendf(out, err, "%s(%d)", cp_type_kind_name(t->kind), (int)t->precision);
    break;
  case CP_TYPE_TIMESTAMP_LTZ:
    rc = cp_buf_appendf(out, err, "TIMESTAMP(%d) WITH LOCAL TIME ZONE", (int)t->precision);
    break;
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
  case CP_TYPE_VECTOR:
  case CP_TYPE_MAP:
  case CP_TYPE_ROW: rc = append_nested(t, out, err); break;
  default: rc = cp_buf_appendf(out, err, "%s", cp_type_kind_name(t->kind)); break;
  }
  if (rc == 0 && !t->nullable) rc = cp_buf_append(out, " NOT NULL", 9, err);
  return rc;
}

int cp_type_to_sql(const cp_type *t, char **out, paimon_error *err) {
  *out = NULL;
  cp_buf b = CP_BUF_INIT;
  int rc = cp_type_append_sql(t, &b, err);
  if (rc == 0) rc = cp_buf_nul_terminate(&b, err);
  if (rc != 0) {
    cp_buf_free(&b);
    return rc;
  }
  *out = (char *)cp_buf_detach(&b);
  return PAIMON_OK;
}
