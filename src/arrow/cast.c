/*
 * Safe casts between Arrow types (ops.h): only conversions that keep every value (integer
 * widening, integer → floating point, float → double, text ↔ bytes, offset-width changes, finer
 * time units, decimal widening, date → timestamp), recursively through nested types. Anything
 * else is refused up front with PAIMON_EUNSUPPORTED; values that still cannot be represented
 * (invalid UTF-8, a timestamp overflowing int64 when refined) fail with the column and row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/builder_internal.h"
#include "arrow/ops.h"
#include "base/status.h"

static int int_rank(cp_arrow_type t) {
  switch (t) {
  case CP_ARROW_INT8:
  case CP_ARROW_UINT8: return 1;
  case CP_ARROW_INT16:
  case CP_ARROW_UINT16: return 2;
  case CP_ARROW_INT32:
  case CP_ARROW_UINT32: return 4;
  default: return 8;
  }
}

static bool int_widening(cp_arrow_type from, cp_arrow_type to) {
  if (cp_arrow_type_is_signed_int(from))
    return cp_arrow_type_is_signed_int(to) && int_rank(to) >= int_rank(from);
  if (cp_arrow_type_is_signed_int(to)) return int_rank(to) > int_rank(from);
  return int_rank(to) >= int_rank(from);
}

static bool is_binary_like(cp_arrow_type t) {
  return cp_arrow_type_is_var_binary(t) || t == CP_ARROW_FIXED_SIZE_BINARY;
}

/* Whether a node of type `f` converts to a node of type `t` (children checked by the caller). */
static bool node_castable(const cp_arrow_type_info *f, const cp_arrow_type_info *t) {
  cp_arrow_type a = f->id, b = t->id;
  if (a == CP_ARROW_NA) return true;
  if (cp_arrow_type_is_integer(a)) {
    if (cp_arrow_type_is_integer(b)) return int_widening(a, b);
    return b == CP_ARROW_FLOAT || b == CP_ARROW_DOUBLE;
  }
  switch (a) {
  case CP_ARROW_BOOL: return b == CP_ARROW_BOOL;
  case CP_ARROW_HALF_FLOAT: return b == CP_ARROW_FLOAT || b == CP_ARROW_DOUBLE;
  case CP_ARROW_FLOAT: return b == CP_ARROW_FLOAT || b == CP_ARROW_DOUBLE;
  case CP_ARROW_DOUBLE: return b == CP_ARROW_DOUBLE;
  case CP_ARROW_DECIMAL128:
    return b == CP_ARROW_DECIMAL128 && t->scale >= f->scale &&
           t->precision - t->scale >= f->precision - f->scale;
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY: return cp_arrow_type_is_var_binary(b);
  case CP_ARROW_FIXED_SIZE_BINARY:
    return (b == CP_ARROW_FIXED_SIZE_BINARY && t->byte_width == f->byte_width) ||
           b == CP_ARROW_BINARY || b == CP_ARROW_LARGE_BINARY;
  case CP_ARROW_DATE32: return b == CP_ARROW_DATE32 || b == CP_ARROW_TIMESTAMP;
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64: return (b == CP_ARROW_TIME32 || b == CP_ARROW_TIME64) && t->unit >= f->unit;
  case CP_ARROW_TIMESTAMP: return b == CP_ARROW_TIMESTAMP && t->unit >= f->unit;
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST: return b == CP_ARROW_LIST || b == CP_ARROW_LARGE_LIST;
  case CP_ARROW_FIXED_SIZE_LIST:
    return (b == CP_ARROW_FIXED_SIZE_LIST && t->list_size == f->list_size) || b == CP_ARROW_LIST ||
           b == CP_ARROW_LARGE_LIST;
  case CP_ARROW_STRUCT: return b == CP_ARROW_STRUCT;
  case CP_ARROW_MAP: return b == CP_ARROW_MAP;
  default: return false;
  }
}

bool cp_cast_supported(const struct ArrowSchema *from, const struct ArrowSchema *to) {
  cp_arrow_type_info f, t;
  if (cp_arrow_parse_format(from->format, &f, NULL) != 0 ||
      cp_arrow_parse_format(to->format, &t, NULL) != 0)
    return false;
  if (!node_castable(&f, &t)) return false;
  if (f.id == CP_ARROW_NA) return true;
  if (from->n_children != to->n_children) return false;
  for (int64_t i = 0; i < from->n_children; i++)
    if (!cp_cast_supported(from->children[i], to->children[i])) return false;
  return true;
}

/* ---- conversion ------------------------------------------------------------------------- */

static int cast_append(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                       paimon_error *err);

/* Multiplies by `factor` with an overflow error naming the row. */
static int scale_int(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                     int64_t factor, paimon_error *err) {
  for (int64_t i = start; i < start + n; i++) {
    if (cp_view_is_null(v, i)) {
      CP_RETURN_IF_ERROR(cp_builder_append_null(b, err));
      continue;
    }
    int64_t x = cp_view_get_int64(v, i), y;
    if (__builtin_mul_overflow(x, factor, &y))
      return cp_builder_fail(b, err, PAIMON_EINVAL,
                             "value %lld at row %lld overflows when converted to %s", (long long)x,
                             (long long)i, cp_arrow_type_name(b->type.id));
    CP_RETURN_IF_ERROR(cp_builder_append_int64(b, y, err));
  }
  return PAIMON_OK;
}

static int cast_text(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                     paimon_error *err) {
  bool check_utf8 = (b->type.id == CP_ARROW_STRING || b->type.id == CP_ARROW_LARGE_STRING) &&
                    !(v->type.id == CP_ARROW_STRING || v->type.id == CP_ARROW_LARGE_STRING);
  if (check_utf8) {
    for (int64_t i = start; i < start + n; i++) {
      int64_t len, at;
      if (cp_view_is_null(v, i)) continue;
      const uint8_t *p = cp_view_get_bytes(v, i, &len);
      if (!cp_utf8_valid(p, len, &at))
        return cp_builder_fail(b, err, PAIMON_EINVAL,
                               "row %lld is not valid UTF-8 (byte %lld) and cannot become %s",
                               (long long)i, (long long)at, cp_arrow_type_name(b->type.id));
    }
  }
  int64_t k0 = v->offset + start;
  if (v->offsets32)
    return cp_builder_append_binary_run32(b, v->offsets32 + k0, v->data, n, v->validity, k0, err);
  if (v->offsets64)
    return cp_builder_append_binary_run64(b, v->offsets64 + k0, v->data, n, v->validity, k0, err);
  for (int64_t i = start; i < start + n; i++) { /* fixed_size_binary → binary */
    int64_t len;
    const uint8_t *p = cp_view_get_bytes(v, i, &len);
    if (cp_view_is_null(v, i))
      CP_RETURN_IF_ERROR(cp_builder_append_null(b, err));
    else
      CP_RETURN_IF_ERROR(cp_builder_append_bytes(b, p, len, err));
  }
  return PAIMON_OK;
}

static int cast_decimal(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                        paimon_error *err) {
  int32_t up = b->type.scale - v->type.scale;
  for (int64_t i = start; i < start + n; i++) {
    if (cp_view_is_null(v, i)) {
      CP_RETURN_IF_ERROR(cp_builder_append_null(b, err));
      continue;
    }
    cp_dec128 d = cp_view_get_decimal128(v, i);
    __int128 x = (__int128)(((unsigned __int128)(uint64_t)d.hi << 64) | d.lo);
    for (int32_t k = 0; k < up; k++) x *= 10; /* cannot overflow: precision grows with scale */
    d.lo = (uint64_t)x;
    d.hi = (int64_t)(x >> 64);
    CP_RETURN_IF_ERROR(cp_builder_append_decimal128(b, d, err));
  }
  return PAIMON_OK;
}

static int cast_numbers(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                        paimon_error *err) {
  bool to_float = b->type.id == CP_ARROW_FLOAT || b->type.id == CP_ARROW_DOUBLE;
  for (int64_t i = start; i < start + n; i++) {
    int rc;
    if (cp_view_is_null(v, i))
      rc = cp_builder_append_null(b, err);
    else if (to_float)
      rc = cp_builder_append_double(b, cp_view_get_double(v, i), err);
    else if (v->type.id == CP_ARROW_UINT64)
      rc = cp_builder_append_uint64(b, cp_view_get_uint64(v, i), err);
    else
      rc = cp_builder_append_int64(b, cp_view_get_int64(v, i), err);
    if (rc != 0) return rc;
  }
  return PAIMON_OK;
}

static int cast_temporal(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                         paimon_error *err) {
  int64_t factor;
  if (v->type.id == CP_ARROW_DATE32 && b->type.id == CP_ARROW_TIMESTAMP)
    factor = 86400 * cp_time_unit_per_second(b->type.unit);
  else if (v->type.id == CP_ARROW_DATE32)
    factor = 1;
  else
    factor = cp_time_unit_per_second(b->type.unit) / cp_time_unit_per_second(v->type.unit);
  if (factor == 1 && b->type.byte_width == v->type.byte_width) {
    int64_t k0 = v->offset + start;
    return cp_builder_append_values(b, v->values.data, k0, n, v->validity, k0, err);
  }
  return scale_int(b, v, start, n, factor, err);
}

/* Nested rows: children are converted for exactly the item ranges the rows cover. */
static int cast_nested(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                       paimon_error *err) {
  if (b->type.id == CP_ARROW_STRUCT) {
    for (int64_t k = 0; k < b->n_children; k++)
      CP_RETURN_IF_ERROR(cast_append(b->children[k], &v->children[k], start, n, err));
    CP_RETURN_IF_ERROR(cp_builder_put_validity(b, v->validity, v->offset + start, n, err));
    b->length += n;
    return PAIMON_OK;
  }
  for (int64_t i = start; i < start + n; i++) {
    if (cp_view_is_null(v, i)) {
      CP_RETURN_IF_ERROR(cp_builder_append_null(b, err));
      continue;
    }
    int64_t s, e;
    cp_view_list_range(v, i, &s, &e);
    CP_RETURN_IF_ERROR(cast_append(b->children[0], &v->children[0], s, e - s, err));
    CP_RETURN_IF_ERROR(cp_builder_end_element(b, err));
  }
  return PAIMON_OK;
}

static int cast_append(cp_builder *b, const cp_array_view *v, int64_t start, int64_t n,
                       paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  cp_arrow_type from = v->type.id, to = b->type.id;
  if (from == CP_ARROW_NA) return cp_builder_append_nulls(b, n, err);
  /* Same values, possibly other names: a straight copy. */
  bool same = from == to && !cp_arrow_type_is_nested(from) &&
              memcmp(&v->type, &b->type, sizeof v->type) == 0;
  if (same || cp_schema_equal(v->schema, b->schema, CP_SCHEMA_CMP_TYPES))
    return cp_builder_append_view(b, v, start, n, err);
  if (cp_arrow_type_is_integer(from) || cp_arrow_type_is_floating(from))
    return cast_numbers(b, v, start, n, err);
  if (is_binary_like(from)) return cast_text(b, v, start, n, err);
  if (from == CP_ARROW_DECIMAL128) return cast_decimal(b, v, start, n, err);
  if (from == CP_ARROW_DATE32 || from == CP_ARROW_TIME32 || from == CP_ARROW_TIME64 ||
      from == CP_ARROW_TIMESTAMP)
    return cast_temporal(b, v, start, n, err);
  if (cp_arrow_type_is_nested(from)) return cast_nested(b, v, start, n, err);
  return cp_builder_fail(b, err, PAIMON_EUNSUPPORTED, "cannot cast %s to %s",
                         cp_arrow_type_name(from), cp_arrow_type_name(to));
}

int cp_cast(const cp_array_view *v, const struct ArrowSchema *to, struct ArrowArray *out,
            paimon_error *err) {
  out->release = NULL;
  if (!cp_cast_supported(v->schema, to)) {
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    cp_schema_to_string(v->schema, &a, NULL);
    cp_schema_to_string(to, &b, NULL);
    cp_buf_nul_terminate(&a, NULL);
    cp_buf_nul_terminate(&b, NULL);
    paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': cannot cast %s to %s", v->name,
                     a.data ? (char *)a.data : "?", b.data ? (char *)b.data : "?");
    cp_buf_free(&a);
    cp_buf_free(&b);
    return PAIMON_EUNSUPPORTED;
  }
  cp_builder *b;
  CP_RETURN_IF_ERROR(cp_builder_create(&b, to, err));
  /* Messages should name the column being cast, whatever `to` calls it. */
  int rc = cp_builder_reserve(b, v->length, 0, err);
  if (rc == 0) rc = cast_append(b, v, 0, v->length, err);
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}
