/*
 * Reading (include/cpaimon/read.h): splits → Arrow record batches.
 *
 * Columns are matched by field id through each file's own schema (renamed columns keep their
 * data; columns added after the file was written read NULL), then read by the file's column name
 * and converted to the current type (spec/format.md §9). Hidden columns follow Java
 * (spec/data-evolution.md §1.4): a physical `_ROW_ID` / `_SEQUENCE_NUMBER` value when the file
 * stores one, else first_row_id + position / the file's max sequence number.
 *
 * Data-evolution groups (§2.3–2.5): files are ordered newest first (max sequence number
 * descending, stable), each column is read from the first file that holds it, the files are read
 * in lockstep batch by batch (they cover the same row-id range, so positions align), and the
 * newest file supplies the hidden columns.
 *
 * Time travel (paimon_read_builder_set_snapshot) reads with the schema the snapshot was written
 * with (its schemaId), as Java's AbstractFileStoreTable.tryTimeTravel does for `scan.snapshot-id`:
 * that schema's columns, names and types are what projections resolve against, filters bind to
 * and the stream produces, while files written with older schemas still evolve by field id. The
 * table's current options stay in force (Java copies the historical schema with the table's
 * options). Without a snapshot, or with cp_read_builder_pin_snapshot, the table's schema is used.
 *
 * Deletion vectors (deletion-vectors.enabled; spec/format.md §7.3, data-evolution.md §2.6): a
 * split carries at most one DV — its file's, or its group's anchor's — whose positions count the
 * split's physical rows before any delete; deleted rows are dropped from each aligned batch before
 * the filter runs, so _ROW_ID (first_row_id + position) stays right.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arrow/array.h"
#include "arrow/bitmap.h"
#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "expr/expr.h"
#include "expr/predicate.h"
#include "format/blob/blob_file.h"
#include "table/blob_input.h"
#include "format/parquet/reader.h"
#include "table/file_io.h"
#include "meta/options.h"
#include "table/dv.h"
#include "table/read_internal.h"
#include "table/scan.h"
#include "table/store.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

/* ------------------------------------ split reading ------------------------------------ */

/* Where an output column comes from in the current split. */
enum { SRC_FILE, SRC_NULL, SRC_ROW_ID, SRC_SEQ, SRC_BLOB };

typedef struct col_source {
  int kind;
  size_t part;  /* SRC_FILE: which open file; SRC_BLOB: which blob column */
  size_t child; /* SRC_FILE: child of that file's batch */
} col_source;

typedef struct file_part {
  cp_file_reader *reader;
  int64_t phys_row_id; /* child index of a physical _ROW_ID, or -1 */
  int64_t phys_seq;    /* child index of a physical _SEQUENCE_NUMBER, or -1 */
} file_part;

/* A BLOB column of a data-evolution group, read from the field's `.blob` files (spec/maintenance-
 * and-blob.md §5.6): newest first; a row takes the value of the newest file that covers it with a
 * value or NULL (a placeholder defers to older files). */
typedef struct blob_col {
  cp_blob_file **files;
  int64_t *first; /* first row id of each file */
  size_t n_files;
  bool descriptors;  /* blob-as-descriptor: BlobDescriptor bytes instead of the content */
  cp_buf_pool *pool; /* payload buffers of batches the consumer has released */
} blob_col;

/* Payload bytes per batch when BLOB content is read: a batch ends before the row that would pass
 * this (it holds one row at least), so a stream's memory is bounded by the batch, not by how many
 * blobs a split has, and the pool's buffers fit the next batch. */
#define CP_BLOB_BATCH_BYTES ((int64_t)4 << 20)

typedef struct read_state {
  paimon_table *t;
  out_col *cols; /* the output columns, then the extra columns only the filter reads */
  size_t n_cols;
  size_t n_out;    /* output columns */
  cp_expr *filter; /* bound to `cols`, or NULL */
  int64_t batch_size;
  struct ArrowSchema schema; /* output schema, for building null columns */
  cp_split *splits;
  size_t n_splits, next_split;
  cp_arena arena; /* the splits' files */
  /* the split being read */
  bool open;
  file_part *parts;
  size_t n_parts;
  col_source *sources;
  blob_col *blobs; /* SRC_BLOB columns of the open split */
  size_t n_blobs;
  int blob_filter; /* the filter reads no BLOB column of the split: 1 yes, 0 no, -1 not known yet */
  int64_t blob_seen,
      blob_kept; /* rows of the split's batches so far / those whose blobs were read */
  int64_t position, rows_total; /* rows produced so far / rows of the split */
  bool has_first_row_id;
  int64_t first_row_id, max_seq;
  cp_dv *dv;              /* the split's deletion vector (positions before deletes), or NULL */
  const cp_split *cur;    /* the split being opened or read */
  int64_t remaining;      /* rows the limit still lets through, or -1 without a limit */
  int decode_threads;     /* for the data files' readers (cp_pq_reader_options.decode_threads) */
  int blob_as_descriptor; /* -1: the table's blob-as-descriptor option */
  /* Output columns stored inline as BlobDescriptors (blob-descriptor-field) whose content is
   * read in their place (blob-as-descriptor off); NULL when there are none. */
  bool *resolve;
  cp_blob_sources descriptor_sources;
  /* Nested column types renamed to the open split's files' names (file_view_type). */
  cp_type **views;
  size_t n_views;
} read_state;

static void close_split(read_state *s) {
  cp_dv_free(s->dv);
  s->dv = NULL;
  for (size_t i = 0; i < s->n_parts; i++) cp_file_reader_free(s->parts[i].reader);
  for (size_t i = 0; i < s->n_blobs; i++) {
    for (size_t k = 0; k < s->blobs[i].n_files; k++) cp_blob_file_free(s->blobs[i].files[k]);
    free(s->blobs[i].files);
    free(s->blobs[i].first);
    cp_buf_pool_release(s->blobs[i].pool);
  }
  free(s->blobs);
  s->blobs = NULL;
  s->n_blobs = 0;
  s->blob_filter = -1;
  s->blob_seen = s->blob_kept = 0;
  free(s->parts);
  free(s->sources);
  s->parts = NULL;
  s->sources = NULL;
  s->n_parts = 0;
  for (size_t i = 0; i < s->n_views; i++) cp_type_free(s->views[i]);
  free(s->views);
  s->views = NULL;
  s->n_views = 0;
  s->open = false;
}

static void state_free(void *p) {
  read_state *s = p;
  close_split(s);
  cp_expr_free(s->filter);
  cp_rb_free_cols(s->cols, s->n_cols);
  if (s->schema.release) s->schema.release(&s->schema);
  free(s->resolve);
  cp_blob_sources_free(&s->descriptor_sources);
  free(s->splits);
  cp_arena_free(&s->arena);
  free(s);
}

/* The name the file uses for field `id`, when the file holds it: the field of the file's schema
 * with that id, restricted to the file's write_cols (resolved through the file's own schema, as
 * Java does, data-evolution.md §2.4). NULL when the file does not hold it. */
static int file_column_name(read_state *s, const cp_data_file_meta *f, int32_t id, const char **out,
                            paimon_error *err) {
  const cp_table_schema *fs;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(s->t, f->schema_id, &fs, err));
  *out = NULL;
  for (size_t i = 0; i < fs->row->n_fields; i++) {
    const cp_field *ff = &fs->row->fields[i];
    if (ff->id != id) continue;
    if (!f->has_write_cols || cp_data_file_writes_col(f, ff->name)) *out = ff->name;
    return PAIMON_OK;
  }
  return PAIMON_OK;
}

/* Renames the fields of the nested ROWs in `t` (a copy of a read type) to the names `f`, the same
 * column in a file's schema, gives the same field ids; a field `f` lacks gets a name no file
 * holds, so it reads as NULL. */
static int rename_as_file(cp_type *t, const cp_type *f, paimon_error *err) {
  if (!f || f->kind != t->kind) return PAIMON_OK;
  if (t->kind == CP_TYPE_ROW) {
    for (size_t i = 0; i < t->n_fields; i++) {
      cp_field *tf = &t->fields[i];
      const cp_field *ff = NULL;
      for (size_t k = 0; k < f->n_fields && !ff; k++)
        if (f->fields[k].id == tf->id) ff = &f->fields[k];
      char absent[48];
      snprintf(absent, sizeof absent, "\001cpaimon-absent-field-%d", (int)tf->id);
      const char *name = ff ? ff->name : absent;
      if (strcmp(tf->name, name) != 0) {
        char *copy = strdup(name);
        if (!copy) return CP_ENOMEM(err, "read");
        free(tf->name);
        tf->name = copy;
      }
      if (ff) CP_RETURN_IF_ERROR(rename_as_file(tf->type, ff->type, err));
    }
    return PAIMON_OK;
  }
  if (t->element) CP_RETURN_IF_ERROR(rename_as_file(t->element, f->element, err));
  if (t->key) CP_RETURN_IF_ERROR(rename_as_file(t->key, f->key, err));
  if (t->value) CP_RETURN_IF_ERROR(rename_as_file(t->value, f->value, err));
  return PAIMON_OK;
}

/* The type to request field `field` of the read schema as from file `f`: the field's type, or for
 * a nested column of a file written with another schema, a copy with the nested fields named as
 * that schema names their ids (Java's FormatReaderMapping.pruneDataType matches nested fields by
 * id). Files with Parquet field ids match by id anyway (nested_by_id); this makes files without
 * them (pyarrow's, pypaimon's) and Avro files evolve the same way. The copy lives until the split
 * is closed. */
static int file_view_type(read_state *s, const cp_data_file_meta *f, const cp_field *field,
                          const cp_type **out, paimon_error *err) {
  *out = field->type;
  if (!cp_type_is_nested(field->type)) return PAIMON_OK;
  const cp_table_schema *fs;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(s->t, f->schema_id, &fs, err));
  const cp_field *ff = NULL;
  for (size_t i = 0; i < fs->row->n_fields && !ff; i++)
    if (fs->row->fields[i].id == field->id) ff = &fs->row->fields[i];
  if (!ff || cp_type_equals(ff->type, field->type,
                            CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_DOCS))
    return PAIMON_OK;
  cp_type **views = realloc(s->views, (s->n_views + 1) * sizeof *views);
  if (!views) return CP_ENOMEM(err, "read");
  s->views = views;
  cp_type *copy = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy(&copy, field->type, err));
  s->views[s->n_views++] = copy;
  CP_RETURN_IF_ERROR(rename_as_file(copy, ff->type, err));
  *out = copy;
  return PAIMON_OK;
}

/* The version of column `name` in `f` (Java's DataEvolutionUtils.fieldMaxSequenceNumber,
 * apache/paimon#9313 / #9876): its entry of _WRITE_COLS_SEQUENCES, an array with one entry per
 * physical table field of the file (write_cols minus system columns, or the file schema's fields),
 * when the array has that length; else the file's max sequence number. A compaction that keeps
 * old column versions says so there, so a newer partial file still wins for those columns. */
static int field_sequence(read_state *s, const cp_data_file_meta *f, const char *name, int64_t *out,
                          paimon_error *err) {
  *out = f->max_sequence_number;
  if (!f->has_write_cols_sequences) return PAIMON_OK;
  const cp_table_schema *fs;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(s->t, f->schema_id, &fs, err));
  size_t pos = SIZE_MAX, n = 0;
  size_t total = f->has_write_cols ? f->write_cols.n : fs->row->n_fields;
  for (size_t i = 0; i < total; i++) {
    const char *col = f->has_write_cols ? f->write_cols.items[i] : fs->row->fields[i].name;
    if (f->has_write_cols && !cp_row_find_field(fs->row, col)) continue; /* _ROW_ID etc. */
    if (strcmp(col, name) == 0) pos = n;
    n++;
  }
  if (pos != SIZE_MAX && n == f->n_write_cols_sequences) *out = f->write_cols_sequences[pos];
  return PAIMON_OK;
}

/* Opens `entry`'s file reading the given requests. */
static int open_part(read_state *s, const cp_manifest_entry *e, const cp_pq_column_request *req,
                     size_t n, file_part *part, paimon_error *err) {
  char *path = NULL;
  CP_RETURN_IF_ERROR(cp_data_file_path(s->t, e->partition, e->bucket, &e->file, &path, err));
  int readable = cp_data_file_check_readable(e->file.file_name, path, err);
  if (readable != 0) {
    free(path);
    return readable;
  }
  cp_pq_reader_options o;
  memset(&o, 0, sizeof o);
  o.columns = req;
  o.num_columns = n;
  o.batch_size = s->batch_size;
  o.decode_threads = s->decode_threads;
  /* A shard's part of a split: the files of a split share positions (a group's files are
   * aligned), so each reads the same range, and whole pages outside it are skipped. */
  cp_pq_row_range range = {0, e->file.row_count};
  if (s->cur && s->cur->sliced) {
    range = (cp_pq_row_range){s->cur->slice_from, s->cur->slice_to};
    o.row_ranges = &range;
    o.num_row_ranges = 1;
  }
  int rc = cp_file_reader_open(&part->reader, s->t->fs, path, &o, err);
  if (!rc && range.end > e->file.row_count)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "data file %s has %" PRId64 " rows, fewer than its group's %" PRId64,
                          path, e->file.row_count, range.end);
  if (!rc && cp_file_reader_selected_rows(part->reader) != range.end - range.start)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "data file %s has %" PRId64 " rows but its manifest entry says %" PRId64,
                          path, cp_file_reader_selected_rows(part->reader) + range.start,
                          e->file.row_count);
  free(path);
  return rc;
}

static const cp_type *bigint_type(void) {
  static cp_type t = {.kind = CP_TYPE_BIGINT, .nullable = true};
  return &t;
}

/* An earlier output column reading the same table field as column i (a field projected twice,
 * or beside fields nested in it): i shares its file column. -1 when there is none. */
static ptrdiff_t same_field_before(const read_state *s, size_t i) {
  if (s->cols[i].kind != COL_FIELD) return -1;
  for (size_t j = 0; j < i; j++)
    if (s->cols[j].kind == COL_FIELD && s->cols[j].field.id == s->cols[i].field.id)
      return (ptrdiff_t)j;
  return -1;
}

/* A plain split: one file; absent columns are produced by the Parquet reader as NULLs. */
static int open_plain(read_state *s, const cp_split *sp, paimon_error *err) {
  const cp_manifest_entry *e = &sp->files[0];
  cp_pq_column_request *req = calloc(s->n_cols + 2, sizeof *req);
  s->parts = calloc(1, sizeof *s->parts);
  s->sources = calloc(s->n_cols + 1, sizeof *s->sources);
  if (!req || !s->parts || !s->sources) {
    free(req);
    return CP_ENOMEM(err, "read");
  }
  size_t n = 0;
  int rc = PAIMON_OK;
  for (size_t i = 0; i < s->n_cols && !rc; i++) {
    if (s->cols[i].kind != COL_FIELD) {
      s->sources[i].kind = s->cols[i].kind == COL_ROW_ID ? SRC_ROW_ID : SRC_SEQ;
      continue;
    }
    ptrdiff_t same = same_field_before(s, i);
    if (same >= 0) {
      s->sources[i] = s->sources[same];
      continue;
    }
    const char *name = NULL;
    const cp_type *type = s->cols[i].field.type;
    rc = file_column_name(s, &e->file, s->cols[i].field.id, &name, err);
    if (!rc && name) rc = file_view_type(s, &e->file, &s->cols[i].field, &type, err);
    /* An absent column is requested by an id no file has, so the reader yields NULLs. */
    req[n] = (cp_pq_column_request){name, name ? 0 : INT32_MIN, type, s->cols[i].field.name, true};
    s->sources[i] = (col_source){SRC_FILE, 0, n++};
  }
  file_part *p = &s->parts[0];
  p->phys_row_id = p->phys_seq = -1;
  if (cp_data_file_writes_col(&e->file, CP_ROW_ID_FIELD_NAME)) {
    p->phys_row_id = (int64_t)n;
    req[n++] = (cp_pq_column_request){CP_ROW_ID_FIELD_NAME, 0, bigint_type(), NULL, false};
  }
  if (cp_data_file_writes_col(&e->file, CP_SEQUENCE_NUMBER_FIELD_NAME)) {
    p->phys_seq = (int64_t)n;
    req[n++] = (cp_pq_column_request){CP_SEQUENCE_NUMBER_FIELD_NAME, 0, bigint_type(), NULL, false};
  }
  if (!rc) rc = open_part(s, e, req, n, p, err);
  if (!rc) s->n_parts = 1;
  free(req);
  s->has_first_row_id = e->file.has_first_row_id;
  s->first_row_id = e->file.first_row_id;
  s->max_seq = e->file.max_sequence_number;
  s->rows_total = e->file.row_count;
  return rc;
}

static int cmp_seq_desc(const void *x, const void *y) {
  const cp_manifest_entry *a = *(cp_manifest_entry *const *)x, *b = *(cp_manifest_entry *const *)y;
  if (a->file.max_sequence_number != b->file.max_sequence_number)
    return a->file.max_sequence_number > b->file.max_sequence_number ? -1 : 1;
  return a < b ? -1 : a > b; /* stable: manifest order */
}

static int cmp_blob_seq_desc(const void *x, const void *y) {
  const cp_manifest_entry *a = *(cp_manifest_entry *const *)x, *b = *(cp_manifest_entry *const *)y;
  if (a->file.max_sequence_number != b->file.max_sequence_number)
    return a->file.max_sequence_number > b->file.max_sequence_number ? -1 : 1;
  if (a->file.first_row_id != b->file.first_row_id)
    return a->file.first_row_id < b->file.first_row_id ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* Output column `col` from the group's `.blob` files holding its field, when there are any
 * (sources[col] becomes SRC_BLOB); vector-store columns are not supported yet. */
static int open_blob_col(read_state *s, const cp_split *sp, size_t col, paimon_error *err) {
  const cp_manifest_entry **mine = calloc(sp->n_files + 1, sizeof *mine);
  if (!mine) return CP_ENOMEM(err, "read");
  size_t n = 0;
  int rc = PAIMON_OK;
  for (size_t k = 0; !rc && k < sp->n_files; k++) {
    const cp_data_file_meta *f = &sp->files[k].file;
    if (!cp_data_file_is_blob(f) && !cp_data_file_is_vector_store(f)) continue;
    const char *name = NULL;
    rc = file_column_name(s, f, s->cols[col].field.id, &name, err);
    if (!rc && name && cp_data_file_is_vector_store(f))
      rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "reading column %s from vector-store file %s is not supported yet",
                            s->cols[col].field.name, f->file_name);
    if (!rc && name && s->cols[col].field.type->kind != CP_TYPE_BLOB &&
        !cp_type_is_blob_array(s->cols[col].field.type))
      rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "reading column %s (%s) from blob file %s is not supported yet: "
                            "cpaimon reads BLOB and ARRAY<BLOB> columns",
                            s->cols[col].field.name,
                            cp_type_kind_name(s->cols[col].field.type->kind), f->file_name);
    if (!rc && name && !f->has_first_row_id)
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "blob file %s has no first row id", f->file_name);
    if (!rc && name) mine[n++] = &sp->files[k];
  }
  blob_col *grown = n && !rc ? realloc(s->blobs, (s->n_blobs + 1) * sizeof *grown) : NULL;
  if (n && !rc && !grown) rc = CP_ENOMEM(err, "read");
  if (!rc && n) {
    s->blobs = grown;
    blob_col *b = &s->blobs[s->n_blobs++];
    memset(b, 0, sizeof *b);
    qsort(mine, n, sizeof *mine, cmp_blob_seq_desc);
    if (s->blob_as_descriptor >= 0)
      b->descriptors = s->blob_as_descriptor == 1;
    else
      rc = cp_options_bool(&s->t->schema->options, "blob-as-descriptor", false, &b->descriptors,
                           err);
    if (!rc && b->descriptors && cp_type_is_blob_array(s->cols[col].field.type))
      rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "blob-as-descriptor reads of ARRAY<BLOB> column %s are not supported "
                            "yet",
                            s->cols[col].field.name);
    b->files = calloc(n, sizeof *b->files);
    b->first = calloc(n, sizeof *b->first);
    if (!rc && (!b->files || !b->first)) rc = CP_ENOMEM(err, "read");
    if (!rc && !b->descriptors) rc = cp_buf_pool_new(&b->pool, 3 * CP_BLOB_BATCH_BYTES, err);
    for (size_t k = 0; !rc && k < n; k++) {
      char *path = NULL;
      rc = cp_data_file_path(s->t, mine[k]->partition, mine[k]->bucket, &mine[k]->file, &path, err);
      if (!rc) rc = cp_blob_file_open(s->t->fs, path, &b->files[k], err);
      if (!rc) {
        b->first[k] = mine[k]->file.first_row_id;
        b->n_files = k + 1;
        if (cp_blob_file_index(b->files[k])->n_rows != mine[k]->file.row_count)
          rc = paimon_error_set(
              err, PAIMON_ECORRUPT,
              "blob file %s has %" PRId64 " rows but its manifest entry says %" PRId64, path,
              cp_blob_file_index(b->files[k])->n_rows, mine[k]->file.row_count);
      }
      free(path);
    }
    s->sources[col] = (col_source){SRC_BLOB, s->n_blobs - 1, 0};
  }
  free(mine);
  return rc;
}

/* Where a row's BLOB value is: a file of the column and the payload's range, or NULL. */
typedef struct pick {
  int32_t file; /* -1: NULL */
  int64_t offset, length;
} pick;

/* The newest file of `b` with a value (or NULL) for row `id`; false when every file covering the
 * row holds a placeholder for it. */
static bool blob_pick(const blob_col *b, int64_t id, pick *out) {
  for (size_t k = 0; k < b->n_files; k++) {
    const cp_blob_index *ix = cp_blob_file_index(b->files[k]);
    int64_t at = id - b->first[k];
    if (at < 0 || at >= ix->n_rows || ix->kinds[at] == CP_BLOB_PLACEHOLDER) continue;
    *out = ix->kinds[at] == CP_BLOB_NULL ? (pick){-1, 0, 0}
                                         : (pick){(int32_t)k, ix->offsets[at], ix->lengths[at]};
    return true;
  }
  return false;
}

/* Rows of the next batch (at most `limit`) whose BLOB payloads stay within CP_BLOB_BATCH_BYTES.
 * Only rows that survive the DV and the filter have their payloads read; which ones do is known
 * after the batch is read, so the share of rows kept by the split's earlier batches stands in
 * for it (never below 1/16: a batch after a run of rejected rows holds 16 times the bound at
 * most), and a sample of 1% by _ROW_ID is read in a few batches, not in hundreds. */
static int64_t blob_batch_rows(const read_state *s, int64_t limit) {
  double kept = 1.0;
  if (s->blob_seen > 0) kept = (double)s->blob_kept / (double)s->blob_seen;
  if (kept < 1.0 / 16) kept = 1.0 / 16;
  double bytes = 0;
  for (int64_t r = 0; r < limit; r++) {
    int64_t id = s->first_row_id + s->position + r, row = 0;
    for (size_t i = 0; i < s->n_blobs; i++) {
      pick p;
      if (!s->blobs[i].descriptors && blob_pick(&s->blobs[i], id, &p)) row += p.length;
    }
    if (r > 0 && bytes + (double)row * kept > (double)CP_BLOB_BATCH_BYTES) return r;
    bytes += (double)row * kept;
  }
  return limit;
}

/* Completes (rc == 0) or releases a large_binary array of n rows and `end` value bytes. */
static int finish_binary(struct ArrowArray *out, int64_t *offsets, int64_t n, int64_t end,
                         int64_t nulls, int rc) {
  if (!rc) {
    offsets[n] = end;
    out->length = n;
    out->null_count = nulls;
  } else if (out->release) {
    out->release(out);
  }
  return rc;
}

/* blob-as-descriptor: each value as a serialized BlobDescriptor v2 (u8 2, u64 magic "BLOBDESC",
 * i32 uri length, uri, i64 offset, i64 length; spec/maintenance-and-blob.md §5.4) naming its
 * payload in the `.blob` file, as pypaimon and Java return them. */
static int descriptor_column(const blob_col *b, const pick *picks, int64_t n, int64_t nulls,
                             struct ArrowArray *out, paimon_error *err) {
  int64_t total = 0;
  for (int64_t r = 0; r < n; r++)
    if (picks[r].file >= 0)
      total += (int64_t)cp_blob_descriptor_size(strlen(cp_blob_file_path(b->files[picks[r].file])));
  int64_t *offsets = NULL;
  uint8_t *valid = NULL, *data = NULL;
  int rc = cp_array_init_large_binary(out, n, total, &valid, &offsets, &data, err);
  int64_t pos = 0;
  for (int64_t r = 0; !rc && r < n; r++) {
    offsets[r] = pos;
    if (picks[r].file < 0) continue;
    const char *uri = cp_blob_file_path(b->files[picks[r].file]);
    size_t n_uri = strlen(uri);
    cp_blob_descriptor_write(data + pos, uri, n_uri, picks[r].offset, picks[r].length);
    pos += (int64_t)cp_blob_descriptor_size(n_uri);
    cp_bit_set(valid, r);
  }
  rc = finish_binary(out, offsets, n, pos, nulls, rc);
  return rc;
}

/* Rows [row_id, row_id + n) of a BLOB column as a large_binary array: for each row the newest
 * file's value or NULL (placeholders fall through to older files). Payloads of neighbouring rows
 * of one file are fetched with one ranged read of the span they lie in. */
static int blob_column(const blob_col *b, int64_t row_id, int64_t n, const uint8_t *wanted,
                       struct ArrowArray *out, paimon_error *err) {
  pick *picks = malloc((size_t)(n + 1) * sizeof *picks);
  if (!picks) return CP_ENOMEM(err, "read");
  int rc = PAIMON_OK;
  int64_t total = 0, nulls = 0;
  for (int64_t r = 0; !rc && r < n; r++) {
    int64_t id = row_id + r;
    if (wanted && !cp_bit_get(wanted, r)) { /* dropped by the DV or the filter: not read */
      picks[r] = (pick){-1, 0, 0};
      nulls++;
      continue;
    }
    if (blob_pick(b, id, &picks[r])) {
      if (picks[r].file < 0)
        nulls++;
      else
        total += picks[r].length;
    } else
      rc = paimon_error_set(
          err, PAIMON_ECORRUPT,
          "All blob files at the same row id store a placeholder. (row id %" PRId64 ", %s)", id,
          cp_blob_file_path(b->files[0]));
  }
  if (!rc && b->descriptors) {
    rc = descriptor_column(b, picks, n, nulls, out, err);
    free(picks);
    return rc;
  }
  int64_t *offsets = NULL;
  uint8_t *valid = NULL, *data = NULL;
  if (!rc) rc = cp_array_init(out, 3, 0, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 1, (n + 1) * 8, (void **)&offsets, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 0, (n + 7) / 8, (void **)&valid, err);
  /* The payloads overwrite every byte: no zero-filling of what may be gigabytes. A buffer of a
   * batch the consumer released is taken again (its pages are mapped already); fresh memory is
   * faulted in with one call. */
  if (!rc) {
    cp_buf buf = CP_BUF_INIT;
    if (!cp_buf_pool_take(b->pool, (size_t)total, &buf)) {
      rc = cp_buf_reserve(&buf, (size_t)(total ? total : 1), err);
      if (!rc) cp_mem_prefault(buf.data, (size_t)total);
    }
    data = buf.data;
    buf.len = (size_t)total;
    if (!rc) rc = cp_array_adopt_pooled(out, 2, &buf, b->pool, err);
  }
  uint8_t *span = NULL;
  size_t span_cap = 0;
  int64_t pos = 0;
  for (int64_t r = 0; !rc && r < n;) {
    offsets[r] = pos;
    if (picks[r].file < 0) {
      r++;
      continue;
    }
    /* A run of rows from the same file whose payloads are close (a record's framing apart). */
    int64_t end = r + 1, from = picks[r].offset, to = picks[r].offset + picks[r].length;
    while (end < n && picks[end].file == picks[r].file && picks[end].offset >= to &&
           picks[end].offset - to <= 4096 &&
           picks[end].offset + picks[end].length - from <= (64 << 20)) {
      to = picks[end].offset + picks[end].length;
      end++;
    }
    size_t len = (size_t)(to - from);
    int64_t payload = 0;
    for (int64_t k = r; k < end; k++) payload += picks[k].length;
    if (payload / (end - r) >= (64 << 10)) {
      /* Large objects: each read straight into place (no staging copy). */
      for (int64_t k = r; !rc && k < end; k++) {
        offsets[k] = pos;
        cp_bit_set(valid, k);
        rc = cp_blob_file_read(b->files[picks[k].file], picks[k].offset, data + pos,
                               (size_t)picks[k].length, err);
        pos += picks[k].length;
      }
      r = end;
      continue;
    }
    if (len > span_cap) {
      uint8_t *grown = realloc(span, len);
      if (!grown) {
        rc = CP_ENOMEM(err, "read");
        break;
      }
      span = grown;
      span_cap = len;
    }
    rc = cp_blob_file_read(b->files[picks[r].file], from, span, len, err);
    for (int64_t k = r; !rc && k < end; k++) {
      offsets[k] = pos;
      cp_bit_set(valid, k);
      memcpy(data + pos, span + (picks[k].offset - from), (size_t)picks[k].length);
      pos += picks[k].length;
    }
    r = end;
  }
  rc = finish_binary(out, offsets, n, pos, nulls, rc);
  free(span);
  free(picks);
  return rc;
}

/* A data-evolution group: newest file first; each column from the first file holding it. */
static int open_merged(read_state *s, const cp_split *sp, paimon_error *err) {
  size_t nf = sp->n_files;
  const cp_manifest_entry **order = malloc(nf * sizeof *order);
  s->parts = calloc(nf, sizeof *s->parts);
  s->sources = calloc(s->n_cols + 1, sizeof *s->sources);
  size_t *part_of_file = malloc(nf * sizeof *part_of_file);
  cp_pq_column_request *req = calloc(s->n_cols + 1, sizeof *req);
  int rc =
      (order && s->parts && s->sources && part_of_file && req) ? PAIMON_OK : CP_ENOMEM(err, "read");
  /* Blob and vector-store files hold only their dedicated columns: they are skipped unless one of
   * those is asked for (which cpaimon cannot read yet); the normal files align by position. */
  const cp_data_file_meta *first = NULL, *dedicated = NULL;
  size_t n_normal = 0;
  for (size_t i = 0; !rc && i < sp->n_files; i++) {
    const cp_data_file_meta *f = &sp->files[i].file;
    if (cp_data_file_is_blob(f) || cp_data_file_is_vector_store(f)) {
      dedicated = f;
      continue;
    }
    if (!first) first = f;
    order[n_normal++] = &sp->files[i];
    if (f->first_row_id != first->first_row_id)
      rc = paimon_error_set(err, PAIMON_ECORRUPT,
                            "All files in a field merge split should have the same first row id "
                            "and could not be null. (%s)",
                            f->file_name);
    else if (f->row_count != first->row_count)
      rc = paimon_error_set(err, PAIMON_ECORRUPT,
                            "All files in a field merge split should have the same row count. (%s)",
                            f->file_name);
  }
  nf = n_normal;
  if (!rc && nf == 0)
    rc =
        paimon_error_set(err, PAIMON_ECORRUPT,
                         "row-id group at %" PRId64 " has no data file besides blob / vector-store "
                         "files (%s)",
                         sp->first_row_id, dedicated ? dedicated->file_name : "");
  if (!rc) qsort(order, nf, sizeof *order, cmp_seq_desc);
  /* Assign columns to files, then open each contributing file once with its columns. */
  size_t *assigned = calloc(s->n_cols + 1, sizeof *assigned); /* file index + 1, 0 = none */
  if (!rc && !assigned) rc = CP_ENOMEM(err, "read");
  for (size_t i = 0; !rc && i < s->n_cols; i++) {
    if (s->cols[i].kind != COL_FIELD) {
      s->sources[i].kind = s->cols[i].kind == COL_ROW_ID ? SRC_ROW_ID : SRC_SEQ;
      continue;
    }
    s->sources[i].kind = SRC_NULL;
    int64_t best = 0; /* the provider is the file with the newest version of the field */
    for (size_t k = 0; k < nf && !rc; k++) {
      const char *name = NULL;
      int64_t seq = 0;
      rc = file_column_name(s, &order[k]->file, s->cols[i].field.id, &name, err);
      if (!rc && name) rc = field_sequence(s, &order[k]->file, name, &seq, err);
      if (!rc && name && (!assigned[i] || seq > best)) {
        assigned[i] = k + 1;
        best = seq;
      }
    }
    if (!rc && !assigned[i] && dedicated) rc = open_blob_col(s, sp, i, err);
    if (!rc && !assigned[i] && s->sources[i].kind != SRC_BLOB && !s->cols[i].field.type->nullable)
      rc = paimon_error_set(err, PAIMON_ECORRUPT,
                            "Field %s is not null but can't find any file contains it.",
                            s->cols[i].field.name);
  }
  for (size_t k = 0; k < nf && !rc; k++) {
    size_t n = 0;
    for (size_t i = 0; i < s->n_cols && !rc; i++) {
      if (assigned[i] != k + 1) continue;
      ptrdiff_t same = same_field_before(s, i);
      if (same >= 0 && assigned[same] == k + 1) {
        s->sources[i] = s->sources[same];
        continue;
      }
      const char *name = NULL;
      const cp_type *type = s->cols[i].field.type;
      rc = file_column_name(s, &order[k]->file, s->cols[i].field.id, &name, err);
      if (!rc && name) rc = file_view_type(s, &order[k]->file, &s->cols[i].field, &type, err);
      req[n] = (cp_pq_column_request){name, 0, type, s->cols[i].field.name, true};
      s->sources[i] = (col_source){SRC_FILE, s->n_parts, n++};
    }
    if (!rc && n) {
      file_part *p = &s->parts[s->n_parts];
      p->phys_row_id = p->phys_seq = -1;
      rc = open_part(s, order[k], req, n, p, err);
      if (!rc) s->n_parts++;
    }
  }
  if (!rc) {
    s->has_first_row_id = true;
    s->first_row_id = order[0]->file.first_row_id;
    s->max_seq = order[0]->file.max_sequence_number;
    s->rows_total = order[0]->file.row_count;
  }
  free(assigned);
  free(order);
  free(part_of_file);
  free(req);
  return rc;
}

/* An int64 column: physical values where `phys` has them (may be NULL), else base + step·row. */
static int hidden_column(const cp_array_view *phys, int64_t n, int64_t base, int64_t step,
                         struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 2, 0, err));
  int64_t *v = NULL;
  int rc = cp_array_alloc_buffer(out, 1, n * 8, (void **)&v, err);
  for (int64_t i = 0; !rc && i < n; i++)
    v[i] = (phys && !cp_view_is_null(phys, i)) ? cp_view_get_int64(phys, i) : base + step * i;
  if (rc) {
    out->release(out);
    return rc;
  }
  out->length = n;
  out->null_count = 0;
  return PAIMON_OK;
}

/* The field a nested projection reads (out_col.path) out of its top-level column `top`: the
 * ROW child at each level, NULL in the rows where a ROW above it is NULL (a struct's children
 * hold arbitrary values under a NULL parent). Runs of rows are copied at once. */
static int nested_leaf(const cp_array_view *top, const out_col *c, const struct ArrowSchema *type,
                       struct ArrowArray *out, paimon_error *err) {
  const cp_array_view *levels[CP_MAX_PROJECTION_DEPTH + 1];
  const cp_array_view *v = top;
  size_t depth = 0;
  for (size_t k = 0; k < c->n_path; k++) {
    if (depth >= CP_MAX_PROJECTION_DEPTH || c->path[k] >= v->n_children)
      return paimon_error_set(err, PAIMON_EINVAL, "projection of column %s: bad field path",
                              c->field.name);
    levels[depth++] = v;
    v = &v->children[c->path[k]];
  }
  cp_builder *b = NULL;
  CP_RETURN_IF_ERROR(cp_builder_create(&b, type, err));
  int rc = cp_builder_reserve(b, v->length, 0, err);
  for (int64_t i = 0; !rc && i < v->length;) {
    bool parent_null = false;
    for (size_t d = 0; d < depth && !parent_null; d++) parent_null = cp_view_is_null(levels[d], i);
    int64_t j = i + 1;
    for (; j < v->length; j++) {
      bool pn = false;
      for (size_t d = 0; d < depth && !pn; d++) pn = cp_view_is_null(levels[d], j);
      if (pn != parent_null) break;
    }
    rc = parent_null ? cp_builder_append_nulls(b, j - i, err)
                     : cp_builder_append_view(b, v, i, j - i, err);
    i = j;
  }
  if (!rc) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

static int null_column(const struct ArrowSchema *type, int64_t n, struct ArrowArray *out,
                       paimon_error *err) {
  cp_builder *b = NULL;
  CP_RETURN_IF_ERROR(cp_builder_create(&b, type, err));
  int rc = cp_builder_append_nulls(b, n, err);
  if (!rc) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

/* An ARRAY<BLOB> column from its payloads (`bin`, one large_binary value per row): a list array
 * (int32 offsets) of large_binary elements, as the column's Arrow type. */
static int blob_array_column(const struct ArrowSchema *type, struct ArrowArray *bin,
                             const char *column, struct ArrowArray *out, paimon_error *err) {
  if (strcmp(type->format, "+l") != 0 || type->n_children != 1)
    return paimon_error_set(err, PAIMON_ESTATE, "column %s: unexpected Arrow type %s", column,
                            type->format);
  cp_array_view v;
  memset(&v, 0, sizeof v);
  struct ArrowSchema bs;
  memset(&bs, 0, sizeof bs);
  int rc = cp_schema_init(&bs, "Z", column, 0, 0, err);
  if (!rc) rc = cp_array_view_init(&v, &bs, bin, err);
  int64_t n = v.length, total = 0, bytes = 0;
  int64_t **lens = rc ? NULL : calloc((size_t)n + 1, sizeof *lens);
  int64_t *counts = rc ? NULL : calloc((size_t)n + 1, sizeof *counts);
  if (!rc && (!lens || !counts)) rc = CP_ENOMEM(err, "read");
  for (int64_t r = 0; !rc && r < n; r++) {
    if (cp_view_is_null(&v, r)) continue;
    int64_t len = 0;
    const uint8_t *p = cp_view_get_bytes(&v, r, &len);
    rc = cp_blob_array_payload_parse(p, (size_t)len, &lens[r], &counts[r], err);
    if (rc) {
      paimon_error_prefix(err, "column %s", column);
      break;
    }
    total += counts[r];
    bytes += len;
  }
  if (!rc && total > INT32_MAX)
    rc = paimon_error_set(err, PAIMON_EUNSUPPORTED, "column %s: more than 2^31 elements in a batch",
                          column);
  int32_t *loff = NULL;
  uint8_t *lvalid = NULL, *evalid = NULL, *data = NULL;
  int64_t *eoff = NULL;
  if (!rc) rc = cp_array_init(out, 2, 1, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 0, (n + 7) / 8, (void **)&lvalid, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 1, (n + 1) * 4, (void **)&loff, err);
  struct ArrowArray *e = rc ? NULL : out->children[0];
  if (!rc) rc = cp_array_init_large_binary(e, total, bytes, &evalid, &eoff, &data, err);
  int64_t k = 0, pos = 0, nulls = 0, enulls = 0;
  for (int64_t r = 0; !rc && r < n; r++) {
    loff[r] = (int32_t)k;
    if (cp_view_is_null(&v, r)) {
      nulls++;
      continue;
    }
    cp_bit_set(lvalid, r);
    int64_t len = 0;
    const uint8_t *p = cp_view_get_bytes(&v, r, &len) + CP_BLOB_ARRAY_HEADER;
    for (int64_t i = 0; i < counts[r]; i++, k++) {
      eoff[k] = pos;
      if (lens[r][i] < 0) {
        enulls++;
        continue;
      }
      cp_bit_set(evalid, k);
      memcpy(data + pos, p, (size_t)lens[r][i]);
      p += lens[r][i];
      pos += lens[r][i];
    }
  }
  if (!rc) {
    loff[n] = (int32_t)k;
    eoff[k] = pos;
    e->length = k;
    e->null_count = enulls;
    out->length = n;
    out->null_count = nulls;
  } else if (out->release) {
    out->release(out);
  }
  for (int64_t r = 0; lens && r < n; r++) free(lens[r]);
  free(lens);
  free(counts);
  cp_array_view_reset(&v);
  if (bs.release) bs.release(&bs);
  return rc;
}

/* Replaces the placeholder BLOB columns of `out` (n rows at the split's current position) with
 * their values. Rows the split's DV deletes, and rows a filter that reads no BLOB column rejects,
 * are left NULL and their payloads never read: a sample by _ROW_ID touches only its objects. */
static int fill_blobs(read_state *s, struct ArrowArray *out, int64_t n, paimon_error *err) {
  uint8_t *wanted = malloc((size_t)(n + 8) / 8 + 1);
  if (!wanted) return CP_ENOMEM(err, "read");
  cp_bitmap_set_range(wanted, 0, n, true);
  if (s->dv) cp_dv_select(s->dv, s->position, n, wanted);
  int rc = PAIMON_OK;
  if (s->filter && s->blob_filter < 0) { /* once per split */
    int32_t *cols = NULL;
    size_t nc = 0;
    rc = cp_expr_columns(s->filter, &cols, &nc, err);
    s->blob_filter = 1;
    for (size_t k = 0; !rc && k < nc; k++)
      if ((size_t)cols[k] < s->n_cols && s->sources[cols[k]].kind == SRC_BLOB) s->blob_filter = 0;
    free(cols);
  }
  if (!rc && s->filter && s->blob_filter == 1) {
    cp_array_view v;
    memset(&v, 0, sizeof v);
    uint8_t *pass = malloc((size_t)(n + 8) / 8 + 1);
    rc = pass ? cp_array_view_init(&v, &s->schema, out, err) : CP_ENOMEM(err, "read");
    if (!rc) rc = cp_expr_eval_selection(s->filter, &v, pass, NULL, err);
    for (int64_t r = 0; !rc && r < n; r++)
      if (!cp_bit_get(pass, r)) cp_bit_clear(wanted, r);
    cp_array_view_reset(&v);
    free(pass);
  }
  s->blob_seen += n;
  s->blob_kept += cp_bitmap_count_set(wanted, 0, n);
  for (size_t i = 0; !rc && i < s->n_cols; i++) {
    if (s->sources[i].kind != SRC_BLOB) continue;
    struct ArrowArray col;
    memset(&col, 0, sizeof col);
    rc = blob_column(&s->blobs[s->sources[i].part], s->first_row_id + s->position, n, wanted, &col,
                     err);
    if (!rc && cp_type_is_blob_array(s->cols[i].field.type)) {
      struct ArrowArray list;
      memset(&list, 0, sizeof list);
      rc = blob_array_column(s->schema.children[i], &col, s->cols[i].field.name, &list, err);
      col.release(&col);
      if (!rc) cp_array_move(&list, &col);
    }
    if (!rc) {
      out->children[i]->release(out->children[i]);
      cp_array_move(&col, out->children[i]);
    }
  }
  free(wanted);
  return rc;
}

/* Reads the next batch of the open split into `out`; *done when the split is exhausted. */
static int next_from_split(read_state *s, struct ArrowArray *out, bool *done, paimon_error *err) {
  struct ArrowArray *batches = calloc(s->n_parts + 1, sizeof *batches);
  cp_array_view *views = calloc(s->n_parts + 1, sizeof *views);
  int rc = (batches && views) ? PAIMON_OK : CP_ENOMEM(err, "read");
  int64_t n = -1, rows = s->batch_size;
  *done = false;
  if (s->n_blobs) { /* batches bounded by their BLOB bytes */
    int64_t left = s->rows_total - s->position;
    if (left > 0) rows = blob_batch_rows(s, left < rows ? left : rows);
    for (size_t p = 0; p < s->n_parts; p++) cp_file_reader_set_batch_size(s->parts[p].reader, rows);
  }
  for (size_t p = 0; p < s->n_parts && !rc; p++) {
    bool eof = false;
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    rc = cp_file_reader_next(s->parts[p].reader, &batches[p], &schema, &eof, err);
    if (!rc && !eof) rc = cp_array_view_init(&views[p], &schema, &batches[p], err);
    /* The view borrows the schema: keep it alive with the batch's lifetime below. */
    if (!rc && !eof) {
      if (n >= 0 && views[p].length != n)
        rc = paimon_error_set(err, PAIMON_ECORRUPT,
                              "files of a data-evolution group returned %" PRId64 " and %" PRId64
                              " rows for the same batch",
                              n, views[p].length);
      n = views[p].length;
    }
    if (eof) *done = true;
    if (!rc && !eof) {
      /* The schema must outlive the view: stash it in the view's storage owner (the array). */
      struct ArrowSchema *keep = malloc(sizeof *keep);
      if (!keep)
        rc = CP_ENOMEM(err, "read");
      else {
        *keep = schema;
        views[p].schema = keep;
      }
    } else if (schema.release) {
      schema.release(&schema);
    }
  }
  if (!rc && s->n_parts == 0) { /* only hidden / null columns: count rows ourselves */
    n = s->rows_total - s->position;
    if (n > rows) n = rows;
    *done = n <= 0;
  }
  if (!rc && !*done) {
    rc = cp_array_init(out, 1, (int64_t)s->n_cols, err);
    for (size_t i = 0; !rc && i < s->n_cols; i++) {
      const col_source *src = &s->sources[i];
      struct ArrowArray *child = out->children[i];
      if (src->kind == SRC_FILE && s->cols[i].n_path) {
        rc = nested_leaf(&views[src->part].children[src->child], &s->cols[i], s->schema.children[i],
                         child, err);
      } else if (src->kind == SRC_FILE) {
        rc = cp_array_share((struct ArrowArray *)views[src->part].children[src->child].array, child,
                            err);
      } else if (src->kind == SRC_NULL) {
        rc = null_column(s->schema.children[i], n, child, err);
      } else if (src->kind == SRC_BLOB) {
        /* Filled below, once it is known which rows survive. */
        rc = null_column(s->schema.children[i], n, child, err);
      } else if (src->kind == SRC_ROW_ID) {
        if (!s->has_first_row_id && (s->n_parts == 0 || s->parts[0].phys_row_id < 0))
          rc = paimon_error_set(err, PAIMON_ECORRUPT,
                                "a data file of table %s has no first row id; cannot read _ROW_ID",
                                s->t->full_name);
        else {
          const cp_array_view *phys = s->n_parts && s->parts[0].phys_row_id >= 0
                                          ? &views[0].children[s->parts[0].phys_row_id]
                                          : NULL;
          rc = hidden_column(phys, n, s->first_row_id + s->position, 1, child, err);
        }
      } else {
        const cp_array_view *phys = s->n_parts && s->parts[0].phys_seq >= 0
                                        ? &views[0].children[s->parts[0].phys_seq]
                                        : NULL;
        rc = hidden_column(phys, n, s->max_seq, 0, child, err);
      }
    }
    if (!rc) {
      out->length = n;
      out->null_count = 0;
      if (s->n_blobs) rc = fill_blobs(s, out, n, err);
    }
    if (!rc) {
      s->position += n;
    } else if (out->release) {
      out->release(out);
    }
  }
  for (size_t p = 0; p < s->n_parts; p++) {
    struct ArrowSchema *keep = (struct ArrowSchema *)views[p].schema;
    cp_array_view_reset(&views[p]);
    if (keep) {
      if (keep->release) keep->release(keep);
      free(keep);
    }
    if (batches[p].release) batches[p].release(&batches[p]);
  }
  free(batches);
  free(views);
  return rc;
}

/* Keeps the rows of `batch` (all columns) the filter selects, and only the output columns.
 * *empty when no row passes. */
static int apply_filter(read_state *s, struct ArrowArray *batch, bool *empty, paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, &s->schema, batch, err));
  uint8_t *bits = malloc((size_t)(v.length + 8) / 8 + 1);
  int64_t n_true = 0;
  int rc =
      bits ? cp_expr_eval_selection(s->filter, &v, bits, &n_true, err) : CP_ENOMEM(err, "read");
  struct ArrowArray out;
  memset(&out, 0, sizeof out);
  *empty = !rc && n_true == 0;
  if (!rc && !*empty) rc = cp_array_init(&out, 1, (int64_t)s->n_out, err);
  for (size_t i = 0; !rc && !*empty && i < s->n_out; i++)
    rc = n_true == v.length
             ? cp_array_share((struct ArrowArray *)v.children[i].array, out.children[i], err)
             : cp_filter(&v.children[i], bits, 0, out.children[i], err);
  if (!rc && !*empty) out.length = n_true;
  free(bits);
  cp_array_view_reset(&v);
  batch->release(batch);
  if (rc || *empty) {
    if (out.release) out.release(&out);
    return rc;
  }
  cp_array_move(&out, batch);
  return PAIMON_OK;
}

/* Drops the rows of `batch` (all columns; it covers split positions [s->position - length,
 * s->position)) that the split's deletion vector deletes: positions count physical rows before
 * any delete (spec/format.md §7.3), which is why this runs before the filter. *empty when no row
 * survives. */
static int apply_dv(read_state *s, struct ArrowArray *batch, bool *empty, paimon_error *err) {
  int64_t n = batch->length, start = s->position - n;
  uint8_t *keep = malloc((size_t)(n + 8) / 8 + 1);
  if (!keep) return CP_ENOMEM(err, "read");
  int64_t kept = cp_dv_select(s->dv, start, n, keep);
  *empty = kept == 0;
  if (kept == n || kept == 0) {
    free(keep);
    if (kept == 0) batch->release(batch);
    return PAIMON_OK;
  }
  cp_array_view v;
  memset(&v, 0, sizeof v);
  struct ArrowArray out;
  memset(&out, 0, sizeof out);
  int rc = cp_array_view_init(&v, &s->schema, batch, err);
  if (!rc) rc = cp_array_init(&out, 1, (int64_t)s->n_cols, err);
  for (size_t i = 0; !rc && i < s->n_cols; i++)
    rc = cp_filter(&v.children[i], keep, 0, out.children[i], err);
  free(keep);
  cp_array_view_reset(&v);
  batch->release(batch);
  if (rc) {
    if (out.release) out.release(&out);
    return rc;
  }
  out.length = kept;
  out.null_count = 0;
  cp_array_move(&out, batch);
  return PAIMON_OK;
}

/* The next non-empty batch of the splits (out->release NULL at the end). */
static int next_raw(read_state *s, struct ArrowArray *out, paimon_error *err) {
  for (;;) {
    if (!s->open) {
      if (s->next_split >= s->n_splits) {
        out->release = NULL;
        return PAIMON_OK;
      }
      const cp_split *sp = &s->splits[s->next_split++];
      s->cur = sp;
      int rc = sp->merged ? open_merged(s, sp, err) : open_plain(s, sp, err);
      /* Positions stay physical (for _ROW_ID and the DV) when a shard reads part of the split. */
      s->position = sp->sliced ? sp->slice_from : 0;
      if (sp->sliced) s->rows_total = sp->slice_to;
      if (!rc && sp->dv_path)
        rc = cp_dv_load(s->t->fs, sp->dv_path, sp->dv_offset, sp->dv_length, &s->dv, err);
      if (rc) {
        close_split(s);
        return rc;
      }
      s->open = true;
    }
    bool done;
    int rc = next_from_split(s, out, &done, err);
    if (rc) return rc;
    if (done) {
      close_split(s);
      continue;
    }
    bool empty;
    if (s->dv) {
      CP_RETURN_IF_ERROR(apply_dv(s, out, &empty, err));
      if (empty) continue;
    }
    if (!s->filter) return PAIMON_OK;
    CP_RETURN_IF_ERROR(apply_filter(s, out, &empty, err));
    if (!empty) return PAIMON_OK;
  }
}

/* The next batch, with inline descriptor columns' content in place of their descriptors. */
static int next_batch(read_state *s, struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(next_raw(s, out, err));
  if (!s->resolve || !out->release) return PAIMON_OK;
  int rc = PAIMON_OK;
  for (size_t c = 0; !rc && c < s->n_out; c++) {
    if (!s->resolve[c]) continue;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    struct ArrowArray content;
    memset(&content, 0, sizeof content);
    rc = cp_array_view_init(&v, s->schema.children[c], out->children[c], err);
    if (!rc)
      rc =
          cp_blob_sources_resolve(&s->descriptor_sources, &v, s->cols[c].field.name, &content, err);
    cp_array_view_reset(&v);
    if (!rc) {
      out->children[c]->release(out->children[c]);
      *out->children[c] = content;
    }
  }
  if (rc) {
    out->release(out);
    paimon_error_prefix(err, "table %s", s->t->full_name);
  }
  return rc;
}

/* Batches of the splits, ending after the limit's rows (pypaimon's LimitedRecordBatchReader):
 * the last batch is cut, and no further file is opened. */
static int producer_next(void *state, struct ArrowArray *out, paimon_error *err) {
  read_state *s = state;
  if (s->remaining == 0) {
    close_split(s);
    out->release = NULL;
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(next_batch(s, out, err));
  if (s->remaining < 0 || !out->release) return PAIMON_OK;
  if (out->length > s->remaining) {
    int rc = PAIMON_OK;
    for (int64_t i = 0; i < out->n_children && !rc; i++)
      rc = cp_array_slice_inplace(out->children[i], 0, s->remaining, err);
    if (rc) {
      out->release(out);
      return rc;
    }
    out->length = s->remaining;
  }
  s->remaining -= out->length;
  return PAIMON_OK;
}

/* Adds the columns the filter reads that the output lacks, and renumbers the filter's column
 * references (bound to the filter row: table columns, then _ROW_ID, _SEQUENCE_NUMBER) to
 * positions in s->cols. */
static int add_filter_cols(read_state *s, const cp_type *row, paimon_error *err) {
  size_t nf = row->n_fields, n_map = nf + 2;
  int32_t *used = NULL, *map = malloc(n_map * sizeof *map);
  size_t n_used = 0;
  int rc = map ? cp_expr_columns(s->filter, &used, &n_used, err) : CP_ENOMEM(err, "read");
  out_col *cols = rc ? NULL : realloc(s->cols, (s->n_cols + n_used + 1) * sizeof *cols);
  if (!rc && !cols) rc = CP_ENOMEM(err, "read");
  if (cols) s->cols = cols;
  for (size_t i = 0; i < n_map && map; i++) map[i] = -1;
  for (size_t u = 0; !rc && u < n_used; u++) {
    int32_t c = used[u];
    int kind = (size_t)c < nf ? COL_FIELD : ((size_t)c == nf ? COL_ROW_ID : COL_SEQ);
    size_t k = 0;
    for (; k < s->n_cols; k++)
      if (s->cols[k].kind == kind &&
          (kind != COL_FIELD ||
           (s->cols[k].field.id == row->fields[c].id && s->cols[k].n_path == 0)))
        break;
    if (k == s->n_cols) {
      memset(&s->cols[k], 0, sizeof s->cols[k]);
      s->cols[k].kind = kind;
      if (kind == COL_FIELD) rc = cp_field_copy(&s->cols[k].field, &row->fields[c], err);
      if (rc) break;
      s->n_cols++;
    }
    map[c] = (int32_t)k;
  }
  if (!rc) rc = cp_expr_remap_columns(s->filter, map, n_map, err);
  free(used);
  free(map);
  return rc;
}

/* The part of ROW type `t` the columns `g` (all with paths longer than `depth`, sharing the path
 * so far) read: the children on their paths only, in order, a path's last field whole. Each
 * column's index at `depth` in the pruned type goes to newpath[c][depth]. */
static int prune_type(const cp_type *t, out_col **g, int32_t **newpath, size_t ng, size_t depth,
                      cp_type **out, paimon_error *err) {
  for (size_t c = 0; c < ng; c++) {
    if (g[c]->n_path != depth) continue;
    /* one column reads all of `t`: kept whole, the others' paths below stay as they are */
    for (size_t d = 0; d < ng; d++)
      for (size_t l = depth; l < g[d]->n_path; l++) newpath[d][l] = g[d]->path[l];
    return cp_type_copy(out, t, err);
  }
  cp_field *kept = calloc(t->n_fields + 1, sizeof *kept);
  out_col **sub = calloc(ng, sizeof *sub);
  int32_t **subpath = calloc(ng, sizeof *subpath);
  int rc = kept && sub && subpath ? PAIMON_OK : CP_ENOMEM(err, "read");
  size_t n_kept = 0;
  for (size_t k = 0; !rc && k < t->n_fields; k++) {
    size_t ns = 0;
    for (size_t c = 0; c < ng; c++) {
      if (g[c]->path[depth] != (int32_t)k) continue;
      newpath[c][depth] = (int32_t)n_kept;
      sub[ns] = g[c];
      subpath[ns++] = newpath[c];
    }
    if (!ns) continue;
    cp_type *child = NULL;
    rc = prune_type(t->fields[k].type, sub, subpath, ns, depth + 1, &child, err);
    if (!rc)
      rc = cp_field_init(&kept[n_kept], t->fields[k].id, t->fields[k].name, child,
                         t->fields[k].description, t->fields[k].default_value, err);
    if (!rc) n_kept++;
  }
  if (!rc) {
    rc = cp_type_new_row(out, kept, n_kept, t->nullable, err);
    n_kept = 0;
  }
  for (size_t k = 0; kept && k < n_kept; k++) cp_field_clear(&kept[k]);
  free(kept);
  free(sub);
  free(subpath);
  return rc;
}

/* Columns read only through nested projections (r.x, r.y.w; no column reads all of r) request
 * just those fields from the files: the top-level type pruned to their paths, the paths
 * renumbered into it. */
static int prune_nested(read_state *s, paimon_error *err) {
  int rc = PAIMON_OK;
  for (size_t i = 0; i < s->n_cols && !rc; i++) {
    if (!s->cols[i].n_path || same_field_before(s, i) >= 0) continue;
    size_t ng = 0;
    bool whole = false;
    for (size_t j = i; j < s->n_cols; j++)
      if (s->cols[j].kind == COL_FIELD && s->cols[j].field.id == s->cols[i].field.id) {
        whole |= s->cols[j].n_path == 0;
        ng++;
      }
    if (whole) continue;
    out_col **g = calloc(ng, sizeof *g);
    int32_t **newpath = calloc(ng, sizeof *newpath);
    rc = g && newpath ? PAIMON_OK : CP_ENOMEM(err, "read");
    size_t k = 0;
    for (size_t j = i; !rc && j < s->n_cols; j++) {
      if (s->cols[j].kind != COL_FIELD || s->cols[j].field.id != s->cols[i].field.id) continue;
      g[k] = &s->cols[j];
      if (!(newpath[k++] = calloc(s->cols[j].n_path, sizeof **newpath)))
        rc = CP_ENOMEM(err, "read");
    }
    cp_type *pruned = NULL;
    if (!rc) rc = prune_type(s->cols[i].field.type, g, newpath, ng, 0, &pruned, err);
    for (size_t c = 0; !rc && c < ng; c++) {
      cp_type *copy = NULL;
      rc = cp_type_copy(&copy, pruned, err);
      if (rc) break;
      cp_type_free(g[c]->field.type);
      g[c]->field.type = copy;
      free(g[c]->path);
      g[c]->path = newpath[c];
      newpath[c] = NULL;
    }
    cp_type_free(pruned);
    for (size_t c = 0; newpath && c < ng; c++) free(newpath[c]);
    free(newpath);
    free(g);
  }
  return rc;
}

/* A read state over the splits `indices` (all when NULL) of `plan` at positions i with
 * i % stride == first (a worker's share), with the splits' files copied into the state's own
 * arena (the stream outlives the plan). */
static int state_new(paimon_read_builder *rb, const paimon_plan *plan, const size_t *indices,
                     size_t n, size_t stride, size_t first, read_state **out, paimon_error *err) {
  read_state *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "read");
  s->t = rb->t;
  s->batch_size = rb->batch_size;
  s->blob_filter = -1;
  s->blob_seen = s->blob_kept = 0;
  s->blob_as_descriptor = rb->blob_as_descriptor;
  s->remaining = rb->select.has_limit ? rb->select.limit : -1;
  const cp_table_schema *table_schema = NULL;
  int rc = cp_rb_read_schema(rb, &table_schema, err);
  if (!rc) rc = cp_rb_resolve_cols(rb, table_schema, &s->cols, &s->n_cols, err);
  s->n_out = s->n_cols;
  if (!rc) rc = cp_rb_bind_filter(rb, table_schema, &s->filter, err);
  if (!rc && s->filter) rc = add_filter_cols(s, table_schema->row, err);
  if (!rc) rc = prune_nested(s, err);
  if (!rc) rc = cp_rb_cols_schema(s->cols, s->n_cols, &s->schema, err);
  cp_blob_sources_init(&s->descriptor_sources, s->t);
  bool as_descriptor = s->blob_as_descriptor == 1;
  if (!rc && s->blob_as_descriptor < 0)
    rc = cp_options_bool(&s->t->schema->options, "blob-as-descriptor", false, &as_descriptor, err);
  for (size_t c = 0; !rc && !as_descriptor && c < s->n_out; c++) {
    if (s->cols[c].kind != COL_FIELD ||
        cp_blob_storage(s->t, &s->cols[c].field) != CP_BLOB_STORE_DESCRIPTOR)
      continue;
    if (!s->resolve && !(s->resolve = calloc(s->n_out, sizeof *s->resolve)))
      rc = CP_ENOMEM(err, "read");
    else
      s->resolve[c] = true;
  }
  size_t count = indices ? n : plan->n_splits;
  if (!rc && !(s->splits = calloc(count ? count : 1, sizeof *s->splits)))
    rc = CP_ENOMEM(err, "read");
  for (size_t i = 0; !rc && i < count; i++) {
    size_t k = indices ? indices[i] : i;
    if (k >= plan->n_splits) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "split %zu out of range (%zu splits)", k,
                            plan->n_splits);
      break;
    }
    if (i % stride != first) continue;
    cp_split sp = plan->splits[k];
    if (rb->ignore_deletion_vectors) sp.dv_path = NULL; /* an updater's copy of the group */
    cp_manifest_entry *files = cp_arena_alloc(&s->arena, sp.n_files * sizeof *files);
    if (!files) rc = CP_ENOMEM(err, "read");
    for (size_t f = 0; !rc && f < sp.n_files; f++)
      rc = cp_manifest_entry_copy(&files[f], &sp.files[f], &s->arena, err);
    if (!rc && sp.dv_path && !(sp.dv_path = cp_arena_strdup(&s->arena, sp.dv_path)))
      rc = CP_ENOMEM(err, "read");
    if (!rc) {
      sp.files = files;
      sp.partition = files[0].partition;
      s->splits[s->n_splits++] = sp;
    }
  }
  if (rc) {
    state_free(s);
    return rc;
  }
  *out = s;
  return PAIMON_OK;
}

/* ------------------------------------ parallel reading ------------------------------------ */

/* Splits read on worker threads (paimon_read_builder_set_read_threads): worker w reads the
 * splits at positions w, w + n, ... into its queue, and the consumer takes split after split from
 * the worker that has it, so batches come in the order one thread would produce them. A worker
 * blocks when it holds `ahead` batches (paimon_read_builder_set_read_ahead), so a streaming
 * consumer's memory stays a few batches per worker; a consumer that keeps everything (to_arrow)
 * lets workers run ahead without bound, which is when reading on two cores pays for large splits.
 * Errors reach the consumer where they happened in that order. Each worker has its own read
 * state (readers, bound filter, DV); what they share is the table, whose schemas are loaded
 * before the workers start (the schema cache fills lazily and is not locked). */

typedef struct par_batch {
  struct ArrowArray array;
  size_t split; /* position among the stream's splits */
} par_batch;

typedef struct par_read par_read;

typedef struct par_worker {
  par_read *p;
  read_state *s;
  size_t first; /* reads positions first, first + n, ... */
  pthread_t thread;
  bool started, done;
  par_batch *queue; /* ring of cap entries */
  size_t head, count, cap;
  int rc;
  size_t err_split; /* the split the error happened in */
  paimon_error err;
} par_worker;

struct par_read {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* any change: a batch queued or taken, a worker done, stop */
  bool stop;
  int64_t ahead; /* batches a worker may hold; -1: no bound */
  par_worker *workers;
  size_t n, cur, total; /* cur: the split the consumer is at */
};

/* Room for one more batch in w's ring (under the lock). */
static int par_grow(par_worker *w) {
  if (w->count < w->cap) return PAIMON_OK;
  size_t cap = w->cap ? w->cap * 2 : 4;
  par_batch *q = malloc(cap * sizeof *q);
  if (!q) return PAIMON_ENOMEM;
  for (size_t i = 0; i < w->count; i++) q[i] = w->queue[(w->head + i) % w->cap];
  free(w->queue);
  w->queue = q;
  w->head = 0;
  w->cap = cap;
  return PAIMON_OK;
}

static void *par_worker_main(void *arg) {
  par_worker *w = arg;
  par_read *p = w->p;
  for (;;) {
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    paimon_error err;
    paimon_error_clear(&err);
    int rc = next_batch(w->s, &a, &err);
    size_t split = w->s->cur ? w->first + (size_t)(w->s->cur - w->s->splits) * p->n : w->first;
    pthread_mutex_lock(&p->mu);
    while (!rc && a.release && p->ahead >= 0 && (int64_t)w->count >= p->ahead && !p->stop)
      pthread_cond_wait(&p->cv, &p->mu);
    if (!rc && a.release && !p->stop && par_grow(w) != PAIMON_OK)
      rc = CP_ENOMEM(&err, "read-ahead queue");
    bool end = rc || !a.release || p->stop;
    if (!end) {
      par_batch *b = &w->queue[(w->head + w->count++) % w->cap];
      b->array = a;
      b->split = split;
    } else {
      w->done = true;
      w->rc = p->stop ? 0 : rc;
      w->err_split = split;
      if (rc) w->err = err;
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (end) {
      if (a.release) a.release(&a);
      close_split(w->s);
      return NULL;
    }
  }
}

static void par_free(void *state) {
  par_read *p = state;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (size_t i = 0; i < p->n; i++) {
    par_worker *w = &p->workers[i];
    if (w->started) pthread_join(w->thread, NULL);
    for (size_t k = 0; k < w->count; k++) {
      par_batch *b = &w->queue[(w->head + k) % w->cap];
      if (b->array.release) b->array.release(&b->array);
    }
    free(w->queue);
    if (w->s) state_free(w->s);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p->workers);
  free(p);
}

/* The next batch in split order: split `cur` is over when its worker's next batch belongs to a
 * later split or the worker is done (an error is returned at the split it happened in). */
static int par_next(void *state, struct ArrowArray *out, paimon_error *err) {
  par_read *p = state;
  int rc = PAIMON_OK;
  out->release = NULL;
  pthread_mutex_lock(&p->mu);
  while (p->cur < p->total) {
    par_worker *w = &p->workers[p->cur % p->n];
    if (w->count) {
      par_batch *b = &w->queue[w->head];
      if (b->split != p->cur) {
        p->cur++;
        continue;
      }
      *out = b->array;
      memset(&b->array, 0, sizeof b->array);
      w->head = (w->head + 1) % w->cap;
      w->count--;
      pthread_cond_broadcast(&p->cv);
      break;
    }
    if (w->done && w->rc && w->err_split == p->cur) {
      rc = w->rc;
      if (err) *err = w->err;
      break;
    }
    if (w->done) {
      p->cur++;
      continue;
    }
    pthread_cond_wait(&p->cv, &p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return rc;
}

static int cp_read_parallel(paimon_read_builder *rb, const paimon_plan *plan, const size_t *indices,
                            size_t n, size_t threads, struct ArrowArrayStream *out,
                            paimon_error *err) {
  size_t count = indices ? n : plan->n_splits;
  /* Load every file's schema here: workers only find them in the table's cache. */
  for (size_t i = 0; i < count; i++) {
    size_t k = indices ? indices[i] : i;
    if (k >= plan->n_splits) continue; /* state_new reports it */
    for (size_t f = 0; f < plan->splits[k].n_files; f++) {
      const cp_table_schema *fs;
      CP_RETURN_IF_ERROR(
          cp_table_schema_by_id(rb->t, plan->splits[k].files[f].file.schema_id, &fs, err));
    }
  }
  par_read *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "read");
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  p->n = threads;
  p->total = count;
  p->ahead = rb->read_ahead;
  p->workers = calloc(threads, sizeof *p->workers);
  int rc = p->workers ? PAIMON_OK : CP_ENOMEM(err, "read");
  for (size_t i = 0; !rc && i < threads; i++) {
    p->workers[i].p = p;
    p->workers[i].first = i;
    rc = state_new(rb, plan, indices, n, threads, i, &p->workers[i].s, err);
  }
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  if (!rc) rc = cp_rb_cols_schema(p->workers[0].s->cols, p->workers[0].s->n_out, &schema, err);
  for (size_t i = 0; !rc && i < threads; i++) {
    par_worker *w = &p->workers[i];
    if (pthread_create(&w->thread, NULL, par_worker_main, w) != 0)
      rc = paimon_error_set(err, PAIMON_EIO, "cannot start a read thread for table %s",
                            rb->t->full_name);
    else
      w->started = true;
  }
  if (rc) {
    if (schema.release) schema.release(&schema);
    if (p->workers)
      par_free(p);
    else {
      pthread_mutex_destroy(&p->mu);
      pthread_cond_destroy(&p->cv);
      free(p);
    }
    return rc;
  }
  return cp_stream_from_producer(out, &schema, par_next, par_free, p, err);
}

/* How many threads read `count` splits (read.h, paimon_read_builder_set_read_threads). */
static size_t read_threads(const paimon_read_builder *rb, size_t count) {
  /* A limit stops opening files once it is reached (pypaimon's rule): one thread. */
  if (rb->select.has_limit || count < 2) return 1;
  if (rb->read_threads > 0)
    return (size_t)rb->read_threads < count ? (size_t)rb->read_threads : count;
  /* Automatic: two threads for a whole-table read (no read-ahead bound) on two or more CPUs. A
   * streaming consumer gains little from workers two batches ahead and pays their memory. */
  if (rb->read_ahead >= 0) return 1;
  return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
}

int paimon_plan_read(paimon_read_builder *rb, const paimon_plan *plan, const size_t *indices,
                     size_t n, struct ArrowArrayStream *out, paimon_error *err) {
  size_t count = indices ? n : plan->n_splits;
  size_t threads = read_threads(rb, count);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  if (threads > 1) return cp_read_parallel(rb, plan, indices, n, threads, out, err);
  read_state *s = NULL;
  CP_RETURN_IF_ERROR(state_new(rb, plan, indices, n, 1, 0, &s, err));
  /* One split thread: a decode helper per file (read.h); with several, the cores are taken. */
  s->decode_threads = rb->decode_threads >= 0              ? rb->decode_threads
                      : sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 1
                                                           : 0;
  int rc = cp_rb_cols_schema(s->cols, s->n_out, &schema, err);
  if (rc) {
    state_free(s);
    return rc;
  }
  return cp_stream_from_producer(out, &schema, producer_next, state_free, s, err);
}
