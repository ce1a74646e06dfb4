/*
 * Avro data-file writer (data_file.h): Arrow batches -> Avro records, encoded straight from the
 * Arrow views into the container's block buffer, as Java's FieldWriterFactory encodes rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "base/status.h"
#include "format/avro/binary.h"
#include "format/avro/container.h"
#include "format/avro/data_file.h"
#include "types/datum_arrow.h"

/* Java's DataFileConstants.DEFAULT_SYNC_INTERVAL. */
#define DATA_SYNC_INTERVAL 64000

typedef struct col_stats {
  cp_avro_column_stats out;
  bool bounds; /* atomic: min/max are collected */
  cp_buf min_bytes, max_bytes;
} col_stats;

struct cp_avro_dw {
  char *path;
  const cp_type *row;
  cp_avro_schema *schema;
  cp_avro_writer *w;
  cp_buf rec;   /* one batch's encoded records */
  size_t *ends; /* where each of them ends in rec */
  int64_t cap_ends;
  col_stats *stats;
  cp_avro_column_stats *out_stats;
  int64_t rows;
};

static bool is_atomic(const cp_type *t) {
  return !cp_type_is_nested(t) && t->kind != CP_TYPE_VARIANT;
}

int cp_avro_dw_open(cp_avro_dw **out, cp_wfile *file, const char *path, const cp_type *row,
                    const cp_avro_dw_options *opts, paimon_error *err) {
  *out = NULL;
  cp_avro_dw *w = calloc(1, sizeof *w);
  if (!w) return CP_ENOMEM(err, "Avro writer");
  w->row = row;
  w->path = strdup(path ? path : "Avro data file");
  w->stats = calloc(row->n_fields ? row->n_fields : 1, sizeof *w->stats);
  w->out_stats = calloc(row->n_fields ? row->n_fields : 1, sizeof *w->out_stats);
  cp_buf json = CP_BUF_INIT;
  int rc = w->path && w->stats && w->out_stats ? 0 : CP_ENOMEM(err, "Avro writer");
  if (!rc) rc = cp_avro_data_schema_json(row, &json, err);
  if (!rc) rc = cp_avro_schema_parse(&w->schema, (const char *)json.data, json.len, w->path, err);
  for (size_t i = 0; !rc && i < row->n_fields; i++) {
    w->stats[i].bounds = is_atomic(row->fields[i].type);
    w->stats[i].out.min = w->stats[i].out.max = cp_datum_null();
  }
  if (!rc) {
    cp_avro_writer_options o;
    memset(&o, 0, sizeof o);
    o.codec = opts && opts->codec ? opts->codec : "null";
    o.level = opts ? opts->level : 0;
    o.sync_interval = DATA_SYNC_INTERVAL;
    rc = cp_avro_writer_new_file(&w->w, file, w->path, w->schema, &o, err);
  }
  cp_buf_free(&json);
  if (rc) {
    cp_avro_dw_free(w);
    return rc;
  }
  *out = w;
  return 0;
}

/* ---- encoding ---- */

/* The unscaled value as Java's BigInteger.toByteArray: minimal big-endian two's complement. */
static int write_decimal(cp_buf *out, cp_int128 v, paimon_error *err) {
  uint8_t be[16];
  size_t n = cp_decimal_to_be_bytes(v, be);
  return cp_avro_write_bytes(out, be, n, err);
}

static int encode(const cp_type *t, const cp_array_view *v, int64_t i, const char *name,
                  cp_buf *out, paimon_error *err);

static int encode_items(const cp_type *t, const cp_array_view *items, int64_t start, int64_t end,
                        const char *name, cp_buf *out, paimon_error *err) {
  if (end > start) {
    CP_RETURN_IF_ERROR(cp_avro_write_long(out, end - start, err));
    for (int64_t k = start; k < end; k++) CP_RETURN_IF_ERROR(encode(t, items, k, name, out, err));
  }
  return cp_avro_write_long(out, 0, err);
}

static int encode_map(const cp_type *key, const cp_type *value, const cp_array_view *v, int64_t i,
                      const char *name, cp_buf *out, paimon_error *err) {
  int64_t start, end;
  cp_view_list_range(v, i, &start, &end);
  const cp_array_view *keys = cp_view_map_keys(v), *values = cp_view_map_values(v);
  bool string_keys = key->kind == CP_TYPE_CHAR || key->kind == CP_TYPE_VARCHAR;
  if (end > start) CP_RETURN_IF_ERROR(cp_avro_write_long(out, end - start, err));
  for (int64_t k = start; k < end; k++) {
    if (string_keys) {
      if (cp_view_is_null(keys, k))
        return paimon_error_set(err, PAIMON_EINVAL, "column %s: a map key is NULL", name);
      int64_t len;
      const uint8_t *data = cp_view_get_bytes(keys, k, &len);
      CP_RETURN_IF_ERROR(cp_avro_write_bytes(out, data, (size_t)len, err));
    } else {
      CP_RETURN_IF_ERROR(encode(key, keys, k, name, out, err));
    }
    CP_RETURN_IF_ERROR(encode(value, values, k, name, out, err));
  }
  return cp_avro_write_long(out, 0, err);
}

static int encode(const cp_type *t, const cp_array_view *v, int64_t i, const char *name,
                  cp_buf *out, paimon_error *err) {
  static const cp_type int_not_null = {.kind = CP_TYPE_INT, .nullable = false};
  bool null = cp_view_is_null(v, i);
  if (t->nullable) {
    CP_RETURN_IF_ERROR(cp_avro_write_long(out, null ? 0 : 1, err));
    if (null) return 0;
  } else if (null) {
    return paimon_error_set(err, PAIMON_EINVAL, "column %s is NOT NULL but holds a NULL", name);
  }
  cp_datum d;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return cp_avro_write_boolean(out, cp_view_get_bool(v, i), err);
  case CP_TYPE_FLOAT: return cp_avro_write_float(out, (float)cp_view_get_double(v, i), err);
  case CP_TYPE_DOUBLE: return cp_avro_write_double(out, cp_view_get_double(v, i), err);
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: {
    int64_t len;
    const uint8_t *data = cp_view_get_bytes(v, i, &len);
    return cp_avro_write_bytes(out, data, (size_t)len, err);
  }
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME:
  case CP_TYPE_DECIMAL:
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    CP_RETURN_IF_ERROR(cp_datum_from_view(t, v, i, &d, err));
    if (t->kind == CP_TYPE_DECIMAL) return write_decimal(out, d.v.dec, err);
    if (t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ) {
      int64_t x = d.v.ts.millis;
      if (t->precision > 3) x = x * 1000 + d.v.ts.nanos_of_milli / 1000;
      return cp_avro_write_long(out, x, err);
    }
    return cp_avro_write_long(out, d.v.i64, err);
  case CP_TYPE_ROW:
    for (size_t k = 0; k < t->n_fields; k++)
      CP_RETURN_IF_ERROR(
          encode(t->fields[k].type, &v->children[k], i, t->fields[k].name, out, err));
    return 0;
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR: {
    int64_t start, end;
    cp_view_list_range(v, i, &start, &end);
    return encode_items(t->element, &v->children[0], start, end, name, out, err);
  }
  case CP_TYPE_MAP: return encode_map(t->key, t->value, v, i, name, out, err);
  case CP_TYPE_MULTISET: return encode_map(t->element, &int_not_null, v, i, name, out, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column %s: type not supported in Avro",
                            name);
  }
}

/* ---- statistics (Java's SimpleStatsCollector: Comparable order) ---- */

static int keep_bytes(cp_datum *d, cp_buf *b, paimon_error *err) {
  cp_buf_clear(b);
  if (d->v.bytes.len) CP_RETURN_IF_ERROR(cp_buf_append(b, d->v.bytes.data, d->v.bytes.len, err));
  d->v.bytes.data = b->data;
  return 0;
}

/* Java's Float/Double compareTo: -0.0 below 0.0 and NaN above everything. */
static int cmp_java(const cp_type *t, const cp_datum *a, const cp_datum *b) {
  if (t->kind == CP_TYPE_FLOAT || t->kind == CP_TYPE_DOUBLE) {
    double x = t->kind == CP_TYPE_FLOAT ? a->v.f32 : a->v.f64;
    double y = t->kind == CP_TYPE_FLOAT ? b->v.f32 : b->v.f64;
    if (x == y && x == 0) return signbit(x) == signbit(y) ? 0 : signbit(x) ? -1 : 1;
  }
  return cp_datum_compare(t, a, b);
}

static int collect(cp_avro_dw *w, size_t c, const cp_array_view *v, int64_t n, paimon_error *err) {
  col_stats *s = &w->stats[c];
  const cp_type *t = w->row->fields[c].type;
  for (int64_t i = 0; i < n; i++) {
    if (cp_view_is_null(v, i)) {
      s->out.null_count++;
      continue;
    }
    if (!s->bounds) continue;
    cp_datum d;
    CP_RETURN_IF_ERROR(cp_datum_from_view(t, v, i, &d, err));
    bool bytes = t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR ||
                 t->kind == CP_TYPE_BINARY || t->kind == CP_TYPE_VARBINARY ||
                 t->kind == CP_TYPE_BLOB;
    if (s->out.min.is_null || cmp_java(t, &d, &s->out.min) < 0) {
      s->out.min = d;
      if (bytes) CP_RETURN_IF_ERROR(keep_bytes(&s->out.min, &s->min_bytes, err));
    }
    if (s->out.max.is_null || cmp_java(t, &d, &s->out.max) > 0) {
      s->out.max = d;
      if (bytes) CP_RETURN_IF_ERROR(keep_bytes(&s->out.max, &s->max_bytes, err));
    }
  }
  return 0;
}

int cp_avro_dw_write(cp_avro_dw *w, const struct ArrowSchema *schema,
                     const struct ArrowArray *batch, paimon_error *err) {
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, batch, err));
  int rc = 0;
  if (v.n_children != (int64_t)w->row->n_fields)
    rc = paimon_error_set(err, PAIMON_EINVAL, "%s: a batch of %lld columns for %zu fields", w->path,
                          (long long)v.n_children, w->row->n_fields);
  cp_buf_clear(&w->rec);
  if (!rc && v.length > w->cap_ends) {
    size_t *e = realloc(w->ends, (size_t)v.length * sizeof *e);
    if (!e)
      rc = CP_ENOMEM(err, "Avro writer");
    else {
      w->ends = e;
      w->cap_ends = v.length;
    }
  }
  for (int64_t i = 0; !rc && i < v.length; i++) {
    if (cp_view_is_null(&v, i)) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "%s: row %lld of the batch is NULL", w->path,
                            (long long)i);
      break;
    }
    for (size_t c = 0; !rc && c < w->row->n_fields; c++)
      rc = encode(w->row->fields[c].type, &v.children[c], i, w->row->fields[c].name, &w->rec, err);
    if (rc)
      paimon_error_prefix(err, "%s: row %lld", w->path, (long long)(w->rows + i));
    else
      w->ends[i] = w->rec.len;
  }
  for (size_t c = 0; !rc && c < w->row->n_fields; c++)
    rc = collect(w, c, &v.children[c], v.length, err);
  /* Records go to the container in runs of about one block, so blocks stay near the sync
   * interval whatever the batch size. */
  for (int64_t i = 0, from = 0; !rc && i < v.length; i++) {
    size_t run_start = from ? w->ends[from - 1] : 0;
    if (i + 1 < v.length && w->ends[i] - run_start < DATA_SYNC_INTERVAL) continue;
    rc = cp_avro_writer_append_encoded(w->w, w->rec.data + run_start, w->ends[i] - run_start,
                                       (size_t)(i + 1 - from), err);
    from = i + 1;
  }
  if (!rc) w->rows += v.length;
  cp_array_view_reset(&v);
  return rc;
}

uint64_t cp_avro_dw_estimated_size(const cp_avro_dw *w) { return cp_avro_writer_bytes(w->w); }

int64_t cp_avro_dw_row_count(const cp_avro_dw *w) { return w->rows; }

int cp_avro_dw_close(cp_avro_dw *w, uint64_t *file_size, const cp_avro_column_stats **stats,
                     paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_avro_writer_finish(w->w, NULL, err));
  for (size_t c = 0; c < w->row->n_fields; c++) w->out_stats[c] = w->stats[c].out;
  if (file_size) *file_size = cp_avro_writer_bytes(w->w);
  if (stats) *stats = w->out_stats;
  return 0;
}

void cp_avro_dw_free(cp_avro_dw *w) {
  if (!w) return;
  cp_avro_writer_free(w->w);
  cp_avro_schema_free(w->schema);
  for (size_t c = 0; w->stats && c < w->row->n_fields; c++) {
    cp_buf_free(&w->stats[c].min_bytes);
    cp_buf_free(&w->stats[c].max_bytes);
  }
  free(w->stats);
  free(w->out_stats);
  free(w->ends);
  cp_buf_free(&w->rec);
  free(w->path);
  free(w);
}
