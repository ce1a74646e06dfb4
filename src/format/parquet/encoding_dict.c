/*
 * Dictionary encoding (spec/parquet.md §2.3 item 2 and §2.11 for the writer's fallback rule;
 * parquet-format Encodings.md "Dictionary Encoding"): the writer's dictionary builder and the
 * reader's gathers from indices to values. The index streams themselves are in encoding_rle.c.
 *
 * The builder is an open-addressing hash table (linear probing, power-of-two size, at most half
 * full) whose slots are specialised by value width, so that a probe touches one slot and, for
 * fixed-width values, nothing else:
 *  - 4- and 8-byte values (INT32/FLOAT, INT64/DOUBLE) keep the value itself in the slot beside its
 *    entry number: a probe is one load and one integer compare, and growing the table rehashes
 *    from the slots;
 *  - byte arrays and wider values keep 32 bits of the 64-bit hash (bits the slot index does not
 *    use) as a tag beside the entry number; only a tag match looks at the stored bytes, and short
 *    values (<= 16 bytes, the common case for dictionary-worthy strings) are compared with a few
 *    word loads instead of memcmp. Their full hashes are kept per entry for growing the table.
 * Entries live packed (fixed width) or in Arrow layout (byte arrays), which is also the PLAIN
 * dictionary page body minus the length prefixes — so the page is written with one pass and its
 * size is known at every moment, which is what the writer needs to fall back to PLAIN at the
 * 1 MiB limit.
 */
#include <limits.h>
#include <stdbool.h>
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
  cp_buf hashes;     /* tagged tables: count uint64 hashes */
  void *slots;       /* the table; the slot type depends on the width (slot4, slot8, slot_tag) */
  size_t slot_mask;  /* table size - 1 */
  int slot_shift;    /* 64 - log2(table size): key_slot takes the product's top bits */
};

/* Slots: entry < 0 marks an empty one. */
typedef struct slot4 {
  uint32_t key;
  int32_t entry;
} slot4;
typedef struct slot8 {
  uint64_t key;
  int64_t entry;
} slot8;
typedef struct slot_tag {
  uint32_t tag; /* hash >> 32 */
  int32_t entry;
} slot_tag;

static inline size_t slot_size(size_t width) {
  return width == 8 ? sizeof(slot8) : sizeof(slot4); /* slot_tag is as large as slot4 */
}

/* Multiply-fold of two words: every input bit reaches every output bit in one multiply. */
static inline uint64_t fold(uint64_t a, uint64_t b) {
  unsigned __int128 r = (unsigned __int128)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static inline uint32_t load32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

#define K0 0xa0761d6478bd642fULL
#define K1 0xe7037ed1a0b428dbULL
#define K2 0x8ebc6af09c88c6e3ULL

/* A 64-bit hash of any bytes. Values of up to 16 bytes are read as two (possibly overlapping)
 * words, which with the length covers every byte exactly once or twice. */
static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t a = 0, b = 0, seed = K0 ^ ((uint64_t)n * K2);
  if (n <= 16) {
    if (n >= 8) {
      a = load64(p);
      b = load64(p + n - 8);
    } else if (n >= 4) {
      a = load32(p);
      b = load32(p + n - 4);
    } else if (n > 0) {
      a = (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
    }
  } else {
    size_t i = 0;
    for (; n - i > 16; i += 16) seed = fold(load64(p + i) ^ K1, load64(p + i + 8) ^ seed);
    a = load64(p + n - 16);
    b = load64(p + n - 8);
  }
  return fold(a ^ K1, b ^ seed) ^ seed;
}

static inline bool bytes_equal(const uint8_t *x, const uint8_t *y, size_t n) {
  if (n >= 8 && n <= 16) return load64(x) == load64(y) && load64(x + n - 8) == load64(y + n - 8);
  if (n >= 4 && n < 8) return load32(x) == load32(y) && load32(x + n - 4) == load32(y + n - 4);
  return n == 0 || memcmp(x, y, n) == 0;
}

/* The home slot of a 4- or 8-byte key: fold the high half into the low one (so keys differing
 * only in high bits, like doubles of one mantissa, still spread), one multiply, and the top bits
 * of the product (Fibonacci hashing), which depend on every bit below them. */
static inline size_t key_slot(uint64_t k, int shift) {
  return (size_t)(((k ^ (k >> 32)) * 0x9E3779B97F4A7C15ULL) >> shift);
}

static void *alloc_slots(size_t nslots, size_t width) {
  const size_t sz = slot_size(width);
  void *s = malloc(nslots * sz);
  if (!s) return NULL;
  /* An entry of -1 (all bits set) is empty in every slot type. */
  memset(s, 0xFF, nslots * sz);
  return s;
}

/* Rebuilds the table with `nslots` slots from the entries. */
static int builder_set_slots(cp_pq_dict_builder *b, size_t nslots, paimon_error *err) {
  void *slots = alloc_slots(nslots, b->width);
  if (!slots) return CP_ENOMEM(err, "dictionary hash table");
  const size_t mask = nslots - 1;
  int shift = 64;
  for (size_t k = nslots; k > 1; k >>= 1) shift--;
  if (b->width == 4) {
    const uint32_t *v = (const uint32_t *)(void *)b->values.data;
    slot4 *t = slots;
    for (size_t e = 0; e < b->count; e++) {
      size_t i = key_slot(v[e], shift);
      while (t[i].entry >= 0) i = (i + 1) & mask;
      t[i] = (slot4){v[e], (int32_t)e};
    }
  } else if (b->width == 8) {
    const uint64_t *v = (const uint64_t *)(void *)b->values.data;
    slot8 *t = slots;
    for (size_t e = 0; e < b->count; e++) {
      size_t i = key_slot(v[e], shift);
      while (t[i].entry >= 0) i = (i + 1) & mask;
      t[i] = (slot8){v[e], (int64_t)e};
    }
  } else {
    const uint64_t *h = (const uint64_t *)(void *)b->hashes.data;
    slot_tag *t = slots;
    for (size_t e = 0; e < b->count; e++) {
      size_t i = (size_t)h[e] & mask;
      while (t[i].entry >= 0) i = (i + 1) & mask;
      t[i] = (slot_tag){(uint32_t)(h[e] >> 32), (int32_t)e};
    }
  }
  free(b->slots);
  b->slots = slots;
  b->slot_mask = mask;
  b->slot_shift = shift;
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
  memset(b->slots, 0xFF, (b->slot_mask + 1) * slot_size(b->width));
}

static int builder_full(paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "dictionary builder: more than 2^31 entries/bytes");
}

/* Grows the table when an entry was just added and it is half full. */
static inline int builder_after_add(cp_pq_dict_builder *b, paimon_error *err) {
  if (b->count * 2 > b->slot_mask + 1) return builder_set_slots(b, (b->slot_mask + 1) * 2, err);
  return PAIMON_OK;
}

/* Values are looked up in blocks: first every home slot of the block is computed and
 * prefetched, then the probes run, so the cache misses of a large table (100K distinct prices:
 * 4 MB of slots) overlap instead of queueing one after the other. */
#define PUT_BLOCK 16

/* The put loop of 4- and 8-byte values, for slot type SLOT and key type K. A table that grows
 * mid-block moves: the remaining home slots are then recomputed. */
#define PUT_SMALL(SLOT, K)                                                                         \
  do {                                                                                             \
    const uint8_t *p_ = values;                                                                    \
    for (size_t i0_ = 0; i0_ < n; i0_ += PUT_BLOCK) {                                              \
      const size_t m_ = n - i0_ < PUT_BLOCK ? n - i0_ : PUT_BLOCK;                                 \
      K key_[PUT_BLOCK];                                                                           \
      size_t home_[PUT_BLOCK];                                                                     \
      SLOT *const t0_ = b->slots;                                                                  \
      memcpy(key_, p_ + i0_ * sizeof(K), m_ * sizeof(K));                                          \
      for (size_t j_ = 0; j_ < m_; j_++) {                                                         \
        home_[j_] = key_slot(key_[j_], b->slot_shift);                                             \
        __builtin_prefetch(&t0_[home_[j_]]);                                                       \
      }                                                                                            \
      for (size_t j_ = 0; j_ < m_; j_++) {                                                         \
        SLOT *t_ = b->slots;                                                                       \
        const K k_ = key_[j_];                                                                     \
        size_t s_ = t_ == t0_ ? home_[j_] : key_slot(k_, b->slot_shift);                           \
        while (t_[s_].entry >= 0 && t_[s_].key != k_) s_ = (s_ + 1) & b->slot_mask;                \
        if (t_[s_].entry >= 0) {                                                                   \
          indices[i0_ + j_] = (int32_t)t_[s_].entry;                                               \
          continue;                                                                                \
        }                                                                                          \
        if (b->count >= (size_t)INT32_MAX) return builder_full(err);                               \
        CP_RETURN_IF_ERROR(cp_buf_append(&b->values, &k_, sizeof(K), err));                        \
        t_[s_].key = k_;                                                                           \
        t_[s_].entry = (int32_t)b->count;                                                          \
        indices[i0_ + j_] = (int32_t)b->count++;                                                   \
        b->plain_size += sizeof(K);                                                                \
        CP_RETURN_IF_ERROR(builder_after_add(b, err));                                             \
      }                                                                                            \
    }                                                                                              \
  } while (0)

static int put4(cp_pq_dict_builder *b, int32_t *indices, const void *values, size_t n,
                paimon_error *err) {
  PUT_SMALL(slot4, uint32_t);
  return PAIMON_OK;
}

static int put8(cp_pq_dict_builder *b, int32_t *indices, const void *values, size_t n,
                paimon_error *err) {
  PUT_SMALL(slot8, uint64_t);
  return PAIMON_OK;
}

/* The index of value (p, n) with hash h in a tagged table — found, or appended as a new entry. */
static int find_or_add_tagged(cp_pq_dict_builder *b, const uint8_t *p, size_t n, uint64_t h,
                              int32_t *index, paimon_error *err) {
  const uint32_t tag = (uint32_t)(h >> 32);
  const int32_t *offs = (const int32_t *)(void *)b->offsets.data;
  slot_tag *t = b->slots;
  size_t s = (size_t)h & b->slot_mask;
  for (int32_t e; (e = t[s].entry) >= 0; s = (s + 1) & b->slot_mask) {
    if (t[s].tag != tag) continue;
    const uint8_t *v;
    size_t vlen = b->width;
    if (vlen) {
      v = b->values.data + (size_t)e * vlen;
    } else {
      v = b->values.data + offs[e];
      vlen = (size_t)(offs[e + 1] - offs[e]);
    }
    if (vlen == n && bytes_equal(v, p, n)) {
      *index = e;
      return PAIMON_OK;
    }
  }
  if (b->count >= (size_t)INT32_MAX || (b->width == 0 && n > (size_t)INT32_MAX - b->values.len))
    return builder_full(err);
  const size_t e = b->count;
  CP_RETURN_IF_ERROR(cp_buf_append(&b->values, p, n, err));
  CP_RETURN_IF_ERROR(cp_buf_append(&b->hashes, &h, sizeof h, err));
  if (b->width == 0) {
    int32_t end = (int32_t)b->values.len;
    CP_RETURN_IF_ERROR(cp_buf_append(&b->offsets, &end, sizeof end, err));
  }
  t[s] = (slot_tag){tag, (int32_t)e};
  b->count++;
  b->plain_size += b->width ? n : 4 + n;
  *index = (int32_t)e;
  return builder_after_add(b, err);
}

int cp_pq_dict_builder_put_fixed(cp_pq_dict_builder *b, int32_t *indices, const void *values,
                                 size_t n, paimon_error *err) {
  if (b->width == 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "dictionary builder: fixed values put into a "
                            "BYTE_ARRAY dictionary");
  if (b->width == 4) return put4(b, indices, values, n, err);
  if (b->width == 8) return put8(b, indices, values, n, err);
  const uint8_t *p = values;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *v = p + i * b->width;
    CP_RETURN_IF_ERROR(
        find_or_add_tagged(b, v, b->width, hash_bytes(v, b->width), &indices[i], err));
  }
  return PAIMON_OK;
}

int cp_pq_dict_builder_put_binary(cp_pq_dict_builder *b, int32_t *indices, const int32_t *offsets,
                                  const uint8_t *data, size_t n, paimon_error *err) {
  if (b->width != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "dictionary builder: byte arrays put into a "
                            "fixed-width dictionary");
  /* In blocks, hashes and home-slot prefetches first (see PUT_BLOCK). */
  for (size_t i0 = 0; i0 < n; i0 += PUT_BLOCK) {
    const size_t m = n - i0 < PUT_BLOCK ? n - i0 : PUT_BLOCK;
    uint64_t h[PUT_BLOCK];
    const slot_tag *t = b->slots;
    for (size_t j = 0; j < m; j++) {
      const size_t i = i0 + j;
      if (offsets[i + 1] < offsets[i])
        return paimon_error_set(err, PAIMON_EINVAL,
                                "dictionary builder: value %zu has negative length", i);
      const size_t len = (size_t)(offsets[i + 1] - offsets[i]);
      h[j] = hash_bytes(len ? data + offsets[i] : (const uint8_t *)"", len);
      __builtin_prefetch(&t[h[j] & b->slot_mask]);
    }
    for (size_t j = 0; j < m; j++) {
      const size_t i = i0 + j, len = (size_t)(offsets[i + 1] - offsets[i]);
      const uint8_t *p = len ? data + offsets[i] : (const uint8_t *)"";
      CP_RETURN_IF_ERROR(find_or_add_tagged(b, p, len, h[j], &indices[i], err));
    }
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
