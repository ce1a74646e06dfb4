/*
 * Bucket-number, overwrite-from-snapshot and deletion-vector index conflict checks
 * (dv_conflict.h; spec/format.md §6.4, data-evolution.md §4.2, §4.6).
 */
#include "table/dv_conflict.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/deletion_vector.h"
#include "table/file_store.h"
#include "table/store.h"

static bool bytes_eq(cp_bytes a, cp_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

static bool is_dv(const cp_index_manifest_entry *e) {
  return e->index_type && strcmp(e->index_type, CP_DV_INDEX_TYPE) == 0;
}

/* A partition's files must agree on the bucket count; only the partitions this commit adds to
 * can newly disagree, so each added file is compared with the live and added files. */
static int check_bucket_numbers(const cp_entry_vec *base, const cp_entry_vec *delta,
                                paimon_error *err) {
  for (size_t i = 0; i < delta->n; i++) {
    const cp_manifest_entry *a = &delta->items[i];
    if (a->kind != CP_FILE_KIND_ADD || a->total_buckets <= 0) continue;
    const cp_entry_vec *sets[2] = {base, delta};
    for (int s = 0; s < 2; s++)
      for (size_t j = 0; j < (s ? i : base->n); j++) {
        const cp_manifest_entry *b = &sets[s]->items[j];
        if (b->kind == CP_FILE_KIND_ADD && b->total_buckets > 0 &&
            b->total_buckets != a->total_buckets && bytes_eq(a->partition, b->partition))
          return paimon_error_set(err, PAIMON_ECONFLICT,
                                  "Total buckets of the partition of file %s differ between "
                                  "committed files: %d and %d. Give up committing.",
                                  a->file.file_name, (int)b->total_buckets, (int)a->total_buckets);
      }
  }
  return PAIMON_OK;
}

/* Whether `p` is the partition of one of the delta's entries. */
static bool touched_partition(const cp_entry_vec *delta, cp_bytes p) {
  for (size_t i = 0; i < delta->n; i++)
    if (bytes_eq(delta->items[i].partition, p)) return true;
  return false;
}

static int check_overwrite_from_snapshot(paimon_table *t, const cp_snapshot *latest,
                                         const cp_entry_vec *delta, bool overwrite,
                                         int64_t check_from, cp_arena *arena, paimon_error *err) {
  if (!overwrite || check_from < 0 || !latest || latest->id <= check_from) return PAIMON_OK;
  bool deletes = false;
  for (size_t i = 0; i < delta->n && !deletes; i++)
    deletes = delta->items[i].kind == CP_FILE_KIND_DELETE;
  if (!deletes) return PAIMON_OK;
  for (int64_t id = check_from + 1; id <= latest->id; id++) {
    cp_snapshot *s = NULL;
    int rc = cp_snapshot_load(t->fs, t->path, id, &s, err);
    if (rc == PAIMON_ENOTFOUND)
      return paimon_error_set(err, PAIMON_ECONFLICT,
                              "Overwrite conflict detected: snapshot %" PRId64 " cannot be found.",
                              id);
    CP_RETURN_IF_ERROR(rc);
    cp_entry_vec changes = {0};
    rc = cp_snapshot_delta_entries(t->fs, t->path, s, arena, &changes, err);
    bool modified = false;
    for (size_t i = 0; !rc && i < changes.n && !modified; i++)
      modified = touched_partition(delta, changes.items[i].partition);
    cp_entry_vec_free(&changes);
    cp_snapshot_free(s);
    CP_RETURN_IF_ERROR(rc);
    if (modified)
      return paimon_error_set(err, PAIMON_ECONFLICT,
                              "Overwrite conflict detected: target partitions were modified "
                              "after snapshot %" PRId64 ".",
                              check_from);
  }
  return PAIMON_OK;
}

static bool deleted_by_commit(const cp_index_entry_vec *dels, const char *name) {
  for (size_t i = 0; i < dels->n; i++)
    if (strcmp(dels->items[i].file_name, name) == 0) return true;
  return false;
}

/* The live (or newly added) data file `name` in (partition, bucket). */
static bool data_file_present(const cp_entry_vec *base, const cp_entry_vec *delta,
                              cp_bytes partition, int32_t bucket, const char *name) {
  const cp_entry_vec *sets[2] = {base, delta};
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < sets[s]->n; i++) {
      const cp_manifest_entry *e = &sets[s]->items[i];
      if (e->kind == CP_FILE_KIND_ADD && e->bucket == bucket &&
          strcmp(e->file.file_name, name) == 0 && bytes_eq(e->partition, partition))
        return true;
    }
  return false;
}

/* A live DV index file (kept by this commit) holding a DV for `name` in (partition, bucket). */
static const cp_index_manifest_entry *kept_dv_of(const cp_index_entry_vec *current,
                                                 const cp_index_entry_vec *dels, cp_bytes partition,
                                                 int32_t bucket, const char *name) {
  for (size_t i = 0; i < current->n; i++) {
    const cp_index_manifest_entry *c = &current->items[i];
    if (!is_dv(c) || c->kind != CP_FILE_KIND_ADD || c->bucket != bucket ||
        !bytes_eq(c->partition, partition) || deleted_by_commit(dels, c->file_name))
      continue;
    for (size_t k = 0; k < c->n_dv_ranges; k++)
      if (c->dv_ranges[k].data_file && strcmp(c->dv_ranges[k].data_file, name) == 0) return c;
  }
  return NULL;
}

static int check_dv_index(const cp_index_entry_vec *current, const cp_entry_vec *base,
                          const cp_entry_vec *delta, const cp_index_entry_vec *adds,
                          const cp_index_entry_vec *dels, paimon_error *err) {
  for (size_t i = 0; i < dels->n; i++) {
    if (!is_dv(&dels->items[i])) continue;
    bool live = false;
    for (size_t k = 0; k < current->n && !live; k++)
      live = strcmp(current->items[k].file_name, dels->items[i].file_name) == 0;
    if (!live)
      return paimon_error_set(err, PAIMON_ECONFLICT,
                              "Deletion vector index conflict detected: index file %s is not "
                              "present in the latest snapshot.",
                              dels->items[i].file_name);
  }
  for (size_t i = 0; i < adds->n; i++) {
    const cp_index_manifest_entry *a = &adds->items[i];
    if (!is_dv(a)) continue;
    for (size_t k = 0; k < a->n_dv_ranges; k++) {
      const char *name = a->dv_ranges[k].data_file;
      if (!name) continue;
      if (!data_file_present(base, delta, a->partition, a->bucket, name))
        return paimon_error_set(err, PAIMON_ECONFLICT,
                                "Deletion vector index conflict detected: data file %s is not "
                                "present in the latest snapshot.",
                                name);
      const cp_index_manifest_entry *c = kept_dv_of(current, dels, a->partition, a->bucket, name);
      if (c)
        return paimon_error_set(err, PAIMON_ECONFLICT,
                                "Deletion vector index conflict detected: data file %s already "
                                "has a newer deletion vector index file %s.",
                                name, c->file_name);
      /* Java's unaware-bucket combiner: one DV per data file, also within one commit. */
      cp_index_entry_vec earlier = {adds->items, i, i};
      c = kept_dv_of(&earlier, dels, a->partition, a->bucket, name);
      if (c)
        return paimon_error_set(err, PAIMON_ECONFLICT,
                                "Deletion vector index conflict detected: data file %s has "
                                "deletion vectors in two added index files, %s and %s.",
                                name, c->file_name, a->file_name);
    }
  }
  for (size_t i = 0; i < delta->n; i++) {
    const cp_manifest_entry *e = &delta->items[i];
    if (e->kind != CP_FILE_KIND_DELETE) continue;
    const cp_index_manifest_entry *c =
        kept_dv_of(current, dels, e->partition, e->bucket, e->file.file_name);
    if (c)
      return paimon_error_set(err, PAIMON_ECONFLICT,
                              "Deletion vector index conflict detected: data file %s is deleted "
                              "but its deletion vector in index file %s is kept.",
                              e->file.file_name, c->file_name);
  }
  return PAIMON_OK;
}

int cp_dv_check_conflicts(paimon_table *t, const cp_snapshot *latest, const cp_entry_vec *delta,
                          const cp_index_entry_vec *index_adds,
                          const cp_index_entry_vec *index_deletes, bool overwrite,
                          int64_t check_from_snapshot, cp_arena *arena, paimon_error *err) {
  cp_entry_vec base = {0};
  cp_index_entry_vec current = {0};
  bool has_index = index_adds->n || index_deletes->n;
  bool deletes = false;
  for (size_t i = 0; i < delta->n && !deletes; i++)
    deletes = delta->items[i].kind == CP_FILE_KIND_DELETE;
  int rc = PAIMON_OK;
  if (latest) rc = cp_snapshot_entries(t->fs, t->path, latest, NULL, false, arena, &base, err);
  if (!rc) rc = check_bucket_numbers(&base, delta, err);
  if (!rc)
    rc =
        check_overwrite_from_snapshot(t, latest, delta, overwrite, check_from_snapshot, arena, err);
  if (!rc && latest && (has_index || deletes))
    rc = cp_snapshot_index_entries(t->fs, t->path, latest, arena, &current, err);
  if (!rc && (has_index || deletes))
    rc = check_dv_index(&current, &base, delta, index_adds, index_deletes, err);
  cp_entry_vec_free(&base);
  cp_index_entry_vec_free(&current);
  return rc;
}
