/* Table file locations and Java-compatible partition directory names (paths.h, format.md §1.3). */
#include "table/paths.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "base/time.h"

/* The characters Java's PartitionPathUtils.escapeChar escapes, besides controls and 0x7F. */
static bool needs_escape(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  return strchr("\"#%'*/:=?\\{}[]^", c) != NULL && c != '\0';
}

int cp_path_escape(const char *s, size_t n, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (needs_escape(c))
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%%%02X", c));
    else
      CP_RETURN_IF_ERROR(cp_buf_append(out, &c, 1, err));
  }
  return PAIMON_OK;
}

/* java.time.LocalDateTime.toString: HH:mm always, :ss when seconds or fraction are non-zero, and
 * the fraction in groups of 3, 6 or 9 digits. */
static int local_date_time_text(int64_t millis, int32_t nanos_of_milli, cp_buf *out,
                                paimon_error *err) {
  int64_t days = millis / 86400000, ms_of_day = millis % 86400000;
  if (ms_of_day < 0) {
    ms_of_day += 86400000;
    days--;
  }
  char date[CP_DATE_STR_MAX];
  cp_format_date(days, date);
  int64_t secs = ms_of_day / 1000;
  int64_t nanos = (ms_of_day % 1000) * 1000000 + nanos_of_milli;
  CP_RETURN_IF_ERROR(
      cp_buf_appendf(out, err, "%sT%02d:%02d", date, (int)(secs / 3600), (int)(secs / 60 % 60)));
  if (secs % 60 == 0 && nanos == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, ":%02d", (int)(secs % 60)));
  if (nanos == 0) return PAIMON_OK;
  if (nanos % 1000000 == 0) return cp_buf_appendf(out, err, ".%03d", (int)(nanos / 1000000));
  if (nanos % 1000 == 0) return cp_buf_appendf(out, err, ".%06d", (int)(nanos / 1000));
  return cp_buf_appendf(out, err, ".%09d", (int)nanos);
}

/* BigDecimal.toPlainString of unscaled * 10^-scale. */
static int decimal_text(cp_int128 unscaled, int scale, cp_buf *out, paimon_error *err) {
  char digits[48];
  int n = 0;
  unsigned __int128 u = unscaled < 0 ? -(unsigned __int128)unscaled : (unsigned __int128)unscaled;
  do {
    digits[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  while (n <= scale) digits[n++] = '0';
  if (unscaled < 0) CP_RETURN_IF_ERROR(cp_buf_append(out, "-", 1, err));
  for (int i = n - 1; i >= 0; i--) {
    CP_RETURN_IF_ERROR(cp_buf_append(out, &digits[i], 1, err));
    if (i == scale && scale > 0) CP_RETURN_IF_ERROR(cp_buf_append(out, ".", 1, err));
  }
  return PAIMON_OK;
}

static bool is_blank(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace(p[i])) return false;
  return true;
}

int cp_partition_value_text(const cp_type *type, const cp_datum *value, cp_buf *out,
                            bool *is_default, paimon_error *err) {
  *is_default = value->is_null;
  if (value->is_null) return PAIMON_OK;
  switch (type->kind) {
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
    if (is_blank(value->v.bytes.data, value->v.bytes.len)) {
      *is_default = true;
      return PAIMON_OK;
    }
    return cp_buf_append(out, value->v.bytes.data, value->v.bytes.len, err);
  case CP_TYPE_BOOLEAN: return cp_buf_appendf(out, err, "%s", value->v.b ? "true" : "false");
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: return cp_buf_appendf(out, err, "%" PRId64, value->v.i64);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return local_date_time_text(value->v.ts.millis, value->v.ts.nanos_of_milli, out, err);
  case CP_TYPE_DECIMAL: return decimal_text(value->v.dec, type->scale, out, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "partition keys of type %s are not supported by cpaimon",
                            cp_type_kind_name(type->kind));
  }
}

int cp_partition_path(const char *const *keys, const cp_type *const *types, const cp_datum *values,
                      size_t n, const char *default_name, cp_buf *out, paimon_error *err) {
  cp_buf text = CP_BUF_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    bool is_default;
    cp_buf_clear(&text);
    CP_GOTO_IF_ERROR(rc, cp_partition_value_text(types[i], &values[i], &text, &is_default, err),
                     done);
    if (is_default) {
      cp_buf_clear(&text);
      CP_GOTO_IF_ERROR(rc, cp_buf_append(&text, default_name, strlen(default_name), err), done);
    }
    CP_GOTO_IF_ERROR(rc, cp_path_escape(keys[i], strlen(keys[i]), out, err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append(out, "=", 1, err), done);
    CP_GOTO_IF_ERROR(rc, cp_path_escape((const char *)text.data, text.len, out, err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append(out, "/", 1, err), done);
  }
done:
  cp_buf_free(&text);
  return rc;
}

char *cp_bucket_dir(const char *table_path, const char *partition_path, int bucket) {
  size_t n = strlen(table_path) + strlen(partition_path) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%sbucket-%d", table_path, partition_path, bucket);
  return p;
}
