/*
 * Writing whole rows of a row-tracking table with their ids (spec/data-evolution.md §1.5,
 * maintenance-and-blob.md §1.6): every table column, then `_ROW_ID` and `_SEQUENCE_NUMBER`
 * written physically. Such files get no first_row_id (they never advance nextRowId) and
 * `write_cols` = all of those names; readers take the physical values. Used by copy-on-write
 * updates (rewrite_file.c) and by append compaction (compact_append.c).
 *
 * Files roll at target-file-size, one output stream per (partition, bucket). A file's sequence
 * range follows Java's RowDataFileSequenceNumberTracker: min 0 when every `_SEQUENCE_NUMBER` is
 * NULL, max 0 when any is (the committer then stamps it), otherwise the range of the values.
 */
#ifndef CP_TABLE_ROWS_WRITER_H
#define CP_TABLE_ROWS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/arrow_abi.h"
#include "format/parquet/writer.h"
#include "meta/data_file.h"
#include "table/commit_message.h"
#include "table/table.h"

/* The output of one (partition, bucket). */
typedef struct cp_rows_part {
  cp_bytes partition; /* in the writer's arena */
  int32_t bucket;
  char *dir;
  cp_wfile *file;
  struct cp_file_writer *pq;
  char *path;
  const char *name;
  cp_data_file_meta *done;
  size_t n_done, cap_done;
  char **paths; /* every finished file, deleted again unless handed out */
  size_t n_paths;
  cp_manifest_entry *deleted; /* old files this part's message deletes */
  size_t n_deleted, cap_deleted;
} cp_rows_part;

typedef struct cp_rows_writer {
  paimon_table *t;
  cp_type *row;             /* the table's columns + _ROW_ID NOT NULL + _SEQUENCE_NUMBER */
  struct ArrowSchema arrow; /* struct schema of `row` */
  size_t n_user;            /* table columns */
  int file_source;          /* CP_FILE_SOURCE_* of the files written */
  cp_pq_writer_options opts;
  char uuid[37];
  int counter;
  cp_rows_part *parts;
  size_t n_parts;
  cp_strings write_cols;
  cp_arena arena;
} cp_rows_writer;

int cp_rows_writer_init(cp_rows_writer *w, paimon_table *t, int file_source, paimon_error *err);
/* Frees the writer; the files it wrote are deleted unless `keep`. */
void cp_rows_writer_free(cp_rows_writer *w, bool keep);
/* The index in w->parts of the part of (partition, bucket), added when new. Parts are held by
 * index: adding one may move the array. */
int cp_rows_writer_part(cp_rows_writer *w, cp_bytes partition, int32_t bucket, size_t *index,
                        paimon_error *err);
/* Appends a batch of `w->arrow` rows to the part's open file, rolling at target-file-size. */
int cp_rows_writer_write(cp_rows_writer *w, size_t part, const struct ArrowArray *batch,
                         paimon_error *err);
/* Records an old file the part's message deletes. */
int cp_rows_writer_add_deleted(cp_rows_writer *w, size_t part, const cp_manifest_entry *e,
                               paimon_error *err);
/* Closes the open files and appends one message per part that wrote or deleted a file to `out`
 * (no row-id check snapshot: Java checks file deletion only); `compact` marks them compaction
 * messages. The files then belong to the messages (free with keep = true). */
int cp_rows_writer_emit(cp_rows_writer *w, paimon_commit_messages *out, bool compact,
                        paimon_error *err);

#endif
