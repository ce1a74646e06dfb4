/*
 * Rebasing staged partial-column updates onto the row-id groups of a concurrent compaction
 * (spec/maintenance-and-blob.md §2.1–2.2, after pypaimon's RowIdConflictRewriter and Spark's
 * DataEvolutionRowIdConflictRewriter).
 *
 * An update staged on snapshot S wrote whole-group partial files on S's group boundaries. A
 * compaction committed after S merged groups, so at commit those files match no current group
 * ("Row ID existence conflict: file ..."). Every staged file holds, for each row of its old
 * group, either the new value or the value it copied at staging time; copied values equal the
 * current ones unless another writer changed the same columns there since S — exactly what the
 * logical check (§4.5, COMPACT snapshots skipped) rejects, so it runs before anything is
 * rewritten and is never hidden. (pypaimon runs it even before the give-up conditions below;
 * cpaimon, like Spark's rewriter, first keeps the original conflict where nothing could be
 * rebased anyway, e.g. rows an overwrite removed.)
 * Then the staged rows are read back (their columns and `_ROW_ID`) and written again through the
 * update-by-row-id path pinned to the latest snapshot: one file per current group, the staged rows
 * overlaid on the current values. The commit retries with those files and the latest snapshot as
 * its check snapshot.
 *
 * Given up (the original conflict stands), as pypaimon and Spark do: deletion vectors enabled,
 * `data-evolution.row-id-conflict-rewrite.max-size` <= 0, a staged blob or vector file over
 * existing rows, no staged partial file without an exact current match, or a staged range that
 * current files no longer cover (rows removed by an overwrite). Refused with the original conflict
 * followed by the reason: more than max-size bytes (default 256 MB) of current files to read
 * (pypaimon's bound), staged files of the same columns overlapping each other.
 */
#ifndef CP_TABLE_REBASE_H
#define CP_TABLE_REBASE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpaimon/commit.h"
#include "meta/data_file.h"
#include "meta/snapshot.h"
#include "table/table.h"

typedef struct cp_rebase {
  bool done;                    /* false: given up, nothing written */
  paimon_commit_messages *msgs; /* the rewritten files (they own the metadata) */
  cp_manifest_entry *replaced;  /* the staged entries they replace */
  size_t n_replaced;
} cp_rebase;

/* Tries to rebase `delta` (the commit's entries, failed with the existence conflict whose text is
 * `conflict`) onto `latest`. On success r->done and r->msgs hold the new files, r->replaced the
 * candidates (copies); the caller builds the new delta from the other entries and r->msgs. An
 * error (ECONFLICT with the original text first, or I/O) leaves nothing written behind. */
int cp_rebase_staged(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                     size_t n, int64_t check_from, const char *conflict, cp_rebase *r,
                     paimon_error *err);

/* Spark's DataEvolutionCompactMergeConflictRewriter (§2.3): a compaction (`delta`: its outputs
 * and inputs) that lost the §4.4 range check to an update committed on the old group boundaries
 * after it was planned. Every live file overlapping an output range that the compaction does not
 * replace must be a regular partial file (APPEND, its own columns) inside one output range; for
 * each output with such files, the current values of their columns over its range are written as
 * one partial file aligned to it (sequence range: that of the output and the files together, so
 * the update stays newer than the compacted data), in a compaction message that also deletes
 * them. Given up (r->done false, nothing written) with deletion vectors, a schema change since the
 * compaction's files were written, or any other file over the ranges. */
int cp_rebase_compaction(paimon_table *t, const cp_snapshot *latest, const cp_manifest_entry *delta,
                         size_t n, cp_rebase *r, paimon_error *err);

void cp_rebase_free(cp_rebase *r);

#endif
