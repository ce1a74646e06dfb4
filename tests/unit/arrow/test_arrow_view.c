/* Tests for cp_array_view_init (src/arrow/array.h): foreign arrays laid out by hand per the
 * columnar format, valid ones read correctly (offsets, folded struct offsets, unknown null
 * counts), and every kind of malformed import rejected with a message naming column and row. */
#include "arrow_test.h"

static void noop_release(struct ArrowArray *a) { a->release = NULL; }

/* A foreign array node over caller-provided buffers (no ownership). */
static void foreign(struct ArrowArray *a, int64_t length, int64_t null_count, int64_t offset,
                    int64_t n_buffers, const void **buffers, int64_t n_children,
                    struct ArrowArray **children) {
  memset(a, 0, sizeof *a);
  a->length = length;
  a->null_count = null_count;
  a->offset = offset;
  a->n_buffers = n_buffers;
  a->buffers = buffers;
  a->n_children = n_children;
  a->children = children;
  a->release = noop_release;
}

static void test_valid_foreign_string(void) {
  paimon_error err;
  struct ArrowSchema s;
  ts_schema(&s, "name=u");
  /* "a", NULL, "bcd", "", "ef" with offset 1: the view sees rows 1..4. */
  static const uint8_t validity[] = {0x1d}; /* 1,0,1,1,1 */
  static const int32_t offsets[] = {0, 1, 1, 4, 4, 6};
  const void *bufs[] = {validity, offsets, "abcdef"};
  struct ArrowArray a;
  foreign(&a, 4, -1, 1, 3, bufs, 0, NULL);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_INT(v.null_count, 1); /* computed from the bitmap: the producer said -1 */
  CHECK(cp_view_is_null(&v, 0));
  int64_t len;
  const uint8_t *p = cp_view_get_bytes(&v, 1, &len);
  CHECK(len == 3 && memcmp(p, "bcd", 3) == 0);
  p = cp_view_get_bytes(&v, 3, &len);
  CHECK(len == 2 && memcmp(p, "ef", 2) == 0);
  cp_array_view_reset(&v);
  /* The same with an exact null count, and a window with no nulls drops the bitmap. */
  a.null_count = 1;
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_INT(v.null_count, 1);
  cp_array_view_reset(&v);
  foreign(&a, 3, -1, 2, 3, bufs, 0, NULL);
  CHECK_OK(cp_array_view_init(&v, &s, &a, &err), &err);
  CHECK_INT(v.null_count, 0);
  CHECK(v.validity == NULL);
  cp_array_view_reset(&v);
  cp_schema_release(&s);
}

/* A struct with offset 1 whose child has its own offset 2: row i of the struct is row 3 + i of the
 * child's buffer. */
static void test_struct_offset_folding(void) {
  paimon_error err;
  struct ArrowSchema s;
  ts_schema(&s, "=+s{x=i}");
  static const int32_t vals[] = {10, 11, 12, 13, 14, 15, 16};
  const void *cbufs[] = {NULL, vals};
  const void *pbufs[] = {NULL};
  struct ArrowArray child, parent;
  struct ArrowArray *kids[] = {&child};
  foreign(&child, 5, 0, 2, 2, cbufs, 0, NULL);
  foreign(&parent, 3, 0, 1, 1, pbufs, 1, kids);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &parent, &err), &err);
  CHECK_INT(v.children[0].length, 3);
  CHECK_INT(cp_view_get_int64(&v.children[0], 0), 13);
  CHECK_INT(cp_view_get_int64(&v.children[0], 2), 15);
  cp_array_view_reset(&v);
  /* The child must cover parent offset + length rows: 1 + 5 > 5. */
  parent.length = 5;
  CHECK_ERR(cp_array_view_init(&v, &s, &parent, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "column 'x': struct child has 5 rows, parent needs 6");
  cp_schema_release(&s);
}

static void test_empty_arrays_may_omit_buffers(void) {
  paimon_error err;
  struct ArrowSchema s;
  ts_schema(&s, "=+s{a=u;b=l;c=+l{item=i}}");
  const void *nulls3[] = {NULL, NULL, NULL};
  const void *nulls2[] = {NULL, NULL};
  struct ArrowArray a, b, c, item, root;
  struct ArrowArray *ck[] = {&item};
  foreign(&a, 0, 0, 0, 3, nulls3, 0, NULL);
  foreign(&b, 0, 0, 0, 2, nulls2, 0, NULL);
  foreign(&item, 0, 0, 0, 2, nulls2, 0, NULL);
  foreign(&c, 0, 0, 0, 2, nulls2, 1, ck);
  struct ArrowArray *kids[] = {&a, &b, &c};
  foreign(&root, 0, 0, 0, 1, nulls3, 3, kids);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &s, &root, &err), &err);
  CHECK_INT(v.length, 0);
  cp_array_view_reset(&v);
  cp_schema_release(&s);
}

/* One malformed import: init must fail with `code` and a message containing `want`. */
static void expect_bad(const char *spec, struct ArrowArray *a, int code, const char *want) {
  paimon_error err;
  struct ArrowSchema s;
  ts_schema(&s, spec);
  cp_array_view v;
  CHECK_ERR(cp_array_view_init(&v, &s, a, &err), code);
  CHECK_CONTAINS(err.message, want);
  CHECK(v.storage_ == NULL);
  cp_schema_release(&s);
}

static void test_malformed_primitives(void) {
  static const int32_t vals[] = {1, 2, 3, 4};
  static const uint8_t bits[] = {0x0b}; /* rows 0,1,3 valid */
  const void *ok[] = {bits, vals};
  const void *no_values[] = {NULL, NULL};
  const void *no_validity[] = {NULL, vals};
  struct ArrowArray a;
  foreign(&a, 4, 2, 0, 2, ok, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL,
             "column 'x': null_count is 2 but the validity bitmap has 1 nulls");
  foreign(&a, 4, 1, 0, 2, no_validity, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "column 'x': null_count is 1 but there is no validity");
  foreign(&a, 4, 0, 0, 2, no_values, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "column 'x': values buffer is NULL but 16 bytes");
  foreign(&a, 4, 0, 0, 3, ok, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "column 'x': int32 array has 3 buffers, expected 2");
  foreign(&a, 4, 0, 0, 2, NULL, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "buffers array is NULL");
  foreign(&a, -1, 0, 0, 2, ok, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "column 'x': bad length -1");
  foreign(&a, 1, 0, -3, 2, ok, 0, NULL);
  expect_bad("x=i", &a, PAIMON_EINVAL, "bad length 1 / offset -3");
  foreign(&a, 4, 0, 0, 2, ok, 0, NULL);
  expect_bad("x=q", &a, PAIMON_EINVAL, "column 'x': invalid Arrow format string 'q'");
  expect_bad("x=tDs", &a, PAIMON_EUNSUPPORTED, "duration");
  a.release = NULL;
  expect_bad("x=i", &a, PAIMON_EINVAL, "array is NULL or released");
  struct ArrowArray dict;
  foreign(&dict, 0, 0, 0, 0, NULL, 0, NULL);
  foreign(&a, 4, 0, 0, 2, ok, 0, NULL);
  a.dictionary = &dict;
  expect_bad("x=i", &a, PAIMON_EUNSUPPORTED, "dictionary-encoded arrays are not supported");
}

static void test_malformed_offsets(void) {
  static const int32_t bad_order[] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10};
  static const int32_t negative[] = {-1, 0, 1};
  const void *b1[] = {NULL, bad_order, "0123456789"};
  struct ArrowArray a;
  foreign(&a, 10, 0, 0, 3, b1, 0, NULL);
  expect_bad("=+s{s=u}", &a, PAIMON_EINVAL, "struct array has 3 buffers, expected 1");
  expect_bad("s=u", &a, PAIMON_EINVAL, "column 's': list/binary offsets not monotonic at index 8");
  const void *b2[] = {NULL, negative, "ab"};
  foreign(&a, 2, 0, 0, 3, b2, 0, NULL);
  expect_bad("s=z", &a, PAIMON_EINVAL, "column 's': negative first offset -1");
  static const int64_t large[] = {0, 5, 3};
  const void *b3[] = {NULL, large, "abcde"};
  foreign(&a, 2, 0, 0, 3, b3, 0, NULL);
  expect_bad("s=U", &a, PAIMON_EINVAL, "large offsets not monotonic at index 1");
  static const int32_t ok_off[] = {0, 2, 4};
  const void *b4[] = {NULL, ok_off, NULL};
  foreign(&a, 2, 0, 0, 3, b4, 0, NULL);
  expect_bad("s=u", &a, PAIMON_EINVAL, "data buffer is NULL but offsets reach 4");

  /* list offsets beyond the child array */
  static const int32_t child_vals[] = {1, 2, 3};
  static const int32_t list_off[] = {0, 2, 4};
  const void *cb[] = {NULL, child_vals};
  const void *lb[] = {NULL, list_off};
  struct ArrowArray child, list;
  struct ArrowArray *kids[] = {&child};
  foreign(&child, 3, 0, 0, 2, cb, 0, NULL);
  foreign(&list, 2, 0, 0, 2, lb, 1, kids);
  expect_bad("l=+l{item=i}", &list, PAIMON_EINVAL,
             "column 'l': last offset 4 is beyond the child array length (3)");
  foreign(&list, 2, 0, 0, 2, lb, 0, NULL);
  expect_bad("l=+l{item=i}", &list, PAIMON_EINVAL,
             "column 'l': array has 0 children but its schema has 1");
  struct ArrowArray *no_kid[] = {NULL};
  foreign(&list, 2, 0, 0, 2, lb, 1, no_kid);
  expect_bad("l=+l{item=i}", &list, PAIMON_EINVAL, "column 'l.item': child array is NULL");
  /* fixed-size list needs size * rows child values */
  const void *fb[] = {NULL};
  foreign(&list, 2, 0, 0, 1, fb, 1, kids);
  expect_bad("f=+w:2{item=i}", &list, PAIMON_EINVAL,
             "column 'f': fixed_size_list child has 3 values, 4 needed");
  /* a bad value deep inside: the path names it */
  static const int32_t inner_bad[] = {0, 3, 1};
  const void *ib[] = {NULL, inner_bad, "abc"};
  struct ArrowArray strs, root;
  struct ArrowArray *rk[] = {&strs};
  foreign(&strs, 2, 0, 0, 3, ib, 0, NULL);
  const void *rb[] = {NULL};
  foreign(&root, 2, 0, 0, 1, rb, 1, rk);
  expect_bad("=+s{outer=+s{name=u}}", &root, PAIMON_EINVAL,
             "column 'outer': struct array has 3 buffers, expected 1");
  struct ArrowArray outer;
  struct ArrowArray *ok_[] = {&outer};
  struct ArrowArray *ik[] = {&strs};
  foreign(&outer, 2, 0, 0, 1, rb, 1, ik);
  foreign(&root, 2, 0, 0, 1, rb, 1, ok_);
  expect_bad("=+s{outer=+s{name=u}}", &root, PAIMON_EINVAL,
             "column 'outer.name': list/binary offsets not monotonic at index 1");
}

/* Arrays made by this module know their buffer sizes, so short buffers are caught too. */
static void test_short_owned_buffers(void) {
  paimon_error err;
  struct ArrowArray a;
  void *p;
  CHECK_OK(cp_array_init(&a, 2, 0, &err), &err);
  CHECK_OK(cp_array_alloc_buffer(&a, 1, 12, &p, &err), &err); /* 3 int32, but 4 rows */
  a.length = 4;
  expect_bad("x=i", &a, PAIMON_EINVAL, "column 'x': values buffer has 12 bytes, 16 needed");
  cp_array_release(&a);

  CHECK_OK(cp_array_init(&a, 3, 0, &err), &err);
  int32_t *off;
  CHECK_OK(cp_array_alloc_buffer(&a, 1, 12, (void **)&off, &err), &err);
  off[0] = 0, off[1] = 3, off[2] = 7;
  CHECK_OK(cp_array_alloc_buffer(&a, 2, 5, &p, &err), &err);
  a.length = 2;
  expect_bad("x=u", &a, PAIMON_EINVAL, "last offset 7 is beyond the data buffer size (5)");
  a.offset = 1;
  expect_bad("x=u", &a, PAIMON_EINVAL, "offsets buffer has 12 bytes, 16 needed");
  cp_array_release(&a);

  CHECK_OK(cp_array_init(&a, 2, 0, &err), &err);
  CHECK_OK(cp_array_alloc_buffer(&a, 0, 1, &p, &err), &err);
  CHECK_OK(cp_array_alloc_buffer(&a, 1, 80, &p, &err), &err);
  a.length = 10;
  a.null_count = -1;
  expect_bad("x=l", &a, PAIMON_EINVAL, "validity buffer has 1 bytes, 2 needed");
  cp_array_release(&a);
}

int main(void) {
  RUN(test_valid_foreign_string);
  RUN(test_struct_offset_folding);
  RUN(test_empty_arrays_may_omit_buffers);
  RUN(test_malformed_primitives);
  RUN(test_malformed_offsets);
  RUN(test_short_owned_buffers);
  TEST_MAIN_END();
}
