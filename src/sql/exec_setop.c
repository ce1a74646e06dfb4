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
  if (!null_col && cp_type_equals(r->cols[i].type, to, 0))
    return cp_rel_builder_add_from(b, r, i, err);
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
  if (q->set_op != CP_SQL_SET_NONE) return null_column(q->left, i) && null_column(q->right, i);
  for (size_t k = 0; k <= i && k < q->n_items; k++)
    if (q->items[k].expr->kind == CP_SQL_E_STAR) return false;
  if (i >= q->n_items) return false;
  const cp_sql_expr *e = q->items[i].expr;
  return e->kind == CP_SQL_E_LITERAL && e->lit.kind == CP_SQL_LIT_NULL;
}

/* The type column i of both sides meets at (owned by the caller; NULL when there is none). */
static int meet(const cp_sql_query *q, size_t i, const cp_type *lt, const cp_type *rt,
                cp_type **out, paimon_error *err) {
  bool ln = null_column(q->left, i), rn = null_column(q->right, i);
  int rc = ln != rn ? cp_type_copy(out, ln ? rt : lt, err) : cp_common_wider_type(lt, rt, out, err);
  if (!rc && *out) (*out)->nullable = true;
  return rc;
}

/* Both sides with their columns cast to the types they meet at. */
static int align(const cp_sql_query *q, cp_rel *l, cp_rel *r, paimon_error *err) {
  if (l->n_cols != r->n_cols)
    return cp_sql_error_at(err, PAIMON_EINVAL, q->pos,
                           "[NUM_COLUMNS_MISMATCH] %s can only be performed on inputs with the "
                           "same number of columns, but the first input has %zu columns and the "
                           "second input has %zu columns.",
                           op_name(q->set_op), l->n_cols, r->n_cols);
  cp_rel_builder bl = CP_REL_BUILDER_INIT, br = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < l->n_cols; i++) {
    const cp_type *lt = l->cols[i].type, *rt = r->cols[i].type;
    cp_type *common = NULL;
    rc = meet(q, i, lt, rt, &common, err);
    if (!rc && !common) {
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
      break;
    }
    if (!rc && !lt->nullable && !rt->nullable) common->nullable = false;
    if (!rc) rc = add_cast(l, i, null_column(q->left, i), common, &bl, err);
    if (!rc) rc = add_cast(r, i, null_column(q->right, i), common, &br, err);
    cp_type_free(common);
  }
  cp_rel nl, nr;
  memset(&nl, 0, sizeof nl);
  memset(&nr, 0, sizeof nr);
  if (!rc)
    rc = cp_rel_builder_finish(&bl, cp_rel_rows(l), &nl, err);
  else
    cp_rel_builder_free(&bl);
  if (!rc)
    rc = cp_rel_builder_finish(&br, cp_rel_rows(r), &nr, err);
  else
    cp_rel_builder_free(&br);
  if (rc) {
    cp_rel_free(&nl);
    cp_rel_free(&nr);
    return rc;
  }
  cp_rel_free(l);
  cp_rel_free(r);
  *l = nl;
  *r = nr;
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

int cp_sql_run_set_query(cp_sql_exec *x, const cp_sql_query *q, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_rel parts[2];
  memset(parts, 0, sizeof parts);
  bool ordered;
  int rc = cp_sql_run_query(x, q->left, &parts[0], &ordered, err);
  if (!rc) rc = cp_sql_run_query(x, q->right, &parts[1], &ordered, err);
  if (!rc) rc = align(q, &parts[0], &parts[1], err);
  cp_rel all;
  memset(&all, 0, sizeof all);
  if (!rc) rc = cp_rel_concat_rows(parts, 2, &all, err);
  int64_t *idx = NULL, n = 0;
  if (!rc && q->set_op == CP_SQL_SET_UNION && q->set_all) {
    *out = all;
    memset(&all, 0, sizeof all);
  } else if (!rc) {
    rc = pick_rows(q, &all, cp_rel_rows(&parts[0]), &idx, &n, err);
    if (!rc) rc = cp_rel_take(&all, idx, n, out, err);
  }
  free(idx);
  cp_rel_free(&all);
  cp_rel_free(&parts[0]);
  cp_rel_free(&parts[1]);
  return rc;
}
