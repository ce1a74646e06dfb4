/*
 * Generic Avro datums: a decoded value tree, binary decode against a writer schema, encode
 * against a schema, skip, comparison, JSON defaults → values, and values → JSON text (Avro 1.11
 * specification, "Binary Encoding", "Complex Types" and "JSON Encoding"; spec/format.md §4.1).
 *
 * A cp_avro_value is a tagged union; its `type` is the cp_avro_type of the schema node it
 * conforms to (CP_AVRO_UNION for a union, holding the chosen branch and the branch's value).
 * Decoded values live in the caller's cp_arena: strings, bytes, arrays, maps, records and union
 * payloads are all allocated there and die with it. Decoded strings and bytes are followed by a NUL
 * (not counted in `len`), so a string's `data` can be used as a C string when it has no embedded
 * NUL. Values built by hand for encoding may point anywhere; encoding only reads them.
 *
 * Untrusted input: every length and element count is checked against the bytes that remain before
 * anything is allocated (an element of a type whose smallest encoding is k bytes cannot be present
 * more than remaining/k times). Types whose values take no bytes at all (null, fixed(0), records of
 * those) draw on a per-decoder budget instead (limits.max_zero_width_items), and nesting is capped
 * at limits.max_depth, so no input makes the decoder allocate without bound or overflow the stack.
 */
#ifndef CP_FORMAT_AVRO_VALUE_H
#define CP_FORMAT_AVRO_VALUE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "format/avro/binary.h"
#include "format/avro/schema.h"

typedef struct cp_avro_value cp_avro_value;
typedef struct cp_avro_map_entry cp_avro_map_entry;

struct cp_avro_value {
  cp_avro_type type;
  union {
    bool boolean;
    int32_t i32; /* int */
    int64_t i64; /* long */
    float f32;
    double f64;
    struct {
      const uint8_t *data;
      size_t len;
    } bytes; /* bytes, string, fixed */
    struct {
      cp_avro_value *fields; /* one per schema field, in schema order */
      size_t count;
    } record;
    struct {
      cp_avro_value *items;
      size_t count;
    } array;
    struct {
      cp_avro_map_entry *entries; /* in encoded order; duplicate keys are kept */
      size_t count;
    } map;
    struct {
      size_t index;         /* branch of the union schema */
      cp_avro_value *value; /* the branch's value (type CP_AVRO_NULL for a null branch) */
    } branch;
    size_t enum_index;
  } u;
};

struct cp_avro_map_entry {
  const char *key;
  size_t key_len;
  cp_avro_value value;
};

/* ---- small constructors for building values to encode ---- */
static inline cp_avro_value cp_avro_null(void) {
  cp_avro_value v;
  memset(&v, 0, sizeof v);
  v.type = CP_AVRO_NULL;
  return v;
}
static inline cp_avro_value cp_avro_long(int64_t x) {
  cp_avro_value v = cp_avro_null();
  v.type = CP_AVRO_LONG;
  v.u.i64 = x;
  return v;
}
static inline cp_avro_value cp_avro_int(int32_t x) {
  cp_avro_value v = cp_avro_null();
  v.type = CP_AVRO_INT;
  v.u.i32 = x;
  return v;
}
/* `data` is borrowed; for CP_AVRO_STRING it need not be NUL-terminated. */
static inline cp_avro_value cp_avro_bytes_of(cp_avro_type t, const void *data, size_t len) {
  cp_avro_value v = cp_avro_null();
  v.type = t;
  v.u.bytes.data = (const uint8_t *)data;
  v.u.bytes.len = len;
  return v;
}
static inline cp_avro_value cp_avro_string(const char *s) {
  return cp_avro_bytes_of(CP_AVRO_STRING, s, strlen(s));
}
/* A union value; `inner` is borrowed. */
static inline cp_avro_value cp_avro_branch(size_t index, cp_avro_value *inner) {
  cp_avro_value v = cp_avro_null();
  v.type = CP_AVRO_UNION;
  v.u.branch.index = index;
  v.u.branch.value = inner;
  return v;
}

/* For a union value whose branch holds null: true. For anything else false. */
static inline bool cp_avro_value_is_null(const cp_avro_value *v) {
  if (v->type == CP_AVRO_UNION) v = v->u.branch.value;
  return v->type == CP_AVRO_NULL;
}

/* A union's payload (the value itself for non-unions); NULL when the payload is null. */
static inline const cp_avro_value *cp_avro_value_unwrap(const cp_avro_value *v) {
  if (v->type == CP_AVRO_UNION) v = v->u.branch.value;
  return v->type == CP_AVRO_NULL ? NULL : v;
}

/* ---- decoding ---- */

#define CP_AVRO_DEFAULT_MAX_DEPTH 64
#define CP_AVRO_DEFAULT_MAX_ZERO_WIDTH_ITEMS (1u << 20)
#define CP_AVRO_PATH_DEPTH 16

typedef struct cp_avro_limits {
  int max_depth;                 /* nesting of records/arrays/maps/unions; 0 = default */
  uint64_t max_zero_width_items; /* budget for elements that occupy no bytes; 0 = default */
} cp_avro_limits;

/* Decoding state shared by the plain decoder and the resolving reader (resolve.h). Initialise
 * with cp_avro_decoder_init(); the struct is the caller's (usually on the stack) and may be reused
 * for many datums over the same cursor. */
typedef struct cp_avro_decoder {
  cp_avro_cursor *cur;
  cp_arena *arena;
  int depth, max_depth;
  uint64_t zero_width_left;
  /* Field names from the outermost record down to where decoding is. A failing level returns
   * without popping its name, so after an error the stack still names the field that failed
   * ("_FILE._VALUE_STATS._MIN_VALUES") and nothing is formatted on the happy path. */
  const char *path[CP_AVRO_PATH_DEPTH];
  int path_len;
} cp_avro_decoder;

void cp_avro_decoder_init(cp_avro_decoder *d, cp_avro_cursor *cur, cp_arena *arena,
                          const cp_avro_limits *limits);

/* Decodes one datum of `schema` at the cursor into *out (allocating in the decoder's arena) and
 * advances the cursor. Errors are PAIMON_ECORRUPT (or ENOMEM) with a message naming the field and
 * the byte offset: "field _FILE._FILE_NAME: at byte 57: length 99 exceeds the 12 bytes remaining".
 */
int cp_avro_decode(cp_avro_decoder *d, const cp_avro_node *schema, cp_avro_value *out,
                   paimon_error *err);

/* Convenience: decode one datum from `cur` into `arena` with default limits. */
int cp_avro_value_decode(const cp_avro_node *schema, cp_avro_cursor *cur, cp_arena *arena,
                         cp_avro_value *out, paimon_error *err);

/* Advances the cursor past one datum of `schema` without building anything (arrays and maps
 * written with block sizes are skipped in one step). */
int cp_avro_skip(cp_avro_decoder *d, const cp_avro_node *schema, paimon_error *err);

/* ---- building blocks for the resolving reader (resolve.c); not needed by other callers ---- */

/* cp_avro_decode without resetting the field path or prefixing the error. */
int cp_avro_decode_node(cp_avro_decoder *d, const cp_avro_node *schema, cp_avro_value *out,
                        paimon_error *err);

/* Decodes the blocks of an array (is_map false) or map into *out, calling `item` with `ctx` for
 * each element; `item_min_size` is the smallest encoding of one element in the writer's schema,
 * which bounds the element count a block may claim. */
typedef int (*cp_avro_item_fn)(cp_avro_decoder *d, const void *ctx, cp_avro_value *out,
                               paimon_error *err);
int cp_avro_decode_blocks(cp_avro_decoder *d, bool is_map, size_t item_min_size,
                          cp_avro_item_fn item, const void *ctx, cp_avro_value *out,
                          paimon_error *err);

/* Reads the header of the next block of an array (is_map false) or map: *count elements follow
 * (0: the sequence ended), checked against the bytes left as cp_avro_decode_blocks checks it. For
 * decoders that walk arrays themselves. */
int cp_avro_read_block_count(cp_avro_decoder *d, size_t item_min_size, bool is_map, int64_t *count,
                             paimon_error *err);

/* Enters one level of nesting (record, array, map, union): ECORRUPT past limits.max_depth. Pair
 * every successful call with cp_avro_decoder_leave(). */
int cp_avro_decoder_enter(cp_avro_decoder *d, paimon_error *err);
static inline void cp_avro_decoder_leave(cp_avro_decoder *d) { d->depth--; }

/* Prefixes the message in `err` with "field <path>: " from the decoder's path stack (if any) and
 * returns `rc`. */
int cp_avro_decoder_fail(cp_avro_decoder *d, int rc, paimon_error *err);

/* ---- encoding ---- */

/* Appends the binary encoding of `v` as a datum of `schema`. The value must conform: its types
 * must match the schema's (no implicit promotion), union branches and enum indexes must be in
 * range, fixed lengths must equal the size. Mismatches are PAIMON_EINVAL naming the field. */
int cp_avro_encode(const cp_avro_node *schema, const cp_avro_value *v, cp_buf *out,
                   paimon_error *err);

/* ---- other operations ---- */

/* Deep equality of two values (floats compared bitwise, so NaN equals NaN). */
bool cp_avro_value_equal(const cp_avro_value *a, const cp_avro_value *b);

/* Converts a JSON default value (Avro's rules for field defaults: bytes and fixed as strings of
 * code points 0-255, unions taking the first branch that accepts the value) into a value
 * allocated in `arena`. PAIMON_EINVAL when the JSON does not fit the schema. */
int cp_avro_value_from_json(const cp_avro_node *schema, const json_t *json, cp_arena *arena,
                            cp_avro_value *out, paimon_error *err);

/* Appends `v` (a datum of `schema`) as JSON text. Follows Avro's JSON encoding for bytes and
 * fixed (a string whose code points 0-255 are the bytes; non-ASCII written as \u00XX) and enums
 * (the symbol), but writes a union as its plain payload rather than {"type": payload} and float/
 * double non-finite values as NaN/Infinity/-Infinity (what Python's json accepts), because the
 * output is for people and tests, not for round-tripping through an Avro JSON decoder. Numbers
 * are the shortest decimal that reads back to the same float/double. */
int cp_avro_value_to_json(const cp_avro_node *schema, const cp_avro_value *v, cp_buf *out,
                          paimon_error *err);

#endif
