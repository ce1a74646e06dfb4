/* Crash safety of commits (spec/format.md §6.1–6.2): with the file-I/O fault hook
 * (cp_fs_inject_fault), every I/O call of a commit fails in turn — each create, write, fsync,
 * close, rename/link, directory listing, read and stat, including the LATEST hint update — for a
 * deletion-vector delete, a copy-on-write rewrite and a plain append. After each failure the table
 * reads exactly as its last published snapshot, the checker finds nothing wrong, and committing
 * the same messages again succeeds; leftovers are only orphans. The same is done for the I/O of
 * preparing a delete or a rewrite (index and data files), which must leave nothing behind. */
#include "arrow/schema.h"
#include "cpaimon/delete.h"
#include "cpaimon/rowops.h"
#include "dv_test_util.h"
#include "table/commit_message.h"

static const cp_fs_op commit_ops[] = {CP_FS_OP_CREATE,    CP_FS_OP_WRITE,  CP_FS_OP_FSYNC,
                                      CP_FS_OP_CLOSE,     CP_FS_OP_RENAME, CP_FS_OP_LINK,
                                      CP_FS_OP_MKDIRS,    CP_FS_OP_LIST,   CP_FS_OP_STAT,
                                      CP_FS_OP_OPEN_READ, CP_FS_OP_READ};
#define N_OPS (sizeof commit_ops / sizeof commit_ops[0])
/* The ops that change the file system (the first ones above); reads are failed in one scenario. */
#define N_WRITE_OPS 7

/* The rows as "id:row_id:seq,..." (the full visible state). */
static void state(paimon_table *t, char *buf, size_t size) {
  tu_rows r;
  paimon_error err;
  CHECK_OK(tu_read_at(t, NULL, 0, &r, &err), &err);
  tu_render(&r, buf, size);
}

typedef paimon_commit_messages *(*make_fn)(paimon_table *t, int step);

/* Commits the messages `make(t, step)` with the `nth` call of `op` failing. Returns whether the
 * fault fired. On a failed commit: the table must be unchanged and clean, and committing the same
 * messages again must succeed. */
static bool faulty_commit(paimon_table *t, make_fn make, int step, cp_fs_op op, int nth) {
  char before[4096], after[4096];
  state(t, before, sizeof before);
  int64_t latest = tu_latest(t);
  paimon_commit_messages *m = make(t, step);
  if (!m) return false;
  paimon_error err;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  uint64_t calls = cp_fs_op_count(t->fs, op);
  cp_fs_inject_fault(t->fs, op, nth, PAIMON_EIO);
  int rc = paimon_commit_commit(c, m, &err);
  cp_fs_inject_fault(t->fs, op, 0, 0);
  bool fired = cp_fs_op_count(t->fs, op) - calls >= (uint64_t)nth;
  if (rc) {
    CHECK(fired);
    CHECK_INT(tu_latest(t), latest);
    state(t, after, sizeof after);
    CHECK_STR(after, before);
    tu_check_clean(t);
    CHECK_OK(paimon_commit_commit(c, m, &err), &err); /* the next commit succeeds */
  }
  CHECK_INT(tu_latest(t), latest + 1);
  if (tu_latest(t) != latest + 1)
    fprintf(stderr, "  (%s #%d: rc %s: %s)\n", cp_fs_op_name(op), nth, paimon_status_name(rc),
            err.message);
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
  return fired;
}

/* Runs the commit of `make` once per (op, nth) until the nth call of every op no longer happens.
 * Returns how many faults fired. */
static int all_faults(paimon_table *t, make_fn make, int *step, size_t n_ops) {
  int fired = 0;
  for (size_t k = 0; k < n_ops; k++)
    for (int nth = 1; nth < 500; nth++) {
      bool f = faulty_commit(t, make, (*step)++, commit_ops[k], nth);
      fired += f;
      if (!f) break;
    }
  tu_check_clean(t); /* after the successful commits too */
  return fired;
}

/* ------------------------------------ the three commits ------------------------------------ */

static paimon_commit_messages *dv_delete(paimon_table *t, int step) {
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t id = step; /* one row per step, rows 0..N-1 exist */
  CHECK_OK(paimon_delete_by_row_ids(t, &id, 1, &m, &err), &err);
  return m;
}

static paimon_commit_messages *rewrite(paimon_table *t, int step) {
  paimon_error err;
  paimon_row_changes *rc = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_row_changes_new(&rc, t, 0, &err), &err);
  if (!rc) return NULL;
  /* Alternately update and delete a row; rows keep their ids across rewrites. */
  int64_t id = step;
  if (step % 2) {
    CHECK_OK(paimon_row_changes_delete(rc, &id, 1, &err), &err);
  } else {
    struct ArrowSchema s;
    struct ArrowArray a;
    CHECK_OK(cp_schema_init(&s, "+s", "", 0, 2, &err), &err);
    CHECK_OK(cp_schema_init(s.children[0], "l", "_ROW_ID", 0, 0, &err), &err);
    CHECK_OK(cp_schema_init(s.children[1], "i", "age", ARROW_FLAG_NULLABLE, 0, &err), &err);
    cp_builder *b = NULL;
    CHECK_OK(cp_builder_create(&b, &s, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), id, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 1), -step, &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
    CHECK_OK(cp_builder_finish(b, &a, &err), &err);
    cp_builder_free(b);
    CHECK_OK(paimon_row_changes_update(rc, &s, &a, &err), &err);
    a.release(&a);
    s.release(&s);
  }
  CHECK_OK(paimon_row_changes_prepare_commit(rc, &m, &err), &err);
  paimon_row_changes_free(rc);
  return m;
}

static paimon_commit_messages *append(paimon_table *t, int step) {
  int ids[] = {10000 + step};
  return tu_write(t, 1, ids, NULL, NULL);
}

static void fill(paimon_table *t, int n) {
  int *ids = malloc((size_t)n * sizeof *ids);
  for (int i = 0; i < n; i++) ids[i] = i;
  tu_append(t, n, ids, NULL, NULL);
  free(ids);
}

static void test_dv_delete_commit_faults(void) {
  const char *o[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                     "deletion-vectors.enabled=true"};
  paimon_table *t = tu_table("crash_dv", NULL, o, 3);
  if (!t) return;
  fill(t, 400);
  int step = 0;
  int fired = all_faults(t, dv_delete, &step, N_OPS);
  CHECK(fired > 20);
  tu_rows r;
  tu_read(t, &r);
  CHECK_INT(r.n, 400 - step > TU_MAX ? TU_MAX : 400 - step);
  fprintf(stderr, "  %d faults in %d DV delete commits\n", fired, step);
  paimon_table_free(t);
}

static void test_rewrite_commit_faults(void) {
  const char *o[] = {"row-tracking.enabled=true"};
  paimon_table *t = tu_table("crash_cow", NULL, o, 1);
  if (!t) return;
  fill(t, 400);
  int step = 0;
  int fired = all_faults(t, rewrite, &step, N_WRITE_OPS);
  CHECK(fired > 20);
  fprintf(stderr, "  %d faults in %d copy-on-write commits\n", fired, step);
  paimon_table_free(t);
}

static void test_append_commit_faults(void) {
  const char *o[] = {"row-tracking.enabled=true", "deletion-vectors.enabled=true"};
  paimon_table *t = tu_table("crash_append", NULL, o, 2);
  if (!t) return;
  /* Publish through link + unlink (file systems without renameat2): RENAME faults hit that. */
  cp_fs_local_disable_renameat2(t->fs);
  int step = 0;
  int fired = all_faults(t, append, &step, N_WRITE_OPS);
  CHECK(fired > 20);
  fprintf(stderr, "  %d faults in %d append commits\n", fired, step);
  paimon_table_free(t);
}

/* Faults while preparing (writing index / data files): an error, nothing committed, and no file
 * left in index/ or the bucket beyond what was there. */
static void test_prepare_faults(void) {
  const char *o[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                     "deletion-vectors.enabled=true"};
  const char *o2[] = {"row-tracking.enabled=true"};
  paimon_table *dvt = tu_table("crash_prep_dv", NULL, o, 3);
  paimon_table *cow = tu_table("crash_prep_cow", NULL, o2, 1);
  if (!dvt || !cow) return;
  fill(dvt, 10);
  fill(cow, 10);
  cp_fs_op ops[] = {CP_FS_OP_CREATE, CP_FS_OP_WRITE,     CP_FS_OP_FSYNC,
                    CP_FS_OP_CLOSE,  CP_FS_OP_OPEN_READ, CP_FS_OP_READ};
  int failures = 0;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    for (int nth = 1; nth < 200; nth++) {
      paimon_table *t = (nth % 2) ? dvt : cow;
      int files = tu_count_files(t, "index") + tu_count_files(t, "bucket-0");
      int64_t latest = tu_latest(t);
      uint64_t calls = cp_fs_op_count(t->fs, ops[k]);
      cp_fs_inject_fault(t->fs, ops[k], nth, PAIMON_EIO);
      paimon_commit_messages *m = NULL;
      paimon_error err;
      int rc = PAIMON_OK;
      if (nth % 2) {
        int64_t id = 3;
        rc = paimon_delete_by_row_ids(t, &id, 1, &m, &err);
      } else {
        paimon_row_changes *rc2 = NULL;
        int64_t id = 3;
        rc = paimon_row_changes_new(&rc2, t, 0, &err);
        if (!rc) rc = paimon_row_changes_delete(rc2, &id, 1, &err);
        if (!rc) rc = paimon_row_changes_prepare_commit(rc2, &m, &err);
        paimon_row_changes_free(rc2);
      }
      cp_fs_inject_fault(t->fs, ops[k], 0, 0);
      bool fired = cp_fs_op_count(t->fs, ops[k]) - calls >= (uint64_t)nth;
      (void)rc;
      if (m) { /* prepared despite the fault (or the fault did not fire): discard it */
        paimon_commit *c = NULL;
        CHECK_OK(paimon_commit_new(&c, t, &err), &err);
        CHECK_OK(paimon_commit_abort(c, m, &err), &err);
        paimon_commit_free(c);
        paimon_commit_messages_free(m);
        if (!fired) break;
        continue;
      }
      failures++;
      CHECK_INT(tu_latest(t), latest);
      CHECK_INT(tu_count_files(t, "index") + tu_count_files(t, "bucket-0"), files);
    }
  }
  CHECK(failures > 5);
  tu_check_clean(dvt);
  tu_check_clean(cow);
  paimon_table_free(dvt);
  paimon_table_free(cow);
}

int main(void) {
  if (tu_open("crash")) return 1;
  RUN(test_dv_delete_commit_faults);
  RUN(test_rewrite_commit_faults);
  RUN(test_append_commit_faults);
  RUN(test_prepare_faults);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
