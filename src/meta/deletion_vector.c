/*
 * Deletion vectors and their index files (deletion_vector.h; spec/format.md §7.2, and the
 * RoaringFormatSpec for the portable bitmap layout).
 *
 * The in-memory form is a list of CRoaring bitmaps keyed by the high 32 bits of the positions
 * (almost always a single bitmap with key 0). Reading parses the portable format ourselves rather
 * than through roaring_bitmap_portable_deserialize: the bytes come from files anyone may have
 * written, and a parser that checks every count against the bytes left is the only way to promise
 * "malformed input is an error, never a crash or a huge allocation". Writing goes through
 * CRoaring's portable serializer after removing run containers, which yields exactly the no-run
 * layout (cookie 12346 with offsets) of the spec's test vector.
 */
#include "meta/deletion_vector.h"

#include <inttypes.h>
#include <roaring/roaring.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"
#include "base/status.h"

#define SERIAL_COOKIE_NO_RUN 12346
#define SERIAL_COOKIE_RUN 12347
#define NO_OFFSET_THRESHOLD 4
#define BITSET_BYTES 8192

struct cp_dv {
  size_t n, cap;
  uint32_t *keys; /* ascending high 32 bits */
  roaring_bitmap_t **bms;
};

int cp_dv_new(cp_dv **out, paimon_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "deletion vector");
}

void cp_dv_free(cp_dv *dv) {
  if (!dv) return;
  for (size_t i = 0; i < dv->n; i++) roaring_bitmap_free(dv->bms[i]);
  free(dv->keys);
  free(dv->bms);
  free(dv);
}

/* Index of the bitmap for `key`, or where it would be inserted. */
static size_t find_key(const cp_dv *dv, uint32_t key, bool *found) {
  size_t lo = 0, hi = dv->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (dv->keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < dv->n && dv->keys[lo] == key;
  return lo;
}

/* The bitmap holding positions with high bits `key`, created when missing. */
static roaring_bitmap_t *bitmap_for(cp_dv *dv, uint32_t key, paimon_error *err) {
  bool found;
  size_t i = find_key(dv, key, &found);
  if (found) return dv->bms[i];
  if (dv->n == dv->cap) {
    size_t cap = dv->cap ? dv->cap * 2 : 1;
    uint32_t *k = realloc(dv->keys, cap * sizeof *k);
    if (k) dv->keys = k;
    roaring_bitmap_t **b = k ? realloc(dv->bms, cap * sizeof *b) : NULL;
    if (!b) {
      CP_ENOMEM(err, "deletion vector");
      return NULL;
    }
    dv->bms = b;
    dv->cap = cap;
  }
  roaring_bitmap_t *bm = roaring_bitmap_create();
  if (!bm) {
    CP_ENOMEM(err, "deletion vector");
    return NULL;
  }
  memmove(dv->keys + i + 1, dv->keys + i, (dv->n - i) * sizeof *dv->keys);
  memmove(dv->bms + i + 1, dv->bms + i, (dv->n - i) * sizeof *dv->bms);
  dv->keys[i] = key;
  dv->bms[i] = bm;
  dv->n++;
  return bm;
}

int cp_dv_add(cp_dv *dv, int64_t position, bool *added, paimon_error *err) {
  if (position < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "deletion vector position %" PRId64 " is negative",
                            position);
  roaring_bitmap_t *bm = bitmap_for(dv, (uint32_t)((uint64_t)position >> 32), err);
  if (!bm) return PAIMON_ENOMEM;
  bool a = roaring_bitmap_add_checked(bm, (uint32_t)position);
  if (added) *added = a;
  return PAIMON_OK;
}

int cp_dv_merge(cp_dv *dst, const cp_dv *src, paimon_error *err) {
  for (size_t i = 0; i < src->n; i++) {
    roaring_bitmap_t *bm = bitmap_for(dst, src->keys[i], err);
    if (!bm) return PAIMON_ENOMEM;
    roaring_bitmap_or_inplace(bm, src->bms[i]);
  }
  return PAIMON_OK;
}

bool cp_dv_contains(const cp_dv *dv, int64_t position) {
  if (position < 0) return false;
  bool found;
  size_t i = find_key(dv, (uint32_t)((uint64_t)position >> 32), &found);
  return found && roaring_bitmap_contains(dv->bms[i], (uint32_t)position);
}

int64_t cp_dv_cardinality(const cp_dv *dv) {
  uint64_t n = 0;
  for (size_t i = 0; i < dv->n; i++) n += roaring_bitmap_get_cardinality(dv->bms[i]);
  return (int64_t)n;
}

int64_t cp_dv_max(const cp_dv *dv) {
  for (size_t i = dv->n; i-- > 0;)
    if (!roaring_bitmap_is_empty(dv->bms[i]))
      return (int64_t)((uint64_t)dv->keys[i] << 32 | roaring_bitmap_maximum(dv->bms[i]));
  return -1;
}

int64_t cp_dv_select(const cp_dv *dv, int64_t start, int64_t n, uint8_t *keep) {
  int64_t kept = 0;
  memset(keep, 0, (size_t)(n + 7) / 8);
  for (int64_t i = 0; i < n; i++) {
    if (cp_dv_contains(dv, start + i)) continue;
    keep[i >> 3] |= (uint8_t)(1u << (i & 7));
    kept++;
  }
  return kept;
}

typedef struct foreach_ctx {
  int (*fn)(void *, int64_t);
  void *ctx;
  uint64_t high;
  int rc;
} foreach_ctx;

static bool foreach_one(uint32_t value, void *p) {
  foreach_ctx *c = p;
  c->rc = c->fn(c->ctx, (int64_t)(c->high | value));
  return c->rc == 0;
}

int cp_dv_foreach(const cp_dv *dv, int (*fn)(void *ctx, int64_t position), void *ctx) {
  for (size_t i = 0; i < dv->n; i++) {
    foreach_ctx c = {fn, ctx, (uint64_t)dv->keys[i] << 32, 0};
    roaring_iterate(dv->bms[i], foreach_one, &c);
    if (c.rc) return c.rc;
  }
  return 0;
}

/* ------------------------------------ reading ------------------------------------ */

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int corrupt(paimon_error *err, const char *source, size_t at, const char *what) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "deletion vector in %s, byte %zu: %s",
                          source ? source : "(memory)", at, what);
}

/* Adds the values of one container (its bytes start at data[*pos]). */
static int read_container(const uint8_t *data, size_t len, size_t *pos, bool run, uint32_t card,
                          uint32_t key16, roaring_bitmap_t *bm, uint32_t *scratch,
                          const char *source, paimon_error *err) {
  uint32_t base = key16 << 16;
  size_t p = *pos;
  if (run) {
    if (len - p < 2) return corrupt(err, source, p, "truncated run container");
    uint32_t n_runs = le16(data + p);
    p += 2;
    if ((len - p) / 4 < n_runs) return corrupt(err, source, p, "truncated run container");
    /* Runs are expanded into values rather than added as ranges: the bitmap then never holds
     * run containers, which CRoaring 0.2.x's remove_run_compression (used when writing)
     * corrupts memory on when a run reaches the container end (tests: fuzz_deletion_vector). */
    size_t k = 0;
    int64_t last = -1; /* runs are sorted and disjoint, so at most 65536 values in all */
    for (uint32_t r = 0; r < n_runs; r++, p += 4) {
      uint32_t start = le16(data + p), length = le16(data + p + 2);
      if (start + length > 0xFFFF) return corrupt(err, source, p, "run passes the container end");
      if ((int64_t)start <= last) return corrupt(err, source, p, "runs overlap or are unsorted");
      for (uint32_t v = start; v <= start + length; v++) scratch[k++] = base | v;
      last = start + length;
    }
    roaring_bitmap_add_many(bm, k, scratch);
  } else if (card > 4096) {
    if (len - p < BITSET_BYTES) return corrupt(err, source, p, "truncated bitset container");
    size_t k = 0;
    for (uint32_t w = 0; w < BITSET_BYTES / 8; w++) {
      uint64_t word = (uint64_t)le32(data + p + 8 * w) | (uint64_t)le32(data + p + 8 * w + 4) << 32;
      while (word) {
        scratch[k++] = base | (w * 64 + (uint32_t)__builtin_ctzll(word));
        word &= word - 1;
      }
    }
    roaring_bitmap_add_many(bm, k, scratch);
    p += BITSET_BYTES;
  } else {
    if ((len - p) / 2 < card) return corrupt(err, source, p, "truncated array container");
    for (uint32_t i = 0; i < card; i++) scratch[i] = base | le16(data + p + 2 * i);
    roaring_bitmap_add_many(bm, card, scratch);
    p += 2 * (size_t)card;
  }
  *pos = p;
  return PAIMON_OK;
}

int cp_roaring32_read(const uint8_t *data, size_t len, uint32_t high, cp_dv *into, size_t *consumed,
                      const char *source, paimon_error *err) {
  if (len < 4) return corrupt(err, source, 0, "truncated roaring bitmap header");
  uint32_t cookie = le32(data), size;
  size_t p = 4;
  const uint8_t *run_flags = NULL;
  if ((cookie & 0xFFFF) == SERIAL_COOKIE_RUN) {
    size = (cookie >> 16) + 1;
    run_flags = data + p;
    if (len - p < (size + 7) / 8) return corrupt(err, source, p, "truncated run flags");
    p += (size + 7) / 8;
  } else if (cookie == SERIAL_COOKIE_NO_RUN) {
    if (len - p < 4) return corrupt(err, source, p, "truncated container count");
    size = le32(data + p);
    p += 4;
    if (size > 65536) return corrupt(err, source, p - 4, "more than 65536 containers");
  } else {
    return corrupt(err, source, 0, "not a portable roaring bitmap (bad cookie)");
  }
  size_t header = p;
  if ((len - p) / 4 < size) return corrupt(err, source, p, "truncated container headers");
  p += 4 * (size_t)size;
  if (!run_flags || size >= NO_OFFSET_THRESHOLD) {
    if ((len - p) / 4 < size) return corrupt(err, source, p, "truncated container offsets");
    p += 4 * (size_t)size;
  }
  roaring_bitmap_t *bm = size ? bitmap_for(into, high, err) : NULL;
  uint32_t *scratch = size ? malloc(65536 * sizeof *scratch) : NULL;
  if (size && (!bm || !scratch)) {
    free(scratch);
    return bm ? CP_ENOMEM(err, "deletion vector") : PAIMON_ENOMEM;
  }
  int rc = PAIMON_OK;
  for (uint32_t i = 0; i < size && !rc; i++) {
    uint32_t key16 = le16(data + header + 4 * i),
             card = (uint32_t)le16(data + header + 4 * i + 2) + 1;
    bool run = run_flags && (run_flags[i / 8] >> (i % 8) & 1);
    rc = read_container(data, len, &p, run, card, key16, bm, scratch, source, err);
  }
  free(scratch);
  if (!rc) *consumed = p;
  return rc;
}

/* The 64-bit bitmap: count:i64 LE, then (key:i32 LE, roaring32) pairs with ascending keys. */
static int read_bitmap64(const uint8_t *data, size_t len, cp_dv *dv, const char *source,
                         paimon_error *err) {
  if (len < 8) return corrupt(err, source, 8, "truncated 64-bit bitmap count");
  uint64_t count = (uint64_t)le32(data) | (uint64_t)le32(data + 4) << 32;
  if (count > INT32_MAX) return corrupt(err, source, 8, "invalid 64-bit bitmap count");
  size_t p = 8;
  int64_t last_key = -1;
  for (uint64_t i = 0; i < count; i++) {
    if (len - p < 4) return corrupt(err, source, p + 8, "truncated 64-bit bitmap key");
    int32_t key = (int32_t)le32(data + p);
    if (key < 0 || key == INT32_MAX || key <= last_key)
      return corrupt(err, source, p + 8, "64-bit bitmap keys must ascend from 0");
    last_key = key;
    p += 4;
    size_t used;
    CP_RETURN_IF_ERROR(cp_roaring32_read(data + p, len - p, (uint32_t)key, dv, &used, source, err));
    p += used;
  }
  return PAIMON_OK;
}

int cp_dv_read_record(const uint8_t *data, size_t len, int64_t length, const char *source,
                      cp_dv **out, size_t *record_size, paimon_error *err) {
  if (len < 8) return corrupt(err, source, 0, "truncated deletion vector header");
  int64_t body = (int32_t)be32(data); /* magic + bitmap */
  uint32_t magic = be32(data + 4);
  bool is64 = false;
  if (magic == CP_DV_MAGIC32) {
    if (length >= 0 && body != length)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "deletion vector in %s: Size not match, actual size: %" PRId64
                              ", expected size: %" PRId64,
                              source ? source : "(memory)", body, length);
  } else if (__builtin_bswap32(magic) == CP_DV_MAGIC64) {
    is64 = true;
    if (length >= 0 && body != length - 8)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "deletion vector in %s: Size not match, actual size: %" PRId64
                              ", expected size: %" PRId64,
                              source ? source : "(memory)", body, length - 8);
  } else {
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "deletion vector in %s: Invalid magic number: %" PRId32
                            ", v1 dv magic number: %d, v2 magic number: %d",
                            source ? source : "(memory)", (int32_t)magic, CP_DV_MAGIC32,
                            CP_DV_MAGIC64);
  }
  if (body < 4 || (uint64_t)body > len - 4 || len - 4 - (size_t)body < 4)
    return corrupt(err, source, 0, "record length passes the end of the file");
  cp_dv *dv;
  CP_RETURN_IF_ERROR(cp_dv_new(&dv, err));
  const uint8_t *bitmap = data + 8;
  size_t bitmap_len = (size_t)body - 4, used = 0;
  int rc = is64 ? read_bitmap64(bitmap, bitmap_len, dv, source, err)
                : cp_roaring32_read(bitmap, bitmap_len, 0, dv, &used, source, err);
  if (rc) {
    cp_dv_free(dv);
    return rc;
  }
  *out = dv;
  if (record_size) *record_size = 4 + (size_t)body + 4;
  return PAIMON_OK;
}

/* ------------------------------------ writing ------------------------------------ */

static int append_be32(cp_buf *b, uint32_t v, paimon_error *err) {
  uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  return cp_buf_append(b, p, 4, err);
}

static int append_le32(cp_buf *b, uint32_t v, paimon_error *err) {
  uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  return cp_buf_append(b, p, 4, err);
}

/* Appends `bm` in the portable format without run containers. */
static int append_roaring32(const roaring_bitmap_t *bm, cp_buf *out, paimon_error *err) {
  /* Our bitmaps never hold run containers (runs are expanded on read and nothing here creates
   * them), so the portable form is the run-free one Java's BitmapDeletionVector expects. */
  roaring_bitmap_t *empty = bm ? NULL : roaring_bitmap_create();
  const roaring_bitmap_t *b = bm ? bm : empty;
  if (!b) return CP_ENOMEM(err, "deletion vector");
  size_t n = roaring_bitmap_portable_size_in_bytes(b);
  int rc = cp_buf_reserve(out, n, err);
  if (!rc) out->len += roaring_bitmap_portable_serialize(b, (char *)out->data + out->len);
  if (empty) roaring_bitmap_free(empty); /* 0.2.x does not accept NULL */
  return rc;
}

/* Fills in the length prefix and appends the CRC of a record begun at `start`. */
static int finish_record(cp_buf *out, size_t start, paimon_error *err) {
  size_t body = out->len - start - 4;
  if (body > INT32_MAX - 8)
    return paimon_error_set(err, PAIMON_EINVAL, "deletion vector of %zu bytes is too large", body);
  uint8_t *p = out->data + start;
  p[0] = (uint8_t)(body >> 24);
  p[1] = (uint8_t)(body >> 16);
  p[2] = (uint8_t)(body >> 8);
  p[3] = (uint8_t)body;
  return append_be32(out, cp_crc32(0, out->data + start + 4, body), err);
}

int cp_dv_write_record32(const cp_dv *dv, cp_buf *out, int32_t *length, paimon_error *err) {
  int64_t max = cp_dv_max(dv);
  if (max > CP_DV_MAX_POSITION32)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "The file has too many rows, RoaringBitmap32 only supports files with "
                            "row count not exceeding %" PRId64 " (deleted position %" PRId64 ").",
                            CP_DV_MAX_POSITION32, max);
  size_t start = out->len;
  CP_RETURN_IF_ERROR(append_be32(out, 0, err));
  CP_RETURN_IF_ERROR(append_be32(out, CP_DV_MAGIC32, err));
  bool found;
  size_t i = find_key(dv, 0, &found);
  CP_RETURN_IF_ERROR(append_roaring32(found ? dv->bms[i] : NULL, out, err));
  CP_RETURN_IF_ERROR(finish_record(out, start, err));
  *length = (int32_t)(out->len - start - 8);
  return PAIMON_OK;
}

int cp_dv_write_record64(const cp_dv *dv, cp_buf *out, int32_t *length, paimon_error *err) {
  size_t start = out->len;
  CP_RETURN_IF_ERROR(append_be32(out, 0, err));
  CP_RETURN_IF_ERROR(append_le32(out, CP_DV_MAGIC64, err));
  int64_t max = cp_dv_max(dv);
  uint32_t count = max < 0 ? 0 : (uint32_t)((uint64_t)max >> 32) + 1;
  CP_RETURN_IF_ERROR(append_le32(out, count, err));
  CP_RETURN_IF_ERROR(append_le32(out, 0, err));
  for (uint32_t key = 0; key < count; key++) {
    bool found;
    size_t i = find_key(dv, key, &found);
    CP_RETURN_IF_ERROR(append_le32(out, key, err));
    CP_RETURN_IF_ERROR(append_roaring32(found ? dv->bms[i] : NULL, out, err));
  }
  CP_RETURN_IF_ERROR(finish_record(out, start, err));
  *length = (int32_t)(out->len - start);
  return PAIMON_OK;
}

int cp_dv_index_write(cp_dv_slot *slots, size_t n, cp_buf *out, paimon_error *err) {
  size_t start = out->len;
  uint8_t version = CP_DV_INDEX_VERSION;
  CP_RETURN_IF_ERROR(cp_buf_append(out, &version, 1, err));
  for (size_t i = 0; i < n; i++) {
    size_t offset = out->len - start;
    if (offset > INT32_MAX)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "deletion vector index file over 2 GiB (at the DV of %s)",
                              slots[i].data_file);
    CP_RETURN_IF_ERROR(cp_dv_write_record32(slots[i].dv, out, &slots[i].length, err));
    slots[i].offset = (int32_t)offset;
    slots[i].cardinality = cp_dv_cardinality(slots[i].dv);
  }
  return PAIMON_OK;
}

int cp_dv_index_read(const uint8_t *data, size_t len, int64_t offset, int64_t length,
                     const char *source, cp_dv **out, paimon_error *err) {
  if (len < 1 || data[0] != CP_DV_INDEX_VERSION)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "deletion vector index file %s: version byte is %d, expected %d",
                            source ? source : "(memory)", len ? data[0] : -1, CP_DV_INDEX_VERSION);
  if (offset < 1 || (uint64_t)offset >= len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "deletion vector index file %s: offset %" PRId64
                            " is outside the file (%zu bytes)",
                            source ? source : "(memory)", offset, len);
  return cp_dv_read_record(data + offset, len - (size_t)offset, length, source, out, NULL, err);
}
