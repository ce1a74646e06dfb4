/*
 * FROM clauses (docs/sql.md, "Queries"): table scans (with VERSION AS OF time travel through the
 * read builder's snapshot, whose relation has the columns of the snapshot's schema, as Java's
 * `scan.snapshot-id`), subqueries and joins, each producing a relation whose columns are
 * qualified by the table name or alias. Scans read only the columns the statement mentions
 * anywhere (or all of them when it uses '*'), and the hidden `_ROW_ID` / `_SEQUENCE_NUMBER`
 * columns only when they are named (spec/data-evolution.md §0: '*' does not include them).
 */
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "arrow/bitmap.h"
#include "base/status.h"
#include "cpaimon/read.h"
#include "sql/exec.h"
#include "types/type_json.h"

/* ---- referenced names ----------------------------------------------------------------------- */

static int add_name(cp_sql_exec *x, const char *name, paimon_error *err) {
  for (size_t i = 0; i < x->n_names; i++)
    if (strcasecmp(x->names[i], name) == 0) return PAIMON_OK;
  char **grown = realloc(x->names, (x->n_names + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "statement");
  x->names = grown;
  if (!(x->names[x->n_names] = strdup(name))) return CP_ENOMEM(err, "statement");
  x->n_names++;
  return PAIMON_OK;
}

static int collect_query(cp_sql_exec *x, const cp_sql_query *q, paimon_error *err);

static int collect_expr(cp_sql_exec *x, const cp_sql_expr *e, paimon_error *err) {
  for (; e; e = e->n_args ? e->args[0] : NULL) { /* first arguments with a loop (ast.h) */
    if (e->kind == CP_SQL_E_STAR) x->all_columns = true;
    /* every part: in st.x the column is st (a ROW), in t.c it is c */
    for (size_t i = 0; e->kind == CP_SQL_E_COLUMN && i < e->name.n; i++)
      CP_RETURN_IF_ERROR(add_name(x, e->name.parts[i], err));
    if (e->kind == CP_SQL_E_SUBQUERY) CP_RETURN_IF_ERROR(collect_query(x, e->query, err));
    if (e->kind == CP_SQL_E_FUNC && e->filter) CP_RETURN_IF_ERROR(collect_expr(x, e->filter, err));
    if (e->kind == CP_SQL_E_FUNC && e->window) {
      const cp_sql_window *w = e->window;
      for (size_t i = 0; i < w->n_partition_by; i++)
        CP_RETURN_IF_ERROR(collect_expr(x, w->partition_by[i], err));
      for (size_t i = 0; i < w->n_order_by; i++)
        CP_RETURN_IF_ERROR(collect_expr(x, w->order_by[i].expr, err));
    }
    for (size_t i = 1; i < e->n_args; i++) CP_RETURN_IF_ERROR(collect_expr(x, e->args[i], err));
  }
  return PAIMON_OK;
}

static int collect_from(cp_sql_exec *x, const cp_sql_from *f, paimon_error *err) {
  if (!f) return PAIMON_OK;
  if (f->kind == CP_SQL_FROM_SUBQUERY) return collect_query(x, f->query, err);
  if (f->kind == CP_SQL_FROM_JOIN) {
    CP_RETURN_IF_ERROR(collect_from(x, f->left, err));
    CP_RETURN_IF_ERROR(collect_from(x, f->right, err));
    for (size_t i = 0; i < f->n_using; i++) CP_RETURN_IF_ERROR(add_name(x, f->using_cols[i], err));
    if (f->natural) x->all_columns = true; /* the common columns are not named */
    return collect_expr(x, f->on, err);
  }
  return PAIMON_OK;
}

static int collect_query(cp_sql_exec *x, const cp_sql_query *q, paimon_error *err) {
  for (; q->set_op != CP_SQL_SET_NONE; q = q->left) /* left operands with a loop */
    CP_RETURN_IF_ERROR(collect_query(x, q->right, err));
  for (size_t i = 0; i < q->n_items; i++) {
    CP_RETURN_IF_ERROR(collect_expr(x, q->items[i].expr, err));
    /* An alias may be what ORDER BY or GROUP BY names; harmless as an extra scan column. */
  }
  CP_RETURN_IF_ERROR(collect_from(x, q->from, err));
  CP_RETURN_IF_ERROR(collect_expr(x, q->where, err));
  for (size_t i = 0; i < q->n_group_by; i++)
    CP_RETURN_IF_ERROR(collect_expr(x, q->group_by[i], err));
  CP_RETURN_IF_ERROR(collect_expr(x, q->having, err));
  for (size_t i = 0; i < q->n_order_by; i++)
    CP_RETURN_IF_ERROR(collect_expr(x, q->order_by[i].expr, err));
  return PAIMON_OK;
}

int cp_sql_exec_init(cp_sql_exec *x, cp_sql_session *s, const cp_sql_stmt *stmt,
                     paimon_error *err) {
  memset(x, 0, sizeof *x);
  x->session = s;
  const cp_sql_query *q = stmt->kind == CP_SQL_S_SELECT                         ? stmt->query
                          : stmt->kind == CP_SQL_S_INSERT && stmt->insert.query ? stmt->insert.query
                                                                                : NULL;
  if (!q) {
    x->all_columns = true;
    return PAIMON_OK;
  }
  int rc = collect_query(x, q, err);
  if (rc) cp_sql_exec_free(x);
  return rc;
}

void cp_sql_exec_free(cp_sql_exec *x) {
  for (size_t i = 0; i < x->n_names; i++) free(x->names[i]);
  free(x->names);
  memset(x, 0, sizeof *x);
}

static bool named(const cp_sql_exec *x, const char *name) {
  for (size_t i = 0; i < x->n_names; i++)
    if (strcasecmp(x->names[i], name) == 0) return true;
  return false;
}

/* ---- relations ------------------------------------------------------------------------------ */

/* VERSION AS OF: the columns become those of the schema the snapshot was written with (read.h).
 * A snapshot that cannot be loaded leaves the table's columns; the scan then reports why. */
static int travel_row(cp_sql_table *t, const cp_sql_scan_req *req, paimon_error *err) {
  paimon_read_builder *rb = NULL;
  char *text = NULL;
  int64_t schema_id;
  paimon_error ignored;
  int rc = paimon_read_builder_new(&rb, t->table, err);
  if (!rc) rc = cp_sql_travel(rb, req, err);
  bool travelled = !rc && paimon_read_builder_read_schema(rb, &schema_id, &text, &ignored) == 0;
  paimon_read_builder_free(rb);
  if (rc || !travelled) return rc;
  json_error_t jerr;
  json_t *doc = json_loads(text, 0, &jerr);
  json_t *fields = doc ? json_object_get(doc, "fields") : NULL;
  cp_type *row = NULL;
  rc = fields ? cp_fields_from_json(fields, &row, err)
              : paimon_error_set(err, PAIMON_ECORRUPT, "table %s: schema %lld: no fields", t->ident,
                                 (long long)schema_id);
  json_decref(doc);
  free(text);
  if (rc) return rc;
  cp_type_free(t->row);
  t->row = row;
  return PAIMON_OK;
}

static int scan_table(cp_sql_exec *x, const cp_sql_from *f, cp_rel *out, paimon_error *err) {
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open_read(x->session, &f->table, &t, err));
  cp_sql_scan_req req = {f->has_version ? f->version : 0,
                         x->pushdown,
                         NULL,
                         named(x, "_ROW_ID"),
                         named(x, "_SEQUENCE_NUMBER"),
                         f->alias ? f->alias : t.name,
                         f->alias ? NULL : t.database,
                         f->version_tag,
                         f->has_timestamp,
                         f->timestamp};
  int rc = f->has_version && !t.system ? travel_row(&t, &req, err) : PAIMON_OK;
  bool *want = rc ? NULL : calloc(t.row->n_fields + 1, sizeof *want);
  if (!rc && !want) rc = CP_ENOMEM(err, "scan");
  for (size_t i = 0; !rc && i < t.row->n_fields; i++)
    want[i] = x->all_columns || named(x, t.row->fields[i].name);
  req.columns = want;
  if (!rc) rc = cp_sql_scan(&t, &req, out, NULL, err);
  if (rc && rc != PAIMON_ENOMEM && strncmp(err->message, "line ", 5) != 0)
    paimon_error_prefix(err, "line %d:%d", f->pos.line, f->pos.col);
  free(want);
  cp_sql_table_close(&t);
  return rc;
}

/* The one column of `r` an unqualified `name` means (USING), or Spark's error. */
static int using_column(const cp_rel *r, const char *name, const char *side, cp_sql_pos pos,
                        size_t *out, paimon_error *err) {
  size_t found = SIZE_MAX, n = 0;
  for (size_t i = 0; i < r->n_cols; i++)
    if (!r->cols[i].qualified_only && strcasecmp(r->cols[i].name, name) == 0) found = i, n++;
  if (n == 1) {
    *out = found;
    return PAIMON_OK;
  }
  return cp_sql_error_at(err, PAIMON_EINVAL, pos,
                         n ? "USING column `%s` is ambiguous on the %s side of the join"
                           : "[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column `%s` cannot be "
                             "resolved on the %s side of the join",
                         name, side);
}

/* USING (a, ...): l.a = r.a AND ..., bound over l's columns then r's. */
static int using_condition(const cp_sql_from *f, const cp_rel *l, const cp_rel *r,
                           const cp_sql_scope *scope, size_t *lcol, size_t *rcol, cp_expr **out,
                           paimon_error *err) {
  cp_expr *acc = NULL;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < f->n_using; i++) {
    rc = using_column(l, f->using_cols[i], "left", f->pos, &lcol[i], err);
    if (!rc) rc = using_column(r, f->using_cols[i], "right", f->pos, &rcol[i], err);
    cp_expr *a = NULL, *b = NULL, *eq = NULL;
    if (!rc) rc = cp_expr_column(&a, scope->bind_names[lcol[i]], err);
    if (!rc) rc = cp_expr_column(&b, scope->bind_names[l->n_cols + rcol[i]], err);
    if (!rc) {
      rc = cp_expr_compare(&eq, CP_CMP_EQ, a, b, err);
      a = b = NULL;
    }
    cp_expr_free(a);
    cp_expr_free(b);
    if (!rc && acc)
      rc = cp_expr_and2(&acc, acc, eq, err);
    else if (!rc)
      acc = eq;
  }
  if (!rc) rc = cp_expr_bind(acc, scope->row, false, out, err);
  cp_expr_free(acc);
  return rc;
}

/* The joined columns of USING first (the left side's value; the right's for RIGHT JOIN; the
 * first non-NULL for FULL JOIN), then both sides' columns, their USING columns reachable only by
 * a qualified name (and not by '*'), as Spark. */
static int using_output(const cp_sql_from *f, const cp_rel *l, const size_t *lcol,
                        const size_t *rcol, cp_rel *joined, paimon_error *err) {
  cp_sql_scope scope;
  int rc = cp_sql_scope_init(&scope, joined->cols, joined->n_cols, "USING", err);
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  for (size_t i = 0; !rc && i < f->n_using; i++) {
    cp_expr *lv = NULL, *rv = NULL, *e = NULL, *bound = NULL;
    rc = cp_expr_column(&lv, scope.bind_names[lcol[i]], err);
    if (!rc) rc = cp_expr_column(&rv, scope.bind_names[l->n_cols + rcol[i]], err);
    if (!rc && f->join == CP_SQL_JOIN_FULL) {
      cp_expr *args[2] = {lv, rv};
      lv = rv = NULL;
      rc = cp_expr_coalesce(&e, args, 2, err);
    } else if (!rc) {
      e = f->join == CP_SQL_JOIN_RIGHT ? rv : lv;
      if (f->join == CP_SQL_JOIN_RIGHT)
        rv = NULL;
      else
        lv = NULL;
    }
    if (!rc) rc = cp_expr_bind(e, scope.row, false, &bound, err);
    struct ArrowSchema s;
    struct ArrowArray a;
    if (!rc) rc = cp_sql_eval(joined, bound, f->using_cols[i], &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, f->using_cols[i], NULL, bound->type, false, &s, &a, err);
    cp_expr_free(lv), cp_expr_free(rv), cp_expr_free(e), cp_expr_free(bound);
  }
  size_t first = b.n;
  for (size_t i = 0; !rc && i < joined->n_cols; i++) {
    rc = cp_rel_builder_add_from(&b, joined, i, err);
    bool shadowed = false;
    for (size_t k = 0; k < f->n_using; k++)
      shadowed = shadowed || i == lcol[k] || i == l->n_cols + rcol[k];
    if (!rc && shadowed) b.cols[first + i].qualified_only = b.cols[first + i].hidden = true;
  }
  cp_rel result;
  memset(&result, 0, sizeof result);
  if (!rc)
    rc = cp_rel_builder_finish(&b, cp_rel_rows(joined), &result, err);
  else
    cp_rel_builder_free(&b);
  cp_sql_scope_free(&scope);
  if (!rc) {
    cp_rel_free(joined);
    *joined = result;
  }
  return rc;
}

/* NATURAL JOIN: the join USING every column name both sides have (visible, case-insensitive),
 * in the left side's order, as Spark; a plain inner / outer join without a condition (a cross
 * product) when they have none. `names` (malloc'ed) borrows the left side's names. */
static int natural_using(const cp_sql_from *f, const cp_rel *l, const cp_rel *r, cp_sql_from *nat,
                         const char ***names, paimon_error *err) {
  *nat = *f;
  *names = calloc(l->n_cols + 1, sizeof **names);
  if (!*names) return CP_ENOMEM(err, "join");
  nat->using_cols = *names;
  nat->n_using = 0;
  for (size_t i = 0; i < l->n_cols; i++) {
    if (l->cols[i].qualified_only) continue;
    bool both = false, again = false;
    for (size_t j = 0; j < r->n_cols && !both; j++)
      both = !r->cols[j].qualified_only && strcasecmp(r->cols[j].name, l->cols[i].name) == 0;
    for (size_t k = 0; k < nat->n_using && !again; k++)
      again = strcasecmp((*names)[k], l->cols[i].name) == 0;
    if (both && !again) (*names)[nat->n_using++] = l->cols[i].name;
  }
  return PAIMON_OK;
}

static int join(cp_sql_exec *x, const cp_sql_from *f, cp_rel *out, paimon_error *err) {
  cp_rel l, r;
  memset(&r, 0, sizeof r);
  CP_RETURN_IF_ERROR(cp_sql_run_from(x, f->left, &l, err));
  int rc = cp_sql_run_from(x, f->right, &r, err);
  cp_sql_from nat;
  const char **nat_names = NULL;
  if (!rc && f->natural) {
    rc = natural_using(f, &l, &r, &nat, &nat_names, err);
    f = &nat;
  }
  cp_rel_col *cols = NULL;
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  cp_expr *on = NULL;
  size_t *lcol = calloc(f->n_using + 1, sizeof *lcol), *rcol = calloc(f->n_using + 1, sizeof *rcol);
  if (!rc && (!lcol || !rcol)) rc = CP_ENOMEM(err, "join");
  if (!rc && (f->on || f->n_using)) {
    /* ON sees the columns of both sides. */
    size_t n = l.n_cols + r.n_cols;
    cols = calloc(n + 1, sizeof *cols);
    rc = cols ? PAIMON_OK : CP_ENOMEM(err, "join");
    if (!rc) memcpy(cols, l.cols, l.n_cols * sizeof *cols);
    if (!rc) memcpy(cols + l.n_cols, r.cols, r.n_cols * sizeof *cols);
    if (!rc) rc = cp_sql_scope_init(&scope, cols, n, f->n_using ? "USING" : "ON", err);
    if (!rc && f->on) rc = cp_sql_bind_predicate(&scope, f->on, &on, err);
    if (!rc && f->n_using) rc = using_condition(f, &l, &r, &scope, lcol, rcol, &on, err);
  }
  cp_sql_pairs pairs;
  memset(&pairs, 0, sizeof pairs);
  bool keep_left = f->join == CP_SQL_JOIN_LEFT || f->join == CP_SQL_JOIN_FULL;
  bool keep_right = f->join == CP_SQL_JOIN_RIGHT || f->join == CP_SQL_JOIN_FULL;
  if (!rc) rc = cp_sql_join_pairs(&l, &r, on, keep_left, keep_right, &pairs, err);
  if (!rc && (f->join == CP_SQL_JOIN_SEMI || f->join == CP_SQL_JOIN_ANTI)) {
    /* The left rows with (SEMI) or without (ANTI) a partner; left columns only. */
    int64_t rows = cp_rel_rows(&l);
    uint8_t *bits = calloc((size_t)cp_bitmap_bytes(rows) + 1, 1);
    rc = bits ? PAIMON_OK : CP_ENOMEM(err, "join");
    for (int64_t i = 0; !rc && i < pairs.n; i++) cp_bit_set(bits, pairs.left[i]);
    if (!rc && f->join == CP_SQL_JOIN_ANTI)
      for (int64_t i = 0; i < cp_bitmap_bytes(rows); i++) bits[i] = (uint8_t)~bits[i];
    if (!rc) rc = cp_rel_filter(&l, bits, out, err);
    free(bits);
  } else if (!rc) {
    rc = cp_sql_pairs_rel(&l, &r, &pairs, out, err);
    if (!rc && f->n_using) rc = using_output(f, &l, lcol, rcol, out, err);
    if (rc) cp_rel_free(out);
  }
  cp_sql_pairs_free(&pairs);
  cp_expr_free(on);
  cp_sql_scope_free(&scope);
  free(cols); /* the column structs were borrowed from l and r */
  free(lcol);
  free(rcol);
  free(nat_names);
  cp_rel_free(&l);
  cp_rel_free(&r);
  return rc;
}

int cp_sql_run_from(cp_sql_exec *x, const cp_sql_from *f, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  switch (f->kind) {
  case CP_SQL_FROM_TABLE: return scan_table(x, f, out, err);
  case CP_SQL_FROM_SUBQUERY: {
    bool ordered = false;
    CP_RETURN_IF_ERROR(cp_sql_run_query(x, f->query, out, &ordered, err));
    int rc = cp_rel_set_qualifier(out, f->alias, err);
    for (size_t i = 0; i < out->n_cols; i++) out->cols[i].hidden = false;
    if (rc) cp_rel_free(out);
    return rc;
  }
  case CP_SQL_FROM_JOIN: return join(x, f, out, err);
  }
  return paimon_error_set(err, PAIMON_EINVAL, "unknown FROM item");
}
