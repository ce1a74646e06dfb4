/* Sets of names (name_set.h): FNV-1a hashing, linear probing, doubling at half full. */
#include "table/name_set.h"

#include <stdint.h>
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

static uint64_t hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ULL;
  return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static size_t find(const cp_name_set *s, const char *key) {
  size_t mask = s->n_slots - 1, i = (size_t)hash(key) & mask;
  while (s->slots[i] && strcmp(s->items[s->slots[i] - 1], key) != 0) i = (i + 1) & mask;
  return i;
}

static int grow(cp_name_set *s, paimon_error *err) {
  size_t n = s->n_slots ? 2 * s->n_slots : 128;
  size_t *slots = calloc(n, sizeof *slots);
  if (!slots) return CP_ENOMEM(err, "name set");
  free(s->slots);
  s->slots = slots;
  s->n_slots = n;
  for (size_t k = 0; k < s->n; k++) s->slots[find(s, s->items[k])] = k + 1;
  return PAIMON_OK;
}

int cp_name_set_add(cp_name_set *s, const char *a, const char *b, paimon_error *err) {
  if (2 * (s->n + 1) > s->n_slots) CP_RETURN_IF_ERROR(grow(s, err));
  char *key = key_of(a, b);
  if (!key) return CP_ENOMEM(err, "name set");
  size_t i = find(s, key);
  if (s->slots[i]) {
    free(key);
    return PAIMON_OK;
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **items = realloc(s->items, cap * sizeof *items);
    if (!items) {
      free(key);
      return CP_ENOMEM(err, "name set");
    }
    s->items = items;
    s->cap = cap;
  }
  s->items[s->n++] = key;
  s->slots[i] = s->n;
  return PAIMON_OK;
}

bool cp_name_set_has(const cp_name_set *s, const char *a, const char *b) {
  if (!s->n) return false;
  char *key = key_of(a, b);
  if (!key) return true;
  bool found = s->slots[find(s, key)] != 0;
  free(key);
  return found;
}

void cp_name_set_free(cp_name_set *s) {
  for (size_t i = 0; i < s->n; i++) free(s->items[i]);
  free(s->items);
  free(s->slots);
  memset(s, 0, sizeof *s);
}
