/*
 * Array builders (array.h, part c): creation from a schema, scalar appends, closing nested
 * elements, and finishing into owned arrays laid out per the Arrow columnar format ("Physical
 * Memory Layout"). Bulk and view appends are in builder_bulk.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/builder_internal.h"
#include "base/status.h"

int cp_builder_fail(const struct cp_builder *b, paimon_error *err, int code, const char *fmt, ...) {
  if (!err) return code;
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!b->path[0]) return paimon_error_set(err, code, "record batch: %s", msg); /* unnamed root */
  return paimon_error_set(err, code, "column '%s': %s", b->path, msg);
}

/* ---- creation ------------------------------------------------------------------------------- */

static void builder_free_node(cp_builder *b) {
  if (!b) return;
  for (int64_t i = 0; i < b->n_children; i++) builder_free_node(b->children[i]);
  free(b->children);
  cp_abuf_free(&b->validity);
  cp_abuf_free(&b->values);
  cp_abuf_free(&b->data);
  free(b->path);
  cp_schema_release(&b->schema_copy);
  free(b);
}

void cp_builder_free(cp_builder *b) { builder_free_node(b); }

/* Puts the builder in its empty state: an offsets buffer starts with a single 0 entry. */
static int start_empty(cp_builder *b, paimon_error *err) {
  b->length = 0;
  b->null_count = 0;
  b->validity.len = 0;
  b->values.len = 0;
  b->data.len = 0;
  if (b->validity.data) cp_abuf_free(&b->validity);
  int w = cp_builder_offset_width(&b->type);
  if (w) {
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, 64, err));
    memset(b->values.data, 0, (size_t)w);
    b->values.len = w;
  }
  return PAIMON_OK;
}

static int create_node(cp_builder **out, const struct ArrowSchema *s, const char *parent_path,
                       paimon_error *err) {
  cp_builder *b = calloc(1, sizeof *b);
  *out = b;
  if (!b) return CP_ENOMEM(err, "builder");
  b->schema = s;
  const char *name = s->name && *s->name ? s->name : parent_path ? "?" : "";
  if (!parent_path) parent_path = "";
  size_t plen = strlen(parent_path), nlen = strlen(name);
  b->path = malloc(plen + nlen + 2);
  if (!b->path) return CP_ENOMEM(err, "builder");
  if (plen)
    snprintf(b->path, plen + nlen + 2, "%s.%s", parent_path, name);
  else
    memcpy(b->path, name, nlen + 1);
  CP_RETURN_IF_ERROR(cp_arrow_parse_format(s->format, &b->type, err));
  if (b->type.id == CP_ARROW_HALF_FLOAT)
    return cp_builder_fail(b, err, PAIMON_EUNSUPPORTED, "half_float columns cannot be built");
  CP_RETURN_IF_ERROR(start_empty(b, err));
  if (s->n_children > 0) {
    b->children = calloc((size_t)s->n_children, sizeof *b->children);
    if (!b->children) return CP_ENOMEM(err, "builder");
    b->n_children = s->n_children;
    for (int64_t i = 0; i < s->n_children; i++)
      CP_RETURN_IF_ERROR(create_node(&b->children[i], s->children[i], b->path, err));
  }
  return PAIMON_OK;
}

int cp_builder_create(cp_builder **out, const struct ArrowSchema *schema, paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_schema_validate(schema, err));
  cp_builder *b = NULL;
  struct ArrowSchema copy;
  CP_RETURN_IF_ERROR(cp_schema_copy(&copy, schema, err));
  /* The root path is the schema's name; record batches usually have none. */
  int rc = create_node(&b, &copy, NULL, err);
  if (b) {
    cp_schema_move(&copy, &b->schema_copy);
    b->schema = &b->schema_copy; /* descendants point at heap nodes of the copy: still valid */
  } else {
    cp_schema_release(&copy);
  }
  if (rc != 0) {
    builder_free_node(b);
    return rc;
  }
  *out = b;
  return PAIMON_OK;
}

const struct ArrowSchema *cp_builder_schema(const cp_builder *b) { return b->schema; }
const cp_arrow_type_info *cp_builder_type(const cp_builder *b) { return &b->type; }
int64_t cp_builder_length(const cp_builder *b) { return b->length; }
int64_t cp_builder_n_children(const cp_builder *b) { return b->n_children; }

cp_builder *cp_builder_child(cp_builder *b, int64_t i) {
  return i >= 0 && i < b->n_children ? b->children[i] : NULL;
}

cp_builder *cp_builder_map_keys(cp_builder *b) {
  if (b->type.id != CP_ARROW_MAP || b->children[0]->n_children != 2) return NULL;
  return b->children[0]->children[0];
}

cp_builder *cp_builder_map_values(cp_builder *b) {
  if (b->type.id != CP_ARROW_MAP || b->children[0]->n_children != 2) return NULL;
  return b->children[0]->children[1];
}

/* ---- validity and offsets ---------------------------------------------------------------- */

int cp_builder_validity_reserve(cp_builder *b, int64_t extra, paimon_error *err) {
  int64_t need = cp_bitmap_bytes(b->length + extra);
  if (!b->validity.data) {
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->validity, need > 64 ? need : 64, err));
    cp_bitmap_set_range(b->validity.data, 0, b->length, true);
  } else if (need > b->validity.cap) {
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->validity, need - b->validity.len, err));
  }
  b->validity.len = need;
  return PAIMON_OK;
}

int cp_builder_put_validity(cp_builder *b, const uint8_t *bits, int64_t bits_offset, int64_t n,
                            paimon_error *err) {
  if (n <= 0) return PAIMON_OK;
  int64_t valid = bits ? cp_bitmap_count_set(bits, bits_offset, n) : n;
  if (valid == n && !b->validity.data) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_builder_validity_reserve(b, n, err));
  if (valid == n)
    cp_bitmap_set_range(b->validity.data, b->length, n, true);
  else
    cp_bitmap_copy(b->validity.data, b->length, bits, bits_offset, n);
  b->null_count += n - valid;
  return PAIMON_OK;
}

static inline int put_valid(cp_builder *b, paimon_error *err) {
  if (!b->validity.data) return PAIMON_OK;
  if (cp_bitmap_bytes(b->length + 1) > b->validity.cap)
    CP_RETURN_IF_ERROR(cp_builder_validity_reserve(b, 1, err));
  b->validity.len = cp_bitmap_bytes(b->length + 1);
  cp_bit_set(b->validity.data, b->length);
  return PAIMON_OK;
}

int cp_builder_push_offset(cp_builder *b, int64_t value, paimon_error *err) {
  if (cp_builder_offset_width(&b->type) == 8) return cp_abuf_append(&b->values, &value, 8, err);
  if (value > INT32_MAX)
    return cp_builder_fail(b, err, PAIMON_EINVAL,
                           "%s offsets overflow int32 at row %lld (use the large_ variant)",
                           cp_arrow_type_name(b->type.id), (long long)b->length);
  int32_t v32 = (int32_t)value;
  return cp_abuf_append(&b->values, &v32, 4, err);
}

int cp_builder_reserve(cp_builder *b, int64_t rows, int64_t bytes, paimon_error *err) {
  if (rows < 0 || bytes < 0) return cp_builder_fail(b, err, PAIMON_EINVAL, "negative reserve");
  int w = cp_builder_offset_width(&b->type);
  if (b->type.id == CP_ARROW_BOOL)
    CP_RETURN_IF_ERROR(
        cp_abuf_reserve(&b->values, cp_bitmap_bytes(b->length + rows) - b->values.len + 1, err));
  else if (b->type.byte_width > 0)
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, rows * b->type.byte_width, err));
  else if (w)
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, rows * w, err));
  if (cp_arrow_type_is_var_binary(b->type.id))
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->data, bytes, err));
  if (b->validity.data)
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->validity, cp_bitmap_bytes(rows) + 1, err));
  /* Struct fields and fixed-size items grow in step with the rows; list items cannot be known. */
  if (b->type.id == CP_ARROW_STRUCT)
    for (int64_t i = 0; i < b->n_children; i++)
      CP_RETURN_IF_ERROR(cp_builder_reserve(b->children[i], rows, 0, err));
  if (b->type.id == CP_ARROW_FIXED_SIZE_LIST && rows <= INT64_MAX / (b->type.list_size + 1))
    CP_RETURN_IF_ERROR(cp_builder_reserve(b->children[0], rows * b->type.list_size, 0, err));
  return PAIMON_OK;
}

/* ---- nulls ------------------------------------------------------------------------------- */

/* The value part of `n` null rows (validity is handled by the caller). */
static int append_null_values(cp_builder *b, int64_t n, paimon_error *err) {
  const cp_arrow_type_info *t = &b->type;
  if (t->id == CP_ARROW_BOOL) {
    int64_t need = cp_bitmap_bytes(b->length + n);
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, need - b->values.len, err));
    cp_bitmap_set_range(b->values.data, b->length, n, false);
    b->values.len = need;
  } else if (t->byte_width > 0) {
    int64_t bytes = n * t->byte_width;
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, bytes, err));
    memset(b->values.data + b->values.len, 0, (size_t)bytes);
    b->values.len += bytes;
  } else if (cp_builder_offset_width(t)) {
    int64_t last = cp_builder_last_offset(b);
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, n * cp_builder_offset_width(t), err));
    for (int64_t k = 0; k < n; k++) {
      int64_t saved = b->length;
      b->length = saved + k; /* push_offset reports the row */
      int rc = cp_builder_push_offset(b, last, err);
      b->length = saved;
      CP_RETURN_IF_ERROR(rc);
    }
  } else if (t->id == CP_ARROW_FIXED_SIZE_LIST) {
    CP_RETURN_IF_ERROR(cp_builder_append_nulls(b->children[0], n * (int64_t)t->list_size, err));
  } else if (t->id == CP_ARROW_STRUCT) {
    for (int64_t i = 0; i < b->n_children; i++)
      CP_RETURN_IF_ERROR(cp_builder_append_nulls(b->children[i], n, err));
  }
  return PAIMON_OK;
}

int cp_builder_append_nulls(cp_builder *b, int64_t n, paimon_error *err) {
  if (n < 0) return cp_builder_fail(b, err, PAIMON_EINVAL, "negative null count");
  if (n == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(append_null_values(b, n, err));
  if (b->type.id != CP_ARROW_NA) {
    CP_RETURN_IF_ERROR(cp_builder_validity_reserve(b, n, err));
    cp_bitmap_set_range(b->validity.data, b->length, n, false);
  }
  b->null_count += n;
  b->length += n;
  return PAIMON_OK;
}

int cp_builder_append_null(cp_builder *b, paimon_error *err) {
  return cp_builder_append_nulls(b, 1, err);
}

/* ---- scalar appends ---------------------------------------------------------------------- */

static int type_mismatch(cp_builder *b, const char *what, paimon_error *err) {
  return cp_builder_fail(b, err, PAIMON_EINVAL, "cannot append %s to a %s column", what,
                         cp_arrow_type_name(b->type.id));
}

/* Appends one fixed-width value of `width` bytes and marks it valid. */
static inline int put_fixed(cp_builder *b, const void *v, int width, paimon_error *err) {
  if (b->values.cap - b->values.len < width)
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, width, err));
  memcpy(b->values.data + b->values.len, v, (size_t)width);
  b->values.len += width;
  CP_RETURN_IF_ERROR(put_valid(b, err));
  b->length++;
  return PAIMON_OK;
}

int cp_builder_append_bool(cp_builder *b, bool v, paimon_error *err) {
  if (b->type.id != CP_ARROW_BOOL) return type_mismatch(b, "a boolean", err);
  int64_t need = cp_bitmap_bytes(b->length + 1);
  if (need > b->values.cap) CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, 1, err));
  b->values.len = need;
  cp_bit_set_to(b->values.data, b->length, v);
  CP_RETURN_IF_ERROR(put_valid(b, err));
  b->length++;
  return PAIMON_OK;
}

/* 10^p for p in 0..38 as an unsigned 128-bit integer. */
static unsigned __int128 pow10_u128(int p) {
  unsigned __int128 r = 1;
  while (p-- > 0) r *= 10;
  return r;
}

static bool decimal_fits(cp_dec128 v, int precision) {
  __int128 x = (__int128)(((unsigned __int128)(uint64_t)v.hi << 64) | v.lo);
  unsigned __int128 mag =
      x < 0 ? (unsigned __int128)0 - (unsigned __int128)x : (unsigned __int128)x;
  return mag < pow10_u128(precision);
}

int cp_builder_append_decimal128(cp_builder *b, cp_dec128 v, paimon_error *err) {
  if (b->type.id != CP_ARROW_DECIMAL128) return type_mismatch(b, "a decimal", err);
  if (!decimal_fits(v, b->type.precision))
    return cp_builder_fail(b, err, PAIMON_EINVAL, "decimal value at row %lld exceeds precision %d",
                           (long long)b->length, (int)b->type.precision);
  return put_fixed(b, &v, 16, err);
}

static int out_of_range(cp_builder *b, const char *v, paimon_error *err) {
  return cp_builder_fail(b, err, PAIMON_EINVAL, "value %s at row %lld is out of range for %s", v,
                         (long long)b->length, cp_arrow_type_name(b->type.id));
}

int cp_builder_append_int64(cp_builder *b, int64_t v, paimon_error *err) {
  char text[32];
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  switch (b->type.id) {
  case CP_ARROW_INT8: lo = INT8_MIN, hi = INT8_MAX; break;
  case CP_ARROW_UINT8: lo = 0, hi = UINT8_MAX; break;
  case CP_ARROW_INT16: lo = INT16_MIN, hi = INT16_MAX; break;
  case CP_ARROW_UINT16: lo = 0, hi = UINT16_MAX; break;
  case CP_ARROW_INT32:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32: lo = INT32_MIN, hi = INT32_MAX; break;
  case CP_ARROW_UINT32: lo = 0, hi = UINT32_MAX; break;
  case CP_ARROW_UINT64: lo = 0; break;
  case CP_ARROW_INT64:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP: break;
  case CP_ARROW_DECIMAL128: return cp_builder_append_decimal128(b, cp_dec128_from_int64(v), err);
  default: return type_mismatch(b, "an integer", err);
  }
  if (v < lo || v > hi) {
    snprintf(text, sizeof text, "%lld", (long long)v);
    return out_of_range(b, text, err);
  }
  switch (b->type.byte_width) {
  case 1: {
    uint8_t x = (uint8_t)v;
    return put_fixed(b, &x, 1, err);
  }
  case 2: {
    uint16_t x = (uint16_t)v;
    return put_fixed(b, &x, 2, err);
  }
  case 4: {
    uint32_t x = (uint32_t)v;
    return put_fixed(b, &x, 4, err);
  }
  default: return put_fixed(b, &v, 8, err);
  }
}

int cp_builder_append_uint64(cp_builder *b, uint64_t v, paimon_error *err) {
  if (b->type.id == CP_ARROW_UINT64) return put_fixed(b, &v, 8, err);
  if (v > (uint64_t)INT64_MAX) {
    if (!cp_arrow_type_is_integer(b->type.id)) return type_mismatch(b, "an integer", err);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    return out_of_range(b, text, err);
  }
  if (!cp_arrow_type_is_integer(b->type.id)) return type_mismatch(b, "an unsigned integer", err);
  return cp_builder_append_int64(b, (int64_t)v, err);
}

int cp_builder_append_double(cp_builder *b, double v, paimon_error *err) {
  if (b->type.id == CP_ARROW_DOUBLE) return put_fixed(b, &v, 8, err);
  if (b->type.id == CP_ARROW_FLOAT) {
    float f = (float)v;
    return put_fixed(b, &f, 4, err);
  }
  return type_mismatch(b, "a floating-point value", err);
}

int cp_builder_append_bytes(cp_builder *b, const void *data, int64_t len, paimon_error *err) {
  if (len < 0) return cp_builder_fail(b, err, PAIMON_EINVAL, "negative byte length");
  if (b->type.id == CP_ARROW_FIXED_SIZE_BINARY) {
    if (len != b->type.byte_width)
      return cp_builder_fail(b, err, PAIMON_EINVAL,
                             "value of %lld bytes at row %lld does not fit fixed_size_binary(%d)",
                             (long long)len, (long long)b->length, (int)b->type.byte_width);
    if (b->values.cap - b->values.len < len)
      CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, len, err));
    if (len) memcpy(b->values.data + b->values.len, data, (size_t)len);
    b->values.len += len;
    CP_RETURN_IF_ERROR(put_valid(b, err));
    b->length++;
    return PAIMON_OK;
  }
  if (!cp_arrow_type_is_var_binary(b->type.id)) return type_mismatch(b, "bytes", err);
  CP_RETURN_IF_ERROR(cp_builder_push_offset(b, b->data.len + len, err));
  CP_RETURN_IF_ERROR(cp_abuf_append(&b->data, data, len, err));
  CP_RETURN_IF_ERROR(put_valid(b, err));
  b->length++;
  return PAIMON_OK;
}

int cp_builder_append_str(cp_builder *b, const char *s, paimon_error *err) {
  return cp_builder_append_bytes(b, s, (int64_t)strlen(s), err);
}

/* ---- nested elements ---------------------------------------------------------------------- */

static int close_struct_rows(cp_builder *b, int64_t n, paimon_error *err) {
  for (int64_t i = 0; i < b->n_children; i++) {
    if (b->children[i]->length != b->length + n)
      return cp_builder_fail(
          b, err, PAIMON_EINVAL, "struct field '%s' has %lld rows, expected %lld at row %lld",
          b->children[i]->schema->name ? b->children[i]->schema->name : "?",
          (long long)b->children[i]->length, (long long)(b->length + n), (long long)b->length);
  }
  CP_RETURN_IF_ERROR(cp_builder_put_validity(b, NULL, 0, n, err));
  b->length += n;
  return PAIMON_OK;
}

int cp_builder_end_elements(cp_builder *b, int64_t n, paimon_error *err) {
  if (n < 0) return cp_builder_fail(b, err, PAIMON_EINVAL, "negative element count");
  if (b->type.id == CP_ARROW_STRUCT) return close_struct_rows(b, n, err);
  if (b->type.id == CP_ARROW_FIXED_SIZE_LIST) {
    int64_t want = (b->length + n) * (int64_t)b->type.list_size;
    if (b->children[0]->length != want)
      return cp_builder_fail(
          b, err, PAIMON_EINVAL, "fixed_size_list(%d) item builder has %lld values, expected %lld",
          (int)b->type.list_size, (long long)b->children[0]->length, (long long)want);
    CP_RETURN_IF_ERROR(cp_builder_put_validity(b, NULL, 0, n, err));
    b->length += n;
    return PAIMON_OK;
  }
  if (n == 1) return cp_builder_end_element(b, err);
  return cp_builder_fail(b, err, PAIMON_EINVAL, "end_elements needs a struct or fixed_size_list");
}

int cp_builder_end_element(cp_builder *b, paimon_error *err) {
  switch (b->type.id) {
  case CP_ARROW_STRUCT:
  case CP_ARROW_FIXED_SIZE_LIST: return cp_builder_end_elements(b, 1, err);
  case CP_ARROW_MAP: {
    cp_builder *e = b->children[0];
    int64_t nk = e->children[0]->length, nv = e->children[1]->length;
    if (nk != nv)
      return cp_builder_fail(b, err, PAIMON_EINVAL, "map has %lld keys but %lld values at row %lld",
                             (long long)nk, (long long)nv, (long long)b->length);
    if (nk > e->length) CP_RETURN_IF_ERROR(close_struct_rows(e, nk - e->length, err));
  }
    /* fall through */
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
    CP_RETURN_IF_ERROR(cp_builder_push_offset(b, b->children[0]->length, err));
    CP_RETURN_IF_ERROR(put_valid(b, err));
    b->length++;
    return PAIMON_OK;
  default:
    return cp_builder_fail(b, err, PAIMON_EINVAL, "end_element on a %s column",
                           cp_arrow_type_name(b->type.id));
  }
}

/* ---- finish ------------------------------------------------------------------------------ */

/* Checks, for the whole tree, that no child holds rows that no element of its parent covers. */
static int check_closed(const cp_builder *b, paimon_error *err) {
  for (int64_t i = 0; i < b->n_children; i++) CP_RETURN_IF_ERROR(check_closed(b->children[i], err));
  int64_t want = -1;
  switch (b->type.id) {
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_MAP: want = cp_builder_last_offset(b); break;
  case CP_ARROW_FIXED_SIZE_LIST: want = b->length * (int64_t)b->type.list_size; break;
  case CP_ARROW_STRUCT: want = b->length; break;
  default: return PAIMON_OK;
  }
  for (int64_t i = 0; i < b->n_children; i++) {
    if (b->children[i]->length != want)
      return cp_builder_fail(b, err, PAIMON_ESTATE,
                             "child '%s' has %lld rows but the elements cover %lld; close the "
                             "element with cp_builder_end_element",
                             b->children[i]->path, (long long)b->children[i]->length,
                             (long long)want);
  }
  return PAIMON_OK;
}

/* Moves `buf` into slot i, making sure the slot is non-NULL even when empty (some consumers
 * reject NULL buffers). */
static int give_buffer(struct ArrowArray *out, int64_t i, cp_abuf *buf, paimon_error *err) {
  if (!buf->data) CP_RETURN_IF_ERROR(cp_abuf_reserve(buf, 1, err));
  return cp_array_adopt_abuf(out, i, buf, err);
}

static int finish_node(cp_builder *b, struct ArrowArray *out, paimon_error *err) {
  int nb = cp_arrow_type_n_buffers(b->type.id);
  CP_RETURN_IF_ERROR(cp_array_init(out, nb, b->n_children, err));
  int rc = PAIMON_OK;
  if (nb > 0 && b->null_count > 0) {
    b->validity.len = cp_bitmap_bytes(b->length);
    rc = cp_array_adopt_abuf(out, 0, &b->validity, err);
  }
  if (rc == 0 && nb >= 2) {
    if (b->type.id == CP_ARROW_BOOL) b->values.len = cp_bitmap_bytes(b->length);
    rc = give_buffer(out, 1, &b->values, err);
  }
  if (rc == 0 && nb == 3) rc = give_buffer(out, 2, &b->data, err);
  for (int64_t i = 0; rc == 0 && i < b->n_children; i++)
    rc = finish_node(b->children[i], out->children[i], err);
  if (rc != 0) {
    cp_array_release(out);
    return rc;
  }
  out->length = b->length;
  out->null_count = b->null_count;
  out->offset = 0;
  return start_empty(b, err);
}

int cp_builder_finish(cp_builder *b, struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  CP_RETURN_IF_ERROR(check_closed(b, err)); /* before anything moves: the builder stays usable */
  int rc = finish_node(b, out, err);
  if (rc != 0) {
    cp_array_release(out);
    cp_builder_reset(b);
  }
  return rc;
}

void cp_builder_reset(cp_builder *b) {
  for (int64_t i = 0; i < b->n_children; i++) cp_builder_reset(b->children[i]);
  start_empty(b, NULL);
}
