/*
 * The Parquet reader on hand-built files (reader_test_build.h): record assembly against the
 * spec's worked example (spec/parquet.md §3.2) and the ROW rule of §3.1, dictionary pages, rows
 * continued across pages (§3.3), DATA_PAGE_V2, and every malformed-input path of the brief —
 * truncated file, wrong magic, footer length past the file, page sizes lying, bad levels,
 * dictionary index out of range, decompression bombs — each an error naming the file, the column
 * and the byte offset, never a crash.
 */
#include "reader_test_build.h"
#include "reader_test_util.h"
#include "test.h"

static cp_fs *g_fs;
static char g_path[512];

static const char *tmp_path(const char *name) {
  const char *dir = getenv("TMPDIR");
  snprintf(g_path, sizeof g_path, "%s/cpaimon_test_reader_%s.parquet", dir ? dir : "/tmp", name);
  return g_path;
}

/* Reads the single batch of a small file (batch size `bs`, 0 = default). */
static int read_one(const char *path, const cp_pq_reader_options *opts, struct ArrowSchema *schema,
                    struct ArrowArray *batch, paimon_error *err) {
  cp_pq_reader *r;
  int rc = cp_pq_reader_open(&r, g_fs, path, opts, err);
  if (rc) return rc;
  bool eof;
  rc = cp_pq_reader_next(r, batch, schema, &eof, err);
  if (rc == 0 && eof) rc = paimon_error_set(err, PAIMON_ESTATE, "no batch");
  cp_pq_reader_free(r);
  return rc;
}

static const uint8_t *buf_u8(const struct ArrowArray *a, int i) { return a->buffers[i]; }
static const int32_t *buf_i32(const struct ArrowArray *a, int i) { return a->buffers[i]; }

/* ---- §3.2: ARRAY<FLOAT>, nullable list and elements ---------------------------------------- */

static cp_pq_schema_element k_list_schema[4];

static void list_schema(void) {
  k_list_schema[0] = tb_group("schema", -1, 1);
  k_list_schema[1] = tb_group("f", CP_PQ_OPTIONAL, 1);
  k_list_schema[1].converted_type = (cp_pq_opt_i32){true, CP_PQ_CT_LIST};
  k_list_schema[1].logical_type.kind = CP_PQ_LT_LIST;
  k_list_schema[2] = tb_group("list", CP_PQ_REPEATED, 1);
  k_list_schema[3] = tb_leaf("element", CP_PQ_OPTIONAL, CP_PQ_FLOAT);
}

/* The 29-byte page body of §3.2, byte for byte. */
static const uint8_t k_spec_page[] = {0x02, 0x00, 0x00, 0x00, 0x03, 0x22,             /* rep */
                                      0x03, 0x00, 0x00, 0x00, 0x03, 0x4F, 0x3E,       /* def */
                                      0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, /* 1, 2 */
                                      0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40};

static void write_spec_example(const char *path, int codec) {
  list_schema();
  tb t;
  tb_init(&t, k_list_schema, 4);
  tb_row_group(&t, 5);
  tb_chunk(&t, codec);
  tb_data_page(&t, 7, CP_PQ_ENC_PLAIN, k_spec_page, sizeof k_spec_page);
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
}

static void test_spec_worked_example(void) {
  static const int codecs[] = {CP_PQ_CODEC_UNCOMPRESSED, CP_PQ_CODEC_ZSTD, CP_PQ_CODEC_SNAPPY};
  for (size_t c = 0; c < 3; c++) {
    const char *path = tmp_path("spec32");
    write_spec_example(path, codecs[c]);
    paimon_error err = {0};
    struct ArrowSchema schema;
    struct ArrowArray batch;
    CHECK_OK(read_one(path, NULL, &schema, &batch, &err), &err);
    if (!batch.release) continue;
    CHECK_STR(schema.children[0]->format, "+l");
    CHECK_STR(schema.children[0]->children[0]->format, "f");
    CHECK_STR(schema.children[0]->children[0]->name, "element");
    const struct ArrowArray *list = batch.children[0];
    CHECK_INT(batch.length, 5);
    CHECK_INT(list->length, 5);
    CHECK_INT(list->null_count, 1);
    CHECK_INT(buf_u8(list, 0)[0], 0x1D); /* list validity 1 0 1 1 1 */
    static const int32_t offsets[] = {0, 2, 2, 2, 4, 5};
    for (int i = 0; i < 6; i++) CHECK_INT(buf_i32(list, 1)[i], offsets[i]);
    const struct ArrowArray *items = list->children[0];
    CHECK_INT(items->length, 5);
    CHECK_INT(items->null_count, 1);
    CHECK_INT(buf_u8(items, 0)[0] & 0x1F, 0x1B); /* element validity 1 1 0 1 1 */
    const float *f = items->buffers[1];
    CHECK(f[0] == 1.0f && f[1] == 2.0f && f[3] == 3.0f && f[4] == 4.0f);
    cp_array_release(&batch);
    cp_schema_release(&schema);
  }
}

/* The same file in batches of 2 rows: offsets restart at 0 in every batch. */
static void test_spec_example_batches(void) {
  const char *path = tmp_path("spec32b");
  write_spec_example(path, CP_PQ_CODEC_UNCOMPRESSED);
  paimon_error err = {0};
  cp_pq_reader_options o = {0};
  o.batch_size = 2;
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_INT(rows, 5);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"f\":[1.0,2.0]}\n{\"f\":null}\n{\"f\":[]}\n{\"f\":[null,3.0]}\n"
            "{\"f\":[4.0]}\n");
  cp_buf_free(&out);
  /* Rows 1..3 only: the page is decoded, rows 0 and 4 dropped. */
  cp_pq_row_range range = {1, 4};
  o.row_ranges = &range;
  o.num_row_ranges = 1;
  o.batch_size = 0;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_INT(rows, 3);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"f\":null}\n{\"f\":[]}\n{\"f\":[null,3.0]}\n");
  cp_buf_free(&out);
}

/* ---- §3.1 ROW: optional group s { optional int32 a; required int32 b; } ------------------- */

static void test_struct_levels(void) {
  cp_pq_schema_element e[4] = {tb_group("schema", -1, 1), tb_group("s", CP_PQ_OPTIONAL, 2),
                               tb_leaf("a", CP_PQ_OPTIONAL, CP_PQ_INT32),
                               tb_leaf("b", CP_PQ_REQUIRED, CP_PQ_INT32)};
  tb t;
  tb_init(&t, e, 4);
  tb_row_group(&t, 3);
  paimon_error err = {0};
  /* rows {a: 1, b: 2}, NULL, {a: NULL, b: 3}: a has def 2 0 1 (max 2), b has def 1 0 1 (max 1) */
  static const int16_t def_a[] = {2, 0, 1}, def_b[] = {1, 0, 1};
  cp_buf body = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&body, def_a, 3, 2, 1, &err), &err);
  tb_put_le32(&body, 1);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, body.data, body.len);
  body.len = 0;
  CHECK_OK(cp_pq_levels_encode(&body, def_b, 3, 1, 1, &err), &err);
  tb_put_le32(&body, 2);
  tb_put_le32(&body, 3);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, body.data, body.len);
  cp_buf_free(&body);
  const char *path = tmp_path("struct");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  struct ArrowSchema schema;
  struct ArrowArray batch;
  CHECK_OK(read_one(path, NULL, &schema, &batch, &err), &err);
  if (!batch.release) return;
  const struct ArrowArray *s = batch.children[0];
  CHECK_INT(s->null_count, 1);
  CHECK_INT(buf_u8(s, 0)[0] & 7, 5);
  const struct ArrowArray *a = s->children[0], *b = s->children[1];
  CHECK_INT(a->length, 3);
  CHECK_INT(a->null_count, 2);
  CHECK_INT(buf_u8(a, 0)[0] & 7, 1);
  CHECK_INT(buf_i32(a, 1)[0], 1);
  CHECK_INT(b->length, 3);
  CHECK_INT(buf_u8(b, 0)[0] & 7, 5); /* b is null only where s is */
  CHECK_INT(buf_i32(b, 1)[0], 2);
  CHECK_INT(buf_i32(b, 1)[2], 3);
  CHECK_STR(schema.children[0]->children[1]->format, "i");
  CHECK_INT(schema.children[0]->children[1]->flags & ARROW_FLAG_NULLABLE, 0);
  cp_array_release(&batch);
  cp_schema_release(&schema);
}

/* ---- dictionary pages ------------------------------------------------------------------------ */

/* Flat OPTIONAL INT32: dictionary [10, 20, 30]; data page def 1 0 1 1 0 1, indices `idx`. */
static void write_dict_file(const char *path, const uint8_t idx_packed[2]) {
  cp_pq_schema_element e[2] = {tb_group("schema", -1, 1),
                               tb_leaf("v", CP_PQ_OPTIONAL, CP_PQ_INT32)};
  tb t;
  tb_init(&t, e, 2);
  tb_row_group(&t, 6);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  cp_buf b = CP_BUF_INIT;
  tb_put_le32(&b, 10);
  tb_put_le32(&b, 20);
  tb_put_le32(&b, 30);
  tb_dict_page(&t, 3, b.data, b.len);
  b.len = 0;
  /* def: length 2, one bit-packed group (header 0x03), bits 1 0 1 1 0 1 0 0 = 0x2D */
  static const uint8_t def[] = {0x02, 0x00, 0x00, 0x00, 0x03, 0x2D};
  cp_buf_append(&b, def, sizeof def, NULL);
  uint8_t ids[] = {0x02, 0x03, idx_packed[0], idx_packed[1]}; /* bit width 2, one group */
  cp_buf_append(&b, ids, sizeof ids, NULL);
  tb_data_page(&t, 6, CP_PQ_ENC_RLE_DICTIONARY, b.data, b.len);
  cp_buf_free(&b);
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
}

static void test_dictionary(void) {
  const char *path = tmp_path("dict");
  static const uint8_t good[2] = {0x92, 0x00}; /* indices 2 0 1 2 (2 bits each, LSB first) */
  write_dict_file(path, good);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"v\":30}\n{\"v\":null}\n{\"v\":10}\n{\"v\":20}\n{\"v\":null}\n{\"v\":30}\n");
  cp_buf_free(&out);

  static const uint8_t bad[2] = {0xB2, 0x00}; /* indices 2 0 3 2: 3 is past the dictionary */
  write_dict_file(path, bad);
  int rc = rt_read_all(g_fs, path, NULL, &rows, NULL, &err);
  CHECK_INT(rc, PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, path);
  CHECK_CONTAINS(err.message, "column 'v'");
  CHECK_CONTAINS(err.message, "row group 0");
  CHECK_CONTAINS(err.message, "page at offset");
}

/* ---- malformed pages -------------------------------------------------------------------------
 */

typedef void (*page_writer)(tb *t);

/* A one-column INT32 OPTIONAL file of 6 rows whose single page `w` writes. */
static int read_broken(page_writer w, const cp_pq_reader_options *o, paimon_error *err) {
  cp_pq_schema_element e[2] = {tb_group("schema", -1, 1),
                               tb_leaf("v", CP_PQ_OPTIONAL, CP_PQ_INT32)};
  tb t;
  tb_init(&t, e, 2);
  tb_row_group(&t, 6);
  w(&t);
  const char *path = tmp_path("broken");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  int64_t rows;
  return rt_read_all(g_fs, path, o, &rows, NULL, err);
}

/* Six present values, PLAIN, with a proper def section. */
static void good_body(cp_buf *b) {
  static const uint8_t def[] = {0x02, 0x00, 0x00, 0x00, 0x0C, 0x01}; /* RLE run: 6 × 1 */
  cp_buf_append(b, def, sizeof def, NULL);
  for (uint32_t i = 0; i < 6; i++) tb_put_le32(b, i);
}

static void w_good(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  tb_chunk(t, CP_PQ_CODEC_ZSTD);
  tb_data_page(t, 6, CP_PQ_ENC_PLAIN, b.data, b.len);
  cp_buf_free(&b);
}

static void w_bad_level(tb *t) {
  static const uint8_t body[] = {0x02, 0x00, 0x00, 0x00, 0x0C, 0x02}; /* 6 × level 2 > max 1 */
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(t, 6, CP_PQ_ENC_PLAIN, body, sizeof body);
}

static void w_short_values(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  b.len -= 4; /* five values for six present entries */
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(t, 6, CP_PQ_ENC_PLAIN, b.data, b.len);
  cp_buf_free(&b);
}

static void w_stored_size_lies(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = 6;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.data_page_header.repetition_level_encoding = CP_PQ_ENC_RLE;
  h.compressed_page_size = 5000; /* far past the chunk */
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_page(t, &h, b.data, b.len);
  cp_buf_free(&b);
}

static void w_uncompressed_size_lies(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = 6;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.uncompressed_page_size = (int32_t)b.len + 16; /* zstd produces fewer bytes than promised */
  tb_chunk(t, CP_PQ_CODEC_ZSTD);
  tb_page(t, &h, b.data, b.len);
  cp_buf_free(&b);
}

static void w_too_many_entries(tb *t) {
  w_good(t);
  tb_meta(t)->num_values = 3; /* the chunk says 3 entries, its page holds 6 */
}

static void w_too_few_entries(tb *t) {
  w_good(t);
  tb_meta(t)->num_values = 12; /* the chunk says 12 entries, its one page holds 6 */
  t->rgs[t->num_rgs - 1].num_rows = 12;
}

/* 8 MiB of zeros compress to a few hundred bytes of zstd. */
static void w_bomb(tb *t) {
  size_t n = 8 << 20;
  uint8_t *z = calloc(n, 1);
  memcpy(z, (const uint8_t[]){0x02, 0x00, 0x00, 0x00, 0x0C, 0x01}, 6);
  tb_chunk(t, CP_PQ_CODEC_ZSTD);
  tb_data_page(t, 6, CP_PQ_ENC_PLAIN, z, n);
  free(z);
}

static void w_huge_claim(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = 6;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.uncompressed_page_size = INT32_MAX; /* would be a 2 GiB allocation */
  tb_chunk(t, CP_PQ_CODEC_ZSTD);
  tb_page(t, &h, b.data, b.len);
  cp_buf_free(&b);
}

static void w_many_entries(tb *t) {
  /* 1 << 30 entries from a 6-byte RLE run: refused by the entries-per-page limit. */
  static const uint8_t body[] = {0x02, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00};
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(t, 1 << 30, CP_PQ_ENC_PLAIN, body, sizeof body);
  tb_meta(t)->num_values = 1 << 30;
}

static void w_dict_index_page(tb *t) { /* dictionary-encoded data without a dictionary page */
  static const uint8_t body[] = {0x02, 0x00, 0x00, 0x00, 0x0C, 0x01, 0x01, 0x0C, 0x00};
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(t, 6, CP_PQ_ENC_RLE_DICTIONARY, body, sizeof body);
}

static void w_bad_encoding(tb *t) {
  cp_buf b = CP_BUF_INIT;
  good_body(&b);
  tb_chunk(t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(t, 6, CP_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY, b.data, b.len); /* not for INT32 */
  cp_buf_free(&b);
}

static void test_malformed_pages(void) {
  paimon_error err = {0};
  CHECK_OK(read_broken(w_good, NULL, &err), &err);
  static const struct {
    page_writer w;
    int code;
    const char *says;
  } cases[] = {
      {w_bad_level, PAIMON_ECORRUPT, "definition levels"},
      {w_short_values, PAIMON_ECORRUPT, "PLAIN"},
      {w_stored_size_lies, PAIMON_ECORRUPT, "pass the end of the column chunk"},
      {w_uncompressed_size_lies, PAIMON_ECORRUPT, "zstd"},
      {w_too_many_entries, PAIMON_ECORRUPT, "level entries"},
      {w_too_few_entries, PAIMON_ECORRUPT, "ends after 6 of its 12 level entries"},
      {w_huge_claim, PAIMON_ECORRUPT, "above the limit"},
      {w_many_entries, PAIMON_ECORRUPT, "level entries"},
      {w_dict_index_page, PAIMON_ECORRUPT, "no dictionary page"},
      {w_bad_encoding, PAIMON_EUNSUPPORTED, "DELTA_LENGTH_BYTE_ARRAY"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    paimon_error_clear(&err);
    int rc = read_broken(cases[i].w, NULL, &err);
    if (rc != cases[i].code) fprintf(stderr, "  case %zu: %s\n", i, err.message);
    CHECK_INT(rc, cases[i].code);
    CHECK_CONTAINS(err.message, cases[i].says);
    CHECK_CONTAINS(err.message, "cpaimon_test_reader_broken.parquet");
    CHECK_CONTAINS(err.message, "column 'v'");
    CHECK_CONTAINS(err.message, "offset");
  }
  /* The bomb is refused by the page size limit before anything is decompressed... */
  cp_pq_reader_options o = {0};
  o.limits.max_page_size = 1 << 20;
  CHECK_INT(read_broken(w_bomb, &o, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "above the limit of 1048576 bytes");
  /* ... and within the default limit it is just a big page whose values section is garbage. */
  CHECK_INT(read_broken(w_bomb, NULL, &err), 0);
}

/* ---- the file level ---------------------------------------------------------------------------
 */

static void test_bad_files(void) {
  const char *path = tmp_path("good");
  write_spec_example(path, CP_PQ_CODEC_UNCOMPRESSED);
  paimon_error err = {0};
  cp_buf whole = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(g_fs, path, &whole, 1 << 20, &err), &err);
  const char *bad = tmp_path("badfile");
  cp_pq_reader *r = NULL;
  /* truncated: the first 20 bytes */
  CHECK_OK(cp_fs_write_file(g_fs, bad, whole.data, 20, CP_CREATE_OVERWRITE, false, &err), &err);
  CHECK_INT(cp_pq_reader_open(&r, g_fs, bad, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, bad);
  /* wrong magic at the end */
  whole.data[whole.len - 1] = 'X';
  CHECK_OK(cp_fs_write_file(g_fs, bad, whole.data, whole.len, CP_CREATE_OVERWRITE, false, &err),
           &err);
  CHECK_INT(cp_pq_reader_open(&r, g_fs, bad, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "PAR1");
  whole.data[whole.len - 1] = '1';
  /* footer length past the file */
  uint32_t huge = 1u << 30;
  memcpy(whole.data + whole.len - 8, &huge, 4);
  CHECK_OK(cp_fs_write_file(g_fs, bad, whole.data, whole.len, CP_CREATE_OVERWRITE, false, &err),
           &err);
  CHECK_INT(cp_pq_reader_open(&r, g_fs, bad, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "footer length");
  CHECK(r == NULL);
  /* a missing file */
  CHECK_INT(cp_pq_reader_open(&r, g_fs, tmp_path("does_not_exist"), NULL, &err), PAIMON_ENOTFOUND);
  cp_buf_free(&whole);
}

/* Reading fails cleanly when the file system does (fault injected into the first page read). */
static void test_io_fault(void) {
  const char *path = tmp_path("fault");
  write_spec_example(path, CP_PQ_CODEC_UNCOMPRESSED);
  paimon_error err = {0};
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, path, NULL, &err), &err);
  cp_fs_inject_fault(g_fs, CP_FS_OP_READ, 1, PAIMON_EIO);
  struct ArrowArray batch;
  bool eof;
  CHECK_INT(cp_pq_reader_next(r, &batch, NULL, &eof, &err), PAIMON_EIO);
  CHECK(batch.release == NULL);
  CHECK_CONTAINS(err.message, path);
  cp_pq_reader_free(r);
  cp_fs_inject_fault(g_fs, CP_FS_OP_READ, 0, 0);
}

/* ---- rows across pages, page skipping, v2 pages ------------------------------------------------
 */

/* ARRAY<FLOAT> whose second row starts in page 1 and continues in page 2 (rep 1 first), as a
 * writer that splits rows between v1 pages would write it (§3.3). Rows: [1], [2, 3], [4]. */
static void test_row_across_pages(void) {
  list_schema();
  tb t;
  tb_init(&t, k_list_schema, 4);
  tb_row_group(&t, 3);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  paimon_error err = {0};
  static const int16_t rep1[] = {0, 0}, def1[] = {3, 3}, rep2[] = {1, 0}, def2[] = {3, 3};
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&b, rep1, 2, 1, 1, &err), &err);
  CHECK_OK(cp_pq_levels_encode(&b, def1, 2, 3, 1, &err), &err);
  float v1[] = {1, 2};
  cp_buf_append(&b, v1, sizeof v1, NULL);
  tb_data_page(&t, 2, CP_PQ_ENC_PLAIN, b.data, b.len);
  b.len = 0;
  CHECK_OK(cp_pq_levels_encode(&b, rep2, 2, 1, 1, &err), &err);
  CHECK_OK(cp_pq_levels_encode(&b, def2, 2, 3, 1, &err), &err);
  float v2[] = {3, 4};
  cp_buf_append(&b, v2, sizeof v2, NULL);
  tb_data_page(&t, 2, CP_PQ_ENC_PLAIN, b.data, b.len);
  cp_buf_free(&b);
  const char *path = tmp_path("across");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  static const int64_t sizes[] = {1, 2, 3};
  for (int i = 0; i < 3; i++) {
    cp_pq_reader_options o = {0};
    o.batch_size = sizes[i];
    cp_buf out = CP_BUF_INIT;
    int64_t rows;
    CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
    CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
    CHECK_STR((const char *)out.data, "{\"f\":[1.0]}\n{\"f\":[2.0,3.0]}\n{\"f\":[4.0]}\n");
    cp_buf_free(&out);
  }
  cp_pq_row_range ranges[] = {{0, 1}, {2, 3}};
  cp_pq_reader_options o = {0};
  o.row_ranges = ranges;
  o.num_row_ranges = 2;
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"f\":[1.0]}\n{\"f\":[4.0]}\n");
  cp_buf_free(&out);
}

/* A REQUIRED INT64 column in four pages of ten rows (value = row); the third page's stored bytes
 * are garbage, so reading it fails, and skipping it without decompressing succeeds. */
static void test_page_skipping(void) {
  cp_pq_schema_element e[2] = {tb_group("schema", -1, 1),
                               tb_leaf("x", CP_PQ_REQUIRED, CP_PQ_INT64)};
  tb t;
  tb_init(&t, e, 2);
  tb_row_group(&t, 40);
  tb_chunk(&t, CP_PQ_CODEC_ZSTD);
  for (int64_t p = 0; p < 4; p++) {
    int64_t v[10];
    for (int i = 0; i < 10; i++) v[i] = p * 10 + i;
    if (p != 2) {
      tb_data_page(&t, 10, CP_PQ_ENC_PLAIN, v, sizeof v);
      continue;
    }
    cp_pq_page_header h;
    memset(&h, 0, sizeof h);
    h.type = CP_PQ_PAGE_DATA;
    h.has_data_page_header = true;
    h.data_page_header.num_values = 10;
    h.uncompressed_page_size = 80;
    memset(v, 0xAB, sizeof v);
    t.codec = CP_PQ_CODEC_UNCOMPRESSED; /* store the garbage as is */
    h.compressed_page_size = 80;
    tb_page(&t, &h, v, sizeof v);
    t.codec = CP_PQ_CODEC_ZSTD;
  }
  const char *path = tmp_path("skip");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  paimon_error err = {0};
  int64_t rows;
  CHECK_INT(rt_read_all(g_fs, path, NULL, &rows, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "column 'x'");
  cp_pq_row_range ranges[] = {{3, 5}, {12, 13}, {30, 33}, {38, 100}};
  cp_pq_reader_options o = {0};
  o.row_ranges = ranges;
  o.num_row_ranges = 4;
  o.batch_size = 4;
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_INT(rows, 8);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"x\":3}\n{\"x\":4}\n{\"x\":12}\n{\"x\":30}\n{\"x\":31}\n"
                                    "{\"x\":32}\n{\"x\":38}\n{\"x\":39}\n");
  cp_buf_free(&out);
  /* Bad ranges are refused. */
  cp_pq_row_range unsorted[] = {{5, 6}, {1, 2}};
  o.row_ranges = unsorted;
  o.num_row_ranges = 2;
  CHECK_INT(rt_read_all(g_fs, path, &o, &rows, NULL, &err), PAIMON_EINVAL);
}

/* DATA_PAGE_V2: uncompressed levels before zstd values; a nested column whose first page is
 * passed over using the header's num_rows; an all-null page with no value bytes (P19). */
static void test_data_page_v2(void) {
  list_schema();
  tb t;
  tb_init(&t, k_list_schema, 4);
  tb_row_group(&t, 4);
  tb_chunk(&t, CP_PQ_CODEC_ZSTD);
  paimon_error err = {0};
  static const int16_t rep[][3] = {{0, 1, 0}, {0, 0, 0}};
  static const int16_t def[][3] = {{3, 3, 3}, {0, 2, 1}};
  static const float vals[] = {1, 2, 3};
  for (int p = 0; p < 2; p++) {
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_pq_levels_encode(&b, rep[p], 3, 1, 0, &err), &err);
    size_t rl = b.len;
    CHECK_OK(cp_pq_levels_encode(&b, def[p], 3, 3, 0, &err), &err);
    size_t dl = b.len - rl;
    if (p == 0) cp_buf_append(&b, vals, sizeof vals, NULL);
    cp_pq_page_header h;
    memset(&h, 0, sizeof h);
    h.type = CP_PQ_PAGE_DATA_V2;
    h.has_data_page_header_v2 = true;
    cp_pq_data_page_header_v2 *d = &h.data_page_header_v2;
    d->num_values = 3;
    d->num_rows = p == 0 ? 2 : 3;
    d->num_nulls = p == 0 ? 0 : 3;
    d->encoding = CP_PQ_ENC_PLAIN;
    d->repetition_levels_byte_length = (int32_t)rl;
    d->definition_levels_byte_length = (int32_t)dl;
    d->is_compressed = true;
    tb_page(&t, &h, b.data, b.len);
    cp_buf_free(&b);
  }
  tb_meta(&t)->num_values = 6;
  t.rgs[0].num_rows = 5;
  const char *path = tmp_path("v2");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"f\":[1.0,2.0]}\n{\"f\":[3.0]}\n{\"f\":null}\n{\"f\":[null]}\n{\"f\":[]}\n");
  cp_buf_free(&out);
  cp_pq_row_range range = {2, 4};
  cp_pq_reader_options o = {0};
  o.row_ranges = &range;
  o.num_row_ranges = 1;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"f\":null}\n{\"f\":[null]}\n");
  cp_buf_free(&out);
}

/* The deprecated BIT_PACKED level encoding (Encodings.md: values packed from the most significant
 * bit, no length prefix): a { b { c } }, all OPTIONAL, max_def 3 (2 bits). Definition levels
 * 3 2 1 0 3 3 0 0 pack MSB-first as 11 10 01 00 | 11 11 00 00 = 0xE4 0xF0. */
static void test_bit_packed_levels(void) {
  cp_pq_schema_element e[4] = {tb_group("schema", -1, 1), tb_group("a", CP_PQ_OPTIONAL, 1),
                               tb_group("b", CP_PQ_OPTIONAL, 1),
                               tb_leaf("c", CP_PQ_OPTIONAL, CP_PQ_INT32)};
  tb t;
  tb_init(&t, e, 4);
  tb_row_group(&t, 8);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  cp_buf b = CP_BUF_INIT;
  static const uint8_t levels[] = {0xE4, 0xF0};
  cp_buf_append(&b, levels, sizeof levels, NULL);
  tb_put_le32(&b, 7);
  tb_put_le32(&b, 8);
  tb_put_le32(&b, 9);
  cp_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.has_data_page_header = true;
  h.data_page_header.num_values = 8;
  h.data_page_header.encoding = CP_PQ_ENC_PLAIN;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_BIT_PACKED;
  h.data_page_header.repetition_level_encoding = CP_PQ_ENC_BIT_PACKED;
  tb_page(&t, &h, b.data, b.len);
  cp_buf_free(&b);
  const char *path = tmp_path("bitpacked");
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"a\":{\"b\":{\"c\":7}}}\n{\"a\":{\"b\":{\"c\":null}}}\n{\"a\":{\"b\":null}}\n"
            "{\"a\":null}\n{\"a\":{\"b\":{\"c\":8}}}\n{\"a\":{\"b\":{\"c\":9}}}\n"
            "{\"a\":null}\n{\"a\":null}\n");
  cp_buf_free(&out);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err)) return 2;
  RUN(test_spec_worked_example);
  RUN(test_spec_example_batches);
  RUN(test_struct_levels);
  RUN(test_dictionary);
  RUN(test_malformed_pages);
  RUN(test_bad_files);
  RUN(test_io_fault);
  RUN(test_row_across_pages);
  RUN(test_page_skipping);
  RUN(test_data_page_v2);
  RUN(test_bit_packed_levels);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
