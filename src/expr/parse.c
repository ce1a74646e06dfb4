/*
 * Values from text: cp_datum_parse_text (strict, for literals typed by a user: the CLI, the
 * public predicate API, SQL literals) and the lenient parsers behind Spark's non-ANSI casts from
 * STRING (Cast.castToInt / castToDecimal / stringToDate / stringToTimestamp / isTrueString), which
 * return NULL instead of failing.
 *
 * Forms (both modes trim bytes <= 0x20 around non-string values, as UTF8String.trimAll does):
 *   integers   [+-]digits; lenient also [+-]digits.digits (the fraction is dropped, Spark's
 *              UTF8String.toLong); out of range fails in both modes
 *   floating   [+-](digits[.digits]|.digits)[(e|E)[+-]digits][fFdD] (Java's parseDouble), and
 *              NaN, Infinity, inf with a sign, any case
 *   decimal    as floating (no NaN/Infinity); strict: exact at the scale; lenient: HALF_UP
 *   date       [+-]yyyy-[m]m-[d]d; lenient also yyyy, yyyy-[m]m and a tail after ' ' or 'T'
 *   time       [h]h:[m]m[:[s]s[.fraction]]
 *   timestamp  date[( |T)[h]h:[m]m[:[s]s[.fraction 1-9 digits]]][zone]; zone: Z, UTC, GMT, UT,
 *              [+-]hh[:mm] or [+-]hhmm, optionally after a space; lenient also yyyy and yyyy-[m]m
 *   boolean    t true y yes 1 / f false n no 0, any case
 *   binary     X'hex' (strict and lenient) or the bytes of the text
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "base/time.h"
#include "expr/expr_internal.h"

static void trim(const char **s, size_t *len) {
  while (*len && (unsigned char)(*s)[0] <= 0x20) (*s)++, (*len)--;
  while (*len && (unsigned char)(*s)[*len - 1] <= 0x20) (*len)--;
}

static bool word_is(const char *s, size_t len, const char *w) {
  return strlen(w) == len && strncasecmp(s, w, len) == 0;
}

static int fail(const char **why, const char *reason) {
  *why = reason;
  return -1;
}

/* ---- numbers ------------------------------------------------------------------------------ */

static int parse_integer(cp_type_kind kind, const char *s, size_t len, bool strict, int64_t *out,
                         const char **why) {
  size_t i = 0;
  bool neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  if (i == len) return fail(why, "not an integer");
  /* Accumulate negatively so that the minimum value parses (|MIN| > MAX). */
  int64_t v = 0;
  size_t digits = 0;
  for (; i < len && s[i] != '.'; i++, digits++) {
    if (s[i] < '0' || s[i] > '9') return fail(why, "not an integer");
    if (v < (INT64_MIN + (s[i] - '0')) / 10) return fail(why, "out of range");
    v = v * 10 - (s[i] - '0');
  }
  if (i < len) {
    if (strict) return fail(why, "not an integer");
    for (i++; i < len; i++)
      if (s[i] < '0' || s[i] > '9') return fail(why, "not an integer");
  }
  if (!digits) return fail(why, "not an integer");
  if (!neg) {
    if (v == INT64_MIN) return fail(why, "out of range");
    v = -v;
  }
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (kind == CP_TYPE_TINYINT) lo = INT8_MIN, hi = INT8_MAX;
  if (kind == CP_TYPE_SMALLINT) lo = INT16_MIN, hi = INT16_MAX;
  if (kind == CP_TYPE_INT) lo = INT32_MIN, hi = INT32_MAX;
  if (v < lo || v > hi) return fail(why, "out of range");
  *out = v;
  return 0;
}

/* The shape of a decimal number: digits (leading zeros dropped), where the point was, the
 * exponent. */
typedef struct num_text {
  bool neg;
  char digits[96];
  int n_digits;  /* significant digits kept in `digits` */
  int scale;     /* value = digits * 10^-scale */
  bool overflow; /* more than 96 significant digits */
} num_text;

/* Scans [+-](digits[.digits]|.digits)[(e|E)[+-]digits]; false when it is not that. A trailing
 * f/F/d/D is allowed when `java_suffix`. */
static bool scan_number(const char *s, size_t len, bool java_suffix, num_text *n) {
  memset(n, 0, sizeof *n);
  size_t i = 0;
  if (i < len && (s[i] == '+' || s[i] == '-')) n->neg = s[i++] == '-';
  int int_digits = 0, frac_digits = 0;
  for (; i < len && isdigit((unsigned char)s[i]); i++, int_digits++) {
    if (n->n_digits == 0 && s[i] == '0') continue;
    if (n->n_digits < (int)sizeof n->digits)
      n->digits[n->n_digits++] = s[i];
    else
      n->overflow = true, n->scale--;
  }
  if (i < len && s[i] == '.') {
    for (i++; i < len && isdigit((unsigned char)s[i]); i++, frac_digits++) {
      if (n->n_digits == 0 && s[i] == '0') {
        n->scale++;
        continue;
      }
      if (n->n_digits < (int)sizeof n->digits) {
        n->digits[n->n_digits++] = s[i];
        n->scale++;
      }
    }
  }
  if (int_digits + frac_digits == 0) return false;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < len && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    int64_t e = 0;
    size_t start = i;
    for (; i < len && isdigit((unsigned char)s[i]); i++)
      if (e < 100000) e = e * 10 + (s[i] - '0');
    if (i == start) return false;
    n->scale += (int)(eneg ? e : -e);
  }
  if (java_suffix && i + 1 == len && strchr("fFdD", s[i])) i++;
  return i == len;
}

/* The unscaled value of `n` at `scale`; strict refuses to drop non-zero digits, lenient rounds
 * HALF_UP. */
static int num_to_decimal(const num_text *n, int precision, int scale, bool strict, cp_int128 *out,
                          const char **why) {
  if (n->overflow) return fail(why, "too many digits");
  int shift = scale - n->scale; /* digits to append (>0) or drop (<0) */
  int keep = n->n_digits + (shift < 0 ? shift : 0);
  bool round_up = false;
  if (shift < 0) {
    for (int k = keep < 0 ? 0 : keep; k < n->n_digits; k++) {
      if (strict && n->digits[k] != '0') return fail(why, "more fraction digits than the scale");
    }
    round_up = keep >= 0 && keep < n->n_digits && n->digits[keep] >= '5';
    if (keep < 0) keep = 0;
  }
  if (keep + (shift > 0 ? shift : 0) > precision)
    return fail(why, "out of range for the precision");
  cp_int128 v = 0;
  for (int k = 0; k < keep; k++) v = v * 10 + (n->digits[k] - '0');
  for (int k = 0; k < shift; k++) v *= 10;
  if (round_up) v += 1;
  if (!cp_dec_fits(v, precision)) return fail(why, "out of range for the precision");
  *out = n->neg ? -v : v;
  return 0;
}

static bool special_double(const char *s, size_t len, double *out) {
  double sign = 1;
  if (len && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s++, len--;
  }
  if (word_is(s, len, "inf") || word_is(s, len, "infinity")) {
    *out = sign * INFINITY;
    return true;
  }
  if (word_is(s, len, "nan") && sign > 0) {
    *out = NAN;
    return true;
  }
  return false;
}

static int parse_floating(bool single, const char *s, size_t len, double *out, const char **why) {
  if (special_double(s, len, out)) return 0;
  num_text n;
  if (!scan_number(s, len, true, &n)) return fail(why, "not a number");
  char buf[128];
  char *copy = len < sizeof buf ? buf : malloc(len + 1);
  if (!copy) return fail(why, "out of memory");
  memcpy(copy, s, len);
  copy[len] = '\0';
  if (len && strchr("fFdD", copy[len - 1])) copy[len - 1] = '\0';
  *out = single ? (double)strtof(copy, NULL) : strtod(copy, NULL);
  if (copy != buf) free(copy);
  return 0;
}

/* ---- dates and times ---------------------------------------------------------------------- */

static bool digits_at(const char *s, size_t len, size_t *i, int min, int max, int64_t *v) {
  int n = 0;
  *v = 0;
  while (*i < len && n < max && isdigit((unsigned char)s[*i])) {
    *v = *v * 10 + (s[*i] - '0');
    (*i)++;
    n++;
  }
  return n >= min && !(*i < len && isdigit((unsigned char)s[*i]));
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* [+-]yyyy[-[m]m[-[d]d]] at *i; `partial` allows leaving out the month or day. */
static int scan_date(const char *s, size_t len, size_t *i, bool partial, int64_t *days,
                     const char **why) {
  bool neg = false;
  if (*i < len && (s[*i] == '+' || s[*i] == '-')) neg = s[(*i)++] == '-';
  int64_t y, m = 1, d = 1;
  if (!digits_at(s, len, i, 4, 7, &y)) return fail(why, "expected a date yyyy-mm-dd");
  bool have_m = false, have_d = false;
  if (*i < len && s[*i] == '-') {
    (*i)++;
    if (!digits_at(s, len, i, 1, 2, &m)) return fail(why, "expected a month");
    have_m = true;
    if (*i < len && s[*i] == '-') {
      (*i)++;
      if (!digits_at(s, len, i, 1, 2, &d)) return fail(why, "expected a day");
      have_d = true;
    }
  }
  if (!partial && (!have_m || !have_d)) return fail(why, "expected a date yyyy-mm-dd");
  if (neg) y = -y;
  static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12) return fail(why, "month out of range");
  if (d < 1 || d > mdays[m - 1] + (m == 2 && is_leap(y))) return fail(why, "day out of range");
  *days = cp_days_from_civil(y, (int)m, (int)d);
  return 0;
}

/* [h]h:[m]m[:[s]s[.f{1,9}]] at *i into nanoseconds of the day. */
static int scan_clock(const char *s, size_t len, size_t *i, int64_t *nanos, const char **why) {
  int64_t h, mi, sec = 0, f = 0;
  if (!digits_at(s, len, i, 1, 2, &h) || *i >= len || s[*i] != ':')
    return fail(why, "expected a time hh:mm[:ss[.fraction]]");
  (*i)++;
  if (!digits_at(s, len, i, 1, 2, &mi)) return fail(why, "expected minutes");
  if (*i < len && s[*i] == ':') {
    (*i)++;
    if (!digits_at(s, len, i, 1, 2, &sec)) return fail(why, "expected seconds");
    if (*i < len && s[*i] == '.') {
      (*i)++;
      int n = 0;
      while (*i < len && isdigit((unsigned char)s[*i])) {
        if (n < 9)
          f = f * 10 + (s[*i] - '0');
        else if (s[*i] != '0')
          return fail(why, "more than 9 fraction digits");
        n++;
        (*i)++;
      }
      if (n == 0) return fail(why, "expected fraction digits");
      for (; n < 9; n++) f *= 10;
    }
  }
  if (h > 23 || mi > 59 || sec > 59) return fail(why, "time of day out of range");
  *nanos = ((h * 60 + mi) * 60 + sec) * 1000000000 + f;
  return 0;
}

/* Zone at *i (after an optional space): seconds east of UTC. */
static int scan_zone(const char *s, size_t len, size_t *i, int64_t *offset, const char **why) {
  *offset = 0;
  if (*i < len && s[*i] == ' ') (*i)++;
  if (*i < len && (s[*i] == 'Z' || s[*i] == 'z') && *i + 1 == len) {
    (*i)++;
    return 0;
  }
  static const char *const NAMES[] = {"UTC", "GMT", "UT"};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(NAMES[k]);
    if (len - *i >= n && strncasecmp(s + *i, NAMES[k], n) == 0) {
      *i += n;
      break;
    }
  }
  if (*i == len) return 0;
  if (s[*i] != '+' && s[*i] != '-') return fail(why, "unknown time zone");
  int sign = s[(*i)++] == '-' ? -1 : 1;
  int64_t hh, mm = 0;
  size_t start = *i;
  if (!digits_at(s, len, i, 1, 4, &hh)) return fail(why, "bad zone offset");
  if (*i - start > 2) { /* hhmm */
    mm = hh % 100;
    hh /= 100;
  } else if (*i < len && s[*i] == ':') {
    (*i)++;
    if (!digits_at(s, len, i, 2, 2, &mm)) return fail(why, "bad zone offset");
  }
  if (hh > 18 || mm > 59 || *i != len) return fail(why, "bad zone offset");
  *offset = sign * (hh * 3600 + mm * 60);
  return 0;
}

static int parse_timestamp(bool ltz, const char *s, size_t len, bool strict, cp_datum *out,
                           const char **why) {
  size_t i = 0;
  int64_t days, nanos = 0, offset = 0;
  if (scan_date(s, len, &i, !strict, &days, why) != 0) return -1;
  if (i < len && (s[i] == ' ' || s[i] == 'T')) {
    size_t save = i++;
    if (i < len && isdigit((unsigned char)s[i])) {
      if (scan_clock(s, len, &i, &nanos, why) != 0) return -1;
    } else {
      i = save; /* "2024-01-01 UTC" */
    }
  }
  if (i < len && scan_zone(s, len, &i, &offset, why) != 0) return -1;
  if (i != len) return fail(why, "unexpected text after the timestamp");
  int64_t secs;
  if (__builtin_mul_overflow(days, (int64_t)86400, &secs) ||
      __builtin_add_overflow(secs, nanos / 1000000000, &secs) ||
      (ltz && __builtin_sub_overflow(secs, offset, &secs)) ||
      __builtin_mul_overflow(secs, (int64_t)1000, &out->v.ts.millis))
    return fail(why, "out of range");
  int64_t sub = nanos % 1000000000;
  out->v.ts.millis += sub / 1000000;
  out->v.ts.nanos_of_milli = (int32_t)(sub % 1000000);
  return 0;
}

static int parse_date(const char *s, size_t len, bool strict, int64_t *out, const char **why) {
  size_t i = 0;
  if (scan_date(s, len, &i, !strict, out, why) != 0) return -1;
  if (i == len) return 0;
  if (!strict && (s[i] == ' ' || s[i] == 'T')) return 0; /* Spark ignores what follows */
  return fail(why, "unexpected text after the date");
}

static int parse_time(const char *s, size_t len, bool strict, int64_t *out, const char **why) {
  size_t i = 0;
  int64_t nanos;
  if (scan_clock(s, len, &i, &nanos, why) != 0) return -1;
  if (i != len) return fail(why, "unexpected text after the time");
  if (strict && nanos % 1000000 != 0) return fail(why, "TIME holds milliseconds only");
  *out = nanos / 1000000;
  return 0;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int parse_binary(const char *s, size_t len, cp_arena *arena, cp_datum *out,
                        const char **why) {
  const char *t = s;
  size_t n = len;
  trim(&t, &n);
  if (n >= 3 && (t[0] == 'X' || t[0] == 'x') && t[1] == '\'' && t[n - 1] == '\'') {
    size_t digits = n - 3;
    if (digits % 2) return fail(why, "odd number of hex digits");
    uint8_t *bytes = cp_arena_alloc(arena, digits / 2 + 1);
    if (!bytes) return fail(why, "out of memory");
    for (size_t k = 0; k < digits / 2; k++) {
      int hi = hex_value(t[2 + 2 * k]), lo = hex_value(t[3 + 2 * k]);
      if (hi < 0 || lo < 0) return fail(why, "bad hex digit");
      bytes[k] = (uint8_t)(hi * 16 + lo);
    }
    *out = cp_datum_bytes(bytes, digits / 2);
    return 0;
  }
  *out = cp_datum_bytes(s, len);
  return 0;
}

/* ---- entry points ------------------------------------------------------------------------- */

int cp_parse_value(const cp_type *t, const char *s, size_t len, bool strict, cp_arena *arena,
                   cp_datum *out, const char **why) {
  out->is_null = false;
  if (cp_type_is_string(t)) {
    *out = cp_datum_bytes(s, len);
    return 0;
  }
  if (cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB) return parse_binary(s, len, arena, out, why);
  trim(&s, &len);
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: {
    static const char *const T[] = {"t", "true", "y", "yes", "1"};
    static const char *const F[] = {"f", "false", "n", "no", "0"};
    for (int k = 0; k < 5; k++) {
      if (word_is(s, len, T[k])) return out->v.b = true, 0;
      if (word_is(s, len, F[k])) return out->v.b = false, 0;
    }
    return fail(why, "not a boolean");
  }
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT: return parse_integer(t->kind, s, len, strict, &out->v.i64, why);
  case CP_TYPE_FLOAT: {
    double d;
    if (parse_floating(true, s, len, &d, why) != 0) return -1;
    out->v.f32 = (float)d;
    return 0;
  }
  case CP_TYPE_DOUBLE: return parse_floating(false, s, len, &out->v.f64, why);
  case CP_TYPE_DECIMAL: {
    num_text n;
    if (!scan_number(s, len, false, &n)) return fail(why, "not a decimal number");
    return num_to_decimal(&n, t->precision, t->scale, strict, &out->v.dec, why);
  }
  case CP_TYPE_DATE: return parse_date(s, len, strict, &out->v.i64, why);
  case CP_TYPE_TIME: return parse_time(s, len, strict, &out->v.i64, why);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return parse_timestamp(t->kind == CP_TYPE_TIMESTAMP_LTZ, s, len, strict, out, why);
  default: return fail(why, "values of this type cannot be parsed from text");
  }
}

int cp_parse_number_literal(const char *s, size_t len, cp_type **type, cp_datum *out) {
  *type = NULL;
  trim(&s, &len);
  out->is_null = false;
  if (special_double(s, len, &out->v.f64)) {
    *type = cp_type_make(CP_TYPE_DOUBLE);
    return *type ? 0 : -1;
  }
  num_text n;
  if (!scan_number(s, len, false, &n)) return -1;
  bool has_exp = memchr(s, 'e', len) || memchr(s, 'E', len);
  bool has_point = memchr(s, '.', len) != NULL;
  const char *why;
  if (has_exp || n.overflow || n.n_digits > 38) {
    if (parse_floating(false, s, len, &out->v.f64, &why) != 0) return -1;
    *type = cp_type_make(CP_TYPE_DOUBLE);
    return *type ? 0 : -1;
  }
  if (!has_point && parse_integer(CP_TYPE_BIGINT, s, len, true, &out->v.i64, &why) == 0) {
    bool small = out->v.i64 >= INT32_MIN && out->v.i64 <= INT32_MAX;
    *type = cp_type_make(small ? CP_TYPE_INT : CP_TYPE_BIGINT);
    return *type ? 0 : -1;
  }
  int scale = n.scale > 0 ? n.scale : 0;
  int precision = n.n_digits - n.scale + scale; /* integer digits + fraction digits */
  if (precision < scale) precision = scale;
  if (precision < 1) precision = 1;
  if (precision > CP_DECIMAL_MAX_PRECISION) return -1;
  if (num_to_decimal(&n, precision, scale, true, &out->v.dec, &why) != 0) return -1;
  *type = cp_type_make_decimal(precision, scale);
  return *type ? 0 : -1;
}

int cp_datum_parse_text(const cp_type *t, const char *text, cp_arena *arena, cp_datum *out,
                        paimon_error *err) {
  const char *why = "invalid";
  size_t len = strlen(text);
  if (cp_type_is_nested(t) || t->kind == CP_TYPE_VARIANT)
    return paimon_error_set(err, PAIMON_EINVAL, "cannot parse a %s value from text",
                            cp_type_kind_name(t->kind));
  if (cp_parse_value(t, text, len, true, arena, out, &why) != 0) {
    cp_buf name = CP_BUF_INIT;
    cp_type_append_name(t, &name);
    cp_buf_nul_terminate(&name, NULL);
    int shown = len > 100 ? 100 : (int)len;
    paimon_error_set(err, PAIMON_EINVAL, "invalid %s value '%.*s%s': %s",
                     name.data ? (const char *)name.data : "?", shown, text, len > 100 ? "..." : "",
                     why);
    cp_buf_free(&name);
    return PAIMON_EINVAL;
  }
  /* Strings and raw binary point into `text`; give them the arena's lifetime. */
  if ((cp_type_is_string(t) || cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB) &&
      (const char *)out->v.bytes.data >= text && (const char *)out->v.bytes.data <= text + len) {
    uint8_t *copy = cp_arena_alloc(arena, out->v.bytes.len + 1);
    if (!copy) return CP_ENOMEM(err, "parsed text");
    memcpy(copy, out->v.bytes.data, out->v.bytes.len);
    out->v.bytes.data = copy;
  }
  return PAIMON_OK;
}
