/*
 * Internal definitions of the catalog and table handles (include/cpaimon/catalog.h) and the
 * table's core options parsed once (spec/format.md §8, data-evolution.md §0).
 */
#ifndef CP_TABLE_TABLE_H
#define CP_TABLE_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/codec.h"
#include "base/fs.h"
#include "cpaimon/catalog.h"
#include "meta/data_file.h"
#include "meta/schema.h"

struct cp_rest;

struct paimon_catalog {
  cp_fs *fs;            /* the warehouse's; for a REST catalog, the local disk's (opened on use) */
  char *warehouse;      /* a path or URI; for a REST catalog, the catalog's name */
  struct cp_rest *rest; /* metastore=rest: the server owns databases, tables, snapshots */
  cp_options options;   /* as opened, for the file systems of tables with their own fs options */
};

/* The catalog's options and then `extra` (which win), as a file-system configuration; *keys and
 * *values are malloc'd arrays of borrowed strings (free() both). */
int cp_catalog_fs_conf(const paimon_catalog *c, const cp_options *extra, cp_fs_conf *out,
                       paimon_error *err);

/* Options the write, commit and read paths consult, with Paimon's defaults. */
typedef struct cp_core_options {
  int64_t bucket; /* -1: unaware */
  bool row_tracking;
  bool data_evolution;
  bool deletion_vectors;
  bool partition_group_on_commit;   /* default true */
  int64_t target_file_size;         /* 256 MiB for append tables */
  int64_t target_file_row_num;      /* rows per new data file (pypaimon's; INT64_MAX: none) */
  cp_codec file_codec;              /* zstd */
  int file_zstd_level;              /* 1 */
  int compress_threads;             /* cpaimon.write.compress-threads: -1 automatic, 0..64 */
  const char *file_format;          /* "parquet" (borrowed from the schema options) */
  const char *manifest_codec;       /* Avro codec name, "zstandard" */
  int64_t manifest_target_size;     /* 8 MiB */
  int64_t manifest_merge_min_count; /* 30 */
  const char *partition_default_name;
  int64_t commit_max_retries;   /* 10 */
  const char *data_file_prefix; /* "data-" */
  bool full_stats;              /* metadata.stats-mode = full (else none) */
} cp_core_options;

/* Parses the options of `schema` (bad values are EINVAL naming the option). */
int cp_core_options_parse(const cp_table_schema *schema, cp_core_options *out, paimon_error *err);

struct cp_pq_writer_options;
/* The Parquet writer options every data file of `t` is written with: its codec and zstd level,
 * and the page compression threads (automatic: one beside the writing thread when the machine
 * has two or more online CPUs — zstd is most of a write's time — else none; the file is the same
 * byte for byte either way). */
void cp_table_writer_options(const paimon_table *t, struct cp_pq_writer_options *o);

struct paimon_table {
  paimon_catalog *catalog; /* borrowed */
  cp_fs *fs;               /* the catalog's, or owned_fs */
  cp_fs *owned_fs;         /* when the table's options configure its own file system */
  /* REST catalog tables: the table's id (sent with commits), and whether the server publishes
   * its snapshots (managed tables; external ones commit by file, as Java does). */
  char *rest_id;
  bool rest_commit;
  /* With data tokens: when the token expires, how long before that it is fetched again
   * (cpaimon.data-token.refresh-margin, 1 h as Paimon's clients), and the file systems of earlier
   * tokens, kept until the table is freed because open files may still use them. */
  int64_t token_expires_ms;
  int64_t token_margin_ms;
  cp_fs **retired_fs;
  size_t n_retired_fs;
  char *path; /* table directory */
  char *database;
  char *name;
  char *full_name;         /* "db.table" */
  cp_table_schema *schema; /* latest at load time */
  cp_core_options options;
  /* Older schemas loaded on demand (files written before ALTERs), by id. */
  cp_table_schema **schema_cache;
  size_t n_schema_cache;
};

/* Returns the schema with `id` (the table's own for its id, else loaded and cached). Borrowed. */
int cp_table_schema_by_id(paimon_table *table, int64_t id, const cp_table_schema **out,
                          paimon_error *err);

/* The id of the table's latest snapshot (*exists false when it has none): from the REST catalog
 * for its managed tables, else from the file system (LATEST hint, then a listing). */
int cp_table_latest_snapshot_id(paimon_table *t, int64_t *id, bool *exists, paimon_error *err);

/* Loads a table by path (used by the catalog and tools). */
int cp_table_open(paimon_catalog *catalog, const char *database, const char *name,
                  paimon_table **out, paimon_error *err);

/* The full path of a data file: its external path if set, else
 * <table>/<partition path>/bucket-<b>/<name> with the partition path rendered from the serialized
 * partition row (spec/format.md §1.3). *out is malloc'd. */
struct cp_data_file_meta;
int cp_data_file_path(paimon_table *table, cp_bytes partition, int32_t bucket,
                      const struct cp_data_file_meta *file, char **out, paimon_error *err);

/* The partition path "k=v/..." (with trailing '/', empty when unpartitioned) of a serialized
 * partition row, appended to `out`. */
int cp_table_partition_path(paimon_table *table, cp_bytes partition, cp_buf *out,
                            paimon_error *err);

/* Snapshot expiration with the table's options after a successful commit (expire.c), as Java's
 * writers do unless `write-only` is true; its failures do not undo the commit (the return value
 * is for tests). */
int cp_table_expire_after_commit(paimon_table *table, int64_t committed_snapshot);

/* Commits a snapshot that holds exactly `target`'s files (Java's rollbackToAsLatest; commit.c),
 * through `commit` with its user and retries. */
struct paimon_commit;
struct cp_snapshot;
int cp_commit_as_latest(struct paimon_commit *commit, const struct cp_snapshot *target,
                        paimon_error *err);

/* Reloads the latest schema (after ALTER TABLE). */
int cp_table_refresh_schema(paimon_table *table, paimon_error *err);

#endif
