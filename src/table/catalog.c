/*
 * The filesystem catalog (include/cpaimon/catalog.h; spec/format.md §1.1): databases are
 * `<warehouse>/<db>.db` directories (no properties stored), a table exists iff its schema/
 * directory holds a schema-N file. Also the schema builder and create-table validation
 * (data-evolution.md §0, Java SchemaValidation).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "base/time.h"
#include "table/file_io.h"
#include "table/rest_catalog.h"
#include "table/system_table.h"
#include "table/store.h"
#include "table/table.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

void paimon_string_list_free(paimon_string_list *list) {
  if (!list) return;
  for (size_t i = 0; i < list->count; i++) free(list->items[i]);
  free(list->items);
  list->items = NULL;
  list->count = 0;
}

static int list_push(paimon_string_list *l, const char *s, size_t n, paimon_error *err) {
  char **items = realloc(l->items, (l->count + 1) * sizeof *items);
  if (!items) return CP_ENOMEM(err, "list");
  l->items = items;
  if (!(items[l->count] = strndup(s, n))) return CP_ENOMEM(err, "list");
  l->count++;
  return PAIMON_OK;
}

int cp_catalog_fs_conf(const paimon_catalog *c, const cp_options *extra, cp_fs_conf *out,
                       paimon_error *err) {
  /* a REST catalog's options as merged with the server's configuration */
  const cp_options *base = c->rest ? cp_rest_options(c->rest) : &c->options;
  size_t n = base->n + (extra ? extra->n : 0);
  const char **keys = malloc((n ? n : 1) * sizeof *keys);
  const char **values = malloc((n ? n : 1) * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    return CP_ENOMEM(err, "options");
  }
  size_t k = 0;
  for (size_t i = 0; i < base->n; i++, k++) {
    keys[k] = base->keys[i];
    values[k] = base->values[i];
  }
  for (size_t i = 0; extra && i < extra->n; i++, k++) {
    keys[k] = extra->keys[i];
    values[k] = extra->values[i];
  }
  *out = (cp_fs_conf){keys, values, n};
  return PAIMON_OK;
}

int paimon_catalog_open_options(paimon_catalog **out, const char *const *keys,
                                const char *const *values, size_t n, paimon_error *err) {
  *out = NULL;
  const char *warehouse = NULL, *metastore = NULL;
  for (size_t i = 0; i < n; i++) {
    if (!keys[i] || !values[i])
      return paimon_error_set(err, PAIMON_EINVAL, "catalog: option %zu has no %s", i,
                              keys[i] ? "value" : "key");
    if (strcmp(keys[i], "warehouse") == 0) warehouse = values[i];
    if (strcmp(keys[i], "metastore") == 0) metastore = values[i];
  }
  bool rest = metastore && strcmp(metastore, "rest") == 0;
  if (metastore && !rest && strcmp(metastore, "filesystem") != 0)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "catalog: metastore '%s' is not supported (filesystem or rest)",
                            metastore);
  if (!warehouse || !*warehouse)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "catalog: option 'warehouse' (a directory path or URI) is required");
  paimon_catalog *c = calloc(1, sizeof *c);
  if (!c) return CP_ENOMEM(err, "catalog");
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) rc = cp_options_set(&c->options, keys[i], values[i], err);
  /* "file:///w" is the local directory "/w"; every other form is kept as written. */
  const char *w = strncmp(warehouse, "file://", 7) == 0 ? warehouse + 7 : warehouse;
  if (!rc && !(c->warehouse = strdup(w))) rc = CP_ENOMEM(err, "catalog");
  if (!rc && rest) {
    rc = cp_rest_open(&c->rest, &c->options, err);
  } else if (!rc) {
    size_t len = strlen(c->warehouse);
    while (len > 1 && c->warehouse[len - 1] == '/') c->warehouse[--len] = '\0';
    cp_fs_conf conf;
    rc = cp_catalog_fs_conf(c, NULL, &conf, err);
    if (!rc) {
      rc = cp_fs_open(c->warehouse, &conf, &c->fs, err);
      free((void *)conf.keys);
      free((void *)conf.values);
    }
  }
  if (rc) {
    paimon_catalog_free(c);
    return rc;
  }
  *out = c;
  return PAIMON_OK;
}

int paimon_catalog_open(paimon_catalog **out, const char *warehouse, paimon_error *err) {
  const char *keys[] = {"warehouse"}, *values[] = {warehouse};
  return paimon_catalog_open_options(out, keys, values, warehouse ? 1 : 0, err);
}

void paimon_catalog_free(paimon_catalog *c) {
  if (!c) return;
  cp_rest_free(c->rest);
  cp_fs_free(c->fs);
  cp_options_free(&c->options);
  free(c->warehouse);
  free(c);
}

const char *paimon_catalog_warehouse(const paimon_catalog *c) { return c->warehouse; }

/* Database and table names become directory names: refuse what would escape the warehouse. */
static int check_name(const char *what, const char *name, size_t n, paimon_error *err) {
  if (n == 0 || (n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.') ||
      memchr(name, '/', n) || memchr(name, '\0', n))
    return paimon_error_set(err, PAIMON_EINVAL, "invalid %s name '%.*s'", what, (int)n, name);
  return PAIMON_OK;
}

/* Splits "db.table" (the first '.' separates, as Java's Identifier.fromString). */
typedef struct ident {
  char db[256];
  char table[256];
} ident;

/* Java's CatalogUtils.SYSTEM_DATABASE_NAME: the database of the global system tables. */
#define SYSTEM_DATABASE "sys"

/* What Paimon refuses to create (Java CatalogUtils.checkNotSystemDatabase, checkNotBranch,
 * checkNotSystemTable and Identifier.splitObjectName, with their messages): the system database,
 * and a table whose name '$' splits into a system table (t$snapshots), a branch (t$branch_b) or
 * more parts than Paimon reads. `method` is Java's name for the operation ("createTable"). */
static int check_data_table(const char *identifier, const ident *id, const char *method,
                            paimon_error *err) {
  const char *d1 = strchr(id->table, '$');
  const char *d2 = d1 ? strchr(d1 + 1, '$') : NULL;
  if (d2 && strchr(d2 + 1, '$'))
    return paimon_error_set(err, PAIMON_EINVAL, "Invalid object name: %s", id->table);
  bool branch = d1 && strncmp(d1 + 1, "branch_", 7) == 0;
  if (d2 && !branch)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "System table can only contain one '$' separator, but this is: %s",
                            id->table);
  if (branch)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Cannot '%s' for branch table '%s', please modify the table with the "
                            "default branch.",
                            method, identifier);
  if (d1 || strcmp(id->db, SYSTEM_DATABASE) == 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Cannot '%s' for system table '%s', please use data table.", method,
                            identifier);
  return PAIMON_OK;
}

static char *db_path(const paimon_catalog *c, const char *db, size_t n) {
  size_t len = strlen(c->warehouse) + n + 8;
  char *p = malloc(len);
  if (p) snprintf(p, len, "%s/%.*s.db", c->warehouse, (int)n, db);
  return p;
}

int paimon_catalog_database_exists(paimon_catalog *c, const char *name, bool *out,
                                   paimon_error *err) {
  CP_RETURN_IF_ERROR(check_name("database", name, strlen(name), err));
  if (c->rest) return cp_rest_database_exists(c->rest, name, out, err);
  char *p = db_path(c, name, strlen(name));
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_exists(c->fs, p, out, err);
  free(p);
  return rc;
}

int paimon_catalog_create_database(paimon_catalog *c, const char *name, bool ignore_if_exists,
                                   paimon_error *err) {
  return paimon_catalog_create_database_options(c, name, ignore_if_exists, NULL, NULL, 0, err);
}

int paimon_catalog_create_database_options(paimon_catalog *c, const char *name,
                                           bool ignore_if_exists, const char *const *keys,
                                           const char *const *values, size_t n, paimon_error *err) {
  if (strcmp(name, SYSTEM_DATABASE) == 0)
    return paimon_error_set(err, PAIMON_EINVAL, "Can't do operation on system database.");
  /* Java lets a Catalog API caller create it, but every name that is text, in pypaimon, Spark
   * SQL and here, is '<database>.<table>' split at the first '.' (Identifier.fromString): the
   * database's tables could never be named. */
  if (strchr(name, '.'))
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Database name '%s' contains '.': table names are "
                            "'<database>.<table>' split at the first '.', so its tables could "
                            "not be named",
                            name);
  CP_RETURN_IF_ERROR(check_name("database", name, strlen(name), err));
  if (c->rest) {
    cp_options o = CP_OPTIONS_INIT;
    int rc = PAIMON_OK;
    for (size_t i = 0; !rc && i < n; i++) rc = cp_options_set(&o, keys[i], values[i], err);
    if (!rc) rc = cp_rest_create_database(c->rest, name, ignore_if_exists, &o, err);
    cp_options_free(&o);
    return rc;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(keys[i], "location") == 0)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "Cannot specify location for a database when using fileSystem "
                              "catalog.");
  bool exists = false;
  CP_RETURN_IF_ERROR(paimon_catalog_database_exists(c, name, &exists, err));
  if (exists)
    return ignore_if_exists
               ? PAIMON_OK
               : paimon_error_set(err, PAIMON_EEXIST, "Database %s already exists.", name);
  char *p = db_path(c, name, strlen(name));
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_mkdirs(c->fs, p, err);
  free(p);
  return rc;
}

int paimon_catalog_list_databases(paimon_catalog *c, paimon_string_list *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (c->rest) return cp_rest_list_databases(c->rest, out, err);
  cp_fs_list_result l = {0};
  int rc = cp_fs_list(c->fs, c->warehouse, &l, err);
  if (rc == PAIMON_ENOTFOUND) return PAIMON_OK; /* nothing created there yet */
  CP_RETURN_IF_ERROR(rc);
  for (size_t i = 0; i < l.count && !rc; i++) {
    size_t n = strlen(l.entries[i].name);
    if (l.entries[i].is_dir && n > 3 && strcmp(l.entries[i].name + n - 3, ".db") == 0)
      rc = list_push(out, l.entries[i].name, n - 3, err);
  }
  cp_fs_list_free(&l);
  if (rc) paimon_string_list_free(out);
  return rc;
}

int paimon_catalog_list_tables(paimon_catalog *c, const char *db, paimon_string_list *out,
                               paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (c->rest) return cp_rest_list_tables(c->rest, db, out, err);
  bool exists = false;
  CP_RETURN_IF_ERROR(paimon_catalog_database_exists(c, db, &exists, err));
  if (!exists) return paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", db);
  char *p = db_path(c, db, strlen(db));
  if (!p) return CP_ENOMEM(err, "path");
  cp_fs_list_result l = {0};
  int rc = cp_fs_list(c->fs, p, &l, err);
  for (size_t i = 0; i < l.count && !rc; i++) {
    if (!l.entries[i].is_dir) continue;
    char *schema_dir = cp_path_join(p, l.entries[i].name);
    char *sd = schema_dir ? cp_path_join(schema_dir, "schema") : NULL;
    int64_t *ids = NULL;
    size_t n = 0;
    rc = sd ? cp_list_versioned(c->fs, sd, "schema-", &ids, &n, err) : CP_ENOMEM(err, "path");
    if (!rc && n) rc = list_push(out, l.entries[i].name, strlen(l.entries[i].name), err);
    free(ids);
    free(sd);
    free(schema_dir);
  }
  cp_fs_list_free(&l);
  free(p);
  if (rc) paimon_string_list_free(out);
  return rc;
}

static int parse_ident(const char *identifier, ident *out, paimon_error *err) {
  const char *dot = identifier ? strchr(identifier, '.') : NULL;
  if (!dot)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table identifier '%s' must be '<database>.<table>'",
                            identifier ? identifier : "(null)");
  size_t dn = (size_t)(dot - identifier), tn = strlen(dot + 1);
  if (dn >= sizeof out->db || tn >= sizeof out->table)
    return paimon_error_set(err, PAIMON_EINVAL, "table identifier '%s' is too long", identifier);
  CP_RETURN_IF_ERROR(check_name("database", identifier, dn, err));
  CP_RETURN_IF_ERROR(check_name("table", dot + 1, tn, err));
  memcpy(out->db, identifier, dn);
  out->db[dn] = '\0';
  memcpy(out->table, dot + 1, tn + 1);
  return PAIMON_OK;
}

static char *table_path(const paimon_catalog *c, const ident *id) {
  char *db = db_path(c, id->db, strlen(id->db));
  char *p = db ? cp_path_join(db, id->table) : NULL;
  free(db);
  return p;
}

static int table_exists(paimon_catalog *c, const char *path, bool *out, paimon_error *err) {
  char *sd = cp_path_join(path, "schema");
  if (!sd) return CP_ENOMEM(err, "path");
  int64_t *ids;
  size_t n;
  int rc = cp_list_versioned(c->fs, sd, "schema-", &ids, &n, err);
  free(sd);
  free(ids);
  *out = n > 0;
  return rc;
}

int paimon_catalog_get_table(paimon_catalog *c, const char *identifier, paimon_table **out,
                             paimon_error *err) {
  ident id;
  CP_RETURN_IF_ERROR(parse_ident(identifier, &id, err));
  return cp_table_open(c, id.db, id.table, out, err);
}

int paimon_catalog_drop_table(paimon_catalog *c, const char *identifier, bool ignore_if_not_exists,
                              paimon_error *err) {
  ident id;
  CP_RETURN_IF_ERROR(parse_ident(identifier, &id, err));
  CP_RETURN_IF_ERROR(check_data_table(identifier, &id, "dropTable", err));
  if (c->rest) return cp_rest_drop_table(c->rest, id.db, id.table, ignore_if_not_exists, err);
  char *p = table_path(c, &id);
  if (!p) return CP_ENOMEM(err, "path");
  bool exists = false;
  int rc = table_exists(c, p, &exists, err);
  if (!rc && !exists && !ignore_if_not_exists)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s does not exist.", identifier);
  if (!rc && exists) rc = cp_fs_delete_dir(c->fs, p, err);
  free(p);
  return rc;
}

void paimon_partition_list_free(paimon_partition_list *list) {
  if (!list) return;
  for (size_t i = 0; i < list->count; i++) {
    paimon_partition *p = &list->items[i];
    for (size_t k = 0; k < p->n_spec; k++) {
      if (p->spec_keys) free(p->spec_keys[k]);
      if (p->spec_values) free(p->spec_values[k]);
    }
    free(p->spec_keys);
    free(p->spec_values);
  }
  free(list->items);
  memset(list, 0, sizeof *list);
}

int paimon_catalog_list_partitions(paimon_catalog *c, const char *identifier,
                                   paimon_partition_list *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  ident id;
  CP_RETURN_IF_ERROR(parse_ident(identifier, &id, err));
  CP_RETURN_IF_ERROR(check_data_table(identifier, &id, "listPartitions", err));
  if (c->rest) {
    bool tracked = false;
    CP_RETURN_IF_ERROR(cp_rest_list_partitions(c->rest, id.db, id.table, out, &tracked, err));
    if (tracked) return PAIMON_OK;
  }
  paimon_table *t = NULL;
  CP_RETURN_IF_ERROR(paimon_catalog_get_table(c, identifier, &t, err));
  int rc = cp_table_partitions_from_files(t, out, err);
  paimon_table_free(t);
  return rc;
}

int paimon_catalog_rename_table(paimon_catalog *c, const char *from, const char *to,
                                bool ignore_if_not_exists, paimon_error *err) {
  ident src, dst;
  CP_RETURN_IF_ERROR(parse_ident(from, &src, err));
  CP_RETURN_IF_ERROR(parse_ident(to, &dst, err));
  CP_RETURN_IF_ERROR(check_data_table(from, &src, "renameTable", err));
  CP_RETURN_IF_ERROR(check_data_table(to, &dst, "renameTable", err));
  if (c->rest)
    return cp_rest_rename_table(c->rest, src.db, src.table, dst.db, dst.table, ignore_if_not_exists,
                                err);
  char *sp = table_path(c, &src), *dp = table_path(c, &dst);
  bool exists = false;
  int rc = sp && dp ? table_exists(c, sp, &exists, err) : CP_ENOMEM(err, "path");
  if (!rc && !exists && !ignore_if_not_exists)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s does not exist.", from);
  bool go = !rc && exists, dst_db = false;
  if (go) rc = paimon_catalog_database_exists(c, dst.db, &dst_db, err);
  if (go && !rc && !dst_db)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", dst.db);
  bool taken = false;
  if (go && !rc) rc = cp_fs_exists(c->fs, dp, &taken, err);
  if (go && !rc && taken) rc = paimon_error_set(err, PAIMON_EEXIST, "Table %s already exists.", to);
  /* The table's files name each other relative to its directory: moving it keeps it whole. A
   * target created meanwhile makes the rename fail (no replace), never merge. */
  if (go && !rc) {
    rc = cp_fs_rename_noreplace(c->fs, sp, dp, err);
    if (rc == PAIMON_EEXIST) {
      paimon_error_clear(err);
      rc = paimon_error_set(err, PAIMON_EEXIST, "Table %s already exists.", to);
    } else if (rc) {
      paimon_error_prefix(err, "rename table %s to %s", from, to);
    }
  }
  free(sp);
  free(dp);
  return rc;
}

/* Whether database `name` exists; a missing one is ENOTFOUND unless `ignore_if_not_exists`. */
static int database_present(paimon_catalog *c, const char *name, bool ignore_if_not_exists,
                            bool *exists, paimon_error *err) {
  CP_RETURN_IF_ERROR(paimon_catalog_database_exists(c, name, exists, err));
  if (!*exists && !ignore_if_not_exists)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", name);
  return PAIMON_OK;
}

void paimon_database_free(paimon_database *db) {
  if (!db) return;
  for (size_t i = 0; i < db->n_options; i++) {
    free(db->option_keys[i]);
    free(db->option_values[i]);
  }
  free(db->option_keys);
  free(db->option_values);
  free(db->name);
  free(db->comment);
  memset(db, 0, sizeof *db);
}

int paimon_catalog_get_database(paimon_catalog *c, const char *name, paimon_database *out,
                                paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_options o = CP_OPTIONS_INIT;
  int rc = PAIMON_OK;
  if (strcmp(name, SYSTEM_DATABASE) == 0) {
    /* Java: the system database exists in every catalog, with no options */
  } else if (c->rest) {
    rc = cp_rest_get_database(c->rest, name, &o, err);
  } else {
    bool exists = false;
    rc = paimon_catalog_database_exists(c, name, &exists, err);
    if (!rc && !exists)
      rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", name);
  }
  if (!rc && !(out->name = strdup(name))) rc = CP_ENOMEM(err, "database");
  const char *comment = cp_options_get(&o, "comment");
  if (!rc && comment && !(out->comment = strdup(comment))) rc = CP_ENOMEM(err, "database");
  if (!rc) {
    /* the options' arrays move into the answer */
    out->option_keys = o.keys;
    out->option_values = o.values;
    out->n_options = o.n;
    memset(&o, 0, sizeof o);
  }
  cp_options_free(&o);
  if (rc) paimon_database_free(out);
  return rc;
}

int paimon_catalog_alter_database(paimon_catalog *c, const char *name,
                                  const paimon_property_change *changes, size_t n,
                                  bool ignore_if_not_exists, paimon_error *err) {
  if (strcmp(name, SYSTEM_DATABASE) == 0)
    return paimon_error_set(err, PAIMON_EINVAL, "Can't do operation on system database.");
  CP_RETURN_IF_ERROR(check_name("database", name, strlen(name), err));
  if (!n) return PAIMON_OK;
  if (c->rest) return cp_rest_alter_database(c->rest, name, changes, n, ignore_if_not_exists, err);
  bool exists = false;
  CP_RETURN_IF_ERROR(database_present(c, name, ignore_if_not_exists, &exists, err));
  return exists ? paimon_error_set(err, PAIMON_EUNSUPPORTED, "Alter database is not supported.")
                : PAIMON_OK;
}

int paimon_catalog_drop_database(paimon_catalog *c, const char *name, bool ignore_if_not_exists,
                                 bool cascade, paimon_error *err) {
  if (strcmp(name, SYSTEM_DATABASE) == 0)
    return paimon_error_set(err, PAIMON_EINVAL, "Can't do operation on system database.");
  if (c->rest) return cp_rest_drop_database(c->rest, name, ignore_if_not_exists, cascade, err);
  bool exists = false;
  CP_RETURN_IF_ERROR(database_present(c, name, ignore_if_not_exists, &exists, err));
  if (!exists) return PAIMON_OK;
  paimon_string_list tables;
  CP_RETURN_IF_ERROR(paimon_catalog_list_tables(c, name, &tables, err));
  size_t n_tables = tables.count;
  paimon_string_list_free(&tables);
  if (n_tables && !cascade)
    return paimon_error_set(err, PAIMON_ESTATE, "Database %s is not empty.", name);
  char *p = db_path(c, name, strlen(name));
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_delete_dir(c->fs, p, err);
  free(p);
  return rc;
}

/* ---------------------------------------- schema builder ----------------------------------------
 */

struct paimon_schema {
  cp_field *fields;
  size_t n_fields;
  int32_t highest_id;
  char **partition_keys;
  size_t n_partition_keys;
  char **primary_keys;
  size_t n_primary_keys;
  cp_options options;
  char *comment;
};

int paimon_schema_new(paimon_schema **out, paimon_error *err) {
  paimon_schema *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "schema");
  s->highest_id = -1;
  *out = s;
  return PAIMON_OK;
}

static void free_strings(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void paimon_schema_free(paimon_schema *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n_fields; i++) cp_field_clear(&s->fields[i]);
  free(s->fields);
  free_strings(s->partition_keys, s->n_partition_keys);
  free_strings(s->primary_keys, s->n_primary_keys);
  cp_options_free(&s->options);
  free(s->comment);
  free(s);
}

/* Appends a field (consuming `type`), nested ids assigned after `id` as Java's builder does. */
static int push_field(paimon_schema *s, int32_t id, const char *name, cp_type *type,
                      const char *comment, paimon_error *err) {
  cp_field *f = realloc(s->fields, (s->n_fields + 1) * sizeof *f);
  if (!f) {
    cp_type_free(type);
    return CP_ENOMEM(err, "schema");
  }
  s->fields = f;
  if (id > s->highest_id) s->highest_id = id;
  cp_type_reassign_field_ids(type, &s->highest_id);
  CP_RETURN_IF_ERROR(cp_field_init(&f[s->n_fields], id, name, type, comment, NULL, err));
  s->n_fields++;
  return PAIMON_OK;
}

int paimon_schema_add_column(paimon_schema *s, const char *name, const char *type_sql,
                             const char *comment, paimon_error *err) {
  cp_type *t;
  int rc = cp_type_parse(type_sql, &t, err);
  if (rc) return paimon_error_prefix(err, "column '%s'", name);
  return push_field(s, s->highest_id + 1, name, t, comment, err);
}

int paimon_schema_add_field(paimon_schema *s, int32_t id, const char *name, const char *type_sql,
                            const char *comment, paimon_error *err) {
  if (id < 0 || cp_is_system_field_id(id))
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': invalid field id %d", name, id);
  cp_type *t;
  int rc = cp_type_parse(type_sql, &t, err);
  if (rc) return paimon_error_prefix(err, "column '%s'", name);
  return push_field(s, id, name, t, comment, err);
}

int paimon_schema_add_arrow_fields(paimon_schema *s, const struct ArrowSchema *arrow,
                                   paimon_error *err) {
  cp_type *row;
  CP_RETURN_IF_ERROR(cp_row_from_arrow_schema(arrow, &row, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; i < row->n_fields && !rc; i++) {
    cp_type *t;
    rc = cp_type_copy(&t, row->fields[i].type, err);
    if (!rc)
      rc =
          push_field(s, s->highest_id + 1, row->fields[i].name, t, row->fields[i].description, err);
  }
  cp_type_free(row);
  return rc;
}

static int set_keys(char ***dst, size_t *dst_n, const char *const *keys, size_t n,
                    paimon_error *err) {
  char **v = n ? calloc(n, sizeof *v) : NULL;
  if (n && !v) return CP_ENOMEM(err, "keys");
  for (size_t i = 0; i < n; i++)
    if (!(v[i] = strdup(keys[i]))) {
      free_strings(v, n);
      return CP_ENOMEM(err, "keys");
    }
  free_strings(*dst, *dst_n);
  *dst = v;
  *dst_n = n;
  return PAIMON_OK;
}

int paimon_schema_set_partition_keys(paimon_schema *s, const char *const *keys, size_t n,
                                     paimon_error *err) {
  return set_keys(&s->partition_keys, &s->n_partition_keys, keys, n, err);
}

int paimon_schema_set_primary_keys(paimon_schema *s, const char *const *keys, size_t n,
                                   paimon_error *err) {
  return set_keys(&s->primary_keys, &s->n_primary_keys, keys, n, err);
}

int paimon_schema_set_option(paimon_schema *s, const char *key, const char *value,
                             paimon_error *err) {
  return cp_options_set(&s->options, key, value, err);
}

int paimon_schema_set_comment(paimon_schema *s, const char *comment, paimon_error *err) {
  free(s->comment);
  s->comment = NULL;
  if (comment && !(s->comment = strdup(comment))) return CP_ENOMEM(err, "comment");
  return PAIMON_OK;
}

size_t paimon_schema_field_count(const paimon_schema *s) { return s->n_fields; }

int paimon_schema_field(const paimon_schema *s, size_t i, int32_t *id, const char **name,
                        char **type, const char **description, paimon_error *err) {
  if (i >= s->n_fields) return paimon_error_set(err, PAIMON_EINVAL, "schema has no column %zu", i);
  *id = s->fields[i].id;
  *name = s->fields[i].name;
  *description = s->fields[i].description;
  return cp_type_to_sql(s->fields[i].type, type, err);
}

/* ---------------------------------------- create table ---------------------------------------- */

/* Appends "[a, b, c]" as Java prints a List<String>. */
static int append_list(cp_buf *b, const char *const *items, size_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(b, "[", 1, err));
  for (size_t i = 0; i < n; i++)
    CP_RETURN_IF_ERROR(cp_buf_appendf(b, err, "%s%s", i ? ", " : "", items[i]));
  CP_RETURN_IF_ERROR(cp_buf_append(b, "]", 1, err));
  return cp_buf_nul_terminate(b, err);
}

/* Java Schema.normalizeFields: "Table column [..] should include all partition fields [..]". */
static int check_keys_exist(const cp_table_schema *t, const char *const *keys, size_t n,
                            const char *what, paimon_error *err) {
  bool all = true;
  for (size_t i = 0; i < n; i++)
    if (cp_row_field_index(t->row, keys[i]) < 0) all = false;
  if (all) return PAIMON_OK;
  cp_buf cols = CP_BUF_INIT, k = CP_BUF_INIT;
  const char **names = malloc((t->row->n_fields + 1) * sizeof *names);
  int rc = names ? PAIMON_OK : CP_ENOMEM(err, "names");
  for (size_t i = 0; !rc && i < t->row->n_fields; i++) names[i] = t->row->fields[i].name;
  if (!rc) rc = append_list(&cols, names, t->row->n_fields, err);
  if (!rc) rc = append_list(&k, keys, n, err);
  if (!rc)
    rc = paimon_error_set(err, PAIMON_EINVAL, "Table column %s %s %s", (char *)cols.data, what,
                          (char *)k.data);
  free(names);
  cp_buf_free(&cols);
  cp_buf_free(&k);
  return rc;
}

/* Java's class name of a type Paimon refuses as a partition or primary key
 * (SchemaValidation.PRIMARY_KEY_UNSUPPORTED_LOGICAL_TYPES), or NULL. */
static const char *unsupported_key_type(const cp_type *t) {
  switch (t->kind) {
  case CP_TYPE_MAP: return "MapType";
  case CP_TYPE_ARRAY: return "ArrayType";
  case CP_TYPE_ROW: return "RowType";
  case CP_TYPE_MULTISET: return "MultisetType";
  case CP_TYPE_VECTOR: return "VectorType";
  case CP_TYPE_VARIANT: return "VariantType";
  default: return NULL;
  }
}

/* Java SchemaValidation.validateOnlyContainPrimitiveType and the BLOB rule, with their messages:
 * partition values are BinaryRow fields and path segments, which only atomic values can be. */
static int check_key_types(const cp_table_schema *t, const char *const *keys, size_t n,
                           const char *what, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    ptrdiff_t f = cp_row_field_index(t->row, keys[i]);
    if (f < 0) continue; /* check_keys_exist reported it */
    const cp_type *type = t->row->fields[f].type;
    const char *java = unsupported_key_type(type);
    if (java)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED, "The type %s in %s field %s is unsupported",
                              java, what, keys[i]);
    if (type->kind == CP_TYPE_BLOB && strcmp(what, "partition") == 0)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "The BLOB, ARRAY<BLOB> or MAP<X, BLOB> type column can not be part "
                              "of partition keys.");
  }
  return PAIMON_OK;
}

/* Java SchemaValidation for what cpaimon supports: keys exist, row-tracking rules. */
static int validate_new_table(const char *identifier, const cp_table_schema *t, paimon_error *err) {
  if (t->row->n_fields == 0)
    return paimon_error_set(err, PAIMON_EINVAL, "Table %s must have at least one column.",
                            identifier);
  CP_RETURN_IF_ERROR(check_key_types(t, (const char *const *)t->primary_keys, t->n_primary_keys,
                                     "primary key", err));
  CP_RETURN_IF_ERROR(check_key_types(t, (const char *const *)t->partition_keys, t->n_partition_keys,
                                     "partition", err));
  CP_RETURN_IF_ERROR(cp_type_check_field_ids(t->row, err));
  cp_core_options o;
  CP_RETURN_IF_ERROR(cp_core_options_parse(t, &o, err));
  if (o.row_tracking) {
    if (t->n_primary_keys)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "Cannot define primary-key for row tracking table.");
    if (o.bucket != -1)
      return paimon_error_set(
          err, PAIMON_EINVAL,
          "Cannot define bucket for row tracking table, it only support bucket = -1");
    for (size_t i = 0; i < t->row->n_fields; i++)
      if (cp_is_row_tracking_field_name(t->row->fields[i].name))
        return paimon_error_set(err, PAIMON_EINVAL,
                                "Row tracking field name '%s' conflicts with existing field names.",
                                t->row->fields[i].name);
  }
  if (o.data_evolution && !o.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Data evolution config must enabled with row-tracking.enabled");
  if (t->n_primary_keys)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "Table %s: primary-key tables are not supported by cpaimon (append "
                            "tables only)",
                            identifier);
  if (o.bucket != -1)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "Table %s: only unaware-bucket append tables (bucket = -1) are "
                            "supported by cpaimon",
                            identifier);
  cp_file_format format;
  CP_RETURN_IF_ERROR(cp_file_format_parse(o.file_format, identifier, &format, err));
  return cp_file_format_check_row(format, t->row, err);
}

static int build_table_schema(const paimon_schema *s, const char *identifier, cp_table_schema **out,
                              paimon_error *err) {
  cp_table_schema *t = calloc(1, sizeof *t);
  if (!t) return CP_ENOMEM(err, "schema");
  cp_field *fields = s->n_fields ? calloc(s->n_fields, sizeof *fields) : NULL;
  int rc = (s->n_fields && !fields) ? CP_ENOMEM(err, "schema") : PAIMON_OK;
  size_t copied = 0;
  for (; !rc && copied < s->n_fields; copied++)
    rc = cp_field_copy(&fields[copied], &s->fields[copied], err);
  if (!rc)
    rc = cp_type_new_row(&t->row, fields, copied, true, err);
  else
    for (size_t i = 0; i < copied; i++) cp_field_clear(&fields[i]);
  free(fields);
  t->version = CP_SCHEMA_VERSION;
  t->id = 0;
  t->time_millis = cp_now_millis();
  if (!rc)
    rc = set_keys(&t->partition_keys, &t->n_partition_keys, (const char *const *)s->partition_keys,
                  s->n_partition_keys, err);
  if (!rc)
    rc = set_keys(&t->primary_keys, &t->n_primary_keys, (const char *const *)s->primary_keys,
                  s->n_primary_keys, err);
  if (!rc) rc = cp_options_copy(&t->options, &s->options, err);
  if (!rc && s->comment && !(t->comment = strdup(s->comment))) rc = CP_ENOMEM(err, "schema");
  if (!rc) {
    t->highest_field_id = cp_type_max_field_id(t->row);
    rc = check_keys_exist(t, (const char *const *)t->partition_keys, t->n_partition_keys,
                          "should include all partition fields", err);
    if (!rc)
      rc = check_keys_exist(t, (const char *const *)t->primary_keys, t->n_primary_keys,
                            "should include all primary key constraint", err);
  }
  if (!rc) rc = validate_new_table(identifier, t, err);
  if (rc) {
    cp_table_schema_free(t);
    return rc;
  }
  *out = t;
  return PAIMON_OK;
}

int paimon_catalog_create_table(paimon_catalog *c, const char *identifier,
                                const paimon_schema *schema, bool ignore_if_exists,
                                paimon_error *err) {
  ident id;
  CP_RETURN_IF_ERROR(parse_ident(identifier, &id, err));
  CP_RETURN_IF_ERROR(check_data_table(identifier, &id, "createTable", err));
  if (c->rest) {
    cp_table_schema *t = NULL;
    CP_RETURN_IF_ERROR(build_table_schema(schema, identifier, &t, err));
    int rc = cp_rest_create_table(c->rest, id.db, id.table, t, ignore_if_exists, err);
    cp_table_schema_free(t);
    return rc;
  }
  bool exists = false;
  CP_RETURN_IF_ERROR(paimon_catalog_database_exists(c, id.db, &exists, err));
  if (!exists) return paimon_error_set(err, PAIMON_ENOTFOUND, "Database %s does not exist.", id.db);
  char *p = table_path(c, &id);
  if (!p) return CP_ENOMEM(err, "path");
  cp_table_schema *t = NULL;
  int rc = table_exists(c, p, &exists, err);
  if (!rc && exists) {
    if (!ignore_if_exists)
      rc = paimon_error_set(err, PAIMON_EEXIST, "Table %s already exists.", identifier);
    goto done;
  }
  CP_GOTO_IF_ERROR(rc, build_table_schema(schema, identifier, &t, err), done);
  rc = cp_schema_publish(c->fs, p, t, err);
  if (rc == PAIMON_EEXIST) /* a concurrent create won the race */
    rc = ignore_if_exists
             ? PAIMON_OK
             : paimon_error_set(err, PAIMON_EEXIST, "Table %s already exists.", identifier);
done:
  cp_table_schema_free(t);
  free(p);
  return rc;
}
