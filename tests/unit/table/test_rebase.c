/* Tests of rebasing staged partial-column updates over a concurrent compaction (table/rebase.h,
 * spec/maintenance-and-blob.md §2.1): an update prepared before a compaction commits after it
 * with both kept; the logical conflict is never hidden (same column updated before or after the
 * compaction); what pypaimon gives up on keeps the original conflict (deletion vectors, rows
 * removed, max-size); files are cleaned up on both outcomes; an I/O failure at every step of a
 * rebasing commit leaves the table as it was; the compaction's side (§2.3) under the same
 * failures. pypaimon and Java read rebased tables in
 * tests/python/test_rebase.py. */
#include "base/fs.h"
#include "cpaimon/compact.h"
#include "table/file_store.h"
#include "table/store.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT>"
static const char *const COLS[] = {"id INT", "name STRING", "age INT", NULL};
static const char *const AGE[] = {"age"};
static const char *const NAME[] = {"name"};
#define AGE_ROW "ROW<_ROW_ID BIGINT, age INT>"

/* Three appends of 2 rows each: groups [0,1] [2,3] [4,5]. */
static paimon_table *three_groups(const char *ident, const char *const *opts) {
  paimon_table *t = create_table(ident, COLS, NULL, opts);
  append_rows(t, ROW, "1,a,10;2,b,20");
  append_rows(t, ROW, "3,c,30;4,d,40");
  append_rows(t, ROW, "5,e,50;6,f,60");
  return t;
}

/* Merges the three groups into one ([0,5]). */
static void compact_all(paimon_table *t) {
  paimon_error err;
  paimon_compact_result r;
  const char *keys[] = {"compaction.min.file-num"}, *values[] = {"2"};
  paimon_compact_options o = {NULL, keys, values, 1};
  CHECK_OK(paimon_table_compact(t, &o, &r, &err), &err);
  CHECK_INT(r.tasks, 1);
}

static paimon_commit_messages *staged(paimon_table *t, const char *const *cols, const char *row,
                                      const char *text) {
  paimon_error err;
  paimon_commit_messages *m = NULL;
  CHECK_OK(update_rows(t, cols, 1, row, text, &m, &err), &err);
  return m;
}

static int commit_err(paimon_table *t, paimon_commit_messages *m, paimon_error *err) {
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, err), err);
  int rc = paimon_commit_commit(c, m, err);
  paimon_commit_free(c);
  return rc;
}

/* pypaimon's test_commit_rewrites_stale_update_after_compaction: the staged update of row 2
 * lands on the compacted group; the stale staged file is gone, nothing else is left behind. */
static void test_rebased_after_compaction(void) {
  paimon_error err;
  paimon_table *t = three_groups("db.rebase", NULL);
  paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "2,31");
  int before = count_data_files(t);
  compact_all(t);
  CHECK_OK(commit_err(t, m, &err), &err);
  paimon_commit_messages_free(m);
  CHECK_READ(t, "id,name,age,_ROW_ID",
             "1|a|10|0\n2|b|20|1\n3|c|31|2\n4|d|40|3\n5|e|50|4\n6|f|60|5");
  CHECK_READ(t, "id,_SEQUENCE_NUMBER", "1|5\n2|5\n3|5\n4|5\n5|5\n6|5");
  /* 3 base files + 1 staged, then +1 compacted, +1 rebased, -1 staged. */
  CHECK_INT(count_data_files(t), before + 1);
  /* Another update on the new layout works as usual. */
  paimon_commit_messages *m2 = staged(t, NAME, "ROW<_ROW_ID BIGINT, name STRING>", "5,z");
  commit_msgs(t, m2);
  CHECK_READ(t, "id,name,age", "1|a|10\n2|b|20\n3|c|31\n4|d|40\n5|e|50\n6|z|60");
  paimon_table_free(t);
}

/* A different column of the same group updated before the compaction: both stay. */
static void test_other_column_kept(void) {
  paimon_error err;
  paimon_table *t = three_groups("db.other", NULL);
  paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "2,31");
  commit_msgs(t, staged(t, NAME, "ROW<_ROW_ID BIGINT, name STRING>", "3,x"));
  compact_all(t);
  CHECK_OK(commit_err(t, m, &err), &err);
  paimon_commit_messages_free(m);
  CHECK_READ(t, "id,name,age", "1|a|10\n2|b|20\n3|c|31\n4|x|40\n5|e|50\n6|f|60");
  paimon_table_free(t);
}

/* The same column updated before (pypaimon's test_compaction_rewrite_does_not_hide_logical_update
 * _conflict) or after (test_compaction_rewrite_rejects_update_after_compaction) the compaction:
 * the logical conflict, the other update kept, the rewrite's files gone. */
static void test_logical_conflict_not_hidden(void) {
  paimon_error err;
  for (int after = 0; after < 2; after++) {
    paimon_table *t = three_groups(after ? "db.logical_after" : "db.logical_before", NULL);
    paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "2,31");
    if (!after) commit_msgs(t, staged(t, AGE, AGE_ROW, "3,99"));
    compact_all(t);
    if (after) commit_msgs(t, staged(t, AGE, AGE_ROW, "3,99"));
    int files = count_data_files(t);
    int64_t snap = latest_snapshot(t);
    CHECK_ERR(commit_err(t, m, &err), PAIMON_ECONFLICT);
    CHECK_CONTAINS(err.message, "For Data Evolution table, multiple 'MERGE INTO' operations have "
                                "encountered conflicts");
    CHECK_INT(latest_snapshot(t), snap);
    CHECK_INT(count_data_files(t), files);
    CHECK_READ(t, "id,age", "1|10\n2|20\n3|30\n4|99\n5|50\n6|60");
    paimon_commit *c = NULL;
    CHECK_OK(paimon_commit_new(&c, t, &err), &err);
    CHECK_OK(paimon_commit_abort(c, m, &err), &err);
    paimon_commit_free(c);
    paimon_commit_messages_free(m);
    CHECK_INT(count_data_files(t), files - 1);
    paimon_table_free(t);
  }
}

/* What is never rebased keeps the existence conflict: deletion vectors; max-size (with the
 * option named, pypaimon's test_commit_rewrite_respects_max_size); rows removed meanwhile. */
static void test_given_up(void) {
  static const char *const dv[] = {"deletion-vectors.enabled=true", NULL};
  static const char *const tiny[] = {"data-evolution.row-id-conflict-rewrite.max-size=1 b", NULL};
  static const char *const off[] = {"data-evolution.row-id-conflict-rewrite.max-size=0 b", NULL};
  const char *const *opts[] = {dv, tiny, off};
  const char *idents[] = {"db.given_dv", "db.given_tiny", "db.given_off"};
  paimon_error err;
  for (int k = 0; k < 3; k++) {
    paimon_table *t = three_groups(idents[k], opts[k]);
    paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "2,31");
    compact_all(t);
    int files = count_data_files(t);
    int64_t snap = latest_snapshot(t);
    CHECK_ERR(commit_err(t, m, &err), PAIMON_ECONFLICT);
    CHECK_CONTAINS(err.message, "Row ID existence conflict: file '");
    if (k == 1) CHECK_CONTAINS(err.message, "Automatic row-id conflict rewrite requires reading ");
    if (k == 1)
      CHECK_CONTAINS(err.message, "'data-evolution.row-id-conflict-rewrite.max-size'=1 bytes.");
    if (k != 1) CHECK(strstr(err.message, "Automatic") == NULL);
    CHECK_INT(latest_snapshot(t), snap);
    CHECK_INT(count_data_files(t), files);
    CHECK_READ(t, "id,age", "1|10\n2|20\n3|30\n4|40\n5|50\n6|60");
    paimon_commit_messages_free(m);
    paimon_table_free(t);
  }
}

/* Two staged files of the same column from two updaters, committed together: they overlap
 * after neither; a batch holding updates of two groups is rebased into one file. */
static void test_several_staged_files(void) {
  paimon_error err;
  paimon_table *t = three_groups("db.several", NULL);
  paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "0,11;5,61");
  paimon_commit_messages *m2 = staged(t, NAME, "ROW<_ROW_ID BIGINT, name STRING>", "2,q");
  CHECK_OK(paimon_commit_messages_append(m, m2, &err), &err);
  paimon_commit_messages_free(m2);
  compact_all(t);
  CHECK_OK(commit_err(t, m, &err), &err);
  paimon_commit_messages_free(m);
  CHECK_READ(t, "id,name,age", "1|a|11\n2|b|20\n3|q|30\n4|d|40\n5|e|50\n6|f|61");
  paimon_table_free(t);
}

/* Every I/O call of a rebasing commit fails in turn: the table reads as it was (or as committed),
 * and committing the same messages again succeeds; no file but the table's live ones and the
 * caller's staged ones is left. */
static void test_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_OPEN_READ, CP_FS_OP_READ,  CP_FS_OP_CREATE,
                                 CP_FS_OP_WRITE,     CP_FS_OP_FSYNC, CP_FS_OP_CLOSE,
                                 CP_FS_OP_RENAME,    CP_FS_OP_LIST};
  const char *old = "1|10\n2|20\n3|30\n4|40\n5|50\n6|60";
  const char *now = "1|10\n2|20\n3|31\n4|40\n5|50\n6|60";
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 100; nth++) {
      char ident[48];
      snprintf(ident, sizeof ident, "db.crash%zu_%d", o, nth);
      paimon_table *t = three_groups(ident, NULL);
      paimon_commit_messages *m = staged(t, AGE, AGE_ROW, "2,31");
      compact_all(t);
      int files = count_data_files(t);
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      int rc = commit_err(t, m, &err);
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      char *got = read_text(t, "id,age");
      CHECK(strcmp(got, rc ? old : now) == 0 || strcmp(got, now) == 0);
      bool landed = strcmp(got, now) == 0;
      free(got);
      if (rc && !landed) {
        CHECK_INT(count_data_files(t), files);
        CHECK_OK(commit_err(t, m, &err), &err);
      }
      CHECK_READ(t, "id,age", now);
      CHECK_INT(count_data_files(t), files); /* one rebased file in, the staged one out */
      paimon_commit_messages_free(m);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 20);
}

/* The compaction's side: an update committed between planning and committing a compaction is
 * rebased onto it; an I/O failure at every step of that commit leaves the table as it was (or
 * compacted) and no rewritten file behind, and committing again succeeds. */
static void test_compaction_side_crash(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_OPEN_READ, CP_FS_OP_READ,  CP_FS_OP_CREATE,
                                 CP_FS_OP_WRITE,     CP_FS_OP_FSYNC, CP_FS_OP_CLOSE,
                                 CP_FS_OP_RENAME,    CP_FS_OP_LIST};
  const char *want = "1|10\n2|20\n3|31\n4|40\n5|50\n6|60";
  const char *keys[] = {"compaction.min.file-num"}, *values[] = {"2"};
  paimon_compact_options o = {NULL, keys, values, 1};
  paimon_error err;
  int cases = 0;
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    for (int nth = 1; nth < 100; nth++) {
      char ident[48];
      snprintf(ident, sizeof ident, "db.ccrash%zu_%d", k, nth);
      paimon_table *t = three_groups(ident, NULL);
      paimon_commit_messages *a = NULL;
      paimon_compact_result r;
      CHECK_OK(paimon_commit_messages_new(&a, &err), &err);
      CHECK_OK(paimon_table_compact_prepare(t, &o, a, &r, &err), &err);
      commit_msgs(t, staged(t, AGE, AGE_ROW, "2,31"));
      int files = count_data_files(t); /* with the compaction's file */
      int64_t snap = latest_snapshot(t);
      uint64_t before = cp_fs_op_count(t->fs, ops[k]);
      cp_fs_inject_fault(t->fs, ops[k], nth, PAIMON_EIO);
      int rc = commit_err(t, a, &err);
      bool hit = cp_fs_op_count(t->fs, ops[k]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[k], 0, 0);
      CHECK_READ(t, "id,age", want);
      if (rc && latest_snapshot(t) == snap) {
        CHECK_INT(count_data_files(t), files);
        CHECK_OK(commit_err(t, a, &err), &err);
      }
      CHECK_INT(latest_snapshot(t), snap + 1);
      CHECK_INT(count_data_files(t), files + 1); /* the rebased file */
      CHECK_READ(t, "id,age", want);
      paimon_commit_messages_free(a);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 20);
}

int main(void) {
  setup_catalog("rebase");
  RUN(test_rebased_after_compaction);
  RUN(test_other_column_kept);
  RUN(test_logical_conflict_not_hidden);
  RUN(test_given_up);
  RUN(test_several_staged_files);
  RUN(test_crash_at_each_step);
  RUN(test_compaction_side_crash);
  teardown_catalog();
  TEST_MAIN_END();
}
