/*
 * libFuzzer harness for the `.blob` file index (src/format/blob/blob_file.h): arbitrary bytes as a
 * whole file, its trailer parsed from the bytes (a tail too short for the index is re-parsed with
 * as many bytes as it asks for, as cp_blob_file_open does), and every value's payload touched:
 * each must lie inside the data section. Nothing may crash, leak or read outside the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "format/blob/blob_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cp_blob_index ix;
  paimon_error err;
  size_t tail = size < 64 ? size : 64, need = 0;
  if (cp_blob_index_parse(data + size - tail, tail, size, "fuzz.blob", &ix, &need, &err) != 0)
    return 0;
  if (need) {
    if (need > size) abort();
    if (cp_blob_index_parse(data + size - need, need, size, "fuzz.blob", &ix, &need, &err) != 0)
      return 0;
    if (need) abort(); /* the whole index was given */
  }
  volatile uint8_t sink = 0;
  for (int64_t i = 0; i < ix.n_rows; i++) {
    if (ix.kinds[i] != CP_BLOB_VALUE) continue;
    if (ix.offsets[i] < 4 || ix.lengths[i] < 0 || (uint64_t)(ix.offsets[i] + ix.lengths[i]) > size)
      abort();
    for (int64_t k = 0; k < ix.lengths[i]; k++) sink ^= data[ix.offsets[i] + k];
  }
  (void)sink;
  cp_blob_index_free(&ix);
  return 0;
}
