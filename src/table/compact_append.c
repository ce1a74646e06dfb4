/*
 * Append compaction of row-tracking tables without data evolution (compact_internal.h;
 * spec/maintenance-and-blob.md §1.6), after Java's AppendCompactCoordinator (batch mode, as
 * Spark's CALL sys.compact runs it) and AppendCompactTask.
 *
 * Candidates are the live files smaller than target-file-size × compaction.small-file-ratio and,
 * with deletion vectors, the files whose DV deletes more than row_count ×
 * compaction.delete-ratio-threshold rows (or an unknown number); at most
 * compaction.file-num-limit of them, in plan order. Per partition:
 *   - without DVs, candidates are taken by ascending size into a bin, which becomes a task once it
 *     has two files or more and weighs (Σ file size + open-file cost) at least twice the target;
 *     the last bin only when it holds compaction.min.file-num files;
 *   - with DVs, the files whose DVs share an index file are packed together (those groups by
 *     ascending total size, the last bin always a task: their deletions must be applied), then the
 *     files without a DV as above when there are two or more.
 * A task reads its files with `_ROW_ID` and `_SEQUENCE_NUMBER` (physical values, else first row
 * id + position and the file's max sequence number), drops the rows their DVs delete, and writes
 * rolling files of every column plus both ids physically (file source COMPACT, no first row id):
 * surviving rows keep their ids, deleted rows are gone, nextRowId does not move. The compacted
 * files' DVs are dropped and the partition's DV index rewritten in the same commit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/stream.h"
#include "base/status.h"
#include "table/compact_internal.h"
#include "table/dv.h"
#include "table/rows_writer.h"

typedef struct cand {
  size_t split;
  size_t key;     /* first-appearance index of its (partition, bucket) */
  int64_t size;   /* file size */
  const char *dv; /* the DV index file holding its DV, or NULL */
} cand;

/* A task: entries [first, first + n) of the flat list of split indices. */
typedef struct atask {
  size_t first, n;
} atask;

typedef struct aplanner {
  const cp_compact_cfg *cfg;
  size_t *flat;
  size_t n_flat, cap_flat;
  atask *tasks;
  size_t n_tasks, cap_tasks;
} aplanner;

static int push_split(aplanner *p, size_t split, paimon_error *err) {
  if (p->n_flat == p->cap_flat) {
    size_t cap = p->cap_flat ? p->cap_flat * 2 : 64;
    size_t *f = realloc(p->flat, cap * sizeof *f);
    if (!f) return CP_ENOMEM(err, "compaction");
    p->flat = f;
    p->cap_flat = cap;
  }
  p->flat[p->n_flat++] = split;
  return PAIMON_OK;
}

/* The bin [first, n_flat) becomes a task. */
static int drain(aplanner *p, size_t first, paimon_error *err) {
  if (p->n_tasks == p->cap_tasks) {
    size_t cap = p->cap_tasks ? p->cap_tasks * 2 : 16;
    atask *t = realloc(p->tasks, cap * sizeof *t);
    if (!t) return CP_ENOMEM(err, "compaction");
    p->tasks = t;
    p->cap_tasks = cap;
  }
  p->tasks[p->n_tasks++] = (atask){first, p->n_flat - first};
  return PAIMON_OK;
}

/* FileBin.enoughContent: more than one file and at least twice the target. */
static bool enough_content(const aplanner *p, size_t first, int64_t weight) {
  return p->n_flat - first > 1 && weight >= 2 * p->cfg->target;
}

static int cmp_size(const void *x, const void *y) {
  const cand *a = x, *b = y;
  if (a->size != b->size) return a->size < b->size ? -1 : 1;
  return a->split < b->split ? -1 : a->split > b->split;
}

/* SubCoordinator.pack over `c` (sorted here by size). */
static int pack(aplanner *p, cand *c, size_t n, paimon_error *err) {
  qsort(c, n, sizeof *c, cmp_size);
  size_t first = p->n_flat;
  int64_t weight = 0;
  for (size_t i = 0; i < n; i++) {
    CP_RETURN_IF_ERROR(push_split(p, c[i].split, err));
    weight += c[i].size + p->cfg->open_cost;
    if (enough_content(p, first, weight)) {
      CP_RETURN_IF_ERROR(drain(p, first, err));
      first = p->n_flat;
      weight = 0;
    }
  }
  /* Too few small files are left alone; one file alone has nothing to merge with (Java refuses
   * such a task: "AppendOnlyCompactionTask need more than one file input."). */
  size_t left = p->n_flat - first;
  if (left > 1 && (int64_t)left >= p->cfg->min_files) return drain(p, first, err);
  p->n_flat = first;
  return PAIMON_OK;
}

/* Files grouped by their DV index file, groups by ascending total size. */
typedef struct dv_group {
  const char *dv;
  int64_t size;
  size_t first_cand; /* first-appearance order, for ties */
} dv_group;

static int cmp_group_size(const void *x, const void *y) {
  const dv_group *a = x, *b = y;
  if (a->size != b->size) return a->size < b->size ? -1 : 1;
  return a->first_cand < b->first_cand ? -1 : a->first_cand > b->first_cand;
}

/* SubCoordinator.packInDeletionVectorVMode over the candidates `c` of one partition. */
static int pack_with_dvs(aplanner *p, cand *c, size_t n, paimon_error *err) {
  dv_group *groups = calloc(n + 1, sizeof *groups);
  cand *rest = calloc(n + 1, sizeof *rest);
  int rc = groups && rest ? PAIMON_OK : CP_ENOMEM(err, "compaction");
  size_t n_groups = 0, n_rest = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    if (!c[i].dv) {
      rest[n_rest++] = c[i];
      continue;
    }
    size_t g = 0;
    while (g < n_groups && strcmp(groups[g].dv, c[i].dv) != 0) g++;
    if (g == n_groups) groups[n_groups++] = (dv_group){c[i].dv, 0, i};
    groups[g].size += c[i].size;
  }
  if (!rc) qsort(groups, n_groups, sizeof *groups, cmp_group_size);
  size_t first = p->n_flat;
  int64_t weight = 0;
  for (size_t g = 0; !rc && g < n_groups; g++) {
    for (size_t i = 0; !rc && i < n; i++)
      if (c[i].dv && strcmp(c[i].dv, groups[g].dv) == 0) {
        rc = push_split(p, c[i].split, err);
        weight += c[i].size + p->cfg->open_cost;
      }
    if (!rc && enough_content(p, first, weight)) {
      rc = drain(p, first, err);
      first = p->n_flat;
      weight = 0;
    }
  }
  /* Files with deletion vectors are always compacted. */
  if (!rc && p->n_flat > first) rc = drain(p, first, err);
  if (!rc && n_rest > 1) rc = pack(p, rest, n_rest, err);
  free(groups);
  free(rest);
  return rc;
}

static bool same_bucket(const cp_split *a, const cp_split *b) {
  return a->bucket == b->bucket && a->partition.len == b->partition.len &&
         (a->partition.len == 0 ||
          memcmp(a->partition.data, b->partition.data, a->partition.len) == 0);
}

/* AppendCompactCoordinator.shouldCompact. */
static bool should_compact(const cp_compact_cfg *cfg, const cp_split *s) {
  const cp_data_file_meta *f = &s->files[0].file;
  if (f->file_size < (int64_t)((double)cfg->target * cfg->small_file_ratio)) return true;
  if (!s->dv_path) return false;
  return s->dv_cardinality < 0 ||
         (double)s->dv_cardinality > (double)f->row_count * cfg->delete_ratio;
}

static int plan_tasks(aplanner *p, paimon_table *t, const paimon_plan *plan, paimon_error *err) {
  cand *c = calloc(plan->n_splits + 1, sizeof *c);
  size_t *keys = calloc(plan->n_splits + 1, sizeof *keys); /* split of each key */
  cand *part = calloc(plan->n_splits + 1, sizeof *part);
  int rc = c && keys && part ? PAIMON_OK : CP_ENOMEM(err, "compaction");
  size_t n = 0, n_keys = 0;
  for (size_t i = 0; !rc && i < plan->n_splits && (int64_t)n < p->cfg->file_num_limit; i++) {
    const cp_split *s = &plan->splits[i];
    if (s->n_files != 1 || !should_compact(p->cfg, s)) continue;
    size_t k = 0;
    while (k < n_keys && !same_bucket(&plan->splits[keys[k]], s)) k++;
    if (k == n_keys) keys[n_keys++] = i;
    c[n++] = (cand){i, k, s->files[0].file.file_size, s->dv_path};
  }
  for (size_t k = 0; !rc && k < n_keys; k++) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (c[i].key == k) part[m++] = c[i];
    rc = t->options.deletion_vectors ? pack_with_dvs(p, part, m, err) : pack(p, part, m, err);
  }
  free(c);
  free(keys);
  free(part);
  return rc;
}

/* ------------------------------------ execution ------------------------------------ */

typedef struct aexec {
  paimon_table *t;
  const paimon_plan *plan;
  cp_dv_maintainer *dvs;
} aexec;

static int cmp_index(const void *x, const void *y) {
  size_t a = *(const size_t *)x, b = *(const size_t *)y;
  return a < b ? -1 : a > b;
}

/* Streams the task's files (DVs applied, ids appended) into part 0 of `w`. */
static int copy_files(aexec *x, const size_t *splits, size_t n, cp_rows_writer *w, int64_t *rows,
                      paimon_error *err) {
  paimon_read_builder *rb = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  int rc = paimon_read_builder_new(&rb, x->t, err);
  if (!rc) rc = paimon_read_builder_with_row_tracking(rb, err);
  if (!rc) rc = paimon_plan_read(rb, x->plan, splits, n, &s, err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    if (batch.n_children != (int64_t)w->row->n_fields)
      rc = paimon_error_set(err, PAIMON_EINVAL, "compaction read %" PRId64 " columns, not %zu",
                            batch.n_children, w->row->n_fields);
    if (!rc && batch.length > 0) rc = cp_rows_writer_write(w, 0, &batch, err);
    *rows += batch.length;
    batch.release(&batch);
  }
  if (s.release) s.release(&s);
  paimon_read_builder_free(rb);
  return rc;
}

static int run_task(aexec *x, size_t *splits, size_t n, paimon_commit_messages *out,
                    paimon_compact_result *r, paimon_error *err) {
  /* Rows in the order the files were committed (ascending row ids for appended files). */
  qsort(splits, n, sizeof *splits, cmp_index);
  const cp_split *s0 = &x->plan->splits[splits[0]];
  cp_rows_writer w;
  size_t part = 0;
  int64_t rows = 0;
  int rc = cp_rows_writer_init(&w, x->t, CP_FILE_SOURCE_COMPACT, err);
  if (!rc) rc = cp_rows_writer_part(&w, s0->partition, s0->bucket, &part, err);
  for (size_t i = 0; !rc && i < n; i++)
    rc = cp_rows_writer_add_deleted(&w, part, &x->plan->splits[splits[i]].files[0], err);
  if (!rc) rc = copy_files(x, splits, n, &w, &rows, err);
  /* Once emitted, the files belong to the message (and the caller discards it on failure);
   * before that the writer deletes them. */
  if (!rc) rc = cp_rows_writer_emit(&w, out, true, err);
  int64_t written = rc ? 0 : (int64_t)w.parts[part].n_done;
  cp_rows_writer_free(&w, rc == PAIMON_OK);
  for (size_t i = 0; !rc && x->dvs && i < n; i++) {
    const cp_split *s = &x->plan->splits[splits[i]];
    if (s->dv_path)
      rc = cp_dv_maintainer_move(x->dvs, s->partition, s->bucket, s->files[0].file.file_name, NULL,
                                 0, err);
  }
  if (!rc && r) {
    r->tasks++;
    r->files_before += (int64_t)n;
    r->files_after += written;
    r->rows += rows;
  }
  if (rc)
    paimon_error_prefix(err, "compaction of %zu files from %s of table %s", n,
                        s0->files[0].file.file_name, x->t->full_name);
  return rc;
}

int cp_compact_append(paimon_table *t, const cp_compact_cfg *cfg, const cp_snapshot *snap,
                      const paimon_plan *plan, paimon_commit_messages *out,
                      paimon_compact_result *result, paimon_error *err) {
  aplanner p;
  memset(&p, 0, sizeof p);
  p.cfg = cfg;
  aexec x = {t, plan, NULL};
  int rc = plan_tasks(&p, t, plan, err);
  if (!rc && p.n_tasks && t->options.deletion_vectors)
    rc = cp_dv_maintainer_new(&x.dvs, t, snap, err);
  for (size_t i = 0; !rc && i < p.n_tasks; i++)
    rc = run_task(&x, &p.flat[p.tasks[i].first], p.tasks[i].n, out, result, err);
  if (!rc && x.dvs) {
    size_t first_dv = out->n;
    rc = cp_dv_maintainer_prepare(x.dvs, out, -1, err);
    for (size_t i = first_dv; !rc && i < out->n; i++) out->items[i].compact = true;
  }
  cp_dv_maintainer_free(x.dvs);
  free(p.flat);
  free(p.tasks);
  return rc;
}
