/*
 * Bulk builder appends (array.h, part c): runs of raw fixed-width values, runs of
 * Arrow-style (offsets, data) binaries, and ranges of rows copied from a view of the same type.
 * Fixed-width data moves with one memcpy per call; bitmaps move a byte at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/builder_internal.h"
#include "base/status.h"

int cp_builder_append_values(cp_builder *b, const void *values, int64_t values_offset, int64_t n,
                             const uint8_t *validity, int64_t validity_offset, paimon_error *err) {
  if (n < 0 || values_offset < 0)
    return cp_builder_fail(b, err, PAIMON_EINVAL, "negative bulk append range");
  if (n == 0) return PAIMON_OK;
  const cp_arrow_type_info *t = &b->type;
  if (t->id == CP_ARROW_NA) return cp_builder_append_nulls(b, n, err);
  if (!values) return cp_builder_fail(b, err, PAIMON_EINVAL, "bulk append of NULL values");
  if (t->id == CP_ARROW_BOOL) {
    int64_t need = cp_bitmap_bytes(b->length + n);
    CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, need - b->values.len, err));
    cp_bitmap_copy(b->values.data, b->length, values, values_offset, n);
    b->values.len = need;
  } else if (t->byte_width > 0) {
    int64_t w = t->byte_width;
    CP_RETURN_IF_ERROR(
        cp_abuf_append(&b->values, (const uint8_t *)values + values_offset * w, n * w, err));
  } else {
    return cp_builder_fail(b, err, PAIMON_EINVAL, "bulk value append to a %s column",
                           cp_arrow_type_name(t->id));
  }
  CP_RETURN_IF_ERROR(cp_builder_put_validity(b, validity, validity_offset, n, err));
  b->length += n;
  return PAIMON_OK;
}

/* Shared body of the binary runs: offsets are read through `get`, whatever their width. */
#define APPEND_BINARY_RUN(b, offsets, data, n, validity, voff, err)                                \
  do {                                                                                             \
    if (!cp_arrow_type_is_var_binary((b)->type.id))                                                \
      return cp_builder_fail((b), (err), PAIMON_EINVAL, "binary run append to a %s column",        \
                             cp_arrow_type_name((b)->type.id));                                    \
    if ((n) < 0) return cp_builder_fail((b), (err), PAIMON_EINVAL, "negative run length");         \
    if ((n) == 0) return PAIMON_OK;                                                                \
    int64_t first_ = (offsets)[0];                                                                 \
    if (first_ < 0)                                                                                \
      return cp_builder_fail((b), (err), PAIMON_EINVAL, "negative first offset %lld",              \
                             (long long)first_);                                                   \
    for (int64_t k_ = 0; k_ < (n); k_++)                                                           \
      if ((offsets)[k_ + 1] < (offsets)[k_])                                                       \
        return cp_builder_fail((b), (err), PAIMON_EINVAL,                                          \
                               "run offsets not monotonic at index %lld", (long long)k_);          \
    int64_t total_ = (int64_t)(offsets)[(n)] - first_;                                             \
    int64_t base_ = (b)->data.len - first_;                                                        \
    if (cp_builder_offset_width(&(b)->type) == 4 && (b)->data.len + total_ > INT32_MAX)            \
      return cp_builder_fail((b), (err), PAIMON_EINVAL,                                            \
                             "%s data would exceed 2 GiB (use the large_ variant)",                \
                             cp_arrow_type_name((b)->type.id));                                    \
    if (total_ > 0)                                                                                \
      CP_RETURN_IF_ERROR(cp_abuf_append(&(b)->data, (data) + first_, total_, (err)));              \
    CP_RETURN_IF_ERROR(                                                                            \
        cp_abuf_reserve(&(b)->values, (n)*cp_builder_offset_width(&(b)->type), (err)));            \
    if (cp_builder_offset_width(&(b)->type) == 4) {                                                \
      int32_t *o_ = (int32_t *)((b)->values.data + (b)->values.len);                               \
      for (int64_t k_ = 0; k_ < (n); k_++) o_[k_] = (int32_t)((offsets)[k_ + 1] + base_);          \
      (b)->values.len += (n)*4;                                                                    \
    } else {                                                                                       \
      int64_t *o_ = (int64_t *)((b)->values.data + (b)->values.len);                               \
      for (int64_t k_ = 0; k_ < (n); k_++) o_[k_] = (int64_t)(offsets)[k_ + 1] + base_;            \
      (b)->values.len += (n)*8;                                                                    \
    }                                                                                              \
    CP_RETURN_IF_ERROR(cp_builder_put_validity((b), (validity), (voff), (n), (err)));              \
    (b)->length += (n);                                                                            \
  } while (0)

int cp_builder_append_binary_run32(cp_builder *b, const int32_t *offsets, const uint8_t *data,
                                   int64_t n, const uint8_t *validity, int64_t validity_offset,
                                   paimon_error *err) {
  APPEND_BINARY_RUN(b, offsets, data, n, validity, validity_offset, err);
  return PAIMON_OK;
}

int cp_builder_append_binary_run64(cp_builder *b, const int64_t *offsets, const uint8_t *data,
                                   int64_t n, const uint8_t *validity, int64_t validity_offset,
                                   paimon_error *err) {
  APPEND_BINARY_RUN(b, offsets, data, n, validity, validity_offset, err);
  return PAIMON_OK;
}

/* ---- appending rows of a view ----------------------------------------------------------- */

/* Folds the offset-width variants together: they hold the same values. */
static cp_arrow_type base_id(cp_arrow_type id) {
  switch (id) {
  case CP_ARROW_LARGE_STRING: return CP_ARROW_STRING;
  case CP_ARROW_LARGE_BINARY: return CP_ARROW_BINARY;
  case CP_ARROW_LARGE_LIST: return CP_ARROW_LIST;
  default: return id;
  }
}

static bool same_value_type(const cp_arrow_type_info *a, const cp_arrow_type_info *b) {
  return base_id(a->id) == base_id(b->id) && a->byte_width == b->byte_width &&
         a->precision == b->precision && a->scale == b->scale && a->unit == b->unit &&
         a->list_size == b->list_size && strcmp(a->timezone, b->timezone) == 0;
}

/* Offsets k0 .. k0+n of a view (32- or 64-bit) into a builder, rebased by `base`. */
static int append_offsets(cp_builder *b, const cp_array_view *v, int64_t k0, int64_t n,
                          int64_t base, paimon_error *err) {
  int w = cp_builder_offset_width(&b->type);
  CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, n * w, err));
  if (w == 4) {
    int32_t *o = (int32_t *)(b->values.data + b->values.len);
    if (v->offsets32) {
      for (int64_t k = 0; k < n; k++) o[k] = (int32_t)(v->offsets32[k0 + k + 1] + base);
    } else {
      for (int64_t k = 0; k < n; k++) o[k] = (int32_t)(v->offsets64[k0 + k + 1] + base);
    }
  } else {
    int64_t *o = (int64_t *)(b->values.data + b->values.len);
    if (v->offsets32) {
      for (int64_t k = 0; k < n; k++) o[k] = v->offsets32[k0 + k + 1] + base;
    } else {
      for (int64_t k = 0; k < n; k++) o[k] = v->offsets64[k0 + k + 1] + base;
    }
  }
  b->values.len += n * w;
  return PAIMON_OK;
}

static int64_t view_offset(const cp_array_view *v, int64_t k) {
  return v->offsets32 ? v->offsets32[k] : v->offsets64[k];
}

static int append_var_binary(cp_builder *b, const cp_array_view *v, int64_t k0, int64_t n,
                             paimon_error *err) {
  int64_t first = view_offset(v, k0), last = view_offset(v, k0 + n);
  if (cp_builder_offset_width(&b->type) == 4 && b->data.len + (last - first) > INT32_MAX)
    return cp_builder_fail(b, err, PAIMON_EINVAL,
                           "%s data would exceed 2 GiB (use the large_ variant)",
                           cp_arrow_type_name(b->type.id));
  int64_t base = b->data.len - first;
  if (last > first)
    CP_RETURN_IF_ERROR(cp_abuf_append(&b->data, v->data + first, last - first, err));
  return append_offsets(b, v, k0, n, base, err);
}

static int append_list(cp_builder *b, const cp_array_view *v, int64_t k0, int64_t n,
                       paimon_error *err) {
  int64_t first = view_offset(v, k0), last = view_offset(v, k0 + n);
  cp_builder *child = b->children[0];
  if (cp_builder_offset_width(&b->type) == 4 && child->length + (last - first) > INT32_MAX)
    return cp_builder_fail(b, err, PAIMON_EINVAL,
                           "list offsets would overflow int32 (use large_list)");
  int64_t base = child->length - first;
  CP_RETURN_IF_ERROR(cp_builder_append_view(child, &v->children[0], first, last - first, err));
  return append_offsets(b, v, k0, n, base, err);
}

int cp_builder_append_view(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                           paimon_error *err) {
  if (start < 0 || n < 0 || start > v->length || n > v->length - start)
    return cp_builder_fail(b, err, PAIMON_EINVAL, "rows [%lld, %lld) are outside a view of %lld",
                           (long long)start, (long long)(start + n), (long long)v->length);
  if (n == 0) return PAIMON_OK;
  if (v->type.id == CP_ARROW_NA) return cp_builder_append_nulls(b, n, err);
  if (!same_value_type(&b->type, &v->type) || b->n_children != v->n_children)
    return cp_builder_fail(b, err, PAIMON_EINVAL, "cannot append %s rows to a %s column",
                           cp_arrow_type_name(v->type.id), cp_arrow_type_name(b->type.id));
  int64_t k0 = v->offset + start;
  const cp_arrow_type_info *t = &b->type;
  switch (t->id) {
  case CP_ARROW_BOOL:
  case CP_ARROW_INT8:
  case CP_ARROW_UINT8:
  case CP_ARROW_INT16:
  case CP_ARROW_UINT16:
  case CP_ARROW_INT32:
  case CP_ARROW_UINT32:
  case CP_ARROW_INT64:
  case CP_ARROW_UINT64:
  case CP_ARROW_FLOAT:
  case CP_ARROW_DOUBLE:
  case CP_ARROW_DECIMAL128:
  case CP_ARROW_FIXED_SIZE_BINARY:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP:
    return cp_builder_append_values(b, v->values.data, k0, n, v->validity, k0, err);
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY: CP_RETURN_IF_ERROR(append_var_binary(b, v, k0, n, err)); break;
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_MAP: CP_RETURN_IF_ERROR(append_list(b, v, k0, n, err)); break;
  case CP_ARROW_FIXED_SIZE_LIST: {
    int64_t size = t->list_size;
    CP_RETURN_IF_ERROR(
        cp_builder_append_view(b->children[0], &v->children[0], k0 * size, n * size, err));
    break;
  }
  case CP_ARROW_STRUCT:
    for (int64_t i = 0; i < b->n_children; i++)
      CP_RETURN_IF_ERROR(cp_builder_append_view(b->children[i], &v->children[i], start, n, err));
    break;
  default:
    return cp_builder_fail(b, err, PAIMON_EUNSUPPORTED, "cannot append %s rows",
                           cp_arrow_type_name(t->id));
  }
  CP_RETURN_IF_ERROR(cp_builder_put_validity(b, v->validity, k0, n, err));
  b->length += n;
  return PAIMON_OK;
}
