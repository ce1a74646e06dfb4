/*
 * The data-evolution commit checks (spec/data-evolution.md §4.2–4.5), run by the committer after
 * the generic file-deletion check (format.md §6.4) on every attempt, against that attempt's latest
 * snapshot, before any row id is assigned:
 *
 *   §4.3 row-id existence — a file that overlays existing rows (pre-assigned first_row_id below
 *        the latest nextRowId) must find a current normal file with exactly its range (blob and
 *        vector files: a covering range); a DELETE must name the file with the row ids it has now.
 *        Ranges only, as Java does (DIVERGENCE #7: pypaimon also keys by partition and bucket);
 *        base files are those of the partitions the commit changes.
 *   §4.4 row-id ranges — over the live files after this commit, overlapping normal files must
 *        have identical ranges, and a dedicated file must lie inside one normal range.
 *   §4.5 logical concurrent update — no snapshot after the messages' check snapshot (COMPACT
 *        snapshots skipped, as Java does; DIVERGENCE #8) may have written a file overlapping a
 *        range this commit writes with a column this commit writes.
 *
 * A failed check is PAIMON_ECONFLICT with Paimon's message, and the attempt publishes nothing (the
 * table is unchanged). The committer retries one case: staged partial-column files whose groups a
 * concurrent compaction merged are rebased onto the new groups (rebase.h).
 */
#ifndef CP_TABLE_CONFLICT_H
#define CP_TABLE_CONFLICT_H

#include <stddef.h>
#include <stdint.h>

#include "meta/data_file.h"
#include "meta/snapshot.h"
#include "table/table.h"

/* Runs the checks for a commit of `delta` (ADD and DELETE entries, row ids not yet assigned) on
 * top of `latest` (NULL: empty table; nothing to check). `check_from_snapshot` is the minimum
 * check snapshot of the messages (-1: none; §4.4 and §4.5 then do not apply). A `compact` commit
 * (Java's COMPACT kind; maintenance-and-blob.md §1.5) instead needs each added file's range inside
 * the adjacency-merged ranges of the live normal files of its partition and bucket (a concurrent
 * row-id reassignment must not be undone), and always gets the §4.4 range check; the §4.5 check
 * does not apply to it. Scratch memory in `arena`. Tables without data evolution pass. *kind
 * (may be NULL) tells which check failed, for the rebases of rebase.h. */
typedef enum {
  CP_DE_CONFLICT_OTHER = 0,
  CP_DE_CONFLICT_MISSING, /* an ADD whose range no current file has ("Row ID existence conflict:
                           * file ..."), as after a concurrent compaction */
  CP_DE_CONFLICT_RANGES   /* §4.4: overlapping files with different ranges ("multiple 'MERGE
                           * INTO' and 'COMPACT' operations"), as a compaction after a concurrent
                           * update */
} cp_de_conflict;
int cp_de_check_conflicts(paimon_table *t, const cp_snapshot *latest,
                          const cp_manifest_entry *delta, size_t n_delta,
                          int64_t check_from_snapshot, bool compact, cp_de_conflict *kind,
                          cp_arena *arena, paimon_error *err);

/* The §4.5 check alone (a no-op when check_from < 0 or latest is not newer). */
int cp_de_check_logical(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                        size_t n, int64_t check_from, cp_arena *arena, paimon_error *err);

#endif
