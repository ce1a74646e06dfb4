/*
 * Shared helpers of the deletion-vector, delete, rewrite and check tests (test_dv*.c,
 * test_delete*.c, test_rewrite*.c, test_check*.c): a scratch warehouse, tables of the fixed shape
 * (id INT NOT NULL, name STRING, age INT, dt STRING), writing rows, committing, reading every row
 * with its hidden columns sorted by _ROW_ID, and running the table checker.
 */
#ifndef CP_TEST_DV_UTIL_H
#define CP_TEST_DV_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "cpaimon/commit.h"
#include "cpaimon/read.h"
#include "cpaimon/write.h"
#include "table/check.h"
#include "table/file_store.h"
#include "table/store.h"
#include "table/table.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

#define TU_ROW "ROW<id INT NOT NULL, name STRING, age INT, dt STRING>"
#define TU_MAX 256

static paimon_catalog *tu_cat;
static char tu_warehouse[256];

__attribute__((unused)) static int tu_open(const char *prefix) {
  const char *tmp = getenv("TMPDIR");
  snprintf(tu_warehouse, sizeof tu_warehouse, "%s/%s-XXXXXX", tmp ? tmp : "/tmp", prefix);
  if (!mkdtemp(tu_warehouse)) return 1;
  paimon_error err;
  if (paimon_catalog_open(&tu_cat, tu_warehouse, &err) ||
      paimon_catalog_create_database(tu_cat, "db", true, &err)) {
    fprintf(stderr, "setup: %s\n", err.message);
    return 1;
  }
  return 0;
}

/* Options as "k=v" strings. */
__attribute__((unused)) static paimon_table *tu_table(const char *name, const char *partition,
                                                      const char *const *opts, size_t n_opts) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "INT NOT NULL", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "name", "STRING", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "age", "INT", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "dt", "STRING", NULL, &err), &err);
  if (partition) CHECK_OK(paimon_schema_set_partition_keys(s, &partition, 1, &err), &err);
  for (size_t i = 0; i < n_opts; i++) {
    char key[128];
    const char *eq = strchr(opts[i], '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - opts[i]), opts[i]);
    CHECK_OK(paimon_schema_set_option(s, key, eq + 1, &err), &err);
  }
  char ident[128];
  snprintf(ident, sizeof ident, "db.%s", name);
  CHECK_OK(paimon_catalog_create_table(tu_cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(tu_cat, ident, &t, &err), &err);
  return t;
}

/* A batch of the table's shape: ids[i], "n<id>", age = ages ? ages[i] : id * 10, dt = dts ?
 * dts[i] : "a". Columns named in `cols` only (NULL: all four). */
__attribute__((unused)) static void tu_batch(int n, const int *ids, const int *ages,
                                             const char *const *dts, const char *const *names,
                                             struct ArrowSchema *schema, struct ArrowArray *array) {
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse(TU_ROW, &row, &err), &err);
  CHECK_OK(cp_row_to_arrow_schema(row, schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, schema, &err), &err);
  for (int i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "n%d", ids[i]);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), ids[i], &err), &err);
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), names ? names[i] : name, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 2), ages ? ages[i] : ids[i] * 10, &err),
             &err);
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 3), dts ? dts[i] : "a", &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, array, &err), &err);
  cp_builder_free(b);
  cp_type_free(row);
}

/* Writes rows and returns the (uncommitted) messages. */
__attribute__((unused)) static paimon_commit_messages *
tu_write(paimon_table *t, int n, const int *ids, const int *ages, const char *const *dts) {
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  tu_batch(n, ids, ages, dts, NULL, &schema, &array);
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  return m;
}

/* Commits (and frees) `m`; returns the new snapshot id, or the negative error code (the message
 * in *errp when given). */
__attribute__((unused)) static int64_t tu_commit(paimon_table *t, paimon_commit_messages *m,
                                                 paimon_error *errp) {
  paimon_error local;
  paimon_error *err = errp ? errp : &local;
  paimon_commit *c = NULL;
  int rc = paimon_commit_new(&c, t, err);
  if (!rc) rc = paimon_commit_commit(c, m, err);
  int64_t id = rc ? rc : paimon_commit_last_snapshot_id(c);
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
  return id;
}

/* Appends rows ids[0..n) (ages id*10, dt "a" unless given) as one commit; returns its id. */
__attribute__((unused)) static int64_t tu_append(paimon_table *t, int n, const int *ids,
                                                 const int *ages, const char *const *dts) {
  paimon_error err;
  int64_t id = tu_commit(t, tu_write(t, n, ids, ages, dts), &err);
  CHECK(id > 0);
  if (id <= 0) fprintf(stderr, "commit: %s\n", err.message);
  return id;
}

typedef struct tu_rows {
  int n;
  int64_t id[TU_MAX], age[TU_MAX], row_id[TU_MAX], seq[TU_MAX];
  bool age_null[TU_MAX];
  char name[TU_MAX][32], dt[TU_MAX][32];
} tu_rows;

static int tu_cmp_row_id(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

/* Reads every row (optionally filtered, at a snapshot > 0) sorted by _ROW_ID. Returns 0 or the
 * error code. */
__attribute__((unused)) static int tu_read_at(paimon_table *t, const paimon_predicate *pred,
                                              int64_t snapshot, tu_rows *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  paimon_read_builder *rb = NULL;
  paimon_plan *p = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = paimon_read_builder_new(&rb, t, err);
  if (!rc) rc = paimon_read_builder_with_row_tracking(rb, err);
  if (!rc && pred) rc = paimon_read_builder_set_filter(rb, pred, err);
  if (!rc && snapshot > 0) rc = paimon_read_builder_set_snapshot(rb, snapshot, err);
  if (!rc) rc = paimon_read_builder_plan(rb, &p, err);
  if (!rc) rc = paimon_plan_read(rb, p, NULL, 0, &s, err);
  if (!rc) rc = cp_stream_get_schema(&s, &schema, err);
  /* (id, name, age, dt, _ROW_ID, _SEQUENCE_NUMBER); sorted below by row id via an index. */
  tu_rows raw;
  memset(&raw, 0, sizeof raw);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    rc = cp_array_view_init(&v, &schema, &batch, err);
    for (int64_t i = 0; !rc && i < v.length && raw.n < TU_MAX; i++, raw.n++) {
      raw.id[raw.n] = cp_view_get_int64(&v.children[0], i);
      const cp_array_view *nm = &v.children[1], *dt = &v.children[3];
      if (!cp_view_is_null(nm, i))
        snprintf(raw.name[raw.n], 32, "%.*s",
                 (int)(nm->offsets32[nm->offset + i + 1] - nm->offsets32[nm->offset + i]),
                 (const char *)nm->data + nm->offsets32[nm->offset + i]);
      if (!cp_view_is_null(dt, i))
        snprintf(raw.dt[raw.n], 32, "%.*s",
                 (int)(dt->offsets32[dt->offset + i + 1] - dt->offsets32[dt->offset + i]),
                 (const char *)dt->data + dt->offsets32[dt->offset + i]);
      raw.age_null[raw.n] = cp_view_is_null(&v.children[2], i);
      raw.age[raw.n] = raw.age_null[raw.n] ? 0 : cp_view_get_int64(&v.children[2], i);
      raw.row_id[raw.n] = cp_view_get_int64(&v.children[4], i);
      raw.seq[raw.n] = cp_view_get_int64(&v.children[5], i);
    }
    if (!rc) cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  if (s.release) s.release(&s);
  paimon_plan_free(p);
  paimon_read_builder_free(rb);
  /* Sort by row id: pairs (row_id, index). */
  int64_t keys[TU_MAX][2];
  for (int i = 0; i < raw.n; i++) keys[i][0] = raw.row_id[i], keys[i][1] = i;
  qsort(keys, (size_t)raw.n, sizeof keys[0], tu_cmp_row_id);
  out->n = raw.n;
  for (int i = 0; i < raw.n; i++) {
    int k = (int)keys[i][1];
    out->id[i] = raw.id[k];
    out->age[i] = raw.age[k];
    out->age_null[i] = raw.age_null[k];
    out->row_id[i] = raw.row_id[k];
    out->seq[i] = raw.seq[k];
    memcpy(out->name[i], raw.name[k], 32);
    memcpy(out->dt[i], raw.dt[k], 32);
  }
  return rc;
}

__attribute__((unused)) static void tu_read(paimon_table *t, tu_rows *out) {
  paimon_error err;
  CHECK_OK(tu_read_at(t, NULL, 0, out, &err), &err);
}

/* "id:row_id:seq,..." of the rows sorted by row id, for compact assertions. */
__attribute__((unused)) static const char *tu_render(const tu_rows *r, char *buf, size_t size) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < r->n && k < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%lld:%lld:%lld", i ? "," : "", (long long)r->id[i],
                          (long long)r->row_id[i], (long long)r->seq[i]);
  return buf;
}

__attribute__((unused)) static int64_t tu_latest(paimon_table *t) {
  paimon_error err;
  int64_t id = -1;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &id, &err), &err);
  return id;
}

/* Number of entries in <table>/<sub> (0 when missing). */
__attribute__((unused)) static int tu_count_files(paimon_table *t, const char *sub) {
  char *dir = cp_path_join(t->path, sub);
  cp_fs_list_result l = {0};
  int n = 0;
  if (dir && cp_fs_list(t->fs, dir, &l, NULL) == 0) n = (int)l.count;
  cp_fs_list_free(&l);
  free(dir);
  return n;
}

/* The checker must find nothing wrong. */
__attribute__((unused)) static void tu_check_clean(paimon_table *t) {
  paimon_error err;
  cp_check_report rep;
  memset(&rep, 0, sizeof rep);
  CHECK_OK(cp_table_check(t->catalog, t->database, t->name, NULL, &rep, &err), &err);
  CHECK_INT(rep.n_violations, 0);
  for (size_t i = 0; i < rep.n_violations; i++)
    fprintf(stderr, "  violation: %s\n", rep.violations[i]);
  cp_check_report_free(&rep);
}

#endif
