/* Tests of compaction (include/cpaimon/compact.h, spec/maintenance-and-blob.md §1.2–1.5): Java's
 * planner test vectors (DataEvolutionCompactCoordinatorTest, with every file weighing exactly
 * source.split.open-file-cost), the file a task writes, deletion vectors moved onto it, Java's
 * commit conflicts, the errors, and a failure at every I/O step leaving the table as it was.
 * Interop with Java Paimon and pypaimon is in tests/python/test_compact.py. */
#include "base/fs.h"
#include "cpaimon/compact.h"
#include "cpaimon/delete.h"
#include "table/dv.h"
#include "table/file_store.h"
#include "table/store.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT>"
static const char *const COLS[] = {"id INT", "name STRING", "age INT", NULL};
static const char *const AGE[] = {"age"};

/* Three appends of 2 rows each: groups [0,1] [2,3] [4,5], one file each. */
static paimon_table *three_groups(const char *ident, const char *const *opts) {
  paimon_table *t = create_table(ident, COLS, NULL, opts);
  append_rows(t, ROW, "1,a,10;2,b,20");
  append_rows(t, ROW, "3,c,30;4,d,40");
  append_rows(t, ROW, "5,e,50;6,f,60");
  return t;
}

/* Compacts with each file weighing 100 KiB (the open cost; every test file is smaller), the
 * target in KiB and min-file-num. */
static int compact_with(paimon_table *t, const char *target_kb, const char *min_files,
                        paimon_compact_result *r, paimon_error *err) {
  char target[32];
  snprintf(target, sizeof target, "%s kb", target_kb);
  const char *keys[] = {"target-file-size", "source.split.open-file-cost",
                        "compaction.min.file-num"};
  const char *values[] = {target, "100 kb", min_files};
  paimon_compact_options o = {NULL, keys, values, 3};
  return paimon_table_compact(t, &o, r, err);
}

/* The live files as "first_row_id+row_count:source" in range order. */
static char *layout(paimon_table *t) {
  paimon_error err;
  int64_t id = latest_snapshot(t);
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec v = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, id, &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &v, &err), &err);
  /* insertion sort by (first_row_id, row_count, source) */
  for (size_t i = 1; i < v.n; i++)
    for (size_t j = i; j > 0; j--) {
      const cp_data_file_meta *a = &v.items[j - 1].file, *b = &v.items[j].file;
      if (a->first_row_id < b->first_row_id ||
          (a->first_row_id == b->first_row_id && a->row_count <= b->row_count))
        break;
      cp_manifest_entry tmp = v.items[j];
      v.items[j] = v.items[j - 1];
      v.items[j - 1] = tmp;
    }
  cp_buf out = CP_BUF_INIT;
  for (size_t i = 0; i < v.n; i++) {
    const cp_data_file_meta *f = &v.items[i].file;
    cp_buf_appendf(&out, NULL, "%s%lld+%lld:%s", i ? " " : "", (long long)f->first_row_id,
                   (long long)f->row_count, f->file_source == CP_FILE_SOURCE_COMPACT ? "C" : "A");
  }
  cp_buf_nul_terminate(&out, NULL);
  cp_entry_vec_free(&v);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  return out.data ? (char *)out.data : strdup("");
}

#define CHECK_LAYOUT(t, want)                                                                      \
  do {                                                                                             \
    char *got_ = layout(t);                                                                        \
    CHECK_STR(got_, (want));                                                                       \
    free(got_);                                                                                    \
  } while (0)

/* testCompactPlanner: target 199 (two files reach 200 > 199) compacts the first two; the third is
 * alone, below min-file-num 2. Target 200 takes all three. */
static void test_planner_vectors(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = three_groups("db.plan199", NULL);
  CHECK_OK(compact_with(t, "199", "2", &r, &err), &err);
  CHECK_INT(r.tasks, 1);
  CHECK_INT(r.files_before, 2);
  CHECK_LAYOUT(t, "0+4:C 4+2:A");
  CHECK_READ(t, "id,age,_ROW_ID", "1|10|0\n2|20|1\n3|30|2\n4|40|3\n5|50|4\n6|60|5");
  paimon_table_free(t);

  t = three_groups("db.plan200", NULL);
  CHECK_OK(compact_with(t, "200", "2", &r, &err), &err);
  CHECK_INT(r.tasks, 1);
  CHECK_INT(r.files_before, 3);
  CHECK_INT(r.rows, 6);
  CHECK_LAYOUT(t, "0+6:C");
  CHECK(r.snapshot_id == latest_snapshot(t));
  paimon_table_free(t);

  /* testCompactPlannerSkipsLargeFiles: a group above the target is never bundled, and one file
   * alone is below min-file-num: nothing to do, no snapshot. */
  t = three_groups("db.plan_large", NULL);
  CHECK_OK(compact_with(t, "50", "2", &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  CHECK_INT(r.snapshot_id, 0);
  CHECK_INT(latest_snapshot(t), 3);
  /* Default min-file-num (5): three files are not enough. */
  CHECK_OK(paimon_table_compact(t, NULL, &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  CHECK_LAYOUT(t, "0+2:A 2+2:A 4+2:A");
  paimon_table_free(t);
}

/* Partial-column files count as normal files of their group: a group of a base file and an
 * update is compacted alone with min-file-num 2; the new file holds every column, the inputs'
 * min/max sequence numbers, and every row reads _SEQUENCE_NUMBER = the max (Java's rule). */
static void test_groups_with_updates(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = three_groups("db.updates", NULL);
  paimon_commit_messages *m = NULL;
  CHECK_OK(update_rows(t, AGE, 1, "ROW<_ROW_ID BIGINT, age INT>", "2,31", &m, &err), &err);
  commit_msgs(t, m); /* snapshot 4: a partial file on [2,3] */
  CHECK_READ(t, "id,age,_ROW_ID,_SEQUENCE_NUMBER",
             "1|10|0|1\n2|20|1|1\n3|31|2|4\n4|40|3|4\n5|50|4|3\n6|60|5|3");
  CHECK_OK(compact_with(t, "50", "2", &r, &err), &err); /* every group above the target */
  CHECK_INT(r.tasks, 1);
  CHECK_LAYOUT(t, "0+2:A 2+2:C 4+2:A");
  CHECK_READ(t, "id,name,age,_ROW_ID,_SEQUENCE_NUMBER",
             "1|a|10|0|1\n2|b|20|1|1\n3|c|31|2|4\n4|d|40|3|4\n5|e|50|4|3\n6|f|60|5|3");
  /* All of it: [0,5] from seq 1..4. */
  CHECK_OK(compact_with(t, "100000", "2", &r, &err), &err);
  CHECK_LAYOUT(t, "0+6:C");
  CHECK_READ(t, "id,age,_SEQUENCE_NUMBER", "1|10|4\n2|20|4\n3|31|4\n4|40|4\n5|50|4\n6|60|4");
  int64_t snap = latest_snapshot(t);
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, snap, &s, &err), &err);
  if (s) {
    CHECK_INT(s->commit_kind, CP_COMMIT_COMPACT);
    CHECK_INT(s->next_row_id, 6);
  }
  cp_snapshot_free(s);
  paimon_table_free(t);
}

/* Deletion vectors are moved, not applied: deleted rows stay in the new file and stay deleted. */
static void test_deletion_vectors_move(void) {
  static const char *const opts[] = {"deletion-vectors.enabled=true", NULL};
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = three_groups("db.dv", opts);
  const int64_t ids[] = {1, 4};
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_delete_by_row_ids(t, ids, 2, &m, &err), &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,_ROW_ID", "1|0\n3|2\n4|3\n6|5");
  CHECK_OK(compact_with(t, "100000", "2", &r, &err), &err);
  CHECK_LAYOUT(t, "0+6:C");
  CHECK_READ(t, "id,_ROW_ID", "1|0\n3|2\n4|3\n6|5");
  /* One DV index file, naming only the new file, with positions 1 and 4. */
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, latest_snapshot(t), &s, &err), &err);
  if (s) CHECK_OK(cp_dv_index_entries(t, s, &arena, &idx, &err), &err);
  CHECK_INT(idx.n, 1);
  if (idx.n == 1) {
    CHECK_INT(idx.items[0].n_dv_ranges, 1);
    if (idx.items[0].n_dv_ranges == 1) CHECK_INT(idx.items[0].dv_ranges[0].cardinality, 2);
  }
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  paimon_table_free(t);
}

/* Java's conflicts: a second compaction of the same files loses ("File deletion conflicts
 * detected!"); an update committed on the old boundaries in between makes a merging compaction
 * lose (row-range conflict); one on the same boundaries survives the compaction (it is newer). */
static void test_conflicts(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = three_groups("db.conflicts", NULL);
  const char *keys[] = {"compaction.min.file-num"}, *values[] = {"2"};
  paimon_compact_options o = {NULL, keys, values, 1};
  paimon_commit_messages *a = NULL, *b = NULL;
  CHECK_OK(paimon_commit_messages_new(&a, &err), &err);
  CHECK_OK(paimon_commit_messages_new(&b, &err), &err);
  CHECK_OK(paimon_table_compact_prepare(t, &o, a, &r, &err), &err);
  CHECK_OK(paimon_table_compact_prepare(t, &o, b, &r, &err), &err);
  int files = count_data_files(t);
  commit_msgs(t, a);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_ERR(paimon_commit_commit(c, b, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "File deletion conflicts detected! Give up committing.");
  CHECK_OK(paimon_commit_abort(c, b, &err), &err);
  CHECK_INT(count_data_files(t), files - 1);
  paimon_commit_free(c);
  paimon_commit_messages_free(b);
  paimon_table_free(t);

  /* An update between planning and committing, on the old group boundaries: the range check
   * fails, and the update is rebased onto the compacted range (Spark's compaction-side rewriter,
   * maintenance-and-blob.md §2.3): a partial file of `age` over [0,5] replaces it, newer than the
   * compacted file; with deletion vectors it is given up and the compaction loses. */
  for (int dv = 0; dv < 2; dv++) {
    static const char *const dv_opts[] = {"deletion-vectors.enabled=true", NULL};
    t = three_groups(dv ? "db.conflicts2dv" : "db.conflicts2", dv ? dv_opts : NULL);
    CHECK_OK(paimon_commit_messages_new(&a, &err), &err);
    CHECK_OK(paimon_table_compact_prepare(t, &o, a, &r, &err), &err); /* [0,5] */
    paimon_commit_messages *m = NULL;
    CHECK_OK(update_rows(t, AGE, 1, "ROW<_ROW_ID BIGINT, age INT>", "2,31", &m, &err), &err);
    commit_msgs(t, m);
    files = count_data_files(t);
    CHECK_OK(paimon_commit_new(&c, t, &err), &err);
    if (dv) {
      CHECK_ERR(paimon_commit_commit(c, a, &err), PAIMON_ECONFLICT);
      CHECK_CONTAINS(err.message, "For Data Evolution table, multiple 'MERGE INTO' and 'COMPACT' "
                                  "operations have encountered conflicts, data files: [");
      paimon_commit_abort(c, a, NULL);
      CHECK_INT(count_data_files(t), files - 1);
    } else {
      CHECK_OK(paimon_commit_commit(c, a, &err), &err);
      CHECK_LAYOUT(t, "0+6:C 0+6:A");
      CHECK_INT(count_data_files(t), files + 1); /* the rebased file (the others stay for
                                                  * the snapshots that still use them) */
      CHECK_READ(t, "id,age,_SEQUENCE_NUMBER", "1|10|4\n2|20|4\n3|31|4\n4|40|4\n5|50|4\n6|60|4");
    }
    paimon_commit_free(c);
    paimon_commit_messages_free(a);
    CHECK_READ(t, "id,age", "1|10\n2|20\n3|31\n4|40\n5|50\n6|60");
    paimon_table_free(t);
  }

  /* A compaction of one group, and an update of that group in between: both stay. */
  paimon_commit_messages *m = NULL;
  t = three_groups("db.conflicts3", NULL);
  CHECK_OK(update_rows(t, AGE, 1, "ROW<_ROW_ID BIGINT, age INT>", "4,51", &m, &err), &err);
  commit_msgs(t, m);
  const char *k2[] = {"compaction.min.file-num", "target-file-size", "source.split.open-file-cost"};
  const char *v2[] = {"2", "50 kb", "100 kb"}; /* every group above the target */
  paimon_compact_options o2 = {NULL, k2, v2, 3};
  CHECK_OK(paimon_commit_messages_new(&a, &err), &err);
  CHECK_OK(paimon_table_compact_prepare(t, &o2, a, &r, &err), &err); /* [4,5]: 2 files */
  CHECK_INT(r.tasks, 1);
  CHECK_OK(update_rows(t, AGE, 1, "ROW<_ROW_ID BIGINT, age INT>", "5,62", &m, &err), &err);
  commit_msgs(t, m);
  commit_msgs(t, a);
  CHECK_READ(t, "id,age", "1|10\n2|20\n3|30\n4|40\n5|51\n6|62");
  paimon_table_free(t);
}

static void test_errors(void) {
  static const char *const plain[] = {"row-tracking.enabled=false", "data-evolution.enabled=false",
                                      NULL};
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = create_table("db.plain", COLS, NULL, plain);
  CHECK_ERR(paimon_table_compact(t, NULL, &r, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "table db.plain");
  paimon_table_free(t);

  t = three_groups("db.errors", NULL);
  const char *k[] = {"data-evolution.compaction.rewrite-row-ids"}, *v[] = {"true"};
  paimon_compact_options o = {NULL, k, v, 1};
  CHECK_ERR(paimon_table_compact(t, &o, &r, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Option 'data-evolution.compaction.rewrite-row-ids=true' is no "
                              "longer supported.");
  const char *k2[] = {"compaction.min.file-num"}, *v2[] = {"many"};
  paimon_compact_options o2 = {NULL, k2, v2, 1};
  CHECK_ERR(paimon_table_compact(t, &o2, &r, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'compaction.min.file-num' = 'many'");
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_partitions("id=1", &p, &err), &err);
  paimon_compact_options o3 = {p, NULL, NULL, 0};
  CHECK_ERR(paimon_table_compact(t, &o3, &r, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Only partition predicate is supported, your predicate is ");
  paimon_predicate_free(p);
  CHECK_ERR(paimon_predicate_partitions("dt", &p, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_predicate_partitions(";", &p, &err), PAIMON_EINVAL);
  CHECK_INT(latest_snapshot(t), 3);
  CHECK_LAYOUT(t, "0+2:A 2+2:A 4+2:A");
  paimon_table_free(t);
}

/* Every I/O call of a compaction fails in turn (as a crash there would stop it): the table reads
 * as before, at its last snapshot or at the compacted one, and no file the table references is
 * gone; once the fault is lifted, the compaction completes. */
static void test_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_OPEN_READ, CP_FS_OP_READ,   CP_FS_OP_CREATE,
                                 CP_FS_OP_WRITE,     CP_FS_OP_FSYNC,  CP_FS_OP_CLOSE,
                                 CP_FS_OP_RENAME,    CP_FS_OP_DELETE, CP_FS_OP_LIST};
  static const char *const opts[] = {"deletion-vectors.enabled=true", NULL};
  const char *want = "1|10|0\n3|30|2\n4|40|3\n5|50|4\n6|60|5";
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 100; nth++) {
      char ident[48];
      snprintf(ident, sizeof ident, "db.crash%zu_%d", o, nth);
      paimon_table *t = three_groups(ident, opts);
      const int64_t del[] = {1};
      paimon_commit_messages *m = NULL;
      CHECK_OK(paimon_delete_by_row_ids(t, del, 1, &m, &err), &err);
      commit_msgs(t, m);
      paimon_compact_result r;
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      compact_with(t, "100000", "2", &r, &err); /* fails, or tolerates the fault */
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      CHECK_READ(t, "id,age,_ROW_ID", want);
      CHECK_OK(compact_with(t, "100000", "2", &r, &err), &err);
      CHECK_LAYOUT(t, "0+6:C");
      CHECK_READ(t, "id,age,_ROW_ID", want);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 20);
}

int main(void) {
  setup_catalog("compact");
  RUN(test_planner_vectors);
  RUN(test_groups_with_updates);
  RUN(test_deletion_vectors_move);
  RUN(test_conflicts);
  RUN(test_errors);
  RUN(test_crash_at_each_step);
  teardown_catalog();
  TEST_MAIN_END();
}
