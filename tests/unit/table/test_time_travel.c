/* Tests for time-travel reads (include/cpaimon/read.h, paimon_read_builder_set_snapshot): a
 * snapshot is read with the schema it was written with (snapshot.schemaId, Java's
 * AbstractFileStoreTable.tryTimeTravel), across ADD / RENAME / DROP COLUMN and SET OPTION, with
 * projections, filters (and their statistics pruning), the hidden row-tracking columns, missing
 * snapshots, injected I/O faults, and the updaters' pinned reads (cp_read_builder_pin_snapshot),
 * which keep the table's schema. Interop with pypaimon is in tests/python/test_time_travel.py.
 *
 * Every string value written is "<column name at write time><id>", so a read shows which file
 * and which column a value came from; the expected dumps below follow from the writes alone. */
#include <stdlib.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "base/buf.h"
#include "base/fs.h"
#include "cpaimon/commit.h"
#include "cpaimon/predicate.h"
#include "cpaimon/read.h"
#include "cpaimon/write.h"
#include "table/scan.h"
#include "table/table.h"
#include "commit_test_util.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static paimon_catalog *cat;

static void name_text(const char *column, int64_t id, char *buf, size_t cap) {
  snprintf(buf, cap, "%s%lld", column, (long long)id);
}

/* Commits rows first..first+n-1 of `row_sql` (first column BIGINT id = i; each other, STRING,
 * "<its name><i>") as one snapshot. */
static void write_rows(const char *ident, const char *row_sql, int first, int n) {
  paimon_error err;
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  if (!t) return;
  commit_rows(t, row_sql, first, n, name_text);
  paimon_table_free(t);
}

static void alter(const char *ident, paimon_schema_change ch) {
  paimon_error err;
  CHECK_OK(paimon_catalog_alter_table(cat, ident, &ch, 1, false, &err), &err);
}

/* "name:format,..." of an Arrow struct schema. */
static void dump_schema(const struct ArrowSchema *s, cp_buf *out) {
  paimon_error err;
  for (int64_t i = 0; i < s->n_children; i++)
    CHECK_OK(cp_buf_appendf(out, &err, "%s%s:%s", i ? "," : "", s->children[i]->name,
                            s->children[i]->format),
             &err);
  CHECK_OK(cp_buf_nul_terminate(out, &err), &err);
}

/* Plans and reads everything through `rb`: the schema line ("id:l,name:u"), then one line per
 * row with its values separated by '|' (integers in decimal, NULL as "NULL"). */
static char *read_all(paimon_read_builder *rb) {
  paimon_error err;
  paimon_plan *p = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  if (!p) return NULL;
  CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  if (!schema.release) {
    paimon_plan_free(p);
    return NULL;
  }
  dump_schema(&schema, &out);
  for (;;) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    CHECK_OK(cp_stream_next(&s, &batch, &err), &err);
    if (!batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    for (int64_t r = 0; r < v.length; r++) {
      CHECK_OK(cp_buf_appendf(&out, &err, "\n"), &err);
      for (int64_t c = 0; c < schema.n_children; c++) {
        const cp_array_view *col = &v.children[c];
        const char *sep = c ? "|" : "";
        if (cp_view_is_null(col, r)) {
          CHECK_OK(cp_buf_appendf(&out, &err, "%sNULL", sep), &err);
        } else if (col->type.id == CP_ARROW_STRING) {
          int64_t len = 0;
          const uint8_t *d = cp_view_get_bytes(col, r, &len);
          CHECK_OK(cp_buf_appendf(&out, &err, "%s%.*s", sep, (int)len, (const char *)d), &err);
        } else {
          CHECK_OK(cp_buf_appendf(&out, &err, "%s%lld", sep, (long long)cp_view_get_int64(col, r)),
                   &err);
        }
      }
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  schema.release(&schema);
  s.release(&s);
  paimon_plan_free(p);
  return (char *)cp_buf_detach(&out);
}

/* Reads `ident` (at `snapshot` when > 0) with `cols` projected (all when n = 0). */
static char *read_table(const char *ident, int64_t snapshot, const char *const *cols, size_t n) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  if (!t) return NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  if (snapshot > 0) CHECK_OK(paimon_read_builder_set_snapshot(rb, snapshot, &err), &err);
  if (n) CHECK_OK(paimon_read_builder_set_projection(rb, cols, n, &err), &err);
  char *text = read_all(rb);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
  return text;
}

static void check_read(const char *ident, int64_t snapshot, const char *const *cols, size_t n,
                       const char *want) {
  char *got = read_table(ident, snapshot, cols, n);
  CHECK_STR(got, want);
  free(got);
}

/* Creates table `ident` (id BIGINT NOT NULL, name STRING) with `n` options, given as key, value
 * pairs in `opts`. */
static void create_id_name(const char *ident, const char *const *opts, size_t n) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "BIGINT NOT NULL", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "name", "STRING", NULL, &err), &err);
  for (size_t i = 0; i < n; i++)
    CHECK_OK(paimon_schema_set_option(s, opts[2 * i], opts[2 * i + 1], &err), &err);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
}

/* db.evo, a row-tracking + data-evolution table:
 *   snapshot 1, schema 0 (id, name):          ids 0, 1
 *   ALTER ADD COLUMN c       -> schema 1
 *   snapshot 2, schema 1 (id, name, c):       id 2
 *   ALTER RENAME name TO label -> schema 2
 *   snapshot 3, schema 2 (id, label, c):      id 3
 *   ALTER DROP COLUMN c      -> schema 3
 *   snapshot 4, schema 3 (id, label):         id 4
 *   ALTER SET 'owner' = 'x'  -> schema 4, no snapshot */
static void make_evo(void) {
  static const char *const opts[] = {"row-tracking.enabled", "true", "data-evolution.enabled",
                                     "true"};
  create_id_name("db.evo", opts, 2);
  write_rows("db.evo", "ROW<id BIGINT NOT NULL, name STRING>", 0, 2);
  alter("db.evo",
        (paimon_schema_change){PAIMON_ADD_COLUMN, "c", NULL, "STRING", NULL, NULL, NULL, 0});
  write_rows("db.evo", "ROW<id BIGINT NOT NULL, name STRING, c STRING>", 2, 1);
  alter("db.evo",
        (paimon_schema_change){PAIMON_RENAME_COLUMN, "name", "label", NULL, NULL, NULL, NULL, 0});
  write_rows("db.evo", "ROW<id BIGINT NOT NULL, label STRING, c STRING>", 3, 1);
  alter("db.evo", (paimon_schema_change){PAIMON_DROP_COLUMN, "c", NULL, NULL, NULL, NULL, NULL, 0});
  write_rows("db.evo", "ROW<id BIGINT NOT NULL, label STRING>", 4, 1);
  alter("db.evo",
        (paimon_schema_change){PAIMON_SET_OPTION, "owner", "x", NULL, NULL, NULL, NULL, 0});
}

static void test_each_snapshot_has_its_schema(void) {
  check_read("db.evo", 1, NULL, 0, "id:l,name:u\n0|name0\n1|name1");
  /* Rows written before ADD COLUMN read NULL in c. */
  check_read("db.evo", 2, NULL, 0, "id:l,name:u,c:u\n0|name0|NULL\n1|name1|NULL\n2|name2|c2");
  /* The renamed column keeps its data under the name it had at snapshot 3. */
  check_read("db.evo", 3, NULL, 0,
             "id:l,label:u,c:u\n0|name0|NULL\n1|name1|NULL\n2|name2|c2\n3|label3|c3");
  check_read("db.evo", 4, NULL, 0, "id:l,label:u\n0|name0\n1|name1\n2|name2\n3|label3\n4|label4");
  /* The latest read (no snapshot) is the table's current schema. */
  check_read("db.evo", 0, NULL, 0, "id:l,label:u\n0|name0\n1|name1\n2|name2\n3|label3\n4|label4");
  /* _ROW_ID = first row id + position; _SEQUENCE_NUMBER = the snapshot that wrote the row. */
  const char *hidden[] = {"_SEQUENCE_NUMBER", "c", "_ROW_ID", "id"};
  check_read("db.evo", 2, hidden, 4,
             "_SEQUENCE_NUMBER:l,c:u,_ROW_ID:l,id:l\n1|NULL|0|0\n1|NULL|1|1\n2|c2|2|2");
  /* A dropped column is back at the snapshots that had it. */
  const char *dropped[] = {"c"};
  check_read("db.evo", 3, dropped, 1, "c:u\nNULL\nNULL\nc2\nc3");
}

static void test_schema_ids_and_arrow_schema(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_INT(paimon_table_schema_id(t), 4);
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  int64_t id = -1;
  char *json = NULL;
  CHECK_OK(paimon_read_builder_read_schema(rb, &id, NULL, &err), &err);
  CHECK_INT(id, 4);
  /* Snapshot n was committed with schema n - 1 (see make_evo); snapshot 4 predates SET OPTION. */
  const int64_t want_schema[] = {0, 0, 1, 2, 3};
  for (int64_t snap = 1; snap <= 4; snap++) {
    CHECK_OK(paimon_read_builder_set_snapshot(rb, snap, &err), &err);
    CHECK_OK(paimon_read_builder_read_schema(rb, &id, &json, &err), &err);
    CHECK_INT(id, want_schema[snap]);
    char want[32]; /* the top-level "id" (fields' ids are indented deeper) */
    snprintf(want, sizeof want, "\n  \"id\" : %lld,", (long long)want_schema[snap]);
    CHECK_CONTAINS(json, want);
    free(json);
    json = NULL;
  }
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 2, &err), &err);
  CHECK_OK(paimon_read_builder_with_row_tracking(rb, &err), &err);
  struct ArrowSchema s;
  CHECK_OK(paimon_read_builder_schema(rb, &s, &err), &err);
  cp_buf b = CP_BUF_INIT;
  dump_schema(&s, &b);
  CHECK_STR((const char *)b.data, "id:l,name:u,c:u,_ROW_ID:l,_SEQUENCE_NUMBER:l");
  cp_buf_free(&b);
  s.release(&s);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_projection_names_the_snapshot(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 1, &err), &err);
  const char *later[] = {"id", "c"}, *renamed[] = {"label"}, *old[] = {"name"};
  CHECK_ERR(paimon_read_builder_set_projection(rb, later, 2, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column c is not in table db.evo at snapshot 1.");
  CHECK_ERR(paimon_read_builder_set_projection(rb, renamed, 1, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column label is not in table db.evo at snapshot 1.");
  CHECK_OK(paimon_read_builder_set_projection(rb, old, 1, &err), &err);
  char *got = read_all(rb);
  CHECK_STR(got, "name:u\nname0\nname1");
  free(got);
  /* Travelling to a snapshot whose schema lacks a projected column fails and changes nothing. */
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, 4, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column name is not in table db.evo at snapshot 4.");
  got = read_all(rb);
  CHECK_STR(got, "name:u\nname0\nname1");
  free(got);
  /* Set first, then a projection of the current names: that is the latest schema's error. */
  paimon_read_builder_free(rb);
  rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_ERR(paimon_read_builder_set_projection(rb, old, 1, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column name is not in table db.evo.");
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_filters_bind_to_the_snapshot(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  paimon_predicate *on_name = NULL, *on_label = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_OK(paimon_predicate_compare_text(&on_name, PAIMON_COMPARE_EQUAL, "name", "name1", &err),
           &err);
  CHECK_OK(paimon_predicate_compare_text(&on_label, PAIMON_COMPARE_EQUAL, "label", "label3", &err),
           &err);
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_ERR(paimon_read_builder_set_filter(rb, on_name, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "filter on table db.evo: ");
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 2, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, on_name, &err), &err);
  char *got = read_all(rb);
  CHECK_STR(got, "id:l,name:u,c:u\n1|name1|NULL");
  free(got);
  CHECK_ERR(paimon_read_builder_set_filter(rb, on_label, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "filter on table db.evo at snapshot 2: ");
  CHECK_CONTAINS(err.message, "label");
  /* The failed filter is dropped: every row of snapshot 2 again. */
  got = read_all(rb);
  CHECK_STR(got, "id:l,name:u,c:u\n0|name0|NULL\n1|name1|NULL\n2|name2|c2");
  free(got);
  /* A filter set before travelling must resolve in the snapshot's schema. */
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 3, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, on_label, &err), &err);
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "at snapshot 2");
  got = read_all(rb);
  CHECK_STR(got, "id:l,label:u,c:u\n3|label3|c3");
  free(got);
  paimon_predicate_free(on_name);
  paimon_predicate_free(on_label);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

/* Tables without data evolution skip files by their value statistics; those are matched to the
 * snapshot's columns by field id, so a filter on a renamed column still prunes. */
static void test_stats_pruning_with_old_names(void) {
  paimon_error err;
  static const char *const opts[] = {"metadata.stats-mode", "full"};
  create_id_name("db.plain", opts, 1);
  write_rows("db.plain", "ROW<id BIGINT NOT NULL, name STRING>", 0, 2);
  write_rows("db.plain", "ROW<id BIGINT NOT NULL, name STRING>", 2, 2);
  alter("db.plain",
        (paimon_schema_change){PAIMON_RENAME_COLUMN, "name", "label", NULL, NULL, NULL, NULL, 0});
  write_rows("db.plain", "ROW<id BIGINT NOT NULL, label STRING>", 4, 2);
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  paimon_predicate *p = NULL;
  paimon_plan *plan = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.plain", &t, &err), &err);
  if (!t) return;
  CHECK_OK(
      paimon_predicate_compare_text(&p, PAIMON_COMPARE_GREATER_OR_EQUAL, "name", "name2", &err),
      &err);
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 2, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, p, &err), &err);
  CHECK_OK(paimon_read_builder_plan(rb, &plan, &err), &err);
  /* Snapshot 2 has two files; the first holds name0..name1 only. */
  if (plan) CHECK_INT(paimon_plan_split_count(plan), 1);
  paimon_plan_free(plan);
  char *got = read_all(rb);
  CHECK_STR(got, "id:l,name:u\n2|name2\n3|name3");
  free(got);
  paimon_predicate_free(p);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_missing_snapshot_fails_at_plan(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, -3, &err), PAIMON_EINVAL);
  /* As Java's copy(): no error yet, the table's schema until the scan fails. */
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 99, &err), &err);
  int64_t id = -1;
  char *json = (char *)"unset";
  CHECK_ERR(paimon_read_builder_read_schema(rb, &id, &json, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "snapshot 99");
  CHECK_INT(id, 4);
  CHECK(json == NULL);
  const char *cur[] = {"label"};
  CHECK_OK(paimon_read_builder_set_projection(rb, cur, 1, &err), &err);
  paimon_plan *p = NULL;
  CHECK_ERR(paimon_read_builder_plan(rb, &p, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "table db.evo: ");
  CHECK_CONTAINS(err.message, "snapshot 99");
  CHECK(p == NULL);
  /* Travelling on to an existing snapshot recovers. */
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 4, &err), &err);
  char *got = read_all(rb);
  CHECK_STR(got, "label:u\nname0\nname1\nname2\nlabel3\nlabel4");
  free(got);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

/* I/O failures: loading the snapshot is deferred to the plan like a missing one (and the plan
 * never reads the files with another schema), loading its schema fails set_snapshot. */
static void test_io_faults(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  paimon_plan *p = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  cp_fs_inject_fault(t->fs, CP_FS_OP_OPEN_READ, 1, PAIMON_EIO);
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 2, &err), &err);
  int64_t id;
  CHECK_ERR(paimon_read_builder_read_schema(rb, &id, NULL, &err), PAIMON_EIO);
  CHECK_ERR(paimon_read_builder_plan(rb, &p, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "injected");
  /* The schema file of snapshot 2 (schema 1, not cached yet) fails to load: set_snapshot fails
   * and the builder stays as it was. */
  cp_fs_inject_fault(t->fs, CP_FS_OP_OPEN_READ, 2, PAIMON_EIO);
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, 2, &err), PAIMON_EIO);
  CHECK_ERR(paimon_read_builder_read_schema(rb, &id, NULL, &err), PAIMON_EIO);
  cp_fs_inject_fault(t->fs, CP_FS_OP_OPEN_READ, 0, 0);
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 2, &err), &err);
  CHECK_OK(paimon_read_builder_read_schema(rb, &id, NULL, &err), &err);
  CHECK_INT(id, 1);
  char *got = read_all(rb);
  CHECK_STR(got, "id:l,name:u,c:u\n0|name0|NULL\n1|name1|NULL\n2|name2|c2");
  free(got);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

/* The updaters read the files of their base snapshot in the schema they write. */
static void test_pin_keeps_table_schema(void) {
  paimon_error err;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  const char *cols[] = {"label", "_ROW_ID"};
  CHECK_OK(paimon_read_builder_set_projection(rb, cols, 2, &err), &err);
  CHECK_ERR(cp_read_builder_pin_snapshot(rb, 0, &err), PAIMON_EINVAL);
  CHECK_OK(cp_read_builder_pin_snapshot(rb, 1, &err), &err);
  int64_t id;
  CHECK_OK(paimon_read_builder_read_schema(rb, &id, NULL, &err), &err);
  CHECK_INT(id, 4);
  char *got = read_all(rb);
  CHECK_STR(got, "label:u,_ROW_ID:l\nname0|0\nname1|1");
  free(got);
  /* From a time travel back to a pin: the current names resolve again. */
  paimon_read_builder_free(rb);
  rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  const char *old[] = {"name"};
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 1, &err), &err);
  CHECK_OK(paimon_read_builder_set_projection(rb, old, 1, &err), &err);
  CHECK_ERR(cp_read_builder_pin_snapshot(rb, 1, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column name is not in table db.evo.");
  got = read_all(rb); /* still travelled */
  CHECK_STR(got, "name:u\nname0\nname1");
  free(got);
  CHECK_ERR(paimon_read_builder_set_projection(rb, cols, 2, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column label is not in table db.evo at snapshot 1.");
  CHECK_OK(cp_read_builder_pin_snapshot(rb, 1, &err), &err);
  CHECK_OK(paimon_read_builder_set_projection(rb, cols, 2, &err), &err);
  got = read_all(rb);
  CHECK_STR(got, "label:u,_ROW_ID:l\nname0|0\nname1|1");
  free(got);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

int main(void) {
  if (!(cat = temp_catalog("time-travel"))) return 1;
  make_evo();
  RUN(test_each_snapshot_has_its_schema);
  RUN(test_schema_ids_and_arrow_schema);
  RUN(test_projection_names_the_snapshot);
  RUN(test_filters_bind_to_the_snapshot);
  RUN(test_stats_pruning_with_old_names);
  RUN(test_missing_snapshot_fails_at_plan);
  RUN(test_io_faults);
  RUN(test_pin_keeps_table_schema);
  paimon_catalog_free(cat);
  TEST_MAIN_END();
}
