/*
 * Avro binary encoding of primitive values (Avro 1.11 specification, "Binary Encoding"), the
 * bottom of the Avro layer that manifests, manifest lists and index manifests are built on
 * (spec/format.md §4.1).
 *
 * Reading goes through a cp_avro_cursor over bytes the caller owns: every read is bounds-checked
 * against `end`, so a length or varint that runs past the data is an error naming the byte offset
 * (relative to `base`), never an out-of-bounds read. Varints longer than the type allows (10 bytes
 * for long, 5 for int) or carrying bits beyond 64/32 are rejected as corrupt instead of being
 * silently truncated, because a reader that wraps would turn garbage into plausible numbers.
 *
 * Writing appends to a cp_buf; the only failure is running out of memory.
 */
#ifndef CP_FORMAT_AVRO_BINARY_H
#define CP_FORMAT_AVRO_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* A read position inside a byte range. `base` is only used to report offsets in messages. */
typedef struct cp_avro_cursor {
  const uint8_t *base;
  const uint8_t *pos;
  const uint8_t *end;
} cp_avro_cursor;

static inline void cp_avro_cursor_init(cp_avro_cursor *c, const void *data, size_t len) {
  c->base = (const uint8_t *)data;
  c->pos = c->base;
  c->end = c->base + len;
}

static inline size_t cp_avro_cursor_offset(const cp_avro_cursor *c) {
  return (size_t)(c->pos - c->base);
}

static inline size_t cp_avro_cursor_remaining(const cp_avro_cursor *c) {
  return (size_t)(c->end - c->pos);
}

/* Largest encoded size of a zigzag varint for a 64-bit long. */
#define CP_AVRO_MAX_VARLONG 10

/* ---- reading; all return 0, or PAIMON_ECORRUPT with "at byte N: ..." ---- */

int cp_avro_read_long(cp_avro_cursor *c, int64_t *out, paimon_error *err);
int cp_avro_read_int(cp_avro_cursor *c, int32_t *out, paimon_error *err);
/* Only 0 and 1 are valid booleans. */
int cp_avro_read_boolean(cp_avro_cursor *c, bool *out, paimon_error *err);
int cp_avro_read_float(cp_avro_cursor *c, float *out, paimon_error *err);
int cp_avro_read_double(cp_avro_cursor *c, double *out, paimon_error *err);
/* A long length then that many bytes. `*data` points into the cursor's bytes (borrowed). A
 * negative length or one past the end is corrupt. Used for both bytes and string. */
int cp_avro_read_bytes(cp_avro_cursor *c, const uint8_t **data, size_t *len, paimon_error *err);
/* Exactly `n` raw bytes (fixed, sync markers), borrowed from the cursor. */
int cp_avro_read_raw(cp_avro_cursor *c, size_t n, const uint8_t **data, paimon_error *err);

/* ---- writing; all return 0 or PAIMON_ENOMEM ---- */

/* Encodes `v` as a zigzag varint into dst (at least CP_AVRO_MAX_VARLONG bytes); returns the
 * number of bytes written. */
size_t cp_avro_encode_long(int64_t v, uint8_t *dst);

int cp_avro_write_long(cp_buf *b, int64_t v, paimon_error *err);
int cp_avro_write_int(cp_buf *b, int32_t v, paimon_error *err);
int cp_avro_write_boolean(cp_buf *b, bool v, paimon_error *err);
int cp_avro_write_float(cp_buf *b, float v, paimon_error *err);
int cp_avro_write_double(cp_buf *b, double v, paimon_error *err);
/* Length-prefixed bytes (Avro bytes and string). */
int cp_avro_write_bytes(cp_buf *b, const void *data, size_t len, paimon_error *err);
/* A NUL-terminated string as an Avro string. */
int cp_avro_write_string(cp_buf *b, const char *s, paimon_error *err);

#endif
