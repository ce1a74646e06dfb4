/* Tests of the `.blob` file reader (src/format/blob/blob_file.h, spec/maintenance-and-blob.md
 * §5.3): the spec's worked example byte for byte, NULL and placeholder rows, an index larger than
 * the first read, every kind of corruption named, payloads read back through cp_fs, records
 * streamed in pieces, and BlobDescriptor bytes (§5.4). Files
 * pypaimon writes are read in tests/python/test_blob_read.py. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/codec.h"
#include "base/fs.h"
#include "format/blob/blob_file.h"
#include "test.h"

/* The spec's worked example: rows [b"hi", NULL, b""], Java's CRC form. */
static const uint8_t EXAMPLE[] = {0xcf, 0x11, 0x4e, 0x58, 0x68, 0x69, 0x12, 0x00, 0x00, 0x00, 0x00,
                                  0x00, 0x00, 0x00, 0xdf, 0xb7, 0x35, 0x3b, 0xcf, 0x11, 0x4e, 0x58,
                                  0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x53, 0x7f, 0xdf,
                                  0x03, 0x24, 0x25, 0x22, 0x03, 0x00, 0x00, 0x00, 0x01};

static void put_le(cp_buf *b, uint64_t v, int n) {
  uint8_t bytes[8];
  for (int i = 0; i < n; i++) bytes[i] = (uint8_t)(v >> (8 * i));
  cp_buf_append(b, bytes, (size_t)n, NULL);
}

static void put_varint(cp_buf *b, int64_t v) {
  uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
  do {
    uint8_t byte = z & 0x7f;
    z >>= 7;
    if (z) byte |= 0x80;
    cp_buf_append(b, &byte, 1, NULL);
  } while (z);
}

/* A file of `n` rows: payload i is `lens[i]` bytes of value i (lens -1 NULL, -2 placeholder). */
static void make_file(cp_buf *b, const int64_t *lens, size_t n) {
  int64_t *rec = calloc(n + 1, sizeof *rec);
  for (size_t i = 0; i < n; i++) {
    if (lens[i] < 0) {
      rec[i] = lens[i];
      continue;
    }
    size_t start = b->len;
    put_le(b, 0x584E11CF, 4);
    for (int64_t k = 0; k < lens[i]; k++) {
      uint8_t v = (uint8_t)i;
      cp_buf_append(b, &v, 1, NULL);
    }
    rec[i] = 16 + lens[i];
    put_le(b, (uint64_t)rec[i], 8);
    put_le(b, cp_crc32(0, b->data + start, b->len - start), 4);
  }
  size_t index_start = b->len;
  for (size_t i = 0; i < n; i++) put_varint(b, i ? rec[i] - rec[i - 1] : rec[0]);
  put_le(b, b->len - index_start, 4);
  uint8_t version = 1;
  cp_buf_append(b, &version, 1, NULL);
  free(rec);
}

static int parse(const uint8_t *data, size_t len, cp_blob_index *ix, paimon_error *err) {
  size_t need = 0;
  int rc = cp_blob_index_parse(data, len, len, "f.blob", ix, &need, err);
  return rc ? rc : need ? -100 : 0;
}

static void test_worked_example(void) {
  paimon_error err;
  cp_blob_index ix;
  CHECK_OK(parse(EXAMPLE, sizeof EXAMPLE, &ix, &err), &err);
  CHECK_INT(ix.n_rows, 3);
  CHECK_INT(ix.kinds[0], CP_BLOB_VALUE);
  CHECK_INT(ix.offsets[0], 4);
  CHECK_INT(ix.lengths[0], 2);
  CHECK(memcmp(EXAMPLE + ix.offsets[0], "hi", 2) == 0);
  CHECK_INT(ix.kinds[1], CP_BLOB_NULL);
  CHECK_INT(ix.kinds[2], CP_BLOB_VALUE);
  CHECK_INT(ix.offsets[2], 22);
  CHECK_INT(ix.lengths[2], 0);
  cp_blob_index_free(&ix);
  /* Our test writer produces exactly those bytes (and Java's CRCs). */
  cp_buf b = CP_BUF_INIT;
  const int64_t lens[] = {2, -1, 0};
  make_file(&b, lens, 3);
  b.data[4] = 'h';
  b.data[5] = 'i';
  /* the CRC covers the payload: recompute for "hi" */
  uint32_t crc = cp_crc32(0, b.data, 14);
  for (int i = 0; i < 4; i++) b.data[14 + i] = (uint8_t)(crc >> (8 * i));
  CHECK_INT(b.len, sizeof EXAMPLE);
  CHECK(memcmp(b.data, EXAMPLE, sizeof EXAMPLE) == 0);
  cp_buf_free(&b);
}

static void test_nulls_placeholders_and_empty(void) {
  paimon_error err;
  cp_blob_index ix;
  cp_buf b = CP_BUF_INIT;
  const int64_t lens[] = {-2, 5, -1, -2, 300, 0};
  make_file(&b, lens, 6);
  CHECK_OK(parse(b.data, b.len, &ix, &err), &err);
  CHECK_INT(ix.n_rows, 6);
  const int kinds[] = {CP_BLOB_PLACEHOLDER, CP_BLOB_VALUE, CP_BLOB_NULL,
                       CP_BLOB_PLACEHOLDER, CP_BLOB_VALUE, CP_BLOB_VALUE};
  for (int i = 0; i < 6; i++) CHECK_INT(ix.kinds[i], kinds[i]);
  CHECK_INT(ix.lengths[4], 300);
  CHECK_INT(b.data[ix.offsets[4]], 4);
  CHECK_INT(ix.offsets[5], 4 + 16 + 5 + 16 + 300);
  cp_blob_index_free(&ix);
  cp_buf_free(&b);
  /* No rows at all: an empty index. */
  cp_buf_init(&b);
  make_file(&b, NULL, 0);
  CHECK_INT(b.len, 5);
  CHECK_OK(parse(b.data, b.len, &ix, &err), &err);
  CHECK_INT(ix.n_rows, 0);
  cp_blob_index_free(&ix);
  cp_buf_free(&b);
}

static void expect_corrupt(const uint8_t *data, size_t len, const char *message) {
  paimon_error err;
  cp_blob_index ix;
  CHECK_ERR(parse(data, len, &ix, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, message);
  CHECK_CONTAINS(err.message, "f.blob");
}

static void test_corruption_named(void) {
  uint8_t bad[sizeof EXAMPLE];
  memcpy(bad, EXAMPLE, sizeof bad);
  bad[sizeof bad - 1] = 2;
  expect_corrupt(bad, sizeof bad, "Unsupported version: 2");
  expect_corrupt(EXAMPLE, 3, "shorter than its 5-byte footer");
  memcpy(bad, EXAMPLE, sizeof bad);
  bad[sizeof bad - 5] = 0x7f; /* index length past the file */
  expect_corrupt(bad, sizeof bad, "index length out of range");
  memcpy(bad, EXAMPLE, sizeof bad);
  bad[sizeof bad - 6] = 0x80; /* last varint continues past the index */
  expect_corrupt(bad, sizeof bad, "varint");
  memcpy(bad, EXAMPLE, sizeof bad);
  bad[sizeof bad - 8] = 0x02; /* first length 1: below a record's 16 bytes */
  expect_corrupt(bad, sizeof bad, "record length is out of range");
  /* Lengths that do not cover the data: drop the second record's bytes from the data. */
  cp_buf b = CP_BUF_INIT;
  cp_buf_append(&b, EXAMPLE, 18, NULL);
  cp_buf_append(&b, EXAMPLE + 34, sizeof EXAMPLE - 34, NULL);
  expect_corrupt(b.data, b.len, "a record length is out of range");
  cp_buf_free(&b);
  /* Extra data bytes no record accounts for. */
  cp_buf_init(&b);
  cp_buf_append(&b, EXAMPLE, 34, NULL);
  cp_buf_append(&b, "xx", 2, NULL);
  cp_buf_append(&b, EXAMPLE + 34, sizeof EXAMPLE - 34, NULL);
  expect_corrupt(b.data, b.len, "do not add up to the data size");
  cp_buf_free(&b);
}

/* Through cp_fs: payloads by ranged reads; an index larger than the first 64 KiB read. */
static void test_file_reads(void) {
  paimon_error err;
  char dir[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/cp_blob_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  CHECK(mkdtemp(dir) != NULL);
  cp_fs *fs = NULL;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  size_t n = 80000;
  int64_t *lens = calloc(n, sizeof *lens);
  for (size_t i = 0; i < n; i++) lens[i] = i % 7 == 3 ? -1 : (int64_t)(i % 5);
  cp_buf b = CP_BUF_INIT;
  make_file(&b, lens, n);
  char path[600];
  snprintf(path, sizeof path, "%s/data-x-0.blob", dir);
  CHECK_OK(cp_fs_write_file(fs, path, b.data, b.len, CP_CREATE_EXCLUSIVE, false, &err), &err);
  cp_blob_file *f = NULL;
  CHECK_OK(cp_blob_file_open(fs, path, &f, &err), &err);
  if (f) {
    const cp_blob_index *ix = cp_blob_file_index(f);
    CHECK_INT(ix->n_rows, (int64_t)n);
    int bad = 0;
    for (size_t i = 0; i < n; i += 997) {
      if (lens[i] < 0) {
        bad += ix->kinds[i] != CP_BLOB_NULL;
        continue;
      }
      uint8_t buf[8];
      CHECK_OK(cp_blob_file_read(f, ix->offsets[i], buf, (size_t)ix->lengths[i], &err), &err);
      bad += ix->lengths[i] != lens[i];
      for (int64_t k = 0; k < ix->lengths[i]; k++) bad += buf[k] != (uint8_t)i;
    }
    CHECK_INT(bad, 0);
    cp_blob_file_free(f);
  }
  /* A truncated file is an error naming it. */
  CHECK_OK(cp_fs_write_file(fs, path, b.data, b.len - 3, CP_CREATE_OVERWRITE, false, &err), &err);
  CHECK_ERR(cp_blob_file_open(fs, path, &f, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, path);
  cp_buf_free(&b);
  free(lens);
  cp_fs_free(fs);
}

/* The writer produces the spec's worked example byte for byte, and reads back what it wrote. */
static void test_writer(void) {
  paimon_error err;
  char dir[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/cp_blobw_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  CHECK(mkdtemp(dir) != NULL);
  cp_fs *fs = NULL;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  char path[600];
  snprintf(path, sizeof path, "%s/data-w-0.blob", dir);
  cp_wfile *file = NULL;
  cp_blob_writer *w = NULL;
  uint64_t size = 0;
  CHECK_OK(cp_fs_create(fs, path, CP_CREATE_EXCLUSIVE, &file, &err), &err);
  CHECK_OK(cp_blob_writer_new(&w, file, &err), &err);
  CHECK_OK(cp_blob_writer_add(w, "hi", 2, &err), &err);
  CHECK_OK(cp_blob_writer_add_null(w, &err), &err);
  CHECK_OK(cp_blob_writer_add(w, "", 0, &err), &err);
  CHECK_INT(cp_blob_writer_rows(w), 3);
  CHECK_INT(cp_blob_writer_position(w), 34);
  CHECK_OK(cp_blob_writer_finish(w, &size, &err), &err);
  CHECK_OK(cp_wfile_close(file, &err), &err);
  cp_blob_writer_free(w);
  CHECK_INT(size, sizeof EXAMPLE);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(fs, path, &b, 1 << 20, &err), &err);
  CHECK_INT(b.len, sizeof EXAMPLE);
  CHECK(b.len == sizeof EXAMPLE && memcmp(b.data, EXAMPLE, sizeof EXAMPLE) == 0);
  cp_buf_free(&b);
  /* Placeholders and a value of every size up to 300 bytes read back. */
  snprintf(path, sizeof path, "%s/data-w-1.blob", dir);
  CHECK_OK(cp_fs_create(fs, path, CP_CREATE_EXCLUSIVE, &file, &err), &err);
  CHECK_OK(cp_blob_writer_new(&w, file, &err), &err);
  uint8_t payload[300];
  for (int i = 0; i < 300; i++) payload[i] = (uint8_t)(i * 7);
  for (int i = 0; i < 301; i++) {
    if (i % 10 == 9)
      CHECK_OK(cp_blob_writer_add_placeholder(w, &err), &err);
    else
      CHECK_OK(cp_blob_writer_add(w, payload, (size_t)i, &err), &err);
  }
  CHECK_OK(cp_blob_writer_finish(w, &size, &err), &err);
  CHECK_OK(cp_wfile_close(file, &err), &err);
  cp_blob_writer_free(w);
  cp_blob_file *f = NULL;
  CHECK_OK(cp_blob_file_open(fs, path, &f, &err), &err);
  int bad = 0;
  for (int i = 0; f && i < 301; i++) {
    const cp_blob_index *ix = cp_blob_file_index(f);
    if (i % 10 == 9) {
      bad += ix->kinds[i] != CP_BLOB_PLACEHOLDER;
      continue;
    }
    uint8_t got[300];
    bad += ix->lengths[i] != i;
    CHECK_OK(cp_blob_file_read(f, ix->offsets[i], got, (size_t)i, &err), &err);
    bad += memcmp(got, payload, (size_t)i) != 0;
  }
  CHECK_INT(bad, 0);
  cp_blob_file_free(f);
  cp_fs_free(fs);
}

/* A record streamed in pieces is byte for byte the record added whole; the writer refuses pieces
 * past the announced length, an early end and a record begun inside another. */
static void test_streamed_record(void) {
  paimon_error err;
  char dir[512];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/cp_blobs_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  CHECK(mkdtemp(dir) != NULL);
  cp_fs *fs = NULL;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  char path[600];
  snprintf(path, sizeof path, "%s/data-s-0.blob", dir);
  cp_wfile *file = NULL;
  cp_blob_writer *w = NULL;
  uint64_t size = 0;
  CHECK_OK(cp_fs_create(fs, path, CP_CREATE_EXCLUSIVE, &file, &err), &err);
  CHECK_OK(cp_blob_writer_new(&w, file, &err), &err);
  CHECK_OK(cp_blob_writer_begin(w, 2, &err), &err);
  CHECK_ERR(cp_blob_writer_begin(w, 1, &err), PAIMON_ESTATE);
  CHECK_OK(cp_blob_writer_append(w, "h", 1, &err), &err);
  CHECK_ERR(cp_blob_writer_end(w, &err), PAIMON_ESTATE);
  CHECK_ERR(cp_blob_writer_append(w, "ix", 2, &err), PAIMON_ESTATE);
  CHECK_OK(cp_blob_writer_append(w, "i", 1, &err), &err);
  CHECK_OK(cp_blob_writer_end(w, &err), &err);
  CHECK_OK(cp_blob_writer_add_null(w, &err), &err);
  CHECK_OK(cp_blob_writer_begin(w, 0, &err), &err);
  CHECK_OK(cp_blob_writer_end(w, &err), &err);
  CHECK_OK(cp_blob_writer_finish(w, &size, &err), &err);
  CHECK_OK(cp_wfile_close(file, &err), &err);
  cp_blob_writer_free(w);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(fs, path, &b, 1 << 20, &err), &err);
  CHECK(b.len == sizeof EXAMPLE && memcmp(b.data, EXAMPLE, sizeof EXAMPLE) == 0);
  cp_buf_free(&b);
  cp_fs_free(fs);
}

/* BlobDescriptor bytes: what cpaimon writes parses back; Java's detection; every defect named. */
static void test_descriptor(void) {
  paimon_error err;
  uint8_t d[64];
  cp_blob_descriptor_write(d, "s3://b/k.jpg", 12, 7, -1);
  size_t n = cp_blob_descriptor_size(12);
  CHECK_INT(n, 41);
  CHECK(cp_blob_is_descriptor(d, n));
  cp_blob_descriptor got;
  CHECK_OK(cp_blob_descriptor_parse(d, n, &got, &err), &err);
  CHECK_INT(got.version, 2);
  CHECK_INT(got.uri_len, 12);
  CHECK(memcmp(got.uri, "s3://b/k.jpg", 12) == 0);
  CHECK_INT(got.offset, 7);
  CHECK_INT(got.length, -1);
  /* Content that merely starts like one: too short, another magic, a version above 2. */
  CHECK(!cp_blob_is_descriptor(d, 8));
  uint8_t other[41];
  memcpy(other, d, n);
  other[3] ^= 1;
  CHECK(!cp_blob_is_descriptor(other, n));
  CHECK_ERR(cp_blob_descriptor_parse(other, n, &got, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "missing magic header");
  memcpy(other, d, n);
  other[0] = 3;
  CHECK(!cp_blob_is_descriptor(other, n));
  CHECK_ERR(cp_blob_descriptor_parse(other, n, &got, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "less than or equal to 2, but found 3");
  /* Truncations at every length fail cleanly. */
  int bad = 0;
  for (size_t k = 0; k < n; k++) bad += cp_blob_descriptor_parse(d, k, &got, &err) != PAIMON_EINVAL;
  CHECK_INT(bad, 0);
  memcpy(other, d, n);
  other[9] = 0xff, other[10] = 0xff, other[11] = 0xff, other[12] = 0xff; /* uri_len -1 */
  CHECK_ERR(cp_blob_descriptor_parse(other, n, &got, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "negative URI length: -1");
  cp_blob_descriptor_write(other, "x", 1, 0, -2);
  CHECK_ERR(cp_blob_descriptor_parse(other, cp_blob_descriptor_size(1), &got, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "length -2");
}

/* ARRAY<BLOB> payloads: ["a", NULL, ""] parsed; every truncation and defect refused. */
static void test_array_payload(void) {
  paimon_error err;
  static const uint8_t P[] = {0x42, 0x43, 0x42, 0x41, 1, 3, 0, 0, 0, 'a', 2, 3, 2, 3, 0, 0, 0};
  int64_t *lens = NULL, n = 0;
  CHECK_OK(cp_blob_array_payload_parse(P, sizeof P, &lens, &n, &err), &err);
  CHECK_INT(n, 3);
  if (lens) {
    CHECK_INT(lens[0], 1);
    CHECK_INT(lens[1], -1);
    CHECK_INT(lens[2], 0);
  }
  free(lens);
  int bad = 0;
  for (size_t k = 0; k < sizeof P; k++)
    bad += cp_blob_array_payload_parse(P, k, &lens, &n, &err) != PAIMON_ECORRUPT;
  CHECK_INT(bad, 0);
  uint8_t q[sizeof P];
  memcpy(q, P, sizeof q);
  q[0] ^= 1;
  CHECK_ERR(cp_blob_array_payload_parse(q, sizeof q, &lens, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "Invalid ARRAY<BLOB> payload: wrong magic number");
  memcpy(q, P, sizeof q);
  q[5] = 2; /* two elements, three lengths */
  CHECK_ERR(cp_blob_array_payload_parse(q, sizeof q, &lens, &n, &err), PAIMON_ECORRUPT);
  memcpy(q, P, sizeof q);
  q[10] = 4; /* first length 2: more than the one element byte */
  CHECK_ERR(cp_blob_array_payload_parse(q, sizeof q, &lens, &n, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "exceed");
}

int main(void) {
  RUN(test_worked_example);
  RUN(test_nulls_placeholders_and_empty);
  RUN(test_corruption_named);
  RUN(test_file_reads);
  RUN(test_writer);
  RUN(test_streamed_record);
  RUN(test_descriptor);
  RUN(test_array_payload);
  TEST_MAIN_END();
}
