/* Tests for the filesystem catalog (include/cpaimon/catalog.h): databases, create/get/drop/list
 * tables, Paimon's create-table validation messages, ALTER TABLE semantics and messages, and the
 * table being left unchanged by a failed change. */
#include "cpaimon/catalog.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table/store.h"
#include "table/table.h"
#include "test.h"

static char warehouse[256];

static void make_warehouse(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(warehouse, sizeof warehouse, "%s/catalog-XXXXXX", tmp ? tmp : "/tmp");
  if (!mkdtemp(warehouse)) abort();
}

static paimon_schema *schema_of(const char *const *cols, size_t n) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  for (size_t i = 0; i < n; i += 2)
    CHECK_OK(paimon_schema_add_column(s, cols[i], cols[i + 1], NULL, &err), &err);
  return s;
}

static void test_databases(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "db1", false, &err), &err);
  CHECK_ERR(paimon_catalog_create_database(c, "db1", false, &err), PAIMON_EEXIST);
  CHECK_STR(err.message, "Database db1 already exists.");
  CHECK_OK(paimon_catalog_create_database(c, "db1", true, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "db2", false, &err), &err);
  CHECK_ERR(paimon_catalog_create_database(c, "../evil", false, &err), PAIMON_EINVAL);
  paimon_string_list l;
  CHECK_OK(paimon_catalog_list_databases(c, &l, &err), &err);
  CHECK_INT(l.count, 2);
  if (l.count == 2) {
    CHECK_STR(l.items[0], "db1");
    CHECK_STR(l.items[1], "db2");
  }
  paimon_string_list_free(&l);
  CHECK_OK(paimon_catalog_drop_database(c, "db2", false, false, &err), &err);
  CHECK_ERR(paimon_catalog_drop_database(c, "db2", false, false, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Database db2 does not exist.");
  paimon_catalog_free(c);
}

static void test_create_get_drop_table(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  const char *cols[] = {"id", "INT NOT NULL", "name", "STRING", "dt", "STRING"};
  paimon_schema *s = schema_of(cols, 6);
  const char *pk[] = {"dt"};
  CHECK_OK(paimon_schema_set_partition_keys(s, pk, 1, &err), &err);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  CHECK_ERR(paimon_catalog_create_table(c, "nodb.t", s, false, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Database nodb does not exist.");
  CHECK_OK(paimon_catalog_create_table(c, "db1.t", s, false, &err), &err);
  CHECK_ERR(paimon_catalog_create_table(c, "db1.t", s, false, &err), PAIMON_EEXIST);
  CHECK_STR(err.message, "Table db1.t already exists.");
  CHECK_OK(paimon_catalog_create_table(c, "db1.t", s, true, &err), &err);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(c, "db1.t", &t, &err), &err);
  if (t) {
    CHECK_STR(paimon_table_name(t), "db1.t");
    CHECK_INT(paimon_table_schema_id(t), 0);
    CHECK_STR(paimon_table_option(t, "row-tracking.enabled"), "true");
    CHECK_INT(paimon_table_partition_key_count(t), 1);
    CHECK(t->options.row_tracking && !t->options.data_evolution && t->options.bucket == -1);
    CHECK_INT(t->schema->row->fields[2].id, 2);
    CHECK_INT(t->schema->highest_field_id, 2);
    int64_t snap = -1;
    CHECK_OK(paimon_table_latest_snapshot_id(t, &snap, &err), &err);
    CHECK_INT(snap, 0);
    char *json = NULL;
    CHECK_OK(paimon_table_schema_json(t, &json, &err), &err);
    CHECK_CONTAINS(json, "\"partitionKeys\" : [ \"dt\" ]");
    free(json);
  }
  paimon_table_free(t);
  paimon_string_list l;
  CHECK_OK(paimon_catalog_list_tables(c, "db1", &l, &err), &err);
  CHECK_INT(l.count, 1);
  paimon_string_list_free(&l);
  CHECK_ERR(paimon_catalog_get_table(c, "db1.nope", &t, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table db1.nope does not exist.");
  CHECK_ERR(paimon_catalog_get_table(c, "nodot", &t, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_catalog_drop_database(c, "db1", false, false, &err), PAIMON_ESTATE);
  CHECK_STR(err.message, "Database db1 is not empty.");
  CHECK_OK(paimon_catalog_drop_table(c, "db1.t", false, &err), &err);
  CHECK_ERR(paimon_catalog_drop_table(c, "db1.t", false, &err), PAIMON_ENOTFOUND);
  paimon_schema_free(s);
  paimon_catalog_free(c);
}

/* A file system keeps no database options, refuses a location and ALTER DATABASE (Java's). */
static void test_database_options(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  const char *k[] = {"location"}, *v[] = {"/elsewhere"};
  CHECK_ERR(paimon_catalog_create_database_options(c, "dbo", false, k, v, 1, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Cannot specify location for a database when using fileSystem catalog.");
  bool exists = true;
  CHECK_OK(paimon_catalog_database_exists(c, "dbo", &exists, &err), &err);
  CHECK(!exists);
  const char *k2[] = {"owner"}, *v2[] = {"me"};
  CHECK_OK(paimon_catalog_create_database_options(c, "dbo", false, k2, v2, 1, &err), &err);
  paimon_database db;
  CHECK_OK(paimon_catalog_get_database(c, "dbo", &db, &err), &err);
  CHECK_STR(db.name, "dbo");
  CHECK(db.n_options == 0 && db.comment == NULL);
  paimon_database_free(&db);
  CHECK_ERR(paimon_catalog_get_database(c, "nodb", &db, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Database nodb does not exist.");
  paimon_property_change ch = {"k", "v"};
  CHECK_ERR(paimon_catalog_alter_database(c, "dbo", &ch, 1, false, &err), PAIMON_EUNSUPPORTED);
  CHECK_STR(err.message, "Alter database is not supported.");
  CHECK_OK(paimon_catalog_alter_database(c, "dbo", &ch, 0, false, &err), &err);
  CHECK_ERR(paimon_catalog_alter_database(c, "nodb", &ch, 1, false, &err), PAIMON_ENOTFOUND);
  CHECK_OK(paimon_catalog_alter_database(c, "nodb", &ch, 1, true, &err), &err);
  paimon_catalog_free(c);
}

/* Renaming moves the table's directory: the same schema and options under the new name, within a
 * database or into another; Java's messages for what is refused; the source stays on refusal. */
static void test_rename_table(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "rn1", true, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "rn2", true, &err), &err);
  const char *cols[] = {"id", "INT NOT NULL"};
  paimon_schema *s = schema_of(cols, 2);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  CHECK_OK(paimon_catalog_create_table(c, "rn1.a", s, false, &err), &err);
  CHECK_OK(paimon_catalog_create_table(c, "rn1.taken", s, false, &err), &err);
  CHECK_OK(paimon_catalog_rename_table(c, "rn1.a", "rn1.b", false, &err), &err);
  paimon_table *t = NULL;
  CHECK_ERR(paimon_catalog_get_table(c, "rn1.a", &t, &err), PAIMON_ENOTFOUND);
  CHECK_OK(paimon_catalog_rename_table(c, "rn1.b", "rn2.c", false, &err), &err);
  CHECK_OK(paimon_catalog_get_table(c, "rn2.c", &t, &err), &err);
  if (t) CHECK_STR(paimon_table_option(t, "row-tracking.enabled"), "true");
  paimon_table_free(t);
  CHECK_ERR(paimon_catalog_rename_table(c, "rn2.c", "rn1.taken", false, &err), PAIMON_EEXIST);
  CHECK_STR(err.message, "Table rn1.taken already exists.");
  CHECK_ERR(paimon_catalog_rename_table(c, "rn1.nope", "rn1.x", false, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table rn1.nope does not exist.");
  CHECK_OK(paimon_catalog_rename_table(c, "rn1.nope", "rn1.x", true, &err), &err);
  CHECK_ERR(paimon_catalog_rename_table(c, "rn2.c", "nodb.x", false, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Database nodb does not exist.");
  CHECK_ERR(paimon_catalog_rename_table(c, "rn2.c$files", "rn2.d", false, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "Cannot 'renameTable' for system table");
  CHECK_ERR(paimon_catalog_rename_table(c, "rn2.c", "nodot", false, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_catalog_get_table(c, "rn2.c", &t, &err), &err); /* still there */
  paimon_table_free(t);
  paimon_string_list l;
  CHECK_OK(paimon_catalog_list_tables(c, "rn1", &l, &err), &err);
  CHECK_INT(l.count, 1);
  if (l.count) CHECK_STR(l.items[0], "taken");
  paimon_string_list_free(&l);
  paimon_schema_free(s);
  paimon_catalog_free(c);
}

/* Java SchemaValidation / Schema messages (spec data-evolution.md §0). */
static void test_create_validation(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  const char *cols[] = {"id", "INT NOT NULL", "v", "STRING"};
  struct {
    const char *key, *value, *pk, *part, *message;
  } cases[] = {
      {"row-tracking.enabled", "true", "id", NULL,
       "Cannot define primary-key for row tracking table."},
      {"data-evolution.enabled", "true", NULL, NULL,
       "Data evolution config must enabled with row-tracking.enabled"},
      {"bucket", "2", NULL, NULL,
       "Cannot define bucket for row tracking table, it only support bucket = -1"},
      {NULL, NULL, NULL, "x", "Table column [id, v] should include all partition fields [x]"},
      {"file.format", "orc", NULL, NULL, "file.format 'orc' is not supported"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    paimon_schema *s = schema_of(cols, 4);
    if (cases[i].key)
      CHECK_OK(paimon_schema_set_option(s, cases[i].key, cases[i].value, &err), &err);
    if (i == 2) CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
    if (cases[i].pk) CHECK_OK(paimon_schema_set_primary_keys(s, &cases[i].pk, 1, &err), &err);
    if (cases[i].part) CHECK_OK(paimon_schema_set_partition_keys(s, &cases[i].part, 1, &err), &err);
    CHECK(paimon_catalog_create_table(c, "db1.bad", s, false, &err) != 0);
    CHECK_CONTAINS(err.message, cases[i].message);
    paimon_schema_free(s);
  }
  /* A user column named like a row-tracking column. */
  const char *rcols[] = {"_ROW_ID", "BIGINT"};
  paimon_schema *s = schema_of(rcols, 2);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  CHECK_ERR(paimon_catalog_create_table(c, "db1.bad", s, false, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Row tracking field name '_ROW_ID' conflicts with existing field names.");
  paimon_schema_free(s);
  /* Nothing was created by the failures. */
  bool exists = true;
  paimon_table *t = NULL;
  CHECK_ERR(paimon_catalog_get_table(c, "db1.bad", &t, &err), PAIMON_ENOTFOUND);
  (void)exists;
  paimon_catalog_free(c);
}

/* Column type (widening), nullability and position, with Java's rules and messages. */
static void test_alter_column_type_position(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "evo", true, &err), &err);
  const char *cols[] = {"a", "INT", "b", "FLOAT", "c", "STRING NOT NULL", "r", "ROW<x INT>"};
  paimon_schema *s = schema_of(cols, 8);
  CHECK_OK(paimon_catalog_create_table(c, "evo.t", s, false, &err), &err);
  paimon_schema_free(s);
  paimon_schema_change ok[] = {
      {PAIMON_UPDATE_COLUMN_TYPE, "a", NULL, "BIGINT", NULL, NULL, NULL, 0},
      {PAIMON_UPDATE_COLUMN_TYPE, "b", "keep-nullability", "DOUBLE NOT NULL", NULL, NULL, NULL, 0},
      {PAIMON_UPDATE_COLUMN_NULLABILITY, "c", "true", NULL, NULL, NULL, NULL, 0},
      {PAIMON_UPDATE_COLUMN_POSITION, "c", "FIRST", NULL, NULL, NULL, NULL, 0},
      {PAIMON_UPDATE_COLUMN_POSITION, "a", "AFTER", NULL, NULL, "r", NULL, 0},
      {PAIMON_UPDATE_COLUMN_POSITION, "b", "BEFORE", NULL, NULL, "c", NULL, 0},
      {PAIMON_UPDATE_COLUMN_TYPE, "r", NULL, "ROW<y INT> NOT NULL", NULL, NULL, NULL, 0},
  };
  /* the last one changes the nested structure: refused, and all of them with it */
  CHECK_ERR(paimon_catalog_alter_table(c, "evo.t", ok, 7, false, &err), PAIMON_EUNSUPPORTED);
  CHECK_OK(paimon_catalog_alter_table(c, "evo.t", ok, 6, false, &err), &err);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(c, "evo.t", &t, &err), &err);
  if (t) {
    const cp_field *f = t->schema->row->fields;
    CHECK_STR(f[0].name, "b");
    CHECK_STR(f[1].name, "c");
    CHECK_STR(f[2].name, "r");
    CHECK_STR(f[3].name, "a");
    CHECK(f[3].type->kind == CP_TYPE_BIGINT && f[3].id == 0 && f[3].type->nullable);
    CHECK(f[0].type->kind == CP_TYPE_DOUBLE && f[0].type->nullable); /* kept nullable */
    CHECK(f[1].type->nullable);
    CHECK_INT(f[2].type->fields[0].id, 4); /* nested ids untouched */
  }
  paimon_table_free(t);
  struct {
    paimon_schema_change change;
    int code;
    const char *message;
  } bad[] = {
      {{PAIMON_UPDATE_COLUMN_TYPE, "c", NULL, "INT", NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "Column type c[STRING] cannot be converted to INT"},
      {{PAIMON_UPDATE_COLUMN_TYPE, "a", NULL, "INT", NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "cannot be converted"},
      {{PAIMON_UPDATE_COLUMN_NULLABILITY, "a", "false", NULL, NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "Cannot update column type from nullable to non nullable for a."},
      {{PAIMON_UPDATE_COLUMN_NULLABILITY, "a", "maybe", NULL, NULL, NULL, NULL, 0},
       PAIMON_EINVAL,
       "true"},
      {{PAIMON_UPDATE_COLUMN_POSITION, "zz", "FIRST", NULL, NULL, NULL, NULL, 0},
       PAIMON_EINVAL,
       "Field name not found: zz"},
      {{PAIMON_UPDATE_COLUMN_POSITION, "a", "AFTER", NULL, NULL, "zz", NULL, 0},
       PAIMON_EINVAL,
       "Reference field name not found: zz"},
      {{PAIMON_UPDATE_COLUMN_POSITION, "a", "LAST", NULL, NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "Cannot move itself for column a"},
      {{PAIMON_UPDATE_COLUMN_POSITION, "a", "SIDEWAYS", NULL, NULL, NULL, NULL, 0},
       PAIMON_EINVAL,
       "SIDEWAYS"},
      {{PAIMON_UPDATE_COLUMN_TYPE, "zz", NULL, "INT", NULL, NULL, NULL, 0},
       PAIMON_ENOTFOUND,
       "Column zz does not exist"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(paimon_catalog_alter_table(c, "evo.t", &bad[i].change, 1, false, &err), bad[i].code);
    CHECK_CONTAINS(err.message, bad[i].message);
  }
  paimon_catalog_free(c);
}

/* Nested columns by path (Java's fieldNames): inside a ROW, an ARRAY's element ROW and a MAP's
 * value ROW; new fields take the next ids; errors leave the schema as it was. */
static void test_alter_nested(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  CHECK_OK(paimon_catalog_create_database(c, "nest", true, &err), &err);
  const char *cols[] = {"id", "INT",
                        "r",  "ROW<x INT, y STRING>",
                        "v",  "ARRAY<ROW<a INT>>",
                        "m",  "MAP<STRING, ROW<p INT>>"};
  paimon_schema *s = schema_of(cols, 8);
  CHECK_OK(paimon_catalog_create_table(c, "nest.t", s, false, &err), &err);
  paimon_schema_free(s);
  const char *rz[] = {"r", "z"}, *rx[] = {"r", "x"}, *ry[] = {"r", "y"};
  const char *va[] = {"v", "element", "a"}, *vb[] = {"v", "element", "b"};
  const char *mp[] = {"m", "value", "p"}, *ve[] = {"v", "element"};
  paimon_schema_change ok[] = {
      {PAIMON_ADD_COLUMN, NULL, "FIRST", "STRING", "zc", NULL, rz, 2},
      {PAIMON_RENAME_COLUMN, NULL, "x2", NULL, NULL, NULL, rx, 2},
      {PAIMON_DROP_COLUMN, NULL, NULL, NULL, NULL, NULL, ry, 2},
      {PAIMON_UPDATE_COLUMN_TYPE, NULL, NULL, "BIGINT", NULL, NULL, va, 3},
      {PAIMON_ADD_COLUMN, NULL, "BEFORE", "INT", NULL, "a", vb, 3},
      {PAIMON_UPDATE_COLUMN_COMMENT, NULL, NULL, NULL, "pc", NULL, mp, 3},
      {PAIMON_UPDATE_COLUMN_NULLABILITY, NULL, "false", NULL, NULL, NULL, ve, 2},
  };
  /* element nullability NOT NULL is refused by default: the whole statement with it */
  CHECK_ERR(paimon_catalog_alter_table(c, "nest.t", ok, 7, false, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "for v.element");
  CHECK_OK(paimon_catalog_alter_table(c, "nest.t", ok, 6, false, &err), &err);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(c, "nest.t", &t, &err), &err);
  if (t) {
    const cp_type *r = t->schema->row->fields[1].type;
    CHECK_INT(r->n_fields, 2);
    CHECK_STR(r->fields[0].name, "z");
    CHECK_INT(r->fields[0].id, 8); /* the highest id was 7 (m.p) */
    CHECK_STR(r->fields[0].description, "zc");
    CHECK_STR(r->fields[1].name, "x2");
    CHECK_INT(r->fields[1].id, 2);
    const cp_type *el = t->schema->row->fields[2].type->element;
    CHECK_INT(el->n_fields, 2);
    CHECK_STR(el->fields[0].name, "b");
    CHECK_INT(el->fields[0].id, 9);
    CHECK(el->fields[1].type->kind == CP_TYPE_BIGINT);
    CHECK_STR(t->schema->row->fields[3].type->value->fields[0].description, "pc");
    CHECK_INT(t->schema->highest_field_id, 9);
  }
  paimon_table_free(t);
  const char *nope[] = {"r", "nope"}, *deep[] = {"zz", "q"}, *wrong[] = {"v", "items", "a"};
  const char *under_int[] = {"id", "q"}, *only[] = {"m", "value", "p"}, *empty[] = {"r", ""};
  struct {
    paimon_schema_change change;
    int code;
    const char *message;
  } bad[] = {
      {{PAIMON_ADD_COLUMN, NULL, NULL, "INT", NULL, NULL, rz, 2},
       PAIMON_EEXIST,
       "Column r.z already exists in the nest.t table."},
      {{PAIMON_RENAME_COLUMN, NULL, "x2", NULL, NULL, NULL, rz, 2},
       PAIMON_EEXIST,
       "Column r.x2 already exists in the nest.t table."},
      {{PAIMON_DROP_COLUMN, NULL, NULL, NULL, NULL, NULL, nope, 2},
       PAIMON_ENOTFOUND,
       "Column r.nope does not exist in the nest.t table."},
      {{PAIMON_UPDATE_COLUMN_COMMENT, NULL, NULL, NULL, "c", NULL, deep, 2},
       PAIMON_ENOTFOUND,
       "Column zz does not exist in the nest.t table."},
      {{PAIMON_ADD_COLUMN, NULL, NULL, "INT", NULL, NULL, wrong, 3},
       PAIMON_ENOTFOUND,
       "Column v.items.a does not exist"},
      {{PAIMON_ADD_COLUMN, NULL, NULL, "INT", NULL, NULL, under_int, 2},
       PAIMON_ENOTFOUND,
       "Column id.q does not exist"},
      {{PAIMON_DROP_COLUMN, NULL, NULL, NULL, NULL, NULL, only, 3},
       PAIMON_EINVAL,
       "Cannot drop all fields in table"},
      {{PAIMON_ADD_COLUMN, NULL, "AFTER", "INT", NULL, "nope", nope, 2},
       PAIMON_ENOTFOUND,
       "Column nope does not exist"},
      {{PAIMON_RENAME_COLUMN, NULL, "w", NULL, NULL, NULL, ve, 2},
       PAIMON_EINVAL,
       "names the element or value"},
      {{PAIMON_ADD_COLUMN, NULL, NULL, "INT", NULL, NULL, empty, 2},
       PAIMON_EINVAL,
       "needs a column name"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(paimon_catalog_alter_table(c, "nest.t", &bad[i].change, 1, false, &err), bad[i].code);
    CHECK_CONTAINS(err.message, bad[i].message);
  }
  CHECK_OK(paimon_catalog_get_table(c, "nest.t", &t, &err), &err);
  if (t) CHECK_INT(t->schema->id, 1); /* still the schema of the one successful alter */
  paimon_table_free(t);
  paimon_catalog_free(c);
}

static void test_alter_table(void) {
  paimon_error err;
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, warehouse, &err), &err);
  const char *cols[] = {"id", "INT NOT NULL", "name", "STRING", "dt", "STRING"};
  paimon_schema *s = schema_of(cols, 6);
  const char *part[] = {"dt"};
  CHECK_OK(paimon_schema_set_partition_keys(s, part, 1, &err), &err);
  CHECK_OK(paimon_catalog_create_table(c, "db1.a", s, false, &err), &err);
  paimon_schema_free(s);

  paimon_schema_change add = {
      PAIMON_ADD_COLUMN, "embedding", NULL, "ARRAY<FLOAT>", "vec", NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(c, "db1.a", &add, 1, false, &err), &err);
  paimon_schema_change add_row = {
      PAIMON_ADD_COLUMN, "info", NULL, "ROW<a INT, b STRING>", NULL, NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(c, "db1.a", &add_row, 1, false, &err), &err);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(c, "db1.a", &t, &err), &err);
  if (t) {
    CHECK_INT(paimon_table_schema_id(t), 2);
    CHECK_INT(t->schema->row->n_fields, 5);
    CHECK_STR(t->schema->row->fields[3].name, "embedding");
    CHECK_INT(t->schema->row->fields[3].id, 3);
    CHECK_STR(t->schema->row->fields[3].description, "vec");
    /* Java assigns the new column its id first, then its nested fields. */
    CHECK_INT(t->schema->row->fields[4].id, 4);
    CHECK_INT(t->schema->row->fields[4].type->fields[0].id, 5);
    CHECK_INT(t->schema->row->fields[4].type->fields[1].id, 6);
    CHECK_INT(t->schema->highest_field_id, 6);
  }
  paimon_table_free(t);

  struct {
    paimon_schema_change change;
    int code;
    const char *message;
  } bad[] = {
      {{PAIMON_ADD_COLUMN, "x", NULL, "INT NOT NULL", NULL, NULL, NULL, 0},
       PAIMON_EINVAL,
       "Column x cannot specify NOT NULL in the db1.a table."},
      {{PAIMON_ADD_COLUMN, "name", NULL, "INT", NULL, NULL, NULL, 0},
       PAIMON_EEXIST,
       "Column name already exists in the db1.a table."},
      {{PAIMON_RENAME_COLUMN, "dt", "day", NULL, NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "Cannot rename partition column: [dt]"},
      {{PAIMON_RENAME_COLUMN, "nope", "x", NULL, NULL, NULL, NULL, 0},
       PAIMON_ENOTFOUND,
       "Column nope does not exist in the db1.a table."},
      {{PAIMON_DROP_COLUMN, "dt", NULL, NULL, NULL, NULL, NULL, 0},
       PAIMON_EUNSUPPORTED,
       "Cannot drop partition key or primary key: [dt]"},
      {{PAIMON_ADD_COLUMN, "y", NULL, "NOTATYPE", NULL, NULL, NULL, 0},
       PAIMON_EINVAL,
       "column 'y'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ERR(paimon_catalog_alter_table(c, "db1.a", &bad[i].change, 1, false, &err), bad[i].code);
    CHECK_CONTAINS(err.message, bad[i].message);
  }
  /* Several changes are atomic: one bad change, no new schema. */
  paimon_schema_change mixed[2] = {{PAIMON_SET_OPTION, "k", "v", NULL, NULL, NULL, NULL, 0},
                                   {PAIMON_DROP_COLUMN, "nope", NULL, NULL, NULL, NULL, NULL, 0}};
  CHECK_ERR(paimon_catalog_alter_table(c, "db1.a", mixed, 2, false, &err), PAIMON_ENOTFOUND);
  CHECK_OK(paimon_catalog_get_table(c, "db1.a", &t, &err), &err);
  if (t) {
    CHECK_INT(paimon_table_schema_id(t), 2);
    CHECK(paimon_table_option(t, "k") == NULL);
  }
  paimon_table_free(t);

  paimon_schema_change good[3] = {
      {PAIMON_RENAME_COLUMN, "name", "full_name", NULL, NULL, NULL, NULL, 0},
      {PAIMON_DROP_COLUMN, "info", NULL, NULL, NULL, NULL, NULL, 0},
      {PAIMON_SET_OPTION, "target-file-size", "64 mb", NULL, NULL, NULL, NULL, 0}};
  CHECK_OK(paimon_catalog_alter_table(c, "db1.a", good, 3, false, &err), &err);
  CHECK_OK(paimon_catalog_get_table(c, "db1.a", &t, &err), &err);
  if (t) {
    CHECK_INT(paimon_table_schema_id(t), 3);
    CHECK_STR(t->schema->row->fields[1].name, "full_name");
    CHECK_INT(t->schema->row->fields[1].id, 1);
    CHECK_INT(t->schema->row->n_fields, 4);
    CHECK_INT(t->schema->highest_field_id, 6); /* dropped ids are never reused */
    CHECK_INT(t->options.target_file_size, 64LL << 20);
    /* Old schemas stay readable by id. */
    const cp_table_schema *old = NULL;
    CHECK_OK(cp_table_schema_by_id(t, 0, &old, &err), &err);
    CHECK(old && old->row->n_fields == 3 && strcmp(old->row->fields[1].name, "name") == 0);
  }
  paimon_table_free(t);
  paimon_catalog_free(c);
}

/* Opening a catalog and reading through it creates nothing (hardening issue item 7); an empty
 * directory lists as empty (item 10: no qsort of a NULL array, which UBSan reports). */
static void test_reading_creates_nothing(void) {
  paimon_error err;
  char missing[300];
  snprintf(missing, sizeof missing, "%s/not/there", warehouse);
  paimon_catalog *c = NULL;
  CHECK_OK(paimon_catalog_open(&c, missing, &err), &err);
  paimon_string_list l;
  CHECK_OK(paimon_catalog_list_databases(c, &l, &err), &err);
  CHECK_INT(l.count, 0);
  paimon_table *t = NULL;
  CHECK_ERR(paimon_catalog_get_table(c, "db.t", &t, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table db.t does not exist.");
  bool exists = true;
  CHECK_OK(paimon_catalog_database_exists(c, "db", &exists, &err), &err);
  CHECK(!exists);
  char parent[300];
  snprintf(parent, sizeof parent, "%s/not", warehouse);
  CHECK(access(parent, F_OK) != 0);
  /* an empty schema directory: a listing with no entries */
  snprintf(parent, sizeof parent, "%s/empty-schema", warehouse);
  CHECK(mkdir(parent, 0755) == 0);
  int64_t *ids = NULL;
  size_t n = 7;
  CHECK_OK(cp_list_versioned(c->fs, parent, "schema-", &ids, &n, &err), &err);
  CHECK_INT(n, 0);
  free(ids);
  paimon_catalog_free(c);
}

int main(void) {
  make_warehouse();
  RUN(test_reading_creates_nothing);
  RUN(test_databases);
  RUN(test_create_get_drop_table);
  RUN(test_rename_table);
  RUN(test_database_options);
  RUN(test_create_validation);
  RUN(test_alter_table);
  RUN(test_alter_column_type_position);
  RUN(test_alter_nested);
  TEST_MAIN_END();
}
