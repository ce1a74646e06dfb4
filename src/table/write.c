/*
 * Table writes (include/cpaimon/write.h; DESIGN.md "write → commit"): input batches are matched to
 * the write columns by name and converted to their Arrow types, split by partition (hash grouping
 * on the partition columns), and written by one rolling Parquet writer per partition; closed files
 * become DataFileMeta records (spec/format.md §4.4, §10 item 3) in per-partition commit messages.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "cpaimon/write.h"
#include "format/blob/blob_file.h"
#include "table/blob_input.h"
#include "format/parquet/writer.h"
#include "table/file_io.h"
#include "meta/options.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/paths.h"
#include "table/stats.h"
#include "table/table.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"

/* The open `.blob` file of one BLOB field of a partition, and its finished files not yet placed
 * after their normal file. */
typedef struct blob_out {
  cp_wfile *file;
  cp_blob_writer *w;
  char *path;
  const char *name;
  cp_data_file_meta *pending;
  size_t n_pending, cap_pending;
} blob_out;

/* One partition's open file and the files it has finished. */
typedef struct partition_writer {
  cp_bytes partition; /* serialized BinaryRow (in the write's arena) */
  char *dir;          /* bucket directory */
  cp_wfile *file;
  cp_file_writer *pq;
  bool threaded; /* pq compresses on threads (at most one open writer does) */
  char *path;
  const char *file_name;
  cp_data_file_meta *done;
  size_t n_done, cap_done;
  int file_counter; /* the next file's number in this partition (Java's and pypaimon's names) */
  int64_t rows;     /* rows in the open file */
  blob_out *blobs;  /* one per BLOB field of the write (spec/maintenance-and-blob.md §5.5) */
} partition_writer;

struct paimon_write {
  paimon_table *table;
  cp_type *write_row;             /* the written columns, in write order */
  bool all_columns;               /* write_cols = null in the metadata */
  struct ArrowSchema write_arrow; /* struct schema of write_row */
  size_t *part_index;             /* partition key i -> index in write_row */
  size_t n_part;
  cp_pq_writer_options pq_opts;
  /* BLOB fields go to `.blob` files, the others to the Parquet file (normal_row). */
  size_t *blob_idx; /* indexes in write_row */
  size_t n_blob;
  size_t *normal_idx;
  cp_type *normal_row;
  struct ArrowSchema normal_arrow;
  int64_t blob_target;        /* blob.target-file-size */
  cp_blob_sources sources;    /* BlobDescriptor values: the objects they name */
  int64_t *blob_lens;         /* per blob field and row of a batch: a descriptor's length, or -1 */
  bool has_descriptor_fields; /* blob-descriptor-field columns among the written ones */
  char uuid[37];
  partition_writer *writers;
  size_t n_writers;
  cp_arena arena; /* partitions, file names, stats of finished files */
};

/* ------------------------------------ setup ------------------------------------ */

static int build_write_row(paimon_write *w, const char *const *cols, size_t n, paimon_error *err) {
  const cp_type *row = w->table->schema->row;
  if (!cols) n = row->n_fields;
  cp_field *fields = calloc(n ? n : 1, sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "write");
  int rc = PAIMON_OK;
  size_t k = 0;
  for (; k < n && !rc; k++) {
    ptrdiff_t idx = cols ? cp_row_field_index(row, cols[k]) : (ptrdiff_t)k;
    if (idx < 0) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table schema.", cols[k]);
      break;
    }
    for (size_t j = 0; j < k && !rc; j++)
      if (strcmp(fields[j].name, row->fields[idx].name) == 0)
        rc = paimon_error_set(err, PAIMON_EINVAL, "column '%s' is listed twice", fields[j].name);
    if (!rc) rc = cp_field_copy(&fields[k], &row->fields[idx], err);
    if (rc) break;
  }
  if (!rc) {
    rc = cp_type_new_row(&w->write_row, fields, k, false, err);
    k = 0;
  }
  for (size_t j = 0; j < k; j++) cp_field_clear(&fields[j]);
  free(fields);
  w->all_columns = !cols || n == row->n_fields;
  return rc;
}

static int resolve_partitions(paimon_write *w, paimon_error *err) {
  const cp_table_schema *s = w->table->schema;
  w->n_part = s->n_partition_keys;
  if (!w->n_part) return PAIMON_OK;
  w->part_index = calloc(w->n_part, sizeof *w->part_index);
  if (!w->part_index) return CP_ENOMEM(err, "write");
  for (size_t i = 0; i < w->n_part; i++) {
    ptrdiff_t idx = cp_row_field_index(w->write_row, s->partition_keys[i]);
    if (idx < 0)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "table %s: the write columns must include partition column '%s'",
                              w->table->full_name, s->partition_keys[i]);
    w->part_index[i] = (size_t)idx;
  }
  return PAIMON_OK;
}

/* The BLOB fields of the write stored in `.blob` files; the Parquet file holds the other write
 * columns, inline descriptor fields among them (view fields are not supported yet). */
static int split_blob_fields(paimon_write *w, paimon_error *err) {
  const cp_type *row = w->write_row;
  size_t n = row->n_fields;
  for (size_t i = 0; i < n; i++) {
    const cp_type *ft = row->fields[i].type;
    if ((ft->kind == CP_TYPE_ARRAY && ft->element->kind == CP_TYPE_BLOB) ||
        (ft->kind == CP_TYPE_MAP && ft->value->kind == CP_TYPE_BLOB))
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "table %s: writing column %s (%s of BLOB) is not supported yet: "
                              "cpaimon writes top-level BLOB columns",
                              w->table->full_name, row->fields[i].name,
                              cp_type_kind_name(ft->kind));
    cp_blob_store st = cp_blob_storage(w->table, &row->fields[i]);
    if (st == CP_BLOB_STORE_VIEW)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "table %s: writing BLOB view column %s ('blob-view-field') is not "
                              "supported yet",
                              w->table->full_name, row->fields[i].name);
    if (st == CP_BLOB_STORE_DESCRIPTOR) w->has_descriptor_fields = true;
    if (st == CP_BLOB_STORE_FILES) w->n_blob++;
  }
  if (!w->n_blob) return PAIMON_OK;
  const cp_options *o = &w->table->schema->options;
  if (w->n_blob == n)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "table %s: a write of BLOB columns only (no other column to align "
                            "their row ids with) is not supported yet",
                            w->table->full_name);
  w->blob_idx = calloc(w->n_blob, sizeof *w->blob_idx);
  w->normal_idx = calloc(n - w->n_blob, sizeof *w->normal_idx);
  cp_field *fields = calloc(n - w->n_blob, sizeof *fields);
  int rc = w->blob_idx && w->normal_idx && fields ? PAIMON_OK : CP_ENOMEM(err, "write");
  size_t nb = 0, nn = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    if (cp_blob_in_files(w->table, &row->fields[i])) {
      w->blob_idx[nb++] = i;
      continue;
    }
    w->normal_idx[nn] = i;
    rc = cp_field_copy(&fields[nn], &row->fields[i], err);
    if (!rc) nn++;
  }
  if (!rc) {
    rc = cp_type_new_row(&w->normal_row, fields, nn, false, err);
    nn = 0;
  }
  for (size_t j = 0; j < nn; j++) cp_field_clear(&fields[j]);
  free(fields);
  if (!rc) rc = cp_row_to_arrow_schema(w->normal_row, &w->normal_arrow, err);
  if (!rc)
    rc = cp_options_memory_size(o, "blob.target-file-size", w->table->options.target_file_size,
                                &w->blob_target, err);
  /* Normal files never hold the BLOB columns: their write_cols name the others. */
  w->all_columns = false;
  return rc;
}

int paimon_write_new(paimon_write **out, paimon_table *table, const char *const *write_cols,
                     size_t n_write_cols, paimon_error *err) {
  /* As pypaimon: files are rolled by row count only on data-evolution tables. */
  if (table->options.target_file_row_num != INT64_MAX && !table->options.data_evolution)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "target-file-row-num is set on table %s, but files are rolled by row "
                            "count only on data-evolution append tables (as pypaimon); unset it",
                            table->full_name);
  paimon_write *w = calloc(1, sizeof *w);
  if (!w) return CP_ENOMEM(err, "write");
  w->table = table;
  int rc = build_write_row(w, write_cols, n_write_cols, err);
  if (!rc) rc = resolve_partitions(w, err);
  if (!rc) rc = cp_row_to_arrow_schema(w->write_row, &w->write_arrow, err);
  cp_blob_sources_init(&w->sources, table);
  if (!rc) rc = split_blob_fields(w, err);
  if (!rc) rc = cp_uuid_v4(w->uuid, err);
  if (!rc) {
    cp_table_writer_options(table, &w->pq_opts);
  }
  if (rc) {
    paimon_write_free(w);
    return rc;
  }
  *out = w;
  return PAIMON_OK;
}

/* ------------------------------------ input normalization ------------------------------------ */

/* Builds a struct array with the write columns, in write order and with their Arrow types, from
 * `batch`: children matched by name, shared (zero-copy) when the type already matches, cast
 * otherwise. */
static int normalize(paimon_write *w, const struct ArrowSchema *schema,
                     const struct ArrowArray *batch, struct ArrowArray *out, paimon_error *err) {
  cp_array_view in;
  memset(&in, 0, sizeof in);
  CP_RETURN_IF_ERROR(cp_array_view_init(&in, schema, batch, err));
  int rc = PAIMON_OK;
  if (in.type.id != CP_ARROW_STRUCT)
    rc = paimon_error_set(err, PAIMON_EINVAL, "input must be a record batch (struct array)");
  size_t n = w->write_row->n_fields;
  /* As pypaimon: the input holds the write columns, or every column of the table (of which the
   * write columns are taken). */
  const cp_type *table_row = w->table->schema->row;
  bool whole = !rc && (size_t)in.n_children == table_row->n_fields;
  for (int64_t c = 0; whole && c < in.n_children; c++)
    whole = cp_row_field_index(table_row, in.children[c].name) >= 0;
  for (int64_t c = 0; !rc && !whole && c < in.n_children; c++)
    if (cp_row_field_index(w->write_row, in.children[c].name) < 0)
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "Input schema isn't consistent with table schema and write cols. "
                            "Column %s is not in the write columns of table %s.",
                            in.children[c].name, w->table->full_name);
  if (!rc) rc = cp_array_init(out, 1, (int64_t)n, err);
  if (!rc) out->length = in.length;
  for (size_t i = 0; !rc && i < n; i++) {
    const cp_field *f = &w->write_row->fields[i];
    int64_t c = cp_view_child_index(&in, f->name);
    if (c < 0) {
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "Input schema isn't consistent with table schema and write cols. "
                            "Column %s is missing in the input data.",
                            f->name);
      break;
    }
    const cp_array_view *cv = &in.children[c];
    const struct ArrowSchema *want = w->write_arrow.children[i];
    if (cp_schema_equal(cv->schema, want, 0)) {
      /* Zero-copy: share the child, shifted by the struct's own offset. */
      rc = cp_array_share((struct ArrowArray *)cv->array, out->children[i], err);
      if (!rc && (batch->offset || cv->array->length != in.length))
        rc = cp_array_slice_inplace(out->children[i], batch->offset, in.length, err);
    } else if (cp_cast_supported(cv->schema, want)) {
      rc = cp_cast(cv, want, out->children[i], err);
      if (rc) paimon_error_prefix(err, "column %s", f->name);
    } else {
      cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
      cp_schema_to_string(cv->schema, &a, NULL);
      cp_schema_to_string(want, &b, NULL);
      cp_buf_nul_terminate(&a, NULL);
      cp_buf_nul_terminate(&b, NULL);
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "Input schema isn't consistent with table schema and write cols. "
                            "Column %s has type %s in the input, which cannot be written to %s "
                            "(Arrow %s)",
                            f->name, a.data ? (char *)a.data : "?",
                            cp_type_kind_name(f->type->kind), b.data ? (char *)b.data : "?");
      cp_buf_free(&a);
      cp_buf_free(&b);
    }
  }
  cp_array_view_reset(&in);
  if (rc && out->release) out->release(out);
  return rc;
}

/* ------------------------------------ files ------------------------------------ */

static int open_file(paimon_write *w, partition_writer *pw, paimon_error *err) {
  char name[128];
  const char *ext;
  CP_RETURN_IF_ERROR(cp_table_file_ext(w->table, &ext, err));
  snprintf(name, sizeof name, "%s%s-%d.%s", w->table->options.data_file_prefix, w->uuid,
           pw->file_counter++, ext);
  pw->rows = 0;
  size_t n = strlen(pw->dir) + strlen(name) + 2;
  pw->path = malloc(n);
  pw->file_name = cp_arena_strdup(&w->arena, name);
  if (!pw->path || !pw->file_name) return CP_ENOMEM(err, "write");
  snprintf(pw->path, n, "%s/%s", pw->dir, name);
  CP_RETURN_IF_ERROR(cp_fs_create(w->table->fs, pw->path, CP_CREATE_EXCLUSIVE, &pw->file, err));
  /* Compression threads for one open file at a time: a write spread over many partitions keeps
   * a file open per partition, and a thread each would add up to thousands. */
  cp_pq_writer_options opts = w->pq_opts;
  for (size_t i = 0; i < w->n_writers && opts.compress_threads; i++)
    if (w->writers[i].pq && w->writers[i].threaded) opts.compress_threads = 0;
  pw->threaded = opts.compress_threads > 0;
  int rc = cp_file_writer_open(&pw->pq, w->table, pw->file, pw->path,
                               w->n_blob ? w->normal_row : w->write_row, &opts, err);
  if (rc) {
    cp_wfile_abort(pw->file);
    pw->file = NULL;
  }
  return rc;
}

static void discard_blob(blob_out *b) {
  cp_blob_writer_free(b->w);
  b->w = NULL;
  if (b->file) cp_wfile_abort(b->file);
  b->file = NULL;
  free(b->path);
  b->path = NULL;
}

static void discard_open_file(partition_writer *pw) {
  cp_file_writer_free(pw->pq);
  pw->pq = NULL;
  if (pw->file) cp_wfile_abort(pw->file);
  pw->file = NULL;
  free(pw->path);
  pw->path = NULL;
}

/* Deletes the partition's `.blob` files not yet placed after a normal file (open and pending). */
static void drop_blobs(paimon_write *w, partition_writer *pw) {
  for (size_t f = 0; pw->blobs && f < w->n_blob; f++) {
    blob_out *b = &pw->blobs[f];
    discard_blob(b); /* aborting deletes the open one */
    for (size_t j = 0; j < b->n_pending; j++) {
      char *path = cp_path_join(pw->dir, b->pending[j].file_name);
      if (path) cp_fs_delete(w->table->fs, path, NULL);
      free(path);
    }
    b->n_pending = 0;
  }
}

static int push_meta(cp_data_file_meta **arr, size_t *n, size_t *cap, const cp_data_file_meta *m,
                     paimon_error *err) {
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 4;
    cp_data_file_meta *d = realloc(*arr, c * sizeof *d);
    if (!d) return CP_ENOMEM(err, "write");
    *arr = d;
    *cap = c;
  }
  (*arr)[(*n)++] = *m;
  return PAIMON_OK;
}

/* Closes field f's open `.blob` file into a pending DataFileMeta: write_cols = the field, no
 * statistics (Java's no-stats collector), APPEND, sequence 0/0 and no first row id for the
 * committer (it gives a field's files the ids of their normal file, DE §1.3). */
static int finish_blob(paimon_write *w, partition_writer *pw, size_t f, paimon_error *err) {
  blob_out *b = &pw->blobs[f];
  if (!b->w) return PAIMON_OK;
  uint64_t size = 0;
  int64_t rows = cp_blob_writer_rows(b->w);
  int rc = cp_blob_writer_finish(b->w, &size, err);
  if (!rc) rc = cp_wfile_sync(b->file, err);
  if (!rc) {
    rc = cp_wfile_close(b->file, err); /* frees the handle either way */
    b->file = NULL;
  }
  cp_data_file_meta m;
  const char **col = rc ? NULL : cp_arena_alloc(&w->arena, sizeof *col);
  if (!rc && !col) rc = CP_ENOMEM(err, "write");
  if (!rc) {
    col[0] = w->write_row->fields[w->blob_idx[f]].name;
    cp_data_file_blob_meta(&m, b->name, (int64_t)size, rows, w->table->schema->id, col,
                           cp_local_millis_as_utc());
    rc = push_meta(&b->pending, &b->n_pending, &b->cap_pending, &m, err);
  }
  if (rc) cp_fs_delete(w->table->fs, b->path, NULL);
  discard_blob(b);
  return rc;
}

static int finish_blobs(paimon_write *w, partition_writer *pw, paimon_error *err) {
  int rc = PAIMON_OK;
  for (size_t f = 0; f < w->n_blob && !rc; f++) rc = finish_blob(w, pw, f, err);
  for (size_t f = 0; f < w->n_blob && !rc; f++) {
    blob_out *b = &pw->blobs[f];
    for (size_t i = 0; i < b->n_pending && !rc; i++)
      rc = push_meta(&pw->done, &pw->n_done, &pw->cap_done, &b->pending[i], err);
    b->n_pending = 0;
  }
  return rc;
}

static int open_blob(paimon_write *w, partition_writer *pw, size_t f, paimon_error *err) {
  blob_out *b = &pw->blobs[f];
  char name[128];
  snprintf(name, sizeof name, "%s%s-%d.blob", w->table->options.data_file_prefix, w->uuid,
           pw->file_counter++);
  size_t n = strlen(pw->dir) + strlen(name) + 2;
  b->path = malloc(n);
  b->name = cp_arena_strdup(&w->arena, name);
  if (!b->path || !b->name) return CP_ENOMEM(err, "write");
  snprintf(b->path, n, "%s/%s", pw->dir, name);
  CP_RETURN_IF_ERROR(cp_fs_create(w->table->fs, b->path, CP_CREATE_EXCLUSIVE, &b->file, err));
  int rc = cp_blob_writer_new(&b->w, b->file, err);
  if (rc) discard_blob(b);
  return rc;
}

/* Appends column `f` of `rows` (a large_binary view; lens: the checked descriptor lengths) to the
 * field's `.blob` files, rolling at blob.target-file-size. */
static int write_blob_rows(paimon_write *w, partition_writer *pw, size_t f,
                           const cp_array_view *col, const int64_t *lens, paimon_error *err) {
  blob_out *b = &pw->blobs[f];
  const char *name = w->write_row->fields[w->blob_idx[f]].name;
  int rc = PAIMON_OK;
  for (int64_t r = 0; r < col->length && !rc; r++) {
    if (!b->w) CP_RETURN_IF_ERROR(open_blob(w, pw, f, err));
    rc = cp_blob_sources_put(&w->sources, b->w, col, r, lens[r], name, err);
    if (!rc && cp_blob_writer_position(b->w) >= (uint64_t)w->blob_target)
      rc = finish_blob(w, pw, f, err);
  }
  if (rc) discard_blob(b);
  return rc;
}

/* Closes the open file into a DataFileMeta (§4.4: empty keys, level 0, APPEND, sequence 0/0 for
 * the committer to stamp, first_row_id unset for the committer to assign). */
static int finish_file(paimon_write *w, partition_writer *pw, paimon_error *err) {
  if (cp_file_writer_row_count(pw->pq) == 0) { /* every batch was rejected: no file */
    discard_open_file(pw);
    return PAIMON_OK;
  }
  cp_pq_file_stats st;
  int rc = cp_file_writer_close(pw->pq, &st, err);
  if (!rc) rc = cp_wfile_sync(pw->file, err);
  if (rc) {
    discard_open_file(pw);
    return rc;
  }
  if (pw->n_done == pw->cap_done) {
    size_t cap = pw->cap_done ? pw->cap_done * 2 : 4;
    cp_data_file_meta *d = realloc(pw->done, cap * sizeof *d);
    if (!d) {
      discard_open_file(pw);
      return CP_ENOMEM(err, "write");
    }
    pw->done = d;
    pw->cap_done = cap;
  }
  cp_data_file_meta *m = &pw->done[pw->n_done];
  memset(m, 0, sizeof *m);
  m->file_name = pw->file_name;
  m->file_size = (int64_t)st.file_size;
  m->row_count = st.num_rows;
  m->min_key = m->max_key = (cp_bytes){cp_binary_row_empty, 12};
  m->key_stats = cp_simple_stats_empty();
  rc = cp_build_value_stats(&w->table->schema->options, w->n_blob ? w->normal_row : w->write_row,
                            st.columns, &w->arena, m, err);
  m->schema_id = w->table->schema->id;
  m->has_creation_time = true;
  m->creation_time_millis = cp_local_millis_as_utc();
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = CP_FILE_SOURCE_APPEND;
  if (!w->all_columns) {
    const cp_type *written = w->n_blob ? w->normal_row : w->write_row;
    size_t n = written->n_fields;
    const char **cols = cp_arena_alloc(&w->arena, n * sizeof *cols);
    if (!cols) rc = rc ? rc : CP_ENOMEM(err, "write");
    for (size_t i = 0; cols && i < n; i++) cols[i] = written->fields[i].name;
    m->has_write_cols = true;
    m->write_cols = (cp_strings){cols, n};
  }
  if (!rc) rc = cp_wfile_close(pw->file, err);
  pw->file = NULL;
  cp_file_writer_free(pw->pq);
  pw->pq = NULL;
  if (rc) {
    cp_fs_delete(w->table->fs, pw->path, NULL);
  } else {
    pw->n_done++;
  }
  free(pw->path);
  pw->path = NULL;
  /* The field's `.blob` files follow their normal file (the order row ids are assigned in). */
  if (!rc && w->n_blob) rc = finish_blobs(w, pw, err);
  return rc;
}

static int find_writer(paimon_write *w, cp_bytes partition, partition_writer **out,
                       paimon_error *err) {
  for (size_t i = 0; i < w->n_writers; i++)
    if (w->writers[i].partition.len == partition.len &&
        memcmp(w->writers[i].partition.data, partition.data, partition.len) == 0) {
      *out = &w->writers[i];
      return PAIMON_OK;
    }
  partition_writer *ws = realloc(w->writers, (w->n_writers + 1) * sizeof *ws);
  if (!ws) return CP_ENOMEM(err, "write");
  w->writers = ws;
  partition_writer *pw = &ws[w->n_writers];
  memset(pw, 0, sizeof *pw);
  uint8_t *copy = cp_arena_alloc(&w->arena, partition.len);
  if (!copy) return CP_ENOMEM(err, "write");
  memcpy(copy, partition.data, partition.len);
  pw->partition = (cp_bytes){copy, partition.len};
  cp_buf rel = CP_BUF_INIT;
  int rc = cp_table_partition_path(w->table, pw->partition, &rel, err);
  if (!rc) rc = cp_buf_nul_terminate(&rel, err);
  if (!rc) {
    pw->dir = cp_bucket_dir(w->table->path, rel.data ? (char *)rel.data : "", 0);
    if (!pw->dir) rc = CP_ENOMEM(err, "write");
  }
  cp_buf_free(&rel);
  if (rc) return rc;
  w->n_writers++;
  *out = pw;
  return PAIMON_OK;
}

/* Writes rows into the open file of one partition; rolls it at target-file-size. */
static int write_with_blobs(paimon_write *w, partition_writer *pw, const struct ArrowArray *rows,
                            bool *refused, paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  struct ArrowArray normal;
  memset(&normal, 0, sizeof normal);
  int rc = cp_array_view_init(&v, &w->write_arrow, rows, err);
  size_t nn = w->write_row->n_fields - w->n_blob;
  if (!rc) rc = cp_array_pick_children(&v, w->normal_idx, nn, rows->length, &normal, err);
  /* Descriptors checked first, so that a refused batch leaves nothing written. */
  int64_t *lens = NULL;
  if (!rc) {
    lens = realloc(w->blob_lens, (w->n_blob * (size_t)rows->length + 1) * sizeof *lens);
    if (!lens)
      rc = CP_ENOMEM(err, "write");
    else
      w->blob_lens = lens;
  }
  for (size_t f = 0; !rc && f < w->n_blob; f++) {
    rc = cp_blob_sources_check(&w->sources, &v.children[w->blob_idx[f]],
                               w->write_row->fields[w->blob_idx[f]].name,
                               lens + f * (size_t)rows->length, err);
    if (rc) *refused = true;
  }
  if (!rc) rc = cp_file_writer_write(pw->pq, &w->normal_arrow, &normal, err);
  /* The Parquet writer takes a batch whole or not at all; the blobs follow it. */
  for (size_t f = 0; !rc && f < w->n_blob; f++)
    rc = write_blob_rows(w, pw, f, &v.children[w->blob_idx[f]], lens + f * (size_t)rows->length,
                         err);
  if (normal.release) normal.release(&normal);
  cp_array_view_reset(&v);
  return rc;
}

/* Values of blob-descriptor-field columns must be serialized BlobDescriptors (as pypaimon and
 * Java require): they are stored as they are and read back through the object they name. */
static int check_descriptor_fields(paimon_write *w, const struct ArrowArray *rows,
                                   paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  int rc = cp_array_view_init(&v, &w->write_arrow, rows, err);
  for (size_t i = 0; !rc && i < w->write_row->n_fields; i++) {
    const cp_field *f = &w->write_row->fields[i];
    if (cp_blob_storage(w->table, f) != CP_BLOB_STORE_DESCRIPTOR) continue;
    const cp_array_view *col = &v.children[i];
    for (int64_t r = 0; !rc && r < col->length; r++) {
      if (cp_view_is_null(col, r)) continue;
      int64_t n = 0;
      const uint8_t *b = cp_view_get_bytes(col, r, &n);
      cp_blob_descriptor d;
      paimon_error why;
      if (cp_blob_descriptor_parse(b, (size_t)n, &d, &why) != 0)
        rc = paimon_error_set(err, PAIMON_EINVAL,
                              "blob-descriptor-field requires blob field value to be a serialized "
                              "BlobDescriptor. (column %s, row %" PRId64 ": %s)",
                              f->name, r, why.message);
    }
  }
  cp_array_view_reset(&v);
  return rc;
}

static int write_rows(paimon_write *w, partition_writer *pw, const struct ArrowArray *rows,
                      paimon_error *err) {
  if (w->has_descriptor_fields) CP_RETURN_IF_ERROR(check_descriptor_fields(w, rows, err));
  if (!pw->pq) CP_RETURN_IF_ERROR(open_file(w, pw, err));
  if (w->n_blob && !pw->blobs) {
    pw->blobs = calloc(w->n_blob, sizeof *pw->blobs);
    if (!pw->blobs) return CP_ENOMEM(err, "write");
  }
  bool refused = false; /* by the descriptor check, before anything was written */
  int rc = w->n_blob ? write_with_blobs(w, pw, rows, &refused, err)
                     : cp_file_writer_write(pw->pq, &w->write_arrow, rows, err);
  if (rc) {
    /* A rejected batch leaves the writer intact; other failures poison the file (and the open
     * `.blob` files beside it). */
    if (!refused && rc != PAIMON_EINVAL && rc != PAIMON_EUNSUPPORTED) {
      discard_open_file(pw);
      drop_blobs(w, pw);
    }
    return rc;
  }
  pw->rows += rows->length;
  if (pw->rows >= w->table->options.target_file_row_num ||
      (int64_t)cp_file_writer_estimated_size(pw->pq) >= w->table->options.target_file_size)
    return finish_file(w, pw, err);
  return PAIMON_OK;
}

/* Writes rows of one partition, split so that no file holds more than target-file-row-num. */
static int write_partition(paimon_write *w, cp_bytes partition, const struct ArrowArray *rows,
                           paimon_error *err) {
  partition_writer *pw = NULL;
  CP_RETURN_IF_ERROR(find_writer(w, partition, &pw, err));
  int64_t limit = w->table->options.target_file_row_num;
  if (rows->length <= limit - pw->rows) return write_rows(w, pw, rows, err);
  int rc = PAIMON_OK;
  for (int64_t at = 0; !rc && at < rows->length;) {
    int64_t k = limit - (pw->pq ? pw->rows : 0);
    if (k > rows->length - at) k = rows->length - at;
    struct ArrowArray part;
    memset(&part, 0, sizeof part);
    rc = cp_array_slice((struct ArrowArray *)rows, at, k, &part, err);
    if (!rc) rc = write_rows(w, pw, &part, err);
    if (part.release) part.release(&part);
    at += k;
  }
  return rc;
}

/* ------------------------------------ partition split ------------------------------------ */

/* The serialized partition row of row `r` (into `out`, cleared first). */
static int partition_of_row(paimon_write *w, const cp_array_view *batch, int64_t r, cp_buf *out,
                            paimon_error *err) {
  const cp_type *types[64];
  cp_datum values[64];
  if (w->n_part > 64)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "more than 64 partition keys");
  for (size_t i = 0; i < w->n_part; i++) {
    const cp_field *f = &w->write_row->fields[w->part_index[i]];
    types[i] = f->type;
    CP_RETURN_IF_ERROR(
        cp_datum_from_view(f->type, &batch->children[w->part_index[i]], r, &values[i], err));
  }
  cp_buf_clear(out);
  return cp_binary_row_write(types, values, w->n_part, out, err);
}

/* Numbers the distinct partitions of rows [0, n) in order of first appearance: group_of[r] for
 * every row, first_row[g] for every group. Groups are found through an open-addressing table on
 * the row hashes (grown at half full), so a batch costs O(rows) whatever its partition count; rows
 * with equal hashes are told apart by comparing their keys. */
static int group_rows(const cp_array_view *keys, size_t n_keys, const uint64_t *hashes, int64_t n,
                      int64_t *group_of, int64_t *first_row, int64_t *n_groups, paimon_error *err) {
  size_t cap = 64;
  int64_t *slots = NULL, groups = 0;
  for (int64_t r = 0; r < n; r++) {
    if (!slots || (size_t)groups * 2 >= cap) {
      size_t ncap = slots ? cap * 2 : cap;
      int64_t *ns = malloc(ncap * sizeof *ns);
      if (!ns) {
        free(slots);
        return CP_ENOMEM(err, "write: partition table");
      }
      memset(ns, 0xFF, ncap * sizeof *ns);
      for (int64_t g = 0; g < groups; g++) {
        size_t i = (size_t)hashes[first_row[g]] & (ncap - 1);
        while (ns[i] >= 0) i = (i + 1) & (ncap - 1);
        ns[i] = g;
      }
      free(slots);
      slots = ns;
      cap = ncap;
    }
    size_t i = (size_t)hashes[r] & (cap - 1);
    int64_t g;
    for (; (g = slots[i]) >= 0; i = (i + 1) & (cap - 1)) {
      const int64_t f = first_row[g];
      if (hashes[f] != hashes[r]) continue;
      bool same = true;
      for (size_t k = 0; k < n_keys && same; k++) same = cp_rows_equal(&keys[k], f, &keys[k], r);
      if (same) break;
    }
    if (g < 0) {
      g = groups++;
      first_row[g] = r;
      slots[i] = g;
    }
    group_of[r] = g;
  }
  free(slots);
  *n_groups = groups;
  return PAIMON_OK;
}

/* Groups rows by partition: hash the partition columns (vectorized), then resolve collisions by
 * comparing rows; writes each group with `take` (or the batch itself when it holds one partition).
 */
static int split_and_write(paimon_write *w, const struct ArrowArray *norm, paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, &w->write_arrow, norm, err));
  int64_t n = v.length;
  int rc = PAIMON_OK;
  cp_buf key = CP_BUF_INIT;
  uint64_t *hashes = NULL;
  int64_t *group_of = NULL, *first_row = NULL, *order = NULL, *counts = NULL;
  if (w->n_part == 0 || n == 0) {
    cp_bytes empty = {cp_binary_row_empty, 12};
    if (n) rc = write_partition(w, empty, norm, err);
    goto done;
  }
  cp_array_view keys[64];
  for (size_t i = 0; i < w->n_part; i++) keys[i] = v.children[w->part_index[i]];
  hashes = malloc((size_t)n * sizeof *hashes);
  group_of = malloc((size_t)n * sizeof *group_of);
  first_row = malloc((size_t)n * sizeof *first_row);
  if (!hashes || !group_of || !first_row) {
    rc = CP_ENOMEM(err, "write");
    goto done;
  }
  CP_GOTO_IF_ERROR(rc, cp_hash_rows(keys, (int64_t)w->n_part, hashes, err), done);
  int64_t n_groups = 0;
  CP_GOTO_IF_ERROR(rc, group_rows(keys, w->n_part, hashes, n, group_of, first_row, &n_groups, err),
                   done);
  if (n_groups == 1) {
    CP_GOTO_IF_ERROR(rc, partition_of_row(w, &v, 0, &key, err), done);
    rc = write_partition(w, (cp_bytes){key.data, key.len}, norm, err);
    goto done;
  }
  /* Counting sort of row numbers by group, then one take per group. */
  counts = calloc((size_t)n_groups + 1, sizeof *counts);
  order = malloc((size_t)n * sizeof *order);
  if (!counts || !order) {
    rc = CP_ENOMEM(err, "write");
    goto done;
  }
  for (int64_t r = 0; r < n; r++) counts[group_of[r] + 1]++;
  for (int64_t g = 0; g < n_groups; g++) counts[g + 1] += counts[g];
  for (int64_t r = 0; r < n; r++) order[counts[group_of[r]]++] = r;
  for (int64_t g = 0, start = 0; g < n_groups && !rc; g++) {
    int64_t end = counts[g];
    struct ArrowArray part;
    memset(&part, 0, sizeof part);
    CP_GOTO_IF_ERROR(rc, partition_of_row(w, &v, first_row[g], &key, err), done);
    rc = cp_take(&v, order + start, end - start, &part, err);
    if (!rc) rc = write_partition(w, (cp_bytes){key.data, key.len}, &part, err);
    if (part.release) part.release(&part);
    start = end;
  }
done:
  cp_buf_free(&key);
  free(hashes);
  free(group_of);
  free(first_row);
  free(order);
  free(counts);
  cp_array_view_reset(&v);
  return rc;
}

/* ------------------------------------ public API ------------------------------------ */

int paimon_write_batch(paimon_write *w, const struct ArrowSchema *schema,
                       const struct ArrowArray *batch, paimon_error *err) {
  struct ArrowArray norm;
  memset(&norm, 0, sizeof norm);
  int rc = normalize(w, schema, batch, &norm, err);
  if (!rc) rc = split_and_write(w, &norm, err);
  if (norm.release) norm.release(&norm);
  if (rc) paimon_error_prefix(err, "write to table %s", w->table->full_name);
  return rc;
}

int paimon_write_stream(paimon_write *w, struct ArrowArrayStream *stream, paimon_error *err) {
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = cp_stream_get_schema(stream, &schema, err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(stream, &batch, err);
    if (rc || !batch.release) break; /* end of stream: released (empty) array */
    rc = paimon_write_batch(w, &schema, &batch, err);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  cp_stream_release(stream);
  return rc;
}

int paimon_write_prepare_commit(paimon_write *w, paimon_commit_messages **out, paimon_error *err) {
  int rc = paimon_commit_messages_new(out, err);
  for (size_t i = 0; i < w->n_writers && !rc; i++)
    if (w->writers[i].pq) rc = finish_file(w, &w->writers[i], err);
  for (size_t i = 0; i < w->n_writers && !rc; i++) {
    partition_writer *pw = &w->writers[i];
    if (!pw->n_done) continue;
    cp_commit_message m;
    memset(&m, 0, sizeof m);
    m.partition = pw->partition;
    m.bucket = 0;
    m.total_buckets = (int32_t)w->table->options.bucket;
    m.new_files = pw->done;
    m.n_new = pw->n_done;
    m.check_from_snapshot = -1;
    rc = cp_commit_messages_add(*out, &m, err);
  }
  if (rc) {
    paimon_commit_messages_free(*out);
    *out = NULL;
    return rc;
  }
  /* Handed out: the files now belong to the messages (a committer or abort deletes them). */
  for (size_t i = 0; i < w->n_writers; i++) w->writers[i].n_done = 0;
  return PAIMON_OK;
}

int paimon_write_abort(paimon_write *w, paimon_error *err) {
  (void)err;
  for (size_t i = 0; i < w->n_writers; i++) {
    partition_writer *pw = &w->writers[i];
    discard_open_file(pw);
    drop_blobs(w, pw);
    for (size_t j = 0; j < pw->n_done; j++) {
      char *path = cp_path_join(pw->dir, pw->done[j].file_name);
      if (path) cp_fs_delete(w->table->fs, path, NULL);
      free(path);
    }
    pw->n_done = 0;
  }
  return PAIMON_OK;
}

void paimon_write_free(paimon_write *w) {
  if (!w) return;
  paimon_write_abort(w, NULL);
  for (size_t i = 0; i < w->n_writers; i++) {
    free(w->writers[i].done);
    free(w->writers[i].dir);
    for (size_t f = 0; w->writers[i].blobs && f < w->n_blob; f++)
      free(w->writers[i].blobs[f].pending);
    free(w->writers[i].blobs);
  }
  cp_blob_sources_free(&w->sources);
  free(w->blob_lens);
  free(w->blob_idx);
  free(w->normal_idx);
  cp_type_free(w->normal_row);
  if (w->normal_arrow.release) w->normal_arrow.release(&w->normal_arrow);
  free(w->writers);
  free(w->part_index);
  cp_type_free(w->write_row);
  if (w->write_arrow.release) w->write_arrow.release(&w->write_arrow);
  cp_arena_free(&w->arena);
  free(w);
}
