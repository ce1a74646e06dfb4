/*
 * The executor's access to tables through the public API (include/cpaimon/catalog.h, read.h,
 * system_table.h): opening a table with its column types (read from the schema file's JSON,
 * spec/format.md §2.1; a system table such as "t$files" for reading only),
 * scanning it into a relation with the hidden row-tracking columns when asked
 * (spec/data-evolution.md §1.4), and evaluating expressions over relations (expr/expr.h).
 */
#include <stdio.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/read.h"
#include "cpaimon/predicate.h"
#include "cpaimon/system_table.h"
#include "expr/predicate.h"
#include "sql/bind_internal.h"
#include "sql/exec.h"
#include "types/special_fields.h"
#include "types/type_json.h"

int cp_sql_split_name(cp_sql_session *s, const cp_sql_name *name, char **db, char **table,
                      paimon_error *err) {
  if (name->n > 3 || (name->n == 3 && !cp_sql_is_catalog_name(name->parts[0])))
    return cp_sql_error_at(err, PAIMON_EINVAL, name->pos,
                           "table name %s: only [catalog.]db.table, with the catalog paimon or "
                           "spark_catalog",
                           name->parts[0]);
  *db = strdup(name->n >= 2 ? name->parts[name->n - 2] : s->database);
  *table = strdup(name->parts[name->n - 1]);
  if (*db && *table) return PAIMON_OK;
  free(*db);
  free(*table);
  *db = *table = NULL;
  return CP_ENOMEM(err, "table name");
}

static bool option_true(const paimon_table *t, const char *key) {
  const char *v = paimon_table_option(t, key);
  return v && strcasecmp(v, "true") == 0;
}

/* The table's columns as a ROW type, from its schema file (exact Paimon types: VARCHAR(n),
 * TIME(p) and the like survive, which the Arrow schema would not keep). */
static int load_row(paimon_table *t, cp_type **row, paimon_error *err) {
  char *text = NULL;
  CP_RETURN_IF_ERROR(paimon_table_schema_json(t, &text, err));
  json_error_t jerr;
  json_t *doc = json_loads(text, 0, &jerr);
  free(text);
  if (!doc)
    return paimon_error_set(err, PAIMON_ECORRUPT, "table %s: schema JSON: %s", paimon_table_name(t),
                            jerr.text);
  json_t *fields = json_object_get(doc, "fields");
  int rc = fields ? cp_fields_from_json(fields, row, err)
                  : paimon_error_set(err, PAIMON_ECORRUPT, "table %s: schema has no fields",
                                     paimon_table_name(t));
  json_decref(doc);
  return rc;
}

/* A system table's columns, from its DataField JSON. */
static int load_system_row(paimon_system_table *st, cp_type **row, paimon_error *err) {
  char *text = NULL;
  CP_RETURN_IF_ERROR(paimon_system_table_fields_json(st, &text, err));
  json_t *fields = json_loads(text, 0, NULL);
  free(text);
  int rc = fields ? cp_fields_from_json(fields, row, err) : CP_ENOMEM(err, "system table");
  json_decref(fields);
  return rc;
}

/* Opens a data table, or a system table when `read` allows one ("t$files"; writes and DDL get a
 * read-only error naming it). */
static int table_open(cp_sql_session *s, const cp_sql_name *name, bool read, cp_sql_table *out,
                      paimon_error *err) {
  memset(out, 0, sizeof *out);
  CP_RETURN_IF_ERROR(cp_sql_split_name(s, name, &out->database, &out->name, err));
  size_t len = strlen(out->database) + strlen(out->name) + 2;
  out->ident = malloc(len);
  int rc = out->ident ? PAIMON_OK : CP_ENOMEM(err, "table name");
  if (!rc) snprintf(out->ident, len, "%s.%s", out->database, out->name);
  bool system = !rc && paimon_identifier_is_system_table(out->ident);
  if (system && !read)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "%s is a system table: system tables are read-only (only SELECT "
                          "reads them)",
                          out->ident);
  if (!rc && system) {
    rc = paimon_catalog_get_system_table(s->catalog, out->ident, &out->system, err);
    if (!rc) rc = load_system_row(out->system, &out->row, err);
    if (!rc) out->table = paimon_system_table_data_table(out->system);
  } else if (!rc) {
    rc = paimon_catalog_get_table(s->catalog, out->ident, &out->table, err);
    if (!rc) rc = load_row(out->table, &out->row, err);
  }
  if (rc) {
    if (rc != PAIMON_ENOMEM) paimon_error_prefix(err, "line %d:%d", name->pos.line, name->pos.col);
    cp_sql_table_close(out);
    return rc;
  }
  if (out->system) return PAIMON_OK;
  out->row_tracking = option_true(out->table, "row-tracking.enabled");
  out->data_evolution = option_true(out->table, "data-evolution.enabled");
  out->deletion_vectors = option_true(out->table, "deletion-vectors.enabled");
  return PAIMON_OK;
}

int cp_sql_table_open(cp_sql_session *s, const cp_sql_name *name, cp_sql_table *out,
                      paimon_error *err) {
  return table_open(s, name, false, out, err);
}

int cp_sql_table_open_read(cp_sql_session *s, const cp_sql_name *name, cp_sql_table *out,
                           paimon_error *err) {
  return table_open(s, name, true, out, err);
}

void cp_sql_table_close(cp_sql_table *t) {
  if (!t) return;
  if (t->system)
    paimon_system_table_free(t->system); /* and its data table */
  else
    paimon_table_free(t->table);
  free(t->database);
  free(t->name);
  free(t->ident);
  cp_type_free(t->row);
  memset(t, 0, sizeof *t);
}

bool cp_sql_table_is_partition_key(const cp_sql_table *t, const char *column) {
  if (t->system) return false;
  size_t n = paimon_table_partition_key_count(t->table);
  for (size_t i = 0; i < n; i++)
    if (strcasecmp(paimon_table_partition_key(t->table, i), column) == 0) return true;
  return false;
}

/* ---- scans ---------------------------------------------------------------------------------- */

/* Reads every batch of `stream` into one struct array. */
static int drain(struct ArrowArrayStream *stream, struct ArrowSchema *schema,
                 struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_stream_get_schema(stream, schema, err));
  struct ArrowArray *batches = NULL;
  size_t n = 0, cap = 0;
  int rc = PAIMON_OK;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      struct ArrowArray *grown = realloc(batches, cap * sizeof *grown);
      if (!grown) {
        rc = CP_ENOMEM(err, "scan");
        break;
      }
      batches = grown;
    }
    rc = cp_stream_next(stream, &batches[n], err);
    if (rc || !batches[n].release) break;
    n++;
  }
  if (!rc && n == 1) {
    cp_array_move(&batches[0], out);
    n = 0;
  } else if (!rc) {
    /* Zero batches: an empty array of the schema's type; several: concatenated. */
    cp_array_view *views = calloc(n ? n : 1, sizeof *views);
    size_t made = 0;
    rc = views ? PAIMON_OK : CP_ENOMEM(err, "scan");
    for (; !rc && made < n; made++)
      rc = cp_array_view_init(&views[made], schema, &batches[made], err);
    if (!rc && n) rc = cp_concat(views, (int64_t)n, out, err);
    for (size_t i = 0; i < made; i++) cp_array_view_reset(&views[i]);
    free(views);
    if (!rc && n == 0) {
      cp_builder *b = NULL;
      rc = cp_builder_create(&b, schema, err);
      if (!rc) rc = cp_builder_finish(b, out, err);
      cp_builder_free(b);
    }
  }
  for (size_t i = 0; i < n; i++) cp_array_release(&batches[i]);
  free(batches);
  if (rc) cp_schema_release(schema);
  return rc;
}

/* The projection names of a scan and the relation's column metadata. */
static int scan_columns(const cp_sql_table *t, const cp_sql_scan_req *req, const char ***names,
                        cp_rel_col **cols, size_t *n, paimon_error *err) {
  const cp_type *row = t->row;
  size_t cap = row->n_fields + 2, k = 0;
  *names = calloc(cap, sizeof **names);
  *cols = calloc(cap, sizeof **cols);
  if (!*names || !*cols) return CP_ENOMEM(err, "scan");
  bool any = false;
  for (size_t i = 0; i < row->n_fields; i++) any |= !req->columns || req->columns[i];
  bool hidden = t->row_tracking && (req->row_id || req->sequence);
  for (size_t i = 0; i < row->n_fields; i++) {
    /* Read at least one column, so that the batches say how many rows there are. */
    bool want = !req->columns || req->columns[i] || (!any && !hidden && i == 0);
    if (!want) continue;
    (*names)[k] = row->fields[i].name;
    CP_RETURN_IF_ERROR(cp_rel_col_init(&(*cols)[k++], row->fields[i].name, req->qualifier,
                                       row->fields[i].type, false, err));
  }

  cp_type *bigint = NULL;
  CP_RETURN_IF_ERROR(cp_type_new(&bigint, CP_TYPE_BIGINT, false, err));
  int rc = PAIMON_OK;
  if (t->row_tracking && req->row_id) {
    (*names)[k] = CP_ROW_ID_FIELD_NAME;
    rc = cp_rel_col_init(&(*cols)[k++], CP_ROW_ID_FIELD_NAME, req->qualifier, bigint, true, err);
  }
  if (!rc && t->row_tracking && req->sequence) {
    (*names)[k] = CP_SEQUENCE_NUMBER_FIELD_NAME;
    rc = cp_rel_col_init(&(*cols)[k++], CP_SEQUENCE_NUMBER_FIELD_NAME, req->qualifier, bigint, true,
                         err);
  }
  cp_type_free(bigint);
  for (size_t i = 0; !rc && i < k; i++)
    rc = cp_rel_col_set_database(&(*cols)[i], req->database, err);
  *n = k;
  return rc;
}

/* ---- filter pushdown ------------------------------------------------------------------------ */

static bool pushable(const cp_sql_expr *e, const cp_sql_scope *scope) {
  for (; e; e = e->n_args ? e->args[0] : NULL) { /* first arguments with a loop (ast.h) */
    if (cp_sql_is_aggregate_call(e) || e->kind == CP_SQL_E_STAR) return false;
    if (e->kind == CP_SQL_E_COLUMN) {
      size_t i;
      paimon_error ignored;
      /* Hidden columns stay out: the read path filters on the table's own columns. So do CHAR
       * columns: SQL compares them padded (exec_char.c), the files may hold them unpadded. */
      return cp_sql_resolve(scope, &e->name, &i, &ignored) == 0 && !scope->cols[i].hidden &&
             scope->cols[i].type->kind != CP_TYPE_CHAR;
    }
    for (size_t i = 1; i < e->n_args; i++)
      if (!pushable(e->args[i], scope)) return false;
  }
  return true;
}

static int collect_filter(const cp_sql_expr *where, const cp_sql_scope *scope,
                          paimon_predicate ***preds, size_t *n, paimon_error *err);

static bool is_and(const cp_sql_expr *e) {
  return e->kind == CP_SQL_E_BINARY && e->op == CP_SQL_OP_AND;
}

/* Adds the conjuncts of `where` that read only this scan's visible columns to `preds`: the chain
 * of ANDs down first arguments with a loop, in the order the conjuncts are written. */
static int collect_filters(const cp_sql_expr *where, const cp_sql_scope *scope,
                           paimon_predicate ***preds, size_t *n, paimon_error *err) {
  cp_chain ands;
  cp_chain_init(&ands);
  int rc = PAIMON_OK;
  for (; !rc && is_and(where); where = where->args[0]) rc = cp_chain_push(&ands, where, err);
  if (!rc) rc = collect_filter(where, scope, preds, n, err);
  for (size_t i = ands.n; !rc && i-- > 0;) {
    const cp_sql_expr *right = ((const cp_sql_expr *)ands.nodes[i])->args[1];
    rc = collect_filters(right, scope, preds, n, err);
  }
  cp_chain_free(&ands);
  return rc;
}

/* One conjunct. */
static int collect_filter(const cp_sql_expr *where, const cp_sql_scope *scope,
                          paimon_predicate ***preds, size_t *n, paimon_error *err) {
  if (!pushable(where, scope)) return PAIMON_OK;
  cp_expr *e = NULL;
  paimon_error ignored;
  /* A conjunct that does not bind as a condition is not pushed: the whole WHERE is bound and
   * applied after the scan, which reports its errors. */
  if (cp_sql_bind_predicate(scope, where, &e, &ignored) != 0) return PAIMON_OK;
  cp_expr_free(e);
  e = NULL;
  if (cp_sql_convert(scope, where, &e, &ignored) != 0) return PAIMON_OK;
  paimon_predicate **grown = realloc(*preds, (*n + 1) * sizeof *grown);
  if (!grown) {
    cp_expr_free(e);
    return CP_ENOMEM(err, "scan filter");
  }
  *preds = grown;
  CP_RETURN_IF_ERROR(cp_predicate_wrap(&grown[*n], e, err));
  (*n)++;
  return PAIMON_OK;
}

/* Offers the pushable part of `where` to the read builder; a filter it refuses is dropped. */
static int push_filter(paimon_read_builder *rb, const cp_sql_expr *where, const cp_rel_col *cols,
                       size_t n_cols, paimon_error *err) {
  cp_sql_scope scope;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(&scope, cols, n_cols, "WHERE", err));
  paimon_predicate **preds = NULL, *all = NULL;
  size_t n = 0;
  int rc = collect_filters(where, &scope, &preds, &n, err);
  if (!rc && n)
    rc = paimon_predicate_and(&all, preds, n, err);
  else
    for (size_t i = 0; i < n; i++) paimon_predicate_free(preds[i]);
  if (!rc && all) {
    paimon_error ignored;
    paimon_read_builder_set_filter(rb, all, &ignored);
  }
  paimon_predicate_free(all);
  free(preds);
  cp_sql_scope_free(&scope);
  return rc;
}

/* A system table's rows: the projection through its read; WHERE is applied by the caller. */
static int scan_system(cp_sql_table *t, const cp_sql_scan_req *req, cp_rel *out,
                       int64_t *snapshot_read, paimon_error *err) {
  if (req->snapshot || req->tag || req->has_timestamp)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "VERSION AS OF on system table %s is not supported: system tables "
                            "show the latest state",
                            t->ident);
  if (snapshot_read) *snapshot_read = 0;
  const char **names = NULL;
  cp_rel_col *cols = NULL;
  size_t n = 0;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  int rc = scan_columns(t, req, &names, &cols, &n, err);
  if (!rc) rc = paimon_system_table_read(t->system, names, n, NULL, &stream, err);
  if (!rc) rc = drain(&stream, &out->schema, &out->batch, err);
  cp_stream_release(&stream);
  free(names);
  if (rc) {
    cp_rel_cols_free(cols, n);
    cp_rel_free(out);
    return rc;
  }
  out->cols = cols;
  out->n_cols = n;
  return PAIMON_OK;
}

int cp_sql_travel(paimon_read_builder *rb, const cp_sql_scan_req *req, paimon_error *err) {
  if (req->tag) return paimon_read_builder_set_tag(rb, req->tag, err);
  if (req->has_timestamp) return paimon_read_builder_set_timestamp(rb, req->timestamp, err);
  if (req->snapshot) return paimon_read_builder_set_snapshot(rb, req->snapshot, err);
  return PAIMON_OK;
}

int cp_sql_scan(cp_sql_table *t, const cp_sql_scan_req *req, cp_rel *out, int64_t *snapshot_read,
                paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (t->system) return scan_system(t, req, out, snapshot_read, err);
  const char **names = NULL;
  cp_rel_col *cols = NULL;
  size_t n = 0;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  int rc = scan_columns(t, req, &names, &cols, &n, err);
  if (!rc) rc = paimon_read_builder_new(&rb, t->table, err);
  /* The snapshot first: with VERSION AS OF the names are the snapshot's (time travel). */
  if (!rc) rc = cp_sql_travel(rb, req, err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, names, n, err);
  if (!rc && req->where) rc = push_filter(rb, req->where, cols, n, err);
  /* The relation keeps every batch: the read threads may run ahead (read.h). */
  if (!rc) rc = paimon_read_builder_set_read_ahead(rb, -1, err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, err);
  if (!rc && snapshot_read) *snapshot_read = paimon_plan_snapshot_id(plan);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &stream, err);
  if (!rc) rc = drain(&stream, &out->schema, &out->batch, err);
  cp_stream_release(&stream);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  free(names);
  if (!rc && (size_t)out->schema.n_children != n)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "internal: scan of %s returned %lld columns, expected %zu", t->ident,
                          (long long)out->schema.n_children, n);
  if (rc) {
    cp_rel_cols_free(cols, n);
    cp_rel_free(out);
    return rc;
  }
  out->cols = cols;
  out->n_cols = n;
  rc = cp_sql_char_pad_rel(out, err); /* Spark's read-side CHAR padding (exec_char.c) */
  if (rc) cp_rel_free(out);
  return rc;
}

/* ---- evaluation ----------------------------------------------------------------------------- */

int cp_sql_eval(const cp_rel *r, const cp_expr *e, const char *name, struct ArrowSchema *schema,
                struct ArrowArray *array, paimon_error *err) {
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  memset(array, 0, sizeof *array);
  int rc = cp_expr_eval(e, &v, array, err);
  cp_array_view_reset(&v);
  if (!rc) rc = cp_expr_arrow_schema(e, name, schema, err);
  if (rc) cp_array_release(array);
  return rc;
}

int cp_sql_select_bits(const cp_rel *r, const cp_expr *pred, uint8_t **bits, int64_t *n_true,
                       paimon_error *err) {
  int64_t rows = cp_rel_rows(r);
  *bits = calloc((size_t)cp_bitmap_bytes(rows) + 1, 1);
  if (!*bits) return CP_ENOMEM(err, "selection");
  cp_array_view v;
  int rc = cp_rel_view(r, &v, err);
  if (!rc) rc = cp_expr_eval_selection(pred, &v, *bits, n_true, err);
  cp_array_view_reset(&v);
  if (rc) {
    free(*bits);
    *bits = NULL;
  }
  return rc;
}

int cp_sql_filter(const cp_rel *r, const cp_expr *pred, cp_rel *out, paimon_error *err) {
  uint8_t *bits = NULL;
  int64_t n_true = 0;
  CP_RETURN_IF_ERROR(cp_sql_select_bits(r, pred, &bits, &n_true, err));
  int rc = cp_rel_filter(r, bits, out, err);
  free(bits);
  return rc;
}
