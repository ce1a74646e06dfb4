/*
 * Tests for types/type_sql.h: every row of the spec/format.md §2.2 table parsed and printed back in
 * Java's asSQLString form, the nested SQL text, and errors with their offsets.
 *
 * Expected strings are Java's: each class's FORMAT constant and asSQLString in apache/paimon
 * paimon-api/src/main/java/org/apache/paimon/types (DecimalType "DECIMAL(%d, %d)",
 * LocalZonedTimestampType "TIMESTAMP(%d) WITH LOCAL TIME ZONE", VarCharType prints STRING for
 * length Integer.MAX_VALUE, VarBinaryType BYTES, MapType "MAP<%s, %s>", VectorType
 * "VECTOR<%s, %d>", RowType "ROW<%s>" over DataField.asSQLString = escaped `name` + " " + type +
 * " COMMENT '...'"; withNullability appends " NOT NULL"); the defaults come from the DEFAULT_*
 * constants (CharType/VarCharType/BinaryType length 1, DecimalType 10/0, TimeType 0, TimestampType
 * 6).
 */
#include "types/type_sql.h"

#include "test.h"

static const struct {
  const char *in;
  const char *out;
} ROUND_TRIPS[] = {
    /* spec/format.md §2.2 table, what Java writes first, then what the parser also accepts. */
    {"BOOLEAN", "BOOLEAN"},
    {"TINYINT", "TINYINT"},
    {"SMALLINT", "SMALLINT"},
    {"INT", "INT"},
    {"INTEGER", "INT"},
    {"BIGINT", "BIGINT"},
    {"FLOAT", "FLOAT"},
    {"DOUBLE", "DOUBLE"},
    {"DOUBLE PRECISION", "DOUBLE"},
    {"CHAR(5)", "CHAR(5)"},
    {"CHAR", "CHAR(1)"},
    {"VARCHAR(10)", "VARCHAR(10)"},
    {"VARCHAR(2147483647)", "STRING"},
    {"STRING", "STRING"},
    {"VARCHAR", "VARCHAR(1)"},
    {"BINARY(16)", "BINARY(16)"},
    {"BINARY", "BINARY(1)"},
    {"VARBINARY(8)", "VARBINARY(8)"},
    {"VARBINARY(2147483647)", "BYTES"},
    {"BYTES", "BYTES"},
    {"DECIMAL(38, 18)", "DECIMAL(38, 18)"},
    {"DECIMAL(38,18)", "DECIMAL(38, 18)"},
    {"DECIMAL", "DECIMAL(10, 0)"},
    {"DECIMAL(7)", "DECIMAL(7, 0)"},
    {"NUMERIC(5,2)", "DECIMAL(5, 2)"},
    {"DEC(12, 4)", "DECIMAL(12, 4)"},
    {"DATE", "DATE"},
    {"TIME(3)", "TIME(3)"},
    {"TIME", "TIME(0)"},
    {"TIME(3) WITHOUT TIME ZONE", "TIME(3)"},
    {"TIMESTAMP(6)", "TIMESTAMP(6)"},
    {"TIMESTAMP", "TIMESTAMP(6)"},
    {"TIMESTAMP(9) WITHOUT TIME ZONE", "TIMESTAMP(9)"},
    {"TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP(6)"},
    {"TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
    {"TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
    {"TIMESTAMP_LTZ(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
    {"TIMESTAMP_LTZ", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
    {"VARIANT", "VARIANT"},
    {"BLOB", "BLOB"},
    {"VECTOR<FLOAT, 4>", "VECTOR<FLOAT, 4>"},
    /* Nullability. */
    {"INT NOT NULL", "INT NOT NULL"},
    {"INT NULL", "INT"},
    {"STRING NOT NULL", "STRING NOT NULL"},
    {"BYTES NOT NULL", "BYTES NOT NULL"},
    {"DECIMAL(12, 2) NOT NULL", "DECIMAL(12, 2) NOT NULL"},
    {"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL"},
    {"TIMESTAMP_LTZ(9) NOT NULL", "TIMESTAMP(9) WITH LOCAL TIME ZONE NOT NULL"},
    /* Case and whitespace. */
    {"int not null", "INT NOT NULL"},
    {"  Decimal ( 5 ,2 )  ", "DECIMAL(5, 2)"},
    {"timestamp_ltz(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
    {"INT\tNOT\nNULL", "INT NOT NULL"},
    /* Nested SQL text. */
    {"ARRAY<FLOAT>", "ARRAY<FLOAT>"},
    {"array<float not null> not null", "ARRAY<FLOAT NOT NULL> NOT NULL"},
    {"MAP<STRING, INT>", "MAP<STRING, INT>"},
    {"MAP<STRING NOT NULL, ARRAY<BIGINT>> NOT NULL",
     "MAP<STRING NOT NULL, ARRAY<BIGINT>> NOT NULL"},
    {"MULTISET<STRING>", "MULTISET<STRING>"},
    {"VECTOR<FLOAT NOT NULL, 4> NOT NULL", "VECTOR<FLOAT NOT NULL, 4> NOT NULL"},
    {"vector<tinyint, 2147483647>", "VECTOR<TINYINT, 2147483647>"},
    {"ROW<a INT, b STRING>", "ROW<`a` INT, `b` STRING>"},
    {"ROW<a INT NOT NULL, b ROW<c ARRAY<DOUBLE>>> NOT NULL",
     "ROW<`a` INT NOT NULL, `b` ROW<`c` ARRAY<DOUBLE>>> NOT NULL"},
    {"ROW<`a b` INT COMMENT 'it''s', c: DOUBLE>", "ROW<`a b` INT COMMENT 'it''s', `c` DOUBLE>"},
    {"ROW<`x``y` STRING>", "ROW<`x``y` STRING>"},
    {"ROW<date DATE, `int` INT>", "ROW<`date` DATE, `int` INT>"},
    {"ROW<>", "ROW<>"},
    {"ROW(a INT, b BIGINT)", "ROW<`a` INT, `b` BIGINT>"},
    /* Java's suffix notation. */
    {"INT ARRAY", "ARRAY<INT>"},
    {"INT NOT NULL ARRAY NOT NULL", "ARRAY<INT NOT NULL> NOT NULL"},
    {"STRING MULTISET", "MULTISET<STRING>"},
    {"INT ARRAY ARRAY", "ARRAY<ARRAY<INT>>"},
};

static void test_round_trips(void) {
  paimon_error err;
  for (size_t i = 0; i < sizeof ROUND_TRIPS / sizeof ROUND_TRIPS[0]; i++) {
    cp_type *t = NULL, *again = NULL;
    char *s = NULL, *s2 = NULL;
    CHECK_OK(cp_type_parse(ROUND_TRIPS[i].in, &t, &err), &err);
    if (!t) continue;
    CHECK_OK(cp_type_to_sql(t, &s, &err), &err);
    CHECK_STR(s, ROUND_TRIPS[i].out);
    /* Java's form is a fixed point: it parses back to the same tree and prints identically. */
    CHECK_OK(cp_type_parse(s, &again, &err), &err);
    CHECK(cp_type_equals(t, again, 0));
    if (again) CHECK_OK(cp_type_to_sql(again, &s2, &err), &err);
    CHECK_STR(s2, ROUND_TRIPS[i].out);
    free(s);
    free(s2);
    cp_type_free(t);
    cp_type_free(again);
  }
}

static void test_parsed_structure(void) {
  paimon_error err;
  cp_type *t = NULL;
  CHECK_OK(cp_type_parse("NUMERIC(5,2) NOT NULL", &t, &err), &err);
  CHECK(t->kind == CP_TYPE_DECIMAL && t->precision == 5 && t->scale == 2 && !t->nullable);
  cp_type_free(t);
  CHECK_OK(cp_type_parse("TIMESTAMP(3) WITH LOCAL TIME ZONE", &t, &err), &err);
  CHECK(t->kind == CP_TYPE_TIMESTAMP_LTZ && t->precision == 3 && t->nullable);
  cp_type_free(t);
  CHECK_OK(cp_type_parse("STRING", &t, &err), &err);
  CHECK(t->kind == CP_TYPE_VARCHAR && t->length == INT32_MAX);
  cp_type_free(t);
  CHECK_OK(cp_type_parse("VECTOR<FLOAT, 4>", &t, &err), &err);
  CHECK(t->kind == CP_TYPE_VECTOR && t->length == 4 && t->element->kind == CP_TYPE_FLOAT);
  cp_type_free(t);

  CHECK_OK(
      cp_type_parse("ROW<a INT COMMENT 'the key', b ROW<c MAP<STRING, DATE>>, d BLOB>", &t, &err),
      &err);
  CHECK_INT(t->n_fields, 3);
  CHECK_STR(t->fields[0].name, "a");
  CHECK_STR(t->fields[0].description, "the key");
  CHECK(t->fields[0].default_value == NULL);
  CHECK_INT(t->fields[0].id, 0);
  CHECK_INT(t->fields[1].id, 1);
  CHECK_INT(t->fields[1].type->fields[0].id, 2); /* a field before its nested fields */
  CHECK_INT(t->fields[2].id, 3);
  CHECK(t->fields[1].type->fields[0].type->value->kind == CP_TYPE_DATE);
  CHECK(t->fields[1].description == NULL);
  cp_type_free(t);

  /* A length-delimited buffer without a NUL terminator. */
  const char buf[] = {'B', 'I', 'G', 'I', 'N', 'T', 'X'};
  CHECK_OK(cp_type_parse_n(buf, 6, &t, &err), &err);
  CHECK(t->kind == CP_TYPE_BIGINT);
  cp_type_free(t);
}

static void test_field_sql(void) {
  paimon_error err;
  cp_type *t = NULL;
  CHECK_OK(cp_type_parse("ROW<a INT COMMENT 'x'>", &t, &err), &err);
  t->fields[0].default_value = strdup("42");
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_field_append_sql(&t->fields[0], &b, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&b, &err), &err);
  CHECK_STR((char *)b.data, "`a` INT COMMENT 'x' DEFAULT 42");
  cp_buf_free(&b);
  cp_type_free(t);

  /* Java prints no COMMENT for an empty description (StringUtils.isNotEmpty). */
  CHECK_OK(cp_type_parse("ROW<a INT COMMENT ''>", &t, &err), &err);
  CHECK_STR(t->fields[0].description, "");
  char *s = NULL;
  CHECK_OK(cp_type_to_sql(t, &s, &err), &err);
  CHECK_STR(s, "ROW<`a` INT>");
  free(s);
  cp_type_free(t);
}

static void check_error(const char *in, int code, const char *message) {
  paimon_error err;
  cp_type *t = (cp_type *)1;
  CHECK_ERR(cp_type_parse(in, &t, &err), code);
  CHECK(t == NULL);
  CHECK_INT(err.code, code);
  CHECK_CONTAINS(err.message, message);
}

static void test_errors(void) {
  check_error("DECIMAL(5", PAIMON_EINVAL, "type 'DECIMAL(5' at offset 9: expected ')'");
  check_error("DECIMAL(40, 2)", PAIMON_EINVAL,
              "at offset 8: DECIMAL precision 40 must be between 1 and 38");
  check_error("DECIMAL(5, 6)", PAIMON_EINVAL,
              "at offset 11: DECIMAL scale 6 must be between 0 and 5");
  check_error("DECIMAL(5 2)", PAIMON_EINVAL, "at offset 10: expected ')', found '2'");
  check_error("VARCHAR(0)", PAIMON_EINVAL, "at offset 8: length 0 must be between 1 and");
  check_error("VARCHAR(2147483648)", PAIMON_EINVAL, "at offset 8: length 2147483648 must be");
  check_error("CHAR(99999999999999999999999)", PAIMON_EINVAL, "at offset 5: length");
  check_error("TIMESTAMP(10)", PAIMON_EINVAL, "at offset 10: precision 10 must be between 0 and 9");
  check_error("TIME(x)", PAIMON_EINVAL, "at offset 5: expected an integer precision, found 'x'");
  check_error("FOO", PAIMON_EINVAL, "type 'FOO' at offset 0: unknown type 'FOO'");
  check_error("ARRAY<FOO>", PAIMON_EINVAL, "at offset 6: unknown type 'FOO'");
  check_error("", PAIMON_EINVAL, "type '' at offset 0: expected a type name");
  check_error("   ", PAIMON_EINVAL, "at offset 3: expected a type name");
  check_error("INT NOT", PAIMON_EINVAL, "at offset 7: expected NULL");
  check_error("INT NOT NUL", PAIMON_EINVAL, "at offset 8: expected NULL, found 'NUL'");
  check_error("INT FOO", PAIMON_EINVAL, "at offset 4: expected end of type, found 'FOO'");
  check_error("INT)", PAIMON_EINVAL, "at offset 3: expected end of type, found ')'");
  check_error("ARRAY<INT", PAIMON_EINVAL, "at offset 9: expected '>'");
  check_error("ARRAY INT", PAIMON_EINVAL, "at offset 6: expected '<', found 'INT'");
  check_error("MAP<INT>", PAIMON_EINVAL, "at offset 7: expected ','");
  check_error("VECTOR<STRING, 3>", PAIMON_EINVAL,
              "at offset 6: invalid VECTOR element type VARCHAR");
  check_error("VECTOR<FLOAT, 0>", PAIMON_EINVAL, "at offset 14: VECTOR length 0 must be");
  check_error("VECTOR<FLOAT>", PAIMON_EINVAL, "at offset 12: expected ','");
  check_error("ROW<a INT, a STRING>", PAIMON_EINVAL, "'a' appears twice");
  check_error("ROW<a INT,>", PAIMON_EINVAL, "at offset 10: expected a field name, found '>'");
  check_error("ROW<a>", PAIMON_EINVAL, "at offset 5: expected a type name, found '>'");
  check_error("ROW<`a INT>", PAIMON_EINVAL,
              "at offset 4: expected a field name, found an "
              "unterminated quote");
  check_error("ROW<a INT COMMENT 5>", PAIMON_EINVAL, "at offset 18: expected a quoted comment");
  check_error("ROW(a INT>", PAIMON_EINVAL, "at offset 9: expected ')'");
  check_error("TIMESTAMP WITH TIME ZONE", PAIMON_EINVAL, "at offset 15: expected LOCAL");
  check_error("TIMESTAMP_LTZ(3) WITH LOCAL TIME ZONE", PAIMON_EINVAL, "expected end of type");
  check_error("INT.x", PAIMON_EINVAL, "at offset 3: expected end of type, found '.'");
  check_error("ROW<`\xb5"
              "a` INT>",
              PAIMON_EINVAL, "at offset 4: field name is not valid UTF-8");
  check_error("ROW<a\xc3 INT>", PAIMON_EINVAL, "at offset 4: field name is not valid UTF-8");
  check_error("ROW<a INT COMMENT '\xed\xa0\x80'>", PAIMON_EINVAL,
              "at offset 18: comment is not valid UTF-8");
  check_error("GEOMETRY", PAIMON_EUNSUPPORTED, "type GEOMETRY is not supported");
  check_error("INTERVAL DAY", PAIMON_EUNSUPPORTED, "type INTERVAL is not supported");

  /* A NUL byte inside a length-delimited input is not a terminator. */
  paimon_error err;
  cp_type *t = NULL;
  CHECK_ERR(cp_type_parse_n("INT\0NOT NULL", 12, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "at offset 3");
  CHECK_ERR(cp_type_parse_n("ROW<`a\0` INT>", 13, &t, &err), PAIMON_EINVAL);
  CHECK(t == NULL);

  /* Long inputs are shortened in the message. */
  char big[400];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = 0;
  CHECK_ERR(cp_type_parse(big, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "...' at offset 0: unknown type 'xxxx");
  CHECK(strlen(err.message) < 300);
}

static void test_depth_limit(void) {
  paimon_error err;
  cp_type *t = NULL;
  cp_buf b = CP_BUF_INIT;
  /* 64 levels of nesting parse; 10000 levels fail cleanly instead of exhausting the stack. */
  for (int i = 0; i < CP_TYPE_MAX_DEPTH; i++) CHECK_OK(cp_buf_appendf(&b, &err, "ARRAY<"), &err);
  CHECK_OK(cp_buf_appendf(&b, &err, "INT"), &err);
  for (int i = 0; i < CP_TYPE_MAX_DEPTH; i++) CHECK_OK(cp_buf_appendf(&b, &err, ">"), &err);
  CHECK_OK(cp_type_parse_n((char *)b.data, b.len, &t, &err), &err);
  cp_type_free(t);
  cp_buf_clear(&b);
  for (int i = 0; i < 10000; i++) CHECK_OK(cp_buf_appendf(&b, &err, "ROW<a "), &err);
  CHECK_ERR(cp_type_parse_n((char *)b.data, b.len, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  cp_buf_clear(&b);
  CHECK_OK(cp_buf_appendf(&b, &err, "INT"), &err);
  for (int i = 0; i < 10000; i++) CHECK_OK(cp_buf_appendf(&b, &err, " ARRAY"), &err);
  CHECK_ERR(cp_type_parse_n((char *)b.data, b.len, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  cp_buf_free(&b);
}

int main(void) {
  RUN(test_round_trips);
  RUN(test_parsed_structure);
  RUN(test_field_sql);
  RUN(test_errors);
  RUN(test_depth_limit);
  TEST_MAIN_END();
}
