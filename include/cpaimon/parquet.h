/*
 * Single Parquet files outside a table, read and written with cpaimon's own Parquet codec — for
 * tools, tests, benchmarks and engines that move files in and out of Paimon tables themselves.
 * The codec is the one tables use (docs/formats.md): what it writes here is what a table's data
 * file would hold for the same rows and options, and it reads every file a table may hold.
 *
 * Files are named by a local path (or file://) or an object-store URI (s3://, s3a://, s3n://,
 * oss://); the file-system options (fs.s3.endpoint, fs.s3.accessKeyId, ... as
 * paimon_catalog_open_options takes them, docs/options.md) come as `n` borrowed key/value pairs.
 * Secrets in them never appear in error messages.
 *
 * Types are Paimon SQL type text (include/cpaimon/types.h): "ROW<a INT, b STRING>" for a file's
 * columns; data crosses as Arrow C Data Interface structs.
 *
 * Errors: EINVAL for bad arguments (naming the option, column or type), ENOTFOUND for a missing
 * file or column, ECORRUPT for a malformed file (naming it), EUNSUPPORTED for a codec or type the
 * codec does not handle, EIO; the message starts with the path where a file was involved.
 */
#ifndef CPAIMON_PARQUET_H
#define CPAIMON_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reading ---- */

/* One column to read: a top-level column by `name`, or, when `name` is NULL, by Parquet field id
 * (`field_id`, as Paimon writes them: the table schema's field ids). `type`: the Paimon type to
 * read the column as, converted with Java Paimon's widening rules (INT → BIGINT, DECIMAL(5,2) →
 * DECIMAL(10,2), ...), or NULL for the file's own type. A column the file lacks reads as NULLs when
 * a type is given, else it is ENOTFOUND. */
typedef struct paimon_parquet_column {
  const char *name;
  int32_t field_id;
  const char *type;
} paimon_parquet_column;

/* Rows [start, end) by position in the file (0 = the first row of the first row group). */
typedef struct paimon_parquet_row_range {
  int64_t start;
  int64_t end;
} paimon_parquet_row_range;

typedef struct paimon_parquet_read_options {
  /* Columns in the order of the result; NULL (0) reads every top-level column as the file has
   * it. */
  const paimon_parquet_column *columns;
  size_t num_columns;
  /* Row groups to read, in this order (indices into the footer); NULL (0): all, in file order. */
  const int32_t *row_groups;
  size_t num_row_groups;
  /* Sorted, non-overlapping row ranges to keep (ranges past the end are clipped); NULL: every
   * row. Pages without a selected row are not read. */
  const paimon_parquet_row_range *row_ranges;
  size_t num_row_ranges;
  int64_t batch_size; /* rows per batch; 0: 65536 */
  /* File-system options (borrowed for the call). */
  const char *const *fs_keys;
  const char *const *fs_values;
  size_t num_fs_options;
} paimon_parquet_read_options;

/* Opens the Parquet file at `uri` and returns its rows as a stream of record batches (*out is the
 * caller's; released with out->release). The footer is read and the columns resolved now — a bad
 * column, type or row group fails here — and the pages as the consumer pulls batches. `opts` may
 * be NULL (every column, every row). The stream may be consumed from another thread than the one
 * that opened it, by one thread at a time. */
int paimon_parquet_read(const char *uri, const paimon_parquet_read_options *opts,
                        struct ArrowArrayStream *out, paimon_error *err);

/* ---- writing ---- */

/* Level meaning "the codec's usual level": 1 for zstd (Java Paimon's default), the codec's own
 * default for the others. */
#define PAIMON_PARQUET_DEFAULT_LEVEL INT32_MIN

typedef struct paimon_parquet_write_options {
  /* A Paimon `file.compression` value: zstd (default), snappy, gzip, lz4 (written as LZ4_RAW),
   * lz4_raw, none / uncompressed. NULL: zstd. */
  const char *codec;
  int compression_level;        /* PAIMON_PARQUET_DEFAULT_LEVEL, or the codec's level */
  size_t page_size;             /* uncompressed bytes per data page; 1 MiB */
  int64_t page_row_limit;       /* rows per data page; 20000 */
  uint64_t row_group_size;      /* uncompressed bytes per row group; 128 MiB */
  int64_t row_group_rows;       /* rows per row group; 1 Mi */
  bool dictionary;              /* dictionary encoding; on */
  size_t dictionary_page_limit; /* dictionary page bytes before falling back to PLAIN; 1 MiB */
  const char *created_by;       /* NULL: "cpaimon version <x.y.z> (build <id>)" */
  /* Parquet field ids: NULL numbers the fields 0, 1, ... in the order they appear in the row type
   * (a field before those nested in it); else either one id per top-level column or one per field
   * of the whole type tree in that order. */
  const int32_t *field_ids;
  size_t num_field_ids;
  /* File-system options (borrowed for the call). */
  const char *const *fs_keys;
  const char *const *fs_values;
  size_t num_fs_options;
} paimon_parquet_write_options;

/* Fills `o` with the defaults above. */
void paimon_parquet_write_options_init(paimon_parquet_write_options *o);

/* A statistics value. `kind` says which fields hold it (PAIMON_VALUE_NULL: there is none). */
typedef enum paimon_value_kind {
  PAIMON_VALUE_NULL,
  PAIMON_VALUE_BOOLEAN,       /* boolean */
  PAIMON_VALUE_INT,           /* i64: TINYINT, SMALLINT, INT, BIGINT */
  PAIMON_VALUE_FLOAT,         /* f64 holds the FLOAT exactly */
  PAIMON_VALUE_DOUBLE,        /* f64 */
  PAIMON_VALUE_DECIMAL,       /* unscaled 128-bit value decimal_high:decimal_low, decimal_scale */
  PAIMON_VALUE_DATE,          /* i64: days since 1970-01-01 */
  PAIMON_VALUE_TIME,          /* i64: milliseconds of the day */
  PAIMON_VALUE_TIMESTAMP,     /* millis + nanos_of_milli: wall clock, as if in UTC */
  PAIMON_VALUE_TIMESTAMP_LTZ, /* millis + nanos_of_milli since the epoch */
  PAIMON_VALUE_STRING,        /* bytes/len: UTF-8 as written (CHAR, VARCHAR) */
  PAIMON_VALUE_BINARY         /* bytes/len (BINARY, VARBINARY) */
} paimon_value_kind;

typedef struct paimon_value {
  paimon_value_kind kind;
  bool boolean;
  int64_t i64;
  double f64;
  int64_t decimal_high; /* two's complement: value = decimal_high * 2^64 + decimal_low */
  uint64_t decimal_low;
  int32_t decimal_scale;
  int64_t millis;
  int32_t nanos_of_milli; /* 0..999999 */
  const uint8_t *bytes;   /* owned by the statistics */
  size_t len;
} paimon_value;

/* Statistics of one top-level column over the whole file, with Paimon's semantics (what a data
 * file's manifest entry holds): min/max of the atomic types — strings and binaries byte-wise
 * unsigned, FLOAT/DOUBLE by Java's Double.compare order (NaN above every number, -0.0 below 0.0),
 * decimals and timestamps by value; PAIMON_VALUE_NULL bounds for nested types, VARIANT, BLOB and
 * columns with no non-null value. */
typedef struct paimon_parquet_column_stats {
  char *name;
  int64_t null_count;
  paimon_value min;
  paimon_value max;
} paimon_parquet_column_stats;

typedef struct paimon_parquet_file_stats {
  int64_t num_rows;
  uint64_t file_size; /* bytes, footer included */
  uint32_t num_row_groups;
  size_t num_columns;
  paimon_parquet_column_stats *columns;
} paimon_parquet_file_stats;

void paimon_parquet_file_stats_free(paimon_parquet_file_stats *stats);

/* Writes every batch of `data` to a new Parquet file at `uri` (replacing a file there), with the
 * columns of `row_type` ("ROW<...>"); the batches' columns are matched to it by position and must
 * have the Arrow types cpaimon reads the Paimon types as (utf8/large_utf8, binary/large_binary and
 * list/large_list interchangeably, any time zone for TIMESTAMP_LTZ). `data` is read to its end and
 * stays the caller's to release. `opts` may be NULL for the defaults. On success `*stats` (when
 * `stats` is not NULL) is the file's statistics, freed with paimon_parquet_file_stats_free; on
 * failure the partial file is deleted (a file that was at `uri` is gone too: it is replaced from
 * the first byte); on an object store the object appears only when the upload completes. */
int paimon_parquet_write(const char *uri, const char *row_type, struct ArrowArrayStream *data,
                         const paimon_parquet_write_options *opts,
                         paimon_parquet_file_stats **stats, paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
