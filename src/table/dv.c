/*
 * Deletion vectors of a table (dv.h): index lookup, loading, the anchor rule, attaching DVs to
 * planned splits, and the per-bucket DV index maintainer (spec/format.md §7.1–7.3,
 * data-evolution.md §2.6, §3.7).
 */
#include "table/dv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "base/uuid.h"
#include "table/commit_message.h"
#include "table/file_store.h"
#include "table/scan.h"

/* Index files are small (Java rolls them at 2 MiB); refuse absurd ones instead of reading them. */
#define MAX_INDEX_FILE ((size_t)1 << 31)

static bool bytes_eq(cp_bytes a, cp_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

int cp_dv_index_entries(paimon_table *t, const cp_snapshot *snap, cp_arena *arena,
                        cp_index_entry_vec *out, paimon_error *err) {
  cp_index_entry_vec all = {0};
  int rc = snap ? cp_snapshot_index_entries(t->fs, t->path, snap, arena, &all, err) : PAIMON_OK;
  for (size_t i = 0; i < all.n && !rc; i++) {
    const cp_index_manifest_entry *e = &all.items[i];
    if (e->kind == CP_FILE_KIND_ADD && e->index_type &&
        strcmp(e->index_type, CP_DV_INDEX_TYPE) == 0)
      rc = cp_index_entry_vec_push(out, e, err);
  }
  cp_index_entry_vec_free(&all);
  return rc;
}

int cp_index_file_path(paimon_table *t, const cp_index_manifest_entry *e, char **out,
                       paimon_error *err) {
  *out = NULL;
  if (e->external_path) {
    CP_RETURN_IF_ERROR(cp_check_external_path(e->external_path, "index file", err));
    *out = strdup(e->external_path);
  } else {
    CP_RETURN_IF_ERROR(cp_check_file_name(e->file_name, e->file_name ? strlen(e->file_name) : 0,
                                          "index file", err));
    size_t n = strlen(t->path) + strlen(e->file_name) + 16;
    if ((*out = malloc(n))) snprintf(*out, n, "%s/index/%s", t->path, e->file_name);
  }
  return *out ? PAIMON_OK : CP_ENOMEM(err, "path");
}

/* ------------------------------------ lookup ------------------------------------ */

static int cmp_ref(const void *x, const void *y) {
  const cp_dv_ref *a = x, *b = y;
  return strcmp(a->meta->data_file, b->meta->data_file);
}

int cp_dv_lookup_build(const cp_index_entry_vec *entries, cp_dv_lookup *out, paimon_error *err) {
  size_t n = 0;
  for (size_t i = 0; i < entries->n; i++) n += entries->items[i].n_dv_ranges;
  out->n = 0;
  out->refs = malloc((n ? n : 1) * sizeof *out->refs);
  if (!out->refs) return CP_ENOMEM(err, "deletion vectors");
  for (size_t i = 0; i < entries->n; i++)
    for (size_t j = 0; j < entries->items[i].n_dv_ranges; j++)
      if (entries->items[i].dv_ranges[j].data_file)
        out->refs[out->n++] = (cp_dv_ref){&entries->items[i], &entries->items[i].dv_ranges[j]};
  qsort(out->refs, out->n, sizeof *out->refs, cmp_ref);
  return PAIMON_OK;
}

const cp_dv_ref *cp_dv_lookup_find(const cp_dv_lookup *l, cp_bytes partition, int32_t bucket,
                                   const char *name) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(l->refs[mid].meta->data_file, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < l->n && strcmp(l->refs[lo].meta->data_file, name) == 0; lo++)
    if (l->refs[lo].entry->bucket == bucket && bytes_eq(l->refs[lo].entry->partition, partition))
      return &l->refs[lo];
  return NULL;
}

void cp_dv_lookup_free(cp_dv_lookup *l) {
  free(l->refs);
  l->refs = NULL;
  l->n = 0;
}

/* ------------------------------------ loading ------------------------------------ */

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int cp_dv_load(cp_fs *fs, const char *path, int64_t offset, int64_t length, cp_dv **out,
               paimon_error *err) {
  cp_rfile *f = NULL;
  CP_RETURN_IF_ERROR(cp_fs_open_read(fs, path, &f, err));
  uint64_t size = cp_rfile_size(f);
  uint8_t head[8], version = 0;
  uint8_t *rec = NULL;
  int rc = size ? cp_rfile_read_at(f, 0, &version, 1, err) : PAIMON_OK;
  if (!rc && (size == 0 || version != CP_DV_INDEX_VERSION))
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "deletion vector index file %s: version byte is %d, expected %d", path,
                          size ? version : -1, CP_DV_INDEX_VERSION);
  if (!rc && (offset < 1 || (uint64_t)offset + 8 > size))
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "deletion vector index file %s: a DV at offset %" PRId64
                          " does not fit in the file (%" PRIu64 " bytes)",
                          path, offset, size);
  if (!rc) rc = cp_rfile_read_at(f, (uint64_t)offset, head, 8, err);
  if (!rc) {
    /* Record = length prefix + (magic + bitmap) + CRC; a bad prefix fails in the parser. */
    uint64_t body = be32(head) & 0x7FFFFFFFu, total = 4 + body + 4;
    if (total > size - (uint64_t)offset) total = size - (uint64_t)offset;
    rec = malloc((size_t)total);
    rc = rec ? cp_rfile_read_at(f, (uint64_t)offset, rec, (size_t)total, err)
             : CP_ENOMEM(err, "deletion vector");
    if (!rc) rc = cp_dv_read_record(rec, (size_t)total, length, path, out, NULL, err);
  }
  free(rec);
  cp_rfile_close(f);
  return rc;
}

/* ------------------------------------ anchors and splits ------------------------------------ */

const cp_manifest_entry *cp_dv_anchor(const cp_manifest_entry *files, size_t n) {
  const cp_manifest_entry *anchor = NULL;
  for (size_t i = 0; i < n; i++) {
    const cp_data_file_meta *f = &files[i].file;
    if (cp_data_file_is_blob(f) || cp_data_file_is_vector_store(f)) continue;
    if (!anchor || f->max_sequence_number < anchor->file.max_sequence_number ||
        (f->max_sequence_number == anchor->file.max_sequence_number &&
         strcmp(f->file_name, anchor->file.file_name) < 0))
      anchor = &files[i];
  }
  return anchor;
}

/* Sets the split's DV from `ref`, checking that the DV's row range covers the split (§2.6). */
static int attach_one(paimon_table *t, paimon_plan *p, cp_split *s, const cp_manifest_entry *anchor,
                      const cp_dv_ref *ref, paimon_error *err) {
  const cp_data_file_meta *a = &anchor->file;
  if (s->merged && (!a->has_first_row_id || a->first_row_id > s->first_row_id ||
                    cp_data_file_last_row_id(a) < s->first_row_id + s->row_count - 1))
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "Deletion vector range [%" PRId64 ", %" PRId64
                            "] should contain reader range [%" PRId64 ", %" PRId64 "].",
                            a->first_row_id, cp_data_file_last_row_id(a), s->first_row_id,
                            s->first_row_id + s->row_count - 1);
  char *path = NULL;
  CP_RETURN_IF_ERROR(cp_index_file_path(t, ref->entry, &path, err));
  s->dv_path = cp_arena_strdup(&p->arena, path);
  free(path);
  if (!s->dv_path) return CP_ENOMEM(err, "plan");
  s->dv_offset = ref->meta->offset;
  s->dv_length = ref->meta->length;
  s->dv_cardinality = ref->meta->has_cardinality ? ref->meta->cardinality : -1;
  return PAIMON_OK;
}

int cp_dv_attach(paimon_table *t, const cp_snapshot *snap, paimon_plan *p, paimon_error *err) {
  if (!t->options.deletion_vectors || !snap || !snap->index_manifest || p->n_splits == 0)
    return PAIMON_OK;
  cp_index_entry_vec entries = {0};
  cp_dv_lookup lookup = {0};
  int rc = cp_dv_index_entries(t, snap, &p->arena, &entries, err);
  if (!rc) rc = cp_dv_lookup_build(&entries, &lookup, err);
  for (size_t i = 0; i < p->n_splits && !rc && lookup.n; i++) {
    cp_split *s = &p->splits[i];
    const cp_manifest_entry *anchor = s->merged ? cp_dv_anchor(s->files, s->n_files) : s->files;
    if (!anchor) {
      rc = paimon_error_set(err, PAIMON_ECORRUPT,
                            "Data-evolution deletion vectors should have a normal anchor file in "
                            "each row range group.");
      break;
    }
    const cp_dv_ref *ref =
        cp_dv_lookup_find(&lookup, s->partition, s->bucket, anchor->file.file_name);
    if (ref) rc = attach_one(t, p, s, anchor, ref, err);
  }
  cp_dv_lookup_free(&lookup);
  cp_index_entry_vec_free(&entries);
  return rc;
}

/* ------------------------------------ maintainer ------------------------------------ */

typedef struct dv_file {
  const char *name; /* in the maintainer's arena */
  cp_dv *dv;
} dv_file;

typedef struct dv_bucket {
  cp_bytes partition; /* in the arena */
  int32_t bucket;
  bool changed;
  const cp_index_manifest_entry **old; /* the bucket's DV index entries in the base snapshot */
  size_t n_old;
  dv_file *files;
  size_t n_files, cap_files;
} dv_bucket;

struct cp_dv_maintainer {
  paimon_table *t;
  cp_arena arena;
  cp_index_entry_vec entries; /* DV index entries of the base snapshot */
  dv_bucket *buckets;
  size_t n_buckets, cap_buckets;
  char uuid[37];
  int counter;
  char **written; /* index files written and not yet handed out */
  size_t n_written;
};

int cp_dv_maintainer_new(cp_dv_maintainer **out, paimon_table *t, const cp_snapshot *base,
                         paimon_error *err) {
  cp_dv_maintainer *m = calloc(1, sizeof *m);
  if (!m) return CP_ENOMEM(err, "deletion vectors");
  m->t = t;
  int rc = cp_uuid_v4(m->uuid, err);
  if (!rc) rc = cp_dv_index_entries(t, base, &m->arena, &m->entries, err);
  if (rc) {
    cp_dv_maintainer_free(m);
    return rc;
  }
  *out = m;
  return PAIMON_OK;
}

static dv_file *find_file(dv_bucket *b, const char *name) {
  for (size_t i = 0; i < b->n_files; i++)
    if (strcmp(b->files[i].name, name) == 0) return &b->files[i];
  return NULL;
}

/* Adds `dv` (ownership taken) as the DV of `name`, merging with one already there. */
static int put_file(cp_dv_maintainer *m, dv_bucket *b, const char *name, cp_dv *dv,
                    paimon_error *err) {
  dv_file *f = find_file(b, name);
  if (f) {
    int rc = cp_dv_merge(f->dv, dv, err);
    cp_dv_free(dv);
    return rc;
  }
  if (b->n_files == b->cap_files) {
    size_t cap = b->cap_files ? b->cap_files * 2 : 8;
    dv_file *n = realloc(b->files, cap * sizeof *n);
    if (!n) {
      cp_dv_free(dv);
      return CP_ENOMEM(err, "deletion vectors");
    }
    b->files = n;
    b->cap_files = cap;
  }
  const char *copy = cp_arena_strdup(&m->arena, name);
  if (!copy) {
    cp_dv_free(dv);
    return CP_ENOMEM(err, "deletion vectors");
  }
  b->files[b->n_files++] = (dv_file){copy, dv};
  return PAIMON_OK;
}

/* Reads every DV of index entry `e` into the bucket. */
static int load_index_file(cp_dv_maintainer *m, dv_bucket *b, const cp_index_manifest_entry *e,
                           paimon_error *err) {
  char *path = NULL;
  CP_RETURN_IF_ERROR(cp_index_file_path(m->t, e, &path, err));
  cp_buf bytes = CP_BUF_INIT;
  int rc = e->n_dv_ranges ? cp_fs_read_file(m->t->fs, path, &bytes, MAX_INDEX_FILE, err) : 0;
  for (size_t i = 0; i < e->n_dv_ranges && !rc; i++) {
    const cp_dv_meta *meta = &e->dv_ranges[i];
    cp_dv *dv = NULL;
    rc = cp_dv_index_read(bytes.data, bytes.len, meta->offset, meta->length, path, &dv, err);
    if (!rc) rc = put_file(m, b, meta->data_file, dv, err);
  }
  cp_buf_free(&bytes);
  free(path);
  return rc;
}

/* The state of (partition, bucket), loaded from the base snapshot on first use. */
static int get_bucket(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket, dv_bucket **out,
                      paimon_error *err) {
  for (size_t i = 0; i < m->n_buckets; i++)
    if (m->buckets[i].bucket == bucket && bytes_eq(m->buckets[i].partition, partition)) {
      *out = &m->buckets[i];
      return PAIMON_OK;
    }
  if (m->n_buckets == m->cap_buckets) {
    size_t cap = m->cap_buckets ? m->cap_buckets * 2 : 4;
    dv_bucket *n = realloc(m->buckets, cap * sizeof *n);
    if (!n) return CP_ENOMEM(err, "deletion vectors");
    m->buckets = n;
    m->cap_buckets = cap;
  }
  dv_bucket *b = &m->buckets[m->n_buckets];
  memset(b, 0, sizeof *b);
  uint8_t *copy = cp_arena_alloc(&m->arena, partition.len + 1);
  b->old = cp_arena_alloc(&m->arena, (m->entries.n + 1) * sizeof *b->old);
  if (!copy || !b->old) return CP_ENOMEM(err, "deletion vectors");
  memcpy(copy, partition.data, partition.len);
  b->partition = (cp_bytes){copy, partition.len};
  b->bucket = bucket;
  m->n_buckets++;
  for (size_t i = 0; i < m->entries.n; i++) {
    const cp_index_manifest_entry *e = &m->entries.items[i];
    if (e->bucket != bucket || !bytes_eq(e->partition, partition)) continue;
    b->old[b->n_old++] = e;
    CP_RETURN_IF_ERROR(load_index_file(m, b, e, err));
  }
  *out = b;
  return PAIMON_OK;
}

int cp_dv_maintainer_delete(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket,
                            const char *data_file, int64_t position, bool *added,
                            paimon_error *err) {
  dv_bucket *b;
  CP_RETURN_IF_ERROR(get_bucket(m, partition, bucket, &b, err));
  dv_file *f = find_file(b, data_file);
  if (!f) {
    cp_dv *dv;
    CP_RETURN_IF_ERROR(cp_dv_new(&dv, err));
    CP_RETURN_IF_ERROR(put_file(m, b, data_file, dv, err));
    f = &b->files[b->n_files - 1];
  }
  bool a = false;
  CP_RETURN_IF_ERROR(cp_dv_add(f->dv, position, &a, err));
  if (a) b->changed = true;
  if (added) *added = a;
  return PAIMON_OK;
}

int cp_dv_maintainer_get(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket,
                         const char *data_file, const cp_dv **out, paimon_error *err) {
  dv_bucket *b;
  CP_RETURN_IF_ERROR(get_bucket(m, partition, bucket, &b, err));
  dv_file *f = find_file(b, data_file);
  *out = f ? f->dv : NULL;
  return PAIMON_OK;
}

typedef struct shift_ctx {
  cp_dv *into;
  int64_t shift;
} shift_ctx;

static int add_shifted(void *ctx, int64_t position) {
  shift_ctx *c = ctx;
  return cp_dv_add(c->into, position + c->shift, NULL, NULL);
}

int cp_dv_maintainer_move(cp_dv_maintainer *m, cp_bytes partition, int32_t bucket, const char *from,
                          const char *to, int64_t shift, paimon_error *err) {
  dv_bucket *b;
  CP_RETURN_IF_ERROR(get_bucket(m, partition, bucket, &b, err));
  dv_file *f = find_file(b, from);
  if (!f) return PAIMON_OK;
  cp_dv *moved = f->dv;
  size_t at = (size_t)(f - b->files);
  memmove(&b->files[at], &b->files[at + 1], (b->n_files - at - 1) * sizeof *b->files);
  b->n_files--;
  b->changed = true;
  if (!to) {
    cp_dv_free(moved);
    return PAIMON_OK;
  }
  cp_dv *dv = NULL;
  int rc = cp_dv_new(&dv, err);
  shift_ctx ctx = {dv, shift};
  if (!rc && cp_dv_foreach(moved, add_shifted, &ctx) != 0) rc = CP_ENOMEM(err, "deletion vectors");
  cp_dv_free(moved);
  if (!rc) return put_file(m, b, to, dv, err);
  cp_dv_free(dv);
  return rc;
}

static int cmp_file(const void *x, const void *y) {
  return strcmp(((const dv_file *)x)->name, ((const dv_file *)y)->name);
}

/* Writes the bucket's DVs as one new index file and describes it. */
static int write_bucket(cp_dv_maintainer *m, dv_bucket *b, cp_index_manifest_entry *entry,
                        paimon_error *err) {
  qsort(b->files, b->n_files, sizeof *b->files, cmp_file);
  cp_dv_slot *slots = calloc(b->n_files + 1, sizeof *slots);
  cp_dv_meta *metas = cp_arena_alloc(&m->arena, (b->n_files + 1) * sizeof *metas);
  char name[96];
  snprintf(name, sizeof name, "index-%s-%d", m->uuid, m->counter++);
  size_t plen = strlen(m->t->path) + strlen(name) + 16;
  char *path = malloc(plen), **w = realloc(m->written, (m->n_written + 1) * sizeof *w);
  if (w) m->written = w;
  cp_buf bytes = CP_BUF_INIT;
  int rc = (slots && metas && path && w) ? PAIMON_OK : CP_ENOMEM(err, "deletion vectors");
  for (size_t i = 0; i < b->n_files && !rc; i++)
    slots[i] = (cp_dv_slot){b->files[i].name, b->files[i].dv, 0, 0, 0};
  if (!rc) rc = cp_dv_index_write(slots, b->n_files, &bytes, err);
  if (!rc) {
    snprintf(path, plen, "%s/index/%s", m->t->path, name);
    rc = cp_fs_write_file(m->t->fs, path, bytes.data, bytes.len, CP_CREATE_EXCLUSIVE, true, err);
  }
  if (!rc) {
    m->written[m->n_written++] = path;
    path = NULL;
    for (size_t i = 0; i < b->n_files; i++)
      metas[i] = (cp_dv_meta){slots[i].data_file, slots[i].offset, slots[i].length, true,
                              slots[i].cardinality};
    memset(entry, 0, sizeof *entry);
    entry->kind = CP_FILE_KIND_ADD;
    entry->partition = b->partition;
    entry->bucket = b->bucket;
    entry->index_type = CP_DV_INDEX_TYPE;
    entry->file_name = cp_arena_strdup(&m->arena, name);
    entry->file_size = (int64_t)bytes.len;
    entry->row_count = (int64_t)b->n_files;
    entry->has_dv_ranges = true;
    entry->dv_ranges = metas;
    entry->n_dv_ranges = b->n_files;
    if (!entry->file_name) rc = CP_ENOMEM(err, "deletion vectors");
  }
  cp_buf_free(&bytes);
  free(slots);
  free(path);
  return rc;
}

int cp_dv_maintainer_prepare(cp_dv_maintainer *m, paimon_commit_messages *out,
                             int64_t check_from_snapshot, paimon_error *err) {
  size_t before = m->n_written;
  for (size_t i = 0; i < m->n_buckets; i++) {
    dv_bucket *b = &m->buckets[i];
    if (!b->changed) continue;
    cp_index_manifest_entry add;
    if (b->n_files) CP_RETURN_IF_ERROR(write_bucket(m, b, &add, err));
    cp_index_manifest_entry *dels = calloc(b->n_old + 1, sizeof *dels);
    if (!dels) return CP_ENOMEM(err, "deletion vectors");
    for (size_t k = 0; k < b->n_old; k++) {
      dels[k] = *b->old[k];
      dels[k].kind = CP_FILE_KIND_DELETE;
    }
    cp_commit_message msg;
    memset(&msg, 0, sizeof msg);
    msg.partition = b->partition;
    msg.bucket = b->bucket;
    msg.total_buckets = (int32_t)m->t->options.bucket;
    msg.index_adds = &add;
    msg.n_index_adds = b->n_files ? 1 : 0;
    msg.index_deletes = dels;
    msg.n_index_deletes = b->n_old;
    msg.check_from_snapshot = check_from_snapshot;
    int rc = cp_commit_messages_add(out, &msg, err);
    free(dels);
    CP_RETURN_IF_ERROR(rc);
    b->changed = false;
  }
  if (m->n_written > before) {
    /* The new index files must be durable before a snapshot refers to them (§6.2). */
    char *dir = cp_path_join(m->t->path, "index");
    int rc = dir ? cp_fs_sync_dir(m->t->fs, dir, err) : CP_ENOMEM(err, "path");
    free(dir);
    CP_RETURN_IF_ERROR(rc);
  }
  for (size_t i = 0; i < m->n_written; i++) free(m->written[i]);
  m->n_written = 0; /* handed out: the messages own them now */
  return PAIMON_OK;
}

void cp_dv_maintainer_free(cp_dv_maintainer *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n_written; i++) {
    cp_fs_delete(m->t->fs, m->written[i], NULL);
    free(m->written[i]);
  }
  free(m->written);
  for (size_t i = 0; i < m->n_buckets; i++) {
    for (size_t k = 0; k < m->buckets[i].n_files; k++) cp_dv_free(m->buckets[i].files[k].dv);
    free(m->buckets[i].files);
  }
  free(m->buckets);
  cp_index_entry_vec_free(&m->entries);
  cp_arena_free(&m->arena);
  free(m);
}
