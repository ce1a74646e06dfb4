/*
 * The writer's two hottest encoding steps, specialised (spec/parquet.md §2.7 RLE / bit-packing
 * hybrid and dictionary encoding; §2.3 item 2):
 *
 *  - dictionary indices of a data page: the bit-width byte, then the RLE hybrid of int32 indices
 *    (repeats of 8 or more as RLE runs, the rest bit-packed in groups of 8 with encoding.h's
 *    packer) — the same runs as encoding.h's general encoder, without its per-value type dispatch;
 *  - dictionary lookups of 4- and 8-byte values through a small direct-mapped cache in front of
 *    encoding.h's dictionary builder: most values of a column that is worth a dictionary repeat,
 *    and a hit costs one multiply and one compare instead of a hash-table probe. The cache only
 *    remembers (value -> index) pairs the builder returned, and is emptied whenever the builder is
 *    reset, so it can never hand out an index the builder does not have.
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/writer_internal.h"

/* ---- RLE hybrid of dictionary indices ---- */

/* Appends `n` values starting at v as one bit-packed run (the last group zero-padded). */
static int put_literal(cp_buf *out, const int32_t *v, size_t n, int bw, paimon_error *err) {
  const size_t groups = (n + 7) / 8, full = n / 8;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + groups * (size_t)bw, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)groups << 1 | 1);
  cp_pq_pack32(out->data + out->len, (const uint32_t *)v, full, bw);
  out->len += full * (size_t)bw;
  if (groups > full) {
    uint32_t tail[8] = {0};
    memcpy(tail, v + full * 8, (n - full * 8) * sizeof *tail);
    cp_pq_pack32(out->data + out->len, tail, 1, bw);
    out->len += (size_t)bw;
  }
  return PAIMON_OK;
}

static int put_run(cp_buf *out, int32_t value, size_t count, int bw, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + 4, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)count << 1);
  for (int i = 0; i < (bw + 7) / 8; i++) cp_buf_push_unchecked(out, (uint8_t)(value >> (8 * i)));
  return PAIMON_OK;
}

int cp_pq_encode_dict_indices(cp_buf *out, const int32_t *v, size_t n, size_t dict_count,
                              paimon_error *err) {
  const int bw = dict_count > 1 ? cp_pq_bit_width((uint64_t)dict_count - 1) : 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 1, err));
  cp_buf_push_unchecked(out, (uint8_t)bw);
  size_t lit = 0, i = 0;
  while (i < n) {
    size_t run = 1;
    while (i + run < n && v[i + run] == v[i]) run++;
    /* A bit-packed run holds whole groups: lend the pending literal what completes its group,
     * and make an RLE run of the rest if 8 or more remain. */
    const size_t pad = (8 - (i - lit) % 8) % 8;
    if (run >= pad + 8) {
      if (i + pad > lit) CP_RETURN_IF_ERROR(put_literal(out, v + lit, i + pad - lit, bw, err));
      /* Runs are at most 2^31 - 1 long (§2.7); pages hold fewer entries than that. */
      CP_RETURN_IF_ERROR(put_run(out, v[i], run - pad, bw, err));
      lit = i + run;
    }
    i += run;
  }
  return lit < n ? put_literal(out, v + lit, n - lit, bw, err) : PAIMON_OK;
}

/* ---- dictionary lookups through a cache ---- */

#define CACHE_BITS 12
#define CACHE_SIZE (1u << CACHE_BITS)

struct cp_pq_dict_cache {
  uint64_t key[CACHE_SIZE];
  int32_t index[CACHE_SIZE]; /* -1: empty */
};

int cp_pq_dict_cache_new(cp_pq_dict_cache **out, paimon_error *err) {
  *out = malloc(sizeof **out);
  if (!*out) return CP_ENOMEM(err, "dictionary cache");
  cp_pq_dict_cache_clear(*out);
  return PAIMON_OK;
}

void cp_pq_dict_cache_free(cp_pq_dict_cache *c) { free(c); }

void cp_pq_dict_cache_clear(cp_pq_dict_cache *c) { memset(c->index, 0xFF, sizeof c->index); }

static inline uint32_t cache_slot(uint64_t k) {
  return (uint32_t)((k * 0x9E3779B97F4A7C15ULL) >> (64 - CACHE_BITS));
}

int cp_pq_dict_put_cached(cp_pq_dict_builder *b, cp_pq_dict_cache *c, int32_t *indices,
                          const void *values, size_t n, size_t width, paimon_error *err) {
  const uint8_t *p = values;
  for (size_t i = 0; i < n; i++) {
    uint64_t k = 0;
    memcpy(&k, p + i * width, width);
    const uint32_t s = cache_slot(k);
    if (c->index[s] >= 0 && c->key[s] == k) {
      indices[i] = c->index[s];
      continue;
    }
    CP_RETURN_IF_ERROR(cp_pq_dict_builder_put_fixed(b, &indices[i], p + i * width, 1, err));
    c->key[s] = k;
    c->index[s] = indices[i];
  }
  return PAIMON_OK;
}
