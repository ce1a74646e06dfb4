/*
 * Clocks, and the calendar arithmetic and text forms of Paimon's DATE, TIME and TIMESTAMP values
 * (spec/format.md §2.2: DATE is days since 1970-01-01, TIME(p) milliseconds of the day,
 * TIMESTAMP(p) an instant since the epoch without time zone), for the Arrow printer and the SQL
 * front.
 *
 * The calendar is the proleptic Gregorian one (as in Java's java.time and Arrow) in UTC, with a
 * year 0 and negative years. Years 0000..9999 print as four digits; others as Java's LocalDate
 * does, with a sign ("+10000-01-01", "-0001-12-31"). Parsers accept exactly what the formatters
 * print (in either fraction style), plus 'T' in place of the space in timestamps and omitted
 * seconds ("HH:MM"); anything else is EINVAL naming the text.
 *
 * All functions are pure (no shared state) and thread-safe.
 */
#ifndef CP_BASE_TIME_H
#define CP_BASE_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"

/* Wall-clock time in milliseconds since 1970-01-01T00:00:00Z (snapshot timeMillis). */
int64_t cp_now_millis(void);

/* The local wall-clock time encoded as if it were UTC, as Paimon writers store a data file's
 * _CREATION_TIME (spec/format.md §4.4). */
int64_t cp_local_millis_as_utc(void);

/* A monotonic clock in nanoseconds, for measuring durations (never goes backwards). */
int64_t cp_monotonic_nanos(void);

/* The resolution of a time value; the enum value is its number of fractional-second digits. */
typedef enum cp_time_unit {
  CP_UNIT_SECOND = 0,
  CP_UNIT_MILLI = 3,
  CP_UNIT_MICRO = 6,
  CP_UNIT_NANO = 9
} cp_time_unit;

/* How the fraction of a second is printed: FULL always prints the unit's digits (".000", as
 * Arrow/pyarrow do); TRIM drops trailing zeros and omits an all-zero fraction (as Spark does). */
typedef enum cp_frac_style { CP_FRAC_FULL = 0, CP_FRAC_TRIM = 1 } cp_frac_style;

/* Days since 1970-01-01 of a proleptic Gregorian date (month 1..12, day 1..31; not validated). */
int64_t cp_days_from_civil(int64_t year, int month, int day);
/* The inverse: the date `days` after 1970-01-01 (negative: before). */
void cp_civil_from_days(int64_t days, int64_t *year, int *month, int *day);

/* Buffer sizes that hold any output of the formatters below, NUL included. */
#define CP_DATE_STR_MAX 32
#define CP_TIMESTAMP_STR_MAX 48
#define CP_TIME_STR_MAX 24

/* "YYYY-MM-DD" for `days` since the epoch (any int64 that keeps the year in int64 range, which
 * includes every date32). Returns the length written (NUL not counted). */
size_t cp_format_date(int64_t days, char out[CP_DATE_STR_MAX]);

/* "YYYY-MM-DD HH:MM:SS[.fff...]" for `value` units since the epoch (UTC). Every int64 works,
 * including values before 1970. Returns the length written. */
size_t cp_format_timestamp(int64_t value, cp_time_unit unit, cp_frac_style style,
                           char out[CP_TIMESTAMP_STR_MAX]);

/* "HH:MM:SS[.fff...]" for `value` units since midnight; EINVAL unless 0 <= value < one day. */
int cp_format_time_of_day(int64_t value, cp_time_unit unit, cp_frac_style style,
                          char out[CP_TIME_STR_MAX], paimon_error *err);

/* Parses "[+-]YYYY-MM-DD" into days since the epoch; the date must exist (2023-02-29 does not)
 * and fit in int32 (Arrow date32). */
int cp_parse_date(const char *s, size_t len, int32_t *days, paimon_error *err);

/* Parses "YYYY-MM-DD[( |T)HH:MM[:SS[.f...]]]" (1 to 9 fraction digits) into `unit`s since the
 * epoch. Fraction digits finer than `unit` must be zero; the result must fit in int64. */
int cp_parse_timestamp(const char *s, size_t len, cp_time_unit unit, int64_t *out,
                       paimon_error *err);

/* Parses "HH:MM[:SS[.f...]]" (00:00:00 to 23:59:59.999999999) into `unit`s since midnight. */
int cp_parse_time_of_day(const char *s, size_t len, cp_time_unit unit, int64_t *out,
                         paimon_error *err);

#endif
