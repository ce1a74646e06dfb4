/*
 * A minimal unit-test harness: each tests/unit/<layer>/test_<module>.c has a main() that calls
 * RUN(test_fn) for each test function; CHECK* macros record failures with file:line and keep going
 * within the test; the process exits non-zero if any check failed, which CTest reports.
 */
#ifndef CP_TEST_H
#define CP_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpaimon/error.h"

static int cp_test_failures;
static int cp_test_checks;
static const char *cp_test_current;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    cp_test_checks++;                                                                              \
    if (!(cond)) {                                                                                 \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK failed: %s\n", __FILE__, __LINE__, cp_test_current,       \
              #cond);                                                                              \
    }                                                                                              \
  } while (0)

#define CHECK_INT(a, b)                                                                            \
  do {                                                                                             \
    long long cp_a_ = (long long)(a), cp_b_ = (long long)(b);                                      \
    cp_test_checks++;                                                                              \
    if (cp_a_ != cp_b_) {                                                                          \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_INT failed: %s == %lld, expected %s == %lld\n", __FILE__, \
              __LINE__, cp_test_current, #a, cp_a_, #b, cp_b_);                                    \
    }                                                                                              \
  } while (0)

#define CHECK_STR(a, b)                                                                            \
  do {                                                                                             \
    const char *cp_a_ = (a), *cp_b_ = (b);                                                         \
    cp_test_checks++;                                                                              \
    if (!cp_a_ || !cp_b_ || strcmp(cp_a_, cp_b_) != 0) {                                           \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_STR failed: %s == \"%s\", expected \"%s\"\n", __FILE__,   \
              __LINE__, cp_test_current, #a, cp_a_ ? cp_a_ : "(null)", cp_b_ ? cp_b_ : "(null)");  \
    }                                                                                              \
  } while (0)

/* Checks that `haystack` contains `needle` (for error messages). */
#define CHECK_CONTAINS(haystack, needle)                                                           \
  do {                                                                                             \
    const char *cp_h_ = (haystack), *cp_n_ = (needle);                                             \
    cp_test_checks++;                                                                              \
    if (!cp_h_ || !strstr(cp_h_, cp_n_)) {                                                         \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_CONTAINS failed: \"%s\" does not contain \"%s\"\n",       \
              __FILE__, __LINE__, cp_test_current, cp_h_ ? cp_h_ : "(null)", cp_n_);               \
    }                                                                                              \
  } while (0)

/* Checks that a status-returning call succeeded; prints the error message otherwise. */
#define CHECK_OK(call, errp)                                                                       \
  do {                                                                                             \
    const paimon_error *cp_e_ = (errp);                                                            \
    int cp_rc_ = (call);                                                                           \
    cp_test_checks++;                                                                              \
    if (cp_rc_ != 0) {                                                                             \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_OK failed: %s returned %s: %s\n", __FILE__, __LINE__,     \
              cp_test_current, #call, paimon_status_name(cp_rc_), cp_e_ ? cp_e_->message : "");    \
    }                                                                                              \
  } while (0)

/* Checks that a call failed with `code`. */
#define CHECK_ERR(call, code)                                                                      \
  do {                                                                                             \
    int cp_rc_ = (call);                                                                           \
    cp_test_checks++;                                                                              \
    if (cp_rc_ != (code)) {                                                                        \
      cp_test_failures++;                                                                          \
      fprintf(stderr, "%s:%d: [%s] CHECK_ERR failed: %s returned %s, expected %s\n", __FILE__,     \
              __LINE__, cp_test_current, #call, paimon_status_name(cp_rc_),                        \
              paimon_status_name(code));                                                           \
    }                                                                                              \
  } while (0)

#define RUN(fn)                                                                                    \
  do {                                                                                             \
    cp_test_current = #fn;                                                                         \
    int cp_before_ = cp_test_failures;                                                             \
    fn();                                                                                          \
    fprintf(stderr, "%s %s\n", cp_test_failures == cp_before_ ? "ok  " : "FAIL", #fn);             \
  } while (0)

#define TEST_MAIN_END()                                                                            \
  do {                                                                                             \
    fprintf(stderr, "%d checks, %d failed\n", cp_test_checks, cp_test_failures);                   \
    return cp_test_failures ? 1 : 0;                                                               \
  } while (0)

/* The next tab-separated field of the line at *p (which moves past it): for the --sign modes of
 * the signing tests, which read requests as lines of fields. */
static inline char *tu_tab_field(char **p) {
  char *s = *p, *tab = strchr(s, '\t');
  if (tab) {
    *tab = '\0';
    *p = tab + 1;
  } else {
    *p = s + strlen(s);
  }
  return s;
}

#endif
