/*
 * Declarations shared by the files of the expr layer (not part of its interface): type rules
 * (coerce.c), value casts and text forms (cast.c, parse.c), exact decimal arithmetic
 * (decimal.c), per-value semantics of every operator (scalar.c) and the node constructor helpers
 * the binder uses (expr.c).
 *
 * The per-value functions are the reference semantics: the vectorized kernels in eval_*.c are
 * fast paths that must agree with them, and the unit tests compare the two.
 */
#ifndef CP_EXPR_EXPR_INTERNAL_H
#define CP_EXPR_EXPR_INTERNAL_H

#include "expr/expr.h"

/* ---- expr.c ---------------------------------------------------------------------------------- */

/* A node of `kind` with room for `n_args` (zeroed) children; column -1, no type. */
cp_expr *cp_expr_alloc(cp_expr_kind kind, size_t n_args);
/* Sets e->depth from its children's (expr.h, "Depth") and returns it. */
uint32_t cp_expr_set_depth(cp_expr *e);

/* Collects the chain of first arguments from `e` down into `c` (initialised here; cp_chain_free
 * releases it): node 0 is e, node i + 1 is node i's args[0], and the last node has no arguments
 * (expr.h, "Depth"). Passes that need a node's first argument done before the node (binding,
 * evaluation, rendering) walk it from the end. */
int cp_expr_spine(cp_chain *c, const cp_expr *e, paimon_error *err);
static inline const cp_expr *cp_spine_node(const cp_chain *c, size_t i) {
  return (const cp_expr *)c->nodes[i];
}
/* A bound literal of type `t` (copied) and value `v` (bytes copied). */
int cp_expr_bound_literal(cp_expr **out, const cp_type *t, const cp_datum *v, paimon_error *err);
/* Appends the short description of `e` used in bind errors: "column 'age' (INT)", "'abc'
 * (STRING)", "'a + b' (DOUBLE)". */
void cp_expr_describe(const cp_expr *e, cp_buf *out);
/* Appends the SQL name of `t` without nullability ("INT", "DECIMAL(10, 2)"). */
void cp_type_append_name(const cp_type *t, cp_buf *out);

/* ---- coerce.c: type rules -------------------------------------------------------------------- */

/* A new nullable type of `kind` with default parameters (STRING for VARCHAR, BYTES for
 * VARBINARY); NULL when out of memory. */
cp_type *cp_type_make(cp_type_kind kind);
cp_type *cp_type_make_decimal(int precision, int scale);

/* True when values of `a` and `b` have the same representation, so no cast is needed between
 * them: same kind family (CHAR/VARCHAR; BINARY/VARBINARY), same decimal precision and scale, same
 * timestamp kind and precision. */
bool cp_type_same_repr(const cp_type *a, const cp_type *b);

/* Decimal type an integer kind converts to exactly: TINYINT(3,0), SMALLINT(5,0), INT(10,0),
 * BIGINT(20,0). */
void cp_integer_decimal(cp_type_kind kind, int *precision, int *scale);

/* The type two operands of a comparison are cast to (Spark findCommonTypeForBinaryComparison,
 * then findTightestCommonType / the wider decimal). *out is NULL (and 0 returned) when there is
 * none; ENOMEM otherwise. */
int cp_common_compare_type(const cp_type *a, const cp_type *b, cp_type **out, paimon_error *err);

/* The operand type and result type of `a op b` for numeric (or DOUBLE-cast string) operands:
 * *operand_l / *operand_r are what each side is cast to, *result the node's type. EINVAL
 * (message by the caller) when there is none: returns 1 then. */
int cp_arith_types(cp_arith_op op, const cp_type *a, const cp_type *b, cp_type **operand_l,
                   cp_type **operand_r, cp_type **result, paimon_error *err);

/* Spark DecimalType.bounded / adjustPrecisionScale with precision loss allowed. */
void cp_decimal_adjust(int *precision, int *scale);

/* ---- cast.c ---------------------------------------------------------------------------------- */

/* Whether CAST(from AS to) is allowed (atomic types; the pairs Spark's Cast.canCast accepts
 * that Paimon types can express). */
bool cp_cast_allowed(const cp_type *from, const cp_type *to);
/* What an explicit CAST also does beyond the conversions above (Spark's Cast.canCast): an integer
 * to BINARY (its big-endian bytes) and BOOLEAN to TIMESTAMP_LTZ (0 or 1 microsecond). */
bool cp_cast_explicit_allowed(const cp_type *from, const cp_type *to);

/* True when the cast never breaks order: x <= y implies cast(x) <= cast(y) whenever both are
 * non-null (integer and decimal widening, numbers to DOUBLE/FLOAT, DATE to TIMESTAMP, timestamp
 * precision changes, strings between string types). Used to prune through casts. */
bool cp_cast_is_monotonic(const cp_type *from, const cp_type *to);

/* Casts one non-null or null value with Spark's non-ANSI semantics: *out is NULL when the value
 * does not convert. Strings produced are allocated in `arena`. Errors only for ENOMEM or an
 * unsupported pair. */
int cp_cast_datum(const cp_type *from, const cp_datum *in, const cp_type *to, cp_arena *arena,
                  cp_datum *out, paimon_error *err);

/* Appends Spark's string form of a non-null value (CAST(x AS STRING)): integers, Java's
 * Double.toString / Float.toString for floating point, plain decimals, yyyy-MM-dd, timestamps with
 * trailing fraction zeros dropped, true/false. Binary values are appended as their bytes. */
int cp_datum_append_text(const cp_type *t, const cp_datum *d, cp_buf *out, paimon_error *err);

/* Truncates a timestamp to `precision` fraction digits (floor, as casts and Arrow units do). */
void cp_timestamp_truncate(cp_datum *d, int precision);

/* ---- parse.c --------------------------------------------------------------------------------- */

/* Parses s[0, len) as a value of atomic type `t`. strict: cp_datum_parse_text's rules. Lenient
 * (Spark's string casts): integers accept and truncate a fraction, decimals round HALF_UP, dates
 * accept yyyy and yyyy-[m]m and anything after the day following ' ' or 'T', values out of range
 * fail. Returns 0, or -1 with *why a static reason; bytes for strings point into `s` unless
 * copied by the caller (binary hex is decoded into `arena`). */
int cp_parse_value(const cp_type *t, const char *s, size_t len, bool strict, cp_arena *arena,
                   cp_datum *out, const char **why);

/* Parses an SQL number literal: digits → INT when it fits, else BIGINT, else DECIMAL(38, 0) when
 * it fits; digits with a point → DECIMAL(p, s) exactly; exponent notation, NaN and Infinity →
 * DOUBLE. *type (owned by the caller) is NULL and -1 returned when `s` is not a number. */
int cp_parse_number_literal(const char *s, size_t len, cp_type **type, cp_datum *out);

/* ---- decimal.c: exact decimal arithmetic on 128-bit unscaled values ---------------------------
 */

/* True when |v| < 10^precision. */
bool cp_dec_fits(cp_int128 v, int precision);
/* 10^n for 0 <= n <= 38. */
cp_int128 cp_dec_pow10(int n);
/* Rescales v from scale `from` to scale `to`, rounding HALF_UP; false when the result does not
 * fit `precision` digits. */
bool cp_dec_rescale(cp_int128 v, int from, int to, int precision, cp_int128 *out);
/* a (scale sa) op b (scale sb) exactly, rounded HALF_UP to scale rs; false when the result does
 * not fit precision rp or the divisor is zero (both are NULL in Spark). */
bool cp_dec_arith(cp_arith_op op, cp_int128 a, int sa, cp_int128 b, int sb, int rp, int rs,
                  cp_int128 *out);
double cp_dec_to_double(cp_int128 v, int scale);
/* false for NaN, infinities and values that do not fit DECIMAL(precision, scale). */
bool cp_dec_from_double(double d, int precision, int scale, cp_int128 *out);
/* Writes the plain decimal text of v at `scale` ("-12.340"); returns its length. buf must hold
 * 48 bytes. */
size_t cp_dec_format(cp_int128 v, int scale, char *buf);

/* ---- scalar.c: per-value semantics ----------------------------------------------------------- */

/* Total order used by comparisons: cp_datum_compare, with TIMESTAMP vs TIMESTAMP_LTZ compared as
 * instants and strings bytewise. */
int cp_value_compare(const cp_type *t, const cp_datum *a, const cp_datum *b);

/* Computes the value of bound node `e` (anything but COLUMN and LITERAL) from the values of its
 * arguments, args[i] of type e->args[i]->type. Variable-length results live in `arena` or in the
 * arguments' memory. */
int cp_scalar_eval(const cp_expr *e, const cp_datum *args, cp_arena *arena, cp_datum *out,
                   paimon_error *err);

/* Wrapping integer arithmetic in the width of `kind` (TINYINT..BIGINT); *is_null for / and % by
 * zero. `/` is not defined here (it is DOUBLE in Spark). */
int64_t cp_int_arith(cp_arith_op op, cp_type_kind kind, int64_t a, int64_t b, bool *is_null);
/* Wraps v into the range of integer `kind` (two's complement truncation). */
int64_t cp_int_wrap(cp_type_kind kind, int64_t v);
/* Floating-point arithmetic (in float precision for FLOAT); *is_null for / and % by zero. */
double cp_float_arith(cp_arith_op op, double a, double b, bool *is_null);

/* Decodes one UTF-8 code point at s[*i] (advancing *i); invalid bytes count as one character. */
uint32_t cp_utf8_next(const uint8_t *s, size_t len, size_t *i);

#endif
