/*
 * libFuzzer harness for deletion-vector files (src/meta/deletion_vector.h, spec/format.md §7.2):
 * arbitrary bytes as a DV index file, read at a few offsets with and without an expected length,
 * as a bare record, and as a bare roaring32 bitmap. Whatever parses is written back in the 32-bit
 * form (when its positions fit) and must read back with the same cardinality. Nothing may crash,
 * leak, or allocate much more than the input justifies.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "meta/deletion_vector.h"

static void roundtrip(const cp_dv *dv) {
  cp_buf out = CP_BUF_INIT;
  int32_t len = 0;
  if (cp_dv_max(dv) <= CP_DV_MAX_POSITION32 && cp_dv_write_record32(dv, &out, &len, NULL) == 0) {
    cp_dv *back = NULL;
    if (cp_dv_read_record(out.data, out.len, len, "rt", &back, NULL, NULL) != 0 ||
        cp_dv_cardinality(back) != cp_dv_cardinality(dv))
      abort();
    cp_dv_free(back);
  }
  cp_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cp_dv *dv = NULL;
  /* As an index file: the DV right after the version byte, with and without its f2. */
  for (int64_t length = -1; length <= 24; length += 25) {
    if (cp_dv_index_read(data, size, 1, length, "fuzz", &dv, NULL) == 0) {
      roundtrip(dv);
      cp_dv_free(dv);
    }
  }
  if (cp_dv_read_record(data, size, -1, "fuzz", &dv, NULL, NULL) == 0) {
    uint8_t keep[8];
    cp_dv_select(dv, 0, 64, keep);
    roundtrip(dv);
    cp_dv_free(dv);
  }
  if (cp_dv_new(&dv, NULL) == 0) {
    size_t used = 0;
    if (cp_roaring32_read(data, size, 0, dv, &used, "fuzz", NULL) == 0) {
      if (used > size) abort();
      roundtrip(dv);
    }
    cp_dv_free(dv);
  }
  return 0;
}
