/*
 * Buffer pools and pooled array buffers (arrow/array.h): what a released array gives back, what a
 * held one never does, the caching limits, a pool released by its owner while arrays are still
 * out, releases from other threads, and prefaulting (which must not change memory). Arrow C Data
 * Interface release semantics: format/arrow spec "The C data interface", "Release callback".
 */
#include <pthread.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "test.h"

/* A one-buffer array holding `bytes` bytes (filled with `fill`) taken from `pool` when it has
 * them, else freshly allocated; *data receives the buffer's address. */
static int pooled_array(cp_buf_pool *pool, size_t bytes, uint8_t fill, struct ArrowArray *out,
                        void **data, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  if (!cp_buf_pool_take(pool, bytes, &b) && cp_buf_reserve(&b, bytes, err) != 0) return -1;
  memset(b.data, fill, bytes);
  b.len = bytes;
  *data = b.data;
  int rc = cp_array_init(out, 1, 0, err);
  if (rc) {
    cp_buf_free(&b);
    return rc;
  }
  out->length = (int64_t)bytes;
  return cp_array_adopt_pooled(out, 0, &b, pool, err);
}

static void test_release_returns_buffer(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  cp_buf b = CP_BUF_INIT;
  CHECK(!cp_buf_pool_take(pool, 1, &b)); /* empty pool */
  CHECK(!cp_buf_pool_take(NULL, 1, &b));
  struct ArrowArray a;
  void *data;
  CHECK_OK(pooled_array(pool, 1000, 0xAB, &a, &data, &err), &err);
  CHECK(a.buffers[0] == data);
  CHECK_INT(cp_array_buffer_size(&a, 0), 1000);
  /* held by the array: nothing to take */
  CHECK(!cp_buf_pool_take(pool, 1, &b));
  CHECK_INT(cp_buf_pool_cached_bytes(pool), 0);
  cp_array_release(&a);
  CHECK(a.release == NULL);
  int64_t cached = cp_buf_pool_cached_bytes(pool);
  CHECK(cached >= 1000);
  /* too big: not taken; fits: the same memory comes back, with len 0 */
  CHECK(!cp_buf_pool_take(pool, (size_t)cached + 1, &b));
  CHECK(cp_buf_pool_take(pool, 500, &b));
  CHECK(b.data == data);
  CHECK_INT(b.len, 0);
  CHECK_INT(b.cap, cached);
  CHECK_INT(cp_buf_pool_cached_bytes(pool), 0);
  /* a taken buffer is ordinary malloc'd memory: it can grow and be freed */
  CHECK_OK(cp_buf_reserve(&b, 1 << 16, &err), &err);
  cp_buf_free(&b);
  cp_buf_pool_release(pool);
}

/* A buffer that is not empty is never overwritten by take. */
static void test_take_needs_empty_buffer(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  struct ArrowArray a;
  void *data;
  CHECK_OK(pooled_array(pool, 64, 1, &a, &data, &err), &err);
  cp_array_release(&a);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_reserve(&b, 8, &err), &err);
  void *mine = b.data;
  CHECK(!cp_buf_pool_take(pool, 8, &b));
  CHECK(b.data == mine);
  cp_buf_free(&b);
  cp_buf_pool_release(pool);
}

/* The smallest buffer that fits is taken, so big ones stay for big requests. */
static void test_smallest_fit(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  struct ArrowArray a[3];
  void *d[3];
  static const size_t sizes[3] = {4096, 256, 65536};
  for (int i = 0; i < 3; i++) CHECK_OK(pooled_array(pool, sizes[i], 0, &a[i], &d[i], &err), &err);
  for (int i = 0; i < 3; i++) cp_array_release(&a[i]);
  cp_buf b = CP_BUF_INIT;
  CHECK(cp_buf_pool_take(pool, 300, &b));
  CHECK(b.data == d[0]);
  cp_buf c = CP_BUF_INIT;
  CHECK(cp_buf_pool_take(pool, 5000, &c));
  CHECK(c.data == d[2]);
  cp_buf e = CP_BUF_INIT;
  CHECK(cp_buf_pool_take(pool, 1, &e));
  CHECK(e.data == d[1]);
  CHECK(!cp_buf_pool_take(pool, 1, &(cp_buf)CP_BUF_INIT));
  cp_buf_free(&b);
  cp_buf_free(&c);
  cp_buf_free(&e);
  cp_buf_pool_release(pool);
}

/* The pool never caches more than its limit; what does not fit is freed (LSan checks). */
static void test_cache_limit(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 10000, &err), &err);
  struct ArrowArray a[4];
  void *d[4];
  for (int i = 0; i < 4; i++) CHECK_OK(pooled_array(pool, 4000, 0, &a[i], &d[i], &err), &err);
  for (int i = 0; i < 4; i++) cp_array_release(&a[i]);
  CHECK(cp_buf_pool_cached_bytes(pool) <= 10000);
  CHECK(cp_buf_pool_cached_bytes(pool) >= 4000);
  /* a buffer larger than the whole limit is never cached */
  struct ArrowArray big;
  void *bd;
  CHECK_OK(pooled_array(pool, 20000, 0, &big, &bd, &err), &err);
  int64_t before = cp_buf_pool_cached_bytes(pool);
  cp_array_release(&big);
  CHECK_INT(cp_buf_pool_cached_bytes(pool), before);
  /* a pool of size 0 caches nothing */
  cp_buf_pool *none;
  CHECK_OK(cp_buf_pool_new(&none, 0, &err), &err);
  CHECK_OK(pooled_array(none, 100, 0, &big, &bd, &err), &err);
  cp_array_release(&big);
  CHECK_INT(cp_buf_pool_cached_bytes(none), 0);
  cp_buf_pool_release(none);
  cp_buf_pool_release(pool);
}

/* Arrays outlive the pool's owner: their memory stays valid and is freed when they go. */
static void test_arrays_outlive_owner(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  struct ArrowArray a, b;
  void *da, *db;
  CHECK_OK(pooled_array(pool, 3000, 0x11, &a, &da, &err), &err);
  CHECK_OK(pooled_array(pool, 3000, 0x22, &b, &db, &err), &err);
  cp_array_release(&a); /* cached */
  cp_buf_pool_release(pool);
  const uint8_t *p = b.buffers[0];
  CHECK(p[0] == 0x22 && p[2999] == 0x22);
  cp_array_release(&b); /* the last reference: pool and buffer freed */
  /* a NULL pool means plain free */
  struct ArrowArray c;
  void *dc;
  CHECK_OK(pooled_array(NULL, 10, 0, &c, &dc, &err), &err);
  cp_array_release(&c);
  cp_buf_pool_release(NULL);
}

/* Adopting into a slot that does not exist fails, frees the storage and leaves `b` empty. */
static void test_adopt_errors(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  struct ArrowArray a;
  CHECK_OK(cp_array_init(&a, 1, 0, &err), &err);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_reserve(&b, 100, &err), &err);
  CHECK(cp_array_adopt_pooled(&a, 3, &b, pool, &err) != 0);
  CHECK(b.data == NULL);
  CHECK_INT(cp_buf_pool_cached_bytes(pool), 0);
  /* replacing a pooled buffer gives the old one back */
  cp_buf c = CP_BUF_INIT, d = CP_BUF_INIT;
  CHECK_OK(cp_buf_reserve(&c, 100, &err), &err);
  CHECK_OK(cp_buf_reserve(&d, 200, &err), &err);
  CHECK_OK(cp_array_adopt_pooled(&a, 0, &c, pool, &err), &err);
  CHECK_OK(cp_array_adopt_pooled(&a, 0, &d, pool, &err), &err);
  CHECK(cp_buf_pool_cached_bytes(pool) >= 100);
  cp_array_release(&a);
  CHECK(cp_buf_pool_cached_bytes(pool) >= 300);
  cp_buf_pool_release(pool);
}

typedef struct release_job {
  struct ArrowArray *arrays;
  int n;
} release_job;

static void *release_all(void *arg) {
  release_job *j = arg;
  for (int i = 0; i < j->n; i++) cp_array_release(&j->arrays[i]);
  return NULL;
}

/* Consumers release batches on their own threads while the owner takes and adopts buffers. */
static void test_release_on_other_threads(void) {
  paimon_error err = {0};
  cp_buf_pool *pool;
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  enum { N = 200 };
  static struct ArrowArray arrays[2][N];
  bool ok = true;
  for (int round = 0; round < 5; round++) {
    for (int t = 0; t < 2; t++)
      for (int i = 0; i < N; i++) {
        void *d;
        ok = ok &&
             pooled_array(pool, (size_t)(64 + i * 8), (uint8_t)i, &arrays[t][i], &d, &err) == 0;
      }
    pthread_t th[2];
    release_job jobs[2] = {{arrays[0], N}, {arrays[1], N}};
    for (int t = 0; t < 2; t++) pthread_create(&th[t], NULL, release_all, &jobs[t]);
    /* the owner keeps working meanwhile */
    for (int i = 0; i < 50; i++) {
      cp_buf b = CP_BUF_INIT;
      if (cp_buf_pool_take(pool, 64, &b)) cp_buf_free(&b);
    }
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
  }
  CHECK(ok);
  CHECK(cp_buf_pool_cached_bytes(pool) <= 1 << 20);
  cp_buf_pool_release(pool);
}

/* Prefaulting keeps contents, and accepts any range (unaligned, tiny, empty). */
static void test_prefault(void) {
  size_t n = 3 << 20;
  uint8_t *p = malloc(n);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 31);
  cp_mem_prefault(p, n);
  cp_mem_prefault(p + 1, n - 3);
  cp_mem_prefault(p, 10);
  cp_mem_prefault(p, 0);
  bool same = true;
  for (size_t i = 0; i < n; i++) same = same && p[i] == (uint8_t)(i * 31);
  CHECK(same);
  free(p);
}

int main(void) {
  RUN(test_release_returns_buffer);
  RUN(test_take_needs_empty_buffer);
  RUN(test_smallest_fit);
  RUN(test_cache_limit);
  RUN(test_arrays_outlive_owner);
  RUN(test_adopt_errors);
  RUN(test_release_on_other_threads);
  RUN(test_prefault);
  TEST_MAIN_END();
}
