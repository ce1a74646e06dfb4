/*
 * Tests for the writer's dictionary builder (encoding.h cp_pq_dict_builder; spec/parquet.md §2.3
 * item 2, §2.11): its hash table is specialised by width (4- and 8-byte keys in the slots, tagged
 * slots for byte arrays and wider values), looks values up in prefetched blocks and grows
 * mid-block. Every case is checked against a naive reference (a linear scan over the distinct
 * values so far): the indices are first-seen order, equal values share an index and different
 * ones never do, the PLAIN page and its size match, and a reset starts over. Inputs that stress
 * the hash: keys differing only in their high bits (powers of two as doubles, multiples of 2^40),
 * -0.0 vs 0.0 and two NaN payloads (distinct, bit for bit), strings of every length 0..40 sharing
 * prefixes and suffixes (the word-load compare), and 300K distinct values (many growths).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/parquet/encoding.h"
#include "test.h"

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd64(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* The naive reference: distinct values in first-seen order, found by linear scan. Good enough
 * for the few thousand distinct values of the exhaustive cases; the big case compares against a
 * sorted copy instead. */
typedef struct ref_dict {
  const uint8_t **p;
  size_t *len, n, cap;
} ref_dict;

static int32_t ref_index(ref_dict *r, const uint8_t *p, size_t len) {
  for (size_t i = 0; i < r->n; i++)
    if (r->len[i] == len && (len == 0 || memcmp(r->p[i], p, len) == 0)) return (int32_t)i;
  if (r->n == r->cap) {
    r->cap = r->cap ? r->cap * 2 : 64;
    r->p = realloc(r->p, r->cap * sizeof *r->p);
    r->len = realloc(r->len, r->cap * sizeof *r->len);
  }
  r->p[r->n] = p;
  r->len[r->n] = len;
  return (int32_t)r->n++;
}

static void ref_free(ref_dict *r) {
  free(r->p);
  free(r->len);
  memset(r, 0, sizeof *r);
}

/* Puts n fixed values of `width` in chunks of random size, checks against the reference, the
 * PLAIN page and the gather back. */
static void check_fixed(const uint8_t *vals, size_t n, size_t width) {
  paimon_error err;
  cp_pq_dict_builder *b = NULL;
  CHECK_OK(cp_pq_dict_builder_new(&b, width, &err), &err);
  int32_t *idx = malloc((n + 1) * sizeof *idx);
  for (int round = 0; round < 2; round++) {
    for (size_t at = 0; at < n;) {
      size_t k = 1 + (size_t)(rnd64() % 50);
      if (k > n - at) k = n - at;
      CHECK_OK(cp_pq_dict_builder_put_fixed(b, idx + at, vals + at * width, k, &err), &err);
      at += k;
    }
    ref_dict r = {0};
    bool same = true;
    for (size_t i = 0; i < n; i++) same &= idx[i] == ref_index(&r, vals + i * width, width);
    CHECK(same);
    CHECK_INT(cp_pq_dict_builder_count(b), r.n);
    CHECK_INT(cp_pq_dict_builder_plain_size(b), r.n * width);
    cp_buf page = CP_BUF_INIT;
    CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
    bool page_ok = page.len == r.n * width;
    for (size_t e = 0; page_ok && e < r.n; e++)
      page_ok = memcmp(page.data + e * width, r.p[e], width) == 0;
    CHECK(page_ok);
    uint8_t *back = malloc(n * width + 1);
    CHECK_OK(cp_pq_dict_gather_fixed(back, idx, n, cp_pq_dict_builder_fixed_values(b),
                                     cp_pq_dict_builder_count(b), width, &err),
             &err);
    CHECK(n == 0 || memcmp(back, vals, n * width) == 0);
    free(back);
    cp_buf_free(&page);
    ref_free(&r);
    cp_pq_dict_builder_reset(b); /* the second round starts over */
    CHECK_INT(cp_pq_dict_builder_count(b), 0);
  }
  free(idx);
  cp_pq_dict_builder_free(b);
}

static void test_fixed_widths(void) {
  enum { N = 6000 };
  const size_t widths[] = {4, 8, 12, 16, 3};
  for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
    const size_t width = widths[w];
    uint8_t *vals = malloc(N * width);
    for (int shape = 0; shape < 4; shape++) {
      for (size_t i = 0; i < N; i++) {
        uint64_t k;
        switch (shape) {
        case 0: k = rnd64() % 700; break;                  /* repeats */
        case 1: k = (rnd64() % 500) << 40; break;          /* high bits only */
        case 2: k = (uint64_t)1 << (rnd64() % 64); break;  /* single bits */
        default: k = rnd64() % 3 ? rnd64() : rnd64() % 10; /* mostly distinct */
        }
        memset(vals + i * width, (int)(k & 0xFF), width);
        memcpy(vals + i * width, &k, width < 8 ? width : 8);
        if (width > 8) memcpy(vals + i * width + width - 4, &k, 4);
      }
      check_fixed(vals, N, width);
    }
    free(vals);
  }
}

/* Doubles whose bit patterns differ only in the exponent, signed zeros and NaN payloads. */
static void test_float_bits(void) {
  enum { N = 4000 };
  double *d = malloc(N * sizeof *d);
  for (size_t i = 0; i < N; i++) {
    switch (rnd64() % 5) {
    case 0: d[i] = ldexp(1.0, (int)(rnd64() % 2000) - 1000); break;
    case 1: d[i] = 0.0; break;
    case 2: d[i] = -0.0; break;
    case 3: {
      uint64_t nan = 0x7FF8000000000000ULL | (rnd64() % 3);
      memcpy(&d[i], &nan, 8);
      break;
    }
    default: d[i] = (double)(rnd64() % 100) / 100.0;
    }
  }
  check_fixed((const uint8_t *)d, N, 8);
  float *f = malloc(N * sizeof *f);
  for (size_t i = 0; i < N; i++) f[i] = (float)d[i];
  check_fixed((const uint8_t *)f, N, 4);
  free(d);
  free(f);
}

/* Byte arrays of every length up to 40 over a small alphabet, so many share prefixes, suffixes
 * and lengths; plus empty strings. */
static void test_binary(void) {
  paimon_error err;
  enum { N = 8000 };
  int32_t *offs = malloc((N + 1) * sizeof *offs), *idx = malloc(N * sizeof *idx);
  uint8_t *data = malloc((size_t)N * 40 + 1);
  offs[0] = 0;
  for (size_t i = 0; i < N; i++) {
    size_t len = (size_t)(rnd64() % 41);
    uint64_t pick = rnd64() % 300; /* values repeat */
    for (size_t k = 0; k < len; k++)
      data[(size_t)offs[i] + k] = (uint8_t)("ab"[(pick >> (k % 9)) & 1] + (k == len / 2));
    offs[i + 1] = offs[i] + (int32_t)len;
  }
  cp_pq_dict_builder *b = NULL;
  CHECK_OK(cp_pq_dict_builder_new(&b, 0, &err), &err);
  for (size_t at = 0; at < N;) {
    size_t k = 1 + (size_t)(rnd64() % 40);
    if (k > N - at) k = N - at;
    CHECK_OK(cp_pq_dict_builder_put_binary(b, idx + at, offs + at, data, k, &err), &err);
    at += k;
  }
  ref_dict r = {0};
  bool same = true;
  size_t plain = 0;
  for (size_t i = 0; i < N; i++) {
    size_t before = r.n;
    same &= idx[i] == ref_index(&r, data + offs[i], (size_t)(offs[i + 1] - offs[i]));
    if (r.n > before) plain += 4 + (size_t)(offs[i + 1] - offs[i]);
  }
  CHECK(same);
  CHECK_INT(cp_pq_dict_builder_count(b), r.n);
  CHECK_INT(cp_pq_dict_builder_plain_size(b), plain);
  /* The PLAIN page decodes to the distinct values in order. */
  cp_buf page = CP_BUF_INIT, dec = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
  CHECK_INT(page.len, plain);
  int32_t *doffs = malloc((r.n + 1) * sizeof *doffs);
  size_t used = 0;
  CHECK_OK(cp_pq_plain_decode_binary(doffs, &dec, r.n, &used, page.data, page.len, &err), &err);
  bool page_ok = used == page.len;
  for (size_t e = 0; page_ok && e < r.n; e++)
    page_ok = (size_t)(doffs[e + 1] - doffs[e]) == r.len[e] &&
              (r.len[e] == 0 || memcmp(dec.data + doffs[e], r.p[e], r.len[e]) == 0);
  CHECK(page_ok);
  free(doffs);
  cp_buf_free(&page);
  cp_buf_free(&dec);
  ref_free(&r);
  /* Wrong kind of put. */
  CHECK_ERR(cp_pq_dict_builder_put_fixed(b, idx, data, 1, &err), PAIMON_EINVAL);
  cp_pq_dict_builder_free(b);
  free(offs);
  free(idx);
  free(data);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* 300K distinct keys among 600K values: many table growths, some in the middle of a block. The
 * reference is a sorted copy: every value's entry must hold that value, and the entries must be
 * exactly the distinct values. */
static void test_many_distinct(void) {
  paimon_error err;
  enum { N = 600000 };
  uint64_t *v = malloc(N * sizeof *v), *sorted = malloc(N * sizeof *sorted);
  int32_t *idx = malloc(N * sizeof *idx);
  for (size_t i = 0; i < N; i++) v[i] = (rnd64() % 300000) * 0x10001ULL;
  cp_pq_dict_builder *b = NULL;
  CHECK_OK(cp_pq_dict_builder_new(&b, 8, &err), &err);
  for (size_t at = 0; at < N; at += 1000)
    CHECK_OK(cp_pq_dict_builder_put_fixed(b, idx + at, v + at, N - at < 1000 ? N - at : 1000, &err),
             &err);
  const uint64_t *entries = (const uint64_t *)(const void *)cp_pq_dict_builder_fixed_values(b);
  const size_t count = cp_pq_dict_builder_count(b);
  bool ok = true;
  int32_t next = 0;
  for (size_t i = 0; i < N && ok; i++) {
    ok = idx[i] >= 0 && (size_t)idx[i] < count && entries[idx[i]] == v[i] && idx[i] <= next;
    if (idx[i] == next) next++; /* first-seen order: a new index is the next one */
  }
  CHECK(ok);
  memcpy(sorted, v, N * sizeof *v);
  qsort(sorted, N, sizeof *sorted, cmp_u64);
  size_t distinct = 0;
  for (size_t i = 0; i < N; i++) distinct += i == 0 || sorted[i] != sorted[i - 1];
  CHECK_INT(count, distinct);
  CHECK_INT(next, distinct);
  cp_pq_dict_builder_free(b);
  free(v);
  free(sorted);
  free(idx);
}

int main(void) {
  RUN(test_fixed_widths);
  RUN(test_float_bits);
  RUN(test_binary);
  RUN(test_many_distinct);
  TEST_MAIN_END();
}
