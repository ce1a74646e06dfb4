/* Test helpers shared by the table tests: a catalog on a fresh temporary warehouse with database
 * "db", and one batch written and committed through the public write and commit API
 * (include/cpaimon/write.h, commit.h), the test failing on any error. */
#ifndef CP_TEST_COMMIT_TEST_UTIL_H
#define CP_TEST_COMMIT_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "arrow/array.h"
#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/write.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

/* Opens a catalog on a new directory $TMPDIR/<prefix>-XXXXXX (default /tmp) and creates database
 * "db" in it; NULL when any step fails. */
static inline paimon_catalog *temp_catalog(const char *prefix) {
  char warehouse[256];
  const char *tmp = getenv("TMPDIR");
  snprintf(warehouse, sizeof warehouse, "%s/%s-XXXXXX", tmp ? tmp : "/tmp", prefix);
  paimon_error err;
  paimon_catalog *c = NULL;
  if (!mkdtemp(warehouse) || paimon_catalog_open(&c, warehouse, &err)) return NULL;
  if (paimon_catalog_create_database(c, "db", false, &err)) {
    paimon_catalog_free(c);
    return NULL;
  }
  return c;
}

/* Writes `array` (of `schema`, both borrowed) into `t`; returns the uncommitted messages. */
static inline paimon_commit_messages *write_arrow(paimon_table *t, struct ArrowSchema *schema,
                                                  struct ArrowArray *array) {
  paimon_error err;
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, schema, array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  paimon_write_free(w);
  return m;
}

/* Writes `array` (of `schema`, both borrowed) into `t` and commits it as one snapshot. */
static inline void commit_arrow(paimon_table *t, struct ArrowSchema *schema,
                                struct ArrowArray *array) {
  paimon_error err;
  paimon_commit_messages *m = write_arrow(t, schema, array);
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
}

/* The text a row of commit_rows holds in STRING column `column` for id `id`. */
typedef void (*row_text_fn)(const char *column, int64_t id, char *buf, size_t cap);

/* A batch of rows with ids first..first+n-1 of `row_sql` (first column BIGINT id, every other
 * one STRING, filled by `text`); *schema and *array are the caller's. */
static inline void rows_batch(const char *row_sql, int first, int n, row_text_fn text,
                              struct ArrowSchema *schema, struct ArrowArray *array) {
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse(row_sql, &row, &err), &err);
  CHECK_OK(cp_row_to_arrow_schema(row, schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, schema, &err), &err);
  for (int i = first; i < first + n; i++) {
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), i, &err), &err);
    for (int64_t c = 1; c < cp_builder_n_children(b); c++) {
      char s[64];
      text(row->fields[c].name, i, s, sizeof s);
      CHECK_OK(cp_builder_append_str(cp_builder_child(b, c), s, &err), &err);
    }
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, array, &err), &err);
  cp_builder_free(b);
  cp_type_free(row);
}

/* Commits rows_batch(row_sql, first, n, text) into `t` as one snapshot. */
static inline void commit_rows(paimon_table *t, const char *row_sql, int first, int n,
                               row_text_fn text) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  rows_batch(row_sql, first, n, text, &schema, &array);
  commit_arrow(t, &schema, &array);
  schema.release(&schema);
  array.release(&array);
}

#endif
