/*
 * libFuzzer harness for the XML an object store answers (base/xml.h, fs_s3.c, s3.c): listings
 * (ListObjectsV2, one level and recursive), error documents turned into messages, and the reader
 * itself. The answers come over the network from a store we do not control, so any bytes must be
 * refused or read without a crash, and whatever is listed must be a name under the prefix.
 *
 * Input layout: byte 0 picks the mode (low 2 bits); the rest is the document.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs_impl.h"
#include "base/s3.h"
#include "base/xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(void *ud, const char *path, const char *text, size_t len, paimon_error *err) {
  size_t *n = ud;
  if (strlen(text) > len)
    abort(); /* the text is NUL-terminated at len (no NUL inside) or earlier */
  (*n)++;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int mode = data[0] & 3;
  const uint8_t *doc = data + 1;
  size_t n = size - 1;
  paimon_error err;
  if (mode <= 1) {
    cp_fs_list_result out = {0};
    cp_s3_listing l = {.out = &out, .prefix = "wh/db.db/", .recursive = mode == 1};
    int rc = cp_s3_parse_listing(doc, n, &l, &err);
    if (rc != 0 && rc != PAIMON_ECORRUPT && rc != PAIMON_ENOMEM) abort();
    /* one level: plain names; recursive: whole keys under the prefix */
    for (size_t i = 0; i < out.count; i++) {
      const char *name = out.entries[i].name;
      if (!mode && (!name[0] || strchr(name, '/'))) abort();
      if (mode && strncmp(name, "wh/db.db/", 9) != 0) abort();
    }
    cp_fs_list_free(&out);
    free(l.token);
  } else if (mode == 2) {
    cp_s3_call c = {0};
    c.method = "GET";
    c.http.status = 403;
    if (cp_buf_append(&c.http.resp, doc, n, NULL) != 0) return 0;
    int rc = cp_s3_error(&c, "read", "s3://b/k", &err);
    if (rc != PAIMON_EIO || !strstr(err.message, "read of s3://b/k")) abort();
    cp_http_req_free(&c.http);
  } else {
    size_t elements = 0;
    int rc = cp_xml_parse(doc, n, count, &elements, "fuzz", &err);
    if (rc != 0 && rc != PAIMON_ECORRUPT && rc != PAIMON_ENOMEM) abort();
  }
  return 0;
}
