/*
 * The Parquet file writer: batches -> row groups -> footer (writer.h; spec/parquet.md §2.1 file
 * layout, §2.3 the writer profile, §2.4 chunk and row-group bookkeeping, §2.9 statistics, §2.10,
 * §4 P3-P6, P17, P21).
 *
 * A batch is checked whole before anything changes — its Arrow types against the row type, its
 * NOT NULL columns for NULLs that are not hidden under a NULL parent — so a rejected batch leaves
 * the writer as it was. It is then written in slices of at most SLICE_ROWS rows (never across a
 * row-group boundary): for each leaf column, levels are computed and handed to the column's page
 * writer. A leaf under a collection takes its slice in pieces of at most SLICE_ENTRIES entries,
 * sized from the collection's offsets before anything is computed (levels_write.h), and scaled
 * down by the fan-out of deeper collections seen so far, so the level scratch stays near
 * SLICE_ENTRIES entries (about 32 bytes each) however long the lists are. After a slice the row
 * group is closed if it reached its size or row limit; closing writes every column's chunk, one
 * after the other, and records its metadata. The first column streams its pages to the file
 * during the row group when it can (writer_column.c).
 *
 * One codec context (base/codec.h) serves every column, so zstd's compression context is built
 * once per writer rather than once per page. Compressed data pages pass through the writer's page
 * queue (writer_pool.c), on worker threads when compress_threads asks for them.
 */
#include "format/parquet/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/bitmap.h"
#include "base/status.h"
#include "cpaimon/version.h"
#include "format/parquet/footer.h"
#include "format/parquet/writer_internal.h"

#ifndef CPAIMON_BUILD_ID
#define CPAIMON_BUILD_ID "unknown"
#endif

/* Rows per slice, and level entries per piece of a slice: bound the level scratch (about 32 bytes
 * per entry: entries, scratch and value slots) without making per-slice overhead visible. */
#define SLICE_ROWS 65536
#define SLICE_ENTRIES (1 << 18)

enum { W_OPEN, W_FAILED, W_CLOSED };

struct cp_pq_writer {
  cp_wfile *file;
  cp_pq_writer_options opts;
  char *created_by;
  cp_type *row; /* a copy; the schema's leaves point into it */
  cp_pq_write_schema schema;
  cp_pq_colw *cols; /* one per leaf */
  cp_codec_ctx *codec_ctx;
  cp_pq_page_queue *queue; /* NULL for uncompressed files */
  cp_pq_levels levels;
  double *fanout; /* per leaf: entries per first-collection entry, as last seen (>= 1) */
  const cp_array_view **views; /* per leaf, the views along its steps (stride max_steps) */
  uint32_t max_steps;
  int state;
  int64_t rows, rg_rows;
  cp_pq_file_meta meta; /* the footer; its arena holds row-group metadata */
  cp_pq_row_group *row_groups;
  uint32_t n_row_groups, rg_cap;
  int64_t *null_counts; /* per top-level column */
  cp_pq_column_stats *col_stats;
};

void cp_pq_writer_options_init(cp_pq_writer_options *o) {
  memset(o, 0, sizeof *o);
  o->codec = CP_CODEC_ZSTD;
  o->compression_level = 1;
  o->page_size = 1024 * 1024;
  o->page_row_limit = 20000;
  o->row_group_size = 128 * 1024 * 1024;
  o->row_group_rows = 1024 * 1024;
  o->dictionary = true;
  o->dictionary_page_limit = CP_PQ_DICT_PAGE_LIMIT_DEFAULT;
  o->created_by = NULL;
}

int cp_pq_writer_codec_from_name(const char *name, cp_codec *out, paimon_error *err) {
  static const struct {
    const char *name;
    cp_codec codec;
  } names[] = {{"zstd", CP_CODEC_ZSTD},        {"snappy", CP_CODEC_SNAPPY},
               {"gzip", CP_CODEC_GZIP},        {"lz4", CP_CODEC_LZ4_RAW},
               {"lz4_raw", CP_CODEC_LZ4_RAW},  {"none", CP_CODEC_NONE},
               {"uncompressed", CP_CODEC_NONE}};
  for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(name, names[i].name) == 0) {
      *out = names[i].codec;
      return PAIMON_OK;
    }
  return paimon_error_set(err, PAIMON_EINVAL,
                          "unknown Parquet compression '%s' (expected zstd, snappy, gzip, lz4, "
                          "lz4_raw or none)",
                          name ? name : "(null)");
}

/* The Parquet codec enum for a writable codec (§2.3 item 4). */
static int parquet_codec(cp_codec codec, int *out, paimon_error *err) {
  switch (codec) {
  case CP_CODEC_NONE: *out = CP_PQ_CODEC_UNCOMPRESSED; return PAIMON_OK;
  case CP_CODEC_SNAPPY: *out = CP_PQ_CODEC_SNAPPY; return PAIMON_OK;
  case CP_CODEC_GZIP: *out = CP_PQ_CODEC_GZIP; return PAIMON_OK;
  case CP_CODEC_ZSTD: *out = CP_PQ_CODEC_ZSTD; return PAIMON_OK;
  case CP_CODEC_LZ4_RAW: *out = CP_PQ_CODEC_LZ4_RAW; return PAIMON_OK;
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "Parquet files cannot be written with %s",
                            cp_codec_name(codec));
  }
}

static int check_options(const cp_pq_writer_options *o, paimon_error *err) {
  if (o->page_size == 0 || o->page_row_limit <= 0 || o->row_group_size == 0 ||
      o->row_group_rows <= 0 || o->dictionary_page_limit == 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Parquet writer options: page size/rows, row group size/rows and the "
                            "dictionary page limit must be positive");
  if (o->compress_threads < 0 || o->compress_threads > 64)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Parquet writer options: compress_threads %d is not in 0..64",
                            o->compress_threads);
  return PAIMON_OK;
}

/* Copies the options and the row type, builds the schema and one column writer per leaf. */
static int writer_setup(cp_pq_writer *w, const cp_type *row, const cp_pq_writer_options *opts,
                        paimon_error *err) {
  if (opts)
    w->opts = *opts;
  else
    cp_pq_writer_options_init(&w->opts);
  int codec = CP_PQ_CODEC_UNCOMPRESSED;
  CP_RETURN_IF_ERROR(check_options(&w->opts, err));
  CP_RETURN_IF_ERROR(parquet_codec(w->opts.codec, &codec, err));
  char dflt[128];
  snprintf(dflt, sizeof dflt, "cpaimon version %s (build %s)", CPAIMON_VERSION, CPAIMON_BUILD_ID);
  w->created_by = strdup(w->opts.created_by ? w->opts.created_by : dflt);
  w->opts.created_by = w->created_by;
  if (!w->created_by) return CP_ENOMEM(err, "created_by");
  if (!row || row->kind != CP_TYPE_ROW)
    return paimon_error_set(err, PAIMON_EINVAL, "a Parquet file needs a ROW type");
  CP_RETURN_IF_ERROR(cp_type_validate(row, err));
  CP_RETURN_IF_ERROR(cp_type_copy(&w->row, row, err));
  CP_RETURN_IF_ERROR(cp_pq_write_schema_build(&w->schema, w->row, err));
  const uint32_t n = w->schema.n_leaves;
  w->cols = calloc(n, sizeof *w->cols);
  w->null_counts = calloc(w->row->n_fields, sizeof *w->null_counts);
  w->col_stats = calloc(w->row->n_fields, sizeof *w->col_stats);
  for (uint32_t i = 0; i < n; i++)
    if (w->schema.leaves[i].n_steps > w->max_steps) w->max_steps = w->schema.leaves[i].n_steps;
  w->views = calloc((size_t)n * w->max_steps, sizeof *w->views);
  w->fanout = calloc(n, sizeof *w->fanout);
  if (!w->cols || !w->null_counts || !w->col_stats || !w->views || !w->fanout)
    return CP_ENOMEM(err, "parquet writer");
  CP_RETURN_IF_ERROR(cp_codec_ctx_new(&w->codec_ctx, err));
  if (w->opts.codec != CP_CODEC_NONE)
    CP_RETURN_IF_ERROR(cp_pq_page_queue_new(&w->queue, w->opts.compress_threads, w->opts.codec,
                                            w->opts.compression_level, w->codec_ctx, err));
  for (uint32_t i = 0; i < n; i++) {
    w->fanout[i] = 1.0;
    CP_RETURN_IF_ERROR(cp_pq_colw_init(&w->cols[i], &w->schema.leaves[i], &w->opts, codec,
                                       w->codec_ctx, w->queue, err));
  }
  /* The first column's chunk starts each row group: it may stream (writer_column.c). */
  w->cols[0].direct = w->file;
  return PAIMON_OK;
}

int cp_pq_writer_open(cp_pq_writer **out, cp_wfile *file, const cp_type *row,
                      const cp_pq_writer_options *opts, paimon_error *err) {
  *out = NULL;
  cp_pq_writer *w = calloc(1, sizeof *w);
  if (!w) return CP_ENOMEM(err, "parquet writer");
  w->file = file;
  cp_pq_levels_init(&w->levels);
  cp_pq_file_meta_init(&w->meta);
  int rc = writer_setup(w, row, opts, err);
  if (rc == 0) rc = cp_wfile_write(file, CP_PQ_MAGIC, CP_PQ_MAGIC_LEN, err);
  if (rc != 0) {
    cp_pq_writer_free(w);
    return rc;
  }
  *out = w;
  return PAIMON_OK;
}

void cp_pq_writer_free(cp_pq_writer *w) {
  if (!w) return;
  /* The threads go first: a page in flight points into a column. */
  cp_pq_page_queue_free(w->queue);
  for (uint32_t i = 0; w->cols && i < w->schema.n_leaves; i++) cp_pq_colw_free(&w->cols[i]);
  free(w->cols);
  cp_codec_ctx_free(w->codec_ctx);
  free(w->fanout);
  free(w->views);
  free(w->null_counts);
  free(w->col_stats);
  free(w->row_groups);
  cp_pq_levels_free(&w->levels);
  w->meta.row_groups = NULL; /* malloc'd above, not in the arena */
  cp_pq_file_meta_free(&w->meta);
  cp_pq_write_schema_free(&w->schema);
  cp_type_free(w->row);
  free(w->created_by);
  free(w);
}

/* ---- writing batches ---- */

static const cp_array_view **leaf_views(cp_pq_writer *w, uint32_t leaf) {
  return w->views + (size_t)leaf * w->max_steps;
}

/* The Arrow view of every step of every leaf, from the batch view. */
static void resolve_views(cp_pq_writer *w, const cp_array_view *batch) {
  for (uint32_t i = 0; i < w->schema.n_leaves; i++)
    cp_pq_leaf_views(&w->schema.leaves[i], batch, leaf_views(w, i));
}

/* The rows of leaf i's next piece starting at row0 (at most n): SLICE_ENTRIES entries, counting
 * the first collection's entries from its offsets and deeper ones at the fan-out seen so far. */
static int64_t piece_rows(cp_pq_writer *w, uint32_t i, int64_t row0, int64_t n,
                          int64_t *first_entries) {
  const int64_t budget = (int64_t)((double)SLICE_ENTRIES / w->fanout[i]);
  return cp_pq_levels_rows_within(&w->schema.leaves[i], leaf_views(w, i), row0, n,
                                  budget < 1 ? 1 : budget, first_entries);
}

/* Learns the fan-out below leaf i's first collection from levels just computed. */
static void note_fanout(cp_pq_writer *w, uint32_t i, int64_t first_entries) {
  if (first_entries > 0 && w->levels.n_entries > first_entries)
    w->fanout[i] = (double)w->levels.n_entries / (double)first_entries;
}

/* Rejects NULLs in NOT NULL nodes before anything is written (§4 P21). Only leaves with a
 * REQUIRED step whose Arrow array holds a NULL need the walk: the NULL may still be hidden under
 * a NULL parent, which is allowed. */
static int check_not_null(cp_pq_writer *w, int64_t rows, paimon_error *err) {
  for (uint32_t i = 0; i < w->schema.n_leaves; i++) {
    const cp_pq_leaf *l = &w->schema.leaves[i];
    const cp_array_view **vs = leaf_views(w, i);
    bool suspect = false;
    for (uint32_t s = 0; s < l->n_steps; s++)
      suspect |= l->steps[s].required && vs[s]->validity != NULL;
    for (int64_t row = 0, n; suspect && row < rows; row += n) {
      int64_t first;
      n = rows - row < SLICE_ROWS ? rows - row : SLICE_ROWS;
      n = piece_rows(w, i, row, n, &first);
      CP_RETURN_IF_ERROR(cp_pq_levels_compute(&w->levels, l, vs, row, n, true, err));
      note_fanout(w, i, first);
    }
  }
  return PAIMON_OK;
}

static uint64_t row_group_bytes(const cp_pq_writer *w) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < w->schema.n_leaves; i++) n += cp_pq_colw_uncompressed(&w->cols[i]);
  return n;
}

static int flush_row_group(cp_pq_writer *w, paimon_error *err) {
  const uint32_t n = w->schema.n_leaves;
  if (w->n_row_groups == w->rg_cap) {
    uint32_t cap = w->rg_cap ? w->rg_cap * 2 : 4;
    cp_pq_row_group *g = realloc(w->row_groups, cap * sizeof *g);
    if (!g) return CP_ENOMEM(err, "parquet row groups");
    w->row_groups = g;
    w->rg_cap = cap;
  }
  cp_pq_column_chunk *chunks = cp_arena_calloc(&w->meta.arena, n * sizeof *chunks);
  if (!chunks) return CP_ENOMEM(err, "parquet row group metadata");
  int64_t unc = 0, comp = 0;
  /* Every column's last page first, so that they compress together (with threads). */
  for (uint32_t i = 0; i < n; i++) CP_RETURN_IF_ERROR(cp_pq_colw_flush_page(&w->cols[i], err));
  for (uint32_t i = 0; i < n; i++) {
    CP_RETURN_IF_ERROR(
        cp_pq_colw_finish_chunk(&w->cols[i], w->file, &chunks[i], &w->meta.arena, err));
    unc += chunks[i].meta_data.total_uncompressed_size;
    comp += chunks[i].meta_data.total_compressed_size;
  }
  cp_pq_row_group *g = &w->row_groups[w->n_row_groups];
  memset(g, 0, sizeof *g);
  g->columns = chunks;
  g->num_columns = n;
  g->num_rows = w->rg_rows;
  g->total_byte_size = unc;
  /* The first chunk may have streamed: the row group starts where it does. */
  g->file_offset = (cp_pq_opt_i64){true, cp_pq_column_chunk_start(&chunks[0].meta_data)};
  g->total_compressed_size = (cp_pq_opt_i64){true, comp};
  if (w->n_row_groups <= INT16_MAX) g->ordinal = (cp_pq_opt_i16){true, (int16_t)w->n_row_groups};
  w->n_row_groups++;
  w->rg_rows = 0;
  return PAIMON_OK;
}

/* Writes rows [row0, row0 + n) of the batch (checked already) into the open row group. */
static int write_slice(cp_pq_writer *w, const cp_array_view *batch, int64_t row0, int64_t n,
                       paimon_error *err) {
  for (uint32_t i = 0; i < w->schema.n_leaves; i++) {
    const cp_pq_leaf *l = &w->schema.leaves[i];
    const cp_array_view **vs = leaf_views(w, i);
    for (int64_t done = 0, k; done < n; done += k) {
      int64_t first;
      k = piece_rows(w, i, row0 + done, n - done, &first);
      CP_RETURN_IF_ERROR(cp_pq_levels_compute(&w->levels, l, vs, row0 + done, k, false, err));
      note_fanout(w, i, first);
      CP_RETURN_IF_ERROR(cp_pq_colw_append(&w->cols[i], &w->levels, vs[l->n_steps - 1], err));
    }
  }
  for (size_t c = 0; c < w->row->n_fields; c++) {
    const cp_array_view *v = &batch->children[c];
    if (v->validity) w->null_counts[c] += n - cp_bitmap_count_set(v->validity, v->offset + row0, n);
  }
  w->rg_rows += n;
  w->rows += n;
  return PAIMON_OK;
}

static int write_rows(cp_pq_writer *w, const cp_array_view *batch, paimon_error *err) {
  for (int64_t row = 0; row < batch->length;) {
    int64_t n = batch->length - row, room = w->opts.row_group_rows - w->rg_rows;
    if (n > room) n = room;
    if (n > SLICE_ROWS) n = SLICE_ROWS;
    CP_RETURN_IF_ERROR(write_slice(w, batch, row, n, err));
    row += n;
    if (w->rg_rows >= w->opts.row_group_rows || row_group_bytes(w) >= w->opts.row_group_size)
      CP_RETURN_IF_ERROR(flush_row_group(w, err));
  }
  return PAIMON_OK;
}

static int state_error(const cp_pq_writer *w, paimon_error *err) {
  return paimon_error_set(err, PAIMON_ESTATE, "the Parquet writer is %s",
                          w->state == W_CLOSED ? "closed" : "failed; abort the file");
}

int cp_pq_writer_write(cp_pq_writer *w, const struct ArrowSchema *schema,
                       const struct ArrowArray *batch, paimon_error *err) {
  if (w->state != W_OPEN) return state_error(w, err);
  CP_RETURN_IF_ERROR(cp_pq_check_arrow_schema(w->row, schema, err));
  cp_array_view view;
  CP_RETURN_IF_ERROR(cp_array_view_init(&view, schema, batch, err));
  resolve_views(w, &view);
  int rc = check_not_null(w, view.length, err);
  if (rc == 0) {
    rc = write_rows(w, &view, err);
    /* Pages compressed in the background are collected before returning, so that the size
     * estimate the caller reads next counts every page at its compressed size. */
    if (rc == 0 && w->queue) rc = cp_pq_page_queue_drain(w->queue, err);
    if (rc != 0) w->state = W_FAILED;
  }
  cp_array_view_reset(&view);
  return rc;
}

uint64_t cp_pq_writer_estimated_size(const cp_pq_writer *w) {
  uint64_t n = cp_wfile_pos(w->file);
  for (uint32_t i = 0; i < w->schema.n_leaves; i++) n += cp_pq_colw_buffered(&w->cols[i]);
  return n;
}

int64_t cp_pq_writer_row_count(const cp_pq_writer *w) { return w->rows; }

/* ---- closing ---- */

static int write_footer(cp_pq_writer *w, paimon_error *err) {
  cp_pq_file_meta *m = &w->meta;
  const uint32_t n = w->schema.n_leaves;
  m->version = 1;
  m->schema = w->schema.elements;
  m->num_schema = w->schema.n_elements;
  m->num_rows = w->rows;
  m->row_groups = w->row_groups;
  m->num_row_groups = w->n_row_groups;
  m->created_by = w->created_by;
  m->column_orders = cp_arena_alloc(&m->arena, n * sizeof *m->column_orders);
  if (!m->column_orders) return CP_ENOMEM(err, "parquet column orders");
  /* TYPE_ORDER for every leaf: without it readers ignore min_value/max_value (§4 P6). */
  for (uint32_t i = 0; i < n; i++) m->column_orders[i] = CP_PQ_ORDER_TYPE_DEFINED;
  m->num_column_orders = n;
  cp_buf footer = CP_BUF_INIT;
  int rc = cp_pq_footer_write(m, &footer, err);
  if (rc == 0) rc = cp_wfile_write(w->file, footer.data, footer.len, err);
  cp_buf_free(&footer);
  return rc;
}

static void file_stats(cp_pq_writer *w) {
  for (size_t c = 0; c < w->row->n_fields; c++) {
    w->col_stats[c].null_count = w->null_counts[c];
    w->col_stats[c].min = w->col_stats[c].max = cp_datum_null();
  }
  for (uint32_t i = 0; i < w->schema.n_leaves; i++) {
    const cp_pq_leaf *l = &w->schema.leaves[i];
    if (l->n_steps != 1) continue; /* nested columns have no min/max */
    cp_pq_column_stats *s = &w->col_stats[l->column];
    cp_pq_stats_to_datums(&w->cols[i].file_stats, l->type, &s->min, &s->max);
  }
}

int cp_pq_writer_close(cp_pq_writer *w, cp_pq_file_stats *out, paimon_error *err) {
  if (w->state != W_OPEN) return state_error(w, err);
  int rc = w->rg_rows > 0 ? flush_row_group(w, err) : PAIMON_OK;
  if (rc == 0) rc = write_footer(w, err);
  if (rc != 0) {
    w->state = W_FAILED;
    return rc;
  }
  w->state = W_CLOSED;
  file_stats(w);
  if (out) {
    out->num_rows = w->rows;
    out->file_size = cp_wfile_pos(w->file);
    out->num_columns = w->row->n_fields;
    out->columns = w->col_stats;
    out->num_row_groups = w->n_row_groups;
  }
  return PAIMON_OK;
}

void cp_pq_writer_set_general_levels(cp_pq_writer *w, bool on) { w->levels.general_only = on; }
