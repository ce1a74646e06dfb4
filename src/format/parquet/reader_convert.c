/*
 * Value conversion kernels of the Parquet reader (page_read.h): physical values as decoded from a
 * page → the output representation a leaf's cp_pq_leaf_conv asks for. Implements the value rules
 * of spec/parquet.md §1.1 (decimal forms, timestamp units), §4 P9 (INT96: nanoseconds of the day,
 * then the Julian day; decoded linearly with 64-bit wrap, since Java writes negative nanos for
 * pre-1970 instants) and §4 P10 (FLBA/BYTE_ARRAY decimals are big-endian two's complement).
 *
 * Each kernel is a tight loop over one conversion, chosen once per page, never per value.
 */
#include <string.h>

#include "base/status.h"
#include "format/parquet/page_read.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

#define JULIAN_UNIX_EPOCH 2440588

static i128 pow10_i128(int k) {
  i128 v = 1;
  while (k-- > 0) v *= 10;
  return v;
}

static int64_t floor_div(int64_t v, int64_t d) {
  int64_t q = v / d;
  if ((v % d) != 0 && v < 0) q--;
  return q;
}

static int scale_i64(const cp_pq_leaf_conv *c, const int64_t *src, size_t n, int64_t *dst,
                     const char *column, paimon_error *err) {
  if (c->mul > 1) {
    for (size_t i = 0; i < n; i++) {
      if (__builtin_mul_overflow(src[i], c->mul, &dst[i]))
        return paimon_error_set(err, PAIMON_EINVAL,
                                "column '%s': value %lld overflows int64 when converted to a finer "
                                "unit (x%lld)",
                                column, (long long)src[i], (long long)c->mul);
    }
  } else {
    for (size_t i = 0; i < n; i++) dst[i] = floor_div(src[i], c->div);
  }
  return PAIMON_OK;
}

static int scale_i64_to_i32(const cp_pq_leaf_conv *c, const int64_t *src, size_t n, int32_t *dst,
                            const char *column, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    int64_t v;
    if (__builtin_mul_overflow(src[i], c->mul, &v)) v = INT64_MAX;
    v = floor_div(v, c->div);
    if (v < INT32_MIN || v > INT32_MAX)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "column '%s': time value %lld does not fit the target unit", column,
                              (long long)src[i]);
    dst[i] = (int32_t)v;
  }
  return PAIMON_OK;
}

static void int96_to_ts(const uint8_t *src, size_t n, cp_time_unit unit, int64_t *dst) {
  int64_t per_sec = cp_time_unit_per_second(unit);
  int64_t nanos_per_unit = 1000000000 / per_sec;
  uint64_t per_day = (uint64_t)86400 * (uint64_t)per_sec;
  for (size_t i = 0; i < n; i++) {
    int64_t nanos;
    int32_t day;
    memcpy(&nanos, src + 12 * i, 8);
    memcpy(&day, src + 12 * i + 8, 4);
    uint64_t days = (uint64_t)((int64_t)day - JULIAN_UNIX_EPOCH);
    uint64_t in_day = (uint64_t)floor_div(nanos, nanos_per_unit);
    dst[i] = (int64_t)(days * per_day + in_day);
  }
}

/* Rescales and precision-checks one unscaled decimal. */
static int finish_decimal(const cp_pq_leaf_conv *c, i128 v, uint8_t *dst, const char *column,
                          paimon_error *err) {
  if (c->dec_check > 0) {
    i128 limit = pow10_i128(c->dec_check - c->dec_rescale);
    if (v >= limit || v <= -limit)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "column '%s': decimal value does not fit %d digits", column,
                              (int)c->dec_check);
  }
  if (c->dec_rescale > 0) v = (i128)((u128)v * (u128)pow10_i128(c->dec_rescale));
  memcpy(dst, &v, 16);
  return PAIMON_OK;
}

/* Big-endian two's complement bytes → i128; fails when they need more than 128 bits. */
static int be_to_i128(const uint8_t *p, size_t len, i128 *out, const char *column,
                      paimon_error *err) {
  if (len == 0) {
    *out = 0;
    return PAIMON_OK;
  }
  uint8_t sign = (p[0] & 0x80) ? 0xFF : 0x00;
  while (len > 16) {
    if (p[0] != sign || ((p[1] & 0x80) ? 0xFF : 0x00) != sign)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "column '%s': decimal value of %zu bytes does not fit 128 bits",
                              column, len);
    p++;
    len--;
  }
  u128 v = sign ? ~(u128)0 : 0;
  for (size_t i = 0; i < len; i++) v = (v << 8) | p[i];
  *out = (i128)v;
  return PAIMON_OK;
}

static int decimals_from_ints(const cp_pq_leaf_conv *c, const void *src, size_t n, bool is64,
                              uint8_t *dst, const char *column, paimon_error *err) {
  if (c->dec_rescale == 0 && c->dec_check == 0) {
    for (size_t i = 0; i < n; i++) {
      int64_t v;
      if (is64) {
        memcpy(&v, (const uint8_t *)src + 8 * i, 8);
      } else {
        int32_t w;
        memcpy(&w, (const uint8_t *)src + 4 * i, 4);
        v = w;
      }
      uint64_t parts[2] = {(uint64_t)v, v < 0 ? ~(uint64_t)0 : 0};
      memcpy(dst + 16 * i, parts, 16);
    }
    return PAIMON_OK;
  }
  for (size_t i = 0; i < n; i++) {
    int64_t v;
    if (is64) {
      memcpy(&v, (const uint8_t *)src + 8 * i, 8);
    } else {
      int32_t w;
      memcpy(&w, (const uint8_t *)src + 4 * i, 4);
      v = w;
    }
    CP_RETURN_IF_ERROR(finish_decimal(c, (i128)v, dst + 16 * i, column, err));
  }
  return PAIMON_OK;
}

int cp_pq_convert_fixed(const cp_pq_leaf_conv *c, const void *src, size_t n, void *dst,
                        const char *column, paimon_error *err) {
  const int32_t *s32 = src;
  const int64_t *s64 = src;
  switch (c->conv) {
  case CP_PQ_CONV_COPY: memcpy(dst, src, n * (size_t)c->out_width); return PAIMON_OK;
  case CP_PQ_CONV_I32_TO_I8:
    for (size_t i = 0; i < n; i++) ((int8_t *)dst)[i] = (int8_t)s32[i];
    return PAIMON_OK;
  case CP_PQ_CONV_I32_TO_I16:
    for (size_t i = 0; i < n; i++) ((int16_t *)dst)[i] = (int16_t)s32[i];
    return PAIMON_OK;
  case CP_PQ_CONV_I32_TO_I64:
    for (size_t i = 0; i < n; i++) ((int64_t *)dst)[i] = s32[i];
    return PAIMON_OK;
  case CP_PQ_CONV_U32_TO_I64:
    for (size_t i = 0; i < n; i++) ((int64_t *)dst)[i] = (int64_t)(uint32_t)s32[i];
    return PAIMON_OK;
  case CP_PQ_CONV_I32_TO_F64:
    for (size_t i = 0; i < n; i++) ((double *)dst)[i] = s32[i];
    return PAIMON_OK;
  case CP_PQ_CONV_I64_TO_F64:
    for (size_t i = 0; i < n; i++) ((double *)dst)[i] = (double)s64[i];
    return PAIMON_OK;
  case CP_PQ_CONV_F32_TO_F64:
    for (size_t i = 0; i < n; i++) ((double *)dst)[i] = ((const float *)src)[i];
    return PAIMON_OK;
  case CP_PQ_CONV_I32_SCALE:
    for (size_t i = 0; i < n; i++)
      ((int32_t *)dst)[i] = (int32_t)floor_div((int64_t)s32[i] * c->mul, c->div);
    return PAIMON_OK;
  case CP_PQ_CONV_I64_SCALE: return scale_i64(c, s64, n, dst, column, err);
  case CP_PQ_CONV_I64_TO_I32_SCALE: return scale_i64_to_i32(c, s64, n, dst, column, err);
  case CP_PQ_CONV_INT96_TO_TS: int96_to_ts(src, n, c->unit, dst); return PAIMON_OK;
  case CP_PQ_CONV_I32_TO_DEC: return decimals_from_ints(c, src, n, false, dst, column, err);
  case CP_PQ_CONV_I64_TO_DEC: return decimals_from_ints(c, src, n, true, dst, column, err);
  case CP_PQ_CONV_FIXED_TO_DEC:
    for (size_t i = 0; i < n; i++) {
      i128 v = 0;
      const uint8_t *p = (const uint8_t *)src + i * (size_t)c->phys_width;
      CP_RETURN_IF_ERROR(be_to_i128(p, (size_t)c->phys_width, &v, column, err));
      CP_RETURN_IF_ERROR(finish_decimal(c, v, (uint8_t *)dst + 16 * i, column, err));
    }
    return PAIMON_OK;
  default:
    return paimon_error_set(err, PAIMON_ESTATE, "column '%s': conversion %d on fixed values",
                            column, c->conv);
  }
}

int cp_pq_convert_binary(const cp_pq_leaf_conv *c, const int32_t *offsets, const uint8_t *data,
                         size_t n, void *dst, const char *column, paimon_error *err) {
  if (c->conv != CP_PQ_CONV_BINARY_TO_DEC)
    return paimon_error_set(err, PAIMON_ESTATE, "column '%s': conversion %d on byte arrays", column,
                            c->conv);
  for (size_t i = 0; i < n; i++) {
    i128 v = 0;
    size_t len = (size_t)(offsets[i + 1] - offsets[i]);
    /* a page of empty values has no data buffer at all */
    const uint8_t *p = len ? data + offsets[i] : NULL;
    CP_RETURN_IF_ERROR(be_to_i128(p, len, &v, column, err));
    CP_RETURN_IF_ERROR(finish_decimal(c, v, (uint8_t *)dst + 16 * i, column, err));
  }
  return PAIMON_OK;
}

int cp_pq_convert_fixed_to_binary(const uint8_t *src, size_t n, size_t width, int32_t *offsets,
                                  cp_buf *data, paimon_error *err) {
  size_t bytes = n * width;
  if (bytes > (size_t)INT32_MAX - data->len)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "binary values of one batch exceed 2 GiB; use a smaller batch size");
  CP_RETURN_IF_ERROR(cp_buf_append(data, src, bytes, err));
  int32_t base = offsets[0];
  for (size_t i = 0; i < n; i++) offsets[i + 1] = base + (int32_t)((i + 1) * width);
  return PAIMON_OK;
}
