/*
 * Column chunk reading: page headers, decompression, levels and values (page_read.h;
 * spec/parquet.md §2.4, §2.5, §2.7, §2.8, §4 P1/P2/P4/P13/P14/P19).
 *
 * The chunk is read through a window of the file: one ranged read fetches a block (or the whole
 * page when it is larger), and page headers and bodies are decoded from it. Pages are decoded one
 * at a time; their levels are decoded in full when the page is loaded (the reader needs them to
 * find row boundaries), their values lazily, as rows are read, straight into the batch.
 */
#include "format/parquet/page_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"
#include "base/status.h"

enum {
  CP_PQ_READ_BLOCK = 256 * 1024, /* bytes fetched at once when a page is smaller */
  CP_PQ_HEADER_PROBE = 512,      /* first guess at a page header's size */
  CP_PQ_MAX_HEADER = 16 << 20    /* page headers (with statistics) larger than this are refused */
};

/* ---- setup -------------------------------------------------------------------------------------
 */

int cp_pq_chunk_reader_new(cp_pq_chunk_reader **out, cp_rfile *file, const char *path,
                           const cp_pq_footer *footer, int32_t leaf, const cp_pq_leaf_conv *conv,
                           const cp_pq_read_limits *limits, cp_codec_ctx *codec_ctx,
                           paimon_error *err) {
  cp_pq_chunk_reader *cr = calloc(1, sizeof *cr);
  if (!cr) return CP_ENOMEM(err, "parquet column reader");
  const cp_pq_schema_node *node = footer->schema.leaves[leaf];
  cr->file = file;
  cr->path = path;
  cr->footer = footer;
  cr->column = node->path_str;
  cr->conv = conv;
  cr->lim = *limits;
  cr->codec_ctx = codec_ctx;
  cr->leaf = leaf;
  cr->phys = node->element->type.value;
  cr->max_def = node->max_def;
  cr->max_rep = node->max_rep;
  switch (cr->phys) {
  case CP_PQ_BOOLEAN: cr->width = 1; break;
  case CP_PQ_INT32:
  case CP_PQ_FLOAT: cr->width = 4; break;
  case CP_PQ_INT64:
  case CP_PQ_DOUBLE: cr->width = 8; break;
  case CP_PQ_INT96: cr->width = 12; break;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: cr->width = node->element->type_length.value; break;
  default: cr->width = 0;
  }
  *out = cr;
  return PAIMON_OK;
}

void cp_pq_chunk_reader_set_codec_ctx(cp_pq_chunk_reader *cr, cp_codec_ctx *codec_ctx) {
  cr->codec_ctx = codec_ctx;
}

void cp_pq_chunk_reader_free(cp_pq_chunk_reader *cr) {
  if (!cr) return;
  cp_buf *bufs[] = {&cr->window,   &cr->dict_fixed, &cr->dict_offsets, &cr->dict_data,
                    &cr->def,      &cr->rep,        &cr->page_buf,     &cr->dec_offsets,
                    &cr->dec_data, &cr->scratch,    &cr->scratch_off,  &cr->scratch_data,
                    &cr->spread};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cp_buf_free(bufs[i]);
  free(cr);
}

static int map_codec(int pq_codec) {
  switch (pq_codec) {
  case CP_PQ_CODEC_UNCOMPRESSED: return CP_CODEC_NONE;
  case CP_PQ_CODEC_SNAPPY: return CP_CODEC_SNAPPY;
  case CP_PQ_CODEC_GZIP: return CP_CODEC_GZIP;
  case CP_PQ_CODEC_LZ4: return CP_CODEC_LZ4_HADOOP; /* with raw-block fallback (§2.8) */
  case CP_PQ_CODEC_ZSTD: return CP_CODEC_ZSTD;
  case CP_PQ_CODEC_LZ4_RAW: return CP_CODEC_LZ4_RAW;
  default: return -1; /* LZO, BROTLI (no Debian package in the build), unknown */
  }
}

bool cp_pq_codec_supported(int pq_codec) { return map_codec(pq_codec) >= 0; }

/* Adds file / column / row group / page offset to a message from below. */
static int located(cp_pq_chunk_reader *cr, int rc, paimon_error *err) {
  if (rc == 0) return 0;
  return paimon_error_prefix(err, "%s: column '%s', row group %d, page at offset %llu", cr->path,
                             cr->column, (int)cr->rg, (unsigned long long)cr->page_off);
}

int cp_pq_chunk_reader_start(cp_pq_chunk_reader *cr, int32_t rg, paimon_error *err) {
  const cp_pq_file_meta *m = &cr->footer->meta;
  const cp_pq_column_meta *cm = &m->row_groups[rg].columns[cr->leaf].meta_data;
  int64_t start = cp_pq_column_chunk_start(cm);
  int64_t len = cp_pq_column_chunk_read_len(m->created_by, cm, cr->footer->metadata_offset);
  cr->rg = rg;
  cr->chunk_start = cr->pos = cr->page_off = (uint64_t)start;
  cr->chunk_end = (uint64_t)start + (uint64_t)len;
  cr->chunk_values = cm->num_values;
  cr->values_seen = 0;
  cr->window.len = 0;
  cr->has_dict = false;
  cr->dict_count = 0;
  cr->page_entries = cr->page_pos = cr->page_values = cr->page_values_pos = 0;
  cr->pq_codec = cm->codec;
  cr->codec = map_codec(cm->codec);
  if (cr->codec < 0 && cm->num_values > 0)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "%s: column '%s', row group %d: compression codec %s is not supported",
                            cr->path, cr->column, (int)rg, cp_pq_codec_name(cm->codec));
  return PAIMON_OK;
}

/* ---- bytes of the chunk ------------------------------------------------------------------------
 */

/* Makes file bytes [off, off + len) of the chunk available at *p (valid until the next fetch). */
static int fetch(cp_pq_chunk_reader *cr, uint64_t off, size_t len, const uint8_t **p,
                 paimon_error *err) {
  if (off < cr->chunk_start || off > cr->chunk_end || len > cr->chunk_end - off)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "bytes [%llu, %llu) pass the end of the column chunk at %llu",
                            (unsigned long long)off, (unsigned long long)(off + len),
                            (unsigned long long)cr->chunk_end);
  if (off >= cr->window_off && off + len <= cr->window_off + cr->window.len) {
    *p = cr->window.data + (off - cr->window_off);
    return PAIMON_OK;
  }
  size_t want = len < CP_PQ_READ_BLOCK ? CP_PQ_READ_BLOCK : len;
  if (want > cr->chunk_end - off) want = (size_t)(cr->chunk_end - off);
  cr->window.len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->window, want ? want : 1, err));
  CP_RETURN_IF_ERROR(cp_rfile_read_at(cr->file, off, cr->window.data, want, err));
  cr->window.len = want;
  cr->window_off = off;
  *p = cr->window.data;
  return PAIMON_OK;
}

static int read_header(cp_pq_chunk_reader *cr, cp_pq_page_header *h, size_t *hlen,
                       paimon_error *err) {
  cr->page_off = cr->pos;
  if (cr->pos >= cr->chunk_end)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "column chunk ends after %lld of its %lld level entries",
                            (long long)cr->values_seen, (long long)cr->chunk_values);
  uint64_t remain = cr->chunk_end - cr->pos;
  size_t probe = remain < CP_PQ_HEADER_PROBE ? (size_t)remain : CP_PQ_HEADER_PROBE;
  for (;;) {
    const uint8_t *p = NULL;
    CP_RETURN_IF_ERROR(fetch(cr, cr->pos, probe, &p, err));
    bool truncated = false;
    int rc = cp_pq_page_header_decode(h, p, probe, cr->pos, hlen, &truncated, err);
    if (rc == 0) return PAIMON_OK;
    if (!truncated || probe == remain || probe >= CP_PQ_MAX_HEADER) return rc;
    probe = remain / 8 < probe ? (size_t)remain : probe * 8;
  }
}

/* The page body of `comp` stored bytes, decompressed to exactly `uncomp` bytes. */
static int page_body(cp_pq_chunk_reader *cr, const uint8_t *raw, size_t comp, size_t uncomp,
                     bool compressed, const uint8_t **out, paimon_error *err) {
  if (!compressed || cr->codec == CP_CODEC_NONE) {
    if (comp != uncomp)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "uncompressed page holds %zu bytes but its header says %zu", comp,
                              uncomp);
    *out = raw;
    return PAIMON_OK;
  }
  cr->page_buf.len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->page_buf, uncomp ? uncomp : 1, err));
  CP_RETURN_IF_ERROR(cp_decompress_exact_ctx(cr->codec_ctx, (cp_codec)cr->codec, raw, comp,
                                             cr->page_buf.data, uncomp, err));
  *out = cr->page_buf.data;
  return PAIMON_OK;
}

/* ---- dictionary pages --------------------------------------------------------------------------
 */

/* Dictionary entries decoded from PLAIN `body` and converted to the output representation. */
static int dict_convert(cp_pq_chunk_reader *cr, const uint8_t *body, size_t len, size_t n,
                        paimon_error *err) {
  const cp_pq_leaf_conv *c = cr->conv;
  cr->dict_fixed.len = cr->dict_offsets.len = cr->dict_data.len = 0;
  if (cr->phys == CP_PQ_BYTE_ARRAY) {
    cp_buf *offs = c->out_kind == CP_PQ_OUT_BINARY ? &cr->dict_offsets : &cr->scratch_off;
    cp_buf *data = c->out_kind == CP_PQ_OUT_BINARY ? &cr->dict_data : &cr->scratch_data;
    offs->len = data->len = 0;
    size_t used;
    CP_RETURN_IF_ERROR(cp_buf_reserve(offs, (n + 1) * sizeof(int32_t), err));
    CP_RETURN_IF_ERROR(
        cp_pq_plain_decode_binary((int32_t *)offs->data, data, n, &used, body, len, err));
    offs->len = (n + 1) * sizeof(int32_t);
    if (c->out_kind == CP_PQ_OUT_BINARY) return PAIMON_OK;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->dict_fixed, n * 16 + 1, err));
    return cp_pq_convert_binary(c, (const int32_t *)offs->data, data->data, n, cr->dict_fixed.data,
                                cr->column, err);
  }
  if (cr->phys == CP_PQ_BOOLEAN) {
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->dict_fixed, n + 1, err));
    return cp_pq_plain_decode_bool(cr->dict_fixed.data, n, body, len, 0, err);
  }
  cr->scratch.len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->scratch, n * (size_t)cr->width + 1, err));
  uint8_t *phys = cr->scratch.data;
  size_t used;
  CP_RETURN_IF_ERROR(cp_pq_plain_decode_fixed(phys, n, &used, body, len, (size_t)cr->width, err));
  if (c->out_kind == CP_PQ_OUT_BINARY) {
    int32_t zero = 0;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->dict_offsets, (n + 1) * sizeof(int32_t), err));
    memcpy(cr->dict_offsets.data, &zero, sizeof zero);
    return cp_pq_convert_fixed_to_binary(phys, n, (size_t)cr->width,
                                         (int32_t *)cr->dict_offsets.data, &cr->dict_data, err);
  }
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->dict_fixed, n * (size_t)c->out_width + 1, err));
  return cp_pq_convert_fixed(c, phys, n, cr->dict_fixed.data, cr->column, err);
}

static int load_dictionary(cp_pq_chunk_reader *cr, const cp_pq_page_header *h, const uint8_t *raw,
                           paimon_error *err) {
  if (!h->has_dictionary_page_header)
    return paimon_error_set(err, PAIMON_ECORRUPT, "dictionary page without DictionaryPageHeader");
  if (cr->has_dict)
    return paimon_error_set(err, PAIMON_ECORRUPT, "column chunk has a second dictionary page");
  const cp_pq_dictionary_page_header *d = &h->dictionary_page_header;
  if (d->num_values < 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "dictionary page has %d entries",
                            (int)d->num_values);
  if (d->encoding != CP_PQ_ENC_PLAIN && d->encoding != CP_PQ_ENC_PLAIN_DICTIONARY)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "dictionary page encoding %s",
                            cp_pq_encoding_name(d->encoding));
  cr->has_dict = true;
  cr->dict_count = d->num_values;
  if (!cr->conv) return PAIMON_OK;
  const uint8_t *body = NULL;
  size_t ulen = (size_t)h->uncompressed_page_size;
  CP_RETURN_IF_ERROR(page_body(cr, raw, (size_t)h->compressed_page_size, ulen, true, &body, err));
  /* Every entry takes at least one bit (BOOLEAN), 4 bytes (BYTE_ARRAY length) or its width, so
   * the body bounds what the entries can cost before anything is allocated. */
  size_t n = (size_t)d->num_values;
  size_t min_bits = cr->phys == CP_PQ_BOOLEAN      ? 1
                    : cr->phys == CP_PQ_BYTE_ARRAY ? 32
                                                   : 8 * (size_t)cr->width;
  if ((min_bits > 0 && n > ulen * 8 / min_bits) || (int64_t)n > cr->lim.max_page_values)
    return paimon_error_set(err, PAIMON_ECORRUPT, "dictionary page claims %zu entries in %zu bytes",
                            n, ulen);
  return dict_convert(cr, body, ulen, n, err);
}

/* ---- data pages --------------------------------------------------------------------------------
 */

/* The deprecated BIT_PACKED level encoding: MSB-first packing, no length prefix (§2.5 tier 1). */
static int bitpacked_levels(int16_t *out, size_t n, int16_t max, const uint8_t *data, size_t len,
                            size_t *consumed, const char *what, paimon_error *err) {
  int bw = cp_pq_bit_width((uint64_t)max);
  size_t bytes = (n * (size_t)bw + 7) / 8;
  if (bytes > len)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: BIT_PACKED section needs %zu bytes, %zu left", what, bytes, len);
  size_t bit = 0;
  for (size_t i = 0; i < n; i++) {
    int v = 0;
    for (int k = 0; k < bw; k++, bit++) v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    if (v > max)
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s: level %d at index %zu exceeds %d", what, v,
                              i, (int)max);
    out[i] = (int16_t)v;
  }
  *consumed = bytes;
  return PAIMON_OK;
}

/* Decodes n levels into dst; *n_max receives how many equal `max` (counted from the runs as they
 * are decoded: for definition levels, the page's non-null values). */
static int decode_levels(cp_buf *dst, size_t n, int16_t max, int enc, bool v1, const uint8_t *data,
                         size_t len, size_t *consumed, size_t *n_max, const char *what,
                         paimon_error *err) {
  dst->len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(dst, n * sizeof(int16_t) + 2, err));
  dst->len = n * sizeof(int16_t);
  int16_t *out = (int16_t *)dst->data;
  if (v1 && enc == CP_PQ_ENC_BIT_PACKED) {
    CP_RETURN_IF_ERROR(bitpacked_levels(out, n, max, data, len, consumed, what, err));
    *n_max = cp_pq_count_level(out, n, max); /* the deprecated encoding: rare, no fast count */
    return PAIMON_OK;
  }
  if (v1 && enc != CP_PQ_ENC_RLE)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s encoded as %s", what,
                            cp_pq_encoding_name(enc));
  return cp_pq_levels_decode_count(out, n, consumed, n_max, data, len, max, v1 ? 1 : 0, what, err);
}

static bool encoding_fits(int enc, int phys) {
  switch (enc) {
  case CP_PQ_ENC_PLAIN:
  case CP_PQ_ENC_PLAIN_DICTIONARY:
  case CP_PQ_ENC_RLE_DICTIONARY: return true;
  case CP_PQ_ENC_RLE: return phys == CP_PQ_BOOLEAN;
  case CP_PQ_ENC_DELTA_BINARY_PACKED: return phys == CP_PQ_INT32 || phys == CP_PQ_INT64;
  case CP_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: return phys == CP_PQ_BYTE_ARRAY;
  case CP_PQ_ENC_DELTA_BYTE_ARRAY:
    return phys == CP_PQ_BYTE_ARRAY || phys == CP_PQ_FIXED_LEN_BYTE_ARRAY;
  case CP_PQ_ENC_BYTE_STREAM_SPLIT:
    return phys == CP_PQ_FLOAT || phys == CP_PQ_DOUBLE || phys == CP_PQ_INT32 ||
           phys == CP_PQ_INT64 || phys == CP_PQ_FIXED_LEN_BYTE_ARRAY;
  default: return false;
  }
}

/* Prepares the decoder of the values section for page_values values. */
static int init_values(cp_pq_chunk_reader *cr, paimon_error *err) {
  int enc = cr->encoding;
  cr->plain_pos = 0;
  if (!encoding_fits(enc, cr->phys))
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "value encoding %s for a %s column",
                            cp_pq_encoding_name(enc), cp_pq_type_name(cr->phys));
  if (cr->page_values == 0) return PAIMON_OK; /* an all-null page may have no value bytes (P19) */
  size_t n = (size_t)cr->page_values;
  switch (enc) {
  case CP_PQ_ENC_PLAIN_DICTIONARY:
  case CP_PQ_ENC_RLE_DICTIONARY:
    if (!cr->has_dict)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "dictionary-encoded data page but the chunk has no dictionary page");
    return cp_pq_dict_indices_init(&cr->rle, cr->vals, cr->vals_len, err);
  case CP_PQ_ENC_RLE: {
    const uint8_t *body = NULL;
    size_t blen, used;
    CP_RETURN_IF_ERROR(cp_pq_rle_length_prefix(&body, &blen, &used, cr->vals, cr->vals_len,
                                               "RLE boolean values", err));
    return cp_pq_rle_decoder_init(&cr->rle, body, blen, 1, "RLE boolean values", err);
  }
  case CP_PQ_ENC_DELTA_BINARY_PACKED:
    return cp_pq_delta_decoder_init(&cr->delta, cr->vals, cr->vals_len,
                                    cr->phys == CP_PQ_INT32 ? 32 : 64, "DELTA_BINARY_PACKED", err);
  case CP_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
  case CP_PQ_ENC_DELTA_BYTE_ARRAY:
    cr->dec_offsets.len = cr->dec_data.len = 0;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->dec_offsets, (n + 1) * sizeof(int32_t), err));
    if (enc == CP_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY)
      return cp_pq_dlba_decode((int32_t *)cr->dec_offsets.data, &cr->dec_data, n, cr->vals,
                               cr->vals_len, err);
    return cp_pq_dba_decode((int32_t *)cr->dec_offsets.data, &cr->dec_data, n, cr->vals,
                            cr->vals_len, (size_t)cr->lim.max_page_size, err);
  case CP_PQ_ENC_BYTE_STREAM_SPLIT:
    if (cr->width <= 0 || cr->vals_len % (size_t)cr->width != 0 ||
        cr->vals_len / (size_t)cr->width < n)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "BYTE_STREAM_SPLIT section of %zu bytes cannot hold %zu values of "
                              "%d bytes",
                              cr->vals_len, n, (int)cr->width);
    return PAIMON_OK;
  default: return PAIMON_OK;
  }
}

/* Checks the page's entry count, then decodes its levels from `lv`: v1 pages hold length-prefixed
 * sections back to back in `lv_len` bytes; v2 pages give the sections' sizes. *values_at receives
 * where the values start. */
static int page_levels(cp_pq_chunk_reader *cr, int64_t n, bool v1, int rep_enc, int def_enc,
                       const uint8_t *lv, size_t lv_len, size_t rep_len, size_t def_len,
                       size_t *values_at, paimon_error *err) {
  if (n < 0 || n > cr->lim.max_page_values || n > cr->chunk_values - cr->values_seen)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "data page holds %lld level entries (chunk has %lld left, limit %lld)",
                            (long long)n, (long long)(cr->chunk_values - cr->values_seen),
                            (long long)cr->lim.max_page_values);
  size_t at = 0, used = 0, starts = 0, present = (size_t)n;
  if (cr->max_rep > 0)
    CP_RETURN_IF_ERROR(decode_levels(&cr->rep, (size_t)n, cr->max_rep, rep_enc, v1, lv,
                                     v1 ? lv_len : rep_len, &used, &starts, "repetition levels",
                                     err));
  at = v1 ? used : rep_len;
  used = 0;
  if (cr->max_def > 0)
    CP_RETURN_IF_ERROR(decode_levels(&cr->def, (size_t)n, cr->max_def, def_enc, v1, lv + at,
                                     v1 ? lv_len - at : def_len, &used, &present,
                                     "definition levels", err));
  at += v1 ? used : def_len;
  *values_at = at;
  if (cr->values_seen == 0 && n > 0 && cr->max_rep > 0 && ((const int16_t *)cr->rep.data)[0] != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "the column chunk's first repetition level is %d, not 0",
                            ((const int16_t *)cr->rep.data)[0]);
  cr->page_entries = n;
  cr->page_pos = 0;
  cr->page_values = (int64_t)present;
  cr->page_values_pos = 0;
  cr->page_present_pos = 0;
  cr->values_seen += n;
  return PAIMON_OK;
}

static int load_data_v1(cp_pq_chunk_reader *cr, const cp_pq_page_header *h, const uint8_t *raw,
                        paimon_error *err) {
  if (!h->has_data_page_header)
    return paimon_error_set(err, PAIMON_ECORRUPT, "DATA_PAGE without DataPageHeader");
  const cp_pq_data_page_header *d = &h->data_page_header;
  const uint8_t *body = NULL;
  size_t ulen = (size_t)h->uncompressed_page_size, at;
  CP_RETURN_IF_ERROR(page_body(cr, raw, (size_t)h->compressed_page_size, ulen, true, &body, err));
  CP_RETURN_IF_ERROR(page_levels(cr, d->num_values, true, d->repetition_level_encoding,
                                 d->definition_level_encoding, body, ulen, 0, 0, &at, err));
  cr->encoding = d->encoding;
  cr->vals = body + at;
  cr->vals_len = ulen - at;
  return cr->conv ? init_values(cr, err) : PAIMON_OK;
}

static int load_data_v2(cp_pq_chunk_reader *cr, const cp_pq_page_header *h, const uint8_t *raw,
                        paimon_error *err) {
  if (!h->has_data_page_header_v2)
    return paimon_error_set(err, PAIMON_ECORRUPT, "DATA_PAGE_V2 without DataPageHeaderV2");
  const cp_pq_data_page_header_v2 *d = &h->data_page_header_v2;
  int64_t rl = d->repetition_levels_byte_length, dl = d->definition_levels_byte_length;
  int64_t comp = h->compressed_page_size, ulen = h->uncompressed_page_size;
  if (rl < 0 || dl < 0 || rl + dl > comp || rl + dl > ulen)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "DATA_PAGE_V2 level sections (%lld + %lld bytes) exceed the page (%lld "
                            "stored, %lld uncompressed)",
                            (long long)rl, (long long)dl, (long long)comp, (long long)ulen);
  size_t at;
  CP_RETURN_IF_ERROR(
      page_levels(cr, d->num_values, false, 0, 0, raw, 0, (size_t)rl, (size_t)dl, &at, err));
  cr->encoding = d->encoding;
  /* Levels are never compressed in v2; an empty values section is never decompressed (P19). */
  size_t vcomp = (size_t)(comp - rl - dl), vlen = (size_t)(ulen - rl - dl);
  const uint8_t *vals = NULL;
  CP_RETURN_IF_ERROR(
      page_body(cr, raw + rl + dl, vcomp, vlen, d->is_compressed && vcomp > 0, &vals, err));
  cr->vals = vals;
  cr->vals_len = vlen;
  return cr->conv ? init_values(cr, err) : PAIMON_OK;
}

/* Rows a data page holds when its header says so without decoding: -1 when unknown. */
static int64_t header_rows(const cp_pq_chunk_reader *cr, const cp_pq_page_header *h) {
  if (h->type == CP_PQ_PAGE_DATA && h->has_data_page_header)
    return cr->max_rep == 0 ? h->data_page_header.num_values : -1;
  if (h->type == CP_PQ_PAGE_DATA_V2 && h->has_data_page_header_v2)
    return h->data_page_header_v2.num_rows;
  return -1;
}

static int64_t header_entries(const cp_pq_page_header *h) {
  return h->type == CP_PQ_PAGE_DATA ? h->data_page_header.num_values
                                    : h->data_page_header_v2.num_values;
}

/* Reads one page: a data page becomes current (or is passed over when all its rows are within
 * *skip); dictionary pages are loaded and other pages skipped. *loaded says whether a data page is
 * now current. */
static int next_page(cp_pq_chunk_reader *cr, int64_t *skip, bool *loaded, paimon_error *err) {
  cp_pq_page_header h;
  size_t hlen;
  *loaded = false;
  CP_RETURN_IF_ERROR(read_header(cr, &h, &hlen, err));
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
      h.compressed_page_size > cr->lim.max_page_size ||
      h.uncompressed_page_size > cr->lim.max_page_size)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "page sizes %d (stored) / %d (uncompressed) are negative or above the "
                            "limit of %lld bytes",
                            (int)h.compressed_page_size, (int)h.uncompressed_page_size,
                            (long long)cr->lim.max_page_size);
  uint64_t body_off = cr->pos + hlen, comp = (uint64_t)h.compressed_page_size;
  bool is_data = h.type == CP_PQ_PAGE_DATA || h.type == CP_PQ_PAGE_DATA_V2;
  int64_t rows = is_data ? header_rows(cr, &h) : -1;
  if (is_data && skip && rows > 0 && rows <= *skip) {
    int64_t n = header_entries(&h);
    if (n < 0 || n > cr->chunk_values - cr->values_seen)
      return paimon_error_set(err, PAIMON_ECORRUPT, "data page holds %lld level entries",
                              (long long)n);
    if (body_off > cr->chunk_end || comp > cr->chunk_end - body_off)
      return paimon_error_set(err, PAIMON_ECORRUPT, "page body passes the end of the chunk");
    cr->values_seen += n;
    *skip -= rows;
    cr->pos = body_off + comp;
    return PAIMON_OK;
  }
  bool wanted = is_data || (h.type == CP_PQ_PAGE_DICTIONARY);
  const uint8_t *raw = NULL;
  if (wanted) CP_RETURN_IF_ERROR(fetch(cr, body_off, (size_t)comp, &raw, err));
  if (wanted && cr->lim.verify_crc && h.crc.is_set &&
      cp_crc32(0, raw, (size_t)comp) != (uint32_t)h.crc.value)
    return paimon_error_set(err, PAIMON_ECORRUPT, "page CRC mismatch");
  int rc = PAIMON_OK;
  if (h.type == CP_PQ_PAGE_DICTIONARY)
    rc = load_dictionary(cr, &h, raw, err);
  else if (h.type == CP_PQ_PAGE_DATA)
    rc = load_data_v1(cr, &h, raw, err);
  else if (h.type == CP_PQ_PAGE_DATA_V2)
    rc = load_data_v2(cr, &h, raw, err);
  else if (body_off > cr->chunk_end || comp > cr->chunk_end - body_off) /* INDEX_PAGE, unknown */
    rc = paimon_error_set(err, PAIMON_ECORRUPT, "page body passes the end of the chunk");
  CP_RETURN_IF_ERROR(rc);
  cr->pos = body_off + comp;
  *loaded = is_data;
  return PAIMON_OK;
}

/* ---- rows --------------------------------------------------------------------------------------
 */

/* Consumes k level entries of the current page: appended to `b`, or skipped when `b` is NULL. */
static int consume(cp_pq_chunk_reader *cr, int64_t k, cp_pq_leaf_batch *b, paimon_error *err) {
  if (k == 0) return PAIMON_OK;
  const int16_t *def = cr->max_def > 0 ? (const int16_t *)cr->def.data + cr->page_pos : NULL;
  size_t m = cp_pq_values_present(cr, def, k);
  if (b) {
    b->n_present += (int64_t)m;
    if (def) CP_RETURN_IF_ERROR(cp_buf_append(&b->def, def, (size_t)k * sizeof(int16_t), err));
    if (cr->max_rep > 0)
      CP_RETURN_IF_ERROR(cp_buf_append(&b->rep, (const int16_t *)cr->rep.data + cr->page_pos,
                                       (size_t)k * sizeof(int16_t), err));
    if (cr->conv) CP_RETURN_IF_ERROR(cp_pq_values_read(cr, def, (size_t)k, m, b, err));
    b->n_entries += k;
  } else if (cr->conv && m > 0) {
    CP_RETURN_IF_ERROR(cp_pq_values_skip(cr, m, err));
  }
  cr->page_pos += k;
  cr->page_present_pos += (int64_t)m;
  return PAIMON_OK;
}

/* Advances over whole groups of four repetition levels while they hold no more than *left row
 * starts (zero levels), counted without branches as in reader_values.c count_level; returns where
 * the scalar scan must continue (the group holding the row start to stop at, or the tail). */
static int64_t skip_row_starts(const int16_t *rep, int64_t j, int64_t end, int64_t *left) {
  const uint64_t lanes = 0x0001000100010001ULL, low = 0x7FFF * lanes, top = 0x8000 * lanes;
  while (j + 4 <= end) {
    uint64_t x;
    memcpy(&x, rep + j, 8);
    uint64_t nonzero = ((((x & low) + low) | x) & top) >> 15;
    int64_t starts = 4 - (int64_t)((nonzero * lanes) >> 48);
    if (starts > *left) break;
    *left -= starts;
    j += 4;
  }
  return j;
}

static int rows_step(cp_pq_chunk_reader *cr, int64_t rows, cp_pq_leaf_batch *b, paimon_error *err) {
  int64_t left = rows;
  for (;;) {
    if (cr->page_pos >= cr->page_entries) {
      if (left == 0 && cr->max_rep == 0) return PAIMON_OK;
      if (cr->values_seen >= cr->chunk_values) {
        if (left > 0)
          return paimon_error_set(err, PAIMON_ECORRUPT,
                                  "column chunk ends %lld rows before the end of its row group",
                                  (long long)left);
        return PAIMON_OK;
      }
      bool loaded;
      CP_RETURN_IF_ERROR(next_page(cr, b ? NULL : &left, &loaded, err));
      continue;
    }
    if (cr->max_rep == 0) {
      if (left == 0) return PAIMON_OK;
      int64_t k = cr->page_entries - cr->page_pos;
      if (k > left) k = left;
      CP_RETURN_IF_ERROR(consume(cr, k, b, err));
      left -= k;
      continue;
    }
    const int16_t *rep = (const int16_t *)cr->rep.data;
    int64_t j = skip_row_starts(rep, cr->page_pos, cr->page_entries, &left);
    for (; j < cr->page_entries; j++) {
      if (rep[j] != 0) continue;
      if (left == 0) break;
      left--;
    }
    CP_RETURN_IF_ERROR(consume(cr, j - cr->page_pos, b, err));
    if (j < cr->page_entries) return PAIMON_OK;
  }
}

int cp_pq_chunk_skip_rows(cp_pq_chunk_reader *cr, int64_t rows, paimon_error *err) {
  return located(cr, rows_step(cr, rows, NULL, err), err);
}

int cp_pq_chunk_read_rows(cp_pq_chunk_reader *cr, int64_t rows, cp_pq_leaf_batch *out,
                          paimon_error *err) {
  return located(cr, rows_step(cr, rows, out, err), err);
}
