/*
 * Arrow -> definition/repetition levels for one leaf column (spec/parquet.md §3.1 rules, §3.4
 * the writer's walk; §4 P21: a NULL in a REQUIRED node is rejected before encoding).
 *
 * The walk is breadth-first rather than per row: it starts with one entry per row of the range
 * (rep 0, def 0, the row's slot in the column's Arrow array) and applies the leaf's steps
 * (schema_build.h) in order to the whole entry array — a NULL at an OPTIONAL node ends the entry
 * with its current def; a present OPTIONAL node adds 1; a collection replaces each entry by one
 * entry per element (def + 1; the first keeps the incoming rep, the others take the collection's
 * repetition level) or ends it when empty. Each step is one tight loop over arrays, with no
 * per-value calls, and child slots hidden under a NULL parent are never looked at. The surviving
 * entries (def = max_def) carry the slots of the leaf's values, in order.
 *
 * Shortcuts: when no step can end an entry or repeat it (no NULLs in the range's Arrow arrays, no
 * collections), no level is materialised ("all_defined"); a flat OPTIONAL column's levels are its
 * validity bitmap ("def_bits"); when the value slots form one run, only its start is kept
 * ("contiguous"), which lets the page writer copy values straight from the Arrow buffer. A leaf
 * that is the element of one top-level list (or the key/value of one map), with no NULL list and
 * no NULL element in the range, keeps only the collection's offsets ("list_runs"): its levels are
 * runs that follow from them — per list, rep 0 then len - 1 times the list's repetition level,
 * def max_def for every element; an empty list is one entry at the def of a present empty list —
 * and cp_pq_levels_put_runs streams them into RLE encoders without a per-entry array. That is the
 * shape of an embedding column (ARRAY<FLOAT>), where per-entry levels used to cost more than the
 * values.
 *
 * Ownership: a cp_pq_levels owns its arrays and reuses them across calls; free with
 * cp_pq_levels_free. The Arrow views are borrowed for the duration of a call.
 */
#ifndef CP_FORMAT_PARQUET_LEVELS_WRITE_H
#define CP_FORMAT_PARQUET_LEVELS_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "cpaimon/error.h"
#include "format/parquet/encoding.h"
#include "format/parquet/schema_build.h"

typedef struct cp_pq_levels {
  /* Entries: one per (rep, def) pair. rep is meaningful only when has_rep (the leaf has
   * max_rep > 0; otherwise every rep is 0); def only when !all_defined (otherwise all max_def). */
  int16_t *rep;
  int16_t *def;
  /* A flat OPTIONAL column's def levels are its Arrow validity bits: when def_bits is set, def is
   * not filled and entry i's level is bit def_bits_offset + i of def_bits (borrowed). */
  const uint8_t *def_bits;
  int64_t def_bits_offset;
  bool has_rep;
  bool all_defined;
  int64_t n_entries;
  int64_t n_rows;
  /* The values (entries with def == max_def) as slots of the leaf's Arrow view, in order:
   * slots[0..n_values) or, when contiguous, first_slot + 0..n_values (slots may then be stale). */
  int64_t *slots;
  int64_t n_values;
  int64_t first_slot;
  bool contiguous;
  /* list_runs (see the top): the collection's view (borrowed), the range's first row in it, the
   * def of an empty collection and its repetition level; has_empty says whether any is empty
   * (entries = values + empty collections). rep and def are not filled. */
  bool list_runs;
  bool has_empty;
  const cp_array_view *list;
  int64_t list_row0;
  int16_t empty_def, list_rep;
  /* Testing: never take the list_runs shortcut (the general walk gives the same levels). */
  bool general_only;
  /* Private: entry slots (-1 for entries that ended above the leaf) and scratch. */
  int64_t *entry_slot, *slot_tmp;
  int16_t *rep_tmp, *def_tmp;
  int64_t cap, tmp_cap, slots_cap;
} cp_pq_levels;

void cp_pq_levels_init(cp_pq_levels *lv);
void cp_pq_levels_free(cp_pq_levels *lv);

/* Fills views[i] with the Arrow view of the node of leaf->steps[i], walking down from the batch
 * (a struct view whose children are the top-level columns): what cp_pq_levels_compute takes. */
void cp_pq_leaf_views(const cp_pq_leaf *leaf, const cp_array_view *batch,
                      const cp_array_view **views);

/* Computes the levels of rows [row0, row0 + n_rows) for `leaf`. `views[i]` is the Arrow view of
 * the node of leaf->steps[i] (views[0] the top-level column). A NULL at a REQUIRED step that is
 * not hidden under a NULL ancestor fails with EINVAL: "Cannot write null to non-null
 * column(<paimon path>)". With `check_only`, only that check is made (levels are not kept). */
int cp_pq_levels_compute(cp_pq_levels *lv, const cp_pq_leaf *leaf,
                         const cp_array_view *const *views, int64_t row0, int64_t n_rows,
                         bool check_only, paimon_error *err);

/* Within computed levels, starting at entry `entry`, which is the first entry of row `row` (both
 * counted from the start of the range), returns the number of entries and values that `rows` rows
 * span (page cuts fall between rows). */
void cp_pq_levels_span(const cp_pq_levels *lv, int16_t max_def, int64_t entry, int64_t row,
                       int64_t rows, int64_t *n_entries, int64_t *n_values);

/* list_runs levels: appends the repetition and definition levels of rows [row, row + rows) of the
 * range (counted from its start) to `rep` and `def` as runs. */
int cp_pq_levels_put_runs(const cp_pq_levels *lv, int16_t max_def, int64_t row, int64_t rows,
                          cp_pq_rle_writer *rep, cp_pq_rle_writer *def, paimon_error *err);

/* Slice sizing: the number of rows k in [1, n] such that rows [row0, row0 + k) hold at most
 * `budget` entries at the leaf's first collection level, counted as elements + rows (an upper
 * bound: an empty or NULL collection is one entry). n when the leaf has no collection, or when
 * its first collection is not directly under STRUCT steps (its rows are then not the batch's).
 * *entries receives the bound for the rows returned (the rows themselves in those two cases).
 * Lets the writer bound level scratch however long the lists are. */
int64_t cp_pq_levels_rows_within(const cp_pq_leaf *leaf, const cp_array_view *const *views,
                                 int64_t row0, int64_t n, int64_t budget, int64_t *entries);

#endif
