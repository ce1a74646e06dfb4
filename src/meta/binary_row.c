/*
 * BinaryRow writer and reader (spec/format.md §5.2–5.4). Layout: a header+null bitset of W bytes,
 * one 8-byte slot per field, then 8-byte-aligned variable-length chunks in field order. All
 * multi-byte values are little-endian (every real Paimon deployment).
 */
#include "meta/binary_row.h"

#include <string.h>

#include "base/status.h"

const uint8_t cp_binary_row_empty[12] = {0};

/* Width of the header + null bitset: Java BinaryRow.calculateBitSetWidthInBytes. */
static size_t bitset_width(size_t arity) { return ((arity + 63 + 8) / 64) * 8; }

/* DECIMAL with precision <= 18 lives in its slot as a long (Java Decimal.isCompact). */
static bool decimal_is_compact(const cp_type *t) { return t->precision <= 18; }

/* TIMESTAMP with precision <= 3 lives in its slot as epoch millis (Java Timestamp.isCompact). */
static bool timestamp_is_compact(const cp_type *t) { return t->precision <= 3; }

static void put_le64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

typedef struct row_writer {
  cp_buf *out;
  size_t base; /* offset of the row's first byte in out */
} row_writer;

/* Appends a var chunk of `n` bytes (zero-padded to a word) and points slot `slot_pos` at it with
 * the given low 32 bits (a length or nanos). */
static int write_var(row_writer *w, size_t slot_pos, const void *data, size_t n, size_t reserve,
                     uint32_t low, paimon_error *err) {
  size_t offset = w->out->len - w->base;
  size_t padded = (reserve + 7) & ~(size_t)7;
  if (offset > UINT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "binary row larger than 4 GiB");
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(w->out, padded, err));
  if (n) memcpy(w->out->data + w->base + offset, data, n);
  put_le64(w->out->data + slot_pos, ((uint64_t)offset << 32) | low);
  return PAIMON_OK;
}

static int write_field(row_writer *w, size_t i, size_t slot_pos, const cp_type *t,
                       const cp_datum *d, paimon_error *err) {
  uint8_t *slot;
  if (d->is_null) {
    w->out->data[w->base + (i + 8) / 8] |= (uint8_t)(1u << ((i + 8) % 8));
    /* Java keeps the var-part space of non-compact decimals and timestamps even for NULL. */
    if (t->kind == CP_TYPE_DECIMAL && !decimal_is_compact(t))
      return write_var(w, slot_pos, NULL, 0, 16, 0, err);
    if ((t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ) &&
        !timestamp_is_compact(t))
      return write_var(w, slot_pos, NULL, 0, 8, 0, err);
    return PAIMON_OK;
  }
  slot = w->out->data + slot_pos;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: slot[0] = d->v.b ? 1 : 0; return PAIMON_OK;
  case CP_TYPE_TINYINT: slot[0] = (uint8_t)d->v.i64; return PAIMON_OK;
  case CP_TYPE_SMALLINT:
    slot[0] = (uint8_t)d->v.i64;
    slot[1] = (uint8_t)((uint64_t)d->v.i64 >> 8);
    return PAIMON_OK;
  case CP_TYPE_INT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME:
    for (int k = 0; k < 4; k++) slot[k] = (uint8_t)((uint64_t)d->v.i64 >> (8 * k));
    return PAIMON_OK;
  case CP_TYPE_BIGINT: put_le64(slot, (uint64_t)d->v.i64); return PAIMON_OK;
  case CP_TYPE_FLOAT: memcpy(slot, &d->v.f32, 4); return PAIMON_OK;
  case CP_TYPE_DOUBLE: memcpy(slot, &d->v.f64, 8); return PAIMON_OK;
  case CP_TYPE_DECIMAL: {
    if (decimal_is_compact(t)) {
      put_le64(slot, (uint64_t)(int64_t)d->v.dec);
      return PAIMON_OK;
    }
    uint8_t be[17];
    size_t n = cp_decimal_to_be_bytes(d->v.dec, be);
    return write_var(w, slot_pos, be, n, 16, (uint32_t)n, err);
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    if (timestamp_is_compact(t)) {
      put_le64(slot, (uint64_t)d->v.ts.millis);
      return PAIMON_OK;
    }
    uint8_t millis[8];
    put_le64(millis, (uint64_t)d->v.ts.millis);
    return write_var(w, slot_pos, millis, 8, 8, (uint32_t)d->v.ts.nanos_of_milli, err);
  }
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: {
    size_t n = d->v.bytes.len;
    if (n > INT32_MAX)
      return paimon_error_set(err, PAIMON_EINVAL, "binary row field %zu: value of %zu bytes", i, n);
    if (n <= 7) {
      if (n) memcpy(slot, d->v.bytes.data, n);
      slot[7] = (uint8_t)(0x80 | n);
      return PAIMON_OK;
    }
    return write_var(w, slot_pos, d->v.bytes.data, n, n, (uint32_t)n, err);
  }
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "binary row field %zu: type %s cannot be a partition or stats value", i,
                            cp_type_kind_name(t->kind));
  }
}

int cp_binary_row_write(const cp_type *const *types, const cp_datum *values, size_t arity,
                        cp_buf *out, paimon_error *err) {
  if (arity > INT32_MAX) return paimon_error_set(err, PAIMON_EINVAL, "binary row arity %zu", arity);
  size_t fixed = bitset_width(arity) + 8 * arity;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 4 + fixed, err));
  uint8_t prefix[4] = {(uint8_t)(arity >> 24), (uint8_t)(arity >> 16), (uint8_t)(arity >> 8),
                       (uint8_t)arity};
  CP_RETURN_IF_ERROR(cp_buf_append(out, prefix, 4, err));
  row_writer w = {out, out->len};
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(out, fixed, err));
  for (size_t i = 0; i < arity; i++) {
    size_t slot_pos = w.base + bitset_width(arity) + 8 * i;
    int rc = write_field(&w, i, slot_pos, types[i], &values[i], err);
    if (rc) {
      out->len = w.base - 4;
      return rc;
    }
  }
  return PAIMON_OK;
}

int cp_binary_row_arity(const uint8_t *data, size_t len, int32_t *arity, paimon_error *err) {
  if (len < 4)
    return paimon_error_set(err, PAIMON_ECORRUPT, "binary row of %zu bytes has no arity", len);
  uint32_t a =
      ((uint32_t)data[0] << 24) | ((uint32_t)data[1] << 16) | ((uint32_t)data[2] << 8) | data[3];
  if (a > INT32_MAX || bitset_width(a) + 8 * (size_t)a > len - 4)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "binary row claims arity %u but has only %zu bytes", a, len);
  *arity = (int32_t)a;
  return PAIMON_OK;
}

/* Resolves an (offset << 32 | low) slot to a var chunk of `n` bytes inside the row. */
static int var_chunk(const uint8_t *row, size_t row_len, uint64_t slot, size_t n, size_t i,
                     const uint8_t **out, paimon_error *err) {
  uint64_t offset = slot >> 32;
  if (offset > row_len || n > row_len - offset)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "binary row field %zu: var part [%llu, +%zu) outside the %zu-byte row",
                            i, (unsigned long long)offset, n, row_len);
  *out = row + offset;
  return PAIMON_OK;
}

static int read_field(const uint8_t *row, size_t row_len, size_t slot_pos, size_t i,
                      const cp_type *t, cp_datum *d, paimon_error *err) {
  const uint8_t *slot = row + slot_pos;
  uint64_t raw = get_le64(slot);
  d->is_null = false;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: d->v.b = slot[0] != 0; return PAIMON_OK;
  case CP_TYPE_TINYINT: d->v.i64 = (int8_t)slot[0]; return PAIMON_OK;
  case CP_TYPE_SMALLINT: d->v.i64 = (int16_t)(uint16_t)(slot[0] | (slot[1] << 8)); return PAIMON_OK;
  case CP_TYPE_INT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: d->v.i64 = (int32_t)(uint32_t)raw; return PAIMON_OK;
  case CP_TYPE_BIGINT: d->v.i64 = (int64_t)raw; return PAIMON_OK;
  case CP_TYPE_FLOAT: memcpy(&d->v.f32, slot, 4); return PAIMON_OK;
  case CP_TYPE_DOUBLE: memcpy(&d->v.f64, slot, 8); return PAIMON_OK;
  case CP_TYPE_DECIMAL: {
    if (decimal_is_compact(t)) {
      d->v.dec = (int64_t)raw;
      return PAIMON_OK;
    }
    size_t n = (uint32_t)raw;
    const uint8_t *p = NULL;
    if (n > 16)
      return paimon_error_set(err, PAIMON_ECORRUPT, "binary row field %zu: decimal of %zu bytes", i,
                              n);
    CP_RETURN_IF_ERROR(var_chunk(row, row_len, raw, n, i, &p, err));
    d->v.dec = cp_decimal_from_be_bytes(p, n);
    return PAIMON_OK;
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    if (timestamp_is_compact(t)) {
      d->v.ts.millis = (int64_t)raw;
      d->v.ts.nanos_of_milli = 0;
      return PAIMON_OK;
    }
    const uint8_t *p = NULL;
    uint32_t nanos = (uint32_t)raw;
    if (nanos > 999999)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "binary row field %zu: nano-of-millisecond %u out of range", i,
                              nanos);
    CP_RETURN_IF_ERROR(var_chunk(row, row_len, raw, 8, i, &p, err));
    d->v.ts.millis = (int64_t)get_le64(p);
    d->v.ts.nanos_of_milli = (int32_t)nanos;
    return PAIMON_OK;
  }
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB:
    if (slot[7] & 0x80) {
      size_t n = slot[7] & 0x7F;
      if (n > 7)
        return paimon_error_set(err, PAIMON_ECORRUPT,
                                "binary row field %zu: inline length %zu exceeds 7", i, n);
      d->v.bytes.data = slot;
      d->v.bytes.len = n;
      return PAIMON_OK;
    }
    d->v.bytes.len = (uint32_t)raw;
    return var_chunk(row, row_len, raw, d->v.bytes.len, i, &d->v.bytes.data, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "binary row field %zu: cannot decode type %s",
                            i, cp_type_kind_name(t->kind));
  }
}

int cp_binary_row_read(const uint8_t *data, size_t len, const cp_type *const *types, size_t n_types,
                       cp_datum *out, paimon_error *err) {
  int32_t arity;
  CP_RETURN_IF_ERROR(cp_binary_row_arity(data, len, &arity, err));
  if ((size_t)arity != n_types)
    return paimon_error_set(err, PAIMON_ECORRUPT, "binary row has arity %d, expected %zu", arity,
                            n_types);
  const uint8_t *row = data + 4;
  size_t row_len = len - 4, width = bitset_width(n_types);
  for (size_t i = 0; i < n_types; i++) {
    if (row[(i + 8) / 8] & (1u << ((i + 8) % 8))) {
      out[i] = cp_datum_null();
      continue;
    }
    CP_RETURN_IF_ERROR(read_field(row, row_len, width + 8 * i, i, types[i], &out[i], err));
  }
  return PAIMON_OK;
}
