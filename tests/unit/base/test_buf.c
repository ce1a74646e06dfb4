/* Tests for base/buf.h: growth, formatting, detach, and arena allocation. */
#include "base/buf.h"

#include <stdint.h>

#include "test.h"

static void test_buf_append_and_grow(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  for (int i = 0; i < 1000; i++) CHECK_OK(cp_buf_append(&b, &i, sizeof i, &err), &err);
  CHECK_INT(b.len, 1000 * sizeof(int));
  CHECK(b.cap >= b.len);
  int v;
  memcpy(&v, b.data + 999 * sizeof(int), sizeof v);
  CHECK_INT(v, 999);
  CHECK_OK(cp_buf_appendf(&b, &err, "x=%d", 42), &err);
  CHECK_OK(cp_buf_nul_terminate(&b, &err), &err);
  CHECK_STR((char *)b.data + 1000 * sizeof(int), "x=42");
  CHECK_OK(cp_buf_append_zeros(&b, 3, &err), &err);
  CHECK_INT(b.data[b.len - 1], 0);
  uint8_t *p = cp_buf_detach(&b);
  CHECK(b.data == NULL && b.len == 0);
  free(p);
  cp_buf_free(&b);
}

static void test_buf_reserve_overflow(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&b, "abc", 3, &err), &err);
  CHECK_ERR(cp_buf_reserve(&b, SIZE_MAX - 1, &err), PAIMON_ENOMEM);
  CHECK_CONTAINS(err.message, "too large");
  CHECK_INT(b.len, 3);
  cp_buf_free(&b);
}

static void test_arena(void) {
  cp_arena a = CP_ARENA_INIT;
  char *s = cp_arena_strdup(&a, "hello");
  CHECK_STR(s, "hello");
  for (int i = 0; i < 5000; i++) {
    uint64_t *p = cp_arena_alloc(&a, 24);
    CHECK(p != NULL && ((uintptr_t)p % 16) == 0);
    if (p) *p = (uint64_t)i;
  }
  uint8_t *big = cp_arena_calloc(&a, 100000);
  CHECK(big != NULL && big[99999] == 0);
  char *t = cp_arena_strdup(&a, "after big");
  CHECK_STR(t, "after big");
  CHECK_STR(s, "hello");
  cp_arena_free(&a);
  CHECK(a.head == NULL);
}

int main(void) {
  RUN(test_buf_append_and_grow);
  RUN(test_buf_reserve_overflow);
  RUN(test_arena);
  TEST_MAIN_END();
}
