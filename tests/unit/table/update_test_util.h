/*
 * Helpers of the data-evolution update tests (tests/unit/table/test_update*.c): tables, record
 * batches written as text ("1,Alice,25;2,Bob,NULL" parsed per column type), commits, and reads
 * rendered as text ("1|Alice|25\n..." with Spark's cell text) so expectations read like the
 * pypaimon tests they port.
 */
#ifndef CP_TEST_UPDATE_UTIL_H
#define CP_TEST_UPDATE_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/print.h"
#include "arrow/stream.h"
#include "cpaimon/commit.h"
#include "cpaimon/read.h"
#include "cpaimon/update.h"
#include "cpaimon/write.h"
#include "expr/expr.h"
#include "table/commit_message.h"
#include "table/table.h"
#include "test.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static paimon_catalog *cat;

/* A batch of row type `row_sql` from `text`: rows split by ';', values by ',', "NULL" is null. */
typedef struct tbatch {
  struct ArrowSchema schema;
  struct ArrowArray array;
} tbatch;

static inline void tbatch_free(tbatch *b) {
  if (b->schema.release) b->schema.release(&b->schema);
  if (b->array.release) b->array.release(&b->array);
}

static inline tbatch make_batch(const char *row_sql, const char *text) {
  tbatch out;
  memset(&out, 0, sizeof out);
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse(row_sql, &row, &err), &err);
  if (!row) return out;
  CHECK_OK(cp_row_to_arrow_schema(row, &out.schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &out.schema, &err), &err);
  char *copy = strdup(text), *save_row = NULL;
  cp_arena arena = CP_ARENA_INIT;
  for (char *r = strtok_r(copy, ";", &save_row); r && b; r = strtok_r(NULL, ";", &save_row)) {
    char *save_val = NULL, *v = strtok_r(r, ",", &save_val);
    for (size_t c = 0; c < row->n_fields; c++, v = strtok_r(NULL, ",", &save_val)) {
      cp_datum d = cp_datum_null();
      if (v && strcmp(v, "NULL") != 0)
        CHECK_OK(cp_datum_parse_text(row->fields[c].type, v, &arena, &d, &err), &err);
      CHECK_OK(cp_datum_append(row->fields[c].type, &d, cp_builder_child(b, (int64_t)c), &err),
               &err);
    }
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  if (b) CHECK_OK(cp_builder_finish(b, &out.array, &err), &err);
  cp_builder_free(b);
  cp_arena_free(&arena);
  free(copy);
  cp_type_free(row);
  return out;
}

static paimon_table *open_table(const char *ident) {
  paimon_error err;
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  return t;
}

/* Creates `ident` with columns "name TYPE" (NULL-terminated), partition keys (NULL-terminated or
 * NULL) and options "k=v" (NULL-terminated or NULL); data evolution and row tracking on unless
 * the options say otherwise. */
static paimon_table *create_table(const char *ident, const char *const *cols,
                                  const char *const *parts, const char *const *opts) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  for (size_t i = 0; cols[i]; i++) {
    char name[64];
    const char *sp = strchr(cols[i], ' ');
    snprintf(name, sizeof name, "%.*s", (int)(sp - cols[i]), cols[i]);
    CHECK_OK(paimon_schema_add_column(s, name, sp + 1, NULL, &err), &err);
  }
  size_t np = 0;
  while (parts && parts[np]) np++;
  if (np) CHECK_OK(paimon_schema_set_partition_keys(s, parts, np, &err), &err);
  bool rt = true, de = true;
  for (size_t i = 0; opts && opts[i]; i++) {
    char key[128];
    const char *eq = strchr(opts[i], '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - opts[i]), opts[i]);
    CHECK_OK(paimon_schema_set_option(s, key, eq + 1, &err), &err);
    if (strcmp(key, "row-tracking.enabled") == 0) rt = false;
    if (strcmp(key, "data-evolution.enabled") == 0) de = false;
  }
  if (rt) CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  if (de) CHECK_OK(paimon_schema_set_option(s, "data-evolution.enabled", "true", &err), &err);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  return open_table(ident);
}

/* Commits `m` (consumed); returns the new snapshot id (0: none). */
static inline int64_t commit_msgs(paimon_table *t, paimon_commit_messages *m) {
  paimon_error err;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  if (c && m) CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  int64_t id = c ? paimon_commit_last_snapshot_id(c) : 0;
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
  return id;
}

/* Appends rows (full columns) and commits. */
static inline int64_t append_rows(paimon_table *t, const char *row_sql, const char *text) {
  paimon_error err;
  tbatch b = make_batch(row_sql, text);
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  if (w) CHECK_OK(paimon_write_batch(w, &b.schema, &b.array, &err), &err);
  if (w) CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  paimon_write_free(w);
  tbatch_free(&b);
  return commit_msgs(t, m);
}

/* Renders a stream: rows "a|b|c" joined by '\n' (NULL as NULL). Consumes and releases it. */
static char *render_stream(struct ArrowArrayStream *s) {
  paimon_error err;
  cp_buf out = CP_BUF_INIT;
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  CHECK_OK(cp_stream_get_schema(s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    int rc = cp_stream_next(s, &batch, &err);
    CHECK_OK(rc, &err);
    if (rc || !batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    for (int64_t i = 0; i < v.length; i++) {
      if (out.len) cp_buf_append(&out, "\n", 1, NULL);
      for (int64_t c = 0; c < v.n_children; c++) {
        if (c) cp_buf_append(&out, "|", 1, NULL);
        cp_print_value(&out, &v.children[c], i, NULL);
      }
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  if (s->release) s->release(s);
  cp_buf_nul_terminate(&out, NULL);
  return out.data ? (char *)out.data : strdup("");
}

/* Reads columns "a,b,_ROW_ID,..." (NULL: all) of the latest snapshot as text (malloc'd). */
static char *read_text(paimon_table *t, const char *cols) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  if (!rb) return strdup("");
  if (cols) {
    char *copy = strdup(cols), *save = NULL;
    const char *names[64];
    size_t n = 0;
    for (char *c = strtok_r(copy, ",", &save); c && n < 64; c = strtok_r(NULL, ",", &save))
      names[n++] = c;
    CHECK_OK(paimon_read_builder_set_projection(rb, names, n, &err), &err);
    free(copy);
  }
  paimon_plan *p = NULL;
  char *out = NULL;
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  if (p) CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  out = s.release ? render_stream(&s) : strdup("");
  paimon_plan_free(p);
  paimon_read_builder_free(rb);
  return out;
}

#define CHECK_READ(t, cols, want)                                                                  \
  do {                                                                                             \
    char *got_ = read_text((t), (cols));                                                           \
    CHECK_STR(got_, (want));                                                                       \
    free(got_);                                                                                    \
  } while (0)

static inline int64_t latest_snapshot(paimon_table *t) {
  paimon_error err;
  int64_t id = 0;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &id, &err), &err);
  return id;
}

/* update_by_row_id with a fresh updater over text rows; returns the status, messages in *out. */
static inline int update_rows(paimon_table *t, const char *const *update_cols, size_t n_cols,
                              const char *row_sql, const char *text, paimon_commit_messages **out,
                              paimon_error *err) {
  tbatch b = make_batch(row_sql, text);
  paimon_update *u = NULL;
  int rc = paimon_update_new(&u, t, err);
  if (!rc && n_cols) rc = paimon_update_set_update_cols(u, update_cols, n_cols, err);
  if (!rc) rc = paimon_update_by_row_id(u, &b.schema, &b.array, out, err);
  paimon_update_free(u);
  tbatch_free(&b);
  return rc;
}

/* Counts the files under the table directory (to check failed operations leave none). */
static inline int count_data_files(paimon_table *t) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "find '%s' -name 'data-*' -type f | wc -l", paimon_table_path(t));
  FILE *f = popen(cmd, "r");
  int n = -1;
  if (f) {
    if (fscanf(f, "%d", &n) != 1) n = -1;
    pclose(f);
  }
  return n;
}

static inline void setup_catalog(const char *name) {
  char dir[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/%s-%d", tmp ? tmp : "/tmp", name, (int)getpid());
  paimon_error err;
  CHECK_OK(paimon_catalog_open(&cat, dir, &err), &err);
  CHECK_OK(paimon_catalog_create_database(cat, "db", true, &err), &err);
}

static inline void teardown_catalog(void) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", paimon_catalog_warehouse(cat));
  paimon_catalog_free(cat);
  if (system(cmd) != 0) fprintf(stderr, "could not remove the test warehouse\n");
}

#endif
