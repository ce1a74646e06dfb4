/* Tests for cp_cast / cp_cast_supported (src/arrow/ops.h): every allowed conversion on inputs with
 * nulls and offsets, and the refusals and per-value failures with their messages. */
#include "arrow/ops.h"
#include "arrow/print.h"
#include "arrow_test.h"

/* Casts rows of (s, a) to `to_spec`, renders the result as "v; v; ..." (or "ERROR <code>: msg"). */
static const char *cast_render(const struct ArrowSchema *s, const struct ArrowArray *a,
                               const char *to_spec) {
  static char text[2048];
  paimon_error err;
  struct ArrowSchema to;
  struct ArrowArray out;
  cp_array_view v, ov;
  ts_schema(&to, to_spec);
  CHECK_OK(cp_array_view_init(&v, s, a, &err), &err);
  int rc = cp_cast(&v, &to, &out, &err);
  if (rc != 0) {
    snprintf(text, sizeof text, "ERROR %s: %s", paimon_status_name(rc), err.message);
  } else {
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_array_view_init(&ov, &to, &out, &err), &err);
    for (int64_t i = 0; i < ov.length; i++) {
      if (i) cp_buf_append(&b, "; ", 2, &err);
      cp_print_value(&b, &ov, i, &err);
    }
    cp_buf_nul_terminate(&b, &err);
    snprintf(text, sizeof text, "%s", (char *)b.data);
    cp_buf_free(&b);
    cp_array_view_reset(&ov);
    cp_array_release(&out);
  }
  cp_array_view_reset(&v);
  cp_schema_release(&to);
  return text;
}

static void test_integer_casts(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl;
  int64_t vals[] = {0, -128, 127, 5, 0};
  int nulls[] = {0, 0, 0, 0, 1};
  ts_int_array(&s, &a, "c", vals, nulls, 5);
  CHECK_OK(cp_array_slice(&a, 1, 4, &sl, &err), &err);
  CHECK_STR(cast_render(&s, &sl, "y=s"), "-128; 127; 5; NULL");
  CHECK_STR(cast_render(&s, &sl, "y=l"), "-128; 127; 5; NULL");
  CHECK_STR(cast_render(&s, &sl, "y=g"), "-128.0; 127.0; 5.0; NULL");
  CHECK_STR(cast_render(&s, &sl, "y=f"), "-128.0; 127.0; 5.0; NULL");
  CHECK_STR(cast_render(&s, &sl, "y=c"), "-128; 127; 5; NULL"); /* identity */
  CHECK_STR(cast_render(&s, &sl, "y=C"),
            "ERROR EUNSUPPORTED: column 'x': cannot cast int8 to uint8");
  CHECK_STR(cast_render(&s, &sl, "y=u"),
            "ERROR EUNSUPPORTED: column 'x': cannot cast int8 to utf8");
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);

  int64_t u[] = {255, 0};
  ts_int_array(&s, &a, "C", u, NULL, 2);
  CHECK_STR(cast_render(&s, &a, "y=s"), "255; 0"); /* uint8 → int16 widens */
  CHECK_STR(cast_render(&s, &a, "y=S"), "255; 0");
  CHECK(strncmp(cast_render(&s, &a, "y=c"), "ERROR EUNSUPPORTED", 18) == 0);
  cp_array_release(&a);
  cp_schema_release(&s);

  /* uint64 values above INT64_MAX survive uint64 → uint64 and → double */
  ts_schema(&s, "x=L");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_uint64(b, UINT64_MAX, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_STR(cast_render(&s, &a, "y=L"), "18446744073709551615");
  CHECK_STR(cast_render(&s, &a, "y=g"), "1.8446744073709552E19");
  CHECK(strncmp(cast_render(&s, &a, "y=l"), "ERROR EUNSUPPORTED", 18) == 0);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_text_casts(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl;
  const char *strs[] = {"skip", "h\xc3\xa9", NULL, ""};
  ts_str_array(&s, &a, "u", strs, 4);
  CHECK_OK(cp_array_slice(&a, 1, 3, &sl, &err), &err);
  CHECK_STR(cast_render(&s, &sl, "y=U"), "h\xc3\xa9; NULL; ");
  CHECK_STR(cast_render(&s, &sl, "y=z"), "[68 C3 A9]; NULL; []");
  CHECK_STR(cast_render(&s, &sl, "y=Z"), "[68 C3 A9]; NULL; []");
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);

  const char *bins[] = {"ok", "bad\xff", NULL};
  ts_str_array(&s, &a, "z", bins, 3);
  CHECK_STR(cast_render(&s, &a, "y=u"),
            "ERROR EINVAL: column 'y': row 1 is not valid UTF-8 (byte 3) and cannot become utf8");
  CHECK_OK(cp_array_slice_inplace(&a, 0, 1, &err), &err);
  CHECK_STR(cast_render(&s, &a, "y=U"), "ok");
  cp_array_release(&a);
  cp_schema_release(&s);

  ts_schema(&s, "x=w:2");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_bytes(b, "\x01\x02", 2, &err), &err);
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_STR(cast_render(&s, &a, "y=z"), "[01 02]; NULL");
  CHECK(strncmp(cast_render(&s, &a, "y=w:3"), "ERROR EUNSUPPORTED", 18) == 0);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_temporal_and_decimal_casts(void) {
  struct ArrowSchema s;
  struct ArrowArray a;
  /* 1 s and -1 s after the epoch, and 1 day */
  int64_t secs[] = {1, -1, 86400};
  ts_int_array(&s, &a, "tss:", secs, NULL, 3);
  CHECK_STR(cast_render(&s, &a, "y=tsm:UTC"),
            "1970-01-01 00:00:01; 1969-12-31 23:59:59; 1970-01-02 00:00:00");
  CHECK_STR(cast_render(&s, &a, "y=tsn:"),
            "1970-01-01 00:00:01; 1969-12-31 23:59:59; 1970-01-02 00:00:00");
  cp_array_release(&a);
  cp_schema_release(&s);

  int64_t ms[] = {1500, INT64_MAX / 100};
  ts_int_array(&s, &a, "tsm:", ms, NULL, 2);
  CHECK_STR(cast_render(&s, &a, "y=tss:"),
            "ERROR EUNSUPPORTED: column 'x': cannot cast timestamp[ms] to timestamp[s]");
  const char *r = cast_render(&s, &a, "y=tsn:");
  CHECK_CONTAINS(r, "ERROR EINVAL: column 'y': value 92233720368547758 at row 1 overflows");
  cp_array_release(&a);
  cp_schema_release(&s);

  int64_t days[] = {0, 19000, -1};
  int nd[] = {0, 0, 1};
  ts_int_array(&s, &a, "tdD", days, nd, 3);
  /* 19000 days after 1970-01-01 is 2022-01-08 (checked: 52 years incl. 13 leap days = 19006 − 6) */
  CHECK_STR(cast_render(&s, &a, "y=tsu:"), "1970-01-01 00:00:00; 2022-01-08 00:00:00; NULL");
  cp_array_release(&a);
  cp_schema_release(&s);

  int64_t t[] = {3723, 0}; /* 01:02:03 */
  ts_int_array(&s, &a, "tts", t, NULL, 2);
  CHECK_STR(cast_render(&s, &a, "y=ttm"), "01:02:03; 00:00:00");
  CHECK_STR(cast_render(&s, &a, "y=ttu"), "01:02:03; 00:00:00");
  cp_array_release(&a);
  cp_schema_release(&s);

  int64_t dec[] = {12345, -5, 0};
  int dn[] = {0, 0, 1};
  ts_int_array(&s, &a, "d:5,2", dec, dn, 3);
  CHECK_STR(cast_render(&s, &a, "y=d:7,4"), "123.4500; -0.0500; NULL");
  CHECK_STR(cast_render(&s, &a, "y=d:38,2"), "123.45; -0.05; NULL");
  CHECK(strncmp(cast_render(&s, &a, "y=d:6,4"), "ERROR EUNSUPPORTED", 18) == 0);
  CHECK(strncmp(cast_render(&s, &a, "y=d:5,1"), "ERROR EUNSUPPORTED", 18) == 0);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_nested_casts(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "x=+l{item=i}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_builder *it = cp_builder_child(b, 0);
  CHECK_OK(cp_builder_append_int64(it, 1, &err), &err);
  CHECK_OK(cp_builder_append_null(it, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_append_int64(it, 7, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(cp_array_slice_inplace(&a, 0, 3, &err), &err);
  CHECK_STR(cast_render(&s, &a, "y=+L{item=i}"), "[1, NULL]; NULL; [7]"); /* same items */
  CHECK_STR(cast_render(&s, &a, "y=+L{item=l}"), "[1, NULL]; NULL; [7]"); /* items widened */
  CHECK_STR(cast_render(&s, &a, "y=+l{element=g}"), "[1.0, NULL]; NULL; [7.0]");
  CHECK(strncmp(cast_render(&s, &a, "y=+l{item=s}"), "ERROR EUNSUPPORTED", 18) == 0);
  CHECK(strncmp(cast_render(&s, &a, "y=+s{item=i}"), "ERROR EUNSUPPORTED", 18) == 0);
  CHECK(cp_cast_supported(&s, &s));
  cp_array_release(&a);
  cp_schema_release(&s);

  ts_schema(&s, "x=+s{a=i;b=u}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), "one", &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 3, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 1), &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(cp_array_slice_inplace(&a, 1, 2, &err), &err);
  CHECK_STR(cast_render(&s, &a, "y=+s{A=l;B=U}"), "NULL; {3, NULL}");
  CHECK(strncmp(cast_render(&s, &a, "y=+s{A=l}"), "ERROR EUNSUPPORTED", 18) == 0);
  cp_array_release(&a);
  cp_schema_release(&s);

  /* a null column becomes any type, all null */
  ts_schema(&s, "x=n");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_nulls(b, 3, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_INT(a.n_buffers, 0);
  CHECK_INT(a.null_count, 3);
  CHECK_STR(cast_render(&s, &a, "y=+m{entries=+s{key=u;value=i}}"), "NULL; NULL; NULL");
  CHECK_STR(cast_render(&s, &a, "y=d:5,2"), "NULL; NULL; NULL");
  cp_array_release(&a);
  cp_schema_release(&s);
}

int main(void) {
  RUN(test_integer_casts);
  RUN(test_text_casts);
  RUN(test_temporal_and_decimal_casts);
  RUN(test_nested_casts);
  TEST_MAIN_END();
}
