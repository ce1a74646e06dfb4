/*
 * Table options: the ordered string→string map stored in a schema file's "options"
 * (spec/format.md §8), with typed lookups that parse Paimon's value syntax (booleans, integers,
 * memory sizes such as "256 mb") and fail with a message naming the option.
 *
 * A cp_options owns copies of all its keys and values. Order is insertion order (kept when a key is
 * overwritten), which keeps schema files stable across rewrites.
 */
#ifndef CP_META_OPTIONS_H
#define CP_META_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"

typedef struct cp_options {
  char **keys;
  char **values;
  size_t n;
  size_t cap;
} cp_options;

#define CP_OPTIONS_INIT                                                                            \
  { NULL, NULL, 0, 0 }

/* Sets key = value (copies both), replacing an existing value in place. */
int cp_options_set(cp_options *o, const char *key, const char *value, paimon_error *err);
/* The value of `key` (borrowed), or NULL. */
const char *cp_options_get(const cp_options *o, const char *key);
/* Removes `key`; returns whether it was present. */
bool cp_options_remove(cp_options *o, const char *key);
int cp_options_copy(cp_options *dst, const cp_options *src, paimon_error *err);
void cp_options_free(cp_options *o);

/* Typed reads: `*out` = the parsed value, or `dflt` when the option is absent. A present value
 * that does not parse is EINVAL: "table option 'bucket' = 'x' is not an integer". */
int cp_options_bool(const cp_options *o, const char *key, bool dflt, bool *out, paimon_error *err);
int cp_options_int64(const cp_options *o, const char *key, int64_t dflt, int64_t *out,
                     paimon_error *err);
int cp_options_double(const cp_options *o, const char *key, double dflt, double *out,
                      paimon_error *err);
/* Memory sizes as Paimon's MemorySize.parse: a number and an optional unit (b/bytes,
 * k/kb/kibibytes, m/mb/mebibytes, g/gb/gibibytes, t/tb/tebibytes; case-insensitive, spaces
 * allowed), 1024-based. */
int cp_options_memory_size(const cp_options *o, const char *key, int64_t dflt, int64_t *out,
                           paimon_error *err);
int cp_parse_memory_size(const char *text, int64_t *out, paimon_error *err);

/* Option names used by cpaimon (spec/format.md §8, data-evolution.md §0). */
#define CP_OPT_BUCKET "bucket"
#define CP_OPT_FILE_FORMAT "file.format"
#define CP_OPT_FILE_COMPRESSION "file.compression"
#define CP_OPT_FILE_COMPRESSION_ZSTD_LEVEL "file.compression.zstd-level"
#define CP_OPT_TARGET_FILE_SIZE "target-file-size"
#define CP_OPT_TARGET_FILE_ROW_NUM "target-file-row-num"
#define CP_OPT_MANIFEST_COMPRESSION "manifest.compression"
/* cpaimon's own: threads compressing Parquet pages beside the writing thread (-1: automatic). */
#define CP_OPT_WRITE_COMPRESS_THREADS "cpaimon.write.compress-threads"
#define CP_OPT_MANIFEST_TARGET_FILE_SIZE "manifest.target-file-size"
#define CP_OPT_MANIFEST_MERGE_MIN_COUNT "manifest.merge-min-count"
#define CP_OPT_ROW_TRACKING "row-tracking.enabled"
#define CP_OPT_DATA_EVOLUTION "data-evolution.enabled"
#define CP_OPT_PARTITION_GROUP_ON_COMMIT "row-tracking.partition-group-on-commit"
#define CP_OPT_DELETION_VECTORS "deletion-vectors.enabled"
#define CP_OPT_PARTITION_DEFAULT_NAME "partition.default-name"
#define CP_OPT_PARTITION_LEGACY_NAME "partition.legacy-name"
#define CP_OPT_COMMIT_MAX_RETRIES "commit.max-retries"
#define CP_OPT_DATA_FILE_PREFIX "data-file.prefix"
#define CP_OPT_STATS_MODE "metadata.stats-mode"

#endif
