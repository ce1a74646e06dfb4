/*
 * Tests for src/format/avro/value.c and value_json.c: encode/decode of every type against bytes
 * produced by fastavro 1.13.1's schemaless_writer (hex literals below), multi-block and sized
 * arrays, skipping, malformed data (lying counts, bad indexes, truncation, nesting bombs), JSON
 * defaults, and the JSON text used by `cpaimon avro cat`.
 */
#include <math.h>

#include "format/avro/value.h"
#include "test.h"

static size_t unhex(const char *hex, uint8_t *out) {
  size_t n = 0;
  for (; hex[0] && hex[1]; hex += 2) {
    unsigned v;
    sscanf(hex, "%2x", &v);
    out[n++] = (uint8_t)v;
  }
  return n;
}

static cp_avro_schema *parse(const char *text) {
  cp_avro_schema *s = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_avro_schema_parse(&s, text, strlen(text), NULL, &err), &err);
  return s;
}

static const char every_type_schema[] =
    "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
    "{\"name\":\"b\",\"type\":[\"null\",\"string\"]},{\"name\":\"c\",\"type\":{\"type\":\"array\","
    "\"items\":\"long\"}},{\"name\":\"d\",\"type\":{\"type\":\"map\",\"values\":\"boolean\"}},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\",\"Y\",\"Z\"]}},"
    "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
    "{\"name\":\"g\",\"type\":\"bytes\"},{\"name\":\"h\",\"type\":\"double\"},"
    "{\"name\":\"i\",\"type\":\"float\"}]}";

/* fastavro: {'a':-3,'b':'hi','c':[1,-1,300],'d':{'k':True},'e':'Z','f':b'\x01\x02\x03',
 *            'g':b'\x00\xff','h':2.0,'i':-1.0} */
static const char every_type_hex[] =
    "0502046869060201d8040002026b0100040102030400ff0000000000000040000080bf";

static void build_every_type(cp_avro_value *fields, cp_avro_value *items, cp_avro_map_entry *entry,
                             cp_avro_value *str, cp_avro_value *rec) {
  fields[0] = cp_avro_int(-3);
  *str = cp_avro_string("hi");
  fields[1] = cp_avro_branch(1, str);
  items[0] = cp_avro_long(1);
  items[1] = cp_avro_long(-1);
  items[2] = cp_avro_long(300);
  fields[2] = cp_avro_null();
  fields[2].type = CP_AVRO_ARRAY;
  fields[2].u.array.items = items;
  fields[2].u.array.count = 3;
  entry->key = "k";
  entry->key_len = 1;
  entry->value = cp_avro_null();
  entry->value.type = CP_AVRO_BOOLEAN;
  entry->value.u.boolean = true;
  fields[3] = cp_avro_null();
  fields[3].type = CP_AVRO_MAP;
  fields[3].u.map.entries = entry;
  fields[3].u.map.count = 1;
  fields[4] = cp_avro_null();
  fields[4].type = CP_AVRO_ENUM;
  fields[4].u.enum_index = 2;
  fields[5] = cp_avro_bytes_of(CP_AVRO_FIXED, "\x01\x02\x03", 3);
  fields[6] = cp_avro_bytes_of(CP_AVRO_BYTES, "\x00\xff", 2);
  fields[7] = cp_avro_null();
  fields[7].type = CP_AVRO_DOUBLE;
  fields[7].u.f64 = 2.0;
  fields[8] = cp_avro_null();
  fields[8].type = CP_AVRO_FLOAT;
  fields[8].u.f32 = -1.0f;
  *rec = cp_avro_null();
  rec->type = CP_AVRO_RECORD;
  rec->u.record.fields = fields;
  rec->u.record.count = 9;
}

static void test_every_type_round_trip(void) {
  cp_avro_schema *s = parse(every_type_schema);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  cp_avro_value fields[9], items[3], str, rec;
  cp_avro_map_entry entry;
  build_every_type(fields, items, &entry, &str, &rec);
  uint8_t want[128];
  size_t want_len = unhex(every_type_hex, want);
  cp_buf out = CP_BUF_INIT;
  paimon_error err = {0};
  CHECK_OK(cp_avro_encode(root, &rec, &out, &err), &err);
  CHECK_INT(out.len, want_len);
  CHECK(out.len == want_len && memcmp(out.data, want, want_len) == 0);

  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, want, want_len);
  cp_avro_value got;
  CHECK_OK(cp_avro_value_decode(root, &c, &arena, &got, &err), &err);
  CHECK_INT(cp_avro_cursor_remaining(&c), 0);
  CHECK(cp_avro_value_equal(&got, &rec));
  CHECK_INT(got.u.record.fields[0].u.i32, -3);
  CHECK_STR((const char *)got.u.record.fields[1].u.branch.value->u.bytes.data, "hi");
  CHECK_INT(got.u.record.fields[2].u.array.items[2].u.i64, 300);
  CHECK_STR(got.u.record.fields[3].u.map.entries[0].key, "k");
  CHECK_INT(got.u.record.fields[4].u.enum_index, 2);
  CHECK(got.u.record.fields[7].u.f64 == 2.0);
  /* Changing one value must break equality (the comparison is not vacuous). */
  items[1] = cp_avro_long(-2);
  CHECK(!cp_avro_value_equal(&got, &rec));

  /* Skipping consumes exactly one datum. */
  cp_avro_cursor_init(&c, want, want_len);
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &arena, NULL);
  CHECK_OK(cp_avro_skip(&d, root, &err), &err);
  CHECK_INT(cp_avro_cursor_remaining(&c), 0);
  cp_arena_free(&arena);
  cp_buf_free(&out);
  cp_avro_schema_free(s);
}

static void test_all_nulls_record(void) {
  /* fastavro: {'a':0,'b':None,'c':[],'d':{},'e':'X','f':b'abc','g':b'','h':0.0,'i':0.0} */
  cp_avro_schema *s = parse(every_type_schema);
  if (!s) return;
  uint8_t data[64];
  size_t n = unhex("000000000061626300000000000000000000000000", data);
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, data, n);
  cp_avro_value v;
  CHECK_OK(cp_avro_value_decode(cp_avro_schema_root(s), &c, &arena, &v, NULL), NULL);
  CHECK(cp_avro_value_is_null(&v.u.record.fields[1]));
  CHECK(cp_avro_value_unwrap(&v.u.record.fields[1]) == NULL);
  CHECK_INT(v.u.record.fields[2].u.array.count, 0);
  CHECK_INT(v.u.record.fields[3].u.map.count, 0);
  CHECK_INT(v.u.record.fields[6].u.bytes.len, 0);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_encode(cp_avro_schema_root(s), &v, &out, NULL), NULL);
  CHECK(out.len == n && memcmp(out.data, data, n) == 0);
  cp_buf_free(&out);
  cp_arena_free(&arena);
  cp_avro_schema_free(s);
}

static void test_map_and_nullable_items(void) {
  cp_avro_schema *m = parse("{\"type\":\"map\",\"values\":\"long\"}");
  cp_avro_schema *a = parse("{\"type\":\"array\",\"items\":[\"null\",\"long\"]}");
  if (!m || !a) return;
  uint8_t data[32];
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_value v;
  size_t n = unhex("040261020462620300", data); /* fastavro: {'a': 1, 'bb': -2} */
  cp_avro_cursor_init(&c, data, n);
  CHECK_OK(cp_avro_value_decode(cp_avro_schema_root(m), &c, &arena, &v, NULL), NULL);
  CHECK_INT(v.u.map.count, 2);
  CHECK_STR(v.u.map.entries[1].key, "bb");
  CHECK_INT(v.u.map.entries[1].value.u.i64, -2);
  n = unhex("0400020a00", data); /* fastavro: [None, 5] */
  cp_avro_cursor_init(&c, data, n);
  CHECK_OK(cp_avro_value_decode(cp_avro_schema_root(a), &c, &arena, &v, NULL), NULL);
  CHECK_INT(v.u.array.count, 2);
  CHECK(cp_avro_value_is_null(&v.u.array.items[0]));
  CHECK_INT(cp_avro_value_unwrap(&v.u.array.items[1])->u.i64, 5);
  cp_arena_free(&arena);
  cp_avro_schema_free(m);
  cp_avro_schema_free(a);
}

static void test_multi_block_and_sized_arrays(void) {
  cp_avro_schema *s = parse("{\"type\":\"array\",\"items\":\"long\"}");
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  /* Block 1: count -2 with byte size 2 (items 1, 2); block 2: count 1 (item 3); end; then 7f. */
  uint8_t data[] = {0x03, 0x04, 0x02, 0x04, 0x02, 0x06, 0x00, 0x7f};
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, data, sizeof data);
  cp_avro_value v;
  CHECK_OK(cp_avro_value_decode(root, &c, &arena, &v, NULL), NULL);
  CHECK_INT(v.u.array.count, 3);
  CHECK_INT(v.u.array.items[0].u.i64, 1);
  CHECK_INT(v.u.array.items[2].u.i64, 3);
  CHECK_INT(cp_avro_cursor_remaining(&c), 1);
  /* Skipping uses the byte size of the first block and walks the second. */
  cp_avro_cursor_init(&c, data, sizeof data);
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &arena, NULL);
  CHECK_OK(cp_avro_skip(&d, root, NULL), NULL);
  CHECK_INT(cp_avro_cursor_remaining(&c), 1);
  /* Many one-element blocks: the element array grows without quadratic arena use. */
  cp_buf many = CP_BUF_INIT;
  for (int i = 0; i < 10000; i++) {
    cp_avro_write_long(&many, 1, NULL);
    cp_avro_write_long(&many, i, NULL);
  }
  cp_avro_write_long(&many, 0, NULL);
  cp_arena big = CP_ARENA_INIT;
  cp_avro_cursor_init(&c, many.data, many.len);
  CHECK_OK(cp_avro_value_decode(root, &c, &big, &v, NULL), NULL);
  CHECK_INT(v.u.array.count, 10000);
  CHECK_INT(v.u.array.items[9999].u.i64, 9999);
  CHECK(big.total < 4 * 10000 * sizeof(cp_avro_value));
  cp_arena_free(&big);
  cp_buf_free(&many);
  cp_arena_free(&arena);
  cp_avro_schema_free(s);
}

static int decode_hex(const char *schema, const char *hex, paimon_error *err) {
  cp_avro_schema *s = parse(schema);
  if (!s) return -100;
  uint8_t data[64];
  size_t n = unhex(hex, data);
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, data, n);
  cp_avro_value v;
  int rc = cp_avro_value_decode(cp_avro_schema_root(s), &c, &arena, &v, err);
  /* Skipping the same bytes must fail too (it does its own checks). */
  cp_avro_cursor_init(&c, data, n);
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &arena, NULL);
  if (rc) CHECK(cp_avro_skip(&d, cp_avro_schema_root(s), NULL) != 0 || rc == PAIMON_ENOMEM);
  cp_arena_free(&arena);
  cp_avro_schema_free(s);
  return rc;
}

static void test_malformed_data(void) {
  paimon_error err = {0};
  const char *rec = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":"
                    "\"int\"},{\"name\":\"s\",\"type\":{\"type\":\"record\",\"name\":\"S\","
                    "\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}}]}";
  CHECK_ERR(decode_hex(rec, "020a6162", &err), PAIMON_ECORRUPT);
  CHECK_STR(err.message, "field s.name: at byte 1: length 5 exceeds the 2 bytes remaining");
  CHECK_ERR(decode_hex("[\"null\",\"int\"]", "04", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "union branch out of range: 2");
  CHECK_ERR(decode_hex("[\"null\",\"int\"]", "01", &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "union branch out of range: -1");
  CHECK_ERR(decode_hex("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "02", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "enum index out of range: 1");
  CHECK_ERR(decode_hex("{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}", "010203", &err),
            PAIMON_ECORRUPT);
  /* A block claiming 1,000,000 longs in 3 bytes is refused before allocating. */
  CHECK_ERR(decode_hex("{\"type\":\"array\",\"items\":\"long\"}", "80897a0202", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "block of 1000000 elements cannot fit");
  /* Elements of a zero-width type draw on a budget instead: 2^40 nulls is refused. */
  CHECK_ERR(decode_hex("{\"type\":\"array\",\"items\":\"null\"}", "808080808040", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "zero-width elements exceeds the limit");
  /* The most negative count cannot be negated. */
  CHECK_ERR(decode_hex("{\"type\":\"array\",\"items\":\"long\"}", "ffffffffffffffffff01", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "invalid block count");
  /* Sized block whose size runs past the end. */
  CHECK_ERR(decode_hex("{\"type\":\"array\",\"items\":\"long\"}", "03640204", &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "block byte size out of range: 50");
  CHECK_ERR(decode_hex("{\"type\":\"map\",\"values\":\"int\"}", "020a", &err), PAIMON_ECORRUPT);
  CHECK_ERR(decode_hex("\"boolean\"", "05", &err), PAIMON_ECORRUPT);
  /* A small zero-width array is fine. */
  CHECK_OK(decode_hex("{\"type\":\"array\",\"items\":\"null\"}", "0600", &err), &err);
}

static void test_nesting_limit(void) {
  cp_avro_schema *s = parse("{\"type\":\"record\",\"name\":\"N\",\"fields\":[{\"name\":\"next\","
                            "\"type\":[\"null\",\"N\"]}]}");
  if (!s) return;
  /* 1000 levels of "branch 1" then a null: deeper than the default limit of 64. */
  cp_buf b = CP_BUF_INIT;
  for (int i = 0; i < 1000; i++) cp_avro_write_long(&b, 1, NULL);
  cp_avro_write_long(&b, 0, NULL);
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, b.data, b.len);
  cp_avro_value v;
  paimon_error err = {0};
  CHECK_ERR(cp_avro_value_decode(cp_avro_schema_root(s), &c, &arena, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  CHECK_CONTAINS(err.message, "field next.next.next");
  /* Ten levels are fine, and a raised limit admits more. */
  cp_buf_clear(&b);
  for (int i = 0; i < 10; i++) cp_avro_write_long(&b, 1, NULL);
  cp_avro_write_long(&b, 0, NULL);
  cp_avro_cursor_init(&c, b.data, b.len);
  CHECK_OK(cp_avro_value_decode(cp_avro_schema_root(s), &c, &arena, &v, &err), &err);
  cp_avro_cursor_init(&c, b.data, b.len);
  cp_avro_decoder d;
  cp_avro_limits lim = {.max_depth = 5};
  cp_avro_decoder_init(&d, &c, &arena, &lim);
  CHECK_ERR(cp_avro_decode(&d, cp_avro_schema_root(s), &v, &err), PAIMON_ECORRUPT);
  cp_arena_free(&arena);
  cp_buf_free(&b);
  cp_avro_schema_free(s);
}

static void test_encode_mismatch(void) {
  cp_avro_schema *s = parse(every_type_schema);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  cp_avro_value fields[9], items[3], str, rec;
  cp_avro_map_entry entry;
  build_every_type(fields, items, &entry, &str, &rec);
  cp_buf out = CP_BUF_INIT;
  cp_buf_append(&out, "xy", 2, NULL);
  paimon_error err = {0};
  items[1] = cp_avro_int(1); /* an int where the array holds longs */
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field c: value does not fit schema type long: int");
  CHECK_INT(out.len, 2); /* nothing half-written */
  items[1] = cp_avro_long(1);
  fields[1] = cp_avro_branch(2, &str);
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field b:");
  fields[1] = cp_avro_string("bare"); /* a union needs an explicit branch */
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  fields[1] = cp_avro_branch(1, &str);
  fields[5] = cp_avro_bytes_of(CP_AVRO_FIXED, "ab", 2);
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field f: value does not fit schema type F: wrong fixed length");
  fields[5] = cp_avro_bytes_of(CP_AVRO_FIXED, "abc", 3);
  fields[4].u.enum_index = 3;
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  fields[4].u.enum_index = 0;
  rec.u.record.count = 8;
  CHECK_ERR(cp_avro_encode(root, &rec, &out, &err), PAIMON_EINVAL);
  rec.u.record.count = 9;
  CHECK_OK(cp_avro_encode(root, &rec, &out, &err), &err);
  cp_buf_free(&out);
  cp_avro_schema_free(s);
}

static void test_defaults_from_json(void) {
  const char *text =
      "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
      "{\"name\":\"i\",\"type\":\"int\",\"default\":7},"
      "{\"name\":\"b\",\"type\":\"bytes\",\"default\":\"\\u0000A\\u00ff\"},"
      "{\"name\":\"u\",\"type\":[\"null\",\"long\"],\"default\":null},"
      "{\"name\":\"u2\",\"type\":[\"long\",\"null\"],\"default\":5},"
      "{\"name\":\"d\",\"type\":\"double\",\"default\":\"NaN\"},"
      "{\"name\":\"f\",\"type\":\"float\",\"default\":1},"
      "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"P\",\"Q\"]},"
      "\"default\":\"Q\"},"
      "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"string\"},\"default\":[\"x\"]},"
      "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"boolean\"},\"default\":{\"k\":true}}"
      ","
      "{\"name\":\"x\",\"type\":{\"type\":\"fixed\",\"name\":\"X\",\"size\":2},\"default\":\"hi\"}"
      "]}";
  cp_avro_schema *s = parse(text);
  if (!s) return;
  const cp_avro_node *root = cp_avro_schema_root(s);
  cp_arena arena = CP_ARENA_INIT;
  cp_avro_value v[10];
  paimon_error err = {0};
  for (size_t i = 0; i < root->n_fields; i++)
    CHECK_OK(cp_avro_value_from_json(root->fields[i].type, root->fields[i].default_json, &arena,
                                     &v[i], &err),
             &err);
  CHECK_INT(v[0].u.i32, 7);
  CHECK_INT(v[1].u.bytes.len, 3);
  CHECK(memcmp(v[1].u.bytes.data,
               "\x00"
               "A\xff",
               3) == 0);
  CHECK(cp_avro_value_is_null(&v[2]));
  CHECK_INT(v[3].u.branch.index, 0);
  CHECK_INT(v[3].u.branch.value->u.i64, 5);
  CHECK(isnan(v[4].u.f64));
  CHECK(v[5].u.f32 == 1.0f);
  CHECK_INT(v[6].u.enum_index, 1);
  CHECK_STR((const char *)v[7].u.array.items[0].u.bytes.data, "x");
  CHECK_STR(v[8].u.map.entries[0].key, "k");
  CHECK_INT(v[9].u.bytes.len, 2);
  /* A whole record from JSON, fields missing from the object taking their defaults. */
  json_t *j = json_loads("{\"i\": 9}", 0, NULL);
  cp_avro_value r;
  CHECK_OK(cp_avro_value_from_json(root, j, &arena, &r, &err), &err);
  CHECK_INT(r.u.record.fields[0].u.i32, 9);
  CHECK_INT(r.u.record.fields[6].u.enum_index, 1);
  json_decref(j);
  /* Errors. */
  struct {
    const char *schema, *json, *needle;
  } bad[] = {
      {"\"int\"", "3000000000", "expected a 32-bit integer"},
      {"\"bytes\"", "\"\\u0100\"", "code point above U+00FF"},
      {"\"string\"", "1", "expected a string"},
      {"[\"null\",\"long\"]", "\"x\"", "no union branch accepts"},
      {"{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}", "\"ab\"", "differs from the fixed size"},
      {"{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"B\"", "not one of the enum"},
      {"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"q\",\"type\":\"int\"}]}", "{}",
       "neither a value nor a default"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cp_avro_schema *bs = parse(bad[i].schema);
    json_t *bj = json_loads(bad[i].json, JSON_DECODE_ANY, NULL);
    cp_avro_value out;
    if (bs && bj) {
      CHECK_ERR(cp_avro_value_from_json(cp_avro_schema_root(bs), bj, &arena, &out, &err),
                PAIMON_EINVAL);
      CHECK_CONTAINS(err.message, bad[i].needle);
    }
    json_decref(bj);
    cp_avro_schema_free(bs);
  }
  cp_arena_free(&arena);
  cp_avro_schema_free(s);
}

static void test_to_json(void) {
  cp_avro_schema *s = parse(every_type_schema);
  if (!s) return;
  cp_avro_value fields[9], items[3], str, rec;
  cp_avro_map_entry entry;
  build_every_type(fields, items, &entry, &str, &rec);
  fields[6] = cp_avro_bytes_of(CP_AVRO_BYTES,
                               "\x00"
                               "A\"\xff",
                               4);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_value_to_json(cp_avro_schema_root(s), &rec, &out, NULL), NULL);
  cp_buf_nul_terminate(&out, NULL);
  /* Bytes as fastavro's json_writer spells them: "\u0000A\"\u00ff"; the union is unwrapped. */
  CHECK_STR((const char *)out.data,
            "{\"a\":-3,\"b\":\"hi\",\"c\":[1,-1,300],\"d\":{\"k\":true},\"e\":\"Z\","
            "\"f\":\"\\u0001\\u0002\\u0003\",\"g\":\"\\u0000A\\\"\\u00ff\",\"h\":2.0,\"i\":-1.0}");
  cp_avro_schema_free(s);

  s = parse("{\"type\":\"array\",\"items\":[\"null\",\"float\",\"double\",\"string\"]}");
  if (s) {
    cp_avro_value inner[7], its[7], arr = cp_avro_null();
    inner[0] = cp_avro_null();
    inner[1] = cp_avro_null();
    inner[1].type = CP_AVRO_FLOAT;
    inner[1].u.f32 = 0.1f;
    inner[2] = inner[1];
    inner[2].type = CP_AVRO_DOUBLE;
    inner[2].u.f64 = 0.1;
    inner[3] = inner[2];
    inner[3].u.f64 = NAN;
    inner[4] = inner[2];
    inner[4].u.f64 = -INFINITY;
    inner[5] = inner[2];
    inner[5].u.f64 = 1e300;
    inner[6] = cp_avro_string("tab\there \xc3\xa9");
    size_t br[7] = {0, 1, 2, 2, 2, 2, 3};
    for (int i = 0; i < 7; i++) its[i] = cp_avro_branch(br[i], &inner[i]);
    arr.type = CP_AVRO_ARRAY;
    arr.u.array.items = its;
    arr.u.array.count = 7;
    cp_buf_clear(&out);
    CHECK_OK(cp_avro_value_to_json(cp_avro_schema_root(s), &arr, &out, NULL), NULL);
    cp_buf_nul_terminate(&out, NULL);
    CHECK_STR((const char *)out.data,
              "[null,0.1,0.1,NaN,-Infinity,1e+300,\"tab\\there \xc3\xa9\"]");
  }
  cp_avro_schema_free(s);
  cp_buf_free(&out);
}

int main(void) {
  RUN(test_every_type_round_trip);
  RUN(test_all_nulls_record);
  RUN(test_map_and_nullable_items);
  RUN(test_multi_block_and_sized_arrays);
  RUN(test_malformed_data);
  RUN(test_nesting_limit);
  RUN(test_encode_mismatch);
  RUN(test_defaults_from_json);
  RUN(test_to_json);
  TEST_MAIN_END();
}
