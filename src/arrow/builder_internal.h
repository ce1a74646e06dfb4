/*
 * The cp_builder struct, shared by builder.c (creation, scalar appends, finish) and
 * builder_bulk.c (bulk and view appends). Not part of the arrow layer's interface.
 */
#ifndef CP_ARROW_BUILDER_INTERNAL_H
#define CP_ARROW_BUILDER_INTERNAL_H

#include "arrow/array.h"
#include "arrow/schema.h"

struct cp_builder {
  struct ArrowSchema schema_copy;   /* root builder only: owns the schema tree */
  const struct ArrowSchema *schema; /* this node of the (root's) schema copy */
  cp_arrow_type_info type;
  char *path;     /* column path for messages, e.g. "a.b" */
  int64_t length; /* rows so far */
  int64_t null_count;
  /* Validity bits; stays empty (data NULL) until the first null, then holds `length` bits set to
   * 1 for the rows before it. Saves a bit write per value for columns without nulls. */
  cp_abuf validity;
  cp_abuf values; /* fixed-width values, bool bits, or offsets (length + 1 entries) */
  cp_abuf data;   /* string/binary bytes */
  int64_t n_children;
  struct cp_builder **children;
};

/* Offsets kinds: none, 32-bit (string, binary, list, map), 64-bit (large variants). */
static inline int cp_builder_offset_width(const cp_arrow_type_info *t) {
  if (cp_arrow_type_has_large_offsets(t->id)) return 8;
  if (cp_arrow_type_is_var_binary(t->id) || cp_arrow_type_is_list_like(t->id)) return 4;
  return 0;
}

static inline int64_t cp_builder_last_offset(const struct cp_builder *b) {
  if (cp_builder_offset_width(&b->type) == 8) return ((const int64_t *)b->values.data)[b->length];
  return ((const int32_t *)b->values.data)[b->length];
}

/* Makes sure the validity bitmap exists and can hold `extra` more rows. */
int cp_builder_validity_reserve(struct cp_builder *b, int64_t extra, paimon_error *err);

/* Records `n` validity bits for rows [length, length + n) taken from `bits` at `bits_offset`
 * (NULL = all valid) and adds their nulls to null_count. Does not change `length`. */
int cp_builder_put_validity(struct cp_builder *b, const uint8_t *bits, int64_t bits_offset,
                            int64_t n, paimon_error *err);

/* Pushes one offset entry (after `length` ones), checking the int32 range for 32-bit offsets. */
int cp_builder_push_offset(struct cp_builder *b, int64_t value, paimon_error *err);

/* Formats an error naming the builder's column. */
int cp_builder_fail(const struct cp_builder *b, paimon_error *err, int code, const char *fmt, ...)
    PAIMON_PRINTF(4, 5);

#endif
