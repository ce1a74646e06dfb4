/* Tests for src/arrow/stream.h: batch-list and producer streams per the Arrow C Stream Interface
 * (end of stream = released array, errno codes, get_last_error), and the consumer helpers. */
#include <errno.h>

#include "arrow/stream.h"
#include "arrow_test.h"

static void make_batch(struct ArrowSchema *s, struct ArrowArray *a, int64_t first, int64_t n) {
  int64_t vals[16];
  for (int64_t i = 0; i < n; i++) vals[i] = first + i;
  ts_int_array(s, a, "l", vals, NULL, n);
}

static void test_batch_stream(void) {
  paimon_error err;
  struct ArrowSchema s, s2, got;
  struct ArrowArray batches[3], out;
  make_batch(&s, &batches[0], 0, 3);
  make_batch(&s2, &batches[1], 10, 2);
  cp_schema_release(&s2);
  make_batch(&s2, &batches[2], 20, 4);
  cp_schema_release(&s2);
  struct ArrowArrayStream st;
  CHECK_OK(cp_stream_from_batches(&st, &s, batches, 3, &err), &err);
  CHECK(s.release == NULL && batches[0].release == NULL && batches[2].release == NULL);
  CHECK_OK(cp_stream_get_schema(&st, &got, &err), &err);
  CHECK_STR(got.format, "l");
  cp_schema_release(&got);
  CHECK_INT(st.get_schema(&st, &got), 0); /* a fresh copy each time */
  cp_schema_release(&got);
  CHECK_OK(cp_stream_next(&st, &out, &err), &err);
  CHECK_INT(out.length, 3);
  cp_array_release(&out);
  CHECK_OK(cp_stream_next(&st, &out, &err), &err);
  CHECK_INT(out.length, 2);
  cp_array_release(&out);
  CHECK(st.get_last_error(&st) == NULL);
  cp_stream_release(&st); /* the third batch was never consumed: released with the stream */
  CHECK(st.release == NULL);

  /* an empty stream ends at once, repeatedly */
  make_batch(&s, &batches[0], 0, 1);
  cp_array_release(&batches[0]);
  CHECK_OK(cp_stream_from_batches(&st, &s, NULL, 0, &err), &err);
  for (int k = 0; k < 2; k++) {
    CHECK_INT(st.get_next(&st, &out), 0);
    CHECK(out.release == NULL);
  }
  cp_stream_release(&st);
  make_batch(&s, &batches[0], 0, 1);
  CHECK_ERR(cp_stream_from_batches(&st, &s, batches, -1, &err), PAIMON_EINVAL);
  CHECK(s.release == NULL); /* consumed even on failure */
  cp_array_release(&batches[0]);
}

typedef struct producer {
  int calls;
  int fail_at; /* call number that fails, or -1 */
  int limit;   /* batches before the end */
  int *freed;
} producer;

static int produce(void *state, struct ArrowArray *out, paimon_error *err) {
  producer *p = state;
  p->calls++;
  if (p->calls == p->fail_at)
    return paimon_error_set(err, PAIMON_ECORRUPT, "file 'f.parquet': page %d is corrupt", p->calls);
  if (p->calls > p->limit) {
    out->release = NULL;
    return 0;
  }
  struct ArrowSchema s;
  make_batch(&s, out, p->calls * 100, 2);
  cp_schema_release(&s);
  return 0;
}

static void free_producer(void *state) {
  producer *p = state;
  (*p->freed)++;
  free(p);
}

static void test_producer_stream(void) {
  paimon_error err;
  struct ArrowSchema s;
  struct ArrowArray out, tmp;
  struct ArrowArrayStream st;
  int freed = 0;
  producer *p = calloc(1, sizeof *p);
  p->fail_at = -1;
  p->limit = 2;
  p->freed = &freed;
  make_batch(&s, &tmp, 0, 1);
  cp_array_release(&tmp);
  CHECK_OK(cp_stream_from_producer(&st, &s, produce, free_producer, p, &err), &err);
  int batches = 0;
  for (;;) {
    CHECK_OK(cp_stream_next(&st, &out, &err), &err);
    if (!out.release) break;
    batches++;
    cp_array_release(&out);
  }
  CHECK_INT(batches, 2);
  CHECK_INT(st.get_next(&st, &out), 0); /* after the end: the end again, producer not called */
  CHECK(out.release == NULL);
  CHECK_INT(p->calls, 3);
  cp_stream_release(&st);
  CHECK_INT(freed, 1);

  p = calloc(1, sizeof *p);
  p->fail_at = 2;
  p->limit = 5;
  p->freed = &freed;
  make_batch(&s, &tmp, 0, 1);
  cp_array_release(&tmp);
  CHECK_OK(cp_stream_from_producer(&st, &s, produce, free_producer, p, &err), &err);
  CHECK_OK(cp_stream_next(&st, &out, &err), &err);
  cp_array_release(&out);
  CHECK_INT(st.get_next(&st, &out), EIO); /* ECORRUPT maps to EIO */
  CHECK(out.release == NULL);
  CHECK_STR(st.get_last_error(&st), "file 'f.parquet': page 2 is corrupt");
  CHECK_ERR(cp_stream_next(&st, &out, &err), PAIMON_EIO);
  CHECK_STR(err.message, "file 'f.parquet': page 2 is corrupt");
  CHECK_INT(p->calls, 2); /* the error repeats without calling the producer again */
  cp_stream_release(&st);
  CHECK_INT(freed, 2);

  p = calloc(1, sizeof *p);
  p->freed = &freed;
  make_batch(&s, &tmp, 0, 1);
  cp_array_release(&tmp);
  CHECK_ERR(cp_stream_from_producer(&st, &s, NULL, free_producer, p, &err), PAIMON_EINVAL);
  CHECK_INT(freed, 3);
  CHECK(s.release == NULL);
}

static int fail_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  (void)s;
  out->release = NULL;
  return EIO;
}
static const char *no_message(struct ArrowArrayStream *s) {
  (void)s;
  return NULL;
}
static void noop_stream_release(struct ArrowArrayStream *s) { s->release = NULL; }

static void test_errno_mapping(void) {
  CHECK_INT(cp_stream_errno_from_status(PAIMON_OK), 0);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_ENOMEM), ENOMEM);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_EIO), EIO);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_ECORRUPT), EIO);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_ENOTFOUND), ENOENT);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_EUNSUPPORTED), ENOTSUP);
  CHECK_INT(cp_stream_errno_from_status(PAIMON_ECONFLICT), EINVAL);
  CHECK_INT(cp_stream_status_from_errno(ENOMEM), PAIMON_ENOMEM);
  CHECK_INT(cp_stream_status_from_errno(ENOTSUP), PAIMON_EUNSUPPORTED);
  CHECK_INT(cp_stream_status_from_errno(EPERM), PAIMON_EINVAL);
  /* a foreign stream without a message: the errno text is used */
  paimon_error err;
  struct ArrowArrayStream dead = {0};
  struct ArrowArray out;
  CHECK_ERR(cp_stream_next(&dead, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "released");
  struct ArrowArrayStream foreign = {0};
  foreign.get_next = fail_next;
  foreign.get_last_error = no_message;
  foreign.release = noop_stream_release;
  CHECK_ERR(cp_stream_next(&foreign, &out, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "stream get_next failed: ");
  CHECK_CONTAINS(err.message, strerror(EIO));
}

int main(void) {
  RUN(test_batch_stream);
  RUN(test_producer_stream);
  RUN(test_errno_mapping);
  TEST_MAIN_END();
}
