/*
 * Column-chunk statistics for readers (reader.h; spec/parquet.md §2.9 "Reading", §4 P6–P8, P20):
 * decoded to Paimon datums for predicate pruning, and rendered as text for the CLI.
 *
 * Which bounds are trusted: min_value/max_value when the file declares TYPE_ORDER for the column
 * (files without column_orders get their min_value/max_value ignored, as Arrow does); otherwise
 * the deprecated min/max, but only for columns whose order is signed — never for byte arrays
 * (old writers compared them signed), unsigned integers or INT96 (undefined order). NaN bounds
 * are dropped (§2.9, P20).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/status.h"
#include "base/time.h"
#include "format/parquet/reader.h"

typedef __int128 i128;

static uint64_t le_bytes(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

static bool is_decimal(const cp_pq_schema_element *e, int32_t *scale) {
  if (e->logical_type.kind == CP_PQ_LT_DECIMAL) {
    *scale = e->logical_type.decimal.scale;
    return true;
  }
  if (e->logical_type.kind == CP_PQ_LT_NONE && e->converted_type.is_set &&
      e->converted_type.value == CP_PQ_CT_DECIMAL) {
    *scale = e->scale.is_set ? e->scale.value : 0;
    return true;
  }
  return false;
}

static bool is_unsigned_int(const cp_pq_schema_element *e) {
  if (e->logical_type.kind == CP_PQ_LT_INTEGER) return !e->logical_type.integer.is_signed;
  if (e->logical_type.kind != CP_PQ_LT_NONE || !e->converted_type.is_set) return false;
  int ct = e->converted_type.value;
  return ct >= CP_PQ_CT_UINT_8 && ct <= CP_PQ_CT_UINT_64;
}

/* Whether the deprecated min/max fields hold signed-order bounds for this column. */
static bool signed_order(const cp_pq_schema_element *e) {
  int32_t scale;
  switch (e->type.value) {
  case CP_PQ_INT96: return false;
  case CP_PQ_BYTE_ARRAY:
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: return false;
  case CP_PQ_INT32:
  case CP_PQ_INT64: return !is_unsigned_int(e) || is_decimal(e, &scale);
  default: return true;
  }
}

/* Picks the trusted (min, max) bytes of a chunk; false when there are none. */
static bool pick_bounds(const cp_pq_footer *ft, int32_t leaf, const cp_pq_statistics *st,
                        const cp_pq_opt_bytes **min, const cp_pq_opt_bytes **max) {
  const cp_pq_file_meta *m = &ft->meta;
  const cp_pq_schema_element *e = ft->schema.leaves[leaf]->element;
  bool type_order = m->column_orders && (uint32_t)leaf < m->num_column_orders &&
                    m->column_orders[leaf] == CP_PQ_ORDER_TYPE_DEFINED;
  if (type_order && st->min_value.is_set && st->max_value.is_set) {
    *min = &st->min_value;
    *max = &st->max_value;
    return e->type.value != CP_PQ_INT96;
  }
  if (st->min.is_set && st->max.is_set && signed_order(e)) {
    *min = &st->min;
    *max = &st->max;
    return true;
  }
  return false;
}

static int stat_err(const cp_pq_schema_node *leaf, const cp_type *type, const char *why,
                    paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "column '%s': statistics of a %s column %s %s",
                          leaf->path_str, cp_pq_type_name(leaf->element->type.value), why,
                          cp_type_kind_name(type->kind));
}

static int time_unit_of(const cp_pq_schema_element *e) {
  const cp_pq_logical_type *lt = &e->logical_type;
  if (lt->kind == CP_PQ_LT_TIMESTAMP || lt->kind == CP_PQ_LT_TIME) return lt->time.unit;
  if (lt->kind != CP_PQ_LT_NONE || !e->converted_type.is_set) return 0;
  switch (e->converted_type.value) {
  case CP_PQ_CT_TIMESTAMP_MILLIS:
  case CP_PQ_CT_TIME_MILLIS: return CP_PQ_MILLIS;
  case CP_PQ_CT_TIMESTAMP_MICROS:
  case CP_PQ_CT_TIME_MICROS: return CP_PQ_MICROS;
  default: return 0;
  }
}

static int64_t floor_div(int64_t v, int64_t d) {
  int64_t q = v / d;
  return (v % d != 0 && v < 0) ? q - 1 : q;
}

/* An integer-valued statistic (INT32 sign-extended, INT64). */
static bool int_value(const cp_pq_schema_element *e, const cp_pq_opt_bytes *b, int64_t *v) {
  if (e->type.value == CP_PQ_INT32 && b->len == 4) {
    *v = (int32_t)le_bytes(b->data, 4);
    return true;
  }
  if (e->type.value == CP_PQ_INT64 && b->len == 8) {
    *v = (int64_t)le_bytes(b->data, 8);
    return true;
  }
  return false;
}

static bool decimal_value(const cp_pq_schema_element *e, const cp_pq_opt_bytes *b, int target_scale,
                          cp_datum *d) {
  int32_t scale;
  if (!is_decimal(e, &scale) || scale > target_scale) return false;
  i128 v;
  int64_t iv;
  if (int_value(e, b, &iv)) {
    v = iv;
  } else if ((e->type.value == CP_PQ_BYTE_ARRAY || e->type.value == CP_PQ_FIXED_LEN_BYTE_ARRAY) &&
             b->len >= 1 && b->len <= 16) {
    unsigned __int128 u = (b->data[0] & 0x80) ? ~(unsigned __int128)0 : 0;
    for (uint32_t i = 0; i < b->len; i++) u = (u << 8) | b->data[i];
    v = (i128)u;
  } else {
    return false;
  }
  for (int k = scale; k < target_scale; k++) {
    if (v > ((i128)1 << 120) || v < -((i128)1 << 120)) return false;
    v *= 10;
  }
  d->v.dec = v;
  return true;
}

static bool timestamp_value(const cp_pq_schema_element *e, const cp_pq_opt_bytes *b, cp_datum *d) {
  int unit = time_unit_of(e);
  int64_t v;
  if (e->type.value != CP_PQ_INT64 || unit < CP_PQ_MILLIS || !int_value(e, b, &v)) return false;
  int64_t per_milli = unit == CP_PQ_MILLIS ? 1 : unit == CP_PQ_MICROS ? 1000 : 1000000;
  d->v.ts.millis = floor_div(v, per_milli);
  d->v.ts.nanos_of_milli = (int32_t)((v - d->v.ts.millis * per_milli) * (1000000 / per_milli));
  return true;
}

/* Decodes one bound for Paimon type `t`; false when this column/type pair has no usable bound
 * (which is not an error: pruning just cannot use it). */
static bool decode_bound(const cp_pq_schema_element *e, const cp_type *t, const cp_pq_opt_bytes *b,
                         cp_datum *d) {
  d->is_null = false;
  int64_t iv;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN:
    if (e->type.value != CP_PQ_BOOLEAN || b->len < 1) return false;
    d->v.b = b->data[0] & 1;
    return true;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
    if (!int_value(e, b, &iv)) return false;
    d->v.i64 = iv;
    return true;
  case CP_TYPE_TIME: {
    int unit = time_unit_of(e);
    if (!int_value(e, b, &iv)) return false;
    d->v.i64 = unit == CP_PQ_MICROS  ? floor_div(iv, 1000)
               : unit == CP_PQ_NANOS ? floor_div(iv, 1000000)
                                     : iv;
    return true;
  }
  case CP_TYPE_FLOAT:
    if (e->type.value != CP_PQ_FLOAT || b->len != 4) return false;
    memcpy(&d->v.f32, b->data, 4);
    return !isnan(d->v.f32);
  case CP_TYPE_DOUBLE:
    if (e->type.value == CP_PQ_FLOAT && b->len == 4) {
      float f;
      memcpy(&f, b->data, 4);
      d->v.f64 = f;
    } else if (e->type.value == CP_PQ_DOUBLE && b->len == 8) {
      memcpy(&d->v.f64, b->data, 8);
    } else {
      return false;
    }
    return !isnan(d->v.f64);
  case CP_TYPE_DECIMAL: return decimal_value(e, b, t->scale, d);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return timestamp_value(e, b, d);
  default:
    if (e->type.value != CP_PQ_BYTE_ARRAY && e->type.value != CP_PQ_FIXED_LEN_BYTE_ARRAY)
      return false;
    d->v.bytes.data = b->data;
    d->v.bytes.len = b->len;
    return true;
  }
}

static bool type_fits(const cp_pq_schema_element *e, const cp_type *t) {
  int p = e->type.value;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return p == CP_PQ_BOOLEAN;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_DATE: return p == CP_PQ_INT32;
  case CP_TYPE_BIGINT: return p == CP_PQ_INT32 || p == CP_PQ_INT64;
  case CP_TYPE_TIME: return p == CP_PQ_INT32 || p == CP_PQ_INT64;
  case CP_TYPE_FLOAT: return p == CP_PQ_FLOAT;
  case CP_TYPE_DOUBLE: return p == CP_PQ_FLOAT || p == CP_PQ_DOUBLE;
  case CP_TYPE_DECIMAL: return p != CP_PQ_BOOLEAN && p != CP_PQ_FLOAT && p != CP_PQ_DOUBLE;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return p == CP_PQ_INT64 || p == CP_PQ_INT96;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: return p == CP_PQ_BYTE_ARRAY || p == CP_PQ_FIXED_LEN_BYTE_ARRAY;
  default: return true; /* nested: null count only */
  }
}

int cp_pq_chunk_stats_get(const cp_pq_footer *ft, int32_t rg, int32_t leaf, const cp_type *type,
                          cp_pq_chunk_stats *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  out->min = out->max = cp_datum_null();
  if (rg < 0 || (uint32_t)rg >= ft->meta.num_row_groups || leaf < 0 ||
      (uint32_t)leaf >= ft->schema.num_leaves)
    return paimon_error_set(err, PAIMON_EINVAL, "no column chunk %d in row group %d", (int)leaf,
                            (int)rg);
  const cp_pq_schema_node *node = ft->schema.leaves[leaf];
  if (!type_fits(node->element, type)) return stat_err(node, type, "cannot be read as", err);
  const cp_pq_column_meta *cm = &ft->meta.row_groups[rg].columns[leaf].meta_data;
  out->num_values = cm->num_values;
  if (!cm->has_statistics) return PAIMON_OK;
  const cp_pq_statistics *st = &cm->statistics;
  out->has_null_count = st->null_count.is_set;
  out->null_count = st->null_count.value;
  if (cp_type_is_nested(type) || node->max_rep > 0) return PAIMON_OK;
  const cp_pq_opt_bytes *min, *max;
  if (!pick_bounds(ft, leaf, st, &min, &max)) return PAIMON_OK;
  cp_datum lo, hi;
  if (decode_bound(node->element, type, min, &lo) && decode_bound(node->element, type, max, &hi)) {
    out->has_min_max = true;
    out->min = lo;
    out->max = hi;
  }
  return PAIMON_OK;
}

int cp_pq_reader_column_stats(const cp_pq_reader *r, int32_t rg, const char *column,
                              const cp_type *type, cp_pq_chunk_stats *out, paimon_error *err) {
  const cp_pq_footer *ft = cp_pq_reader_footer(r);
  const cp_pq_schema_node *n = cp_pq_schema_find_column(&ft->schema, column);
  if (!n) return paimon_error_set(err, PAIMON_ENOTFOUND, "column '%s' is not in the file", column);
  while (n->num_children > 0) n = n->children[0];
  return cp_pq_chunk_stats_get(ft, rg, n->leaf_index, type, out, err);
}

/* ---- text for the CLI --------------------------------------------------------------------------
 */

static int append_escaped(cp_buf *out, const uint8_t *p, uint32_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(out, "\"", 1, err));
  for (uint32_t i = 0; i < n; i++) {
    uint8_t c = p[i];
    if (c == '"' || c == '\\')
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "\\%c", c));
    else if (c < 0x20 || c == 0x7f)
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "\\x%02x", c));
    else
      CP_RETURN_IF_ERROR(cp_buf_append(out, &c, 1, err));
  }
  return cp_buf_append(out, "\"", 1, err);
}

static int append_hex(cp_buf *out, const uint8_t *p, uint32_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "0x"));
  for (uint32_t i = 0; i < n; i++) CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%02X", p[i]));
  return PAIMON_OK;
}

static int append_decimal(cp_buf *out, i128 v, int32_t scale, paimon_error *err) {
  char digits[64];
  int n = 0;
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
  do {
    digits[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u && n < 60);
  while (n <= scale && n < 60) digits[n++] = '0';
  if (neg) CP_RETURN_IF_ERROR(cp_buf_append(out, "-", 1, err));
  for (int i = n - 1; i >= 0; i--) {
    CP_RETURN_IF_ERROR(cp_buf_append(out, &digits[i], 1, err));
    if (i == scale && scale > 0) CP_RETURN_IF_ERROR(cp_buf_append(out, ".", 1, err));
  }
  return PAIMON_OK;
}

static int int_text(const cp_pq_schema_element *e, int64_t v, cp_buf *out, paimon_error *err) {
  const cp_pq_logical_type *lt = &e->logical_type;
  int ct = e->converted_type.is_set ? e->converted_type.value : -1;
  int unit = time_unit_of(e);
  if (lt->kind == CP_PQ_LT_DATE || ct == CP_PQ_CT_DATE) {
    char s[CP_DATE_STR_MAX];
    cp_format_date(v, s);
    return cp_buf_appendf(out, err, "%s", s);
  }
  if ((lt->kind == CP_PQ_LT_TIMESTAMP || ct == CP_PQ_CT_TIMESTAMP_MILLIS ||
       ct == CP_PQ_CT_TIMESTAMP_MICROS) &&
      unit) {
    char s[CP_TIMESTAMP_STR_MAX];
    cp_format_timestamp(v,
                        unit == CP_PQ_MILLIS   ? CP_UNIT_MILLI
                        : unit == CP_PQ_MICROS ? CP_UNIT_MICRO
                                               : CP_UNIT_NANO,
                        CP_FRAC_TRIM, s);
    return cp_buf_appendf(out, err, "%s", s);
  }
  if (is_unsigned_int(e))
    return cp_buf_appendf(
        out, err, "%llu",
        (unsigned long long)(e->type.value == CP_PQ_INT32 ? (uint32_t)v : (uint64_t)v));
  return cp_buf_appendf(out, err, "%lld", (long long)v);
}

int cp_pq_stat_value_to_text(const cp_pq_schema_node *leaf, const uint8_t *data, uint32_t len,
                             cp_buf *out, paimon_error *err) {
  const cp_pq_schema_element *e = leaf->element;
  cp_pq_opt_bytes b = {true, len, data};
  int32_t scale;
  if (is_decimal(e, &scale)) {
    cp_datum d;
    if (decimal_value(e, &b, scale, &d)) return append_decimal(out, d.v.dec, scale, err);
    return append_hex(out, data, len, err);
  }
  int64_t iv;
  switch (e->type.value) {
  case CP_PQ_BOOLEAN:
    return cp_buf_appendf(out, err, "%s", len && (data[0] & 1) ? "true" : "false");
  case CP_PQ_INT32:
  case CP_PQ_INT64:
    if (int_value(e, &b, &iv)) return int_text(e, iv, out, err);
    break;
  case CP_PQ_FLOAT:
    if (len == 4) {
      float f;
      memcpy(&f, data, 4);
      return cp_buf_appendf(out, err, "%.9g", (double)f);
    }
    break;
  case CP_PQ_DOUBLE:
    if (len == 8) {
      double f;
      memcpy(&f, data, 8);
      return cp_buf_appendf(out, err, "%.17g", f);
    }
    break;
  case CP_PQ_BYTE_ARRAY: {
    int k = e->logical_type.kind;
    int ct = e->converted_type.is_set ? e->converted_type.value : -1;
    if (k == CP_PQ_LT_STRING || k == CP_PQ_LT_ENUM || k == CP_PQ_LT_JSON || ct == CP_PQ_CT_UTF8 ||
        ct == CP_PQ_CT_ENUM || ct == CP_PQ_CT_JSON)
      return append_escaped(out, data, len, err);
    break;
  }
  default: break;
  }
  return append_hex(out, data, len, err);
}
