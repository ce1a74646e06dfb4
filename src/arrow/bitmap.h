/*
 * Bit-level helpers for Arrow validity and boolean bitmaps.
 *
 * Arrow bitmaps are least-significant-bit first: bit i lives in byte i/8 at position i%8 (Arrow
 * columnar format, "Validity bitmaps"). The bulk helpers work a byte or a 64-bit word at a time
 * and accept arbitrary bit offsets on both sides, because sliced arrays rarely start on a byte.
 */
#ifndef CP_ARROW_BITMAP_H
#define CP_ARROW_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

static inline bool cp_bit_get(const uint8_t *bits, int64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void cp_bit_set(uint8_t *bits, int64_t i) {
  bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}
static inline void cp_bit_clear(uint8_t *bits, int64_t i) {
  bits[i >> 3] &= (uint8_t) ~(1u << (i & 7));
}
static inline void cp_bit_set_to(uint8_t *bits, int64_t i, bool v) {
  bits[i >> 3] = (uint8_t)((bits[i >> 3] & ~(1u << (i & 7))) | ((unsigned)v << (i & 7)));
}

/* Bytes needed for `n` bits. */
static inline int64_t cp_bitmap_bytes(int64_t n) { return (n + 7) >> 3; }

/* Number of set bits in bits[offset, offset + n). */
int64_t cp_bitmap_count_set(const uint8_t *bits, int64_t offset, int64_t n);

/* Sets bits[offset, offset + n) to `v`. */
void cp_bitmap_set_range(uint8_t *bits, int64_t offset, int64_t n, bool v);

/* Copies n bits from src[src_offset..] to dst[dst_offset..]; bits of dst outside the range are
 * kept. The ranges must not overlap. */
void cp_bitmap_copy(uint8_t *dst, int64_t dst_offset, const uint8_t *src, int64_t src_offset,
                    int64_t n);

/* True when all of bits[offset, offset + n) are set (n == 0 → true). */
bool cp_bitmap_all_set(const uint8_t *bits, int64_t offset, int64_t n);

#endif
