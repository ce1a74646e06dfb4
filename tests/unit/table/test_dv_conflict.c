/* Tests for the commit checks of src/table/dv_conflict.h (spec/format.md §6.4,
 * data-evolution.md §4.2, §4.6): each conflict is produced the way it happens between concurrent
 * writers — a DV index file replaced by someone else, a DV for a data file that a concurrent
 * overwrite removed, two DV index files for one data file, a data file deleted while its DV
 * stays, a partition drop racing an append, disagreeing bucket counts — and must fail with
 * Paimon's message, leaving the table as it was. Commits that do not conflict (an append next to
 * a delete, deletes in different partitions) go through. */
#include "cpaimon/delete.h"
#include "cpaimon/predicate.h"
#include "dv_test_util.h"
#include "table/commit_message.h"
#include "table/file_store.h"
#include "table/store.h"

static const char *de_dv[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                              "deletion-vectors.enabled=true"};

static paimon_commit_messages *delete_ids(paimon_table *t, int64_t a, int64_t b) {
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t ids[] = {a, b};
  CHECK_OK(paimon_delete_by_row_ids(t, ids, b < 0 ? 1 : 2, &m, &err), &err);
  return m;
}

static void expect_conflict(paimon_table *t, paimon_commit_messages *m, const char *msg) {
  paimon_error err;
  int64_t before = tu_latest(t);
  CHECK_INT(tu_commit(t, m, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message, msg);
  CHECK_INT(tu_latest(t), before);
}

static void test_replaced_index_file(void) {
  paimon_table *t = tu_table("cf_replaced", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3, 4};
  tu_append(t, 4, ids, NULL, NULL);
  tu_commit(t, delete_ids(t, 3, -1), NULL); /* the bucket has an index file now */
  paimon_commit_messages *a = delete_ids(t, 0, -1), *b = delete_ids(t, 1, -1);
  int more[] = {9};
  tu_append(t, 1, more, NULL, NULL); /* an append in between does not conflict */
  CHECK(tu_commit(t, a, NULL) > 0);
  expect_conflict(t, b, "Deletion vector index conflict detected: index file index-");
  tu_rows r;
  char buf[128];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "2:1:1,3:2:1,9:4:3");
  tu_check_clean(t);
  paimon_table_free(t);
}

/* pypaimon test_row_level_delete_conflicts_when_target_file_removed: the delete's data file was
 * removed by a partition drop in between. */
static void test_target_file_removed(void) {
  paimon_table *t = tu_table("cf_removed", "dt", de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3};
  const char *dts[] = {"a", "b", "a"};
  tu_append(t, 3, ids, NULL, dts); /* a: rows 0, 1; b: row 2 */
  paimon_commit_messages *del = delete_ids(t, 2, -1);
  paimon_error err;
  paimon_predicate *p = NULL;
  paimon_commit_messages *drop = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "dt", "b", &err), &err);
  CHECK_OK(paimon_delete_by_predicate(t, p, &drop, &err), &err);
  paimon_predicate_free(p);
  CHECK(tu_commit(t, drop, NULL) > 0);
  expect_conflict(t, del, "Deletion vector index conflict detected: data file data-");
  tu_check_clean(t);
  /* Deletes in different partitions do not conflict. */
  paimon_commit_messages *x = delete_ids(t, 0, -1);
  int more[] = {4};
  const char *b[] = {"b"};
  tu_append(t, 1, more, NULL, b);
  paimon_commit_messages *y = delete_ids(t, 3, -1);
  CHECK(tu_commit(t, x, NULL) > 0);
  CHECK(tu_commit(t, y, NULL) > 0);
  tu_rows r;
  char buf[128];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "3:1:1");
  tu_check_clean(t);
  paimon_table_free(t);
}

/* A commit holding two DV index files for one data file, and one deleting a data file whose DV it
 * keeps. */
static void test_two_dvs_and_kept_dv(void) {
  paimon_table *t = tu_table("cf_two", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3};
  tu_append(t, 3, ids, NULL, NULL);
  paimon_commit_messages *a = delete_ids(t, 0, -1), *b = delete_ids(t, 1, -1);
  paimon_error err;
  CHECK_OK(paimon_commit_messages_append(a, b, &err), &err);
  paimon_commit_messages_free(b);
  expect_conflict(t, a, "has deletion vectors in two added index files");
  /* Now a DV exists; deleting its data file (an overwrite) without removing the DV conflicts. */
  CHECK(tu_commit(t, delete_ids(t, 0, -1), NULL) > 0);
  paimon_commit_messages *m = tu_write(t, 1, ids, NULL, NULL);
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec live = {0};
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, tu_latest(t), &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &live, &err), &err);
  if (m && m->n == 1 && live.n == 1) {
    cp_data_file_meta old = live.items[0].file;
    cp_commit_message msg = m->items[0];
    msg.deleted_files = &old;
    msg.n_deleted = 1;
    paimon_commit_messages *o = NULL;
    CHECK_OK(paimon_commit_messages_new(&o, &err), &err);
    CHECK_OK(cp_commit_messages_add(o, &msg, &err), &err);
    expect_conflict(t, o, "is deleted but its deletion vector in index file");
  }
  paimon_commit_messages_free(m);
  cp_entry_vec_free(&live);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Files of one partition must agree on the bucket count. */
static void test_bucket_numbers(void) {
  const char *rt[] = {"row-tracking.enabled=true"};
  paimon_table *t = tu_table("cf_buckets", NULL, rt, 1);
  if (!t) return;
  int ids[] = {1};
  paimon_commit_messages *m = tu_write(t, 1, ids, NULL, NULL);
  if (m && m->n) m->items[0].total_buckets = 3;
  CHECK(tu_commit(t, m, NULL) > 0);
  m = tu_write(t, 1, ids, NULL, NULL);
  if (m && m->n) {
    m->items[0].total_buckets = 2;
    m->items[0].check_from_snapshot = 1; /* conflict detection on */
  }
  expect_conflict(t, m, "differ between committed files: 3 and 2");
  paimon_table_free(t);
}

int main(void) {
  if (tu_open("dvconflict")) return 1;
  RUN(test_replaced_index_file);
  RUN(test_target_file_removed);
  RUN(test_two_dvs_and_kept_dv);
  RUN(test_bucket_numbers);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
