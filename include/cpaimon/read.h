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
 * Scans can be narrowed as pypaimon's: a partition filter, a row limit, and shards / slices that
 * divide the rows among workers by position (see paimon_read_builder_set_shard).
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
 * columns of an older schema.
 * Nested fields: "r.x" (a name that is no column, split at '.') names field x of ROW column r, at
 * any depth through ROWs (Java's nested projection): its output column is the field itself, NULL
 * where a ROW above it is NULL, and only the projected fields are read from the files. As soon as
 * one column is nested, output names follow Java's Projection: the path joined with '_' ("r_x"),
 * a name already taken followed by "_$0", "_$1", ... A column may be projected more than once. */
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
/* Time travel to tag `name` (Java's `scan.tag-name`): the tag's snapshot with its schema, read
 * from the tag's own copy, so a tag outlives its snapshot's expiration. ENOTFOUND ("Tag 'x'
 * doesn't exist.") at once when there is no such tag. */
int paimon_read_builder_set_tag(paimon_read_builder *rb, const char *name, paimon_error *err);
/* Time travel to the latest snapshot committed at or before `epoch_millis` (Java's
 * `scan.timestamp-millis`); ENOTFOUND with Java's message when every snapshot is later. */
int paimon_read_builder_set_timestamp(paimon_read_builder *rb, int64_t epoch_millis,
                                      paimon_error *err);
/* The schema reads through `rb` use: its id (*id) and, when `json` is not NULL, its schema-file
 * JSON (spec/format.md §2; *json is malloc'd, the caller frees it). That is the table handle's
 * schema, or after paimon_read_builder_set_snapshot the snapshot's. When that snapshot could not be
 * loaded, returns the error loading it (ENOTFOUND: it does not exist) with *id the table's and
 * *json NULL. */
int paimon_read_builder_read_schema(paimon_read_builder *rb, int64_t *id, char **json,
                                    paimon_error *err);
/* Rows per output batch (default 65536). */
void paimon_read_builder_set_batch_size(paimon_read_builder *rb, int64_t rows);
/* Threads reading splits: 1 reads them one after another on the consumer's thread; n > 1 reads
 * split i on worker i % n, up to the read-ahead below in front of the consumer, and delivers the
 * batches in the same order as 1 would (so results are identical; memory grows by the read-ahead
 * below per worker). -1 (default): 2 for a whole-table read (read-ahead -1, below) of two or more
 * splits without a limit on a machine with two or more online CPUs, else 1. A read with a limit
 * always uses 1. EINVAL outside -1, 1..64. */
int paimon_read_builder_set_read_threads(paimon_read_builder *rb, int threads, paimon_error *err);
/* A helper thread per open data file that decodes part of the columns of every batch while the
 * reading thread decodes the rest (the batches are the same; memory grows by one decompressor per
 * file). -1 (default): 1 when the splits are read on one thread (read threads above) on a machine
 * with two or more online CPUs, else 0. EINVAL outside -1..1. */
int paimon_read_builder_set_decode_threads(paimon_read_builder *rb, int threads, paimon_error *err);

/* BLOB columns as serialized BlobDescriptors (Paimon's `blob-as-descriptor` read option: version
 * 2, magic "BLOBDESC", the `.blob` file's path, the payload's offset and length) instead of their
 * content, as pypaimon and Java return them; without a call the table's option decides. */
int paimon_read_builder_set_blob_as_descriptor(paimon_read_builder *rb, bool on, paimon_error *err);
/* Batches each read thread may hold ahead of the consumer (default 2, so memory stays bounded by
 * the batch size). -1: no bound, for a consumer that keeps every batch anyway (a whole-table
 * read such as Python's to_arrow), where it lets the threads read large splits side by side.
 * EINVAL for 0 or below -1. */
int paimon_read_builder_set_read_ahead(paimon_read_builder *rb, int64_t batches, paimon_error *err);

/* Partition filter (pypaimon's ReadBuilder.with_partition_filter): skips whole partitions. As in
 * pypaimon, only the top-level AND conjuncts of `predicate` that read partition keys alone are
 * kept (a conjunct on any other column, _ROW_ID included, is dropped, and a table without
 * partition keys keeps none); it is then used in planning in place of the partition conjuncts
 * of the row filter, which still filters rows when read. `predicate` is copied (NULL clears).
 * EINVAL naming the column when it names a column the read schema lacks. */
int paimon_read_builder_set_partition_filter(paimon_read_builder *rb,
                                             const paimon_predicate *predicate, paimon_error *err);

/* Row limit (pypaimon's / Java's ReadBuilder.withLimit). Every stream read through `rb` ends after
 * `limit` rows (0: no rows). Planning also pushes it down as Java's applyPushDownLimit: splits
 * are kept in plan order only until their row counts (rows of the split minus the rows its
 * deletion vector deletes) reach `limit`; nothing is dropped when the row filter reads a
 * non-partition column (counts say nothing about how many rows pass it), on data-evolution tables
 * with deletion vectors, or when a split's count is unknown (a part of a file with a deletion
 * vector). EINVAL for limit < 0. */
int paimon_read_builder_set_limit(paimon_read_builder *rb, int64_t limit, paimon_error *err);
void paimon_read_builder_clear_limit(paimon_read_builder *rb);

/* Reads only subtask `index`'s share of `count` (pypaimon's TableScan.with_shard). The table's
 * rows are numbered by position and divided evenly into contiguous blocks, the first
 * (rows % count) subtasks one row more; the shards of 0..count-1 together read every row exactly
 * once. Positions count, on data-evolution tables, the distinct row ids of the planned files in
 * row-id order (a shard is a row-id range; groups at its edges are read in part), and on other
 * tables the physical rows of the planned files in plan order (files at the edges are read in
 * part). Deleted rows count (deletion vectors and the row filter apply after), and so does
 * everything planning kept, so the same filter must be given to every shard. EINVAL, with
 * pypaimon's messages, for count <= 0, index < 0, index >= count, or a slice already set. */
int paimon_read_builder_set_shard(paimon_read_builder *rb, int64_t index, int64_t count,
                                  paimon_error *err);
/* Reads positions [start, end) only (pypaimon's TableScan.with_slice; positions as for shards;
 * an end past the last row is clipped). EINVAL for start < 0 or start >= end, or a shard set. */
int paimon_read_builder_set_slice(paimon_read_builder *rb, int64_t start, int64_t end,
                                  paimon_error *err);

/* Plans the splits to read. */
int paimon_read_builder_plan(paimon_read_builder *rb, paimon_plan **out, paimon_error *err);
void paimon_plan_free(paimon_plan *plan);
/* The snapshot the plan reads (0 for a table without snapshots). */
int64_t paimon_plan_snapshot_id(const paimon_plan *plan);
size_t paimon_plan_split_count(const paimon_plan *plan);
/* Rows in split i (files' row counts, before filters and deletion vectors; for a split a shard
 * or slice reads in part, the rows of that part). */
int64_t paimon_plan_split_row_count(const paimon_plan *plan, size_t i);

/* Splits as bytes, to be read in another process (a Ray worker, a process pool) without
 * planning again: splits `indices[0..n)` of `plan` (all when indices is NULL), with the plan's
 * snapshot id, in a stable self-describing form (the files as Paimon manifest entries). *out is
 * malloc'd (free()). EINVAL for an index out of range. */
int paimon_plan_serialize(const paimon_plan *plan, const size_t *indices, size_t n, uint8_t **out,
                          size_t *len, paimon_error *err);
/* A plan holding the splits of `data` (bytes of paimon_plan_serialize), read with
 * paimon_plan_read through a read builder of the same table: its projection, filter and time
 * travel apply as for a plan it made (give the same ones the splits were planned with). EINVAL
 * for bytes that are not serialized splits. */
int paimon_plan_deserialize(paimon_plan **out, const void *data, size_t len, paimon_error *err);

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
