/*
 * Tests for base/time.h. Expected texts were computed independently: with CPython's datetime for
 * years 1..9999 and with Java's java.time (LocalDate.ofEpochDay, LocalDateTime.ofEpochSecond,
 * same proleptic Gregorian calendar) for years outside that range.
 */
#include "base/time.h"

#include <stdio.h>
#include <unistd.h>

#include "test.h"

static void test_clocks(void) {
  int64_t now = cp_now_millis();
  /* After 2024-01-01 and before 2100-01-01. */
  CHECK(now > 1704067200000LL && now < 4102444800000LL);
  int64_t a = cp_monotonic_nanos();
  usleep(2000);
  int64_t b = cp_monotonic_nanos();
  CHECK(b - a >= 2000000);
  CHECK(b - a < 5000000000LL);
}

static const struct {
  int64_t days;
  const char *text;
} k_dates[] = {
    {0, "1970-01-01"},
    {-1, "1969-12-31"},
    {19000, "2022-01-08"},
    {-25508, "1900-03-01"}, /* 1900 is not a leap year */
    {-25509, "1900-02-28"},
    {11016, "2000-02-29"}, /* 2000 is */
    {11017, "2000-03-01"},
    {19782, "2024-02-29"},
    {-135080, "1600-03-01"},
    {2932896, "9999-12-31"},
    {-719162, "0001-01-01"},
    {-719528, "0000-01-01"},
    {-719529, "-0001-12-31"},
    {-1000000, "-0768-02-04"},
    {2932897, "+10000-01-01"},
    {INT32_MIN, "-5877641-06-23"},
    {INT32_MAX, "+5881580-07-11"},
};

static void test_dates(void) {
  paimon_error err;
  for (size_t i = 0; i < sizeof k_dates / sizeof k_dates[0]; i++) {
    char buf[CP_DATE_STR_MAX];
    size_t n = cp_format_date(k_dates[i].days, buf);
    CHECK_STR(buf, k_dates[i].text);
    CHECK_INT(n, strlen(k_dates[i].text));
    int32_t back = 0;
    CHECK_OK(cp_parse_date(k_dates[i].text, strlen(k_dates[i].text), &back, &err), &err);
    CHECK_INT(back, k_dates[i].days);
  }
  /* Every day over 1,200 years round-trips through civil form, and consecutive days advance. */
  int64_t py = 0;
  int pm = 0, pd = 0;
  cp_civil_from_days(-300000 - 1, &py, &pm, &pd);
  for (int64_t d = -300000; d < 150000; d++) {
    int64_t y;
    int m, dd;
    cp_civil_from_days(d, &y, &m, &dd);
    if (cp_days_from_civil(y, m, dd) != d) {
      CHECK_INT(cp_days_from_civil(y, m, dd), d);
      break;
    }
    bool next_day = (y == py && m == pm && dd == pd + 1) || (y == py && m == pm + 1 && dd == 1) ||
                    (y == py + 1 && m == 1 && dd == 1 && pm == 12 && pd == 31);
    if (!next_day) {
      CHECK(next_day);
      break;
    }
    py = y;
    pm = m;
    pd = dd;
  }
  /* The extremes of int64 do not overflow. */
  char buf[CP_DATE_STR_MAX];
  CHECK(cp_format_date(INT64_MIN, buf) > 10 && buf[0] == '-');
  CHECK(cp_format_date(INT64_MAX, buf) > 10 && buf[0] == '+');
}

static void test_date_parse_errors(void) {
  paimon_error err;
  int32_t d;
  const char *bad[] = {"",
                       "2023-2-01",
                       "2023-02-29",
                       "1900-02-29",
                       "2023-13-01",
                       "2023-00-10",
                       "2023-04-31",
                       "2023-01-00",
                       "23-01-01",
                       "2023-01-01x",
                       " 2023-01-01",
                       "2023/01/01",
                       "+9999999-01-01"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(cp_parse_date(bad[i], strlen(bad[i]), &d, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "invalid date");
  }
  CHECK_ERR(cp_parse_date("2023-02-29", 10, &d, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "invalid date '2023-02-29': day out of range for the month");
  CHECK_OK(cp_parse_date("2024-02-29", 10, &d, &err), &err);
  CHECK_INT(d, 19782);
  /* Only `len` bytes are read. */
  CHECK_OK(cp_parse_date("2022-01-08T00:00", 10, &d, &err), &err);
  CHECK_INT(d, 19000);
}

static const struct {
  int64_t value;
  cp_time_unit unit;
  const char *full, *trim;
} k_timestamps[] = {
    {0, CP_UNIT_MICRO, "1970-01-01 00:00:00.000000", "1970-01-01 00:00:00"},
    {-1, CP_UNIT_MICRO, "1969-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999"},
    {1700000000123456LL, CP_UNIT_MICRO, "2023-11-14 22:13:20.123456", "2023-11-14 22:13:20.123456"},
    {-1234567890123456LL, CP_UNIT_MICRO, "1930-11-18 00:28:29.876544",
     "1930-11-18 00:28:29.876544"},
    {-1, CP_UNIT_MILLI, "1969-12-31 23:59:59.999", "1969-12-31 23:59:59.999"},
    {1700000000120LL, CP_UNIT_MILLI, "2023-11-14 22:13:20.120", "2023-11-14 22:13:20.12"},
    {1700000000LL, CP_UNIT_SECOND, "2023-11-14 22:13:20", "2023-11-14 22:13:20"},
    {INT64_MIN, CP_UNIT_NANO, "1677-09-21 00:12:43.145224192", "1677-09-21 00:12:43.145224192"},
    {INT64_MAX, CP_UNIT_NANO, "2262-04-11 23:47:16.854775807", "2262-04-11 23:47:16.854775807"},
    {INT64_MIN, CP_UNIT_MICRO, "-290308-12-21 19:59:05.224192", "-290308-12-21 19:59:05.224192"},
    {INT64_MAX, CP_UNIT_MICRO, "+294247-01-10 04:00:54.775807", "+294247-01-10 04:00:54.775807"},
    {INT64_MIN, CP_UNIT_MILLI, "-292275055-05-16 16:47:04.192", "-292275055-05-16 16:47:04.192"},
    {INT64_MAX, CP_UNIT_MILLI, "+292278994-08-17 07:12:55.807", "+292278994-08-17 07:12:55.807"},
};

static void test_timestamps(void) {
  paimon_error err;
  for (size_t i = 0; i < sizeof k_timestamps / sizeof k_timestamps[0]; i++) {
    char buf[CP_TIMESTAMP_STR_MAX];
    size_t n = cp_format_timestamp(k_timestamps[i].value, k_timestamps[i].unit, CP_FRAC_FULL, buf);
    CHECK_STR(buf, k_timestamps[i].full);
    CHECK_INT(n, strlen(k_timestamps[i].full));
    cp_format_timestamp(k_timestamps[i].value, k_timestamps[i].unit, CP_FRAC_TRIM, buf);
    CHECK_STR(buf, k_timestamps[i].trim);
    for (int style = 0; style < 2; style++) {
      const char *t = style ? k_timestamps[i].trim : k_timestamps[i].full;
      int64_t back = 0;
      CHECK_OK(cp_parse_timestamp(t, strlen(t), k_timestamps[i].unit, &back, &err), &err);
      CHECK(back == k_timestamps[i].value);
    }
  }
  /* INT64_MIN seconds reaches a year of twelve digits: it must still fit the buffer. */
  char buf[CP_TIMESTAMP_STR_MAX];
  size_t n = cp_format_timestamp(INT64_MIN, CP_UNIT_SECOND, CP_FRAC_FULL, buf);
  CHECK(n < CP_TIMESTAMP_STR_MAX && buf[0] == '-' && strlen(buf) == n);
}

static void test_timestamp_parse(void) {
  paimon_error err;
  int64_t v = 0;
  CHECK_OK(cp_parse_timestamp("2023-11-14T22:13:20.5", 21, CP_UNIT_MILLI, &v, &err), &err);
  CHECK_INT(v, 1700000000500LL);
  CHECK_OK(cp_parse_timestamp("2023-11-14 22:13", 16, CP_UNIT_SECOND, &v, &err), &err);
  CHECK_INT(v, 1700000000LL - 20);
  CHECK_OK(cp_parse_timestamp("1969-12-31", 10, CP_UNIT_MICRO, &v, &err), &err);
  CHECK_INT(v, -86400000000LL);
  CHECK_OK(cp_parse_timestamp("1970-01-01 00:00:00.123000", 26, CP_UNIT_MILLI, &v, &err), &err);
  CHECK_INT(v, 123);
  const char *t = "1970-01-01 00:00:00.1234";
  CHECK_ERR(cp_parse_timestamp(t, strlen(t), CP_UNIT_MILLI, &v, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "more fraction digits than the unit has");
  t = "2262-04-11 23:47:16.854775808";
  CHECK_ERR(cp_parse_timestamp(t, strlen(t), CP_UNIT_NANO, &v, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "outside the int64 range");
  t = "999999999999-01-01";
  CHECK_ERR(cp_parse_timestamp(t, strlen(t), CP_UNIT_SECOND, &v, &err), PAIMON_EINVAL);
  const char *bad[] = {
      "2023-11-14 24:00:00", "2023-11-14 12:60",     "2023-11-14 12:00:60",
      "2023-11-14 12",       "2023-11-14 12:00:00.", "2023-11-14 12:00:00.1234567890",
      "2023-11-14  12:00",   "2023-11-14 12:00:00Z", "2023-11-14T"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(cp_parse_timestamp(bad[i], strlen(bad[i]), CP_UNIT_NANO, &v, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "invalid timestamp '");
  }
}

static void test_time_of_day(void) {
  paimon_error err;
  char buf[CP_TIME_STR_MAX];
  CHECK_OK(cp_format_time_of_day(0, CP_UNIT_MILLI, CP_FRAC_FULL, buf, &err), &err);
  CHECK_STR(buf, "00:00:00.000");
  CHECK_OK(cp_format_time_of_day(0, CP_UNIT_MILLI, CP_FRAC_TRIM, buf, &err), &err);
  CHECK_STR(buf, "00:00:00");
  CHECK_OK(cp_format_time_of_day(86399999, CP_UNIT_MILLI, CP_FRAC_FULL, buf, &err), &err);
  CHECK_STR(buf, "23:59:59.999");
  CHECK_OK(cp_format_time_of_day(45296500, CP_UNIT_MILLI, CP_FRAC_TRIM, buf, &err), &err);
  CHECK_STR(buf, "12:34:56.5");
  CHECK_OK(cp_format_time_of_day(45296, CP_UNIT_SECOND, CP_FRAC_FULL, buf, &err), &err);
  CHECK_STR(buf, "12:34:56");
  CHECK_OK(cp_format_time_of_day(86399999999999LL, CP_UNIT_NANO, CP_FRAC_FULL, buf, &err), &err);
  CHECK_STR(buf, "23:59:59.999999999");
  CHECK_ERR(cp_format_time_of_day(86400000, CP_UNIT_MILLI, CP_FRAC_FULL, buf, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "86400000");
  CHECK_ERR(cp_format_time_of_day(-1, CP_UNIT_MILLI, CP_FRAC_FULL, buf, &err), PAIMON_EINVAL);

  int64_t v = -1;
  CHECK_OK(cp_parse_time_of_day("12:34:56.5", 10, CP_UNIT_MILLI, &v, &err), &err);
  CHECK_INT(v, 45296500);
  CHECK_OK(cp_parse_time_of_day("23:59:59.999", 12, CP_UNIT_MILLI, &v, &err), &err);
  CHECK_INT(v, 86399999);
  CHECK_OK(cp_parse_time_of_day("07:05", 5, CP_UNIT_MICRO, &v, &err), &err);
  CHECK_INT(v, 25500000000LL);
  const char *bad[] = {"24:00:00", "7:05", "12:34:56.", "12:34:56.1234", "12:34:56 ", "", "ab:cd"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(cp_parse_time_of_day(bad[i], strlen(bad[i]), CP_UNIT_MILLI, &v, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "invalid time '");
  }
}

int main(void) {
  RUN(test_clocks);
  RUN(test_dates);
  RUN(test_date_parse_errors);
  RUN(test_timestamps);
  RUN(test_timestamp_parse);
  RUN(test_time_of_day);
  TEST_MAIN_END();
}
