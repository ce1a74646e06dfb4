/*
 * libFuzzer harness for the Arrow format-string parser (src/arrow/type.h): format strings come
 * from foreign producers. Any input must be rejected or parsed without reading past its NUL, and a
 * format that parses must print back to a format that parses to the same type.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/type.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  cp_arrow_type_info t, back;
  char fmt[96];
  if (cp_arrow_parse_format(text, &t, NULL) == 0) {
    if (cp_arrow_format_string(&t, fmt, sizeof fmt, NULL) != 0) abort();
    if (cp_arrow_parse_format(fmt, &back, NULL) != 0) abort();
    if (back.id != t.id || back.byte_width != t.byte_width || back.precision != t.precision ||
        back.scale != t.scale || back.unit != t.unit || back.list_size != t.list_size ||
        strcmp(back.timezone, t.timezone) != 0)
      abort();
  }
  free(text);
  return 0;
}
