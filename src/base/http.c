/*
 * The HTTP engine (http.h): one thread per engine runs a libcurl multi handle; callers hand it
 * requests through a queue and sleep on a condition variable until theirs is done.
 *
 * Why a thread rather than each caller driving its own transfers: a Parquet writer must keep
 * encoding while its previous parts upload, and a reader's prefetch of many column chunks wants
 * all of them on the wire at once; with the multi handle owned by one thread, both happen without
 * the caller polling, and every transfer of the process shares one pool of keep-alive connections
 * (the multi handle's connection cache), so most requests skip the TCP handshake.
 */
#include "base/http.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/status.h"

struct cp_http {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  CURLM *multi;
  pthread_t thread;
  bool started;
  bool stop;
  pid_t pid; /* the process the engine's thread runs in */
  cp_http_req *pending;
  cp_http_options opts;
  _Atomic uint64_t requests;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

/* TLS trust roots. libcurl looks for its CA bundle at the path it was built with (Debian's
 * /etc/ssl/certs/ca-certificates.crt), and the copy of libcurl inside a wheel runs on systems that
 * keep the bundle elsewhere. SSL_CERT_FILE / SSL_CERT_DIR (OpenSSL's names) or CURL_CA_BUNDLE (the
 * curl tool's) choose the roots; without them, when curl's own default is missing, the first
 * bundle found where the common distributions keep theirs. NULL: curl's default. */
static char *ca_file, *ca_dir;

static void find_ca(void) {
  static const char *const known[] = {
      "/etc/ssl/certs/ca-certificates.crt",                /* Debian, Ubuntu, Alpine, Arch */
      "/etc/pki/tls/certs/ca-bundle.crt",                  /* Fedora, RHEL, Amazon Linux */
      "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", /* RHEL 7+ */
      "/etc/ssl/ca-bundle.pem",                            /* openSUSE */
      "/etc/ssl/cert.pem",                                 /* macOS, BSDs */
  };
  const char *f = getenv("SSL_CERT_FILE");
  if (!f || !*f) f = getenv("CURL_CA_BUNDLE");
  const char *d = getenv("SSL_CERT_DIR");
  if (f && *f) ca_file = strdup(f);
  if (d && *d) ca_dir = strdup(d);
  if ((f && *f) || (d && *d)) return;
  const char *def = NULL;
#if CURL_AT_LEAST_VERSION(7, 84, 0)
  CURL *e = curl_easy_init();
  if (e) curl_easy_getinfo(e, CURLINFO_CAINFO, (char **)&def);
  bool have_default = def && access(def, R_OK) == 0;
  if (e) curl_easy_cleanup(e);
  if (have_default) return;
#endif
  for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
    if (access(known[i], R_OK) == 0) {
      ca_file = strdup(known[i]);
      return;
    }
  }
}

static void curl_init(void) {
  curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (curl_init_rc == CURLE_OK) find_ca();
}

/* ---- the engine thread ---- */

static void finish(cp_http *h, CURLMsg *msg) {
  CURL *easy = msg->easy_handle;
  cp_http_req *req = NULL;
  curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&req);
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  curl_multi_remove_handle(h->multi, easy);
  curl_easy_cleanup(easy);
  curl_slist_free_all(req->header_list_);
  req->header_list_ = NULL;
  req->easy_ = NULL;
  pthread_mutex_lock(&h->mu);
  req->status = status;
  req->transport = msg->data.result == CURLE_OK ? 0 : (int)msg->data.result;
  if (req->transport && !req->transport_msg[0])
    snprintf(req->transport_msg, sizeof req->transport_msg, "%s",
             curl_easy_strerror(msg->data.result));
  req->done_ = true;
  pthread_cond_broadcast(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

/* Marks a request that could not be added to the multi handle as failed. */
static void fail_now(cp_http *h, cp_http_req *req, CURLMcode mc) {
  curl_easy_cleanup(req->easy_);
  curl_slist_free_all(req->header_list_);
  req->easy_ = req->header_list_ = NULL;
  pthread_mutex_lock(&h->mu);
  req->transport = CURLE_FAILED_INIT;
  snprintf(req->transport_msg, sizeof req->transport_msg, "%s", curl_multi_strerror(mc));
  req->done_ = true;
  pthread_cond_broadcast(&h->cv);
  pthread_mutex_unlock(&h->mu);
}

static void *engine_main(void *arg) {
  cp_http *h = arg;
  for (;;) {
    pthread_mutex_lock(&h->mu);
    cp_http_req *todo = h->pending;
    h->pending = NULL;
    bool stop = h->stop;
    pthread_mutex_unlock(&h->mu);
    if (stop) break;
    while (todo) {
      cp_http_req *next = todo->next_;
      CURLMcode mc = curl_multi_add_handle(h->multi, todo->easy_);
      if (mc != CURLM_OK) fail_now(h, todo, mc);
      todo = next;
    }
    int running = 0;
    curl_multi_perform(h->multi, &running);
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(h->multi, &left)))
      if (msg->msg == CURLMSG_DONE) finish(h, msg);
    curl_multi_poll(h->multi, NULL, 0, 1000, NULL);
  }
  return NULL;
}

static int engine_start(cp_http *h, paimon_error *err) {
  h->multi = curl_multi_init();
  if (!h->multi)
    return paimon_error_set(err, PAIMON_ENOMEM, "http: cannot create a curl multi handle");
  curl_multi_setopt(h->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)h->opts.max_host_connections);
  curl_multi_setopt(h->multi, CURLMOPT_MAXCONNECTS, (long)h->opts.max_host_connections * 2);
  h->stop = false;
  h->pending = NULL;
  h->pid = getpid();
  if (pthread_create(&h->thread, NULL, engine_main, h) != 0) {
    curl_multi_cleanup(h->multi);
    h->multi = NULL;
    return paimon_error_set(err, PAIMON_EIO, "http: cannot start the transfer thread");
  }
  h->started = true;
  return PAIMON_OK;
}

int cp_http_new(cp_http **out, const cp_http_options *opts, paimon_error *err) {
  *out = NULL;
  pthread_once(&curl_once, curl_init);
  if (curl_init_rc != CURLE_OK)
    return paimon_error_set(err, PAIMON_EIO, "http: curl_global_init failed: %s",
                            curl_easy_strerror(curl_init_rc));
  cp_http *h = calloc(1, sizeof *h);
  if (!h) return CP_ENOMEM(err, "http engine");
  if (opts) h->opts = *opts;
  if (h->opts.connect_timeout_ms <= 0) h->opts.connect_timeout_ms = 10000;
  if (h->opts.stall_timeout_ms <= 0) h->opts.stall_timeout_ms = 60000;
  if (h->opts.max_host_connections <= 0) h->opts.max_host_connections = 32;
  atomic_init(&h->requests, 0);
  pthread_mutex_init(&h->mu, NULL);
  pthread_cond_init(&h->cv, NULL);
  *out = h;
  return PAIMON_OK;
}

void cp_http_free(cp_http *h) {
  if (!h) return;
  if (h->started && h->pid == getpid()) {
    pthread_mutex_lock(&h->mu);
    h->stop = true;
    pthread_mutex_unlock(&h->mu);
    curl_multi_wakeup(h->multi);
    pthread_join(h->thread, NULL);
    curl_multi_cleanup(h->multi);
  }
  pthread_mutex_destroy(&h->mu);
  pthread_cond_destroy(&h->cv);
  free(h);
}

uint64_t cp_http_requests(const cp_http *h) { return atomic_load(&((cp_http *)h)->requests); }

/* ---- callbacks (run on the engine thread) ---- */

static size_t on_body(char *p, size_t size, size_t n, void *ud) {
  cp_http_req *req = ud;
  size_t len = size * n;
  if (req->dst) {
    if (len > req->dst_cap - req->dst_len) {
      req->overflow = true;
      return 0; /* aborts the transfer */
    }
    memcpy((uint8_t *)req->dst + req->dst_len, p, len);
    req->dst_len += len;
    return len;
  }
  if (req->max_resp && len > req->max_resp - req->resp.len) {
    req->overflow = true;
    return 0;
  }
  return cp_buf_append(&req->resp, p, len, NULL) == 0 ? len : 0;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud) {
  cp_http_req *req = ud;
  size_t len = size * n;
  /* A new status line starts a new response (after 100 Continue): keep only the last's headers. */
  if (len >= 5 && memcmp(p, "HTTP/", 5) == 0) req->resp_headers.len = 0;
  if (cp_buf_append(&req->resp_headers, p, len, NULL) != 0) return 0;
  if (cp_buf_nul_terminate(&req->resp_headers, NULL) != 0) return 0;
  return len;
}

/* ---- submitting ---- */

static bool has_header(const cp_http_req *req, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i < req->n_headers; i++)
    if (strncasecmp(req->headers[i], name, n) == 0 && req->headers[i][n] == ':') return true;
  return false;
}

static int build_headers(cp_http_req *req, struct curl_slist **out) {
  struct curl_slist *l = NULL, *t;
  for (size_t i = 0; i < req->n_headers; i++) {
    if (!(t = curl_slist_append(l, req->headers[i]))) goto oom;
    l = t;
  }
  /* No "Expect: 100-continue" round trip, no form content type curl would invent for a body, no
   * Accept header the signature does not cover. */
  const char *extra[] = {
      "Expect:", "Accept:", req->body && !has_header(req, "Content-Type") ? "Content-Type:" : NULL};
  for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) {
    if (!extra[i]) continue;
    if (!(t = curl_slist_append(l, extra[i]))) goto oom;
    l = t;
  }
  *out = l;
  return PAIMON_OK;
oom:
  curl_slist_free_all(l);
  return PAIMON_ENOMEM;
}

static int setup_easy(cp_http *h, cp_http_req *req, paimon_error *err) {
  CURL *e = curl_easy_init();
  struct curl_slist *hl = NULL;
  if (!e || build_headers(req, &hl) != 0) {
    if (e) curl_easy_cleanup(e);
    return CP_ENOMEM(err, "http request");
  }
  curl_easy_setopt(e, CURLOPT_URL, req->url);
  curl_easy_setopt(e, CURLOPT_PRIVATE, (char *)req);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, hl);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, req);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, req);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, req->transport_msg);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, h->opts.connect_timeout_ms);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, (h->opts.stall_timeout_ms + 999) / 1000);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  if (ca_file) curl_easy_setopt(e, CURLOPT_CAINFO, ca_file);
  if (ca_dir) curl_easy_setopt(e, CURLOPT_CAPATH, ca_dir);
  const char *m = req->method ? req->method : "GET";
  if (strcmp(m, "HEAD") == 0) {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else if (req->body || strcmp(m, "PUT") == 0 || strcmp(m, "POST") == 0) {
    /* A body given as one block: curl sends it with Content-Length, no chunking. */
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, req->body ? (const char *)req->body : "");
    if (strcmp(m, "POST") != 0) curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, m);
  } else if (strcmp(m, "GET") != 0) {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, m);
  }
  req->easy_ = e;
  req->header_list_ = hl;
  return PAIMON_OK;
}

void cp_http_req_reset(cp_http_req *req) {
  req->status = 0;
  req->transport = 0;
  req->transport_msg[0] = '\0';
  req->overflow = false;
  req->resp.len = 0;
  req->dst_len = 0;
  req->resp_headers.len = 0;
  req->done_ = false;
}

void cp_http_req_free(cp_http_req *req) {
  cp_buf_free(&req->resp);
  cp_buf_free(&req->resp_headers);
}

int cp_http_submit(cp_http *h, cp_http_req *req, paimon_error *err) {
  cp_http_req_reset(req);
  if (h->started && h->pid != getpid()) {
    /* A forked child: the parent's engine thread is not here, and its lock may have been held at
     * the fork. The multi handle and its connections are abandoned (cleaning them up could
     * disturb the parent's sockets). */
    h->started = false;
    h->pending = NULL;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
  }
  pthread_mutex_lock(&h->mu);
  int rc = h->started ? PAIMON_OK : engine_start(h, err);
  pthread_mutex_unlock(&h->mu);
  CP_RETURN_IF_ERROR(rc);
  CP_RETURN_IF_ERROR(setup_easy(h, req, err));
  atomic_fetch_add(&h->requests, 1);
  pthread_mutex_lock(&h->mu);
  req->next_ = h->pending;
  h->pending = req;
  pthread_mutex_unlock(&h->mu);
  curl_multi_wakeup(h->multi);
  return PAIMON_OK;
}

void cp_http_wait(cp_http *h, cp_http_req *req) {
  pthread_mutex_lock(&h->mu);
  while (!req->done_) pthread_cond_wait(&h->cv, &h->mu);
  pthread_mutex_unlock(&h->mu);
}

int cp_http_run(cp_http *h, cp_http_req *const *reqs, size_t n, paimon_error *err) {
  int rc = PAIMON_OK;
  size_t started = 0;
  for (; started < n && rc == 0; started++) rc = cp_http_submit(h, reqs[started], err);
  if (rc) started--;
  for (size_t i = 0; i < started; i++) cp_http_wait(h, reqs[i]);
  return rc;
}

char *cp_http_header(const cp_http_req *req, const char *name) {
  if (!req->resp_headers.data) return NULL;
  size_t n = strlen(name);
  const char *p = (const char *)req->resp_headers.data;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (len > n && strncasecmp(p, name, n) == 0 && p[n] == ':') {
      const char *v = p + n + 1, *end = p + len;
      while (v < end && (*v == ' ' || *v == '\t')) v++;
      while (end > v && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) end--;
      return strndup(v, (size_t)(end - v));
    }
    if (!eol) break;
    p = eol + 1;
  }
  return NULL;
}

int cp_url_encode(cp_buf *out, const char *s, size_t n, bool keep_slash, paimon_error *err) {
  static const char hex[] = "0123456789ABCDEF";
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, n * 3 + 1, err));
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/');
    if (plain) {
      out->data[out->len++] = c;
    } else {
      out->data[out->len++] = '%';
      out->data[out->len++] = (uint8_t)hex[c >> 4];
      out->data[out->len++] = (uint8_t)hex[c & 15];
    }
  }
  return cp_buf_nul_terminate(out, err);
}
