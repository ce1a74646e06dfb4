/*
 * System tables: the read-only metadata views Apache Paimon exposes beside every table, named
 * "db.t$<kind>" (Java's SystemTableLoader, Paimon 1.4.2). cpaimon implements, with Java's column
 * names, types, nullability and value text:
 *
 *   snapshots      one row per snapshot (id order): ids, commit user/kind/time, manifest lists,
 *                  record counts, watermark, next_row_id
 *   schemas        one row per schema file: fields / partition_keys / primary_keys / options as
 *                  Java's compact JSON, comment, update_time
 *   options        the latest schema's options (key, value), in Java's HashMap order
 *   manifests      the latest snapshot's data manifests (base then delta list, then changelog):
 *                  sizes, file counts, schema id, partition stats as "{v1, v2}", row-id range
 *   files          the latest snapshot's live data files: partition "{v1, v2}", bucket, full path,
 *                  format, schema id, level, counts, sizes, keys, value statistics as Java prints
 *                  them ("{a=1, b=x}", names sorted, evolved to the current schema), sequence
 *                  numbers, creation time, deleteRowCount, file_source, first_row_id, write_cols
 *   file_key_ranges  the first eleven columns of `files` with first_row_id
 *   partitions     per partition "k=v/k2=v2": record/file counts and sizes, last file creation
 *   buckets        per (partition, bucket) the same, partition as "{v1, v2}"
 *   table_indexes  the latest snapshot's index files (deletion vectors: dv_ranges per data file)
 *   tags           one row per tag (history.h): snapshot, schema, commit time, records, creation
 *                  time and retention (Java's Duration text, "PT1H") when it has one
 *   branches, consumers   always empty (cpaimon creates none), with Java's columns
 *
 * Timestamps are TIMESTAMP(3) wall-clock values: commit and schema times are converted to the
 * local time zone as Java's LocalDateTime.ofInstant(..., ZoneId.systemDefault()) does; file
 * creation times are stored as wall clock already (spec/format.md §4.4). Time travel options
 * (`scan.snapshot-id` on a system table) are not supported: the views show the latest state.
 *
 * Differences from Java, by design: rows of `schemas` are in id order (Java lists the schema
 * directory in file-system order); a partial data-evolution file's statistics cover its
 * write_cols (Java HEAD's SimpleStatsEvolutions; 1.4.2 reads them against all columns by
 * position); a BINARY statistic prints as "[B@" and the hex of Java's Arrays.hashCode of the
 * bytes (Java prints an identity hash, which differs on every run); FLOAT / DOUBLE values print
 * the shortest decimal that round-trips (JDK 19+'s Double.toString; JDK 17 differs in rare last
 * digits).
 *
 * Ownership: a paimon_system_table is the caller's (paimon_system_table_free). One opened through
 * the catalog owns its data table; one opened over a paimon_table borrows it (the table must
 * outlive it). Strings returned are borrowed from the handle. Streams and schemas written to
 * `out` are the caller's to release. Handles are not thread-safe.
 */
#ifndef CPAIMON_SYSTEM_TABLE_H
#define CPAIMON_SYSTEM_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/error.h"
#include "cpaimon/predicate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_system_table paimon_system_table;

/* Whether `identifier` ("db.t$files", "t$files") names a system table: its table part holds the
 * '$' separator (Java's Identifier.SYSTEM_TABLE_SPLITTER). */
bool paimon_identifier_is_system_table(const char *identifier);

/* The system table kinds cpaimon implements ("snapshots", ...), a static NULL-terminated list. */
const char *const *paimon_system_table_kinds(void);

/* Opens system table "db.t$kind" (kind case-insensitive, as Java). ENOTFOUND with Java's message
 * "Table db.t$kind does not exist." for an unknown kind or a missing data table; EINVAL for an
 * identifier that is not "<database>.<table>$<kind>", and EUNSUPPORTED for a branch
 * ("t$branch_b", "t$branch_b$files": cpaimon has no branches). */
int paimon_catalog_get_system_table(paimon_catalog *catalog, const char *identifier,
                                    paimon_system_table **out, paimon_error *err);

/* Opens system table `kind` of `table` (borrowed: it must outlive the handle). ENOTFOUND as
 * above for an unknown kind. */
int paimon_system_table_open(paimon_table *table, const char *kind, paimon_system_table **out,
                             paimon_error *err);

void paimon_system_table_free(paimon_system_table *st);

/* The data table the system table describes (borrowed from the handle). */
paimon_table *paimon_system_table_data_table(const paimon_system_table *st);

/* "db.t$kind" and "kind" (lower case), borrowed. */
const char *paimon_system_table_name(const paimon_system_table *st);
const char *paimon_system_table_kind(const paimon_system_table *st);

/* The primary keys Java declares (e.g. "snapshot_id"; "partition", "bucket" for buckets). */
size_t paimon_system_table_primary_key_count(const paimon_system_table *st);
const char *paimon_system_table_primary_key(const paimon_system_table *st, size_t i);

/* The columns as an Arrow struct schema (Paimon types mapped as for data tables: TIMESTAMP(3) is
 * timestamp[ms], ARRAY<STRING> list<utf8>, ...). The caller releases *out. */
int paimon_system_table_arrow_schema(const paimon_system_table *st, struct ArrowSchema *out,
                                     paimon_error *err);

/* The columns as a schema file's "fields" JSON array (Java's DataField form, exact Paimon types
 * such as "BIGINT NOT NULL"); *out is malloc'd, the caller frees it. */
int paimon_system_table_fields_json(const paimon_system_table *st, char **out, paimon_error *err);

/* Reads the rows (the table's current state) as a stream of one batch: the columns
 * `columns[0..n)` in that order (all columns when `columns` is NULL; none when n is 0, the batch
 * then only counts rows; an unknown or repeated name is EINVAL naming it), the rows where
 * `filter` (may be NULL; bound to the system table's columns with Paimon's predicate semantics;
 * not retained) is TRUE. Errors reading the table's metadata name the view and the file. */
int paimon_system_table_read(paimon_system_table *st, const char *const *columns, size_t n,
                             const paimon_predicate *filter, struct ArrowArrayStream *out,
                             paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
