/* Sets of names (name_set.h). */
#include "table/name_set.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"

/* "a" or "a\x1fb", malloc'd. */
static char *key_of(const char *a, const char *b) {
  size_t la = strlen(a), lb = b ? strlen(b) : 0;
  char *v = malloc(la + lb + 2);
  if (!v) return NULL;
  memcpy(v, a, la);
  v[la] = b ? '\x1f' : '\0';
  if (b) memcpy(v + la + 1, b, lb + 1);
  return v;
}

int cp_name_set_add(cp_name_set *s, const char *a, const char *b, paimon_error *err) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **items = realloc(s->items, cap * sizeof *items);
    if (!items) return CP_ENOMEM(err, "name set");
    s->items = items;
    s->cap = cap;
  }
  if (!(s->items[s->n] = key_of(a, b))) return CP_ENOMEM(err, "name set");
  s->n++;
  s->sorted = false;
  return PAIMON_OK;
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

bool cp_name_set_has(cp_name_set *s, const char *a, const char *b) {
  if (!s->n) return false;
  if (!s->sorted) {
    qsort(s->items, s->n, sizeof *s->items, cmp_str);
    s->sorted = true;
  }
  char *k = key_of(a, b);
  if (!k) return true;
  bool found = bsearch(&k, s->items, s->n, sizeof *s->items, cmp_str) != NULL;
  free(k);
  return found;
}

void cp_name_set_free(cp_name_set *s) {
  for (size_t i = 0; i < s->n; i++) free(s->items[i]);
  free(s->items);
  memset(s, 0, sizeof *s);
}
