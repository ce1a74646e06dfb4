/* Tests for src/arrow/type.h: format strings of the Arrow C Data Interface, both directions. */
#include "arrow/type.h"

#include "test.h"

/* Every supported format parses to the expected type and prints back identically (the expected
 * values are the spec's format table, not our own output). */
static void test_roundtrip_every_format(void) {
  static const struct {
    const char *fmt;
    cp_arrow_type id;
    int width;
  } cases[] = {
      {"n", CP_ARROW_NA, 0},
      {"b", CP_ARROW_BOOL, 0},
      {"c", CP_ARROW_INT8, 1},
      {"C", CP_ARROW_UINT8, 1},
      {"s", CP_ARROW_INT16, 2},
      {"S", CP_ARROW_UINT16, 2},
      {"i", CP_ARROW_INT32, 4},
      {"I", CP_ARROW_UINT32, 4},
      {"l", CP_ARROW_INT64, 8},
      {"L", CP_ARROW_UINT64, 8},
      {"e", CP_ARROW_HALF_FLOAT, 2},
      {"f", CP_ARROW_FLOAT, 4},
      {"g", CP_ARROW_DOUBLE, 8},
      {"u", CP_ARROW_STRING, 0},
      {"U", CP_ARROW_LARGE_STRING, 0},
      {"z", CP_ARROW_BINARY, 0},
      {"Z", CP_ARROW_LARGE_BINARY, 0},
      {"w:16", CP_ARROW_FIXED_SIZE_BINARY, 16},
      {"d:38,10", CP_ARROW_DECIMAL128, 16},
      {"tdD", CP_ARROW_DATE32, 4},
      {"tts", CP_ARROW_TIME32, 4},
      {"ttm", CP_ARROW_TIME32, 4},
      {"ttu", CP_ARROW_TIME64, 8},
      {"ttn", CP_ARROW_TIME64, 8},
      {"tss:", CP_ARROW_TIMESTAMP, 8},
      {"tsm:UTC", CP_ARROW_TIMESTAMP, 8},
      {"tsu:America/New_York", CP_ARROW_TIMESTAMP, 8},
      {"tsn:+07:30", CP_ARROW_TIMESTAMP, 8},
      {"+l", CP_ARROW_LIST, 0},
      {"+L", CP_ARROW_LARGE_LIST, 0},
      {"+w:3", CP_ARROW_FIXED_SIZE_LIST, 0},
      {"+s", CP_ARROW_STRUCT, 0},
      {"+m", CP_ARROW_MAP, 0},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    cp_arrow_type_info t;
    paimon_error err;
    char back[96];
    CHECK_OK(cp_arrow_parse_format(cases[k].fmt, &t, &err), &err);
    CHECK_INT(t.id, cases[k].id);
    CHECK_INT(t.byte_width, cases[k].width);
    CHECK_OK(cp_arrow_format_string(&t, back, sizeof back, &err), &err);
    CHECK_STR(back, cases[k].fmt);
  }
}

static void test_parameters(void) {
  cp_arrow_type_info t;
  paimon_error err;
  CHECK_OK(cp_arrow_parse_format("d:10,2", &t, &err), &err);
  CHECK_INT(t.precision, 10);
  CHECK_INT(t.scale, 2);
  CHECK_OK(cp_arrow_parse_format("d:5,0,128", &t, &err), &err);
  CHECK_INT(t.precision, 5);
  CHECK_INT(t.scale, 0);
  CHECK_OK(cp_arrow_parse_format("tsn:Europe/Paris", &t, &err), &err);
  CHECK_INT(t.unit, CP_UNIT_NANO);
  CHECK(t.has_timezone);
  CHECK_STR(t.timezone, "Europe/Paris");
  CHECK_OK(cp_arrow_parse_format("tsm:", &t, &err), &err);
  CHECK_INT(t.unit, CP_UNIT_MILLI);
  CHECK(!t.has_timezone);
  CHECK_STR(t.timezone, "");
  CHECK_OK(cp_arrow_parse_format("tts", &t, &err), &err);
  CHECK_INT(t.unit, CP_UNIT_SECOND);
  CHECK_OK(cp_arrow_parse_format("ttu", &t, &err), &err);
  CHECK_INT(t.unit, CP_UNIT_MICRO);
  CHECK_OK(cp_arrow_parse_format("+w:1024", &t, &err), &err);
  CHECK_INT(t.list_size, 1024);
  CHECK_OK(cp_arrow_parse_format("w:3", &t, &err), &err);
  CHECK_INT(t.byte_width, 3);
}

static void test_errors(void) {
  cp_arrow_type_info t;
  paimon_error err;
  static const char *invalid[] = {"",      "x",      "ii",    "d:",      "d:10", "d:10,",
                                  "d:0,0", "d:39,2", "d:5,6", "d:5,2,7", "w:",   "w:0",
                                  "w:-1",  "tdX",    "tt",    "ttx",     "ts",   "tsu",
                                  "+",     "+x",     "+w:",   "+w:x",    "+ll",  "tsu;UTC"};
  for (size_t k = 0; k < sizeof invalid / sizeof invalid[0]; k++) {
    CHECK_ERR(cp_arrow_parse_format(invalid[k], &t, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "invalid Arrow format string");
  }
  static const char *unsupported[] = {"d:10,2,256", "d:5,2,64", "tdm", "tDs", "tiM", "+us:0,1",
                                      "+ud:0",      "vu",       "vz",  "+vl", "+r",  "d:5,-2"};
  for (size_t k = 0; k < sizeof unsupported / sizeof unsupported[0]; k++) {
    CHECK_ERR(cp_arrow_parse_format(unsupported[k], &t, &err), PAIMON_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, unsupported[k]);
  }
  CHECK_ERR(cp_arrow_parse_format(NULL, &t, &err), PAIMON_EINVAL);
  char tz[200] = "tsu:";
  memset(tz + 4, 'A', 100);
  tz[104] = 0;
  CHECK_ERR(cp_arrow_parse_format(tz, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "timezone name too long");
}

static void test_format_string_errors(void) {
  cp_arrow_type_info t;
  paimon_error err;
  char small[3];
  cp_arrow_type_info_init(&t, CP_ARROW_TIMESTAMP);
  CHECK_ERR(cp_arrow_format_string(&t, small, sizeof small, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "does not fit");
  cp_arrow_type_info_init(&t, CP_ARROW_TIME32);
  t.unit = CP_UNIT_MICRO;
  char buf[96];
  CHECK_ERR(cp_arrow_format_string(&t, buf, sizeof buf, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "time32 cannot have unit");
  t.id = (cp_arrow_type)99;
  CHECK_ERR(cp_arrow_format_string(&t, buf, sizeof buf, &err), PAIMON_EINVAL);
}

static void test_names_and_buffers(void) {
  CHECK_STR(cp_arrow_type_name(CP_ARROW_INT32), "int32");
  CHECK_STR(cp_arrow_type_name(CP_ARROW_LARGE_STRING), "large_utf8");
  CHECK_STR(cp_arrow_type_name((cp_arrow_type)-1), "unknown");
  /* Buffer counts from the columnar format's layout table. */
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_NA), 0);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_STRUCT), 1);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_FIXED_SIZE_LIST), 1);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_BOOL), 2);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_LIST), 2);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_MAP), 2);
  CHECK_INT(cp_arrow_type_n_buffers(CP_ARROW_LARGE_BINARY), 3);
  CHECK(cp_arrow_type_is_integer(CP_ARROW_UINT64));
  CHECK(!cp_arrow_type_is_integer(CP_ARROW_DATE32));
  CHECK(cp_arrow_type_is_list_like(CP_ARROW_MAP));
  CHECK_INT(cp_time_unit_per_second(CP_UNIT_NANO), 1000000000);
}

int main(void) {
  RUN(test_roundtrip_every_format);
  RUN(test_parameters);
  RUN(test_errors);
  RUN(test_format_string_errors);
  RUN(test_names_and_buffers);
  TEST_MAIN_END();
}
