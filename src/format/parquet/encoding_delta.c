/*
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (spec/parquet.md §2.7, tier 2
 * of the reader profile §2.5; parquet-format Encodings.md "Delta Encoding", "Delta-length byte
 * array", "Delta Strings").
 *
 * Layout: header <block size> <miniblocks per block> <total count> <zigzag first value>, then
 * blocks of <zigzag min delta> <one bit-width byte per miniblock> <bit-packed miniblocks>. Each
 * value is the previous one plus min delta plus the unpacked number, in wrapping arithmetic: the
 * decoder keeps everything in uint64 and the INT32 form keeps the low 32 bits, which is exactly
 * 32-bit wrapping. Only miniblocks that hold values have bytes; a used miniblock is always padded
 * to its full size, but a stream cut short inside its last miniblock is still read as far as its
 * bytes go (the values needed must be present).
 *
 * No allocation depends on the header: a count or block size from the input only bounds loops
 * whose every step consumes input bytes or produces a value the caller asked for.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/encoding.h"

static int delta_truncated(const cp_pq_delta_decoder *d, const char *part, size_t at,
                           paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "DELTA_BINARY_PACKED (%s): %s at byte %zu", d->what,
                          part, at);
}

static int delta_read_uleb(cp_pq_delta_decoder *d, uint64_t *v, int bits, const char *part,
                           paimon_error *err) {
  const size_t at = d->pos;
  int rc = cp_pq_uleb128_read(v, d->data, d->len, &d->pos, bits);
  if (rc == -1) return delta_truncated(d, part, at, err);
  if (rc != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): %s at byte %zu is an overlong varint",
                            d->what, part, at);
  return PAIMON_OK;
}

int cp_pq_delta_decoder_init(cp_pq_delta_decoder *d, const uint8_t *data, size_t len,
                             int value_bits, const char *what, paimon_error *err) {
  memset(d, 0, sizeof *d);
  d->data = data;
  d->len = data ? len : 0;
  d->what = what ? what : "values";
  d->value_bits = value_bits;
  if (value_bits != 32 && value_bits != 64)
    return paimon_error_set(err, PAIMON_EINVAL, "DELTA_BINARY_PACKED: value bits %d", value_bits);
  uint64_t block_size, miniblocks, total, first;
  CP_RETURN_IF_ERROR(delta_read_uleb(d, &block_size, 32, "block size", err));
  CP_RETURN_IF_ERROR(delta_read_uleb(d, &miniblocks, 32, "miniblock count", err));
  CP_RETURN_IF_ERROR(delta_read_uleb(d, &total, 64, "total value count", err));
  CP_RETURN_IF_ERROR(delta_read_uleb(d, &first, 64, "first value", err));
  if (block_size == 0 || block_size % 128 != 0 || block_size > INT32_MAX)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): block size %llu is not a positive multiple "
                            "of 128",
                            d->what, (unsigned long long)block_size);
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): %llu miniblocks do not split a block of "
                            "%llu values into multiples of 32",
                            d->what, (unsigned long long)miniblocks,
                            (unsigned long long)block_size);
  if (total > INT32_MAX)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): total count %llu exceeds 2^31-1", d->what,
                            (unsigned long long)total);
  d->block_size = (uint32_t)block_size;
  d->miniblocks = (uint32_t)miniblocks;
  d->mini_size = (uint32_t)(block_size / miniblocks);
  d->total = total;
  d->last = (uint64_t)cp_pq_zigzag_decode(first);
  return PAIMON_OK;
}

/* Moves to the next miniblock that holds values, reading a block header when the block is done. */
static int delta_next_miniblock(cp_pq_delta_decoder *d, paimon_error *err) {
  if (d->block_left == 0) {
    uint64_t zz;
    CP_RETURN_IF_ERROR(delta_read_uleb(d, &zz, 64, "block min delta", err));
    d->min_delta = (uint64_t)cp_pq_zigzag_decode(zz);
    if (d->miniblocks > d->len - d->pos)
      return delta_truncated(d, "miniblock bit widths", d->pos, err);
    d->widths_pos = d->pos;
    d->pos += d->miniblocks;
    d->mini_index = 0;
    uint64_t left = d->total - d->returned;
    d->block_left = left < d->block_size ? (uint32_t)left : d->block_size;
  } else {
    d->mini_index++;
  }
  const size_t at = d->widths_pos + d->mini_index;
  const int w = d->data[at];
  if (w > d->value_bits)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): miniblock bit width %d at byte %zu exceeds "
                            "%d",
                            d->what, w, at, d->value_bits);
  d->mini_width = w;
  d->mini_left = d->block_left < d->mini_size ? d->block_left : d->mini_size;
  d->block_left -= d->mini_left;
  const uint64_t full = (uint64_t)d->mini_size * (uint64_t)w / 8;
  const uint64_t needed = ((uint64_t)d->mini_left * (uint64_t)w + 7) / 8;
  const size_t avail = d->len - d->pos;
  if (needed > avail) return delta_truncated(d, "miniblock data", d->pos, err);
  d->mini_pos = d->pos;
  d->pos += full < avail ? (size_t)full : avail;
  d->mini_end = d->pos;
  d->pending_pos = d->pending_n = 0;
  return PAIMON_OK;
}

/* Produces `take` values of the current miniblock (take <= mini_left): unpack deltas, then add. */
static void delta_take(cp_pq_delta_decoder *d, uint64_t *out, size_t take) {
  const size_t w = (size_t)d->mini_width;
  const uint64_t md = d->min_delta;
  uint64_t last = d->last;
  size_t i = 0;
  while (i < take && d->pending_pos < d->pending_n) {
    last += md + d->pending[d->pending_pos++];
    out[i++] = last;
  }
  size_t groups = (take - i) / 8;
  if (groups > 0) {
    const size_t avail = d->mini_end - d->mini_pos;
    cp_pq_unpack64(out + i, d->data + d->mini_pos, avail, groups, d->mini_width);
    d->mini_pos += groups * w < avail ? groups * w : avail;
    for (size_t j = i; j < i + groups * 8; j++) {
      last += md + out[j];
      out[j] = last;
    }
    i += groups * 8;
  }
  if (i < take) {
    const size_t avail = d->mini_end - d->mini_pos;
    cp_pq_unpack64(d->pending, d->data + d->mini_pos, avail, 1, d->mini_width);
    d->mini_pos += w < avail ? w : avail;
    d->pending_pos = 0;
    d->pending_n = 8;
    while (i < take) {
      last += md + d->pending[d->pending_pos++];
      out[i++] = last;
    }
  }
  d->last = last;
}

static int delta_decode_u64(cp_pq_delta_decoder *d, uint64_t *out, size_t n, paimon_error *err) {
  if (n > d->total - d->returned)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BINARY_PACKED (%s): %zu values needed but the header's count "
                            "leaves %llu",
                            d->what, n, (unsigned long long)(d->total - d->returned));
  size_t k = 0;
  if (n > 0 && d->returned == 0) {
    out[k++] = d->last;
    d->returned = 1;
  }
  while (k < n) {
    if (d->mini_left == 0) CP_RETURN_IF_ERROR(delta_next_miniblock(d, err));
    size_t take = n - k < d->mini_left ? n - k : d->mini_left;
    delta_take(d, out + k, take);
    d->mini_left -= (uint32_t)take;
    d->returned += take;
    k += take;
  }
  return PAIMON_OK;
}

int cp_pq_delta_decode_i64(cp_pq_delta_decoder *d, int64_t *out, size_t n, paimon_error *err) {
  if (d->value_bits != 64)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "DELTA_BINARY_PACKED (%s): INT32 stream read as "
                            "INT64",
                            d->what);
  return delta_decode_u64(d, (uint64_t *)out, n, err);
}

int cp_pq_delta_decode_i32(cp_pq_delta_decoder *d, int32_t *out, size_t n, paimon_error *err) {
  if (d->value_bits != 32)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "DELTA_BINARY_PACKED (%s): INT64 stream read as "
                            "INT32",
                            d->what);
  uint64_t tmp[512];
  for (size_t k = 0; k < n;) {
    size_t chunk = n - k < 512 ? n - k : 512;
    CP_RETURN_IF_ERROR(delta_decode_u64(d, tmp, chunk, err));
    for (size_t i = 0; i < chunk; i++) out[k + i] = (int32_t)(uint32_t)tmp[i];
    k += chunk;
  }
  return PAIMON_OK;
}

int cp_pq_delta_decoder_end(cp_pq_delta_decoder *d, size_t *consumed, paimon_error *err) {
  if (d->returned == 0 && d->total > 0) d->returned = 1;
  /* The current miniblock's bytes are already behind d->pos; drop its values, then walk the
   * remaining miniblocks and blocks by their headers alone. */
  d->returned += d->mini_left;
  d->mini_left = 0;
  while (d->returned < d->total) {
    CP_RETURN_IF_ERROR(delta_next_miniblock(d, err));
    d->returned += d->mini_left;
    d->mini_left = 0;
  }
  *consumed = d->pos;
  return PAIMON_OK;
}

/* ---- encoder ---- */

enum { DELTA_BLOCK = 128, DELTA_MINIBLOCKS = 4, DELTA_MINI = DELTA_BLOCK / DELTA_MINIBLOCKS };

/* Value i as a wrapping int64 of the stream's width. */
static inline uint64_t delta_get(const void *values, int bits, size_t i) {
  return bits == 32 ? (uint64_t)(int64_t)((const int32_t *)values)[i]
                    : (uint64_t)((const int64_t *)values)[i];
}

/* Writes one block of `count` (1..128) deltas. */
static int delta_put_block(cp_buf *out, const int64_t *deltas, size_t count, paimon_error *err) {
  int64_t min = deltas[0];
  for (size_t i = 1; i < count; i++) min = deltas[i] < min ? deltas[i] : min;
  uint64_t rel[DELTA_BLOCK] = {0};
  uint8_t widths[DELTA_MINIBLOCKS] = {0};
  const size_t used = (count + DELTA_MINI - 1) / DELTA_MINI;
  for (size_t m = 0; m < used; m++) {
    uint64_t mx = 0;
    for (size_t i = m * DELTA_MINI; i < (m + 1) * DELTA_MINI && i < count; i++) {
      rel[i] = (uint64_t)deltas[i] - (uint64_t)min;
      mx |= rel[i];
    }
    widths[m] = (uint8_t)cp_pq_bit_width(mx);
  }
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + DELTA_MINIBLOCKS + DELTA_BLOCK * 8, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, cp_pq_zigzag_encode(min));
  memcpy(out->data + out->len, widths, DELTA_MINIBLOCKS);
  out->len += DELTA_MINIBLOCKS;
  for (size_t m = 0; m < used; m++) {
    cp_pq_pack64(out->data + out->len, rel + m * DELTA_MINI, DELTA_MINI / 8, widths[m]);
    out->len += (size_t)DELTA_MINI / 8 * widths[m];
  }
  return PAIMON_OK;
}

/* Deltas are formed in the stream's width (32-bit wrap for INT32) and kept sign-extended, so the
 * block minimum is a true minimum and every relative delta fits the width. */
static int delta_encode(cp_buf *out, const void *values, int bits, size_t n, paimon_error *err) {
  if (n > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "DELTA_BINARY_PACKED encoder: %zu values", n);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 40, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, DELTA_BLOCK);
  out->len += cp_pq_uleb128_put(out->data + out->len, DELTA_MINIBLOCKS);
  out->len += cp_pq_uleb128_put(out->data + out->len, n);
  uint64_t prev = n ? delta_get(values, bits, 0) : 0;
  out->len += cp_pq_uleb128_put(out->data + out->len, cp_pq_zigzag_encode((int64_t)prev));
  int64_t deltas[DELTA_BLOCK];
  size_t count = 0;
  for (size_t i = 1; i < n; i++) {
    uint64_t v = delta_get(values, bits, i);
    uint64_t dlt = v - prev;
    deltas[count++] = bits == 32 ? (int64_t)(int32_t)(uint32_t)dlt : (int64_t)dlt;
    prev = v;
    if (count == DELTA_BLOCK) {
      CP_RETURN_IF_ERROR(delta_put_block(out, deltas, count, err));
      count = 0;
    }
  }
  if (count > 0) CP_RETURN_IF_ERROR(delta_put_block(out, deltas, count, err));
  return PAIMON_OK;
}

int cp_pq_delta_encode_i32(cp_buf *out, const int32_t *values, size_t n, paimon_error *err) {
  return delta_encode(out, values, 32, n, err);
}

int cp_pq_delta_encode_i64(cp_buf *out, const int64_t *values, size_t n, paimon_error *err) {
  return delta_encode(out, values, 64, n, err);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY ---- */

int cp_pq_dlba_decode(int32_t *offsets, cp_buf *values, size_t n, const uint8_t *data, size_t len,
                      paimon_error *err) {
  cp_pq_delta_decoder d;
  CP_RETURN_IF_ERROR(
      cp_pq_delta_decoder_init(&d, data, len, 32, "DELTA_LENGTH_BYTE_ARRAY lengths", err));
  /* Lengths go into offsets[1..n] and become offsets by a running sum in place. */
  CP_RETURN_IF_ERROR(cp_pq_delta_decode_i32(&d, offsets + 1, n, err));
  size_t start = 0;
  CP_RETURN_IF_ERROR(cp_pq_delta_decoder_end(&d, &start, err));
  const size_t avail = len - start;
  if (values->len > (size_t)INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "DELTA_LENGTH_BYTE_ARRAY: output is full");
  int64_t off = (int64_t)values->len, total = 0;
  offsets[0] = (int32_t)off;
  for (size_t i = 0; i < n; i++) {
    int32_t l = offsets[i + 1];
    if (l < 0 || (uint64_t)l > avail - (uint64_t)total)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "DELTA_LENGTH_BYTE_ARRAY: value %zu has length %d but %zu bytes "
                              "remain after byte %zu",
                              i, l, avail - (size_t)total, start + (size_t)total);
    total += l;
    if (off + total > INT32_MAX)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "DELTA_LENGTH_BYTE_ARRAY: output overflows 32-bit offsets");
    offsets[i + 1] = (int32_t)(off + total);
  }
  return cp_buf_append(values, data + start, (size_t)total, err);
}

/* Lengths of the byte arrays as an int32 array the caller frees (NULL on failure). */
static int32_t *byte_lengths(const int32_t *offsets, size_t n, const char *what,
                             paimon_error *err) {
  int32_t *lens = malloc((n ? n : 1) * sizeof *lens);
  if (!lens) {
    CP_ENOMEM(err, what);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    lens[i] = offsets[i + 1] - offsets[i];
    if (lens[i] < 0) {
      paimon_error_set(err, PAIMON_EINVAL, "%s encoder: value %zu has negative length", what, i);
      free(lens);
      return NULL;
    }
  }
  return lens;
}

int cp_pq_dlba_encode(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                      paimon_error *err) {
  int32_t *lens = byte_lengths(offsets, n, "DELTA_LENGTH_BYTE_ARRAY", err);
  if (!lens) return err ? err->code : PAIMON_ENOMEM;
  int rc = cp_pq_delta_encode_i32(out, lens, n, err);
  free(lens);
  CP_RETURN_IF_ERROR(rc);
  if (n == 0 || offsets[n] == offsets[0]) return PAIMON_OK;
  return cp_buf_append(out, data + offsets[0], (size_t)(offsets[n] - offsets[0]), err);
}

/* ---- DELTA_BYTE_ARRAY ---- */

/* Finds where the DELTA_BINARY_PACKED stream at data[0, len) ends, checking it holds >= n. */
static int dba_stream_end(const uint8_t *data, size_t len, size_t n, const char *what, size_t *end,
                          paimon_error *err) {
  cp_pq_delta_decoder d;
  CP_RETURN_IF_ERROR(cp_pq_delta_decoder_init(&d, data, len, 32, what, err));
  if (cp_pq_delta_decoder_total(&d) < n)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BYTE_ARRAY: %s hold %zu values, %zu needed", what,
                            cp_pq_delta_decoder_total(&d), n);
  return cp_pq_delta_decoder_end(&d, end, err);
}

/* Appends value i = prefix of the previous value + suffix, checking both against what exists. */
static int dba_put(int32_t *offsets, cp_buf *values, size_t i, int32_t prefix, int32_t suffix,
                   const uint8_t *suffix_data, size_t suffix_avail, size_t limit,
                   paimon_error *err) {
  const int32_t prev_len = i ? offsets[i] - offsets[i - 1] : 0;
  if (prefix < 0 || prefix > prev_len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BYTE_ARRAY: value %zu has prefix length %d but the previous "
                            "value has %d bytes",
                            i, prefix, prev_len);
  if (suffix < 0 || (size_t)suffix > suffix_avail)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BYTE_ARRAY: value %zu has suffix length %d but only %zu suffix "
                            "bytes remain",
                            i, suffix, suffix_avail);
  const size_t add = (size_t)prefix + (size_t)suffix;
  if (add > limit - values->len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DELTA_BYTE_ARRAY: value %zu grows the output past the %zu-byte limit",
                            i, limit);
  CP_RETURN_IF_ERROR(cp_buf_reserve(values, add, err));
  if (prefix) memcpy(values->data + values->len, values->data + offsets[i - 1], (size_t)prefix);
  if (suffix) memcpy(values->data + values->len + prefix, suffix_data, (size_t)suffix);
  values->len += add;
  offsets[i + 1] = (int32_t)values->len;
  return PAIMON_OK;
}

int cp_pq_dba_decode(int32_t *offsets, cp_buf *values, size_t n, const uint8_t *data, size_t len,
                     size_t max_bytes, paimon_error *err) {
  /* Three sections, found by walking the two length streams' headers first. */
  size_t pre_end = 0, suf_end = 0;
  CP_RETURN_IF_ERROR(dba_stream_end(data, len, n, "prefix lengths", &pre_end, err));
  CP_RETURN_IF_ERROR(
      dba_stream_end(data + pre_end, len - pre_end, n, "suffix lengths", &suf_end, err));
  const size_t bytes_at = pre_end + suf_end;
  if (values->len > (size_t)INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "DELTA_BYTE_ARRAY: output is already full");
  /* An absolute cap on values->len: this call's budget, and the 32-bit offsets' range. */
  size_t budget = (size_t)INT32_MAX - values->len;
  if (max_bytes && max_bytes < budget) budget = max_bytes;
  const size_t limit = values->len + budget;
  cp_pq_delta_decoder pre, suf;
  CP_RETURN_IF_ERROR(cp_pq_delta_decoder_init(&pre, data, pre_end, 32, "prefix lengths", err));
  CP_RETURN_IF_ERROR(
      cp_pq_delta_decoder_init(&suf, data + pre_end, suf_end, 32, "suffix lengths", err));
  offsets[0] = (int32_t)values->len;
  size_t used = 0;
  for (size_t k = 0; k < n;) {
    int32_t pl[256], sl[256];
    size_t chunk = n - k < 256 ? n - k : 256;
    CP_RETURN_IF_ERROR(cp_pq_delta_decode_i32(&pre, pl, chunk, err));
    CP_RETURN_IF_ERROR(cp_pq_delta_decode_i32(&suf, sl, chunk, err));
    for (size_t i = 0; i < chunk; i++) {
      const size_t avail = len - bytes_at - used;
      CP_RETURN_IF_ERROR(
          dba_put(offsets, values, k + i, pl[i], sl[i], data + bytes_at + used, avail, limit, err));
      used += (size_t)sl[i];
    }
    k += chunk;
  }
  return PAIMON_OK;
}

int cp_pq_dba_encode(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                     paimon_error *err) {
  int32_t *suffix = byte_lengths(offsets, n, "DELTA_BYTE_ARRAY", err);
  if (!suffix) return err ? err->code : PAIMON_ENOMEM;
  int32_t *prefix = calloc(n ? n : 1, sizeof *prefix);
  if (!prefix) {
    free(suffix);
    return CP_ENOMEM(err, "DELTA_BYTE_ARRAY prefix lengths");
  }
  for (size_t i = 0; i < n; i++) {
    int32_t p = 0, m = i == 0 ? 0 : suffix[i - 1] < suffix[i] ? suffix[i - 1] : suffix[i];
    if (m > 0) {
      const uint8_t *a = data + offsets[i - 1], *b = data + offsets[i];
      while (p < m && a[p] == b[p]) p++;
    }
    prefix[i] = p;
  }
  /* suffix[] held the full lengths while the prefixes were measured. */
  for (size_t i = 0; i < n; i++) suffix[i] -= prefix[i];
  int rc = cp_pq_delta_encode_i32(out, prefix, n, err);
  if (rc == 0) rc = cp_pq_delta_encode_i32(out, suffix, n, err);
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (suffix[i]) rc = cp_buf_append(out, data + offsets[i] + prefix[i], (size_t)suffix[i], err);
  free(prefix);
  free(suffix);
  return rc;
}
