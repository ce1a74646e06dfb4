/*
 * Compression codecs behind one interface, for Parquet pages (spec/parquet.md §2.8) and Avro
 * container blocks (spec/format.md §4.7).
 *
 * Framing differs per user, so each framing is its own codec id:
 *   CP_CODEC_GZIP        gzip member(s) (RFC 1952) — Parquet GZIP. Concatenated members are read
 *                        as one stream.
 *   CP_CODEC_DEFLATE     raw deflate (RFC 1951, no header) — Avro "deflate".
 *   CP_CODEC_SNAPPY      raw snappy block — Parquet SNAPPY. (Avro "snappy" adds a 4-byte
 *                        big-endian CRC32 of the uncompressed data after the block; that is the
 *                        Avro layer's job.)
 *   CP_CODEC_ZSTD        one or more zstd frames, with or without a content size — Parquet ZSTD
 *                        and Avro "zstandard".
 *   CP_CODEC_LZ4_RAW     one LZ4 block, no framing — Parquet LZ4_RAW.
 *   CP_CODEC_LZ4_HADOOP  Hadoop's framing: blocks of [4-byte BE uncompressed size of the block]
 *                        followed by one or more [4-byte BE compressed len][LZ4 block] chunks
 *                        that add up to that size — what Parquet's deprecated LZ4 means in files
 *                        written by parquet-java. Input that is not Hadoop-framed is retried as one
 *                        bare LZ4 block (some old writers). Read-only.
 *   CP_CODEC_NONE        identity.
 *
 * Decompression never writes past the caller's stated bound: a stream claiming more output is
 * corrupt (PAIMON_ECORRUPT), which is how decompression bombs are refused. Empty input (n == 0)
 * decompresses to nothing for every codec (Parquet v2 pages can have empty compressed sections,
 * which e.g. snappy would reject). Malformed input is ECORRUPT with a message naming the codec.
 * All functions are thread-safe (no shared state); a cp_codec_ctx (below) is used by one thread at
 * a time.
 */
#ifndef CP_BASE_CODEC_H
#define CP_BASE_CODEC_H

#include <stddef.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef enum cp_codec {
  CP_CODEC_NONE = 0,
  CP_CODEC_SNAPPY,
  CP_CODEC_GZIP,
  CP_CODEC_DEFLATE,
  CP_CODEC_ZSTD,
  CP_CODEC_LZ4_RAW,
  CP_CODEC_LZ4_HADOOP,
} cp_codec;

/* Lower-case name ("zstd", "lz4_raw", "lz4_hadoop", ...; "unknown" for an invalid id); static. */
const char *cp_codec_name(cp_codec codec);

/* Parses a name case-insensitively: none/uncompressed/null, snappy, gzip, deflate, zstd/zstandard,
 * lz4_raw, lz4 or lz4_hadoop (= LZ4_HADOOP). PAIMON_EINVAL naming the input when unknown. */
int cp_codec_from_name(const char *name, cp_codec *out, paimon_error *err);

/* Appends the compressed form of src[0..n) to `out`. `level` is codec-specific (zstd 1..22, gzip
 * and deflate 1..9); 0 means the codec's default; snappy and lz4_raw ignore it. A level out of
 * range is EINVAL. LZ4_HADOOP is not writable (EUNSUPPORTED). */
int cp_compress(cp_codec codec, int level, const void *src, size_t n, cp_buf *out,
                paimon_error *err);

/* Decompresses src[0..n) into dst, which must receive exactly `dst_len` bytes (Parquet pages
 * record their uncompressed size). Anything else — short, long, or malformed — is ECORRUPT. */
int cp_decompress_exact(cp_codec codec, const void *src, size_t n, void *dst, size_t dst_len,
                        paimon_error *err);

/* Decompresses src[0..n) appending to `out` when the size is not known in advance (Avro blocks);
 * fails with ECORRUPT if the output would exceed `max_len` bytes. On failure `out` keeps its
 * previous length. */
int cp_decompress_append(cp_codec codec, const void *src, size_t n, cp_buf *out, size_t max_len,
                         paimon_error *err);

/* ---- reusable contexts ----
 *
 * A codec context keeps the state a codec library builds for each call (zstd's ZSTD_CCtx and
 * ZSTD_DCtx, zlib's deflate and inflate streams) so that a caller compressing or decompressing
 * many pages pays for it once: building a ZSTD_CCtx costs about as much as compressing 100 KB at
 * level 1, and its tables are reused warm. The state is created on first use for each direction
 * and codec, and reset (never carried over) between calls, so the output of a call with a context
 * is byte for byte the output of the same call without one. snappy, lz4_raw and none have no state
 * to keep. Errors and bounds are exactly those of the one-shot functions above.
 *
 * A context belongs to one thread at a time (it is not locked); use one per thread. Passing NULL
 * as `ctx` to the _ctx functions is allowed and means one-shot. */
typedef struct cp_codec_ctx cp_codec_ctx;

/* Allocates an empty context (cheap: the codec state comes on first use). Free with
 * cp_codec_ctx_free. */
int cp_codec_ctx_new(cp_codec_ctx **out, paimon_error *err);

/* Frees the context and every codec state it holds; NULL is a no-op. */
void cp_codec_ctx_free(cp_codec_ctx *ctx);

/* cp_compress, cp_decompress_exact and cp_decompress_append through `ctx` (may be NULL). */
int cp_compress_ctx(cp_codec_ctx *ctx, cp_codec codec, int level, const void *src, size_t n,
                    cp_buf *out, paimon_error *err);
int cp_decompress_exact_ctx(cp_codec_ctx *ctx, cp_codec codec, const void *src, size_t n, void *dst,
                            size_t dst_len, paimon_error *err);
int cp_decompress_append_ctx(cp_codec_ctx *ctx, cp_codec codec, const void *src, size_t n,
                             cp_buf *out, size_t max_len, paimon_error *err);

/* CRC-32 (IEEE, as zlib's crc32) of data, continuing from `crc` (start with 0). */
uint32_t cp_crc32(uint32_t crc, const void *data, size_t n);

#endif
