/* Tests for src/arrow/print.h. The show() goldens were produced by a line-by-line Python
 * re-implementation of Spark's Dataset.showString layout (header/sep/padding/truncation,
 * stringHalfWidth) fed with cell strings written by hand from Spark's ToPrettyString rules;
 * the Double/Float texts were printed by java.lang.Double/Float.toString (OpenJDK 17) except where
 * noted. CSV/JSON goldens are written by hand from RFC 4180 / RFC 8259 and print.h's choices. */
#include <float.h>
#include <math.h>

#include "arrow/print.h"
#include "arrow/stream.h"
#include "arrow_test.h"

static const char *text_of(cp_buf *b) {
  paimon_error err;
  cp_buf_nul_terminate(b, &err);
  return b->data ? (const char *)b->data : "";
}

static void test_java_doubles(void) {
  static const struct {
    double v;
    const char *java;
  } d[] = {{1.0, "1.0"},
           {0.1, "0.1"},
           {1e10, "1.0E10"},
           {1e-5, "1.0E-5"},
           {123456.789, "123456.789"},
           {1e7, "1.0E7"},
           {9999999.0, "9999999.0"},
           {0.001, "0.001"},
           {0.0001, "1.0E-4"},
           {5e-324, "4.9E-324"},
           {DBL_MAX, "1.7976931348623157E308"},
           {100.0, "100.0"},
           {-0.0, "-0.0"},
           {0.0, "0.0"},
           {1.0 / 3, "0.3333333333333333"},
           {12345678.9, "1.23456789E7"},
           {4.35, "4.35"},
           {-0.3, "-0.3"},
           {2.0 / 3 * 1e-4, "6.666666666666667E-5"},
           {NAN, "NaN"},
           {INFINITY, "Infinity"},
           {-INFINITY, "-Infinity"},
           /* JDK 19+ (shortest digits, JDK-4511638); JDK 17 prints 1.9999999999999998E23 */
           {2e23, "2.0E23"}};
  for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
    cp_buf b = CP_BUF_INIT;
    paimon_error err;
    CHECK_OK(cp_format_double_java(&b, d[k].v, &err), &err);
    CHECK_STR(text_of(&b), d[k].java);
    cp_buf_free(&b);
  }
  static const struct {
    float v;
    const char *java;
  } f[] = {{1.0f, "1.0"},
           {0.1f, "0.1"},
           {1e10f, "1.0E10"},
           {1e-5f, "1.0E-5"},
           {FLT_MAX, "3.4028235E38"},
           {1.4e-45f, "1.4E-45"},
           {16777216.0f, "1.6777216E7"},
           {0.3f, "0.3"},
           {1.0f / 3, "0.33333334"},
           {1234567.9f, "1234567.9"},
           {1e7f, "1.0E7"}};
  for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
    cp_buf b = CP_BUF_INIT;
    paimon_error err;
    CHECK_OK(cp_format_float_java(&b, f[k].v, &err), &err);
    CHECK_STR(text_of(&b), f[k].java);
    cp_buf_free(&b);
  }
}

static void test_decimals(void) {
  static const struct {
    cp_dec128 v;
    int scale;
    const char *text;
  } d[] = {
      {{12345, 0}, 2, "123.45"},
      {{(uint64_t)-5, -1}, 2, "-0.05"},
      {{0, 0}, 3, "0.000"},
      {{7, 0}, 0, "7"},
      {{(uint64_t)-7, -1}, 0, "-7"},
      /* 10^38 - 1 = 0x4b3b4ca85a86c47a098a223fffffffff */
      {{0x098a223fffffffffULL, 0x4b3b4ca85a86c47aLL},
       38,
       "0.99999999999999999999999999999999999999"},
      {{0x098a223fffffffffULL, 0x4b3b4ca85a86c47aLL}, 0, "99999999999999999999999999999999999999"}};
  for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
    cp_buf b = CP_BUF_INIT;
    paimon_error err;
    CHECK_OK(cp_format_decimal128(&b, d[k].v, d[k].scale, &err), &err);
    CHECK_STR(text_of(&b), d[k].text);
    cp_buf_free(&b);
  }
}

/* id int32, name utf8, score double (table A of the goldens). */
static void batch_a(struct ArrowSchema *s, struct ArrowArray *a) {
  paimon_error err;
  cp_builder *b;
  ts_schema(s, "=+s{id=i;name=u;score=g}");
  CHECK_OK(cp_builder_create(&b, s, &err), &err);
  const char *names[] = {"alice", NULL, "a very long name that exceeds"};
  double scores[] = {1.0, 0.1, 1e10};
  for (int r = 0; r < 3; r++) {
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), r + 1, &err), &err);
    if (names[r])
      CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), names[r], &err), &err);
    else
      CHECK_OK(cp_builder_append_null(cp_builder_child(b, 1), &err), &err);
    CHECK_OK(cp_builder_append_double(cp_builder_child(b, 2), scores[r], &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, a, &err), &err);
  cp_builder_free(b);
}

static void check_table(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t max_rows,
                        int32_t truncate, const char *want) {
  cp_buf b = CP_BUF_INIT;
  paimon_error err;
  cp_print_options o = {max_rows, truncate};
  CHECK_OK(cp_print_table(&b, s, a, &o, &err), &err);
  CHECK_STR(text_of(&b), want);
  cp_buf_free(&b);
}

static void test_table_basic(void) {
  struct ArrowSchema s;
  struct ArrowArray a;
  batch_a(&s, &a);
  check_table(&s, &a, 20, 20,
              "+---+--------------------+------+\n"
              "| id|                name| score|\n"
              "+---+--------------------+------+\n"
              "|  1|               alice|   1.0|\n"
              "|  2|                NULL|   0.1|\n"
              "|  3|a very long name ...|1.0E10|\n"
              "+---+--------------------+------+\n");
  check_table(&s, &a, 2, 20,
              "+---+-----+-----+\n"
              "| id| name|score|\n"
              "+---+-----+-----+\n"
              "|  1|alice|  1.0|\n"
              "|  2| NULL|  0.1|\n"
              "+---+-----+-----+\n"
              "only showing top 2 rows\n");
  check_table(&s, &a, -1, 0,
              "+---+-----------------------------+------+\n"
              "|id |name                         |score |\n"
              "+---+-----------------------------+------+\n"
              "|1  |alice                        |1.0   |\n"
              "|2  |NULL                         |0.1   |\n"
              "|3  |a very long name that exceeds|1.0E10|\n"
              "+---+-----------------------------+------+\n");
  check_table(&s, &a, 1, 3,
              "+---+---+---+\n"
              "| id|nam|sco|\n"
              "+---+---+---+\n"
              "|  1|ali|1.0|\n"
              "+---+---+---+\n"
              "only showing top 1 row\n");
  /* NULL options mean Spark's defaults (20 rows, truncate 20) */
  cp_buf b = CP_BUF_INIT;
  paimon_error err;
  CHECK_OK(cp_print_table(&b, &s, &a, NULL, &err), &err);
  CHECK_CONTAINS(text_of(&b), "|a very long name ...|1.0E10|\n");
  cp_buf_free(&b);
  cp_array_release(&a);
  cp_schema_release(&s);

  ts_schema(&s, "=+s{x=i}");
  cp_builder *bl;
  CHECK_OK(cp_builder_create(&bl, &s, &err), &err);
  CHECK_OK(cp_builder_finish(bl, &a, &err), &err);
  cp_builder_free(bl);
  check_table(&s, &a, 20, 20, "+---+\n|  x|\n+---+\n+---+\n");
  cp_array_release(&a);
  cp_schema_release(&s);

  struct ArrowSchema not_batch;
  int64_t v[] = {1};
  ts_int_array(&not_batch, &a, "i", v, NULL, 1);
  CHECK_ERR(cp_print_table(&b, &not_batch, &a, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "record batch must be a struct array");
  cp_buf_free(&b);
  cp_array_release(&a);
  cp_schema_release(&not_batch);
}

/* Table B: nested and temporal types. */
static void test_table_types(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{tags=+l{item=u};m=+m{entries=+s!{key=u!;value=i}};s=+s{a=i;b=u};flag=b;"
                "d=d:5,2;day=tdD;ts=tsu:;bin=z;f=f}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_builder *tags = cp_builder_child(b, 0), *m = cp_builder_child(b, 1);
  cp_builder *st = cp_builder_child(b, 2), *flag = cp_builder_child(b, 3);
  cp_builder *d = cp_builder_child(b, 4), *day = cp_builder_child(b, 5);
  cp_builder *ts = cp_builder_child(b, 6), *bin = cp_builder_child(b, 7);
  cp_builder *f = cp_builder_child(b, 8);
  /* row 0 */
  CHECK_OK(cp_builder_append_str(cp_builder_child(tags, 0), "x", &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(tags, 0), &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(tags, 0), "y", &err), &err);
  CHECK_OK(cp_builder_end_element(tags, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(m), "a", &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_map_values(m), 1, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(m), "b", &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_map_values(m), &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(st, 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(st, 1), "x", &err), &err);
  CHECK_OK(cp_builder_end_element(st, &err), &err);
  CHECK_OK(cp_builder_append_bool(flag, true, &err), &err);
  CHECK_OK(cp_builder_append_int64(d, 12345, &err), &err);
  CHECK_OK(cp_builder_append_int64(day, 19000, &err), &err);
  CHECK_OK(cp_builder_append_int64(ts, 1641600000123000LL, &err),
           &err); /* 2022-01-08T00:00:00.123 */
  CHECK_OK(cp_builder_append_bytes(bin, "\x0a\x0b", 2, &err), &err);
  CHECK_OK(cp_builder_append_double(f, 0.1, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  /* row 1 */
  CHECK_OK(cp_builder_end_element(tags, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  CHECK_OK(cp_builder_append_null(st, &err), &err);
  CHECK_OK(cp_builder_append_bool(flag, false, &err), &err);
  CHECK_OK(cp_builder_append_int64(d, -5, &err), &err);
  CHECK_OK(cp_builder_append_int64(day, -1, &err), &err);
  CHECK_OK(cp_builder_append_int64(ts, -1, &err), &err);
  CHECK_OK(cp_builder_append_bytes(bin, "", 0, &err), &err);
  CHECK_OK(cp_builder_append_null(f, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  /* row 2 */
  CHECK_OK(cp_builder_append_null(tags, &err), &err);
  CHECK_OK(cp_builder_append_null(m, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(st, 0), &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(st, 1), &err), &err);
  CHECK_OK(cp_builder_end_element(st, &err), &err);
  CHECK_OK(cp_builder_append_null(flag, &err), &err);
  CHECK_OK(cp_builder_append_null(d, &err), &err);
  CHECK_OK(cp_builder_append_null(day, &err), &err);
  CHECK_OK(cp_builder_append_int64(ts, 0, &err), &err);
  CHECK_OK(cp_builder_append_null(bin, &err), &err);
  CHECK_OK(cp_builder_append_double(f, 1e10, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  check_table(&s, &a, 20, 0,
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------------+-------+------+\n"
              "|tags        |m                  |s           |flag |d     |day       |ts           "
              "             |bin    |f     |\n"
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------------+-------+------+\n"
              "|[x, NULL, y]|{a -> 1, b -> NULL}|{1, x}      |true |123.45|2022-01-08|2022-01-08 "
              "00:00:00.123   |[0A 0B]|0.1   |\n"
              "|[]          |{}                 |NULL        |false|-0.05 |1969-12-31|1969-12-31 "
              "23:59:59.999999|[]     |NULL  |\n"
              "|NULL        |NULL               |{NULL, NULL}|NULL |NULL  |NULL      |1970-01-01 "
              "00:00:00       |NULL   |1.0E10|\n"
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------------+-------+------+\n");
  check_table(&s, &a, 20, 20,
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------+-------+------+\n"
              "|        tags|                  m|           s| flag|     d|       day|             "
              "     ts|    bin|     f|\n"
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------+-------+------+\n"
              "|[x, NULL, y]|{a -> 1, b -> NULL}|      {1, x}| true|123.45|2022-01-08|2022-01-08 "
              "00:00:...|[0A 0B]|   0.1|\n"
              "|          []|                 {}|        NULL|false| -0.05|1969-12-31|1969-12-31 "
              "23:59:...|     []|  NULL|\n"
              "|        NULL|               NULL|{NULL, NULL}| NULL|  NULL|      NULL| 1970-01-01 "
              "00:00:00|   NULL|1.0E10|\n"
              "+------------+-------------------+------------+-----+------+----------+-------------"
              "-------+-------+------+\n");
  cp_array_release(&a);
  cp_schema_release(&s);
}

/* Table C: escapes, East Asian full-width characters, a surrogate pair, truncation by UTF-16. */
static void test_table_unicode(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{\xe5\x90\x8d\xe5\xad\x97=u;x=i}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  char many[25 * 3 + 1];
  for (int k = 0; k < 25; k++) memcpy(many + 3 * k, "\xe6\xbc\xa2", 3); /* 漢 */
  many[75] = 0;
  const char *vals[] = {"a\nb\tc",
                        "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x83\x86\xe3\x82\xad"
                        "\xe3\x82\xb9\xe3\x83\x88", /* 日本語テキスト */
                        "\xf0\x9f\x98\x80x", many};
  for (int r = 0; r < 4; r++) {
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 0), vals[r], &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 1), r + 1, &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  check_table(&s, &a, 20, 20,
              "+-------------------------------------+---+\n"
              "|                                 名字|  x|\n"
              "+-------------------------------------+---+\n"
              "|                              a\\nb\\tc|  1|\n"
              "|                       日本語テキスト|  2|\n"
              "|                                  😀x|  3|\n"
              "|漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢...|  4|\n"
              "+-------------------------------------+---+\n");
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_table_stream(void) {
  paimon_error err;
  struct ArrowSchema s, s2;
  struct ArrowArray batches[3];
  for (int k = 0; k < 3; k++) {
    cp_builder *b;
    ts_schema(k == 0 ? &s : &s2, "=+s{n=l}");
    CHECK_OK(cp_builder_create(&b, k == 0 ? &s : &s2, &err), &err);
    for (int r = 0; r < 2; r++) {
      CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 2 * k + r + 1, &err), &err);
      CHECK_OK(cp_builder_end_element(b, &err), &err);
    }
    CHECK_OK(cp_builder_finish(b, &batches[k], &err), &err);
    cp_builder_free(b);
    if (k) cp_schema_release(&s2);
  }
  struct ArrowArrayStream st;
  CHECK_OK(cp_stream_from_batches(&st, &s, batches, 3, &err), &err);
  cp_buf out = CP_BUF_INIT;
  cp_print_options o = {3, 20};
  CHECK_OK(cp_print_table_stream(&out, &st, &o, &err), &err);
  CHECK_STR(text_of(&out), "+---+\n"
                           "|  n|\n"
                           "+---+\n"
                           "|  1|\n"
                           "|  2|\n"
                           "|  3|\n"
                           "+---+\n"
                           "only showing top 3 rows\n");
  cp_buf_free(&out);
  /* The rest of the stream is still there: the JSON printer takes the third batch, the first
   * row of it with a limit of 1. */
  CHECK_OK(cp_print_jsonl_stream(&out, &st, 1, &err), &err);
  CHECK_STR(text_of(&out), "{\"n\":5}\n");
  cp_buf_free(&out);
  cp_stream_release(&st);
}

static void test_csv(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{id=i;name=u;note=u;bin=z;tags=+l{item=i};\"q,\"=d:3,1}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), "a,b", &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(b, 2), "say \"hi\"\nbye", &err), &err);
  CHECK_OK(cp_builder_append_bytes(cp_builder_child(b, 3), "\x00\xff", 2, &err), &err);
  cp_builder *tags = cp_builder_child(b, 4);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(tags, 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(tags, 0), 2, &err), &err);
  CHECK_OK(cp_builder_end_element(tags, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 5), -15, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 0), &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), "", &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 2), &err), &err);
  CHECK_OK(cp_builder_append_bytes(cp_builder_child(b, 3), "", 0, &err), &err);
  CHECK_OK(cp_builder_append_null(tags, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 5), &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_print_csv(&out, &s, &a, true, &err), &err);
  CHECK_STR(text_of(&out), "id,name,note,bin,tags,\"\"\"q,\"\"\"\n"
                           "1,\"a,b\",\"say \"\"hi\"\"\nbye\",AP8=,\"[1, 2]\",-1.5\n"
                           ",\"\",,\"\",,\n");
  cp_buf_free(&out);
  CHECK_OK(cp_print_csv(&out, &s, &a, false, &err), &err);
  CHECK(strncmp(text_of(&out), "1,", 2) == 0);
  cp_buf_free(&out);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_jsonl(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{id=l;name=u;score=g;tags=+l{item=i};m=+m{entries=+s!{key=u!;value=i}};"
                "im=+m{entries=+s!{key=i!;value=u}};st=+s{a=i;b=u};d=d:5,2;day=tdD;bin=z}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_builder *c[10];
  for (int k = 0; k < 10; k++) c[k] = cp_builder_child(b, k);
  /* row 0 */
  CHECK_OK(cp_builder_append_int64(c[0], 1, &err), &err);
  CHECK_OK(cp_builder_append_str(c[1], "a\"b\\\n\x01\xff\xc3\xa9", &err), &err);
  CHECK_OK(cp_builder_append_double(c[2], 1.5, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(c[3], 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(c[3], 0), &err), &err);
  CHECK_OK(cp_builder_end_element(c[3], &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(c[4]), "k", &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_map_values(c[4]), 1, &err), &err);
  CHECK_OK(cp_builder_end_element(c[4], &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_map_keys(c[5]), 7, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_map_values(c[5]), "x", &err), &err);
  CHECK_OK(cp_builder_end_element(c[5], &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(c[6], 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(c[6], 1), &err), &err);
  CHECK_OK(cp_builder_end_element(c[6], &err), &err);
  CHECK_OK(cp_builder_append_int64(c[7], 12345, &err), &err);
  CHECK_OK(cp_builder_append_int64(c[8], 19000, &err), &err);
  CHECK_OK(cp_builder_append_bytes(c[9], "\x00\xff", 2, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  /* row 1: nulls, NaN, a map with a repeated key */
  CHECK_OK(cp_builder_append_null(c[0], &err), &err);
  CHECK_OK(cp_builder_append_null(c[1], &err), &err);
  CHECK_OK(cp_builder_append_double(c[2], NAN, &err), &err);
  CHECK_OK(cp_builder_append_null(c[3], &err), &err);
  for (int k = 0; k < 2; k++) {
    CHECK_OK(cp_builder_append_str(cp_builder_map_keys(c[4]), "k", &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_map_values(c[4]), k + 1, &err), &err);
  }
  CHECK_OK(cp_builder_end_element(c[4], &err), &err);
  CHECK_OK(cp_builder_end_element(c[5], &err), &err);
  CHECK_OK(cp_builder_append_null(c[6], &err), &err);
  CHECK_OK(cp_builder_append_int64(c[7], -5, &err), &err);
  CHECK_OK(cp_builder_append_null(c[8], &err), &err);
  CHECK_OK(cp_builder_append_bytes(c[9], "abc", 3, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_print_jsonl(&out, &s, &a, &err), &err);
  CHECK_STR(text_of(&out),
            "{\"id\":1,\"name\":\"a\\\"b\\\\\\n\\u0001\xef\xbf\xbd\xc3\xa9\",\"score\":1.5,"
            "\"tags\":[1,null],\"m\":{\"k\":1},\"im\":{\"7\":\"x\"},\"st\":{\"a\":1,\"b\":null},"
            "\"d\":123.45,\"day\":\"2022-01-08\",\"bin\":\"AP8=\"}\n"
            "{\"id\":null,\"name\":null,\"score\":\"NaN\",\"tags\":null,"
            "\"m\":[{\"key\":\"k\",\"value\":1},{\"key\":\"k\",\"value\":2}],\"im\":{},"
            "\"st\":null,\"d\":-0.05,\"day\":null,\"bin\":\"YWJj\"}\n");
  cp_buf_free(&out);
  cp_array_release(&a);
  cp_schema_release(&s);
}

int main(void) {
  RUN(test_java_doubles);
  RUN(test_decimals);
  RUN(test_table_basic);
  RUN(test_table_types);
  RUN(test_table_unicode);
  RUN(test_table_stream);
  RUN(test_csv);
  RUN(test_jsonl);
  TEST_MAIN_END();
}
