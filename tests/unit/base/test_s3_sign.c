/*
 * Tests for base/sigv4.h, base/s3.h's request building, base/xml.h and base/http.h's encoding.
 *
 * Without arguments (CTest): AWS's published Signature V4 example for S3 (a GET with a Range,
 * from the S3 API reference, "Signature calculations for the Authorization header"), URL and
 * query encoding, and the XML reader on S3's documents.
 *
 * With `--sign` it is the cpaimon side of tests/python/test_s3_signing.py: it reads requests, one
 * per line as tab-separated fields
 *   endpoint region path_style access_key secret token method bucket key query date body_hex
 *   headers('|'-separated "Name: value")
 * signs each exactly as the object-store client would at that date, and prints the URL and the
 * headers it would send ('|'-separated), so the test can compare them with botocore's signer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "base/http.h"
#include "base/s3.h"
#include "base/sigv4.h"
#include "base/xml.h"
#include "test.h"

static void test_aws_example(void) {
  /* S3 API reference, "Example: GET Object" (examplebucket/test.txt, Range bytes=0-9). */
  char empty[65];
  cp_sha256_hex("", 0, empty);
  CHECK_STR(empty, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  cp_sigv4_header h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                         {"Range", "bytes=0-9"},
                         {"x-amz-content-sha256", empty},
                         {"x-amz-date", "20130524T000000Z"}};
  cp_sigv4_request r = {.method = "GET",
                        .canonical_uri = "/test.txt",
                        .canonical_query = "",
                        .headers = h,
                        .n_headers = 4,
                        .payload_hash = empty,
                        .region = "us-east-1",
                        .service = "s3",
                        .access_key = "AKIAIOSFODNN7EXAMPLE",
                        .secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                        .amz_date = "20130524T000000Z"};
  cp_buf canon = CP_BUF_INIT, auth = CP_BUF_INIT;
  paimon_error err;
  CHECK_OK(cp_sigv4_canonical_request(&r, &canon, &err), &err);
  CHECK_STR(
      (const char *)canon.data,
      "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
      "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
      "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK_OK(cp_sigv4_authorization(&r, &auth, &err), &err);
  CHECK_STR((const char *)auth.data,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  cp_buf_free(&canon);
  cp_buf_free(&auth);
}

static void test_encoding(void) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_url_encode(&b, "a b/c~d-e_f.g+h=é", strlen("a b/c~d-e_f.g+h=é"), true, &err), &err);
  CHECK_STR((const char *)b.data, "a%20b/c~d-e_f.g%2Bh%3D%C3%A9");
  b.len = 0;
  CHECK_OK(cp_url_encode(&b, "a/b", 3, false, &err), &err);
  CHECK_STR((const char *)b.data, "a%2Fb");
  b.len = 0;
  CHECK_OK(cp_s3_query_add(&b, "delimiter", "/", &err), &err);
  CHECK_OK(cp_s3_query_add(&b, "list-type", "2", &err), &err);
  CHECK_OK(cp_s3_query_add(&b, "prefix", "wh/db.db/", &err), &err);
  CHECK_STR((const char *)b.data, "delimiter=%2F&list-type=2&prefix=wh%2Fdb.db%2F");
  cp_buf_free(&b);
  uint8_t md5[16];
  char b64[32];
  cp_md5("hello", 5, md5);
  cp_base64(md5, 16, b64);
  CHECK_STR(b64, "XUFAKrxLKna5cZ2REBfFkg==");
}

typedef struct collected {
  char text[4096];
} collected;

static int collect(void *ud, const char *path, const char *text, size_t len, paimon_error *err) {
  collected *c = ud;
  size_t n = strlen(c->text);
  snprintf(c->text + n, sizeof c->text - n, "%s=%s;", path, text);
  return PAIMON_OK;
}

static void test_xml(void) {
  paimon_error err;
  collected c = {""};
  const char *list =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult "
      "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name><IsTruncated>true"
      "</IsTruncated><Contents><Key>a&amp;b</Key><Size>3</Size></Contents><CommonPrefixes>"
      "<Prefix>d/</Prefix></CommonPrefixes><NextContinuationToken>t1</NextContinuationToken>"
      "</ListBucketResult>";
  CHECK_OK(cp_xml_parse(list, strlen(list), collect, &c, "listing", &err), &err);
  CHECK_STR(c.text, "ListBucketResult/Name=b;ListBucketResult/IsTruncated=true;"
                    "ListBucketResult/Contents/Key=a&b;ListBucketResult/Contents/Size=3;"
                    "ListBucketResult/Contents=;ListBucketResult/CommonPrefixes/Prefix=d/;"
                    "ListBucketResult/CommonPrefixes=;ListBucketResult/NextContinuationToken=t1;"
                    "ListBucketResult=;");
  CHECK_ERR(cp_xml_parse("<a><b></a>", 10, collect, &c, "answer of GET x", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "answer of GET x: malformed XML at line 1");
  const char *bomb = "<!DOCTYPE a [<!ENTITY x \"xx\">]><a>&x;</a>";
  CHECK_ERR(cp_xml_parse(bomb, strlen(bomb), collect, &c, "doc", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "DOCTYPE");
  char deep[400] = "";
  for (int i = 0; i < 40; i++) strcat(deep, "<a>");
  CHECK_ERR(cp_xml_parse(deep, strlen(deep), collect, &c, "doc", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "deeper than 32");
}

/* ---- --sign mode ---- */

static int sign_lines(void) {
  char line[65536];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = '\0';
    char *p = line;
    char *endpoint = tu_tab_field(&p), *region = tu_tab_field(&p), *path_style = tu_tab_field(&p),
         *ak = tu_tab_field(&p), *sk = tu_tab_field(&p), *token = tu_tab_field(&p),
         *method = tu_tab_field(&p), *bucket = tu_tab_field(&p), *key = tu_tab_field(&p),
         *query = tu_tab_field(&p), *date = tu_tab_field(&p), *body_hex = tu_tab_field(&p),
         *headers = tu_tab_field(&p);
    size_t blen = strlen(body_hex) / 2;
    uint8_t *body = malloc(blen + 1);
    for (size_t i = 0; i < blen; i++) sscanf(body_hex + 2 * i, "%2hhx", &body[i]);
    const char *hdr[16];
    size_t nh = 0;
    for (char *h = headers; *h && nh < 16;) {
      char *bar = strchr(h, '|');
      if (bar) *bar = '\0';
      hdr[nh++] = h;
      h = bar ? bar + 1 : h + strlen(h);
    }
    cp_s3_config cfg = {.endpoint = endpoint,
                        .region = region,
                        .access_key = ak,
                        .secret_key = sk,
                        .session_token = token,
                        .path_style = strcmp(path_style, "1") == 0,
                        .max_attempts = 1};
    cp_s3 *s3;
    paimon_error err;
    if (cp_s3_new(&s3, &cfg, &err)) {
      printf("ERROR\t%s\n", err.message);
      free(body);
      continue;
    }
    cp_s3_call c = {0};
    c.method = method;
    c.bucket = bucket;
    c.key = key;
    c.query = query;
    c.headers = hdr;
    c.n_headers = nh;
    c.body = blen ? body : NULL;
    c.body_len = blen;
    if (cp_s3_sign(s3, &c, date, &err)) {
      printf("ERROR\t%s\n", err.message);
    } else {
      printf("%s\t", c.http.url);
      for (size_t i = 0; i < c.http.n_headers; i++) printf("%s%s", i ? "|" : "", c.http.headers[i]);
      printf("\n");
    }
    cp_s3_call_free(&c);
    cp_s3_free(s3);
    free(body);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--sign") == 0) return sign_lines();
  RUN(test_aws_example);
  RUN(test_encoding);
  RUN(test_xml);
  TEST_MAIN_END();
}
