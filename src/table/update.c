/*
 * The updater handle and update by row id (include/cpaimon/update.h; spec/data-evolution.md
 * §3.1–3.2), including the group copy-and-replace every other updater funnels into.
 *
 * Memory: the input's row ids are sorted once (8 + 8 bytes a row); groups are then rewritten one
 * at a time, streaming the group's current values batch by batch from the reader into the file
 * writer, so what is held besides the input is one read batch and one Parquet row group. A group
 * whose every row is updated is written straight from the input without reading it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/ops.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "table/store.h"
#include "table/update_internal.h"
#include "table/table.h"
#include "meta/binary_row.h"
#include "base/uuid.h"
#include "base/time.h"
#include "format/blob/blob_file.h"
#include "types/special_fields.h"

/* ------------------------------------ handle ------------------------------------ */

int paimon_update_new(paimon_update **out, paimon_table *table, paimon_error *err) {
  paimon_update *u = calloc(1, sizeof *u);
  if (!u) return CP_ENOMEM(err, "update");
  u->t = table;
  u->snapshot_id = -1;
  *out = u;
  return PAIMON_OK;
}

static void free_names(char **names, size_t n) {
  for (size_t i = 0; names && i < n; i++) free(names[i]);
  free(names);
}

void paimon_update_free(paimon_update *u) {
  if (!u) return;
  free_names(u->update_cols, u->n_update_cols);
  free_names(u->projection, u->n_projection);
  paimon_plan_free(u->plan);
  free(u->groups);
  free(u->ranges);
  free(u->touched);
  free(u);
}

/* Copies `cols` (duplicates dropped) into *out; checks each with `check` when non-NULL. */
static int copy_names(const char *const *cols, size_t n, char ***out, size_t *n_out,
                      paimon_error *err) {
  char **names = calloc(n ? n : 1, sizeof *names);
  if (!names) return CP_ENOMEM(err, "update");
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    bool dup = false;
    for (size_t j = 0; j < k && !dup; j++) dup = strcmp(names[j], cols[i]) == 0;
    if (dup) continue;
    if (!(names[k] = strdup(cols[i]))) {
      free_names(names, k);
      return CP_ENOMEM(err, "update");
    }
    k++;
  }
  *out = names;
  *n_out = k;
  return PAIMON_OK;
}

int paimon_update_set_update_cols(paimon_update *u, const char *const *cols, size_t n,
                                  paimon_error *err) {
  const cp_type *row = u->t->schema->row;
  for (size_t i = 0; i < n; i++)
    if (!cp_row_find_field(row, cols[i]))
      return paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table schema.", cols[i]);
  char **names = NULL;
  size_t k = 0;
  if (n) CP_RETURN_IF_ERROR(copy_names(cols, n, &names, &k, err));
  free_names(u->update_cols, u->n_update_cols);
  u->update_cols = NULL;
  u->n_update_cols = 0;
  if (k == row->n_fields) { /* every column: pypaimon resets to "all" */
    free_names(names, k);
    return PAIMON_OK;
  }
  u->update_cols = names;
  u->n_update_cols = k;
  return PAIMON_OK;
}

int paimon_update_set_read_projection(paimon_update *u, const char *const *cols, size_t n,
                                      paimon_error *err) {
  char **names = NULL;
  size_t k = 0;
  if (n) CP_RETURN_IF_ERROR(copy_names(cols, n, &names, &k, err));
  free_names(u->projection, u->n_projection);
  u->projection = names;
  u->n_projection = k;
  return PAIMON_OK;
}

int paimon_update_set_snapshot(paimon_update *u, int64_t snapshot_id, paimon_error *err) {
  if (u->pinned)
    return paimon_error_set(err, PAIMON_ESTATE,
                            "the updater of table %s already read snapshot %" PRId64,
                            u->t->full_name, u->snapshot_id);
  if (snapshot_id <= 0)
    return paimon_error_set(err, PAIMON_EINVAL, "snapshot id %" PRId64, snapshot_id);
  u->want_snapshot = true;
  u->want_snapshot_id = snapshot_id;
  return PAIMON_OK;
}

int64_t paimon_update_snapshot_id(const paimon_update *u) {
  return u->pinned ? u->snapshot_id : -1;
}

/* ------------------------------------ the pinned snapshot ------------------------------------ */

static int cmp_group(const void *x, const void *y) {
  const cp_row_group *a = x, *b = y;
  return a->first_row_id < b->first_row_id ? -1 : a->first_row_id > b->first_row_id;
}

static int cmp_range(const void *x, const void *y) {
  const int64_t *a = x, *b = y;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Groups (one per split with row ids) and valid ranges (pypaimon's RowIdFileIndex: ranges of the
 * non-blob files, overlapping and adjacent ones merged). */
static int build_index(paimon_update *u, paimon_error *err) {
  const paimon_plan *p = u->plan;
  size_t n_files = 0;
  for (size_t i = 0; i < p->n_splits; i++) n_files += p->splits[i].n_files;
  u->groups = calloc(p->n_splits + 1, sizeof *u->groups);
  u->ranges = calloc(n_files + 1, sizeof *u->ranges);
  if (!u->groups || !u->ranges) return CP_ENOMEM(err, "update");
  for (size_t i = 0; i < p->n_splits; i++) {
    const cp_split *s = &p->splits[i];
    bool any = false;
    for (size_t f = 0; f < s->n_files; f++) {
      const cp_data_file_meta *m = &s->files[f].file;
      if (!m->has_first_row_id || cp_data_file_is_blob(m)) continue;
      u->ranges[u->n_ranges][0] = m->first_row_id;
      u->ranges[u->n_ranges++][1] = cp_data_file_last_row_id(m);
      any = true;
    }
    if (any && s->first_row_id >= 0)
      u->groups[u->n_groups++] = (cp_row_group){s->first_row_id, s->row_count, i};
  }
  qsort(u->groups, u->n_groups, sizeof *u->groups, cmp_group);
  qsort(u->ranges, u->n_ranges, sizeof *u->ranges, cmp_range);
  size_t k = 0;
  for (size_t i = 0; i < u->n_ranges; i++) {
    if (k && u->ranges[i][0] <= u->ranges[k - 1][1] + 1) {
      if (u->ranges[i][1] > u->ranges[k - 1][1]) u->ranges[k - 1][1] = u->ranges[i][1];
    } else {
      u->ranges[k][0] = u->ranges[i][0];
      u->ranges[k++][1] = u->ranges[i][1];
    }
  }
  u->n_ranges = k;
  return PAIMON_OK;
}

int cp_update_pin(paimon_update *u, paimon_error *err) {
  if (u->pinned) return PAIMON_OK;
  paimon_table *t = u->t;
  cp_snapshot *snap = NULL;
  int rc = PAIMON_OK;
  if (u->want_snapshot) {
    rc = cp_snapshot_load(t->fs, t->path, u->want_snapshot_id, &snap, err);
  } else {
    int64_t id;
    bool exists;
    rc = cp_table_latest_snapshot_id(t, &id, &exists, err);
    if (!rc && exists) rc = cp_snapshot_load(t->fs, t->path, id, &snap, err);
  }
  if (!rc) rc = cp_plan_snapshot(t, snap, NULL, &u->plan, err);
  if (!rc) rc = build_index(u, err);
  if (!rc) {
    u->snapshot_id = snap ? snap->id : -1;
    u->pinned = true;
  } else {
    paimon_plan_free(u->plan);
    u->plan = NULL;
    free(u->groups);
    free(u->ranges);
    u->groups = NULL;
    u->ranges = NULL;
    u->n_groups = u->n_ranges = 0;
    paimon_error_prefix(err, "table %s", t->full_name);
  }
  cp_snapshot_free(snap);
  return rc;
}

const cp_row_group *cp_update_find_group(const paimon_update *u, int64_t row_id) {
  size_t lo = 0, hi = u->n_groups;
  while (lo < hi) { /* first group starting after row_id */
    size_t mid = lo + (hi - lo) / 2;
    if (u->groups[mid].first_row_id <= row_id)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return NULL;
  const cp_row_group *g = &u->groups[lo - 1];
  return row_id < g->first_row_id + g->row_count ? g : NULL;
}

static bool in_valid_range(const paimon_update *u, int64_t id) {
  size_t lo = 0, hi = u->n_ranges;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (u->ranges[mid][1] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < u->n_ranges && u->ranges[lo][0] <= id;
}

int cp_update_invalid_row_id(const paimon_update *u, int64_t row_id, paimon_error *err) {
  char list[768];
  size_t len = 0;
  list[len++] = '[';
  for (size_t i = 0; i < u->n_ranges && len + 64 < sizeof list; i++)
    len += (size_t)snprintf(list + len, sizeof list - len, "%s'[%" PRId64 ", %" PRId64 "]'",
                            i ? ", " : "", u->ranges[i][0], u->ranges[i][1]);
  snprintf(list + len, sizeof list - len, "%s]",
           len + 64 >= sizeof list && u->n_ranges ? ", ..." : "");
  return paimon_error_set(err, PAIMON_EINVAL,
                          "Row ID %" PRId64 " does not belong to any valid range %s", row_id, list);
}

int cp_update_raw_reader(paimon_update *u, const char *const *cols, size_t n,
                         paimon_read_builder **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(paimon_read_builder_new(out, u->t, err));
  int rc = paimon_read_builder_set_projection(*out, cols, n, err);
  /* Copied as stored: inline descriptor columns keep their descriptors. */
  if (!rc) rc = paimon_read_builder_set_blob_as_descriptor(*out, true, err);
  if (rc) {
    paimon_read_builder_free(*out);
    *out = NULL;
    return rc;
  }
  cp_read_builder_ignore_deletion_vectors(*out);
  return PAIMON_OK;
}

static int cmp_touched(const void *x, const void *y) {
  const cp_touched *a = x, *b = y;
  if (a->first_row_id != b->first_row_id) return a->first_row_id < b->first_row_id ? -1 : 1;
  return a->field_id < b->field_id ? -1 : a->field_id > b->field_id;
}

static const char *field_name(paimon_update *u, int32_t id) {
  const cp_type *row = u->t->schema->row;
  for (size_t i = 0; i < row->n_fields; i++)
    if (row->fields[i].id == id) return row->fields[i].name;
  return "?";
}

int cp_update_touch(paimon_update *u, const int64_t *first_row_ids, size_t n_groups,
                    const int32_t *field_ids, size_t n_fields, paimon_error *err) {
  for (size_t f = 0; f < n_fields; f++) {
    cp_buf ids = CP_BUF_INIT;
    for (size_t g = 0; g < n_groups; g++) {
      cp_touched key = {first_row_ids[g], field_ids[f]};
      if (u->n_touched && bsearch(&key, u->touched, u->n_touched, sizeof key, cmp_touched))
        cp_buf_appendf(&ids, NULL, "%s%" PRId64, ids.len ? ", " : "", first_row_ids[g]);
    }
    if (ids.len) {
      cp_buf_nul_terminate(&ids, NULL);
      int rc = paimon_error_set(err, PAIMON_EINVAL,
                                "Input batches contain overlapping first_row_ids by column: "
                                "{'%s': [%s]}",
                                field_name(u, field_ids[f]), ids.data ? (char *)ids.data : "");
      cp_buf_free(&ids);
      return rc;
    }
  }
  size_t need = u->n_touched + n_groups * n_fields;
  if (need > u->cap_touched) {
    cp_touched *t = realloc(u->touched, (need + 16) * sizeof *t);
    if (!t) return CP_ENOMEM(err, "update");
    u->touched = t;
    u->cap_touched = need + 16;
  }
  for (size_t g = 0; g < n_groups; g++)
    for (size_t f = 0; f < n_fields; f++)
      u->touched[u->n_touched++] = (cp_touched){first_row_ids[g], field_ids[f]};
  qsort(u->touched, u->n_touched, sizeof *u->touched, cmp_touched);
  return PAIMON_OK;
}

/* ------------------------------------ update rows ------------------------------------ */

void cp_update_rows_free(cp_update_rows *r) {
  size_t n = r->row ? r->row->n_fields : 0;
  for (size_t i = 0; r->views && i < n; i++) cp_array_view_reset(&r->views[i]);
  for (size_t i = 0; r->values && i < n; i++) cp_array_release(&r->values[i]);
  for (size_t i = 0; r->schemas && i < n; i++)
    if (r->schemas[i].release) r->schemas[i].release(&r->schemas[i]);
  free(r->views);
  free(r->literal);
  free(r->values);
  free(r->schemas);
  free(r->row_ids);
  free(r->order);
  memset(r, 0, sizeof *r);
}

typedef struct id_pos {
  int64_t id, pos;
} id_pos;

static int cmp_id_pos(const void *x, const void *y) {
  const id_pos *a = x, *b = y;
  return a->id < b->id ? -1 : a->id > b->id;
}

/* Sorts ids (keeping their input positions); already sorted input (the common case: ids read
 * from the table) costs one pass. */
int cp_update_rows_sort(cp_update_rows *r, paimon_error *err) {
  bool sorted = true;
  for (int64_t i = 1; i < r->n && sorted; i++) sorted = r->row_ids[i - 1] <= r->row_ids[i];
  if (sorted) return PAIMON_OK;
  id_pos *p = malloc((size_t)r->n * sizeof *p);
  if (!p) return CP_ENOMEM(err, "update");
  for (int64_t i = 0; i < r->n; i++) p[i] = (id_pos){r->row_ids[i], r->order[i]};
  qsort(p, (size_t)r->n, sizeof *p, cmp_id_pos);
  for (int64_t i = 0; i < r->n; i++) {
    r->row_ids[i] = p[i].id;
    r->order[i] = p[i].pos;
  }
  free(p);
  return PAIMON_OK;
}

int cp_update_rows_index(paimon_update *u, const cp_array_view *ids, cp_update_rows *r,
                         paimon_error *err) {
  r->n = ids->length;
  r->row_ids = malloc((size_t)(r->n + 1) * sizeof *r->row_ids);
  r->order = malloc((size_t)(r->n + 1) * sizeof *r->order);
  if (!r->row_ids || !r->order) return CP_ENOMEM(err, "update");
  for (int64_t i = 0; i < r->n; i++) {
    if (cp_view_is_null(ids, i))
      return paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID value must not be null.");
    r->row_ids[i] = cp_view_get_int64(ids, i);
    r->order[i] = i;
  }
  CP_RETURN_IF_ERROR(cp_update_rows_sort(r, err));
  for (int64_t i = 1; i < r->n; i++)
    if (r->row_ids[i] == r->row_ids[i - 1])
      return paimon_error_set(err, PAIMON_EINVAL, "Input data contains duplicate _ROW_ID values");
  for (int64_t i = 0; i < r->n; i++) {
    if (in_valid_range(u, r->row_ids[i])) continue;
    /* pypaimon names the first bad id in input order */
    for (int64_t j = 0; j < ids->length; j++)
      if (!in_valid_range(u, cp_view_get_int64(ids, j)))
        return cp_update_invalid_row_id(u, cp_view_get_int64(ids, j), err);
  }
  return PAIMON_OK;
}

int cp_update_rows_set_literal(cp_update_rows *r, size_t c, const cp_array_view *v,
                               const cp_field *f, paimon_error *err) {
  if (v->length < 1)
    return paimon_error_set(err, PAIMON_EINVAL, "the literal for column %s has no value", f->name);
  if (!r->literal && !(r->literal = calloc(r->row->n_fields + 1, sizeof *r->literal)))
    return CP_ENOMEM(err, "update");
  int64_t len = r->n < 65536 ? (r->n ? r->n : 1) : 65536;
  int64_t *zeros = calloc((size_t)len, sizeof *zeros);
  if (!zeros) return CP_ENOMEM(err, "update");
  struct ArrowArray one, rep;
  memset(&one, 0, sizeof one);
  memset(&rep, 0, sizeof rep);
  cp_array_view ov;
  memset(&ov, 0, sizeof ov);
  int rc = cp_update_convert_column(v, f, &r->schemas[c], &one, err);
  if (!rc) rc = cp_array_view_init(&ov, &r->schemas[c], &one, err);
  if (!rc) rc = cp_take(&ov, zeros, len, &r->values[c], err);
  if (!rc) rc = cp_array_view_init(&r->views[c], &r->schemas[c], &r->values[c], err);
  if (!rc) r->literal[c] = true;
  cp_array_view_reset(&ov);
  cp_array_release(&one);
  cp_array_release(&rep);
  free(zeros);
  return rc;
}

/* ------------------------------------ the funnel (§3.2) ------------------------------------ */

/* Appends rows [k0, k1) of the sorted update (values in input order) as runs of consecutive
 * input rows. */
static int append_updates(cp_builder *b, const cp_update_rows *r, size_t col, int64_t k0,
                          int64_t k1, paimon_error *err) {
  if (r->literal && r->literal[col]) {
    int64_t chunk = r->views[col].length;
    for (int64_t k = k0; k < k1; k += chunk)
      CP_RETURN_IF_ERROR(
          cp_builder_append_view(b, &r->views[col], 0, k1 - k < chunk ? k1 - k : chunk, err));
    return PAIMON_OK;
  }
  for (int64_t k = k0; k < k1;) {
    int64_t run = 1;
    while (k + run < k1 && r->order[k + run] == r->order[k] + run) run++;
    CP_RETURN_IF_ERROR(cp_builder_append_view(b, &r->views[col], r->order[k], run, err));
    k += run;
  }
  return PAIMON_OK;
}

/* One output batch: rows [start, start + len) of the group (relative positions), the originals
 * from `orig` (NULL when every row is updated) and the updates at k0.. with ids below the end. */
static int merge_batch(const cp_update_rows *r, int64_t group_first, const cp_array_view *orig,
                       int64_t start, int64_t len, int64_t *k, struct ArrowArray *out,
                       paimon_error *err) {
  size_t nc = r->row->n_fields;
  int64_t end_id = group_first + start + len, k_end = *k;
  while (k_end < r->n && r->row_ids[k_end] < end_id) k_end++;
  CP_RETURN_IF_ERROR(cp_array_init(out, 1, (int64_t)nc, err));
  int rc = PAIMON_OK;
  for (size_t c = 0; c < nc && !rc; c++) {
    cp_builder *b = NULL;
    rc = cp_builder_create(&b, &r->schemas[c], err);
    int64_t pos = 0; /* next row of the batch to emit */
    for (int64_t k0 = *k; !rc && k0 < k_end;) {
      int64_t rel = r->row_ids[k0] - group_first - start, k1 = k0 + 1;
      while (k1 < k_end && r->row_ids[k1] == r->row_ids[k1 - 1] + 1) k1++;
      if (rel > pos) rc = cp_builder_append_view(b, &orig->children[c], pos, rel - pos, err);
      if (!rc) rc = append_updates(b, r, c, k0, k1, err);
      pos = rel + (k1 - k0);
      k0 = k1;
    }
    if (!rc && pos < len) rc = cp_builder_append_view(b, &orig->children[c], pos, len - pos, err);
    if (!rc) rc = cp_builder_finish(b, out->children[c], err);
    cp_builder_free(b);
  }
  if (rc) {
    out->release(out);
    return rc;
  }
  out->length = len;
  out->null_count = 0;
  *k = k_end;
  return PAIMON_OK;
}

/* Streams the group's current values through merge_batch into `w`. */
static int copy_and_replace(paimon_update *u, const cp_update_rows *r, const cp_row_group *g,
                            int64_t k, cp_group_writer *w, paimon_error *err) {
  size_t nc = r->row->n_fields;
  const char **names = malloc((nc + 1) * sizeof *names);
  if (!names) return CP_ENOMEM(err, "update");
  for (size_t c = 0; c < nc; c++) names[c] = r->row->fields[c].name;
  paimon_read_builder *rb = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = cp_update_raw_reader(u, names, nc, &rb, err);
  if (!rc) rc = paimon_plan_read(rb, u->plan, &g->split, 1, &s, err);
  if (!rc) rc = cp_stream_get_schema(&s, &schema, err);
  int64_t start = 0;
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    struct ArrowArray merged;
    memset(&merged, 0, sizeof merged);
    rc = cp_array_view_init(&v, &schema, &batch, err);
    if (!rc) rc = merge_batch(r, g->first_row_id, &v, start, v.length, &k, &merged, err);
    if (!rc) rc = cp_group_writer_write(w, &merged, err);
    start += v.length;
    cp_array_release(&merged);
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  if (s.release) s.release(&s);
  paimon_read_builder_free(rb);
  free(names);
  return rc;
}

/* Every row of the group is updated: the input alone is the file, written in bounded slices. */
static int write_whole_group(const cp_update_rows *r, const cp_row_group *g, int64_t k,
                             cp_group_writer *w, paimon_error *err) {
  const int64_t slice = 65536;
  int rc = PAIMON_OK;
  for (int64_t start = 0; start < g->row_count && !rc; start += slice) {
    int64_t len = g->row_count - start < slice ? g->row_count - start : slice;
    struct ArrowArray merged;
    memset(&merged, 0, sizeof merged);
    rc = merge_batch(r, g->first_row_id, NULL, start, len, &k, &merged, err);
    if (!rc) rc = cp_group_writer_write(w, &merged, err);
    cp_array_release(&merged);
  }
  return rc;
}

static int apply_group(paimon_update *u, const cp_update_rows *r, const cp_row_group *g, int64_t k0,
                       int64_t k1, paimon_commit_messages *msgs, paimon_error *err) {
  const cp_split *s = &u->plan->splits[g->split];
  cp_group_writer w;
  CP_RETURN_IF_ERROR(cp_group_writer_open(&w, u->t, r->row, false, s->partition, s->bucket,
                                          g->first_row_id, g->row_count, err));
  int rc = k1 - k0 == g->row_count ? write_whole_group(r, g, k0, &w, err)
                                   : copy_and_replace(u, r, g, k0, &w, err);
  cp_data_file_meta meta;
  if (!rc) rc = cp_group_writer_finish(&w, &msgs->arena, &meta, err);
  if (!rc) rc = cp_update_add_file(u, msgs, s->partition, s->bucket, &meta, err);
  if (rc) {
    cp_group_writer_abort(&w);
    paimon_error_prefix(err, "update of row-id group [%" PRId64 ", %" PRId64 "] of table %s",
                        g->first_row_id, g->first_row_id + g->row_count - 1, u->t->full_name);
  }
  return rc;
}

/* Whether the group has a `.blob` file holding field `id` (under its name in that file's schema).
 */
static int blob_baseline(paimon_update *u, const cp_row_group *g, int32_t id, bool *out,
                         paimon_error *err) {
  const cp_split *s = &u->plan->splits[g->split];
  *out = false;
  for (size_t k = 0; k < s->n_files && !*out; k++) {
    const cp_data_file_meta *f = &s->files[k].file;
    if (!cp_data_file_is_blob(f) || !f->has_first_row_id || f->first_row_id < g->first_row_id ||
        f->first_row_id >= g->first_row_id + g->row_count)
      continue;
    const cp_table_schema *fs;
    CP_RETURN_IF_ERROR(cp_table_schema_by_id(u->t, f->schema_id, &fs, err));
    for (size_t i = 0; i < fs->row->n_fields; i++)
      if (fs->row->fields[i].id == id && cp_data_file_writes_col(f, fs->row->fields[i].name))
        *out = true;
  }
  return PAIMON_OK;
}

/* A BLOB column's update of one group (spec/maintenance-and-blob.md §5.7, as pypaimon): a `.blob`
 * file over [group start, last updated row] holding the new values and placeholders for the rows
 * in between that keep theirs (rows after the last update are not written); first_row_id the
 * group's start, sequence 0/0 so that the commit makes it the newest. A group with no `.blob`
 * file of the column yet (a BLOB column added after its rows were written, being backfilled) has
 * no older values to fall back to: its file covers the whole group, NULL where no value is given,
 * as pypaimon writes it. */
static int apply_blob_group(paimon_update *u, const cp_update_rows *r, size_t c,
                            const cp_row_group *g, int64_t k0, int64_t k1, cp_blob_sources *src,
                            const int64_t *lens, paimon_commit_messages *msgs, paimon_error *err) {
  const cp_split *s = &u->plan->splits[g->split];
  char uuid[37], name[128];
  CP_RETURN_IF_ERROR(cp_uuid_v4(uuid, err));
  snprintf(name, sizeof name, "%s%s-0.blob", u->t->options.data_file_prefix, uuid);
  cp_data_file_meta meta;
  memset(&meta, 0, sizeof meta);
  meta.file_name = name;
  char *path = NULL;
  cp_wfile *file = NULL;
  cp_blob_writer *w = NULL;
  bool baseline = false;
  int rc = blob_baseline(u, g, r->row->fields[c].id, &baseline, err);
  if (!rc) rc = cp_data_file_path(u->t, s->partition, s->bucket, &meta, &path, err);
  if (!rc) rc = cp_fs_create(u->t->fs, path, CP_CREATE_EXCLUSIVE, &file, err);
  if (!rc) rc = cp_blob_writer_new(&w, file, err);
  int64_t span = baseline ? r->row_ids[k1 - 1] - g->first_row_id + 1 : g->row_count, k = k0;
  const cp_array_view *v = &r->views[c];
  for (int64_t p = 0; !rc && p < span; p++) {
    if (k < k1 && r->row_ids[k] - g->first_row_id == p) {
      int64_t row = r->literal && r->literal[c] ? 0 : r->order[k];
      k++;
      rc = cp_blob_sources_put(src, w, v, row, lens[row], r->row->fields[c].name, err);
    } else {
      rc = baseline ? cp_blob_writer_add_placeholder(w, err) : cp_blob_writer_add_null(w, err);
    }
  }
  uint64_t size = 0;
  if (!rc) rc = cp_blob_writer_finish(w, &size, err);
  if (!rc) rc = cp_wfile_sync(file, err);
  if (!rc) {
    rc = cp_wfile_close(file, err);
    file = NULL;
  }
  const char **col = rc ? NULL : cp_arena_alloc(&msgs->arena, sizeof *col);
  const char *kept = rc ? NULL : cp_arena_strdup(&msgs->arena, name);
  if (!rc && (!col || !kept)) rc = CP_ENOMEM(err, "update");
  if (!rc) {
    col[0] = r->row->fields[c].name;
    cp_data_file_blob_meta(&meta, kept, (int64_t)size, span, u->t->schema->id, col,
                           cp_local_millis_as_utc());
    meta.has_first_row_id = true;
    meta.first_row_id = g->first_row_id;
    rc = cp_update_add_file(u, msgs, s->partition, s->bucket, &meta, err);
  }
  cp_blob_writer_free(w);
  if (file) cp_wfile_abort(file);
  if (rc && path) cp_fs_delete(u->t->fs, path, NULL);
  free(path);
  if (rc)
    paimon_error_prefix(
        err, "update of BLOB column %s in row-id group [%" PRId64 ", %" PRId64 "] of table %s",
        r->row->fields[c].name, g->first_row_id, g->first_row_id + g->row_count - 1,
        u->t->full_name);
  return rc;
}

/* The non-BLOB columns of `r` as an update of their own (*sub borrows r's arrays; free
 * fields with free()). */
static int normal_columns(const paimon_table *t, const cp_update_rows *r, cp_update_rows *sub,
                          cp_type *row, paimon_error *err) {
  size_t n = r->row->n_fields, k = 0;
  *sub = *r;
  *row = *r->row;
  row->fields = malloc((n + 1) * sizeof *row->fields);
  sub->values = malloc((n + 1) * sizeof *sub->values);
  sub->schemas = malloc((n + 1) * sizeof *sub->schemas);
  sub->views = malloc((n + 1) * sizeof *sub->views);
  sub->literal = r->literal ? malloc((n + 1) * sizeof *sub->literal) : NULL;
  if (!row->fields || !sub->values || !sub->schemas || !sub->views || (r->literal && !sub->literal))
    return CP_ENOMEM(err, "update");
  for (size_t c = 0; c < n; c++) {
    if (cp_blob_in_files(t, &r->row->fields[c])) continue;
    row->fields[k] = r->row->fields[c];
    sub->values[k] = r->values[c];
    sub->schemas[k] = r->schemas[c];
    sub->views[k] = r->views[c];
    if (r->literal) sub->literal[k] = r->literal[c];
    k++;
  }
  row->n_fields = k;
  sub->row = row;
  return PAIMON_OK;
}

static void normal_columns_free(cp_update_rows *sub, cp_type *row) {
  free(row->fields);
  free(sub->values);
  free(sub->schemas);
  free(sub->views);
  free(sub->literal);
}

/* BLOB columns are written per column to `.blob` files (apply_blob_group), the others together
 * into one Parquet file per group (apply_group). */
int cp_update_apply(paimon_update *u, const cp_update_rows *r, paimon_commit_messages *msgs,
                    paimon_error *err) {
  size_t n_blob = 0;
  for (size_t c = 0; c < r->row->n_fields; c++)
    if (cp_blob_in_files(u->t, &r->row->fields[c])) n_blob++;
  /* Pass 1: the groups, for the same-column check before anything is written. */
  int64_t *starts = malloc((size_t)(r->n + 1) * sizeof *starts);
  int64_t *firsts = malloc((size_t)(r->n + 1) * sizeof *firsts);
  const cp_row_group **gs = malloc((size_t)(r->n + 1) * sizeof *gs);
  int32_t *ids = malloc((r->row->n_fields + 1) * sizeof *ids);
  int rc = (starts && firsts && gs && ids) ? PAIMON_OK : CP_ENOMEM(err, "update");
  size_t n_g = 0;
  for (int64_t k = 0; !rc && k < r->n;) {
    const cp_row_group *g = cp_update_find_group(u, r->row_ids[k]);
    if (!g) {
      rc = cp_update_invalid_row_id(u, r->row_ids[k], err);
      break;
    }
    starts[n_g] = k;
    firsts[n_g] = g->first_row_id;
    gs[n_g++] = g;
    while (k < r->n && r->row_ids[k] < g->first_row_id + g->row_count) k++;
  }
  for (size_t c = 0; ids && c < r->row->n_fields; c++) ids[c] = r->row->fields[c].id;
  if (!rc) rc = cp_update_touch(u, firsts, n_g, ids, r->row->n_fields, err);
  cp_update_rows normal;
  cp_type normal_row;
  memset(&normal, 0, sizeof normal);
  memset(&normal_row, 0, sizeof normal_row);
  bool mixed = n_blob && n_blob < r->row->n_fields;
  if (!rc && mixed) rc = normal_columns(u->t, r, &normal, &normal_row, err);
  /* BlobDescriptor values checked before anything is written. */
  cp_blob_sources src;
  cp_blob_sources_init(&src, u->t);
  int64_t **lens = calloc(r->row->n_fields + 1, sizeof *lens);
  if (!rc && !lens) rc = CP_ENOMEM(err, "update");
  for (size_t c = 0; !rc && c < r->row->n_fields; c++) {
    if (!cp_blob_in_files(u->t, &r->row->fields[c])) continue;
    if (!(lens[c] = malloc(((size_t)r->views[c].length + 1) * sizeof **lens)))
      rc = CP_ENOMEM(err, "update");
    if (!rc) rc = cp_blob_sources_check(&src, &r->views[c], r->row->fields[c].name, lens[c], err);
  }
  for (size_t i = 0; !rc && i < n_g; i++) {
    int64_t k1 = i + 1 < n_g ? starts[i + 1] : r->n;
    if (n_blob < r->row->n_fields)
      rc = apply_group(u, mixed ? &normal : r, gs[i], starts[i], k1, msgs, err);
    for (size_t c = 0; !rc && n_blob && c < r->row->n_fields; c++)
      if (cp_blob_in_files(u->t, &r->row->fields[c]))
        rc = apply_blob_group(u, r, c, gs[i], starts[i], k1, &src, lens[c], msgs, err);
  }
  for (size_t c = 0; lens && c < r->row->n_fields; c++) free(lens[c]);
  free(lens);
  cp_blob_sources_free(&src);
  if (mixed) normal_columns_free(&normal, &normal_row);
  free(starts);
  free(firsts);
  free(gs);
  free(ids);
  return rc;
}

/* ------------------------------------ update by row id ------------------------------------ */

/* The update column names of a by-row-id call: the updater's, else the input's but _ROW_ID. */
static int update_names(paimon_update *u, const cp_array_view *in, const char ***out, size_t *n,
                        paimon_error *err) {
  *n = 0;
  *out = malloc(((size_t)in->n_children + u->n_update_cols + 1) * sizeof **out);
  if (!*out) return CP_ENOMEM(err, "update");
  if (u->update_cols) {
    for (size_t i = 0; i < u->n_update_cols; i++) (*out)[(*n)++] = u->update_cols[i];
  } else {
    for (int64_t c = 0; c < in->n_children; c++)
      if (strcmp(in->children[c].name, CP_ROW_ID_FIELD_NAME) != 0)
        (*out)[(*n)++] = in->children[c].name;
  }
  return PAIMON_OK;
}

/* Normalizes the value columns `names` of `in` into r (row type, converted arrays, views). */
int cp_update_rows_load(paimon_update *u, const cp_array_view *in, const char *const *names,
                        size_t n, cp_update_rows *r, cp_type **row, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_update_columns_row(u->t, names, n, row, err));
  r->row = *row;
  r->values = calloc(n + 1, sizeof *r->values);
  r->schemas = calloc(n + 1, sizeof *r->schemas);
  r->views = calloc(n + 1, sizeof *r->views);
  if (!r->values || !r->schemas || !r->views) return CP_ENOMEM(err, "update");
  for (size_t i = 0; i < n; i++) {
    int64_t c = cp_view_child_index(in, names[i]);
    if (c < 0)
      return paimon_error_set(err, PAIMON_EINVAL, "Column %s is missing in the input data.",
                              names[i]);
    CP_RETURN_IF_ERROR(cp_update_convert_column(&in->children[c], &(*row)->fields[i],
                                                &r->schemas[i], &r->values[i], err));
    CP_RETURN_IF_ERROR(cp_array_view_init(&r->views[i], &r->schemas[i], &r->values[i], err));
  }
  return PAIMON_OK;
}

static int by_row_id(paimon_update *u, const cp_array_view *in, paimon_commit_messages *msgs,
                     paimon_error *err) {
  if (in->type.id != CP_ARROW_STRUCT)
    return paimon_error_set(err, PAIMON_EINVAL, "input must be a record batch (struct array)");
  const char **names = NULL;
  size_t n = 0;
  cp_update_rows r;
  memset(&r, 0, sizeof r);
  cp_type *row = NULL;
  int rc = update_names(u, in, &names, &n, err);
  int64_t rid = cp_view_child_index(in, CP_ROW_ID_FIELD_NAME);
  if (!rc && n == 0) rc = paimon_error_set(err, PAIMON_EINVAL, "column_names cannot be empty");
  if (!rc && rid < 0)
    rc = paimon_error_set(err, PAIMON_EINVAL, "Input data must contain _ROW_ID column");
  for (size_t i = 0; !rc && i < n; i++)
    if (!cp_row_find_field(u->t->schema->row, names[i]))
      rc = paimon_error_set(err, PAIMON_EINVAL, "Column %s not found in table schema", names[i]);
  if (!rc && u->t->options.row_tracking && !u->t->options.data_evolution)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "update_by_arrow_with_row_id requires 'data-evolution.enabled' = "
                          "'true': table %s stores whole rows per file",
                          u->t->full_name);
  if (!rc) rc = cp_update_pin(u, err);
  if (!rc && !cp_arrow_type_is_integer(in->children[rid].type.id))
    rc = paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID must be an integer column");
  if (!rc) rc = cp_update_rows_index(u, &in->children[rid], &r, err);
  if (!rc && r.n > 0) rc = cp_update_rows_load(u, in, names, n, &r, &row, err);
  if (!rc && r.n > 0) rc = cp_update_apply(u, &r, msgs, err);
  cp_update_rows_free(&r);
  cp_type_free(row);
  free(names);
  return rc;
}

int paimon_update_by_row_id(paimon_update *u, const struct ArrowSchema *schema,
                            const struct ArrowArray *batch, paimon_commit_messages **out,
                            paimon_error *err) {
  *out = NULL;
  cp_array_view in;
  memset(&in, 0, sizeof in);
  paimon_commit_messages *msgs = NULL;
  int rc = paimon_commit_messages_new(&msgs, err);
  if (!rc) rc = cp_array_view_init(&in, schema, batch, err);
  if (!rc) rc = by_row_id(u, &in, msgs, err);
  cp_array_view_reset(&in);
  if (rc) {
    cp_update_discard(u, msgs);
    paimon_commit_messages_free(msgs);
    return rc;
  }
  *out = msgs;
  return PAIMON_OK;
}
