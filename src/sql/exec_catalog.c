/*
 * Catalog statements (docs/sql.md, "Databases and tables"): CREATE / DROP DATABASE, USE,
 * SHOW DATABASES / TABLES, DESCRIBE [EXTENDED], CREATE / DROP TABLE and ALTER TABLE, executed
 * through include/cpaimon/catalog.h. Result tables have Spark's columns: SHOW DATABASES
 * (namespace), SHOW TABLES (namespace, tableName, isTemporary), DESCRIBE (col_name, data_type,
 * comment) with Spark's type names and its "# Partition Information" section.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"
#include "sql/result_table.h"

/* ---- databases ------------------------------------------------------------------------------ */

int cp_sql_ensure_database(cp_sql_session *s, const char *db, paimon_error *err) {
  if (strcmp(db, CP_SQL_DEFAULT_DATABASE) != 0) return PAIMON_OK;
  return paimon_catalog_create_database(s->catalog, db, true, err);
}

static int at_stmt(const cp_sql_stmt *stmt, int rc, paimon_error *err) {
  if (rc && rc != PAIMON_ENOMEM && err && strncmp(err->message, "line ", 5) != 0)
    paimon_error_prefix(err, "line %d:%d", stmt->pos.line, stmt->pos.col);
  return rc;
}

static int use_database(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const char *db = stmt->name.parts[0];
  bool exists = strcmp(db, CP_SQL_DEFAULT_DATABASE) == 0; /* Spark's, always there */
  if (!exists) CP_RETURN_IF_ERROR(paimon_catalog_database_exists(s->catalog, db, &exists, err));
  if (!exists) return paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  char *copy = strdup(db);
  if (!copy) return CP_ENOMEM(err, "USE");
  free(s->database);
  s->database = copy;
  return PAIMON_OK;
}

static int show_databases(cp_sql_session *s, cp_sql_result *out, paimon_error *err) {
  static const char *const names[] = {"namespace"};
  paimon_string_list list = {NULL, 0};
  cp_sql_text_table t = {0};
  /* The default database is listed whether or not a write has created its directory yet (a
   * read creates nothing). */
  int rc = paimon_catalog_list_databases(s->catalog, &list, err);
  if (!rc) rc = cp_sql_text_table_init(&t, names, 1, err);
  const char *dflt[] = {CP_SQL_DEFAULT_DATABASE};
  bool shown = false;
  for (size_t i = 0; !rc && i < list.count; i++) {
    int cmp = strcmp(list.items[i], dflt[0]);
    if (!shown && cmp >= 0) {
      shown = true;
      if (cmp > 0) rc = cp_sql_text_table_row(&t, dflt, err);
    }
    const char *cells[] = {list.items[i]};
    if (!rc) rc = cp_sql_text_table_row(&t, cells, err);
  }
  if (!rc && !shown) rc = cp_sql_text_table_row(&t, dflt, err);
  if (!rc) rc = cp_sql_text_table_finish(&t, out, err);
  cp_sql_text_table_free(&t);
  paimon_string_list_free(&list);
  return rc;
}

static int cmp_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* SHOW PARTITIONS t: one row "k=v/k2=v2" per partition with data, in spec order (Spark's). */
static int show_partitions(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                           paimon_error *err) {
  static const char *const names[] = {"partition"};
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &stmt->name, &t, err));
  paimon_partition_list list = {0};
  cp_sql_text_table tt = {0};
  int rc = t.table && paimon_table_partition_key_count(t.table) == 0
               ? cp_sql_error_at(err, PAIMON_EINVAL, stmt->pos,
                                 "SHOW PARTITIONS is not allowed on a table that is not "
                                 "partitioned: %s",
                                 t.ident)
               : paimon_catalog_list_partitions(s->catalog, t.ident, &list, err);
  if (!rc) rc = cp_sql_text_table_init(&tt, names, 1, err);
  char **texts = calloc(list.count + 1, sizeof *texts);
  if (!rc && !texts) rc = CP_ENOMEM(err, "SHOW PARTITIONS");
  for (size_t i = 0; !rc && i < list.count; i++) {
    cp_buf b = CP_BUF_INIT;
    for (size_t k = 0; !rc && k < list.items[i].n_spec; k++)
      rc = cp_buf_appendf(&b, err, "%s%s=%s", k ? "/" : "", list.items[i].spec_keys[k],
                          list.items[i].spec_values[k]);
    if (!rc) rc = cp_buf_nul_terminate(&b, err);
    if (!rc) texts[i] = (char *)cp_buf_detach(&b);
    cp_buf_free(&b);
  }
  if (!rc) qsort(texts, list.count, sizeof *texts, cmp_text);
  for (size_t i = 0; !rc && i < list.count; i++) {
    const char *cells[] = {texts[i]};
    rc = cp_sql_text_table_row(&tt, cells, err);
  }
  if (!rc) rc = cp_sql_text_table_finish(&tt, out, err);
  for (size_t i = 0; texts && i < list.count; i++) free(texts[i]);
  free(texts);
  cp_sql_text_table_free(&tt);
  paimon_partition_list_free(&list);
  cp_sql_table_close(&t);
  return rc;
}

static int show_tables(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                       paimon_error *err) {
  static const char *const names[] = {"namespace", "tableName", "isTemporary"};
  const char *db = stmt->name.n ? stmt->name.parts[0] : s->database;
  paimon_string_list list = {NULL, 0};
  bool exists = false;
  int rc = paimon_catalog_database_exists(s->catalog, db, &exists, err);
  if (!rc && !exists && strcmp(db, CP_SQL_DEFAULT_DATABASE) != 0)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  if (!rc && exists) rc = paimon_catalog_list_tables(s->catalog, db, &list, err);
  cp_sql_text_table t = {0};
  memset(&t, 0, sizeof t);
  if (!rc) rc = cp_sql_text_table_init(&t, names, 3, err);
  for (size_t i = 0; !rc && i < list.count; i++) {
    const char *cells[] = {db, list.items[i], "false"};
    rc = cp_sql_text_table_row(&t, cells, err);
  }
  if (!rc) rc = cp_sql_text_table_finish(&t, out, err);
  cp_sql_text_table_free(&t);
  paimon_string_list_free(&list);
  return rc;
}

/* ---- DESCRIBE ------------------------------------------------------------------------------- */

static int describe_column(cp_sql_text_table *out, const cp_field *f, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  int rc = cp_sql_spark_type(f->type, false, &b, err);
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (!rc) {
    const char *cells[] = {f->name, (const char *)b.data, f->description};
    rc = cp_sql_text_table_row(out, cells, err);
  }
  cp_buf_free(&b);
  return rc;
}

static int describe_extended(cp_sql_text_table *out, const cp_sql_table *t, paimon_error *err) {
  int64_t latest = 0;
  CP_RETURN_IF_ERROR(paimon_table_latest_snapshot_id(t->table, &latest, err));
  char snap[32], schema_id[32];
  snprintf(snap, sizeof snap, "%lld", (long long)latest);
  snprintf(schema_id, sizeof schema_id, "%lld", (long long)paimon_table_schema_id(t->table));
  char *json = NULL;
  CP_RETURN_IF_ERROR(paimon_table_schema_json(t->table, &json, err));
  /* Table properties as Spark lists them: [k=v, ...], the schema's options in file order. */
  cp_buf props = CP_BUF_INIT;
  int rc = cp_buf_appendf(&props, err, "[");
  json_t *doc = json_loads(json, 0, NULL);
  json_t *options = doc ? json_object_get(doc, "options") : NULL;
  const char *key;
  json_t *value;
  bool first = true;
  json_object_foreach(options, key, value) {
    if (rc || !json_is_string(value)) continue;
    rc = cp_buf_appendf(&props, err, "%s%s=%s", first ? "" : ", ", key, json_string_value(value));
    first = false;
  }
  json_decref(doc);
  if (!rc) rc = cp_buf_appendf(&props, err, "]");
  if (!rc) rc = cp_buf_nul_terminate(&props, err);
  const char *rows[][3] = {{"", "", ""},
                           {"# Detailed Table Information", "", ""},
                           {"Name", t->ident, ""},
                           {"Type", "TABLE", ""},
                           {"Provider", "paimon", ""},
                           {"Location", paimon_table_path(t->table), ""},
                           {"Schema Id", schema_id, ""},
                           {"Latest Snapshot", snap, ""},
                           {"Table Properties", props.data ? (const char *)props.data : "[]", ""}};
  for (size_t i = 0; !rc && i < sizeof rows / sizeof rows[0]; i++)
    rc = cp_sql_text_table_row(out, rows[i], err);
  cp_buf_free(&props);
  free(json);
  return rc;
}

static int describe(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                    paimon_error *err) {
  static const char *const names[] = {"col_name", "data_type", "comment"};
  cp_sql_table t;
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &stmt->name, &t, err));
  cp_sql_text_table tt;
  int rc = cp_sql_text_table_init(&tt, names, 3, err);
  for (size_t i = 0; !rc && i < t.row->n_fields; i++)
    rc = describe_column(&tt, &t.row->fields[i], err);
  size_t n_part = paimon_table_partition_key_count(t.table);
  if (!rc && n_part) {
    const char *head[] = {"# Partition Information", "", ""};
    const char *cols[] = {"# col_name", "data_type", "comment"};
    rc = cp_sql_text_table_row(&tt, head, err);
    if (!rc) rc = cp_sql_text_table_row(&tt, cols, err);
    for (size_t i = 0; !rc && i < n_part; i++) {
      const cp_field *f = cp_row_find_field(t.row, paimon_table_partition_key(t.table, i));
      if (f) rc = describe_column(&tt, f, err);
    }
  }
  if (!rc && stmt->extended) rc = describe_extended(&tt, &t, err);
  if (!rc) rc = cp_sql_text_table_finish(&tt, out, err);
  cp_sql_text_table_free(&tt);
  cp_sql_table_close(&t);
  return rc;
}

/* ---- CREATE / DROP TABLE -------------------------------------------------------------------- */

static int create_table(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_create_table *c = &stmt->create;
  char *db = NULL, *name = NULL, *ident = NULL;
  paimon_schema *schema = NULL;
  CP_RETURN_IF_ERROR(cp_sql_split_name(s, &c->table, &db, &name, err));
  int rc = asprintf(&ident, "%s.%s", db, name) < 0 ? CP_ENOMEM(err, "CREATE TABLE") : 0;
  if (!rc) rc = paimon_schema_new(&schema, err);
  for (size_t i = 0; !rc && i < c->n_columns; i++) {
    const cp_sql_column_def *col = &c->columns[i];
    /* Names resolve case-insensitively, so two columns may not differ only in case (Spark). */
    for (size_t j = 0; !rc && j < i; j++)
      if (strcasecmp(c->columns[j].name, col->name) == 0)
        rc = cp_sql_error_at(err, PAIMON_EINVAL, col->pos, "The column %s already exists.",
                             col->name);
    if (!rc) rc = paimon_schema_add_column(schema, col->name, col->type, col->comment, err);
    if (rc)
      paimon_error_prefix(err, "line %d:%d: column %s", col->pos.line, col->pos.col, col->name);
  }
  if (!rc && c->n_partition_keys) {
    /* Partition keys name columns case-insensitively; the schema wants their exact names. */
    const char **keys = calloc(c->n_partition_keys, sizeof *keys);
    rc = keys ? PAIMON_OK : CP_ENOMEM(err, "CREATE TABLE");
    for (size_t i = 0; !rc && i < c->n_partition_keys; i++) {
      keys[i] = c->partition_keys[i];
      for (size_t j = 0; j < c->n_columns; j++)
        if (strcasecmp(c->columns[j].name, keys[i]) == 0) keys[i] = c->columns[j].name;
    }
    if (!rc) rc = paimon_schema_set_partition_keys(schema, keys, c->n_partition_keys, err);
    if (rc && rc != PAIMON_ENOMEM)
      paimon_error_prefix(err, "line %d:%d", c->partition_pos.line, c->partition_pos.col);
    free(keys);
  }
  for (size_t i = 0; !rc && i < c->n_properties; i++)
    rc = paimon_schema_set_option(schema, c->properties[i].key, c->properties[i].value, err);
  if (!rc && c->comment) rc = paimon_schema_set_comment(schema, c->comment, err);
  if (!rc) rc = cp_sql_ensure_database(s, db, err);
  if (!rc) rc = paimon_catalog_create_table(s->catalog, ident, schema, c->if_not_exists, err);
  paimon_schema_free(schema);
  free(db);
  free(name);
  free(ident);
  return rc;
}

static int drop_table(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  char *db = NULL, *name = NULL, *ident = NULL;
  CP_RETURN_IF_ERROR(cp_sql_split_name(s, &stmt->name, &db, &name, err));
  int rc = asprintf(&ident, "%s.%s", db, name) < 0 ? CP_ENOMEM(err, "DROP TABLE") : 0;
  if (!rc) rc = paimon_catalog_drop_table(s->catalog, ident, stmt->if_exists, err);
  free(db);
  free(name);
  free(ident);
  return rc;
}

/* CREATE DATABASE d [COMMENT c] [LOCATION l] [WITH DBPROPERTIES (...)]: the comment is the
 * option "comment", the location "location" (a file-system catalog refuses it, as Java's). */
static int create_database(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_create_table *c = &stmt->create;
  size_t n = c->n_properties + (c->comment ? 1 : 0);
  const char **keys = calloc(n + 1, sizeof *keys), **values = calloc(n + 1, sizeof *values);
  int rc = keys && values ? PAIMON_OK : CP_ENOMEM(err, "CREATE DATABASE");
  size_t k = 0;
  if (!rc && c->comment) {
    keys[k] = "comment";
    values[k++] = c->comment;
  }
  for (size_t i = 0; !rc && i < c->n_properties; i++, k++) {
    keys[k] = c->properties[i].key;
    values[k] = c->properties[i].value;
  }
  if (!rc)
    rc = paimon_catalog_create_database_options(s->catalog, stmt->name.parts[0],
                                                stmt->if_not_exists, keys, values, k, err);
  free(keys);
  free(values);
  return rc;
}

static int alter_database(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_create_table *c = &stmt->create;
  paimon_property_change *ch = calloc(c->n_properties + 1, sizeof *ch);
  if (!ch) return CP_ENOMEM(err, "ALTER DATABASE");
  for (size_t i = 0; i < c->n_properties; i++) {
    ch[i].key = c->properties[i].key;
    ch[i].value = c->properties[i].value;
  }
  int rc = paimon_catalog_alter_database(s->catalog, stmt->name.parts[0], ch, c->n_properties,
                                         false, err);
  free(ch);
  return rc;
}

int cp_sql_exec_catalog(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                        paimon_error *err) {
  int rc;
  switch (stmt->kind) {
  case CP_SQL_S_CREATE_DATABASE: rc = create_database(s, stmt, err); break;
  case CP_SQL_S_ALTER_DATABASE: rc = alter_database(s, stmt, err); break;
  case CP_SQL_S_DROP_DATABASE:
    rc = paimon_catalog_drop_database(s->catalog, stmt->name.parts[0], stmt->if_exists,
                                      stmt->cascade, err);
    break;
  case CP_SQL_S_USE: rc = use_database(s, stmt, err); break;
  case CP_SQL_S_SHOW_DATABASES: rc = show_databases(s, out, err); break;
  case CP_SQL_S_SHOW_TABLES: rc = show_tables(s, stmt, out, err); break;
  case CP_SQL_S_DESCRIBE: rc = describe(s, stmt, out, err); break;
  case CP_SQL_S_CREATE_TABLE: rc = create_table(s, stmt, err); break;
  case CP_SQL_S_DROP_TABLE: rc = drop_table(s, stmt, err); break;
  case CP_SQL_S_ALTER_TABLE:
  case CP_SQL_S_TRUNCATE: rc = cp_sql_exec_alter(s, stmt, err); break;
  case CP_SQL_S_SHOW_PARTITIONS: rc = show_partitions(s, stmt, out, err); break;
  case CP_SQL_S_CALL: rc = cp_sql_exec_call(s, stmt, out, err); break;
  default: rc = paimon_error_set(err, PAIMON_EINVAL, "not a catalog statement"); break;
  }
  return at_stmt(stmt, rc, err);
}
