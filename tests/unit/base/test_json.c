/*
 * Tests for base/json.h: parse errors naming source and line:column, the typed getters' messages,
 * string maps, and the Jackson-style writer. The expected pretty and compact texts were produced
 * by Jackson 2.15 itself (ObjectMapper.readTree of the same input, then
 * writerWithDefaultPrettyPrinter() / writeValueAsString()), not by this code.
 */
#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>

#include "test.h"

static json_t *parse_ok(const char *text) {
  paimon_error err;
  json_t *v = NULL;
  CHECK_OK(cp_json_parse(text, strlen(text), "test.json", &v, &err), &err);
  return v;
}

static void test_parse_errors(void) {
  paimon_error err;
  json_t *v = (json_t *)1;
  const char *bad = "{\n  \"id\" : 1,\n  \"name\" : }\n";
  CHECK_ERR(cp_json_parse(bad, strlen(bad), "/w/db.db/t/schema/schema-0", &v, &err),
            PAIMON_ECORRUPT);
  CHECK(v == NULL);
  CHECK_CONTAINS(err.message, "/w/db.db/t/schema/schema-0: invalid JSON at line 3, column");
  CHECK_ERR(cp_json_parse("", 0, "/w/db.db/t/schema/schema-1", &v, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "/w/db.db/t/schema/schema-1: the file is empty");
  CHECK_ERR(cp_json_parse(NULL, 0, "null-data", &v, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "null-data: the file is empty");
  CHECK_ERR(cp_json_parse(" \n\t", 3, "blank", &v, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "blank: the file is empty (white space only)");
  CHECK_ERR(cp_json_parse("{\"a\":[1,2", 9, "trunc", &v, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_json_parse("{\"a\":99999999999999999999}", 26, "big", &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "big: invalid JSON");
  CHECK_ERR(cp_json_parse("\"\xff\"", 3, "utf8", &v, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_json_parse("{} x", 4, "trailing", &v, &err), PAIMON_ECORRUPT);
  /* Length is respected: the bytes after `len` are not read. */
  v = NULL;
  CHECK_OK(cp_json_parse("[1]garbage", 3, "prefix", &v, &err), &err);
  CHECK(json_is_array(v));
  json_decref(v);
  /* Any top-level value; duplicate keys keep the last, as Jackson does. */
  v = parse_ok("{\"k\":1,\"k\":2}");
  int64_t i = 0;
  CHECK_OK(cp_json_get_int64(v, "k", "dup", &i, &err), &err);
  CHECK_INT(i, 2);
  json_decref(v);
}

static void test_getters(void) {
  paimon_error err;
  json_t *v = parse_ok("{\"id\":7,\"big\":-9223372036854775808,\"name\":\"f0\",\"flag\":true,"
                       "\"off\":false,\"fields\":[1],\"opts\":{},\"nul\":null,\"real\":1.5}");
  const char *src = "/w/t/snapshot/snapshot-3";
  int64_t i = 0;
  const char *s = NULL;
  bool b = false, present = true;
  json_t *o = NULL;
  CHECK_OK(cp_json_get_int64(v, "id", src, &i, &err), &err);
  CHECK_INT(i, 7);
  CHECK_OK(cp_json_get_int64(v, "big", src, &i, &err), &err);
  CHECK(i == INT64_MIN);
  CHECK_OK(cp_json_get_string(v, "name", src, &s, &err), &err);
  CHECK_STR(s, "f0");
  CHECK_OK(cp_json_get_bool(v, "flag", src, &b, &err), &err);
  CHECK(b);
  CHECK_OK(cp_json_get_bool(v, "off", src, &b, &err), &err);
  CHECK(!b);
  CHECK_OK(cp_json_get_array(v, "fields", src, &o, &err), &err);
  CHECK(json_is_array(o) && json_array_size(o) == 1);
  CHECK_OK(cp_json_get_object(v, "opts", src, &o, &err), &err);
  CHECK(json_is_object(o));

  CHECK_ERR(cp_json_get_int64(v, "nextRowId", src, &i, &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "/w/t/snapshot/snapshot-3: key 'nextRowId' missing");
  CHECK_ERR(cp_json_get_string(v, "id", src, &s, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "/w/t/snapshot/snapshot-3: key 'id' not a string");
  CHECK_ERR(cp_json_get_int64(v, "name", src, &i, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'name' not an integer");
  CHECK_ERR(cp_json_get_int64(v, "real", src, &i, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "not an integer (found a real number)");
  CHECK_ERR(cp_json_get_bool(v, "id", src, &b, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'id' not a boolean");
  CHECK_ERR(cp_json_get_object(v, "fields", src, &o, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'fields' not an object");
  CHECK_ERR(cp_json_get_array(v, "opts", src, &o, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'opts' not an array");
  CHECK_ERR(cp_json_get_string(v, "nul", src, &s, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'nul' not a string (found null)");

  /* Optional keys: missing and null are absent; a wrong type is still an error. */
  i = 99;
  CHECK_OK(cp_json_get_opt_int64(v, "nextRowId", src, &i, &present, &err), &err);
  CHECK(!present && i == 99);
  CHECK_OK(cp_json_get_opt_int64(v, "nul", src, &i, &present, &err), &err);
  CHECK(!present);
  CHECK_OK(cp_json_get_opt_int64(v, "id", src, &i, &present, &err), &err);
  CHECK(present && i == 7);
  CHECK_ERR(cp_json_get_opt_int64(v, "name", src, &i, &present, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "key 'name' not an integer");
  s = "x";
  CHECK_OK(cp_json_get_opt_string(v, "comment", src, &s, &err), &err);
  CHECK(s == NULL);
  CHECK_OK(cp_json_get_opt_string(v, "name", src, &s, &err), &err);
  CHECK_STR(s, "f0");
  CHECK_ERR(cp_json_get_opt_string(v, "flag", src, &s, &err), PAIMON_ECORRUPT);
  CHECK_OK(cp_json_get_opt_object(v, "nul", src, &o, &err), &err);
  CHECK(o == NULL);
  CHECK_OK(cp_json_get_opt_object(v, "opts", src, &o, &err), &err);
  CHECK(json_is_object(o));

  /* The holder must be an object. */
  json_t *arr = json_object_get(v, "fields");
  CHECK_ERR(cp_json_get_int64(arr, "id", "f.json", &i, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "f.json: expected an object holding 'id', found an array");
  CHECK_ERR(cp_json_get_int64(NULL, "id", "f.json", &i, &err), PAIMON_ECORRUPT);
  json_decref(v);
}

typedef struct collected {
  char text[256];
  int calls;
  int fail_at;
} collected;

static int collect(void *ctx, const char *key, const char *value, paimon_error *err) {
  collected *c = ctx;
  if (++c->calls == c->fail_at) return paimon_error_set(err, PAIMON_EINVAL, "stop at %s", key);
  size_t len = strlen(c->text);
  snprintf(c->text + len, sizeof c->text - len, "%s=%s;", key, value);
  return PAIMON_OK;
}

static void test_string_maps(void) {
  paimon_error err;
  json_t *v = parse_ok("{\"options\":{\"row-tracking.enabled\":\"true\",\"bucket\":\"-1\","
                       "\"a\":\"\"},\"bad\":{\"x\":\"1\",\"y\":2}}");
  json_t *opts = json_object_get(v, "options");
  collected c = {"", 0, 0};
  CHECK_OK(cp_json_foreach_string(opts, "schema-0", "options", collect, &c, &err), &err);
  CHECK_STR(c.text, "row-tracking.enabled=true;bucket=-1;a=;");
  collected stop = {"", 0, 2};
  CHECK_ERR(cp_json_foreach_string(opts, "schema-0", "options", collect, &stop, &err),
            PAIMON_EINVAL);
  CHECK_STR(err.message, "stop at bucket");
  collected c2 = {"", 0, 0};
  CHECK_ERR(
      cp_json_foreach_string(json_object_get(v, "bad"), "schema-0", "options", collect, &c2, &err),
      PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "schema-0: options.'y' not a string");
  CHECK_ERR(cp_json_foreach_string(v, "schema-0", "options", collect, &c2, &err), PAIMON_ECORRUPT);
  json_t *str = json_string("s");
  CHECK_ERR(cp_json_foreach_string(str, "schema-0", "options", collect, &c2, &err),
            PAIMON_ECORRUPT);
  json_decref(str);
  CHECK_CONTAINS(err.message, "options not an object");

  cp_arena arena = CP_ARENA_INIT;
  cp_json_kv *kv = NULL;
  size_t n = 0;
  CHECK_OK(cp_json_string_map(opts, "schema-0", "options", &arena, &kv, &n, &err), &err);
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_STR(kv[0].key, "row-tracking.enabled");
    CHECK_STR(kv[0].value, "true");
    CHECK_STR(kv[1].key, "bucket");
    CHECK_STR(kv[1].value, "-1");
    CHECK_STR(kv[2].value, "");
  }
  cp_json_kv *first = kv;
  size_t first_n = n;
  CHECK_ERR(
      cp_json_string_map(json_object_get(v, "bad"), "schema-0", "options", &arena, &kv, &n, &err),
      PAIMON_ECORRUPT);
  CHECK(kv == NULL && n == 0);
  json_decref(v);
  /* The copies outlive the tree (under ASan, a borrowed pointer here would be a use after free). */
  CHECK_INT(first_n, 3);
  if (first_n == 3) CHECK_STR(first[1].value, "-1");
  json_t *empty = json_object();
  CHECK_OK(cp_json_string_map(empty, "s", "options", &arena, &kv, &n, &err), &err);
  CHECK_INT(n, 0);
  json_decref(empty);
  cp_arena_free(&arena);
}

/* ---- writer, checked against Jackson's own output ---- */

static const char k_input[] =
    "{\"s\":\"q\\\"b\\\\s/ n\\n t\\t r\\r b\\b f\\f c\\u0001\\u001f del\\u007f é 😀\","
    "\"ints\":[0,-1,9223372036854775807,-9223372036854775808],"
    "\"reals\":[0.5,1.0,100.0,1e7,1.5e-5,0.001,123456.789,-2.5,1e21,0.1,3.141592653589793,1e-3,"
    "9999999.0],"
    "\"lits\":[true,false,null],"
    "\"nested\":[[1,[2,[]]],[{}],{\"a\":{\"b\":{\"c\":[{\"d\":{}}]}}}],"
    "\"empty_in_obj\":{\"x\":[],\"y\":{}},\"\":\"\"}";

static const char k_jackson_pretty[] =
    "{\n"
    "  \"s\" : \"q\\\"b\\\\s/ n\\n t\\t r\\r b\\b f\\f c\\u0001\\u001F del\x7f é 😀\",\n"
    "  \"ints\" : [ 0, -1, 9223372036854775807, -9223372036854775808 ],\n"
    "  \"reals\" : [ 0.5, 1.0, 100.0, 1.0E7, 1.5E-5, 0.001, 123456.789, -2.5, 1.0E21, 0.1, "
    "3.141592653589793, 0.001, 9999999.0 ],\n"
    "  \"lits\" : [ true, false, null ],\n"
    "  \"nested\" : [ [ 1, [ 2, [ ] ] ], [ { } ], {\n"
    "    \"a\" : {\n"
    "      \"b\" : {\n"
    "        \"c\" : [ {\n"
    "          \"d\" : { }\n"
    "        } ]\n"
    "      }\n"
    "    }\n"
    "  } ],\n"
    "  \"empty_in_obj\" : {\n"
    "    \"x\" : [ ],\n"
    "    \"y\" : { }\n"
    "  },\n"
    "  \"\" : \"\"\n"
    "}";

static const char k_jackson_compact[] =
    "{\"s\":\"q\\\"b\\\\s/ n\\n t\\t r\\r b\\b f\\f c\\u0001\\u001F del\x7f é 😀\","
    "\"ints\":[0,-1,9223372036854775807,-9223372036854775808],"
    "\"reals\":[0.5,1.0,100.0,1.0E7,1.5E-5,0.001,123456.789,-2.5,1.0E21,0.1,3.141592653589793,"
    "0.001,9999999.0],"
    "\"lits\":[true,false,null],"
    "\"nested\":[[1,[2,[]]],[{}],{\"a\":{\"b\":{\"c\":[{\"d\":{}}]}}}],"
    "\"empty_in_obj\":{\"x\":[],\"y\":{}},\"\":\"\"}";

static const char *write_str(const json_t *v, bool pretty, cp_buf *b) {
  paimon_error err;
  cp_buf_clear(b);
  int rc = pretty ? cp_json_write_pretty(v, b, &err) : cp_json_write_compact(v, b, &err);
  CHECK_OK(rc, &err);
  CHECK_OK(cp_buf_nul_terminate(b, &err), &err);
  return rc == 0 ? (const char *)b->data : "";
}

static void test_writer_matches_jackson(void) {
  cp_buf b = CP_BUF_INIT;
  json_t *v = parse_ok(k_input);
  CHECK_STR(write_str(v, true, &b), k_jackson_pretty);
  CHECK_STR(write_str(v, false, &b), k_jackson_compact);
  /* What we write parses back to the same tree. */
  json_t *back = parse_ok((const char *)write_str(v, true, &b));
  CHECK(json_equal(v, back));
  json_decref(back);
  json_decref(v);

  v = parse_ok("[ {\"a\":1}, [ ], \"x\" ]");
  CHECK_STR(write_str(v, true, &b), "[ {\n  \"a\" : 1\n}, [ ], \"x\" ]");
  json_decref(v);
  v = parse_ok("\"top\"");
  CHECK_STR(write_str(v, true, &b), "\"top\"");
  json_decref(v);
  cp_buf_free(&b);
}

/* The schema example from the task brief, built in code: keys come out in insertion order. */
static void test_writer_schema_example(void) {
  json_t *root = json_object();
  json_object_set_new(root, "version", json_integer(3));
  json_object_set_new(root, "id", json_integer(0));
  json_t *fields = json_array();
  json_t *f0 = json_object();
  json_object_set_new(f0, "id", json_integer(0));
  json_object_set_new(f0, "name", json_string("f0"));
  json_object_set_new(f0, "type", json_string("INT NOT NULL"));
  json_array_append_new(fields, f0);
  json_t *f1 = json_object();
  json_object_set_new(f1, "id", json_integer(1));
  json_object_set_new(f1, "name", json_string("tags"));
  json_t *t = json_object();
  json_object_set_new(t, "type", json_string("ARRAY"));
  json_object_set_new(t, "element", json_string("STRING"));
  json_object_set_new(f1, "type", t);
  json_array_append_new(fields, f1);
  json_object_set_new(root, "fields", fields);
  json_object_set_new(root, "partitionKeys", json_array());
  json_t *ids = json_array();
  for (int i = 1; i <= 3; i++) json_array_append_new(ids, json_integer(i));
  json_object_set_new(root, "ids", ids);
  json_object_set_new(root, "options", json_object());
  /* Jackson 2.15's output for the same tree. */
  const char *want = "{\n"
                     "  \"version\" : 3,\n"
                     "  \"id\" : 0,\n"
                     "  \"fields\" : [ {\n"
                     "    \"id\" : 0,\n"
                     "    \"name\" : \"f0\",\n"
                     "    \"type\" : \"INT NOT NULL\"\n"
                     "  }, {\n"
                     "    \"id\" : 1,\n"
                     "    \"name\" : \"tags\",\n"
                     "    \"type\" : {\n"
                     "      \"type\" : \"ARRAY\",\n"
                     "      \"element\" : \"STRING\"\n"
                     "    }\n"
                     "  } ],\n"
                     "  \"partitionKeys\" : [ ],\n"
                     "  \"ids\" : [ 1, 2, 3 ],\n"
                     "  \"options\" : { }\n"
                     "}";
  cp_buf b = CP_BUF_INIT;
  CHECK_STR(write_str(root, true, &b), want);
  /* Appends: earlier contents stay. */
  paimon_error err;
  cp_buf_clear(&b);
  CHECK_OK(cp_buf_append(&b, "x", 1, &err), &err);
  CHECK_OK(cp_json_write_compact(json_object_get(root, "ids"), &b, &err), &err);
  CHECK(b.len == 8 && memcmp(b.data, "x[1,2,3]", 8) == 0);
  cp_buf_free(&b);
  json_decref(root);
}

static void test_writer_strings_and_reals(void) {
  cp_buf b = CP_BUF_INIT;
  /* A string holding NUL (jansson allows it through json_stringn). */
  json_t *s = json_stringn("a\0b", 3);
  CHECK_STR(write_str(s, true, &b), "\"a\\u0000b\"");
  json_decref(s);
  const struct {
    double v;
    const char *want; /* printed by Java 17's Double.toString */
  } reals[] = {
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {2.0, "2.0"},
      {1e-3, "0.001"},
      {9.99e-4, "9.99E-4"},
      {1234567.0, "1234567.0"},
      {1e7, "1.0E7"},
      {-1.25e-10, "-1.25E-10"},
      {0.3, "0.3"},
      {1e100, "1.0E100"},
      {5e-324, "4.9E-324"},
      {1.7976931348623157e308, "1.7976931348623157E308"},
      {2e-323, "2.0E-323"},
      {9007199254740993.0, "9.007199254740992E15"},
      {0.1 + 0.2, "0.30000000000000004"},
      {100.0 / 3, "33.333333333333336"},
  };
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
    json_t *r = json_real(reals[i].v);
    CHECK_STR(write_str(r, true, &b), reals[i].want);
    json_decref(r);
  }
  cp_buf_free(&b);
}

static void test_writer_depth_limit(void) {
  json_t *root = json_array(), *cur = root;
  for (int i = 0; i < 1100; i++) {
    json_t *next = json_array();
    json_array_append_new(cur, next);
    cur = next;
  }
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&b, "keep", 4, &err), &err);
  CHECK_ERR(cp_json_write_pretty(root, &b, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "deeper than 1000");
  CHECK_INT(b.len, 4);
  CHECK_ERR(cp_json_write_pretty(NULL, &b, &err), PAIMON_EINVAL);
  cp_buf_free(&b);
  json_decref(root);
}

int main(void) {
  RUN(test_parse_errors);
  RUN(test_getters);
  RUN(test_string_maps);
  RUN(test_writer_matches_jackson);
  RUN(test_writer_schema_example);
  RUN(test_writer_strings_and_reals);
  RUN(test_writer_depth_limit);
  TEST_MAIN_END();
}
