/*
 * The Java text forms system tables show (include/cpaimon/system_table.h), written from the
 * behaviour of the JDK and Paimon 1.4.2 (paimon-common casting/XxxToStringCastRule,
 * utils/DateTimeUtils, data/Timestamp, data/Decimal) so that a cpaimon view prints what
 * `SELECT * FROM t$files` prints in Spark or Flink:
 *
 * - Statistics maps hold internal values and print their toString: DATE is the day number, TIME
 *   the milliseconds of the day, TIMESTAMP a LocalDateTime ("2024-01-02T03:04:05.120"), DECIMAL
 *   a plain number, byte[] an identity hash (we print a stable hash of the bytes instead).
 * - CAST(... AS STRING) (partition rows) prints dates and times the SQL way ("2024-01-02",
 *   "2024-01-02 03:04:05.12" trimmed to the type's precision).
 * - FLOAT and DOUBLE print as Float/Double.toString (arrow/print.h's Java formatting).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/status.h"
#include "arrow/print.h"
#include "base/time.h"
#include "table/system_table.h"
#include "types/datum_text.h"

int64_t cp_java_local_millis(int64_t epoch_millis) {
  int64_t secs = epoch_millis / 1000 - (epoch_millis % 1000 < 0 ? 1 : 0);
  time_t t = (time_t)secs;
  struct tm tm;
  /* localtime_r honours TZ like the JVM's default zone; no offset is known for an instant the C
   * library cannot convert, which then stays UTC. */
  if (!localtime_r(&t, &tm)) return epoch_millis;
  return epoch_millis + (int64_t)tm.tm_gmtoff * 1000;
}

int64_t cp_java_epoch_millis(int64_t local_millis) {
  int64_t e = local_millis - (cp_java_local_millis(local_millis) - local_millis);
  return local_millis - (cp_java_local_millis(e) - e);
}

/* ---- decimals and dates --------------------------------------------------------------------- */

/* DateTimeUtils.formatTimestamp: "yyyy-MM-dd HH:mm:ss" and the nine-digit fraction with trailing
 * zeros dropped down to `precision` digits (so precision 3 keeps ".000"). */
static int sql_timestamp_string(int64_t millis, int32_t nanos_of_milli, int precision, cp_buf *out,
                                paimon_error *err) {
  cp_civil_time c = cp_civil_time_of(millis, nanos_of_milli);
  CP_RETURN_IF_ERROR(cp_java_year_text(c.year, out, err));
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "-%02d-%02d %02d:%02d:%02d", c.month, c.day, c.hour,
                                    c.minute, c.second));
  char frac[16];
  snprintf(frac, sizeof frac, "%09d", (int)c.nano);
  int len = 9;
  while (len > precision && frac[len - 1] == '0') len--;
  if (len == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_append(out, ".", 1, err));
  return cp_buf_append(out, frac, (size_t)len, err);
}

/* DateTimeUtils.formatTimestampMillis of a TIME: HH:mm:ss and, for precision > 0, millisecond
 * digits until the rest is zero (at least one). */
static int sql_time_string(int64_t ms_of_day, int precision, cp_buf *out, paimon_error *err) {
  int64_t t = ms_of_day;
  while (t < 0) t += 86400000;
  int ms = (int)(t % 1000);
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%02d:%02d:%02d", (int)(t / 3600000),
                                    (int)(t / 60000 % 60), (int)(t / 1000 % 60)));
  if (precision <= 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_append(out, ".", 1, err));
  while (precision > 0) {
    char digit = (char)('0' + ms / 100);
    CP_RETURN_IF_ERROR(cp_buf_append(out, &digit, 1, err));
    ms = ms % 100 * 10;
    if (ms == 0) break;
    precision--;
  }
  return PAIMON_OK;
}

/* Arrays.hashCode(byte[]), which Integer.toHexString prints unsigned. */
static uint32_t bytes_hash(const uint8_t *p, size_t n) {
  uint32_t h = 1;
  for (size_t i = 0; i < n; i++) h = 31 * h + (uint32_t)(int32_t)(int8_t)p[i];
  return h;
}

int cp_java_value_string(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return cp_buf_appendf(out, err, d->v.b ? "true" : "false");
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: return cp_buf_appendf(out, err, "%" PRId64, d->v.i64);
  case CP_TYPE_FLOAT: return cp_format_float_java(out, d->v.f32, err);
  case CP_TYPE_DOUBLE: return cp_format_double_java(out, d->v.f64, err);
  case CP_TYPE_DECIMAL: return cp_decimal_plain_text(d->v.dec, t->scale, out, err);
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: return cp_buf_append(out, d->v.bytes.data, d->v.bytes.len, err);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return cp_local_date_time_text(d->v.ts.millis, d->v.ts.nanos_of_milli, out, err);
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
    return cp_buf_appendf(out, err, "[B@%" PRIx32, bytes_hash(d->v.bytes.data, d->v.bytes.len));
  default:
    /* Statistics and partitions never hold nested values (spec/format.md §5.6). */
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "no text form for a nested value");
  }
}

int cp_java_cast_string(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_DATE: {
    char buf[CP_DATE_STR_MAX];
    size_t n = cp_format_date(d->v.i64, buf);
    return cp_buf_append(out, buf, n, err);
  }
  case CP_TYPE_TIME: return sql_time_string(d->v.i64, t->precision, out, err);
  case CP_TYPE_TIMESTAMP:
    return sql_timestamp_string(d->v.ts.millis, d->v.ts.nanos_of_milli, t->precision, out, err);
  case CP_TYPE_TIMESTAMP_LTZ:
    return sql_timestamp_string(cp_java_local_millis(d->v.ts.millis), d->v.ts.nanos_of_milli,
                                t->precision, out, err);
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY: return cp_buf_append(out, d->v.bytes.data, d->v.bytes.len, err);
  default: return cp_java_value_string(t, d, out, err);
  }
}

int cp_java_row_string(const cp_type *const *types, const cp_datum *values, size_t n, cp_buf *out,
                       paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(out, "{", 1, err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
    CP_RETURN_IF_ERROR(values[i].is_null ? cp_buf_append(out, "null", 4, err)
                                         : cp_java_cast_string(types[i], &values[i], out, err));
  }
  return cp_buf_append(out, "}", 1, err);
}

/* ---- java.util.HashMap iteration order ------------------------------------------------------ */

/* String.hashCode over the UTF-16 code units of UTF-8 `s` (malformed bytes count as themselves). */
static uint32_t java_string_hash(const char *s) {
  uint32_t h = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t cp = *p, extra = 0;
    if (cp >= 0xF0 && cp < 0xF8)
      cp &= 0x07, extra = 3;
    else if (cp >= 0xE0)
      cp &= 0x0F, extra = 2;
    else if (cp >= 0xC0)
      cp &= 0x1F, extra = 1;
    p++;
    for (uint32_t i = 0; i < extra && (*p & 0xC0) == 0x80; i++, p++) cp = cp << 6 | (*p & 0x3F);
    if (cp >= 0x10000 && cp <= 0x10FFFF) {
      cp -= 0x10000;
      h = 31 * h + (0xD800 + (cp >> 10));
      h = 31 * h + (0xDC00 + (cp & 0x3FF));
    } else {
      h = 31 * h + cp;
    }
  }
  return h;
}

typedef struct hm_slot {
  uint32_t bucket;
  size_t index;
} hm_slot;

static int hm_cmp(const void *a, const void *b) {
  const hm_slot *x = a, *y = b;
  if (x->bucket != y->bucket) return x->bucket < y->bucket ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

int cp_java_hashmap_order(const char *const *keys, size_t n, size_t *order, paimon_error *err) {
  /* A HashMap starts with 16 buckets and doubles whenever its size passes 3/4 of them; a resize
   * keeps each bucket's entries in insertion order, so the final capacity alone decides. */
  size_t cap = 16;
  while (n > cap / 4 * 3) cap *= 2;
  hm_slot *slots = malloc((n ? n : 1) * sizeof *slots);
  if (!slots) return CP_ENOMEM(err, "option order");
  for (size_t i = 0; i < n; i++) {
    uint32_t h = java_string_hash(keys[i]);
    slots[i].bucket = (h ^ (h >> 16)) & (uint32_t)(cap - 1);
    slots[i].index = i;
  }
  qsort(slots, n, sizeof *slots, hm_cmp);
  for (size_t i = 0; i < n; i++) order[i] = slots[i].index;
  free(slots);
  return PAIMON_OK;
}
