/*
 * Tests for the streaming RLE-hybrid encoder (encoding.h cp_pq_rle_writer; spec/parquet.md §2.7,
 * §3) that the writer's level fast paths feed with runs: on random run sequences of every shape —
 * runs of 1..20 and of thousands, odd literal lengths before a run, literal stretches past the
 * literal buffer — the output decodes (through encoding.h's decoder, an independent path) to the
 * expanded values, whether fed as runs or as int16 arrays, for bit widths 0..15; it is never
 * larger than the array encoder's output by more than a header per literal buffer; runs longer
 * than 2^31 - 1 are split; values that do not fit the width are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/encoding.h"
#include "test.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (uint32_t)(rng_state >> 11) % n : 0;
}

/* Decodes n values of width bw from `enc` and compares them with `want`. */
static void check_decodes(const cp_buf *enc, int bw, const int16_t *want, size_t n) {
  paimon_error err;
  int16_t *got = malloc((n + 1) * sizeof *got);
  cp_pq_rle_decoder d;
  CHECK_OK(cp_pq_rle_decoder_init(&d, enc->data, enc->len, bw, "test", &err), &err);
  CHECK_OK(cp_pq_rle_decode_i16(&d, got, n, &err), &err);
  CHECK(n == 0 || memcmp(got, want, n * sizeof *got) == 0);
  free(got);
}

/* Random runs at width bw, fed as runs and as one array: both decode to the values. */
static void random_case(int bw, size_t max_run, size_t n_runs) {
  paimon_error err;
  const uint32_t vmax = bw == 0 ? 1 : (1u << bw);
  int16_t *vals = malloc((n_runs * max_run + 1) * sizeof *vals);
  cp_buf by_runs = CP_BUF_INIT, by_array = CP_BUF_INIT, ref = CP_BUF_INIT;
  cp_pq_rle_writer w, wa;
  cp_pq_rle_writer_init(&w, &by_runs, bw);
  size_t n = 0;
  for (size_t r = 0; r < n_runs; r++) {
    /* Mostly short runs (literals), sometimes long ones, sometimes repeats of the last value. */
    size_t len = rnd(8) == 0 ? 1 + rnd((uint32_t)max_run) : 1 + rnd(9);
    uint32_t v = n > 0 && rnd(4) == 0 ? (uint32_t)vals[n - 1] : rnd(vmax);
    CHECK_OK(cp_pq_rle_writer_put_run(&w, v, len, &err), &err);
    for (size_t i = 0; i < len; i++) vals[n++] = (int16_t)v;
  }
  CHECK_OK(cp_pq_rle_writer_finish(&w, &err), &err);
  check_decodes(&by_runs, bw, vals, n);
  /* The same values as arrays cut at random points. */
  cp_pq_rle_writer_init(&wa, &by_array, bw);
  for (size_t at = 0; at < n;) {
    size_t k = 1 + rnd(3000);
    if (k > n - at) k = n - at;
    CHECK_OK(cp_pq_rle_writer_put_i16(&wa, vals + at, k, &err), &err);
    at += k;
  }
  CHECK_OK(cp_pq_rle_writer_finish(&wa, &err), &err);
  check_decodes(&by_array, bw, vals, n);
  /* Same value sequence, same stream, however it was cut. */
  CHECK(by_runs.len == by_array.len && memcmp(by_runs.data, by_array.data, by_runs.len) == 0);
  /* As compact as the array encoder, up to one header per literal buffer. */
  CHECK_OK(cp_pq_rle_encode_i16(&ref, vals, n, bw, &err), &err);
  CHECK(by_runs.len <= ref.len + 5 * (n / CP_PQ_RLE_LITERAL_MAX + 1));
  free(vals);
  cp_buf_free(&by_runs);
  cp_buf_free(&by_array);
  cp_buf_free(&ref);
}

static void test_random_runs(void) {
  for (int bw = 0; bw <= 15; bw++) { /* levels are int16: at most 15 bits */
    random_case(bw, 20, 3000);
    random_case(bw, 5000, 300);
  }
}

/* The shapes the list fast path makes: [0][1 x len-1] per list, and one def run per page. */
static void test_list_shapes(void) {
  paimon_error err;
  for (size_t len = 1; len <= 300; len += len < 20 ? 1 : 37) {
    cp_buf enc = CP_BUF_INIT;
    cp_pq_rle_writer w;
    cp_pq_rle_writer_init(&w, &enc, 1);
    const size_t rows = 333;
    int16_t *want = malloc(rows * len * sizeof *want);
    for (size_t r = 0; r < rows; r++) {
      CHECK_OK(cp_pq_rle_writer_put_run(&w, 0, 1, &err), &err);
      CHECK_OK(cp_pq_rle_writer_put_run(&w, 1, len - 1, &err), &err);
      for (size_t i = 0; i < len; i++) want[r * len + i] = i > 0;
    }
    CHECK(cp_pq_rle_writer_size_bound(&w) >= enc.len);
    CHECK_OK(cp_pq_rle_writer_finish(&w, &err), &err);
    check_decodes(&enc, 1, want, rows * len);
    /* Long lists cost a few bytes each, not a bit per entry. */
    if (len >= 128) CHECK(enc.len <= rows * 6);
    free(want);
    cp_buf_free(&enc);
  }
}

/* Empty stream; a finished stream's bound; zero-length runs are ignored. */
static void test_edges(void) {
  paimon_error err;
  cp_buf enc = CP_BUF_INIT;
  cp_pq_rle_writer w;
  cp_pq_rle_writer_init(&w, &enc, 3);
  CHECK_OK(cp_pq_rle_writer_put_run(&w, 5, 0, &err), &err);
  CHECK_OK(cp_pq_rle_writer_put_i16(&w, NULL, 0, &err), &err);
  CHECK_OK(cp_pq_rle_writer_finish(&w, &err), &err);
  CHECK_INT(enc.len, 0);
  /* One value: a bit-packed group of one, zero-padded. */
  cp_pq_rle_writer_init(&w, &enc, 3);
  CHECK_OK(cp_pq_rle_writer_put_run(&w, 5, 1, &err), &err);
  CHECK_OK(cp_pq_rle_writer_finish(&w, &err), &err);
  const uint8_t one[] = {0x03, 0x05, 0x00, 0x00}; /* header (1 group), 8 x 3 bits */
  CHECK(enc.len == sizeof one && memcmp(enc.data, one, sizeof one) == 0);
  cp_buf_free(&enc);
}

/* A run longer than an RLE run may be (2^31 - 1) is cut into several: read the headers. */
static void test_huge_run(void) {
  paimon_error err;
  cp_buf enc = CP_BUF_INIT;
  cp_pq_rle_writer w;
  cp_pq_rle_writer_init(&w, &enc, 2);
  const uint64_t total = (uint64_t)INT32_MAX * 2 + 10;
  CHECK_OK(cp_pq_rle_writer_put_run(&w, 2, total - 10, &err), &err);
  CHECK_OK(cp_pq_rle_writer_put_run(&w, 2, 10, &err), &err);
  CHECK_OK(cp_pq_rle_writer_finish(&w, &err), &err);
  uint64_t sum = 0;
  int runs = 0;
  for (size_t pos = 0; pos < enc.len;) {
    uint64_t h;
    CHECK_INT(cp_pq_uleb128_read(&h, enc.data, enc.len, &pos, 64), 0);
    CHECK_INT(h & 1, 0); /* RLE runs only */
    CHECK((h >> 1) >= 1 && (h >> 1) <= INT32_MAX);
    CHECK_INT(enc.data[pos], 2);
    pos += 1;
    sum += h >> 1;
    runs++;
  }
  CHECK(sum == total);
  CHECK_INT(runs, 3);
  cp_buf_free(&enc);
}

static void test_bad_values(void) {
  paimon_error err;
  cp_buf enc = CP_BUF_INIT;
  cp_pq_rle_writer w;
  cp_pq_rle_writer_init(&w, &enc, 2);
  CHECK_ERR(cp_pq_rle_writer_put_run(&w, 4, 1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "value 4");
  const int16_t levels[] = {1, 2, 3, 4, 1};
  CHECK_ERR(cp_pq_rle_writer_put_i16(&w, levels, 5, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "value 4");
  const int16_t neg[] = {0, -1};
  CHECK_ERR(cp_pq_rle_writer_put_i16(&w, neg, 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "-1");
  cp_buf_free(&enc);
}

int main(void) {
  RUN(test_edges);
  RUN(test_random_runs);
  RUN(test_list_shapes);
  RUN(test_huge_run);
  RUN(test_bad_values);
  TEST_MAIN_END();
}
