/*
 * Internals shared by the two halves of merge_into (spec/data-evolution.md §3.5): merge_into.c
 * normalizes and validates the clauses and builds the joined layout the conditions are bound to;
 * update_merge.c executes the plan (hash join, clause evaluation, actions).
 */
#ifndef CP_TABLE_UPDATE_MERGE_H
#define CP_TABLE_UPDATE_MERGE_H

#include "expr/expr.h"
#include "table/update_internal.h"

enum { CP_MERGE_SIDE_T, CP_MERGE_SIDE_S };

typedef struct cp_merge_set {
  const char *column;
  paimon_merge_value_kind kind;
  const char *ref;
  struct ArrowSchema lit_schema; /* LITERAL: the value converted to the column's type */
  struct ArrowArray lit;
  cp_array_view lit_view;
} cp_merge_set;

typedef struct cp_merge_clause {
  paimon_merge_action action;
  const char *text; /* the condition, or NULL */
  cp_expr *cond;    /* bound and renumbered to the joined layout */
  cp_merge_set *set;
  size_t n_set;
} cp_merge_clause;

/* A column of the joined batches conditions and values read. */
typedef struct cp_merge_col {
  int side;
  const char *name; /* column name on its side */
} cp_merge_col;

typedef struct cp_merge {
  paimon_update *u;
  paimon_table *t;
  const cp_array_view *src; /* NULL: self-merge */
  const char *const *ton, *const *son;
  size_t n_on;
  cp_merge_clause *m, *nm;
  size_t n_m, n_nm;
  bool self;
  const char **update_cols; /* union of the matched SET keys, first-seen order */
  size_t n_update;
  cp_type *full_row;  /* "t.<col>"..., "t._ROW_ID", "s.<col>"... for binding */
  cp_merge_col *cols; /* the joined layout (names may point into `unbound`) */
  size_t n_cols;
  cp_expr **unbound; /* the parsed conditions, alive as long as the layout */
  paimon_error *err;
} cp_merge;

/* Per-run state: the source hash, the update/delete/insert results. */
typedef struct cp_merge_run {
  cp_merge *mg;
  /* source ON keys converted to the target key types */
  struct ArrowSchema *key_schemas;
  struct ArrowArray *key_arrays;
  cp_array_view *keys;
  int64_t *slot_first, *next; /* hash: slot -> first source row + 1; chains */
  uint64_t *slot_hash;
  size_t mask;
  bool *matched; /* source rows matched by a target row */
  bool dedupe;   /* sole unconditional DELETE: duplicate matches collapse */
  /* results */
  cp_builder **upd; /* one per update column */
  struct ArrowSchema *upd_schemas;
  int64_t *upd_ids, n_upd, cap_upd;
  int64_t *del_ids, n_del, cap_del;
} cp_merge_run;

/* Hashes the source (regular merges) and sets up the result builders. */
int cp_merge_run_start(cp_merge_run *r);
/* Streams the target of the pinned snapshot through the join and the matched clauses. */
int cp_merge_matched_phase(cp_merge_run *r, paimon_error *err);
/* The collected updates through the §3.2 funnel, deletes through the DV delete. */
int cp_merge_apply_actions(cp_merge_run *r, paimon_commit_messages *msgs, paimon_error *err);
/* Source rows no target row matched through the not-matched clauses, appended. */
int cp_merge_not_matched_phase(cp_merge_run *r, paimon_commit_messages *msgs, paimon_error *err);
void cp_merge_run_free(cp_merge_run *r);

#endif
