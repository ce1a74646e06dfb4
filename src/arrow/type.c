/*
 * Arrow format-string parsing and printing (type.h); the grammar is the "format strings" table
 * of the Arrow C Data Interface specification.
 */
#include "arrow/type.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

void cp_arrow_type_info_init(cp_arrow_type_info *out, cp_arrow_type id) {
  memset(out, 0, sizeof *out);
  out->id = id;
  switch (id) {
  case CP_ARROW_INT8:
  case CP_ARROW_UINT8: out->byte_width = 1; break;
  case CP_ARROW_INT16:
  case CP_ARROW_UINT16:
  case CP_ARROW_HALF_FLOAT: out->byte_width = 2; break;
  case CP_ARROW_INT32:
  case CP_ARROW_UINT32:
  case CP_ARROW_FLOAT:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32: out->byte_width = 4; break;
  case CP_ARROW_INT64:
  case CP_ARROW_UINT64:
  case CP_ARROW_DOUBLE:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP: out->byte_width = 8; break;
  case CP_ARROW_DECIMAL128: out->byte_width = 16; break;
  default: break;
  }
  if (id == CP_ARROW_TIME32) out->unit = CP_UNIT_MILLI;
  if (id == CP_ARROW_TIME64 || id == CP_ARROW_TIMESTAMP) out->unit = CP_UNIT_MICRO;
}

const char *cp_arrow_type_name(cp_arrow_type id) {
  static const char *const names[CP_ARROW_TYPE_COUNT] = {"null",
                                                         "bool",
                                                         "int8",
                                                         "uint8",
                                                         "int16",
                                                         "uint16",
                                                         "int32",
                                                         "uint32",
                                                         "int64",
                                                         "uint64",
                                                         "half_float",
                                                         "float",
                                                         "double",
                                                         "decimal128",
                                                         "utf8",
                                                         "large_utf8",
                                                         "binary",
                                                         "large_binary",
                                                         "fixed_size_binary",
                                                         "date32",
                                                         "time32",
                                                         "time64",
                                                         "timestamp",
                                                         "list",
                                                         "large_list",
                                                         "fixed_size_list",
                                                         "struct",
                                                         "map"};
  if ((int)id < 0 || id >= CP_ARROW_TYPE_COUNT) return "unknown";
  return names[id];
}

int cp_arrow_type_n_buffers(cp_arrow_type id) {
  switch (id) {
  case CP_ARROW_NA: return 0;
  case CP_ARROW_STRUCT:
  case CP_ARROW_FIXED_SIZE_LIST: return 1;
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY: return 3;
  default: return 2;
  }
}

/* Parses a positive decimal integer that fills s[0..) up to `stop` (a char or NUL). */
static int parse_int(const char *s, const char **end, int64_t max, int64_t *out) {
  if (*s < '0' || *s > '9') return -1;
  int64_t v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s - '0');
    if (v > max) return -1;
    s++;
  }
  *end = s;
  *out = v;
  return 0;
}

static int bad_format(const char *format, const char *why, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "invalid Arrow format string '%s': %s", format, why);
}

static int unsupported_format(const char *format, const char *what, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EUNSUPPORTED, "unsupported Arrow type '%s' (%s)", format,
                          what);
}

static int parse_decimal(const char *format, cp_arrow_type_info *out, paimon_error *err) {
  const char *p = format + 2, *e;
  int64_t precision, scale, bits = 128;
  bool neg = false;
  if (parse_int(p, &e, 1000, &precision) != 0 || *e != ',')
    return bad_format(format, "expected d:precision,scale", err);
  p = e + 1;
  if (*p == '-') neg = true, p++;
  if (parse_int(p, &e, 1000, &scale) != 0) return bad_format(format, "bad decimal scale", err);
  if (*e == ',') {
    if (parse_int(e + 1, &e, 1000, &bits) != 0) return bad_format(format, "bad bit width", err);
  }
  if (*e != 0) return bad_format(format, "trailing characters", err);
  if (bits != 128) {
    if (bits == 32 || bits == 64 || bits == 256)
      return unsupported_format(format, "only decimal128 is supported", err);
    return bad_format(format, "decimal bit width must be 32, 64, 128 or 256", err);
  }
  if (neg) return unsupported_format(format, "negative decimal scale", err);
  if (precision < 1 || precision > 38)
    return bad_format(format, "decimal128 precision must be 1..38", err);
  if (scale > precision) return bad_format(format, "decimal scale exceeds precision", err);
  cp_arrow_type_info_init(out, CP_ARROW_DECIMAL128);
  out->precision = (int32_t)precision;
  out->scale = (int32_t)scale;
  return PAIMON_OK;
}

static int parse_unit(char c, cp_time_unit *u) {
  switch (c) {
  case 's': *u = CP_UNIT_SECOND; return 0;
  case 'm': *u = CP_UNIT_MILLI; return 0;
  case 'u': *u = CP_UNIT_MICRO; return 0;
  case 'n': *u = CP_UNIT_NANO; return 0;
  default: return -1;
  }
}

/* "t..." formats: dates, times, timestamps (durations and intervals are not Paimon types). */
static int parse_temporal(const char *format, cp_arrow_type_info *out, paimon_error *err) {
  const char *f = format;
  cp_time_unit unit;
  if (f[1] == 'd') {
    if (f[2] == 'D' && f[3] == 0) {
      cp_arrow_type_info_init(out, CP_ARROW_DATE32);
      return PAIMON_OK;
    }
    if (f[2] == 'm' && f[3] == 0) return unsupported_format(format, "date64", err);
    return bad_format(format, "unknown date unit", err);
  }
  if (f[1] == 't') {
    if (parse_unit(f[2], &unit) != 0 || f[3] != 0)
      return bad_format(format, "unknown time unit", err);
    cp_arrow_type_info_init(out, unit <= CP_UNIT_MILLI ? CP_ARROW_TIME32 : CP_ARROW_TIME64);
    out->unit = unit;
    return PAIMON_OK;
  }
  if (f[1] == 's') {
    if (parse_unit(f[2], &unit) != 0 || f[3] != ':')
      return bad_format(format, "expected ts<unit>:<timezone>", err);
    size_t tzlen = strlen(f + 4);
    if (tzlen >= CP_ARROW_TZ_MAX) return bad_format(format, "timezone name too long", err);
    cp_arrow_type_info_init(out, CP_ARROW_TIMESTAMP);
    out->unit = unit;
    memcpy(out->timezone, f + 4, tzlen + 1);
    out->has_timezone = tzlen > 0;
    return PAIMON_OK;
  }
  if (f[1] == 'D') return unsupported_format(format, "duration", err);
  if (f[1] == 'i') return unsupported_format(format, "interval", err);
  return bad_format(format, "unknown temporal type", err);
}

/* "+..." formats: nested types. */
static int parse_nested(const char *format, cp_arrow_type_info *out, paimon_error *err) {
  const char *f = format, *e;
  int64_t n;
  switch (f[1]) {
  case 'l':
  case 'L':
  case 's':
  case 'm':
    if (f[2] != 0) return bad_format(format, "trailing characters", err);
    cp_arrow_type_info_init(out, f[1] == 'l'   ? CP_ARROW_LIST
                                 : f[1] == 'L' ? CP_ARROW_LARGE_LIST
                                 : f[1] == 's' ? CP_ARROW_STRUCT
                                               : CP_ARROW_MAP);
    return PAIMON_OK;
  case 'w':
    if (f[2] != ':' || parse_int(f + 3, &e, INT32_MAX, &n) != 0 || *e != 0)
      return bad_format(format, "expected +w:<list size>", err);
    cp_arrow_type_info_init(out, CP_ARROW_FIXED_SIZE_LIST);
    out->list_size = (int32_t)n;
    return PAIMON_OK;
  case 'u': return unsupported_format(format, "union", err);
  case 'v': return unsupported_format(format, "list view", err);
  case 'r': return unsupported_format(format, "run-end encoded", err);
  default: return bad_format(format, "unknown nested type", err);
  }
}

int cp_arrow_parse_format(const char *format, cp_arrow_type_info *out, paimon_error *err) {
  if (!format) return paimon_error_set(err, PAIMON_EINVAL, "Arrow schema has a NULL format");
  static const struct {
    char c;
    cp_arrow_type id;
  } simple[] = {{'n', CP_ARROW_NA},     {'b', CP_ARROW_BOOL},        {'c', CP_ARROW_INT8},
                {'C', CP_ARROW_UINT8},  {'s', CP_ARROW_INT16},       {'S', CP_ARROW_UINT16},
                {'i', CP_ARROW_INT32},  {'I', CP_ARROW_UINT32},      {'l', CP_ARROW_INT64},
                {'L', CP_ARROW_UINT64}, {'e', CP_ARROW_HALF_FLOAT},  {'f', CP_ARROW_FLOAT},
                {'g', CP_ARROW_DOUBLE}, {'u', CP_ARROW_STRING},      {'U', CP_ARROW_LARGE_STRING},
                {'z', CP_ARROW_BINARY}, {'Z', CP_ARROW_LARGE_BINARY}};
  if (format[0] != 0 && format[1] == 0) {
    for (size_t k = 0; k < sizeof simple / sizeof simple[0]; k++) {
      if (simple[k].c == format[0]) {
        cp_arrow_type_info_init(out, simple[k].id);
        return PAIMON_OK;
      }
    }
  }
  const char *e;
  int64_t n;
  switch (format[0]) {
  case 'd':
    if (format[1] != ':') break;
    return parse_decimal(format, out, err);
  case 'w':
    if (format[1] != ':' || parse_int(format + 2, &e, INT32_MAX, &n) != 0 || *e != 0)
      return bad_format(format, "expected w:<byte width>", err);
    if (n == 0) return bad_format(format, "fixed_size_binary width must be positive", err);
    cp_arrow_type_info_init(out, CP_ARROW_FIXED_SIZE_BINARY);
    out->byte_width = (int32_t)n;
    return PAIMON_OK;
  case 't': return parse_temporal(format, out, err);
  case '+': return parse_nested(format, out, err);
  case 'v':
    if (format[1] == 'u' || format[1] == 'z') return unsupported_format(format, "view type", err);
    break;
  default: break;
  }
  return bad_format(format, "unknown type", err);
}

int cp_arrow_format_string(const cp_arrow_type_info *info, char *out, size_t out_size,
                           paimon_error *err) {
  static const char units[4] = {'s', 'm', 'u', 'n'}; /* indexed by unit / 3 */
  static const char simple[CP_ARROW_TYPE_COUNT] = {
      [CP_ARROW_NA] = 'n',     [CP_ARROW_BOOL] = 'b',        [CP_ARROW_INT8] = 'c',
      [CP_ARROW_UINT8] = 'C',  [CP_ARROW_INT16] = 's',       [CP_ARROW_UINT16] = 'S',
      [CP_ARROW_INT32] = 'i',  [CP_ARROW_UINT32] = 'I',      [CP_ARROW_INT64] = 'l',
      [CP_ARROW_UINT64] = 'L', [CP_ARROW_HALF_FLOAT] = 'e',  [CP_ARROW_FLOAT] = 'f',
      [CP_ARROW_DOUBLE] = 'g', [CP_ARROW_STRING] = 'u',      [CP_ARROW_LARGE_STRING] = 'U',
      [CP_ARROW_BINARY] = 'z', [CP_ARROW_LARGE_BINARY] = 'Z'};
  int n;
  cp_arrow_type id = info->id;
  if ((int)id < 0 || id >= CP_ARROW_TYPE_COUNT)
    return paimon_error_set(err, PAIMON_EINVAL, "unknown Arrow type id %d", (int)id);
  unsigned unit = (unsigned)info->unit;
  switch (id) {
  case CP_ARROW_DECIMAL128:
    n = snprintf(out, out_size, "d:%d,%d", (int)info->precision, (int)info->scale);
    break;
  case CP_ARROW_FIXED_SIZE_BINARY:
    n = snprintf(out, out_size, "w:%d", (int)info->byte_width);
    break;
  case CP_ARROW_DATE32: n = snprintf(out, out_size, "tdD"); break;
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64:
    if (!cp_time_unit_valid((int)unit) || (id == CP_ARROW_TIME32) != (unit <= CP_UNIT_MILLI))
      return paimon_error_set(err, PAIMON_EINVAL, "%s cannot have unit %u", cp_arrow_type_name(id),
                              unit);
    n = snprintf(out, out_size, "tt%c", units[unit / 3]);
    break;
  case CP_ARROW_TIMESTAMP:
    if (!cp_time_unit_valid((int)unit))
      return paimon_error_set(err, PAIMON_EINVAL, "bad timestamp unit %u", unit);
    n = snprintf(out, out_size, "ts%c:%.*s", units[unit / 3], CP_ARROW_TZ_MAX - 1,
                 info->has_timezone ? info->timezone : "");
    break;
  case CP_ARROW_LIST: n = snprintf(out, out_size, "+l"); break;
  case CP_ARROW_LARGE_LIST: n = snprintf(out, out_size, "+L"); break;
  case CP_ARROW_FIXED_SIZE_LIST: n = snprintf(out, out_size, "+w:%d", (int)info->list_size); break;
  case CP_ARROW_STRUCT: n = snprintf(out, out_size, "+s"); break;
  case CP_ARROW_MAP: n = snprintf(out, out_size, "+m"); break;
  default: n = snprintf(out, out_size, "%c", simple[id]); break;
  }
  if (n < 0 || (size_t)n >= out_size)
    return paimon_error_set(err, PAIMON_EINVAL, "format string for %s does not fit in %zu bytes",
                            cp_arrow_type_name(id), out_size);
  return PAIMON_OK;
}
