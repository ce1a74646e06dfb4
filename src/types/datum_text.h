/*
 * Java's text forms of Paimon internal values, shared by what must print exactly as Java does:
 * partition directory names (spec/format.md §1.3, table/paths.c) and system-table cells
 * (table/system_text.c). Written from the JDK's documented behaviour of BigDecimal.toPlainString
 * and LocalDateTime.toString.
 */
#ifndef CP_TYPES_DATUM_TEXT_H
#define CP_TYPES_DATUM_TEXT_H

#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "types/datum.h"

/* A wall-clock timestamp (epoch millis as if UTC, plus nanos of the milli) split into fields. */
typedef struct cp_civil_time {
  int64_t year;
  int month, day, hour, minute, second;
  int32_t nano; /* of the second */
} cp_civil_time;

cp_civil_time cp_civil_time_of(int64_t millis, int32_t nanos_of_milli);

/* LocalDate.toString's year: four digits, a sign only beyond them ("+10000", "-0005"). */
int cp_java_year_text(int64_t year, cp_buf *out, paimon_error *err);

/* BigDecimal.toPlainString of unscaled * 10^-scale (appended to `out`). */
int cp_decimal_plain_text(cp_int128 unscaled, int scale, cp_buf *out, paimon_error *err);

/* LocalDateTime.toString: yyyy-MM-ddTHH:mm, then :ss when seconds or a fraction are non-zero,
 * and the fraction in groups of 3, 6 or 9 digits (appended to `out`). */
int cp_local_date_time_text(int64_t millis, int32_t nanos_of_milli, cp_buf *out, paimon_error *err);

#endif
