/*
 * Applying row changes to data files (rewrite_internal.h; spec/data-evolution.md §1.5, §3.8.1,
 * format.md §7): for every file of the base snapshot that holds a changed row,
 *   - copy-on-write (no deletion vectors): all surviving rows are written to a new file, the old
 *     file is deleted;
 *   - deletion vectors: only updated rows are written, and the old positions of updated and
 *     deleted rows go into the bucket's DV.
 * An update of a partition column moves the row: it is written to a file of its new partition
 * (the old position is dropped or deleted by DV like any update's), still with its `_ROW_ID`.
 * Rows that move keep `_ROW_ID` (written physically, so the new file gets no first_row_id and
 * never advances nextRowId, §1.3) and keep `_SEQUENCE_NUMBER` unless they changed, in which case
 * it is written NULL: the new file's sequence range then follows Java's tracker (min 0 when every
 * value is NULL, max 0 when any is), and the committer stamps it (§1.2 cases 1 and 2), so a
 * changed row reads the new snapshot id and an unchanged one its old value.
 *
 * Files are read and written batch by batch; only the change set is held in memory. Files whose
 * row ids are a metadata range (first_row_id, no physical _ROW_ID) are skipped without reading
 * when no changed id falls in the range; files with physical row ids are scanned for their ids
 * first. Data-evolution tables only take deletes, which become DVs on the row-range anchors
 * (delete.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "format/parquet/writer.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/paths.h"
#include "table/rewrite_internal.h"
#include "table/scan.h"
#include "table/stats.h"
#include "types/datum_arrow.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

/* ------------------------------------ the output files ------------------------------------ */

/* Rewritten files of one partition (bucket 0: row-tracking tables are unaware-bucket). */
typedef struct out_part {
  cp_bytes partition; /* in the writer's arena */
  int32_t bucket;
  char *dir;
  cp_wfile *file;
  cp_pq_writer *pq;
  char *path;
  const char *name;
  cp_data_file_meta *done;
  size_t n_done, cap_done;
  char **paths; /* every finished file, deleted again unless handed out */
  size_t n_paths;
  cp_manifest_entry *deleted; /* old files this partition's message deletes */
  size_t n_deleted, cap_deleted;
} out_part;

typedef struct out_writer {
  paimon_table *t;
  cp_type *row;             /* the table's columns + _ROW_ID NOT NULL + _SEQUENCE_NUMBER */
  struct ArrowSchema arrow; /* struct schema of `row` */
  size_t n_user;            /* table columns */
  cp_pq_writer_options opts;
  char uuid[37];
  int counter;
  out_part *parts;
  size_t n_parts;
  cp_strings write_cols;
  cp_arena arena;
} out_writer;

static int writer_init(out_writer *w, paimon_table *t, paimon_error *err) {
  memset(w, 0, sizeof *w);
  w->t = t;
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

static void discard_open(out_part *p) {
  cp_pq_writer_free(p->pq);
  p->pq = NULL;
  if (p->file) cp_wfile_abort(p->file);
  p->file = NULL;
  free(p->path);
  p->path = NULL;
}

/* Frees the writer; files not handed out (`keep` false) are deleted. */
static void writer_free(out_writer *w, bool keep) {
  for (size_t i = 0; i < w->n_parts; i++) {
    out_part *p = &w->parts[i];
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

static int get_part(out_writer *w, cp_bytes partition, int32_t bucket, out_part **out,
                    paimon_error *err) {
  for (size_t i = 0; i < w->n_parts; i++)
    if (w->parts[i].bucket == bucket && w->parts[i].partition.len == partition.len &&
        memcmp(w->parts[i].partition.data, partition.data, partition.len) == 0) {
      *out = &w->parts[i];
      return PAIMON_OK;
    }
  out_part *ps = realloc(w->parts, (w->n_parts + 1) * sizeof *ps);
  if (!ps) return CP_ENOMEM(err, "rewrite");
  w->parts = ps;
  out_part *p = &ps[w->n_parts];
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
  w->n_parts++;
  *out = p;
  return PAIMON_OK;
}

static int open_file(out_writer *w, out_part *p, paimon_error *err) {
  char name[128];
  snprintf(name, sizeof name, "%s%s-%d.parquet", w->t->options.data_file_prefix, w->uuid,
           w->counter++);
  size_t n = strlen(p->dir) + strlen(name) + 2;
  p->path = malloc(n);
  p->name = cp_arena_strdup(&w->arena, name);
  if (!p->path || !p->name) return CP_ENOMEM(err, "rewrite");
  snprintf(p->path, n, "%s/%s", p->dir, name);
  CP_RETURN_IF_ERROR(cp_fs_create(w->t->fs, p->path, CP_CREATE_EXCLUSIVE, &p->file, err));
  int rc = cp_pq_writer_open(&p->pq, p->file, w->row, &w->opts, err);
  if (rc) discard_open(p);
  return rc;
}

/* Local wall-clock time encoded as if UTC, as Paimon writers store _CREATION_TIME (§4.4). */
static int64_t creation_time(void) {
  int64_t now = cp_now_millis();
  time_t secs = (time_t)(now / 1000);
  struct tm local;
  if (!localtime_r(&secs, &local)) return now;
  return now + (int64_t)local.tm_gmtoff * 1000;
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

static int finish_file(out_writer *w, out_part *p, paimon_error *err) {
  cp_pq_file_stats st;
  int rc = cp_pq_writer_close(p->pq, &st, err);
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
  m->creation_time_millis = creation_time();
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = CP_FILE_SOURCE_APPEND;
  m->has_write_cols = true;
  m->write_cols = w->write_cols;
  if (!rc) rc = cp_wfile_close(p->file, err);
  p->file = NULL;
  cp_pq_writer_free(p->pq);
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

static int write_rows(out_writer *w, out_part *p, const struct ArrowArray *batch,
                      paimon_error *err) {
  if (!p->pq) CP_RETURN_IF_ERROR(open_file(w, p, err));
  int rc = cp_pq_writer_write(p->pq, &w->arrow, batch, err);
  if (rc) {
    discard_open(p);
    return rc;
  }
  if ((int64_t)cp_pq_writer_estimated_size(p->pq) >= w->t->options.target_file_size)
    return finish_file(w, p, err);
  return PAIMON_OK;
}

static int add_deleted(out_part *p, const cp_manifest_entry *e, paimon_error *err) {
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

/* ------------------------------------ the change set ------------------------------------ */

static int cmp_change(const void *x, const void *y) {
  const cp_rw_change *a = x, *b = y;
  if (a->row_id != b->row_id) return a->row_id < b->row_id ? -1 : 1;
  return a->batch < b->batch ? -1 : a->batch > b->batch; /* deletes (-1) first */
}

/* Sorts the changes and folds repeated deletes; a row updated twice, or updated and deleted, is
 * an error (which value would win is undefined). */
static int sort_changes(paimon_row_changes *rc, paimon_error *err) {
  qsort(rc->changes, rc->n_changes, sizeof *rc->changes, cmp_change);
  size_t k = 0;
  for (size_t i = 0; i < rc->n_changes; i++) {
    cp_rw_change c = rc->changes[i];
    if (k && rc->changes[k - 1].row_id == c.row_id) {
      if (c.batch < 0 && rc->changes[k - 1].batch < 0) continue;
      return paimon_error_set(err, PAIMON_EINVAL,
                              "_ROW_ID %" PRId64 " is changed more than once in one statement "
                              "of table %s",
                              c.row_id, rc->t->full_name);
    }
    rc->changes[k++] = c;
  }
  rc->n_changes = k;
  return PAIMON_OK;
}

/* Index of the change of `row_id`, or -1. */
static ptrdiff_t find_change(const paimon_row_changes *rc, int64_t row_id) {
  size_t lo = 0, hi = rc->n_changes;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (rc->changes[mid].row_id < row_id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < rc->n_changes && rc->changes[lo].row_id == row_id ? (ptrdiff_t)lo : -1;
}

/* Whether a changed id lies in [from, to]. */
static bool any_change_in(const paimon_row_changes *rc, int64_t from, int64_t to) {
  size_t lo = 0, hi = rc->n_changes;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (rc->changes[mid].row_id < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < rc->n_changes && rc->changes[lo].row_id <= to;
}

/* ------------------------------------ reading a file ------------------------------------ */

/* A stream of one split's rows — every table column, _ROW_ID, _SEQUENCE_NUMBER — at physical
 * positions (its deletion vector NOT applied; the caller skips deleted positions itself). Only
 * `_ROW_ID` when `ids_only`. */
static int open_split(paimon_row_changes *rc, const cp_split *split, bool ids_only,
                      struct ArrowArrayStream *stream, struct ArrowSchema *schema,
                      paimon_error *err) {
  cp_split copy = *split;
  copy.dv_path = NULL;
  paimon_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.snapshot_id = rc->base->id;
  plan.splits = &copy;
  plan.n_splits = 1;
  paimon_read_builder *rb = NULL;
  const char *id = CP_ROW_ID_FIELD_NAME;
  int r = paimon_read_builder_new(&rb, rc->t, err);
  if (!r && ids_only) r = paimon_read_builder_set_projection(rb, &id, 1, err);
  if (!r && !ids_only) r = paimon_read_builder_with_row_tracking(rb, err);
  if (!r) r = paimon_plan_read(rb, &plan, NULL, 0, stream, err);
  if (!r) r = cp_stream_get_schema(stream, schema, err);
  paimon_read_builder_free(rb);
  return r;
}

/* Whether a file with physical row ids holds a changed row (positions a DV deleted included: the
 * full read then skips them). */
static int file_holds_change(paimon_row_changes *rc, const cp_split *split, bool *out,
                             paimon_error *err) {
  struct ArrowArrayStream s;
  struct ArrowSchema schema;
  memset(&s, 0, sizeof s);
  memset(&schema, 0, sizeof schema);
  *out = false;
  int r = open_split(rc, split, true, &s, &schema, err);
  while (!r && !*out) {
    struct ArrowArray b;
    memset(&b, 0, sizeof b);
    r = cp_stream_next(&s, &b, err);
    if (r || !b.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    r = cp_array_view_init(&v, &schema, &b, err);
    for (int64_t i = 0; !r && i < v.length && !*out; i++)
      *out = find_change(rc, cp_view_get_int64(&v.children[0], i)) >= 0;
    cp_array_view_reset(&v);
    b.release(&b);
  }
  if (schema.release) schema.release(&schema);
  if (s.release) s.release(&s);
  return r;
}

/* ------------------------------------ rewriting a file ------------------------------------ */

/* Rows leaving the file for another partition: their output builder. Parts are held by index:
 * get_part may move the array. */
typedef struct moved_rows {
  size_t part;
  cp_builder *b;
} moved_rows;

typedef struct file_job {
  paimon_row_changes *rc;
  out_writer *w;
  size_t part;       /* index into w->parts */
  moved_rows *moved; /* one per destination partition met so far */
  size_t n_moved;
  cp_dv_maintainer *dvm; /* deletion-vector mode, else NULL */
  const cp_split *split;
  const cp_dv *dv; /* the file's current DV (DV mode), or NULL */
  bool *found;     /* per change */
  int64_t position;
  cp_builder *b; /* output rows */
} file_job;

/* Appends rows [start, start + n) of the input unchanged (ids and sequence numbers copied). */
static int copy_run(file_job *j, const cp_array_view *in, int64_t start, int64_t n,
                    paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  for (int64_t c = 0; c < in->n_children; c++)
    CP_RETURN_IF_ERROR(
        cp_builder_append_view(cp_builder_child(j->b, c), &in->children[c], start, n, err));
  return cp_builder_end_elements(j->b, n, err);
}

/* Column c of the updated row: the update batch's value, else the input row's. */
static const cp_array_view *updated_value(const cp_rw_update *u, const cp_array_view *in, int64_t i,
                                          const cp_rw_change *ch, size_t c, int64_t *row) {
  int64_t uc = u->child_of[c];
  *row = uc >= 0 ? ch->row : i;
  return uc >= 0 ? &u->view.children[uc] : &in->children[c];
}

/* The builder an updated row goes to: the file's own, or (a partition column changed to another
 * value) that of its new partition. */
static int row_builder(file_job *j, const cp_array_view *in, int64_t i, const cp_rw_change *ch,
                       cp_builder **out, paimon_error *err) {
  const cp_rw_update *u = &j->rc->updates[ch->batch];
  *out = j->b;
  if (!u->moves) return PAIMON_OK;
  const cp_table_schema *s = j->w->t->schema;
  const cp_type *types[64];
  cp_datum values[64];
  if (s->n_partition_keys > 64)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "more than 64 partition keys");
  for (size_t k = 0; k < s->n_partition_keys; k++) {
    size_t c = cp_table_schema_partition_index(s, k);
    int64_t row;
    const cp_array_view *v = updated_value(u, in, i, ch, c, &row);
    types[k] = s->row->fields[c].type;
    CP_RETURN_IF_ERROR(cp_datum_from_view(types[k], v, row, &values[k], err));
  }
  cp_buf key = CP_BUF_INIT;
  int r = cp_binary_row_write(types, values, s->n_partition_keys, &key, err);
  cp_bytes p = {key.data, key.len};
  bool same = !r && p.len == j->split->partition.len &&
              memcmp(p.data, j->split->partition.data, p.len) == 0;
  out_part *dest = NULL;
  if (!r && !same) r = get_part(j->w, p, j->split->bucket, &dest, err);
  cp_buf_free(&key);
  if (r || same) return r;
  size_t d = (size_t)(dest - j->w->parts);
  for (size_t m = 0; m < j->n_moved; m++)
    if (j->moved[m].part == d) {
      *out = j->moved[m].b;
      return PAIMON_OK;
    }
  moved_rows *grown = realloc(j->moved, (j->n_moved + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "rewrite");
  j->moved = grown;
  j->moved[j->n_moved] = (moved_rows){d, NULL};
  CP_RETURN_IF_ERROR(cp_builder_create(&j->moved[j->n_moved].b, &j->w->arrow, err));
  *out = j->moved[j->n_moved++].b;
  return PAIMON_OK;
}

/* Appends input row `i` with the values of change `ch`: updated columns from the update batch,
 * the others from the row, _ROW_ID copied, _SEQUENCE_NUMBER NULL (the row changed). */
static int updated_row(file_job *j, const cp_array_view *in, int64_t i, const cp_rw_change *ch,
                       paimon_error *err) {
  const cp_rw_update *u = &j->rc->updates[ch->batch];
  size_t n_user = j->w->n_user;
  cp_builder *b;
  CP_RETURN_IF_ERROR(row_builder(j, in, i, ch, &b, err));
  for (size_t c = 0; c < n_user; c++) {
    int64_t row;
    const cp_array_view *src = updated_value(u, in, i, ch, c, &row);
    CP_RETURN_IF_ERROR(cp_builder_append_view(cp_builder_child(b, (int64_t)c), src, row, 1, err));
  }
  CP_RETURN_IF_ERROR(cp_builder_append_view(cp_builder_child(b, (int64_t)n_user),
                                            &in->children[n_user], i, 1, err));
  CP_RETURN_IF_ERROR(cp_builder_append_null(cp_builder_child(b, (int64_t)n_user + 1), err));
  return cp_builder_end_element(b, err);
}

/* Writes the rows built for each destination partition. */
static int flush_moved(file_job *j, paimon_error *err) {
  for (size_t m = 0; m < j->n_moved; m++) {
    if (cp_builder_length(j->moved[m].b) == 0) continue;
    struct ArrowArray out;
    memset(&out, 0, sizeof out);
    int r = cp_builder_finish(j->moved[m].b, &out, err);
    if (!r) r = write_rows(j->w, &j->w->parts[j->moved[m].part], &out, err);
    if (out.release) out.release(&out);
    CP_RETURN_IF_ERROR(r);
  }
  return PAIMON_OK;
}

/* One input batch: decides each row's fate and writes the output rows. */
static int rewrite_batch(file_job *j, const cp_array_view *in, paimon_error *err) {
  const cp_array_view *ids = &in->children[j->w->n_user];
  const cp_split *s = j->split;
  int64_t run = 0; /* start of the pending run of unchanged rows */
  int r = PAIMON_OK;
  for (int64_t i = 0; i < in->length && !r; i++) {
    int64_t pos = j->position + i;
    bool already = j->dv && cp_dv_contains(j->dv, pos);
    ptrdiff_t k = already ? -1 : find_change(j->rc, cp_view_get_int64(ids, i));
    if (k < 0 && !already) continue; /* unchanged: part of the run */
    if (!j->dvm) r = copy_run(j, in, run, i - run, err);
    run = i + 1;
    if (r || already) continue;
    const cp_rw_change *ch = &j->rc->changes[k];
    j->found[k] = true;
    if (j->dvm)
      r = cp_dv_maintainer_delete(j->dvm, s->partition, s->bucket, s->files[0].file.file_name, pos,
                                  NULL, err);
    if (!r && ch->batch >= 0) r = updated_row(j, in, i, ch, err);
  }
  if (!r && !j->dvm) r = copy_run(j, in, run, in->length - run, err);
  if (!r && cp_builder_length(j->b) > 0) {
    struct ArrowArray out;
    memset(&out, 0, sizeof out);
    r = cp_builder_finish(j->b, &out, err);
    if (!r) r = write_rows(j->w, &j->w->parts[j->part], &out, err);
    if (out.release) out.release(&out);
  }
  if (!r) r = flush_moved(j, err);
  j->position += in->length;
  return r;
}

static int rewrite_split(file_job *j, paimon_error *err) {
  struct ArrowArrayStream s;
  struct ArrowSchema schema;
  memset(&s, 0, sizeof s);
  memset(&schema, 0, sizeof schema);
  int r = cp_builder_create(&j->b, &j->w->arrow, err);
  if (!r) r = open_split(j->rc, j->split, false, &s, &schema, err);
  while (!r) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    r = cp_stream_next(&s, &batch, err);
    if (r || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    r = cp_array_view_init(&v, &schema, &batch, err);
    if (!r) r = rewrite_batch(j, &v, err);
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (!r && j->position != j->split->files[0].file.row_count)
    r = paimon_error_set(err, PAIMON_ECORRUPT,
                         "data file %s: read %" PRId64 " rows, its manifest entry says %" PRId64,
                         j->split->files[0].file.file_name, j->position,
                         j->split->files[0].file.row_count);
  if (schema.release) schema.release(&schema);
  if (s.release) s.release(&s);
  cp_builder_free(j->b);
  j->b = NULL;
  for (size_t m = 0; m < j->n_moved; m++) cp_builder_free(j->moved[m].b);
  free(j->moved);
  j->moved = NULL;
  j->n_moved = 0;
  return r;
}

/* Whether split `s` may hold a changed row, and so must be read: its metadata range says so, or
 * (physical row ids) a scan of its _ROW_ID column finds one. */
static int split_touched(paimon_row_changes *rc, const cp_split *s, bool *out, paimon_error *err) {
  const cp_data_file_meta *f = &s->files[0].file;
  if (!cp_data_file_writes_col(f, CP_ROW_ID_FIELD_NAME)) {
    *out = f->has_first_row_id && any_change_in(rc, f->first_row_id, cp_data_file_last_row_id(f));
    return PAIMON_OK;
  }
  return file_holds_change(rc, s, out, err);
}

/* ------------------------------------ messages ------------------------------------ */

static int emit_messages(out_writer *w, paimon_commit_messages *out, paimon_error *err) {
  for (size_t i = 0; i < w->n_parts; i++) {
    out_part *p = &w->parts[i];
    if (p->pq) CP_RETURN_IF_ERROR(finish_file(w, p, err));
  }
  for (size_t i = 0; i < w->n_parts; i++) {
    out_part *p = &w->parts[i];
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
    int r = cp_commit_messages_add(out, &m, err);
    free(dels);
    CP_RETURN_IF_ERROR(r);
  }
  return PAIMON_OK;
}

static int missing_row(const paimon_row_changes *rc, const bool *found, paimon_error *err) {
  for (size_t i = 0; i < rc->n_changes; i++)
    if (!found[i])
      return paimon_error_set(err, PAIMON_EINVAL,
                              "_ROW_ID %" PRId64 " is not a row of table %s at snapshot %" PRId64,
                              rc->changes[i].row_id, rc->t->full_name, rc->base ? rc->base->id : 0);
  return PAIMON_OK;
}

/* Data-evolution tables: deletes only, as DVs on the anchors (data-evolution.md §3.7). */
static int apply_data_evolution(paimon_row_changes *rc, paimon_commit_messages *out,
                                paimon_error *err) {
  if (!rc->t->options.deletion_vectors)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "delete requires 'deletion-vectors.enabled' = 'true'.");
  int64_t *ids = malloc((rc->n_changes + 1) * sizeof *ids);
  if (!ids) return CP_ENOMEM(err, "rewrite");
  for (size_t i = 0; i < rc->n_changes; i++) ids[i] = rc->changes[i].row_id;
  int r = cp_delete_row_ids(rc->t, rc->base, ids, rc->n_changes, out, err);
  free(ids);
  return r;
}

static int apply_splits(paimon_row_changes *rc, paimon_plan *plan, out_writer *w,
                        cp_dv_maintainer *dvm, bool *found, paimon_error *err) {
  for (size_t i = 0; i < plan->n_splits; i++) {
    const cp_split *s = &plan->splits[i];
    bool touched = false;
    CP_RETURN_IF_ERROR(split_touched(rc, s, &touched, err));
    if (!touched) continue;
    file_job j;
    memset(&j, 0, sizeof j);
    j.rc = rc;
    j.w = w;
    j.dvm = dvm;
    j.split = s;
    j.found = found;
    out_part *part = NULL;
    CP_RETURN_IF_ERROR(get_part(w, s->partition, s->bucket, &part, err));
    j.part = (size_t)(part - w->parts);
    if (dvm)
      CP_RETURN_IF_ERROR(cp_dv_maintainer_get(dvm, s->partition, s->bucket,
                                              s->files[0].file.file_name, &j.dv, err));
    CP_RETURN_IF_ERROR(rewrite_split(&j, err));
    if (!dvm) CP_RETURN_IF_ERROR(add_deleted(&w->parts[j.part], &s->files[0], err));
  }
  return PAIMON_OK;
}

int cp_rw_apply(paimon_row_changes *rc, paimon_commit_messages *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(sort_changes(rc, err));
  if (rc->t->options.data_evolution) return apply_data_evolution(rc, out, err);
  paimon_plan *plan = NULL;
  cp_dv_maintainer *dvm = NULL;
  out_writer w;
  bool *found = calloc(rc->n_changes + 1, sizeof *found);
  int r = found ? writer_init(&w, rc->t, err) : CP_ENOMEM(err, "rewrite");
  if (!found) memset(&w, 0, sizeof w);
  if (!r && rc->base) r = cp_plan_snapshot(rc->t, rc->base, NULL, &plan, err);
  if (!r && rc->t->options.deletion_vectors) r = cp_dv_maintainer_new(&dvm, rc->t, rc->base, err);
  if (!r && plan) r = apply_splits(rc, plan, &w, dvm, found, err);
  if (!r) r = missing_row(rc, found, err);
  if (!r) r = emit_messages(&w, out, err);
  if (!r && dvm) r = cp_dv_maintainer_prepare(dvm, out, rc->base ? rc->base->id : -1, err);
  writer_free(&w, r == PAIMON_OK);
  cp_dv_maintainer_free(dvm);
  paimon_plan_free(plan);
  free(found);
  if (r) paimon_error_prefix(err, "table %s", rc->t->full_name);
  return r;
}
