/*
 * Tests for base/codec.h: round trips of every codec on empty, small, large compressible and
 * random inputs; known byte vectors produced by independent implementations (python-snappy via
 * cramjam, CPython's gzip/zlib, python-zstandard, cramjam's LZ4); pages cut from parquet-testing
 * files (Hadoop LZ4, bare LZ4 under codec 5, concatenated gzip members); corrupt, truncated and
 * oversized ("bomb") input; level and name handling.
 */
#include "base/codec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "test.h"

static const cp_codec k_writable[] = {CP_CODEC_NONE,    CP_CODEC_SNAPPY, CP_CODEC_GZIP,
                                      CP_CODEC_DEFLATE, CP_CODEC_ZSTD,   CP_CODEC_LZ4_RAW};
#define N_WRITABLE (sizeof k_writable / sizeof k_writable[0])

/* Deterministic pseudo-random bytes (xorshift64). */
static void fill_random(uint8_t *p, size_t n, uint64_t seed) {
  uint64_t x = seed | 1;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = (uint8_t)(x >> 24);
  }
}

/* Text-like data that every codec compresses well. */
static void fill_compressible(uint8_t *p, size_t n) {
  static const char words[] = "paimon row tracking data evolution _ROW_ID _SEQUENCE_NUMBER ";
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)words[(i + i / 997) % (sizeof words - 1)];
}

/* Compresses with `c`, then checks both decompression entry points and their bounds. */
static void roundtrip(cp_codec c, const uint8_t *data, size_t n, bool expect_small) {
  paimon_error err;
  cp_buf z = CP_BUF_INIT, out = CP_BUF_INIT;
  CHECK_OK(cp_compress(c, 0, data, n, &z, &err), &err);
  if (expect_small && c != CP_CODEC_NONE) CHECK(z.len < n / 10);
  uint8_t *dst = malloc(n + 1);
  CHECK_OK(cp_decompress_exact(c, z.data, z.len, dst, n, &err), &err);
  CHECK(n == 0 || memcmp(dst, data, n) == 0);
  CHECK_OK(cp_buf_append(&out, "xy", 2, &err), &err);
  CHECK_OK(cp_decompress_append(c, z.data, z.len, &out, n, &err), &err);
  CHECK(out.len == n + 2 && memcmp(out.data, "xy", 2) == 0);
  CHECK(n == 0 || memcmp(out.data + 2, data, n) == 0);
  if (n > 0) {
    /* One byte of room too few: refused, and `out` is left as it was. */
    CHECK_ERR(cp_decompress_append(c, z.data, z.len, &out, n - 1, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, cp_codec_name(c));
    CHECK_INT(out.len, n + 2);
    CHECK_ERR(cp_decompress_exact(c, z.data, z.len, dst, n - 1, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, cp_codec_name(c));
  }
  CHECK_ERR(cp_decompress_exact(c, z.data, z.len, dst, n + 1, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, cp_codec_name(c));
  free(dst);
  cp_buf_free(&z);
  cp_buf_free(&out);
}

static void test_roundtrip_all_codecs(void) {
  size_t big = 10u << 20, rnd = 2u << 20;
  uint8_t *comp = malloc(big), *rand_data = malloc(rnd);
  fill_compressible(comp, big);
  fill_random(rand_data, rnd, 42);
  for (size_t i = 0; i < N_WRITABLE; i++) {
    cp_codec c = k_writable[i];
    fprintf(stderr, "  codec %s\n", cp_codec_name(c));
    roundtrip(c, (const uint8_t *)"", 0, false);
    roundtrip(c, (const uint8_t *)"h", 1, false);
    roundtrip(c, (const uint8_t *)"hello, hello, hello", 19, false);
    roundtrip(c, comp, big, true);
    roundtrip(c, rand_data, rnd, false);
  }
  free(comp);
  free(rand_data);
}

static void test_levels(void) {
  paimon_error err;
  uint8_t data[4096];
  fill_compressible(data, sizeof data);
  const struct {
    cp_codec c;
    int level;
    int rc;
  } cases[] = {
      {CP_CODEC_GZIP, 1, 0},
      {CP_CODEC_GZIP, 9, 0},
      {CP_CODEC_GZIP, 10, PAIMON_EINVAL},
      {CP_CODEC_DEFLATE, -1, PAIMON_EINVAL},
      {CP_CODEC_ZSTD, 1, 0},
      {CP_CODEC_ZSTD, 19, 0},
      {CP_CODEC_ZSTD, 23, PAIMON_EINVAL},
      {CP_CODEC_SNAPPY, 5, 0},
      {CP_CODEC_LZ4_RAW, 5, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cp_buf z = CP_BUF_INIT;
    int rc = cp_compress(cases[i].c, cases[i].level, data, sizeof data, &z, &err);
    CHECK_INT(rc, cases[i].rc);
    if (rc == 0) {
      uint8_t back[sizeof data];
      CHECK_OK(cp_decompress_exact(cases[i].c, z.data, z.len, back, sizeof back, &err), &err);
      CHECK(memcmp(back, data, sizeof data) == 0);
    } else {
      CHECK_CONTAINS(err.message, "level");
    }
    cp_buf_free(&z);
  }
  cp_buf z = CP_BUF_INIT;
  CHECK_ERR(cp_compress(CP_CODEC_LZ4_HADOOP, 0, data, 10, &z, &err), PAIMON_EUNSUPPORTED);
  CHECK_ERR(cp_compress((cp_codec)99, 0, data, 10, &z, &err), PAIMON_EINVAL);
  CHECK_INT(z.len, 0);
  cp_buf_free(&z);
}

/* ---- vectors written by other implementations (see the file comment) ---- */

static const char k_text[] = "Paimon Paimon Paimon Paimon row tracking";
static const uint8_t k_snappy[] = {0x28, 0x18, 0x50, 0x61, 0x69, 0x6d, 0x6f, 0x6e, 0x20,
                                   0x52, 0x07, 0x00, 0x2c, 0x72, 0x6f, 0x77, 0x20, 0x74,
                                   0x72, 0x61, 0x63, 0x6b, 0x69, 0x6e, 0x67};
/* gzip.compress(b"first member, ", mtime=0) + gzip.compress(b"second member", mtime=0) */
static const uint8_t k_gzip2[] = {
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4b, 0xcb, 0x2c, 0x2a,
    0x2e, 0x51, 0xc8, 0x4d, 0xcd, 0x4d, 0x4a, 0x2d, 0xd2, 0x51, 0x00, 0x00, 0xde, 0xff,
    0x0a, 0x62, 0x0e, 0x00, 0x00, 0x00, 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x03, 0x2b, 0x4e, 0x4d, 0xce, 0xcf, 0x4b, 0x51, 0xc8, 0x4d, 0xcd, 0x4d, 0x4a,
    0x2d, 0x02, 0x00, 0x24, 0x74, 0xfa, 0x9f, 0x0d, 0x00, 0x00, 0x00};
static const uint8_t k_deflate[] = {0x0b, 0x48, 0xcc, 0xcc, 0xcd, 0xcf, 0x53, 0x08,
                                    0xc0, 0x46, 0x15, 0xe5, 0x97, 0x2b, 0x94, 0x14,
                                    0x25, 0x26, 0x67, 0x67, 0xe6, 0xa5, 0x03, 0x00};
/* A frame without a content size ("zstd frame one; ") followed by one with it ("frame two"). */
static const uint8_t k_zstd2[] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x81, 0x00, 0x00, 0x7a, 0x73,
                                  0x74, 0x64, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x6f, 0x6e,
                                  0x65, 0x3b, 0x20, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x09, 0x49, 0x00,
                                  0x00, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x74, 0x77, 0x6f};
static const uint8_t k_lz4[] = {0x7f, 0x50, 0x61, 0x69, 0x6d, 0x6f, 0x6e, 0x20,
                                0x07, 0x00, 0x02, 0xc0, 0x72, 0x6f, 0x77, 0x20,
                                0x74, 0x72, 0x61, 0x63, 0x6b, 0x69, 0x6e, 0x67};
/* Two Hadoop blocks: k_text as two chunks (17 + 23 bytes), then "-second block-" as one. */
static const uint8_t k_hadoop[] = {
    0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x13, 0xf0, 0x02, 0x50, 0x61, 0x69, 0x6d, 0x6f, 0x6e,
    0x20, 0x50, 0x61, 0x69, 0x6d, 0x6f, 0x6e, 0x20, 0x50, 0x61, 0x69, 0x00, 0x00, 0x00, 0x17, 0x70,
    0x6d, 0x6f, 0x6e, 0x20, 0x50, 0x61, 0x69, 0x07, 0x00, 0xc0, 0x72, 0x6f, 0x77, 0x20, 0x74, 0x72,
    0x61, 0x63, 0x6b, 0x69, 0x6e, 0x67, 0x00, 0x00, 0x00, 0x0e, 0x00, 0x00, 0x00, 0x0f, 0xe0, 0x2d,
    0x73, 0x65, 0x63, 0x6f, 0x6e, 0x64, 0x20, 0x62, 0x6c, 0x6f, 0x63, 0x6b, 0x2d};

static void check_vector(cp_codec c, const uint8_t *z, size_t zn, const char *want) {
  paimon_error err;
  size_t n = strlen(want);
  char dst[128] = {0};
  CHECK_OK(cp_decompress_exact(c, z, zn, dst, n, &err), &err);
  CHECK_STR(dst, want);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_decompress_append(c, z, zn, &out, 1000, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, want);
  CHECK_ERR(cp_decompress_append(c, z, zn, &out, n - 1, &err), PAIMON_ECORRUPT);
  cp_buf_free(&out);
}

static void test_known_vectors(void) {
  check_vector(CP_CODEC_SNAPPY, k_snappy, sizeof k_snappy, k_text);
  check_vector(CP_CODEC_GZIP, k_gzip2, sizeof k_gzip2, "first member, second member");
  check_vector(CP_CODEC_DEFLATE, k_deflate, sizeof k_deflate, k_text);
  check_vector(CP_CODEC_ZSTD, k_zstd2, sizeof k_zstd2, "zstd frame one; frame two");
  check_vector(CP_CODEC_LZ4_RAW, k_lz4, sizeof k_lz4, k_text);
  check_vector(CP_CODEC_LZ4_HADOOP, k_hadoop, sizeof k_hadoop,
               "Paimon Paimon Paimon Paimon row tracking-second block-");
  /* A bare block under the Hadoop codec id is accepted (old writers). */
  check_vector(CP_CODEC_LZ4_HADOOP, k_lz4, sizeof k_lz4, k_text);
  /* The same bytes are not a bare block: under LZ4_RAW they must not decode to the text. */
  char dst[64];
  paimon_error err;
  CHECK(cp_decompress_exact(CP_CODEC_LZ4_RAW, k_hadoop, sizeof k_hadoop, dst, 54, &err) != 0);
}

static void test_crc32(void) {
  /* The CRC-32/ISO-HDLC check value. */
  CHECK_INT(cp_crc32(0, "123456789", 9), 0xCBF43926u);
  CHECK_INT(cp_crc32(cp_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
  CHECK_INT(cp_crc32(0, "", 0), 0);
}

static void test_names(void) {
  paimon_error err;
  cp_codec c;
  const struct {
    const char *name;
    cp_codec c;
  } cases[] = {
      {"none", CP_CODEC_NONE},
      {"UNCOMPRESSED", CP_CODEC_NONE},
      {"null", CP_CODEC_NONE},
      {"Snappy", CP_CODEC_SNAPPY},
      {"gzip", CP_CODEC_GZIP},
      {"deflate", CP_CODEC_DEFLATE},
      {"ZSTD", CP_CODEC_ZSTD},
      {"zstandard", CP_CODEC_ZSTD},
      {"lz4_raw", CP_CODEC_LZ4_RAW},
      {"LZ4", CP_CODEC_LZ4_HADOOP},
      {"lz4_hadoop", CP_CODEC_LZ4_HADOOP},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    c = (cp_codec)-1;
    CHECK_OK(cp_codec_from_name(cases[i].name, &c, &err), &err);
    CHECK_INT(c, cases[i].c);
  }
  for (int i = CP_CODEC_NONE; i <= CP_CODEC_LZ4_HADOOP; i++) {
    CHECK_OK(cp_codec_from_name(cp_codec_name((cp_codec)i), &c, &err), &err);
    CHECK_INT(c, i);
  }
  CHECK_STR(cp_codec_name(CP_CODEC_ZSTD), "zstd");
  CHECK_STR(cp_codec_name(CP_CODEC_LZ4_RAW), "lz4_raw");
  CHECK_STR(cp_codec_name((cp_codec)42), "unknown");
  CHECK_ERR(cp_codec_from_name("brotli", &c, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'brotli'");
  CHECK_ERR(cp_codec_from_name("", &c, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_codec_from_name(NULL, &c, &err), PAIMON_EINVAL);
}

/* Truncations and byte flips of a valid stream: never a crash, only ECORRUPT or (for codecs
 * without a checksum, when a flip lands in a literal) different bytes of the right length. */
static void test_corrupt_and_truncated(void) {
  paimon_error err;
  size_t n = 100000;
  uint8_t *data = malloc(n), *dst = malloc(n);
  fill_compressible(data, n / 2);
  fill_random(data + n / 2, n / 2, 7);
  for (size_t i = 1; i < N_WRITABLE; i++) {
    cp_codec c = k_writable[i];
    cp_buf z = CP_BUF_INIT;
    CHECK_OK(cp_compress(c, 0, data, n, &z, &err), &err);
    size_t cuts[] = {1, 2, 5, z.len / 3, z.len / 2, z.len - 1};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
      CHECK_ERR(cp_decompress_exact(c, z.data, cuts[k], dst, n, &err), PAIMON_ECORRUPT);
      CHECK_CONTAINS(err.message, cp_codec_name(c));
      cp_buf out = CP_BUF_INIT;
      CHECK_ERR(cp_decompress_append(c, z.data, cuts[k], &out, n, &err), PAIMON_ECORRUPT);
      CHECK_INT(out.len, 0);
      cp_buf_free(&out);
    }
    for (size_t pos = 0; pos < z.len; pos += 1 + z.len / 97) {
      z.data[pos] ^= 0x5a;
      int rc = cp_decompress_exact(c, z.data, z.len, dst, n, &err);
      CHECK(rc == 0 || rc == PAIMON_ECORRUPT);
      if (rc != 0) CHECK_CONTAINS(err.message, cp_codec_name(c));
      cp_buf out = CP_BUF_INIT;
      rc = cp_decompress_append(c, z.data, z.len, &out, n, &err);
      CHECK(rc == 0 || rc == PAIMON_ECORRUPT);
      CHECK(out.len <= n);
      cp_buf_free(&out);
      z.data[pos] ^= 0x5a;
    }
    /* Bytes that were never compressed data. */
    uint8_t junk[512];
    fill_random(junk, sizeof junk, 99 + i);
    CHECK_ERR(cp_decompress_exact(c, junk, sizeof junk, dst, n, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, cp_codec_name(c));
    cp_buf_free(&z);
  }
  /* Identity: the length must match. */
  CHECK_ERR(cp_decompress_exact(CP_CODEC_NONE, data, 10, dst, 11, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "none");
  /* Truncated Hadoop framing, and a gzip member followed by garbage. */
  char small[64];
  for (size_t cut = 1; cut < sizeof k_hadoop; cut += 7)
    CHECK_ERR(cp_decompress_exact(CP_CODEC_LZ4_HADOOP, k_hadoop, cut, small, 54, &err),
              PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "lz4_hadoop");
  uint8_t gz[sizeof k_gzip2 + 3];
  memcpy(gz, k_gzip2, sizeof k_gzip2);
  memcpy(gz + sizeof k_gzip2, "xyz", 3);
  CHECK_ERR(cp_decompress_exact(CP_CODEC_GZIP, gz, sizeof gz, small, 27, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "trailing");
  /* Raw deflate ignores bytes after the final block (fastavro leaves the Adler-32 there). */
  cp_buf d = CP_BUF_INIT;
  CHECK_OK(cp_compress(CP_CODEC_DEFLATE, 0, "hello hello hello", 17, &d, &err), &err);
  CHECK_OK(cp_buf_append(&d, "\x01\x02\x03", 3, &err), &err);
  CHECK_OK(cp_decompress_exact(CP_CODEC_DEFLATE, d.data, d.len, small, 17, &err), &err);
  CHECK(memcmp(small, "hello hello hello", 17) == 0);
  cp_buf_free(&d);
  /* Empty input is empty output, and never a non-empty one. */
  CHECK_OK(cp_decompress_exact(CP_CODEC_SNAPPY, "", 0, small, 0, &err), &err);
  CHECK_ERR(cp_decompress_exact(CP_CODEC_ZSTD, "", 0, small, 4, &err), PAIMON_ECORRUPT);
  free(data);
  free(dst);
}

/* 64 MiB of zeros compress to almost nothing; a reader that trusts the stream would allocate it
 * all. With a 1 MiB bound it must stop at the bound. */
static void test_bomb_refused(void) {
  paimon_error err;
  size_t n = 64u << 20, bound = 1u << 20;
  uint8_t *zeros = calloc(n, 1), *dst = malloc(bound);
  for (size_t i = 1; i < N_WRITABLE; i++) {
    cp_codec c = k_writable[i];
    cp_buf z = CP_BUF_INIT, out = CP_BUF_INIT;
    CHECK_OK(cp_compress(c, 0, zeros, n, &z, &err), &err);
    CHECK_ERR(cp_decompress_append(c, z.data, z.len, &out, bound, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, cp_codec_name(c));
    CHECK_INT(out.len, 0);
    CHECK(out.cap <= 2 * bound);
    CHECK_ERR(cp_decompress_exact(c, z.data, z.len, dst, bound, &err), PAIMON_ECORRUPT);
    cp_buf_free(&z);
    cp_buf_free(&out);
  }
  /* A Hadoop header claiming 4 GiB - 1 is refused before anything is allocated. */
  const uint8_t claim[] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00};
  cp_buf out = CP_BUF_INIT;
  CHECK_ERR(cp_decompress_append(CP_CODEC_LZ4_HADOOP, claim, sizeof claim, &out, bound, &err),
            PAIMON_ECORRUPT);
  CHECK(out.cap <= 2 * bound);
  cp_buf_free(&out);
  free(zeros);
  free(dst);
}

/* Hadoop framing of a large input, built the way BlockCompressorStream does it: 256 KiB blocks,
 * each compressed as one or (for the second half of the data) two chunks. */
static void test_hadoop_large(void) {
  paimon_error err;
  size_t n = 3u << 20, blk = 256u << 10;
  uint8_t *data = malloc(n), *dst = malloc(n);
  fill_compressible(data, n);
  fill_random(data + n / 3, 4096, 5);
  cp_buf framed = CP_BUF_INIT;
  for (size_t off = 0; off < n; off += blk) {
    size_t len = n - off < blk ? n - off : blk;
    uint8_t hdr[4] = {(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                      (uint8_t)len};
    CHECK_OK(cp_buf_append(&framed, hdr, 4, &err), &err);
    size_t parts = off >= n / 2 ? 2 : 1;
    for (size_t p = 0; p < parts; p++) {
      size_t a = off + p * len / parts, b = off + (p + 1) * len / parts;
      cp_buf chunk = CP_BUF_INIT;
      CHECK_OK(cp_compress(CP_CODEC_LZ4_RAW, 0, data + a, b - a, &chunk, &err), &err);
      uint8_t clen[4] = {(uint8_t)(chunk.len >> 24), (uint8_t)(chunk.len >> 16),
                         (uint8_t)(chunk.len >> 8), (uint8_t)chunk.len};
      CHECK_OK(cp_buf_append(&framed, clen, 4, &err), &err);
      CHECK_OK(cp_buf_append(&framed, chunk.data, chunk.len, &err), &err);
      cp_buf_free(&chunk);
    }
  }
  CHECK_OK(cp_decompress_exact(CP_CODEC_LZ4_HADOOP, framed.data, framed.len, dst, n, &err), &err);
  CHECK(memcmp(dst, data, n) == 0);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_decompress_append(CP_CODEC_LZ4_HADOOP, framed.data, framed.len, &out, n, &err), &err);
  CHECK(out.len == n && memcmp(out.data, data, n) == 0);
  CHECK_ERR(cp_decompress_exact(CP_CODEC_LZ4_HADOOP, framed.data, framed.len, dst, n - 1, &err),
            PAIMON_ECORRUPT);
  cp_buf_free(&out);
  cp_buf_free(&framed);
  free(data);
  free(dst);
}

/* Reads `len` bytes at `off` of a parquet-testing file into a new buffer (NULL if missing). */
static uint8_t *read_testdata(const char *name, long off, size_t len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/parquet-testing/data/%s", CPAIMON_TESTDATA_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "  missing %s\n", path);
    return NULL;
  }
  uint8_t *p = malloc(len);
  bool ok = fseek(f, off, SEEK_SET) == 0 && fread(p, 1, len, f) == len;
  fclose(f);
  if (!ok) {
    free(p);
    return NULL;
  }
  return p;
}

/* Page payloads located by hand in parquet-testing files; the expected CRC-32s of the
 * decompressed bytes come from cramjam's LZ4 and CPython's gzip. */
static void test_parquet_testing_pages(void) {
  const struct {
    const char *file;
    cp_codec c;
    long off;
    size_t len, ulen;
    uint32_t crc;
  } pages[] = {
      {"hadoop_lz4_compressed.parquet", CP_CODEC_LZ4_HADOOP, 17, 26, 16, 0x548961aeu},
      {"non_hadoop_lz4_compressed.parquet", CP_CODEC_LZ4_HADOOP, 18, 18, 16, 0x548961aeu},
      {"concatenated_gzip_members.parquet", CP_CODEC_GZIP, 55, 1416, 4104, 0xe4eef25fu},
  };
  for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
    uint8_t *z = read_testdata(pages[i].file, pages[i].off, pages[i].len);
    CHECK(z != NULL);
    if (!z) continue;
    paimon_error err;
    uint8_t *dst = malloc(pages[i].ulen);
    CHECK_OK(cp_decompress_exact(pages[i].c, z, pages[i].len, dst, pages[i].ulen, &err), &err);
    CHECK_INT(cp_crc32(0, dst, pages[i].ulen), pages[i].crc);
    free(dst);
    free(z);
  }
}

int main(void) {
  RUN(test_names);
  RUN(test_crc32);
  RUN(test_levels);
  RUN(test_known_vectors);
  RUN(test_roundtrip_all_codecs);
  RUN(test_corrupt_and_truncated);
  RUN(test_bomb_refused);
  RUN(test_hadoop_large);
  RUN(test_parquet_testing_pages);
  TEST_MAIN_END();
}
