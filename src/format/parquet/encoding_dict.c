/*
 * Dictionary encoding (spec/parquet.md §2.3 item 2 and §2.11 for the writer's fallback rule;
 * parquet-format Encodings.md "Dictionary Encoding"): the writer's dictionary builder and the
 * reader's gathers from indices to values. The index streams themselves are in encoding_rle.c.
 *
 * The builder is an open-addressing hash table (linear probing, power-of-two size, at most half
 * full) of entry numbers; each entry's 64-bit hash is kept beside it so growing never rehashes
 * bytes and probe mismatches are rejected without touching the values (for values of up to 8
 * bytes the hash is a bijection, so it is the whole comparison). Entries live packed
 * (fixed width) or in Arrow layout (byte arrays), which is also the PLAIN dictionary page body
 * minus the length prefixes — so the page is written with one pass and its size is known at
 * every moment, which is what the writer needs to fall back to PLAIN at the 1 MiB limit.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/encoding.h"

struct cp_pq_dict_builder {
  size_t width;      /* 0: BYTE_ARRAY */
  size_t count;      /* entries */
  size_t plain_size; /* PLAIN page body bytes */
  cp_buf values;     /* fixed: count * width bytes; binary: the concatenated bytes */
  cp_buf offsets;    /* binary: count + 1 int32 offsets */
  cp_buf hashes;     /* count uint64 hashes */
  int32_t *slots;    /* entry number or -1 */
  size_t slot_mask;  /* table size - 1 */
};

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)n * 0xC2B2AE3D27D4EB4FULL);
  while (n >= 8) {
    uint64_t k;
    memcpy(&k, p, 8);
    h = (h ^ mix64(k)) * 0x9E3779B97F4A7C15ULL;
    h = (h << 31) | (h >> 33);
    p += 8;
    n -= 8;
  }
  uint64_t k = 0;
  if (n) memcpy(&k, p, n);
  return mix64(h ^ k);
}

static int builder_set_slots(cp_pq_dict_builder *b, size_t nslots, paimon_error *err) {
  int32_t *slots = malloc(nslots * sizeof *slots);
  if (!slots) return CP_ENOMEM(err, "dictionary hash table");
  memset(slots, 0xFF, nslots * sizeof *slots);
  const uint64_t *hashes = (const uint64_t *)(void *)b->hashes.data;
  for (size_t e = 0; e < b->count; e++) {
    size_t i = (size_t)hashes[e] & (nslots - 1);
    while (slots[i] >= 0) i = (i + 1) & (nslots - 1);
    slots[i] = (int32_t)e;
  }
  free(b->slots);
  b->slots = slots;
  b->slot_mask = nslots - 1;
  return PAIMON_OK;
}

int cp_pq_dict_builder_new(cp_pq_dict_builder **out, size_t width, paimon_error *err) {
  *out = NULL;
  cp_pq_dict_builder *b = calloc(1, sizeof *b);
  if (!b) return CP_ENOMEM(err, "dictionary builder");
  b->width = width;
  int rc = builder_set_slots(b, 1024, err);
  if (rc == 0 && width == 0) rc = cp_buf_append_zeros(&b->offsets, sizeof(int32_t), err);
  if (rc != 0) {
    cp_pq_dict_builder_free(b);
    return rc;
  }
  *out = b;
  return PAIMON_OK;
}

void cp_pq_dict_builder_free(cp_pq_dict_builder *b) {
  if (!b) return;
  cp_buf_free(&b->values);
  cp_buf_free(&b->offsets);
  cp_buf_free(&b->hashes);
  free(b->slots);
  free(b);
}

void cp_pq_dict_builder_reset(cp_pq_dict_builder *b) {
  b->count = 0;
  b->plain_size = 0;
  b->values.len = 0;
  b->hashes.len = 0;
  b->offsets.len = b->width == 0 ? sizeof(int32_t) : 0;
  memset(b->slots, 0xFF, (b->slot_mask + 1) * sizeof *b->slots);
}

/* Appends value (p, n) with hash h as a new entry, stored in free slot `slot`. */
static int builder_add(cp_pq_dict_builder *b, const uint8_t *p, size_t n, uint64_t h, size_t slot,
                       int32_t *index, paimon_error *err) {
  if (b->count >= (size_t)INT32_MAX || (b->width == 0 && n > (size_t)INT32_MAX - b->values.len))
    return paimon_error_set(err, PAIMON_EINVAL, "dictionary builder: more than 2^31 entries/bytes");
  const size_t e = b->count;
  CP_RETURN_IF_ERROR(cp_buf_append(&b->values, p, n, err));
  CP_RETURN_IF_ERROR(cp_buf_append(&b->hashes, &h, sizeof h, err));
  if (b->width == 0) {
    int32_t end = (int32_t)b->values.len;
    CP_RETURN_IF_ERROR(cp_buf_append(&b->offsets, &end, sizeof end, err));
  }
  b->slots[slot] = (int32_t)e;
  b->count++;
  b->plain_size += b->width ? n : 4 + n;
  *index = (int32_t)e;
  if (b->count * 2 > b->slot_mask + 1) return builder_set_slots(b, (b->slot_mask + 1) * 2, err);
  return PAIMON_OK;
}

/* Values of up to 8 bytes hash through mix64 of the zero-extended value, a bijection: equal
 * hashes mean equal values, so probing compares hashes only. */
static int builder_put_small(cp_pq_dict_builder *b, int32_t *indices, const uint8_t *p, size_t n,
                             paimon_error *err) {
  const size_t w = b->width;
  for (size_t i = 0; i < n; i++) {
    uint64_t k = 0;
    memcpy(&k, p + i * w, w);
    const uint64_t h = mix64(k);
    const uint64_t *hashes = (const uint64_t *)(void *)b->hashes.data;
    size_t s = (size_t)h & b->slot_mask;
    int32_t e;
    while ((e = b->slots[s]) >= 0 && hashes[e] != h) s = (s + 1) & b->slot_mask;
    if (e >= 0)
      indices[i] = e;
    else
      CP_RETURN_IF_ERROR(builder_add(b, p + i * w, w, h, s, &indices[i], err));
  }
  return PAIMON_OK;
}

/* The index of value (p, n) of any length — found, or appended as a new entry. */
static int builder_find_or_add(cp_pq_dict_builder *b, const uint8_t *p, size_t n, int32_t *index,
                               paimon_error *err) {
  const uint64_t h = hash_bytes(p, n);
  const uint64_t *hashes = (const uint64_t *)(void *)b->hashes.data;
  const int32_t *offs = (const int32_t *)(void *)b->offsets.data;
  size_t s = (size_t)h & b->slot_mask;
  for (int32_t e; (e = b->slots[s]) >= 0; s = (s + 1) & b->slot_mask) {
    if (hashes[e] != h) continue;
    const uint8_t *v = b->width ? b->values.data + (size_t)e * b->width : b->values.data + offs[e];
    size_t vlen = b->width ? b->width : (size_t)(offs[e + 1] - offs[e]);
    if (vlen == n && (n == 0 || memcmp(v, p, n) == 0)) {
      *index = e;
      return PAIMON_OK;
    }
  }
  return builder_add(b, p, n, h, s, index, err);
}

int cp_pq_dict_builder_put_fixed(cp_pq_dict_builder *b, int32_t *indices, const void *values,
                                 size_t n, paimon_error *err) {
  if (b->width == 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "dictionary builder: fixed values put into a "
                            "BYTE_ARRAY dictionary");
  const uint8_t *p = values;
  if (b->width <= 8) return builder_put_small(b, indices, p, n, err);
  for (size_t i = 0; i < n; i++)
    CP_RETURN_IF_ERROR(builder_find_or_add(b, p + i * b->width, b->width, &indices[i], err));
  return PAIMON_OK;
}

int cp_pq_dict_builder_put_binary(cp_pq_dict_builder *b, int32_t *indices, const int32_t *offsets,
                                  const uint8_t *data, size_t n, paimon_error *err) {
  if (b->width != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "dictionary builder: byte arrays put into a "
                            "fixed-width dictionary");
  for (size_t i = 0; i < n; i++) {
    if (offsets[i + 1] < offsets[i])
      return paimon_error_set(err, PAIMON_EINVAL,
                              "dictionary builder: value %zu has negative length", i);
    size_t len = (size_t)(offsets[i + 1] - offsets[i]);
    const uint8_t *p = len ? data + offsets[i] : (const uint8_t *)"";
    CP_RETURN_IF_ERROR(builder_find_or_add(b, p, len, &indices[i], err));
  }
  return PAIMON_OK;
}

size_t cp_pq_dict_builder_count(const cp_pq_dict_builder *b) { return b->count; }

size_t cp_pq_dict_builder_plain_size(const cp_pq_dict_builder *b) { return b->plain_size; }

int cp_pq_dict_builder_write_plain(const cp_pq_dict_builder *b, cp_buf *out, paimon_error *err) {
  if (b->width) return cp_buf_append(out, b->values.data, b->values.len, err);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, b->plain_size, err));
  const int32_t *offs = (const int32_t *)(void *)b->offsets.data;
  for (size_t e = 0; e < b->count; e++) {
    uint32_t len = (uint32_t)(offs[e + 1] - offs[e]);
    memcpy(out->data + out->len, &len, 4);
    if (len) memcpy(out->data + out->len + 4, b->values.data + offs[e], len);
    out->len += 4 + (size_t)len;
  }
  return PAIMON_OK;
}

const uint8_t *cp_pq_dict_builder_fixed_values(const cp_pq_dict_builder *b) {
  return b->width ? b->values.data : NULL;
}

const int32_t *cp_pq_dict_builder_binary_offsets(const cp_pq_dict_builder *b) {
  return b->width ? NULL : (const int32_t *)(void *)b->offsets.data;
}

const uint8_t *cp_pq_dict_builder_binary_data(const cp_pq_dict_builder *b) {
  return b->width ? NULL : b->values.data;
}

/* ---- gathers ---- */

static int gather_bad_index(const int32_t *indices, size_t n, size_t dict_count,
                            paimon_error *err) {
  size_t i = 0;
  while (i < n && indices[i] >= 0 && (size_t)indices[i] < dict_count) i++;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "dictionary: index %d at position %zu is out of range for a dictionary "
                          "of %zu entries",
                          i < n ? indices[i] : -1, i, dict_count);
}

int cp_pq_dict_gather_fixed(void *out, const int32_t *indices, size_t n, const void *dict,
                            size_t dict_count, size_t width, paimon_error *err) {
  uint32_t bad = 0;
  for (size_t i = 0; i < n; i++) bad |= (uint32_t)((uint64_t)(uint32_t)indices[i] >= dict_count);
  if (bad) return gather_bad_index(indices, n, dict_count, err);
  if (width == 4) {
    const uint32_t *d = dict;
    uint32_t *o = out;
    for (size_t i = 0; i < n; i++) o[i] = d[indices[i]];
  } else if (width == 8) {
    const uint64_t *d = dict;
    uint64_t *o = out;
    for (size_t i = 0; i < n; i++) o[i] = d[indices[i]];
  } else if (width > 0) {
    const uint8_t *d = dict;
    uint8_t *o = out;
    for (size_t i = 0; i < n; i++) memcpy(o + i * width, d + (size_t)indices[i] * width, width);
  }
  return PAIMON_OK;
}

int cp_pq_dict_gather_binary(int32_t *offsets, cp_buf *values, const int32_t *indices, size_t n,
                             const int32_t *dict_offsets, const uint8_t *dict_data,
                             size_t dict_count, paimon_error *err) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    if (indices[i] < 0 || (size_t)indices[i] >= dict_count)
      return gather_bad_index(indices, n, dict_count, err);
    total += (size_t)(dict_offsets[indices[i] + 1] - dict_offsets[indices[i]]);
  }
  if (values->len > (size_t)INT32_MAX || total > (size_t)INT32_MAX - values->len)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "dictionary: %zu + %zu gathered bytes overflow 32-bit offsets",
                            values->len, total);
  int32_t off = (int32_t)values->len;
  offsets[0] = off;
  if (total > 0) CP_RETURN_IF_ERROR(cp_buf_reserve(values, total, err));
  for (size_t i = 0; i < n; i++) {
    int32_t start = dict_offsets[indices[i]], len = dict_offsets[indices[i] + 1] - start;
    if (len) memcpy(values->data + off, dict_data + start, (size_t)len);
    off += len;
    offsets[i + 1] = off;
  }
  values->len = (size_t)off;
  return PAIMON_OK;
}
