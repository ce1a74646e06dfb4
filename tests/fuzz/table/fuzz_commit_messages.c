/*
 * libFuzzer harness for serialized commit messages (include/cpaimon/commit.h), the bytes a writer
 * process hands to a committer in another process (a shard updater's messages, for instance).
 * Whatever deserializes must serialize, deserialize to as many messages, and serialize to the same
 * bytes again (abort() otherwise); nothing may crash, leak or allocate without bound.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpaimon/commit.h"

static void require(int ok) {
  if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  paimon_commit_messages *m = NULL, *again = NULL;
  paimon_error err;
  uint8_t *s1 = NULL, *s2 = NULL;
  size_t n1 = 0, n2 = 0;
  if (paimon_commit_messages_deserialize(&m, data, size, &err) == 0) {
    require(paimon_commit_messages_serialize(m, &s1, &n1, &err) == 0);
    require(paimon_commit_messages_deserialize(&again, s1, n1, &err) == 0);
    require(paimon_commit_messages_count(again) == paimon_commit_messages_count(m));
    require(paimon_commit_messages_serialize(again, &s2, &n2, &err) == 0);
    require(n1 == n2 && memcmp(s1, s2, n1) == 0);
  }
  paimon_commit_messages_free(m);
  paimon_commit_messages_free(again);
  free(s1);
  free(s2);
  return 0;
}
