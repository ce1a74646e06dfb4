/*
 * Writer statistics (stats_write.h; spec/parquet.md §2.9, §4 P6-P8, P20; parquet-java
 * Statistics / ParquetMetadataConverter for the Thrift rules, Paimon SimpleStats semantics for the
 * datums).
 *
 * The update functions are the only per-value code here; each is a branch-light loop over packed
 * physical values that the compiler can vectorise, merged into the running bounds once per call.
 */
#include "format/parquet/stats_write.h"

#include <math.h>
#include <string.h>

#include "base/status.h"

void cp_pq_stats_init(cp_pq_stats *s, cp_pq_stats_kind kind) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
}

void cp_pq_stats_reset(cp_pq_stats *s) {
  s->null_count = s->nan_count = 0;
  s->has_minmax = false;
  memset(&s->min, 0, sizeof s->min);
  memset(&s->max, 0, sizeof s->max);
  cp_buf_clear(&s->min_bytes);
  cp_buf_clear(&s->max_bytes);
}

void cp_pq_stats_free(cp_pq_stats *s) {
  cp_buf_free(&s->min_bytes);
  cp_buf_free(&s->max_bytes);
  memset(s, 0, sizeof *s);
}

/* Running bounds of integer values: one pass, then one merge. */
#define UPDATE_INTEGERS(s, v, n)                                                                   \
  do {                                                                                             \
    if ((n) == 0) return;                                                                          \
    int64_t lo_ = (v)[0], hi_ = (v)[0];                                                            \
    for (size_t i_ = 1; i_ < (n); i_++) {                                                          \
      int64_t x_ = (v)[i_];                                                                        \
      lo_ = x_ < lo_ ? x_ : lo_;                                                                   \
      hi_ = x_ > hi_ ? x_ : hi_;                                                                   \
    }                                                                                              \
    if (!(s)->has_minmax || lo_ < (s)->min.i) (s)->min.i = lo_;                                    \
    if (!(s)->has_minmax || hi_ > (s)->max.i) (s)->max.i = hi_;                                    \
    (s)->has_minmax = true;                                                                        \
  } while (0)

void cp_pq_stats_update_i32(cp_pq_stats *s, const int32_t *v, size_t n) {
  UPDATE_INTEGERS(s, v, n);
}

void cp_pq_stats_update_i64(cp_pq_stats *s, const int64_t *v, size_t n) {
  UPDATE_INTEGERS(s, v, n);
}

/* NaN is never a bound (§4 P20): it is counted and skipped. */
#define UPDATE_FLOATS(s, v, n, T, field)                                                           \
  do {                                                                                             \
    T lo_ = INFINITY, hi_ = -INFINITY;                                                             \
    int64_t nans_ = 0;                                                                             \
    bool any_ = false;                                                                             \
    for (size_t i_ = 0; i_ < (n); i_++) {                                                          \
      T x_ = (v)[i_];                                                                              \
      if (isnan(x_)) {                                                                             \
        nans_++;                                                                                   \
        continue;                                                                                  \
      }                                                                                            \
      any_ = true;                                                                                 \
      lo_ = x_ < lo_ ? x_ : lo_;                                                                   \
      hi_ = x_ > hi_ ? x_ : hi_;                                                                   \
    }                                                                                              \
    (s)->nan_count += nans_;                                                                       \
    if (!any_) return;                                                                             \
    if (!(s)->has_minmax || lo_ < (s)->min.field) (s)->min.field = lo_;                            \
    if (!(s)->has_minmax || hi_ > (s)->max.field) (s)->max.field = hi_;                            \
    (s)->has_minmax = true;                                                                        \
  } while (0)

void cp_pq_stats_update_f32(cp_pq_stats *s, const float *v, size_t n) {
  UPDATE_FLOATS(s, v, n, float, f32);
}

void cp_pq_stats_update_f64(cp_pq_stats *s, const double *v, size_t n) {
  UPDATE_FLOATS(s, v, n, double, f64);
}

void cp_pq_stats_update_dec(cp_pq_stats *s, const cp_int128 *v, size_t n) {
  if (n == 0) return;
  cp_int128 lo = v[0], hi = v[0];
  for (size_t i = 1; i < n; i++) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  if (!s->has_minmax || lo < s->min.dec) s->min.dec = lo;
  if (!s->has_minmax || hi > s->max.dec) s->max.dec = hi;
  s->has_minmax = true;
}

void cp_pq_stats_update_bool(cp_pq_stats *s, bool has_false, bool has_true) {
  if (!has_false && !has_true) return;
  bool lo = !has_false, hi = has_true;
  if (!s->has_minmax || lo < s->min.b) s->min.b = lo;
  if (!s->has_minmax || hi > s->max.b) s->max.b = hi;
  s->has_minmax = true;
}

int cp_pq_bytes_compare(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
  size_t n = a_len < b_len ? a_len : b_len;
  int c = n ? memcmp(a, b, n) : 0;
  if (c != 0) return c;
  return a_len < b_len ? -1 : a_len > b_len;
}

static int set_bytes(cp_buf *b, const uint8_t *p, size_t n, paimon_error *err) {
  cp_buf_clear(b);
  return n ? cp_buf_append(b, p, n, err) : PAIMON_OK;
}

int cp_pq_stats_update_bytes(cp_pq_stats *s, const uint8_t *min, size_t min_len, const uint8_t *max,
                             size_t max_len, paimon_error *err) {
  if (!s->has_minmax || cp_pq_bytes_compare(min, min_len, s->min_bytes.data, s->min_bytes.len) < 0)
    CP_RETURN_IF_ERROR(set_bytes(&s->min_bytes, min, min_len, err));
  if (!s->has_minmax || cp_pq_bytes_compare(max, max_len, s->max_bytes.data, s->max_bytes.len) > 0)
    CP_RETURN_IF_ERROR(set_bytes(&s->max_bytes, max, max_len, err));
  s->has_minmax = true;
  return PAIMON_OK;
}

int cp_pq_stats_merge(cp_pq_stats *dst, const cp_pq_stats *src, paimon_error *err) {
  dst->null_count += src->null_count;
  dst->nan_count += src->nan_count;
  if (!src->has_minmax) return PAIMON_OK;
  switch (src->kind) {
  case CP_PQ_STATS_BOOL: cp_pq_stats_update_bool(dst, !src->min.b, src->max.b); break;
  case CP_PQ_STATS_I32:
  case CP_PQ_STATS_I64: {
    int64_t v[2] = {src->min.i, src->max.i};
    cp_pq_stats_update_i64(dst, v, 2);
    break;
  }
  case CP_PQ_STATS_F32: {
    float v[2] = {src->min.f32, src->max.f32};
    int64_t nans = dst->nan_count;
    cp_pq_stats_update_f32(dst, v, 2);
    dst->nan_count = nans;
    break;
  }
  case CP_PQ_STATS_F64: {
    double v[2] = {src->min.f64, src->max.f64};
    int64_t nans = dst->nan_count;
    cp_pq_stats_update_f64(dst, v, 2);
    dst->nan_count = nans;
    break;
  }
  case CP_PQ_STATS_DEC: {
    cp_int128 v[2] = {src->min.dec, src->max.dec};
    cp_pq_stats_update_dec(dst, v, 2);
    break;
  }
  case CP_PQ_STATS_BYTES:
    return cp_pq_stats_update_bytes(dst, src->min_bytes.data, src->min_bytes.len,
                                    src->max_bytes.data, src->max_bytes.len, err);
  }
  return PAIMON_OK;
}

/* ---- Thrift ---- */

static int opt_bytes(cp_pq_opt_bytes *o, const void *p, size_t n, cp_arena *arena,
                     paimon_error *err) {
  uint8_t *c = cp_arena_alloc(arena, n ? n : 1);
  if (!c) return CP_ENOMEM(err, "parquet statistics");
  if (n) memcpy(c, p, n);
  o->is_set = true;
  o->data = c;
  o->len = (uint32_t)n;
  return PAIMON_OK;
}

/* Big-endian two's complement in `n` bytes (n <= 16), sign-extended (§4 P10). */
static void decimal_be(uint8_t *out, cp_int128 v, int32_t n) {
  for (int32_t i = 0; i < n; i++) out[n - 1 - i] = (uint8_t)(v >> (8 * (i < 16 ? i : 15)));
}

/* The PLAIN bytes of the min (which = 0) or max (which = 1) bound, for fixed-size kinds. */
static size_t bound_bytes(const cp_pq_stats *s, int which, int32_t type_length, uint8_t *out) {
  switch (s->kind) {
  case CP_PQ_STATS_BOOL: out[0] = which ? s->max.b : s->min.b; return 1;
  case CP_PQ_STATS_I32: {
    int32_t v = (int32_t)(which ? s->max.i : s->min.i);
    memcpy(out, &v, 4);
    return 4;
  }
  case CP_PQ_STATS_I64: memcpy(out, which ? &s->max.i : &s->min.i, 8); return 8;
  case CP_PQ_STATS_F32: {
    /* A zero min is -0.0 and a zero max +0.0, so both zeros fall inside the bounds (§2.9). */
    float v = which ? s->max.f32 : s->min.f32;
    if (v == 0.0f) v = which ? 0.0f : -0.0f;
    memcpy(out, &v, 4);
    return 4;
  }
  case CP_PQ_STATS_F64: {
    double v = which ? s->max.f64 : s->min.f64;
    if (v == 0.0) v = which ? 0.0 : -0.0;
    memcpy(out, &v, 8);
    return 8;
  }
  case CP_PQ_STATS_DEC:
    decimal_be(out, which ? s->max.dec : s->min.dec, type_length);
    return (size_t)type_length;
  default: return 0;
  }
}

int cp_pq_stats_to_thrift(const cp_pq_stats *s, int physical, int32_t type_length,
                          cp_pq_statistics *out, cp_arena *arena, paimon_error *err) {
  memset(out, 0, sizeof *out);
  out->null_count = (cp_pq_opt_i64){true, s->null_count};
  if (physical == CP_PQ_FLOAT || physical == CP_PQ_DOUBLE)
    out->nan_count = (cp_pq_opt_i64){true, s->nan_count};
  if (!s->has_minmax) return PAIMON_OK;
  if (s->kind == CP_PQ_STATS_BYTES) {
    const cp_buf *lo = &s->min_bytes, *hi = &s->max_bytes;
    if (lo->len + hi->len >= CP_PQ_MAX_STATS_SIZE) return PAIMON_OK;
    CP_RETURN_IF_ERROR(opt_bytes(&out->min_value, lo->data, lo->len, arena, err));
    CP_RETURN_IF_ERROR(opt_bytes(&out->max_value, hi->data, hi->len, arena, err));
    /* Old readers compare the deprecated fields signed: only an exact bound is safe there. */
    if (cp_pq_bytes_compare(lo->data, lo->len, hi->data, hi->len) == 0) {
      out->min = out->min_value;
      out->max = out->max_value;
    }
    return PAIMON_OK;
  }
  uint8_t lo[16], hi[16];
  size_t n = bound_bytes(s, 0, type_length, lo);
  bound_bytes(s, 1, type_length, hi);
  CP_RETURN_IF_ERROR(opt_bytes(&out->min_value, lo, n, arena, err));
  CP_RETURN_IF_ERROR(opt_bytes(&out->max_value, hi, n, arena, err));
  out->min = out->min_value;
  out->max = out->max_value;
  return PAIMON_OK;
}

/* ---- Paimon datums ---- */

static cp_datum timestamp_datum(int64_t v, int32_t precision) {
  cp_datum d = cp_datum_null();
  d.is_null = false;
  int64_t per_milli = precision <= 3 ? 1 : precision <= 6 ? 1000 : 1000000;
  int64_t ms = v / per_milli, rem = v % per_milli;
  if (rem < 0) ms--, rem += per_milli; /* floor: the sub-millisecond part is never negative */
  d.v.ts.millis = ms;
  d.v.ts.nanos_of_milli = (int32_t)(rem * (1000000 / per_milli));
  return d;
}

static cp_datum bound_datum(const cp_pq_stats *s, const cp_type *t, int which) {
  cp_datum d = cp_datum_null();
  d.is_null = false;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: d.v.b = which ? s->max.b : s->min.b; break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: d.v.i64 = which ? s->max.i : s->min.i; break;
  case CP_TYPE_FLOAT:
    d.v.f32 = which ? s->max.f32 : s->min.f32;
    if (d.v.f32 == 0.0f) d.v.f32 = which ? 0.0f : -0.0f;
    break;
  case CP_TYPE_DOUBLE:
    d.v.f64 = which ? s->max.f64 : s->min.f64;
    if (d.v.f64 == 0.0) d.v.f64 = which ? 0.0 : -0.0;
    break;
  case CP_TYPE_DECIMAL:
    if (s->kind == CP_PQ_STATS_DEC)
      d.v.dec = which ? s->max.dec : s->min.dec;
    else
      d.v.dec = which ? s->max.i : s->min.i;
    break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY: {
    const cp_buf *b = which ? &s->max_bytes : &s->min_bytes;
    d.v.bytes.data = b->len ? b->data : (const uint8_t *)"";
    d.v.bytes.len = b->len;
    break;
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return timestamp_datum(which ? s->max.i : s->min.i, t->precision);
  default: return cp_datum_null();
  }
  return d;
}

void cp_pq_stats_to_datums(const cp_pq_stats *s, const cp_type *t, cp_datum *min, cp_datum *max) {
  if (!s->has_minmax) {
    *min = *max = cp_datum_null();
    return;
  }
  *min = bound_datum(s, t, 0);
  *max = bound_datum(s, t, 1);
}
