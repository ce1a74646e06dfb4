/*
 * The Parquet reader: a file → a stream of Arrow record batches (spec/parquet.md §1 mapping, §1.3
 * column matching, §2.5 reader profile, §2.7/§2.8 encodings and codecs, §3 levels → Arrow, §4
 * pitfalls).
 *
 * What it reads: every file pyarrow/pypaimon and Java Paimon write with their defaults, and the
 * tier-2 variants of §2.5 — DATA_PAGE_V2, DELTA_BINARY_PACKED / DELTA_LENGTH_BYTE_ARRAY /
 * DELTA_BYTE_ARRAY, RLE booleans, BYTE_STREAM_SPLIT, codecs UNCOMPRESSED, SNAPPY, GZIP, ZSTD,
 * LZ4_RAW and Hadoop LZ4 — with any nesting of lists (3-level, legacy 2-level, unannotated
 * repeated fields), maps and structs. Not read (EUNSUPPORTED): encryption, LZO, BROTLI (no Debian
 * library in the build), decimals wider than 38 digits, INTERVAL.
 *
 * Projection: by top-level name or Parquet field id (schema_read.h cp_pq_column_request), each
 * column either with its natural Arrow type or converted to the Arrow type of a Paimon type
 * (types/type_arrow.h) with Java's widening rules; a requested column the file lacks reads as
 * NULLs of its target type (how older files are read after ALTER TABLE ADD COLUMN).
 *
 * Selection: a list of row groups and/or sorted, disjoint row ranges [start, end) of file row
 * positions (for deletion vectors and row-id ranges). Whole pages outside the selection are
 * passed over undecompressed when their row count is in the page header (always for columns
 * without repetition; DATA_PAGE_V2 pages otherwise); partly selected pages are decoded and the
 * unselected rows dropped.
 *
 * Memory: streaming. Besides the footer, the reader holds per projected leaf column one
 * decompressed page with its decoded levels, a read window of at most max(256 KiB, one compressed
 * page), and the chunk's dictionary; plus the batch being built. Nothing is sized by the row
 * group, the file or the number of batches. Batches hold at most `batch_size` rows and never span
 * row groups. Limits (page sizes, level entries per page, DELTA_BYTE_ARRAY expansion) refuse
 * decompression bombs with ECORRUPT before allocating.
 *
 * Errors name the file, the column, the row group and the byte offset of the page involved.
 *
 * Thread safety: a reader is used by one thread at a time; distinct readers are independent.
 * Ownership: the reader owns its file handle (closed by cp_pq_reader_free) and borrows the cp_fs,
 * which must outlive it. Arrays and schemas it hands out are owned by the caller and stay valid
 * after the reader is freed.
 */
#ifndef CP_FORMAT_PARQUET_READER_H
#define CP_FORMAT_PARQUET_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/fs.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "format/parquet/footer.h"
#include "format/parquet/page_read.h"
#include "format/parquet/schema_read.h"
#include "types/datum.h"
#include "types/type.h"

#define CP_PQ_DEFAULT_BATCH_SIZE 65536

/* Rows [start, end) by position in the file (0 = first row of the first row group). */
typedef struct cp_pq_row_range {
  int64_t start;
  int64_t end;
} cp_pq_row_range;

typedef struct cp_pq_reader_options {
  /* Columns to read; NULL reads every top-level column with its natural type. Requests are
   * borrowed only during cp_pq_reader_open. */
  const cp_pq_column_request *columns;
  size_t num_columns;
  /* Row groups to read, in this order; NULL reads all in file order. */
  const int32_t *row_groups;
  size_t num_row_groups;
  /* Rows to read: sorted, non-overlapping ranges (ranges past the last row are clipped); NULL
   * reads every row. Combined with row_groups, only rows in both are read. */
  const cp_pq_row_range *row_ranges;
  size_t num_row_ranges;
  int64_t batch_size;       /* rows per batch; 0 means CP_PQ_DEFAULT_BATCH_SIZE */
  cp_pq_read_limits limits; /* zero fields mean the defaults of page_read.h */
  /* 1: a helper thread decodes part of the projected columns of every batch, the calling thread
   * the rest (reader.c, "A helper thread"); the batches are the same as with 0 (the default: the
   * calling thread decodes everything). A system that refuses the thread gets 0, never an
   * error. */
  int decode_threads;
} cp_pq_reader_options;

typedef struct cp_pq_reader cp_pq_reader;

/* Opens `path` on `fs`, reads and validates the footer and prepares the projection. `opts` may be
 * NULL (everything, natural types). Errors: ENOTFOUND (file or requested column without a target
 * type), ECORRUPT (bad footer), EUNSUPPORTED (encrypted, unreadable type), EINVAL (bad options,
 * an impossible conversion is EUNSUPPORTED naming the column and both types). */
int cp_pq_reader_open(cp_pq_reader **out, cp_fs *fs, const char *path,
                      const cp_pq_reader_options *opts, paimon_error *err);

/* Reads the next batch: a struct ("+s") array whose children are the projected columns, with
 * length = its row count. `out_schema`, when not NULL, receives a copy of the batch schema (pass it
 * on the first call). At the end *eof is true and out_batch->release is NULL. After an error the
 * reader should only be freed. */
int cp_pq_reader_next(cp_pq_reader *r, struct ArrowArray *out_batch, struct ArrowSchema *out_schema,
                      bool *eof, paimon_error *err);

/* Rows per batch from the next cp_pq_reader_next on (0: CP_PQ_DEFAULT_BATCH_SIZE): for callers that
 * bound batches by something the reader does not see (the bytes of the `.blob` payloads read
 * beside a file). */
void cp_pq_reader_set_batch_size(cp_pq_reader *r, int64_t rows);

/* A copy of the batch schema (owned by the caller). */
int cp_pq_reader_schema(const cp_pq_reader *r, struct ArrowSchema *out, paimon_error *err);

/* Turns the reader into an ArrowArrayStream that owns it (the reader is freed with the stream,
 * also when this call fails). */
int cp_pq_reader_to_stream(cp_pq_reader *r, struct ArrowArrayStream *out, paimon_error *err);

void cp_pq_reader_free(cp_pq_reader *r);

/* Makes the reader own `fs` (freed after the file is closed, in cp_pq_reader_free): for callers
 * that hand the reader (or its stream) on and keep nothing else of the file system. */
void cp_pq_reader_own_fs(cp_pq_reader *r, cp_fs *fs);

/* The file's footer (metadata and schema tree), owned by the reader. */
const cp_pq_footer *cp_pq_reader_footer(const cp_pq_reader *r);

/* Rows the selection will produce (row groups × ranges), known before reading. */
int64_t cp_pq_reader_selected_rows(const cp_pq_reader *r);

/* ---- statistics (reader_stats.c) ------------------------------------------------------------
 *
 * Column-chunk statistics decoded to Paimon datums, for predicate pruning (spec/parquet.md §2.9
 * "Reading"): min_value/max_value when the file's column order is TYPE_ORDER; the deprecated
 * min/max only for signed-order columns; no bounds for INT96, unsigned-order columns without
 * TYPE_ORDER, NaN bounds, or nested columns. Bounds may be inexact (truncated binary statistics)
 * but always bound the chunk's values. Variable-length datums point into the footer, valid as long
 * as the reader (or footer).
 */
typedef struct cp_pq_chunk_stats {
  int64_t num_values;  /* level entries in the chunk */
  bool has_null_count; /* a missing null count means unknown, not 0 */
  int64_t null_count;
  bool has_min_max;
  cp_datum min;
  cp_datum max;
} cp_pq_chunk_stats;

/* Statistics of leaf column `leaf` in row group `rg`, decoded for Paimon type `type` (which must
 * be readable from the leaf: EINVAL naming the column and types otherwise; nested types get
 * null counts only). */
int cp_pq_chunk_stats_get(const cp_pq_footer *ft, int32_t rg, int32_t leaf, const cp_type *type,
                          cp_pq_chunk_stats *out, paimon_error *err);

/* The same for the top-level column named `column` (ENOTFOUND when absent). A nested column gets
 * no bounds, and the null count of its first leaf, which counts level entries below max_def (null
 * or empty lists and null elements too), not null rows. */
int cp_pq_reader_column_stats(const cp_pq_reader *r, int32_t rg, const char *column,
                              const cp_type *type, cp_pq_chunk_stats *out, paimon_error *err);

/* Appends a readable rendering of one statistics value of leaf `leaf` (its PLAIN bytes) for the
 * CLI: numbers, dates "YYYY-MM-DD", timestamps in UTC, decimals with their scale, strings as
 * text (escaped), other bytes as hex. */
int cp_pq_stat_value_to_text(const cp_pq_schema_node *leaf, const uint8_t *data, uint32_t len,
                             cp_buf *out, paimon_error *err);

#endif
