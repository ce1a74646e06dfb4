/*
 * Commit messages and their byte form (commit.h). The form is:
 *   "PMCM" | u32 version (1) | u32 n_messages |
 *   n × (i64 check_from_snapshot, u32 n_file_entries, u32 n_index_entries) |
 *   u32 length + a manifest file (Avro, spec/format.md §4.3) holding every message's files in
 *     order: _KIND 0 = a new file, 1 = a file the message replaces; partition and bucket per entry
 * | u32 length + an index manifest (§7.1) holding the index changes (_KIND 0 add, 1 delete).
 * Reusing Paimon's own record encodings keeps every DataFileMeta field and stays readable across
 * versions (Avro resolves by field name). Integers are little-endian.
 */
#include "table/commit_message.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/manifest.h"
#include "meta/options.h"
#include "table/table.h"

#define MAGIC "PMCM"
/* Version 2 added a flags word (bit 0: compaction) to each message header; 1 is still read. */
#define VERSION 2

int paimon_commit_messages_new(paimon_commit_messages **out, paimon_error *err) {
  *out = calloc(1, sizeof **out);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "commit messages");
}

void paimon_commit_messages_free(paimon_commit_messages *m) {
  if (!m) return;
  free(m->items);
  cp_arena_free(&m->arena);
  free(m);
}

size_t paimon_commit_messages_count(const paimon_commit_messages *m) { return m->n; }

size_t paimon_commit_messages_new_file_count(const paimon_commit_messages *m) {
  size_t n = 0;
  for (size_t i = 0; i < m->n; i++) n += m->items[i].n_new;
  return n;
}

int paimon_commit_messages_new_file(const paimon_commit_messages *m, size_t i,
                                    paimon_data_file_info *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  for (size_t k = 0; k < m->n; k++) {
    const cp_commit_message *msg = &m->items[k];
    if (i >= msg->n_new) {
      i -= msg->n_new;
      continue;
    }
    const cp_data_file_meta *f = &msg->new_files[i];
    out->message = k;
    out->bucket = msg->bucket;
    out->file_name = f->file_name;
    out->file_size = f->file_size;
    out->row_count = f->row_count;
    out->schema_id = f->schema_id;
    out->min_sequence_number = f->min_sequence_number;
    out->max_sequence_number = f->max_sequence_number;
    out->first_row_id = f->has_first_row_id ? f->first_row_id : -1;
    if (f->has_write_cols) {
      out->n_write_cols = f->write_cols.n;
      out->write_cols = f->write_cols.items;
    }
    return PAIMON_OK;
  }
  return paimon_error_set(err, PAIMON_EINVAL, "commit messages have no new file %zu", i);
}

static int copy_files(cp_data_file_meta **dst, const cp_data_file_meta *src, size_t n, cp_arena *a,
                      paimon_error *err) {
  *dst = NULL;
  if (!n) return PAIMON_OK;
  cp_data_file_meta *f = cp_arena_alloc(a, n * sizeof *f);
  if (!f) return CP_ENOMEM(err, "commit message");
  for (size_t i = 0; i < n; i++) {
    /* Copy through a manifest entry to reuse the deep-copy logic. */
    cp_manifest_entry e = {0}, copy;
    e.file = src[i];
    CP_RETURN_IF_ERROR(cp_manifest_entry_copy(&copy, &e, a, err));
    f[i] = copy.file;
  }
  *dst = f;
  return PAIMON_OK;
}

static int copy_index(cp_index_manifest_entry **dst, const cp_index_manifest_entry *src, size_t n,
                      cp_arena *a, paimon_error *err) {
  *dst = NULL;
  if (!n) return PAIMON_OK;
  cp_index_manifest_entry *e = cp_arena_alloc(a, n * sizeof *e);
  if (!e) return CP_ENOMEM(err, "commit message");
  for (size_t i = 0; i < n; i++)
    CP_RETURN_IF_ERROR(cp_index_manifest_entry_copy(&e[i], &src[i], a, err));
  *dst = e;
  return PAIMON_OK;
}

int cp_commit_messages_add(paimon_commit_messages *m, const cp_commit_message *src,
                           paimon_error *err) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 8;
    cp_commit_message *p = realloc(m->items, cap * sizeof *p);
    if (!p) return CP_ENOMEM(err, "commit messages");
    m->items = p;
    m->cap = cap;
  }
  cp_commit_message c = *src;
  cp_manifest_entry pe = {0}, pcopy;
  pe.partition = src->partition;
  CP_RETURN_IF_ERROR(cp_manifest_entry_copy(&pcopy, &pe, &m->arena, err));
  c.partition = pcopy.partition;
  CP_RETURN_IF_ERROR(copy_files(&c.new_files, src->new_files, src->n_new, &m->arena, err));
  CP_RETURN_IF_ERROR(
      copy_files(&c.deleted_files, src->deleted_files, src->n_deleted, &m->arena, err));
  CP_RETURN_IF_ERROR(copy_index(&c.index_adds, src->index_adds, src->n_index_adds, &m->arena, err));
  CP_RETURN_IF_ERROR(
      copy_index(&c.index_deletes, src->index_deletes, src->n_index_deletes, &m->arena, err));
  m->items[m->n++] = c;
  return PAIMON_OK;
}

int paimon_commit_messages_append(paimon_commit_messages *dst, const paimon_commit_messages *src,
                                  paimon_error *err) {
  for (size_t i = 0; i < src->n; i++)
    CP_RETURN_IF_ERROR(cp_commit_messages_add(dst, &src->items[i], err));
  return PAIMON_OK;
}

/* Whether `path` is below one of the comma-separated `roots` (each trimmed; a root matches
 * whole path segments). */
static bool under_roots(const char *path, const char *roots) {
  for (const char *r = roots; r && *r;) {
    while (*r == ' ' || *r == ',') r++;
    const char *end = strchr(r, ',');
    size_t n = end ? (size_t)(end - r) : strlen(r);
    while (n && r[n - 1] == ' ') n--;
    while (n && r[n - 1] == '/') n--;
    if (n && strncmp(path, r, n) == 0 && path[n] == '/') return true;
    r = end ? end + 1 : r + strlen(r);
  }
  return false;
}

static int check_external(const paimon_table *t, const char *path, const char *option,
                          const char *what, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_check_external_path(path, what, err));
  const char *roots = cp_options_get(&t->schema->options, option);
  if (under_roots(path, roots)) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s external path '%s' is not under the table's %s (%s)", what, path,
                          option, roots ? roots : "not set");
}

static int check_data_file(const paimon_table *t, const cp_data_file_meta *f, paimon_error *err) {
  CP_RETURN_IF_ERROR(
      cp_check_file_name(f->file_name, f->file_name ? strlen(f->file_name) : 0, "data file", err));
  for (size_t i = 0; i < f->extra_files.n; i++)
    CP_RETURN_IF_ERROR(cp_check_file_name(f->extra_files.items[i], strlen(f->extra_files.items[i]),
                                          "extra file", err));
  if (f->external_path)
    return check_external(t, f->external_path, "data-file.external-paths", "data file", err);
  return PAIMON_OK;
}

static int check_index_file(const paimon_table *t, const cp_index_manifest_entry *e,
                            paimon_error *err) {
  CP_RETURN_IF_ERROR(
      cp_check_file_name(e->file_name, e->file_name ? strlen(e->file_name) : 0, "index file", err));
  if (e->external_path)
    return check_external(t, e->external_path, "global-index.external-path", "index file", err);
  return PAIMON_OK;
}

int cp_commit_messages_check(const paimon_table *t, const paimon_commit_messages *msgs,
                             paimon_error *err) {
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    int rc = PAIMON_OK;
    for (size_t j = 0; !rc && j < m->n_new; j++) rc = check_data_file(t, &m->new_files[j], err);
    for (size_t j = 0; !rc && j < m->n_deleted; j++)
      rc = check_data_file(t, &m->deleted_files[j], err);
    for (size_t j = 0; !rc && j < m->n_index_adds; j++)
      rc = check_index_file(t, &m->index_adds[j], err);
    for (size_t j = 0; !rc && j < m->n_index_deletes; j++)
      rc = check_index_file(t, &m->index_deletes[j], err);
    if (rc) return paimon_error_prefix(err, "table %s: commit message %zu", t->full_name, i + 1);
  }
  return PAIMON_OK;
}

/* Flattens the messages into manifest / index entries in message order. */
static int flatten(const paimon_commit_messages *m, cp_entry_vec *files, cp_index_entry_vec *idx,
                   paimon_error *err) {
  for (size_t i = 0; i < m->n; i++) {
    const cp_commit_message *c = &m->items[i];
    for (int kind = 0; kind < 2; kind++) {
      const cp_data_file_meta *f = kind ? c->deleted_files : c->new_files;
      size_t n = kind ? c->n_deleted : c->n_new;
      for (size_t j = 0; j < n; j++) {
        cp_manifest_entry e = {kind, c->partition, c->bucket, c->total_buckets, f[j]};
        CP_RETURN_IF_ERROR(cp_entry_vec_push(files, &e, err));
      }
      const cp_index_manifest_entry *x = kind ? c->index_deletes : c->index_adds;
      size_t nx = kind ? c->n_index_deletes : c->n_index_adds;
      for (size_t j = 0; j < nx; j++) {
        cp_index_manifest_entry e = x[j];
        e.kind = kind;
        CP_RETURN_IF_ERROR(cp_index_entry_vec_push(idx, &e, err));
      }
    }
  }
  return PAIMON_OK;
}

int paimon_commit_messages_serialize(const paimon_commit_messages *m, uint8_t **out, size_t *len,
                                     paimon_error *err) {
  cp_buf b = CP_BUF_INIT, files_bytes = CP_BUF_INIT, idx_bytes = CP_BUF_INIT;
  cp_entry_vec files = {0};
  cp_index_entry_vec idx = {0};
  /* A fixed sync marker: the same messages serialize to the same bytes. */
  static const uint8_t sync[16] = "cpaimon-messages";
  cp_manifest_write_options opts = {"zstandard", 1, sync};
  int rc;
  CP_GOTO_IF_ERROR(rc, flatten(m, &files, &idx, err), done);
  CP_GOTO_IF_ERROR(rc, cp_manifest_file_encode(files.items, files.n, &opts, &files_bytes, err),
                   done);
  CP_GOTO_IF_ERROR(rc, cp_index_manifest_encode(idx.items, idx.n, &opts, &idx_bytes, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append(&b, MAGIC, 4, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, VERSION, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, (uint32_t)m->n, err), done);
  for (size_t i = 0; i < m->n; i++) {
    const cp_commit_message *c = &m->items[i];
    CP_GOTO_IF_ERROR(rc, cp_buf_append_i64le(&b, c->check_from_snapshot, err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, (uint32_t)(c->n_new + c->n_deleted), err), done);
    CP_GOTO_IF_ERROR(
        rc, cp_buf_append_u32le(&b, (uint32_t)(c->n_index_adds + c->n_index_deletes), err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, c->compact ? 1u : 0u, err), done);
  }
  CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, (uint32_t)files_bytes.len, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append(&b, files_bytes.data, files_bytes.len, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append_u32le(&b, (uint32_t)idx_bytes.len, err), done);
  CP_GOTO_IF_ERROR(rc, cp_buf_append(&b, idx_bytes.data, idx_bytes.len, err), done);
  *len = b.len;
  *out = cp_buf_detach(&b);
done:
  cp_buf_free(&b);
  cp_buf_free(&files_bytes);
  cp_buf_free(&idx_bytes);
  cp_entry_vec_free(&files);
  cp_index_entry_vec_free(&idx);
  return rc;
}

typedef struct msg_header {
  int64_t check_from_snapshot;
  uint32_t n_files, n_index, flags;
} msg_header;

/* Rebuilds one message from its slice of the flattened entries. */
static int rebuild(paimon_commit_messages *m, const msg_header *h, const cp_manifest_entry *files,
                   const cp_index_manifest_entry *idx, paimon_error *err) {
  cp_commit_message c;
  memset(&c, 0, sizeof c);
  c.check_from_snapshot = h->check_from_snapshot;
  c.compact = (h->flags & 1u) != 0;
  cp_data_file_meta *added = calloc(h->n_files + 1, sizeof *added);
  cp_data_file_meta *deleted = calloc(h->n_files + 1, sizeof *deleted);
  cp_index_manifest_entry *iadd = calloc(h->n_index + 1, sizeof *iadd);
  cp_index_manifest_entry *idel = calloc(h->n_index + 1, sizeof *idel);
  int rc = (added && deleted && iadd && idel) ? PAIMON_OK : CP_ENOMEM(err, "commit messages");
  for (uint32_t i = 0; !rc && i < h->n_files; i++) {
    if (i == 0) {
      c.partition = files[i].partition;
      c.bucket = files[i].bucket;
      c.total_buckets = files[i].total_buckets;
    }
    if (files[i].kind == CP_FILE_KIND_ADD)
      added[c.n_new++] = files[i].file;
    else
      deleted[c.n_deleted++] = files[i].file;
  }
  for (uint32_t i = 0; !rc && i < h->n_index; i++) {
    if (h->n_files == 0 && i == 0) {
      c.partition = idx[i].partition;
      c.bucket = idx[i].bucket;
    }
    if (idx[i].kind == CP_FILE_KIND_ADD)
      iadd[c.n_index_adds++] = idx[i];
    else
      idel[c.n_index_deletes++] = idx[i];
  }
  c.new_files = added;
  c.deleted_files = deleted;
  c.index_adds = iadd;
  c.index_deletes = idel;
  if (!rc && (h->n_files || h->n_index)) rc = cp_commit_messages_add(m, &c, err);
  free(added);
  free(deleted);
  free(iadd);
  free(idel);
  return rc;
}

static int corrupt(paimon_error *err, const char *what) {
  return paimon_error_set(err, PAIMON_EINVAL, "serialized commit messages: %s", what);
}

int paimon_commit_messages_deserialize(paimon_commit_messages **out, const void *data, size_t len,
                                       paimon_error *err) {
  const uint8_t *p = data, *end = p + len;
  if (len < 12 || memcmp(p, MAGIC, 4) != 0) return corrupt(err, "bad magic");
  uint32_t version = cp_load_u32le(p + 4);
  if (version != 1 && version != VERSION) return corrupt(err, "unsupported version");
  size_t header = version == 1 ? 16 : 20;
  uint32_t n = cp_load_u32le(p + 8);
  p += 12;
  if ((size_t)(end - p) / header < n) return corrupt(err, "truncated headers");
  msg_header *h = calloc(n + 1, sizeof *h);
  if (!h) return CP_ENOMEM(err, "commit messages");
  uint64_t total_files = 0, total_index = 0;
  for (uint32_t i = 0; i < n; i++, p += header) {
    h[i].check_from_snapshot = cp_load_i64le(p);
    h[i].n_files = cp_load_u32le(p + 8);
    h[i].n_index = cp_load_u32le(p + 12);
    if (version > 1) h[i].flags = cp_load_u32le(p + 16);
    total_files += h[i].n_files;
    total_index += h[i].n_index;
  }
  paimon_commit_messages *m = NULL;
  cp_arena scratch = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  cp_index_entry_vec idx = {0};
  int rc = paimon_commit_messages_new(&m, err);
  const uint8_t *sections[2];
  uint32_t lens[2];
  for (int s = 0; !rc && s < 2; s++) {
    if (end - p < 4 || (size_t)(end - p - 4) < cp_load_u32le(p)) {
      rc = corrupt(err, "truncated section");
      break;
    }
    lens[s] = cp_load_u32le(p);
    sections[s] = p + 4;
    p += 4 + lens[s];
  }
  if (!rc)
    rc = cp_manifest_file_decode("commit messages", sections[0], lens[0], &scratch, &files, err);
  if (!rc)
    rc = cp_index_manifest_decode("commit messages", sections[1], lens[1], &scratch, &idx, err);
  if (!rc && (files.n != total_files || idx.n != total_index))
    rc = corrupt(err, "entry counts do not match the headers");
  size_t fi = 0, ii = 0;
  for (uint32_t i = 0; !rc && i < n; i++) {
    /* (No entries: the vectors hold no array, and NULL + 0 is undefined behaviour.) */
    rc = rebuild(m, &h[i], files.items ? files.items + fi : NULL, idx.items ? idx.items + ii : NULL,
                 err);
    fi += h[i].n_files;
    ii += h[i].n_index;
  }
  free(h);
  cp_entry_vec_free(&files);
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&scratch);
  if (rc) {
    paimon_commit_messages_free(m);
    return rc;
  }
  *out = m;
  return PAIMON_OK;
}

int cp_commit_messages_add_compaction(struct paimon_table *t, paimon_commit_messages *msgs,
                                      cp_bytes partition, int32_t bucket, int32_t total_buckets,
                                      const cp_data_file_meta *file,
                                      const cp_data_file_meta *deleted, size_t n_deleted,
                                      paimon_error *err) {
  cp_commit_message m;
  memset(&m, 0, sizeof m);
  m.partition = partition;
  m.bucket = bucket;
  m.total_buckets = total_buckets;
  m.new_files = (cp_data_file_meta *)file;
  m.n_new = 1;
  m.deleted_files = (cp_data_file_meta *)deleted;
  m.n_deleted = n_deleted;
  m.check_from_snapshot = -1;
  m.compact = true;
  int rc = cp_commit_messages_add(msgs, &m, err);
  if (rc) {
    char *path = NULL;
    if (cp_data_file_path(t, partition, bucket, file, &path, NULL) == 0)
      cp_fs_delete(t->fs, path, NULL);
    free(path);
  }
  return rc;
}
