/*
 * A set of names (file names, or "<key>\x1f<name>" pairs), for the maintenance code's "is this
 * file still used" questions (expire.c, orphan.c): a hash set, each name stored once, with its
 * members in insertion order in `items`.
 */
#ifndef CP_TABLE_NAME_SET_H
#define CP_TABLE_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "cpaimon/error.h"

typedef struct cp_name_set {
  char **items; /* the members, in insertion order */
  size_t n, cap;
  size_t *slots;  /* open addressing: index + 1 into items, 0 = empty */
  size_t n_slots; /* a power of two, at least twice n */
} cp_name_set;

/* Adds `a`, or the pair (a, b) when `b` is not NULL; a member already there is not added again. */
int cp_name_set_add(cp_name_set *s, const char *a, const char *b, paimon_error *err);
/* Whether `a` (or the pair) is in the set. Out of memory answers true: callers ask before
 * deleting, and keeping a file is the safe mistake. */
bool cp_name_set_has(const cp_name_set *s, const char *a, const char *b);
void cp_name_set_free(cp_name_set *s);

#endif
