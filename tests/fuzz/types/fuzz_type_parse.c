/*
 * libFuzzer harness for the type parsers (types/type_sql.h, types/type_json.h), which read type
 * strings and schema-file JSON from disk and from users (spec/format.md §2.2).
 *
 * The first input byte picks the parser (type string, JSON type node, JSON DataField, JSON field
 * array); the rest is the input. Beyond "no crash, no leak, no unbounded allocation" (ASan and
 * libFuzzer's -rss_limit_mb / -malloc_limit_mb), every accepted input must satisfy invariants that
 * abort() when broken:
 *   - the tree passes cp_type_validate (up to the depth limit, which a JSON node holding a long
 *     type string may legitimately exceed);
 *   - printing is a fixed point: parse(print(t)) prints the same text, and equals t;
 *   - the JSON form round-trips exactly: from_json(to_json(t)) equals t;
 *   - every type converts to Arrow, and back unless it is too deep.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "types/type_arrow.h"
#include "types/type_json.h"
#include "types/type_sql.h"

static void require(int ok) {
  if (!ok) abort();
}

static int is_depth_error(const paimon_error *err) {
  return strstr(err->message, "nested deeper than") != NULL;
}

static void check_sql_fixed_point(const cp_type *t) {
  paimon_error err;
  char *s1 = NULL, *s2 = NULL;
  cp_type *again = NULL;
  require(cp_type_to_sql(t, &s1, &err) == 0);
  int rc = cp_type_parse(s1, &again, &err);
  /* A tree from JSON may carry text the SQL form cannot express or nest deeper than the string
   * parser allows; only a tree that parses back must agree. */
  if (rc == 0) {
    require(cp_type_to_sql(again, &s2, &err) == 0);
    require(strcmp(s1, s2) == 0);
    require(cp_type_equals(t, again, CP_TYPE_EQ_IGNORE_FIELD_IDS | CP_TYPE_EQ_IGNORE_FIELD_DOCS));
  }
  free(s1);
  free(s2);
  cp_type_free(again);
}

static void check_json_round_trip(const cp_type *t) {
  paimon_error err;
  json_t *j = NULL;
  cp_type *again = NULL;
  require(cp_type_to_json(t, &j, &err) == 0);
  int rc = cp_type_from_json(j, &again, &err);
  require(rc == 0 || is_depth_error(&err));
  if (rc == 0) require(cp_type_equals(t, again, 0));
  json_decref(j);
  cp_type_free(again);
}

static void check_arrow(const cp_type *t) {
  paimon_error err;
  struct ArrowSchema s;
  cp_type *back = NULL;
  require(cp_type_to_arrow(t, "c", &s, &err) == 0);
  int rc = cp_type_from_arrow(&s, &back, &err);
  require(rc == 0 || is_depth_error(&err));
  cp_schema_release(&s);
  cp_type_free(back);
}

static void check_type(const cp_type *t, int from_string) {
  paimon_error err;
  int rc = cp_type_validate(t, &err);
  require(rc == 0 || (!from_string && is_depth_error(&err)));
  if (from_string) {
    /* The string parser's own output always parses back: test the fixed point strictly. */
    char *s1 = NULL;
    cp_type *again = NULL;
    require(cp_type_to_sql(t, &s1, &err) == 0);
    require(cp_type_parse(s1, &again, &err) == 0);
    free(s1);
    cp_type_free(again);
  }
  check_sql_fixed_point(t);
  check_json_round_trip(t);
  check_arrow(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  paimon_error err;
  cp_type *t = NULL;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  if (data[0] % 4 == 0) {
    if (cp_type_parse_n(text, len, &t, &err) == 0) check_type(t, 1);
    cp_type_free(t);
    return 0;
  }
  json_error_t jerr;
  json_t *j = json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  if (!j) return 0;
  if (data[0] % 4 == 1) {
    if (cp_type_from_json(j, &t, &err) == 0) check_type(t, 0);
  } else if (data[0] % 4 == 2) {
    cp_field f;
    if (cp_field_from_json(j, &f, &err) == 0) {
      json_t *back = NULL;
      cp_field f2;
      require(cp_field_to_json(&f, &back, &err) == 0);
      require(cp_field_from_json(back, &f2, &err) == 0 || is_depth_error(&err));
      if (f2.type) require(cp_field_equals(&f, &f2, 0));
      cp_field_clear(&f2);
      json_decref(back);
      check_type(f.type, 0);
      cp_field_clear(&f);
    }
  } else if (cp_fields_from_json(j, &t, &err) == 0) {
    check_type(t, 0);
  }
  cp_type_free(t);
  json_decref(j);
  return 0;
}
