/*
 * UTF-8 validation (array.h) per RFC 3629 §4: no overlong forms, no surrogates (U+D800..DFFF),
 * nothing above U+10FFFF. Arrow's utf8 type requires valid UTF-8, so binary → utf8 casts and
 * imports of text from untrusted bytes check with this. ASCII runs are skipped 8 bytes at a time.
 */
#include <string.h>

#include "arrow/array.h"

/* Length of the sequence starting at p (1..4), or 0 when it is not well-formed. */
static int sequence_length(const uint8_t *p, int64_t left) {
  uint8_t c = p[0];
  if (c < 0x80) return 1;
  if (c < 0xc2) return 0; /* continuation byte or overlong 2-byte lead */
  if (c < 0xe0) return left >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
  if (c < 0xf0) {
    if (left < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80) return 0;
    if (c == 0xe0 && p[1] < 0xa0) return 0;  /* overlong */
    if (c == 0xed && p[1] >= 0xa0) return 0; /* surrogates */
    return 3;
  }
  if (c < 0xf5) {
    if (left < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
      return 0;
    if (c == 0xf0 && p[1] < 0x90) return 0;  /* overlong */
    if (c == 0xf4 && p[1] >= 0x90) return 0; /* above U+10FFFF */
    return 4;
  }
  return 0;
}

bool cp_utf8_valid(const uint8_t *data, int64_t len, int64_t *bad_at) {
  int64_t i = 0;
  while (i < len) {
    if (len - i >= 8) {
      uint64_t w;
      memcpy(&w, data + i, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    int n = sequence_length(data + i, len - i);
    if (n == 0) {
      if (bad_at) *bad_at = i;
      return false;
    }
    i += n;
  }
  return true;
}
