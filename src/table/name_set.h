/*
 * A set of names (file names, or "<key>\x1f<name>" pairs), for the maintenance code's "is this
 * file still used" questions (expire.c, orphan.c): appended freely, sorted once on first lookup.
 */
#ifndef CP_TABLE_NAME_SET_H
#define CP_TABLE_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "cpaimon/error.h"

typedef struct cp_name_set {
  char **items;
  size_t n, cap;
  bool sorted;
} cp_name_set;

/* Adds `a`, or the pair (a, b) when `b` is not NULL. */
int cp_name_set_add(cp_name_set *s, const char *a, const char *b, paimon_error *err);
/* Whether `a` (or the pair) is in the set. Out of memory answers true: callers ask before
 * deleting, and keeping a file is the safe mistake. */
bool cp_name_set_has(cp_name_set *s, const char *a, const char *b);
void cp_name_set_free(cp_name_set *s);

#endif
