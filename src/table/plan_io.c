/*
 * Plans as bytes (paimon_plan_serialize / _deserialize, include/cpaimon/read.h): splits planned
 * in one process and read in another — a Ray worker, a process pool — without planning again.
 *
 * Layout (little-endian): "PMSP", version u32 (1), snapshot id i64, split count u32; per split
 * its file count u32, flags u32 (1 merged, 2 sliced, 4 deletion vector), first row id i64, row
 * count i64, slice from i64 and to i64, DV offset i64, length i64, cardinality i64, DV path
 * (u32 length + bytes, 0 when none); then one section (u32 length + bytes): every split's files,
 * in order, as the entries of a Paimon manifest file (the Avro codec of manifests, so the file
 * metadata keeps every field Java's DataFileMeta has).
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/manifest.h"
#include "table/scan.h"

#define MAGIC "PMSP"
#define VERSION 1
#define SPLIT_HEADER 64 /* bytes of a split's fixed fields (before the DV path length) */

enum { F_MERGED = 1, F_SLICED = 2, F_DV = 4 };

static int add_split(cp_buf *b, const cp_split *s, paimon_error *err) {
  uint32_t flags =
      (s->merged ? F_MERGED : 0) | (s->sliced ? F_SLICED : 0) | (s->dv_path ? F_DV : 0);
  CP_RETURN_IF_ERROR(cp_buf_append_u32le(b, (uint32_t)s->n_files, err));
  CP_RETURN_IF_ERROR(cp_buf_append_u32le(b, flags, err));
  const int64_t fields[] = {s->first_row_id, s->row_count, s->slice_from,    s->slice_to,
                            s->dv_offset,    s->dv_length, s->dv_cardinality};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
    CP_RETURN_IF_ERROR(cp_buf_append_i64le(b, fields[i], err));
  size_t n = s->dv_path ? strlen(s->dv_path) : 0;
  CP_RETURN_IF_ERROR(cp_buf_append_u32le(b, (uint32_t)n, err));
  return n ? cp_buf_append(b, s->dv_path, n, err) : PAIMON_OK;
}

int paimon_plan_serialize(const paimon_plan *plan, const size_t *indices, size_t n, uint8_t **out,
                          size_t *len, paimon_error *err) {
  *out = NULL;
  *len = 0;
  size_t count = indices ? n : plan->n_splits, n_files = 0;
  for (size_t i = 0; i < count; i++) {
    size_t k = indices ? indices[i] : i;
    if (k >= plan->n_splits)
      return paimon_error_set(err, PAIMON_EINVAL, "split index %zu out of range (%zu splits)", k,
                              plan->n_splits);
    n_files += plan->splits[k].n_files;
  }
  cp_manifest_entry *entries = calloc(n_files + 1, sizeof *entries);
  if (!entries) return CP_ENOMEM(err, "plan");
  cp_buf b = CP_BUF_INIT, files = CP_BUF_INIT;
  int rc = cp_buf_append(&b, MAGIC, 4, err);
  if (!rc) rc = cp_buf_append_u32le(&b, VERSION, err);
  if (!rc) rc = cp_buf_append_i64le(&b, plan->snapshot_id, err);
  if (!rc) rc = cp_buf_append_u32le(&b, (uint32_t)count, err);
  size_t at = 0;
  for (size_t i = 0; !rc && i < count; i++) {
    const cp_split *s = &plan->splits[indices ? indices[i] : i];
    rc = add_split(&b, s, err);
    for (size_t f = 0; f < s->n_files; f++) entries[at++] = s->files[f];
  }
  /* A fixed sync marker: the same splits serialize to the same bytes. */
  static const uint8_t sync[16] = "cpaimon-splits!!";
  cp_manifest_write_options o = {"zstandard", 1, sync};
  if (!rc) rc = cp_manifest_file_encode(entries, n_files, &o, &files, err);
  if (!rc) rc = cp_buf_append_u32le(&b, (uint32_t)files.len, err);
  if (!rc) rc = cp_buf_append(&b, files.data, files.len, err);
  free(entries);
  cp_buf_free(&files);
  if (rc) {
    cp_buf_free(&b);
    return rc;
  }
  *len = b.len;
  *out = cp_buf_detach(&b);
  return PAIMON_OK;
}

static int corrupt(paimon_error *err, const char *what) {
  return paimon_error_set(err, PAIMON_EINVAL, "serialized splits: %s", what);
}

/* Reads the fixed fields and DV path of one split at *p (advanced); files are attached later. */
static int read_split(paimon_plan *plan, const uint8_t **p, const uint8_t *end, cp_split *s,
                      size_t *n_files, paimon_error *err) {
  if ((size_t)(end - *p) < SPLIT_HEADER + 4) return corrupt(err, "truncated split");
  const uint8_t *q = *p;
  *n_files = cp_load_u32le(q);
  uint32_t flags = cp_load_u32le(q + 4);
  if (flags & ~(uint32_t)(F_MERGED | F_SLICED | F_DV)) return corrupt(err, "unknown split flags");
  int64_t v[7];
  for (int i = 0; i < 7; i++) v[i] = cp_load_i64le(q + 8 + 8 * i);
  uint32_t path_len = cp_load_u32le(q + SPLIT_HEADER);
  q += SPLIT_HEADER + 4;
  if ((size_t)(end - q) < path_len) return corrupt(err, "truncated deletion vector path");
  memset(s, 0, sizeof *s);
  s->merged = (flags & F_MERGED) != 0;
  s->sliced = (flags & F_SLICED) != 0;
  s->first_row_id = v[0];
  s->row_count = v[1];
  s->slice_from = v[2];
  s->slice_to = v[3];
  s->dv_offset = v[4];
  s->dv_length = v[5];
  s->dv_cardinality = v[6];
  if (s->row_count < 0 || (s->sliced && (s->slice_from < 0 || s->slice_to < s->slice_from)))
    return corrupt(err, "negative row count or bad slice");
  if ((flags & F_DV) != 0) {
    if (path_len == 0 || memchr(q, '\0', path_len)) return corrupt(err, "bad deletion vector path");
    char *path = cp_arena_strndup(&plan->arena, (const char *)q, path_len);
    if (!path) return CP_ENOMEM(err, "plan");
    s->dv_path = path;
  } else if (path_len) {
    return corrupt(err, "a deletion vector path without the flag");
  }
  *p = q + path_len;
  return PAIMON_OK;
}

int paimon_plan_deserialize(paimon_plan **out, const void *data, size_t len, paimon_error *err) {
  *out = NULL;
  const uint8_t *p = data, *end = p + len;
  if (len < 20 || memcmp(p, MAGIC, 4) != 0) return corrupt(err, "bad magic");
  if (cp_load_u32le(p + 4) != VERSION) return corrupt(err, "unsupported version");
  paimon_plan *plan = calloc(1, sizeof *plan);
  if (!plan) return CP_ENOMEM(err, "plan");
  plan->arena = (cp_arena)CP_ARENA_INIT;
  plan->snapshot_id = cp_load_i64le(p + 8);
  uint32_t count = cp_load_u32le(p + 16);
  p += 20;
  size_t *n_files = NULL;
  cp_entry_vec files = {0};
  int rc = (size_t)(end - p) / (SPLIT_HEADER + 4) < count ? corrupt(err, "truncated splits") : 0;
  if (!rc) {
    plan->splits = calloc((size_t)count + 1, sizeof *plan->splits);
    n_files = calloc((size_t)count + 1, sizeof *n_files);
    if (!plan->splits || !n_files) rc = CP_ENOMEM(err, "plan");
  }
  uint64_t total = 0;
  for (uint32_t i = 0; !rc && i < count; i++) {
    rc = read_split(plan, &p, end, &plan->splits[i], &n_files[i], err);
    total += n_files[i];
  }
  if (!rc && (end - p < 4 || (size_t)(end - p - 4) != cp_load_u32le(p)))
    rc = corrupt(err, "bad file section length");
  if (!rc)
    rc = cp_manifest_file_decode("serialized splits", p + 4, cp_load_u32le(p), &plan->arena, &files,
                                 err);
  if (!rc && files.n != total) rc = corrupt(err, "file counts do not match the splits");
  /* Each split's files, copied into the plan's arena (the vector's array is freed below). */
  size_t at = 0;
  for (uint32_t i = 0; !rc && i < count; i++) {
    cp_split *s = &plan->splits[i];
    if (n_files[i] == 0) {
      rc = corrupt(err, "a split without files");
      break;
    }
    s->files = cp_arena_alloc(&plan->arena, n_files[i] * sizeof *s->files);
    if (!s->files) {
      rc = CP_ENOMEM(err, "plan");
      break;
    }
    memcpy(s->files, files.items + at, n_files[i] * sizeof *s->files);
    s->n_files = n_files[i];
    s->partition = s->files[0].partition;
    s->bucket = s->files[0].bucket;
    at += n_files[i];
  }
  plan->n_splits = rc ? 0 : count;
  free(n_files);
  cp_entry_vec_free(&files);
  if (rc) {
    paimon_plan_free(plan);
    return rc;
  }
  *out = plan;
  return PAIMON_OK;
}
