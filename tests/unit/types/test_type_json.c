/*
 * Tests for types/type_json.h: schema-file type nodes and DataFields as pypaimon and Java write
 * them (spec/format.md §2.1-§2.2), Java's output form and key order, and error messages.
 *
 * PYPAIMON_FIELDS is the "fields" array of schema/schema-0 written by pypaimon 2.1.0 (the version
 * in .venv) for a table created with Schema.from_pyarrow_schema over a pyarrow schema holding one
 * column of each kind (pretty-printing removed, content unchanged). The Java form expected back
 * follows DataType.serializeJson / DataField.serializeJson in apache/paimon paimon-api (complex
 * types as {"type": "ARRAY" | "ARRAY NOT NULL", ...} without "nullable"; LocalZonedTimestampType
 * as "TIMESTAMP(p) WITH LOCAL TIME ZONE"; keys id, name, type, description, defaultValue).
 */
#include "types/type_json.h"
#include "types/type_sql.h"

#include "test.h"

static const char PYPAIMON_FIELDS[] =
    "[{\"id\": 0, \"name\": \"id\", \"type\": \"BIGINT NOT NULL\"},"
    " {\"id\": 1, \"name\": \"b\", \"type\": \"BOOLEAN\"},"
    " {\"id\": 8, \"name\": \"ls\", \"type\": \"STRING\"},"
    " {\"id\": 9, \"name\": \"bin\", \"type\": \"BYTES\"},"
    " {\"id\": 10, \"name\": \"fbin\", \"type\": \"BINARY(16)\"},"
    " {\"id\": 11, \"name\": \"blob\", \"type\": \"BLOB\"},"
    " {\"id\": 12, \"name\": \"dec\", \"type\": \"DECIMAL(38, 18)\"},"
    " {\"id\": 14, \"name\": \"t\", \"type\": \"TIME(0)\"},"
    " {\"id\": 15, \"name\": \"ts0\", \"type\": \"TIMESTAMP(0)\"},"
    " {\"id\": 19, \"name\": \"ltz\", \"type\": \"TIMESTAMP_LTZ(6)\"},"
    " {\"id\": 20, \"name\": \"tags\", \"type\": {\"type\": \"ARRAY\", \"element\": \"STRING\","
    "   \"nullable\": true}},"
    " {\"id\": 21, \"name\": \"tags_nn\", \"type\": {\"type\": \"ARRAY NOT NULL\","
    "   \"element\": \"INT NOT NULL\", \"nullable\": false}},"
    " {\"id\": 22, \"name\": \"m\", \"type\": {\"type\": \"MAP\", \"key\": \"STRING NOT NULL\","
    "   \"value\": \"INT\", \"nullable\": true}},"
    " {\"id\": 23, \"name\": \"st\", \"type\": {\"type\": \"ROW\", \"fields\": ["
    "   {\"id\": 24, \"name\": \"x\", \"type\": \"INT NOT NULL\"},"
    "   {\"id\": 26, \"name\": \"y\", \"type\": {\"type\": \"ROW\", \"fields\": ["
    "     {\"id\": 25, \"name\": \"z\", \"type\": \"STRING\"}], \"nullable\": true}}],"
    "   \"nullable\": true}},"
    " {\"id\": 27, \"name\": \"vec\", \"type\": {\"type\": \"VECTOR\", \"element\": \"FLOAT\","
    "   \"length\": 4, \"nullable\": true}},"
    " {\"id\": 28, \"name\": \"nested\", \"type\": {\"type\": \"ARRAY\", \"element\": {"
    "   \"type\": \"MAP\", \"key\": \"STRING NOT NULL\", \"value\": {\"type\": \"ARRAY\","
    "   \"element\": \"BIGINT\", \"nullable\": true}, \"nullable\": true}, \"nullable\": true}}]";

/* What Java's DataField.serializeJson writes for the same fields (compact). */
static const char JAVA_FIELDS[] =
    "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
    "{\"id\":1,\"name\":\"b\",\"type\":\"BOOLEAN\"},"
    "{\"id\":8,\"name\":\"ls\",\"type\":\"STRING\"},"
    "{\"id\":9,\"name\":\"bin\",\"type\":\"BYTES\"},"
    "{\"id\":10,\"name\":\"fbin\",\"type\":\"BINARY(16)\"},"
    "{\"id\":11,\"name\":\"blob\",\"type\":\"BLOB\"},"
    "{\"id\":12,\"name\":\"dec\",\"type\":\"DECIMAL(38, 18)\"},"
    "{\"id\":14,\"name\":\"t\",\"type\":\"TIME(0)\"},"
    "{\"id\":15,\"name\":\"ts0\",\"type\":\"TIMESTAMP(0)\"},"
    "{\"id\":19,\"name\":\"ltz\",\"type\":\"TIMESTAMP(6) WITH LOCAL TIME ZONE\"},"
    "{\"id\":20,\"name\":\"tags\",\"type\":{\"type\":\"ARRAY\",\"element\":\"STRING\"}},"
    "{\"id\":21,\"name\":\"tags_nn\",\"type\":{\"type\":\"ARRAY NOT NULL\","
    "\"element\":\"INT NOT NULL\"}},"
    "{\"id\":22,\"name\":\"m\",\"type\":{\"type\":\"MAP\",\"key\":\"STRING NOT NULL\","
    "\"value\":\"INT\"}},"
    "{\"id\":23,\"name\":\"st\",\"type\":{\"type\":\"ROW\",\"fields\":["
    "{\"id\":24,\"name\":\"x\",\"type\":\"INT NOT NULL\"},"
    "{\"id\":26,\"name\":\"y\",\"type\":{\"type\":\"ROW\",\"fields\":["
    "{\"id\":25,\"name\":\"z\",\"type\":\"STRING\"}]}}]}},"
    "{\"id\":27,\"name\":\"vec\",\"type\":{\"type\":\"VECTOR\",\"element\":\"FLOAT\","
    "\"length\":4}},"
    "{\"id\":28,\"name\":\"nested\",\"type\":{\"type\":\"ARRAY\",\"element\":{\"type\":\"MAP\","
    "\"key\":\"STRING NOT NULL\",\"value\":{\"type\":\"ARRAY\",\"element\":\"BIGINT\"}}}}]";

static json_t *J(const char *text) {
  json_error_t jerr;
  json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  if (!j) fprintf(stderr, "bad test JSON: %s at %d\n", jerr.text, jerr.position);
  return j;
}

static char *dump(const json_t *j) { return json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY); }

static void test_pypaimon_fields(void) {
  paimon_error err;
  json_t *in = J(PYPAIMON_FIELDS);
  cp_type *row = NULL;
  CHECK_OK(cp_fields_from_json(in, &row, &err), &err);
  json_decref(in);
  if (!row) return;
  static const char *const expect_sql[] = {
      "BIGINT NOT NULL",
      "BOOLEAN",
      "STRING",
      "BYTES",
      "BINARY(16)",
      "BLOB",
      "DECIMAL(38, 18)",
      "TIME(0)",
      "TIMESTAMP(0)",
      "TIMESTAMP(6) WITH LOCAL TIME ZONE",
      "ARRAY<STRING>",
      "ARRAY<INT NOT NULL> NOT NULL",
      "MAP<STRING NOT NULL, INT>",
      "ROW<`x` INT NOT NULL, `y` ROW<`z` STRING>>",
      "VECTOR<FLOAT, 4>",
      "ARRAY<MAP<STRING NOT NULL, ARRAY<BIGINT>>>",
  };
  CHECK_INT(row->n_fields, sizeof expect_sql / sizeof expect_sql[0]);
  for (size_t i = 0; i < row->n_fields && i < sizeof expect_sql / sizeof expect_sql[0]; i++) {
    char *s = NULL;
    CHECK_OK(cp_type_to_sql(row->fields[i].type, &s, &err), &err);
    CHECK_STR(s, expect_sql[i]);
    free(s);
  }
  const cp_type *st = row->fields[13].type;
  CHECK_INT(row->fields[13].id, 23);
  CHECK_INT(st->fields[0].id, 24);
  CHECK_INT(st->fields[1].id, 26);
  CHECK_INT(st->fields[1].type->fields[0].id, 25);
  CHECK_INT(cp_type_max_field_id(row), 28);
  CHECK(row->fields[9].type->kind == CP_TYPE_TIMESTAMP_LTZ);

  /* Written back in Java's form: no "nullable" keys, Java's LTZ spelling, Java's key order. */
  json_t *out = NULL;
  CHECK_OK(cp_fields_to_json(row, &out, &err), &err);
  char *text = dump(out);
  CHECK_STR(text, JAVA_FIELDS);
  free(text);

  /* Java's form reads back to the same tree. */
  cp_type *again = NULL;
  CHECK_OK(cp_fields_from_json(out, &again, &err), &err);
  CHECK(cp_type_equals(row, again, 0));
  json_decref(out);
  cp_type_free(again);
  cp_type_free(row);
}

/* Parses a type node given as JSON text and prints it as SQL (or "ERR: message"). */
static char *type_sql(const char *json_text) {
  paimon_error err;
  json_t *j = J(json_text);
  cp_type *t = NULL;
  char *s = NULL;
  if (cp_type_from_json(j, &t, &err) != 0) {
    s = malloc(strlen(err.message) + 6);
    sprintf(s, "ERR: %s", err.message);
  } else {
    cp_type_to_sql(t, &s, &err);
  }
  cp_type_free(t);
  json_decref(j);
  return s;
}

#define CHECK_TYPE_SQL(json_text, expected)                                                        \
  do {                                                                                             \
    char *s_ = type_sql(json_text);                                                                \
    CHECK_STR(s_, expected);                                                                       \
    free(s_);                                                                                      \
  } while (0)

static void test_nullability_rules(void) {
  /* Java's own objects: nullability from the "type" string. */
  CHECK_TYPE_SQL("{\"type\": \"ARRAY NOT NULL\", \"element\": \"INT\"}", "ARRAY<INT> NOT NULL");
  CHECK_TYPE_SQL("{\"type\": \"MULTISET\", \"element\": \"STRING NOT NULL\"}",
                 "MULTISET<STRING NOT NULL>");
  CHECK_TYPE_SQL("{\"type\": \"ROW NOT NULL\", \"fields\": []}", "ROW<> NOT NULL");
  CHECK_TYPE_SQL("{\"type\": \"VECTOR NOT NULL\", \"element\": \"DOUBLE\", \"length\": 3}",
                 "VECTOR<DOUBLE, 3> NOT NULL");
  /* Older pypaimon (spec/format.md §2.2) writes the full SQL text for MAP and MULTISET. A NOT NULL
   * inside the text is the key's, not the map's (Java's contains("NOT NULL") gets this wrong). */
  CHECK_TYPE_SQL("{\"type\": \"MAP<STRING NOT NULL, INT>\", \"key\": \"STRING NOT NULL\","
                 " \"value\": \"INT\"}",
                 "MAP<STRING NOT NULL, INT>");
  CHECK_TYPE_SQL("{\"type\": \"MAP<STRING, INT> NOT NULL\", \"key\": \"STRING\","
                 " \"value\": \"INT\"}",
                 "MAP<STRING, INT> NOT NULL");
  CHECK_TYPE_SQL("{\"type\": \"MULTISET<INT NOT NULL>\", \"element\": \"INT NOT NULL\"}",
                 "MULTISET<INT NOT NULL>");
  /* The "nullable" key wins when present. */
  CHECK_TYPE_SQL("{\"type\": \"MAP<STRING NOT NULL, INT>\", \"key\": \"STRING NOT NULL\","
                 " \"value\": \"INT\", \"nullable\": false}",
                 "MAP<STRING NOT NULL, INT> NOT NULL");
  CHECK_TYPE_SQL("{\"type\": \"ARRAY NOT NULL\", \"element\": \"INT\", \"nullable\": true}",
                 "ARRAY<INT>");
  CHECK_TYPE_SQL("{\"type\": \"ARRAY\", \"element\": \"INT\", \"nullable\": null}", "ARRAY<INT>");
  /* Keywords in any case, an atomic type in an object, VECTOR and nested text as strings. */
  CHECK_TYPE_SQL("{\"type\": \"array\", \"element\": \"int\"}", "ARRAY<INT>");
  CHECK_TYPE_SQL("{\"type\": \"INT\", \"nullable\": false}", "INT NOT NULL");
  CHECK_TYPE_SQL("\"VECTOR<FLOAT, 4> NOT NULL\"", "VECTOR<FLOAT, 4> NOT NULL");
  CHECK_TYPE_SQL("\"INT ARRAY\"", "ARRAY<INT>");
  CHECK_TYPE_SQL("\"TIMESTAMP_LTZ(3)\"", "TIMESTAMP(3) WITH LOCAL TIME ZONE");
}

static void test_field_docs_and_key_order(void) {
  paimon_error err;
  json_t *in =
      J("{\"defaultValue\": \"0\", \"type\": \"INT\", \"description\": \"a \\\"count\\\"\","
        " \"name\": \"n\", \"id\": 7}");
  cp_field f;
  CHECK_OK(cp_field_from_json(in, &f, &err), &err);
  json_decref(in);
  CHECK_INT(f.id, 7);
  CHECK_STR(f.description, "a \"count\"");
  CHECK_STR(f.default_value, "0");
  json_t *out = NULL;
  CHECK_OK(cp_field_to_json(&f, &out, &err), &err);
  char *text = dump(out);
  CHECK_STR(text, "{\"id\":7,\"name\":\"n\",\"type\":\"INT\",\"description\":\"a \\\"count\\\"\","
                  "\"defaultValue\":\"0\"}");
  free(text);
  json_decref(out);
  cp_field_clear(&f);

  /* JSON null description / defaultValue read as absent and are omitted on output. */
  in = J("{\"id\": 1, \"name\": \"s\", \"type\": \"STRING\", \"description\": null,"
         " \"defaultValue\": null, \"extra\": 5}");
  CHECK_OK(cp_field_from_json(in, &f, &err), &err);
  json_decref(in);
  CHECK(f.description == NULL && f.default_value == NULL);
  CHECK_OK(cp_field_to_json(&f, &out, &err), &err);
  text = dump(out);
  CHECK_STR(text, "{\"id\":1,\"name\":\"s\",\"type\":\"STRING\"}");
  free(text);
  json_decref(out);
  cp_field_clear(&f);

  /* Type nodes on their own. */
  cp_type *t = NULL;
  CHECK_OK(cp_type_parse("MULTISET<VARCHAR(3)> NOT NULL", &t, &err), &err);
  CHECK_OK(cp_type_to_json(t, &out, &err), &err);
  text = dump(out);
  CHECK_STR(text, "{\"type\":\"MULTISET NOT NULL\",\"element\":\"VARCHAR(3)\"}");
  free(text);
  json_decref(out);
  cp_type_free(t);
  CHECK_OK(cp_type_parse("TIMESTAMP_LTZ(3) NOT NULL", &t, &err), &err);
  CHECK_OK(cp_type_to_json(t, &out, &err), &err);
  text = dump(out);
  CHECK_STR(text, "\"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL\"");
  free(text);
  json_decref(out);
  cp_type_free(t);
}

static void test_auto_field_ids(void) {
  /* Java's parseDataType(json) numbers ROW fields without ids 0, 1, ... (a field before the fields
   * nested in it). */
  paimon_error err;
  json_t *in =
      J("{\"type\": \"ROW\", \"fields\": [{\"name\": \"a\", \"type\": \"INT\"},"
        " {\"name\": \"b\", \"type\": {\"type\": \"ROW\", \"fields\": ["
        "   {\"name\": \"c\", \"type\": \"INT\"}]}}, {\"name\": \"d\", \"type\": \"INT\"}]}");
  cp_type *t = NULL;
  CHECK_OK(cp_type_from_json(in, &t, &err), &err);
  json_decref(in);
  if (t) {
    CHECK_INT(t->fields[0].id, 0);
    CHECK_INT(t->fields[1].id, 1);
    CHECK_INT(t->fields[1].type->fields[0].id, 2);
    CHECK_INT(t->fields[2].id, 3);
  }
  cp_type_free(t);
  CHECK_TYPE_SQL("{\"type\": \"ROW\", \"fields\": [{\"name\": \"a\", \"type\": \"INT\"},"
                 " {\"id\": 5, \"name\": \"b\", \"type\": \"INT\"}]}",
                 "ERR: field #1: partial field ids are not allowed");
  CHECK_TYPE_SQL("{\"type\": \"ROW\", \"fields\": [{\"id\": 5, \"name\": \"a\", \"type\": \"INT\"},"
                 " {\"name\": \"b\", \"type\": \"INT\"}]}",
                 "ERR: field #1: missing \"id\"");
  /* pypaimon reads a ROW without "fields" as empty. */
  CHECK_TYPE_SQL("{\"type\": \"ROW\"}", "ROW<>");
}

static void check_field_error(const char *json_text, const char *message) {
  paimon_error err;
  json_t *in = J(json_text);
  cp_field f;
  CHECK_ERR(cp_field_from_json(in, &f, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, message);
  CHECK(f.name == NULL && f.type == NULL);
  json_decref(in);
}

static void test_errors(void) {
  check_field_error("{\"id\": 3, \"name\": \"tags\", \"type\": {\"type\": \"ARRAY\","
                    " \"element\": \"FOO\"}}",
                    "field 'tags' (id 3): type: element: type 'FOO' at offset 0: unknown type "
                    "'FOO'");
  check_field_error("{\"id\": 3, \"name\": \"st\", \"type\": {\"type\": \"ROW\", \"fields\": ["
                    "{\"id\": 4, \"name\": \"d\", \"type\": \"DECIMAL(50, 2)\"}]}}",
                    "field 'st' (id 3): type: field 'd' (id 4): type: type 'DECIMAL(50, 2)' at "
                    "offset 8: DECIMAL precision 50");
  check_field_error("{\"name\": \"a\", \"type\": \"INT\"}", "field: missing \"id\"");
  check_field_error("{\"id\": \"3\", \"name\": \"a\", \"type\": \"INT\"}",
                    "\"id\" must be an integer, found a string");
  check_field_error("{\"id\": 2147483648, \"name\": \"a\", \"type\": \"INT\"}",
                    "\"id\" 2147483648 must be between");
  check_field_error("{\"id\": 1, \"type\": \"INT\"}", "field (id 1): \"name\" must be a string");
  check_field_error("{\"id\": 1, \"name\": 5, \"type\": \"INT\"}", "\"name\" must be a string");
  check_field_error("{\"id\": 1, \"name\": \"a\"}", "field 'a' (id 1): missing \"type\"");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": 5}",
                    "field 'a' (id 1): type: expected a type string or object, found an integer");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": \"INT\", \"description\": 5}",
                    "field 'a' (id 1): \"description\" must be a string");
  check_field_error("[1]", "field must be an object, found an array");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": {\"element\": \"INT\"}}",
                    "type object needs a string \"type\", found none");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": {\"type\": \"ARRAY\"}}",
                    "type: missing \"element\"");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": {\"type\": \"ARRAY\","
                    " \"element\": \"INT\", \"nullable\": \"yes\"}}",
                    "\"nullable\" must be a boolean");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": {\"type\": \"ARRAY FOO\","
                    " \"element\": \"INT\"}}",
                    "unexpected text in \"type\" 'ARRAY FOO'");
  check_field_error("{\"id\": 1, \"name\": \"m\", \"type\": {\"type\": \"MAP\", \"key\": \"INT\"}}",
                    "field 'm' (id 1): type: missing \"value\"");
  check_field_error("{\"id\": 1, \"name\": \"v\", \"type\": {\"type\": \"VECTOR\","
                    " \"element\": \"INT\"}}",
                    "missing \"length\"");
  check_field_error("{\"id\": 1, \"name\": \"v\", \"type\": {\"type\": \"VECTOR\","
                    " \"element\": \"INT\", \"length\": 0}}",
                    "\"length\" 0 must be between 1 and 2147483647");
  check_field_error("{\"id\": 1, \"name\": \"v\", \"type\": {\"type\": \"VECTOR\","
                    " \"element\": \"DATE\", \"length\": 2}}",
                    "invalid VECTOR element type DATE");
  check_field_error("{\"id\": 1, \"name\": \"r\", \"type\": {\"type\": \"ROW\", \"fields\": {}}}",
                    "\"fields\" must be an array, found an object");
  check_field_error("{\"id\": 1, \"name\": \"r\", \"type\": {\"type\": \"ROW\", \"fields\": ["
                    "{\"id\": 2, \"name\": \"x\", \"type\": \"INT\"},"
                    "{\"id\": 3, \"name\": \"x\", \"type\": \"INT\"}]}}",
                    "field 'r' (id 1): type: ROW field names must be unique: 'x' appears twice");
  check_field_error("{\"id\": 1, \"name\": \"a\\u0000b\", \"type\": \"INT\"}",
                    "\"name\" must be a string");
  check_field_error("{\"id\": 1, \"name\": \"a\", \"type\": \"INT\\u0000 NOT NULL\"}",
                    "at offset 3");

  /* Field ids must be unique across the whole schema, nested fields included. */
  paimon_error err;
  json_t *in = J("[{\"id\": 0, \"name\": \"a\", \"type\": \"INT\"},"
                 " {\"id\": 1, \"name\": \"s\", \"type\": {\"type\": \"ROW\", \"fields\": ["
                 "   {\"id\": 0, \"name\": \"x\", \"type\": \"INT\"}]}}]");
  cp_type *row = (cp_type *)1;
  CHECK_ERR(cp_fields_from_json(in, &row, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field id 0 is duplicated");
  CHECK(row == NULL);
  json_decref(in);
  in = J("{\"fields\": []}");
  CHECK_ERR(cp_fields_from_json(in, &row, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "\"fields\" must be an array");
  json_decref(in);
  in = J("[{\"id\": 0, \"name\": \"a\", \"type\": \"INT\"}, 7]");
  CHECK_ERR(cp_fields_from_json(in, &row, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field #1 must be an object, found an integer");
  json_decref(in);
  CHECK_ERR(cp_type_from_json(NULL, &row, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "found nothing");
  json_t *arr = NULL;
  cp_type *i32 = NULL;
  CHECK_OK(cp_type_parse("INT", &i32, &err), &err);
  CHECK_ERR(cp_fields_to_json(i32, &arr, &err), PAIMON_EINVAL);
  cp_type_free(i32);
  /* Text JSON cannot carry is refused with a clear message, not reported as out of memory. */
  cp_field f;
  CHECK_OK(cp_type_parse("INT", &i32, &err), &err);
  CHECK_OK(cp_field_init(&f, 4, "bad\xff", i32, NULL, NULL, &err), &err);
  CHECK_ERR(cp_field_to_json(&f, &arr, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "field (id 4): name is not valid UTF-8 (bad byte at offset 3)");
  CHECK(arr == NULL);
  cp_field_clear(&f);
}

static void test_depth_limit(void) {
  /* 200 nested ARRAY objects: rejected cleanly, no stack exhaustion. */
  paimon_error err;
  json_t *node = json_string("INT");
  for (int i = 0; i < 200; i++) {
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("ARRAY"));
    json_object_set_new(o, "element", node);
    node = o;
  }
  cp_type *t = NULL;
  CHECK_ERR(cp_type_from_json(node, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  CHECK_CONTAINS(err.message, "element: element: ");
  json_decref(node);
}

int main(void) {
  RUN(test_pypaimon_fields);
  RUN(test_nullability_rules);
  RUN(test_field_docs_and_key_order);
  RUN(test_auto_field_ids);
  RUN(test_errors);
  RUN(test_depth_limit);
  TEST_MAIN_END();
}
