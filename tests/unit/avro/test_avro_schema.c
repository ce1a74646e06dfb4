/*
 * Tests for src/format/avro/schema.c and schema_print.c: Paimon's real manifest schemas (from
 * pypaimon 2.1.0, see paimon_schemas.h), names and namespaces, recursion, logical types and
 * preserved attributes, printing back to JSON, and errors that name the path.
 */
#include "format/avro/schema.h"
#include "paimon_schemas.h"
#include "test.h"

static cp_avro_schema *parse_ok(const char *text) {
  cp_avro_schema *s = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_schema_parse(&s, text, strlen(text), "test", &err), &err);
  return s;
}

static int parse_err(const char *text, paimon_error *err) {
  cp_avro_schema *s = NULL;
  int rc = cp_avro_schema_parse(&s, text, strlen(text), "test", err);
  CHECK(s == NULL);
  cp_avro_schema_free(s);
  return rc;
}

/* Printing must reproduce the declaration (as JSON, ignoring whitespace) and be a fixed point. */
static void check_prints_back(const cp_avro_schema *s, const char *original) {
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_schema_to_json(s, cp_avro_schema_root(s), &out, NULL), NULL);
  json_t *a = json_loadb(original, strlen(original), JSON_DECODE_ANY, NULL);
  json_t *b = json_loadb((const char *)out.data, out.len, JSON_DECODE_ANY, NULL);
  CHECK(a && b && json_equal(a, b));
  cp_avro_schema *again = NULL;
  CHECK_OK(cp_avro_schema_parse(&again, (const char *)out.data, out.len, NULL, NULL), NULL);
  cp_buf out2 = CP_BUF_INIT;
  if (again) CHECK_OK(cp_avro_schema_to_json(again, cp_avro_schema_root(again), &out2, NULL), NULL);
  CHECK(out.len == out2.len && memcmp(out.data, out2.data, out.len) == 0);
  json_decref(a);
  json_decref(b);
  cp_avro_schema_free(again);
  cp_buf_free(&out);
  cp_buf_free(&out2);
}

static const cp_avro_node *field_type(const cp_avro_node *rec, const char *name) {
  const cp_avro_field *f = cp_avro_record_field(rec, name);
  CHECK(f != NULL);
  return f ? f->type : NULL;
}

static void test_pypaimon_manifest_entry(void) {
  cp_avro_schema *s = parse_ok(pypaimon_manifest_entry);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  CHECK_INT(root->type, CP_AVRO_RECORD);
  CHECK_STR(root->name, "ManifestEntry");
  CHECK_INT(root->n_fields, 6);
  CHECK_STR(root->fields[0].name, "_VERSION");
  CHECK(root->fields[0].default_json == NULL);
  const cp_avro_node *file = field_type(root, "_FILE");
  CHECK_STR(file->name, "DataFileMeta");
  CHECK_INT(file->n_fields, 21);
  CHECK_STR(file->fields[20].name, "_WRITE_COLS_SEQUENCES");
  const cp_avro_node *ct = field_type(file, "_CREATION_TIME");
  size_t nb = 9, vb = 9;
  CHECK(cp_avro_node_is_nullable(ct, &nb, &vb));
  CHECK_INT(nb, 0);
  CHECK_INT(vb, 1);
  CHECK_INT(ct->branches[1]->type, CP_AVRO_LONG);
  CHECK_STR(ct->branches[1]->logical_type, "timestamp-millis");
  const cp_avro_field *ctf = cp_avro_record_field(file, "_CREATION_TIME");
  CHECK(ctf->default_json && json_is_null(ctf->default_json));
  const cp_avro_node *stats = field_type(file, "_VALUE_STATS");
  CHECK_STR(stats->name, "record_VALUE_STATS");
  const cp_avro_node *nc = field_type(stats, "_NULL_COUNTS");
  CHECK_INT(nc->branches[1]->type, CP_AVRO_ARRAY);
  CHECK(cp_avro_node_is_nullable(nc->branches[1]->items, NULL, NULL));
  CHECK_INT(field_type(file, "_EXTRA_FILES")->items->type, CP_AVRO_STRING);
  CHECK(cp_avro_schema_find(s, "record_KEY_STATS") != NULL);
  CHECK(cp_avro_schema_find(s, "nope") == NULL);
  CHECK_INT(cp_avro_schema_named_count(s), 4);
  check_prints_back(s, pypaimon_manifest_entry);
  cp_avro_schema_free(s);
}

static void test_pypaimon_manifest_list_and_index(void) {
  cp_avro_schema *s = parse_ok(pypaimon_manifest_file_meta);
  if (s) {
    const cp_avro_node *root = cp_avro_schema_root(s);
    CHECK_STR(root->name, "ManifestFileMeta");
    CHECK_INT(root->n_fields, 15);
    CHECK_STR(field_type(root, "_PARTITION_STATS")->name, "record_PARTITION_STATS");
    CHECK(cp_avro_node_is_nullable(field_type(root, "_MIN_ROW_ID"), NULL, NULL));
    check_prints_back(s, pypaimon_manifest_file_meta);
  }
  cp_avro_schema_free(s);
  s = parse_ok(pypaimon_index_manifest_entry);
  if (s) {
    const cp_avro_node *root = cp_avro_schema_root(s);
    CHECK_STR(root->name, "IndexManifestEntry");
    const cp_avro_node *dv = field_type(root, "_DELETIONS_VECTORS_RANGES");
    CHECK_INT(dv->branches[1]->type, CP_AVRO_ARRAY);
    CHECK_STR(dv->branches[1]->items->name, "DeletionVectorMeta");
    CHECK_INT(dv->branches[1]->items->n_fields, 4);
    check_prints_back(s, pypaimon_index_manifest_entry);
  }
  cp_avro_schema_free(s);
}

static void test_java_style_namespaces(void) {
  cp_avro_schema *s = parse_ok(java_style_manifest_entry);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  CHECK_STR(root->name, "org.apache.paimon.avro.generated.record");
  CHECK_STR(root->namespace_, "org.apache.paimon.avro.generated");
  const cp_avro_node *file = field_type(root, "_FILE");
  /* Nested records inherit the enclosing namespace. */
  CHECK_STR(file->name, "org.apache.paimon.avro.generated.record__FILE");
  CHECK_INT(file->n_fields, 21);
  CHECK(cp_avro_schema_find(s, "org.apache.paimon.avro.generated.record__FILE__VALUE_STATS"));
  check_prints_back(s, java_style_manifest_entry);
  cp_avro_schema_free(s);
}

static void test_named_references(void) {
  const char *text =
      "{\"type\":\"record\",\"name\":\"a.Outer\",\"fields\":["
      "{\"name\":\"p\",\"type\":{\"type\":\"record\",\"name\":\"Point\",\"fields\":["
      "{\"name\":\"x\",\"type\":\"int\"}]}},"
      "{\"name\":\"q\",\"type\":\"Point\"},"
      "{\"name\":\"r\",\"type\":\"a.Point\"},"
      "{\"name\":\"o\",\"type\":{\"type\":\"record\",\"name\":\"Other\",\"namespace\":\"b\","
      "\"fields\":[{\"name\":\"back\",\"type\":\"a.Point\"},"
      "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"],"
      "\"default\":\"B\"}}]}},"
      "{\"name\":\"e2\",\"type\":\"b.E\"}]}";
  cp_avro_schema *s = parse_ok(text);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  const cp_avro_node *p = field_type(root, "p");
  CHECK_STR(p->name, "a.Point");
  CHECK(field_type(root, "q") == p);
  CHECK(field_type(root, "r") == p);
  const cp_avro_node *o = field_type(root, "o");
  CHECK_STR(o->name, "b.Other");
  CHECK(field_type(o, "back") == p);
  CHECK_STR(field_type(root, "e2")->name, "b.E");
  CHECK_STR(field_type(root, "e2")->enum_default, "B");
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_schema_to_json(s, root, &out, NULL), NULL);
  cp_buf_nul_terminate(&out, NULL);
  /* Defined once, then referenced; a reference from another namespace uses the full name. */
  CHECK_CONTAINS((const char *)out.data, "{\"name\":\"q\",\"type\":\"Point\"}");
  CHECK_CONTAINS((const char *)out.data, "{\"name\":\"back\",\"type\":\"a.Point\"}");
  CHECK_CONTAINS((const char *)out.data, "\"name\":\"Other\",\"namespace\":\"b\"");
  CHECK_CONTAINS((const char *)out.data, "{\"name\":\"e2\",\"type\":\"b.E\"}");
  cp_avro_schema *again = NULL;
  CHECK_OK(cp_avro_schema_parse(&again, (const char *)out.data, out.len, NULL, NULL), NULL);
  if (again) CHECK(cp_avro_schema_find(again, "b.E") != NULL);
  cp_avro_schema_free(again);
  cp_buf_free(&out);
  cp_avro_schema_free(s);
}

static void test_recursive_schema(void) {
  const char *text = "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"v\",\"type\":"
                     "\"int\"},{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}";
  cp_avro_schema *s = parse_ok(text);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  CHECK(field_type(root, "next")->branches[1] == root);
  CHECK_INT(root->n_fields, 2);
  check_prints_back(s, text);
  cp_avro_schema_free(s);
}

static void test_logical_types_and_attributes(void) {
  const char *text =
      "{\"type\":\"record\",\"name\":\"R\",\"doc\":\"kept\",\"x-custom\":[1,2],\"fields\":["
      "{\"name\":\"d\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,"
      "\"scale\":2}},"
      "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"},\"doc\":\"a day\"},"
      "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},"
      "\"default\":0,\"order\":\"descending\"},"
      "{\"name\":\"plain\",\"type\":{\"type\":\"string\"}},"
      "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
      "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"double\"},\"aliases\":[\"mm\"]}]}";
  cp_avro_schema *s = parse_ok(text);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  const cp_avro_node *d = field_type(root, "d");
  CHECK_STR(d->logical_type, "decimal");
  CHECK_INT(d->precision, 10);
  CHECK_INT(d->scale, 2);
  CHECK_STR(field_type(root, "day")->logical_type, "date");
  CHECK(field_type(root, "plain")->logical_type == NULL);
  CHECK_INT(field_type(root, "f")->fixed_size, 3);
  const cp_avro_field *m = cp_avro_record_field(root, "m");
  CHECK_INT(m->n_aliases, 1);
  CHECK_STR(m->aliases[0], "mm");
  const cp_avro_field *ts = cp_avro_record_field(root, "ts");
  CHECK(json_is_integer(ts->default_json));
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_schema_to_json(s, root, &out, NULL), NULL);
  cp_buf_nul_terminate(&out, NULL);
  const char *o = (const char *)out.data;
  /* A primitive with no attributes prints as its name; everything declared is kept. */
  CHECK_CONTAINS(o, "{\"name\":\"plain\",\"type\":\"string\"}");
  CHECK_CONTAINS(o, "\"doc\":\"kept\"");
  CHECK_CONTAINS(o, "\"x-custom\":[1,2]");
  CHECK_CONTAINS(o, "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,"
                    "\"scale\":2}");
  CHECK_CONTAINS(o, "\"default\":0,\"order\":\"descending\"");
  CHECK_CONTAINS(o, "\"aliases\":[\"mm\"]");
  cp_buf_free(&out);
  cp_avro_schema_free(s);
}

static void test_min_size(void) {
  const char *text = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                     "{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"double\"},"
                     "{\"name\":\"c\",\"type\":\"null\"},{\"name\":\"d\",\"type\":{\"type\":"
                     "\"fixed\",\"name\":\"F\",\"size\":3}},{\"name\":\"e\",\"type\":[\"null\","
                     "\"float\"]},{\"name\":\"f\",\"type\":{\"type\":\"array\",\"items\":"
                     "\"double\"}}]}";
  cp_avro_schema *s = parse_ok(text);
  if (!s) return;
  CHECK_INT(cp_avro_schema_root(s)->min_size, 1 + 8 + 0 + 3 + 1 + 1);
  cp_avro_schema_free(s);
  s = parse_ok("\"null\"");
  if (s) CHECK_INT(cp_avro_schema_root(s)->min_size, 0);
  cp_avro_schema_free(s);
}

static void test_nullable(void) {
  cp_avro_schema *s = parse_ok("[\"long\",\"null\"]");
  size_t nb = 9, vb = 9;
  if (s) CHECK(cp_avro_node_is_nullable(cp_avro_schema_root(s), &nb, &vb));
  CHECK_INT(nb, 1);
  CHECK_INT(vb, 0);
  cp_avro_schema_free(s);
  s = parse_ok("[\"null\",\"long\",\"string\"]");
  if (s) CHECK(!cp_avro_node_is_nullable(cp_avro_schema_root(s), NULL, NULL));
  cp_avro_schema_free(s);
  s = parse_ok("\"long\"");
  if (s) CHECK(!cp_avro_node_is_nullable(cp_avro_schema_root(s), NULL, NULL));
  cp_avro_schema_free(s);
}

static void test_errors_name_the_path(void) {
  paimon_error err = {0};
  const char *typo =
      "{\"type\":\"record\",\"name\":\"E\",\"fields\":[{\"name\":\"_FILE\",\"type\":{\"type\":"
      "\"record\",\"name\":\"F\",\"fields\":[{\"name\":\"_VALUE_STATS\",\"type\":\"lng\"}]}}]}";
  CHECK_ERR(parse_err(typo, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "test: field _FILE._VALUE_STATS: unknown type 'lng'");

  struct {
    const char *text, *needle;
  } cases[] = {
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":[\"int\","
       "\"int\"]}]}",
       "field a: union has two branches of type int"},
      {"[\"null\",[\"int\"]]", "union branch 1 is itself a union"},
      {"[]", "empty union"},
      {"{\"type\":\"record\",\"name\":\"R\"}", "needs a \"fields\" array"},
      {"{\"type\":\"record\",\"fields\":[]}", "needs a string \"name\""},
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
       "{\"name\":\"a\",\"type\":\"long\"}]}",
       "two fields named 'a'"},
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":"
       "\"record\",\"name\":\"R\",\"fields\":[]}}]}",
       "field a: type 'R' is defined twice"},
      {"{\"type\":\"record\",\"name\":\"1bad\",\"fields\":[]}", "invalid name '1bad'"},
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a-b\",\"type\":\"int\"}]}",
       "invalid field name 'a-b'"},
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\"}]}",
       "field a: no \"type\""},
      {"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"A\"]}", "duplicate symbol 'A'"},
      {"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"],\"default\":\"B\"}",
       "default is not one of its symbols"},
      {"{\"type\":\"fixed\",\"name\":\"F\"}", "non-negative integer \"size\""},
      {"{\"type\":\"fixed\",\"name\":\"F\",\"size\":-1}", "non-negative integer \"size\""},
      {"{\"type\":\"array\"}", "array needs \"items\""},
      {"{\"type\":\"map\",\"values\":\"nope\"}", "field [values]: unknown type 'nope'"},
      {"{\"type\":\"record\",\"name\":\"int\",\"fields\":[]}", "redefines a primitive"},
      {"42", "must be a JSON string, array or object"},
      {"{\"name\":\"x\"}", "has no \"type\""},
      {"{\"type\": \"record\", ", "not valid JSON"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    paimon_error e = {0};
    CHECK_ERR(parse_err(cases[i].text, &e), PAIMON_EINVAL);
    CHECK_CONTAINS(e.message, cases[i].needle);
  }
}

static void test_depth_limit(void) {
  /* 300 nested arrays: refused with a message, not a stack overflow. */
  cp_buf b = CP_BUF_INIT;
  for (int i = 0; i < 300; i++) cp_buf_appendf(&b, NULL, "{\"type\":\"array\",\"items\":");
  cp_buf_appendf(&b, NULL, "\"int\"");
  for (int i = 0; i < 300; i++) cp_buf_appendf(&b, NULL, "}");
  cp_avro_schema *s = NULL;
  paimon_error err = {0};
  CHECK_ERR(cp_avro_schema_parse(&s, (const char *)b.data, b.len, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested deeper than");
  cp_buf_free(&b);
}

int main(void) {
  RUN(test_pypaimon_manifest_entry);
  RUN(test_pypaimon_manifest_list_and_index);
  RUN(test_java_style_namespaces);
  RUN(test_named_references);
  RUN(test_recursive_schema);
  RUN(test_logical_types_and_attributes);
  RUN(test_min_size);
  RUN(test_nullable);
  RUN(test_errors_name_the_path);
  RUN(test_depth_limit);
  TEST_MAIN_END();
}
