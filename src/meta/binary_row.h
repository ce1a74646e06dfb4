/*
 * BinaryRow: Paimon's fixed-layout row encoding, used in manifests for partition values
 * (_PARTITION), min/max keys and the min/max rows of SimpleStats (spec/format.md §5).
 *
 * Serialized form (§5.1): a 4-byte big-endian arity followed by the row bytes. Offsets inside the
 * row are relative to the first byte after the arity. The writer produces exactly Java's bytes
 * (§5.4: Java compares partitions byte for byte), including the var-part space Java reserves for
 * NULL non-compact DECIMAL (precision > 18) and TIMESTAMP (precision > 3) fields.
 *
 * Only atomic types are supported (partition keys and statistics never hold nested values, §5.6);
 * nested types are EUNSUPPORTED on write and read back as NULL-or-error on read.
 */
#ifndef CP_META_BINARY_ROW_H
#define CP_META_BINARY_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "types/datum.h"
#include "types/type.h"

/* Appends the serialized row (arity prefix included) of `arity` values whose types are
 * `types[i]` to `out`. NULL datums need no particular payload. Strings longer than INT32_MAX and
 * decimals whose unscaled value needs more than 16 bytes are EINVAL. */
int cp_binary_row_write(const cp_type *const *types, const cp_datum *values, size_t arity,
                        cp_buf *out, paimon_error *err);

/* The arity stored in a serialized row (its first 4 bytes, big-endian), after checking that the
 * buffer is long enough for the fixed part. ECORRUPT otherwise. */
int cp_binary_row_arity(const uint8_t *data, size_t len, int32_t *arity, paimon_error *err);

/* Decodes a serialized row into `out[0..n_types)`. The row's arity must equal n_types. Variable-
 * length values point into `data` (borrowed). Every offset and length is bounds-checked: malformed
 * bytes are ECORRUPT, never an out-of-bounds read. */
int cp_binary_row_read(const uint8_t *data, size_t len, const cp_type *const *types, size_t n_types,
                       cp_datum *out, paimon_error *err);

/* The 12 bytes of the empty row (arity 0), which Paimon writes for _MIN_KEY/_MAX_KEY of append
 * tables and for empty statistics. */
extern const uint8_t cp_binary_row_empty[12];

#endif
