/*
 * Snapshot files (`snapshot/snapshot-<id>`, spec/format.md §3) and the LATEST / EARLIEST hints
 * (§3.1): the parsed form, reading what Java and pypaimon write (unknown keys ignored), and writing
 * Java's key order pretty-printed as Jackson does.
 *
 * A cp_snapshot owns its strings (in `arena`); free it with cp_snapshot_free().
 */
#ifndef CP_META_SNAPSHOT_H
#define CP_META_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "meta/options.h"

#define CP_SNAPSHOT_VERSION 3
/* commitIdentifier of batch commits: Long.MAX_VALUE (BatchWriteBuilder.COMMIT_IDENTIFIER). */
#define CP_BATCH_COMMIT_IDENTIFIER INT64_MAX

typedef enum cp_commit_kind {
  CP_COMMIT_APPEND = 0,
  CP_COMMIT_COMPACT,
  CP_COMMIT_OVERWRITE,
  CP_COMMIT_ANALYZE
} cp_commit_kind;

const char *cp_commit_kind_name(cp_commit_kind kind);

typedef struct cp_snapshot {
  int32_t version;
  const char *uuid; /* NULL in old files */
  int64_t id;
  int64_t schema_id;
  const char *base_manifest_list;
  bool has_base_manifest_list_size;
  int64_t base_manifest_list_size;
  const char *delta_manifest_list;
  bool has_delta_manifest_list_size;
  int64_t delta_manifest_list_size;
  const char *changelog_manifest_list; /* NULL when absent */
  bool has_changelog_manifest_list_size;
  int64_t changelog_manifest_list_size;
  const char *index_manifest; /* NULL when absent */
  const char *commit_user;
  const char *writer_version; /* NULL when absent */
  int64_t commit_identifier;
  cp_commit_kind commit_kind;
  int64_t time_millis;
  int64_t total_record_count;
  int64_t delta_record_count;
  bool has_changelog_record_count;
  int64_t changelog_record_count;
  bool has_watermark;
  int64_t watermark;
  const char *statistics; /* NULL when absent */
  cp_options properties;  /* empty when absent */
  bool has_next_row_id;   /* pypaimon omits it without row tracking; readers treat absence as 0 */
  int64_t next_row_id;
  const char *operation; /* NULL when absent */
  cp_arena arena;        /* owns the strings above */
} cp_snapshot;

/* A zeroed snapshot with version 3 and batch commit identifier (for writers to fill). */
int cp_snapshot_new(cp_snapshot **out, paimon_error *err);

/* Copies `s` into the snapshot's arena and returns the copy (NULL when out of memory). */
const char *cp_snapshot_strdup(cp_snapshot *snap, const char *s);

/* Parses a snapshot file. Required keys: id, schemaId, baseManifestList, deltaManifestList,
 * commitUser, commitIdentifier, commitKind, timeMillis, totalRecordCount, deltaRecordCount.
 * ECORRUPT naming `source` and the key otherwise. */
int cp_snapshot_parse(const void *data, size_t len, const char *source, cp_snapshot **out,
                      paimon_error *err);

/* Appends the JSON in Java's key order; optional fields are omitted when absent, nextRowId is
 * always written (Java does). */
int cp_snapshot_write(const cp_snapshot *s, cp_buf *out, paimon_error *err);

void cp_snapshot_free(cp_snapshot *s);

/* Parses a hint file's content (decimal id, surrounding whitespace tolerated). */
int cp_hint_parse(const void *data, size_t len, int64_t *out);

#endif
