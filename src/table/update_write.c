/*
 * The file writer of the data-evolution updaters (spec/data-evolution.md §2.1, §3.2, §3.6): one
 * Parquet file per row-id group, never rolled, holding only the written columns for the group's
 * whole range. Its DataFileMeta is pre-assigned the group's first_row_id (so the committer leaves
 * it alone, §1.3), lists the columns in write_cols, is an APPEND file with sequence numbers 0/0
 * (the committer stamps the new snapshot id, §1.2 case 1).
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
#include "meta/binary_row.h"
#include "table/paths.h"
#include "table/stats.h"
#include "table/update_internal.h"
#include "arrow/stream.h"
#include "types/type_arrow.h"

/* Local wall-clock time encoded as if it were UTC, as Paimon writers store _CREATION_TIME
 * (spec/format.md §4.4). */
static int64_t creation_millis(void) {
  int64_t now = cp_now_millis();
  time_t secs = (time_t)(now / 1000);
  struct tm local;
  if (!localtime_r(&secs, &local)) return now;
  return now + (int64_t)local.tm_gmtoff * 1000;
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
  char uuid[37];
  CP_RETURN_IF_ERROR(cp_uuid_v4(uuid, err));
  snprintf(w->file_name, sizeof w->file_name, "%s%s-0.parquet", t->options.data_file_prefix, uuid);
  cp_buf rel = CP_BUF_INIT;
  int rc = cp_table_partition_path(t, partition, &rel, err);
  if (!rc) rc = cp_buf_nul_terminate(&rel, err);
  if (!rc && !(w->dir = cp_bucket_dir(t->path, rel.data ? (char *)rel.data : "", bucket)))
    rc = CP_ENOMEM(err, "update");
  cp_buf_free(&rel);
  if (!rc && !(w->path = cp_path_join(w->dir, w->file_name))) rc = CP_ENOMEM(err, "update");
  if (!rc) rc = cp_row_to_arrow_schema(row, &w->arrow, err);
  if (!rc) rc = cp_fs_create(t->fs, w->path, CP_CREATE_EXCLUSIVE, &w->file, err);
  if (!rc) {
    cp_pq_writer_options o;
    cp_table_writer_options(t, &o);
    rc = cp_pq_writer_open(&w->pq, w->file, row, &o, err);
  }
  if (rc) cp_group_writer_abort(w);
  return rc;
}

int cp_group_writer_write(cp_group_writer *w, const struct ArrowArray *batch, paimon_error *err) {
  if (w->written + batch->length > w->row_count)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Data num size exceeds capacity: group [%" PRId64 ", %" PRId64
                            "] holds %" PRId64 " rows, %" PRId64 " written, %" PRId64 " more given",
                            w->first_row_id, w->first_row_id + w->row_count - 1, w->row_count,
                            w->written, batch->length);
  int rc = cp_pq_writer_write(w->pq, &w->arrow, batch, err);
  if (!rc) w->written += batch->length;
  return rc;
}

static int build_meta(cp_group_writer *w, const cp_pq_file_stats *st, cp_arena *arena,
                      cp_data_file_meta *m, paimon_error *err) {
  memset(m, 0, sizeof *m);
  m->file_name = cp_arena_strdup(arena, w->file_name);
  if (!m->file_name) return CP_ENOMEM(err, "update");
  m->file_size = (int64_t)st->file_size;
  m->row_count = st->num_rows;
  m->min_key = m->max_key = (cp_bytes){cp_binary_row_empty, 12};
  m->key_stats = cp_simple_stats_empty();
  CP_RETURN_IF_ERROR(
      cp_build_value_stats(&w->t->schema->options, w->row, st->columns, arena, m, err));
  m->schema_id = w->t->schema->id;
  m->has_creation_time = true;
  m->creation_time_millis = creation_millis();
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = CP_FILE_SOURCE_APPEND;
  m->has_first_row_id = true;
  m->first_row_id = w->first_row_id;
  m->min_sequence_number = m->max_sequence_number = 0;
  if (!w->full) {
    size_t n = w->row->n_fields;
    const char **cols = cp_arena_alloc(arena, (n ? n : 1) * sizeof *cols);
    if (!cols) return CP_ENOMEM(err, "update");
    for (size_t i = 0; i < n; i++)
      if (!(cols[i] = cp_arena_strdup(arena, w->row->fields[i].name)))
        return CP_ENOMEM(err, "update");
    m->has_write_cols = true;
    m->write_cols = (cp_strings){cols, n};
  }
  return PAIMON_OK;
}

int cp_group_writer_finish(cp_group_writer *w, cp_arena *arena, cp_data_file_meta *meta,
                           paimon_error *err) {
  if (w->written != w->row_count) {
    int rc = paimon_error_set(err, PAIMON_EINVAL,
                              "File row count mismatch. Group [%" PRId64 ", %" PRId64
                              "] of table %s needs %" PRId64 " rows, %" PRId64 " were written.",
                              w->first_row_id, w->first_row_id + w->row_count - 1, w->t->full_name,
                              w->row_count, w->written);
    cp_group_writer_abort(w);
    return rc;
  }
  cp_pq_file_stats st;
  int rc = cp_pq_writer_close(w->pq, &st, err);
  if (!rc) rc = cp_wfile_sync(w->file, err);
  if (!rc) rc = build_meta(w, &st, arena, meta, err);
  if (!rc) {
    rc = cp_wfile_close(w->file, err);
    w->file = NULL;
  }
  if (rc) {
    cp_group_writer_abort(w);
    return rc;
  }
  /* Handed over: the file now belongs to whoever holds the message. */
  cp_pq_writer_free(w->pq);
  w->pq = NULL;
  free(w->path);
  w->path = NULL;
  cp_group_writer_abort(w);
  return PAIMON_OK;
}

void cp_group_writer_abort(cp_group_writer *w) {
  cp_pq_writer_free(w->pq);
  w->pq = NULL;
  if (w->file) cp_wfile_abort(w->file);
  w->file = NULL;
  if (w->path) cp_fs_delete(w->t->fs, w->path, NULL);
  free(w->path);
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
