/*
 * Internals of the system tables (include/cpaimon/system_table.h): the handle, the table of
 * definitions (Java 1.4.2's TABLE_TYPE of each, paimon-core table/system/XxxTable.java), the row
 * producers, and the Java text forms the rows use (system_text.c): the STRING casts of
 * CastExecutors (partition rows "{v1, v2}"), the toString of internal values (statistics maps
 * "{a=1, b=x}"), Double.toString, HashMap iteration order and LocalDateTime conversion.
 */
#ifndef CP_TABLE_SYSTEM_TABLE_H
#define CP_TABLE_SYSTEM_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "cpaimon/system_table.h"
#include "table/table.h"
#include "types/datum.h"
#include "types/type.h"

struct paimon_system_table;

/* Appends every row of the system table to `b`, a builder of the table's struct type; each row
 * is closed with cp_builder_end_element. */
typedef int (*cp_sys_fill_fn)(struct paimon_system_table *st, cp_builder *b, paimon_error *err);

typedef struct cp_sys_def {
  const char *kind;         /* "snapshots" */
  const char *row_sql;      /* the columns, as ROW<...> type text */
  const char *primary_keys; /* comma-separated */
  cp_sys_fill_fn fill;
} cp_sys_def;

struct paimon_system_table {
  paimon_table *table; /* the data table */
  bool owns_table;
  const cp_sys_def *def;
  char *name;   /* "db.t$kind" */
  cp_type *row; /* the columns */
  char **pkeys; /* primary keys (split from def->primary_keys) */
  size_t n_pkeys;
};

/* Row producers (system_meta.c, system_files.c). */
int cp_sys_fill_snapshots(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_schemas(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_options(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_empty(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_tags(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_manifests(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_files(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_file_key_ranges(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_partitions(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
/* The partitions of `t`'s latest snapshot, summed from its live files as `$partitions` does
 * (sorted by spec text; none for a table without snapshots). */
int cp_table_partitions_from_files(paimon_table *t, paimon_partition_list *out, paimon_error *err);
int cp_sys_fill_buckets(struct paimon_system_table *st, cp_builder *b, paimon_error *err);
int cp_sys_fill_table_indexes(struct paimon_system_table *st, cp_builder *b, paimon_error *err);

/* ---- appending one row's cells (column `col` of the row builder `b`) --------------------------
 */

/* A string (NULL appends a null). */
int cp_sys_str(cp_builder *b, int64_t col, const char *s, paimon_error *err);
int cp_sys_strn(cp_builder *b, int64_t col, const void *s, size_t n, paimon_error *err);
int cp_sys_i64(cp_builder *b, int64_t col, int64_t v, paimon_error *err);
/* v when `has`, else null. */
int cp_sys_opt_i64(cp_builder *b, int64_t col, bool has, int64_t v, paimon_error *err);
int cp_sys_null(cp_builder *b, int64_t col, paimon_error *err);
/* Closes the row. */
int cp_sys_end_row(cp_builder *b, paimon_error *err);

/* ---- Java text forms (system_text.c) -------------------------------------------------------- */

/* The wall clock of instant `epoch_millis` in the process's time zone, as milliseconds of a
 * TIMESTAMP (Java's LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneId.systemDefault())). */
int64_t cp_java_local_millis(int64_t epoch_millis);
/* The inverse: the instant of a local date-time given as epoch milliseconds of its wall clock
 * (Java's parseTimestampData in the default zone), settled in two steps around offset changes. */
int64_t cp_java_epoch_millis(int64_t local_millis);

/* Appends the String.valueOf of the internal value of a non-null datum of atomic type `t`, as a
 * Java TreeMap of InternalRowUtils.get values prints it: integers and DATE (the day number) and
 * TIME (milliseconds) in decimal, BOOLEAN true/false, strings as they are, DECIMAL as
 * BigDecimal.toPlainString, TIMESTAMP as LocalDateTime.toString ("2024-01-02T03:04:05.123"),
 * BINARY as "[B@" + hex of Arrays.hashCode. */
int cp_java_value_string(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err);

/* Appends the CAST(... AS STRING) text of a non-null datum (Java's CastExecutors): DATE as
 * yyyy-MM-dd, TIME as HH:mm:ss[.SSS] to the type's precision, TIMESTAMP as "yyyy-MM-dd
 * HH:mm:ss[.fraction]" to the type's precision (LTZ in the local time zone), BINARY as its UTF-8
 * text, the others as cp_java_value_string. */
int cp_java_cast_string(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err);

/* Appends Java's RowToStringCastRule text of a row of `n` values: "{v1, v2}" ("null" for nulls,
 * "{}" for no values). */
int cp_java_row_string(const cp_type *const *types, const cp_datum *values, size_t n, cp_buf *out,
                       paimon_error *err);

/* The iteration order of a java.util.HashMap<String, ?> filled with keys[0..n) in that order:
 * order[k] is the index of the k-th key iterated (bucket order of String.hashCode, spread and
 * masked by the capacity the map grew to; insertion order within a bucket). */
int cp_java_hashmap_order(const char *const *keys, size_t n, size_t *order, paimon_error *err);

/* ---- shared by the views over the latest snapshot ------------------------------------------ */

struct cp_snapshot;
struct cp_data_file_meta;

/* The data table's partition keys' types (borrowed from its schema; *types malloc'd). */
int cp_sys_partition_types(paimon_table *t, const cp_type ***types, size_t *n, paimon_error *err);

/* The latest snapshot (*out NULL when the table has none); free with cp_snapshot_free. */
int cp_sys_latest_snapshot(paimon_table *t, struct cp_snapshot **out, paimon_error *err);

/* Appends Java's "{v1, v2}" of serialized partition row `row` whose fields have `types`. */
int cp_sys_partition_text(const cp_type *const *types, size_t n, const uint8_t *row, size_t len,
                          cp_buf *out, paimon_error *err);

/* Java FilesTable's text of a data file's statistics, evolved to the table's current columns
 * (system_stats.c): `nulls`, `mins` and `maxs` receive "{a=0, b=null}" maps sorted by column
 * name. */
int cp_sys_stats_text(paimon_table *t, const struct cp_data_file_meta *f, cp_buf *nulls,
                      cp_buf *mins, cp_buf *maxs, paimon_error *err);

/* The "[k1, k2]" text of a file's min or max key (`min` selects which); *is_null when the key row
 * is empty (append tables) or cannot be decoded. */
int cp_sys_key_text(paimon_table *t, const struct cp_data_file_meta *f, bool min, cp_buf *out,
                    bool *is_null, paimon_error *err);

#endif
