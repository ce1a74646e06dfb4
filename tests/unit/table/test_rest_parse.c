/*
 * Tests for the REST catalog client's answer readers (table/rest.h, rest_catalog.h): the
 * configuration merge order (server defaults < client options < server overrides, as
 * spec/rest-catalog.md §2.1), error bodies, GetTableResponse, the latest snapshot and data
 * tokens, including malformed answers. The wire itself is tested against Java's server in
 * tests/python/test_rest_catalog.py.
 */
#include <string.h>

#include "base/json.h"
#include "table/rest.h"
#include "table/rest_catalog.h"
#include "test.h"

static json_t *parse(const char *text) {
  paimon_error err;
  json_t *j = NULL;
  CHECK_OK(cp_json_parse(text, strlen(text), "test", &j, &err), &err);
  return j;
}

static void test_config_merge(void) {
  paimon_error err;
  cp_options client = CP_OPTIONS_INIT, out = CP_OPTIONS_INIT;
  cp_options_set(&client, "uri", "http://x", NULL);
  cp_options_set(&client, "a", "client", NULL);
  cp_options_set(&client, "b", "client", NULL);
  json_t *j = parse("{\"defaults\": {\"a\": \"default\", \"prefix\": \"p\", \"n\": null},"
                    " \"overrides\": {\"b\": \"override\"}}");
  CHECK_OK(cp_rest_merge_config(&out, &client, j, &err), &err);
  CHECK_STR(cp_options_get(&out, "a"), "client");
  CHECK_STR(cp_options_get(&out, "b"), "override");
  CHECK_STR(cp_options_get(&out, "prefix"), "p");
  CHECK(cp_options_get(&out, "n") == NULL); /* null values are dropped */
  json_decref(j);
  cp_options_free(&client);
  cp_options_free(&out);
}

static void test_error_body(void) {
  cp_rest_result res = {0};
  res.status = 404;
  res.body = parse("{\"message\": \"Table db.t not found\", \"resourceType\": \"TABLE\","
                   " \"resourceName\": \"db.t\", \"code\": 404}");
  cp_rest_parse_error_body(&res);
  CHECK_STR(res.message, "Table db.t not found");
  CHECK_STR(res.resource_type, "TABLE");
  CHECK_STR(res.resource_name, "db.t");
  cp_rest_result_free(&res);
  res.body = parse("[1, 2]"); /* not an object: nothing read, no crash */
  cp_rest_parse_error_body(&res);
  CHECK_STR(res.message, "");
  cp_rest_result_free(&res);
}

static void test_table_response(void) {
  paimon_error err;
  cp_rest_table t;
  json_t *j = parse("{\"id\": \"uuid-1\", \"name\": \"t\", \"path\": \"/d/db.db/t\","
                    " \"isExternal\": false, \"schemaId\": 3, \"schema\": {}}");
  CHECK_OK(cp_rest_table_from_json(j, &t, &err), &err);
  CHECK_STR(t.id, "uuid-1");
  CHECK_STR(t.path, "/d/db.db/t");
  CHECK_INT(t.schema_id, 3);
  CHECK(!t.external);
  cp_rest_table_free(&t);
  json_decref(j);
  j = parse("{\"id\": \"u\", \"path\": \"\", \"schemaId\": 0}");
  CHECK_ERR(cp_rest_table_from_json(j, &t, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "path is empty");
  json_decref(j);
  j = parse("{\"id\": \"u\", \"schemaId\": 0}");
  CHECK_ERR(cp_rest_table_from_json(j, &t, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "'path' missing");
  json_decref(j);
}

static void test_snapshot_and_token(void) {
  paimon_error err;
  cp_snapshot *s = NULL;
  json_t *j =
      parse("{\"snapshot\": {\"snapshot\": {\"version\": 3, \"id\": 7, \"schemaId\": 0,"
            " \"baseManifestList\": \"b\", \"deltaManifestList\": \"d\", \"totalRecordCount\": 5,"
            " \"deltaRecordCount\": 2, \"commitUser\": \"u\", \"commitIdentifier\": 1,"
            " \"commitKind\": \"APPEND\", \"timeMillis\": 1, \"nextRowId\": 5},"
            " \"recordCount\": 5, \"fileSizeInBytes\": 1, \"fileCount\": 1,"
            " \"lastFileCreationTime\": 1}}");
  CHECK_OK(cp_rest_snapshot_from_json(j, &s, &err), &err);
  CHECK(s && s->id == 7 && s->next_row_id == 5);
  cp_snapshot_free(s);
  json_decref(j);
  j = parse("{\"snapshot\": null}");
  CHECK_ERR(cp_rest_snapshot_from_json(j, &s, &err), PAIMON_ECORRUPT);
  json_decref(j);
  cp_options token = CP_OPTIONS_INIT;
  int64_t expires = 0;
  j = parse("{\"token\": {\"fs.s3.accessKeyId\": \"k\", \"n\": 1}, \"expiresAtMillis\": 42}");
  CHECK_OK(cp_rest_token_from_json(j, &token, &expires, &err), &err);
  CHECK_STR(cp_options_get(&token, "fs.s3.accessKeyId"), "k");
  CHECK(cp_options_get(&token, "n") == NULL);
  CHECK_INT(expires, 42);
  json_decref(j);
  cp_options_free(&token);
}

int main(void) {
  RUN(test_config_merge);
  RUN(test_error_body);
  RUN(test_table_response);
  RUN(test_snapshot_and_token);
  TEST_MAIN_END();
}
