/*
 * The row-level change interface between the SQL executor and the table layer: what INSERT,
 * UPDATE, DELETE and MERGE INTO hand over once the executor has found the rows and computed the
 * new values (spec/data-evolution.md §3.8 for the Spark semantics the table layer implements).
 *
 * One cp_dml is one statement: every change added to it is committed together as one snapshot
 * by cp_dml_commit, or not at all (cp_dml_free without commit discards it, deleting any file
 * already written).
 *
 * Rows are identified by `_ROW_ID` (row-tracking tables). The executor read them from the
 * snapshot given to cp_dml_begin; the table layer uses it as the base for conflict detection
 * (§4.2–4.5: rows removed or updated by a concurrent commit since then fail the commit). What
 * the table layer must do for each call:
 *
 *  - cp_dml_insert: append the rows as new rows (fresh _ROW_IDs assigned at commit), with
 *    paimon_write / paimon_commit.
 *  - cp_dml_update: `batch` holds a non-NULL BIGINT `_ROW_ID` column (distinct ids, each an
 *    existing live row of the base snapshot) and one column per updated table column, already of
 *    the column's type and named exactly like it; other columns keep their values. Data-evolution
 *    tables (§3.8.2): write only the updated columns, per touched row-id group, as files with the
 *    group's first_row_id (`write_cols` = the updated columns); every row of a touched group then
 *    reads the new snapshot's _SEQUENCE_NUMBER. Row-tracking tables without data evolution
 *    (§3.8.1): copy-on-write of the touched files (or DV + new files), _ROW_ID copied, the changed
 *    rows' _SEQUENCE_NUMBER NULL (so they read the new snapshot id), unchanged rows' copied.
 *  - cp_dml_delete: remove the rows with these _ROW_IDs (duplicates ignored). Data-evolution tables
 *    need deletion vectors (§3.7; the executor already refuses DE tables without them); others:
 *    deletion vectors when enabled, else copy-on-write of the surviving rows with _ROW_ID and
 *    _SEQUENCE_NUMBER copied.
 *  - cp_dml_commit: one snapshot with all of it (commit kind OVERWRITE when files were replaced or
 *    DV index files added, §4.1); no snapshot when nothing changed.
 *  - cp_dml_set_overwrite: the commit replaces the partitions of the static spec (INSERT
 *    OVERWRITE).
 */
#ifndef CP_SQL_DML_H
#define CP_SQL_DML_H

#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/catalog.h"
#include "cpaimon/error.h"

typedef enum cp_dml_kind { CP_DML_INSERT, CP_DML_UPDATE, CP_DML_DELETE, CP_DML_MERGE } cp_dml_kind;

typedef struct cp_dml cp_dml;

/* Starts the changes of one statement of `kind` on `table` (borrowed; must outlive the cp_dml),
 * whose rows were read from snapshot `base_snapshot` (0: none was read). */
int cp_dml_begin(cp_dml **out, paimon_table *table, cp_dml_kind kind, int64_t base_snapshot,
                 paimon_error *err);

/* New rows: a record batch whose children are table columns by name (borrowed). */
int cp_dml_insert(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err);

/* New values for existing rows (see above; borrowed). */
int cp_dml_update(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err);

/* Rows to delete, by _ROW_ID (borrowed). */
int cp_dml_delete(cp_dml *d, const int64_t *row_ids, size_t n, paimon_error *err);

/* Makes the commit an INSERT OVERWRITE that replaces the partitions matching the static spec
 * keys[i] = values[i] (text; NULL: the default partition; n = 0: the whole table), as Spark's
 * default static partition-overwrite mode (paimon_commit_set_overwrite with
 * PAIMON_OVERWRITE_STATIC). The arrays and strings are borrowed until cp_dml_commit. */
void cp_dml_set_overwrite(cp_dml *d, const char *const *keys, const char *const *values, size_t n);

/* Commits everything as one snapshot; *snapshot_id (may be NULL) receives its id, or 0 when
 * nothing was committed. */
int cp_dml_commit(cp_dml *d, int64_t *snapshot_id, paimon_error *err);

/* Discards what was not committed and frees `d`; NULL is a no-op. */
void cp_dml_free(cp_dml *d);

#endif
