/* Rows written with their ids (rows_writer.h). */
#include "table/rows_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "meta/binary_row.h"
#include "table/file_io.h"
#include "table/paths.h"
#include "table/stats.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

int cp_rows_writer_init(cp_rows_writer *w, paimon_table *t, int file_source, paimon_error *err) {
  memset(w, 0, sizeof *w);
  w->t = t;
  w->file_source = file_source;
  w->n_user = t->schema->row->n_fields;
  CP_RETURN_IF_ERROR(cp_row_with_row_tracking(t->schema->row, false, true, &w->row, err));
  CP_RETURN_IF_ERROR(cp_row_to_arrow_schema(w->row, &w->arrow, err));
  CP_RETURN_IF_ERROR(cp_uuid_v4(w->uuid, err));
  cp_table_writer_options(t, &w->opts);
  size_t n = w->row->n_fields;
  const char **cols = cp_arena_alloc(&w->arena, n * sizeof *cols);
  if (!cols) return CP_ENOMEM(err, "rewrite");
  for (size_t i = 0; i < n; i++) cols[i] = w->row->fields[i].name;
  w->write_cols = (cp_strings){cols, n};
  return PAIMON_OK;
}

static void discard_open(cp_rows_part *p) {
  cp_file_writer_free(p->pq);
  p->pq = NULL;
  if (p->file) cp_wfile_abort(p->file);
  p->file = NULL;
  free(p->path);
  p->path = NULL;
}

void cp_rows_writer_free(cp_rows_writer *w, bool keep) {
  for (size_t i = 0; i < w->n_parts; i++) {
    cp_rows_part *p = &w->parts[i];
    discard_open(p);
    for (size_t k = 0; k < p->n_paths; k++) {
      if (!keep) cp_fs_delete(w->t->fs, p->paths[k], NULL);
      free(p->paths[k]);
    }
    free(p->paths);
    free(p->done);
    free(p->deleted);
    free(p->dir);
  }
  free(w->parts);
  cp_type_free(w->row);
  if (w->arrow.release) w->arrow.release(&w->arrow);
  cp_arena_free(&w->arena);
}

int cp_rows_writer_part(cp_rows_writer *w, cp_bytes partition, int32_t bucket, size_t *index,
                        paimon_error *err) {
  for (size_t i = 0; i < w->n_parts; i++)
    if (w->parts[i].bucket == bucket && w->parts[i].partition.len == partition.len &&
        memcmp(w->parts[i].partition.data, partition.data, partition.len) == 0) {
      *index = i;
      return PAIMON_OK;
    }
  cp_rows_part *ps = realloc(w->parts, (w->n_parts + 1) * sizeof *ps);
  if (!ps) return CP_ENOMEM(err, "rewrite");
  w->parts = ps;
  cp_rows_part *p = &ps[w->n_parts];
  memset(p, 0, sizeof *p);
  uint8_t *copy = cp_arena_alloc(&w->arena, partition.len + 1);
  if (!copy) return CP_ENOMEM(err, "rewrite");
  memcpy(copy, partition.data, partition.len);
  p->partition = (cp_bytes){copy, partition.len};
  p->bucket = bucket;
  cp_buf rel = CP_BUF_INIT;
  int rc = cp_table_partition_path(w->t, p->partition, &rel, err);
  if (!rc) rc = cp_buf_nul_terminate(&rel, err);
  if (!rc && !(p->dir = cp_bucket_dir(w->t->path, rel.data ? (char *)rel.data : "", bucket)))
    rc = CP_ENOMEM(err, "rewrite");
  cp_buf_free(&rel);
  if (rc) {
    free(p->dir);
    return rc;
  }
  *index = w->n_parts++;
  return PAIMON_OK;
}

static int open_file(cp_rows_writer *w, cp_rows_part *p, paimon_error *err) {
  char name[128];
  const char *ext;
  CP_RETURN_IF_ERROR(cp_table_file_ext(w->t, &ext, err));
  snprintf(name, sizeof name, "%s%s-%d.%s", w->t->options.data_file_prefix, w->uuid, w->counter++,
           ext);
  size_t n = strlen(p->dir) + strlen(name) + 2;
  p->path = malloc(n);
  p->name = cp_arena_strdup(&w->arena, name);
  if (!p->path || !p->name) return CP_ENOMEM(err, "rewrite");
  snprintf(p->path, n, "%s/%s", p->dir, name);
  CP_RETURN_IF_ERROR(cp_fs_create(w->t->fs, p->path, CP_CREATE_EXCLUSIVE, &p->file, err));
  int rc = cp_file_writer_open(&p->pq, w->t, p->file, p->path, w->row, &w->opts, err);
  if (rc) discard_open(p);
  return rc;
}

/* Java's RowDataFileSequenceNumberTracker (§1.1): min 0 when every value is NULL, max 0 when any
 * is; otherwise the range of the values. */
static void sequence_range(const cp_pq_column_stats *seq, int64_t rows, cp_data_file_meta *m) {
  if (seq->null_count >= rows || seq->min.is_null) {
    m->min_sequence_number = m->max_sequence_number = 0;
    return;
  }
  m->min_sequence_number = seq->min.v.i64;
  m->max_sequence_number = seq->null_count > 0 ? 0 : seq->max.v.i64;
}

static int finish_file(cp_rows_writer *w, cp_rows_part *p, paimon_error *err) {
  cp_pq_file_stats st;
  int rc = cp_file_writer_close(p->pq, &st, err);
  if (!rc) rc = cp_wfile_sync(p->file, err);
  char **paths = rc ? NULL : realloc(p->paths, (p->n_paths + 1) * sizeof *paths);
  if (!rc && !paths) rc = CP_ENOMEM(err, "rewrite");
  if (paths) p->paths = paths;
  if (!rc && p->n_done == p->cap_done) {
    size_t cap = p->cap_done ? p->cap_done * 2 : 4;
    cp_data_file_meta *d = realloc(p->done, cap * sizeof *d);
    if (!d)
      rc = CP_ENOMEM(err, "rewrite");
    else {
      p->done = d;
      p->cap_done = cap;
    }
  }
  if (rc) {
    discard_open(p);
    return rc;
  }
  cp_data_file_meta *m = &p->done[p->n_done];
  memset(m, 0, sizeof *m);
  m->file_name = p->name;
  m->file_size = (int64_t)st.file_size;
  m->row_count = st.num_rows;
  m->min_key = m->max_key = (cp_bytes){cp_binary_row_empty, 12};
  m->key_stats = cp_simple_stats_empty();
  /* Statistics of the table's columns only; _VALUE_STATS_COLS names them explicitly. */
  rc = cp_build_value_stats(&w->t->schema->options, w->t->schema->row, st.columns, &w->arena, m,
                            err);
  if (!rc && !m->has_value_stats_cols) {
    m->has_value_stats_cols = true;
    m->value_stats_cols = (cp_strings){w->write_cols.items, w->n_user};
  }
  sequence_range(&st.columns[w->n_user + 1], st.num_rows, m);
  m->schema_id = w->t->schema->id;
  m->has_creation_time = true;
  m->creation_time_millis = cp_local_millis_as_utc();
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = w->file_source;
  m->has_write_cols = true;
  m->write_cols = w->write_cols;
  if (!rc) rc = cp_wfile_close(p->file, err);
  p->file = NULL;
  cp_file_writer_free(p->pq);
  p->pq = NULL;
  if (rc) {
    cp_fs_delete(w->t->fs, p->path, NULL);
  } else {
    p->n_done++;
    p->paths[p->n_paths++] = p->path;
    p->path = NULL;
  }
  free(p->path);
  p->path = NULL;
  return rc;
}

int cp_rows_writer_write(cp_rows_writer *w, size_t part, const struct ArrowArray *batch,
                         paimon_error *err) {
  cp_rows_part *p = &w->parts[part];
  if (!p->pq) CP_RETURN_IF_ERROR(open_file(w, p, err));
  int rc = cp_file_writer_write(p->pq, &w->arrow, batch, err);
  if (rc) {
    discard_open(p);
    return rc;
  }
  if ((int64_t)cp_file_writer_estimated_size(p->pq) >= w->t->options.target_file_size)
    return finish_file(w, p, err);
  return PAIMON_OK;
}

int cp_rows_writer_add_deleted(cp_rows_writer *w, size_t part, const cp_manifest_entry *e,
                               paimon_error *err) {
  cp_rows_part *p = &w->parts[part];
  if (p->n_deleted == p->cap_deleted) {
    size_t cap = p->cap_deleted ? p->cap_deleted * 2 : 4;
    cp_manifest_entry *d = realloc(p->deleted, cap * sizeof *d);
    if (!d) return CP_ENOMEM(err, "rewrite");
    p->deleted = d;
    p->cap_deleted = cap;
  }
  p->deleted[p->n_deleted++] = *e;
  return PAIMON_OK;
}

int cp_rows_writer_emit(cp_rows_writer *w, paimon_commit_messages *out, bool compact,
                        paimon_error *err) {
  for (size_t i = 0; i < w->n_parts; i++) {
    cp_rows_part *p = &w->parts[i];
    if (p->pq) CP_RETURN_IF_ERROR(finish_file(w, p, err));
  }
  for (size_t i = 0; i < w->n_parts; i++) {
    cp_rows_part *p = &w->parts[i];
    if (!p->n_done && !p->n_deleted) continue;
    cp_data_file_meta *dels = calloc(p->n_deleted + 1, sizeof *dels);
    if (!dels) return CP_ENOMEM(err, "rewrite");
    for (size_t k = 0; k < p->n_deleted; k++) dels[k] = p->deleted[k].file;
    cp_commit_message m;
    memset(&m, 0, sizeof m);
    m.partition = p->partition;
    m.bucket = p->bucket;
    m.total_buckets = (int32_t)w->t->options.bucket;
    m.new_files = p->done;
    m.n_new = p->n_done;
    m.deleted_files = dels;
    m.n_deleted = p->n_deleted;
    /* Java's copy-on-write commits check file deletion only (no row-id check snapshot). */
    m.check_from_snapshot = -1;
    m.compact = compact;
    int r = cp_commit_messages_add(out, &m, err);
    free(dels);
    CP_RETURN_IF_ERROR(r);
  }
  return PAIMON_OK;
}
