/*
 * Building and owning ArrowSchema trees, and the binary key/value metadata attached to them.
 *
 * Implements the ArrowSchema part of the Arrow C Data Interface
 * (https://arrow.apache.org/docs/format/CDataInterface.html#the-arrowschema-structure), including
 * the metadata encoding of its "metadata" field: int32 number of pairs, then for each pair int32
 * key length, key bytes, int32 value length, value bytes, all int32 in native byte order, strings
 * not NUL-terminated. Paimon needs it for field ids ("PARQUET:field_id", as pyarrow writes them).
 *
 * Ownership: a schema initialised here is "owned": its release callback frees the format, name,
 * metadata, the children array and every child (recursively, calling each child's own release).
 * Anything the caller passes in (format, name, metadata, key, value strings) is copied. Schemas
 * received from elsewhere may be read with every function that takes a `const struct
 * ArrowSchema *`; only the setters require a schema initialised by cp_schema_init.
 */
#ifndef CP_ARROW_SCHEMA_H
#define CP_ARROW_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow/type.h"
#include "base/buf.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

/* ---- owned schemas -------------------------------------------------------------------------- */

/* Initialises `out` (any previous content is overwritten, not released) as an owned node with
 * copies of `format` and `name` (NULL name → no name), `flags` (ARROW_FLAG_*), no metadata, and
 * `n_children` allocated child structs whose `release` is NULL: the caller must initialise every
 * child (e.g. with cp_schema_init on out->children[i]) before handing `out` to anyone. Releasing
 * `out` releases the children that were initialised. On failure `out->release` is NULL and
 * nothing is leaked. */
int cp_schema_init(struct ArrowSchema *out, const char *format, const char *name, int64_t flags,
                   int64_t n_children, paimon_error *err);

/* As cp_schema_init, from a parsed type (format string made by cp_arrow_format_string). */
int cp_schema_init_type(struct ArrowSchema *out, const cp_arrow_type_info *type, const char *name,
                        int64_t flags, int64_t n_children, paimon_error *err);

/* Replace the format / name of an owned schema (copied). */
int cp_schema_set_format(struct ArrowSchema *s, const char *format, paimon_error *err);
int cp_schema_set_name(struct ArrowSchema *s, const char *name, paimon_error *err);

/* Replaces the metadata of an owned schema with a copy of `metadata` (binary encoding above; NULL
 * removes it). The input is validated first. */
int cp_schema_set_metadata(struct ArrowSchema *s, const char *metadata, paimon_error *err);

/* Sets `key` to `value` in an owned schema's metadata, replacing an existing pair with that key and
 * keeping the order of the others. */
int cp_schema_metadata_put(struct ArrowSchema *s, const char *key, const char *value,
                           paimon_error *err);

/* Moves `child` (which must be initialised) into slot `i` of an owned schema; the slot's previous
 * content, if initialised, is released. `child->release` is NULL afterwards. */
int cp_schema_set_child(struct ArrowSchema *s, int64_t i, struct ArrowSchema *child,
                        paimon_error *err);

/* Builds an owned struct ("+s") schema named `name` from `n` initialised child schemas, which are
 * moved into it (their `release` is NULL afterwards, also on failure: then they are released). */
int cp_schema_make_struct(struct ArrowSchema *out, const char *name, int64_t flags,
                          struct ArrowSchema *children, int64_t n, paimon_error *err);

/* Builds an owned list ("+l", or "+L" when `large`) named `name` around `item` (moved in). */
int cp_schema_make_list(struct ArrowSchema *out, const char *name, int64_t flags, bool large,
                        struct ArrowSchema *item, paimon_error *err);

/* Builds an owned map ("+m") named `name`: child "entries" (a non-nullable "+s") with children
 * `key` (its nullable flag is cleared, as the spec requires) and `value`, both moved in. */
int cp_schema_make_map(struct ArrowSchema *out, const char *name, int64_t flags,
                       struct ArrowSchema *key, struct ArrowSchema *value, paimon_error *err);

/* Deep copy of any schema (owned or foreign) into an owned `out`. Dictionary-encoded schemas are
 * rejected with PAIMON_EUNSUPPORTED. */
int cp_schema_copy(struct ArrowSchema *out, const struct ArrowSchema *src, paimon_error *err);

/* Moves `src` into `dst` (dst takes ownership; src->release becomes NULL). */
static inline void cp_schema_move(struct ArrowSchema *src, struct ArrowSchema *dst) {
  *dst = *src;
  src->release = NULL;
}

/* Releases `s` if it is initialised (release != NULL) and marks it released. */
static inline void cp_schema_release(struct ArrowSchema *s) {
  if (s && s->release) s->release(s);
}

/* ---- comparison and checks ------------------------------------------------------------------- */

enum {
  CP_SCHEMA_CMP_TYPES = 0,    /* always compared: formats and child counts, recursively */
  CP_SCHEMA_CMP_NAMES = 1,    /* also compare names (children's and the root's) */
  CP_SCHEMA_CMP_FLAGS = 2,    /* also compare flags (nullability, keys sorted) */
  CP_SCHEMA_CMP_METADATA = 4, /* also compare metadata bytes (pair order matters) */
  CP_SCHEMA_CMP_ALL = 7
};

/* True when `a` and `b` describe the same type tree, comparing what `what` asks for
 * (CP_SCHEMA_CMP_* bits). Format strings are compared as parsed types, so "d:10,2" equals
 * "d:10,2,128". */
bool cp_schema_equal(const struct ArrowSchema *a, const struct ArrowSchema *b, int what);

/* Checks that a (possibly foreign) schema tree is well-formed and uses only supported types:
 * every format parses, child counts match the type (list: 1, map: 1 struct of 2, ...), no
 * dictionaries, metadata well-formed, at most 64 levels of nesting. The message names the path of
 * the bad node
 * ("column 'a.b': ..."). */
int cp_schema_validate(const struct ArrowSchema *s, paimon_error *err);

/* Appends a readable rendering like "struct<a: int32, b: list<item: utf8>>" to `out`. */
int cp_schema_to_string(const struct ArrowSchema *s, cp_buf *out, paimon_error *err);

/* ---- metadata (binary key/value encoding) ---------------------------------------------------- */

/* Sequential reader over encoded metadata. Keys and values point into the metadata bytes and are
 * NOT NUL-terminated. */
typedef struct cp_metadata_reader {
  const char *pos;   /* next pair */
  int32_t remaining; /* pairs not read yet */
} cp_metadata_reader;

/* Starts reading `metadata` (NULL = no pairs). Fails with PAIMON_EINVAL if the pair count is
 * negative. */
int cp_metadata_reader_init(cp_metadata_reader *r, const char *metadata, paimon_error *err);

/* Reads the next pair; returns 1 when a pair was read, 0 at the end, or a negative code when a
 * length is negative. */
int cp_metadata_reader_next(cp_metadata_reader *r, const char **key, int32_t *key_len,
                            const char **value, int32_t *value_len, paimon_error *err);

/* Finds `key`. On success *value and *value_len point into `metadata` (not NUL-terminated), or
 * *value is NULL when the key is absent (that is not an error). */
int cp_metadata_get(const char *metadata, const char *key, const char **value, int32_t *value_len,
                    paimon_error *err);

/* Total encoded size in bytes of `metadata` (0 for NULL), or a negative code when malformed. */
int64_t cp_metadata_size(const char *metadata, paimon_error *err);

/* Builds encoded metadata. Start with CP_METADATA_BUILDER_INIT, add pairs, then use `buf.data`
 * (NULL when no pair was added) — e.g. pass it to cp_schema_set_metadata — and free with
 * cp_metadata_builder_free. */
typedef struct cp_metadata_builder {
  cp_buf buf; /* the encoding so far; the pair count is patched in at offset 0 on each add */
  int32_t n;
} cp_metadata_builder;

#define CP_METADATA_BUILDER_INIT                                                                   \
  { CP_BUF_INIT, 0 }

int cp_metadata_builder_add(cp_metadata_builder *b, const char *key, int32_t key_len,
                            const char *value, int32_t value_len, paimon_error *err);
static inline void cp_metadata_builder_free(cp_metadata_builder *b) {
  cp_buf_free(&b->buf);
  b->n = 0;
}

#endif
