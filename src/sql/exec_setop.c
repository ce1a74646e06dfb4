/*
 * UNION / EXCEPT (MINUS) / INTERSECT, with or without ALL (docs/sql.md, "Queries"), as Spark
 * evaluates them: both sides are queries with the same number of columns; column i of the result
 * has the type both sides' column i widen to (cp_common_wider_type, Spark's findWiderTypeForTwo)
 * and the left side's name; NULLs compare equal. UNION ALL keeps every row; UNION keeps the
 * first of equal rows; INTERSECT and EXCEPT keep the left side's distinct rows that do / do not
 * occur on the right; INTERSECT ALL keeps a row min(l, r) times and EXCEPT ALL max(l - r, 0)
 * times, where l and r count its copies on each side. Rows come in the left-then-right order
 * their first copies have (a set operation itself promises no order).
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "sql/exec.h"
#include "types/type_sql.h"

static const char *op_name(cp_sql_set_op op) {
  return op == CP_SQL_SET_UNION ? "UNION" : op == CP_SQL_SET_EXCEPT ? "EXCEPT" : "INTERSECT";
}

/* Column i of `r` cast to `to` (a new column of the builder), or copied when it already is; a
 * column of untyped NULLs (`null_col`) becomes NULLs of type `to`. */
static int add_cast(const cp_rel *r, size_t i, bool null_col, const cp_type *to, cp_rel_builder *b,
                    paimon_error *err) {
  /* A column of untyped NULLs already of type `to` holds NULLs of `to`: nothing to do. */
  if (cp_type_equals(r->cols[i].type, to, 0)) return cp_rel_builder_add_from(b, r, i, err);
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  cp_expr *col = NULL, *cast = NULL, *bound = NULL;
  struct ArrowSchema s;
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  int rc = cp_sql_scope_init(&scope, r->cols, r->n_cols, "SELECT", err);
  if (!rc) rc = null_col ? cp_expr_null(&col, err) : cp_expr_column(&col, scope.bind_names[i], err);
  if (!rc) {
    rc = cp_expr_cast(&cast, col, to, err);
    col = NULL; /* consumed */
  }
  if (!rc) rc = cp_expr_bind(cast, scope.row, false, &bound, err);
  if (!rc) rc = cp_sql_eval(r, bound, r->cols[i].name, &s, &a, err);
  if (!rc) rc = cp_rel_builder_add(b, r->cols[i].name, NULL, to, false, &s, &a, err);
  cp_expr_free(col);
  cp_expr_free(cast);
  cp_expr_free(bound);
  cp_sql_scope_free(&scope);
  return rc;
}

/* Whether column i of what `q` produces is the untyped NULL literal (Spark's NullType, which
 * meets any type at that type): a SELECT item that is a bare NULL, or such a column on both
 * sides of a set operation. Only plain select lists are looked at ('*' gives table columns). */
static bool null_column(const cp_sql_query *q, size_t i) {
  for (; q->set_op != CP_SQL_SET_NONE; q = q->left) /* left operands with a loop */
    if (!null_column(q->right, i)) return false;
  for (size_t k = 0; k <= i && k < q->n_items; k++)
    if (q->items[k].expr->kind == CP_SQL_E_STAR) return false;
  if (i >= q->n_items) return false;
  const cp_sql_expr *e = q->items[i].expr;
  return e->kind == CP_SQL_E_LITERAL && e->lit.kind == CP_SQL_LIT_NULL;
}

/* The result so far of a chain of set operations (see cp_sql_run_set_query): parts with the same
 * column types, concatenated only when an operation needs the rows together or at the end, so a
 * run of UNION ALLs copies each row once; and, per column, whether every side so far gives it as
 * the untyped NULL literal. */
typedef struct set_acc {
  cp_rel *parts;
  size_t n_parts, cap;
  bool *null_col;
  size_t n_cols;
} set_acc;

static void acc_free(set_acc *a) {
  for (size_t i = 0; i < a->n_parts; i++) cp_rel_free(&a->parts[i]);
  free(a->parts);
  free(a->null_col);
  memset(a, 0, sizeof *a);
}

/* Appends `r` (moved in, also on failure). */
static int acc_push(set_acc *a, cp_rel *r, paimon_error *err) {
  if (a->n_parts == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 4;
    cp_rel *grown = realloc(a->parts, cap * sizeof *grown);
    if (!grown) {
      cp_rel_free(r);
      return CP_ENOMEM(err, "set operation");
    }
    a->parts = grown;
    a->cap = cap;
  }
  a->parts[a->n_parts++] = *r;
  memset(r, 0, sizeof *r);
  return PAIMON_OK;
}

/* The parts as one relation (the parts are released). */
static int acc_concat(set_acc *a, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (a->n_parts == 1) {
    *out = a->parts[0];
    a->n_parts = 0;
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(cp_rel_concat_rows(a->parts, a->n_parts, out, err));
  for (size_t i = 0; i < a->n_parts; i++) cp_rel_free(&a->parts[i]);
  a->n_parts = 0;
  return PAIMON_OK;
}

/* `r` with column i cast to types[i] (null_col[i]: the column is untyped NULLs). */
static int cast_rel(cp_rel *r, cp_type *const *types, const bool *null_col, paimon_error *err) {
  bool same = true;
  for (size_t i = 0; i < r->n_cols && same; i++)
    same = cp_type_equals(r->cols[i].type, types[i], 0);
  if (same) return PAIMON_OK;
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < r->n_cols; i++) rc = add_cast(r, i, null_col[i], types[i], &b, err);
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  cp_rel cast;
  memset(&cast, 0, sizeof cast);
  CP_RETURN_IF_ERROR(cp_rel_builder_finish(&b, cp_rel_rows(r), &cast, err));
  cp_rel_free(r);
  *r = cast;
  return PAIMON_OK;
}

/* The type column i of both sides meets at (owned by the caller; NULL when there is none): the
 * other side's type where one side is the untyped NULL literal. */
/* t (a copy of one of two types equal but for nullability) made nullable wherever `o` is. */
static void or_nullability(cp_type *t, const cp_type *o) {
  t->nullable = t->nullable || o->nullable;
  if (t->element) or_nullability(t->element, o->element);
  if (t->key) or_nullability(t->key, o->key);
  if (t->value) or_nullability(t->value, o->value);
  for (size_t i = 0; i < t->n_fields; i++) or_nullability(t->fields[i].type, o->fields[i].type);
}

static int meet(bool ln, bool rn, const cp_type *lt, const cp_type *rt, cp_type **out,
                paimon_error *err) {
  int rc;
  if (ln != rn) {
    rc = cp_type_copy(out, ln ? rt : lt, err);
  } else if (cp_type_equals(lt, rt,
                            CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS |
                                CP_TYPE_EQ_IGNORE_FIELD_DOCS)) {
    /* Nested types (ARRAY, MAP, ROW) meet only when equal, as Spark's findWiderType ends. */
    rc = cp_type_copy(out, lt, err);
    if (!rc) or_nullability(*out, rt);
  } else {
    rc = cp_common_wider_type(lt, rt, out, err);
  }
  if (!rc && *out) (*out)->nullable = lt->nullable || rt->nullable;
  return rc;
}

/* The types the columns of the result so far (`l`: any of its parts) and of the right side `r`
 * meet at, as a new array of n_cols types; or the error Spark gives. */
static int meet_all(const cp_sql_query *q, const cp_rel *l, const bool *l_null, const cp_rel *r,
                    const bool *r_null, cp_type ***out, paimon_error *err) {
  *out = NULL;
  if (l->n_cols != r->n_cols)
    return cp_sql_error_at(err, PAIMON_EINVAL, q->pos,
                           "[NUM_COLUMNS_MISMATCH] %s can only be performed on inputs with the "
                           "same number of columns, but the first input has %zu columns and the "
                           "second input has %zu columns.",
                           op_name(q->set_op), l->n_cols, r->n_cols);
  cp_type **types = calloc(l->n_cols + 1, sizeof *types);
  if (!types) return CP_ENOMEM(err, op_name(q->set_op));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < l->n_cols; i++) {
    const cp_type *lt = l->cols[i].type, *rt = r->cols[i].type;
    rc = meet(l_null[i], r_null[i], lt, rt, &types[i], err);
    if (rc || types[i]) continue;
    char *ls = NULL, *rs = NULL;
    rc = cp_type_to_sql(lt, &ls, err);
    if (!rc) rc = cp_type_to_sql(rt, &rs, err);
    if (!rc)
      rc = cp_sql_error_at(err, PAIMON_EINVAL, q->pos,
                           "[INCOMPATIBLE_COLUMN_TYPE] %s can only be performed on tables with "
                           "compatible column types. Column %zu (%s) of the second input is %s, "
                           "which is not compatible with %s of the first input.",
                           op_name(q->set_op), i + 1, l->cols[i].name, rs, ls);
    free(ls);
    free(rs);
  }
  if (rc) {
    for (size_t i = 0; i < l->n_cols; i++) cp_type_free(types[i]);
    free(types);
    return rc;
  }
  *out = types;
  return PAIMON_OK;
}

/* How many copies of a row with l copies on the left and r on the right the result has. */
static int64_t quota(const cp_sql_query *q, int64_t l, int64_t r) {
  if (q->set_op == CP_SQL_SET_INTERSECT) {
    int64_t both = l < r ? l : r;
    return q->set_all ? both : both > 0;
  }
  if (q->set_op == CP_SQL_SET_EXCEPT) return q->set_all ? (l > r ? l - r : 0) : (l > 0 && !r);
  return q->set_all ? l + r : 1; /* UNION */
}

/* The rows of `all` (left rows [0, n_left), then the right ones) the operation keeps: the first
 * quota() copies of each distinct row, left rows only for INTERSECT and EXCEPT. */
static int pick_rows(const cp_sql_query *q, const cp_rel *all, int64_t n_left, int64_t **idx,
                     int64_t *n, paimon_error *err) {
  int64_t *group_of = NULL, *first = NULL, n_groups = 0, rows = cp_rel_rows(all);
  CP_RETURN_IF_ERROR(cp_sql_group_rows(all, all->n_cols, &group_of, &first, &n_groups, err));
  free(first);
  int64_t *count_l = calloc((size_t)n_groups + 1, sizeof *count_l);
  int64_t *count_r = calloc((size_t)n_groups + 1, sizeof *count_r);
  int64_t *emitted = calloc((size_t)n_groups + 1, sizeof *emitted);
  int64_t *kept = malloc(((size_t)rows + 1) * sizeof *kept);
  int rc =
      (!count_l || !count_r || !emitted || !kept) ? CP_ENOMEM(err, op_name(q->set_op)) : PAIMON_OK;
  int64_t k = 0;
  for (int64_t i = 0; !rc && i < rows; i++) (i < n_left ? count_l : count_r)[group_of[i]]++;
  bool right_too = q->set_op == CP_SQL_SET_UNION;
  for (int64_t i = 0; !rc && i < rows && (i < n_left || right_too); i++) {
    int64_t g = group_of[i];
    if (emitted[g] >= quota(q, count_l[g], count_r[g])) continue;
    emitted[g]++;
    kept[k++] = i;
  }
  free(group_of);
  free(count_l);
  free(count_r);
  free(emitted);
  if (rc) {
    free(kept);
    return rc;
  }
  *idx = kept;
  *n = k;
  return PAIMON_OK;
}

/* One operation of the chain: `acc` op (q->right). */
static int apply_op(cp_sql_exec *x, const cp_sql_query *q, set_acc *acc, paimon_error *err) {
  cp_rel r;
  bool ordered;
  CP_RETURN_IF_ERROR(cp_sql_run_query(x, q->right, &r, &ordered, err));
  bool *r_null = calloc(r.n_cols + 1, sizeof *r_null);
  if (!r_null) {
    cp_rel_free(&r);
    return CP_ENOMEM(err, op_name(q->set_op));
  }
  for (size_t i = 0; i < r.n_cols; i++) r_null[i] = null_column(q->right, i);
  cp_type **types = NULL;
  int rc = meet_all(q, &acc->parts[0], acc->null_col, &r, r_null, &types, err);
  for (size_t i = 0; !rc && i < acc->n_parts; i++)
    rc = cast_rel(&acc->parts[i], types, acc->null_col, err);
  if (!rc) rc = cast_rel(&r, types, r_null, err);
  int64_t n_left = 0;
  for (size_t i = 0; !rc && i < acc->n_parts; i++) n_left += cp_rel_rows(&acc->parts[i]);
  if (!rc) rc = acc_push(acc, &r, err);
  cp_rel_free(&r);
  if (!rc && !(q->set_op == CP_SQL_SET_UNION && q->set_all)) {
    cp_rel all, kept;
    memset(&kept, 0, sizeof kept);
    int64_t *idx = NULL, n = 0;
    rc = acc_concat(acc, &all, err);
    for (size_t i = 0; !rc && i < all.n_cols; i++)
      rc = cp_sql_refuse_map(CP_SQL_MAP_SET_OP, all.cols[i].type, all.cols[i].name, q->pos, err);
    if (!rc) rc = pick_rows(q, &all, n_left, &idx, &n, err);
    if (!rc) rc = cp_rel_take_keys(&all, idx, n, all.n_cols, &kept, err);
    if (!rc) rc = acc_push(acc, &kept, err);
    free(idx);
    cp_rel_free(&all);
  }
  for (size_t i = 0; i < acc->n_cols; i++) acc->null_col[i] = acc->null_col[i] && r_null[i];
  for (size_t i = 0; types && i < acc->n_cols; i++) cp_type_free(types[i]);
  free(types);
  free(r_null);
  return rc;
}

/* A chain of set operations down `left` (what the parser builds for `a UNION ALL b UNION ALL c
 * ...`, without a depth limit) runs as a loop from the innermost left operand up: each operation
 * takes the result so far and its right operand, which is what the nesting `((a op b) op c)`
 * means, casts included (Spark widens each operation's two sides in turn). Right operands
 * recurse; the parser bounds their nesting. */
int cp_sql_run_set_query(cp_sql_exec *x, const cp_sql_query *q, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_chain ops;
  cp_chain_init(&ops);
  int rc = PAIMON_OK;
  const cp_sql_query *first = q;
  for (; !rc && first->set_op != CP_SQL_SET_NONE; first = first->left)
    rc = cp_chain_push(&ops, first, err);
  set_acc acc;
  memset(&acc, 0, sizeof acc);
  cp_rel r;
  bool ordered;
  if (!rc) rc = cp_sql_run_query(x, first, &r, &ordered, err);
  if (!rc) {
    acc.n_cols = r.n_cols;
    acc.null_col = calloc(r.n_cols + 1, sizeof *acc.null_col);
    for (size_t i = 0; acc.null_col && i < r.n_cols; i++) acc.null_col[i] = null_column(first, i);
    if (acc.null_col)
      rc = acc_push(&acc, &r, err);
    else
      rc = CP_ENOMEM(err, "set operation");
    cp_rel_free(&r);
  }
  for (size_t i = ops.n; !rc && i-- > 0;) rc = apply_op(x, ops.nodes[i], &acc, err);
  if (!rc) rc = acc_concat(&acc, out, err);
  acc_free(&acc);
  cp_chain_free(&ops);
  return rc;
}
