/*
 * The Thrift compact protocol, as far as Parquet uses it (spec/parquet.md §2.6; apache/thrift
 * doc/specs/thrift-compact-protocol.md): a pull reader over a byte range and a writer into a
 * cp_buf.
 *
 * The reader is written for hostile input. Every read is bounds-checked; a list, set or map count
 * is checked against the bytes that remain (each element takes at least one byte, or 8/16 for
 * double/uuid) before a caller allocates for it; a binary length is checked the same way; struct,
 * list and map nesting is limited to CP_THRIFT_MAX_DEPTH. Errors are PAIMON_ECORRUPT and say what
 * was being read and the byte offset, counted from `base` (the file offset of the first byte), so
 * a message points into the file.
 *
 * Reader usage: cp_thrift_struct_begin, then cp_thrift_field_next until it returns a field of type
 * CP_THRIFT_STOP, reading or skipping each field's value, then cp_thrift_struct_end. A bool field
 * carries its value in the header: read it with cp_thrift_read_bool right after the header.
 * Binary values are returned as pointers into the input; they live as long as the input does.
 *
 * Writer usage mirrors the reader; fields must be written in ascending id order within a struct
 * (the writer checks), which is what Parquet readers expect and keeps the short header form.
 * Writer errors are ENOMEM, or EINVAL for misuse (ids out of order, nesting too deep).
 */
#ifndef CP_FORMAT_PARQUET_THRIFT_H
#define CP_FORMAT_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* Type codes of the compact protocol (field headers and list/map element types). */
typedef enum cp_thrift_type {
  CP_THRIFT_STOP = 0,
  CP_THRIFT_BOOL_TRUE = 1,
  CP_THRIFT_BOOL_FALSE = 2,
  CP_THRIFT_I8 = 3,
  CP_THRIFT_I16 = 4,
  CP_THRIFT_I32 = 5,
  CP_THRIFT_I64 = 6,
  CP_THRIFT_DOUBLE = 7,
  CP_THRIFT_BINARY = 8,
  CP_THRIFT_LIST = 9,
  CP_THRIFT_SET = 10,
  CP_THRIFT_MAP = 11,
  CP_THRIFT_STRUCT = 12,
  CP_THRIFT_UUID = 13
} cp_thrift_type;

/* The bool type as a caller names it; either BOOL_TRUE or BOOL_FALSE matches it. */
#define CP_THRIFT_BOOL CP_THRIFT_BOOL_TRUE

/* Deepest nesting of structs, lists, sets and maps accepted or written. Parquet metadata needs 5.
 */
#define CP_THRIFT_MAX_DEPTH 64

/* A short static name for a type code ("i32", "struct", ...; "invalid" for unknown codes). */
const char *cp_thrift_type_name(int type);

/* ------------------------------------------------------------------------------------------------
 * Reader
 */
typedef struct cp_thrift_reader {
  const uint8_t *data;
  size_t len;
  size_t pos;
  uint64_t base; /* file offset of data[0]; added to positions in messages */
  int depth;     /* open structs + lists/maps being skipped */
  int16_t last_id[CP_THRIFT_MAX_DEPTH + 1];
  bool bool_pending; /* the last field header was a bool field whose value is not read yet */
  bool bool_value;
  bool truncated; /* set when a read failed because the input ended */
} cp_thrift_reader;

/* One field header: `type` is a cp_thrift_type; CP_THRIFT_STOP ends the struct. */
typedef struct cp_thrift_field {
  uint8_t type;
  int16_t id;
} cp_thrift_field;

void cp_thrift_reader_init(cp_thrift_reader *r, const uint8_t *data, size_t len, uint64_t base);

/* The file offset of the next byte to read (base + pos). */
static inline uint64_t cp_thrift_offset(const cp_thrift_reader *r) { return r->base + r->pos; }

int cp_thrift_struct_begin(cp_thrift_reader *r, paimon_error *err);
int cp_thrift_struct_end(cp_thrift_reader *r, paimon_error *err);

/* Reads the next field header of the current struct into `f`. */
int cp_thrift_field_next(cp_thrift_reader *r, cp_thrift_field *f, paimon_error *err);

/* Checks that field `f` has type `expected` (CP_THRIFT_BOOL matches both bool codes); the error
 * names the field as "<what> (field <id>)". Does not consume anything. */
int cp_thrift_field_expect(const cp_thrift_reader *r, const cp_thrift_field *f, int expected,
                           const char *what, paimon_error *err);

/* Scalar values. A bool after a bool field header takes its value from the header; otherwise (a
 * list element) it is one byte, 1 meaning true and anything else false. */
int cp_thrift_read_bool(cp_thrift_reader *r, bool *out, paimon_error *err);
int cp_thrift_read_i8(cp_thrift_reader *r, int8_t *out, paimon_error *err);
int cp_thrift_read_i16(cp_thrift_reader *r, int16_t *out, paimon_error *err);
int cp_thrift_read_i32(cp_thrift_reader *r, int32_t *out, paimon_error *err);
int cp_thrift_read_i64(cp_thrift_reader *r, int64_t *out, paimon_error *err);
int cp_thrift_read_double(cp_thrift_reader *r, double *out, paimon_error *err);
/* `*out` points into the input (not NUL-terminated); `*len` ≤ the bytes that were left. */
int cp_thrift_read_binary(cp_thrift_reader *r, const uint8_t **out, uint32_t *len,
                          paimon_error *err);
int cp_thrift_read_uuid(cp_thrift_reader *r, uint8_t out[16], paimon_error *err);

/* A list or set header. `*count` is checked against the remaining bytes, so a caller may allocate
 * `*count` elements. The element type is validated (bool accepted as 1 or 2). */
int cp_thrift_list_begin(cp_thrift_reader *r, uint8_t *elem_type, uint32_t *count,
                         paimon_error *err);
/* A map header; `*key_type`/`*value_type` are meaningless when `*count` is 0. */
int cp_thrift_map_begin(cp_thrift_reader *r, uint8_t *key_type, uint8_t *value_type,
                        uint32_t *count, paimon_error *err);

/* Skips one value of `type` (any type, nested to any depth up to CP_THRIFT_MAX_DEPTH). */
int cp_thrift_skip(cp_thrift_reader *r, int type, paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * Writer
 */
typedef struct cp_thrift_writer {
  cp_buf *out; /* appended to; not owned */
  int depth;
  int16_t last_id[CP_THRIFT_MAX_DEPTH + 1];
} cp_thrift_writer;

void cp_thrift_writer_init(cp_thrift_writer *w, cp_buf *out);

int cp_thrift_write_struct_begin(cp_thrift_writer *w, paimon_error *err);
/* Writes the STOP byte and closes the struct. */
int cp_thrift_write_struct_end(cp_thrift_writer *w, paimon_error *err);

/* A field header; ids must ascend within a struct. For bool fields use cp_thrift_write_field_bool,
 * which writes the value into the header. */
int cp_thrift_write_field(cp_thrift_writer *w, int type, int16_t id, paimon_error *err);
int cp_thrift_write_field_bool(cp_thrift_writer *w, int16_t id, bool v, paimon_error *err);

/* Values (after a field header or as list/map elements). A bool element is one byte, 1 or 2. */
int cp_thrift_write_bool(cp_thrift_writer *w, bool v, paimon_error *err);
int cp_thrift_write_i8(cp_thrift_writer *w, int8_t v, paimon_error *err);
int cp_thrift_write_i16(cp_thrift_writer *w, int16_t v, paimon_error *err);
int cp_thrift_write_i32(cp_thrift_writer *w, int32_t v, paimon_error *err);
int cp_thrift_write_i64(cp_thrift_writer *w, int64_t v, paimon_error *err);
int cp_thrift_write_double(cp_thrift_writer *w, double v, paimon_error *err);
int cp_thrift_write_binary(cp_thrift_writer *w, const void *data, size_t len, paimon_error *err);
int cp_thrift_write_uuid(cp_thrift_writer *w, const uint8_t v[16], paimon_error *err);

/* List/set and map headers; the caller then writes exactly `count` elements (or pairs). */
int cp_thrift_write_list_begin(cp_thrift_writer *w, int elem_type, uint32_t count,
                               paimon_error *err);
int cp_thrift_write_map_begin(cp_thrift_writer *w, int key_type, int value_type, uint32_t count,
                              paimon_error *err);

/* Header + value in one call, for the common field kinds. */
int cp_thrift_write_field_i8(cp_thrift_writer *w, int16_t id, int8_t v, paimon_error *err);
int cp_thrift_write_field_i16(cp_thrift_writer *w, int16_t id, int16_t v, paimon_error *err);
int cp_thrift_write_field_i32(cp_thrift_writer *w, int16_t id, int32_t v, paimon_error *err);
int cp_thrift_write_field_i64(cp_thrift_writer *w, int16_t id, int64_t v, paimon_error *err);
int cp_thrift_write_field_binary(cp_thrift_writer *w, int16_t id, const void *data, size_t len,
                                 paimon_error *err);
/* A NUL-terminated string as a binary field. */
int cp_thrift_write_field_string(cp_thrift_writer *w, int16_t id, const char *s, paimon_error *err);
/* A field whose value is an empty struct (`{}`, e.g. StringType or TYPE_ORDER). */
int cp_thrift_write_field_empty_struct(cp_thrift_writer *w, int16_t id, paimon_error *err);

#endif
