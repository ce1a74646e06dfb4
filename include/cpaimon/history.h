/*
 * A table's history: tags, rollback, and finding the snapshot of a moment
 * (spec/maintenance-and-blob.md §4.3, §4.4), as Java Paimon's TagManager and rollbackTo do it on
 * the table's files, so Java, Spark and pypaimon see the same tags and the same rolled-back table.
 *
 * A tag is `<table>/tag/tag-<name>`: the JSON of the snapshot it names (so it outlives that
 * snapshot's expiration), plus `tagCreateTime` and `tagTimeRetained` when it has a retention.
 * Tags never change row ids or `nextRowId`.
 *
 * Rollback makes an earlier snapshot the latest, exactly as Java's local rollback: the LATEST hint
 * names the target, every later snapshot file and every tag of a later snapshot is deleted, and
 * no data or manifest file is (those become orphan files). The table's `nextRowId` is the
 * target's again, so row ids the discarded snapshots had assigned are handed out again by the
 * next append (Java does the same; docs/maintenance.md).
 *
 * Tables whose commits go through a REST catalog server are refused (EUNSUPPORTED): their tags and
 * rollback belong to the server's endpoints.
 */
#ifndef CPAIMON_HISTORY_H
#define CPAIMON_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tag, as `$tags` shows it. */
typedef struct paimon_tag {
  char *name;
  int64_t snapshot_id;
  int64_t schema_id;
  int64_t commit_time_millis; /* the snapshot's timeMillis (epoch milliseconds) */
  int64_t record_count;       /* the snapshot's totalRecordCount */
  bool has_create_time;
  int64_t create_time_millis; /* tagCreateTime: a local date-time, as epoch milliseconds of it */
  bool has_time_retained;
  int64_t time_retained_millis; /* tagTimeRetained */
} paimon_tag;

typedef struct paimon_tag_list {
  paimon_tag *items;
  size_t count;
} paimon_tag_list;

void paimon_tag_list_free(paimon_tag_list *list);

/* Tags snapshot `snapshot_id` (<= 0: the latest) as `name`. A snapshot that survives only as a
 * tag may be tagged again (Java's findSnapshot). `time_retained_millis` < 0: no retention, or the
 * table's `tag.default-time-retained`. An existing name is EEXIST ("Tag 'x' already exists.")
 * unless `ignore_if_exists`; a blank name EINVAL; a missing snapshot ENOTFOUND. */
int paimon_table_create_tag(paimon_table *table, const char *name, int64_t snapshot_id,
                            int64_t time_retained_millis, bool ignore_if_exists, paimon_error *err);
/* Points an existing tag at another snapshot (<= 0: the latest). */
int paimon_table_replace_tag(paimon_table *table, const char *name, int64_t snapshot_id,
                             int64_t time_retained_millis, paimon_error *err);
/* Deletes a tag; *existed (optional) tells whether it was there (a missing tag is not an error,
 * as Java). Files the tag alone kept are left to orphan-file removal. */
int paimon_table_delete_tag(paimon_table *table, const char *name, bool *existed,
                            paimon_error *err);
/* Renames a tag; the old name must exist and the new one must not. */
int paimon_table_rename_tag(paimon_table *table, const char *from, const char *to,
                            paimon_error *err);
/* Every tag, ordered by snapshot id, then name. */
int paimon_table_list_tags(paimon_table *table, paimon_tag_list *out, paimon_error *err);
/* The tag `name`; ENOTFOUND ("Tag 'x' doesn't exist.") when absent. Free with
 * paimon_tag_list_free on a one-item list, or free(tag->name). */
int paimon_table_get_tag(paimon_table *table, const char *name, paimon_tag *out, paimon_error *err);

/* Rolls back to snapshot `snapshot_id`; one that survives only as a tag is restored from the
 * tag. ENOTFOUND ("Rollback snapshot 'n' doesn't exist.") otherwise. */
int paimon_table_rollback_to(paimon_table *table, int64_t snapshot_id, paimon_error *err);
/* Rolls back to the snapshot of tag `name`, writing the snapshot file back from the tag when it
 * had been expired (and EARLIEST with it). */
int paimon_table_rollback_to_tag(paimon_table *table, const char *name, paimon_error *err);
/* Rolls back to the latest snapshot committed at or before `epoch_millis`. */
int paimon_table_rollback_to_timestamp(paimon_table *table, int64_t epoch_millis,
                                       paimon_error *err);
/* Java's rollbackToAsLatest: commits a NEW snapshot (kind OVERWRITE) holding exactly the files of
 * snapshot `snapshot_id` (or, with `tag`, of that tag), with its schema id and index manifest,
 * and nextRowId = max(latest, target): the history stays, and row ids are never handed out twice
 * (unlike paimon_table_rollback_to). */
int paimon_table_rollback_to_as_latest(paimon_table *table, int64_t snapshot_id, const char *tag,
                                       paimon_error *err);
/* The latest snapshot committed at or before `epoch_millis` (*found false when there is none). */
int paimon_table_snapshot_at(paimon_table *table, int64_t epoch_millis, int64_t *snapshot_id,
                             bool *found, paimon_error *err);

/* Snapshot expiration (Java's ExpireSnapshotsImpl; spec/maintenance-and-blob.md §4.1). Fields
 * left 0 take the table's options: snapshot.num-retained.max (unlimited), .min (10),
 * snapshot.time-retained (1 h), snapshot.expire.limit (50 per call). */
typedef struct paimon_expire_options {
  int32_t retain_max;
  int32_t retain_min;
  int64_t older_than_millis; /* expire what is older than this moment (epoch ms), instead of
                                now - snapshot.time-retained */
  int32_t max_deletes;       /* at most this many snapshots per call */
} paimon_expire_options;

typedef struct paimon_expire_result {
  int64_t snapshots;      /* snapshot files deleted */
  int64_t data_files;     /* data files (and their extra files) deleted */
  int64_t metadata_files; /* manifest lists, manifests, index manifests, index and stats files */
} paimon_expire_result;

/* Expires the oldest snapshots as Java does after each commit: never fewer than retain_min left,
 * never more than retain_max, and a snapshot only once its successor is older than the time
 * retained; consumers (consumer/consumer-<id>) hold back what they still read. Deletes the data
 * files only the expired snapshots referenced (a tag keeps its own), their manifests and index
 * files, the snapshot files, and writes EARLIEST. Row ids and the latest snapshot never change.
 * `options` may be NULL; `result` may be NULL. Commits run it with the table's options unless
 * `write-only` is true. */
int paimon_table_expire_snapshots(paimon_table *table, const paimon_expire_options *options,
                                  paimon_expire_result *result, paimon_error *err);

typedef struct paimon_orphan_result {
  int64_t files; /* files deleted (or, in a dry run, that would be) */
  int64_t bytes; /* their total size */
} paimon_orphan_result;

/* Deletes the files of the table that no snapshot and no tag references (Java's
 * OrphanFilesClean): in manifest/, index/, statistics/ and the bucket directories, files whose
 * names no snapshot or tag uses, and in snapshot/ files that are neither snapshots nor hints —
 * leftovers of failed or killed writes and of rollbacks. Only files modified before
 * `older_than_millis` (<= 0: one day ago, Java's default; later than now is EINVAL) go, so an
 * in-flight commit's new files are safe. Nothing else of the table (schema/, tag/, consumer/) and
 * nothing outside it is touched; emptied bucket and partition directories are removed. With
 * `dry_run` nothing is deleted. `paths` (optional) receives the orphans' paths. Tables with
 * branches or data-file.external-paths are refused (EUNSUPPORTED). */
int paimon_table_remove_orphan_files(paimon_table *table, int64_t older_than_millis,
                                     bool dry_run, paimon_orphan_result *result,
                                     paimon_string_list *paths, paimon_error *err);

/* Parses a duration as Paimon's options write them ("1 h", "30min", "7 d", "500 ms"; no unit:
 * milliseconds) into milliseconds. */
int paimon_parse_duration(const char *text, int64_t *millis, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif
