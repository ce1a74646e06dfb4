/* Tests for include/cpaimon/error.h. */
#include "test.h"

static void test_set_and_prefix(void) {
  paimon_error err;
  paimon_error_clear(&err);
  CHECK_INT(paimon_error_set(&err, PAIMON_ENOTFOUND, "column '%s' not found", "age"),
            PAIMON_ENOTFOUND);
  CHECK_INT(err.code, PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "column 'age' not found");
  CHECK_INT(paimon_error_prefix(&err, "table %s", "db.t"), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "table db.t: column 'age' not found");
  paimon_error_clear(&err);
  CHECK_INT(err.code, 0);
  CHECK_STR(err.message, "");
}

static void test_null_error_is_allowed(void) {
  CHECK_INT(paimon_error_set(NULL, PAIMON_EIO, "x"), PAIMON_EIO);
  CHECK_INT(paimon_error_prefix(NULL, "x"), PAIMON_OK);
}

static void test_truncation(void) {
  paimon_error err;
  char big[3000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  paimon_error_set(&err, PAIMON_EINVAL, "%s", big);
  CHECK_INT(strlen(err.message), PAIMON_ERROR_MESSAGE_SIZE - 1);
  paimon_error_prefix(&err, "file %s", "f.parquet");
  CHECK_INT(strlen(err.message), PAIMON_ERROR_MESSAGE_SIZE - 1);
  CHECK(strncmp(err.message, "file f.parquet: xxx", 19) == 0);
}

static void test_status_names(void) {
  CHECK_STR(paimon_status_name(PAIMON_ECORRUPT), "ECORRUPT");
  CHECK_STR(paimon_status_name(PAIMON_OK), "OK");
  CHECK_STR(paimon_status_name(-1234), "unknown");
}

int main(void) {
  RUN(test_set_and_prefix);
  RUN(test_null_error_is_allowed);
  RUN(test_truncation);
  RUN(test_status_names);
  TEST_MAIN_END();
}
