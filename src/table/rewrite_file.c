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

#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/rewrite_internal.h"
#include "table/rows_writer.h"
#include "table/scan.h"
#include "types/datum_arrow.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

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
 * adding one may move the array. */
typedef struct moved_rows {
  size_t part;
  cp_builder *b;
} moved_rows;

typedef struct file_job {
  paimon_row_changes *rc;
  cp_rows_writer *w;
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
  size_t d = 0;
  if (!r && !same) r = cp_rows_writer_part(j->w, p, j->split->bucket, &d, err);
  cp_buf_free(&key);
  if (r || same) return r;
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
    if (!r) r = cp_rows_writer_write(j->w, j->moved[m].part, &out, err);
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
    if (!r) r = cp_rows_writer_write(j->w, j->part, &out, err);
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

static int apply_splits(paimon_row_changes *rc, paimon_plan *plan, cp_rows_writer *w,
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
    CP_RETURN_IF_ERROR(cp_rows_writer_part(w, s->partition, s->bucket, &j.part, err));
    if (dvm)
      CP_RETURN_IF_ERROR(cp_dv_maintainer_get(dvm, s->partition, s->bucket,
                                              s->files[0].file.file_name, &j.dv, err));
    CP_RETURN_IF_ERROR(rewrite_split(&j, err));
    if (!dvm) CP_RETURN_IF_ERROR(cp_rows_writer_add_deleted(w, j.part, &s->files[0], err));
  }
  return PAIMON_OK;
}

int cp_rw_apply(paimon_row_changes *rc, paimon_commit_messages *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(sort_changes(rc, err));
  if (rc->t->options.data_evolution) return apply_data_evolution(rc, out, err);
  paimon_plan *plan = NULL;
  cp_dv_maintainer *dvm = NULL;
  cp_rows_writer w;
  bool *found = calloc(rc->n_changes + 1, sizeof *found);
  int r = found ? cp_rows_writer_init(&w, rc->t, CP_FILE_SOURCE_APPEND, err)
                : CP_ENOMEM(err, "rewrite");
  if (!found) memset(&w, 0, sizeof w);
  if (!r && rc->base) r = cp_plan_snapshot(rc->t, rc->base, NULL, &plan, err);
  if (!r && rc->t->options.deletion_vectors) r = cp_dv_maintainer_new(&dvm, rc->t, rc->base, err);
  if (!r && plan) r = apply_splits(rc, plan, &w, dvm, found, err);
  if (!r) r = missing_row(rc, found, err);
  if (!r) r = cp_rows_writer_emit(&w, out, false, err);
  if (!r && dvm) r = cp_dv_maintainer_prepare(dvm, out, rc->base ? rc->base->id : -1, err);
  cp_rows_writer_free(&w, r == PAIMON_OK);
  cp_dv_maintainer_free(dvm);
  paimon_plan_free(plan);
  free(found);
  if (r) paimon_error_prefix(err, "table %s", rc->t->full_name);
  return r;
}
