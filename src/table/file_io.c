/* Data files of any format behind one reader and one writer (file_io.h). */
#include "table/file_io.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "format/avro/container.h"
#include "format/avro/data_file.h"
#include "meta/data_file.h"

int cp_file_format_parse(const char *value, const char *table, cp_file_format *out,
                         paimon_error *err) {
  if (strcasecmp(value, "parquet") == 0)
    *out = CP_FILE_PARQUET;
  else if (strcasecmp(value, "avro") == 0)
    *out = CP_FILE_AVRO;
  else
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "Table %s: file.format '%s' is not supported (cpaimon reads and writes "
                            "parquet and avro)",
                            table, value);
  return PAIMON_OK;
}

const char *cp_file_format_ext(cp_file_format f) { return f == CP_FILE_AVRO ? "avro" : "parquet"; }

int cp_table_file_ext(const paimon_table *t, const char **ext, paimon_error *err) {
  cp_file_format f;
  CP_RETURN_IF_ERROR(cp_file_format_parse(t->options.file_format, t->full_name, &f, err));
  *ext = cp_file_format_ext(f);
  return PAIMON_OK;
}

int cp_file_format_check_row(cp_file_format f, const cp_type *row, paimon_error *err) {
  return f == CP_FILE_AVRO ? cp_avro_data_check_row(row, err) : PAIMON_OK;
}

/* ---- writers ---- */

struct cp_file_writer {
  cp_pq_writer *pq;
  cp_avro_dw *avro;
  cp_pq_column_stats *stats; /* Avro's, in the Parquet writer's shape */
  size_t n_fields;
  bool threaded;
};

/* Java's AvroFileFormat.createCodecFactory: `avro.codec` when set, else file.compression. */
static int avro_codec(const paimon_table *t, const cp_pq_writer_options *o, cp_avro_dw_options *out,
                      paimon_error *err) {
  memset(out, 0, sizeof *out);
  const char *set = cp_options_get(&t->schema->options, "avro.codec");
  if (set) {
    cp_codec c;
    CP_RETURN_IF_ERROR(cp_avro_codec_from_name(set, &c, err));
    out->codec = strcasecmp(set, "zstd") == 0 ? "zstandard" : set;
    return PAIMON_OK;
  }
  switch (o->codec) {
  case CP_CODEC_NONE: out->codec = "null"; return PAIMON_OK;
  case CP_CODEC_SNAPPY: out->codec = "snappy"; return PAIMON_OK;
  case CP_CODEC_DEFLATE: out->codec = "deflate"; return PAIMON_OK;
  case CP_CODEC_ZSTD:
    out->codec = "zstandard";
    out->level = o->compression_level;
    return PAIMON_OK;
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "Table %s: file.compression '%s' is not an Avro codec (Avro data files "
                            "take zstd, snappy, deflate or none; or set avro.codec)",
                            t->full_name, cp_codec_name(o->codec));
  }
}

int cp_file_writer_open(cp_file_writer **out, const paimon_table *t, cp_wfile *file,
                        const char *path, const cp_type *row, const cp_pq_writer_options *opts,
                        paimon_error *err) {
  *out = NULL;
  cp_file_format f;
  CP_RETURN_IF_ERROR(cp_file_format_parse(t->options.file_format, t->full_name, &f, err));
  cp_file_writer *w = calloc(1, sizeof *w);
  if (!w) return CP_ENOMEM(err, "data file writer");
  int rc;
  if (f == CP_FILE_AVRO) {
    cp_avro_dw_options ao;
    rc = avro_codec(t, opts, &ao, err);
    w->n_fields = row->n_fields;
    w->stats = calloc(row->n_fields ? row->n_fields : 1, sizeof *w->stats);
    if (!rc && !w->stats) rc = CP_ENOMEM(err, "data file writer");
    if (!rc) rc = cp_avro_dw_open(&w->avro, file, path, row, &ao, err);
  } else {
    rc = cp_pq_writer_open(&w->pq, file, row, opts, err);
    w->threaded = opts->compress_threads > 0;
  }
  if (rc) {
    cp_file_writer_free(w);
    return rc;
  }
  *out = w;
  return PAIMON_OK;
}

int cp_file_writer_write(cp_file_writer *w, const struct ArrowSchema *schema,
                         const struct ArrowArray *batch, paimon_error *err) {
  return w->avro ? cp_avro_dw_write(w->avro, schema, batch, err)
                 : cp_pq_writer_write(w->pq, schema, batch, err);
}

uint64_t cp_file_writer_estimated_size(const cp_file_writer *w) {
  return w->avro ? cp_avro_dw_estimated_size(w->avro) : cp_pq_writer_estimated_size(w->pq);
}

int64_t cp_file_writer_row_count(const cp_file_writer *w) {
  return w->avro ? cp_avro_dw_row_count(w->avro) : cp_pq_writer_row_count(w->pq);
}

bool cp_file_writer_threaded(const cp_file_writer *w) { return w && w->threaded; }

int cp_file_writer_close(cp_file_writer *w, cp_pq_file_stats *out, paimon_error *err) {
  if (!w->avro) return cp_pq_writer_close(w->pq, out, err);
  uint64_t size;
  const cp_avro_column_stats *cols;
  CP_RETURN_IF_ERROR(cp_avro_dw_close(w->avro, &size, &cols, err));
  for (size_t i = 0; i < w->n_fields; i++)
    w->stats[i] = (cp_pq_column_stats){cols[i].null_count, cols[i].min, cols[i].max};
  memset(out, 0, sizeof *out);
  out->num_rows = cp_avro_dw_row_count(w->avro);
  out->file_size = size;
  out->columns = w->stats;
  out->num_row_groups = 1;
  return PAIMON_OK;
}

void cp_file_writer_free(cp_file_writer *w) {
  if (!w) return;
  cp_pq_writer_free(w->pq);
  cp_avro_dw_free(w->avro);
  free(w->stats);
  free(w);
}

/* ---- readers ---- */

struct cp_file_reader {
  cp_pq_reader *pq;
  cp_avro_dr *avro;
};

static bool is_avro_file(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  const char *f;
  size_t n;
  return cp_data_file_format(name, &f, &n, NULL) == 0 && n == 4 && strncasecmp(f, "avro", 4) == 0;
}

static int open_avro(cp_file_reader *r, cp_fs *fs, const char *path,
                     const cp_pq_reader_options *opts, paimon_error *err) {
  if (opts && opts->row_groups)
    return paimon_error_set(err, PAIMON_EINVAL, "Avro data file %s has no row groups", path);
  size_t n = opts ? opts->num_columns : 0;
  cp_avro_dr_column *cols = calloc(n ? n : 1, sizeof *cols);
  cp_avro_dr_range *ranges =
      calloc(opts && opts->num_row_ranges ? opts->num_row_ranges : 1, sizeof *ranges);
  int rc = cols && ranges ? 0 : CP_ENOMEM(err, "Avro reader");
  for (size_t i = 0; !rc && i < n; i++) {
    const cp_pq_column_request *q = &opts->columns[i];
    if (!q->type)
      rc = paimon_error_set(err, PAIMON_EINVAL, "Avro data file %s: column %s needs a type", path,
                            q->name ? q->name : "?");
    cols[i] = (cp_avro_dr_column){q->name, q->type, q->output_name};
  }
  cp_avro_dr_options o;
  memset(&o, 0, sizeof o);
  o.columns = cols;
  o.num_columns = n;
  o.batch_size = opts ? opts->batch_size : 0;
  if (opts && opts->row_ranges) {
    for (size_t i = 0; i < opts->num_row_ranges; i++)
      ranges[i] = (cp_avro_dr_range){opts->row_ranges[i].start, opts->row_ranges[i].end};
    o.ranges = ranges;
    o.num_ranges = opts->num_row_ranges;
  }
  if (!rc) rc = cp_avro_dr_open(&r->avro, fs, path, &o, err);
  free(cols);
  free(ranges);
  return rc;
}

int cp_file_reader_open(cp_file_reader **out, cp_fs *fs, const char *path,
                        const cp_pq_reader_options *opts, paimon_error *err) {
  *out = NULL;
  cp_file_reader *r = calloc(1, sizeof *r);
  if (!r) return CP_ENOMEM(err, "data file reader");
  int rc = is_avro_file(path) ? open_avro(r, fs, path, opts, err)
                              : cp_pq_reader_open(&r->pq, fs, path, opts, err);
  if (rc) {
    cp_file_reader_free(r);
    return rc;
  }
  *out = r;
  return PAIMON_OK;
}

int cp_file_reader_next(cp_file_reader *r, struct ArrowArray *out_batch,
                        struct ArrowSchema *out_schema, bool *eof, paimon_error *err) {
  return r->avro ? cp_avro_dr_next(r->avro, out_batch, out_schema, eof, err)
                 : cp_pq_reader_next(r->pq, out_batch, out_schema, eof, err);
}

void cp_file_reader_set_batch_size(cp_file_reader *r, int64_t rows) {
  if (r->avro)
    cp_avro_dr_set_batch_size(r->avro, rows);
  else
    cp_pq_reader_set_batch_size(r->pq, rows);
}

int64_t cp_file_reader_selected_rows(const cp_file_reader *r) {
  return r->avro ? cp_avro_dr_selected_rows(r->avro) : cp_pq_reader_selected_rows(r->pq);
}

int64_t cp_file_reader_file_rows(const cp_file_reader *r) {
  return r->avro ? cp_avro_dr_file_rows(r->avro) : cp_pq_reader_footer(r->pq)->meta.num_rows;
}

bool cp_file_reader_has_column(const cp_file_reader *r, const char *name) {
  if (r->avro) return cp_avro_dr_has_column(r->avro, name);
  const cp_pq_schema_node *root = &cp_pq_reader_footer(r->pq)->schema.nodes[0];
  for (uint32_t i = 0; i < root->num_children; i++)
    if (root->children[i]->element->name && strcmp(root->children[i]->element->name, name) == 0)
      return true;
  return false;
}

void cp_file_reader_free(cp_file_reader *r) {
  if (!r) return;
  cp_pq_reader_free(r->pq);
  cp_avro_dr_free(r->avro);
  free(r);
}
