/*
 * The REST catalog wire layer (rest.h; spec/rest-catalog.md §1-§3).
 *
 * Requests go through the same HTTP engine as the object store (base/http.h). Every request is
 * authenticated anew: `Authorization: Bearer <token>` for token.provider=bear, or the DLF
 * signature headers (base/dlf_sign.h) over method, path, query and body for token.provider=dlf.
 * 429 and 503 are retried with exponential backoff and jitter (the server did not act on them),
 * as are failed connections of idempotent requests; a POST whose answer was lost is reported to
 * the caller, which decides (a commit then checks whether it landed).
 */
#include "table/rest.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/dlf_sign.h"
#include "base/http.h"
#include "base/json.h"
#include "base/status.h"

typedef enum auth_kind { AUTH_BEAR, AUTH_DLF } auth_kind;

struct cp_rest {
  char *uri;    /* "http://host:port" (no trailing '/') */
  char *host;   /* "host:port" */
  char *prefix; /* from the config answer; NULL for none */
  cp_options options;
  cp_http *http;
  auth_kind auth;
  char *token; /* bearer */
  char *ak, *sk, *sts, *region;
  cp_dlf_algorithm alg;
  int max_attempts;
  _Atomic uint64_t jitter;
};

void cp_rest_free(cp_rest *r) {
  if (!r) return;
  cp_http_free(r->http);
  free(r->uri);
  free(r->host);
  free(r->prefix);
  cp_options_free(&r->options);
  cp_secret_free(r->token);
  free(r->ak);
  cp_secret_free(r->sk);
  cp_secret_free(r->sts);
  free(r->region);
  free(r);
}

const cp_options *cp_rest_options(const cp_rest *r) { return &r->options; }
const char *cp_rest_uri(const cp_rest *r) { return r->uri; }
uint64_t cp_rest_requests(const cp_rest *r) { return cp_http_requests(r->http); }

void cp_rest_result_free(cp_rest_result *res) {
  if (res->body) json_decref(res->body);
  memset(res, 0, sizeof *res);
}

int cp_rest_segment(cp_buf *path, const char *name, paimon_error *err) {
  return cp_url_encode(path, name, strlen(name), false, err);
}

/* ---- one request ---- */

typedef struct header_set {
  char *lines[24];
  size_t n;
} header_set;

static int header_add(header_set *h, const char *name, const char *value, paimon_error *err) {
  if (h->n == sizeof h->lines / sizeof *h->lines)
    return paimon_error_set(err, PAIMON_EINVAL, "REST request: too many headers");
  size_t n = strlen(name) + strlen(value) + 3;
  if (!(h->lines[h->n] = malloc(n))) return CP_ENOMEM(err, "REST request");
  snprintf(h->lines[h->n++], n, "%s: %s", name, value);
  return PAIMON_OK;
}

static void header_free(header_set *h) {
  for (size_t i = 0; i < h->n; i++) cp_secret_free(h->lines[i]);
  h->n = 0;
}

/* The headers of one attempt: header.* options, content type, authentication. */
static int build_headers(cp_rest *r, const char *method, const char *path,
                         const cp_rest_param *params, size_t n_params, const char *body,
                         size_t body_len, header_set *h, paimon_error *err) {
  int rc = PAIMON_OK;
  for (size_t i = 0; i < r->options.n && !rc; i++)
    if (strncmp(r->options.keys[i], "header.", 7) == 0 && r->options.keys[i][7])
      rc = header_add(h, r->options.keys[i] + 7, r->options.values[i], err);
  if (rc) return rc;
  if (r->auth == AUTH_BEAR) {
    char *v = malloc(strlen(r->token) + 8);
    if (!v) return CP_ENOMEM(err, "REST request");
    sprintf(v, "Bearer %s", r->token);
    rc = header_add(h, "Authorization", v, err);
    cp_secret_free(v);
    if (!rc && body_len) rc = header_add(h, "Content-Type", "application/json", err);
    return rc;
  }
  const char *keys[32], *values[32];
  if (n_params > 32) return paimon_error_set(err, PAIMON_EINVAL, "REST request: too many params");
  for (size_t i = 0; i < n_params; i++) {
    keys[i] = params[i].key;
    values[i] = params[i].value;
  }
  cp_dlf_request d = {.method = method,
                      .path = path,
                      .query_keys = keys,
                      .query_values = values,
                      .n_query = n_params,
                      .body = body,
                      .body_len = body_len,
                      .host = r->host,
                      .region = r->region,
                      .access_key_id = r->ak,
                      .access_key_secret = r->sk,
                      .security_token = r->sts,
                      .now = time(NULL)};
  cp_dlf_headers dh;
  CP_RETURN_IF_ERROR(cp_dlf_sign(r->alg, &d, &dh, err));
  for (size_t i = 0; i < dh.n && !rc; i++) {
    if (strcasecmp(dh.name[i], "Host") == 0) continue; /* curl sends the same */
    rc = header_add(h, dh.name[i], dh.value[i], err);
  }
  memset(&dh, 0, sizeof dh);
  return rc;
}

void cp_rest_parse_error_body(cp_rest_result *res) {
  if (!res->body || !json_is_object(res->body)) return;
  const char *s;
  if ((s = json_string_value(json_object_get(res->body, "message"))))
    snprintf(res->message, sizeof res->message, "%s", s);
  if ((s = json_string_value(json_object_get(res->body, "resourceType"))))
    snprintf(res->resource_type, sizeof res->resource_type, "%s", s);
  if ((s = json_string_value(json_object_get(res->body, "resourceName"))))
    snprintf(res->resource_name, sizeof res->resource_name, "%s", s);
}

static void backoff(cp_rest *r, int attempt) {
  long cap = 100L << (attempt < 6 ? attempt : 6);
  uint64_t x = atomic_load(&r->jitter);
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  atomic_store(&r->jitter, x);
  long ms = (long)(x % (uint64_t)(cap + 1));
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

int cp_rest_call(cp_rest *r, const char *method, const char *path, bool prefixed,
                 const cp_rest_param *params, size_t n_params, json_t *body, cp_rest_result *res,
                 paimon_error *err) {
  memset(res, 0, sizeof *res);
  cp_buf p = CP_BUF_INIT, url = CP_BUF_INIT;
  char *text = body ? json_dumps(body, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  int rc = body && !text ? CP_ENOMEM(err, "REST request") : PAIMON_OK;
  if (!rc) {
    if (prefixed && r->prefix && *r->prefix) {
      rc = cp_buf_append(&p, "/v1/", 4, err);
      if (!rc) rc = cp_rest_segment(&p, r->prefix, err);
      if (!rc) rc = cp_buf_appendf(&p, err, "/%s", path);
    } else {
      rc = cp_buf_appendf(&p, err, "/v1/%s", path);
    }
  }
  if (!rc) rc = cp_buf_nul_terminate(&p, err);
  if (!rc) rc = cp_buf_appendf(&url, err, "%s%s", r->uri, (const char *)p.data);
  for (size_t i = 0; i < n_params && !rc; i++) {
    rc = cp_buf_appendf(&url, err, "%c%s=", i ? '&' : '?', params[i].key);
    if (!rc) rc = cp_url_encode(&url, params[i].value, strlen(params[i].value), false, err);
  }
  if (!rc) rc = cp_buf_nul_terminate(&url, err);
  bool idempotent = strcmp(method, "GET") == 0 || strcmp(method, "DELETE") == 0;
  size_t body_len = text ? strlen(text) : 0;
  cp_http_req req = {0};
  for (int attempt = 1; !rc; attempt++) {
    header_set h = {{0}, 0};
    rc = build_headers(r, method, (const char *)p.data, params, n_params, text, body_len, &h, err);
    if (!rc) {
      cp_http_req_free(&req);
      memset(&req, 0, sizeof req);
      req.method = method;
      req.url = (const char *)url.data;
      req.headers = (const char *const *)h.lines;
      req.n_headers = h.n;
      req.body = text;
      req.body_len = body_len;
      req.max_resp = (size_t)256 << 20;
      rc = cp_http_run(r->http, (cp_http_req *const[]){&req}, 1, err);
    }
    header_free(&h);
    if (rc) break;
    bool transient = req.status == 429 || req.status == 503 || (req.transport && idempotent);
    if (transient && attempt < r->max_attempts) {
      backoff(r, attempt);
      continue;
    }
    if (req.transport) {
      rc = paimon_error_set(err, PAIMON_EIO, "REST catalog %s: %s %s: %s", r->uri, method,
                            (const char *)p.data, req.transport_msg);
      break;
    }
    res->status = req.status;
    if (req.resp.len) {
      json_error_t je;
      res->body = json_loadb((const char *)req.resp.data, req.resp.len, 0, &je);
      if (!res->body && req.status >= 200 && req.status < 300)
        rc = paimon_error_set(err, PAIMON_ECORRUPT,
                              "REST catalog %s: %s %s: the answer is not JSON: %s", r->uri, method,
                              (const char *)p.data, je.text);
      if (!res->body && !rc)
        snprintf(res->message, sizeof res->message, "%.*s",
                 (int)(req.resp.len < 300 ? req.resp.len : 300), (const char *)req.resp.data);
    }
    if (req.status < 200 || req.status >= 300) cp_rest_parse_error_body(res);
    break;
  }
  cp_http_req_free(&req);
  if (text) free(text);
  cp_buf_free(&p);
  cp_buf_free(&url);
  return rc;
}

int cp_rest_error(const cp_rest *r, const cp_rest_result *res, const char *what,
                  paimon_error *err) {
  long s = res->status;
  int code = s == 404   ? PAIMON_ENOTFOUND
             : s == 409 ? PAIMON_EEXIST
             : s == 400 ? PAIMON_EINVAL
             : s == 501 ? PAIMON_EUNSUPPORTED
                        : PAIMON_EIO;
  const char *kind = s == 401 ? "not authorized: " : s == 403 ? "forbidden: " : "";
  return paimon_error_set(err, code, "%s: %s%s (HTTP %ld from the REST catalog at %s)", what, kind,
                          res->message[0] ? res->message : "no message", s, r->uri);
}

/* ---- opening ---- */

static const char *opt(const cp_options *o, const char *key) { return cp_options_get(o, key); }

static int merge_map(cp_options *out, const json_t *map, paimon_error *err) {
  if (!json_is_object(map)) return PAIMON_OK;
  const char *k;
  json_t *v;
  int rc = PAIMON_OK;
  json_object_foreach((json_t *)map, k, v) {
    if (rc) break;
    if (json_is_string(v)) rc = cp_options_set(out, k, json_string_value(v), err);
  }
  return rc;
}

int cp_rest_merge_config(cp_options *out, const cp_options *client, const json_t *config,
                         paimon_error *err) {
  int rc = merge_map(out, json_object_get(config, "defaults"), err);
  for (size_t i = 0; i < client->n && !rc; i++)
    rc = cp_options_set(out, client->keys[i], client->values[i], err);
  if (!rc) rc = merge_map(out, json_object_get(config, "overrides"), err);
  return rc;
}

static int setup_auth(cp_rest *r, const cp_options *o, paimon_error *err) {
  const char *provider = opt(o, "token.provider");
  if (!provider)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "REST catalog %s: option 'token.provider' is required (bear or dlf)",
                            r->uri);
  if (strcmp(provider, "bear") == 0) {
    const char *t = opt(o, "token");
    if (!t || !*t)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "REST catalog %s: token.provider 'bear' needs option 'token'",
                              r->uri);
    r->auth = AUTH_BEAR;
    return (r->token = strdup(t)) ? PAIMON_OK : CP_ENOMEM(err, "REST catalog");
  }
  if (strcmp(provider, "dlf") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "REST catalog %s: unknown token.provider '%s' (bear or dlf)", r->uri,
                            provider);
  r->auth = AUTH_DLF;
  const char *ak = opt(o, "dlf.access-key-id"), *sk = opt(o, "dlf.access-key-secret");
  if (!ak || !sk)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "REST catalog %s: token.provider 'dlf' needs dlf.access-key-id and "
                            "dlf.access-key-secret",
                            r->uri);
  const char *sts = opt(o, "dlf.security-token"), *region = opt(o, "dlf.region");
  char derived[64];
  if (!region) {
    cp_dlf_region_of(r->uri, derived, sizeof derived);
    region = derived;
  }
  if (!*region)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "REST catalog %s: set dlf.region (it cannot be read off the URI)",
                            r->uri);
  const char *alg = opt(o, "dlf.signing-algorithm");
  if (!alg) alg = strstr(r->uri, "dlfnext") ? "openapi" : "default";
  if (strcmp(alg, "default") == 0)
    r->alg = CP_DLF_DEFAULT;
  else if (strcmp(alg, "openapi") == 0)
    r->alg = CP_DLF_OPENAPI;
  else
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "REST catalog %s: dlf.signing-algorithm '%s' is not supported "
                            "(default or openapi)",
                            r->uri, alg);
  r->ak = strdup(ak);
  r->sk = strdup(sk);
  r->region = strdup(region);
  r->sts = sts ? strdup(sts) : NULL;
  if (!r->ak || !r->sk || !r->region || (sts && !r->sts)) return CP_ENOMEM(err, "REST catalog");
  return PAIMON_OK;
}

int cp_rest_open(cp_rest **out, const cp_options *options, paimon_error *err) {
  *out = NULL;
  const char *uri = opt(options, "uri"), *warehouse = opt(options, "warehouse");
  if (!uri || !*uri)
    return paimon_error_set(err, PAIMON_EINVAL, "REST catalog: option 'uri' is required");
  if (!warehouse || !*warehouse)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "REST catalog %s: option 'warehouse' (the catalog name) is required",
                            uri);
  cp_rest *r = calloc(1, sizeof *r);
  if (!r) return CP_ENOMEM(err, "REST catalog");
  atomic_init(&r->jitter, (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)(uintptr_t)r);
  r->max_attempts = 5;
  /* normalised as both clients do: http:// when there is no scheme, no trailing '/' */
  size_t n = strlen(uri);
  while (n && uri[n - 1] == '/') n--;
  bool scheme = strstr(uri, "://") != NULL;
  r->uri = malloc(n + 8);
  int rc = r->uri ? PAIMON_OK : CP_ENOMEM(err, "REST catalog");
  if (!rc) {
    snprintf(r->uri, n + 8, "%s%.*s", scheme ? "" : "http://", (int)n, uri);
    const char *h = strstr(r->uri, "://") + 3;
    if (!(r->host = strndup(h, strcspn(h, "/")))) rc = CP_ENOMEM(err, "REST catalog");
  }
  if (!rc) rc = setup_auth(r, options, err);
  if (!rc) rc = cp_http_new(&r->http, NULL, err);
  cp_rest_result res = {0};
  if (!rc) {
    cp_rest_param p = {"warehouse", warehouse};
    rc = cp_rest_call(r, "GET", "config", false, &p, 1, NULL, &res, err);
  }
  if (!rc && res.status != 200) rc = cp_rest_error(r, &res, "catalog configuration", err);
  if (!rc && !json_is_object(res.body))
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "REST catalog %s: the configuration is not a "
                          "JSON object",
                          r->uri);
  if (!rc) rc = cp_rest_merge_config(&r->options, options, res.body, err);
  cp_rest_result_free(&res);
  const char *prefix = rc ? NULL : opt(&r->options, "prefix");
  if (prefix && *prefix && !(r->prefix = strdup(prefix))) rc = CP_ENOMEM(err, "REST catalog");
  if (rc) {
    cp_rest_free(r);
    return rc;
  }
  *out = r;
  return PAIMON_OK;
}
