/*
 * Tests for src/format/avro/resolve.c: reading data written with one schema through another,
 * by field name (spec/format.md §4.1), including Paimon's real cases: a pypaimon 2.1.0 manifest
 * entry read with a Java-style schema, an older writer lacking the newest DataFileMeta fields, and
 * a newer writer with fields the reader does not know. Data is produced by encoding values built
 * from JSON with the writer schema; expectations are built from JSON with the reader schema.
 */
#include "format/avro/resolve.h"
#include "paimon_schemas.h"
#include "test.h"

typedef struct fixture {
  cp_avro_schema *writer, *reader;
  cp_avro_resolver *resolver;
  cp_arena arena;
  cp_buf data;
} fixture;

static cp_avro_schema *parse(const char *text) {
  cp_avro_schema *s = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_schema_parse(&s, text, strlen(text), NULL, &err), &err);
  return s;
}

/* Builds a value of `schema` from JSON text (union values plain, as cp_avro_value_from_json). */
static int value_of(const cp_avro_node *schema, const char *json, cp_arena *arena,
                    cp_avro_value *out) {
  json_t *j = json_loads(json, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
  paimon_error err = {0};
  int rc = j ? cp_avro_value_from_json(schema, j, arena, out, &err) : -1;
  CHECK_OK(rc, &err);
  json_decref(j);
  return rc;
}

/* Parses both schemas, builds the resolver and encodes each JSON datum with the writer schema. */
static int setup(fixture *f, const char *writer, const char *reader, const char *const *datums,
                 size_t n, paimon_error *err) {
  memset(f, 0, sizeof *f);
  f->writer = parse(writer);
  f->reader = parse(reader);
  if (!f->writer || !f->reader) return -1;
  for (size_t i = 0; i < n; i++) {
    cp_avro_value v;
    if (value_of(cp_avro_schema_root(f->writer), datums[i], &f->arena, &v)) return -1;
    CHECK_OK(cp_avro_encode(cp_avro_schema_root(f->writer), &v, &f->data, NULL), NULL);
  }
  return cp_avro_resolver_new(&f->resolver, cp_avro_schema_root(f->writer),
                              cp_avro_schema_root(f->reader), err);
}

static void teardown(fixture *f) {
  cp_avro_resolver_free(f->resolver);
  cp_avro_schema_free(f->writer);
  cp_avro_schema_free(f->reader);
  cp_arena_free(&f->arena);
  cp_buf_free(&f->data);
}

/* Decodes the first n datums and compares them with the expected JSON read through the reader
 * schema; `leftover` bytes must remain after them. */
static void expect_some(fixture *f, const char *const *expected, size_t n, size_t leftover) {
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, f->data.data, f->data.len);
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &f->arena, NULL);
  for (size_t i = 0; i < n; i++) {
    cp_avro_value got, want;
    paimon_error err = {0};
    CHECK_OK(cp_avro_resolver_decode(f->resolver, &d, &got, &err), &err);
    if (err.code) return;
    if (value_of(cp_avro_schema_root(f->reader), expected[i], &f->arena, &want)) return;
    bool eq = cp_avro_value_equal(&got, &want);
    CHECK(eq);
    if (!eq) {
      cp_buf text = CP_BUF_INIT;
      cp_avro_value_to_json(cp_avro_schema_root(f->reader), &got, &text, NULL);
      fprintf(stderr, "  datum %zu: got %.*s want %s\n", i, (int)text.len, text.data, expected[i]);
      cp_buf_free(&text);
    }
  }
  CHECK_INT(cp_avro_cursor_remaining(&c), leftover);
}

static void expect_datums(fixture *f, const char *const *expected, size_t n) {
  expect_some(f, expected, n, 0);
}

static const char pypaimon_entry_json[] =
    "{\"_VERSION\":2,\"_KIND\":0,\"_PARTITION\":\"\\u0000\\u0000\\u0000\\u0000\",\"_BUCKET\":0,"
    "\"_TOTAL_BUCKETS\":-1,\"_FILE\":{\"_FILE_NAME\":\"data-1.parquet\",\"_FILE_SIZE\":740,"
    "\"_ROW_COUNT\":3,\"_MIN_KEY\":\"\",\"_MAX_KEY\":\"\",\"_KEY_STATS\":{\"_MIN_VALUES\":\"\","
    "\"_MAX_VALUES\":\"\",\"_NULL_COUNTS\":[]},\"_VALUE_STATS\":{\"_MIN_VALUES\":\"a\","
    "\"_MAX_VALUES\":\"b\",\"_NULL_COUNTS\":[0,null,2]},\"_MIN_SEQUENCE_NUMBER\":1,"
    "\"_MAX_SEQUENCE_NUMBER\":3,\"_SCHEMA_ID\":0,\"_LEVEL\":0,\"_EXTRA_FILES\":[\"x.index\"],"
    "\"_CREATION_TIME\":1700000000000,\"_DELETE_ROW_COUNT\":0,\"_FILE_SOURCE\":0,"
    "\"_VALUE_STATS_COLS\":[],\"_FIRST_ROW_ID\":100,\"_WRITE_COLS\":[\"a\",\"b\"]}}";

static void test_pypaimon_entry_read_with_java_schema(void) {
  fixture f;
  const char *datums[] = {pypaimon_entry_json};
  paimon_error err = {0};
  CHECK_OK(setup(&f, pypaimon_manifest_entry, java_style_manifest_entry, datums, 1, &err), &err);
  if (f.resolver) expect_datums(&f, datums, 1);
  teardown(&f);
  /* And the other way round. */
  CHECK_OK(setup(&f, java_style_manifest_entry, pypaimon_manifest_entry, datums, 1, &err), &err);
  if (f.resolver) expect_datums(&f, datums, 1);
  teardown(&f);
}

/* An old writer: DataFileMeta without the row-tracking fields, its fields in another order, and
 * records with other names. */
static const char old_writer[] =
    "{\"type\":\"record\",\"name\":\"Old\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},"
    "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"OldFile\",\"fields\":["
    "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
    "{\"name\":\"_FILE_SIZE\",\"type\":\"int\"}]}},"
    "{\"name\":\"_KIND\",\"type\":\"int\"}]}";

static const char new_reader[] =
    "{\"type\":\"record\",\"name\":\"New\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},"
    "{\"name\":\"_KIND\",\"type\":\"int\"},"
    "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"F\",\"fields\":["
    "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
    "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},"
    "{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
    "{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}]},"
    "{\"name\":\"_LEVEL\",\"type\":\"int\",\"default\":42}]}}]}";

static void test_old_writer_missing_fields(void) {
  fixture f;
  const char *datums[] = {
      "{\"_VERSION\":2,\"_FILE\":{\"_ROW_COUNT\":5,\"_FILE_NAME\":\"f1\",\"_FILE_SIZE\":99},"
      "\"_KIND\":1}"};
  const char *want[] = {
      "{\"_VERSION\":2,\"_KIND\":1,\"_FILE\":{\"_FILE_NAME\":\"f1\",\"_FILE_SIZE\":99,"
      "\"_ROW_COUNT\":5,\"_FIRST_ROW_ID\":null,\"_WRITE_COLS\":null,\"_LEVEL\":42}}"};
  paimon_error err = {0};
  CHECK_OK(setup(&f, old_writer, new_reader, datums, 1, &err), &err);
  if (f.resolver) expect_datums(&f, want, 1);
  teardown(&f);
}

static void test_new_writer_extra_fields_skipped(void) {
  const char *writer =
      "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},"
      "{\"name\":\"x1\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
      "{\"name\":\"x2\",\"type\":{\"type\":\"map\",\"values\":[\"null\",\"double\"]}},"
      "{\"name\":\"x3\",\"type\":{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"q\","
      "\"type\":\"bytes\"},{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":"
      "[\"A\",\"B\"]}},{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"FX\",\"size\":2}},"
      "{\"name\":\"fl\",\"type\":\"float\"},{\"name\":\"bo\",\"type\":\"boolean\"}]}},"
      "{\"name\":\"b\",\"type\":\"string\"}]}";
  const char *reader = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"b\",\"type\":"
                       "\"string\"},{\"name\":\"a\",\"type\":\"long\"}]}";
  const char *datums[] = {
      "{\"a\":1,\"x1\":[\"p\",\"q\"],\"x2\":{\"k\":1.5,\"n\":null},\"x3\":{\"q\":\"zz\",\"e\":"
      "\"B\","
      "\"fx\":\"ab\",\"fl\":2.5,\"bo\":true},\"b\":\"first\"}",
      "{\"a\":-7,\"x1\":[],\"x2\":{},\"x3\":{\"q\":\"\",\"e\":\"A\",\"fx\":\"cd\",\"fl\":0,"
      "\"bo\":false},\"b\":\"second\"}"};
  const char *want[] = {"{\"b\":\"first\",\"a\":1}", "{\"b\":\"second\",\"a\":-7}"};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 2, &err), &err);
  if (f.resolver) expect_datums(&f, want, 2);
  teardown(&f);
}

static void test_promotions(void) {
  const char *writer =
      "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"i2l\",\"type\":\"int\"},"
      "{\"name\":\"i2f\",\"type\":\"int\"},{\"name\":\"i2d\",\"type\":\"int\"},"
      "{\"name\":\"l2f\",\"type\":\"long\"},{\"name\":\"l2d\",\"type\":\"long\"},"
      "{\"name\":\"f2d\",\"type\":\"float\"},{\"name\":\"s2b\",\"type\":\"string\"},"
      "{\"name\":\"b2s\",\"type\":\"bytes\"},"
      "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":\"int\"}},"
      "{\"name\":\"map\",\"type\":{\"type\":\"map\",\"values\":\"float\"}}]}";
  const char *reader =
      "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"i2l\",\"type\":\"long\"},"
      "{\"name\":\"i2f\",\"type\":\"float\"},{\"name\":\"i2d\",\"type\":\"double\"},"
      "{\"name\":\"l2f\",\"type\":\"float\"},{\"name\":\"l2d\",\"type\":\"double\"},"
      "{\"name\":\"f2d\",\"type\":\"double\"},{\"name\":\"s2b\",\"type\":\"bytes\"},"
      "{\"name\":\"b2s\",\"type\":\"string\"},"
      "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
      "{\"name\":\"map\",\"type\":{\"type\":\"map\",\"values\":\"double\"}}]}";
  const char *datums[] = {
      "{\"i2l\":-2147483648,\"i2f\":16777217,\"i2d\":2147483647,\"l2f\":9007199254740993,"
      "\"l2d\":9007199254740993,\"f2d\":0.5,\"s2b\":\"txt\",\"b2s\":\"raw\",\"arr\":[1,-2],"
      "\"map\":{\"m\":0.25}}"};
  /* int 16777217 as float rounds to 16777216; long 2^53+1 as float/double rounds to 2^53. */
  const char *want[] = {
      "{\"i2l\":-2147483648,\"i2f\":16777216,\"i2d\":2147483647,\"l2f\":9007199254740992,"
      "\"l2d\":9007199254740992,\"f2d\":0.5,\"s2b\":\"txt\",\"b2s\":\"raw\",\"arr\":[1,-2],"
      "\"map\":{\"m\":0.25}}"};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 1, &err), &err);
  if (f.resolver) expect_datums(&f, want, 1);
  teardown(&f);
}

static void test_unions(void) {
  /* Non-union writer into a reader union, writer union into a wider reader union with promotion,
   * writer union into a non-union reader. */
  const char *writer =
      "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"plain\",\"type\":\"long\"},"
      "{\"name\":\"opt\",\"type\":[\"null\",\"int\"]},"
      "{\"name\":\"either\",\"type\":[\"int\",\"long\"]}]}";
  const char *reader =
      "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"plain\",\"type\":[\"null\","
      "\"long\"]},{\"name\":\"opt\",\"type\":[\"null\",\"string\",\"long\"]},"
      "{\"name\":\"either\",\"type\":\"long\"}]}";
  const char *datums[] = {"{\"plain\":5,\"opt\":null,\"either\":3}",
                          "{\"plain\":-1,\"opt\":7,\"either\":4}"};
  const char *want[] = {"{\"plain\":5,\"opt\":null,\"either\":3}",
                        "{\"plain\":-1,\"opt\":7,\"either\":4}"};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 2, &err), &err);
  if (f.resolver) expect_datums(&f, want, 2);
  teardown(&f);
}

static void test_union_branch_unreadable_fails_only_when_used(void) {
  const char *writer = "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"v\",\"type\":"
                       "[\"null\",\"long\",\"string\"]}]}";
  const char *reader = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"v\",\"type\":"
                       "[\"null\",\"long\"]}]}";
  const char *datums[] = {"{\"v\":1}", "{\"v\":null}", "{\"v\":\"oops\"}"};
  const char *want[] = {"{\"v\":1}", "{\"v\":null}"};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 3, &err), &err);
  if (f.resolver) {
    expect_some(&f, want, 2, 6); /* the third datum: branch 2, then "oops" */
    cp_avro_cursor c;
    cp_avro_cursor_init(&c, f.data.data, f.data.len);
    cp_avro_decoder d;
    cp_avro_decoder_init(&d, &c, &f.arena, NULL);
    cp_avro_value v;
    CHECK_OK(cp_avro_resolver_decode(f.resolver, &d, &v, NULL), NULL);
    CHECK_OK(cp_avro_resolver_decode(f.resolver, &d, &v, NULL), NULL);
    CHECK_ERR(cp_avro_resolver_decode(f.resolver, &d, &v, &err), PAIMON_EINVAL);
    CHECK_STR(err.message, "field v: writer type string matches no branch of the reader union");
  }
  teardown(&f);
}

static void test_enums(void) {
  const char *writer = "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}";
  const char *reader =
      "{\"type\":\"enum\",\"name\":\"E2\",\"symbols\":[\"C\",\"A\"],\"default\":\"A\"}";
  const char *datums[] = {"\"A\"", "\"B\"", "\"C\""};
  const char *want[] = {"\"A\"", "\"A\"", "\"C\""};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 3, &err), &err);
  if (f.resolver) expect_datums(&f, want, 3);
  teardown(&f);
  /* Without a reader default an unknown symbol fails when read, not before. */
  const char *strict = "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"C\",\"A\"]}";
  CHECK_OK(setup(&f, writer, strict, datums, 3, &err), &err);
  if (f.resolver) {
    cp_avro_cursor c;
    cp_avro_cursor_init(&c, f.data.data, f.data.len);
    cp_avro_decoder d;
    cp_avro_decoder_init(&d, &c, &f.arena, NULL);
    cp_avro_value v;
    CHECK_OK(cp_avro_resolver_decode(f.resolver, &d, &v, NULL), NULL);
    CHECK_INT(v.u.enum_index, 1);
    CHECK_ERR(cp_avro_resolver_decode(f.resolver, &d, &v, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "enum symbol 'B' is unknown to the reader");
  }
  teardown(&f);
}

static void test_aliases_and_recursion(void) {
  const char *writer = "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"old\",\"type\":"
                       "\"int\"},{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}";
  const char *reader = "{\"type\":\"record\",\"name\":\"M\",\"fields\":[{\"name\":\"renamed\","
                       "\"type\":\"long\",\"aliases\":[\"old\"]},{\"name\":\"next\",\"type\":"
                       "[\"null\",\"M\"]}]}";
  const char *datums[] = {"{\"old\":1,\"next\":{\"old\":2,\"next\":{\"old\":3,\"next\":null}}}"};
  const char *want[] = {
      "{\"renamed\":1,\"next\":{\"renamed\":2,\"next\":{\"renamed\":3,\"next\":null}}}"};
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, writer, reader, datums, 1, &err), &err);
  if (f.resolver) expect_datums(&f, want, 1);
  teardown(&f);
}

static void test_incompatible_schemas(void) {
  struct {
    const char *writer, *reader, *message;
  } cases[] = {
      {"{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"_FILE\",\"type\":{\"type\":"
       "\"record\",\"name\":\"F\",\"fields\":[{\"name\":\"_FILE_SIZE\",\"type\":\"string\"}]}}]}",
       "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"_FILE\",\"type\":{\"type\":"
       "\"record\",\"name\":\"G\",\"fields\":[{\"name\":\"_FILE_SIZE\",\"type\":\"long\"}]}}]}",
       "field _FILE._FILE_SIZE: writer type string cannot be read as long"},
      {"{\"type\":\"record\",\"name\":\"W\",\"fields\":[]}",
       "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"_KIND\",\"type\":\"int\"}]}",
       "field _KIND: missing in the writer schema and has no default"},
      {"{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}",
       "{\"type\":\"fixed\",\"name\":\"F\",\"size\":8}",
       "fixed F of size 4 cannot be read as size 8"},
      {"\"long\"", "\"int\"", "writer type long cannot be read as int"},
      {"\"double\"", "[\"null\",\"float\"]", "writer type double matches no branch"},
      {"{\"type\":\"record\",\"name\":\"W\",\"fields\":[]}",
       "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"q\",\"type\":\"int\","
       "\"default\":\"x\"}]}",
       "field q: default value does not fit type int"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fixture f;
    paimon_error err = {0};
    CHECK_ERR(setup(&f, cases[i].writer, cases[i].reader, NULL, 0, &err), PAIMON_EINVAL);
    CHECK(f.resolver == NULL);
    CHECK_CONTAINS(err.message, cases[i].message);
    teardown(&f);
  }
}

static void test_corrupt_data_through_resolver(void) {
  fixture f;
  paimon_error err = {0};
  CHECK_OK(setup(&f, old_writer, new_reader, NULL, 0, &err), &err);
  if (f.resolver) {
    /* _VERSION 2, then _FILE._ROW_COUNT 5, then a file-name length past the end. */
    uint8_t bad[] = {0x04, 0x0a, 0x20, 'a'};
    cp_avro_cursor c;
    cp_avro_cursor_init(&c, bad, sizeof bad);
    cp_avro_decoder d;
    cp_avro_decoder_init(&d, &c, &f.arena, NULL);
    cp_avro_value v;
    CHECK_ERR(cp_avro_resolver_decode(f.resolver, &d, &v, &err), PAIMON_ECORRUPT);
    CHECK_STR(err.message,
              "field _FILE._FILE_NAME: at byte 2: length 16 exceeds the 1 bytes remaining");
  }
  teardown(&f);
}

int main(void) {
  RUN(test_pypaimon_entry_read_with_java_schema);
  RUN(test_old_writer_missing_fields);
  RUN(test_new_writer_extra_fields_skipped);
  RUN(test_promotions);
  RUN(test_unions);
  RUN(test_union_branch_unreadable_fails_only_when_used);
  RUN(test_enums);
  RUN(test_aliases_and_recursion);
  RUN(test_incompatible_schemas);
  RUN(test_corrupt_data_through_resolver);
  TEST_MAIN_END();
}
