/*
 * Tests for src/format/avro/container.c and container_write.c: round trips through every codec,
 * the header layout, a real pypaimon 2.1.0 manifest list (pypaimon_files.h), reading through a
 * reader schema, raw block copying, file I/O through cp_fs, and every corruption the reader must
 * refuse with a message naming the file and offset: bad magic, truncation at every length, wrong
 * sync, lying block counts, bad snappy CRC, decompression bombs, unsupported codecs.
 */
#include <stdlib.h>
#include <unistd.h>

#include "format/avro/container.h"
#include "pypaimon_files.h"
#include "test.h"

static const char schema_text[] =
    "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
    "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null},"
    "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}}]}";

static const uint8_t fixed_sync[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2,  3,  4,
                                       5,    6,    7,    8,    9, 10, 11, 12};

static cp_avro_schema *parse(const char *text) {
  cp_avro_schema *s = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_schema_parse(&s, text, strlen(text), NULL, &err), &err);
  return s;
}

/* Row i: id = i * 1000003, name = null for multiples of 3 else "name-<i>", tags = i % 4 strings. */
typedef struct row_storage {
  char name[32];
  char tag_text[4][16];
  cp_avro_value name_str, tags[4], fields[3], rec;
} row_storage;

static const cp_avro_value *make_row(row_storage *st, long i) {
  static cp_avro_value null_value = {.type = CP_AVRO_NULL};
  st->fields[0] = cp_avro_long(i * 1000003);
  snprintf(st->name, sizeof st->name, "name-%ld", i);
  st->name_str = cp_avro_string(st->name);
  st->fields[1] = i % 3 == 0 ? cp_avro_branch(0, &null_value) : cp_avro_branch(1, &st->name_str);
  for (int t = 0; t < i % 4; t++) {
    snprintf(st->tag_text[t], sizeof st->tag_text[t], "t%d", t);
    st->tags[t] = cp_avro_string(st->tag_text[t]);
  }
  st->fields[2] = cp_avro_null();
  st->fields[2].type = CP_AVRO_ARRAY;
  st->fields[2].u.array.items = st->tags;
  st->fields[2].u.array.count = (size_t)(i % 4);
  st->rec = cp_avro_null();
  st->rec.type = CP_AVRO_RECORD;
  st->rec.u.record.fields = st->fields;
  st->rec.u.record.count = 3;
  return &st->rec;
}

static int write_rows(const cp_avro_schema *s, const char *codec, size_t sync_interval, long n,
                      cp_buf *out) {
  cp_avro_writer_options o = {
      .codec = codec, .sync_interval = sync_interval, .sync_marker = fixed_sync};
  cp_avro_writer *w = NULL;
  paimon_error err = {0};
  int rc = cp_avro_writer_new_mem(&w, "rows.avro", s, &o, &err);
  CHECK_OK(rc, &err);
  for (long i = 0; !rc && i < n; i++) {
    row_storage st;
    rc = cp_avro_writer_append(w, make_row(&st, i), &err);
    CHECK_OK(rc, &err);
  }
  if (!rc) {
    CHECK_INT(cp_avro_writer_count(w), n);
    rc = cp_avro_writer_finish(w, out, &err);
    CHECK_OK(rc, &err);
    CHECK_INT(cp_avro_writer_bytes(w), out->len);
  }
  cp_avro_writer_free(w);
  return rc;
}

/* Reads every record and checks it against make_row; returns the number of blocks. */
static size_t read_rows(const cp_buf *file, long n, const cp_avro_reader_options *opts) {
  cp_avro_reader *r = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_reader_open_mem(&r, "rows.avro", file->data, file->len, opts, &err), &err);
  if (!r) return 0;
  long i = 0;
  size_t blocks = 0;
  for (;;) {
    cp_avro_block b;
    bool has;
    CHECK_OK(cp_avro_reader_next_block(r, &b, &has, &err), &err);
    if (!has || err.code) break;
    CHECK_INT(b.index, blocks);
    blocks++;
    for (size_t k = 0; k < b.count; k++, i++) {
      row_storage st;
      CHECK(cp_avro_value_equal(&b.records[k], make_row(&st, i)));
    }
  }
  CHECK_INT(i, n);
  cp_avro_reader_free(r);
  return blocks;
}

static void test_round_trip_every_codec(void) {
  cp_avro_schema *s = parse(schema_text);
  if (!s) return;
  const char *codecs[] = {"null", "deflate", "snappy", "zstandard"};
  for (size_t c = 0; c < 4; c++) {
    cp_buf file = CP_BUF_INIT;
    if (write_rows(s, codecs[c], 200, 1000, &file) == 0) {
      size_t blocks = read_rows(&file, 1000, NULL);
      CHECK(blocks > 10); /* a 200-byte sync interval splits 1000 rows into many blocks */
      cp_avro_reader *r = NULL;
      CHECK_OK(cp_avro_reader_open_mem(&r, "x", file.data, file.len, NULL, NULL), NULL);
      if (r) CHECK_STR(cp_avro_reader_codec(r), codecs[c]);
      cp_avro_reader_free(r);
    }
    cp_buf_free(&file);
  }
  /* The default interval (16000 bytes) makes one block of 100 small rows; an empty file has
   * none. */
  cp_buf file = CP_BUF_INIT;
  if (write_rows(s, "zstandard", 0, 100, &file) == 0) CHECK_INT(read_rows(&file, 100, NULL), 1);
  cp_buf_free(&file);
  if (write_rows(s, NULL, 0, 0, &file) == 0) CHECK_INT(read_rows(&file, 0, NULL), 0);
  cp_buf_free(&file);
  cp_avro_schema_free(s);
}

static void test_header_layout(void) {
  cp_avro_schema *s = parse("\"long\"");
  if (!s) return;
  cp_avro_meta_entry extra = {"paimon.note", "hi", 2};
  cp_avro_writer_options o = {.sync_marker = fixed_sync, .meta = &extra, .n_meta = 1};
  cp_avro_writer *w = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_writer_new_mem(&w, "h", s, &o, &err), &err);
  if (!w) return;
  cp_avro_value v = cp_avro_long(-1);
  CHECK_OK(cp_avro_writer_append(w, &v, &err), &err);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_writer_finish(w, &out, &err), &err);
  CHECK_ERR(cp_avro_writer_append(w, &v, &err), PAIMON_ESTATE);
  cp_avro_writer_free(w);
  /* Spelled out from the specification: magic; map of 3 entries; "avro.schema" -> "\"long\"";
   * "avro.codec" -> "null"; "paimon.note" -> "hi"; end of map; sync; block: count 1, size 1,
   * datum 01, sync. */
  cp_buf want = CP_BUF_INIT;
  cp_buf_append(&want, "Obj\x01\x06", 5, NULL);
  cp_buf_append(&want,
                "\x16"
                "avro.schema"
                "\x0c\"long\"",
                19, NULL);
  cp_buf_append(&want,
                "\x14"
                "avro.codec"
                "\x08null",
                16, NULL);
  cp_buf_append(&want,
                "\x16"
                "paimon.note"
                "\x04hi",
                15, NULL);
  cp_buf_append(&want, "\x00", 1, NULL);
  cp_buf_append(&want, fixed_sync, 16, NULL);
  cp_buf_append(&want, "\x02\x02\x01", 3, NULL);
  cp_buf_append(&want, fixed_sync, 16, NULL);
  CHECK_INT(out.len, want.len);
  CHECK(out.len == want.len && memcmp(out.data, want.data, want.len) == 0);

  cp_avro_reader *r = NULL;
  CHECK_OK(cp_avro_reader_open_mem(&r, "h", out.data, out.len, NULL, &err), &err);
  if (r) {
    const uint8_t *val;
    size_t len;
    CHECK(cp_avro_reader_meta_get(r, "paimon.note", &val, &len) && len == 2 &&
          memcmp(val, "hi", 2) == 0);
    CHECK(!cp_avro_reader_meta_get(r, "missing", &val, &len));
    CHECK_INT(cp_avro_reader_meta_count(r), 3);
    CHECK(memcmp(cp_avro_reader_sync(r), fixed_sync, 16) == 0);
    const cp_avro_value *rec;
    CHECK_OK(cp_avro_reader_next(r, &rec, &err), &err);
    CHECK(rec && rec->u.i64 == -1);
    CHECK_OK(cp_avro_reader_next(r, &rec, &err), &err);
    CHECK(rec == NULL);
  }
  cp_avro_reader_free(r);
  /* Reserved metadata keys and unknown codecs are refused when the writer is created. */
  cp_avro_meta_entry reserved = {"avro.codec", "x", 1};
  cp_avro_writer_options bad = {.meta = &reserved, .n_meta = 1};
  CHECK_ERR(cp_avro_writer_new_mem(&w, "h", s, &bad, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'avro.codec' is reserved");
  cp_avro_writer_options bz = {.codec = "bzip2"};
  CHECK_ERR(cp_avro_writer_new_mem(&w, "h", s, &bz, &err), PAIMON_EUNSUPPORTED);
  /* Random sync markers differ between writers. */
  cp_avro_writer *w1 = NULL, *w2 = NULL;
  cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
  CHECK_OK(cp_avro_writer_new_mem(&w1, "a", s, NULL, NULL), NULL);
  CHECK_OK(cp_avro_writer_new_mem(&w2, "b", s, NULL, NULL), NULL);
  if (w1 && w2) {
    cp_avro_writer_finish(w1, &a, NULL);
    cp_avro_writer_finish(w2, &b, NULL);
    CHECK(a.len == b.len && memcmp(a.data + a.len - 16, b.data + b.len - 16, 16) != 0);
  }
  cp_avro_writer_free(w1);
  cp_avro_writer_free(w2);
  cp_buf_free(&a);
  cp_buf_free(&b);
  cp_buf_free(&out);
  cp_buf_free(&want);
  cp_avro_schema_free(s);
}

static void test_pypaimon_manifest_list(void) {
  cp_avro_reader *r = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_reader_open_mem(&r, "manifest-list", pypaimon_manifest_list,
                                   sizeof pypaimon_manifest_list, NULL, &err),
           &err);
  if (!r) return;
  CHECK_STR(cp_avro_reader_codec(r), "zstandard");
  const cp_avro_node *root = cp_avro_reader_record_schema(r);
  CHECK_STR(root->name, "ManifestFileMeta");
  const cp_avro_value *rec;
  CHECK_OK(cp_avro_reader_next(r, &rec, &err), &err);
  if (rec) {
    const cp_avro_value *f = rec->u.record.fields;
    CHECK_INT(f[0].u.i32, 2);
    CHECK_STR((const char *)f[1].u.bytes.data, "manifest-2e7f14c8-6121-4cde-87bd-e00bf31c3afb-0");
    CHECK_INT(f[2].u.i64, 2322);
    CHECK_INT(f[3].u.i64, 1);
    CHECK_INT(f[4].u.i64, 0);
    const cp_avro_value *stats = f[5].u.record.fields;
    CHECK_INT(stats[0].u.bytes.len, 12);
    CHECK_INT(cp_avro_value_unwrap(&stats[2])->u.array.count, 0);
    CHECK_INT(cp_avro_value_unwrap(&f[11])->u.i64, 0); /* _MIN_ROW_ID */
    CHECK(cp_avro_value_is_null(&f[13]));              /* _TOTAL_BUCKETS */
    CHECK(cp_avro_value_is_null(&f[14]));              /* _EXTRA_FILES */
  }
  CHECK_OK(cp_avro_reader_next(r, &rec, &err), &err);
  CHECK(rec == NULL);
  cp_avro_reader_free(r);
}

static void test_reader_schema_and_retained_records(void) {
  cp_avro_schema *s = parse(schema_text);
  cp_avro_schema *rs = parse("{\"type\":\"record\",\"name\":\"Other\",\"fields\":["
                             "{\"name\":\"name\",\"type\":[\"null\",\"string\"]},"
                             "{\"name\":\"id\",\"type\":\"double\"},"
                             "{\"name\":\"extra\",\"type\":\"int\",\"default\":7}]}");
  if (!s || !rs) goto out;
  cp_buf file = CP_BUF_INIT;
  if (write_rows(s, "deflate", 100, 300, &file) == 0) {
    cp_avro_reader_options o = {.reader_schema = cp_avro_schema_root(rs), .retain_records = true};
    cp_avro_reader *r = NULL;
    paimon_error err = {0};
    CHECK_OK(cp_avro_reader_open_mem(&r, "rows", file.data, file.len, &o, &err), &err);
    if (r) {
      CHECK(cp_avro_reader_record_schema(r) == cp_avro_schema_root(rs));
      const cp_avro_value *all[300];
      size_t n = 0;
      const cp_avro_value *rec;
      while (n < 300 && cp_avro_reader_next(r, &rec, &err) == 0 && rec) all[n++] = rec;
      CHECK_INT(n, 300);
      /* Records of the first blocks are still intact after all blocks were read. */
      for (size_t i = 0; i < n; i++) {
        CHECK(all[i]->u.record.fields[1].u.f64 == (double)(i * 1000003));
        CHECK_INT(all[i]->u.record.fields[2].u.i32, 7);
        CHECK(cp_avro_value_is_null(&all[i]->u.record.fields[0]) == (i % 3 == 0));
      }
    }
    cp_avro_reader_free(r);
    /* A reader schema that cannot be satisfied fails at open, naming the file. */
    cp_avro_schema *bad = parse("{\"type\":\"record\",\"name\":\"B\",\"fields\":[{\"name\":"
                                "\"must\",\"type\":\"int\"}]}");
    cp_avro_reader_options ob = {.reader_schema = bad ? cp_avro_schema_root(bad) : NULL};
    if (bad) {
      CHECK_ERR(cp_avro_reader_open_mem(&r, "rows", file.data, file.len, &ob, &err), PAIMON_EINVAL);
      CHECK_CONTAINS(err.message, "rows: reader schema does not match the file's: field must:");
    }
    cp_avro_schema_free(bad);
  }
  cp_buf_free(&file);
out:
  cp_avro_schema_free(s);
  cp_avro_schema_free(rs);
}

static void test_raw_block_copy(void) {
  cp_avro_schema *s = parse(schema_text);
  if (!s) return;
  cp_buf src = CP_BUF_INIT, dst = CP_BUF_INIT;
  if (write_rows(s, "zstandard", 300, 200, &src) == 0) {
    cp_avro_reader *r = NULL;
    cp_avro_writer *w = NULL;
    cp_avro_writer_options o = {.codec = "snappy", .sync_interval = 1 << 20};
    CHECK_OK(cp_avro_reader_open_mem(&r, "src", src.data, src.len, NULL, NULL), NULL);
    CHECK_OK(cp_avro_writer_new_mem(&w, "dst", s, &o, NULL), NULL);
    cp_avro_block b;
    bool has = r && w;
    while (has && cp_avro_reader_next_raw_block(r, &b, &has, NULL) == 0 && has) {
      CHECK(b.records == NULL);
      CHECK_OK(cp_avro_writer_append_encoded(w, b.data, b.len, b.count, NULL), NULL);
    }
    if (w) CHECK_OK(cp_avro_writer_finish(w, &dst, NULL), NULL);
    cp_avro_writer_free(w);
    cp_avro_reader_free(r);
    CHECK_INT(read_rows(&dst, 200, NULL), 1);
  }
  cp_buf_free(&src);
  cp_buf_free(&dst);
  cp_avro_schema_free(s);
}

static void test_file_io(void) {
  cp_avro_schema *s = parse(schema_text);
  cp_fs *fs = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  if (!s || !fs) goto out;
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512];
  snprintf(path, sizeof path, "%s/avro-test-%d.avro", tmp, (int)getpid());
  cp_wfile *f = NULL;
  CHECK_OK(cp_fs_create(fs, path, CP_CREATE_OVERWRITE, &f, &err), &err);
  if (!f) goto out;
  cp_avro_writer *w = NULL;
  cp_avro_writer_options o = {.codec = "zstandard", .level = 3, .sync_interval = 500};
  CHECK_OK(cp_avro_writer_new_file(&w, f, path, s, &o, &err), &err);
  for (long i = 0; w && i < 400; i++) {
    row_storage st;
    CHECK_OK(cp_avro_writer_append(w, make_row(&st, i), &err), &err);
  }
  if (w) {
    CHECK(cp_avro_writer_bytes(w) > 0);
    CHECK_OK(cp_avro_writer_finish(w, NULL, &err), &err);
    CHECK_INT(cp_avro_writer_bytes(w), cp_wfile_pos(f));
  }
  cp_avro_writer_free(w);
  CHECK_OK(cp_wfile_close(f, &err), &err);
  cp_avro_reader *r = NULL;
  CHECK_OK(cp_avro_reader_open_file(&r, fs, path, NULL, &err), &err);
  size_t n = 0;
  const cp_avro_value *rec;
  while (r && cp_avro_reader_next(r, &rec, &err) == 0 && rec) {
    row_storage st;
    CHECK(cp_avro_value_equal(rec, make_row(&st, (long)n)));
    n++;
  }
  CHECK_INT(n, 400);
  cp_avro_reader_free(r);
  cp_avro_reader_options small = {.max_file_bytes = 64};
  CHECK_ERR(cp_avro_reader_open_file(&r, fs, path, &small, &err), PAIMON_EINVAL);
  CHECK(r == NULL);
  cp_fs_delete(fs, path, NULL);
  CHECK_ERR(cp_avro_reader_open_file(&r, fs, path, NULL, &err), PAIMON_ENOTFOUND);
out:
  cp_fs_free(fs);
  cp_avro_schema_free(s);
}

/* Opens and reads everything; returns the first error (0 if the whole file read cleanly). */
static int read_all(const uint8_t *data, size_t len, const cp_avro_reader_options *o,
                    paimon_error *err) {
  cp_avro_reader *r = NULL;
  int rc = cp_avro_reader_open_mem(&r, "bad.avro", data, len, o, err);
  const cp_avro_value *rec = NULL;
  while (!rc && (rc = cp_avro_reader_next(r, &rec, err)) == 0 && rec) {
  }
  if (rc && r) {
    paimon_error again = {0};
    CHECK_ERR(cp_avro_reader_next(r, &rec, &again), PAIMON_ESTATE);
  }
  cp_avro_reader_free(r);
  return rc;
}

/* The offset of the first block: right after the header's sync marker. */
static size_t first_block(const cp_buf *f) {
  for (size_t i = 4; i + 16 <= f->len; i++)
    if (memcmp(f->data + i, fixed_sync, 16) == 0) return i + 16;
  return 0;
}

static void test_corruptions(void) {
  cp_avro_schema *s = parse(schema_text);
  if (!s) return;
  cp_buf f = CP_BUF_INIT;
  paimon_error err = {0};
  if (write_rows(s, "null", 100000, 20, &f) != 0) goto out;
  size_t b0 = first_block(&f);
  char where[64];
  snprintf(where, sizeof where, "bad.avro: block 0 at offset %zu: ", b0);

  CHECK_ERR(read_all((const uint8_t *)"Obj\x02rest", 8, NULL, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "bad.avro: not an Avro container file (bad magic at offset 0)");
  CHECK_ERR(read_all(f.data, 2, NULL, &err), PAIMON_ECORRUPT);

  /* Every truncation fails cleanly, except the one that leaves exactly the header: that is a
   * valid file with no blocks. */
  for (size_t len = 0; len < f.len; len++) {
    int rc = read_all(f.data, len, NULL, &err);
    CHECK(rc == (len == b0 ? 0 : PAIMON_ECORRUPT));
    if (len == b0) continue;
    if (len > b0)
      CHECK_CONTAINS(err.message, where);
    else
      CHECK_CONTAINS(err.message, "bad.avro: ");
  }

  /* Wrong sync marker after the block. */
  cp_buf g = CP_BUF_INIT;
  cp_buf_append(&g, f.data, f.len, NULL);
  g.data[g.len - 3] ^= 0xff;
  CHECK_ERR(read_all(g.data, g.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, where);
  CHECK_CONTAINS(err.message, "sync marker mismatch");

  /* Lying counts: 20 records written; claim 21, then 19, then a billion. */
  cp_buf_clear(&g);
  cp_buf_append(&g, f.data, f.len, NULL);
  CHECK_INT(g.data[b0], 40); /* zigzag(20) in one byte */
  g.data[b0] = 42;
  CHECK_ERR(read_all(g.data, g.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, where);
  CHECK_CONTAINS(err.message, "record 20: field id: at byte");
  g.data[b0] = 38;
  CHECK_ERR(read_all(g.data, g.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bytes left over after 19 records");
  cp_buf h = CP_BUF_INIT;
  cp_buf_append(&h, f.data, b0, NULL);
  cp_avro_write_long(&h, 1000000000, NULL);
  cp_buf_append(&h, f.data + b0 + 1, f.len - b0 - 1, NULL);
  CHECK_ERR(read_all(h.data, h.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "1000000000 records cannot fit in the block's");
  /* A block size past the end of the file. */
  cp_buf_clear(&h);
  cp_buf_append(&h, f.data, b0 + 1, NULL);
  cp_avro_write_long(&h, 1 << 30, NULL);
  CHECK_ERR(read_all(h.data, h.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "exceed the");
  cp_buf_free(&h);
  cp_buf_free(&g);
out:
  cp_buf_free(&f);
  cp_avro_schema_free(s);
}

static void test_snappy_crc_and_bomb(void) {
  cp_avro_schema *s = parse(schema_text);
  cp_avro_schema *blob = parse("\"bytes\"");
  if (!s || !blob) goto out;
  paimon_error err = {0};
  cp_buf f = CP_BUF_INIT;
  if (write_rows(s, "snappy", 100000, 50, &f) == 0) {
    f.data[f.len - 17] ^= 0x01; /* last byte of the CRC, just before the trailing sync */
    CHECK_ERR(read_all(f.data, f.len, NULL, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, "bad.avro: block 0 at offset ");
    CHECK_CONTAINS(err.message, "snappy CRC mismatch");
  }
  cp_buf_free(&f);
  /* 4 MiB of zeros compresses to a few hundred bytes; a 1 MiB bound must stop it. */
  const char *codecs[] = {"zstandard", "deflate", "snappy"};
  for (int c = 0; c < 3; c++) {
    cp_avro_writer *w = NULL;
    cp_avro_writer_options o = {.codec = codecs[c], .sync_marker = fixed_sync};
    CHECK_OK(cp_avro_writer_new_mem(&w, "bomb", blob, &o, &err), &err);
    if (!w) continue;
    uint8_t *zeros = calloc(1, 4 << 20);
    cp_avro_value v = cp_avro_bytes_of(CP_AVRO_BYTES, zeros, 4 << 20);
    CHECK_OK(cp_avro_writer_append(w, &v, &err), &err);
    CHECK_OK(cp_avro_writer_finish(w, &f, &err), &err);
    cp_avro_writer_free(w);
    free(zeros);
    CHECK(f.len < 300000);
    cp_avro_reader_options small = {.max_block_bytes = 1 << 20};
    CHECK_ERR(read_all(f.data, f.len, &small, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, "bad.avro: block 0 at offset ");
    CHECK_OK(read_all(f.data, f.len, NULL, &err), &err); /* within the default bound */
    cp_buf_free(&f);
  }
out:
  cp_avro_schema_free(s);
  cp_avro_schema_free(blob);
}

/* Builds a header by hand with the given schema text and codec. */
static void handmade(cp_buf *b, const char *schema, const char *codec) {
  cp_buf_clear(b);
  cp_buf_append(b, "Obj\x01", 4, NULL);
  cp_avro_write_long(b, codec ? 2 : 1, NULL);
  if (schema) {
    cp_avro_write_string(b, "avro.schema", NULL);
    cp_avro_write_string(b, schema, NULL);
  } else {
    cp_avro_write_string(b, "other", NULL);
    cp_avro_write_string(b, "x", NULL);
  }
  if (codec) {
    cp_avro_write_string(b, "avro.codec", NULL);
    cp_avro_write_string(b, codec, NULL);
  }
  cp_avro_write_long(b, 0, NULL);
  cp_buf_append(b, fixed_sync, 16, NULL);
}

static void test_bad_headers(void) {
  cp_buf b = CP_BUF_INIT;
  paimon_error err = {0};
  handmade(&b, "\"long\"", "bzip2");
  CHECK_ERR(read_all(b.data, b.len, NULL, &err), PAIMON_EUNSUPPORTED);
  CHECK_STR(err.message, "bad.avro: Avro codec 'bzip2' is not supported");
  handmade(&b, NULL, "null");
  CHECK_ERR(read_all(b.data, b.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bad.avro: header has no avro.schema");
  handmade(&b,
           "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"lng\"}]}",
           NULL);
  CHECK_ERR(read_all(b.data, b.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "bad.avro: avro.schema: field a: unknown type 'lng'");
  handmade(&b, "\"long\"", NULL); /* no codec: null; no blocks: an empty file */
  CHECK_OK(read_all(b.data, b.len, NULL, &err), &err);
  /* A metadata map claiming a billion entries. */
  cp_buf_clear(&b);
  cp_buf_append(&b, "Obj\x01", 4, NULL);
  cp_avro_write_long(&b, 1000000000, NULL);
  cp_buf_append(&b, "\x02x\x02y", 4, NULL);
  CHECK_ERR(read_all(b.data, b.len, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bad.avro: header: at byte 4");
  /* Header without its sync marker. */
  handmade(&b, "\"long\"", "null");
  CHECK_ERR(read_all(b.data, b.len - 1, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bad.avro: header: at byte");
  cp_buf_free(&b);
}

/* A deflate block followed by `extra` garbage bytes, as fastavro writes (zlib.compress()[2:-1]
 * leaves three bytes of the Adler-32 trailer after the raw stream). */
static void deflate_file(cp_buf *f, size_t extra) {
  cp_buf_clear(f);
  cp_buf_append(f, "Obj\x01\x04", 5, NULL);
  cp_avro_write_string(f, "avro.schema", NULL);
  cp_avro_write_string(f, "\"string\"", NULL);
  cp_avro_write_string(f, "avro.codec", NULL);
  cp_avro_write_string(f, "deflate", NULL);
  cp_avro_write_long(f, 0, NULL);
  cp_buf_append(f, fixed_sync, 16, NULL);
  cp_buf datum = CP_BUF_INIT, packed = CP_BUF_INIT;
  cp_avro_write_string(&datum, "hello hello hello", NULL);
  CHECK_OK(cp_compress(CP_CODEC_DEFLATE, 0, datum.data, datum.len, &packed, NULL), NULL);
  cp_avro_write_long(f, 1, NULL);
  cp_avro_write_long(f, (int64_t)(packed.len + extra), NULL);
  cp_buf_append(f, packed.data, packed.len, NULL);
  cp_buf_append(f, "\x5a\xa5\x5a\xa5\x5a", extra, NULL);
  cp_buf_append(f, fixed_sync, 16, NULL);
  cp_buf_free(&datum);
  cp_buf_free(&packed);
}

static void test_deflate_trailer_from_fastavro(void) {
  cp_buf f = CP_BUF_INIT;
  paimon_error err = {0};
  /* Bytes after the final deflate block are ignored, as Java's Inflater ignores them. */
  for (size_t extra = 0; extra <= 5; extra++) {
    deflate_file(&f, extra);
    cp_avro_reader *r = NULL;
    CHECK_OK(cp_avro_reader_open_mem(&r, "fa.avro", f.data, f.len, NULL, &err), &err);
    const cp_avro_value *rec = NULL;
    if (r) CHECK_OK(cp_avro_reader_next(r, &rec, &err), &err);
    CHECK(rec && rec->u.bytes.len == 17 && memcmp(rec->u.bytes.data, "hello hello hello", 17) == 0);
    cp_avro_reader_free(r);
  }
  cp_buf_free(&f);
}

int main(void) {
  RUN(test_round_trip_every_codec);
  RUN(test_header_layout);
  RUN(test_pypaimon_manifest_list);
  RUN(test_reader_schema_and_retained_records);
  RUN(test_raw_block_copy);
  RUN(test_file_io);
  RUN(test_corruptions);
  RUN(test_snappy_crc_and_bomb);
  RUN(test_bad_headers);
  RUN(test_deflate_trailer_from_fastavro);
  TEST_MAIN_END();
}
