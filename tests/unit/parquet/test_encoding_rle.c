/*
 * Tests of the RLE / bit-packing hybrid and what uses it (encoding_rle.c, encoding_bitpack.c):
 * levels, dictionary indices, RLE booleans. Byte vectors are hand-computed from
 * spec/parquet.md §2.7 and §3.2 and parquet-format Encodings.md (the 0..7 at width 3 example);
 * the working is in the comments.
 */
#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

/* Encodings.md: 0..7 at bit width 3 bit-packed are 10001000 11000110 11111010 = 88 c6 fa. */
static void test_spec_bitpacked_example(void) {
  uint8_t in[8];
  size_t n = hex_bytes(in, sizeof in, "03 88 c6 fa"); /* header: 1 group, bit-packed */
  cp_pq_rle_decoder d;
  paimon_error err;
  int32_t out[8];
  CHECK_OK(cp_pq_rle_decoder_init(&d, in, n, 3, "test", &err), &err);
  CHECK_OK(cp_pq_rle_decode_i32(&d, out, 8, &err), &err);
  for (int i = 0; i < 8; i++) CHECK_INT(out[i], i);

  int32_t vals[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_rle_encode_i32(&b, vals, 8, 3, &err), &err);
  CHECK_HEX(b.data, b.len, "03 88 c6 fa");
  cp_buf_free(&b);
}

/* spec/parquet.md §3.2: v1 levels of ARRAY<FLOAT> rows [1,2], NULL, [], [NULL,3], [4]. */
static void test_spec_levels_example(void) {
  uint8_t page[32];
  size_t n = hex_bytes(page, sizeof page, "02000000 03 22  03000000 03 4f 3e");
  int16_t rep[7], def[7];
  size_t used = 0, used2 = 0;
  paimon_error err;
  CHECK_OK(cp_pq_levels_decode(rep, 7, &used, page, n, 1, 1, "repetition levels", &err), &err);
  CHECK_INT(used, 6);
  CHECK_OK(
      cp_pq_levels_decode(def, 7, &used2, page + used, n - used, 3, 1, "definition levels", &err),
      &err);
  CHECK_INT(used2, 7);
  const int16_t want_rep[7] = {0, 1, 0, 0, 0, 1, 0}, want_def[7] = {3, 3, 0, 1, 2, 3, 3};
  CHECK_MEM(rep, want_rep, sizeof rep);
  CHECK_MEM(def, want_def, sizeof def);
  CHECK_INT(cp_pq_count_level(def, 7, 3), 4);
  CHECK_INT(cp_pq_count_level(def, 7, 0), 1);

  /* Level 3 does not fit a maximum of 2: the decoder refuses it. */
  CHECK_ERR(cp_pq_levels_decode(def, 7, &used2, page + 6, n - 6, 2, 1, "definition levels", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 3 at index 0 exceeds the maximum 2");
}

/* Hand-encoded outputs of the encoder heuristic. */
static void test_encoder_bytes(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  /* 8 repeats: RLE run, header 8<<1 = 0x10, value in 1 byte. */
  int32_t eight[8] = {5, 5, 5, 5, 5, 5, 5, 5};
  CHECK_OK(cp_pq_rle_encode_i32(&b, eight, 8, 3, &err), &err);
  CHECK_HEX(b.data, b.len, "10 05");
  /* 1,2,3 at width 2: one padded group: 1 | 2<<2 | 3<<4 = 0x39, then 0x00. */
  b.len = 0;
  int32_t three[3] = {1, 2, 3};
  CHECK_OK(cp_pq_rle_encode_i32(&b, three, 3, 2, &err), &err);
  CHECK_HEX(b.data, b.len, "03 39 00");
  /* 1,2,3 then 13 sevens at width 3: five sevens complete the group (bits: 001 010 011 111×5 →
   * d1 fe ff), the 8 left become an RLE run (10 07). */
  int32_t mixed[16] = {1, 2, 3, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};
  b.len = 0;
  CHECK_OK(cp_pq_rle_encode_i32(&b, mixed, 16, 3, &err), &err);
  CHECK_HEX(b.data, b.len, "03 d1 fe ff 10 07");
  /* With only 12 sevens the run cannot reach 8 after lending 5: all 15 values bit-packed. */
  b.len = 0;
  CHECK_OK(cp_pq_rle_encode_i32(&b, mixed, 15, 3, &err), &err);
  CHECK_INT(b.len, 1 + 2 * 3);
  CHECK_INT(b.data[0], 0x05);
  /* A 16-bit RLE value takes 2 little-endian bytes; 300 repeats: header 600 = d8 04. */
  int16_t lv[300];
  for (int i = 0; i < 300; i++) lv[i] = 0x1234;
  b.len = 0;
  CHECK_OK(cp_pq_rle_encode_i16(&b, lv, 300, 13, &err), &err);
  CHECK_HEX(b.data, b.len, "d8 04 34 12");
  /* Levels v1: 4-byte length then the RLE data; max level 0: nothing at all. */
  int16_t ones[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  b.len = 0;
  CHECK_OK(cp_pq_levels_encode(&b, ones, 10, 1, 1, &err), &err);
  CHECK_HEX(b.data, b.len, "02000000 14 01");
  b.len = 0;
  int16_t zeros[4] = {0};
  CHECK_OK(cp_pq_levels_encode(&b, zeros, 4, 0, 1, &err), &err);
  CHECK_INT(b.len, 0);
  CHECK_ERR(cp_pq_levels_encode(&b, ones, 10, 0, 1, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_pq_rle_encode_i32(&b, three, 3, 1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "value 2 at index 1");
  int32_t neg = -1;
  CHECK_ERR(cp_pq_rle_encode_i32(&b, &neg, 1, 31, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "value -1 at index 0");
  int16_t neg16 = -1;
  CHECK_ERR(cp_pq_rle_encode_i16(&b, &neg16, 1, 16, &err), PAIMON_EINVAL);
  cp_buf_free(&b);
}

static void fill_values(test_rng *r, uint32_t *v, size_t n, int w, int style) {
  uint64_t range = (uint64_t)1 << w;
  for (size_t i = 0; i < n;) {
    uint32_t x = (uint32_t)rng_below(r, range);
    size_t run = style == 0 ? 1 : style == 1 ? 1 + rng_below(r, 20) : 1 + rng_below(r, 3);
    if (style == 2 && i > 0 && rng_below(r, 8) == 0) x = v[i - 1];
    for (size_t k = 0; k < run && i < n; k++) v[i++] = x;
  }
}

/* Decodes `n` values in random chunk sizes, mixing skips, and compares with `want`. */
static void check_decode_chunks(test_rng *r, const uint8_t *data, size_t len, int w,
                                const uint32_t *want, size_t n) {
  cp_pq_rle_decoder d;
  paimon_error err;
  CHECK_OK(cp_pq_rle_decoder_init(&d, data, len, w, "test", &err), &err);
  int32_t *got = xmalloc(n * sizeof *got);
  size_t k = 0, bad = 0;
  while (k < n) {
    size_t chunk = 1 + rng_below(r, 40);
    if (chunk > n - k) chunk = n - k;
    if (rng_below(r, 5) == 0) {
      if (cp_pq_rle_skip(&d, chunk, &err) != 0) break;
    } else {
      if (cp_pq_rle_decode_i32(&d, got, chunk, &err) != 0) break;
      for (size_t i = 0; i < chunk; i++) bad += (uint32_t)got[i] != want[k + i];
    }
    k += chunk;
  }
  CHECK_INT(k, n);
  CHECK_INT(bad, 0);
  free(got);
}

/* Every bit width 0..32, every size of TEST_SIZES, three value styles; one-shot decode of int32,
 * chunked decode with skips, and int16 when the width allows. */
static void test_round_trip_all_widths(void) {
  test_rng r = {0x1234567};
  paimon_error err;
  for (int w = 0; w <= 32; w++) {
    for (size_t si = 0; si < N_TEST_SIZES; si++) {
      for (int style = 0; style < 3; style++) {
        size_t n = TEST_SIZES[si];
        uint32_t *v = xmalloc(n * sizeof *v);
        fill_values(&r, v, n, w, style);
        cp_buf b = CP_BUF_INIT;
        CHECK_OK(cp_pq_rle_encode_i32(&b, (const int32_t *)v, n, w, &err), &err);
        CHECK(b.len <= cp_pq_rle_max_size(n, w));
        int32_t *out = xmalloc(n * sizeof *out);
        cp_pq_rle_decoder d;
        CHECK_OK(cp_pq_rle_decoder_init(&d, b.data, b.len, w, "test", &err), &err);
        CHECK_OK(cp_pq_rle_decode_i32(&d, out, n, &err), &err);
        CHECK_MEM(out, v, n * sizeof *v);
        if (w > 0) CHECK_INT(d.pos, b.len); /* the whole encoding was used, nothing more */
        check_decode_chunks(&r, b.data, b.len, w, v, n);
        if (w <= 15) {
          int16_t *o16 = xmalloc(n * sizeof *o16);
          CHECK_OK(cp_pq_rle_decoder_init(&d, b.data, b.len, w, "test", &err), &err);
          CHECK_OK(cp_pq_rle_decode_i16(&d, o16, n, &err), &err);
          size_t bad = 0;
          for (size_t i = 0; i < n; i++) bad += (uint32_t)o16[i] != v[i];
          CHECK_INT(bad, 0);
          free(o16);
        }
        free(out);
        free(v);
        cp_buf_free(&b);
      }
    }
  }
}

/* A million levels: long runs of the max (no nulls) with scattered nulls, through the levels API
 * (v1 prefix and v2 raw). */
static void test_levels_large(void) {
  const size_t n = 1000000;
  test_rng r = {99};
  int16_t *lv = xmalloc(n * sizeof *lv), *out = xmalloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) lv[i] = rng_below(&r, 50) == 0 ? (int16_t)rng_below(&r, 3) : 3;
  size_t nonnull = 0;
  for (size_t i = 0; i < n; i++) nonnull += lv[i] == 3;
  paimon_error err;
  for (int prefixed = 0; prefixed <= 1; prefixed++) {
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_pq_levels_encode(&b, lv, n, 3, prefixed, &err), &err);
    size_t used = 0;
    CHECK_OK(cp_pq_levels_decode(out, n, &used, b.data, b.len, 3, prefixed, "def", &err), &err);
    CHECK_INT(used, b.len);
    CHECK_MEM(out, lv, n * sizeof *lv);
    CHECK_INT(cp_pq_count_level(out, n, 3), nonnull);
    cp_buf_free(&b);
  }
  free(lv);
  free(out);
}

/* Decodes `hex` at bit width w asking for n values and expects `code` and a message part. */
static void expect_bad(const char *hex, int w, size_t n, const char *msg) {
  uint8_t in[64];
  size_t len = hex_bytes(in, sizeof in, hex);
  cp_pq_rle_decoder d;
  paimon_error err;
  int32_t out[64];
  int rc = cp_pq_rle_decoder_init(&d, in, len, w, "test", &err);
  if (rc == 0) rc = cp_pq_rle_decode_i32(&d, out, n, &err);
  CHECK_INT(rc, PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, msg);
}

static void test_malformed(void) {
  expect_bad("", 1, 1, "data ends at byte 0");
  expect_bad("80", 1, 1, "truncated run header at byte 0");
  expect_bad("ff ff ff ff ff ff ff ff ff ff 01", 1, 1, "overlong run header");
  expect_bad("00 01", 1, 1, "RLE run of 0 values");
  expect_bad("01", 1, 1, "bit-packed run of 0 groups");
  expect_bad("ff ff ff ff 0f", 1, 1, "bit-packed run of"); /* 2^31 groups: past 2^31-1 values */
  expect_bad("04", 9, 1, "RLE run value at byte 1 truncated");
  expect_bad("04 05", 2, 1, "RLE run value 5 at byte 1 does not fit bit width 2");
  expect_bad("04 01", 1, 3, "data ends at byte 2"); /* a run of 2 when 3 are needed */
  expect_bad("04 01 03", 1, 3, "bit-packed run at byte 2 has no data");
  expect_bad("03", 8, 1, "has no data");
  /* Two groups at width 8 declared, 9 bytes present: 9 values are readable, a 10th is not. */
  uint8_t in[16];
  size_t len = hex_bytes(in, sizeof in, "05 01 02 03 04 05 06 07 08 09");
  cp_pq_rle_decoder d;
  paimon_error err;
  int32_t out[16];
  CHECK_OK(cp_pq_rle_decoder_init(&d, in, len, 8, "test", &err), &err);
  CHECK_OK(cp_pq_rle_decode_i32(&d, out, 9, &err), &err);
  CHECK_INT(out[8], 9);
  CHECK_ERR(cp_pq_rle_decode_i32(&d, out, 1, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_pq_rle_decoder_init(&d, in, len, 33, "test", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bit width 33");
  /* int16 output refuses 16-bit values above INT16_MAX; uint8 refuses > 255. */
  len = hex_bytes(in, sizeof in, "02 ff ff");
  int16_t o16[1];
  CHECK_OK(cp_pq_rle_decoder_init(&d, in, len, 16, "test", &err), &err);
  CHECK_ERR(cp_pq_rle_decode_i16(&d, o16, 1, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 65535 at index 0 exceeds the maximum 32767");
  /* Length prefixes that lie. */
  const uint8_t *body;
  size_t body_len, used;
  len = hex_bytes(in, sizeof in, "05 00 00 00 02 01");
  CHECK_ERR(cp_pq_rle_length_prefix(&body, &body_len, &used, in, len, "def", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "length prefix 5");
  CHECK_ERR(cp_pq_rle_length_prefix(&body, &body_len, &used, in, 3, "def", &err), PAIMON_ECORRUPT);
  int16_t lv[4];
  CHECK_ERR(cp_pq_levels_decode(lv, 4, &used, in, len, 1, 1, "definition levels", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "definition levels");
}

/* Bit width 0: values are 0 whether runs are written or the data is empty. */
static void test_width_zero(void) {
  cp_pq_rle_decoder d;
  paimon_error err;
  int32_t out[20];
  uint8_t in[4];
  CHECK_OK(cp_pq_rle_decoder_init(&d, NULL, 0, 0, "test", &err), &err);
  memset(out, 0x55, sizeof out);
  CHECK_OK(cp_pq_rle_decode_i32(&d, out, 20, &err), &err);
  CHECK_INT(out[0] | out[19], 0);
  size_t len = hex_bytes(in, sizeof in, "14"); /* RLE run of 10, value has 0 bytes */
  CHECK_OK(cp_pq_rle_decoder_init(&d, in, len, 0, "test", &err), &err);
  memset(out, 0x55, sizeof out);
  CHECK_OK(cp_pq_rle_decode_i32(&d, out, 20, &err), &err);
  CHECK_INT(out[9] | out[10] | out[19], 0);
  int16_t lv[5];
  size_t used = 9;
  CHECK_OK(cp_pq_levels_decode(lv, 5, &used, NULL, 0, 0, 1, "def", &err), &err);
  CHECK_INT(used, 0);
  CHECK_INT(lv[4], 0);
}

static void test_dictionary_indices(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  int32_t idx[12] = {0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4};
  /* 5 entries: width 3; 0..3 plus four 4s complete a group, the last four 4s stay literal. */
  CHECK_OK(cp_pq_dict_indices_encode(&b, idx, 12, 5, &err), &err);
  CHECK_INT(b.data[0], 3);
  cp_pq_rle_decoder d;
  int32_t out[12];
  CHECK_OK(cp_pq_dict_indices_init(&d, b.data, b.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, out, 12, 5, &err), &err);
  CHECK_MEM(out, idx, sizeof idx);
  /* The same indices against a 4-entry dictionary: index 4 at position 4 is out of range. */
  CHECK_OK(cp_pq_dict_indices_init(&d, b.data, b.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, out, 2, 4, &err), &err);
  CHECK_ERR(cp_pq_dict_indices_decode(&d, out, 10, 4, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "index 4 at position 4 is out of range for a dictionary of 4");
  /* One entry: bit width 0 (legal, §2.7), indices are all zero. */
  b.len = 0;
  int32_t z[3] = {0, 0, 0};
  CHECK_OK(cp_pq_dict_indices_encode(&b, z, 3, 1, &err), &err);
  CHECK_INT(b.data[0], 0);
  CHECK_OK(cp_pq_dict_indices_init(&d, b.data, b.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, out, 3, 1, &err), &err);
  CHECK_INT(out[0] | out[1] | out[2], 0);
  /* Errors: no width byte, width 33, encoder index out of range. */
  CHECK_ERR(cp_pq_dict_indices_init(&d, b.data, 0, &err), PAIMON_ECORRUPT);
  uint8_t w33 = 33;
  CHECK_ERR(cp_pq_dict_indices_init(&d, &w33, 1, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bit width 33");
  CHECK_ERR(cp_pq_dict_indices_encode(&b, idx, 12, 4, &err), PAIMON_EINVAL);
  /* Width 32 indices round-trip (huge dictionaries are legal if silly). */
  b.len = 0;
  int32_t big[3] = {0, INT32_MAX, 7};
  CHECK_OK(cp_pq_dict_indices_encode(&b, big, 3, (size_t)INT32_MAX + 1, &err), &err);
  CHECK_INT(b.data[0], 31);
  CHECK_OK(cp_pq_dict_indices_init(&d, b.data, b.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, out, 3, (size_t)INT32_MAX + 1, &err), &err);
  CHECK_MEM(out, big, sizeof big);
  cp_buf_free(&b);
}

static void test_rle_booleans(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  /* 10 trues: length 2, RLE run 10 (0x14) of value 1. */
  uint8_t t[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 7}; /* any non-zero is true */
  CHECK_OK(cp_pq_rle_bool_encode(&b, t, 10, &err), &err);
  CHECK_HEX(b.data, b.len, "02000000 14 01");
  uint8_t out[4096];
  size_t used = 0;
  CHECK_OK(cp_pq_rle_bool_decode(out, 10, &used, b.data, b.len, &err), &err);
  CHECK_INT(used, 6);
  CHECK_INT(out[9], 1);
  test_rng r = {5};
  for (size_t si = 0; si < N_TEST_SIZES; si++) {
    size_t n = TEST_SIZES[si];
    uint8_t *v = xmalloc(n);
    for (size_t i = 0; i < n; i++) v[i] = rng_below(&r, 4) == 0;
    b.len = 0;
    CHECK_OK(cp_pq_rle_bool_encode(&b, v, n, &err), &err);
    uint8_t *o = xmalloc(n);
    CHECK_OK(cp_pq_rle_bool_decode(o, n, &used, b.data, b.len, &err), &err);
    CHECK_INT(used, b.len);
    CHECK_MEM(o, v, n);
    free(v);
    free(o);
  }
  /* Value 2 cannot be a boolean; the uint8 decoder at width 1 never sees one, but truncation is
   * still caught. */
  CHECK_ERR(cp_pq_rle_bool_decode(out, 11, &used, b.data, 5, &err), PAIMON_ECORRUPT);
  cp_buf_free(&b);
}

/* The unpackers against a bit-by-bit reference, including a truncated final group. */
static void test_unpack_reference(void) {
  test_rng r = {77};
  uint8_t in[64 * 5];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)rng_next(&r);
  for (int w = 0; w <= 64; w++) {
    uint64_t out64[40];
    uint32_t out32[40];
    size_t len = (size_t)w * 5 - (w ? 1 : 0); /* last group is missing its final byte */
    cp_pq_unpack64(out64, in, len, 5, w);
    if (w <= 32) cp_pq_unpack32(out32, in, len, 5, w);
    size_t bad = 0;
    for (size_t i = 0; i < 40; i++) {
      uint64_t want = 0;
      for (int b = 0; b < w; b++) {
        size_t bit = i * (size_t)w + (size_t)b;
        uint64_t v = bit / 8 < len ? (in[bit / 8] >> (bit % 8)) & 1 : 0;
        want |= v << b;
      }
      bad += out64[i] != want;
      if (w <= 32) bad += out32[i] != want;
    }
    CHECK_INT(bad, 0);
    /* Packing the values back gives the input bytes (for the complete groups). */
    uint8_t packed[64 * 4];
    cp_pq_pack64(packed, out64, 4, w);
    CHECK_MEM(packed, in, (size_t)w * 4);
  }
}

int main(void) {
  RUN(test_spec_bitpacked_example);
  RUN(test_spec_levels_example);
  RUN(test_encoder_bytes);
  RUN(test_round_trip_all_widths);
  RUN(test_levels_large);
  RUN(test_malformed);
  RUN(test_width_zero);
  RUN(test_dictionary_indices);
  RUN(test_rle_booleans);
  RUN(test_unpack_reference);
  TEST_MAIN_END();
}
