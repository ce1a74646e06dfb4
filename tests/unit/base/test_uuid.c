/*
 * Tests for base/uuid.h: the text layout, the version and variant bits of every generated UUID,
 * uniqueness over many draws, and that random bytes are not constant.
 */
#include "base/uuid.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "test.h"

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static void test_format_known_bytes(void) {
  const uint8_t b[16] = {0x0f, 0x8f, 0xad, 0x5b, 0xd9, 0xcb, 0x46, 0x9f,
                         0xa1, 0x65, 0x70, 0x86, 0x77, 0x28, 0x95, 0x0e};
  char s[CP_UUID_STR_LEN + 1];
  cp_uuid_format(b, s);
  CHECK_STR(s, "0f8fad5b-d9cb-469f-a165-70867728950e");
}

static void test_v4_layout(void) {
  paimon_error err;
  for (int n = 0; n < 1000; n++) {
    char s[CP_UUID_STR_LEN + 1];
    memset(s, 'Z', sizeof s);
    CHECK_OK(cp_uuid_v4(s, &err), &err);
    CHECK_INT(strlen(s), 36);
    for (int i = 0; i < 36; i++) {
      if (i == 8 || i == 13 || i == 18 || i == 23) {
        CHECK(s[i] == '-');
      } else {
        CHECK(isxdigit((unsigned char)s[i]) && !isupper((unsigned char)s[i]));
      }
    }
    /* Version nibble 4; variant 10xx, i.e. the first digit of the fourth group is 8, 9, a or b. */
    CHECK(s[14] == '4');
    CHECK(strchr("89ab", s[19]) != NULL);
  }
}

static void test_v4_unique(void) {
  enum { N = 20000 };
  char(*all)[CP_UUID_STR_LEN + 1] = malloc(N * sizeof *all);
  paimon_error err;
  for (int i = 0; i < N; i++) CHECK_OK(cp_uuid_v4(all[i], &err), &err);
  qsort(all, N, sizeof *all, cmp_str);
  int dups = 0;
  for (int i = 1; i < N; i++) dups += strcmp(all[i - 1], all[i]) == 0;
  CHECK_INT(dups, 0);
  free(all);
}

static void test_random_bytes(void) {
  paimon_error err;
  /* A large request may be served in parts by getrandom; every byte must be filled. Counting the
   * distinct values of 1 MiB of bytes shows they are not constant or zero. */
  size_t n = 1u << 20;
  uint8_t *p = calloc(n, 1);
  CHECK_OK(cp_random_bytes(p, n, &err), &err);
  int seen[256] = {0}, distinct = 0;
  size_t zeros_tail = 0;
  for (size_t i = 0; i < n; i++) seen[p[i]]++;
  for (int i = 0; i < 256; i++) distinct += seen[i] > 0;
  CHECK_INT(distinct, 256);
  /* Each value should appear about n/256 = 4096 times. */
  for (int i = 0; i < 256; i++) CHECK(seen[i] > 3000 && seen[i] < 5200);
  for (size_t i = n - 64; i < n; i++) zeros_tail += p[i] == 0;
  CHECK(zeros_tail < 8);
  CHECK_OK(cp_random_bytes(p, 0, &err), &err);
  free(p);
}

int main(void) {
  RUN(test_format_known_bytes);
  RUN(test_v4_layout);
  RUN(test_v4_unique);
  RUN(test_random_bytes);
  TEST_MAIN_END();
}
