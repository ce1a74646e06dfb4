/*
 * Arrow values -> the physical values of a Parquet page, with the chunk statistics (writer.h;
 * spec/parquet.md §1.1 physical types and value forms, §2.7 PLAIN, §2.9 statistics, §4 P10/P14).
 *
 * Values arrive as slots of the leaf's Arrow view: a run [first, first + n) or a slot array
 * (levels_write.h). A run of a type stored as it is in Arrow (int32, int64, float, double and their
 * date/time/timestamp forms) is used in place — PLAIN pages memcpy it, the dictionary hashes it
 * from there. Everything else is converted in one loop per (kind, layout) into scratch, with no
 * per-value calls except for byte arrays, whose PLAIN copy and dictionary lookup are per value by
 * nature (each value is hashed once, in the dictionary builder).
 */
#include <limits.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/writer_internal.h"

/* dst[i] = EXPR(src[slot i]) over a run or a slot array. */
#define GATHER(dst, src, slots, first, n, T, EXPR)                                                 \
  do {                                                                                             \
    if (slots) {                                                                                   \
      for (int64_t i_ = 0; i_ < (n); i_++) {                                                       \
        T x = (src)[(slots)[i_]];                                                                  \
        (dst)[i_] = EXPR;                                                                          \
      }                                                                                            \
    } else {                                                                                       \
      for (int64_t i_ = 0; i_ < (n); i_++) {                                                       \
        T x = (src)[(first) + i_];                                                                 \
        (dst)[i_] = EXPR;                                                                          \
      }                                                                                            \
    }                                                                                              \
  } while (0)

static int value_error(const cp_pq_colw *c, const char *what, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "column '%s': %s", c->leaf->steps[0].name, what);
}

/* Room for n values of `width` bytes in the scratch buffer `b` (contents discarded). */
static int scratch(cp_buf *b, size_t bytes, void **out, paimon_error *err) {
  cp_buf_clear(b);
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, bytes ? bytes : 1, err));
  *out = b->data;
  return PAIMON_OK;
}

/* Decimal128 slots as 128-bit integers (16-byte little-endian slots, possibly unaligned). */
static void gather_dec(cp_int128 *dst, const cp_array_view *v, const int64_t *slots, int64_t first,
                       int64_t n) {
  const uint8_t *base = v->values.u8 + v->offset * 16;
  for (int64_t i = 0; i < n; i++) memcpy(&dst[i], base + (slots ? slots[i] : first + i) * 16, 16);
}

/* Checks the unscaled values against the column's precision (|v| < 10^p): Arrow data past it is
 * invalid, and would not fit the physical type Java chose for the precision. */
static int check_precision(cp_pq_colw *c, const cp_int128 *d, int64_t n, paimon_error *err) {
  cp_int128 lim = 1;
  for (int32_t i = 0; i < c->leaf->type->precision; i++) lim *= 10;
  bool bad = false;
  for (int64_t i = 0; i < n; i++) bad |= d[i] <= -lim || d[i] >= lim;
  return bad ? value_error(c, "a decimal value exceeds the column's precision", err) : PAIMON_OK;
}

/* Unscaled decimals of precision <= 9 / 18 as INT32 / INT64 (checked to fit already). */
static void narrow_dec(const cp_int128 *d, int64_t n, void *out, size_t width) {
  if (width == 4) {
    int32_t *o = out;
    for (int64_t i = 0; i < n; i++) o[i] = (int32_t)d[i];
  } else {
    int64_t *o = out;
    for (int64_t i = 0; i < n; i++) o[i] = (int64_t)d[i];
  }
}

/* FLBA decimals: big-endian two's complement in w bytes (§4 P10), sign-extended. */
static void dec_to_flba(const cp_int128 *d, int64_t n, uint8_t *out, int32_t w) {
  for (int64_t i = 0; i < n; i++)
    for (int32_t k = 0; k < w; k++)
      out[i * w + (w - 1 - k)] = (uint8_t)(d[i] >> (8 * (k < 16 ? k : 15)));
}

/* The n physical values of a fixed-width leaf, in place when possible, else converted into
 * c->phys. Also feeds the statistics. */
static int fixed_values(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                        int64_t n, const void **out, paimon_error *err) {
  const int64_t off = v->offset;
  void *dst = NULL;
  switch (c->leaf->value_kind) {
  case CP_PQ_VAL_I32:
  case CP_PQ_VAL_F32:
    if (!slots) {
      *out = v->values.u8 + (off + first) * 4;
      return PAIMON_OK;
    }
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * 4, &dst, err));
    GATHER((uint32_t *)dst, v->values.u32 + off, slots, first, n, uint32_t, x);
    break;
  case CP_PQ_VAL_I64:
  case CP_PQ_VAL_F64:
    if (!slots) {
      *out = v->values.u8 + (off + first) * 8;
      return PAIMON_OK;
    }
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * 8, &dst, err));
    GATHER((uint64_t *)dst, v->values.u64 + off, slots, first, n, uint64_t, x);
    break;
  case CP_PQ_VAL_I8:
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * 4, &dst, err));
    GATHER((int32_t *)dst, v->values.i8 + off, slots, first, n, int8_t, (int32_t)x);
    break;
  case CP_PQ_VAL_I16:
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * 4, &dst, err));
    GATHER((int32_t *)dst, v->values.i16 + off, slots, first, n, int16_t, (int32_t)x);
    break;
  case CP_PQ_VAL_SEC_MS: {
    /* TIMESTAMP(0) arrives in seconds and is stored in milliseconds (§1.1). */
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * 8, &dst, err));
    int64_t *o = dst;
    GATHER(o, v->values.i64 + off, slots, first, n, int64_t, x);
    bool bad = false;
    for (int64_t i = 0; i < n; i++) bad |= __builtin_mul_overflow(o[i], (int64_t)1000, &o[i]);
    if (bad) return value_error(c, "a timestamp in seconds overflows milliseconds", err);
    break;
  }
  case CP_PQ_VAL_DEC_I32:
  case CP_PQ_VAL_DEC_I64:
  case CP_PQ_VAL_DEC_FLBA: {
    void *tmp;
    CP_RETURN_IF_ERROR(scratch(&c->aux, (size_t)n * sizeof(cp_int128), &tmp, err));
    gather_dec(tmp, v, slots, first, n);
    CP_RETURN_IF_ERROR(check_precision(c, tmp, n, err));
    CP_RETURN_IF_ERROR(scratch(&c->phys, (size_t)n * c->width, &dst, err));
    if (c->leaf->value_kind == CP_PQ_VAL_DEC_FLBA) {
      cp_pq_stats_update_dec(&c->stats, tmp, (size_t)n);
      dec_to_flba(tmp, n, dst, c->leaf->type_length);
      *out = dst;
      return PAIMON_OK;
    }
    narrow_dec(tmp, n, dst, c->width);
    break;
  }
  default: return value_error(c, "internal: not a fixed-width value kind", err);
  }
  *out = dst;
  return PAIMON_OK;
}

static void fixed_stats(cp_pq_colw *c, const void *p, int64_t n) {
  switch (c->leaf->physical_type) {
  case CP_PQ_INT32: cp_pq_stats_update_i32(&c->stats, p, (size_t)n); break;
  case CP_PQ_INT64: cp_pq_stats_update_i64(&c->stats, p, (size_t)n); break;
  case CP_PQ_FLOAT: cp_pq_stats_update_f32(&c->stats, p, (size_t)n); break;
  case CP_PQ_DOUBLE: cp_pq_stats_update_f64(&c->stats, p, (size_t)n); break;
  default: break; /* FLBA decimals were counted as 128-bit values */
  }
}

static bool dict_on(const cp_pq_colw *c) { return c->dict && !c->dict_off; }

static int append_fixed(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                        int64_t n, paimon_error *err) {
  const void *p = NULL;
  CP_RETURN_IF_ERROR(fixed_values(c, v, slots, first, n, &p, err));
  fixed_stats(c, p, n);
  const size_t bytes = (size_t)n * c->width;
  if (!dict_on(c)) return cp_buf_append(&c->values, p, bytes, err);
  CP_RETURN_IF_ERROR(cp_buf_reserve(&c->indices, (size_t)n * 4, err));
  int32_t *idx = (int32_t *)(void *)(c->indices.data + c->indices.len);
  CP_RETURN_IF_ERROR(cp_pq_dict_builder_put_fixed(c->dict, idx, p, (size_t)n, err));
  c->indices.len += (size_t)n * 4;
  c->page_plain_bytes += (int64_t)bytes;
  return PAIMON_OK;
}

/* PLAIN booleans are bit-packed LSB first, like Arrow's bitmaps (§4 P14). */
static int append_bool(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                       int64_t n, paimon_error *err) {
  const size_t bits = c->bool_bits + (size_t)n, need = (bits + 7) / 8;
  const size_t have = cp_pq_colw_values_len(c);
  if (need > have) CP_RETURN_IF_ERROR(cp_buf_append_zeros(&c->values, need - have, err));
  const uint8_t *src = v->values.u8;
  uint8_t *dst = cp_pq_colw_values_data(c);
  int64_t set = 0;
  if (!slots) {
    cp_bitmap_copy(dst, (int64_t)c->bool_bits, src, v->offset + first, n);
    set = cp_bitmap_count_set(src, v->offset + first, n);
  } else {
    for (int64_t i = 0; i < n; i++) {
      bool b = cp_bit_get(src, v->offset + slots[i]);
      cp_bit_set_to(dst, (int64_t)c->bool_bits + i, b);
      set += b;
    }
  }
  cp_pq_stats_update_bool(&c->stats, set<n, set> 0);
  c->bool_bits = bits;
  return PAIMON_OK;
}

/* Unsigned byte-wise order, a shorter prefix first. Values that share a prefix (user_123,
 * user_456) are told apart by one 8-byte big-endian compare before memcmp is needed. */
static inline int bytes_cmp(const uint8_t *a, int64_t an, const uint8_t *b, int64_t bn) {
  if (an >= 8 && bn >= 8) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
    if (an == bn && an <= 16) {
      /* The last 8 bytes overlap the equal first 8: the first difference is past them. */
      memcpy(&x, a + an - 8, 8);
      memcpy(&y, b + bn - 8, 8);
      return x == y ? 0 : __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
    }
    int64_t m = (an < bn ? an : bn) - 8;
    int r = m ? memcmp(a + 8, b + 8, (size_t)m) : 0;
    return r ? r : (an > bn) - (an < bn);
  }
  if (an && bn && a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  int64_t m = an < bn ? an : bn;
  int r = m ? memcmp(a, b, (size_t)m) : 0;
  return r ? r : (an > bn) - (an < bn);
}

static inline const uint8_t *slot_bytes(const cp_array_view *v, int64_t slot, int64_t *len) {
  const uint8_t *p = cp_view_get_bytes(v, slot, len);
  return *len ? p : (const uint8_t *)"";
}

/* Folds value (p, len) into the running bounds. lo <= hi always holds, so a value above hi
 * cannot be below lo: one comparison for most values of sorted or clustered data. */
#define BOUNDS(p, len, lo, lo_n, hi, hi_n)                                                         \
  do {                                                                                             \
    if (bytes_cmp((p), (len), (hi), (hi_n)) > 0)                                                   \
      (hi) = (p), (hi_n) = (len);                                                                  \
    else if (bytes_cmp((p), (len), (lo), (lo_n)) < 0)                                              \
      (lo) = (p), (lo_n) = (len);                                                                  \
  } while (0)

/* One pass over the values: statistics bounds, total size, and the 2^31-1 byte limit of a
 * Parquet byte array (its length is a signed 4-byte int in parquet-java). */
static int bytes_scan(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                      int64_t n, int64_t *total, paimon_error *err) {
  int64_t lo_n = 0, hi_n = 0, sum = 0;
  const uint8_t *lo = slot_bytes(v, slots ? slots[0] : first, &lo_n), *hi = lo;
  hi_n = lo_n;
  for (int64_t i = 0; i < n; i++) {
    int64_t len;
    const uint8_t *p = slot_bytes(v, slots ? slots[i] : first + i, &len);
    if (len > INT32_MAX) return value_error(c, "a value is longer than 2^31-1 bytes", err);
    sum += len;
    BOUNDS(p, len, lo, lo_n, hi, hi_n);
  }
  *total = sum;
  return cp_pq_stats_update_bytes(&c->stats, lo, (size_t)lo_n, hi, (size_t)hi_n, err);
}

/* PLAIN values of a run of an int32-offset array: one pass for bounds and copy. */
static int plain_run32(cp_pq_colw *c, const cp_array_view *v, int64_t first, int64_t n,
                       paimon_error *err) {
  const int32_t *o = v->offsets32 + v->offset + first;
  const uint8_t *d = v->data ? v->data : (const uint8_t *)"";
  const size_t total = (size_t)(o[n] - o[0]);
  CP_RETURN_IF_ERROR(cp_buf_reserve(&c->values, 4 * (size_t)n + total, err));
  uint8_t *dst = c->values.data + c->values.len;
  const uint8_t *lo = d + o[0], *hi = lo;
  int64_t lo_n = o[1] - o[0], hi_n = lo_n;
  for (int64_t i = 0; i < n; i++) {
    const uint8_t *p = d + o[i];
    const int64_t len = o[i + 1] - o[i];
    const uint32_t l32 = (uint32_t)len;
    memcpy(dst, &l32, 4);
    memcpy(dst + 4, p, (size_t)len);
    dst += 4 + len;
    BOUNDS(p, len, lo, lo_n, hi, hi_n);
  }
  c->values.len = (size_t)(dst - c->values.data);
  return cp_pq_stats_update_bytes(&c->stats, lo, (size_t)lo_n, hi, (size_t)hi_n, err);
}

/* The bounds of dictionary entries [from, count): while the dictionary is on, every value of the
 * chunk is one of its entries, so the chunk's bounds are those of the entries — each distinct
 * value is compared once, when it is added, instead of every value every time. */
static int dict_bounds(cp_pq_colw *c, size_t from, paimon_error *err) {
  const size_t to = cp_pq_dict_builder_count(c->dict);
  if (to <= from) return PAIMON_OK;
  const int32_t *o = cp_pq_dict_builder_binary_offsets(c->dict);
  const uint8_t *d = cp_pq_dict_builder_binary_data(c->dict);
  if (!d) d = (const uint8_t *)""; /* every entry so far is empty */
  const uint8_t *lo = d + o[from], *hi = lo;
  int64_t lo_n = o[from + 1] - o[from], hi_n = lo_n;
  for (size_t e = from + 1; e < to; e++)
    BOUNDS(d + o[e], (int64_t)(o[e + 1] - o[e]), lo, lo_n, hi, hi_n);
  return cp_pq_stats_update_bytes(&c->stats, lo, (size_t)lo_n, hi, (size_t)hi_n, err);
}

/* Byte arrays into the dictionary: indices, PLAIN size and bounds (from the new entries). */
static int dict_bytes(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                      int64_t n, paimon_error *err) {
  const size_t from = cp_pq_dict_builder_count(c->dict);
  CP_RETURN_IF_ERROR(cp_buf_reserve(&c->indices, (size_t)n * 4, err));
  int32_t *idx = (int32_t *)(void *)(c->indices.data + c->indices.len);
  int64_t total = 0;
  if (!slots && v->offsets32) {
    const int32_t *o = v->offsets32 + v->offset + first;
    total = (int64_t)o[n] - o[0];
    CP_RETURN_IF_ERROR(cp_pq_dict_builder_put_binary(
        c->dict, idx, o, v->data ? v->data : (const uint8_t *)"", (size_t)n, err));
  } else {
    for (int64_t i = 0; i < n; i++) {
      int64_t len;
      const uint8_t *p = slot_bytes(v, slots ? slots[i] : first + i, &len);
      if (len > INT32_MAX) return value_error(c, "a value is longer than 2^31-1 bytes", err);
      total += len;
      const int32_t o[2] = {0, (int32_t)len};
      CP_RETURN_IF_ERROR(cp_pq_dict_builder_put_binary(c->dict, &idx[i], o, p, 1, err));
    }
  }
  c->indices.len += (size_t)n * 4;
  c->page_plain_bytes += 4 * n + total;
  return dict_bounds(c, from, err);
}

static int append_bytes(cp_pq_colw *c, const cp_array_view *v, const int64_t *slots, int64_t first,
                        int64_t n, paimon_error *err) {
  if (dict_on(c)) return dict_bytes(c, v, slots, first, n, err);
  if (!slots && v->offsets32) return plain_run32(c, v, first, n, err);
  int64_t total = 0;
  CP_RETURN_IF_ERROR(bytes_scan(c, v, slots, first, n, &total, err));
  CP_RETURN_IF_ERROR(cp_buf_reserve(&c->values, (size_t)(4 * n + total), err));
  uint8_t *dst = c->values.data + c->values.len;
  for (int64_t i = 0; i < n; i++) {
    int64_t len;
    const uint8_t *p = slot_bytes(v, slots ? slots[i] : first + i, &len);
    const uint32_t l32 = (uint32_t)len;
    memcpy(dst, &l32, 4);
    memcpy(dst + 4, p, (size_t)len);
    dst += 4 + len;
  }
  c->values.len = (size_t)(dst - c->values.data);
  return PAIMON_OK;
}

int cp_pq_values_append(cp_pq_colw *c, const cp_pq_levels *lv, const cp_array_view *v, int64_t v0,
                        int64_t n, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  const int64_t *slots = lv->contiguous ? NULL : lv->slots + v0;
  const int64_t first = lv->first_slot + v0;
  switch (c->leaf->value_kind) {
  case CP_PQ_VAL_BOOL: return append_bool(c, v, slots, first, n, err);
  case CP_PQ_VAL_BYTES: return append_bytes(c, v, slots, first, n, err);
  default: return append_fixed(c, v, slots, first, n, err);
  }
}

int cp_pq_values_indices_to_plain(cp_pq_colw *c, paimon_error *err) {
  const size_t n = c->indices.len / 4, count = cp_pq_dict_builder_count(c->dict);
  const int32_t *idx = (const int32_t *)(void *)c->indices.data;
  cp_pq_colw_values_reset(c);
  if (c->width) {
    CP_RETURN_IF_ERROR(cp_buf_reserve(&c->values, n * c->width, err));
    CP_RETURN_IF_ERROR(cp_pq_dict_gather_fixed(cp_pq_colw_values_data(c), idx, n,
                                               cp_pq_dict_builder_fixed_values(c->dict), count,
                                               c->width, err));
    c->values.len += n * c->width;
  } else {
    const int32_t *offs = cp_pq_dict_builder_binary_offsets(c->dict);
    const uint8_t *data = cp_pq_dict_builder_binary_data(c->dict);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += 4 + (size_t)(offs[idx[i] + 1] - offs[idx[i]]);
    CP_RETURN_IF_ERROR(cp_buf_reserve(&c->values, total, err));
    uint8_t *dst = c->values.data + c->values.len;
    for (size_t i = 0; i < n; i++) {
      const uint32_t len = (uint32_t)(offs[idx[i] + 1] - offs[idx[i]]);
      memcpy(dst, &len, 4);
      if (len) memcpy(dst + 4, data + offs[idx[i]], len);
      dst += 4 + (size_t)len;
    }
    c->values.len = (size_t)(dst - c->values.data);
  }
  cp_buf_clear(&c->indices);
  return PAIMON_OK;
}
