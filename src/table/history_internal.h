/*
 * Tag files for the rest of the table layer (history.c): time travel to a tag reads the tag's
 * own copy of the snapshot, which outlives the snapshot file; `$tags` lists them.
 */
#ifndef CP_TABLE_HISTORY_INTERNAL_H
#define CP_TABLE_HISTORY_INTERNAL_H

#include <stddef.h>

#include "cpaimon/history.h"
#include "meta/snapshot.h"

/* Parses a tag file's bytes (`source` names it in errors): the snapshot it holds into *snap and,
 * with `tag`, the tag's row (name copied) — either may be NULL. */
int cp_tag_parse(const void *data, size_t len, const char *source, const char *name,
                 cp_snapshot **snap, paimon_tag *tag, paimon_error *err);
/* Loads tag `name` of `t`; ENOTFOUND ("Tag 'x' doesn't exist.") when there is none. */
int cp_tag_load(paimon_table *t, const char *name, cp_snapshot **snap, paimon_tag *tag,
                paimon_error *err);

#endif
