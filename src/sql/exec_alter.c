/*
 * ALTER TABLE (docs/sql.md): ADD COLUMN(S), RENAME COLUMN, DROP COLUMN(S), SET / UNSET
 * TBLPROPERTIES and ALTER COLUMN ... COMMENT, turned into one paimon_catalog_alter_table call so
 * that all changes of a statement become one schema version (Java SchemaManager semantics; its
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

static int build_changes(const cp_sql_table *t, const cp_sql_alter_table *a,
                         paimon_schema_change *ch, size_t *n, paimon_error *err) {
  *n = 0;
  switch (a->kind) {
  case CP_SQL_ALTER_ADD_COLUMNS:
    for (size_t i = 0; i < a->n_columns; i++) {
      ch[i].kind = PAIMON_ADD_COLUMN;
      ch[i].name = a->columns[i].name;
      ch[i].type = a->columns[i].type;
      ch[i].comment = a->columns[i].comment;
    }
    *n = a->n_columns;
    return PAIMON_OK;
  case CP_SQL_ALTER_RENAME_COLUMN:
    ch[0].kind = PAIMON_RENAME_COLUMN;
    ch[0].value = a->names[1];
    *n = 1;
    return column_name(t, a->names[0], &ch[0].name, err);
  case CP_SQL_ALTER_DROP_COLUMNS:
    for (size_t i = 0; i < a->n_names; i++) {
      ch[i].kind = PAIMON_DROP_COLUMN;
      CP_RETURN_IF_ERROR(column_name(t, a->names[i], &ch[i].name, err));
    }
    *n = a->n_names;
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
    return column_name(t, a->columns[0].name, &ch[0].name, err);
  case CP_SQL_ALTER_COLUMN_POSITION:
    ch[0].kind = PAIMON_UPDATE_COLUMN_POSITION;
    ch[0].value = a->n_names ? "AFTER" : "FIRST";
    *n = 1;
    if (a->n_names) CP_RETURN_IF_ERROR(column_name(t, a->names[0], &ch[0].reference, err));
    return column_name(t, a->columns[0].name, &ch[0].name, err);
  case CP_SQL_ALTER_COLUMN_NULLABILITY:
    ch[0].kind = PAIMON_UPDATE_COLUMN_NULLABILITY;
    ch[0].value = a->not_null ? "false" : "true";
    *n = 1;
    return column_name(t, a->columns[0].name, &ch[0].name, err);
  case CP_SQL_ALTER_COLUMN_COMMENT:
    ch[0].kind = PAIMON_UPDATE_COLUMN_COMMENT;
    ch[0].comment = a->columns[0].comment;
    *n = 1;
    return column_name(t, a->columns[0].name, &ch[0].name, err);
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
  free(ch);
  cp_sql_table_close(&t);
  return rc;
}
