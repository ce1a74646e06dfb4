/*
 * The REST catalog (`metastore: rest`; spec/rest-catalog.md §2): databases and tables live in the
 * server, which also writes the schema files and publishes snapshots; the client writes data
 * files, manifests and manifest lists at the table's path (§4.2) and sends commits.
 *
 * The public catalog calls (catalog.c, schema_change.c, table.c, commit.c) come here when the
 * catalog was opened with metastore=rest. Paimon's own messages are kept where the answer means
 * one ("Table db.t does not exist."); other failures carry the server's message and status.
 */
#include "table/rest_catalog.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/status.h"
#include "meta/binary_row.h"
#include "table/table.h"
#include "types/type_json.h"
#include "types/type_sql.h"

/* "databases/<db>[/tables/<t>[/<tail>]]" with encoded names. */
static int table_res(cp_buf *p, const char *db, const char *table, const char *tail,
                     paimon_error *err) {
  int rc = cp_buf_appendf(p, err, "databases/");
  if (!rc) rc = cp_rest_segment(p, db, err);
  if (!rc && table) rc = cp_buf_appendf(p, err, "/tables/");
  if (!rc && table) rc = cp_rest_segment(p, table, err);
  if (!rc && tail) rc = cp_buf_appendf(p, err, "/%s", tail);
  if (!rc) rc = cp_buf_nul_terminate(p, err);
  return rc;
}

/* One call on a resource path built by table_res. */
static int call(cp_rest *r, const char *method, const char *db, const char *table, const char *tail,
                const cp_rest_param *params, size_t n, json_t *body, cp_rest_result *res,
                paimon_error *err) {
  cp_buf p = CP_BUF_INIT;
  int rc = table_res(&p, db, table, tail, err);
  if (!rc) rc = cp_rest_call(r, method, (const char *)p.data, true, params, n, body, res, err);
  cp_buf_free(&p);
  return rc;
}

static bool is(const cp_rest_result *res, long status, const char *resource) {
  return res->status == status &&
         (!resource || strcmp(res->resource_type, resource) == 0 || !res->resource_type[0]);
}

/* ---- paging ---- */

/* Calls `each` on every element of the array `key` over every page of GET `path` (a resource
 * built by table_res), following nextPageToken. A status other than 200 stops with that result in
 * *stop (the caller maps it; freed by the caller) or, with stop NULL, as an error. */
typedef int (*page_item_fn)(json_t *item, void *ctx, paimon_error *err);

static int page_all(cp_rest *r, const char *path, const char *key, page_item_fn each, void *ctx,
                    cp_rest_result *stop, const char *what, paimon_error *err) {
  if (stop) memset(stop, 0, sizeof *stop);
  char *token = NULL;
  int rc = PAIMON_OK;
  for (;;) {
    cp_rest_param p = {"pageToken", token};
    cp_rest_result res;
    rc = cp_rest_call(r, "GET", path, true, &p, token ? 1 : 0, NULL, &res, err);
    free(token);
    token = NULL;
    if (rc) break;
    if (res.status != 200) {
      if (stop)
        *stop = res;
      else
        rc = cp_rest_error(r, &res, what, err);
      if (!stop) cp_rest_result_free(&res);
      break;
    }
    json_t *items = json_object_get(res.body, key);
    size_t i;
    json_t *v;
    json_array_foreach(items, i, v) {
      if ((rc = each(v, ctx, err))) break;
    }
    const char *next = json_string_value(json_object_get(res.body, "nextPageToken"));
    if (!rc && next && *next && json_array_size(items) && !(token = strdup(next)))
      rc = CP_ENOMEM(err, "list");
    cp_rest_result_free(&res);
    if (rc || !token) break;
  }
  free(token);
  return rc;
}

static int add_string(json_t *v, void *ctx, paimon_error *err) {
  paimon_string_list *out = ctx;
  const char *s = json_string_value(v);
  if (!s) return PAIMON_OK;
  char **grown = realloc(out->items, (out->count + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "list");
  out->items = grown;
  if (!(grown[out->count] = strdup(s))) return CP_ENOMEM(err, "list");
  out->count++;
  return PAIMON_OK;
}

/* The names of `key` over every page of the databases (db NULL) or of db's tables. */
static int list_all(cp_rest *r, const char *db, const char *key, paimon_string_list *out,
                    const char *what, paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_buf path = CP_BUF_INIT;
  int rc = db ? table_res(&path, db, NULL, "tables", err) : cp_buf_appendf(&path, err, "databases");
  if (!rc) rc = cp_buf_nul_terminate(&path, err);
  cp_rest_result stop = {0};
  if (!rc) rc = page_all(r, (const char *)path.data, key, add_string, out, &stop, what, err);
  if (!rc && stop.status)
    rc = db && is(&stop, 404, "DATABASE")
             ? paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db)
             : cp_rest_error(r, &stop, what, err);
  cp_rest_result_free(&stop);
  cp_buf_free(&path);
  if (rc) paimon_string_list_free(out);
  return rc;
}

/* ---- databases ---- */

int cp_rest_list_databases(cp_rest *r, paimon_string_list *out, paimon_error *err) {
  return list_all(r, NULL, "databases", out, "list databases", err);
}

int cp_rest_database_exists(cp_rest *r, const char *db, bool *out, paimon_error *err) {
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "GET", db, NULL, NULL, NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  *out = res.status == 200;
  if (res.status != 200 && res.status != 404) rc = cp_rest_error(r, &res, "get database", err);
  cp_rest_result_free(&res);
  return rc;
}

static json_t *options_json(const cp_options *o) {
  json_t *obj = json_object();
  for (size_t i = 0; obj && o && i < o->n; i++)
    if (json_object_set_new(obj, o->keys[i], json_string(o->values[i])) != 0) {
      json_decref(obj);
      return NULL;
    }
  return obj;
}

int cp_rest_create_database(cp_rest *r, const char *db, bool ignore_if_exists,
                            const cp_options *options, paimon_error *err) {
  json_t *body = json_pack("{s:s, s:o?}", "name", db, "options", options_json(options));
  if (!body) return CP_ENOMEM(err, "request");
  cp_rest_result res;
  int rc = cp_rest_call(r, "POST", "databases", true, NULL, 0, body, &res, err);
  json_decref(body);
  if (!rc && is(&res, 409, NULL))
    rc = ignore_if_exists ? PAIMON_OK
                          : paimon_error_set(err, PAIMON_EEXIST, "Database %s already exists.", db);
  else if (!rc && res.status != 200)
    rc = cp_rest_error(r, &res, "create database", err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_database_from_json(const json_t *body, cp_options *out, paimon_error *err) {
  if (!json_is_object(body))
    return paimon_error_set(err, PAIMON_ECORRUPT, "GetDatabaseResponse is not an object");
  const json_t *opts = json_object_get(body, "options");
  if (opts && !json_is_null(opts) && !json_is_object(opts))
    return paimon_error_set(err, PAIMON_ECORRUPT, "GetDatabaseResponse: options is not an object");
  const char *k;
  const json_t *v;
  int rc = PAIMON_OK;
  json_object_foreach((json_t *)opts, k, v) {
    if (json_is_string(v)) rc = cp_options_set(out, k, json_string_value(v), err);
    if (rc) return rc;
  }
  /* Java's RESTCatalog.getDatabase: the location, then the audit fields as strings */
  static const char *const audit[] = {"location",  "owner",     "createdBy",
                                      "createdAt", "updatedBy", "updatedAt"};
  for (size_t i = 0; !rc && i < sizeof audit / sizeof *audit; i++) {
    const json_t *a = json_object_get(body, audit[i]);
    char num[32];
    const char *text = json_string_value(a);
    if (json_is_integer(a)) {
      snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(a));
      text = num;
    }
    /* Java puts a null location or owner as null, the others as the text "null" */
    if (text || i >= 2) rc = cp_options_set(out, audit[i], text ? text : "null", err);
  }
  return rc;
}

int cp_rest_get_database(cp_rest *r, const char *db, cp_options *out, paimon_error *err) {
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "GET", db, NULL, NULL, NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  if (res.status == 404)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  else if (res.status != 200)
    rc = cp_rest_error(r, &res, "get database", err);
  else
    rc = cp_rest_database_from_json(res.body, out, err);
  cp_rest_result_free(&res);
  if (rc) cp_options_free(out);
  return rc;
}

int cp_rest_alter_database(cp_rest *r, const char *db, const paimon_property_change *changes,
                           size_t n, bool ignore_if_not_exists, paimon_error *err) {
  json_t *removals = json_array(), *updates = json_object();
  int rc = removals && updates ? PAIMON_OK : CP_ENOMEM(err, "request");
  for (size_t i = 0; !rc && i < n; i++) {
    int bad = changes[i].value
                  ? json_object_set_new(updates, changes[i].key, json_string(changes[i].value))
                  : json_array_append_new(removals, json_string(changes[i].key));
    if (bad) rc = CP_ENOMEM(err, "request");
  }
  json_t *body = NULL;
  if (!rc && !(body = json_pack("{s:O, s:O}", "removals", removals, "updates", updates)))
    rc = CP_ENOMEM(err, "request");
  json_decref(removals);
  json_decref(updates);
  cp_rest_result res = {0};
  if (!rc) rc = call(r, "POST", db, NULL, NULL, NULL, 0, body, &res, err);
  json_decref(body);
  if (rc) return rc;
  if (res.status == 404 && !ignore_if_not_exists)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  else if (res.status != 200 && res.status != 404)
    rc = cp_rest_error(r, &res, "alter database", err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_drop_database(cp_rest *r, const char *db, bool ignore_if_not_exists, bool cascade,
                          paimon_error *err) {
  bool exists;
  CP_RETURN_IF_ERROR(cp_rest_database_exists(r, db, &exists, err));
  if (!exists)
    return ignore_if_not_exists
               ? PAIMON_OK
               : paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  /* as both clients do: the server drops unconditionally, so the client refuses first */
  paimon_string_list tables;
  CP_RETURN_IF_ERROR(cp_rest_list_tables(r, db, &tables, err));
  size_t n = tables.count;
  paimon_string_list_free(&tables);
  if (n && !cascade) return paimon_error_set(err, PAIMON_ESTATE, "Database %s is not empty.", db);
  cp_rest_result res;
  int rc = call(r, "DELETE", db, NULL, NULL, NULL, 0, NULL, &res, err);
  if (!rc && res.status != 200 && !(is(&res, 404, NULL) && ignore_if_not_exists))
    rc = cp_rest_error(r, &res, "drop database", err);
  cp_rest_result_free(&res);
  return rc;
}

/* ---- tables ---- */

int cp_rest_list_tables(cp_rest *r, const char *db, paimon_string_list *out, paimon_error *err) {
  return list_all(r, db, "tables", out, "list tables", err);
}

/* The REST Schema object (fields, keys, options, comment) of a table schema. */
static int schema_json(const cp_table_schema *t, json_t **out, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  json_t *full = NULL;
  int rc = cp_table_schema_write(t, &b, err);
  if (!rc) rc = cp_json_parse(b.data, b.len, "schema", &full, err);
  cp_buf_free(&b);
  if (rc) return rc;
  json_t *s = json_object();
  static const char *const keys[] = {"fields", "partitionKeys", "primaryKeys", "options",
                                     "comment"};
  for (size_t i = 0; s && i < sizeof keys / sizeof *keys; i++) {
    json_t *v = json_object_get(full, keys[i]);
    json_object_set(s, keys[i], v ? v : json_null());
  }
  json_decref(full);
  if (!s) return CP_ENOMEM(err, "request");
  *out = s;
  return PAIMON_OK;
}

int cp_rest_create_table(cp_rest *r, const char *db, const char *table,
                         const cp_table_schema *schema, bool ignore_if_exists, paimon_error *err) {
  json_t *s = NULL;
  CP_RETURN_IF_ERROR(schema_json(schema, &s, err));
  json_t *body =
      json_pack("{s:{s:s, s:s}, s:o}", "identifier", "database", db, "object", table, "schema", s);
  if (!body) return CP_ENOMEM(err, "request");
  cp_buf p = CP_BUF_INIT;
  int rc = table_res(&p, db, NULL, "tables", err);
  cp_rest_result res = {0};
  if (!rc) rc = cp_rest_call(r, "POST", (const char *)p.data, true, NULL, 0, body, &res, err);
  json_decref(body);
  cp_buf_free(&p);
  if (!rc && res.status == 409)
    rc = ignore_if_exists
             ? PAIMON_OK
             : paimon_error_set(err, PAIMON_EEXIST, "Table %s.%s already exists.", db, table);
  else if (!rc && is(&res, 404, "DATABASE"))
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  else if (!rc && res.status != 200)
    rc = cp_rest_error(r, &res, "create table", err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_drop_table(cp_rest *r, const char *db, const char *table, bool ignore_if_not_exists,
                       paimon_error *err) {
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "DELETE", db, table, NULL, NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  if (res.status == 404 && !ignore_if_not_exists)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (res.status != 200 && res.status != 404)
    rc = cp_rest_error(r, &res, "drop table", err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_rename_table(cp_rest *r, const char *db, const char *table, const char *to_db,
                         const char *to_table, bool ignore_if_not_exists, paimon_error *err) {
  json_t *body = json_pack("{s:{s:s, s:s}, s:{s:s, s:s}}", "source", "database", db, "object",
                           table, "destination", "database", to_db, "object", to_table);
  if (!body) return CP_ENOMEM(err, "request");
  cp_rest_result res = {0};
  int rc = cp_rest_call(r, "POST", "tables/rename", true, NULL, 0, body, &res, err);
  json_decref(body);
  if (rc) return rc;
  if (is(&res, 404, "DATABASE") && res.resource_type[0])
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", to_db);
  else if (res.status == 404 && !ignore_if_not_exists)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (res.status == 409)
    rc = paimon_error_set(err, PAIMON_EEXIST, "Table %s.%s already exists.", to_db, to_table);
  else if (res.status != 200 && res.status != 404)
    rc = cp_rest_error(r, &res, "rename table", err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_load_table(cp_rest *r, const char *db, const char *table, cp_rest_table *out,
                       paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "GET", db, table, NULL, NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  if (res.status == 404)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (res.status != 200)
    rc = cp_rest_error(r, &res, "get table", err);
  if (!rc) rc = cp_rest_table_from_json(res.body, out, err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_table_from_json(const json_t *body, cp_rest_table *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  const char *id = NULL, *path = NULL;
  int rc = cp_json_get_string(body, "id", "GetTableResponse", &id, err);
  if (!rc) rc = cp_json_get_string(body, "path", "GetTableResponse", &path, err);
  if (!rc) rc = cp_json_get_int64(body, "schemaId", "GetTableResponse", &out->schema_id, err);
  if (!rc && !*path)
    rc = paimon_error_set(err, PAIMON_ECORRUPT, "GetTableResponse: the table path is empty");
  if (!rc) out->external = json_is_true(json_object_get(body, "isExternal"));
  if (!rc && (!(out->id = strdup(id)) || !(out->path = strdup(path)))) rc = CP_ENOMEM(err, "table");
  if (rc) cp_rest_table_free(out);
  return rc;
}

void cp_rest_table_free(cp_rest_table *t) {
  free(t->id);
  free(t->path);
  memset(t, 0, sizeof *t);
}

/* The JSON form of SQL type text. */
static int type_json(const char *sql, json_t **out, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(sql, &t, err));
  int rc = cp_type_to_json(t, out, err);
  cp_type_free(t);
  return rc;
}

/* A change's fieldNames: its path, or its one top-level name. */
static json_t *field_names_json(const paimon_schema_change *c) {
  json_t *a = json_array();
  if (!a) return NULL;
  size_t n = c->n_path ? c->n_path : 1;
  for (size_t i = 0; i < n; i++) {
    const char *name = c->n_path ? c->path[i] : c->name;
    if (json_array_append_new(a, json_string(name ? name : "")) != 0) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* One SchemaChange object (OpenAPI `SchemaChange`, as pypaimon sends them). */
static int change_json(const paimon_schema_change *c, json_t **out, paimon_error *err) {
  json_t *o = NULL;
  json_t *names = NULL;
  switch (c->kind) {
  case PAIMON_ADD_COLUMN:
  case PAIMON_RENAME_COLUMN:
  case PAIMON_DROP_COLUMN:
  case PAIMON_UPDATE_COLUMN_COMMENT:
  case PAIMON_UPDATE_COLUMN_TYPE:
  case PAIMON_UPDATE_COLUMN_NULLABILITY:
    names = field_names_json(c);
    if (!names) return CP_ENOMEM(err, "request");
    break;
  default: break;
  }
  switch (c->kind) {
  case PAIMON_SET_OPTION:
    o = json_pack("{s:s, s:s, s:s}", "action", "setOption", "key", c->name, "value", c->value);
    break;
  case PAIMON_REMOVE_OPTION:
    o = json_pack("{s:s, s:s}", "action", "removeOption", "key", c->name);
    break;
  case PAIMON_ADD_COLUMN: {
    json_t *type = NULL;
    int rc = type_json(c->type, &type, err);
    if (rc) {
      json_decref(names);
      return rc;
    }
    json_t *move = json_null();
    if (c->value) {
      char kind[8] = {0};
      for (size_t i = 0; c->value[i] && i < sizeof kind - 1; i++)
        kind[i] = (char)toupper((unsigned char)c->value[i]);
      move =
          json_pack("{s:s, s:s?, s:s}", "fieldName", c->n_path ? c->path[c->n_path - 1] : c->name,
                    "referenceFieldName", c->reference, "type", kind);
    }
    o = json_pack("{s:o, s:o, s:s?, s:o?, s:s}", "fieldNames", names, "dataType", type, "comment",
                  c->comment, "move", move, "action", "addColumn");
    break;
  }
  case PAIMON_RENAME_COLUMN:
    o = json_pack("{s:o, s:s, s:s}", "fieldNames", names, "newName", c->value, "action",
                  "renameColumn");
    break;
  case PAIMON_DROP_COLUMN:
    o = json_pack("{s:o, s:s}", "fieldNames", names, "action", "dropColumn");
    break;
  case PAIMON_UPDATE_COMMENT:
    o = json_pack("{s:s?, s:s}", "comment", c->value, "action", "updateComment");
    break;
  case PAIMON_UPDATE_COLUMN_COMMENT:
    o = json_pack("{s:o, s:s?, s:s}", "fieldNames", names, "newComment", c->comment, "action",
                  "updateColumnComment");
    break;
  case PAIMON_UPDATE_COLUMN_TYPE: {
    json_t *type = NULL;
    int rc = type_json(c->type, &type, err);
    if (rc) {
      json_decref(names);
      return rc;
    }
    bool keep = c->value && strcmp(c->value, "keep-nullability") == 0;
    o = json_pack("{s:o, s:o, s:b, s:s}", "fieldNames", names, "newDataType", type,
                  "keepNullability", keep, "action", "updateColumnType");
    break;
  }
  case PAIMON_UPDATE_COLUMN_NULLABILITY:
    o = json_pack("{s:o, s:b, s:s}", "fieldNames", names, "newNullability",
                  c->value && strcmp(c->value, "true") == 0, "action", "updateColumnNullability");
    break;
  case PAIMON_UPDATE_COLUMN_POSITION: {
    char kind[8] = {0};
    for (size_t i = 0; c->value && c->value[i] && i < sizeof kind - 1; i++)
      kind[i] = (char)toupper((unsigned char)c->value[i]);
    o = json_pack("{s:{s:s, s:s?, s:s}, s:s}", "move", "fieldName", c->name, "referenceFieldName",
                  c->reference, "type", kind, "action", "updateColumnPosition");
    break;
  }
  default: return paimon_error_set(err, PAIMON_EUNSUPPORTED, "schema change %d", (int)c->kind);
  }
  if (!o) return CP_ENOMEM(err, "request");
  *out = o;
  return PAIMON_OK;
}

int cp_rest_alter_table(cp_rest *r, const char *db, const char *table,
                        const paimon_schema_change *changes, size_t n, paimon_error *err) {
  json_t *list = json_array();
  int rc = list ? PAIMON_OK : CP_ENOMEM(err, "request");
  for (size_t i = 0; i < n && !rc; i++) {
    json_t *c = NULL;
    rc = change_json(&changes[i], &c, err);
    if (!rc) json_array_append_new(list, c);
  }
  json_t *body = rc ? NULL : json_pack("{s:o}", "changes", list);
  if (!rc && !body) rc = CP_ENOMEM(err, "request");
  if (rc) json_decref(list);
  cp_rest_result res = {0};
  if (!rc) rc = call(r, "POST", db, table, NULL, NULL, 0, body, &res, err);
  if (body) json_decref(body);
  if (!rc && is(&res, 404, "TABLE"))
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (!rc && res.status != 200)
    rc = cp_rest_error(r, &res, "alter table", err);
  cp_rest_result_free(&res);
  return rc;
}

/* ---- partitions ---- */

static int json_i64(const json_t *o, const char *key, int64_t fallback, int64_t *out,
                    paimon_error *err) {
  const json_t *v = json_object_get(o, key);
  if (!v || json_is_null(v)) {
    *out = fallback;
    return PAIMON_OK;
  }
  if (!json_is_integer(v))
    return paimon_error_set(err, PAIMON_ECORRUPT, "Partition: %s is not an integer", key);
  *out = (int64_t)json_integer_value(v);
  return PAIMON_OK;
}

int cp_rest_partition_from_json(const json_t *o, paimon_partition *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  const json_t *spec = json_is_object(o) ? json_object_get(o, "spec") : NULL;
  if (!json_is_object(spec))
    return paimon_error_set(err, PAIMON_ECORRUPT, "Partition has no spec object");
  size_t n = json_object_size(spec);
  out->spec_keys = calloc(n ? n : 1, sizeof *out->spec_keys);
  out->spec_values = calloc(n ? n : 1, sizeof *out->spec_values);
  int rc = out->spec_keys && out->spec_values ? PAIMON_OK : CP_ENOMEM(err, "partition");
  const char *k;
  const json_t *v;
  json_object_foreach((json_t *)spec, k, v) {
    if (rc) break;
    const char *s = json_string_value(v);
    if (!s) {
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "Partition: spec value of %s is not a string", k);
      break;
    }
    out->spec_keys[out->n_spec] = strdup(k);
    out->spec_values[out->n_spec] = strdup(s);
    if (!out->spec_keys[out->n_spec] || !out->spec_values[out->n_spec])
      rc = CP_ENOMEM(err, "partition");
    out->n_spec++;
  }
  if (!rc) rc = json_i64(o, "recordCount", 0, &out->record_count, err);
  if (!rc) rc = json_i64(o, "fileSizeInBytes", 0, &out->file_size_in_bytes, err);
  if (!rc) rc = json_i64(o, "fileCount", 0, &out->file_count, err);
  if (!rc) rc = json_i64(o, "lastFileCreationTime", -1, &out->last_file_creation_time, err);
  out->done = json_is_true(json_object_get(o, "done"));
  return rc;
}

static int add_partition(json_t *v, void *ctx, paimon_error *err) {
  paimon_partition_list *out = ctx;
  paimon_partition *grown = realloc(out->items, (out->count + 1) * sizeof *grown);
  if (!grown) return CP_ENOMEM(err, "partitions");
  out->items = grown;
  /* counted before parsing, so that a half-parsed entry is freed with the list */
  return cp_rest_partition_from_json(v, &out->items[out->count++], err);
}

int cp_rest_list_partitions(cp_rest *r, const char *db, const char *table,
                            paimon_partition_list *out, bool *tracked, paimon_error *err) {
  memset(out, 0, sizeof *out);
  *tracked = false;
  cp_buf path = CP_BUF_INIT;
  int rc = table_res(&path, db, table, "partitions", err);
  cp_rest_result stop = {0};
  if (!rc)
    rc = page_all(r, (const char *)path.data, "partitions", add_partition, out, &stop,
                  "list partitions", err);
  if (!rc && stop.status == 501) {
    /* the server keeps no partitions for this table: not an error */
  } else if (!rc && stop.status == 404) {
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  } else if (!rc && stop.status) {
    rc = cp_rest_error(r, &stop, "list partitions", err);
  } else if (!rc) {
    *tracked = true;
  }
  cp_rest_result_free(&stop);
  cp_buf_free(&path);
  if (rc) paimon_partition_list_free(out);
  return rc;
}

/* ---- snapshots and commits ---- */

int cp_rest_latest_snapshot(cp_rest *r, const char *db, const char *table, cp_snapshot **out,
                            paimon_error *err) {
  *out = NULL;
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "GET", db, table, "snapshot", NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  if (is(&res, 404, "SNAPSHOT") && strcmp(res.resource_type, "SNAPSHOT") == 0) {
    /* no snapshot yet */
  } else if (res.status == 404) {
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  } else if (res.status != 200) {
    rc = cp_rest_error(r, &res, "load the latest snapshot", err);
  } else {
    rc = cp_rest_snapshot_from_json(res.body, out, err);
    if (rc)
      paimon_error_prefix(err, "REST catalog %s: latest snapshot of %s.%s", cp_rest_uri(r), db,
                          table);
  }
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_snapshot_from_json(const json_t *body, cp_snapshot **out, paimon_error *err) {
  *out = NULL;
  json_t *ts = json_is_object(body) ? json_object_get(body, "snapshot") : NULL;
  json_t *snap = json_is_object(ts) ? json_object_get(ts, "snapshot") : NULL;
  char *text = json_is_object(snap) ? json_dumps(snap, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  if (!text)
    return paimon_error_set(err, PAIMON_ECORRUPT, "GetTableSnapshotResponse has no snapshot");
  int rc = cp_snapshot_parse(text, strlen(text), "GetTableSnapshotResponse", out, err);
  free(text);
  return rc;
}

int cp_rest_commit(cp_rest *r, const char *db, const char *table, const char *table_id,
                   const char *base_uuid, const cp_snapshot *snap, json_t *statistics,
                   bool *success, paimon_error *err) {
  *success = false;
  cp_buf text = CP_BUF_INIT;
  json_t *snap_json = NULL;
  int rc = cp_snapshot_write(snap, &text, err);
  if (!rc) rc = cp_json_parse(text.data, text.len, "snapshot", &snap_json, err);
  cp_buf_free(&text);
  if (rc) return rc;
  json_t *body = json_pack("{s:s, s:s?, s:o, s:O}", "tableId", table_id, "baseSnapshotUuid",
                           base_uuid, "snapshot", snap_json, "statistics", statistics);
  if (!body) return CP_ENOMEM(err, "request");
  cp_rest_result res = {0};
  rc = call(r, "POST", db, table, "commit", NULL, 0, body, &res, err);
  json_decref(body);
  if (!rc && res.status == 404)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (!rc && res.status != 200)
    rc = cp_rest_error(r, &res, "commit", err);
  if (!rc) *success = json_is_true(json_object_get(res.body, "success"));
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_table_token(cp_rest *r, const char *db, const char *table, cp_options *token,
                        int64_t *expires_at_millis, paimon_error *err) {
  cp_rest_result res;
  CP_RETURN_IF_ERROR(call(r, "GET", db, table, "token", NULL, 0, NULL, &res, err));
  int rc = PAIMON_OK;
  if (res.status == 404)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s.%s does not exist.", db, table);
  else if (res.status != 200)
    rc = cp_rest_error(r, &res, "get the data token", err);
  if (!rc) rc = cp_rest_token_from_json(res.body, token, expires_at_millis, err);
  cp_rest_result_free(&res);
  return rc;
}

int cp_rest_token_from_json(const json_t *body, cp_options *token, int64_t *expires_at_millis,
                            paimon_error *err) {
  *expires_at_millis = 0;
  if (!json_is_object(body))
    return paimon_error_set(err, PAIMON_ECORRUPT, "GetTableTokenResponse: not an object");
  json_t *map = json_object_get(body, "token");
  const char *k;
  json_t *v;
  int rc = PAIMON_OK;
  if (json_is_object(map)) {
    json_object_foreach(map, k, v) {
      if (rc) break;
      if (json_is_string(v)) rc = cp_options_set(token, k, json_string_value(v), err);
    }
  }
  bool present = false;
  if (!rc)
    rc = cp_json_get_opt_int64(body, "expiresAtMillis", "GetTableTokenResponse", expires_at_millis,
                               &present, err);
  return rc;
}
