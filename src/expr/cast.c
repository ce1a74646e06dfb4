/*
 * CAST between atomic Paimon types with Spark's non-ANSI semantics (Spark Cast with
 * spark.sql.ansi.enabled=false): a value that does not convert becomes NULL; narrowing integer
 * casts wrap (Java's (byte) / (short) / (int) conversions); floating point to integer saturates
 * at the int (or long) range first, NaN giving 0 (Java d2i / d2l); decimals round HALF_UP and
 * overflow to NULL; numbers to timestamps are seconds since the epoch; strings are parsed
 * leniently (parse.c) and values print as Spark prints them (Java's Double.toString for DOUBLE).
 *
 * Deviations: CHAR(n) / VARCHAR(n) targets are not padded or truncated (Paimon stores the text
 * as given); BINARY to STRING gives NULL for bytes that are not UTF-8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "base/status.h"
#include "base/time.h"
#include "expr/expr_internal.h"

static bool is_ts(const cp_type *t) {
  return t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ;
}

static bool is_text(const cp_type *t) { return cp_type_is_string(t); }

static bool is_bytes(const cp_type *t) { return cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB; }

static bool is_atomic(const cp_type *t) {
  return !cp_type_is_nested(t) && t->kind != CP_TYPE_VARIANT;
}

bool cp_cast_allowed(const cp_type *from, const cp_type *to) {
  if (!is_atomic(from) || !is_atomic(to)) return false;
  if (cp_type_same_repr(from, to) || is_text(from) || is_text(to)) return true;
  bool num_f = cp_type_is_numeric(from) || from->kind == CP_TYPE_BOOLEAN;
  bool num_t = cp_type_is_numeric(to) || to->kind == CP_TYPE_BOOLEAN;
  if (num_f && num_t) return true;
  if (cp_type_is_numeric(from) && is_ts(to)) return true;
  if (is_ts(from) && cp_type_is_numeric(to)) return true;
  if ((is_ts(from) || from->kind == CP_TYPE_DATE) && (is_ts(to) || to->kind == CP_TYPE_DATE))
    return true;
  return is_bytes(from) && is_bytes(to);
}

bool cp_cast_explicit_allowed(const cp_type *from, const cp_type *to) {
  if (cp_cast_allowed(from, to)) return true;
  if (cp_type_is_integer(from) && cp_type_is_binary(to)) return true;
  return from->kind == CP_TYPE_BOOLEAN && to->kind == CP_TYPE_TIMESTAMP_LTZ;
}

static int int_rank(cp_type_kind k) {
  return k == CP_TYPE_TINYINT ? 1 : k == CP_TYPE_SMALLINT ? 2 : k == CP_TYPE_INT ? 4 : 8;
}

bool cp_cast_is_monotonic(const cp_type *from, const cp_type *to) {
  if (cp_type_same_repr(from, to)) return true;
  if (is_text(from) && is_text(to)) return true;
  if (cp_type_is_integer(from) && cp_type_is_integer(to))
    return int_rank(to->kind) >= int_rank(from->kind);
  bool num_f = cp_type_is_numeric(from) || from->kind == CP_TYPE_BOOLEAN;
  if (num_f && (to->kind == CP_TYPE_FLOAT || to->kind == CP_TYPE_DOUBLE)) return true;
  if ((cp_type_is_integer(from) || from->kind == CP_TYPE_DECIMAL ||
       from->kind == CP_TYPE_BOOLEAN) &&
      to->kind == CP_TYPE_DECIMAL)
    return true;
  if ((is_ts(from) || from->kind == CP_TYPE_DATE) && (is_ts(to) || to->kind == CP_TYPE_DATE))
    return true;
  return false;
}

/* ---- helpers ------------------------------------------------------------------------------ */

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void cp_timestamp_truncate(cp_datum *d, int precision) {
  if (precision >= 9) return;
  if (precision >= 3) {
    int32_t unit = 1;
    for (int i = precision; i < 9; i++) unit *= 10;
    d->v.ts.nanos_of_milli -= d->v.ts.nanos_of_milli % unit;
    return;
  }
  int64_t unit = precision == 0 ? 1000 : precision == 1 ? 100 : 10;
  d->v.ts.millis = floor_div(d->v.ts.millis, unit) * unit;
  d->v.ts.nanos_of_milli = 0;
}

/* Java's (int) / (long) conversion of a double: NaN is 0, out-of-range values saturate. */
static int64_t java_d2l(double d, bool to_int) {
  if (isnan(d)) return 0;
  double lo = to_int ? (double)INT32_MIN : -9223372036854775808.0;
  double hi = to_int ? (double)INT32_MAX : 9223372036854775807.0;
  if (d <= lo) return to_int ? INT32_MIN : INT64_MIN;
  if (d >= hi) return to_int ? INT32_MAX : INT64_MAX;
  return (int64_t)d;
}

/* Value of a non-null number (or boolean) as a double. */
static double number_as_double(const cp_type *t, const cp_datum *d) {
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return d->v.b ? 1 : 0;
  case CP_TYPE_FLOAT: return d->v.f32;
  case CP_TYPE_DOUBLE: return d->v.f64;
  case CP_TYPE_DECIMAL: return cp_dec_to_double(d->v.dec, t->scale);
  default: return (double)d->v.i64;
  }
}

static int64_t ts_floor_seconds(const cp_datum *d) { return floor_div(d->v.ts.millis, 1000); }

static double ts_seconds(const cp_datum *d) {
  return (double)d->v.ts.millis / 1000.0 + d->v.ts.nanos_of_milli / 1e9;
}

static void null_out(cp_datum *out) { *out = cp_datum_null(); }

static void cast_to_integer(const cp_type *from, const cp_datum *in, cp_type_kind to,
                            cp_datum *out) {
  int64_t v;
  switch (from->kind) {
  case CP_TYPE_BOOLEAN: v = in->v.b; break;
  case CP_TYPE_FLOAT:
  case CP_TYPE_DOUBLE: v = java_d2l(number_as_double(from, in), to != CP_TYPE_BIGINT); break;
  case CP_TYPE_DECIMAL: {
    cp_int128 q = in->v.dec / cp_dec_pow10(from->scale); /* truncates toward zero */
    v = (int64_t)(uint64_t)(unsigned __int128)q;         /* BigInteger.longValue: low 64 bits */
    break;
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: v = ts_floor_seconds(in); break;
  default: v = in->v.i64; break;
  }
  *out = cp_datum_int(cp_int_wrap(to, v));
}

static void cast_to_decimal(const cp_type *from, const cp_datum *in, const cp_type *to,
                            cp_datum *out) {
  cp_int128 v;
  bool ok;
  switch (from->kind) {
  case CP_TYPE_DECIMAL:
    ok = cp_dec_rescale(in->v.dec, from->scale, to->scale, to->precision, &v);
    break;
  case CP_TYPE_FLOAT:
  case CP_TYPE_DOUBLE:
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    double d = is_ts(from) ? ts_seconds(in) : number_as_double(from, in);
    ok = cp_dec_from_double(d, to->precision, to->scale, &v);
    break;
  }
  default: {
    int64_t i = from->kind == CP_TYPE_BOOLEAN ? in->v.b : in->v.i64;
    ok = cp_dec_rescale(i, 0, to->scale, to->precision, &v);
  }
  }
  if (!ok) return null_out(out);
  out->is_null = false;
  out->v.dec = v;
}

static void cast_to_timestamp(const cp_type *from, const cp_datum *in, const cp_type *to,
                              cp_datum *out) {
  out->is_null = false;
  if (from->kind == CP_TYPE_DATE) {
    if (__builtin_mul_overflow(in->v.i64, (int64_t)86400000, &out->v.ts.millis))
      return null_out(out);
    out->v.ts.nanos_of_milli = 0;
  } else if (is_ts(from)) {
    *out = *in;
  } else if (from->kind == CP_TYPE_BOOLEAN) { /* Spark: 1 microsecond for TRUE */
    out->v.ts.millis = 0;
    out->v.ts.nanos_of_milli = in->v.b ? 1000 : 0;
  } else if (cp_type_is_integer(from)) {
    if (__builtin_mul_overflow(in->v.i64, (int64_t)1000, &out->v.ts.millis)) return null_out(out);
    out->v.ts.nanos_of_milli = 0;
  } else {
    /* Spark: (seconds * 1e6).toLong microseconds. */
    double secs = number_as_double(from, in);
    if (!isfinite(secs)) return null_out(out);
    int64_t micros = java_d2l(secs * 1e6, false);
    out->v.ts.millis = floor_div(micros, 1000);
    out->v.ts.nanos_of_milli = (int32_t)((micros - out->v.ts.millis * 1000) * 1000);
  }
  cp_timestamp_truncate(out, to->precision);
}

/* Longest text form of a non-binary atomic value (a 38-digit decimal with sign and point is 41
 * bytes; a timestamp with a 12-digit year and nanoseconds about 45). */
#define CP_VALUE_TEXT_MAX 96
static int value_text(const cp_type *t, const cp_datum *d, char out[CP_VALUE_TEXT_MAX], size_t *len,
                      paimon_error *err);

static int cast_to_text(const cp_type *from, const cp_datum *in, cp_arena *arena, cp_datum *out,
                        paimon_error *err) {
  if (is_text(from)) {
    *out = *in;
    return PAIMON_OK;
  }
  if (is_bytes(from)) {
    if (!cp_utf8_valid(in->v.bytes.data, (int64_t)in->v.bytes.len, NULL))
      null_out(out);
    else
      *out = *in;
    return PAIMON_OK;
  }
  char text[CP_VALUE_TEXT_MAX];
  size_t len;
  if (value_text(from, in, text, &len, NULL) != 0) {
    null_out(out); /* e.g. a TIME outside the day */
    return PAIMON_OK;
  }
  uint8_t *copy = cp_arena_alloc(arena, len + 1);
  if (!copy) return CP_ENOMEM(err, "cast to string");
  memcpy(copy, text, len);
  *out = cp_datum_bytes(copy, len);
  return PAIMON_OK;
}

int cp_cast_datum(const cp_type *from, const cp_datum *in, const cp_type *to, cp_arena *arena,
                  cp_datum *out, paimon_error *err) {
  if (in->is_null) {
    null_out(out);
    return PAIMON_OK;
  }
  if (!cp_cast_explicit_allowed(from, to)) {
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    cp_type_append_name(from, &a);
    cp_type_append_name(to, &b);
    paimon_error_set(err, PAIMON_EINVAL, "cannot cast %.*s to %.*s", (int)a.len,
                     (const char *)a.data, (int)b.len, (const char *)b.data);
    cp_buf_free(&a);
    cp_buf_free(&b);
    return PAIMON_EINVAL;
  }
  if (is_text(to)) return cast_to_text(from, in, arena, out, err);
  if (is_text(from)) {
    const char *why;
    if (is_bytes(to))
      *out = *in; /* the UTF-8 bytes, not hex */
    else if (cp_parse_value(to, (const char *)in->v.bytes.data, in->v.bytes.len, false, arena, out,
                            &why) != 0)
      null_out(out);
    if (!out->is_null && is_ts(to)) cp_timestamp_truncate(out, to->precision);
    return PAIMON_OK;
  }
  out->is_null = false;
  if (cp_type_is_integer(from) && cp_type_is_binary(to)) {
    /* Spark: the value's bytes, big-endian, as wide as its type */
    size_t n = (size_t)int_rank(from->kind);
    uint8_t *bytes = cp_arena_alloc(arena, n);
    if (!bytes) return CP_ENOMEM(err, "cast");
    for (size_t i = 0; i < n; i++) bytes[i] = (uint8_t)((uint64_t)in->v.i64 >> (8 * (n - 1 - i)));
    out->v.bytes.data = bytes;
    out->v.bytes.len = n;
    return PAIMON_OK;
  }
  switch (to->kind) {
  case CP_TYPE_BOOLEAN:
    if (from->kind == CP_TYPE_DECIMAL)
      out->v.b = in->v.dec != 0;
    else if (from->kind == CP_TYPE_FLOAT || from->kind == CP_TYPE_DOUBLE)
      out->v.b = number_as_double(from, in) != 0;
    else if (from->kind == CP_TYPE_BOOLEAN)
      out->v.b = in->v.b;
    else if (is_ts(from))
      out->v.b = in->v.ts.millis != 0 || in->v.ts.nanos_of_milli != 0;
    else
      out->v.b = in->v.i64 != 0;
    return PAIMON_OK;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT: cast_to_integer(from, in, to->kind, out); return PAIMON_OK;
  case CP_TYPE_FLOAT:
  case CP_TYPE_DOUBLE: {
    double d = is_ts(from) ? ts_seconds(in) : number_as_double(from, in);
    if (to->kind == CP_TYPE_FLOAT)
      out->v.f32 = (float)d;
    else
      out->v.f64 = d;
    return PAIMON_OK;
  }
  case CP_TYPE_DECIMAL: cast_to_decimal(from, in, to, out); return PAIMON_OK;
  case CP_TYPE_DATE:
    out->v.i64 = from->kind == CP_TYPE_DATE ? in->v.i64 : floor_div(in->v.ts.millis, 86400000);
    return PAIMON_OK;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: cast_to_timestamp(from, in, to, out); return PAIMON_OK;
  default: *out = *in; return PAIMON_OK; /* same representation (bytes, TIME) */
  }
}

/* ---- text forms --------------------------------------------------------------------------- */

/* Java's Double.toString / Float.toString: the shortest digits that read back as the value, in
 * plain notation for 1e-3 <= |v| < 1e7 and as d.dddE<n> otherwise. Returns the length. */
static size_t java_floating(double v, bool single, char *out) {
  if (isnan(v)) return (size_t)sprintf(out, "NaN");
  if (isinf(v)) return (size_t)sprintf(out, "%sInfinity", v < 0 ? "-" : "");
  if (v == 0) return (size_t)sprintf(out, "%s0.0", signbit(v) ? "-" : "");
  char text[40];
  for (int p = 1; p <= 17; p++) {
    snprintf(text, sizeof text, "%.*e", p - 1, v);
    if (single ? strtof(text, NULL) == (float)v : strtod(text, NULL) == v) break;
  }
  char digits[24];
  int n = 0;
  const char *c = text;
  size_t len = 0;
  if (*c == '-') out[len++] = *c++;
  for (; *c && *c != 'e'; c++)
    if (*c != '.') digits[n++] = *c;
  int e = atoi(c + 1);
  while (n > 1 && digits[n - 1] == '0') n--;
  if (e >= -3 && e < 7) {
    if (e < 0) {
      out[len++] = '0';
      out[len++] = '.';
      for (int i = 0; i < -e - 1; i++) out[len++] = '0';
      for (int i = 0; i < n; i++) out[len++] = digits[i];
    } else {
      for (int i = 0; i <= e; i++) out[len++] = i < n ? digits[i] : '0';
      out[len++] = '.';
      if (n > e + 1)
        for (int i = e + 1; i < n; i++) out[len++] = digits[i];
      else
        out[len++] = '0';
    }
    out[len] = '\0';
    return len;
  }
  out[len++] = digits[0];
  out[len++] = '.';
  if (n > 1)
    for (int i = 1; i < n; i++) out[len++] = digits[i];
  else
    out[len++] = '0';
  return len + (size_t)sprintf(out + len, "E%d", e);
}

/* yyyy-MM-dd HH:mm:ss[.fraction without trailing zeros] of a timestamp datum. */
static size_t timestamp_text(const cp_datum *d, char *out) {
  int64_t secs = floor_div(d->v.ts.millis, 1000);
  int64_t nanos = (d->v.ts.millis - secs * 1000) * 1000000 + d->v.ts.nanos_of_milli;
  size_t len = cp_format_timestamp(secs, CP_UNIT_SECOND, CP_FRAC_TRIM, out);
  if (nanos) {
    int n = sprintf(out + len, ".%09lld", (long long)nanos);
    while (out[len + (size_t)n - 1] == '0') n--;
    len += (size_t)n;
    out[len] = '\0';
  }
  return len;
}

/* The text form of a non-null value of an atomic type other than the string and binary kinds,
 * into `out`; *len receives its length. */
static int value_text(const cp_type *t, const cp_datum *d, char out[CP_VALUE_TEXT_MAX], size_t *len,
                      paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: *len = (size_t)sprintf(out, "%s", d->v.b ? "true" : "false"); break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT: *len = (size_t)sprintf(out, "%lld", (long long)d->v.i64); break;
  case CP_TYPE_FLOAT: *len = java_floating(d->v.f32, true, out); break;
  case CP_TYPE_DOUBLE: *len = java_floating(d->v.f64, false, out); break;
  case CP_TYPE_DECIMAL: *len = cp_dec_format(d->v.dec, t->scale, out); break;
  case CP_TYPE_DATE: *len = cp_format_date(d->v.i64, out); break;
  case CP_TYPE_TIME:
    CP_RETURN_IF_ERROR(cp_format_time_of_day(d->v.i64, CP_UNIT_MILLI, CP_FRAC_TRIM, out, err));
    *len = strlen(out);
    break;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: *len = timestamp_text(d, out); break;
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s values have no text form",
                            cp_type_kind_name(t->kind));
  }
  return PAIMON_OK;
}

int cp_datum_append_text(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err) {
  if (is_text(t) || is_bytes(t)) return cp_buf_append(out, d->v.bytes.data, d->v.bytes.len, err);
  char text[CP_VALUE_TEXT_MAX];
  size_t len;
  CP_RETURN_IF_ERROR(value_text(t, d, text, &len, err));
  return cp_buf_append(out, text, len, err);
}
