/*
 * Commit messages and committing.
 *
 * Writers and updaters produce *commit messages*: plain data describing the files they added or
 * replaced in one partition. Messages have a stable byte serialization, so they can be produced in
 * other processes or on other machines and handed to one committer (DESIGN.md). A commit turns a
 * list of messages into one new snapshot, atomically: assigning sequence numbers and row ids
 * (row-tracking tables), checking for conflicts with concurrent commits, and publishing the
 * snapshot with a no-replace rename; a lost race is retried from the new latest snapshot.
 *
 * Ownership: handles from `_new` / `_deserialize` belong to the caller (`_free`). Serialized
 * bytes are malloc'd and freed with free().
 */
#ifndef CPAIMON_COMMIT_H
#define CPAIMON_COMMIT_H

#include <stddef.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_commit_messages paimon_commit_messages;

int paimon_commit_messages_new(paimon_commit_messages **out, paimon_error *err);
void paimon_commit_messages_free(paimon_commit_messages *msgs);
/* Number of messages. */
size_t paimon_commit_messages_count(const paimon_commit_messages *msgs);
/* Number of files the messages add (new data files). */
size_t paimon_commit_messages_new_file_count(const paimon_commit_messages *msgs);
/* One new data file of the messages, as pypaimon's DataFileMeta shows it (strings borrowed from
 * the messages). */
typedef struct paimon_data_file_info {
  size_t message; /* which message (one partition and bucket) holds it */
  int32_t bucket;
  const char *file_name;
  int64_t file_size;
  int64_t row_count;
  int64_t schema_id;
  int64_t min_sequence_number;
  int64_t max_sequence_number;
  int64_t first_row_id;          /* -1 until the commit assigns row ids */
  size_t n_write_cols;           /* 0 with write_cols NULL: every column */
  const char *const *write_cols; /* the columns a data-evolution file holds */
} paimon_data_file_info;

/* New file `i` (i < paimon_commit_messages_new_file_count), in message order. EINVAL past the
 * end. */
int paimon_commit_messages_new_file(const paimon_commit_messages *msgs, size_t i,
                                    paimon_data_file_info *out, paimon_error *err);

/* Appends copies of all of `src`'s messages to `dst` (to commit the work of several writers
 * together). */
int paimon_commit_messages_append(paimon_commit_messages *dst, const paimon_commit_messages *src,
                                  paimon_error *err);
/* A stable, self-describing byte form (the file metadata is encoded as Paimon manifest entries). */
int paimon_commit_messages_serialize(const paimon_commit_messages *msgs, uint8_t **out, size_t *len,
                                     paimon_error *err);
int paimon_commit_messages_deserialize(paimon_commit_messages **out, const void *data, size_t len,
                                       paimon_error *err);

typedef struct paimon_commit paimon_commit;

/* A committer for `table` (borrowed; must outlive the committer). Each committer has its own
 * commit user (a UUID), which identifies its snapshots. */
int paimon_commit_new(paimon_commit **out, paimon_table *table, paimon_error *err);
void paimon_commit_free(paimon_commit *commit);

/* Commits the messages as one snapshot. No messages, or messages without changes, create no
 * snapshot. On a conflict that retrying cannot resolve, PAIMON_ECONFLICT with Paimon's message;
 * the table is unchanged and the messages' files stay (call paimon_commit_abort to delete them). */
int paimon_commit_commit(paimon_commit *commit, const paimon_commit_messages *msgs,
                         paimon_error *err);

/* How an overwrite picks the partitions it replaces. */
typedef enum paimon_overwrite_mode {
  /* As Java's and pypaimon's commit: on a partitioned table with `dynamic-partition-overwrite`
   * (default true), the partitions the new files write to (nothing when there are none);
   * otherwise the static spec. */
  PAIMON_OVERWRITE_BY_OPTION = 0,
  /* Always the static spec, as Spark's default partitionOverwriteMode=static: an empty spec
   * replaces the whole table. */
  PAIMON_OVERWRITE_STATIC = 1
} paimon_overwrite_mode;

/* Makes every later paimon_commit_commit of this committer replace data instead of adding to it
 * (INSERT OVERWRITE): the live files of the replaced partitions become DELETE entries of the same
 * snapshot (commit kind OVERWRITE), together with their deletion-vector index files. The static
 * spec is keys[i] = values[i] for i < n (text parsed as the key's type; a NULL value is the
 * default partition; n = 0: every partition); new files outside it are EINVAL at commit, as
 * pypaimon checks. The replaced files are computed from the latest snapshot at each attempt.
 * Such a commit always publishes a snapshot, even with no new files and nothing to replace (as
 * Java's FileStoreCommitImpl.overwrite), except a dynamic overwrite without new files, which
 * replaces nothing and commits nothing.
 * Row ids are never reused: the new rows get fresh ones. EINVAL for a key that is not a
 * partition key or a value that does not parse. */
int paimon_commit_set_overwrite(paimon_commit *commit, paimon_overwrite_mode mode,
                                const char *const *keys, const char *const *values, size_t n,
                                paimon_error *err);

/* A partition spec: keys[i] = values[i] for i < n (text parsed as the key's type; NULL or the
 * table's partition.default-name is the NULL partition value). */
typedef struct paimon_partition_spec {
  const char *const *keys;
  const char *const *values;
  size_t n;
} paimon_partition_spec;

/* Drops the partitions matching any of the `n` specs (a spec naming some keys matches every
 * partition with those values) in one OVERWRITE snapshot: their live data files and deletion
 * vectors become DELETE entries, as Java's dropPartitions and pypaimon's truncate_partitions.
 * EINVAL "Partitions list cannot be empty." for n == 0, or for a key that is not a partition
 * key. The snapshot is published even when nothing matches. */
int paimon_commit_truncate_partitions(paimon_commit *commit, const paimon_partition_spec *specs,
                                      size_t n, paimon_error *err);

/* Drops every row of the table in one OVERWRITE snapshot (TRUNCATE TABLE). */
int paimon_commit_truncate_table(paimon_commit *commit, paimon_error *err);

/* Deletes the new data files and deletion-vector index files the messages reference (for a write
 * that will not be committed). */
int paimon_commit_abort(paimon_commit *commit, const paimon_commit_messages *msgs,
                        paimon_error *err);

/* ---- streaming commits (Java's StreamTableCommit, pypaimon's new_stream_write_builder) ---- */

/* Sets the commit user, the identity a stream's snapshots carry (Java's withCommitUser): a
 * worker restarted with the same user and identifiers never commits a round twice. */
int paimon_commit_set_user(paimon_commit *commit, const char *user, paimon_error *err);
/* Properties (`keys[i]` = `values[i]`, n of them; 0 clears) written into the snapshots of the
 * commits that follow, as the snapshot's "properties" map (Java's Snapshot.properties,
 * pypaimon's snapshot_properties). EINVAL for an empty key or a NULL value. */
int paimon_commit_set_properties(paimon_commit *commit, const char *const *keys,
                                 const char *const *values, size_t n, paimon_error *err);
const char *paimon_commit_user(const paimon_commit *commit);

/* Commits the messages as round `identifier` (0 <= identifier < INT64_MAX, increasing) of this
 * commit user, like paimon_commit_commit otherwise. If a snapshot of the user already carries an
 * identifier >= `identifier`, the round was committed before (a retried worker, a replayed
 * checkpoint): nothing is committed and *committed is false, as Java's filterAndCommit. The
 * user's last snapshot is found by reading snapshots newest first, once per committer; later
 * calls read only the snapshots added since. *committed is also false when the messages hold
 * no change (no snapshot). */
int paimon_commit_commit_identified(paimon_commit *commit, const paimon_commit_messages *msgs,
                                    int64_t identifier, bool *committed, paimon_error *err);

/* The identifier of the newest snapshot of this committer's user (*found false when it has
 * none): where a restarted stream resumes. */
int paimon_commit_latest_identifier(paimon_commit *commit, int64_t *out, bool *found,
                                    paimon_error *err);

/* The id of the snapshot the last successful paimon_commit_commit created (0 if none). */
int64_t paimon_commit_last_snapshot_id(const paimon_commit *commit);

#ifdef __cplusplus
}
#endif
#endif
