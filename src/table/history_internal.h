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

/* TagDeletion after the tag of `tagged` (whose snapshot is expired) was deleted: its data files
 * neither neighbour holds — `left` the previous tag, `right` the earliest snapshot or the next
 * tag, whichever is older (either may be NULL) — then its manifests, manifest lists, index
 * manifest and index files the neighbours do not reference. Files already gone are fine; a
 * neighbour that cannot be read skips that step (orphan removal reclaims the rest). In
 * expire.c. */
int cp_tag_clean_files(paimon_table *t, const cp_snapshot *tagged, const cp_snapshot *left,
                       const cp_snapshot *right, paimon_error *err);

#endif
