/*
 * PLAIN and BYTE_STREAM_SPLIT (spec/parquet.md §2.7; parquet-format Encodings.md "Plain" and
 * "Byte Stream Split"; §4 P14 for booleans).
 *
 * PLAIN fixed-width values are the host's little-endian bytes, so decoding is a bounds check and a
 * memcpy. BYTE_ARRAY decoding makes two passes — validate every length and add them up, then
 * reserve once and copy — so a lying length fails before anything is allocated, and the output
 * buffer grows once per call instead of once per value.
 */
#include <limits.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/encoding.h"

static inline uint32_t load_le32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* n * width without overflow; SIZE_MAX when it would overflow (never a valid byte count). */
static inline size_t mul_size(size_t n, size_t width) {
  return width != 0 && n > SIZE_MAX / width ? SIZE_MAX : n * width;
}

int cp_pq_plain_decode_fixed(void *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                             size_t width, paimon_error *err) {
  size_t bytes = mul_size(n, width);
  if (bytes > len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "PLAIN: %zu values of %zu bytes need %zu bytes but only %zu remain", n,
                            width, bytes == SIZE_MAX ? n : bytes, len);
  if (bytes) memcpy(out, data, bytes);
  *consumed = bytes;
  return PAIMON_OK;
}

int cp_pq_plain_decode_bool(uint8_t *out, size_t n, const uint8_t *data, size_t len, size_t first,
                            paimon_error *err) {
  if (first > SIZE_MAX - n || (first + n + 7) / 8 > len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "PLAIN BOOLEAN: values %zu..%zu need more than the %zu bytes present",
                            first, first + n, len);
  size_t i = 0;
  /* Up to the next byte boundary, then 8 values per byte. */
  for (; i < n && ((first + i) & 7); i++)
    out[i] = (data[(first + i) >> 3] >> ((first + i) & 7)) & 1;
  for (; i + 8 <= n; i += 8) {
    uint8_t b = data[(first + i) >> 3];
    for (int j = 0; j < 8; j++) out[i + (size_t)j] = (b >> j) & 1;
  }
  for (; i < n; i++) out[i] = (data[(first + i) >> 3] >> ((first + i) & 7)) & 1;
  return PAIMON_OK;
}

int cp_pq_plain_decode_binary(int32_t *offsets, cp_buf *values, size_t n, size_t *consumed,
                              const uint8_t *data, size_t len, paimon_error *err) {
  size_t pos = 0, total = 0;
  for (size_t i = 0; i < n; i++) {
    if (len - pos < 4)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "PLAIN BYTE_ARRAY: length of value %zu at byte %zu is truncated", i,
                              pos);
    uint32_t vlen = load_le32(data + pos);
    if (vlen > len - pos - 4)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "PLAIN BYTE_ARRAY: value %zu at byte %zu has length %u, past the end "
                              "of the %zu bytes",
                              i, pos, vlen, len);
    pos += 4 + (size_t)vlen;
    total += vlen;
  }
  if (values->len > (size_t)INT32_MAX || total > (size_t)INT32_MAX - values->len)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "PLAIN BYTE_ARRAY: %zu + %zu bytes overflow 32-bit offsets",
                            values->len, total);
  int32_t off = (int32_t)values->len;
  offsets[0] = off;
  if (total == 0) { /* all empty: no bytes to copy, and values->data may still be NULL */
    for (size_t i = 0; i < n; i++) offsets[i + 1] = off;
    *consumed = pos;
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(cp_buf_reserve(values, total, err));
  uint8_t *dst = values->data + values->len;
  pos = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t vlen = load_le32(data + pos);
    memcpy(dst, data + pos + 4, vlen);
    dst += vlen;
    off += (int32_t)vlen;
    offsets[i + 1] = off;
    pos += 4 + (size_t)vlen;
  }
  values->len += total;
  *consumed = pos;
  return PAIMON_OK;
}

int cp_pq_plain_encode_fixed(cp_buf *out, const void *values, size_t n, size_t width,
                             paimon_error *err) {
  size_t bytes = mul_size(n, width);
  if (bytes == SIZE_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "PLAIN encoder: %zu values of %zu bytes overflow",
                            n, width);
  return cp_buf_append(out, values, bytes, err);
}

int cp_pq_plain_encode_bool(cp_buf *out, size_t *bit_count, const uint8_t *values, size_t n,
                            paimon_error *err) {
  size_t bits = *bit_count;
  if ((bits + 7) / 8 > out->len)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "PLAIN BOOLEAN encoder: %zu bits written but the buffer has %zu bytes",
                            bits, out->len);
  size_t new_bytes = (bits + n + 7) / 8 - (bits + 7) / 8;
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(out, new_bytes, err));
  /* The section's first byte: the partial byte of earlier calls (if any) stays where it is. */
  uint8_t *base = out->data + out->len - new_bytes - (bits + 7) / 8;
  for (size_t i = 0; i < n; i++, bits++)
    if (values[i]) base[bits >> 3] |= (uint8_t)(1u << (bits & 7));
  *bit_count = bits;
  return PAIMON_OK;
}

int cp_pq_plain_encode_binary(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                              paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  if (offsets[n] < offsets[0])
    return paimon_error_set(err, PAIMON_EINVAL, "PLAIN BYTE_ARRAY encoder: offsets decrease");
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, n * 4 + (size_t)(offsets[n] - offsets[0]), err));
  for (size_t i = 0; i < n; i++) {
    int32_t len = offsets[i + 1] - offsets[i];
    if (len < 0)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "PLAIN BYTE_ARRAY encoder: value %zu has negative length %d", i, len);
    uint32_t ulen = (uint32_t)len;
    memcpy(out->data + out->len, &ulen, 4);
    if (ulen) memcpy(out->data + out->len + 4, data + offsets[i], ulen);
    out->len += 4 + (size_t)ulen;
  }
  return PAIMON_OK;
}

int cp_pq_binary_to_fixed(void *out, const int32_t *offsets, const uint8_t *data, size_t n,
                          size_t width, paimon_error *err) {
  uint8_t *dst = out;
  for (size_t i = 0; i < n; i++) {
    int64_t len = (int64_t)offsets[i + 1] - offsets[i];
    if (len != (int64_t)width)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "FIXED_LEN_BYTE_ARRAY: value %zu has %lld bytes, expected %zu", i,
                              (long long)len, width);
    if (width) memcpy(dst + i * width, data + offsets[i], width);
  }
  return PAIMON_OK;
}

/* ---- BYTE_STREAM_SPLIT ---- */

int cp_pq_bss_decode(void *out, size_t n, const uint8_t *data, size_t len, size_t width,
                     size_t first, paimon_error *err) {
  if (width == 0 || len % width != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "BYTE_STREAM_SPLIT: %zu bytes are not a whole number of %zu-byte "
                            "values",
                            len, width);
  const size_t count = len / width;
  if (first > count || n > count - first)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "BYTE_STREAM_SPLIT: values %zu..%zu requested but the page holds %zu",
                            first, first + n, count);
  if (n == 0) return PAIMON_OK;
  uint8_t *dst = out;
  const uint8_t *src = data + first;
  /* The common widths get a loop the compiler can keep in registers; stream j of value i is at
   * src[j * count + i]. */
  if (width == 4) {
    const uint8_t *s0 = src, *s1 = s0 + count, *s2 = s1 + count, *s3 = s2 + count;
    for (size_t i = 0; i < n; i++) {
      uint32_t v =
          (uint32_t)s0[i] | (uint32_t)s1[i] << 8 | (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
      memcpy(dst + 4 * i, &v, 4);
    }
  } else if (width == 8) {
    const uint8_t *s0 = src, *s1 = s0 + count, *s2 = s1 + count, *s3 = s2 + count;
    const uint8_t *s4 = s3 + count, *s5 = s4 + count, *s6 = s5 + count, *s7 = s6 + count;
    for (size_t i = 0; i < n; i++) {
      uint64_t v = (uint64_t)s0[i] | (uint64_t)s1[i] << 8 | (uint64_t)s2[i] << 16 |
                   (uint64_t)s3[i] << 24 | (uint64_t)s4[i] << 32 | (uint64_t)s5[i] << 40 |
                   (uint64_t)s6[i] << 48 | (uint64_t)s7[i] << 56;
      memcpy(dst + 8 * i, &v, 8);
    }
  } else {
    for (size_t j = 0; j < width; j++)
      for (size_t i = 0; i < n; i++) dst[i * width + j] = src[j * count + i];
  }
  return PAIMON_OK;
}

int cp_pq_bss_encode(cp_buf *out, const void *values, size_t n, size_t width, paimon_error *err) {
  size_t bytes = mul_size(n, width);
  if (width == 0 || bytes == SIZE_MAX)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "BYTE_STREAM_SPLIT encoder: bad value width %zu for %zu values", width,
                            n);
  if (n == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, bytes, err));
  const uint8_t *src = values;
  uint8_t *dst = out->data + out->len;
  for (size_t j = 0; j < width; j++)
    for (size_t i = 0; i < n; i++) dst[j * n + i] = src[i * width + j];
  out->len += bytes;
  return PAIMON_OK;
}
