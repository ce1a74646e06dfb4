/*
 * Type rules of implicit coercion (expr_internal.h), after Spark's TypeCoercion with ANSI mode
 * off: findTightestCommonType (numeric precedence TINYINT < SMALLINT < INT < BIGINT < FLOAT <
 * DOUBLE), DecimalPrecision.widerDecimalType, findCommonTypeForBinaryComparison (a string meets
 * the other side's type; DOUBLE against a decimal), findWiderTypeForTwo (string promotion for
 * CASE / COALESCE), and DecimalPrecision's result types of decimal arithmetic with precision
 * loss allowed (spark.sql.decimalOperations.allowPrecisionLoss, on by default).
 */
#include <stdlib.h>

#include "base/status.h"
#include "expr/expr_internal.h"

cp_type *cp_type_make(cp_type_kind kind) {
  cp_type *t = NULL;
  if (cp_type_new(&t, kind, true, NULL) != 0) return NULL;
  if (kind == CP_TYPE_VARCHAR || kind == CP_TYPE_VARBINARY) t->length = CP_TYPE_MAX_LENGTH;
  return t;
}

cp_type *cp_type_make_decimal(int precision, int scale) {
  cp_type *t = NULL;
  if (cp_type_new_decimal(&t, precision, scale, true, NULL) != 0) return NULL;
  return t;
}

static bool is_ts(const cp_type *t) {
  return t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ;
}

bool cp_type_same_repr(const cp_type *a, const cp_type *b) {
  if (cp_type_is_string(a) && cp_type_is_string(b)) return true;
  if (cp_type_is_binary(a) && cp_type_is_binary(b)) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case CP_TYPE_DECIMAL: return a->precision == b->precision && a->scale == b->scale;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return a->precision == b->precision;
  default: return !cp_type_is_nested(a);
  }
}

void cp_integer_decimal(cp_type_kind kind, int *precision, int *scale) {
  *scale = 0;
  switch (kind) {
  case CP_TYPE_TINYINT: *precision = 3; break;
  case CP_TYPE_SMALLINT: *precision = 5; break;
  case CP_TYPE_INT: *precision = 10; break;
  default: *precision = 20; break;
  }
}

void cp_decimal_adjust(int *precision, int *scale) {
  if (*precision <= CP_DECIMAL_MAX_PRECISION) return;
  int int_digits = *precision - *scale;
  int min_scale = *scale < 6 ? *scale : 6;
  int adjusted = CP_DECIMAL_MAX_PRECISION - int_digits;
  *scale = adjusted > min_scale ? adjusted : min_scale;
  *precision = CP_DECIMAL_MAX_PRECISION;
}

/* Position in Spark's numeric precedence; decimals are handled apart. */
static int numeric_rank(cp_type_kind k) {
  switch (k) {
  case CP_TYPE_TINYINT: return 0;
  case CP_TYPE_SMALLINT: return 1;
  case CP_TYPE_INT: return 2;
  case CP_TYPE_BIGINT: return 3;
  case CP_TYPE_FLOAT: return 4;
  case CP_TYPE_DOUBLE: return 5;
  default: return -1;
  }
}

static void decimal_of(const cp_type *t, int *p, int *s) {
  if (t->kind == CP_TYPE_DECIMAL) {
    *p = t->precision;
    *s = t->scale;
  } else {
    cp_integer_decimal(t->kind, p, s);
  }
}

/* Common type of two numeric types: the higher in precedence, the wider decimal, or DOUBLE for a
 * decimal with a floating-point type. */
static cp_type *numeric_common(const cp_type *a, const cp_type *b) {
  bool da = a->kind == CP_TYPE_DECIMAL, db = b->kind == CP_TYPE_DECIMAL;
  if (!da && !db) {
    int ra = numeric_rank(a->kind), rb = numeric_rank(b->kind);
    return cp_type_make(ra >= rb ? a->kind : b->kind);
  }
  if ((da && !cp_type_is_integer(b) && !db) || (db && !cp_type_is_integer(a) && !da))
    return cp_type_make(CP_TYPE_DOUBLE);
  int p1, s1, p2, s2;
  decimal_of(a, &p1, &s1);
  decimal_of(b, &p2, &s2);
  int scale = s1 > s2 ? s1 : s2;
  int range = p1 - s1 > p2 - s2 ? p1 - s1 : p2 - s2;
  int precision = range + scale;
  if (precision > CP_DECIMAL_MAX_PRECISION) precision = CP_DECIMAL_MAX_PRECISION;
  if (scale > precision) scale = precision;
  return cp_type_make_decimal(precision, scale);
}

static cp_type *timestamp_common(const cp_type *a, const cp_type *b) {
  cp_type_kind kind = CP_TYPE_TIMESTAMP;
  int precision = 0;
  const cp_type *side[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    if (side[i]->kind == CP_TYPE_TIMESTAMP_LTZ) kind = CP_TYPE_TIMESTAMP_LTZ;
    if (is_ts(side[i]) && side[i]->precision > precision) precision = side[i]->precision;
  }
  cp_type *t = NULL;
  if (cp_type_new_precision(&t, kind, precision, true, NULL) != 0) return NULL;
  return t;
}

/* Types that meet without string promotion; `found` is false when they do not meet. */
static cp_type *tightest(const cp_type *a, const cp_type *b, bool *found) {
  *found = true;
  if (cp_type_is_numeric(a) && cp_type_is_numeric(b)) return numeric_common(a, b);
  if (cp_type_is_string(a) && cp_type_is_string(b)) return cp_type_make(CP_TYPE_VARCHAR);
  if (cp_type_is_binary(a) && cp_type_is_binary(b)) return cp_type_make(CP_TYPE_VARBINARY);
  if ((is_ts(a) || a->kind == CP_TYPE_DATE) && (is_ts(b) || b->kind == CP_TYPE_DATE)) {
    if (a->kind == CP_TYPE_DATE && b->kind == CP_TYPE_DATE) return cp_type_make(CP_TYPE_DATE);
    return timestamp_common(a, b);
  }
  if (a->kind == b->kind &&
      (a->kind == CP_TYPE_BOOLEAN || a->kind == CP_TYPE_TIME || a->kind == CP_TYPE_BLOB))
    return cp_type_make(a->kind);
  *found = false;
  return NULL;
}

static int result(cp_type *t, bool found, cp_type **out, paimon_error *err) {
  *out = t;
  if (found && !t) return CP_ENOMEM(err, "type");
  return PAIMON_OK;
}

int cp_common_compare_type(const cp_type *a, const cp_type *b, cp_type **out, paimon_error *err) {
  bool found;
  cp_type *t = tightest(a, b, &found);
  if (found) return result(t, true, out, err);
  const cp_type *s = cp_type_is_string(a) ? a : cp_type_is_string(b) ? b : NULL;
  const cp_type *o = s == a ? b : a;
  found = true;
  if (s) {
    if (o->kind == CP_TYPE_DECIMAL)
      t = cp_type_make(CP_TYPE_DOUBLE);
    else if (cp_type_is_binary(o))
      t = cp_type_make(CP_TYPE_VARBINARY);
    else if (cp_type_is_numeric(o) || o->kind == CP_TYPE_BOOLEAN || o->kind == CP_TYPE_DATE ||
             o->kind == CP_TYPE_TIME || is_ts(o))
      cp_type_copy_nullable(&t, o, true, NULL);
    else
      found = false;
    return result(t, found, out, err);
  }
  /* Spark's BooleanEquality: a boolean meets a number as that number (true = 1). */
  const cp_type *bo = a->kind == CP_TYPE_BOOLEAN ? a : b->kind == CP_TYPE_BOOLEAN ? b : NULL;
  const cp_type *num = bo == a ? b : a;
  if (bo && cp_type_is_numeric(num)) {
    cp_type_copy_nullable(&t, num, true, NULL);
    return result(t, true, out, err);
  }
  *out = NULL;
  return PAIMON_OK;
}

int cp_common_wider_type(const cp_type *a, const cp_type *b, cp_type **out, paimon_error *err) {
  bool found;
  cp_type *t = tightest(a, b, &found);
  if (found) return result(t, true, out, err);
  bool sa = cp_type_is_string(a), sb = cp_type_is_string(b);
  const cp_type *o = sa ? b : a;
  if ((sa || sb) && !cp_type_is_nested(o) && o->kind != CP_TYPE_BOOLEAN && !cp_type_is_binary(o) &&
      o->kind != CP_TYPE_BLOB && o->kind != CP_TYPE_VARIANT)
    return result(cp_type_make(CP_TYPE_VARCHAR), true, out, err);
  *out = NULL;
  return PAIMON_OK;
}

/* DecimalPrecision's result type of `op` on DECIMAL(p1, s1) and DECIMAL(p2, s2). */
static void decimal_result(cp_arith_op op, int p1, int s1, int p2, int s2, int *p, int *s) {
  int max_s = s1 > s2 ? s1 : s2;
  switch (op) {
  case CP_ARITH_ADD:
  case CP_ARITH_SUB:
    *s = max_s;
    *p = (p1 - s1 > p2 - s2 ? p1 - s1 : p2 - s2) + max_s + 1;
    break;
  case CP_ARITH_MUL:
    *p = p1 + p2 + 1;
    *s = s1 + s2;
    break;
  case CP_ARITH_DIV:
    *s = s1 + p2 + 1 > 6 ? s1 + p2 + 1 : 6;
    *p = p1 - s1 + s2 + *s;
    break;
  case CP_ARITH_MOD:
    *s = max_s;
    *p = (p1 - s1 < p2 - s2 ? p1 - s1 : p2 - s2) + max_s;
    break;
  }
  cp_decimal_adjust(p, s);
}

static int set3(cp_type **l, cp_type **r, cp_type **res, cp_type *tl, cp_type *tr, cp_type *tres,
                paimon_error *err) {
  *l = tl;
  *r = tr;
  *res = tres;
  if (tl && tr && tres) return PAIMON_OK;
  cp_type_free(tl);
  cp_type_free(tr);
  cp_type_free(tres);
  *l = *r = *res = NULL;
  return CP_ENOMEM(err, "arithmetic type");
}

int cp_arith_types(cp_arith_op op, const cp_type *a, const cp_type *b, cp_type **operand_l,
                   cp_type **operand_r, cp_type **res, paimon_error *err) {
  *operand_l = *operand_r = *res = NULL;
  if (!cp_type_is_numeric(a) || !cp_type_is_numeric(b)) return 1;
  bool da = a->kind == CP_TYPE_DECIMAL, db = b->kind == CP_TYPE_DECIMAL;
  bool exact = (da || cp_type_is_integer(a)) && (db || cp_type_is_integer(b));
  if ((da || db) && exact) {
    int p1, s1, p2, s2, p, s;
    decimal_of(a, &p1, &s1);
    decimal_of(b, &p2, &s2);
    decimal_result(op, p1, s1, p2, s2, &p, &s);
    return set3(operand_l, operand_r, res, cp_type_make_decimal(p1, s1),
                cp_type_make_decimal(p2, s2), cp_type_make_decimal(p, s), err);
  }
  cp_type_kind k;
  if (op == CP_ARITH_DIV || da || db)
    k = CP_TYPE_DOUBLE;
  else
    k = numeric_rank(a->kind) >= numeric_rank(b->kind) ? a->kind : b->kind;
  return set3(operand_l, operand_r, res, cp_type_make(k), cp_type_make(k), cp_type_make(k), err);
}
