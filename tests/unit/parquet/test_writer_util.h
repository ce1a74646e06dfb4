/*
 * Helpers for the Parquet writer's unit tests (test_writer*.c): building Arrow batches for a
 * Paimon row type through the arrow layer's builders, writing them to a file in TMPDIR, reading
 * the footer back with footer.h, and a small independent chunk decoder — page headers, codecs,
 * v1 level sections, PLAIN and dictionary values, all through the lower layers (metadata.h,
 * encoding.h, codec.h) — so tests can check levels and values page by page (spec/parquet.md
 * §2.4, §2.7, §3).
 */
#ifndef CP_TEST_WRITER_UTIL_H
#define CP_TEST_WRITER_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "base/codec.h"
#include "base/status.h"
#include "base/fs.h"
#include "format/parquet/encoding.h"
#include "format/parquet/footer.h"
#include "format/parquet/metadata.h"
#include "format/parquet/writer.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static cp_fs *tw_fs;
static char tw_path[512];
static int tw_seq;

/* A fresh file path in TMPDIR. */
static inline const char *tw_new_path(const char *tag) {
  const char *dir = getenv("TMPDIR");
  snprintf(tw_path, sizeof tw_path, "%s/pqw_%d_%s_%d.parquet", dir ? dir : "/tmp", (int)getpid(),
           tag, tw_seq++);
  return tw_path;
}

/* Parses a ROW type (ids 0, 1, ... in order); aborts on a typo in the test. */
static inline cp_type *tw_type(const char *sql) {
  cp_type *t = NULL;
  paimon_error err;
  if (cp_type_parse(sql, &t, &err) != 0) {
    fprintf(stderr, "bad test type %s: %s\n", sql, err.message);
    exit(2);
  }
  return t;
}

/* A batch under construction: the Arrow schema of the row and a builder for it. */
typedef struct tw_batch {
  struct ArrowSchema schema;
  struct ArrowArray array;
  cp_builder *b;
} tw_batch;

static inline void tw_batch_init(tw_batch *t, const cp_type *row) {
  paimon_error err;
  memset(t, 0, sizeof *t);
  CHECK_OK(cp_row_to_arrow_schema(row, &t->schema, &err), &err);
  CHECK_OK(cp_builder_create(&t->b, &t->schema, &err), &err);
}

static inline cp_builder *tw_col(tw_batch *t, int64_t i) { return cp_builder_child(t->b, i); }

/* Closes the rows appended to every column (all struct rows valid) and builds the array. */
static inline void tw_batch_finish(tw_batch *t) {
  paimon_error err;
  int64_t n = cp_builder_length(cp_builder_child(t->b, 0));
  CHECK_OK(cp_builder_end_elements(t->b, n, &err), &err);
  CHECK_OK(cp_builder_finish(t->b, &t->array, &err), &err);
}

static inline void tw_batch_free(tw_batch *t) {
  cp_builder_free(t->b);
  cp_array_release(&t->array);
  cp_schema_release(&t->schema);
}

/* Opens a writer on a new file. */
typedef struct tw_file {
  cp_wfile *f;
  cp_pq_writer *w;
  char path[512];
} tw_file;

static inline int tw_open(tw_file *tf, const char *tag, const cp_type *row,
                          const cp_pq_writer_options *o, paimon_error *err) {
  memset(tf, 0, sizeof *tf);
  snprintf(tf->path, sizeof tf->path, "%s", tw_new_path(tag));
  int rc = cp_fs_create(tw_fs, tf->path, CP_CREATE_OVERWRITE, &tf->f, err);
  if (rc) return rc;
  rc = cp_pq_writer_open(&tf->w, tf->f, row, o, err);
  if (rc) {
    cp_wfile_abort(tf->f);
    tf->f = NULL;
  }
  return rc;
}

/* Closes writer and file; the writer stays alive for its stats until tw_free. */
static inline int tw_close(tw_file *tf, cp_pq_file_stats *st, paimon_error *err) {
  int rc = cp_pq_writer_close(tf->w, st, err);
  if (rc == 0) {
    rc = cp_wfile_close(tf->f, err);
    tf->f = NULL;
  }
  return rc;
}

/* Frees the writer, aborts a file still open and deletes the file (tests leave nothing behind). */
static inline void tw_free(tw_file *tf) {
  if (tf->f) cp_wfile_abort(tf->f);
  cp_pq_writer_free(tf->w);
  if (!tf->f && tf->path[0]) cp_fs_delete(tw_fs, tf->path, NULL);
  tf->f = NULL;
  tf->w = NULL;
  tf->path[0] = '\0';
}

/* The whole file and its footer. */
typedef struct tw_read {
  cp_buf bytes;
  cp_pq_footer ft;
} tw_read;

static inline int tw_read_file(tw_read *r, const char *path, paimon_error *err) {
  memset(r, 0, sizeof *r);
  int rc = cp_fs_read_file(tw_fs, path, &r->bytes, (size_t)1 << 30, err);
  if (rc == 0) rc = cp_pq_footer_parse(r->bytes.data, r->bytes.len, path, &r->ft, err);
  return rc;
}

static inline void tw_read_free(tw_read *r) {
  cp_pq_footer_free(&r->ft);
  cp_buf_free(&r->bytes);
}

static inline const cp_pq_column_meta *tw_meta(const tw_read *r, int rg, int col) {
  return &r->ft.meta.row_groups[rg].columns[col].meta_data;
}

/* ---- decoding a chunk ---- */

typedef struct tw_chunk {
  int16_t *rep, *def; /* n entries each */
  int64_t n;
  int64_t n_values; /* entries with def == max_def */
  cp_buf fixed;     /* fixed-width values back to back (BOOLEAN: one 0/1 byte each) */
  int32_t *offsets; /* BYTE_ARRAY: n_values + 1 offsets into `bytes` */
  cp_buf bytes;
  int data_pages, dict_pages, dict_encoded_pages;
  int64_t dict_count;
  int64_t header_bytes, body_bytes_unc, body_bytes_comp;
} tw_chunk;

static inline void tw_chunk_free(tw_chunk *c) {
  free(c->rep);
  free(c->def);
  free(c->offsets);
  cp_buf_free(&c->fixed);
  cp_buf_free(&c->bytes);
  memset(c, 0, sizeof *c);
}

static inline cp_codec tw_codec(int pq) {
  switch (pq) {
  case CP_PQ_CODEC_SNAPPY: return CP_CODEC_SNAPPY;
  case CP_PQ_CODEC_GZIP: return CP_CODEC_GZIP;
  case CP_PQ_CODEC_ZSTD: return CP_CODEC_ZSTD;
  case CP_PQ_CODEC_LZ4_RAW: return CP_CODEC_LZ4_RAW;
  default: return CP_CODEC_NONE;
  }
}

static inline size_t tw_width(const cp_pq_column_meta *m, const cp_pq_schema_node *leaf) {
  switch (m->type) {
  case CP_PQ_INT32:
  case CP_PQ_FLOAT: return 4;
  case CP_PQ_INT64:
  case CP_PQ_DOUBLE: return 8;
  case CP_PQ_INT96: return 12;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: return (size_t)leaf->element->type_length.value;
  default: return 0;
  }
}

/* Decodes the values section of one data page into the chunk. */
static inline int tw_page_values(tw_chunk *c, const cp_pq_page_header *h,
                                 const cp_pq_column_meta *m, size_t width, const uint8_t *p,
                                 size_t len, int64_t nv, const cp_buf *dict,
                                 const int32_t *dict_offs, paimon_error *err) {
  int enc = h->data_page_header.encoding;
  if (enc == CP_PQ_ENC_RLE_DICTIONARY || enc == CP_PQ_ENC_PLAIN_DICTIONARY) {
    c->dict_encoded_pages++;
    int32_t *idx = malloc((size_t)(nv ? nv : 1) * 4);
    cp_pq_rle_decoder d;
    int rc = cp_pq_dict_indices_init(&d, p, len, err);
    if (rc == 0) rc = cp_pq_dict_indices_decode(&d, idx, (size_t)nv, (size_t)c->dict_count, err);
    for (int64_t i = 0; rc == 0 && i < nv; i++) {
      if (m->type == CP_PQ_BYTE_ARRAY) {
        int32_t a = dict_offs[idx[i]], b = dict_offs[idx[i] + 1];
        rc = cp_buf_append(&c->bytes, dict->data + a, (size_t)(b - a), err);
        c->offsets[c->n_values + i + 1] = (int32_t)c->bytes.len;
      } else {
        size_t w = width ? width : 1;
        rc = cp_buf_append(&c->fixed, dict->data + (size_t)idx[i] * w, w, err);
      }
    }
    free(idx);
    return rc;
  }
  if (enc != CP_PQ_ENC_PLAIN)
    return paimon_error_set(err, PAIMON_EINVAL, "unexpected encoding %d", enc);
  if (m->type == CP_PQ_BYTE_ARRAY) {
    size_t used;
    return cp_pq_plain_decode_binary(c->offsets + c->n_values, &c->bytes, (size_t)nv, &used, p, len,
                                     err);
  }
  if (m->type == CP_PQ_BOOLEAN) {
    CP_RETURN_IF_ERROR(cp_buf_reserve(&c->fixed, (size_t)nv + 1, err));
    CP_RETURN_IF_ERROR(
        cp_pq_plain_decode_bool(c->fixed.data + c->fixed.len, (size_t)nv, p, len, 0, err));
    c->fixed.len += (size_t)nv;
    return PAIMON_OK;
  }
  size_t used;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&c->fixed, (size_t)nv * width + 1, err));
  CP_RETURN_IF_ERROR(cp_pq_plain_decode_fixed(c->fixed.data + c->fixed.len, (size_t)nv, &used, p,
                                              len, width, err));
  c->fixed.len += (size_t)nv * width;
  return used == len
             ? PAIMON_OK
             : paimon_error_set(err, PAIMON_EINVAL, "page has %zu trailing bytes", len - used);
}

/* Decodes column `col` of row group `rg`, page by page, checking the page and chunk sizes. */
static inline int tw_decode_chunk(const tw_read *r, int rg, int col, tw_chunk *c,
                                  paimon_error *err) {
  memset(c, 0, sizeof *c);
  const cp_pq_column_meta *m = tw_meta(r, rg, col);
  const cp_pq_schema_node *leaf = r->ft.schema.leaves[col];
  const size_t width = tw_width(m, leaf);
  int64_t pos = cp_pq_column_chunk_start(m), end = pos + m->total_compressed_size;
  cp_buf body = CP_BUF_INIT, dict = CP_BUF_INIT;
  int32_t *dict_offs = NULL;
  int rc = 0;
  c->rep = calloc((size_t)m->num_values + 1, 2);
  c->def = calloc((size_t)m->num_values + 1, 2);
  c->offsets = calloc((size_t)m->num_values + 2, 4);
  while (rc == 0 && pos < end) {
    cp_pq_page_header h;
    size_t hl;
    rc = cp_pq_page_header_decode(&h, r->bytes.data + pos, (size_t)(end - pos), (uint64_t)pos, &hl,
                                  NULL, err);
    if (rc) break;
    const uint8_t *comp = r->bytes.data + pos + hl;
    c->header_bytes += (int64_t)hl;
    c->body_bytes_unc += h.uncompressed_page_size;
    c->body_bytes_comp += h.compressed_page_size;
    cp_buf_clear(&body);
    rc = cp_buf_reserve(&body, (size_t)h.uncompressed_page_size + 1, err);
    if (rc == 0)
      rc = cp_decompress_exact(tw_codec(m->codec), comp, (size_t)h.compressed_page_size, body.data,
                               (size_t)h.uncompressed_page_size, err);
    if (rc) break;
    body.len = (size_t)h.uncompressed_page_size;
    pos += (int64_t)hl + h.compressed_page_size;
    if (h.type == CP_PQ_PAGE_DICTIONARY) {
      c->dict_pages++;
      c->dict_count = h.dictionary_page_header.num_values;
      cp_buf_clear(&dict);
      size_t used;
      if (m->type == CP_PQ_BYTE_ARRAY) {
        dict_offs = realloc(dict_offs, ((size_t)c->dict_count + 1) * 4);
        rc = cp_pq_plain_decode_binary(dict_offs, &dict, (size_t)c->dict_count, &used, body.data,
                                       body.len, err);
      } else {
        rc = cp_buf_append(&dict, body.data, body.len, err);
      }
      continue;
    }
    if (h.type != CP_PQ_PAGE_DATA) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "unexpected page type %d", h.type);
      break;
    }
    c->data_pages++;
    int64_t n = h.data_page_header.num_values;
    size_t off = 0, used = 0;
    rc = cp_pq_levels_decode(c->rep + c->n, (size_t)n, &used, body.data, body.len, leaf->max_rep, 1,
                             "rep", err);
    off += used;
    if (rc == 0)
      rc = cp_pq_levels_decode(c->def + c->n, (size_t)n, &used, body.data + off, body.len - off,
                               leaf->max_def, 1, "def", err);
    off += used;
    if (rc) break;
    int64_t nv = (int64_t)cp_pq_count_level(c->def + c->n, (size_t)n, leaf->max_def);
    if (c->n_values == 0) c->offsets[0] = 0;
    rc =
        tw_page_values(c, &h, m, width, body.data + off, body.len - off, nv, &dict, dict_offs, err);
    c->n += n;
    c->n_values += nv;
  }
  if (rc == 0 && pos != end)
    rc = paimon_error_set(err, PAIMON_EINVAL, "pages end at %lld, chunk at %lld", (long long)pos,
                          (long long)end);
  if (rc == 0 && c->n != m->num_values)
    rc = paimon_error_set(err, PAIMON_EINVAL, "pages hold %lld entries, metadata says %lld",
                          (long long)c->n, (long long)m->num_values);
  cp_buf_free(&body);
  cp_buf_free(&dict);
  free(dict_offs);
  return rc;
}

/* Value i of a decoded chunk as int64 (INT32/INT64/BOOLEAN). */
static inline int64_t tw_int(const tw_chunk *c, size_t width, int64_t i) {
  if (width == 4) {
    int32_t v;
    memcpy(&v, c->fixed.data + i * 4, 4);
    return v;
  }
  if (width == 8) {
    int64_t v;
    memcpy(&v, c->fixed.data + i * 8, 8);
    return v;
  }
  return c->fixed.data[i];
}

static inline double tw_f64(const tw_chunk *c, size_t width, int64_t i) {
  if (width == 4) {
    float v;
    memcpy(&v, c->fixed.data + i * 4, 4);
    return v;
  }
  double v;
  memcpy(&v, c->fixed.data + i * 8, 8);
  return v;
}

/* Whether byte array value i equals the C string s. */
static inline bool tw_str_is(const tw_chunk *c, int64_t i, const char *s) {
  int32_t a = c->offsets[i], b = c->offsets[i + 1];
  return (size_t)(b - a) == strlen(s) && memcmp(c->bytes.data + a, s, (size_t)(b - a)) == 0;
}

static inline bool tw_has_encoding(const cp_pq_column_meta *m, int enc) {
  for (uint32_t i = 0; i < m->num_encodings; i++)
    if (m->encodings[i] == enc) return true;
  return false;
}

#endif
