/* BLOB columns through the table layer (docs/blob.md), also under ASan: rows written into the
 * Parquet file and `.blob` files (rolling), read back merged by row id, BLOB values updated by
 * row id (placeholders), a filter that skips payloads, compaction leaving the `.blob` files, a
 * failure at every I/O step of a blob write leaving nothing behind, BLOB and other columns updated
 * together, the shard updater writing `.blob` files, and a BlobDescriptor value copied. Interop
 * with pypaimon and Java is in tests/python/test_blob_write.py and test_blob_read.py. */
#include "base/fs.h"
#include "format/blob/blob_file.h"
#include "cpaimon/compact.h"
#include "update_test_util.h"

#define ROW "ROW<id INT, pic BLOB>"
static const char *const COLS[] = {"id INT", "pic BLOB", NULL};
static const char *const PIC[] = {"pic"};

static paimon_table *blob_table(const char *ident) {
  static const char *const opts[] = {"blob.target-file-size=20 b", NULL};
  paimon_table *t = create_table(ident, COLS, NULL, opts);
  append_rows(t, ROW, "1,aaaa;2,NULL;3,bb;4,cccccccc");
  append_rows(t, ROW, "5,dd;6,e");
  return t;
}

static void test_write_read_update(void) {
  paimon_error err;
  paimon_table *t = blob_table("db.blobs");
  CHECK(count_data_files(t) > 4); /* two Parquet files and rolled .blob files */
  const char *want = "1|[61 61 61 61]|0\n2|NULL|1\n3|[62 62]|2\n4|[63 63 63 63 63 63 63 63]|3\n"
                     "5|[64 64]|4\n6|[65]|5";
  CHECK_READ(t, "id,pic,_ROW_ID", want);
  CHECK_READ(t, "pic", "[61 61 61 61]\nNULL\n[62 62]\n[63 63 63 63 63 63 63 63]\n[64 64]\n[65]");
  paimon_commit_messages *m = NULL;
  CHECK_OK(update_rows(t, PIC, 1, "ROW<_ROW_ID BIGINT, pic BLOB>", "1,zz;2,NULL;4,y", &m, &err),
           &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,pic",
             "1|[61 61 61 61]\n2|[7A 7A]\n3|NULL\n4|[63 63 63 63 63 63 63 63]\n"
             "5|[79]\n6|[65]");
  /* A filter on another column: only the surviving rows' payloads are read. */
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_GREATER_OR_EQUAL, "id", "5", &err),
           &err);
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream st;
  const char *proj[] = {"id", "pic"};
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  CHECK_OK(paimon_read_builder_set_projection(rb, proj, 2, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, p, &err), &err);
  CHECK_OK(paimon_read_builder_plan(rb, &plan, &err), &err);
  CHECK_OK(paimon_plan_read(rb, plan, NULL, 0, &st, &err), &err);
  char *got = render_stream(&st);
  CHECK_STR(got, "5|[79]\n6|[65]");
  free(got);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  paimon_predicate_free(p);
  const char *keys[] = {"compaction.min.file-num"}, *values[] = {"2"};
  paimon_compact_options o = {NULL, keys, values, 1};
  paimon_compact_result r;
  CHECK_OK(paimon_table_compact(t, &o, &r, &err), &err);
  CHECK_INT(r.tasks, 1);
  CHECK_READ(t, "id,pic",
             "1|[61 61 61 61]\n2|[7A 7A]\n3|NULL\n4|[63 63 63 63 63 63 63 63]\n"
             "5|[79]\n6|[65]");
  paimon_table_free(t);
}

/* Every I/O call of a blob write and commit fails in turn: the table reads as before (or with the
 * rows, if the commit got through) and no file of the failed write stays. */
static void test_crash_at_each_step(void) {
  static const cp_fs_op ops[] = {CP_FS_OP_CREATE, CP_FS_OP_WRITE, CP_FS_OP_FSYNC, CP_FS_OP_CLOSE,
                                 CP_FS_OP_RENAME};
  paimon_error err;
  int cases = 0;
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    for (int nth = 1; nth < 60; nth++) {
      char ident[48];
      snprintf(ident, sizeof ident, "db.bcrash%zu_%d", o, nth);
      paimon_table *t = blob_table(ident);
      int files = count_data_files(t);
      tbatch b = make_batch(ROW, "7,ffffffffffffffffffffffff;8,g;9,NULL");
      uint64_t before = cp_fs_op_count(t->fs, ops[o]);
      cp_fs_inject_fault(t->fs, ops[o], nth, PAIMON_EIO);
      paimon_write *w = NULL;
      paimon_commit_messages *m = NULL;
      paimon_commit *c = NULL;
      int rc = paimon_write_new(&w, t, NULL, 0, &err);
      if (!rc) rc = paimon_write_batch(w, &b.schema, &b.array, &err);
      if (!rc) rc = paimon_write_prepare_commit(w, &m, &err);
      if (!rc) rc = paimon_commit_new(&c, t, &err);
      if (!rc) rc = paimon_commit_commit(c, m, &err);
      if (rc && m) paimon_commit_abort(c ? c : NULL, m, NULL);
      bool hit = cp_fs_op_count(t->fs, ops[o]) - before >= (uint64_t)nth;
      cp_fs_inject_fault(t->fs, ops[o], 0, 0);
      paimon_commit_free(c);
      paimon_commit_messages_free(m);
      paimon_write_free(w);
      tbatch_free(&b);
      char *got = read_text(t, "id");
      bool landed = strcmp(got, "1\n2\n3\n4\n5\n6\n7\n8\n9") == 0;
      CHECK(landed || strcmp(got, "1\n2\n3\n4\n5\n6") == 0);
      if (!landed) CHECK_INT(count_data_files(t), files);
      free(got);
      paimon_table_free(t);
      cases++;
      if (!hit) break;
    }
  }
  CHECK(cases > 10);
}

/* Overwrites row `r` of column 0 of `b` (a large_binary value made as long as `len`) with `v`. */
static void patch_value(tbatch *b, int64_t r, const void *v, size_t len) {
  struct ArrowArray *col = b->array.children[0];
  const int64_t *offsets = col->buffers[1];
  CHECK_INT(offsets[r + 1] - offsets[r], (int64_t)len);
  memcpy((uint8_t *)col->buffers[2] + offsets[r], v, len);
}

/* BLOB and other columns updated by row id in one call, and the shard updater backfilling a BLOB
 * column for every row into `.blob` files, one value a BlobDescriptor whose bytes are copied. */
static void test_mixed_update_shard_and_descriptor(void) {
  paimon_error err;
  paimon_table *t = blob_table("db.bmixed");
  paimon_commit_messages *m = NULL;
  static const char *const BOTH[] = {"id", "pic"};
  CHECK_OK(update_rows(t, BOTH, 2, "ROW<_ROW_ID BIGINT, id INT, pic BLOB>", "0,10,qq;3,40,NULL", &m,
                       &err),
           &err);
  commit_msgs(t, m);
  CHECK_READ(t, "id,pic", "10|[71 71]\n2|NULL\n3|[62 62]\n40|NULL\n5|[64 64]\n6|[65]");

  char src[600];
  snprintf(src, sizeof src, "%s/source.bin", paimon_table_path(t));
  FILE *f = fopen(src, "wb");
  CHECK(f != NULL);
  if (f) {
    fputs("hello world", f);
    fclose(f);
  }
  size_t n = cp_blob_descriptor_size(strlen(src));
  uint8_t *d = malloc(n);
  cp_blob_descriptor_write(d, src, strlen(src), 6, 5);
  char *text = malloc(n + 64);
  memcpy(text, "a;", 2);
  memset(text + 2, 'x', n);
  strcpy(text + 2 + n, ";NULL;b;c;dd");
  tbatch b = make_batch("ROW<pic BLOB>", text);
  patch_value(&b, 1, d, n);
  paimon_update *u = NULL;
  CHECK_OK(paimon_update_new(&u, t, &err), &err);
  CHECK_OK(paimon_update_set_update_cols(u, PIC, 1, &err), &err);
  paimon_shard_updater *s = NULL;
  /* Freed without prepare_commit: its `.blob` files go. */
  int files = count_data_files(t);
  CHECK_OK(paimon_shard_updater_new(&s, u, 0, 1, &err), &err);
  CHECK_OK(paimon_shard_updater_write(s, &b.schema, &b.array, &err), &err);
  CHECK(count_data_files(t) > files);
  paimon_shard_updater_free(s);
  CHECK_INT(count_data_files(t), files);
  CHECK_OK(paimon_shard_updater_new(&s, u, 0, 1, &err), &err);
  CHECK_OK(paimon_shard_updater_write(s, &b.schema, &b.array, &err), &err);
  CHECK_OK(paimon_shard_updater_prepare_commit(s, &m, &err), &err);
  CHECK_INT(paimon_commit_messages_new_file_count(m), 2); /* one `.blob` file per group */
  commit_msgs(t, m);
  CHECK_READ(t, "id,pic", "10|[61]\n2|[77 6F 72 6C 64]\n3|NULL\n40|[62]\n5|[63]\n6|[64 64]");
  paimon_shard_updater_free(s);
  /* A descriptor naming a missing object: refused, nothing written. */
  files = count_data_files(t);
  snprintf(src + strlen(src) - 3, 4, "xyz");
  cp_blob_descriptor_write(d, src, strlen(src), 0, -1);
  patch_value(&b, 1, d, n);
  CHECK_OK(paimon_shard_updater_new(&s, u, 0, 1, &err), &err);
  CHECK_ERR(paimon_shard_updater_write(s, &b.schema, &b.array, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "column pic, row 1");
  CHECK_CONTAINS(err.message, "source.xyz");
  paimon_shard_updater_free(s);
  CHECK_INT(count_data_files(t), files);
  paimon_update_free(u);
  tbatch_free(&b);
  free(text);
  free(d);
  paimon_table_free(t);
}

int main(void) {
  setup_catalog("blob_table");
  RUN(test_write_read_update);
  RUN(test_crash_at_each_step);
  RUN(test_mixed_update_shard_and_descriptor);
  teardown_catalog();
  TEST_MAIN_END();
}
