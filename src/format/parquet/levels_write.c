/*
 * Arrow -> definition/repetition levels (levels_write.h; spec/parquet.md §3.1, §3.4, §4 P1/P21).
 *
 * Entries are kept as three parallel arrays (rep, def, entry_slot). An entry that ended above the
 * leaf (NULL or empty collection) has slot -1; its def is final. Steps that repeat entries write
 * into the scratch arrays and swap, so each step is a linear pass. The list_runs shortcut
 * (levels_write.h) skips all of that for a single collection without NULLs.
 */
#include "format/parquet/levels_write.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"

void cp_pq_levels_init(cp_pq_levels *lv) { memset(lv, 0, sizeof *lv); }

void cp_pq_levels_free(cp_pq_levels *lv) {
  free(lv->rep);
  free(lv->def);
  free(lv->slots);
  free(lv->entry_slot);
  free(lv->slot_tmp);
  free(lv->rep_tmp);
  free(lv->def_tmp);
  memset(lv, 0, sizeof *lv);
}

/* Grows one (slot, rep, def) triple of arrays to hold `need` entries. */
static int grow3(int64_t **slots, int16_t **rep, int16_t **def, int64_t *cap, int64_t need,
                 paimon_error *err) {
  if (need <= *cap) return PAIMON_OK;
  int64_t n = *cap ? *cap : 1024;
  while (n < need) n *= 2;
  int64_t *s = realloc(*slots, (size_t)n * sizeof *s);
  if (s) *slots = s;
  int16_t *r = s ? realloc(*rep, (size_t)n * sizeof *r) : NULL;
  if (r) *rep = r;
  int16_t *d = r ? realloc(*def, (size_t)n * sizeof *d) : NULL;
  if (d) *def = d;
  if (!d) return CP_ENOMEM(err, "parquet levels");
  *cap = n;
  return PAIMON_OK;
}

static int null_error(const cp_pq_step *step, paimon_error *err) {
  /* Java's message (TableWriteImpl / FormatTableWrite), with the nested path as the name. */
  return paimon_error_set(err, PAIMON_EINVAL, "Cannot write null to non-null column(%s)",
                          step->name);
}

/* The NULL check of one node: ends entries whose slot is NULL (or fails for a REQUIRED node) and
 * adds 1 to the def of the others when the node is OPTIONAL. */
static int apply_nulls(cp_pq_levels *lv, const cp_pq_step *step, const cp_array_view *v,
                       paimon_error *err) {
  const int64_t m = lv->n_entries;
  int64_t *slot = lv->entry_slot;
  int16_t *def = lv->def;
  if (!v->validity) {
    if (!step->required)
      for (int64_t i = 0; i < m; i++) def[i] = (int16_t)(def[i] + (slot[i] >= 0));
    return PAIMON_OK;
  }
  const uint8_t *bits = v->validity;
  const int64_t off = v->offset;
  if (step->required) {
    for (int64_t i = 0; i < m; i++)
      if (slot[i] >= 0 && !cp_bit_get(bits, off + slot[i])) return null_error(step, err);
    return PAIMON_OK;
  }
  for (int64_t i = 0; i < m; i++) {
    if (slot[i] < 0) continue;
    if (cp_bit_get(bits, off + slot[i]))
      def[i]++;
    else
      slot[i] = -1;
  }
  return PAIMON_OK;
}

/* A collection: each live entry becomes one entry per element (or ends when empty). */
static int apply_collection(cp_pq_levels *lv, const cp_pq_step *step, const cp_array_view *v,
                            paimon_error *err) {
  const int64_t m = lv->n_entries;
  int64_t total = 0;
  for (int64_t i = 0; i < m; i++) {
    int64_t s = 0, e = 0;
    if (lv->entry_slot[i] >= 0) cp_view_list_range(v, lv->entry_slot[i], &s, &e);
    total += e > s ? e - s : 1;
  }
  CP_RETURN_IF_ERROR(grow3(&lv->slot_tmp, &lv->rep_tmp, &lv->def_tmp, &lv->tmp_cap, total, err));
  int64_t *ns = lv->slot_tmp;
  int16_t *nr = lv->rep_tmp, *nd = lv->def_tmp;
  const int16_t inner = step->rep_level;
  int64_t k = 0;
  for (int64_t i = 0; i < m; i++) {
    int64_t s = 0, e = 0;
    if (lv->entry_slot[i] >= 0) cp_view_list_range(v, lv->entry_slot[i], &s, &e);
    if (e <= s) {
      ns[k] = -1, nr[k] = lv->rep[i], nd[k] = lv->def[i];
      k++;
      continue;
    }
    const int16_t d = (int16_t)(lv->def[i] + 1);
    ns[k] = s, nr[k] = lv->rep[i], nd[k] = d;
    k++;
    for (int64_t j = s + 1; j < e; j++, k++) ns[k] = j, nr[k] = inner, nd[k] = d;
  }
  /* Swap, so the old arrays become the scratch of the next collection step. */
  int64_t *ts = lv->entry_slot, tc = lv->cap;
  int16_t *tr = lv->rep, *td = lv->def;
  lv->entry_slot = ns, lv->rep = nr, lv->def = nd, lv->cap = lv->tmp_cap;
  lv->slot_tmp = ts, lv->rep_tmp = tr, lv->def_tmp = td, lv->tmp_cap = tc;
  lv->n_entries = total;
  return PAIMON_OK;
}

static int ensure_slots(cp_pq_levels *lv, int64_t n, paimon_error *err) {
  if (lv->slots_cap >= n) return PAIMON_OK;
  int64_t *s = realloc(lv->slots, (size_t)n * sizeof *s);
  if (!s) return CP_ENOMEM(err, "parquet value slots");
  lv->slots = s;
  lv->slots_cap = n;
  return PAIMON_OK;
}

/* Collects the slots of the entries that reached the leaf, and notices a single run. Slots only
 * grow along the entries (Arrow offsets are monotone), so first..last spans n values exactly when
 * they are consecutive. */
static int collect_values(cp_pq_levels *lv, paimon_error *err) {
  CP_RETURN_IF_ERROR(ensure_slots(lv, lv->n_entries, err));
  int64_t n = 0;
  const int64_t *slot = lv->entry_slot;
  int64_t *out = lv->slots;
  for (int64_t i = 0; i < lv->n_entries; i++)
    if (slot[i] >= 0) out[n++] = slot[i];
  lv->n_values = n;
  lv->contiguous = n == 0 || out[n - 1] - out[0] == n - 1;
  lv->first_slot = n ? out[0] : 0;
  return PAIMON_OK;
}

/* True when no step can end or repeat an entry within rows [row0, row0 + n): no collection on
 * the path and no NULL in those rows of any view (all views are aligned with the rows then). */
static bool path_is_simple(const cp_pq_leaf *leaf, const cp_array_view *const *views, int64_t row0,
                           int64_t n) {
  for (uint32_t i = 0; i < leaf->n_steps; i++)
    if (leaf->steps[i].kind == CP_PQ_STEP_LIST || leaf->steps[i].kind == CP_PQ_STEP_MAP)
      return false;
  for (uint32_t i = 0; i < leaf->n_steps; i++)
    if (views[i]->validity && !cp_bitmap_all_set(views[i]->validity, views[i]->offset + row0, n))
      return false;
  return true;
}

static bool no_nulls(const cp_array_view *v, int64_t start, int64_t n) {
  return !v->validity || n <= 0 || cp_bitmap_all_set(v->validity, v->offset + start, n);
}

/* The list_runs shortcut (see levels_write.h): one collection (LIST or MAP) right above the leaf,
 * no NULL collection in the rows and no NULL element in their elements. */
static bool try_list_runs(cp_pq_levels *lv, const cp_pq_leaf *leaf,
                          const cp_array_view *const *views, int64_t row0, int64_t n) {
  if (lv->general_only || n <= 0 || leaf->n_steps != 2 || leaf->steps[1].kind != CP_PQ_STEP_LEAF)
    return false;
  const cp_pq_step *st = &leaf->steps[0];
  if (st->kind != CP_PQ_STEP_LIST && st->kind != CP_PQ_STEP_MAP) return false;
  const cp_array_view *list = views[0];
  if (!no_nulls(list, row0, n)) return false;
  int64_t s, e, unused;
  cp_view_list_range(list, row0, &s, &unused);
  cp_view_list_range(list, row0 + n - 1, &unused, &e);
  if (!no_nulls(views[1], s, e - s)) return false;
  bool empty = false;
  if (list->offsets32) {
    const int32_t *o = list->offsets32 + list->offset + row0;
    for (int64_t i = 0; i < n && !empty; i++) empty = o[i + 1] == o[i];
  } else if (list->offsets64) {
    const int64_t *o = list->offsets64 + list->offset + row0;
    for (int64_t i = 0; i < n && !empty; i++) empty = o[i + 1] == o[i];
  } else {
    empty = list->type.list_size == 0;
  }
  int64_t empties = 0;
  for (int64_t i = 0; empty && i < n; i++) {
    int64_t a, b;
    cp_view_list_range(list, row0 + i, &a, &b);
    empties += a == b;
  }
  lv->list_runs = true;
  lv->has_empty = empty;
  lv->list = list;
  lv->list_row0 = row0;
  lv->empty_def = st->required ? 0 : 1;
  lv->list_rep = st->rep_level;
  lv->all_defined = false;
  lv->contiguous = true;
  lv->first_slot = s;
  lv->n_values = e - s;
  lv->n_entries = e - s + empties;
  return true;
}

/* A flat OPTIONAL column: def levels are the validity bits, values the set ones. */
static int flat_optional(cp_pq_levels *lv, const cp_array_view *v, int64_t row0, int64_t n,
                         paimon_error *err) {
  CP_RETURN_IF_ERROR(ensure_slots(lv, n, err));
  const uint8_t *bits = v->validity;
  const int64_t off = v->offset + row0;
  int64_t *out = lv->slots, k = 0;
  for (int64_t i = 0; i < n; i++) {
    out[k] = row0 + i;
    k += cp_bit_get(bits, off + i);
  }
  lv->def_bits = bits;
  lv->def_bits_offset = off;
  lv->n_entries = n;
  lv->n_values = k;
  lv->contiguous = k == 0 || out[k - 1] - out[0] == k - 1;
  lv->first_slot = k ? out[0] : 0;
  return PAIMON_OK;
}

void cp_pq_leaf_views(const cp_pq_leaf *leaf, const cp_array_view *batch,
                      const cp_array_view **views) {
  const cp_array_view *v = &batch->children[leaf->column];
  for (uint32_t s = 0; s < leaf->n_steps; s++) {
    views[s] = v;
    const cp_pq_step *st = &leaf->steps[s];
    if (st->kind == CP_PQ_STEP_STRUCT)
      v = &v->children[st->child];
    else if (st->kind == CP_PQ_STEP_LIST)
      v = &v->children[0];
    else if (st->kind == CP_PQ_STEP_MAP)
      v = &v->children[0].children[st->child];
  }
}

int cp_pq_levels_compute(cp_pq_levels *lv, const cp_pq_leaf *leaf,
                         const cp_array_view *const *views, int64_t row0, int64_t n_rows,
                         bool check_only, paimon_error *err) {
  lv->n_rows = n_rows;
  lv->has_rep = leaf->max_rep > 0;
  lv->def_bits = NULL;
  lv->list_runs = false;
  if (try_list_runs(lv, leaf, views, row0, n_rows)) return PAIMON_OK;
  if (path_is_simple(leaf, views, row0, n_rows)) {
    lv->all_defined = lv->contiguous = true;
    lv->n_entries = lv->n_values = n_rows;
    lv->first_slot = row0;
    return PAIMON_OK;
  }
  lv->all_defined = lv->contiguous = false;
  if (leaf->n_steps == 1 && !leaf->steps[0].required)
    return check_only ? PAIMON_OK : flat_optional(lv, views[0], row0, n_rows, err);
  CP_RETURN_IF_ERROR(grow3(&lv->entry_slot, &lv->rep, &lv->def, &lv->cap, n_rows, err));
  for (int64_t i = 0; i < n_rows; i++) lv->entry_slot[i] = row0 + i;
  memset(lv->rep, 0, (size_t)n_rows * sizeof *lv->rep);
  memset(lv->def, 0, (size_t)n_rows * sizeof *lv->def);
  lv->n_entries = n_rows;
  for (uint32_t i = 0; i < leaf->n_steps; i++) {
    const cp_pq_step *step = &leaf->steps[i];
    CP_RETURN_IF_ERROR(apply_nulls(lv, step, views[i], err));
    if (step->kind == CP_PQ_STEP_LIST || step->kind == CP_PQ_STEP_MAP)
      CP_RETURN_IF_ERROR(apply_collection(lv, step, views[i], err));
  }
  if (check_only) return PAIMON_OK;
  return collect_values(lv, err);
}

/* list_runs: the element range of rows [row, row + rows) and the empty lists among them. */
static void list_span(const cp_pq_levels *lv, int64_t row, int64_t rows, int64_t *first,
                      int64_t *values, int64_t *empties) {
  int64_t s, e, unused;
  cp_view_list_range(lv->list, lv->list_row0 + row, &s, &unused);
  cp_view_list_range(lv->list, lv->list_row0 + row + rows - 1, &unused, &e);
  *first = s;
  *values = e - s;
  *empties = 0;
  for (int64_t i = 0; lv->has_empty && i < rows; i++) {
    int64_t a, b;
    cp_view_list_range(lv->list, lv->list_row0 + row + i, &a, &b);
    *empties += a == b;
  }
}

void cp_pq_levels_span(const cp_pq_levels *lv, int16_t max_def, int64_t entry, int64_t row,
                       int64_t rows, int64_t *n_entries, int64_t *n_values) {
  if (rows <= 0) {
    *n_entries = *n_values = 0;
    return;
  }
  if (lv->list_runs) {
    int64_t first, empties;
    list_span(lv, row, rows, &first, n_values, &empties);
    *n_entries = *n_values + empties;
    return;
  }
  if (lv->all_defined) {
    *n_entries = *n_values = rows;
    return;
  }
  if (lv->def_bits) {
    *n_entries = rows;
    *n_values = cp_bitmap_count_set(lv->def_bits, lv->def_bits_offset + entry, rows);
    return;
  }
  const int16_t *def = lv->def;
  int64_t values = 0, e = entry;
  if (!lv->has_rep) {
    for (; e < entry + rows; e++) values += def[e] == max_def;
  } else {
    int64_t seen = 0;
    for (; e < lv->n_entries; e++) {
      if (lv->rep[e] == 0 && seen++ == rows) break;
      values += def[e] == max_def;
    }
  }
  *n_entries = e - entry;
  *n_values = values;
}

/* Rows of a list without NULLs or empties, int32 offsets: the common embedding case, with the
 * per-row work reduced to three runs. */
static int put_runs32(const int32_t *o, int64_t rows, int16_t max_def, int16_t list_rep,
                      cp_pq_rle_writer *rep, cp_pq_rle_writer *def, paimon_error *err) {
  for (int64_t i = 0; i < rows; i++) {
    const uint32_t len = (uint32_t)(o[i + 1] - o[i]);
    CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_run(rep, 0, 1, err));
    if (len > 1)
      CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_run(rep, (uint32_t)list_rep, len - 1, err));
  }
  return cp_pq_rle_writer_put_run(def, (uint32_t)max_def, (uint64_t)(o[rows] - o[0]), err);
}

int cp_pq_levels_put_runs(const cp_pq_levels *lv, int16_t max_def, int64_t row, int64_t rows,
                          cp_pq_rle_writer *rep, cp_pq_rle_writer *def, paimon_error *err) {
  const cp_array_view *list = lv->list;
  const int64_t r0 = lv->list_row0 + row;
  if (!lv->has_empty && list->offsets32)
    return put_runs32(list->offsets32 + list->offset + r0, rows, max_def, lv->list_rep, rep, def,
                      err);
  for (int64_t i = 0; i < rows; i++) {
    int64_t s, e;
    cp_view_list_range(list, r0 + i, &s, &e);
    CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_run(rep, 0, 1, err));
    if (e == s) {
      CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_run(def, (uint32_t)lv->empty_def, 1, err));
      continue;
    }
    if (e - s > 1)
      CP_RETURN_IF_ERROR(
          cp_pq_rle_writer_put_run(rep, (uint32_t)lv->list_rep, (uint64_t)(e - s - 1), err));
    CP_RETURN_IF_ERROR(cp_pq_rle_writer_put_run(def, (uint32_t)max_def, (uint64_t)(e - s), err));
  }
  return PAIMON_OK;
}

int64_t cp_pq_levels_rows_within(const cp_pq_leaf *leaf, const cp_array_view *const *views,
                                 int64_t row0, int64_t n, int64_t budget, int64_t *entries) {
  uint32_t i = 0;
  *entries = n;
  while (i < leaf->n_steps && leaf->steps[i].kind == CP_PQ_STEP_STRUCT) i++;
  if (n <= 0 || i == leaf->n_steps ||
      (leaf->steps[i].kind != CP_PQ_STEP_LIST && leaf->steps[i].kind != CP_PQ_STEP_MAP))
    return n;
  const cp_array_view *v = views[i];
  int64_t start, unused, end;
  cp_view_list_range(v, row0, &start, &unused);
  /* The largest k with elements(k) + k <= budget (at least 1); both grow with k, as offsets are
   * monotone. */
  int64_t lo = 1, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    cp_view_list_range(v, row0 + mid - 1, &unused, &end);
    if (end - start + mid <= budget)
      lo = mid;
    else
      hi = mid - 1;
  }
  cp_view_list_range(v, row0 + lo - 1, &unused, &end);
  *entries = end - start + lo;
  return lo;
}
