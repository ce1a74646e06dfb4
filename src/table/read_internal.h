/*
 * What the read builder (read_builder.c) and the split reader (read.c) share: the builder's
 * state and its resolved output columns. Internal to the table layer.
 */
#ifndef CP_TABLE_READ_INTERNAL_H
#define CP_TABLE_READ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cpaimon/read.h"
#include "expr/expr.h"
#include "meta/schema.h"
#include "table/scan.h"

enum { COL_FIELD, COL_ROW_ID, COL_SEQ };

/* Levels a nested projection ("a.b.c...") may go down. */
#define CP_MAX_PROJECTION_DEPTH 64

typedef struct out_col {
  int kind;
  cp_field field; /* COL_FIELD: a copy of the current (top-level) field */
  /* A nested projection ("r.x", Java's int[][] projection): the child index at each level below
   * `field`'s ROW type down to the projected field, read as that field, NULL where a ROW above it
   * is NULL. */
  int32_t *path;
  size_t n_path;
  /* The output field when it is not `field`: a nested projection's (named as Java's Projection
   * names it, "r_x"), or a top-level column renamed beside nested ones ("id_$0"). */
  bool has_out;
  cp_field out;
} out_col;

struct paimon_read_builder {
  paimon_table *t;
  char **projection;
  size_t n_projection;
  bool has_projection;
  bool row_tracking;
  bool has_snapshot;
  int64_t snapshot_id;
  char *tag; /* time travel to a tag: its copy of the snapshot is read (it may have expired) */
  /* The schema reads use: -1 for the table's, else the time-travel snapshot's schema id. */
  int64_t schema_id;
  /* Why the time-travel snapshot could not be loaded (0: it was, or none was asked for). Reads
   * then keep the table's schema and planning reports the failure, as Java's copy() falls back
   * to the current schema and its scan fails. */
  int travel_rc;
  paimon_error travel_err;
  int64_t batch_size;
  int read_threads;   /* paimon_read_builder_set_read_threads: -1 automatic, 1 = no extra thread */
  int64_t read_ahead; /* paimon_read_builder_set_read_ahead: batches per worker, -1 unbounded */
  int decode_threads; /* paimon_read_builder_set_decode_threads: -1 automatic, 0 or 1 */
  int blob_as_descriptor; /* paimon_read_builder_set_blob_as_descriptor: -1 the table's option */
  cp_expr *filter;        /* unbound copy of the caller's predicate, or NULL */
  bool ignore_deletion_vectors; /* updaters' copy reads (cp_read_builder_ignore_deletion_vectors) */
  cp_expr *part_filter;         /* unbound copy of the partition filter (NULL: none or cleared) */
  cp_plan_selection select;     /* shard / slice / limit (plan_select.c) */
};

/* The schema reads through `rb` use (borrowed from the table): the time-travel snapshot's, else
 * the table's. */
int cp_rb_read_schema(paimon_read_builder *rb, const cp_table_schema **out, paimon_error *err);
/* The filter bound to the filter row of `schema` (its columns + hidden), or NULL when there is
 * none; *out is the caller's. */
int cp_rb_bind_filter(paimon_read_builder *rb, const cp_table_schema *schema, cp_expr **out,
                      paimon_error *err);
/* The output columns of `rb` in `schema` (*out malloc'd, free with cp_rb_free_cols). */
int cp_rb_resolve_cols(paimon_read_builder *rb, const cp_table_schema *schema, out_col **out,
                       size_t *n, paimon_error *err);
void cp_rb_free_cols(out_col *cols, size_t n);
/* The Arrow struct schema of output columns. */
int cp_rb_cols_schema(const out_col *cols, size_t n, struct ArrowSchema *out, paimon_error *err);

#endif
