/*
 * Helpers shared by the Parquet encoding tests (test_encoding_*.c): a deterministic random
 * generator, hex literals for hand-computed byte vectors, and byte-range comparison.
 */
#ifndef CP_TEST_ENCODING_UTIL_H
#define CP_TEST_ENCODING_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "test.h"

/* xorshift64*: fixed seeds make every failure reproducible. */
typedef struct {
  uint64_t s;
} test_rng;

static inline uint64_t rng_next(test_rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here). */
static inline uint64_t rng_below(test_rng *r, uint64_t n) { return rng_next(r) % n; }

/* Parses "0a 1B ff" (spaces optional) into `out`; returns the byte count. */
static inline size_t hex_bytes(uint8_t *out, size_t cap, const char *hex) {
  size_t n = 0;
  int hi = -1;
  for (const char *p = hex; *p; p++) {
    int v;
    if (*p >= '0' && *p <= '9')
      v = *p - '0';
    else if (*p >= 'a' && *p <= 'f')
      v = *p - 'a' + 10;
    else if (*p >= 'A' && *p <= 'F')
      v = *p - 'A' + 10;
    else
      continue;
    if (hi < 0) {
      hi = v;
    } else {
      if (n < cap) out[n] = (uint8_t)(hi << 4 | v);
      n++;
      hi = -1;
    }
  }
  return n;
}

/* Checks that buf[0, len) equals the hex string, printing both on mismatch. */
#define CHECK_HEX(buf, len, hex)                                                                   \
  do {                                                                                             \
    uint8_t cp_want_[4096];                                                                        \
    size_t cp_wn_ = hex_bytes(cp_want_, sizeof cp_want_, (hex));                                   \
    size_t cp_len_ = (len);                                                                        \
    const uint8_t *cp_got_ = (buf);                                                                \
    cp_test_checks++;                                                                              \
    if (cp_wn_ != cp_len_ || (cp_len_ && memcmp(cp_want_, cp_got_, cp_len_) != 0)) {               \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_HEX failed: got", __FILE__, __LINE__, cp_test_current);   \
      for (size_t cp_i_ = 0; cp_i_ < cp_len_; cp_i_++) fprintf(stderr, " %02x", cp_got_[cp_i_]);   \
      fprintf(stderr, ", expected %s\n", (hex));                                                   \
    }                                                                                              \
  } while (0)

/* Checks two memory ranges are equal, reporting the first differing byte. */
#define CHECK_MEM(a, b, n)                                                                         \
  do {                                                                                             \
    const uint8_t *cp_a_ = (const uint8_t *)(a), *cp_b_ = (const uint8_t *)(b);                    \
    size_t cp_n_ = (n), cp_i_ = 0;                                                                 \
    cp_test_checks++;                                                                              \
    while (cp_i_ < cp_n_ && cp_a_[cp_i_] == cp_b_[cp_i_]) cp_i_++;                                 \
    if (cp_i_ < cp_n_) {                                                                           \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_MEM failed: %s and %s differ at byte %zu of %zu\n",       \
              __FILE__, __LINE__, cp_test_current, #a, #b, cp_i_, cp_n_);                          \
    }                                                                                              \
  } while (0)

static inline void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "test: out of memory\n");
    exit(2);
  }
  return p;
}

/* The sizes every round-trip test covers. */
static const size_t TEST_SIZES[] = {0,  1,  2,  7,   8,   9,   15,   16,  17,
                                    31, 32, 33, 127, 128, 129, 1000, 4097};
#define N_TEST_SIZES (sizeof TEST_SIZES / sizeof TEST_SIZES[0])

#endif
