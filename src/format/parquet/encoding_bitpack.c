/*
 * Bit packing and varints shared by the Parquet encodings (spec/parquet.md §2.7; parquet-format
 * Encodings.md "RLE / bit-packing hybrid", note 1: values packed LSB-first, 8 per group, so a group
 * of width w is exactly w bytes).
 *
 * The unpackers are the hot loop of every level, dictionary-index and delta decoder. Each bit
 * width gets its own copy of the loop (a switch over an always-inlined body whose width is a
 * constant), so shifts and masks fold into immediates and the eight extractions of a group unroll.
 * Each value is pulled out of one unaligned 64-bit little-endian load at the byte where it starts:
 * a value of up to 57 bits plus the at most 7-bit offset inside that byte fits in 64 bits; wider
 * values (delta miniblocks of INT64 data) take their top bits from the following byte. Such loads
 * read up to 8 bytes past a group's end, so the fast loop runs only while that much input remains
 * and the last groups go through a zero-padded copy — which also makes a truncated final group
 * read as zeros instead of past the buffer.
 */
#include <string.h>

#include "format/parquet/encoding.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cpaimon's Parquet encodings assume a little-endian host"
#endif

#if defined(__GNUC__)
#define CP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CP_ALWAYS_INLINE inline
#endif

static CP_ALWAYS_INLINE uint64_t load_le64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static CP_ALWAYS_INLINE uint64_t mask64(unsigned w) {
  return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
}

/* One group of 8 values of width w <= 32: needs w + 8 readable bytes at `in`. */
static CP_ALWAYS_INLINE void unpack32_group(uint32_t *out, const uint8_t *in, const unsigned w) {
  for (unsigned i = 0; i < 8; i++) {
    const unsigned bit = i * w;
    out[i] = (uint32_t)((load_le64(in + (bit >> 3)) >> (bit & 7)) & mask64(w));
  }
}

/* One group of 8 values of width w <= 64: needs w + 8 readable bytes at `in`. */
static CP_ALWAYS_INLINE void unpack64_group(uint64_t *out, const uint8_t *in, const unsigned w) {
  for (unsigned i = 0; i < 8; i++) {
    const unsigned bit = i * w;
    const unsigned shift = bit & 7;
    uint64_t v = load_le64(in + (bit >> 3)) >> shift;
    if (w + shift > 64) v |= (uint64_t)in[(bit >> 3) + 8] << (64 - shift);
    out[i] = v & mask64(w);
  }
}

/* Slack the fast path needs after the group it unpacks. */
enum { UNPACK_SLACK = 8 };

static CP_ALWAYS_INLINE size_t unpack32_fast(uint32_t *out, const uint8_t *in, size_t in_len,
                                             size_t groups, const unsigned w) {
  size_t g = 0;
  if (w == 0) {
    memset(out, 0, groups * 8 * sizeof *out);
    return groups;
  }
  while (g < groups && in_len >= (g + 1) * w + UNPACK_SLACK) {
    unpack32_group(out + g * 8, in + g * w, w);
    g++;
  }
  return g;
}

static CP_ALWAYS_INLINE size_t unpack64_fast(uint64_t *out, const uint8_t *in, size_t in_len,
                                             size_t groups, const unsigned w) {
  size_t g = 0;
  if (w == 0) {
    memset(out, 0, groups * 8 * sizeof *out);
    return groups;
  }
  while (g < groups && in_len >= (g + 1) * w + UNPACK_SLACK) {
    unpack64_group(out + g * 8, in + g * w, w);
    g++;
  }
  return g;
}

/* clang-format off: the formatter does not reach a fixed point on these lists */
#define CP_CASES_0_32(X)                                                                           \
  X(0)                                                                                             \
  X(1)                                                                                             \
  X(2)                                                                                             \
  X(3)                                                                                             \
  X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20)  \
      X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
#define CP_CASES_33_64(X)                                                                          \
  X(33)                                                                                            \
  X(34)                                                                                            \
  X(35)                                                                                            \
  X(36)                                                                                            \
  X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49) X(50) X(51) X(52)  \
      X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62) X(63) X(64)
/* clang-format on */

void cp_pq_unpack32(uint32_t *out, const uint8_t *in, size_t in_len, size_t groups, int bit_width) {
  size_t done = 0;
  switch (bit_width) {
#define CP_UNPACK32_CASE(W)                                                                        \
  case W: done = unpack32_fast(out, in, in_len, groups, W); break;
    CP_CASES_0_32(CP_UNPACK32_CASE)
#undef CP_UNPACK32_CASE
  default: return;
  }
  /* The last groups (too close to the end for 8-byte loads) go through a padded copy. */
  const size_t w = (size_t)bit_width;
  for (size_t g = done; g < groups; g++) {
    uint8_t tmp[32 + UNPACK_SLACK] = {0};
    size_t off = g * w;
    if (off < in_len) memcpy(tmp, in + off, in_len - off < w ? in_len - off : w);
    unpack32_group(out + g * 8, tmp, (unsigned)w);
  }
}

void cp_pq_unpack64(uint64_t *out, const uint8_t *in, size_t in_len, size_t groups, int bit_width) {
  size_t done = 0;
  switch (bit_width) {
#define CP_UNPACK64_CASE(W)                                                                        \
  case W: done = unpack64_fast(out, in, in_len, groups, W); break;
    CP_CASES_0_32(CP_UNPACK64_CASE)
    CP_CASES_33_64(CP_UNPACK64_CASE)
#undef CP_UNPACK64_CASE
  default: return;
  }
  const size_t w = (size_t)bit_width;
  for (size_t g = done; g < groups; g++) {
    uint8_t tmp[64 + UNPACK_SLACK + 1] = {0};
    size_t off = g * w;
    if (off < in_len) memcpy(tmp, in + off, in_len - off < w ? in_len - off : w);
    unpack64_group(out + g * 8, tmp, (unsigned)w);
  }
}

/* Packing is on the write path only; a 64-bit accumulator flushed a word at a time is plenty. */
static void pack_bits(uint8_t *out, const uint32_t *v32, const uint64_t *v64, size_t count,
                      unsigned w) {
  if (w == 0) return;
  const uint64_t mask = mask64(w);
  uint64_t acc = 0;
  unsigned nbits = 0;
  for (size_t i = 0; i < count; i++) {
    uint64_t v = (v32 ? (uint64_t)v32[i] : v64[i]) & mask;
    acc |= v << nbits;
    if (nbits + w >= 64) {
      memcpy(out, &acc, 8);
      out += 8;
      unsigned used = 64 - nbits;
      acc = used < 64 ? v >> used : 0;
      nbits = nbits + w - 64;
    } else {
      nbits += w;
    }
  }
  for (unsigned b = 0; b < nbits; b += 8) *out++ = (uint8_t)(acc >> b);
}

void cp_pq_pack32(uint8_t *out, const uint32_t *values, size_t groups, int bit_width) {
  pack_bits(out, values, NULL, groups * 8, (unsigned)bit_width);
}

void cp_pq_pack64(uint8_t *out, const uint64_t *values, size_t groups, int bit_width) {
  pack_bits(out, NULL, values, groups * 8, (unsigned)bit_width);
}

int cp_pq_uleb128_read(uint64_t *out, const uint8_t *data, size_t len, size_t *pos, int max_bits) {
  uint64_t v = 0;
  unsigned shift = 0;
  size_t p = *pos;
  for (;;) {
    if (p >= len) return -1;
    uint8_t byte = data[p++];
    uint64_t part = (uint64_t)(byte & 0x7F);
    if (shift >= (unsigned)max_bits || (shift > 0 && (part >> ((unsigned)max_bits - shift)) != 0))
      return -2;
    v |= part << shift;
    if (!(byte & 0x80)) break;
    shift += 7;
  }
  *out = v;
  *pos = p;
  return 0;
}
