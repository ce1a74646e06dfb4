/*
 * ALTER TABLE (docs/sql.md): ADD COLUMN(S), RENAME COLUMN, DROP COLUMN(S), SET / UNSET
 * TBLPROPERTIES and ALTER COLUMN ... COMMENT / TYPE / FIRST / AFTER / SET|DROP NOT NULL — nested
 * columns (r.x, v.element.a, m.value.p) included — turned into one paimon_catalog_alter_table call
 * so that all changes of a statement become one schema version (Java SchemaManager semantics; its
 * messages, e.g. for NOT NULL added columns, come from the catalog). Column names are matched
 * case-insensitively, as Spark does, and passed on with their exact spelling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "cpaimon/commit.h"
#include "sql/exec.h"

/* The exact name of the table column matching `name`, or an error naming the table. */
static int column_name(const cp_sql_table *t, const char *name, const char **out,
                       paimon_error *err) {
  ptrdiff_t i = cp_row_field_index_ci(t->row, name);
  if (i < 0)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Column %s does not exist in table %s.", name,
                            t->ident);
  *out = t->row->fields[i].name;
  return PAIMON_OK;
}

/* A nested column (parent.n > 0) as the catalog's path, with the exact spelling of every name
 * Spark would match case-insensitively: ROW fields, and "element" / "value" stepping into an
 * ARRAY or MAP. Names that match nothing are passed on as written, for the catalog's message
 * (Java's "Column r.x does not exist in the db.t table."). `*container` is the ROW the last name
 * belongs to (NULL if not reached). The path is malloc'ed into ch->path (freed by the caller). */
static int nested_path(const cp_sql_table *t, const cp_sql_name *parent, const char *last,
                       paimon_schema_change *ch, const cp_type **container, paimon_error *err) {
  size_t n = parent->n + 1;
  const char **path = calloc(n, sizeof *path);
  if (!path) return CP_ENOMEM(err, "ALTER TABLE");
  const cp_type *cur = t->row;
  for (size_t i = 0; i < n; i++) {
    const char *want = i < parent->n ? parent->parts[i] : last;
    path[i] = want;
    if (i == n - 1) *container = cur && cur->kind == CP_TYPE_ROW ? cur : NULL;
    if (!cur) continue;
    ptrdiff_t k = cur->kind == CP_TYPE_ROW ? cp_row_field_index_ci(cur, want) : -1;
    if (k >= 0) {
      path[i] = cur->fields[k].name;
      cur = cur->fields[k].type;
    } else if (cur->kind == CP_TYPE_ARRAY && strcasecmp(want, "element") == 0) {
      path[i] = "element";
      cur = cur->element;
    } else if (cur->kind == CP_TYPE_MAP && strcasecmp(want, "value") == 0) {
      path[i] = "value";
      cur = cur->value;
    } else {
      cur = NULL;
    }
  }
  ch->path = path;
  ch->n_path = n;
  return PAIMON_OK;
}

/* The column a change names: top level (Spark's message for an unknown one) or nested. */
static int change_column(const cp_sql_table *t, const cp_sql_name *parent, const char *name,
                         paimon_schema_change *ch, paimon_error *err) {
  if (!parent || parent->n == 0) return column_name(t, name, &ch->name, err);
  const cp_type *container;
  return nested_path(t, parent, name, ch, &container, err);
}

static int add_column(const cp_sql_table *t, const cp_sql_column_def *c, paimon_schema_change *ch,
                      paimon_error *err) {
  ch->kind = PAIMON_ADD_COLUMN;
  ch->name = c->name;
  ch->type = c->type;
  ch->comment = c->comment;
  ch->value = c->position;
  ch->reference = c->after;
  const cp_type *container = t->row;
  if (c->parent.n) CP_RETURN_IF_ERROR(nested_path(t, &c->parent, c->name, ch, &container, err));
  if (c->after && container) {
    ptrdiff_t k = cp_row_field_index_ci(container, c->after);
    if (k >= 0) ch->reference = container->fields[k].name;
  }
  return PAIMON_OK;
}

static int build_changes(const cp_sql_table *t, const cp_sql_alter_table *a,
                         paimon_schema_change *ch, size_t *n, paimon_error *err) {
  *n = 0;
  switch (a->kind) {
  case CP_SQL_ALTER_ADD_COLUMNS:
    for (size_t i = 0; i < a->n_columns; i++, (*n)++)
      CP_RETURN_IF_ERROR(add_column(t, &a->columns[i], &ch[i], err));
    return PAIMON_OK;
  case CP_SQL_ALTER_RENAME_COLUMN:
    ch[0].kind = PAIMON_RENAME_COLUMN;
    ch[0].value = a->names[1];
    *n = 1;
    return change_column(t, a->parents, a->names[0], &ch[0], err);
  case CP_SQL_ALTER_DROP_COLUMNS:
    for (size_t i = 0; i < a->n_names; i++, (*n)++) {
      ch[i].kind = PAIMON_DROP_COLUMN;
      CP_RETURN_IF_ERROR(
          change_column(t, a->parents ? &a->parents[i] : NULL, a->names[i], &ch[i], err));
    }
    return PAIMON_OK;
  case CP_SQL_ALTER_SET_PROPERTIES:
    for (size_t i = 0; i < a->n_properties; i++) {
      ch[i].kind = PAIMON_SET_OPTION;
      ch[i].name = a->properties[i].key;
      ch[i].value = a->properties[i].value;
    }
    *n = a->n_properties;
    return PAIMON_OK;
  case CP_SQL_ALTER_UNSET_PROPERTIES:
    for (size_t i = 0; i < a->n_properties; i++) {
      const char *key = a->properties[i].key;
      if (!paimon_table_option(t->table, key)) {
        if (a->if_exists) continue;
        return paimon_error_set(err, PAIMON_EINVAL,
                                "Attempted to unset non-existent property '%s' in table %s", key,
                                t->ident);
      }
      ch[*n].kind = PAIMON_REMOVE_OPTION;
      ch[(*n)++].name = key;
    }
    return PAIMON_OK;
  case CP_SQL_ALTER_RENAME_TABLE:
  case CP_SQL_ALTER_DROP_PARTITIONS: break; /* not schema changes: see cp_sql_exec_alter */
  case CP_SQL_ALTER_COLUMN_TYPE:
    /* Spark's ALTER COLUMN ... TYPE keeps the column's nullability (Paimon's SparkCatalog) */
    ch[0].kind = PAIMON_UPDATE_COLUMN_TYPE;
    ch[0].type = a->columns[0].type;
    ch[0].value = "keep-nullability";
    *n = 1;
    return change_column(t, &a->columns[0].parent, a->columns[0].name, &ch[0], err);
  case CP_SQL_ALTER_COLUMN_POSITION:
    if (a->columns[0].parent.n)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "table %s: moving a nested column is not supported (Paimon moves "
                              "top-level columns only)",
                              t->ident);
    ch[0].kind = PAIMON_UPDATE_COLUMN_POSITION;
    ch[0].value = a->n_names ? "AFTER" : "FIRST";
    *n = 1;
    if (a->n_names) CP_RETURN_IF_ERROR(column_name(t, a->names[0], &ch[0].reference, err));
    return column_name(t, a->columns[0].name, &ch[0].name, err);
  case CP_SQL_ALTER_COLUMN_NULLABILITY:
    ch[0].kind = PAIMON_UPDATE_COLUMN_NULLABILITY;
    ch[0].value = a->not_null ? "false" : "true";
    *n = 1;
    return change_column(t, &a->columns[0].parent, a->columns[0].name, &ch[0], err);
  case CP_SQL_ALTER_COLUMN_COMMENT:
    ch[0].kind = PAIMON_UPDATE_COLUMN_COMMENT;
    ch[0].comment = a->columns[0].comment;
    *n = 1;
    return change_column(t, &a->columns[0].parent, a->columns[0].name, &ch[0], err);
  }
  return PAIMON_OK;
}

/* ALTER TABLE a RENAME TO b: b without a database stays in a's (as Spark's session catalog). */
static int rename_table(cp_sql_session *s, const cp_sql_alter_table *a, paimon_error *err) {
  char *db = NULL, *name = NULL, *to_db = NULL, *to_name = NULL, *from = NULL, *to = NULL;
  int rc = cp_sql_split_name(s, &a->table, &db, &name, err);
  if (!rc && a->new_name.n == 1) {
    to_db = strdup(db);
    to_name = strdup(a->new_name.parts[0]);
    if (!to_db || !to_name) rc = CP_ENOMEM(err, "ALTER TABLE");
  } else if (!rc) {
    rc = cp_sql_split_name(s, &a->new_name, &to_db, &to_name, err);
  }
  if (!rc && (asprintf(&from, "%s.%s", db, name) < 0 || asprintf(&to, "%s.%s", to_db, to_name) < 0))
    rc = CP_ENOMEM(err, "ALTER TABLE");
  if (!rc) rc = paimon_catalog_rename_table(s->catalog, from, to, false, err);
  free(db);
  free(name);
  free(to_db);
  free(to_name);
  free(from);
  free(to);
  return rc;
}

int cp_sql_truncate(cp_sql_table *t, const cp_sql_partition *parts, size_t n, paimon_error *err) {
  cp_sql_overwrite *vals = calloc(n + 1, sizeof *vals);
  paimon_partition_spec *specs = calloc(n + 1, sizeof *specs);
  int rc = vals && specs ? PAIMON_OK : CP_ENOMEM(err, "TRUNCATE");
  for (size_t i = 0; !rc && i < n; i++) {
    rc = cp_sql_partition_values(t, parts[i].items, parts[i].n, &vals[i], err);
    specs[i].keys = vals[i].keys;
    specs[i].values = vals[i].values;
    specs[i].n = vals[i].n;
  }
  paimon_commit *c = NULL;
  if (!rc) rc = paimon_commit_new(&c, t->table, err);
  if (!rc)
    rc = n ? paimon_commit_truncate_partitions(c, specs, n, err)
           : paimon_commit_truncate_table(c, err);
  paimon_commit_free(c);
  for (size_t i = 0; vals && i < n; i++) cp_sql_overwrite_free(&vals[i]);
  free(vals);
  free(specs);
  return rc;
}

int cp_sql_exec_alter(cp_sql_session *s, const cp_sql_stmt *stmt, paimon_error *err) {
  const cp_sql_alter_table *a = &stmt->alter;
  if (a->kind == CP_SQL_ALTER_RENAME_TABLE) return rename_table(s, a, err);
  cp_sql_table t;
  if (a->kind == CP_SQL_ALTER_DROP_PARTITIONS || stmt->kind == CP_SQL_S_TRUNCATE) {
    CP_RETURN_IF_ERROR(cp_sql_table_open(s, &a->table, &t, err));
    int rc = cp_sql_truncate(&t, a->partitions, a->n_partitions, err);
    cp_sql_table_close(&t);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_sql_table_open(s, &a->table, &t, err));
  size_t cap = a->n_columns + a->n_names + a->n_properties + 1;
  paimon_schema_change *ch = calloc(cap, sizeof *ch);
  size_t n = 0;
  int rc = ch ? build_changes(&t, a, ch, &n, err) : CP_ENOMEM(err, "ALTER TABLE");
  if (!rc && n) rc = paimon_catalog_alter_table(s->catalog, t.ident, ch, n, false, err);
  for (size_t i = 0; ch && i < cap; i++) free((void *)ch[i].path);
  free(ch);
  cp_sql_table_close(&t);
  return rc;
}
