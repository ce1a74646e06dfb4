/*
 * The public predicate builder (include/cpaimon/predicate.h, src/expr/predicate_api.c): every
 * constructor with literal values in Arrow arrays of various types, binding to a read schema with
 * cp_predicate_bind, filtering a batch, rendering, ownership of and / or / not (checked for leaks
 * under ASan), and argument errors.
 */
#include "arrow/arrow_test.h"
#include "cpaimon/predicate.h"
#include "expr/predicate.h"
#include "expr_test.h"

static const char *const ROW_TYPE =
    "ROW<age INT, name STRING, dt DATE, price DECIMAL(10, 2), ts TIMESTAMP(6), flag BOOLEAN, "
    "score DOUBLE, id BIGINT>";

static const char *const CELLS[] = {"30",
                                    "ann",
                                    "2024-01-15",
                                    "1.50",
                                    "2024-01-15 08:00:00",
                                    "true",
                                    "0.5",
                                    "1",
                                    "41",
                                    "bob",
                                    "2024-02-01",
                                    "9.99",
                                    "2024-02-01 12:30:00",
                                    "false",
                                    "2.5",
                                    "2",
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL,
                                    "3",
                                    "17",
                                    "anna",
                                    "2023-12-31",
                                    "2.50",
                                    "2023-12-31 23:59:59",
                                    "true",
                                    "NaN",
                                    "4"};

static tb t;

/* An Arrow array of one type (format) built from text values parsed as Paimon type `ptype`. */
typedef struct value_array {
  struct ArrowSchema schema;
  struct ArrowArray array;
} value_array;

static void va_make(value_array *v, const char *format, const char *ptype,
                    const char *const *values, int n) {
  char spec[64];
  snprintf(spec, sizeof spec, "v=%s", format);
  ts_schema(&v->schema, spec);
  cp_builder *b;
  paimon_error err;
  CHECK_OK(cp_builder_create(&b, &v->schema, &err), &err);
  cp_type *pt = tt_type(ptype);
  cp_arena a = CP_ARENA_INIT;
  for (int i = 0; i < n; i++) {
    cp_datum d = cp_datum_null();
    if (values[i]) CHECK_OK(cp_datum_parse_text(pt, values[i], &a, &d, &err), &err);
    CHECK_OK(cp_datum_append(pt, &d, b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &v->array, &err), &err);
  cp_builder_free(b);
  cp_type_free(pt);
  cp_arena_free(&a);
}

static void va_free(value_array *v) {
  cp_array_release(&v->array);
  cp_schema_release(&v->schema);
}

/* Binds p to the test schema, filters the batch and renders the selected ids ("1,4"); frees p. */
static char *select_ids(paimon_predicate *p) {
  paimon_error err;
  cp_expr *e = NULL;
  char *out = calloc(1100, 1);
  if (cp_predicate_bind(p, t.row, &e, &err) != 0) {
    snprintf(out, 1100, "ERROR %s", err.message);
    paimon_predicate_free(p);
    return out;
  }
  uint8_t bits[1];
  int64_t n_true;
  CHECK_OK(cp_expr_eval_selection(e, &t.view, bits, &n_true, &err), &err);
  size_t len = 0;
  for (int i = 0; i < 4; i++)
    if (cp_bit_get(bits, i))
      len += (size_t)snprintf(out + len, 64 - len, "%s%d", len ? "," : "", i + 1);
  cp_expr_free(e);
  paimon_predicate_free(p);
  return out;
}

#define CHECK_SELECT(call, expected)                                                               \
  do {                                                                                             \
    paimon_predicate *p_ = NULL;                                                                   \
    paimon_error e_;                                                                               \
    CHECK_OK(call, &e_);                                                                           \
    if (p_) {                                                                                      \
      char *ids_ = select_ids(p_);                                                                 \
      CHECK_STR(ids_, expected);                                                                   \
      free(ids_);                                                                                  \
    }                                                                                              \
  } while (0)

static void test_comparisons(void) {
  value_array v;
  const char *five[] = {"30"};
  va_make(&v, "l", "BIGINT", five, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "age", &v.schema, &v.array, &e_), "1");
  CHECK_SELECT(paimon_predicate_not_equal(&p_, "age", &v.schema, &v.array, &e_), "2,4");
  CHECK_SELECT(paimon_predicate_less_than(&p_, "age", &v.schema, &v.array, &e_), "4");
  CHECK_SELECT(paimon_predicate_less_or_equal(&p_, "age", &v.schema, &v.array, &e_), "1,4");
  CHECK_SELECT(paimon_predicate_greater_than(&p_, "age", &v.schema, &v.array, &e_), "2");
  CHECK_SELECT(paimon_predicate_greater_or_equal(&p_, "age", &v.schema, &v.array, &e_), "1,2");
  CHECK_SELECT(
      paimon_predicate_compare(&p_, PAIMON_COMPARE_GREATER_THAN, "id", &v.schema, &v.array, &e_),
      "");
  va_free(&v);
  const char *big[] = {"5000000000"};
  va_make(&v, "l", "BIGINT", big, 1); /* wider than the INT column: widened, not wrapped */
  CHECK_SELECT(paimon_predicate_less_than(&p_, "age", &v.schema, &v.array, &e_), "1,2,4");
  va_free(&v);
  const char *half[] = {"2.5"};
  va_make(&v, "g", "DOUBLE", half, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "score", &v.schema, &v.array, &e_), "2");
  CHECK_SELECT(paimon_predicate_greater_than(&p_, "score", &v.schema, &v.array, &e_), "4");
  CHECK_SELECT(paimon_predicate_less_than(&p_, "price", &v.schema, &v.array, &e_), "1");
  va_free(&v);
  const char *dec[] = {"2.50"};
  va_make(&v, "d:5,2", "DECIMAL(5, 2)", dec, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "price", &v.schema, &v.array, &e_), "4");
  va_free(&v);
  const char *day[] = {"2024-01-15"};
  va_make(&v, "tdD", "DATE", day, 1);
  CHECK_SELECT(paimon_predicate_greater_or_equal(&p_, "dt", &v.schema, &v.array, &e_), "1,2");
  va_free(&v);
  va_make(&v, "u", "STRING", day, 1); /* a string is parsed as the column's type */
  CHECK_SELECT(paimon_predicate_equal(&p_, "dt", &v.schema, &v.array, &e_), "1");
  va_free(&v);
  const char *when[] = {"2024-02-01 12:30:00"};
  va_make(&v, "tsu:", "TIMESTAMP(6)", when, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "ts", &v.schema, &v.array, &e_), "2");
  va_free(&v);
  va_make(&v, "tsm:UTC", "TIMESTAMP_LTZ(3)", when, 1);
  CHECK_SELECT(paimon_predicate_less_than(&p_, "ts", &v.schema, &v.array, &e_), "1,4");
  va_free(&v);
  const char *yes[] = {"true"};
  va_make(&v, "b", "BOOLEAN", yes, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "flag", &v.schema, &v.array, &e_), "1,4");
  va_free(&v);
  const char *nothing[] = {NULL};
  va_make(&v, "i", "INT", nothing, 1);
  CHECK_SELECT(paimon_predicate_equal(&p_, "age", &v.schema, &v.array, &e_), "");
  CHECK_SELECT(paimon_predicate_not_equal(&p_, "age", &v.schema, &v.array, &e_), "");
  va_free(&v);
  ts_schema(&v.schema, "v=n");
  paimon_error err;
  CHECK_OK(cp_array_init(&v.array, 0, 0, &err), &err);
  v.array.length = 1;
  v.array.null_count = 1;
  CHECK_SELECT(paimon_predicate_equal(&p_, "name", &v.schema, &v.array, &e_), "");
  va_free(&v);
  /* uint64 above INT64_MAX becomes DECIMAL(20, 0). */
  ts_schema(&v.schema, "v=L");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &v.schema, &err), &err);
  CHECK_OK(cp_builder_append_uint64(b, UINT64_MAX, &err), &err);
  CHECK_OK(cp_builder_finish(b, &v.array, &err), &err);
  cp_builder_free(b);
  CHECK_SELECT(paimon_predicate_less_than(&p_, "id", &v.schema, &v.array, &e_), "1,2,3,4");
  va_free(&v);
}

static void test_text_comparisons(void) {
  CHECK_SELECT(
      paimon_predicate_compare_text(&p_, PAIMON_COMPARE_GREATER_OR_EQUAL, "dt", "2024-01-15", &e_),
      "1,2");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_LESS_THAN, "price", "2.5", &e_),
               "1");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_LESS_THAN, "price", "2.499", &e_),
               "1");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_EQUAL, "age", " 41 ", &e_), "2");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_NOT_EQUAL, "name", "ann", &e_),
               "2,4");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_EQUAL, "flag", "false", &e_), "2");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_GREATER_THAN, "ts",
                                             "2024-01-15T08:00", &e_),
               "2");
  CHECK_SELECT(paimon_predicate_compare_text(&p_, PAIMON_COMPARE_GREATER_THAN, "score", "1e0", &e_),
               "2,4");
  /* The brief's error: text that is not a value of the column's type fails at bind time. */
  paimon_predicate *p;
  paimon_error err;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "age", "abc", &err), &err);
  char *r = select_ids(p);
  CHECK_CONTAINS(r, "cannot compare column 'age' (INT) with 'abc' (STRING)");
  free(r);
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "dt", "2024-02-30", &err), &err);
  r = select_ids(p);
  CHECK_CONTAINS(r, "column 'dt' (DATE)");
  CHECK_CONTAINS(r, "day out of range");
  free(r);
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "nope", "1", &err), &err);
  cp_expr *e;
  CHECK_ERR(cp_predicate_bind(p, t.row, &e, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "column 'nope' not found");
  paimon_predicate_free(p);
}

static void test_sets_and_strings(void) {
  value_array v;
  const char *names[] = {"ann", NULL, "anna"};
  va_make(&v, "u", "STRING", names, 3);
  CHECK_SELECT(paimon_predicate_is_in(&p_, "name", &v.schema, &v.array, &e_), "1,4");
  CHECK_SELECT(paimon_predicate_is_not_in(&p_, "name", &v.schema, &v.array, &e_), ""); /* NULL */
  va_free(&v);
  const char *ages[] = {"17", "41", "99"};
  va_make(&v, "i", "INT", ages, 3);
  CHECK_SELECT(paimon_predicate_is_in(&p_, "age", &v.schema, &v.array, &e_), "2,4");
  CHECK_SELECT(paimon_predicate_is_not_in(&p_, "age", &v.schema, &v.array, &e_), "1");
  va_free(&v);
  const char *range[] = {"1.5", "2.5"};
  va_make(&v, "g", "DOUBLE", range, 2);
  CHECK_SELECT(paimon_predicate_between(&p_, "price", &v.schema, &v.array, &e_), "1,4");
  CHECK_SELECT(paimon_predicate_between(&p_, "score", &v.schema, &v.array, &e_), "2");
  va_free(&v);
  const char *pre[] = {"an"};
  va_make(&v, "U", "STRING", pre, 1); /* large_utf8 works too */
  CHECK_SELECT(paimon_predicate_startswith(&p_, "name", &v.schema, &v.array, &e_), "1,4");
  CHECK_SELECT(paimon_predicate_contains(&p_, "name", &v.schema, &v.array, &e_), "1,4");
  va_free(&v);
  const char *suf[] = {"b"};
  va_make(&v, "u", "STRING", suf, 1);
  CHECK_SELECT(paimon_predicate_endswith(&p_, "name", &v.schema, &v.array, &e_), "2");
  va_free(&v);
  const char *pct[] = {"%"};
  va_make(&v, "u", "STRING", pct, 1);
  CHECK_SELECT(paimon_predicate_contains(&p_, "name", &v.schema, &v.array, &e_), "");
  va_free(&v);
  CHECK_SELECT(paimon_predicate_is_null(&p_, "age", &e_), "3");
  CHECK_SELECT(paimon_predicate_is_not_null(&p_, "name", &e_), "1,2,4");
}

static void test_junctions(void) {
  paimon_error err;
  value_array v;
  const char *thirty[] = {"30"};
  va_make(&v, "i", "INT", thirty, 1);
  paimon_predicate *kids[3];
  CHECK_OK(paimon_predicate_greater_or_equal(&kids[0], "age", &v.schema, &v.array, &err), &err);
  CHECK_OK(paimon_predicate_compare_text(&kids[1], PAIMON_COMPARE_LESS_THAN, "price", "5", &err),
           &err);
  paimon_predicate *both;
  CHECK_OK(paimon_predicate_and(&both, kids, 2, &err), &err);
  char buf[128];
  size_t n = paimon_predicate_format(both, buf, sizeof buf);
  CHECK_STR(buf, "(age >= 30) AND (price < '5')");
  CHECK_INT(n, strlen("(age >= 30) AND (price < '5')"));
  CHECK_INT(paimon_predicate_format(both, buf, 5), n);
  CHECK_STR(buf, "(age");
  char *r = select_ids(both);
  CHECK_STR(r, "1");
  free(r);
  CHECK_OK(paimon_predicate_is_null(&kids[0], "age", &err), &err);
  CHECK_OK(paimon_predicate_equal(&kids[1], "age", &v.schema, &v.array, &err), &err);
  CHECK_OK(paimon_predicate_compare_text(&kids[2], PAIMON_COMPARE_EQUAL, "name", "bob", &err),
           &err);
  paimon_predicate *any;
  CHECK_OK(paimon_predicate_or(&any, kids, 3, &err), &err);
  paimon_predicate *none;
  CHECK_OK(paimon_predicate_not(&none, any, &err), &err);
  r = select_ids(none);
  CHECK_STR(r, "4");
  free(r);
  /* A single child is the child itself. */
  CHECK_OK(paimon_predicate_is_null(&kids[0], "age", &err), &err);
  CHECK_OK(paimon_predicate_and(&both, kids, 1, &err), &err);
  r = select_ids(both);
  CHECK_STR(r, "3");
  free(r);
  /* Errors still take ownership of the children (ASan reports a leak otherwise). */
  CHECK_OK(paimon_predicate_is_null(&kids[0], "age", &err), &err);
  kids[1] = NULL;
  CHECK_ERR(paimon_predicate_or(&any, kids, 2, &err), PAIMON_EINVAL);
  CHECK(any == NULL);
  CHECK_ERR(paimon_predicate_and(&any, kids, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_predicate_not(&any, NULL, &err), PAIMON_EINVAL);
  paimon_predicate_free(NULL);
  CHECK_INT(paimon_predicate_format(NULL, buf, sizeof buf), 0);
  va_free(&v);
}

static void test_argument_errors(void) {
  paimon_error err;
  paimon_predicate *p = (paimon_predicate *)1;
  value_array v;
  const char *two[] = {"1", "2"};
  va_make(&v, "i", "INT", two, 2);
  CHECK_ERR(paimon_predicate_equal(&p, "age", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "equal on column 'age' needs 1 value, got 2");
  CHECK(p == NULL);
  CHECK_ERR(paimon_predicate_startswith(&p, "name", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "startswith on column 'name' needs 1 value");
  va_free(&v);
  va_make(&v, "i", "INT", two, 1);
  CHECK_ERR(paimon_predicate_between(&p, "age", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "between on column 'age' needs 2 values, got 1");
  va_free(&v);
  va_make(&v, "i", "INT", two, 0);
  CHECK_ERR(paimon_predicate_is_in(&p, "age", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "is_in on column 'age' needs at least 1 value, got 0");
  CHECK_ERR(paimon_predicate_equal(&p, "", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column name is empty");
  CHECK_ERR(paimon_predicate_equal(&p, "age", NULL, NULL, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_predicate_compare(&p, (paimon_compare_op)17, "age", &v.schema, &v.array, &err),
            PAIMON_EINVAL);
  CHECK_ERR(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "age", NULL, &err),
            PAIMON_EINVAL);
  CHECK_ERR(paimon_predicate_is_null(&p, NULL, &err), PAIMON_EINVAL);
  va_free(&v);
  /* Malformed or nested value arrays. */
  ts_schema(&v.schema, "v=+l{item=i}");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &v.schema, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 1, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &v.array, &err), &err);
  cp_builder_free(b);
  CHECK_ERR(paimon_predicate_equal(&p, "age", &v.schema, &v.array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "values must be atomic");
  v.array.length = 5; /* longer than its buffers */
  CHECK(paimon_predicate_equal(&p, "age", &v.schema, &v.array, &err) != 0);
  CHECK_CONTAINS(err.message, "equal on column 'age'");
  v.array.length = 1;
  va_free(&v);
  ts_schema(&v.schema, "v=e"); /* float16: no Paimon type */
  CHECK_OK(cp_array_init(&v.array, 2, 0, &err), &err);
  void *buf;
  CHECK_OK(cp_array_alloc_buffer(&v.array, 1, 2, &buf, &err), &err);
  v.array.length = 1;
  CHECK(paimon_predicate_equal(&p, "age", &v.schema, &v.array, &err) != 0);
  CHECK_CONTAINS(err.message, "equal on column 'age'");
  va_free(&v);
}

int main(void) {
  tb_make(&t, ROW_TYPE, 4, CELLS);
  RUN(test_comparisons);
  RUN(test_text_comparisons);
  RUN(test_sets_and_strings);
  RUN(test_junctions);
  RUN(test_argument_errors);
  tb_free(&t);
  TEST_MAIN_END();
}
