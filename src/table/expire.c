/*
 * Snapshot expiration (include/cpaimon/history.h; spec/maintenance-and-blob.md §4.1), after Java
 * Paimon's ExpireSnapshotsImpl, SnapshotDeletion and FileDeletionBase: the same choice of the
 * snapshots to expire, the same files deleted in the same order (data files, then manifests and
 * index files, then the snapshot files, then EARLIEST), so a crash at any step leaves a table
 * that reads at its retained snapshots and keeps every file they (or a tag) reference.
 */
#include <inttypes.h>
#include <jansson.h>
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

/* ---- options -------------------------------------------------------------------------------- */

static int option_i64(paimon_table *t, const char *key, int64_t def, int64_t *out,
                      paimon_error *err) {
  const char *v = cp_options_get(&t->schema->options, key);
  *out = def;
  if (!v) return PAIMON_OK;
  char *end = NULL;
  long long x = strtoll(v, &end, 10);
  if (!*v || *end || x < 1)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table %s: option %s = '%s' is not a positive integer", t->full_name,
                            key, v);
  *out = x;
  return PAIMON_OK;
}

typedef struct expire_plan {
  int64_t retain_max, retain_min, time_retained, limit;
  int64_t older_than; /* epoch ms: expirable only if the successor is older */
} expire_plan;

static int plan_options(paimon_table *t, const paimon_expire_options *o, expire_plan *p,
                        paimon_error *err) {
  CP_RETURN_IF_ERROR(option_i64(t, "snapshot.num-retained.max", INT32_MAX, &p->retain_max, err));
  CP_RETURN_IF_ERROR(option_i64(t, "snapshot.num-retained.min", 10, &p->retain_min, err));
  CP_RETURN_IF_ERROR(option_i64(t, "snapshot.expire.limit", 50, &p->limit, err));
  p->time_retained = 3600000;
  const char *tr = cp_options_get(&t->schema->options, "snapshot.time-retained");
  if (tr) CP_RETURN_IF_ERROR(paimon_parse_duration(tr, &p->time_retained, err));
  if (o && o->retain_max > 0) p->retain_max = o->retain_max;
  if (o && o->retain_min > 0) p->retain_min = o->retain_min;
  if (o && o->max_deletes > 0) p->limit = o->max_deletes;
  p->older_than =
      o && o->older_than_millis > 0 ? o->older_than_millis : cp_now_millis() - p->time_retained;
  if (p->retain_max < p->retain_min)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "retainMax (%" PRId64 ") must not be less than retainMin (%" PRId64
                            ").",
                            p->retain_max, p->retain_min);
  return PAIMON_OK;
}

/* The smallest nextSnapshot of the table's consumers (consumer/consumer-<id>), INT64_MAX without.
 */
static int consumers_floor(paimon_table *t, int64_t *out, paimon_error *err) {
  *out = INT64_MAX;
  char *dir = cp_path_join(t->path, "consumer");
  if (!dir) return CP_ENOMEM(err, "path");
  cp_fs_list_result l = {0};
  int rc = cp_fs_list(t->fs, dir, &l, err);
  if (rc == PAIMON_ENOTFOUND) {
    paimon_error_clear(err);
    free(dir);
    return PAIMON_OK;
  }
  for (size_t i = 0; !rc && i < l.count; i++) {
    if (strncmp(l.entries[i].name, "consumer-", 9) != 0) continue;
    char *p = cp_path_join(dir, l.entries[i].name);
    cp_buf b = CP_BUF_INIT;
    rc = p ? cp_fs_read_file(t->fs, p, &b, 1 << 20, err) : CP_ENOMEM(err, "path");
    if (rc == PAIMON_ENOTFOUND) { /* removed meanwhile */
      paimon_error_clear(err);
      rc = PAIMON_OK;
    } else if (!rc) {
      json_t *j = json_loadb((const char *)b.data, b.len, 0, NULL);
      json_t *next = j ? json_object_get(j, "nextSnapshot") : NULL;
      if (json_is_integer(next) && json_integer_value(next) < *out) *out = json_integer_value(next);
      json_decref(j);
    }
    cp_buf_free(&b);
    free(p);
  }
  cp_fs_list_free(&l);
  free(dir);
  return rc;
}

/* ExpireSnapshotsImpl.expire's choice of the exclusive end E of the ids to expire from B. */
static int choose_end(paimon_table *t, const expire_plan *p, int64_t earliest, int64_t latest,
                      int64_t *end, paimon_error *err) {
  int64_t min = latest - p->retain_max + 1;
  if (min < earliest) min = earliest;
  int64_t max_excl = latest - p->retain_min + 1;
  if (earliest + p->limit < max_excl) max_excl = earliest + p->limit;
  *end = max_excl;
  for (int64_t id = min; id < max_excl; id++) {
    bool exists;
    CP_RETURN_IF_ERROR(cp_snapshot_exists(t->fs, t->path, id + 1, &exists, err));
    if (!exists) continue;
    cp_snapshot *next = NULL;
    CP_RETURN_IF_ERROR(cp_snapshot_load(t->fs, t->path, id + 1, &next, err));
    bool young = next->time_millis >= p->older_than;
    cp_snapshot_free(next);
    if (young) {
      *end = id;
      break;
    }
  }
  /* Java lowers the loop's bound to the consumers' floor first; taking the smaller end after
   * the loop is the same, and spares the consumer/ listing each commit that expires nothing. */
  if (*end <= earliest) return PAIMON_OK;
  int64_t floor;
  CP_RETURN_IF_ERROR(consumers_floor(t, &floor, err));
  if (floor < *end) *end = floor;
  return PAIMON_OK;
}

/* ---- deleting ------------------------------------------------------------------------------- */

typedef struct expirer {
  paimon_table *t;
  paimon_expire_result *res;
  cp_arena arena;
} expirer;

/* Deletes a file that may already be gone (an earlier, interrupted expiration). */
static int delete_quietly(expirer *x, const char *path, int64_t *counter, paimon_error *err) {
  int rc = cp_fs_delete(x->t->fs, path, err);
  if (rc == PAIMON_ENOTFOUND) {
    paimon_error_clear(err);
    return PAIMON_OK;
  }
  if (!rc && counter) (*counter)++;
  return rc;
}

static int delete_in(expirer *x, const char *dir, const char *name, int64_t *counter,
                     paimon_error *err) {
  size_t len = strlen(x->t->path) + strlen(dir) + strlen(name) + 3;
  char *p = malloc(len);
  if (!p) return CP_ENOMEM(err, "path");
  snprintf(p, len, "%s/%s/%s", x->t->path, dir, name);
  int rc = delete_quietly(x, p, counter, err);
  free(p);
  return rc;
}

/* The live data files of a tag's snapshot, as file keys, into `out`. */
static int tag_files(expirer *x, const cp_snapshot *tag, cp_name_set *out, paimon_error *err) {
  cp_entry_vec live = {0};
  int rc = cp_snapshot_entries(x->t->fs, x->t->path, tag, NULL, false, &x->arena, &live, err);
  for (size_t i = 0; !rc && i < live.n; i++) {
    char key[512];
    cp_manifest_entry_key(&live.items[i], key, sizeof key);
    rc = cp_name_set_add(out, key, live.items[i].file.file_name, err);
  }
  cp_entry_vec_free(&live);
  return rc;
}

/* Deletes a data file and its extra files (e.g. file indexes, beside it). */
static int delete_entry_files(expirer *x, const cp_manifest_entry *e, paimon_error *err) {
  char *path = NULL;
  int rc = cp_data_file_path(x->t, e->partition, e->bucket, &e->file, &path, err);
  if (!rc) rc = delete_quietly(x, path, &x->res->data_files, err);
  for (size_t k = 0; !rc && k < e->file.extra_files.n; k++) {
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t len = dir + strlen(e->file.extra_files.items[k]) + 1;
    char *extra = malloc(len);
    if (!extra) {
      rc = CP_ENOMEM(err, "path");
      break;
    }
    snprintf(extra, len, "%.*s%s", (int)dir, path, e->file.extra_files.items[k]);
    rc = delete_quietly(x, extra, &x->res->data_files, err);
    free(extra);
  }
  free(path);
  return rc;
}

/* SnapshotDeletion.cleanUnusedDataFiles for snapshot `s`: the files its commit deleted (and their
 * extra files), unless the latest tag before it still holds them. */
static int delete_data_files(expirer *x, const cp_snapshot *s, const cp_name_set *skip,
                             paimon_error *err) {
  cp_entry_vec delta = {0};
  int rc = cp_snapshot_delta_entries(x->t->fs, x->t->path, s, &x->arena, &delta, err);
  if (rc) {
    /* As Java: a snapshot whose manifests cannot be read keeps its files. */
    cp_entry_vec_free(&delta);
    paimon_error_clear(err);
    return PAIMON_OK;
  }
  /* A DELETE marks a file; a later ADD of the same file in this delta unmarks it. */
  bool *marked = delta.n ? calloc(delta.n, sizeof *marked) : NULL;
  if (delta.n && !marked) rc = CP_ENOMEM(err, "expire");
  for (size_t i = 0; !rc && i < delta.n; i++) {
    const cp_manifest_entry *e = &delta.items[i];
    if (e->kind == CP_FILE_KIND_DELETE) {
      marked[i] = true;
      continue;
    }
    for (size_t k = 0; k < i; k++)
      if (marked[k] && strcmp(delta.items[k].file.file_name, e->file.file_name) == 0 &&
          delta.items[k].bucket == e->bucket)
        marked[k] = false;
  }
  for (size_t i = 0; !rc && i < delta.n; i++) {
    if (!marked[i]) continue;
    const cp_manifest_entry *e = &delta.items[i];
    char key[512];
    cp_manifest_entry_key(e, key, sizeof key);
    if (cp_name_set_has(skip, key, e->file.file_name)) continue;
    rc = delete_entry_files(x, e, err);
  }
  free(marked);
  cp_entry_vec_free(&delta);
  return rc;
}

/* The metadata files a snapshot references: its manifest lists, their manifests, its index
 * manifest and the index files it lists, its statistics file. Names go into `out` with the
 * directory they live in ("manifest", "index", "statistics"). With `tolerant`, a part that cannot
 * be read (an index manifest shared with a snapshot expired just before, say) is left out and
 * the others still count; otherwise the first failure is returned. */
static int metadata_files(expirer *x, const cp_snapshot *s, bool tolerant, cp_name_set *out,
                          paimon_error *err) {
  const char *lists[] = {s->base_manifest_list, s->delta_manifest_list, s->changelog_manifest_list};
  int rc = PAIMON_OK;
  for (size_t l = 0; !rc && l < 3; l++) {
    if (!lists[l]) continue;
    cp_manifest_meta_vec metas = {0};
    int read = cp_read_manifest_list(x->t->fs, x->t->path, lists[l], &x->arena, &metas, err);
    if (!read) rc = cp_name_set_add(out, "manifest", lists[l], err);
    for (size_t i = 0; !read && !rc && i < metas.n; i++)
      rc = cp_name_set_add(out, "manifest", metas.items[i].file_name, err);
    cp_manifest_meta_vec_free(&metas);
    if (read && !tolerant) rc = read;
    if (read && tolerant) paimon_error_clear(err);
  }
  if (!rc && s->index_manifest) {
    cp_index_entry_vec idx = {0};
    int read = cp_snapshot_index_entries(x->t->fs, x->t->path, s, &x->arena, &idx, err);
    if (!read) rc = cp_name_set_add(out, "manifest", s->index_manifest, err);
    for (size_t i = 0; !read && !rc && i < idx.n; i++)
      if (!idx.items[i].external_path)
        rc = cp_name_set_add(out, "index", idx.items[i].file_name, err);
    cp_index_entry_vec_free(&idx);
    if (read && !tolerant) rc = read;
    if (read && tolerant) paimon_error_clear(err);
  }
  if (!rc && s->statistics) rc = cp_name_set_add(out, "statistics", s->statistics, err);
  return rc;
}

/* SnapshotDeletion.cleanUnusedManifests for snapshot `s`: what it references and `keep` does
 * not; what cannot be read is kept (orphan removal reclaims it later). */
static int delete_metadata(expirer *x, const cp_snapshot *s, const cp_name_set *keep,
                           paimon_error *err) {
  cp_name_set mine = {0};
  int rc = metadata_files(x, s, true, &mine, err);
  for (size_t i = 0; !rc && i < mine.n; i++) {
    char *sep = strchr(mine.items[i], '\x1f');
    *sep = '\0';
    bool kept = cp_name_set_has(keep, mine.items[i], sep + 1);
    if (!kept) rc = delete_in(x, mine.items[i], sep + 1, &x->res->metadata_files, err);
    *sep = '\x1f';
  }
  cp_name_set_free(&mine);
  return rc;
}

static int cmp_snapshot_id(const void *a, const void *b) {
  const paimon_tag *x = a, *y = b;
  return x->snapshot_id < y->snapshot_id ? -1 : x->snapshot_id > y->snapshot_id;
}

static int expire_range(expirer *x, int64_t begin, int64_t end, paimon_error *err) {
  paimon_table *t = x->t;
  paimon_tag_list tags = {0};
  cp_snapshot **snaps = calloc((size_t)(end - begin + 1), sizeof *snaps);
  cp_snapshot **tag_snaps = NULL;
  cp_name_set keep = {0};
  int rc = snaps ? paimon_table_list_tags(t, &tags, err) : CP_ENOMEM(err, "expire");
  if (!rc && tags.count) {
    qsort(tags.items, tags.count, sizeof *tags.items, cmp_snapshot_id);
    if (!(tag_snaps = calloc(tags.count, sizeof *tag_snaps))) rc = CP_ENOMEM(err, "expire");
  }
  for (size_t i = 0; !rc && i < tags.count; i++)
    rc = cp_tag_load(t, tags.items[i].name, &tag_snaps[i], NULL, err);
  /* 1. Snapshots begin..end (missing ones skipped). */
  for (int64_t id = begin; !rc && id <= end; id++) {
    rc = cp_snapshot_load(t->fs, t->path, id, &snaps[id - begin], err);
    if (rc == PAIMON_ENOTFOUND) {
      paimon_error_clear(err);
      rc = PAIMON_OK;
    }
  }
  /* 2. Data files deleted by the commits (first loaded, end]. */
  int64_t first = -1;
  for (int64_t id = begin; id <= end && first < 0; id++)
    if (snaps[id - begin]) first = id;
  /* The live files of each tag, computed once: the latest tag before a snapshot keeps them. */
  cp_name_set *tag_live = tags.count ? calloc(tags.count, sizeof *tag_live) : NULL;
  bool *tag_done = tags.count ? calloc(tags.count, sizeof *tag_done) : NULL;
  if (tags.count && (!tag_live || !tag_done)) rc = CP_ENOMEM(err, "expire");
  cp_name_set none = {0};
  for (int64_t id = first + 1; !rc && first >= 0 && id <= end; id++) {
    const cp_snapshot *s = snaps[id - begin];
    if (!s) continue;
    const cp_name_set *skip = &none;
    for (size_t i = tags.count; !rc && i-- > 0;)
      if (tags.items[i].snapshot_id < id) {
        if (!tag_done[i]) rc = tag_files(x, tag_snaps[i], &tag_live[i], err);
        tag_done[i] = true;
        skip = &tag_live[i];
        break;
      }
    if (!rc) rc = delete_data_files(x, s, skip, err);
    cp_arena_free(&x->arena);
  }
  for (size_t i = 0; tag_live && i < tags.count; i++) cp_name_set_free(&tag_live[i]);
  free(tag_live);
  free(tag_done);
  /* 3. Metadata of [begin, end) that neither `end` nor the tags in range still use. */
  const cp_snapshot *last = snaps[end - begin];
  if (!rc && last) {
    rc = metadata_files(x, last, false, &keep, err);
    for (size_t i = 0; !rc && i < tags.count; i++) {
      int64_t sid = tags.items[i].snapshot_id;
      bool next_le_begin = i + 1 < tags.count && tags.items[i + 1].snapshot_id <= begin;
      if (sid < end && !next_le_begin) rc = metadata_files(x, tag_snaps[i], false, &keep, err);
    }
    /* Without the full skip set nothing is safe to delete: skip the metadata. */
    if (rc) {
      paimon_error_clear(err);
      rc = PAIMON_OK;
    } else {
      for (int64_t id = begin; !rc && id < end; id++) {
        if (snaps[id - begin]) rc = delete_metadata(x, snaps[id - begin], &keep, err);
        cp_arena_free(&x->arena);
      }
    }
  }
  /* 4. The snapshot files, then EARLIEST. Snapshot `end` vanished meanwhile: stop before. */
  if (!rc && last) {
    for (int64_t id = begin; !rc && id < end; id++) {
      bool had = snaps[id - begin] != NULL;
      rc = cp_snapshot_delete(t->fs, t->path, id, err);
      if (!rc && had) x->res->snapshots++;
    }
    if (!rc) rc = cp_snapshot_write_hint(t->fs, t->path, "EARLIEST", end, err);
  }
  cp_name_set_free(&keep);
  for (int64_t id = begin; snaps && id <= end; id++) cp_snapshot_free(snaps[id - begin]);
  for (size_t i = 0; tag_snaps && i < tags.count; i++) cp_snapshot_free(tag_snaps[i]);
  free(snaps);
  free(tag_snaps);
  paimon_tag_list_free(&tags);
  return rc;
}

/* Expiration with the latest snapshot id known (> 0) or looked up (0). */
static int expire(paimon_table *t, const paimon_expire_options *options, int64_t known_latest,
                  paimon_expire_result *result, paimon_error *err) {
  paimon_expire_result local;
  paimon_expire_result *res = result ? result : &local;
  memset(res, 0, sizeof *res);
  if (t->rest_commit)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "table %s: snapshots of a table whose commits go through the REST "
                            "catalog server are expired by the server",
                            t->full_name);
  expire_plan p;
  CP_RETURN_IF_ERROR(plan_options(t, options, &p, err));
  int64_t latest = known_latest, earliest;
  bool has_l = known_latest > 0, has_e;
  if (!has_l) CP_RETURN_IF_ERROR(cp_snapshot_latest_id(t->fs, t->path, &latest, &has_l, err));
  if (!has_l) return PAIMON_OK;
  /* After a commit, a table with no more than retain_min snapshots costs no request (Java would
   * check for the EARLIEST hint and write it). */
  if (known_latest > 0 && latest - p.retain_min + 1 <= 1) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_snapshot_earliest_id(t->fs, t->path, &earliest, &has_e, err));
  if (!has_e) return PAIMON_OK;
  int64_t end;
  CP_RETURN_IF_ERROR(choose_end(t, &p, earliest, latest, &end, err));
  if (end <= earliest) {
    /* Nothing to expire; Java still leaves an EARLIEST hint behind when there is none. */
    char *hint = malloc(strlen(t->path) + 20);
    bool exists = true;
    if (!hint) return CP_ENOMEM(err, "path");
    sprintf(hint, "%s/snapshot/EARLIEST", t->path);
    int rc = cp_fs_file_exists(t->fs, hint, &exists, err);
    free(hint);
    CP_RETURN_IF_ERROR(rc);
    return exists ? PAIMON_OK : cp_snapshot_write_hint(t->fs, t->path, "EARLIEST", earliest, err);
  }
  expirer x = {t, res, CP_ARENA_INIT};
  int rc = expire_range(&x, earliest, end, err);
  cp_arena_free(&x.arena);
  return rc;
}

int paimon_table_expire_snapshots(paimon_table *t, const paimon_expire_options *options,
                                  paimon_expire_result *result, paimon_error *err) {
  return expire(t, options, 0, result, err);
}

int cp_table_expire_after_commit(paimon_table *t, int64_t committed) {
  const char *write_only = cp_options_get(&t->schema->options, "write-only");
  if (t->rest_commit || (write_only && strcmp(write_only, "true") == 0)) return PAIMON_OK;
  paimon_error err;
  /* Another writer may have committed since: expiring from `committed` only retains more. */
  return expire(t, NULL, committed, NULL, &err);
}

/* ---- deleting a tag (Java's TagManager.deleteTag + TagDeletion) ---------------------------- */

int cp_tag_clean_files(paimon_table *t, const cp_snapshot *tagged, const cp_snapshot *left,
                       const cp_snapshot *right, paimon_error *err) {
  paimon_expire_result res;
  memset(&res, 0, sizeof res);
  expirer x = {t, &res, CP_ARENA_INIT};
  const cp_snapshot *neighbours[2] = {left, right};
  /* Data files: the tag's live files that neither neighbour holds. A skip set that cannot be
   * built skips this step (Java logs and goes on), as does a tag whose manifests are gone. */
  cp_name_set skip = {0};
  int rc = PAIMON_OK, built = PAIMON_OK;
  for (int i = 0; !built && i < 2; i++)
    if (neighbours[i]) built = tag_files(&x, neighbours[i], &skip, err);
  cp_entry_vec live = {0};
  if (!built)
    built = cp_snapshot_entries(t->fs, t->path, tagged, NULL, false, &x.arena, &live, err);
  if (built) paimon_error_clear(err);
  for (size_t i = 0; !built && !rc && i < live.n; i++) {
    char key[512];
    cp_manifest_entry_key(&live.items[i], key, sizeof key);
    if (!cp_name_set_has(&skip, key, live.items[i].file.file_name))
      rc = delete_entry_files(&x, &live.items[i], err);
  }
  cp_entry_vec_free(&live);
  cp_name_set_free(&skip);
  /* Manifests, manifest lists, index manifest and index files the neighbours do not use. */
  cp_name_set keep = {0};
  built = PAIMON_OK;
  for (int i = 0; !rc && !built && i < 2; i++)
    if (neighbours[i]) built = metadata_files(&x, neighbours[i], false, &keep, err);
  if (built) paimon_error_clear(err);
  if (!rc && !built) rc = delete_metadata(&x, tagged, &keep, err);
  cp_name_set_free(&keep);
  cp_arena_free(&x.arena);
  return rc;
}
