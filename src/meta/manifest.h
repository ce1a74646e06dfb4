/*
 * Manifest files, manifest lists and index manifests: Avro container files of ManifestEntry,
 * ManifestFileMeta and IndexManifestEntry records (spec/format.md §4, §7.1).
 *
 * Writing uses Java's schemas exactly (field names, `["null", T]` unions with null first and
 * `"default": null`, `timestamp-millis` on _CREATION_TIME, _VERSION = 2 or 1, Java's record names),
 * including the 21st DataFileMeta field _WRITE_COLS_SEQUENCES, which older readers skip by name.
 * Reading resolves the file's own schema against Java's by field name (§4.1), so manifests written
 * by Java (any version), pypaimon and cpaimon all decode; missing optional fields read as absent,
 * and a missing required field or a wrong _VERSION is ECORRUPT naming the file.
 *
 * Decoded strings and byte strings are copied into the caller's arena.
 */
#ifndef CP_META_MANIFEST_H
#define CP_META_MANIFEST_H

#include "base/buf.h"
#include "cpaimon/error.h"
#include "meta/data_file.h"

typedef struct cp_manifest_write_options {
  const char
      *codec; /* Avro codec name: "zstandard" (Paimon's default), "deflate", "snappy", "null" */
  int level;  /* codec level, 0 = default (Paimon: zstd level 1) */
  /* 16 bytes, or NULL for a random one per file (Avro's way); a fixed marker makes the bytes a
   * function of the entries (serialized commit messages). */
  const uint8_t *sync_marker;
} cp_manifest_write_options;

/* Encodes a manifest file holding `n` entries into `out` (appended). */
int cp_manifest_file_encode(const cp_manifest_entry *entries, size_t n,
                            const cp_manifest_write_options *opts, cp_buf *out, paimon_error *err);
/* Decodes a manifest file; entries are appended to `out`. `name` names the file in errors. */
int cp_manifest_file_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                            cp_entry_vec *out, paimon_error *err);

int cp_manifest_list_encode(const cp_manifest_file_meta *metas, size_t n,
                            const cp_manifest_write_options *opts, cp_buf *out, paimon_error *err);
int cp_manifest_list_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                            cp_manifest_meta_vec *out, paimon_error *err);

int cp_index_manifest_encode(const cp_index_manifest_entry *entries, size_t n,
                             const cp_manifest_write_options *opts, cp_buf *out, paimon_error *err);
int cp_index_manifest_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                             cp_index_entry_vec *out, paimon_error *err);

/* Java's Avro schema text of each record (for tests and tools). */
extern const char cp_manifest_entry_schema_json[];
extern const char cp_manifest_file_meta_schema_json[];
extern const char cp_index_manifest_entry_schema_json[];

#endif
