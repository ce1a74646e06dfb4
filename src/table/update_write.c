/*
 * The file writer of the data-evolution updaters (spec/data-evolution.md §2.1, §3.2, §3.6): one
 * Parquet file per row-id group, never rolled, holding only the written columns for the group's
 * whole range, and beside it one `.blob` file per written BLOB column covering the same range
 * (spec/maintenance-and-blob.md §5.5: what Java reads; pypaimon 2.1's shard updater puts BLOB
 * values into the Parquet file instead, which Java 1.4.2 cannot read). Its DataFileMeta is
 * pre-assigned the group's first_row_id (so the committer leaves it alone, §1.3), lists the columns
 * in write_cols, is an APPEND file with sequence numbers 0/0 (the committer stamps the new snapshot
 * id, §1.2 case 1).
 *
 * Why not paimon_write: it rolls at target-file-size, requires the partition columns among the
 * written ones and assigns nothing; an update file must be exactly one file covering exactly the
 * group's rows in the group's own partition directory.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "format/blob/blob_file.h"
#include "meta/binary_row.h"
#include "table/file_io.h"
#include "table/paths.h"
#include "table/stats.h"
#include "table/update_internal.h"
#include "arrow/stream.h"
#include "types/type_arrow.h"

/* A file name "<prefix><uuid>-0.<ext>" and its path in the writer's directory. */
static int new_file(cp_group_writer *w, const char *ext, char name[128], char **path,
                    cp_wfile **file, paimon_error *err) {
  char uuid[37];
  CP_RETURN_IF_ERROR(cp_uuid_v4(uuid, err));
  snprintf(name, 128, "%s%s-0.%s", w->t->options.data_file_prefix, uuid, ext);
  if (!(*path = cp_path_join(w->dir, name))) return CP_ENOMEM(err, "update");
  return cp_fs_create(w->t->fs, *path, CP_CREATE_EXCLUSIVE, file, err);
}

/* Splits `row` into the Parquet columns and the BLOB ones, opening a `.blob` file per BLOB. */
static int open_blobs(cp_group_writer *w, paimon_error *err) {
  size_t n = w->row->n_fields, nb = 0;
  for (size_t i = 0; i < n; i++)
    if (cp_blob_in_files(w->t, &w->row->fields[i])) nb++;
  if (!nb) return PAIMON_OK;
  w->blobs = calloc(nb, sizeof *w->blobs);
  w->normal_idx = calloc(n - nb + 1, sizeof *w->normal_idx);
  cp_field *fields = calloc(n - nb + 1, sizeof *fields);
  int rc = w->blobs && w->normal_idx && fields ? PAIMON_OK : CP_ENOMEM(err, "update");
  size_t k = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    if (cp_blob_in_files(w->t, &w->row->fields[i])) {
      cp_group_blob *b = &w->blobs[w->n_blob++];
      b->field = i;
      rc = new_file(w, "blob", b->file_name, &b->path, &b->file, err);
      if (!rc) rc = cp_blob_writer_new(&b->w, b->file, err);
    } else {
      w->normal_idx[k] = i;
      rc = cp_field_copy(&fields[k], &w->row->fields[i], err);
      if (!rc) k++;
    }
  }
  if (!rc) {
    rc = cp_type_new_row(&w->normal_row, fields, k, false, err);
    k = 0; /* consumed */
  }
  for (size_t j = 0; j < k; j++) cp_field_clear(&fields[j]);
  free(fields);
  if (!rc) rc = cp_row_to_arrow_schema(w->normal_row, &w->normal_arrow, err);
  return rc;
}

int cp_group_writer_open(cp_group_writer *w, paimon_table *t, const cp_type *row, bool full,
                         cp_bytes partition, int32_t bucket, int64_t first_row_id,
                         int64_t row_count, paimon_error *err) {
  memset(w, 0, sizeof *w);
  w->t = t;
  w->row = row;
  w->full = full;
  w->partition = partition;
  w->bucket = bucket;
  w->first_row_id = first_row_id;
  w->row_count = row_count;
  cp_blob_sources_init(&w->sources, t);
  cp_buf rel = CP_BUF_INIT;
  int rc = cp_table_partition_path(t, partition, &rel, err);
  if (!rc) rc = cp_buf_nul_terminate(&rel, err);
  if (!rc && !(w->dir = cp_bucket_dir(t->path, rel.data ? (char *)rel.data : "", bucket)))
    rc = CP_ENOMEM(err, "update");
  cp_buf_free(&rel);
  if (!rc) rc = cp_row_to_arrow_schema(row, &w->arrow, err);
  if (!rc) rc = open_blobs(w, err);
  const cp_type *pq_row = w->n_blob ? w->normal_row : row;
  if (!rc && pq_row->n_fields) {
    const char *ext;
    rc = cp_table_file_ext(t, &ext, err);
    if (!rc) rc = new_file(w, ext, w->file_name, &w->path, &w->file, err);
    cp_pq_writer_options o;
    cp_table_writer_options(t, &o);
    if (!rc) rc = cp_file_writer_open(&w->pq, t, w->file, w->path, pq_row, &o, err);
  }
  if (rc) cp_group_writer_abort(w);
  return rc;
}

/* Column `b` of a batch: its descriptors checked, then every row appended. */
static int write_blob_column(cp_group_writer *w, cp_group_blob *b, const cp_array_view *col,
                             paimon_error *err) {
  int64_t *lens = realloc(w->lens, ((size_t)col->length + 1) * sizeof *lens);
  if (!lens) return CP_ENOMEM(err, "update");
  w->lens = lens;
  const char *name = w->row->fields[b->field].name;
  int rc = cp_blob_sources_check(&w->sources, col, name, lens, err);
  for (int64_t r = 0; r < col->length && !rc; r++)
    rc = cp_blob_sources_put(&w->sources, b->w, col, r, lens[r], name, err);
  return rc;
}

/* Writes a batch split between the Parquet file and the `.blob` files. */
static int write_split(cp_group_writer *w, const struct ArrowArray *batch, paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  struct ArrowArray normal;
  memset(&normal, 0, sizeof normal);
  int rc = cp_array_view_init(&v, &w->arrow, batch, err);
  size_t nn = w->row->n_fields - w->n_blob;
  if (!rc && w->pq) {
    rc = cp_array_pick_children(&v, w->normal_idx, nn, batch->length, &normal, err);
    if (!rc) rc = cp_file_writer_write(w->pq, &w->normal_arrow, &normal, err);
  }
  for (size_t f = 0; !rc && f < w->n_blob; f++)
    rc = write_blob_column(w, &w->blobs[f], &v.children[w->blobs[f].field], err);
  if (normal.release) normal.release(&normal);
  cp_array_view_reset(&v);
  return rc;
}

int cp_group_writer_write(cp_group_writer *w, const struct ArrowArray *batch, paimon_error *err) {
  if (w->written + batch->length > w->row_count)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Data num size exceeds capacity: group [%" PRId64 ", %" PRId64
                            "] holds %" PRId64 " rows, %" PRId64 " written, %" PRId64 " more given",
                            w->first_row_id, w->first_row_id + w->row_count - 1, w->row_count,
                            w->written, batch->length);
  int rc =
      w->n_blob ? write_split(w, batch, err) : cp_file_writer_write(w->pq, &w->arrow, batch, err);
  if (!rc) w->written += batch->length;
  return rc;
}

static int build_meta(cp_group_writer *w, const cp_type *row, const cp_pq_file_stats *st,
                      cp_arena *arena, cp_data_file_meta *m, paimon_error *err) {
  memset(m, 0, sizeof *m);
  m->file_name = cp_arena_strdup(arena, w->file_name);
  if (!m->file_name) return CP_ENOMEM(err, "update");
  m->file_size = (int64_t)st->file_size;
  m->row_count = st->num_rows;
  m->min_key = m->max_key = (cp_bytes){cp_binary_row_empty, 12};
  m->key_stats = cp_simple_stats_empty();
  CP_RETURN_IF_ERROR(cp_build_value_stats(&w->t->schema->options, row, st->columns, arena, m, err));
  m->schema_id = w->t->schema->id;
  m->has_creation_time = true;
  m->creation_time_millis = cp_local_millis_as_utc();
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = CP_FILE_SOURCE_APPEND;
  m->has_first_row_id = true;
  m->first_row_id = w->first_row_id;
  m->min_sequence_number = m->max_sequence_number = 0;
  if (!w->full || w->n_blob) {
    size_t n = row->n_fields;
    const char **cols = cp_arena_alloc(arena, (n ? n : 1) * sizeof *cols);
    if (!cols) return CP_ENOMEM(err, "update");
    for (size_t i = 0; i < n; i++)
      if (!(cols[i] = cp_arena_strdup(arena, row->fields[i].name))) return CP_ENOMEM(err, "update");
    m->has_write_cols = true;
    m->write_cols = (cp_strings){cols, n};
  }
  return PAIMON_OK;
}

static int finish_blob(cp_group_writer *w, cp_group_blob *b, cp_arena *arena, cp_data_file_meta *m,
                       paimon_error *err) {
  uint64_t size = 0;
  int rc = cp_blob_writer_finish(b->w, &size, err);
  if (!rc) rc = cp_wfile_sync(b->file, err);
  if (!rc) {
    rc = cp_wfile_close(b->file, err);
    b->file = NULL;
  }
  const char **col = rc ? NULL : cp_arena_alloc(arena, sizeof *col);
  const char *name = rc ? NULL : cp_arena_strdup(arena, b->file_name);
  if (!rc && (!col || !name || !(col[0] = cp_arena_strdup(arena, w->row->fields[b->field].name))))
    rc = CP_ENOMEM(err, "update");
  if (rc) return rc;
  cp_data_file_blob_meta(m, name, (int64_t)size, w->row_count, w->t->schema->id, col,
                         cp_local_millis_as_utc());
  m->has_first_row_id = true;
  m->first_row_id = w->first_row_id;
  return PAIMON_OK;
}

int cp_group_writer_finish_files(cp_group_writer *w, cp_arena *arena, cp_data_file_meta *metas,
                                 size_t *n, paimon_error *err) {
  *n = 0;
  if (w->written != w->row_count) {
    int rc = paimon_error_set(err, PAIMON_EINVAL,
                              "File row count mismatch. Group [%" PRId64 ", %" PRId64
                              "] of table %s needs %" PRId64 " rows, %" PRId64 " were written.",
                              w->first_row_id, w->first_row_id + w->row_count - 1, w->t->full_name,
                              w->row_count, w->written);
    cp_group_writer_abort(w);
    return rc;
  }
  int rc = PAIMON_OK;
  size_t k = 0;
  if (w->pq) {
    cp_pq_file_stats st;
    rc = cp_file_writer_close(w->pq, &st, err);
    if (!rc) rc = cp_wfile_sync(w->file, err);
    if (!rc) rc = build_meta(w, w->n_blob ? w->normal_row : w->row, &st, arena, &metas[k], err);
    if (!rc) {
      rc = cp_wfile_close(w->file, err);
      w->file = NULL;
      k++;
    }
  }
  for (size_t f = 0; !rc && f < w->n_blob; f++)
    if (!(rc = finish_blob(w, &w->blobs[f], arena, &metas[k], err))) k++;
  if (rc) {
    cp_group_writer_abort(w);
    return rc;
  }
  /* Handed over: the files now belong to whoever holds the message. */
  free(w->path);
  w->path = NULL;
  for (size_t f = 0; f < w->n_blob; f++) {
    free(w->blobs[f].path);
    w->blobs[f].path = NULL;
  }
  cp_group_writer_abort(w);
  *n = k;
  return PAIMON_OK;
}

int cp_group_writer_finish(cp_group_writer *w, cp_arena *arena, cp_data_file_meta *meta,
                           paimon_error *err) {
  if (w->n_blob) {
    cp_group_writer_abort(w);
    return paimon_error_set(err, PAIMON_ESTATE,
                            "group writer of table %s: BLOB columns make "
                            "more than one file",
                            w->t->full_name);
  }
  size_t n = 0;
  return cp_group_writer_finish_files(w, arena, meta, &n, err);
}

void cp_group_writer_abort(cp_group_writer *w) {
  cp_file_writer_free(w->pq);
  w->pq = NULL;
  if (w->file) cp_wfile_abort(w->file);
  w->file = NULL;
  if (w->path) cp_fs_delete(w->t->fs, w->path, NULL);
  free(w->path);
  for (size_t f = 0; f < w->n_blob; f++) {
    cp_group_blob *b = &w->blobs[f];
    cp_blob_writer_free(b->w);
    if (b->file) cp_wfile_abort(b->file);
    if (b->path) cp_fs_delete(w->t->fs, b->path, NULL);
    free(b->path);
  }
  free(w->blobs);
  w->blobs = NULL;
  w->n_blob = 0;
  cp_blob_sources_free(&w->sources);
  free(w->lens);
  w->lens = NULL;
  free(w->normal_idx);
  w->normal_idx = NULL;
  cp_type_free(w->normal_row);
  w->normal_row = NULL;
  if (w->normal_arrow.release) w->normal_arrow.release(&w->normal_arrow);
  free(w->dir);
  w->path = w->dir = NULL;
  if (w->arrow.release) w->arrow.release(&w->arrow);
}

/* ------------------------------------ messages ------------------------------------ */

int cp_group_writer_copy(cp_group_writer *w, const paimon_plan *plan, const size_t *splits,
                         size_t n, const char *const *cols, size_t n_cols, paimon_error *err) {
  paimon_read_builder *rb = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  int rc = paimon_read_builder_new(&rb, w->t, err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, cols, n_cols, err);
  /* Copied as stored: inline descriptor columns keep their descriptors. */
  if (!rc) rc = paimon_read_builder_set_blob_as_descriptor(rb, true, err);
  if (!rc) {
    cp_read_builder_ignore_deletion_vectors(rb);
    rc = paimon_plan_read(rb, plan, splits, n, &s, err);
  }
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    rc = cp_group_writer_write(w, &batch, err);
    batch.release(&batch);
  }
  if (s.release) s.release(&s);
  paimon_read_builder_free(rb);
  return rc;
}

int cp_update_add_file(paimon_update *u, paimon_commit_messages *msgs, cp_bytes partition,
                       int32_t bucket, const cp_data_file_meta *file, paimon_error *err) {
  cp_commit_message m;
  memset(&m, 0, sizeof m);
  m.partition = partition;
  m.bucket = bucket;
  m.total_buckets = (int32_t)u->t->options.bucket;
  m.new_files = (cp_data_file_meta *)file;
  m.n_new = 1;
  m.check_from_snapshot = u->snapshot_id;
  return cp_commit_messages_add(msgs, &m, err);
}

void cp_update_discard(paimon_update *u, paimon_commit_messages *msgs) {
  if (!msgs) return;
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    for (size_t j = 0; j < m->n_new; j++) {
      char *path = NULL;
      if (cp_data_file_path(u->t, m->partition, m->bucket, &m->new_files[j], &path, NULL) == 0)
        cp_fs_delete(u->t->fs, path, NULL);
      free(path);
    }
  }
}

/* ------------------------------------ input ------------------------------------ */

int cp_update_convert_column(const cp_array_view *v, const cp_field *f, struct ArrowSchema *schema,
                             struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_field_to_arrow(f, schema, err));
  int rc = PAIMON_OK;
  if (cp_schema_equal(v->schema, schema, 0)) {
    rc = cp_array_share((struct ArrowArray *)v->array, out, err);
    if (!rc && (v->offset != v->array->offset || v->length != v->array->length))
      rc = cp_array_slice_inplace(out, v->offset - v->array->offset, v->length, err);
  } else if (cp_cast_supported(v->schema, schema)) {
    rc = cp_cast(v, schema, out, err);
    if (rc) paimon_error_prefix(err, "column %s", f->name);
  } else {
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    cp_schema_to_string(v->schema, &a, NULL);
    cp_schema_to_string(schema, &b, NULL);
    cp_buf_nul_terminate(&a, NULL);
    cp_buf_nul_terminate(&b, NULL);
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "Column %s has type %s in the input, which cannot be written to %s "
                          "(Arrow %s)",
                          f->name, a.data ? (char *)a.data : "?", cp_type_kind_name(f->type->kind),
                          b.data ? (char *)b.data : "?");
    cp_buf_free(&a);
    cp_buf_free(&b);
  }
  if (rc) schema->release(schema);
  return rc;
}

int cp_update_columns_row(paimon_table *t, const char *const *names, size_t n, cp_type **out,
                          paimon_error *err) {
  const cp_type *row = t->schema->row;
  cp_field *fields = calloc(n ? n : 1, sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "update");
  int rc = PAIMON_OK;
  size_t k = 0;
  for (; k < n && !rc; k++) {
    const cp_field *f = cp_row_find_field(row, names[k]);
    if (!f) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table schema.", names[k]);
      break;
    }
    rc = cp_field_copy(&fields[k], f, err);
    if (rc) break;
  }
  if (!rc) {
    rc = cp_type_new_row(out, fields, n, false, err);
    k = 0; /* consumed */
  }
  for (size_t j = 0; j < k; j++) cp_field_clear(&fields[j]);
  free(fields);
  return rc;
}

int cp_update_require_de(paimon_table *t, const char *op, paimon_error *err) {
  if (!t->options.data_evolution)
    return paimon_error_set(err, PAIMON_EINVAL, "%s requires 'data-evolution.enabled' = 'true'.",
                            op);
  if (!t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL, "%s requires 'row-tracking.enabled' = 'true'.", op);
  return PAIMON_OK;
}
