/*
 * Writing Arrow data into a table: batches are split by partition, written as Parquet data files
 * rolled at `target-file-size`, and described in commit messages (include/cpaimon/commit.h) that a
 * committer turns into a snapshot.
 *
 * Input batches are struct arrays (record batches) whose columns are matched to the table's by
 * name; column order is free, types must be the Arrow types of the table's Paimon types or safely
 * castable to them (e.g. int32 into a BIGINT column, string into large_string). Errors name the
 * column: a missing or unknown column, a type that cannot be converted, NULL in a NOT NULL column
 * ("Cannot write null to non-null column(<name>)"). A failed call leaves the handle usable; files
 * written and not yet handed out by paimon_write_prepare_commit are deleted by
 * paimon_write_abort and by paimon_write_free.
 */
#ifndef CPAIMON_WRITE_H
#define CPAIMON_WRITE_H

#include <stddef.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_write paimon_write;

/* A writer for `table` (borrowed). `write_cols` (n names) restricts the columns written (pypaimon's
 * with_write_type); NULL writes every column. Partition columns must be among them. */
int paimon_write_new(paimon_write **out, paimon_table *table, const char *const *write_cols,
                     size_t n_write_cols, paimon_error *err);

/* Writes one record batch (borrowed; not released). */
int paimon_write_batch(paimon_write *w, const struct ArrowSchema *schema,
                       const struct ArrowArray *batch, paimon_error *err);

/* Writes every batch of `stream` (consumed and released). */
int paimon_write_stream(paimon_write *w, struct ArrowArrayStream *stream, paimon_error *err);

/* Closes the open files and returns the messages describing everything written since the last
 * call (*out owned by the caller; may hold zero messages). */
int paimon_write_prepare_commit(paimon_write *w, paimon_commit_messages **out, paimon_error *err);

/* Deletes the files written since the last prepare_commit. */
int paimon_write_abort(paimon_write *w, paimon_error *err);

/* Aborts what was not prepared and frees the writer. */
void paimon_write_free(paimon_write *w);

#ifdef __cplusplus
}
#endif
#endif
