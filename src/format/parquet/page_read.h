/*
 * Reading one column chunk page by page (spec/parquet.md §2.4 bookkeeping, §2.5 reader profile,
 * §2.7 encodings, §2.8 codecs, §4 P1/P2/P4/P13/P19): page headers, decompression, levels and
 * values, in row-sized steps, so the reader above can skip rows and read batches.
 *
 * A cp_pq_chunk_reader walks the pages of one column chunk through ranged reads of the file
 * (base/fs.h), holding at most: a read window (the page being decoded, compressed), the current
 * page decompressed, its decoded levels (2 bytes per level entry and level kind), and the
 * dictionary converted to the output representation. That is the "one decompressed page set per
 * column" of the reader's memory bound; nothing is sized by the chunk or the file.
 *
 * Decoded values are appended to a cp_pq_leaf_batch in the output representation the leaf's
 * conversion asks for (schema_read.h cp_pq_leaf_conv): dense (only non-null values, as in the
 * page), converted once per value — or once per dictionary entry for dictionary pages — so record
 * assembly (levels_read.h) only scatters them into slots.
 *
 * Rows: `skip_rows`/`read_rows` consume whole rows (an entry with repetition level 0 starts a row;
 * a row may continue across pages, §3.3). Pages entirely inside a skip are passed over without
 * decompressing when their row count is known from the header (columns without repetition, and
 * DATA_PAGE_V2). The chunk ends after ColumnMetaData.num_values level entries (§4 P1).
 *
 * Every error names the file, the column, the row group and the byte offset of the page.
 */
#ifndef CP_FORMAT_PARQUET_PAGE_READ_H
#define CP_FORMAT_PARQUET_PAGE_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "base/codec.h"
#include "base/fs.h"
#include "cpaimon/error.h"
#include "format/parquet/encoding.h"
#include "format/parquet/footer.h"
#include "format/parquet/schema_read.h"

/* Limits that keep hostile files from making the reader allocate without bound. */
typedef struct cp_pq_read_limits {
  int64_t max_page_size;   /* compressed or uncompressed page bytes (default 256 MiB) */
  int64_t max_page_values; /* level entries in one page (default 32 Mi) */
  bool verify_crc;         /* check PageHeader.crc when present (off by default, as pyarrow) */
} cp_pq_read_limits;

#define CP_PQ_DEFAULT_MAX_PAGE_SIZE ((int64_t)256 << 20)
#define CP_PQ_DEFAULT_MAX_PAGE_VALUES ((int64_t)32 << 20)

/* Levels and values of one leaf for the rows of one batch. Buffers are malloc'd; record assembly
 * takes `values`/`data` over (detaching them into arrays that give them back to `pool` when they
 * are released) and leaves `def`/`rep` for reuse.
 *
 * Values are dense (one per entry with def == max_def, as in the pages) unless `spaced`: then
 * there is one value slot per level entry, null entries holding zeros (FIXED, BOOL) or an empty
 * byte array (BINARY), which is exactly the Arrow layout of a leaf without repetition. Spaced
 * batches are for leaves with max_rep == 0, where every entry is a slot of the leaf's array; the
 * page reader then copies whole runs of non-null values into place and assembly copies nothing. */
typedef struct cp_pq_leaf_batch {
  int64_t n_entries; /* level entries */
  cp_buf def;        /* int16 per entry; empty when max_def is 0 (all entries are values) */
  cp_buf rep;        /* int16 per entry; empty when max_rep is 0 (every entry starts a row) */
  int64_t n_present; /* entries with def == max_def (counted whether values are read or not) */
  int64_t n_values;  /* non-null values read (n_present, or 0 when values are not read) */
  /* FIXED: one value of out_width bytes, BOOL: one 0/1 byte, BINARY: one int32 end offset after a
   * first 0 — per value read (dense) or per entry (spaced) */
  cp_buf values;
  cp_buf data; /* BINARY: the bytes */
  int16_t max_def, max_rep;
  int out_kind; /* cp_pq_out_kind, or CP_PQ_OUT_NONE when values are not read */
  int32_t out_width;
  bool spaced;       /* values per entry (set by the reader for leaves with max_rep == 0) */
  cp_buf_pool *pool; /* borrowed: where detached values/data come back from, or NULL */
  /* BINARY: bytes and level entries of the previous batch, to take a big enough pooled buffer
   * (scaled to the next batch's rows: a short last batch must not fault in a full one's bytes) */
  size_t data_hint;
  int64_t data_hint_entries;
} cp_pq_leaf_batch;

/* Starts an empty batch: BINARY batches get their first offset, and room for `rows` level entries
 * and values is reserved up front (buffers handed to Arrow by the previous batch are gone; their
 * replacements come from the pool when it has them). */
int cp_pq_leaf_batch_reset(cp_pq_leaf_batch *b, int64_t rows, paimon_error *err);
void cp_pq_leaf_batch_free(cp_pq_leaf_batch *b);

typedef struct cp_pq_chunk_reader cp_pq_chunk_reader;

/* A reader for leaf `leaf` of the file; `conv` NULL means only levels are wanted. The strings,
 * `conv` and `codec_ctx` are borrowed and must outlive the reader. `codec_ctx` (NULL: one-shot
 * decompression) keeps the decompressor state between pages and may be shared by chunk readers
 * that are used by one thread at a time. */
int cp_pq_chunk_reader_new(cp_pq_chunk_reader **out, cp_rfile *file, const char *path,
                           const cp_pq_footer *footer, int32_t leaf, const cp_pq_leaf_conv *conv,
                           const cp_pq_read_limits *limits, cp_codec_ctx *codec_ctx,
                           paimon_error *err);
void cp_pq_chunk_reader_free(cp_pq_chunk_reader *cr);
/* Decompresses with `codec_ctx` from now on (borrowed; NULL: one-shot), e.g. when the chunk moves
 * to another thread of its file reader. */
void cp_pq_chunk_reader_set_codec_ctx(cp_pq_chunk_reader *cr, cp_codec_ctx *codec_ctx);

/* True when the reader can decompress Parquet codec `pq_codec` (cp_pq_codec). */
bool cp_pq_codec_supported(int pq_codec);

/* Positions the reader at the first page of the leaf's chunk in row group `rg` (buffers kept). */
int cp_pq_chunk_reader_start(cp_pq_chunk_reader *cr, int32_t rg, paimon_error *err);

/* Passes over the next `rows` rows. */
int cp_pq_chunk_skip_rows(cp_pq_chunk_reader *cr, int64_t rows, paimon_error *err);

/* Appends the levels and values of the next `rows` rows to `out`. */
int cp_pq_chunk_read_rows(cp_pq_chunk_reader *cr, int64_t rows, cp_pq_leaf_batch *out,
                          paimon_error *err);

/* ---- internals shared by page_read.c and reader_values.c ---------------------------------------
 *
 * page_read.c walks pages and levels; reader_values.c decodes values into leaf batches. Nothing
 * outside those two files touches the chunk reader's fields.
 */
struct cp_pq_chunk_reader {
  cp_rfile *file;
  const char *path;
  const cp_pq_footer *footer;
  const char *column;
  const cp_pq_leaf_conv *conv; /* NULL: levels only */
  cp_pq_read_limits lim;
  cp_codec_ctx *codec_ctx; /* borrowed, may be NULL */
  int32_t leaf;
  int phys;
  int32_t width; /* physical width of fixed-width types (BOOLEAN: 1 byte per decoded value) */
  int16_t max_def, max_rep;
  /* the chunk */
  int32_t rg;
  int codec; /* cp_codec, or -1 when the file's codec is not supported */
  int pq_codec;
  uint64_t chunk_start, chunk_end, pos, page_off;
  int64_t chunk_values, values_seen;
  cp_buf window;
  uint64_t window_off;
  /* dictionary, in the output representation */
  bool has_dict;
  int64_t dict_count;
  cp_buf dict_fixed, dict_offsets, dict_data;
  /* the current data page */
  int encoding;
  int64_t page_entries, page_pos, page_values, page_values_pos;
  int64_t page_present_pos; /* entries with def == max_def before page_pos */
  cp_buf def, rep;          /* int16 levels of the whole page */
  cp_buf page_buf;          /* decompressed bytes */
  const uint8_t *vals;
  size_t vals_len, plain_pos;
  cp_pq_rle_decoder rle;
  cp_pq_delta_decoder delta;
  cp_buf dec_offsets, dec_data; /* DELTA_(LENGTH_)BYTE_ARRAY pages, decoded whole */
  cp_buf scratch, scratch_off, scratch_data;
  cp_buf spread; /* spaced reads: values decoded dense before they are spread over their slots */
};

/* Entries among the next k of the current page (from page_pos) with def == max_def; `def` points
 * at the first of them (NULL when max_def is 0). */
size_t cp_pq_values_present(const cp_pq_chunk_reader *cr, const int16_t *def, int64_t k);

/* Appends the values of the next k entries (m of them non-null) to `b`: dense, or spaced when
 * b->spaced. */
int cp_pq_values_read(cp_pq_chunk_reader *cr, const int16_t *def, size_t k, size_t m,
                      cp_pq_leaf_batch *b, paimon_error *err);

/* Passes over the next m non-null values of the current page. */
int cp_pq_values_skip(cp_pq_chunk_reader *cr, size_t m, paimon_error *err);

/* ---- value conversion kernels (reader_convert.c) ---------------------------------------------
 *
 * Physical values → output representation (schema_read.h cp_pq_conv_kind). `column` names the
 * column in messages (overflow, precision, bad decimal width).
 */

/* n fixed-width physical values (conv->phys_width bytes each) → n output values. */
int cp_pq_convert_fixed(const cp_pq_leaf_conv *conv, const void *src, size_t n, void *dst,
                        const char *column, paimon_error *err);

/* n byte arrays (Arrow layout, any first offset) → n output values (BINARY_TO_DEC). */
int cp_pq_convert_binary(const cp_pq_leaf_conv *conv, const int32_t *offsets, const uint8_t *data,
                         size_t n, void *dst, const char *column, paimon_error *err);

/* n FLBA values of `width` bytes → appended to a BINARY batch (FIXED_TO_BINARY); `offsets` points
 * at the batch's last offset. */
int cp_pq_convert_fixed_to_binary(const uint8_t *src, size_t n, size_t width, int32_t *offsets,
                                  cp_buf *data, paimon_error *err);

#endif
