/*
 * The public single-file Parquet API (include/cpaimon/parquet.h) over the reader and writer: a
 * file system for the URI, types from SQL text, field ids onto the row type, and the writer's
 * statistics copied out as paimon_value.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/stream.h"
#include "base/fs.h"
#include "base/status.h"
#include "cpaimon/parquet.h"
#include "format/parquet/reader.h"
#include "format/parquet/writer.h"
#include "types/type_sql.h"

static int open_fs(const char *uri, const char *const *keys, const char *const *values, size_t n,
                   cp_fs **out, paimon_error *err) {
  if (!uri || !*uri) return paimon_error_set(err, PAIMON_EINVAL, "parquet: no path given");
  if (n && (!keys || !values))
    return paimon_error_set(err, PAIMON_EINVAL, "%s: file-system options without keys or values",
                            uri);
  cp_fs_conf conf = {keys, values, n};
  return cp_fs_open(uri, &conf, out, err);
}

/* ---- reading ---- */

typedef struct read_request {
  cp_pq_column_request *columns;
  cp_type **types;
  size_t n;
  cp_pq_row_range *ranges;
} read_request;

static void read_request_free(read_request *rq) {
  for (size_t i = 0; rq->types && i < rq->n; i++) cp_type_free(rq->types[i]);
  free(rq->types);
  free(rq->columns);
  free(rq->ranges);
}

static int read_request_init(const char *uri, const paimon_parquet_read_options *o,
                             read_request *rq, cp_pq_reader_options *ro, paimon_error *err) {
  memset(ro, 0, sizeof *ro);
  if (o->batch_size < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: batch_size must be positive", uri);
  ro->batch_size = o->batch_size;
  if (o->num_columns && !o->columns)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: num_columns without columns", uri);
  if (o->num_row_groups && !o->row_groups)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: num_row_groups without row_groups", uri);
  if (o->num_row_ranges && !o->row_ranges)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: num_row_ranges without row_ranges", uri);
  ro->row_groups = o->row_groups;
  ro->num_row_groups = o->num_row_groups;
  if (o->columns) {
    rq->n = o->num_columns;
    rq->columns = calloc(rq->n + 1, sizeof *rq->columns);
    rq->types = calloc(rq->n + 1, sizeof *rq->types);
    if (!rq->columns || !rq->types) return paimon_error_set(err, PAIMON_ENOMEM, "%s", uri);
    for (size_t i = 0; i < rq->n; i++) {
      const paimon_parquet_column *c = &o->columns[i];
      rq->columns[i].name = c->name;
      rq->columns[i].field_id = c->field_id;
      if (c->type) {
        int rc = cp_type_parse(c->type, &rq->types[i], err);
        if (rc) return paimon_error_prefix(err, "%s: column %zu", uri, i);
        rq->columns[i].type = rq->types[i];
      }
    }
    ro->columns = rq->columns;
    ro->num_columns = rq->n;
  }
  if (o->row_ranges) {
    rq->ranges = calloc(o->num_row_ranges + 1, sizeof *rq->ranges);
    if (!rq->ranges) return paimon_error_set(err, PAIMON_ENOMEM, "%s", uri);
    for (size_t i = 0; i < o->num_row_ranges; i++) {
      rq->ranges[i].start = o->row_ranges[i].start;
      rq->ranges[i].end = o->row_ranges[i].end;
    }
    ro->row_ranges = rq->ranges;
    ro->num_row_ranges = o->num_row_ranges;
  }
  return 0;
}

int paimon_parquet_read(const char *uri, const paimon_parquet_read_options *opts,
                        struct ArrowArrayStream *out, paimon_error *err) {
  out->release = NULL;
  paimon_parquet_read_options none = {0};
  const paimon_parquet_read_options *o = opts ? opts : &none;
  read_request rq = {0};
  cp_pq_reader_options ro;
  cp_fs *fs = NULL;
  cp_pq_reader *r = NULL;
  int rc = open_fs(uri, o->fs_keys, o->fs_values, o->num_fs_options, &fs, err);
  if (rc == 0) rc = read_request_init(uri, o, &rq, &ro, err);
  if (rc == 0) rc = cp_pq_reader_open(&r, fs, uri, &ro, err);
  if (rc == 0) {
    cp_pq_reader_own_fs(r, fs); /* the stream frees the reader, the reader the fs */
    fs = NULL;
    rc = cp_pq_reader_to_stream(r, out, err);
  }
  cp_fs_free(fs);
  read_request_free(&rq);
  return rc;
}

/* ---- writing ---- */

void paimon_parquet_write_options_init(paimon_parquet_write_options *o) {
  cp_pq_writer_options d;
  cp_pq_writer_options_init(&d);
  memset(o, 0, sizeof *o);
  o->compression_level = PAIMON_PARQUET_DEFAULT_LEVEL;
  o->page_size = d.page_size;
  o->page_row_limit = d.page_row_limit;
  o->row_group_size = d.row_group_size;
  o->row_group_rows = d.row_group_rows;
  o->dictionary = d.dictionary;
  o->dictionary_page_limit = d.dictionary_page_limit;
}

static int writer_options(const char *uri, const paimon_parquet_write_options *o,
                          cp_pq_writer_options *w, paimon_error *err) {
  cp_pq_writer_options_init(w);
  if (o->codec) {
    int rc = cp_pq_writer_codec_from_name(o->codec, &w->codec, err);
    if (rc) return paimon_error_prefix(err, "%s", uri);
    if (w->codec != CP_CODEC_ZSTD) w->compression_level = 0;
  }
  if (o->compression_level != PAIMON_PARQUET_DEFAULT_LEVEL)
    w->compression_level = o->compression_level;
  if (!o->page_size || o->page_row_limit <= 0 || !o->row_group_size || o->row_group_rows <= 0 ||
      !o->dictionary_page_limit)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "%s: page and row-group sizes and limits must be positive", uri);
  w->page_size = o->page_size;
  w->page_row_limit = o->page_row_limit;
  w->row_group_size = o->row_group_size;
  w->row_group_rows = o->row_group_rows;
  w->dictionary = o->dictionary;
  w->dictionary_page_limit = o->dictionary_page_limit;
  w->created_by = o->created_by;
  return 0;
}

static size_t count_fields(const cp_type *t) {
  if (!t) return 0;
  size_t n = 0;
  for (size_t i = 0; i < t->n_fields; i++) n += 1 + count_fields(t->fields[i].type);
  return n + count_fields(t->element) + count_fields(t->key) + count_fields(t->value);
}

/* Pre-order over the whole tree, the order in which the SQL parser numbers fields. */
static void assign_all(cp_type *t, const int32_t *ids, size_t *k) {
  if (!t) return;
  for (size_t i = 0; i < t->n_fields; i++) {
    t->fields[i].id = ids[(*k)++];
    assign_all(t->fields[i].type, ids, k);
  }
  assign_all(t->element, ids, k);
  assign_all(t->key, ids, k);
  assign_all(t->value, ids, k);
}

static int apply_field_ids(const char *uri, cp_type *row, const int32_t *ids, size_t n,
                           paimon_error *err) {
  size_t total = count_fields(row);
  if (n != row->n_fields && n != total)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "%s: %zu field ids given; the type has %zu columns, %zu fields", uri, n,
                            row->n_fields, total);
  if (n == total) {
    size_t k = 0;
    assign_all(row, ids, &k);
  } else {
    for (size_t i = 0; i < n; i++) row->fields[i].id = ids[i];
  }
  return 0;
}

static int write_all(const char *uri, cp_fs *fs, struct ArrowArrayStream *data, const cp_type *row,
                     const cp_pq_writer_options *wo, cp_pq_writer **w, cp_pq_file_stats *st,
                     paimon_error *err) {
  cp_wfile *file = NULL;
  struct ArrowSchema schema;
  schema.release = NULL;
  int rc = cp_fs_create(fs, uri, CP_CREATE_OVERWRITE, &file, err);
  if (rc == 0) rc = cp_pq_writer_open(w, file, row, wo, err);
  if (rc == 0) rc = cp_stream_get_schema(data, &schema, err);
  while (rc == 0) {
    struct ArrowArray batch;
    rc = cp_stream_next(data, &batch, err);
    if (rc != 0 || !batch.release) break;
    rc = cp_pq_writer_write(*w, &schema, &batch, err);
    batch.release(&batch);
  }
  if (rc == 0) rc = cp_pq_writer_close(*w, st, err);
  if (rc == 0) {
    rc = cp_wfile_close(file, err);
    file = NULL;
  }
  if (rc != 0 && file) cp_wfile_abort(file);
  if (schema.release) schema.release(&schema);
  return rc;
}

static paimon_value value_out(const cp_datum *d, const cp_type *t, uint8_t **copy) {
  paimon_value v;
  memset(&v, 0, sizeof v);
  *copy = NULL;
  if (d->is_null) return v;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN:
    v.kind = PAIMON_VALUE_BOOLEAN;
    v.boolean = d->v.b;
    break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
    v.kind = PAIMON_VALUE_INT;
    v.i64 = d->v.i64;
    break;
  case CP_TYPE_DATE:
  case CP_TYPE_TIME:
    v.kind = t->kind == CP_TYPE_DATE ? PAIMON_VALUE_DATE : PAIMON_VALUE_TIME;
    v.i64 = d->v.i64;
    break;
  case CP_TYPE_FLOAT:
    v.kind = PAIMON_VALUE_FLOAT;
    v.f64 = d->v.f32;
    break;
  case CP_TYPE_DOUBLE:
    v.kind = PAIMON_VALUE_DOUBLE;
    v.f64 = d->v.f64;
    break;
  case CP_TYPE_DECIMAL: {
    unsigned __int128 u = (unsigned __int128)d->v.dec;
    v.kind = PAIMON_VALUE_DECIMAL;
    v.decimal_low = (uint64_t)u;
    v.decimal_high = (int64_t)(d->v.dec >> 64);
    v.decimal_scale = t->scale;
    break;
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    v.kind = t->kind == CP_TYPE_TIMESTAMP ? PAIMON_VALUE_TIMESTAMP : PAIMON_VALUE_TIMESTAMP_LTZ;
    v.millis = d->v.ts.millis;
    v.nanos_of_milli = d->v.ts.nanos_of_milli;
    break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
    *copy = malloc(d->v.bytes.len + 1);
    if (!*copy) { /* the caller sees the missing copy */
      v.kind = PAIMON_VALUE_NULL;
      return v;
    }
    if (d->v.bytes.len) memcpy(*copy, d->v.bytes.data, d->v.bytes.len);
    v.kind = (t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR) ? PAIMON_VALUE_STRING
                                                                     : PAIMON_VALUE_BINARY;
    v.bytes = *copy;
    v.len = d->v.bytes.len;
    break;
  default: break; /* nested, VARIANT, BLOB: no bounds */
  }
  return v;
}

static bool needs_copy(const cp_datum *d, const cp_type *t) {
  return !d->is_null && (t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR ||
                         t->kind == CP_TYPE_BINARY || t->kind == CP_TYPE_VARBINARY);
}

void paimon_parquet_file_stats_free(paimon_parquet_file_stats *s) {
  if (!s) return;
  for (size_t i = 0; s->columns && i < s->num_columns; i++) {
    free(s->columns[i].name);
    free((void *)s->columns[i].min.bytes);
    free((void *)s->columns[i].max.bytes);
  }
  free(s->columns);
  free(s);
}

static int stats_out(const char *uri, const cp_type *row, const cp_pq_file_stats *st,
                     paimon_parquet_file_stats **out, paimon_error *err) {
  paimon_parquet_file_stats *s = calloc(1, sizeof *s);
  if (!s) return paimon_error_set(err, PAIMON_ENOMEM, "%s: statistics", uri);
  s->num_rows = st->num_rows;
  s->file_size = st->file_size;
  s->num_row_groups = st->num_row_groups;
  s->columns = calloc(st->num_columns + 1, sizeof *s->columns);
  if (!s->columns) {
    free(s);
    return paimon_error_set(err, PAIMON_ENOMEM, "%s: statistics", uri);
  }
  s->num_columns = st->num_columns;
  for (size_t i = 0; i < st->num_columns; i++) {
    const cp_pq_column_stats *c = &st->columns[i];
    const cp_type *t = row->fields[i].type;
    paimon_parquet_column_stats *o = &s->columns[i];
    uint8_t *lo, *hi;
    o->name = strdup(row->fields[i].name);
    o->null_count = c->null_count;
    o->min = value_out(&c->min, t, &lo);
    o->max = value_out(&c->max, t, &hi);
    if (!o->name || (needs_copy(&c->min, t) && !lo) || (needs_copy(&c->max, t) && !hi)) {
      paimon_parquet_file_stats_free(s);
      return paimon_error_set(err, PAIMON_ENOMEM, "%s: statistics", uri);
    }
  }
  *out = s;
  return 0;
}

int paimon_parquet_write(const char *uri, const char *row_type, struct ArrowArrayStream *data,
                         const paimon_parquet_write_options *opts,
                         paimon_parquet_file_stats **stats, paimon_error *err) {
  if (stats) *stats = NULL;
  paimon_parquet_write_options defaults;
  paimon_parquet_write_options_init(&defaults);
  const paimon_parquet_write_options *o = opts ? opts : &defaults;
  if (!row_type || !data || !data->release)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: no row type or no data stream",
                            uri ? uri : "parquet");
  cp_type *row = NULL;
  cp_fs *fs = NULL;
  cp_pq_writer *w = NULL;
  cp_pq_writer_options wo;
  cp_pq_file_stats st;
  int rc = cp_type_parse(row_type, &row, err);
  if (rc) {
    paimon_error_prefix(err, "%s: row type", uri ? uri : "parquet");
  } else if (row->kind != CP_TYPE_ROW) {
    rc = paimon_error_set(err, PAIMON_EINVAL, "%s: the row type must be ROW<...>, not %s",
                          uri ? uri : "parquet", row_type);
  }
  if (rc == 0 && o->num_field_ids && !o->field_ids)
    rc = paimon_error_set(err, PAIMON_EINVAL, "%s: num_field_ids without field_ids", uri);
  if (rc == 0 && o->field_ids) rc = apply_field_ids(uri, row, o->field_ids, o->num_field_ids, err);
  if (rc == 0) rc = writer_options(uri, o, &wo, err);
  if (rc == 0) rc = open_fs(uri, o->fs_keys, o->fs_values, o->num_fs_options, &fs, err);
  if (rc == 0) {
    rc = write_all(uri, fs, data, row, &wo, &w, &st, err);
    if (rc && err && !strstr(err->message, uri)) paimon_error_prefix(err, "%s", uri);
  }
  if (rc == 0 && stats) {
    rc = stats_out(uri, row, &st, stats, err);
    if (rc) cp_fs_delete(fs, uri, NULL); /* out of memory: keep the promise of no file */
  }
  cp_pq_writer_free(w);
  cp_fs_free(fs);
  cp_type_free(row);
  return rc;
}
