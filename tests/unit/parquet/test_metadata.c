/*
 * Tests for format/parquet/metadata.h and footer.h on hand-built input (spec/parquet.md §2.1,
 * §2.6, §2.9, §3.1, §4): encode/decode round trips of a FileMetaData with every modelled field,
 * hand-computed bytes (parquet.thrift field ids + the compact protocol rules), page headers,
 * malformed and truncated metadata, schema-tree validation, and footer framing and validation
 * through the file-I/O seam (files in TMPDIR). Real files are in test_metadata_corpus.c.
 */
#include "format/parquet/metadata.h"

#include <stdint.h>

#include "base/fs.h"
#include "format/parquet/footer.h"
#include "format/parquet/thrift.h"
#include "test.h"

static cp_fs *g_fs;

static int read_footer(const char *path, cp_pq_footer *ft, paimon_error *err) {
  cp_rfile *f;
  int rc = cp_fs_open_read(g_fs, path, &f, err);
  if (rc) return rc;
  rc = cp_pq_footer_read(f, ft, err);
  cp_rfile_close(f);
  return rc;
}

static bool bytes_are(const cp_pq_opt_bytes *b, const char *s, size_t n) {
  return b->is_set && b->len == n && memcmp(b->data, s, n) == 0;
}

/* ---- a hand-built FileMetaData with every modelled field ---- */

enum { RICH_ELEMS = 21, RICH_LEAVES = 16, RICH_RGS = 2, RICH_CHUNK = 100 };
#define RICH_DATA_END (4 + RICH_RGS * RICH_LEAVES * RICH_CHUNK)
#define B 536870911

static cp_pq_schema_element rich_el(const char *name, int type, int rep, int children) {
  cp_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = (char *)name;
  if (type >= 0) e.type = (cp_pq_opt_i32){true, type};
  if (rep >= 0) e.repetition_type = (cp_pq_opt_i32){true, rep};
  if (children >= 0) e.num_children = (cp_pq_opt_i32){true, children};
  return e;
}

static void set_lt(cp_pq_schema_element *e, int kind, int converted) {
  e->logical_type.kind = kind;
  if (converted >= 0) e->converted_type = (cp_pq_opt_i32){true, converted};
}

static void rich_schema(cp_pq_schema_element *el) {
  enum { G = -1 };
  el[0] = rich_el("paimon_schema", G, G, 15);
  el[1] = rich_el("id", CP_PQ_INT64, CP_PQ_REQUIRED, G);
  set_lt(&el[1], CP_PQ_LT_INTEGER, CP_PQ_CT_INT_64);
  el[1].logical_type.integer.bit_width = 64;
  el[1].logical_type.integer.is_signed = true;
  el[1].field_id = (cp_pq_opt_i32){true, 0};
  el[2] = rich_el("name", CP_PQ_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[2], CP_PQ_LT_STRING, CP_PQ_CT_UTF8);
  el[2].field_id = (cp_pq_opt_i32){true, 1};
  el[3] = rich_el("tags", G, CP_PQ_OPTIONAL, 1);
  set_lt(&el[3], CP_PQ_LT_LIST, CP_PQ_CT_LIST);
  el[3].field_id = (cp_pq_opt_i32){true, 2};
  el[4] = rich_el("list", G, CP_PQ_REPEATED, 1);
  el[5] = rich_el("element", CP_PQ_FIXED_LEN_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[5], CP_PQ_LT_DECIMAL, CP_PQ_CT_DECIMAL);
  el[5].logical_type.decimal.scale = 4;
  el[5].logical_type.decimal.precision = 38;
  el[5].scale = (cp_pq_opt_i32){true, 4};
  el[5].precision = (cp_pq_opt_i32){true, 38};
  el[5].type_length = (cp_pq_opt_i32){true, 16};
  el[5].field_id = (cp_pq_opt_i32){true, B + 2 * 1024 + 1};
  el[6] = rich_el("ts", CP_PQ_INT64, CP_PQ_OPTIONAL, G);
  set_lt(&el[6], CP_PQ_LT_TIMESTAMP, -1);
  el[6].logical_type.time.unit = CP_PQ_NANOS;
  el[7] = rich_el("t", CP_PQ_INT32, CP_PQ_REQUIRED, G);
  set_lt(&el[7], CP_PQ_LT_TIME, CP_PQ_CT_TIME_MILLIS);
  el[7].logical_type.time.unit = CP_PQ_MILLIS;
  el[7].logical_type.time.is_adjusted_to_utc = true;
  el[8] = rich_el("u", CP_PQ_FIXED_LEN_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[8], CP_PQ_LT_UUID, -1);
  el[8].type_length = (cp_pq_opt_i32){true, 16};
  el[9] = rich_el("d", CP_PQ_INT32, CP_PQ_OPTIONAL, G);
  set_lt(&el[9], CP_PQ_LT_DATE, CP_PQ_CT_DATE);
  el[10] = rich_el("h", CP_PQ_FIXED_LEN_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[10], CP_PQ_LT_FLOAT16, -1);
  el[10].type_length = (cp_pq_opt_i32){true, 2};
  el[11] = rich_el("n", CP_PQ_INT32, CP_PQ_OPTIONAL, G);
  set_lt(&el[11], CP_PQ_LT_UNKNOWN, -1);
  el[12] = rich_el("j", CP_PQ_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[12], CP_PQ_LT_JSON, CP_PQ_CT_JSON);
  el[13] = rich_el("v", CP_PQ_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[13], CP_PQ_LT_OTHER, -1);
  el[13].logical_type.other_id = 16;
  el[14] = rich_el("e", CP_PQ_BYTE_ARRAY, CP_PQ_REPEATED, G);
  set_lt(&el[14], CP_PQ_LT_ENUM, CP_PQ_CT_ENUM);
  el[15] = rich_el("m", G, CP_PQ_OPTIONAL, 1);
  set_lt(&el[15], CP_PQ_LT_MAP, CP_PQ_CT_MAP);
  el[16] = rich_el("key_value", G, CP_PQ_REPEATED, 2);
  el[16].converted_type = (cp_pq_opt_i32){true, CP_PQ_CT_MAP_KEY_VALUE};
  el[17] = rich_el("key", CP_PQ_BYTE_ARRAY, CP_PQ_REQUIRED, G);
  set_lt(&el[17], CP_PQ_LT_STRING, CP_PQ_CT_UTF8);
  el[18] = rich_el("value", CP_PQ_BOOLEAN, CP_PQ_OPTIONAL, G);
  el[19] = rich_el("b", CP_PQ_BYTE_ARRAY, CP_PQ_OPTIONAL, G);
  set_lt(&el[19], CP_PQ_LT_BSON, CP_PQ_CT_BSON);
  el[20] = rich_el("i8", CP_PQ_INT32, CP_PQ_REQUIRED, G);
  set_lt(&el[20], CP_PQ_LT_INTEGER, CP_PQ_CT_UINT_8);
  el[20].logical_type.integer.bit_width = 8;
}

/* Leaf paths in column order, for path_in_schema. */
static const char *const k_rich_paths[RICH_LEAVES][3] = {{"id"},
                                                         {"name"},
                                                         {"tags", "list", "element"},
                                                         {"ts"},
                                                         {"t"},
                                                         {"u"},
                                                         {"d"},
                                                         {"h"},
                                                         {"n"},
                                                         {"j"},
                                                         {"v"},
                                                         {"e"},
                                                         {"m", "key_value", "key"},
                                                         {"m", "key_value", "value"},
                                                         {"b"},
                                                         {"i8"}};
static const int k_rich_types[RICH_LEAVES] = {CP_PQ_INT64,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_FIXED_LEN_BYTE_ARRAY,
                                              CP_PQ_INT64,
                                              CP_PQ_INT32,
                                              CP_PQ_FIXED_LEN_BYTE_ARRAY,
                                              CP_PQ_INT32,
                                              CP_PQ_FIXED_LEN_BYTE_ARRAY,
                                              CP_PQ_INT32,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_BOOLEAN,
                                              CP_PQ_BYTE_ARRAY,
                                              CP_PQ_INT32};

static void rich_chunk(cp_pq_file_meta *m, cp_pq_column_chunk *ch, uint32_t g, uint32_t k) {
  cp_arena *a = &m->arena;
  memset(ch, 0, sizeof *ch);
  int64_t start = 4 + (int64_t)(g * RICH_LEAVES + k) * RICH_CHUNK;
  ch->file_offset = 0;
  ch->has_meta_data = true;
  cp_pq_column_meta *cm = &ch->meta_data;
  cm->type = k_rich_types[k];
  cm->encodings = cp_arena_alloc(a, 3 * sizeof(int32_t));
  cm->encodings[0] = CP_PQ_ENC_PLAIN;
  cm->encodings[1] = CP_PQ_ENC_RLE;
  cm->encodings[2] = CP_PQ_ENC_RLE_DICTIONARY;
  cm->num_encodings = 3;
  cm->path_len = k_rich_paths[k][1] ? 3 : 1;
  cm->path_in_schema = cp_arena_alloc(a, cm->path_len * sizeof(char *));
  for (uint32_t i = 0; i < cm->path_len; i++)
    cm->path_in_schema[i] = cp_arena_strdup(a, k_rich_paths[k][i]);
  cm->codec = CP_PQ_CODEC_ZSTD;
  cm->num_values = 1000 + k;
  cm->total_uncompressed_size = 150;
  cm->total_compressed_size = RICH_CHUNK;
  cm->data_page_offset = start + 10;
  cm->dictionary_page_offset = (cp_pq_opt_i64){true, start};
  if (k % 2 == 0) {
    cm->key_value_metadata = cp_arena_calloc(a, sizeof(cp_pq_key_value));
    cm->key_value_metadata[0].key = cp_arena_strdup(a, "chunk-key");
    cm->num_key_value_metadata = 1;
    cm->index_page_offset = (cp_pq_opt_i64){true, -5};
    cm->has_statistics = true;
    cp_pq_statistics *st = &cm->statistics;
    st->max = (cp_pq_opt_bytes){true, 5, (const uint8_t *)"\x00\xffmax"};
    st->min = (cp_pq_opt_bytes){true, 4, (const uint8_t *)"\x00min"};
    st->null_count = (cp_pq_opt_i64){true, k};
    st->distinct_count = (cp_pq_opt_i64){true, INT64_MAX - k};
    st->max_value = (cp_pq_opt_bytes){true, 4, (const uint8_t *)"MAXV"};
    st->min_value = (cp_pq_opt_bytes){true, 0, (const uint8_t *)""};
    st->is_max_value_exact = (cp_pq_opt_bool){true, true};
    st->is_min_value_exact = (cp_pq_opt_bool){true, false};
    st->nan_count = (cp_pq_opt_i64){true, 0};
    cm->encoding_stats = cp_arena_calloc(a, 2 * sizeof(cp_pq_page_encoding_stats));
    cm->encoding_stats[0] = (cp_pq_page_encoding_stats){CP_PQ_PAGE_DICTIONARY, 0, 1};
    cm->encoding_stats[1] = (cp_pq_page_encoding_stats){CP_PQ_PAGE_DATA, 8, 7};
    cm->num_encoding_stats = 2;
    cm->bloom_filter_offset = (cp_pq_opt_i64){true, INT64_MIN};
    cm->bloom_filter_length = (cp_pq_opt_i32){true, INT32_MAX};
    ch->offset_index_offset = (cp_pq_opt_i64){true, 123456789012LL};
    ch->offset_index_length = (cp_pq_opt_i32){true, 17};
    ch->column_index_offset = (cp_pq_opt_i64){true, 1};
    ch->column_index_length = (cp_pq_opt_i32){true, -1};
  }
}

/* Fills `m` (whose arena holds everything) with a valid description of a file whose data region
 * is [4, RICH_DATA_END). */
static void build_rich(cp_pq_file_meta *m) {
  cp_pq_file_meta_init(m);
  cp_arena *a = &m->arena;
  m->version = 1;
  m->schema = cp_arena_calloc(a, RICH_ELEMS * sizeof *m->schema);
  rich_schema(m->schema);
  m->num_schema = RICH_ELEMS;
  m->row_groups = cp_arena_calloc(a, RICH_RGS * sizeof *m->row_groups);
  m->num_row_groups = RICH_RGS;
  for (uint32_t g = 0; g < RICH_RGS; g++) {
    cp_pq_row_group *rg = &m->row_groups[g];
    rg->columns = cp_arena_calloc(a, RICH_LEAVES * sizeof *rg->columns);
    rg->num_columns = RICH_LEAVES;
    for (uint32_t k = 0; k < RICH_LEAVES; k++) rich_chunk(m, &rg->columns[k], g, k);
    rg->total_byte_size = 150 * RICH_LEAVES;
    rg->num_rows = g ? 500 : 1000;
    rg->file_offset = (cp_pq_opt_i64){true, 4 + (int64_t)g * RICH_LEAVES * RICH_CHUNK};
    rg->total_compressed_size = (cp_pq_opt_i64){true, RICH_LEAVES * RICH_CHUNK};
    rg->ordinal = (cp_pq_opt_i16){true, (int16_t)g};
  }
  m->num_rows = 1500;
  m->key_value_metadata = cp_arena_calloc(a, 2 * sizeof(cp_pq_key_value));
  m->key_value_metadata[0].key = "ARROW:schema";
  m->key_value_metadata[0].value = (cp_pq_opt_bytes){true, 3, (const uint8_t *)"a\0b"};
  m->key_value_metadata[1].key = "no-value";
  m->num_key_value_metadata = 2;
  m->created_by = "cpaimon version 0.1.0 (build abcdef)";
  m->column_orders = cp_arena_alloc(a, RICH_LEAVES * sizeof(int32_t));
  for (uint32_t k = 0; k < RICH_LEAVES; k++) m->column_orders[k] = k == 3 ? 2 : 1;
  m->num_column_orders = RICH_LEAVES;
}

static void check_rich_decoded(const cp_pq_file_meta *m) {
  CHECK_INT(m->version, 1);
  CHECK_INT(m->num_rows, 1500);
  CHECK_INT(m->num_schema, RICH_ELEMS);
  CHECK_INT(m->num_row_groups, RICH_RGS);
  CHECK_STR(m->created_by, "cpaimon version 0.1.0 (build abcdef)");
  CHECK_INT(m->num_key_value_metadata, 2);
  CHECK(bytes_are(&m->key_value_metadata[0].value, "a\0b", 3));
  CHECK(!m->key_value_metadata[1].value.is_set);
  CHECK_INT(m->num_column_orders, RICH_LEAVES);
  CHECK_INT(m->column_orders[3], 2);
  CHECK(!m->encrypted);
  if (m->num_schema != RICH_ELEMS || m->num_row_groups != RICH_RGS) return;
  const cp_pq_schema_element *el = m->schema;
  CHECK_STR(el[0].name, "paimon_schema");
  CHECK(!el[0].type.is_set && !el[0].repetition_type.is_set && el[0].num_children.value == 15);
  CHECK(el[1].logical_type.kind == CP_PQ_LT_INTEGER && el[1].logical_type.integer.bit_width == 64);
  CHECK(el[1].logical_type.integer.is_signed && el[1].field_id.is_set && el[1].field_id.value == 0);
  CHECK(el[5].logical_type.decimal.scale == 4 && el[5].logical_type.decimal.precision == 38);
  CHECK(el[5].scale.value == 4 && el[5].precision.value == 38 && el[5].type_length.value == 16);
  CHECK_INT(el[5].field_id.value, B + 2049);
  CHECK(el[6].logical_type.kind == CP_PQ_LT_TIMESTAMP &&
        el[6].logical_type.time.unit == CP_PQ_NANOS);
  CHECK(!el[6].logical_type.time.is_adjusted_to_utc && !el[6].converted_type.is_set);
  CHECK(el[7].logical_type.kind == CP_PQ_LT_TIME && el[7].logical_type.time.unit == CP_PQ_MILLIS);
  CHECK(el[7].logical_type.time.is_adjusted_to_utc);
  CHECK_INT(el[7].converted_type.value, CP_PQ_CT_TIME_MILLIS);
  static const int kinds[RICH_ELEMS] = {0, 10, 1, 3, 0, 5,  8, 7, 14, 6, 15, 11, 12, CP_PQ_LT_OTHER,
                                        4, 2,  0, 1, 0, 13, 10};
  for (int i = 0; i < RICH_ELEMS; i++) CHECK_INT(el[i].logical_type.kind, kinds[i]);
  CHECK_INT(el[13].logical_type.other_id, 16);
  CHECK(!el[20].logical_type.integer.is_signed && el[20].logical_type.integer.bit_width == 8);
  CHECK_INT(el[16].converted_type.value, CP_PQ_CT_MAP_KEY_VALUE);
  const cp_pq_row_group *rg = &m->row_groups[1];
  CHECK(rg->num_rows == 500 && rg->total_byte_size == 150 * RICH_LEAVES);
  CHECK(rg->file_offset.value == 4 + RICH_LEAVES * RICH_CHUNK && rg->ordinal.value == 1);
  CHECK(rg->total_compressed_size.value == RICH_LEAVES * RICH_CHUNK);
  CHECK_INT(rg->num_columns, RICH_LEAVES);
  const cp_pq_column_chunk *ch = &rg->columns[2];
  const cp_pq_column_meta *cm = &ch->meta_data;
  CHECK(ch->has_meta_data && ch->file_path == NULL && ch->file_offset == 0);
  CHECK(ch->offset_index_offset.value == 123456789012LL && ch->offset_index_length.value == 17);
  CHECK(ch->column_index_offset.value == 1 && ch->column_index_length.value == -1);
  CHECK(cm->type == CP_PQ_FIXED_LEN_BYTE_ARRAY && cm->num_encodings == 3);
  CHECK(cm->encodings[2] == CP_PQ_ENC_RLE_DICTIONARY);
  CHECK(cm->path_len == 3 && strcmp(cm->path_in_schema[2], "element") == 0);
  CHECK(cm->codec == CP_PQ_CODEC_ZSTD && cm->num_values == 1002);
  CHECK(cm->total_uncompressed_size == 150 && cm->total_compressed_size == RICH_CHUNK);
  CHECK_INT(cm->data_page_offset, 4 + (RICH_LEAVES + 2) * RICH_CHUNK + 10);
  CHECK_INT(cm->dictionary_page_offset.value, 4 + (RICH_LEAVES + 2) * RICH_CHUNK);
  CHECK(cm->index_page_offset.is_set && cm->index_page_offset.value == -5);
  CHECK(cm->num_key_value_metadata == 1 && strcmp(cm->key_value_metadata[0].key, "chunk-key") == 0);
  CHECK(cm->has_statistics);
  const cp_pq_statistics *st = &cm->statistics;
  CHECK(bytes_are(&st->max, "\x00\xffmax", 5) && bytes_are(&st->min, "\x00min", 4));
  CHECK(st->null_count.value == 2 && st->distinct_count.value == INT64_MAX - 2);
  CHECK(bytes_are(&st->max_value, "MAXV", 4) && bytes_are(&st->min_value, "", 0));
  CHECK(st->is_max_value_exact.is_set && st->is_max_value_exact.value);
  CHECK(st->is_min_value_exact.is_set && !st->is_min_value_exact.value);
  CHECK(st->nan_count.is_set && st->nan_count.value == 0);
  CHECK(cm->num_encoding_stats == 2 && cm->encoding_stats[1].encoding == 8);
  CHECK(cm->encoding_stats[1].count == 7 && cm->encoding_stats[0].page_type == 2);
  CHECK(cm->bloom_filter_offset.value == INT64_MIN && cm->bloom_filter_length.value == INT32_MAX);
  /* Odd columns were built without the optional parts. */
  const cp_pq_column_chunk *odd = &rg->columns[3];
  CHECK(!odd->meta_data.has_statistics && odd->meta_data.num_encoding_stats == 0);
  CHECK(!odd->meta_data.index_page_offset.is_set && !odd->offset_index_offset.is_set);
  CHECK(!odd->meta_data.bloom_filter_offset.is_set && odd->meta_data.num_key_value_metadata == 0);
}

static void test_rich_round_trip(void) {
  paimon_error err;
  cp_pq_file_meta m, d;
  build_rich(&m);
  cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
  CHECK_OK(cp_pq_file_meta_encode(&m, &a, &err), &err);
  CHECK_OK(cp_pq_file_meta_decode(&d, a.data, a.len, 0, &err), &err);
  check_rich_decoded(&d);
  CHECK_OK(cp_pq_file_meta_encode(&d, &b, &err), &err);
  CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
  /* Decoded binaries are copies (input can go away) and NUL-terminated. */
  const cp_pq_opt_bytes *mx = &d.row_groups[0].columns[0].meta_data.statistics.max_value;
  CHECK(mx->data < a.data || mx->data >= a.data + a.len);
  CHECK(mx->data[mx->len] == '\0');
  /* The schema tree of the decoded metadata. */
  cp_pq_schema s;
  CHECK_OK(cp_pq_schema_build(&s, d.schema, d.num_schema, &err), &err);
  CHECK_INT(s.num_leaves, RICH_LEAVES);
  for (uint32_t k = 0; k < s.num_leaves && k < RICH_LEAVES; k++)
    CHECK_INT(s.leaves[k]->element->type.value, k_rich_types[k]);
  /* spec §3.2: optional list, repeated group, optional element -> max_def 3, max_rep 1. */
  CHECK_STR(s.leaves[2]->path_str, "tags.list.element");
  CHECK(s.leaves[2]->max_def == 3 && s.leaves[2]->max_rep == 1);
  CHECK(s.leaves[11]->max_def == 1 && s.leaves[11]->max_rep == 1); /* repeated leaf */
  CHECK(s.leaves[12]->max_def == 2 && s.leaves[12]->max_rep == 1); /* required map key */
  CHECK(s.leaves[13]->max_def == 3 && s.leaves[13]->max_rep == 1); /* optional map value */
  CHECK(s.leaves[0]->max_def == 0 && s.leaves[1]->max_def == 1);
  CHECK_INT(s.nodes[0].num_children, 15);
  CHECK(s.leaves[13]->parent == s.leaves[12]->parent);
  cp_pq_schema_free(&s);
  /* Validation passes for the file this metadata describes. */
  CHECK_OK(cp_pq_schema_build(&s, m.schema, m.num_schema, &err), &err);
  CHECK_OK(cp_pq_file_meta_validate(&m, &s, RICH_DATA_END, "rich.parquet", &err), &err);
  cp_pq_schema_free(&s);
  cp_pq_file_meta_free(&d);
  cp_pq_file_meta_free(&m);
  cp_buf_free(&a);
  cp_buf_free(&b);
}

/* FileMetaData {version 1, schema [root{children 1}, required int32 "a"], num_rows 0, []}, by hand
 * from parquet.thrift ids and the compact protocol rules. */
static const uint8_t k_tiny_meta[] = {0x15, 0x02, /* 1: version i32 = 1 */
                                      0x19, 0x2c, /* 2: schema list<struct>, 2 elements */
                                      0x48, 0x06, 's',  'c',  'h', 'e', 'm', 'a', /*   4: name */
                                      0x15, 0x02, 0x00,       /*   5: num_children = 1, STOP */
                                      0x15, 0x02,             /*   1: type = INT32 */
                                      0x25, 0x00,             /*   3: repetition_type = REQUIRED */
                                      0x18, 0x01, 'a',  0x00, /*   4: name, STOP */
                                      0x16, 0x00,             /* 3: num_rows i64 = 0 */
                                      0x19, 0x0c, /* 4: row_groups, empty list<struct> */
                                      0x00};

static void test_tiny_meta_bytes(void) {
  paimon_error err;
  cp_pq_file_meta m;
  cp_pq_file_meta_init(&m);
  cp_pq_schema_element el[2];
  el[0] = rich_el("schema", -1, -1, 1);
  el[1] = rich_el("a", CP_PQ_INT32, CP_PQ_REQUIRED, -1);
  m.version = 1;
  m.schema = el;
  m.num_schema = 2;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_file_meta_encode(&m, &b, &err), &err);
  CHECK(b.len == sizeof k_tiny_meta && memcmp(b.data, k_tiny_meta, b.len) == 0);
  /* The footer adds the 4-byte LE length and the magic. */
  CHECK_OK(cp_pq_footer_write(&m, &b, &err), &err);
  CHECK_INT(b.len, 2 * sizeof k_tiny_meta + 8);
  const uint8_t *t = b.data + b.len - 8;
  CHECK(t[0] == sizeof k_tiny_meta && t[1] == 0 && t[2] == 0 && t[3] == 0);
  CHECK(memcmp(t + 4, "PAR1", 4) == 0);
  cp_buf_free(&b);

  cp_pq_file_meta d;
  CHECK_OK(cp_pq_file_meta_decode(&d, k_tiny_meta, sizeof k_tiny_meta, 0, &err), &err);
  CHECK(d.num_schema == 2 && d.num_row_groups == 0 && d.created_by == NULL);
  CHECK_STR(d.schema[1].name, "a");
  CHECK(!d.schema[1].num_children.is_set && d.schema[1].repetition_type.is_set);
  cp_pq_file_meta_free(&d);
  cp_pq_file_meta_free(&m); /* safe on a meta whose arena is empty */
}

/* ---- page headers ---- */

/* PageHeader {type DATA_PAGE, uncompressed 100, compressed 50, DataPageHeader {10 values, PLAIN,
 * RLE, RLE}}, by hand: zigzag(100) = 200 = c8 01, zigzag(50) = 0x64, zigzag(10) = 0x14. */
static const uint8_t k_v1_header[] = {0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x2c, 0x15,
                                      0x14, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00};

static void test_page_header_round_trips(void) {
  paimon_error err;
  cp_pq_page_header h, d;
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA;
  h.uncompressed_page_size = 100;
  h.compressed_page_size = 50;
  h.has_data_page_header = true;
  h.data_page_header.num_values = 10;
  h.data_page_header.encoding = CP_PQ_ENC_PLAIN;
  h.data_page_header.definition_level_encoding = CP_PQ_ENC_RLE;
  h.data_page_header.repetition_level_encoding = CP_PQ_ENC_RLE;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_page_header_encode(&h, &b, &err), &err);
  CHECK(b.len == sizeof k_v1_header && memcmp(b.data, k_v1_header, b.len) == 0);

  /* With statistics and a CRC; the decoded statistics point into the input. */
  h.crc = (cp_pq_opt_i32){true, (int32_t)0xdeadbeef};
  h.data_page_header.has_statistics = true;
  h.data_page_header.statistics.min_value = (cp_pq_opt_bytes){true, 2, (const uint8_t *)"lo"};
  h.data_page_header.statistics.null_count = (cp_pq_opt_i64){true, 3};
  cp_buf_clear(&b);
  CHECK_OK(cp_pq_page_header_encode(&h, &b, &err), &err);
  CHECK_OK(cp_buf_append(&b, "PAGEBYTES", 9, &err), &err); /* the body follows the header */
  size_t hl = 0;
  CHECK_OK(cp_pq_page_header_decode(&d, b.data, b.len, 1000, &hl, NULL, &err), &err);
  CHECK_INT(hl, b.len - 9);
  CHECK(d.crc.is_set && (uint32_t)d.crc.value == 0xdeadbeefu);
  CHECK(d.has_data_page_header && d.data_page_header.num_values == 10);
  CHECK(d.data_page_header.definition_level_encoding == CP_PQ_ENC_RLE);
  const cp_pq_opt_bytes *mv = &d.data_page_header.statistics.min_value;
  CHECK(mv->len == 2 && mv->data > b.data && mv->data < b.data + hl);
  CHECK(d.data_page_header.statistics.null_count.value == 3);
  CHECK(!d.has_dictionary_page_header && !d.has_data_page_header_v2 && !d.has_index_page_header);

  /* Dictionary page. */
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DICTIONARY;
  h.uncompressed_page_size = h.compressed_page_size = 7;
  h.has_dictionary_page_header = true;
  h.dictionary_page_header = (cp_pq_dictionary_page_header){3, CP_PQ_ENC_PLAIN, {true, true}};
  cp_buf_clear(&b);
  CHECK_OK(cp_pq_page_header_encode(&h, &b, &err), &err);
  CHECK_OK(cp_pq_page_header_decode(&d, b.data, b.len, 0, &hl, NULL, &err), &err);
  CHECK(d.has_dictionary_page_header && d.dictionary_page_header.num_values == 3);
  CHECK(d.dictionary_page_header.is_sorted.is_set && d.dictionary_page_header.is_sorted.value);

  cp_buf_free(&b);
}

static void test_page_header_v2_index_and_errors(void) {
  paimon_error err;
  cp_pq_page_header h, d;
  cp_buf b = CP_BUF_INIT;
  size_t hl = 0;
  /* v2 with is_compressed false survives; without field 7 it defaults to true. */
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_DATA_V2;
  h.has_data_page_header_v2 = true;
  cp_pq_data_page_header_v2 *hv = &h.data_page_header_v2;
  hv->num_values = 8;
  hv->num_nulls = 2;
  hv->num_rows = 4;
  hv->encoding = CP_PQ_ENC_RLE_DICTIONARY;
  hv->definition_levels_byte_length = 5;
  hv->repetition_levels_byte_length = 3;
  hv->is_compressed = false;
  cp_buf_clear(&b);
  CHECK_OK(cp_pq_page_header_encode(&h, &b, &err), &err);
  CHECK_OK(cp_pq_page_header_decode(&d, b.data, b.len, 0, &hl, NULL, &err), &err);
  const cp_pq_data_page_header_v2 *v2 = &d.data_page_header_v2;
  CHECK(d.has_data_page_header_v2 && v2->num_values == 8 && v2->num_nulls == 2);
  CHECK(v2->num_rows == 4 && v2->encoding == 8 && v2->definition_levels_byte_length == 5);
  CHECK(v2->repetition_levels_byte_length == 3 && !v2->is_compressed);
  /* 1: type 3; 2, 3: sizes 0; 8: DataPageHeaderV2 with fields 1-6 only. */
  static const uint8_t v2_default[] = {0x15, 0x06, 0x15, 0x00, 0x15, 0x00, 0x5c,
                                       0x15, 0x02, 0x15, 0x00, 0x15, 0x02, 0x15,
                                       0x00, 0x15, 0x00, 0x15, 0x00, 0x00, 0x00};
  CHECK_OK(cp_pq_page_header_decode(&d, v2_default, sizeof v2_default, 0, &hl, NULL, &err), &err);
  CHECK(d.has_data_page_header_v2 && d.data_page_header_v2.is_compressed);
  CHECK_INT(hl, sizeof v2_default);

  /* Index page: an empty struct, only its presence matters. */
  memset(&h, 0, sizeof h);
  h.type = CP_PQ_PAGE_INDEX;
  h.has_index_page_header = true;
  cp_buf_clear(&b);
  CHECK_OK(cp_pq_page_header_encode(&h, &b, &err), &err);
  CHECK_OK(cp_pq_page_header_decode(&d, b.data, b.len, 0, &hl, NULL, &err), &err);
  CHECK(d.has_index_page_header && d.type == CP_PQ_PAGE_INDEX);

  /* DataPageHeader without repetition_level_encoding (field 4): a required field is missing. */
  static const uint8_t missing[] = {0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x2c, 0x15,
                                    0x02, 0x15, 0x00, 0x15, 0x06, 0x00, 0x00};
  CHECK_ERR(cp_pq_page_header_decode(&d, missing, sizeof missing, 4096, &hl, NULL, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "PageHeader.data_page_header");
  CHECK_CONTAINS(err.message, "required field 4 (repetition_level_encoding) is missing");
  CHECK_CONTAINS(err.message, "byte 4110");
  cp_buf_free(&b);
}

/* ---- malformed FileMetaData ---- */

static void test_malformed_meta(void) {
  paimon_error err;
  cp_pq_file_meta m;
  CHECK_ERR(cp_pq_file_meta_decode(&m, NULL, 0, 0, &err), PAIMON_ECORRUPT);
  CHECK(m.schema == NULL && m.arena.head == NULL);

  /* num_rows (field 3) missing. */
  static const uint8_t no_rows[] = {0x15, 0x02, 0x19, 0x1c, 0x48, 0x01,
                                    'r',  0x00, 0x29, 0x0c, 0x00};
  CHECK_ERR(cp_pq_file_meta_decode(&m, no_rows, sizeof no_rows, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "FileMetaData: required field 3 (num_rows) is missing");

  /* version (required i32) sent as binary. */
  static const uint8_t bad_version[] = {0x18, 0x01, 'x', 0x00};
  CHECK_ERR(cp_pq_file_meta_decode(&m, bad_version, sizeof bad_version, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "version (field 1) has type binary, expected i32");

  /* A schema element whose name (required) is an i32. */
  static const uint8_t bad_name[] = {0x15, 0x02, 0x19, 0x1c, 0x45, 0x02, 0x00};
  CHECK_ERR(cp_pq_file_meta_decode(&m, bad_name, sizeof bad_name, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "FileMetaData.schema[0]");
  CHECK_CONTAINS(err.message, "name (field 4) has type i32");

  /* Optional fields with another type are skipped (libthrift behaviour), unknown ids of every
   * type too: created_by as i32, then ids 20.. with double, uuid, set, map of lists, a struct
   * holding a bool list, and a bool field. */
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&b, k_tiny_meta, sizeof k_tiny_meta - 1, &err), &err);
  static const uint8_t extra[] = {
      0x25, 0x0e,                                           /* 6: created_by as i32 7 */
      0xe7, 0,    0,    0,    0,    0,    0,    0xf0, 0x3f, /* 20: double 1.0 */
      0x1d, 0,    1,    2,    3,    4,    5,    6,    7,
      8,    9,    10,   11,   12,   13,   14,   15, /* 21: uuid */
      0x1a, 0x25, 0x05, 0x06,                       /* 22: set<i32>{-3, 3} */
      0x1b, 0x01, 0x89, 0x01, 'k',  0x15, 0x02,     /* 23: map<binary, list<i32>> */
      0x1c, 0x19, 0x11, 0x01, 0x00,                 /* 24: struct { 1: list<bool>[true] } */
      0x11,                                         /* 25: bool true */
      0x00};
  CHECK_OK(cp_buf_append(&b, extra, sizeof extra, &err), &err);
  CHECK_OK(cp_pq_file_meta_decode(&m, b.data, b.len, 0, &err), &err);
  CHECK(m.created_by == NULL && m.num_schema == 2);
  cp_pq_file_meta_free(&m);

  /* 1000 row groups claimed in 12 bytes: refused by the thrift reader before any allocation. */
  b.len = 0;
  CHECK_OK(cp_buf_append(&b, k_tiny_meta, sizeof k_tiny_meta - 3, &err), &err);
  static const uint8_t many[] = {0x19, 0xfc, 0xe8, 0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_OK(cp_buf_append(&b, many, sizeof many, &err), &err);
  CHECK_ERR(cp_pq_file_meta_decode(&m, b.data, b.len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "FileMetaData.row_groups");
  CHECK_CONTAINS(err.message, "list of 1000 struct elements cannot fit in the 12 bytes left");
  /* 20 row groups in 40 bytes pass that check, but a RowGroup takes at least 7 bytes. */
  b.len = sizeof k_tiny_meta - 3;
  CHECK_OK(cp_buf_append(&b, (const uint8_t[]){0x19, 0xfc, 0x14}, 3, &err), &err);
  CHECK_OK(cp_buf_append_zeros(&b, 40, &err), &err);
  CHECK_ERR(cp_pq_file_meta_decode(&m, b.data, b.len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "of 20 structs cannot fit in the 40 bytes left");

  /* Deep nesting inside an unknown field. */
  b.len = 0;
  CHECK_OK(cp_buf_append(&b, k_tiny_meta, sizeof k_tiny_meta - 1, &err), &err);
  CHECK_OK(cp_buf_append(&b, (const uint8_t[]){0xfc}, 1, &err), &err); /* field 19 struct */
  for (int i = 0; i < 200; i++) CHECK_OK(cp_buf_append(&b, (const uint8_t[]){0x1c}, 1, &err), &err);
  CHECK_ERR(cp_pq_file_meta_decode(&m, b.data, b.len, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 64");

  /* Lists whose elements have the wrong type. */
  static const uint8_t bad_list[] = {0x15, 0x02, 0x19, 0x25, 0x02, 0x04, 0x00};
  CHECK_ERR(cp_pq_file_meta_decode(&m, bad_list, sizeof bad_list, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "has i32 elements, expected struct");
  cp_buf_free(&b);
}

/* Every prefix of a rich footer fails cleanly, also with no error struct; random corruptions never
 * crash (ASan/UBSan builds check the memory side). */
static void test_meta_truncations_and_mutations(void) {
  paimon_error err;
  cp_pq_file_meta m, d;
  build_rich(&m);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_file_meta_encode(&m, &b, &err), &err);
  int bad = 0;
  for (size_t len = 0; len < b.len; len++) {
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, b.data, len);
    if (cp_pq_file_meta_decode(&d, copy, len, 0, len % 2 ? &err : NULL) == 0) bad++;
    free(copy);
  }
  CHECK_INT(bad, 0);
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  int decoded = 0;
  for (int i = 0; i < 3000; i++) {
    uint8_t *copy = malloc(b.len);
    memcpy(copy, b.data, b.len);
    for (int k = 0; k < 1 + i % 4; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      copy[x % b.len] = (uint8_t)(x >> 32);
    }
    if (cp_pq_file_meta_decode(&d, copy, b.len, 0, &err) == 0) {
      decoded++;
      cp_pq_schema s;
      if (cp_pq_schema_build(&s, d.schema, d.num_schema, &err) == 0) {
        cp_pq_file_meta_validate(&d, &s, RICH_DATA_END, "mutant", &err);
        cp_pq_schema_free(&s);
      }
      cp_pq_file_meta_free(&d);
    }
    free(copy);
  }
  CHECK(decoded > 0); /* many single-byte changes only alter values */
  cp_buf_free(&b);
  cp_pq_file_meta_free(&m);
}

/* ---- schema tree validation ---- */

static int build_schema(cp_pq_schema_element *el, uint32_t n, paimon_error *err) {
  cp_pq_schema s;
  int rc = cp_pq_schema_build(&s, el, n, err);
  if (rc == 0) cp_pq_schema_free(&s);
  return rc;
}

static void test_schema_validation(void) {
  paimon_error err;
  cp_pq_schema_element el[4];
  CHECK_ERR(build_schema(el, 0, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "no elements");

  /* spec §3.1 ROW example: optional group s { optional int32 a; required int32 b; }. */
  el[0] = rich_el("root", -1, -1, 1);
  el[1] = rich_el("s", -1, CP_PQ_OPTIONAL, 2);
  el[2] = rich_el("a", CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  el[3] = rich_el("b", CP_PQ_INT32, CP_PQ_REQUIRED, -1);
  cp_pq_schema s;
  CHECK_OK(cp_pq_schema_build(&s, el, 4, &err), &err);
  CHECK(s.num_leaves == 2 && s.leaves[0]->max_def == 2 && s.leaves[1]->max_def == 1);
  CHECK(s.leaves[0]->max_rep == 0 && s.leaves[1]->leaf_index == 1);
  CHECK_STR(s.leaves[1]->path_str, "s.b");
  CHECK(s.leaves[1]->element == &el[3] && s.leaves[1]->element_index == 3);
  cp_pq_schema_free(&s);

  /* The root's repetition is ignored (some writers set REQUIRED, some REPEATED). */
  el[0].repetition_type = (cp_pq_opt_i32){true, CP_PQ_REPEATED};
  CHECK_OK(cp_pq_schema_build(&s, el, 4, &err), &err);
  CHECK(s.leaves[1]->max_def == 1 && s.leaves[1]->max_rep == 0);
  cp_pq_schema_free(&s);
}

static void test_schema_invalid(void) {
  paimon_error err;
  cp_pq_schema_element el[4];
  cp_pq_schema s;
  /* A root with no children is an empty (but valid) schema. */
  el[0] = rich_el("root", -1, -1, 0);
  CHECK_OK(cp_pq_schema_build(&s, el, 1, &err), &err);
  CHECK_INT(s.num_leaves, 0);
  cp_pq_schema_free(&s);

  el[0] = rich_el("root", CP_PQ_INT32, -1, -1); /* root is a leaf */
  CHECK_ERR(build_schema(el, 1, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "root (root) is not a group");

  el[0] = rich_el("root", -1, -1, 3); /* 3 children, 2 elements follow */
  el[1] = rich_el("a", CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  el[2] = rich_el("b", CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  CHECK_ERR(build_schema(el, 3, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "declares 3 children but only 2 elements follow");

  el[0] = rich_el("root", -1, -1, 1); /* one element left over */
  CHECK_ERR(build_schema(el, 3, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "1 elements after the root's last child (element 2)");

  el[0] = rich_el("root", -1, -1, 2);
  el[1] = rich_el("g", -1, CP_PQ_OPTIONAL, 1); /* group g runs out of elements */
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_ECORRUPT);

  el[0] = rich_el("root", -1, -1, 1);
  el[1] = rich_el("x", -1, CP_PQ_OPTIONAL, -1); /* neither type nor children */
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "element 1 (x) has neither a physical type nor children");

  el[1].num_children = (cp_pq_opt_i32){true, -4};
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "has -4 children");

  el[1] = rich_el("f", CP_PQ_FIXED_LEN_BYTE_ARRAY, CP_PQ_OPTIONAL, -1);
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "FIXED_LEN_BYTE_ARRAY without a valid type_length");

  el[1] = rich_el("f", 8, CP_PQ_OPTIONAL, -1);
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "unknown physical type 8");

  el[1] = rich_el("f", CP_PQ_INT32, 3, -1);
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "repetition type 3");

  el[1] = rich_el(NULL, CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  CHECK_ERR(build_schema(el, 2, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "element 1 has no name");

  /* A repetition type may be missing on a non-root node: treated as REQUIRED, like Arrow. */
  el[1] = rich_el("f", CP_PQ_INT32, -1, -1);
  CHECK_OK(cp_pq_schema_build(&s, el, 2, &err), &err);
  CHECK(s.leaves[0]->repetition == CP_PQ_REQUIRED && s.leaves[0]->max_def == 0);
  cp_pq_schema_free(&s);
}

static void test_schema_depth_limit(void) {
  paimon_error err;
  cp_pq_schema s;
  /* Depth: a chain of 101 optional groups is refused; 99 is accepted. */
  enum { DEEP = 103 };
  cp_pq_schema_element *chain = calloc(DEEP, sizeof *chain);
  for (int i = 0; i < DEEP - 1; i++) chain[i] = rich_el("g", -1, i ? CP_PQ_OPTIONAL : -1, 1);
  chain[DEEP - 1] = rich_el("leaf", CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  CHECK_ERR(build_schema(chain, DEEP, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "nested deeper than 100");
  chain[99] = rich_el("leaf", CP_PQ_INT32, CP_PQ_OPTIONAL, -1);
  CHECK_OK(cp_pq_schema_build(&s, chain, 100, &err), &err);
  CHECK(s.num_leaves == 1 && s.leaves[0]->max_def == 99 && s.leaves[0]->depth == 99);
  CHECK_INT(s.leaves[0]->path_len, 99);
  cp_pq_schema_free(&s);
  free(chain);
}

/* ---- footer reading through the fs seam, and validation ---- */

static const char *tmp_path(const char *name) {
  static char path[1024];
  const char *dir = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/pqmeta_%s", dir && *dir ? dir : "/tmp", name);
  return path;
}

/* "PAR1", zeros up to `data_end`, then the footer of `m`. */
static void make_file(const cp_pq_file_meta *m, size_t data_end, cp_buf *out) {
  paimon_error err;
  out->len = 0;
  CHECK_OK(cp_buf_append(out, "PAR1", 4, &err), &err);
  CHECK_OK(cp_buf_append_zeros(out, data_end - 4, &err), &err);
  CHECK_OK(cp_pq_footer_write(m, out, &err), &err);
}

static int write_and_read(const char *name, const cp_buf *file, cp_pq_footer *ft,
                          paimon_error *err) {
  const char *path = tmp_path(name);
  int rc = cp_fs_write_file(g_fs, path, file->data, file->len, CP_CREATE_OVERWRITE, false, err);
  return rc ? rc : read_footer(path, ft, err);
}

static void test_footer_write_and_read(void) {
  paimon_error err;
  cp_pq_file_meta m;
  build_rich(&m);
  cp_buf file = CP_BUF_INIT;
  make_file(&m, RICH_DATA_END, &file);
  cp_pq_footer ft;
  uint64_t reads = cp_fs_op_count(g_fs, CP_FS_OP_READ);
  CHECK_OK(write_and_read("rich.parquet", &file, &ft, &err), &err);
  CHECK_INT(cp_fs_op_count(g_fs, CP_FS_OP_READ) - reads, 1); /* small file: one ranged read */
  check_rich_decoded(&ft.meta);
  CHECK_INT(ft.file_size, file.len);
  CHECK_INT(ft.metadata_offset, RICH_DATA_END);
  CHECK_INT(ft.metadata_len, file.len - RICH_DATA_END - 8);
  CHECK_INT(ft.schema.num_leaves, RICH_LEAVES);
  cp_pq_footer_free(&ft);
  CHECK_OK(cp_pq_footer_parse(file.data, file.len, "mem.parquet", &ft, &err), &err);
  check_rich_decoded(&ft.meta);
  cp_pq_footer_free(&ft);

  /* A footer larger than the 64 KiB tail read: tail, leading magic, then the footer itself. */
  enum { BIG = 100 * 1024 };
  uint8_t *big = malloc(BIG);
  for (size_t i = 0; i < BIG; i++) big[i] = (uint8_t)('a' + i % 26);
  m.key_value_metadata[0].value = (cp_pq_opt_bytes){true, BIG, big};
  make_file(&m, RICH_DATA_END, &file);
  reads = cp_fs_op_count(g_fs, CP_FS_OP_READ);
  CHECK_OK(write_and_read("big_footer.parquet", &file, &ft, &err), &err);
  CHECK_INT(cp_fs_op_count(g_fs, CP_FS_OP_READ) - reads, 3);
  const cp_pq_opt_bytes *v = &ft.meta.key_value_metadata[0].value;
  CHECK(v->len == BIG && memcmp(v->data, big, BIG) == 0);
  cp_pq_footer_free(&ft);

  /* I/O failures from the seam come back unchanged: the tail, the magic and the footer read. */
  for (int nth = 1; nth <= 3; nth++) {
    cp_fs_inject_fault(g_fs, CP_FS_OP_READ, nth, PAIMON_EIO);
    CHECK_ERR(read_footer(tmp_path("big_footer.parquet"), &ft, &err), PAIMON_EIO);
    cp_fs_inject_fault(g_fs, CP_FS_OP_READ, 0, 0);
  }
  CHECK(ft.meta.arena.head == NULL && ft.schema.nodes == NULL);
  free(big);

  /* A large file with a small footer: the tail read plus one for the leading magic. */
  cp_pq_file_meta tiny;
  CHECK_OK(cp_pq_file_meta_decode(&tiny, k_tiny_meta, sizeof k_tiny_meta, 0, &err), &err);
  make_file(&tiny, 200 * 1024, &file);
  reads = cp_fs_op_count(g_fs, CP_FS_OP_READ);
  CHECK_OK(write_and_read("large_file.parquet", &file, &ft, &err), &err);
  CHECK_INT(cp_fs_op_count(g_fs, CP_FS_OP_READ) - reads, 2);
  CHECK_INT(ft.schema.num_leaves, 1);
  cp_pq_footer_free(&ft);
  /* ... whose leading magic is damaged. */
  memcpy(file.data, "PAR0", 4);
  CHECK_ERR(write_and_read("large_file.parquet", &file, &ft, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "pqmeta_large_file.parquet: not a Parquet file: bytes at offset 0");
  cp_pq_file_meta_free(&tiny);
  cp_pq_file_meta_free(&m);
  cp_buf_free(&file);
}

static void test_footer_framing_errors(void) {
  paimon_error err;
  cp_pq_footer ft;
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"PAR1PAR1abc", 11, "f.parquet", &ft, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "f.parquet: 11 bytes is too small");
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"PAR1\0\0\0\0PAR1", 12, "f.parquet", &ft, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "f.parquet: parquet footer");
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"PAR1\0\0\0\0PAR2", 12, "f.parquet", &ft, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "bytes at offset 8 are not the PAR1 magic");
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"PAR1\0\0\0\0PARE", 12, "f.parquet", &ft, &err),
            PAIMON_EUNSUPPORTED);
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"PAR1\x05\0\0\0PAR1", 12, "f.parquet", &ft, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "footer length 5 (at offset 4) exceeds the 0 bytes");
  CHECK_ERR(cp_pq_footer_parse((const uint8_t *)"XXXX\0\0\0\0PAR1", 12, "f.parquet", &ft, &err),
            PAIMON_ECORRUPT);
  /* Through the seam: a file of 3 bytes, and a missing file. */
  cp_buf three = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&three, "PAR", 3, &err), &err);
  CHECK_ERR(write_and_read("three.parquet", &three, &ft, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "pqmeta_three.parquet: 3 bytes is too small");
  CHECK(read_footer(tmp_path("does_not_exist.parquet"), &ft, &err) != 0);
  cp_buf_free(&three);
  /* A decode error carries the file offset of the bad byte: here the footer starts at 4. */
  static const uint8_t bad[] = {'P', 'A', 'R', '1', 0x18, 0x01, 'x', 0x00,
                                4,   0,   0,   0,   'P',  'A',  'R', '1'};
  CHECK_ERR(cp_pq_footer_parse(bad, sizeof bad, "g.parquet", &ft, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "g.parquet: parquet footer: FileMetaData.version");
  CHECK_CONTAINS(err.message, "at byte 5");
}

typedef void (*mutate_fn)(cp_pq_file_meta *m);

static void expect_invalid(mutate_fn mutate, int code, const char *needle) {
  paimon_error err;
  cp_pq_file_meta m;
  cp_pq_schema s;
  build_rich(&m);
  mutate(&m);
  CHECK_OK(cp_pq_schema_build(&s, m.schema, m.num_schema, &err), &err);
  int rc = cp_pq_file_meta_validate(&m, &s, RICH_DATA_END, "v.parquet", &err);
  CHECK_INT(rc, code);
  if (code) {
    CHECK_CONTAINS(err.message, "v.parquet: ");
    CHECK_CONTAINS(err.message, needle);
  }
  cp_pq_schema_free(&s);
  cp_pq_file_meta_free(&m);
}

static cp_pq_column_meta *cmeta(cp_pq_file_meta *m, int g, int c) {
  return &m->row_groups[g].columns[c].meta_data;
}
static void mut_columns(cp_pq_file_meta *m) { m->row_groups[1].num_columns--; }
static void mut_past_end(cp_pq_file_meta *m) { cmeta(m, 1, 15)->total_compressed_size++; }
static void mut_before_magic(cp_pq_file_meta *m) {
  cmeta(m, 0, 0)->dictionary_page_offset.is_set = false;
  cmeta(m, 0, 0)->data_page_offset = 2;
}
static void mut_dict_zero(cp_pq_file_meta *m) { cmeta(m, 0, 1)->dictionary_page_offset.value = 0; }
static void mut_rows(cp_pq_file_meta *m) { m->num_rows = 1499; }
static void mut_rows_zero(cp_pq_file_meta *m) { m->num_rows = 0; }
static void mut_rg_rows(cp_pq_file_meta *m) { m->row_groups[0].num_rows = -1; }
static void mut_type(cp_pq_file_meta *m) { cmeta(m, 0, 0)->type = CP_PQ_INT32; }
static void mut_path(cp_pq_file_meta *m) { cmeta(m, 1, 2)->path_in_schema[1] = "lst"; }
static void mut_path_len(cp_pq_file_meta *m) { cmeta(m, 1, 2)->path_len = 2; }
static void mut_file_path(cp_pq_file_meta *m) { m->row_groups[0].columns[4].file_path = "x.parq"; }
static void mut_no_meta(cp_pq_file_meta *m) { m->row_groups[0].columns[4].has_meta_data = false; }
static void mut_encrypted(cp_pq_file_meta *m) { m->row_groups[0].columns[4].encrypted = true; }
static void mut_file_encrypted(cp_pq_file_meta *m) { m->encrypted = true; }
static void mut_orders(cp_pq_file_meta *m) { m->num_column_orders = 3; }
static void mut_neg_values(cp_pq_file_meta *m) { cmeta(m, 0, 7)->num_values = -1; }
static void mut_empty_rg(cp_pq_file_meta *m) {
  m->row_groups[1].num_rows = 0;
  m->num_rows = 1000;
  cmeta(m, 1, 0)->data_page_offset = 0; /* never read, like Arrow's empty row groups */
  cmeta(m, 1, 0)->dictionary_page_offset.value = 4;
}

static void test_footer_validation(void) {
  expect_invalid(mut_columns, PAIMON_ECORRUPT,
                 "row group 1 has 15 column chunks but the schema has 16 leaf columns");
  expect_invalid(mut_past_end, PAIMON_ECORRUPT,
                 "column i8 in row group 1 spans bytes [3104, 3104 + 101), outside the data "
                 "region [4, 3204)");
  expect_invalid(mut_before_magic, PAIMON_ECORRUPT, "column id in row group 0 spans bytes [2,");
  expect_invalid(mut_dict_zero, PAIMON_OK, NULL); /* dictionary offset 0 means "use data" */
  expect_invalid(mut_rows, PAIMON_ECORRUPT, "row groups hold 1500 rows but the footer says 1499");
  expect_invalid(mut_rows_zero, PAIMON_OK, NULL);
  expect_invalid(mut_rg_rows, PAIMON_ECORRUPT, "row group 0 has an invalid num_rows (-1)");
  expect_invalid(mut_type, PAIMON_ECORRUPT,
                 "column id in row group 0 has type INT32 but the schema says INT64");
  expect_invalid(mut_path, PAIMON_ECORRUPT,
                 "chunk 2 of row group 1 has a path_in_schema that does not match schema column "
                 "tags.list.element");
  expect_invalid(mut_path_len, PAIMON_ECORRUPT, "does not match");
  expect_invalid(mut_file_path, PAIMON_EUNSUPPORTED,
                 "column t in row group 0 is stored in another file (x.parq)");
  expect_invalid(mut_no_meta, PAIMON_ECORRUPT, "column t in row group 0 has no ColumnMetaData");
  expect_invalid(mut_encrypted, PAIMON_EUNSUPPORTED, "column t in row group 0 is encrypted");
  expect_invalid(mut_file_encrypted, PAIMON_EUNSUPPORTED, "encrypted Parquet file");
  expect_invalid(mut_orders, PAIMON_ECORRUPT, "footer has 3 column orders for 16 leaf columns");
  expect_invalid(mut_neg_values, PAIMON_ECORRUPT, "negative value count or size");
  expect_invalid(mut_empty_rg, PAIMON_OK, NULL);

  cp_pq_column_meta cm;
  memset(&cm, 0, sizeof cm);
  cm.data_page_offset = 100;
  CHECK_INT(cp_pq_column_chunk_start(&cm), 100);
  cm.dictionary_page_offset = (cp_pq_opt_i64){true, 40};
  CHECK_INT(cp_pq_column_chunk_start(&cm), 40);
  cm.dictionary_page_offset.value = 150; /* after the data page: not believed (§4 P4) */
  CHECK_INT(cp_pq_column_chunk_start(&cm), 100);
}

static void test_parquet_816_allowance(void) {
  cp_pq_column_meta cm;
  memset(&cm, 0, sizeof cm);
  cm.data_page_offset = 1000;
  cm.total_compressed_size = 50;
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr version 1.2.8 (build x)", &cm, 5000), 150);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr version 1.1.0", &cm, 5000), 150);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr", &cm, 5000), 150);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr", &cm, 1070), 70); /* capped at data end */
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr version 1.2.9 (build x)", &cm, 5000), 50);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr version 1.10.0 (build y)", &cm, 5000), 50);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mr version 2.0.0", &cm, 5000), 50);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-mrx version 1.0.0", &cm, 5000), 50);
  CHECK_INT(cp_pq_column_chunk_read_len("parquet-cpp version 1.0.0", &cm, 5000), 50);
  CHECK_INT(cp_pq_column_chunk_read_len(NULL, &cm, 5000), 50);
}

static void test_enum_names(void) {
  CHECK_STR(cp_pq_type_name(CP_PQ_FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
  CHECK_STR(cp_pq_type_name(-7), "?");
  CHECK_STR(cp_pq_codec_name(CP_PQ_CODEC_LZ4_RAW), "LZ4_RAW");
  CHECK_STR(cp_pq_codec_name(8), "?");
  CHECK_STR(cp_pq_encoding_name(CP_PQ_ENC_RLE_DICTIONARY), "RLE_DICTIONARY");
  CHECK_STR(cp_pq_encoding_name(CP_PQ_ENC_BYTE_STREAM_SPLIT), "BYTE_STREAM_SPLIT");
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    return 2;
  }
  RUN(test_rich_round_trip);
  RUN(test_tiny_meta_bytes);
  RUN(test_page_header_round_trips);
  RUN(test_page_header_v2_index_and_errors);
  RUN(test_malformed_meta);
  RUN(test_meta_truncations_and_mutations);
  RUN(test_schema_validation);
  RUN(test_schema_invalid);
  RUN(test_schema_depth_limit);
  RUN(test_footer_write_and_read);
  RUN(test_footer_framing_errors);
  RUN(test_footer_validation);
  RUN(test_parquet_816_allowance);
  RUN(test_enum_names);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
