/*
 * Tests for base/dlf_sign.h: pypaimon's published DLF4-HMAC-SHA256 vector
 * (pypaimon/tests/rest/dlf_signer_test.py, spec/rest-catalog.md §3.2) and the region taken from
 * a URI. With `--sign` it is the cpaimon side of tests/python/test_rest_dlf_sign.py: one request
 * per line, tab-separated
 *   algorithm method path query(k=v&...) body host region akid secret token epoch nonce
 * and prints the headers it would add ("Name: value" joined by '|').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/dlf_sign.h"
#include "test.h"

static const char *header(const cp_dlf_headers *h, const char *name) {
  for (size_t i = 0; i < h->n; i++)
    if (strcmp(h->name[i], name) == 0) return h->value[i];
  return NULL;
}

static void test_pypaimon_vector(void) {
  const char *keys[] = {"k1", "k2"}, *vals[] = {"v1", "v2"};
  const char *body = "{\"name\":\"database\",\"options\":{\"a\":\"b\"}}";
  cp_dlf_request r = {.method = "POST",
                      .path = "/v1/paimon/databases",
                      .query_keys = keys,
                      .query_values = vals,
                      .n_query = 2,
                      .body = body,
                      .body_len = strlen(body),
                      .host = "cn-hangzhou-vpc.dlf.aliyuncs.com",
                      .region = "cn-hangzhou",
                      .access_key_id = "access-key-id",
                      .access_key_secret = "access-key-secret",
                      .security_token = "securityToken",
                      .now = 1701605532 /* 2023-12-03T12:12:12Z */};
  cp_dlf_headers h;
  paimon_error err;
  CHECK_OK(cp_dlf_sign(CP_DLF_DEFAULT, &r, &h, &err), &err);
  CHECK_STR(header(&h, "Content-MD5"), "zlW/6hSKXQKL2z6i931tsg==");
  CHECK_STR(header(&h, "x-dlf-date"), "20231203T121212Z");
  CHECK_STR(header(&h, "Authorization"),
            "DLF4-HMAC-SHA256 Credential=access-key-id/20231203/cn-hangzhou/DlfNext/"
            "aliyun_v4_request,Signature="
            "c72caf1d40b55b1905d891ee3e3de48a2f8bebefa7e39e4f277acc93c269c5e3");
  for (size_t i = 0; i < h.n; i++) CHECK(!strstr(h.value[i], "access-key-secret"));
}

static void test_region(void) {
  char region[32];
  cp_dlf_region_of("https://cn-hangzhou-vpc.dlf.aliyuncs.com", region, sizeof region);
  CHECK_STR(region, "cn-hangzhou");
  cp_dlf_region_of("http://dlfnext.ap-southeast-1.aliyuncs.com", region, sizeof region);
  CHECK_STR(region, "ap-southeast-1");
  cp_dlf_region_of("http://127.0.0.1:8080", region, sizeof region);
  CHECK_STR(region, "");
}

static int sign_lines(void) {
  char line[16384];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = '\0';
    char *p = line;
    char *alg = tu_tab_field(&p), *method = tu_tab_field(&p), *path = tu_tab_field(&p),
         *query = tu_tab_field(&p), *body = tu_tab_field(&p), *host = tu_tab_field(&p),
         *region = tu_tab_field(&p), *ak = tu_tab_field(&p), *sk = tu_tab_field(&p),
         *token = tu_tab_field(&p), *epoch = tu_tab_field(&p), *nonce = tu_tab_field(&p);
    const char *keys[16], *vals[16];
    size_t nq = 0;
    for (char *q = query; *q && nq < 16;) {
      char *amp = strchr(q, '&');
      if (amp) *amp = '\0';
      char *eq = strchr(q, '=');
      if (eq) *eq = '\0';
      keys[nq] = q;
      vals[nq++] = eq ? eq + 1 : "";
      q = amp ? amp + 1 : q + strlen(q);
    }
    cp_dlf_request r = {.method = method,
                        .path = path,
                        .query_keys = keys,
                        .query_values = vals,
                        .n_query = nq,
                        .body = body,
                        .body_len = strlen(body),
                        .host = host,
                        .region = region,
                        .access_key_id = ak,
                        .access_key_secret = sk,
                        .security_token = *token ? token : NULL,
                        .now = (time_t)atoll(epoch),
                        .nonce = nonce};
    cp_dlf_headers h;
    paimon_error err;
    if (cp_dlf_sign(strcmp(alg, "openapi") == 0 ? CP_DLF_OPENAPI : CP_DLF_DEFAULT, &r, &h, &err)) {
      printf("ERROR %s\n", err.message);
      continue;
    }
    for (size_t i = 0; i < h.n; i++) printf("%s%s: %s", i ? "|" : "", h.name[i], h.value[i]);
    printf("\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--sign") == 0) return sign_lines();
  RUN(test_pypaimon_vector);
  RUN(test_region);
  TEST_MAIN_END();
}
