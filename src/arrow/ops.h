/*
 * Batch operations on Arrow arrays of any supported type, nested ones included: take, filter,
 * concat, sort indices, row hashing, row comparison and equality, and safe casts.
 *
 * All operations read through validated views (array.h) and write new owned arrays through
 * builders, so inputs with any offset, null layout or nesting are handled alike. Slicing is
 * zero-copy: see cp_array_slice_inplace and cp_array_share in array.h, and cp_array_slice below.
 *
 * Ordering follows Spark SQL, which is what Paimon users compare against: nulls placed by the
 * caller's choice; -0.0 == 0.0; NaN equal to NaN and greater than every other value (Spark
 * SQLOrderingUtil.compareDoubles); strings and binaries bytewise unsigned; decimals by value at
 * equal scale; lists lexicographically; structs field by field.
 */
#ifndef CP_ARROW_OPS_H
#define CP_ARROW_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

/* Zero-copy slice: `out` becomes a new handle on `a`'s buffers (see cp_array_share) showing rows
 * [offset, offset + length) of `a`. `a` stays valid and unchanged in what it shows. */
int cp_array_slice(struct ArrowArray *a, int64_t offset, int64_t length, struct ArrowArray *out,
                   paimon_error *err);

/* Rows indices[0..n) of `v`, in that order, as a new owned array of v's type. A negative index
 * yields a null row (used to fill rows no input provides). Indices ≥ v->length are an error. */
int cp_take(const cp_array_view *v, const int64_t *indices, int64_t n, struct ArrowArray *out,
            paimon_error *err);

/* The rows of `v` whose bit is set in `selection` (a bitmap of v->length bits read from bit
 * `selection_offset`), as a new owned array. */
int cp_filter(const cp_array_view *v, const uint8_t *selection, int64_t selection_offset,
              struct ArrowArray *out, paimon_error *err);

/* As cp_filter with a bool view of the same length as the selection; null counts as false. */
int cp_filter_bool(const cp_array_view *v, const cp_array_view *selection, struct ArrowArray *out,
                   paimon_error *err);

/* The rows of views[0], views[1], ... views[n-1] one after another, as a new owned array. All
 * views must have the same type (cp_schema_equal on types; offset widths may differ, the result has
 * views[0]'s type). n == 0 is an error (no type to build). */
int cp_concat(const cp_array_view *views, int64_t n, struct ArrowArray *out, paimon_error *err);

/* ---- comparison, sorting, hashing ---------------------------------------------------------- */

/* Total order of two values (rows i of a and j of b, same logical type class): negative, 0 or
 * positive. Nulls sort before every value here (callers that need nulls last handle them first).
 * Integers of any width and signedness compare by value; floats as described above (float vs
 * double compares as double); dates, times, timestamps by their raw number (same unit assumed);
 * nested types recursively. Values of incomparable types compare by type id. */
int cp_compare_values(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j);

typedef struct cp_sort_key {
  const cp_array_view *column; /* all keys must have the same length */
  bool descending;
  bool nulls_first; /* independent of `descending`, as in SQL's NULLS FIRST / LAST */
} cp_sort_key;

/* Writes to `indices` (keys[0].column->length entries) the row numbers in sorted order by the keys
 * in turn. Stable: rows that compare equal keep their input order. O(n log n) merge sort with one
 * temporary index array. */
int cp_sort_indices(const cp_sort_key *keys, int64_t n_keys, int64_t *indices, paimon_error *err);

/* True when row i of `a` equals row j of `b` as a value: null equals null (grouping semantics),
 * integers compare by value across widths, string == large_string and binary == large_binary by
 * bytes, list == large_list by items, floats with -0.0 == 0.0 and NaN == NaN, nested recursively.
 * Different type classes are never equal. */
bool cp_rows_equal(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j);

/* 64-bit hash of row i of `v`, consistent with cp_rows_equal: rows that are equal hash alike,
 * whatever their offsets, offset widths or slicing. `seed` mixes in (use it to combine columns).
 * Not stable across cpaimon versions; do not persist. */
uint64_t cp_hash_value(const cp_array_view *v, int64_t i, uint64_t seed);

/* hashes[r] = combined hash of row r over `n_columns` key columns (all of the same length), for
 * r in [0, length). Equal key tuples give equal hashes. */
int cp_hash_rows(const cp_array_view *columns, int64_t n_columns, uint64_t *hashes,
                 paimon_error *err);

/* ---- casts --------------------------------------------------------------------------------- */

/* True when cp_cast can convert `from` to `to` without losing information:
 *  - identical types;
 *  - integer widening (signed → wider signed; unsigned → wider signed or wider/equal unsigned);
 *  - any integer → float or double (may round above 2^24 / 2^53, as SQL allows);
 *  - float → double;
 *  - string ↔ binary and large variants (binary → string validates UTF-8 per value);
 *  - list ↔ large_list (items cast recursively), struct → struct with the same field count (fields
 *    cast pairwise, names from `to`), map → map (keys/values cast);
 *  - timestamp → finer timestamp unit (s→ms→us→ns; overflow is an error per value), same or
 *    differing timezone string; time32/time64 → finer unit; date32 → timestamp;
 *  - decimal128(p,s) → decimal128(p2,s2) with s2 ≥ s and p2 - s2 ≥ p - s;
 *  - null → any type (all rows null). */
bool cp_cast_supported(const struct ArrowSchema *from, const struct ArrowSchema *to);

/* Casts `v` to the type of `to` (the result has `to`'s type; `to` is not retained). Fails with
 * PAIMON_EUNSUPPORTED naming both types for a cast not listed above, and PAIMON_EINVAL naming the
 * column and row for a value that cannot be represented (invalid UTF-8, overflow). */
int cp_cast(const cp_array_view *v, const struct ArrowSchema *to, struct ArrowArray *out,
            paimon_error *err);

#endif
