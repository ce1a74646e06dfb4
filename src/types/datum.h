/*
 * cp_datum: one value of a Paimon atomic type, in Paimon's internal representation (the one
 * BinaryRow stores, spec/format.md §5.3). Used for partition values, column statistics (min/max),
 * and literals in predicates and SQL.
 *
 * A datum does not own variable-length data: `bytes.data` points into memory that the producer
 * keeps alive (a manifest buffer, an Arrow array, an arena). The type is not stored; the schema
 * says what each datum is, which keeps the struct small for arrays of stats.
 */
#ifndef CP_TYPES_DATUM_H
#define CP_TYPES_DATUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __int128 cp_int128;

typedef struct cp_datum {
  bool is_null;
  union {
    bool b;        /* BOOLEAN */
    int64_t i64;   /* TINYINT, SMALLINT, INT, BIGINT, DATE (days), TIME (millis of day) */
    float f32;     /* FLOAT */
    double f64;    /* DOUBLE */
    cp_int128 dec; /* DECIMAL: the unscaled value (the scale comes from the type) */
    struct {
      int64_t millis;         /* epoch milliseconds (TIMESTAMP: wall clock as if UTC) */
      int32_t nanos_of_milli; /* 0..999999 */
    } ts;                     /* TIMESTAMP, TIMESTAMP_LTZ */
    struct {
      const uint8_t *data;
      size_t len;
    } bytes; /* CHAR, VARCHAR (UTF-8), BINARY, VARBINARY, BLOB */
  } v;
} cp_datum;

static inline cp_datum cp_datum_null(void) {
  cp_datum d;
  d.is_null = true;
  d.v.i64 = 0;
  return d;
}

static inline cp_datum cp_datum_int(int64_t v) {
  cp_datum d;
  d.is_null = false;
  d.v.i64 = v;
  return d;
}

static inline cp_datum cp_datum_bytes(const void *data, size_t len) {
  cp_datum d;
  d.is_null = false;
  d.v.bytes.data = (const uint8_t *)data;
  d.v.bytes.len = len;
  return d;
}

/* Orders two non-null datums of atomic type `t` the way Paimon compares values for statistics and
 * predicates: numbers and temporal values by value, strings and binaries bytewise unsigned,
 * booleans false < true, floating point NaN above every number (and equal to itself). Returns
 * <0, 0 or >0. Nested types compare as equal (they have no order). */
struct cp_type;
int cp_datum_compare(const struct cp_type *t, const cp_datum *a, const cp_datum *b);

/* A DECIMAL's unscaled value as the minimal big-endian two's complement bytes Java's
 * BigInteger.toByteArray gives (BinaryRow, Avro decimals); returns the length (1..16). */
size_t cp_decimal_to_be_bytes(cp_int128 v, uint8_t out[16]);

/* And back from `n` big-endian two's complement bytes (n <= 16; 0 reads as 0). */
cp_int128 cp_decimal_from_be_bytes(const uint8_t *p, size_t n);

#endif
