/*
 * Catalogs, schemas and tables.
 *
 * A catalog is a warehouse directory (the filesystem catalog of Apache Paimon), on the local disk
 * or on an object store (s3://, oss://): databases are `<warehouse>/<db>.db/`, tables
 * `<warehouse>/<db>.db/<table>/` with their schema/, snapshot/, manifest/ and data directories.
 * Tables are identified as "db.table".
 *
 * Ownership: every `paimon_*` handle returned through an out-parameter belongs to the caller and is
 * released with its `_free` function. A paimon_table borrows its catalog, which must outlive it.
 * Handles are not thread-safe; use one per thread (they are cheap).
 *
 * Errors: 0 or a negative PAIMON_E* code; the message names the database, table or column, and
 * uses Apache Paimon's wording where Paimon has one ("Table db.t already exists.").
 */
#ifndef CPAIMON_CATALOG_H
#define CPAIMON_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_catalog paimon_catalog;
typedef struct paimon_schema paimon_schema;
typedef struct paimon_table paimon_table;

/* A list of strings returned by the library; free with paimon_string_list_free. */
typedef struct paimon_string_list {
  char **items;
  size_t count;
} paimon_string_list;

void paimon_string_list_free(paimon_string_list *list);

/* ---- catalog ---- */

/* Opens the catalog at `warehouse`: a local directory (a plain path or file://) or an object-store
 * location (s3://bucket/path, s3a://, s3n://, oss://) with credentials from the AWS_* environment
 * variables. Nothing is created until a database is: opening a missing warehouse to read from it
 * finds no databases. */
int paimon_catalog_open(paimon_catalog **out, const char *warehouse, paimon_error *err);

/* Opens a catalog from options, as pypaimon's CatalogFactory.create takes them: `warehouse`
 * (required), `metastore` (only "filesystem" so far), and the file-system options of
 * docs/options.md (fs.s3.endpoint, fs.s3.accessKeyId, fs.s3.accessKeySecret, fs.s3.region,
 * fs.s3.path-style-access, fs.oss.*, cpaimon.fs.*, ...). The `n` keys and values are copied. A
 * table whose own options set file-system options reaches its files with the catalog's options
 * overridden by those. Secrets in the options never appear in error messages. */
int paimon_catalog_open_options(paimon_catalog **out, const char *const *keys,
                                const char *const *values, size_t n, paimon_error *err);
void paimon_catalog_free(paimon_catalog *catalog);

const char *paimon_catalog_warehouse(const paimon_catalog *catalog);

int paimon_catalog_create_database(paimon_catalog *catalog, const char *name, bool ignore_if_exists,
                                   paimon_error *err);
/* Creates a database with `n` options (Java's createDatabase(name, ignoreIfExists, properties)).
 * A REST catalog keeps them; a file system keeps none: Java discards them, and refuses a
 * `location` (EINVAL "Cannot specify location for a database when using fileSystem catalog."). */
int paimon_catalog_create_database_options(paimon_catalog *catalog, const char *name,
                                           bool ignore_if_exists, const char *const *keys,
                                           const char *const *values, size_t n, paimon_error *err);

/* A database and its options (Java's Database). */
typedef struct paimon_database {
  char *name;
  char *comment; /* the "comment" option, or NULL */
  size_t n_options;
  char **option_keys;
  char **option_values;
} paimon_database;

/* ENOTFOUND "Database d does not exist.". A REST catalog answers with the server's options plus
 * `location` and the audit fields `owner`, `createdBy`, `createdAt`, `updatedBy`, `updatedAt`, as
 * Java's RESTCatalog.getDatabase adds them; a file-system database has no options. */
int paimon_catalog_get_database(paimon_catalog *catalog, const char *name, paimon_database *out,
                                paimon_error *err);
void paimon_database_free(paimon_database *db);

/* One database option change: `value` NULL removes `key`. */
typedef struct paimon_property_change {
  const char *key;
  const char *value;
} paimon_property_change;

/* Sets and removes database options in one request (REST); a file system refuses with
 * EUNSUPPORTED "Alter database is not supported." (Java's). No change: nothing is done. */
int paimon_catalog_alter_database(paimon_catalog *catalog, const char *name,
                                  const paimon_property_change *changes, size_t n,
                                  bool ignore_if_not_exists, paimon_error *err);
/* Drops a database; a non-empty one only with `cascade` (then its tables go too). */
int paimon_catalog_drop_database(paimon_catalog *catalog, const char *name,
                                 bool ignore_if_not_exists, bool cascade, paimon_error *err);
int paimon_catalog_list_databases(paimon_catalog *catalog, paimon_string_list *out,
                                  paimon_error *err);
int paimon_catalog_database_exists(paimon_catalog *catalog, const char *name, bool *out,
                                   paimon_error *err);

/* Creates table `identifier` ("db.table") from `schema` (not consumed). Validates Paimon's rules
 * (partition and primary keys exist, unique field ids; row tracking: no primary key, bucket -1,
 * data evolution requires row tracking, no user column named _ROW_ID/_SEQUENCE_NUMBER). */
int paimon_catalog_create_table(paimon_catalog *catalog, const char *identifier,
                                const paimon_schema *schema, bool ignore_if_exists,
                                paimon_error *err);
/* Loads a table with its latest schema. ENOTFOUND "Table db.t does not exist." */
int paimon_catalog_get_table(paimon_catalog *catalog, const char *identifier, paimon_table **out,
                             paimon_error *err);
int paimon_catalog_drop_table(paimon_catalog *catalog, const char *identifier,
                              bool ignore_if_not_exists, paimon_error *err);
/* One partition of a table (Java's Partition): its spec, and what its live files hold. */
typedef struct paimon_partition {
  size_t n_spec;
  char **spec_keys;   /* the partition keys, in order */
  char **spec_values; /* each value as a string; NULL values as partition.default-name */
  int64_t record_count;
  int64_t file_size_in_bytes;
  int64_t file_count;
  int64_t last_file_creation_time; /* epoch ms; -1 when unknown */
  bool done;                       /* marked done in the catalog (REST only) */
} paimon_partition;

typedef struct paimon_partition_list {
  paimon_partition *items;
  size_t count;
} paimon_partition_list;

void paimon_partition_list_free(paimon_partition_list *list);

/* The partitions of table `identifier`. A REST catalog answers for tables it tracks partitions of
 * (`metastore.partitioned-table`), every page; otherwise, and on a file system, they are summed
 * from the latest snapshot's live files (as Java's catalogs fall back to). An unpartitioned table
 * with data has one partition with an empty spec. */
int paimon_catalog_list_partitions(paimon_catalog *catalog, const char *identifier,
                                   paimon_partition_list *out, paimon_error *err);

/* Renames table `from` to `to` (both "db.table"; the database may change). ENOTFOUND "Table db.t
 * does not exist." (unless ignore_if_not_exists) or "Database d does not exist." for the target's
 * database; EEXIST "Table db.u already exists.". On a file system the table's directory is moved
 * (atomically, never onto an existing one; object stores have no atomic rename and refuse it with
 * EUNSUPPORTED); on a REST catalog the server renames it. */
int paimon_catalog_rename_table(paimon_catalog *catalog, const char *from, const char *to,
                                bool ignore_if_not_exists, paimon_error *err);
int paimon_catalog_list_tables(paimon_catalog *catalog, const char *database,
                               paimon_string_list *out, paimon_error *err);

/* ---- schema changes (ALTER TABLE) ---- */

typedef enum paimon_schema_change_kind {
  PAIMON_SET_OPTION,    /* key = value */
  PAIMON_REMOVE_OPTION, /* key */
  /* name, type (SQL type string, must be nullable), comment (may be NULL); value FIRST | AFTER |
   * BEFORE | LAST (NULL: last) with `reference` for AFTER / BEFORE places it among its siblings */
  PAIMON_ADD_COLUMN,
  PAIMON_RENAME_COLUMN,         /* name -> new_name */
  PAIMON_DROP_COLUMN,           /* name */
  PAIMON_UPDATE_COMMENT,        /* the table comment (value; NULL removes it) */
  PAIMON_UPDATE_COLUMN_COMMENT, /* name, comment */
  /* name, type (SQL type text); value "keep-nullability" keeps the column's nullability. The
   * conversions older files need on reading: integer and FLOAT -> DOUBLE widening, DECIMAL
   * precision growth at the same scale, CHAR/VARCHAR -> a longer VARCHAR or STRING,
   * BINARY/VARBINARY -> a longer VARBINARY or BYTES, TIMESTAMP / TIME precision growth; others
   * are EUNSUPPORTED (Java's casts between type families are not done when reading yet). */
  PAIMON_UPDATE_COLUMN_TYPE,
  PAIMON_UPDATE_COLUMN_NULLABILITY, /* name, value "true" (nullable) or "false" (NOT NULL) */
  PAIMON_UPDATE_COLUMN_POSITION     /* name, value FIRST | LAST | AFTER | BEFORE, reference */
} paimon_schema_change_kind;

typedef struct paimon_schema_change {
  paimon_schema_change_kind kind;
  const char *name;      /* column name, or option key */
  const char *value;     /* option value, new column name, or table comment */
  const char *type;      /* ADD_COLUMN: SQL type text such as "ARRAY<FLOAT>" */
  const char *comment;   /* column comment */
  const char *reference; /* UPDATE_COLUMN_POSITION AFTER / BEFORE: the other column */
  /* A nested column, as Java's String[] fieldNames: the names from the top-level column down,
   * e.g. {"r", "x"} for field x of ROW column r; an ARRAY's element and a MAP's value are stepped
   * into with the names "element" and "value" ({"v", "element", "x"} for ARRAY<ROW<x ...>>; a
   * path ending there, {"v", "element"}, names the element type itself, for UPDATE_COLUMN_TYPE,
   * _NULLABILITY and _COMMENT). When n_path > 0 it is used instead of `name` by ADD_COLUMN,
   * RENAME_COLUMN, DROP_COLUMN, UPDATE_COLUMN_COMMENT, _TYPE and _NULLABILITY. Fields added inside
   * a ROW take the next field ids of the table, as top-level columns do. */
  const char *const *path;
  size_t n_path;
} paimon_schema_change;

/* Applies all changes atomically as schema N+1 (Java SchemaManager semantics and messages). */
int paimon_catalog_alter_table(paimon_catalog *catalog, const char *identifier,
                               const paimon_schema_change *changes, size_t n_changes,
                               bool ignore_if_not_exists, paimon_error *err);

/* ---- schema builder ---- */

int paimon_schema_new(paimon_schema **out, paimon_error *err);
void paimon_schema_free(paimon_schema *schema);
/* Adds a column; nested ROW fields in `type_sql` get ids after it (Java's order). */
int paimon_schema_add_column(paimon_schema *schema, const char *name, const char *type_sql,
                             const char *comment, paimon_error *err);
/* Adds a column with an explicit field id (pypaimon's DataField). */
int paimon_schema_add_field(paimon_schema *schema, int32_t id, const char *name,
                            const char *type_sql, const char *comment, paimon_error *err);
/* Adds the columns of an Arrow struct schema (types mapped as pypaimon's
 * Schema.from_pyarrow_schema; ids assigned in order). */
int paimon_schema_add_arrow_fields(paimon_schema *schema, const struct ArrowSchema *arrow,
                                   paimon_error *err);
int paimon_schema_set_partition_keys(paimon_schema *schema, const char *const *keys, size_t n,
                                     paimon_error *err);
int paimon_schema_set_primary_keys(paimon_schema *schema, const char *const *keys, size_t n,
                                   paimon_error *err);
int paimon_schema_set_option(paimon_schema *schema, const char *key, const char *value,
                             paimon_error *err);
int paimon_schema_set_comment(paimon_schema *schema, const char *comment, paimon_error *err);
/* The columns added so far: count, and column i's id, name (borrowed), SQL type text (*type is
 * malloc'd; free() it) and description (borrowed, may be NULL). */
size_t paimon_schema_field_count(const paimon_schema *schema);
int paimon_schema_field(const paimon_schema *schema, size_t i, int32_t *id, const char **name,
                        char **type, const char **description, paimon_error *err);

/* ---- table ---- */

void paimon_table_free(paimon_table *table);
/* "db.table" (borrowed). */
const char *paimon_table_name(const paimon_table *table);
/* The table directory (borrowed). */
const char *paimon_table_path(const paimon_table *table);
/* The id of the schema the handle was loaded with. */
int64_t paimon_table_schema_id(const paimon_table *table);
/* The table's columns as an Arrow struct schema (field ids in "PARQUET:field_id" metadata). The
 * caller owns *out and must release it. */
int paimon_table_arrow_schema(const paimon_table *table, struct ArrowSchema *out,
                              paimon_error *err);
/* The schema file's JSON (Java's form); caller frees *out with free(). */
int paimon_table_schema_json(const paimon_table *table, char **out, paimon_error *err);
/* A table option's value (borrowed), or NULL. */
const char *paimon_table_option(const paimon_table *table, const char *key);
/* Partition key names (borrowed). */
size_t paimon_table_partition_key_count(const paimon_table *table);
const char *paimon_table_partition_key(const paimon_table *table, size_t i);
/* The latest snapshot id, or 0 when the table has no snapshot. */
int paimon_table_latest_snapshot_id(paimon_table *table, int64_t *out, paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
