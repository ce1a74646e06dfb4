/*
 * libFuzzer harness for what the history code (src/table/history.c) reads from disk or takes
 * from a user: tag files (a snapshot's JSON plus tagCreateTime / tagTimeRetained, written by
 * Java, pypaimon or cpaimon) and retention durations ("1 h", "30min").
 *
 * The first input byte picks the parser; the rest is its input. Beyond "no crash, no leak": a
 * parsed tag must describe the snapshot it holds, and a parsed duration is never negative.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/history_internal.h"

static paimon_error E;

static void require(int ok) {
  if (!ok) abort();
}

static void tag_file(const uint8_t *data, size_t size) {
  cp_snapshot *s = NULL;
  paimon_tag tag;
  if (cp_tag_parse(data, size, "tag-fuzz", "fuzz", &s, &tag, &E) == 0) {
    require(tag.snapshot_id == s->id && tag.schema_id == s->schema_id);
    require(strcmp(tag.name, "fuzz") == 0);
    free(tag.name);
    cp_snapshot_free(s);
  }
}

static void duration(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return;
  memcpy(text, data, size);
  text[size] = '\0';
  int64_t ms = -1;
  if (paimon_parse_duration(text, &ms, &E) == 0) require(ms >= 0);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0)
    tag_file(data + 1, size - 1);
  else
    duration(data + 1, size - 1);
  return 0;
}
