/*
 * The REST catalog client's wire layer (spec/rest-catalog.md §1-§3): the base URL and prefix,
 * `GET /v1/config` merged into the catalog options, JSON requests over the HTTP engine with
 * bearer or DLF authentication, bounded retries of 429/503 and lost connections, and Paimon's
 * error bodies turned into cpaimon errors carrying the server's message.
 *
 * rest_catalog.c builds the catalog operations on top; nothing here knows about tables.
 *
 * Secrets (the bearer token, DLF keys) go only into request headers; no message contains them.
 */
#ifndef CP_TABLE_REST_H
#define CP_TABLE_REST_H

#include <jansson.h>
#include <stdbool.h>

#include "base/buf.h"

#include "cpaimon/error.h"
#include "meta/options.h"

typedef struct cp_rest cp_rest;

/* Opens the client from the catalog options (`uri`, `warehouse`, `token.provider`, `token`,
 * `dlf.*`, `header.*`), calls GET /v1/config, and merges the answer: server defaults, then the
 * client's options, then server overrides. */
int cp_rest_open(cp_rest **out, const cp_options *options, paimon_error *err);
void cp_rest_free(cp_rest *r);

/* The merged catalog options (borrowed). */
const cp_options *cp_rest_options(const cp_rest *r);
/* The server's URI (for messages; holds no secret). */
const char *cp_rest_uri(const cp_rest *r);

/* A query parameter (raw value; encoded on the wire). */
typedef struct cp_rest_param {
  const char *key;
  const char *value;
} cp_rest_param;

/* What the server answered. */
typedef struct cp_rest_result {
  long status;
  json_t *body; /* parsed JSON body, or NULL when empty (json_decref) */
  /* from an error body: */
  char resource_type[32];
  char resource_name[256];
  char message[512];
} cp_rest_result;

void cp_rest_result_free(cp_rest_result *res);

/* Sends `method` to /v1/{prefix}/`path` (path segments already encoded with cp_rest_segment;
 * `prefixed` false for /v1/`path`). `body` (may be NULL) is serialized compactly. Returns 0 when
 * an answer arrived (success or a Paimon error: see res->status), EIO when the server could not
 * be reached or kept failing after the retries. */
int cp_rest_call(cp_rest *r, const char *method, const char *path, bool prefixed,
                 const cp_rest_param *params, size_t n_params, json_t *body, cp_rest_result *res,
                 paimon_error *err);

/* Records the failure in `res` as an error: 404 → ENOTFOUND, 409 → EEXIST, 401/403 → EIO
 * "not authorized" / "forbidden", others EIO, each with the server's message, the HTTP status and
 * `what` (e.g. "get table db.t"). */
int cp_rest_error(const cp_rest *r, const cp_rest_result *res, const char *what, paimon_error *err);

/* Appends `name` percent-encoded as one path segment. */
int cp_rest_segment(cp_buf *path, const char *name, paimon_error *err);

/* The pure steps of the above (also the fuzz harness's entry points): the message and resource
 * of an error body in res->body; the configuration answer merged as both clients merge it (server
 * defaults, then the client's options, then server overrides). */
void cp_rest_parse_error_body(cp_rest_result *res);
int cp_rest_merge_config(cp_options *out, const cp_options *client, const json_t *config,
                         paimon_error *err);

/* Number of requests sent (I/O accounting). */
uint64_t cp_rest_requests(const cp_rest *r);

#endif
