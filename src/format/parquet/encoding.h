/*
 * Parquet value and level encodings: pure functions over byte ranges (spec/parquet.md §2.7, the
 * byte-level rules; §2.5 lists what the reader must accept, §2.3 what the writer emits; §3 for
 * levels; §4 P13/P14 for the length-prefix rules). Facts from parquet-format `Encodings.md`.
 *
 * Nothing here knows about pages, compression or Thrift: the page reader/writer hands in the bytes
 * of one section of an uncompressed page body and gets values out (or the reverse). Every decoder
 * bounds-checks every read against the range it was given, never allocates from a count it read
 * from the input (outputs are sized by the caller, who knows how many values a page holds), and
 * fails with PAIMON_ECORRUPT and a message naming the encoding and the byte offset (relative to the
 * start of the range passed in; the page reader prefixes the file, column and page). Encoders take
 * trusted in-memory values and append to a cp_buf.
 *
 * Conventions shared by every function below:
 * - Outputs come first, inputs after, `paimon_error *err` last; 0 or a negative PAIMON_E* code.
 * - `n` is the number of values to produce or consume. A decoder fails if the input holds fewer.
 * - Byte arrays are produced in Arrow layout: `offsets` has room for n + 1 int32 entries and
 *   receives offsets[0] = values->len on entry and offsets[i + 1] = end of value i in `values`;
 *   the bytes are appended to `values` (a cp_buf the caller owns). Calls may be chained: pass
 *   `offsets + k` after a call that produced k values. The total must stay <= INT32_MAX.
 *   Encoders take byte arrays in the same layout (value i = data[offsets[i], offsets[i + 1])).
 * - Fixed-width values are in host order, which must be little-endian (checked at compile time),
 *   so PLAIN INT32/INT64/FLOAT/DOUBLE/INT96/FLBA bytes are the in-memory values.
 * - Booleans travel as one byte per value (0 or 1), the form the page reader scatters into Arrow
 *   bitmaps around the nulls.
 * - After a failure the contents of the outputs are unspecified (a `values` buffer may have
 *   grown); the caller discards the page.
 *
 * Thread safety: no shared state; a decoder or builder object may be used by one thread at a time.
 */
#ifndef CP_FORMAT_PARQUET_ENCODING_H
#define CP_FORMAT_PARQUET_ENCODING_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* The dictionary page size past which both reference writers fall back to PLAIN (§2.11). */
#define CP_PQ_DICT_PAGE_LIMIT_DEFAULT ((size_t)1024 * 1024)

/* Number of bits needed to represent `max_value` (0 for 0): the bit width of levels whose maximum
 * is `max_value`, and of dictionary indices when `max_value` = dictionary size - 1. */
static inline int cp_pq_bit_width(uint64_t max_value) {
  int w = 0;
  while (max_value) {
    w++;
    max_value >>= 1;
  }
  return w;
}

/* ------------------------------------------------------------------------------------------------
 * RLE / bit-packing hybrid (levels, dictionary indices, RLE booleans).
 */

/* A cursor over RLE-hybrid data of one bit width. Lives on the caller's stack; the fields are
 * private. It borrows `data`, which must outlive it. Decoding can be done in any number of calls.
 */
typedef struct cp_pq_rle_decoder {
  const uint8_t *data;
  size_t len;
  size_t pos;        /* next unread byte (run header or next bit-packed group) */
  size_t base;       /* offset of data[0] in the caller's range, for messages */
  const char *what;  /* static label for messages, e.g. "definition levels" */
  int bit_width;     /* 0..32 */
  int packed;        /* current run is bit-packed */
  uint32_t run_left; /* values left in the current run */
  uint32_t run_value;
  uint32_t pending_pos, pending_n; /* leftovers of a bit-packed group already unpacked */
  uint32_t pending[8];
  size_t produced; /* values decoded or skipped so far, for messages */
} cp_pq_rle_decoder;

/* Starts decoding `len` bytes of RLE-hybrid data without a length prefix (data page v2 levels, or
 * the RLE body after a prefix). `what` names the stream in messages (a static string). Fails if
 * bit_width is outside 0..32. With bit width 0 every value is 0 and, should the data run out, the
 * decoder keeps producing zeros (writers disagree on whether such runs are written at all). */
int cp_pq_rle_decoder_init(cp_pq_rle_decoder *d, const uint8_t *data, size_t len, int bit_width,
                           const char *what, paimon_error *err);

/* Decode the next n values into an int32, int16 or uint8 array. int32 receives the uint32 bit
 * pattern; the int16 and uint8 forms fail on a value past INT16_MAX / UINT8_MAX (bit widths up to
 * 15 / 8 always fit). */
int cp_pq_rle_decode_i32(cp_pq_rle_decoder *d, int32_t *out, size_t n, paimon_error *err);
int cp_pq_rle_decode_i16(cp_pq_rle_decoder *d, int16_t *out, size_t n, paimon_error *err);
int cp_pq_rle_decode_u8(cp_pq_rle_decoder *d, uint8_t *out, size_t n, paimon_error *err);

/* Skips the next n values. */
int cp_pq_rle_skip(cp_pq_rle_decoder *d, size_t n, paimon_error *err);

/* Reads the 4-byte little-endian length that precedes v1 levels and RLE booleans, and checks it
 * against the range: *body and *body_len receive the RLE data, *consumed = 4 + *body_len. */
int cp_pq_rle_length_prefix(const uint8_t **body, size_t *body_len, size_t *consumed,
                            const uint8_t *data, size_t len, const char *what, paimon_error *err);

/* Upper bound of the bytes cp_pq_rle_encode_* appends for n values of bit_width (no prefix). */
size_t cp_pq_rle_max_size(size_t n, int bit_width);

/* Appends the RLE-hybrid encoding of `values` (no length prefix). Repeats of 8 or more become RLE
 * runs, everything else bit-packed runs whose last group is zero-padded — the usual writer
 * heuristic (parquet-java's and Arrow's run boundaries can differ in detail; readers accept any).
 * Fails with PAIMON_EINVAL if a value needs more than bit_width bits (int32 values count as their
 * uint32 bit pattern; int16 values, being levels, must not be negative). */
int cp_pq_rle_encode_i32(cp_buf *out, const int32_t *values, size_t n, int bit_width,
                         paimon_error *err);
int cp_pq_rle_encode_i16(cp_buf *out, const int16_t *values, size_t n, int bit_width,
                         paimon_error *err);

/* A streaming RLE-hybrid encoder fed with runs (value, count) or level arrays, for writers whose
 * values come as runs (the repetition and definition levels of lists, constant definition levels)
 * and should never be expanded one entry at a time. The output decodes to the concatenation of
 * everything put, in order; it is the same stream of runs cp_pq_rle_encode_* would produce except
 * that long literal stretches are cut into bit-packed runs of at most CP_PQ_RLE_LITERAL_MAX values
 * (any reader accepts consecutive bit-packed runs). A repeat of a value becomes an RLE run when 8
 * or more of it are left after completing the pending literal group; shorter repeats are
 * bit-packed.
 *
 * Lives on the caller's side (fields private); appends to the cp_buf given at init, which the
 * caller owns. Values must fit bit_width (0..32): put_run checks its value, put_i16 its levels
 * (EINVAL naming the value). After cp_pq_rle_writer_finish the output is complete; init again to
 * start another stream. */
#define CP_PQ_RLE_LITERAL_MAX 512
typedef struct cp_pq_rle_writer {
  cp_buf *out;
  int bit_width;
  uint32_t run_value; /* the run still being extended: not yet written */
  uint64_t run_len;
  size_t n_lit; /* pending literal values (n_lit % 8 is the open group's fill) */
  uint32_t lit[CP_PQ_RLE_LITERAL_MAX];
} cp_pq_rle_writer;

void cp_pq_rle_writer_init(cp_pq_rle_writer *w, cp_buf *out, int bit_width);
int cp_pq_rle_writer_put_run(cp_pq_rle_writer *w, uint32_t value, uint64_t count,
                             paimon_error *err);
int cp_pq_rle_writer_put_i16(cp_pq_rle_writer *w, const int16_t *values, size_t n,
                             paimon_error *err);
int cp_pq_rle_writer_finish(cp_pq_rle_writer *w, paimon_error *err);

/* An upper bound of the bytes the stream will take once finished (output so far + pending). */
size_t cp_pq_rle_writer_size_bound(const cp_pq_rle_writer *w);

/* ------------------------------------------------------------------------------------------------
 * Levels (§3): definition and repetition levels of one page.
 */

/* Decodes the n levels of one page section into `out`, checking every level against max_level
 * (levels past it would make record assembly index out of bounds). `length_prefixed`: 1 for data
 * page v1 (4-byte LE length first; `data`/`len` may extend past the section, *consumed says where
 * it ended), 0 for data page v2 (`data`/`len` is exactly the section the page header gives).
 * max_level 0 means the section is absent: out is zero-filled and *consumed = 0. `what` is
 * "definition levels" or "repetition levels" for messages. */
int cp_pq_levels_decode(int16_t *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                        int16_t max_level, int length_prefixed, const char *what,
                        paimon_error *err);

/* cp_pq_levels_decode that also counts the levels equal to max_level into *n_max — for definition
 * levels, the page's non-null values — as it decodes them (a whole RLE run at once), so that the
 * reader needs no second pass over the page's levels. With max_level 0 every entry counts. */
int cp_pq_levels_decode_count(int16_t *out, size_t n, size_t *consumed, size_t *n_max,
                              const uint8_t *data, size_t len, int16_t max_level,
                              int length_prefixed, const char *what, paimon_error *err);

/* Number of entries equal to `level` — with level = max_def, the number of non-null values. */
size_t cp_pq_count_level(const int16_t *levels, size_t n, int16_t level);

/* Appends the level section of one page: nothing when max_level is 0, else (v1: a 4-byte length,
 * then) the RLE hybrid at bit width cp_pq_bit_width(max_level). Fails if a level is out of range.
 */
int cp_pq_levels_encode(cp_buf *out, const int16_t *levels, size_t n, int16_t max_level,
                        int length_prefixed, paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * Dictionary indices (RLE_DICTIONARY / PLAIN_DICTIONARY data pages) and dictionary gathers.
 */

/* Reads the bit-width byte (0..32) that starts a dictionary-encoded data page and prepares `d` for
 * the indices that follow (no length prefix). */
int cp_pq_dict_indices_init(cp_pq_rle_decoder *d, const uint8_t *data, size_t len,
                            paimon_error *err);

/* Decodes the next n indices, failing if one is >= dict_count (the message gives the index, its
 * position and the dictionary size). */
int cp_pq_dict_indices_decode(cp_pq_rle_decoder *d, int32_t *out, size_t n, size_t dict_count,
                              paimon_error *err);

/* Appends a dictionary data page's values section: the bit-width byte for dict_count entries,
 * then the RLE-hybrid indices. Fails if an index is out of range. */
int cp_pq_dict_indices_encode(cp_buf *out, const int32_t *indices, size_t n, size_t dict_count,
                              paimon_error *err);

/* out[i] = dictionary entry indices[i], for `width`-byte entries (4, 8, 12 or the FLBA length).
 * `dict` holds dict_count entries. Indices are checked again (cheaply) against dict_count. */
int cp_pq_dict_gather_fixed(void *out, const int32_t *indices, size_t n, const void *dict,
                            size_t dict_count, size_t width, paimon_error *err);

/* The byte-array form: the dictionary is dict_count entries in Arrow layout (dict_offsets has
 * dict_count + 1 entries); the values are appended to `values` as described at the top. */
int cp_pq_dict_gather_binary(int32_t *offsets, cp_buf *values, const int32_t *indices, size_t n,
                             const int32_t *dict_offsets, const uint8_t *dict_data,
                             size_t dict_count, paimon_error *err);

/* A hash-based dictionary builder for the writer: distinct values in first-seen order, each value
 * mapped to its index. Opaque; owns its memory until cp_pq_dict_builder_free. Values are compared
 * bit for bit (so -0.0 and 0.0, or two NaN payloads, are distinct entries, which is lossless). */
typedef struct cp_pq_dict_builder cp_pq_dict_builder;

/* width > 0: fixed-width values of that many bytes (INT32/FLOAT 4, INT64/DOUBLE 8, INT96 12, FLBA
 * its length); width 0: BYTE_ARRAY. */
int cp_pq_dict_builder_new(cp_pq_dict_builder **out, size_t width, paimon_error *err);
void cp_pq_dict_builder_free(cp_pq_dict_builder *b);

/* Forgets every entry (for the next column chunk), keeping the allocated memory. */
void cp_pq_dict_builder_reset(cp_pq_dict_builder *b);

/* Adds n values, writing each one's dictionary index to indices[i]. The _fixed form takes n
 * packed values of the builder's width; the _binary form n byte arrays in Arrow layout. */
int cp_pq_dict_builder_put_fixed(cp_pq_dict_builder *b, int32_t *indices, const void *values,
                                 size_t n, paimon_error *err);
int cp_pq_dict_builder_put_binary(cp_pq_dict_builder *b, int32_t *indices, const int32_t *offsets,
                                  const uint8_t *data, size_t n, paimon_error *err);

/* Entries so far. */
size_t cp_pq_dict_builder_count(const cp_pq_dict_builder *b);

/* Size in bytes of the PLAIN dictionary page body for the entries so far — what the writer
 * compares with its dictionary page limit (CP_PQ_DICT_PAGE_LIMIT_DEFAULT) to decide to fall back.
 */
size_t cp_pq_dict_builder_plain_size(const cp_pq_dict_builder *b);

/* Appends the PLAIN dictionary page body. */
int cp_pq_dict_builder_write_plain(const cp_pq_dict_builder *b, cp_buf *out, paimon_error *err);

/* Borrowed views of the entries (valid until the next put/reset/free): fixed-width entries packed
 * back to back; byte-array entries in Arrow layout (count + 1 offsets). NULL for the other kind. */
const uint8_t *cp_pq_dict_builder_fixed_values(const cp_pq_dict_builder *b);
const int32_t *cp_pq_dict_builder_binary_offsets(const cp_pq_dict_builder *b);
const uint8_t *cp_pq_dict_builder_binary_data(const cp_pq_dict_builder *b);

/* ------------------------------------------------------------------------------------------------
 * PLAIN.
 */

/* n values of `width` bytes (INT32/FLOAT 4, INT64/DOUBLE 8, INT96 12, FLBA its length);
 * *consumed = n * width. */
int cp_pq_plain_decode_fixed(void *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                             size_t width, paimon_error *err);

/* n booleans starting at value index `first` of a PLAIN boolean section (bit-packed LSB first;
 * `data`/`len` is the whole section), as 0/1 bytes. */
int cp_pq_plain_decode_bool(uint8_t *out, size_t n, const uint8_t *data, size_t len, size_t first,
                            paimon_error *err);

/* n byte arrays (4-byte LE length, then the bytes) into Arrow layout; *consumed = bytes read. */
int cp_pq_plain_decode_binary(int32_t *offsets, cp_buf *values, size_t n, size_t *consumed,
                              const uint8_t *data, size_t len, paimon_error *err);

int cp_pq_plain_encode_fixed(cp_buf *out, const void *values, size_t n, size_t width,
                             paimon_error *err);

/* Appends n booleans (0 = false, anything else = true) to a PLAIN boolean section whose first
 * *bit_count bits are already at the end of `out` (start a page with *bit_count = 0); updates
 * *bit_count. The last byte's unused high bits are zero. */
int cp_pq_plain_encode_bool(cp_buf *out, size_t *bit_count, const uint8_t *values, size_t n,
                            paimon_error *err);

int cp_pq_plain_encode_binary(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                              paimon_error *err);

/* Checks every byte array has length `width` and copies them back to back into `out` (FLBA values
 * that arrive through DELTA_BYTE_ARRAY). */
int cp_pq_binary_to_fixed(void *out, const int32_t *offsets, const uint8_t *data, size_t n,
                          size_t width, paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * RLE booleans (values encoding RLE on BOOLEAN columns, v1 and v2 pages): 4-byte LE length, then
 * RLE hybrid at bit width 1.
 */

/* Decodes n booleans as 0/1 bytes; *consumed = 4 + the prefixed length. For decoding in several
 * calls, use cp_pq_rle_length_prefix + cp_pq_rle_decoder_init(…, 1, …) + cp_pq_rle_decode_u8. */
int cp_pq_rle_bool_decode(uint8_t *out, size_t n, size_t *consumed, const uint8_t *data, size_t len,
                          paimon_error *err);
int cp_pq_rle_bool_encode(cp_buf *out, const uint8_t *values, size_t n, paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * DELTA_BINARY_PACKED (INT32, INT64) and the byte-array encodings built on it.
 */

/* A cursor over DELTA_BINARY_PACKED data. Lives on the caller's stack; fields are private. It
 * borrows `data`. Arithmetic wraps in the value width (32 or 64 bits), as the spec requires. */
typedef struct cp_pq_delta_decoder {
  const uint8_t *data;
  size_t len;
  size_t pos;          /* next unread byte */
  const char *what;    /* static label for messages */
  int value_bits;      /* 32 or 64 */
  uint32_t block_size; /* values per block */
  uint32_t miniblocks; /* miniblocks per block */
  uint32_t mini_size;  /* values per miniblock */
  uint64_t total;      /* values in the header */
  uint64_t returned;   /* values handed out so far */
  uint64_t last;       /* previous value (wrapping) */
  uint64_t min_delta;  /* of the current block */
  size_t widths_pos;   /* first bit-width byte of the current block */
  size_t mini_pos;     /* next unread group of the current miniblock */
  size_t mini_end;     /* end of the current miniblock's bytes (clamped to len) */
  uint32_t mini_index; /* current miniblock within the block */
  uint32_t mini_left;  /* values left in the current miniblock (0: none started) */
  uint32_t block_left; /* deltas left in the current block */
  int mini_width;      /* bit width of the current miniblock */
  uint32_t pending_pos, pending_n;
  uint64_t pending[8];
} cp_pq_delta_decoder;

/* Parses the header. value_bits is 32 (INT32) or 64 (INT64). `what` labels messages. The header
 * is validated (block size a positive multiple of 128, miniblock size a multiple of 32, total
 * count <= INT32_MAX). */
int cp_pq_delta_decoder_init(cp_pq_delta_decoder *d, const uint8_t *data, size_t len,
                             int value_bits, const char *what, paimon_error *err);

/* Values the header says the stream holds. */
static inline size_t cp_pq_delta_decoder_total(const cp_pq_delta_decoder *d) {
  return (size_t)d->total;
}

/* The next n values (fails if fewer remain). The i32 form needs value_bits 32, i64 form 64. */
int cp_pq_delta_decode_i32(cp_pq_delta_decoder *d, int32_t *out, size_t n, paimon_error *err);
int cp_pq_delta_decode_i64(cp_pq_delta_decoder *d, int64_t *out, size_t n, paimon_error *err);

/* Skips every value not yet decoded and reports where the encoded stream ends (bytes from the
 * start of `data`): what follows is the next section (DELTA_LENGTH_BYTE_ARRAY's bytes). */
int cp_pq_delta_decoder_end(cp_pq_delta_decoder *d, size_t *consumed, paimon_error *err);

/* Appends the encoding of n values with blocks of 128 values in 4 miniblocks of 32 (parquet-java's
 * layout for both types; Arrow uses it for INT32 and 256-value blocks for INT64). */
int cp_pq_delta_encode_i32(cp_buf *out, const int32_t *values, size_t n, paimon_error *err);
int cp_pq_delta_encode_i64(cp_buf *out, const int64_t *values, size_t n, paimon_error *err);

/* DELTA_LENGTH_BYTE_ARRAY: n lengths (DELTA_BINARY_PACKED, header count >= n), then the bytes.
 * The section runs to the end of the page, so there is no *consumed. */
int cp_pq_dlba_decode(int32_t *offsets, cp_buf *values, size_t n, const uint8_t *data, size_t len,
                      paimon_error *err);
int cp_pq_dlba_encode(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                      paimon_error *err);

/* DELTA_BYTE_ARRAY: prefix lengths (DELTA_BINARY_PACKED), then the suffixes as
 * DELTA_LENGTH_BYTE_ARRAY; value i = first prefix_len[i] bytes of value i - 1, then suffix i.
 * Because a tiny page can expand to a huge output (long shared prefixes), the decoded bytes are
 * capped at max_bytes (0: INT32_MAX, the Arrow offset limit); past it the decoder fails. */
int cp_pq_dba_decode(int32_t *offsets, cp_buf *values, size_t n, const uint8_t *data, size_t len,
                     size_t max_bytes, paimon_error *err);
int cp_pq_dba_encode(cp_buf *out, const int32_t *offsets, const uint8_t *data, size_t n,
                     paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64, FLBA): `width` streams of N bytes each, where
 * N = len / width is the number of values in the page (len must be a multiple of width).
 */

/* Decodes values [first, first + n) of the page's N values. */
int cp_pq_bss_decode(void *out, size_t n, const uint8_t *data, size_t len, size_t width,
                     size_t first, paimon_error *err);
int cp_pq_bss_encode(cp_buf *out, const void *values, size_t n, size_t width, paimon_error *err);

/* ------------------------------------------------------------------------------------------------
 * Building blocks shared by the encodings (and usable by the page reader).
 */

/* Unpacks `groups` groups of 8 values packed LSB-first at bit_width (0..32 / 0..64) from `in`.
 * Reads at most `in_len` bytes; bytes a group needs beyond in_len read as zero (so a truncated
 * final group is harmless). */
void cp_pq_unpack32(uint32_t *out, const uint8_t *in, size_t in_len, size_t groups, int bit_width);
void cp_pq_unpack64(uint64_t *out, const uint8_t *in, size_t in_len, size_t groups, int bit_width);

/* Packs groups of 8 values into groups * bit_width bytes at `out` (bits above bit_width ignored).
 */
void cp_pq_pack32(uint8_t *out, const uint32_t *values, size_t groups, int bit_width);
void cp_pq_pack64(uint8_t *out, const uint64_t *values, size_t groups, int bit_width);

/* ULEB128 varint at data[*pos]; advances *pos. Returns 0, or -1 when truncated, -2 when longer
 * than `max_bits` allows (32 or 64). */
int cp_pq_uleb128_read(uint64_t *out, const uint8_t *data, size_t len, size_t *pos, int max_bits);

/* Appends a ULEB128 varint (at most 10 bytes); the caller reserved room. */
static inline size_t cp_pq_uleb128_put(uint8_t *p, uint64_t v) {
  size_t k = 0;
  while (v >= 0x80) {
    p[k++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[k++] = (uint8_t)v;
  return k;
}

static inline uint64_t cp_pq_zigzag_encode(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(0 - (uint64_t)(v < 0));
}
static inline int64_t cp_pq_zigzag_decode(uint64_t v) {
  return (int64_t)((v >> 1) ^ (0 - (v & 1)));
}

#endif
