/*
 * Row selection on Arrow arrays (ops.h): zero-copy slice, take, filter, concat.
 *
 * Everything is expressed as "append a run of rows of a view to a builder"
 * (cp_builder_append_view), which handles every type and nesting; the loops here only find runs.
 * Take has gather fast paths for fixed-width and string/binary columns, where per-row calls would
 * dominate.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/builder_internal.h"
#include "arrow/ops.h"
#include "base/status.h"

int cp_array_slice(struct ArrowArray *a, int64_t offset, int64_t length, struct ArrowArray *out,
                   paimon_error *err) {
  out->release = NULL;
  if (offset < 0 || length < 0 || offset > a->length || length > a->length - offset)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "slice [%lld, %lld) is outside an array of %lld rows",
                            (long long)offset, (long long)(offset + length), (long long)a->length);
  CP_RETURN_IF_ERROR(cp_array_share(a, out, err));
  return cp_array_slice_inplace(out, offset, length, err);
}

static int builder_for(cp_builder **b, const cp_array_view *v, paimon_error *err) {
  int rc = cp_builder_create(b, v->schema, err);
  if (rc != 0) paimon_error_prefix(err, "column '%s'", v->name);
  return rc;
}

/* ---- take --------------------------------------------------------------------------------- */

/* Validity of the taken rows: copied bit by bit from the source, negative indices null. */
static int take_validity(cp_builder *b, const cp_array_view *v, const int64_t *idx, int64_t n,
                         paimon_error *err) {
  bool any_null = false;
  for (int64_t k = 0; k < n && !any_null; k++) any_null = idx[k] < 0 || cp_view_is_null(v, idx[k]);
  if (!any_null) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_builder_validity_reserve(b, n, err));
  for (int64_t k = 0; k < n; k++) {
    bool valid = idx[k] >= 0 && !cp_view_is_null(v, idx[k]);
    cp_bit_set_to(b->validity.data, b->length + k, valid);
    b->null_count += !valid;
  }
  return PAIMON_OK;
}

static int take_fixed(cp_builder *b, const cp_array_view *v, const int64_t *idx, int64_t n,
                      paimon_error *err) {
  int64_t w = v->type.byte_width;
  CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, n * w, err));
  uint8_t *dst = b->values.data + b->values.len;
  const uint8_t *src = v->values.u8;
  int64_t off = v->offset;
#define GATHER(T)                                                                                  \
  for (int64_t k = 0; k < n; k++)                                                                  \
    ((T *)dst)[k] = idx[k] < 0 ? (T)0 : ((const T *)src)[off + idx[k]];
  switch (w) {
  case 1: GATHER(uint8_t); break;
  case 2: GATHER(uint16_t); break;
  case 4: GATHER(uint32_t); break;
  case 8: GATHER(uint64_t); break;
  default:
    for (int64_t k = 0; k < n; k++) {
      if (idx[k] < 0)
        memset(dst + k * w, 0, (size_t)w);
      else
        memcpy(dst + k * w, src + (off + idx[k]) * w, (size_t)w);
    }
  }
#undef GATHER
  b->values.len += n * w;
  CP_RETURN_IF_ERROR(take_validity(b, v, idx, n, err));
  b->length += n;
  return PAIMON_OK;
}

static int take_bool(cp_builder *b, const cp_array_view *v, const int64_t *idx, int64_t n,
                     paimon_error *err) {
  int64_t need = cp_bitmap_bytes(b->length + n);
  CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, need - b->values.len, err));
  for (int64_t k = 0; k < n; k++)
    cp_bit_set_to(b->values.data, b->length + k, idx[k] >= 0 && cp_view_get_bool(v, idx[k]));
  b->values.len = need;
  CP_RETURN_IF_ERROR(take_validity(b, v, idx, n, err));
  b->length += n;
  return PAIMON_OK;
}

static int take_var_binary(cp_builder *b, const cp_array_view *v, const int64_t *idx, int64_t n,
                           paimon_error *err) {
  int w = cp_builder_offset_width(&b->type);
  CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->values, n * w, err));
  /* Pass 1: the offsets, straight into the reserved offsets buffer. */
  int64_t pos = b->data.len, len;
  uint8_t *o = b->values.data + b->values.len;
  for (int64_t k = 0; k < n; k++) {
    if (idx[k] >= 0) cp_view_get_bytes(v, idx[k], &len), pos += len;
    if (w == 8) {
      memcpy(o + 8 * k, &pos, 8);
    } else {
      if (pos > INT32_MAX)
        return cp_builder_fail(b, err, PAIMON_EINVAL,
                               "%s offsets overflow int32 at row %lld (use the large_ variant)",
                               cp_arrow_type_name(b->type.id), (long long)(b->length + k));
      int32_t p32 = (int32_t)pos;
      memcpy(o + 4 * k, &p32, 4);
    }
  }
  /* Pass 2: the bytes. */
  CP_RETURN_IF_ERROR(cp_abuf_reserve(&b->data, pos - b->data.len, err));
  b->values.len += n * w;
  for (int64_t k = 0; k < n; k++) {
    if (idx[k] < 0) continue;
    const uint8_t *p = cp_view_get_bytes(v, idx[k], &len);
    if (len) memcpy(b->data.data + b->data.len, p, (size_t)len);
    b->data.len += len;
  }
  CP_RETURN_IF_ERROR(take_validity(b, v, idx, n, err));
  b->length += n;
  return PAIMON_OK;
}

/* Nested and other types: runs of consecutive indices become one append each. */
static int take_runs(cp_builder *b, const cp_array_view *v, const int64_t *idx, int64_t n,
                     paimon_error *err) {
  int64_t k = 0;
  while (k < n) {
    int64_t run = 1;
    if (idx[k] < 0) {
      while (k + run < n && idx[k + run] < 0) run++;
      CP_RETURN_IF_ERROR(cp_builder_append_nulls(b, run, err));
    } else {
      while (k + run < n && idx[k + run] == idx[k] + run) run++;
      CP_RETURN_IF_ERROR(cp_builder_append_view(b, v, idx[k], run, err));
    }
    k += run;
  }
  return PAIMON_OK;
}

int cp_take(const cp_array_view *v, const int64_t *indices, int64_t n, struct ArrowArray *out,
            paimon_error *err) {
  out->release = NULL;
  if (n < 0) return paimon_error_set(err, PAIMON_EINVAL, "negative take length");
  for (int64_t k = 0; k < n; k++)
    if (indices[k] >= v->length)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "column '%s': take index %lld at position %lld is beyond %lld rows",
                              v->name, (long long)indices[k], (long long)k, (long long)v->length);
  cp_builder *b;
  CP_RETURN_IF_ERROR(builder_for(&b, v, err));
  int rc = PAIMON_OK;
  if (n == 0)
    ; /* nothing to gather; finish the empty builder */
  else if (v->type.id == CP_ARROW_BOOL)
    rc = take_bool(b, v, indices, n, err);
  else if (v->type.byte_width > 0)
    rc = take_fixed(b, v, indices, n, err);
  else if (cp_arrow_type_is_var_binary(v->type.id))
    rc = take_var_binary(b, v, indices, n, err);
  else
    rc = take_runs(b, v, indices, n, err);
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

/* ---- filter ------------------------------------------------------------------------------- */

/* Position of the first bit equal to `want` in bits[from, end), or `end`. Skips whole bytes. */
static int64_t next_bit(const uint8_t *bits, int64_t base, int64_t from, int64_t end, bool want) {
  uint8_t skip = want ? 0x00 : 0xff;
  int64_t i = from;
  while (i < end) {
    int64_t p = base + i;
    if ((p & 7) == 0 && end - i >= 8 && bits[p >> 3] == skip) {
      i += 8;
      continue;
    }
    if (cp_bit_get(bits, p) == want) return i;
    i++;
  }
  return end;
}

/* The selected row numbers, for flat types: gathering them beats per-run appends when runs are
 * short, which is the common case for predicate results. */
static int filter_by_gather(const cp_array_view *v, const uint8_t *selection, int64_t sel_off,
                            int64_t selected, struct ArrowArray *out, paimon_error *err) {
  int64_t *idx = malloc((size_t)(selected > 0 ? selected : 1) * sizeof *idx);
  if (!idx) return CP_ENOMEM(err, "filter indices");
  int64_t k = 0, i = 0, n = v->length;
  while (i < n) {
    if (((sel_off + i) & 7) == 0 && n - i >= 8) {
      uint8_t byte = selection[(sel_off + i) >> 3];
      while (byte) {
        idx[k++] = i + __builtin_ctz(byte);
        byte &= (uint8_t)(byte - 1);
      }
      i += 8;
    } else {
      if (cp_bit_get(selection, sel_off + i)) idx[k++] = i;
      i++;
    }
  }
  int rc = cp_take(v, idx, k, out, err);
  free(idx);
  return rc;
}

int cp_filter(const cp_array_view *v, const uint8_t *selection, int64_t selection_offset,
              struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  int64_t selected = cp_bitmap_count_set(selection, selection_offset, v->length);
  if (!cp_arrow_type_is_nested(v->type.id) && v->type.id != CP_ARROW_NA)
    return filter_by_gather(v, selection, selection_offset, selected, out, err);
  cp_builder *b;
  CP_RETURN_IF_ERROR(builder_for(&b, v, err));
  int rc = cp_builder_reserve(b, selected, 0, err);
  int64_t i = 0;
  while (rc == 0 && i < v->length) {
    int64_t start = next_bit(selection, selection_offset, i, v->length, true);
    if (start >= v->length) break;
    int64_t stop = next_bit(selection, selection_offset, start, v->length, false);
    rc = cp_builder_append_view(b, v, start, stop - start, err);
    i = stop;
  }
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

int cp_filter_bool(const cp_array_view *v, const cp_array_view *selection, struct ArrowArray *out,
                   paimon_error *err) {
  out->release = NULL;
  if (selection->type.id != CP_ARROW_BOOL)
    return paimon_error_set(err, PAIMON_EINVAL, "filter selection '%s' is %s, not bool",
                            selection->name, cp_arrow_type_name(selection->type.id));
  if (selection->length != v->length)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "column '%s': filter selection has %lld rows, column has %lld", v->name,
                            (long long)selection->length, (long long)v->length);
  int64_t n = v->length;
  uint8_t *sel = malloc((size_t)cp_bitmap_bytes(n) + 1);
  if (!sel) return CP_ENOMEM(err, "filter selection");
  cp_bitmap_copy(sel, 0, selection->values.u8, selection->offset, n);
  if (selection->validity) {
    /* null selects nothing: AND the values with the validity bitmap, a byte at a time */
    uint8_t *valid = malloc((size_t)cp_bitmap_bytes(n) + 1);
    if (!valid) {
      free(sel);
      return CP_ENOMEM(err, "filter selection");
    }
    cp_bitmap_copy(valid, 0, selection->validity, selection->offset, n);
    for (int64_t k = 0; k < cp_bitmap_bytes(n); k++) sel[k] &= valid[k];
    free(valid);
  }
  int rc = cp_filter(v, sel, 0, out, err);
  free(sel);
  return rc;
}

/* ---- concat ------------------------------------------------------------------------------- */

int cp_concat(const cp_array_view *views, int64_t n, struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  if (n <= 0) return paimon_error_set(err, PAIMON_EINVAL, "concat of %lld arrays", (long long)n);
  cp_builder *b;
  CP_RETURN_IF_ERROR(builder_for(&b, &views[0], err));
  int64_t rows = 0;
  for (int64_t k = 0; k < n; k++) rows += views[k].length;
  int rc = cp_builder_reserve(b, rows, 0, err);
  for (int64_t k = 0; rc == 0 && k < n; k++) {
    rc = cp_builder_append_view(b, &views[k], 0, views[k].length, err);
    if (rc != 0) paimon_error_prefix(err, "concat input %lld", (long long)k);
  }
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}
