/*
 * Tests for the reusable codec contexts of base/codec.h (cp_codec_ctx): a context gives exactly
 * the bytes of the one-shot call for every writable codec and level, across many calls that
 * switch codec and level; decompression through a context round-trips, keeps the exact-size and
 * bound checks of the one-shot functions, and recovers after corrupt or truncated input (the
 * state a failed call leaves is never carried into the next one); NULL means one-shot.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/codec.h"
#include "test.h"

static const cp_codec k_writable[] = {CP_CODEC_NONE,    CP_CODEC_SNAPPY, CP_CODEC_GZIP,
                                      CP_CODEC_DEFLATE, CP_CODEC_ZSTD,   CP_CODEC_LZ4_RAW};
#define N_WRITABLE (sizeof k_writable / sizeof k_writable[0])

/* Half text-like, half pseudo-random bytes: codecs find matches and literals. */
static void fill(uint8_t *p, size_t n, uint64_t seed) {
  static const char words[] = "embedding backfill shard row id sequence number ";
  uint64_t x = seed | 1;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = (i / 64) % 2 ? (uint8_t)(x >> 24) : (uint8_t)words[(i + seed) % (sizeof words - 1)];
  }
}

static int level_for(cp_codec c, int round) {
  if (c == CP_CODEC_ZSTD) return (int[]){1, 3, -2, 1, 9}[round % 5];
  if (c == CP_CODEC_GZIP || c == CP_CODEC_DEFLATE) return (int[]){1, 6, 0, 9, 1}[round % 5];
  return 0;
}

/* The same inputs through one context and one-shot: identical bytes, call after call. */
static void test_same_bytes_as_one_shot(void) {
  paimon_error err;
  cp_codec_ctx *ctx = NULL;
  CHECK_OK(cp_codec_ctx_new(&ctx, &err), &err);
  enum { N = 200000 };
  uint8_t *data = malloc(N);
  for (int round = 0; round < 10; round++) {
    for (size_t k = 0; k < N_WRITABLE; k++) {
      const cp_codec c = k_writable[(k + (size_t)round) % N_WRITABLE];
      const int level = level_for(c, round);
      const size_t n = (size_t)(round * 7919) % N;
      fill(data, n, (uint64_t)round * 31 + k);
      cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
      CHECK_OK(cp_compress_ctx(ctx, c, level, data, n, &a, &err), &err);
      CHECK_OK(cp_compress(c, level, data, n, &b, &err), &err);
      CHECK(a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0));
      /* And back, through the same context. */
      uint8_t *back = malloc(n + 1);
      CHECK_OK(cp_decompress_exact_ctx(ctx, c, a.data, a.len, back, n, &err), &err);
      CHECK(n == 0 || memcmp(back, data, n) == 0);
      free(back);
      cp_buf_free(&a);
      cp_buf_free(&b);
    }
  }
  free(data);
  cp_codec_ctx_free(ctx);
}

/* A NULL context is the one-shot path; freeing NULL is a no-op. */
static void test_null_context(void) {
  paimon_error err;
  const char text[] = "null context null context null context";
  cp_buf z = CP_BUF_INIT, out = CP_BUF_INIT;
  CHECK_OK(cp_compress_ctx(NULL, CP_CODEC_ZSTD, 1, text, sizeof text, &z, &err), &err);
  CHECK_OK(cp_decompress_append_ctx(NULL, CP_CODEC_ZSTD, z.data, z.len, &out, 1000, &err), &err);
  CHECK(out.len == sizeof text && memcmp(out.data, text, sizeof text) == 0);
  cp_buf_free(&z);
  cp_buf_free(&out);
  cp_codec_ctx_free(NULL);
}

/* Bounds hold through a context, and a failed call does not poison the next one. */
static void test_errors_then_recovery(void) {
  paimon_error err;
  cp_codec_ctx *ctx = NULL;
  CHECK_OK(cp_codec_ctx_new(&ctx, &err), &err);
  enum { N = 50000 };
  uint8_t *data = malloc(N), *dst = malloc(N + 1);
  fill(data, N, 99);
  const cp_codec stateful[] = {CP_CODEC_ZSTD, CP_CODEC_GZIP, CP_CODEC_DEFLATE};
  for (size_t k = 0; k < 3; k++) {
    const cp_codec c = stateful[k];
    cp_buf z = CP_BUF_INIT, out = CP_BUF_INIT;
    CHECK_OK(cp_compress_ctx(ctx, c, 0, data, N, &z, &err), &err);
    /* One byte too few of room, then a stream cut in half: both refused, naming the codec. */
    CHECK_ERR(cp_decompress_exact_ctx(ctx, c, z.data, z.len, dst, N - 1, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, cp_codec_name(c));
    CHECK_ERR(cp_decompress_exact_ctx(ctx, c, z.data, z.len / 2, dst, N, &err), PAIMON_ECORRUPT);
    CHECK_ERR(cp_decompress_append_ctx(ctx, c, z.data, z.len, &out, N - 1, &err), PAIMON_ECORRUPT);
    CHECK_INT(out.len, 0);
    /* Garbage. */
    uint8_t junk[64];
    fill(junk, sizeof junk, 5);
    CHECK(cp_decompress_exact_ctx(ctx, c, junk, sizeof junk, dst, N, &err) != 0);
    /* The same context then decodes a good stream exactly. */
    CHECK_OK(cp_decompress_exact_ctx(ctx, c, z.data, z.len, dst, N, &err), &err);
    CHECK(memcmp(dst, data, N) == 0);
    CHECK_OK(cp_decompress_append_ctx(ctx, c, z.data, z.len, &out, N, &err), &err);
    CHECK(out.len == N && memcmp(out.data, data, N) == 0);
    /* A bad level is still refused. */
    CHECK_ERR(cp_compress_ctx(ctx, c, 99, data, N, &z, &err), PAIMON_EINVAL);
    cp_buf_free(&z);
    cp_buf_free(&out);
  }
  free(data);
  free(dst);
  cp_codec_ctx_free(ctx);
}

/* Concatenated gzip members through a context (the inflater is reset between members). */
static void test_gzip_members(void) {
  paimon_error err;
  cp_codec_ctx *ctx = NULL;
  CHECK_OK(cp_codec_ctx_new(&ctx, &err), &err);
  const char a[] = "first member ", b[] = "second member";
  cp_buf z = CP_BUF_INIT, out = CP_BUF_INIT;
  CHECK_OK(cp_compress_ctx(ctx, CP_CODEC_GZIP, 6, a, sizeof a - 1, &z, &err), &err);
  CHECK_OK(cp_compress_ctx(ctx, CP_CODEC_GZIP, 6, b, sizeof b - 1, &z, &err), &err);
  for (int i = 0; i < 3; i++) {
    cp_buf_clear(&out);
    CHECK_OK(cp_decompress_append_ctx(ctx, CP_CODEC_GZIP, z.data, z.len, &out, 100, &err), &err);
    CHECK(out.len == sizeof a + sizeof b - 2 &&
          memcmp(out.data, "first member second member", out.len) == 0);
  }
  cp_buf_free(&z);
  cp_buf_free(&out);
  cp_codec_ctx_free(ctx);
}

int main(void) {
  RUN(test_same_bytes_as_one_shot);
  RUN(test_null_context);
  RUN(test_errors_then_recovery);
  RUN(test_gzip_members);
  TEST_MAIN_END();
}
