/*
 * Compaction (include/cpaimon/compact.h; spec/maintenance-and-blob.md §1.2–1.5), after Java's
 * DataEvolutionCompactCoordinator.CompactPlanner, DataEvolutionNormalCompactTask and
 * DataEvolutionCompactDeletionVectorRewriter.
 *
 * Planning runs the planner over the live files of the latest snapshot directly (Java's memory
 * light pre-pass only narrows the same choice): the plan's data-evolution splits are the row-id
 * groups; per (partition, bucket), groups whose ranges touch form runs, and each run is cut into
 * bins by weight (Σ max(file size, open-file cost) of a group's normal files):
 *   - a group heavier than target-file-size ends the current bin and is a bin of its own;
 *   - otherwise it joins the bin, and a bin heavier than the target (strictly) is closed;
 *   - a bin becomes a task when it holds at least compaction.min.file-num normal files.
 * Execution reads each task's groups merged (every non-BLOB column, deletion vectors ignored, row
 * id order) into one file of the whole range, streaming batch by batch. Deletion vectors of the
 * groups' anchors are shifted onto the new file (which is its range's only normal file, hence its
 * anchor) and the bucket's DV index file is rewritten in the same commit.
 *
 * Row-tracking tables without data evolution are compacted by compact_append.c instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/compact.h"
#include "expr/expr.h"
#include "expr/predicate.h"
#include "meta/options.h"
#include "table/commit_message.h"
#include "table/blob_input.h"
#include "table/compact_internal.h"
#include "table/dv.h"
#include "table/file_io.h"
#include "table/scan.h"
#include "table/store.h"
#include "table/table.h"
#include "table/update_internal.h"

#define OPT_OPEN_FILE_COST "source.split.open-file-cost"
#define OPT_MIN_FILE_NUM "compaction.min.file-num"
#define OPT_REWRITE_ROW_IDS "data-evolution.compaction.rewrite-row-ids"
#define OPT_BLOB_COMPACTION "blob-compaction.enabled"
#define OPT_SMALL_FILE_RATIO "compaction.small-file-ratio"
#define OPT_DELETE_RATIO "compaction.delete-ratio-threshold"
#define OPT_FILE_NUM_LIMIT "compaction.file-num-limit"

/* The planner's options: the table's, with the call's overrides on top. */
static int read_cfg(paimon_table *t, const paimon_compact_options *o, cp_compact_cfg *cfg,
                    paimon_error *err) {
  cp_options opts = CP_OPTIONS_INIT;
  int rc = cp_options_copy(&opts, &t->schema->options, err);
  for (size_t i = 0; !rc && o && i < o->n_options; i++) {
    if (!o->keys[i] || !o->values[i])
      rc = paimon_error_set(err, PAIMON_EINVAL, "compaction of table %s: option %zu is NULL",
                            t->full_name, i + 1);
    else
      rc = cp_options_set(&opts, o->keys[i], o->values[i], err);
  }
  bool rewrite = false;
  if (!rc)
    rc = cp_options_memory_size(&opts, CP_OPT_TARGET_FILE_SIZE, 256LL << 20, &cfg->target, err);
  if (!rc) rc = cp_options_memory_size(&opts, OPT_OPEN_FILE_COST, 4LL << 20, &cfg->open_cost, err);
  if (!rc) rc = cp_options_int64(&opts, OPT_MIN_FILE_NUM, 5, &cfg->min_files, err);
  bool blobs = false;
  if (!rc) rc = cp_options_bool(&opts, OPT_REWRITE_ROW_IDS, false, &rewrite, err);
  if (!rc) rc = cp_options_bool(&opts, OPT_BLOB_COMPACTION, false, &blobs, err);
  if (!rc && blobs)
    rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "'" OPT_BLOB_COMPACTION "' = 'true' is not supported yet: compaction "
                          "leaves .blob files as they are (Java's default)");
  if (!rc) rc = cp_options_double(&opts, OPT_SMALL_FILE_RATIO, 0.7, &cfg->small_file_ratio, err);
  if (!rc) rc = cp_options_double(&opts, OPT_DELETE_RATIO, 0.2, &cfg->delete_ratio, err);
  if (!rc) rc = cp_options_int64(&opts, OPT_FILE_NUM_LIMIT, 100000, &cfg->file_num_limit, err);
  cp_options_free(&opts);
  if (!rc && rewrite)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "Option '" OPT_REWRITE_ROW_IDS "=true' is no longer supported. Data "
                          "evolution compaction preserves row IDs and logical deletions. Use the "
                          "'materialize_deletion_vectors' procedure to apply deletion vectors to "
                          "the latest table state and assign new row IDs.");
  if (!rc && (cfg->target <= 0 || cfg->min_files < 1 || cfg->file_num_limit < 1))
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "compaction of table %s: target-file-size must be positive and "
                          "compaction.min.file-num and compaction.file-num-limit at least 1",
                          t->full_name);
  if (rc) paimon_error_prefix(err, "compaction of table %s", t->full_name);
  return rc;
}

/* ------------------------------------ planning ------------------------------------ */

/* A row-id group of the plan: one split. */
typedef struct group {
  size_t split;
  size_t bucket_key; /* first-appearance index of its (partition, bucket) */
  int64_t from, to;
  int64_t weight;
  size_t n_normal;
} group;

/* A task: groups [first, first + n) of the sorted group array. */
typedef struct task {
  size_t first, n;
  int64_t n_normal;
} task;

typedef struct planner {
  paimon_table *t;
  const paimon_plan *plan;
  cp_compact_cfg cfg;
  group *groups;
  size_t n_groups;
  task *tasks;
  size_t n_tasks, cap_tasks;
} planner;

static bool dedicated(const cp_data_file_meta *f) {
  return cp_data_file_is_blob(f) || cp_data_file_is_vector_store(f);
}

static bool same_bucket(const cp_split *a, const cp_split *b) {
  return a->bucket == b->bucket && a->partition.len == b->partition.len &&
         (a->partition.len == 0 ||
          memcmp(a->partition.data, b->partition.data, a->partition.len) == 0);
}

static int cmp_group(const void *x, const void *y) {
  const group *a = x, *b = y;
  if (a->bucket_key != b->bucket_key) return a->bucket_key < b->bucket_key ? -1 : 1;
  return a->from < b->from ? -1 : a->from > b->from;
}

/* "Data files [...] should be all row id ranges same." */
static int ranges_differ(planner *p, const cp_split *s, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  cp_buf_append(&b, "[", 1, NULL);
  for (size_t i = 0; i < s->n_files; i++) {
    const cp_data_file_meta *f = &s->files[i].file;
    if (dedicated(f)) continue;
    cp_buf_appendf(&b, NULL, "%s%s [%" PRId64 ", %" PRId64 "]", b.len > 1 ? ", " : "", f->file_name,
                   f->first_row_id, cp_data_file_last_row_id(f));
  }
  cp_buf_append(&b, "]", 1, NULL);
  cp_buf_nul_terminate(&b, NULL);
  int rc = paimon_error_set(err, PAIMON_ECORRUPT,
                            "Data files %s should be all row id ranges same. (table %s)",
                            b.data ? (char *)b.data : "", p->t->full_name);
  cp_buf_free(&b);
  return rc;
}

/* The plan's splits as groups, sorted by (partition and bucket in first-appearance order, range).
 */
static int collect_groups(planner *p, paimon_error *err) {
  const paimon_plan *plan = p->plan;
  p->groups = calloc(plan->n_splits + 1, sizeof *p->groups);
  size_t *keys = calloc(plan->n_splits + 1, sizeof *keys); /* split of each bucket key */
  if (!p->groups || !keys) {
    free(keys);
    return CP_ENOMEM(err, "compaction");
  }
  size_t n_keys = 0;
  int rc = PAIMON_OK;
  for (size_t i = 0; i < plan->n_splits && !rc; i++) {
    const cp_split *s = &plan->splits[i];
    group g = {i, 0, 0, 0, 0, 0};
    bool have = false;
    for (size_t k = 0; k < s->n_files && !rc; k++) {
      const cp_data_file_meta *f = &s->files[k].file;
      if (dedicated(f)) continue;
      if (!f->has_first_row_id) {
        rc = paimon_error_set(err, PAIMON_ECORRUPT,
                              "data file %s of table %s has no first row id; a data-evolution "
                              "table cannot be compacted without it",
                              f->file_name, p->t->full_name);
        break;
      }
      int64_t from = f->first_row_id, to = cp_data_file_last_row_id(f);
      if (have && (from != g.from || to != g.to)) rc = ranges_differ(p, s, err);
      g.from = from;
      g.to = to;
      have = true;
      g.weight += f->file_size > p->cfg.open_cost ? f->file_size : p->cfg.open_cost;
      g.n_normal++;
    }
    if (rc || !have) continue; /* only dedicated files: nothing to rewrite here */
    size_t k = 0;
    while (k < n_keys && !same_bucket(&plan->splits[keys[k]], s)) k++;
    if (k == n_keys) keys[n_keys++] = i;
    g.bucket_key = k;
    p->groups[p->n_groups++] = g;
  }
  free(keys);
  if (!rc) qsort(p->groups, p->n_groups, sizeof *p->groups, cmp_group);
  return rc;
}

static int trigger(planner *p, size_t first, size_t n, paimon_error *err) {
  int64_t normal = 0;
  for (size_t i = first; i < first + n; i++) normal += (int64_t)p->groups[i].n_normal;
  if (n == 0 || normal < p->cfg.min_files) return PAIMON_OK;
  if (p->n_tasks == p->cap_tasks) {
    size_t cap = p->cap_tasks ? p->cap_tasks * 2 : 16;
    task *nt = realloc(p->tasks, cap * sizeof *nt);
    if (!nt) return CP_ENOMEM(err, "compaction");
    p->tasks = nt;
    p->cap_tasks = cap;
  }
  p->tasks[p->n_tasks++] = (task){first, n, normal};
  return PAIMON_OK;
}

/* Java's CompactPlanner over one run of touching groups [first, end). */
static int plan_run(planner *p, size_t first, size_t end, paimon_error *err) {
  size_t bin = first, n = 0;
  int64_t weight = 0;
  for (size_t i = first; i < end; i++) {
    const group *g = &p->groups[i];
    if (g->weight > p->cfg.target) {
      CP_RETURN_IF_ERROR(trigger(p, bin, n, err));
      CP_RETURN_IF_ERROR(trigger(p, i, 1, err));
      bin = i + 1;
      n = 0;
      weight = 0;
      continue;
    }
    n++;
    weight += g->weight;
    if (weight > p->cfg.target) {
      CP_RETURN_IF_ERROR(trigger(p, bin, n, err));
      bin = i + 1;
      n = 0;
      weight = 0;
    }
  }
  return trigger(p, bin, n, err);
}

static int plan_tasks(planner *p, paimon_error *err) {
  CP_RETURN_IF_ERROR(collect_groups(p, err));
  for (size_t s = 0; s < p->n_groups;) {
    size_t e = s + 1;
    while (e < p->n_groups && p->groups[e].bucket_key == p->groups[s].bucket_key &&
           p->groups[e].from == p->groups[e - 1].to + 1)
      e++;
    CP_RETURN_IF_ERROR(plan_run(p, s, e, err));
    s = e;
  }
  return PAIMON_OK;
}

/* ------------------------------------ execution ------------------------------------ */

typedef struct executor {
  paimon_table *t;
  const paimon_plan *plan;
  const group *groups;
  cp_type *row;          /* the columns of a compacted file */
  const char **names;    /* their names */
  bool full;             /* every column of the schema (write_cols null) */
  cp_dv_maintainer *dvs; /* deletion-vectors.enabled */
} executor;

/* The columns a compacted file holds: every column but those in .blob files. */
static int compacted_columns(executor *x, paimon_error *err) {
  const cp_type *row = x->t->schema->row;
  x->names = calloc(row->n_fields + 1, sizeof *x->names);
  if (!x->names) return CP_ENOMEM(err, "compaction");
  size_t n = 0;
  for (size_t i = 0; i < row->n_fields; i++)
    if (!cp_blob_in_files(x->t, &row->fields[i])) x->names[n++] = row->fields[i].name;
  x->full = n == row->n_fields;
  return cp_update_columns_row(x->t, x->names, n, &x->row, err);
}

/* Streams the task's groups, merged, into `w`. */
static int copy_groups(executor *x, const task *k, cp_group_writer *w, paimon_error *err) {
  size_t *splits = malloc((k->n + 1) * sizeof *splits);
  if (!splits) return CP_ENOMEM(err, "compaction");
  for (size_t i = 0; i < k->n; i++) splits[i] = x->groups[k->first + i].split;
  int rc = cp_group_writer_copy(w, x->plan, splits, k->n, x->names, x->row->n_fields, err);
  free(splits);
  return rc;
}

/* Rewrites one task into one file and appends its message. */
static int run_task(executor *x, const task *k, paimon_commit_messages *out,
                    paimon_compact_result *r, paimon_error *err) {
  const group *first = &x->groups[k->first], *last = &x->groups[k->first + k->n - 1];
  const cp_split *s0 = &x->plan->splits[first->split];
  int64_t rows = last->to - first->from + 1;
  cp_data_file_meta *inputs = calloc((size_t)k->n_normal + 1, sizeof *inputs);
  if (!inputs) return CP_ENOMEM(err, "compaction");
  size_t n_in = 0;
  int64_t min_seq = INT64_MAX, max_seq = INT64_MIN;
  for (size_t i = 0; i < k->n; i++) {
    const cp_split *s = &x->plan->splits[x->groups[k->first + i].split];
    for (size_t j = 0; j < s->n_files; j++) {
      const cp_data_file_meta *f = &s->files[j].file;
      if (dedicated(f)) continue;
      inputs[n_in++] = *f;
      if (f->min_sequence_number < min_seq) min_seq = f->min_sequence_number;
      if (f->max_sequence_number > max_seq) max_seq = f->max_sequence_number;
    }
  }
  cp_group_writer w;
  int rc = cp_group_writer_open(&w, x->t, x->row, x->full, s0->partition, s0->bucket, first->from,
                                rows, err);
  if (!rc) rc = copy_groups(x, k, &w, err);
  cp_data_file_meta meta;
  if (!rc)
    rc = cp_group_writer_finish(&w, &out->arena, &meta, err);
  else
    cp_group_writer_abort(&w);
  if (!rc) {
    meta.file_source = CP_FILE_SOURCE_COMPACT;
    meta.min_sequence_number = min_seq;
    meta.max_sequence_number = max_seq;
    rc = cp_commit_messages_add_compaction(x->t, out, s0->partition, s0->bucket,
                                           (int32_t)x->t->options.bucket, &meta, inputs, n_in, err);
  }
  /* The deletions of each old group (its anchor's DV, positions from the group start) now belong
   * to the new file, whose positions start at the task's first row. */
  for (size_t i = 0; !rc && x->dvs && i < k->n; i++) {
    const group *g = &x->groups[k->first + i];
    const cp_split *s = &x->plan->splits[g->split];
    const cp_manifest_entry *anchor = cp_dv_anchor(s->files, s->n_files);
    if (anchor)
      rc = cp_dv_maintainer_move(x->dvs, s->partition, s->bucket, anchor->file.file_name,
                                 meta.file_name, g->from - first->from, err);
  }
  if (!rc && r) {
    r->tasks++;
    r->files_before += (int64_t)n_in;
    r->files_after++;
    r->rows += rows;
  }
  if (rc)
    paimon_error_prefix(err, "compaction of row ids [%" PRId64 ", %" PRId64 "] of table %s",
                        first->from, last->to, x->t->full_name);
  free(inputs);
  return rc;
}

/* ------------------------------------ entry points ------------------------------------ */

static int check_table(paimon_table *t, paimon_error *err) {
  if (!t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "compaction of table %s: only tables with row tracking "
                            "('row-tracking.enabled' = 'true') can be compacted yet",
                            t->full_name);
  const char *ext;
  return cp_table_file_ext(t, &ext, err);
}

/* The partition filter bound for planning; EINVAL (Spark's message) when it reads other columns. */
static int bind_partition_filter(paimon_table *t, const paimon_predicate *p, cp_expr **out,
                                 paimon_error *err) {
  *out = NULL;
  if (!p) return PAIMON_OK;
  cp_type *row = NULL;
  bool only = false;
  int rc = cp_table_filter_row(t, &row, err);
  if (!rc) rc = cp_predicate_bind(p, row, out, err);
  if (rc == PAIMON_ENOTFOUND && err) rc = err->code = PAIMON_EINVAL;
  if (rc) paimon_error_prefix(err, "compaction of table %s: partition filter", t->full_name);
  if (!rc) rc = cp_filter_reads_partitions_only(*out, t->schema, &only, err);
  cp_type_free(row);
  if (!rc && !only) {
    cp_buf pred = CP_BUF_INIT, keys = CP_BUF_INIT;
    cp_expr_append_sql(*out, &pred, NULL);
    for (size_t i = 0; i < t->schema->n_partition_keys; i++)
      cp_buf_appendf(&keys, NULL, "%s%s", i ? ", " : "",
                     t->schema->row->fields[cp_table_schema_partition_index(t->schema, i)].name);
    cp_buf_nul_terminate(&pred, NULL);
    cp_buf_nul_terminate(&keys, NULL);
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "Only partition predicate is supported, your predicate is %s, but "
                          "partition keys are [%s] (table %s)",
                          pred.data ? (char *)pred.data : "?", keys.data ? (char *)keys.data : "",
                          t->full_name);
    cp_buf_free(&pred);
    cp_buf_free(&keys);
  }
  if (rc) {
    cp_expr_free(*out);
    *out = NULL;
  }
  return rc;
}

int paimon_table_compact_prepare(paimon_table *t, const paimon_compact_options *options,
                                 paimon_commit_messages *out, paimon_compact_result *result,
                                 paimon_error *err) {
  if (result) memset(result, 0, sizeof *result);
  CP_RETURN_IF_ERROR(check_table(t, err));
  planner p;
  memset(&p, 0, sizeof p);
  p.t = t;
  CP_RETURN_IF_ERROR(read_cfg(t, options, &p.cfg, err));
  cp_expr *filter = NULL;
  CP_RETURN_IF_ERROR(
      bind_partition_filter(t, options ? options->partition_filter : NULL, &filter, err));
  int64_t id = 0;
  bool exists = false;
  cp_snapshot *snap = NULL;
  paimon_plan *plan = NULL;
  executor x;
  memset(&x, 0, sizeof x);
  paimon_commit_messages *mine = NULL; /* this call's messages, handed to `out` at the end */
  int rc = paimon_commit_messages_new(&mine, err);
  if (!rc) rc = cp_table_latest_snapshot_id(t, &id, &exists, err);
  if (!rc && exists) rc = cp_snapshot_load(t->fs, t->path, id, &snap, err);
  if (!rc && exists) rc = cp_plan_snapshot(t, snap, filter, &plan, err);
  if (!rc && plan && !t->options.data_evolution) {
    rc = cp_compact_append(t, &p.cfg, snap, plan, mine, result, err);
  } else if (!rc && plan) {
    p.plan = plan;
    rc = plan_tasks(&p, err);
  }
  if (!rc && p.n_tasks) {
    x.t = t;
    x.plan = plan;
    x.groups = p.groups;
    rc = compacted_columns(&x, err);
    if (!rc && t->options.deletion_vectors) rc = cp_dv_maintainer_new(&x.dvs, t, snap, err);
  }
  for (size_t i = 0; !rc && i < p.n_tasks; i++) rc = run_task(&x, &p.tasks[i], mine, result, err);
  if (!rc && x.dvs) {
    size_t first_dv = mine->n;
    rc = cp_dv_maintainer_prepare(x.dvs, mine, -1, err);
    for (size_t i = first_dv; !rc && i < mine->n; i++) mine->items[i].compact = true;
  }
  if (!rc) rc = paimon_commit_messages_append(out, mine, err);
  if (rc && mine) cp_commit_messages_discard(t, mine, NULL); /* what this call wrote */
  paimon_commit_messages_free(mine);
  cp_dv_maintainer_free(x.dvs);
  cp_type_free(x.row);
  free(x.names);
  free(p.groups);
  free(p.tasks);
  paimon_plan_free(plan);
  cp_snapshot_free(snap);
  cp_expr_free(filter);
  return rc;
}

int paimon_table_compact(paimon_table *t, const paimon_compact_options *options,
                         paimon_compact_result *result, paimon_error *err) {
  paimon_compact_result local;
  paimon_compact_result *r = result ? result : &local;
  paimon_commit_messages *msgs = NULL;
  paimon_commit *c = NULL;
  CP_RETURN_IF_ERROR(paimon_commit_messages_new(&msgs, err));
  int rc = paimon_table_compact_prepare(t, options, msgs, r, err);
  if (!rc && msgs->n) rc = paimon_commit_new(&c, t, err);
  if (!rc && msgs->n) {
    rc = paimon_commit_commit(c, msgs, err);
    if (rc)
      paimon_commit_abort(c, msgs, NULL);
    else
      r->snapshot_id = paimon_commit_last_snapshot_id(c);
  }
  paimon_commit_free(c);
  paimon_commit_messages_free(msgs);
  return rc;
}
