/*
 * Bulk operations on LSB-first Arrow bitmaps (bitmap.h). Interior bytes are handled whole (and
 * counting uses 64-bit words), so the per-bit loops only run on the ragged ends of a range.
 */
#include "arrow/bitmap.h"

#include <string.h>

int64_t cp_bitmap_count_set(const uint8_t *bits, int64_t offset, int64_t n) {
  int64_t count = 0, i = offset, end = offset + n;
  while (i < end && (i & 7)) count += cp_bit_get(bits, i++);
  const uint8_t *p = bits + (i >> 3);
  int64_t whole = (end - i) >> 3;
  int64_t k = 0;
  for (; k + 8 <= whole; k += 8) {
    uint64_t w;
    memcpy(&w, p + k, 8);
    count += __builtin_popcountll(w);
  }
  for (; k < whole; k++) count += __builtin_popcount(p[k]);
  i += whole << 3;
  while (i < end) count += cp_bit_get(bits, i++);
  return count;
}

void cp_bitmap_set_range(uint8_t *bits, int64_t offset, int64_t n, bool v) {
  int64_t i = offset, end = offset + n;
  while (i < end && (i & 7)) cp_bit_set_to(bits, i++, v);
  int64_t whole = (end - i) >> 3;
  if (whole > 0) {
    memset(bits + (i >> 3), v ? 0xff : 0, (size_t)whole);
    i += whole << 3;
  }
  while (i < end) cp_bit_set_to(bits, i++, v);
}

bool cp_bitmap_all_set(const uint8_t *bits, int64_t offset, int64_t n) {
  int64_t i = offset, end = offset + n;
  while (i < end && (i & 7))
    if (!cp_bit_get(bits, i++)) return false;
  int64_t whole = (end - i) >> 3;
  const uint8_t *p = bits + (i >> 3);
  for (int64_t k = 0; k < whole; k++)
    if (p[k] != 0xff) return false;
  i += whole << 3;
  while (i < end)
    if (!cp_bit_get(bits, i++)) return false;
  return true;
}

/* Reads 8 bits of src starting at bit `pos` (which need not be byte-aligned). Only touches the
 * bytes that hold those bits, so it never reads past the end of a bitmap. */
static inline uint8_t read_byte_at(const uint8_t *src, int64_t pos) {
  int shift = (int)(pos & 7);
  const uint8_t *p = src + (pos >> 3);
  if (shift == 0) return p[0];
  return (uint8_t)((p[0] >> shift) | (p[1] << (8 - shift)));
}

void cp_bitmap_copy(uint8_t *dst, int64_t dst_offset, const uint8_t *src, int64_t src_offset,
                    int64_t n) {
  if (n <= 0) return;
  if (((dst_offset | src_offset) & 7) == 0) {
    int64_t whole = n >> 3;
    memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), (size_t)whole);
    for (int64_t k = whole << 3; k < n; k++)
      cp_bit_set_to(dst, dst_offset + k, cp_bit_get(src, src_offset + k));
    return;
  }
  int64_t k = 0;
  /* Align the destination to a byte, then write whole destination bytes. */
  while (k < n && ((dst_offset + k) & 7)) {
    cp_bit_set_to(dst, dst_offset + k, cp_bit_get(src, src_offset + k));
    k++;
  }
  uint8_t *d = dst + ((dst_offset + k) >> 3);
  while (k + 8 <= n) {
    *d++ = read_byte_at(src, src_offset + k);
    k += 8;
  }
  for (; k < n; k++) cp_bit_set_to(dst, dst_offset + k, cp_bit_get(src, src_offset + k));
}
