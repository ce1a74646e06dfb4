/*
 * The S3 request layer (s3.h): URL and canonical request of each call, Signature V4, retries.
 *
 * Retries follow AWS's guidance ("Retry behavior" in the SDK reference): connection failures,
 * timeouts, 500/502/503/504, 429 and RequestTimeout are retried with exponential backoff and full
 * jitter (a random delay in [0, min(cap, base * 2^n))), each attempt signed anew because a
 * signature carries its time. An attempt that failed after its request may have reached the store
 * marks the call `ambiguous`, so that create-if-absent can tell its own success from a rival's
 * (fs_s3.c checks the object's bytes in that case).
 */
#include "base/s3.h"

#include <curl/curl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/digest.h"
#include "base/sigv4.h"
#include "base/status.h"
#include "base/xml.h"

struct cp_s3 {
  char *scheme;    /* "http" or "https" */
  char *authority; /* "host[:port]" */
  char *region;
  char *access_key;
  char *secret_key;
  char *session_token;
  bool path_style;
  bool oss;
  int max_attempts;
  long retry_base_ms, retry_max_ms;
  cp_http *http;
  _Atomic uint64_t jitter; /* xorshift state for backoff jitter */
};

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

void cp_s3_free(cp_s3 *s3) {
  if (!s3) return;
  cp_http_free(s3->http);
  free(s3->scheme);
  free(s3->authority);
  free(s3->region);
  free(s3->access_key);
  cp_secret_free(s3->secret_key);
  cp_secret_free(s3->session_token);
  free(s3);
}

int cp_s3_new(cp_s3 **out, const cp_s3_config *cfg, paimon_error *err) {
  *out = NULL;
  const char *ep = cfg->endpoint && *cfg->endpoint ? cfg->endpoint : NULL;
  if (!ep) return paimon_error_set(err, PAIMON_EINVAL, "object store: no endpoint");
  cp_s3 *s3 = calloc(1, sizeof *s3);
  if (!s3) return CP_ENOMEM(err, "object store client");
  const char *sep = strstr(ep, "://");
  const char *host = sep ? sep + 3 : ep;
  s3->scheme = sep ? strndup(ep, (size_t)(sep - ep)) : strdup("https");
  size_t hl = strcspn(host, "/?#");
  /* The default port is dropped, as curl does in the Host header it sends (and signs). */
  bool https = !sep || (sep - ep == 5 && strncmp(ep, "https", 5) == 0);
  const char *dflt = https ? ":443" : ":80";
  size_t dl = strlen(dflt);
  if (hl > dl && strncmp(host + hl - dl, dflt, dl) == 0) hl -= dl;
  s3->authority = strndup(host, hl);
  s3->region = strdup(cfg->region && *cfg->region ? cfg->region : "us-east-1");
  s3->access_key = dup_or_null(cfg->access_key);
  s3->secret_key = dup_or_null(cfg->secret_key);
  s3->session_token = dup_or_null(cfg->session_token);
  s3->path_style = cfg->path_style;
  s3->oss = cfg->oss;
  s3->max_attempts = cfg->max_attempts >= 1 ? cfg->max_attempts : 1;
  s3->retry_base_ms = cfg->retry_base_ms > 0 ? cfg->retry_base_ms : 50;
  s3->retry_max_ms = cfg->retry_max_ms > 0 ? cfg->retry_max_ms : 2000;
  atomic_init(&s3->jitter, (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)(uintptr_t)s3);
  int rc = PAIMON_OK;
  if (!s3->scheme || !s3->authority || !s3->region ||
      (cfg->access_key && *cfg->access_key && !s3->access_key) ||
      (cfg->secret_key && *cfg->secret_key && !s3->secret_key))
    rc = CP_ENOMEM(err, "object store client");
  else if (strcmp(s3->scheme, "http") != 0 && strcmp(s3->scheme, "https") != 0)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "object store endpoint %s: scheme must be http or https", ep);
  else if (!s3->authority[0])
    rc = paimon_error_set(err, PAIMON_EINVAL, "object store endpoint '%s' has no host", ep);
  else if (s3->access_key && !s3->secret_key)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "object store: an access key id is set but no access key secret");
  if (!rc) rc = cp_http_new(&s3->http, &cfg->http, err);
  if (rc) {
    cp_s3_free(s3);
    return rc;
  }
  *out = s3;
  return PAIMON_OK;
}

cp_http *cp_s3_http(cp_s3 *s3) { return s3->http; }

uint64_t cp_s3_requests(cp_s3 *s3) { return cp_http_requests(s3->http); }

void cp_s3_call_free(cp_s3_call *c) {
  cp_http_req_free(&c->http);
  cp_buf_free(&c->url_);
  cp_buf_free(&c->canon_uri_);
  for (size_t i = 0; i < c->n_sent_; i++) cp_secret_free(c->sent_[i]);
  free(c->sent_);
  c->sent_ = NULL;
  c->n_sent_ = 0;
}

int cp_s3_query_add(cp_buf *q, const char *key, const char *value, paimon_error *err) {
  if (q->len) CP_RETURN_IF_ERROR(cp_buf_append(q, "&", 1, err));
  CP_RETURN_IF_ERROR(cp_buf_append(q, key, strlen(key), err));
  CP_RETURN_IF_ERROR(cp_buf_append(q, "=", 1, err));
  return cp_url_encode(q, value ? value : "", value ? strlen(value) : 0, false, err);
}

/* ---- building and signing one attempt ---- */

static int push_sent(cp_s3_call *c, char *line, paimon_error *err) {
  if (!line) return CP_ENOMEM(err, "request headers");
  char **p = realloc(c->sent_, (c->n_sent_ + 1) * sizeof *p);
  if (!p) {
    free(line);
    return CP_ENOMEM(err, "request headers");
  }
  c->sent_ = p;
  c->sent_[c->n_sent_++] = line;
  return PAIMON_OK;
}

static char *header_line(const char *name, const char *value) {
  size_t n = strlen(name) + strlen(value) + 3;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s: %s", name, value);
  return s;
}

/* The canonical URI and full URL of `c`. */
static int build_url(cp_s3 *s3, cp_s3_call *c, char *host, size_t host_cap, paimon_error *err) {
  c->url_.len = c->canon_uri_.len = 0;
  const char *key = c->key ? c->key : "";
  bool virt = !s3->path_style && c->bucket && *c->bucket;
  CP_RETURN_IF_ERROR(cp_buf_append(&c->canon_uri_, "/", 1, err));
  if (!virt && c->bucket && *c->bucket) {
    CP_RETURN_IF_ERROR(cp_url_encode(&c->canon_uri_, c->bucket, strlen(c->bucket), false, err));
    if (*key) CP_RETURN_IF_ERROR(cp_buf_append(&c->canon_uri_, "/", 1, err));
  }
  CP_RETURN_IF_ERROR(cp_url_encode(&c->canon_uri_, key, strlen(key), true, err));
  if (virt)
    snprintf(host, host_cap, "%s.%s", c->bucket, s3->authority);
  else
    snprintf(host, host_cap, "%s", s3->authority);
  CP_RETURN_IF_ERROR(cp_buf_appendf(&c->url_, err, "%s://%s%s", s3->scheme, host,
                                    (const char *)c->canon_uri_.data));
  if (c->query && *c->query) CP_RETURN_IF_ERROR(cp_buf_appendf(&c->url_, err, "?%s", c->query));
  return cp_buf_nul_terminate(&c->url_, err);
}

/* Splits "Name: value" into the name (copied into `name`) and a pointer to the value. */
static const char *split_header(const char *line, char *name, size_t cap) {
  const char *colon = strchr(line, ':');
  size_t n = colon ? (size_t)(colon - line) : strlen(line);
  if (n >= cap) n = cap - 1;
  memcpy(name, line, n);
  name[n] = '\0';
  const char *v = colon ? colon + 1 : "";
  while (*v == ' ') v++;
  return v;
}

enum { CP_S3_MAX_HEADERS = 16 };

static int sign_attempt(cp_s3 *s3, cp_s3_call *c, const char *fixed_date, paimon_error *err) {
  for (size_t i = 0; i < c->n_sent_; i++) cp_secret_free(c->sent_[i]);
  c->n_sent_ = 0;
  if (c->n_headers > CP_S3_MAX_HEADERS - 4)
    return paimon_error_set(err, PAIMON_EINVAL, "object store request: too many headers");
  char host[512];
  CP_RETURN_IF_ERROR(build_url(s3, c, host, sizeof host, err));
  char date[17], payload[65];
  if (fixed_date) {
    snprintf(date, sizeof date, "%s", fixed_date);
  } else {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y%m%dT%H%M%SZ", &tm);
  }
  /* Over TLS the body is protected in transit, so (like the AWS SDKs) it is not hashed; over
   * plain HTTP its hash is signed. */
  if (strcmp(s3->scheme, "https") == 0)
    snprintf(payload, sizeof payload, "UNSIGNED-PAYLOAD");
  else
    cp_sha256_hex(c->body ? c->body : "", c->body ? c->body_len : 0, payload);
  cp_sigv4_header signed_h[CP_S3_MAX_HEADERS];
  char names[CP_S3_MAX_HEADERS][64];
  size_t ns = 0;
  signed_h[ns++] = (cp_sigv4_header){"host", host};
  signed_h[ns++] = (cp_sigv4_header){"x-amz-date", date};
  signed_h[ns++] = (cp_sigv4_header){"x-amz-content-sha256", payload};
  if (s3->session_token)
    signed_h[ns++] = (cp_sigv4_header){"x-amz-security-token", s3->session_token};
  for (size_t i = 0; i < c->n_headers; i++) {
    const char *v = split_header(c->headers[i], names[ns], sizeof names[ns]);
    signed_h[ns] = (cp_sigv4_header){names[ns], v};
    ns++;
  }
  for (size_t i = 1; i < ns; i++)
    CP_RETURN_IF_ERROR(push_sent(c, header_line(signed_h[i].name, signed_h[i].value), err));
  if (s3->access_key) {
    cp_buf auth = CP_BUF_INIT;
    cp_sigv4_request r = {.method = c->method,
                          .canonical_uri = (const char *)c->canon_uri_.data,
                          .canonical_query = c->query ? c->query : "",
                          .headers = signed_h,
                          .n_headers = ns,
                          .payload_hash = payload,
                          .region = s3->region,
                          .service = "s3",
                          .access_key = s3->access_key,
                          .secret_key = s3->secret_key,
                          .amz_date = date};
    int rc = cp_sigv4_authorization(&r, &auth, err);
    if (!rc) rc = push_sent(c, header_line("Authorization", (const char *)auth.data), err);
    cp_buf_free(&auth);
    CP_RETURN_IF_ERROR(rc);
  }
  c->http.method = c->method;
  c->http.url = (const char *)c->url_.data;
  c->http.headers = (const char *const *)c->sent_;
  c->http.n_headers = c->n_sent_;
  c->http.body = c->body;
  c->http.body_len = c->body_len;
  c->http.dst = c->dst;
  c->http.dst_cap = c->dst_cap;
  c->http.max_resp = c->max_resp;
  return PAIMON_OK;
}

int cp_s3_sign(cp_s3 *s3, cp_s3_call *c, const char *amz_date, paimon_error *err) {
  return sign_attempt(s3, c, amz_date, err);
}

int cp_s3_start(cp_s3 *s3, cp_s3_call *c, paimon_error *err) {
  CP_RETURN_IF_ERROR(sign_attempt(s3, c, NULL, err));
  c->attempts++;
  return cp_http_submit(s3->http, &c->http, err);
}

/* ---- responses ---- */

bool cp_s3_ok(const cp_s3_call *c) {
  return c->http.transport == 0 && c->http.status >= 200 && c->http.status < 300;
}

typedef struct err_doc {
  char code[64];
  char message[256];
  char request_id[80];
} err_doc;

static int on_err_element(void *ud, const char *path, const char *text, size_t len,
                          paimon_error *err) {
  err_doc *d = ud;
  if (strcmp(path, "Error/Code") == 0) snprintf(d->code, sizeof d->code, "%s", text);
  if (strcmp(path, "Error/Message") == 0) snprintf(d->message, sizeof d->message, "%s", text);
  if (strcmp(path, "Error/RequestId") == 0)
    snprintf(d->request_id, sizeof d->request_id, "%s", text);
  return PAIMON_OK;
}

static void parse_error(const cp_s3_call *c, err_doc *d) {
  memset(d, 0, sizeof *d);
  if (!c->dst && c->http.resp.len)
    cp_xml_parse(c->http.resp.data, c->http.resp.len, on_err_element, d, "error response", NULL);
  if (!d->request_id[0]) {
    char *id = cp_http_header(&c->http, "x-amz-request-id");
    if (id) snprintf(d->request_id, sizeof d->request_id, "%s", id);
    free(id);
  }
}

void cp_s3_error_code(const cp_s3_call *c, char *code, size_t cap) {
  err_doc d;
  parse_error(c, &d);
  snprintf(code, cap, "%s", d.code);
}

static const char *status_code_name(long status) {
  switch (status) {
  case 301: return "PermanentRedirect";
  case 400: return "BadRequest";
  case 403: return "AccessDenied";
  case 404: return "NotFound";
  case 409: return "Conflict";
  case 412: return "PreconditionFailed";
  case 416: return "InvalidRange";
  case 500: return "InternalError";
  case 503: return "ServiceUnavailable";
  default: return "Error";
  }
}

int cp_s3_error(const cp_s3_call *c, const char *op, const char *uri, paimon_error *err) {
  if (c->http.transport)
    return paimon_error_set(err, PAIMON_EIO, "%s of %s: %s", op, uri,
                            c->http.overflow ? "the response is larger than expected"
                                             : c->http.transport_msg);
  err_doc d;
  parse_error(c, &d);
  /* A missing bucket is a configuration error, not a missing file a caller may expect. */
  int code = c->http.status == 404 && strcmp(d.code, "NoSuchBucket") != 0 ? PAIMON_ENOTFOUND
             : c->http.status == 412                                      ? PAIMON_EEXIST
                                                                          : PAIMON_EIO;
  return paimon_error_set(err, code, "%s of %s: %s%s%s (HTTP %ld%s%s)", op, uri,
                          d.code[0] ? d.code : status_code_name(c->http.status),
                          d.message[0] ? ": " : "", d.message, c->http.status,
                          d.request_id[0] ? ", request id " : "", d.request_id);
}

/* ---- retries ---- */

static bool retryable(const cp_s3_call *c) {
  const cp_http_req *h = &c->http;
  if (h->transport) return !h->overflow;
  long s = h->status;
  if (s == 500 || s == 502 || s == 503 || s == 504 || s == 429) return true;
  if (s == 400) {
    char code[64];
    cp_s3_error_code(c, code, sizeof code);
    return strcmp(code, "RequestTimeout") == 0;
  }
  return false;
}

/* Whether a failed attempt may nevertheless have been applied by the store. */
static bool maybe_applied(const cp_s3_call *c) {
  int t = c->http.transport;
  if (t)
    return t != CURLE_COULDNT_CONNECT && t != CURLE_COULDNT_RESOLVE_HOST &&
           t != CURLE_COULDNT_RESOLVE_PROXY;
  return c->http.status >= 500 && c->http.status != 503;
}

static void backoff(cp_s3 *s3, int attempt) {
  long cap = s3->retry_base_ms;
  for (int i = 1; i < attempt && cap < s3->retry_max_ms; i++) cap *= 2;
  if (cap > s3->retry_max_ms) cap = s3->retry_max_ms;
  uint64_t x = atomic_load(&s3->jitter);
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  atomic_store(&s3->jitter, x);
  long ms = (long)(x % (uint64_t)(cap + 1));
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static int exhausted(const cp_s3_call *c, const char *uri, paimon_error *err) {
  if (c->http.transport)
    return paimon_error_set(err, PAIMON_EIO, "%s of %s: failed after %d attempts: %s", c->method,
                            uri, c->attempts, c->http.transport_msg);
  err_doc d;
  parse_error(c, &d);
  return paimon_error_set(err, PAIMON_EIO, "%s of %s: failed after %d attempts: %s (HTTP %ld%s%s)",
                          c->method, uri, c->attempts,
                          d.code[0] ? d.code : status_code_name(c->http.status), c->http.status,
                          d.request_id[0] ? ", request id " : "", d.request_id);
}

int cp_s3_finish(cp_s3 *s3, cp_s3_call *c, const char *uri, paimon_error *err) {
  cp_http_wait(s3->http, &c->http);
  while (retryable(c)) {
    if (c->attempts >= s3->max_attempts) return exhausted(c, uri, err);
    if (maybe_applied(c)) c->ambiguous = true;
    backoff(s3, c->attempts);
    CP_RETURN_IF_ERROR(cp_s3_start(s3, c, err));
    cp_http_wait(s3->http, &c->http);
  }
  return PAIMON_OK;
}

int cp_s3_perform(cp_s3 *s3, cp_s3_call *c, const char *uri, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_s3_start(s3, c, err));
  return cp_s3_finish(s3, c, uri, err);
}

int cp_s3_perform_many(cp_s3 *s3, cp_s3_call *const *calls, const char *const *uris, size_t n,
                       paimon_error *err) {
  int rc = PAIMON_OK;
  size_t started = 0;
  for (; started < n && rc == 0; started++) rc = cp_s3_start(s3, calls[started], err);
  if (rc) started--;
  /* Every started call is waited for, also after a failure, so none is left in flight. */
  for (size_t i = 0; i < started; i++) {
    int r = cp_s3_finish(s3, calls[i], uris[i], rc ? NULL : err);
    if (!rc) rc = r;
  }
  return rc;
}
