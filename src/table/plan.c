/*
 * Scan planning (read.h): the live files of a snapshot (spec/format.md §4.8) become splits. On
 * data-evolution tables the files of each (partition, bucket) are grouped by overlapping row-id
 * ranges (adjacent ranges do not merge; spec/data-evolution.md §2.3), each group read merged;
 * groups come out ordered by range start, files inside a group in manifest order. Other tables
 * read each file as its own split, in manifest order. With deletion-vectors.enabled each split
 * gets the DV of its file (or of its group's anchor) from the snapshot's index manifest (dv.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/expr.h"
#include "meta/binary_row.h"
#include "table/dv.h"
#include "table/scan.h"
#include "table/store.h"
#include "types/special_fields.h"

void paimon_plan_free(paimon_plan *p) {
  if (!p) return;
  free(p->splits);
  cp_arena_free(&p->arena);
  free(p);
}

int64_t paimon_plan_snapshot_id(const paimon_plan *p) { return p->snapshot_id; }
size_t paimon_plan_split_count(const paimon_plan *p) { return p->n_splits; }
int64_t paimon_plan_split_row_count(const paimon_plan *p, size_t i) {
  return i < p->n_splits ? p->splits[i].row_count : 0;
}

static int push_split(paimon_plan *p, size_t *cap, const cp_split *s, paimon_error *err) {
  if (p->n_splits == *cap) {
    size_t c = *cap ? *cap * 2 : 16;
    cp_split *n = realloc(p->splits, c * sizeof *n);
    if (!n) return CP_ENOMEM(err, "plan");
    p->splits = n;
    *cap = c;
  }
  p->splits[p->n_splits++] = *s;
  return PAIMON_OK;
}

static bool same_bucket(const cp_manifest_entry *a, const cp_manifest_entry *b) {
  return a->bucket == b->bucket && a->partition.len == b->partition.len &&
         memcmp(a->partition.data, b->partition.data, a->partition.len) == 0;
}

typedef struct ranged {
  int64_t from, to;
  size_t index; /* position in manifest order */
} ranged;

static int cmp_ranged(const void *x, const void *y) {
  const ranged *a = x, *b = y;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  if (a->to != b->to) return a->to < b->to ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_index(const void *x, const void *y) {
  const ranged *a = x, *b = y;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* Groups the files of one (partition, bucket) by overlapping row-id ranges. */
static int plan_de_bucket(paimon_plan *p, size_t *cap, cp_manifest_entry *files, size_t n,
                          paimon_error *err) {
  ranged *r = malloc((n ? n : 1) * sizeof *r);
  if (!r) return CP_ENOMEM(err, "plan");
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    const cp_data_file_meta *f = &files[i].file;
    if (!f->has_first_row_id)
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "First row id of '%s' should not be null.",
                            f->file_name);
    r[i] = (ranged){f->first_row_id, cp_data_file_last_row_id(f), i};
  }
  if (!rc) qsort(r, n, sizeof *r, cmp_ranged);
  for (size_t start = 0; start < n && !rc;) {
    int64_t max_to = r[start].to;
    size_t end = start + 1;
    while (end < n && r[end].from <= max_to) {
      if (r[end].to > max_to) max_to = r[end].to;
      end++;
    }
    qsort(r + start, end - start, sizeof *r, cmp_index);
    cp_manifest_entry *g = cp_arena_alloc(&p->arena, (end - start) * sizeof *g);
    if (!g) {
      rc = CP_ENOMEM(err, "plan");
      break;
    }
    int64_t min_from = r[start].from;
    for (size_t k = start; k < end; k++) {
      g[k - start] = files[r[k].index];
      if (r[k].from < min_from) min_from = r[k].from;
    }
    cp_split s = {g[0].partition,
                  g[0].bucket,
                  g,
                  end - start,
                  end - start > 1,
                  min_from,
                  max_to - min_from + 1,
                  NULL,
                  0,
                  0,
                  0,
                  false,
                  0,
                  0};
    rc = push_split(p, cap, &s, err);
    start = end;
  }
  free(r);
  return rc;
}

static int cmp_bucket_key(const cp_manifest_entry *a, const cp_manifest_entry *b) {
  if (a->bucket != b->bucket) return a->bucket < b->bucket ? -1 : 1;
  if (a->partition.len != b->partition.len) return a->partition.len < b->partition.len ? -1 : 1;
  return a->partition.len ? memcmp(a->partition.data, b->partition.data, a->partition.len) : 0;
}

typedef struct keyed {
  size_t index, first; /* manifest position; first position of its (partition, bucket) */
  const cp_manifest_entry *e;
} keyed;

static int cmp_keyed_bucket(const void *x, const void *y) {
  const keyed *a = x, *b = y;
  int c = cmp_bucket_key(a->e, b->e);
  if (c) return c;
  return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_keyed_first(const void *x, const void *y) {
  const keyed *a = x, *b = y;
  if (a->first != b->first) return a->first < b->first ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The order pypaimon and Java read the files of a table without data evolution in: grouped by
 * (partition, bucket) in order of first appearance, manifest order inside a group. Shards and
 * limits count rows in this order, so it must be theirs. *out is malloc'd (n entries). */
static int bucket_order(const cp_manifest_entry *files, size_t n, size_t **out, paimon_error *err) {
  keyed *k = malloc((n ? n : 1) * sizeof *k);
  *out = malloc((n ? n : 1) * sizeof **out);
  if (!k || !*out) {
    free(k);
    free(*out);
    *out = NULL;
    return CP_ENOMEM(err, "plan");
  }
  for (size_t i = 0; i < n; i++) k[i] = (keyed){i, i, &files[i]};
  qsort(k, n, sizeof *k, cmp_keyed_bucket);
  for (size_t i = 1; i < n; i++)
    if (cmp_bucket_key(k[i - 1].e, k[i].e) == 0) k[i].first = k[i - 1].first;
  qsort(k, n, sizeof *k, cmp_keyed_first);
  for (size_t i = 0; i < n; i++) (*out)[i] = k[i].index;
  free(k);
  return PAIMON_OK;
}

/* ------------------------------------ pruning ------------------------------------ */

int cp_schema_filter_row(paimon_table *t, const cp_table_schema *schema, cp_type **out,
                         paimon_error *err) {
  if (!t->options.row_tracking) return cp_type_copy(out, schema->row, err);
  return cp_row_with_row_tracking(schema->row, false, false, out, err);
}

int cp_table_filter_row(paimon_table *t, cp_type **out, paimon_error *err) {
  return cp_schema_filter_row(t, t->schema, out, err);
}

/* State of the partition and statistics filters during one planning. */
typedef struct prune_ctx {
  paimon_table *t;
  const cp_table_schema *schema; /* the one the filter is bound to */
  const cp_expr *filter;         /* may be NULL when part_filter is set */
  const cp_expr *part_filter;    /* decides partitions when set, else `filter` does */
  size_t n_cols;                 /* columns of the filter row */
  size_t *part_col;              /* partition key i -> filter row column */
  const cp_type **part_types;
  size_t n_part;
  cp_datum *row; /* scratch: one datum per filter row column */
  bool *present;
  const cp_simple_stats *stats; /* the unit being tested (manifest partition stats or a file) */
  cp_datum *mins, *maxs;        /* decoded, indexed by filter row column */
  bool *has_stats;
  int64_t *nulls;
  int64_t row_count;
  int rc; /* first error met in a callback (callbacks cannot return one) */
  paimon_error *err;
} prune_ctx;

static void prune_free(prune_ctx *c) {
  free(c->part_col);
  free(c->part_types);
  free(c->row);
  free(c->present);
  free(c->mins);
  free(c->maxs);
  free(c->has_stats);
  free(c->nulls);
}

static int prune_init(prune_ctx *c, paimon_table *t, const cp_table_schema *s,
                      const cp_expr *filter, const cp_expr *part_filter, paimon_error *err) {
  c->t = t;
  c->schema = s;
  c->filter = filter;
  c->part_filter = part_filter;
  c->err = err;
  c->n_cols = s->row->n_fields + (t->options.row_tracking ? 2 : 0);
  c->n_part = s->n_partition_keys;
  size_t n = c->n_cols + 1, k = c->n_part + 1;
  c->part_col = calloc(k, sizeof *c->part_col);
  c->part_types = calloc(k, sizeof *c->part_types);
  c->row = calloc(n, sizeof *c->row);
  c->present = calloc(n, sizeof *c->present);
  c->mins = calloc(n, sizeof *c->mins);
  c->maxs = calloc(n, sizeof *c->maxs);
  c->has_stats = calloc(n, sizeof *c->has_stats);
  c->nulls = calloc(n, sizeof *c->nulls);
  if (!c->part_col || !c->part_types || !c->row || !c->present || !c->mins || !c->maxs ||
      !c->has_stats || !c->nulls)
    return CP_ENOMEM(err, "plan");
  for (size_t i = 0; i < c->n_part; i++) {
    c->part_col[i] = cp_table_schema_partition_index(s, i);
    c->part_types[i] = s->row->fields[c->part_col[i]].type;
  }
  return PAIMON_OK;
}

/* Statistics of filter-row column `column` from what the current unit set up. */
static int unit_stats(void *ctx, int32_t column, cp_col_stats *out, paimon_error *err) {
  (void)err;
  prune_ctx *c = ctx;
  out->has_min = out->has_max = c->has_stats[column] && !c->mins[column].is_null;
  out->min = c->mins[column];
  out->max = c->maxs[column];
  out->null_count = c->has_stats[column] ? c->nulls[column] : -1;
  out->row_count = c->row_count;
  return PAIMON_OK;
}

static void clear_unit(prune_ctx *c, int64_t row_count) {
  memset(c->has_stats, 0, c->n_cols * sizeof *c->has_stats);
  c->row_count = row_count;
}

static const cp_expr *part_expr(const prune_ctx *c) {
  return c->part_filter ? c->part_filter : c->filter;
}

/* A manifest whose partition statistics cannot match is skipped without reading it. */
static bool prune_manifest(void *ctx, const cp_manifest_file_meta *m) {
  prune_ctx *c = ctx;
  if (c->rc || c->n_part == 0 || m->partition_stats.n_null_counts != c->n_part) return true;
  clear_unit(c, -1);
  const cp_simple_stats *s = &m->partition_stats;
  cp_datum *mins = malloc(c->n_part * sizeof *mins), *maxs = malloc(c->n_part * sizeof *maxs);
  bool ok = mins && maxs &&
            cp_binary_row_read(s->min_values.data, s->min_values.len, c->part_types, c->n_part,
                               mins, NULL) == 0 &&
            cp_binary_row_read(s->max_values.data, s->max_values.len, c->part_types, c->n_part,
                               maxs, NULL) == 0;
  bool match = true;
  if (ok) {
    for (size_t i = 0; i < c->n_part; i++) {
      size_t col = c->part_col[i];
      c->has_stats[col] = true;
      c->mins[col] = mins[i];
      c->maxs[col] = maxs[i];
      c->nulls[col] = s->null_count_known[i] ? s->null_counts[i] : -1;
    }
    if (cp_expr_may_match(part_expr(c), unit_stats, c, &match, NULL) != 0) match = true;
  }
  free(mins);
  free(maxs);
  return match;
}

/* Decodes a file's value statistics into the filter-row columns they cover (by field id through
 * the file's own schema, spec/format.md §5.6). Columns whose type changed are left unknown. */
static bool load_file_stats(prune_ctx *c, const cp_data_file_meta *f) {
  const cp_table_schema *fs;
  if (cp_table_schema_by_id(c->t, f->schema_id, &fs, NULL) != 0) return false;
  const cp_simple_stats *s = &f->value_stats;
  const cp_field **cov = malloc((fs->row->n_fields + 1) * sizeof *cov);
  if (!cov) return false;
  size_t n = 0;
  for (size_t i = 0; i < fs->row->n_fields; i++) {
    const cp_field *ff = &fs->row->fields[i];
    bool in = f->has_value_stats_cols
                  ? cp_strings_contains(f->value_stats_cols, ff->name)
                  : (!f->has_write_cols || cp_data_file_writes_col(f, ff->name));
    if (in) cov[n++] = ff;
  }
  bool ok = n == s->n_null_counts && n > 0;
  const cp_type **types = ok ? malloc(n * sizeof *types) : NULL;
  cp_datum *mins = ok ? malloc(n * sizeof *mins) : NULL,
           *maxs = ok ? malloc(n * sizeof *maxs) : NULL;
  for (size_t i = 0; ok && i < n; i++) types[i] = cov[i]->type;
  ok = ok && types && mins && maxs &&
       cp_binary_row_read(s->min_values.data, s->min_values.len, types, n, mins, NULL) == 0 &&
       cp_binary_row_read(s->max_values.data, s->max_values.len, types, n, maxs, NULL) == 0;
  for (size_t i = 0; ok && i < n; i++) {
    const cp_type *cur = c->schema->row;
    for (size_t col = 0; col < cur->n_fields; col++) {
      if (cur->fields[col].id != cov[i]->id ||
          !cp_type_equals(cur->fields[col].type, cov[i]->type, CP_TYPE_EQ_IGNORE_NULLABILITY))
        continue;
      c->has_stats[col] = true;
      c->mins[col] = mins[i];
      c->maxs[col] = maxs[i];
      c->nulls[col] = s->null_count_known[i] ? s->null_counts[i] : -1;
    }
  }
  /* Row ids and sequence numbers are exact from the metadata unless the file stores them. */
  size_t nf = c->schema->row->n_fields;
  if (c->t->options.row_tracking && f->has_first_row_id &&
      !cp_data_file_writes_col(f, CP_ROW_ID_FIELD_NAME)) {
    c->has_stats[nf] = true;
    c->mins[nf] = cp_datum_int(f->first_row_id);
    c->maxs[nf] = cp_datum_int(cp_data_file_last_row_id(f));
    c->nulls[nf] = 0;
  }
  if (c->t->options.row_tracking && !cp_data_file_writes_col(f, CP_SEQUENCE_NUMBER_FIELD_NAME)) {
    c->has_stats[nf + 1] = true;
    c->mins[nf + 1] = c->maxs[nf + 1] = cp_datum_int(f->max_sequence_number);
    c->nulls[nf + 1] = 0;
  }
  free(cov);
  free(types);
  free(mins);
  free(maxs);
  return true;
}

/* An entry whose partition values cannot match, or (tables without data evolution) whose value
 * statistics cannot match, is dropped from the plan. */
static bool prune_entry(void *ctx, const cp_manifest_entry *e) {
  prune_ctx *c = ctx;
  if (c->rc) return true;
  if (c->n_part) {
    cp_datum vals[64];
    if (c->n_part > 64 || cp_binary_row_read(e->partition.data, e->partition.len, c->part_types,
                                             c->n_part, vals, NULL) != 0)
      return true;
    memset(c->present, 0, c->n_cols * sizeof *c->present);
    for (size_t i = 0; i < c->n_part; i++) {
      c->row[c->part_col[i]] = vals[i];
      c->present[c->part_col[i]] = true;
    }
    cp_truth truth = CP_TRUE;
    if (cp_expr_eval_row(part_expr(c), c->row, c->present, &truth, NULL) == 0 &&
        (truth == CP_FALSE || truth == CP_NULL))
      return false;
  }
  if (!c->filter || c->t->options.data_evolution || e->kind != CP_FILE_KIND_ADD) return true;
  clear_unit(c, e->file.row_count);
  bool match = true;
  load_file_stats(c, &e->file);
  if (cp_expr_may_match(c->filter, unit_stats, c, &match, NULL) != 0) match = true;
  return match;
}

int cp_plan_snapshot(paimon_table *t, const cp_snapshot *snap, const struct cp_expr *filter,
                     paimon_plan **out, paimon_error *err) {
  return cp_plan_snapshot_schema(t, t->schema, snap, filter, out, err);
}

int cp_plan_snapshot_schema(paimon_table *t, const cp_table_schema *schema, const cp_snapshot *snap,
                            const struct cp_expr *filter, paimon_plan **out, paimon_error *err) {
  return cp_plan_snapshot_parts(t, schema, snap, filter, NULL, out, err);
}

int cp_plan_snapshot_parts(paimon_table *t, const cp_table_schema *schema, const cp_snapshot *snap,
                           const struct cp_expr *filter, const struct cp_expr *part_filter,
                           paimon_plan **out, paimon_error *err) {
  paimon_plan *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "plan");
  cp_entry_vec files = {0};
  size_t cap = 0;
  int rc = PAIMON_OK;
  prune_ctx pc;
  memset(&pc, 0, sizeof pc);
  cp_partition_filter pf = {prune_manifest, prune_entry, &pc};
  if (snap) {
    p->snapshot_id = snap->id;
    bool prune = filter || part_filter;
    if (prune) rc = prune_init(&pc, t, schema, filter, part_filter, err);
    if (!rc)
      rc = cp_snapshot_entries(t->fs, t->path, snap, prune ? &pf : NULL, false, &p->arena, &files,
                               err);
    if (!rc && pc.rc) rc = pc.rc;
  }
  if (!rc && t->options.data_evolution) {
    /* Buckets in order of first appearance; files of a bucket keep manifest order. */
    bool *done = calloc(files.n + 1, 1);
    cp_manifest_entry *bucket = malloc((files.n + 1) * sizeof *bucket);
    if (!done || !bucket) rc = CP_ENOMEM(err, "plan");
    for (size_t i = 0; i < files.n && !rc; i++) {
      if (done[i]) continue;
      size_t k = 0;
      for (size_t j = i; j < files.n; j++)
        if (!done[j] && same_bucket(&files.items[i], &files.items[j])) {
          bucket[k++] = files.items[j];
          done[j] = true;
        }
      rc = plan_de_bucket(p, &cap, bucket, k, err);
    }
    free(done);
    free(bucket);
  } else {
    size_t *order = NULL;
    if (!rc) rc = bucket_order(files.items, files.n, &order, err);
    for (size_t k = 0; k < files.n && !rc; k++) {
      cp_manifest_entry *e = cp_arena_alloc(&p->arena, sizeof *e);
      if (!e) {
        rc = CP_ENOMEM(err, "plan");
        break;
      }
      *e = files.items[order[k]];
      cp_split s = {e->partition,
                    e->bucket,
                    e,
                    1,
                    false,
                    e->file.has_first_row_id ? e->file.first_row_id : -1,
                    e->file.row_count,
                    NULL,
                    0,
                    0,
                    0,
                    false,
                    0,
                    0};
      rc = push_split(p, &cap, &s, err);
    }
    free(order);
  }
  cp_entry_vec_free(&files);
  prune_free(&pc);
  if (!rc && snap) rc = cp_dv_attach(t, snap, p, err);
  if (rc) {
    paimon_plan_free(p);
    return rc;
  }
  *out = p;
  return PAIMON_OK;
}
