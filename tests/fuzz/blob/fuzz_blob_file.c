/*
 * libFuzzer harness for the `.blob` file index (src/format/blob/blob_file.h): arbitrary bytes as a
 * whole file, its trailer parsed from the bytes (a tail too short for the index is re-parsed with
 * as many bytes as it asks for, as cp_blob_file_open does), and every value's payload touched:
 * each must lie inside the data section, and parsed as an ARRAY<BLOB> payload its elements
 * must lie inside the payload. Nothing may crash, leak or read outside the input.
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
    /* Each payload as an ARRAY<BLOB> one: its element lengths must fit inside it. */
    int64_t *lens = NULL, n = 0, sum = 0;
    if (cp_blob_array_payload_parse(data + ix.offsets[i], (size_t)ix.lengths[i], &lens, &n, &err) ==
        0) {
      for (int64_t k = 0; k < n; k++) sum += lens[k] > 0 ? lens[k] : 0;
      if (sum > ix.lengths[i] - CP_BLOB_ARRAY_HEADER) abort();
      free(lens);
    }
  }
  (void)sink;
  cp_blob_index_free(&ix);
  return 0;
}
