/*
 * Reading and writing the end of a Parquet file: `FileMetaData` · 4-byte LE length · "PAR1"
 * (spec/parquet.md §2.1), with the checks that make the rest of the reader safe to run on what
 * the footer says (§4 P2–P5, P18).
 *
 * Reading goes through the file-I/O seam (base/fs.h). The file must be at least 12 bytes, start
 * and end with "PAR1" (an encrypted footer, "PARE", is EUNSUPPORTED), and the footer length must
 * fit between the magics. The decoded metadata is then validated against the schema tree: every
 * row group has one column chunk per leaf, chunks describe this file (no file_path, not
 * encrypted), each chunk's physical type and path match its leaf, each chunk's byte range
 * [start, start + total_compressed_size) lies between the leading magic and the footer (not
 * checked in row groups of 0 rows, which are never read), and the row groups' num_rows add up to
 * the file's — except that a file num_rows of 0 is taken as "not filled in" (an early-writer bug
 * that pyarrow and parquet-java tolerate): row-group counts are authoritative either way. Every
 * error names the file path and, where there is one, the byte offset.
 *
 * Ownership: a cp_pq_footer owns its metadata and schema tree; cp_pq_footer_free releases both.
 */
#ifndef CP_FORMAT_PARQUET_FOOTER_H
#define CP_FORMAT_PARQUET_FOOTER_H

#include <stdint.h>

#include "base/buf.h"
#include "base/fs.h"
#include "cpaimon/error.h"
#include "format/parquet/metadata.h"

#define CP_PQ_MAGIC "PAR1"
#define CP_PQ_MAGIC_LEN 4

typedef struct cp_pq_footer {
  cp_pq_file_meta meta;
  cp_pq_schema schema;
  uint64_t file_size;
  uint64_t metadata_offset; /* file offset of the FileMetaData bytes (= end of the data region) */
  uint32_t metadata_len;
} cp_pq_footer;

/* Reads, decodes and validates the footer of an open file. On failure `out` is left zeroed. */
int cp_pq_footer_read(cp_rfile *f, cp_pq_footer *out, paimon_error *err);

/* The same for a whole file already in memory (`path` is only used in messages). */
int cp_pq_footer_parse(const uint8_t *file, size_t len, const char *path, cp_pq_footer *out,
                       paimon_error *err);

void cp_pq_footer_free(cp_pq_footer *f);

/* The validation cp_pq_footer_read applies, for metadata obtained some other way. `data_end` is
 * the offset where column data must end (the footer's start). */
int cp_pq_file_meta_validate(const cp_pq_file_meta *m, const cp_pq_schema *s, uint64_t data_end,
                             const char *path, paimon_error *err);

/* Where a column chunk's bytes start: the dictionary page offset when it is set, > 0 and before
 * the first data page, otherwise the data page offset (how pyarrow and parquet-java decide, §4
 * P4). */
int64_t cp_pq_column_chunk_start(const cp_pq_column_meta *cm);

/* How many bytes to read for a column chunk starting at `start`: total_compressed_size, except
 * for files from parquet-mr before 1.2.9 (or "parquet-mr" without a version), whose sizes leave
 * out the dictionary page header (PARQUET-816, IMPALA-694; parquet-testing
 * nation.dict-malformed.parquet): there, up to 100 more bytes, capped at `data_end`, as Arrow
 * does. A page reader stops at the chunk's num_values either way. */
int64_t cp_pq_column_chunk_read_len(const char *created_by, const cp_pq_column_meta *cm,
                                    uint64_t data_end);

/* Appends FileMetaData, its 4-byte LE length and "PAR1" to `out` (which holds the file so far). */
int cp_pq_footer_write(const cp_pq_file_meta *m, cp_buf *out, paimon_error *err);

#endif
