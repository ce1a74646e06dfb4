/*
 * AWS Signature Version 4 (the signing of S3 and S3-compatible stores such as MinIO and OSS's S3
 * endpoint): the canonical request, the string to sign and the Authorization header, computed the
 * way botocore's SigV4Auth does; tests/python/test_s3_signing.py compares the two on fixed inputs.
 */
#ifndef CP_BASE_SIGV4_H
#define CP_BASE_SIGV4_H

#include <stddef.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef struct cp_sigv4_header {
  const char *name; /* any case; signed lower-cased */
  const char *value;
} cp_sigv4_header;

typedef struct cp_sigv4_request {
  const char *method;
  const char *canonical_uri;   /* the request path, already percent-encoded ("/bucket/a%20b") */
  const char *canonical_query; /* sorted, encoded "k=v&k2=" ("" for none) */
  /* The headers to sign (host, x-amz-date, x-amz-content-sha256, and any others sent). */
  const cp_sigv4_header *headers;
  size_t n_headers;
  const char *payload_hash; /* hex SHA-256 of the body, or "UNSIGNED-PAYLOAD" */
  const char *region;
  const char *service; /* "s3" */
  const char *access_key;
  const char *secret_key;
  const char *amz_date; /* "YYYYMMDDTHHMMSSZ" */
} cp_sigv4_request;

/* Appends the Authorization header's value ("AWS4-HMAC-SHA256 Credential=..., SignedHeaders=...,
 * Signature=...") to `out`, NUL-terminated. */
int cp_sigv4_authorization(const cp_sigv4_request *req, cp_buf *out, paimon_error *err);

/* The canonical request (for tests and debugging), appended to `out`, NUL-terminated. */
int cp_sigv4_canonical_request(const cp_sigv4_request *req, cp_buf *out, paimon_error *err);

#endif
