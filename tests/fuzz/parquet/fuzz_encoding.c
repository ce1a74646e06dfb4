/*
 * libFuzzer harness for every Parquet value/level decoder (src/format/parquet/encoding.h): the
 * first two input bytes pick the decoder and its parameters (bit width, maximum level, value
 * width, count), the rest is the encoded data. Decoders must fail cleanly or succeed, never read
 * out of bounds or allocate without bound; where a decode succeeds, the values are encoded again
 * and decoded once more, and must come back unchanged (catches encoder/decoder disagreements).
 *
 * Build and run: `make fuzz`, then e.g. `build-fuzz/fuzz_encoding -max_total_time=60`. Useful
 * seeds: the page payloads in tests/unit/parquet/encoding_vectors.h, prefixed by a selector byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/encoding.h"

enum { MAX_VALUES = 4096 };

static void check(int cond) {
  if (!cond) abort(); /* a fuzzing finding, not library behaviour */
}

static void fuzz_rle(const uint8_t *p, size_t len, unsigned sel, unsigned arg) {
  const int w = (int)(arg % 34); /* 33 must be refused */
  const size_t n = (sel >> 4) * 256 + arg % 251;
  static int32_t out[MAX_VALUES], again[MAX_VALUES];
  static int16_t o16[MAX_VALUES];
  cp_pq_rle_decoder d;
  paimon_error err;
  if (cp_pq_rle_decoder_init(&d, p, len, w, "fuzz", &err) != 0) return;
  if (sel & 8) {
    size_t half = n / 2;
    if (cp_pq_rle_skip(&d, half, &err) != 0) return;
    (void)cp_pq_rle_decode_i16(&d, o16, n - half, &err);
    return;
  }
  if (cp_pq_rle_decode_i32(&d, out, n, &err) != 0) return;
  cp_buf b = CP_BUF_INIT;
  check(cp_pq_rle_encode_i32(&b, out, n, w, &err) == 0);
  check(cp_pq_rle_decoder_init(&d, b.data, b.len, w, "again", &err) == 0);
  check(cp_pq_rle_decode_i32(&d, again, n, &err) == 0);
  check(memcmp(out, again, n * sizeof *out) == 0);
  cp_buf_free(&b);
}

static void fuzz_levels_and_dict(const uint8_t *p, size_t len, unsigned sel, unsigned arg) {
  static int16_t lv[MAX_VALUES];
  static int32_t idx[MAX_VALUES], gathered[MAX_VALUES];
  const size_t n = arg * 16;
  paimon_error err;
  size_t used = 0;
  if (sel & 8) {
    int16_t max_level = (int16_t)(arg % 9);
    if (cp_pq_levels_decode(lv, n % MAX_VALUES, &used, p, len, max_level, sel & 16 ? 1 : 0, "def",
                            &err) == 0) {
      check(used <= len);
      (void)cp_pq_count_level(lv, n % MAX_VALUES, max_level);
    }
    return;
  }
  cp_pq_rle_decoder d;
  const size_t dict_count = (size_t)(arg % 17) + 1;
  static const int32_t dict[17] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  if (cp_pq_dict_indices_init(&d, p, len, &err) != 0) return;
  if (cp_pq_dict_indices_decode(&d, idx, n % MAX_VALUES, dict_count, &err) != 0) return;
  check(cp_pq_dict_gather_fixed(gathered, idx, n % MAX_VALUES, dict, dict_count, 4, &err) == 0);
}

static void fuzz_plain(const uint8_t *p, size_t len, unsigned sel, unsigned arg) {
  static uint8_t out[MAX_VALUES * 16];
  static int32_t offs[MAX_VALUES + 1];
  const size_t n = arg * 8 + (sel >> 5);
  paimon_error err;
  size_t used = 0;
  cp_buf vals = CP_BUF_INIT;
  switch (sel % 4) {
  case 0: {
    size_t width = (size_t)(sel >> 4) % 16 + 1;
    if (cp_pq_plain_decode_fixed(out, n > MAX_VALUES ? MAX_VALUES : n, &used, p, len, width,
                                 &err) == 0)
      check(used <= len);
    break;
  }
  case 1: (void)cp_pq_plain_decode_bool(out, n, p, len, arg % 13, &err); break;
  case 2:
    if (cp_pq_plain_decode_binary(offs, &vals, n, &used, p, len, &err) == 0)
      check(used <= len && vals.len <= len);
    break;
  default: (void)cp_pq_rle_bool_decode(out, n, &used, p, len, &err); break;
  }
  cp_buf_free(&vals);
}

static void fuzz_delta(const uint8_t *p, size_t len, unsigned sel, unsigned arg) {
  static int64_t o64[MAX_VALUES], again[MAX_VALUES];
  static int32_t offs[MAX_VALUES + 1];
  const size_t n = arg * 16;
  paimon_error err;
  cp_buf vals = CP_BUF_INIT;
  switch (sel % 4) {
  case 0:
  case 1: {
    const int bits = sel % 4 ? 32 : 64;
    cp_pq_delta_decoder d;
    size_t end = 0;
    if (cp_pq_delta_decoder_init(&d, p, len, bits, "fuzz", &err) != 0) break;
    int rc = bits == 64 ? cp_pq_delta_decode_i64(&d, o64, n, &err)
                        : cp_pq_delta_decode_i32(&d, (int32_t *)o64, n, &err);
    if (rc != 0) break;
    if (cp_pq_delta_decoder_end(&d, &end, &err) == 0) check(end <= len);
    if (bits == 64) {
      cp_buf b = CP_BUF_INIT;
      check(cp_pq_delta_encode_i64(&b, o64, n, &err) == 0);
      check(cp_pq_delta_decoder_init(&d, b.data, b.len, 64, "again", &err) == 0);
      check(cp_pq_delta_decode_i64(&d, again, n, &err) == 0);
      check(memcmp(o64, again, n * sizeof *o64) == 0);
      cp_buf_free(&b);
    }
    break;
  }
  case 2: (void)cp_pq_dlba_decode(offs, &vals, n, p, len, &err); break;
  default: (void)cp_pq_dba_decode(offs, &vals, n, p, len, (size_t)1 << 20, &err); break;
  }
  cp_buf_free(&vals);
}

static void fuzz_bss(const uint8_t *p, size_t len, unsigned sel, unsigned arg) {
  static uint8_t out[1 << 16];
  const size_t width = (size_t)(sel >> 3) % 17;
  const size_t first = arg % 7;
  paimon_error err;
  if (width == 0 || len % width != 0 || len / width < first) {
    (void)cp_pq_bss_decode(out, 1, p, len, width, first, &err);
    return;
  }
  size_t n = len / width - first;
  if (n * width > sizeof out) n = sizeof out / width;
  (void)cp_pq_bss_decode(out, n, p, len, width, first, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  const unsigned sel = data[0], arg = data[1];
  const uint8_t *p = data + 2;
  const size_t len = size - 2;
  switch (sel % 5) {
  case 0: fuzz_rle(p, len, sel / 5, arg); break;
  case 1: fuzz_levels_and_dict(p, len, sel / 5, arg); break;
  case 2: fuzz_plain(p, len, sel / 5, arg); break;
  case 3: fuzz_delta(p, len, sel / 5, arg); break;
  default: fuzz_bss(p, len, sel / 5, arg); break;
  }
  return 0;
}
