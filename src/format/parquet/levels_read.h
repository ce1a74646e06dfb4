/*
 * Record assembly: definition/repetition levels and dense values → Arrow arrays
 * (spec/parquet.md §3.1 rules, §3.2 worked example, §3.3 levels → Arrow, in the general form for
 * any depth of lists, maps and structs).
 *
 * Each plan node (schema_read.h) knows the thresholds that turn a level entry (r, d) of a leaf
 * below it into one of its slots (r <= rep and d >= slot_def) and decide the slot's validity
 * (d >= def). A node's slots, validity bitmap and — for lists and maps — offsets are computed from
 * the levels of its representative leaf; its children are assembled from their own leaves and
 * must produce exactly the number of slots the parent implies (a mismatch means the file's
 * columns disagree, and is ECORRUPT). Leaf values arrive dense (one per entry with d = max_def)
 * and are scattered into their slots; when a leaf has no null slot its dense buffer becomes the
 * Arrow buffer without a copy.
 *
 * Ownership: the arrays produced are owned (release frees them); they take over the `values` and
 * `data` buffers of the leaf batches (which are left empty) and copy nothing else from them.
 */
#ifndef CP_FORMAT_PARQUET_LEVELS_READ_H
#define CP_FORMAT_PARQUET_LEVELS_READ_H

#include <stdint.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "format/parquet/page_read.h"
#include "format/parquet/schema_read.h"

/* Builds the array of `node` for one batch. `by_leaf[i]` is the batch of Parquet leaf i (NULL for
 * leaves not read). `expected` is the number of slots the parent implies (the batch's row count
 * for a column), or -1 when unknown. On failure `out` is left released. */
int cp_pq_assemble(const cp_pq_rnode *node, cp_pq_leaf_batch *const *by_leaf, int64_t expected,
                   struct ArrowArray *out, paimon_error *err);

#endif
