/*
 * The table checker (check.h): every invariant is checked independently and reported as one line,
 * so a damaged table yields the full list of what is wrong rather than the first error. Reading
 * failures of individual files become violations naming the file; only failing to open the table
 * at all is an error of the call.
 */
#include "table/check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/read.h"
#include "format/parquet/reader.h"
#include "table/file_io.h"
#include "table/dv.h"
#include "table/file_store.h"
#include "table/store.h"
#include "types/special_fields.h"

#define MAX_HINT 64

typedef struct checker {
  paimon_table *t;
  cp_check_report *rep;
  bool deep;
  int64_t *schema_ids;
  size_t n_schema_ids;
  char **seen_manifests; /* names already verified readable */
  size_t n_seen, cap_seen;
} checker;

static void note(char ***list, size_t *n, size_t *cap, const char *fmt, va_list ap) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    char **v = realloc(*list, nc * sizeof *v);
    if (!v) return;
    *list = v;
    *cap = nc;
  }
  char buf[1200];
  vsnprintf(buf, sizeof buf, fmt, ap);
  char *s = strdup(buf);
  if (s) (*list)[(*n)++] = s;
}

static void violation(checker *c, const char *fmt, ...) PAIMON_PRINTF(2, 3);
static void violation(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  note(&c->rep->violations, &c->rep->n_violations, &c->rep->cap, fmt, ap);
  va_end(ap);
}

/* Something a reader copes with (a hint gone wrong: Paimon treats hints as advisory). */
static void warning(checker *c, const char *fmt, ...) PAIMON_PRINTF(2, 3);
static void warning(checker *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  note(&c->rep->warnings, &c->rep->n_warnings, &c->rep->warnings_cap, fmt, ap);
  va_end(ap);
}

void cp_check_report_free(cp_check_report *rep) {
  for (size_t i = 0; i < rep->n_violations; i++) free(rep->violations[i]);
  free(rep->violations);
  for (size_t i = 0; i < rep->n_warnings; i++) free(rep->warnings[i]);
  free(rep->warnings);
  memset(rep, 0, sizeof *rep);
}

static bool schema_exists(const checker *c, int64_t id) {
  for (size_t i = 0; i < c->n_schema_ids; i++)
    if (c->schema_ids[i] == id) return true;
  return false;
}

/* ------------------------------------ schemas ------------------------------------ */

static void check_schemas(checker *c) {
  paimon_table *t = c->t;
  paimon_error err;
  char *dir = cp_path_join(t->path, "schema");
  if (!dir || cp_list_versioned(t->fs, dir, "schema-", &c->schema_ids, &c->n_schema_ids, &err)) {
    violation(c, "schema directory of %s cannot be listed: %s", t->full_name,
              dir ? err.message : "out of memory");
    free(dir);
    return;
  }
  free(dir);
  for (size_t i = 0; i < c->n_schema_ids; i++) {
    cp_table_schema *s = NULL;
    if (cp_schema_load(t->fs, t->path, c->schema_ids[i], &s, &err) != 0)
      violation(c, "schema %" PRId64 " is unreadable: %s", c->schema_ids[i], err.message);
    else if (s->id != c->schema_ids[i])
      violation(c, "schema file schema-%" PRId64 " holds id %" PRId64, c->schema_ids[i], s->id);
    cp_table_schema_free(s);
  }
}

/* ------------------------------------ snapshots ------------------------------------ */

static bool seen_manifest(checker *c, const char *name) {
  for (size_t i = 0; i < c->n_seen; i++)
    if (strcmp(c->seen_manifests[i], name) == 0) return true;
  if (c->n_seen == c->cap_seen) {
    size_t cap = c->cap_seen ? c->cap_seen * 2 : 64;
    char **n = realloc(c->seen_manifests, cap * sizeof *n);
    if (!n) return false;
    c->seen_manifests = n;
    c->cap_seen = cap;
  }
  char *s = strdup(name);
  if (s) c->seen_manifests[c->n_seen++] = s;
  return false;
}

/* A manifest list and each manifest it names must be readable. */
static void check_list(checker *c, const cp_snapshot *s, const char *what, const char *list) {
  paimon_table *t = c->t;
  paimon_error err;
  if (!list) {
    violation(c, "snapshot %" PRId64 ": no %s manifest list", s->id, what);
    return;
  }
  cp_arena arena = CP_ARENA_INIT;
  cp_manifest_meta_vec metas = {0};
  if (cp_read_manifest_list(t->fs, t->path, list, &arena, &metas, &err) != 0) {
    violation(c, "snapshot %" PRId64 ": %s manifest list %s is unreadable: %s", s->id, what, list,
              err.message);
  } else {
    for (size_t i = 0; i < metas.n; i++) {
      if (seen_manifest(c, metas.items[i].file_name)) continue;
      cp_entry_vec entries = {0};
      if (cp_read_manifest(t->fs, t->path, metas.items[i].file_name, &arena, &entries, &err) != 0)
        violation(c, "snapshot %" PRId64 ": manifest %s is unreadable: %s", s->id,
                  metas.items[i].file_name, err.message);
      cp_entry_vec_free(&entries);
    }
  }
  cp_manifest_meta_vec_free(&metas);
  cp_arena_free(&arena);
}

static void check_one_snapshot(checker *c, const cp_snapshot *s, int64_t file_id,
                               const cp_snapshot *prev) {
  paimon_table *t = c->t;
  if (s->id != file_id)
    violation(c, "snapshot file snapshot-%" PRId64 " holds id %" PRId64, file_id, s->id);
  if (!schema_exists(c, s->schema_id))
    violation(c, "snapshot %" PRId64 ": schema %" PRId64 " does not exist", s->id, s->schema_id);
  if (prev && s->has_next_row_id && prev->has_next_row_id && s->next_row_id < prev->next_row_id)
    violation(
        c, "snapshot %" PRId64 ": nextRowId %" PRId64 " is below snapshot %" PRId64 "'s %" PRId64,
        s->id, s->next_row_id, prev->id, prev->next_row_id);
  if (prev && s->total_record_count != prev->total_record_count + s->delta_record_count)
    violation(c,
              "snapshot %" PRId64 ": totalRecordCount %" PRId64 " != previous %" PRId64
              " + deltaRecordCount %" PRId64,
              s->id, s->total_record_count, prev->total_record_count, s->delta_record_count);
  check_list(c, s, "base", s->base_manifest_list);
  check_list(c, s, "delta", s->delta_manifest_list);
  if (s->index_manifest && !seen_manifest(c, s->index_manifest)) {
    paimon_error err;
    cp_arena arena = CP_ARENA_INIT;
    cp_index_entry_vec idx = {0};
    if (cp_read_index_manifest(t->fs, t->path, s->index_manifest, &arena, &idx, &err) != 0)
      violation(c, "snapshot %" PRId64 ": index manifest %s is unreadable: %s", s->id,
                s->index_manifest, err.message);
    cp_index_entry_vec_free(&idx);
    cp_arena_free(&arena);
  }
}

static void check_hint(checker *c, const char *name, const int64_t *ids, size_t n) {
  paimon_table *t = c->t;
  char *dir = cp_path_join(t->path, "snapshot"), *path = dir ? cp_path_join(dir, name) : NULL;
  cp_buf b = CP_BUF_INIT;
  bool exists = false;
  if (path && cp_fs_exists(t->fs, path, &exists, NULL) == 0 && exists) {
    int64_t v;
    if (cp_fs_read_file(t->fs, path, &b, MAX_HINT, NULL) != 0 || cp_hint_parse(b.data, b.len, &v))
      warning(c, "snapshot/%s hint is unreadable (readers fall back to listing)", name);
    else {
      bool found = false;
      for (size_t i = 0; i < n && !found; i++) found = ids[i] == v;
      if (!found)
        warning(c, "snapshot/%s hint names snapshot %" PRId64 ", which does not exist", name, v);
    }
  }
  cp_buf_free(&b);
  free(path);
  free(dir);
}

/* Checks the chain; returns the latest snapshot (caller frees) or NULL. */
static cp_snapshot *check_snapshots(checker *c) {
  paimon_table *t = c->t;
  paimon_error err;
  int64_t *ids = NULL;
  size_t n = 0;
  char *dir = cp_path_join(t->path, "snapshot");
  if (!dir || cp_list_versioned(t->fs, dir, "snapshot-", &ids, &n, &err)) {
    violation(c, "snapshot directory cannot be listed: %s", dir ? err.message : "out of memory");
    free(dir);
    return NULL;
  }
  free(dir);
  cp_snapshot *prev = NULL;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && ids[i] != ids[i - 1] + 1)
      violation(c, "snapshots %" PRId64 " .. %" PRId64 " are missing (the chain has a gap)",
                ids[i - 1] + 1, ids[i] - 1);
    cp_snapshot *s = NULL;
    if (cp_snapshot_load(t->fs, t->path, ids[i], &s, &err) != 0) {
      violation(c, "snapshot %" PRId64 " is unreadable: %s", ids[i], err.message);
      continue;
    }
    check_one_snapshot(c, s, ids[i], prev);
    c->rep->snapshots++;
    cp_snapshot_free(prev);
    prev = s;
  }
  check_hint(c, "LATEST", ids, n);
  check_hint(c, "EARLIEST", ids, n);
  /* The latest must be the last listed one (an unreadable last snapshot leaves prev older). */
  if (prev && n && prev->id != ids[n - 1]) {
    cp_snapshot_free(prev);
    prev = NULL;
  }
  free(ids);
  return prev;
}

/* ------------------------------------ live files ------------------------------------ */

/* Decodes every page of the file: what a reader of any column would meet. */
static void decode_all(checker *c, cp_file_reader *r, const char *path, int64_t expect) {
  paimon_error err;
  int64_t rows = 0;
  for (;;) {
    struct ArrowArray batch;
    bool eof = false;
    if (cp_file_reader_next(r, &batch, NULL, &eof, &err) != 0) {
      violation(c, "data file %s does not decode: %s", path, err.message);
      return;
    }
    if (eof) break;
    rows += batch.length;
    batch.release(&batch);
  }
  c->rep->decoded++;
  if (rows != expect)
    violation(c, "data file %s decodes to %" PRId64 " rows, its manifest entry says %" PRId64, path,
              rows, expect);
}

/* Opens a live data file and holds its footer against its DataFileMeta: the row count, and every
 * column of the file's schema (of write_cols for a partial file), present by name and readable as
 * the schema's type (check.h). */
static void check_file_contents(checker *c, const cp_manifest_entry *e, const char *path) {
  paimon_table *t = c->t;
  const cp_data_file_meta *f = &e->file;
  paimon_error err;
  const cp_table_schema *schema = NULL;
  if (cp_data_file_check_readable(f->file_name, path, &err) != 0 ||
      cp_data_file_is_vector_store(f) || cp_table_schema_by_id(t, f->schema_id, &schema, &err) != 0)
    return; /* a format cpaimon cannot read yet; a missing schema is reported already */
  const cp_type *row = schema->row;
  cp_pq_column_request *req = calloc(row->n_fields + 1, sizeof *req);
  if (!req) return;
  size_t n = 0;
  for (size_t i = 0; i < row->n_fields; i++) {
    const cp_field *fl = &row->fields[i];
    if (fl->type->kind == CP_TYPE_BLOB) continue;
    if (f->has_write_cols && !cp_data_file_writes_col(f, fl->name)) continue;
    req[n++] = (cp_pq_column_request){fl->name, 0, fl->type, NULL, false};
  }
  cp_pq_reader_options o;
  memset(&o, 0, sizeof o);
  o.columns = req;
  o.num_columns = n;
  cp_file_reader *r = NULL;
  c->rep->opened++;
  if (cp_file_reader_open(&r, t->fs, path, &o, &err) != 0) {
    violation(c, "data file %s does not open: %s", path, err.message);
  } else {
    int64_t rows = cp_file_reader_file_rows(r);
    if (rows != f->row_count)
      violation(c, "data file %s holds %" PRId64 " rows, its manifest entry says %" PRId64, path,
                rows, f->row_count);
    for (size_t i = 0; i < n; i++)
      if (!cp_file_reader_has_column(r, req[i].name))
        violation(c, "data file %s lacks column %s of its schema %" PRId64, path, req[i].name,
                  f->schema_id);
    if (c->deep) decode_all(c, r, path, f->row_count);
  }
  cp_file_reader_free(r);
  free(req);
}

static void check_data_files(checker *c, const cp_entry_vec *live) {
  paimon_table *t = c->t;
  for (size_t i = 0; i < live->n; i++) {
    const cp_manifest_entry *e = &live->items[i];
    char *path = NULL;
    paimon_error err;
    uint64_t size = 0;
    c->rep->data_files++;
    if (!schema_exists(c, e->file.schema_id))
      violation(c, "data file %s: schema %" PRId64 " does not exist", e->file.file_name,
                e->file.schema_id);
    if (cp_data_file_path(t, e->partition, e->bucket, &e->file, &path, &err) != 0) {
      violation(c, "data file %s: %s", e->file.file_name, err.message);
      continue;
    }
    int rc = cp_fs_size(t->fs, path, &size, &err);
    if (rc == PAIMON_ENOTFOUND)
      violation(c, "data file %s is missing", path);
    else if (rc)
      violation(c, "data file %s: %s", path, err.message);
    else if ((int64_t)size != e->file.file_size)
      violation(c, "data file %s has %" PRIu64 " bytes, its manifest entry says %" PRId64, path,
                size, e->file.file_size);
    else
      check_file_contents(c, e, path);
    free(path);
  }
}

typedef struct range {
  int64_t from, to;
  const cp_manifest_entry *e;
} range;

static int cmp_range(const void *x, const void *y) {
  const range *a = x, *b = y;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return a->to < b->to ? -1 : a->to > b->to;
}

/* Normal-file ranges: disjoint across groups, identical within a data-evolution group; dedicated
 * files inside a normal range; everything below nextRowId. */
static void check_row_id_ranges(checker *c, const cp_snapshot *s, const cp_entry_vec *live) {
  paimon_table *t = c->t;
  range *normal = malloc((live->n + 1) * sizeof *normal);
  if (!normal) return;
  size_t n = 0;
  int64_t next = s->has_next_row_id ? s->next_row_id : 0;
  for (size_t i = 0; i < live->n; i++) {
    const cp_data_file_meta *f = &live->items[i].file;
    if (!f->has_first_row_id) {
      if (!cp_data_file_writes_col(f, CP_ROW_ID_FIELD_NAME))
        violation(c, "data file %s has no first row id and no _ROW_ID column", f->file_name);
      continue;
    }
    if (f->first_row_id < 0 || f->row_count < 0 || cp_data_file_last_row_id(f) >= next)
      violation(c,
                "data file %s: row ids [%" PRId64 ", %" PRId64 "] are not below nextRowId %" PRId64,
                f->file_name, f->first_row_id, cp_data_file_last_row_id(f), next);
    if (!cp_data_file_is_blob(f) && !cp_data_file_is_vector_store(f))
      normal[n++] = (range){f->first_row_id, cp_data_file_last_row_id(f), &live->items[i]};
  }
  qsort(normal, n, sizeof *normal, cmp_range);
  for (size_t i = 1; i < n; i++) {
    const range *a = &normal[i - 1], *b = &normal[i];
    if (b->from > a->to) continue;
    bool same = a->from == b->from && a->to == b->to;
    if (!t->options.data_evolution || !same)
      violation(c,
                "data files %s [%" PRId64 ", %" PRId64 "] and %s [%" PRId64 ", %" PRId64
                "] have overlapping row ids",
                a->e->file.file_name, a->from, a->to, b->e->file.file_name, b->from, b->to);
  }
  for (size_t i = 0; i < live->n; i++) {
    const cp_data_file_meta *f = &live->items[i].file;
    if (!f->has_first_row_id || (!cp_data_file_is_blob(f) && !cp_data_file_is_vector_store(f)))
      continue;
    bool inside = false;
    for (size_t k = 0; k < n && !inside; k++)
      inside = normal[k].from <= f->first_row_id && cp_data_file_last_row_id(f) <= normal[k].to;
    if (!inside)
      violation(c, "dedicated file %s [%" PRId64 ", %" PRId64 "] is not inside one data file range",
                f->file_name, f->first_row_id, cp_data_file_last_row_id(f));
  }
  free(normal);
}

/* The ids seen so far, as a roaring set: dense row ids cost about a bit each, so tables of
 * billions of rows stay checkable. */
typedef struct id_seen {
  cp_dv *set;
  int64_t rows, max, reported;
} id_seen;

static void see_ids(checker *c, id_seen *seen, const cp_array_view *ids) {
  for (int64_t i = 0; i < ids->length; i++) {
    int64_t id = cp_view_get_int64(ids, i);
    bool added = true;
    seen->rows++;
    if (id > seen->max) seen->max = id;
    if (id < 0) {
      if (seen->reported++ < 10) violation(c, "_ROW_ID %" PRId64 " is negative", id);
    } else if (cp_dv_add(seen->set, id, &added, NULL) == 0 && !added && seen->reported++ < 10) {
      violation(c, "_ROW_ID %" PRId64 " is visible more than once", id);
    }
  }
}

/* What readers see: every _ROW_ID of the latest snapshot, unique and below nextRowId. */
static void check_visible_row_ids(checker *c, const cp_snapshot *s) {
  paimon_table *t = c->t;
  paimon_error err;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  const char *col = CP_ROW_ID_FIELD_NAME;
  id_seen seen = {NULL, 0, -1, 0};
  int rc = cp_dv_new(&seen.set, &err);
  if (!rc) rc = paimon_read_builder_new(&rb, t, &err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, &col, 1, &err);
  if (!rc) rc = paimon_read_builder_set_snapshot(rb, s->id, &err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, &err);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &stream, &err);
  if (!rc) rc = cp_stream_get_schema(&stream, &schema, &err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&stream, &batch, &err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &schema, &batch, &err);
    if (!rc) see_ids(c, &seen, &v.children[0]);
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (rc) violation(c, "snapshot %" PRId64 " cannot be read: %s", s->id, err.message);
  c->rep->rows = seen.rows;
  if (seen.rows && s->has_next_row_id && seen.max >= s->next_row_id)
    violation(c, "_ROW_ID %" PRId64 " is not below nextRowId %" PRId64, seen.max, s->next_row_id);
  cp_dv_free(seen.set);
  if (schema.release) schema.release(&schema);
  if (stream.release) stream.release(&stream);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
}

/* ------------------------------------ deletion vectors ------------------------------------ */

static bool same_bucket(const cp_manifest_entry *e, cp_bytes partition, int32_t bucket) {
  return e->bucket == bucket && e->partition.len == partition.len &&
         memcmp(e->partition.data, partition.data, partition.len) == 0;
}

/* The live data file `name` in (partition, bucket), or NULL. */
static const cp_manifest_entry *find_live(const cp_entry_vec *live, cp_bytes partition,
                                          int32_t bucket, const char *name) {
  for (size_t i = 0; i < live->n; i++)
    if (strcmp(live->items[i].file.file_name, name) == 0 &&
        same_bucket(&live->items[i], partition, bucket))
      return &live->items[i];
  return NULL;
}

/* On data-evolution tables a DV must belong to its group's anchor (§2.6). */
static void check_anchor(checker *c, const cp_entry_vec *live, const cp_manifest_entry *f) {
  const cp_data_file_meta *a = &f->file;
  if (cp_data_file_is_blob(a) || cp_data_file_is_vector_store(a) || !a->has_first_row_id) {
    violation(c, "deletion vector of %s: not a normal file with row ids", a->file_name);
    return;
  }
  for (size_t i = 0; i < live->n; i++) {
    const cp_data_file_meta *o = &live->items[i].file;
    if (o == a || !o->has_first_row_id || cp_data_file_is_blob(o) ||
        cp_data_file_is_vector_store(o) || !same_bucket(&live->items[i], f->partition, f->bucket))
      continue;
    bool overlap = o->first_row_id <= cp_data_file_last_row_id(a) &&
                   a->first_row_id <= cp_data_file_last_row_id(o);
    bool older = o->max_sequence_number < a->max_sequence_number ||
                 (o->max_sequence_number == a->max_sequence_number &&
                  strcmp(o->file_name, a->file_name) < 0);
    if (overlap && older)
      violation(c, "deletion vector of %s: its group's anchor is %s, readers ignore this DV",
                a->file_name, o->file_name);
  }
}

static void check_one_dv(checker *c, const cp_entry_vec *live, const cp_index_manifest_entry *e,
                         const char *path, const cp_dv_meta *m) {
  paimon_table *t = c->t;
  paimon_error err;
  c->rep->dvs++;
  const cp_manifest_entry *f = find_live(live, e->partition, e->bucket, m->data_file);
  if (!f) {
    violation(c,
              "index file %s: deletion vector of %s, which is not a live data file of its "
              "partition and bucket",
              e->file_name, m->data_file);
    return;
  }
  if (t->options.data_evolution) check_anchor(c, live, f);
  cp_dv *dv = NULL;
  if (cp_dv_load(t->fs, path, m->offset, m->length, &dv, &err) != 0) {
    violation(c, "index file %s: deletion vector of %s is unreadable: %s", e->file_name,
              m->data_file, err.message);
    return;
  }
  if (m->has_cardinality && m->cardinality != cp_dv_cardinality(dv))
    violation(c,
              "index file %s: deletion vector of %s holds %" PRId64 " rows, its meta says %" PRId64,
              e->file_name, m->data_file, cp_dv_cardinality(dv), m->cardinality);
  if (cp_dv_max(dv) >= f->file.row_count)
    violation(c,
              "index file %s: deletion vector of %s deletes position %" PRId64
              ", past the file's %" PRId64 " rows",
              e->file_name, m->data_file, cp_dv_max(dv), f->file.row_count);
  cp_dv_free(dv);
}

static int cmp_ref_name(const void *x, const void *y) {
  const cp_dv_ref *a = x, *b = y;
  int d = strcmp(a->meta->data_file, b->meta->data_file);
  if (d) return d;
  if (a->entry->bucket != b->entry->bucket) return a->entry->bucket < b->entry->bucket ? -1 : 1;
  if (a->entry->partition.len != b->entry->partition.len)
    return a->entry->partition.len < b->entry->partition.len ? -1 : 1;
  return memcmp(a->entry->partition.data, b->entry->partition.data, a->entry->partition.len);
}

static void check_index(checker *c, const cp_snapshot *s, const cp_entry_vec *live) {
  paimon_table *t = c->t;
  paimon_error err;
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  if (cp_snapshot_index_entries(t->fs, t->path, s, &arena, &idx, &err) != 0) {
    cp_arena_free(&arena);
    return; /* reported by the snapshot pass */
  }
  size_t n_refs = 0;
  for (size_t i = 0; i < idx.n; i++) n_refs += idx.items[i].n_dv_ranges;
  cp_dv_ref *refs = malloc((n_refs + 1) * sizeof *refs);
  n_refs = 0;
  for (size_t i = 0; i < idx.n && refs; i++) {
    const cp_index_manifest_entry *e = &idx.items[i];
    char *path = NULL;
    uint64_t size = 0;
    if (cp_index_file_path(t, e, &path, &err) != 0) continue;
    int rc = cp_fs_size(t->fs, path, &size, &err);
    if (rc)
      violation(c, "index file %s: %s", path, rc == PAIMON_ENOTFOUND ? "missing" : err.message);
    else if ((int64_t)size != e->file_size)
      violation(c, "index file %s has %" PRIu64 " bytes, its index manifest entry says %" PRId64,
                path, size, e->file_size);
    bool is_dv = e->index_type && strcmp(e->index_type, CP_DV_INDEX_TYPE) == 0;
    if (!rc && is_dv && e->row_count != (int64_t)e->n_dv_ranges)
      violation(c, "index file %s: _ROW_COUNT %" PRId64 " but %zu deletion vectors", e->file_name,
                e->row_count, e->n_dv_ranges);
    for (size_t k = 0; !rc && is_dv && k < e->n_dv_ranges; k++) {
      check_one_dv(c, live, e, path, &e->dv_ranges[k]);
      refs[n_refs++] = (cp_dv_ref){e, &e->dv_ranges[k]};
    }
    free(path);
  }
  if (refs) qsort(refs, n_refs, sizeof *refs, cmp_ref_name);
  for (size_t i = 1; refs && i < n_refs; i++)
    if (cmp_ref_name(&refs[i - 1], &refs[i]) == 0)
      violation(c, "data file %s has deletion vectors in two live index files, %s and %s",
                refs[i].meta->data_file, refs[i - 1].entry->file_name, refs[i].entry->file_name);
  free(refs);
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
}

static void check_latest(checker *c, const cp_snapshot *s) {
  paimon_table *t = c->t;
  paimon_error err;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec all = {0}, live = {0};
  if (cp_snapshot_entries(t->fs, t->path, s, NULL, true, &arena, &all, &err) != 0) {
    violation(c, "snapshot %" PRId64 ": its files cannot be listed: %s", s->id, err.message);
    cp_arena_free(&arena);
    return;
  }
  for (size_t i = 0; i < all.n; i++) {
    if (all.items[i].kind == CP_FILE_KIND_ADD)
      cp_entry_vec_push(&live, &all.items[i], NULL);
    else
      violation(c, "snapshot %" PRId64 " deletes data file %s, which is not live before it", s->id,
                all.items[i].file.file_name);
  }
  check_data_files(c, &live);
  if (t->options.row_tracking) {
    check_row_id_ranges(c, s, &live);
    check_visible_row_ids(c, s);
  }
  check_index(c, s, &live);
  cp_entry_vec_free(&all);
  cp_entry_vec_free(&live);
  cp_arena_free(&arena);
}

int cp_table_check(paimon_catalog *catalog, const char *database, const char *name,
                   const cp_check_options *opts, cp_check_report *rep, paimon_error *err) {
  paimon_table *t = NULL;
  CP_RETURN_IF_ERROR(cp_table_open(catalog, database, name, &t, err));
  checker c;
  memset(&c, 0, sizeof c);
  c.t = t;
  c.rep = rep;
  c.deep = opts && opts->deep;
  check_schemas(&c);
  cp_snapshot *latest = check_snapshots(&c);
  if (latest) check_latest(&c, latest);
  cp_snapshot_free(latest);
  free(c.schema_ids);
  for (size_t i = 0; i < c.n_seen; i++) free(c.seen_manifests[i]);
  free(c.seen_manifests);
  paimon_table_free(t);
  return PAIMON_OK;
}
