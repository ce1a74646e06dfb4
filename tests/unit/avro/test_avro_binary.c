/*
 * Tests for src/format/avro/binary.c: zigzag varints at their edges, floats, bytes, and every way
 * a primitive can be malformed. Expected encodings come from the Avro specification's zigzag
 * table (0→00, -1→01, 1→02, -64→7f, 64→80 01) and from fastavro 1.13.1's schemaless_writer
 * (the hex strings below were produced by it, not by this code).
 */
#include <math.h>

#include "format/avro/binary.h"
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

typedef struct {
  int64_t value;
  const char *hex;
} long_case;

static const long_case long_cases[] = {
    {0, "00"},
    {-1, "01"},
    {1, "02"},
    {-2, "03"},
    {2, "04"},
    {-64, "7f"},
    {63, "7e"},
    {64, "8001"},
    {-65, "8101"},
    {8191, "fe7f"},
    {8192, "808001"},
    {2147483647, "feffffff0f"},
    {-2147483647 - 1, "ffffffff0f"},
    {INT64_MAX, "feffffffffffffffff01"},
    {INT64_MIN, "ffffffffffffffffff01"},
    {1234567890123LL, "9693d89fee47"},
};

static void test_long_round_trip(void) {
  for (size_t i = 0; i < sizeof long_cases / sizeof long_cases[0]; i++) {
    uint8_t want[16];
    size_t want_len = unhex(long_cases[i].hex, want);
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_avro_write_long(&b, long_cases[i].value, NULL), NULL);
    CHECK_INT(b.len, want_len);
    CHECK(b.len == want_len && memcmp(b.data, want, want_len) == 0);
    cp_avro_cursor c;
    cp_avro_cursor_init(&c, want, want_len);
    int64_t got = 0;
    CHECK_OK(cp_avro_read_long(&c, &got, NULL), NULL);
    CHECK_INT(got, long_cases[i].value);
    CHECK_INT(cp_avro_cursor_remaining(&c), 0);
    cp_buf_free(&b);
  }
}

static void test_int_edges(void) {
  uint8_t buf[8];
  cp_avro_cursor c;
  int32_t v;
  size_t n = unhex("feffffff0f", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_OK(cp_avro_read_int(&c, &v, NULL), NULL);
  CHECK_INT(v, INT32_MAX);
  n = unhex("ffffffff0f", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_OK(cp_avro_read_int(&c, &v, NULL), NULL);
  CHECK_INT(v, INT32_MIN);
  /* The encoding of 2^31 (a long) is not a valid int: the fifth byte carries a bit past 32. */
  paimon_error err = {0};
  n = unhex("8080808010", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_ERR(cp_avro_read_int(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "overflows 32 bits");
  /* Six bytes is too long for an int. */
  n = unhex("808080808000", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_ERR(cp_avro_read_int(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "longer than 5 bytes");
}

static void test_long_malformed(void) {
  uint8_t buf[16];
  cp_avro_cursor c;
  int64_t v;
  paimon_error err = {0};
  /* 11 bytes: the tenth still has its continuation bit. */
  size_t n = unhex("ffffffffffffffffff8101", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_ERR(cp_avro_read_long(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "longer than 10 bytes");
  CHECK_CONTAINS(err.message, "at byte 0");
  /* Ten bytes, but the last carries bits beyond 64. */
  n = unhex("ffffffffffffffffff02", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_ERR(cp_avro_read_long(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "overflows 64 bits");
  /* Truncated: continuation bit on the last available byte; the offset is where it began. */
  n = unhex("0280", buf);
  cp_avro_cursor_init(&c, buf, n);
  CHECK_OK(cp_avro_read_long(&c, &v, NULL), NULL);
  CHECK_INT(v, 1);
  CHECK_ERR(cp_avro_read_long(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "at byte 1: truncated varint");
  /* Empty input. */
  cp_avro_cursor_init(&c, buf, 0);
  CHECK_ERR(cp_avro_read_long(&c, &v, &err), PAIMON_ECORRUPT);
}

static void test_floats(void) {
  cp_buf b = CP_BUF_INIT;
  uint8_t want[8];
  CHECK_OK(cp_avro_write_float(&b, 1.5f, NULL), NULL);
  CHECK_OK(cp_avro_write_float(&b, -0.1f, NULL), NULL);
  CHECK_OK(cp_avro_write_double(&b, 1.5, NULL), NULL);
  CHECK_OK(cp_avro_write_double(&b, -0.1, NULL), NULL);
  CHECK_INT(b.len, 24);
  unhex("0000c03f", want);
  CHECK(memcmp(b.data, want, 4) == 0);
  unhex("cdccccbd", want);
  CHECK(memcmp(b.data + 4, want, 4) == 0);
  unhex("000000000000f83f", want);
  CHECK(memcmp(b.data + 8, want, 8) == 0);
  unhex("9a9999999999b9bf", want);
  CHECK(memcmp(b.data + 16, want, 8) == 0);
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, b.data, b.len);
  float f;
  double d;
  CHECK_OK(cp_avro_read_float(&c, &f, NULL), NULL);
  CHECK(f == 1.5f);
  CHECK_OK(cp_avro_read_float(&c, &f, NULL), NULL);
  CHECK(f == -0.1f);
  CHECK_OK(cp_avro_read_double(&c, &d, NULL), NULL);
  CHECK(d == 1.5);
  CHECK_OK(cp_avro_read_double(&c, &d, NULL), NULL);
  CHECK(d == -0.1);
  paimon_error err = {0};
  CHECK_ERR(cp_avro_read_double(&c, &d, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "at byte 24: truncated double");
  cp_avro_cursor_init(&c, b.data, 3);
  CHECK_ERR(cp_avro_read_float(&c, &f, &err), PAIMON_ECORRUPT);
  cp_buf_clear(&b);
  CHECK_OK(cp_avro_write_double(&b, NAN, NULL), NULL);
  cp_avro_cursor_init(&c, b.data, b.len);
  CHECK_OK(cp_avro_read_double(&c, &d, NULL), NULL);
  CHECK(isnan(d));
  cp_buf_free(&b);
}

static void test_bytes_and_strings(void) {
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_avro_write_string(&b, "h\xc3\xa9llo", NULL), NULL);
  uint8_t want[16];
  size_t n = unhex("0c68c3a96c6c6f", want);
  CHECK(b.len == n && memcmp(b.data, want, n) == 0);
  CHECK_OK(cp_avro_write_bytes(&b, NULL, 0, NULL), NULL);
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, b.data, b.len);
  const uint8_t *data;
  size_t len;
  CHECK_OK(cp_avro_read_bytes(&c, &data, &len, NULL), NULL);
  CHECK_INT(len, 6);
  CHECK(memcmp(data, "h\xc3\xa9llo", 6) == 0);
  CHECK_OK(cp_avro_read_bytes(&c, &data, &len, NULL), NULL);
  CHECK_INT(len, 0);
  cp_buf_free(&b);

  paimon_error err = {0};
  n = unhex("01", want); /* length -1 */
  cp_avro_cursor_init(&c, want, n);
  CHECK_ERR(cp_avro_read_bytes(&c, &data, &len, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "negative length -1");
  n = unhex("0a6162", want); /* length 5, two bytes present */
  cp_avro_cursor_init(&c, want, n);
  CHECK_ERR(cp_avro_read_bytes(&c, &data, &len, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "length 5 exceeds the 2 bytes remaining");
  CHECK_INT(cp_avro_cursor_offset(&c), 0); /* a failed read does not move the cursor */
  /* A huge claimed length must fail without trying to use it. */
  n = unhex("feffffffffffffffff01", want);
  cp_avro_cursor_init(&c, want, n);
  CHECK_ERR(cp_avro_read_bytes(&c, &data, &len, &err), PAIMON_ECORRUPT);
}

static void test_boolean_and_raw(void) {
  uint8_t buf[4] = {1, 0, 2, 9};
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, buf, sizeof buf);
  bool v;
  paimon_error err = {0};
  CHECK_OK(cp_avro_read_boolean(&c, &v, NULL), NULL);
  CHECK(v);
  CHECK_OK(cp_avro_read_boolean(&c, &v, NULL), NULL);
  CHECK(!v);
  CHECK_ERR(cp_avro_read_boolean(&c, &v, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "at byte 2");
  const uint8_t *raw;
  CHECK_OK(cp_avro_read_raw(&c, 2, &raw, NULL), NULL);
  CHECK(raw[0] == 2 && raw[1] == 9);
  CHECK_ERR(cp_avro_read_raw(&c, 1, &raw, &err), PAIMON_ECORRUPT);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_avro_write_boolean(&b, true, NULL), NULL);
  CHECK_OK(cp_avro_write_int(&b, -3, NULL), NULL);
  CHECK(b.len == 2 && b.data[0] == 1 && b.data[1] == 5);
  cp_buf_free(&b);
}

int main(void) {
  RUN(test_long_round_trip);
  RUN(test_int_edges);
  RUN(test_long_malformed);
  RUN(test_floats);
  RUN(test_bytes_and_strings);
  RUN(test_boolean_and_raw);
  TEST_MAIN_END();
}
