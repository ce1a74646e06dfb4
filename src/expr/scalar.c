/*
 * The value of every operator on single values (expr_internal.h): the reference semantics that
 * the row evaluator uses directly and the vectorized kernels reproduce. Spark SQL, non-ANSI:
 * three-valued logic, NULL-propagating operators, wrapping integer arithmetic, NULL on division
 * by zero, Spark's IN (NULL when nothing matched and a NULL was seen), Spark's substring and trim.
 *
 * UPPER / LOWER map ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic letters one to one
 * (Java's toUpperCase would also expand ß to SS and knows every script; those are left as they
 * are here).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr_internal.h"
#include "expr/like.h"

int cp_value_compare(const cp_type *t, const cp_datum *a, const cp_datum *b) {
  return cp_datum_compare(t, a, b);
}

int64_t cp_int_wrap(cp_type_kind kind, int64_t v) {
  switch (kind) {
  case CP_TYPE_TINYINT: return (int8_t)(uint8_t)(uint64_t)v;
  case CP_TYPE_SMALLINT: return (int16_t)(uint16_t)(uint64_t)v;
  case CP_TYPE_INT: return (int32_t)(uint32_t)(uint64_t)v;
  default: return v;
  }
}

int64_t cp_int_arith(cp_arith_op op, cp_type_kind kind, int64_t a, int64_t b, bool *is_null) {
  uint64_t x = (uint64_t)a, y = (uint64_t)b, r = 0;
  *is_null = false;
  switch (op) {
  case CP_ARITH_ADD: r = x + y; break;
  case CP_ARITH_SUB: r = x - y; break;
  case CP_ARITH_MUL: r = x * y; break;
  case CP_ARITH_DIV:
  case CP_ARITH_MOD:
    if (b == 0) {
      *is_null = true;
      return 0;
    }
    if (b == -1)
      r = op == CP_ARITH_DIV ? 0 - x : 0; /* MIN / -1 wraps, MIN % -1 is 0 */
    else
      r = (uint64_t)(op == CP_ARITH_DIV ? a / b : a % b);
    break;
  }
  return cp_int_wrap(kind, (int64_t)r);
}

double cp_float_arith(cp_arith_op op, double a, double b, bool *is_null) {
  *is_null = false;
  switch (op) {
  case CP_ARITH_ADD: return a + b;
  case CP_ARITH_SUB: return a - b;
  case CP_ARITH_MUL: return a * b;
  case CP_ARITH_DIV:
    if (b == 0) break;
    return a / b;
  case CP_ARITH_MOD:
    if (b == 0) break;
    return fmod(a, b);
  }
  *is_null = true;
  return 0;
}

uint32_t cp_utf8_next(const uint8_t *s, size_t len, size_t *i) {
  uint8_t b = s[*i];
  size_t n = b < 0x80             ? 1
             : (b & 0xE0) == 0xC0 ? 2
             : (b & 0xF0) == 0xE0 ? 3
             : (b & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0 || *i + n > len) {
    (*i)++;
    return b;
  }
  uint32_t c = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
  for (size_t k = 1; k < n; k++) {
    if ((s[*i + k] & 0xC0) != 0x80) {
      (*i)++;
      return b;
    }
    c = (c << 6) | (s[*i + k] & 0x3Fu);
  }
  *i += n;
  return c;
}

static size_t utf8_put(uint32_t c, uint8_t *out) {
  if (c < 0x80) {
    out[0] = (uint8_t)c;
    return 1;
  }
  if (c < 0x800) {
    out[0] = (uint8_t)(0xC0 | (c >> 6));
    out[1] = (uint8_t)(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = (uint8_t)(0xE0 | (c >> 12));
    out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    out[2] = (uint8_t)(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = (uint8_t)(0xF0 | (c >> 18));
  out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
  out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
  out[3] = (uint8_t)(0x80 | (c & 0x3F));
  return 4;
}

/* One-to-one case mapping of the scripts listed at the top of the file. */
static uint32_t map_case(uint32_t c, bool upper) {
  if (c < 0x80) {
    if (upper && c >= 'a' && c <= 'z') return c - 32;
    if (!upper && c >= 'A' && c <= 'Z') return c + 32;
    return c;
  }
  if (c >= 0xC0 && c <= 0xFE && c != 0xD7 && c != 0xF7 && c != 0xDF) {
    if (upper && c >= 0xE0) return c - 0x20;
    if (!upper && c <= 0xDE) return c + 0x20;
    return c;
  }
  if (c == 0xFF) return upper ? 0x178 : c;
  if (c == 0x178) return upper ? c : 0xFF;
  if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) {
    bool is_upper = (c & 1) == 0;
    return upper ? (is_upper ? c : c - 1) : (is_upper ? c + 1 : c);
  }
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) {
    bool is_upper = (c & 1) == 1;
    return upper ? (is_upper ? c : c - 1) : (is_upper ? c + 1 : c);
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return upper ? c : c + 0x20;
  if (c >= 0x3B1 && c <= 0x3C9) return !upper ? c : c == 0x3C2 ? 0x3A3 : c - 0x20;
  if (c == 0x386) return upper ? c : 0x3AC;
  if (c == 0x3AC) return upper ? 0x386 : c;
  if (c >= 0x388 && c <= 0x38A) return upper ? c : c + 0x25;
  if (c >= 0x3AD && c <= 0x3AF) return upper ? c - 0x25 : c;
  if (c == 0x38C) return upper ? c : 0x3CC;
  if (c == 0x3CC) return upper ? 0x38C : c;
  if (c == 0x38E || c == 0x38F) return upper ? c : c + 0x3F;
  if (c == 0x3CD || c == 0x3CE) return upper ? c - 0x3F : c;
  if (c >= 0x410 && c <= 0x42F) return upper ? c : c + 0x20;
  if (c >= 0x430 && c <= 0x44F) return upper ? c - 0x20 : c;
  if (c >= 0x400 && c <= 0x40F) return upper ? c : c + 0x50;
  if (c >= 0x450 && c <= 0x45F) return upper ? c - 0x50 : c;
  return c;
}

static int change_case(const cp_datum *s, bool upper, cp_arena *arena, cp_datum *out,
                       paimon_error *err) {
  size_t len = s->v.bytes.len;
  uint8_t *buf = cp_arena_alloc(arena, len * 2 + 1); /* these mappings grow by 1 byte at most */
  if (!buf) return CP_ENOMEM(err, "UPPER/LOWER");
  size_t n = 0, i = 0;
  while (i < len) {
    size_t start = i;
    uint32_t c = cp_utf8_next(s->v.bytes.data, len, &i);
    if (c < 0x80 || i - start == 1) {
      buf[n++] = (uint8_t)(c < 0x80 ? map_case(c, upper) : s->v.bytes.data[start]);
      continue;
    }
    n += utf8_put(map_case(c, upper), buf + n);
  }
  *out = cp_datum_bytes(buf, n);
  return PAIMON_OK;
}

static int64_t char_count(const uint8_t *s, size_t len) {
  int64_t n = 0;
  for (size_t i = 0; i < len; i++) n += (s[i] & 0xC0) != 0x80;
  return n;
}

/* Byte offset of character `k` (k <= number of characters). */
static size_t char_offset(const uint8_t *s, size_t len, int64_t k) {
  size_t i = 0;
  while (k > 0 && i < len) {
    i++;
    while (i < len && (s[i] & 0xC0) == 0x80) i++;
    k--;
  }
  return i;
}

/* Spark's UTF8String.substringSQL(pos, length) on characters (bytes for binary). */
static void substring(const cp_datum *s, bool chars, int64_t pos, int64_t length, cp_datum *out) {
  const uint8_t *p = s->v.bytes.data;
  size_t len = s->v.bytes.len;
  int64_t n = chars ? char_count(p, len) : (int64_t)len;
  int64_t start = pos > 0 ? pos - 1 : pos < 0 ? n + pos : 0;
  int64_t end = start + length;
  if (length > INT32_MAX || end > INT32_MAX) end = INT32_MAX;
  if (start < 0) start = 0;
  if (end > n) end = n;
  if (start >= end) {
    *out = cp_datum_bytes(p, 0);
    return;
  }
  size_t b0 = chars ? char_offset(p, len, start) : (size_t)start;
  size_t b1 = chars ? b0 + char_offset(p + b0, len - b0, end - start) : (size_t)end;
  *out = cp_datum_bytes(p + b0, b1 - b0);
}

static int concat(const cp_expr *e, const cp_datum *args, cp_arena *arena, cp_datum *out,
                  paimon_error *err) {
  size_t total = 0;
  for (size_t i = 0; i < e->n_args; i++) {
    if (args[i].is_null) {
      *out = cp_datum_null();
      return PAIMON_OK;
    }
    total += args[i].v.bytes.len;
  }
  uint8_t *buf = cp_arena_alloc(arena, total + 1);
  if (!buf) return CP_ENOMEM(err, "CONCAT");
  size_t n = 0;
  for (size_t i = 0; i < e->n_args; i++) {
    if (args[i].v.bytes.len) memcpy(buf + n, args[i].v.bytes.data, args[i].v.bytes.len);
    n += args[i].v.bytes.len;
  }
  *out = cp_datum_bytes(buf, n);
  return PAIMON_OK;
}

static void absolute(const cp_type *t, const cp_datum *a, cp_datum *out) {
  *out = *a;
  switch (t->kind) {
  case CP_TYPE_FLOAT: out->v.f32 = fabsf(a->v.f32); break;
  case CP_TYPE_DOUBLE: out->v.f64 = fabs(a->v.f64); break;
  case CP_TYPE_DECIMAL: out->v.dec = a->v.dec < 0 ? -a->v.dec : a->v.dec; break;
  default:
    out->v.i64 = cp_int_wrap(t->kind, a->v.i64 < 0 ? (int64_t)(0 - (uint64_t)a->v.i64) : a->v.i64);
  }
}

static int func(const cp_expr *e, const cp_datum *args, cp_arena *arena, cp_datum *out,
                paimon_error *err) {
  if (e->op == CP_FUNC_CONCAT) return concat(e, args, arena, out, err);
  for (size_t i = 0; i < e->n_args; i++) {
    if (args[i].is_null) {
      *out = cp_datum_null();
      return PAIMON_OK;
    }
  }
  const cp_type *t0 = e->args[0]->type;
  bool chars = cp_type_is_string(t0);
  switch (e->op) {
  case CP_FUNC_UPPER:
  case CP_FUNC_LOWER: return change_case(&args[0], e->op == CP_FUNC_UPPER, arena, out, err);
  case CP_FUNC_LENGTH:
    *out = cp_datum_int(chars ? char_count(args[0].v.bytes.data, args[0].v.bytes.len)
                              : (int64_t)args[0].v.bytes.len);
    return PAIMON_OK;
  case CP_FUNC_SUBSTRING:
    substring(&args[0], chars, args[1].v.i64, e->n_args > 2 ? args[2].v.i64 : INT32_MAX, out);
    return PAIMON_OK;
  case CP_FUNC_TRIM: {
    const uint8_t *p = args[0].v.bytes.data;
    size_t a = 0, b = args[0].v.bytes.len;
    while (a < b && p[a] == ' ') a++;
    while (b > a && p[b - 1] == ' ') b--;
    *out = cp_datum_bytes(p + a, b - a);
    return PAIMON_OK;
  }
  case CP_FUNC_ABS: absolute(t0, &args[0], out); return PAIMON_OK;
  case CP_FUNC_DATE_ADD: *out = cp_datum_int(args[0].v.i64 + args[1].v.i64); return PAIMON_OK;
  case CP_FUNC_DATE_DIFF: *out = cp_datum_int(args[0].v.i64 - args[1].v.i64); return PAIMON_OK;
  case CP_FUNC_SIZE:
  case CP_FUNC_ARRAY:
  case CP_FUNC_GET_FIELD:
  case CP_FUNC_SUBSCRIPT:
  case CP_FUNC_ELEMENT_AT:
  case CP_FUNC_NESTED_TO_STRING:
  case CP_FUNC_NESTED_EQUAL:
  case CP_FUNC_NAMED_STRUCT:
    /* Nested values have no datum: the vectorized kernel (eval_nested.c) computes these. */
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s has no per-value form",
                            e->op == CP_FUNC_SIZE ? "SIZE" : "ARRAY");
  default: return paimon_error_set(err, PAIMON_EINVAL, "unknown function %d", e->op);
  }
}

static void arith(const cp_expr *e, const cp_datum *a, const cp_datum *b, cp_datum *out) {
  const cp_type *t = e->type, *ta = e->args[0]->type, *tb = e->args[1]->type;
  bool is_null = false;
  out->is_null = false;
  if (t->kind == CP_TYPE_DECIMAL) {
    is_null = !cp_dec_arith((cp_arith_op)e->op, a->v.dec, ta->scale, b->v.dec, tb->scale,
                            t->precision, t->scale, &out->v.dec);
  } else if (t->kind == CP_TYPE_DOUBLE) {
    out->v.f64 = cp_float_arith((cp_arith_op)e->op, a->v.f64, b->v.f64, &is_null);
  } else if (t->kind == CP_TYPE_FLOAT) {
    out->v.f32 = (float)cp_float_arith((cp_arith_op)e->op, a->v.f32, b->v.f32, &is_null);
  } else {
    out->v.i64 = cp_int_arith((cp_arith_op)e->op, t->kind, a->v.i64, b->v.i64, &is_null);
  }
  if (is_null) *out = cp_datum_null();
}

static void negate(const cp_type *t, const cp_datum *a, cp_datum *out) {
  *out = *a;
  switch (t->kind) {
  case CP_TYPE_FLOAT: out->v.f32 = -a->v.f32; break;
  case CP_TYPE_DOUBLE: out->v.f64 = -a->v.f64; break;
  case CP_TYPE_DECIMAL: out->v.dec = -a->v.dec; break;
  default: out->v.i64 = cp_int_wrap(t->kind, (int64_t)(0 - (uint64_t)a->v.i64));
  }
}

static cp_datum bool_datum(bool v) {
  cp_datum d;
  d.is_null = false;
  d.v.b = v;
  return d;
}

static int like(const cp_expr *e, const cp_datum *args, cp_datum *out, paimon_error *err) {
  if (args[0].is_null || (!e->like && args[1].is_null)) {
    *out = cp_datum_null();
    return PAIMON_OK;
  }
  const uint8_t *s = args[0].v.bytes.data;
  size_t len = args[0].v.bytes.len;
  if (e->like) {
    *out = bool_datum(cp_like_match(e->like, s, len));
    return PAIMON_OK;
  }
  cp_like_pattern *p;
  CP_RETURN_IF_ERROR(cp_like_compile((cp_like_kind)e->op, args[1].v.bytes.data, args[1].v.bytes.len,
                                     e->escape, &p, err));
  *out = bool_datum(cp_like_match(p, s, len));
  cp_like_free(p);
  return PAIMON_OK;
}

/* AND / OR in three-valued logic: `dominant` (FALSE for AND, TRUE for OR) wins over NULL. */
static cp_datum logic(const cp_datum *args, size_t n, bool dominant) {
  bool saw_null = false;
  for (size_t i = 0; i < n; i++) {
    if (args[i].is_null)
      saw_null = true;
    else if (args[i].v.b == dominant)
      return bool_datum(dominant);
  }
  return saw_null ? cp_datum_null() : bool_datum(!dominant);
}

static cp_datum in_list(const cp_expr *e, const cp_datum *args) {
  if (args[0].is_null) return cp_datum_null();
  bool saw_null = false;
  for (size_t i = 1; i < e->n_args; i++) {
    if (args[i].is_null)
      saw_null = true;
    else if (cp_value_compare(e->args[0]->type, &args[0], &args[i]) == 0)
      return bool_datum(true);
  }
  return saw_null ? cp_datum_null() : bool_datum(false);
}

static cp_datum compare(const cp_expr *e, const cp_datum *a, const cp_datum *b) {
  if (e->op == CP_CMP_EQ_NULL_SAFE) {
    if (a->is_null || b->is_null) return bool_datum(a->is_null && b->is_null);
    return bool_datum(cp_value_compare(e->args[0]->type, a, b) == 0);
  }
  if (a->is_null || b->is_null) return cp_datum_null();
  int c = cp_value_compare(e->args[0]->type, a, b);
  switch (e->op) {
  case CP_CMP_EQ: return bool_datum(c == 0);
  case CP_CMP_NE: return bool_datum(c != 0);
  case CP_CMP_LT: return bool_datum(c < 0);
  case CP_CMP_LE: return bool_datum(c <= 0);
  case CP_CMP_GT: return bool_datum(c > 0);
  default: return bool_datum(c >= 0);
  }
}

int cp_scalar_eval(const cp_expr *e, const cp_datum *args, cp_arena *arena, cp_datum *out,
                   paimon_error *err) {
  switch (e->kind) {
  case CP_EXPR_COMPARE: *out = compare(e, &args[0], &args[1]); return PAIMON_OK;
  case CP_EXPR_IS_NULL: *out = bool_datum(args[0].is_null != e->negated); return PAIMON_OK;
  case CP_EXPR_IN: *out = in_list(e, args); return PAIMON_OK;
  case CP_EXPR_LIKE: return like(e, args, out, err);
  case CP_EXPR_AND: *out = logic(args, e->n_args, false); return PAIMON_OK;
  case CP_EXPR_OR: *out = logic(args, e->n_args, true); return PAIMON_OK;
  case CP_EXPR_NOT:
    *out = args[0].is_null ? cp_datum_null() : bool_datum(!args[0].v.b);
    return PAIMON_OK;
  case CP_EXPR_ARITH:
    if (args[0].is_null || args[1].is_null)
      *out = cp_datum_null();
    else
      arith(e, &args[0], &args[1], out);
    return PAIMON_OK;
  case CP_EXPR_NEGATE:
    if (args[0].is_null)
      *out = cp_datum_null();
    else
      negate(e->type, &args[0], out);
    return PAIMON_OK;
  case CP_EXPR_CAST: return cp_cast_datum(e->args[0]->type, &args[0], e->type, arena, out, err);
  case CP_EXPR_COALESCE:
    *out = cp_datum_null();
    for (size_t i = 0; i < e->n_args; i++) {
      if (!args[i].is_null) {
        *out = args[i];
        break;
      }
    }
    return PAIMON_OK;
  case CP_EXPR_CASE:
    for (size_t i = 0; i + 1 < e->n_args; i += 2) {
      if (!args[i].is_null && args[i].v.b) {
        *out = args[i + 1];
        return PAIMON_OK;
      }
    }
    *out = args[e->n_args - 1];
    return PAIMON_OK;
  case CP_EXPR_FUNC: return func(e, args, arena, out, err);
  default:
    return paimon_error_set(err, PAIMON_EINVAL, "expression kind %d has no per-value form",
                            (int)e->kind);
  }
}
