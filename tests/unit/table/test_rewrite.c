/* Tests for row changes on row-tracking tables without data evolution (include/cpaimon/rowops.h;
 * spec/data-evolution.md §1.5, §3.8.1): the seed 003 walkthrough (INSERT, UPDATE by a column and
 * by _ROW_ID, MERGE INTO, DELETE) with the seed's expected rows and hidden values, copy-on-write
 * and deletion-vector variants, the rewritten files' metadata (physical _ROW_ID, no first_row_id,
 * sequence ranges per Java's tracker), files with physical row ids changed again, conflicts, and
 * errors that leave the table unchanged. Every scenario ends with the table checker. */
#include "arrow/schema.h"
#include "cpaimon/predicate.h"
#include "cpaimon/rowops.h"
#include "dv_test_util.h"
#include "meta/snapshot.h"
#include "table/commit_message.h"
#include "table/file_store.h"
#include "table/store.h"
#include "types/special_fields.h"

/* ------------------------------------ the seed's table ------------------------------------ */

static paimon_table *seed_table(const char *name, bool dv) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "INT", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "data", "STRING", NULL, &err), &err);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  if (dv) CHECK_OK(paimon_schema_set_option(s, "deletion-vectors.enabled", "true", &err), &err);
  char ident[64];
  snprintf(ident, sizeof ident, "db.%s", name);
  CHECK_OK(paimon_catalog_create_table(tu_cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(tu_cat, ident, &t, &err), &err);
  return t;
}

/* A batch of (id, data) or (_ROW_ID, data) rows. */
static void id_data_batch(const char *id_name, int n, const int64_t *ids, const char *const *data,
                          struct ArrowSchema *schema, struct ArrowArray *array) {
  paimon_error err;
  CHECK_OK(cp_schema_init(schema, "+s", "", 0, 2, &err), &err);
  CHECK_OK(cp_schema_init(schema->children[0], strcmp(id_name, "id") == 0 ? "i" : "l", id_name,
                          ARROW_FLAG_NULLABLE, 0, &err),
           &err);
  CHECK_OK(cp_schema_init(schema->children[1], "u", "data", ARROW_FLAG_NULLABLE, 0, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, schema, &err), &err);
  for (int i = 0; i < n; i++) {
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), ids[i], &err), &err);
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 1), data[i], &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, array, &err), &err);
  cp_builder_free(b);
}

/* "id:data:_ROW_ID:_SEQUENCE_NUMBER" of every row, sorted by _ROW_ID. */
static const char *seed_rows(paimon_table *t, char *buf, size_t size) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  paimon_plan *p = NULL;
  struct ArrowArrayStream s;
  struct ArrowSchema schema;
  char rows[32][96];
  int64_t keys[32];
  int n = 0;
  buf[0] = 0;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_OK(paimon_read_builder_with_row_tracking(rb, &err), &err);
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  if (!p) return buf;
  CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray batch;
    CHECK_OK(cp_stream_next(&s, &batch, &err), &err);
    if (!batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    for (int64_t i = 0; i < v.length && n < 32; i++, n++) {
      const cp_array_view *d = &v.children[1];
      keys[n] = cp_view_get_int64(&v.children[2], i);
      snprintf(rows[n], sizeof rows[n], "%lld:%.*s:%lld:%lld",
               (long long)cp_view_get_int64(&v.children[0], i),
               (int)(d->offsets32[d->offset + i + 1] - d->offsets32[d->offset + i]),
               (const char *)d->data + d->offsets32[d->offset + i], (long long)keys[n],
               (long long)cp_view_get_int64(&v.children[3], i));
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  schema.release(&schema);
  s.release(&s);
  paimon_plan_free(p);
  paimon_read_builder_free(rb);
  size_t k = 0;
  for (int done = 0; done < n; done++) { /* selection sort by row id */
    int best = -1;
    for (int i = 0; i < n; i++)
      if (keys[i] >= 0 && (best < 0 || keys[i] < keys[best])) best = i;
    k += (size_t)snprintf(buf + k, size - k, "%s%s", done ? "," : "", rows[best]);
    keys[best] = -1;
  }
  return buf;
}

static int64_t prepare_and_commit(paimon_table *t, paimon_row_changes *rc, paimon_error *err) {
  paimon_commit_messages *m = NULL;
  int r = paimon_row_changes_prepare_commit(rc, &m, err);
  paimon_row_changes_free(rc);
  if (r) return r;
  return tu_commit(t, m, err);
}

static paimon_predicate *eq_text(const char *col, const char *text) {
  paimon_error err;
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, col, text, &err), &err);
  return p;
}

/* UPDATE t SET data = '<value>' WHERE <col> = <text>. */
static int64_t update_where(paimon_table *t, const char *col, const char *text, const char *value) {
  paimon_error err;
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  if (!rc) return -1;
  struct ArrowSchema schema;
  struct ArrowArray values;
  CHECK_OK(cp_schema_init(&schema, "+s", "", 0, 1, &err), &err);
  CHECK_OK(cp_schema_init(schema.children[0], "u", "data", ARROW_FLAG_NULLABLE, 0, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &schema, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(b, 0), value, &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &values, &err), &err);
  cp_builder_free(b);
  paimon_predicate *p = eq_text(col, text);
  int64_t matched = -1;
  CHECK_OK(paimon_row_changes_update_where(rc, p, &schema, &values, &matched, &err), &err);
  CHECK_INT(matched, 1);
  paimon_predicate_free(p);
  values.release(&values);
  schema.release(&schema);
  int64_t id = prepare_and_commit(t, rc, &err);
  if (id <= 0) fprintf(stderr, "update: %s\n", err.message);
  return id;
}

/* MERGE INTO t USING s(22 'new-data-merge', 33 'c') ON t.id = s.id WHEN MATCHED THEN UPDATE SET
 * t.data = s.data WHEN NOT MATCHED THEN INSERT *: the join is the caller's (the SQL layer);
 * here id 22 is row 1. */
static int64_t seed_merge(paimon_table *t) {
  paimon_error err;
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  if (!rc) return -1;
  struct ArrowSchema us, is;
  struct ArrowArray ua, ia;
  int64_t row_ids[] = {1}, new_ids[] = {33};
  const char *upd[] = {"new-data-merge"}, *ins[] = {"c"};
  id_data_batch(CP_ROW_ID_FIELD_NAME, 1, row_ids, upd, &us, &ua);
  id_data_batch("id", 1, new_ids, ins, &is, &ia);
  CHECK_OK(paimon_row_changes_update(rc, &us, &ua, &err), &err);
  CHECK_OK(paimon_row_changes_insert(rc, &is, &ia, &err), &err);
  us.release(&us);
  ua.release(&ua);
  is.release(&is);
  ia.release(&ia);
  int64_t id = prepare_and_commit(t, rc, &err);
  if (id <= 0) fprintf(stderr, "merge: %s\n", err.message);
  return id;
}

static int64_t delete_where(paimon_table *t, const char *col, const char *text) {
  paimon_error err;
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  if (!rc) return -1;
  paimon_predicate *p = eq_text(col, text);
  int64_t matched = -1;
  CHECK_OK(paimon_row_changes_delete_where(rc, p, &matched, &err), &err);
  CHECK_INT(matched, 1);
  paimon_predicate_free(p);
  int64_t id = prepare_and_commit(t, rc, &err);
  if (id <= 0) fprintf(stderr, "delete: %s\n", err.message);
  return id;
}

static void seed_insert(paimon_table *t) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray a;
  int64_t ids[] = {11, 22};
  const char *data[] = {"a", "b"};
  id_data_batch("id", 2, ids, data, &s, &a);
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &s, &a, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  CHECK_INT(tu_commit(t, m, &err), 1);
  paimon_write_free(w);
  s.release(&s);
  a.release(&a);
}

static cp_snapshot *snapshot(paimon_table *t, int64_t id) {
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, id, &s, &err), &err);
  return s;
}

/* The seed (003): expected tables from the document, compared row by row with hidden values. */
static void run_seed(const char *name, bool dv, bool by_row_id) {
  paimon_table *t = seed_table(name, dv);
  if (!t) return;
  char buf[512];
  seed_insert(t);
  CHECK_STR(seed_rows(t, buf, sizeof buf), "11:a:0:1,22:b:1:1");
  if (by_row_id)
    CHECK_INT(update_where(t, CP_ROW_ID_FIELD_NAME, "0", "new-data-update"), 2);
  else
    CHECK_INT(update_where(t, "id", "11", "new-data-update"), 2);
  CHECK_STR(seed_rows(t, buf, sizeof buf), "11:new-data-update:0:2,22:b:1:1");
  CHECK_INT(seed_merge(t), 3);
  CHECK_STR(seed_rows(t, buf, sizeof buf), "11:new-data-update:0:2,22:new-data-merge:1:3,33:c:2:3");
  if (by_row_id)
    CHECK_INT(delete_where(t, CP_ROW_ID_FIELD_NAME, "0"), 4);
  else
    CHECK_INT(delete_where(t, "id", "11"), 4);
  CHECK_STR(seed_rows(t, buf, sizeof buf), "22:new-data-merge:1:3,33:c:2:3");
  /* Commit kinds (§4.1) and nextRowId: the merge's insert got row id 2, rewrites none. */
  cp_commit_kind kinds[] = {CP_COMMIT_APPEND, CP_COMMIT_OVERWRITE, CP_COMMIT_OVERWRITE,
                            CP_COMMIT_OVERWRITE};
  int64_t next[] = {2, 2, 3, 3};
  for (int i = 0; i < 4; i++) {
    cp_snapshot *s = snapshot(t, i + 1);
    if (s) CHECK_INT(s->commit_kind, kinds[i]);
    if (s) CHECK_INT(s->next_row_id, next[i]);
    cp_snapshot_free(s);
  }
  tu_check_clean(t);
  paimon_table_free(t);
}

static void test_seed003_copy_on_write(void) { run_seed("seed_cow", false, false); }
static void test_seed003_copy_on_write_by_row_id(void) { run_seed("seed_cow_rid", false, true); }
static void test_seed003_deletion_vectors(void) { run_seed("seed_dv", true, false); }
static void test_seed003_deletion_vectors_by_row_id(void) { run_seed("seed_dv_rid", true, true); }

/* The files a copy-on-write update leaves: the old one deleted, one new file with every row,
 * physical _ROW_ID, no first_row_id, write_cols with both hidden columns, and Java's sequence
 * range (unchanged rows copied, the changed one NULL: min 1, max 0 → stamped [1, 2]). */
static void test_copy_on_write_file_metadata(void) {
  paimon_table *t = seed_table("cow_meta", false);
  if (!t) return;
  seed_insert(t);
  update_where(t, "id", "22", "x");
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  paimon_error err;
  cp_snapshot *s = snapshot(t, 2);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &files, &err), &err);
  CHECK_INT(files.n, 1);
  if (files.n == 1) {
    const cp_data_file_meta *f = &files.items[0].file;
    CHECK(!f->has_first_row_id);
    CHECK(f->has_write_cols && f->write_cols.n == 4);
    CHECK(cp_data_file_writes_col(f, CP_ROW_ID_FIELD_NAME));
    CHECK(cp_data_file_writes_col(f, CP_SEQUENCE_NUMBER_FIELD_NAME));
    CHECK_INT(f->row_count, 2);
    CHECK_INT(f->min_sequence_number, 1);
    CHECK_INT(f->max_sequence_number, 2);
    CHECK(f->has_file_source && f->file_source == CP_FILE_SOURCE_APPEND);
  }
  if (s) CHECK_INT(s->delta_record_count, 0);
  cp_snapshot_free(s);
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  /* Updating every row of the rewritten file (physical ids): all sequence values NULL → the
   * file is stamped [3, 3], like Spark's "update table without condition". */
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  struct ArrowSchema us;
  struct ArrowArray ua;
  int64_t ids[] = {0, 1};
  const char *v[] = {"p", "q"};
  id_data_batch(CP_ROW_ID_FIELD_NAME, 2, ids, v, &us, &ua);
  CHECK_OK(paimon_row_changes_update(rc, &us, &ua, &err), &err);
  us.release(&us);
  ua.release(&ua);
  CHECK_INT(prepare_and_commit(t, rc, &err), 3);
  char buf[256];
  CHECK_STR(seed_rows(t, buf, sizeof buf), "11:p:0:3,22:q:1:3");
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Copy-on-write touches only files holding changed rows; deleting every row of a file deletes
 * it without a replacement. */
static void test_copy_on_write_untouched_files(void) {
  const char *rt[] = {"row-tracking.enabled=true"};
  paimon_table *t = tu_table("cow_files", "dt", rt, 1);
  if (!t) return;
  int ids[] = {1, 2, 3, 4};
  const char *dts[] = {"a", "a", "b", "b"};
  tu_append(t, 4, ids, NULL, dts);
  int ids2[] = {5};
  tu_append(t, 1, ids2, NULL, NULL); /* another file in partition a: row id 4 */
  paimon_error err;
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  int64_t del[] = {2, 3, 3}; /* both rows of partition b's file, one twice */
  CHECK_OK(paimon_row_changes_delete(rc, del, 3, &err), &err);
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_row_changes_prepare_commit(rc, &m, &err), &err);
  paimon_row_changes_free(rc);
  if (m) {
    CHECK_INT(m->n, 1);
    CHECK_INT(m->items[0].n_new, 0);
    CHECK_INT(m->items[0].n_deleted, 1);
  }
  CHECK_INT(tu_commit(t, m, &err), 3);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "1:0:1,2:1:1,5:4:2");
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Two statements planned on the same snapshot rewrite the same file: the second loses. */
static void test_concurrent_rewrite_conflict(void) {
  paimon_table *t = seed_table("cow_conflict", false);
  if (!t) return;
  seed_insert(t);
  paimon_error err;
  paimon_row_changes *a = NULL, *b = NULL;
  CHECK_OK(paimon_row_changes_new(&a, t, 0, &err), &err);
  CHECK_OK(paimon_row_changes_new(&b, t, 0, &err), &err);
  int64_t id0[] = {0}, id1[] = {1};
  CHECK_OK(paimon_row_changes_delete(a, id0, 1, &err), &err);
  CHECK_OK(paimon_row_changes_delete(b, id1, 1, &err), &err);
  paimon_commit_messages *ma = NULL, *mb = NULL;
  CHECK_OK(paimon_row_changes_prepare_commit(a, &ma, &err), &err);
  CHECK_OK(paimon_row_changes_prepare_commit(b, &mb, &err), &err);
  paimon_row_changes_free(a);
  paimon_row_changes_free(b);
  CHECK_INT(tu_commit(t, ma, &err), 2);
  CHECK_INT(tu_commit(t, mb, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "File deletion conflicts detected!");
  char buf[256];
  CHECK_STR(seed_rows(t, buf, sizeof buf), "22:b:1:1");
  CHECK_INT(tu_latest(t), 2);
  tu_check_clean(t);
  paimon_table_free(t);
}

/* In DV mode two deletes of one bucket conflict on the DV index (§4.6). */
static void test_concurrent_dv_conflict(void) {
  paimon_table *t = seed_table("dv_conflict", true);
  if (!t) return;
  seed_insert(t);
  paimon_error err;
  paimon_row_changes *a = NULL, *b = NULL;
  CHECK_OK(paimon_row_changes_new(&a, t, 0, &err), &err);
  CHECK_OK(paimon_row_changes_new(&b, t, 0, &err), &err);
  int64_t id0[] = {0}, id1[] = {1};
  CHECK_OK(paimon_row_changes_delete(a, id0, 1, &err), &err);
  CHECK_OK(paimon_row_changes_delete(b, id1, 1, &err), &err);
  CHECK_INT(prepare_and_commit(t, a, &err), 2);
  CHECK_INT(prepare_and_commit(t, b, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "Deletion vector index conflict detected: data file");
  char buf[256];
  CHECK_STR(seed_rows(t, buf, sizeof buf), "22:b:1:1");
  tu_check_clean(t);
  paimon_table_free(t);
}

static void test_errors_leave_table_unchanged(void) {
  paimon_table *t = seed_table("cow_err", false);
  const char *de[] = {"row-tracking.enabled=true", "data-evolution.enabled=true"};
  paimon_table *det = tu_table("cow_err_de", NULL, de, 2);
  paimon_table *plain = tu_table("cow_err_plain", "dt", NULL, 0);
  const char *rt[] = {"row-tracking.enabled=true"};
  paimon_table *part = tu_table("cow_err_part", "dt", rt, 1);
  if (!t || !det || !plain || !part) return;
  seed_insert(t);
  paimon_error err;
  paimon_row_changes *rc = NULL;
  /* No row tracking: no _ROW_ID. */
  CHECK_ERR(paimon_row_changes_new(&rc, plain, 0, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "row-tracking.enabled");
  /* Updates of data-evolution tables go through the partial-column API. */
  CHECK_OK(paimon_row_changes_new(&rc, det, 0, &err), &err);
  struct ArrowSchema us;
  struct ArrowArray ua;
  int64_t ids[] = {0, 0};
  const char *v[] = {"x", "y"};
  id_data_batch(CP_ROW_ID_FIELD_NAME, 1, ids, v, &us, &ua);
  CHECK_ERR(paimon_row_changes_update(rc, &us, &ua, &err), PAIMON_EUNSUPPORTED);
  paimon_row_changes_free(rc);
  /* A row id that is not in the table: nothing committed, no file left behind. */
  int before_files = tu_count_files(t, "bucket-0");
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  int64_t missing[] = {7};
  CHECK_OK(paimon_row_changes_delete(rc, missing, 1, &err), &err);
  CHECK_OK(paimon_row_changes_update(rc, &us, &ua, &err), &err);
  paimon_commit_messages *m = NULL;
  CHECK_ERR(paimon_row_changes_prepare_commit(rc, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "_ROW_ID 7 is not a row of table db.cow_err at snapshot 1");
  CHECK(m == NULL);
  /* Prepared (even failed) changes take no more input. */
  CHECK_ERR(paimon_row_changes_delete(rc, missing, 1, &err), PAIMON_ESTATE);
  paimon_row_changes_free(rc);
  CHECK_INT(tu_count_files(t, "bucket-0"), before_files);
  us.release(&us);
  ua.release(&ua);
  /* The same row updated twice in one statement. */
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  id_data_batch(CP_ROW_ID_FIELD_NAME, 2, ids, v, &us, &ua);
  CHECK_OK(paimon_row_changes_update(rc, &us, &ua, &err), &err);
  CHECK_ERR(paimon_row_changes_prepare_commit(rc, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "_ROW_ID 0 is changed more than once");
  paimon_row_changes_free(rc);
  us.release(&us);
  ua.release(&ua);
  /* Missing _ROW_ID, unknown column, NULL row id. */
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  id_data_batch("id", 1, ids, v, &us, &ua);
  CHECK_ERR(paimon_row_changes_update(rc, &us, &ua, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Input data must contain _ROW_ID column");
  us.release(&us);
  ua.release(&ua);
  id_data_batch(CP_ROW_ID_FIELD_NAME, 1, ids, v, &us, &ua);
  CHECK_OK(cp_schema_set_name(us.children[1], "nope", &err), &err);
  CHECK_ERR(paimon_row_changes_update(rc, &us, &ua, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Column nope is not in table schema.");
  us.release(&us);
  ua.release(&ua);
  paimon_row_changes_free(rc);
  /* Partition columns are accepted: the rows move, keeping _ROW_ID (where they go:
   * tests/python/test_sql_spark_semantics.py). */
  int pids[] = {1};
  tu_append(part, 1, pids, NULL, NULL);
  CHECK_OK(paimon_row_changes_new(&rc, part, 0, &err), &err);
  struct ArrowSchema ps;
  struct ArrowArray pa;
  const char *dt[] = {"zz"};
  id_data_batch(CP_ROW_ID_FIELD_NAME, 1, ids, dt, &ps, &pa);
  CHECK_OK(cp_schema_set_name(ps.children[1], "dt", &err), &err);
  CHECK_OK(paimon_row_changes_update(rc, &ps, &pa, &err), &err);
  ps.release(&ps);
  pa.release(&pa);
  paimon_row_changes_free(rc);
  /* NULL into a NOT NULL column fails at prepare with the writer's message. */
  CHECK_OK(paimon_row_changes_new(&rc, part, 0, &err), &err);
  CHECK_OK(cp_schema_init(&ps, "+s", "", 0, 2, &err), &err);
  CHECK_OK(cp_schema_init(ps.children[0], "l", CP_ROW_ID_FIELD_NAME, 0, 0, &err), &err);
  CHECK_OK(cp_schema_init(ps.children[1], "i", "id", ARROW_FLAG_NULLABLE, 0, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &ps, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 0, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(b, 1), &err), &err);
  CHECK_OK(cp_builder_end_element(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &pa, &err), &err);
  cp_builder_free(b);
  CHECK_OK(paimon_row_changes_update(rc, &ps, &pa, &err), &err);
  CHECK_ERR(paimon_row_changes_prepare_commit(rc, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Cannot write null to non-null column(id)");
  ps.release(&ps);
  pa.release(&pa);
  paimon_row_changes_free(rc);
  CHECK_INT(tu_latest(t), 1);
  CHECK_INT(tu_latest(part), 1);
  char buf[256];
  CHECK_STR(seed_rows(t, buf, sizeof buf), "11:a:0:1,22:b:1:1");
  tu_check_clean(t);
  tu_check_clean(part);
  paimon_table_free(t);
  paimon_table_free(det);
  paimon_table_free(plain);
  paimon_table_free(part);
}

/* Data-evolution tables: row deletes through this API become anchor DVs. */
static void test_data_evolution_deletes(void) {
  const char *de_dv[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                         "deletion-vectors.enabled=true"};
  paimon_table *t = tu_table("rw_de", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3};
  tu_append(t, 3, ids, NULL, NULL);
  paimon_error err;
  paimon_row_changes *rc = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  int64_t del[] = {1};
  CHECK_OK(paimon_row_changes_delete(rc, del, 1, &err), &err);
  CHECK_INT(prepare_and_commit(t, rc, &err), 2);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "1:0:1,3:2:1");
  tu_check_clean(t);
  paimon_table_free(t);
}

int main(void) {
  if (tu_open("rewrite")) return 1;
  RUN(test_seed003_copy_on_write);
  RUN(test_seed003_copy_on_write_by_row_id);
  RUN(test_seed003_deletion_vectors);
  RUN(test_seed003_deletion_vectors_by_row_id);
  RUN(test_copy_on_write_file_metadata);
  RUN(test_copy_on_write_untouched_files);
  RUN(test_concurrent_rewrite_conflict);
  RUN(test_concurrent_dv_conflict);
  RUN(test_errors_leave_table_unchanged);
  RUN(test_data_evolution_deletes);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
