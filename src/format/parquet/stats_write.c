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
  s->has_minmax = s->neg_zero = s->pos_zero = false;
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

/* NaN is never a bound (§4 P20): it is counted, and skipped by the comparisons themselves (any
 * comparison with NaN is false, so `x < lo ? x : lo` keeps lo). On SSE2 the bulk of a run goes
 * through minps/maxps (bulk_f32/bulk_f64), which compute exactly that select — min(x, lo) is x
 * when x < lo and lo otherwise, NaN x included — in four independent chains; the rest (or all,
 * elsewhere) through four scalar lanes. There is no branch per value. */
#if defined(__SSE2__)
#include <emmintrin.h>

/* Values per call of a bulk function: bounds the int32 NaN counters of its lanes. */
#define BULK_MAX ((size_t)1 << 24)

#define BULK(NAME, T, VEC, LANES, SET1, LOAD, MIN, MAX, STORE, UNORD, CAST)                        \
  static size_t NAME(const T *v, size_t n, T *lo, T *hi, int64_t *nans) {                          \
    if (n > BULK_MAX) n = BULK_MAX;                                                                \
    VEC l[4], h[4];                                                                                \
    __m128i nn = _mm_setzero_si128();                                                              \
    for (int k = 0; k < 4; k++) l[k] = SET1(INFINITY), h[k] = SET1(-INFINITY);                     \
    size_t i = 0;                                                                                  \
    for (; i + 4 * LANES <= n; i += 4 * LANES)                                                     \
      for (int k = 0; k < 4; k++) {                                                                \
        VEC x = LOAD(v + i + (size_t)k * LANES);                                                   \
        l[k] = MIN(x, l[k]);                                                                       \
        h[k] = MAX(x, h[k]);                                                                       \
        nn = _mm_sub_epi32(nn, CAST(UNORD(x, x)));                                                 \
      }                                                                                            \
    T ls[4 * LANES], hs[4 * LANES];                                                                \
    int32_t c[4];                                                                                  \
    for (int k = 0; k < 4; k++) STORE(ls + k * LANES, l[k]), STORE(hs + k * LANES, h[k]);          \
    _mm_storeu_si128((__m128i *)(void *)c, nn);                                                    \
    for (int k = 0; k < 4 * LANES; k++) {                                                          \
      *lo = ls[k] < *lo ? ls[k] : *lo;                                                             \
      *hi = hs[k] > *hi ? hs[k] : *hi;                                                             \
    }                                                                                              \
    /* A double's NaN mask is two int32 lanes of -1: each NaN counted twice. */                    \
    *nans += ((int64_t)c[0] + c[1] + c[2] + c[3]) / (4 / LANES);                                   \
    return i;                                                                                      \
  }

BULK(bulk_f32, float, __m128, 4, _mm_set1_ps, _mm_loadu_ps, _mm_min_ps, _mm_max_ps, _mm_storeu_ps,
     _mm_cmpunord_ps, _mm_castps_si128)
BULK(bulk_f64, double, __m128d, 2, _mm_set1_pd, _mm_loadu_pd, _mm_min_pd, _mm_max_pd, _mm_storeu_pd,
     _mm_cmpunord_pd, _mm_castpd_si128)
#else
static size_t bulk_f32(const float *v, size_t n, float *lo, float *hi, int64_t *nans) {
  (void)v, (void)n, (void)lo, (void)hi, (void)nans;
  return 0;
}
static size_t bulk_f64(const double *v, size_t n, double *lo, double *hi, int64_t *nans) {
  (void)v, (void)n, (void)lo, (void)hi, (void)nans;
  return 0;
}
#endif

#define UPDATE_FLOATS(s, v, n, T, field, BULK_FN)                                                  \
  do {                                                                                             \
    T lo_[4] = {INFINITY, INFINITY, INFINITY, INFINITY};                                           \
    T hi_[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};                                       \
    int64_t nans_ = 0;                                                                             \
    size_t i_ = 0, done_;                                                                          \
    while ((done_ = BULK_FN((v) + i_, (n)-i_, &lo_[1], &hi_[1], &nans_)) > 0) i_ += done_;         \
    for (; i_ + 4 <= (n); i_ += 4)                                                                 \
      for (int k_ = 0; k_ < 4; k_++) {                                                             \
        T x_ = (v)[i_ + (size_t)k_];                                                               \
        nans_ += x_ != x_;                                                                         \
        lo_[k_] = x_ < lo_[k_] ? x_ : lo_[k_];                                                     \
        hi_[k_] = x_ > hi_[k_] ? x_ : hi_[k_];                                                     \
      }                                                                                            \
    for (; i_ < (n); i_++) {                                                                       \
      T x_ = (v)[i_];                                                                              \
      nans_ += x_ != x_;                                                                           \
      lo_[0] = x_ < lo_[0] ? x_ : lo_[0];                                                          \
      hi_[0] = x_ > hi_[0] ? x_ : hi_[0];                                                          \
    }                                                                                              \
    (s)->nan_count += nans_;                                                                       \
    if ((int64_t)(n) == nans_) return;                                                             \
    for (int k_ = 1; k_ < 4; k_++) {                                                               \
      lo_[0] = lo_[k_] < lo_[0] ? lo_[k_] : lo_[0];                                                \
      hi_[0] = hi_[k_] > hi_[0] ? hi_[k_] : hi_[0];                                                \
    }                                                                                              \
    if (lo_[0] == 0 || hi_[0] == 0) zero_signs((v), (n), (s));                                     \
    if (!(s)->has_minmax || lo_[0] < (s)->min.field) (s)->min.field = lo_[0];                      \
    if (!(s)->has_minmax || hi_[0] > (s)->max.field) (s)->max.field = hi_[0];                      \
    (s)->has_minmax = true;                                                                        \
  } while (0)

/* Which zeros a run whose min or max is zero holds (only such runs can give a bound of zero: a
 * zero in a run with a negative min and a positive max never becomes one). */
#define ZERO_SIGNS(NAME, T)                                                                        \
  static void NAME(const T *v, size_t n, cp_pq_stats *s) {                                         \
    for (size_t i = 0; i < n && !(s->neg_zero && s->pos_zero); i++)                                \
      if (v[i] == 0) {                                                                             \
        if (signbit(v[i]))                                                                         \
          s->neg_zero = true;                                                                      \
        else                                                                                       \
          s->pos_zero = true;                                                                      \
      }                                                                                            \
  }
ZERO_SIGNS(zero_signs_f32, float)
ZERO_SIGNS(zero_signs_f64, double)
#define zero_signs(v, n, s)                                                                        \
  _Generic((v), const float * : zero_signs_f32, default : zero_signs_f64)(v, n, s)

void cp_pq_stats_update_f32(cp_pq_stats *s, const float *v, size_t n) {
  UPDATE_FLOATS(s, v, n, float, f32, bulk_f32);
}

void cp_pq_stats_update_f64(cp_pq_stats *s, const double *v, size_t n) {
  UPDATE_FLOATS(s, v, n, double, f64, bulk_f64);
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
  case CP_PQ_STATS_F32:
    if (!dst->has_minmax || src->min.f32 < dst->min.f32) dst->min.f32 = src->min.f32;
    if (!dst->has_minmax || src->max.f32 > dst->max.f32) dst->max.f32 = src->max.f32;
    break;
  case CP_PQ_STATS_F64:
    if (!dst->has_minmax || src->min.f64 < dst->min.f64) dst->min.f64 = src->min.f64;
    if (!dst->has_minmax || src->max.f64 > dst->max.f64) dst->max.f64 = src->max.f64;
    break;
  case CP_PQ_STATS_DEC: {
    cp_int128 v[2] = {src->min.dec, src->max.dec};
    cp_pq_stats_update_dec(dst, v, 2);
    break;
  }
  case CP_PQ_STATS_BYTES:
    return cp_pq_stats_update_bytes(dst, src->min_bytes.data, src->min_bytes.len,
                                    src->max_bytes.data, src->max_bytes.len, err);
  }
  dst->has_minmax = true;
  dst->neg_zero = dst->neg_zero || src->neg_zero;
  dst->pos_zero = dst->pos_zero || src->pos_zero;
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

/* A FLOAT/DOUBLE bound in Java's Double.compare order (stats_write.h). */
static double java_float_bound(const cp_pq_stats *s, int which) {
  if (!s->has_minmax || (which && s->nan_count > 0)) return NAN;
  double v = s->kind == CP_PQ_STATS_F32 ? (which ? s->max.f32 : s->min.f32)
                                        : (which ? s->max.f64 : s->min.f64);
  if (v == 0) v = (which ? !s->pos_zero : s->neg_zero) ? -0.0 : 0.0;
  return v;
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
    float v = (float)java_float_bound(s, which);
    memcpy(out, &v, 4);
    return 4;
  }
  case CP_PQ_STATS_F64: {
    double v = java_float_bound(s, which);
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
  bool floating = physical == CP_PQ_FLOAT || physical == CP_PQ_DOUBLE;
  if (floating) out->nan_count = (cp_pq_opt_i64){true, s->nan_count};
  if (!s->has_minmax && !(floating && s->nan_count > 0)) return PAIMON_OK;
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
  case CP_TYPE_FLOAT: d.v.f32 = (float)java_float_bound(s, which); break;
  case CP_TYPE_DOUBLE: d.v.f64 = java_float_bound(s, which); break;
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
  bool nan_only = s->nan_count > 0 && (t->kind == CP_TYPE_FLOAT || t->kind == CP_TYPE_DOUBLE);
  if (!s->has_minmax && !nan_only) {
    *min = *max = cp_datum_null();
    return;
  }
  *min = bound_datum(s, t, 0);
  *max = bound_datum(s, t, 1);
}
