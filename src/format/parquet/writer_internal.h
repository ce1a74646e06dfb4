/*
 * Internals of the Parquet writer shared by its files (writer.h is the interface):
 *   writer.c        the file: batches -> row groups -> footer (spec/parquet.md §2.1, §2.3, §2.4)
 *   writer_column.c one leaf column's chunk: pages, dictionary and fallback, compression (§2.4,
 *                   §2.3 items 1-4, §2.11)
 *   writer_values.c Arrow values -> physical values of a page, with statistics (§1.1, §2.7, §2.9)
 *   writer_encode.c dictionary-index sections (§2.7)
 *   writer_check.c  the Arrow type of a batch against the Paimon row type (type_arrow.h)
 */
#ifndef CP_FORMAT_PARQUET_WRITER_INTERNAL_H
#define CP_FORMAT_PARQUET_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "base/codec.h"
#include "base/fs.h"
#include "format/parquet/encoding.h"
#include "format/parquet/levels_write.h"
#include "format/parquet/metadata.h"
#include "format/parquet/schema_build.h"
#include "format/parquet/stats_write.h"
#include "format/parquet/writer.h"

typedef struct cp_pq_page_queue cp_pq_page_queue;

/* One leaf column's writer: the open page and the encoded pages of the current chunk. */
typedef struct cp_pq_colw {
  const cp_pq_leaf *leaf;
  const cp_pq_writer_options *opts; /* the writer's */
  cp_codec_ctx *codec_ctx;          /* the writer's (borrowed), or NULL */
  cp_pq_page_queue *queue; /* the writer's (borrowed); NULL when pages are not compressed */
  int codec;               /* cp_pq_codec written in the metadata */
  size_t width;            /* bytes per physical value; 0 for BYTE_ARRAY and BOOLEAN */

  /* Dictionary state of the current chunk. */
  cp_pq_dict_builder *dict; /* NULL when the column never uses one (option off, BOOLEAN) */
  bool dict_off;            /* the chunk stopped using the dictionary (fallback or given up) */
  bool dict_used;           /* some data page of the chunk is dictionary-encoded */
  bool dict_judged;         /* the first page with values has closed (see writer_column.c) */

  /* The open page. Repetition levels, and definition levels except for a "bitdef" leaf (max_def
   * 1, max_rep 0), are RLE-encoded as they arrive (rep_enc/def_enc into rep_rle/def_rle). A
   * bitdef leaf keeps its def levels as a bitmap in def_bits, materialised only once a NULL
   * arrives (until then every entry is defined). Values are PLAIN bytes (bit-packed for BOOLEAN)
   * after a gap of CP_PQ_PAGE_GAP bytes, where the level sections are put when the page closes so
   * that the body is contiguous without copying the values; or, while the dictionary is on,
   * int32 indices. */
  cp_buf rep_rle, def_rle, def_bits, values, indices;
  cp_pq_rle_writer rep_enc, def_enc;
  bool bitdef;
  bool def_materialized;
  int64_t page_entries, page_rows, page_values;
  int64_t page_plain_bytes; /* PLAIN size of the page's values: what the dictionary must beat */
  size_t bool_bits;
  double row_bytes;   /* body bytes per row of the last closed page (0: none yet) */
  double plain_bytes; /* PLAIN value bytes per row of the last dictionary page (0: none yet) */
  int64_t life_unc, life_comp; /* page body bytes before/after compression, over the file */

  /* The chunk: data pages encoded so far (headers + compressed bodies), unless streaming. */
  cp_buf chunk;
  int64_t num_values;          /* level entries of the chunk's data pages */
  int64_t data_unc, data_comp; /* header + body sizes of the data pages collected so far */
  int64_t pending_unc;         /* body sizes of the pages still in the queue */
  int32_t dict_pages, plain_pages;

  /* Streaming (see writer_column.c): when `direct` is set (by the writer, for the column whose
   * chunk comes first in the row group), pages go straight to that file once the chunk's
   * dictionary is final. `streaming` says the chunk's start (dictionary page and the pages
   * buffered before) is in the file, at chunk_start. */
  cp_wfile *direct;
  bool streaming;
  int64_t chunk_start, dict_page_unc, dict_page_comp;

  cp_pq_stats stats;      /* the chunk's */
  cp_pq_stats file_stats; /* every chunk's so far (top-level atomic columns use it) */

  /* Scratch reused across pages. */
  cp_buf body, comp, header, phys, aux;
} cp_pq_colw;

/* Room kept in front of a page's PLAIN values for its level sections (see above). */
#define CP_PQ_PAGE_GAP 16384

static inline size_t cp_pq_colw_values_len(const cp_pq_colw *c) {
  return c->values.len - CP_PQ_PAGE_GAP;
}
static inline uint8_t *cp_pq_colw_values_data(const cp_pq_colw *c) {
  return c->values.data + CP_PQ_PAGE_GAP;
}
static inline void cp_pq_colw_values_reset(cp_pq_colw *c) { c->values.len = CP_PQ_PAGE_GAP; }

int cp_pq_colw_init(cp_pq_colw *c, const cp_pq_leaf *leaf, const cp_pq_writer_options *opts,
                    int codec, cp_codec_ctx *codec_ctx, cp_pq_page_queue *queue, paimon_error *err);
void cp_pq_colw_free(cp_pq_colw *c);

/* Adds computed levels (and their values, read from the leaf's Arrow view `values`) to the
 * column, cutting pages at row boundaries when they reach the page size or row limit. */
int cp_pq_colw_append(cp_pq_colw *c, const cp_pq_levels *lv, const cp_array_view *values,
                      paimon_error *err);

/* Closes the open page (if any), so that its compression can start before the chunk ends. */
int cp_pq_colw_flush_page(cp_pq_colw *c, paimon_error *err);

/* A page leaving the queue, in submission order: `data` is its compressed body (len bytes) of a
 * body_len-byte page with header `h` (sizes filled here); appends it to the chunk or writes it to
 * the file, and accounts for it. */
int cp_pq_colw_page_done(cp_pq_colw *c, cp_pq_page_header *h, const uint8_t *data, size_t len,
                         size_t body_len, paimon_error *err);

/* Ends the chunk: closes the open page, writes the dictionary page (if any) and the data pages to
 * `file`, fills `out` (ColumnChunk metadata allocated in `arena`) and resets for the next chunk. */
int cp_pq_colw_finish_chunk(cp_pq_colw *c, cp_wfile *file, cp_pq_column_chunk *out, cp_arena *arena,
                            paimon_error *err);

/* Bytes the column holds in memory: encoded pages, the open page, the dictionary. */
uint64_t cp_pq_colw_buffered(const cp_pq_colw *c);
/* The uncompressed size the chunk would have if ended now (for the row-group size limit). */
uint64_t cp_pq_colw_uncompressed(const cp_pq_colw *c);

/* Testing: with `on`, levels always take the general walk (no list_runs shortcut), so a test
 * can check that both give the same file. */
void cp_pq_writer_set_general_levels(cp_pq_writer *w, bool on);

/* ---- writer_pool.c ---- */

/* A queue of pages to compress with `codec` at `level`: on `threads` worker threads (0: on the
 * submitting thread, through `ctx`, borrowed). See writer_pool.c for why pages are collected in
 * a fixed order. Free with cp_pq_page_queue_free (joins the threads; pages still queued are
 * dropped). */
int cp_pq_page_queue_new(cp_pq_page_queue **out, int threads, cp_codec codec, int level,
                         cp_codec_ctx *ctx, paimon_error *err);
void cp_pq_page_queue_free(cp_pq_page_queue *q);

/* Submits a data page of column `c` (header without sizes; the body is copied or compressed at
 * once); may first collect the oldest page (cp_pq_colw_page_done). */
int cp_pq_page_queue_submit(cp_pq_page_queue *q, cp_pq_colw *c, const cp_pq_page_header *h,
                            const uint8_t *body, size_t body_len, paimon_error *err);

/* Collects every page in the queue, in order. */
int cp_pq_page_queue_drain(cp_pq_page_queue *q, paimon_error *err);

/* ---- writer_values.c ---- */

/* Appends values [v0, v0 + n) of `lv` (slots of the Arrow view `v`) to the open page: PLAIN bytes,
 * or dictionary indices while the dictionary is on; updates the chunk statistics and
 * page_plain_bytes. Fails (EINVAL) on a value the physical type cannot hold. */
int cp_pq_values_append(cp_pq_colw *c, const cp_pq_levels *lv, const cp_array_view *v, int64_t v0,
                        int64_t n, paimon_error *err);

/* Rewrites the open page's dictionary indices as PLAIN values (when the dictionary is given up). */
int cp_pq_values_indices_to_plain(cp_pq_colw *c, paimon_error *err);

/* ---- writer_encode.c ---- */

/* Appends a dictionary data page's values section: the bit-width byte for dict_count entries,
 * then the RLE hybrid of the indices (all < dict_count). */
int cp_pq_encode_dict_indices(cp_buf *out, const int32_t *indices, size_t n, size_t dict_count,
                              paimon_error *err);

/* ---- writer_check.c ---- */

/* Checks that `schema` (a batch schema) is a struct whose children have the Arrow types of the
 * fields of `row` (type_arrow.h, with the equivalents writer.h accepts). EINVAL naming the column
 * and both types. */
int cp_pq_check_arrow_schema(const cp_type *row, const struct ArrowSchema *schema,
                             paimon_error *err);

#endif
