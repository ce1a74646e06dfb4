/* Tests of update by row id (include/cpaimon/update.h, spec/data-evolution.md §3.2): the pypaimon
 * tests of table_update_test.py ported with their scenarios and expectations (the "seeded" table:
 * rows 0-1 in one file, 2-4 in another), the files and metadata an update writes, and every
 * error path with the table unchanged afterwards. */
#include "meta/binary_row.h"
#include "table/update_internal.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT, city STRING>"
#define UPD_AGE "ROW<_ROW_ID BIGINT, age INT>"

static const char *const COLS[] = {"id INT", "name STRING", "age INT", "city STRING", NULL};

static paimon_table *seeded(const char *ident) {
  paimon_table *t = create_table(ident, COLS, NULL, NULL);
  if (!t) return NULL;
  append_rows(t, ROW, "1,Alice,25,NYC;2,Bob,30,LA");
  append_rows(t, ROW, "3,Charlie,35,Chicago;4,David,40,Houston;5,Eve,45,Phoenix");
  return t;
}

/* Updates and commits; returns the messages' file count. */
static size_t do_update(paimon_table *t, const char *col, const char *row_sql, const char *text) {
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *cols[] = {col};
  CHECK_OK(update_rows(t, cols, col ? 1 : 0, row_sql, text, &m, &err), &err);
  size_t n = m ? paimon_commit_messages_new_file_count(m) : 0;
  commit_msgs(t, m);
  return n;
}

static void test_update_existing_column(void) {
  paimon_table *t = seeded("db.t1");
  CHECK_INT(do_update(t, "age", UPD_AGE, "1,31;0,26;2,36;3,39;4,42"), 2);
  CHECK_READ(t, "age", "26\n31\n36\n39\n42");
  /* Both groups were rewritten: every row reads the update's snapshot (§2.5) and keeps its id. */
  CHECK_READ(t, "id,_ROW_ID,_SEQUENCE_NUMBER", "1|0|3\n2|1|3\n3|2|3\n4|3|3\n5|4|3");
  paimon_table_free(t);
}

static void test_update_multiple_columns_and_preserve_others(void) {
  paimon_table *t = seeded("db.t2");
  const char *cols[] = {"age", "city"};
  paimon_error err;
  paimon_commit_messages *m = NULL;
  CHECK_OK(update_rows(t, cols, 2, "ROW<_ROW_ID BIGINT, age INT, city STRING>",
                       "1,31,Los Angeles;0,26,New York;2,36,Chicago;3,39,Phoenix;4,42,Houston", &m,
                       &err),
           &err);
  commit_msgs(t, m);
  CHECK_READ(t, NULL,
             "1|Alice|26|New York\n2|Bob|31|Los Angeles\n3|Charlie|36|Chicago\n4|David|39|Phoenix\n"
             "5|Eve|42|Houston");
  paimon_table_free(t);

  t = seeded("db.t2b"); /* test_update_preserves_other_columns */
  CHECK_INT(do_update(t, "age", UPD_AGE, "1,999"), 1);
  CHECK_READ(t, NULL,
             "1|Alice|25|NYC\n2|Bob|999|LA\n3|Charlie|35|Chicago\n4|David|40|Houston\n"
             "5|Eve|45|Phoenix");
  /* Only the touched group reads the new sequence number. */
  CHECK_READ(t, "_SEQUENCE_NUMBER", "3\n3\n2\n2\n2");
  paimon_table_free(t);
}

static void test_partial_row_updates(void) {
  static const struct {
    const char *rows, *want;
  } cases[] = {{"0,100", "100\n30\n35\n40\n45"},
               {"1,31", "25\n31\n35\n40\n45"},
               {"1,200;2,300", "25\n200\n300\n40\n45"},
               {"0,100;2,300;4,500", "100\n30\n300\n40\n500"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char ident[32];
    snprintf(ident, sizeof ident, "db.partial%zu", i);
    paimon_table *t = seeded(ident);
    do_update(t, "age", UPD_AGE, cases[i].rows);
    CHECK_READ(t, "age", cases[i].want);
    paimon_table_free(t);
  }
}

static void test_sequential_updates(void) {
  paimon_table *t = seeded("db.seq");
  do_update(t, "age", UPD_AGE, "1,31;0,26;2,36;3,41;4,46");
  do_update(t, "city", "ROW<_ROW_ID BIGINT, city STRING>",
            "1,Los Angeles;0,New York;2,Chicago;3,Phoenix;4,Houston");
  CHECK_READ(t, "age,city", "26|New York\n31|Los Angeles\n36|Chicago\n41|Phoenix\n46|Houston");
  paimon_table_free(t);

  t = seeded("db.seq2"); /* test_sequential_partial_updates */
  do_update(t, "age", UPD_AGE, "0,100");
  do_update(t, "age", UPD_AGE, "2,300");
  do_update(t, "age", UPD_AGE, "4,500");
  CHECK_READ(t, "age", "100\n30\n300\n40\n500");
  paimon_table_free(t);
}

static void test_fall_back_to_input_columns(void) {
  paimon_table *t = seeded("db.fallback");
  /* No update columns set: every input column but _ROW_ID. */
  do_update(t, NULL, "ROW<_ROW_ID BIGINT, id INT, name STRING, age INT, city STRING>",
            "0,1,A,1,c0;1,2,B,2,c1;2,3,C,3,c2;3,4,D,4,c3;4,5,E,5,c4");
  CHECK_READ(t, "name,age,city", "A|1|c0\nB|2|c1\nC|3|c2\nD|4|c3\nE|5|c4");
  do_update(t, NULL, UPD_AGE, "0,99;1,98");
  CHECK_READ(t, "name,age", "A|99\nB|98\nC|3\nD|4\nE|5");
  paimon_table_free(t);
}

static void test_partitioned_and_two_files(void) {
  const char *parts[] = {"city", NULL};
  paimon_table *t = create_table("db.part", COLS, parts, NULL);
  append_rows(t, ROW, "1,Alice,25,NYC;2,Bob,30,NYC;3,Charlie,35,LA;4,David,40,LA;5,Eve,45,Chicago");
  do_update(t, "age", UPD_AGE, "1,31;0,26;2,36;3,41;4,46");
  CHECK_READ(t, "id,age,_ROW_ID", "1|26|0\n2|31|1\n3|36|2\n4|41|3\n5|46|4");
  paimon_table_free(t);

  /* test_update_partial_rows_across_two_files */
  t = create_table("db.twofiles", COLS, NULL, NULL);
  append_rows(t, ROW,
              "1,Alice,20,NYC;2,Bob,25,LA;3,Charlie,30,Chicago;4,David,35,Houston;5,Eve,40,P");
  append_rows(t, ROW, "6,Frank,45,S;7,Grace,50,B;8,Henry,55,D;9,Ivy,60,M;10,Jack,65,A");
  const char *cols[] = {"age", "name"};
  paimon_error err;
  paimon_commit_messages *m = NULL;
  CHECK_OK(
      update_rows(t, cols, 2, "ROW<_ROW_ID BIGINT, age INT, name STRING>",
                  "1,100,Updated_Bob;3,200,Updated_David;6,300,Updated_Grace;8,400,Updated_Ivy", &m,
                  &err),
      &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,name,age",
             "1|Alice|20\n2|Updated_Bob|100\n3|Charlie|30\n4|Updated_David|200\n5|Eve|40\n"
             "6|Frank|45\n7|Updated_Grace|300\n8|Henry|55\n9|Updated_Ivy|400\n10|Jack|65");
  paimon_table_free(t);
}

/* test_update_with_large_file: one file per group whatever target-file-size says, first_row_id of
 * the group, row_count of the group, update files carry write_cols and sequence 0 until commit. */
static void test_one_file_per_group(void) {
  const char *cols[] = {"id BIGINT", "name STRING", NULL};
  const char *opts[] = {"target-file-size=10kb", NULL};
  paimon_table *t = create_table("db.large", cols, NULL, opts);
  cp_buf text = CP_BUF_INIT, upd = CP_BUF_INIT;
  for (int i = 0; i < 5000; i++) {
    cp_buf_appendf(&text, NULL, "%s%d,%0200d", i ? ";" : "", i, i);
    cp_buf_appendf(&upd, NULL, "%s%d,n%0200d", i ? ";" : "", i, i);
  }
  cp_buf_nul_terminate(&text, NULL);
  cp_buf_nul_terminate(&upd, NULL);
  append_rows(t, "ROW<id BIGINT, name STRING>", (char *)text.data);
  /* The write rolled into several files: the updater sees several groups. */
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *u[] = {"name"};
  CHECK_OK(update_rows(t, u, 1, "ROW<_ROW_ID BIGINT, name STRING>", (char *)upd.data, &m, &err),
           &err);
  size_t groups = m ? paimon_commit_messages_count(m) : 0;
  CHECK(groups >= 1);
  CHECK_INT(m ? paimon_commit_messages_new_file_count(m) : 0, groups);
  int64_t covered = 0;
  for (size_t i = 0; m && i < m->n; i++) {
    const cp_data_file_meta *f = &m->items[i].new_files[0];
    CHECK(f->has_first_row_id);
    CHECK_INT(f->first_row_id, covered); /* groups in row-id order, contiguous */
    covered += f->row_count;
    CHECK(f->has_write_cols);
    CHECK_INT(f->write_cols.n, 1);
    CHECK_STR(f->write_cols.items[0], "name");
    CHECK_INT(f->min_sequence_number, 0);
    CHECK_INT(f->max_sequence_number, 0);
    CHECK_INT(f->file_source, CP_FILE_SOURCE_APPEND);
    CHECK_INT(m->items[i].check_from_snapshot, 1);
  }
  CHECK_INT(covered, 5000);
  commit_msgs(t, m);
  char *got = read_text(t, "name");
  CHECK(got && strncmp(got, "n0000", 5) == 0 && strstr(got, "\nn0000") != NULL);
  free(got);
  cp_buf_free(&text);
  cp_buf_free(&upd);
  paimon_table_free(t);
}

/* Every §3.2 check with pypaimon's message, in pypaimon's order; nothing written, no snapshot. */
static void test_errors_leave_table_unchanged(void) {
  paimon_table *t = seeded("db.errors");
  int files = count_data_files(t);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *age[] = {"age"}, *bad[] = {"nonexistent_column"};
  CHECK_ERR(update_rows(t, NULL, 0, "ROW<_ROW_ID BIGINT>", "0;1", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "column_names cannot be empty");
  CHECK_ERR(update_rows(t, age, 1, "ROW<age INT>", "26;27", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Input data must contain _ROW_ID column");
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  CHECK_ERR(paimon_update_set_update_cols(u, bad, 1, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Column nonexistent_column is not in table schema.");
  paimon_update_free(u);
  CHECK_ERR(update_rows(t, NULL, 0, "ROW<_ROW_ID BIGINT, nope INT>", "0,1", &m, &err),
            PAIMON_EINVAL);
  CHECK_STR(err.message, "Column nope not found in table schema");
  CHECK_ERR(update_rows(t, age, 1, UPD_AGE, "0,100;0,200;1,300", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Input data contains duplicate _ROW_ID values");
  CHECK_ERR(update_rows(t, age, 1, UPD_AGE, "0,26;10,100", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Row ID 10 does not belong to any valid range ['[0, 4]']");
  CHECK_ERR(update_rows(t, age, 1, UPD_AGE, "-1,100;0,26", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Row ID -1 does not belong to any valid range ['[0, 4]']");
  CHECK_ERR(update_rows(t, age, 1, UPD_AGE, "NULL,100", &m, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "_ROW_ID value must not be null.");
  CHECK_ERR(update_rows(t, age, 1, "ROW<_ROW_ID BIGINT, age BINARY>", "0,X'00'", &m, &err),
            PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Column age has type");
  CHECK(m == NULL);
  /* Empty input: no messages, no snapshot. */
  CHECK_OK(update_rows(t, age, 1, UPD_AGE, "", &m, &err), &err);
  CHECK_INT(m ? paimon_commit_messages_count(m) : 99, 0);
  commit_msgs(t, m);
  CHECK_INT(latest_snapshot(t), 2);
  CHECK_INT(count_data_files(t), files);
  CHECK_READ(t, "age", "25\n30\n35\n40\n45");
  paimon_table_free(t);
}

/* One updater cannot write the same column of a group twice (pypaimon's batch guard), but may
 * write other columns or other groups; its messages then commit together. */
static void test_same_updater_overlap(void) {
  paimon_table *t = seeded("db.overlap");
  paimon_error err;
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  tbatch a = make_batch(UPD_AGE, "0,1"), b = make_batch(UPD_AGE, "1,2"),
         c = make_batch("ROW<_ROW_ID BIGINT, city STRING>", "1,X"), d = make_batch(UPD_AGE, "3,4");
  paimon_commit_messages *m1 = NULL, *m2 = NULL, *m3 = NULL, *m4 = NULL;
  CHECK_OK(paimon_update_by_row_id(u, &a.schema, &a.array, &m1, &err), &err);
  CHECK_ERR(paimon_update_by_row_id(u, &b.schema, &b.array, &m2, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Input batches contain overlapping first_row_ids by column: {'age': [0]}");
  CHECK_OK(paimon_update_by_row_id(u, &c.schema, &c.array, &m3, &err), &err);
  CHECK_OK(paimon_update_by_row_id(u, &d.schema, &d.array, &m4, &err), &err);
  CHECK_INT(paimon_update_snapshot_id(u), 2);
  CHECK_OK(paimon_commit_messages_append(m1, m3, &err), &err);
  CHECK_OK(paimon_commit_messages_append(m1, m4, &err), &err);
  commit_msgs(t, m1);
  paimon_commit_messages_free(m3);
  paimon_commit_messages_free(m4);
  CHECK_READ(t, "age,city", "1|NYC\n30|X\n35|Chicago\n4|Houston\n45|Phoenix");
  tbatch_free(&a);
  tbatch_free(&b);
  tbatch_free(&c);
  tbatch_free(&d);
  paimon_update_free(u);
  paimon_table_free(t);
}

/* Schema evolution: a column added after the data was written reads NULL until an update writes
 * it (test_read_full_schema_on_write_before_evolution's layout), ARRAY<FLOAT> included. */
static void test_added_column_backfill(void) {
  paimon_table *t = seeded("db.evolve");
  paimon_error err;
  paimon_schema_change add = {PAIMON_ADD_COLUMN, "score", NULL, "DOUBLE", NULL, NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(cat, "db.evolve", &add, 1, false, &err), &err);
  paimon_table_free(t);
  t = open_table("db.evolve");
  CHECK_READ(t, "id,score", "1|NULL\n2|NULL\n3|NULL\n4|NULL\n5|NULL");
  do_update(t, "score", "ROW<_ROW_ID BIGINT, score DOUBLE>", "3,1.5");
  CHECK_READ(t, "id,score", "1|NULL\n2|NULL\n3|NULL\n4|1.5\n5|NULL");
  /* An update of an old column after the ALTER keeps the added one. */
  do_update(t, "age", UPD_AGE, "3,77");
  CHECK_READ(t, "age,score", "25|NULL\n30|NULL\n35|NULL\n77|1.5\n45|NULL");
  paimon_table_free(t);
}

/* A newer file whose _WRITE_COLS_SEQUENCES says it holds an OLD version of a column does not win
 * that column (apache/paimon#9876; Java's fieldMaxSequenceNumber): the provider of each field is
 * the file with the highest per-field sequence, not the newest file. */
static void test_per_field_sequences(void) {
  paimon_table *t = create_table("db.fieldseq", COLS, NULL, NULL);
  append_rows(t, ROW, "1,Alice,25,NYC;2,Bob,30,LA"); /* snapshot 1 */
  do_update(t, "age", UPD_AGE, "0,99");              /* snapshot 2: age of group [0, 1] */
  /* snapshot 3: a full rewrite of the group (as a compaction that kept the pre-update age would
   * write) whose age column is the version of snapshot 1 */
  paimon_error err;
  cp_group_writer w;
  tbatch old = make_batch(ROW, "1,Alice,25,NYC;2,Bob,30,LA");
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_commit_messages_new(&m, &err), &err);
  CHECK_OK(cp_group_writer_open(&w, t, t->schema->row, false, (cp_bytes){cp_binary_row_empty, 12},
                                0, 0, 2, &err),
           &err);
  CHECK_OK(cp_group_writer_write(&w, &old.array, &err), &err);
  cp_data_file_meta meta;
  CHECK_OK(cp_group_writer_finish(&w, &m->arena, &meta, &err), &err);
  static const int64_t seqs[] = {3, 3, 1, 3}; /* id, name, age, city */
  meta.has_write_cols_sequences = true;
  meta.write_cols_sequences = seqs;
  meta.n_write_cols_sequences = 4;
  cp_commit_message msg;
  memset(&msg, 0, sizeof msg);
  msg.partition = (cp_bytes){cp_binary_row_empty, 12};
  msg.total_buckets = -1;
  msg.new_files = &meta;
  msg.n_new = 1;
  msg.check_from_snapshot = 2;
  CHECK_OK(cp_commit_messages_add(m, &msg, &err), &err);
  CHECK_INT(commit_msgs(t, m), 3);
  CHECK_READ(t, "name,age,_SEQUENCE_NUMBER", "Alice|99|3\nBob|30|3");
  tbatch_free(&old);
  paimon_table_free(t);
}

int main(void) {
  setup_catalog("update");
  RUN(test_update_existing_column);
  RUN(test_update_multiple_columns_and_preserve_others);
  RUN(test_partial_row_updates);
  RUN(test_sequential_updates);
  RUN(test_fall_back_to_input_columns);
  RUN(test_partitioned_and_two_files);
  RUN(test_one_file_per_group);
  RUN(test_errors_leave_table_unchanged);
  RUN(test_same_updater_overlap);
  RUN(test_added_column_backfill);
  RUN(test_per_field_sequences);
  teardown_catalog();
  TEST_MAIN_END();
}
