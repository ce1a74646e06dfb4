/* Tests for tags, rollback and time travel by tag and timestamp (include/cpaimon/history.h): the
 * files they leave (tag-<name>, LATEST, snapshot-<id>), Java's messages, reads at a tag whose
 * snapshot was expired, and durations. Interop with Java Paimon and pypaimon is in
 * tests/python/test_tags_rollback.py. */
#include <stdlib.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/fs.h"
#include "base/time.h"
#include "cpaimon/history.h"
#include "cpaimon/read.h"
#include "table/store.h"
#include "table/table.h"
#include "commit_test_util.h"
#include "test.h"

static paimon_catalog *cat;

static void text(const char *column, int64_t id, char *buf, size_t cap) {
  snprintf(buf, cap, "%s%lld", column, (long long)id);
}

/* Table db.<name> with snapshots 1..3 of 2, 1 and 2 rows. */
static paimon_table *three_snapshots(const char *name) {
  paimon_error err;
  paimon_schema *s = NULL;
  char ident[64];
  snprintf(ident, sizeof ident, "db.%s", name);
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "BIGINT NOT NULL", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "v", "STRING", NULL, &err), &err);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 1, 2, text);
  commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 3, 1, text);
  commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 4, 2, text);
  return t;
}

/* Rows planned through `rb` (counted), or -1 when planning fails with `*rc`. */
static int64_t count_rows(paimon_read_builder *rb) {
  paimon_error err;
  paimon_plan *p = NULL;
  if (paimon_read_builder_plan(rb, &p, &err)) return -1;
  struct ArrowArrayStream s;
  CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  int64_t n = 0;
  for (;;) {
    struct ArrowArray b;
    CHECK_OK(s.get_next(&s, &b), NULL);
    if (!b.release) break;
    n += b.length;
    b.release(&b);
  }
  s.release(&s);
  paimon_plan_free(p);
  return n;
}

static int64_t rows_at_tag(paimon_table *t, const char *tag) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  int64_t n = paimon_read_builder_set_tag(rb, tag, &err) ? -1 : count_rows(rb);
  paimon_read_builder_free(rb);
  return n;
}

static int64_t latest(paimon_table *t) {
  paimon_error err;
  int64_t id = 0;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &id, &err), &err);
  return id;
}

static void test_tags(void) {
  paimon_table *t = three_snapshots("tags");
  paimon_error err;
  CHECK_OK(paimon_table_create_tag(t, "b", 1, -1, false, &err), &err);
  CHECK_OK(paimon_table_create_tag(t, "a", 0, 3600000, false, &err), &err);
  CHECK_ERR(paimon_table_create_tag(t, "a", 2, -1, false, &err), PAIMON_EEXIST);
  CHECK_CONTAINS(err.message, "Tag 'a' already exists.");
  CHECK_OK(paimon_table_create_tag(t, "a", 2, -1, true, &err), &err);
  CHECK_ERR(paimon_table_create_tag(t, " ", 2, -1, false, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Tag name shouldn't be blank.");
  CHECK_ERR(paimon_table_create_tag(t, "c", 7, -1, false, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "Cannot create tag because given snapshot #7 doesn't exist.");
  paimon_tag_list l;
  CHECK_OK(paimon_table_list_tags(t, &l, &err), &err);
  CHECK_INT(l.count, 2);
  if (l.count == 2) {
    CHECK_STR(l.items[0].name, "b");
    CHECK_INT(l.items[0].snapshot_id, 1);
    CHECK(!l.items[0].has_time_retained && !l.items[0].has_create_time);
    CHECK_STR(l.items[1].name, "a");
    CHECK_INT(l.items[1].snapshot_id, 3);
    CHECK_INT(l.items[1].record_count, 5);
    CHECK(l.items[1].has_time_retained && l.items[1].has_create_time);
    CHECK_INT(l.items[1].time_retained_millis, 3600000);
  }
  paimon_tag_list_free(&l);
  CHECK_INT(rows_at_tag(t, "b"), 2);
  CHECK_INT(rows_at_tag(t, "a"), 5);
  CHECK_INT(rows_at_tag(t, "zz"), -1);
  CHECK_OK(paimon_table_rename_tag(t, "b", "first", &err), &err);
  CHECK_ERR(paimon_table_rename_tag(t, "first", "a", &err), PAIMON_EEXIST);
  CHECK_ERR(paimon_table_rename_tag(t, "gone", "x", &err), PAIMON_ENOTFOUND);
  CHECK_OK(paimon_table_replace_tag(t, "a", 2, -1, &err), &err);
  CHECK_INT(rows_at_tag(t, "a"), 3);
  bool existed = false;
  CHECK_OK(paimon_table_delete_tag(t, "a", &existed, &err), &err);
  CHECK(existed);
  CHECK_OK(paimon_table_delete_tag(t, "a", &existed, &err), &err);
  CHECK(!existed);
  paimon_table_free(t);
}

static void test_rollback(void) {
  paimon_table *t = three_snapshots("rb");
  paimon_error err;
  CHECK_OK(paimon_table_create_tag(t, "one", 1, -1, false, &err), &err);
  CHECK_OK(paimon_table_create_tag(t, "three", 3, -1, false, &err), &err);
  CHECK_ERR(paimon_table_rollback_to(t, 9, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "Rollback snapshot '9' doesn't exist.");
  CHECK_INT(latest(t), 3);
  CHECK_OK(paimon_table_rollback_to(t, 2, &err), &err);
  CHECK_INT(latest(t), 2);
  bool exists = true;
  CHECK_OK(cp_snapshot_exists(t->fs, t->path, 3, &exists, &err), &err);
  CHECK(!exists);
  CHECK_INT(rows_at_tag(t, "three"), -1); /* later tags go with the snapshots */
  /* The next commit takes id 3 again, and the row ids after snapshot 2's nextRowId. */
  commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 9, 1, text);
  CHECK_INT(latest(t), 3);
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 3, &s, &err), &err);
  if (s) CHECK_INT(s->next_row_id, 4);
  cp_snapshot_free(s);
  /* A tag whose snapshot was expired is restored from the tag. */
  CHECK_OK(cp_snapshot_delete(t->fs, t->path, 1, &err), &err);
  CHECK_OK(cp_snapshot_write_hint(t->fs, t->path, "EARLIEST", 2, &err), &err);
  CHECK_INT(rows_at_tag(t, "one"), 2);
  CHECK_OK(paimon_table_rollback_to(t, 1, &err), &err);
  CHECK_INT(latest(t), 1);
  int64_t earliest = 0;
  CHECK_OK(cp_snapshot_earliest_id(t->fs, t->path, &earliest, &exists, &err), &err);
  CHECK_INT(earliest, 1);
  paimon_table_free(t);
}

static void test_timestamps(void) {
  paimon_table *t = three_snapshots("ts");
  paimon_error err;
  cp_snapshot *s2 = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s2, &err), &err);
  if (!s2) return;
  int64_t id = 0;
  bool found = false;
  CHECK_OK(paimon_table_snapshot_at(t, s2->time_millis, &id, &found, &err), &err);
  CHECK(found);
  CHECK(id >= 2); /* snapshots committed in the same millisecond share it */
  CHECK_OK(paimon_table_snapshot_at(t, 0, &id, &found, &err), &err);
  CHECK(!found);
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_ERR(paimon_read_builder_set_timestamp(rb, 0, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "no snapshot earlier than or equal to timestamp [0]");
  paimon_read_builder_free(rb);
  CHECK_ERR(paimon_table_rollback_to_timestamp(t, 0, &err), PAIMON_ENOTFOUND);
  CHECK_INT(latest(t), 3);
  cp_snapshot_free(s2);
  paimon_table_free(t);
}

static void test_durations(void) {
  paimon_error err;
  int64_t ms = 0;
  static const struct {
    const char *text;
    int64_t ms;
  } ok[] = {{"1 h", 3600000}, {"30min", 1800000}, {"7 d", 604800000}, {"500 ms", 500},
            {"90", 90},       {" 2 S ", 2000},    {"3000 us", 3}};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    CHECK_OK(paimon_parse_duration(ok[i].text, &ms, &err), &err);
    CHECK_INT(ms, ok[i].ms);
  }
  CHECK_ERR(paimon_parse_duration("soon", &ms, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "invalid duration 'soon'");
  CHECK_ERR(paimon_parse_duration("5 fortnights", &ms, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_parse_duration("99999999999999999999 d", &ms, &err), PAIMON_EINVAL);
}

/* Overwrites the whole table with rows first..first+n-1 (its old files become DELETE entries). */
static void overwrite_rows(paimon_table *t, int first, int n) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  paimon_error err;
  rows_batch("ROW<id BIGINT NOT NULL, v STRING>", first, n, text, &schema, &array);
  paimon_commit_messages *m = write_arrow(t, &schema, &array);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_set_overwrite(c, PAIMON_OVERWRITE_STATIC, NULL, NULL, 0, &err), &err);
  CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
  schema.release(&schema);
  array.release(&array);
}

static int64_t rows_at(paimon_table *t, int64_t snapshot) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  int64_t n =
      snapshot && paimon_read_builder_set_snapshot(rb, snapshot, &err) ? -1 : count_rows(rb);
  paimon_read_builder_free(rb);
  return n;
}

/* Every I/O call of an expiration fails in turn (as a crash there would stop it): the snapshots
 * it was to retain still read in full, and a second run finishes the job. */
static void test_expire_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_DELETE, CP_FS_OP_PUBLISH, CP_FS_OP_OPEN_READ,
                                 CP_FS_OP_LIST, CP_FS_OP_STAT};
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 200; nth++) {
      char name[32];
      snprintf(name, sizeof name, "crash%zu_%d", o, nth);
      paimon_table *t = three_snapshots(name);                          /* snapshots 1..3 */
      overwrite_rows(t, 10, 3);                                         /* 4: replaces every file */
      commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 20, 1, text); /* 5 */
      overwrite_rows(t, 30, 2);                                         /* 6 */
      commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 40, 1, text); /* 7 */
      paimon_expire_options opt = {
          .retain_max = 3, .retain_min = 2, .older_than_millis = INT64_MAX / 2};
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      paimon_table_expire_snapshots(t, &opt, NULL, &err); /* fails, or tolerates the fault */
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      /* Retained: 6 and 7 (retain_min 2), whatever step failed. */
      CHECK_INT(rows_at(t, 6), 2);
      CHECK_INT(rows_at(t, 7), 3);
      CHECK_INT(latest(t), 7);
      CHECK_OK(paimon_table_expire_snapshots(t, &opt, NULL, &err), &err);
      bool exists = true;
      for (int64_t id = 1; id <= 5; id++) {
        CHECK_OK(cp_snapshot_exists(t->fs, t->path, id, &exists, &err), &err);
        CHECK(!exists);
      }
      CHECK_INT(rows_at(t, 6), 2);
      CHECK_INT(rows_at(t, 0), 3);
      paimon_table_free(t);
      cases++;
      if (!hit) break; /* the nth call never came: every step of this kind was covered */
    }
  }
  CHECK(cases > 20);
}

/* Deleting tags whose snapshots were expired (Java's TagDeletion) with an I/O failure at every
 * step: the other tags and the retained snapshots read as before whatever failed, and deleting
 * again finishes. Tags on snapshots 2 (a), 4 (b) and 5 (c); 1..5 expired; b then a deleted. */
static void test_tag_delete_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_DELETE, CP_FS_OP_OPEN_READ, CP_FS_OP_READ, CP_FS_OP_LIST,
                                 CP_FS_OP_STAT};
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 200; nth++) {
      char name[32];
      snprintf(name, sizeof name, "tcrash%zu_%d", o, nth);
      paimon_table *t = three_snapshots(name);                          /* snapshots 1..3 */
      overwrite_rows(t, 10, 3);                                         /* 4: replaces every file */
      commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 20, 1, text); /* 5 */
      overwrite_rows(t, 30, 2);                                         /* 6 */
      commit_rows(t, "ROW<id BIGINT NOT NULL, v STRING>", 40, 1, text); /* 7 */
      CHECK_OK(paimon_table_create_tag(t, "a", 2, 0, false, &err), &err);
      CHECK_OK(paimon_table_create_tag(t, "b", 4, 0, false, &err), &err);
      CHECK_OK(paimon_table_create_tag(t, "c", 5, 0, false, &err), &err);
      paimon_expire_options opt = {
          .retain_max = 2, .retain_min = 2, .older_than_millis = INT64_MAX / 2};
      CHECK_OK(paimon_table_expire_snapshots(t, &opt, NULL, &err), &err);
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      bool existed = false;
      int rc = paimon_table_delete_tag(t, "b", &existed, &err);
      if (!rc) rc = paimon_table_delete_tag(t, "a", &existed, &err);
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      CHECK_INT(rows_at_tag(t, "c"), 4);
      CHECK_INT(rows_at(t, 6), 2);
      CHECK_INT(rows_at(t, 0), 3);
      CHECK_OK(paimon_table_delete_tag(t, "b", NULL, &err), &err);
      CHECK_OK(paimon_table_delete_tag(t, "a", NULL, &err), &err);
      CHECK_INT(rows_at_tag(t, "c"), 4);
      CHECK_INT(rows_at(t, 0), 3);
      CHECK_OK(paimon_table_delete_tag(t, "c", NULL, &err), &err);
      CHECK_INT(rows_at(t, 6), 2);
      CHECK_INT(rows_at(t, 0), 3);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 20);
}

/* An aborted write's file is an orphan; committed files, the snapshot files and the hints are
 * not; a cut-off in the future is refused; a dry run deletes nothing. */
static void test_orphans(void) {
  paimon_table *t = three_snapshots("orphans");
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  rows_batch("ROW<id BIGINT NOT NULL, v STRING>", 50, 2, text, &schema, &array);
  paimon_commit_messages *aborted = write_arrow(t, &schema, &array); /* never committed */
  schema.release(&schema);
  array.release(&array);
  usleep(20000);
  int64_t now = cp_now_millis();
  paimon_orphan_result r;
  CHECK_ERR(paimon_table_remove_orphan_files(t, now + 60000, false, &r, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "olderThan must be less than now");
  paimon_string_list paths;
  CHECK_OK(paimon_table_remove_orphan_files(t, now, true, &r, &paths, &err), &err);
  CHECK_INT(r.files, 1);
  CHECK_INT(paths.count, 1);
  if (paths.count) CHECK_CONTAINS(paths.items[0], "/bucket-0/data-");
  paimon_string_list_free(&paths);
  CHECK_OK(paimon_table_remove_orphan_files(t, now, false, &r, NULL, &err), &err);
  CHECK_INT(r.files, 1);
  CHECK(r.bytes > 0);
  CHECK_OK(paimon_table_remove_orphan_files(t, now, false, &r, NULL, &err), &err);
  CHECK_INT(r.files, 0);
  for (int64_t id = 1; id <= 3; id++) CHECK(rows_at(t, id) > 0);
  CHECK_INT(rows_at(t, 0), 5);
  paimon_commit_messages_free(aborted);
  paimon_table_free(t);
}

/* Every I/O call of an orphan-file removal fails in turn: every snapshot and tag reads as before
 * whatever failed (nothing referenced is deleted), and the next removal takes the orphans. */
static void test_orphans_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_LIST, CP_FS_OP_STAT, CP_FS_OP_OPEN_READ, CP_FS_OP_READ,
                                 CP_FS_OP_DELETE};
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 300; nth++) {
      char name[32];
      snprintf(name, sizeof name, "ocrash%zu_%d", o, nth);
      paimon_table *t = three_snapshots(name);
      overwrite_rows(t, 10, 3); /* 4: the old files live on in 1..3 and in tag "old" */
      CHECK_OK(paimon_table_create_tag(t, "old", 2, 0, false, &err), &err);
      struct ArrowSchema schema;
      struct ArrowArray array;
      rows_batch("ROW<id BIGINT NOT NULL, v STRING>", 50, 2, text, &schema, &array);
      paimon_commit_messages *a1 = write_arrow(t, &schema, &array); /* orphans */
      paimon_commit_messages *a2 = write_arrow(t, &schema, &array);
      schema.release(&schema);
      array.release(&array);
      usleep(2000);
      int64_t now = cp_now_millis();
      paimon_orphan_result r;
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      paimon_table_remove_orphan_files(t, now, false, &r, NULL, &err); /* fails, or tolerates */
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      for (int64_t id = 1; id <= 3; id++) CHECK(rows_at(t, id) > 0);
      CHECK_INT(rows_at(t, 0), 3);
      CHECK_INT(rows_at_tag(t, "old"), 3);
      CHECK_OK(paimon_table_remove_orphan_files(t, now, false, &r, NULL, &err), &err);
      CHECK_OK(paimon_table_remove_orphan_files(t, now, false, &r, NULL, &err), &err);
      CHECK_INT(r.files, 0);
      CHECK_INT(rows_at(t, 1), 2);
      CHECK_INT(rows_at_tag(t, "old"), 3);
      paimon_commit_messages_free(a1);
      paimon_commit_messages_free(a2);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 10);
}

int main(void) {
  if (!(cat = temp_catalog("history"))) return 1;
  RUN(test_tags);
  RUN(test_rollback);
  RUN(test_timestamps);
  RUN(test_durations);
  RUN(test_expire_crash_at_each_step);
  RUN(test_tag_delete_crash_at_each_step);
  RUN(test_orphans_crash_at_each_step);
  RUN(test_orphans);
  paimon_catalog_free(cat);
  TEST_MAIN_END();
}
