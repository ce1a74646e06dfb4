/*
 * Thrift compact protocol reader and writer (thrift.h; spec/parquet.md §2.6 and apache/thrift
 * doc/specs/thrift-compact-protocol.md).
 *
 * Strictness choices, all so that a corrupt or hostile footer fails early with a clear message:
 * varints longer than their type are rejected rather than truncated; a list/map/binary length is
 * compared with the bytes left before anyone allocates for it; sizes above INT32_MAX (which
 * libthrift reads as negative) are rejected; unknown type codes are errors. Bool list elements
 * follow libthrift (1 = true, anything else false) rather than the spec text (0 = false), because
 * that is what the C++ and Java writers produce.
 */
#include "format/parquet/thrift.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/status.h"

const char *cp_thrift_type_name(int type) {
  switch (type) {
  case CP_THRIFT_STOP: return "stop";
  case CP_THRIFT_BOOL_TRUE:
  case CP_THRIFT_BOOL_FALSE: return "bool";
  case CP_THRIFT_I8: return "i8";
  case CP_THRIFT_I16: return "i16";
  case CP_THRIFT_I32: return "i32";
  case CP_THRIFT_I64: return "i64";
  case CP_THRIFT_DOUBLE: return "double";
  case CP_THRIFT_BINARY: return "binary";
  case CP_THRIFT_LIST: return "list";
  case CP_THRIFT_SET: return "set";
  case CP_THRIFT_MAP: return "map";
  case CP_THRIFT_STRUCT: return "struct";
  case CP_THRIFT_UUID: return "uuid";
  default: return "invalid";
  }
}

/* ------------------------------------------------------------------------------------------------
 * Reader
 */

/* Fails with ECORRUPT: "thrift: <message> at byte <base + at>". */
static int PAIMON_PRINTF(4, 5)
    corrupt_at(const cp_thrift_reader *r, size_t at, paimon_error *err, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return paimon_error_set(err, PAIMON_ECORRUPT, "thrift: %s at byte %llu", msg,
                          (unsigned long long)(r->base + at));
}

static int truncated(cp_thrift_reader *r, size_t at, size_t need, const char *what,
                     paimon_error *err) {
  r->truncated = true;
  return corrupt_at(r, at, err, "input ends inside %s (needs %zu bytes, %zu left)", what, need,
                    r->len - at);
}

void cp_thrift_reader_init(cp_thrift_reader *r, const uint8_t *data, size_t len, uint64_t base) {
  memset(r, 0, sizeof *r);
  r->data = data;
  r->len = len;
  r->base = base;
}

static int read_bytes(cp_thrift_reader *r, size_t n, const uint8_t **out, const char *what,
                      paimon_error *err) {
  if (n > r->len - r->pos) return truncated(r, r->pos, n, what, err);
  *out = r->data + r->pos;
  r->pos += n;
  return PAIMON_OK;
}

static int read_varint(cp_thrift_reader *r, uint64_t *out, const char *what, paimon_error *err) {
  size_t start = r->pos;
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (r->pos >= r->len) {
      r->truncated = true;
      return corrupt_at(r, start, err, "input ends inside the varint of %s", what);
    }
    uint8_t b = r->data[r->pos++];
    if (shift == 63 && (b & 0x7e))
      return corrupt_at(r, start, err, "varint of %s overflows 64 bits", what);
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
    if (shift == 63) return corrupt_at(r, start, err, "varint of %s is longer than 10 bytes", what);
  }
  *out = v;
  return PAIMON_OK;
}

static int64_t zigzag_decode(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

/* A zigzag varint that must fit in `bits` bits (16, 32 or 64). */
static int read_zigzag(cp_thrift_reader *r, unsigned bits, int64_t *out, const char *what,
                       paimon_error *err) {
  size_t start = r->pos;
  uint64_t u = 0;
  CP_RETURN_IF_ERROR(read_varint(r, &u, what, err));
  if (bits < 64 && u >> bits)
    return corrupt_at(r, start, err, "varint %llu of %s does not fit in %u bits",
                      (unsigned long long)u, what, bits);
  *out = zigzag_decode(u);
  return PAIMON_OK;
}

/* An unsigned size (list/map size, binary length) that libthrift reads as a non-negative i32. */
static int read_size(cp_thrift_reader *r, uint32_t *out, const char *what, paimon_error *err) {
  size_t start = r->pos;
  uint64_t u = 0;
  CP_RETURN_IF_ERROR(read_varint(r, &u, what, err));
  if (u > INT32_MAX)
    return corrupt_at(r, start, err, "%s %llu is negative or larger than 2^31-1", what,
                      (unsigned long long)u);
  *out = (uint32_t)u;
  return PAIMON_OK;
}

int cp_thrift_struct_begin(cp_thrift_reader *r, paimon_error *err) {
  if (r->depth >= CP_THRIFT_MAX_DEPTH)
    return corrupt_at(r, r->pos, err, "structs nested deeper than %d", CP_THRIFT_MAX_DEPTH);
  r->depth++;
  r->last_id[r->depth] = 0;
  r->bool_pending = false;
  return PAIMON_OK;
}

int cp_thrift_struct_end(cp_thrift_reader *r, paimon_error *err) {
  if (r->depth <= 0)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: struct end without a struct begin");
  r->depth--;
  r->bool_pending = false;
  return PAIMON_OK;
}

static bool valid_type(int t) { return t >= CP_THRIFT_BOOL_TRUE && t <= CP_THRIFT_UUID; }
static bool is_bool(int t) { return t == CP_THRIFT_BOOL_TRUE || t == CP_THRIFT_BOOL_FALSE; }

int cp_thrift_field_next(cp_thrift_reader *r, cp_thrift_field *f, paimon_error *err) {
  if (r->depth <= 0)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: field read outside a struct");
  size_t start = r->pos;
  r->bool_pending = false;
  if (r->pos >= r->len) return truncated(r, start, 1, "a field header", err);
  uint8_t b = r->data[r->pos++];
  if (b == 0) {
    f->type = CP_THRIFT_STOP;
    f->id = 0;
    return PAIMON_OK;
  }
  int type = b & 0x0f, delta = b >> 4;
  if (!valid_type(type))
    return corrupt_at(r, start, err, "field header 0x%02x has invalid type code %d", b, type);
  int32_t id;
  if (delta) {
    id = (int32_t)r->last_id[r->depth] + delta;
    if (id > INT16_MAX)
      return corrupt_at(r, start, err, "field id %d (delta %d) exceeds 32767", (int)id, delta);
  } else {
    int64_t v = 0;
    CP_RETURN_IF_ERROR(read_zigzag(r, 16, &v, "a field id", err));
    if (v < INT16_MIN || v > INT16_MAX)
      return corrupt_at(r, start, err, "field id %lld out of i16 range", (long long)v);
    id = (int32_t)v;
  }
  r->last_id[r->depth] = (int16_t)id;
  f->type = (uint8_t)type;
  f->id = (int16_t)id;
  if (is_bool(type)) {
    r->bool_pending = true;
    r->bool_value = type == CP_THRIFT_BOOL_TRUE;
  }
  return PAIMON_OK;
}

int cp_thrift_field_expect(const cp_thrift_reader *r, const cp_thrift_field *f, int expected,
                           const char *what, paimon_error *err) {
  bool ok = is_bool(expected) ? is_bool(f->type) : f->type == expected;
  if (ok) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "thrift: %s (field %d) has type %s, expected %s, at byte %llu", what,
                          (int)f->id, cp_thrift_type_name(f->type), cp_thrift_type_name(expected),
                          (unsigned long long)(r->base + r->pos));
}

int cp_thrift_read_bool(cp_thrift_reader *r, bool *out, paimon_error *err) {
  if (r->bool_pending) {
    r->bool_pending = false;
    *out = r->bool_value;
    return PAIMON_OK;
  }
  const uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(read_bytes(r, 1, &p, "a bool", err));
  *out = p[0] == 1;
  return PAIMON_OK;
}

int cp_thrift_read_i8(cp_thrift_reader *r, int8_t *out, paimon_error *err) {
  const uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(read_bytes(r, 1, &p, "an i8", err));
  *out = (int8_t)p[0];
  return PAIMON_OK;
}

int cp_thrift_read_i16(cp_thrift_reader *r, int16_t *out, paimon_error *err) {
  int64_t v = 0;
  CP_RETURN_IF_ERROR(read_zigzag(r, 16, &v, "an i16", err));
  *out = (int16_t)v;
  return PAIMON_OK;
}

int cp_thrift_read_i32(cp_thrift_reader *r, int32_t *out, paimon_error *err) {
  int64_t v = 0;
  CP_RETURN_IF_ERROR(read_zigzag(r, 32, &v, "an i32", err));
  *out = (int32_t)v;
  return PAIMON_OK;
}

int cp_thrift_read_i64(cp_thrift_reader *r, int64_t *out, paimon_error *err) {
  return read_zigzag(r, 64, out, "an i64", err);
}

int cp_thrift_read_double(cp_thrift_reader *r, double *out, paimon_error *err) {
  const uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(read_bytes(r, 8, &p, "a double", err));
  uint64_t bits = 0;
  for (int i = 7; i >= 0; i--) bits = bits << 8 | p[i];
  memcpy(out, &bits, sizeof *out);
  return PAIMON_OK;
}

int cp_thrift_read_binary(cp_thrift_reader *r, const uint8_t **out, uint32_t *len,
                          paimon_error *err) {
  size_t start = r->pos;
  uint32_t n = 0;
  CP_RETURN_IF_ERROR(read_size(r, &n, "binary length", err));
  if (n > r->len - r->pos) {
    r->truncated = true;
    return corrupt_at(r, start, err, "binary length %u exceeds the %zu bytes left", n,
                      r->len - r->pos);
  }
  *out = r->data + r->pos;
  *len = n;
  r->pos += n;
  return PAIMON_OK;
}

int cp_thrift_read_uuid(cp_thrift_reader *r, uint8_t out[16], paimon_error *err) {
  const uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(read_bytes(r, 16, &p, "a uuid", err));
  memcpy(out, p, 16);
  return PAIMON_OK;
}

/* The fewest bytes one element of `type` can take, for checking counts against what is left. */
static size_t min_encoded_size(int type) {
  switch (type) {
  case CP_THRIFT_DOUBLE: return 8;
  case CP_THRIFT_UUID: return 16;
  default: return 1;
  }
}

int cp_thrift_list_begin(cp_thrift_reader *r, uint8_t *elem_type, uint32_t *count,
                         paimon_error *err) {
  size_t start = r->pos;
  r->bool_pending = false;
  if (r->pos >= r->len) return truncated(r, start, 1, "a list header", err);
  uint8_t b = r->data[r->pos++];
  int type = b & 0x0f;
  uint32_t n = b >> 4;
  if (n == 15) CP_RETURN_IF_ERROR(read_size(r, &n, "list size", err));
  if (!valid_type(type))
    return corrupt_at(r, start, err, "list header 0x%02x has invalid element type %d", b, type);
  size_t left = r->len - r->pos;
  if (n > left / min_encoded_size(type)) {
    r->truncated = true;
    return corrupt_at(r, start, err, "list of %u %s elements cannot fit in the %zu bytes left", n,
                      cp_thrift_type_name(type), left);
  }
  *elem_type = (uint8_t)type;
  *count = n;
  return PAIMON_OK;
}

int cp_thrift_map_begin(cp_thrift_reader *r, uint8_t *key_type, uint8_t *value_type,
                        uint32_t *count, paimon_error *err) {
  size_t start = r->pos;
  r->bool_pending = false;
  uint32_t n = 0;
  CP_RETURN_IF_ERROR(read_size(r, &n, "map size", err));
  *count = n;
  *key_type = *value_type = 0;
  if (n == 0) return PAIMON_OK;
  if (r->pos >= r->len) return truncated(r, r->pos, 1, "a map header", err);
  uint8_t b = r->data[r->pos++];
  int kt = b >> 4, vt = b & 0x0f;
  if (!valid_type(kt) || !valid_type(vt))
    return corrupt_at(r, start, err, "map header has invalid key/value types %d/%d", kt, vt);
  size_t left = r->len - r->pos, pair = min_encoded_size(kt) + min_encoded_size(vt);
  if (n > left / pair) {
    r->truncated = true;
    return corrupt_at(r, start, err, "map of %u entries cannot fit in the %zu bytes left", n, left);
  }
  *key_type = (uint8_t)kt;
  *value_type = (uint8_t)vt;
  return PAIMON_OK;
}

static int skip_elements(cp_thrift_reader *r, int t1, int t2, uint32_t count, paimon_error *err) {
  if (r->depth >= CP_THRIFT_MAX_DEPTH)
    return corrupt_at(r, r->pos, err, "containers nested deeper than %d", CP_THRIFT_MAX_DEPTH);
  r->depth++;
  int rc = PAIMON_OK;
  for (uint32_t i = 0; i < count && rc == 0; i++) {
    rc = cp_thrift_skip(r, t1, err);
    if (rc == 0 && t2) rc = cp_thrift_skip(r, t2, err);
  }
  r->depth--;
  return rc;
}

int cp_thrift_skip(cp_thrift_reader *r, int type, paimon_error *err) {
  const uint8_t *p = NULL;
  uint32_t n = 0;
  uint8_t t1 = 0, t2 = 0;
  int64_t v = 0;
  switch (type) {
  case CP_THRIFT_BOOL_TRUE:
  case CP_THRIFT_BOOL_FALSE: {
    bool b;
    return cp_thrift_read_bool(r, &b, err);
  }
  case CP_THRIFT_I8: return read_bytes(r, 1, &p, "an i8", err);
  case CP_THRIFT_I16: return read_zigzag(r, 16, &v, "an i16", err);
  case CP_THRIFT_I32: return read_zigzag(r, 32, &v, "an i32", err);
  case CP_THRIFT_I64: return read_zigzag(r, 64, &v, "an i64", err);
  case CP_THRIFT_DOUBLE: return read_bytes(r, 8, &p, "a double", err);
  case CP_THRIFT_UUID: return read_bytes(r, 16, &p, "a uuid", err);
  case CP_THRIFT_BINARY: return cp_thrift_read_binary(r, &p, &n, err);
  case CP_THRIFT_LIST:
  case CP_THRIFT_SET:
    CP_RETURN_IF_ERROR(cp_thrift_list_begin(r, &t1, &n, err));
    return skip_elements(r, t1, 0, n, err);
  case CP_THRIFT_MAP:
    CP_RETURN_IF_ERROR(cp_thrift_map_begin(r, &t1, &t2, &n, err));
    return skip_elements(r, t1, t2, n, err);
  case CP_THRIFT_STRUCT: {
    CP_RETURN_IF_ERROR(cp_thrift_struct_begin(r, err));
    for (;;) {
      cp_thrift_field f;
      CP_RETURN_IF_ERROR(cp_thrift_field_next(r, &f, err));
      if (f.type == CP_THRIFT_STOP) break;
      CP_RETURN_IF_ERROR(cp_thrift_skip(r, f.type, err));
    }
    return cp_thrift_struct_end(r, err);
  }
  default: return corrupt_at(r, r->pos, err, "cannot skip a value of invalid type code %d", type);
  }
}

/* ------------------------------------------------------------------------------------------------
 * Writer
 */

void cp_thrift_writer_init(cp_thrift_writer *w, cp_buf *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
}

static int put_byte(cp_thrift_writer *w, uint8_t b, paimon_error *err) {
  return cp_buf_append(w->out, &b, 1, err);
}

static int put_varint(cp_thrift_writer *w, uint64_t v, paimon_error *err) {
  uint8_t tmp[10];
  size_t n = 0;
  while (v >= 0x80) {
    tmp[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  tmp[n++] = (uint8_t)v;
  return cp_buf_append(w->out, tmp, n, err);
}

static uint64_t zigzag_encode(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

int cp_thrift_write_struct_begin(cp_thrift_writer *w, paimon_error *err) {
  if (w->depth >= CP_THRIFT_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: writing structs nested deeper than %d",
                            CP_THRIFT_MAX_DEPTH);
  w->depth++;
  w->last_id[w->depth] = 0;
  return PAIMON_OK;
}

int cp_thrift_write_struct_end(cp_thrift_writer *w, paimon_error *err) {
  if (w->depth <= 0)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: struct end without a struct begin");
  w->depth--;
  return put_byte(w, CP_THRIFT_STOP, err);
}

int cp_thrift_write_field(cp_thrift_writer *w, int type, int16_t id, paimon_error *err) {
  if (w->depth <= 0)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: field %d written outside a struct", id);
  if (!valid_type(type))
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: field %d has invalid type %d", id, type);
  int16_t last = w->last_id[w->depth];
  if (id <= last)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: field %d written after field %d", id,
                            last);
  w->last_id[w->depth] = id;
  int delta = id - last;
  if (delta <= 15) return put_byte(w, (uint8_t)(delta << 4 | type), err);
  CP_RETURN_IF_ERROR(put_byte(w, (uint8_t)type, err));
  return put_varint(w, zigzag_encode(id), err);
}

int cp_thrift_write_field_bool(cp_thrift_writer *w, int16_t id, bool v, paimon_error *err) {
  return cp_thrift_write_field(w, v ? CP_THRIFT_BOOL_TRUE : CP_THRIFT_BOOL_FALSE, id, err);
}

int cp_thrift_write_bool(cp_thrift_writer *w, bool v, paimon_error *err) {
  return put_byte(w, v ? 1 : 2, err);
}

int cp_thrift_write_i8(cp_thrift_writer *w, int8_t v, paimon_error *err) {
  return put_byte(w, (uint8_t)v, err);
}

int cp_thrift_write_i16(cp_thrift_writer *w, int16_t v, paimon_error *err) {
  return put_varint(w, zigzag_encode(v), err);
}

int cp_thrift_write_i32(cp_thrift_writer *w, int32_t v, paimon_error *err) {
  return put_varint(w, zigzag_encode(v), err);
}

int cp_thrift_write_i64(cp_thrift_writer *w, int64_t v, paimon_error *err) {
  return put_varint(w, zigzag_encode(v), err);
}

int cp_thrift_write_double(cp_thrift_writer *w, double v, paimon_error *err) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  uint8_t le[8];
  for (int i = 0; i < 8; i++) le[i] = (uint8_t)(bits >> (8 * i));
  return cp_buf_append(w->out, le, sizeof le, err);
}

int cp_thrift_write_binary(cp_thrift_writer *w, const void *data, size_t len, paimon_error *err) {
  if (len > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: binary of %zu bytes exceeds 2^31-1", len);
  CP_RETURN_IF_ERROR(put_varint(w, len, err));
  return cp_buf_append(w->out, data, len, err);
}

int cp_thrift_write_uuid(cp_thrift_writer *w, const uint8_t v[16], paimon_error *err) {
  return cp_buf_append(w->out, v, 16, err);
}

int cp_thrift_write_list_begin(cp_thrift_writer *w, int elem_type, uint32_t count,
                               paimon_error *err) {
  if (!valid_type(elem_type) || count > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: bad list header (type %d, %u elements)",
                            elem_type, count);
  if (is_bool(elem_type)) elem_type = CP_THRIFT_BOOL_TRUE;
  if (count < 15) return put_byte(w, (uint8_t)(count << 4 | (uint32_t)elem_type), err);
  CP_RETURN_IF_ERROR(put_byte(w, (uint8_t)(0xf0 | elem_type), err));
  return put_varint(w, count, err);
}

int cp_thrift_write_map_begin(cp_thrift_writer *w, int key_type, int value_type, uint32_t count,
                              paimon_error *err) {
  if (!valid_type(key_type) || !valid_type(value_type) || count > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "thrift: bad map header (types %d/%d, %u entries)",
                            key_type, value_type, count);
  if (count == 0) return put_byte(w, 0, err);
  CP_RETURN_IF_ERROR(put_varint(w, count, err));
  return put_byte(w, (uint8_t)(key_type << 4 | value_type), err);
}

int cp_thrift_write_field_i8(cp_thrift_writer *w, int16_t id, int8_t v, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_I8, id, err));
  return cp_thrift_write_i8(w, v, err);
}

int cp_thrift_write_field_i16(cp_thrift_writer *w, int16_t id, int16_t v, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_I16, id, err));
  return cp_thrift_write_i16(w, v, err);
}

int cp_thrift_write_field_i32(cp_thrift_writer *w, int16_t id, int32_t v, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_I32, id, err));
  return cp_thrift_write_i32(w, v, err);
}

int cp_thrift_write_field_i64(cp_thrift_writer *w, int16_t id, int64_t v, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_I64, id, err));
  return cp_thrift_write_i64(w, v, err);
}

int cp_thrift_write_field_binary(cp_thrift_writer *w, int16_t id, const void *data, size_t len,
                                 paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_BINARY, id, err));
  return cp_thrift_write_binary(w, data, len, err);
}

int cp_thrift_write_field_string(cp_thrift_writer *w, int16_t id, const char *s,
                                 paimon_error *err) {
  return cp_thrift_write_field_binary(w, id, s, strlen(s), err);
}

int cp_thrift_write_field_empty_struct(cp_thrift_writer *w, int16_t id, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, id, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
  return cp_thrift_write_struct_end(w, err);
}
