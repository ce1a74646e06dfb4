/*
 * MERGE INTO (docs/sql.md; Spark's MergeIntoTable semantics, spec/data-evolution.md §3.8):
 *
 *   MERGE INTO target [AS t] USING source [AS s] ON cond
 *     WHEN MATCHED [AND c] THEN UPDATE SET ... | UPDATE SET * | DELETE
 *     WHEN NOT MATCHED [AND c] THEN INSERT (cols) VALUES (...) | INSERT *
 *     WHEN NOT MATCHED BY SOURCE [AND c] THEN UPDATE SET ... | DELETE
 *
 * The target (with `_ROW_ID`) and the source are joined on the ON condition (exec_join.c). Each
 * matched pair, unmatched source row and unmatched target row takes the action of the first clause
 * of its kind whose condition is TRUE; rows no clause takes are left alone. Name scopes follow
 * Spark: MATCHED clauses see both sides, NOT MATCHED clauses the source only, NOT MATCHED BY
 * SOURCE clauses the target only. A target row matched by more than one source row fails the
 * statement when a MATCHED clause exists (Spark's MERGE_CARDINALITY_VIOLATION).
 *
 * Updates of all clauses become one batch over the union of the assigned columns (a clause that
 * does not assign a column keeps its current value); deletes one list of row ids; inserts new
 * rows; all committed together through the DML interface (dml.h). Data-evolution tables get
 * Spark's checks: no partition-column updates, deletes only with deletion vectors, WHEN NOT
 * MATCHED BY SOURCE only with DELETE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/dml.h"
#include "sql/exec.h"
#include "sql/exec_dml_internal.h"
#include "types/type_arrow.h"

/* A clause, bound. */
typedef struct bound_clause {
  const cp_sql_merge_clause *c;
  const cp_sql_scope *scope; /* the scope its expressions are bound in */
  cp_expr *cond;             /* NULL: always */
  cp_expr **values;          /* UPDATE: per union column; INSERT: per table column (NULL: NULL) */
} bound_clause;

typedef struct merge_ctx {
  cp_sql_table t;
  const cp_sql_merge *m;
  cp_rel tgt, src;
  size_t n_tgt_fields; /* table columns; tgt's _ROW_ID follows them */
  int64_t snapshot;
  cp_rel_col *both_cols;
  cp_sql_scope both, tgt_scope, src_scope;
  size_t *update_cols; /* union of updated table columns, table order */
  size_t n_update_cols;
  bound_clause *clauses;
  cp_rel *updates, *inserts; /* parts, one per clause that produced rows */
  size_t n_updates, n_inserts;
  int64_t *deletes;
  size_t n_deletes;
  cp_arena arena; /* UPDATE SET lists with nested targets, aligned (cp_sql_align_nested_sets) */
} merge_ctx;

static bool is_update(const cp_sql_merge_clause *c) {
  return c->action == CP_SQL_MERGE_UPDATE || c->action == CP_SQL_MERGE_UPDATE_STAR;
}

/* ---- checks and binding --------------------------------------------------------------------- */

static int check_clauses(merge_ctx *mc, paimon_error *err) {
  const cp_sql_merge *m = mc->m;
  bool needs_ids = false;
  for (size_t i = 0; i < m->n_clauses; i++) {
    const cp_sql_merge_clause *c = &m->clauses[i];
    if (c->match != CP_SQL_NOT_MATCHED) needs_ids = true;
    if (c->action == CP_SQL_MERGE_DELETE)
      CP_RETURN_IF_ERROR(cp_sql_check_delete(&mc->t, c->pos, true, err));
    if (mc->t.data_evolution && c->match == CP_SQL_NOT_MATCHED_BY_SOURCE && is_update(c))
      return cp_sql_error_at(err, PAIMON_EINVAL, c->pos,
                             "WHEN NOT MATCHED BY SOURCE only supports DELETE on data evolution "
                             "tables.");
  }
  if (needs_ids) return cp_sql_need_row_tracking(&mc->t, "MERGE INTO", m->target.pos, err);
  return PAIMON_OK;
}

/* The source column named like table column `f` (for UPDATE SET * / INSERT *). */
static int source_column(const merge_ctx *mc, const cp_sql_merge_clause *c, const cp_field *f,
                         size_t *out, paimon_error *err) {
  for (size_t j = 0; j < mc->src.n_cols; j++)
    if (!mc->src.cols[j].hidden && strcasecmp(mc->src.cols[j].name, f->name) == 0) {
      *out = j;
      return PAIMON_OK;
    }
  return cp_sql_error_at(
      err, PAIMON_EINVAL, c->pos, "cannot resolve %s in %s clause: the source has no column %s",
      f->name, c->action == CP_SQL_MERGE_INSERT_STAR ? "INSERT *" : "UPDATE SET *", f->name);
}

/* A bound reference to column `col` of scope `s`. */
static int column_ref(const cp_sql_scope *s, size_t col, cp_expr **out, paimon_error *err) {
  cp_expr *ref = NULL;
  CP_RETURN_IF_ERROR(cp_expr_column(&ref, s->bind_names[col], err));
  int rc = cp_expr_bind(ref, s->row, false, out, err);
  cp_expr_free(ref);
  return rc;
}

/* Binds value `e` for table column `col` in scope `s`, checking store assignment. */
static int bind_value(merge_ctx *mc, const cp_sql_scope *s, const cp_sql_expr *e, size_t col,
                      cp_expr **out, paimon_error *err) {
  const cp_field *f = &mc->t.row->fields[col];
  CP_RETURN_IF_ERROR(cp_sql_bind_assigned(s, e, f->type, out, err));
  if (e->kind == CP_SQL_E_LITERAL && e->lit.kind == CP_SQL_LIT_NULL) return PAIMON_OK;
  return cp_sql_assign_check((*out)->type, f->type, mc->t.ident, f->name, e->pos, err);
}

/* The columns an UPDATE clause assigns (table indexes) and, per union column, its value. */
static int bind_update(merge_ctx *mc, bound_clause *bc, paimon_error *err) {
  const cp_sql_merge_clause *c = bc->c;
  const char *tq = mc->m->target_alias ? mc->m->target_alias : mc->t.name;
  size_t n = mc->n_tgt_fields;
  bc->values = calloc(n + 1, sizeof *bc->values);
  if (!bc->values) return CP_ENOMEM(err, "MERGE");
  if (c->action == CP_SQL_MERGE_UPDATE_STAR) {
    for (size_t i = 0; i < n; i++) {
      size_t j = 0;
      CP_RETURN_IF_ERROR(source_column(mc, c, &mc->t.row->fields[i], &j, err));
      CP_RETURN_IF_ERROR(column_ref(bc->scope, mc->tgt.n_cols + j, &bc->values[i], err));
      CP_RETURN_IF_ERROR(cp_sql_assign_check(bc->values[i]->type, mc->t.row->fields[i].type,
                                             mc->t.ident, mc->t.row->fields[i].name, c->pos, err));
    }
    return PAIMON_OK;
  }
  cp_sql_assignment *set = NULL;
  size_t n_set = 0;
  CP_RETURN_IF_ERROR(
      cp_sql_align_nested_sets(&mc->t, tq, c->set, c->n_set, &mc->arena, &set, &n_set, err));
  for (size_t k = 0; k < n_set; k++) {
    size_t col;
    CP_RETURN_IF_ERROR(cp_sql_target_column(&mc->t, tq, &set[k].target, "MERGE INTO", &col, err));
    if (bc->values[col])
      return cp_sql_error_at(err, PAIMON_EINVAL, set[k].target.pos,
                             "The column %s appears more than once as an assignment target",
                             mc->t.row->fields[col].name);
    CP_RETURN_IF_ERROR(bind_value(mc, bc->scope, set[k].value, col, &bc->values[col], err));
  }
  return PAIMON_OK;
}

static int bind_insert(merge_ctx *mc, bound_clause *bc, paimon_error *err) {
  const cp_sql_merge_clause *c = bc->c;
  size_t n = mc->n_tgt_fields;
  bc->values = calloc(n + 1, sizeof *bc->values);
  if (!bc->values) return CP_ENOMEM(err, "MERGE");
  if (c->action == CP_SQL_MERGE_INSERT_STAR) {
    for (size_t i = 0; i < n; i++) {
      size_t j = 0;
      CP_RETURN_IF_ERROR(source_column(mc, c, &mc->t.row->fields[i], &j, err));
      CP_RETURN_IF_ERROR(column_ref(bc->scope, j, &bc->values[i], err));
      CP_RETURN_IF_ERROR(cp_sql_assign_check(bc->values[i]->type, mc->t.row->fields[i].type,
                                             mc->t.ident, mc->t.row->fields[i].name, c->pos, err));
    }
    return PAIMON_OK;
  }
  size_t n_cols = c->columns ? c->n_columns : n;
  if (n_cols != c->n_values)
    return cp_sql_error_at(err, PAIMON_EINVAL, c->pos,
                           "INSERT clause of MERGE has %zu column(s) but %zu value(s)", n_cols,
                           c->n_values);
  for (size_t k = 0; k < n_cols; k++) {
    size_t col = k;
    if (c->columns) {
      ptrdiff_t i = cp_row_field_index_ci(mc->t.row, c->columns[k]);
      if (i < 0)
        return cp_sql_error_at(err, PAIMON_ENOTFOUND, c->pos,
                               "Column %s does not exist in table %s.", c->columns[k], mc->t.ident);
      col = (size_t)i;
    }
    if (bc->values[col])
      return cp_sql_error_at(err, PAIMON_EINVAL, c->pos,
                             "Column %s is specified more than once in INSERT", c->columns[k]);
    CP_RETURN_IF_ERROR(bind_value(mc, bc->scope, c->values[k], col, &bc->values[col], err));
  }
  return PAIMON_OK;
}

static int bind_clauses(merge_ctx *mc, paimon_error *err) {
  const cp_sql_merge *m = mc->m;
  mc->clauses = calloc(m->n_clauses + 1, sizeof *mc->clauses);
  mc->update_cols = calloc(mc->n_tgt_fields + 1, sizeof *mc->update_cols);
  if (!mc->clauses || !mc->update_cols) return CP_ENOMEM(err, "MERGE");
  bool *updated = calloc(mc->n_tgt_fields + 1, sizeof *updated);
  if (!updated) return CP_ENOMEM(err, "MERGE");
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < m->n_clauses; i++) {
    bound_clause *bc = &mc->clauses[i];
    bc->c = &m->clauses[i];
    bc->scope = bc->c->match == CP_SQL_MATCHED       ? &mc->both
                : bc->c->match == CP_SQL_NOT_MATCHED ? &mc->src_scope
                                                     : &mc->tgt_scope;
    if (bc->c->cond) rc = cp_sql_bind_predicate(bc->scope, bc->c->cond, &bc->cond, err);
    if (!rc && is_update(bc->c))
      rc = bind_update(mc, bc, err);
    else if (!rc && bc->c->action != CP_SQL_MERGE_DELETE)
      rc = bind_insert(mc, bc, err);
    for (size_t col = 0; !rc && is_update(bc->c) && col < mc->n_tgt_fields; col++)
      updated[col] |= bc->values[col] != NULL;
  }
  /* Columns some clause updates: the others keep their current value in the update batch. */
  for (size_t col = 0; !rc && col < mc->n_tgt_fields; col++)
    if (updated[col]) mc->update_cols[mc->n_update_cols++] = col;
  for (size_t i = 0; !rc && i < m->n_clauses; i++) {
    bound_clause *bc = &mc->clauses[i];
    for (size_t col = 0; !rc && is_update(bc->c) && col < mc->n_tgt_fields; col++)
      if (updated[col] && !bc->values[col]) rc = column_ref(bc->scope, col, &bc->values[col], err);
  }
  free(updated);
  return rc;
}

/* ---- running the clauses -------------------------------------------------------------------- */

static int push_rel(cp_rel **parts, size_t *n, cp_rel *r, paimon_error *err) {
  cp_rel *grown = realloc(*parts, (*n + 1) * sizeof *grown);
  if (!grown) {
    cp_rel_free(r);
    return CP_ENOMEM(err, "MERGE");
  }
  *parts = grown;
  grown[(*n)++] = *r;
  memset(r, 0, sizeof *r);
  return PAIMON_OK;
}

/* The new rows of an INSERT clause over source rows `rows`. */
static int insert_rows(merge_ctx *mc, const bound_clause *bc, const cp_rel *rows,
                       paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t col = 0; !rc && col < mc->n_tgt_fields; col++) {
    const cp_field *f = &mc->t.row->fields[col];
    struct ArrowSchema s, cs;
    struct ArrowArray a, ca;
    memset(&a, 0, sizeof a);
    memset(&ca, 0, sizeof ca);
    if (!bc->values[col]) {
      cp_builder *nb = NULL;
      rc = cp_type_to_arrow(f->type, f->name, &cs, err);
      if (!rc) rc = cp_builder_create(&nb, &cs, err);
      if (!rc) rc = cp_builder_append_nulls(nb, cp_rel_rows(rows), err);
      if (!rc) rc = cp_builder_finish(nb, &ca, err);
      cp_builder_free(nb);
    } else {
      rc = cp_sql_eval(rows, bc->values[col], f->name, &s, &a, err);
      if (!rc) {
        rc = cp_sql_assign_array(bc->values[col]->type, &s, &a, f->type, f->name, &cs, &ca, err);
        cp_array_release(&a);
        cp_schema_release(&s);
      }
    }
    if (!rc) rc = cp_rel_builder_add(&b, f->name, NULL, f->type, false, &cs, &ca, err);
  }
  cp_rel out;
  if (!rc)
    rc = cp_rel_builder_finish(&b, cp_rel_rows(rows), &out, err);
  else
    cp_rel_builder_free(&b);
  return rc ? rc : push_rel(&mc->inserts, &mc->n_inserts, &out, err);
}

static int take_action(merge_ctx *mc, const bound_clause *bc, const cp_rel *rows,
                       paimon_error *err) {
  if (cp_rel_rows(rows) == 0) return PAIMON_OK;
  if (bc->c->action == CP_SQL_MERGE_INSERT || bc->c->action == CP_SQL_MERGE_INSERT_STAR)
    return insert_rows(mc, bc, rows, err);
  size_t row_id;
  CP_RETURN_IF_ERROR(cp_sql_row_id_column(rows, &row_id, err));
  if (bc->c->action == CP_SQL_MERGE_DELETE) {
    int64_t *ids = NULL;
    size_t n = 0;
    CP_RETURN_IF_ERROR(cp_sql_row_ids(rows, row_id, &ids, &n, err));
    int64_t *grown = realloc(mc->deletes, (mc->n_deletes + n + 1) * sizeof *grown);
    if (grown) {
      memcpy(grown + mc->n_deletes, ids, n * sizeof *ids);
      mc->deletes = grown;
      mc->n_deletes += n;
    }
    free(ids);
    return grown ? PAIMON_OK : CP_ENOMEM(err, "MERGE");
  }
  cp_expr **values = calloc(mc->n_update_cols + 1, sizeof *values);
  if (!values) return CP_ENOMEM(err, "MERGE");
  for (size_t k = 0; k < mc->n_update_cols; k++) values[k] = bc->values[mc->update_cols[k]];
  cp_rel batch;
  int rc = cp_sql_update_batch(&mc->t, rows, row_id, mc->update_cols, values, mc->n_update_cols,
                               &batch, err);
  free(values);
  return rc ? rc : push_rel(&mc->updates, &mc->n_updates, &batch, err);
}

/* Runs the clauses of one kind over `rows` (pairs, target rows or source rows). */
static int run_clauses(merge_ctx *mc, cp_sql_merge_match match, const cp_rel *rows,
                       paimon_error *err) {
  int64_t n = cp_rel_rows(rows);
  uint8_t *left = malloc((size_t)cp_bitmap_bytes(n) + 1);
  if (!left) return CP_ENOMEM(err, "MERGE");
  cp_bitmap_set_range(left, 0, n, true);
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < mc->m->n_clauses; i++) {
    const bound_clause *bc = &mc->clauses[i];
    if (bc->c->match != match) continue;
    uint8_t *sel = NULL;
    int64_t n_true = 0;
    if (bc->cond)
      rc = cp_sql_select_bits(rows, bc->cond, &sel, &n_true, err);
    else if (!(sel = malloc((size_t)cp_bitmap_bytes(n) + 1)))
      rc = CP_ENOMEM(err, "MERGE");
    else
      cp_bitmap_set_range(sel, 0, n, true);
    if (rc) break;
    for (int64_t b = 0; b < cp_bitmap_bytes(n); b++) {
      sel[b] &= left[b];
      left[b] &= (uint8_t)~sel[b];
    }
    cp_rel chosen;
    rc = cp_rel_filter(rows, sel, &chosen, err);
    free(sel);
    if (!rc) rc = take_action(mc, bc, &chosen, err);
    cp_rel_free(&chosen);
  }
  free(left);
  return rc;
}

/* Splits the join pairs, checks cardinality and runs each kind of clause. */
static int run_merge(merge_ctx *mc, const cp_expr *on, paimon_error *err) {
  bool has[3] = {false, false, false};
  for (size_t i = 0; i < mc->m->n_clauses; i++) has[mc->m->clauses[i].match] = true;
  cp_sql_pairs p;
  CP_RETURN_IF_ERROR(cp_sql_join_pairs(&mc->tgt, &mc->src, on, has[CP_SQL_NOT_MATCHED_BY_SOURCE],
                                       has[CP_SQL_NOT_MATCHED], &p, err));
  cp_sql_pairs matched = {malloc(((size_t)p.n + 1) * sizeof(int64_t)),
                          malloc(((size_t)p.n + 1) * sizeof(int64_t)), 0};
  int64_t *tgt_only = malloc(((size_t)p.n + 1) * sizeof *tgt_only);
  int64_t *src_only = malloc(((size_t)p.n + 1) * sizeof *src_only), n_t = 0, n_s = 0;
  int rc =
      (!matched.left || !matched.right || !tgt_only || !src_only) ? CP_ENOMEM(err, "MERGE") : 0;
  for (int64_t i = 0; !rc && i < p.n; i++) {
    if (p.left[i] >= 0 && p.right[i] >= 0) {
      if (has[CP_SQL_MATCHED] && matched.n && matched.left[matched.n - 1] == p.left[i])
        rc = cp_sql_error_at(err, PAIMON_EINVAL, mc->m->on->pos,
                             "The ON search condition of the MERGE statement matched a single row "
                             "from the target table with multiple rows of the source table.");
      matched.left[matched.n] = p.left[i];
      matched.right[matched.n++] = p.right[i];
    } else if (p.right[i] < 0) {
      tgt_only[n_t++] = p.left[i];
    } else {
      src_only[n_s++] = p.right[i];
    }
  }
  cp_rel rows;
  memset(&rows, 0, sizeof rows);
  if (!rc && has[CP_SQL_MATCHED] && matched.n) {
    rc = cp_sql_pairs_rel(&mc->tgt, &mc->src, &matched, &rows, err);
    if (!rc) rc = run_clauses(mc, CP_SQL_MATCHED, &rows, err);
    cp_rel_free(&rows);
  }
  if (!rc && n_t) {
    rc = cp_rel_take(&mc->tgt, tgt_only, n_t, &rows, err);
    if (!rc) rc = run_clauses(mc, CP_SQL_NOT_MATCHED_BY_SOURCE, &rows, err);
    cp_rel_free(&rows);
  }
  if (!rc && n_s) {
    rc = cp_rel_take(&mc->src, src_only, n_s, &rows, err);
    if (!rc) rc = run_clauses(mc, CP_SQL_NOT_MATCHED, &rows, err);
    cp_rel_free(&rows);
  }
  cp_sql_pairs_free(&matched);
  cp_sql_pairs_free(&p);
  free(tgt_only);
  free(src_only);
  return rc;
}

/* ---- committing ----------------------------------------------------------------------------- */

static int commit(merge_ctx *mc, paimon_error *err) {
  if (!mc->n_updates && !mc->n_deletes && !mc->n_inserts) return PAIMON_OK;
  cp_dml *d = NULL;
  cp_rel updates;
  memset(&updates, 0, sizeof updates);
  int rc = cp_dml_begin(&d, mc->t.table, CP_DML_MERGE, mc->snapshot, err);
  if (!rc && mc->n_updates) rc = cp_rel_concat_rows(mc->updates, mc->n_updates, &updates, err);
  if (!rc && mc->n_updates) rc = cp_dml_update(d, &updates.schema, &updates.batch, err);
  if (!rc && mc->n_deletes) rc = cp_dml_delete(d, mc->deletes, mc->n_deletes, err);
  for (size_t i = 0; !rc && i < mc->n_inserts; i++)
    rc = cp_dml_insert(d, &mc->inserts[i].schema, &mc->inserts[i].batch, err);
  if (!rc) rc = cp_dml_commit(d, NULL, err);
  cp_dml_free(d);
  cp_rel_free(&updates);
  return rc;
}

static void ctx_free(merge_ctx *mc) {
  for (size_t i = 0; mc->clauses && i < mc->m->n_clauses; i++) {
    cp_expr_free(mc->clauses[i].cond);
    for (size_t k = 0; mc->clauses[i].values && k < mc->n_tgt_fields; k++)
      cp_expr_free(mc->clauses[i].values[k]);
    free(mc->clauses[i].values);
  }
  free(mc->clauses);
  for (size_t i = 0; i < mc->n_updates; i++) cp_rel_free(&mc->updates[i]);
  for (size_t i = 0; i < mc->n_inserts; i++) cp_rel_free(&mc->inserts[i]);
  free(mc->updates);
  free(mc->inserts);
  free(mc->deletes);
  free(mc->update_cols);
  cp_sql_scope_free(&mc->both);
  cp_sql_scope_free(&mc->tgt_scope);
  cp_sql_scope_free(&mc->src_scope);
  free(mc->both_cols);
  cp_rel_free(&mc->tgt);
  cp_rel_free(&mc->src);
  cp_sql_table_close(&mc->t);
  cp_arena_free(&mc->arena);
}

/* Reads both sides and sets up the three scopes. */
static int prepare(cp_sql_session *s, const cp_sql_stmt *stmt, merge_ctx *mc, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &mc->m->target, &mc->t, err));
  mc->n_tgt_fields = mc->t.row->n_fields;
  CP_RETURN_IF_ERROR(check_clauses(mc, err));
  cp_sql_exec x;
  CP_RETURN_IF_ERROR(cp_sql_exec_init(&x, s, stmt, err));
  int rc = cp_sql_run_from(&x, mc->m->source, &mc->src, err);
  cp_sql_exec_free(&x);
  CP_RETURN_IF_ERROR(rc);
  const char *tq = mc->m->target_alias ? mc->m->target_alias : mc->t.name;
  CP_RETURN_IF_ERROR(cp_sql_read_target(&mc->t, tq, &mc->tgt, &mc->snapshot, err));
  size_t n = mc->tgt.n_cols + mc->src.n_cols;
  mc->both_cols = calloc(n + 1, sizeof *mc->both_cols);
  if (!mc->both_cols) return CP_ENOMEM(err, "MERGE");
  memcpy(mc->both_cols, mc->tgt.cols, mc->tgt.n_cols * sizeof *mc->both_cols);
  memcpy(mc->both_cols + mc->tgt.n_cols, mc->src.cols, mc->src.n_cols * sizeof *mc->both_cols);
  CP_RETURN_IF_ERROR(cp_sql_scope_init(&mc->both, mc->both_cols, n, "MERGE", err));
  CP_RETURN_IF_ERROR(cp_sql_scope_init(&mc->tgt_scope, mc->tgt.cols, mc->tgt.n_cols, "MERGE", err));
  return cp_sql_scope_init(&mc->src_scope, mc->src.cols, mc->src.n_cols, "MERGE", err);
}

int cp_sql_exec_merge(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  merge_ctx mc;
  memset(&mc, 0, sizeof mc);
  mc.m = &stmt->merge;
  cp_expr *on = NULL;
  int rc = prepare(s, stmt, &mc, err);
  if (!rc) {
    mc.both.clause = "ON";
    rc = cp_sql_bind_predicate(&mc.both, mc.m->on, &on, err);
    mc.both.clause = "MERGE";
  }
  if (!rc) rc = bind_clauses(&mc, err);
  if (!rc) rc = run_merge(&mc, on, err);
  if (!rc) rc = commit(&mc, err);
  cp_expr_free(on);
  if (mc.t.table)
    ctx_free(&mc);
  else
    cp_sql_table_close(&mc.t);
  return rc;
}
