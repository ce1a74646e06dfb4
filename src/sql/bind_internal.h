/*
 * Declarations shared by bind.c and bind_expr.c (not part of the layer's interface).
 */
#ifndef CP_SQL_BIND_INTERNAL_H
#define CP_SQL_BIND_INTERNAL_H

#include "sql/bind.h"

/* Converts the syntax tree `e` into an *unbound* expression over the scope's binding row (column
 * references by their binding names), resolving names and applying the aggregation binding. */
int cp_sql_convert(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err);

/* The typed literal of a literal node (Spark's literal types, bind.h). */
int cp_sql_literal_expr(const cp_sql_expr *e, cp_expr **out, paimon_error *err);

#endif
