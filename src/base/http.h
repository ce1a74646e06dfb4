/*
 * HTTP transfers for the object-store file system and the REST catalog (DESIGN.md, "File I/O is
 * an interface"): one engine per client, a thread driving a libcurl multi handle, so that any
 * number of requests from any thread run concurrently over pooled keep-alive connections, and a
 * writer keeps encoding while its upload parts are in flight.
 *
 * A request is a plain struct the caller owns: it fills the inputs, submits it, and later waits for
 * it; the engine fills the outputs. Nothing here retries or signs: that is the protocol's business
 * (s3.c, the REST client), because a retry must be signed again with a new date.
 *
 * Thread safety: cp_http_submit / cp_http_wait / cp_http_run may be called from many threads at
 * once on one engine; one request is used by one thread at a time. After fork() the child gets a
 * fresh engine on its first request (the parent's thread does not exist there).
 */
#ifndef CP_BASE_HTTP_H
#define CP_BASE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef struct cp_http cp_http;

typedef struct cp_http_options {
  long connect_timeout_ms; /* 0: 10 s */
  /* A transfer that moves fewer than 1 byte per second for this long fails (0: 60 s); there is no
   * limit on a transfer's total time, which depends on its size. */
  long stall_timeout_ms;
  int max_host_connections; /* 0: 32 */
} cp_http_options;

int cp_http_new(cp_http **out, const cp_http_options *opts, paimon_error *err);
/* Waits for nothing: requests still in flight are abandoned (callers wait for theirs first). */
void cp_http_free(cp_http *h);

typedef struct cp_http_req {
  /* ---- inputs ---- */
  const char *method; /* "GET", "PUT", "POST", "DELETE", "HEAD" */
  const char *url;
  /* "Name: value" lines; borrowed until the request is done. */
  const char *const *headers;
  size_t n_headers;
  const void *body; /* request body (PUT/POST); borrowed until done */
  size_t body_len;
  /* Where the response body goes: into caller memory `dst` (at most `dst_cap` bytes; more is an
   * error) when dst is set, else appended to `resp`. `max_resp` (0: no limit) bounds `resp`. */
  void *dst;
  size_t dst_cap;
  size_t max_resp;

  /* ---- outputs ---- */
  long status;   /* HTTP status, 0 when no response arrived */
  int transport; /* 0, or the libcurl error code when the transfer itself failed */
  char transport_msg[256];
  bool overflow;       /* the body did not fit dst_cap / max_resp */
  cp_buf resp;         /* the response body when dst is NULL (caller frees) */
  size_t dst_len;      /* bytes written to dst */
  cp_buf resp_headers; /* "name: value\r\n" lines of the final response, NUL-terminated */

  /* ---- the engine's ---- */
  void *easy_;
  void *header_list_;
  struct cp_http_req *next_;
  bool done_;
} cp_http_req;

/* Starts `req`. Fails only when the request cannot be set up (out of memory); a failed transfer
 * is reported through req->transport / req->status once it is done. */
int cp_http_submit(cp_http *h, cp_http_req *req, paimon_error *err);
/* Blocks until `req` is done. */
void cp_http_wait(cp_http *h, cp_http_req *req);
/* Submits all `n` requests, then waits for all of them. */
int cp_http_run(cp_http *h, cp_http_req *const *reqs, size_t n, paimon_error *err);

/* Clears the outputs of `req` so it can be submitted again (keeps resp's capacity). */
void cp_http_req_reset(cp_http_req *req);
/* Frees the buffers the engine filled. */
void cp_http_req_free(cp_http_req *req);

/* The value of response header `name` (case-insensitive) as a new string, or NULL. */
char *cp_http_header(const cp_http_req *req, const char *name);

/* Number of requests the engine has started (I/O accounting). */
uint64_t cp_http_requests(const cp_http *h);

/* Percent-encodes `s` as RFC 3986 unreserved characters, keeping '/' when `keep_slash` (the
 * encoding of S3 keys in paths and of SigV4's canonical request). */
int cp_url_encode(cp_buf *out, const char *s, size_t n, bool keep_slash, paimon_error *err);

#endif
