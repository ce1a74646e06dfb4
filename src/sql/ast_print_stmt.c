/*
 * Printing whole statements (ast.h, cp_sql_print_stmt) as canonical SQL that parses back to the
 * same tree: the statement forms of parse_stmt.c and parse_ddl.c, in one spelling each.
 */
#include <string.h>

#include "base/status.h"
#include "sql/ast.h"

static int put(cp_buf *out, const char *s, paimon_error *err) {
  return cp_buf_append(out, s, strlen(s), err);
}

static int name(const cp_sql_name *n, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < n->n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ".", err));
    CP_RETURN_IF_ERROR(cp_sql_print_ident(n->parts[i], out, err));
  }
  return PAIMON_OK;
}

static int string(const char *s, cp_buf *out, paimon_error *err) {
  /* Reuse the expression printer's escaping through a string literal node. */
  cp_sql_expr lit;
  memset(&lit, 0, sizeof lit);
  lit.kind = CP_SQL_E_LITERAL;
  lit.lit.kind = CP_SQL_LIT_STRING;
  lit.lit.text = s;
  lit.lit.len = strlen(s);
  return cp_sql_print_expr(&lit, out, err);
}

static int idents(const char *const *names, size_t n, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "(", err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_ident(names[i], out, err));
  }
  return put(out, ")", err);
}

static int exprs(cp_sql_expr *const *args, size_t n, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "(", err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(args[i], out, err));
  }
  return put(out, ")", err);
}

static int assignments(const cp_sql_assignment *a, size_t n, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(name(&a[i].target, out, err));
    if (!a[i].value) continue;
    CP_RETURN_IF_ERROR(put(out, " = ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(a[i].value, out, err));
  }
  return PAIMON_OK;
}

static int alias(const char *a, cp_buf *out, paimon_error *err) {
  if (!a) return PAIMON_OK;
  CP_RETURN_IF_ERROR(put(out, " AS ", err));
  return cp_sql_print_ident(a, out, err);
}

/* A column of ALTER TABLE: its parent names (nested columns), then its own. */
static int column_path(const cp_sql_name *parent, const char *last, cp_buf *out,
                       paimon_error *err) {
  for (size_t i = 0; parent && i < parent->n; i++) {
    CP_RETURN_IF_ERROR(cp_sql_print_ident(parent->parts[i], out, err));
    CP_RETURN_IF_ERROR(put(out, ".", err));
  }
  return cp_sql_print_ident(last, out, err);
}

static int columns(const cp_sql_column_def *c, size_t n, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "(", err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(column_path(&c[i].parent, c[i].name, out, err));
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s", c[i].type));
    if (c[i].comment) {
      CP_RETURN_IF_ERROR(put(out, " COMMENT ", err));
      CP_RETURN_IF_ERROR(string(c[i].comment, out, err));
    }
    if (c[i].position) {
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s", c[i].position));
      if (c[i].after) {
        CP_RETURN_IF_ERROR(put(out, " ", err));
        CP_RETURN_IF_ERROR(cp_sql_print_ident(c[i].after, out, err));
      }
    }
  }
  return put(out, ")", err);
}

static int props(const cp_sql_property *p, size_t n, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "(", err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(string(p[i].key, out, err));
    if (!p[i].value) continue;
    CP_RETURN_IF_ERROR(put(out, " = ", err));
    CP_RETURN_IF_ERROR(string(p[i].value, out, err));
  }
  return put(out, ")", err);
}

static int print_insert(const cp_sql_insert *ins, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, ins->overwrite ? "INSERT OVERWRITE " : "INSERT INTO ", err));
  CP_RETURN_IF_ERROR(name(&ins->table, out, err));
  if (ins->n_partition) {
    CP_RETURN_IF_ERROR(put(out, " PARTITION (", err));
    CP_RETURN_IF_ERROR(assignments(ins->partition, ins->n_partition, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
  }
  if (ins->columns) {
    CP_RETURN_IF_ERROR(put(out, " ", err));
    CP_RETURN_IF_ERROR(idents(ins->columns, ins->n_columns, out, err));
  }
  if (ins->query) {
    CP_RETURN_IF_ERROR(put(out, " ", err));
    return cp_sql_print_query(ins->query, out, err);
  }
  CP_RETURN_IF_ERROR(put(out, " VALUES ", err));
  for (size_t r = 0; r < ins->n_rows; r++) {
    if (r) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(exprs(ins->rows[r], ins->row_lengths[r], out, err));
  }
  return PAIMON_OK;
}

static int print_where(const cp_sql_expr *w, cp_buf *out, paimon_error *err) {
  if (!w) return PAIMON_OK;
  CP_RETURN_IF_ERROR(put(out, " WHERE ", err));
  return cp_sql_print_expr(w, out, err);
}

static int print_clause(const cp_sql_merge_clause *c, cp_buf *out, paimon_error *err) {
  static const char *const match[] = {" WHEN MATCHED", " WHEN NOT MATCHED",
                                      " WHEN NOT MATCHED BY SOURCE"};
  CP_RETURN_IF_ERROR(put(out, match[c->match], err));
  if (c->cond) {
    CP_RETURN_IF_ERROR(put(out, " AND ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(c->cond, out, err));
  }
  switch (c->action) {
  case CP_SQL_MERGE_UPDATE:
    CP_RETURN_IF_ERROR(put(out, " THEN UPDATE SET ", err));
    return assignments(c->set, c->n_set, out, err);
  case CP_SQL_MERGE_UPDATE_STAR: return put(out, " THEN UPDATE SET *", err);
  case CP_SQL_MERGE_DELETE: return put(out, " THEN DELETE", err);
  case CP_SQL_MERGE_INSERT_STAR: return put(out, " THEN INSERT *", err);
  case CP_SQL_MERGE_INSERT:
    CP_RETURN_IF_ERROR(put(out, " THEN INSERT ", err));
    if (c->columns) {
      CP_RETURN_IF_ERROR(idents(c->columns, c->n_columns, out, err));
      CP_RETURN_IF_ERROR(put(out, " ", err));
    }
    CP_RETURN_IF_ERROR(put(out, "VALUES ", err));
    return exprs(c->values, c->n_values, out, err);
  }
  return PAIMON_OK;
}

static int print_merge(const cp_sql_merge *m, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "MERGE INTO ", err));
  CP_RETURN_IF_ERROR(name(&m->target, out, err));
  CP_RETURN_IF_ERROR(alias(m->target_alias, out, err));
  CP_RETURN_IF_ERROR(put(out, " USING ", err));
  if (m->source->kind == CP_SQL_FROM_SUBQUERY) {
    CP_RETURN_IF_ERROR(put(out, "(", err));
    CP_RETURN_IF_ERROR(cp_sql_print_query(m->source->query, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
  } else {
    CP_RETURN_IF_ERROR(name(&m->source->table, out, err));
    CP_RETURN_IF_ERROR(cp_sql_print_travel(m->source, out, err));
  }
  CP_RETURN_IF_ERROR(alias(m->source->alias, out, err));
  CP_RETURN_IF_ERROR(put(out, " ON ", err));
  CP_RETURN_IF_ERROR(cp_sql_print_expr(m->on, out, err));
  for (size_t i = 0; i < m->n_clauses; i++)
    CP_RETURN_IF_ERROR(print_clause(&m->clauses[i], out, err));
  return PAIMON_OK;
}

static int print_create_table(const cp_sql_create_table *c, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(
      put(out, c->if_not_exists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE ", err));
  CP_RETURN_IF_ERROR(name(&c->table, out, err));
  CP_RETURN_IF_ERROR(put(out, " ", err));
  CP_RETURN_IF_ERROR(columns(c->columns, c->n_columns, out, err));
  if (c->n_partition_keys) {
    CP_RETURN_IF_ERROR(put(out, " PARTITIONED BY ", err));
    CP_RETURN_IF_ERROR(idents(c->partition_keys, c->n_partition_keys, out, err));
  }
  if (c->comment) {
    CP_RETURN_IF_ERROR(put(out, " COMMENT ", err));
    CP_RETURN_IF_ERROR(string(c->comment, out, err));
  }
  if (c->properties) {
    CP_RETURN_IF_ERROR(put(out, " TBLPROPERTIES ", err));
    CP_RETURN_IF_ERROR(props(c->properties, c->n_properties, out, err));
  }
  return PAIMON_OK;
}

static int partitions(const cp_sql_alter_table *a, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < a->n_partitions; i++) {
    CP_RETURN_IF_ERROR(put(out, i ? ", PARTITION (" : " PARTITION (", err));
    CP_RETURN_IF_ERROR(assignments(a->partitions[i].items, a->partitions[i].n, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
  }
  return PAIMON_OK;
}

static int print_alter(const cp_sql_alter_table *a, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "ALTER TABLE ", err));
  CP_RETURN_IF_ERROR(name(&a->table, out, err));
  switch (a->kind) {
  case CP_SQL_ALTER_ADD_COLUMNS:
    CP_RETURN_IF_ERROR(put(out, " ADD COLUMNS ", err));
    return columns(a->columns, a->n_columns, out, err);
  case CP_SQL_ALTER_DROP_PARTITIONS:
    CP_RETURN_IF_ERROR(put(out, a->if_exists ? " DROP IF EXISTS" : " DROP", err));
    return partitions(a, out, err);
  case CP_SQL_ALTER_RENAME_TABLE:
    CP_RETURN_IF_ERROR(put(out, " RENAME TO ", err));
    return name(&a->new_name, out, err);
  case CP_SQL_ALTER_RENAME_COLUMN:
    CP_RETURN_IF_ERROR(put(out, " RENAME COLUMN ", err));
    CP_RETURN_IF_ERROR(column_path(a->parents, a->names[0], out, err));
    CP_RETURN_IF_ERROR(put(out, " TO ", err));
    return cp_sql_print_ident(a->names[1], out, err);
  case CP_SQL_ALTER_DROP_COLUMNS:
    CP_RETURN_IF_ERROR(put(out, " DROP COLUMNS (", err));
    for (size_t i = 0; i < a->n_names; i++) {
      if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
      CP_RETURN_IF_ERROR(column_path(a->parents ? &a->parents[i] : NULL, a->names[i], out, err));
    }
    return put(out, ")", err);
  case CP_SQL_ALTER_SET_PROPERTIES:
    CP_RETURN_IF_ERROR(put(out, " SET TBLPROPERTIES ", err));
    return props(a->properties, a->n_properties, out, err);
  case CP_SQL_ALTER_UNSET_PROPERTIES:
    CP_RETURN_IF_ERROR(
        put(out, a->if_exists ? " UNSET TBLPROPERTIES IF EXISTS " : " UNSET TBLPROPERTIES ", err));
    return props(a->properties, a->n_properties, out, err);
  case CP_SQL_ALTER_COLUMN_COMMENT:
    CP_RETURN_IF_ERROR(put(out, " ALTER COLUMN ", err));
    CP_RETURN_IF_ERROR(column_path(&a->columns[0].parent, a->columns[0].name, out, err));
    CP_RETURN_IF_ERROR(put(out, " COMMENT ", err));
    return string(a->columns[0].comment, out, err);
  case CP_SQL_ALTER_COLUMN_TYPE:
    CP_RETURN_IF_ERROR(put(out, " ALTER COLUMN ", err));
    CP_RETURN_IF_ERROR(column_path(&a->columns[0].parent, a->columns[0].name, out, err));
    CP_RETURN_IF_ERROR(put(out, " TYPE ", err));
    return put(out, a->columns[0].type, err);
  case CP_SQL_ALTER_COLUMN_POSITION:
    CP_RETURN_IF_ERROR(put(out, " ALTER COLUMN ", err));
    CP_RETURN_IF_ERROR(column_path(&a->columns[0].parent, a->columns[0].name, out, err));
    if (!a->n_names) return put(out, " FIRST", err);
    CP_RETURN_IF_ERROR(put(out, " AFTER ", err));
    return cp_sql_print_ident(a->names[0], out, err);
  case CP_SQL_ALTER_COLUMN_NULLABILITY:
    CP_RETURN_IF_ERROR(put(out, " ALTER COLUMN ", err));
    CP_RETURN_IF_ERROR(column_path(&a->columns[0].parent, a->columns[0].name, out, err));
    return put(out, a->not_null ? " SET NOT NULL" : " DROP NOT NULL", err);
  }
  return PAIMON_OK;
}

int cp_sql_print_stmt(const cp_sql_stmt *s, cp_buf *out, paimon_error *err) {
  switch (s->kind) {
  case CP_SQL_S_SELECT: return cp_sql_print_query(s->query, out, err);
  case CP_SQL_S_INSERT: return print_insert(&s->insert, out, err);
  case CP_SQL_S_UPDATE:
    CP_RETURN_IF_ERROR(put(out, "UPDATE ", err));
    CP_RETURN_IF_ERROR(name(&s->update.table, out, err));
    CP_RETURN_IF_ERROR(alias(s->update.alias, out, err));
    CP_RETURN_IF_ERROR(put(out, " SET ", err));
    CP_RETURN_IF_ERROR(assignments(s->update.set, s->update.n_set, out, err));
    return print_where(s->update.where, out, err);
  case CP_SQL_S_DELETE:
    CP_RETURN_IF_ERROR(put(out, "DELETE FROM ", err));
    CP_RETURN_IF_ERROR(name(&s->del.table, out, err));
    CP_RETURN_IF_ERROR(alias(s->del.alias, out, err));
    return print_where(s->del.where, out, err);
  case CP_SQL_S_MERGE: return print_merge(&s->merge, out, err);
  case CP_SQL_S_CREATE_DATABASE:
    CP_RETURN_IF_ERROR(
        put(out, s->if_not_exists ? "CREATE DATABASE IF NOT EXISTS " : "CREATE DATABASE ", err));
    CP_RETURN_IF_ERROR(name(&s->name, out, err));
    if (s->create.comment) {
      CP_RETURN_IF_ERROR(put(out, " COMMENT ", err));
      CP_RETURN_IF_ERROR(string(s->create.comment, out, err));
    }
    if (!s->create.n_properties) return PAIMON_OK;
    CP_RETURN_IF_ERROR(put(out, " WITH DBPROPERTIES ", err));
    return props(s->create.properties, s->create.n_properties, out, err);
  case CP_SQL_S_TRUNCATE:
    CP_RETURN_IF_ERROR(put(out, "TRUNCATE TABLE ", err));
    CP_RETURN_IF_ERROR(name(&s->alter.table, out, err));
    return partitions(&s->alter, out, err);
  case CP_SQL_S_SHOW_PARTITIONS:
    CP_RETURN_IF_ERROR(put(out, "SHOW PARTITIONS ", err));
    return name(&s->name, out, err);
  case CP_SQL_S_CALL:
    CP_RETURN_IF_ERROR(put(out, "CALL ", err));
    CP_RETURN_IF_ERROR(name(&s->call.procedure, out, err));
    CP_RETURN_IF_ERROR(put(out, "(", err));
    for (size_t i = 0; i < s->call.n_args; i++) {
      const cp_sql_call_arg *a = &s->call.args[i];
      if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
      if (a->name) CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s => ", a->name));
      CP_RETURN_IF_ERROR(a->is_string ? string(a->text, out, err)
                                      : put(out, a->is_null ? "NULL" : a->text, err));
    }
    return put(out, ")", err);
  case CP_SQL_S_ALTER_DATABASE:
    CP_RETURN_IF_ERROR(put(out, "ALTER DATABASE ", err));
    CP_RETURN_IF_ERROR(name(&s->name, out, err));
    CP_RETURN_IF_ERROR(put(out, " SET DBPROPERTIES ", err));
    return props(s->create.properties, s->create.n_properties, out, err);
  case CP_SQL_S_DROP_DATABASE:
    CP_RETURN_IF_ERROR(put(out, s->if_exists ? "DROP DATABASE IF EXISTS " : "DROP DATABASE ", err));
    CP_RETURN_IF_ERROR(name(&s->name, out, err));
    return s->cascade ? put(out, " CASCADE", err) : PAIMON_OK;
  case CP_SQL_S_USE: CP_RETURN_IF_ERROR(put(out, "USE ", err)); return name(&s->name, out, err);
  case CP_SQL_S_SHOW_DATABASES: return put(out, "SHOW DATABASES", err);
  case CP_SQL_S_SHOW_TABLES:
    CP_RETURN_IF_ERROR(put(out, s->name.n ? "SHOW TABLES IN " : "SHOW TABLES", err));
    return name(&s->name, out, err);
  case CP_SQL_S_DESCRIBE:
    CP_RETURN_IF_ERROR(put(out, s->extended ? "DESCRIBE EXTENDED " : "DESCRIBE ", err));
    return name(&s->name, out, err);
  case CP_SQL_S_CREATE_TABLE: return print_create_table(&s->create, out, err);
  case CP_SQL_S_DROP_TABLE:
    CP_RETURN_IF_ERROR(put(out, s->if_exists ? "DROP TABLE IF EXISTS " : "DROP TABLE ", err));
    return name(&s->name, out, err);
  case CP_SQL_S_ALTER_TABLE: return print_alter(&s->alter, out, err);
  }
  return PAIMON_OK;
}
