/*
 * ArrowArrayStream helpers: streams over a list of batches or driven by a producer callback, and
 * consumer-side calls that turn the stream's errno-style results into paimon_error messages.
 *
 * Implements the Arrow C Stream Interface
 * (https://arrow.apache.org/docs/format/CStreamInterface.html): get_schema/get_next return 0 or an
 * errno code (see cp_stream_errno_from_status), end of stream is a released (release == NULL)
 * array, get_last_error returns the message of the last failed call (valid until the next call or
 * release), and release frees everything the stream holds.
 */
#ifndef CP_ARROW_STREAM_H
#define CP_ARROW_STREAM_H

#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

/* A stream that yields `batches[0..n)` in order. The schema and every batch are moved in (their
 * release is NULL afterwards, also on failure, when they are released). Each get_schema returns a
 * deep copy of the schema. */
int cp_stream_from_batches(struct ArrowArrayStream *out, struct ArrowSchema *schema,
                           struct ArrowArray *batches, int64_t n, paimon_error *err);

/* Producer callback: writes the next batch to `out` and returns 0, or sets out->release = NULL and
 * returns 0 at the end, or returns a negative PAIMON_E* code with `err` filled. */
typedef int (*cp_stream_next_fn)(void *state, struct ArrowArray *out, paimon_error *err);
/* Frees the producer state; called once from the stream's release. */
typedef void (*cp_stream_free_fn)(void *state);

/* A stream whose batches come from `next(state, ...)`. The schema is moved in. `state` is owned by
 * the stream from here on and freed with `free_state` (may be NULL) on release — also when this
 * call fails. After the producer reports the end or an error, later get_next calls repeat that
 * outcome without calling it again. */
int cp_stream_from_producer(struct ArrowArrayStream *out, struct ArrowSchema *schema,
                            cp_stream_next_fn next, cp_stream_free_fn free_state, void *state,
                            paimon_error *err);

/* Consumer helpers for any stream (ours or foreign): call get_schema / get_next and, on failure,
 * fill `err` with the stream's get_last_error message (or strerror of the code) and return the
 * PAIMON_E* code cp_stream_status_from_errno gives. At the end of the stream cp_stream_next
 * returns 0 with out->release == NULL. */
int cp_stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out, paimon_error *err);
int cp_stream_next(struct ArrowArrayStream *s, struct ArrowArray *out, paimon_error *err);

/* Maps a PAIMON_E* code to the errno value a stream callback returns: ENOMEM → ENOMEM,
 * EIO and ECORRUPT → EIO, ENOTFOUND → ENOENT, EUNSUPPORTED → ENOTSUP, anything else → EINVAL;
 * and back (ENOMEM, EIO, ENOENT, ENOTSUP to their codes, any other errno → PAIMON_EINVAL). */
int cp_stream_errno_from_status(int status);
int cp_stream_status_from_errno(int errnum);

/* Releases `s` if initialised. */
static inline void cp_stream_release(struct ArrowArrayStream *s) {
  if (s && s->release) s->release(s);
}

#endif
