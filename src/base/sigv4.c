/*
 * AWS Signature Version 4 (sigv4.h), as AWS documents it ("Create a signed AWS API request") and
 * botocore implements it: header names lower-cased and sorted, values trimmed with inner runs of
 * spaces collapsed, the signing key derived from the secret through date, region and service.
 */
#include "base/sigv4.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "base/status.h"

typedef struct lower_header {
  char *name;
  const char *value;
} lower_header;

static int by_name(const void *a, const void *b) {
  return strcmp(((const lower_header *)a)->name, ((const lower_header *)b)->name);
}

/* The headers lower-cased and sorted by name (a malloc'd array whose names are malloc'd). */
static int sorted_headers(const cp_sigv4_request *r, lower_header **out, paimon_error *err) {
  lower_header *h = calloc(r->n_headers ? r->n_headers : 1, sizeof *h);
  if (!h) return CP_ENOMEM(err, "signature");
  for (size_t i = 0; i < r->n_headers; i++) {
    if (!(h[i].name = strdup(r->headers[i].name))) {
      for (size_t k = 0; k < i; k++) free(h[k].name);
      free(h);
      return CP_ENOMEM(err, "signature");
    }
    for (char *p = h[i].name; *p; p++) *p = (char)tolower((unsigned char)*p);
    h[i].value = r->headers[i].value ? r->headers[i].value : "";
  }
  if (r->n_headers > 1) qsort(h, r->n_headers, sizeof *h, by_name);
  *out = h;
  return PAIMON_OK;
}

static void free_headers(lower_header *h, size_t n) {
  for (size_t i = 0; i < n; i++) free(h[i].name);
  free(h);
}

/* A header value trimmed, with each run of spaces inside reduced to one. */
static int append_trimmed(cp_buf *b, const char *v, paimon_error *err) {
  while (*v == ' ' || *v == '\t') v++;
  size_t n = strlen(v);
  while (n && (v[n - 1] == ' ' || v[n - 1] == '\t')) n--;
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, n, err));
  bool space = false;
  for (size_t i = 0; i < n; i++) {
    bool s = v[i] == ' ' || v[i] == '\t';
    if (s && space) continue;
    b->data[b->len++] = s ? ' ' : (uint8_t)v[i];
    space = s;
  }
  return PAIMON_OK;
}

static int canonical(const cp_sigv4_request *r, lower_header *h, cp_buf *out, cp_buf *signed_names,
                     paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s\n%s\n%s\n", r->method, r->canonical_uri,
                                    r->canonical_query ? r->canonical_query : ""));
  for (size_t i = 0; i < r->n_headers; i++) {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s:", h[i].name));
    CP_RETURN_IF_ERROR(append_trimmed(out, h[i].value, err));
    CP_RETURN_IF_ERROR(cp_buf_append(out, "\n", 1, err));
    CP_RETURN_IF_ERROR(cp_buf_appendf(signed_names, err, "%s%s", i ? ";" : "", h[i].name));
  }
  CP_RETURN_IF_ERROR(cp_buf_nul_terminate(signed_names, err));
  CP_RETURN_IF_ERROR(
      cp_buf_appendf(out, err, "\n%s\n%s", (const char *)signed_names->data, r->payload_hash));
  return cp_buf_nul_terminate(out, err);
}

int cp_sigv4_canonical_request(const cp_sigv4_request *req, cp_buf *out, paimon_error *err) {
  lower_header *h;
  CP_RETURN_IF_ERROR(sorted_headers(req, &h, err));
  cp_buf names = CP_BUF_INIT;
  int rc = canonical(req, h, out, &names, err);
  cp_buf_free(&names);
  free_headers(h, req->n_headers);
  return rc;
}

int cp_sigv4_authorization(const cp_sigv4_request *req, cp_buf *out, paimon_error *err) {
  if (!req->amz_date || strlen(req->amz_date) != 16)
    return paimon_error_set(err, PAIMON_EINVAL, "signature: bad request date");
  lower_header *h;
  CP_RETURN_IF_ERROR(sorted_headers(req, &h, err));
  cp_buf creq = CP_BUF_INIT, names = CP_BUF_INIT, sts = CP_BUF_INIT, key = CP_BUF_INIT;
  char date[9], creq_hash[65], sig_hex[65];
  memcpy(date, req->amz_date, 8);
  date[8] = '\0';
  int rc = canonical(req, h, &creq, &names, err);
  if (!rc) {
    cp_sha256_hex(creq.data, creq.len, creq_hash);
    rc = cp_buf_appendf(&sts, err, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", req->amz_date,
                        date, req->region, req->service, creq_hash);
  }
  if (!rc) rc = cp_buf_appendf(&key, err, "AWS4%s", req->secret_key);
  if (!rc) {
    uint8_t a[32], b[32];
    cp_hmac_sha256(key.data, key.len, date, 8, a);
    cp_hmac_sha256(a, 32, req->region, strlen(req->region), b);
    cp_hmac_sha256(b, 32, req->service, strlen(req->service), a);
    cp_hmac_sha256(a, 32, "aws4_request", 12, b);
    cp_hmac_sha256(b, 32, sts.data, sts.len, a);
    cp_hex(a, 32, sig_hex);
    rc = cp_buf_appendf(out, err,
                        "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=%s, "
                        "Signature=%s",
                        req->access_key, date, req->region, req->service, (const char *)names.data,
                        sig_hex);
  }
  if (!rc) rc = cp_buf_nul_terminate(out, err);
  if (key.data) memset(key.data, 0, key.len); /* the secret does not linger in freed memory */
  cp_buf_free(&key);
  cp_buf_free(&creq);
  cp_buf_free(&names);
  cp_buf_free(&sts);
  free_headers(h, req->n_headers);
  return rc;
}
