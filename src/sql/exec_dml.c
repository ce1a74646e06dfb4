/*
 * UPDATE and DELETE (docs/sql.md; Spark semantics of spec/data-evolution.md §3.8): the executor
 * reads the table with `_ROW_ID`, finds the rows the WHERE condition is TRUE for (a NULL condition
 * leaves a row alone, as Spark's Not(EqualNullSafe(cond, true)) does), computes the new values
 * with store assignment (exec_assign.c), and hands the row ids and values to the DML interface
 * (dml.h), which commits one snapshot. The checks Spark makes before running are made here first:
 * data-evolution tables cannot update partition columns ("Update to partition columns is not
 * supported for data evolution tables.") and delete only with deletion vectors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "sql/dml.h"
#include "sql/exec.h"
#include "sql/exec_dml_internal.h"
#include "types/special_fields.h"

int cp_sql_need_row_tracking(const cp_sql_table *t, const char *verb, cp_sql_pos pos,
                             paimon_error *err) {
  if (t->row_tracking) return PAIMON_OK;
  return cp_sql_error_at(err, PAIMON_EUNSUPPORTED, pos,
                         "%s on %s is not supported: cpaimon changes rows by their _ROW_ID, which "
                         "needs the table option 'row-tracking.enabled' = 'true'",
                         verb, t->ident);
}

int cp_sql_target_column(const cp_sql_table *t, const char *qualifier, const cp_sql_name *target,
                         const char *verb, size_t *out, paimon_error *err) {
  const char *col = target->parts[target->n - 1];
  /* col, t.col, and without an alias db.t.col and <catalog>.db.t.col (bind.h cp_sql_resolve). */
  size_t n = target->n;
  bool ok = n <= 4;
  if (ok && n >= 2) ok = qualifier && strcasecmp(target->parts[n - 2], qualifier) == 0;
  if (ok && n >= 3)
    ok = strcmp(qualifier, t->name) == 0 && strcasecmp(target->parts[n - 3], t->database) == 0;
  if (ok && n == 4) ok = cp_sql_is_catalog_name(target->parts[0]);
  if (!ok)
    return cp_sql_error_at(err, PAIMON_EINVAL, target->pos,
                           "%s can only assign columns of the target table %s", verb, t->ident);
  if (strcasecmp(col, CP_ROW_ID_FIELD_NAME) == 0 ||
      strcasecmp(col, CP_SEQUENCE_NUMBER_FIELD_NAME) == 0)
    return cp_sql_error_at(err, PAIMON_EINVAL, target->pos,
                           "%s cannot assign the row-tracking column %s", verb, col);
  ptrdiff_t i = cp_row_field_index_ci(t->row, col);
  if (i < 0)
    return cp_sql_error_at(err, PAIMON_ENOTFOUND, target->pos,
                           "Column %s does not exist in table %s.", col, t->ident);
  if (t->data_evolution && cp_sql_table_is_partition_key(t, t->row->fields[i].name))
    return cp_sql_error_at(err, PAIMON_EINVAL, target->pos,
                           "Update to partition columns is not supported for data evolution "
                           "tables.");
  *out = (size_t)i;
  return PAIMON_OK;
}

int cp_sql_read_target(cp_sql_table *t, const char *qualifier, cp_rel *out, int64_t *snapshot,
                       paimon_error *err) {
  /* Without an alias the table's own name qualifies it, and db.t.col names its columns too. */
  const char *db = strcmp(qualifier, t->name) == 0 ? t->database : NULL;
  /* _SEQUENCE_NUMBER too: conditions may test it, as in Spark (DELETE ... WHERE _SEQUENCE_NUMBER =
   * 1). */
  cp_sql_scan_req req = {0,         NULL, NULL, t->row_tracking, t->row_tracking,
                         qualifier, db,   NULL, false,           0};
  return cp_sql_scan(t, &req, out, snapshot, err);
}

int cp_sql_row_id_column(const cp_rel *r, size_t *out, paimon_error *err) {
  for (size_t i = 0; i < r->n_cols; i++)
    if (r->cols[i].hidden && strcmp(r->cols[i].name, CP_ROW_ID_FIELD_NAME) == 0) {
      *out = i;
      return PAIMON_OK;
    }
  return paimon_error_set(err, PAIMON_ENOTFOUND, "internal: no _ROW_ID column was read");
}

/* ---- nested assignment targets (SET r.x = v) ------------------------------------------------- */

#define CP_SQL_MAX_SET_DEPTH 64

/* One SET target split into its table column and the ROW field names below it. */
typedef struct field_set {
  size_t col;
  const char **path; /* exact field names, col's first level down */
  size_t n_path;
  const cp_sql_assignment *a;
} field_set;

static cp_sql_expr *new_node(cp_arena *arena, cp_sql_expr_kind kind, cp_sql_pos pos,
                             size_t n_args) {
  cp_sql_expr *e = cp_arena_alloc(arena, sizeof *e);
  if (!e) return NULL;
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->pos = pos;
  e->n_args = n_args;
  if (n_args && !(e->args = cp_arena_alloc(arena, n_args * sizeof *e->args))) return NULL;
  return e;
}

/* A column path node: qualifier.col.f1...fk (the value a field keeps when not assigned). */
static cp_sql_expr *path_node(cp_arena *arena, const char *qualifier, const char *const *names,
                              size_t n, cp_sql_pos pos) {
  cp_sql_expr *e = new_node(arena, CP_SQL_E_COLUMN, pos, 0);
  const char **parts = e ? cp_arena_alloc(arena, (n + 1) * sizeof *parts) : NULL;
  if (!parts) return NULL;
  parts[0] = qualifier;
  for (size_t i = 0; i < n; i++) parts[i + 1] = names[i];
  e->name.parts = parts;
  e->name.n = n + 1;
  e->name.pos = pos;
  return e;
}

/* named_struct(...) for ROW type `row` at `depth` below the column (prefix: the column's name,
 * then the field names down to `row`),
 * each field the value assigned to it, a struct of its own assigned fields, or its current value
 * (Spark's nested assignment alignment: a NULL row becomes a row of the other fields' NULLs). */
static int build_struct(cp_arena *arena, const char *qualifier, const cp_type *row,
                        const char **prefix, size_t depth, field_set *const *sets, size_t n_sets,
                        cp_sql_expr **out, paimon_error *err) {
  cp_sql_pos pos = sets[0]->a->target.pos;
  cp_sql_expr *e = new_node(arena, CP_SQL_E_FUNC, pos, 2 * row->n_fields);
  const char **fname = e ? cp_arena_alloc(arena, sizeof *fname) : NULL;
  field_set **sub = calloc(n_sets, sizeof *sub);
  if (!fname || !sub) {
    free(sub);
    return CP_ENOMEM(err, "UPDATE");
  }
  fname[0] = "named_struct";
  e->name.parts = fname;
  e->name.n = 1;
  int rc = PAIMON_OK;
  for (size_t k = 0; !rc && k < row->n_fields; k++) {
    const cp_field *f = &row->fields[k];
    cp_sql_expr *name = new_node(arena, CP_SQL_E_LITERAL, pos, 0);
    if (!name) {
      rc = CP_ENOMEM(err, "UPDATE");
      break;
    }
    name->lit.kind = CP_SQL_LIT_STRING;
    name->lit.text = f->name;
    name->lit.len = strlen(f->name);
    e->args[2 * k] = name;
    size_t n_sub = 0;
    const field_set *whole = NULL;
    for (size_t i = 0; i < n_sets; i++) {
      if (strcmp(sets[i]->path[depth], f->name) != 0) continue;
      if (sets[i]->n_path == depth + 1) whole = sets[i];
      sub[n_sub++] = sets[i];
    }
    prefix[depth + 1] = f->name;
    if (whole && n_sub > 1)
      rc = cp_sql_error_at(err, PAIMON_EINVAL, whole->a->target.pos,
                           "The field %s of %s is assigned more than once (or with fields of it)",
                           f->name, prefix[0]);
    else if (whole)
      e->args[2 * k + 1] = whole->a->value;
    else if (n_sub)
      rc = build_struct(arena, qualifier, f->type, prefix, depth + 1, sub, n_sub,
                        &e->args[2 * k + 1], err);
    else if (!(e->args[2 * k + 1] = path_node(arena, qualifier, prefix, depth + 2, pos)))
      rc = CP_ENOMEM(err, "UPDATE");
  }
  free(sub);
  *out = e;
  return rc;
}

/* `target` as column + ROW field path (col.f, qualifier.col.f, ...), when it names a field nested
 * in a ROW column; 1 when it does not (a plain column, or nothing: the caller's own check says
 * so). */
static int split_nested(const cp_sql_table *t, const char *qualifier, const cp_sql_name *target,
                        cp_arena *arena, field_set *out, paimon_error *err) {
  for (size_t skip = 0; skip <= 1 && skip + 2 <= target->n; skip++) {
    if (skip && strcasecmp(target->parts[0], qualifier) != 0) continue;
    ptrdiff_t c = cp_row_field_index_ci(t->row, target->parts[skip]);
    if (c < 0 || t->row->fields[c].type->kind != CP_TYPE_ROW) continue;
    size_t n = target->n - skip - 1;
    const char **path = cp_arena_alloc(arena, n * sizeof *path);
    if (!path) return CP_ENOMEM(err, "UPDATE");
    const cp_type *ty = t->row->fields[c].type;
    for (size_t i = 0; i < n; i++) {
      ptrdiff_t f = ty && ty->kind == CP_TYPE_ROW
                        ? cp_row_field_index_ci(ty, target->parts[skip + 1 + i])
                        : -1;
      if (f < 0)
        return cp_sql_error_at(err, PAIMON_ENOTFOUND, target->pos,
                               "[FIELD_NOT_FOUND] No such struct field `%s` in %s",
                               target->parts[skip + 1 + i], t->row->fields[c].name);
      path[i] = ty->fields[f].name;
      ty = ty->fields[f].type;
    }
    out->col = (size_t)c;
    out->path = path;
    out->n_path = n;
    return PAIMON_OK;
  }
  return 1;
}

int cp_sql_align_nested_sets(const cp_sql_table *t, const char *qualifier,
                             const cp_sql_assignment *set, size_t n, cp_arena *arena,
                             cp_sql_assignment **out, size_t *n_out, paimon_error *err) {
  *out = (cp_sql_assignment *)set;
  *n_out = n;
  field_set *fs = calloc(n + 1, sizeof *fs);
  bool *nested = calloc(n + 1, sizeof *nested);
  int rc = fs && nested ? PAIMON_OK : CP_ENOMEM(err, "UPDATE");
  size_t any = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    size_t col;
    paimon_error ignored;
    if (cp_sql_target_column(t, qualifier, &set[i].target, "UPDATE", &col, &ignored) == 0)
      continue; /* a column itself */
    int r = split_nested(t, qualifier, &set[i].target, arena, &fs[i], err);
    if (r < 0) rc = r;
    if (r == 0) {
      fs[i].a = &set[i];
      nested[i] = true;
      any++;
    }
  }
  cp_sql_assignment *res = !rc && any ? cp_arena_alloc(arena, (n + 1) * sizeof *res) : NULL;
  if (!rc && any && !res) rc = CP_ENOMEM(err, "UPDATE");
  size_t m = 0;
  for (size_t i = 0; !rc && any && i < n; i++) {
    if (!nested[i]) {
      res[m++] = set[i];
      continue;
    }
    bool first = true;
    for (size_t j = 0; j < i && first; j++) first = !(nested[j] && fs[j].col == fs[i].col);
    if (!first) continue; /* built with the first field of its column */
    field_set **group = calloc(n, sizeof *group);
    const cp_field *cf = &t->row->fields[fs[i].col];
    const char **prefix = cp_arena_alloc(arena, (CP_SQL_MAX_SET_DEPTH + 2) * sizeof *prefix);
    size_t ng = 0, depth = 0;
    for (size_t j = i; group && j < n; j++)
      if (nested[j] && fs[j].col == fs[i].col) {
        group[ng++] = &fs[j];
        if (fs[j].n_path > depth) depth = fs[j].n_path;
      }
    if (!group || !prefix)
      rc = CP_ENOMEM(err, "UPDATE");
    else if (depth > CP_SQL_MAX_SET_DEPTH)
      rc = cp_sql_error_at(err, PAIMON_EINVAL, set[i].target.pos,
                           "assignment target nested too deeply");
    cp_sql_expr *value = NULL;
    if (!rc) {
      prefix[0] = cf->name;
      rc = build_struct(arena, qualifier, cf->type, prefix, 0, group, ng, &value, err);
    }
    free(group);
    if (!rc) {
      const char **colname = cp_arena_alloc(arena, sizeof *colname);
      if (!colname) {
        rc = CP_ENOMEM(err, "UPDATE");
        break;
      }
      colname[0] = cf->name;
      res[m].target.parts = colname;
      res[m].target.n = 1;
      res[m].target.pos = set[i].target.pos;
      res[m++].value = value;
    }
  }
  if (!rc && any) {
    *out = res;
    *n_out = m;
  }
  free(fs);
  free(nested);
  return rc;
}

/* ---- UPDATE --------------------------------------------------------------------------------- */

/* Binds the SET values and checks that each may be stored in its column. */
static int bind_set(const cp_sql_table *t, const cp_sql_update *u, const cp_sql_scope *scope,
                    const char *qualifier, size_t *cols, cp_expr **values, paimon_error *err) {
  for (size_t i = 0; i < u->n_set; i++) {
    const cp_sql_assignment *a = &u->set[i];
    CP_RETURN_IF_ERROR(cp_sql_target_column(t, qualifier, &a->target, "UPDATE", &cols[i], err));
    for (size_t j = 0; j < i; j++)
      if (cols[j] == cols[i])
        return cp_sql_error_at(err, PAIMON_EINVAL, a->target.pos,
                               "The column %s appears more than once as an assignment target",
                               t->row->fields[cols[i]].name);
    const cp_field *f = &t->row->fields[cols[i]];
    CP_RETURN_IF_ERROR(cp_sql_bind_assigned(scope, a->value, f->type, &values[i], err));
    if (!(a->value->kind == CP_SQL_E_LITERAL && a->value->lit.kind == CP_SQL_LIT_NULL))
      CP_RETURN_IF_ERROR(
          cp_sql_assign_check(values[i]->type, f->type, t->ident, f->name, a->value->pos, err));
  }
  return PAIMON_OK;
}

int cp_sql_update_batch(const cp_sql_table *t, const cp_rel *rows, size_t row_id_col,
                        const size_t *cols, cp_expr *const *values, size_t n, cp_rel *out,
                        paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = cp_rel_builder_add_from(&b, rows, row_id_col, err);
  for (size_t i = 0; !rc && i < n; i++) {
    const cp_field *f = &t->row->fields[cols[i]];
    struct ArrowSchema s, cs;
    struct ArrowArray a, ca;
    memset(&a, 0, sizeof a);
    memset(&ca, 0, sizeof ca);
    rc = cp_sql_eval(rows, values[i], f->name, &s, &a, err);
    if (rc) break;
    rc = cp_sql_assign_array(values[i]->type, &s, &a, f->type, f->name, &cs, &ca, err);
    cp_array_release(&a);
    cp_schema_release(&s);
    if (!rc) rc = cp_rel_builder_add(&b, f->name, NULL, f->type, false, &cs, &ca, err);
  }
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  return cp_rel_builder_finish(&b, cp_rel_rows(rows), out, err);
}

int cp_sql_exec_update(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  cp_sql_update aligned = stmt->update;
  const cp_sql_update *u = &aligned;
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &u->table, &t, err));
  const char *qualifier = u->alias ? u->alias : t.name;
  cp_arena arena = CP_ARENA_INIT;
  int arc = cp_sql_align_nested_sets(&t, qualifier, stmt->update.set, stmt->update.n_set, &arena,
                                     &aligned.set, &aligned.n_set, err);
  if (arc) {
    cp_arena_free(&arena);
    cp_sql_table_close(&t);
    return arc;
  }
  cp_rel all, rows, batch;
  memset(&all, 0, sizeof all);
  memset(&rows, 0, sizeof rows);
  memset(&batch, 0, sizeof batch);
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  size_t *cols = calloc(u->n_set + 1, sizeof *cols), row_id = 0;
  cp_expr **values = calloc(u->n_set + 1, sizeof *values), *pred = NULL;
  int64_t snapshot = 0;
  int rc = (cols && values) ? cp_sql_need_row_tracking(&t, "UPDATE", stmt->pos, err)
                            : CP_ENOMEM(err, "UPDATE");
  if (!rc) rc = cp_sql_read_target(&t, qualifier, &all, &snapshot, err);
  if (!rc) rc = cp_sql_scope_init(&scope, all.cols, all.n_cols, "UPDATE", err);
  if (!rc) rc = bind_set(&t, u, &scope, qualifier, cols, values, err);
  if (!rc && u->where) {
    scope.clause = "WHERE";
    rc = cp_sql_filter_where(&all, &scope, u->where, &rows, err);
  }
  const cp_rel *target = u->where ? &rows : &all;
  if (!rc) rc = cp_sql_row_id_column(target, &row_id, err);
  if (!rc) rc = cp_sql_update_batch(&t, target, row_id, cols, values, u->n_set, &batch, err);
  if (!rc && cp_rel_rows(&batch) > 0) {
    cp_dml *d = NULL;
    rc = cp_dml_begin(&d, t.table, CP_DML_UPDATE, snapshot, err);
    if (!rc) rc = cp_dml_update(d, &batch.schema, &batch.batch, err);
    if (!rc) rc = cp_dml_commit(d, NULL, err);
    cp_dml_free(d);
  }
  for (size_t i = 0; values && i < u->n_set; i++) cp_expr_free(values[i]);
  free(values);
  free(cols);
  cp_expr_free(pred);
  cp_sql_scope_free(&scope);
  cp_rel_free(&batch);
  cp_rel_free(&rows);
  cp_rel_free(&all);
  cp_sql_table_close(&t);
  cp_arena_free(&arena);
  return rc;
}

/* ---- DELETE --------------------------------------------------------------------------------- */

int cp_sql_check_delete(const cp_sql_table *t, cp_sql_pos pos, bool merge, paimon_error *err) {
  if (!t->data_evolution || t->deletion_vectors) return PAIMON_OK;
  return cp_sql_error_at(err, PAIMON_EINVAL, pos, "%s",
                         merge ? "MERGE INTO DELETE on DataEvolution table requires "
                                 "deletion-vectors.enabled=true."
                               : "Can only perform deletion operation on data evolution tables "
                                 "with DeletionVector enabled.");
}

int cp_sql_row_ids(const cp_rel *r, size_t col, int64_t **ids, size_t *n, paimon_error *err) {
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  int64_t rows = v.length;
  *ids = malloc(((size_t)rows + 1) * sizeof **ids);
  int rc = *ids ? PAIMON_OK : CP_ENOMEM(err, "row ids");
  for (int64_t i = 0; !rc && i < rows; i++) (*ids)[i] = cp_view_get_int64(&v.children[col], i);
  *n = (size_t)rows;
  cp_array_view_reset(&v);
  return rc;
}

int cp_sql_exec_delete(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_delete *del = &stmt->del;
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &del->table, &t, err));
  cp_rel all, rows;
  memset(&all, 0, sizeof all);
  memset(&rows, 0, sizeof rows);
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  cp_expr *pred = NULL;
  int64_t snapshot = 0, *ids = NULL;
  size_t n = 0, row_id = 0;
  int rc = cp_sql_need_row_tracking(&t, "DELETE", stmt->pos, err);
  if (!rc) rc = cp_sql_check_delete(&t, stmt->pos, false, err);
  if (!rc) rc = cp_sql_read_target(&t, del->alias ? del->alias : t.name, &all, &snapshot, err);
  if (!rc) rc = cp_sql_scope_init(&scope, all.cols, all.n_cols, "WHERE", err);
  if (!rc && del->where) rc = cp_sql_filter_where(&all, &scope, del->where, &rows, err);
  const cp_rel *victims = del->where ? &rows : &all;
  if (!rc) rc = cp_sql_row_id_column(victims, &row_id, err);
  if (!rc) rc = cp_sql_row_ids(victims, row_id, &ids, &n, err);
  if (!rc && n > 0) {
    cp_dml *d = NULL;
    rc = cp_dml_begin(&d, t.table, CP_DML_DELETE, snapshot, err);
    if (!rc) rc = cp_dml_delete(d, ids, n, err);
    if (!rc) rc = cp_dml_commit(d, NULL, err);
    cp_dml_free(d);
  }
  free(ids);
  cp_expr_free(pred);
  cp_sql_scope_free(&scope);
  cp_rel_free(&rows);
  cp_rel_free(&all);
  cp_sql_table_close(&t);
  return rc;
}
