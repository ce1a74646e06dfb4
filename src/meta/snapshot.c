/* Snapshot files: parse and write (spec/format.md §3; Java Snapshot.java key order). */
#include "meta/snapshot.h"

#include "meta/data_file.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/status.h"

static const char *const kind_names[] = {"APPEND", "COMPACT", "OVERWRITE", "ANALYZE"};

const char *cp_commit_kind_name(cp_commit_kind kind) {
  return (unsigned)kind < 4 ? kind_names[kind] : "UNKNOWN";
}

int cp_snapshot_new(cp_snapshot **out, paimon_error *err) {
  cp_snapshot *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "snapshot");
  s->version = CP_SNAPSHOT_VERSION;
  s->commit_identifier = CP_BATCH_COMMIT_IDENTIFIER;
  *out = s;
  return PAIMON_OK;
}

const char *cp_snapshot_strdup(cp_snapshot *snap, const char *s) {
  return s ? cp_arena_strdup(&snap->arena, s) : NULL;
}

void cp_snapshot_free(cp_snapshot *s) {
  if (!s) return;
  cp_options_free(&s->properties);
  cp_arena_free(&s->arena);
  free(s);
}

typedef struct reader {
  const json_t *root;
  const char *source;
  cp_snapshot *snap;
  paimon_error *err;
} reader;

static int req_string(reader *r, const char *key, const char **out) {
  const char *v;
  CP_RETURN_IF_ERROR(cp_json_get_string(r->root, key, r->source, &v, r->err));
  if (!(*out = cp_snapshot_strdup(r->snap, v))) return CP_ENOMEM(r->err, "snapshot");
  return PAIMON_OK;
}

static int opt_string(reader *r, const char *key, const char **out) {
  const char *v;
  CP_RETURN_IF_ERROR(cp_json_get_opt_string(r->root, key, r->source, &v, r->err));
  *out = NULL;
  if (v && !(*out = cp_snapshot_strdup(r->snap, v))) return CP_ENOMEM(r->err, "snapshot");
  return PAIMON_OK;
}

static int opt_int(reader *r, const char *key, int64_t *out, bool *present) {
  return cp_json_get_opt_int64(r->root, key, r->source, out, present, r->err);
}

static int add_property(void *ctx, const char *key, const char *value, paimon_error *err) {
  return cp_options_set(ctx, key, value, err);
}

/* The manifest lists, index manifest and statistics file a snapshot names (plain names in the
 * table's manifest/ and statistics/ directories; meta/data_file.h). */
static int check_names(reader *r) {
  const cp_snapshot *s = r->snap;
  const struct {
    const char *key, *value;
  } names[] = {{"baseManifestList", s->base_manifest_list},
               {"deltaManifestList", s->delta_manifest_list},
               {"changelogManifestList", s->changelog_manifest_list},
               {"indexManifest", s->index_manifest},
               {"statistics", s->statistics}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].value &&
        cp_check_file_name(names[i].value, strlen(names[i].value), names[i].key, r->err) != 0)
      return paimon_error_prefix(r->err, "%s", r->source);
  return PAIMON_OK;
}

static int parse_fields(reader *r) {
  cp_snapshot *s = r->snap;
  int64_t v;
  bool present;
  CP_RETURN_IF_ERROR(opt_int(r, "version", &v, &present));
  s->version = present ? (int32_t)v : 1;
  CP_RETURN_IF_ERROR(opt_string(r, "uuid", &s->uuid));
  CP_RETURN_IF_ERROR(cp_json_get_int64(r->root, "id", r->source, &s->id, r->err));
  CP_RETURN_IF_ERROR(cp_json_get_int64(r->root, "schemaId", r->source, &s->schema_id, r->err));
  CP_RETURN_IF_ERROR(req_string(r, "baseManifestList", &s->base_manifest_list));
  CP_RETURN_IF_ERROR(opt_int(r, "baseManifestListSize", &s->base_manifest_list_size,
                             &s->has_base_manifest_list_size));
  CP_RETURN_IF_ERROR(req_string(r, "deltaManifestList", &s->delta_manifest_list));
  CP_RETURN_IF_ERROR(opt_int(r, "deltaManifestListSize", &s->delta_manifest_list_size,
                             &s->has_delta_manifest_list_size));
  CP_RETURN_IF_ERROR(opt_string(r, "changelogManifestList", &s->changelog_manifest_list));
  CP_RETURN_IF_ERROR(opt_int(r, "changelogManifestListSize", &s->changelog_manifest_list_size,
                             &s->has_changelog_manifest_list_size));
  CP_RETURN_IF_ERROR(opt_string(r, "indexManifest", &s->index_manifest));
  CP_RETURN_IF_ERROR(req_string(r, "commitUser", &s->commit_user));
  CP_RETURN_IF_ERROR(opt_string(r, "writerVersion", &s->writer_version));
  CP_RETURN_IF_ERROR(
      cp_json_get_int64(r->root, "commitIdentifier", r->source, &s->commit_identifier, r->err));
  const char *kind;
  CP_RETURN_IF_ERROR(cp_json_get_string(r->root, "commitKind", r->source, &kind, r->err));
  size_t k = 0;
  while (k < 4 && strcmp(kind, kind_names[k]) != 0) k++;
  if (k == 4)
    return paimon_error_set(r->err, PAIMON_ECORRUPT, "%s: unknown commitKind '%s'", r->source,
                            kind);
  s->commit_kind = (cp_commit_kind)k;
  CP_RETURN_IF_ERROR(cp_json_get_int64(r->root, "timeMillis", r->source, &s->time_millis, r->err));
  CP_RETURN_IF_ERROR(
      cp_json_get_int64(r->root, "totalRecordCount", r->source, &s->total_record_count, r->err));
  CP_RETURN_IF_ERROR(
      cp_json_get_int64(r->root, "deltaRecordCount", r->source, &s->delta_record_count, r->err));
  CP_RETURN_IF_ERROR(opt_int(r, "changelogRecordCount", &s->changelog_record_count,
                             &s->has_changelog_record_count));
  CP_RETURN_IF_ERROR(opt_int(r, "watermark", &s->watermark, &s->has_watermark));
  CP_RETURN_IF_ERROR(opt_string(r, "statistics", &s->statistics));
  CP_RETURN_IF_ERROR(check_names(r));
  json_t *props;
  CP_RETURN_IF_ERROR(cp_json_get_opt_object(r->root, "properties", r->source, &props, r->err));
  if (props)
    CP_RETURN_IF_ERROR(cp_json_foreach_string(props, r->source, "properties", add_property,
                                              &s->properties, r->err));
  CP_RETURN_IF_ERROR(opt_int(r, "nextRowId", &s->next_row_id, &s->has_next_row_id));
  if (!s->has_next_row_id) s->next_row_id = 0;
  return opt_string(r, "operation", &s->operation);
}

int cp_snapshot_parse(const void *data, size_t len, const char *source, cp_snapshot **out,
                      paimon_error *err) {
  json_t *root;
  CP_RETURN_IF_ERROR(cp_json_parse(data, len, source, &root, err));
  cp_snapshot *s = calloc(1, sizeof *s);
  if (!s) {
    json_decref(root);
    return CP_ENOMEM(err, "snapshot");
  }
  reader r = {root, source, s, err};
  int rc = parse_fields(&r);
  json_decref(root);
  if (rc) {
    cp_snapshot_free(s);
    return rc;
  }
  *out = s;
  return PAIMON_OK;
}

static void set_str(json_t *o, const char *key, const char *v) {
  if (v) json_object_set_new(o, key, json_string(v));
}

static void set_int(json_t *o, const char *key, bool present, int64_t v) {
  if (present) json_object_set_new(o, key, json_integer(v));
}

int cp_snapshot_write(const cp_snapshot *s, cp_buf *out, paimon_error *err) {
  json_t *o = json_object();
  if (!o) return CP_ENOMEM(err, "snapshot JSON");
  set_int(o, "version", true, s->version);
  set_str(o, "uuid", s->uuid);
  set_int(o, "id", true, s->id);
  set_int(o, "schemaId", true, s->schema_id);
  set_str(o, "baseManifestList", s->base_manifest_list);
  set_int(o, "baseManifestListSize", s->has_base_manifest_list_size, s->base_manifest_list_size);
  set_str(o, "deltaManifestList", s->delta_manifest_list);
  set_int(o, "deltaManifestListSize", s->has_delta_manifest_list_size, s->delta_manifest_list_size);
  set_str(o, "changelogManifestList", s->changelog_manifest_list);
  set_int(o, "changelogManifestListSize", s->has_changelog_manifest_list_size,
          s->changelog_manifest_list_size);
  set_str(o, "indexManifest", s->index_manifest);
  set_str(o, "commitUser", s->commit_user);
  set_str(o, "writerVersion", s->writer_version);
  set_int(o, "commitIdentifier", true, s->commit_identifier);
  set_str(o, "commitKind", cp_commit_kind_name(s->commit_kind));
  set_int(o, "timeMillis", true, s->time_millis);
  set_int(o, "totalRecordCount", true, s->total_record_count);
  set_int(o, "deltaRecordCount", true, s->delta_record_count);
  set_int(o, "changelogRecordCount", s->has_changelog_record_count, s->changelog_record_count);
  set_int(o, "watermark", s->has_watermark, s->watermark);
  set_str(o, "statistics", s->statistics);
  if (s->properties.n) {
    json_t *p = json_object();
    for (size_t i = 0; p && i < s->properties.n; i++)
      json_object_set_new(p, s->properties.keys[i], json_string(s->properties.values[i]));
    json_object_set_new(o, "properties", p);
  }
  set_int(o, "nextRowId", true, s->next_row_id);
  set_str(o, "operation", s->operation);
  int rc = cp_json_write_pretty(o, out, err);
  json_decref(o);
  return rc;
}

int cp_hint_parse(const void *data, size_t len, int64_t *out) {
  const char *p = data, *end = p + len;
  while (p < end && isspace((unsigned char)*p)) p++;
  while (end > p && isspace((unsigned char)end[-1])) end--;
  if (p == end || end - p > 19) return -1;
  int64_t v = 0;
  for (; p < end; p++) {
    if (!isdigit((unsigned char)*p)) return -1;
    v = v * 10 + (*p - '0');
  }
  *out = v;
  return 0;
}
