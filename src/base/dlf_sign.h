/*
 * The request signatures of Alibaba DLF, the REST catalog of the seed's walkthrough
 * (spec/rest-catalog.md §3.2): `default` (DLF4-HMAC-SHA256, VPC endpoints) and `openapi` (Alibaba
 * ROA style HMAC-SHA1, public dlfnext endpoints), computed as pypaimon 2.1's DLFDefaultSigner and
 * DLFOpenApiSigner do; tests/python/test_rest_dlf_sign.py compares them on fixed inputs.
 *
 * The secret goes only into the HMAC; no output contains it.
 */
#ifndef CP_BASE_DLF_SIGN_H
#define CP_BASE_DLF_SIGN_H

#include <stddef.h>
#include <time.h>

#include "cpaimon/error.h"

typedef enum cp_dlf_algorithm { CP_DLF_DEFAULT = 0, CP_DLF_OPENAPI = 1 } cp_dlf_algorithm;

typedef struct cp_dlf_request {
  const char *method;
  const char *path; /* the request path as sent (percent-encoded), without the query */
  const char *const *query_keys;
  const char *const *query_values; /* raw values, as given to the client */
  size_t n_query;
  const char *body; /* NULL or "" for none */
  size_t body_len;
  const char *host; /* "host[:port]" of the URI (openapi signs it) */
  const char *region;
  const char *access_key_id;
  const char *access_key_secret;
  const char *security_token; /* may be NULL */
  time_t now;
  const char *nonce; /* openapi: the x-acs-signature-nonce (NULL: a fresh random one) */
} cp_dlf_request;

enum { CP_DLF_MAX_HEADERS = 12 };

typedef struct cp_dlf_headers {
  size_t n;
  char name[CP_DLF_MAX_HEADERS][32];
  char value[CP_DLF_MAX_HEADERS][512];
} cp_dlf_headers;

/* The headers to add to the request, Authorization included. */
int cp_dlf_sign(cp_dlf_algorithm alg, const cp_dlf_request *r, cp_dlf_headers *out,
                paimon_error *err);

/* The region in a DLF endpoint URI: the first "[a-z]+-[a-z]+(-\d+)?" in it ("cn-hangzhou" of
 * "https://cn-hangzhou-vpc.dlf.aliyuncs.com"), as both clients take it; "" when there is none. */
void cp_dlf_region_of(const char *uri, char *out, size_t cap);

#endif
