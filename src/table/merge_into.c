/*
 * MERGE INTO for data-evolution tables (include/cpaimon/update.h; spec/data-evolution.md §3.5,
 * pypaimon table/data_evolution_merge_into.py).
 *
 * This half normalizes the clauses ('*' expanded with the ON renames, target self-assignments
 * dropped, ON keys added to inserts), validates them in pypaimon's order and binds the conditions;
 * update_merge.c executes the plan. The plan: the source is hashed on
 * its ON columns (cast to the target's key types; NULL keys never match, as in an SQL join); the
 * target of the pinned snapshot is streamed past it reading only the columns the merge needs.
 * Each (target row, source row) pair goes to the first matched clause whose condition holds;
 * updates become "these _ROW_IDs get these values" for the §3.2 funnel, deletes go to the
 * deletion-vector delete (include/cpaimon/delete.h), and source rows that matched nothing go
 * through the not-matched clauses into a normal append (new row ids at commit). Everything is
 * returned as one list of messages for one commit.
 *
 * Conditions are parsed by update_cond.c and bound against one row type holding every target
 * column as "t.<col>" and every source column as "s.<col>"; the batches they are evaluated on
 * hold only the referenced columns (the bound trees are renumbered).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/delete.h"
#include "cpaimon/write.h"
#include "expr/expr.h"
#include "table/update_merge.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

static bool is_target_col(const cp_merge *mg, const char *name) {
  return cp_row_find_field(mg->t->schema->row, name) != NULL;
}

static bool source_has(const cp_merge *mg, const char *name) {
  if (mg->self) return is_target_col(mg, name) || strcmp(name, CP_ROW_ID_FIELD_NAME) == 0;
  return cp_view_child_index(mg->src, name) >= 0;
}

/* The source ON column paired with target column `col`, or NULL. */
static const char *on_source_for(const cp_merge *mg, const char *col) {
  for (size_t i = 0; i < mg->n_on; i++)
    if (strcmp(mg->ton[i], col) == 0) return mg->son[i];
  return NULL;
}

static void py_list(cp_buf *out, const char *const *names, size_t n) {
  cp_buf_append(out, "[", 1, NULL);
  for (size_t i = 0; i < n; i++) cp_buf_appendf(out, NULL, "%s'%s'", i ? ", " : "", names[i]);
  cp_buf_append(out, "]", 1, NULL);
  cp_buf_nul_terminate(out, NULL);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted, distinct `names` as Python's repr into the error message "<prefix><list><suffix>". */
static int list_error(paimon_error *err, const char *prefix, const char **names, size_t n,
                      const char *suffix) {
  qsort(names, n, sizeof *names, cmp_str);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!k || strcmp(names[k - 1], names[i]) != 0) names[k++] = names[i];
  cp_buf b = CP_BUF_INIT;
  py_list(&b, names, k);
  int rc = paimon_error_set(err, PAIMON_EINVAL, "%s%s%s", prefix, b.data ? (char *)b.data : "[]",
                            suffix);
  cp_buf_free(&b);
  return rc;
}

/* ------------------------------------ normalization ------------------------------------ */

/* c->set is allocated once with room for every entry (normalize_clause): literal entries hold
 * views that point into the entry itself, so entries must never move. */
static int add_set(cp_merge_clause *c, const char *column, paimon_merge_value_kind kind,
                   const char *ref, paimon_error *err) {
  (void)err;
  cp_merge_set *s = c->set;
  s[c->n_set].column = column;
  s[c->n_set].kind = kind;
  s[c->n_set++].ref = ref;
  return PAIMON_OK;
}

static int set_literal(cp_merge *mg, cp_merge_set *s, const paimon_merge_set *in) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, in->literal_schema, in->literal, mg->err));
  const cp_field *f = cp_row_find_field(mg->t->schema->row, s->column);
  int rc = v.length < 1 ? paimon_error_set(mg->err, PAIMON_EINVAL,
                                           "the literal for column %s has no value", s->column)
                        : PAIMON_OK;
  struct ArrowArray conv;
  memset(&conv, 0, sizeof conv);
  if (!rc) rc = cp_update_convert_column(&v, f, &s->lit_schema, &conv, mg->err);
  if (!rc) rc = cp_array_slice(&conv, 0, 1, &s->lit, mg->err);
  if (!rc) rc = cp_array_view_init(&s->lit_view, &s->lit_schema, &s->lit, mg->err);
  cp_array_release(&conv);
  cp_array_view_reset(&v);
  return rc;
}

/* pypaimon's _normalize_set_spec for one clause. */
static int normalize_clause(cp_merge *mg, const paimon_merge_clause *in, cp_merge_clause *out,
                            bool insert) {
  const cp_type *row = mg->t->schema->row;
  out->action = in->action;
  out->text = in->condition;
  if (in->action == PAIMON_MERGE_DELETE) return PAIMON_OK;
  out->set = calloc(row->n_fields + in->n_set + mg->n_on + 1, sizeof *out->set);
  if (!out->set) return CP_ENOMEM(mg->err, "merge_into");
  if (in->all) {
    for (size_t i = 0; i < row->n_fields; i++) {
      const char *src = on_source_for(mg, row->fields[i].name);
      CP_RETURN_IF_ERROR(add_set(out, row->fields[i].name, PAIMON_MERGE_SOURCE_COL,
                                 src ? src : row->fields[i].name, mg->err));
    }
  } else if (in->n_set == 0) {
    return paimon_error_set(mg->err, PAIMON_EINVAL, "SET spec must not be empty");
  }
  for (size_t i = 0; !in->all && i < in->n_set; i++) {
    const paimon_merge_set *s = &in->set[i];
    if (!is_target_col(mg, s->column))
      return paimon_error_set(mg->err, PAIMON_EINVAL,
                              "SET spec references unknown target column '%s'", s->column);
    if (s->kind == PAIMON_MERGE_TARGET_COL) {
      if (insert)
        return paimon_error_set(mg->err, PAIMON_EINVAL,
                                "INSERT spec must not reference target columns (t.*), but found: "
                                "'t.%s'",
                                s->ref);
      if (!is_target_col(mg, s->ref))
        return paimon_error_set(mg->err, PAIMON_EINVAL,
                                "SET spec references unknown target column '%s'", s->ref);
      if (strcmp(s->ref, s->column) == 0) continue; /* t.x = t.x changes nothing */
    }
    CP_RETURN_IF_ERROR(add_set(out, s->column, s->kind, s->ref, mg->err));
    if (s->kind == PAIMON_MERGE_LITERAL)
      CP_RETURN_IF_ERROR(set_literal(mg, &out->set[out->n_set - 1], s));
  }
  for (size_t k = 0; insert && k < mg->n_on; k++) { /* the ON keys of a new row */
    bool given = false;
    for (size_t i = 0; i < out->n_set && !given; i++)
      given = strcmp(out->set[i].column, mg->ton[k]) == 0;
    if (!given && is_target_col(mg, mg->ton[k]))
      CP_RETURN_IF_ERROR(add_set(out, mg->ton[k], PAIMON_MERGE_SOURCE_COL, mg->son[k], mg->err));
  }
  return PAIMON_OK;
}

static void free_clauses(cp_merge_clause *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) {
    for (size_t k = 0; k < c[i].n_set; k++) {
      cp_array_view_reset(&c[i].set[k].lit_view);
      cp_array_release(&c[i].set[k].lit);
      if (c[i].set[k].lit_schema.release) c[i].set[k].lit_schema.release(&c[i].set[k].lit_schema);
    }
    free(c[i].set);
    cp_expr_free(c[i].cond);
  }
  free(c);
}

/* Checks of pypaimon's _prepare before the SET specs. */
static int check_shape(cp_merge *mg, const paimon_merge_clause *m, size_t n_m,
                       const paimon_merge_clause *nm, size_t n_nm) {
  paimon_error *err = mg->err;
  if (!n_m && !n_nm)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "At least one of when_matched or when_not_matched must be non-empty.");
  for (int l = 0; l < 2; l++) {
    const paimon_merge_clause *cs = l ? nm : m;
    size_t n = l ? n_nm : n_m;
    for (size_t i = 0; i + 1 < n; i++)
      if (!cs[i].condition)
        return paimon_error_set(err, PAIMON_EINVAL,
                                "Only the last %s clause may omit its condition. Clause at index "
                                "%zu has no condition, making subsequent clauses unreachable.",
                                l ? "when_not_matched" : "when_matched", i);
  }
  for (size_t i = 0; i < n_m; i++)
    if (m[i].action == PAIMON_MERGE_INSERT)
      return paimon_error_set(err, PAIMON_EINVAL, "when_matched clause %zu cannot INSERT", i);
  for (size_t i = 0; i < n_nm; i++)
    if (nm[i].action != PAIMON_MERGE_INSERT)
      return paimon_error_set(err, PAIMON_EINVAL, "when_not_matched clause %zu must INSERT", i);
  if (!mg->n_on) return paimon_error_set(err, PAIMON_EINVAL, "'on' must be non-empty.");
  if (!mg->t->options.data_evolution)
    return paimon_error_set(
        err, PAIMON_EINVAL,
        "merge_into requires 'data-evolution.enabled' = 'true' on target table.");
  if (!mg->t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "merge_into requires 'row-tracking.enabled' = 'true' on target table.");
  for (size_t i = 0; i < n_m; i++)
    if (m[i].action == PAIMON_MERGE_DELETE && !mg->t->options.deletion_vectors)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "merge_into DELETE requires 'deletion-vectors.enabled' = 'true' on "
                              "target table.");
  return PAIMON_OK;
}

/* Matched clauses may not move rows between partitions. */
static int check_partition_updates(cp_merge *mg) {
  const cp_table_schema *s = mg->t->schema;
  const char *bad[64];
  size_t n = 0;
  for (size_t c = 0; c < mg->n_m; c++)
    for (size_t i = 0; i < mg->m[c].n_set; i++)
      for (size_t k = 0; k < s->n_partition_keys && n < 64; k++)
        if (strcmp(mg->m[c].set[i].column, s->partition_keys[k]) == 0)
          bad[n++] = s->partition_keys[k];
  if (!n) return PAIMON_OK;
  return list_error(mg->err, "merge_into does not support updating partition columns ", bad, n,
                    "; cross-partition row movement is not implemented.");
}

/* The columns referenced as s.<x> / t.<x> in a condition (unbound tree). */
static void condition_refs(const cp_expr *e, const char **out, size_t *n, size_t cap) {
  for (; e; e = e->n_args ? e->args[0] : NULL) { /* first arguments with a loop (expr.h) */
    if (e->kind == CP_EXPR_COLUMN && *n < cap) out[(*n)++] = e->name;
    for (size_t i = 1; i < e->n_args; i++) condition_refs(e->args[i], out, n, cap);
  }
}

/* ------------------------------------ layout and binding ------------------------------------ */

static int add_jcol(cp_merge *mg, int side, const char *name) {
  for (size_t i = 0; i < mg->n_cols; i++)
    if (mg->cols[i].side == side && strcmp(mg->cols[i].name, name) == 0) return PAIMON_OK;
  cp_merge_col *c = realloc(mg->cols, (mg->n_cols + 1) * sizeof *c);
  if (!c) return CP_ENOMEM(mg->err, "merge_into");
  mg->cols = c;
  mg->cols[mg->n_cols++] = (cp_merge_col){side, name};
  return PAIMON_OK;
}

/* "t.<col>" for every target column (and _ROW_ID), "s.<col>" for every source column. */
static int build_full_row(cp_merge *mg) {
  const cp_type *row = mg->t->schema->row;
  size_t ns = mg->self ? row->n_fields : (size_t)mg->src->n_children;
  size_t n = row->n_fields + 1 + ns + (mg->self ? 1 : 0);
  cp_field *fields = calloc(n, sizeof *fields);
  if (!fields) return CP_ENOMEM(mg->err, "merge_into");
  int rc = PAIMON_OK;
  size_t k = 0;
  char name[600];
  for (int side = 0; side < 2 && !rc; side++) {
    size_t count = side == CP_MERGE_SIDE_T || mg->self ? row->n_fields + 1 : ns;
    for (size_t i = 0; i < count && !rc; i++) {
      cp_type *type = NULL;
      const char *col;
      if (side == CP_MERGE_SIDE_S && !mg->self) {
        col = mg->src->children[i].name;
        rc = cp_type_from_arrow(mg->src->children[i].schema, &type, mg->err);
      } else if (i < row->n_fields) {
        col = row->fields[i].name;
        rc = cp_type_copy(&type, row->fields[i].type, mg->err);
      } else {
        col = CP_ROW_ID_FIELD_NAME;
        rc = cp_type_new(&type, CP_TYPE_BIGINT, false, mg->err);
      }
      snprintf(name, sizeof name, "%c.%s", side == CP_MERGE_SIDE_T ? 't' : 's', col);
      if (!rc)
        rc = cp_field_init(&fields[k], (int32_t)k, name, type, NULL, NULL, mg->err);
      else
        cp_type_free(type);
      if (!rc) k++;
    }
  }
  if (!rc) {
    rc = cp_type_new_row(&mg->full_row, fields, k, false, mg->err);
    k = 0;
  }
  for (size_t i = 0; i < k; i++) cp_field_clear(&fields[i]);
  free(fields);
  return rc;
}

/* Checks a condition's references and adds them to the layout. */
static int condition_columns(cp_merge *mg, const cp_expr *unbound, bool matched) {
  const char *refs[256];
  size_t n = 0;
  condition_refs(unbound, refs, &n, 256);
  const char *t_refs[256];
  size_t nt = 0;
  for (size_t i = 0; i < n; i++) {
    const char *col = refs[i] + 2;
    bool target = refs[i][0] == 't';
    if (target && !matched) t_refs[nt++] = col;
    if (target && !is_target_col(mg, col) && !(mg->self && strcmp(col, CP_ROW_ID_FIELD_NAME) == 0))
      return paimon_error_set(mg->err, PAIMON_EINVAL,
                              "condition references unknown target column '%s'", col);
    if (!target && !source_has(mg, col))
      return paimon_error_set(mg->err, PAIMON_EINVAL,
                              "condition references unknown source column '%s'", col);
  }
  if (nt)
    return list_error(mg->err,
                      "WhenNotMatched condition must not reference target columns (t.*), but "
                      "found: ",
                      t_refs, nt, "");
  for (size_t i = 0; i < n; i++)
    CP_RETURN_IF_ERROR(
        add_jcol(mg, refs[i][0] == 't' ? CP_MERGE_SIDE_T : CP_MERGE_SIDE_S, refs[i] + 2));
  return PAIMON_OK;
}

/* The full row's index of joined column `c`. */
static int32_t full_index(const cp_merge *mg, const cp_merge_col *c) {
  char name[600];
  snprintf(name, sizeof name, "%c.%s", c->side == CP_MERGE_SIDE_T ? 't' : 's', c->name);
  return (int32_t)cp_row_field_index(mg->full_row, name);
}

/* Parses, checks and binds every condition, then renumbers them to the joined layout. */
static int prepare_conditions(cp_merge *mg) {
  cp_expr **unbound = mg->unbound = calloc(mg->n_m + mg->n_nm + 1, sizeof *unbound);
  if (!unbound) return CP_ENOMEM(mg->err, "merge_into");
  int rc = build_full_row(mg);
  for (size_t i = 0; !rc && i < mg->n_m + mg->n_nm; i++) {
    cp_merge_clause *c = i < mg->n_m ? &mg->m[i] : &mg->nm[i - mg->n_m];
    if (!c->text) continue;
    rc = cp_merge_condition_parse(c->text, &unbound[i], mg->err);
    if (!rc) rc = condition_columns(mg, unbound[i], i < mg->n_m);
  }
  size_t n_full = mg->full_row ? mg->full_row->n_fields : 0;
  int32_t *map = rc ? NULL : malloc((n_full + 1) * sizeof *map);
  if (!rc && !map) rc = CP_ENOMEM(mg->err, "merge_into");
  for (size_t i = 0; map && i < n_full; i++) map[i] = -1;
  for (size_t k = 0; !rc && k < mg->n_cols; k++) map[full_index(mg, &mg->cols[k])] = (int32_t)k;
  for (size_t i = 0; !rc && i < mg->n_m + mg->n_nm; i++) {
    cp_merge_clause *c = i < mg->n_m ? &mg->m[i] : &mg->nm[i - mg->n_m];
    if (!unbound[i]) continue;
    rc = cp_expr_bind(unbound[i], mg->full_row, false, &c->cond, mg->err);
    if (!rc && c->cond->type->kind != CP_TYPE_BOOLEAN)
      rc = paimon_error_set(mg->err, PAIMON_EINVAL,
                            "merge_into condition \"%s\" is not a boolean expression", c->text);
    if (!rc) rc = cp_expr_remap_columns(c->cond, map, n_full, mg->err);
    if (rc) paimon_error_prefix(mg->err, "merge_into condition \"%s\"", c->text);
  }
  free(map);
  return rc;
}

/* The union of the matched SET keys and the layout columns values are read from. */
static int prepare_values(cp_merge *mg) {
  const char **missing =
      malloc((mg->t->schema->row->n_fields * (mg->n_m + mg->n_nm) + 1) * sizeof *missing);
  mg->update_cols = malloc((mg->t->schema->row->n_fields + 1) * sizeof *mg->update_cols);
  if (!missing || !mg->update_cols) {
    free(missing);
    return CP_ENOMEM(mg->err, "merge_into");
  }
  size_t n_missing = 0;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < mg->n_m + mg->n_nm; i++) {
    const cp_merge_clause *c = i < mg->n_m ? &mg->m[i] : &mg->nm[i - mg->n_m];
    for (size_t k = 0; !rc && k < c->n_set; k++) {
      const cp_merge_set *s = &c->set[k];
      if (i < mg->n_m) {
        bool seen = false;
        for (size_t j = 0; j < mg->n_update && !seen; j++)
          seen = strcmp(mg->update_cols[j], s->column) == 0;
        if (!seen) mg->update_cols[mg->n_update++] = s->column;
      }
      if (s->kind == PAIMON_MERGE_SOURCE_COL && !source_has(mg, s->ref))
        missing[n_missing++] = s->ref;
      else if (s->kind == PAIMON_MERGE_SOURCE_COL)
        rc = add_jcol(mg, CP_MERGE_SIDE_S, s->ref);
      else if (s->kind == PAIMON_MERGE_TARGET_COL)
        rc = add_jcol(mg, CP_MERGE_SIDE_T, s->ref);
    }
  }
  if (!rc && n_missing)
    rc = list_error(mg->err, "source is missing columns ", missing, n_missing,
                    " referenced by SET spec");
  /* A clause that does not set an update column keeps the target's value. */
  for (size_t j = 0; !rc && j < mg->n_update; j++)
    rc = add_jcol(mg, CP_MERGE_SIDE_T, mg->update_cols[j]);
  for (size_t k = 0; !rc && k < mg->n_on; k++) {
    rc = add_jcol(mg, CP_MERGE_SIDE_T, mg->ton[k]);
    if (!rc && !mg->self) rc = add_jcol(mg, CP_MERGE_SIDE_S, mg->son[k]);
  }
  if (!rc) rc = add_jcol(mg, CP_MERGE_SIDE_T, CP_ROW_ID_FIELD_NAME);
  free(missing);
  return rc;
}

static int check_source_on(cp_merge *mg) {
  if (mg->self) return PAIMON_OK;
  const char **missing = malloc((mg->n_on + 1) * sizeof *missing);
  const char **names = malloc(((size_t)mg->src->n_children + 1) * sizeof *names);
  if (!missing || !names) {
    free(missing);
    free(names);
    return CP_ENOMEM(mg->err, "merge_into");
  }
  size_t n = 0;
  for (size_t k = 0; k < mg->n_on; k++)
    if (cp_view_child_index(mg->src, mg->son[k]) < 0) missing[n++] = mg->son[k];
  int rc = PAIMON_OK;
  for (size_t k = 0; k < mg->n_on && !rc; k++)
    if (!is_target_col(mg, mg->ton[k]))
      rc = paimon_error_set(mg->err, PAIMON_EINVAL, "'on' column '%s' is not a target column",
                            mg->ton[k]);
  if (!rc && n) {
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    for (int64_t i = 0; i < mg->src->n_children; i++) names[i] = mg->src->children[i].name;
    py_list(&a, missing, n);
    py_list(&b, names, (size_t)mg->src->n_children);
    rc = paimon_error_set(mg->err, PAIMON_EINVAL, "'on' columns %s missing from source schema %s.",
                          a.data ? (char *)a.data : "[]", b.data ? (char *)b.data : "[]");
    cp_buf_free(&a);
    cp_buf_free(&b);
  }
  free(missing);
  free(names);
  return rc;
}

/* WhenNotMatched conditions may only read the source (pypaimon checks this before the specs). */
static int check_not_matched_refs(cp_merge *mg, const paimon_merge_clause *nm, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!nm[i].condition) continue;
    cp_expr *e = NULL;
    CP_RETURN_IF_ERROR(cp_merge_condition_parse(nm[i].condition, &e, mg->err));
    const char *refs[256], *t_refs[256];
    size_t nr = 0, nt = 0;
    condition_refs(e, refs, &nr, 256);
    for (size_t k = 0; k < nr; k++)
      if (refs[k][0] == 't') t_refs[nt++] = refs[k] + 2;
    int rc = nt ? list_error(mg->err,
                             "WhenNotMatched condition must not reference target columns (t.*), "
                             "but found: ",
                             t_refs, nt, "")
                : PAIMON_OK;
    cp_expr_free(e);
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

static int prepare(cp_merge *mg, const paimon_merge_clause *m, size_t n_m,
                   const paimon_merge_clause *nm, size_t n_nm) {
  CP_RETURN_IF_ERROR(check_shape(mg, m, n_m, nm, n_nm));
  mg->m = calloc(n_m + 1, sizeof *mg->m);
  mg->nm = calloc(n_nm + 1, sizeof *mg->nm);
  if (!mg->m || !mg->nm) return CP_ENOMEM(mg->err, "merge_into");
  while (mg->n_m < n_m) { /* counted first: a clause that fails half way is freed too */
    mg->n_m++;
    CP_RETURN_IF_ERROR(normalize_clause(mg, &m[mg->n_m - 1], &mg->m[mg->n_m - 1], false));
  }
  CP_RETURN_IF_ERROR(check_partition_updates(mg));
  CP_RETURN_IF_ERROR(check_not_matched_refs(mg, nm, n_nm));
  while (mg->n_nm < n_nm) {
    mg->n_nm++;
    CP_RETURN_IF_ERROR(normalize_clause(mg, &nm[mg->n_nm - 1], &mg->nm[mg->n_nm - 1], true));
  }
  if (mg->self) {
    if (mg->n_on != 1 || strcmp(mg->ton[0], CP_ROW_ID_FIELD_NAME) != 0 ||
        strcmp(mg->son[0], CP_ROW_ID_FIELD_NAME) != 0)
      return paimon_error_set(mg->err, PAIMON_EINVAL,
                              "merge_into without a source batch is a self-merge, which needs ON "
                              "_ROW_ID = _ROW_ID");
    if (mg->n_nm)
      return paimon_error_set(mg->err, PAIMON_EINVAL,
                              "Self-merge (source == target with ON _ROW_ID) does not support WHEN "
                              "NOT MATCHED clauses.");
  }
  CP_RETURN_IF_ERROR(check_source_on(mg));
  CP_RETURN_IF_ERROR(prepare_values(mg));
  return prepare_conditions(mg);
}

int paimon_update_merge_into(paimon_update *u, const struct ArrowSchema *source_schema,
                             const struct ArrowArray *source, const char *const *target_on,
                             const char *const *source_on, size_t n_on,
                             const paimon_merge_clause *matched, size_t n_matched,
                             const paimon_merge_clause *not_matched, size_t n_not_matched,
                             paimon_commit_messages **out, paimon_error *err) {
  *out = NULL;
  cp_array_view src;
  memset(&src, 0, sizeof src);
  cp_merge mg;
  memset(&mg, 0, sizeof mg);
  mg.u = u;
  mg.t = u->t;
  mg.self = source == NULL;
  mg.src = mg.self ? NULL : &src;
  mg.ton = target_on;
  mg.son = source_on;
  mg.n_on = n_on;
  mg.err = err;
  cp_merge_run r;
  memset(&r, 0, sizeof r);
  r.mg = &mg;
  paimon_commit_messages *msgs = NULL;
  int rc = paimon_commit_messages_new(&msgs, err);
  if (!rc && source) rc = cp_array_view_init(&src, source_schema, source, err);
  if (!rc && source && src.type.id != CP_ARROW_STRUCT)
    rc = paimon_error_set(err, PAIMON_EINVAL, "the merge source must be a record batch");
  if (!rc) rc = prepare(&mg, matched, n_matched, not_matched, n_not_matched);
  if (!rc) rc = cp_update_pin(u, err);
  if (!rc) rc = cp_merge_run_start(&r);
  if (!rc) rc = cp_merge_matched_phase(&r, err);
  if (!rc) rc = cp_merge_apply_actions(&r, msgs, err);
  if (!rc) rc = cp_merge_not_matched_phase(&r, msgs, err);
  cp_merge_run_free(&r);
  free_clauses(mg.m, mg.n_m);
  free_clauses(mg.nm, mg.n_nm);
  free(mg.update_cols);
  free(mg.cols);
  for (size_t i = 0; mg.unbound && i < mg.n_m + mg.n_nm; i++) cp_expr_free(mg.unbound[i]);
  free(mg.unbound);
  cp_type_free(mg.full_row);
  cp_array_view_reset(&src);
  if (rc) {
    cp_update_discard(u, msgs);
    paimon_commit_messages_free(msgs);
    return rc;
  }
  *out = msgs;
  return PAIMON_OK;
}
