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

/* An element of ListPartitionsResponse (Java's Partition JSON); what is malformed is refused. */
static void test_partition(void) {
  paimon_error err;
  paimon_partition one;
  json_t *j = parse("{\"spec\": {\"dt\": \"a\", \"h\": \"1\"}, \"recordCount\": 7,"
                    " \"fileSizeInBytes\": 924, \"fileCount\": 3, \"lastFileCreationTime\": 5,"
                    " \"totalBuckets\": -1, \"done\": true, \"createdAt\": 1}");
  CHECK_OK(cp_rest_partition_from_json(j, &one, &err), &err);
  CHECK_INT(one.n_spec, 2);
  CHECK_STR(one.spec_keys[0], "dt");
  CHECK_STR(one.spec_values[1], "1");
  CHECK(one.record_count == 7 && one.file_size_in_bytes == 924 && one.file_count == 3);
  CHECK(one.last_file_creation_time == 5 && one.done);
  json_decref(j);
  /* paimon_partition_list_free frees the entries and then the array: free the array by hand */
  for (size_t k = 0; k < one.n_spec; k++) {
    free(one.spec_keys[k]);
    free(one.spec_values[k]);
  }
  free(one.spec_keys);
  free(one.spec_values);
  const char *bad[] = {"{}", "{\"spec\": [1]}", "{\"spec\": {\"dt\": 1}}",
                       "{\"spec\": {}, \"recordCount\": \"x\"}", "[]"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    j = parse(bad[i]);
    paimon_partition_list owned = {calloc(1, sizeof(paimon_partition)), 1};
    CHECK_ERR(cp_rest_partition_from_json(j, &owned.items[0], &err), PAIMON_ECORRUPT);
    paimon_partition_list_free(&owned);
    json_decref(j);
  }
  j = parse("{\"spec\": {}}");
  CHECK_OK(cp_rest_partition_from_json(j, &one, &err), &err);
  CHECK(one.n_spec == 0 && one.record_count == 0 && one.last_file_creation_time == -1);
  free(one.spec_keys);
  free(one.spec_values);
  json_decref(j);
}

/* GetDatabaseResponse: the options, then Java's location and audit fields. */
static void test_database(void) {
  paimon_error err;
  cp_options o = CP_OPTIONS_INIT;
  json_t *j = parse("{\"id\": \"x\", \"name\": \"d\", \"location\": \"/tmp\", \"options\":"
                    " {\"k\": \"v\", \"n\": 1}, \"owner\": \"o\", \"createdAt\": 12,"
                    " \"createdBy\": \"c\", \"updatedAt\": 13}");
  CHECK_OK(cp_rest_database_from_json(j, &o, &err), &err);
  CHECK_STR(cp_options_get(&o, "k"), "v");
  CHECK(cp_options_get(&o, "n") == NULL);
  CHECK_STR(cp_options_get(&o, "location"), "/tmp");
  CHECK_STR(cp_options_get(&o, "owner"), "o");
  CHECK_STR(cp_options_get(&o, "createdAt"), "12");
  CHECK_STR(cp_options_get(&o, "updatedBy"), "null"); /* Java's String.valueOf(null) */
  cp_options_free(&o);
  json_decref(j);
  j = parse("{\"name\": \"d\"}");
  CHECK_OK(cp_rest_database_from_json(j, &o, &err), &err);
  CHECK(cp_options_get(&o, "location") == NULL && cp_options_get(&o, "owner") == NULL);
  cp_options_free(&o);
  json_decref(j);
  j = parse("{\"options\": [1]}");
  CHECK_ERR(cp_rest_database_from_json(j, &o, &err), PAIMON_ECORRUPT);
  cp_options_free(&o);
  json_decref(j);
}

int main(void) {
  RUN(test_config_merge);
  RUN(test_error_body);
  RUN(test_table_response);
  RUN(test_snapshot_and_token);
  RUN(test_partition);
  RUN(test_database);
  TEST_MAIN_END();
}
