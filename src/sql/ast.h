/*
 * The syntax tree of the SQL subset `cpaimon sql` accepts (docs/sql.md): what the parser
 * (parser.h) produces and the executor (exec.h) binds and runs. It is plain data: every node,
 * string and array of one statement lives in the statement's arena, so a statement is released
 * in one call (cp_sql_stmt_free) whatever state a failed parse left it in.
 *
 * Identifiers keep the spelling the user wrote; they are compared ASCII case-insensitively (Spark's
 * default, spark.sql.caseSensitive=false). Types (CAST, CREATE TABLE, ALTER TABLE ADD COLUMN) are
 * kept as Paimon type text (types/type_sql.h grammar), converted from Spark's names by the parser,
 * so that the catalog can take them as they are.
 */
#ifndef CP_SQL_AST_H
#define CP_SQL_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "types/type.h"

typedef struct cp_sql_pos {
  int line, col; /* 1-based; 0:0 when unknown */
} cp_sql_pos;

/* A possibly qualified name: parts[0].parts[1]...; n >= 1. */
typedef struct cp_sql_name {
  const char **parts;
  size_t n;
  cp_sql_pos pos;
} cp_sql_name;

/* ---- expressions ------------------------------------------------------------------------- */

typedef enum cp_sql_expr_kind {
  CP_SQL_E_COLUMN,  /* name: col, qualifier.col, db.table.col */
  CP_SQL_E_STAR,    /* *, or qualifier.* (name holds the qualifier; name.n == 0 for a bare *) */
  CP_SQL_E_LITERAL, /* lit */
  CP_SQL_E_UNARY,   /* op: CP_SQL_OP_NEG, _PLUS, _NOT, _BITNOT; args[0] */
  CP_SQL_E_BINARY,  /* op: arithmetic, comparison, AND, OR, || ; args[0], args[1] */
  CP_SQL_E_IS_NULL, /* args[0] IS [NOT] NULL */
  CP_SQL_E_IS_BOOL, /* args[0] IS [NOT] TRUE/FALSE: bool_value says which */
  CP_SQL_E_IN,      /* args[0] [NOT] IN (args[1..n)) */
  CP_SQL_E_BETWEEN, /* args[0] [NOT] BETWEEN args[1] AND args[2] */
  CP_SQL_E_LIKE,    /* args[0] [NOT] LIKE args[1] [ESCAPE 'c'] */
  CP_SQL_E_CAST,    /* CAST(args[0] AS type) */
  CP_SQL_E_CASE,    /* CASE [operand] WHEN .. THEN .. [ELSE ..] END, see below */
  CP_SQL_E_FUNC,    /* name(args) / name(DISTINCT args) / name(*) */
  CP_SQL_E_SUBQUERY /* (query) / EXISTS (query) / args[0] [NOT] IN (query): `subquery` says */
} cp_sql_expr_kind;

typedef enum cp_sql_subquery_kind {
  CP_SQL_SUBQ_SCALAR, /* (SELECT ...): its one value, NULL over no row */
  CP_SQL_SUBQ_EXISTS, /* EXISTS (SELECT ...) */
  CP_SQL_SUBQ_IN      /* args[0] [NOT] IN (SELECT ...) */
} cp_sql_subquery_kind;

typedef enum cp_sql_op {
  CP_SQL_OP_NONE = 0,
  CP_SQL_OP_NEG,
  CP_SQL_OP_PLUS,
  CP_SQL_OP_NOT,
  CP_SQL_OP_BITNOT,
  CP_SQL_OP_ADD,
  CP_SQL_OP_SUB,
  CP_SQL_OP_MUL,
  CP_SQL_OP_DIV,
  CP_SQL_OP_MOD,
  CP_SQL_OP_EQ,
  CP_SQL_OP_NE,
  CP_SQL_OP_LT,
  CP_SQL_OP_LE,
  CP_SQL_OP_GT,
  CP_SQL_OP_GE,
  CP_SQL_OP_NSEQ, /* <=> */
  CP_SQL_OP_AND,
  CP_SQL_OP_OR,
  CP_SQL_OP_CONCAT
} cp_sql_op;

typedef enum cp_sql_lit_kind {
  CP_SQL_LIT_NULL,
  CP_SQL_LIT_BOOL,
  CP_SQL_LIT_NUMBER,    /* text: the number as written (suffix included) */
  CP_SQL_LIT_STRING,    /* text/len: the value */
  CP_SQL_LIT_BINARY,    /* text: hex digits */
  CP_SQL_LIT_DATE,      /* DATE 'text' */
  CP_SQL_LIT_TIMESTAMP, /* TIMESTAMP 'text' (Spark: with local time zone) */
  CP_SQL_LIT_TIMESTAMP_NTZ
} cp_sql_lit_kind;

typedef struct cp_sql_literal {
  cp_sql_lit_kind kind;
  bool bool_value;
  const char *text;
  size_t len;
} cp_sql_literal;

typedef struct cp_sql_expr cp_sql_expr;
struct cp_sql_order_item;

/* A window frame bound: UNBOUNDED PRECEDING / FOLLOWING, CURRENT ROW, or n PRECEDING / FOLLOWING
 * (n >= 0 in `offset`). */
typedef enum cp_sql_bound_kind {
  CP_SQL_BOUND_UNBOUNDED_PRECEDING,
  CP_SQL_BOUND_PRECEDING,
  CP_SQL_BOUND_CURRENT_ROW,
  CP_SQL_BOUND_FOLLOWING,
  CP_SQL_BOUND_UNBOUNDED_FOLLOWING
} cp_sql_bound_kind;

typedef struct cp_sql_frame_bound {
  cp_sql_bound_kind kind;
  int64_t offset;
} cp_sql_frame_bound;

/* OVER ([PARTITION BY ...] [ORDER BY ...] [ROWS | RANGE BETWEEN a AND b]) of a window function. */
typedef struct cp_sql_window {
  cp_sql_pos pos;
  cp_sql_expr **partition_by;
  size_t n_partition_by;
  struct cp_sql_order_item *order_by;
  size_t n_order_by;
  bool has_frame;
  bool range; /* RANGE (peers of the current row) rather than ROWS */
  cp_sql_frame_bound start, end;
} cp_sql_window;

struct cp_sql_expr {
  cp_sql_expr_kind kind;
  cp_sql_pos pos;
  cp_sql_op op;
  bool negated;       /* NOT IN, NOT BETWEEN, NOT LIKE, IS NOT NULL, IS NOT TRUE */
  bool bool_value;    /* IS_BOOL: TRUE or FALSE */
  bool distinct;      /* FUNC: name(DISTINCT ...) */
  bool star_arg;      /* FUNC: name(*) */
  cp_sql_name name;   /* COLUMN, STAR (qualifier), FUNC (function name) */
  cp_sql_literal lit; /* LITERAL */
  const char *type;   /* CAST: Paimon type text */
  /* LIKE: the ESCAPE character's text (NULL when absent). */
  const char *escape;
  /* CASE: has_operand says whether args[0] is the operand of a simple CASE; then come WHEN/THEN
   * pairs, then the ELSE value when has_else. */
  bool has_operand, has_else;
  /* SUBQUERY: which form, and the query (its own statement-level scope: a column of an outer
   * query is not visible in it, so correlated subqueries fail to resolve). */
  cp_sql_subquery_kind subquery;
  struct cp_sql_query *query;
  /* FUNC: its OVER clause (a window function), else NULL. */
  cp_sql_window *window;
  /* FUNC: an aggregate's FILTER (WHERE cond), else NULL. */
  cp_sql_expr *filter;
  /* FUNC: a row value `(a, b, ...)` (its args), which only IN takes: `(a, b) IN ((1, 2), ...)`. */
  bool tuple;
  /* FUNC: `args[0][args[1]]`, an ARRAY element (0-based) or a MAP value. */
  bool subscript;
  /* FUNC: `args[0].field`, a ROW field of an expression that is not a column name (v[0].a,
   * named_struct(...).x); NULL otherwise. */
  const char *field;
  cp_sql_expr **args;
  size_t n_args;
};

/* ---- queries ----------------------------------------------------------------------------- */

typedef struct cp_sql_query cp_sql_query;

typedef enum cp_sql_join_kind {
  CP_SQL_JOIN_INNER,
  CP_SQL_JOIN_LEFT,
  CP_SQL_JOIN_RIGHT,
  CP_SQL_JOIN_FULL,
  CP_SQL_JOIN_CROSS,
  CP_SQL_JOIN_SEMI, /* [LEFT] SEMI JOIN: the left rows with a match, left columns only */
  CP_SQL_JOIN_ANTI  /* [LEFT] ANTI JOIN: the left rows without one */
} cp_sql_join_kind;

typedef enum cp_sql_from_kind {
  CP_SQL_FROM_TABLE,
  CP_SQL_FROM_SUBQUERY,
  CP_SQL_FROM_JOIN
} cp_sql_from_kind;

typedef struct cp_sql_from cp_sql_from;
struct cp_sql_from {
  cp_sql_from_kind kind;
  cp_sql_pos pos;
  cp_sql_name table;       /* TABLE */
  bool has_version;        /* TABLE: VERSION AS OF n | 'tag', or TIMESTAMP AS OF '...' */
  int64_t version;         /* the snapshot id (0 with a tag or a timestamp) */
  const char *version_tag; /* VERSION AS OF 'name' that is not a number: a tag */
  bool has_timestamp;      /* TIMESTAMP AS OF 'yyyy-MM-dd HH:mm:ss[.fff]' (session local time) */
  int64_t timestamp;       /* its epoch milliseconds */
  const char *timestamp_text;
  cp_sql_query *query;   /* SUBQUERY */
  const char *alias;     /* TABLE, SUBQUERY (NULL when none) */
  cp_sql_join_kind join; /* JOIN */
  cp_sql_from *left, *right;
  cp_sql_expr *on; /* JOIN: NULL for CROSS JOIN and comma joins */
  /* JOIN ... USING (a, b): the column names (then `on` is NULL). */
  const char **using_cols;
  size_t n_using;
  /* NATURAL JOIN: USING the columns both sides have (found when the join runs). */
  bool natural;
};

typedef struct cp_sql_select_item {
  cp_sql_expr *expr;
  const char *alias; /* NULL when none */
} cp_sql_select_item;

typedef enum cp_sql_nulls {
  CP_SQL_NULLS_DEFAULT,
  CP_SQL_NULLS_FIRST,
  CP_SQL_NULLS_LAST
} cp_sql_nulls;

typedef struct cp_sql_order_item {
  cp_sql_expr *expr;
  bool desc;
  cp_sql_nulls nulls;
} cp_sql_order_item;
/* Whether an ORDER BY item sorts NULLs first (Spark's default: ASC NULLS FIRST, DESC LAST). */
static inline bool cp_sql_nulls_first(const cp_sql_order_item *o) {
  return o->nulls == CP_SQL_NULLS_DEFAULT ? !o->desc : o->nulls == CP_SQL_NULLS_FIRST;
}

/* UNION / EXCEPT (MINUS) / INTERSECT. */
typedef enum cp_sql_set_op {
  CP_SQL_SET_NONE,
  CP_SQL_SET_UNION,
  CP_SQL_SET_EXCEPT,
  CP_SQL_SET_INTERSECT
} cp_sql_set_op;

/* A SELECT, or (set_op != NONE) the set operation `left op right` whose other fields are unused:
 * an ORDER BY / LIMIT after a set operation is parsed as `SELECT * FROM (left op right) ORDER BY
 * ... LIMIT ...`. WITH is resolved by the parser: a FROM naming a common table expression holds
 * its query as a subquery (shared by every reference; never modified after parsing). */
struct cp_sql_query {
  cp_sql_pos pos;
  cp_sql_set_op set_op;
  bool set_all; /* UNION ALL, EXCEPT ALL, INTERSECT ALL */
  cp_sql_query *left, *right;
  bool distinct;
  cp_sql_select_item *items;
  size_t n_items;
  cp_sql_from *from; /* NULL: SELECT without FROM */
  cp_sql_expr *where;
  cp_sql_expr **group_by;
  size_t n_group_by;
  cp_sql_expr *having;
  cp_sql_order_item *order_by;
  size_t n_order_by;
  cp_sql_expr *limit; /* NULL when none */
};

/* ---- statements -------------------------------------------------------------------------- */

typedef enum cp_sql_stmt_kind {
  CP_SQL_S_SELECT,
  CP_SQL_S_INSERT,
  CP_SQL_S_UPDATE,
  CP_SQL_S_DELETE,
  CP_SQL_S_MERGE,
  CP_SQL_S_CREATE_DATABASE,
  CP_SQL_S_DROP_DATABASE,
  CP_SQL_S_USE,
  CP_SQL_S_SHOW_DATABASES,
  CP_SQL_S_SHOW_TABLES,
  CP_SQL_S_DESCRIBE,
  CP_SQL_S_CREATE_TABLE,
  CP_SQL_S_DROP_TABLE,
  CP_SQL_S_ALTER_TABLE,
  CP_SQL_S_ALTER_DATABASE,
  CP_SQL_S_TRUNCATE,        /* TRUNCATE TABLE alter.table [alter.partitions[0]] */
  CP_SQL_S_SHOW_PARTITIONS, /* SHOW PARTITIONS name */
  CP_SQL_S_CALL             /* CALL [sys.]procedure(args) */
} cp_sql_stmt_kind;

/* One argument of CALL: `name => value` or a positional value; values are literals. */
typedef struct cp_sql_call_arg {
  const char *name; /* NULL: positional */
  cp_sql_pos pos;
  bool is_null;   /* NULL */
  bool is_string; /* a string literal (else a number or TRUE / FALSE as written) */
  const char *text;
} cp_sql_call_arg;

typedef struct cp_sql_call {
  cp_sql_name procedure; /* "sys.create_tag" or "create_tag" */
  cp_sql_call_arg *args;
  size_t n_args;
} cp_sql_call;

/* key = 'value' (TBLPROPERTIES, WITH, PARTITION specs use expressions instead). */
typedef struct cp_sql_property {
  const char *key;
  const char *value; /* NULL in UNSET TBLPROPERTIES */
} cp_sql_property;

typedef struct cp_sql_column_def {
  const char *name;
  cp_sql_pos pos;
  const char *type; /* Paimon type text, NOT NULL included */
  const char *comment;
  cp_sql_name parent;   /* ALTER: the names before `name` of a nested column (n = 0: top level) */
  const char *position; /* ALTER ... ADD: "FIRST" or "AFTER" (NULL: last) */
  const char *after;    /* ... AFTER this sibling */
} cp_sql_column_def;

/* col = value in UPDATE SET, MERGE ... UPDATE SET, INSERT ... PARTITION (col = value). */
typedef struct cp_sql_assignment {
  cp_sql_name target;
  cp_sql_expr *value;
} cp_sql_assignment;

/* PARTITION (k = v, ...) of TRUNCATE TABLE and ALTER TABLE ... DROP PARTITION. */
typedef struct cp_sql_partition {
  cp_sql_assignment *items;
  size_t n;
} cp_sql_partition;

typedef struct cp_sql_insert {
  cp_sql_name table;
  bool overwrite;
  cp_sql_assignment *partition; /* PARTITION (k = v, ...); value NULL for a dynamic k */
  size_t n_partition;
  const char **columns; /* explicit column list, or NULL */
  size_t n_columns;
  cp_sql_expr ***rows; /* VALUES rows (each n_row_values long), or NULL when query is set */
  size_t n_rows;
  size_t *row_lengths;
  cp_sql_query *query;
} cp_sql_insert;

typedef struct cp_sql_update {
  cp_sql_name table;
  const char *alias;
  cp_sql_assignment *set;
  size_t n_set;
  cp_sql_expr *where;
} cp_sql_update;

typedef struct cp_sql_delete {
  cp_sql_name table;
  const char *alias;
  cp_sql_expr *where;
} cp_sql_delete;

typedef enum cp_sql_merge_match {
  CP_SQL_MATCHED,
  CP_SQL_NOT_MATCHED,          /* by target: a source row with no target row */
  CP_SQL_NOT_MATCHED_BY_SOURCE /* a target row with no source row */
} cp_sql_merge_match;

typedef enum cp_sql_merge_action {
  CP_SQL_MERGE_UPDATE,
  CP_SQL_MERGE_UPDATE_STAR,
  CP_SQL_MERGE_DELETE,
  CP_SQL_MERGE_INSERT,
  CP_SQL_MERGE_INSERT_STAR
} cp_sql_merge_action;

typedef struct cp_sql_merge_clause {
  cp_sql_merge_match match;
  cp_sql_pos pos;
  cp_sql_expr *cond; /* AND condition, or NULL */
  cp_sql_merge_action action;
  cp_sql_assignment *set; /* UPDATE */
  size_t n_set;
  const char **columns; /* INSERT (cols); NULL: all target columns in order */
  size_t n_columns;
  cp_sql_expr **values; /* INSERT VALUES (...) */
  size_t n_values;
} cp_sql_merge_clause;

typedef struct cp_sql_merge {
  cp_sql_name target;
  const char *target_alias;
  cp_sql_from *source; /* a TABLE or SUBQUERY with its alias */
  cp_sql_expr *on;
  cp_sql_merge_clause *clauses;
  size_t n_clauses;
} cp_sql_merge;

typedef struct cp_sql_create_table {
  cp_sql_name table;
  bool if_not_exists;
  cp_sql_column_def *columns;
  size_t n_columns;
  const char **partition_keys;
  size_t n_partition_keys;
  cp_sql_pos partition_pos;
  cp_sql_property *properties;
  size_t n_properties;
  const char *comment;
} cp_sql_create_table;

typedef enum cp_sql_alter_kind {
  CP_SQL_ALTER_ADD_COLUMNS,
  CP_SQL_ALTER_RENAME_COLUMN,
  CP_SQL_ALTER_DROP_COLUMNS,
  CP_SQL_ALTER_SET_PROPERTIES,
  CP_SQL_ALTER_UNSET_PROPERTIES,
  CP_SQL_ALTER_COLUMN_COMMENT,
  CP_SQL_ALTER_RENAME_TABLE,
  CP_SQL_ALTER_DROP_PARTITIONS,
  CP_SQL_ALTER_COLUMN_TYPE,       /* columns[0]: name and type */
  CP_SQL_ALTER_COLUMN_POSITION,   /* columns[0].name FIRST, or AFTER names[0] */
  CP_SQL_ALTER_COLUMN_NULLABILITY /* columns[0].name SET NOT NULL (not_null) / DROP NOT NULL */
} cp_sql_alter_kind;

typedef struct cp_sql_alter_table {
  cp_sql_name table;
  cp_sql_alter_kind kind;
  cp_sql_column_def *columns; /* ADD COLUMNS; ALTER COLUMN (one: name and comment) */
  size_t n_columns;
  const char **names; /* DROP COLUMNS; RENAME COLUMN: names[0] -> names[1] */
  size_t n_names;
  cp_sql_name *parents;        /* DROP COLUMNS, RENAME COLUMN (parents[0]): the names before each of
                                  `names` of a nested column (n = 0: top level); NULL for other kinds */
  cp_sql_property *properties; /* SET / UNSET TBLPROPERTIES */
  size_t n_properties;
  bool if_exists;               /* UNSET TBLPROPERTIES IF EXISTS */
  cp_sql_name new_name;         /* RENAME TO (one part: the same database) */
  bool not_null;                /* ALTER COLUMN ... SET NOT NULL */
  cp_sql_partition *partitions; /* DROP [IF EXISTS] PARTITION (...), ...; TRUNCATE's */
  size_t n_partitions;
} cp_sql_alter_table;

typedef struct cp_sql_stmt {
  cp_sql_stmt_kind kind;
  cp_sql_pos pos;              /* of the statement's first token */
  size_t text_start, text_end; /* byte range of the statement in the input (without ';') */
  cp_arena arena;              /* owns every node of this statement */
  bool if_exists;              /* DROP TABLE / DATABASE */
  bool if_not_exists;          /* CREATE DATABASE */
  bool cascade;                /* DROP DATABASE ... CASCADE */
  bool extended;               /* DESCRIBE EXTENDED */
  cp_sql_name name;            /* database or table of USE / SHOW TABLES IN / DESCRIBE / DROP /
                                  CREATE DATABASE (n == 0 when absent) */
  cp_sql_query *query;         /* SELECT */
  cp_sql_insert insert;
  cp_sql_update update;
  cp_sql_delete del;
  cp_sql_merge merge;
  cp_sql_create_table create;
  cp_sql_alter_table alter;
  cp_sql_call call;
} cp_sql_stmt;

/* Releases the statement and everything in its arena; NULL is a no-op. */
void cp_sql_stmt_free(cp_sql_stmt *stmt);

/* ---- printing ------------------------------------------------------------------------------ */

/* Appends canonical SQL for the statement / expression / query (keywords upper case, identifiers
 * back-quoted only when needed, every operator parenthesised), such that parsing the text again
 * gives a tree that prints the same. Used for round-trip tests and for the keys that match GROUP
 * BY expressions. */
int cp_sql_print_stmt(const cp_sql_stmt *stmt, cp_buf *out, paimon_error *err);
int cp_sql_print_expr(const cp_sql_expr *e, cp_buf *out, paimon_error *err);
int cp_sql_print_query(const cp_sql_query *q, cp_buf *out, paimon_error *err);
/* " VERSION AS OF n | 'tag'" or " TIMESTAMP AS OF '...'" of a table reference ("" without). */
int cp_sql_print_travel(const cp_sql_from *f, cp_buf *out, paimon_error *err);

/* Appends the column name Spark gives an unaliased SELECT expression: the column's own name for
 * a column reference, else the expression's text in Spark's style ("(id + 1)", "count(1)",
 * "upper(name)", "CAST(id AS STRING)"). */
int cp_sql_expr_display_name(const cp_sql_expr *e, cp_buf *out, paimon_error *err);

/* Collects the chain of first arguments from `e` down into `c` (initialised here; cp_chain_free
 * releases it): node 0 is e, node i + 1 is node i's args[0], the last node has no arguments. The
 * parser builds left-associative chains (`a + b + c`, `p OR q OR r`) down args[0] without a depth
 * limit, so every pass over expressions walks this chain with a loop and recurses only into the
 * other arguments, whose nesting the parser bounds (CP_SQL_MAX_DEPTH). */
int cp_sql_expr_spine(cp_chain *c, const cp_sql_expr *e, paimon_error *err);

/* Appends the Spark type a Paimon type maps to (SparkTypeUtils): its catalogString
 * ("decimal(10,2)", "map<string,int>", "struct<a:int>"; DESCRIBE) or, with `sql`, its sql
 * ("DECIMAL(10,2)", "MAP<STRING, INT>", "STRUCT<a: INT>"; column names of CAST). */
int cp_sql_spark_type(const cp_type *t, bool sql, cp_buf *out, paimon_error *err);

/* Appends an identifier, back-quoted (with ` doubled) unless it is a plain word. */
int cp_sql_print_ident(const char *name, cp_buf *out, paimon_error *err);

#endif
