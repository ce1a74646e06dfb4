/*
 * Relations: the intermediate results of the SQL executor. A relation is one Arrow record batch
 * (a struct array whose children are the columns) plus, per column, its name, the qualifier it
 * can be referenced by (a table name or alias), its Paimon type and whether it is hidden (the
 * row-tracking columns `_ROW_ID` and `_SEQUENCE_NUMBER`, which `*` does not expand to,
 * spec/data-evolution.md §0).
 *
 * Relations are materialized: the executor reads a scan's batches into one, then filters, joins,
 * groups, sorts and projects whole relations with the batch operations of arrow/ops.h, and
 * evaluates expressions with expr/expr.h.
 *
 * Ownership: a cp_rel owns its columns' strings and types, its schema and its batch; release it
 * with cp_rel_free (safe on a zeroed relation). Functions writing a cp_rel *out leave it zeroed on
 * failure.
 */
#ifndef CP_SQL_REL_H
#define CP_SQL_REL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow/array.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "types/type.h"

typedef struct cp_rel_col {
  char *name;      /* output / reference name (owned) */
  char *qualifier; /* table name or alias it may be qualified with, or NULL (owned) */
  /* The table's database when the relation is a table read without an alias, else NULL (owned):
   * then db.t.col and <catalog>.db.t.col name the column too, as Spark resolves them. */
  char *database;
  cp_type *type; /* owned */
  bool hidden;   /* not expanded by '*' */
  /* Matched only by a qualified name: the two sides' columns of JOIN ... USING, behind the
   * joined column that an unqualified name means. */
  bool qualified_only;
} cp_rel_col;

typedef struct cp_rel {
  cp_rel_col *cols;
  size_t n_cols;
  struct ArrowSchema schema; /* "+s", one child per column named by the column's name */
  struct ArrowArray batch;   /* struct array of schema; batch.length rows */
} cp_rel;

static inline int64_t cp_rel_rows(const cp_rel *r) {
  return r->batch.release ? r->batch.length : 0;
}

void cp_rel_free(cp_rel *r);

/* Deep-copies column metadata (n entries) into a new malloc'd array. */
int cp_rel_cols_copy(const cp_rel_col *src, size_t n, cp_rel_col **out, paimon_error *err);
/* Column i of `r` as an array of its own (zero-copy, narrowed to the relation's rows) and a copy of
 * its schema, both owned by the caller. */
int cp_rel_column_share(const cp_rel *r, size_t i, struct ArrowSchema *schema,
                        struct ArrowArray *array, paimon_error *err);

/* Sets (copies) or clears c->database. */
int cp_rel_col_set_database(cp_rel_col *c, const char *database, paimon_error *err);
void cp_rel_cols_free(cp_rel_col *cols, size_t n);
/* Fills `c` with copies of the arguments (qualifier may be NULL). */
int cp_rel_col_init(cp_rel_col *c, const char *name, const char *qualifier, const cp_type *type,
                    bool hidden, paimon_error *err);

/* ---- building a relation column by column ---------------------------------------------------- */

typedef struct cp_rel_builder {
  cp_rel_col *cols;
  struct ArrowSchema *schemas;
  struct ArrowArray *arrays;
  size_t n, cap;
} cp_rel_builder;

#define CP_REL_BUILDER_INIT                                                                        \
  { NULL, NULL, NULL, 0, 0 }

/* Adds a column. `schema` and `array` are moved in (their release is NULL afterwards, also on
 * failure, when they are released); the array's name in the result is `name`. */
int cp_rel_builder_add(cp_rel_builder *b, const char *name, const char *qualifier,
                       const cp_type *type, bool hidden, struct ArrowSchema *schema,
                       struct ArrowArray *array, paimon_error *err);
/* Adds column i of `r` (shared, zero-copy) under the column's own metadata. */
int cp_rel_builder_add_from(cp_rel_builder *b, const cp_rel *r, size_t i, paimon_error *err);
/* The same under another name, unqualified and visible. */
int cp_rel_builder_add_renamed(cp_rel_builder *b, const cp_rel *r, size_t i, const char *name,
                               paimon_error *err);
/* Makes the relation (`rows` rows: every array must have that length). The builder is emptied. */
int cp_rel_builder_finish(cp_rel_builder *b, int64_t rows, cp_rel *out, paimon_error *err);
void cp_rel_builder_free(cp_rel_builder *b);

/* ---- operations ------------------------------------------------------------------------------ */

/* A validated struct view of the relation's batch (reset it with cp_array_view_reset). */
int cp_rel_view(const cp_rel *r, cp_array_view *out, paimon_error *err);

/* A relation of `rows` rows and no column (SELECT without FROM has one). */
int cp_rel_empty(int64_t rows, cp_rel *out, paimon_error *err);

/* Rows idx[0..n) of `r` (an index of -1 makes an all-NULL row), same columns. */
int cp_rel_take(const cp_rel *r, const int64_t *idx, int64_t n, cp_rel *out, paimon_error *err);
/* cp_rel_take for rows that stand for groups of equal keys (GROUP BY, DISTINCT, set operations):
 * in the first n_keys columns a FLOAT/DOUBLE -0.0 becomes 0.0, as Spark's
 * NormalizeFloatingNumbers makes the keys it groups by (-0.0 and 0.0 are one group, shown 0.0). */
int cp_rel_take_keys(const cp_rel *r, const int64_t *idx, int64_t n, size_t n_keys, cp_rel *out,
                     paimon_error *err);

/* The rows whose bit is set in `bits` (cp_rel_rows(r) bits from bit 0). */
int cp_rel_filter(const cp_rel *r, const uint8_t *bits, cp_rel *out, paimon_error *err);

/* Columns keep[0..n) of `r`, in that order (zero-copy). */
int cp_rel_project_cols(const cp_rel *r, const size_t *keep, size_t n, cp_rel *out,
                        paimon_error *err);

/* The columns of `a` then those of `b` side by side (same row count; zero-copy). */
int cp_rel_concat_cols(const cp_rel *a, const cp_rel *b, cp_rel *out, paimon_error *err);

/* Sets every column's qualifier to `qualifier` (NULL clears it). */
int cp_rel_set_qualifier(cp_rel *r, const char *qualifier, paimon_error *err);

/* The rows of several relations with the same column types, one after another (n >= 1). The
 * columns of parts[0] name the result. */
int cp_rel_concat_rows(const cp_rel *parts, size_t n, cp_rel *out, paimon_error *err);

#endif
