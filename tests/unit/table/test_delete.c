/* Tests for deletes on data-evolution tables (include/cpaimon/delete.h; spec/data-evolution.md
 * §3.7, format.md §7): delete by row id and by predicate through deletion vectors, the index file
 * and manifest they produce (checked against the spec's layout), one DV index file per bucket,
 * already-deleted rows, partition drops, pypaimon's validation order and messages, and the table
 * left unchanged by every failing call. Every scenario ends with the table checker. */
#include "cpaimon/delete.h"
#include "arrow/schema.h"
#include "cpaimon/predicate.h"
#include "dv_test_util.h"
#include "meta/snapshot.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/store.h"

static const char *de_dv[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                              "deletion-vectors.enabled=true"};

static int64_t commit_ok(paimon_table *t, paimon_commit_messages *m) {
  paimon_error err;
  int64_t id = tu_commit(t, m, &err);
  CHECK(id > 0);
  if (id <= 0) fprintf(stderr, "commit failed: %s\n", err.message);
  return id;
}

static paimon_predicate *int_pred(paimon_compare_op op, const char *col, int64_t v) {
  char text[32];
  snprintf(text, sizeof text, "%lld", (long long)v);
  paimon_predicate *p = NULL;
  paimon_error err;
  CHECK_OK(paimon_predicate_compare_text(&p, op, col, text, &err), &err);
  return p;
}

static void test_delete_by_row_id(void) {
  paimon_table *t = tu_table("del_ids", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3, 4, 5};
  tu_append(t, 5, ids, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {0, 2, 4, 2};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 4, &m, &err), &err);
  if (!m) return;
  CHECK_INT(paimon_commit_messages_count(m), 1);
  const cp_commit_message *msg = &m->items[0];
  CHECK_INT(msg->n_index_adds, 1);
  CHECK_INT(msg->n_index_deletes, 0);
  CHECK_INT(msg->check_from_snapshot, 1);
  const cp_index_manifest_entry *add = &msg->index_adds[0];
  CHECK_STR(add->index_type, "DELETION_VECTORS");
  CHECK_INT(add->row_count, 1);
  CHECK_INT(add->n_dv_ranges, 1);
  CHECK_INT(add->dv_ranges[0].offset, 1);
  CHECK_INT(add->dv_ranges[0].cardinality, 3);
  /* The index file holds one 32-bit DV of positions {0, 2, 4}: version, len, magic, roaring. */
  char *path = NULL;
  CHECK_OK(cp_index_file_path(t, add, &path, &err), &err);
  cp_buf bytes = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(t->fs, path, &bytes, 1 << 20, &err), &err);
  CHECK_INT(bytes.len, add->file_size);
  static const uint8_t head[] = {0x01, 0x00, 0x00, 0x00, 0x1a, 0x5e, 0x43, 0xf2, 0xd0, 0x3a, 0x30,
                                 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10,
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x00};
  CHECK(bytes.len == sizeof head + 4 && memcmp(bytes.data, head, sizeof head) == 0);
  cp_buf_free(&bytes);
  free(path);
  CHECK_INT(commit_ok(t, m), 2);

  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) {
    CHECK_INT(s->commit_kind, CP_COMMIT_OVERWRITE);
    CHECK(s->index_manifest != NULL);
    CHECK_INT(s->next_row_id, 5);
    CHECK_INT(s->delta_record_count, 0);
  }
  cp_snapshot_free(s);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "2:1:1,4:3:1");

  /* Deleting only deleted rows changes nothing: no message, no snapshot. */
  int64_t again[] = {0, 4};
  CHECK_OK(paimon_delete_by_row_ids(t, again, 2, &m, &err), &err);
  if (m) CHECK_INT(paimon_commit_messages_count(m), 0);
  paimon_commit_messages_free(m);

  /* A second delete replaces the bucket's index file: add one, delete the old one. */
  int64_t more[] = {1};
  CHECK_OK(paimon_delete_by_row_ids(t, more, 1, &m, &err), &err);
  if (m && m->n == 1) {
    CHECK_INT(m->items[0].n_index_adds, 1);
    CHECK_INT(m->items[0].n_index_deletes, 1);
    CHECK_INT(m->items[0].index_adds[0].dv_ranges[0].cardinality, 4);
  }
  CHECK_INT(commit_ok(t, m), 3);
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "4:3:1");
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 3, &s, &err), &err);
  if (s) CHECK_OK(cp_dv_index_entries(t, s, &arena, &idx, &err), &err);
  CHECK_INT(idx.n, 1);
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Deletes in two partitions and two row-range groups produce one message per partition. */
static void test_delete_partitions_and_groups(void) {
  paimon_table *t = tu_table("del_parts", "dt", de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3, 4};
  const char *dts[] = {"a", "b", "a", "b"};
  tu_append(t, 4, ids, NULL, dts); /* a: ids 1,3 rows 0,1; b: ids 2,4 rows 2,3 */
  int ids2[] = {5, 6};
  tu_append(t, 2, ids2, NULL, NULL); /* a: rows 4, 5 */
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {5, 0, 3};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 3, &m, &err), &err);
  if (!m) return;
  CHECK_INT(paimon_commit_messages_count(m), 2);
  /* Partition a has two data files with DVs in one index file, sorted by file name. */
  for (size_t i = 0; i < m->n; i++) {
    const cp_index_manifest_entry *add = &m->items[i].index_adds[0];
    if (add->n_dv_ranges == 2)
      CHECK(strcmp(add->dv_ranges[0].data_file, add->dv_ranges[1].data_file) < 0);
  }
  commit_ok(t, m);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "3:1:1,2:2:1,5:4:2");
  tu_check_clean(t);
  paimon_table_free(t);
}

static void test_delete_errors_leave_table_unchanged(void) {
  const char *de_only[] = {"row-tracking.enabled=true", "data-evolution.enabled=true"};
  const char *rt_only[] = {"row-tracking.enabled=true", "deletion-vectors.enabled=true"};
  paimon_table *no_dv = tu_table("del_nodv", NULL, de_only, 2);
  paimon_table *no_de = tu_table("del_node", NULL, rt_only, 2);
  paimon_table *t = tu_table("del_err", NULL, de_dv, 3);
  if (!no_dv || !no_de || !t) return;
  int ids[] = {1, 2, 3};
  tu_append(no_dv, 3, ids, NULL, NULL);
  tu_append(t, 3, ids, NULL, NULL);
  int ids2[] = {7, 8};
  tu_append(t, 2, ids2, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t one[] = {0};
  CHECK_ERR(paimon_delete_by_row_ids(no_de, one, 1, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "delete requires 'data-evolution.enabled' = 'true'.");
  CHECK_ERR(paimon_delete_by_row_ids(no_dv, one, 1, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "delete requires 'deletion-vectors.enabled' = 'true'.");
  CHECK(m == NULL);
  paimon_predicate *p = int_pred(PAIMON_COMPARE_EQUAL, "id", 1);
  CHECK_ERR(paimon_delete_by_predicate(no_dv, p, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "deletion-vectors.enabled");
  paimon_predicate_free(p);

  /* Out-of-range ids: past nextRowId, negative; the message lists the anchors' ranges. */
  int64_t bad[] = {1, 99};
  CHECK_ERR(paimon_delete_by_row_ids(t, bad, 2, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Row ID 99 does not belong to any valid range ['[0, 2]', '[3, 4]']");
  int64_t neg[] = {-1};
  CHECK_ERR(paimon_delete_by_row_ids(t, neg, 1, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Row ID -1 does not belong to any valid range");

  /* NULL in an Arrow id array. */
  struct ArrowSchema schema;
  struct ArrowArray array;
  cp_builder *b = NULL;
  CHECK_OK(cp_schema_init(&schema, "l", "ids", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_builder_create(&b, &schema, &err), &err);
  CHECK_OK(cp_builder_append_int64(b, 1, &err), &err);
  CHECK_OK(cp_builder_append_null(b, &err), &err);
  CHECK_OK(cp_builder_finish(b, &array, &err), &err);
  CHECK_ERR(paimon_delete_by_row_id_array(t, &schema, &array, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "_ROW_ID value must not be null.");
  cp_builder_free(b);
  array.release(&array);
  schema.release(&schema);

  /* Nothing changed: same snapshot, no index file written, rows intact. */
  CHECK_INT(tu_latest(t), 2);
  CHECK_INT(tu_count_files(t, "index"), 0);
  tu_rows r;
  tu_read(t, &r);
  CHECK_INT(r.n, 5);
  /* No ids at all: no messages. */
  CHECK_OK(paimon_delete_by_row_ids(t, NULL, 0, &m, &err), &err);
  if (m) CHECK_INT(paimon_commit_messages_count(m), 0);
  paimon_commit_messages_free(m);
  tu_check_clean(t);
  tu_check_clean(no_dv);
  paimon_table_free(t);
  paimon_table_free(no_dv);
  paimon_table_free(no_de);
}

static void test_delete_by_predicate(void) {
  paimon_table *t = tu_table("del_pred", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3, 4, 5};
  int ages[] = {25, 30, 35, 40, 45};
  tu_append(t, 5, ids, ages, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  paimon_predicate *p = int_pred(PAIMON_COMPARE_GREATER_OR_EQUAL, "age", 35);
  CHECK_OK(paimon_delete_by_predicate(t, p, &m, &err), &err);
  paimon_predicate_free(p);
  if (!m) return;
  CHECK_INT(m->n, 1);
  commit_ok(t, m);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "1:0:1,2:1:1");
  /* Rows already deleted no longer match; a predicate matching nothing gives no message. */
  p = int_pred(PAIMON_COMPARE_GREATER_OR_EQUAL, "age", 35);
  CHECK_OK(paimon_delete_by_predicate(t, p, &m, &err), &err);
  if (m) CHECK_INT(m->n, 0);
  paimon_commit_messages_free(m);
  paimon_predicate_free(p);
  /* Unknown column: EINVAL naming it. */
  p = int_pred(PAIMON_COMPARE_EQUAL, "nope", 1);
  CHECK_ERR(paimon_delete_by_predicate(t, p, &m, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nope");
  paimon_predicate_free(p);
  /* NULL predicate: every remaining row. */
  CHECK_OK(paimon_delete_by_predicate(t, NULL, &m, &err), &err);
  commit_ok(t, m);
  tu_read(t, &r);
  CHECK_INT(r.n, 0);
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Partition-only predicates drop partitions, without DV or data-evolution requirements. */
static void test_delete_partition_drop(void) {
  const char *rt[] = {"row-tracking.enabled=true"};
  paimon_table *t = tu_table("del_drop", "dt", rt, 1);
  paimon_table *dvt = tu_table("del_drop_dv", "dt", de_dv, 3);
  if (!t || !dvt) return;
  int ids[] = {1, 2, 3, 4};
  const char *dts[] = {"a", "b", "a", "c"};
  tu_append(t, 4, ids, NULL, dts);
  tu_append(dvt, 4, ids, NULL, dts);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "dt", "a", &err), &err);
  CHECK_OK(paimon_delete_by_predicate(t, p, &m, &err), &err);
  if (m) {
    CHECK_INT(m->n, 1);
    CHECK_INT(m->items[0].n_deleted, 1);
    CHECK_INT(m->items[0].n_index_adds, 0);
    CHECK_INT(m->items[0].check_from_snapshot, 1);
  }
  CHECK_INT(commit_ok(t, m), 2);
  tu_rows r;
  char buf[256];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "2:2:1,4:3:1");
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  if (s) CHECK_INT(s->commit_kind, CP_COMMIT_OVERWRITE);
  if (s) CHECK_INT(s->total_record_count, 2);
  cp_snapshot_free(s);

  /* With a DV in the dropped partition, its index file goes too. */
  int64_t del[] = {0};
  CHECK_OK(paimon_delete_by_row_ids(dvt, del, 1, &m, &err), &err);
  commit_ok(dvt, m);
  CHECK_OK(paimon_delete_by_predicate(dvt, p, &m, &err), &err);
  if (m && m->n == 1) {
    CHECK_INT(m->items[0].n_deleted, 1);
    CHECK_INT(m->items[0].n_index_deletes, 1);
  }
  commit_ok(dvt, m);
  tu_read(dvt, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "2:2:1,4:3:1");

  /* A concurrent append to the partition between planning and commit: overwrite conflict. */
  paimon_predicate_free(p);
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "dt", "b", &err), &err);
  CHECK_OK(paimon_delete_by_predicate(t, p, &m, &err), &err);
  int more[] = {9};
  const char *b[] = {"b"};
  tu_append(t, 1, more, NULL, b);
  int64_t before = tu_latest(t);
  CHECK_INT(tu_commit(t, m, &err), PAIMON_ECONFLICT);
  CHECK_CONTAINS(err.message,
                 "Overwrite conflict detected: target partitions were modified after snapshot 2.");
  CHECK_INT(tu_latest(t), before);
  paimon_predicate_free(p);
  tu_check_clean(t);
  tu_check_clean(dvt);
  paimon_table_free(t);
  paimon_table_free(dvt);
}

int main(void) {
  if (tu_open("delete")) return 1;
  RUN(test_delete_by_row_id);
  RUN(test_delete_partitions_and_groups);
  RUN(test_delete_errors_leave_table_unchanged);
  RUN(test_delete_by_predicate);
  RUN(test_delete_partition_drop);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
