/*
 * libFuzzer harness for BlobDescriptor bytes (src/format/blob/blob_file.h), which users hand to
 * BLOB columns: arbitrary bytes are detected and parsed; a parsed URI must lie inside the input,
 * and a descriptor written back from what was parsed must parse to the same fields. Nothing may
 * crash, leak or read outside the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/blob/blob_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  paimon_error err;
  cp_blob_descriptor d;
  (void)cp_blob_is_descriptor(data, size);
  if (cp_blob_descriptor_parse(data, size, &d, &err) != 0) return 0;
  const uint8_t *u = (const uint8_t *)d.uri;
  if (u < data || d.uri_len > size || u + d.uri_len > data + size) abort();
  uint8_t *again = malloc(cp_blob_descriptor_size(d.uri_len));
  if (!again) return 0;
  cp_blob_descriptor_write(again, d.uri, d.uri_len, d.offset, d.length);
  cp_blob_descriptor e;
  if (cp_blob_descriptor_parse(again, cp_blob_descriptor_size(d.uri_len), &e, &err) != 0 ||
      !cp_blob_is_descriptor(again, cp_blob_descriptor_size(d.uri_len)) || e.uri_len != d.uri_len ||
      memcmp(e.uri, d.uri, d.uri_len) != 0 || e.offset != d.offset || e.length != d.length)
    abort();
  free(again);
  return 0;
}
