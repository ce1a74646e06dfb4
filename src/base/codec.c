/*
 * Compression codecs (codec.h) over libzstd, snappy's C API, liblz4 and zlib, for Parquet pages
 * (spec/parquet.md §2.8, "Compression") and Avro container blocks (spec/format.md §4.7).
 *
 * Every decompressor writes through a cp_sink, which is either the caller's fixed buffer (the
 * Parquet case: the page header states the uncompressed size) or a cp_buf growing up to a bound
 * (the Avro case). The sink is what makes decompression bombs harmless: a codec never gets more
 * room than the bound, and when the room is used up we ask the codec for one more byte — if it has
 * one, the stream is longer than the caller allowed and is refused as corrupt.
 *
 * LZ4 has two framings in Parquet. LZ4_RAW is a bare block. The deprecated LZ4 codec means what
 * parquet-java writes through Hadoop's BlockCompressorStream: blocks of [u32 BE uncompressed size
 * of the block] followed by one or more [u32 BE compressed size][LZ4 block] chunks that together
 * decompress to that size. Some old writers put a bare block there instead, so (like Arrow) we fall
 * back to a raw block when the Hadoop framing does not parse.
 *
 * Contexts (cp_codec_ctx): zstd and zlib build per-call state (a ZSTD_CCtx is ~1.3 MB of tables
 * at level 1 and costs about as much to set up as compressing 100 KB). A context keeps that state
 * between calls and resets it before each one: ZSTD_compressCCtx compresses at the given level
 * ignoring any other parameter, exactly as ZSTD_compress does; deflateReset/inflateReset keep the
 * level and window bits the stream was made with (a different codec or level makes a new stream).
 * So a call through a context produces the bytes the one-shot call would.
 */
#include "base/codec.h"

#include <libdeflate.h>
#include <limits.h>
#include <lz4.h>
#include <snappy-c.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "base/status.h"

struct cp_codec_ctx {
  ZSTD_CCtx *zc;
  ZSTD_DCtx *zd;
  z_stream deflate, inflate;
  bool deflate_ready, inflate_ready;
  cp_codec deflate_codec, inflate_codec;
  int deflate_level;
};

int cp_codec_ctx_new(cp_codec_ctx **out, paimon_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "codec context");
}

void cp_codec_ctx_free(cp_codec_ctx *ctx) {
  if (!ctx) return;
  ZSTD_freeCCtx(ctx->zc);
  ZSTD_freeDCtx(ctx->zd);
  if (ctx->deflate_ready) deflateEnd(&ctx->deflate);
  if (ctx->inflate_ready) inflateEnd(&ctx->inflate);
  free(ctx);
}

static const char *const cp_codec_names[] = {
    [CP_CODEC_NONE] = "none",
    [CP_CODEC_SNAPPY] = "snappy",
    [CP_CODEC_GZIP] = "gzip",
    [CP_CODEC_DEFLATE] = "deflate",
    [CP_CODEC_ZSTD] = "zstd",
    [CP_CODEC_LZ4_RAW] = "lz4_raw",
    [CP_CODEC_LZ4_HADOOP] = "lz4_hadoop",
};

const char *cp_codec_name(cp_codec codec) {
  if ((unsigned)codec > CP_CODEC_LZ4_HADOOP) return "unknown";
  return cp_codec_names[codec];
}

int cp_codec_from_name(const char *name, cp_codec *out, paimon_error *err) {
  static const struct {
    const char *name;
    cp_codec codec;
  } aliases[] = {
      {"none", CP_CODEC_NONE},
      {"uncompressed", CP_CODEC_NONE},
      {"null", CP_CODEC_NONE},
      {"snappy", CP_CODEC_SNAPPY},
      {"gzip", CP_CODEC_GZIP},
      {"deflate", CP_CODEC_DEFLATE},
      {"zstd", CP_CODEC_ZSTD},
      {"zstandard", CP_CODEC_ZSTD},
      {"lz4_raw", CP_CODEC_LZ4_RAW},
      {"lz4", CP_CODEC_LZ4_HADOOP},
      {"lz4_hadoop", CP_CODEC_LZ4_HADOOP},
  };
  for (size_t i = 0; name && i < sizeof aliases / sizeof aliases[0]; i++) {
    if (strcasecmp(name, aliases[i].name) == 0) {
      *out = aliases[i].codec;
      return PAIMON_OK;
    }
  }
  return paimon_error_set(err, PAIMON_EINVAL, "unknown compression codec '%s'",
                          name ? name : "(null)");
}

/* libdeflate's CRC-32 (same polynomial and conditioning as zlib's) folds with carry-less
 * multiplication where the CPU has it: about 2.3x zlib's speed here, which a writer of `.blob`
 * files checksumming every payload byte notices. */
uint32_t cp_crc32(uint32_t crc, const void *data, size_t n) {
  return libdeflate_crc32(crc, data, n);
}

/* ---- output sinks ---- */

typedef struct cp_sink {
  cp_codec codec;
  uint8_t *fixed; /* exact mode: the caller's buffer of `limit` bytes */
  cp_buf *buf;    /* append mode: bytes go to buf->data + buf->len */
  size_t produced;
  size_t limit;
} cp_sink;

static int cp_sink_overflow(const cp_sink *s, paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "%s: decompressed data exceeds %zu bytes",
                          cp_codec_name(s->codec), s->limit);
}

/* The next writable region: *avail is 0 exactly when the bound is reached. In append mode the
 * buffer grows geometrically but never past the bound. */
static int cp_sink_space(cp_sink *s, uint8_t **p, size_t *avail, paimon_error *err) {
  size_t room = s->limit - s->produced;
  if (s->fixed) {
    *p = s->fixed + s->produced;
    *avail = room;
    return PAIMON_OK;
  }
  size_t want = s->produced > 65536 ? s->produced : 65536;
  if (want > room) want = room;
  /* At least one byte, so that data is never NULL (pointer arithmetic on NULL is undefined). */
  if (want == 0) want = 1;
  if (s->buf->cap - s->buf->len < want) CP_RETURN_IF_ERROR(cp_buf_reserve(s->buf, want, err));
  size_t have = s->buf->cap - s->buf->len;
  *p = s->buf->data + s->buf->len;
  *avail = have < room ? have : room;
  return PAIMON_OK;
}

/* Exactly `k` bytes of room, or ECORRUPT when that would pass the bound. */
static int cp_sink_take(cp_sink *s, size_t k, uint8_t **p, paimon_error *err) {
  if (k > s->limit - s->produced) return cp_sink_overflow(s, err);
  if (s->fixed) {
    *p = s->fixed + s->produced;
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(cp_buf_reserve(s->buf, k ? k : 1, err));
  *p = s->buf->data + s->buf->len;
  return PAIMON_OK;
}

static void cp_sink_commit(cp_sink *s, size_t k) {
  s->produced += k;
  if (s->buf) s->buf->len += k;
}

static int cp_corrupt(cp_codec codec, paimon_error *err, const char *what) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "%s: corrupt input: %s", cp_codec_name(codec),
                          what);
}

/* ---- zlib: gzip and raw deflate ---- */

/* What follows a finished deflate stream: for gzip another member may follow (RFC 1952 §2.2;
 * parquet-testing's concatenated_gzip_members.parquet); anything else after gzip is garbage.
 * Raw deflate ignores what follows the final block, as Java's Inflater and Python's zlib do:
 * fastavro writes Avro deflate blocks as zlib.compress(data)[2:-1], which leaves three bytes of
 * the Adler-32 checksum after the stream. */
static int cp_inflate_after_end(cp_sink *s, z_stream *z, paimon_error *err) {
  if (z->avail_in == 0 || s->codec == CP_CODEC_DEFLATE) return 1;
  if (s->codec == CP_CODEC_GZIP && z->avail_in >= 2 && z->next_in[0] == 0x1f &&
      z->next_in[1] == 0x8b) {
    if (inflateReset(z) != Z_OK) return cp_corrupt(s->codec, err, "cannot reset inflater");
    return 0;
  }
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s: corrupt input: %u trailing bytes after the end "
                          "of the compressed stream",
                          cp_codec_name(s->codec), z->avail_in);
}

static int cp_inflate_loop(cp_sink *s, z_stream *z, paimon_error *err) {
  for (;;) {
    uint8_t *out, scratch;
    size_t avail;
    CP_RETURN_IF_ERROR(cp_sink_space(s, &out, &avail, err));
    bool probing = avail == 0;
    uInt out_size = probing ? 1 : (avail > UINT_MAX ? UINT_MAX : (uInt)avail);
    z->next_out = probing ? &scratch : out;
    z->avail_out = out_size;
    uInt in_before = z->avail_in;
    int zr = inflate(z, Z_NO_FLUSH);
    size_t wrote = out_size - z->avail_out;
    if (zr == Z_MEM_ERROR) return CP_ENOMEM(err, "inflate state");
    if (zr == Z_NEED_DICT || zr == Z_DATA_ERROR || zr == Z_STREAM_ERROR)
      return cp_corrupt(s->codec, err, z->msg ? z->msg : "invalid stream");
    if (probing && wrote > 0) return cp_sink_overflow(s, err);
    cp_sink_commit(s, wrote);
    if (zr == Z_STREAM_END) {
      int after = cp_inflate_after_end(s, z, err);
      if (after != 0) return after > 0 ? PAIMON_OK : after;
      continue;
    }
    if (wrote == 0 && z->avail_in == in_before) {
      if (z->avail_in == 0) return cp_corrupt(s->codec, err, "truncated stream");
      return cp_corrupt(s->codec, err, "stream makes no progress");
    }
  }
}

/* The context's inflate stream for s->codec, reset; or NULL after a failure. */
static z_stream *cp_ctx_inflate(cp_codec_ctx *ctx, cp_codec codec, int wbits) {
  if (ctx->inflate_ready && ctx->inflate_codec == codec)
    return inflateReset(&ctx->inflate) == Z_OK ? &ctx->inflate : NULL;
  if (ctx->inflate_ready) inflateEnd(&ctx->inflate);
  ctx->inflate_ready = false;
  memset(&ctx->inflate, 0, sizeof ctx->inflate);
  if (inflateInit2(&ctx->inflate, wbits) != Z_OK) return NULL;
  ctx->inflate_ready = true;
  ctx->inflate_codec = codec;
  return &ctx->inflate;
}

static int cp_inflate(cp_codec_ctx *ctx, cp_sink *s, const uint8_t *src, size_t n,
                      paimon_error *err) {
  if (n > UINT_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: %zu bytes of input is too large",
                            cp_codec_name(s->codec), n);
  int wbits = s->codec == CP_CODEC_GZIP ? 16 + MAX_WBITS : -MAX_WBITS;
  z_stream local, *z = &local;
  if (ctx) {
    z = cp_ctx_inflate(ctx, s->codec, wbits);
    if (!z) return CP_ENOMEM(err, "inflate state");
  } else {
    memset(&local, 0, sizeof local);
    if (inflateInit2(&local, wbits) != Z_OK) return CP_ENOMEM(err, "inflate state");
  }
  z->next_in = (Bytef *)src;
  z->avail_in = (uInt)n;
  int rc = cp_inflate_loop(s, z, err);
  if (!ctx) inflateEnd(&local);
  return rc;
}

static int cp_deflate_init(z_stream *z, cp_codec codec, int level) {
  memset(z, 0, sizeof *z);
  int wbits = codec == CP_CODEC_GZIP ? 16 + MAX_WBITS : -MAX_WBITS;
  return deflateInit2(z, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, wbits, 8,
                      Z_DEFAULT_STRATEGY);
}

/* The context's deflate stream for (codec, level), reset; or NULL after a failure. */
static z_stream *cp_ctx_deflate(cp_codec_ctx *ctx, cp_codec codec, int level) {
  if (ctx->deflate_ready && ctx->deflate_codec == codec && ctx->deflate_level == level)
    return deflateReset(&ctx->deflate) == Z_OK ? &ctx->deflate : NULL;
  if (ctx->deflate_ready) deflateEnd(&ctx->deflate);
  ctx->deflate_ready = cp_deflate_init(&ctx->deflate, codec, level) == Z_OK;
  ctx->deflate_codec = codec;
  ctx->deflate_level = level;
  return ctx->deflate_ready ? &ctx->deflate : NULL;
}

static int cp_deflate_run(z_stream *z, cp_codec codec, const uint8_t *src, size_t n, cp_buf *out,
                          paimon_error *err) {
  z->next_in = (Bytef *)src;
  z->avail_in = (uInt)n;
  size_t want = deflateBound(z, (uLong)n);
  int rc = PAIMON_OK, zr = Z_OK;
  while (rc == 0 && zr != Z_STREAM_END) {
    rc = cp_buf_reserve(out, want, err);
    if (rc != 0) break;
    size_t avail = out->cap - out->len;
    z->next_out = out->data + out->len;
    z->avail_out = avail > UINT_MAX ? UINT_MAX : (uInt)avail;
    uInt before = z->avail_out;
    zr = deflate(z, Z_FINISH);
    out->len += before - z->avail_out;
    if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
      rc = paimon_error_set(err, PAIMON_EIO, "%s: compression failed (%d)", cp_codec_name(codec),
                            zr);
    want = 65536;
  }
  return rc;
}

static int cp_deflate(cp_codec_ctx *ctx, cp_codec codec, int level, const uint8_t *src, size_t n,
                      cp_buf *out, paimon_error *err) {
  if (level < 0 || level > 9)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: level %d is not in 1..9", cp_codec_name(codec),
                            level);
  if (n > UINT_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: %zu bytes of input is too large",
                            cp_codec_name(codec), n);
  if (ctx) {
    z_stream *z = cp_ctx_deflate(ctx, codec, level);
    if (!z) return CP_ENOMEM(err, "deflate state");
    return cp_deflate_run(z, codec, src, n, out, err);
  }
  z_stream z;
  if (cp_deflate_init(&z, codec, level) != Z_OK) return CP_ENOMEM(err, "deflate state");
  int rc = cp_deflate_run(&z, codec, src, n, out, err);
  deflateEnd(&z);
  return rc;
}

/* ---- zstd ---- */

/* Streaming decompression handles everything Parquet and Avro writers produce: several frames,
 * frames without a content size (parquet-java, Java Avro), skippable frames. */
static int cp_zstd_loop(cp_sink *s, ZSTD_DCtx *d, ZSTD_inBuffer *in, paimon_error *err) {
  size_t last = 1;
  for (;;) {
    uint8_t *out, scratch;
    size_t avail;
    CP_RETURN_IF_ERROR(cp_sink_space(s, &out, &avail, err));
    bool probing = avail == 0;
    ZSTD_outBuffer o = {probing ? &scratch : out, probing ? 1 : avail, 0};
    size_t in_before = in->pos;
    last = ZSTD_decompressStream(d, &o, in);
    if (ZSTD_isError(last)) {
      if (ZSTD_getErrorCode(last) == ZSTD_error_memory_allocation)
        return CP_ENOMEM(err, "zstd decompression window");
      return cp_corrupt(s->codec, err, ZSTD_getErrorName(last));
    }
    if (probing && o.pos > 0) return cp_sink_overflow(s, err);
    cp_sink_commit(s, o.pos);
    if (last == 0 && in->pos == in->size) return PAIMON_OK;
    if (o.pos == 0 && in->pos == in_before) {
      if (in->pos == in->size) return cp_corrupt(s->codec, err, "truncated frame");
      return cp_corrupt(s->codec, err, "stream makes no progress");
    }
  }
}

static int cp_zstd_decompress(cp_codec_ctx *ctx, cp_sink *s, const uint8_t *src, size_t n,
                              paimon_error *err) {
  ZSTD_DCtx *d = ctx ? ctx->zd : NULL;
  if (!d) {
    d = ZSTD_createDCtx();
    if (!d) return CP_ENOMEM(err, "zstd context");
    if (ctx) ctx->zd = d;
  } else {
    /* A failed call may have left a frame half-decoded. */
    ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
  }
  ZSTD_inBuffer in = {src, n, 0};
  int rc = cp_zstd_loop(s, d, &in, err);
  if (!ctx) ZSTD_freeDCtx(d);
  return rc;
}

static int cp_zstd_compress(cp_codec_ctx *ctx, int level, const uint8_t *src, size_t n, cp_buf *out,
                            paimon_error *err) {
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
    return paimon_error_set(err, PAIMON_EINVAL, "zstd: level %d is not in %d..%d", level,
                            ZSTD_minCLevel(), ZSTD_maxCLevel());
  size_t bound = ZSTD_compressBound(n);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, bound, err));
  if (ctx && !ctx->zc && !(ctx->zc = ZSTD_createCCtx())) return CP_ENOMEM(err, "zstd context");
  size_t r = ctx ? ZSTD_compressCCtx(ctx->zc, out->data + out->len, bound, src, n, level)
                 : ZSTD_compress(out->data + out->len, bound, src, n, level);
  if (ZSTD_isError(r))
    return paimon_error_set(err, PAIMON_EIO, "zstd: compression failed: %s", ZSTD_getErrorName(r));
  out->len += r;
  return PAIMON_OK;
}

/* ---- snappy ---- */

static int cp_snappy_decompress(cp_sink *s, const uint8_t *src, size_t n, paimon_error *err) {
  size_t claimed;
  if (snappy_uncompressed_length((const char *)src, n, &claimed) != SNAPPY_OK)
    return cp_corrupt(s->codec, err, "bad length header");
  if (s->fixed && claimed != s->limit)
    return paimon_error_set(err, PAIMON_ECORRUPT, "snappy: block holds %zu bytes, expected %zu",
                            claimed, s->limit);
  uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(cp_sink_take(s, claimed, &p, err));
  size_t got = claimed;
  if (snappy_uncompress((const char *)src, n, (char *)p, &got) != SNAPPY_OK || got != claimed)
    return cp_corrupt(s->codec, err, "malformed block");
  cp_sink_commit(s, got);
  return PAIMON_OK;
}

static int cp_snappy_compress(const uint8_t *src, size_t n, cp_buf *out, paimon_error *err) {
  size_t bound = snappy_max_compressed_length(n);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, bound, err));
  size_t got = bound;
  if (snappy_compress((const char *)src, n, (char *)out->data + out->len, &got) != SNAPPY_OK)
    return paimon_error_set(err, PAIMON_EIO, "snappy: compression of %zu bytes failed", n);
  out->len += got;
  return PAIMON_OK;
}

/* ---- lz4 ---- */

/* A raw block into the sink. The size is not recorded anywhere, so in append mode we try growing
 * capacities up to the bound; LZ4_decompress_safe never writes past the capacity it is given. */
static int cp_lz4_raw_decompress(cp_sink *s, const uint8_t *src, size_t n, paimon_error *err) {
  size_t room = s->limit - s->produced;
  if (n > INT_MAX || (s->fixed && room > INT_MAX))
    return paimon_error_set(err, PAIMON_EINVAL, "%s: block of %zu bytes is too large for LZ4",
                            cp_codec_name(s->codec), n);
  if (room > INT_MAX) room = INT_MAX;
  size_t cap = s->fixed ? room : (n * 4 > 65536 ? n * 4 : 65536);
  for (;;) {
    if (cap > room) cap = room;
    uint8_t *p = NULL;
    CP_RETURN_IF_ERROR(cp_sink_take(s, cap, &p, err));
    int r = LZ4_decompress_safe((const char *)src, (char *)p, (int)n, (int)cap);
    if (r >= 0) {
      if (s->fixed && (size_t)r != room)
        return paimon_error_set(err, PAIMON_ECORRUPT, "%s: block holds %d bytes, expected %zu",
                                cp_codec_name(s->codec), r, room);
      cp_sink_commit(s, (size_t)r);
      return PAIMON_OK;
    }
    if (cap == room)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "%s: corrupt input: malformed block or more than %zu bytes",
                              cp_codec_name(s->codec), room);
    cap *= 2;
  }
}

static uint32_t cp_load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int cp_why(const char **why, const char *what) {
  *why = what;
  return PAIMON_ECORRUPT;
}

/* Hadoop framing (see the file comment). On a framing failure *why says what did not parse; the
 * caller undoes whatever was committed to the sink. */
static int cp_lz4_hadoop_parse(cp_sink *s, const uint8_t *src, size_t n, const char **why,
                               paimon_error *err) {
  size_t pos = 0;
  while (pos < n) {
    if (n - pos < 4) return cp_why(why, "truncated block header");
    size_t total = cp_load_be32(src + pos), got = 0;
    pos += 4;
    if (total > INT_MAX) return cp_why(why, "block larger than LZ4 allows");
    if (total > s->limit - s->produced) return cp_why(why, "blocks hold more bytes than the bound");
    uint8_t *p = NULL;
    CP_RETURN_IF_ERROR(cp_sink_take(s, total, &p, err));
    while (got < total) {
      if (n - pos < 4) return cp_why(why, "truncated chunk header");
      size_t clen = cp_load_be32(src + pos);
      pos += 4;
      if (clen > n - pos || clen > INT_MAX) return cp_why(why, "chunk runs past the end of input");
      int r = LZ4_decompress_safe((const char *)src + pos, (char *)p + got, (int)clen,
                                  (int)(total - got));
      if (r < 0) return cp_why(why, "malformed chunk");
      got += (size_t)r;
      pos += clen;
    }
    cp_sink_commit(s, total);
  }
  if (s->fixed && s->produced != s->limit)
    return cp_why(why, "blocks hold fewer bytes than expected");
  return PAIMON_OK;
}

static int cp_lz4_hadoop_decompress(cp_sink *s, const uint8_t *src, size_t n, paimon_error *err) {
  size_t start = s->produced, buf_start = s->buf ? s->buf->len : 0;
  const char *why = NULL;
  int rc = cp_lz4_hadoop_parse(s, src, n, &why, err);
  if (rc == 0 || !why) return rc;
  /* Not Hadoop-framed: undo and try a bare block, as files from some old writers hold. */
  s->produced = start;
  if (s->buf) s->buf->len = buf_start;
  paimon_error raw_err;
  rc = cp_lz4_raw_decompress(s, src, n, &raw_err);
  if (rc == 0) return PAIMON_OK;
  if (rc != PAIMON_ECORRUPT) return paimon_error_set(err, rc, "%s", raw_err.message);
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "lz4_hadoop: corrupt input: %s (and not a bare LZ4 block of %zu bytes "
                          "either)",
                          why, s->limit - start);
}

static int cp_lz4_compress(const uint8_t *src, size_t n, cp_buf *out, paimon_error *err) {
  if (n > LZ4_MAX_INPUT_SIZE)
    return paimon_error_set(err, PAIMON_EINVAL, "lz4_raw: %zu bytes of input is too large", n);
  int bound = LZ4_compressBound((int)n);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, (size_t)bound, err));
  int r = LZ4_compress_default((const char *)src, (char *)out->data + out->len, (int)n, bound);
  if (r <= 0)
    return paimon_error_set(err, PAIMON_EIO, "lz4_raw: compression of %zu bytes failed", n);
  out->len += (size_t)r;
  return PAIMON_OK;
}

/* ---- entry points ---- */

int cp_compress_ctx(cp_codec_ctx *ctx, cp_codec codec, int level, const void *src, size_t n,
                    cp_buf *out, paimon_error *err) {
  switch (codec) {
  case CP_CODEC_NONE: return cp_buf_append(out, src, n, err);
  case CP_CODEC_SNAPPY: return cp_snappy_compress(src, n, out, err);
  case CP_CODEC_GZIP:
  case CP_CODEC_DEFLATE: return cp_deflate(ctx, codec, level, src, n, out, err);
  case CP_CODEC_ZSTD: return cp_zstd_compress(ctx, level, src, n, out, err);
  case CP_CODEC_LZ4_RAW: return cp_lz4_compress(src, n, out, err);
  case CP_CODEC_LZ4_HADOOP:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "lz4_hadoop: writing Hadoop-framed LZ4 is not supported (use lz4_raw)");
  }
  return paimon_error_set(err, PAIMON_EINVAL, "unknown codec id %d", (int)codec);
}

int cp_compress(cp_codec codec, int level, const void *src, size_t n, cp_buf *out,
                paimon_error *err) {
  return cp_compress_ctx(NULL, codec, level, src, n, out, err);
}

static int cp_decompress_sink(cp_codec_ctx *ctx, cp_sink *s, const uint8_t *src, size_t n,
                              paimon_error *err) {
  /* Nothing in, nothing out: Parquet v2 pages may have empty compressed sections, which no codec
   * (snappy in particular) accepts as a stream. */
  if (n == 0) return PAIMON_OK;
  switch (s->codec) {
  case CP_CODEC_NONE: {
    uint8_t *p = NULL;
    CP_RETURN_IF_ERROR(cp_sink_take(s, n, &p, err));
    memcpy(p, src, n);
    cp_sink_commit(s, n);
    return PAIMON_OK;
  }
  case CP_CODEC_SNAPPY: return cp_snappy_decompress(s, src, n, err);
  case CP_CODEC_GZIP:
  case CP_CODEC_DEFLATE: return cp_inflate(ctx, s, src, n, err);
  case CP_CODEC_ZSTD: return cp_zstd_decompress(ctx, s, src, n, err);
  case CP_CODEC_LZ4_RAW: return cp_lz4_raw_decompress(s, src, n, err);
  case CP_CODEC_LZ4_HADOOP: return cp_lz4_hadoop_decompress(s, src, n, err);
  }
  return paimon_error_set(err, PAIMON_EINVAL, "unknown codec id %d", (int)s->codec);
}

int cp_decompress_exact_ctx(cp_codec_ctx *ctx, cp_codec codec, const void *src, size_t n, void *dst,
                            size_t dst_len, paimon_error *err) {
  if (!dst && dst_len > 0)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: no buffer for %zu bytes", cp_codec_name(codec),
                            dst_len);
  uint8_t none; /* stands in for a NULL dst of length 0, so no arithmetic is done on NULL */
  cp_sink s = {codec, dst ? dst : &none, NULL, 0, dst ? dst_len : 0};
  CP_RETURN_IF_ERROR(cp_decompress_sink(ctx, &s, src, n, err));
  if (s.produced != dst_len)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: decompressed to %zu bytes, expected %zu",
                            cp_codec_name(codec), s.produced, dst_len);
  return PAIMON_OK;
}

int cp_decompress_exact(cp_codec codec, const void *src, size_t n, void *dst, size_t dst_len,
                        paimon_error *err) {
  return cp_decompress_exact_ctx(NULL, codec, src, n, dst, dst_len, err);
}

int cp_decompress_append_ctx(cp_codec_ctx *ctx, cp_codec codec, const void *src, size_t n,
                             cp_buf *out, size_t max_len, paimon_error *err) {
  size_t start = out->len;
  cp_sink s = {codec, NULL, out, 0, max_len};
  int rc = cp_decompress_sink(ctx, &s, src, n, err);
  if (rc != 0) out->len = start;
  return rc;
}

int cp_decompress_append(cp_codec codec, const void *src, size_t n, cp_buf *out, size_t max_len,
                         paimon_error *err) {
  return cp_decompress_append_ctx(NULL, codec, src, n, out, max_len, err);
}
