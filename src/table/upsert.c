/*
 * Upsert by key (include/cpaimon/update.h; spec/data-evolution.md §3.4, pypaimon
 * write/table_upsert_by_key.py): per partition of the input (first-appearance order), input rows
 * are deduplicated on the match keys (the upsert keys minus partition keys; last occurrence wins),
 * the table's rows of that partition are matched against them, matched rows get the update
 * columns through the §3.2 funnel (every existing row with the key: fan-out), and the others are
 * appended as new rows with the columns the input has.
 *
 * Memory: the INPUT is hashed, and the table's key columns plus `_ROW_ID` are streamed past it
 * batch by batch, so what is held is the input, its hash table and the matched (row id, input
 * row) pairs — never the table's keys (pypaimon builds a key → row ids map of the partition).
 * Key equality is Python's tuple equality as pypaimon uses it: NULL equals NULL.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/write.h"
#include "meta/binary_row.h"
#include "table/update_internal.h"
#include "types/datum_arrow.h"
#include "types/special_fields.h"

/* Python's repr of a list of names: ['a', 'b']. */
static void py_list(cp_buf *out, const char *const *names, size_t n) {
  cp_buf_append(out, "[", 1, NULL);
  for (size_t i = 0; i < n; i++) cp_buf_appendf(out, NULL, "%s'%s'", i ? ", " : "", names[i]);
  cp_buf_append(out, "]", 1, NULL);
  cp_buf_nul_terminate(out, NULL);
}

static int name_list_error(paimon_error *err, const char *fmt_before, const char *name,
                           const char *const *names, size_t n) {
  cp_buf b = CP_BUF_INIT;
  py_list(&b, names, n);
  int rc = paimon_error_set(err, PAIMON_EINVAL, fmt_before, name, b.data ? (char *)b.data : "[]");
  cp_buf_free(&b);
  return rc;
}

static bool is_partition_key(const cp_table_schema *s, const char *name) {
  for (size_t i = 0; i < s->n_partition_keys; i++)
    if (strcmp(s->partition_keys[i], name) == 0) return true;
  return false;
}

/* pypaimon's _validate_inputs, in its order. */
static int validate(paimon_update *u, const cp_array_view *in, const char *const *keys, size_t nk,
                    paimon_error *err) {
  const cp_table_schema *s = u->t->schema;
  CP_RETURN_IF_ERROR(cp_update_require_de(u->t, "upsert_by_arrow_with_key", err));
  if (nk == 0) return paimon_error_set(err, PAIMON_EINVAL, "upsert_keys must not be empty.");
  size_t nf = s->row->n_fields, ni = (size_t)in->n_children;
  const char **fields = malloc((nf + 1) * sizeof *fields);
  const char **cols = malloc((ni + 1) * sizeof *cols);
  int rc = (fields && cols) ? PAIMON_OK : CP_ENOMEM(err, "upsert");
  for (size_t i = 0; !rc && i < nf; i++) fields[i] = s->row->fields[i].name;
  for (size_t i = 0; !rc && i < ni; i++) cols[i] = in->children[i].name;
  for (size_t k = 0; !rc && k < nk; k++) {
    if (!cp_row_find_field(s->row, keys[k]))
      rc = name_list_error(err, "upsert_key '%s' is not in table schema fields: %s", keys[k],
                           fields, nf);
    else if (cp_view_child_index(in, keys[k]) < 0)
      rc = name_list_error(err, "upsert_key '%s' is not in input data columns: %s", keys[k], cols,
                           ni);
  }
  const char **missing = rc ? NULL : malloc((s->n_partition_keys + 1) * sizeof *missing);
  size_t nm = 0;
  for (size_t i = 0; missing && i < s->n_partition_keys; i++)
    if (cp_view_child_index(in, s->partition_keys[i]) < 0) missing[nm++] = s->partition_keys[i];
  if (!rc && nm) {
    cp_buf b = CP_BUF_INIT;
    py_list(&b, missing, nm);
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "For partitioned tables, input data must contain all partition key "
                          "columns. Missing: %s",
                          b.data ? (char *)b.data : "[]");
    cp_buf_free(&b);
  }
  if (!rc && in->length == 0) rc = paimon_error_set(err, PAIMON_EINVAL, "Input data is empty.");
  free(fields);
  free(cols);
  free(missing);
  return rc;
}

/* ------------------------------------ hashing rows ------------------------------------ */

/* An open-addressing set of input rows keyed by their key columns. */
typedef struct row_table {
  int64_t *slots; /* input row + 1, 0 = empty */
  uint64_t *hashes;
  size_t mask;
} row_table;

static int row_table_init(row_table *h, int64_t n, paimon_error *err) {
  size_t cap = 16;
  while (cap < (size_t)n * 2) cap <<= 1;
  h->slots = calloc(cap, sizeof *h->slots);
  h->hashes = calloc(cap, sizeof *h->hashes);
  h->mask = cap - 1;
  return h->slots && h->hashes ? PAIMON_OK : CP_ENOMEM(err, "upsert");
}

static void row_table_free(row_table *h) {
  free(h->slots);
  free(h->hashes);
}

static bool keys_equal(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j,
                       size_t nk) {
  for (size_t k = 0; k < nk; k++)
    if (!cp_rows_equal(&a[k], i, &b[k], j)) return false;
  return true;
}

/* The slot of the row equal to row j of `probe` (hash `hv`), or of the empty slot where it goes. */
static size_t row_table_find(const row_table *h, const cp_array_view *keys, size_t nk,
                             const cp_array_view *probe, int64_t j, uint64_t hv) {
  size_t i = (size_t)hv & h->mask;
  while (h->slots[i] && !(h->hashes[i] == hv && keys_equal(keys, h->slots[i] - 1, probe, j, nk)))
    i = (i + 1) & h->mask;
  return i;
}

/* ------------------------------------ one partition ------------------------------------ */

typedef struct upsert_ctx {
  paimon_update *u;
  const cp_array_view *in; /* the input batch */
  cp_array_view *keys;     /* the input's match-key columns, table types */
  size_t nk;
  const char **key_names;
  paimon_commit_messages *msgs;
} upsert_ctx;

typedef struct pair_vec {
  int64_t *row_ids, *inputs;
  int64_t n, cap;
} pair_vec;

static int pair_push(pair_vec *p, int64_t row_id, int64_t input, paimon_error *err) {
  if (p->n == p->cap) {
    int64_t c = p->cap ? p->cap * 2 : 64;
    int64_t *a = realloc(p->row_ids, (size_t)c * sizeof *a);
    if (a) p->row_ids = a;
    int64_t *b = realloc(p->inputs, (size_t)c * sizeof *b);
    if (b) p->inputs = b;
    if (!a || !b) return CP_ENOMEM(err, "upsert");
    p->cap = c;
  }
  p->row_ids[p->n] = row_id;
  p->inputs[p->n++] = input;
  return PAIMON_OK;
}

/* Streams the match keys + _ROW_ID of the partition's splits past the input hash table. */
static int match_partition(upsert_ctx *c, cp_bytes partition, const row_table *h, pair_vec *pairs,
                           bool *matched, paimon_error *err) {
  paimon_update *u = c->u;
  size_t *splits = malloc((u->plan->n_splits + 1) * sizeof *splits), ns = 0;
  const char **cols = malloc((c->nk + 2) * sizeof *cols);
  if (!splits || !cols) {
    free(splits);
    free(cols);
    return CP_ENOMEM(err, "upsert");
  }
  for (size_t i = 0; i < u->plan->n_splits; i++) {
    const cp_split *s = &u->plan->splits[i];
    if (s->partition.len == partition.len &&
        memcmp(s->partition.data, partition.data, partition.len) == 0)
      splits[ns++] = i;
  }
  for (size_t k = 0; k < c->nk; k++) cols[k] = c->key_names[k];
  cols[c->nk] = CP_ROW_ID_FIELD_NAME;
  paimon_read_builder *rb = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  uint64_t *hv = NULL;
  int rc = ns ? paimon_read_builder_new(&rb, u->t, err) : PAIMON_OK;
  if (ns && !rc) rc = paimon_read_builder_set_projection(rb, cols, c->nk + 1, err);
  if (ns && !rc) rc = paimon_plan_read(rb, u->plan, splits, ns, &s, err);
  if (ns && !rc) rc = cp_stream_get_schema(&s, &schema, err);
  while (ns && !rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &schema, &batch, err);
    uint64_t *grown = rc ? NULL : realloc(hv, (size_t)(v.length + 1) * sizeof *hv);
    if (!rc && !grown) rc = CP_ENOMEM(err, "upsert");
    if (grown) hv = grown;
    if (!rc && c->nk) rc = cp_hash_rows(v.children, (int64_t)c->nk, hv, err);
    for (int64_t j = 0; !rc && j < v.length; j++) {
      uint64_t hj = c->nk ? hv[j] : 0;
      size_t slot = row_table_find(h, c->keys, c->nk, v.children, j, hj);
      if (!h->slots[slot]) continue;
      int64_t input = h->slots[slot] - 1;
      matched[input] = true;
      rc = pair_push(pairs, cp_view_get_int64(&v.children[c->nk], j), input, err);
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  cp_stream_release(&s);
  paimon_read_builder_free(rb);
  free(hv);
  free(splits);
  free(cols);
  return rc;
}

/* The matched updates of one partition through the funnel. */
static int update_matched(upsert_ctx *c, pair_vec *pairs, paimon_error *err) {
  paimon_update *u = c->u;
  const cp_type *row = u->t->schema->row;
  size_t n = u->update_cols ? u->n_update_cols : row->n_fields;
  const char **names = malloc((n + 1) * sizeof *names);
  if (!names) return CP_ENOMEM(err, "upsert");
  for (size_t i = 0; i < n; i++)
    names[i] = u->update_cols ? u->update_cols[i] : row->fields[i].name;
  cp_update_rows r;
  memset(&r, 0, sizeof r);
  cp_type *urow = NULL;
  r.n = pairs->n;
  r.row_ids = pairs->row_ids;
  r.order = pairs->inputs;
  pairs->row_ids = pairs->inputs = NULL; /* moved into r */
  int rc = cp_update_rows_sort(&r, err);
  if (!rc) rc = cp_update_rows_load(u, c->in, names, n, &r, &urow, err);
  if (!rc) rc = cp_update_apply(u, &r, c->msgs, err);
  cp_update_rows_free(&r);
  cp_type_free(urow);
  free(names);
  return rc;
}

/* Appends input rows `rows` with the input's table columns (table order). */
static int append_new(upsert_ctx *c, const int64_t *rows, int64_t n, paimon_error *err) {
  const cp_type *trow = c->u->t->schema->row;
  const char **cols = malloc((trow->n_fields + 1) * sizeof *cols);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  struct ArrowArray batch;
  memset(&batch, 0, sizeof batch);
  size_t nc = 0;
  int rc = cols ? PAIMON_OK : CP_ENOMEM(err, "upsert");
  for (size_t i = 0; !rc && i < trow->n_fields; i++)
    if (cp_view_child_index(c->in, trow->fields[i].name) >= 0) cols[nc++] = trow->fields[i].name;
  if (!rc) rc = cp_schema_init(&schema, "+s", "", 0, (int64_t)nc, err);
  if (!rc) rc = cp_array_init(&batch, 1, (int64_t)nc, err);
  for (size_t i = 0; !rc && i < nc; i++) {
    const cp_array_view *v = &c->in->children[cp_view_child_index(c->in, cols[i])];
    rc = cp_schema_copy(schema.children[i], v->schema, err);
    if (!rc) rc = cp_take(v, rows, n, batch.children[i], err);
  }
  if (!rc) {
    batch.length = n;
    batch.null_count = 0;
  }
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  if (!rc) rc = paimon_write_new(&w, c->u->t, cols, nc, err);
  if (!rc) rc = paimon_write_batch(w, &schema, &batch, err);
  if (!rc) rc = paimon_write_prepare_commit(w, &m, err);
  if (!rc) rc = paimon_commit_messages_append(c->msgs, m, err);
  paimon_commit_messages_free(m);
  paimon_write_free(w);
  if (schema.release) schema.release(&schema);
  cp_array_release(&batch);
  free(cols);
  return rc;
}

/* Dedups the partition's rows on the keys (last wins, order kept) into a hash table. */
static int dedup(upsert_ctx *c, const int64_t *rows, int64_t n, const uint64_t *hashes,
                 row_table *h, int64_t **kept, int64_t *n_kept, paimon_error *err) {
  CP_RETURN_IF_ERROR(row_table_init(h, n, err));
  for (int64_t i = 0; i < n; i++) {
    int64_t r = rows[i];
    uint64_t hr = c->nk ? hashes[r] : 0;
    size_t slot = row_table_find(h, c->keys, c->nk, c->keys, r, hr);
    h->slots[slot] = r + 1; /* a later duplicate replaces the earlier one */
    h->hashes[slot] = hr;
  }
  *kept = malloc((size_t)(n + 1) * sizeof **kept);
  if (!*kept) return CP_ENOMEM(err, "upsert");
  *n_kept = 0;
  for (int64_t i = 0; i < n; i++) {
    uint64_t hr = c->nk ? hashes[rows[i]] : 0;
    if (h->slots[row_table_find(h, c->keys, c->nk, c->keys, rows[i], hr)] == rows[i] + 1)
      (*kept)[(*n_kept)++] = rows[i];
  }
  return PAIMON_OK;
}

static int upsert_partition(upsert_ctx *c, cp_bytes partition, const int64_t *rows, int64_t n,
                            const uint64_t *hashes, paimon_error *err) {
  row_table h;
  memset(&h, 0, sizeof h);
  int64_t *kept = NULL, n_kept = 0, n_new = 0;
  pair_vec pairs;
  memset(&pairs, 0, sizeof pairs);
  bool *matched = calloc((size_t)c->in->length + 1, sizeof *matched);
  int rc = matched ? dedup(c, rows, n, hashes, &h, &kept, &n_kept, err) : CP_ENOMEM(err, "upsert");
  if (!rc) rc = match_partition(c, partition, &h, &pairs, matched, err);
  if (!rc && pairs.n) rc = update_matched(c, &pairs, err);
  for (int64_t i = 0; !rc && i < n_kept; i++)
    if (!matched[kept[i]]) kept[n_new++] = kept[i];
  if (!rc && n_new) rc = append_new(c, kept, n_new, err);
  row_table_free(&h);
  free(kept);
  free(pairs.row_ids);
  free(pairs.inputs);
  free(matched);
  return rc;
}

/* ------------------------------------ partitions of the input ------------------------------- */

/* The serialized partition row of each input row and the partitions in first-appearance order. */
static int split_partitions(upsert_ctx *c, cp_buf *parts, size_t **offsets, int64_t **group_of,
                            int64_t *n_groups, int64_t **first_row, paimon_error *err) {
  const cp_table_schema *s = c->u->t->schema;
  size_t np = s->n_partition_keys;
  int64_t n = c->in->length;
  *offsets = malloc((size_t)(n + 1) * sizeof **offsets);
  *group_of = malloc((size_t)(n + 1) * sizeof **group_of);
  *first_row = malloc((size_t)(n + 1) * sizeof **first_row);
  struct ArrowSchema *ps = calloc(np + 1, sizeof *ps);
  struct ArrowArray *pa = calloc(np + 1, sizeof *pa);
  cp_array_view *pv = calloc(np + 1, sizeof *pv);
  const cp_type **types = calloc(np + 1, sizeof *types);
  cp_datum *vals = calloc(np + 1, sizeof *vals);
  int rc = (*offsets && *group_of && *first_row && ps && pa && pv && types && vals)
               ? PAIMON_OK
               : CP_ENOMEM(err, "upsert");
  for (size_t k = 0; !rc && k < np; k++) {
    const cp_field *f = &s->row->fields[cp_table_schema_partition_index(s, k)];
    types[k] = f->type;
    rc = cp_update_convert_column(&c->in->children[cp_view_child_index(c->in, f->name)], f, &ps[k],
                                  &pa[k], err);
    if (!rc) rc = cp_array_view_init(&pv[k], &ps[k], &pa[k], err);
  }
  *n_groups = 0;
  for (int64_t r = 0; !rc && r < n; r++) {
    size_t start = parts->len;
    for (size_t k = 0; !rc && k < np; k++)
      rc = cp_datum_from_view(types[k], &pv[k], r, &vals[k], err);
    if (!rc && np) rc = cp_binary_row_write(types, vals, np, parts, err);
    if (!rc && !np) rc = cp_buf_append(parts, cp_binary_row_empty, 12, err);
    if (rc) break;
    (*offsets)[r] = start;
    int64_t g = 0;
    for (; g < *n_groups; g++) {
      int64_t f = (*first_row)[g];
      size_t flen = (*offsets)[f + 1] - (*offsets)[f]; /* f < r: set already */
      if (flen == parts->len - start &&
          memcmp(parts->data + (*offsets)[f], parts->data + start, flen) == 0)
        break;
    }
    if (g == *n_groups) (*first_row)[(*n_groups)++] = r;
    (*group_of)[r] = g;
  }
  if (!rc) (*offsets)[n] = parts->len;
  for (size_t k = 0; k < np; k++) {
    cp_array_view_reset(&pv[k]);
    cp_array_release(&pa[k]);
    if (ps[k].release) ps[k].release(&ps[k]);
  }
  free(ps);
  free(pa);
  free(pv);
  free(types);
  free(vals);
  return rc;
}

static int load_keys(upsert_ctx *c, const char *const *keys, size_t nk, struct ArrowSchema *ks,
                     struct ArrowArray *ka, paimon_error *err) {
  const cp_table_schema *s = c->u->t->schema;
  for (size_t k = 0; k < nk; k++) {
    if (is_partition_key(s, keys[k])) continue;
    const cp_field *f = cp_row_find_field(s->row, keys[k]);
    size_t i = c->nk;
    CP_RETURN_IF_ERROR(cp_update_convert_column(
        &c->in->children[cp_view_child_index(c->in, keys[k])], f, &ks[i], &ka[i], err));
    c->key_names[i] = keys[k];
    c->nk++;
    CP_RETURN_IF_ERROR(cp_array_view_init(&c->keys[i], &ks[i], &ka[i], err));
  }
  return PAIMON_OK;
}

static int upsert(upsert_ctx *c, const char *const *keys, size_t nk, paimon_error *err) {
  int64_t n = c->in->length;
  struct ArrowSchema *ks = calloc(nk + 1, sizeof *ks);
  struct ArrowArray *ka = calloc(nk + 1, sizeof *ka);
  c->keys = calloc(nk + 1, sizeof *c->keys);
  c->key_names = calloc(nk + 1, sizeof *c->key_names);
  uint64_t *hashes = malloc((size_t)(n + 1) * sizeof *hashes);
  int64_t *rows = malloc((size_t)(n + 1) * sizeof *rows);
  cp_buf parts = CP_BUF_INIT;
  size_t *offsets = NULL;
  int64_t *group_of = NULL, *first_row = NULL, n_groups = 0;
  int rc = (ks && ka && c->keys && c->key_names && hashes && rows) ? PAIMON_OK
                                                                   : CP_ENOMEM(err, "upsert");
  if (!rc) rc = load_keys(c, keys, nk, ks, ka, err);
  if (!rc && c->nk) rc = cp_hash_rows(c->keys, (int64_t)c->nk, hashes, err);
  if (!rc) rc = split_partitions(c, &parts, &offsets, &group_of, &n_groups, &first_row, err);
  for (int64_t g = 0; !rc && g < n_groups; g++) {
    int64_t m = 0;
    for (int64_t r = 0; r < n; r++)
      if (group_of[r] == g) rows[m++] = r;
    int64_t f = first_row[g];
    cp_bytes partition = {parts.data + offsets[f], offsets[f + 1] - offsets[f]};
    rc = upsert_partition(c, partition, rows, m, hashes, err);
  }
  for (size_t k = 0; k < c->nk; k++) {
    cp_array_view_reset(&c->keys[k]);
    cp_array_release(&ka[k]);
    if (ks[k].release) ks[k].release(&ks[k]);
  }
  free(ks);
  free(ka);
  free(c->keys);
  free(c->key_names);
  free(hashes);
  free(rows);
  free(offsets);
  free(group_of);
  free(first_row);
  cp_buf_free(&parts);
  return rc;
}

int paimon_update_upsert_by_key(paimon_update *u, const struct ArrowSchema *schema,
                                const struct ArrowArray *batch, const char *const *keys,
                                size_t n_keys, paimon_commit_messages **out, paimon_error *err) {
  *out = NULL;
  cp_array_view in;
  memset(&in, 0, sizeof in);
  paimon_commit_messages *msgs = NULL;
  int rc = paimon_commit_messages_new(&msgs, err);
  if (!rc) rc = cp_array_view_init(&in, schema, batch, err);
  if (!rc && in.type.id != CP_ARROW_STRUCT)
    rc = paimon_error_set(err, PAIMON_EINVAL, "input must be a record batch (struct array)");
  if (!rc) rc = validate(u, &in, keys, n_keys, err);
  if (!rc) rc = cp_update_pin(u, err);
  if (!rc) {
    upsert_ctx c;
    memset(&c, 0, sizeof c);
    c.u = u;
    c.in = &in;
    c.msgs = msgs;
    rc = upsert(&c, keys, n_keys, err);
  }
  cp_array_view_reset(&in);
  if (rc) {
    cp_update_discard(u, msgs);
    paimon_commit_messages_free(msgs);
    return rc;
  }
  *out = msgs;
  return PAIMON_OK;
}
