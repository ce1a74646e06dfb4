/*
 * Catalog statements of the SQL parser (parser.h), after Spark's grammar (SqlBaseParser.g4
 * createNamespace / createTable / dropTable / alterTable... / use / show / describe):
 *
 *   CREATE (DATABASE | SCHEMA | NAMESPACE) [IF NOT EXISTS] db [COMMENT 'c']
 *   CREATE TABLE [IF NOT EXISTS] [db.]t (c type [NOT NULL] [COMMENT 'c'], ...) [USING paimon]
 *       [PARTITIONED BY (c, ...)] [COMMENT 'c'] [TBLPROPERTIES (k = v, ...) | WITH (k = v, ...)]
 *   DROP TABLE [IF EXISTS] t [PURGE];  DROP DATABASE [IF EXISTS] db [RESTRICT | CASCADE]
 *   ALTER TABLE t ADD COLUMN(S) [(]c type [COMMENT 'c'], ...[)] | RENAME COLUMN a TO b
 *       | DROP COLUMN(S) [(]c, ...[)] | SET TBLPROPERTIES (k = v, ...)
 *       | UNSET TBLPROPERTIES [IF EXISTS] (k, ...) | ALTER COLUMN c COMMENT 'c'
 *   USE [DATABASE | NAMESPACE] db;  SHOW DATABASES;  SHOW TABLES [FROM | IN db]
 *   DESC[RIBE] [TABLE] [EXTENDED | FORMATTED] t
 */
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "sql/parser_internal.h"

int cp_ps_create(cp_sql_parser *p, paimon_error *err);
int cp_ps_drop(cp_sql_parser *p, paimon_error *err);
int cp_ps_alter(cp_sql_parser *p, paimon_error *err);
int cp_ps_use_show_describe(cp_sql_parser *p, paimon_error *err);

static bool database_word(cp_sql_parser *p) {
  return cp_ps_kw(p, "database") || cp_ps_kw(p, "schema") || cp_ps_kw(p, "namespace");
}

static bool databases_word(cp_sql_parser *p) {
  return cp_ps_kw(p, "databases") || cp_ps_kw(p, "schemas") || cp_ps_kw(p, "namespaces");
}

static int if_exists(cp_sql_parser *p, bool *out, paimon_error *err) {
  if (!cp_ps_kw(p, "if")) return PAIMON_OK;
  cp_ps_next(p);
  *out = true;
  return cp_ps_expect_kw(p, "exists", err);
}

static int if_not_exists(cp_sql_parser *p, bool *out, paimon_error *err) {
  if (!cp_ps_kw(p, "if")) return PAIMON_OK;
  cp_ps_next(p);
  *out = true;
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "not", err));
  return cp_ps_expect_kw(p, "exists", err);
}

/* A property key: a string or a dotted identifier (joined with '.'). */
static int property_key(cp_sql_parser *p, const char **out, paimon_error *err) {
  if (cp_ps_is(p, CP_TOK_STRING)) { /* one token: 'k' 'v' is a key and its value */
    const cp_sql_token *t = cp_ps_next(p);
    *out = cp_ps_strdup(p, t->text, t->text_len, err);
    return *out ? PAIMON_OK : PAIMON_ENOMEM;
  }
  cp_sql_name name;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 16, &name, err));
  cp_buf b = CP_BUF_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < name.n; i++) {
    if (i) rc = cp_buf_append(&b, ".", 1, err);
    if (!rc) rc = cp_buf_append(&b, name.parts[i], strlen(name.parts[i]), err);
  }
  if (!rc) *out = cp_ps_strdup(p, (const char *)b.data, b.len, err);
  if (!rc && !*out) rc = PAIMON_ENOMEM;
  cp_buf_free(&b);
  return rc;
}

/* A property value: a string, number, TRUE/FALSE or a word, as its text. */
static int property_value(cp_sql_parser *p, const char **out, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  size_t len;
  if (t->kind == CP_TOK_STRING) return cp_ps_string(p, out, &len, err);
  if (t->kind == CP_TOK_NUMBER || t->kind == CP_TOK_IDENT) {
    cp_ps_next(p);
    *out = cp_ps_strdup(p, t->text, t->text_len, err);
    return *out ? PAIMON_OK : PAIMON_ENOMEM;
  }
  return cp_ps_error(p, "a property value", err);
}

/* '(' key [= value], ... ')'; with_values false: keys only (UNSET). */
static int properties(cp_sql_parser *p, bool with_values, cp_sql_property **out, size_t *n,
                      paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_property *prop = cp_ps_alloc(p, sizeof *prop, err);
    rc = prop ? property_key(p, &prop->key, err) : PAIMON_ENOMEM;
    if (!rc && with_values) {
      cp_ps_accept(p, CP_TOK_EQ);
      rc = property_value(p, &prop->value, err);
    }
    if (!rc) rc = cp_ps_vec_push(&v, prop, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_property), (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

/* A column name of ALTER TABLE, nested ones as Spark writes them (r.x, v.element.a, m.value.p):
 * the names before the last into *parent (n = 0 for a top-level column), the last into *last. */
static int column_path(cp_sql_parser *p, cp_sql_name *parent, const char **last, cp_sql_pos *pos,
                       paimon_error *err) {
  cp_sql_name all;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 64, &all, err));
  if (pos) *pos = all.pos;
  *last = all.parts[all.n - 1];
  parent->parts = all.parts;
  parent->n = all.n - 1;
  parent->pos = all.pos;
  return PAIMON_OK;
}

/* `in_alter`: ALTER TABLE ... ADD, whose columns may be nested and placed FIRST / AFTER x. */
static int column_def(cp_sql_parser *p, bool in_alter, cp_sql_column_def *c, paimon_error *err) {
  if (in_alter)
    CP_RETURN_IF_ERROR(column_path(p, &c->parent, &c->name, &c->pos, err));
  else
    CP_RETURN_IF_ERROR(cp_ps_ident(p, &c->name, &c->pos, err));
  CP_RETURN_IF_ERROR(cp_ps_type(p, &c->type, err));
  if (cp_ps_accept_kw(p, "comment")) {
    size_t len;
    CP_RETURN_IF_ERROR(cp_ps_string(p, &c->comment, &len, err));
  }
  if (cp_ps_kw(p, "default") || cp_ps_kw(p, "generated"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "column defaults are not supported");
  if (in_alter && cp_ps_accept_kw(p, "first")) {
    c->position = "FIRST";
  } else if (in_alter && cp_ps_accept_kw(p, "after")) {
    c->position = "AFTER";
    CP_RETURN_IF_ERROR(cp_ps_ident(p, &c->after, NULL, err));
  }
  return PAIMON_OK;
}

/* coldef, ... ; `parens`: enclosed in '(' ')'. */
static int column_defs(cp_sql_parser *p, bool parens, bool in_alter, cp_sql_column_def **out,
                       size_t *n, paimon_error *err) {
  if (parens) CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    if (parens && (cp_ps_kw(p, "primary") || cp_ps_kw(p, "constraint"))) {
      rc = cp_ps_error_at(p, cp_ps_pos(p), err,
                          "PRIMARY KEY constraints are not supported (append tables have none)");
      break;
    }
    cp_sql_column_def *c = cp_ps_alloc(p, sizeof *c, err);
    rc = c ? column_def(p, in_alter, c, err) : PAIMON_ENOMEM;
    if (!rc) rc = cp_ps_vec_push(&v, c, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc && parens) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_column_def), (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

/* DROP COLUMNS' names, each possibly nested: the last names into *out, the parents beside. */
static int path_list(cp_sql_parser *p, bool parens, const char ***out, cp_sql_name **parents,
                     size_t *n, paimon_error *err) {
  if (parens) CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0}, pv = {0};
  int rc = PAIMON_OK;
  do {
    const char *id;
    cp_sql_name *parent = cp_ps_alloc(p, sizeof *parent, err);
    rc = parent ? column_path(p, parent, &id, NULL, err) : PAIMON_ENOMEM;
    if (!rc) rc = cp_ps_vec_push(&v, (void *)id, err);
    if (!rc) rc = cp_ps_vec_push(&pv, parent, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc && parens) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)out, err);
  if (!rc) rc = cp_ps_vec_finish(p, &pv, sizeof(cp_sql_name), (void **)parents, err);
  cp_ps_vec_free(&v);
  cp_ps_vec_free(&pv);
  return rc;
}

static int ident_list(cp_sql_parser *p, bool parens, const char ***out, size_t *n,
                      paimon_error *err) {
  if (parens) CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    const char *id;
    rc = cp_ps_ident(p, &id, NULL, err);
    if (!rc) rc = cp_ps_vec_push(&v, (void *)id, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc && parens) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}

/* The optional clauses after CREATE TABLE's column list, in any order. */
static int create_table_clauses(cp_sql_parser *p, cp_sql_create_table *c, paimon_error *err) {
  for (;;) {
    size_t len;
    if (cp_ps_accept_kw(p, "using")) {
      cp_sql_pos pos = cp_ps_pos(p);
      const char *provider;
      CP_RETURN_IF_ERROR(cp_ps_ident(p, &provider, NULL, err));
      if (strcasecmp(provider, "paimon") != 0)
        return cp_ps_error_at(p, pos, err, "table provider '%s' is not supported (only paimon)",
                              provider);
    } else if (cp_ps_kw(p, "partitioned")) {
      cp_ps_next(p);
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "by", err));
      c->partition_pos = cp_ps_pos(p);
      CP_RETURN_IF_ERROR(ident_list(p, true, &c->partition_keys, &c->n_partition_keys, err));
    } else if (cp_ps_accept_kw(p, "comment")) {
      CP_RETURN_IF_ERROR(cp_ps_string(p, &c->comment, &len, err));
    } else if (cp_ps_accept_kw(p, "tblproperties") || cp_ps_accept_kw(p, "with")) {
      if (c->properties)
        return cp_ps_error_at(p, cp_ps_pos(p), err, "table properties given twice");
      CP_RETURN_IF_ERROR(properties(p, true, &c->properties, &c->n_properties, err));
    } else if (cp_ps_kw(p, "location") || cp_ps_kw(p, "clustered") || cp_ps_kw(p, "stored") ||
               cp_ps_kw(p, "as")) {
      return cp_ps_error_at(p, cp_ps_pos(p), err, "CREATE TABLE ... %s is not supported",
                            cp_ps_peek(p)->text);
    } else {
      return PAIMON_OK;
    }
  }
}

/* CREATE DATABASE's [COMMENT 'c'] [LOCATION 'path'] [WITH (DBPROPERTIES | PROPERTIES) (k = v,
 * ...)], in any order (Spark): the comment in c->comment, the location as the property
 * "location" after the others (as Spark's catalog passes it). */
static int database_clauses(cp_sql_parser *p, cp_sql_create_table *c, paimon_error *err) {
  const char *location = NULL;
  bool seen_props = false;
  for (;;) {
    size_t len;
    if (!c->comment && cp_ps_accept_kw(p, "comment")) {
      CP_RETURN_IF_ERROR(cp_ps_string(p, &c->comment, &len, err));
    } else if (!location && cp_ps_accept_kw(p, "location")) {
      CP_RETURN_IF_ERROR(cp_ps_string(p, &location, &len, err));
    } else if (!seen_props && cp_ps_accept_kw(p, "with")) {
      if (!cp_ps_accept_kw(p, "dbproperties"))
        CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "properties", err));
      CP_RETURN_IF_ERROR(properties(p, true, &c->properties, &c->n_properties, err));
      seen_props = true;
    } else {
      break;
    }
  }
  if (!location) return PAIMON_OK;
  cp_sql_property *grown = cp_ps_alloc(p, (c->n_properties + 1) * sizeof *grown, err);
  if (!grown) return PAIMON_ENOMEM;
  if (c->n_properties) memcpy(grown, c->properties, c->n_properties * sizeof *grown);
  grown[c->n_properties].key = "location";
  grown[c->n_properties].value = location;
  c->properties = grown;
  c->n_properties++;
  return PAIMON_OK;
}

int cp_ps_create(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_ps_next(p); /* CREATE */
  if (database_word(p)) {
    cp_ps_next(p);
    s->kind = CP_SQL_S_CREATE_DATABASE;
    CP_RETURN_IF_ERROR(if_not_exists(p, &s->if_not_exists, err));
    CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 1, &s->name, err));
    return database_clauses(p, &s->create, err);
  }
  if (cp_ps_kw(p, "or") || cp_ps_kw(p, "external") || cp_ps_kw(p, "temporary") ||
      cp_ps_kw(p, "view"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "CREATE %s is not supported", cp_ps_peek(p)->text);
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "table", err));
  s->kind = CP_SQL_S_CREATE_TABLE;
  cp_sql_create_table *c = &s->create;
  CP_RETURN_IF_ERROR(if_not_exists(p, &c->if_not_exists, err));
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 2, &c->table, err));
  if (cp_ps_kw(p, "as") || cp_ps_kw(p, "like"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "CREATE TABLE ... %s is not supported",
                          cp_ps_peek(p)->text);
  CP_RETURN_IF_ERROR(column_defs(p, true, false, &c->columns, &c->n_columns, err));
  return create_table_clauses(p, c, err);
}

int cp_ps_drop(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_ps_next(p); /* DROP */
  if (database_word(p)) {
    cp_ps_next(p);
    s->kind = CP_SQL_S_DROP_DATABASE;
    CP_RETURN_IF_ERROR(if_exists(p, &s->if_exists, err));
    CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 1, &s->name, err));
    if (cp_ps_accept_kw(p, "cascade"))
      s->cascade = true;
    else
      cp_ps_accept_kw(p, "restrict");
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "table", err));
  s->kind = CP_SQL_S_DROP_TABLE;
  CP_RETURN_IF_ERROR(if_exists(p, &s->if_exists, err));
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 2, &s->name, err));
  cp_ps_accept_kw(p, "purge");
  return PAIMON_OK;
}

static int alter_add(cp_sql_parser *p, cp_sql_alter_table *a, paimon_error *err) {
  if (!cp_ps_accept_kw(p, "columns")) CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "column", err));
  a->kind = CP_SQL_ALTER_ADD_COLUMNS;
  return column_defs(p, cp_ps_is(p, CP_TOK_LPAREN), true, &a->columns, &a->n_columns, err);
}

static int alter_column_comment(cp_sql_parser *p, cp_sql_alter_table *a, paimon_error *err) {
  cp_ps_accept_kw(p, "column");
  a->kind = CP_SQL_ALTER_COLUMN_COMMENT;
  a->columns = cp_ps_alloc(p, sizeof *a->columns, err);
  if (!a->columns) return PAIMON_ENOMEM;
  a->n_columns = 1;
  CP_RETURN_IF_ERROR(
      column_path(p, &a->columns[0].parent, &a->columns[0].name, &a->columns[0].pos, err));
  if (cp_ps_accept_kw(p, "type")) {
    a->kind = CP_SQL_ALTER_COLUMN_TYPE;
    return cp_ps_type(p, &a->columns[0].type, err);
  }
  if (cp_ps_accept_kw(p, "first")) {
    a->kind = CP_SQL_ALTER_COLUMN_POSITION;
    return PAIMON_OK;
  }
  if (cp_ps_accept_kw(p, "after")) {
    a->kind = CP_SQL_ALTER_COLUMN_POSITION;
    a->names = cp_ps_alloc(p, sizeof *a->names, err);
    if (!a->names) return PAIMON_ENOMEM;
    a->n_names = 1;
    return cp_ps_ident(p, &a->names[0], NULL, err);
  }
  if (cp_ps_kw(p, "set") || cp_ps_kw(p, "drop")) {
    a->kind = CP_SQL_ALTER_COLUMN_NULLABILITY;
    a->not_null = cp_ps_kw(p, "set");
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "not", err));
    return cp_ps_expect_kw(p, "null", err);
  }
  if (!cp_ps_accept_kw(p, "comment"))
    return cp_ps_error(p, "COMMENT, TYPE, FIRST, AFTER, SET NOT NULL or DROP NOT NULL", err);
  size_t len;
  return cp_ps_string(p, &a->columns[0].comment, &len, err);
}

/* PARTITION (...) [, PARTITION (...)]* into a->partitions. */
static int partition_list(cp_sql_parser *p, cp_sql_alter_table *a, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_partition *part = cp_ps_alloc(p, sizeof *part, err);
    rc = part ? cp_ps_expect_kw(p, "partition", err) : PAIMON_ENOMEM;
    if (!rc) rc = cp_ps_partition_spec(p, &part->items, &part->n, err);
    if (!rc) rc = cp_ps_vec_push(&v, part, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  a->n_partitions = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, sizeof(cp_sql_partition), (void **)&a->partitions, err);
  cp_ps_vec_free(&v);
  return rc;
}

/* ALTER TABLE t DROP [IF EXISTS] PARTITION (...) [, PARTITION (...)]* */
static int drop_partitions(cp_sql_parser *p, cp_sql_alter_table *a, paimon_error *err) {
  a->kind = CP_SQL_ALTER_DROP_PARTITIONS;
  CP_RETURN_IF_ERROR(if_exists(p, &a->if_exists, err));
  return partition_list(p, a, err);
}

int cp_ps_truncate(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_ps_next(p); /* TRUNCATE */
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "table", err));
  s->kind = CP_SQL_S_TRUNCATE;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 2, &s->alter.table, err));
  return cp_ps_kw(p, "partition") ? partition_list(p, &s->alter, err) : PAIMON_OK;
}

/* One CALL argument value: a string, a (signed) number, TRUE / FALSE or NULL. */
static int call_value(cp_sql_parser *p, cp_sql_call_arg *a, paimon_error *err) {
  a->pos = cp_ps_pos(p);
  bool minus = cp_ps_accept(p, CP_TOK_MINUS);
  const cp_sql_token *t = cp_ps_peek(p);
  if (!minus && t->kind == CP_TOK_STRING) {
    a->is_string = true;
  } else if (t->kind == CP_TOK_NUMBER) {
  } else if (!minus && t->kind == CP_TOK_IDENT &&
             (strcasecmp(t->text, "true") == 0 || strcasecmp(t->text, "false") == 0 ||
              strcasecmp(t->text, "null") == 0)) {
    a->is_null = strcasecmp(t->text, "null") == 0;
  } else {
    return cp_ps_error(p, "a literal (a string, a number, TRUE, FALSE or NULL)", err);
  }
  cp_buf b = CP_BUF_INIT;
  int rc = cp_buf_appendf(&b, err, "%s%.*s", minus ? "-" : "", (int)t->text_len, t->text);
  if (!rc) a->text = cp_ps_strdup(p, (const char *)b.data, b.len, err);
  cp_buf_free(&b);
  if (!rc && !a->text) rc = PAIMON_ENOMEM;
  if (!rc) cp_ps_next(p);
  return rc;
}

/* CALL [catalog.][sys.]procedure([name =>] value, ...) */
int cp_ps_call(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_sql_call *c = &s->call;
  cp_ps_next(p); /* CALL */
  s->kind = CP_SQL_S_CALL;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 3, &c->procedure, err));
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  size_t cap = 0;
  while (!cp_ps_is(p, CP_TOK_RPAREN)) {
    if (c->n_args) CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_COMMA, err));
    if (c->n_args == cap) {
      size_t ncap = cap ? 2 * cap : 4;
      cp_sql_call_arg *grown = cp_ps_alloc(p, ncap * sizeof *grown, err);
      if (!grown) return PAIMON_ENOMEM;
      if (c->n_args) memcpy(grown, c->args, c->n_args * sizeof *grown);
      c->args = grown;
      cap = ncap;
    }
    cp_sql_call_arg *a = &c->args[c->n_args++];
    const cp_sql_token *t = cp_ps_peek(p);
    if ((t->kind == CP_TOK_IDENT || t->kind == CP_TOK_QIDENT) &&
        cp_ps_peek_at(p, 1)->kind == CP_TOK_EQ && cp_ps_peek_at(p, 2)->kind == CP_TOK_GT) {
      /* A parameter name may be a reserved word (Spark's `where => ...`). */
      if (t->kind == CP_TOK_IDENT) {
        cp_ps_next(p);
        if (!(a->name = cp_ps_strdup(p, t->text, t->text_len, err))) return PAIMON_ENOMEM;
      } else {
        CP_RETURN_IF_ERROR(cp_ps_ident(p, &a->name, NULL, err));
      }
      cp_ps_next(p); /* = */
      cp_ps_next(p); /* > */
    }
    CP_RETURN_IF_ERROR(call_value(p, a, err));
  }
  cp_ps_next(p); /* ) */
  return PAIMON_OK;
}

int cp_ps_alter(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  cp_sql_alter_table *a = &s->alter;
  cp_ps_next(p); /* ALTER */
  if (database_word(p)) {
    /* ALTER DATABASE d SET (DBPROPERTIES | PROPERTIES) (k = v, ...) */
    cp_ps_next(p);
    s->kind = CP_SQL_S_ALTER_DATABASE;
    CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 1, &s->name, err));
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "set", err));
    if (!cp_ps_accept_kw(p, "dbproperties"))
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "properties", err));
    return properties(p, true, &s->create.properties, &s->create.n_properties, err);
  }
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "table", err));
  s->kind = CP_SQL_S_ALTER_TABLE;
  CP_RETURN_IF_ERROR(cp_ps_qualified_name(p, 2, &a->table, err));
  if (cp_ps_accept_kw(p, "add")) return alter_add(p, a, err);
  if (cp_ps_kw(p, "rename") && cp_ps_kw_at(p, 1, "column")) {
    cp_ps_next(p);
    cp_ps_next(p);
    a->kind = CP_SQL_ALTER_RENAME_COLUMN;
    a->names = cp_ps_alloc(p, 2 * sizeof *a->names, err);
    if (!a->names) return PAIMON_ENOMEM;
    a->n_names = 2;
    a->parents = cp_ps_alloc(p, 2 * sizeof *a->parents, err);
    if (!a->parents) return PAIMON_ENOMEM;
    CP_RETURN_IF_ERROR(column_path(p, &a->parents[0], &a->names[0], NULL, err));
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "to", err));
    return cp_ps_ident(p, &a->names[1], NULL, err);
  }
  if (cp_ps_accept_kw(p, "drop")) {
    if (cp_ps_kw(p, "partition") || (cp_ps_kw(p, "if") && cp_ps_kw_at(p, 1, "exists")))
      return drop_partitions(p, a, err);
    if (!cp_ps_accept_kw(p, "columns")) CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "column", err));
    a->kind = CP_SQL_ALTER_DROP_COLUMNS;
    return path_list(p, cp_ps_is(p, CP_TOK_LPAREN), &a->names, &a->parents, &a->n_names, err);
  }
  if (cp_ps_accept_kw(p, "set")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "tblproperties", err));
    a->kind = CP_SQL_ALTER_SET_PROPERTIES;
    return properties(p, true, &a->properties, &a->n_properties, err);
  }
  if (cp_ps_accept_kw(p, "unset")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "tblproperties", err));
    a->kind = CP_SQL_ALTER_UNSET_PROPERTIES;
    CP_RETURN_IF_ERROR(if_exists(p, &a->if_exists, err));
    return properties(p, false, &a->properties, &a->n_properties, err);
  }
  if (cp_ps_accept_kw(p, "alter") || cp_ps_accept_kw(p, "change"))
    return alter_column_comment(p, a, err);
  if (cp_ps_accept_kw(p, "rename")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "to", err));
    a->kind = CP_SQL_ALTER_RENAME_TABLE;
    return cp_ps_qualified_name(p, 2, &a->new_name, err);
  }
  return cp_ps_error(p, "ADD, DROP, RENAME, ALTER COLUMN, SET or UNSET TBLPROPERTIES", err);
}

int cp_ps_use_show_describe(cp_sql_parser *p, paimon_error *err) {
  cp_sql_stmt *s = p->stmt;
  if (cp_ps_accept_kw(p, "use")) {
    s->kind = CP_SQL_S_USE;
    if (database_word(p) && cp_ps_peek_at(p, 1)->kind != CP_TOK_SEMI &&
        cp_ps_peek_at(p, 1)->kind != CP_TOK_EOF)
      cp_ps_next(p);
    return cp_ps_qualified_name(p, 1, &s->name, err);
  }
  if (cp_ps_accept_kw(p, "show")) {
    if (databases_word(p)) {
      cp_ps_next(p);
      s->kind = CP_SQL_S_SHOW_DATABASES;
      return PAIMON_OK;
    }
    if (cp_ps_accept_kw(p, "partitions")) {
      s->kind = CP_SQL_S_SHOW_PARTITIONS;
      return cp_ps_qualified_name(p, 2, &s->name, err);
    }
    if (!cp_ps_accept_kw(p, "tables"))
      return cp_ps_error(p, "DATABASES, TABLES or PARTITIONS", err);
    s->kind = CP_SQL_S_SHOW_TABLES;
    if (cp_ps_accept_kw(p, "from") || cp_ps_accept_kw(p, "in"))
      return cp_ps_qualified_name(p, 1, &s->name, err);
    return PAIMON_OK;
  }
  cp_ps_next(p); /* DESCRIBE / DESC */
  s->kind = CP_SQL_S_DESCRIBE;
  if (database_word(p))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "DESCRIBE DATABASE is not supported");
  cp_ps_accept_kw(p, "table");
  if (cp_ps_accept_kw(p, "extended") || cp_ps_accept_kw(p, "formatted")) s->extended = true;
  return cp_ps_qualified_name(p, 2, &s->name, err);
}
