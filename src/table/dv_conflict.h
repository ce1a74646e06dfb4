/*
 * The commit checks of spec/format.md §6.4 that follow the file-deletion check, in the order of
 * data-evolution.md §4.2 item 1 (pypaimon's ConflictDetection.check_conflicts):
 *
 *   - bucket numbers: the live files of a partition must agree on _TOTAL_BUCKETS ("Total buckets of
 *     partition ... differ between committed files: a and b. Give up committing.");
 *   - overwrite from snapshot: an OVERWRITE commit that deletes files and was pinned to snapshot C
 *     fails if any snapshot after C changed a partition it touches ("Overwrite conflict detected:
 *     target partitions were modified after snapshot C.") — how a partition drop loses against a
 *     concurrent append;
 *   - deletion-vector index (§4.6): every DV index file the commit replaces must still be live
 *     ("Deletion vector index conflict detected: index file X is not present in the latest
 *     snapshot."), every data file a new DV names must be live or added by this commit ("... data
 *     file X is not present in the latest snapshot."), and must not have a DV in another live index
 *     file that this commit keeps ("... data file X already has a newer deletion vector index file
 *     Y."); and (Java's buildBaseEntriesWithDV) a data file the commit deletes must not keep a DV
 *     in a live index file ("... data file X is deleted but its deletion vector in index file Y is
 *     kept.").
 *
 * Each failure is PAIMON_ECONFLICT and the committer publishes nothing. The data-evolution row-id
 * checks that come after these live in conflict.h.
 */
#ifndef CP_TABLE_DV_CONFLICT_H
#define CP_TABLE_DV_CONFLICT_H

#include <stdbool.h>
#include <stdint.h>

#include "meta/data_file.h"
#include "meta/snapshot.h"
#include "table/table.h"

/* Checks a commit of `delta` file entries (ADD / DELETE) and index changes on top of `latest`
 * (NULL: empty table). `overwrite` is the commit kind being OVERWRITE; `check_from_snapshot` the
 * messages' minimum check snapshot (-1: none). Scratch memory in `arena`. */
int cp_dv_check_conflicts(paimon_table *t, const cp_snapshot *latest, const cp_entry_vec *delta,
                          const cp_index_entry_vec *index_adds,
                          const cp_index_entry_vec *index_deletes, bool overwrite,
                          int64_t check_from_snapshot, cp_arena *arena, paimon_error *err);

#endif
