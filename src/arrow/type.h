/*
 * Arrow data types as cpaimon understands them: an enum of every physical/logical type Paimon maps
 * to, and the parser and printer for the C Data Interface format strings that name them.
 *
 * Implements the "Data type description -- format strings" table of the Arrow C Data Interface
 * specification (https://arrow.apache.org/docs/format/CDataInterface.html#data-type-description-
 * format-strings). Types Paimon never produces or reads (unions, dictionaries, durations,
 * intervals, views, run-end encoded, decimal32/64/256) are rejected with PAIMON_EUNSUPPORTED and a
 * message that quotes the format string.
 */
#ifndef CP_ARROW_TYPE_H
#define CP_ARROW_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/time.h" /* cp_time_unit: CP_UNIT_SECOND, _MILLI, _MICRO, _NANO */
#include "cpaimon/error.h"

typedef enum cp_arrow_type {
  CP_ARROW_NA = 0,            /* "n": the null type, no buffers */
  CP_ARROW_BOOL,              /* "b": bit-packed */
  CP_ARROW_INT8,              /* "c" */
  CP_ARROW_UINT8,             /* "C" (read side only: Paimon has no unsigned types) */
  CP_ARROW_INT16,             /* "s" */
  CP_ARROW_UINT16,            /* "S" */
  CP_ARROW_INT32,             /* "i" */
  CP_ARROW_UINT32,            /* "I" */
  CP_ARROW_INT64,             /* "l" */
  CP_ARROW_UINT64,            /* "L" */
  CP_ARROW_HALF_FLOAT,        /* "e" (read side only) */
  CP_ARROW_FLOAT,             /* "f" */
  CP_ARROW_DOUBLE,            /* "g" */
  CP_ARROW_DECIMAL128,        /* "d:P,S" or "d:P,S,128" */
  CP_ARROW_STRING,            /* "u": utf8, int32 offsets */
  CP_ARROW_LARGE_STRING,      /* "U": utf8, int64 offsets */
  CP_ARROW_BINARY,            /* "z" */
  CP_ARROW_LARGE_BINARY,      /* "Z" */
  CP_ARROW_FIXED_SIZE_BINARY, /* "w:N" */
  CP_ARROW_DATE32,            /* "tdD": days since 1970-01-01 */
  CP_ARROW_TIME32,            /* "tts" / "ttm": int32 seconds or milliseconds of the day */
  CP_ARROW_TIME64,            /* "ttu" / "ttn": int64 micro- or nanoseconds of the day */
  CP_ARROW_TIMESTAMP,         /* "tss:TZ" ... "tsn:TZ": int64 since the epoch, TZ may be empty */
  CP_ARROW_LIST,              /* "+l": int32 offsets, one child */
  CP_ARROW_LARGE_LIST,        /* "+L": int64 offsets, one child */
  CP_ARROW_FIXED_SIZE_LIST,   /* "+w:N": one child of N values per element */
  CP_ARROW_STRUCT,            /* "+s": children are the fields */
  CP_ARROW_MAP,               /* "+m": one child, a non-null struct "entries" of (key, value) */
  CP_ARROW_TYPE_COUNT
} cp_arrow_type;

/* Longest timezone name kept in a cp_arrow_type_info (IANA names are ≤ 32 bytes). */
#define CP_ARROW_TZ_MAX 64

/* Everything the format string of one node says. Self-contained (no pointers into the format
 * string), so it may outlive the schema it was parsed from. */
typedef struct cp_arrow_type_info {
  cp_arrow_type id;
  /* Bytes per value in the values buffer for fixed-width types (1..8, 16 for decimal128, N for
   * fixed_size_binary); 0 for bool (bit-packed), null, variable-width and nested types. */
  int32_t byte_width;
  int32_t precision;              /* decimal128 */
  int32_t scale;                  /* decimal128 */
  cp_time_unit unit;              /* time32, time64, timestamp */
  int32_t list_size;              /* fixed_size_list: values per element */
  bool has_timezone;              /* timestamp: true when the format has a non-empty timezone */
  char timezone[CP_ARROW_TZ_MAX]; /* timestamp: NUL-terminated, "" when absent */
} cp_arrow_type_info;

/* Parses one format string (one schema node, not its children) into `out`. Unknown or unsupported
 * formats fail with PAIMON_EINVAL (malformed) or PAIMON_EUNSUPPORTED (valid Arrow, not supported
 * here); the message quotes the format. */
int cp_arrow_parse_format(const char *format, cp_arrow_type_info *out, paimon_error *err);

/* Writes the format string for `info` into `out` (capacity `out_size`, NUL-terminated). Fails with
 * PAIMON_EINVAL when the buffer is too small or the info is inconsistent (e.g. time32 with unit
 * micro). 96 bytes is always enough. */
int cp_arrow_format_string(const cp_arrow_type_info *info, char *out, size_t out_size,
                           paimon_error *err);

/* Fills `out` for a type without parameters (null, bool, ints, floats, strings, binaries, date32,
 * list, large_list, struct, map). */
void cp_arrow_type_info_init(cp_arrow_type_info *out, cp_arrow_type id);

/* A static, human-readable name such as "int32" or "timestamp" (for error messages). */
const char *cp_arrow_type_name(cp_arrow_type id);

/* Number of buffers a C Data Interface array of this type has (validity included): 0 for null,
 * 1 for struct and fixed_size_list, 2 for fixed-width, bool, list, large_list, map,
 * 3 for string/binary and their large variants. */
int cp_arrow_type_n_buffers(cp_arrow_type id);

/* Type classes. */
static inline bool cp_arrow_type_is_signed_int(cp_arrow_type t) {
  return t == CP_ARROW_INT8 || t == CP_ARROW_INT16 || t == CP_ARROW_INT32 || t == CP_ARROW_INT64;
}
static inline bool cp_arrow_type_is_unsigned_int(cp_arrow_type t) {
  return t == CP_ARROW_UINT8 || t == CP_ARROW_UINT16 || t == CP_ARROW_UINT32 ||
         t == CP_ARROW_UINT64;
}
static inline bool cp_arrow_type_is_integer(cp_arrow_type t) {
  return cp_arrow_type_is_signed_int(t) || cp_arrow_type_is_unsigned_int(t);
}
static inline bool cp_arrow_type_is_floating(cp_arrow_type t) {
  return t == CP_ARROW_HALF_FLOAT || t == CP_ARROW_FLOAT || t == CP_ARROW_DOUBLE;
}
/* string, large_string, binary, large_binary (offsets + data buffers). */
static inline bool cp_arrow_type_is_var_binary(cp_arrow_type t) {
  return t == CP_ARROW_STRING || t == CP_ARROW_LARGE_STRING || t == CP_ARROW_BINARY ||
         t == CP_ARROW_LARGE_BINARY;
}
static inline bool cp_arrow_type_has_large_offsets(cp_arrow_type t) {
  return t == CP_ARROW_LARGE_STRING || t == CP_ARROW_LARGE_BINARY || t == CP_ARROW_LARGE_LIST;
}
/* list, large_list, map (offsets buffer + one child). */
static inline bool cp_arrow_type_is_list_like(cp_arrow_type t) {
  return t == CP_ARROW_LIST || t == CP_ARROW_LARGE_LIST || t == CP_ARROW_MAP;
}
static inline bool cp_arrow_type_is_nested(cp_arrow_type t) {
  return t == CP_ARROW_LIST || t == CP_ARROW_LARGE_LIST || t == CP_ARROW_FIXED_SIZE_LIST ||
         t == CP_ARROW_STRUCT || t == CP_ARROW_MAP;
}
/* Types whose values are a fixed number of bytes (byte_width > 0). */
static inline bool cp_arrow_type_is_fixed_width(const cp_arrow_type_info *t) {
  return t->byte_width > 0;
}

/* Units per second for a cp_time_unit (1, 1e3, 1e6, 1e9). */
static inline int64_t cp_time_unit_per_second(cp_time_unit u) {
  switch (u) {
  case CP_UNIT_MILLI: return 1000;
  case CP_UNIT_MICRO: return 1000000;
  case CP_UNIT_NANO: return 1000000000;
  default: return 1;
  }
}

/* True for the four valid cp_time_unit values. */
static inline bool cp_time_unit_valid(int u) {
  return u == CP_UNIT_SECOND || u == CP_UNIT_MILLI || u == CP_UNIT_MICRO || u == CP_UNIT_NANO;
}

#endif
