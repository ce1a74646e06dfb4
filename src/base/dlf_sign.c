/*
 * DLF request signing (dlf_sign.h; spec/rest-catalog.md §3.2), after pypaimon's dlf_signer.py:
 *
 * default: x-dlf-date, x-dlf-content-sha256 (UNSIGNED-PAYLOAD), x-dlf-version v1, and for a body
 *   Content-Type and Content-MD5, with an STS token x-dlf-security-token. The canonical request is
 *   method, path, sorted query ("k=v", or "k" for an empty value), the signed headers present
 *   ("name:value", sorted), and UNSIGNED-PAYLOAD, one per line; the key is the HMAC-SHA256 chain
 *   "aliyun_v4" + secret → date → region → "DlfNext" → "aliyun_v4_request".
 * openapi: Date (RFC 1123), Accept, Content-MD5 / Content-Type for a body, Host, the x-acs-*
 *   headers; signed is method, Accept, Content-MD5, Content-Type, Date, the sorted x-acs-*
 *   headers and the decoded path with the sorted decoded query, HMAC-SHA1 in base64.
 */
#include "base/dlf_sign.h"

#include <ctype.h>
#include <stdbool.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/digest.h"
#include "base/http.h"
#include "base/status.h"
#include "base/uuid.h"

static void add(cp_dlf_headers *h, const char *name, const char *value) {
  if (h->n >= CP_DLF_MAX_HEADERS) return;
  snprintf(h->name[h->n], sizeof h->name[0], "%s", name);
  snprintf(h->value[h->n], sizeof h->value[0], "%s", value ? value : "");
  h->n++;
}

static const char *find(const cp_dlf_headers *h, const char *name) {
  for (size_t i = 0; i < h->n; i++)
    if (strcasecmp(h->name[i], name) == 0) return h->value[i];
  return NULL;
}

/* Leading and trailing whitespace removed (Python's str.strip on ASCII). */
static void append_trimmed(cp_buf *b, const char *s, paimon_error *err, int *rc) {
  if (*rc) return;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)*s)) s++, n--;
  while (n && isspace((unsigned char)s[n - 1])) n--;
  *rc = cp_buf_append(b, s, n, err);
}

static void appendf(cp_buf *b, paimon_error *err, int *rc, const char *fmt, const char *s) {
  if (!*rc) *rc = cp_buf_appendf(b, err, fmt, s);
}

/* Indices of the query sorted by key. */
static size_t *sorted_query(const cp_dlf_request *r) {
  size_t *ix = malloc((r->n_query ? r->n_query : 1) * sizeof *ix);
  if (!ix) return NULL;
  for (size_t i = 0; i < r->n_query; i++) ix[i] = i;
  for (size_t i = 1; i < r->n_query; i++)
    for (size_t j = i; j > 0 && strcmp(r->query_keys[ix[j - 1]], r->query_keys[ix[j]]) > 0; j--) {
      size_t t = ix[j];
      ix[j] = ix[j - 1];
      ix[j - 1] = t;
    }
  return ix;
}

/* Percent-decoding (with '+' as space when `plus`), as Python's unquote / unquote_plus. */
static void append_decoded(cp_buf *b, const char *s, bool plus, paimon_error *err, int *rc) {
  for (; *s && !*rc; s++) {
    char c = *s;
    if (c == '%' && isxdigit((unsigned char)s[1]) && isxdigit((unsigned char)s[2])) {
      char hex[3] = {s[1], s[2], 0};
      c = (char)strtol(hex, NULL, 16);
      s += 2;
    } else if (plus && c == '+') {
      c = ' ';
    }
    *rc = cp_buf_append(b, &c, 1, err);
  }
}

static void body_md5(const cp_dlf_request *r, char out[32]) {
  uint8_t md5[16];
  cp_md5(r->body, r->body_len, md5);
  cp_base64(md5, sizeof md5, out);
}

static int sign_default(const cp_dlf_request *r, cp_dlf_headers *h, paimon_error *err) {
  char date_time[20], date[9];
  struct tm tm;
  gmtime_r(&r->now, &tm);
  strftime(date_time, sizeof date_time, "%Y%m%dT%H%M%SZ", &tm);
  memcpy(date, date_time, 8);
  date[8] = '\0';
  bool body = r->body && r->body_len;
  add(h, "x-dlf-date", date_time);
  add(h, "x-dlf-content-sha256", "UNSIGNED-PAYLOAD");
  add(h, "x-dlf-version", "v1");
  if (body) {
    char md5[32];
    body_md5(r, md5);
    add(h, "Content-Type", "application/json");
    add(h, "Content-MD5", md5);
  }
  if (r->security_token) add(h, "x-dlf-security-token", r->security_token);

  cp_buf c = CP_BUF_INIT, sts = CP_BUF_INIT, key = CP_BUF_INIT;
  int rc = cp_buf_appendf(&c, err, "%s\n%s\n", r->method, r->path);
  size_t *ix = sorted_query(r);
  if (!ix && !rc) rc = CP_ENOMEM(err, "signature");
  for (size_t i = 0; i < r->n_query && !rc; i++) {
    const char *v = r->query_values[ix[i]];
    if (i) rc = cp_buf_append(&c, "&", 1, err);
    append_trimmed(&c, r->query_keys[ix[i]], err, &rc);
    if (v && *v) {
      /* the value as it travels, percent-encoded (Java's RESTUtil, pypaimon's
       * RESTAuthParameter both encode before signing) */
      cp_buf enc = CP_BUF_INIT;
      if (!rc) rc = cp_url_encode(&enc, v, strlen(v), false, err);
      if (!rc) rc = cp_buf_append(&c, "=", 1, err);
      append_trimmed(&c, (const char *)enc.data, err, &rc);
      cp_buf_free(&enc);
    }
  }
  free(ix);
  /* the signed headers present, sorted by lower-case name */
  static const char *const signed_names[] = {"content-md5",          "content-type",
                                             "x-dlf-content-sha256", "x-dlf-date",
                                             "x-dlf-security-token", "x-dlf-version"};
  for (size_t i = 0; i < sizeof signed_names / sizeof *signed_names && !rc; i++) {
    const char *v = find(h, signed_names[i]);
    if (!v) continue;
    appendf(&c, err, &rc, "\n%s:", signed_names[i]);
    append_trimmed(&c, v, err, &rc);
  }
  appendf(&c, err, &rc, "\n%s", "UNSIGNED-PAYLOAD");
  char creq_hash[65], sig[65];
  if (!rc) {
    cp_sha256_hex(c.data, c.len, creq_hash);
    rc = cp_buf_appendf(&sts, err, "DLF4-HMAC-SHA256\n%s\n%s/%s/DlfNext/aliyun_v4_request\n%s",
                        date_time, date, r->region, creq_hash);
  }
  if (!rc) rc = cp_buf_appendf(&key, err, "aliyun_v4%s", r->access_key_secret);
  if (!rc) {
    uint8_t a[32], b[32];
    cp_hmac_sha256(key.data, key.len, date, 8, a);
    cp_hmac_sha256(a, 32, r->region, strlen(r->region), b);
    cp_hmac_sha256(b, 32, "DlfNext", 7, a);
    cp_hmac_sha256(a, 32, "aliyun_v4_request", 17, b);
    cp_hmac_sha256(b, 32, sts.data, sts.len, a);
    cp_hex(a, 32, sig);
    char auth[512];
    snprintf(auth, sizeof auth,
             "DLF4-HMAC-SHA256 Credential=%s/%s/%s/DlfNext/aliyun_v4_request,Signature=%s",
             r->access_key_id, date, r->region, sig);
    add(h, "Authorization", auth);
  }
  if (key.data) memset(key.data, 0, key.len);
  cp_buf_free(&key);
  cp_buf_free(&c);
  cp_buf_free(&sts);
  return rc;
}

static int sign_openapi(const cp_dlf_request *r, cp_dlf_headers *h, paimon_error *err) {
  static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  struct tm tm;
  gmtime_r(&r->now, &tm);
  char date[40];
  snprintf(date, sizeof date, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday], tm.tm_mday,
           months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  char nonce[64];
  if (r->nonce) {
    snprintf(nonce, sizeof nonce, "%s", r->nonce);
  } else {
    char uuid[37];
    CP_RETURN_IF_ERROR(cp_uuid_v4(uuid, err));
    snprintf(nonce, sizeof nonce, "%s%lld", uuid, (long long)r->now * 1000);
  }
  bool body = r->body && r->body_len;
  add(h, "Date", date);
  add(h, "Accept", "application/json");
  char md5[32] = "";
  if (body) {
    body_md5(r, md5);
    add(h, "Content-MD5", md5);
    add(h, "Content-Type", "application/json");
  }
  add(h, "Host", r->host);
  add(h, "x-acs-signature-method", "HMAC-SHA1");
  add(h, "x-acs-signature-nonce", nonce);
  add(h, "x-acs-signature-version", "1.0");
  add(h, "x-acs-version", "2026-01-18");
  if (r->security_token) add(h, "x-acs-security-token", r->security_token);

  cp_buf s = CP_BUF_INIT;
  int rc = cp_buf_appendf(&s, err, "%s\napplication/json\n%s\n%s\n%s\n", r->method, md5,
                          body ? "application/json" : "", date);
  static const char *const acs[] = {"x-acs-security-token", "x-acs-signature-method",
                                    "x-acs-signature-nonce", "x-acs-signature-version",
                                    "x-acs-version"};
  for (size_t i = 0; i < sizeof acs / sizeof *acs && !rc; i++) {
    const char *v = find(h, acs[i]);
    if (!v) continue;
    appendf(&s, err, &rc, "%s:", acs[i]);
    append_trimmed(&s, v, err, &rc);
    if (!rc) rc = cp_buf_append(&s, "\n", 1, err);
  }
  append_decoded(&s, r->path, true, err, &rc);
  size_t *ix = sorted_query(r);
  if (!ix && !rc) rc = CP_ENOMEM(err, "signature");
  for (size_t i = 0; i < r->n_query && !rc; i++) {
    const char *v = r->query_values[ix[i]];
    rc = cp_buf_append(&s, i ? "&" : "?", 1, err);
    if (!rc) rc = cp_buf_append(&s, r->query_keys[ix[i]], strlen(r->query_keys[ix[i]]), err);
    cp_buf dv = CP_BUF_INIT;
    if (v && *v) append_decoded(&dv, v, false, err, &rc);
    if (!rc && dv.len) {
      rc = cp_buf_append(&s, "=", 1, err);
      if (!rc) rc = cp_buf_append(&s, dv.data, dv.len, err);
    }
    cp_buf_free(&dv);
  }
  free(ix);
  if (!rc) {
    uint8_t mac[20];
    unsigned int len = sizeof mac;
    HMAC(EVP_sha1(), r->access_key_secret, (int)strlen(r->access_key_secret), s.data, s.len, mac,
         &len);
    char b64[40], auth[256];
    cp_base64(mac, len, b64);
    snprintf(auth, sizeof auth, "acs %s:%s", r->access_key_id, b64);
    add(h, "Authorization", auth);
  }
  cp_buf_free(&s);
  return rc;
}

int cp_dlf_sign(cp_dlf_algorithm alg, const cp_dlf_request *r, cp_dlf_headers *out,
                paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (!r->access_key_id || !r->access_key_secret)
    return paimon_error_set(err, PAIMON_EINVAL, "DLF signature: no access key id or secret");
  return alg == CP_DLF_OPENAPI ? sign_openapi(r, out, err) : sign_default(r, out, err);
}

void cp_dlf_region_of(const char *uri, char *out, size_t cap) {
  out[0] = '\0';
  /* the first run [a-z]+ '-' [a-z]+ ( '-' digits )? */
  for (const char *p = uri; *p; p++) {
    if (!islower((unsigned char)*p) || (p > uri && islower((unsigned char)p[-1]))) continue;
    const char *q = p;
    while (islower((unsigned char)*q)) q++;
    if (*q != '-' || !islower((unsigned char)q[1])) continue;
    q++;
    while (islower((unsigned char)*q)) q++;
    if (*q == '-' && isdigit((unsigned char)q[1])) {
      q++;
      while (isdigit((unsigned char)*q)) q++;
    }
    size_t n = (size_t)(q - p);
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    return;
  }
}
