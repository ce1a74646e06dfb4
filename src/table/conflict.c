/*
 * Data-evolution commit checks (conflict.h; spec/data-evolution.md §4.2–4.5, after Java's
 * DataEvolutionConflictDetection and RowIdColumnConflictChecker).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "table/conflict.h"
#include "table/file_store.h"
#include "table/store.h"
#include "types/special_fields.h"

#define LOGICAL_CONFLICT                                                                           \
  "For Data Evolution table, multiple 'MERGE INTO' operations have encountered conflicts, "        \
  "updating the same file, which can render some updates ineffective."

#define RANGE_CONFLICT                                                                             \
  "For Data Evolution table, multiple 'MERGE INTO' and 'COMPACT' operations have encountered "     \
  "conflicts, "

typedef struct range {
  int64_t from, to;
} range;

static bool dedicated(const cp_data_file_meta *f) {
  return cp_data_file_is_blob(f) || cp_data_file_is_vector_store(f);
}

static range file_range(const cp_data_file_meta *f) {
  return (range){f->first_row_id, cp_data_file_last_row_id(f)};
}

static bool bytes_eq(cp_bytes x, cp_bytes y) {
  return x.len == y.len && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
}

static bool in_partitions(const cp_manifest_entry *e, const cp_manifest_entry *delta, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (bytes_eq(e->partition, delta[i].partition)) return true;
  return false;
}

static int cmp_range(const void *x, const void *y) {
  const range *a = x, *b = y;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return a->to < b->to ? -1 : a->to > b->to;
}

/* Sorts and merges overlapping ranges (adjacent ones too when `adjacent`); returns the count. */
static size_t merge_ranges(range *r, size_t n, bool adjacent) {
  qsort(r, n, sizeof *r, cmp_range);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k && r[i].from <= r[k - 1].to + (adjacent ? 1 : 0)) {
      if (r[i].to > r[k - 1].to) r[k - 1].to = r[i].to;
    } else {
      r[k++] = r[i];
    }
  }
  return k;
}

/* ------------------------------------ §4.3 existence ------------------------------------ */

static int existence_conflict(const cp_manifest_entry *e, paimon_error *err) {
  return paimon_error_set(err, PAIMON_ECONFLICT,
                          "Row ID existence conflict: file '%s' references firstRowId=%" PRId64
                          ", rowCount=%" PRId64
                          " in bucket %d, but no matching file exists in the current snapshot. "
                          "The referenced file may have been rewritten by a concurrent compaction "
                          "or removed by an overwrite.",
                          e->file.file_name, e->file.first_row_id, e->file.row_count, e->bucket);
}

/* A DELETE planned before the file got other row ids must not cancel the current ADD. */
static int check_deleted_files(const cp_entry_vec *base, const cp_manifest_entry *delta, size_t n,
                               paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    const cp_manifest_entry *d = &delta[i];
    if (d->kind != CP_FILE_KIND_DELETE) continue;
    for (size_t j = 0; j < base->n; j++) {
      const cp_manifest_entry *c = &base->items[j];
      if (!cp_manifest_entry_same_file(c, d)) continue;
      bool same = c->file.has_first_row_id == d->file.has_first_row_id &&
                  (!c->file.has_first_row_id || c->file.first_row_id == d->file.first_row_id) &&
                  c->file.row_count == d->file.row_count;
      if (same) break;
      char was[32] = "null", now[32] = "null";
      if (d->file.has_first_row_id) snprintf(was, sizeof was, "%" PRId64, d->file.first_row_id);
      if (c->file.has_first_row_id) snprintf(now, sizeof now, "%" PRId64, c->file.first_row_id);
      return paimon_error_set(err, PAIMON_ECONFLICT,
                              "Row ID existence conflict: DELETE for file '%s' references "
                              "firstRowId=%s, rowCount=%" PRId64 " in bucket %d, but the current "
                              "file has firstRowId=%s, rowCount=%" PRId64
                              ". The file may have been reassigned by a concurrent commit.",
                              d->file.file_name, was, d->file.row_count, d->bucket, now,
                              c->file.row_count);
    }
  }
  return PAIMON_OK;
}

static int check_existence(const cp_entry_vec *base, const cp_snapshot *latest,
                           const cp_manifest_entry *delta, size_t n, cp_de_conflict *kind,
                           paimon_error *err) {
  CP_RETURN_IF_ERROR(check_deleted_files(base, delta, n, err));
  if (!latest->has_next_row_id) return PAIMON_OK;
  range *r = malloc((base->n + 1) * sizeof *r);
  if (!r) return CP_ENOMEM(err, "commit");
  size_t nr = 0;
  for (size_t i = 0; i < base->n; i++) {
    const cp_data_file_meta *f = &base->items[i].file;
    if (f->has_first_row_id && !dedicated(f)) r[nr++] = file_range(f);
  }
  nr = merge_ranges(r, nr, false);
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    const cp_manifest_entry *e = &delta[i];
    if (e->kind != CP_FILE_KIND_ADD || !e->file.has_first_row_id ||
        e->file.first_row_id >= latest->next_row_id)
      continue;
    range want = file_range(&e->file);
    bool ok = false;
    for (size_t k = 0; k < nr && !ok; k++)
      ok = dedicated(&e->file) ? (r[k].from <= want.from && want.to <= r[k].to)
                               : (r[k].from == want.from && r[k].to == want.to);
    if (!ok) {
      rc = existence_conflict(e, err);
      if (kind) *kind = CP_DE_CONFLICT_MISSING;
    }
  }
  free(r);
  return rc;
}

/* Java's checkCompactRowIdExistence: a compaction's output must lie inside the adjacency-merged
 * ranges of its own (partition, bucket)'s live normal files. */
static int check_compact_existence(const cp_entry_vec *base, const cp_manifest_entry *delta,
                                   size_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(check_deleted_files(base, delta, n, err));
  range *r = malloc((base->n + 1) * sizeof *r);
  if (!r) return CP_ENOMEM(err, "commit");
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    const cp_manifest_entry *e = &delta[i];
    if (e->kind != CP_FILE_KIND_ADD || !e->file.has_first_row_id) continue;
    size_t nr = 0;
    for (size_t j = 0; j < base->n; j++) {
      const cp_manifest_entry *b = &base->items[j];
      if (b->file.has_first_row_id && !dedicated(&b->file) && b->bucket == e->bucket &&
          bytes_eq(b->partition, e->partition))
        r[nr++] = file_range(&b->file);
    }
    nr = merge_ranges(r, nr, true);
    range want = file_range(&e->file);
    bool ok = false;
    for (size_t k = 0; k < nr && !ok; k++) ok = r[k].from <= want.from && want.to <= r[k].to;
    if (!ok) rc = existence_conflict(e, err);
  }
  free(r);
  return rc;
}

/* ------------------------------------ §4.4 ranges ------------------------------------ */

/* The live files after this commit: base minus this commit's DELETEs plus its ADDs. */
static int merged_live(const cp_entry_vec *base, const cp_manifest_entry *delta, size_t n,
                       cp_entry_vec *out, paimon_error *err) {
  for (size_t i = 0; i < base->n; i++) {
    bool deleted = false;
    for (size_t j = 0; j < n && !deleted; j++)
      deleted = delta[j].kind == CP_FILE_KIND_DELETE &&
                cp_manifest_entry_same_file(&base->items[i], &delta[j]);
    if (!deleted) CP_RETURN_IF_ERROR(cp_entry_vec_push(out, &base->items[i], err));
  }
  for (size_t j = 0; j < n; j++)
    if (delta[j].kind == CP_FILE_KIND_ADD)
      CP_RETURN_IF_ERROR(cp_entry_vec_push(out, &delta[j], err));
  return PAIMON_OK;
}

typedef struct ranged_file {
  range r;
  const cp_data_file_meta *f;
} ranged_file;

static int cmp_ranged_file(const void *x, const void *y) {
  return cmp_range(&((const ranged_file *)x)->r, &((const ranged_file *)y)->r);
}

static void describe_files(const ranged_file *fs, size_t n, cp_buf *out) {
  cp_buf_append(out, "[", 1, NULL);
  for (size_t i = 0; i < n; i++)
    cp_buf_appendf(out, NULL, "%s%s [%" PRId64 ", %" PRId64 "]", i ? ", " : "", fs[i].f->file_name,
                   fs[i].r.from, fs[i].r.to);
  cp_buf_append(out, "]", 1, NULL);
  cp_buf_nul_terminate(out, NULL);
}

static int check_ranges(const cp_entry_vec *live, paimon_error *err) {
  ranged_file *data = malloc((live->n + 1) * sizeof *data);
  range *merged = malloc((live->n + 1) * sizeof *merged);
  if (!data || !merged) {
    free(data);
    free(merged);
    return CP_ENOMEM(err, "commit");
  }
  size_t nd = 0;
  for (size_t i = 0; i < live->n; i++) {
    const cp_data_file_meta *f = &live->items[i].file;
    if (f->has_first_row_id && !dedicated(f)) data[nd++] = (ranged_file){file_range(f), f};
  }
  qsort(data, nd, sizeof *data, cmp_ranged_file);
  int rc = PAIMON_OK;
  for (size_t s = 0; s < nd && !rc;) {
    size_t e = s + 1;
    int64_t max_to = data[s].r.to;
    bool same = true;
    while (e < nd && data[e].r.from <= max_to) {
      same = same && data[e].r.from == data[s].r.from && data[e].r.to == data[s].r.to;
      if (data[e].r.to > max_to) max_to = data[e].r.to;
      e++;
    }
    if (!same) {
      cp_buf b = CP_BUF_INIT;
      describe_files(data + s, e - s, &b);
      rc = paimon_error_set(err, PAIMON_ECONFLICT, RANGE_CONFLICT "data files: %s",
                            b.data ? (char *)b.data : "");
      cp_buf_free(&b);
    }
    s = e;
  }
  size_t nm = 0;
  for (size_t i = 0; i < nd; i++) merged[nm++] = data[i].r;
  nm = merge_ranges(merged, nm, false);
  for (size_t i = 0; i < live->n && !rc; i++) {
    const cp_data_file_meta *f = &live->items[i].file;
    if (!f->has_first_row_id || !dedicated(f)) continue;
    range d = file_range(f);
    size_t hits = 0;
    bool inside = false;
    for (size_t k = 0; k < nm; k++) {
      if (merged[k].to < d.from || merged[k].from > d.to) continue;
      hits++;
      inside = inside || (merged[k].from <= d.from && d.to <= merged[k].to);
    }
    if (!inside)
      rc = paimon_error_set(
          err, PAIMON_ECONFLICT, RANGE_CONFLICT "dedicated file %s [%" PRId64 ", %" PRId64 "] %s",
          f->file_name, d.from, d.to,
          hits > 1 ? "spans multiple data file ranges" : "is not covered by one data file range");
  }
  free(data);
  free(merged);
  return rc;
}

/* ------------------------------------ §4.5 logical ------------------------------------ */

/* A merged range this commit writes and the field ids it writes there. */
typedef struct write_range {
  range r;
  int32_t *ids;
  size_t n_ids;
} write_range;

/* Field ids of `f`'s write_cols through the file's own schema (Java's rule); all of the schema's
 * fields when write_cols is null; system columns skipped. */
static int file_field_ids(paimon_table *t, const cp_data_file_meta *f, int32_t **ids, size_t *n,
                          paimon_error *err) {
  const cp_table_schema *s;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(t, f->schema_id, &s, err));
  size_t cap = (f->has_write_cols ? f->write_cols.n : s->row->n_fields) + 1;
  *ids = malloc(cap * sizeof **ids);
  *n = 0;
  if (!*ids) return CP_ENOMEM(err, "commit");
  if (!f->has_write_cols) {
    for (size_t i = 0; i < s->row->n_fields; i++) (*ids)[(*n)++] = s->row->fields[i].id;
    return PAIMON_OK;
  }
  for (size_t i = 0; i < f->write_cols.n; i++) {
    const cp_field *fld = cp_row_find_field(s->row, f->write_cols.items[i]);
    if (fld) {
      (*ids)[(*n)++] = fld->id;
    } else if (!cp_is_system_field_name(f->write_cols.items[i])) {
      free(*ids);
      *ids = NULL;
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "Cannot find write column '%s' in schema %" PRId64 ".",
                              f->write_cols.items[i], f->schema_id);
    }
  }
  return PAIMON_OK;
}

static void free_write_ranges(write_range *w, size_t n) {
  for (size_t i = 0; w && i < n; i++) free(w[i].ids);
  free(w);
}

static int add_ids(write_range *w, const int32_t *ids, size_t n, paimon_error *err) {
  int32_t *all = realloc(w->ids, (w->n_ids + n + 1) * sizeof *all);
  if (!all) return CP_ENOMEM(err, "commit");
  w->ids = all;
  for (size_t i = 0; i < n; i++) w->ids[w->n_ids++] = ids[i];
  return PAIMON_OK;
}

/* RowIdColumnConflictChecker.buildWriteRanges: overlapping files merged, field ids unioned. */
static int build_write_ranges(paimon_table *t, const cp_manifest_entry *delta, size_t n,
                              write_range **out, size_t *n_out, paimon_error *err) {
  ranged_file *fs = malloc((n + 1) * sizeof *fs);
  write_range *w = calloc(n + 1, sizeof *w);
  if (!fs || !w) {
    free(fs);
    free(w);
    return CP_ENOMEM(err, "commit");
  }
  size_t nf = 0, nw = 0;
  for (size_t i = 0; i < n; i++)
    if (delta[i].file.has_first_row_id)
      fs[nf++] = (ranged_file){file_range(&delta[i].file), &delta[i].file};
  qsort(fs, nf, sizeof *fs, cmp_ranged_file);
  int rc = PAIMON_OK;
  for (size_t i = 0; i < nf && !rc; i++) {
    if (!nw || fs[i].r.from > w[nw - 1].r.to) w[nw++].r = fs[i].r;
    write_range *cur = &w[nw - 1];
    if (fs[i].r.to > cur->r.to) cur->r.to = fs[i].r.to;
    int32_t *ids = NULL;
    size_t k = 0;
    rc = file_field_ids(t, fs[i].f, &ids, &k, err);
    if (!rc) rc = add_ids(cur, ids, k, err);
    free(ids);
  }
  free(fs);
  if (rc) {
    free_write_ranges(w, nw);
    return rc;
  }
  *out = w;
  *n_out = nw;
  return PAIMON_OK;
}

static int conflicts_with(paimon_table *t, const write_range *w, size_t nw,
                          const cp_data_file_meta *f, bool *out, paimon_error *err) {
  *out = false;
  range r = file_range(f);
  for (size_t i = 0; i < nw && !*out; i++) {
    if (w[i].r.to < r.from || w[i].r.from > r.to) continue;
    if (!f->has_write_cols) { /* a full-schema write touches every column */
      *out = true;
      break;
    }
    int32_t *ids = NULL;
    size_t k = 0;
    CP_RETURN_IF_ERROR(file_field_ids(t, f, &ids, &k, err));
    for (size_t a = 0; a < k && !*out; a++)
      for (size_t b = 0; b < w[i].n_ids && !*out; b++) *out = ids[a] == w[i].ids[b];
    free(ids);
  }
  return PAIMON_OK;
}

int cp_de_check_logical(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                        size_t n, int64_t check_from, cp_arena *arena, paimon_error *err) {
  if (!latest || check_from < 0 || check_from >= latest->id) return PAIMON_OK;
  write_range *w = NULL;
  size_t nw = 0;
  CP_RETURN_IF_ERROR(build_write_ranges(t, delta, n, &w, &nw, err));
  if (nw == 0) {
    free_write_ranges(w, nw);
    return PAIMON_OK;
  }
  cp_snapshot *base = NULL;
  int rc = cp_snapshot_load(t->fs, t->path, check_from, &base, err);
  if (!rc && !base->has_next_row_id)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "Next row id cannot be null for snapshot %" PRId64 ".", check_from);
  int64_t next_row_id = rc ? 0 : base->next_row_id;
  cp_snapshot_free(base);
  for (int64_t id = check_from + 1; !rc && id <= latest->id; id++) {
    cp_snapshot *s = NULL;
    cp_entry_vec changes = {0};
    rc = id == latest->id ? PAIMON_OK : cp_snapshot_load(t->fs, t->path, id, &s, err);
    const cp_snapshot *snap = id == latest->id ? latest : s;
    if (!rc && snap->commit_kind != CP_COMMIT_COMPACT)
      rc = cp_snapshot_delta_entries(t->fs, t->path, snap, arena, &changes, err);
    for (size_t i = 0; !rc && i < changes.n; i++) {
      const cp_manifest_entry *e = &changes.items[i];
      if (!e->file.has_first_row_id || e->file.first_row_id >= next_row_id ||
          !in_partitions(e, delta, n))
        continue;
      bool hit = false;
      rc = conflicts_with(t, w, nw, &e->file, &hit, err);
      if (!rc && hit) rc = paimon_error_set(err, PAIMON_ECONFLICT, LOGICAL_CONFLICT);
    }
    cp_entry_vec_free(&changes);
    cp_snapshot_free(s);
  }
  free_write_ranges(w, nw);
  return rc;
}

/* ------------------------------------ entry point ------------------------------------ */

int cp_de_check_conflicts(paimon_table *t, const cp_snapshot *latest,
                          const cp_manifest_entry *delta, size_t n_delta,
                          int64_t check_from_snapshot, bool compact, cp_de_conflict *kind,
                          cp_arena *arena, paimon_error *err) {
  if (kind) *kind = CP_DE_CONFLICT_OTHER;
  if (!t->options.data_evolution || !latest || n_delta == 0) return PAIMON_OK;
  cp_entry_vec all = {0}, base = {0}, live = {0};
  int rc = cp_snapshot_entries(t->fs, t->path, latest, NULL, false, arena, &all, err);
  for (size_t i = 0; !rc && i < all.n; i++)
    if (in_partitions(&all.items[i], delta, n_delta))
      rc = cp_entry_vec_push(&base, &all.items[i], err);
  if (!rc)
    rc = compact ? check_compact_existence(&base, delta, n_delta, err)
                 : check_existence(&base, latest, delta, n_delta, kind, err);
  if (!rc && (check_from_snapshot >= 0 || compact)) {
    rc = merged_live(&base, delta, n_delta, &live, err);
    if (!rc) {
      rc = check_ranges(&live, err);
      if (rc == PAIMON_ECONFLICT && kind) *kind = CP_DE_CONFLICT_RANGES;
    }
    if (!rc && !compact)
      rc = cp_de_check_logical(t, latest, delta, n_delta, check_from_snapshot, arena, err);
  }
  cp_entry_vec_free(&all);
  cp_entry_vec_free(&base);
  cp_entry_vec_free(&live);
  if (rc && rc != PAIMON_ECONFLICT) paimon_error_prefix(err, "commit to table %s", t->full_name);
  return rc;
}
