/*
 * Helpers shared by the arrow layer's unit tests: a compact schema notation and shortcuts for
 * building arrays through cp_builder.
 *
 * Schema notation: node := name '=' format ['!'] ['{' node (';' node)* '}'], where '!' marks the
 * field non-nullable. Example: "=+s{a=i;b=+l{item=u};m=+m{entries=+s!{key=u!;value=l}}}".
 */
#ifndef CP_ARROW_TEST_H
#define CP_ARROW_TEST_H

#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "test.h"

static const char *ts_parse_node(struct ArrowSchema *out, const char *p) {
  char name[128], fmt[128];
  size_t n = 0;
  while (*p && *p != '=' && n < sizeof name - 1) name[n++] = *p++;
  name[n] = 0;
  if (*p != '=') return NULL;
  p++;
  n = 0;
  while (*p && *p != '{' && *p != ';' && *p != '}' && *p != '!' && n < sizeof fmt - 1)
    fmt[n++] = *p++;
  fmt[n] = 0;
  int64_t flags = ARROW_FLAG_NULLABLE;
  if (*p == '!') flags = 0, p++;
  int64_t nc = 0;
  if (*p == '{') {
    int depth = 0;
    for (const char *q = p; *q; q++) {
      if (*q == '{') depth++;
      if (*q == '}' && --depth == 0) break;
      if (*q == ';' && depth == 1) nc++;
    }
    nc++;
  }
  if (cp_schema_init(out, fmt, name, flags, nc, NULL) != 0) return NULL;
  if (*p == '{') {
    p++;
    for (int64_t i = 0; i < nc; i++) {
      p = ts_parse_node(out->children[i], p);
      if (!p) return NULL;
      if (*p == ';') p++;
    }
    if (*p != '}') return NULL;
    p++;
  }
  return p;
}

/* Builds an owned schema from the notation above; aborts the test program on a typo. */
static inline void ts_schema(struct ArrowSchema *out, const char *spec) {
  const char *end = ts_parse_node(out, spec);
  if (!end || *end) {
    fprintf(stderr, "bad test schema spec: %s\n", spec);
    exit(2);
  }
}

/* Builds an int32/int64/... array (type from `fmt`) from values; `nulls` is a 0/1 array or NULL. */
static inline void ts_int_array(struct ArrowSchema *s, struct ArrowArray *a, const char *fmt,
                                const int64_t *vals, const int *nulls, int64_t n) {
  char spec[64];
  snprintf(spec, sizeof spec, "x=%s", fmt);
  ts_schema(s, spec);
  cp_builder *b;
  paimon_error err;
  CHECK_OK(cp_builder_create(&b, s, &err), &err);
  for (int64_t i = 0; i < n; i++) {
    if (nulls && nulls[i])
      CHECK_OK(cp_builder_append_null(b, &err), &err);
    else
      CHECK_OK(cp_builder_append_int64(b, vals[i], &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, a, &err), &err);
  cp_builder_free(b);
}

/* Builds a utf8 array from C strings; a NULL entry is a null row. */
static inline void ts_str_array(struct ArrowSchema *s, struct ArrowArray *a, const char *fmt,
                                const char *const *vals, int64_t n) {
  char spec[64];
  snprintf(spec, sizeof spec, "x=%s", fmt);
  ts_schema(s, spec);
  cp_builder *b;
  paimon_error err;
  CHECK_OK(cp_builder_create(&b, s, &err), &err);
  for (int64_t i = 0; i < n; i++) {
    if (!vals[i])
      CHECK_OK(cp_builder_append_null(b, &err), &err);
    else
      CHECK_OK(cp_builder_append_str(b, vals[i], &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, a, &err), &err);
  cp_builder_free(b);
}

#endif
