/* Tests for writing and committing (include/cpaimon/write.h, commit.h): files per partition,
 * DataFileMeta fields, snapshot contents, row-id and sequence assignment (spec data-evolution.md
 * §1.2–1.3), commit message serialization, schema mismatch and NOT NULL errors, abort, empty
 * commits, and a commit racing another committer. */
#include <stdlib.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "cpaimon/commit.h"
#include "cpaimon/write.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/file_store.h"
#include "table/store.h"
#include "table/table.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static char warehouse[256];
static paimon_catalog *cat;

static paimon_table *make_table(const char *name, const char *row_sql, const char *partition,
                                const char *opts[][2], size_t n_opts) {
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse(row_sql, &row, &err), &err);
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  for (size_t i = 0; row && i < row->n_fields; i++) {
    char *t = NULL;
    CHECK_OK(cp_type_to_sql(row->fields[i].type, &t, &err), &err);
    CHECK_OK(paimon_schema_add_column(s, row->fields[i].name, t, NULL, &err), &err);
    free(t);
  }
  if (partition) CHECK_OK(paimon_schema_set_partition_keys(s, &partition, 1, &err), &err);
  for (size_t i = 0; i < n_opts; i++)
    CHECK_OK(paimon_schema_set_option(s, opts[i][0], opts[i][1], &err), &err);
  char ident[128];
  snprintf(ident, sizeof ident, "db.%s", name);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  cp_type_free(row);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  return t;
}

/* A batch (id INT NOT NULL, name STRING, dt STRING) of n rows; dt alternates "a"/"b" when
 * `two_parts`. */
static void make_batch(int n, int first_id, bool two_parts, bool null_id,
                       struct ArrowSchema *schema, struct ArrowArray *array) {
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse("ROW<id INT NOT NULL, name STRING, dt STRING>", &row, &err), &err);
  CHECK_OK(cp_row_to_arrow_schema(row, schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, schema, &err), &err);
  for (int i = 0; i < n; i++) {
    cp_builder *c0 = cp_builder_child(b, 0), *c1 = cp_builder_child(b, 1),
               *c2 = cp_builder_child(b, 2);
    if (null_id && i == n - 1)
      CHECK_OK(cp_builder_append_null(c0, &err), &err);
    else
      CHECK_OK(cp_builder_append_int64(c0, first_id + i, &err), &err);
    char name[32];
    snprintf(name, sizeof name, "name-%d", first_id + i);
    CHECK_OK(cp_builder_append_str(c1, name, &err), &err);
    CHECK_OK(cp_builder_append_str(c2, two_parts && (i % 2) ? "b" : "a", &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, array, &err), &err);
  cp_builder_free(b);
  cp_type_free(row);
}

/* The uncommitted messages of one fresh write of the batch make_batch builds. */
static paimon_commit_messages *write_messages(paimon_table *t, int n, int first_id,
                                              bool two_parts) {
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(n, first_id, two_parts, false, &schema, &array);
  paimon_write *w = NULL;
  paimon_commit_messages *msgs = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  return msgs;
}

static int64_t write_and_commit(paimon_table *t, int n, int first_id, bool two_parts) {
  paimon_error err;
  paimon_commit_messages *msgs = write_messages(t, n, first_id, two_parts);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_commit(c, msgs, &err), &err);
  int64_t id = paimon_commit_last_snapshot_id(c);
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  return id;
}

static void live_files(paimon_table *t, int64_t snap_id, cp_arena *arena, cp_entry_vec *out) {
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, snap_id, &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, arena, out, &err), &err);
  cp_snapshot_free(s);
}

static void test_row_tracking_assignment(void) {
  const char *opts[][2] = {{"row-tracking.enabled", "true"}};
  paimon_table *t = make_table("rt", "ROW<id INT NOT NULL, name STRING, dt STRING>", "dt", opts, 1);
  if (!t) return;
  CHECK_INT(write_and_commit(t, 5, 0, true), 1);
  CHECK_INT(write_and_commit(t, 2, 10, false), 2);
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) {
    CHECK_INT(s->next_row_id, 7);
    CHECK_INT(s->total_record_count, 7);
    CHECK_INT(s->delta_record_count, 2);
    CHECK_INT(s->commit_kind, CP_COMMIT_APPEND);
    CHECK(s->uuid != NULL && s->has_base_manifest_list_size);
  }
  cp_snapshot_free(s);
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  live_files(t, 2, &arena, &files);
  CHECK_INT(files.n, 3);
  /* Commit 1: partition a (3 rows) then b (2 rows), grouped in first-appearance order. */
  int64_t seen_first[3] = {-1, -1, -1};
  for (size_t i = 0; i < files.n && i < 3; i++) {
    const cp_data_file_meta *f = &files.items[i].file;
    CHECK(f->has_first_row_id);
    CHECK(f->has_file_source && f->file_source == CP_FILE_SOURCE_APPEND);
    CHECK(!f->has_write_cols);
    CHECK_INT(f->level, 0);
    CHECK_INT(files.items[i].total_buckets, -1);
    seen_first[i] = f->first_row_id;
    int64_t seq = i < 2 ? 1 : 2;
    CHECK_INT(f->min_sequence_number, seq);
    CHECK_INT(f->max_sequence_number, seq);
    /* default stats mode truncate(16): every column covered, value_stats_cols null */
    CHECK(!f->has_value_stats_cols);
    CHECK_INT(f->value_stats.n_null_counts, 3);
  }
  CHECK_INT(seen_first[0], 0);
  CHECK_INT(files.items[0].file.row_count, 3);
  CHECK_INT(seen_first[1], 3);
  CHECK_INT(seen_first[2], 5);
  /* The data files exist where Java would look for them. */
  for (size_t i = 0; i < files.n; i++) {
    char *path = NULL;
    CHECK_OK(cp_data_file_path(t, files.items[i].partition, 0, &files.items[i].file, &path, &err),
             &err);
    bool exists = false;
    CHECK_OK(cp_fs_exists(t->fs, path, &exists, &err), &err);
    CHECK(exists);
    CHECK(strstr(path, "/dt=a/bucket-0/data-") || strstr(path, "/dt=b/bucket-0/data-"));
    free(path);
  }
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  paimon_table_free(t);
}

static void test_errors_leave_table_unchanged(void) {
  paimon_table *t =
      make_table("errs", "ROW<id INT NOT NULL, name STRING, dt STRING>", NULL, NULL, 0);
  if (!t) return;
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(3, 0, false, true, &schema, &array);
  paimon_write *w = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_ERR(paimon_write_batch(w, &schema, &array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Cannot write null to non-null column(id)");
  schema.release(&schema);
  array.release(&array);
  /* A batch with an unknown column. */
  cp_type *bad = NULL;
  CHECK_OK(cp_type_parse("ROW<id INT NOT NULL, nope STRING>", &bad, &err), &err);
  CHECK_OK(cp_row_to_arrow_schema(bad, &schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &schema, &err), &err);
  CHECK_OK(cp_builder_finish(b, &array, &err), &err);
  CHECK_ERR(paimon_write_batch(w, &schema, &array, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nope");
  cp_builder_free(b);
  cp_type_free(bad);
  schema.release(&schema);
  array.release(&array);
  paimon_commit_messages *msgs = NULL;
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  CHECK_INT(paimon_commit_messages_count(msgs), 0);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_commit(c, msgs, &err), &err); /* empty: no snapshot */
  int64_t latest = -1;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &latest, &err), &err);
  CHECK_INT(latest, 0);
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  paimon_write_free(w);
  paimon_table_free(t);
}

static void test_serialize_and_abort(void) {
  paimon_table *t =
      make_table("ser", "ROW<id INT NOT NULL, name STRING, dt STRING>", "dt", NULL, 0);
  if (!t) return;
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(4, 0, true, false, &schema, &array);
  paimon_write *w = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  paimon_commit_messages *msgs = NULL, *back = NULL;
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  CHECK_INT(paimon_commit_messages_count(msgs), 2);
  uint8_t *bytes = NULL;
  size_t len = 0;
  CHECK_OK(paimon_commit_messages_serialize(msgs, &bytes, &len, &err), &err);
  CHECK_OK(paimon_commit_messages_deserialize(&back, bytes, len, &err), &err);
  if (back) {
    CHECK_INT(paimon_commit_messages_count(back), 2);
    CHECK_INT(back->items[1].n_new, 1);
    CHECK_STR(back->items[1].new_files[0].file_name, msgs->items[1].new_files[0].file_name);
    CHECK_INT(back->items[1].partition.len, msgs->items[1].partition.len);
    CHECK(memcmp(back->items[1].partition.data, msgs->items[1].partition.data,
                 msgs->items[1].partition.len) == 0);
    CHECK_INT(back->items[0].check_from_snapshot, -1);
    /* The bytes are a function of the messages: what was read serializes to the same bytes. */
    uint8_t *again = NULL;
    size_t again_len = 0;
    CHECK_OK(paimon_commit_messages_serialize(back, &again, &again_len, &err), &err);
    CHECK_INT(again_len, len);
    CHECK(again && memcmp(again, bytes, len) == 0);
    free(again);
  }
  CHECK_ERR(paimon_commit_messages_deserialize(&back, bytes, len / 2, &err), PAIMON_EINVAL);
  free(bytes);
  /* Abort deletes the files. */
  char *path = NULL;
  CHECK_OK(
      cp_data_file_path(t, msgs->items[0].partition, 0, &msgs->items[0].new_files[0], &path, &err),
      &err);
  bool exists = false;
  CHECK_OK(cp_fs_exists(t->fs, path, &exists, &err), &err);
  CHECK(exists);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_abort(c, back ? back : msgs, &err), &err);
  CHECK_OK(cp_fs_exists(t->fs, path, &exists, &err), &err);
  CHECK(!exists);
  free(path);
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  paimon_commit_messages_free(back);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  paimon_table_free(t);
}

/* Another committer publishes snapshot 2 between our read of snapshot 1 and our publish: the
 * injected fault makes our first rename lose; the retry commits as snapshot 3. */
static void test_lost_race_retries(void) {
  const char *opts[][2] = {{"row-tracking.enabled", "true"}};
  paimon_table *t =
      make_table("race", "ROW<id INT NOT NULL, name STRING, dt STRING>", NULL, opts, 1);
  if (!t) return;
  CHECK_INT(write_and_commit(t, 3, 0, false), 1);
  /* Simulate the race: rename fails once with EEXIST as a concurrent publish would. */
  cp_fs_inject_fault(t->fs, CP_FS_OP_RENAME, 1, PAIMON_EEXIST);
  CHECK_INT(write_and_commit(t, 2, 3, false), 2);
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) CHECK_INT(s->next_row_id, 5);
  cp_snapshot_free(s);
  /* Other I/O failures fail the commit and leave the table as it was. */
  cp_fs_inject_fault(t->fs, CP_FS_OP_FSYNC, 2, PAIMON_EIO);
  paimon_write *w = NULL;
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(1, 9, false, false, &schema, &array);
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  paimon_commit_messages *msgs = NULL;
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  cp_fs_inject_fault(t->fs, CP_FS_OP_FSYNC, 2, PAIMON_EIO);
  CHECK_ERR(paimon_commit_commit(c, msgs, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "injected");
  int64_t latest = 0;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &latest, &err), &err);
  CHECK_INT(latest, 2);
  CHECK_OK(paimon_commit_commit(c, msgs, &err), &err);
  CHECK_INT(paimon_commit_last_snapshot_id(c), 3);
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  paimon_table_free(t);
}

/* Rows per partition ("a", "b") and the smallest first_row_id among the live files. */
static void count_rows(paimon_table *t, int64_t *a, int64_t *b, int64_t *min_first) {
  paimon_error err;
  int64_t latest = 0;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &latest, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  live_files(t, latest, &arena, &files);
  *a = *b = 0;
  *min_first = INT64_MAX;
  for (size_t i = 0; i < files.n; i++) {
    cp_buf p = CP_BUF_INIT;
    CHECK_OK(cp_table_partition_path(t, files.items[i].partition, &p, &err), &err);
    if (p.len && p.data[3] == 'a')
      *a += files.items[i].file.row_count;
    else
      *b += files.items[i].file.row_count;
    if (files.items[i].file.first_row_id < *min_first)
      *min_first = files.items[i].file.first_row_id;
    cp_buf_free(&p);
  }
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
}

static int64_t overwrite(paimon_table *t, int n, int first_id, bool two_parts, const char *key,
                         const char *value) {
  paimon_error err;
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(n, first_id, two_parts, false, &schema, &array);
  paimon_write *w = NULL;
  paimon_commit_messages *msgs = NULL;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  if (n) CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_set_overwrite(c,
                                       key ? PAIMON_OVERWRITE_STATIC : PAIMON_OVERWRITE_BY_OPTION,
                                       key ? &key : NULL, key ? &value : NULL, key ? 1 : 0, &err),
           &err);
  CHECK_OK(paimon_commit_commit(c, msgs, &err), &err);
  int64_t id = paimon_commit_last_snapshot_id(c);
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  return id;
}

/* INSERT OVERWRITE: dynamic (partitions written), static (a spec, even with no new rows), whole
 * table; row ids are never reused; the snapshot is OVERWRITE. */
static void test_overwrite(void) {
  const char *opts[][2] = {{"row-tracking.enabled", "true"}};
  paimon_table *t = make_table("ow", "ROW<id INT NOT NULL, name STRING, dt STRING>", "dt", opts, 1);
  if (!t) return;
  paimon_error err;
  int64_t a, b, first;
  write_and_commit(t, 6, 0, true);                       /* 3 rows in a, 3 in b; row ids 0..5 */
  CHECK_INT(overwrite(t, 2, 100, false, NULL, NULL), 2); /* dynamic: replaces a only */
  count_rows(t, &a, &b, &first);
  CHECK_INT(a, 2);
  CHECK_INT(b, 3);
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) {
    CHECK_INT(s->commit_kind, CP_COMMIT_OVERWRITE);
    CHECK_INT(s->total_record_count, 5);
    CHECK_INT(s->next_row_id, 8); /* the new rows got 6 and 7 */
  }
  cp_snapshot_free(s);
  s = NULL;
  CHECK_INT(overwrite(t, 0, 0, false, "dt", "b"), 3); /* static, no rows: empties b */
  count_rows(t, &a, &b, &first);
  CHECK_INT(a, 2);
  CHECK_INT(b, 0);
  CHECK_INT(first, 6);
  /* As Java: a static overwrite always commits (here an OVERWRITE snapshot that changes
   * nothing); a dynamic one without new rows commits nothing. */
  CHECK_INT(overwrite(t, 0, 0, false, "dt", "zz"), 4);
  CHECK_INT(overwrite(t, 0, 0, false, NULL, NULL), 0);
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 4, &s, &err), &err);
  if (s) {
    CHECK_INT(s->commit_kind, CP_COMMIT_OVERWRITE);
    CHECK_INT(s->total_record_count, 2);
    CHECK_INT(s->delta_record_count, 0);
  }
  cp_snapshot_free(s);
  s = NULL;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  const char *k = "name", *v = "x";
  CHECK_ERR(paimon_commit_set_overwrite(c, PAIMON_OVERWRITE_STATIC, &k, &v, 1, &err),
            PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "name is not a partition key of table db.ow");
  paimon_commit_free(c);
  /* Static spec: new rows outside the spec are refused, and nothing changes. */
  struct ArrowSchema schema;
  struct ArrowArray array;
  make_batch(2, 200, true, false, &schema, &array);
  paimon_write *w = NULL;
  paimon_commit_messages *msgs = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, &schema, &array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &msgs, &err), &err);
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  k = "dt";
  v = "a";
  CHECK_OK(paimon_commit_set_overwrite(c, PAIMON_OVERWRITE_STATIC, &k, &v, 1, &err), &err);
  CHECK_ERR(paimon_commit_commit(c, msgs, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "do not belong to it");
  count_rows(t, &a, &b, &first);
  CHECK_INT(a, 2);
  CHECK_INT(b, 0);
  paimon_commit_abort(c, msgs, &err);
  paimon_commit_messages_free(msgs);
  paimon_write_free(w);
  schema.release(&schema);
  array.release(&array);
  paimon_commit_free(c);
  paimon_table_free(t);

  /* Unpartitioned: the whole table. */
  t = make_table("ow2", "ROW<id INT NOT NULL, name STRING, dt STRING>", NULL, opts, 1);
  if (!t) return;
  write_and_commit(t, 4, 0, true);
  CHECK_INT(overwrite(t, 1, 50, false, NULL, NULL), 2);
  count_rows(t, &a, &b, &first);
  CHECK_INT(a + b, 1);
  CHECK_INT(first, 4);
  paimon_table_free(t);
}

/* Streaming commits: snapshots carry the user and the round's identifier; a round the user
 * committed before is not committed again, by the same committer or by a new one with that user;
 * another user's rounds are independent. */
static void test_stream_commit_identifiers(void) {
  paimon_error err;
  paimon_table *t =
      make_table("stream", "ROW<id INT NOT NULL, name STRING, dt STRING>", NULL, NULL, 0);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_set_user(c, "worker-1", &err), &err);
  CHECK_STR(paimon_commit_user(c), "worker-1");
  CHECK_ERR(paimon_commit_set_user(c, "", &err), PAIMON_EINVAL);
  int64_t last = -1;
  bool found = true, committed = false;
  CHECK_OK(paimon_commit_latest_identifier(c, &last, &found, &err), &err);
  CHECK(!found);
  for (int64_t round = 1; round <= 3; round++) {
    paimon_commit_messages *m = write_messages(t, 2, (int)round * 10, false);
    CHECK_OK(paimon_commit_commit_identified(c, m, round, &committed, &err), &err);
    CHECK(committed);
    CHECK_INT(paimon_commit_last_snapshot_id(c), round);
    paimon_commit_messages_free(m);
  }
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) {
    CHECK_STR(s->commit_user, "worker-1");
    CHECK_INT(s->commit_identifier, 2);
  }
  cp_snapshot_free(s);
  /* a replayed round, through the same committer and through a restarted one */
  paimon_commit_messages *again = write_messages(t, 2, 99, false);
  CHECK_OK(paimon_commit_commit_identified(c, again, 2, &committed, &err), &err);
  CHECK(!committed);
  paimon_commit *c2 = NULL;
  CHECK_OK(paimon_commit_new(&c2, t, &err), &err);
  CHECK_OK(paimon_commit_set_user(c2, "worker-1", &err), &err);
  CHECK_OK(paimon_commit_latest_identifier(c2, &last, &found, &err), &err);
  CHECK(found && last == 3);
  CHECK_OK(paimon_commit_commit_identified(c2, again, 3, &committed, &err), &err);
  CHECK(!committed);
  CHECK_OK(paimon_commit_abort(c2, again, &err), &err);
  paimon_commit_messages_free(again);
  /* another user's round 1 is its own; the first user's next round is seen by c2 */
  paimon_commit *other = NULL;
  CHECK_OK(paimon_commit_new(&other, t, &err), &err);
  paimon_commit_messages *m = write_messages(t, 1, 200, false);
  CHECK_OK(paimon_commit_commit_identified(other, m, 1, &committed, &err), &err);
  CHECK(committed);
  paimon_commit_messages_free(m);
  m = write_messages(t, 1, 300, false);
  CHECK_OK(paimon_commit_commit_identified(c, m, 4, &committed, &err), &err);
  CHECK(committed);
  CHECK_OK(paimon_commit_commit_identified(c2, m, 4, &committed, &err), &err);
  CHECK(!committed);
  paimon_commit_messages_free(m);
  int64_t latest = 0;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &latest, &err), &err);
  CHECK_INT(latest, 5);
  /* a batch commit keeps the batch identifier */
  m = write_messages(t, 1, 400, false);
  CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  paimon_commit_messages_free(m);
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 6, &s, &err), &err);
  if (s) CHECK(s->commit_identifier == INT64_MAX);
  cp_snapshot_free(s);
  m = write_messages(t, 1, 500, false);
  CHECK_ERR(paimon_commit_commit_identified(c, m, -1, &committed, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_commit_commit_identified(c, m, INT64_MAX, &committed, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_commit_abort(c, m, &err), &err);
  paimon_commit_messages_free(m);
  paimon_commit_free(other);
  paimon_commit_free(c2);
  paimon_commit_free(c);
  paimon_table_free(t);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(warehouse, sizeof warehouse, "%s/wc-XXXXXX", tmp ? tmp : "/tmp");
  if (!mkdtemp(warehouse)) return 1;
  paimon_error err;
  if (paimon_catalog_open(&cat, warehouse, &err) ||
      paimon_catalog_create_database(cat, "db", false, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  RUN(test_row_tracking_assignment);
  RUN(test_errors_leave_table_unchanged);
  RUN(test_serialize_and_abort);
  RUN(test_lost_race_retries);
  RUN(test_overwrite);
  RUN(test_stream_commit_identifiers);
  paimon_catalog_free(cat);
  TEST_MAIN_END();
}
