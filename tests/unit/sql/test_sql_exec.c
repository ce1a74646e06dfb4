/* Unit tests for the SQL executor (src/sql/session.h and the internals in src/sql/exec.h,
 * src/sql/dml.h) on a scratch warehouse: statement results cell by cell, joins on synthetic
 * relations (NULL keys, residual conditions, outer rows), store assignment and its overflow
 * errors, exact decimal aggregates, and the DML interface (inserts commit; updates and deletes
 * report EUNSUPPORTED and change nothing). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/print.h"
#include "arrow/schema.h"
#include "sql/dml.h"
#include "sql/exec.h"
#include "sql/parser.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static char warehouse[512];

static void make_warehouse(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(warehouse, sizeof warehouse, "%s/sql_exec_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  CHECK(mkdtemp(warehouse) != NULL);
}

/* Runs every statement of `sql`; the last result is kept in *out (if not NULL). Returns the
 * first failure's code. */
static int run(cp_sql_session *s, const char *sql, cp_sql_result *out, paimon_error *err) {
  cp_sql_stmt **stmts = NULL;
  size_t n = 0;
  if (out) memset(out, 0, sizeof *out);
  int rc = cp_sql_parse(sql, strlen(sql), &stmts, &n, err);
  for (size_t i = 0; !rc && i < n; i++) {
    cp_sql_result r;
    rc = cp_sql_execute(s, stmts[i], &r, err);
    if (out && !rc) {
      cp_sql_result_release(out);
      *out = r;
    } else {
      cp_sql_result_release(&r);
    }
  }
  cp_sql_stmts_free(stmts, n);
  return rc;
}

/* The Spark cell text of row r, column c of a result (malloc'd into a static slot). */
static const char *cell(cp_sql_result *r, int64_t row, int64_t col) {
  static char text[256];
  cp_array_view v;
  memset(&v, 0, sizeof v);
  paimon_error err;
  text[0] = '\0';
  if (cp_array_view_init(&v, &r->schema, &r->batch, &err) != 0) return "(bad result)";
  cp_buf b = CP_BUF_INIT;
  if (col < v.n_children && row < v.length && cp_print_value(&b, &v.children[col], row, &err) == 0)
    snprintf(text, sizeof text, "%.*s", (int)b.len, b.data ? (const char *)b.data : "");
  cp_buf_free(&b);
  cp_array_view_reset(&v);
  return text;
}

static void test_statements(void) {
  cp_sql_session *s = NULL;
  paimon_error err;
  CHECK_OK(cp_sql_session_open(&s, warehouse, &err), &err);
  CHECK_STR(cp_sql_session_database(s), "default");
  cp_sql_result r;
  CHECK_OK(run(s,
               "CREATE TABLE t (id INT NOT NULL, v STRING, d DECIMAL(3, 2)) "
               "TBLPROPERTIES ('row-tracking.enabled' = 'true');"
               "INSERT INTO t VALUES (1, 'x', 1.00), (2, NULL, 2.00), (3, 'z', 2.00);"
               "SELECT count(*), count(v), avg(d), sum(d), max(v), min(_ROW_ID) FROM t",
               &r, &err),
           &err);
  CHECK(r.has_rows && !r.ordered);
  CHECK_INT(r.batch.length, 1);
  CHECK_STR(cell(&r, 0, 0), "3");
  CHECK_STR(cell(&r, 0, 1), "2");
  /* AVG of DECIMAL(3, 2) is DECIMAL(7, 6), rounded HALF_UP: 5 / 3 = 1.6666666... */
  CHECK_STR(cell(&r, 0, 2), "1.666667");
  CHECK_STR(cell(&r, 0, 3), "5.00");
  CHECK_STR(cell(&r, 0, 4), "z");
  CHECK_STR(cell(&r, 0, 5), "0");
  CHECK_STR(r.schema.children[2]->format, "d:7,6");
  CHECK_STR(r.schema.children[3]->format, "d:13,2");
  cp_sql_result_release(&r);

  CHECK_OK(run(s, "SELECT id, v FROM t ORDER BY v DESC NULLS FIRST, id", &r, &err), &err);
  CHECK(r.ordered);
  CHECK_STR(cell(&r, 0, 0), "2");
  CHECK_STR(cell(&r, 1, 0), "3");
  CHECK_STR(cell(&r, 2, 0), "1");
  CHECK_STR(r.schema.children[1]->name, "v");
  cp_sql_result_release(&r);

  /* Exact decimal sums: DECIMAL(38, 0) sums overflow to NULL, as Spark's non-ANSI Sum. */
  CHECK_OK(run(s,
               "CREATE TABLE big (x DECIMAL(38, 0));"
               "INSERT INTO big VALUES (99999999999999999999999999999999999999),"
               " (99999999999999999999999999999999999999);"
               "SELECT sum(x), max(x) FROM big",
               &r, &err),
           &err);
  CHECK_STR(cell(&r, 0, 0), "NULL");
  CHECK_STR(cell(&r, 0, 1), "99999999999999999999999999999999999999");
  cp_sql_result_release(&r);

  /* A failed statement names its line:column and leaves the table as it was. */
  CHECK_ERR(run(s, "SELECT 1;\n  INSERT INTO t VALUES (4, 'a', 1), (NULL, 'b', 1)", NULL, &err),
            PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "line 2:3:");
  CHECK_CONTAINS(err.message, "Cannot write null to non-null column(id)");
  CHECK_OK(run(s, "SELECT count(*) FROM t", &r, &err), &err);
  CHECK_STR(cell(&r, 0, 0), "3");
  cp_sql_result_release(&r);

  CHECK_OK(run(s, "CREATE DATABASE d2; USE d2; CREATE TABLE u (a INT); SHOW TABLES", &r, &err),
           &err);
  CHECK_STR(cp_sql_session_database(s), "d2");
  CHECK_STR(cell(&r, 0, 0), "d2");
  CHECK_STR(cell(&r, 0, 1), "u");
  CHECK_STR(cell(&r, 0, 2), "false");
  cp_sql_result_release(&r);
  cp_sql_session_free(s);
}

/* ---- joins on synthetic relations ----------------------------------------------------------- */

/* A one-column INT relation with `n` values (INT32_MIN stands for NULL), qualified by `q`. */
static void int_rel(const char *q, const int32_t *vals, int64_t n, cp_rel *out) {
  paimon_error err;
  cp_type *t = NULL;
  CHECK_OK(cp_type_parse("INT", &t, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHECK_OK(cp_type_to_arrow(t, "k", &s, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  for (int64_t i = 0; i < n; i++) {
    if (vals[i] == INT32_MIN)
      CHECK_OK(cp_builder_append_null(b, &err), &err);
    else
      CHECK_OK(cp_builder_append_int64(b, vals[i], &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  cp_rel_builder rb = CP_REL_BUILDER_INIT;
  CHECK_OK(cp_rel_builder_add(&rb, "k", q, t, false, &s, &a, &err), &err);
  CHECK_OK(cp_rel_builder_finish(&rb, n, out, &err), &err);
  cp_type_free(t);
}

static void check_pairs(const cp_rel *l, const cp_rel *r, const char *on, bool keep_left,
                        bool keep_right, const char *want) {
  paimon_error err;
  cp_rel_col cols[2] = {l->cols[0], r->cols[0]};
  cp_sql_scope scope;
  CHECK_OK(cp_sql_scope_init(&scope, cols, 2, "ON", &err), &err);
  cp_sql_stmt *owner = NULL;
  cp_sql_expr *e = NULL;
  cp_expr *bound = NULL;
  if (on) {
    CHECK_OK(cp_sql_parse_expr(on, strlen(on), &owner, &e, &err), &err);
    CHECK_OK(cp_sql_bind_predicate(&scope, e, &bound, &err), &err);
  }
  cp_sql_pairs p;
  CHECK_OK(cp_sql_join_pairs(l, r, bound, keep_left, keep_right, &p, &err), &err);
  char got[256] = "";
  size_t len = 0;
  for (int64_t i = 0; i < p.n && len < sizeof got - 16; i++)
    len += (size_t)snprintf(got + len, sizeof got - len, "%s%lld:%lld", i ? " " : "",
                            (long long)p.left[i], (long long)p.right[i]);
  CHECK_STR(got, want);
  cp_sql_pairs_free(&p);
  cp_expr_free(bound);
  cp_sql_stmt_free(owner);
  cp_sql_scope_free(&scope);
}

static void test_join_pairs(void) {
  const int32_t lv[] = {1, 2, INT32_MIN, 2}, rv[] = {2, INT32_MIN, 3, 2};
  cp_rel l, r;
  int_rel("l", lv, 4, &l);
  int_rel("r", rv, 4, &r);
  check_pairs(&l, &r, "l.k = r.k", false, false, "1:0 1:3 3:0 3:3");
  check_pairs(&l, &r, "l.k = r.k", true, false, "0:-1 1:0 1:3 2:-1 3:0 3:3");
  check_pairs(&l, &r, "l.k = r.k", false, true, "1:0 1:3 3:0 3:3 -1:1 -1:2");
  check_pairs(&l, &r, "l.k = r.k", true, true, "0:-1 1:0 1:3 2:-1 3:0 3:3 -1:1 -1:2");
  /* <=> has no NULL rule to hash on: evaluated per pair, NULL matches NULL. */
  check_pairs(&l, &r, "l.k <=> r.k", false, false, "1:0 1:3 2:1 3:0 3:3");
  check_pairs(&l, &r, "r.k = l.k AND l.k + r.k > 3", false, false, "1:0 1:3 3:0 3:3");
  check_pairs(&l, &r, "l.k = r.k AND r.k > 2", true, false, "0:-1 1:-1 2:-1 3:-1");
  check_pairs(&l, &r, "l.k < r.k", false, false, "0:0 0:2 0:3 1:2 3:2");
  check_pairs(&l, &r, NULL, false, false,
              "0:0 0:1 0:2 0:3 1:0 1:1 1:2 1:3 2:0 2:1 2:2 2:3 3:0 3:1 3:2 3:3");
  /* The joined relation: right columns NULL on outer rows, and marked nullable. */
  cp_sql_pairs p = {NULL, NULL, 0};
  int64_t li[] = {0, -1}, ri[] = {-1, 2};
  p.left = li;
  p.right = ri;
  p.n = 2;
  cp_rel j;
  paimon_error err;
  CHECK_OK(cp_sql_pairs_rel(&l, &r, &p, &j, &err), &err);
  CHECK_INT(j.n_cols, 2);
  CHECK_INT(cp_rel_rows(&j), 2);
  CHECK(j.cols[0].type->nullable && j.cols[1].type->nullable);
  cp_array_view v;
  CHECK_OK(cp_rel_view(&j, &v, &err), &err);
  CHECK(!cp_view_is_null(&v.children[0], 0) && cp_view_is_null(&v.children[1], 0));
  CHECK(cp_view_is_null(&v.children[0], 1) && cp_view_get_int64(&v.children[1], 1) == 3);
  cp_array_view_reset(&v);
  cp_rel_free(&j);
  cp_rel_free(&l);
  cp_rel_free(&r);
}

/* ---- store assignment ----------------------------------------------------------------------- */

static cp_type *type(const char *text) {
  cp_type *t = NULL;
  paimon_error err;
  CHECK_OK(cp_type_parse(text, &t, &err), &err);
  return t;
}

static void check_assign(const char *from, const char *to, bool ok) {
  cp_type *f = type(from), *t = type(to);
  cp_sql_pos pos = {2, 5};
  paimon_error err;
  int rc = cp_sql_assign_check(f, t, "db.t", "c", pos, &err);
  CHECK_INT(rc, ok ? 0 : PAIMON_EINVAL);
  if (!ok) CHECK_CONTAINS(err.message, "line 2:5: Cannot write incompatible data to table 'db.t'");
  cp_type_free(f);
  cp_type_free(t);
}

/* Converts a one-value DOUBLE array to `to`; returns the status. */
static int assign_double(double v, const char *to, char *text, size_t size, paimon_error *err) {
  cp_type *from = type("DOUBLE"), *t = type(to);
  struct ArrowSchema s, os;
  struct ArrowArray a, oa;
  memset(&oa, 0, sizeof oa);
  cp_builder *b = NULL;
  CHECK_OK(cp_type_to_arrow(from, "v", &s, err), err);
  CHECK_OK(cp_builder_create(&b, &s, err), err);
  CHECK_OK(cp_builder_append_double(b, v, err), err);
  CHECK_OK(cp_builder_finish(b, &a, err), err);
  cp_builder_free(b);
  int rc = cp_sql_assign_array(from, &s, &a, t, "c", &os, &oa, err);
  if (!rc) {
    cp_array_view view;
    memset(&view, 0, sizeof view);
    cp_buf out = CP_BUF_INIT;
    CHECK_OK(cp_array_view_init(&view, &os, &oa, err), err);
    CHECK_OK(cp_print_value(&out, &view, 0, err), err);
    snprintf(text, size, "%.*s", (int)out.len, (const char *)out.data);
    CHECK_STR(os.name, "c");
    cp_buf_free(&out);
    cp_array_view_reset(&view);
    cp_array_release(&oa);
    cp_schema_release(&os);
  }
  cp_array_release(&a);
  cp_schema_release(&s);
  cp_type_free(from);
  cp_type_free(t);
  return rc;
}

static void test_store_assignment(void) {
  check_assign("INT", "BIGINT", true);
  check_assign("DOUBLE", "TINYINT", true);
  check_assign("DECIMAL(5, 2)", "INT", true);
  check_assign("INT", "STRING", true);
  check_assign("DATE", "STRING", true);
  check_assign("DATE", "TIMESTAMP(6)", true);
  check_assign("TIMESTAMP(3) WITH LOCAL TIME ZONE", "DATE", true);
  check_assign("BYTES", "BINARY(4)", true);
  check_assign("ARRAY<INT>", "ARRAY<BIGINT>", true);
  check_assign("ROW<a INT, b STRING>", "ROW<x BIGINT, y STRING>", true);
  /* strings are parsed into numbers, dates, timestamps and booleans (Spark with Paimon) */
  check_assign("STRING", "INT", true);
  check_assign("STRING", "DATE", true);
  check_assign("STRING", "BOOLEAN", true);
  check_assign("STRING", "BYTES", false);
  check_assign("BOOLEAN", "INT", false);
  check_assign("INT", "BOOLEAN", false);
  check_assign("ARRAY<STRING>", "ARRAY<INT>", false);
  check_assign("ROW<a INT>", "ROW<a INT, b INT>", false);
  check_assign("MAP<STRING, INT>", "ARRAY<INT>", false);
  char text[64];
  paimon_error err;
  CHECK_OK(assign_double(127.9, "TINYINT", text, sizeof text, &err), &err);
  CHECK_STR(text, "127");
  CHECK_OK(assign_double(-128.5, "TINYINT", text, sizeof text, &err), &err);
  CHECK_STR(text, "-128");
  CHECK_OK(assign_double(2.345, "DECIMAL(4, 2)", text, sizeof text, &err), &err);
  CHECK_STR(text, "2.35");
  CHECK_OK(assign_double(0.5, "STRING", text, sizeof text, &err), &err);
  CHECK_STR(text, "0.5");
  CHECK_ERR(assign_double(128, "TINYINT", text, sizeof text, &err), PAIMON_EINVAL);
  CHECK_STR(
      err.message,
      "Fail to assign a value of DOUBLE type to the TINYINT type column 'c' due to an overflow");
  CHECK_ERR(assign_double(1e19, "BIGINT", text, sizeof text, &err), PAIMON_EINVAL);
  CHECK_ERR(assign_double(0.0 / 0.0, "INT", text, sizeof text, &err), PAIMON_EINVAL);
  CHECK_ERR(assign_double(100.0, "DECIMAL(4, 2)", text, sizeof text, &err), PAIMON_EINVAL);
}

/* ---- the DML interface ---------------------------------------------------------------------- */

static const char *query_cell(cp_sql_session *s, const char *sql) {
  paimon_error err;
  cp_sql_result r;
  CHECK_OK(run(s, sql, &r, &err), &err);
  const char *text = cell(&r, 0, 0);
  cp_sql_result_release(&r);
  return text;
}

static int64_t latest(paimon_table *t) {
  paimon_error err;
  int64_t id = -1;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &id, &err), &err);
  return id;
}

/* The DML interface on a row-tracking table: everything added to one cp_dml commits as one
 * snapshot, nothing added commits nothing, and cp_dml_free without a commit changes nothing; an
 * overwrite spec replaces its partition even without new rows. */
static void test_dml_interface(void) {
  cp_sql_session *s = NULL;
  paimon_error err;
  CHECK_OK(cp_sql_session_open(&s, warehouse, &err), &err);
  CHECK_OK(run(s,
               "CREATE TABLE dml_t (id INT, p STRING) PARTITIONED BY (p) "
               "TBLPROPERTIES ('row-tracking.enabled' = 'true');"
               "INSERT INTO dml_t VALUES (1, 'a'), (2, 'a'), (3, 'b')",
               NULL, &err),
           &err);
  cp_sql_name name = {NULL, 1, {1, 1}};
  const char *parts[] = {"dml_t"};
  name.parts = parts;
  cp_sql_table t;
  CHECK_OK(cp_sql_table_open(s, &name, &t, &err), &err);
  CHECK(t.row_tracking && !t.data_evolution);
  CHECK_STR(t.ident, "default.dml_t");
  CHECK_INT(latest(t.table), 1);

  cp_dml *d = NULL;
  int64_t ids[] = {0}, snap = -1;
  CHECK_OK(cp_dml_begin(&d, t.table, CP_DML_DELETE, 1, &err), &err);
  CHECK_OK(cp_dml_delete(d, ids, 1, &err), &err);
  cp_dml_free(d); /* discarded */
  CHECK_INT(latest(t.table), 1);
  CHECK_STR(query_cell(s, "SELECT count(*) FROM dml_t"), "3");

  CHECK_OK(cp_dml_begin(&d, t.table, CP_DML_DELETE, 1, &err), &err);
  CHECK_OK(cp_dml_delete(d, ids, 1, &err), &err);
  CHECK_OK(cp_dml_commit(d, &snap, &err), &err);
  cp_dml_free(d);
  CHECK_INT(snap, 2);
  CHECK_STR(query_cell(s, "SELECT min(id) FROM dml_t"), "2");

  CHECK_OK(cp_dml_begin(&d, t.table, CP_DML_MERGE, 2, &err), &err);
  CHECK_OK(cp_dml_commit(d, &snap, &err), &err); /* nothing added */
  cp_dml_free(d);
  CHECK_INT(snap, 0);
  CHECK_INT(latest(t.table), 2);

  const char *keys[] = {"p"}, *values[] = {"a"};
  CHECK_OK(cp_dml_begin(&d, t.table, CP_DML_INSERT, 0, &err), &err);
  cp_dml_set_overwrite(d, keys, values, 1);
  CHECK_OK(cp_dml_commit(d, &snap, &err), &err);
  cp_dml_free(d);
  CHECK_INT(snap, 3);
  CHECK_STR(query_cell(s, "SELECT count(*) FROM dml_t WHERE p = 'a'"), "0");
  CHECK_STR(query_cell(s, "SELECT count(*) FROM dml_t WHERE p = 'b'"), "1");

  /* An UPDATE that matches no row needs no change and commits nothing. */
  CHECK_OK(run(s, "UPDATE dml_t SET id = 0 WHERE id > 100", NULL, &err), &err);
  CHECK_INT(latest(t.table), 3);
  CHECK_OK(run(s, "UPDATE dml_t SET id = id * 10 WHERE id = 3", NULL, &err), &err);
  CHECK_INT(latest(t.table), 4);
  CHECK_STR(query_cell(s, "SELECT id FROM dml_t"), "30");
  cp_sql_table_close(&t);
  cp_sql_session_free(s);
}

int main(void) {
  make_warehouse();
  RUN(test_statements);
  RUN(test_join_pairs);
  RUN(test_store_assignment);
  RUN(test_dml_interface);
  TEST_MAIN_END();
}
