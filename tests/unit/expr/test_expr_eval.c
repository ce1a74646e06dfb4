/*
 * Evaluation semantics (src/expr/eval*.c, scalar.c): every comparison on every atomic type with
 * NULLs, SQL three-valued logic truth tables, IN / BETWEEN, Spark's arithmetic (wrapping integers,
 * DOUBLE division, NULL on division by zero, decimal result types), CASE / COALESCE, string
 * functions. Expected values follow the SQL standard and Spark's documented behaviour (function
 * examples from the Spark SQL reference; number formats checked with Java 17's Double.toString
 * and BigDecimal). Every CHECK_EVAL also compares the vectorized result row by row with the
 * per-value reference and re-evaluates over a slice of the batch (offset 1).
 */
#include <math.h>

#include "arrow/arrow_test.h"
#include "expr_test.h"

/* A batch with one row per type of interest; row 2 is all NULL. */
static const char *const TYPED_ROW =
    "ROW<i INT, l BIGINT, d DOUBLE, f FLOAT, dec DECIMAL(10, 2), s STRING, bin BYTES, b BOOLEAN, "
    "dt DATE, ts TIMESTAMP(6), tsl TIMESTAMP_LTZ(3), tm TIME, ti TINYINT, si SMALLINT>";

static const char *const TYPED_CELLS[] = {
    "1", "10", "1.5", "0.5", "1.25", "apple", "X'00FF'", "true", "2024-01-15",
    "2024-01-15 10:30:00.123456", "2024-01-15 10:30:00.123", "10:30:00", "1", "100",
    /* row 1 */
    "2", "-5", "-2.0", "2.5", "-3.50", "banana", "X'01'", "false", "2023-12-31",
    "2023-12-31 23:59:59.999999", "2023-12-31 23:59:59.999", "23:59:59.999", "-128", "-32768",
    /* row 2 */
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    /* row 3 */
    "3", "9223372036854775807", "NaN", "-0.0", "0.00", "", "X''", "true", "1969-12-31",
    "1969-12-31 23:59:59.5", "1970-01-01 00:00:00", "00:00:00", "127", "32767"};

static void test_compare_integers(void) {
  tb t;
  tb_make(&t, TYPED_ROW, 4, TYPED_CELLS);
  CHECK_EVAL(&t, "(= i 2)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(<> i 2)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(< i 2)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(<= i 2)", "true|true|NULL|false");
  CHECK_EVAL(&t, "(> i 2)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(>= i 2)", "false|true|NULL|true");
  CHECK_EVAL(&t, "(<=> i 2)", "false|true|false|false");
  CHECK_EVAL(&t, "(<=> i null)", "false|false|true|false");
  CHECK_EVAL(&t, "(= i null)", "NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(< 2 i)", "false|false|NULL|true"); /* constant on the left */
  CHECK_EVAL(&t, "(> l 0)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(= l 9223372036854775807L)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(= i 5000000000L)", "false|false|NULL|false"); /* wider literal, no wrap */
  CHECK_EVAL(&t, "(< i 5000000000L)", "true|true|NULL|true");
  CHECK_EVAL(&t, "(< ti 0)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(= si 32767)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(= i l)", "false|false|NULL|false"); /* INT column vs BIGINT column */
  CHECK_EVAL(&t, "(< i ti)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(<=> i ti)", "true|false|true|false");
  CHECK_EVAL(&t, "(= i i)", "true|true|NULL|true");
  CHECK_EVAL(&t, "(< i 1.5)", "true|false|NULL|false"); /* INT vs DECIMAL(2, 1) */
  CHECK_EVAL(&t, "(= i 2.0)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(= i 2.0d)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(> i 2.5d)", "false|false|NULL|true");
  tb_free(&t);
}

static void test_compare_floating(void) {
  tb t;
  tb_make(&t, TYPED_ROW, 4, TYPED_CELLS);
  /* Spark: NaN = NaN and NaN is greater than every other value; -0.0 = 0.0. */
  CHECK_EVAL(&t, "(> d 0.0d)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(>= d 1.5d)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(= d nan)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(< d nan)", "true|true|NULL|false");
  CHECK_EVAL(&t, "(< d 1.0d)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(<> d 1.5d)", "false|true|NULL|true");
  CHECK_EVAL(&t, "(< d inf)", "true|true|NULL|false");
  CHECK_EVAL(&t, "(= f 0.0f)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(> f 1.0f)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(< d f)", "false|true|NULL|false"); /* FLOAT widened to DOUBLE */
  CHECK_EVAL(&t, "(= d d)", "true|true|NULL|true");
  CHECK_EVAL(&t, "(> d 1)", "true|false|NULL|true");
  tb_free(&t);
}

static void test_compare_other_types(void) {
  tb t;
  tb_make(&t, TYPED_ROW, 4, TYPED_CELLS);
  CHECK_EVAL(&t, "(= dec 1.25)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(< dec 0)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(> dec 1.249)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(= dec 1.25d)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(= s 'banana')", "false|true|NULL|false");
  CHECK_EVAL(&t, "(< s 'b')", "true|false|NULL|true");
  CHECK_EVAL(&t, "(>= s 'apple')", "true|true|NULL|false");
  CHECK_EVAL(&t, "(<=> s '')", "false|false|false|true");
  CHECK_EVAL(&t, "(= bin (lit 'BYTES' 'X''01'''))", "false|true|NULL|false");
  CHECK_EVAL(&t, "(< bin (lit 'BYTES' 'X''01'''))", "true|false|NULL|true");
  CHECK_EVAL(&t, "(= b true)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(< b true)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(= dt (lit 'DATE' '2024-01-15'))", "true|false|NULL|false");
  CHECK_EVAL(&t, "(< dt '2024-01-01')", "false|true|NULL|true"); /* string cast to DATE */
  CHECK_EVAL(&t, "(> ts (lit 'TIMESTAMP(6)' '2024-01-01 00:00:00'))", "true|false|NULL|false");
  CHECK_EVAL(&t, "(= ts '2023-12-31 23:59:59.999999')", "false|true|NULL|false");
  CHECK_EVAL(&t, "(< ts (lit 'TIMESTAMP(3)' '1970-01-01 00:00:00'))", "false|false|NULL|true");
  CHECK_EVAL(&t, "(= ts (lit 'TIMESTAMP(9)' '2024-01-15 10:30:00.123456001'))",
             "false|false|NULL|false");
  CHECK_EVAL(&t, "(< ts (lit 'TIMESTAMP(9)' '2024-01-15 10:30:00.123456001'))",
             "true|true|NULL|true");
  CHECK_EVAL(&t, "(= tsl (lit 'TIMESTAMP(6)' '1970-01-01 00:00:00'))", "false|false|NULL|true");
  CHECK_EVAL(&t, "(> ts dt)", "true|true|NULL|true"); /* DATE widened to TIMESTAMP */
  CHECK_EVAL(&t, "(= dt (lit 'TIMESTAMP(6)' '2024-01-15 00:00:00'))", "true|false|NULL|false");
  CHECK_EVAL(&t, "(< tm (lit 'TIME' '12:00:00'))", "true|false|NULL|true");
  CHECK_EVAL(&t, "(= s s)", "true|true|NULL|true");
  tb_free(&t);
}

static void test_is_null_in_between(void) {
  tb t;
  tb_make(&t, TYPED_ROW, 4, TYPED_CELLS);
  CHECK_EVAL(&t, "(is_null i)", "false|false|true|false");
  CHECK_EVAL(&t, "(is_not_null s)", "true|true|false|true");
  CHECK_EVAL(&t, "(is_null bin)", "false|false|true|false");
  CHECK_EVAL(&t, "(in i 1 3)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(in i 1 null)", "true|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(not_in i 1 3)", "false|true|NULL|false");
  CHECK_EVAL(&t, "(not_in i 5 null)", "NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(in s 'apple' '' 'x')", "true|false|NULL|true");
  CHECK_EVAL(&t, "(in d nan 1.5d)", "true|false|NULL|true");
  CHECK_EVAL(&t, "(in dec 1.25 -3.5)", "true|true|NULL|false");
  CHECK_EVAL(&t, "(in dt '2024-01-15' '1969-12-31')", "true|false|NULL|true");
  CHECK_EVAL(&t, "(in i l 3)", "false|false|NULL|true");
  CHECK_EVAL(&t, "(in l 10 9223372036854775807L)", "true|false|NULL|true");
  CHECK_EVAL(&t,
             "(in ts (lit 'TIMESTAMP(9)' '2023-12-31 23:59:59.999999') "
             "(lit 'TIMESTAMP(9)' '2024-01-15 10:30:00.123456001'))",
             "false|true|NULL|false");
  CHECK_EVAL(&t, "(between i 2 3)", "false|true|NULL|true");
  CHECK_EVAL(&t, "(not_between i 2 3)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(between d 0.0d 2.0d)", "true|false|NULL|false");
  CHECK_EVAL(&t, "(between s 'a' 'b')", "true|false|NULL|false");
  CHECK_EVAL(&t, "(between i 3 2)", "false|false|NULL|false");
  tb_free(&t);
}

/* SQL three-valued logic: all nine combinations of TRUE / FALSE / NULL. */
static void test_three_valued_logic(void) {
  static const char *const cells[] = {"true",  "true", "true",  "false", "true",  NULL,
                                      "false", "true", "false", "false", "false", NULL,
                                      NULL,    "true", NULL,    "false", NULL,    NULL};
  tb t;
  tb_make(&t, "ROW<x BOOLEAN, y BOOLEAN>", 9, cells);
  CHECK_EVAL(&t, "(and x y)", "true|false|NULL|false|false|false|NULL|false|NULL");
  CHECK_EVAL(&t, "(or x y)", "true|true|true|true|false|NULL|true|NULL|NULL");
  CHECK_EVAL(&t, "(not x)", "false|false|false|true|true|true|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(= x y)", "true|false|NULL|false|true|NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(<=> x y)", "true|false|false|false|true|false|false|false|true");
  CHECK_EVAL(&t, "(and x true)", "true|true|true|false|false|false|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(and x false)", "false|false|false|false|false|false|false|false|false");
  CHECK_EVAL(&t, "(and x null)", "NULL|NULL|NULL|false|false|false|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(or x null)", "true|true|true|NULL|NULL|NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(or x true)", "true|true|true|true|true|true|true|true|true");
  CHECK_EVAL(&t, "(and x y (not y))", "false|false|NULL|false|false|false|false|false|NULL");
  CHECK_EVAL(&t, "(or (and x y) (is_null x))", "true|false|NULL|false|false|false|true|true|true");
  CHECK_EVAL(&t, "(is_null (and x y))", "false|false|true|false|false|false|true|false|true");
  CHECK_EVAL(&t, "(and x 'true')", "true|true|true|false|false|false|NULL|NULL|NULL");
  tb_free(&t);
}

/* Constant expressions: the two rows must agree (r0 has a = 1, r1 a = NULL). */
#define CHECK_CONST(t, text, value) CHECK_EVAL(t, text, value "|" value)

static void test_spark_cases(void) {
  static const char *const cells[] = {"1", NULL};
  tb t;
  tb_make(&t, "ROW<a INT>", 2, cells);
  CHECK_CONST(&t, "(/ 1 0)", "NULL");
  CHECK_CONST(&t, "(/ 5 2)", "2.5");
  CHECK_CONST(&t, "(/ 1 3)", "0.3333333333333333");
  CHECK_CONST(&t, "(% 5 0)", "NULL");
  CHECK_CONST(&t, "(% -7 2)", "-1");
  CHECK_CONST(&t, "(/ 1.0d 0.0d)", "NULL");
  CHECK_CONST(&t, "(% 7.5d 0.0d)", "NULL");
  CHECK_CONST(&t, "(= 'abc' 1)", "NULL");
  CHECK_CONST(&t, "(= '1' 1)", "true");
  CHECK_CONST(&t, "(= ' 1 ' 1)", "true");
  CHECK_CONST(&t, "(= '1.9' 1)", "true");   /* CAST('1.9' AS INT) is 1 */
  CHECK_CONST(&t, "(= '1.5' 1.5)", "true"); /* string vs decimal: DOUBLE */
  CHECK_CONST(&t, "(in null 1 null)", "NULL");
  CHECK_CONST(&t, "(in 1 1 null)", "true");
  CHECK_CONST(&t, "(in 2 1 null)", "NULL");
  CHECK_CONST(&t, "(in 2 1 3)", "false");
  CHECK_CONST(&t, "(not_in 2 1 null)", "NULL");
  CHECK_CONST(&t, "(not null)", "NULL");
  CHECK_CONST(&t, "(and null false)", "false");
  CHECK_CONST(&t, "(or null true)", "true");
  CHECK_CONST(&t, "(= null null)", "NULL");
  CHECK_CONST(&t, "(<=> null null)", "true");
  CHECK_CONST(&t, "(= nan nan)", "true");
  CHECK_CONST(&t, "(> nan inf)", "true");
  CHECK_CONST(&t, "(= 0.0d -0.0d)", "true");
  CHECK_CONST(&t, "(+ 2147483647 1)", "-2147483648");
  CHECK_CONST(&t, "(* 1000000L 10000000000000L)", "-8446744073709551616");
  CHECK_CONST(&t, "(neg -2147483648)", "-2147483648");
  CHECK_CONST(&t, "(abs -2147483648)", "-2147483648");
  CHECK_CONST(&t, "(+ (cast 127 'TINYINT') (cast 1 'TINYINT'))", "-128");
  CHECK_CONST(&t, "(+ 1.5 2.25)", "3.75");
  CHECK_CONST(&t, "(* 1.5 2.25)", "3.375");
  /* An integer literal beside a decimal is a DECIMAL of its digits (3: DECIMAL(1, 0)), so
   * DECIMAL(2, 1) / DECIMAL(1, 0) has scale max(6, 1 + 1 + 1) = 6, as Spark. */
  CHECK_CONST(&t, "(/ 1.0 3)", "0.333333");
  CHECK_EVAL(&t, "(/ 1.0 a)", "1.000000000000|NULL"); /* an INT column: DECIMAL(10, 0) */
  CHECK_CONST(&t, "(- 1.5 2)", "-0.5");
  CHECK_CONST(&t, "(% 10.25 1.125)", "0.125");
  CHECK_CONST(&t, "(* (lit 'DECIMAL(38, 0)' '99999999999999999999999999999999999999') 10)", "NULL");
  CHECK_CONST(&t, "(+ 1.5f 1)", "2.5");
  CHECK_CONST(&t, "(+ '1' 2)", "3.0");
  CHECK_CONST(&t, "(neg '2.5')", "-2.5");
  CHECK_CONST(&t, "(if null 1 2)", "2");
  CHECK_CONST(&t, "(coalesce null 1 2)", "1");
  tb_free(&t);
}

static void test_arithmetic_columns(void) {
  static const char *const cells[] = {"7",           "2",     "9223372036854775807",
                                      "7.5",         "1.5",   "32767",
                                      "-7",          "0",     "-9223372036854775808",
                                      "-0.0",        "-2.25", "-32768",
                                      "2147483647",  "-1",    "1",
                                      "NaN",         "0",     "1",
                                      NULL,          NULL,    NULL,
                                      NULL,          NULL,    NULL,
                                      "-2147483648", "-1",    "-1",
                                      "3.0",         "4.0",   "-1"};
  tb t;
  tb_make(&t, "ROW<x INT, y INT, p BIGINT, q DOUBLE, r FLOAT, s SMALLINT>", 5, cells);
  CHECK_EVAL(&t, "(+ x y)", "9|-7|2147483646|NULL|2147483647");
  CHECK_EVAL(&t, "(- x y)", "5|-7|-2147483648|NULL|-2147483647");
  CHECK_EVAL(&t, "(* x y)", "14|0|-2147483647|NULL|-2147483648");
  CHECK_EVAL(&t, "(/ x y)", "3.5|NULL|-2.147483647E9|NULL|2.147483648E9");
  CHECK_EVAL(&t, "(% x y)", "1|NULL|0|NULL|0");
  CHECK_EVAL(&t, "(+ x 1)", "8|-6|-2147483648|NULL|-2147483647");
  CHECK_EVAL(&t, "(- 1 x)", "-6|8|-2147483646|NULL|-2147483647");
  CHECK_EVAL(&t, "(% x 3)", "1|-1|1|NULL|-2");
  CHECK_EVAL(&t, "(% x -1)", "0|0|0|NULL|0");
  CHECK_EVAL(&t, "(/ x 0)", "NULL|NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(* p 2)", "-2|0|2|NULL|-2");
  CHECK_EVAL(&t, "(+ p 1)", "-9223372036854775808|-9223372036854775807|2|NULL|0");
  CHECK_EVAL(&t, "(% p y)", "1|NULL|0|NULL|0");
  CHECK_EVAL(&t, "(/ q 2)", "3.75|-0.0|NaN|NULL|1.5");
  CHECK_EVAL(&t, "(/ 1.0d q)", "0.13333333333333333|NULL|NaN|NULL|0.3333333333333333");
  CHECK_EVAL(&t, "(% q 2.0d)", "1.5|-0.0|NaN|NULL|1.0");
  CHECK_EVAL(&t, "(* q q)", "56.25|0.0|NaN|NULL|9.0");
  CHECK_EVAL(&t, "(+ r 1)", "2.5|-1.25|1.0|NULL|5.0");
  CHECK_EVAL(&t, "(* r r)", "2.25|5.0625|0.0|NULL|16.0");
  CHECK_EVAL(&t, "(/ r 0.5f)", "3.0|-4.5|0.0|NULL|8.0");
  CHECK_EVAL(&t, "(* s 2)", "65534|-65536|2|NULL|-2");
  CHECK_EVAL(&t, "(+ s (cast 1 'SMALLINT'))", "-32768|-32767|2|NULL|0");
  CHECK_EVAL(&t, "(neg x)", "-7|7|-2147483647|NULL|-2147483648");
  CHECK_EVAL(&t, "(abs x)", "7|7|2147483647|NULL|-2147483648");
  CHECK_EVAL(&t, "(abs q)", "7.5|0.0|NaN|NULL|3.0");
  CHECK_EVAL(&t, "(neg q)", "-7.5|0.0|NaN|NULL|-3.0");
  CHECK_EVAL(&t, "(+ x q)", "14.5|-7.0|NaN|NULL|-2.147483645E9");
  CHECK_EVAL(&t, "(+ x p)", "-9223372036854775802|9223372036854775801|2147483648|NULL|-2147483649");
  tb_free(&t);
}

static void test_decimal_arithmetic(void) {
  static const char *const cells[] = {"10.25", "1.125", "-0.01",       "0.000",
                                      NULL,    NULL,    "99999999.99", "99.999"};
  tb t;
  tb_make(&t, "ROW<m DECIMAL(10, 2), n DECIMAL(5, 3)>", 4, cells);
  /* Results checked with java.math.BigDecimal (HALF_UP at Spark's result scales). */
  CHECK_EVAL(&t, "(+ m n)", "11.375|-0.010|NULL|100000099.989");
  CHECK_EVAL(&t, "(- m n)", "9.125|-0.010|NULL|99999899.991");
  CHECK_EVAL(&t, "(* m n)", "11.53125|0.00000|NULL|9999899999.00001");
  CHECK_EVAL(&t, "(/ m n)", "9.11111111|NULL|NULL|1000010.00000000");
  CHECK_EVAL(&t, "(% m n)", "0.125|NULL|NULL|0.000");
  CHECK_EVAL(&t, "(+ m 1)", "11.25|0.99|NULL|100000000.99");
  CHECK_EVAL(&t, "(* m 1.5d)", "15.375|-0.015|NULL|1.4999999998499998E8");
  CHECK_EVAL(&t, "(neg m)", "-10.25|0.01|NULL|-99999999.99");
  CHECK_EVAL(&t, "(abs m)", "10.25|0.01|NULL|99999999.99");
  cp_expr *e = bx(&t, "(/ m n)");
  if (e) {
    CHECK_INT(e->type->kind, CP_TYPE_DECIMAL);
    CHECK_INT(e->type->precision, 19);
    CHECK_INT(e->type->scale, 8);
  }
  cp_expr_free(e);
  tb_free(&t);
}

static void test_functions_and_branches(void) {
  static const char *const cells[] = {"Spark SQL", "1",  "x",           "  SparkSQL   ",
                                      "5",         NULL, "héllo wörld", "-3",
                                      "ÀÉÎ Σσ Жж", NULL, NULL,          "z"};
  tb t;
  tb_make(&t, "ROW<s STRING, n INT, u STRING>", 4, cells);
  /* Spark SQL reference examples: substring('Spark SQL', 5) = 'k SQL', (..., -3) = 'SQL',
   * (..., 5, 1) = 'k'; length('Spark SQL ') = 10; trim('    SparkSQL   ') = 'SparkSQL'. */
  CHECK_EVAL(&t, "(substring s 5)", "k SQL|arkSQL   |o wörld|NULL");
  CHECK_EVAL(&t, "(substring s -3)", "SQL|   |rld|NULL");
  CHECK_EVAL(&t, "(substring s 5 1)", "k|a|o|NULL");
  CHECK_EVAL(&t, "(substring s 0 2)", "Sp|  |hé|NULL");
  CHECK_EVAL(&t, "(substring s -100 3)", "|||NULL");
  CHECK_EVAL(&t, "(substring s 2 -1)", "|||NULL");
  CHECK_EVAL(&t, "(substring s n 2)", "Sp|ar|rl|NULL");
  CHECK_EVAL(&t, "(length (concat s ' '))", "10|14|12|NULL");
  CHECK_EVAL(&t, "(length s)", "9|13|11|NULL");
  CHECK_EVAL(&t, "(trim s)", "Spark SQL|SparkSQL|héllo wörld|NULL");
  CHECK_EVAL(&t, "(upper s)", "SPARK SQL|  SPARKSQL   |HÉLLO WÖRLD|NULL");
  CHECK_EVAL(&t, "(lower u)", "x|NULL|àéî σσ жж|z");
  CHECK_EVAL(&t, "(upper u)", "X|NULL|ÀÉÎ ΣΣ ЖЖ|Z");
  CHECK_EVAL(&t, "(concat u '-' n)", "x-1|NULL|ÀÉÎ Σσ Жж--3|NULL");
  CHECK_EVAL(&t, "(concat 'Spark' 'SQL' u)", "SparkSQLx|NULL|SparkSQLÀÉÎ Σσ Жж|SparkSQLz");
  CHECK_EVAL(&t, "(coalesce u s)", "x|  SparkSQL   |ÀÉÎ Σσ Жж|z");
  CHECK_EVAL(&t, "(coalesce n 0)", "1|5|-3|0");
  CHECK_EVAL(&t, "(coalesce u n)", "x|5|ÀÉÎ Σσ Жж|z"); /* STRING and INT meet as STRING */
  CHECK_EVAL(&t, "(if (> n 0) 'pos' 'neg')", "pos|pos|neg|neg");
  CHECK_EVAL(&t, "(case (> n 2) 'big' (> n 0) 'small')", "small|big|NULL|NULL");
  CHECK_EVAL(&t, "(case (is_null n) -1 (> n 2) 2.5d n)", "1.0|2.5|-3.0|-1.0");
  CHECK_EVAL(&t, "(abs n)", "1|5|3|NULL");
  CHECK_EVAL(&t, "(like s '%SQL%')", "true|true|false|NULL");
  tb_free(&t);
}

/* Offsets that are not byte-aligned, in a longer batch, for the bitmap kernels. */
static void test_unaligned_slices(void) {
  const char *cells[40 * 3];
  char buf[40][2][16];
  for (int r = 0; r < 40; r++) {
    snprintf(buf[r][0], 16, "%d", r % 7 - 3);
    snprintf(buf[r][1], 16, "%s", r % 3 ? "true" : "false");
    cells[r * 3] = r % 5 == 4 ? NULL : buf[r][0];
    cells[r * 3 + 1] = r % 4 == 3 ? NULL : buf[r][1];
    cells[r * 3 + 2] = r % 2 ? "ab" : "ba";
  }
  tb t;
  tb_make(&t, "ROW<x INT, y BOOLEAN, s STRING>", 40, cells);
  const char *exprs[] = {"(> x 0)",         "(and y (> x 0))", "(or (not y) (= x 2))",
                         "(is_null x)",     "(in x 1 2 null)", "(like s 'a%')",
                         "(+ x 1)",         "(coalesce x 9)",  "(<=> x 0)",
                         "(and y (< x 1))", "(not y)",         "(= s 'ab')"};
  paimon_error err;
  for (size_t k = 0; k < sizeof exprs / sizeof *exprs; k++) {
    cp_expr *e = bx(&t, exprs[k]);
    if (!e) continue;
    char *full = tt_eval(&t, e);
    for (int64_t off = 1; off < 13; off += 3) {
      struct ArrowArray copy, sliced;
      CHECK_OK(cp_array_share(&t.array, &copy, &err), &err);
      CHECK_OK(cp_array_slice(&copy, off, 40 - off - 2, &sliced, &err), &err);
      cp_array_view v;
      CHECK_OK(cp_array_view_init(&v, &t.schema, &sliced, &err), &err);
      char *got = tt_eval_view(&t, &v, e);
      /* The expected rows are rows [off, 38) of the full result. */
      const char *p = full;
      for (int64_t i = 0; i < off; i++) p = strchr(p, '|') + 1;
      const char *q = p;
      for (int64_t i = 0; i < 40 - off - 2; i++) q = strchr(q, '|') + 1;
      CHECK(strncmp(got, p, (size_t)(q - p - 1)) == 0 && strlen(got) == (size_t)(q - p - 1));
      /* The selection bitmap agrees with the rendering for BOOLEAN expressions. */
      if (e->type->kind == CP_TYPE_BOOLEAN) {
        uint8_t bits[8] = {0};
        int64_t n_true = -1;
        CHECK_OK(cp_expr_eval_selection(e, &v, bits, &n_true, &err), &err);
        int64_t expect = 0;
        const char *r = got;
        for (int64_t i = 0; i < v.length; i++) {
          bool is_true = strncmp(r, "true", 4) == 0;
          expect += is_true;
          CHECK(cp_bit_get(bits, i) == is_true);
          r = strchr(r, '|') ? strchr(r, '|') + 1 : r;
        }
        CHECK_INT(n_true, expect);
      }
      free(got);
      cp_array_view_reset(&v);
      cp_array_release(&sliced);
      cp_array_release(&copy);
    }
    free(full);
    cp_expr_free(e);
  }
  tb_free(&t);
}

/* Random batches: every kernel must agree with the per-row reference (checked inside
 * tt_eval), including NaN, NULLs, extreme integers and empty strings. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void test_random_kernels_vs_reference(void) {
  static const char *const ints[] = {"0", "1", "-1", "7", "2147483647", "-2147483648", "42"};
  static const char *const longs[] = {"0", "-9223372036854775808", "9223372036854775807", "5"};
  static const char *const dbls[] = {"0.0", "-0.0", "NaN", "1.5", "-2.25", "Infinity", "3.0"};
  static const char *const strs[] = {"", "a", "ab", "abc", "b", "é", "zz"};
  const char *exprs[] = {"(= i 7)",
                         "(< i j)",
                         "(>= l 5)",
                         "(<> d 1.5d)",
                         "(> d e)",
                         "(< s 'ab')",
                         "(= s t)",
                         "(in i 0 7 42)",
                         "(in s 'a' 'zz')",
                         "(+ i j)",
                         "(* l 3)",
                         "(/ d e)",
                         "(% i j)",
                         "(- d 1.0d)",
                         "(% l i)",
                         "(and (> i 0) (< d 2.0d))",
                         "(or (is_null s) (= i j))",
                         "(coalesce i j 0)",
                         "(cast i 'BIGINT')",
                         "(cast i 'DOUBLE')",
                         "(cast d 'INT')",
                         "(like s '_b%')",
                         "(<=> s t)",
                         "(in d nan 3.0d)",
                         "(case (< i 0) s (> i 0) t)",
                         "(not (>= e d))",
                         "(cast s 'INT')",
                         "(concat s t)"};
  for (int round = 0; round < 20; round++) {
    enum { ROWS = 67, COLS = 7 };
    const char *cells[ROWS * COLS];
    for (int r = 0; r < ROWS; r++) {
      cells[r * COLS + 0] = ints[rnd() % 7];
      cells[r * COLS + 1] = ints[rnd() % 7];
      cells[r * COLS + 2] = longs[rnd() % 4];
      cells[r * COLS + 3] = dbls[rnd() % 7];
      cells[r * COLS + 4] = dbls[rnd() % 7];
      cells[r * COLS + 5] = strs[rnd() % 7];
      cells[r * COLS + 6] = strs[rnd() % 7];
      for (int c = 0; c < COLS; c++)
        if (rnd() % 6 == 0) cells[r * COLS + c] = NULL;
    }
    tb t;
    tb_make(&t, "ROW<i INT, j INT, l BIGINT, d DOUBLE, e DOUBLE, s STRING, t STRING>", ROWS, cells);
    for (size_t k = 0; k < sizeof exprs / sizeof *exprs; k++) {
      cp_expr *e = bx(&t, exprs[k]);
      if (!e) continue;
      char *got = tt_eval(&t, e);
      CHECK(strncmp(got, "ERROR", 5) != 0);
      tt_check_slice(&t, e, got);
      free(got);
      cp_expr_free(e);
    }
    tb_free(&t);
  }
}

static void test_eval_errors(void) {
  static const char *const cells[] = {"1", "a"};
  tb t;
  tb_make(&t, "ROW<a INT, s STRING>", 1, cells);
  paimon_error err;
  /* A bound expression evaluated over a batch whose column has the wrong Arrow type. */
  tb other;
  static const char *const ocells[] = {"x", "1"};
  tb_make(&other, "ROW<a STRING, s INT>", 1, ocells);
  cp_expr *e = bx(&t, "(= a 1)");
  struct ArrowArray out;
  CHECK_ERR(cp_expr_eval(e, &other.view, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'a'");
  CHECK_CONTAINS(err.message, "utf8");
  cp_expr_free(e);
  /* A column index past the batch. */
  static const char *const wide_cells[] = {"1", "a", "2"};
  tb wide;
  tb_make(&wide, "ROW<a INT, s STRING, z INT>", 1, wide_cells);
  e = bx(&wide, "(> z 1)");
  CHECK_ERR(cp_expr_eval(e, &t.view, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'z'");
  uint8_t bits[1];
  CHECK_ERR(cp_expr_eval_selection(e, &t.view, bits, NULL, &err), PAIMON_EINVAL);
  cp_expr_free(e);
  /* Not a predicate / not bound. */
  e = bx(&t, "(+ a 1)");
  CHECK_ERR(cp_expr_eval_selection(e, &t.view, bits, NULL, &err), PAIMON_EINVAL);
  cp_expr_free(e);
  cp_expr *u = px("(= a 1)");
  CHECK_ERR(cp_expr_eval(u, &t.view, &out, &err), PAIMON_ESTATE);
  cp_expr_free(u);
  /* A dynamic LIKE pattern that is invalid fails at evaluation, naming the pattern. */
  e = bx(&t, "(like s (concat s '\\'))");
  CHECK_ERR(cp_expr_eval(e, &t.view, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "a\\");
  cp_expr_free(e);
  tb_free(&wide);
  tb_free(&other);
  tb_free(&t);
}

/* Output Arrow types follow types/type_arrow.h, whatever the input layout. */
static void test_output_types(void) {
  static const char *const cells[] = {"1", "2024-01-01 00:00:00.5", "a"};
  tb t;
  tb_make(&t, "ROW<a INT, ts TIMESTAMP(3), s STRING>", 1, cells);
  struct {
    const char *expr, *format;
  } cases[] = {{"a", "i"},
               {"(+ a 1L)", "l"},
               {"(/ a 2)", "g"},
               {"(+ a 1.5)", "d:12,1"},
               {"ts", "tsm:"},
               {"(cast ts 'TIMESTAMP(6)')", "tsu:"},
               {"(> a 0)", "b"},
               {"(upper s)", "u"},
               {"(cast s 'BYTES')", "z"},
               {"(length s)", "i"},
               {"(cast a 'TINYINT')", "c"}};
  paimon_error err;
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    cp_expr *e = bx(&t, cases[k].expr);
    if (!e) continue;
    struct ArrowSchema s;
    CHECK_OK(cp_expr_arrow_schema(e, "x", &s, &err), &err);
    CHECK_STR(s.format, cases[k].format);
    struct ArrowArray out;
    CHECK_OK(cp_expr_eval(e, &t.view, &out, &err), &err);
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &s, &out, &err), &err);
    cp_array_view_reset(&v);
    cp_array_release(&out);
    cp_schema_release(&s);
    cp_expr_free(e);
  }
  tb_free(&t);
}

/* Columns in other Arrow layouts that hold the same Paimon values (an INT column as int64, STRING
 * as large_utf8, TIMESTAMP(6) in nanoseconds, BYTES as large_binary, CHAR / VARBINARY /
 * BINARY(n)): kernels decline what they do not know and results come out canonical. */
static void test_noncanonical_inputs(void) {
  static const char *const cells[] = {"5",
                                      "apple",
                                      "2024-01-01 00:00:00.000001",
                                      "X'01'",
                                      "ab",
                                      "X'0102'",
                                      "X'AA'",
                                      NULL,
                                      NULL,
                                      NULL,
                                      NULL,
                                      NULL,
                                      NULL,
                                      NULL,
                                      "-2",
                                      "b",
                                      "1969-12-31 23:59:59.999999",
                                      "X''",
                                      "b",
                                      "X''",
                                      "X'BB'"};
  struct ArrowSchema s;
  ts_schema(&s, "=+s{i=l;s=U;ts=tsn:;b=Z;c=u;vb=z;fb=z}");
  tb t;
  tb_make_arrow(&t,
                "ROW<i INT, s STRING, ts TIMESTAMP(6), b BYTES, c CHAR(2), vb VARBINARY(4), "
                "fb BINARY(1)>",
                &s, 3, cells);
  CHECK_EVAL(&t, "(= i 5)", "true|NULL|false");
  CHECK_EVAL(&t, "(> i -5)", "true|NULL|true");
  CHECK_EVAL(&t, "(+ i 1)", "6|NULL|-1");
  CHECK_EVAL(&t, "(in i 5 7)", "true|NULL|false");
  CHECK_EVAL(&t, "(= s 'b')", "false|NULL|true");
  CHECK_EVAL(&t, "(like s 'a%')", "true|NULL|false");
  CHECK_EVAL(&t, "(in s 'b' 'c')", "false|NULL|true");
  CHECK_EVAL(&t, "(> ts (lit 'TIMESTAMP(6)' '2024-01-01 00:00:00'))", "true|NULL|false");
  CHECK_EVAL(&t, "(cast ts 'STRING')",
             "2024-01-01 00:00:00.000001|NULL|1969-12-31 23:59:59.999999");
  CHECK_EVAL(&t, "(= b (lit 'BYTES' 'X''01'''))", "true|NULL|false");
  CHECK_EVAL(&t, "(= c 'ab')", "true|NULL|false");
  CHECK_EVAL(&t, "(< vb (lit 'BYTES' 'X''02'''))", "true|NULL|true");
  CHECK_EVAL(&t, "(= fb (lit 'BINARY(1)' 'X''BB'''))", "false|NULL|true");
  CHECK_EVAL(&t, "(concat c s)", "abapple|NULL|bb");
  CHECK_EVAL(&t, "(length vb)", "2|NULL|0");
  CHECK_EVAL(&t, "(coalesce i 0)", "5|0|-2");
  CHECK_EVAL(&t, "(coalesce s c)", "apple|NULL|b");
  CHECK_EVAL(&t, "(if (> i 0) ts (lit 'TIMESTAMP(6)' '2000-01-01 00:00:00'))",
             "2024-01-01 00:00:00.000001|2000-01-01 00:00:00|2000-01-01 00:00:00");
  /* Column pass-through is converted to the canonical Arrow type. */
  struct {
    const char *expr, *format;
  } outs[] = {{"i", "i"}, {"s", "u"}, {"ts", "tsu:"}, {"b", "z"}, {"(coalesce s c)", "u"}};
  paimon_error err;
  for (size_t k = 0; k < sizeof outs / sizeof *outs; k++) {
    cp_expr *e = bx(&t, outs[k].expr);
    struct ArrowSchema es;
    struct ArrowArray out;
    CHECK_OK(cp_expr_arrow_schema(e, "x", &es, &err), &err);
    CHECK_STR(es.format, outs[k].format);
    CHECK_OK(cp_expr_eval(e, &t.view, &out, &err), &err);
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &es, &out, &err), &err);
    CHECK_INT(v.null_count, 1);
    cp_array_view_reset(&v);
    cp_array_release(&out);
    cp_schema_release(&es);
    cp_expr_free(e);
  }
  CHECK_EVAL(&t, "i", "5|NULL|-2");
  CHECK_EVAL(&t, "s", "apple|NULL|b");
  tb_free(&t);
}

/* Nested columns pass through and take part in IS NULL, COALESCE and CASE. */
static void test_nested_columns(void) {
  static const char *const cells[] = {"1", NULL, NULL, NULL, "3", NULL};
  tb t;
  tb_make(&t, "ROW<k INT, a ARRAY<INT>>", 3, cells);
  CHECK_EVAL(&t, "(is_null a)", "true|true|true");
  paimon_error err;
  struct ArrowArray out;
  cp_expr *e = bx(&t, "(if (> k 1) a null)");
  CHECK(e && e->type->kind == CP_TYPE_ARRAY);
  if (e) {
    CHECK_OK(cp_expr_eval(e, &t.view, &out, &err), &err);
    CHECK_INT(out.length, 3);
    CHECK_INT(out.null_count, 3);
    cp_array_release(&out);
  }
  cp_expr_free(e);
  e = bx(&t, "a");
  CHECK_OK(cp_expr_eval(e, &t.view, &out, &err), &err);
  CHECK_INT(out.length, 3);
  cp_array_release(&out);
  cp_expr_free(e);
  tb_free(&t);
}

/* Zero rows, and long IN lists (binary search over sorted constants). */
static void test_empty_and_wide(void) {
  tb t;
  tb_make(&t, "ROW<i INT, s STRING>", 0, NULL);
  const char *exprs[] = {"(> i 1)",        "(+ i 1)",
                         "(upper s)",      "(in s 'a')",
                         "(coalesce i 1)", "(and (> i 1) (like s 'a%'))",
                         "(= 1 1)",        "s"};
  paimon_error err;
  for (size_t k = 0; k < sizeof exprs / sizeof *exprs; k++) {
    cp_expr *e = bx(&t, exprs[k]);
    struct ArrowArray out;
    CHECK_OK(cp_expr_eval(e, &t.view, &out, &err), &err);
    CHECK_INT(out.length, 0);
    cp_array_release(&out);
    uint8_t bits[1] = {0xAB};
    int64_t n_true = -1;
    if (e->type->kind == CP_TYPE_BOOLEAN) {
      CHECK_OK(cp_expr_eval_selection(e, &t.view, bits, &n_true, &err), &err);
      CHECK_INT(n_true, 0);
      CHECK_INT(bits[0], 0xAB); /* nothing written for zero rows */
    }
    cp_expr_free(e);
  }
  tb_free(&t);
  const char *cells[] = {"0", "a0", "57", "x", "99", "a99", "100", "a100", NULL, NULL};
  tb_make(&t, "ROW<i INT, s STRING>", 5, cells);
  char in_i[2048] = "(in i", in_s[2048] = "(in s";
  for (int k = 99; k >= 1; k -= 2) { /* odd numbers, unsorted */
    size_t li = strlen(in_i), ls = strlen(in_s);
    snprintf(in_i + li, sizeof in_i - li, " %d", k);
    snprintf(in_s + ls, sizeof in_s - ls, " 'a%d'", k);
  }
  strcat(in_i, ")");
  strcat(in_s, ")");
  CHECK_EVAL(&t, in_i, "false|true|true|false|NULL");
  CHECK_EVAL(&t, in_s, "false|false|true|false|NULL");
  tb_free(&t);
}

int main(void) {
  RUN(test_compare_integers);
  RUN(test_compare_floating);
  RUN(test_compare_other_types);
  RUN(test_is_null_in_between);
  RUN(test_three_valued_logic);
  RUN(test_spark_cases);
  RUN(test_arithmetic_columns);
  RUN(test_decimal_arithmetic);
  RUN(test_functions_and_branches);
  RUN(test_unaligned_slices);
  RUN(test_random_kernels_vs_reference);
  RUN(test_eval_errors);
  RUN(test_output_types);
  RUN(test_noncanonical_inputs);
  RUN(test_nested_columns);
  RUN(test_empty_and_wide);
  TEST_MAIN_END();
}
