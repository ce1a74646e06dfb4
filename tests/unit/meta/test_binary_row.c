/* Tests for meta/binary_row.h against the vectors of spec/format.md §5.5 (produced by pypaimon's
 * GenericRowSerializer and re-derived from Java's BinaryRowWriter rules). */
#include "meta/binary_row.h"

#include "test.h"
#include "types/type_sql.h"

/* Parses "00 0a ff" into bytes; returns the count. */
static size_t hex(const char *s, uint8_t *out) {
  size_t n = 0;
  unsigned v;
  int used;
  while (sscanf(s, " %2x%n", &v, &used) == 1) {
    out[n++] = (uint8_t)v;
    s += used;
  }
  return n;
}

typedef struct row_case {
  const char *types[3];
  size_t arity;
  cp_datum values[3];
  const char *expect_hex;
} row_case;

static int64_t ts_millis_2024_05_14_010203_456(void) { return 1715648523456LL; }

/* Writes the row, compares with the vector, reads it back and compares the values. */
static void check_case(const row_case *c) {
  paimon_error err;
  cp_type *types[3] = {NULL, NULL, NULL};
  for (size_t i = 0; i < c->arity; i++) CHECK_OK(cp_type_parse(c->types[i], &types[i], &err), &err);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_binary_row_write((const cp_type *const *)types, c->values, c->arity, &out, &err),
           &err);
  uint8_t expect[128];
  size_t n = hex(c->expect_hex, expect);
  CHECK_INT(out.len, n);
  if (out.len == n && memcmp(out.data, expect, n) != 0) {
    fprintf(stderr, "bytes differ for %s:", c->types[0]);
    for (size_t i = 0; i < out.len; i++) fprintf(stderr, " %02x", out.data[i]);
    fprintf(stderr, "\n");
    CHECK(0);
  }
  cp_datum back[3];
  CHECK_OK(cp_binary_row_read(expect, n, (const cp_type *const *)types, c->arity, back, &err),
           &err);
  for (size_t i = 0; i < c->arity; i++) {
    CHECK_INT(back[i].is_null, c->values[i].is_null);
    if (back[i].is_null || c->values[i].is_null) continue;
    switch (types[i]->kind) {
    case CP_TYPE_VARCHAR:
      CHECK_INT(back[i].v.bytes.len, c->values[i].v.bytes.len);
      CHECK(memcmp(back[i].v.bytes.data, c->values[i].v.bytes.data, back[i].v.bytes.len) == 0);
      break;
    case CP_TYPE_DECIMAL: CHECK(back[i].v.dec == c->values[i].v.dec); break;
    case CP_TYPE_TIMESTAMP:
      CHECK_INT(back[i].v.ts.millis, c->values[i].v.ts.millis);
      CHECK_INT(back[i].v.ts.nanos_of_milli, c->values[i].v.ts.nanos_of_milli);
      break;
    case CP_TYPE_DOUBLE: CHECK(back[i].v.f64 == c->values[i].v.f64); break;
    case CP_TYPE_FLOAT: CHECK(back[i].v.f32 == c->values[i].v.f32); break;
    case CP_TYPE_BOOLEAN: CHECK(back[i].v.b == c->values[i].v.b); break;
    default: CHECK_INT(back[i].v.i64, c->values[i].v.i64);
    }
  }
  cp_buf_free(&out);
  for (size_t i = 0; i < c->arity; i++) cp_type_free(types[i]);
}

static cp_datum dec(cp_int128 v) {
  cp_datum d = {0};
  d.v.dec = v;
  return d;
}

static cp_datum ts(int64_t millis, int32_t nanos) {
  cp_datum d = {0};
  d.v.ts.millis = millis;
  d.v.ts.nanos_of_milli = nanos;
  return d;
}

static void test_spec_vectors(void) {
  cp_datum dbl = {0}, flt = {0}, tru = {0};
  dbl.v.f64 = 1.5;
  flt.v.f32 = 2.5f;
  tru.v.b = true;
  const row_case cases[] = {
      {{"INT"},
       1,
       {cp_datum_int(7)},
       "00 00 00 01 00 00 00 00 00 00 00 00 07 00 00 00 00 00 00 00"},
      {{"STRING"},
       1,
       {cp_datum_bytes("abc", 3)},
       "00 00 00 01 00 00 00 00 00 00 00 00 61 62 63 00 00 00 00 83"},
      {{"STRING"},
       1,
       {cp_datum_bytes("20240514", 8)},
       "00 00 00 01 00 00 00 00 00 00 00 00 08 00 00 00 10 00 00 00 32 30 32 34 30 35 31 34"},
      {{"STRING"},
       1,
       {cp_datum_null()},
       "00 00 00 01 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {{"STRING", "INT", "BIGINT"},
       3,
       {cp_datum_bytes("a", 1), cp_datum_null(), cp_datum_int(-1)},
       "00 00 00 03 00 02 00 00 00 00 00 00 61 00 00 00 00 00 00 81 "
       "00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff"},
      {{"DECIMAL(10, 2)"},
       1,
       {dec(1234)},
       "00 00 00 01 00 00 00 00 00 00 00 00 d2 04 00 00 00 00 00 00"},
      {{"DECIMAL(20, 2)"},
       1,
       {dec(-1234)},
       "00 00 00 01 00 00 00 00 00 00 00 00 02 00 00 00 10 00 00 00 "
       "fb 2e 00 00 00 00 00 00 00 00 00 00 00 00 00 00"},
      {{"TIMESTAMP(3)"},
       1,
       {ts(ts_millis_2024_05_14_010203_456(), 0)},
       "00 00 00 01 00 00 00 00 00 00 00 00 c0 ec 9e 74 8f 01 00 00"},
      {{"TIMESTAMP(6)"},
       1,
       {ts(ts_millis_2024_05_14_010203_456(), 789000)},
       "00 00 00 01 00 00 00 00 00 00 00 00 08 0a 0c 00 10 00 00 00 c0 ec 9e 74 8f 01 00 00"},
      {{"DATE"},
       1,
       {cp_datum_int(19857)},
       "00 00 00 01 00 00 00 00 00 00 00 00 91 4d 00 00 00 00 00 00"},
      {{"BOOLEAN", "DOUBLE", "FLOAT"},
       3,
       {tru, dbl, flt},
       "00 00 00 03 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 "
       "00 00 00 00 00 00 f8 3f 00 00 20 40 00 00 00 00"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
}

static void test_empty_row(void) {
  paimon_error err;
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_binary_row_write(NULL, NULL, 0, &out, &err), &err);
  CHECK_INT(out.len, 12);
  CHECK(memcmp(out.data, cp_binary_row_empty, 12) == 0);
  cp_buf_free(&out);
}

/* Java reserves 16 (decimal) / 8 (timestamp) zero bytes for NULL non-compact values and points the
 * slot at them (spec §5.2). */
static void test_null_non_compact_reserves_space(void) {
  paimon_error err;
  cp_type *t[2];
  CHECK_OK(cp_type_parse("DECIMAL(20, 2)", &t[0], &err), &err);
  CHECK_OK(cp_type_parse("TIMESTAMP(6)", &t[1], &err), &err);
  cp_datum v[2] = {cp_datum_null(), cp_datum_null()};
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_binary_row_write((const cp_type *const *)t, v, 2, &out, &err), &err);
  uint8_t expect[64];
  size_t n = hex("00 00 00 02 00 03 00 00 00 00 00 00 00 00 00 00 18 00 00 00 "
                 "00 00 00 00 28 00 00 00 "
                 "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
                 expect);
  CHECK_INT(out.len, n);
  CHECK(out.len == n && memcmp(out.data, expect, n) == 0);
  cp_buf_free(&out);
  cp_type_free(t[0]);
  cp_type_free(t[1]);
}

/* Big decimals use the minimal two's complement (Java BigInteger.toByteArray), incl. the
 * powers of two where pypaimon differs (spec §5.4). */
static void test_big_decimal_minimal_bytes(void) {
  paimon_error err;
  cp_type *t;
  CHECK_OK(cp_type_parse("DECIMAL(38, 0)", &t, &err), &err);
  struct {
    cp_int128 v;
    size_t len;
    uint8_t first;
  } cases[] = {{0, 1, 0x00},
               {-1, 1, 0xff},
               {-128, 1, 0x80},
               {-129, 2, 0xff},
               {128, 2, 0x00},
               {-256, 2, 0xff},
               {(cp_int128)1 << 100, 13, 0x10}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cp_buf out = CP_BUF_INIT;
    cp_datum d = dec(cases[i].v);
    CHECK_OK(cp_binary_row_write((const cp_type *const *)&t, &d, 1, &out, &err), &err);
    CHECK_INT(out.data[4 + 8], cases[i].len); /* slot low 32 bits = length */
    CHECK_INT(out.data[4 + 16], cases[i].first);
    cp_datum back;
    CHECK_OK(cp_binary_row_read(out.data, out.len, (const cp_type *const *)&t, 1, &back, &err),
             &err);
    CHECK(back.v.dec == cases[i].v);
    cp_buf_free(&out);
  }
  cp_type_free(t);
}

static void test_corrupt_rows(void) {
  paimon_error err;
  cp_type *t;
  CHECK_OK(cp_type_parse("STRING", &t, &err), &err);
  cp_datum d;
  uint8_t buf[64];
  /* arity larger than the bytes */
  size_t n = hex("00 00 00 05 00 00 00 00", buf);
  CHECK_ERR(cp_binary_row_read(buf, n, (const cp_type *const *)&t, 1, &d, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "arity 5");
  /* arity mismatch */
  n = hex("00 00 00 01 00 00 00 00 00 00 00 00 61 62 63 00 00 00 00 83", buf);
  cp_type *two[2] = {t, t};
  CHECK_ERR(cp_binary_row_read(buf, n, (const cp_type *const *)two, 2, &d, &err), PAIMON_ECORRUPT);
  /* var offset out of range */
  n = hex("00 00 00 01 00 00 00 00 00 00 00 00 08 00 00 00 f0 00 00 00", buf);
  CHECK_ERR(cp_binary_row_read(buf, n, (const cp_type *const *)&t, 1, &d, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "outside");
  /* short buffer */
  CHECK_ERR(cp_binary_row_read(buf, 3, (const cp_type *const *)&t, 1, &d, &err), PAIMON_ECORRUPT);
  cp_type_free(t);
}

int main(void) {
  RUN(test_spec_vectors);
  RUN(test_empty_row);
  RUN(test_null_non_compact_reserves_space);
  RUN(test_big_decimal_minimal_bytes);
  RUN(test_corrupt_rows);
  TEST_MAIN_END();
}
