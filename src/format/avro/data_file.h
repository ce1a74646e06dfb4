/*
 * Avro data files (`file.format` = avro): Paimon rows in an Avro object container file, the way
 * Java Paimon's AvroFileFormat writes and reads them (spec/format.md §4.1 for the container;
 * paimon-format's AvroSchemaConverter, FieldWriterFactory and FieldReaderFactory for the mapping).
 *
 * Schema: the top record is `org.apache.paimon.avro.generated.record`, a nested ROW field `f` of a
 * record named R is the record `R_f`; a nullable type is the union ["null", T] (null first) with
 * "default": null on its field. BOOLEAN boolean; TINYINT/SMALLINT/INT int; BIGINT long;
 * FLOAT float; DOUBLE double; CHAR/VARCHAR string; BINARY/VARBINARY/BLOB bytes; DATE int (date);
 * TIME(p <= 3) int (time-millis); TIMESTAMP(p <= 3) long (timestamp-millis), p <= 6
 * (timestamp-micros), and local-timestamp-millis/micros WITH LOCAL TIME ZONE; DECIMAL bytes
 * (decimal, the unscaled value as minimal big-endian two's complement); ARRAY and VECTOR array;
 * MAP with CHAR/VARCHAR keys map, other keys an array of records {key, value} named after the
 * field; MULTISET as a MAP to INT NOT NULL. TIMESTAMP/TIME precisions above 6/3 and VARIANT are
 * refused, as Java refuses them.
 *
 * Reading maps requested columns to the file's fields by name at every level (Java's
 * FieldReaderFactory): a field the file lacks reads as NULLs, fields not asked for are skipped.
 * Values are converted to the requested Paimon type where Paimon's schema evolution allows it
 * (integer widening, FLOAT -> DOUBLE, DECIMAL precision growth at the same scale, longer strings,
 * timestamp precision changes); any other pair is EUNSUPPORTED naming the file, column and types.
 *
 * Statistics: the writer collects each top-level column's null count and, for atomic types,
 * min/max as Java's SimpleStatsCollector does for Avro (Comparable order: NaN above every number).
 *
 * Memory: the writer holds one block (sync interval 64000 bytes, Java's default) and the column
 * minima/maxima; the reader holds the file's bytes (Avro data files roll at target-file-size) and
 * the batch it builds. Errors name the file, the column and the record.
 */
#ifndef CP_FORMAT_AVRO_DATA_FILE_H
#define CP_FORMAT_AVRO_DATA_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/fs.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "types/datum.h"
#include "types/type.h"

/* Appends the Avro schema JSON Java writes for rows of `row` (a ROW type). EUNSUPPORTED, with
 * Java's message, for types Avro files cannot hold. */
int cp_avro_data_schema_json(const cp_type *row, cp_buf *out, paimon_error *err);

/* Checks that every field of `row` can be stored in an Avro data file (Java's
 * AvroFileFormat.validateDataFields). */
int cp_avro_data_check_row(const cp_type *row, paimon_error *err);

/* ---- writer ---------------------------------------------------------------------------------- */

typedef struct cp_avro_dw_options {
  const char *codec; /* Avro codec name: "null", "deflate", "snappy", "zstandard" */
  int level;         /* zstandard level (0: the codec's default) */
} cp_avro_dw_options;

typedef struct cp_avro_column_stats {
  int64_t null_count;
  cp_datum min; /* is_null when the column has no bounds (nested types, all NULL) */
  cp_datum max;
} cp_avro_column_stats;

typedef struct cp_avro_dw cp_avro_dw;

/* A writer of rows of `row` to `file` (borrowed; the caller closes or aborts it after close). */
int cp_avro_dw_open(cp_avro_dw **out, cp_wfile *file, const char *path, const cp_type *row,
                    const cp_avro_dw_options *opts, paimon_error *err);

/* Appends the rows of a struct batch whose children are `row`'s fields in order (Arrow types as
 * types/type_arrow.h maps them, or the variants types/datum_arrow.h reads). A NULL in a NOT NULL
 * field is EINVAL naming the column and the row; nothing of the batch is written then. */
int cp_avro_dw_write(cp_avro_dw *w, const struct ArrowSchema *schema,
                     const struct ArrowArray *batch, paimon_error *err);

uint64_t cp_avro_dw_estimated_size(const cp_avro_dw *w);
int64_t cp_avro_dw_row_count(const cp_avro_dw *w);

/* Flushes the last block. *file_size receives the file's size; *stats one entry per field of the
 * row, owned by the writer (valid until cp_avro_dw_free). */
int cp_avro_dw_close(cp_avro_dw *w, uint64_t *file_size, const cp_avro_column_stats **stats,
                     paimon_error *err);

void cp_avro_dw_free(cp_avro_dw *w);

/* ---- reader ---------------------------------------------------------------------------------- */

typedef struct cp_avro_dr_column {
  const char *name;        /* the file's field name; NULL reads NULLs */
  const cp_type *type;     /* the Paimon type to read it as */
  const char *output_name; /* the batch's column name; NULL: `name` */
} cp_avro_dr_column;

typedef struct cp_avro_dr_range {
  int64_t start, end; /* file row positions [start, end) */
} cp_avro_dr_range;

typedef struct cp_avro_dr_options {
  const cp_avro_dr_column *columns; /* borrowed during open */
  size_t num_columns;
  const cp_avro_dr_range *ranges; /* sorted, disjoint; NULL: every row */
  size_t num_ranges;
  int64_t batch_size;     /* rows per batch; 0: 65536 */
  size_t max_block_bytes; /* cap on a block's decompressed size; 0: the container's 64 MiB */
} cp_avro_dr_options;

typedef struct cp_avro_dr cp_avro_dr;

int cp_avro_dr_open(cp_avro_dr **out, cp_fs *fs, const char *path, const cp_avro_dr_options *opts,
                    paimon_error *err);

/* The same over a file's bytes in memory (borrowed; they must outlive the reader). */
int cp_avro_dr_open_mem(cp_avro_dr **out, const char *name, const void *data, size_t len,
                        const cp_avro_dr_options *opts, paimon_error *err);

/* The next batch, a struct array of the requested columns; at the end *eof is true and
 * out_batch->release is NULL. */
int cp_avro_dr_next(cp_avro_dr *r, struct ArrowArray *out_batch, struct ArrowSchema *out_schema,
                    bool *eof, paimon_error *err);

void cp_avro_dr_set_batch_size(cp_avro_dr *r, int64_t rows);

/* Rows the selection will produce (known at open, from the block headers). */
int64_t cp_avro_dr_selected_rows(const cp_avro_dr *r);

/* Rows in the file. */
int64_t cp_avro_dr_file_rows(const cp_avro_dr *r);

/* Whether the file's record has a top-level field called `name`. */
bool cp_avro_dr_has_column(const cp_avro_dr *r, const char *name);

void cp_avro_dr_free(cp_avro_dr *r);

#endif
