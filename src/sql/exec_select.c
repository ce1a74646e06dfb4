/*
 * SELECT (docs/sql.md, "Queries"), evaluated in Spark's logical order: FROM, WHERE, GROUP BY and
 * aggregates, HAVING, the select list, DISTINCT, ORDER BY, LIMIT.
 *
 * Spark's resolution rules that apply: '*' expands to the visible columns (never the hidden
 * row-tracking ones); GROUP BY and ORDER BY accept select-list ordinals (1-based) and aliases;
 * ORDER BY may also sort by expressions that are not selected (computed as extra columns dropped
 * at the end, not allowed with DISTINCT); default null ordering is NULLS FIRST for ASC and NULLS
 * LAST for DESC; HAVING without GROUP BY aggregates the whole input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"

/* One output column of the select list. */
typedef struct out_item {
  const cp_sql_expr *expr; /* NULL for a column copied by '*' */
  size_t col;              /* '*': the input column */
  char *name;
  bool aliased; /* name comes from AS */
} out_item;

static void items_free(out_item *items, size_t n) {
  for (size_t i = 0; items && i < n; i++) free(items[i].name);
  free(items);
}

static int push_item(out_item **items, size_t *n, const cp_sql_expr *e, size_t col,
                     const char *name, paimon_error *err) {
  out_item *grown = realloc(*items, (*n + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "select list");
  *items = grown;
  out_item *it = &grown[*n];
  it->expr = e;
  it->col = col;
  it->name = strdup(name);
  it->aliased = false;
  if (!it->name) return CP_ENOMEM(err, "select list");
  (*n)++;
  return PAIMON_OK;
}

/* The select list with '*' and 'q.*' expanded against the input columns. */
static int expand_items(const cp_sql_query *q, const cp_sql_scope *in, out_item **items, size_t *n,
                        paimon_error *err) {
  *items = NULL;
  *n = 0;
  for (size_t i = 0; i < q->n_items; i++) {
    const cp_sql_select_item *it = &q->items[i];
    if (it->expr->kind != CP_SQL_E_STAR) {
      char *name = NULL;
      size_t col;
      paimon_error ignored;
      if (it->alias)
        name = strdup(it->alias);
      else if (it->expr->kind == CP_SQL_E_COLUMN &&
               cp_sql_resolve(in, &it->expr->name, &col, &ignored) == 0)
        name = strdup(in->cols[col].name); /* the column's own spelling, as Spark resolves it */
      else
        CP_RETURN_IF_ERROR(cp_sql_display_name(it->expr, &name, err));
      if (!name) return CP_ENOMEM(err, "select list");
      int rc = push_item(items, n, it->expr, 0, name, err);
      free(name);
      CP_RETURN_IF_ERROR(rc);
      (*items)[*n - 1].aliased = it->alias != NULL;
      continue;
    }
    const cp_sql_name *qual = &it->expr->name;
    size_t before = *n;
    for (size_t c = 0; c < in->n_cols; c++) {
      const cp_rel_col *col = &in->cols[c];
      if (col->hidden) continue;
      if (qual->n && (!col->qualifier || strcasecmp(col->qualifier, qual->parts[qual->n - 1]) != 0))
        continue;
      CP_RETURN_IF_ERROR(push_item(items, n, NULL, c, col->name, err));
    }
    if (qual->n && *n == before)
      return cp_sql_error_at(err, PAIMON_ENOTFOUND, it->expr->pos,
                             "cannot resolve '%s.*': no table or alias named %s in FROM",
                             qual->parts[qual->n - 1], qual->parts[qual->n - 1]);
    if (*n == before)
      return cp_sql_error_at(err, PAIMON_EINVAL, it->expr->pos,
                             "Invalid usage of '*': there are no columns to expand (no FROM)");
  }
  return PAIMON_OK;
}

static bool is_ordinal(const cp_sql_expr *e, int64_t *k) {
  if (e->kind != CP_SQL_E_LITERAL || e->lit.kind != CP_SQL_LIT_NUMBER) return false;
  char *end = NULL;
  long long v = strtoll(e->lit.text, &end, 10);
  if (!end || *end != '\0') return false;
  *k = v;
  return true;
}

/* ---- aggregation ---------------------------------------------------------------------------- */

typedef struct agg_state {
  cp_sql_expr **keys, **aggs, **alias_exprs;
  const char **alias_names;
  int64_t *key_cols;
  size_t n_keys, n_aggs;
  cp_sql_agg_binding binding;
} agg_state;

static void agg_state_free(agg_state *a) {
  free(a->keys);
  free(a->aggs);
  free(a->key_cols);
  free(a->alias_exprs);
  free(a->alias_names);
  memset(a, 0, sizeof *a);
}

/* GROUP BY items: ordinals and select aliases stand for select-list expressions. */
static int group_keys(const cp_sql_query *q, const cp_sql_scope *in, const out_item *items,
                      size_t n_items, agg_state *a, paimon_error *err) {
  a->n_keys = q->n_group_by;
  a->keys = calloc(a->n_keys + 1, sizeof *a->keys);
  a->key_cols = calloc(a->n_keys + 1, sizeof *a->key_cols);
  if (!a->keys || !a->key_cols) return CP_ENOMEM(err, "GROUP BY");
  for (size_t k = 0; k < a->n_keys; k++) {
    cp_sql_expr *g = q->group_by[k];
    int64_t ord;
    if (is_ordinal(g, &ord)) {
      if (ord < 1 || (size_t)ord > n_items || !items[ord - 1].expr)
        return cp_sql_error_at(err, PAIMON_EINVAL, g->pos,
                               "GROUP BY position %lld is not in the select list (1..%zu)",
                               (long long)ord, n_items);
      g = (cp_sql_expr *)items[ord - 1].expr;
      if (cp_sql_has_aggregate(g))
        return cp_sql_error_at(err, PAIMON_EINVAL, q->group_by[k]->pos,
                               "GROUP BY position %lld refers to an aggregate function",
                               (long long)ord);
    } else if (g->kind == CP_SQL_E_COLUMN && g->name.n == 1) {
      size_t idx;
      paimon_error ignored;
      if (cp_sql_resolve(in, &g->name, &idx, &ignored) == PAIMON_ENOTFOUND)
        for (size_t i = 0; i < n_items; i++)
          if (items[i].expr && strcasecmp(items[i].name, g->name.parts[0]) == 0 &&
              !cp_sql_has_aggregate(items[i].expr)) {
            g = (cp_sql_expr *)items[i].expr;
            break;
          }
    }
    a->keys[k] = g;
    size_t idx;
    paimon_error ignored;
    a->key_cols[k] =
        (g->kind == CP_SQL_E_COLUMN && cp_sql_resolve(in, &g->name, &idx, &ignored) == 0)
            ? (int64_t)idx
            : -1;
  }
  return PAIMON_OK;
}

static int collect_aggs(const cp_sql_query *q, const out_item *items, size_t n_items, agg_state *a,
                        paimon_error *err) {
  for (size_t i = 0; i < n_items; i++)
    CP_RETURN_IF_ERROR(cp_sql_collect_aggregates(items[i].expr, &a->aggs, &a->n_aggs, err));
  CP_RETURN_IF_ERROR(cp_sql_collect_aggregates(q->having, &a->aggs, &a->n_aggs, err));
  for (size_t i = 0; i < q->n_order_by; i++)
    CP_RETURN_IF_ERROR(cp_sql_collect_aggregates(q->order_by[i].expr, &a->aggs, &a->n_aggs, err));
  return PAIMON_OK;
}

static bool is_aggregated(const cp_sql_query *q) {
  if (q->n_group_by || q->having) return true;
  for (size_t i = 0; i < q->n_items; i++)
    if (cp_sql_has_aggregate(q->items[i].expr)) return true;
  for (size_t i = 0; i < q->n_order_by; i++)
    if (cp_sql_has_aggregate(q->order_by[i].expr)) return true;
  return false;
}

/* Replaces *base by its aggregation (and HAVING filter); *scope becomes the post-aggregation
 * scope over it. `in` (the input scope) must stay alive as long as *scope. */
static int aggregate(const cp_sql_query *q, cp_rel *input, cp_sql_scope *in, const out_item *items,
                     size_t n_items, agg_state *a, cp_rel *base, cp_sql_scope *scope,
                     paimon_error *err) {
  for (size_t i = 0; i < n_items; i++)
    if (!items[i].expr)
      return cp_sql_error_at(err, PAIMON_EINVAL, q->pos,
                             "'*' cannot be used together with GROUP BY or aggregate functions");
  CP_RETURN_IF_ERROR(group_keys(q, in, items, n_items, a, err));
  CP_RETURN_IF_ERROR(collect_aggs(q, items, n_items, a, err));
  in->clause = "GROUP BY";
  CP_RETURN_IF_ERROR(
      cp_sql_aggregate(input, in, a->keys, a->n_keys, a->aggs, a->n_aggs, base, err));
  in->clause = "SELECT";
  a->binding.input = in;
  a->binding.keys = a->keys;
  a->binding.n_keys = a->n_keys;
  a->binding.key_cols = a->key_cols;
  a->binding.aggs = a->aggs;
  a->binding.n_aggs = a->n_aggs;
  a->alias_names = calloc(n_items + 1, sizeof *a->alias_names);
  a->alias_exprs = calloc(n_items + 1, sizeof *a->alias_exprs);
  if (!a->alias_names || !a->alias_exprs) return CP_ENOMEM(err, "HAVING");
  for (size_t i = 0; i < n_items; i++)
    if (items[i].aliased) {
      a->alias_names[a->binding.n_aliases] = items[i].name;
      a->alias_exprs[a->binding.n_aliases++] = (cp_sql_expr *)items[i].expr;
    }
  a->binding.alias_names = a->alias_names;
  a->binding.alias_exprs = a->alias_exprs;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(scope, base->cols, base->n_cols, "HAVING", err));
  scope->agg = &a->binding;
  if (!q->having) return PAIMON_OK;
  cp_expr *pred = NULL;
  cp_rel kept;
  int rc = cp_sql_bind_predicate(scope, q->having, &pred, err);
  if (!rc) rc = cp_sql_filter(base, pred, &kept, err);
  cp_expr_free(pred);
  CP_RETURN_IF_ERROR(rc);
  cp_sql_scope_free(scope);
  cp_rel_free(base);
  *base = kept;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(scope, base->cols, base->n_cols, "SELECT", err));
  scope->agg = &a->binding;
  return PAIMON_OK;
}

/* ---- projection and ordering ---------------------------------------------------------------- */

/* Adds a computed or copied output column to the projection. */
static int project_one(const cp_rel *base, const cp_sql_scope *scope, const cp_sql_expr *e,
                       size_t col, const char *name, cp_rel_builder *b, paimon_error *err) {
  struct ArrowSchema s;
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  if (!e) return cp_rel_builder_add_renamed(b, base, col, name, err);
  cp_expr *bound = NULL;
  CP_RETURN_IF_ERROR(cp_sql_bind(scope, e, &bound, err));
  int rc = bound->kind == CP_EXPR_COLUMN
               ? project_one(base, scope, NULL, (size_t)bound->column, name, b, err)
               : cp_sql_eval(base, bound, name, &s, &a, err);
  if (!rc && bound->kind != CP_EXPR_COLUMN)
    rc = cp_rel_builder_add(b, name, NULL, bound->type, false, &s, &a, err);
  cp_expr_free(bound);
  return rc;
}

/* The output column an ORDER BY item names (ordinal, alias or a selected expression), or -1. */
static int order_target(const cp_sql_order_item *o, const out_item *items, size_t n_items,
                        int64_t *target, paimon_error *err) {
  *target = -1;
  int64_t ord;
  if (is_ordinal(o->expr, &ord)) {
    if (ord < 1 || (size_t)ord > n_items)
      return cp_sql_error_at(err, PAIMON_EINVAL, o->expr->pos,
                             "ORDER BY position %lld is not in the select list (1..%zu)",
                             (long long)ord, n_items);
    *target = ord - 1;
    return PAIMON_OK;
  }
  if (o->expr->kind == CP_SQL_E_COLUMN && o->expr->name.n == 1) {
    for (size_t i = 0; i < n_items; i++)
      if (strcasecmp(items[i].name, o->expr->name.parts[0]) == 0) {
        if (*target >= 0 && items[*target].expr != items[i].expr)
          return cp_sql_error_at(err, PAIMON_EINVAL, o->expr->pos,
                                 "Reference '%s' is ambiguous in ORDER BY", o->expr->name.parts[0]);
        *target = (int64_t)i;
      }
    if (*target >= 0) return PAIMON_OK;
  }
  for (size_t i = 0; i < n_items; i++)
    if (items[i].expr && cp_sql_expr_equal(items[i].expr, o->expr)) {
      *target = (int64_t)i;
      return PAIMON_OK;
    }
  return PAIMON_OK;
}

/* Projects the select list plus the ORDER BY expressions that are not selected; sort_cols[i] is
 * the projected column of ORDER BY item i. */
static int project(const cp_sql_query *q, const cp_rel *base, const cp_sql_scope *scope,
                   const out_item *items, size_t n_items, size_t *sort_cols, cp_rel *out,
                   paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n_items; i++)
    rc = project_one(base, scope, items[i].expr, items[i].col, items[i].name, &b, err);
  size_t extra = n_items;
  for (size_t i = 0; !rc && i < q->n_order_by; i++) {
    int64_t target;
    rc = order_target(&q->order_by[i], items, n_items, &target, err);
    if (rc) break;
    if (target >= 0) {
      sort_cols[i] = (size_t)target;
      continue;
    }
    if (q->distinct) {
      rc = cp_sql_error_at(err, PAIMON_EINVAL, q->order_by[i].expr->pos,
                           "ORDER BY expressions must appear in the select list when SELECT "
                           "DISTINCT is used");
      break;
    }
    sort_cols[i] = extra++;
    rc = project_one(base, scope, q->order_by[i].expr, 0, "#order", &b, err);
  }
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  return cp_rel_builder_finish(&b, cp_rel_rows(base), out, err);
}

/* Spark's refusal to order by a MAP, naming the sort order as it prints it ("m ASC NULLS FIRST").
 */
static int refuse_map_order(const cp_sql_order_item *o, const cp_type *t, bool nulls_first,
                            paimon_error *err) {
  char *name = NULL;
  CP_RETURN_IF_ERROR(cp_sql_display_name(o->expr, &name, err));
  char what[512];
  snprintf(what, sizeof what, "%s %s NULLS %s", name, o->desc ? "DESC" : "ASC",
           nulls_first ? "FIRST" : "LAST");
  free(name);
  return cp_sql_refuse_map(CP_SQL_MAP_ORDER_BY, t, what, o->expr->pos, err);
}

static int sort_rows(const cp_sql_query *q, cp_rel *r, const size_t *sort_cols, paimon_error *err) {
  int64_t rows = cp_rel_rows(r);
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  cp_sort_key *keys = calloc(q->n_order_by, sizeof *keys);
  int64_t *idx = malloc(((size_t)rows + 1) * sizeof *idx);
  int rc = (!keys || !idx) ? CP_ENOMEM(err, "ORDER BY") : PAIMON_OK;
  for (size_t i = 0; !rc && i < q->n_order_by; i++) {
    const cp_sql_order_item *o = &q->order_by[i];
    bool nulls_first = o->nulls == CP_SQL_NULLS_DEFAULT ? !o->desc : o->nulls == CP_SQL_NULLS_FIRST;
    rc = refuse_map_order(o, r->cols[sort_cols[i]].type, nulls_first, err);
    keys[i].column = &v.children[sort_cols[i]];
    keys[i].descending = o->desc;
    keys[i].nulls_first = nulls_first;
  }
  if (!rc && rows) rc = cp_sort_indices(keys, (int64_t)q->n_order_by, idx, err);
  cp_rel sorted;
  if (!rc) rc = cp_rel_take(r, idx, rows, &sorted, err);
  cp_array_view_reset(&v);
  free(keys);
  free(idx);
  CP_RETURN_IF_ERROR(rc);
  cp_rel_free(r);
  *r = sorted;
  return PAIMON_OK;
}

/* Keeps rows idx[0..n) of *r, the first n_keys columns normalized as grouping keys. */
static int keep_rows(cp_rel *r, const int64_t *idx, int64_t n, size_t n_keys, paimon_error *err) {
  cp_rel kept;
  CP_RETURN_IF_ERROR(cp_rel_take_keys(r, idx, n, n_keys, &kept, err));
  cp_rel_free(r);
  *r = kept;
  return PAIMON_OK;
}

/* DISTINCT, ORDER BY, LIMIT and dropping the extra sort columns. */
static int finish_rows(const cp_sql_query *q, cp_rel *r, size_t n_items, const size_t *sort_cols,
                       paimon_error *err) {
  if (q->distinct) {
    for (size_t i = 0; i < n_items; i++)
      CP_RETURN_IF_ERROR(
          cp_sql_refuse_map(CP_SQL_MAP_SET_OP, r->cols[i].type, r->cols[i].name, q->pos, err));
    int64_t *idx = NULL, n = 0;
    CP_RETURN_IF_ERROR(cp_sql_distinct_rows(r, n_items, &idx, &n, err));
    int rc = keep_rows(r, idx, n, n_items, err);
    free(idx);
    CP_RETURN_IF_ERROR(rc);
  }
  if (q->n_order_by) CP_RETURN_IF_ERROR(sort_rows(q, r, sort_cols, err));
  if (q->limit) {
    int64_t limit;
    CP_RETURN_IF_ERROR(cp_sql_eval_constant_int(q->limit, "LIMIT", &limit, err));
    if (limit < cp_rel_rows(r)) {
      int64_t *idx = malloc(((size_t)limit + 1) * sizeof *idx);
      if (!idx) return CP_ENOMEM(err, "LIMIT");
      for (int64_t i = 0; i < limit; i++) idx[i] = i;
      int rc = keep_rows(r, idx, limit, 0, err);
      free(idx);
      CP_RETURN_IF_ERROR(rc);
    }
  }
  if (r->n_cols == n_items) return PAIMON_OK;
  size_t *keep = malloc((n_items + 1) * sizeof *keep);
  if (!keep) return CP_ENOMEM(err, "SELECT");
  for (size_t i = 0; i < n_items; i++) keep[i] = i;
  cp_rel visible;
  int rc = cp_rel_project_cols(r, keep, n_items, &visible, err);
  free(keep);
  CP_RETURN_IF_ERROR(rc);
  cp_rel_free(r);
  *r = visible;
  return PAIMON_OK;
}

/* ---- the query ------------------------------------------------------------------------------ */

static int where(const cp_sql_query *q, cp_rel *input, cp_sql_scope *in, paimon_error *err) {
  if (!q->where) return PAIMON_OK;
  cp_rel kept;
  CP_RETURN_IF_ERROR(cp_sql_filter_where(input, in, q->where, &kept, err));
  cp_sql_scope_free(in);
  cp_rel_free(input);
  *input = kept;
  return cp_sql_scope_init(in, input->cols, input->n_cols, "SELECT", err);
}

int cp_sql_run_query(cp_sql_exec *x, const cp_sql_query *q, cp_rel *out, bool *ordered,
                     paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (q->set_op != CP_SQL_SET_NONE) {
    *ordered = false;
    return cp_sql_run_set_query(x, q, out, err);
  }
  cp_rel input, agg_rel;
  cp_sql_scope in, post;
  agg_state a;
  memset(&agg_rel, 0, sizeof agg_rel);
  memset(&in, 0, sizeof in);
  memset(&post, 0, sizeof post);
  memset(&a, 0, sizeof a);
  out_item *items = NULL;
  size_t n_items = 0;
  size_t *sort_cols = calloc(q->n_order_by + 1, sizeof *sort_cols);
  if (!sort_cols) return CP_ENOMEM(err, "SELECT");
  /* A query over one table lets the scan use its WHERE condition (the rows are filtered again
   * below, so the scan may apply as much or as little of it as it can). */
  const cp_sql_expr *saved = x->pushdown;
  x->pushdown = q->from && q->from->kind == CP_SQL_FROM_TABLE ? q->where : NULL;
  int rc = q->from ? cp_sql_run_from(x, q->from, &input, err) : cp_rel_empty(1, &input, err);
  x->pushdown = saved;
  if (rc) {
    free(sort_cols);
    return rc;
  }
  rc = cp_sql_scope_init(&in, input.cols, input.n_cols, "WHERE", err);
  if (!rc) rc = where(q, &input, &in, err);
  in.clause = "SELECT";
  if (!rc) rc = expand_items(q, &in, &items, &n_items, err);
  bool agg = is_aggregated(q);
  if (!rc && agg) rc = aggregate(q, &input, &in, items, n_items, &a, &agg_rel, &post, err);
  /* Window functions: over the rows the select list reads, after GROUP BY and HAVING. */
  const cp_sql_expr **windows = NULL;
  size_t n_windows = 0;
  if (!rc) rc = cp_sql_collect_windows(q, &windows, &n_windows, err);
  if (!rc && n_windows)
    rc =
        cp_sql_compute_windows(agg ? &agg_rel : &input, agg ? &post : &in, windows, n_windows, err);
  if (!rc)
    rc =
        project(q, agg ? &agg_rel : &input, agg ? &post : &in, items, n_items, sort_cols, out, err);
  if (!rc) rc = finish_rows(q, out, n_items, sort_cols, err);
  if (rc) cp_rel_free(out);
  free(windows);
  *ordered = q->n_order_by > 0;
  cp_sql_scope_free(&post);
  agg_state_free(&a);
  cp_rel_free(&agg_rel);
  cp_sql_scope_free(&in);
  cp_rel_free(&input);
  items_free(items, n_items);
  free(sort_cols);
  return rc;
}
