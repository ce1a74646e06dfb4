/*
 * Internals shared by the data-evolution updaters (include/cpaimon/update.h,
 * spec/data-evolution.md §3): the pinned snapshot and its row-id group index, the single-file
 * group writer, the group copy-and-replace that every updater funnels into (§3.2), and input
 * normalization.
 *
 * Why one funnel: update by predicate, upsert and merge into all end as "these _ROW_IDs get these
 * values" (pypaimon routes them through TableUpdateByRowId the same way), so the rules of §3.2 —
 * whole-group files, untouched rows copied from the merged view without deletion vectors,
 * first_row_id of the group, sequence 0/0 — live in one place (update.c).
 */
#ifndef CP_TABLE_UPDATE_INTERNAL_H
#define CP_TABLE_UPDATE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/buf.h"
#include "cpaimon/read.h"
#include "cpaimon/update.h"
#include "format/parquet/writer.h"
#include "table/blob_input.h"
#include "table/commit_message.h"
#include "table/scan.h"
#include "table/table.h"

/* A row-id group of the pinned snapshot: the files of one split covering one range. */
typedef struct cp_row_group {
  int64_t first_row_id;
  int64_t row_count;
  size_t split; /* index in the plan */
} cp_row_group;

/* The touched (group, column) pairs of an updater, to refuse a second write of the same column of
 * a group in one commit (two files with the same range and column would make one update vanish). */
typedef struct cp_touched {
  int64_t first_row_id;
  int32_t field_id;
} cp_touched;

struct paimon_update {
  paimon_table *t;
  char **update_cols; /* NULL: default */
  size_t n_update_cols;
  char **projection; /* NULL: every column */
  size_t n_projection;
  bool want_snapshot; /* set_snapshot was called */
  int64_t want_snapshot_id;
  bool pinned;          /* the first operation read the snapshot */
  int64_t snapshot_id;  /* -1: table had no snapshot */
  paimon_plan *plan;    /* the pinned snapshot's splits (no filter) */
  cp_row_group *groups; /* sorted by first_row_id */
  size_t n_groups;
  int64_t (*ranges)[2]; /* valid row-id ranges (non-blob files, adjacent merged) */
  size_t n_ranges;
  cp_touched *touched;
  size_t n_touched, cap_touched;
};

/* Reads the snapshot (once) and builds the group index. */
int cp_update_pin(paimon_update *u, paimon_error *err);

/* The group holding `row_id`, or NULL. */
const cp_row_group *cp_update_find_group(const paimon_update *u, int64_t row_id);

/* EINVAL "Row ID <id> does not belong to any valid range ['[a, b]', ...]" (pypaimon's text). */
int cp_update_invalid_row_id(const paimon_update *u, int64_t row_id, paimon_error *err);

/* A read builder over the table with `cols` projected (and the table's other settings default)
 * that reads splits without applying deletion vectors (the copy of §3.2). */
int cp_update_raw_reader(paimon_update *u, const char *const *cols, size_t n,
                         paimon_read_builder **out, paimon_error *err);

/* The check of pypaimon's update_columns: `field_ids` of the columns written to group
 * `first_row_id` must not have been written by this updater before; records them. */
int cp_update_touch(paimon_update *u, const int64_t *first_row_ids, size_t n_groups,
                    const int32_t *field_ids, size_t n_fields, paimon_error *err);

/* ---- the group writer: the files of one whole row-id range ---- */

struct cp_blob_writer;

/* A BLOB field's `.blob` file of a group (spec/maintenance-and-blob.md §5.5). */
typedef struct cp_group_blob {
  size_t field; /* index in the writer's row */
  char file_name[128];
  char *path;
  cp_wfile *file;
  struct cp_blob_writer *w;
} cp_group_blob;

typedef struct cp_group_writer {
  paimon_table *t;
  const cp_type *row;       /* the written columns (borrowed) */
  struct ArrowSchema arrow; /* struct schema of `row` */
  bool full;                /* write_cols = null (every column of the schema) */
  cp_bytes partition;       /* borrowed */
  int32_t bucket;
  int64_t first_row_id;
  int64_t row_count; /* expected rows */
  char *dir, *path;
  char file_name[128];
  cp_wfile *file;
  struct cp_file_writer *pq; /* NULL when every written column is a BLOB */
  int64_t written;
  /* BLOB columns go to one `.blob` file each, the others (normal_row, fields normal_idx of row)
   * to the Parquet file, as a table's appends place them. */
  cp_type *normal_row;
  struct ArrowSchema normal_arrow;
  size_t *normal_idx;
  cp_group_blob *blobs;
  size_t n_blob;
  cp_blob_sources sources; /* BlobDescriptor values: the objects they name */
  int64_t *lens;           /* their lengths in the batch being written */
} cp_group_writer;

/* Opens the group's data files in its partition/bucket directory: one Parquet file for the
 * columns of `row` that are not BLOBs (if any), one `.blob` file per BLOB column. */
int cp_group_writer_open(cp_group_writer *w, paimon_table *t, const cp_type *row, bool full,
                         cp_bytes partition, int32_t bucket, int64_t first_row_id,
                         int64_t row_count, paimon_error *err);
/* Appends rows (a struct array of `row`'s Arrow types). */
int cp_group_writer_write(cp_group_writer *w, const struct ArrowArray *batch, paimon_error *err);
/* Closes the files into `metas` (room for 1 + the BLOB column count; strings in `arena`), *n of
 * them, the Parquet file first: first_row_id of the group, write_cols, APPEND, sequence 0/0.
 * EINVAL "File row count mismatch." when they do not hold exactly row_count rows (the files are
 * then deleted). */
int cp_group_writer_finish_files(cp_group_writer *w, cp_arena *arena, cp_data_file_meta *metas,
                                 size_t *n, paimon_error *err);
/* cp_group_writer_finish_files for a writer of no BLOB column: its one file. */
int cp_group_writer_finish(cp_group_writer *w, cp_arena *arena, cp_data_file_meta *meta,
                           paimon_error *err);
/* Deletes the files (if any) and frees the writer's state; safe after finish and on a zeroed
 * writer. */
void cp_group_writer_abort(cp_group_writer *w);
/* Streams columns `cols` of splits `splits[0..n)` of `plan`, merged, deletion vectors not applied
 * (deleted rows are copied; the group's DV keeps deleting them), into `w` — what compaction and
 * the rebase of a compaction write. */
int cp_group_writer_copy(cp_group_writer *w, const paimon_plan *plan, const size_t *splits,
                         size_t n, const char *const *cols, size_t n_cols, paimon_error *err);

/* ---- messages under construction ---- */

/* Appends a one-file message for partition/bucket with the updater's check_from_snapshot. */
int cp_update_add_file(paimon_update *u, paimon_commit_messages *msgs, cp_bytes partition,
                       int32_t bucket, const cp_data_file_meta *file, paimon_error *err);

/* Deletes every new file the messages reference (an operation that failed half way). */
void cp_update_discard(paimon_update *u, paimon_commit_messages *msgs);

/* ---- input ---- */

/* The update rows of one call, normalized: `row_ids` (sorted ascending, distinct) and for each
 * update column an array of the column's Arrow type, `order[k]` giving the input row of the k-th
 * smallest row id. */
typedef struct cp_update_rows {
  const cp_type *row; /* update columns (owned by the caller) */
  int64_t n;
  int64_t *row_ids;          /* sorted */
  int64_t *order;            /* input row per sorted position */
  struct ArrowArray *values; /* row->n_fields arrays */
  struct ArrowSchema *schemas;
  cp_array_view *views;
  /* literal[c] (may be NULL): column c holds one value repeated (its array is that value
   * repeated min(n, 65536) times), used for every row. */
  bool *literal;
} cp_update_rows;

/* Sets column c of `r` to the value at row 0 of `v` (converted to field `f`'s type) for every
 * row. */
int cp_update_rows_set_literal(cp_update_rows *r, size_t c, const cp_array_view *v,
                               const cp_field *f, paimon_error *err);

void cp_update_rows_free(cp_update_rows *r);

/* Converts `v` (a column of the input) to the Arrow type of table field `f` (zero-copy when equal,
 * a safe cast otherwise; EINVAL naming the column when it cannot be converted). *schema receives
 * the field's Arrow schema. */
int cp_update_convert_column(const cp_array_view *v, const cp_field *f, struct ArrowSchema *schema,
                             struct ArrowArray *out, paimon_error *err);

/* Applies `rows` to their groups (the §3.2 funnel): for every group touched, the merged current
 * values of the update columns are read (no deletion vectors), the updated positions replaced,
 * and one file written; one message per group is appended to `msgs`. `rows` must already be
 * validated (ids inside valid ranges, distinct). */
int cp_update_apply(paimon_update *u, const cp_update_rows *rows, paimon_commit_messages *msgs,
                    paimon_error *err);

/* Sorts `row_ids[0..n)` into rows->row_ids / rows->order and checks them: non-null (the view),
 * distinct, inside valid ranges. */
int cp_update_rows_index(paimon_update *u, const cp_array_view *row_ids, cp_update_rows *rows,
                         paimon_error *err);

/* Sets r's value columns to the input's columns `names` (a record batch view), converted to the
 * table's types; *row (the caller frees it) is their row type, also stored in r->row. EINVAL
 * "Column <c> is missing in the input data." */
int cp_update_rows_load(paimon_update *u, const cp_array_view *in, const char *const *names,
                        size_t n, cp_update_rows *r, cp_type **row, paimon_error *err);

/* Sorts r->row_ids (n entries) ascending, permuting r->order alike. */
int cp_update_rows_sort(cp_update_rows *r, paimon_error *err);

/* The row type of table columns `names` (copied fields). */
int cp_update_columns_row(paimon_table *t, const char *const *names, size_t n, cp_type **out,
                          paimon_error *err);

/* The table's options required by the predicate-style operations: "<op> requires
 * 'data-evolution.enabled' = 'true'." then the row-tracking variant. */
int cp_update_require_de(paimon_table *t, const char *op, paimon_error *err);

/* Parses a merge_into condition (update_cond.c) into an unbound expression whose column
 * references are named "s.<col>" / "t.<col>"; EINVAL naming the text and offset. */
struct cp_expr;
int cp_merge_condition_parse(const char *text, struct cp_expr **out, paimon_error *err);

#endif
