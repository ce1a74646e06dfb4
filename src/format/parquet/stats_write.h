/*
 * Column statistics for the writer (spec/parquet.md §2.3 item 5, §2.9, §4 P6-P8/P20): min/max in
 * each leaf's sort order, null and NaN counts, their Thrift form for a column chunk, and their
 * Paimon form (cp_datum) for a whole top-level column.
 *
 * Sort orders (all TYPE_DEFINED_ORDER): signed for BOOLEAN (false < true), INT32/INT64 (dates,
 * times, timestamps, INT32/INT64 decimals), FLOAT/DOUBLE (see below) and FLBA decimals (by
 * value, i.e. big-endian two's complement); unsigned byte-wise for BYTE_ARRAY. Thrift rules:
 * null_count always; min_value/max_value (PLAIN bytes) when there is a non-null value and,
 * for byte arrays, min + max < 4096 bytes (parquet-java's limit); deprecated min/max too for the
 * signed orders, and for byte arrays only when min == max; nan_count for FLOAT/DOUBLE, even 0.
 *
 * FLOAT/DOUBLE bounds, in the footer and in their Paimon form, are Java Paimon's (parquet-java's
 * in-memory statistics, which it writes to the footer and copies into a data file's value stats):
 * Float/Double.compare order, so a chunk holding a NaN has max NaN (min NaN when every value is)
 * and a zero bound keeps its sign (-0.0 below +0.0). This is not the Parquet spec's advice (NaN
 * never a bound, zero bounds widened), and deliberately so: parquet-java drops bounds holding a
 * NaN when it reads them, while bounds that leave the NaN out make it — and so Java Paimon and
 * Spark — skip the row group for `x > k`, which Spark's semantics (NaN above every number) say
 * the NaN rows satisfy. pyarrow, DuckDB and cpaimon's reader take NaN bounds as unknown.
 *
 * Ownership: a cp_pq_stats owns copies of its byte-array bounds (cp_buf); free with
 * cp_pq_stats_free. Thrift values are allocated in the arena passed in; datums point into the
 * cp_pq_stats, valid until it changes or is freed.
 */
#ifndef CP_FORMAT_PARQUET_STATS_WRITE_H
#define CP_FORMAT_PARQUET_STATS_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "format/parquet/metadata.h"
#include "types/datum.h"
#include "types/type.h"

/* The comparison a leaf's values use. */
typedef enum cp_pq_stats_kind {
  CP_PQ_STATS_BOOL,
  CP_PQ_STATS_I32,
  CP_PQ_STATS_I64,
  CP_PQ_STATS_F32,
  CP_PQ_STATS_F64,
  CP_PQ_STATS_DEC, /* FLBA decimals, tracked as 128-bit values */
  CP_PQ_STATS_BYTES
} cp_pq_stats_kind;

/* Parquet stats larger than this (min + max) are dropped (parquet-java MAX_STATS_SIZE). */
#define CP_PQ_MAX_STATS_SIZE 4096

typedef struct cp_pq_stats {
  cp_pq_stats_kind kind;
  int64_t null_count;
  int64_t nan_count;
  bool has_minmax; /* a non-null, non-NaN value was seen */
  /* FLOAT/DOUBLE: whether a -0.0 / a +0.0 was seen in a run whose min or max was zero — enough to
   * give a zero bound its sign in Java's order (-0.0 below +0.0). */
  bool neg_zero, pos_zero;
  union {
    bool b;
    int64_t i; /* I32 and I64 */
    float f32;
    double f64;
    cp_int128 dec;
  } min, max;
  cp_buf min_bytes, max_bytes; /* BYTES */
} cp_pq_stats;

void cp_pq_stats_init(cp_pq_stats *s, cp_pq_stats_kind kind);
/* Forgets every value (for the next chunk), keeping the buffers. */
void cp_pq_stats_reset(cp_pq_stats *s);
void cp_pq_stats_free(cp_pq_stats *s);

/* Adds n values in physical form (packed int32/int64/float/double; 128-bit decimals). */
void cp_pq_stats_update_i32(cp_pq_stats *s, const int32_t *v, size_t n);
void cp_pq_stats_update_i64(cp_pq_stats *s, const int64_t *v, size_t n);
void cp_pq_stats_update_f32(cp_pq_stats *s, const float *v, size_t n);
void cp_pq_stats_update_f64(cp_pq_stats *s, const double *v, size_t n);
void cp_pq_stats_update_dec(cp_pq_stats *s, const cp_int128 *v, size_t n);
/* Booleans: whether a false and whether a true value were seen. */
void cp_pq_stats_update_bool(cp_pq_stats *s, bool has_false, bool has_true);
/* Byte arrays: the smallest and largest of a run of values (the caller scans them). */
int cp_pq_stats_update_bytes(cp_pq_stats *s, const uint8_t *min, size_t min_len, const uint8_t *max,
                             size_t max_len, paimon_error *err);

/* Unsigned byte-wise comparison, a shorter prefix first. */
int cp_pq_bytes_compare(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);

/* Merges `src` (a chunk's statistics) into `dst` (the file's), same kind. */
int cp_pq_stats_merge(cp_pq_stats *dst, const cp_pq_stats *src, paimon_error *err);

/* The Thrift Statistics of a chunk of a leaf with physical type `physical` (FLBA of
 * `type_length` bytes for decimals). Byte values are allocated in `arena`. */
int cp_pq_stats_to_thrift(const cp_pq_stats *s, int physical, int32_t type_length,
                          cp_pq_statistics *out, cp_arena *arena, paimon_error *err);

/* Paimon min/max datums of a top-level column of type `t` whose values were stored as the writer
 * stores them (schema_build.h): NULL datums when there is no bound or `t` has no min/max (nested
 * types, VARIANT, BLOB). Timestamps are converted from the stored unit (MILLIS for p <= 3, MICROS
 * for p <= 6, NANOS above). */
void cp_pq_stats_to_datums(const cp_pq_stats *s, const cp_type *t, cp_datum *min, cp_datum *max);

#endif
