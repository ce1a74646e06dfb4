/*
 * SQL LIKE patterns (Spark's `str LIKE pattern [ESCAPE c]`): `%` matches any sequence of
 * characters, `_` exactly one character (a UTF-8 code point), the escape character makes the
 * next %, _ or escape character literal, and anything else matches itself, case-sensitively.
 * Spark rejects an escape character followed by any other character or ending the pattern; so
 * do we (EINVAL naming the pattern).
 *
 * Patterns are compiled once (at bind time when the pattern is a literal) into the cheapest
 * matcher that fits: exact, prefix, suffix, substring, match-all, or a general wildcard matcher
 * (greedy with backtracking to the last %, linear for patterns with one %). pypaimon's
 * startswith / endswith / contains compile the same way from their plain text.
 */
#ifndef CP_EXPR_LIKE_H
#define CP_EXPR_LIKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"
#include "expr/expr.h"

typedef enum cp_match_kind {
  CP_MATCH_EXACT,    /* value == text */
  CP_MATCH_PREFIX,   /* value starts with text */
  CP_MATCH_SUFFIX,   /* value ends with text */
  CP_MATCH_CONTAINS, /* text occurs in value */
  CP_MATCH_ALL,      /* every value ("%", or an empty prefix) */
  CP_MATCH_GENERAL   /* anything else: token program */
} cp_match_kind;

struct cp_like_pattern {
  cp_match_kind match;
  uint8_t *text; /* literal text (escapes removed) for EXACT/PREFIX/SUFFIX/CONTAINS */
  size_t text_len;
  uint16_t *tokens; /* GENERAL: 0..255 a literal byte, CP_LIKE_ONE, CP_LIKE_ANY */
  size_t n_tokens;
};

#define CP_LIKE_ONE 256
#define CP_LIKE_ANY 257

/* Compiles `pattern` (len bytes of UTF-8) for `kind`; *out is owned by the caller (cp_like_free).
 * For kinds other than CP_LIKE_PATTERN the text is taken literally and `escape` ignored. */
int cp_like_compile(cp_like_kind kind, const uint8_t *pattern, size_t len, uint32_t escape,
                    cp_like_pattern **out, paimon_error *err);

bool cp_like_match(const cp_like_pattern *p, const uint8_t *s, size_t len);

int cp_like_copy(cp_like_pattern **out, const cp_like_pattern *p, paimon_error *err);

void cp_like_free(cp_like_pattern *p);

#endif
