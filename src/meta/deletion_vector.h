/*
 * Deletion vectors and deletion-vector index files (spec/format.md §7.2).
 *
 * A deletion vector (DV) is the set of deleted row positions of one data file (0-based physical
 * positions, counted before any deletion). On disk a DV is one record of an index file:
 *
 *   file  := version:u8 (= 1), record*
 *   dv32  := len:i32 BE, magic:i32 BE = 1581511376, roaring32, crc:i32 BE   (f2 = len)
 *   dv64  := len:i32 BE, magic:i32 LE = 1681511377, bitmap64, crc:i32 BE    (f2 = 4 + len + 4)
 *
 * where `len` counts the magic and the bitmap, and the CRC-32 covers the same bytes. roaring32 is
 * the portable RoaringBitmap serialization (cookie 12346 without run containers, 12347 with);
 * bitmap64 is a little-endian count followed by (key:i32 LE, roaring32) pairs, the key being the
 * high 32 bits of the positions in that bitmap.
 *
 * What we write: the 32-bit form without run containers (the only form pypaimon reads), records
 * back to back after the version byte. What we read: both forms, and roaring32 with array,
 * bitset and run containers (Java runs runOptimize() before serialising). Like Java and pypaimon
 * we do not verify the CRC (a reader that did would reject files Java accepts). Every length,
 * count and offset is bounds-checked: malformed bytes are PAIMON_ECORRUPT naming `source` and the
 * byte offset, never an out-of-bounds read or an allocation larger than the input justifies.
 *
 * Memory: a cp_dv owns its bitmaps (CRoaring, one per distinct high 32 bits of the positions);
 * free it with cp_dv_free. Not thread-safe for writing; concurrent readers are fine.
 */
#ifndef CP_META_DELETION_VECTOR_H
#define CP_META_DELETION_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

#define CP_DV_MAGIC32 1581511376
#define CP_DV_MAGIC64 1681511377
#define CP_DV_INDEX_VERSION 1
/* _INDEX_TYPE of deletion-vector index files in the index manifest (§7.1). */
#define CP_DV_INDEX_TYPE "DELETION_VECTORS"
/* Largest position a 32-bit DV holds (Java's BitmapDeletionVector.MAX_VALUE). */
#define CP_DV_MAX_POSITION32 INT64_C(2147483647)

typedef struct cp_dv cp_dv;

/* An empty DV. */
int cp_dv_new(cp_dv **out, paimon_error *err);
void cp_dv_free(cp_dv *dv);

/* Marks `position` (>= 0) deleted; *added (may be NULL) tells whether it was not already. */
int cp_dv_add(cp_dv *dv, int64_t position, bool *added, paimon_error *err);
/* Adds every position of `src` to `dst`. */
int cp_dv_merge(cp_dv *dst, const cp_dv *src, paimon_error *err);
bool cp_dv_contains(const cp_dv *dv, int64_t position);
/* Number of deleted positions. */
int64_t cp_dv_cardinality(const cp_dv *dv);
/* The largest deleted position, or -1 when the DV is empty. */
int64_t cp_dv_max(const cp_dv *dv);

/* Fills `keep` (a bitmap of n bits, LSB first, as Arrow validity bitmaps) with 1 for each row
 * start .. start+n-1 that is NOT deleted and 0 for deleted ones; returns the number of kept rows.
 */
int64_t cp_dv_select(const cp_dv *dv, int64_t start, int64_t n, uint8_t *keep);

/* Calls fn(ctx, position) for each deleted position in ascending order; stops early (returning
 * fn's value) when fn returns non-zero. */
int cp_dv_foreach(const cp_dv *dv, int (*fn)(void *ctx, int64_t position), void *ctx);

/* ---- one roaring32 bitmap (portable format) ---- */

/* Parses a portable 32-bit Roaring bitmap at data[0..len) and adds its values, each OR'ed with
 * `high` << 32, to `into`. *consumed = the bitmap's size in bytes (trailing bytes are left). */
int cp_roaring32_read(const uint8_t *data, size_t len, uint32_t high, cp_dv *into, size_t *consumed,
                      const char *source, paimon_error *err);

/* ---- records ---- */

/* Reads one DV record from data[0..len) (the bytes starting at the record's length prefix).
 * `length` is the DV meta's f2 (checked against the prefix as Java checks it), or -1 when
 * unknown. *record_size (may be NULL) receives the record's total size in bytes. */
int cp_dv_read_record(const uint8_t *data, size_t len, int64_t length, const char *source,
                      cp_dv **out, size_t *record_size, paimon_error *err);

/* Appends the 32-bit record of `dv` (no run containers); *length = the record's f2. Positions
 * above CP_DV_MAX_POSITION32 are EINVAL (use the 64-bit form). */
int cp_dv_write_record32(const cp_dv *dv, cp_buf *out, int32_t *length, paimon_error *err);

/* Appends the 64-bit record of `dv` (Java's Bitmap64DeletionVector layout, keys 0..max with
 * empty bitmaps included); *length = its f2. For tests and tools: pypaimon cannot read it. */
int cp_dv_write_record64(const cp_dv *dv, cp_buf *out, int32_t *length, paimon_error *err);

/* ---- index files ---- */

/* One DV of an index file being written, and where it landed. */
typedef struct cp_dv_slot {
  const char *data_file; /* f0 */
  const cp_dv *dv;
  int32_t offset;      /* out: f1, position of the record's length prefix */
  int32_t length;      /* out: f2 */
  int64_t cardinality; /* out: _CARDINALITY */
} cp_dv_slot;

/* Appends a whole index file: the version byte, then the records of slots[0..n) in that order
 * (callers sort by data file name, as pypaimon does), filling each slot's offset, length and
 * cardinality. Files over 2 GiB are EINVAL (offsets are 32-bit). */
int cp_dv_index_write(cp_dv_slot *slots, size_t n, cp_buf *out, paimon_error *err);

/* Reads the DV at (offset, length) of an index file held in data[0..len): checks the version
 * byte and bounds, then reads the record. */
int cp_dv_index_read(const uint8_t *data, size_t len, int64_t offset, int64_t length,
                     const char *source, cp_dv **out, paimon_error *err);

#endif
