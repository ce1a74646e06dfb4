/*
 * The streaming Parquet writer: Arrow record batches of a Paimon ROW type in, one Parquet file out
 * (spec/parquet.md §2.3 — the cpaimon writer profile — with the schema and field ids of §1, the
 * page and chunk bookkeeping of §2.4, the statistics of §2.9, the sizes of §2.11 and the levels
 * of §3.4). The table layer drives it: one writer per data file, rolled when
 * cp_pq_writer_estimated_size() reaches the target file size.
 *
 * What it writes: DATA_PAGE v1 pages (RLE levels with a 4-byte length, none for a max level of
 * 0), PLAIN values or a PLAIN dictionary page + RLE_DICTIONARY data pages (never for BOOLEAN),
 * falling back to PLAIN when the dictionary passes its limit, as Arrow C++ and parquet-java do —
 * or, when the chunk's first page shows the dictionary is bound to pass it (it did not pay on that
 * page and the repeats seen imply far too many distinct values), giving it up right there
 * (writer_column.c); chunk statistics with TYPE_ORDER column orders; the Java schema shapes and
 * field ids; TIMESTAMP(7..9) as INT64 TIMESTAMP(NANOS) (pypaimon's form, see schema_build.h).
 *
 * Memory: a row group's encoded (compressed) column chunks are buffered until the row group ends,
 * because a chunk's dictionary page must precede its data pages but is only complete at the end —
 * except for the first column, whose pages go straight to the file once its dictionary is final,
 * so a one-column file holds about a page, not a row group; plus one open page and one dictionary
 * (<= its limit) per leaf column, up to 8 compressed pages on their way to their chunk, and level
 * scratch for a piece of a batch (at most 64 Ki rows and about 256 Ki level entries, ~32 bytes
 * each; lists without NULLs need none). The row group is cut at `row_group_size` uncompressed
 * bytes or `row_group_rows` rows, so memory does not grow with the file.
 *
 * Threads: with compress_threads > 0, pages are compressed on that many threads of the writer's
 * own while the caller's thread encodes the next ones; the file is byte for byte the one written
 * without them (writer_pool.c). The caller still drives the writer from one thread.
 *
 * Errors. A batch that does not match the row type, or that holds a NULL where the type is NOT
 * NULL (at any nesting level, with Java's message "Cannot write null to non-null column(a.b)"),
 * is rejected before anything is written: the writer is unchanged and may take further batches.
 * Any other failure (I/O, memory, a value that cannot be represented) leaves the writer failed:
 * every later call but cp_pq_writer_free returns PAIMON_ESTATE, and the caller aborts the file
 * (cp_wfile_abort). Messages name the column, and the file through the caller's prefix.
 *
 * Ownership: the cp_wfile is borrowed (the caller closes or aborts it after cp_pq_writer_close);
 * the row type and the options' strings are copied at open. The statistics cp_pq_writer_close
 * returns point into the writer and stay valid until cp_pq_writer_free. Not thread-safe: one
 * thread drives one writer (its compression threads, if any, are internal).
 */
#ifndef CP_FORMAT_PARQUET_WRITER_H
#define CP_FORMAT_PARQUET_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/codec.h"
#include "base/fs.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "types/datum.h"
#include "types/type.h"

typedef struct cp_pq_writer_options {
  /* CP_CODEC_ZSTD (default), CP_CODEC_SNAPPY, CP_CODEC_GZIP, CP_CODEC_LZ4_RAW or CP_CODEC_NONE;
   * the others are EUNSUPPORTED (Parquet's LZ4 with Hadoop framing is read-only, §2.3 item 4). */
  cp_codec codec;
  int compression_level;        /* zstd 1 by default; 0 = the codec's default */
  size_t page_size;             /* uncompressed bytes per data page, 1 MiB */
  int64_t page_row_limit;       /* rows per data page, 20000 */
  uint64_t row_group_size;      /* uncompressed bytes per row group, 128 MiB */
  int64_t row_group_rows;       /* rows per row group, 1 Mi */
  bool dictionary;              /* dictionary encoding, on */
  size_t dictionary_page_limit; /* PLAIN dictionary page bytes before falling back, 1 MiB */
  const char *created_by;       /* NULL: "cpaimon version <x.y.z> (build <id>)" (§2.3 item 8) */
  int compress_threads;         /* threads compressing pages beside the caller's, 0..64; 0 */
} cp_pq_writer_options;

/* Fills `o` with the defaults above (Java Paimon's: file.compression zstd level 1). */
void cp_pq_writer_options_init(cp_pq_writer_options *o);

/* Parses a Paimon `file.compression` value for Parquet: zstd, snappy, gzip, lz4 (written as
 * LZ4_RAW, as pyarrow does, §2.3 item 4), lz4_raw, none/uncompressed (case-insensitive). EINVAL
 * naming the input otherwise. */
int cp_pq_writer_codec_from_name(const char *name, cp_codec *out, paimon_error *err);

/* The statistics of one top-level column over the whole file, with Paimon's semantics (what
 * SimpleStats needs): min/max of the atomic types — strings and binaries byte-wise unsigned,
 * FLOAT/DOUBLE ignoring NaN (a zero min is -0.0 and a zero max +0.0, as in the Parquet footer),
 * decimals and timestamps by value. `min`/`max` are NULL datums for nested types, VARIANT, BLOB
 * and columns without a non-null (non-NaN) value. Byte datums point into the writer. */
typedef struct cp_pq_column_stats {
  int64_t null_count; /* rows where the column is NULL */
  cp_datum min;
  cp_datum max;
} cp_pq_column_stats;

typedef struct cp_pq_file_stats {
  int64_t num_rows;
  uint64_t file_size;                /* bytes written, footer included */
  size_t num_columns;                /* the row type's fields */
  const cp_pq_column_stats *columns; /* owned by the writer */
  uint32_t num_row_groups;
} cp_pq_file_stats;

typedef struct cp_pq_writer cp_pq_writer;

/* Starts a file on `file` (writes the leading magic). `row` is a ROW type whose fields are the
 * file's columns, with their field ids; `opts` may be NULL for the defaults. Errors: EINVAL for a
 * type Parquet cannot hold (e.g. an empty ROW) or bad options, EUNSUPPORTED for a codec, EIO. */
int cp_pq_writer_open(cp_pq_writer **out, cp_wfile *file, const cp_type *row,
                      const cp_pq_writer_options *opts, paimon_error *err);

/* Appends the rows of `batch`, a struct ("+s") array whose children are the row's fields in order,
 * each with the Arrow type of types/type_arrow.h for its Paimon type — or utf8/large_utf8,
 * binary/large_binary, list/large_list interchangeably, and any time zone for TIMESTAMP_LTZ. The
 * top-level struct's own validity is ignored (record batches have none). */
int cp_pq_writer_write(cp_pq_writer *w, const struct ArrowSchema *schema,
                       const struct ArrowArray *batch, paimon_error *err);

/* Bytes written so far plus those buffered — compressed chunks, and open pages and dictionaries
 * at the compression ratio each column's pages have had so far (1 before its first page): about
 * what the file would take if closed now, without the footer. */
uint64_t cp_pq_writer_estimated_size(const cp_pq_writer *w);

/* Rows accepted so far. */
int64_t cp_pq_writer_row_count(const cp_pq_writer *w);

/* Flushes the last row group, writes the footer, and fills `out` (may be NULL). The file is not
 * closed or synced (it is the caller's). After close only cp_pq_writer_free is valid. */
int cp_pq_writer_close(cp_pq_writer *w, cp_pq_file_stats *out, paimon_error *err);

/* Frees the writer, valid in any state (also after a failed open/write/close); NULL is a no-op. */
void cp_pq_writer_free(cp_pq_writer *w);

#endif
