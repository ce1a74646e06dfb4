/*
 * Binding SQL expressions: resolving column names against the columns in scope (case-insensitive,
 * optionally qualified by a table name or alias, as Spark resolves them) and turning the syntax
 * tree into a bound expression tree of expr/expr.h with Spark's literal types (docs/sql.md,
 * "Expressions"): 1 is INT, 2147483648 BIGINT, 1.5 DECIMAL(2, 1), 1e3 DOUBLE, 1L BIGINT, 1S
 * SMALLINT, 1Y TINYINT, 1D DOUBLE, 1F FLOAT, 1BD DECIMAL, 'x' STRING, X'0A' BINARY,
 * DATE '...', TIMESTAMP '...' (TIMESTAMP_LTZ, session time zone UTC), TIMESTAMP_NTZ '...'.
 *
 * Every expression binds to the scope's *binding row*: a ROW type with one field per column in
 * scope, named after the column (qualified or numbered where names repeat, so that the names are
 * unique and messages from expr/ still name the user's column). A bound tree's column indexes are
 * therefore the relation's column indexes, and it evaluates directly on the relation's batch.
 *
 * After GROUP BY, a scope has an aggregation binding: its columns are the group keys then the
 * aggregate results, and an expression binds only if every column reference in it is under an
 * aggregate call or part of a group key (Spark's rule; the message names the culprit).
 */
#ifndef CP_SQL_BIND_H
#define CP_SQL_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"
#include "expr/expr.h"
#include "sql/ast.h"
#include "sql/rel.h"

typedef struct cp_sql_scope cp_sql_scope;

/* What a post-aggregation scope's columns are. */
typedef struct cp_sql_agg_binding {
  const cp_sql_scope *input; /* the scope the keys and aggregate arguments read */
  cp_sql_expr *const *keys;  /* group keys: the scope's columns 0 .. n_keys-1 */
  size_t n_keys;
  const int64_t *key_cols;  /* per key: its input column when it is a plain column, else -1 */
  cp_sql_expr *const *aggs; /* aggregate calls: the scope's columns n_keys .. */
  size_t n_aggs;
  /* Select-list aliases HAVING may name (Spark resolves them there): used for a name that is not
   * an input column. */
  const char *const *alias_names;
  cp_sql_expr *const *alias_exprs;
  size_t n_aliases;
} cp_sql_agg_binding;

struct cp_sql_scope {
  const cp_rel_col *cols; /* borrowed; must outlive the scope */
  size_t n_cols;
  cp_type *row;                  /* the binding row (owned) */
  char **bind_names;             /* per column, the field name in `row` (owned) */
  const cp_sql_agg_binding *agg; /* NULL unless post-aggregation */
  const char *clause;            /* "WHERE", "ON", ... for messages about aggregates */
  /* Window function calls computed into columns window_col0 .. + n_windows (exec_window.c);
   * elsewhere a window call is an error. */
  const cp_sql_expr *const *windows;
  size_t n_windows, window_col0;
};

/* A scope over `cols` (borrowed). `clause` names where expressions bound in it appear. */
int cp_sql_scope_init(cp_sql_scope *s, const cp_rel_col *cols, size_t n_cols, const char *clause,
                      paimon_error *err);
void cp_sql_scope_free(cp_sql_scope *s);

/* Whether `name` is the first part of a catalog-qualified name: the names Spark gives the catalog
 * cpaimon's SQL stands for ("paimon", as Paimon's docs register its SparkCatalog, and Spark's
 * session catalog "spark_catalog"), ASCII case-insensitively. */
bool cp_sql_is_catalog_name(const char *name);

/* The column `name` refers to: `col`, `q.col` (q: a table name or alias), and for a table read
 * without an alias `db.t.col` and `<catalog>.db.t.col`, as Spark resolves them. ENOTFOUND "line
 * L:C: A column or function parameter with name 'x' cannot be resolved. Did you mean one of the
 * following? [a, b]" or EINVAL "line L:C: Reference 'id' is ambiguous, could be: t.id, s.id." */
int cp_sql_resolve(const cp_sql_scope *s, const cp_sql_name *name, size_t *index,
                   paimon_error *err);

/* Characters (UTF-8 code points) in s[0, len), as Spark's numChars counts them. */
int64_t cp_sql_num_chars(const uint8_t *s, int64_t len);

/* Pads the string literals compared with a CHAR(n) column (=, <>, <, <=, >, >=, <=>, IN) in the
 * bound tree `e` to n characters, as Spark's ApplyCharTypePadding does (exec_char.c pads the
 * column's values on read). cp_sql_bind applies it. */
int cp_sql_char_pad_comparisons(cp_expr *e, paimon_error *err);

/* Binds `e` in scope `s`; *out is a bound tree owned by the caller (string literals compared with
 * CHAR columns padded). Errors carry the line:column of the expression. */
int cp_sql_bind(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err);

/* As cp_sql_bind, and checks that the result is BOOLEAN ("line L:C: WHERE must be a BOOLEAN
 * expression, got INT"). */
int cp_sql_bind_predicate(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                          paimon_error *err);

/* True for calls of count, sum, min, max, avg / mean (not as window functions: those are
 * computed before the select list, exec_window.c). */
bool cp_sql_is_aggregate_call(const cp_sql_expr *e);
/* The same, OVER or not. */
bool cp_sql_is_aggregate_function(const cp_sql_expr *e);

/* Structural equality with identifiers compared case-insensitively (GROUP BY matching). */
bool cp_sql_expr_equal(const cp_sql_expr *a, const cp_sql_expr *b);

/* True when `e` contains an aggregate call. */
bool cp_sql_has_aggregate(const cp_sql_expr *e);

/* Adds the aggregate calls in `e` not already in (*list)[0..*n) to the malloc'd *list. EINVAL
 * for an aggregate inside an aggregate's argument. */
int cp_sql_collect_aggregates(const cp_sql_expr *e, cp_sql_expr ***list, size_t *n,
                              paimon_error *err);

/* The value of a constant expression (LIMIT n): binds it without columns and evaluates it. */
int cp_sql_eval_constant_int(const cp_sql_expr *e, const char *what, int64_t *out,
                             paimon_error *err);

/* Appends Spark's column name for an expression (ast.h cp_sql_expr_display_name) to `out` as a
 * NUL-terminated malloc'd string. */
int cp_sql_display_name(const cp_sql_expr *e, char **out, paimon_error *err);

/* The SQL name of a type for messages ("INT", "STRING", "DECIMAL(10, 2)"), without NOT NULL. */
void cp_sql_type_name(const cp_type *t, char *buf, size_t size);

/* "line L:C: " + message. */
int cp_sql_error_at(paimon_error *err, int code, cp_sql_pos pos, const char *fmt, ...)
    PAIMON_PRINTF(4, 5);

#endif
