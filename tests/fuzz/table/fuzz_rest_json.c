/*
 * libFuzzer harness for what a REST catalog server answers (table/rest.c, rest_catalog.c): the
 * configuration merged into the options, error bodies, GetTableResponse, the latest snapshot,
 * data tokens, partitions and databases. The bytes come over the network from a server we do not
 * control, so any of them must be refused with an error or read without a crash.
 *
 * Input layout: byte 0 picks the answer (low 3 bits); the rest is the JSON body.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "table/rest.h"
#include "table/rest_catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int mode = data[0] & 7;
  paimon_error err;
  json_t *j = NULL;
  if (cp_json_parse(data + 1, size - 1, "answer", &j, &err) != 0) return 0;
  switch (mode % 7) {
  case 0: {
    cp_options client = CP_OPTIONS_INIT, out = CP_OPTIONS_INIT;
    cp_options_set(&client, "uri", "http://127.0.0.1:1", NULL);
    if (cp_rest_merge_config(&out, &client, j, &err) == 0 &&
        strcmp(cp_options_get(&out, "uri") ? cp_options_get(&out, "uri") : "", "") == 0 &&
        !json_object_get(json_object_get(j, "overrides"), "uri"))
      abort(); /* the client's own options survive unless the server overrides them */
    cp_options_free(&client);
    cp_options_free(&out);
    break;
  }
  case 1: {
    cp_rest_result res = {0};
    res.status = 404;
    res.body = json_incref(j);
    cp_rest_parse_error_body(&res);
    if (strlen(res.message) >= sizeof res.message) abort();
    cp_rest_result_free(&res);
    break;
  }
  case 2: {
    cp_rest_table t;
    if (cp_rest_table_from_json(j, &t, &err) == 0) {
      if (!t.id || !t.path || !t.path[0]) abort();
      cp_rest_table_free(&t);
    }
    break;
  }
  case 3: {
    cp_snapshot *s = NULL;
    if (cp_rest_snapshot_from_json(j, &s, &err) == 0) cp_snapshot_free(s);
    break;
  }
  case 4: {
    /* a ListPartitionsResponse: every element, each freed with the list */
    json_t *items = json_object_get(j, "partitions");
    paimon_partition_list l = {0};
    size_t n = json_array_size(items);
    l.items = calloc(n ? n : 1, sizeof *l.items);
    for (size_t i = 0; l.items && i < n; i++) {
      l.count++;
      if (cp_rest_partition_from_json(json_array_get(items, i), &l.items[i], &err) == 0 &&
          l.items[i].n_spec != json_object_size(json_object_get(json_array_get(items, i), "spec")))
        abort();
    }
    paimon_partition_list_free(&l);
    break;
  }
  case 5: {
    cp_options o = CP_OPTIONS_INIT;
    cp_rest_database_from_json(j, &o, &err);
    cp_options_free(&o);
    break;
  }
  default: {
    cp_options token = CP_OPTIONS_INIT;
    int64_t expires;
    cp_rest_token_from_json(j, &token, &expires, &err);
    cp_options_free(&token);
  }
  }
  json_decref(j);
  return 0;
}
