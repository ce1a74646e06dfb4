/* Result tables built from text (result_table.h). */
#include "sql/result_table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "sql/rel.h"

int cp_sql_text_table_init_typed(cp_sql_text_table *t, const char *const *names,
                                 const char *const *formats, size_t n, paimon_error *err) {
  memset(t, 0, sizeof *t);
  t->n_cols = n;
  t->names = names;
  t->cols = calloc(n, sizeof *t->cols);
  if (!t->cols) return CP_ENOMEM(err, "result");
  struct ArrowSchema s;
  for (size_t i = 0; i < n; i++) {
    const char *format = formats ? formats[i] : strcmp(names[i], "isTemporary") == 0 ? "b" : "u";
    CP_RETURN_IF_ERROR(cp_schema_init(&s, format, names[i], ARROW_FLAG_NULLABLE, 0, err));
    int rc = cp_builder_create(&t->cols[i], &s, err);
    cp_schema_release(&s);
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

int cp_sql_text_table_init(cp_sql_text_table *t, const char *const *names, size_t n,
                           paimon_error *err) {
  return cp_sql_text_table_init_typed(t, names, NULL, n, err);
}

void cp_sql_text_table_free(cp_sql_text_table *t) {
  for (size_t i = 0; t->cols && i < t->n_cols; i++) cp_builder_free(t->cols[i]);
  free(t->cols);
  memset(t, 0, sizeof *t);
}

int cp_sql_text_table_row(cp_sql_text_table *t, const char *const *cells, paimon_error *err) {
  for (size_t i = 0; i < t->n_cols; i++) {
    int rc;
    cp_arrow_type id = cp_builder_type(t->cols[i])->id;
    if (!cells[i])
      rc = cp_builder_append_null(t->cols[i], err);
    else if (id == CP_ARROW_BOOL)
      rc = cp_builder_append_bool(t->cols[i], strcmp(cells[i], "true") == 0, err);
    else if (id == CP_ARROW_INT64)
      rc = cp_builder_append_int64(t->cols[i], strtoll(cells[i], NULL, 10), err);
    else
      rc = cp_builder_append_str(t->cols[i], cells[i], err);
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

int cp_sql_text_table_finish(cp_sql_text_table *t, cp_sql_result *out, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  cp_type *str = NULL, *boolean = NULL, *bigint = NULL;
  int rc = cp_type_new_sized(&str, CP_TYPE_VARCHAR, CP_TYPE_MAX_LENGTH, true, err);
  if (!rc) rc = cp_type_new(&boolean, CP_TYPE_BOOLEAN, true, err);
  if (!rc) rc = cp_type_new(&bigint, CP_TYPE_BIGINT, true, err);
  int64_t rows = t->n_cols ? cp_builder_length(t->cols[0]) : 0;
  for (size_t i = 0; !rc && i < t->n_cols; i++) {
    struct ArrowSchema s;
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    rc = cp_schema_copy(&s, cp_builder_schema(t->cols[i]), err);
    if (rc) break;
    rc = cp_builder_finish(t->cols[i], &a, err);
    if (rc) {
      cp_schema_release(&s);
      break;
    }
    cp_arrow_type id = cp_builder_type(t->cols[i])->id;
    const cp_type *type = id == CP_ARROW_BOOL ? boolean : id == CP_ARROW_INT64 ? bigint : str;
    rc = cp_rel_builder_add(&b, t->names[i], NULL, type, false, &s, &a, err);
  }
  cp_type_free(str);
  cp_type_free(boolean);
  cp_type_free(bigint);
  cp_rel rel;
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_rel_builder_finish(&b, rows, &rel, err));
  out->has_rows = true;
  cp_schema_move(&rel.schema, &out->schema);
  cp_array_move(&rel.batch, &out->batch);
  cp_rel_free(&rel);
  return PAIMON_OK;
}
