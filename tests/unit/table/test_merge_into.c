/* Tests of merge_into (include/cpaimon/update.h, spec/data-evolution.md §3.5) through the C API:
 * the scenarios of pypaimon's table_merge_into_test.py (updates and inserts, renamed ON keys,
 * self-assignment ignored, conditions, duplicate matches, self-merge on _ROW_ID), the condition
 * language, and the error messages with the table unchanged. */
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT>"

static const char *const COLS[] = {"id INT", "name STRING", "age INT", NULL};

static paimon_merge_set src_col(const char *column, const char *ref) {
  paimon_merge_set s = {column, PAIMON_MERGE_SOURCE_COL, ref, NULL, NULL};
  return s;
}

/* merge with a fresh updater; messages in *out. */
static int merge(paimon_table *t, const char *src_row, const char *src_text, const char *const *on,
                 const char *const *son, size_t n_on, const paimon_merge_clause *m, size_t nm,
                 const paimon_merge_clause *n, size_t nn, paimon_commit_messages **out,
                 paimon_error *err) {
  tbatch b = src_row ? make_batch(src_row, src_text) : (tbatch){0};
  paimon_update *u = NULL;
  int rc = paimon_update_new(&u, t, err);
  if (!rc)
    rc = paimon_update_merge_into(u, src_row ? &b.schema : NULL, src_row ? &b.array : NULL, on,
                                  son ? son : on, n_on, m, nm, n, nn, out, err);
  paimon_update_free(u);
  tbatch_free(&b);
  return rc;
}

static void test_updates_and_inserts(void) {
  paimon_table *t = create_table("db.m1", COLS, NULL, NULL);
  append_rows(t, ROW, "1,Alice,30;2,Bob,25");
  const char *on[] = {"id"};
  paimon_merge_set upd[] = {src_col("age", "age")};
  paimon_merge_clause m[] = {{PAIMON_MERGE_UPDATE, NULL, false, upd, 1}};
  paimon_merge_clause n[] = {{PAIMON_MERGE_INSERT, NULL, true, NULL, 0}};
  paimon_error err;
  paimon_commit_messages *msgs = NULL;
  CHECK_OK(merge(t, "ROW<id INT, name STRING, age INT>", "1,X,31;2,Y,26;3,Carol,28", on, NULL, 1, m,
                 1, n, 1, &msgs, &err),
           &err);
  commit_msgs(t, msgs);
  /* Matched rows keep their row ids and names; the insert gets the next id. */
  CHECK_READ(t, "id,name,age,_ROW_ID,_SEQUENCE_NUMBER",
             "1|Alice|31|0|2\n2|Bob|26|1|2\n3|Carol|28|2|2");
  paimon_table_free(t);
}

static void test_conditions_and_literals(void) {
  paimon_table *t = create_table("db.m2", COLS, NULL, NULL);
  append_rows(t, ROW, "1,a,10;2,b,20;3,c,30;4,d,40");
  const char *on[] = {"id"};
  tbatch lit = make_batch("ROW<v STRING>", "big");
  paimon_merge_set s1[] = {src_col("age", "age")};
  paimon_merge_set s2[] = {
      {"name", PAIMON_MERGE_LITERAL, NULL, lit.schema.children[0], lit.array.children[0]}};
  paimon_merge_clause m[] = {
      {PAIMON_MERGE_UPDATE, "s.age > t.age AND NOT (s.age BETWEEN 100 AND 200)", false, s1, 1},
      {PAIMON_MERGE_UPDATE, "s.age IS NULL OR t.id IN (3, 4)", false, s2, 1}};
  paimon_error err;
  paimon_commit_messages *msgs = NULL;
  /* id1: 15 > 10 → clause 0; id2: 150 in range → clause 1 fails (20 not null, id 2) → untouched;
   * id3: 5 < 30 → clause 1 (id in list); id4: NULL age → clause 0 NULL → clause 1. */
  CHECK_OK(merge(t, "ROW<id INT, age INT>", "1,15;2,150;3,5;4,NULL", on, NULL, 1, m, 2, NULL, 0,
                 &msgs, &err),
           &err);
  commit_msgs(t, msgs);
  CHECK_READ(t, "id,name,age", "1|a|15\n2|b|20\n3|big|30\n4|big|40");
  tbatch_free(&lit);
  paimon_table_free(t);
}

static void test_errors(void) {
  paimon_table *t = create_table("db.merr", COLS, NULL, NULL);
  append_rows(t, ROW, "1,a,10;2,b,20");
  int files = count_data_files(t);
  const char *on[] = {"id"};
  paimon_merge_set s1[] = {src_col("age", "age")};
  paimon_merge_clause upd[] = {{PAIMON_MERGE_UPDATE, NULL, false, s1, 1}};
  paimon_merge_clause two[] = {{PAIMON_MERGE_UPDATE, NULL, false, s1, 1},
                               {PAIMON_MERGE_UPDATE, "s.age > 1", false, s1, 1}};
  paimon_merge_clause del[] = {{PAIMON_MERGE_DELETE, NULL, false, NULL, 0}};
  paimon_merge_set bad[] = {src_col("nope", "age")};
  paimon_merge_clause badc[] = {{PAIMON_MERGE_UPDATE, NULL, false, bad, 1}};
  paimon_merge_set miss[] = {src_col("age", "missing")};
  paimon_merge_clause missc[] = {{PAIMON_MERGE_UPDATE, NULL, false, miss, 1}};
  paimon_merge_clause cond_t[] = {{PAIMON_MERGE_INSERT, "t.age > 1", true, NULL, 0}};
  paimon_merge_clause cond_bad[] = {{PAIMON_MERGE_UPDATE, "s.nope > 1", false, s1, 1}};
  paimon_merge_clause cond_syntax[] = {{PAIMON_MERGE_UPDATE, "s.age >", false, s1, 1}};
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *src = "ROW<id INT, age INT>";
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, NULL, 0, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "At least one of when_matched or when_not_matched must be non-empty.");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, two, 2, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Only the last when_matched clause may omit its condition. Clause at "
                         "index 0 has no condition, making subsequent clauses unreachable.");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 0, upd, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "'on' must be non-empty.");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, del, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message,
            "merge_into DELETE requires 'deletion-vectors.enabled' = 'true' on target table.");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, badc, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "SET spec references unknown target column 'nope'");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, missc, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "source is missing columns ['missing'] referenced by SET spec");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, NULL, 0, cond_t, 1, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message,
            "WhenNotMatched condition must not reference target columns (t.*), but found: ['age']");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, cond_bad, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "condition references unknown source column 'nope'");
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, cond_syntax, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "merge_into condition \"s.age >\": unexpected end at offset 7");
  const char *son[] = {"sid"};
  CHECK_ERR(merge(t, src, "1,5", on, son, 1, upd, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "'on' columns ['sid'] missing from source schema ['id', 'age'].");
  CHECK_ERR(merge(t, src, "1,5;1,6", on, NULL, 1, upd, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "MERGE matched multiple source rows to the same target _ROW_ID. "
                         "Deduplicate the source before merging.");
  const char *rid[] = {"_ROW_ID"};
  paimon_merge_clause ins[] = {{PAIMON_MERGE_INSERT, NULL, true, NULL, 0}};
  CHECK_ERR(merge(t, NULL, NULL, rid, NULL, 1, upd, 1, ins, 1, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Self-merge (source == target with ON _ROW_ID) does not support WHEN NOT "
                         "MATCHED clauses.");
  CHECK(m == NULL);
  CHECK_INT(latest_snapshot(t), 1);
  CHECK_INT(count_data_files(t), files);
  paimon_table_free(t);

  /* Partition keys cannot be set by a matched clause ('*' includes them). */
  const char *parts[] = {"name", NULL};
  t = create_table("db.mpart", COLS, parts, NULL);
  append_rows(t, ROW, "1,a,10");
  paimon_merge_clause star[] = {{PAIMON_MERGE_UPDATE, NULL, true, NULL, 0}};
  CHECK_ERR(merge(t, ROW, "1,a,5", on, NULL, 1, star, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "merge_into does not support updating partition columns ['name']; "
                         "cross-partition row movement is not implemented.");
  paimon_table_free(t);

  const char *plain[] = {"data-evolution.enabled=false", NULL};
  t = create_table("db.mplain", COLS, NULL, plain);
  CHECK_ERR(merge(t, src, "1,5", on, NULL, 1, upd, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "merge_into requires 'data-evolution.enabled' = 'true' on target table.");
  paimon_table_free(t);
}

/* Self-merge on _ROW_ID: every row is matched with itself; s.x reads the row's own x. */
static void test_self_merge(void) {
  paimon_table *t = create_table("db.mself", COLS, NULL, NULL);
  append_rows(t, ROW, "1,a,10;2,b,20;3,c,30");
  const char *rid[] = {"_ROW_ID"};
  paimon_merge_set s[] = {src_col("name", "age")};
  paimon_merge_set s2[] = {{"name", PAIMON_MERGE_TARGET_COL, "name", NULL, NULL}};
  paimon_merge_clause bad_type[] = {{PAIMON_MERGE_UPDATE, "s.age >= 20", false, s, 1}};
  paimon_merge_clause noop[] = {{PAIMON_MERGE_UPDATE, NULL, false, s2, 1}};
  paimon_error err;
  paimon_commit_messages *m = NULL;
  /* age (INT) into name (STRING) is not a safe cast. */
  CHECK_ERR(merge(t, NULL, NULL, rid, NULL, 1, bad_type, 1, NULL, 0, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Column name has type");
  /* t.name = t.name: nothing to write (test_table_merge_into_ignores_target_self_assignment). */
  CHECK_OK(merge(t, NULL, NULL, rid, NULL, 1, noop, 1, NULL, 0, &m, &err), &err);
  CHECK_INT(m ? paimon_commit_messages_count(m) : 99, 0);
  paimon_commit_messages_free(m);
  paimon_merge_set s3[] = {src_col("age", "id")};
  paimon_merge_clause upd[] = {{PAIMON_MERGE_UPDATE, "s.age >= 20", false, s3, 1}};
  CHECK_OK(merge(t, NULL, NULL, rid, NULL, 1, upd, 1, NULL, 0, &m, &err), &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,age,_ROW_ID", "1|10|0\n2|2|1\n3|3|2");
  paimon_table_free(t);
}

int main(void) {
  setup_catalog("merge");
  RUN(test_updates_and_inserts);
  RUN(test_conditions_and_literals);
  RUN(test_errors);
  RUN(test_self_merge);
  teardown_catalog();
  TEST_MAIN_END();
}
