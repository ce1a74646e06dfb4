/*
 * LIKE pattern compilation and matching (like.h; Spark's Like / StartsWith / EndsWith / Contains
 * string predicates).
 */
#include "expr/like.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr_internal.h"

void cp_like_free(cp_like_pattern *p) {
  if (!p) return;
  free(p->text);
  free(p->tokens);
  free(p);
}

static int bad_pattern(const uint8_t *pat, size_t len, const char *why, paimon_error *err) {
  int shown = len > 200 ? 200 : (int)len;
  return paimon_error_set(err, PAIMON_EINVAL, "the LIKE pattern '%.*s%s' is invalid: %s", shown,
                          (const char *)pat, len > 200 ? "..." : "", why);
}

/* Appends the UTF-8 bytes of code point `c` as literal tokens. */
static size_t put_code_point(uint16_t *tok, size_t n, const uint8_t *src, size_t from, size_t to) {
  for (size_t k = from; k < to; k++) tok[n++] = src[k];
  return n;
}

/* Turns the pattern into tokens (one per literal byte or wildcard). */
static int tokenize(const uint8_t *pat, size_t len, uint32_t escape, uint16_t *tok, size_t *n_out,
                    paimon_error *err) {
  size_t n = 0, i = 0;
  while (i < len) {
    size_t start = i;
    uint32_t c = cp_utf8_next(pat, len, &i);
    if (escape && c == escape) {
      if (i >= len) return bad_pattern(pat, len, "it ends with the escape character", err);
      size_t s2 = i;
      uint32_t next = cp_utf8_next(pat, len, &i);
      if (next != '%' && next != '_' && next != escape)
        return bad_pattern(pat, len, "the escape character may only precede '%', '_' or itself",
                           err);
      n = put_code_point(tok, n, pat, s2, i);
    } else if (c == '%') {
      if (n == 0 || tok[n - 1] != CP_LIKE_ANY) tok[n++] = CP_LIKE_ANY; /* %% is % */
    } else if (c == '_') {
      tok[n++] = CP_LIKE_ONE;
    } else {
      n = put_code_point(tok, n, pat, start, i);
    }
  }
  *n_out = n;
  return PAIMON_OK;
}

/* Picks the matcher: wildcards only at the ends and no `_` give the simple forms. */
static void classify(cp_like_pattern *p, const uint16_t *tok, size_t n) {
  bool lead = n > 0 && tok[0] == CP_LIKE_ANY;
  bool trail = n > (size_t)lead && tok[n - 1] == CP_LIKE_ANY;
  size_t from = lead, to = n - trail;
  bool simple = true;
  for (size_t i = from; i < to; i++)
    if (tok[i] > 255) simple = false;
  if (!simple) {
    p->match = CP_MATCH_GENERAL;
    return;
  }
  for (size_t i = from; i < to; i++) p->text[p->text_len++] = (uint8_t)tok[i];
  if (lead && p->text_len == 0)
    p->match = CP_MATCH_ALL;
  else if (lead && trail)
    p->match = CP_MATCH_CONTAINS;
  else if (lead)
    p->match = CP_MATCH_SUFFIX;
  else if (trail)
    p->match = CP_MATCH_PREFIX;
  else
    p->match = CP_MATCH_EXACT;
}

int cp_like_compile(cp_like_kind kind, const uint8_t *pattern, size_t len, uint32_t escape,
                    cp_like_pattern **out, paimon_error *err) {
  *out = NULL;
  cp_like_pattern *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "LIKE pattern");
  p->text = malloc(len ? len : 1);
  if (!p->text) {
    free(p);
    return CP_ENOMEM(err, "LIKE pattern");
  }
  if (kind != CP_LIKE_PATTERN) {
    if (len) memcpy(p->text, pattern, len);
    p->text_len = len;
    p->match = kind == CP_LIKE_STARTS_WITH ? CP_MATCH_PREFIX
               : kind == CP_LIKE_ENDS_WITH ? CP_MATCH_SUFFIX
                                           : CP_MATCH_CONTAINS;
    if (len == 0) p->match = CP_MATCH_ALL;
    *out = p;
    return PAIMON_OK;
  }
  p->tokens = malloc((len ? len : 1) * sizeof *p->tokens);
  if (!p->tokens) {
    cp_like_free(p);
    return CP_ENOMEM(err, "LIKE pattern");
  }
  int rc = tokenize(pattern, len, escape, p->tokens, &p->n_tokens, err);
  if (rc != 0) {
    cp_like_free(p);
    return rc;
  }
  classify(p, p->tokens, p->n_tokens);
  *out = p;
  return PAIMON_OK;
}

int cp_like_copy(cp_like_pattern **out, const cp_like_pattern *p, paimon_error *err) {
  *out = NULL;
  cp_like_pattern *c = calloc(1, sizeof *c);
  if (!c) return CP_ENOMEM(err, "LIKE pattern");
  *c = *p;
  c->text = malloc(p->text_len ? p->text_len : 1);
  c->tokens = p->tokens ? malloc((p->n_tokens ? p->n_tokens : 1) * sizeof *c->tokens) : NULL;
  if (!c->text || (p->tokens && !c->tokens)) {
    free(c->text);
    free(c->tokens);
    free(c);
    return CP_ENOMEM(err, "LIKE pattern");
  }
  if (p->text_len) memcpy(c->text, p->text, p->text_len);
  if (p->tokens && p->n_tokens) memcpy(c->tokens, p->tokens, p->n_tokens * sizeof *c->tokens);
  *out = c;
  return PAIMON_OK;
}

/* Length of the UTF-8 sequence starting with byte b (1 for bytes that cannot start one, so that
 * invalid input still advances). */
static size_t seq_len(uint8_t b, size_t left) {
  size_t n = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  return n > left ? left : n;
}

/* The general matcher: tokens against bytes, backtracking only to the most recent %. Each % is
 * retried at most once per starting character, so matching is O(len * tokens). */
static bool match_general(const uint16_t *tok, size_t m, const uint8_t *s, size_t n) {
  size_t p = 0, i = 0;
  size_t star = SIZE_MAX, star_i = 0;
  while (i < n) {
    if (p < m && tok[p] == CP_LIKE_ANY) {
      star = p++;
      star_i = i;
      continue;
    }
    if (p < m && tok[p] == CP_LIKE_ONE) {
      i += seq_len(s[i], n - i);
      p++;
      continue;
    }
    if (p < m && tok[p] == s[i]) {
      p++;
      i++;
      continue;
    }
    if (star == SIZE_MAX) return false;
    p = star + 1;
    star_i += seq_len(s[star_i], n - star_i);
    i = star_i;
  }
  while (p < m && tok[p] == CP_LIKE_ANY) p++;
  return p == m;
}

bool cp_like_match(const cp_like_pattern *p, const uint8_t *s, size_t len) {
  size_t t = p->text_len;
  switch (p->match) {
  case CP_MATCH_EXACT: return len == t && (t == 0 || memcmp(s, p->text, t) == 0);
  case CP_MATCH_PREFIX: return len >= t && (t == 0 || memcmp(s, p->text, t) == 0);
  case CP_MATCH_SUFFIX: return len >= t && (t == 0 || memcmp(s + len - t, p->text, t) == 0);
  case CP_MATCH_CONTAINS: return t == 0 || (len >= t && memmem(s, len, p->text, t) != NULL);
  case CP_MATCH_ALL: return true;
  case CP_MATCH_GENERAL: return match_general(p->tokens, p->n_tokens, s, len);
  }
  return false;
}
