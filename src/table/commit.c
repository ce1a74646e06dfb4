/*
 * The committer (include/cpaimon/commit.h): one optimistic attempt after another until a snapshot
 * is published or a real conflict is found (spec/format.md §6.1):
 *   1. read the latest snapshot L;
 *   2. check conflicts against L when the messages delete files or were pinned to a snapshot;
 *   3. stamp sequence numbers and assign first row ids from L.nextRowId (row tracking, §6.6 and
 *      data-evolution.md §1.2–1.3);
 *   4. write the delta manifest and delta manifest list, the base manifest list (L's lists,
 *      merged per §6.7), and an index manifest when index files change;
 *   5. publish snapshot L+1 with a no-replace rename (§6.2); on a lost race delete what this
 *      attempt wrote, back off, and start again from 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "meta/binary_row.h"
#include "meta/manifest.h"
#include "table/commit_message.h"
#include "table/conflict.h"
#include "table/dv.h"
#include "table/dv_conflict.h"
#include "table/file_store.h"
#include "table/global_index.h"
#include "table/name_set.h"
#include "table/rebase.h"
#include "table/rest_catalog.h"
#include "table/store.h"
#include "table/table.h"
#include "expr/expr.h"
#include "types/special_fields.h"

/* INSERT OVERWRITE (paimon_commit_set_overwrite): which live files the next commit replaces. */
typedef struct overwrite_spec {
  bool on;
  bool dynamic;     /* replace the partitions the new files write to */
  size_t n;         /* static partition keys given; 0 = dynamic or whole table */
  size_t *key;      /* their positions among the partition keys */
  cp_datum *values; /* their values (bytes in `arena`) */
  cp_arena arena;
  struct overwrite_spec *alts; /* truncate_partitions: a partition matching any of these */
  size_t n_alts;
} overwrite_spec;

struct paimon_commit {
  paimon_table *table;
  char *commit_user;
  int64_t identifier; /* of the commit being made: CP_BATCH_COMMIT_IDENTIFIER for batch ones */
  int64_t last_snapshot_id;
  overwrite_spec overwrite;
  /* What the last scan for this user's newest snapshot found (streaming commits): snapshots up
   * to scanned_to were looked at; user_identifier is the newest identifier among them. */
  int64_t scanned_to;
  bool has_user_identifier;
  int64_t user_identifier;
  /* rollback_to_as_latest: the snapshot whose files the next snapshot holds (borrowed). */
  const cp_snapshot *as_latest;
  /* The snapshot properties of the commits that follow (paimon_commit_set_properties). */
  cp_options properties;
};

int paimon_commit_new(paimon_commit **out, paimon_table *table, paimon_error *err) {
  paimon_commit *c = calloc(1, sizeof *c);
  char uuid[37];
  int rc = c ? cp_uuid_v4(uuid, err) : CP_ENOMEM(err, "commit");
  if (!rc && !(c->commit_user = strdup(uuid))) rc = CP_ENOMEM(err, "commit");
  if (rc) {
    free(c);
    return rc;
  }
  c->table = table;
  c->identifier = CP_BATCH_COMMIT_IDENTIFIER;
  *out = c;
  return PAIMON_OK;
}

int paimon_commit_set_user(paimon_commit *c, const char *user, paimon_error *err) {
  if (!user || !*user)
    return paimon_error_set(err, PAIMON_EINVAL, "commit user of table %s must not be empty",
                            c->table->full_name);
  char *copy = strdup(user);
  if (!copy) return CP_ENOMEM(err, "commit");
  free(c->commit_user);
  c->commit_user = copy;
  c->scanned_to = 0;
  c->has_user_identifier = false;
  return PAIMON_OK;
}

const char *paimon_commit_user(const paimon_commit *c) { return c->commit_user; }

int paimon_commit_set_properties(paimon_commit *c, const char *const *keys,
                                 const char *const *values, size_t n, paimon_error *err) {
  cp_options props = {0};
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    if (!keys[i] || !*keys[i] || !values[i])
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "snapshot property %zu of a commit to table %s: an empty key or a "
                            "NULL value",
                            i, c->table->full_name);
    else
      rc = cp_options_set(&props, keys[i], values[i], err);
  }
  if (rc) {
    cp_options_free(&props);
    return rc;
  }
  cp_options_free(&c->properties);
  c->properties = props;
  return PAIMON_OK;
}

static void clear_overwrite(overwrite_spec *o) {
  for (size_t i = 0; i < o->n_alts; i++) clear_overwrite(&o->alts[i]);
  free(o->alts);
  free(o->key);
  free(o->values);
  cp_arena_free(&o->arena);
  memset(o, 0, sizeof *o);
}

void paimon_commit_free(paimon_commit *c) {
  if (!c) return;
  clear_overwrite(&c->overwrite);
  cp_options_free(&c->properties);
  free(c->commit_user);
  free(c);
}

/* Parses the static spec keys[i] = values[i] into `o` (cleared on failure). With
 * `default_is_null`, the table's partition.default-name stands for NULL, as pypaimon's
 * drop_partitions reads it. */
static int parse_spec(paimon_commit *c, const char *const *keys, const char *const *values,
                      size_t n, bool default_is_null, overwrite_spec *o, paimon_error *err) {
  const cp_table_schema *s = c->table->schema;
  o->key = calloc(n + 1, sizeof *o->key);
  o->values = calloc(n + 1, sizeof *o->values);
  if (!o->key || !o->values) return CP_ENOMEM(err, "overwrite");
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < s->n_partition_keys && strcmp(s->partition_keys[k], keys[i]) != 0) k++;
    if (k == s->n_partition_keys) {
      clear_overwrite(o);
      return paimon_error_set(err, PAIMON_EINVAL, "%s is not a partition key of table %s", keys[i],
                              c->table->full_name);
    }
    o->key[i] = k;
    const cp_type *t = s->row->fields[cp_table_schema_partition_index(s, k)].type;
    bool null = !values[i] || (default_is_null &&
                               strcmp(values[i], c->table->options.partition_default_name) == 0);
    int rc = !null ? cp_datum_parse_text(t, values[i], &o->arena, &o->values[i], err)
                   : (o->values[i] = cp_datum_null(), PAIMON_OK);
    if (rc) {
      clear_overwrite(o);
      return paimon_error_prefix(err, "partition %s of table %s", keys[i], c->table->full_name);
    }
  }
  o->n = n;
  return PAIMON_OK;
}

int paimon_commit_set_overwrite(paimon_commit *c, paimon_overwrite_mode mode,
                                const char *const *keys, const char *const *values, size_t n,
                                paimon_error *err) {
  clear_overwrite(&c->overwrite);
  const cp_table_schema *s = c->table->schema;
  const char *dyn = cp_options_get(&s->options, "dynamic-partition-overwrite");
  overwrite_spec *o = &c->overwrite;
  CP_RETURN_IF_ERROR(parse_spec(c, keys, values, n, false, o, err));
  o->on = true;
  o->dynamic = mode == PAIMON_OVERWRITE_BY_OPTION && s->n_partition_keys > 0 &&
               !(dyn && strcmp(dyn, "false") == 0);
  return PAIMON_OK;
}

/* Commits an OVERWRITE snapshot without new files that replaces what `o` (consumed) selects;
 * the committer's own overwrite setting is kept for later commits. */
static int commit_removal(paimon_commit *c, overwrite_spec *o, paimon_error *err) {
  overwrite_spec saved = c->overwrite;
  c->overwrite = *o;
  c->overwrite.on = true;
  paimon_commit_messages *none = NULL;
  int rc = paimon_commit_messages_new(&none, err);
  if (!rc) rc = paimon_commit_commit(c, none, err);
  paimon_commit_messages_free(none);
  clear_overwrite(&c->overwrite);
  c->overwrite = saved;
  return rc;
}

int paimon_commit_truncate_table(paimon_commit *c, paimon_error *err) {
  overwrite_spec all;
  memset(&all, 0, sizeof all);
  return commit_removal(c, &all, err);
}

int paimon_commit_truncate_partitions(paimon_commit *c, const paimon_partition_spec *specs,
                                      size_t n, paimon_error *err) {
  const cp_table_schema *s = c->table->schema;
  if (n == 0) return paimon_error_set(err, PAIMON_EINVAL, "Partitions list cannot be empty.");
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < specs[i].n; j++) {
      size_t k = 0;
      while (k < s->n_partition_keys && strcmp(s->partition_keys[k], specs[i].keys[j]) != 0) k++;
      if (k == s->n_partition_keys)
        return paimon_error_set(err, PAIMON_EINVAL,
                                "Partition spec key '%s' is not a partition column of table %s.",
                                specs[i].keys[j], c->table->full_name);
    }
  overwrite_spec any;
  memset(&any, 0, sizeof any);
  any.alts = calloc(n, sizeof *any.alts);
  if (!any.alts) return CP_ENOMEM(err, "truncate");
  any.n_alts = n;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++)
    rc = parse_spec(c, specs[i].keys, specs[i].values, specs[i].n, true, &any.alts[i], err);
  if (rc) {
    clear_overwrite(&any);
    return rc;
  }
  return commit_removal(c, &any, err);
}

int64_t paimon_commit_last_snapshot_id(const paimon_commit *c) { return c->last_snapshot_id; }

/* ------------------------------------ one attempt's state ------------------------------------ */

typedef struct attempt {
  paimon_commit *c;
  paimon_table *t;
  cp_arena arena;
  char uuid[37];
  int counter;
  char **written; /* manifest files written by this attempt (deleted if it fails) */
  size_t n_written;
  paimon_error *err;
  int64_t uncertain_id; /* publishing snapshot-<id> failed and its outcome is unknown (0: no) */
  char snapshot_uuid[37];
  cp_de_conflict conflict; /* which data-evolution check an ECONFLICT came from (rebase.h) */
} attempt;

static char *manifest_path(const attempt *a, const char *name) {
  size_t n = strlen(a->t->path) + strlen(name) + 16;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/manifest/%s", a->t->path, name);
  return p;
}

/* Writes bytes as manifest/<prefix><uuid>-<n> (fsynced); returns the name in the arena. */
/* The table's manifest codec and level (sync markers random, as Avro writers do). */
static cp_manifest_write_options manifest_options(const attempt *a) {
  return (cp_manifest_write_options){.codec = a->t->options.manifest_codec,
                                     .level = a->t->options.file_zstd_level};
}

static int write_meta_file(attempt *a, const char *prefix, const cp_buf *bytes, const char **name) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s%s-%d", prefix, a->uuid, a->counter++);
  char *path = manifest_path(a, buf);
  char **w = realloc(a->written, (a->n_written + 1) * sizeof *w);
  if (!path || !w) {
    free(path);
    if (w) a->written = w;
    return CP_ENOMEM(a->err, "manifest");
  }
  a->written = w;
  int rc =
      cp_fs_write_file(a->t->fs, path, bytes->data, bytes->len, CP_CREATE_EXCLUSIVE, true, a->err);
  if (rc) {
    free(path);
    return rc;
  }
  a->written[a->n_written++] = path;
  if (!(*name = cp_arena_strdup(&a->arena, buf))) return CP_ENOMEM(a->err, "manifest");
  return PAIMON_OK;
}

static void attempt_cleanup(attempt *a, bool delete_files) {
  for (size_t i = 0; i < a->n_written; i++) {
    if (delete_files) cp_fs_delete(a->t->fs, a->written[i], NULL);
    free(a->written[i]);
  }
  free(a->written);
  a->written = NULL;
  a->n_written = 0;
  cp_arena_free(&a->arena);
}

/* ------------------------------------ manifest metadata ------------------------------------ */

/* Partition statistics over the entries of one manifest (§4.2: min/max ignore nulls; null counts
 * per key). */
static int partition_stats(attempt *a, const cp_manifest_entry *entries, size_t n,
                           cp_simple_stats *out) {
  const cp_table_schema *s = a->t->schema;
  size_t k = s->n_partition_keys;
  *out = cp_simple_stats_empty();
  if (k == 0) return PAIMON_OK;
  const cp_type **types = cp_arena_alloc(&a->arena, k * sizeof *types);
  cp_datum *min = cp_arena_calloc(&a->arena, k * sizeof *min);
  cp_datum *max = cp_arena_calloc(&a->arena, k * sizeof *max);
  cp_datum *row = cp_arena_alloc(&a->arena, k * sizeof *row);
  int64_t *nulls = cp_arena_calloc(&a->arena, k * sizeof *nulls);
  bool *known = cp_arena_alloc(&a->arena, k);
  if (!types || !min || !max || !row || !nulls || !known) return CP_ENOMEM(a->err, "stats");
  for (size_t i = 0; i < k; i++) {
    types[i] = s->row->fields[cp_table_schema_partition_index(s, i)].type;
    min[i] = max[i] = cp_datum_null();
    known[i] = true;
  }
  for (size_t e = 0; e < n; e++) {
    CP_RETURN_IF_ERROR(cp_binary_row_read(entries[e].partition.data, entries[e].partition.len,
                                          (const cp_type *const *)types, k, row, a->err));
    for (size_t i = 0; i < k; i++) {
      if (row[i].is_null) {
        nulls[i]++;
        continue;
      }
      if (min[i].is_null || cp_datum_compare(types[i], &row[i], &min[i]) < 0) min[i] = row[i];
      if (max[i].is_null || cp_datum_compare(types[i], &row[i], &max[i]) > 0) max[i] = row[i];
    }
  }
  cp_buf b = CP_BUF_INIT;
  int rc = cp_binary_row_write((const cp_type *const *)types, min, k, &b, a->err);
  uint8_t *minb = rc ? NULL : cp_arena_alloc(&a->arena, b.len);
  size_t minlen = b.len;
  if (minb) memcpy(minb, b.data, b.len);
  cp_buf_clear(&b);
  if (!rc) rc = cp_binary_row_write((const cp_type *const *)types, max, k, &b, a->err);
  uint8_t *maxb = rc ? NULL : cp_arena_alloc(&a->arena, b.len);
  if (maxb) memcpy(maxb, b.data, b.len);
  size_t maxlen = b.len;
  cp_buf_free(&b);
  if (rc) return rc;
  if (!minb || !maxb) return CP_ENOMEM(a->err, "stats");
  out->min_values = (cp_bytes){minb, minlen};
  out->max_values = (cp_bytes){maxb, maxlen};
  out->null_counts = nulls;
  out->null_count_known = known;
  out->n_null_counts = k;
  return PAIMON_OK;
}

/* Writes the encoded manifest `bytes` holding `entries` and describes it (§4.2). */
static int write_manifest(attempt *a, const cp_manifest_entry *entries, size_t n,
                          const cp_buf *bytes, cp_manifest_file_meta *meta) {
  memset(meta, 0, sizeof *meta);
  CP_RETURN_IF_ERROR(write_meta_file(a, "manifest-", bytes, &meta->file_name));
  meta->file_size = (int64_t)bytes->len;
  meta->num_added_files = meta->num_deleted_files = 0;
  meta->schema_id = 0;
  meta->has_bucket_range = meta->has_level_range = n > 0;
  meta->has_row_id_range = n > 0;
  for (size_t i = 0; i < n; i++) {
    const cp_manifest_entry *e = &entries[i];
    if (e->kind == CP_FILE_KIND_ADD)
      meta->num_added_files++;
    else
      meta->num_deleted_files++;
    if (e->file.schema_id > meta->schema_id) meta->schema_id = e->file.schema_id;
    if (i == 0 || e->bucket < meta->min_bucket) meta->min_bucket = e->bucket;
    if (i == 0 || e->bucket > meta->max_bucket) meta->max_bucket = e->bucket;
    if (i == 0 || e->file.level < meta->min_level) meta->min_level = e->file.level;
    if (i == 0 || e->file.level > meta->max_level) meta->max_level = e->file.level;
    /* Row-id range only when every entry has one (§4.2). */
    if (!e->file.has_first_row_id)
      meta->has_row_id_range = false;
    else if (meta->has_row_id_range) {
      int64_t lo = e->file.first_row_id, hi = cp_data_file_last_row_id(&e->file);
      if (i == 0 || lo < meta->min_row_id) meta->min_row_id = lo;
      if (i == 0 || hi > meta->max_row_id) meta->max_row_id = hi;
    }
  }
  return partition_stats(a, entries, n, &meta->partition_stats);
}

/* Writes `entries` as manifest files in order, rolling at manifest.target-file-size as Java's
 * rolling manifest writer does (spec/format.md §6.1 step 5, §6.7), and appends their metas to
 * `out`. Java starts a new file once the current one has reached the target, so every file but
 * the last is at least the target; that keeps the minor compaction of §6.7 from merging the same
 * files again on the next commit. The entries are encoded whole first (the usual case, below the
 * target, costs one encoding); over the target, pieces start at the entry count that should fill
 * the target and grow until their encoding reaches it. */
static int write_manifests(attempt *a, const cp_manifest_entry *entries, size_t n,
                           cp_manifest_meta_vec *out) {
  const cp_manifest_write_options opts = manifest_options(a);
  int64_t target = a->t->options.manifest_target_size;
  cp_buf bytes = CP_BUF_INIT;
  int rc = cp_manifest_file_encode(entries, n, &opts, &bytes, a->err);
  bool roll = !rc && n > 1 && target > 0 && (int64_t)bytes.len > target;
  size_t per = roll ? (size_t)((double)n * (double)target / (double)bytes.len * 1.02) + 1 : n;
  if (roll) cp_buf_clear(&bytes);
  for (size_t start = 0, count; !rc && start < n; start += count) {
    count = n - start < per ? n - start : per;
    if (roll) rc = cp_manifest_file_encode(entries + start, count, &opts, &bytes, a->err);
    while (!rc && roll && (int64_t)bytes.len < target && start + count < n) {
      count = n - start < count + count / 8 + 1 ? n - start : count + count / 8 + 1;
      cp_buf_clear(&bytes);
      rc = cp_manifest_file_encode(entries + start, count, &opts, &bytes, a->err);
    }
    cp_manifest_file_meta meta;
    if (!rc) rc = write_manifest(a, entries + start, count, &bytes, &meta);
    if (!rc) rc = cp_manifest_meta_vec_push(out, &meta, a->err);
    cp_buf_clear(&bytes);
  }
  cp_buf_free(&bytes);
  return rc;
}

static int write_manifest_list(attempt *a, const cp_manifest_file_meta *metas, size_t n,
                               const char **name, int64_t *size) {
  const cp_manifest_write_options opts = manifest_options(a);
  cp_buf bytes = CP_BUF_INIT;
  int rc = cp_manifest_list_encode(metas, n, &opts, &bytes, a->err);
  if (!rc) rc = write_meta_file(a, "manifest-list-", &bytes, name);
  *size = (int64_t)bytes.len;
  cp_buf_free(&bytes);
  return rc;
}

/* Merges a group of manifests into new manifest(s) (§6.7 minor compaction). */
static int merge_group(attempt *a, const cp_manifest_file_meta *group, size_t n,
                       cp_manifest_meta_vec *out) {
  cp_entry_vec all = {0}, merged = {0};
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++)
    rc = cp_read_manifest(a->t->fs, a->t->path, group[i].file_name, &a->arena, &all, a->err);
  if (!rc) rc = cp_merge_entries(all.items, all.n, &merged, a->err);
  if (!rc && merged.n) rc = write_manifests(a, merged.items, merged.n, out);
  cp_entry_vec_free(&all);
  cp_entry_vec_free(&merged);
  return rc;
}

/* Java/pypaimon minor compaction of the base list (§6.7). */
static int merge_manifests(attempt *a, const cp_manifest_file_meta *in, size_t n,
                           cp_manifest_meta_vec *out) {
  int64_t target = a->t->options.manifest_target_size, size = 0;
  size_t start = 0;
  for (size_t i = 0; i < n; i++) {
    size += in[i].file_size;
    if (size < target) continue;
    size_t count = i + 1 - start;
    if (count > 1)
      CP_RETURN_IF_ERROR(merge_group(a, in + start, count, out));
    else
      CP_RETURN_IF_ERROR(cp_manifest_meta_vec_push(out, &in[start], a->err));
    start = i + 1;
    size = 0;
  }
  size_t rest = n - start;
  if (rest >= (size_t)a->t->options.manifest_merge_min_count && rest > 1)
    return merge_group(a, in + start, rest, out);
  for (size_t i = start; i < n; i++)
    CP_RETURN_IF_ERROR(cp_manifest_meta_vec_push(out, &in[i], a->err));
  return PAIMON_OK;
}

/* ------------------------------------ row tracking ------------------------------------ */

static bool bytes_eq(cp_bytes x, cp_bytes y) {
  return x.len == y.len && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
}

/* Reorders entries so each partition's entries are adjacent, partitions in first-appearance
 * order and entries in their original order inside a partition (data-evolution.md §1.3; the
 * cross-partition order is free, this is pypaimon's). */
static int group_by_partition(attempt *a, cp_manifest_entry *e, size_t n) {
  cp_manifest_entry *sorted = malloc((n ? n : 1) * sizeof *sorted);
  bool *taken = calloc(n ? n : 1, 1);
  if (!sorted || !taken) {
    free(sorted);
    free(taken);
    return CP_ENOMEM(a->err, "commit");
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (taken[i]) continue;
    for (size_t j = i; j < n; j++)
      if (!taken[j] && bytes_eq(e[j].partition, e[i].partition)) {
        sorted[k++] = e[j];
        taken[j] = true;
      }
  }
  memcpy(e, sorted, n * sizeof *e);
  free(sorted);
  free(taken);
  return PAIMON_OK;
}

/* RowTrackingCommitUtils: sequence stamping (§1.2, Java's three cases) and first_row_id
 * assignment from `start` (§1.3); returns the new nextRowId in *next. */
static int assign_row_tracking(attempt *a, cp_manifest_entry *e, size_t n, int64_t snapshot_id,
                               int64_t start, int64_t *next) {
  for (size_t i = 0; i < n; i++) {
    cp_data_file_meta *f = &e[i].file;
    if (f->min_sequence_number == 0)
      f->min_sequence_number = f->max_sequence_number = snapshot_id;
    else if (f->max_sequence_number == 0)
      f->max_sequence_number = snapshot_id;
  }
  if (a->t->options.partition_group_on_commit) CP_RETURN_IF_ERROR(group_by_partition(a, e, n));
  int64_t blob_default = start, vector_start = start;
  /* Per blob column starts; a commit rarely has more than a few blob columns. */
  const char *blob_cols[16];
  int64_t blob_starts[16];
  size_t n_blob = 0;
  for (size_t i = 0; i < n; i++) {
    cp_data_file_meta *f = &e[i].file;
    if (e[i].kind != CP_FILE_KIND_ADD) continue;
    if (!f->has_file_source)
      return paimon_error_set(a->err, PAIMON_EINVAL,
                              "file source field for row-tracking table must present (file %s)",
                              f->file_name);
    if (f->file_source != CP_FILE_SOURCE_APPEND || f->has_first_row_id ||
        cp_data_file_writes_col(f, CP_ROW_ID_FIELD_NAME))
      continue;
    if (cp_data_file_is_blob(f)) {
      const char *col = f->write_cols.n ? f->write_cols.items[0] : "";
      size_t b = 0;
      while (b < n_blob && strcmp(blob_cols[b], col) != 0) b++;
      int64_t s = b < n_blob ? blob_starts[b] : blob_default;
      if (s >= start)
        return paimon_error_set(a->err, PAIMON_EINVAL,
                                "This is a bug, blobStart %" PRId64
                                " should be less than start %" PRId64
                                " when assigning a blob entry file.",
                                s, start);
      if (b == n_blob) {
        if (n_blob == 16)
          return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "too many blob columns in a commit");
        blob_cols[n_blob++] = col;
      }
      f->first_row_id = s;
      blob_starts[b] = s + f->row_count;
    } else if (cp_data_file_is_vector_store(f)) {
      if (vector_start >= start)
        return paimon_error_set(a->err, PAIMON_EINVAL,
                                "This is a bug, vectorStoreStart %" PRId64
                                " should be less than start %" PRId64
                                " when assigning a vector-store entry file.",
                                vector_start, start);
      f->first_row_id = vector_start;
      vector_start += f->row_count;
    } else {
      f->first_row_id = start;
      blob_default = vector_start = start;
      n_blob = 0;
      start += f->row_count;
    }
    f->has_first_row_id = true;
  }
  *next = start;
  return PAIMON_OK;
}

/* ------------------------------------ conflicts ------------------------------------ */

/* The generic check (§6.4): merging the base with this commit's entries must not fail and must
 * leave no DELETE behind (a file this commit deletes is no longer live). */
static int check_file_conflicts(attempt *a, const cp_snapshot *latest, const cp_entry_vec *delta) {
  cp_entry_vec base = {0}, merged = {0};
  int rc = PAIMON_OK;
  if (latest)
    rc = cp_snapshot_entries(a->t->fs, a->t->path, latest, NULL, false, &a->arena, &base, a->err);
  for (size_t i = 0; i < delta->n && !rc; i++)
    rc = cp_entry_vec_push(&base, &delta->items[i], a->err);
  if (!rc) {
    rc = cp_merge_entries(base.items, base.n, &merged, a->err);
    if (rc == PAIMON_ECORRUPT) rc = a->err ? (a->err->code = PAIMON_ECONFLICT) : PAIMON_ECONFLICT;
  }
  for (size_t i = 0; i < merged.n && !rc; i++)
    if (merged.items[i].kind == CP_FILE_KIND_DELETE)
      rc = paimon_error_set(a->err, PAIMON_ECONFLICT,
                            "File deletion conflicts detected! Give up committing. File %s is no "
                            "longer in the latest snapshot %" PRId64 " of table %s.",
                            merged.items[i].file.file_name, latest ? latest->id : 0,
                            a->t->full_name);
  cp_entry_vec_free(&base);
  cp_entry_vec_free(&merged);
  return rc;
}

/* ------------------------------------ index manifest ------------------------------------ */

/* The new full index state: L's live index files minus deleted ones plus added ones (§7.1). */
static int write_index_manifest(attempt *a, const cp_snapshot *latest,
                                const cp_index_entry_vec *adds, const cp_index_entry_vec *dels,
                                const char **name) {
  cp_index_entry_vec live = {0}, next = {0};
  int rc = PAIMON_OK;
  if (latest)
    rc = cp_snapshot_index_entries(a->t->fs, a->t->path, latest, &a->arena, &live, a->err);
  for (size_t i = 0; i < live.n && !rc; i++) {
    bool deleted = false;
    for (size_t j = 0; j < dels->n && !deleted; j++)
      deleted = strcmp(live.items[i].file_name, dels->items[j].file_name) == 0;
    if (!deleted) rc = cp_index_entry_vec_push(&next, &live.items[i], a->err);
  }
  for (size_t j = 0; j < dels->n && !rc; j++) {
    bool found = false;
    for (size_t i = 0; i < live.n && !found; i++)
      found = strcmp(live.items[i].file_name, dels->items[j].file_name) == 0;
    if (!found)
      rc = paimon_error_set(a->err, PAIMON_ECONFLICT,
                            "Deletion vector index conflict detected: index file %s is not present "
                            "in the latest snapshot.",
                            dels->items[j].file_name);
  }
  for (size_t j = 0; j < adds->n && !rc; j++) {
    cp_index_manifest_entry e = adds->items[j];
    e.kind = CP_FILE_KIND_ADD;
    rc = cp_index_entry_vec_push(&next, &e, a->err);
  }
  if (!rc && next.n) {
    const cp_manifest_write_options opts = manifest_options(a);
    cp_buf bytes = CP_BUF_INIT;
    rc = cp_index_manifest_encode(next.items, next.n, &opts, &bytes, a->err);
    if (!rc) rc = write_meta_file(a, "index-manifest-", &bytes, name);
    cp_buf_free(&bytes);
  } else if (!rc) {
    *name = NULL;
  }
  cp_index_entry_vec_free(&live);
  cp_index_entry_vec_free(&next);
  return rc;
}

/* ------------------------------------ the attempt ------------------------------------ */

typedef struct delta {
  cp_entry_vec files; /* ADD / DELETE entries in message order */
  cp_index_entry_vec index_adds;
  cp_index_entry_vec index_deletes;
  int64_t check_from_snapshot; /* min over messages, -1 when none */
  bool compact;                /* compaction messages: a COMPACT snapshot (compact.h) */
  const paimon_commit_messages *msgs;
} delta;

static int flatten_messages(const paimon_commit_messages *msgs, delta *d, paimon_error *err) {
  d->check_from_snapshot = -1;
  d->msgs = msgs;
  bool other = false;
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    bool changes = m->n_new || m->n_deleted || m->n_index_adds || m->n_index_deletes;
    if (m->compact)
      d->compact = true;
    else if (changes)
      other = true;
    for (int kind = 0; kind < 2; kind++) {
      const cp_data_file_meta *f = kind ? m->deleted_files : m->new_files;
      size_t n = kind ? m->n_deleted : m->n_new;
      for (size_t j = 0; j < n; j++) {
        cp_manifest_entry e = {kind, m->partition, m->bucket, m->total_buckets, f[j]};
        CP_RETURN_IF_ERROR(cp_entry_vec_push(&d->files, &e, err));
      }
    }
    for (size_t j = 0; j < m->n_index_adds; j++)
      CP_RETURN_IF_ERROR(cp_index_entry_vec_push(&d->index_adds, &m->index_adds[j], err));
    for (size_t j = 0; j < m->n_index_deletes; j++)
      CP_RETURN_IF_ERROR(cp_index_entry_vec_push(&d->index_deletes, &m->index_deletes[j], err));
    if (m->check_from_snapshot >= 0 &&
        (d->check_from_snapshot < 0 || m->check_from_snapshot < d->check_from_snapshot))
      d->check_from_snapshot = m->check_from_snapshot;
  }
  if (d->compact && other)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "compaction messages cannot be committed together with other "
                            "changes: commit them separately");
  return PAIMON_OK;
}

static int latest_schema_id(attempt *a, int64_t *out) {
  char *dir = cp_path_join(a->t->path, "schema");
  if (!dir) return CP_ENOMEM(a->err, "path");
  int64_t *ids;
  size_t n;
  int rc = cp_list_versioned(a->t->fs, dir, "schema-", &ids, &n, a->err);
  free(dir);
  if (!rc) *out = n ? ids[n - 1] : a->t->schema->id;
  free(ids);
  return rc;
}

/* The per-partition deltas a REST commit carries (PartitionStatistics: spec, recordCount,
 * fileSizeInBytes, fileCount, lastFileCreationTime, totalBuckets), in first-seen order. */
static int partition_statistics(attempt *a, const cp_manifest_entry *e, size_t n, json_t **out) {
  json_t *list = json_array();
  if (!list) return CP_ENOMEM(a->err, "statistics");
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    cp_buf path = CP_BUF_INIT;
    rc = cp_table_partition_path(a->t, e[i].partition, &path, a->err);
    if (!rc) rc = cp_buf_nul_terminate(&path, a->err);
    json_t *spec = json_object(), *entry = NULL;
    for (char *kv = path.len ? (char *)path.data : NULL; kv && !rc && spec;) {
      char *slash = strchr(kv, '/');
      if (slash) *slash = '\0';
      char *eq = strchr(kv, '=');
      if (eq) {
        *eq = '\0';
        json_object_set_new(spec, kv, json_string(eq + 1));
      }
      kv = slash ? slash + 1 : NULL;
    }
    cp_buf_free(&path);
    if (!spec) rc = CP_ENOMEM(a->err, "statistics");
    size_t j;
    json_t *it;
    json_array_foreach(list, j, it) if (!entry && json_equal(json_object_get(it, "spec"), spec))
        entry = it;
    if (!rc && !entry) {
      entry = json_pack("{s:O, s:I, s:I, s:I, s:I, s:i}", "spec", spec, "recordCount",
                        (json_int_t)0, "fileSizeInBytes", (json_int_t)0, "fileCount", (json_int_t)0,
                        "lastFileCreationTime", (json_int_t)0, "totalBuckets", 1);
      if (!entry || json_array_append_new(list, entry)) rc = CP_ENOMEM(a->err, "statistics");
    }
    if (spec) json_decref(spec);
    if (rc) break;
    int64_t sign = e[i].kind == CP_FILE_KIND_ADD ? 1 : -1;
    static const char *const keys[] = {"recordCount", "fileSizeInBytes", "fileCount"};
    int64_t add[] = {sign * e[i].file.row_count, sign * e[i].file.file_size, sign};
    for (int k = 0; k < 3; k++)
      json_object_set_new(
          entry, keys[k],
          json_integer(json_integer_value(json_object_get(entry, keys[k])) + add[k]));
    if (e[i].file.has_creation_time &&
        e[i].file.creation_time_millis >
            json_integer_value(json_object_get(entry, "lastFileCreationTime")))
      json_object_set_new(entry, "lastFileCreationTime",
                          json_integer(e[i].file.creation_time_millis));
  }
  if (rc) {
    json_decref(list);
    return rc;
  }
  *out = list;
  return PAIMON_OK;
}

/* Publishes through the REST catalog (spec/rest-catalog.md §2.6): the server compares the base
 * snapshot's uuid and creates snapshot-N; a refusal is a lost race (EEXIST), retried from the
 * top like a taken id on a file system. */
static int rest_publish(attempt *a, const cp_snapshot *s, const cp_snapshot *latest,
                        const cp_manifest_entry *entries, size_t n) {
  json_t *stats = NULL;
  CP_RETURN_IF_ERROR(partition_statistics(a, entries, n, &stats));
  bool success = false;
  paimon_table *t = a->t;
  int rc = cp_rest_commit(t->catalog->rest, t->database, t->name, t->rest_id,
                          latest ? latest->uuid : NULL, s, stats, &success, a->err);
  json_decref(stats);
  if (!rc && !success) rc = PAIMON_EEXIST;
  return rc;
}

/* Builds and publishes snapshot L+1. Returns EEXIST when another commit took the id. */
static int try_commit_delta(attempt *a, const delta *d, const cp_snapshot *latest,
                            int64_t *new_id) {
  paimon_table *t = a->t;
  int64_t id = latest ? latest->id + 1 : 1;
  bool overwrite = a->c->overwrite.on || d->index_adds.n || d->index_deletes.n;
  for (size_t i = 0; i < d->files.n; i++)
    if (d->files.items[i].kind == CP_FILE_KIND_DELETE) overwrite = true;
  if (overwrite || d->check_from_snapshot >= 0)
    CP_RETURN_IF_ERROR(check_file_conflicts(a, latest, &d->files));
  /* Bucket numbers, overwrite-from-snapshot and DV index conflicts (format.md §6.4). */
  if (overwrite || d->check_from_snapshot >= 0)
    CP_RETURN_IF_ERROR(cp_dv_check_conflicts(t, latest, &d->files, &d->index_adds,
                                             &d->index_deletes, overwrite, d->check_from_snapshot,
                                             &a->arena, a->err));
  /* Data-evolution checks (data-evolution.md §4.2 items 2, 3, 5), on the unassigned entries. */
  if (overwrite || d->check_from_snapshot >= 0)
    CP_RETURN_IF_ERROR(cp_de_check_conflicts(t, latest, d->files.items, d->files.n,
                                             d->check_from_snapshot, d->compact, &a->conflict,
                                             &a->arena, a->err));

  /* This attempt's own copy of the entries: row ids depend on L. */
  cp_manifest_entry *entries = cp_arena_alloc(&a->arena, (d->files.n + 1) * sizeof *entries);
  if (!entries) return CP_ENOMEM(a->err, "commit");
  if (d->files.n) memcpy(entries, d->files.items, d->files.n * sizeof *entries);
  int64_t next_row_id = latest ? latest->next_row_id : 0;
  const cp_snapshot *as_latest = a->c->as_latest;
  if (as_latest && as_latest->next_row_id > next_row_id) next_row_id = as_latest->next_row_id;
  if (t->options.row_tracking)
    CP_RETURN_IF_ERROR(assign_row_tracking(a, entries, d->files.n, id, next_row_id, &next_row_id));

  cp_snapshot *s;
  CP_RETURN_IF_ERROR(cp_snapshot_new(&s, a->err));
  cp_manifest_meta_vec delta_metas = {0}, base_in = {0}, base_out = {0};
  int rc = PAIMON_OK;
  if (d->files.n) CP_GOTO_IF_ERROR(rc, write_manifests(a, entries, d->files.n, &delta_metas), done);
  const char *delta_list, *base_list, *index_manifest = latest ? latest->index_manifest : NULL;
  if (as_latest) index_manifest = as_latest->index_manifest;
  CP_GOTO_IF_ERROR(rc,
                   write_manifest_list(a, delta_metas.items, delta_metas.n, &delta_list,
                                       &s->delta_manifest_list_size),
                   done);
  if (latest) {
    CP_GOTO_IF_ERROR(rc,
                     cp_read_manifest_list(t->fs, t->path, latest->base_manifest_list, &a->arena,
                                           &base_in, a->err),
                     done);
    CP_GOTO_IF_ERROR(rc,
                     cp_read_manifest_list(t->fs, t->path, latest->delta_manifest_list, &a->arena,
                                           &base_in, a->err),
                     done);
  }
  CP_GOTO_IF_ERROR(rc, merge_manifests(a, base_in.items, base_in.n, &base_out), done);
  CP_GOTO_IF_ERROR(
      rc,
      write_manifest_list(a, base_out.items, base_out.n, &base_list, &s->base_manifest_list_size),
      done);
  if (d->index_adds.n || d->index_deletes.n)
    CP_GOTO_IF_ERROR(
        rc, write_index_manifest(a, latest, &d->index_adds, &d->index_deletes, &index_manifest),
        done);
  {
    /* Everything the snapshot references must be durable before it is published (§6.2). */
    char *dir = cp_path_join(t->path, "manifest");
    rc = dir ? cp_fs_sync_dir(t->fs, dir, a->err) : CP_ENOMEM(a->err, "path");
    free(dir);
    if (rc) goto done;
  }

  char uuid[37];
  CP_GOTO_IF_ERROR(rc, cp_uuid_v4(uuid, a->err), done);
  int64_t delta_rows = 0;
  for (size_t i = 0; i < d->files.n; i++)
    delta_rows += entries[i].kind == CP_FILE_KIND_ADD ? entries[i].file.row_count
                                                      : -entries[i].file.row_count;
  s->uuid = cp_snapshot_strdup(s, uuid);
  s->id = id;
  if (as_latest)
    s->schema_id = as_latest->schema_id;
  else
    CP_GOTO_IF_ERROR(rc, latest_schema_id(a, &s->schema_id), done);
  s->base_manifest_list = cp_snapshot_strdup(s, base_list);
  s->has_base_manifest_list_size = s->has_delta_manifest_list_size = true;
  s->delta_manifest_list = cp_snapshot_strdup(s, delta_list);
  s->index_manifest = cp_snapshot_strdup(s, index_manifest);
  s->commit_user = cp_snapshot_strdup(s, a->c->commit_user);
  s->commit_kind = d->compact               ? CP_COMMIT_COMPACT
                   : overwrite || as_latest ? CP_COMMIT_OVERWRITE
                                            : CP_COMMIT_APPEND;
  s->commit_identifier = a->c->identifier;
  s->time_millis = cp_now_millis();
  s->total_record_count = (latest ? latest->total_record_count : 0) + delta_rows;
  s->delta_record_count = delta_rows;
  s->has_next_row_id = true; /* Java writes it in every snapshot */
  s->next_row_id = next_row_id;
  if (latest && latest->has_watermark) {
    s->has_watermark = true;
    s->watermark = latest->watermark;
  }
  if (!s->uuid || !s->base_manifest_list || !s->delta_manifest_list || !s->commit_user ||
      (index_manifest && !s->index_manifest)) {
    rc = CP_ENOMEM(a->err, "snapshot");
    goto done;
  }
  if (a->c->properties.n)
    CP_GOTO_IF_ERROR(rc, cp_options_copy(&s->properties, &a->c->properties, a->err), done);
  rc = t->rest_commit ? rest_publish(a, s, latest, entries, d->files.n)
                      : cp_snapshot_publish(t->fs, t->path, s, a->err);
  if (rc && rc != PAIMON_EEXIST) {
    /* An error after the rename (e.g. the directory fsync) leaves an uncertain outcome: the
     * commit happened iff snapshot-<id> is ours (Java resolves it the same way). Another
     * commit's snapshot there is a lost race; when even that cannot be read, the attempt keeps
     * its files and the retry loop looks again (format.md §6.1 step 9). */
    cp_snapshot *check = NULL;
    int vrc = cp_snapshot_load(t->fs, t->path, id, &check, NULL);
    if (vrc == 0 && check->uuid && strcmp(check->uuid, uuid) == 0)
      rc = PAIMON_OK;
    else if (vrc == 0)
      rc = PAIMON_EEXIST;
    else if (vrc != PAIMON_ENOTFOUND)
      a->uncertain_id = id;
    memcpy(a->snapshot_uuid, uuid, sizeof uuid);
    cp_snapshot_free(check);
  }
  if (!rc) *new_id = id;
done:
  cp_manifest_meta_vec_free(&delta_metas);
  cp_manifest_meta_vec_free(&base_in);
  cp_manifest_meta_vec_free(&base_out);
  cp_snapshot_free(s);
  return rc;
}

static bool bytes_same(cp_bytes x, cp_bytes y) {
  return x.len == y.len && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
}

/* Whether partition `p` matches the static spec (every partition when the spec is empty). */
static bool in_spec(attempt *a, const overwrite_spec *o, cp_bytes p) {
  const cp_table_schema *s = a->t->schema;
  size_t k = s->n_partition_keys;
  if (o->n_alts) {
    for (size_t i = 0; i < o->n_alts; i++)
      if (in_spec(a, &o->alts[i], p)) return true;
    return false;
  }
  if (o->n == 0) return true;
  const cp_type *types[64];
  cp_datum vals[64];
  if (k > 64) return false;
  for (size_t i = 0; i < k; i++)
    types[i] = s->row->fields[cp_table_schema_partition_index(s, i)].type;
  if (cp_binary_row_read(p.data, p.len, types, k, vals, NULL) != 0) return false;
  for (size_t i = 0; i < o->n; i++) {
    const cp_datum *want = &o->values[i], *got = &vals[o->key[i]];
    if (want->is_null != got->is_null) return false;
    if (!want->is_null && cp_datum_compare(types[o->key[i]], want, got) != 0) return false;
  }
  return true;
}

/* Whether live partition `p` is replaced: dynamically, when new files write to it; else when it
 * matches the static spec (data-evolution.md §4.1, Java FileStoreCommitImpl.overwrite). */
static bool overwritten(attempt *a, const overwrite_spec *o, const delta *d, cp_bytes p) {
  if (!o->dynamic) return in_spec(a, o, p);
  for (size_t i = 0; i < d->files.n; i++)
    if (d->files.items[i].kind == CP_FILE_KIND_ADD && bytes_same(d->files.items[i].partition, p))
      return true;
  return false;
}

/* INSERT OVERWRITE: the delta plus DELETE entries for the replaced live files of L and deletes
 * of the index files (deletion vectors) of the replaced partitions. Computed per attempt, from
 * the latest snapshot, as Java does. */
static int overwrite_delta(attempt *a, const delta *d, const cp_snapshot *latest, delta *out) {
  int rc = PAIMON_OK;
  *out = *d;
  memset(&out->files, 0, sizeof out->files);
  memset(&out->index_deletes, 0, sizeof out->index_deletes);
  for (size_t i = 0; i < d->files.n && !rc; i++)
    rc = cp_entry_vec_push(&out->files, &d->files.items[i], a->err);
  for (size_t i = 0; i < d->index_deletes.n && !rc; i++)
    rc = cp_index_entry_vec_push(&out->index_deletes, &d->index_deletes.items[i], a->err);
  const overwrite_spec *o = &a->c->overwrite;
  for (size_t i = 0; i < d->files.n && !rc && !o->dynamic; i++)
    if (!in_spec(a, o, d->files.items[i].partition))
      rc = paimon_error_set(a->err, PAIMON_EINVAL,
                            "Trying to overwrite a partition of table %s, but the changes in file "
                            "%s do not belong to it.",
                            a->t->full_name, d->files.items[i].file.file_name);
  if (rc || !latest) return rc;
  cp_entry_vec live = {0};
  cp_index_entry_vec idx = {0};
  rc = cp_snapshot_entries(a->t->fs, a->t->path, latest, NULL, false, &a->arena, &live, a->err);
  for (size_t i = 0; i < live.n && !rc; i++) {
    if (!overwritten(a, o, d, live.items[i].partition)) continue;
    cp_manifest_entry e = live.items[i];
    e.kind = CP_FILE_KIND_DELETE;
    rc = cp_entry_vec_push(&out->files, &e, a->err);
  }
  if (!rc) rc = cp_snapshot_index_entries(a->t->fs, a->t->path, latest, &a->arena, &idx, a->err);
  for (size_t i = 0; i < idx.n && !rc; i++)
    if (overwritten(a, o, d, idx.items[i].partition))
      rc = cp_index_entry_vec_push(&out->index_deletes, &idx.items[i], a->err);
  cp_entry_vec_free(&live);
  cp_index_entry_vec_free(&idx);
  return rc;
}

static int try_commit_overwrite(attempt *a, const delta *d, const cp_snapshot *latest,
                                int64_t *new_id) {
  if (!a->c->overwrite.on) return try_commit_delta(a, d, latest, new_id);
  /* As Java: a dynamic overwrite without new files replaces nothing and commits nothing; any
   * other overwrite commits an OVERWRITE snapshot, even one that changes nothing. */
  bool adds = false;
  for (size_t i = 0; i < d->files.n && !adds; i++)
    adds = d->files.items[i].kind == CP_FILE_KIND_ADD;
  if (a->c->overwrite.dynamic && !adds) return PAIMON_OK;
  delta ow;
  int rc = overwrite_delta(a, d, latest, &ow);
  if (!rc) rc = try_commit_delta(a, &ow, latest, new_id);
  cp_entry_vec_free(&ow.files);
  cp_index_entry_vec_free(&ow.index_deletes);
  return rc;
}

/* The attempt against L, with the index entries global-index.column-update-action drops
 * (global_index.h) added to the delta's index deletes. */
static int try_commit_once(attempt *a, const delta *d, const cp_snapshot *latest, int64_t *new_id) {
  cp_index_entry_vec drop = {0};
  int rc = cp_global_index_update_action(a->t, d->msgs, latest, &a->arena, &drop, a->err);
  if (!rc && drop.n) {
    delta with = *d;
    memset(&with.index_deletes, 0, sizeof with.index_deletes);
    for (size_t i = 0; !rc && i < d->index_deletes.n; i++)
      rc = cp_index_entry_vec_push(&with.index_deletes, &d->index_deletes.items[i], a->err);
    for (size_t i = 0; !rc && i < drop.n; i++)
      rc = cp_index_entry_vec_push(&with.index_deletes, &drop.items[i], a->err);
    if (!rc) rc = try_commit_overwrite(a, &with, latest, new_id);
    cp_index_entry_vec_free(&with.index_deletes);
  } else if (!rc) {
    rc = try_commit_overwrite(a, d, latest, new_id);
  }
  cp_index_entry_vec_free(&drop);
  return rc;
}

/* Java's FileStoreCommitImpl.rollbackToAsLatest: the next snapshot holds exactly the target's
 * files — the latest's live files it lacks become DELETE entries, the target's files the latest
 * lacks come back as ADD entries with their own row ids and sequence numbers — with the target's
 * schema id and index manifest, and nextRowId the larger of the two, so no row id is reused. */
static int try_commit_as_latest(attempt *a, const cp_snapshot *latest, int64_t *new_id) {
  const cp_snapshot *target = a->c->as_latest;
  if (!latest)
    return paimon_error_set(a->err, PAIMON_ENOTFOUND,
                            "Latest snapshot is null, can not roll back. (table %s)",
                            a->t->full_name);
  cp_entry_vec now = {0}, then = {0};
  cp_name_set now_keys = {0}, then_keys = {0};
  delta d;
  memset(&d, 0, sizeof d);
  d.check_from_snapshot = -1;
  int rc = cp_snapshot_entries(a->t->fs, a->t->path, latest, NULL, false, &a->arena, &now, a->err);
  if (!rc)
    rc = cp_snapshot_entries(a->t->fs, a->t->path, target, NULL, false, &a->arena, &then, a->err);
  for (int side = 0; !rc && side < 2; side++) {
    const cp_entry_vec *v = side ? &then : &now;
    cp_name_set *keys = side ? &then_keys : &now_keys;
    for (size_t i = 0; !rc && i < v->n; i++) {
      char key[512];
      cp_manifest_entry_key(&v->items[i], key, sizeof key);
      rc = cp_name_set_add(keys, key, v->items[i].file.file_name, a->err);
    }
  }
  for (int side = 0; !rc && side < 2; side++) {
    const cp_entry_vec *v = side ? &then : &now;
    cp_name_set *other = side ? &now_keys : &then_keys;
    for (size_t i = 0; !rc && i < v->n; i++) {
      char key[512];
      cp_manifest_entry_key(&v->items[i], key, sizeof key);
      if (cp_name_set_has(other, key, v->items[i].file.file_name)) continue;
      cp_manifest_entry e = v->items[i];
      e.kind = side ? CP_FILE_KIND_ADD : CP_FILE_KIND_DELETE;
      rc = cp_entry_vec_push(&d.files, &e, a->err);
    }
  }
  if (!rc) rc = try_commit_delta(a, &d, latest, new_id);
  cp_name_set_free(&now_keys);
  cp_name_set_free(&then_keys);
  cp_entry_vec_free(&now);
  cp_entry_vec_free(&then);
  cp_entry_vec_free(&d.files);
  return rc;
}

static void backoff(int attempt_no) {
  /* commit.min-retry-wait 10 ms doubling up to commit.max-retry-wait 10 s, plus jitter. */
  long ms = 10L << (attempt_no < 10 ? attempt_no : 10);
  if (ms > 10000) ms = 10000;
  uint8_t r = 0;
  cp_random_bytes(&r, 1, NULL);
  ms += ms * r / 1280; /* up to 20% */
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* The rebases of one commit (rebase.h): a staged update's files rewritten onto a compaction's
 * groups (replacing entries of the delta), or a compaction's concurrent partial files rewritten
 * onto its output (added to the original delta as compaction messages). */
typedef struct rebases {
  cp_rebase *items;
  size_t n;
  delta cur; /* the delta after the last rebase */
} rebases;

/* Whether a commit that lost to `kind` may be rebased: a staged update that lost to a missing
 * row-id range (pypaimon: an APPEND commit without changelog whose previous outcome is known),
 * or a compaction that lost to an update on the old group boundaries (Spark's compaction). */
static bool rebasable(const paimon_commit *c, const delta *d, cp_de_conflict kind) {
  if (!c->table->options.data_evolution || c->overwrite.on || c->as_latest) return false;
  if (kind == CP_DE_CONFLICT_MISSING)
    return !d->compact && d->index_adds.n == 0 && d->index_deletes.n == 0;
  return kind == CP_DE_CONFLICT_RANGES && d->compact;
}

static bool replaced_by(const cp_rebase *r, const cp_manifest_entry *e) {
  for (size_t i = 0; i < r->n_replaced; i++)
    if (e->kind == CP_FILE_KIND_ADD && cp_manifest_entry_same_file(&r->replaced[i], e)) return true;
  return false;
}

/* Rebases after the conflict now in err: `cur` (the delta as last attempted) for a staged update,
 * `orig` (the compaction as planned) for a compaction. On success rb->cur is the new delta — the
 * base's entries not replaced, then the rebase's ADDs and DELETEs — and *again tells to retry. */
static int try_rebase(paimon_commit *c, const delta *orig, const delta *cur, cp_de_conflict kind,
                      const cp_snapshot *latest, rebases *rb, bool *again, paimon_error *err) {
  *again = false;
  char conflict[PAIMON_ERROR_MESSAGE_SIZE];
  snprintf(conflict, sizeof conflict, "%s", err ? err->message : "");
  const delta *d = kind == CP_DE_CONFLICT_RANGES ? orig : cur;
  cp_rebase r;
  CP_RETURN_IF_ERROR(
      kind == CP_DE_CONFLICT_RANGES
          ? cp_rebase_compaction(c->table, latest, d->files.items, d->files.n, &r, err)
          : cp_rebase_staged(c->table, latest, d->files.items, d->files.n, d->check_from_snapshot,
                             conflict, &r, err));
  if (!r.done) { /* given up: the original conflict stands */
    cp_rebase_free(&r);
    return paimon_error_set(err, PAIMON_ECONFLICT, "%s", conflict);
  }
  cp_rebase *grown = realloc(rb->items, (rb->n + 1) * sizeof *grown);
  if (!grown) {
    cp_commit_messages_discard(c->table, r.msgs, NULL);
    cp_rebase_free(&r);
    return CP_ENOMEM(err, "commit");
  }
  rb->items = grown;
  rb->items[rb->n++] = r;
  delta next = *d;
  memset(&next.files, 0, sizeof next.files);
  if (kind == CP_DE_CONFLICT_MISSING) next.check_from_snapshot = latest->id;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < d->files.n; i++)
    if (!replaced_by(&r, &d->files.items[i]))
      rc = cp_entry_vec_push(&next.files, &d->files.items[i], err);
  for (size_t i = 0; !rc && i < r.msgs->n; i++) {
    const cp_commit_message *m = &r.msgs->items[i];
    for (int k = 0; !rc && k < 2; k++) {
      const cp_data_file_meta *f = k ? m->deleted_files : m->new_files;
      for (size_t j = 0; !rc && j < (k ? m->n_deleted : m->n_new); j++) {
        cp_manifest_entry e = {k ? CP_FILE_KIND_DELETE : CP_FILE_KIND_ADD, m->partition, m->bucket,
                               m->total_buckets, f[j]};
        rc = cp_entry_vec_push(&next.files, &e, err);
      }
    }
  }
  if (rc) {
    cp_entry_vec_free(&next.files);
    return rc;
  }
  if (rb->cur.files.items) cp_entry_vec_free(&rb->cur.files);
  rb->cur = next;
  *again = true;
  return PAIMON_OK;
}

static bool added_in(const delta *d, const cp_manifest_entry *e) {
  for (size_t j = 0; j < d->files.n; j++)
    if (d->files.items[j].kind == CP_FILE_KIND_ADD &&
        cp_manifest_entry_same_file(&d->files.items[j], e))
      return true;
  return false;
}

static void delete_data_file(paimon_commit *c, cp_bytes partition, int32_t bucket,
                             const cp_data_file_meta *f) {
  char *path = NULL;
  if (cp_data_file_path(c->table, partition, bucket, f, &path, NULL) == 0)
    cp_fs_delete(c->table->fs, path, NULL);
  free(path);
}

/* After the loop: on success every file a rebase replaced or wrote that the committed delta does
 * not add (staged files, earlier rewrites) is referenced by nothing and deleted; on failure the
 * rewrites are (unless the outcome of the last attempt is unknown). */
static void finish_rebases(paimon_commit *c, rebases *rb, bool committed, bool unknown) {
  for (size_t k = 0; k < rb->n; k++) {
    cp_rebase *r = &rb->items[k];
    if (committed) {
      for (size_t i = 0; i < r->n_replaced; i++)
        if (!added_in(&rb->cur, &r->replaced[i]))
          delete_data_file(c, r->replaced[i].partition, r->replaced[i].bucket,
                           &r->replaced[i].file);
      for (size_t i = 0; i < r->msgs->n; i++) {
        const cp_commit_message *m = &r->msgs->items[i];
        for (size_t j = 0; j < m->n_new; j++) {
          cp_manifest_entry e = {CP_FILE_KIND_ADD, m->partition, m->bucket, m->total_buckets,
                                 m->new_files[j]};
          if (!added_in(&rb->cur, &e)) delete_data_file(c, m->partition, m->bucket, &e.file);
        }
      }
    } else if (!unknown) {
      cp_commit_messages_discard(c->table, r->msgs, NULL);
    }
    cp_rebase_free(r);
  }
  free(rb->items);
  cp_entry_vec_free(&rb->cur.files);
}

/* Commits `d` (or, with c->as_latest, the difference computed at each attempt), retrying lost
 * races, rebasing staged updates over a concurrent compaction (rebase.h), and resolving attempts
 * whose outcome is unknown. */
static int commit_loop(paimon_commit *c, const delta *d, paimon_error *err) {
  int rc = PAIMON_OK;
  int64_t pending_id = 0; /* an attempt whose outcome is unknown */
  char pending_uuid[37] = "";
  rebases rb;
  memset(&rb, 0, sizeof rb);
  bool unknown = false;
  for (int64_t n = 0; !rc; n++) {
    const delta *cur = rb.n ? &rb.cur : d;
    if (n > c->table->options.commit_max_retries) {
      rc = paimon_error_set(err, PAIMON_ECONFLICT,
                            "Commit to table %s failed after %" PRId64 " retries: other commits "
                            "kept winning the race for the next snapshot id.",
                            c->table->full_name, n - 1);
      break;
    }
    if (pending_id) {
      /* The previous attempt's outcome was unknown: it succeeded iff its snapshot is there. */
      cp_snapshot *check = NULL;
      int vrc = cp_snapshot_load(c->table->fs, c->table->path, pending_id, &check, err);
      bool ours = vrc == 0 && check->uuid && strcmp(check->uuid, pending_uuid) == 0;
      cp_snapshot_free(check);
      if (ours) {
        c->last_snapshot_id = pending_id;
        break;
      }
      if (vrc && vrc != PAIMON_ENOTFOUND) {
        unknown = true;
        rc = paimon_error_prefix(err,
                                 "the outcome of committing snapshot %" PRId64 " to table %s "
                                 "is unknown",
                                 pending_id, c->table->full_name);
        break;
      }
      pending_id = 0;
    }
    attempt a;
    memset(&a, 0, sizeof a);
    a.c = c;
    a.t = c->table;
    a.err = err;
    if ((rc = cp_uuid_v4(a.uuid, err))) break;
    int64_t latest_id = 0, new_id = 0;
    bool exists;
    cp_snapshot *latest = NULL;
    rc = cp_table_latest_snapshot_id(a.t, &latest_id, &exists, err);
    if (!rc && exists) rc = cp_snapshot_load(a.t->fs, a.t->path, latest_id, &latest, err);
    if (!rc)
      rc = c->as_latest ? try_commit_as_latest(&a, latest, &new_id)
                        : try_commit_once(&a, cur, latest, &new_id);
    bool again = false;
    if (rc == PAIMON_ECONFLICT && latest && rebasable(c, cur, a.conflict))
      rc = try_rebase(c, d, cur, a.conflict, latest, &rb, &again, err);
    cp_snapshot_free(latest);
    attempt_cleanup(&a, rc != PAIMON_OK && !a.uncertain_id);
    if (again) continue; /* counts as a retry, as in pypaimon */
    if (rc && a.uncertain_id) {
      pending_id = a.uncertain_id;
      memcpy(pending_uuid, a.snapshot_uuid, sizeof pending_uuid);
      rc = PAIMON_OK;
      backoff((int)n);
      continue;
    }
    if (rc == PAIMON_EEXIST) {
      rc = PAIMON_OK;
      backoff((int)n);
      continue;
    }
    if (!rc) c->last_snapshot_id = new_id;
    break;
  }
  if (rb.n) finish_rebases(c, &rb, rc == PAIMON_OK, unknown || pending_id != 0);
  if (!rc && c->last_snapshot_id > 0) cp_table_expire_after_commit(c->table, c->last_snapshot_id);
  return rc;
}

int paimon_commit_commit(paimon_commit *c, const paimon_commit_messages *msgs, paimon_error *err) {
  delta d;
  memset(&d, 0, sizeof d);
  int rc = cp_commit_messages_check(c->table, msgs, err);
  if (!rc) rc = flatten_messages(msgs, &d, err);
  bool empty = d.files.n == 0 && d.index_adds.n == 0 && d.index_deletes.n == 0;
  if (!rc && (!empty || c->overwrite.on)) rc = commit_loop(c, &d, err);
  cp_entry_vec_free(&d.files);
  cp_index_entry_vec_free(&d.index_adds);
  cp_index_entry_vec_free(&d.index_deletes);
  return rc;
}

int cp_commit_as_latest(paimon_commit *c, const cp_snapshot *target, paimon_error *err) {
  c->as_latest = target;
  delta none;
  memset(&none, 0, sizeof none);
  none.check_from_snapshot = -1;
  int rc = commit_loop(c, &none, err);
  c->as_latest = NULL;
  return rc;
}

/* Looks at the snapshots this committer has not looked at yet, newest first, down to the newest
 * one of its commit user (Java's SnapshotManager.latestSnapshotOfUser): after it, c's
 * has_user_identifier / user_identifier are that snapshot's. Expired snapshots end the search. */
static int scan_user_snapshots(paimon_commit *c, paimon_error *err) {
  int64_t latest_id = 0;
  bool exists = false;
  CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(c->table, &latest_id, &exists, err));
  if (!exists) return PAIMON_OK;
  int64_t stop = c->scanned_to;
  bool found = false;
  for (int64_t id = latest_id; id > stop && !found; id--) {
    cp_snapshot *s = NULL;
    int rc = cp_snapshot_load(c->table->fs, c->table->path, id, &s, err);
    if (rc == PAIMON_ENOTFOUND) {
      paimon_error_clear(err);
      break; /* expired: nothing older is left */
    }
    if (rc)
      return paimon_error_prefix(err, "table %s: looking for the last commit of user %s",
                                 c->table->full_name, c->commit_user);
    if (s->commit_user && strcmp(s->commit_user, c->commit_user) == 0) {
      found = true;
      if (!c->has_user_identifier || s->commit_identifier > c->user_identifier)
        c->user_identifier = s->commit_identifier;
      c->has_user_identifier = true;
    }
    cp_snapshot_free(s);
  }
  if (latest_id > c->scanned_to) c->scanned_to = latest_id;
  return PAIMON_OK;
}

int paimon_commit_latest_identifier(paimon_commit *c, int64_t *out, bool *found,
                                    paimon_error *err) {
  CP_RETURN_IF_ERROR(scan_user_snapshots(c, err));
  *found = c->has_user_identifier;
  *out = c->has_user_identifier ? c->user_identifier : 0;
  return PAIMON_OK;
}

int paimon_commit_commit_identified(paimon_commit *c, const paimon_commit_messages *msgs,
                                    int64_t identifier, bool *committed, paimon_error *err) {
  *committed = false;
  if (identifier < 0 || identifier == CP_BATCH_COMMIT_IDENTIFIER)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "commit identifier %" PRId64 " of table %s: must be in [0, %" PRId64
                            ")",
                            identifier, c->table->full_name, CP_BATCH_COMMIT_IDENTIFIER);
  CP_RETURN_IF_ERROR(scan_user_snapshots(c, err));
  if (c->has_user_identifier && c->user_identifier >= identifier) return PAIMON_OK;
  c->identifier = identifier;
  int64_t before = c->last_snapshot_id;
  int rc = paimon_commit_commit(c, msgs, err);
  c->identifier = CP_BATCH_COMMIT_IDENTIFIER;
  if (!rc && c->last_snapshot_id != before) {
    *committed = true;
    c->has_user_identifier = true;
    c->user_identifier = identifier;
  }
  return rc;
}

int cp_commit_messages_discard(paimon_table *t, const paimon_commit_messages *msgs,
                               paimon_error *err) {
  /* Abort deletes what the messages name: nothing outside the table. */
  CP_RETURN_IF_ERROR(cp_commit_messages_check(t, msgs, err));
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    for (size_t j = 0; j < m->n_new; j++) {
      char *path = NULL;
      CP_RETURN_IF_ERROR(
          cp_data_file_path(t, m->partition, m->bucket, &m->new_files[j], &path, err));
      cp_fs_delete(t->fs, path, NULL); /* already gone is fine */
      free(path);
    }
    /* Deletion-vector index files are new files of this write too (a delete rewrites the
     * bucket's vectors into a fresh file; the old one is in index_deletes and stays). */
    for (size_t j = 0; j < m->n_index_adds; j++) {
      char *path = NULL;
      CP_RETURN_IF_ERROR(cp_index_file_path(t, &m->index_adds[j], &path, err));
      cp_fs_delete(t->fs, path, NULL);
      free(path);
    }
  }
  return PAIMON_OK;
}

int paimon_commit_abort(paimon_commit *c, const paimon_commit_messages *msgs, paimon_error *err) {
  return cp_commit_messages_discard(c->table, msgs, err);
}
