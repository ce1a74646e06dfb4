/*
 * The metadata records of Paimon's manifests, as plain C structs: SimpleStats (spec/format.md
 * §4.5), DataFileMeta (§4.4), ManifestEntry (§4.3), ManifestFileMeta (§4.2) and IndexManifestEntry
 * with its deletion-vector ranges (§7.1).
 *
 * Memory: these structs never own anything. Strings and byte strings point into an arena chosen
 * by whoever built them (manifest readers take a cp_arena from the caller), so copying a struct is
 * cheap and a whole manifest's worth of entries dies with its arena. Optional Avro fields ("null"
 * branch of a union) are a `has_*` flag or a NULL pointer.
 */
#ifndef CP_META_DATA_FILE_H
#define CP_META_DATA_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* A byte string (serialized BinaryRow, embedded index, ...). data == NULL means Avro null. */
typedef struct cp_bytes {
  const uint8_t *data;
  size_t len;
} cp_bytes;

/* A list of strings (write_cols, extra_files, value_stats_cols). */
typedef struct cp_strings {
  const char *const *items;
  size_t n;
} cp_strings;

typedef struct cp_simple_stats {
  cp_bytes min_values; /* serialized BinaryRow, arity = number of covered columns */
  cp_bytes max_values;
  /* Per-column null counts; null_count_known[i] false = Avro null element (unknown). */
  const int64_t *null_counts;
  const bool *null_count_known;
  size_t n_null_counts;
  bool null_counts_is_null; /* the whole _NULL_COUNTS field is null (only read; never written) */
} cp_simple_stats;

/* _FILE_SOURCE values (FileSource.java). */
enum { CP_FILE_SOURCE_APPEND = 0, CP_FILE_SOURCE_COMPACT = 1 };

typedef struct cp_data_file_meta {
  const char *file_name;
  int64_t file_size;
  int64_t row_count;
  cp_bytes min_key;
  cp_bytes max_key;
  cp_simple_stats key_stats;
  cp_simple_stats value_stats;
  int64_t min_sequence_number;
  int64_t max_sequence_number;
  int64_t schema_id;
  int32_t level;
  cp_strings extra_files;
  bool has_creation_time;
  int64_t creation_time_millis; /* local wall clock encoded as if UTC (§4.4) */
  bool has_delete_row_count;
  int64_t delete_row_count;
  cp_bytes embedded_index; /* data == NULL: none */
  bool has_file_source;
  int32_t file_source;
  bool has_value_stats_cols;
  cp_strings value_stats_cols;
  const char *external_path; /* NULL: none */
  bool has_first_row_id;
  int64_t first_row_id;
  bool has_write_cols;
  cp_strings write_cols;
  bool has_write_cols_sequences;
  const int64_t *write_cols_sequences;
  size_t n_write_cols_sequences;
} cp_data_file_meta;

/* Row-id range of a file with a first_row_id: [first_row_id, first_row_id + row_count - 1]. */
static inline int64_t cp_data_file_last_row_id(const cp_data_file_meta *f) {
  return f->first_row_id + f->row_count - 1;
}

/* Blob files end in ".blob"; vector-store files contain ".vector."; all others are "normal"
 * (data-evolution.md, notation). */
bool cp_data_file_is_blob(const cp_data_file_meta *f);
bool cp_data_file_is_vector_store(const cp_data_file_meta *f);
/* Fills *m for a `.blob` file of one BLOB field (spec/maintenance-and-blob.md §5.5): write_cols =
 * `*col` (one borrowed entry), no statistics (Java's no-stats collector), empty keys, APPEND,
 * sequence 0/0, no first row id (the caller sets it where it is known). */
void cp_data_file_blob_meta(cp_data_file_meta *m, const char *file_name, int64_t file_size,
                            int64_t row_count, int64_t schema_id, const char **col,
                            int64_t creation_time_millis);
/* The format of data file `name` as Java's DataFilePathFactory.formatIdentifier reads it: the
 * extension, or the one before a compression extension (gz, bz2, deflate, snappy, lz4, zst:
 * "data-1.csv.gz" is csv). *start / *len point into `name`. ECORRUPT "<name> is not a legal file
 * name." without one. */
int cp_data_file_format(const char *name, const char **start, size_t *len, paimon_error *err);

/* EUNSUPPORTED unless data file `name` (shown as `path`) is Parquet, the one format cpaimon
 * reads: "data file P is an ORC file ...; cpaimon does not read ORC data files yet". */
int cp_data_file_check_readable(const char *name, const char *path, paimon_error *err);

/* File names in metadata (spec/format.md §1). Paimon names a table's files by plain names that
 * readers join to a directory they know: data files to their bucket directory, manifests, manifest
 * lists and index manifests to manifest/, index files to index/. A name that is empty, "." or
 * "..", or holds a '/' (or a NUL: `len` is the name's stored length) would reach outside that
 * directory; every reader of metadata and every commit refuses it, with an error naming the
 * entry. Tables may live at URIs (s3://bucket/wh/db.db/t), so names are checked, not the joined
 * paths.
 *
 * Java's external paths (_EXTERNAL_PATH of data and index files, written under the roots of the
 * data-file.external-paths / global-index.external-path options) are full paths instead; Java
 * opens them as they are. cp_check_external_path takes what Java writes, an absolute path or a URI
 * with a scheme, and refuses "." and ".." segments, which Java never writes. */
bool cp_is_plain_file_name(const char *name, size_t len);
int cp_check_file_name(const char *name, size_t len, const char *what, paimon_error *err);
int cp_check_external_path(const char *path, const char *what, paimon_error *err);

/* Whether the list holds `s`. */
bool cp_strings_contains(cp_strings list, const char *s);

/* Whether write_cols (when present) names `col`. */
bool cp_data_file_writes_col(const cp_data_file_meta *f, const char *col);

/* _KIND values (FileKind.java). */
enum { CP_FILE_KIND_ADD = 0, CP_FILE_KIND_DELETE = 1 };

typedef struct cp_manifest_entry {
  int32_t kind;
  cp_bytes partition; /* serialized BinaryRow */
  int32_t bucket;
  int32_t total_buckets;
  cp_data_file_meta file;
} cp_manifest_entry;

typedef struct cp_manifest_file_meta {
  const char *file_name;
  int64_t file_size;
  int64_t num_added_files;
  int64_t num_deleted_files;
  cp_simple_stats partition_stats;
  int64_t schema_id;
  bool has_bucket_range;
  int32_t min_bucket, max_bucket;
  bool has_level_range;
  int32_t min_level, max_level;
  bool has_row_id_range;
  int64_t min_row_id, max_row_id;
} cp_manifest_file_meta;

typedef struct cp_dv_meta {
  const char *data_file; /* f0 */
  int32_t offset;        /* f1 */
  int32_t length;        /* f2 */
  bool has_cardinality;
  int64_t cardinality;
} cp_dv_meta;

/* Java's GlobalIndexMeta, the _GLOBAL_INDEX record of an index manifest entry (pypaimon's
 * create_global_index writes them): the row-id range an index file covers, the field it indexes
 * (and extra ones), and the index's own bytes. cpaimon builds no global index; it keeps these
 * intact whenever it rewrites an index manifest, and reads the field ids for the
 * global-index.column-update-action check at commit. */
typedef struct cp_global_index_meta {
  int64_t row_range_start, row_range_end;
  int32_t index_field_id;
  bool has_extra_field_ids;
  const int32_t *extra_field_ids;
  size_t n_extra_field_ids;
  bool has_index_meta, has_source_meta;
  cp_bytes index_meta, source_meta;
} cp_global_index_meta;

typedef struct cp_index_manifest_entry {
  int32_t kind;
  cp_bytes partition;
  int32_t bucket;
  const char *index_type; /* "DELETION_VECTORS", "HASH", ... */
  const char *file_name;
  int64_t file_size;
  int64_t row_count;
  bool has_dv_ranges;
  const cp_dv_meta *dv_ranges;
  size_t n_dv_ranges;
  const char *external_path;
  bool has_global_index;
  cp_global_index_meta global_index;
} cp_index_manifest_entry;

/* Growable arrays of the above (items malloc'd; the pointed-to data lives in arenas). */
#define CP_DEFINE_VEC(name, type)                                                                  \
  typedef struct name {                                                                            \
    type *items;                                                                                   \
    size_t n;                                                                                      \
    size_t cap;                                                                                    \
  } name;                                                                                          \
  int name##_push(name *v, const type *item, paimon_error *err);                                   \
  void name##_free(name *v);

CP_DEFINE_VEC(cp_entry_vec, cp_manifest_entry)
CP_DEFINE_VEC(cp_manifest_meta_vec, cp_manifest_file_meta)
CP_DEFINE_VEC(cp_index_entry_vec, cp_index_manifest_entry)

/* Copies every string and byte string of `src` into `arena`, so `dst` outlives src's storage. */
int cp_manifest_entry_copy(cp_manifest_entry *dst, const cp_manifest_entry *src, cp_arena *arena,
                           paimon_error *err);
int cp_manifest_file_meta_copy(cp_manifest_file_meta *dst, const cp_manifest_file_meta *src,
                               cp_arena *arena, paimon_error *err);
int cp_index_manifest_entry_copy(cp_index_manifest_entry *dst, const cp_index_manifest_entry *src,
                                 cp_arena *arena, paimon_error *err);

/* Empty SimpleStats (arity 0 rows, _NULL_COUNTS = []), as Java's SimpleStats.EMPTY_STATS. */
cp_simple_stats cp_simple_stats_empty(void);

/* The identifier of an entry used when folding ADD/DELETE (§4.8): equal partition bytes, bucket,
 * level, file name, extra files, embedded index and external path. */
bool cp_manifest_entry_same_file(const cp_manifest_entry *a, const cp_manifest_entry *b);
/* A 64-bit hash of that identifier. */
uint64_t cp_manifest_entry_file_hash(const cp_manifest_entry *e);

#endif
