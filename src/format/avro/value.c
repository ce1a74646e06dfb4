/*
 * Avro datums: binary decode against the writer's schema, skip, encode, equality (Avro 1.11
 * specification, "Binary Encoding" and "Complex Types"; spec/format.md §4.1).
 *
 * Arrays and maps arrive as a sequence of blocks, each with its own element count (negative when
 * followed by the block's byte size). The count comes from the file, so it is only believed after
 * checking that that many elements could fit in the bytes left; see value.h.
 */
#include "format/avro/value.h"

#include <stdio.h>
#include <string.h>

#include "base/status.h"

void cp_avro_decoder_init(cp_avro_decoder *d, cp_avro_cursor *cur, cp_arena *arena,
                          const cp_avro_limits *limits) {
  memset(d, 0, sizeof *d);
  d->cur = cur;
  d->arena = arena;
  d->max_depth = limits && limits->max_depth > 0 ? limits->max_depth : CP_AVRO_DEFAULT_MAX_DEPTH;
  d->zero_width_left = limits && limits->max_zero_width_items
                           ? limits->max_zero_width_items
                           : CP_AVRO_DEFAULT_MAX_ZERO_WIDTH_ITEMS;
}

int cp_avro_decoder_enter(cp_avro_decoder *d, paimon_error *err) {
  if (d->depth >= d->max_depth)
    return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: nested deeper than %d levels",
                            cp_avro_cursor_offset(d->cur), d->max_depth);
  d->depth++;
  return 0;
}

/* Joins the path stack as "a.b.c" into buf. */
static void format_path(const char *const *path, int len, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  int shown = len < CP_AVRO_PATH_DEPTH ? len : CP_AVRO_PATH_DEPTH;
  for (int i = 0; i < shown && used + 1 < cap; i++) {
    int n = snprintf(buf + used, cap - used, "%s%s", i ? "." : "", path[i]);
    if (n < 0) break;
    used += (size_t)n < cap - used ? (size_t)n : cap - used - 1;
  }
  if (len > shown && used + 4 < cap) memcpy(buf + used, "...", 4);
}

int cp_avro_decoder_fail(cp_avro_decoder *d, int rc, paimon_error *err) {
  if (d->path_len > 0) {
    char path[256];
    format_path(d->path, d->path_len, path, sizeof path);
    paimon_error_prefix(err, "field %s", path);
  }
  return rc;
}

static int corrupt(cp_avro_decoder *d, const uint8_t *at, const char *what, long long n,
                   paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: %s %lld", (size_t)(at - d->cur->base),
                          what, n);
}

/* Reads bytes/string/fixed data and copies it, NUL-terminated, into the arena. */
static int copy_bytes(cp_avro_decoder *d, const uint8_t *src, size_t len, cp_avro_value *out,
                      paimon_error *err) {
  char *copy = cp_arena_strndup(d->arena, (const char *)src, len);
  if (!copy) return CP_ENOMEM(err, "decoding Avro bytes");
  out->u.bytes.data = (const uint8_t *)copy;
  out->u.bytes.len = len;
  return 0;
}

static int decode_record(cp_avro_decoder *d, const cp_avro_node *s, cp_avro_value *out,
                         paimon_error *err) {
  cp_avro_value *fields = NULL;
  if (s->n_fields) {
    fields = cp_arena_alloc(d->arena, s->n_fields * sizeof *fields);
    if (!fields) return CP_ENOMEM(err, "decoding an Avro record");
  }
  int slot = d->path_len++;
  for (size_t i = 0; i < s->n_fields; i++) {
    if (slot < CP_AVRO_PATH_DEPTH) d->path[slot] = s->fields[i].name;
    CP_RETURN_IF_ERROR(cp_avro_decode_node(d, s->fields[i].type, &fields[i], err));
  }
  d->path_len--;
  out->u.record.fields = fields;
  out->u.record.count = s->n_fields;
  return 0;
}

static int decode_union(cp_avro_decoder *d, const cp_avro_node *s, cp_avro_value *out,
                        paimon_error *err) {
  const uint8_t *at = d->cur->pos;
  int64_t index;
  CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &index, err));
  if (index < 0 || (uint64_t)index >= s->n_branches)
    return corrupt(d, at, "union branch out of range:", index, err);
  cp_avro_value *inner = cp_arena_alloc(d->arena, sizeof *inner);
  if (!inner) return CP_ENOMEM(err, "decoding an Avro union");
  out->u.branch.index = (size_t)index;
  out->u.branch.value = inner;
  return cp_avro_decode_node(d, s->branches[index], inner, err);
}

static int decode_item(cp_avro_decoder *d, const void *ctx, cp_avro_value *out, paimon_error *err) {
  return cp_avro_decode_node(d, (const cp_avro_node *)ctx, out, err);
}

int cp_avro_decode_node(cp_avro_decoder *d, const cp_avro_node *s, cp_avro_value *out,
                        paimon_error *err) {
  cp_avro_cursor *c = d->cur;
  out->type = s->type;
  switch (s->type) {
  case CP_AVRO_NULL: return 0;
  case CP_AVRO_BOOLEAN: return cp_avro_read_boolean(c, &out->u.boolean, err);
  case CP_AVRO_INT: return cp_avro_read_int(c, &out->u.i32, err);
  case CP_AVRO_LONG: return cp_avro_read_long(c, &out->u.i64, err);
  case CP_AVRO_FLOAT: return cp_avro_read_float(c, &out->u.f32, err);
  case CP_AVRO_DOUBLE: return cp_avro_read_double(c, &out->u.f64, err);
  case CP_AVRO_BYTES:
  case CP_AVRO_STRING:
  case CP_AVRO_FIXED: {
    const uint8_t *data;
    size_t len = s->fixed_size;
    int rc = s->type == CP_AVRO_FIXED ? cp_avro_read_raw(c, len, &data, err)
                                      : cp_avro_read_bytes(c, &data, &len, err);
    return rc ? rc : copy_bytes(d, data, len, out, err);
  }
  case CP_AVRO_ENUM: {
    const uint8_t *at = c->pos;
    int32_t index;
    CP_RETURN_IF_ERROR(cp_avro_read_int(c, &index, err));
    if (index < 0 || (size_t)index >= s->n_symbols)
      return corrupt(d, at, "enum index out of range:", index, err);
    out->u.enum_index = (size_t)index;
    return 0;
  }
  default: break;
  }
  CP_RETURN_IF_ERROR(cp_avro_decoder_enter(d, err));
  int rc;
  if (s->type == CP_AVRO_RECORD)
    rc = decode_record(d, s, out, err);
  else if (s->type == CP_AVRO_UNION)
    rc = decode_union(d, s, out, err);
  else
    rc = cp_avro_decode_blocks(d, s->type == CP_AVRO_MAP, s->items->min_size, decode_item, s->items,
                               out, err);
  if (rc == 0) cp_avro_decoder_leave(d);
  return rc;
}

/* Reads a block header: the element count (0 ends the sequence) and, for negative counts, the
 * block's byte size, which is checked but otherwise only used for skipping. */
static int read_block_header(cp_avro_decoder *d, int64_t *count, int64_t *byte_size,
                             paimon_error *err) {
  const uint8_t *at = d->cur->pos;
  CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, count, err));
  *byte_size = -1;
  if (*count >= 0) return 0;
  if (*count == INT64_MIN) return corrupt(d, at, "invalid block count", *count, err);
  *count = -*count;
  const uint8_t *size_at = d->cur->pos;
  CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, byte_size, err));
  if (*byte_size < 0 || (uint64_t)*byte_size > cp_avro_cursor_remaining(d->cur))
    return corrupt(d, size_at, "block byte size out of range:", *byte_size, err);
  return 0;
}

/* Refuses a block count that cannot be real before anything is allocated for it. */
static int check_count(cp_avro_decoder *d, const uint8_t *at, int64_t count, size_t min_size,
                       paimon_error *err) {
  size_t left = cp_avro_cursor_remaining(d->cur);
  if (min_size > 0) {
    if ((uint64_t)count > left / min_size)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "at byte %zu: block of %lld elements cannot fit in the %zu bytes "
                              "remaining",
                              (size_t)(at - d->cur->base), (long long)count, left);
    return 0;
  }
  if ((uint64_t)count > d->zero_width_left)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "at byte %zu: block of %lld zero-width elements exceeds the limit",
                            (size_t)(at - d->cur->base), (long long)count);
  d->zero_width_left -= (uint64_t)count;
  return 0;
}

int cp_avro_read_block_count(cp_avro_decoder *d, size_t item_min_size, bool is_map, int64_t *count,
                             paimon_error *err) {
  const uint8_t *at = d->cur->pos;
  int64_t byte_size;
  CP_RETURN_IF_ERROR(read_block_header(d, count, &byte_size, err));
  if (*count == 0) return 0;
  return check_count(d, at, *count, is_map ? item_min_size + 1 : item_min_size, err);
}

/* Grows the element array geometrically inside the arena, so many small blocks cost at most twice
 * the final size. */
static int grow_elements(cp_avro_decoder *d, void **elems, size_t *cap, size_t count, size_t need,
                         size_t elem_size, paimon_error *err) {
  if (need <= *cap) return 0;
  size_t new_cap = *cap * 2 > need ? *cap * 2 : need;
  if (new_cap > SIZE_MAX / elem_size) return CP_ENOMEM(err, "Avro array");
  void *grown = cp_arena_alloc(d->arena, new_cap * elem_size);
  if (!grown) return CP_ENOMEM(err, "decoding an Avro array or map");
  if (count) memcpy(grown, *elems, count * elem_size);
  *elems = grown;
  *cap = new_cap;
  return 0;
}

int cp_avro_decode_blocks(cp_avro_decoder *d, bool is_map, size_t item_min_size,
                          cp_avro_item_fn item, const void *ctx, cp_avro_value *out,
                          paimon_error *err) {
  size_t elem_size = is_map ? sizeof(cp_avro_map_entry) : sizeof(cp_avro_value);
  size_t min_size = is_map ? item_min_size + 1 : item_min_size; /* map keys take >= 1 byte */
  void *elems = NULL;
  size_t count = 0, cap = 0;
  for (;;) {
    const uint8_t *at = d->cur->pos;
    int64_t n, byte_size;
    CP_RETURN_IF_ERROR(read_block_header(d, &n, &byte_size, err));
    if (n == 0) break;
    CP_RETURN_IF_ERROR(check_count(d, at, n, min_size, err));
    CP_RETURN_IF_ERROR(grow_elements(d, &elems, &cap, count, count + (size_t)n, elem_size, err));
    for (int64_t i = 0; i < n; i++, count++) {
      cp_avro_value *slot;
      if (is_map) {
        cp_avro_map_entry *e = (cp_avro_map_entry *)elems + count;
        cp_avro_value key;
        const uint8_t *kdata;
        CP_RETURN_IF_ERROR(cp_avro_read_bytes(d->cur, &kdata, &key.u.bytes.len, err));
        CP_RETURN_IF_ERROR(copy_bytes(d, kdata, key.u.bytes.len, &key, err));
        e->key = (const char *)key.u.bytes.data;
        e->key_len = key.u.bytes.len;
        slot = &e->value;
      } else {
        slot = (cp_avro_value *)elems + count;
      }
      CP_RETURN_IF_ERROR(item(d, ctx, slot, err));
    }
  }
  out->type = is_map ? CP_AVRO_MAP : CP_AVRO_ARRAY;
  if (is_map) {
    out->u.map.entries = elems;
    out->u.map.count = count;
  } else {
    out->u.array.items = elems;
    out->u.array.count = count;
  }
  return 0;
}

int cp_avro_decode(cp_avro_decoder *d, const cp_avro_node *schema, cp_avro_value *out,
                   paimon_error *err) {
  d->path_len = 0;
  d->depth = 0;
  int rc = cp_avro_decode_node(d, schema, out, err);
  return rc ? cp_avro_decoder_fail(d, rc, err) : 0;
}

int cp_avro_value_decode(const cp_avro_node *schema, cp_avro_cursor *cur, cp_arena *arena,
                         cp_avro_value *out, paimon_error *err) {
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, cur, arena, NULL);
  return cp_avro_decode(&d, schema, out, err);
}

/* ---- skipping ---- */

static int skip_node(cp_avro_decoder *d, const cp_avro_node *s, paimon_error *err);

static int skip_blocks(cp_avro_decoder *d, const cp_avro_node *s, paimon_error *err) {
  bool is_map = s->type == CP_AVRO_MAP;
  size_t min_size = is_map ? s->items->min_size + 1 : s->items->min_size;
  for (;;) {
    const uint8_t *at = d->cur->pos;
    int64_t n, byte_size;
    CP_RETURN_IF_ERROR(read_block_header(d, &n, &byte_size, err));
    if (n == 0) return 0;
    if (byte_size >= 0) {
      d->cur->pos += byte_size;
      continue;
    }
    if (min_size == 0) continue; /* elements that occupy no bytes: nothing to step over */
    CP_RETURN_IF_ERROR(check_count(d, at, n, min_size, err));
    for (int64_t i = 0; i < n; i++) {
      if (is_map) {
        const uint8_t *key;
        size_t key_len;
        CP_RETURN_IF_ERROR(cp_avro_read_bytes(d->cur, &key, &key_len, err));
      }
      CP_RETURN_IF_ERROR(skip_node(d, s->items, err));
    }
  }
}

static int skip_node(cp_avro_decoder *d, const cp_avro_node *s, paimon_error *err) {
  cp_avro_cursor *c = d->cur;
  const uint8_t *data;
  size_t len;
  int64_t l;
  int32_t i;
  switch (s->type) {
  case CP_AVRO_NULL: return 0;
  case CP_AVRO_BOOLEAN: {
    bool b;
    return cp_avro_read_boolean(c, &b, err);
  }
  case CP_AVRO_INT: return cp_avro_read_int(c, &i, err);
  case CP_AVRO_ENUM: {
    const uint8_t *at = c->pos;
    CP_RETURN_IF_ERROR(cp_avro_read_int(c, &i, err));
    if (i < 0 || (size_t)i >= s->n_symbols)
      return corrupt(d, at, "enum index out of range:", i, err);
    return 0;
  }
  case CP_AVRO_LONG: return cp_avro_read_long(c, &l, err);
  case CP_AVRO_FLOAT: return cp_avro_read_raw(c, 4, &data, err);
  case CP_AVRO_DOUBLE: return cp_avro_read_raw(c, 8, &data, err);
  case CP_AVRO_FIXED: return cp_avro_read_raw(c, s->fixed_size, &data, err);
  case CP_AVRO_BYTES:
  case CP_AVRO_STRING: return cp_avro_read_bytes(c, &data, &len, err);
  default: break;
  }
  CP_RETURN_IF_ERROR(cp_avro_decoder_enter(d, err));
  if (s->type == CP_AVRO_RECORD) {
    int slot = d->path_len++;
    for (size_t f = 0; f < s->n_fields; f++) {
      if (slot < CP_AVRO_PATH_DEPTH) d->path[slot] = s->fields[f].name;
      CP_RETURN_IF_ERROR(skip_node(d, s->fields[f].type, err));
    }
    d->path_len--;
  } else if (s->type == CP_AVRO_UNION) {
    const uint8_t *at = c->pos;
    CP_RETURN_IF_ERROR(cp_avro_read_long(c, &l, err));
    if (l < 0 || (uint64_t)l >= s->n_branches)
      return corrupt(d, at, "union branch out of range:", l, err);
    CP_RETURN_IF_ERROR(skip_node(d, s->branches[l], err));
  } else {
    CP_RETURN_IF_ERROR(skip_blocks(d, s, err));
  }
  cp_avro_decoder_leave(d);
  return 0;
}

int cp_avro_skip(cp_avro_decoder *d, const cp_avro_node *schema, paimon_error *err) {
  return skip_node(d, schema, err);
}

/* ---- encoding ---- */

typedef struct encoder {
  int depth;
  const char *path[CP_AVRO_PATH_DEPTH];
  int path_len;
} encoder;

static int encode_node(encoder *e, const cp_avro_node *s, const cp_avro_value *v, cp_buf *out,
                       paimon_error *err);

static int mismatch(const cp_avro_node *s, const char *what, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "value does not fit schema type %s: %s",
                          s->name ? s->name : cp_avro_type_name(s->type), what);
}

static int encode_blocks(encoder *e, const cp_avro_node *s, const cp_avro_value *v, cp_buf *out,
                         paimon_error *err) {
  bool is_map = s->type == CP_AVRO_MAP;
  size_t count = is_map ? v->u.map.count : v->u.array.count;
  if (count) {
    CP_RETURN_IF_ERROR(cp_avro_write_long(out, (int64_t)count, err));
    for (size_t i = 0; i < count; i++) {
      const cp_avro_value *item = is_map ? &v->u.map.entries[i].value : &v->u.array.items[i];
      if (is_map)
        CP_RETURN_IF_ERROR(
            cp_avro_write_bytes(out, v->u.map.entries[i].key, v->u.map.entries[i].key_len, err));
      CP_RETURN_IF_ERROR(encode_node(e, s->items, item, out, err));
    }
  }
  return cp_avro_write_long(out, 0, err);
}

static int encode_complex(encoder *e, const cp_avro_node *s, const cp_avro_value *v, cp_buf *out,
                          paimon_error *err) {
  switch (s->type) {
  case CP_AVRO_RECORD: {
    if (v->u.record.count != s->n_fields) return mismatch(s, "wrong number of fields", err);
    int slot = e->path_len++;
    for (size_t i = 0; i < s->n_fields; i++) {
      if (slot < CP_AVRO_PATH_DEPTH) e->path[slot] = s->fields[i].name;
      CP_RETURN_IF_ERROR(encode_node(e, s->fields[i].type, &v->u.record.fields[i], out, err));
    }
    e->path_len--;
    return 0;
  }
  case CP_AVRO_UNION: {
    size_t b = v->u.branch.index;
    if (b >= s->n_branches || !v->u.branch.value) return mismatch(s, "no such branch", err);
    CP_RETURN_IF_ERROR(cp_avro_write_long(out, (int64_t)b, err));
    return encode_node(e, s->branches[b], v->u.branch.value, out, err);
  }
  default: return encode_blocks(e, s, v, out, err);
  }
}

static int encode_node(encoder *e, const cp_avro_node *s, const cp_avro_value *v, cp_buf *out,
                       paimon_error *err) {
  if (v->type != s->type) return mismatch(s, cp_avro_type_name(v->type), err);
  switch (s->type) {
  case CP_AVRO_NULL: return 0;
  case CP_AVRO_BOOLEAN: return cp_avro_write_boolean(out, v->u.boolean, err);
  case CP_AVRO_INT: return cp_avro_write_int(out, v->u.i32, err);
  case CP_AVRO_LONG: return cp_avro_write_long(out, v->u.i64, err);
  case CP_AVRO_FLOAT: return cp_avro_write_float(out, v->u.f32, err);
  case CP_AVRO_DOUBLE: return cp_avro_write_double(out, v->u.f64, err);
  case CP_AVRO_BYTES:
  case CP_AVRO_STRING: return cp_avro_write_bytes(out, v->u.bytes.data, v->u.bytes.len, err);
  case CP_AVRO_FIXED:
    if (v->u.bytes.len != s->fixed_size) return mismatch(s, "wrong fixed length", err);
    return cp_buf_append(out, v->u.bytes.data, v->u.bytes.len, err);
  case CP_AVRO_ENUM:
    if (v->u.enum_index >= s->n_symbols) return mismatch(s, "enum index out of range", err);
    return cp_avro_write_int(out, (int32_t)v->u.enum_index, err);
  default: break;
  }
  if (e->depth >= CP_AVRO_DEFAULT_MAX_DEPTH * 4)
    return paimon_error_set(err, PAIMON_EINVAL, "value nested too deeply");
  e->depth++;
  int rc = encode_complex(e, s, v, out, err);
  e->depth--;
  return rc;
}

int cp_avro_encode(const cp_avro_node *schema, const cp_avro_value *v, cp_buf *out,
                   paimon_error *err) {
  encoder e = {0};
  size_t start = out->len;
  int rc = encode_node(&e, schema, v, out, err);
  if (rc) {
    out->len = start;
    if (e.path_len > 0) {
      char path[256];
      format_path(e.path, e.path_len, path, sizeof path);
      paimon_error_prefix(err, "field %s", path);
    }
  }
  return rc;
}

/* ---- equality ---- */

bool cp_avro_value_equal(const cp_avro_value *a, const cp_avro_value *b) {
  if (a->type != b->type) return false;
  switch (a->type) {
  case CP_AVRO_NULL: return true;
  case CP_AVRO_BOOLEAN: return a->u.boolean == b->u.boolean;
  case CP_AVRO_INT: return a->u.i32 == b->u.i32;
  case CP_AVRO_LONG: return a->u.i64 == b->u.i64;
  case CP_AVRO_FLOAT: return memcmp(&a->u.f32, &b->u.f32, sizeof(float)) == 0;
  case CP_AVRO_DOUBLE: return memcmp(&a->u.f64, &b->u.f64, sizeof(double)) == 0;
  case CP_AVRO_BYTES:
  case CP_AVRO_STRING:
  case CP_AVRO_FIXED:
    return a->u.bytes.len == b->u.bytes.len &&
           (a->u.bytes.len == 0 || memcmp(a->u.bytes.data, b->u.bytes.data, a->u.bytes.len) == 0);
  case CP_AVRO_ENUM: return a->u.enum_index == b->u.enum_index;
  case CP_AVRO_UNION:
    return a->u.branch.index == b->u.branch.index &&
           cp_avro_value_equal(a->u.branch.value, b->u.branch.value);
  case CP_AVRO_RECORD:
    if (a->u.record.count != b->u.record.count) return false;
    for (size_t i = 0; i < a->u.record.count; i++)
      if (!cp_avro_value_equal(&a->u.record.fields[i], &b->u.record.fields[i])) return false;
    return true;
  case CP_AVRO_ARRAY:
    if (a->u.array.count != b->u.array.count) return false;
    for (size_t i = 0; i < a->u.array.count; i++)
      if (!cp_avro_value_equal(&a->u.array.items[i], &b->u.array.items[i])) return false;
    return true;
  case CP_AVRO_MAP:
    if (a->u.map.count != b->u.map.count) return false;
    for (size_t i = 0; i < a->u.map.count; i++) {
      const cp_avro_map_entry *x = &a->u.map.entries[i], *y = &b->u.map.entries[i];
      if (x->key_len != y->key_len || memcmp(x->key, y->key, x->key_len) != 0 ||
          !cp_avro_value_equal(&x->value, &y->value))
        return false;
    }
    return true;
  }
  return false;
}
