/* Tests of update by predicate, the matched-rows stream, upsert by key and the shard updater
 * through the C API (include/cpaimon/update.h, spec/data-evolution.md §3.3, §3.4, §3.6): results,
 * the messages of every error path, no file and no snapshot left behind by a failure. The
 * pypaimon test ports with interop are in tests/python/test_update_*.py. */
#include "arrow/ops.h"
#include "expr/predicate.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT, city STRING>"

static const char *const COLS[] = {"id INT", "name STRING", "age INT", "city STRING", NULL};

static paimon_table *seeded(const char *ident, const char *const *parts) {
  paimon_table *t = create_table(ident, COLS, parts, NULL);
  append_rows(t, ROW, "1,Alice,25,NYC;2,Bob,30,LA");
  append_rows(t, ROW, "3,Charlie,35,Chicago;4,David,40,Houston;5,Eve,45,Phoenix");
  return t;
}

static paimon_predicate *age_at_least(int v) {
  paimon_error err;
  paimon_predicate *p = NULL;
  char text[16];
  snprintf(text, sizeof text, "%d", v);
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_GREATER_OR_EQUAL, "age", text, &err),
           &err);
  return p;
}

static void test_by_predicate(void) {
  paimon_table *t = seeded("db.p1", NULL);
  paimon_error err;
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  tbatch city = make_batch("ROW<c STRING>", "Updated"), ages = make_batch("ROW<a INT>", "7;8;9");
  paimon_assignment a[] = {{"city", city.schema.children[0], city.array.children[0], true},
                           {"age", ages.schema.children[0], ages.array.children[0], false}};
  paimon_predicate *p = age_at_least(35);
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_update_by_predicate(u, p, a, 2, &m, &err), &err);
  CHECK_INT(paimon_update_snapshot_id(u), 2);
  commit_msgs(t, m);
  CHECK_READ(t, "name,age,city",
             "Alice|25|NYC\nBob|30|LA\nCharlie|7|Updated\nDavid|8|Updated\nEve|9|Updated");
  paimon_update_free(u);
  /* no match: no messages */
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  paimon_predicate *none = age_at_least(1000);
  CHECK_OK(paimon_update_by_predicate(u, none, a, 1, &m, &err), &err);
  CHECK_INT(paimon_commit_messages_count(m), 0);
  paimon_commit_messages_free(m);
  paimon_update_free(u);
  paimon_predicate_free(none);
  paimon_predicate_free(p);
  tbatch_free(&city);
  tbatch_free(&ages);
  paimon_table_free(t);
}

static void test_by_predicate_errors(void) {
  const char *parts[] = {"city", NULL};
  paimon_table *t = seeded("db.p2", parts);
  int files = count_data_files(t);
  paimon_error err;
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  tbatch v = make_batch("ROW<a INT>", "1;2");
  paimon_commit_messages *m = NULL;
  paimon_assignment bad_col[] = {{"nope", v.schema.children[0], v.array.children[0], true}};
  paimon_assignment part[] = {{"city", v.schema.children[0], v.array.children[0], true}};
  paimon_assignment len[] = {{"age", v.schema.children[0], v.array.children[0], false}};
  CHECK_ERR(paimon_update_by_predicate(u, NULL, bad_col, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "assignments must not be empty.");
  CHECK_ERR(paimon_update_by_predicate(u, NULL, bad_col, 1, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column nope is not in table schema.");
  CHECK_ERR(paimon_update_by_predicate(u, NULL, part, 1, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "update_by_predicate does not support updating partition column 'city'.");
  CHECK_ERR(paimon_update_by_predicate(u, NULL, len, 1, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Assignment array length must match matched row count: 2 != 5.");
  CHECK(m == NULL);
  CHECK_INT(count_data_files(t), files);
  CHECK_INT(latest_snapshot(t), 2);
  paimon_update_free(u);
  tbatch_free(&v);
  paimon_table_free(t);

  const char *opts[] = {"data-evolution.enabled=false", NULL};
  t = create_table("db.p3", COLS, NULL, opts);
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  CHECK_ERR(paimon_update_by_predicate(u, NULL, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "update_by_predicate requires 'data-evolution.enabled' = 'true'.");
  struct ArrowArrayStream s;
  CHECK_ERR(paimon_update_scan_matches(u, NULL, NULL, 0, &s, &err), PAIMON_EINVAL);
  paimon_update_free(u);
  paimon_table_free(t);
}

/* The matched rows arrive one batch per row-id group, with the read columns and _ROW_ID. */
static void test_scan_matches(void) {
  paimon_table *t = seeded("db.p4", NULL);
  paimon_error err;
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  paimon_predicate *p = age_at_least(30);
  const char *cols[] = {"age"};
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  CHECK_OK(paimon_update_scan_matches(u, p, cols, 1, &s, &err), &err);
  int batches = 0;
  struct ArrowSchema schema;
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray b;
    CHECK_OK(cp_stream_next(&s, &b, &err), &err);
    if (!b.release) break;
    CHECK_INT(b.length, batches == 0 ? 1 : 3);
    batches++;
    b.release(&b);
  }
  CHECK_INT(batches, 2);
  CHECK_STR(schema.children[1]->name, "_ROW_ID");
  schema.release(&schema);
  s.release(&s);
  const char *bad[] = {"nope"};
  CHECK_ERR(paimon_update_scan_matches(u, p, bad, 1, &s, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Read column nope is not in table schema.");
  paimon_predicate_free(p);
  paimon_update_free(u);
  paimon_table_free(t);
}

static int upsert(paimon_table *t, const char *row_sql, const char *text, const char *const *keys,
                  size_t nk, const char *const *cols, size_t nc, paimon_commit_messages **m,
                  paimon_error *err) {
  tbatch b = make_batch(row_sql, text);
  paimon_update *u = NULL;
  int rc = paimon_update_new(&u, t, err);
  if (!rc && nc) rc = paimon_update_set_update_cols(u, cols, nc, err);
  if (!rc) rc = paimon_update_upsert_by_key(u, &b.schema, &b.array, keys, nk, m, err);
  paimon_update_free(u);
  tbatch_free(&b);
  return rc;
}

static void test_upsert(void) {
  paimon_table *t = create_table("db.u1", COLS, NULL, NULL);
  append_rows(t, ROW, "1,A,10,X;1,B,20,Y;2,C,30,Z");
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *id[] = {"id"}, *age[] = {"age"};
  /* key 1 fans out to both rows (age only), key 3 is new, duplicate key 2 keeps the last */
  CHECK_OK(upsert(t, ROW, "1,a,11,x;2,c1,31,z1;3,D,40,W;2,c2,32,z2", id, 1, age, 1, &m, &err),
           &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,name,age,city,_ROW_ID", "1|A|11|X|0\n1|B|11|Y|1\n2|C|32|Z|2\n3|D|40|W|3");
  /* new rows keep only the input's columns (absent ones NULL) */
  CHECK_OK(upsert(t, "ROW<id INT, age INT>", "9,90", id, 1, NULL, 0, &m, &err), &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,name,age", "1|A|11\n1|B|11\n2|C|32\n3|D|40\n9|NULL|90");
  int files = count_data_files(t);
  const char *none[] = {"nope"}, *city[] = {"city"};
  CHECK_ERR(upsert(t, ROW, "1,a,1,x", id, 0, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "upsert_keys must not be empty.");
  CHECK_ERR(upsert(t, ROW, "1,a,1,x", none, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message,
            "upsert_key 'nope' is not in table schema fields: ['id', 'name', 'age', 'city']");
  CHECK_ERR(upsert(t, "ROW<id INT, age INT>", "1,1", city, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "upsert_key 'city' is not in input data columns: ['id', 'age']");
  CHECK_ERR(upsert(t, ROW, "", id, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Input data is empty.");
  /* a matched row with update columns the input lacks */
  CHECK_ERR(upsert(t, "ROW<id INT, age INT>", "1,5", id, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column name is missing in the input data.");
  CHECK_INT(count_data_files(t), files);
  paimon_table_free(t);

  const char *parts[] = {"city", NULL};
  t = create_table("db.u2", COLS, parts, NULL);
  CHECK_ERR(upsert(t, "ROW<id INT, age INT>", "1,1", id, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "For partitioned tables, input data must contain all partition key "
                         "columns. Missing: ['city']");
  paimon_table_free(t);
}

static void test_shard(void) {
  paimon_table *t = seeded("db.s1", NULL);
  paimon_error err;
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  const char *age[] = {"age"};
  CHECK_OK(paimon_update_set_update_cols(u, age, 1, &err), &err);
  paimon_shard_updater *s = NULL;
  CHECK_ERR(paimon_shard_updater_new(&s, u, 2, 2, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_shard_updater_new(&s, u, 1, 2, &err), &err); /* the second group: 3 rows */
  CHECK_INT(paimon_shard_updater_row_count(s), 3);
  tbatch one = make_batch("ROW<age INT>", "1"), two = make_batch("ROW<age INT>", "2;3"),
         more = make_batch("ROW<age INT>", "4");
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_shard_updater_write(s, &one.schema, &one.array, &err), &err);
  CHECK_ERR(paimon_shard_updater_prepare_commit(s, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Shard updater of table db.s1: row range [2, 4] received 1 of its 3 "
                         "rows. Ensure you write exactly the same number of rows as read from "
                         "this shard.");
  CHECK_OK(paimon_shard_updater_write(s, &two.schema, &two.array, &err), &err);
  CHECK_ERR(paimon_shard_updater_write(s, &more.schema, &more.array, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "No more row ranges to write. Ensure you write exactly the same number "
                         "of rows as read from this shard.");
  CHECK_OK(paimon_shard_updater_prepare_commit(s, &m, &err), &err);
  CHECK_INT(paimon_commit_messages_new_file_count(m), 1);
  commit_msgs(t, m);
  CHECK_READ(t, "age", "25\n30\n1\n2\n3");
  paimon_shard_updater_free(s);
  /* a shard updater freed without prepare_commit deletes what it wrote */
  int files = count_data_files(t);
  CHECK_OK(paimon_shard_updater_new(&s, u, 0, 1, &err), &err);
  CHECK_OK(paimon_shard_updater_write(s, &two.schema, &two.array, &err), &err);
  CHECK_INT(count_data_files(t), files + 1);
  paimon_shard_updater_free(s);
  CHECK_INT(count_data_files(t), files);
  tbatch_free(&one);
  tbatch_free(&two);
  tbatch_free(&more);
  paimon_update_free(u);
  paimon_table_free(t);
}

int main(void) {
  setup_catalog("updops");
  RUN(test_by_predicate);
  RUN(test_by_predicate_errors);
  RUN(test_scan_matches);
  RUN(test_upsert);
  RUN(test_shard);
  teardown_catalog();
  TEST_MAIN_END();
}
