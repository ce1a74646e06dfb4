/*
 * Tests for format/parquet/thrift.h: the Thrift compact protocol (spec/parquet.md §2.6).
 *
 * Expected bytes are worked out by hand from apache/thrift doc/specs/thrift-compact-protocol.md
 * (zigzag + ULEB128 varints, field header (delta << 4) | type, list header (size << 4) | type or
 * 0xF? + varint, map header varint size + (ktype << 4) | vtype, bool in the type nibble), not
 * taken from this code's output. Malformed inputs must fail with ECORRUPT and a message naming
 * the byte offset, never crash or allocate from a lying count.
 */
#include "format/parquet/thrift.h"

#include <stdint.h>

#include "test.h"

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

static bool bytes_equal(const cp_buf *b, const uint8_t *want, size_t n) {
  return b->len == n && memcmp(b->data, want, n) == 0;
}

/* Writes one i32/i64 value and compares with hand-computed zigzag varint bytes, then reads back. */
static void check_i64_bytes(int64_t v, const uint8_t *want, size_t n) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  CHECK_OK(cp_thrift_write_i64(&w, v, &err), &err);
  CHECK(bytes_equal(&b, want, n));
  cp_thrift_reader r;
  cp_thrift_reader_init(&r, want, n, 0);
  int64_t got = 0;
  CHECK_OK(cp_thrift_read_i64(&r, &got, &err), &err);
  CHECK(got == v);
  CHECK_INT(r.pos, n);
  cp_buf_free(&b);
}

static void test_varints_and_zigzag(void) {
  check_i64_bytes(0, BYTES(0x00));
  check_i64_bytes(-1, BYTES(0x01));
  check_i64_bytes(1, BYTES(0x02));
  check_i64_bytes(-2, BYTES(0x03));
  check_i64_bytes(63, BYTES(0x7e));
  check_i64_bytes(64, BYTES(0x80, 0x01));
  check_i64_bytes(-65, BYTES(0x81, 0x01));
  check_i64_bytes(150, BYTES(0xac, 0x02));
  check_i64_bytes(INT32_MAX, BYTES(0xfe, 0xff, 0xff, 0xff, 0x0f));
  check_i64_bytes(INT32_MIN, BYTES(0xff, 0xff, 0xff, 0xff, 0x0f));
  check_i64_bytes(INT64_MAX, BYTES(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
  check_i64_bytes(INT64_MIN, BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));

  /* i32 and i16 use the same wire form but must fit their width. */
  paimon_error err;
  cp_thrift_reader r;
  int32_t v32;
  cp_thrift_reader_init(&r, BYTES(0xff, 0xff, 0xff, 0xff, 0x0f), 0);
  CHECK_OK(cp_thrift_read_i32(&r, &v32, &err), &err);
  CHECK_INT(v32, INT32_MIN);
  cp_thrift_reader_init(&r, BYTES(0x80, 0x80, 0x80, 0x80, 0x10), 100);
  CHECK_ERR(cp_thrift_read_i32(&r, &v32, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "does not fit in 32 bits");
  CHECK_CONTAINS(err.message, "at byte 100");
  int16_t v16;
  cp_thrift_reader_init(&r, BYTES(0xfe, 0xff, 0x03), 0);
  CHECK_OK(cp_thrift_read_i16(&r, &v16, &err), &err);
  CHECK_INT(v16, INT16_MAX);
  cp_thrift_reader_init(&r, BYTES(0x80, 0x80, 0x04), 0);
  CHECK_ERR(cp_thrift_read_i16(&r, &v16, &err), PAIMON_ECORRUPT);
  int8_t v8;
  cp_thrift_reader_init(&r, BYTES(0xfb), 0);
  CHECK_OK(cp_thrift_read_i8(&r, &v8, &err), &err);
  CHECK_INT(v8, -5);
}

static void test_malformed_varints(void) {
  paimon_error err;
  cp_thrift_reader r;
  int64_t v;
  /* Truncated: continuation bit set on the last byte. */
  cp_thrift_reader_init(&r, BYTES(0x80, 0x80), 40);
  CHECK_ERR(cp_thrift_read_i64(&r, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "input ends inside the varint");
  CHECK_CONTAINS(err.message, "at byte 40");
  CHECK(r.truncated);
  /* Empty input. */
  cp_thrift_reader_init(&r, NULL, 0, 0);
  CHECK_ERR(cp_thrift_read_i64(&r, &v, &err), PAIMON_ECORRUPT);
  /* Eleven bytes. */
  cp_thrift_reader_init(&r, BYTES(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00),
                        0);
  CHECK_ERR(cp_thrift_read_i64(&r, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "longer than 10 bytes");
  /* Ten bytes whose last one sets bits beyond 64. */
  cp_thrift_reader_init(&r, BYTES(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02), 0);
  CHECK_ERR(cp_thrift_read_i64(&r, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "overflows 64 bits");
}

static void test_double_binary_uuid(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  CHECK_OK(cp_thrift_write_double(&w, 1.0, &err), &err);
  /* 1.0 = 0x3FF0000000000000, little-endian on the wire. */
  CHECK(bytes_equal(&b, BYTES(0, 0, 0, 0, 0, 0, 0xf0, 0x3f)));
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_binary(&w, "abc", 3, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0x03, 'a', 'b', 'c')));
  uint8_t u[16];
  for (int i = 0; i < 16; i++) u[i] = (uint8_t)i;
  CHECK_OK(cp_thrift_write_uuid(&w, u, &err), &err);
  CHECK_INT(b.len, 4 + 16);

  cp_thrift_reader r;
  cp_thrift_reader_init(&r, BYTES(0, 0, 0, 0, 0, 0, 0xf0, 0xbf), 0);
  double d;
  CHECK_OK(cp_thrift_read_double(&r, &d, &err), &err);
  CHECK(d == -1.0);
  cp_thrift_reader_init(&r, b.data, b.len, 0);
  const uint8_t *p;
  uint32_t n;
  CHECK_OK(cp_thrift_read_binary(&r, &p, &n, &err), &err);
  CHECK_INT(n, 3);
  CHECK(memcmp(p, "abc", 3) == 0);
  CHECK(p == b.data + 1); /* borrowed, not copied */
  uint8_t got[16];
  CHECK_OK(cp_thrift_read_uuid(&r, got, &err), &err);
  CHECK(memcmp(got, u, 16) == 0);
  CHECK_ERR(cp_thrift_read_uuid(&r, got, &err), PAIMON_ECORRUPT);
  cp_buf_free(&b);
}

static void test_malformed_binary(void) {
  paimon_error err;
  cp_thrift_reader r;
  const uint8_t *p;
  uint32_t n;
  /* Length 5 with 2 bytes left. */
  cp_thrift_reader_init(&r, BYTES(0x05, 'a', 'b'), 1000);
  CHECK_ERR(cp_thrift_read_binary(&r, &p, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "binary length 5 exceeds the 2 bytes left");
  CHECK_CONTAINS(err.message, "at byte 1000");
  /* A "negative" length: libthrift reads the varint 0xFFFFFFFF as i32 -1. */
  cp_thrift_reader_init(&r, BYTES(0xff, 0xff, 0xff, 0xff, 0x0f, 'x'), 0);
  CHECK_ERR(cp_thrift_read_binary(&r, &p, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "negative or larger than 2^31-1");
  /* Truncated double. */
  double d;
  cp_thrift_reader_init(&r, BYTES(1, 2, 3), 0);
  CHECK_ERR(cp_thrift_read_double(&r, &d, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "needs 8 bytes, 3 left");
}

/* struct { 1: i32 = 1, 3: bool true, 20: binary "x", 21: struct { 1: bool false }, 22: i64 -1 } */
static const uint8_t k_struct_bytes[] = {
    0x15, 0x02,            /* delta 1, i32, zigzag(1) = 2 */
    0x21,                  /* delta 2, BOOL_TRUE */
    0x08, 0x28, 0x01, 'x', /* long form: type binary, id zigzag(20) = 40, len 1 */
    0x1c,                  /* delta 1 (id 21), struct */
    0x12,                  /* inner: delta 1 from 0, BOOL_FALSE */
    0x00,                  /* inner STOP */
    0x16, 0x01,            /* delta 1 (id 22) from the outer 21: i64 zigzag(-1) = 1 */
    0x00};

static void test_struct_fields_and_bools(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  CHECK_OK(cp_thrift_write_struct_begin(&w, &err), &err);
  CHECK_OK(cp_thrift_write_field_i32(&w, 1, 1, &err), &err);
  CHECK_OK(cp_thrift_write_field_bool(&w, 3, true, &err), &err);
  CHECK_OK(cp_thrift_write_field_string(&w, 20, "x", &err), &err);
  CHECK_OK(cp_thrift_write_field(&w, CP_THRIFT_STRUCT, 21, &err), &err);
  CHECK_OK(cp_thrift_write_struct_begin(&w, &err), &err);
  CHECK_OK(cp_thrift_write_field_bool(&w, 1, false, &err), &err);
  CHECK_OK(cp_thrift_write_struct_end(&w, &err), &err);
  CHECK_OK(cp_thrift_write_field_i64(&w, 22, -1, &err), &err);
  CHECK_OK(cp_thrift_write_struct_end(&w, &err), &err);
  CHECK(bytes_equal(&b, k_struct_bytes, sizeof k_struct_bytes));

  cp_thrift_reader r;
  cp_thrift_reader_init(&r, k_struct_bytes, sizeof k_struct_bytes, 0);
  cp_thrift_field f;
  int32_t i32;
  int64_t i64;
  bool bv;
  const uint8_t *p;
  uint32_t n;
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 1 && f.type == CP_THRIFT_I32);
  CHECK_OK(cp_thrift_read_i32(&r, &i32, &err), &err);
  CHECK_INT(i32, 1);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 3 && f.type == CP_THRIFT_BOOL_TRUE);
  CHECK_OK(cp_thrift_field_expect(&r, &f, CP_THRIFT_BOOL, "flag", &err), &err);
  CHECK_OK(cp_thrift_read_bool(&r, &bv, &err), &err);
  CHECK(bv == true);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 20 && f.type == CP_THRIFT_BINARY);
  CHECK_OK(cp_thrift_read_binary(&r, &p, &n, &err), &err);
  CHECK(n == 1 && p[0] == 'x');
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 21 && f.type == CP_THRIFT_STRUCT);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 1 && f.type == CP_THRIFT_BOOL_FALSE);
  CHECK_OK(cp_thrift_read_bool(&r, &bv, &err), &err);
  CHECK(bv == false);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.type == CP_THRIFT_STOP);
  CHECK_OK(cp_thrift_struct_end(&r, &err), &err);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.id == 22 && f.type == CP_THRIFT_I64); /* the outer delta resumed from 21 */
  CHECK_ERR(cp_thrift_field_expect(&r, &f, CP_THRIFT_I32, "count", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "count (field 22) has type i64, expected i32");
  CHECK_OK(cp_thrift_read_i64(&r, &i64, &err), &err);
  CHECK(i64 == -1);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK(f.type == CP_THRIFT_STOP);
  CHECK_OK(cp_thrift_struct_end(&r, &err), &err);
  CHECK_INT(r.pos, sizeof k_struct_bytes);

  /* The whole struct can be skipped in one call. */
  cp_thrift_reader_init(&r, k_struct_bytes, sizeof k_struct_bytes, 0);
  CHECK_OK(cp_thrift_skip(&r, CP_THRIFT_STRUCT, &err), &err);
  CHECK_INT(r.pos, sizeof k_struct_bytes);
  CHECK_INT(r.depth, 0);
  cp_buf_free(&b);
}

static void test_writer_field_order_and_ids(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  CHECK_ERR(cp_thrift_write_field_i32(&w, 1, 0, &err), PAIMON_EINVAL); /* outside a struct */
  CHECK_OK(cp_thrift_write_struct_begin(&w, &err), &err);
  CHECK_OK(cp_thrift_write_field_i32(&w, 15, 0, &err), &err); /* delta 15: short form */
  CHECK_OK(cp_thrift_write_field_i32(&w, 31, 0, &err), &err); /* delta 16: long form */
  CHECK_OK(cp_thrift_write_field_i32(&w, 300, 0, &err), &err);
  CHECK_ERR(cp_thrift_write_field_i32(&w, 300, 0, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field 300 written after field 300");
  CHECK_ERR(cp_thrift_write_field_i32(&w, 2, 0, &err), PAIMON_EINVAL);
  CHECK_OK(cp_thrift_write_struct_end(&w, &err), &err);
  CHECK_ERR(cp_thrift_write_struct_end(&w, &err), PAIMON_EINVAL);
  /* 0xf5 00 | 05 3e 00 | 05 d8 04 00 | 00 */
  CHECK(bytes_equal(&b, BYTES(0xf5, 0x00, 0x05, 0x3e, 0x00, 0x05, 0xd8, 0x04, 0x00, 0x00)));

  cp_thrift_reader r;
  cp_thrift_reader_init(&r, b.data, b.len, 0);
  cp_thrift_field f;
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  int16_t ids[3];
  for (int i = 0; i < 3; i++) {
    CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
    ids[i] = f.id;
    CHECK_OK(cp_thrift_skip(&r, f.type, &err), &err);
  }
  CHECK(ids[0] == 15 && ids[1] == 31 && ids[2] == 300);
  cp_buf_free(&b);

  /* Negative ids only come in the long form; a reader accepts them (and callers skip them). */
  cp_thrift_reader_init(&r, BYTES(0x05, 0x01, 0x02, 0x00), 0);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK_INT(f.id, -1);
}

static void test_lists_sets_maps(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  CHECK_OK(cp_thrift_write_list_begin(&w, CP_THRIFT_I32, 3, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0x35)));
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_list_begin(&w, CP_THRIFT_BINARY, 14, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0xe8)));
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_list_begin(&w, CP_THRIFT_STRUCT, 15, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0xfc, 0x0f)));
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_list_begin(&w, CP_THRIFT_BOOL_FALSE, 2, &err), &err);
  CHECK_OK(cp_thrift_write_bool(&w, true, &err), &err);
  CHECK_OK(cp_thrift_write_bool(&w, false, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0x21, 0x01, 0x02))); /* element type written as 1, values 1/2 */
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_map_begin(&w, CP_THRIFT_BINARY, CP_THRIFT_I64, 0, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0x00)));
  cp_buf_clear(&b);
  CHECK_OK(cp_thrift_write_map_begin(&w, CP_THRIFT_BINARY, CP_THRIFT_I64, 2, &err), &err);
  CHECK(bytes_equal(&b, BYTES(0x02, 0x86)));
  cp_buf_free(&b);

  cp_thrift_reader r;
  uint8_t et, kt, vt;
  uint32_t n;
  /* Long-form list of 20 i8. */
  uint8_t longlist[22] = {0xf3, 20};
  cp_thrift_reader_init(&r, longlist, sizeof longlist, 0);
  CHECK_OK(cp_thrift_list_begin(&r, &et, &n, &err), &err);
  CHECK(et == CP_THRIFT_I8 && n == 20);
  /* Bool list elements: 1 is true, 2 (libthrift) and 0 (spec text) are false. */
  cp_thrift_reader_init(&r, BYTES(0x32, 0x01, 0x02, 0x00), 0);
  CHECK_OK(cp_thrift_list_begin(&r, &et, &n, &err), &err);
  CHECK(n == 3);
  bool v[3];
  for (int i = 0; i < 3; i++) CHECK_OK(cp_thrift_read_bool(&r, &v[i], &err), &err);
  CHECK(v[0] && !v[1] && !v[2]);
  /* Map string -> i64 with 2 entries. */
  cp_thrift_reader_init(&r, BYTES(0x02, 0x86, 0x01, 'a', 0x02, 0x01, 'b', 0x04), 0);
  CHECK_OK(cp_thrift_map_begin(&r, &kt, &vt, &n, &err), &err);
  CHECK(n == 2 && kt == CP_THRIFT_BINARY && vt == CP_THRIFT_I64);
  cp_thrift_reader_init(&r, BYTES(0x02, 0x86, 0x01, 'a', 0x02, 0x01, 'b', 0x04), 0);
  CHECK_OK(cp_thrift_skip(&r, CP_THRIFT_MAP, &err), &err);
  CHECK_INT(r.pos, 8);
  /* A set skips like a list; a list of doubles needs 8 bytes each. */
  cp_thrift_reader_init(&r, BYTES(0x17, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f), 0);
  CHECK_OK(cp_thrift_skip(&r, CP_THRIFT_SET, &err), &err);
  CHECK_INT(r.pos, 9);
}

static void test_lying_counts(void) {
  paimon_error err;
  cp_thrift_reader r;
  uint8_t et, kt, vt;
  uint32_t n;
  /* 2^31-1 structs claimed in 6 bytes: refused before anyone allocates. */
  cp_thrift_reader_init(&r, BYTES(0xfc, 0xff, 0xff, 0xff, 0xff, 0x07), 7);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "list of 2147483647 struct elements cannot fit in the 0 bytes left");
  CHECK_CONTAINS(err.message, "at byte 7");
  /* A size that libthrift would read as negative. */
  cp_thrift_reader_init(&r, BYTES(0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f), 0);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "negative or larger than 2^31-1");
  /* Short form: 3 doubles need 24 bytes, 8 given. */
  cp_thrift_reader_init(&r, BYTES(0x37, 0, 0, 0, 0, 0, 0, 0, 0), 0);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  /* Invalid element type 0 and 14. */
  cp_thrift_reader_init(&r, BYTES(0x10, 0x00), 0);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "invalid element type 0");
  cp_thrift_reader_init(&r, BYTES(0x1e, 0x00), 0);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  /* Map claiming 1000 entries in 3 bytes; map with invalid key type. */
  cp_thrift_reader_init(&r, BYTES(0xe8, 0x07, 0x88, 0x00, 0x00), 0);
  CHECK_ERR(cp_thrift_map_begin(&r, &kt, &vt, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "map of 1000 entries cannot fit");
  cp_thrift_reader_init(&r, BYTES(0x01, 0xf8, 0x00, 0x00), 0);
  CHECK_ERR(cp_thrift_map_begin(&r, &kt, &vt, &n, &err), PAIMON_ECORRUPT);
  /* Truncated list header. */
  cp_thrift_reader_init(&r, NULL, 0, 0);
  CHECK_ERR(cp_thrift_list_begin(&r, &et, &n, &err), PAIMON_ECORRUPT);
  CHECK(r.truncated);
}

static void test_bad_field_headers(void) {
  paimon_error err;
  cp_thrift_reader r;
  cp_thrift_field f;
  /* Type nibble 0 with a delta: not STOP, not a type. */
  cp_thrift_reader_init(&r, BYTES(0x10), 5);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_ERR(cp_thrift_field_next(&r, &f, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "invalid type code 0");
  CHECK_CONTAINS(err.message, "at byte 5");
  /* Type 14/15 are not Thrift types. */
  cp_thrift_reader_init(&r, BYTES(0x1f), 0);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_ERR(cp_thrift_field_next(&r, &f, &err), PAIMON_ECORRUPT);
  /* Long-form id not fitting i16. */
  cp_thrift_reader_init(&r, BYTES(0x05, 0x80, 0x80, 0x04), 0);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_ERR(cp_thrift_field_next(&r, &f, &err), PAIMON_ECORRUPT);
  /* Delta pushing the id past 32767. */
  cp_thrift_reader_init(&r, BYTES(0x05, 0xfe, 0xff, 0x03, 0x00, 0x15, 0x00), 0);
  CHECK_OK(cp_thrift_struct_begin(&r, &err), &err);
  CHECK_OK(cp_thrift_field_next(&r, &f, &err), &err);
  CHECK_INT(f.id, 32767);
  CHECK_OK(cp_thrift_skip(&r, f.type, &err), &err);
  CHECK_ERR(cp_thrift_field_next(&r, &f, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "exceeds 32767");
  /* Missing STOP: the input just ends. */
  cp_thrift_reader_init(&r, BYTES(0x15, 0x02), 0);
  CHECK_ERR(cp_thrift_skip(&r, CP_THRIFT_STRUCT, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "input ends inside a field header");
  CHECK(r.truncated);
  /* Reading a field outside a struct is a caller bug. */
  cp_thrift_reader_init(&r, BYTES(0x15, 0x02), 0);
  CHECK_ERR(cp_thrift_field_next(&r, &f, &err), PAIMON_EINVAL);
  /* Skip of an invalid type. */
  CHECK_ERR(cp_thrift_skip(&r, 14, &err), PAIMON_ECORRUPT);
}

static void test_deep_nesting(void) {
  paimon_error err;
  enum { N = 1000 };
  uint8_t deep[N];
  cp_thrift_reader r;
  /* 1000 nested structs: field 1 of type struct, again and again. */
  memset(deep, 0x1c, sizeof deep);
  cp_thrift_reader_init(&r, deep, sizeof deep, 0);
  CHECK_ERR(cp_thrift_skip(&r, CP_THRIFT_STRUCT, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 64");
  /* 1000 nested lists of one list each. */
  memset(deep, 0x19, sizeof deep);
  cp_thrift_reader_init(&r, deep, sizeof deep, 0);
  CHECK_ERR(cp_thrift_skip(&r, CP_THRIFT_LIST, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 64");
  /* Maps of maps: size 1, key i8 value map. */
  for (int i = 0; i + 3 <= N; i += 3) {
    deep[i] = 0x01;
    deep[i + 1] = 0x3b;
    deep[i + 2] = 0x00;
  }
  cp_thrift_reader_init(&r, deep, sizeof deep, 0);
  CHECK_ERR(cp_thrift_skip(&r, CP_THRIFT_MAP, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 64");
  /* 63 levels are fine (plus the outermost = 64). */
  uint8_t ok[64 + 64];
  size_t n = 0;
  for (int i = 0; i < 63; i++) ok[n++] = 0x1c;
  for (int i = 0; i < 64; i++) ok[n++] = 0x00;
  cp_thrift_reader_init(&r, ok, n, 0);
  CHECK_OK(cp_thrift_skip(&r, CP_THRIFT_STRUCT, &err), &err);
  CHECK_INT(r.pos, n);
  /* The writer refuses to go deeper too. */
  cp_buf b = CP_BUF_INIT;
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, &b);
  int rc = 0;
  for (int i = 0; i < 65 && rc == 0; i++) rc = cp_thrift_write_struct_begin(&w, &err);
  CHECK_INT(rc, PAIMON_EINVAL);
  cp_buf_free(&b);
}

/* Every prefix of a valid message must fail cleanly (and flag truncation), never read past it. */
static void test_every_truncation(void) {
  paimon_error err;
  for (size_t len = 0; len < sizeof k_struct_bytes; len++) {
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, k_struct_bytes, len);
    cp_thrift_reader r;
    cp_thrift_reader_init(&r, copy, len, 0);
    CHECK_ERR(cp_thrift_skip(&r, CP_THRIFT_STRUCT, &err), PAIMON_ECORRUPT);
    CHECK(r.truncated);
    free(copy);
  }
}

static void test_type_names(void) {
  CHECK_STR(cp_thrift_type_name(CP_THRIFT_BOOL_FALSE), "bool");
  CHECK_STR(cp_thrift_type_name(CP_THRIFT_UUID), "uuid");
  CHECK_STR(cp_thrift_type_name(99), "invalid");
}

int main(void) {
  RUN(test_varints_and_zigzag);
  RUN(test_malformed_varints);
  RUN(test_double_binary_uuid);
  RUN(test_malformed_binary);
  RUN(test_struct_fields_and_bools);
  RUN(test_writer_field_order_and_ids);
  RUN(test_lists_sets_maps);
  RUN(test_lying_counts);
  RUN(test_bad_field_headers);
  RUN(test_deep_nesting);
  RUN(test_every_truncation);
  RUN(test_type_names);
  TEST_MAIN_END();
}
