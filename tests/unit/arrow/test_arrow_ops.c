/* Tests for src/arrow/ops.h: slice, take, filter, concat on primitive, string, nested and
 * null-heavy inputs with non-zero offsets; sort indices; row hashing and equality. Expected values
 * are derived by hand from the inputs; results are rendered with cp_print_value (tested on its own
 * in test_arrow_print.c) to compare nested values compactly. */
#include <math.h>

#include "arrow/ops.h"
#include "arrow/print.h"
#include "arrow_test.h"

/* Renders rows of (s, a) as "v0; v1; ..." into a static buffer. */
static const char *render(const struct ArrowSchema *s, const struct ArrowArray *a) {
  static char text[4096];
  paimon_error err;
  cp_array_view v;
  text[0] = 0;
  if (cp_array_view_init(&v, s, a, &err) != 0) {
    snprintf(text, sizeof text, "ERROR %s", err.message);
    return text;
  }
  cp_buf b = CP_BUF_INIT;
  for (int64_t i = 0; i < v.length; i++) {
    if (i) cp_buf_append(&b, "; ", 2, &err);
    cp_print_value(&b, &v, i, &err);
  }
  cp_buf_nul_terminate(&b, &err);
  snprintf(text, sizeof text, "%s", b.data ? (char *)b.data : "");
  cp_buf_free(&b);
  cp_array_view_reset(&v);
  return text;
}

/* list<int32> from strings like "1,2" ("" = empty list, NULL = null list, "n" = null item). */
static void list_array(struct ArrowSchema *s, struct ArrowArray *a, const char *fmt,
                       const char *const *rows, int n) {
  char spec[64];
  snprintf(spec, sizeof spec, "x=%s{item=i}", fmt);
  ts_schema(s, spec);
  cp_builder *b;
  paimon_error err;
  CHECK_OK(cp_builder_create(&b, s, &err), &err);
  for (int r = 0; r < n; r++) {
    if (!rows[r]) {
      CHECK_OK(cp_builder_append_null(b, &err), &err);
      continue;
    }
    for (const char *p = rows[r]; *p;) {
      if (*p == 'n') {
        CHECK_OK(cp_builder_append_null(cp_builder_child(b, 0), &err), &err);
        p++;
      } else {
        char *end;
        long x = strtol(p, &end, 10);
        CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), x, &err), &err);
        p = end;
      }
      if (*p == ',') p++;
    }
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, a, &err), &err);
  cp_builder_free(b);
}

/* struct{a: int64, b: utf8, m: map<utf8, int32>} rows; a < 0 makes the whole row null. */
static void struct_array(struct ArrowSchema *s, struct ArrowArray *a, int n) {
  ts_schema(s, "x=+s{a=l;b=u;m=+m{entries=+s!{key=u!;value=i}}}");
  cp_builder *b;
  paimon_error err;
  CHECK_OK(cp_builder_create(&b, s, &err), &err);
  for (int r = 0; r < n; r++) {
    if (r % 4 == 3) {
      CHECK_OK(cp_builder_append_null(b, &err), &err);
      continue;
    }
    char name[16];
    snprintf(name, sizeof name, "s%d", r);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), r * 10, &err), &err);
    if (r % 3 == 1)
      CHECK_OK(cp_builder_append_null(cp_builder_child(b, 1), &err), &err);
    else
      CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), name, &err), &err);
    cp_builder *m = cp_builder_child(b, 2);
    for (int k = 0; k < r % 3; k++) {
      char key[8];
      snprintf(key, sizeof key, "k%d", k);
      CHECK_OK(cp_builder_append_str(cp_builder_map_keys(m), key, &err), &err);
      CHECK_OK(cp_builder_append_int64(cp_builder_map_values(m), r + k, &err), &err);
    }
    CHECK_OK(cp_builder_end_element(m, &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, a, &err), &err);
  cp_builder_free(b);
}

static void test_slice(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl, sl2;
  int64_t vals[] = {0, 1, 2, 3, 4, 5, 6, 7};
  int nulls[] = {0, 0, 1, 0, 0, 1, 0, 0};
  ts_int_array(&s, &a, "l", vals, nulls, 8);
  CHECK_OK(cp_array_slice(&a, 2, 5, &sl, &err), &err);
  CHECK_STR(render(&s, &sl), "NULL; 3; 4; NULL; 6");
  CHECK_INT(sl.null_count, 2);
  CHECK_OK(cp_array_slice(&sl, 1, 2, &sl2, &err), &err); /* slice of a slice */
  CHECK_STR(render(&s, &sl2), "3; 4");
  CHECK_STR(render(&s, &a), "0; 1; NULL; 3; 4; NULL; 6; 7"); /* the source is unchanged */
  struct ArrowArray bad;
  CHECK_ERR(cp_array_slice(&a, 6, 3, &bad, &err), PAIMON_EINVAL);
  CHECK(bad.release == NULL);
  CHECK_CONTAINS(err.message, "slice [6, 9) is outside an array of 8 rows");
  cp_array_release(&a);
  cp_array_release(&sl);
  CHECK_STR(render(&s, &sl2), "3; 4");
  cp_array_release(&sl2);
  cp_schema_release(&s);
}

static void test_take_primitive_and_strings(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl, out;
  int64_t vals[] = {10, 11, 12, 13, 14, 15};
  int nulls[] = {0, 1, 0, 0, 0, 0};
  ts_int_array(&s, &a, "i", vals, nulls, 6);
  CHECK_OK(cp_array_slice(&a, 1, 5, &sl, &err), &err); /* 11(null) 12 13 14 15 */
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &sl, &err), &err);
  int64_t idx[] = {4, 0, -1, 1, 1, 3};
  CHECK_OK(cp_take(&v, idx, 6, &out, &err), &err);
  CHECK_STR(render(&s, &out), "15; NULL; NULL; 12; 12; 14");
  CHECK_INT(out.null_count, 2);
  cp_array_release(&out);
  int64_t bad[] = {0, 5};
  CHECK_ERR(cp_take(&v, bad, 2, &out, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "column 'x': take index 5 at position 1 is beyond 5 rows");
  CHECK_OK(cp_take(&v, idx, 0, &out, &err), &err);
  CHECK_INT(out.length, 0);
  cp_array_release(&out);
  cp_array_view_reset(&v);
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);

  const char *strs[] = {"alpha", NULL, "", "gamma", "delta"};
  const char *fmts[] = {"u", "Z"};
  for (int f = 0; f < 2; f++) {
    ts_str_array(&s, &a, fmts[f], strs, 5);
    CHECK_OK(cp_array_slice(&a, 1, 4, &sl, &err), &err);
    CHECK_OK(cp_array_view_init(&v, &s, &sl, &err), &err);
    int64_t si[] = {3, 2, 0, -1, 1};
    CHECK_OK(cp_take(&v, si, 5, &out, &err), &err);
    CHECK_STR(render(&s, &out), f == 0 ? "delta; gamma; NULL; NULL; "
                                       : "[64 65 6C 74 61]; "
                                         "[67 61 6D 6D 61]; NULL; "
                                         "NULL; []");
    cp_array_release(&out);
    uint8_t sel = 0x0d << 2; /* slice rows 0, 2, 3, read from bit 2 */
    CHECK_OK(cp_filter(&v, &sel, 2, &out, &err), &err);
    CHECK_STR(render(&s, &out),
              f == 0 ? "NULL; gamma; delta" : "NULL; [67 61 6D 6D 61]; [64 65 6C 74 61]");
    cp_array_release(&out);
    cp_array_view_reset(&v);
    cp_array_release(&sl);
    cp_array_release(&a);
    cp_schema_release(&s);
  }

  /* bool bits at odd offsets */
  ts_schema(&s, "x=b");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  for (int i = 0; i < 20; i++) {
    if (i % 5 == 4)
      CHECK_OK(cp_builder_append_null(b, &err), &err);
    else
      CHECK_OK(cp_builder_append_bool(b, i % 3 == 0, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(cp_array_slice(&a, 3, 17, &sl, &err), &err); /* rows 3.. */
  CHECK_OK(cp_array_view_init(&v, &s, &sl, &err), &err);
  int64_t bi[] = {0, 1, 3, 6, -1}; /* rows 3, 4, 6, 9 of the original */
  CHECK_OK(cp_take(&v, bi, 5, &out, &err), &err);
  CHECK_STR(render(&s, &out), "true; NULL; true; NULL; NULL");
  cp_array_release(&out);
  cp_array_view_reset(&v);
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_take_filter_nested(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl, out;
  const char *rows[] = {"1,2", NULL, "", "3,n,4", "5", "6,7,8"};
  list_array(&s, &a, "+l", rows, 6);
  CHECK_OK(cp_array_slice(&a, 1, 5, &sl, &err), &err);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &sl, &err), &err);
  int64_t idx[] = {4, 2, 0, -1, 3, 4};
  CHECK_OK(cp_take(&v, idx, 6, &out, &err), &err);
  CHECK_STR(render(&s, &out), "[6, 7, 8]; [3, NULL, 4]; NULL; NULL; [5]; [6, 7, 8]");
  cp_array_release(&out);
  uint8_t sel = 0x1a; /* rows 1, 3, 4 of the slice */
  CHECK_OK(cp_filter(&v, &sel, 0, &out, &err), &err);
  CHECK_STR(render(&s, &out), "[]; [5]; [6, 7, 8]");
  cp_array_release(&out);
  uint16_t sel2 = 0x1a << 3; /* same selection read from bit 3 */
  CHECK_OK(cp_filter(&v, (const uint8_t *)&sel2, 3, &out, &err), &err);
  CHECK_STR(render(&s, &out), "[]; [5]; [6, 7, 8]");
  cp_array_release(&out);
  cp_array_view_reset(&v);
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);

  struct_array(&s, &a, 9);
  /* rows: 0 {0, s0, {}}, 1 {10, NULL, {k0 -> 1}}, 2 {20, s2, {k0 -> 2, k1 -> 3}}, 3 NULL,
   *       4 {40, NULL, {k0 -> 4}}, 5 {50, s5, {k0 -> 5, k1 -> 6}}, 6 {60, s6, {}}, 7 NULL,
   *       8 {80, s8, {k0 -> 8, k1 -> 9}} */
  CHECK_OK(cp_array_slice(&a, 2, 6, &sl, &err), &err);
  CHECK_OK(cp_array_view_init(&v, &s, &sl, &err), &err);
  int64_t si[] = {3, 0, 1, -1};
  CHECK_OK(cp_take(&v, si, 4, &out, &err), &err);
  CHECK_STR(render(&s, &out), "{50, s5, {k0 -> 5, k1 -> 6}}; {20, s2, {k0 -> 2, k1 -> 3}}; NULL; "
                              "NULL");
  cp_array_release(&out);
  uint8_t fsel = 0x2c; /* slice rows 2, 3, 5 */
  CHECK_OK(cp_filter(&v, &fsel, 0, &out, &err), &err);
  CHECK_STR(render(&s, &out), "{40, NULL, {k0 -> 4}}; {50, s5, {k0 -> 5, k1 -> 6}}; NULL");
  cp_array_release(&out);
  cp_array_view_reset(&v);
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_filter_bool_and_null_heavy(void) {
  paimon_error err;
  struct ArrowSchema s, bs;
  struct ArrowArray a, ba, out;
  int64_t vals[300];
  int nulls[300];
  for (int i = 0; i < 300; i++) vals[i] = i, nulls[i] = i % 10 != 0; /* 90% null */
  ts_int_array(&s, &a, "l", vals, nulls, 300);
  ts_schema(&bs, "sel=b");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &bs, &err), &err);
  for (int i = 0; i < 300; i++) {
    if (i % 7 == 0)
      CHECK_OK(cp_builder_append_null(b, &err), &err); /* null selects nothing */
    else
      CHECK_OK(cp_builder_append_bool(b, i % 20 == 0 || i % 20 == 1, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &ba, &err), &err);
  cp_builder_free(b);
  cp_array_view v, bv;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_OK(cp_array_view_init(&bv, &bs, &ba, &err), &err);
  CHECK_OK(cp_filter_bool(&v, &bv, &out, &err), &err);
  /* i % 20 in {0, 1}, i % 7 != 0: values at i % 10 == 0 survive, the rest are nulls */
  int64_t expect_len = 0, expect_nulls = 0;
  for (int i = 0; i < 300; i++)
    if (i % 7 != 0 && (i % 20 == 0 || i % 20 == 1)) expect_len++, expect_nulls += i % 10 != 0;
  CHECK_INT(out.length, expect_len);
  CHECK_INT(out.null_count, expect_nulls);
  cp_array_view ov;
  CHECK_OK(cp_array_view_init(&ov, &s, &out, &err), &err);
  /* 0 is dropped (0 % 7 == 0); then 1 (a null value), 20, 40 (21 % 7 == 0 is dropped), 41 */
  CHECK(cp_view_is_null(&ov, 0));
  CHECK_INT(cp_view_get_int64(&ov, 1), 20);
  CHECK_INT(cp_view_get_int64(&ov, 2), 40);
  CHECK(cp_view_is_null(&ov, 3));
  cp_array_view_reset(&ov);
  cp_array_release(&out);
  bv.length = 5;
  CHECK_ERR(cp_filter_bool(&v, &bv, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "filter selection has 5 rows, column has 300");
  CHECK_ERR(cp_filter_bool(&v, &v, &out, &err), PAIMON_EINVAL);
  cp_array_view_reset(&v);
  cp_array_view_reset(&bv);
  cp_array_release(&a);
  cp_array_release(&ba);
  cp_schema_release(&s);
  cp_schema_release(&bs);
}

static void test_concat(void) {
  paimon_error err;
  struct ArrowSchema s1, s2;
  struct ArrowArray a1, a2, sl, out;
  const char *r1[] = {"1", NULL, "2,3"};
  const char *r2[] = {"", "4,n", "5"};
  list_array(&s1, &a1, "+l", r1, 3);
  list_array(&s2, &a2, "+L", r2, 3); /* large_list: same values, other offset width */
  CHECK_OK(cp_array_slice(&a1, 1, 2, &sl, &err), &err);
  cp_array_view views[3];
  CHECK_OK(cp_array_view_init(&views[0], &s1, &sl, &err), &err);
  CHECK_OK(cp_array_view_init(&views[1], &s2, &a2, &err), &err);
  CHECK_OK(cp_array_view_init(&views[2], &s1, &a1, &err), &err);
  CHECK_OK(cp_concat(views, 3, &out, &err), &err);
  CHECK_STR(render(&s1, &out), "NULL; [2, 3]; []; [4, NULL]; [5]; [1]; NULL; [2, 3]");
  CHECK_INT(out.null_count, 2);
  cp_array_release(&out);
  CHECK_ERR(cp_concat(views, 0, &out, &err), PAIMON_EINVAL);
  cp_array_view_reset(&views[1]);
  struct ArrowSchema si;
  struct ArrowArray ai;
  int64_t iv[] = {1};
  ts_int_array(&si, &ai, "i", iv, NULL, 1);
  CHECK_OK(cp_array_view_init(&views[1], &si, &ai, &err), &err);
  CHECK_ERR(cp_concat(views, 2, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "concat input 1");
  CHECK_CONTAINS(err.message, "cannot append int32 rows to a list column");
  for (int k = 0; k < 3; k++) cp_array_view_reset(&views[k]);
  cp_array_release(&sl);
  cp_array_release(&a1);
  cp_array_release(&a2);
  cp_array_release(&ai);
  cp_schema_release(&s1);
  cp_schema_release(&s2);
  cp_schema_release(&si);
}

/* ---- sort ------------------------------------------------------------------------------------ */

static void test_sort_ints_stable_nulls(void) {
  paimon_error err;
  struct ArrowSchema s, s2;
  struct ArrowArray a, a2;
  /* key with duplicates and nulls; the second column records the input order */
  int64_t k[] = {3, 1, 2, 1, 0, 3, 2, 1, 0, 0};
  int kn[] = {0, 0, 1, 0, 0, 0, 0, 0, 1, 0};
  int64_t pos[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  ts_int_array(&s, &a, "i", k, kn, 10);
  ts_int_array(&s2, &a2, "l", pos, NULL, 10);
  cp_array_view v, v2;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_OK(cp_array_view_init(&v2, &s2, &a2, &err), &err);
  int64_t idx[10];
  cp_sort_key key = {&v, false, true};
  CHECK_OK(cp_sort_indices(&key, 1, idx, &err), &err);
  int64_t want1[] = {2, 8, 4, 9, 1, 3, 7, 6, 0, 5}; /* nulls first, ties keep input order */
  for (int i = 0; i < 10; i++) CHECK_INT(idx[i], want1[i]);
  key.descending = true;
  key.nulls_first = false;
  CHECK_OK(cp_sort_indices(&key, 1, idx, &err), &err);
  int64_t want2[] = {0, 5, 6, 1, 3, 7, 4, 9, 2, 8};
  for (int i = 0; i < 10; i++) CHECK_INT(idx[i], want2[i]);
  /* two keys: k ascending nulls last, then pos descending */
  cp_sort_key keys[2] = {{&v, false, false}, {&v2, true, false}};
  CHECK_OK(cp_sort_indices(keys, 2, idx, &err), &err);
  int64_t want3[] = {9, 4, 7, 3, 1, 6, 5, 0, 8, 2};
  for (int i = 0; i < 10; i++) CHECK_INT(idx[i], want3[i]);
  v2.length = 3;
  CHECK_ERR(cp_sort_indices(keys, 2, idx, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_sort_indices(keys, 0, idx, &err), PAIMON_EINVAL);
  cp_array_view_reset(&v);
  cp_array_view_reset(&v2);
  cp_array_release(&a);
  cp_array_release(&a2);
  cp_schema_release(&s);
  cp_schema_release(&s2);
}

static void test_sort_doubles_spark_order(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  ts_schema(&s, "x=g");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  double d[] = {NAN, 1.5, -INFINITY, 0.0, INFINITY, -0.0, -2.0, NAN, 1.5};
  for (int i = 0; i < 9; i++) CHECK_OK(cp_builder_append_double(b, d[i], &err), &err);
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  int64_t idx[10];
  cp_sort_key key = {&v, false, false};
  CHECK_OK(cp_sort_indices(&key, 1, idx, &err), &err);
  /* -inf < -2 < (0.0 == -0.0, stable) < 1.5 < 1.5 < inf < NaN == NaN < null (last) */
  int64_t want[] = {2, 6, 3, 5, 1, 8, 4, 0, 7, 9};
  for (int i = 0; i < 10; i++) CHECK_INT(idx[i], want[i]);
  CHECK(cp_rows_equal(&v, 3, &v, 5)); /* 0.0 == -0.0 */
  CHECK(cp_rows_equal(&v, 0, &v, 7)); /* NaN == NaN */
  CHECK(cp_hash_value(&v, 3, 1) == cp_hash_value(&v, 5, 1));
  CHECK(cp_hash_value(&v, 0, 1) == cp_hash_value(&v, 7, 1));
  CHECK(cp_compare_values(&v, 0, &v, 4) > 0); /* NaN > +inf */
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_schema_release(&s);
}

static void test_sort_strings_decimals_large(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  const char *strs[] = {"b", "a\xc3\xa9", "az", "", "a", NULL, "B"};
  ts_str_array(&s, &a, "u", strs, 7);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  int64_t idx[7];
  cp_sort_key key = {&v, false, true};
  CHECK_OK(cp_sort_indices(&key, 1, idx, &err), &err);
  /* bytewise: NULL, "", "B"(0x42), "a", "az", "aé"(0xc3 > 'z'), "b" */
  int64_t want[] = {5, 3, 6, 4, 2, 1, 0};
  for (int i = 0; i < 7; i++) CHECK_INT(idx[i], want[i]);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_schema_release(&s);

  ts_schema(&s, "d=d:20,2");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_dec128 vals[] = {{5, 0}, {UINT64_MAX, -1} /* -1 */, {0, 1} /* 2^64 */, {0, 0}};
  for (int i = 0; i < 4; i++) CHECK_OK(cp_builder_append_decimal128(b, vals[i], &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  key.column = &v;
  CHECK_OK(cp_sort_indices(&key, 1, idx, &err), &err);
  CHECK(idx[0] == 1 && idx[1] == 3 && idx[2] == 0 && idx[3] == 2);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_schema_release(&s);

  /* 200000 pseudo-random int64 keys: the result is ordered and a permutation, ties stable. */
  enum { N = 200000 };
  int64_t *vals2 = malloc(N * sizeof *vals2), *ix = malloc(N * sizeof *ix);
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < N; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    vals2[i] = (int64_t)(x % 1000) - 500;
  }
  ts_int_array(&s, &a, "l", vals2, NULL, N);
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  key.column = &v;
  CHECK_OK(cp_sort_indices(&key, 1, ix, &err), &err);
  int bad = 0;
  for (int i = 1; i < N; i++) {
    int64_t p = vals2[ix[i - 1]], q = vals2[ix[i]];
    if (p > q || (p == q && ix[i - 1] > ix[i])) bad++;
  }
  CHECK_INT(bad, 0);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_schema_release(&s);
  free(vals2);
  free(ix);
}

/* Reference order for the randomized check: a stable insertion sort on cp_compare_values with the
 * null placement and direction applied here, independently of sort.c. */
static int ref_compare(const cp_sort_key *keys, int n_keys, int64_t x, int64_t y) {
  for (int k = 0; k < n_keys; k++) {
    const cp_array_view *v = keys[k].column;
    bool nx = cp_view_is_null(v, x), ny = cp_view_is_null(v, y);
    if (nx && ny) continue;
    if (nx || ny) return (nx ? -1 : 1) * (keys[k].nulls_first ? 1 : -1);
    int c = cp_compare_values(v, x, v, y);
    if (c) return keys[k].descending ? -c : c;
  }
  return 0;
}

/* Random columns of several types (strings with long shared prefixes, floats with NaN and -0.0,
 * uint64 above INT64_MAX, negative timestamps, bools), sorted under every direction and null
 * placement, alone and with a second key; the result must equal the reference order. */
static void test_sort_randomized_against_reference(void) {
  paimon_error err;
  enum { N = 400 };
  static const char *specs[] = {"x=u", "x=g", "x=L", "x=tsu:", "x=b", "x=f", "x=w:2", "x=c"};
  uint64_t seed = 12345;
  for (size_t t = 0; t < sizeof specs / sizeof specs[0]; t++) {
    struct ArrowSchema s, s2;
    struct ArrowArray a, a2;
    cp_builder *b;
    ts_schema(&s, specs[t]);
    CHECK_OK(cp_builder_create(&b, &s, &err), &err);
    for (int i = 0; i < N; i++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      uint64_t r = seed >> 33;
      if (r % 9 == 0) {
        CHECK_OK(cp_builder_append_null(b, &err), &err);
        continue;
      }
      switch (t) {
      case 0: {
        char str[32];
        snprintf(str, sizeof str, "common-prefix-%llu", (unsigned long long)(r % 37));
        CHECK_OK(cp_builder_append_str(b, r % 5 == 0 ? "common-p" : str, &err), &err);
        break;
      }
      case 1:
      case 5: {
        double d = (double)(r % 21) - 10.0;
        if (r % 13 == 1) d = NAN;
        if (r % 17 == 2) d = -0.0;
        if (r % 19 == 3) d = -INFINITY;
        CHECK_OK(cp_builder_append_double(b, d / 4, &err), &err);
        break;
      }
      case 2: CHECK_OK(cp_builder_append_uint64(b, (r % 7) << 61 | (r % 5), &err), &err); break;
      case 3: CHECK_OK(cp_builder_append_int64(b, (int64_t)(r % 11) - 5, &err), &err); break;
      case 4: CHECK_OK(cp_builder_append_bool(b, r & 1, &err), &err); break;
      case 6: {
        uint8_t w[2] = {(uint8_t)(r % 3), (uint8_t)(r % 255)};
        CHECK_OK(cp_builder_append_bytes(b, w, 2, &err), &err);
        break;
      }
      default: CHECK_OK(cp_builder_append_int64(b, (int64_t)(r % 256) - 128, &err), &err);
      }
    }
    CHECK_OK(cp_builder_finish(b, &a, &err), &err);
    cp_builder_free(b);
    int64_t second[N];
    for (int i = 0; i < N; i++) second[i] = (i * 7) % 5;
    ts_int_array(&s2, &a2, "i", second, NULL, N);
    cp_array_view v, v2;
    CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
    CHECK_OK(cp_array_view_init(&v2, &s2, &a2, &err), &err);
    for (int opt = 0; opt < 8; opt++) {
      cp_sort_key keys[2] = {{&v, opt & 1, (opt & 2) != 0}, {&v2, (opt & 4) != 0, false}};
      int nk = opt < 4 ? 1 : 2;
      int64_t got[N], want[N];
      CHECK_OK(cp_sort_indices(keys, nk, got, &err), &err);
      for (int i = 0; i < N; i++) {
        int64_t x = i, j = i;
        while (j > 0 && ref_compare(keys, nk, want[j - 1], x) > 0) want[j] = want[j - 1], j--;
        want[j] = x;
      }
      int mismatches = 0;
      for (int i = 0; i < N; i++) mismatches += got[i] != want[i];
      CHECK_INT(mismatches, 0);
    }
    cp_array_view_reset(&v);
    cp_array_view_reset(&v2);
    cp_array_release(&a);
    cp_array_release(&a2);
    cp_schema_release(&s);
    cp_schema_release(&s2);
  }
}

/* ---- hashing and equality ------------------------------------------------------------------- */

static void test_hash_equal_across_layouts(void) {
  paimon_error err;
  struct ArrowSchema s1, s2;
  struct ArrowArray a1, a2, sl;
  const char *r1[] = {"9", "1,2", NULL, "", "3,n"};
  const char *r2[] = {"1,2", "3,n", "", NULL, "1,2,3"};
  list_array(&s1, &a1, "+l", r1, 5);
  list_array(&s2, &a2, "+L", r2, 5);
  CHECK_OK(cp_array_slice(&a1, 1, 4, &sl, &err), &err); /* "1,2" NULL "" "3,n" */
  cp_array_view v1, v2;
  CHECK_OK(cp_array_view_init(&v1, &s1, &sl, &err), &err);
  CHECK_OK(cp_array_view_init(&v2, &s2, &a2, &err), &err);
  CHECK(cp_rows_equal(&v1, 0, &v2, 0));
  CHECK(cp_rows_equal(&v1, 3, &v2, 1)); /* null items compare equal */
  CHECK(cp_rows_equal(&v1, 2, &v2, 2)); /* empty lists */
  CHECK(cp_rows_equal(&v1, 1, &v2, 3)); /* null == null */
  CHECK(!cp_rows_equal(&v1, 0, &v2, 4));
  CHECK(!cp_rows_equal(&v1, 1, &v2, 2)); /* null != empty */
  CHECK(cp_hash_value(&v1, 0, 7) == cp_hash_value(&v2, 0, 7));
  CHECK(cp_hash_value(&v1, 3, 7) == cp_hash_value(&v2, 1, 7));
  CHECK(cp_hash_value(&v1, 2, 7) == cp_hash_value(&v2, 2, 7));
  CHECK(cp_hash_value(&v1, 1, 7) == cp_hash_value(&v2, 3, 7));
  CHECK(cp_hash_value(&v1, 0, 7) != cp_hash_value(&v2, 4, 7));
  CHECK(cp_hash_value(&v1, 1, 7) != cp_hash_value(&v1, 2, 7));
  CHECK(cp_hash_value(&v1, 0, 7) != cp_hash_value(&v1, 0, 8)); /* seed matters */
  CHECK(cp_compare_values(&v1, 0, &v2, 4) < 0);                /* [1,2] < [1,2,3] */
  CHECK(cp_compare_values(&v1, 1, &v2, 2) < 0);                /* NULL < [] */
  cp_array_view_reset(&v1);
  cp_array_view_reset(&v2);
  cp_array_release(&sl);
  cp_array_release(&a1);
  cp_array_release(&a2);
  cp_schema_release(&s1);
  cp_schema_release(&s2);

  /* int32 vs int64 and utf8 vs large_utf8 hash and compare by value */
  int64_t iv[] = {5, -7};
  ts_int_array(&s1, &a1, "i", iv, NULL, 2);
  ts_int_array(&s2, &a2, "l", iv, NULL, 2);
  CHECK_OK(cp_array_view_init(&v1, &s1, &a1, &err), &err);
  CHECK_OK(cp_array_view_init(&v2, &s2, &a2, &err), &err);
  CHECK(cp_rows_equal(&v1, 1, &v2, 1));
  CHECK(cp_hash_value(&v1, 1, 0) == cp_hash_value(&v2, 1, 0));
  uint64_t h1[2], h2[2];
  CHECK_OK(cp_hash_rows(&v1, 1, h1, &err), &err); /* int32 fast path */
  CHECK_OK(cp_hash_rows(&v2, 1, h2, &err), &err); /* int64 fast path */
  CHECK(h1[0] == h2[0] && h1[1] == h2[1]);
  cp_array_view cols2[2] = {v2, v1};
  CHECK_OK(cp_hash_rows(cols2, 2, h2, &err), &err);
  cp_array_view cols1[2] = {v1, v2};
  CHECK_OK(cp_hash_rows(cols1, 2, h1, &err), &err);
  CHECK(h1[0] == h2[0] && h1[1] == h2[1]); /* (5,5) hashes alike whichever width comes first */
  CHECK(h1[0] != h1[1]);
  cols1[1].length = 1;
  CHECK_ERR(cp_hash_rows(cols1, 2, h1, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_hash_rows(cols1, 0, h1, &err), PAIMON_EINVAL);
  cp_array_view_reset(&v1);
  cp_array_view_reset(&v2);
  cp_array_release(&a1);
  cp_array_release(&a2);
  cp_schema_release(&s1);
  cp_schema_release(&s2);

  const char *t1[] = {"x", "hello, world and more bytes"};
  const char *t2[] = {"hello, world and more bytes", "y"};
  ts_str_array(&s1, &a1, "u", t1, 2);
  ts_str_array(&s2, &a2, "U", t2, 2);
  CHECK_OK(cp_array_view_init(&v1, &s1, &a1, &err), &err);
  CHECK_OK(cp_array_view_init(&v2, &s2, &a2, &err), &err);
  CHECK(cp_rows_equal(&v1, 1, &v2, 0));
  CHECK(cp_hash_value(&v1, 1, 3) == cp_hash_value(&v2, 0, 3));
  CHECK(cp_hash_value(&v1, 0, 3) != cp_hash_value(&v2, 1, 3));
  cp_array_view_reset(&v1);
  cp_array_view_reset(&v2);
  cp_array_release(&a1);
  cp_array_release(&a2);
  cp_schema_release(&s1);
  cp_schema_release(&s2);
}

static void test_struct_equality_under_offsets(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, sl;
  struct_array(&s, &a, 8);
  CHECK_OK(cp_array_slice(&a, 4, 4, &sl, &err), &err);
  cp_array_view v, w;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_OK(cp_array_view_init(&w, &s, &sl, &err), &err);
  for (int i = 0; i < 4; i++) {
    CHECK(cp_rows_equal(&v, 4 + i, &w, i));
    CHECK(cp_hash_value(&v, 4 + i, 11) == cp_hash_value(&w, i, 11));
    CHECK_INT(cp_compare_values(&v, 4 + i, &w, i), 0);
  }
  CHECK(!cp_rows_equal(&v, 4, &w, 1));
  CHECK(cp_rows_equal(&v, 3, &w, 3)); /* both null rows */
  CHECK(cp_compare_values(&v, 0, &v, 1) < 0);
  cp_array_view_reset(&v);
  cp_array_view_reset(&w);
  cp_array_release(&sl);
  cp_array_release(&a);
  cp_schema_release(&s);
}

int main(void) {
  RUN(test_slice);
  RUN(test_take_primitive_and_strings);
  RUN(test_take_filter_nested);
  RUN(test_filter_bool_and_null_heavy);
  RUN(test_concat);
  RUN(test_sort_ints_stable_nulls);
  RUN(test_sort_doubles_spark_order);
  RUN(test_sort_strings_decimals_large);
  RUN(test_sort_randomized_against_reference);
  RUN(test_hash_equal_across_layouts);
  RUN(test_struct_equality_under_offsets);
  TEST_MAIN_END();
}
