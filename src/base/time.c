/*
 * Clocks and calendar arithmetic (time.h): Paimon's DATE / TIME / TIMESTAMP values
 * (spec/format.md §2.2) to and from text, in the proleptic Gregorian calendar and UTC.
 *
 * Date arithmetic works in 400-year eras: the Gregorian calendar repeats every 146097 days, so a
 * day count splits into an era and a day of the era with plain integer division, and within an
 * era the year starts on March 1 so that the leap day falls at the end of the year. That keeps
 * every conversion branch-free and exact for negative values, without tables or libc's time_t.
 */
#include "base/time.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/status.h"

enum { CP_DAYS_PER_ERA = 146097, CP_DAYS_0000_03_01_TO_EPOCH = 719468, CP_SECS_PER_DAY = 86400 };

static const int64_t cp_pow10[10] = {1,      10,      100,      1000,      10000,
                                     100000, 1000000, 10000000, 100000000, 1000000000};

int64_t cp_now_millis(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t cp_local_millis_as_utc(void) {
  int64_t now = cp_now_millis();
  time_t secs = (time_t)(now / 1000);
  struct tm local;
  if (!localtime_r(&secs, &local)) return now;
  return now + (int64_t)local.tm_gmtoff * 1000;
}

int64_t cp_monotonic_nanos(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t cp_days_from_civil(int64_t year, int month, int day) {
  int64_t y = year - (month <= 2);
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;                                /* 0..399 */
  int64_t doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1; /* day of the March-based year */
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;        /* 0..146096 */
  return era * CP_DAYS_PER_ERA + doe - CP_DAYS_0000_03_01_TO_EPOCH;
}

void cp_civil_from_days(int64_t days, int64_t *year, int *month, int *day) {
  /* Split before shifting to 0000-03-01 so that no int64 input overflows. */
  int64_t era = days / CP_DAYS_PER_ERA;
  int64_t doe = days % CP_DAYS_PER_ERA + CP_DAYS_0000_03_01_TO_EPOCH; /* > 0 */
  era += doe / CP_DAYS_PER_ERA;
  doe %= CP_DAYS_PER_ERA; /* day of the era, 0..146096 */
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153; /* 0 = March */
  *day = (int)(doy - (153 * mp + 2) / 5 + 1);
  *month = (int)(mp < 10 ? mp + 3 : mp - 9);
  *year = era * 400 + yoe + (*month <= 2);
}

/* Floor division and its non-negative remainder, exact for INT64_MIN (d >= 1). */
static int64_t cp_floor_divmod(int64_t v, int64_t d, int64_t *rem) {
  int64_t q = v / d, r = v % d;
  if (r < 0) {
    q--;
    r += d;
  }
  *rem = r;
  return q;
}

static size_t cp_put_date(int64_t days, char *out, size_t cap) {
  int64_t y;
  int m, d;
  cp_civil_from_days(days, &y, &m, &d);
  int n;
  if (y > 9999)
    n = snprintf(out, cap, "+%lld-%02d-%02d", (long long)y, m, d);
  else if (y >= 0)
    n = snprintf(out, cap, "%04lld-%02d-%02d", (long long)y, m, d);
  else /* |y| of the smallest reachable year fits in unsigned long long */
    n = snprintf(out, cap, "-%04llu-%02d-%02d", 0ull - (unsigned long long)y, m, d);
  return n < 0 ? 0 : (size_t)n;
}

size_t cp_format_date(int64_t days, char out[CP_DATE_STR_MAX]) {
  return cp_put_date(days, out, CP_DATE_STR_MAX);
}

/* Appends "HH:MM:SS" and the fraction (`frac` in units of 10^-digits s) at out + n. */
static size_t cp_put_clock(int64_t secs_of_day, int64_t frac, int digits, cp_frac_style style,
                           char *out, size_t n, size_t cap) {
  int w = snprintf(out + n, cap - n, "%02d:%02d:%02d", (int)(secs_of_day / 3600),
                   (int)(secs_of_day / 60 % 60), (int)(secs_of_day % 60));
  if (w < 0) return n;
  n += (size_t)w;
  if (digits == 0 || (style == CP_FRAC_TRIM && frac == 0)) return n;
  char f[16];
  snprintf(f, sizeof f, "%0*lld", digits, (long long)frac);
  int keep = digits;
  if (style == CP_FRAC_TRIM)
    while (keep > 1 && f[keep - 1] == '0') keep--;
  w = snprintf(out + n, cap - n, ".%.*s", keep, f);
  return w < 0 ? n : n + (size_t)w;
}

size_t cp_format_timestamp(int64_t value, cp_time_unit unit, cp_frac_style style,
                           char out[CP_TIMESTAMP_STR_MAX]) {
  int digits = (int)unit;
  int64_t frac, sod;
  int64_t secs = cp_floor_divmod(value, cp_pow10[digits], &frac);
  int64_t days = cp_floor_divmod(secs, CP_SECS_PER_DAY, &sod);
  size_t n = cp_put_date(days, out, CP_TIMESTAMP_STR_MAX);
  if (n + 1 < CP_TIMESTAMP_STR_MAX) out[n++] = ' ';
  return cp_put_clock(sod, frac, digits, style, out, n, CP_TIMESTAMP_STR_MAX);
}

int cp_format_time_of_day(int64_t value, cp_time_unit unit, cp_frac_style style,
                          char out[CP_TIME_STR_MAX], paimon_error *err) {
  int digits = (int)unit;
  int64_t per = cp_pow10[digits];
  if (value < 0 || value >= CP_SECS_PER_DAY * per) {
    out[0] = '\0';
    return paimon_error_set(err, PAIMON_EINVAL,
                            "time of day %lld (10^-%d s units) is outside 00:00:00..23:59:59",
                            (long long)value, digits);
  }
  cp_put_clock(value / per, value % per, digits, style, out, 0, CP_TIME_STR_MAX);
  return PAIMON_OK;
}

/* ---- parsing ---- */

typedef struct cp_scan {
  const char *s;
  size_t len, pos;
} cp_scan;

/* Reads between `min` and `max` decimal digits; returns the count read (0 when fewer than min). */
static int cp_scan_digits(cp_scan *sc, int min, int max, int64_t *out) {
  int64_t v = 0;
  int n = 0;
  while (n < max && sc->pos < sc->len && sc->s[sc->pos] >= '0' && sc->s[sc->pos] <= '9') {
    v = v * 10 + (sc->s[sc->pos++] - '0');
    n++;
  }
  *out = v;
  return n >= min ? n : 0;
}

static bool cp_scan_char(cp_scan *sc, char c) {
  if (sc->pos < sc->len && sc->s[sc->pos] == c) {
    sc->pos++;
    return true;
  }
  return false;
}

static int cp_bad_text(paimon_error *err, const char *what, const cp_scan *sc, const char *why) {
  int shown = sc->len > 64 ? 64 : (int)sc->len;
  return paimon_error_set(err, PAIMON_EINVAL, "invalid %s '%.*s%s': %s", what, shown, sc->s,
                          sc->len > 64 ? "..." : "", why);
}

static bool cp_is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* "[+-]YYYY-MM-DD" (4 to 12 year digits) at the scanner's position, into days since the epoch. */
static int cp_scan_date(cp_scan *sc, const char *what, int64_t *days, paimon_error *err) {
  bool neg = cp_scan_char(sc, '-');
  if (!neg) cp_scan_char(sc, '+');
  int64_t y, m, d;
  if (!cp_scan_digits(sc, 4, 12, &y) || !cp_scan_char(sc, '-') || !cp_scan_digits(sc, 2, 2, &m) ||
      !cp_scan_char(sc, '-') || !cp_scan_digits(sc, 2, 2, &d))
    return cp_bad_text(err, what, sc, "expected YYYY-MM-DD");
  if (neg) y = -y;
  static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12) return cp_bad_text(err, what, sc, "month out of range");
  int dim = mdays[m - 1] + (m == 2 && cp_is_leap(y));
  if (d < 1 || d > dim) return cp_bad_text(err, what, sc, "day out of range for the month");
  *days = cp_days_from_civil(y, (int)m, (int)d);
  return PAIMON_OK;
}

/* "HH:MM[:SS[.f{1,9}]]" into seconds of the day and nanoseconds. */
static int cp_scan_clock(cp_scan *sc, const char *what, int64_t *sod, int64_t *nanos,
                         paimon_error *err) {
  int64_t h, mi, s = 0, f = 0;
  if (!cp_scan_digits(sc, 2, 2, &h) || !cp_scan_char(sc, ':') || !cp_scan_digits(sc, 2, 2, &mi))
    return cp_bad_text(err, what, sc, "expected HH:MM[:SS[.fraction]]");
  if (cp_scan_char(sc, ':')) {
    if (!cp_scan_digits(sc, 2, 2, &s)) return cp_bad_text(err, what, sc, "expected seconds");
    if (cp_scan_char(sc, '.')) {
      int n = cp_scan_digits(sc, 1, 9, &f);
      if (!n) return cp_bad_text(err, what, sc, "expected 1 to 9 fraction digits");
      f *= cp_pow10[9 - n];
    }
  }
  if (h > 23 || mi > 59 || s > 59) return cp_bad_text(err, what, sc, "time of day out of range");
  *sod = h * 3600 + mi * 60 + s;
  *nanos = f;
  return PAIMON_OK;
}

/* Converts nanoseconds to `unit`, refusing to drop non-zero digits. */
static int cp_nanos_to_unit(int64_t nanos, cp_time_unit unit, const char *what, const cp_scan *sc,
                            int64_t *out, paimon_error *err) {
  int64_t per = cp_pow10[9 - (int)unit];
  if (nanos % per != 0) return cp_bad_text(err, what, sc, "more fraction digits than the unit has");
  *out = nanos / per;
  return PAIMON_OK;
}

int cp_parse_date(const char *s, size_t len, int32_t *days, paimon_error *err) {
  cp_scan sc = {s, len, 0};
  int64_t d;
  CP_RETURN_IF_ERROR(cp_scan_date(&sc, "date", &d, err));
  if (sc.pos != len) return cp_bad_text(err, "date", &sc, "unexpected text after the date");
  if (d < INT32_MIN || d > INT32_MAX) return cp_bad_text(err, "date", &sc, "outside date32 range");
  *days = (int32_t)d;
  return PAIMON_OK;
}

int cp_parse_timestamp(const char *s, size_t len, cp_time_unit unit, int64_t *out,
                       paimon_error *err) {
  cp_scan sc = {s, len, 0};
  int64_t days, sod = 0, nanos = 0, frac = 0;
  CP_RETURN_IF_ERROR(cp_scan_date(&sc, "timestamp", &days, err));
  if (cp_scan_char(&sc, ' ') || cp_scan_char(&sc, 'T'))
    CP_RETURN_IF_ERROR(cp_scan_clock(&sc, "timestamp", &sod, &nanos, err));
  if (sc.pos != len) return cp_bad_text(err, "timestamp", &sc, "unexpected text after the time");
  CP_RETURN_IF_ERROR(cp_nanos_to_unit(nanos, unit, "timestamp", &sc, &frac, err));
  int64_t secs, v;
  /* Before 1970 the whole seconds are negative and the fraction positive; borrow a second so that
   * secs * 10^unit does not pass INT64_MIN on the way to a value that fits. */
  if (days < 0 && frac > 0) {
    sod++;
    frac -= cp_pow10[(int)unit];
  }
  if (__builtin_mul_overflow(days, (int64_t)CP_SECS_PER_DAY, &secs) ||
      __builtin_add_overflow(secs, sod, &secs) ||
      __builtin_mul_overflow(secs, cp_pow10[(int)unit], &v) || __builtin_add_overflow(v, frac, &v))
    return cp_bad_text(err, "timestamp", &sc, "outside the int64 range of the unit");
  *out = v;
  return PAIMON_OK;
}

int cp_parse_time_of_day(const char *s, size_t len, cp_time_unit unit, int64_t *out,
                         paimon_error *err) {
  cp_scan sc = {s, len, 0};
  int64_t sod = 0, nanos = 0, frac = 0;
  CP_RETURN_IF_ERROR(cp_scan_clock(&sc, "time", &sod, &nanos, err));
  if (sc.pos != len) return cp_bad_text(err, "time", &sc, "unexpected text after the time");
  CP_RETURN_IF_ERROR(cp_nanos_to_unit(nanos, unit, "time", &sc, &frac, err));
  *out = sod * cp_pow10[(int)unit] + frac;
  return PAIMON_OK;
}
