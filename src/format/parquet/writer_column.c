/*
 * One leaf column's chunk: pages, dictionary, compression and the ColumnMetaData bookkeeping
 * (writer_internal.h; spec/parquet.md §2.3 items 1-6, §2.4, §2.11, §4 P1-P4, P12, P13, P19).
 *
 * Pages are DATA_PAGE v1: [rep levels][def levels][values], each level section a 4-byte length
 * plus RLE hybrid (absent when the max level is 0), the whole body compressed together. A page
 * closes between rows when it reaches the page size or the row limit. Levels are RLE-encoded as
 * they arrive — as runs when levels_write.h hands them over as runs (constant def levels, lists
 * without NULLs), so no per-entry level array exists for them.
 *
 * Dictionary: on for every column but BOOLEAN (parquet-java cannot read a BOOLEAN dictionary).
 * As in Arrow C++ and parquet-java, a chunk keeps its dictionary until the dictionary page would
 * pass its limit (1 MiB, parquet.dictionary.page.size); then the open page is closed and the rest
 * of the chunk is PLAIN (the dictionary page is still written for the pages that use it). A
 * column whose values repeat only across pages (e.g. 100K distinct prices in a 1 Mi-row row
 * group) is only smaller with a dictionary once many pages have been seen, so the first page alone
 * cannot decide. What the first page can tell is when the dictionary is bound to fail: when it did
 * not pay on that page (dictionary + indices not smaller than PLAIN, parquet-java's first-page
 * test) and the number of distinct values the page's repeats imply is so large that the
 * dictionary would pass twice its limit before the chunk ends, the dictionary is given up right
 * there — that page is rewritten as PLAIN and the chunk has no dictionary page — instead of
 * hashing values until the limit. The estimate is the population size K of a uniform draw that
 * gives the page's distinct count D from its n values, D = K(1 - e^(-n/K)); skewed data makes
 * more repeats and a smaller K, so the test errs towards trying. Unique values (ids, timestamps,
 * random floats) give up at once; low- and mid-cardinality columns keep their dictionary.
 *
 * Where pages go: the chunks of a row group must be contiguous and in column order, and a chunk's
 * dictionary page must precede its data pages but is only final when the dictionary stops
 * growing. So pages are kept in memory until the row group ends — except for the first column of
 * the row group (every column of a one-column file), whose chunk starts where the file is: once
 * its dictionary is final (given up, fallen back, or never used), its dictionary page and the
 * pages held so far are written and every later page goes straight to the file. That bounds the
 * memory of a one-column file (long strings, embeddings) by a page instead of a row group.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"
#include "base/status.h"
#include "format/parquet/writer_internal.h"

static size_t physical_width(const cp_pq_leaf *leaf) {
  switch (leaf->physical_type) {
  case CP_PQ_INT32:
  case CP_PQ_FLOAT: return 4;
  case CP_PQ_INT64:
  case CP_PQ_DOUBLE: return 8;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: return (size_t)leaf->type_length;
  default: return 0;
  }
}

static cp_pq_stats_kind stats_kind(const cp_pq_leaf *leaf) {
  switch (leaf->physical_type) {
  case CP_PQ_BOOLEAN: return CP_PQ_STATS_BOOL;
  case CP_PQ_INT32: return CP_PQ_STATS_I32;
  case CP_PQ_INT64: return CP_PQ_STATS_I64;
  case CP_PQ_FLOAT: return CP_PQ_STATS_F32;
  case CP_PQ_DOUBLE: return CP_PQ_STATS_F64;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: return CP_PQ_STATS_DEC;
  default: return CP_PQ_STATS_BYTES;
  }
}

/* Starts the level encoders of a new page. */
static void levels_begin(cp_pq_colw *c) {
  cp_buf_clear(&c->rep_rle);
  cp_buf_clear(&c->def_rle);
  cp_buf_clear(&c->def_bits);
  cp_pq_rle_writer_init(&c->rep_enc, &c->rep_rle, cp_pq_bit_width((uint64_t)c->leaf->max_rep));
  cp_pq_rle_writer_init(&c->def_enc, &c->def_rle, cp_pq_bit_width((uint64_t)c->leaf->max_def));
  c->def_materialized = false;
}

int cp_pq_colw_init(cp_pq_colw *c, const cp_pq_leaf *leaf, const cp_pq_writer_options *opts,
                    int codec, cp_codec_ctx *codec_ctx, cp_pq_page_queue *queue,
                    paimon_error *err) {
  memset(c, 0, sizeof *c);
  c->leaf = leaf;
  c->opts = opts;
  c->codec = codec;
  c->codec_ctx = codec_ctx;
  c->queue = queue;
  c->width = physical_width(leaf);
  c->bitdef = leaf->max_def == 1 && leaf->max_rep == 0;
  cp_pq_stats_init(&c->stats, stats_kind(leaf));
  cp_pq_stats_init(&c->file_stats, stats_kind(leaf));
  levels_begin(c);
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(&c->values, CP_PQ_PAGE_GAP, err));
  if (!opts->dictionary || leaf->physical_type == CP_PQ_BOOLEAN) return PAIMON_OK;
  return cp_pq_dict_builder_new(&c->dict, c->width, err);
}

void cp_pq_colw_free(cp_pq_colw *c) {
  cp_pq_dict_builder_free(c->dict);
  cp_buf *bufs[] = {&c->rep_rle, &c->def_rle, &c->def_bits, &c->values, &c->indices, &c->chunk,
                    &c->body,    &c->comp,    &c->header,   &c->phys,   &c->aux};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cp_buf_free(bufs[i]);
  cp_pq_stats_free(&c->stats);
  cp_pq_stats_free(&c->file_stats);
  memset(c, 0, sizeof *c);
}

static bool dict_on(const cp_pq_colw *c) { return c->dict && !c->dict_off; }

/* Bits per dictionary index for the entries so far (the page's bit-width byte). */
static int index_width(const cp_pq_colw *c) {
  size_t n = cp_pq_dict_builder_count(c->dict);
  return n > 1 ? cp_pq_bit_width((uint64_t)n - 1) : 0;
}

/* Bytes the open page's level sections will take (an upper bound for the RLE ones). */
static int64_t levels_estimate(const cp_pq_colw *c) {
  const cp_pq_leaf *l = c->leaf;
  int64_t n = 0;
  if (l->max_rep > 0) n += 4 + (int64_t)cp_pq_rle_writer_size_bound(&c->rep_enc);
  if (l->max_def == 0) return n;
  if (c->bitdef) return n + 4 + 10 + (c->page_entries + 7) / 8;
  return n + 4 + (int64_t)cp_pq_rle_writer_size_bound(&c->def_enc);
}

/* The open page's body size, close enough to cut pages by. */
static int64_t page_estimate(const cp_pq_colw *c) {
  if (c->page_entries == 0) return 0;
  const int64_t levels = levels_estimate(c);
  if (dict_on(c)) return levels + 1 + (int64_t)(c->indices.len / 4) * index_width(c) / 8;
  return levels + (int64_t)cp_pq_colw_values_len(c);
}

/* ---- levels of the open page ---- */

/* Bit-def pages: grows the bitmap to `bits` bits (new bytes zero). */
static int def_bits_grow(cp_pq_colw *c, int64_t bits, paimon_error *err) {
  size_t need = (size_t)((bits + 7) / 8);
  return need > c->def_bits.len ? cp_buf_append_zeros(&c->def_bits, need - c->def_bits.len, err)
                                : PAIMON_OK;
}

/* Def levels 0/1 of a bitdef leaf, kept as bits. */
static int append_def_bits(cp_pq_colw *c, const cp_pq_levels *lv, int64_t e, int64_t n,
                           paimon_error *err) {
  const int64_t at = c->page_entries;
  if (lv->all_defined && !c->def_materialized) return PAIMON_OK;
  if (!c->def_materialized) {
    /* Until now every entry of the page was defined; write those levels out first. */
    CP_RETURN_IF_ERROR(def_bits_grow(c, at, err));
    cp_bitmap_set_range(c->def_bits.data, 0, at, true);
    c->def_materialized = true;
  }
  CP_RETURN_IF_ERROR(def_bits_grow(c, at + n, err));
  if (lv->all_defined)
    cp_bitmap_set_range(c->def_bits.data, at, n, true);
  else if (lv->def_bits)
    cp_bitmap_copy(c->def_bits.data, at, lv->def_bits, lv->def_bits_offset + e, n);
  else
    for (int64_t i = 0; i < n; i++) cp_bit_set_to(c->def_bits.data, at + i, lv->def[e + i] != 0);
  return PAIMON_OK;
}

/* Adds the levels of rows [row, row + rows) of `lv`, whose entries are [e, e + n). */
static int append_levels(cp_pq_colw *c, const cp_pq_levels *lv, int64_t e, int64_t n, int64_t row,
                         int64_t rows, paimon_error *err) {
  const cp_pq_leaf *l = c->leaf;
  if (lv->list_runs)
    return cp_pq_levels_put_runs(lv, l->max_def, row, rows, &c->rep_enc, &c->def_enc, err);
  if (lv->has_rep)
    CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_i16(&c->rep_enc, lv->rep + e, (size_t)n, err));
  if (l->max_def == 0) return PAIMON_OK;
  if (c->bitdef) return append_def_bits(c, lv, e, n, err);
  if (lv->all_defined)
    return cp_pq_rle_writer_put_run(&c->def_enc, (uint32_t)l->max_def, (uint64_t)n, err);
  return cp_pq_rle_writer_put_i16(&c->def_enc, lv->def + e, (size_t)n, err);
}

/* Appends a finished RLE level section with its v1 4-byte length. */
static int rle_section(cp_buf *out, cp_pq_rle_writer *enc, const cp_buf *rle, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_pq_rle_writer_finish(enc, err));
  if (rle->len > UINT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "a level section of %zu bytes", rle->len);
  const uint32_t len = (uint32_t)rle->len;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 4 + rle->len, err));
  memcpy(out->data + out->len, &len, 4);
  if (len) memcpy(out->data + out->len + 4, rle->data, len);
  out->len += 4 + (size_t)len;
  return PAIMON_OK;
}

/* A v1 level section holding `n` copies of `level`: the 4-byte length, then RLE runs. */
static int const_levels(cp_buf *out, int16_t level, int64_t n, paimon_error *err) {
  const int bw = cp_pq_bit_width((uint64_t)level), nbytes = (bw + 7) / 8;
  size_t at = out->len;
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(out, 4, err));
  while (n > 0) {
    int64_t run = n < INT32_MAX ? n : INT32_MAX;
    CP_RETURN_IF_ERROR(cp_buf_reserve(out, 12, err));
    out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)run << 1);
    for (int i = 0; i < nbytes; i++) cp_buf_push_unchecked(out, (uint8_t)(level >> (8 * i)));
    n -= run;
  }
  const uint32_t len = (uint32_t)(out->len - at - 4);
  memcpy(out->data + at, &len, 4);
  return PAIMON_OK;
}

/* A v1 level section of width 1 from a bitmap: the 4-byte length, then one bit-packed run
 * whose bytes are the bitmap itself (both are LSB first; the last group is zero-padded). */
static int bit_levels(cp_buf *out, const uint8_t *bits, int64_t n, paimon_error *err) {
  const size_t groups = (size_t)((n + 7) / 8);
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 4 + 10 + groups, err));
  uint8_t *p = out->data + out->len;
  size_t h = cp_pq_uleb128_put(p + 4, (uint64_t)groups << 1 | 1);
  const uint32_t len = (uint32_t)(h + groups);
  memcpy(p, &len, 4);
  memcpy(p + 4 + h, bits, groups);
  out->len += 4 + h + groups;
  return PAIMON_OK;
}

/* The open page's levels, in c->body. */
static int page_levels(cp_pq_colw *c, paimon_error *err) {
  const cp_pq_leaf *l = c->leaf;
  cp_buf *body = &c->body;
  cp_buf_clear(body);
  if (l->max_rep > 0) CP_RETURN_IF_ERROR(rle_section(body, &c->rep_enc, &c->rep_rle, err));
  if (l->max_def == 0) return PAIMON_OK;
  if (!c->bitdef) return rle_section(body, &c->def_enc, &c->def_rle, err);
  if (!c->def_materialized) return const_levels(body, l->max_def, c->page_entries, err);
  return bit_levels(body, c->def_bits.data, c->page_entries, err);
}

/* ---- pages ---- */

/* Encodes the header of a page whose body (body_len bytes) compressed to `len` bytes. */
static int page_header(cp_pq_colw *c, cp_pq_page_header *h, size_t body_len, size_t len,
                       paimon_error *err) {
  if (body_len > INT32_MAX || len > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': a page of %zu bytes exceeds 2 GiB",
                            c->leaf->path_str, body_len);
  h->uncompressed_page_size = (int32_t)body_len;
  h->compressed_page_size = (int32_t)len;
  cp_buf_clear(&c->header);
  return cp_pq_page_header_encode(h, &c->header, err);
}

/* Compresses a page body and appends header + compressed body to `dst`, or writes them to `file`
 * when dst is NULL; returns the sizes taken. Used for dictionary pages (data pages go through
 * submit_page). */
static int emit_page(cp_pq_colw *c, cp_pq_page_header *h, const uint8_t *body, size_t body_len,
                     cp_buf *dst, cp_wfile *file, int64_t *unc, int64_t *comp, paimon_error *err) {
  const uint8_t *data = body;
  size_t len = body_len;
  if (c->opts->codec != CP_CODEC_NONE) {
    cp_buf_clear(&c->comp);
    CP_RETURN_IF_ERROR(cp_compress_ctx(c->codec_ctx, c->opts->codec, c->opts->compression_level,
                                       body, body_len, &c->comp, err));
    data = c->comp.data;
    len = c->comp.len;
  }
  CP_RETURN_IF_ERROR(page_header(c, h, body_len, len, err));
  if (dst) {
    CP_RETURN_IF_ERROR(cp_buf_reserve(dst, c->header.len + len, err));
    CP_RETURN_IF_ERROR(cp_buf_append(dst, c->header.data, c->header.len, err));
    if (len) CP_RETURN_IF_ERROR(cp_buf_append(dst, data, len, err));
  } else {
    CP_RETURN_IF_ERROR(cp_wfile_write(file, c->header.data, c->header.len, err));
    if (len) CP_RETURN_IF_ERROR(cp_wfile_write(file, data, len, err));
  }
  *unc = (int64_t)(c->header.len + body_len);
  *comp = (int64_t)(c->header.len + len);
  return PAIMON_OK;
}

/* Whether a uniform draw of n values from K distinct ones would show fewer than D distinct:
 * then the population holds more than K distinct values (the expected distinct count
 * K(1 - e^(-n/K)) grows with K). */
static bool more_distinct_than(double K, double n, double D) { return K * -expm1(-n / K) < D; }

/* At the close of the chunk's first page with values: is the dictionary bound to fail (see the
 * top)? If so, the page is rewritten as PLAIN and the chunk goes on without a dictionary. */
static int judge_dictionary(cp_pq_colw *c, paimon_error *err) {
  c->dict_judged = true;
  const size_t distinct = cp_pq_dict_builder_count(c->dict);
  const int64_t dict = (int64_t)cp_pq_dict_builder_plain_size(c->dict);
  const int64_t n = (int64_t)(c->indices.len / 4);
  const int64_t idx = 1 + (n * index_width(c) + 7) / 8;
  if (dict + idx < c->page_plain_bytes) return PAIMON_OK; /* it pays already */
  const double entry = (double)dict / (double)distinct;
  const double limit_entries = 2.0 * (double)c->opts->dictionary_page_limit / entry;
  if ((int64_t)distinct < n && !more_distinct_than(limit_entries, (double)n, (double)distinct))
    return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_pq_values_indices_to_plain(c, err));
  cp_pq_dict_builder_reset(c->dict);
  c->dict_off = true;
  c->plain_bytes = 0;
  return PAIMON_OK;
}

/* The open page's body: levels then values, contiguous. PLAIN values stay where they are and the
 * levels go into the gap before them when they fit. */
static int page_body(cp_pq_colw *c, bool dict, const uint8_t **data, size_t *len,
                     paimon_error *err) {
  CP_RETURN_IF_ERROR(page_levels(c, err));
  cp_buf *body = &c->body;
  if (dict) {
    CP_RETURN_IF_ERROR(cp_pq_encode_dict_indices(body, (const int32_t *)(void *)c->indices.data,
                                                 c->indices.len / 4,
                                                 cp_pq_dict_builder_count(c->dict), err));
  } else if (body->len <= CP_PQ_PAGE_GAP) {
    uint8_t *start = cp_pq_colw_values_data(c) - body->len;
    if (body->len) memcpy(start, body->data, body->len);
    *data = start;
    *len = body->len + cp_pq_colw_values_len(c);
    return PAIMON_OK;
  } else {
    CP_RETURN_IF_ERROR(
        cp_buf_append(body, cp_pq_colw_values_data(c), cp_pq_colw_values_len(c), err));
  }
  *data = body->data;
  *len = body->len;
  return PAIMON_OK;
}

/* The dictionary page, encoded into c->aux (or written to `file`); its sizes in *unc / *comp. */
static int dictionary_page(cp_pq_colw *c, cp_wfile *file, int64_t *unc, int64_t *comp,
                           paimon_error *err) {
  cp_buf_clear(&c->body);
  CP_RETURN_IF_ERROR(cp_pq_dict_builder_write_plain(c->dict, &c->body, err));
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DICTIONARY;
  h.has_dictionary_page_header = true;
  h.dictionary_page_header.num_values = (int32_t)cp_pq_dict_builder_count(c->dict);
  h.dictionary_page_header.encoding = CP_PQ_ENC_PLAIN;
  cp_buf_clear(&c->aux);
  return emit_page(c, &h, c->body.data, c->body.len, file ? NULL : &c->aux, file, unc, comp, err);
}

int cp_pq_colw_page_done(cp_pq_colw *c, cp_pq_page_header *h, const uint8_t *data, size_t len,
                         size_t body_len, paimon_error *err) {
  CP_RETURN_IF_ERROR(page_header(c, h, body_len, len, err));
  if (c->streaming) {
    CP_RETURN_IF_ERROR(cp_wfile_write(c->direct, c->header.data, c->header.len, err));
    if (len) CP_RETURN_IF_ERROR(cp_wfile_write(c->direct, data, len, err));
  } else {
    CP_RETURN_IF_ERROR(cp_buf_reserve(&c->chunk, c->header.len + len, err));
    CP_RETURN_IF_ERROR(cp_buf_append(&c->chunk, c->header.data, c->header.len, err));
    if (len) CP_RETURN_IF_ERROR(cp_buf_append(&c->chunk, data, len, err));
  }
  const int64_t unc = (int64_t)(c->header.len + body_len), comp = (int64_t)(c->header.len + len);
  c->data_unc += unc;
  c->data_comp += comp;
  c->life_unc += unc;
  c->life_comp += comp;
  c->pending_unc -= (int64_t)body_len;
  return PAIMON_OK;
}

/* A closed data page: through the page queue when the codec compresses (writer_pool.c), else
 * straight to the chunk or the file. */
static int submit_page(cp_pq_colw *c, cp_pq_page_header *h, const uint8_t *body, size_t body_len,
                       paimon_error *err) {
  c->pending_unc += (int64_t)body_len;
  if (c->queue) return cp_pq_page_queue_submit(c->queue, c, h, body, body_len, err);
  return cp_pq_colw_page_done(c, h, body, body_len, body_len, err);
}

/* Writes the chunk's start — its dictionary page, if a data page used it, and the pages held so
 * far — to `file`, after which pages go straight there. */
static int start_streaming(cp_pq_colw *c, cp_wfile *file, paimon_error *err) {
  /* Pages still in the queue belong before the switch. */
  if (c->queue) CP_RETURN_IF_ERROR(cp_pq_page_queue_drain(c->queue, err));
  c->chunk_start = (int64_t)cp_wfile_pos(file);
  c->dict_page_unc = c->dict_page_comp = 0;
  if (c->dict_used)
    CP_RETURN_IF_ERROR(dictionary_page(c, file, &c->dict_page_unc, &c->dict_page_comp, err));
  if (c->chunk.len) CP_RETURN_IF_ERROR(cp_wfile_write(file, c->chunk.data, c->chunk.len, err));
  cp_buf_clear(&c->chunk);
  c->streaming = true;
  return PAIMON_OK;
}

static void page_reset(cp_pq_colw *c) {
  levels_begin(c);
  cp_pq_colw_values_reset(c);
  cp_buf_clear(&c->indices);
  c->page_entries = c->page_rows = c->page_values = c->page_plain_bytes = 0;
  c->bool_bits = 0;
}

static int flush_page(cp_pq_colw *c, paimon_error *err) {
  if (c->page_entries == 0) return PAIMON_OK;
  if (c->page_entries > INT32_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': more than 2^31 entries in a page",
                            c->leaf->path_str);
  /* A page without values says nothing about the dictionary: it is PLAIN (and empty). */
  if (dict_on(c) && !c->dict_judged && c->page_values > 0)
    CP_RETURN_IF_ERROR(judge_dictionary(c, err));
  const bool dict = dict_on(c) && c->page_values > 0;
  if (c->direct && !c->streaming && !dict_on(c))
    CP_RETURN_IF_ERROR(start_streaming(c, c->direct, err));
  const uint8_t *body;
  size_t body_len;
  CP_RETURN_IF_ERROR(page_body(c, dict, &body, &body_len, err));
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = (int32_t)c->page_entries;
  h.data_page_header.encoding = dict ? CP_PQ_ENC_RLE_DICTIONARY : CP_PQ_ENC_PLAIN;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.data_page_header.repetition_level_encoding = CP_PQ_ENC_RLE;
  CP_RETURN_IF_ERROR(submit_page(c, &h, body, body_len, err));
  c->num_values += c->page_entries;
  if (dict) {
    c->dict_pages++;
    c->dict_used = true;
    c->plain_bytes = (double)c->page_plain_bytes / (double)c->page_rows;
  } else {
    c->plain_pages++;
  }
  c->row_bytes = (double)body_len / (double)c->page_rows;
  page_reset(c);
  return PAIMON_OK;
}

/* How many rows may go into the open page before its size is checked again: the room left at
 * the bytes per row seen so far (this page's, else the last page's, else a guess of 64 rows, as
 * values could be large). While the dictionary is on, also the room left in the dictionary at
 * PLAIN bytes per row, so that one piece cannot push it far past its limit. */
static int64_t rows_that_fit(const cp_pq_colw *c) {
  const int64_t room = c->opts->page_row_limit - c->page_rows, guess = 64;
  const double rows = (double)c->page_rows;
  const double bytes = (double)page_estimate(c);
  double per_row = c->page_rows > 0 && bytes > 0 ? bytes / rows : c->row_bytes;
  double left = (double)c->opts->page_size - bytes;
  int64_t fit = per_row > 0 ? (left <= per_row ? 1 : (int64_t)(left / per_row)) : guess;
  if (dict_on(c)) {
    double plain = c->page_rows > 0 ? (double)c->page_plain_bytes / rows : c->plain_bytes;
    double dict_left =
        (double)c->opts->dictionary_page_limit - (double)cp_pq_dict_builder_plain_size(c->dict);
    int64_t dfit = plain > 0 ? (dict_left <= plain ? 1 : (int64_t)(dict_left / plain)) : guess;
    if (dfit < fit) fit = dfit;
    if (!c->dict_judged) {
      /* The page that judges the dictionary ends at a PLAIN page's size (see first_page_full). */
      double plain_left = (double)c->opts->page_size - (double)c->page_plain_bytes;
      int64_t pfit = plain > 0 ? (plain_left <= plain ? 1 : (int64_t)(plain_left / plain)) : guess;
      if (pfit < fit) fit = pfit;
    }
  }
  return fit < room ? fit : room;
}

/* The page that judges the dictionary is cut where a PLAIN page would be, so that when the
 * dictionary is given up the rewritten page has the usual size (a dictionary page is otherwise cut
 * by its index bytes, which for unique long strings would let it grow to the dictionary limit). */
static bool first_page_full(const cp_pq_colw *c) {
  return dict_on(c) && !c->dict_judged && c->page_plain_bytes >= (int64_t)c->opts->page_size;
}

int cp_pq_colw_append(cp_pq_colw *c, const cp_pq_levels *lv, const cp_array_view *values,
                      paimon_error *err) {
  const cp_pq_leaf *l = c->leaf;
  int64_t e = 0, v = 0, r = 0;
  while (r < lv->n_rows) {
    int64_t k = lv->n_rows - r, fit = rows_that_fit(c), ne, nv;
    if (k > fit) k = fit;
    cp_pq_levels_span(lv, l->max_def, e, r, k, &ne, &nv);
    CP_RETURN_IF_ERROR(append_levels(c, lv, e, ne, r, k, err));
    CP_RETURN_IF_ERROR(cp_pq_values_append(c, lv, values, v, nv, err));
    c->stats.null_count += ne - nv;
    c->page_entries += ne;
    c->page_rows += k;
    c->page_values += nv;
    e += ne, v += nv, r += k;
    if (dict_on(c) && cp_pq_dict_builder_plain_size(c->dict) > c->opts->dictionary_page_limit) {
      /* Fallback (§2.3 item 2): the pages so far keep the dictionary, the rest is PLAIN. */
      CP_RETURN_IF_ERROR(flush_page(c, err));
      c->dict_off = true;
      c->row_bytes = 0; /* PLAIN pages are larger: start the next one small again */
    } else if (c->page_rows >= c->opts->page_row_limit ||
               page_estimate(c) >= (int64_t)c->opts->page_size || first_page_full(c)) {
      CP_RETURN_IF_ERROR(flush_page(c, err));
    }
  }
  return PAIMON_OK;
}

/* ---- the chunk ---- */

static int chunk_meta(cp_pq_colw *c, cp_pq_column_meta *m, cp_arena *arena, paimon_error *err) {
  const cp_pq_leaf *l = c->leaf;
  int32_t *enc = cp_arena_alloc(arena, 3 * sizeof *enc);
  cp_pq_page_encoding_stats *es = cp_arena_alloc(arena, 3 * sizeof *es);
  if (!enc || !es) return CP_ENOMEM(err, "parquet column metadata");
  uint32_t ne = 0, ns = 0;
  /* Every encoding the chunk uses (§4 P12): PLAIN for a dictionary page or PLAIN data pages, RLE
   * for the levels (declared in every page header), RLE_DICTIONARY for dictionary data pages. */
  if (c->dict_used || c->plain_pages) enc[ne++] = CP_PQ_ENC_PLAIN;
  enc[ne++] = CP_PQ_ENC_RLE;
  if (c->dict_used) {
    enc[ne++] = CP_PQ_ENC_RLE_DICTIONARY;
    es[ns++] = (cp_pq_page_encoding_stats){CP_PQ_PAGE_DICTIONARY, CP_PQ_ENC_PLAIN, 1};
    es[ns++] =
        (cp_pq_page_encoding_stats){CP_PQ_PAGE_DATA, CP_PQ_ENC_RLE_DICTIONARY, c->dict_pages};
  }
  if (c->plain_pages)
    es[ns++] = (cp_pq_page_encoding_stats){CP_PQ_PAGE_DATA, CP_PQ_ENC_PLAIN, c->plain_pages};
  m->type = l->physical_type;
  m->encodings = enc;
  m->num_encodings = ne;
  m->path_in_schema = (char **)l->path;
  m->path_len = l->path_len;
  m->codec = c->codec;
  m->num_values = c->num_values;
  m->encoding_stats = es;
  m->num_encoding_stats = ns;
  m->has_statistics = true;
  return cp_pq_stats_to_thrift(&c->stats, l->physical_type, l->type_length, &m->statistics, arena,
                               err);
}

int cp_pq_colw_flush_page(cp_pq_colw *c, paimon_error *err) { return flush_page(c, err); }

int cp_pq_colw_finish_chunk(cp_pq_colw *c, cp_wfile *file, cp_pq_column_chunk *out, cp_arena *arena,
                            paimon_error *err) {
  CP_RETURN_IF_ERROR(flush_page(c, err));
  if (c->queue) CP_RETURN_IF_ERROR(cp_pq_page_queue_drain(c->queue, err));
  /* A chunk that never streamed writes its start now, which is the same layout. */
  if (!c->streaming) CP_RETURN_IF_ERROR(start_streaming(c, file, err));
  memset(out, 0, sizeof *out);
  out->has_meta_data = true;
  cp_pq_column_meta *m = &out->meta_data;
  if (c->dict_used) m->dictionary_page_offset = (cp_pq_opt_i64){true, c->chunk_start};
  m->data_page_offset = c->chunk_start + c->dict_page_comp;
  m->total_uncompressed_size = c->dict_page_unc + c->data_unc;
  m->total_compressed_size = c->dict_page_comp + c->data_comp;
  CP_RETURN_IF_ERROR(chunk_meta(c, m, arena, err));
  CP_RETURN_IF_ERROR(cp_pq_stats_merge(&c->file_stats, &c->stats, err));
  cp_pq_stats_reset(&c->stats);
  if (c->dict) cp_pq_dict_builder_reset(c->dict);
  c->dict_off = c->dict_used = c->dict_judged = c->streaming = false;
  cp_buf_clear(&c->chunk);
  c->num_values = c->data_unc = c->data_comp = 0;
  c->dict_pages = c->plain_pages = 0;
  return PAIMON_OK;
}

uint64_t cp_pq_colw_buffered(const cp_pq_colw *c) {
  /* The open page and the dictionary are not compressed yet: count them at the compression ratio
   * the column's pages have had so far, so the estimate tracks the file size. */
  double ratio = c->life_unc > 0 ? (double)c->life_comp / (double)c->life_unc : 1.0;
  uint64_t dict =
      (dict_on(c) || c->dict_used) && !c->streaming ? cp_pq_dict_builder_plain_size(c->dict) : 0;
  const uint64_t open = (uint64_t)page_estimate(c) + (uint64_t)c->pending_unc + dict;
  return c->chunk.len + (uint64_t)((double)open * ratio);
}

uint64_t cp_pq_colw_uncompressed(const cp_pq_colw *c) {
  uint64_t dict = dict_on(c) || c->dict_used ? cp_pq_dict_builder_plain_size(c->dict) : 0;
  return (uint64_t)(c->data_unc + c->pending_unc) + (uint64_t)page_estimate(c) + dict;
}
