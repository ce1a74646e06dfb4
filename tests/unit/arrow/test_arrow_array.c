/* Tests for src/arrow/array.h: builders of every type round-tripped through views, owned arrays,
 * sharing and in-place slicing. */
#include <math.h>

#include "arrow_test.h"

static void test_primitives_roundtrip(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  ts_schema(&s, "=+s{b=b;i8=c;u8=C;i16=s;u16=S;i32=i;u32=I;i64=l;u64=L;f=f;g=g;d=tdD;t=ttm;"
                "ts=tsu:UTC;t64=ttn}");
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 15; c++) {
      cp_builder *cb = cp_builder_child(b, c);
      if (r == 1) {
        CHECK_OK(cp_builder_append_null(cb, &err), &err);
        continue;
      }
      int64_t v = r == 0 ? -5 : 7;
      switch (c) {
      case 0: CHECK_OK(cp_builder_append_bool(cb, r == 2, &err), &err); break;
      case 2:
      case 4:
      case 6:
      case 8:
        CHECK_OK(cp_builder_append_uint64(cb, (uint64_t)(r == 0 ? 200 : 3), &err), &err);
        break;
      case 9: CHECK_OK(cp_builder_append_double(cb, r == 0 ? 0.5 : -1.25, &err), &err); break;
      case 10: CHECK_OK(cp_builder_append_double(cb, r == 0 ? 0.1 : 1e300, &err), &err); break;
      default: CHECK_OK(cp_builder_append_int64(cb, v, &err), &err); break;
      }
    }
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_INT(cp_builder_length(b), 3);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_INT(cp_builder_length(b), 0);
  CHECK_INT(a.length, 3);
  CHECK_INT(a.null_count, 0);
  CHECK(a.buffers[0] == NULL);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_INT(v.n_children, 15);
  CHECK_INT(v.children[1].null_count, 1);
  CHECK(cp_view_is_null(&v.children[5], 1));
  CHECK(!cp_view_is_null(&v.children[5], 0));
  CHECK(cp_view_get_bool(&v.children[0], 2));
  CHECK(!cp_view_get_bool(&v.children[0], 0));
  CHECK_INT(cp_view_get_int64(&v.children[1], 0), -5);
  CHECK_INT(cp_view_get_int64(&v.children[1], 2), 7);
  CHECK_INT(cp_view_get_int64(&v.children[2], 0), 200);
  CHECK_INT(cp_view_get_int64(&v.children[5], 0), -5);
  CHECK_INT(cp_view_get_int64(&v.children[7], 2), 7);
  CHECK(cp_view_get_uint64(&v.children[8], 0) == 200);
  CHECK(cp_view_get_double(&v.children[9], 0) == 0.5);
  CHECK(cp_view_get_double(&v.children[9], 2) == -1.25);
  CHECK(cp_view_get_double(&v.children[10], 0) == 0.1);
  CHECK(cp_view_get_double(&v.children[10], 2) == 1e300);
  CHECK_INT(cp_view_get_int64(&v.children[11], 0), -5); /* date32 */
  CHECK_INT(v.children[12].type.unit, CP_UNIT_MILLI);
  CHECK_STR(v.children[13].type.timezone, "UTC");
  CHECK_INT(v.children[14].type.id, CP_ARROW_TIME64);
  CHECK_STR(v.children[14].name, "t64");
  CHECK_INT(cp_view_child_index(&v, "ts"), 13);
  CHECK_INT(cp_view_child_index(&v, "nope"), -1);
  /* Raw buffer contents, checked against the columnar layout rather than through the view. */
  const int32_t *i32 = v.children[5].array->buffers[1];
  CHECK_INT(i32[0], -5);
  CHECK_INT(i32[2], 7);
  const uint8_t *bits = v.children[5].array->buffers[0];
  CHECK_INT(bits[0] & 7, 5); /* rows 0 and 2 valid */
  CHECK_INT((uintptr_t)v.children[10].array->buffers[1] % 64, 0);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  CHECK(a.release == NULL);
  cp_builder_free(b);
  cp_schema_release(&s);
}

static void test_range_checks(void) {
  paimon_error err;
  struct ArrowSchema s;
  cp_builder *b;
  ts_schema(&s, "small=c");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_int64(b, 127, &err), &err);
  CHECK_OK(cp_builder_append_int64(b, -128, &err), &err);
  CHECK_ERR(cp_builder_append_int64(b, 128, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'small'");
  CHECK_CONTAINS(err.message, "value 128 at row 2 is out of range for int8");
  CHECK_ERR(cp_builder_append_uint64(b, UINT64_MAX, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_builder_append_double(b, 1.0, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "cannot append a floating-point value to a int8 column");
  CHECK_ERR(cp_builder_append_str(b, "x", &err), PAIMON_EINVAL);
  CHECK_ERR(cp_builder_end_element(b, &err), PAIMON_EINVAL);
  CHECK_INT(cp_builder_length(b), 2);
  cp_builder_free(b);
  cp_schema_release(&s);

  ts_schema(&s, "u=S");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_ERR(cp_builder_append_int64(b, -1, &err), PAIMON_EINVAL);
  CHECK_OK(cp_builder_append_int64(b, 65535, &err), &err);
  CHECK_ERR(cp_builder_append_int64(b, 65536, &err), PAIMON_EINVAL);
  cp_builder_free(b);
  cp_schema_release(&s);

  ts_schema(&s, "dec=d:5,2");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_int64(b, 99999, &err), &err);
  CHECK_OK(cp_builder_append_int64(b, -99999, &err), &err);
  CHECK_ERR(cp_builder_append_int64(b, 100000, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "exceeds precision 5");
  cp_dec128 big = {0, 1}; /* 2^64 */
  CHECK_ERR(cp_builder_append_decimal128(b, big, &err), PAIMON_EINVAL);
  cp_builder_free(b);
  cp_schema_release(&s);

  ts_schema(&s, "f=w:3");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_bytes(b, "abc", 3, &err), &err);
  CHECK_ERR(cp_builder_append_bytes(b, "ab", 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "fixed_size_binary(3)");
  cp_builder_free(b);
  cp_schema_release(&s);

  ts_schema(&s, "h=e");
  CHECK_ERR(cp_builder_create(&b, &s, &err), PAIMON_EUNSUPPORTED);
  CHECK(b == NULL);
  cp_schema_release(&s);
}

static void test_decimal_and_fixed_binary(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{d=d:38,10;w=w:4}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_dec128 neg = {UINT64_MAX - 4, -1}; /* -5 */
  cp_dec128 large = {0x0123456789abcdefULL, 0x0123456789abcdLL};
  CHECK_OK(cp_builder_append_decimal128(cp_builder_child(b, 0), neg, &err), &err);
  CHECK_OK(cp_builder_append_bytes(cp_builder_child(b, 1), "\x01\x02\x03\x04", 4, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_append_decimal128(cp_builder_child(b, 0), large, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 1), &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  cp_dec128 d0 = cp_view_get_decimal128(&v.children[0], 0);
  cp_dec128 d1 = cp_view_get_decimal128(&v.children[0], 1);
  CHECK(d0.lo == UINT64_MAX - 4 && d0.hi == -1);
  CHECK(d1.lo == large.lo && d1.hi == large.hi);
  /* Little-endian 16-byte slot: first byte is the low byte of lo. */
  CHECK_INT(((const uint8_t *)v.children[0].values.data)[16], 0xef);
  int64_t len;
  const uint8_t *p = cp_view_get_bytes(&v.children[1], 0, &len);
  CHECK_INT(len, 4);
  CHECK(memcmp(p, "\x01\x02\x03\x04", 4) == 0);
  CHECK(cp_view_is_null(&v.children[1], 1));
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);
}

static void test_strings_and_binary(void) {
  paimon_error err;
  const char *vals[] = {"hello", NULL, "", "wörld"};
  const char *fmts[] = {"u", "U", "z", "Z"};
  for (int f = 0; f < 4; f++) {
    struct ArrowSchema s;
    struct ArrowArray a;
    ts_str_array(&s, &a, fmts[f], vals, 4);
    CHECK_INT(a.n_buffers, 3);
    CHECK_INT(a.null_count, 1);
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
    int64_t len;
    const uint8_t *p = cp_view_get_bytes(&v, 0, &len);
    CHECK_INT(len, 5);
    CHECK(memcmp(p, "hello", 5) == 0);
    CHECK(cp_view_is_null(&v, 1));
    cp_view_get_bytes(&v, 1, &len);
    CHECK_INT(len, 0);
    p = cp_view_get_bytes(&v, 2, &len);
    CHECK_INT(len, 0);
    CHECK(!cp_view_is_null(&v, 2));
    p = cp_view_get_bytes(&v, 3, &len);
    CHECK_INT(len, 6);
    CHECK(memcmp(p, "w\xc3\xb6rld", 6) == 0);
    if (f % 2 == 0) {
      const int32_t *o = a.buffers[1];
      CHECK(o[0] == 0 && o[1] == 5 && o[2] == 5 && o[3] == 5 && o[4] == 11);
    } else {
      const int64_t *o = a.buffers[1];
      CHECK(o[0] == 0 && o[1] == 5 && o[4] == 11);
    }
    cp_array_view_reset(&v);
    cp_array_release(&a);
    cp_schema_release(&s);
  }
}

/* list<int32> with a null list, an empty list, and nulls inside; then map<utf8, int64>; then a
 * struct inside a list. */
static void test_nested_roundtrip(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{l=+l{item=i};m=+m{entries=+s!{key=u!;value=l}};ls=+L{item=+s{x=i;y=u}};"
                "fl=+w:2{item=g}}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  cp_builder *l = cp_builder_child(b, 0), *m = cp_builder_child(b, 1);
  cp_builder *ls = cp_builder_child(b, 2), *fl = cp_builder_child(b, 3);
  cp_builder *li = cp_builder_child(l, 0);
  cp_builder *mk = cp_builder_map_keys(m), *mv = cp_builder_map_values(m);
  cp_builder *st = cp_builder_child(ls, 0), *fi = cp_builder_child(fl, 0);
  CHECK(mk && mv);
  /* row 0 */
  CHECK_OK(cp_builder_append_int64(li, 1, &err), &err);
  CHECK_OK(cp_builder_append_null(li, &err), &err);
  CHECK_OK(cp_builder_append_int64(li, 3, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
  CHECK_OK(cp_builder_append_str(mk, "a", &err), &err);
  CHECK_OK(cp_builder_append_int64(mv, 10, &err), &err);
  CHECK_OK(cp_builder_append_str(mk, "b", &err), &err);
  CHECK_OK(cp_builder_append_null(mv, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(st, 0), 5, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(st, 1), "five", &err), &err);
  CHECK_OK(cp_builder_end_element(st, &err), &err);
  CHECK_OK(cp_builder_append_null(st, &err), &err);
  CHECK_OK(cp_builder_end_element(ls, &err), &err);
  CHECK_OK(cp_builder_append_double(fi, 1.5, &err), &err);
  CHECK_OK(cp_builder_append_double(fi, 2.5, &err), &err);
  CHECK_OK(cp_builder_end_element(fl, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  /* row 1: null list, empty map, empty large list, null fixed list */
  CHECK_OK(cp_builder_append_null(l, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  CHECK_OK(cp_builder_end_element(ls, &err), &err);
  CHECK_OK(cp_builder_append_null(fl, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  /* row 2: a null struct row */
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_INT(a.length, 3);
  CHECK_INT(a.null_count, 1);

  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  const cp_array_view *vl = &v.children[0], *vm = &v.children[1], *vls = &v.children[2];
  const cp_array_view *vfl = &v.children[3];
  int64_t st0, en0;
  cp_view_list_range(vl, 0, &st0, &en0);
  CHECK_INT(st0, 0);
  CHECK_INT(en0, 3);
  CHECK_INT(cp_view_get_int64(&vl->children[0], 0), 1);
  CHECK(cp_view_is_null(&vl->children[0], 1));
  CHECK_INT(cp_view_get_int64(&vl->children[0], 2), 3);
  CHECK(cp_view_is_null(vl, 1));
  cp_view_list_range(vl, 1, &st0, &en0);
  CHECK_INT(en0 - st0, 0);
  CHECK(cp_view_is_null(vl, 2)); /* struct null propagated to children as a null */
  cp_view_list_range(vm, 0, &st0, &en0);
  CHECK_INT(en0 - st0, 2);
  int64_t len;
  const uint8_t *k = cp_view_get_bytes(cp_view_map_keys(vm), 1, &len);
  CHECK(len == 1 && k[0] == 'b');
  CHECK(cp_view_is_null(cp_view_map_values(vm), 1));
  CHECK_INT(cp_view_get_int64(cp_view_map_values(vm), 0), 10);
  CHECK(!cp_view_is_null(vm, 1));
  cp_view_list_range(vm, 1, &st0, &en0);
  CHECK_INT(en0 - st0, 0);
  CHECK(vls->offsets64 != NULL);
  cp_view_list_range(vls, 0, &st0, &en0);
  CHECK_INT(en0 - st0, 2);
  CHECK(cp_view_is_null(&vls->children[0], 1));
  CHECK_INT(cp_view_get_int64(&vls->children[0].children[0], 0), 5);
  cp_view_list_range(vfl, 0, &st0, &en0);
  CHECK_INT(st0, 0);
  CHECK_INT(en0, 2);
  CHECK(cp_view_get_double(&vfl->children[0], 1) == 2.5);
  CHECK(cp_view_is_null(vfl, 1));
  CHECK_INT(vfl->children[0].length, 6); /* nulls were appended for the null element */
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);
}

static void test_unclosed_children(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "=+s{x=i;y=i}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 1, &err), &err);
  CHECK_ERR(cp_builder_end_element(b, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "struct field 'y' has 0 rows, expected 1");
  CHECK_ERR(cp_builder_finish(b, &a, &err), PAIMON_ESTATE);
  CHECK(a.release == NULL);
  /* The builder keeps its rows after a failed finish; complete the row and finish. */
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 1), 2, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_INT(a.length, 1);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);

  ts_schema(&s, "m=+m{entries=+s{key=u;value=i}}");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(b), "k", &err), &err);
  CHECK_ERR(cp_builder_end_element(b, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "map has 1 keys but 0 values");
  cp_builder_free(b);
  cp_schema_release(&s);
}

static void test_bulk_appends(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "x=i");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  int32_t vals[100];
  uint8_t valid[13];
  for (int i = 0; i < 100; i++) vals[i] = i * 3;
  memset(valid, 0xff, sizeof valid);
  cp_bit_clear(valid, 10);
  cp_bit_clear(valid, 57);
  CHECK_OK(cp_builder_append_int64(b, -1, &err), &err);
  CHECK_OK(cp_builder_append_values(b, vals, 5, 90, valid, 5, &err), &err);
  CHECK_OK(cp_builder_append_values(b, vals, 0, 3, NULL, 0, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_INT(a.length, 94);
  CHECK_INT(a.null_count, 2);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_INT(cp_view_get_int64(&v, 0), -1);
  CHECK_INT(cp_view_get_int64(&v, 1), 15);
  CHECK(cp_view_is_null(&v, 6));  /* valid bit 10 = row 1 + (10 - 5) */
  CHECK(cp_view_is_null(&v, 53)); /* valid bit 57 */
  CHECK(!cp_view_is_null(&v, 52));
  CHECK_INT(cp_view_get_int64(&v, 90), 282);
  CHECK_INT(cp_view_get_int64(&v, 93), 6);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);

  /* Bool bits at an odd offset. */
  ts_schema(&s, "x=b");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  uint8_t bits[3] = {0xA5, 0x3C, 0x01}; /* 10100101 00111100 */
  CHECK_OK(cp_builder_append_bool(b, true, &err), &err);
  CHECK_OK(cp_builder_append_values(b, bits, 3, 15, NULL, 0, &err), &err);
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK(cp_view_get_bool(&v, 0));
  for (int i = 0; i < 15; i++) CHECK(cp_view_get_bool(&v, 1 + i) == cp_bit_get(bits, 3 + i));
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);

  /* Binary runs with a non-zero first offset, into a large_utf8 builder. */
  ts_schema(&s, "x=U");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  int32_t offs[4] = {3, 5, 5, 9};
  const uint8_t *data = (const uint8_t *)"xxxabcdef";
  uint8_t vb = 0x5; /* rows 0 and 2 valid */
  CHECK_OK(cp_builder_append_str(b, "q", &err), &err);
  CHECK_OK(cp_builder_append_binary_run32(b, offs, data, 3, &vb, 0, &err), &err);
  int32_t bad[3] = {0, 4, 2};
  CHECK_ERR(cp_builder_append_binary_run32(b, bad, data, 2, NULL, 0, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "not monotonic at index 1");
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  int64_t len;
  const uint8_t *p = cp_view_get_bytes(&v, 1, &len);
  CHECK(len == 2 && memcmp(p, "ab", 2) == 0);
  CHECK(cp_view_is_null(&v, 2));
  p = cp_view_get_bytes(&v, 3, &len);
  CHECK(len == 4 && memcmp(p, "cdef", 4) == 0);
  cp_array_view_reset(&v);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&s);
}

/* A builder is reusable after finish, and a large column crosses many buffer growths. */
static void test_reuse_and_growth(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  cp_builder *b;
  ts_schema(&s, "x=u");
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 10000; i++) {
      char buf[32];
      snprintf(buf, sizeof buf, "v%d", i * (round + 1));
      if (i % 7 == 3)
        CHECK_OK(cp_builder_append_null(b, &err), &err);
      else
        CHECK_OK(cp_builder_append_str(b, buf, &err), &err);
    }
    CHECK_OK(cp_builder_finish(b, &a, &err), &err);
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
    CHECK_INT(v.length, 10000);
    CHECK_INT(v.null_count, 1429); /* i % 7 == 3 for i < 10000 */
    int64_t len;
    const uint8_t *p = cp_view_get_bytes(&v, 9998, &len); /* 9999 % 7 == 3 is null */
    char want[32];
    snprintf(want, sizeof want, "v%d", 9998 * (round + 1));
    CHECK(len == (int64_t)strlen(want) && memcmp(p, want, (size_t)len) == 0);
    cp_array_view_reset(&v);
    cp_array_release(&a);
  }
  cp_builder_free(b);
  cp_schema_release(&s);
}

static void test_owned_buffers(void) {
  paimon_error err;
  struct ArrowArray a;
  CHECK_OK(cp_array_init(&a, 2, 0, &err), &err);
  void *p;
  CHECK_OK(cp_array_alloc_buffer(&a, 1, 40, &p, &err), &err);
  CHECK_INT((uintptr_t)p % 64, 0);
  CHECK_INT(cp_array_buffer_size(&a, 1), 40);
  CHECK_INT(cp_array_buffer_size(&a, 5), -1);
  int64_t *m = malloc(24);
  CHECK_OK(cp_array_adopt_buffer(&a, 1, m, 24, &err), &err); /* frees the aligned one */
  CHECK_ERR(cp_array_alloc_buffer(&a, 2, 8, &p, &err), PAIMON_EINVAL);
  struct ArrowArray other;
  CHECK_OK(cp_array_init(&other, 0, 0, &err), &err);
  CHECK_OK(cp_array_keep_alive(&a, &other, &err), &err);
  CHECK(other.release == NULL);
  cp_array_release(&a);
  CHECK_ERR(cp_array_init(&a, -1, 0, &err), PAIMON_EINVAL);
  CHECK(a.release == NULL);
  struct ArrowArray foreign = {0};
  CHECK_INT(cp_array_buffer_size(&foreign, 0), -1);
}

static void test_share_and_slice(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a, b2, c;
  int64_t vals[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  int nulls[] = {0, 1, 0, 0, 0, 0, 0, 1, 0, 0};
  ts_int_array(&s, &a, "l", vals, nulls, 10);
  CHECK_OK(cp_array_share(&a, &b2, &err), &err);
  CHECK_OK(cp_array_share(&b2, &c, &err), &err);
  CHECK_OK(cp_array_slice_inplace(&b2, 2, 5, &err), &err);
  CHECK_INT(b2.offset, 2);
  CHECK_INT(b2.null_count, 0);
  CHECK_OK(cp_array_slice_inplace(&c, 6, 4, &err), &err);
  CHECK_INT(c.null_count, 1);
  CHECK_ERR(cp_array_slice_inplace(&c, 2, 3, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "[2, 5) is outside an array of 4 rows");
  /* The original goes first; the other handles stay readable. */
  cp_array_release(&a);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &b2, &err), &err);
  CHECK_INT(cp_view_get_int64(&v, 0), 3);
  CHECK_INT(cp_view_get_int64(&v, 4), 7);
  cp_array_view_reset(&v);
  cp_array_release(&b2);
  CHECK_OK(cp_array_view_init(&v, &s, &c, &err), &err);
  CHECK_INT(cp_view_get_int64(&v, 0), 7);
  CHECK(cp_view_is_null(&v, 1));
  cp_array_view_reset(&v);
  cp_array_release(&c);
  cp_schema_release(&s);

  /* Sharing a nested array makes independent child handles: moving a child out is allowed. */
  const char *strs[] = {"a", "b"};
  struct ArrowSchema ss;
  struct ArrowArray sa;
  ts_str_array(&ss, &sa, "u", strs, 2);
  struct ArrowSchema root;
  struct ArrowArray batch;
  CHECK_OK(cp_schema_make_struct(&root, NULL, 0, &ss, 1, &err), &err);
  CHECK_OK(cp_array_init(&batch, 1, 1, &err), &err);
  cp_array_move(&sa, batch.children[0]);
  batch.length = 2;
  struct ArrowArray h;
  CHECK_OK(cp_array_share(&batch, &h, &err), &err);
  struct ArrowArray moved;
  cp_array_move(h.children[0], &moved);
  cp_array_release(&h);
  cp_array_release(&batch);
  CHECK_OK(cp_array_view_init(&v, root.children[0], &moved, &err), &err);
  int64_t len;
  const uint8_t *p = cp_view_get_bytes(&v, 1, &len);
  CHECK(len == 1 && p[0] == 'b');
  cp_array_view_reset(&v);
  cp_array_release(&moved);
  cp_schema_release(&root);
}

static void test_utf8(void) {
  int64_t at = -1;
  CHECK(cp_utf8_valid((const uint8_t *)"plain ascii", 11, NULL));
  CHECK(cp_utf8_valid((const uint8_t *)"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9, NULL));
  CHECK(!cp_utf8_valid((const uint8_t *)"ab\xc3", 3, &at));
  CHECK_INT(at, 2);
  CHECK(!cp_utf8_valid((const uint8_t *)"\xc0\xaf", 2, &at)); /* overlong '/' */
  CHECK_INT(at, 0);
  CHECK(!cp_utf8_valid((const uint8_t *)"x\xed\xa0\x80", 4, &at)); /* surrogate U+D800 */
  CHECK_INT(at, 1);
  CHECK(!cp_utf8_valid((const uint8_t *)"\xf4\x90\x80\x80", 4, &at)); /* > U+10FFFF */
  CHECK(!cp_utf8_valid((const uint8_t *)"\xe0\x80\x80", 3, &at));     /* overlong 3-byte */
  CHECK(!cp_utf8_valid((const uint8_t *)"\x80", 1, &at));
  CHECK(cp_utf8_valid((const uint8_t *)"\xf4\x8f\xbf\xbf", 4, NULL)); /* U+10FFFF */
}

int main(void) {
  RUN(test_primitives_roundtrip);
  RUN(test_range_checks);
  RUN(test_decimal_and_fixed_binary);
  RUN(test_strings_and_binary);
  RUN(test_nested_roundtrip);
  RUN(test_unclosed_children);
  RUN(test_bulk_appends);
  RUN(test_reuse_and_growth);
  RUN(test_owned_buffers);
  RUN(test_share_and_slice);
  RUN(test_utf8);
  TEST_MAIN_END();
}
