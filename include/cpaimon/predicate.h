/*
 * Predicates for filtering table reads, built like pypaimon's PredicateBuilder (equal,
 * not_equal, less_than, less_or_equal, greater_than, greater_or_equal, is_null, is_not_null,
 * is_in, is_not_in, between, startswith, endswith, contains, and_predicates, or_predicates).
 *
 * A predicate names columns and holds literal values; it is not tied to a schema. The reader binds
 * it to the schema it reads with: the column must exist there, and each literal is converted to the
 * column's type (integers and decimals widen as in Spark SQL; strings are parsed as values of the
 * column's type, e.g. '2024-01-31' for a DATE column, and a string that does not parse is an
 * error naming the column and the value). Rows where the predicate is NULL are filtered out, as
 * in SQL's WHERE: `x = 1` drops rows where x is NULL, and comparing with a NULL value selects
 * nothing.
 *
 * Literal values come as Arrow arrays (C Data Interface; e.g. pyarrow's
 * pa.array([5])._export_to_c): one value for comparisons and string predicates, two for between,
 * one or more for is_in. Any Arrow type with a Paimon equivalent is accepted (int8..int64, unsigned
 * integers, float, double, decimal128, utf8, large_utf8, binary, bool, date32, time32/64, timestamp
 * in any unit, the null type). The arrays are read during the call and not retained: the caller
 * keeps ownership and may release them right after.
 *
 * Ownership: every paimon_predicate returned through `out` belongs to the caller, who releases it
 * with paimon_predicate_free, unless it is handed to paimon_predicate_and / _or / _not, which take
 * ownership of their children (also when they fail). A predicate is immutable once built and may
 * be shared between threads for reading.
 */
#ifndef CPAIMON_PREDICATE_H
#define CPAIMON_PREDICATE_H

#include <stddef.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_predicate paimon_predicate;

typedef enum paimon_compare_op {
  PAIMON_COMPARE_EQUAL,
  PAIMON_COMPARE_NOT_EQUAL,
  PAIMON_COMPARE_LESS_THAN,
  PAIMON_COMPARE_LESS_OR_EQUAL,
  PAIMON_COMPARE_GREATER_THAN,
  PAIMON_COMPARE_GREATER_OR_EQUAL
} paimon_compare_op;

/* column <op> value, where `value` (schema + array) holds exactly one value. */
int paimon_predicate_compare(paimon_predicate **out, paimon_compare_op op, const char *column,
                             const struct ArrowSchema *schema, const struct ArrowArray *value,
                             paimon_error *err);
int paimon_predicate_equal(paimon_predicate **out, const char *column,
                           const struct ArrowSchema *schema, const struct ArrowArray *value,
                           paimon_error *err);
int paimon_predicate_not_equal(paimon_predicate **out, const char *column,
                               const struct ArrowSchema *schema, const struct ArrowArray *value,
                               paimon_error *err);
int paimon_predicate_less_than(paimon_predicate **out, const char *column,
                               const struct ArrowSchema *schema, const struct ArrowArray *value,
                               paimon_error *err);
int paimon_predicate_less_or_equal(paimon_predicate **out, const char *column,
                                   const struct ArrowSchema *schema, const struct ArrowArray *value,
                                   paimon_error *err);
int paimon_predicate_greater_than(paimon_predicate **out, const char *column,
                                  const struct ArrowSchema *schema, const struct ArrowArray *value,
                                  paimon_error *err);
int paimon_predicate_greater_or_equal(paimon_predicate **out, const char *column,
                                      const struct ArrowSchema *schema,
                                      const struct ArrowArray *value, paimon_error *err);

/* column <op> literal, where `literal` is text parsed as a value of the column's type when the
 * predicate is bound (as an SQL number for numeric columns: 5, -2.50, 1e3; dates as
 * yyyy-mm-dd; timestamps as yyyy-mm-dd hh:mm:ss[.fraction]; booleans as true/false; binary as
 * X'0a1b'). For the command line and SQL front ends. */
int paimon_predicate_compare_text(paimon_predicate **out, paimon_compare_op op, const char *column,
                                  const char *literal, paimon_error *err);

int paimon_predicate_is_null(paimon_predicate **out, const char *column, paimon_error *err);
int paimon_predicate_is_not_null(paimon_predicate **out, const char *column, paimon_error *err);

/* column IN (values...) / NOT IN: `values` holds one or more values (NULLs allowed: with a NULL in
 * the list, rows that match no other value are NULL, so NOT IN selects nothing, as in SQL). */
int paimon_predicate_is_in(paimon_predicate **out, const char *column,
                           const struct ArrowSchema *schema, const struct ArrowArray *values,
                           paimon_error *err);
int paimon_predicate_is_not_in(paimon_predicate **out, const char *column,
                               const struct ArrowSchema *schema, const struct ArrowArray *values,
                               paimon_error *err);

/* low <= column <= high; `values` holds exactly two values, low then high. */
int paimon_predicate_between(paimon_predicate **out, const char *column,
                             const struct ArrowSchema *schema, const struct ArrowArray *values,
                             paimon_error *err);

/* String predicates on a string column; `value` holds one string, matched literally (no
 * wildcards). */
int paimon_predicate_startswith(paimon_predicate **out, const char *column,
                                const struct ArrowSchema *schema, const struct ArrowArray *value,
                                paimon_error *err);
int paimon_predicate_endswith(paimon_predicate **out, const char *column,
                              const struct ArrowSchema *schema, const struct ArrowArray *value,
                              paimon_error *err);
int paimon_predicate_contains(paimon_predicate **out, const char *column,
                              const struct ArrowSchema *schema, const struct ArrowArray *value,
                              paimon_error *err);

/* SQL LIKE on a string column (pypaimon's like): `value` holds one pattern, where '%' matches any
 * run of characters, '_' any one character and '\\' escapes either or itself; another escape is
 * an error when the predicate is bound. Prefix, suffix and exact patterns prune files by their
 * statistics as startswith does. */
int paimon_predicate_like(paimon_predicate **out, const char *column,
                          const struct ArrowSchema *schema, const struct ArrowArray *value,
                          paimon_error *err);

/* Conjunction / disjunction of `n` >= 1 predicates, and negation. They take ownership of the
 * children (the array itself stays the caller's), also when they fail. */
/* Spark's `partitions` procedure argument as a predicate: "k1=v1,k2=v2;k1=v3" is
 * (k1 = 'v1' AND k2 = 'v2') OR k1 = 'v3', each value parsed as its column's type when bound.
 * EINVAL for text of another shape. */
int paimon_predicate_partitions(const char *text, paimon_predicate **out, paimon_error *err);

int paimon_predicate_and(paimon_predicate **out, paimon_predicate **children, size_t n,
                         paimon_error *err);
int paimon_predicate_or(paimon_predicate **out, paimon_predicate **children, size_t n,
                        paimon_error *err);
int paimon_predicate_not(paimon_predicate **out, paimon_predicate *child, paimon_error *err);

/* Writes a readable rendering ("age > 5 AND name IS NOT NULL") to buf (size bytes, always
 * NUL-terminated when size > 0) and returns the length of the full rendering, like snprintf. */
size_t paimon_predicate_format(const paimon_predicate *p, char *buf, size_t size);

/* Releases `p`; NULL is a no-op. */
void paimon_predicate_free(paimon_predicate *p);

/* A new, independent copy of `p` (for callers that keep `p` while handing a predicate to
 * paimon_predicate_and / _or / _not, which take their children). */
int paimon_predicate_copy(const paimon_predicate *p, paimon_predicate **out, paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
