/*
 * The page queue: compressed data pages on their way from a column writer to its chunk (or, for a
 * streaming column, to the file), optionally compressed on worker threads
 * (cp_pq_writer_options.compress_threads; writer_internal.h; spec/parquet.md §2.4, §2.8).
 *
 * Why a queue even without threads: the writer's output must be the same bytes whatever the
 * thread count, and that includes every decision taken from sizes — row-group cuts, and the size
 * estimate a table uses to roll files. Those decisions read the compressed size of a page only
 * once it is "collected", and collection is decided by the queue's fill alone: a page is collected
 * when QUEUE_PAGES newer pages have been submitted, or when the queue is drained (at the end of
 * each cp_pq_writer_write, at the end of a chunk, and before a column starts streaming). With no
 * threads a page is compressed when it is submitted and merely waits to be collected; with threads
 * it is compressed meanwhile by a worker; either way it is collected at the same point, in
 * submission order, so every column sees its pages in order and every size-based decision is taken
 * on the same numbers.
 *
 * Threads: compress_threads workers, each with its own codec context, take submitted pages in
 * submission order. The submitting thread copies the page body into the job (the column reuses
 * its page buffers at once). When it must collect a page that is not compressed yet, it does not
 * sit idle: it compresses queued pages itself (the one it needs first, else the oldest waiting
 * one) until its page is done, and sleeps only when every page in flight is being compressed by a
 * worker. So with one worker both cores compress when compression is the bottleneck, which it is
 * for zstd. One mutex guards the job states; workers sleep on `work`, the collector on `done`.
 * Nothing is shared between writers: each has its own queue and threads, joined when it is freed.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/writer_internal.h"

/* Pages in flight: the depth of the pipeline, and a fixed part of the collection rule above (so it
 * must not depend on the thread count). */
#define QUEUE_PAGES 16

enum { JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct page_job {
  int state;
  uint64_t seq; /* submission number: workers take queued pages oldest first */
  cp_pq_colw *col;
  cp_pq_page_header header; /* sizes filled at collection */
  cp_buf in;                /* the body, when a worker compresses it */
  cp_buf out;               /* the compressed body */
  size_t body_len;
  int rc;
  paimon_error err;
} page_job;

struct cp_pq_page_queue {
  cp_codec codec;
  int level;
  cp_codec_ctx *ctx; /* the submitting thread's (borrowed) */
  page_job jobs[QUEUE_PAGES];
  size_t head, count; /* ring: jobs[head] is the oldest of `count` in flight (submitter only) */
  uint64_t submitted; /* pages submitted so far (numbers the jobs) */
  int n_threads, started;
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  bool stop;
};

static void compress_job(page_job *j, cp_codec codec, int level, cp_codec_ctx *ctx,
                         const uint8_t *body) {
  cp_buf_clear(&j->out);
  j->rc = cp_compress_ctx(ctx, codec, level, body, j->body_len, &j->out, &j->err);
}

/* The queued (not yet started) job submitted first, or NULL; under mu. */
static page_job *oldest_queued(cp_pq_page_queue *q) {
  page_job *best = NULL;
  for (size_t i = 0; i < QUEUE_PAGES; i++) {
    page_job *j = &q->jobs[i];
    if (j->state == JOB_QUEUED && (!best || j->seq < best->seq)) best = j;
  }
  return best;
}

static void *worker_main(void *arg) {
  cp_pq_page_queue *q = arg;
  cp_codec_ctx *ctx = NULL;
  paimon_error ignored;
  (void)cp_codec_ctx_new(&ctx, &ignored); /* NULL on failure: one-shot compression then */
  pthread_mutex_lock(&q->mu);
  for (;;) {
    page_job *j = NULL;
    while (!q->stop && !(j = oldest_queued(q))) pthread_cond_wait(&q->work, &q->mu);
    if (q->stop) break;
    j->state = JOB_RUNNING;
    pthread_mutex_unlock(&q->mu);
    compress_job(j, q->codec, q->level, ctx, j->in.data);
    pthread_mutex_lock(&q->mu);
    j->state = JOB_DONE;
    pthread_cond_broadcast(&q->done);
    /* Another queued page may be waiting behind this one. */
    pthread_cond_signal(&q->work);
  }
  pthread_mutex_unlock(&q->mu);
  cp_codec_ctx_free(ctx);
  return NULL;
}

static void stop_threads(cp_pq_page_queue *q) {
  if (q->started == 0) return;
  pthread_mutex_lock(&q->mu);
  q->stop = true;
  pthread_cond_broadcast(&q->work);
  pthread_mutex_unlock(&q->mu);
  for (int i = 0; i < q->started; i++) pthread_join(q->threads[i], NULL);
  q->started = 0;
}

void cp_pq_page_queue_free(cp_pq_page_queue *q) {
  if (!q) return;
  stop_threads(q);
  if (q->n_threads > 0) {
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->done);
  }
  for (size_t i = 0; i < QUEUE_PAGES; i++) {
    cp_buf_free(&q->jobs[i].in);
    cp_buf_free(&q->jobs[i].out);
  }
  free(q->threads);
  free(q);
}

int cp_pq_page_queue_new(cp_pq_page_queue **out, int threads, cp_codec codec, int level,
                         cp_codec_ctx *ctx, paimon_error *err) {
  *out = NULL;
  cp_pq_page_queue *q = calloc(1, sizeof *q);
  if (!q) return CP_ENOMEM(err, "parquet page queue");
  q->codec = codec;
  q->level = level;
  q->ctx = ctx;
  if (threads <= 0) {
    *out = q;
    return PAIMON_OK;
  }
  q->n_threads = threads;
  q->threads = calloc((size_t)threads, sizeof *q->threads);
  if (!q->threads) {
    free(q);
    return CP_ENOMEM(err, "parquet compression threads");
  }
  pthread_mutex_init(&q->mu, NULL);
  pthread_cond_init(&q->work, NULL);
  pthread_cond_init(&q->done, NULL);
  /* Threads only change who compresses, never the bytes: when the system refuses one (a thread
   * limit, many writers at once), the queue runs with the ones it got, or none. */
  for (int i = 0; i < threads && pthread_create(&q->threads[i], NULL, worker_main, q) == 0; i++)
    q->started++;
  q->n_threads = q->started;
  if (q->started == 0) {
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->done);
    free(q->threads);
    q->threads = NULL;
  }
  *out = q;
  return PAIMON_OK;
}

/* Collects the oldest page: waits for its compression, then hands it to its column. */
static int collect_oldest(cp_pq_page_queue *q, paimon_error *err) {
  page_job *j = &q->jobs[q->head];
  if (q->n_threads > 0) {
    pthread_mutex_lock(&q->mu);
    while (j->state != JOB_DONE) {
      /* Help rather than wait: this page if no worker has taken it, else the oldest queued one. */
      page_job *run = j->state == JOB_QUEUED ? j : oldest_queued(q);
      if (!run) {
        pthread_cond_wait(&q->done, &q->mu);
        continue;
      }
      run->state = JOB_RUNNING;
      pthread_mutex_unlock(&q->mu);
      compress_job(run, q->codec, q->level, q->ctx, run->in.data);
      pthread_mutex_lock(&q->mu);
      run->state = JOB_DONE;
    }
    pthread_mutex_unlock(&q->mu);
  }
  /* A done job is the submitter's again until it is marked free. */
  int rc = j->rc;
  if (rc != 0)
    paimon_error_set(err, rc, "column '%s': %s", j->col->leaf->path_str, j->err.message);
  else
    rc = cp_pq_colw_page_done(j->col, &j->header, j->out.data, j->out.len, j->body_len, err);
  if (q->n_threads > 0) pthread_mutex_lock(&q->mu);
  j->state = JOB_FREE;
  if (q->n_threads > 0) pthread_mutex_unlock(&q->mu);
  q->head = (q->head + 1) % QUEUE_PAGES;
  q->count--;
  return rc;
}

int cp_pq_page_queue_submit(cp_pq_page_queue *q, cp_pq_colw *c, const cp_pq_page_header *h,
                            const uint8_t *body, size_t body_len, paimon_error *err) {
  if (q->count == QUEUE_PAGES) CP_RETURN_IF_ERROR(collect_oldest(q, err));
  page_job *j = &q->jobs[(q->head + q->count) % QUEUE_PAGES];
  j->col = c;
  j->header = *h;
  j->body_len = body_len;
  j->rc = PAIMON_OK;
  if (q->n_threads == 0) {
    compress_job(j, q->codec, q->level, q->ctx, body);
    j->state = JOB_DONE;
    q->count++;
    return PAIMON_OK;
  }
  cp_buf_clear(&j->in);
  CP_RETURN_IF_ERROR(cp_buf_append(&j->in, body_len ? body : (const uint8_t *)"", body_len, err));
  q->count++;
  pthread_mutex_lock(&q->mu);
  j->seq = q->submitted++;
  j->state = JOB_QUEUED;
  pthread_cond_signal(&q->work);
  pthread_mutex_unlock(&q->mu);
  return PAIMON_OK;
}

int cp_pq_page_queue_drain(cp_pq_page_queue *q, paimon_error *err) {
  int rc = PAIMON_OK;
  /* Collect everything even after a failure, so that no job is left behind. */
  while (q->count > 0) {
    paimon_error e2;
    int r = collect_oldest(q, rc ? &e2 : err);
    if (rc == 0) rc = r;
  }
  return rc;
}
