/*
 * libFuzzer harness for the decompressors in base/codec.h: the bytes of Parquet pages and Avro
 * blocks come from files we did not write, so every codec must reject any input without crashing,
 * reading out of bounds, or writing past its bound.
 *
 * Input layout: byte 0 picks the codec (low 3 bits) and the exact-size bound (high 5 bits, in
 * 64-byte steps); the rest is the compressed stream.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  cp_codec codec = (cp_codec)((data[0] & 7) % (CP_CODEC_LZ4_HADOOP + 1));
  size_t exact = (size_t)(data[0] >> 3) * 64;
  const uint8_t *src = data + 1;
  size_t n = size - 1;
  paimon_error err;

  uint8_t *dst = malloc(exact ? exact : 1);
  if (!dst) return 0;
  int rc = cp_decompress_exact(codec, src, n, dst, exact, &err);
  if (rc != 0 && rc != PAIMON_ECORRUPT && rc != PAIMON_EINVAL && rc != PAIMON_ENOMEM) abort();
  free(dst);

  cp_buf out = CP_BUF_INIT;
  enum { MAX_OUT = 1 << 16 };
  rc = cp_decompress_append(codec, src, n, &out, MAX_OUT, &err);
  if (rc != 0 && rc != PAIMON_ECORRUPT && rc != PAIMON_EINVAL && rc != PAIMON_ENOMEM) abort();
  if (out.len > MAX_OUT || (rc != 0 && out.len != 0)) abort();
  /* What decompressed with an unknown size must also decompress with that size stated. Not for
   * LZ4: liblz4 accepts some blocks that break the end-of-block rules (the last bytes must be
   * literals) only when given spare output room, and no LZ4 writer produces such blocks. */
  bool lz4 = codec == CP_CODEC_LZ4_RAW || codec == CP_CODEC_LZ4_HADOOP;
  if (rc == 0 && out.len > 0 && !lz4) {
    uint8_t *again = malloc(out.len);
    if (again) {
      if (cp_decompress_exact(codec, src, n, again, out.len, &err) != 0) abort();
      if (memcmp(again, out.data, out.len) != 0) abort();
      free(again);
    }
  }
  cp_buf_free(&out);
  return 0;
}
