/*
 * Rendering record batches as text: a Spark `Dataset.show()` table, CSV, and JSON lines.
 *
 * The table format follows Spark's Dataset.showString (sql/core Dataset.scala) and the cell text
 * its ToPrettyString/Cast-to-string produce, so that cpaimon's `SELECT` output can be compared with
 * Spark's line for line:
 *  - header row, then one row per record, between "+---+" separator lines; every column at least
 *    3 characters wide; cells padded with spaces to the column width, no extra margin;
 *  - truncate > 0 (Spark's default, 20): a cell longer than `truncate` characters becomes its first
 *    truncate-3 characters + "..." (first `truncate` characters when truncate < 4) and cells are
 *    right-aligned; truncate == 0: full cells, left-aligned;
 *  - more rows than max_rows: "only showing top N rows" (or "row") after the table;
 *  - widths count characters the way Spark's Utils.stringHalfWidth does: one per UTF-16 unit, plus
 *    one more for each East Asian full-width character;
 *  - NULL → "NULL" (also inside nested values), booleans true/false, integers in decimal, floats
 *    and doubles as Java's Float/Double.toString print them (shortest round-trip digits; "1.0",
 *    "0.1", "1.0E10", "1.0E-5", "NaN", "Infinity"; JDK 19+ digits, which differ from JDK 17's in
 *    rare cases such as 2e23 → "2.0E23" vs "1.9999999999999998E23"), decimals with exactly `scale`
 * fraction digits and no exponent, dates YYYY-MM-DD, timestamps YYYY-MM-DD HH:MM:SS[.fraction] with
 * trailing zeros of the fraction dropped (timestamps with a timezone are shown in UTC), times
 *    HH:MM:SS[.fraction], binary as "[0A 0B]", lists "[1, 2]", maps "{a -> 1, b -> 2}", structs
 *    "{1, x}"; control characters \n \r \t \f \b \v \a in strings are shown escaped ("\n").
 *
 * CSV (RFC 4180): a header line of column names, then one line per row, fields separated by ',',
 * lines ended by "\n"; a field is quoted ("", with " doubled) when it contains ',', '"', CR or LF,
 * or is an empty string; NULL is an empty unquoted field; binary is base64; nested values use the
 * table's cell text; other values as in the table (no truncation).
 *
 * JSON lines: one object per row, keys in column order, NULL → null (keys are never omitted),
 * booleans and integers as JSON literals, decimals as JSON numbers with exactly `scale` fraction
 * digits (exact, no rounding), floats as shortest round-trip numbers and NaN/±Infinity as the
 * strings "NaN"/"Infinity"/"-Infinity", strings escaped per RFC 8259 (invalid UTF-8 replaced by
 * U+FFFD), binary as base64 strings, dates/times/timestamps as strings in the table's format,
 * lists as arrays, structs as objects, maps as objects whose keys are the keys' text (a map whose
 * key text repeats becomes an array of {"key": .., "value": ..} objects instead).
 */
#ifndef CP_ARROW_PRINT_H
#define CP_ARROW_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

typedef struct cp_print_options {
  int64_t max_rows; /* rows to show; negative = all (Spark default 20) */
  int32_t truncate; /* max cell characters, 0 = never truncate (Spark default 20) */
} cp_print_options;

#define CP_PRINT_OPTIONS_DEFAULT                                                                   \
  { 20, 20 }

/* Appends the show() table of a record batch (a struct array "+s" whose children are the columns)
 * to `out`. `opts` NULL means the defaults. The batch is validated (cp_array_view_init). */
int cp_print_table(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                   const cp_print_options *opts, paimon_error *err);

/* As cp_print_table over all batches of a stream (consumed up to max_rows + 1 rows; the stream is
 * not released). */
int cp_print_table_stream(cp_buf *out, struct ArrowArrayStream *stream,
                          const cp_print_options *opts, paimon_error *err);

/* Appends the cell text of row i of `v` (Spark show() form, untruncated). */
int cp_print_value(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err);
/* The same as Spark's CAST(value AS STRING) writes it: NULLs inside nested values are "null". */
int cp_print_value_cast(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err);

/* CSV of a record batch; `header` adds the column-name line first. */
int cp_print_csv(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                 bool header, paimon_error *err);

/* JSON lines of a record batch. */
int cp_print_jsonl(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                   paimon_error *err);

/* CSV / JSON lines of the first `limit` rows of a stream (-1: every row; one header line for CSV
 * when `header`). The stream is consumed (up to the limit) but not released. */
int cp_print_csv_stream(cp_buf *out, struct ArrowArrayStream *stream, bool header, int64_t limit,
                        paimon_error *err);
int cp_print_jsonl_stream(cp_buf *out, struct ArrowArrayStream *stream, int64_t limit,
                          paimon_error *err);

/* Shortest decimal text that round-trips, in Java's Double.toString / Float.toString layout
 * ("1.0", "1.0E10", "1.234E-5", "NaN", "-Infinity", "-0.0"). */
int cp_format_double_java(cp_buf *out, double d, paimon_error *err);
int cp_format_float_java(cp_buf *out, float f, paimon_error *err);

/* Decimal128 unscaled value with `scale` fraction digits, plain notation ("-12.50"). */
int cp_format_decimal128(cp_buf *out, cp_dec128 v, int32_t scale, paimon_error *err);

#endif
