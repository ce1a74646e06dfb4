/* Snapshot file sets (file_store.h; spec/format.md §4.8, §7.1). */
#include "table/file_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/manifest.h"

#define MAX_MANIFEST ((size_t)1 << 30)

typedef int (*decode_fn)(const char *name, const void *data, size_t len, cp_arena *arena, void *out,
                         paimon_error *err);

static char *manifest_path(const char *table_path, const char *name) {
  size_t n = strlen(table_path) + strlen(name) + 16;
  char *path = malloc(n);
  if (path) snprintf(path, n, "%s/manifest/%s", table_path, name);
  return path;
}

static int read_and_decode(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                           decode_fn fn, void *out, paimon_error *err) {
  char *path = manifest_path(table_path, name);
  if (!path) return CP_ENOMEM(err, "path");
  cp_buf b = CP_BUF_INIT;
  int rc = cp_fs_read_file(fs, path, &b, MAX_MANIFEST, err);
  if (!rc) rc = fn(path, b.data, b.len, arena, out, err);
  cp_buf_free(&b);
  free(path);
  return rc;
}

static int dec_list(const char *name, const void *d, size_t len, cp_arena *a, void *out,
                    paimon_error *err) {
  return cp_manifest_list_decode(name, d, len, a, out, err);
}
static int dec_manifest(const char *name, const void *d, size_t len, cp_arena *a, void *out,
                        paimon_error *err) {
  return cp_manifest_file_decode(name, d, len, a, out, err);
}
static int dec_index(const char *name, const void *d, size_t len, cp_arena *a, void *out,
                     paimon_error *err) {
  return cp_index_manifest_decode(name, d, len, a, out, err);
}

int cp_read_manifest_list(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                          cp_manifest_meta_vec *out, paimon_error *err) {
  return read_and_decode(fs, table_path, name, arena, dec_list, out, err);
}

int cp_read_manifest(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                     cp_entry_vec *out, paimon_error *err) {
  return read_and_decode(fs, table_path, name, arena, dec_manifest, out, err);
}

int cp_read_index_manifest(cp_fs *fs, const char *table_path, const char *name, cp_arena *arena,
                           cp_index_entry_vec *out, paimon_error *err) {
  return read_and_decode(fs, table_path, name, arena, dec_index, out, err);
}

/* Open-addressing map from file identity to the slot of its entry in the output. */
typedef struct slot_map {
  size_t *slots; /* index + 1; 0 = empty, SIZE_MAX = tombstone */
  size_t cap;
} slot_map;

static size_t *map_find(slot_map *m, const cp_entry_vec *v, const cp_manifest_entry *e,
                        bool for_insert) {
  size_t mask = m->cap - 1, i = (size_t)cp_manifest_entry_file_hash(e) & mask;
  size_t *tomb = NULL;
  for (;;) {
    size_t s = m->slots[i];
    if (s == 0) return for_insert && tomb ? tomb : &m->slots[i];
    if (s == SIZE_MAX) {
      if (!tomb) tomb = &m->slots[i];
    } else if (cp_manifest_entry_same_file(&v->items[s - 1], e)) {
      return &m->slots[i];
    }
    i = (i + 1) & mask;
  }
}

int cp_merge_entries(const cp_manifest_entry *in, size_t n, cp_entry_vec *out, paimon_error *err) {
  slot_map m = {NULL, 16};
  while (m.cap < 2 * n + 16) m.cap *= 2;
  m.slots = calloc(m.cap, sizeof *m.slots);
  bool *removed = calloc(n + 1, sizeof *removed);
  cp_entry_vec tmp = {0};
  int rc = (m.slots && removed) ? PAIMON_OK : CP_ENOMEM(err, "merging manifest entries");
  for (size_t i = 0; i < n && !rc; i++) {
    const cp_manifest_entry *e = &in[i];
    size_t *slot = map_find(&m, &tmp, e, false);
    bool present = *slot != 0 && *slot != SIZE_MAX;
    if (e->kind == CP_FILE_KIND_ADD && present) {
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "Trying to add file %s which is already added.",
                            e->file.file_name);
    } else if (present) { /* a DELETE cancels the entry it matches */
      removed[*slot - 1] = true;
      *slot = SIZE_MAX;
    } else {
      slot = map_find(&m, &tmp, e, true);
      if (!(rc = cp_entry_vec_push(&tmp, e, err))) *slot = tmp.n;
    }
  }
  for (size_t i = 0; i < tmp.n && !rc; i++)
    if (!removed[i]) rc = cp_entry_vec_push(out, &tmp.items[i], err);
  cp_entry_vec_free(&tmp);
  free(m.slots);
  free(removed);
  return rc;
}

/* Reads the named files of manifest/ at once (concurrently on an object store) and decodes each
 * with `fn` into outs[i] (of `out_size` bytes each). */
static int read_and_decode_many(cp_fs *fs, const char *table_path, const char *const *names,
                                size_t n, cp_arena *arena, decode_fn fn, void *outs,
                                size_t out_size, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  char **paths = calloc(n, sizeof *paths);
  cp_buf *bufs = calloc(n, sizeof *bufs);
  int rc = paths && bufs ? PAIMON_OK : CP_ENOMEM(err, "manifests");
  for (size_t i = 0; i < n && !rc; i++)
    if (!(paths[i] = manifest_path(table_path, names[i]))) rc = CP_ENOMEM(err, "path");
  if (!rc) rc = cp_fs_read_files(fs, (const char *const *)paths, n, MAX_MANIFEST, bufs, NULL, err);
  for (size_t i = 0; i < n && !rc; i++)
    rc = fn(paths[i], bufs[i].data, bufs[i].len, arena, (char *)outs + i * out_size, err);
  for (size_t i = 0; paths && bufs && i < n; i++) {
    free(paths[i]);
    cp_buf_free(&bufs[i]);
  }
  free(paths);
  free(bufs);
  return rc;
}

/* The entries of the manifests listed in `lists` (in list order, then manifest order), the
 * manifests read all at once. */
static int read_lists_entries(cp_fs *fs, const char *table_path, const char *const *lists,
                              size_t n_lists, const cp_partition_filter *filter, cp_arena *arena,
                              cp_entry_vec *all, paimon_error *err) {
  cp_manifest_meta_vec metas[2] = {{0}, {0}};
  const char **names = NULL;
  cp_entry_vec *entries = NULL;
  size_t n = 0, cap = 0;
  int rc = read_and_decode_many(fs, table_path, lists, n_lists, arena, dec_list, metas,
                                sizeof metas[0], err);
  for (size_t l = 0; l < n_lists && !rc; l++) {
    for (size_t i = 0; i < metas[l].n && !rc; i++) {
      if (filter && filter->meta_fn && !filter->meta_fn(filter->ctx, &metas[l].items[i])) continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 16;
        const char **p = realloc(names, cap * sizeof *p);
        if (!p) {
          rc = CP_ENOMEM(err, "manifests");
          break;
        }
        names = p;
      }
      names[n++] = metas[l].items[i].file_name;
    }
  }
  if (!rc && n && !(entries = calloc(n, sizeof *entries))) rc = CP_ENOMEM(err, "manifests");
  if (!rc)
    rc = read_and_decode_many(fs, table_path, names, n, arena, dec_manifest, entries,
                              sizeof *entries, err);
  for (size_t i = 0; i < n && !rc; i++)
    for (size_t j = 0; j < entries[i].n && !rc; j++)
      if (!filter || !filter->entry_fn || filter->entry_fn(filter->ctx, &entries[i].items[j]))
        rc = cp_entry_vec_push(all, &entries[i].items[j], err);
  for (size_t i = 0; entries && i < n; i++) cp_entry_vec_free(&entries[i]);
  free(entries);
  free(names);
  for (size_t l = 0; l < 2; l++) cp_manifest_meta_vec_free(&metas[l]);
  return rc;
}

int cp_snapshot_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                        const cp_partition_filter *filter, bool keep_deletes, cp_arena *arena,
                        cp_entry_vec *out, paimon_error *err) {
  cp_entry_vec all = {0}, merged = {0};
  const char *lists[] = {snap->base_manifest_list, snap->delta_manifest_list};
  int rc = read_lists_entries(fs, table_path, lists, 2, filter, arena, &all, err);
  if (!rc) rc = cp_merge_entries(all.items, all.n, &merged, err);
  for (size_t i = 0; i < merged.n && !rc; i++)
    if (keep_deletes || merged.items[i].kind == CP_FILE_KIND_ADD)
      rc = cp_entry_vec_push(out, &merged.items[i], err);
  cp_entry_vec_free(&all);
  cp_entry_vec_free(&merged);
  return rc;
}

int cp_snapshot_delta_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                              cp_arena *arena, cp_entry_vec *out, paimon_error *err) {
  const char *lists[] = {snap->delta_manifest_list};
  return read_lists_entries(fs, table_path, lists, 1, NULL, arena, out, err);
}

int cp_snapshot_index_entries(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                              cp_arena *arena, cp_index_entry_vec *out, paimon_error *err) {
  if (!snap->index_manifest) return PAIMON_OK;
  return cp_read_index_manifest(fs, table_path, snap->index_manifest, arena, out, err);
}

void cp_manifest_entry_key(const cp_manifest_entry *e, char *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < e->partition.len && k + 3 < cap; i++)
    k += (size_t)snprintf(out + k, cap - k, "%02x", e->partition.data[i]);
  snprintf(out + k, cap - k, "/%d", (int)e->bucket);
}
