/*
 * Orphan-file removal (include/cpaimon/history.h; spec/maintenance-and-blob.md §4.2), after Java
 * Paimon's OrphanFilesClean / LocalOrphanFilesClean: the names every snapshot and tag uses
 * (manifest lists, manifests, index manifests and index files, statistics, data files with their
 * extra files, ADD and DELETE entries alike) against the files of manifest/, index/, statistics/
 * and the bucket directories, plus stray files in snapshot/; only files older than the cut-off go,
 * and never anything outside those directories of the table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/fs.h"
#include "base/status.h"
#include "base/time.h"
#include "cpaimon/history.h"
#include "table/file_store.h"
#include "table/history_internal.h"
#include "table/name_set.h"
#include "table/store.h"
#include "table/table.h"

#define DAY_MILLIS (24LL * 3600 * 1000)

/* ---- what the snapshots and tags use -------------------------------------------------------- */

typedef struct cleaner {
  paimon_table *t;
  cp_arena arena;
  cp_name_set used;
  cp_name_set manifests_read; /* manifests already decoded (many snapshots share them) */
  int64_t older_than;
  bool dry_run;
  paimon_orphan_result *res;
  paimon_string_list *paths;
  size_t paths_cap;
} cleaner;

/* A snapshot that vanished while being read (expired concurrently) uses nothing; any other read
 * failure stops the clean, as Java's (a file it could not read might have been in use). */
static int vanished(int rc, paimon_error *err) {
  if (rc != PAIMON_ENOTFOUND) return rc;
  paimon_error_clear(err);
  return PAIMON_OK;
}

static int use_manifest(cleaner *c, const char *name, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_name_set_add(&c->used, name, NULL, err));
  if (cp_name_set_has(&c->manifests_read, name, NULL)) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_name_set_add(&c->manifests_read, name, NULL, err));
  cp_entry_vec entries = {0};
  int rc = cp_read_manifest(c->t->fs, c->t->path, name, &c->arena, &entries, err);
  for (size_t i = 0; !rc && i < entries.n; i++) {
    const cp_data_file_meta *f = &entries.items[i].file;
    rc = cp_name_set_add(&c->used, f->file_name, NULL, err);
    for (size_t k = 0; !rc && k < f->extra_files.n; k++)
      rc = cp_name_set_add(&c->used, f->extra_files.items[k], NULL, err);
  }
  cp_entry_vec_free(&entries);
  return rc;
}

static int use_snapshot(cleaner *c, const cp_snapshot *s, paimon_error *err) {
  const char *lists[] = {s->base_manifest_list, s->delta_manifest_list, s->changelog_manifest_list};
  int rc = PAIMON_OK;
  for (size_t l = 0; !rc && l < 3; l++) {
    if (!lists[l]) continue;
    rc = cp_name_set_add(&c->used, lists[l], NULL, err);
    cp_manifest_meta_vec metas = {0};
    if (!rc) rc = cp_read_manifest_list(c->t->fs, c->t->path, lists[l], &c->arena, &metas, err);
    for (size_t i = 0; !rc && i < metas.n; i++) rc = use_manifest(c, metas.items[i].file_name, err);
    cp_manifest_meta_vec_free(&metas);
  }
  if (!rc && s->index_manifest) {
    rc = cp_name_set_add(&c->used, s->index_manifest, NULL, err);
    cp_index_entry_vec idx = {0};
    if (!rc) rc = cp_snapshot_index_entries(c->t->fs, c->t->path, s, &c->arena, &idx, err);
    for (size_t i = 0; !rc && i < idx.n; i++)
      rc = cp_name_set_add(&c->used, idx.items[i].file_name, NULL, err);
    cp_index_entry_vec_free(&idx);
  }
  if (!rc && s->statistics) rc = cp_name_set_add(&c->used, s->statistics, NULL, err);
  return rc;
}

static int collect_used(cleaner *c, paimon_error *err) {
  char *dir = cp_path_join(c->t->path, "snapshot");
  if (!dir) return CP_ENOMEM(err, "path");
  int64_t *ids = NULL;
  size_t n = 0;
  int rc = cp_list_versioned(c->t->fs, dir, "snapshot-", &ids, &n, err);
  free(dir);
  for (size_t i = 0; !rc && i < n; i++) {
    cp_snapshot *s = NULL;
    rc = cp_snapshot_load(c->t->fs, c->t->path, ids[i], &s, err);
    rc = rc ? vanished(rc, err) : vanished(use_snapshot(c, s, err), err);
    cp_snapshot_free(s);
    cp_arena_free(&c->arena); /* the names are copied into the sets; the decoded files go */
  }
  free(ids);
  paimon_tag_list tags = {0};
  if (!rc) rc = paimon_table_list_tags(c->t, &tags, err);
  for (size_t i = 0; !rc && i < tags.count; i++) {
    cp_snapshot *s = NULL;
    rc = cp_tag_load(c->t, tags.items[i].name, &s, NULL, err);
    rc = rc ? vanished(rc, err) : vanished(use_snapshot(c, s, err), err);
    cp_snapshot_free(s);
    cp_arena_free(&c->arena); /* the names are copied into the sets; the decoded files go */
  }
  paimon_tag_list_free(&tags);
  return rc;
}

/* ---- candidates ----------------------------------------------------------------------------- */

static int note_path(cleaner *c, const char *path, paimon_error *err) {
  paimon_string_list *l = c->paths;
  if (!l) return PAIMON_OK;
  if (l->count == c->paths_cap) {
    size_t cap = c->paths_cap ? 2 * c->paths_cap : 16;
    char **items = realloc(l->items, cap * sizeof *items);
    if (!items) return CP_ENOMEM(err, "orphan files");
    l->items = items;
    c->paths_cap = cap;
  }
  if (!(l->items[l->count] = strdup(path))) return CP_ENOMEM(err, "orphan files");
  l->count++;
  return PAIMON_OK;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

static bool old_enough(const cleaner *c, const cp_fs_entry *e) {
  return e->mtime_millis > 0 && e->mtime_millis < c->older_than;
}

typedef bool (*orphan_fn)(cleaner *c, const char *name);

static bool unused(cleaner *c, const char *name) {
  /* Managed blob packs (primary-key tables) are never orphans (Java's isManagedBlobPack). */
  return !ends_with(name, ".managed.blob") && !cp_name_set_has(&c->used, name, NULL);
}

static bool not_snapshot_file(cleaner *c, const char *name) {
  return strncmp(name, "snapshot-", 9) != 0 && strcmp(name, "EARLIEST") != 0 &&
         strcmp(name, "LATEST") != 0;
}

/* Lists `dir`; a missing directory is an empty one. */
static int list_dir(cleaner *c, const char *dir, cp_fs_list_result *l, paimon_error *err) {
  int rc = cp_fs_list(c->t->fs, dir, l, err);
  if (rc != PAIMON_ENOTFOUND) return rc;
  paimon_error_clear(err);
  return PAIMON_OK;
}

/* Deletes the old-enough files of `dir` that `is_orphan` picks; *left tells whether the
 * directory still holds anything afterwards. A missing directory holds nothing. */
static int clean_dir(cleaner *c, const char *dir, orphan_fn is_orphan, bool *left,
                     paimon_error *err) {
  cp_fs_list_result l = {0};
  *left = false;
  int rc = list_dir(c, dir, &l, err);
  for (size_t i = 0; !rc && i < l.count; i++) {
    const cp_fs_entry *e = &l.entries[i];
    if (e->is_dir || !old_enough(c, e) || !is_orphan(c, e->name)) {
      *left = true;
      continue;
    }
    char *p = cp_path_join(dir, e->name);
    if (!p) {
      rc = CP_ENOMEM(err, "path");
      break;
    }
    rc = note_path(c, p, err);
    if (!rc && !c->dry_run) {
      rc = cp_fs_delete(c->t->fs, p, err);
      if (rc == PAIMON_ENOTFOUND) { /* removed meanwhile */
        paimon_error_clear(err);
        rc = PAIMON_OK;
      }
    }
    if (!rc) {
      c->res->files++;
      c->res->bytes += (int64_t)e->size;
    }
    if (c->dry_run) *left = true;
    free(p);
  }
  cp_fs_list_free(&l);
  return rc;
}

/* Removes an empty directory, quietly (on an object store there is nothing to remove). */
static void remove_empty(cleaner *c, const char *dir) {
  if (c->dry_run || cp_fs_is_object_store(c->t->fs)) return;
  cp_fs_delete(c->t->fs, dir, NULL);
}

/* The bucket directories below partition level `depth` of `dir`. */
static int clean_data_dirs(cleaner *c, const char *dir, size_t depth, bool *left,
                           paimon_error *err) {
  cp_fs_list_result l = {0};
  *left = false;
  int rc = list_dir(c, dir, &l, err);
  size_t n_keys = paimon_table_partition_key_count(c->t);
  for (size_t i = 0; !rc && i < l.count; i++) {
    const cp_fs_entry *e = &l.entries[i];
    bool data_dir;
    if (depth < n_keys) {
      const char *key = paimon_table_partition_key(c->t, depth);
      size_t kl = strlen(key);
      data_dir = e->is_dir && strncmp(e->name, key, kl) == 0 && e->name[kl] == '=';
    } else {
      data_dir = e->is_dir && strncmp(e->name, "bucket-", 7) == 0;
    }
    if (!data_dir) {
      if (depth > 0) *left = true;
      continue;
    }
    char *p = cp_path_join(dir, e->name);
    if (!p) {
      rc = CP_ENOMEM(err, "path");
      break;
    }
    bool sub_left = false;
    rc = depth < n_keys ? clean_data_dirs(c, p, depth + 1, &sub_left, err)
                        : clean_dir(c, p, unused, &sub_left, err);
    if (!rc && !sub_left) remove_empty(c, p);
    if (sub_left) *left = true;
    free(p);
  }
  cp_fs_list_free(&l);
  return rc;
}

int paimon_table_remove_orphan_files(paimon_table *t, int64_t older_than_millis, bool dry_run,
                                     paimon_orphan_result *result, paimon_string_list *paths,
                                     paimon_error *err) {
  paimon_orphan_result local;
  paimon_orphan_result *res = result ? result : &local;
  memset(res, 0, sizeof *res);
  if (paths) memset(paths, 0, sizeof *paths);
  int64_t now = cp_now_millis();
  if (older_than_millis <= 0) older_than_millis = now - DAY_MILLIS;
  if (older_than_millis > now)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "The arg olderThan must be less than now, because dataFiles that are "
                            "currently being written and not referenced by snapshots will be "
                            "mistakenly cleaned up.");
  if (cp_options_get(&t->schema->options, "data-file.external-paths"))
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "table %s: removing orphan files under data-file.external-paths is "
                            "not supported",
                            t->full_name);
  /* Branches keep their own snapshots and files under branch/: cpaimon does not read them, so it
   * cannot tell what they use. */
  char *branch = cp_path_join(t->path, "branch");
  if (!branch) return CP_ENOMEM(err, "path");
  cp_fs_list_result bl = {0};
  int rc = cp_fs_list(t->fs, branch, &bl, err);
  bool has_branches = !rc && bl.count > 0;
  cp_fs_list_free(&bl);
  free(branch);
  if (rc == PAIMON_ENOTFOUND) {
    paimon_error_clear(err);
    rc = PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(rc);
  if (has_branches)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "table %s has branches, which cpaimon does not support: orphan files "
                            "cleaning aborted",
                            t->full_name);
  cleaner c = {t, CP_ARENA_INIT, {0}, {0}, older_than_millis, dry_run, res, paths, 0};
  rc = collect_used(&c, err);
  static const char *const meta_dirs[] = {"manifest", "index", "statistics"};
  for (size_t i = 0; !rc && i < 3; i++) {
    char *d = cp_path_join(t->path, meta_dirs[i]);
    bool left;
    rc = d ? clean_dir(&c, d, unused, &left, err) : CP_ENOMEM(err, "path");
    free(d);
  }
  if (!rc) {
    char *d = cp_path_join(t->path, "snapshot");
    bool left;
    rc = d ? clean_dir(&c, d, not_snapshot_file, &left, err) : CP_ENOMEM(err, "path");
    free(d);
  }
  bool left;
  if (!rc) rc = clean_data_dirs(&c, t->path, 0, &left, err);
  cp_name_set_free(&c.used);
  cp_name_set_free(&c.manifests_read);
  cp_arena_free(&c.arena);
  if (rc && paths) paimon_string_list_free(paths);
  return rc;
}
