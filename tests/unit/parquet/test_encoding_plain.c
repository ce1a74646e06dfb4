/*
 * Tests of PLAIN and BYTE_STREAM_SPLIT (encoding_plain.c). Byte vectors are hand-computed from
 * spec/parquet.md §2.7 and parquet-format Encodings.md (the three-float BYTE_STREAM_SPLIT example).
 */
#include <math.h>

#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

static void test_plain_fixed_bytes(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  int32_t i32[2] = {1, -2};
  CHECK_OK(cp_pq_plain_encode_fixed(&b, i32, 2, 4, &err), &err);
  CHECK_HEX(b.data, b.len, "01000000 feffffff");
  b.len = 0;
  int64_t i64 = INT64_MIN;
  CHECK_OK(cp_pq_plain_encode_fixed(&b, &i64, 1, 8, &err), &err);
  CHECK_HEX(b.data, b.len, "0000000000000080");
  b.len = 0;
  float f = 1.0f;  /* IEEE 754: 0x3f800000, little-endian */
  double d = -2.0; /* 0xc000000000000000 */
  CHECK_OK(cp_pq_plain_encode_fixed(&b, &f, 1, 4, &err), &err);
  CHECK_OK(cp_pq_plain_encode_fixed(&b, &d, 1, 8, &err), &err);
  CHECK_HEX(b.data, b.len, "0000803f 00000000000000c0");
  /* Decoding reads them back and says how much it used. */
  float f2;
  double d2;
  size_t used = 0;
  CHECK_OK(cp_pq_plain_decode_fixed(&f2, 1, &used, b.data, b.len, 4, &err), &err);
  CHECK_INT(used, 4);
  CHECK_OK(cp_pq_plain_decode_fixed(&d2, 1, &used, b.data + 4, b.len - 4, 8, &err), &err);
  CHECK(f2 == 1.0f && d2 == -2.0);
  /* INT96 (12 bytes) and FLBA(3) are opaque bytes. */
  uint8_t i96[24], back[24];
  for (int i = 0; i < 24; i++) i96[i] = (uint8_t)(i * 7);
  b.len = 0;
  CHECK_OK(cp_pq_plain_encode_fixed(&b, i96, 2, 12, &err), &err);
  CHECK_OK(cp_pq_plain_decode_fixed(back, 2, &used, b.data, b.len, 12, &err), &err);
  CHECK_MEM(back, i96, 24);
  CHECK_OK(cp_pq_plain_decode_fixed(back, 8, &used, b.data, b.len, 3, &err), &err);
  CHECK_MEM(back, i96, 24);
  /* Too few bytes, and a count whose byte size overflows. */
  CHECK_ERR(cp_pq_plain_decode_fixed(back, 3, &used, b.data, b.len, 12, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "3 values of 12 bytes need 36 bytes but only 24 remain");
  CHECK_ERR(cp_pq_plain_decode_fixed(back, SIZE_MAX / 2, &used, b.data, b.len, 8, &err),
            PAIMON_ECORRUPT);
  cp_buf_free(&b);
}

/* Booleans: LSB first; 1,0,1,1,0,0,0,1 | 1 → 0x8d 0x01. */
static void test_plain_bool(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  uint8_t v[9] = {1, 0, 1, 1, 0, 0, 0, 1, 1};
  size_t bits = 0;
  CHECK_OK(cp_pq_plain_encode_bool(&b, &bits, v, 9, &err), &err);
  CHECK_HEX(b.data, b.len, "8d 01");
  CHECK_INT(bits, 9);
  /* Appending in pieces gives the same bytes as one call. */
  cp_buf c = CP_BUF_INIT;
  bits = 0;
  CHECK_OK(cp_pq_plain_encode_bool(&c, &bits, v, 3, &err), &err);
  CHECK_OK(cp_pq_plain_encode_bool(&c, &bits, v + 3, 0, &err), &err);
  CHECK_OK(cp_pq_plain_encode_bool(&c, &bits, v + 3, 6, &err), &err);
  CHECK_HEX(c.data, c.len, "8d 01");
  uint8_t out[9];
  CHECK_OK(cp_pq_plain_decode_bool(out, 9, b.data, b.len, 0, &err), &err);
  CHECK_MEM(out, v, 9);
  CHECK_OK(cp_pq_plain_decode_bool(out, 5, b.data, b.len, 4, &err), &err);
  CHECK_MEM(out, v + 4, 5);
  CHECK_ERR(cp_pq_plain_decode_bool(out, 9, b.data, 1, 0, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_pq_plain_decode_bool(out, 2, b.data, b.len, SIZE_MAX, &err), PAIMON_ECORRUPT);
  /* Random round trips from every start offset. */
  test_rng r = {3};
  for (size_t si = 0; si < N_TEST_SIZES; si++) {
    size_t n = TEST_SIZES[si];
    uint8_t *x = xmalloc(n), *y = xmalloc(n);
    for (size_t i = 0; i < n; i++) x[i] = (uint8_t)rng_below(&r, 2);
    cp_buf e = CP_BUF_INIT;
    bits = 0;
    CHECK_OK(cp_pq_plain_encode_bool(&e, &bits, x, n, &err), &err);
    CHECK_INT(e.len, (n + 7) / 8);
    for (size_t first = 0; first <= n && first < 20; first++) {
      CHECK_OK(cp_pq_plain_decode_bool(y, n - first, e.data, e.len, first, &err), &err);
      CHECK_MEM(y, x + first, n - first);
    }
    cp_buf_free(&e);
    free(x);
    free(y);
  }
  cp_buf_free(&b);
  cp_buf_free(&c);
}

static void test_plain_binary(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  const uint8_t data[] = "abxyz";
  int32_t offs[4] = {0, 2, 2, 5}; /* "ab", "", "xyz" */
  CHECK_OK(cp_pq_plain_encode_binary(&b, offs, data, 3, &err), &err);
  CHECK_HEX(b.data, b.len, "02000000 6162 00000000 03000000 78797a");
  /* Decoding appends to a buffer that already holds bytes: offsets continue from there. */
  cp_buf vals = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&vals, "QQ", 2, &err), &err);
  int32_t got[4];
  size_t used = 0;
  CHECK_OK(cp_pq_plain_decode_binary(got, &vals, 3, &used, b.data, b.len, &err), &err);
  CHECK_INT(used, b.len);
  CHECK_INT(got[0], 2);
  CHECK_INT(got[1], 4);
  CHECK_INT(got[2], 4);
  CHECK_INT(got[3], 7);
  CHECK_INT(vals.len, 7);
  CHECK(memcmp(vals.data, "QQabxyz", 7) == 0);
  /* Only empty values: no bytes, offsets all equal. */
  uint8_t empties[8] = {0};
  cp_buf ev = CP_BUF_INIT;
  CHECK_OK(cp_pq_plain_decode_binary(got, &ev, 2, &used, empties, 8, &err), &err);
  CHECK_INT(got[2], 0);
  CHECK_INT(used, 8);
  /* A length past the end, a truncated length; the message gives value index and byte. */
  CHECK_ERR(cp_pq_plain_decode_binary(got, &vals, 3, &used, b.data, b.len - 1, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 2 at byte 10 has length 3");
  CHECK_ERR(cp_pq_plain_decode_binary(got, &vals, 3, &used, b.data, 12, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "length of value 2 at byte 10 is truncated");
  uint8_t huge[6];
  hex_bytes(huge, sizeof huge, "ffffffff 0102");
  CHECK_ERR(cp_pq_plain_decode_binary(got, &vals, 1, &used, huge, 6, &err), PAIMON_ECORRUPT);
  CHECK_INT(vals.len, 7); /* failures leave the output as it was */
  cp_buf_free(&b);
  cp_buf_free(&vals);
  cp_buf_free(&ev);
}

/* Encodings.md: AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6 → AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6. */
static void test_bss_spec_example(void) {
  paimon_error err;
  uint8_t vals[12];
  hex_bytes(vals, sizeof vals, "AABBCCDD 00112233 A3B4C5D6");
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_bss_encode(&b, vals, 3, 4, &err), &err);
  CHECK_HEX(b.data, b.len, "AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6");
  uint8_t out[12];
  CHECK_OK(cp_pq_bss_decode(out, 3, b.data, b.len, 4, 0, &err), &err);
  CHECK_MEM(out, vals, 12);
  CHECK_OK(cp_pq_bss_decode(out, 2, b.data, b.len, 4, 1, &err), &err);
  CHECK_MEM(out, vals + 4, 8);
  /* The same 12 bytes as two 6-byte FLBA values or one 12-byte value. */
  CHECK_OK(cp_pq_bss_decode(out, 1, b.data, b.len, 12, 0, &err), &err);
  CHECK_MEM(out, b.data, 12);
  CHECK_ERR(cp_pq_bss_decode(out, 1, b.data, 11, 4, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "11 bytes are not a whole number of 4-byte values");
  CHECK_ERR(cp_pq_bss_decode(out, 3, b.data, b.len, 4, 1, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_pq_bss_decode(out, 1, b.data, b.len, 0, 0, &err), PAIMON_ECORRUPT);
  cp_buf_free(&b);
}

static void test_bss_round_trip(void) {
  paimon_error err;
  test_rng r = {11};
  const size_t widths[] = {1, 2, 3, 4, 8, 12, 16};
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
    for (size_t si = 0; si < N_TEST_SIZES; si++) {
      size_t w = widths[wi], n = TEST_SIZES[si];
      uint8_t *v = xmalloc(n * w), *o = xmalloc(n * w);
      for (size_t i = 0; i < n * w; i++) v[i] = (uint8_t)rng_next(&r);
      cp_buf b = CP_BUF_INIT;
      CHECK_OK(cp_pq_bss_encode(&b, v, n, w, &err), &err);
      CHECK_INT(b.len, n * w);
      /* Stream j holds byte j of every value. */
      size_t bad = 0;
      for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < w; j++) bad += b.data[j * n + i] != v[i * w + j];
      CHECK_INT(bad, 0);
      CHECK_OK(cp_pq_bss_decode(o, n, b.data, b.len, w, 0, &err), &err);
      CHECK_MEM(o, v, n * w);
      if (n > 3) {
        CHECK_OK(cp_pq_bss_decode(o, n - 3, b.data, b.len, w, 3, &err), &err);
        CHECK_MEM(o, v + 3 * w, (n - 3) * w);
      }
      cp_buf_free(&b);
      free(v);
      free(o);
    }
  }
}

static void test_binary_to_fixed(void) {
  paimon_error err;
  const uint8_t data[] = "abcdef";
  int32_t offs[3] = {0, 3, 6};
  uint8_t out[6];
  CHECK_OK(cp_pq_binary_to_fixed(out, offs, data, 2, 3, &err), &err);
  CHECK(memcmp(out, "abcdef", 6) == 0);
  int32_t bad[3] = {0, 2, 6};
  CHECK_ERR(cp_pq_binary_to_fixed(out, bad, data, 2, 3, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 0 has 2 bytes, expected 3");
}

int main(void) {
  RUN(test_plain_fixed_bytes);
  RUN(test_plain_bool);
  RUN(test_plain_binary);
  RUN(test_bss_spec_example);
  RUN(test_bss_round_trip);
  RUN(test_binary_to_fixed);
  TEST_MAIN_END();
}
