/* Tests for reading with deletion vectors (src/table/plan.c, read.c, dv.c; spec/format.md §7.3,
 * data-evolution.md §2.6): positions count physical rows before deletes across batch boundaries,
 * with filters and with only hidden columns projected; DVs are ignored unless
 * deletion-vectors.enabled; Java's layouts read too (a 64-bit record, a bitmap with run
 * containers); a data-evolution group's DV applies through its anchor to the merged rows; and a
 * damaged DV is an error naming the index file, not a crash. */
#include "arrow/schema.h"
#include "cpaimon/delete.h"
#include "cpaimon/predicate.h"
#include "dv_test_util.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/dv.h"

static const char *de_dv[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                              "deletion-vectors.enabled=true"};

/* The single live data file's name. */
static void only_file(paimon_table *t, char *name, size_t size) {
  paimon_error err;
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, tu_latest(t), &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &files, &err), &err);
  CHECK(files.n >= 1);
  if (files.n) snprintf(name, size, "%s", files.items[0].file.file_name);
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
}

/* Commits an index file holding `record` (a whole DV record with f2 = length) for `data_file`. */
static int64_t commit_record(paimon_table *t, const char *name, const char *data_file,
                             const cp_buf *record, int32_t length, int64_t cardinality) {
  paimon_error err;
  cp_buf file = CP_BUF_INIT;
  uint8_t version = CP_DV_INDEX_VERSION;
  CHECK_OK(cp_buf_append(&file, &version, 1, &err), &err);
  CHECK_OK(cp_buf_append(&file, record->data, record->len, &err), &err);
  char path[512];
  snprintf(path, sizeof path, "%s/index/%s", t->path, name);
  CHECK_OK(cp_fs_write_file(t->fs, path, file.data, file.len, CP_CREATE_EXCLUSIVE, true, &err),
           &err);
  cp_dv_meta meta = {data_file, 1, length, true, cardinality};
  cp_index_manifest_entry e;
  memset(&e, 0, sizeof e);
  e.partition = (cp_bytes){cp_binary_row_empty, 12};
  e.index_type = CP_DV_INDEX_TYPE;
  e.file_name = name;
  e.file_size = (int64_t)file.len;
  e.row_count = 1;
  e.has_dv_ranges = true;
  e.dv_ranges = &meta;
  e.n_dv_ranges = 1;
  cp_commit_message msg;
  memset(&msg, 0, sizeof msg);
  msg.partition = e.partition;
  msg.total_buckets = -1;
  msg.index_adds = &e;
  msg.n_index_adds = 1;
  msg.check_from_snapshot = -1;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_commit_messages_new(&m, &err), &err);
  CHECK_OK(cp_commit_messages_add(m, &msg, &err), &err);
  cp_buf_free(&file);
  return tu_commit(t, m, &err);
}

/* Reads only _ROW_ID with a small batch size; returns the count and fills ids. */
static int read_row_ids(paimon_table *t, int64_t batch, const paimon_predicate *p, int64_t *ids,
                        int max) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream s;
  struct ArrowSchema schema;
  const char *col = "_ROW_ID";
  int n = 0;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_OK(paimon_read_builder_set_projection(rb, &col, 1, &err), &err);
  if (p) CHECK_OK(paimon_read_builder_set_filter(rb, p, &err), &err);
  paimon_read_builder_set_batch_size(rb, batch);
  CHECK_OK(paimon_read_builder_plan(rb, &plan, &err), &err);
  CHECK_OK(paimon_plan_read(rb, plan, NULL, 0, &s, &err), &err);
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray b;
    CHECK_OK(cp_stream_next(&s, &b, &err), &err);
    if (!b.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &b, &err), &err);
    for (int64_t i = 0; i < v.length && n < max; i++)
      ids[n++] = cp_view_get_int64(&v.children[0], i);
    cp_array_view_reset(&v);
    b.release(&b);
  }
  schema.release(&schema);
  s.release(&s);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  return n;
}

/* Deletes across small batches; the same rows with a filter, and reading only _ROW_ID. */
static void test_positions_across_batches(void) {
  paimon_table *t = tu_table("dvr_batches", NULL, de_dv, 3);
  if (!t) return;
  int ids[100];
  for (int i = 0; i < 100; i++) ids[i] = i;
  tu_append(t, 100, ids, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[40];
  for (int i = 0; i < 40; i++) del[i] = i * 2 + (i >= 20); /* evens < 40, odds > 40 */
  CHECK_OK(paimon_delete_by_row_ids(t, del, 40, &m, &err), &err);
  tu_commit(t, m, NULL);
  int64_t got[128];
  for (int64_t batch = 1; batch <= 64; batch *= 4) {
    int n = read_row_ids(t, batch, NULL, got, 128);
    CHECK_INT(n, 60);
    int k = 0;
    for (int64_t r = 0; r < 100; r++) {
      bool deleted = (r < 40 && r % 2 == 0) || (r > 40 && r < 80 && r % 2 == 1);
      if (!deleted && k < n) CHECK_INT(got[k++], r);
    }
  }
  /* With a filter on a column: deleted rows stay out. */
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_LESS_THAN, "id", "10", &err), &err);
  int n = read_row_ids(t, 3, p, got, 128);
  CHECK_INT(n, 5);
  if (n == 5) CHECK(got[0] == 1 && got[4] == 9);
  paimon_predicate_free(p);
  tu_check_clean(t);
  paimon_table_free(t);
}

/* Readers ignore DVs unless the option is on (§7.3). */
static void test_option_off_ignores_dvs(void) {
  paimon_table *t = tu_table("dvr_off", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3};
  tu_append(t, 3, ids, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {1};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 1, &m, &err), &err);
  tu_commit(t, m, NULL);
  tu_rows r;
  tu_read(t, &r);
  CHECK_INT(r.n, 2);
  paimon_schema_change ch = {
      PAIMON_SET_OPTION, "deletion-vectors.enabled", "false", NULL, NULL, NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(tu_cat, "db.dvr_off", &ch, 1, false, &err), &err);
  paimon_table *again = NULL;
  CHECK_OK(paimon_catalog_get_table(tu_cat, "db.dvr_off", &again, &err), &err);
  if (again) {
    tu_read(again, &r);
    CHECK_INT(r.n, 3);
  }
  paimon_table_free(again);
  paimon_table_free(t);
}

/* A 64-bit record (Java's bitmap64 layout) and a run-container bitmap are read. */
static void test_java_layouts(void) {
  const char *o[] = {"row-tracking.enabled=true", "deletion-vectors.enabled=true"};
  paimon_table *a = tu_table("dvr_64", NULL, o, 2);
  paimon_table *b = tu_table("dvr_runs", NULL, o, 2);
  if (!a || !b) return;
  int ids[30];
  for (int i = 0; i < 30; i++) ids[i] = i;
  tu_append(a, 30, ids, NULL, NULL);
  tu_append(b, 30, ids, NULL, NULL);
  paimon_error err;
  char name[128];
  /* 64-bit: positions 3 and 29. */
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_OK(cp_dv_add(dv, 3, NULL, &err), &err);
  CHECK_OK(cp_dv_add(dv, 29, NULL, &err), &err);
  cp_buf rec = CP_BUF_INIT;
  int32_t len = 0;
  CHECK_OK(cp_dv_write_record64(dv, &rec, &len, &err), &err);
  only_file(a, name, sizeof name);
  CHECK(commit_record(a, "index-64", name, &rec, len, 2) > 0);
  tu_rows r;
  tu_read(a, &r);
  CHECK_INT(r.n, 28);
  CHECK(r.n == 28 && r.row_id[3] == 4 && r.row_id[27] == 28);
  tu_check_clean(a);
  cp_buf_free(&rec);
  cp_dv_free(dv);
  /* A run container (pyroaring, run_optimize()d: 10..19), wrapped in a 32-bit record. */
  static const uint8_t runs[] = {0x3b, 0x30, 0x00, 0x00, 0x01, 0x00, 0x00, 0x09,
                                 0x00, 0x01, 0x00, 0x0a, 0x00, 0x09, 0x00};
  uint8_t head[8] = {0, 0, 0, (uint8_t)(4 + sizeof runs), 0x5e, 0x43, 0xf2, 0xd0};
  CHECK_OK(cp_buf_append(&rec, head, 8, &err), &err);
  CHECK_OK(cp_buf_append(&rec, runs, sizeof runs, &err), &err);
  uint8_t crc[4] = {0, 0, 0, 0}; /* readers skip the CRC, as Java and pypaimon do */
  CHECK_OK(cp_buf_append(&rec, crc, 4, &err), &err);
  only_file(b, name, sizeof name);
  CHECK(commit_record(b, "index-runs", name, &rec, (int32_t)(4 + sizeof runs), 10) > 0);
  tu_read(b, &r);
  CHECK_INT(r.n, 20);
  CHECK(r.n == 20 && r.row_id[9] == 9 && r.row_id[10] == 20);
  tu_check_clean(b);
  cp_buf_free(&rec);
  paimon_table_free(a);
  paimon_table_free(b);
}

/* A merged data-evolution group: the DV is the anchor's, applied to every file of the group. */
static void test_merged_group_uses_anchor(void) {
  paimon_table *t = tu_table("dvr_de", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3, 4};
  tu_append(t, 4, ids, NULL, NULL);
  paimon_error err;
  paimon_write *w = NULL;
  const char *cols[] = {"name"};
  CHECK_OK(paimon_write_new(&w, t, cols, 1, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHECK_OK(cp_schema_init(&s, "+s", "", 0, 1, &err), &err);
  CHECK_OK(cp_schema_init(s.children[0], "u", "name", ARROW_FLAG_NULLABLE, 0, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  const char *names[] = {"A", "B", "C", "D"};
  for (int i = 0; i < 4; i++) {
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 0), names[i], &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(paimon_write_batch(w, &s, &a, &err), &err);
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  if (m && m->n == 1) {
    m->items[0].new_files[0].has_first_row_id = true;
    m->items[0].new_files[0].first_row_id = 0;
  }
  CHECK_INT(tu_commit(t, m, &err), 2);
  paimon_write_free(w);
  s.release(&s);
  a.release(&a);
  int64_t del[] = {0, 2};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 2, &m, &err), &err);
  if (m && m->n == 1) {
    /* The DV names the anchor: the older file (sequence 1), not the partial one. */
    CHECK_INT(m->items[0].index_adds[0].n_dv_ranges, 1);
  }
  tu_commit(t, m, NULL);
  tu_rows r;
  tu_read(t, &r);
  CHECK_INT(r.n, 2);
  if (r.n == 2) {
    CHECK_STR(r.name[0], "B");
    CHECK_STR(r.name[1], "D");
    CHECK_INT(r.row_id[1], 3);
    CHECK_INT(r.seq[1], 2);
  }
  tu_check_clean(t);
  paimon_table_free(t);
}

/* A damaged DV file fails the read with an error naming it. */
static void test_damaged_dv_is_an_error(void) {
  paimon_table *t = tu_table("dvr_bad", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2, 3};
  tu_append(t, 3, ids, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {1};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 1, &m, &err), &err);
  char path[512] = "";
  if (m && m->n == 1)
    snprintf(path, sizeof path, "%s/index/%s", t->path, m->items[0].index_adds[0].file_name);
  tu_commit(t, m, NULL);
  FILE *f = fopen(path, "r+b");
  if (f) {
    fseek(f, 5, SEEK_SET);
    fputc(0x11, f); /* the magic */
    fclose(f);
  }
  tu_rows r;
  /* Through the Arrow stream the code becomes EIO (an errno); the message says what is wrong. */
  CHECK(tu_read_at(t, NULL, 0, &r, &err) != 0);
  CHECK_CONTAINS(err.message, "Invalid magic number");
  CHECK_CONTAINS(err.message, "index-");
  if (f) CHECK(truncate(path, 3) == 0);
  CHECK(tu_read_at(t, NULL, 0, &r, &err) != 0);
  CHECK_CONTAINS(err.message, "does not fit in the file");
  paimon_table_free(t);
}

/* pypaimon test_retrieve_anchor_file_uses_oldest_normal_file: the smallest (max sequence, name)
 * among normal files; blob and vector files never anchor. */
static void test_anchor_rule(void) {
  cp_manifest_entry e[4];
  memset(e, 0, sizeof e);
  const char *names[] = {"data-b.parquet", "data-a.parquet", "data-0.parquet", "data-x.blob"};
  int64_t seqs[] = {5, 5, 7, 1};
  for (int i = 0; i < 4; i++) {
    e[i].file.file_name = names[i];
    e[i].file.max_sequence_number = seqs[i];
  }
  const cp_manifest_entry *a = cp_dv_anchor(e, 4);
  CHECK(a == &e[1]);
  CHECK(cp_dv_anchor(e + 3, 1) == NULL);
  CHECK(cp_dv_anchor(e + 2, 2) == &e[2]);
}

/* pypaimon test_data_evolution_merge_reader_handles_fully_deleted_file: a group whose rows are
 * all deleted reads as nothing, the groups around it as usual. */
static void test_fully_deleted_group(void) {
  paimon_table *t = tu_table("dvr_full", NULL, de_dv, 3);
  if (!t) return;
  int a[] = {1, 2}, b[] = {3, 4, 5}, c[] = {6};
  tu_append(t, 2, a, NULL, NULL);
  tu_append(t, 3, b, NULL, NULL);
  tu_append(t, 1, c, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {2, 3, 4, 5};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 4, &m, &err), &err);
  tu_commit(t, m, NULL);
  tu_rows r;
  char buf[128];
  tu_read(t, &r);
  CHECK_STR(tu_render(&r, buf, sizeof buf), "1:0:1,2:1:1");
  tu_check_clean(t);
  paimon_table_free(t);
}

int main(void) {
  if (tu_open("dvread")) return 1;
  RUN(test_positions_across_batches);
  RUN(test_option_off_ignores_dvs);
  RUN(test_java_layouts);
  RUN(test_merged_group_uses_anchor);
  RUN(test_damaged_dv_is_an_error);
  RUN(test_anchor_rule);
  RUN(test_fully_deleted_group);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
