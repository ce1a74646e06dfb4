/* Test helper shared by the table tests: one batch written and committed through the public
 * write and commit API (include/cpaimon/write.h, commit.h), the test failing on any error. */
#ifndef CP_TEST_COMMIT_TEST_UTIL_H
#define CP_TEST_COMMIT_TEST_UTIL_H

#include "cpaimon/commit.h"
#include "cpaimon/write.h"
#include "test.h"

/* Writes `array` (of `schema`, both borrowed) into `t` and commits it as one snapshot. */
static inline void commit_arrow(paimon_table *t, struct ArrowSchema *schema,
                                struct ArrowArray *array) {
  paimon_error err;
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_write_new(&w, t, NULL, 0, &err), &err);
  CHECK_OK(paimon_write_batch(w, schema, array, &err), &err);
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  paimon_commit_free(c);
  paimon_commit_messages_free(m);
  paimon_write_free(w);
}

#endif
