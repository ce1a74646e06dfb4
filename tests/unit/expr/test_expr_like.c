/*
 * LIKE patterns (src/expr/like.c): wildcards, escapes, invalid patterns, the specialised
 * matchers, pypaimon's startswith / endswith / contains, and a randomized comparison with a
 * naive recursive matcher written from the SQL definition.
 */
#include "expr/like.h"
#include "expr_test.h"

static bool like(const char *s, const char *pattern, uint32_t escape) {
  cp_like_pattern *p;
  paimon_error err;
  if (cp_like_compile(CP_LIKE_PATTERN, (const uint8_t *)pattern, strlen(pattern), escape, &p,
                      &err) != 0) {
    fprintf(stderr, "compile '%s': %s\n", pattern, err.message);
    return false;
  }
  bool r = cp_like_match(p, (const uint8_t *)s, strlen(s));
  cp_like_free(p);
  return r;
}

static void test_wildcards(void) {
  CHECK(like("Spark", "Spa%", '\\'));
  CHECK(like("Spark", "_park", '\\'));
  CHECK(!like("Spark", "spark", '\\')); /* case-sensitive */
  CHECK(like("", "", '\\'));
  CHECK(like("", "%", '\\'));
  CHECK(!like("", "_", '\\'));
  CHECK(like("a", "a%", '\\'));
  CHECK(like("abc", "%b%", '\\'));
  CHECK(like("abc", "a_c", '\\'));
  CHECK(!like("abc", "a__c", '\\'));
  CHECK(like("abc", "%%c", '\\'));
  CHECK(like("abc", "abc", '\\'));
  CHECK(!like("abcd", "abc", '\\'));
  CHECK(!like("ab", "abc", '\\'));
  CHECK(like("héllo", "h_llo", '\\')); /* _ is one character, not one byte */
  CHECK(!like("héllo", "h__llo", '\\'));
  CHECK(like("日本語", "_本_", '\\'));
  CHECK(like("aaaaab", "%aab", '\\'));
  CHECK(like("mississippi", "%iss%ipp%", '\\'));
  CHECK(!like("mississippi", "m%ss%x", '\\'));
  CHECK(like("mississippi", "m%i_s%i", '\\'));
  CHECK(like("abab", "%ab", '\\'));
  CHECK(like("xyz", "%_", '\\'));
  CHECK(!like("", "%_", '\\'));
  CHECK(like("a\nb", "a_b", '\\'));
}

static void test_escapes(void) {
  CHECK(like("a%b", "a\\%b", '\\'));
  CHECK(!like("axb", "a\\%b", '\\'));
  CHECK(like("a_b", "a\\_b", '\\'));
  CHECK(!like("axb", "a\\_b", '\\'));
  CHECK(like("a\\b", "a\\\\b", '\\'));
  CHECK(like("100%", "%\\%", '\\'));
  CHECK(!like("1000", "%\\%", '\\'));
  CHECK(like("%SystemDrive%/Users/John", "/%SystemDrive/%//Users%", '/'));
  CHECK(like("a\\b", "a\\b", '/')); /* with another escape, backslash is a plain character */
  CHECK(like("a#%", "a##%", '#'));  /* ## is a literal #, then % is a wildcard */
  CHECK(like("a#xyz", "a##%", '#'));
  CHECK(like("a%", "a%", 0));         /* no escape character */
  CHECK(like("aé%", "aéé%", 0x00E9)); /* a multi-byte escape character */
}

static void test_invalid_patterns(void) {
  cp_like_pattern *p;
  paimon_error err;
  const char *bad[] = {"a\\", "a\\x", "\\a%", "%\\"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    CHECK_ERR(
        cp_like_compile(CP_LIKE_PATTERN, (const uint8_t *)bad[i], strlen(bad[i]), '\\', &p, &err),
        PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "LIKE pattern");
    CHECK(p == NULL);
  }
  CHECK_CONTAINS(err.message, "ends with the escape");
  /* Bound literal patterns are checked at bind time, with the pattern in the message. */
  static const char *const cells[] = {"x"};
  tb t;
  tb_make(&t, "ROW<s STRING>", 1, cells);
  CHECK_BIND_FAILS(&t, "(like s 'ab\\c')", PAIMON_EINVAL, "'ab\\c'");
  CHECK_BIND_FAILS(&t, "(like s 'ab!' '!')", PAIMON_EINVAL, "escape");
  tb_free(&t);
}

static void test_matcher_kinds(void) {
  struct {
    const char *pattern;
    cp_match_kind kind;
    const char *text;
  } cases[] = {{"abc", CP_MATCH_EXACT, "abc"},
               {"abc%", CP_MATCH_PREFIX, "abc"},
               {"%abc", CP_MATCH_SUFFIX, "abc"},
               {"%abc%", CP_MATCH_CONTAINS, "abc"},
               {"%", CP_MATCH_ALL, ""},
               {"%%%", CP_MATCH_ALL, ""},
               {"a%c", CP_MATCH_GENERAL, ""},
               {"a_", CP_MATCH_GENERAL, ""},
               {"a\\%%", CP_MATCH_PREFIX, "a%"},
               {"", CP_MATCH_EXACT, ""},
               {"%a\\_b%", CP_MATCH_CONTAINS, "a_b"}};
  paimon_error err;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cp_like_pattern *p;
    CHECK_OK(cp_like_compile(CP_LIKE_PATTERN, (const uint8_t *)cases[i].pattern,
                             strlen(cases[i].pattern), '\\', &p, &err),
             &err);
    CHECK_INT(p->match, cases[i].kind);
    if (cases[i].kind != CP_MATCH_GENERAL) {
      CHECK_INT(p->text_len, strlen(cases[i].text));
      CHECK(memcmp(p->text, cases[i].text, p->text_len) == 0);
    }
    cp_like_pattern *c;
    CHECK_OK(cp_like_copy(&c, p, &err), &err);
    CHECK(cp_like_match(c, (const uint8_t *)"abc", 3) ==
          cp_like_match(p, (const uint8_t *)"abc", 3));
    cp_like_free(c);
    cp_like_free(p);
  }
}

static void test_string_predicates(void) {
  static const char *const cells[] = {"50%off", "500", NULL, "a_b", "", "x50%"};
  tb t;
  tb_make(&t, "ROW<s STRING>", 6, cells);
  /* pypaimon's predicates match their text literally: % and _ are not wildcards. */
  CHECK_EVAL(&t, "(startswith s '50%')", "true|false|NULL|false|false|false");
  CHECK_EVAL(&t, "(endswith s '%')", "false|false|NULL|false|false|true");
  CHECK_EVAL(&t, "(contains s '_')", "false|false|NULL|true|false|false");
  CHECK_EVAL(&t, "(contains s '0%')", "true|false|NULL|false|false|true");
  CHECK_EVAL(&t, "(startswith s '')", "true|true|NULL|true|true|true");
  CHECK_EVAL(&t, "(like s '50%')", "true|true|NULL|false|false|false");
  CHECK_EVAL(&t, "(like s '50\\%%')", "true|false|NULL|false|false|false");
  CHECK_EVAL(&t, "(not_like s '%0%')", "false|false|NULL|true|true|false");
  CHECK_EVAL(&t, "(like s '_')", "false|false|NULL|false|false|false");
  CHECK_EVAL(&t, "(like s '%')", "true|true|NULL|true|true|true");
  CHECK_EVAL(&t, "(like s null)", "NULL|NULL|NULL|NULL|NULL|NULL");
  CHECK_EVAL(&t, "(like s s)", "true|true|NULL|true|true|true"); /* column pattern */
  CHECK_EVAL(&t, "(like 'x' s)", "false|false|NULL|false|false|false");
  CHECK_EVAL(&t, "(startswith s t'50')", "true|true|NULL|false|false|false");
  tb_free(&t);
  /* A number is matched through its string form, as Spark's implicit cast does. */
  static const char *const ncells[] = {"123", "-5"};
  tb n;
  tb_make(&n, "ROW<i INT>", 2, ncells);
  CHECK_EVAL(&n, "(like i '1%')", "true|false");
  tb_free(&n);
}

/* The SQL definition of LIKE over the alphabet {a, b, %, _} (no escapes), recursively. */
static bool naive(const char *s, const char *p) {
  if (!*p) return !*s;
  if (*p == '%') return naive(s, p + 1) || (*s && naive(s + 1, p));
  if (!*s) return false;
  return (*p == '_' || *p == *s) && naive(s + 1, p + 1);
}

static void test_random_against_naive(void) {
  uint64_t x = 12345;
  char s[12], p[10];
  int mismatches = 0;
  for (int round = 0; round < 20000; round++) {
    int ls = 0, lp = 0;
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int n = (int)(x >> 60) % 11;
    for (int i = 0; i < n; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      s[ls++] = "ab"[(x >> 33) & 1];
    }
    s[ls] = 0;
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int m = (int)(x >> 61);
    for (int i = 0; i < m + 1; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      p[lp++] = "ab%_"[(x >> 40) & 3];
    }
    p[lp] = 0;
    if (like(s, p, '\\') != naive(s, p)) {
      if (mismatches++ < 5) fprintf(stderr, "'%s' LIKE '%s': expected %d\n", s, p, naive(s, p));
    }
  }
  CHECK_INT(mismatches, 0);
}

int main(void) {
  RUN(test_wildcards);
  RUN(test_escapes);
  RUN(test_invalid_patterns);
  RUN(test_matcher_kinds);
  RUN(test_string_predicates);
  RUN(test_random_against_naive);
  TEST_MAIN_END();
}
