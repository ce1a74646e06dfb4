/*
 * libFuzzer harness for serialized splits (paimon_plan_deserialize, include/cpaimon/read.h): the
 * bytes a Ray or process-pool driver ships to the worker that reads them. Whatever deserializes
 * must serialize, deserialize to as many splits with the same row counts, and serialize to the same
 * bytes again (abort() otherwise); nothing may crash, leak or allocate without bound.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpaimon/read.h"

static void require(int ok) {
  if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  paimon_plan *p = NULL, *again = NULL;
  paimon_error err;
  uint8_t *s1 = NULL, *s2 = NULL;
  size_t n1 = 0, n2 = 0;
  if (paimon_plan_deserialize(&p, data, size, &err) == 0) {
    require(paimon_plan_serialize(p, NULL, 0, &s1, &n1, &err) == 0);
    require(paimon_plan_deserialize(&again, s1, n1, &err) == 0);
    require(paimon_plan_split_count(again) == paimon_plan_split_count(p));
    for (size_t i = 0; i < paimon_plan_split_count(p); i++)
      require(paimon_plan_split_row_count(again, i) == paimon_plan_split_row_count(p, i));
    require(paimon_plan_serialize(again, NULL, 0, &s2, &n2, &err) == 0);
    require(n1 == n2 && memcmp(s1, s2, n1) == 0);
  }
  paimon_plan_free(p);
  paimon_plan_free(again);
  free(s1);
  free(s2);
  return 0;
}
