/* Tests of the data-evolution commit checks (table/conflict.h, spec/data-evolution.md §4.2–4.5),
 * after pypaimon's conflict_detection_test.py: through commits (logical conflicts of updates that
 * read the same snapshot; new appends never conflict; a staged update whose group was removed)
 * and by calling the checker on crafted entries (range conflicts; ranges-only existence, Java's
 * rule, DIVERGENCE #7). Every failed commit leaves the table as it was. */
#include "meta/snapshot.h"
#include "table/conflict.h"
#include "table/file_store.h"
#include "table/store.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT>"

static const char *const COLS[] = {"id INT", "name STRING", "age INT", NULL};

static const char *LOGICAL =
    "For Data Evolution table, multiple 'MERGE INTO' operations have encountered conflicts, "
    "updating the same file, which can render some updates ineffective.";

static paimon_table *two_groups(const char *ident) {
  paimon_table *t = create_table(ident, COLS, NULL, NULL);
  append_rows(t, ROW, "1,a,10;2,b,20");
  append_rows(t, ROW, "3,c,30;4,d,40;5,e,50");
  return t;
}

static paimon_commit_messages *staged(paimon_table *t, const char *col, const char *row_sql,
                                      const char *text) {
  paimon_error err;
  paimon_commit_messages *m = NULL;
  const char *cols[] = {col};
  CHECK_OK(update_rows(t, cols, 1, row_sql, text, &m, &err), &err);
  return m;
}

static int commit_status(paimon_table *t, paimon_commit_messages *m, paimon_error *err) {
  paimon_commit *c = NULL;
  int rc = paimon_commit_new(&c, t, err);
  if (!rc) rc = paimon_commit_commit(c, m, err);
  paimon_commit_free(c);
  return rc;
}

static void test_same_rows_same_column_conflicts(void) {
  paimon_table *t = two_groups("db.c1");
  paimon_commit_messages *a = staged(t, "age", "ROW<_ROW_ID BIGINT, age INT>", "0,100");
  /* disjoint rows of the same group and column: still a conflict (group granularity) */
  paimon_commit_messages *b = staged(t, "age", "ROW<_ROW_ID BIGINT, age INT>", "1,200");
  paimon_error err;
  CHECK_OK(commit_status(t, a, &err), &err);
  CHECK_ERR(commit_status(t, b, &err), PAIMON_ECONFLICT);
  CHECK_STR(err.message, LOGICAL);
  CHECK_INT(latest_snapshot(t), 3);
  CHECK_READ(t, "age", "100\n20\n30\n40\n50");
  /* the loser's files are still there until aborted */
  int files = count_data_files(t);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_abort(c, b, &err), &err);
  paimon_commit_free(c);
  CHECK_INT(count_data_files(t), files - 1);
  paimon_commit_messages_free(a);
  paimon_commit_messages_free(b);
  paimon_table_free(t);
}

static void test_no_conflict_cases(void) {
  paimon_table *t = two_groups("db.c2");
  paimon_commit_messages *age0 = staged(t, "age", "ROW<_ROW_ID BIGINT, age INT>", "0,100");
  paimon_commit_messages *name0 = staged(t, "name", "ROW<_ROW_ID BIGINT, name STRING>", "1,B");
  paimon_commit_messages *age3 = staged(t, "age", "ROW<_ROW_ID BIGINT, age INT>", "3,400");
  paimon_error err;
  CHECK_OK(commit_status(t, age0, &err), &err);  /* group [0,1] age */
  CHECK_OK(commit_status(t, name0, &err), &err); /* same rows, other column */
  append_rows(t, ROW, "6,f,60");                 /* new rows: ids >= the check snapshot's next */
  CHECK_OK(commit_status(t, age3, &err), &err);  /* other group, same column */
  CHECK_READ(t, "name,age,_ROW_ID", "a|100|0\nB|20|1\nc|30|2\nd|400|3\ne|50|4\nf|60|5");
  paimon_commit_messages_free(age0);
  paimon_commit_messages_free(name0);
  paimon_commit_messages_free(age3);
  paimon_table_free(t);
}

/* A full-schema write (write_cols null) of an overlapping range conflicts with any column: a
 * shard updater without update columns writes such files. */
static void test_null_write_cols_conflicts(void) {
  paimon_table *t = two_groups("db.c3");
  paimon_commit_messages *name0 = staged(t, "name", "ROW<_ROW_ID BIGINT, name STRING>", "0,X");
  paimon_error err;
  paimon_update *u = NULL;
  paimon_shard_updater *s = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  CHECK_OK(paimon_shard_updater_new(&s, u, 0, 2, &err), &err); /* group [0, 1] */
  CHECK_INT(paimon_shard_updater_row_count(s), 2);
  tbatch b = make_batch(ROW, "7,x,70;8,y,80");
  CHECK_OK(paimon_shard_updater_write(s, &b.schema, &b.array, &err), &err);
  paimon_commit_messages *full = NULL;
  CHECK_OK(paimon_shard_updater_prepare_commit(s, &full, &err), &err);
  CHECK(full && !full->items[0].new_files[0].has_write_cols);
  CHECK_OK(commit_status(t, full, &err), &err);
  CHECK_ERR(commit_status(t, name0, &err), PAIMON_ECONFLICT);
  CHECK_STR(err.message, LOGICAL);
  CHECK_READ(t, "id,name,age", "7|x|70\n8|y|80\n3|c|30\n4|d|40\n5|e|50");
  tbatch_free(&b);
  paimon_commit_messages_free(full);
  paimon_commit_messages_free(name0);
  paimon_shard_updater_free(s);
  paimon_update_free(u);
  paimon_table_free(t);
}

/* The live files of the latest snapshot (arena-owned). */
static void live(paimon_table *t, cp_arena *arena, cp_entry_vec *out, cp_snapshot **snap) {
  paimon_error err;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, latest_snapshot(t), snap, &err), &err);
  if (*snap)
    CHECK_OK(cp_snapshot_entries(t->fs, t->path, *snap, NULL, false, arena, out, &err), &err);
}

/* §4.3: a staged update whose group was removed by a concurrent overwrite (its file DELETEd). */
static void test_row_id_existence(void) {
  paimon_table *t = two_groups("db.c4");
  paimon_commit_messages *upd = staged(t, "age", "ROW<_ROW_ID BIGINT, age INT>", "0,100");
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  cp_snapshot *snap = NULL;
  live(t, &arena, &files, &snap);
  paimon_error err;
  paimon_commit_messages *drop = NULL;
  CHECK_OK(paimon_commit_messages_new(&drop, &err), &err);
  for (size_t i = 0; i < files.n; i++) {
    if (files.items[i].file.first_row_id != 0) continue;
    cp_commit_message m;
    memset(&m, 0, sizeof m);
    m.partition = files.items[i].partition;
    m.deleted_files = &files.items[i].file;
    m.n_deleted = 1;
    m.total_buckets = -1;
    m.check_from_snapshot = -1;
    CHECK_OK(cp_commit_messages_add(drop, &m, &err), &err);
  }
  CHECK_OK(commit_status(t, drop, &err), &err);
  CHECK_ERR(commit_status(t, upd, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "Row ID existence conflict: file '");
  CHECK_CONTAINS(err.message,
                 "' references firstRowId=0, rowCount=2 in bucket 0, but no matching file exists "
                 "in the current snapshot. The referenced file may have been rewritten by a "
                 "concurrent compaction or removed by an overwrite.");
  CHECK_INT(latest_snapshot(t), 3);
  CHECK_READ(t, "id", "3\n4\n5");
  cp_entry_vec_free(&files);
  cp_snapshot_free(snap);
  cp_arena_free(&arena);
  paimon_commit_messages_free(drop);
  paimon_commit_messages_free(upd);
  paimon_table_free(t);
}

/* The checker on crafted entries: ranges only (Java), §4.4 range conflicts. */
static void test_checker_ranges(void) {
  paimon_table *t = two_groups("db.c5");
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  cp_snapshot *snap = NULL;
  live(t, &arena, &files, &snap);
  paimon_error err;
  if (!snap || files.n != 2) {
    CHECK(false);
    return;
  }
  /* DIVERGENCE #7: an overlay of [0, 1] in bucket 1 passes Java's ranges-only check (pypaimon
   * would reject it: no file [0, 1] in bucket 1). */
  cp_manifest_entry e = files.items[0];
  e.file.file_name = "data-crafted-0.parquet";
  e.bucket = 1;
  CHECK_OK(cp_de_check_conflicts(t, snap, &e, 1, snap->id, false, NULL, &arena, &err), &err);
  /* The range must match a group exactly: [0, 2] straddles two groups. */
  e.file.row_count = 3;
  CHECK_ERR(cp_de_check_conflicts(t, snap, &e, 1, snap->id, false, NULL, &arena, &err),
            PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "firstRowId=0, rowCount=3 in bucket 1");
  /* A compaction's output may span groups that touch, but only in its own bucket (Java's
   * checkCompactRowIdExistence), and it must replace the files it overlaps (range check). */
  {
    cp_manifest_entry c[3] = {files.items[0], files.items[0], files.items[1]};
    int64_t last = files.items[0].file.first_row_id + files.items[0].file.row_count +
                   files.items[1].file.row_count;
    c[0].file.file_name = "data-compacted-0.parquet";
    c[0].file.file_source = CP_FILE_SOURCE_COMPACT;
    c[0].file.first_row_id = 0;
    c[0].file.row_count = last;
    c[1].kind = c[2].kind = CP_FILE_KIND_DELETE;
    CHECK_OK(cp_de_check_conflicts(t, snap, c, 3, -1, true, NULL, &arena, &err), &err);
    /* Without its DELETEs the old files overlap it. */
    CHECK_ERR(cp_de_check_conflicts(t, snap, c, 1, -1, true, NULL, &arena, &err), PAIMON_ECONFLICT);
    CHECK_CONTAINS(err.message, "multiple 'MERGE INTO' and 'COMPACT' operations");
    /* Past the live ranges, or in another bucket: the ids are not there. */
    c[0].file.row_count = last + 1;
    CHECK_ERR(cp_de_check_conflicts(t, snap, c, 3, -1, true, NULL, &arena, &err), PAIMON_ECONFLICT);
    CHECK_CONTAINS(err.message, "Row ID existence conflict: file 'data-compacted-0.parquet'");
    c[0].file.row_count = last;
    c[0].bucket = c[0].bucket + 1;
    CHECK_ERR(cp_de_check_conflicts(t, snap, c, 3, -1, true, NULL, &arena, &err), PAIMON_ECONFLICT);
    CHECK_CONTAINS(err.message, "Row ID existence conflict: file 'data-compacted-0.parquet'");
  }
  /* §4.4 over files beyond nextRowId (not checked for existence): overlapping, different. */
  cp_manifest_entry two[2] = {files.items[0], files.items[0]};
  two[0].file.file_name = "data-x.parquet";
  two[0].file.first_row_id = 5;
  two[0].file.row_count = 2;
  two[1].file.file_name = "data-y.parquet";
  two[1].file.first_row_id = 6;
  two[1].file.row_count = 2;
  CHECK_ERR(cp_de_check_conflicts(t, snap, two, 2, snap->id, false, NULL, &arena, &err),
            PAIMON_ECONFLICT);
  CHECK_STR(err.message, "For Data Evolution table, multiple 'MERGE INTO' and 'COMPACT' "
                         "operations have encountered conflicts, data files: [data-x.parquet "
                         "[5, 6], data-y.parquet [6, 7]]");
  /* Without a check snapshot §4.4 does not apply. */
  CHECK_OK(cp_de_check_conflicts(t, snap, two, 2, -1, false, NULL, &arena, &err), &err);
  /* A DELETE that names the file with other row ids than it has now. */
  cp_manifest_entry del = files.items[1];
  del.kind = CP_FILE_KIND_DELETE;
  del.file.first_row_id = 7;
  CHECK_ERR(cp_de_check_conflicts(t, snap, &del, 1, -1, false, NULL, &arena, &err),
            PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "Row ID existence conflict: DELETE for file '");
  CHECK_CONTAINS(err.message, "references firstRowId=7, rowCount=3 in bucket 0, but the current "
                              "file has firstRowId=2, rowCount=3.");
  cp_entry_vec_free(&files);
  cp_snapshot_free(snap);
  cp_arena_free(&arena);
  paimon_table_free(t);
}

int main(void) {
  setup_catalog("conflict");
  RUN(test_same_rows_same_column_conflicts);
  RUN(test_no_conflict_cases);
  RUN(test_null_write_cols_conflicts);
  RUN(test_row_id_existence);
  RUN(test_checker_ranges);
  teardown_catalog();
  TEST_MAIN_END();
}
