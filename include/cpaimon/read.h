/*
 * Reading a table: a read builder collects the projection, filter and snapshot; planning turns the
 * snapshot's live files into splits; reading streams Arrow record batches.
 *
 * Hidden columns: the projection may name `_ROW_ID` and `_SEQUENCE_NUMBER` on row-tracking tables
 * (BIGINT NOT NULL). A row's _ROW_ID is its file's first row id + its position (or the value
 * stored in the file by a copy-on-write rewrite), its _SEQUENCE_NUMBER the snapshot that last
 * changed it (spec/data-evolution.md §1.4, §2.5).
 *
 * Data-evolution tables are read merged: files covering the same row-id range are aligned by
 * position and each column comes from the newest file that wrote it (§2.4).
 *
 * Time travel: a builder given a snapshot reads the table as it was then, with the schema that
 * snapshot was written with (its `schemaId`, as Java's `scan.snapshot-id` / pypaimon's
 * `table.copy({'scan.snapshot-id': n})`): a column added later is not there, a renamed column
 * has its old name, a widened column its old type, a dropped column is back. Projection names and
 * filters resolve against that schema and the stream's Arrow schema is that schema's. The
 * table's current options (row tracking, data evolution, ...) still apply, as in Java.
 *
 * Ownership: handles are the caller's (`_free`); a builder and its plans borrow the table. Streams
 * returned through `struct ArrowArrayStream *out` are owned by the caller and keep what they need
 * alive (the table must still outlive them).
 */
#ifndef CPAIMON_READ_H
#define CPAIMON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_predicate paimon_predicate;
typedef struct paimon_read_builder paimon_read_builder;
typedef struct paimon_plan paimon_plan;

int paimon_read_builder_new(paimon_read_builder **out, paimon_table *table, paimon_error *err);
void paimon_read_builder_free(paimon_read_builder *rb);

/* Columns to read, in order (names; `_ROW_ID` / `_SEQUENCE_NUMBER` allowed on row-tracking
 * tables). Default: every column. Unknown names are EINVAL naming the column (and the snapshot,
 * for a time-travel read: a column that did not exist then is unknown). Names resolve against
 * the schema in effect when they are set: call paimon_read_builder_set_snapshot first to name
 * columns of an older schema. */
int paimon_read_builder_set_projection(paimon_read_builder *rb, const char *const *columns,
                                       size_t n, paimon_error *err);
/* Adds both hidden row-tracking columns after the projected ones. */
int paimon_read_builder_with_row_tracking(paimon_read_builder *rb, paimon_error *err);
/* Rows must satisfy `predicate` (copied; the caller keeps ownership of its argument). It is also
 * used to skip partitions and files by their statistics. */
int paimon_read_builder_set_filter(paimon_read_builder *rb, const paimon_predicate *predicate,
                                   paimon_error *err);
/* Reads the table as of snapshot `id` (time travel) instead of the latest, with the schema that
 * snapshot was written with (see above). EINVAL for id <= 0, and EINVAL naming the column and
 * snapshot when the projection or filter already set names a column that schema lacks (the
 * builder is then left as it was). A snapshot that cannot be loaded — ENOTFOUND when it does not
 * exist — is not an error here: paimon_read_builder_plan reports it, and until then the schema
 * is the table's (Java's copy() falls back the same way and its scan fails). Reads without a
 * snapshot use the table handle's schema. */
int paimon_read_builder_set_snapshot(paimon_read_builder *rb, int64_t id, paimon_error *err);
/* The schema reads through `rb` use: its id (*id) and, when `json` is not NULL, its schema-file
 * JSON (spec/format.md §2; *json is malloc'd, the caller frees it). That is the table handle's
 * schema, or after paimon_read_builder_set_snapshot the snapshot's. When that snapshot could not be
 * loaded, returns the error loading it (ENOTFOUND: it does not exist) with *id the table's and
 * *json NULL. */
int paimon_read_builder_read_schema(paimon_read_builder *rb, int64_t *id, char **json,
                                    paimon_error *err);
/* Rows per output batch (default 65536). */
void paimon_read_builder_set_batch_size(paimon_read_builder *rb, int64_t rows);

/* Plans the splits to read. */
int paimon_read_builder_plan(paimon_read_builder *rb, paimon_plan **out, paimon_error *err);
void paimon_plan_free(paimon_plan *plan);
/* The snapshot the plan reads (0 for a table without snapshots). */
int64_t paimon_plan_snapshot_id(const paimon_plan *plan);
size_t paimon_plan_split_count(const paimon_plan *plan);
/* Rows in split i (files' row counts, before filters and deletion vectors). */
int64_t paimon_plan_split_row_count(const paimon_plan *plan, size_t i);

/* Streams the rows of splits `indices[0..n)` of `plan` (all splits when indices is NULL). */
int paimon_plan_read(paimon_read_builder *rb, const paimon_plan *plan, const size_t *indices,
                     size_t n, struct ArrowArrayStream *out, paimon_error *err);

/* The Arrow schema of what reads produce (projection applied; the snapshot's columns for a
 * time-travel read). Caller releases *out. */
int paimon_read_builder_schema(paimon_read_builder *rb, struct ArrowSchema *out, paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
