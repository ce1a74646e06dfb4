/*
 * Casts with Spark's non-ANSI semantics (src/expr/cast.c), the text forms of values (Java's
 * Double.toString / Float.toString, checked against Java 17), literal parsing
 * (cp_datum_parse_text for every atomic type, src/expr/parse.c) and the exact decimal helpers
 * (src/expr/decimal.c, checked against java.math.BigDecimal with RoundingMode.HALF_UP).
 */
#include <math.h>

#include "expr_test.h"

#define CHECK_CONST(t, text, value) CHECK_EVAL(t, text, value "|" value)

static tb one;

static void test_cast_to_integers(void) {
  CHECK_CONST(&one, "(cast '12' 'INT')", "12");
  CHECK_CONST(&one, "(cast ' 12 ' 'INT')", "12");
  CHECK_CONST(&one, "(cast '+12' 'INT')", "12");
  CHECK_CONST(&one, "(cast '1.9' 'INT')", "1");
  CHECK_CONST(&one, "(cast '-1.9' 'INT')", "-1");
  CHECK_CONST(&one, "(cast '1.' 'INT')", "1");
  CHECK_CONST(&one, "(cast 'abc' 'INT')", "NULL");
  CHECK_CONST(&one, "(cast '' 'INT')", "NULL");
  CHECK_CONST(&one, "(cast '1e3' 'INT')", "NULL");
  CHECK_CONST(&one, "(cast '1.5x' 'INT')", "NULL");
  CHECK_CONST(&one, "(cast '2147483648' 'INT')", "NULL");
  CHECK_CONST(&one, "(cast '-2147483648' 'INT')", "-2147483648");
  CHECK_CONST(&one, "(cast '-9223372036854775808' 'BIGINT')", "-9223372036854775808");
  CHECK_CONST(&one, "(cast '9223372036854775808' 'BIGINT')", "NULL");
  CHECK_CONST(&one, "(cast '128' 'TINYINT')", "NULL");
  /* Java (byte) / (int) conversions: narrowing wraps, doubles saturate at the int range first. */
  CHECK_CONST(&one, "(cast 300 'TINYINT')", "44");
  CHECK_CONST(&one, "(cast -129 'TINYINT')", "127");
  CHECK_CONST(&one, "(cast 70000 'SMALLINT')", "4464");
  CHECK_CONST(&one, "(cast 5000000000L 'INT')", "705032704");
  CHECK_CONST(&one, "(cast 1.9d 'INT')", "1");
  CHECK_CONST(&one, "(cast -1.9d 'INT')", "-1");
  CHECK_CONST(&one, "(cast 1e10d 'INT')", "2147483647");
  CHECK_CONST(&one, "(cast nan 'INT')", "0");
  CHECK_CONST(&one, "(cast 3e10d 'TINYINT')", "-1");
  CHECK_CONST(&one, "(cast 1e19d 'BIGINT')", "9223372036854775807");
  CHECK_CONST(&one, "(cast -inf 'BIGINT')", "-9223372036854775808");
  CHECK_CONST(&one, "(cast 2.5f 'INT')", "2");
  CHECK_CONST(&one, "(cast 1.5 'INT')", "1");
  CHECK_CONST(&one, "(cast -1.5 'INT')", "-1");
  CHECK_CONST(&one, "(cast true 'INT')", "1");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '1970-01-01 00:00:01.5') 'BIGINT')", "1");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '1969-12-31 23:59:59.5') 'BIGINT')", "-1");
}

static void test_cast_to_fractional(void) {
  CHECK_CONST(&one, "(cast '1.5' 'DOUBLE')", "1.5");
  CHECK_CONST(&one, "(cast ' -2.5e3 ' 'DOUBLE')", "-2500.0");
  CHECK_CONST(&one, "(cast '1.5d' 'DOUBLE')", "1.5"); /* Java's parseDouble accepts a suffix */
  CHECK_CONST(&one, "(cast 'NaN' 'DOUBLE')", "NaN");
  CHECK_CONST(&one, "(cast '-Infinity' 'DOUBLE')", "-Infinity");
  CHECK_CONST(&one, "(cast 'inf' 'DOUBLE')", "Infinity");
  CHECK_CONST(&one, "(cast 'x1' 'DOUBLE')", "NULL");
  CHECK_CONST(&one, "(cast '0x10' 'DOUBLE')", "NULL");
  CHECK_CONST(&one, "(cast '0.1' 'FLOAT')", "0.1");
  CHECK_CONST(&one, "(cast 16777217 'FLOAT')", "1.6777216E7");
  CHECK_CONST(&one, "(cast 1.25 'DOUBLE')", "1.25");
  CHECK_CONST(&one, "(cast (lit 'DECIMAL(38, 10)' '12345678901234567890.0123456789') 'DOUBLE')",
              "1.2345678901234567E19");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '1970-01-01 00:00:01.5') 'DOUBLE')", "1.5");
  CHECK_CONST(&one, "(cast false 'DOUBLE')", "0.0");
}

static void test_cast_to_decimal(void) {
  CHECK_CONST(&one, "(cast 123.456 'DECIMAL(5, 2)')", "123.46");
  CHECK_CONST(&one, "(cast 123.455 'DECIMAL(5, 2)')", "123.46");
  CHECK_CONST(&one, "(cast -123.455 'DECIMAL(5, 2)')", "-123.46");
  CHECK_CONST(&one, "(cast 1234.5 'DECIMAL(5, 2)')", "NULL");
  CHECK_CONST(&one, "(cast 0.1d 'DECIMAL(20, 18)')", "0.100000000000000000");
  CHECK_CONST(&one, "(cast 1e20d 'DECIMAL(38, 0)')", "100000000000000000000");
  CHECK_CONST(&one, "(cast 1e-20d 'DECIMAL(10, 2)')", "0.00");
  CHECK_CONST(&one, "(cast nan 'DECIMAL(10, 2)')", "NULL");
  CHECK_CONST(&one, "(cast 0.125d 'DECIMAL(3, 2)')", "0.13");
  CHECK_CONST(&one, "(cast '1.005' 'DECIMAL(3, 2)')", "1.01");
  CHECK_CONST(&one, "(cast ' -0.005 ' 'DECIMAL(3, 2)')", "-0.01");
  CHECK_CONST(&one, "(cast '1e2' 'DECIMAL(5, 1)')", "100.0");
  CHECK_CONST(&one, "(cast 'abc' 'DECIMAL(3, 2)')", "NULL");
  CHECK_CONST(&one, "(cast 99 'DECIMAL(2, 0)')", "99");
  CHECK_CONST(&one, "(cast 100 'DECIMAL(2, 0)')", "NULL");
  CHECK_CONST(&one, "(cast -9223372036854775808L 'DECIMAL(19, 0)')", "-9223372036854775808");
  CHECK_CONST(&one, "(cast true 'DECIMAL(3, 1)')", "1.0");
}

static void test_cast_booleans_and_strings(void) {
  CHECK_CONST(&one, "(cast 1 'BOOLEAN')", "true");
  CHECK_CONST(&one, "(cast 0 'BOOLEAN')", "false");
  CHECK_CONST(&one, "(cast 0.5d 'BOOLEAN')", "true");
  CHECK_CONST(&one, "(cast 'yes' 'BOOLEAN')", "true");
  CHECK_CONST(&one, "(cast ' F ' 'BOOLEAN')", "false");
  CHECK_CONST(&one, "(cast 'TRUE' 'BOOLEAN')", "true");
  CHECK_CONST(&one, "(cast '1' 'BOOLEAN')", "true");
  CHECK_CONST(&one, "(cast 'maybe' 'BOOLEAN')", "NULL");
  CHECK_CONST(&one, "(cast 12 'STRING')", "12");
  CHECK_CONST(&one, "(cast -9223372036854775808L 'STRING')", "-9223372036854775808");
  CHECK_CONST(&one, "(cast true 'STRING')", "true");
  CHECK_CONST(&one, "(cast (lit 'DECIMAL(5, 3)' '-1.500') 'STRING')", "-1.500");
  CHECK_CONST(&one, "(cast (lit 'DECIMAL(5, 3)' '0.005') 'STRING')", "0.005");
  CHECK_CONST(&one, "(cast (lit 'DATE' '2024-02-29') 'STRING')", "2024-02-29");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '2024-01-01 10:00:00.120000') 'STRING')",
              "2024-01-01 10:00:00.12");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '2024-01-01 10:00:00') 'STRING')",
              "2024-01-01 10:00:00");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(9)' '1969-12-31 23:59:59.000000001') 'STRING')",
              "1969-12-31 23:59:59.000000001");
  CHECK_CONST(&one, "(cast (lit 'TIME' '01:02:03.400') 'STRING')", "01:02:03.4");
  CHECK_CONST(&one, "(cast 'abc' 'BYTES')", "X'616263'");
  CHECK_CONST(&one, "(cast (lit 'BYTES' 'X''6869''') 'STRING')", "hi");
  CHECK_CONST(&one, "(cast (lit 'BYTES' 'X''FF''') 'STRING')", "NULL"); /* not UTF-8 */
  CHECK_CONST(&one, "(cast 'abc' 'CHAR(1)')", "abc");                   /* no truncation */
}

/* Java 17: Double.toString / Float.toString of these values. */
static void test_java_number_text(void) {
  struct {
    const char *expr, *text;
  } cases[] = {{"(cast 1e7d 'STRING')", "1.0E7"},
               {"(cast 1e-4d 'STRING')", "1.0E-4"},
               {"(cast 0.001d 'STRING')", "0.001"},
               {"(cast 123456789.0d 'STRING')", "1.23456789E8"},
               {"(cast 100.0d 'STRING')", "100.0"},
               {"(cast 9999999.0d 'STRING')", "9999999.0"},
               {"(cast 12345678.9d 'STRING')", "1.23456789E7"},
               {"(cast 1e21d 'STRING')", "1.0E21"},
               {"(cast 1e-5d 'STRING')", "1.0E-5"},
               {"(cast 123.456d 'STRING')", "123.456"},
               {"(cast -0.0d 'STRING')", "-0.0"},
               {"(cast (/ 1.0d 7.5d) 'STRING')", "0.13333333333333333"},
               {"(cast 0.1f 'STRING')", "0.1"},
               {"(cast 1e-3f 'STRING')", "0.001"},
               {"(cast 1e7f 'STRING')", "1.0E7"},
               {"(cast 3.4e38f 'STRING')", "3.4E38"},
               {"(cast (/ 1.0f 3.0f) 'STRING')", "0.3333333333333333"},
               {"(cast (cast (/ 1.0d 3.0d) 'FLOAT') 'STRING')", "0.33333334"},
               {"(cast -1.25f 'STRING')", "-1.25"},
               {"(cast inf 'STRING')", "Infinity"},
               {"(cast nan 'STRING')", "NaN"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char expected[96];
    snprintf(expected, sizeof expected, "%s|%s", cases[i].text, cases[i].text);
    CHECK_EVAL(&one, cases[i].expr, expected);
  }
}

static void test_cast_dates_and_timestamps(void) {
  CHECK_CONST(&one, "(cast '2024-1-5' 'DATE')", "2024-01-05");
  CHECK_CONST(&one, "(cast '2024' 'DATE')", "2024-01-01");
  CHECK_CONST(&one, "(cast '2024-02' 'DATE')", "2024-02-01");
  CHECK_CONST(&one, "(cast '2024-02-30' 'DATE')", "NULL");
  CHECK_CONST(&one, "(cast '2023-02-29' 'DATE')", "NULL");
  CHECK_CONST(&one, "(cast '2024-01-05 12:34:56' 'DATE')", "2024-01-05");
  CHECK_CONST(&one, "(cast '2024-01-05T12:34' 'DATE')", "2024-01-05");
  CHECK_CONST(&one, "(cast '-0044-03-15' 'DATE')", "-0044-03-15");
  CHECK_CONST(&one, "(cast 'x' 'DATE')", "NULL");
  CHECK_CONST(&one, "(cast '2024-01-05 12:34:56.789' 'TIMESTAMP(3)')", "2024-01-05 12:34:56.789");
  CHECK_CONST(&one, "(cast '2024-01-05' 'TIMESTAMP(6)')", "2024-01-05 00:00:00");
  CHECK_CONST(&one, "(cast '2024-01' 'TIMESTAMP(6)')", "2024-01-01 00:00:00");
  CHECK_CONST(&one, "(cast '2024-01-05T01:02' 'TIMESTAMP(0)')", "2024-01-05 01:02:00");
  CHECK_CONST(&one, "(cast '2024-01-05T01:02:03Z' 'TIMESTAMP_LTZ(6)')", "2024-01-05 01:02:03");
  CHECK_CONST(&one, "(cast '2024-01-05 01:02:03+02:00' 'TIMESTAMP_LTZ(6)')", "2024-01-04 23:02:03");
  CHECK_CONST(&one, "(cast '2024-01-05 01:02:03 UTC-0130' 'TIMESTAMP_LTZ(6)')",
              "2024-01-05 02:32:03");
  CHECK_CONST(&one, "(cast '2024-01-05 01:02:03+02:00' 'TIMESTAMP(6)')", "2024-01-05 01:02:03");
  CHECK_CONST(&one, "(cast '2024-01-05 01:02:03.123456789' 'TIMESTAMP(3)')",
              "2024-01-05 01:02:03.123");
  CHECK_CONST(&one, "(cast '2024-01-05 25:00:00' 'TIMESTAMP(3)')", "NULL");
  CHECK_CONST(&one, "(cast '2024-01-05 01:02:03 Mars/Olympus' 'TIMESTAMP(3)')", "NULL");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '2024-01-05 23:59:59.999999') 'DATE')",
              "2024-01-05");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '1969-12-31 23:59:59') 'DATE')", "1969-12-31");
  CHECK_CONST(&one, "(cast (lit 'DATE' '2024-01-05') 'TIMESTAMP(6)')", "2024-01-05 00:00:00");
  CHECK_CONST(&one, "(cast (lit 'TIMESTAMP(6)' '1969-12-31 23:59:59.999999') 'TIMESTAMP(0)')",
              "1969-12-31 23:59:59");
  CHECK_CONST(&one, "(cast 1 'TIMESTAMP(6)')", "1970-01-01 00:00:01");
  CHECK_CONST(&one, "(cast 1.5d 'TIMESTAMP(6)')", "1970-01-01 00:00:01.5");
  CHECK_CONST(&one, "(cast nan 'TIMESTAMP(6)')", "NULL");
  CHECK_CONST(&one, "(cast '12:34:56.5' 'TIME')", "12:34:56.5");
  CHECK_CONST(&one, "(cast '24:00' 'TIME')", "NULL");
  /* Spark (non-ANSI): a DATE cast to a number or BOOLEAN is NULL. */
  CHECK_CONST(&one, "(cast (lit 'DATE' '2024-01-05') 'INT')", "NULL");
  CHECK_CONST(&one, "(cast (lit 'DATE' '2024-01-05') 'DECIMAL(10, 2)')", "NULL");
  CHECK_CONST(&one, "(cast (lit 'DATE' '2024-01-05') 'BOOLEAN')", "NULL");
  /* DATE + n, n + DATE, DATE - n (Spark's date_add / date_sub), across month and year ends */
  CHECK_CONST(&one, "(+ (lit 'DATE' '2024-02-28') 2)", "2024-03-01");
  CHECK_CONST(&one, "(+ 1 (lit 'DATE' '2024-12-31'))", "2025-01-01");
  CHECK_CONST(&one, "(- (lit 'DATE' '1970-01-01') 1)", "1969-12-31");
  CHECK_CONST(&one, "(+ (lit 'DATE' '2024-01-01') (cast 1 'TINYINT'))", "2024-01-02");
}

static void test_cast_columns(void) {
  static const char *const cells[] = {"1",  "1.5", "10", "x",  "-7",  "-0.5", "-10",  " 42 ",
                                      NULL, NULL,  NULL, NULL, "127", "3e10", "1000", "1.9"};
  tb t;
  tb_make(&t, "ROW<i INT, d DOUBLE, l BIGINT, s STRING>", 4, cells);
  CHECK_EVAL(&t, "(cast i 'BIGINT')", "1|-7|NULL|127");
  CHECK_EVAL(&t, "(cast i 'DOUBLE')", "1.0|-7.0|NULL|127.0");
  CHECK_EVAL(&t, "(cast i 'FLOAT')", "1.0|-7.0|NULL|127.0");
  CHECK_EVAL(&t, "(cast i 'TINYINT')", "1|-7|NULL|127");
  CHECK_EVAL(&t, "(cast l 'TINYINT')", "10|-10|NULL|-24");
  CHECK_EVAL(&t, "(cast d 'INT')", "1|0|NULL|2147483647");
  CHECK_EVAL(&t, "(cast s 'INT')", "NULL|42|NULL|1");
  CHECK_EVAL(&t, "(cast i 'STRING')", "1|-7|NULL|127");
  CHECK_EVAL(&t, "(cast d 'STRING')", "1.5|-0.5|NULL|3.0E10");
  CHECK_EVAL(&t, "(cast i 'DECIMAL(3, 1)')", "1.0|-7.0|NULL|NULL");
  tb_free(&t);
}

static void test_cast_bind_errors(void) {
  static const char *const cells[] = {"2024-01-01", "1"};
  tb t;
  tb_make(&t, "ROW<dt DATE, a ARRAY<INT>>", 1, (const char *const[]){"2024-01-01", NULL});
  (void)cells;
  CHECK_BIND_FAILS(&t, "(cast dt 'TIME')", PAIMON_EINVAL, "cannot cast column 'dt' (DATE) to TIME");
  /* a nested value casts to STRING (Spark's text) but to nothing else atomic */
  CHECK_BIND_FAILS(&t, "(cast a 'INT')", PAIMON_EINVAL, "column 'a' (ARRAY<INT>)");
  CHECK_EVAL(&t, "(cast a 'STRING')", "NULL");
  CHECK_BIND_FAILS(&t, "(cast true 'DATE')", PAIMON_EINVAL, "cannot cast");
  tb_free(&t);
}

/* ---- cp_datum_parse_text ----------------------------------------------------------------------
 */

/* Parses `text` as `type` and renders it back; "ERROR: <message>" on failure. */
static char *parse_render(const char *type, const char *text) {
  cp_type *t = tt_type(type);
  cp_arena arena = CP_ARENA_INIT;
  cp_datum d;
  paimon_error err;
  cp_buf out = CP_BUF_INIT;
  if (cp_datum_parse_text(t, text, &arena, &d, &err) != 0) {
    CHECK_INT(err.code, PAIMON_EINVAL);
    cp_buf_appendf(&out, NULL, "ERROR: %s", err.message);
  } else {
    tt_append_value(t, &d, &out);
  }
  cp_buf_nul_terminate(&out, NULL);
  cp_arena_free(&arena);
  cp_type_free(t);
  return (char *)out.data;
}

#define CHECK_PARSE(type, text, expected)                                                          \
  do {                                                                                             \
    char *r_ = parse_render(type, text);                                                           \
    CHECK_STR(r_, expected);                                                                       \
    free(r_);                                                                                      \
  } while (0)

#define CHECK_PARSE_FAILS(type, text, needle)                                                      \
  do {                                                                                             \
    char *r_ = parse_render(type, text);                                                           \
    CHECK(strncmp(r_, "ERROR: ", 7) == 0);                                                         \
    CHECK_CONTAINS(r_, needle);                                                                    \
    free(r_);                                                                                      \
  } while (0)

static void test_parse_text(void) {
  CHECK_PARSE("BOOLEAN", " TRUE ", "true");
  CHECK_PARSE("BOOLEAN", "n", "false");
  CHECK_PARSE_FAILS("BOOLEAN", "truth", "invalid BOOLEAN value 'truth'");
  CHECK_PARSE("TINYINT", "-128", "-128");
  CHECK_PARSE_FAILS("TINYINT", "128", "out of range");
  CHECK_PARSE("SMALLINT", "32767", "32767");
  CHECK_PARSE("INT", " -2147483648 ", "-2147483648");
  CHECK_PARSE_FAILS("INT", "1.5", "invalid INT value '1.5'");
  CHECK_PARSE_FAILS("INT", "", "invalid INT");
  CHECK_PARSE_FAILS("INT", "-", "invalid INT");
  CHECK_PARSE("BIGINT", "9223372036854775807", "9223372036854775807");
  CHECK_PARSE_FAILS("BIGINT", "9223372036854775808", "out of range");
  CHECK_PARSE("FLOAT", "1.5", "1.5");
  CHECK_PARSE("DOUBLE", "-1.25e-3", "-0.00125");
  CHECK_PARSE("DOUBLE", ".5", "0.5");
  CHECK_PARSE("DOUBLE", "NaN", "NaN");
  CHECK_PARSE("DOUBLE", "-Infinity", "-Infinity");
  CHECK_PARSE_FAILS("DOUBLE", "1.2.3", "invalid DOUBLE value '1.2.3'");
  CHECK_PARSE_FAILS("DOUBLE", "e5", "not a number");
  CHECK_PARSE("DECIMAL(10, 2)", "12.5", "12.50");
  CHECK_PARSE("DECIMAL(10, 2)", "-0.01", "-0.01");
  CHECK_PARSE("DECIMAL(10, 2)", "12.500", "12.50"); /* trailing zeros are exact */
  CHECK_PARSE("DECIMAL(38, 0)", "99999999999999999999999999999999999999",
              "99999999999999999999999999999999999999");
  CHECK_PARSE("DECIMAL(5, 2)", "1.5e2", "150.00");
  CHECK_PARSE_FAILS("DECIMAL(10, 2)", "12.345", "more fraction digits than the scale");
  CHECK_PARSE_FAILS("DECIMAL(4, 2)", "123.4", "out of range");
  CHECK_PARSE_FAILS("DECIMAL(38, 0)", "100000000000000000000000000000000000000", "out of range");
  CHECK_PARSE("DATE", "2024-02-29", "2024-02-29");
  CHECK_PARSE("DATE", "2024-2-9", "2024-02-09");
  CHECK_PARSE_FAILS("DATE", "2023-02-29", "day out of range");
  CHECK_PARSE_FAILS("DATE", "2024-02", "invalid DATE value '2024-02'");
  CHECK_PARSE_FAILS("DATE", "2024-01-01 10:00", "unexpected text");
  CHECK_PARSE("TIME", "23:59:59.999", "23:59:59.999");
  CHECK_PARSE("TIME", "1:2", "01:02:00");
  CHECK_PARSE_FAILS("TIME", "12:00:00.0001", "milliseconds");
  CHECK_PARSE_FAILS("TIME", "24:00:00", "out of range");
  CHECK_PARSE("TIMESTAMP(6)", "2024-01-31 12:00:00.123456", "2024-01-31 12:00:00.123456");
  CHECK_PARSE("TIMESTAMP(3)", "2024-01-31T12:00", "2024-01-31 12:00:00");
  CHECK_PARSE("TIMESTAMP(9)", "1969-12-31 23:59:59.999999999", "1969-12-31 23:59:59.999999999");
  CHECK_PARSE("TIMESTAMP(6)", "2024-01-31", "2024-01-31 00:00:00");
  CHECK_PARSE("TIMESTAMP_LTZ(6)", "2024-01-31 12:00:00-05:00", "2024-01-31 17:00:00");
  CHECK_PARSE("TIMESTAMP_LTZ(6)", "2024-01-31 12:00:00 Z", "2024-01-31 12:00:00");
  CHECK_PARSE_FAILS("TIMESTAMP(6)", "2024-01-31 12:00:00.1234567891", "9 fraction digits");
  CHECK_PARSE_FAILS("TIMESTAMP(6)", "2024", "invalid TIMESTAMP(6) value '2024'");
  CHECK_PARSE_FAILS("TIMESTAMP(6)", "yesterday", "expected a date");
  CHECK_PARSE("STRING", "  keeps spaces ", "  keeps spaces ");
  CHECK_PARSE("VARCHAR(3)", "", "");
  CHECK_PARSE("BYTES", "X'0aFF'", "X'0AFF'");
  CHECK_PARSE("BYTES", "x''", "X''");
  CHECK_PARSE("BYTES", "hi", "X'6869'");
  CHECK_PARSE_FAILS("BYTES", "X'0'", "odd number");
  CHECK_PARSE_FAILS("BYTES", "X'zz'", "bad hex digit");
  char long_text[300];
  memset(long_text, '9', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = 0;
  char *r = parse_render("INT", long_text);
  CHECK(strstr(r, "...") != NULL); /* long input is shortened in the message */
  CHECK(strlen(r) < 250);
  free(r);
  cp_type *arr = tt_type("ARRAY<INT>");
  cp_arena arena = CP_ARENA_INIT;
  cp_datum d;
  paimon_error err;
  CHECK_ERR(cp_datum_parse_text(arr, "[1]", &arena, &d, &err), PAIMON_EINVAL);
  cp_type_free(arr);
  cp_arena_free(&arena);
}

static void test_number_literals(void) {
  struct {
    const char *text, *type, *value;
  } cases[] = {{"5", "INT", "5"},
               {"-2147483648", "INT", "-2147483648"},
               {"2147483648", "BIGINT", "2147483648"},
               {"99999999999999999999", "DECIMAL(20, 0)", "99999999999999999999"},
               {"1.50", "DECIMAL(3, 2)", "1.50"},
               {"0.05", "DECIMAL(2, 2)", "0.05"},
               {"-100.5", "DECIMAL(4, 1)", "-100.5"},
               {"1e3", "DOUBLE", "1000.0"},
               {" NaN ", "DOUBLE", "NaN"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cp_type *t;
    cp_datum d;
    CHECK_INT(cp_parse_number_literal(cases[i].text, strlen(cases[i].text), &t, &d), 0);
    cp_type *expect = tt_type(cases[i].type);
    CHECK(cp_type_equals(t, expect, CP_TYPE_EQ_IGNORE_NULLABILITY));
    cp_buf b = CP_BUF_INIT;
    tt_append_value(t, &d, &b);
    cp_buf_nul_terminate(&b, NULL);
    CHECK_STR((char *)b.data, cases[i].value);
    cp_buf_free(&b);
    cp_type_free(expect);
    cp_type_free(t);
  }
  const char *bad[] = {"", "abc", "1.2.3", "--1", "1e", "0x10"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    cp_type *t;
    cp_datum d;
    CHECK_INT(cp_parse_number_literal(bad[i], strlen(bad[i]), &t, &d), -1);
    CHECK(t == NULL);
  }
}

/* Exact decimal helpers against java.math.BigDecimal (values computed with Java 17). */
static void test_decimal_helpers(void) {
  cp_int128 r;
  CHECK(cp_dec_rescale(123455, 3, 2, 5, &r) && r == 12346);
  CHECK(cp_dec_rescale(-123455, 3, 2, 5, &r) && r == -12346);
  CHECK(cp_dec_rescale(-123454, 3, 2, 5, &r) && r == -12345);
  CHECK(!cp_dec_rescale(99999, 0, 2, 6, &r));
  CHECK(cp_dec_rescale(1, 0, 37, 38, &r) && r == cp_dec_pow10(37));
  /* 10^37 * 10 overflows 38 digits. */
  CHECK(!cp_dec_arith(CP_ARITH_MUL, cp_dec_pow10(37), 0, 10, 0, 38, 0, &r));
  /* (10^38 - 1) * (10^38 - 1) / 10^38 at scale 0 needs the 256-bit intermediate: 10^38 - 2 */
  cp_int128 max = cp_dec_pow10(38) - 1;
  CHECK(cp_dec_arith(CP_ARITH_MUL, max, 19, max, 19, 38, 0, &r) && r == cp_dec_pow10(38) - 2);
  /* 1 / 3 at scale 38 (needs 10^38 scaling of the dividend). */
  CHECK(cp_dec_arith(CP_ARITH_DIV, 1, 0, 3, 0, 38, 38, &r) && r == cp_dec_pow10(38) / 3);
  CHECK(cp_dec_arith(CP_ARITH_DIV, 2, 0, 3, 0, 38, 37, &r) &&
        r == (2 * cp_dec_pow10(37)) / 3 + 1); /* 0.666...67 HALF_UP */
  CHECK(!cp_dec_arith(CP_ARITH_DIV, 1, 0, 0, 0, 38, 6, &r));
  CHECK(!cp_dec_arith(CP_ARITH_MOD, 1, 0, 0, 0, 38, 6, &r));
  CHECK(cp_dec_arith(CP_ARITH_MOD, -1025, 2, 1125, 3, 5, 3, &r) && r == -125); /* -10.25 % 1.125 */
  CHECK(cp_dec_arith(CP_ARITH_SUB, 5, 1, 5, 1, 3, 1, &r) && r == 0);
  char buf[48];
  cp_dec_format(-5, 3, buf);
  CHECK_STR(buf, "-0.005");
  cp_dec_format(max, 0, buf);
  CHECK_STR(buf, "99999999999999999999999999999999999999");
  cp_dec_format(-max, 38, buf);
  CHECK_STR(buf, "-0.99999999999999999999999999999999999999");
  CHECK(cp_dec_to_double(125, 2) == 1.25);
  CHECK(cp_dec_from_double(1.005, 3, 2, &r) && r == 101); /* via "1.005", HALF_UP */
  CHECK(cp_dec_from_double(-2.5, 1, 0, &r) && r == -3);
  CHECK(!cp_dec_from_double(INFINITY, 10, 0, &r));
  CHECK(!cp_dec_from_double(1e39, 38, 0, &r));
  CHECK(cp_dec_from_double(1e-300, 10, 2, &r) && r == 0);
}

int main(void) {
  static const char *const cells[] = {"1", NULL};
  tb_make(&one, "ROW<a INT>", 2, cells);
  RUN(test_cast_to_integers);
  RUN(test_cast_to_fractional);
  RUN(test_cast_to_decimal);
  RUN(test_cast_booleans_and_strings);
  RUN(test_java_number_text);
  RUN(test_cast_dates_and_timestamps);
  RUN(test_cast_columns);
  RUN(test_cast_bind_errors);
  RUN(test_parse_text);
  RUN(test_number_literals);
  RUN(test_decimal_helpers);
  tb_free(&one);
  TEST_MAIN_END();
}
