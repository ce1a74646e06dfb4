/* Tests for deletion vectors and their index files (src/meta/deletion_vector.h, spec/format.md
 * §7.2): the spec's test vector byte for byte, bitmaps written by an independent Roaring
 * implementation (pyroaring, with run and bitset containers; the hex below was produced by
 * `pyroaring.BitMap(...).serialize()`), the 64-bit form, index files with several DVs, and
 * malformed input (every truncation of a valid record, bad magic / cookie / version / lengths). */
#include <stdlib.h>
#include <string.h>

#include "meta/deletion_vector.h"
#include "test.h"

static size_t unhex(const char *hex, uint8_t *out) {
  size_t n = 0;
  for (; hex[0] && hex[1]; hex += 2) {
    unsigned v;
    sscanf(hex, "%2x", &v);
    out[n++] = (uint8_t)v;
  }
  return n;
}

/* The spec's vector: positions {1, 5} as the only DV of an index file. */
static const char spec_vector[] = "01"
                                  "00000018"
                                  "5e43f2d0"
                                  "3a30000001000000"
                                  "00000100"
                                  "10000000"
                                  "01000500"
                                  "8c77fe55";

static void test_spec_vector_write(void) {
  paimon_error err;
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  bool added = false;
  CHECK_OK(cp_dv_add(dv, 5, &added, &err), &err);
  CHECK(added);
  CHECK_OK(cp_dv_add(dv, 1, &added, &err), &err);
  CHECK_OK(cp_dv_add(dv, 5, &added, &err), &err);
  CHECK(!added);
  CHECK_INT(cp_dv_cardinality(dv), 2);
  cp_dv_slot slot = {"data-x.parquet", dv, 0, 0, 0};
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_dv_index_write(&slot, 1, &out, &err), &err);
  uint8_t want[64];
  size_t n = unhex(spec_vector, want);
  CHECK_INT(out.len, 33);
  CHECK(out.len == n && memcmp(out.data, want, n) == 0);
  CHECK_INT(slot.offset, 1);
  CHECK_INT(slot.length, 24);
  CHECK_INT(slot.cardinality, 2);
  cp_buf_free(&out);
  cp_dv_free(dv);
}

static void test_spec_vector_read(void) {
  paimon_error err;
  uint8_t bytes[64];
  size_t n = unhex(spec_vector, bytes);
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_index_read(bytes, n, 1, 24, "f", &dv, &err), &err);
  if (!dv) return;
  CHECK_INT(cp_dv_cardinality(dv), 2);
  CHECK(cp_dv_contains(dv, 1) && cp_dv_contains(dv, 5));
  CHECK(!cp_dv_contains(dv, 0) && !cp_dv_contains(dv, 4) && !cp_dv_contains(dv, -1));
  CHECK_INT(cp_dv_max(dv), 5);
  uint8_t keep[1];
  CHECK_INT(cp_dv_select(dv, 0, 7, keep), 5);
  CHECK_INT(keep[0], 0x5D); /* rows 0,2,3,4,6 kept */
  CHECK_INT(cp_dv_select(dv, 4, 3, keep), 2);
  CHECK_INT(keep[0], 0x5); /* rows 4 and 6 */
  cp_dv_free(dv);
  /* The expected length (f2) must match the prefix, as Java checks. */
  CHECK_ERR(cp_dv_index_read(bytes, n, 1, 25, "f", &dv, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "Size not match, actual size: 24, expected size: 25");
  /* Unknown length (-1) skips the check. */
  CHECK_OK(cp_dv_index_read(bytes, n, 1, -1, "f", &dv, &err), &err);
  cp_dv_free(dv);
}

/* pyroaring, run_optimize()d: 10..19, 70000, 70002, 200000..200099, 300000, 327680..332679. */
static const char pyroaring_runs[] =
    "3b3004001500000900010001000300630004000000050087132d00000033000000370000003d0000003f0000000100"
    "0a000900701172110100400d6300e093010000008713";

static void test_read_run_containers(void) {
  paimon_error err;
  uint8_t bytes[128];
  size_t n = unhex(pyroaring_runs, bytes), used = 0;
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_OK(cp_roaring32_read(bytes, n, 0, dv, &used, "r", &err), &err);
  CHECK_INT(used, n);
  CHECK_INT(cp_dv_cardinality(dv), 5113);
  CHECK(cp_dv_contains(dv, 10) && cp_dv_contains(dv, 19) && !cp_dv_contains(dv, 20));
  CHECK(cp_dv_contains(dv, 70000) && !cp_dv_contains(dv, 70001) && cp_dv_contains(dv, 70002));
  CHECK(cp_dv_contains(dv, 200099) && !cp_dv_contains(dv, 200100));
  CHECK(cp_dv_contains(dv, 300000) && cp_dv_contains(dv, 332679));
  CHECK_INT(cp_dv_max(dv), 332679);
  /* Re-written without runs and read back: same set. */
  cp_buf out = CP_BUF_INIT;
  int32_t len = 0;
  CHECK_OK(cp_dv_write_record32(dv, &out, &len, &err), &err);
  CHECK_INT(len, out.len - 8);
  CHECK_INT(out.data[8], 0x3a); /* cookie 12346: no run containers written */
  cp_dv *back = NULL;
  size_t size = 0;
  CHECK_OK(cp_dv_read_record(out.data, out.len, len, "w", &back, &size, &err), &err);
  CHECK_INT(size, out.len);
  if (back) CHECK_INT(cp_dv_cardinality(back), 5113);
  if (back) CHECK(cp_dv_contains(back, 332000) && !cp_dv_contains(back, 332680));
  cp_dv_free(back);
  cp_buf_free(&out);
  cp_dv_free(dv);

  /* A single run container (10..19) with fewer than 4 containers: no offset table. */
  n = unhex("3b300000010000090001000a000900", bytes);
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_OK(cp_roaring32_read(bytes, n, 0, dv, &used, "r", &err), &err);
  CHECK_INT(used, n);
  CHECK_INT(cp_dv_cardinality(dv), 10);
  cp_dv_free(dv);

  /* A run reaching the container end (65534..65535), read then written again (CRoaring 0.2.x
   * corrupted memory converting such a run back; found by fuzz_deletion_vector). */
  n = unhex("3b3000000100000100" "0100feff0100", bytes);
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_OK(cp_roaring32_read(bytes, n, 0, dv, &used, "r", &err), &err);
  CHECK_INT(cp_dv_cardinality(dv), 2);
  CHECK(cp_dv_contains(dv, 65535) && cp_dv_contains(dv, 65534) && !cp_dv_contains(dv, 65533));
  cp_buf again = CP_BUF_INIT;
  int32_t again_len = 0;
  CHECK_OK(cp_dv_write_record32(dv, &again, &again_len, &err), &err);
  cp_dv *twice = NULL;
  CHECK_OK(cp_dv_read_record(again.data, again.len, again_len, "rt", &twice, NULL, &err), &err);
  if (twice) CHECK_INT(cp_dv_cardinality(twice), 2);
  cp_dv_free(twice);
  cp_buf_free(&again);
  cp_dv_free(dv);
}

/* pyroaring BitMap(range(0, 131072, 2)): two bitset containers. */
static void test_read_bitset_containers(void) {
  paimon_error err;
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  for (int64_t i = 0; i < 131072; i += 2) CHECK_OK(cp_dv_add(dv, i, NULL, &err), &err);
  cp_buf out = CP_BUF_INIT;
  int32_t len = 0;
  CHECK_OK(cp_dv_write_record32(dv, &out, &len, &err), &err);
  /* Same header as pyroaring's: cookie, 2 containers, cardinalities 32768, offsets 24, 8216. */
  uint8_t want[32];
  size_t n = unhex("3a300000020000000000ff7f0100ff7f1800000018200000", want);
  CHECK(out.len > 8 + n && memcmp(out.data + 8, want, n) == 0);
  CHECK_INT(out.len, 8 + 16408 + 4);
  cp_dv *back = NULL;
  CHECK_OK(cp_dv_read_record(out.data, out.len, len, "w", &back, NULL, &err), &err);
  if (back) {
    CHECK_INT(cp_dv_cardinality(back), 65536);
    CHECK(cp_dv_contains(back, 131070) && !cp_dv_contains(back, 131071));
  }
  cp_dv_free(back);
  cp_buf_free(&out);
  cp_dv_free(dv);
}

static void test_64bit_form(void) {
  paimon_error err;
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_OK(cp_dv_add(dv, 3, NULL, &err), &err);
  CHECK_OK(cp_dv_add(dv, ((int64_t)2 << 32) + 9, NULL, &err), &err);
  cp_buf out = CP_BUF_INIT;
  int32_t len = 0;
  CHECK_OK(cp_dv_write_record64(dv, &out, &len, &err), &err);
  CHECK_INT(len, out.len);
  /* magic little-endian: bytes d1 d3 39 64; count 3 (keys 0, 1 empty, 2) */
  CHECK(out.len > 16 && out.data[4] == 0xd1 && out.data[5] == 0xd3 && out.data[6] == 0x39 &&
        out.data[7] == 0x64);
  CHECK_INT(out.data[8], 3);
  cp_dv *back = NULL;
  CHECK_OK(cp_dv_read_record(out.data, out.len, len, "w", &back, NULL, &err), &err);
  if (back) {
    CHECK_INT(cp_dv_cardinality(back), 2);
    CHECK(cp_dv_contains(back, 3) && cp_dv_contains(back, ((int64_t)2 << 32) + 9));
    CHECK_INT(cp_dv_max(back), ((int64_t)2 << 32) + 9);
  }
  cp_dv_free(back);
  /* f2 of a 64-bit record is the whole record: a 32-bit style length fails. */
  CHECK_ERR(cp_dv_read_record(out.data, out.len, len - 8, "w", &back, NULL, &err), PAIMON_ECORRUPT);
  /* The 32-bit form refuses positions past 2^31 - 1, with pypaimon's message. */
  cp_buf b32 = CP_BUF_INIT;
  CHECK_ERR(cp_dv_write_record32(dv, &b32, &len, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "RoaringBitmap32 only supports files");
  CHECK_ERR(cp_dv_add(dv, -1, NULL, &err), PAIMON_EINVAL);
  cp_buf_free(&b32);
  cp_buf_free(&out);
  cp_dv_free(dv);
}

static void test_index_file_several(void) {
  paimon_error err;
  cp_dv *a = NULL, *b = NULL;
  CHECK_OK(cp_dv_new(&a, &err), &err);
  CHECK_OK(cp_dv_new(&b, &err), &err);
  for (int i = 0; i < 5000; i++) CHECK_OK(cp_dv_add(a, i * 3, NULL, &err), &err);
  CHECK_OK(cp_dv_add(b, 7, NULL, &err), &err);
  cp_dv_slot slots[2] = {{"a", a, 0, 0, 0}, {"b", b, 0, 0, 0}};
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_dv_index_write(slots, 2, &out, &err), &err);
  CHECK_INT(slots[0].offset, 1);
  CHECK_INT(slots[1].offset, 1 + 4 + slots[0].length + 4);
  CHECK_INT(slots[1].length, 22); /* magic 4 + cookie 8 + header 4 + offset 4 + one value 2 */
  CHECK_INT(slots[0].cardinality, 5000);
  CHECK_INT(out.len, slots[1].offset + 30);
  cp_dv *r = NULL;
  CHECK_OK(cp_dv_index_read(out.data, out.len, slots[1].offset, slots[1].length, "i", &r, &err),
           &err);
  if (r) CHECK(cp_dv_cardinality(r) == 1 && cp_dv_contains(r, 7));
  cp_dv_free(r);
  CHECK_OK(cp_dv_index_read(out.data, out.len, slots[0].offset, slots[0].length, "i", &r, &err),
           &err);
  if (r) CHECK(cp_dv_cardinality(r) == 5000 && cp_dv_contains(r, 14997));
  cp_dv_free(r);
  /* Merge and iterate. */
  CHECK_OK(cp_dv_merge(b, a, &err), &err);
  CHECK_INT(cp_dv_cardinality(b), 5001);
  cp_buf_free(&out);
  cp_dv_free(a);
  cp_dv_free(b);
}

static int count_fn(void *ctx, int64_t pos) {
  int64_t *c = ctx;
  if (c[1] >= pos) return 1; /* not ascending */
  c[1] = pos;
  c[0]++;
  return 0;
}

static void test_foreach(void) {
  paimon_error err;
  cp_dv *dv = NULL;
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  int64_t pos[] = {9, 1, ((int64_t)1 << 32) + 4, 70000};
  for (int i = 0; i < 4; i++) CHECK_OK(cp_dv_add(dv, pos[i], NULL, &err), &err);
  int64_t c[2] = {0, -1};
  CHECK_INT(cp_dv_foreach(dv, count_fn, c), 0);
  CHECK_INT(c[0], 4);
  CHECK_INT(c[1], ((int64_t)1 << 32) + 4);
  cp_dv_free(dv);
}

static void test_malformed(void) {
  paimon_error err;
  uint8_t bytes[128];
  size_t n = unhex(spec_vector, bytes);
  cp_dv *dv = NULL;
  /* Every truncation of the index file fails cleanly. */
  for (size_t k = 0; k < n - 4; k++) {
    int rc = cp_dv_index_read(bytes, k, 1, 24, "t", &dv, &err);
    CHECK(rc == PAIMON_ECORRUPT);
    if (rc == 0) cp_dv_free(dv);
  }
  /* Missing only the CRC still fails (the record's length says the CRC is there). */
  CHECK_ERR(cp_dv_index_read(bytes, n - 1, 1, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  /* Wrong version byte. */
  uint8_t bad[128];
  memcpy(bad, bytes, n);
  bad[0] = 2;
  CHECK_ERR(cp_dv_index_read(bad, n, 1, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "version byte");
  /* Bad magic. */
  memcpy(bad, bytes, n);
  bad[5] = 0;
  CHECK_ERR(cp_dv_index_read(bad, n, 1, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "Invalid magic number");
  /* Bad roaring cookie. */
  memcpy(bad, bytes, n);
  bad[9] = 0x11;
  CHECK_ERR(cp_dv_index_read(bad, n, 1, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  /* Huge container count in a short buffer: no huge allocation, an error. */
  memcpy(bad, bytes, n);
  bad[13] = 0xff;
  bad[14] = 0xff;
  CHECK_ERR(cp_dv_index_read(bad, n, 1, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  /* Offset outside the file; negative length prefix. */
  CHECK_ERR(cp_dv_index_read(bytes, n, 40, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_dv_index_read(bytes, n, 0, 24, "t", &dv, &err), PAIMON_ECORRUPT);
  memcpy(bad, bytes, n);
  bad[1] = 0x80;
  CHECK_ERR(cp_dv_index_read(bad, n, 1, -1, "t", &dv, &err), PAIMON_ECORRUPT);
  /* A run passing the end of its container. */
  n = unhex("3b300000010000090001000a00ffff", bad);
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  size_t used;
  CHECK_ERR(cp_roaring32_read(bad, n, 0, dv, &used, "r", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "run passes the container end");
  cp_dv_free(dv);
  /* Runs out of order or overlapping (10..19, then 15): malformed, not expanded. */
  n = unhex("3b3000000100000a00" "02000a0009000f000000", bad);
  CHECK_OK(cp_dv_new(&dv, &err), &err);
  CHECK_ERR(cp_roaring32_read(bad, n, 0, dv, &used, "r", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "runs overlap or are unsorted");
  cp_dv_free(dv);
  /* Every truncation of a bitmap with run, array and offset sections fails cleanly. */
  n = unhex(pyroaring_runs, bad);
  for (size_t k = 0; k < n; k++) {
    CHECK_OK(cp_dv_new(&dv, &err), &err);
    CHECK_ERR(cp_roaring32_read(bad, k, 0, dv, &used, "r", &err), PAIMON_ECORRUPT);
    cp_dv_free(dv);
  }
}

int main(void) {
  RUN(test_spec_vector_write);
  RUN(test_spec_vector_read);
  RUN(test_read_run_containers);
  RUN(test_read_bitset_containers);
  RUN(test_64bit_form);
  RUN(test_index_file_several);
  RUN(test_foreach);
  RUN(test_malformed);
  TEST_MAIN_END();
}
