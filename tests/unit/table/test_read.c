/* Tests for planning and reading (include/cpaimon/read.h): projection, hidden row-tracking
 * columns, time travel, reading files written before ALTER TABLE (added / renamed columns), and
 * errors. Interop with pypaimon is covered in tests/python/test_table_interop.py. */
#include <stdlib.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "cpaimon/commit.h"
#include "cpaimon/read.h"
#include "cpaimon/write.h"
#include "table/table.h"
#include "commit_test_util.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static paimon_catalog *cat;

static void v_text(const char *column, int64_t id, char *buf, size_t cap) {
  (void)column;
  snprintf(buf, cap, "v%lld", (long long)id);
}

static void write_rows(paimon_table *t, const char *row_sql, int first, int n) {
  commit_rows(t, row_sql, first, n, v_text);
}

/* Reads everything into one struct array (concatenated batches' columns as int64 / text). */
typedef struct rows {
  int64_t n;
  int64_t ids[64], row_ids[64], seqs[64];
  char text[64][16];
  bool text_null[64];
} rows;

static void read_rows(paimon_read_builder *rb, rows *out, int id_col, int text_col, int rid_col,
                      int seq_col) {
  paimon_error err;
  paimon_plan *p = NULL;
  struct ArrowArrayStream s;
  memset(out, 0, sizeof *out);
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  if (!p) return;
  CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  struct ArrowSchema schema;
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray batch;
    CHECK_OK(cp_stream_next(&s, &batch, &err), &err);
    if (!batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    for (int64_t i = 0; i < v.length && out->n < 64; i++, out->n++) {
      if (id_col >= 0) out->ids[out->n] = cp_view_get_int64(&v.children[id_col], i);
      if (rid_col >= 0) out->row_ids[out->n] = cp_view_get_int64(&v.children[rid_col], i);
      if (seq_col >= 0) out->seqs[out->n] = cp_view_get_int64(&v.children[seq_col], i);
      if (text_col >= 0) {
        out->text_null[out->n] = cp_view_is_null(&v.children[text_col], i);
        int64_t len = 0;
        const uint8_t *d =
            out->text_null[out->n] ? NULL : cp_view_get_bytes(&v.children[text_col], i, &len);
        snprintf(out->text[out->n], 16, "%.*s", (int)len, d ? (const char *)d : "");
      }
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  schema.release(&schema);
  s.release(&s);
  paimon_plan_free(p);
}

static paimon_table *create(const char *ident, const char *opt_key) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "BIGINT NOT NULL", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "name", "STRING", NULL, &err), &err);
  if (opt_key) CHECK_OK(paimon_schema_set_option(s, opt_key, "true", &err), &err);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  return t;
}

static void test_projection_hidden_and_time_travel(void) {
  paimon_table *t = create("db.rt", "row-tracking.enabled");
  if (!t) return;
  write_rows(t, "ROW<id BIGINT NOT NULL, name STRING>", 0, 3);
  write_rows(t, "ROW<id BIGINT NOT NULL, name STRING>", 3, 2);
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  const char *cols[] = {"_SEQUENCE_NUMBER", "name", "_ROW_ID"};
  CHECK_OK(paimon_read_builder_set_projection(rb, cols, 3, &err), &err);
  paimon_read_builder_set_batch_size(rb, 2); /* several batches per file */
  rows r;
  read_rows(rb, &r, -1, 1, 2, 0);
  CHECK_INT(r.n, 5);
  for (int i = 0; i < 5 && i < r.n; i++) {
    char want[16];
    snprintf(want, sizeof want, "v%d", i);
    CHECK_STR(r.text[i], want);
    CHECK_INT(r.row_ids[i], i);
    CHECK_INT(r.seqs[i], i < 3 ? 1 : 2);
  }
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 1, &err), &err);
  read_rows(rb, &r, -1, 1, 2, 0);
  CHECK_INT(r.n, 3);
  CHECK_ERR(paimon_read_builder_set_snapshot(rb, 0, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_read_builder_set_snapshot(rb, 9, &err), &err);
  paimon_plan *p = NULL;
  CHECK_ERR(paimon_read_builder_plan(rb, &p, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "snapshot 9");
  const char *bad[] = {"nope"};
  CHECK_ERR(paimon_read_builder_set_projection(rb, bad, 1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Column nope is not in table db.rt.");
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_old_files_after_alter(void) {
  paimon_table *t = create("db.evo", NULL);
  if (!t) return;
  write_rows(t, "ROW<id BIGINT NOT NULL, name STRING>", 0, 2);
  paimon_error err;
  paimon_schema_change ch[2] = {{PAIMON_RENAME_COLUMN, "name", "label", NULL, NULL, NULL, NULL, 0},
                                {PAIMON_ADD_COLUMN, "extra", NULL, "STRING", NULL, NULL, NULL, 0}};
  CHECK_OK(paimon_catalog_alter_table(cat, "db.evo", ch, 2, false, &err), &err);
  paimon_table_free(t);
  t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, "db.evo", &t, &err), &err);
  if (!t) return;
  write_rows(t, "ROW<id BIGINT NOT NULL, label STRING, extra STRING>", 2, 1);
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  rows r;
  /* The renamed column keeps its data; the added one reads NULL in old files. */
  read_rows(rb, &r, 0, 1, -1, -1);
  CHECK_INT(r.n, 3);
  CHECK_STR(r.text[0], "v0");
  CHECK_STR(r.text[2], "v2");
  read_rows(rb, &r, 0, 2, -1, -1);
  CHECK(r.text_null[0] && r.text_null[1] && !r.text_null[2]);
  CHECK_ERR(paimon_read_builder_with_row_tracking(rb, &err), PAIMON_EINVAL);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

int main(void) {
  if (!(cat = temp_catalog("read"))) return 1;
  RUN(test_projection_hidden_and_time_travel);
  RUN(test_old_files_after_alter);
  paimon_catalog_free(cat);
  TEST_MAIN_END();
}
