/* Tests of append compaction on row-tracking tables without data evolution (compact.h,
 * spec/maintenance-and-blob.md §1.6): Java's AppendCompactCoordinator packing (small files by
 * size, bins of at least twice the target, leftovers from compaction.min.file-num; with deletion
 * vectors the files of one DV index file always compacted), rows keeping _ROW_ID and
 * _SEQUENCE_NUMBER physically, DVs applied and dropped, Java's file-deletion conflicts, errors,
 * and a failure at every I/O step leaving the table as it was. Interop with Java Paimon 1.4.2
 * is in tests/python/test_compact_append.py. */
#include "base/fs.h"
#include "cpaimon/compact.h"
#include "cpaimon/rowops.h"
#include "table/dv.h"
#include "table/file_store.h"
#include "table/store.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, name STRING, age INT>"
static const char *const COLS[] = {"id INT", "name STRING", "age INT", NULL};
static const char *const RT[] = {"data-evolution.enabled=false", NULL};
static const char *const RT_DV[] = {"data-evolution.enabled=false", "deletion-vectors.enabled=true",
                                    NULL};
#define IDS "id,age,_ROW_ID,_SEQUENCE_NUMBER"

/* `n` appends of 2 rows each (ids 2k+1, 2k+2; row ids 2k, 2k+1; sequence k+1): one file each. */
static paimon_table *appended(const char *ident, const char *const *opts, int n) {
  paimon_table *t = create_table(ident, COLS, NULL, opts);
  for (int k = 0; k < n; k++) {
    char rows[96];
    snprintf(rows, sizeof rows, "%d,a,%d;%d,b,%d", 2 * k + 1, 10 * k, 2 * k + 2, 10 * k + 1);
    append_rows(t, ROW, rows);
  }
  return t;
}

static int cmp_line(const void *x, const void *y) {
  long a = strtol(*(char *const *)x, NULL, 10), b = strtol(*(char *const *)y, NULL, 10);
  return a < b ? -1 : a > b;
}

/* read_text with the rows sorted by their first column (an int): compaction reorders them. */
static char *sorted_text(paimon_table *t, const char *cols) {
  char *text = read_text(t, cols);
  char *lines[256];
  size_t n = 0;
  char *save = NULL;
  for (char *l = strtok_r(text, "\n", &save); l && n < 256; l = strtok_r(NULL, "\n", &save))
    lines[n++] = l;
  qsort(lines, n, sizeof *lines, cmp_line);
  cp_buf out = CP_BUF_INIT;
  for (size_t i = 0; i < n; i++) cp_buf_appendf(&out, NULL, "%s%s", i ? "\n" : "", lines[i]);
  cp_buf_nul_terminate(&out, NULL);
  free(text);
  return out.data ? (char *)out.data : strdup("");
}

#define CHECK_SORTED(t, cols, want)                                                                \
  do {                                                                                             \
    char *got_ = sorted_text((t), (cols));                                                         \
    CHECK_STR(got_, (want));                                                                       \
    free(got_);                                                                                    \
  } while (0)

/* Deletes rows by id through the row-change API (copy-on-write, or DVs) and commits. */
static void delete_ids(paimon_table *t, const int64_t *ids, size_t n) {
  paimon_error err;
  paimon_row_changes *rc = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  if (rc) CHECK_OK(paimon_row_changes_delete(rc, ids, n, &err), &err);
  if (rc) CHECK_OK(paimon_row_changes_prepare_commit(rc, &m, &err), &err);
  paimon_row_changes_free(rc);
  commit_msgs(t, m);
}

/* Compacts with every file weighing the 100 KiB open cost plus its (tiny) size, the target in
 * KiB and min-file-num; further "k=v" pairs may follow in `extra` (NULL-terminated or NULL). */
static int compact_with(paimon_table *t, const char *target_kb, const char *min_files,
                        const char *const *extra, paimon_compact_result *r, paimon_error *err) {
  char target[32];
  snprintf(target, sizeof target, "%s kb", target_kb);
  const char *keys[8] = {"target-file-size", "source.split.open-file-cost",
                         "compaction.min.file-num"};
  const char *values[8] = {target, "100 kb", min_files};
  char kbuf[4][64];
  size_t n = 3;
  for (size_t i = 0; extra && extra[i] && n < 7; i++, n++) {
    const char *eq = strchr(extra[i], '=');
    snprintf(kbuf[i], sizeof kbuf[i], "%.*s", (int)(eq - extra[i]), extra[i]);
    keys[n] = kbuf[i];
    values[n] = eq + 1;
  }
  paimon_compact_options o = {NULL, keys, values, n};
  return paimon_table_compact(t, &o, r, err);
}

/* The live files as "rows:source[:id]" (id = has physical _ROW_ID), sorted. */
static char *layout(paimon_table *t) {
  paimon_error err;
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec v = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, latest_snapshot(t), &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &v, &err), &err);
  char **items = calloc(v.n + 1, sizeof *items);
  for (size_t i = 0; i < v.n; i++) {
    const cp_data_file_meta *f = &v.items[i].file;
    char buf[64];
    snprintf(buf, sizeof buf, "%lld:%s%s", (long long)f->row_count,
             f->file_source == CP_FILE_SOURCE_COMPACT ? "C" : "A",
             cp_data_file_writes_col(f, "_ROW_ID") ? ":id" : "");
    items[i] = strdup(buf);
  }
  for (size_t i = 1; i < v.n; i++)
    for (size_t j = i; j > 0 && strcmp(items[j - 1], items[j]) > 0; j--) {
      char *tmp = items[j];
      items[j] = items[j - 1];
      items[j - 1] = tmp;
    }
  cp_buf out = CP_BUF_INIT;
  for (size_t i = 0; i < v.n; i++) {
    cp_buf_appendf(&out, NULL, "%s%s", i ? " " : "", items[i]);
    free(items[i]);
  }
  free(items);
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

static int64_t snapshot_kind(paimon_table *t, int64_t *next_row_id) {
  paimon_error err;
  cp_snapshot *s = NULL;
  int64_t kind = -1;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, latest_snapshot(t), &s, &err), &err);
  if (s) {
    kind = s->commit_kind;
    *next_row_id = s->next_row_id;
  }
  cp_snapshot_free(s);
  return kind;
}

/* Packing: each file weighs ~100 KiB, so with a 150 KiB target a bin holds 3 files (≥ 300 KiB);
 * of 7 files two bins are tasks and the last file is left (below min-file-num, and alone). */
static void test_packing(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = appended("db.pack", RT, 7);
  char *before = sorted_text(t, IDS);
  CHECK_OK(compact_with(t, "150", "5", NULL, &r, &err), &err);
  CHECK_INT(r.tasks, 2);
  CHECK_INT(r.files_before, 6);
  CHECK_INT(r.files_after, 2);
  CHECK_INT(r.rows, 12);
  CHECK_LAYOUT(t, "2:A 6:C:id 6:C:id");
  char *after = sorted_text(t, IDS);
  CHECK_STR(after, before); /* ids and sequence numbers kept */
  int64_t next = 0;
  CHECK_INT(snapshot_kind(t, &next), CP_COMMIT_COMPACT);
  CHECK_INT(next, 14);
  CHECK_INT(r.snapshot_id, latest_snapshot(t));
  free(after);
  /* The compacted files are not small any more relative to a 1 KiB target; with a big target
   * (every file small) and min-file-num 3 the three files are the leftover bin: one task. */
  CHECK_OK(compact_with(t, "1", "3", NULL, &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  CHECK_OK(compact_with(t, "100000", "3", NULL, &r, &err), &err);
  CHECK_INT(r.tasks, 1);
  CHECK_LAYOUT(t, "14:C:id");
  after = sorted_text(t, IDS);
  CHECK_STR(after, before);
  free(after);
  free(before);
  paimon_table_free(t);

  /* Too few files (default min-file-num 5 of 4), or none small enough: nothing, no snapshot. */
  t = appended("db.pack_few", RT, 4);
  CHECK_OK(paimon_table_compact(t, NULL, &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  CHECK_INT(r.snapshot_id, 0);
  static const char *const big[] = {"compaction.small-file-ratio=0", NULL};
  CHECK_OK(compact_with(t, "100000", "2", big, &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  /* compaction.file-num-limit bounds the candidates. */
  static const char *const limit[] = {"compaction.file-num-limit=3", NULL};
  CHECK_OK(compact_with(t, "100000", "2", limit, &r, &err), &err);
  CHECK_INT(r.files_before, 3);
  CHECK_LAYOUT(t, "2:A 6:C:id");
  CHECK_INT(latest_snapshot(t), 5);
  paimon_table_free(t);
}

/* Rows moved by copy-on-write updates (physical ids, sequence of the update) keep both; deleted
 * rows are not there to keep. */
static void test_rows_keep_ids(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = appended("db.keep", RT, 3);
  paimon_row_changes *rc = NULL;
  paimon_commit_messages *m = NULL;
  tbatch b = make_batch("ROW<_ROW_ID BIGINT, age INT>", "2,31");
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  CHECK_OK(paimon_row_changes_update(rc, &b.schema, &b.array, &err), &err);
  CHECK_OK(paimon_row_changes_prepare_commit(rc, &m, &err), &err);
  paimon_row_changes_free(rc);
  tbatch_free(&b);
  commit_msgs(t, m); /* snapshot 4 */
  const int64_t del[] = {5};
  delete_ids(t, del, 1);
  const char *want = "1|0|0|1\n2|1|1|1\n3|31|2|4\n4|11|3|2\n5|20|4|3";
  CHECK_SORTED(t, IDS, want);
  CHECK_OK(compact_with(t, "100000", "2", NULL, &r, &err), &err);
  CHECK_INT(r.files_before, 3);
  CHECK_LAYOUT(t, "5:C:id");
  CHECK_SORTED(t, IDS, want);
  /* Writers go on: an append gets fresh ids, a delete finds the compacted rows. */
  append_rows(t, ROW, "9,z,90");
  const int64_t del2[] = {2};
  delete_ids(t, del2, 1);
  CHECK_SORTED(t, "id,_ROW_ID", "1|0\n2|1\n4|3\n5|4\n9|6");
  paimon_table_free(t);
}

/* With deletion vectors the deleted rows are dropped and the DVs go; a large file whose DV
 * deletes more than compaction.delete-ratio-threshold of it is compacted alone. */
static void test_deletion_vectors_applied(void) {
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = appended("db.dv", RT_DV, 3);
  const int64_t ids[] = {1, 4};
  delete_ids(t, ids, 2);
  const char *want = "1|0|0|1\n3|10|2|2\n4|11|3|2\n6|21|5|3";
  CHECK_SORTED(t, IDS, want);
  /* Nothing is small (ratio 0): only the delete ratio picks files; 1 of 2 rows is above 0.2 but
   * not above 0.6. */
  static const char *const high[] = {"compaction.small-file-ratio=0",
                                     "compaction.delete-ratio-threshold=0.6", NULL};
  CHECK_OK(compact_with(t, "100000", "5", high, &r, &err), &err);
  CHECK_INT(r.tasks, 0);
  static const char *const ratio[] = {"compaction.small-file-ratio=0", NULL};
  CHECK_OK(compact_with(t, "100000", "5", ratio, &r, &err), &err);
  CHECK_INT(r.tasks, 1); /* both files of the one DV index file, whatever min-file-num says */
  CHECK_INT(r.files_before, 2);
  CHECK_LAYOUT(t, "2:A 2:C:id");
  CHECK_SORTED(t, IDS, want);
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, latest_snapshot(t), &s, &err), &err);
  if (s) CHECK_OK(cp_dv_index_entries(t, s, &arena, &idx, &err), &err);
  CHECK_INT(idx.n, 0);
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  /* A later delete on a compacted file is a DV on it. */
  const int64_t more[] = {3};
  delete_ids(t, more, 1);
  CHECK_SORTED(t, "id,_ROW_ID", "1|0\n3|2\n6|5");
  paimon_table_free(t);
}

/* Java's conflicts: compacting the same files twice loses the second time; a copy-on-write
 * update of a compacted file in between makes the compaction lose and the update stays. */
static void test_conflicts(void) {
  paimon_error err;
  paimon_compact_result r;
  const char *keys[] = {"compaction.min.file-num"}, *values[] = {"2"};
  paimon_compact_options o = {NULL, keys, values, 1};
  paimon_table *t = appended("db.conflicts", RT, 3);
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

  t = appended("db.conflicts2", RT, 3);
  CHECK_OK(paimon_commit_messages_new(&a, &err), &err);
  CHECK_OK(paimon_table_compact_prepare(t, &o, a, &r, &err), &err);
  const int64_t del[] = {2};
  delete_ids(t, del, 1);
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_ERR(paimon_commit_commit(c, a, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, "File deletion conflicts detected! Give up committing.");
  paimon_commit_abort(c, a, NULL);
  paimon_commit_free(c);
  paimon_commit_messages_free(a);
  CHECK_SORTED(t, "id,_ROW_ID", "1|0\n2|1\n4|3\n5|4\n6|5");
  paimon_table_free(t);
}

static void test_errors(void) {
  static const char *const plain[] = {"row-tracking.enabled=false", "data-evolution.enabled=false",
                                      NULL};
  paimon_error err;
  paimon_compact_result r;
  paimon_table *t = create_table("db.norowids", COLS, NULL, plain);
  CHECK_ERR(paimon_table_compact(t, NULL, &r, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "table db.norowids");
  CHECK_CONTAINS(err.message, "row tracking");
  paimon_table_free(t);

  t = appended("db.errors", RT, 3);
  static const char *const bad[] = {"compaction.small-file-ratio=half", NULL};
  CHECK_ERR(compact_with(t, "100", "2", bad, &r, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'compaction.small-file-ratio' = 'half' is not a number");
  static const char *const limit[] = {"compaction.file-num-limit=0", NULL};
  CHECK_ERR(compact_with(t, "100", "2", limit, &r, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "compaction.file-num-limit");
  CHECK_INT(latest_snapshot(t), 3);
  CHECK_LAYOUT(t, "2:A 2:A 2:A");
  paimon_table_free(t);
}

/* Every I/O call of a compaction fails in turn: the table reads as before and, once the fault is
 * lifted, the compaction completes. */
static void test_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_OPEN_READ, CP_FS_OP_READ,   CP_FS_OP_CREATE,
                                 CP_FS_OP_WRITE,     CP_FS_OP_FSYNC,  CP_FS_OP_CLOSE,
                                 CP_FS_OP_RENAME,    CP_FS_OP_DELETE, CP_FS_OP_LIST};
  const char *want = "1|0|0|1\n3|10|2|2\n4|11|3|2\n5|20|4|3\n6|21|5|3";
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 100; nth++) {
      char ident[48];
      snprintf(ident, sizeof ident, "db.crash%zu_%d", o, nth);
      paimon_table *t = appended(ident, RT_DV, 3);
      const int64_t del[] = {1};
      delete_ids(t, del, 1);
      paimon_compact_result r;
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      compact_with(t, "100000", "2", NULL, &r, &err); /* fails, or tolerates the fault */
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      CHECK_SORTED(t, IDS, want);
      CHECK_OK(compact_with(t, "100000", "2", NULL, &r, &err), &err);
      /* The DV group alone and the rest: a second run merges those two files. */
      char *l = layout(t);
      CHECK(strcmp(l, "1:C:id 4:C:id") == 0 || strcmp(l, "5:C:id") == 0);
      free(l);
      CHECK_SORTED(t, IDS, want);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 20);
}

int main(void) {
  setup_catalog("compact_append");
  RUN(test_packing);
  RUN(test_rows_keep_ids);
  RUN(test_deletion_vectors_applied);
  RUN(test_conflicts);
  RUN(test_errors);
  RUN(test_crash_at_each_step);
  teardown_catalog();
  TEST_MAIN_END();
}
