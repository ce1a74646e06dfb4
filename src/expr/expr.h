/*
 * Typed expression trees: the predicates the table read path filters and prunes with (pypaimon's
 * PredicateBuilder: equal, less_than, is_in, between, startswith, ...) and the scalar expressions
 * the SQL front end evaluates in WHERE / SELECT / SET / MERGE, both run column-at-a-time on Arrow
 * batches (DESIGN.md, "expr/").
 *
 * Semantics are Spark SQL's with ANSI mode off, because that is what Paimon users compare against:
 *  - three-valued logic: NULL AND FALSE = FALSE, NULL OR TRUE = TRUE, NOT NULL = NULL; a
 *    comparison with NULL is NULL; `a <=> b` is the null-safe equality (never NULL);
 *  - `x IN (list)` is TRUE on a match, else NULL when x or an element is NULL, else FALSE;
 *    `x BETWEEN a AND b` is `x >= a AND x <= b`;
 *  - floating point: NaN = NaN and NaN is above every number; -0.0 = 0.0;
 *  - arithmetic: integer + - * % wrap in the common integer type; `/` on integers, floats and
 *    doubles gives DOUBLE (5 / 2 = 2.5); decimals follow Spark's DecimalPrecision result types
 *    (with precision loss allowed) and overflow to NULL; division or remainder by zero is NULL;
 *  - CAST is Spark's non-ANSI cast: a value that does not convert becomes NULL (never an error),
 *    narrowing integer casts wrap, strings are trimmed and parsed leniently ('1.9' -> INT 1);
 *  - implicit coercion: numbers widen to their common type (TINYINT < SMALLINT < INT < BIGINT <
 *    FLOAT < DOUBLE; integers and decimals to a wider decimal; decimal with FLOAT/DOUBLE to
 *    DOUBLE); in a comparison a string is cast to the other side's type (to DOUBLE against a
 *    decimal), a date meets a timestamp as a timestamp; in arithmetic strings become DOUBLE.
 *    LIKE and the string functions cast other atomic operands to STRING. Deviation: IN uses the
 *    comparison rules element by element, where Spark would promote `int_col IN ('1')` to a
 *    string comparison.
 *
 * Life cycle. Constructors build an *unbound* tree that names columns; cp_expr_bind resolves the
 * names against a ROW type (the read schema), type-checks, and returns a new *bound* tree with
 * explicit casts, in which every node has a result type and column references are indexes into
 * that ROW. Only bound trees are evaluated or used for pruning. An unbound tree may be bound many
 * times (e.g. once per schema version); neither is modified by binding or evaluation, so a bound
 * tree may be evaluated from several threads at once.
 *
 * Literals. A typed literal carries a cp_datum and its cp_type. Two literals are typed by where
 * they are used instead: untyped NULL (cp_expr_null), and *text* literals (cp_expr_text), which
 * the command line and the public predicate API use for values typed as text by a user: at bind
 * time a text literal meeting a column of type T is parsed as a T (as an SQL number literal when T
 * is numeric), and text that does not parse is a bind error, e.g. "cannot compare column 'age'
 * (INT) with 'abc' (STRING): ...". A *typed* string literal follows Spark instead ('abc' = 1 is
 * NULL).
 *
 * Depth. Every pass over a tree (binding, evaluation, pruning, copying, freeing, rendering) walks
 * the chain of first arguments with a loop and recurses only into the other arguments, so a
 * left-associative chain of any length (`a + b + c ...`, `a = b = c`, `NOT NOT x`, AND / OR built
 * pairwise) costs no stack. AND and OR are flattened when built: an AND argument that is itself
 * an AND gives its arguments instead (likewise OR), so `p OR (q OR r)` is one OR of three. What
 * is left recursive is nesting through the other arguments (`a + (b + (c + ...))`); a node's
 * `depth` counts it, and constructors refuse a node deeper than CP_EXPR_MAX_DEPTH (EINVAL,
 * "expression nested too deeply").
 *
 * Ownership: every cp_expr is malloc'd and owns its children, type and literal bytes;
 * cp_expr_free releases the tree. Constructors that take children consume them, also when they
 * fail (arrays of children: the contents are consumed, the array stays the caller's). The struct
 * is visible so that planners can inspect trees; treat it as read-only.
 */
#ifndef CP_EXPR_EXPR_H
#define CP_EXPR_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "cpaimon/error.h"
#include "types/datum.h"
#include "types/type.h"

typedef enum cp_expr_kind {
  CP_EXPR_COLUMN,   /* a column of the input row */
  CP_EXPR_LITERAL,  /* a constant (possibly NULL) */
  CP_EXPR_COMPARE,  /* args[0] op args[1] (op: cp_cmp_op) */
  CP_EXPR_IS_NULL,  /* args[0] IS NULL (negated: IS NOT NULL) */
  CP_EXPR_IN,       /* args[0] IN (args[1..]) (negated: NOT IN) */
  CP_EXPR_BETWEEN,  /* args[0] BETWEEN args[1] AND args[2] (negated: NOT BETWEEN); unbound only */
  CP_EXPR_LIKE,     /* args[0] LIKE args[1] (op: cp_like_kind; negated: NOT LIKE) */
  CP_EXPR_AND,      /* n >= 2 args */
  CP_EXPR_OR,       /* n >= 2 args */
  CP_EXPR_NOT,      /* args[0] */
  CP_EXPR_ARITH,    /* args[0] op args[1] (op: cp_arith_op) */
  CP_EXPR_NEGATE,   /* -args[0] */
  CP_EXPR_CAST,     /* CAST(args[0] AS type) */
  CP_EXPR_COALESCE, /* n >= 1 args */
  CP_EXPR_CASE, /* CASE WHEN args[0] THEN args[1] WHEN args[2] THEN args[3] ... ELSE args[n-1] */
  CP_EXPR_FUNC  /* op: cp_func */
} cp_expr_kind;

typedef enum cp_cmp_op {
  CP_CMP_EQ,
  CP_CMP_NE,
  CP_CMP_LT,
  CP_CMP_LE,
  CP_CMP_GT,
  CP_CMP_GE,
  CP_CMP_EQ_NULL_SAFE /* <=> */
} cp_cmp_op;

typedef enum cp_arith_op {
  CP_ARITH_ADD,
  CP_ARITH_SUB,
  CP_ARITH_MUL,
  CP_ARITH_DIV,
  CP_ARITH_MOD
} cp_arith_op;

/* LIKE with a pattern (% and _ wildcards, an escape character), or one of pypaimon's string
 * predicates, whose argument is plain text matched literally. */
typedef enum cp_like_kind {
  CP_LIKE_PATTERN,
  CP_LIKE_STARTS_WITH,
  CP_LIKE_ENDS_WITH,
  CP_LIKE_CONTAINS
} cp_like_kind;

typedef enum cp_func {
  CP_FUNC_CONCAT, /* CONCAT(s, ...): NULL if any argument is NULL; STRING (BYTES if all binary) */
  /* UPPER / LOWER: one-to-one case mapping of ASCII, Latin-1, Latin Extended-A, Greek and
   * Cyrillic letters; other characters are left as they are (ß stays ß). */
  CP_FUNC_UPPER,
  CP_FUNC_LOWER,
  CP_FUNC_LENGTH,    /* LENGTH(s): characters of a string, bytes of a binary; INT */
  CP_FUNC_SUBSTRING, /* SUBSTRING(s, pos[, len]): 1-based, negative pos counts from the end */
  CP_FUNC_TRIM,      /* TRIM(s): leading and trailing spaces */
  CP_FUNC_ABS,       /* ABS(x): same type; ABS of the minimum integer wraps */
  /* SIZE(a): the number of elements of an ARRAY, MAP or MULTISET; -1 for NULL (Spark's default,
   * spark.sql.legacy.sizeOfNull); INT NOT NULL. */
  CP_FUNC_SIZE,
  /* ARRAY(x, ...): an ARRAY of its atomic arguments, which meet at their wider type as COALESCE's
   * branches do (Spark's CreateArray); NOT NULL. Nested values have no cp_datum form, so these two
   * evaluate column-at-a-time only; on one row (cp_expr_eval_row*) they are unknown. */
  CP_FUNC_ARRAY,
  /* DATE_ADD(d, n): the DATE n days after d (n an integer; Spark's `d + n`, date_add; `d - n`
   * is DATE_ADD(d, -n)); NULL if either is NULL. */
  CP_FUNC_DATE_ADD,
  /* DATE_DIFF(end, start): the days from start to end, INT (Spark's datediff). */
  CP_FUNC_DATE_DIFF,
  /* GET_FIELD(row, i): field i (an INT literal) of a ROW; NULL for a NULL row (Spark's st.x). */
  CP_FUNC_GET_FIELD,
  /* SUBSCRIPT(a, i): element i (0-based; out of range or negative: NULL) of an ARRAY, or the
   * value of key i of a MAP (missing: NULL) — Spark's a[i], m[k]. */
  CP_FUNC_SUBSCRIPT,
  /* ELEMENT_AT(a, i): element i (1-based, negative from the end, out of range NULL, 0 an error)
   * of an ARRAY, or a MAP's value for key i — Spark's element_at. */
  CP_FUNC_ELEMENT_AT,
  /* NESTED_TO_STRING(v): an ARRAY, MAP or ROW as Spark's CAST(v AS STRING) writes it ("[1, null]",
   * "{k -> 9}", "{5, a}"); what binding makes of such a CAST. */
  CP_FUNC_NESTED_TO_STRING,
  /* NESTED_EQUAL(a, b): two ARRAY or ROW values of one type equal element by element (NULLs
   * inside equal to each other, as Spark's ordering-based equality); NULL when either is NULL.
   * What binding makes of `=` (and, negated, `<>`) between such values. */
  CP_FUNC_NESTED_EQUAL,
  /* NAMED_STRUCT(name1, v1, name2, v2, ...): a ROW of the values, its fields named by the string
   * literals (Spark's named_struct / CreateNamedStruct); NOT NULL, fields of the values' types.
   * Column-at-a-time only, like ARRAY. */
  CP_FUNC_NAMED_STRUCT
} cp_func;

/* How a literal gets its type. */
typedef enum cp_literal_kind {
  CP_LIT_TYPED,       /* `type` says */
  CP_LIT_TEXT,        /* text typed by its context at bind time (see the top of this file) */
  CP_LIT_UNTYPED_NULL /* NULL typed by its context (BOOLEAN in logic, else the other operand) */
} cp_literal_kind;

typedef struct cp_like_pattern cp_like_pattern; /* compiled LIKE pattern (like.h) */

/* The deepest nesting through arguments other than the first that a tree may have (see "Depth"
 * above). The SQL parser's own limit (CP_SQL_MAX_DEPTH, 200) stays well below it, binding adds at
 * most a few levels per level, and the evaluator's frame (about 2 KiB) times this stays far
 * inside a thread's default 8 MiB stack. */
#define CP_EXPR_MAX_DEPTH 500

typedef struct cp_expr cp_expr;
struct cp_expr {
  cp_expr_kind kind;
  int op;       /* cp_cmp_op, cp_arith_op, cp_like_kind or cp_func */
  bool negated; /* IS NOT NULL, NOT IN, NOT BETWEEN, NOT LIKE (unbound trees only) */
  bool bound;
  /* The result type (owned). Unbound trees: set for typed literals and casts, NULL elsewhere. */
  cp_type *type;
  /* COLUMN: the name as written (owned) and, once bound, the index into the row type. */
  char *name;
  int32_t column;
  /* LITERAL: the value (variable-length bytes point into `storage`, which the node owns). */
  cp_literal_kind literal;
  cp_datum value;
  uint8_t *storage;
  /* LIKE with CP_LIKE_PATTERN: the escape character (a code point; 0 = none). */
  uint32_t escape;
  /* Bound LIKE whose pattern is a literal: the compiled pattern (owned), else NULL. */
  cp_like_pattern *like;
  cp_expr **args; /* owned */
  size_t n_args;
  size_t args_cap; /* allocated length of args (AND / OR grow theirs when built pairwise) */
  /* Nesting through arguments other than the first: 0 for a leaf, else the larger of
   * args[0]->depth and 1 + args[i]->depth for i > 0. Set by the constructors; bound trees keep
   * the value of the node they were bound from (binding adds only a few levels). */
  uint32_t depth;
};

/* ---- construction (unbound trees) --------------------------------------------------------- */

/* A reference to the column `name` (resolved by cp_expr_bind). */
int cp_expr_column(cp_expr **out, const char *name, paimon_error *err);

/* A literal of type `t` (copied) holding `v` (bytes copied); v->is_null makes a typed NULL.
 * Only atomic types. */
int cp_expr_literal(cp_expr **out, const cp_type *t, const cp_datum *v, paimon_error *err);

/* Shortcuts for typed literals: BIGINT, INT, DOUBLE, STRING (len bytes of UTF-8), BOOLEAN. */
int cp_expr_bigint(cp_expr **out, int64_t v, paimon_error *err);
int cp_expr_int(cp_expr **out, int32_t v, paimon_error *err);
int cp_expr_double(cp_expr **out, double v, paimon_error *err);
int cp_expr_string(cp_expr **out, const char *s, size_t len, paimon_error *err);
int cp_expr_bool(cp_expr **out, bool v, paimon_error *err);

/* A text literal (see above); `text` is copied. */
int cp_expr_text(cp_expr **out, const char *text, paimon_error *err);

/* An untyped NULL. */
int cp_expr_null(cp_expr **out, paimon_error *err);

/* Consuming constructors. */
int cp_expr_compare(cp_expr **out, cp_cmp_op op, cp_expr *left, cp_expr *right, paimon_error *err);
int cp_expr_is_null(cp_expr **out, cp_expr *arg, bool negated, paimon_error *err);
/* `list` holds n >= 1 expressions. */
int cp_expr_in(cp_expr **out, cp_expr *value, cp_expr **list, size_t n, bool negated,
               paimon_error *err);
int cp_expr_between(cp_expr **out, cp_expr *value, cp_expr *low, cp_expr *high, bool negated,
                    paimon_error *err);
/* `value LIKE pattern ESCAPE escape` (escape: a code point, 0 for none; SQL's default is '\\'),
 * or a pypaimon string predicate (kind != CP_LIKE_PATTERN, escape ignored). A literal pattern is
 * checked at bind time: an escape before anything but %, _ or itself, or at the end, is EINVAL. */
int cp_expr_like(cp_expr **out, cp_like_kind kind, cp_expr *value, cp_expr *pattern,
                 uint32_t escape, bool negated, paimon_error *err);
/* AND / OR of `n` >= 1 expressions (one expression is returned as it is). */
int cp_expr_and(cp_expr **out, cp_expr **args, size_t n, paimon_error *err);
int cp_expr_or(cp_expr **out, cp_expr **args, size_t n, paimon_error *err);
/* Two-argument forms. */
int cp_expr_and2(cp_expr **out, cp_expr *a, cp_expr *b, paimon_error *err);
int cp_expr_or2(cp_expr **out, cp_expr *a, cp_expr *b, paimon_error *err);
int cp_expr_not(cp_expr **out, cp_expr *arg, paimon_error *err);
int cp_expr_arith(cp_expr **out, cp_arith_op op, cp_expr *left, cp_expr *right, paimon_error *err);
int cp_expr_negate(cp_expr **out, cp_expr *arg, paimon_error *err);
/* The type the branches of COALESCE / CASE and the columns of a UNION meet at (Spark
 * findWiderTypeForTwo: numeric widening, decimals to a wider decimal or DOUBLE, strings absorb
 * other atomic types but BINARY/BOOLEAN, dates widen to timestamps). *out (owned by the caller)
 * is NULL when there is none. */
int cp_common_wider_type(const cp_type *a, const cp_type *b, cp_type **out, paimon_error *err);
/* CAST(arg AS to); `to` is copied and must be atomic. */
int cp_expr_cast(cp_expr **out, cp_expr *arg, const cp_type *to, paimon_error *err);
int cp_expr_coalesce(cp_expr **out, cp_expr **args, size_t n, paimon_error *err);
/* CASE WHEN conds[i] THEN values[i] ... ELSE else_value END; else_value may be NULL (then NULL). */
int cp_expr_case(cp_expr **out, cp_expr **conds, cp_expr **values, size_t n, cp_expr *else_value,
                 paimon_error *err);
/* IF(cond, a, b) = CASE WHEN cond THEN a ELSE b END. */
int cp_expr_if(cp_expr **out, cp_expr *cond, cp_expr *then_value, cp_expr *else_value,
               paimon_error *err);
/* A function call; argument counts are checked here (SUBSTRING takes 2 or 3, CONCAT >= 1). */
int cp_expr_func(cp_expr **out, cp_func f, cp_expr **args, size_t n, paimon_error *err);

/* Releases `e` and everything it owns; NULL is a no-op. */
void cp_expr_free(cp_expr *e);

/* A deep copy (bound or not). */
int cp_expr_copy(cp_expr **out, const cp_expr *e, paimon_error *err);

/* ---- binding ------------------------------------------------------------------------------- */

/* Resolves `unbound` against the ROW type `row` (names matched exactly, or ASCII
 * case-insensitively), type-checks it and writes a new bound tree to *out (owned by the caller).
 * `unbound` may also be bound already (it is then re-bound by column name). Errors: ENOTFOUND for
 * an unknown column ("column 'x' not found among: a, b"), EINVAL for type errors naming the
 * operands and their types ("cannot compare column 'age' (INT) with 'abc' (STRING)"), a bad LIKE
 * pattern or a text literal that does not parse. */
int cp_expr_bind(const cp_expr *unbound, const cp_type *row, bool case_insensitive, cp_expr **out,
                 paimon_error *err);

/* The sorted, distinct indexes of the columns a bound tree reads, as a malloc'd array (*out, NULL
 * when there are none; the caller frees it) of *n entries. */
int cp_expr_columns(const cp_expr *bound, int32_t **out, size_t *n, paimon_error *err);

/* Renumbers the column references of a bound tree in place: index i becomes map[i] (map has
 * n_map entries). For a reader that projects the referenced columns into a narrower batch. EINVAL
 * when an index has no entry or maps to a negative value. */
int cp_expr_remap_columns(cp_expr *bound, const int32_t *map, size_t n_map, paimon_error *err);

/* True when the tree reads no column (it evaluates to the same value for every row). */
bool cp_expr_is_constant(const cp_expr *e);

/* Appends an SQL-like rendering of `e` (e.g. "age > 5 AND name LIKE 'a%'"); casts added by
 * binding show as CAST(...). */
int cp_expr_append_sql(const cp_expr *e, cp_buf *out, paimon_error *err);

/* ---- evaluation (bound trees) --------------------------------------------------------------- */

/* Evaluates `e` over every row of `batch`, a struct view whose children are the columns of the
 * row type `e` was bound to (in that order; extra trailing children are ignored; the struct's own
 * validity is ignored, as for a record batch). *out receives an owned array of the expression's
 * type in the Arrow type types/type_arrow.h maps it to, of batch->length rows. Columns may use
 * any Arrow type that holds the column's Paimon values (cp_datum_from_view), with any offset.
 * Errors name the column or the operation (EINVAL). */
int cp_expr_eval(const cp_expr *e, const cp_array_view *batch, struct ArrowArray *out,
                 paimon_error *err);

/* The ArrowSchema of what cp_expr_eval returns for `e`, named `name` (may be NULL). */
int cp_expr_arrow_schema(const cp_expr *e, const char *name, struct ArrowSchema *out,
                         paimon_error *err);

/* Evaluates a BOOLEAN expression as a filter: bit i of `bitmap_out` (cp_bitmap_bytes(length)
 * bytes, written from bit 0, all bits of the last byte written) is set when row i is TRUE (NULL
 * counts as FALSE); *n_true (may be NULL) receives the number of set bits. */
int cp_expr_eval_selection(const cp_expr *e, const cp_array_view *batch, uint8_t *bitmap_out,
                           int64_t *n_true, paimon_error *err);

/* ---- single rows (partition values, constants) ------------------------------------------- */

/* The truth of a predicate on one row. UNKNOWN: the value depends on a column that was not
 * given. A filter keeps the row only when TRUE. */
typedef enum cp_truth { CP_FALSE = 0, CP_TRUE = 1, CP_NULL = 2, CP_UNKNOWN = 3 } cp_truth;

/* Evaluates a bound BOOLEAN expression on one row: row[i] is the value of column i of the bound
 * row type. `present` (may be NULL: all present) says which columns are known; e.g. for partition
 * pruning only the partition columns are. The result is exact when every column it reads is
 * present, and sound otherwise: FALSE and NULL mean no row with those values can pass, so the
 * partition can be skipped. */
int cp_expr_eval_row(const cp_expr *e, const cp_datum *row, const bool *present, cp_truth *out,
                     paimon_error *err);

/* Evaluates any bound expression on one row. *known is false when the value depends on an absent
 * column (then *out is meaningless). Variable-length results point into `arena` or into `row`. */
int cp_expr_eval_row_value(const cp_expr *e, const cp_datum *row, const bool *present,
                           cp_arena *arena, cp_datum *out, bool *known, paimon_error *err);

/* ---- statistics-based pruning --------------------------------------------------------------- */

/* What is known about one column of a file (or row group, or partition): every non-null value v
 * satisfies min <= v <= max (cp_datum_compare order) when has_min / has_max; bounds may be
 * loose (truncated strings) but never wrong. For FLOAT/DOUBLE columns the max is not trusted for
 * NaN (Parquet statistics leave NaN out), so NaN rows are assumed possible. Counts are -1 when
 * unknown. Datums are of the column's type in the bound row; their bytes must stay valid until
 * cp_expr_may_match returns. */
typedef struct cp_col_stats {
  bool has_min, has_max;
  cp_datum min, max;
  int64_t null_count;
  int64_t row_count;
} cp_col_stats;

/* Fills *out for column `column` (an index of the bound row type). Return 0, or a negative code
 * to abort cp_expr_may_match with that error. Leave has_min/has_max false and counts -1 for what
 * is not known. */
typedef int (*cp_expr_stats_fn)(void *ctx, int32_t column, cp_col_stats *out, paimon_error *err);

/* *out = false only when the bound predicate `e` provably selects no row of a unit whose columns
 * have the statistics `get_stats` reports (comparisons of a column — possibly under a widening
 * cast — with constants, IN, BETWEEN, IS [NOT] NULL, STARTS WITH / LIKE 'prefix%' on strings,
 * AND / OR / NOT, constant subexpressions); everything else may match. A unit with row_count 0
 * matches nothing. */
int cp_expr_may_match(const cp_expr *e, cp_expr_stats_fn get_stats, void *ctx, bool *out,
                      paimon_error *err);

/* ---- literal text -------------------------------------------------------------------------- */

/* Parses `text` (NUL-terminated) as a value of atomic type `t`, strictly: surrounding whitespace
 * is ignored, anything else that is not a value of the type is EINVAL naming the text and the
 * type. Accepted forms: BOOLEAN true/false/t/f/yes/no/y/n/1/0 (any case); integers in range;
 * FLOAT/DOUBLE decimal or exponent notation, NaN, Infinity, -Infinity; DECIMAL(p, s) exactly (no
 * digits beyond the scale, at most p - s integer digits); DATE yyyy-[m]m-[d]d; TIME
 * [h]h:[m]m[:[s]s[.fraction]]; TIMESTAMP[_LTZ] yyyy-[m]m-[d]d[( |T)[h]h:[m]m[:[s]s[.fraction up
 * to 9 digits]]][Z|(+|-)hh[:mm]|UTC] (an offset converts an LTZ value to UTC and is ignored for
 * TIMESTAMP, as Spark does); CHAR/VARCHAR the text itself; BINARY/VARBINARY X'hex' (or the text's
 * bytes). Variable-length results are allocated in `arena`. */
int cp_datum_parse_text(const cp_type *t, const char *text, cp_arena *arena, cp_datum *out,
                        paimon_error *err);

#endif
