/*
 * A hand-driven Parquet file builder for the reader tests: the test decides every page header
 * field and every byte of every page body, so files can be exactly the spec's examples
 * (spec/parquet.md §3.2) or broken in one precise way (lying sizes, bad levels, bombs). Pages are
 * compressed with the chunk's codec unless the test passes the stored bytes itself. Footer
 * encoding uses the metadata module (format/parquet/metadata.h), which has its own tests.
 */
#ifndef CP_TEST_READER_BUILD_H
#define CP_TEST_READER_BUILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"
#include "base/fs.h"
#include "format/parquet/footer.h"
#include "format/parquet/metadata.h"

#define TB_MAX_COLS 8
#define TB_MAX_RGS 8

typedef struct tb {
  cp_buf out;
  cp_pq_schema_element *schema;
  uint32_t num_schema;
  cp_pq_schema tree;
  cp_pq_row_group rgs[TB_MAX_RGS];
  cp_pq_column_chunk chunks[TB_MAX_RGS][TB_MAX_COLS];
  int32_t encodings[TB_MAX_RGS][TB_MAX_COLS][4];
  uint32_t num_rgs;
  uint32_t col; /* current chunk */
  int codec;    /* cp_pq_codec of the current chunk */
  int32_t *column_orders;
} tb;

static inline cp_pq_schema_element tb_group(const char *name, int rep, int32_t children) {
  cp_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = (char *)name;
  if (rep >= 0) e.repetition_type = (cp_pq_opt_i32){true, rep};
  e.num_children = (cp_pq_opt_i32){true, children};
  return e;
}

static inline cp_pq_schema_element tb_leaf(const char *name, int rep, int type) {
  cp_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = (char *)name;
  e.repetition_type = (cp_pq_opt_i32){true, rep};
  e.type = (cp_pq_opt_i32){true, type};
  return e;
}

static inline void tb_init(tb *t, cp_pq_schema_element *schema, uint32_t n) {
  memset(t, 0, sizeof *t);
  t->schema = schema;
  t->num_schema = n;
  paimon_error err;
  if (cp_pq_schema_build(&t->tree, schema, n, &err) != 0) {
    fprintf(stderr, "tb_init: %s\n", err.message);
    abort();
  }
  cp_buf_append(&t->out, "PAR1", 4, NULL);
}

static inline void tb_row_group(tb *t, int64_t num_rows) {
  cp_pq_row_group *rg = &t->rgs[t->num_rgs++];
  rg->num_rows = num_rows;
  rg->columns = t->chunks[t->num_rgs - 1];
  rg->num_columns = t->tree.num_leaves;
  t->col = 0;
}

/* Starts the next column chunk of the current row group. */
static inline void tb_chunk(tb *t, int codec) {
  uint32_t g = t->num_rgs - 1;
  cp_pq_column_chunk *ch = &t->chunks[g][t->col];
  const cp_pq_schema_node *leaf = t->tree.leaves[t->col];
  ch->has_meta_data = true;
  cp_pq_column_meta *cm = &ch->meta_data;
  cm->type = leaf->element->type.value;
  cm->path_in_schema = (char **)leaf->path;
  cm->path_len = leaf->path_len;
  cm->codec = codec;
  cm->encodings = t->encodings[g][t->col];
  cm->encodings[0] = CP_PQ_ENC_PLAIN;
  cm->encodings[1] = CP_PQ_ENC_RLE;
  cm->num_encodings = 2;
  cm->data_page_offset = -1;
  t->codec = codec;
  t->col++;
}

static inline cp_pq_column_meta *tb_meta(tb *t) {
  return &t->chunks[t->num_rgs - 1][t->col - 1].meta_data;
}

static inline cp_codec tb_codec(int pq) {
  switch (pq) {
  case CP_PQ_CODEC_SNAPPY: return CP_CODEC_SNAPPY;
  case CP_PQ_CODEC_GZIP: return CP_CODEC_GZIP;
  case CP_PQ_CODEC_ZSTD: return CP_CODEC_ZSTD;
  case CP_PQ_CODEC_LZ4_RAW: return CP_CODEC_LZ4_RAW;
  default: return CP_CODEC_NONE;
  }
}

/* Appends a page. `h` has its type and sub-header filled by the caller; sizes left at 0 are
 * computed (uncompressed = body_len, compressed = the stored bytes). For v2 pages the first
 * rep+def bytes of `body` are the level sections, stored uncompressed. */
static inline void tb_page(tb *t, cp_pq_page_header *h, const void *body, size_t body_len) {
  cp_pq_column_meta *cm = tb_meta(t);
  const uint8_t *b = body;
  size_t levels = 0;
  if (h->type == CP_PQ_PAGE_DATA_V2)
    levels = (size_t)(h->data_page_header_v2.repetition_levels_byte_length +
                      h->data_page_header_v2.definition_levels_byte_length);
  cp_buf stored = CP_BUF_INIT;
  cp_buf_append(&stored, b, levels, NULL);
  bool compress = t->codec != CP_PQ_CODEC_UNCOMPRESSED &&
                  !(h->type == CP_PQ_PAGE_DATA_V2 && !h->data_page_header_v2.is_compressed);
  if (compress && body_len > levels) {
    paimon_error err;
    if (cp_compress(tb_codec(t->codec), 0, b + levels, body_len - levels, &stored, &err)) abort();
  } else {
    cp_buf_append(&stored, b + levels, body_len - levels, NULL);
  }
  if (!h->uncompressed_page_size) h->uncompressed_page_size = (int32_t)body_len;
  if (!h->compressed_page_size) h->compressed_page_size = (int32_t)stored.len;
  int64_t at = (int64_t)t->out.len;
  cp_buf hdr = CP_BUF_INIT;
  paimon_error err;
  if (cp_pq_page_header_encode(h, &hdr, &err)) abort();
  cp_buf_append(&t->out, hdr.data, hdr.len, NULL);
  cp_buf_append(&t->out, stored.data, stored.len, NULL);
  if (h->type == CP_PQ_PAGE_DICTIONARY) {
    cm->dictionary_page_offset = (cp_pq_opt_i64){true, at};
  } else if (cm->data_page_offset < 0) {
    cm->data_page_offset = at;
  }
  if (h->type == CP_PQ_PAGE_DATA) cm->num_values += h->data_page_header.num_values;
  if (h->type == CP_PQ_PAGE_DATA_V2) cm->num_values += h->data_page_header_v2.num_values;
  cm->total_compressed_size += (int64_t)(hdr.len + stored.len);
  cm->total_uncompressed_size += (int64_t)hdr.len + h->uncompressed_page_size;
  cp_buf_free(&hdr);
  cp_buf_free(&stored);
}

/* Convenience: a v1 data page of `n` entries. */
static inline void tb_data_page(tb *t, int32_t n, int encoding, const void *body, size_t len) {
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = n;
  h.data_page_header.encoding = encoding;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.data_page_header.repetition_level_encoding = CP_PQ_ENC_RLE;
  tb_page(t, &h, body, len);
}

static inline void tb_dict_page(tb *t, int32_t n, const void *body, size_t len) {
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DICTIONARY;
  h.has_dictionary_page_header = true;
  h.dictionary_page_header.num_values = n;
  h.dictionary_page_header.encoding = CP_PQ_ENC_PLAIN;
  tb_page(t, &h, body, len);
}

/* Writes the footer and the file. */
static inline int tb_finish(tb *t, cp_fs *fs, const char *path) {
  cp_pq_file_meta m;
  cp_pq_file_meta_init(&m);
  m.version = 1;
  m.schema = t->schema;
  m.num_schema = t->num_schema;
  m.row_groups = t->rgs;
  m.num_row_groups = t->num_rgs;
  m.created_by = (char *)"cpaimon-test version 0.0.1 (build test)";
  for (uint32_t g = 0; g < t->num_rgs; g++) {
    m.num_rows += t->rgs[g].num_rows;
    int64_t total = 0;
    for (uint32_t c = 0; c < t->rgs[g].num_columns; c++)
      total += t->chunks[g][c].meta_data.total_uncompressed_size;
    t->rgs[g].total_byte_size = total;
  }
  if (t->column_orders) {
    m.column_orders = t->column_orders;
    m.num_column_orders = t->tree.num_leaves;
  }
  paimon_error err;
  int rc = cp_pq_footer_write(&m, &t->out, &err);
  if (rc == 0)
    rc = cp_fs_write_file(fs, path, t->out.data, t->out.len, CP_CREATE_OVERWRITE, false, &err);
  if (rc) fprintf(stderr, "tb_finish: %s\n", err.message);
  return rc;
}

static inline void tb_free(tb *t) {
  cp_buf_free(&t->out);
  cp_pq_schema_free(&t->tree);
}

/* Little helpers for page bodies. */
static inline void tb_put_le32(cp_buf *b, uint32_t v) { cp_buf_append(b, &v, 4, NULL); }

#endif
