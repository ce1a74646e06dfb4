/*
 * INSERT INTO (docs/sql.md, "INSERT"): VALUES rows or a query, an optional column list and
 * static PARTITION values, converted to the table's column types by store assignment
 * (exec_assign.c) and committed as one snapshot (dml.h). Columns the statement does not give are
 * NULL (Spark 3.4+ fills columns missing from an explicit column list with their default, which
 * Paimon tables do not have); a NULL in a NOT NULL column is refused by the write path with
 * Paimon's message "Cannot write null to non-null column(c)".
 *
 * INSERT OVERWRITE follows Spark's default static partition-overwrite mode: the snapshot replaces
 * every partition matching the static PARTITION values (all of the table without any), whatever
 * partitions the new rows fall in; new rows outside those partitions are refused and nothing
 * changes.
 *
 * VALUES may build nested values: ARRAY(...), MAP(k, v, ...), STRUCT(...) / NAMED_STRUCT('a', v,
 * ...) for ARRAY / MAP / ROW columns (fields by position, as Spark's store assignment does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/print.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/dml.h"
#include "sql/exec.h"
#include "types/datum_arrow.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

int cp_sql_write_rows(cp_sql_table *t, struct ArrowSchema *schema, struct ArrowArray *batch,
                      const cp_sql_overwrite *overwrite, paimon_error *err) {
  cp_dml *d = NULL;
  int rc = cp_dml_begin(&d, t->table, CP_DML_INSERT, 0, err);
  if (!rc && overwrite)
    cp_dml_set_overwrite(d, (const char *const *)overwrite->keys,
                         (const char *const *)overwrite->values, overwrite->n);
  if (!rc && batch->length > 0) rc = cp_dml_insert(d, schema, batch, err);
  if (!rc) rc = cp_dml_commit(d, NULL, err);
  cp_dml_free(d);
  return rc;
}

/* ---- constant values ------------------------------------------------------------------------ */

typedef struct values_ctx {
  const cp_sql_table *t;
  cp_sql_scope empty; /* no columns: VALUES expressions are constants */
  cp_rel one_row;
} values_ctx;

static int values_ctx_init(values_ctx *vc, const cp_sql_table *t, paimon_error *err) {
  memset(vc, 0, sizeof *vc);
  vc->t = t;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(&vc->empty, NULL, 0, "VALUES", err));
  return cp_rel_empty(1, &vc->one_row, err);
}

static void values_ctx_free(values_ctx *vc) {
  cp_sql_scope_free(&vc->empty);
  cp_rel_free(&vc->one_row);
}

static bool is_call(const cp_sql_expr *e, const char *name) {
  return e->kind == CP_SQL_E_FUNC && e->name.n == 1 && strcasecmp(e->name.parts[0], name) == 0;
}

static int append_constant(values_ctx *vc, const cp_sql_expr *e, const cp_type *to,
                           const char *column, cp_builder *b, int depth, paimon_error *err);

static int append_nested(values_ctx *vc, const cp_sql_expr *e, const cp_type *to,
                         const char *column, cp_builder *b, int depth, paimon_error *err) {
  if (to->kind == CP_TYPE_ARRAY || to->kind == CP_TYPE_VECTOR) {
    for (size_t i = 0; i < e->n_args; i++)
      CP_RETURN_IF_ERROR(append_constant(vc, e->args[i], to->element, column,
                                         cp_builder_child(b, 0), depth + 1, err));
    return cp_builder_end_element(b, err);
  }
  if (to->kind == CP_TYPE_MAP) {
    if (e->n_args % 2)
      return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                             "map() needs an even number of arguments (keys and values)");
    for (size_t i = 0; i < e->n_args; i += 2) {
      CP_RETURN_IF_ERROR(
          append_constant(vc, e->args[i], to->key, column, cp_builder_map_keys(b), depth + 1, err));
      CP_RETURN_IF_ERROR(append_constant(vc, e->args[i + 1], to->value, column,
                                         cp_builder_map_values(b), depth + 1, err));
    }
    return cp_builder_end_element(b, err);
  }
  /* ROW: struct(v, ...) or named_struct('name', v, ...), fields by position. */
  bool named = is_call(e, "named_struct");
  size_t n = named ? e->n_args / 2 : e->n_args;
  if ((named && e->n_args % 2) || n != to->n_fields)
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "column '%s': a struct of %zu fields cannot be written to a ROW of %zu",
                           column, n, to->n_fields);
  for (size_t i = 0; i < n; i++)
    CP_RETURN_IF_ERROR(append_constant(vc, e->args[named ? 2 * i + 1 : i], to->fields[i].type,
                                       column, cp_builder_child(b, (int64_t)i), depth + 1, err));
  return cp_builder_end_element(b, err);
}

/* Evaluates an atomic constant and appends it converted to `to`. */
static int append_atomic(values_ctx *vc, const cp_sql_expr *e, const cp_type *to,
                         const char *column, cp_builder *b, paimon_error *err) {
  cp_expr *bound = NULL;
  CP_RETURN_IF_ERROR(cp_sql_bind(&vc->empty, e, &bound, err));
  int rc = cp_sql_assign_check(bound->type, to, vc->t->ident, column, e->pos, err);
  unsigned same = CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS;
  if (!rc && cp_type_equals(bound->type, to, same)) {
    /* The common case: the value already has the column's type. */
    cp_arena arena = CP_ARENA_INIT;
    cp_datum d;
    bool known = false;
    rc = cp_expr_eval_row_value(bound, NULL, NULL, &arena, &d, &known, err);
    if (!rc) rc = cp_datum_append(to, &d, b, err);
    cp_arena_free(&arena);
    cp_expr_free(bound);
    return rc;
  }
  struct ArrowSchema s, cs;
  struct ArrowArray a, ca;
  memset(&a, 0, sizeof a);
  memset(&ca, 0, sizeof ca);
  if (!rc) rc = cp_sql_eval(&vc->one_row, bound, column, &s, &a, err);
  if (!rc) {
    rc = cp_sql_assign_array(bound->type, &s, &a, to, column, &cs, &ca, err);
    cp_array_release(&a);
    cp_schema_release(&s);
  }
  if (!rc) {
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &cs, &ca, err);
    if (!rc) rc = cp_builder_append_view(b, &v, 0, 1, err);
    cp_array_view_reset(&v);
    cp_array_release(&ca);
    cp_schema_release(&cs);
  }
  if (rc && rc != PAIMON_ENOMEM && strncmp(err->message, "line ", 5) != 0)
    paimon_error_prefix(err, "line %d:%d", e->pos.line, e->pos.col);
  cp_expr_free(bound);
  return rc;
}

static int append_constant(values_ctx *vc, const cp_sql_expr *e, const cp_type *to,
                           const char *column, cp_builder *b, int depth, paimon_error *err) {
  if (depth > 64) return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "value nested too deeply");
  if (e->kind == CP_SQL_E_LITERAL && e->lit.kind == CP_SQL_LIT_NULL)
    return cp_builder_append_null(b, err);
  bool ctor = is_call(e, "array") || is_call(e, "map") || is_call(e, "struct") ||
              is_call(e, "named_struct") || is_call(e, "row");
  if (!ctor) {
    if (cp_type_is_nested(to) || to->kind == CP_TYPE_VARIANT)
      return cp_sql_error_at(
          err, PAIMON_EINVAL, e->pos,
          "column '%s' of table '%s' has type %s; write its values with ARRAY(...), "
          "MAP(...) or STRUCT(...)",
          column, vc->t->ident, cp_type_kind_name(to->kind));
    return append_atomic(vc, e, to, column, b, err);
  }
  bool fits = (is_call(e, "array") && (to->kind == CP_TYPE_ARRAY || to->kind == CP_TYPE_VECTOR)) ||
              (is_call(e, "map") && to->kind == CP_TYPE_MAP) ||
              (!is_call(e, "array") && !is_call(e, "map") && to->kind == CP_TYPE_ROW);
  if (!fits)
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                           "Cannot write incompatible data to table '%s': Cannot safely cast '%s': "
                           "%s(...) to %s",
                           vc->t->ident, column, e->name.parts[0], cp_type_kind_name(to->kind));
  return append_nested(vc, e, to, column, b, depth, err);
}

/* A column of `n` rows from row[k] of each VALUES row (or one constant for every row). */
static int constant_column(values_ctx *vc, const cp_sql_insert *ins, size_t k,
                           const cp_sql_expr *constant, int64_t n, const cp_field *f,
                           struct ArrowSchema *schema, struct ArrowArray *out, paimon_error *err) {
  cp_builder *b = NULL;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(f->type, f->name, schema, err));
  int rc = cp_builder_create(&b, schema, err);
  for (int64_t r = 0; !rc && r < n; r++) {
    const cp_sql_expr *e = constant ? constant : ins->rows[r][k];
    rc = append_constant(vc, e, f->type, f->name, b, 0, err);
  }
  if (!rc) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  if (rc) cp_schema_release(schema);
  return rc;
}

/* ---- the statement -------------------------------------------------------------------------- */

typedef struct insert_plan {
  int64_t *target_of;           /* per table column: position in the data rows, or -1 */
  const cp_sql_expr **constant; /* per table column: static PARTITION value, or NULL */
  size_t n_data;                /* values per data row */
  cp_sql_expr *casts;           /* per table column: CAST(static value AS column type) */
  char **cast_types;
} insert_plan;

static void insert_plan_free(insert_plan *p, size_t n) {
  for (size_t c = 0; p->cast_types && c < n; c++) free(p->cast_types[c]);
  free(p->cast_types);
  free(p->casts);
  free(p->target_of);
  free(p->constant);
}

/* Spark turns a static PARTITION value into text and casts it to the column's type (so
 * PARTITION (d = '2026-11-02') fills a DATE column); CAST(value AS type) does the same here. */
static int cast_partition_value(const cp_sql_table *t, insert_plan *p, size_t c,
                                cp_sql_expr **value, paimon_error *err) {
  const cp_type *type = t->row->fields[c].type;
  CP_RETURN_IF_ERROR(cp_type_to_sql(type, &p->cast_types[c], err));
  char *nn = strstr(p->cast_types[c], " NOT NULL");
  if (nn) *nn = '\0'; /* partition keys are atomic: the suffix is the only NOT NULL */
  cp_sql_expr *e = &p->casts[c];
  e->kind = CP_SQL_E_CAST;
  e->pos = (*value)->pos;
  e->type = p->cast_types[c];
  e->args = value;
  e->n_args = 1;
  p->constant[c] = e;
  return PAIMON_OK;
}

static int resolve_column(const cp_sql_table *t, const char *name, cp_sql_pos pos, size_t *out,
                          paimon_error *err) {
  if (cp_is_row_tracking_field_name(name) || strcasecmp(name, "_ROW_ID") == 0 ||
      strcasecmp(name, "_SEQUENCE_NUMBER") == 0)
    return cp_sql_error_at(err, PAIMON_EINVAL, pos,
                           "%s is a row-tracking column of '%s' and cannot be written", name,
                           t->ident);
  ptrdiff_t i = cp_row_field_index_ci(t->row, name);
  if (i < 0)
    return cp_sql_error_at(err, PAIMON_ENOTFOUND, pos, "Column %s does not exist in table %s.",
                           name, t->ident);
  *out = (size_t)i;
  return PAIMON_OK;
}

/* The static values of PARTITION (k = v, ...): p->constant / casts per column. */
static int plan_partition(const cp_sql_table *t, const cp_sql_assignment *spec, size_t n_spec,
                          insert_plan *p, paimon_error *err) {
  for (size_t i = 0; i < n_spec; i++) {
    const cp_sql_assignment *a = &spec[i];
    size_t c;
    CP_RETURN_IF_ERROR(resolve_column(t, a->target.parts[0], a->target.pos, &c, err));
    if (!cp_sql_table_is_partition_key(t, t->row->fields[c].name))
      return cp_sql_error_at(err, PAIMON_EINVAL, a->target.pos,
                             "PARTITION clause cannot contain the non-partition column %s",
                             t->row->fields[c].name);
    if (p->constant[c])
      return cp_sql_error_at(err, PAIMON_EINVAL, a->target.pos,
                             "Column %s is specified more than once in the PARTITION clause",
                             t->row->fields[c].name);
    if (a->value) /* args is never written through: the cast only reads the value */
      CP_RETURN_IF_ERROR(cast_partition_value(t, p, c, (cp_sql_expr **)&a->value, err));
  }
  return PAIMON_OK;
}

static int plan_insert(const cp_sql_stmt *stmt, const cp_sql_table *t, insert_plan *p,
                       paimon_error *err) {
  const cp_sql_insert *ins = &stmt->insert;
  size_t n = t->row->n_fields;
  p->target_of = malloc((n + 1) * sizeof *p->target_of);
  p->constant = calloc(n + 1, sizeof *p->constant);
  p->casts = calloc(n + 1, sizeof *p->casts);
  p->cast_types = calloc(n + 1, sizeof *p->cast_types);
  if (!p->target_of || !p->constant || !p->casts || !p->cast_types) return CP_ENOMEM(err, "INSERT");
  for (size_t i = 0; i < n; i++) p->target_of[i] = -2; /* -2: not given */
  CP_RETURN_IF_ERROR(plan_partition(t, ins->partition, ins->n_partition, p, err));
  if (ins->columns) {
    for (size_t k = 0; k < ins->n_columns; k++) {
      size_t c;
      CP_RETURN_IF_ERROR(resolve_column(t, ins->columns[k], stmt->pos, &c, err));
      if (p->target_of[c] >= 0 || p->constant[c])
        return cp_sql_error_at(err, PAIMON_EINVAL, stmt->pos,
                               "Column %s is specified more than once in INSERT", ins->columns[k]);
      p->target_of[c] = (int64_t)k;
    }
    p->n_data = ins->n_columns;
  } else {
    for (size_t c = 0; c < n; c++)
      if (!p->constant[c]) p->target_of[c] = (int64_t)p->n_data++;
  }
  return PAIMON_OK;
}

static int arity_error(const cp_sql_stmt *stmt, const cp_sql_table *t, size_t want, size_t got,
                       paimon_error *err) {
  return cp_sql_error_at(err, PAIMON_EINVAL, stmt->pos,
                         "Cannot write to '%s', %s data columns; target table has %zu column(s) "
                         "but the inserted data has %zu column(s)",
                         t->ident, got < want ? "not enough" : "too many", want, got);
}

/* The data rows of a query, as store-assigned arrays per table column. */
static int query_column(const cp_sql_table *t, const cp_rel *data, size_t k, const cp_field *f,
                        cp_sql_pos pos, struct ArrowSchema *s, struct ArrowArray *a,
                        paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sql_assign_check(data->cols[k].type, f->type, t->ident, f->name, pos, err));
  return cp_sql_assign_array(data->cols[k].type, data->schema.children[k], data->batch.children[k],
                             f->type, f->name, s, a, err);
}

static int null_column(const cp_field *f, int64_t n, struct ArrowSchema *s, struct ArrowArray *a,
                       paimon_error *err) {
  cp_builder *b = NULL;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(f->type, f->name, s, err));
  int rc = cp_builder_create(&b, s, err);
  if (!rc) rc = cp_builder_append_nulls(b, n, err);
  if (!rc) rc = cp_builder_finish(b, a, err);
  cp_builder_free(b);
  if (rc) cp_schema_release(s);
  return rc;
}

static int build_rows(const cp_sql_stmt *stmt, const cp_sql_table *t, const insert_plan *p,
                      const cp_rel *data, cp_rel *out, paimon_error *err) {
  const cp_sql_insert *ins = &stmt->insert;
  int64_t n = data ? cp_rel_rows(data) : (int64_t)ins->n_rows;
  values_ctx vc;
  int rc = values_ctx_init(&vc, t, err);
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  for (size_t c = 0; !rc && c < t->row->n_fields; c++) {
    const cp_field *f = &t->row->fields[c];
    struct ArrowSchema s;
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    int64_t k = p->target_of[c];
    if (p->constant[c])
      rc = constant_column(&vc, ins, 0, p->constant[c], n, f, &s, &a, err);
    else if (k < 0)
      rc = null_column(f, n, &s, &a, err);
    else if (data)
      rc = query_column(t, data, (size_t)k, f, stmt->pos, &s, &a, err);
    else
      rc = constant_column(&vc, ins, (size_t)k, NULL, n, f, &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, f->name, NULL, f->type, false, &s, &a, err);
  }
  if (!rc)
    rc = cp_rel_builder_finish(&b, n, out, err);
  else
    cp_rel_builder_free(&b);
  values_ctx_free(&vc);
  return rc;
}

/* The value an ANSI cast refuses (Spark casts static partition values with ANSI rules under the
 * default store-assignment policy): CAST_INVALID_INPUT naming the value, type and column. */
static int invalid_partition_value(const cp_sql_table *t, const cp_sql_expr *cast,
                                   const cp_field *f, paimon_error *err) {
  cp_buf text = CP_BUF_INIT;
  int rc = cp_sql_print_expr(cast->args[0], &text, err);
  if (!rc) rc = cp_buf_append(&text, "", 1, err);
  if (!rc)
    rc = cp_sql_error_at(err, PAIMON_EINVAL, cast->pos,
                         "[CAST_INVALID_INPUT] The value %s of the static partition column %s of "
                         "table '%s' cannot be cast to \"%s\" because it is malformed.",
                         (const char *)text.data, f->name, t->ident, cast->type);
  cp_buf_free(&text);
  return rc;
}

/* Evaluates the static PARTITION values once (refusing a value the cast cannot convert) and
 * prints each as text for INSERT OVERWRITE's partition spec, which the commit parses back (dates,
 * timestamps and decimals in their SQL form; NULL for a NULL value). */
static int static_partition_values(const cp_sql_table *t, const insert_plan *p, cp_sql_overwrite *o,
                                   paimon_error *err) {
  size_t n = t->row->n_fields;
  o->keys = calloc(n + 1, sizeof *o->keys);
  o->values = calloc(n + 1, sizeof *o->values);
  if (!o->keys || !o->values) return CP_ENOMEM(err, "INSERT");
  values_ctx vc;
  int rc = values_ctx_init(&vc, t, err);
  for (size_t c = 0; !rc && c < n; c++) {
    if (!p->constant[c]) continue;
    const cp_field *f = &t->row->fields[c];
    struct ArrowSchema sch;
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    rc = constant_column(&vc, NULL, 0, p->constant[c], 1, f, &sch, &arr, err);
    if (rc) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &sch, &arr, err);
    o->keys[o->n] = f->name;
    const cp_sql_expr *given = p->constant[c]->args[0];
    bool null_given = given->kind == CP_SQL_E_LITERAL && given->lit.kind == CP_SQL_LIT_NULL;
    if (!rc && cp_view_is_null(&v, 0) && !null_given)
      rc = invalid_partition_value(t, p->constant[c], f, err);
    if (!rc && !cp_view_is_null(&v, 0)) {
      cp_buf text = CP_BUF_INIT;
      rc = cp_print_value(&text, &v, 0, err);
      if (!rc) rc = cp_buf_append(&text, "", 1, err); /* NUL */
      if (!rc)
        o->values[o->n] = (const char *)text.data;
      else
        cp_buf_free(&text);
    }
    o->n++;
    cp_array_view_reset(&v);
    arr.release(&arr);
    cp_schema_release(&sch);
  }
  values_ctx_free(&vc);
  return rc;
}

void cp_sql_overwrite_free(cp_sql_overwrite *o) {
  for (size_t i = 0; o->values && i < o->n; i++) free((void *)o->values[i]);
  free(o->keys);
  free(o->values);
  memset(o, 0, sizeof *o);
}

int cp_sql_exec_insert(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_insert *ins = &stmt->insert;
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &ins->table, &t, err));
  insert_plan p;
  memset(&p, 0, sizeof p);
  cp_rel data, rows;
  memset(&data, 0, sizeof data);
  memset(&rows, 0, sizeof rows);
  cp_sql_overwrite spec;
  memset(&spec, 0, sizeof spec);
  int rc = plan_insert(stmt, &t, &p, err);
  if (!rc) rc = static_partition_values(&t, &p, &spec, err);
  for (size_t r = 0; !rc && !ins->query && r < ins->n_rows; r++)
    if (ins->row_lengths[r] != p.n_data)
      rc = arity_error(stmt, &t, p.n_data, ins->row_lengths[r], err);
  if (!rc && ins->query) {
    cp_sql_exec x;
    rc = cp_sql_exec_init(&x, s, stmt, err);
    bool ordered = false;
    if (!rc) rc = cp_sql_run_query(&x, ins->query, &data, &ordered, err);
    cp_sql_exec_free(&x);
    if (!rc && data.n_cols != p.n_data) rc = arity_error(stmt, &t, p.n_data, data.n_cols, err);
  }
  if (!rc) rc = build_rows(stmt, &t, &p, ins->query ? &data : NULL, &rows, err);
  if (!rc)
    rc = cp_sql_write_rows(&t, &rows.schema, &rows.batch, ins->overwrite ? &spec : NULL, err);
  if (rc && rc != PAIMON_ENOMEM && strncmp(err->message, "line ", 5) != 0)
    paimon_error_prefix(err, "line %d:%d", stmt->pos.line, stmt->pos.col);
  cp_rel_free(&data);
  cp_rel_free(&rows);
  insert_plan_free(&p, t.row->n_fields);
  cp_sql_overwrite_free(&spec);
  cp_sql_table_close(&t);
  return rc;
}

int cp_sql_partition_values(const cp_sql_table *t, const cp_sql_assignment *items, size_t n,
                            cp_sql_overwrite *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++)
    if (!items[i].value)
      return cp_sql_error_at(err, PAIMON_EINVAL, items[i].target.pos,
                             "PARTITION (%s) needs a value here", items[i].target.parts[0]);
  size_t cols = t->row->n_fields;
  insert_plan p;
  memset(&p, 0, sizeof p);
  p.constant = calloc(cols + 1, sizeof *p.constant);
  p.casts = calloc(cols + 1, sizeof *p.casts);
  p.cast_types = calloc(cols + 1, sizeof *p.cast_types);
  int rc = p.constant && p.casts && p.cast_types ? PAIMON_OK : CP_ENOMEM(err, "PARTITION");
  if (!rc) rc = plan_partition(t, items, n, &p, err);
  if (!rc) rc = static_partition_values(t, &p, out, err);
  insert_plan_free(&p, cols);
  if (rc) cp_sql_overwrite_free(out);
  return rc;
}
