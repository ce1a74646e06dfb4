/*
 * Helpers shared by UPDATE / DELETE (exec_dml.c) and MERGE INTO (exec_merge.c); not part of the
 * layer's interface.
 */
#ifndef CP_SQL_EXEC_DML_INTERNAL_H
#define CP_SQL_EXEC_DML_INTERNAL_H

#include "sql/exec.h"

/* EUNSUPPORTED unless the table tracks rows (row-level changes address rows by _ROW_ID). */
int cp_sql_need_row_tracking(const cp_sql_table *t, const char *verb, cp_sql_pos pos,
                             paimon_error *err);
/* SET lists with targets nested in ROW columns (r.x = v, qualifier.r.y.z = w; Spark's nested
 * assignments) rewritten as assignments of whole columns: r = named_struct('x', v, 'y', r.y, ...),
 * every field not assigned keeping its value. *out is `set` itself when nothing is nested, else
 * allocated in `arena` (with the new expression nodes). */
int cp_sql_align_nested_sets(const cp_sql_table *t, const char *qualifier,
                             const cp_sql_assignment *set, size_t n, cp_arena *arena,
                             cp_sql_assignment **out, size_t *n_out, paimon_error *err);

/* The table column an assignment target names ("c" or "<qualifier>.c"), refusing the row-tracking
 * columns and, on data-evolution tables, partition columns. */
int cp_sql_target_column(const cp_sql_table *t, const char *qualifier, const cp_sql_name *target,
                         const char *verb, size_t *out, paimon_error *err);
/* Every column of the table plus _ROW_ID (when tracked), qualified by `qualifier`. */
int cp_sql_read_target(cp_sql_table *t, const char *qualifier, cp_rel *out, int64_t *snapshot,
                       paimon_error *err);
/* The index of the hidden _ROW_ID column of a relation read by cp_sql_read_target. */
int cp_sql_row_id_column(const cp_rel *r, size_t *out, paimon_error *err);
/* The update batch handed to cp_dml_update: _ROW_ID (column row_id_col of `rows`) and, per
 * assignment, the value (bound over rows' columns) converted to the column's type. */
int cp_sql_update_batch(const cp_sql_table *t, const cp_rel *rows, size_t row_id_col,
                        const size_t *cols, cp_expr *const *values, size_t n, cp_rel *out,
                        paimon_error *err);
/* Spark's refusal of deletes on data-evolution tables without deletion vectors. */
int cp_sql_check_delete(const cp_sql_table *t, cp_sql_pos pos, bool merge, paimon_error *err);
/* The values of a BIGINT column as a malloc'd array. */
int cp_sql_row_ids(const cp_rel *r, size_t col, int64_t **ids, size_t *n, paimon_error *err);

#endif
