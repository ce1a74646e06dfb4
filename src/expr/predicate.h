/*
 * The library side of the public predicate API (include/cpaimon/predicate.h): a paimon_predicate
 * is an unbound expression tree (expr.h); the table layer binds it to its read schema.
 */
#ifndef CP_EXPR_PREDICATE_H
#define CP_EXPR_PREDICATE_H

#include "cpaimon/predicate.h"
#include "expr/expr.h"

struct paimon_predicate {
  cp_expr *expr; /* unbound, owned */
};

/* Binds `p` to the ROW type `row` (column names matched exactly, as Paimon does) into a new
 * bound BOOLEAN expression *out, owned by the caller (cp_expr_free). Errors name the column and
 * the value (ENOTFOUND for a missing column, EINVAL for a value that does not fit the column). */
int cp_predicate_bind(const paimon_predicate *p, const cp_type *row, cp_expr **out,
                      paimon_error *err);

/* Wraps an unbound expression (consumed, also on failure) as a public predicate. */
int cp_predicate_wrap(paimon_predicate **out, cp_expr *expr, paimon_error *err);

#endif
