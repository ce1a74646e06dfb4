/*
 * Data types in SQL text (CAST, CREATE TABLE, ALTER TABLE ADD COLUMN): Paimon's type names
 * (types/type_sql.h, spec/format.md §2.2) and Spark's, mapped the way Paimon's Spark connector
 * maps Spark types (SparkTypeUtils.SparkToPaimonTypeVisitor):
 *
 *   Spark name                       Paimon type
 *   BOOLEAN                          BOOLEAN
 *   TINYINT | BYTE                   TINYINT
 *   SMALLINT | SHORT                 SMALLINT
 *   INT | INTEGER                    INT
 *   BIGINT | LONG                    BIGINT
 *   FLOAT | REAL                     FLOAT
 *   DOUBLE [PRECISION]               DOUBLE
 *   DECIMAL | DEC | NUMERIC [(p[,s])] DECIMAL(p, s), default (10, 0)
 *   STRING                           STRING
 *   CHAR(n) | CHARACTER(n), VARCHAR(n) CHAR(n), VARCHAR(n)
 *   BINARY                           BYTES (Spark's BinaryType; BINARY(n) is Paimon's BINARY(n))
 *   DATE                             DATE
 *   TIMESTAMP                        TIMESTAMP_LTZ(6) (Spark's TimestampType has a time zone)
 *   TIMESTAMP_NTZ                    TIMESTAMP(6)
 *   ARRAY<T>, MAP<K, V>              ARRAY<T>, MAP<K, V>
 *   STRUCT<a: T [NOT NULL] [COMMENT 'c'], ...>  ROW<...>
 *
 * and the Paimon-only forms: VARBINARY(n), BYTES, TIME[(p)], TIMESTAMP(p) (no time zone, as in
 * Paimon), TIMESTAMP[(p)] WITHOUT TIME ZONE, TIMESTAMP[(p)] WITH LOCAL TIME ZONE,
 * TIMESTAMP_LTZ[(p)], ROW<..> / ROW(..), MULTISET<T>, VECTOR<T, n>, VARIANT, BLOB, and NOT NULL
 * after any type (element types included). The result is the Paimon type text of
 * types/type_sql.h (cp_type_append_sql), which the catalog takes as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "sql/parser_internal.h"
#include "types/type_sql.h"

static int type_node(cp_sql_parser *p, cp_type **out, paimon_error *err);

/* '(' integer ')' or '(' integer ',' integer ')' when present; returns how many were read. */
static int params(cp_sql_parser *p, int64_t *a, int64_t *b, int max, paimon_error *err) {
  if (!cp_ps_is(p, CP_TOK_LPAREN)) return 0;
  cp_ps_next(p);
  int n = 0;
  do {
    const cp_sql_token *t = cp_ps_peek(p);
    char *end = NULL;
    errno = 0;
    long long v = t->kind == CP_TOK_NUMBER ? strtoll(t->text, &end, 10) : -1;
    if (t->kind != CP_TOK_NUMBER || end != t->text + t->text_len || errno || v < 0)
      return cp_ps_error(p, "a non-negative integer", err);
    cp_ps_next(p);
    if (n == 0)
      *a = v;
    else
      *b = v;
    n++;
  } while (n < max && cp_ps_accept(p, CP_TOK_COMMA));
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
  return n;
}

/* Wraps a type constructor failure (bad parameter) with the position. */
static int at(cp_sql_parser *p, cp_sql_pos pos, int rc, paimon_error *err) {
  if (rc == 0 || rc == PAIMON_ENOMEM) return rc;
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  snprintf(msg, sizeof msg, "%s", err ? err->message : "invalid type");
  return cp_ps_error_at(p, pos, err, "%s", msg);
}

static int timestamp_type(cp_sql_parser *p, cp_sql_pos pos, bool spark_default, cp_type **out,
                          paimon_error *err) {
  int64_t prec = CP_TIMESTAMP_DEFAULT_PRECISION, unused = 0;
  int n = params(p, &prec, &unused, 1, err);
  if (n < 0) return n;
  cp_type_kind kind = (spark_default && n == 0) ? CP_TYPE_TIMESTAMP_LTZ : CP_TYPE_TIMESTAMP;
  if (cp_ps_kw(p, "with") && cp_ps_kw_at(p, 1, "local")) {
    for (int i = 0; i < 4; i++) {
      static const char *const words[] = {"with", "local", "time", "zone"};
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, words[i], err));
    }
    kind = CP_TYPE_TIMESTAMP_LTZ;
  } else if (cp_ps_kw(p, "with") && cp_ps_kw_at(p, 1, "time")) {
    return cp_ps_error_at(p, pos, err, "TIMESTAMP WITH TIME ZONE is not a Paimon type");
  } else if (cp_ps_accept_kw(p, "without")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "time", err));
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "zone", err));
    kind = CP_TYPE_TIMESTAMP;
  }
  return at(p, pos, cp_type_new_precision(out, kind, prec, true, err), err);
}

/* STRUCT<...> / ROW<...> / ROW(...): fields "name [:] type [NOT NULL] [COMMENT 'c']". */
static int row_type(cp_sql_parser *p, cp_sql_pos pos, cp_type **out, paimon_error *err) {
  if (cp_ps_accept(p, CP_TOK_NE)) /* "<>" lexes as one token: an empty row */
    return cp_type_new_row(out, NULL, 0, true, err);
  bool angle = cp_ps_is(p, CP_TOK_LT);
  if (!angle && !cp_ps_is(p, CP_TOK_LPAREN)) return cp_ps_error(p, "'<'", err);
  cp_ps_next(p);
  cp_field *fields = NULL;
  size_t n = 0, cap = 0;
  int rc = PAIMON_OK;
  cp_sql_tok_kind close = angle ? CP_TOK_GT : CP_TOK_RPAREN;
  if (!cp_ps_accept(p, close)) {
    do {
      const char *name;
      cp_type *t = NULL;
      const char *comment = NULL;
      size_t clen;
      rc = cp_ps_ident(p, &name, NULL, err);
      if (!rc) cp_ps_accept(p, CP_TOK_COLON);
      if (!rc) rc = type_node(p, &t, err);
      if (!rc && cp_ps_accept_kw(p, "comment")) rc = cp_ps_string(p, &comment, &clen, err);
      if (!rc && n == cap) {
        cap = cap ? cap * 2 : 4;
        cp_field *f = realloc(fields, cap * sizeof *f);
        if (f)
          fields = f;
        else
          rc = CP_ENOMEM(err, "ROW type");
      }
      if (!rc)
        rc = cp_field_init(&fields[n], (int32_t)n, name, t, comment, NULL, err);
      else
        cp_type_free(t);
      if (!rc) n++;
    } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
    if (!rc) rc = cp_ps_expect(p, close, err);
  }
  if (!rc) {
    rc = at(p, pos, cp_type_new_row(out, fields, n, true, err), err);
  } else {
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
  }
  free(fields);
  return rc;
}

/* ARRAY<T>, MULTISET<T>, MAP<K, V>, VECTOR<T, n>. */
static int collection_type(cp_sql_parser *p, cp_sql_pos pos, cp_type_kind kind, cp_type **out,
                           paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LT, err));
  cp_type *a = NULL, *b = NULL;
  int rc = type_node(p, &a, err);
  if (!rc && kind == CP_TYPE_MAP) {
    rc = cp_ps_expect(p, CP_TOK_COMMA, err);
    if (!rc) rc = type_node(p, &b, err);
  }
  int64_t length = 0;
  if (!rc && kind == CP_TYPE_VECTOR) {
    rc = cp_ps_expect(p, CP_TOK_COMMA, err);
    const cp_sql_token *t = cp_ps_peek(p);
    if (!rc && t->kind != CP_TOK_NUMBER) rc = cp_ps_error(p, "the vector length", err);
    if (!rc) length = strtoll(cp_ps_next(p)->text, NULL, 10);
  }
  if (!rc) rc = cp_ps_expect(p, CP_TOK_GT, err);
  if (rc) {
    cp_type_free(a);
    cp_type_free(b);
    return rc;
  }
  if (kind == CP_TYPE_MAP) return at(p, pos, cp_type_new_map(out, a, b, true, err), err);
  if (kind == CP_TYPE_VECTOR) return at(p, pos, cp_type_new_vector(out, a, length, true, err), err);
  return at(p, pos, cp_type_new_collection(out, kind, a, true, err), err);
}

static int sized(cp_sql_parser *p, cp_sql_pos pos, cp_type_kind kind, int64_t dflt, cp_type **out,
                 paimon_error *err) {
  int64_t n = dflt, unused = 0;
  int k = params(p, &n, &unused, 1, err);
  if (k < 0) return k;
  return at(p, pos, cp_type_new_sized(out, kind, n, true, err), err);
}

/* Simple names without parameters. */
static int simple(const cp_sql_token *t, cp_type_kind *kind) {
  static const struct {
    const char *name;
    cp_type_kind kind;
  } names[] = {
      {"boolean", CP_TYPE_BOOLEAN}, {"bool", CP_TYPE_BOOLEAN},      {"tinyint", CP_TYPE_TINYINT},
      {"byte", CP_TYPE_TINYINT},    {"smallint", CP_TYPE_SMALLINT}, {"short", CP_TYPE_SMALLINT},
      {"int", CP_TYPE_INT},         {"integer", CP_TYPE_INT},       {"bigint", CP_TYPE_BIGINT},
      {"long", CP_TYPE_BIGINT},     {"float", CP_TYPE_FLOAT},       {"real", CP_TYPE_FLOAT},
      {"date", CP_TYPE_DATE},       {"variant", CP_TYPE_VARIANT},   {"blob", CP_TYPE_BLOB}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (cp_sql_tok_is(t, names[i].name)) {
      *kind = names[i].kind;
      return 1;
    }
  return 0;
}

static int base_type(cp_sql_parser *p, cp_type **out, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  cp_sql_pos pos = cp_ps_pos(p);
  if (t->kind != CP_TOK_IDENT) return cp_ps_error(p, "a data type", err);
  cp_type_kind kind;
  cp_ps_next(p);
  if (simple(t, &kind)) return cp_type_new(out, kind, true, err);
  if (cp_sql_tok_is(t, "double")) {
    cp_ps_accept_kw(p, "precision");
    return cp_type_new(out, CP_TYPE_DOUBLE, true, err);
  }
  if (cp_sql_tok_is(t, "string"))
    return cp_type_new_sized(out, CP_TYPE_VARCHAR, CP_TYPE_MAX_LENGTH, true, err);
  if (cp_sql_tok_is(t, "bytes"))
    return cp_type_new_sized(out, CP_TYPE_VARBINARY, CP_TYPE_MAX_LENGTH, true, err);
  if (cp_sql_tok_is(t, "decimal") || cp_sql_tok_is(t, "dec") || cp_sql_tok_is(t, "numeric")) {
    int64_t prec = CP_DECIMAL_DEFAULT_PRECISION, scale = 0;
    int n = params(p, &prec, &scale, 2, err);
    if (n < 0) return n;
    return at(p, pos, cp_type_new_decimal(out, prec, scale, true, err), err);
  }
  if (cp_sql_tok_is(t, "char") || cp_sql_tok_is(t, "character"))
    return sized(p, pos, CP_TYPE_CHAR, 1, out, err);
  if (cp_sql_tok_is(t, "varchar")) return sized(p, pos, CP_TYPE_VARCHAR, 1, out, err);
  if (cp_sql_tok_is(t, "varbinary")) return sized(p, pos, CP_TYPE_VARBINARY, 1, out, err);
  if (cp_sql_tok_is(t, "binary")) {
    if (!cp_ps_is(p, CP_TOK_LPAREN))
      return cp_type_new_sized(out, CP_TYPE_VARBINARY, CP_TYPE_MAX_LENGTH, true, err);
    return sized(p, pos, CP_TYPE_BINARY, 1, out, err);
  }
  if (cp_sql_tok_is(t, "time")) {
    int64_t prec = CP_TIME_DEFAULT_PRECISION, unused = 0;
    int n = params(p, &prec, &unused, 1, err);
    if (n < 0) return n;
    if (cp_ps_accept_kw(p, "without")) {
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "time", err));
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "zone", err));
    }
    return at(p, pos, cp_type_new_precision(out, CP_TYPE_TIME, prec, true, err), err);
  }
  if (cp_sql_tok_is(t, "timestamp")) return timestamp_type(p, pos, true, out, err);
  if (cp_sql_tok_is(t, "timestamp_ntz")) return timestamp_type(p, pos, false, out, err);
  if (cp_sql_tok_is(t, "timestamp_ltz")) {
    int64_t prec = CP_TIMESTAMP_DEFAULT_PRECISION, unused = 0;
    int n = params(p, &prec, &unused, 1, err);
    if (n < 0) return n;
    return at(p, pos, cp_type_new_precision(out, CP_TYPE_TIMESTAMP_LTZ, prec, true, err), err);
  }
  if (cp_sql_tok_is(t, "array")) return collection_type(p, pos, CP_TYPE_ARRAY, out, err);
  if (cp_sql_tok_is(t, "multiset")) return collection_type(p, pos, CP_TYPE_MULTISET, out, err);
  if (cp_sql_tok_is(t, "map")) return collection_type(p, pos, CP_TYPE_MAP, out, err);
  if (cp_sql_tok_is(t, "vector")) return collection_type(p, pos, CP_TYPE_VECTOR, out, err);
  if (cp_sql_tok_is(t, "struct") || cp_sql_tok_is(t, "row")) return row_type(p, pos, out, err);
  if (cp_sql_tok_is(t, "interval"))
    return cp_ps_error_at(p, pos, err, "INTERVAL types are not supported");
  p->i--; /* report at the type name */
  return cp_ps_error(p, "a data type", err);
}

/* A type with an optional NOT NULL (or NULL) after it. */
static int type_node(cp_sql_parser *p, cp_type **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
  *out = NULL;
  int rc = base_type(p, out, err);
  cp_ps_leave(p);
  if (rc) {
    cp_type_free(*out);
    *out = NULL;
    return rc;
  }
  if (cp_ps_kw(p, "not") && cp_ps_kw_at(p, 1, "null")) {
    cp_ps_next(p);
    cp_ps_next(p);
    (*out)->nullable = false;
  } else if (cp_ps_kw(p, "null")) {
    cp_ps_next(p);
  }
  return PAIMON_OK;
}

int cp_ps_type(cp_sql_parser *p, const char **out, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(type_node(p, &t, err));
  cp_buf b = CP_BUF_INIT;
  int rc = cp_type_append_sql(t, &b, err);
  cp_type_free(t);
  if (!rc) {
    *out = cp_ps_strdup(p, b.data ? (const char *)b.data : "", b.len, err);
    if (!*out) rc = PAIMON_ENOMEM;
  }
  cp_buf_free(&b);
  return rc;
}
