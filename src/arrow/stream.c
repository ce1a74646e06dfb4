/*
 * ArrowArrayStream producers and consumer helpers (stream.h); Arrow C Stream Interface.
 *
 * Both producers share one private struct: a schema, either a list of batches or a callback, the
 * last error message (returned by get_last_error), and a "done" state so that calls after the end
 * or after an error repeat that outcome, as the interface expects of a finished stream.
 */
#include "arrow/stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"

typedef struct stream_private {
  struct ArrowSchema schema;
  /* batch list */
  struct ArrowArray *batches;
  int64_t n_batches;
  int64_t next_batch;
  /* producer */
  cp_stream_next_fn next;
  cp_stream_free_fn free_state;
  void *state;
  /* outcome */
  int final_errno; /* 0 while running; set after an error */
  bool ended;
  paimon_error last_error;
} stream_private;

int cp_stream_errno_from_status(int status) {
  switch (status) {
  case PAIMON_OK: return 0;
  case PAIMON_ENOMEM: return ENOMEM;
  case PAIMON_EIO:
  case PAIMON_ECORRUPT: return EIO;
  case PAIMON_ENOTFOUND: return ENOENT;
  case PAIMON_EUNSUPPORTED: return ENOTSUP;
  default: return EINVAL;
  }
}

int cp_stream_status_from_errno(int errnum) {
  switch (errnum) {
  case 0: return PAIMON_OK;
  case ENOMEM: return PAIMON_ENOMEM;
  case EIO: return PAIMON_EIO;
  case ENOENT: return PAIMON_ENOTFOUND;
  case ENOTSUP: return PAIMON_EUNSUPPORTED;
  default: return PAIMON_EINVAL;
  }
}

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  stream_private *p = s->private_data;
  int rc = cp_schema_copy(out, &p->schema, &p->last_error);
  return cp_stream_errno_from_status(rc);
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  stream_private *p = s->private_data;
  out->release = NULL;
  if (p->final_errno) return p->final_errno;
  if (p->ended) return 0;
  if (p->batches) {
    if (p->next_batch >= p->n_batches) {
      p->ended = true;
      return 0;
    }
    struct ArrowArray *b = &p->batches[p->next_batch++];
    *out = *b;
    b->release = NULL;
    return 0;
  }
  paimon_error_clear(&p->last_error);
  int rc = p->next(p->state, out, &p->last_error);
  if (rc != 0) {
    if (out->release) out->release(out);
    out->release = NULL;
    if (!p->last_error.message[0])
      paimon_error_set(&p->last_error, rc, "stream producer failed with %s",
                       paimon_status_name(rc));
    p->final_errno = cp_stream_errno_from_status(rc);
    return p->final_errno;
  }
  if (!out->release) p->ended = true;
  return 0;
}

static const char *stream_get_last_error(struct ArrowArrayStream *s) {
  stream_private *p = s->private_data;
  return p->last_error.message[0] ? p->last_error.message : NULL;
}

static void stream_release(struct ArrowArrayStream *s) {
  stream_private *p = s->private_data;
  if (p) {
    cp_schema_release(&p->schema);
    for (int64_t i = 0; i < p->n_batches; i++)
      if (p->batches[i].release) p->batches[i].release(&p->batches[i]);
    free(p->batches);
    if (p->free_state) p->free_state(p->state);
    free(p);
  }
  s->release = NULL;
}

static int stream_init(struct ArrowArrayStream *out, struct ArrowSchema *schema,
                       stream_private **pp, paimon_error *err) {
  memset(out, 0, sizeof *out);
  stream_private *p = calloc(1, sizeof *p);
  if (!p) {
    cp_schema_release(schema);
    return CP_ENOMEM(err, "array stream");
  }
  cp_schema_move(schema, &p->schema);
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  out->release = stream_release;
  out->private_data = p;
  *pp = p;
  return PAIMON_OK;
}

int cp_stream_from_batches(struct ArrowArrayStream *out, struct ArrowSchema *schema,
                           struct ArrowArray *batches, int64_t n, paimon_error *err) {
  stream_private *p = NULL;
  int rc = n < 0 ? paimon_error_set(err, PAIMON_EINVAL, "negative batch count")
                 : stream_init(out, schema, &p, err);
  if (rc == 0) {
    p->batches = malloc((size_t)(n > 0 ? n : 1) * sizeof *p->batches);
    if (!p->batches) {
      stream_release(out);
      rc = CP_ENOMEM(err, "array stream batch list");
    }
  } else if (n < 0) {
    cp_schema_release(schema);
  }
  for (int64_t i = 0; i < n; i++) {
    if (rc == 0) {
      p->batches[i] = batches[i];
      batches[i].release = NULL;
      p->n_batches = i + 1;
    } else if (batches[i].release) {
      batches[i].release(&batches[i]);
    }
  }
  return rc;
}

int cp_stream_from_producer(struct ArrowArrayStream *out, struct ArrowSchema *schema,
                            cp_stream_next_fn next, cp_stream_free_fn free_state, void *state,
                            paimon_error *err) {
  stream_private *p = NULL;
  int rc = next ? stream_init(out, schema, &p, err)
                : paimon_error_set(err, PAIMON_EINVAL, "stream producer needs a next callback");
  if (rc != 0) {
    if (!next) cp_schema_release(schema);
    if (free_state) free_state(state);
    return rc;
  }
  p->next = next;
  p->free_state = free_state;
  p->state = state;
  return PAIMON_OK;
}

static int consumer_error(struct ArrowArrayStream *s, int errnum, const char *what,
                          paimon_error *err) {
  const char *msg = s->get_last_error ? s->get_last_error(s) : NULL;
  int code = cp_stream_status_from_errno(errnum);
  if (msg && *msg) return paimon_error_set(err, code, "%s", msg);
  return paimon_error_set(err, code, "stream %s failed: %s", what, strerror(errnum));
}

int cp_stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out, paimon_error *err) {
  out->release = NULL;
  if (!s || !s->release) return paimon_error_set(err, PAIMON_EINVAL, "stream is released");
  int e = s->get_schema(s, out);
  if (e != 0) return consumer_error(s, e, "get_schema", err);
  return PAIMON_OK;
}

int cp_stream_next(struct ArrowArrayStream *s, struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  if (!s || !s->release) return paimon_error_set(err, PAIMON_EINVAL, "stream is released");
  int e = s->get_next(s, out);
  if (e != 0) return consumer_error(s, e, "get_next", err);
  return PAIMON_OK;
}
