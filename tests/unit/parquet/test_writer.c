/*
 * Tests for format/parquet/writer.h, schema_build.h and levels_write.h: the schema shapes and field
 * ids of spec/parquet.md §1.1-§1.3 (expected ids derived by hand from §1.3), levels of §3 (the
 * worked example of §3.2 down to the page bytes, and a depth-3 nesting with NULL and empty
 * collections at every level), the physical values of every atomic Paimon type (§1.1, §4 P10),
 * and files read back page by page with the lower layers (test_writer_util.h).
 */
#include "format/parquet/writer.h"

#include "cpaimon/version.h"
#include "format/parquet/schema_build.h"
#include "test_writer_util.h"

#define B 536870911

/* Writes one batch built by `fill` with default options (or `o`), reads the file back. */
typedef void (*fill_fn)(tw_batch *t);

static bool write_one(const char *tag, const cp_type *row, const cp_pq_writer_options *o,
                      fill_fn fill, tw_read *r, cp_pq_file_stats *st, tw_file *tf) {
  paimon_error err;
  tw_batch t;
  tw_batch_init(&t, row);
  fill(&t);
  tw_batch_finish(&t);
  bool ok = false;
  CHECK_OK(tw_open(tf, tag, row, o, &err), &err);
  if (tf->w) {
    CHECK_OK(cp_pq_writer_write(tf->w, &t.schema, &t.array, &err), &err);
    CHECK_OK(tw_close(tf, st, &err), &err);
    CHECK_OK(tw_read_file(r, tf->path, &err), &err);
    ok = r->ft.meta.schema != NULL;
  }
  tw_batch_free(&t);
  return ok;
}

/* ---- field ids and schema shape (§1.2, §1.3) ---- */

static void fill_ids(tw_batch *t) {
  paimon_error err;
  cp_builder *id = tw_col(t, 0), *m = tw_col(t, 1), *v = tw_col(t, 2), *ts = tw_col(t, 3),
             *d = tw_col(t, 4);
  cp_builder *keys = cp_builder_map_keys(m), *vals = cp_builder_map_values(m);
  cp_builder *elem = cp_builder_child(vals, 0);
  cp_builder *x = cp_builder_child(elem, 0), *y = cp_builder_child(elem, 1);
  /* r0: m = {7: [{x 1, y "a"}, NULL]} */
  CHECK_OK(cp_builder_append_int64(keys, 7, &err), &err);
  CHECK_OK(cp_builder_append_int64(x, 1, &err), &err);
  CHECK_OK(cp_builder_append_str(y, "a", &err), &err);
  CHECK_OK(cp_builder_end_element(elem, &err), &err);
  CHECK_OK(cp_builder_append_null(elem, &err), &err);
  CHECK_OK(cp_builder_end_element(vals, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  /* r1: m = NULL; r2: m = {} */
  CHECK_OK(cp_builder_append_null(m, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  /* r3: m = {8: NULL, 9: []} */
  CHECK_OK(cp_builder_append_int64(keys, 8, &err), &err);
  CHECK_OK(cp_builder_append_null(vals, &err), &err);
  CHECK_OK(cp_builder_append_int64(keys, 9, &err), &err);
  CHECK_OK(cp_builder_end_element(vals, &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
  for (int i = 0; i < 4; i++) {
    CHECK_OK(cp_builder_append_int64(id, i + 1, &err), &err);
    CHECK_OK(cp_builder_append_int64(ts, -1 + i, &err), &err);
    CHECK_OK(cp_builder_append_decimal128(d, cp_dec128_from_int64(i - 2), &err), &err);
  }
  /* v: NULL (its NOT NULL children hold hidden NULLs), then values */
  CHECK_OK(cp_builder_append_null(v, &err), &err);
  for (int i = 1; i < 4; i++) {
    CHECK_OK(cp_builder_append_bytes(cp_builder_child(v, 0), "val", 3, &err), &err);
    CHECK_OK(cp_builder_append_bytes(cp_builder_child(v, 1), "\x01", 1, &err), &err);
    CHECK_OK(cp_builder_end_element(v, &err), &err);
  }
}

static void check_element(const cp_pq_schema_element *e, const char *name, int type, int rep,
                          int children, int32_t id, bool has_id) {
  CHECK_STR(e->name, name);
  CHECK_INT(e->type.is_set ? e->type.value : -1, type);
  CHECK_INT(e->repetition_type.is_set ? e->repetition_type.value : -1, rep);
  CHECK_INT(e->num_children.is_set ? e->num_children.value : -1, children);
  CHECK_INT(e->field_id.is_set, has_id);
  if (has_id && e->field_id.is_set) CHECK_INT(e->field_id.value, id);
}

/* The 15 SchemaElements of the id test, derived by hand from §1.2/§1.3. */
static void check_id_schema(const tw_read *r) {
  const cp_pq_file_meta *m = &r->ft.meta;
  CHECK_INT(m->num_schema, 15);
  if (m->num_schema != 15) return;
  const cp_pq_schema_element *e = m->schema;
  enum { N = -1, REQ = CP_PQ_REQUIRED, OPT = CP_PQ_OPTIONAL, REP = CP_PQ_REPEATED };
  check_element(&e[0], "paimon_schema", N, N, 5, 0, false);
  check_element(&e[1], "id", CP_PQ_INT64, REQ, N, 0, true);
  check_element(&e[2], "m", N, OPT, 1, 3, true);
  CHECK_INT(e[2].logical_type.kind, CP_PQ_LT_MAP);
  CHECK_INT(e[2].converted_type.value, CP_PQ_CT_MAP);
  check_element(&e[3], "key_value", N, REP, 2, 0, false);
  CHECK_INT(e[3].converted_type.value, CP_PQ_CT_MAP_KEY_VALUE);
  /* key: B - 3 * 1024 - 1; value: B + 3 * 1024 + 1; the list element: B + 3 * 1024 + 2. */
  check_element(&e[4], "key", CP_PQ_INT32, REQ, N, 536867838, true);
  check_element(&e[5], "value", N, OPT, 1, 536873984, true);
  CHECK_INT(e[5].logical_type.kind, CP_PQ_LT_LIST);
  CHECK_INT(e[5].converted_type.value, CP_PQ_CT_LIST);
  check_element(&e[6], "list", N, REP, 1, 0, false);
  check_element(&e[7], "element", N, OPT, 2, 536873985, true);
  check_element(&e[8], "x", CP_PQ_INT32, OPT, N, 10, true);
  check_element(&e[9], "y", CP_PQ_BYTE_ARRAY, REQ, N, 11, true);
  CHECK_INT(e[9].logical_type.kind, CP_PQ_LT_STRING);
  CHECK_INT(e[9].converted_type.value, CP_PQ_CT_UTF8);
  check_element(&e[10], "v", N, OPT, 2, 4, true);
  check_element(&e[11], "value", CP_PQ_BYTE_ARRAY, REQ, N, 0, true);
  check_element(&e[12], "metadata", CP_PQ_BYTE_ARRAY, REQ, N, 1, true);
  check_element(&e[13], "t", CP_PQ_INT64, OPT, N, 5, true);
  CHECK_INT(e[13].logical_type.kind, CP_PQ_LT_TIMESTAMP);
  CHECK_INT(e[13].logical_type.time.unit, CP_PQ_NANOS);
  CHECK(!e[13].logical_type.time.is_adjusted_to_utc);
  CHECK(!e[13].converted_type.is_set); /* NANOS has no converted type */
  check_element(&e[14], "d", CP_PQ_FIXED_LEN_BYTE_ARRAY, OPT, N, 6, true);
  CHECK_INT(e[14].type_length.value, 16);
  CHECK_INT(e[14].scale.value, 4);
  CHECK_INT(e[14].precision.value, 38);
  CHECK_INT(e[14].logical_type.decimal.precision, 38);
  CHECK_INT(e[14].converted_type.value, CP_PQ_CT_DECIMAL);
}

/* Leaves, levels and paths, and the footer bookkeeping of §2.3 items 5, 8, 9. */
static void check_id_leaves(const tw_read *r) {
  const cp_pq_file_meta *m = &r->ft.meta;
  const cp_pq_schema *s = &r->ft.schema;
  CHECK_INT(s->num_leaves, 8);
  CHECK_STR(s->leaves[2]->path_str, "m.key_value.value.list.element.x");
  CHECK_INT(s->leaves[2]->max_def, 6);
  CHECK_INT(s->leaves[2]->max_rep, 2);
  CHECK_INT(s->leaves[3]->max_def, 5);
  CHECK_INT(s->leaves[1]->max_def, 2);
  CHECK_INT(s->leaves[1]->max_rep, 1);
  CHECK_STR(tw_meta(r, 0, 2)->path_in_schema[5], "x");
  CHECK_STR(m->created_by, "cpaimon version " CPAIMON_VERSION " (build unknown)");
  CHECK_INT(m->version, 1);
  CHECK_INT(m->num_column_orders, 8);
  for (uint32_t i = 0; i < m->num_column_orders; i++)
    CHECK_INT(m->column_orders[i], CP_PQ_ORDER_TYPE_DEFINED);
  CHECK_INT(m->num_rows, 4);
  CHECK_INT(m->row_groups[0].columns[0].file_offset, 0);
  CHECK_INT(m->row_groups[0].file_offset.value, 4);
  CHECK_INT(m->row_groups[0].ordinal.value, 0);
}

/* Levels of the nested leaves (§3.4; derived by hand from the four rows of fill_ids). */
static void check_id_levels(const tw_read *r) {
  paimon_error err;
  tw_chunk c;
  static const int16_t x_rep[] = {0, 2, 0, 0, 0, 1}, x_def[] = {6, 4, 0, 1, 2, 3};
  CHECK_OK(tw_decode_chunk(r, 0, 2, &c, &err), &err);
  CHECK_INT(c.n, 6);
  for (int i = 0; i < 6 && c.n == 6; i++) {
    CHECK_INT(c.rep[i], x_rep[i]);
    CHECK_INT(c.def[i], x_def[i]);
  }
  CHECK_INT(c.n_values, 1);
  CHECK_INT(tw_meta(r, 0, 2)->statistics.null_count.value, 5);
  tw_chunk_free(&c);
  static const int16_t y_def[] = {5, 4, 0, 1, 2, 3};
  CHECK_OK(tw_decode_chunk(r, 0, 3, &c, &err), &err);
  for (int i = 0; i < 6 && c.n == 6; i++) CHECK_INT(c.def[i], y_def[i]);
  CHECK(c.n_values == 1 && tw_str_is(&c, 0, "a"));
  tw_chunk_free(&c);
  static const int16_t k_rep[] = {0, 0, 0, 0, 1}, k_def[] = {2, 0, 1, 2, 2};
  CHECK_OK(tw_decode_chunk(r, 0, 1, &c, &err), &err);
  CHECK_INT(c.n, 5);
  for (int i = 0; i < 5 && c.n == 5; i++) {
    CHECK_INT(c.rep[i], k_rep[i]);
    CHECK_INT(c.def[i], k_def[i]);
  }
  CHECK(c.n_values == 3 && tw_int(&c, 4, 0) == 7 && tw_int(&c, 4, 1) == 8 && tw_int(&c, 4, 2) == 9);
  tw_chunk_free(&c);
  /* VARIANT: the NULL row has def 0 in both children; the rest are values. */
  CHECK_OK(tw_decode_chunk(r, 0, 4, &c, &err), &err);
  CHECK(c.n == 4 && c.def[0] == 0 && c.def[1] == 1 && c.n_values == 3);
  CHECK(c.n_values == 3 && tw_str_is(&c, 2, "val"));
  tw_chunk_free(&c);
}

/* Statistics of the top-level columns. */
static void check_id_stats(const cp_pq_file_stats *st) {
  CHECK_INT(st->num_columns, 5);
  CHECK_INT(st->columns[1].null_count, 1);
  CHECK(st->columns[1].min.is_null); /* nested: no min/max */
  CHECK(st->columns[2].min.is_null);
  CHECK_INT(st->columns[2].null_count, 1);
  CHECK(!st->columns[0].min.is_null && st->columns[0].min.v.i64 == 1 &&
        st->columns[0].max.v.i64 == 4);
  /* TIMESTAMP(9) -1 ns is 1 ns before the epoch: millis -1, nanos of milli 999999. */
  CHECK(st->columns[3].min.v.ts.millis == -1 && st->columns[3].min.v.ts.nanos_of_milli == 999999);
  CHECK(st->columns[3].max.v.ts.millis == 0 && st->columns[3].max.v.ts.nanos_of_milli == 2);
  CHECK(st->columns[4].min.v.dec == -2 && st->columns[4].max.v.dec == 1);
}

static void test_schema_and_field_ids(void) {
  cp_type *row = tw_type("ROW<id BIGINT NOT NULL, m MAP<INT, ARRAY<ROW<x INT, y STRING NOT NULL>>>,"
                         " v VARIANT, t TIMESTAMP(9), d DECIMAL(38, 4)>");
  /* Ids chosen by hand so the derivation below does not depend on the parser's numbering. */
  row->fields[0].id = 0;
  row->fields[1].id = 3;
  cp_type *rt = row->fields[1].type->value->element;
  rt->fields[0].id = 10;
  rt->fields[1].id = 11;
  row->fields[2].id = 4;
  row->fields[3].id = 5;
  row->fields[4].id = 6;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (!write_one("ids", row, NULL, fill_ids, &r, &st, &tf)) goto done;
  check_id_schema(&r);
  check_id_leaves(&r);
  check_id_levels(&r);
  check_id_stats(&st);
  tw_read_free(&r);
done:
  tw_free(&tf);
  cp_type_free(row);
}

/* The id helpers wrap as Java's int arithmetic does (§1.3). */
static void test_nested_id_arithmetic(void) {
  CHECK_INT(cp_pq_array_element_field_id(0, 1), B + 1);
  CHECK_INT(cp_pq_map_key_field_id(2, 1), B - 2048 - 1);
  CHECK_INT(cp_pq_map_value_field_id(2, 3), B + 2048 + 3);
  /* 536870911 + 2000000 * 1024 + 1 overflows int32: Java gives -1558528 - ... computed below. */
  int64_t java = ((int64_t)B + (int64_t)2000000 * 1024 + 1) & 0xFFFFFFFF;
  if (java >= 2147483648LL) java -= 4294967296LL;
  CHECK_INT(cp_pq_array_element_field_id(2000000, 1), java);
}

/* ---- §3.2: ARRAY<FLOAT>, down to the page bytes ---- */

static void fill_floats(tw_batch *t) {
  paimon_error err;
  cp_builder *l = tw_col(t, 0), *e = cp_builder_child(l, 0);
  CHECK_OK(cp_builder_append_double(e, 1.0, &err), &err);
  CHECK_OK(cp_builder_append_double(e, 2.0, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
  CHECK_OK(cp_builder_append_null(l, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
  CHECK_OK(cp_builder_append_null(e, &err), &err);
  CHECK_OK(cp_builder_append_double(e, 3.0, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
  CHECK_OK(cp_builder_append_double(e, 4.0, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
}

static void test_worked_example_bytes(void) {
  cp_type *row = tw_type("ROW<f ARRAY<FLOAT>>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.codec = CP_CODEC_NONE;
  o.dictionary = false;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_one("worked", row, &o, fill_floats, &r, &st, &tf)) {
    const cp_pq_column_meta *m = tw_meta(&r, 0, 0);
    CHECK_INT(m->num_values, 7);
    CHECK_INT(m->statistics.null_count.value, 3);
    CHECK_INT(r.ft.meta.row_groups[0].num_rows, 5);
    /* The 29-byte body of §3.2: rep, def (one bit-packed group each), PLAIN floats. */
    static const uint8_t body[29] = {2,    0,    0,    0,    3,    0x22, 3,    0,    0,   0,
                                     3,    0x4F, 0x3E, 0,    0,    0x80, 0x3F, 0,    0,   0,
                                     0x40, 0,    0,    0x40, 0x40, 0,    0,    0x80, 0x40};
    cp_pq_page_header h;
    size_t hl;
    paimon_error err;
    const uint8_t *p = r.bytes.data + m->data_page_offset;
    CHECK_OK(cp_pq_page_header_decode(&h, p, 64, 0, &hl, NULL, &err), &err);
    CHECK_INT(h.uncompressed_page_size, 29);
    CHECK_INT(h.compressed_page_size, 29);
    CHECK_INT(h.data_page_header.num_values, 7);
    CHECK_INT(h.data_page_header.encoding, CP_PQ_ENC_PLAIN);
    CHECK_INT(h.data_page_header.definition_level_encoding, CP_PQ_ENC_RLE);
    CHECK(memcmp(p + hl, body, sizeof body) == 0);
    CHECK_INT(m->total_compressed_size, (int64_t)hl + 29);
    CHECK_INT(m->total_uncompressed_size, (int64_t)hl + 29);
    CHECK_INT(m->codec, CP_PQ_CODEC_UNCOMPRESSED);
    CHECK(!m->dictionary_page_offset.is_set);
    CHECK(tw_has_encoding(m, CP_PQ_ENC_PLAIN) && tw_has_encoding(m, CP_PQ_ENC_RLE));
    CHECK(!tw_has_encoding(m, CP_PQ_ENC_RLE_DICTIONARY));
    /* Statistics of the element leaf: min 1.0, max 4.0 (PLAIN floats). */
    float mn, mx;
    memcpy(&mn, m->statistics.min_value.data, 4);
    memcpy(&mx, m->statistics.max_value.data, 4);
    CHECK(mn == 1.0f && mx == 4.0f);
    CHECK_INT(m->statistics.nan_count.value, 0);
    CHECK_INT(st.columns[0].null_count, 1);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- depth-3 nesting with NULL and empty collections at every level ---- */

static void fill_deep(tw_batch *t) {
  paimon_error err;
  cp_builder *outer = tw_col(t, 0), *mid = cp_builder_child(outer, 0);
  cp_builder *inner = cp_builder_child(mid, 0), *ints = cp_builder_child(inner, 0);
  /* r0: [[[1, NULL], []], NULL, []] */
  CHECK_OK(cp_builder_append_int64(ints, 1, &err), &err);
  CHECK_OK(cp_builder_append_null(ints, &err), &err);
  CHECK_OK(cp_builder_end_element(inner, &err), &err);
  CHECK_OK(cp_builder_end_element(inner, &err), &err);
  CHECK_OK(cp_builder_end_element(mid, &err), &err);
  CHECK_OK(cp_builder_append_null(mid, &err), &err);
  CHECK_OK(cp_builder_end_element(mid, &err), &err);
  CHECK_OK(cp_builder_end_element(outer, &err), &err);
  /* r1: NULL; r2: [] */
  CHECK_OK(cp_builder_append_null(outer, &err), &err);
  CHECK_OK(cp_builder_end_element(outer, &err), &err);
  /* r3: [[[NULL]]] */
  CHECK_OK(cp_builder_append_null(ints, &err), &err);
  CHECK_OK(cp_builder_end_element(inner, &err), &err);
  CHECK_OK(cp_builder_end_element(mid, &err), &err);
  CHECK_OK(cp_builder_end_element(outer, &err), &err);
  /* r4: [[NULL]] */
  CHECK_OK(cp_builder_append_null(inner, &err), &err);
  CHECK_OK(cp_builder_end_element(mid, &err), &err);
  CHECK_OK(cp_builder_end_element(outer, &err), &err);
}

static void test_depth3_levels(void) {
  cp_type *row = tw_type("ROW<a ARRAY<ARRAY<ARRAY<INT>>>>");
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_one("deep", row, NULL, fill_deep, &r, &st, &tf)) {
    static const int16_t rep[] = {0, 3, 2, 1, 1, 0, 0, 0, 0}, def[] = {7, 6, 5, 2, 3, 0, 1, 6, 4};
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    CHECK_INT(r.ft.schema.leaves[0]->max_def, 7);
    CHECK_INT(r.ft.schema.leaves[0]->max_rep, 3);
    CHECK_INT(c.n, 9);
    for (int i = 0; i < 9 && c.n == 9; i++) {
      CHECK_INT(c.rep[i], rep[i]);
      CHECK_INT(c.def[i], def[i]);
    }
    CHECK(c.n_values == 1 && tw_int(&c, 4, 0) == 1);
    CHECK_INT(tw_meta(&r, 0, 0)->statistics.null_count.value, 8);
    CHECK_INT(st.columns[0].null_count, 1);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- every atomic type, flat: physical values (§1.1) ---- */

#define ATOMIC_ROW                                                                                 \
  "ROW<b BOOLEAN, i8 TINYINT, i16 SMALLINT, i INT, l BIGINT, f FLOAT, g DOUBLE, d9 DECIMAL(9, 2)," \
  " d18 DECIMAL(18, 3), d38 DECIMAL(38, 5), s STRING, c CHAR(3), bin BYTES, dt DATE, tm TIME,"     \
  " ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9),"                       \
  " lz TIMESTAMP_LTZ(6), bl BLOB, bn BINARY(2)>"
enum { N_ATOMIC = 22 };

/* Row r of column c: NULL when r == c % 3, else a value derived from r (3 rows). */
static void fill_atomic(tw_batch *t) {
  paimon_error err;
  static const char *const strs[] = {"", "héllo", "zz"};
  for (int c = 0; c < N_ATOMIC; c++) {
    cp_builder *b = tw_col(t, c);
    for (int r = 0; r < 3; r++) {
      if (r == c % 3) {
        CHECK_OK(cp_builder_append_null(b, &err), &err);
        continue;
      }
      int64_t v = r == 1 ? -5 : 7;
      int rc;
      switch (c) {
      case 0: rc = cp_builder_append_bool(b, r == 1, &err); break;
      case 5:
      case 6: rc = cp_builder_append_double(b, (double)v + 0.5, &err); break;
      case 7:
      case 8:
      case 9: rc = cp_builder_append_decimal128(b, cp_dec128_from_int64(v * 1000 - 1), &err); break;
      case 10:
      case 11:
      case 12:
      case 20:
      case 21: rc = cp_builder_append_str(b, c == 21 ? "ab" : strs[r], &err); break;
      default: rc = cp_builder_append_int64(b, v, &err);
      }
      CHECK_OK(rc, &err);
    }
  }
}

/* Annotations of §1.1 / §2.6 on the leaves of ATOMIC_ROW (element i + 1 is column i). */
static void check_atomic_annotations(const cp_pq_schema_element *e) {
  CHECK_INT(e[2].logical_type.integer.bit_width, 8);
  CHECK_INT(e[2].converted_type.value, CP_PQ_CT_INT_8);
  CHECK_INT(e[3].converted_type.value, CP_PQ_CT_INT_16);
  CHECK(!e[4].converted_type.is_set && e[4].logical_type.kind == CP_PQ_LT_NONE);
  CHECK_INT(e[8].converted_type.value, CP_PQ_CT_DECIMAL);
  CHECK_INT(e[10].type_length.value, 16);
  CHECK_INT(e[13].logical_type.kind, CP_PQ_LT_NONE); /* BYTES: no annotation */
  CHECK_INT(e[14].converted_type.value, CP_PQ_CT_DATE);
  CHECK_INT(e[15].converted_type.value, CP_PQ_CT_TIME_MILLIS);
  CHECK(e[15].logical_type.time.is_adjusted_to_utc);
  CHECK_INT(e[16].converted_type.value, CP_PQ_CT_TIMESTAMP_MILLIS);
  CHECK_INT(e[17].converted_type.value, CP_PQ_CT_TIMESTAMP_MILLIS);
  CHECK_INT(e[18].converted_type.value, CP_PQ_CT_TIMESTAMP_MICROS);
  CHECK(!e[18].logical_type.time.is_adjusted_to_utc);
  CHECK(e[20].logical_type.time.is_adjusted_to_utc && e[20].logical_type.time.unit == CP_PQ_MICROS);
  CHECK_INT(e[22].type.value, CP_PQ_BYTE_ARRAY); /* BINARY(2) is not FLBA */
}

/* File statistics of ATOMIC_ROW's columns as Paimon values. */
static void check_atomic_stats(const cp_pq_column_stats *col) {
  CHECK(col[0].min.v.b == false && col[0].max.v.b == true);
  CHECK(col[2].min.v.i64 == -5 && col[2].max.v.i64 == 7);
  CHECK(col[5].min.v.f32 == -4.5f && col[5].max.v.f32 == 7.5f);
  CHECK(col[9].min.v.dec == -5001 && col[9].max.v.dec == 6999);
  CHECK(col[10].min.v.bytes.len == 0); /* "" < "zz" */
  CHECK(col[10].max.v.bytes.len == 2);
  CHECK(col[15].min.v.ts.millis == -5000 && col[15].max.v.ts.millis == 7000);
  CHECK(col[18].min.v.ts.millis == -1 && col[18].min.v.ts.nanos_of_milli == 999995);
  CHECK(col[17].min.v.ts.millis == -1 && col[17].min.v.ts.nanos_of_milli == 995000);
  CHECK(col[20].min.is_null); /* BLOB: no min/max */
  CHECK(!col[21].min.is_null);
}

static void test_atomic_values(void) {
  cp_type *row = tw_type(ATOMIC_ROW);
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (!write_one("atomic", row, NULL, fill_atomic, &r, &st, &tf)) goto done;
  static const int ph[N_ATOMIC] = {
      CP_PQ_BOOLEAN,    CP_PQ_INT32,      CP_PQ_INT32,      CP_PQ_INT32, CP_PQ_INT64,
      CP_PQ_FLOAT,      CP_PQ_DOUBLE,     CP_PQ_INT32,      CP_PQ_INT64, CP_PQ_FIXED_LEN_BYTE_ARRAY,
      CP_PQ_BYTE_ARRAY, CP_PQ_BYTE_ARRAY, CP_PQ_BYTE_ARRAY, CP_PQ_INT32, CP_PQ_INT32,
      CP_PQ_INT64,      CP_PQ_INT64,      CP_PQ_INT64,      CP_PQ_INT64, CP_PQ_INT64,
      CP_PQ_BYTE_ARRAY, CP_PQ_BYTE_ARRAY};
  paimon_error err;
  for (int c = 0; c < N_ATOMIC; c++) {
    const cp_pq_column_meta *m = tw_meta(&r, 0, c);
    CHECK_INT(m->type, ph[c]);
    tw_chunk k;
    CHECK_OK(tw_decode_chunk(&r, 0, c, &k, &err), &err);
    CHECK_INT(k.n, 3);
    CHECK_INT(k.n_values, 2);
    CHECK_INT(m->statistics.null_count.value, 1);
    CHECK_INT(st.columns[c].null_count, 1);
    if (k.n_values == 2) {
      /* The first value is row 0 or 1, whichever is not NULL. */
      int r0 = c % 3 == 0 ? 1 : 0;
      int64_t v0 = r0 == 1 ? -5 : 7;
      size_t w = m->type == CP_PQ_INT64 ? 8 : m->type == CP_PQ_BOOLEAN ? 1 : 4;
      switch (c) {
      case 0: CHECK_INT(tw_int(&k, 1, 0), r0 == 1); break;
      case 5:
      case 6: CHECK(tw_f64(&k, c == 5 ? 4 : 8, 0) == (double)v0 + 0.5); break;
      case 7:
      case 8: CHECK_INT(tw_int(&k, w, 0), v0 * 1000 - 1); break;
      case 9: {
        /* 16 bytes big-endian two's complement of 6999 / -5001. */
        uint8_t want[16];
        memset(want, v0 < 0 ? 0xFF : 0, 16);
        int64_t u = v0 * 1000 - 1;
        want[14] = (uint8_t)(u >> 8);
        want[15] = (uint8_t)u;
        CHECK(k.fixed.len == 32 && memcmp(k.fixed.data, want, 16) == 0);
        break;
      }
      case 10:
      case 11:
      case 12:
      case 20: CHECK(tw_str_is(&k, 0, r0 == 1 ? "héllo" : "")); break;
      case 21: CHECK(tw_str_is(&k, 0, "ab")); break;
      case 15: CHECK_INT(tw_int(&k, 8, 0), v0 * 1000); break; /* seconds -> millis */
      default: CHECK_INT(tw_int(&k, w, 0), v0);
      }
    }
    tw_chunk_free(&k);
  }
  check_atomic_annotations(r.ft.meta.schema);
  check_atomic_stats(st.columns);
  tw_read_free(&r);
done:
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- VECTOR and MULTISET ---- */

static void fill_vec(tw_batch *t) {
  paimon_error err;
  cp_builder *v = tw_col(t, 0), *ms = tw_col(t, 1);
  cp_builder *vi = cp_builder_child(v, 0);
  /* v: [1, 2], NULL (its slots hold hidden values), [NULL, 4] */
  CHECK_OK(cp_builder_append_int64(vi, 1, &err), &err);
  CHECK_OK(cp_builder_append_int64(vi, 2, &err), &err);
  CHECK_OK(cp_builder_end_element(v, &err), &err);
  CHECK_OK(cp_builder_append_null(v, &err), &err);
  CHECK_OK(cp_builder_append_null(vi, &err), &err);
  CHECK_OK(cp_builder_append_int64(vi, 4, &err), &err);
  CHECK_OK(cp_builder_end_element(v, &err), &err);
  /* ms: {"a": 2}, {}, NULL */
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(ms), "a", &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_map_values(ms), 2, &err), &err);
  CHECK_OK(cp_builder_end_element(ms, &err), &err);
  CHECK_OK(cp_builder_end_element(ms, &err), &err);
  CHECK_OK(cp_builder_append_null(ms, &err), &err);
}

static void test_vector_multiset(void) {
  cp_type *row = tw_type("ROW<v VECTOR<INT, 2>, ms MULTISET<STRING>>");
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_one("vec", row, NULL, fill_vec, &r, &st, &tf)) {
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    static const int16_t rep[] = {0, 1, 0, 0, 1}, def[] = {3, 3, 0, 2, 3};
    CHECK_INT(c.n, 5);
    for (int i = 0; i < 5 && c.n == 5; i++) {
      CHECK_INT(c.rep[i], rep[i]);
      CHECK_INT(c.def[i], def[i]);
    }
    CHECK(c.n_values == 3 && tw_int(&c, 4, 2) == 4);
    tw_chunk_free(&c);
    /* MULTISET<STRING>: key REQUIRED STRING, value INT32 REQUIRED (the count). */
    const cp_pq_schema_element *e = r.ft.meta.schema;
    CHECK_INT(r.ft.meta.num_schema, 8);
    if (r.ft.meta.num_schema == 8) {
      CHECK_STR(e[4].name, "ms");
      CHECK_INT(e[6].repetition_type.value, CP_PQ_REQUIRED);
      CHECK_STR(e[7].name, "value");
      CHECK_INT(e[7].type.value, CP_PQ_INT32);
      CHECK_INT(e[7].repetition_type.value, CP_PQ_REQUIRED);
    }
    CHECK_OK(tw_decode_chunk(&r, 0, 2, &c, &err), &err);
    CHECK(c.n == 3 && c.def[0] == 2 && c.def[1] == 1 && c.def[2] == 0);
    CHECK(c.n_values == 1 && tw_int(&c, 4, 0) == 2);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_nested_id_arithmetic);
  RUN(test_schema_and_field_ids);
  RUN(test_worked_example_bytes);
  RUN(test_depth3_levels);
  RUN(test_atomic_values);
  RUN(test_vector_multiset);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
