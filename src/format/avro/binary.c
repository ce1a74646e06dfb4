/*
 * Avro binary encoding of primitives (Avro 1.11 specification, "Binary Encoding": zigzag varints
 * for int and long, little-endian IEEE 754 for float and double, length-prefixed bytes/string).
 * See binary.h for the bounds-checking contract.
 */
#include "format/avro/binary.h"

#include <string.h>

static int corrupt_at(const cp_avro_cursor *c, const uint8_t *at, const char *what,
                      paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: %s", (size_t)(at - c->base), what);
}

/* Reads the raw (still zigzag-encoded) varint of at most `max_bytes` bytes. The last allowed byte
 * may only carry the bits that still fit in `bits`, so overlong or overflowing encodings are
 * refused rather than wrapped. */
static int read_varint(cp_avro_cursor *c, int max_bytes, int bits, uint64_t *out,
                       paimon_error *err) {
  const uint8_t *start = c->pos;
  uint64_t acc = 0;
  for (int i = 0;; i++) {
    if (c->pos >= c->end) return corrupt_at(c, start, "truncated varint", err);
    uint8_t byte = *c->pos++;
    if (i == max_bytes - 1) {
      int spare = bits - 7 * i; /* value bits the last byte may still hold */
      if (byte & 0x80)
        return corrupt_at(c, start,
                          max_bytes == CP_AVRO_MAX_VARLONG ? "varint longer than 10 bytes"
                                                           : "int varint longer than 5 bytes",
                          err);
      if (byte >> spare)
        return corrupt_at(c, start,
                          bits == 64 ? "varint overflows 64 bits" : "int varint overflows 32 bits",
                          err);
    }
    acc |= (uint64_t)(byte & 0x7F) << (7 * i);
    if (!(byte & 0x80)) break;
  }
  *out = acc;
  return 0;
}

int cp_avro_read_long(cp_avro_cursor *c, int64_t *out, paimon_error *err) {
  uint64_t raw = 0;
  int rc = read_varint(c, CP_AVRO_MAX_VARLONG, 64, &raw, err);
  if (rc) return rc;
  *out = (int64_t)((raw >> 1) ^ (~(raw & 1) + 1));
  return 0;
}

int cp_avro_read_int(cp_avro_cursor *c, int32_t *out, paimon_error *err) {
  uint64_t raw = 0;
  int rc = read_varint(c, 5, 32, &raw, err);
  if (rc) return rc;
  uint32_t u = (uint32_t)raw;
  *out = (int32_t)((u >> 1) ^ (~(u & 1) + 1));
  return 0;
}

int cp_avro_read_boolean(cp_avro_cursor *c, bool *out, paimon_error *err) {
  if (c->pos >= c->end) return corrupt_at(c, c->pos, "truncated boolean", err);
  uint8_t b = *c->pos;
  if (b > 1) return corrupt_at(c, c->pos, "boolean byte is neither 0 nor 1", err);
  c->pos++;
  *out = b == 1;
  return 0;
}

static uint64_t load_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

int cp_avro_read_float(cp_avro_cursor *c, float *out, paimon_error *err) {
  if (cp_avro_cursor_remaining(c) < 4) return corrupt_at(c, c->pos, "truncated float", err);
  uint32_t bits = (uint32_t)load_le(c->pos, 4);
  memcpy(out, &bits, 4);
  c->pos += 4;
  return 0;
}

int cp_avro_read_double(cp_avro_cursor *c, double *out, paimon_error *err) {
  if (cp_avro_cursor_remaining(c) < 8) return corrupt_at(c, c->pos, "truncated double", err);
  uint64_t bits = load_le(c->pos, 8);
  memcpy(out, &bits, 8);
  c->pos += 8;
  return 0;
}

int cp_avro_read_bytes(cp_avro_cursor *c, const uint8_t **data, size_t *len, paimon_error *err) {
  const uint8_t *start = c->pos;
  int64_t n;
  int rc = cp_avro_read_long(c, &n, err);
  if (rc) return rc;
  if (n < 0) {
    c->pos = start;
    return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: negative length %lld",
                            (size_t)(start - c->base), (long long)n);
  }
  if ((uint64_t)n > cp_avro_cursor_remaining(c)) {
    size_t left = cp_avro_cursor_remaining(c);
    c->pos = start;
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "at byte %zu: length %lld exceeds the %zu bytes remaining",
                            (size_t)(start - c->base), (long long)n, left);
  }
  *data = c->pos;
  *len = (size_t)n;
  c->pos += n;
  return 0;
}

int cp_avro_read_raw(cp_avro_cursor *c, size_t n, const uint8_t **data, paimon_error *err) {
  if (n > cp_avro_cursor_remaining(c))
    return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: %zu bytes needed, %zu remaining",
                            cp_avro_cursor_offset(c), n, cp_avro_cursor_remaining(c));
  *data = c->pos;
  c->pos += n;
  return 0;
}

size_t cp_avro_encode_long(int64_t v, uint8_t *dst) {
  uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
  size_t n = 0;
  while (u >= 0x80) {
    dst[n++] = (uint8_t)(u | 0x80);
    u >>= 7;
  }
  dst[n++] = (uint8_t)u;
  return n;
}

int cp_avro_write_long(cp_buf *b, int64_t v, paimon_error *err) {
  int rc = cp_buf_reserve(b, CP_AVRO_MAX_VARLONG, err);
  if (rc) return rc;
  b->len += cp_avro_encode_long(v, b->data + b->len);
  return 0;
}

int cp_avro_write_int(cp_buf *b, int32_t v, paimon_error *err) {
  return cp_avro_write_long(b, v, err);
}

int cp_avro_write_boolean(cp_buf *b, bool v, paimon_error *err) {
  uint8_t byte = v ? 1 : 0;
  return cp_buf_append(b, &byte, 1, err);
}

static int write_le(cp_buf *b, uint64_t bits, int n, paimon_error *err) {
  uint8_t tmp[8];
  for (int i = 0; i < n; i++) tmp[i] = (uint8_t)(bits >> (8 * i));
  return cp_buf_append(b, tmp, (size_t)n, err);
}

int cp_avro_write_float(cp_buf *b, float v, paimon_error *err) {
  uint32_t bits;
  memcpy(&bits, &v, 4);
  return write_le(b, bits, 4, err);
}

int cp_avro_write_double(cp_buf *b, double v, paimon_error *err) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  return write_le(b, bits, 8, err);
}

int cp_avro_write_bytes(cp_buf *b, const void *data, size_t len, paimon_error *err) {
  int rc = cp_avro_write_long(b, (int64_t)len, err);
  if (rc) return rc;
  return len ? cp_buf_append(b, data, len, err) : 0;
}

int cp_avro_write_string(cp_buf *b, const char *s, paimon_error *err) {
  return cp_avro_write_bytes(b, s, strlen(s), err);
}
