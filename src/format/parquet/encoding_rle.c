/*
 * The RLE / bit-packing hybrid (spec/parquet.md §2.7, §3, §4 P13/P14; parquet-format Encodings.md
 * "Run Length Encoding / Bit-Packing Hybrid") and what is built on it: definition and repetition
 * levels, dictionary indices, RLE booleans.
 *
 * Decoding is run-at-a-time: an RLE run fills the output with one value (a memset-like loop), a
 * bit-packed run unpacks whole groups of 8 straight into the output through the per-width
 * unpackers of encoding_bitpack.c, so the per-value cost is a few shifts. A bit-packed run whose
 * bytes pass the end of the data is cut to the values its bytes hold (parquet-java reads such runs
 * the same way), and asking for values past that is an error.
 */
#include <limits.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/encoding.h"

/* Run lengths are limited to 2^31 - 1 values (Encodings.md note 3). */
#define RUN_MAX ((uint64_t)INT32_MAX)

int cp_pq_rle_decoder_init(cp_pq_rle_decoder *d, const uint8_t *data, size_t len, int bit_width,
                           const char *what, paimon_error *err) {
  memset(d, 0, sizeof *d);
  d->data = data;
  d->len = data ? len : 0;
  d->what = what ? what : "RLE data";
  if (bit_width < 0 || bit_width > 32)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): bit width %d is outside 0..32", d->what,
                            bit_width);
  d->bit_width = bit_width;
  return PAIMON_OK;
}

/* Reads the next run header (and an RLE run's value). */
static int rle_next_run(cp_pq_rle_decoder *d, paimon_error *err) {
  const size_t at = d->pos;
  if (d->pos >= d->len) {
    if (d->bit_width == 0) { /* all zeros anyway; see the header */
      d->packed = 0;
      d->run_value = 0;
      d->run_left = UINT32_MAX;
      return PAIMON_OK;
    }
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): data ends at byte %zu but more values "
                            "are needed",
                            d->what, d->base + at);
  }
  uint64_t header;
  int rc = cp_pq_uleb128_read(&header, d->data, d->len, &d->pos, 64);
  if (rc != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): %s run header at byte %zu", d->what,
                            rc == -1 ? "truncated" : "overlong", d->base + at);
  const unsigned w = (unsigned)d->bit_width;
  if (header & 1) {
    uint64_t groups = header >> 1;
    if (groups == 0 || groups * 8 > RUN_MAX)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "RLE/bit-packed hybrid (%s): bit-packed run of %llu groups at byte "
                              "%zu (must be 1..2^28-1)",
                              d->what, (unsigned long long)groups, d->base + at);
    uint64_t count = groups * 8;
    size_t avail = d->len - d->pos;
    if (w > 0 && groups * w > avail) count = (uint64_t)avail * 8 / w;
    if (count == 0)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "RLE/bit-packed hybrid (%s): bit-packed run at byte %zu has no data",
                              d->what, d->base + at);
    d->packed = 1;
    d->run_left = (uint32_t)count;
    d->pending_pos = d->pending_n = 0;
    return PAIMON_OK;
  }
  uint64_t count = header >> 1;
  if (count == 0 || count > RUN_MAX)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): RLE run of %llu values at byte %zu (must "
                            "be 1..2^31-1)",
                            d->what, (unsigned long long)count, d->base + at);
  size_t nbytes = (w + 7) / 8;
  if (nbytes > d->len - d->pos)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): RLE run value at byte %zu truncated",
                            d->what, d->base + d->pos);
  uint32_t value = 0;
  for (size_t i = 0; i < nbytes; i++) value |= (uint32_t)d->data[d->pos + i] << (8 * i);
  if (w < 32 && (value >> w) != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): RLE run value %u at byte %zu does not fit "
                            "bit width %u",
                            d->what, value, d->base + d->pos, w);
  d->pos += nbytes;
  d->packed = 0;
  d->run_value = value;
  d->run_left = (uint32_t)count;
  return PAIMON_OK;
}

/* Unpacks the next group of the current bit-packed run into d->pending. */
static void rle_fill_pending(cp_pq_rle_decoder *d) {
  const size_t w = (size_t)d->bit_width;
  cp_pq_unpack32(d->pending, d->data + d->pos, d->len - d->pos, 1, d->bit_width);
  d->pos += w <= d->len - d->pos ? w : d->len - d->pos;
  d->pending_pos = 0;
  d->pending_n = 8;
}

/* Takes `take` values of the current bit-packed run: leftovers first, then whole groups straight
 * into `out`, then part of one more group through d->pending. */
static void rle_take_packed(cp_pq_rle_decoder *d, uint32_t *out, size_t take) {
  size_t k = 0;
  while (k < take && d->pending_pos < d->pending_n) out[k++] = d->pending[d->pending_pos++];
  size_t groups = (take - k) / 8;
  if (groups > 0) {
    const size_t w = (size_t)d->bit_width, avail = d->len - d->pos;
    cp_pq_unpack32(out + k, d->data + d->pos, avail, groups, d->bit_width);
    d->pos += groups * w <= avail ? groups * w : avail;
    k += groups * 8;
  }
  if (k < take) {
    rle_fill_pending(d);
    while (k < take) out[k++] = d->pending[d->pending_pos++];
  }
}

static int rle_decode_u32(cp_pq_rle_decoder *d, uint32_t *out, size_t n, paimon_error *err) {
  size_t k = 0;
  while (k < n) {
    if (d->run_left == 0) CP_RETURN_IF_ERROR(rle_next_run(d, err));
    size_t take = n - k < d->run_left ? n - k : d->run_left;
    d->run_left -= (uint32_t)take;
    if (d->packed) {
      rle_take_packed(d, out + k, take);
    } else {
      const uint32_t v = d->run_value;
      for (size_t i = 0; i < take; i++) out[k + i] = v;
    }
    k += take;
  }
  d->produced += n;
  return PAIMON_OK;
}

int cp_pq_rle_decode_i32(cp_pq_rle_decoder *d, int32_t *out, size_t n, paimon_error *err) {
  return rle_decode_u32(d, (uint32_t *)out, n, err);
}

enum { RLE_CHUNK = 1024 };

static int rle_too_big(const cp_pq_rle_decoder *d, uint32_t v, size_t index, uint32_t vmax,
                       paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "RLE/bit-packed hybrid (%s): value %u at index %zu exceeds the maximum "
                          "%u",
                          d->what, v, index, vmax);
}

/* Decodes into int16 (out16) or uint8 (out8), failing on a value > vmax. RLE runs — all of a
 * column without nulls is one — are checked once and filled directly; bit-packed runs go through
 * a stack chunk that is range-checked and narrowed. With `n_max`, the values equal to vmax are
 * counted as well: a whole RLE run at once, bit-packed values in the narrowing loop. */
static int rle_decode_narrow(cp_pq_rle_decoder *d, int16_t *out16, uint8_t *out8, size_t n,
                             uint32_t vmax, size_t *n_max, paimon_error *err) {
  uint32_t tmp[RLE_CHUNK];
  const int check = d->bit_width >= 32 || ((uint64_t)1 << d->bit_width) - 1 > vmax;
  size_t count = 0;
  for (size_t k = 0; k < n;) {
    if (d->run_left == 0) CP_RETURN_IF_ERROR(rle_next_run(d, err));
    size_t take = n - k < d->run_left ? n - k : d->run_left;
    if (!d->packed) {
      if (d->run_value > vmax) return rle_too_big(d, d->run_value, d->produced, vmax, err);
      if (d->run_value == vmax) count += take;
      if (out16)
        for (size_t i = 0; i < take; i++) out16[k + i] = (int16_t)d->run_value;
      else
        memset(out8 + k, (int)d->run_value, take);
    } else {
      if (take > RLE_CHUNK) take = RLE_CHUNK;
      rle_take_packed(d, tmp, take);
      if (check) {
        uint32_t mx = 0;
        for (size_t i = 0; i < take; i++) mx = tmp[i] > mx ? tmp[i] : mx;
        if (mx > vmax) {
          size_t i = 0;
          while (tmp[i] <= vmax) i++;
          return rle_too_big(d, tmp[i], d->produced + i, vmax, err);
        }
      }
      if (n_max)
        for (size_t i = 0; i < take; i++) count += tmp[i] == vmax;
      if (out16)
        for (size_t i = 0; i < take; i++) out16[k + i] = (int16_t)tmp[i];
      else
        for (size_t i = 0; i < take; i++) out8[k + i] = (uint8_t)tmp[i];
    }
    d->run_left -= (uint32_t)take;
    d->produced += take;
    k += take;
  }
  if (n_max) *n_max = count;
  return PAIMON_OK;
}

int cp_pq_rle_decode_i16(cp_pq_rle_decoder *d, int16_t *out, size_t n, paimon_error *err) {
  return rle_decode_narrow(d, out, NULL, n, INT16_MAX, NULL, err);
}

int cp_pq_rle_decode_u8(cp_pq_rle_decoder *d, uint8_t *out, size_t n, paimon_error *err) {
  return rle_decode_narrow(d, NULL, out, n, UINT8_MAX, NULL, err);
}

int cp_pq_rle_skip(cp_pq_rle_decoder *d, size_t n, paimon_error *err) {
  while (n > 0) {
    if (d->run_left == 0) CP_RETURN_IF_ERROR(rle_next_run(d, err));
    size_t take = n < d->run_left ? n : d->run_left;
    d->run_left -= (uint32_t)take;
    d->produced += take;
    n -= take;
    if (!d->packed) continue;
    size_t from_pending = d->pending_n - d->pending_pos;
    if (from_pending > take) from_pending = take;
    d->pending_pos += (uint32_t)from_pending;
    take -= from_pending;
    const size_t w = (size_t)d->bit_width, avail = d->len - d->pos;
    size_t skip_bytes = take / 8 * w;
    d->pos += skip_bytes <= avail ? skip_bytes : avail;
    if (take % 8) {
      rle_fill_pending(d);
      d->pending_pos = (uint32_t)(take % 8);
    }
  }
  return PAIMON_OK;
}

int cp_pq_rle_length_prefix(const uint8_t **body, size_t *body_len, size_t *consumed,
                            const uint8_t *data, size_t len, const char *what, paimon_error *err) {
  if (len < 4)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): %zu bytes cannot hold the 4-byte length "
                            "prefix",
                            what ? what : "RLE data", len);
  uint32_t n = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
               (uint32_t)data[3] << 24;
  if (n > len - 4)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE/bit-packed hybrid (%s): length prefix %u at byte 0 passes the end "
                            "of the %zu bytes available",
                            what ? what : "RLE data", n, len);
  *body = data + 4;
  *body_len = n;
  *consumed = 4 + (size_t)n;
  return PAIMON_OK;
}

/* ---- levels ---- */

int cp_pq_levels_decode(int16_t *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                        int16_t max_level, int length_prefixed, const char *what,
                        paimon_error *err) {
  size_t n_max;
  return cp_pq_levels_decode_count(out, n, consumed, &n_max, data, len, max_level, length_prefixed,
                                   what, err);
}

int cp_pq_levels_decode_count(int16_t *out, size_t n, size_t *consumed, size_t *n_max,
                              const uint8_t *data, size_t len, int16_t max_level,
                              int length_prefixed, const char *what, paimon_error *err) {
  if (!what) what = "levels";
  if (max_level < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: negative maximum level %d", what, max_level);
  *consumed = 0;
  *n_max = 0;
  if (max_level == 0) {
    memset(out, 0, n * sizeof *out);
    *n_max = n;
    return PAIMON_OK;
  }
  const uint8_t *body = data;
  size_t body_len = len, used = len;
  if (length_prefixed)
    CP_RETURN_IF_ERROR(cp_pq_rle_length_prefix(&body, &body_len, &used, data, len, what, err));
  cp_pq_rle_decoder d;
  CP_RETURN_IF_ERROR(
      cp_pq_rle_decoder_init(&d, body, body_len, cp_pq_bit_width((uint64_t)max_level), what, err));
  d.base = length_prefixed ? 4 : 0;
  CP_RETURN_IF_ERROR(rle_decode_narrow(&d, out, NULL, n, (uint32_t)max_level, n_max, err));
  *consumed = used;
  return PAIMON_OK;
}

size_t cp_pq_count_level(const int16_t *levels, size_t n, int16_t level) {
  size_t count = 0;
  for (size_t i = 0; i < n; i++) count += levels[i] == level;
  return count;
}

/* ---- dictionary indices ---- */

int cp_pq_dict_indices_init(cp_pq_rle_decoder *d, const uint8_t *data, size_t len,
                            paimon_error *err) {
  if (len < 1)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE_DICTIONARY indices: empty data has no bit-width byte");
  if (data[0] > 32)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE_DICTIONARY indices: bit width %u at byte 0 is over 32", data[0]);
  CP_RETURN_IF_ERROR(
      cp_pq_rle_decoder_init(d, data + 1, len - 1, data[0], "dictionary indices", err));
  d->base = 1;
  return PAIMON_OK;
}

int cp_pq_dict_indices_decode(cp_pq_rle_decoder *d, int32_t *out, size_t n, size_t dict_count,
                              paimon_error *err) {
  const size_t first = d->produced;
  CP_RETURN_IF_ERROR(rle_decode_u32(d, (uint32_t *)out, n, err));
  const uint32_t *u = (const uint32_t *)out;
  uint32_t mx = 0;
  for (size_t i = 0; i < n; i++) mx = u[i] > mx ? u[i] : mx;
  if (n > 0 && (uint64_t)mx >= (uint64_t)dict_count) {
    size_t i = 0;
    while ((uint64_t)u[i] < (uint64_t)dict_count) i++;
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "RLE_DICTIONARY indices: index %u at position %zu is out of range for "
                            "a dictionary of %zu entries",
                            u[i], first + i, dict_count);
  }
  return PAIMON_OK;
}

/* ---- encoder ---- */

/* Values come as int32, int16 or 0/1 bytes (elem 4, 2, 1); one accessor keeps one encoder. */
static inline uint32_t rle_get(const void *values, size_t elem, size_t i) {
  if (elem == 4) return (uint32_t)((const int32_t *)values)[i];
  if (elem == 2) return (uint32_t)(uint16_t)((const int16_t *)values)[i];
  return ((const uint8_t *)values)[i] != 0;
}

size_t cp_pq_rle_max_size(size_t n, int bit_width) {
  /* All literal at worst, plus one header (<= 5 bytes) and RLE value (<= 4 bytes) for every run
   * pair the heuristic can produce (each RLE run covers >= 8 values). */
  size_t w = bit_width < 0 ? 0 : (size_t)bit_width;
  return (n + 7) / 8 * w + (n / 8 + 2) * 2 * 9;
}

static int rle_put_run(cp_buf *out, uint32_t value, size_t count, int bit_width,
                       paimon_error *err) {
  const size_t nbytes = ((size_t)bit_width + 7) / 8;
  while (count > 0) {
    size_t c = count < RUN_MAX ? count : RUN_MAX;
    CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + nbytes, err));
    out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)c << 1);
    for (size_t i = 0; i < nbytes; i++) cp_buf_push_unchecked(out, (uint8_t)(value >> (8 * i)));
    count -= c;
  }
  return PAIMON_OK;
}

/* Bit-packs values [start, start + count) in runs of whole groups, zero-padding the last group. */
static int rle_put_literal(cp_buf *out, const void *values, size_t elem, size_t start, size_t count,
                           int bit_width, paimon_error *err) {
  const size_t w = (size_t)bit_width, max_groups = RUN_MAX / 8;
  size_t groups = (count + 7) / 8;
  while (groups > 0) {
    size_t g = groups < max_groups ? groups : max_groups;
    CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + g * w, err));
    out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)g << 1 | 1);
    for (size_t done = 0; done < g;) {
      uint32_t tmp[256];
      size_t chunk = g - done < 32 ? g - done : 32;
      for (size_t i = 0; i < chunk * 8; i++) {
        size_t at = (done * 8) + i;
        tmp[i] = at < count ? rle_get(values, elem, start + at) : 0;
      }
      cp_pq_pack32(out->data + out->len, tmp, chunk, bit_width);
      out->len += chunk * w;
      done += chunk;
    }
    groups -= g;
    start += g * 8;
    count = count > g * 8 ? count - g * 8 : 0;
  }
  return PAIMON_OK;
}

/* A repeat becomes an RLE run when, after lending the values needed to complete the pending
 * literal group (bit-packed runs hold whole groups), 8 or more repeats are left. */
static int rle_encode(cp_buf *out, const void *values, size_t elem, size_t n, int bit_width,
                      paimon_error *err) {
  if (bit_width < 0 || bit_width > 32)
    return paimon_error_set(err, PAIMON_EINVAL, "RLE encoder: bit width %d is outside 0..32",
                            bit_width);
  for (size_t i = 0; i < n; i++) {
    /* int32 values are uint32 bit patterns (width 32 uses all of them); int16 ones are levels,
     * never negative. */
    uint32_t v = rle_get(values, elem, i);
    int negative = elem == 2 && ((const int16_t *)values)[i] < 0;
    if (negative || (bit_width < 32 && (v >> bit_width) != 0))
      return paimon_error_set(
          err, PAIMON_EINVAL, "RLE encoder: value %lld at index %zu does not fit bit width %d",
          negative || elem == 4 ? (long long)(int32_t)v : (long long)v, i, bit_width);
  }
  size_t lit_start = 0, pos = 0;
  while (pos < n) {
    const uint32_t v = rle_get(values, elem, pos);
    size_t run = 1;
    while (pos + run < n && rle_get(values, elem, pos + run) == v) run++;
    size_t pending = pos - lit_start, pad = (8 - pending % 8) % 8;
    if (run >= pad + 8) {
      if (pending + pad > 0)
        CP_RETURN_IF_ERROR(
            rle_put_literal(out, values, elem, lit_start, pending + pad, bit_width, err));
      CP_RETURN_IF_ERROR(rle_put_run(out, v, run - pad, bit_width, err));
      lit_start = pos + run;
    }
    pos += run;
  }
  if (lit_start < n)
    CP_RETURN_IF_ERROR(
        rle_put_literal(out, values, elem, lit_start, n - lit_start, bit_width, err));
  return PAIMON_OK;
}

int cp_pq_rle_encode_i32(cp_buf *out, const int32_t *values, size_t n, int bit_width,
                         paimon_error *err) {
  return rle_encode(out, values, 4, n, bit_width, err);
}

int cp_pq_rle_encode_i16(cp_buf *out, const int16_t *values, size_t n, int bit_width,
                         paimon_error *err) {
  return rle_encode(out, values, 2, n, bit_width, err);
}

/* ---- streaming encoder (runs in, runs out) ---- */

void cp_pq_rle_writer_init(cp_pq_rle_writer *w, cp_buf *out, int bit_width) {
  w->out = out;
  w->bit_width = bit_width;
  w->run_value = 0;
  w->run_len = 0;
  w->n_lit = 0;
}

/* Writes the first `groups` groups of the literal buffer as one bit-packed run and moves what
 * follows them to the front. */
static int rlew_flush_groups(cp_pq_rle_writer *w, size_t groups, paimon_error *err) {
  if (groups == 0) return PAIMON_OK;
  cp_buf *out = w->out;
  const size_t bytes = groups * (size_t)w->bit_width;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + bytes, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)groups << 1 | 1);
  cp_pq_pack32(out->data + out->len, w->lit, groups, w->bit_width);
  out->len += bytes;
  const size_t used = groups * 8;
  if (w->n_lit > used) memmove(w->lit, w->lit + used, (w->n_lit - used) * sizeof *w->lit);
  w->n_lit -= used;
  return PAIMON_OK;
}

/* Adds `count` copies of `value` to the pending literal, writing out full buffers. */
static int rlew_literal(cp_pq_rle_writer *w, uint32_t value, uint64_t count, paimon_error *err) {
  while (count > 0) {
    size_t room = CP_PQ_RLE_LITERAL_MAX - w->n_lit;
    size_t k = count < room ? (size_t)count : room;
    for (size_t i = 0; i < k; i++) w->lit[w->n_lit + i] = value;
    w->n_lit += k;
    count -= k;
    if (w->n_lit == CP_PQ_RLE_LITERAL_MAX)
      CP_RETURN_IF_ERROR(rlew_flush_groups(w, CP_PQ_RLE_LITERAL_MAX / 8, err));
  }
  return PAIMON_OK;
}

/* Decides the run that has ended: an RLE run when 8 or more repeats are left after lending the
 * pending literal what completes its group (bit-packed runs hold whole groups), else literal. */
static int rlew_close_run(cp_pq_rle_writer *w, paimon_error *err) {
  const uint64_t len = w->run_len;
  if (len == 0) return PAIMON_OK;
  w->run_len = 0;
  const size_t pad = (8 - w->n_lit % 8) % 8;
  if (len < pad + 8) return rlew_literal(w, w->run_value, len, err);
  CP_RETURN_IF_ERROR(rlew_literal(w, w->run_value, pad, err));
  CP_RETURN_IF_ERROR(rlew_flush_groups(w, w->n_lit / 8, err));
  return rle_put_run(w->out, w->run_value, (size_t)(len - pad), w->bit_width, err);
}

static int rlew_bad_value(const cp_pq_rle_writer *w, long long v, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "RLE encoder: value %lld does not fit bit width %d",
                          v, w->bit_width);
}

static inline int rlew_put(cp_pq_rle_writer *w, uint32_t value, uint64_t count, paimon_error *err) {
  if (w->run_len > 0 && value == w->run_value) {
    w->run_len += count;
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(rlew_close_run(w, err));
  w->run_value = value;
  w->run_len = count;
  return PAIMON_OK;
}

int cp_pq_rle_writer_put_run(cp_pq_rle_writer *w, uint32_t value, uint64_t count,
                             paimon_error *err) {
  if (w->bit_width < 32 && (value >> w->bit_width) != 0)
    return rlew_bad_value(w, (long long)value, err);
  return count ? rlew_put(w, value, count, err) : PAIMON_OK;
}

int cp_pq_rle_writer_put_i16(cp_pq_rle_writer *w, const int16_t *values, size_t n,
                             paimon_error *err) {
  uint32_t bad = 0;
  for (size_t i = 0; i < n; i++) bad |= (uint32_t)(uint16_t)values[i];
  if (w->bit_width < 16 && (bad >> w->bit_width) != 0) {
    for (size_t i = 0; i < n; i++)
      if (values[i] < 0 || ((uint32_t)values[i] >> w->bit_width) != 0)
        return rlew_bad_value(w, values[i], err);
  }
  size_t i = 0;
  while (i < n) {
    const int16_t v = values[i];
    size_t j = i + 1;
    while (j < n && values[j] == v) j++;
    CP_RETURN_IF_ERROR(rlew_put(w, (uint32_t)(uint16_t)v, j - i, err));
    i = j;
  }
  return PAIMON_OK;
}

int cp_pq_rle_writer_finish(cp_pq_rle_writer *w, paimon_error *err) {
  CP_RETURN_IF_ERROR(rlew_close_run(w, err));
  if (w->n_lit % 8) {
    const size_t full = (w->n_lit + 7) / 8 * 8;
    for (size_t i = w->n_lit; i < full; i++) w->lit[i] = 0;
    w->n_lit = full;
  }
  return rlew_flush_groups(w, w->n_lit / 8, err);
}

size_t cp_pq_rle_writer_size_bound(const cp_pq_rle_writer *w) {
  const size_t bw = (size_t)w->bit_width;
  const uint64_t run = w->run_len < 16 ? w->run_len : 16; /* longer ones are an RLE run */
  return w->out->len + ((size_t)run + w->n_lit + 7) / 8 * bw + 2 * (10 + 4);
}

/* Appends the 4-byte length prefix placeholder; rle_patch_prefix fills it in. */
static int rle_begin_prefix(cp_buf *out, size_t *at, paimon_error *err) {
  *at = out->len;
  return cp_buf_append_zeros(out, 4, err);
}

static int rle_patch_prefix(cp_buf *out, size_t at, const char *what, paimon_error *err) {
  size_t body = out->len - at - 4;
  if (body > UINT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: %zu encoded bytes overflow the length prefix",
                            what, body);
  for (int i = 0; i < 4; i++) out->data[at + (size_t)i] = (uint8_t)(body >> (8 * i));
  return PAIMON_OK;
}

int cp_pq_levels_encode(cp_buf *out, const int16_t *levels, size_t n, int16_t max_level,
                        int length_prefixed, paimon_error *err) {
  if (max_level < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "levels encoder: negative maximum level %d",
                            max_level);
  for (size_t i = 0; i < n; i++)
    if (levels[i] < 0 || levels[i] > max_level)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "levels encoder: level %d at index %zu is outside 0..%d", levels[i],
                              i, max_level);
  if (max_level == 0) return PAIMON_OK;
  size_t at = 0;
  if (length_prefixed) CP_RETURN_IF_ERROR(rle_begin_prefix(out, &at, err));
  CP_RETURN_IF_ERROR(rle_encode(out, levels, 2, n, cp_pq_bit_width((uint64_t)max_level), err));
  return length_prefixed ? rle_patch_prefix(out, at, "levels encoder", err) : PAIMON_OK;
}

int cp_pq_dict_indices_encode(cp_buf *out, const int32_t *indices, size_t n, size_t dict_count,
                              paimon_error *err) {
  for (size_t i = 0; i < n; i++)
    if (indices[i] < 0 || (size_t)indices[i] >= dict_count)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "dictionary indices encoder: index %d at position %zu is out of "
                              "range for a dictionary of %zu entries",
                              indices[i], i, dict_count);
  int w = dict_count > 1 ? cp_pq_bit_width((uint64_t)dict_count - 1) : 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 1, err));
  cp_buf_push_unchecked(out, (uint8_t)w);
  return rle_encode(out, indices, 4, n, w, err);
}

/* ---- RLE booleans ---- */

int cp_pq_rle_bool_decode(uint8_t *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                          paimon_error *err) {
  const uint8_t *body = NULL;
  size_t body_len = 0, used = 0;
  CP_RETURN_IF_ERROR(
      cp_pq_rle_length_prefix(&body, &body_len, &used, data, len, "RLE booleans", err));
  cp_pq_rle_decoder d;
  CP_RETURN_IF_ERROR(cp_pq_rle_decoder_init(&d, body, body_len, 1, "RLE booleans", err));
  d.base = 4;
  CP_RETURN_IF_ERROR(rle_decode_narrow(&d, NULL, out, n, 1, NULL, err));
  *consumed = used;
  return PAIMON_OK;
}

int cp_pq_rle_bool_encode(cp_buf *out, const uint8_t *values, size_t n, paimon_error *err) {
  size_t at = 0;
  CP_RETURN_IF_ERROR(rle_begin_prefix(out, &at, err));
  CP_RETURN_IF_ERROR(rle_encode(out, values, 1, n, 1, err));
  return rle_patch_prefix(out, at, "RLE boolean encoder", err);
}
