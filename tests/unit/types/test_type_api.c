/* Tests for the public type conversions (include/cpaimon/types.h): SQL text, schema-file JSON and
 * Arrow, round trips, and errors. */
#include "cpaimon/types.h"

#include <stdlib.h>
#include <string.h>

#include "test.h"

static void check_json(const char *sql, const char *want_json, const char *want_sql) {
  paimon_error err;
  char *json = NULL, *back = NULL;
  CHECK_OK(paimon_type_sql_to_json(sql, &json, &err), &err);
  if (!json) return;
  CHECK_STR(json, want_json);
  CHECK_OK(paimon_type_json_to_sql(json, &back, &err), &err);
  if (back) CHECK_STR(back, want_sql);
  free(json);
  free(back);
}

static void test_sql_and_json(void) {
  check_json("int not null", "\"INT NOT NULL\"", "INT NOT NULL");
  check_json("DECIMAL(10,2)", "\"DECIMAL(10, 2)\"", "DECIMAL(10, 2)");
  check_json("ARRAY<FLOAT NOT NULL> NOT NULL",
             "{\"type\":\"ARRAY NOT NULL\",\"element\":\"FLOAT NOT NULL\"}",
             "ARRAY<FLOAT NOT NULL> NOT NULL");
  check_json("MAP<STRING, BIGINT>", "{\"type\":\"MAP\",\"key\":\"STRING\",\"value\":\"BIGINT\"}",
             "MAP<STRING, BIGINT>");
  paimon_error err;
  char *json = NULL;
  CHECK_OK(paimon_type_sql_to_json("ROW<a INT, b ROW<c STRING COMMENT 'x'>>", &json, &err), &err);
  if (json) {
    CHECK_CONTAINS(json, "\"name\":\"a\"");
    CHECK_CONTAINS(json, "\"description\":\"x\"");
  }
  free(json);
  char *sql = NULL;
  CHECK_OK(paimon_type_normalize("  array < int >", &sql, &err), &err);
  if (sql) CHECK_STR(sql, "ARRAY<INT>");
  free(sql);
  CHECK_ERR(paimon_type_sql_to_json("ARRAY<", &json, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_type_json_to_sql("{\"type\":\"ARRAY\"}", &sql, &err), PAIMON_EINVAL);
  CHECK(paimon_type_json_to_sql("[", &sql, &err) != 0);
  CHECK(paimon_type_normalize(NULL, &sql, &err) != 0);
}

static void test_arrow(void) {
  paimon_error err;
  struct ArrowSchema s;
  CHECK_OK(paimon_type_to_arrow("TIMESTAMP(3) NOT NULL", "ts", &s, &err), &err);
  CHECK_STR(s.format, "tsm:");
  CHECK_STR(s.name, "ts");
  CHECK((s.flags & ARROW_FLAG_NULLABLE) == 0);
  char *sql = NULL;
  CHECK_OK(paimon_type_from_arrow(&s, &sql, &err), &err);
  if (sql) CHECK_STR(sql, "\"TIMESTAMP(3) NOT NULL\"");
  free(sql);
  s.release(&s);
  CHECK_OK(paimon_type_to_arrow("MAP<STRING, ARRAY<INT>>", NULL, &s, &err), &err);
  CHECK_OK(paimon_type_from_arrow(&s, &sql, &err), &err);
  /* Arrow map keys are never null */
  if (sql)
    CHECK_STR(sql, "{\"type\":\"MAP\",\"key\":\"STRING NOT NULL\",\"value\":{\"type\":\"ARRAY\","
                   "\"element\":\"INT\"}}");
  free(sql);
  s.release(&s);
  CHECK_ERR(paimon_type_to_arrow("NOPE", "x", &s, &err), PAIMON_EINVAL);
}

int main(void) {
  RUN(test_sql_and_json);
  RUN(test_arrow);
  TEST_MAIN_END();
}
