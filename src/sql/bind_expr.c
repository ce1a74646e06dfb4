/*
 * Binding (bind.h), part two: converting each syntax node into an unbound expression of
 * expr/expr.h: Spark's literal types (AstBuilder.visitIntegerLiteral / visitDecimalLiteral /
 * typed literals), operators, CASE, CAST, the scalar functions expr/ implements (and a few Spark
 * aliases of them: nvl, ifnull, nullif, isnull, isnotnull, ucase, lcase, substr, char_length), and
 * the substitution of group keys and aggregate results after GROUP BY.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "sql/bind_internal.h"
#include "sql/exec.h"
#include "types/datum_arrow.h"
#include "types/type_sql.h"

/* ---- literals ------------------------------------------------------------------------------- */

static int typed_literal(cp_type *t, const cp_datum *d, cp_expr **out, paimon_error *err) {
  int rc = t ? cp_expr_literal(out, t, d, err) : PAIMON_ENOMEM;
  cp_type_free(t);
  return rc;
}

static cp_type *make_type(cp_type_kind kind) {
  cp_type *t = NULL;
  cp_type_new(&t, kind, true, NULL);
  return t;
}

/* Plain decimal text [-]digits[.digits] as an exact DECIMAL(p, s) (Spark: BigDecimal(text)). */
static int decimal_literal(const cp_sql_expr *e, const char *s, cp_expr **out, paimon_error *err) {
  bool neg = *s == '-';
  if (*s == '-' || *s == '+') s++;
  cp_int128 v = 0;
  int digits = 0, scale = 0;
  bool frac = false, any = false;
  for (; *s; s++) {
    if (*s == '.' && !frac) {
      frac = true;
      continue;
    }
    if (!isdigit((unsigned char)*s))
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "invalid decimal literal '%s'",
                             e->lit.text);
    any = true;
    if (frac) scale++;
    if (v == 0 && *s == '0') continue;
    if (++digits > CP_DECIMAL_MAX_PRECISION)
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "decimal literal '%s' has more than 38 digits", e->lit.text);
    v = v * 10 + (*s - '0');
  }
  if (!any) return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "invalid number '%s'", e->lit.text);
  int precision = digits > scale ? digits : scale;
  if (precision == 0) precision = 1;
  if (precision > CP_DECIMAL_MAX_PRECISION)
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "decimal literal '%s' has more than 38 digits", e->lit.text);
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_new_decimal(&t, precision, scale, true, err));
  cp_datum d;
  memset(&d, 0, sizeof d);
  d.v.dec = neg ? -v : v;
  return typed_literal(t, &d, out, err);
}

static int integer_literal(const cp_sql_expr *e, const char *body, char suffix, cp_expr **out,
                           paimon_error *err) {
  errno = 0;
  char *end = NULL;
  long long v = strtoll(body, &end, 10);
  bool ok = *body && end && *end == '\0' && errno == 0;
  if (!suffix) {
    if (!ok) return decimal_literal(e, body, out, err); /* beyond BIGINT: DECIMAL(p, 0) */
    if (v >= INT32_MIN && v <= INT32_MAX) return cp_expr_int(out, (int32_t)v, err);
    return cp_expr_bigint(out, v, err);
  }
  static const struct {
    char suffix;
    cp_type_kind kind;
    long long lo, hi;
  } kinds[] = {{'l', CP_TYPE_BIGINT, INT64_MIN, INT64_MAX},
               {'s', CP_TYPE_SMALLINT, INT16_MIN, INT16_MAX},
               {'y', CP_TYPE_TINYINT, INT8_MIN, INT8_MAX}};
  for (size_t i = 0; i < 3; i++) {
    if (kinds[i].suffix != suffix) continue;
    if (!ok || v < kinds[i].lo || v > kinds[i].hi)
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "Numeric literal %s is outside the range of %s", e->lit.text,
                             cp_type_kind_name(kinds[i].kind));
    cp_datum d = cp_datum_int(v);
    return typed_literal(make_type(kinds[i].kind), &d, out, err);
  }
  return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "invalid number '%s'", e->lit.text);
}

static int number_literal(const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  const char *t = e->lit.text;
  size_t n = strlen(t);
  char body[96], suffix = 0;
  bool bd = false;
  if (n > 2 && strcasecmp(t + n - 2, "bd") == 0) {
    bd = true;
    n -= 2;
  } else if (n > 1 && strchr("lLsSyYdDfF", t[n - 1])) {
    suffix = (char)tolower((unsigned char)t[n - 1]);
    n--;
  }
  if (n >= sizeof body)
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "number literal too long");
  memcpy(body, t, n);
  body[n] = '\0';
  bool exp = strpbrk(body, "eE") != NULL, point = strchr(body, '.') != NULL;
  if (bd) {
    if (exp) return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "invalid decimal literal '%s'", t);
    return decimal_literal(e, body, out, err);
  }
  if (suffix == 'd' || suffix == 'f' || (!suffix && exp)) {
    errno = 0;
    double v = strtod(body, NULL);
    if (errno == ERANGE && isinf(v))
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "Numeric literal %s is outside the range of DOUBLE", t);
    if (suffix != 'f') return cp_expr_double(out, v, err);
    cp_datum d;
    memset(&d, 0, sizeof d);
    d.v.f32 = (float)v;
    return typed_literal(make_type(CP_TYPE_FLOAT), &d, out, err);
  }
  if (point) {
    if (suffix) return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "invalid number '%s'", t);
    return decimal_literal(e, body, out, err);
  }
  return integer_literal(e, body, suffix, out, err);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 0;
}

static int binary_literal(const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  size_t n = strlen(e->lit.text), odd = n % 2;
  uint8_t *bytes = malloc(n / 2 + 1);
  if (!bytes) return CP_ENOMEM(err, "binary literal");
  size_t k = 0;
  if (odd) bytes[k++] = (uint8_t)hexval(e->lit.text[0]); /* a leading 0 is implied, as in Spark */
  for (size_t i = odd; i < n; i += 2)
    bytes[k++] = (uint8_t)(hexval(e->lit.text[i]) * 16 + hexval(e->lit.text[i + 1]));
  cp_type *t = NULL;
  int rc = cp_type_new_sized(&t, CP_TYPE_VARBINARY, CP_TYPE_MAX_LENGTH, true, err);
  cp_datum d = cp_datum_bytes(bytes, k);
  if (!rc) rc = typed_literal(t, &d, out, err);
  free(bytes);
  return rc;
}

static int temporal_literal(const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  cp_type *t = NULL;
  const char *what = "DATE";
  int rc;
  if (e->lit.kind == CP_SQL_LIT_DATE) {
    rc = cp_type_new(&t, CP_TYPE_DATE, true, err);
  } else if (e->lit.kind == CP_SQL_LIT_TIMESTAMP) {
    what = "TIMESTAMP";
    rc = cp_type_new_precision(&t, CP_TYPE_TIMESTAMP_LTZ, 6, true, err);
  } else {
    what = "TIMESTAMP_NTZ";
    rc = cp_type_new_precision(&t, CP_TYPE_TIMESTAMP, 6, true, err);
  }
  CP_RETURN_IF_ERROR(rc);
  cp_arena arena = CP_ARENA_INIT;
  cp_datum d;
  rc = cp_datum_parse_text(t, e->lit.text, &arena, &d, NULL);
  if (rc)
    rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                         "The value of the typed literal %s is invalid: '%s'", what, e->lit.text);
  else
    rc = cp_expr_literal(out, t, &d, err);
  cp_arena_free(&arena);
  cp_type_free(t);
  return rc;
}

int cp_sql_literal_expr(const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  switch (e->lit.kind) {
  case CP_SQL_LIT_NULL: return cp_expr_null(out, err);
  case CP_SQL_LIT_BOOL: return cp_expr_bool(out, e->lit.bool_value, err);
  case CP_SQL_LIT_NUMBER: return number_literal(e, out, err);
  case CP_SQL_LIT_STRING: return cp_expr_string(out, e->lit.text, e->lit.len, err);
  case CP_SQL_LIT_BINARY: return binary_literal(e, out, err);
  default: return temporal_literal(e, out, err);
  }
}

/* ---- operators ------------------------------------------------------------------------------ */

static int convert_args(const cp_sql_scope *s, cp_sql_expr *const *args, size_t n, cp_expr **out,
                        paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    int rc = cp_sql_convert(s, args[i], &out[i], err);
    if (rc) {
      for (size_t j = 0; j < i; j++) cp_expr_free(out[j]);
      return rc;
    }
  }
  return PAIMON_OK;
}

static int binary_op(const cp_sql_expr *e, cp_expr *l, cp_expr *r, cp_expr **out,
                     paimon_error *err) {
  switch (e->op) {
  case CP_SQL_OP_ADD: return cp_expr_arith(out, CP_ARITH_ADD, l, r, err);
  case CP_SQL_OP_SUB: return cp_expr_arith(out, CP_ARITH_SUB, l, r, err);
  case CP_SQL_OP_MUL: return cp_expr_arith(out, CP_ARITH_MUL, l, r, err);
  case CP_SQL_OP_DIV: return cp_expr_arith(out, CP_ARITH_DIV, l, r, err);
  case CP_SQL_OP_MOD: return cp_expr_arith(out, CP_ARITH_MOD, l, r, err);
  case CP_SQL_OP_EQ: return cp_expr_compare(out, CP_CMP_EQ, l, r, err);
  case CP_SQL_OP_NE: return cp_expr_compare(out, CP_CMP_NE, l, r, err);
  case CP_SQL_OP_LT: return cp_expr_compare(out, CP_CMP_LT, l, r, err);
  case CP_SQL_OP_LE: return cp_expr_compare(out, CP_CMP_LE, l, r, err);
  case CP_SQL_OP_GT: return cp_expr_compare(out, CP_CMP_GT, l, r, err);
  case CP_SQL_OP_GE: return cp_expr_compare(out, CP_CMP_GE, l, r, err);
  case CP_SQL_OP_NSEQ: return cp_expr_compare(out, CP_CMP_EQ_NULL_SAFE, l, r, err);
  case CP_SQL_OP_AND: return cp_expr_and2(out, l, r, err);
  case CP_SQL_OP_OR: return cp_expr_or2(out, l, r, err);
  case CP_SQL_OP_CONCAT: {
    cp_expr *args[2] = {l, r};
    return cp_expr_func(out, CP_FUNC_CONCAT, args, 2, err);
  }
  default:
    cp_expr_free(l);
    cp_expr_free(r);
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos, "operator not supported");
  }
}

static int unary_op(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  if (e->op == CP_SQL_OP_BITNOT)
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos, "bitwise operators are not supported");
  cp_expr *arg = NULL;
  CP_RETURN_IF_ERROR(cp_sql_convert(s, e->args[0], &arg, err));
  if (e->op == CP_SQL_OP_NEG) return cp_expr_negate(out, arg, err);
  if (e->op == CP_SQL_OP_NOT) return cp_expr_not(out, arg, err);
  *out = arg; /* unary plus */
  return PAIMON_OK;
}

static int like_op(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  uint32_t escape = '\\';
  if (e->escape) {
    const unsigned char *c = (const unsigned char *)e->escape;
    size_t len = strlen(e->escape);
    if (len == 1)
      escape = c[0];
    else if (len == 2 && (c[0] & 0xE0) == 0xC0)
      escape = ((uint32_t)(c[0] & 0x1F) << 6) | (c[1] & 0x3F);
    else
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "the escape character must be a single character, got '%s'",
                             e->escape);
  }
  cp_expr *args[2] = {NULL, NULL};
  CP_RETURN_IF_ERROR(convert_args(s, e->args, 2, args, err));
  return cp_expr_like(out, CP_LIKE_PATTERN, args[0], args[1], escape, e->negated, err);
}

static int cast_op(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  cp_type *to = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(e->type, &to, err));
  if (cp_type_is_nested(to) || to->kind == CP_TYPE_VARIANT || to->kind == CP_TYPE_BLOB) {
    cp_type_free(to);
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos, "CAST to %s is not supported",
                           e->type);
  }
  cp_expr *arg = NULL;
  int rc = cp_sql_convert(s, e->args[0], &arg, err);
  if (!rc) rc = cp_expr_cast(out, arg, to, err);
  cp_type_free(to);
  return rc;
}

/* CASE [operand] WHEN a THEN b ... [ELSE c] END; a simple CASE compares the operand (copied per
 * branch) with each WHEN value. */
static int case_op(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  size_t first = e->has_operand ? 1 : 0, end = e->n_args - (e->has_else ? 1 : 0);
  size_t n = (end - first) / 2;
  cp_expr **conds = calloc(n ? n : 1, sizeof *conds), **values = calloc(n ? n : 1, sizeof *values);
  cp_expr *operand = NULL, *else_value = NULL;
  int rc = (!conds || !values) ? CP_ENOMEM(err, "CASE") : PAIMON_OK;
  if (!rc && e->has_operand) rc = cp_sql_convert(s, e->args[0], &operand, err);
  size_t made = 0;
  for (; !rc && made < n; made++) {
    cp_expr *when = NULL, *op_copy = NULL;
    rc = cp_sql_convert(s, e->args[first + 2 * made], &when, err);
    if (!rc && operand) {
      rc = cp_expr_copy(&op_copy, operand, err);
      if (!rc)
        rc = cp_expr_compare(&when, CP_CMP_EQ, op_copy, when, err);
      else
        cp_expr_free(when);
    }
    if (!rc) conds[made] = when;
    if (!rc) rc = cp_sql_convert(s, e->args[first + 2 * made + 1], &values[made], err);
    if (rc) {
      cp_expr_free(conds[made]);
      conds[made] = NULL;
      break;
    }
  }
  if (!rc && e->has_else) rc = cp_sql_convert(s, e->args[e->n_args - 1], &else_value, err);
  cp_expr_free(operand);
  if (!rc) {
    rc = cp_expr_case(out, conds, values, n, else_value, err);
  } else {
    for (size_t i = 0; i < made; i++) {
      cp_expr_free(conds[i]);
      cp_expr_free(values[i]);
    }
  }
  free(conds);
  free(values);
  return rc;
}

/* ---- functions ------------------------------------------------------------------------------ */

typedef struct func_def {
  const char *name;
  int kind; /* cp_func, or one of the rewrites below */
  size_t min_args, max_args;
} func_def;

enum { F_COALESCE = 100, F_IF, F_NULLIF, F_ISNULL, F_ISNOTNULL, FUNC_DATE_SUB };

static const func_def funcs[] = {{"coalesce", F_COALESCE, 1, 1000},
                                 {"nvl", F_COALESCE, 2, 2},
                                 {"ifnull", F_COALESCE, 2, 2},
                                 {"if", F_IF, 3, 3},
                                 {"nullif", F_NULLIF, 2, 2},
                                 {"isnull", F_ISNULL, 1, 1},
                                 {"isnotnull", F_ISNOTNULL, 1, 1},
                                 {"concat", CP_FUNC_CONCAT, 0, 1000},
                                 {"upper", CP_FUNC_UPPER, 1, 1},
                                 {"ucase", CP_FUNC_UPPER, 1, 1},
                                 {"lower", CP_FUNC_LOWER, 1, 1},
                                 {"lcase", CP_FUNC_LOWER, 1, 1},
                                 {"length", CP_FUNC_LENGTH, 1, 1},
                                 {"char_length", CP_FUNC_LENGTH, 1, 1},
                                 {"character_length", CP_FUNC_LENGTH, 1, 1},
                                 {"len", CP_FUNC_LENGTH, 1, 1},
                                 {"substring", CP_FUNC_SUBSTRING, 2, 3},
                                 {"substr", CP_FUNC_SUBSTRING, 2, 3},
                                 {"trim", CP_FUNC_TRIM, 1, 1},
                                 {"abs", CP_FUNC_ABS, 1, 1},
                                 {"size", CP_FUNC_SIZE, 1, 1},
                                 {"cardinality", CP_FUNC_SIZE, 1, 1},
                                 {"array", CP_FUNC_ARRAY, 1, 1000},
                                 {"date_add", CP_FUNC_DATE_ADD, 2, 2},
                                 {"dateadd", CP_FUNC_DATE_ADD, 2, 2},
                                 {"date_sub", FUNC_DATE_SUB, 2, 2},
                                 {"datediff", CP_FUNC_DATE_DIFF, 2, 2},
                                 {"date_diff", CP_FUNC_DATE_DIFF, 2, 2},
                                 {"element_at", CP_FUNC_ELEMENT_AT, 2, 2},
                                 {"named_struct", CP_FUNC_NAMED_STRUCT, 2, 1000}};

static int make_func(const func_def *f, cp_expr **args, size_t n, cp_expr **out,
                     paimon_error *err) {
  switch (f->kind) {
  case F_COALESCE: return cp_expr_coalesce(out, args, n, err);
  case F_IF: return cp_expr_if(out, args[0], args[1], args[2], err);
  case F_ISNULL: return cp_expr_is_null(out, args[0], false, err);
  case F_ISNOTNULL: return cp_expr_is_null(out, args[0], true, err);
  case FUNC_DATE_SUB: /* date_sub(d, n) = d - n */
    return cp_expr_arith(out, CP_ARITH_SUB, args[0], args[1], err);
  case CP_FUNC_CONCAT:
    if (n == 0) return cp_expr_string(out, "", 0, err); /* Spark: concat() is '' */
    return cp_expr_func(out, CP_FUNC_CONCAT, args, n, err);
  case F_NULLIF: { /* CASE WHEN a = b THEN NULL ELSE a END */
    cp_expr *a2 = NULL, *cond = NULL, *null = NULL;
    int rc = cp_expr_copy(&a2, args[0], err);
    if (rc) {
      cp_expr_free(args[0]);
      cp_expr_free(args[1]);
      return rc;
    }
    rc = cp_expr_compare(&cond, CP_CMP_EQ, args[0], args[1], err);
    if (!rc) rc = cp_expr_null(&null, err);
    if (rc) {
      cp_expr_free(cond);
      cp_expr_free(a2);
      return rc;
    }
    return cp_expr_if(out, cond, null, a2, err);
  }
  default: return cp_expr_func(out, (cp_func)f->kind, args, n, err);
  }
}

/* The type of a column path (col, st.x, t.st.x) in scope, else NULL. */
static const cp_type *column_type(const cp_sql_scope *s, const cp_sql_name *name) {
  paimon_error ignored;
  for (size_t k = name->n; k >= 1; k--) {
    cp_sql_name prefix = *name;
    prefix.n = k;
    size_t idx;
    if (cp_sql_resolve(s, &prefix, &idx, &ignored) != 0) continue;
    const cp_type *t = s->row->fields[idx].type;
    for (size_t i = k; t && i < name->n; i++) {
      ptrdiff_t f = t->kind == CP_TYPE_ROW ? cp_row_field_index_ci(t, name->parts[i]) : -1;
      t = f >= 0 ? t->fields[f].type : NULL;
    }
    return t;
  }
  return NULL;
}

/* The type of what `.field` is taken from: a column path, or an element, map value or field of
 * one (v[0], m['k'], v[0].a); NULL for anything else. */
static const cp_type *access_base_type(const cp_sql_scope *s, const cp_sql_expr *e) {
  if (e->kind == CP_SQL_E_COLUMN) return column_type(s, &e->name);
  if (e->kind != CP_SQL_E_FUNC || (!e->subscript && !e->field)) return NULL;
  const cp_type *t = access_base_type(s, e->args[0]);
  if (!t) return NULL;
  if (e->field) {
    ptrdiff_t f = t->kind == CP_TYPE_ROW ? cp_row_field_index_ci(t, e->field) : -1;
    return f >= 0 ? t->fields[f].type : NULL;
  }
  if (t->kind == CP_TYPE_ARRAY || t->kind == CP_TYPE_VECTOR) return t->element;
  return t->kind == CP_TYPE_MAP ? t->value : NULL;
}

static bool holds_map(const cp_type *t) {
  if (!t) return false;
  if (t->kind == CP_TYPE_MAP) return true;
  for (size_t i = 0; i < t->n_fields; i++)
    if (holds_map(t->fields[i].type)) return true;
  return holds_map(t->element);
}

/* A comparison of MAP values (a column, element, value or field of one holding a MAP): Spark's
 * BinaryComparison refuses the type ([DATATYPE_MISMATCH.INVALID_ORDERING_TYPE], reported for
 * `a <> b` as for the `a = b` it rewrites it to). 1 when `e` is no such comparison. */
static int refuse_map_compare(const cp_sql_scope *s, const cp_sql_expr *e, paimon_error *err) {
  static const char *const ops[] = {"=", "=", "<", "<=", ">", ">=", "<=>"};
  if (e->op < CP_SQL_OP_EQ || e->op > CP_SQL_OP_NSEQ) return 1;
  const cp_type *t = access_base_type(s, e->args[0]);
  if (!holds_map(t)) t = access_base_type(s, e->args[1]);
  if (!holds_map(t)) return 1;
  char *l = NULL, *r = NULL;
  cp_buf type = CP_BUF_INIT;
  int rc = cp_sql_display_name(e->args[0], &l, err);
  if (!rc) rc = cp_sql_display_name(e->args[1], &r, err);
  if (!rc) rc = cp_sql_spark_type(t, true, &type, err);
  if (!rc) rc = cp_buf_nul_terminate(&type, err);
  const char *op = ops[e->op - CP_SQL_OP_EQ];
  if (!rc)
    rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                         "[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] Cannot resolve \"(%s %s %s)\" "
                         "due to data type mismatch: The `%s` does not support ordering on type "
                         "\"%s\".",
                         l, op, r, op, (const char *)type.data);
  free(l);
  free(r);
  cp_buf_free(&type);
  return rc;
}

/* `base.field` on an expression: Spark's GetStructField. */
static int field_of(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  const cp_type *t = access_base_type(s, e->args[0]);
  ptrdiff_t f = t && t->kind == CP_TYPE_ROW ? cp_row_field_index_ci(t, e->field) : -1;
  if (f < 0) {
    char *text = NULL;
    cp_sql_display_name(e->args[0], &text, NULL);
    const char *base = text ? text : "?";
    int rc;
    if (!t)
      rc = cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos,
                           "not supported: .%s on %s (a field is taken from a column, an element, "
                           "a map value or a field of one)",
                           e->field, base);
    else if (t->kind == CP_TYPE_ROW)
      rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "[FIELD_NOT_FOUND] No such struct field `%s` in %s", e->field, base);
    else
      rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "[INVALID_EXTRACT_BASE_FIELD_TYPE] Can't extract a value from \"%s\". "
                           "Need a complex type [STRUCT, ARRAY, MAP]",
                           base);
    free(text);
    return rc;
  }
  cp_expr *args[2] = {NULL, NULL};
  CP_RETURN_IF_ERROR(convert_args(s, e->args, 1, args, err));
  int rc = cp_expr_int(&args[1], (int32_t)f, err);
  if (rc) {
    cp_expr_free(args[0]);
    return rc;
  }
  return cp_expr_func(out, CP_FUNC_GET_FIELD, args, 2, err);
}

static int func_call(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                     paimon_error *err) {
  if (e->field) return field_of(s, e, out, err);
  if (e->tuple)
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos,
                           "not supported: a row value (a, b, ...) other than on the left of IN");
  if (e->subscript) {
    cp_expr *two[2] = {NULL, NULL};
    CP_RETURN_IF_ERROR(convert_args(s, e->args, 2, two, err));
    return cp_expr_func(out, CP_FUNC_SUBSCRIPT, two, 2, err);
  }
  const char *name = e->name.parts[e->name.n - 1];
  if (cp_sql_is_aggregate_call(e)) {
    char *text = NULL;
    cp_sql_display_name(e, &text, NULL);
    int rc =
        cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "aggregate function %s is not allowed in %s",
                        text ? text : name, s->clause ? s->clause : "this clause");
    free(text);
    return rc;
  }
  const func_def *f = NULL;
  for (size_t i = 0; i < sizeof funcs / sizeof funcs[0] && !f; i++)
    if (e->name.n == 1 && strcasecmp(name, funcs[i].name) == 0) f = &funcs[i];
  if (!f) return cp_sql_error_at(err, PAIMON_ENOTFOUND, e->pos, "Undefined function: '%s'", name);
  if (e->star_arg || e->distinct || e->filter)
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "%s is only allowed in aggregate functions",
                           e->star_arg   ? "'*'"
                           : e->distinct ? "DISTINCT"
                                         : "FILTER");
  if (f->kind == CP_FUNC_NAMED_STRUCT && (e->n_args % 2 || !e->n_args))
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The `named_struct` requires 2n (n "
                           "> 0) parameters but the actual number is %zu.",
                           e->n_args);
  if (e->n_args < f->min_args || e->n_args > f->max_args) {
    if (f->min_args == f->max_args)
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "function %s takes %zu argument%s, got %zu", f->name, f->min_args,
                             f->min_args == 1 ? "" : "s", e->n_args);
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "function %s takes %zu to %zu arguments, got %zu", f->name, f->min_args,
                           f->max_args == 1000 ? (size_t)999 : f->max_args, e->n_args);
  }
  cp_expr **args = calloc(e->n_args ? e->n_args : 1, sizeof *args);
  if (!args) return CP_ENOMEM(err, "function arguments");
  int rc = convert_args(s, e->args, e->n_args, args, err);
  if (!rc) rc = make_func(f, args, e->n_args, out, err);
  free(args);
  return rc;
}

/* ---- post-aggregation substitution ---------------------------------------------------------- */

/* Replaces `e` by a column of the aggregation scope when it is a group key or an aggregate call:
 * 0 with *out set, 1 when `e` is neither (the caller converts its children), or an error. */
static int agg_substitute(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                          paimon_error *err) {
  const cp_sql_agg_binding *a = s->agg;
  for (size_t k = 0; k < a->n_keys; k++)
    if (cp_sql_expr_equal(a->keys[k], e)) return cp_expr_column(out, s->bind_names[k], err);
  if (cp_sql_is_aggregate_call(e)) {
    for (size_t j = 0; j < a->n_aggs; j++)
      if (cp_sql_expr_equal(a->aggs[j], e))
        return cp_expr_column(out, s->bind_names[a->n_keys + j], err);
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "internal: aggregate not collected");
  }
  if (e->kind != CP_SQL_E_COLUMN) return 1;
  size_t idx;
  int rc = cp_sql_resolve(a->input, &e->name, &idx, err);
  if (rc == PAIMON_ENOTFOUND && e->name.n == 1) {
    for (size_t i = 0; i < a->n_aliases; i++) {
      if (strcasecmp(a->alias_names[i], e->name.parts[0]) != 0) continue;
      /* The alias stands for its expression; aliases are not expanded inside it again. */
      cp_sql_agg_binding inner = *a;
      inner.n_aliases = 0;
      cp_sql_scope s2 = *s;
      s2.agg = &inner;
      return cp_sql_convert(&s2, a->alias_exprs[i], out, err);
    }
  }
  CP_RETURN_IF_ERROR(rc);
  for (size_t k = 0; k < a->n_keys; k++)
    if (a->key_cols[k] == (int64_t)idx) return cp_expr_column(out, s->bind_names[k], err);
  char *text = NULL;
  cp_sql_display_name(e, &text, NULL);
  rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                       "The non-aggregating expression '%s' is based on columns which are not "
                       "participating in the GROUP BY clause; add it to the GROUP BY or wrap it "
                       "in an aggregate function",
                       text ? text : "?");
  free(text);
  return rc;
}

/* The run of ANDs (or of ORs) in `chain` that ends at node *i, going up, over *acc: one n-ary
 * node, built once (AND / OR nodes flatten when built, and growing one operand at a time would
 * copy the operands again for each). *i becomes the run's top; *acc is consumed. */
static int convert_logic_run(const cp_sql_scope *s, const cp_chain *chain, size_t *i, cp_expr **acc,
                             paimon_error *err) {
  cp_sql_op op = ((const cp_sql_expr *)chain->nodes[*i])->op;
  size_t top = *i;
  while (top > 0 && ((const cp_sql_expr *)chain->nodes[top - 1])->op == op) top--;
  size_t n = *i - top + 2;
  cp_expr **args = calloc(n, sizeof *args);
  if (!args) {
    cp_expr_free(*acc);
    *acc = NULL;
    return CP_ENOMEM(err, op == CP_SQL_OP_AND ? "AND" : "OR");
  }
  args[0] = *acc;
  *acc = NULL;
  int rc = PAIMON_OK;
  for (size_t k = 1; !rc && k < n; k++)
    rc = cp_sql_convert(s, ((const cp_sql_expr *)chain->nodes[*i + 1 - k])->args[1], &args[k], err);
  if (!rc)
    rc = op == CP_SQL_OP_AND ? cp_expr_and(acc, args, n, err) : cp_expr_or(acc, args, n, err);
  else
    for (size_t k = 0; k < n; k++) cp_expr_free(args[k]);
  free(args);
  *i = top;
  return rc;
}

/* A chain of binary operators down first arguments (`a + b + c ...`, `p OR q OR r ...`: what the
 * parser builds without a depth limit), converted bottom up with a loop (ast.h
 * cp_sql_expr_spine). The top, `e`, was offered to agg_substitute already; the nodes below are
 * too, since a group key may be any prefix of the chain (GROUP BY a + b for a + b + c). */
static int convert_chain(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                         paimon_error *err) {
  cp_chain chain;
  cp_chain_init(&chain);
  cp_expr *acc = NULL;
  int rc = cp_chain_push(&chain, e, err);
  for (const cp_sql_expr *node = e->args[0]; !rc; node = node->args[0]) {
    int sub = s->agg ? agg_substitute(s, node, &acc, err) : 1;
    if (sub != 1) {
      rc = sub;
      break;
    }
    if (node->kind != CP_SQL_E_BINARY) {
      rc = cp_sql_convert(s, node, &acc, err);
      break;
    }
    rc = cp_chain_push(&chain, node, err);
  }
  for (size_t i = chain.n; !rc && i-- > 0;) {
    const cp_sql_expr *b = chain.nodes[i];
    if (b->op == CP_SQL_OP_AND || b->op == CP_SQL_OP_OR) {
      rc = convert_logic_run(s, &chain, &i, &acc, err);
      continue;
    }
    cp_expr *right = NULL, *next = NULL;
    rc = cp_sql_convert(s, b->args[1], &right, err);
    if (rc) break;
    rc = binary_op(b, acc, right, &next, err); /* consumes acc and right */
    acc = next;
  }
  cp_chain_free(&chain);
  if (rc) {
    cp_expr_free(acc);
    return rc;
  }
  *out = acc;
  return PAIMON_OK;
}

/* (a, b) [NOT] IN ((x, y), ...): Spark compares the row values as structs, field by field with
 * NULL equal to NULL, so it is an OR over the items of ANDs of a <=> x. */
static int tuple_in(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  const cp_sql_expr *l = e->args[0];
  cp_expr *any = NULL;
  int rc = PAIMON_OK;
  for (size_t i = 1; !rc && i < e->n_args; i++) {
    const cp_sql_expr *r = e->args[i];
    if (!(r->kind == CP_SQL_E_FUNC && r->tuple && r->n_args == l->n_args)) {
      rc = cp_sql_error_at(err, PAIMON_EINVAL, r->pos,
                           "IN of a row value of %zu fields needs row values of %zu fields",
                           l->n_args, l->n_args);
      break;
    }
    cp_expr *all = NULL;
    for (size_t k = 0; !rc && k < l->n_args; k++) {
      cp_expr *a = NULL, *b = NULL, *eq = NULL;
      rc = cp_sql_convert(s, l->args[k], &a, err);
      if (!rc) rc = cp_sql_convert(s, r->args[k], &b, err);
      if (!rc) {
        rc = cp_expr_compare(&eq, CP_CMP_EQ_NULL_SAFE, a, b, err);
        a = b = NULL;
      }
      cp_expr_free(a);
      cp_expr_free(b);
      if (!rc) rc = all ? cp_expr_and2(&all, all, eq, err) : (all = eq, PAIMON_OK);
    }
    if (!rc)
      rc = any ? cp_expr_or2(&any, any, all, err) : (any = all, PAIMON_OK);
    else
      cp_expr_free(all);
  }
  if (!rc && e->negated) rc = cp_expr_not(&any, any, err);
  if (rc) {
    cp_expr_free(any);
    return rc;
  }
  *out = any;
  return PAIMON_OK;
}

/* ---- subqueries ----------------------------------------------------------------------------- */

/* Row `row` of the subquery's only column as a typed literal. */
static int subquery_value(const cp_sql_expr *e, const cp_rel *r, int64_t row, cp_expr **out,
                          paimon_error *err) {
  const cp_type *t = r->cols[0].type;
  if (t->kind == CP_TYPE_ARRAY || t->kind == CP_TYPE_MAP || t->kind == CP_TYPE_ROW ||
      t->kind == CP_TYPE_MULTISET || t->kind == CP_TYPE_VECTOR || t->kind == CP_TYPE_VARIANT)
    return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, e->pos,
                           "not supported: a subquery of nested values (column %s)",
                           r->cols[0].name);
  cp_datum d = cp_datum_null();
  if (row >= 0) {
    cp_array_view v;
    CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
    int rc = cp_datum_from_view(t, &v.children[0], row, &d, err);
    if (!rc) rc = cp_expr_literal(out, t, &d, err);
    cp_array_view_reset(&v);
    return rc;
  }
  return cp_expr_literal(out, t, &d, err);
}

static int subquery_op(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                       paimon_error *err) {
  const cp_rel *r = NULL;
  CP_RETURN_IF_ERROR(cp_sql_subquery_rows(e, &r, err));
  int64_t rows = cp_rel_rows(r);
  if (e->subquery == CP_SQL_SUBQ_EXISTS) return cp_expr_bool(out, rows > 0, err);
  if (r->n_cols != 1)
    return cp_sql_error_at(
        err, PAIMON_EINVAL, e->pos, "%s",
        e->subquery == CP_SQL_SUBQ_SCALAR
            ? "[INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN] "
              "Invalid subquery: Scalar subquery must return only one column."
            : "not supported: IN with a subquery of more than one column");
  if (e->subquery == CP_SQL_SUBQ_SCALAR) {
    if (rows > 1)
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "[SCALAR_SUBQUERY_TOO_MANY_ROWS] More than one row returned by a "
                             "subquery used as an expression.");
    return subquery_value(e, r, rows ? 0 : -1, out, err);
  }
  /* x IN (subquery): its distinct values as an IN list; none: FALSE (NOT IN: TRUE), NULL x too. */
  int64_t *idx = NULL, n = 0;
  CP_RETURN_IF_ERROR(cp_sql_distinct_rows(r, 1, &idx, &n, err));
  if (n == 0) {
    free(idx);
    return cp_expr_bool(out, e->negated, err);
  }
  cp_expr **list = calloc((size_t)n + 1, sizeof *list);
  int rc = list ? cp_sql_convert(s, e->args[0], &list[0], err) : CP_ENOMEM(err, "IN list");
  int64_t k = 0;
  for (; !rc && k < n; k++) rc = subquery_value(e, r, idx[k], &list[k + 1], err);
  free(idx);
  if (!rc) {
    rc = cp_expr_in(out, list[0], list + 1, (size_t)n, e->negated, err);
  } else if (list) {
    for (int64_t i = 0; i <= k; i++) cp_expr_free(list[i]);
  }
  free(list);
  return rc;
}

/* `a.b.c` that is no column: column `a` (or `a.b`, ...) of a ROW type and fields of it, as Spark
 * resolves a name it cannot find as a qualified column. 0 with *out set, else nonzero (the
 * caller reports the column as unresolved). */
static int field_access(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out) {
  paimon_error ignored;
  for (size_t k = e->name.n - 1; k >= 1; k--) {
    cp_sql_name prefix = e->name;
    prefix.n = k;
    size_t idx;
    if (cp_sql_resolve(s, &prefix, &idx, &ignored) != 0) continue;
    const cp_type *t = s->row->fields[idx].type;
    cp_expr *acc = NULL;
    if (cp_expr_column(&acc, s->bind_names[idx], &ignored) != 0) return 1;
    size_t i = k;
    for (; i < e->name.n && t->kind == CP_TYPE_ROW; i++) {
      size_t f = 0;
      while (f < t->n_fields && strcasecmp(t->fields[f].name, e->name.parts[i]) != 0) f++;
      if (f == t->n_fields) break;
      cp_expr *lit = NULL, *args[2];
      if (cp_expr_int(&lit, (int32_t)f, &ignored) != 0) break;
      args[0] = acc;
      args[1] = lit;
      acc = NULL;
      if (cp_expr_func(&acc, CP_FUNC_GET_FIELD, args, 2, &ignored) != 0) break;
      t = t->fields[f].type;
    }
    if (i == e->name.n && acc) {
      *out = acc;
      return 0;
    }
    cp_expr_free(acc);
    return 1;
  }
  return 1;
}

/* A window function call: the column it was computed into. */
static int window_column(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                         paimon_error *err) {
  for (size_t i = 0; i < s->n_windows; i++)
    if (s->windows[i] == e) return cp_expr_column(out, s->bind_names[s->window_col0 + i], err);
  return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                         "It is not allowed to use window functions inside %s clause",
                         s->clause ? s->clause : "this");
}

int cp_sql_convert(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  *out = NULL;
  if (e->kind == CP_SQL_E_FUNC && e->window) return window_column(s, e, out, err);
  if (s->agg) {
    int rc = agg_substitute(s, e, out, err);
    if (rc != 1) return rc;
  }
  cp_expr *args[3] = {NULL, NULL, NULL};
  switch (e->kind) {
  case CP_SQL_E_COLUMN: {
    size_t idx;
    int rc = cp_sql_resolve(s, &e->name, &idx, err);
    if (rc == PAIMON_ENOTFOUND && e->name.n > 1 && field_access(s, e, out) == 0) return PAIMON_OK;
    CP_RETURN_IF_ERROR(rc);
    return cp_expr_column(out, s->bind_names[idx], err);
  }
  case CP_SQL_E_STAR:
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "'*' is only allowed in the SELECT list and in count(*)");
  case CP_SQL_E_LITERAL: return cp_sql_literal_expr(e, out, err);
  case CP_SQL_E_UNARY: return unary_op(s, e, out, err);
  case CP_SQL_E_BINARY: {
    int rc = refuse_map_compare(s, e, err);
    return rc == 1 ? convert_chain(s, e, out, err) : rc;
  }
  case CP_SQL_E_IS_NULL:
    CP_RETURN_IF_ERROR(convert_args(s, e->args, 1, args, err));
    return cp_expr_is_null(out, args[0], e->negated, err);
  case CP_SQL_E_IS_BOOL: { /* x IS [NOT] TRUE = [NOT] (x <=> TRUE) */
    CP_RETURN_IF_ERROR(convert_args(s, e->args, 1, args, err));
    int rc = cp_expr_bool(&args[1], e->bool_value, err);
    if (rc) {
      cp_expr_free(args[0]);
      return rc;
    }
    CP_RETURN_IF_ERROR(cp_expr_compare(out, CP_CMP_EQ_NULL_SAFE, args[0], args[1], err));
    return e->negated ? cp_expr_not(out, *out, err) : PAIMON_OK;
  }
  case CP_SQL_E_IN: {
    if (e->args[0]->kind == CP_SQL_E_FUNC && e->args[0]->tuple) return tuple_in(s, e, out, err);
    cp_expr **list = calloc(e->n_args, sizeof *list);
    if (!list) return CP_ENOMEM(err, "IN list");
    int rc = convert_args(s, e->args, e->n_args, list, err);
    if (!rc) rc = cp_expr_in(out, list[0], list + 1, e->n_args - 1, e->negated, err);
    free(list);
    return rc;
  }
  case CP_SQL_E_BETWEEN:
    CP_RETURN_IF_ERROR(convert_args(s, e->args, 3, args, err));
    return cp_expr_between(out, args[0], args[1], args[2], e->negated, err);
  case CP_SQL_E_LIKE: return like_op(s, e, out, err);
  case CP_SQL_E_CAST: return cast_op(s, e, out, err);
  case CP_SQL_E_CASE: return case_op(s, e, out, err);
  case CP_SQL_E_FUNC: return func_call(s, e, out, err);
  case CP_SQL_E_SUBQUERY: return subquery_op(s, e, out, err);
  }
  return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "unknown expression");
}
