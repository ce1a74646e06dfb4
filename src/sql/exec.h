/*
 * Declarations shared by the executor's files (not part of the layer's interface): the session
 * struct, tables opened for a statement, scans into relations, expression evaluation over
 * relations, joins, aggregation, store assignment (INSERT / UPDATE / MERGE value conversion) and
 * the statement executors. The executor only uses the public table API (include/cpaimon/) to
 * reach tables; everything else is arrow/, types/ and expr/.
 */
#ifndef CP_SQL_EXEC_H
#define CP_SQL_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "cpaimon/read.h"
#include "expr/expr.h"
#include "sql/ast.h"
#include "sql/bind.h"
#include "sql/rel.h"
#include "sql/session.h"

struct cp_sql_session {
  paimon_catalog *catalog;
  char *database;
};

/* ---- tables (exec_table.c) ------------------------------------------------------------------- */

/* A table opened for one statement. */
typedef struct cp_sql_table {
  paimon_table *table;
  char *database, *name, *ident; /* ident: "db.table" */
  cp_type *row;                  /* the table's columns, from its latest schema */
  bool row_tracking, data_evolution, deletion_vectors;
  /* A system table ("t$snapshots", include/cpaimon/system_table.h): `row` holds its columns,
   * `table` is its data table (owned by `system`) and the flags above are false. NULL for a data
   * table. */
  struct paimon_system_table *system;
} cp_sql_table;

/* Opens `name` ("t" in the current database, or "db.t") for a statement that changes it (or its
 * definition): a system table name is refused as read-only. Errors are prefixed with the name's
 * line:column. */
int cp_sql_table_open(cp_sql_session *s, const cp_sql_name *name, cp_sql_table *out,
                      paimon_error *err);
/* Opens `name` for reading (FROM): a data table or a system table ("t$files", `db`.`t$files`). */
int cp_sql_table_open_read(cp_sql_session *s, const cp_sql_name *name, cp_sql_table *out,
                           paimon_error *err);
void cp_sql_table_close(cp_sql_table *t);
bool cp_sql_table_is_partition_key(const cp_sql_table *t, const char *column);
/* The database and table of a name, with the session's database when it has one part; *db and
 * *table are malloc'd. */
int cp_sql_split_name(cp_sql_session *s, const cp_sql_name *name, char **db, char **table,
                      paimon_error *err);

typedef struct cp_sql_scan_req {
  int64_t snapshot;         /* 0: the latest */
  const cp_sql_expr *where; /* a condition whose conjuncts over this table may filter the scan */
  const bool *columns;      /* per column of t->row: read it; NULL: all */
  bool row_id, sequence;    /* add the hidden _ROW_ID / _SEQUENCE_NUMBER columns */
  const char *qualifier;    /* the relation's columns are qualified by this */
  const char *database;     /* and, read without an alias, by this database (rel.h) */
  const char *tag;          /* VERSION AS OF 'tag' (snapshot 0) */
  bool has_timestamp;       /* TIMESTAMP AS OF: the snapshot of `timestamp` (epoch ms) */
  int64_t timestamp;
} cp_sql_scan_req;

/* Points `rb` at the time-travel target of `req` (nothing when it has none). */
int cp_sql_travel(paimon_read_builder *rb, const cp_sql_scan_req *req, paimon_error *err);

/* Reads the table into a relation. *snapshot_read (may be NULL) receives the snapshot read (0 for
 * an empty table). */
int cp_sql_scan(cp_sql_table *t, const cp_sql_scan_req *req, cp_rel *out, int64_t *snapshot_read,
                paimon_error *err);

/* ---- evaluation (exec_table.c) --------------------------------------------------------------- */

/* Evaluates a bound expression over every row of `r`: the array and its Arrow schema named
 * `name`. */
int cp_sql_eval(const cp_rel *r, const cp_expr *e, const char *name, struct ArrowSchema *schema,
                struct ArrowArray *array, paimon_error *err);
/* CHAR / VARCHAR as Spark treats them (exec_char.c): the length check and CHAR padding of values
 * stored into a column of type `to` (the string array is rebuilt in place when any value
 * changes), and the read-side padding of a relation's CHAR columns (comparisons: bind.h). */
int cp_sql_char_write(const cp_type *to, const char *column, struct ArrowSchema *schema,
                      struct ArrowArray *array, paimon_error *err);
int cp_sql_char_pad_rel(cp_rel *r, paimon_error *err);

/* The rows of `r` where the bound predicate is TRUE. */
int cp_sql_filter(const cp_rel *r, const cp_expr *pred, cp_rel *out, paimon_error *err);
/* As cp_sql_filter, the selection bitmap instead (malloc'd, cp_rel_rows bits). */
int cp_sql_select_bits(const cp_rel *r, const cp_expr *pred, uint8_t **bits, int64_t *n_true,
                       paimon_error *err);

/* ---- queries (exec_select.c, exec_from.c) ---------------------------------------------------- */

/* State of one statement's execution. */
typedef struct cp_sql_exec {
  cp_sql_session *session;
  /* Column names referenced anywhere in the statement (lower case): scans read only those, or
   * every column when all_columns (a '*' somewhere). */
  char **names;
  size_t n_names;
  bool all_columns;
  /* The WHERE condition of a query reading one table, offered to that table's scan as a filter
   * (set and cleared around the scan; NULL otherwise). */
  const cp_sql_expr *pushdown;
} cp_sql_exec;

int cp_sql_exec_init(cp_sql_exec *x, cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);

/* ---- window functions (exec_window.c) ------------------------------------------------------ */

/* The window function calls of q's select list and ORDER BY (malloc'd; each node once). */
int cp_sql_collect_windows(const cp_sql_query *q, const cp_sql_expr ***list, size_t *n,
                           paimon_error *err);
/* Computes each call over *r (bound in *scope) into a hidden column appended to *r, and points
 * *scope (re-made over the grown relation, its aggregation binding kept) at them. */
int cp_sql_compute_windows(cp_rel *r, cp_sql_scope *scope, const cp_sql_expr *const *calls,
                           size_t n, paimon_error *err);
/* An aggregate call OVER a window (exec_agg.c): for the row at each position p of `order`, the
 * aggregate over the rows at positions lo[p] .. hi[p] (none when lo > hi); part_lo[p] is p's
 * partition's first position. The column comes back in row order. */
int cp_sql_window_aggregate(const cp_rel *in, const cp_sql_scope *scope, const cp_sql_expr *call,
                            const int64_t *order, const int64_t *lo, const int64_t *hi,
                            const int64_t *part_lo, int64_t n, cp_type **type,
                            struct ArrowSchema *schema, struct ArrowArray *array,
                            paimon_error *err);

/* ---- subqueries (exec_subquery.c) ----------------------------------------------------------- */

/* The subqueries run by the statement a thread is executing (cp_sql_execute brackets every
 * statement with begin / end; their rows live until end). */
typedef struct cp_sql_subq_ctx {
  cp_sql_session *session;
  struct cp_sql_subq_entry *entries;
  size_t n, cap;
  struct cp_sql_subq_ctx *outer;
} cp_sql_subq_ctx;
void cp_sql_subq_begin(cp_sql_subq_ctx *c, cp_sql_session *s);
void cp_sql_subq_end(cp_sql_subq_ctx *c);
/* The rows of the subquery expression `e` (CP_SQL_E_SUBQUERY), run on first use in the current
 * statement; a subquery naming a column it cannot resolve is reported as a correlated one. */
int cp_sql_subquery_rows(const cp_sql_expr *e, const cp_rel **out, paimon_error *err);
/* Whether cp_sql_subquery_rows found `e` correlated in this statement. */
bool cp_sql_subquery_is_correlated(const cp_sql_expr *e);
/* The rows of `in` where the WHERE condition `where` (bound in `scope`, over in's columns) is
 * TRUE. Conjuncts `[NOT] EXISTS (q)` / `x [NOT] IN (q)` whose subquery is correlated — its WHERE
 * names outer columns — run as semi / anti joins (Spark's RewritePredicateSubquery): q's own
 * conditions filter q's FROM, the ones naming outer columns (and IN's x = y) pair outer rows with
 * its rows. q may not aggregate, group, limit or be a set operation. */
int cp_sql_filter_where(const cp_rel *in, const cp_sql_scope *scope, const cp_sql_expr *where,
                        cp_rel *out, paimon_error *err);
void cp_sql_exec_free(cp_sql_exec *x);

int cp_sql_run_query(cp_sql_exec *x, const cp_sql_query *q, cp_rel *out, bool *ordered,
                     paimon_error *err);
int cp_sql_run_from(cp_sql_exec *x, const cp_sql_from *f, cp_rel *out, paimon_error *err);
/* A set operation (q->set_op != NONE; exec_setop.c). */
int cp_sql_run_set_query(cp_sql_exec *x, const cp_sql_query *q, cp_rel *out, paimon_error *err);

/* ---- joins (exec_join.c) --------------------------------------------------------------------- */

/* Row pairs of a join: left[i], right[i] index the two inputs; -1 marks the missing side of an
 * outer row. */
typedef struct cp_sql_pairs {
  int64_t *left, *right;
  int64_t n;
} cp_sql_pairs;
void cp_sql_pairs_free(cp_sql_pairs *p);

/* The pairs of rows of `l` and `r` for which `on` (bound over l's columns then r's; NULL: every
 * pair) is TRUE, in left-row order; with keep_left / keep_right the unmatched rows of that side
 * too. Equality conjuncts between the two sides are hash-joined; the rest is evaluated on the
 * candidate pairs. */
int cp_sql_join_pairs(const cp_rel *l, const cp_rel *r, const cp_expr *on, bool keep_left,
                      bool keep_right, cp_sql_pairs *out, paimon_error *err);
/* The relation of l's columns then r's for the pairs (NULLs on a missing side). */
int cp_sql_pairs_rel(const cp_rel *l, const cp_rel *r, const cp_sql_pairs *p, cp_rel *out,
                     paimon_error *err);

/* ---- aggregation (exec_agg.c) ---------------------------------------------------------------- */

/* Groups `in` by the key expressions and computes the aggregate calls (COUNT, SUM, MIN, MAX, AVG,
 * with DISTINCT), binding both in `scope` (over in's columns). The result has one row per group
 * (one row when there is no key) and the columns keys..., aggregates..., named by their SQL text.
 */
int cp_sql_aggregate(const cp_rel *in, const cp_sql_scope *scope, cp_sql_expr *const *keys,
                     size_t n_keys, cp_sql_expr *const *aggs, size_t n_aggs, cp_rel *out,
                     paimon_error *err);

/* The group of each row of `r` by the values of columns [0, n_cols) (NULLs equal), and each
 * group's first row (both malloc'd, the caller frees them). */
int cp_sql_group_rows(const cp_rel *r, size_t n_cols, int64_t **group_of, int64_t **first_row,
                      int64_t *n_groups, paimon_error *err);
/* Where a value must be grouped, ordered or compared as a whole, which Spark refuses for a MAP
 * (anywhere inside the type): */
typedef enum cp_sql_map_use {
  CP_SQL_MAP_GROUP_BY, /* [GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE]; `what`: the key's text */
  CP_SQL_MAP_ORDER_BY, /* [DATATYPE_MISMATCH.INVALID_ORDERING_TYPE]; "m ASC NULLS FIRST" */
  CP_SQL_MAP_MIN_MAX,  /* the same for min / max; "max(m)" */
  CP_SQL_MAP_SET_OP    /* [UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE], DISTINCT, UNION,
                        * INTERSECT, EXCEPT; the column's name */
} cp_sql_map_use;
/* PAIMON_OK unless `t` holds a MAP; else Spark's error for `use`. */
int cp_sql_refuse_map(cp_sql_map_use use, const cp_type *t, const char *what, cp_sql_pos pos,
                      paimon_error *err);

/* Row indices of the first occurrence of each distinct row of columns [0, n_cols) of `r`. */
int cp_sql_distinct_rows(const cp_rel *r, size_t n_cols, int64_t **idx, int64_t *n,
                         paimon_error *err);

/* ---- store assignment (exec_assign.c) -------------------------------------------------------- */

/* Whether a value of type `from` may be written to a column of type `to` (Spark's ANSI store
 * assignment: numbers to numbers, anything atomic to strings, dates and timestamps to each other,
 * same-shaped nested types); EINVAL "line L:C: Cannot write incompatible data to table 'db.t':
 * Cannot safely cast 'age': STRING to INT" otherwise. */
int cp_sql_assign_check(const cp_type *from, const cp_type *to, const char *table,
                        const char *column, cp_sql_pos pos, paimon_error *err);
/* Binds the value of an assignment to a column of type `to`: a bare NULL becomes a NULL of `to`
 * (Spark's NullType meets any column type), anything else is bound as it is. */
int cp_sql_bind_assigned(const cp_sql_scope *scope, const cp_sql_expr *value, const cp_type *to,
                         cp_expr **out, paimon_error *err);
/* Converts a column of values of type `from` (array/schema) to type `to`, failing (EINVAL) on a
 * value that does not fit: "Fail to assign a value of BIGINT type to the INT type column 'a' due
 * to an overflow" (Spark's CAST_OVERFLOW_IN_TABLE_INSERT). */
int cp_sql_assign_array(const cp_type *from, const struct ArrowSchema *schema,
                        const struct ArrowArray *array, const cp_type *to, const char *column,
                        struct ArrowSchema *out_schema, struct ArrowArray *out, paimon_error *err);

/* ---- statements ------------------------------------------------------------------------------ */

int cp_sql_exec_insert(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);
int cp_sql_exec_update(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);
int cp_sql_exec_delete(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);
int cp_sql_exec_merge(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);
int cp_sql_exec_catalog(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                        paimon_error *err);
int cp_sql_exec_alter(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err);
/* CALL sys.<procedure>(...) (exec_call.c). */
int cp_sql_exec_call(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                     paimon_error *err);

/* The static partition spec of an INSERT OVERWRITE (dml.h cp_dml_set_overwrite). */
typedef struct cp_sql_overwrite {
  const char **keys;
  const char **values; /* text of each key's value; NULL for a NULL value */
  size_t n;
} cp_sql_overwrite;

/* Writes rows (a record batch whose children are named after table columns) into the table and
 * commits them as one snapshot through the DML interface (dml.h); with `overwrite` (may be
 * NULL), the snapshot replaces the partitions it names instead of adding to them. */
int cp_sql_write_rows(cp_sql_table *t, struct ArrowSchema *schema, struct ArrowArray *batch,
                      const cp_sql_overwrite *overwrite, paimon_error *err);

void cp_sql_overwrite_free(cp_sql_overwrite *o);

/* The text of each value of PARTITION (k = v, ...) as INSERT ... PARTITION casts it to the key's
 * type (every key needs a value; a NULL value stays NULL). */
int cp_sql_partition_values(const cp_sql_table *t, const cp_sql_assignment *items, size_t n,
                            cp_sql_overwrite *out, paimon_error *err);

/* Drops the partitions of `t` named by `parts` (all rows when n == 0) in one snapshot. */
int cp_sql_truncate(cp_sql_table *t, const cp_sql_partition *parts, size_t n, paimon_error *err);

/* Creates the session's current database if it is the default one and does not exist yet. */
int cp_sql_ensure_database(cp_sql_session *s, const char *db, paimon_error *err);

#endif
