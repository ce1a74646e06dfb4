/*
 * Internals of the row-change API (include/cpaimon/rowops.h): the change set collected by
 * rewrite.c and applied to the table's files by rewrite_file.c (spec/data-evolution.md §1.5,
 * §3.8.1).
 */
#ifndef CP_TABLE_REWRITE_INTERNAL_H
#define CP_TABLE_REWRITE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "cpaimon/rowops.h"
#include "cpaimon/write.h"
#include "meta/snapshot.h"
#include "table/table.h"

/* One update batch, its columns converted to the table's Arrow types. */
typedef struct cp_rw_update {
  struct ArrowSchema schema; /* struct of the updated columns, in the caller's order */
  struct ArrowArray array;
  cp_array_view view;
  int64_t *child_of; /* table column i -> child of `view`, or -1 when not updated */
  bool moves;        /* a partition column is updated: rows may move to another partition */
} cp_rw_update;

/* A changed row: an update (row `row` of update batch `batch`) or a delete (batch -1). */
typedef struct cp_rw_change {
  int64_t row_id;
  int32_t batch;
  int64_t row;
} cp_rw_change;

struct paimon_row_changes {
  paimon_table *t;
  cp_snapshot *base; /* NULL: the table had no snapshot */
  cp_rw_update *updates;
  size_t n_updates, cap_updates;
  cp_rw_change *changes; /* sorted by row id in cp_rw_apply */
  size_t n_changes, cap_changes;
  paimon_write *insert; /* created on the first insert */
  bool done;            /* prepare_commit ran (successfully or not) */
};

/* Applies the updates and deletes to the base snapshot's files (rewriting them, or writing the
 * updated rows and DVs when deletion vectors are enabled) and appends the commit messages to
 * `out`. Data-evolution tables take only deletes (as DVs). */
int cp_rw_apply(paimon_row_changes *rc, paimon_commit_messages *out, paimon_error *err);

#endif
