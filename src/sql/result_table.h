/*
 * Small result tables built row by row from text (SHOW, DESCRIBE, CALL): each column a string, a
 * boolean ("true" / "false") or a BIGINT (decimal text), NULL cells allowed.
 */
#ifndef CP_SQL_RESULT_TABLE_H
#define CP_SQL_RESULT_TABLE_H

#include <stddef.h>

#include "arrow/array.h"
#include "sql/session.h"

typedef struct cp_sql_text_table {
  size_t n_cols;
  const char *const *names;
  cp_builder **cols;
} cp_sql_text_table;

/* Columns `names`; `formats` gives each one's Arrow format ("u" string, "b" boolean, "l"
 * BIGINT), or NULL for strings (and a boolean `isTemporary`, SHOW TABLES'). */
int cp_sql_text_table_init(cp_sql_text_table *t, const char *const *names, size_t n,
                           paimon_error *err);
int cp_sql_text_table_init_typed(cp_sql_text_table *t, const char *const *names,
                                 const char *const *formats, size_t n, paimon_error *err);
void cp_sql_text_table_free(cp_sql_text_table *t);
/* Appends one row of cells (NULL: a NULL cell). */
int cp_sql_text_table_row(cp_sql_text_table *t, const char *const *cells, paimon_error *err);
/* Moves the rows into `out` (the builders are spent; free the table after). */
int cp_sql_text_table_finish(cp_sql_text_table *t, cp_sql_result *out, paimon_error *err);

#endif
