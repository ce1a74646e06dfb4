/*
 * Global indexes at commit (Java CoreOptions.GLOBAL_INDEX_COLUMN_UPDATE_ACTION, applied as
 * pypaimon 2.1's global_index_update_checker and Java's MergeIntoUpdateChecker do). cpaimon
 * builds no global index, but pypaimon (table.create_global_index) and Java do, and an update
 * that rewrites an indexed column leaves the index answering with the old values: indexed reads
 * would miss the changed rows. So when a commit carries updates — messages pinned to a snapshot
 * whose new files are partial (write_cols) — their columns are compared with the fields the
 * latest snapshot's global-index entries index, in the partitions the updates write:
 *   - THROW_ERROR (the default): the commit fails, naming the updated and the conflicting
 *     columns;
 *   - DROP_PARTITION_INDEX: the commit also deletes those index entries (readers fall back to
 *     scanning);
 *   - IGNORE: nothing; the entries stay as they are (a later incremental build refreshes them).
 * As in pypaimon, a commit whose messages delete index files themselves is left alone.
 */
#ifndef CP_TABLE_GLOBAL_INDEX_H
#define CP_TABLE_GLOBAL_INDEX_H

#include "cpaimon/commit.h"
#include "meta/data_file.h"
#include "meta/snapshot.h"

struct paimon_table;

/* Applies the action for `msgs` against snapshot `latest` (NULL: nothing to do): appends the
 * index entries to drop to `deletes` (their strings in `arena`), or fails: ESTATE for an update
 * of an indexed column under THROW_ERROR (Java and pypaimon raise a RuntimeError), EINVAL for a
 * bad option value. */
int cp_global_index_update_action(struct paimon_table *t, const paimon_commit_messages *msgs,
                                  const cp_snapshot *latest, cp_arena *arena,
                                  cp_index_entry_vec *deletes, paimon_error *err);

#endif
