/*
 * Tests of DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (encoding_delta.c).
 *
 * The byte vectors are parquet-format Encodings.md's examples recomputed by hand for the block
 * layout real writers use (block size 128 = varint 80 01, 4 miniblocks of 32; the document's
 * examples use block size 8, which it says is invalid in practice). Working:
 * - 1,2,3,4,5: header 80 01 04 05 02 (zigzag 1); deltas 1,1,1,1 → min 1 (zigzag 02), relative
 *   deltas all 0 → widths 00 00 00 00 and no miniblock bytes.
 * - 7,5,3,1,2,3,4,5: header 80 01 04 08 0e (zigzag 7); deltas -2,-2,-2,1,1,1,1 → min -2 (zigzag
 *   03); relative 0,0,0,3,3,3,3 → width 2 for miniblock 0 (02 00 00 00); 32 values × 2 bits =
 *   8 bytes: c0 (0,0,0,3) 3f (3,3,3,0) then six zero bytes.
 * - DLBA "Hello","World","Foobar","ABCDEF": lengths 5,5,6,6 → header 80 01 04 04 0a; deltas
 *   0,1,0 → min 0 (00), relative 0,1,0 → width 1 (01 00 00 00), 4 bytes: 02 00 00 00; then the
 *   bytes "HelloWorldFoobarABCDEF".
 * - DBA "axis","axle","babble","babyhood": prefix lengths 0,2,0,3 → header 80 01 04 04 00; deltas
 *   2,-2,3 → min -2 (03); relative 4,0,5 → width 3 (03 00 00 00); 12 bytes: 44 (100 000 01…)
 *   01 (…1) then ten zeros. Suffix lengths 4,2,6,5 → header 80 01 04 04 08; deltas -2,4,-1 → min
 *   -2 (03); relative 0,6,1 → width 3; 12 bytes: 70 00 … ; then "axislebabbleyhood".
 */
#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

#define EX1 "80 01 04 05 02  02 00000000"
#define EX2 "80 01 04 08 0e  03 02000000 c0 3f 00 00 00 00 00 00"
#define DLBA_LENS "80 01 04 04 0a  00 01000000 02000000"
#define DBA_PREFIX "80 01 04 04 00  03 03000000 44 01 00000000 00000000 0000"
#define DBA_SUFFIX "80 01 04 04 08  03 03000000 70 00 00000000 00000000 0000"

static void test_spec_examples(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  int32_t ex1[5] = {1, 2, 3, 4, 5}, ex2[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  CHECK_OK(cp_pq_delta_encode_i32(&b, ex1, 5, &err), &err);
  CHECK_HEX(b.data, b.len, EX1);
  b.len = 0;
  CHECK_OK(cp_pq_delta_encode_i32(&b, ex2, 8, &err), &err);
  CHECK_HEX(b.data, b.len, EX2);
  /* Decoding the hand-made bytes, and the end of the stream is found exactly. */
  uint8_t in[64];
  size_t len = hex_bytes(in, sizeof in, EX2);
  cp_pq_delta_decoder d;
  int32_t out[8];
  size_t end = 0;
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, len, 32, "test", &err), &err);
  CHECK_INT(cp_pq_delta_decoder_total(&d), 8);
  CHECK_OK(cp_pq_delta_decode_i32(&d, out, 8, &err), &err);
  CHECK_MEM(out, ex2, sizeof ex2);
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, len);
  /* INT64 decoding of the same bytes gives the same numbers. */
  int64_t o64[8];
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, len, 64, "test", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i64(&d, o64, 8, &err), &err);
  CHECK_INT(o64[0], 7);
  CHECK_INT(o64[7], 5);
  CHECK_ERR(cp_pq_delta_decode_i32(&d, out, 1, &err), PAIMON_EINVAL);
  /* The end is found without decoding anything. */
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, len, 32, "test", &err), &err);
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, len);
  /* Empty and single-value streams are a header only. */
  b.len = 0;
  CHECK_OK(cp_pq_delta_encode_i64(&b, NULL, 0, &err), &err);
  CHECK_HEX(b.data, b.len, "80 01 04 00 00");
  b.len = 0;
  int64_t one = -3;
  CHECK_OK(cp_pq_delta_encode_i64(&b, &one, 1, &err), &err);
  CHECK_HEX(b.data, b.len, "80 01 04 01 05");
  cp_buf_free(&b);
}

static void test_dlba_dba_examples(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT, vals = CP_BUF_INIT;
  const uint8_t hw[] = "HelloWorldFoobarABCDEF";
  int32_t hw_off[5] = {0, 5, 10, 16, 22};
  CHECK_OK(cp_pq_dlba_encode(&b, hw_off, hw, 4, &err), &err);
  uint8_t want[128];
  size_t wl = hex_bytes(want, sizeof want, DLBA_LENS);
  memcpy(want + wl, hw, 22);
  CHECK_INT(b.len, wl + 22);
  CHECK_MEM(b.data, want, wl + 22);
  int32_t offs[5];
  CHECK_OK(cp_pq_dlba_decode(offs, &vals, 4, want, wl + 22, &err), &err);
  CHECK_MEM(offs, hw_off, sizeof hw_off);
  CHECK_MEM(vals.data, hw, 22);

  const uint8_t ax[] = "axisaxlebabblebabyhood";
  int32_t ax_off[5] = {0, 4, 8, 14, 22};
  b.len = 0;
  CHECK_OK(cp_pq_dba_encode(&b, ax_off, ax, 4, &err), &err);
  size_t pl = hex_bytes(want, sizeof want, DBA_PREFIX);
  size_t sl = hex_bytes(want + pl, sizeof want - pl, DBA_SUFFIX);
  memcpy(want + pl + sl, "axislebabbleyhood", 17);
  CHECK_INT(b.len, pl + sl + 17);
  CHECK_MEM(b.data, want, pl + sl + 17);
  vals.len = 0;
  CHECK_OK(cp_pq_dba_decode(offs, &vals, 4, want, pl + sl + 17, 0, &err), &err);
  CHECK_MEM(offs, ax_off, sizeof ax_off);
  CHECK_INT(vals.len, 22);
  CHECK_MEM(vals.data, ax, 22);
  /* A 20-byte cap cannot hold 22 decoded bytes. */
  vals.len = 0;
  CHECK_ERR(cp_pq_dba_decode(offs, &vals, 4, want, pl + sl + 17, 20, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 3 grows the output past the 20-byte limit");
  /* Asking for more values than the streams hold. */
  CHECK_ERR(cp_pq_dba_decode(offs, &vals, 5, want, pl + sl + 17, 0, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_pq_dlba_decode(offs, &vals, 5, b.data, b.len, &err), PAIMON_ECORRUPT);
  cp_buf_free(&b);
  cp_buf_free(&vals);
}

/* Values that make every delta overflow: the decoder must wrap exactly like the encoder. */
static void fill_i64(test_rng *r, int64_t *v, size_t n, int style) {
  for (size_t i = 0; i < n; i++) {
    switch (style) {
    case 0: v[i] = (int64_t)rng_next(r); break;
    case 1: v[i] = i % 2 ? INT64_MAX : INT64_MIN; break;
    case 2: v[i] = (int64_t)(1000 + 3 * i + rng_below(r, 4)); break; /* small deltas */
    case 3: v[i] = 42; break;                                        /* constant: width 0 */
    default:
      v[i] = rng_below(r, 3) == 0 ? INT64_MIN + (int64_t)rng_below(r, 5)
                                  : INT64_MAX - (int64_t)rng_below(r, 5);
    }
  }
}

/* Decodes in random chunks and checks end() lands on the encoded length. */
static void check_i64(test_rng *r, const cp_buf *b, const int64_t *v, size_t n) {
  paimon_error err;
  cp_pq_delta_decoder d;
  int64_t *o = xmalloc(n * sizeof *o);
  CHECK_OK(cp_pq_delta_decoder_init(&d, b->data, b->len, 64, "test", &err), &err);
  CHECK_INT(cp_pq_delta_decoder_total(&d), n);
  size_t k = 0;
  while (k < n) {
    size_t c = 1 + rng_below(r, 300);
    if (c > n - k) c = n - k;
    if (cp_pq_delta_decode_i64(&d, o + k, c, &err) != 0) break;
    k += c;
  }
  CHECK_INT(k, n);
  CHECK_MEM(o, v, n * sizeof *v);
  size_t end = 0;
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, b->len);
  CHECK_ERR(cp_pq_delta_decode_i64(&d, o, 1, &err), PAIMON_ECORRUPT);
  /* end() from a half-decoded stream lands on the same place. */
  if (n > 2) {
    CHECK_OK(cp_pq_delta_decoder_init(&d, b->data, b->len, 64, "test", &err), &err);
    CHECK_OK(cp_pq_delta_decode_i64(&d, o, n / 2, &err), &err);
    CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
    CHECK_INT(end, b->len);
  }
  free(o);
}

static void test_round_trip_i64(void) {
  test_rng r = {2024};
  paimon_error err;
  for (size_t si = 0; si < N_TEST_SIZES; si++) {
    for (int style = 0; style < 5; style++) {
      size_t n = TEST_SIZES[si];
      int64_t *v = xmalloc(n * sizeof *v);
      fill_i64(&r, v, n, style);
      cp_buf b = CP_BUF_INIT;
      CHECK_OK(cp_pq_delta_encode_i64(&b, v, n, &err), &err);
      check_i64(&r, &b, v, n);
      cp_buf_free(&b);
      free(v);
    }
  }
}

static void test_round_trip_i32(void) {
  test_rng r = {7};
  paimon_error err;
  for (size_t si = 0; si < N_TEST_SIZES; si++) {
    for (int style = 0; style < 4; style++) {
      size_t n = TEST_SIZES[si];
      int32_t *v = xmalloc(n * sizeof *v), *o = xmalloc(n * sizeof *o);
      for (size_t i = 0; i < n; i++)
        v[i] = style == 0   ? (int32_t)rng_next(&r)
               : style == 1 ? (i % 2 ? INT32_MAX : INT32_MIN)
               : style == 2 ? (int32_t)(i * 5 - 100)
                            : (int32_t)rng_below(&r, 1u << rng_below(&r, 31));
      cp_buf b = CP_BUF_INIT;
      CHECK_OK(cp_pq_delta_encode_i32(&b, v, n, &err), &err);
      cp_pq_delta_decoder d;
      CHECK_OK(cp_pq_delta_decoder_init(&d, b.data, b.len, 32, "test", &err), &err);
      CHECK_OK(cp_pq_delta_decode_i32(&d, o, n, &err), &err);
      CHECK_MEM(o, v, n * sizeof *v);
      /* INT32 miniblocks never use more than 32 bits (the spec forbids it). */
      size_t end = 0;
      CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
      CHECK_INT(end, b.len);
      CHECK(b.len <= 8 + (n / 128 + 1) * (10 + 4 + 128 * 4));
      cp_buf_free(&b);
      free(v);
      free(o);
    }
  }
}

/* A million INT64 values (timestamps-like) through one decoder in one call. */
static void test_large(void) {
  const size_t n = 1000000;
  int64_t *v = xmalloc(n * sizeof *v), *o = xmalloc(n * sizeof *o);
  test_rng r = {1};
  int64_t t = 1700000000000000;
  for (size_t i = 0; i < n; i++) v[i] = (t += (int64_t)rng_below(&r, 2000));
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_delta_encode_i64(&b, v, n, &err), &err);
  cp_pq_delta_decoder d;
  CHECK_OK(cp_pq_delta_decoder_init(&d, b.data, b.len, 64, "test", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i64(&d, o, n, &err), &err);
  CHECK_MEM(o, v, n * sizeof *v);
  CHECK(b.len < n * 2); /* deltas < 2048 need 11 bits */
  cp_buf_free(&b);
  free(v);
  free(o);
}

static void byte_arrays(test_rng *r, size_t n, int32_t *offs, cp_buf *data) {
  static const char *words[] = {"",
                                "a",
                                "ab",
                                "abc",
                                "abd",
                                "prefix-shared-",
                                "prefix-shared-x",
                                "\xff\x00\x01",
                                "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"};
  offs[0] = 0;
  for (size_t i = 0; i < n; i++) {
    const char *w = words[rng_below(r, 9)];
    size_t l = strlen(w) + (w[0] == '\xff' ? 2 : 0);
    cp_buf_append(data, w, l, NULL);
    size_t extra = rng_below(r, 4);
    for (size_t k = 0; k < extra; k++)
      cp_buf_append(data, "0123456789" + rng_below(r, 10), 1, NULL);
    offs[i + 1] = (int32_t)data->len;
  }
}

static void test_byte_array_round_trips(void) {
  test_rng r = {31};
  paimon_error err;
  for (size_t si = 0; si < N_TEST_SIZES; si++) {
    size_t n = TEST_SIZES[si];
    int32_t *offs = xmalloc((n + 1) * sizeof *offs), *got = xmalloc((n + 1) * sizeof *got);
    cp_buf data = CP_BUF_INIT;
    byte_arrays(&r, n, offs, &data);
    for (int kind = 0; kind < 2; kind++) {
      cp_buf b = CP_BUF_INIT, vals = CP_BUF_INIT;
      CHECK_OK(kind ? cp_pq_dba_encode(&b, offs, data.data, n, &err)
                    : cp_pq_dlba_encode(&b, offs, data.data, n, &err),
               &err);
      CHECK_OK(cp_buf_append(&vals, "pre", 3, &err), &err); /* offsets continue after it */
      CHECK_OK(kind ? cp_pq_dba_decode(got, &vals, n, b.data, b.len, 0, &err)
                    : cp_pq_dlba_decode(got, &vals, n, b.data, b.len, &err),
               &err);
      size_t bad = 0;
      for (size_t i = 0; i <= n; i++) bad += got[i] != offs[i] + 3;
      CHECK_INT(bad, 0);
      CHECK_INT(vals.len, data.len + 3);
      if (data.len) CHECK_MEM(vals.data + 3, data.data, data.len);
      cp_buf_free(&b);
      cp_buf_free(&vals);
    }
    cp_buf_free(&data);
    free(offs);
    free(got);
  }
}

static void expect_bad_delta(const char *hex, int bits, size_t n, const char *msg) {
  uint8_t in[256];
  size_t len = hex_bytes(in, sizeof in, hex);
  cp_pq_delta_decoder d;
  paimon_error err;
  int64_t out[64];
  int rc = cp_pq_delta_decoder_init(&d, in, len, bits, "test", &err);
  if (rc == 0)
    rc = bits == 64 ? cp_pq_delta_decode_i64(&d, out, n, &err)
                    : cp_pq_delta_decode_i32(&d, (int32_t *)out, n, &err);
  CHECK_INT(rc, PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, msg);
}

static void test_malformed(void) {
  expect_bad_delta("", 32, 1, "block size at byte 0");
  expect_bad_delta("80 01 04 05", 32, 1, "first value at byte 4");
  expect_bad_delta("08 01 05 02", 32, 1, "block size 8 is not a positive multiple of 128");
  expect_bad_delta("00 01 05 02", 32, 1, "block size 0");
  expect_bad_delta("80 01 00 05 02", 32, 1, "0 miniblocks");
  expect_bad_delta("80 01 03 05 02", 32, 1, "3 miniblocks");
  expect_bad_delta("80 01 08 05 02", 32, 1, "8 miniblocks"); /* 16 values per miniblock */
  expect_bad_delta("80 01 04 80 80 80 80 08 02", 32, 1, "total count 2147483648");
  expect_bad_delta("80 01 04 05 02 ff ff ff ff ff ff ff ff ff ff 01", 32, 2, "overlong varint");
  expect_bad_delta("80 01 04 05 02", 32, 6, "header's count leaves 5");
  expect_bad_delta("80 01 04 05 02", 32, 5, "block min delta at byte 5");
  expect_bad_delta("80 01 04 05 02 02 00 00", 32, 5, "miniblock bit widths at byte 6");
  /* A used miniblock wider than the type, and miniblock data cut short. */
  expect_bad_delta("80 01 04 05 02 02 21 00 00 00", 32, 5, "bit width 33 at byte 6 exceeds 32");
  expect_bad_delta("80 01 04 05 02 02 41 00 00 00", 64, 5, "bit width 65 at byte 6 exceeds 64");
  expect_bad_delta("80 01 04 05 02 02 08 00 00 00 01 02", 32, 5, "miniblock data at byte 10");
  /* Widths of unused miniblocks are arbitrary and must be ignored (Encodings.md). */
  uint8_t in[64];
  size_t len = hex_bytes(in, sizeof in, "80 01 04 05 02 02 00 ff 99 41");
  cp_pq_delta_decoder d;
  paimon_error err;
  int32_t out[5];
  size_t end = 0;
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, len, 32, "test", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i32(&d, out, 5, &err), &err);
  CHECK_INT(out[4], 5);
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, len);
  /* Padding bits of the last miniblock are garbage: values past the count ignore them. */
  len = hex_bytes(in, sizeof in, EX2);
  in[12] = 0xff; /* relative deltas of values 9..12: not part of the 8 values */
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, len, 32, "test", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i32(&d, out, 5, &err), &err);
  CHECK_INT(out[4], 2);
  /* A last miniblock cut after the bytes its values need is still readable, and its end is the
   * end of the data. */
  len = hex_bytes(in, sizeof in, EX2);
  CHECK_OK(cp_pq_delta_decoder_init(&d, in, 12, 32, "test", &err), &err);
  int32_t eight[8];
  CHECK_OK(cp_pq_delta_decode_i32(&d, eight, 8, &err), &err);
  CHECK_INT(eight[7], 5);
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, 12);
  CHECK_ERR(cp_pq_delta_decoder_init(&d, in, len, 16, "test", &err), PAIMON_EINVAL);
}

static void test_byte_array_malformed(void) {
  paimon_error err;
  cp_buf vals = CP_BUF_INIT;
  int32_t offs[8];
  uint8_t in[256];
  /* DLBA: lengths 5,5,6,6 but only 21 bytes follow. */
  size_t len = hex_bytes(in, sizeof in, DLBA_LENS);
  memcpy(in + len, "HelloWorldFoobarABCDE", 21);
  CHECK_ERR(cp_pq_dlba_decode(offs, &vals, 4, in, len + 21, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 3 has length 6 but 5 bytes remain after byte 30");
  /* DLBA with a negative length (first value zigzag 1 = -1). */
  len = hex_bytes(in, sizeof in, "80 01 04 01 01");
  CHECK_ERR(cp_pq_dlba_decode(offs, &vals, 1, in, len, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 0 has length -1");
  /* DBA whose first prefix length is 2: there is no previous value. */
  len = hex_bytes(in, sizeof in, "80 01 04 01 04  80 01 04 01 02 41");
  CHECK_ERR(cp_pq_dba_decode(offs, &vals, 1, in, len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 0 has prefix length 2 but the previous value has 0 bytes");
  /* DBA: prefix 0,5 after a 1-byte value. */
  len = hex_bytes(in, sizeof in, "80 01 04 02 00 0a 00000000  80 01 04 02 02 01 00000000 41 42");
  CHECK_ERR(cp_pq_dba_decode(offs, &vals, 2, in, len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 1 has prefix length 5 but the previous value has 1 bytes");
  /* DBA suffix lengths past the bytes. */
  len = hex_bytes(in, sizeof in, "80 01 04 01 00  80 01 04 01 0a 41");
  CHECK_ERR(cp_pq_dba_decode(offs, &vals, 1, in, len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "suffix length 5 but only 1 suffix bytes remain");
  /* A small page that would expand enormously: value 0 has 64 bytes, then 2^20 values that are
   * all prefix (64) with empty suffixes. The lengths streams cost ~5 bytes per 128 values; the
   * output would be 64 MiB. The cap stops it at the limit, before allocating more. */
  const size_t n = ((size_t)1 << 20) + 1;
  int32_t *pre = xmalloc(n * sizeof *pre), *suf = xmalloc(n * sizeof *suf);
  int32_t *o = xmalloc((n + 1) * sizeof *o);
  for (size_t i = 0; i < n; i++) {
    pre[i] = i ? 64 : 0;
    suf[i] = i ? 0 : 64;
  }
  cp_buf page = CP_BUF_INIT;
  CHECK_OK(cp_pq_delta_encode_i32(&page, pre, n, &err), &err);
  CHECK_OK(cp_pq_delta_encode_i32(&page, suf, n, &err), &err);
  CHECK_OK(cp_buf_append_zeros(&page, 64, &err), &err);
  CHECK(page.len < 100000);
  vals.len = 0;
  CHECK_ERR(cp_pq_dba_decode(o, &vals, n, page.data, page.len, (size_t)1 << 20, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "value 16384 grows the output past the 1048576-byte limit");
  CHECK(vals.cap <= ((size_t)1 << 21));
  /* The same stream decodes when the cap allows (checked on the first 1000 values only). */
  vals.len = 0;
  CHECK_OK(cp_pq_dba_decode(o, &vals, 1000, page.data, page.len, 0, &err), &err);
  CHECK_INT(vals.len, 64000);
  cp_buf_free(&page);
  free(pre);
  free(suf);
  free(o);
  cp_buf_free(&vals);
}

int main(void) {
  RUN(test_spec_examples);
  RUN(test_dlba_dba_examples);
  RUN(test_round_trip_i64);
  RUN(test_round_trip_i32);
  RUN(test_large);
  RUN(test_byte_array_round_trips);
  RUN(test_malformed);
  RUN(test_byte_array_malformed);
  TEST_MAIN_END();
}
