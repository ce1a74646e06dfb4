/* Rebasing staged partial-column updates over a concurrent compaction (rebase.h). */
#include "table/rebase.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/read.h"
#include "cpaimon/update.h"
#include "meta/options.h"
#include "table/commit_message.h"
#include "table/conflict.h"
#include "table/scan.h"
#include "table/update_internal.h"
#include "types/special_fields.h"

#define OPT_MAX_SIZE "data-evolution.row-id-conflict-rewrite.max-size"

static bool dedicated(const cp_data_file_meta *f) {
  return cp_data_file_is_blob(f) || cp_data_file_is_vector_store(f);
}

static bool normal(const cp_data_file_meta *f) { return f->has_first_row_id && !dedicated(f); }

static bool same_bucket(const cp_manifest_entry *a, const cp_manifest_entry *b) {
  return a->bucket == b->bucket && a->partition.len == b->partition.len &&
         (a->partition.len == 0 ||
          memcmp(a->partition.data, b->partition.data, a->partition.len) == 0);
}

static int64_t last_id(const cp_data_file_meta *f) { return cp_data_file_last_row_id(f); }

/* A staged partial-column file over existing rows whose range no current file has. */
static bool candidate(const cp_manifest_entry *e, const cp_entry_vec *base,
                      const cp_snapshot *latest) {
  const cp_data_file_meta *f = &e->file;
  if (e->kind != CP_FILE_KIND_ADD || !normal(f) || f->first_row_id >= latest->next_row_id ||
      !f->has_write_cols || f->write_cols.n == 0)
    return false;
  for (size_t i = 0; i < f->write_cols.n; i++)
    if (cp_is_system_field_name(f->write_cols.items[i])) return false;
  for (size_t i = 0; i < base->n; i++) {
    const cp_data_file_meta *b = &base->items[i].file;
    if (normal(b) && same_bucket(&base->items[i], e) && b->first_row_id == f->first_row_id &&
        b->row_count == f->row_count)
      return false;
  }
  return true;
}

/* Whether the current normal files of e's bucket cover every row of e. */
static bool covered(const cp_manifest_entry *e, const cp_entry_vec *base) {
  int64_t from = e->file.first_row_id, to = last_id(&e->file);
  /* Extend `from` through the files that hold it until `to` is passed (files may be unsorted). */
  for (bool moved = true; moved && from <= to;) {
    moved = false;
    for (size_t i = 0; i < base->n && from <= to; i++) {
      const cp_data_file_meta *b = &base->items[i].file;
      if (normal(b) && same_bucket(&base->items[i], e) && b->first_row_id <= from &&
          from <= last_id(b)) {
        from = last_id(b) + 1;
        moved = true;
      }
    }
  }
  return from > to;
}

/* The current names of a staged file's columns (resolved by field id through its own schema);
 * false when one of them no longer exists. */
static int current_names(paimon_table *t, const cp_data_file_meta *f, const char **names, bool *ok,
                         paimon_error *err) {
  const cp_table_schema *s;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(t, f->schema_id, &s, err));
  *ok = true;
  for (size_t i = 0; i < f->write_cols.n && *ok; i++) {
    const cp_field *old = cp_row_find_field(s->row, f->write_cols.items[i]);
    const cp_field *now = NULL;
    for (size_t k = 0; old && k < t->schema->row->n_fields && !now; k++)
      if (t->schema->row->fields[k].id == old->id) now = &t->schema->row->fields[k];
    if (now)
      names[i] = now->name;
    else
      *ok = false;
  }
  return PAIMON_OK;
}

typedef struct staged {
  const cp_manifest_entry *e;
  const char **names; /* current names of its columns */
  size_t group;       /* index of its column group */
} staged;

static bool same_names(const staged *a, const staged *b) {
  if (a->e->file.write_cols.n != b->e->file.write_cols.n) return false;
  for (size_t i = 0; i < a->e->file.write_cols.n; i++)
    if (strcmp(a->names[i], b->names[i]) != 0) return false;
  return true;
}

static void describe_names(const staged *s, cp_buf *out) {
  cp_buf_append(out, "[", 1, NULL);
  for (size_t i = 0; i < s->e->file.write_cols.n; i++)
    cp_buf_appendf(out, NULL, "%s'%s'", i ? ", " : "", s->names[i]);
  cp_buf_append(out, "]", 1, NULL);
  cp_buf_nul_terminate(out, NULL);
}

/* Appends the rows of staged file `s` (its columns, then _ROW_ID) to *b (created on first use,
 * with *schema). */
static int read_staged(paimon_table *t, const cp_snapshot *latest, const staged *s, cp_builder **b,
                       struct ArrowSchema *schema, paimon_error *err) {
  size_t n = s->e->file.write_cols.n;
  const char **cols = calloc(n + 2, sizeof *cols);
  if (!cols) return CP_ENOMEM(err, "rebase");
  memcpy(cols, s->names, n * sizeof *cols);
  cols[n] = CP_ROW_ID_FIELD_NAME;
  cp_split split;
  memset(&split, 0, sizeof split);
  split.partition = s->e->partition;
  split.bucket = s->e->bucket;
  split.files = (cp_manifest_entry *)s->e;
  split.n_files = 1;
  split.merged = true;
  split.first_row_id = s->e->file.first_row_id;
  split.row_count = s->e->file.row_count;
  paimon_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.snapshot_id = latest->id;
  plan.splits = &split;
  plan.n_splits = 1;
  paimon_read_builder *rb = NULL;
  struct ArrowArrayStream st;
  struct ArrowSchema sc;
  memset(&st, 0, sizeof st);
  memset(&sc, 0, sizeof sc);
  int rc = paimon_read_builder_new(&rb, t, err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, cols, n + 1, err);
  if (!rc) rc = paimon_plan_read(rb, &plan, NULL, 0, &st, err);
  if (!rc) rc = cp_stream_get_schema(&st, &sc, err);
  if (!rc && !*b) rc = cp_builder_create(b, &sc, err);
  int64_t rows = 0;
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&st, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &sc, &batch, err);
    for (int64_t c = 0; !rc && c < v.n_children; c++)
      rc = cp_builder_append_view(cp_builder_child(*b, c), &v.children[c], 0, v.length, err);
    if (!rc) rc = cp_builder_end_elements(*b, v.length, err);
    rows += v.length;
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (!rc && rows != s->e->file.row_count)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "Automatic row-id conflict rewrite read %" PRId64
                          " rows from staged file '%s', expected %" PRId64 ".",
                          rows, s->e->file.file_name, s->e->file.row_count);
  if (!rc && !schema->release) {
    *schema = sc;
    memset(&sc, 0, sizeof sc);
  }
  if (sc.release) sc.release(&sc);
  if (st.release) st.release(&st);
  paimon_read_builder_free(rb);
  free(cols);
  return rc;
}

static int cmp_staged(const void *x, const void *y) {
  const staged *a = *(staged *const *)x, *b = *(staged *const *)y;
  int64_t p = a->e->file.first_row_id, q = b->e->file.first_row_id;
  return p < q ? -1 : p > q;
}

/* Rewrites the staged files of one column group through an updater pinned to `latest`. */
static int rewrite_group(paimon_table *t, const cp_snapshot *latest, staged **files, size_t n,
                         paimon_commit_messages *out, paimon_error *err) {
  qsort(files, n, sizeof *files, cmp_staged);
  for (size_t i = 1; i < n; i++)
    if (files[i]->e->file.first_row_id <= last_id(&files[i - 1]->e->file)) {
      cp_buf cols = CP_BUF_INIT;
      describe_names(files[i], &cols);
      int rc = paimon_error_set(err, PAIMON_ECONFLICT,
                                "Automatic row-id conflict rewrite cannot merge overlapping staged "
                                "files for columns %s.",
                                cols.data ? (char *)cols.data : "");
      cp_buf_free(&cols);
      return rc;
    }
  cp_builder *b = NULL;
  struct ArrowSchema schema;
  struct ArrowArray batch;
  memset(&schema, 0, sizeof schema);
  memset(&batch, 0, sizeof batch);
  paimon_update *u = NULL;
  paimon_commit_messages *m = NULL;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) rc = read_staged(t, latest, files[i], &b, &schema, err);
  if (!rc) rc = cp_builder_finish(b, &batch, err);
  if (!rc) rc = paimon_update_new(&u, t, err);
  if (!rc) rc = paimon_update_set_snapshot(u, latest->id, err);
  if (!rc)
    rc = paimon_update_set_update_cols(u, files[0]->names, files[0]->e->file.write_cols.n, err);
  if (!rc) rc = paimon_update_by_row_id(u, &schema, &batch, &m, err);
  if (!rc) rc = paimon_commit_messages_append(out, m, err);
  if (rc && m) cp_commit_messages_discard(t, m, NULL);
  paimon_commit_messages_free(m);
  paimon_update_free(u);
  if (batch.release) batch.release(&batch);
  if (schema.release) schema.release(&schema);
  cp_builder_free(b);
  return rc;
}

/* pypaimon's bound: the current files the rewrite reads. */
static int check_budget(paimon_table *t, const cp_entry_vec *base, const staged *c, size_t n,
                        int64_t max, paimon_error *err) {
  int64_t bytes = 0, files = 0;
  for (size_t i = 0; i < base->n; i++) {
    const cp_manifest_entry *b = &base->items[i];
    if (!normal(&b->file)) continue;
    for (size_t k = 0; k < n; k++) {
      const cp_data_file_meta *f = &c[k].e->file;
      if (same_bucket(b, c[k].e) && b->file.first_row_id <= last_id(f) &&
          f->first_row_id <= last_id(&b->file)) {
        bytes += b->file.file_size;
        files++;
        break;
      }
    }
  }
  if (bytes <= max) return PAIMON_OK;
  (void)t;
  return paimon_error_set(err, PAIMON_ECONFLICT,
                          "Automatic row-id conflict rewrite requires reading %" PRId64
                          " bytes across %" PRId64 " current data file(s), exceeding '" OPT_MAX_SIZE
                          "'=%" PRId64 " bytes.",
                          bytes, files, max);
}

static int rebase(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                  size_t n, int64_t check_from, const cp_entry_vec *base, cp_rebase *r, staged *c,
                  cp_arena *arena, bool *logical, paimon_error *err) {
  int64_t max = 0;
  CP_RETURN_IF_ERROR(
      cp_options_memory_size(&t->schema->options, OPT_MAX_SIZE, 256LL << 20, &max, err));
  if (max <= 0 || t->options.deletion_vectors || !latest->has_next_row_id) return PAIMON_OK;
  for (size_t i = 0; i < n; i++)
    if (delta[i].kind == CP_FILE_KIND_ADD && dedicated(&delta[i].file) &&
        delta[i].file.has_first_row_id && delta[i].file.first_row_id < latest->next_row_id)
      return PAIMON_OK; /* existing-row blob or vector files are never rebased */
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    if (!candidate(&delta[i], base, latest)) continue;
    if (!covered(&delta[i], base)) return PAIMON_OK; /* rows removed: the conflict stands */
    c[nc].e = &delta[i];
    c[nc].names = calloc(delta[i].file.write_cols.n + 1, sizeof *c[nc].names);
    if (!c[nc].names) return CP_ENOMEM(err, "rebase");
    bool ok = false;
    nc++;
    CP_RETURN_IF_ERROR(current_names(t, &delta[i].file, c[nc - 1].names, &ok, err));
    if (!ok) return PAIMON_OK; /* a column was dropped since: nothing to rebase onto */
  }
  if (nc == 0) return PAIMON_OK;
  /* The logical conflict before anything is rewritten: a rebase must never hide a concurrent
   * update of the same cells (raised as it is, as pypaimon does). */
  int lrc = cp_de_check_logical(t, latest, delta, n, check_from, arena, err);
  if (lrc) {
    *logical = lrc == PAIMON_ECONFLICT;
    return lrc;
  }
  CP_RETURN_IF_ERROR(check_budget(t, base, c, nc, max, err));
  size_t n_groups = 0;
  for (size_t i = 0; i < nc; i++) {
    size_t g = 0;
    while (g < i && !same_names(&c[g], &c[i])) g++;
    c[i].group = g < i ? c[g].group : n_groups++;
  }
  staged **members = calloc(nc + 1, sizeof *members);
  int rc = members ? paimon_commit_messages_new(&r->msgs, err) : CP_ENOMEM(err, "rebase");
  for (size_t g = 0; !rc && g < n_groups; g++) {
    size_t m = 0;
    for (size_t i = 0; i < nc; i++)
      if (c[i].group == g) members[m++] = &c[i];
    rc = rewrite_group(t, latest, members, m, r->msgs, err);
  }
  free(members);
  r->replaced = rc ? NULL : calloc(nc + 1, sizeof *r->replaced);
  if (!rc && !r->replaced) rc = CP_ENOMEM(err, "rebase");
  for (size_t i = 0; !rc && i < nc; i++) r->replaced[r->n_replaced++] = *c[i].e;
  if (!rc) r->done = true;
  return rc;
}

int cp_rebase_staged(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                     size_t n, int64_t check_from, const char *conflict, cp_rebase *r,
                     paimon_error *err) {
  memset(r, 0, sizeof *r);
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec base = {0};
  staged *c = calloc(n + 1, sizeof *c);
  char *original = strdup(conflict ? conflict : "");
  int rc = c && original ? PAIMON_OK : CP_ENOMEM(err, "rebase");
  if (!rc) rc = cp_snapshot_entries(t->fs, t->path, latest, NULL, false, &arena, &base, err);
  bool logical = false;
  if (!rc) rc = rebase(t, latest, delta, n, check_from, &base, r, c, &arena, &logical, err);
  if (rc && !logical) {
    if (rc == PAIMON_ECONFLICT) {
      char *reason = strdup(err && err->message[0] ? err->message : "");
      paimon_error_set(err, PAIMON_ECONFLICT, "%s %s", original, reason ? reason : "");
      free(reason);
    } else {
      paimon_error_prefix(err, "%s Automatic row-id conflict rewrite failed", original);
    }
  }
  if (rc) {
    if (r->msgs) cp_commit_messages_discard(t, r->msgs, NULL);
    cp_rebase_free(r);
  }
  for (size_t i = 0; c && i < n; i++) free(c[i].names);
  free(c);
  free(original);
  cp_entry_vec_free(&base);
  cp_arena_free(&arena);
  return rc;
}

void cp_rebase_free(cp_rebase *r) {
  paimon_commit_messages_free(r->msgs);
  free(r->replaced);
  memset(r, 0, sizeof *r);
}

/* ------------------------------ the compaction's side (§2.3) ------------------------------ */

/* A concurrent partial file and the compaction output range it lies in. */
typedef struct concurrent {
  const cp_manifest_entry *e;
  size_t out; /* index of the first output with its range */
} concurrent;

static bool deletes(const cp_manifest_entry *delta, size_t n, const cp_manifest_entry *e) {
  for (size_t i = 0; i < n; i++)
    if (delta[i].kind == CP_FILE_KIND_DELETE && cp_manifest_entry_same_file(&delta[i], e))
      return true;
  return false;
}

static bool regular_partial(const cp_data_file_meta *f) {
  if (!normal(f) || !f->has_file_source || f->file_source != CP_FILE_SOURCE_APPEND ||
      !f->has_write_cols || f->write_cols.n == 0)
    return false;
  for (size_t i = 0; i < f->write_cols.n; i++)
    if (cp_is_system_field_name(f->write_cols.items[i])) return false;
  return true;
}

/* The concurrent files of the base over the outputs' ranges; *ok false when one of them (or the
 * schema) rules the rebase out. */
static int find_concurrent(const cp_snapshot *latest, const cp_manifest_entry *delta, size_t n,
                           const cp_entry_vec *base, concurrent *out, size_t *n_out, bool *ok) {
  *n_out = 0;
  *ok = true;
  for (size_t i = 0; i < base->n && *ok; i++) {
    const cp_manifest_entry *b = &base->items[i];
    /* Blob and vector files are not compacted: theirs are the groups' own. */
    if (!normal(&b->file) || deletes(delta, n, b)) continue;
    int64_t from = b->file.first_row_id, to = last_id(&b->file);
    bool touches = false;
    ptrdiff_t inside = -1;
    for (size_t k = 0; k < n; k++) {
      const cp_manifest_entry *o = &delta[k];
      if (o->kind != CP_FILE_KIND_ADD || !normal(&o->file) || !same_bucket(o, b)) continue;
      int64_t of = o->file.first_row_id, ot = last_id(&o->file);
      if (ot < from || of > to) continue;
      touches = true;
      if (of <= from && to <= ot && inside < 0) inside = (ptrdiff_t)k;
      if (o->file.schema_id != latest->schema_id) *ok = false; /* the schema changed since */
    }
    if (!touches) continue;
    if (inside < 0 || !regular_partial(&b->file)) {
      *ok = false;
      break;
    }
    out[(*n_out)++] = (concurrent){b, (size_t)inside};
  }
  return PAIMON_OK;
}

/* The first row id of a split: its group's, or its one file's. */
static int64_t split_start(const cp_split *s) {
  return s->merged ? s->first_row_id : s->n_files ? s->files[0].file.first_row_id : -1;
}

/* Writes the current values of `names` over output `o`'s range (read from the latest snapshot's
 * groups inside it) as one partial file; *ok false when those groups do not cover the range. */
static int write_current(paimon_table *t, const paimon_plan *plan, const cp_manifest_entry *o,
                         const char *const *names, size_t n_names, cp_arena *arena,
                         cp_data_file_meta *meta, bool *ok, paimon_error *err) {
  int64_t from = o->file.first_row_id, to = last_id(&o->file), rows = 0;
  size_t *idx = calloc(plan->n_splits + 1, sizeof *idx), n = 0;
  if (!idx) return CP_ENOMEM(err, "rebase");
  for (size_t i = 0; i < plan->n_splits; i++) {
    const cp_split *s = &plan->splits[i];
    int64_t start = split_start(s);
    if (s->bucket != o->bucket || s->partition.len != o->partition.len ||
        (s->partition.len && memcmp(s->partition.data, o->partition.data, s->partition.len)) ||
        start < from || start + s->row_count - 1 > to)
      continue;
    idx[n++] = i;
    rows += s->row_count;
  }
  *ok = rows == o->file.row_count;
  cp_type *row = NULL;
  cp_group_writer w;
  memset(&w, 0, sizeof w);
  int rc = PAIMON_OK;
  if (*ok) {
    for (size_t i = 1; i < n; i++) /* by range start; a few groups per output */
      for (size_t j = i;
           j > 0 && split_start(&plan->splits[idx[j - 1]]) > split_start(&plan->splits[idx[j]]);
           j--) {
        size_t tmp = idx[j];
        idx[j] = idx[j - 1];
        idx[j - 1] = tmp;
      }
    rc = cp_update_columns_row(t, names, n_names, &row, err);
    if (!rc)
      rc = cp_group_writer_open(&w, t, row, false, o->partition, o->bucket, from, o->file.row_count,
                                err);
    if (!rc) rc = cp_group_writer_copy(&w, plan, idx, n, names, n_names, err);
    if (!rc)
      rc = cp_group_writer_finish(&w, arena, meta, err);
    else
      cp_group_writer_abort(&w);
  }
  cp_type_free(row);
  free(idx);
  return rc;
}

/* The union of the current names of the files' columns, in table order. */
static int union_names(paimon_table *t, const concurrent *c, size_t n, size_t out,
                       const char **names, size_t *n_names, bool *ok, paimon_error *err) {
  const cp_type *row = t->schema->row;
  bool *want = calloc(row->n_fields + 1, sizeof *want);
  if (!want) return CP_ENOMEM(err, "rebase");
  int rc = PAIMON_OK;
  *ok = true;
  for (size_t i = 0; !rc && i < n && *ok; i++) {
    if (c[i].out != out) continue;
    const char **cols = calloc(c[i].e->file.write_cols.n + 1, sizeof *cols);
    rc = cols ? current_names(t, &c[i].e->file, cols, ok, err) : CP_ENOMEM(err, "rebase");
    for (size_t k = 0; !rc && *ok && k < c[i].e->file.write_cols.n; k++)
      for (size_t f = 0; f < row->n_fields; f++)
        if (strcmp(row->fields[f].name, cols[k]) == 0) want[f] = true;
    free(cols);
  }
  *n_names = 0;
  for (size_t f = 0; f < row->n_fields; f++)
    if (want[f]) names[(*n_names)++] = row->fields[f].name;
  free(want);
  return rc;
}

static int rebase_outputs(paimon_table *t, const cp_snapshot *latest,
                          const cp_manifest_entry *delta, size_t n, const concurrent *c, size_t nc,
                          cp_rebase *r, paimon_error *err) {
  paimon_plan *plan = NULL;
  const char **names = calloc(t->schema->row->n_fields + 1, sizeof *names);
  cp_data_file_meta *dels = calloc(nc + 1, sizeof *dels);
  int rc = names && dels ? PAIMON_OK : CP_ENOMEM(err, "rebase");
  if (!rc) rc = cp_plan_snapshot(t, latest, NULL, &plan, err);
  if (!rc) rc = paimon_commit_messages_new(&r->msgs, err);
  bool ok = true;
  for (size_t o = 0; !rc && ok && o < n; o++) {
    size_t n_del = 0, n_names = 0;
    const cp_data_file_meta *out = &delta[o].file;
    int64_t min_seq = out->min_sequence_number, max_seq = out->max_sequence_number;
    for (size_t i = 0; i < nc; i++) {
      if (c[i].out != o) continue;
      dels[n_del++] = c[i].e->file;
      if (c[i].e->file.min_sequence_number < min_seq) min_seq = c[i].e->file.min_sequence_number;
      if (c[i].e->file.max_sequence_number > max_seq) max_seq = c[i].e->file.max_sequence_number;
    }
    if (n_del == 0) continue;
    rc = union_names(t, c, nc, o, names, &n_names, &ok, err);
    cp_data_file_meta meta;
    if (!rc && ok)
      rc = write_current(t, plan, &delta[o], names, n_names, &r->msgs->arena, &meta, &ok, err);
    if (rc || !ok) break;
    /* Newer than the compacted file and than the updates it replaces (Spark's rule). */
    meta.min_sequence_number = min_seq;
    meta.max_sequence_number = max_seq;
    rc = cp_commit_messages_add_compaction(t, r->msgs, delta[o].partition, delta[o].bucket,
                                           delta[o].total_buckets, &meta, dels, n_del, err);
  }
  if (!rc && ok) r->done = true;
  if (rc || !ok) {
    if (r->msgs) cp_commit_messages_discard(t, r->msgs, NULL);
    paimon_commit_messages_free(r->msgs);
    r->msgs = NULL;
  }
  paimon_plan_free(plan);
  free(names);
  free(dels);
  return rc;
}

int cp_rebase_compaction(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                         size_t n, cp_rebase *r, paimon_error *err) {
  memset(r, 0, sizeof *r);
  if (t->options.deletion_vectors) return PAIMON_OK; /* Spark gives up with DVs */
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec base = {0};
  concurrent *c = NULL;
  size_t nc = 0;
  bool ok = false;
  int rc = cp_snapshot_entries(t->fs, t->path, latest, NULL, false, &arena, &base, err);
  if (!rc && !(c = calloc(base.n + 1, sizeof *c))) rc = CP_ENOMEM(err, "rebase");
  if (!rc) rc = find_concurrent(latest, delta, n, &base, c, &nc, &ok);
  if (!rc && ok && nc) rc = rebase_outputs(t, latest, delta, n, c, nc, r, err);
  if (rc) paimon_error_prefix(err, "rebasing the compaction of table %s", t->full_name);
  free(c);
  cp_entry_vec_free(&base);
  cp_arena_free(&arena);
  return rc;
}
