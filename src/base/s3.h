/*
 * The S3 protocol (Amazon S3's REST API, which MinIO, Ceph, moto and OSS's S3-compatible endpoint
 * speak): request URLs (path-style or virtual-hosted), Signature V4 signing, bounded retries with
 * exponential backoff and jitter, and the error documents turned into cpaimon errors.
 *
 * fs_s3.c builds the file system on top of this; nothing here knows about files.
 *
 * Secrets: the access key secret and session token are kept in the client and go only into
 * signatures and the x-amz-security-token header; no message this module writes contains them.
 */
#ifndef CP_BASE_S3_H
#define CP_BASE_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/http.h"
#include "cpaimon/error.h"

typedef struct cp_s3_config {
  const char *endpoint; /* "http://127.0.0.1:9000" or "https://s3.us-east-1.amazonaws.com" */
  const char *region;
  const char *access_key; /* NULL or "": anonymous requests, unsigned */
  const char *secret_key;
  const char *session_token; /* may be NULL */
  bool path_style;           /* "/bucket/key" rather than "bucket.host/key" */
  bool oss;                  /* Alibaba OSS: also send x-oss-forbid-overwrite on create-if-absent */
  int max_attempts;          /* per request, including the first (>= 1) */
  long retry_base_ms;        /* first backoff; doubles each retry, capped at retry_max_ms */
  long retry_max_ms;
  cp_http_options http;
} cp_s3_config;

typedef struct cp_s3 cp_s3;

/* Copies `cfg`. */
int cp_s3_new(cp_s3 **out, const cp_s3_config *cfg, paimon_error *err);
void cp_s3_free(cp_s3 *s3);
cp_http *cp_s3_http(cp_s3 *s3);

/* One S3 request and its response. The caller fills the inputs (all borrowed until the call is
 * done), calls cp_s3_perform (or submits several with cp_s3_perform_many), reads `http` for the
 * status, headers and body, and finally cp_s3_call_free. */
typedef struct cp_s3_call {
  const char *method;
  const char *bucket;
  const char *key;   /* "" or NULL for bucket-level requests (listing, batch delete) */
  const char *query; /* canonical query "a=b&c=d": sorted by key, values encoded; or NULL */
  const char *const *headers; /* extra "Name: value" lines, all signed */
  size_t n_headers;
  const void *body;
  size_t body_len;
  void *dst; /* response body into caller memory (see cp_http_req) */
  size_t dst_cap;
  size_t max_resp;

  cp_http_req http;
  int attempts;   /* requests sent for this call */
  bool ambiguous; /* an earlier attempt may have been applied by the store (it failed after the
                     request was sent), so a 412 or 404 may be this call's own doing */

  /* the client's */
  cp_buf url_;
  cp_buf canon_uri_;
  char **sent_;
  size_t n_sent_;
} cp_s3_call;

/* Sends `c` until a response arrives that is not retryable (2xx, 3xx, 4xx other than 429 and
 * RequestTimeout) or the attempts run out. Returns 0 when a response arrived (check
 * c->http.status), EIO naming `uri` when every attempt failed in transport or with a retryable
 * status. */
int cp_s3_perform(cp_s3 *s3, cp_s3_call *c, const char *uri, paimon_error *err);
/* cp_s3_perform for `n` calls at once (concurrently); `uris[i]` names call i in messages. */
int cp_s3_perform_many(cp_s3 *s3, cp_s3_call *const *calls, const char *const *uris, size_t n,
                       paimon_error *err);

/* Asynchronous single attempt: signs and submits; cp_s3_finish waits for it and, if it failed in a
 * retryable way, retries it synchronously as cp_s3_perform would. */
int cp_s3_start(cp_s3 *s3, cp_s3_call *c, paimon_error *err);
int cp_s3_finish(cp_s3 *s3, cp_s3_call *c, const char *uri, paimon_error *err);

void cp_s3_call_free(cp_s3_call *c);

/* Builds and signs `c` as of `amz_date` ("YYYYMMDDTHHMMSSZ") without sending it: c->http.url and
 * c->http.headers then hold what would be sent (tests compare them with botocore's). */
int cp_s3_sign(cp_s3 *s3, cp_s3_call *c, const char *amz_date, paimon_error *err);

/* True when the response is 2xx. */
bool cp_s3_ok(const cp_s3_call *c);

/* Records the failure of `c` in `err`: "<op> of <uri>: <S3 code>: <message> (HTTP <status>,
 * request id <id>)" with the code mapped: 404 → ENOTFOUND, 412 → EEXIST, others EIO. Returns the
 * code. */
int cp_s3_error(const cp_s3_call *c, const char *op, const char *uri, paimon_error *err);

/* Reads the <Code> of an S3 error document in `c`'s body into `code` ("" when none). */
void cp_s3_error_code(const cp_s3_call *c, char *code, size_t cap);

/* Appends "k=v" to a query under construction, encoding the value (keys are plain). Calls must
 * come in sorted key order. */
int cp_s3_query_add(cp_buf *q, const char *key, const char *value, paimon_error *err);

/* Number of HTTP requests sent by this client (I/O accounting). */
uint64_t cp_s3_requests(cp_s3 *s3);

#endif
