/*
 * Commit messages: what a writer or updater produced in one partition (new files, files it
 * replaces, index file changes) plus the snapshot its reads were pinned to, which switches on
 * conflict checks at commit (data-evolution.md §3.1, §4). The public handle is
 * paimon_commit_messages (include/cpaimon/commit.h).
 *
 * All pointers inside the messages point into the list's arena.
 */
#ifndef CP_TABLE_COMMIT_MESSAGE_H
#define CP_TABLE_COMMIT_MESSAGE_H

#include "base/buf.h"
#include "cpaimon/commit.h"
#include "meta/data_file.h"

typedef struct cp_commit_message {
  cp_bytes partition; /* serialized BinaryRow */
  int32_t bucket;
  int32_t total_buckets;
  cp_data_file_meta *new_files;
  size_t n_new;
  cp_data_file_meta *deleted_files;
  size_t n_deleted;
  cp_index_manifest_entry *index_adds;
  size_t n_index_adds;
  cp_index_manifest_entry *index_deletes;
  size_t n_index_deletes;
  int64_t check_from_snapshot; /* -1: none */
  /* A compaction's result (Java's compactIncrement): its deleted files are rewritten, not
   * removed, and the snapshot it goes into is a COMPACT one (compact.h). */
  bool compact;
} cp_commit_message;

struct paimon_commit_messages {
  cp_commit_message *items;
  size_t n;
  size_t cap;
  cp_arena arena;
};

/* Refuses messages that name files outside table `t` before they are committed or aborted
 * (which deletes their new files): every data, extra and index file name must be plain, and an
 * external path must lie under a root the table's options name for it now (data files:
 * data-file.external-paths; index files: global-index.external-path), as Java writes them.
 * ECORRUPT naming the table, the message and the file. */
struct paimon_table;
int cp_commit_messages_check(const struct paimon_table *t, const paimon_commit_messages *msgs,
                             paimon_error *err);

/* Deletes the new data files and new deletion-vector index files the messages name (after
 * cp_commit_messages_check): paimon_commit_abort without a committer. */
int cp_commit_messages_discard(struct paimon_table *t, const paimon_commit_messages *msgs,
                               paimon_error *err);

/* Appends a deep copy of `m` (into the list's arena). */
int cp_commit_messages_add(paimon_commit_messages *msgs, const cp_commit_message *m,
                           paimon_error *err);

/* Appends a compaction message (compact.h): `file` replaces `deleted[0..n_deleted)` in
 * (partition, bucket), no check snapshot. On failure `file`, which no message owns yet, is
 * deleted. */
int cp_commit_messages_add_compaction(struct paimon_table *t, paimon_commit_messages *msgs,
                                      cp_bytes partition, int32_t bucket, int32_t total_buckets,
                                      const cp_data_file_meta *file,
                                      const cp_data_file_meta *deleted, size_t n_deleted,
                                      paimon_error *err);

#endif
