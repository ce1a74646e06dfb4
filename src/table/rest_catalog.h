/*
 * The REST catalog's operations (rest_catalog.c; spec/rest-catalog.md §2), used by the public
 * catalog, table and commit calls when the catalog was opened with metastore=rest.
 */
#ifndef CP_TABLE_REST_CATALOG_H
#define CP_TABLE_REST_CATALOG_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/rest.h"

int cp_rest_list_databases(cp_rest *r, paimon_string_list *out, paimon_error *err);
int cp_rest_database_exists(cp_rest *r, const char *db, bool *out, paimon_error *err);
int cp_rest_create_database(cp_rest *r, const char *db, bool ignore_if_exists,
                            const cp_options *options, paimon_error *err);
/* The database's options with Java's additions (location, audit fields), into `out`. */
int cp_rest_get_database(cp_rest *r, const char *db, cp_options *out, paimon_error *err);
int cp_rest_alter_database(cp_rest *r, const char *db, const paimon_property_change *changes,
                           size_t n, bool ignore_if_not_exists, paimon_error *err);
int cp_rest_drop_database(cp_rest *r, const char *db, bool ignore_if_not_exists, bool cascade,
                          paimon_error *err);
int cp_rest_list_tables(cp_rest *r, const char *db, paimon_string_list *out, paimon_error *err);
/* Creates a table from a validated schema (its fields, keys, options and comment are sent). */
int cp_rest_create_table(cp_rest *r, const char *db, const char *table,
                         const cp_table_schema *schema, bool ignore_if_exists, paimon_error *err);
int cp_rest_drop_table(cp_rest *r, const char *db, const char *table, bool ignore_if_not_exists,
                       paimon_error *err);

/* POST tables/rename (the server moves or relabels the table). */
int cp_rest_rename_table(cp_rest *r, const char *db, const char *table, const char *to_db,
                         const char *to_table, bool ignore_if_not_exists, paimon_error *err);

/* What GET table tells (GetTableResponse). */
typedef struct cp_rest_table {
  char *id;   /* the table's UUID, sent back with every commit */
  char *path; /* where its files are */
  int64_t schema_id;
  bool external;
} cp_rest_table;

int cp_rest_load_table(cp_rest *r, const char *db, const char *table, cp_rest_table *out,
                       paimon_error *err);
void cp_rest_table_free(cp_rest_table *t);

/* Sends schema changes (already validated by the client); the server writes schema N+1. */
int cp_rest_alter_table(cp_rest *r, const char *db, const char *table,
                        const paimon_schema_change *changes, size_t n, paimon_error *err);

/* GET .../partitions, every page. *tracked false (and no partition) when the server keeps none
 * for the table (501: not a metastore.partitioned-table table). */
int cp_rest_list_partitions(cp_rest *r, const char *db, const char *table,
                            paimon_partition_list *out, bool *tracked, paimon_error *err);

/* The table's latest snapshot (*out NULL when it has none). */
int cp_rest_latest_snapshot(cp_rest *r, const char *db, const char *table, cp_snapshot **out,
                            paimon_error *err);
/* POST .../commit: *success false when the server refused (another commit came first). A
 * transport failure returns EIO: the outcome is then unknown. `statistics` is borrowed. */
int cp_rest_commit(cp_rest *r, const char *db, const char *table, const char *table_id,
                   const char *base_uuid, const cp_snapshot *snap, json_t *statistics,
                   bool *success, paimon_error *err);
/* GET .../token: the storage options vended for the table, and when they expire (0: unknown). */
int cp_rest_table_token(cp_rest *r, const char *db, const char *table, cp_options *token,
                        int64_t *expires_at_millis, paimon_error *err);

/* The parts of the server's answers above, as pure functions (also the fuzz harness's entry
 * points): GetTableResponse, GetTableSnapshotResponse, GetTableTokenResponse. Malformed answers
 * are ECORRUPT. */
int cp_rest_table_from_json(const json_t *body, cp_rest_table *out, paimon_error *err);
int cp_rest_snapshot_from_json(const json_t *body, cp_snapshot **out, paimon_error *err);
int cp_rest_token_from_json(const json_t *body, cp_options *token, int64_t *expires_at_millis,
                            paimon_error *err);
/* GetDatabaseResponse into options (see cp_rest_get_database). */
int cp_rest_database_from_json(const json_t *body, cp_options *out, paimon_error *err);
/* One element of ListPartitionsResponse.partitions (*out freed by the caller even on error:
 * paimon_partition_list_free of a list holding it). */
int cp_rest_partition_from_json(const json_t *item, paimon_partition *out, paimon_error *err);

#endif
