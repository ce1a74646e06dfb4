/*
 * Data files of any `file.format` cpaimon reads and writes — Parquet (format/parquet) and Avro
 * (format/avro/data_file.h) — behind one reader and one writer, so the table's write, update,
 * compaction and read paths do not care which. Writers take the table's format; readers take the
 * format from the file's extension, as Java does (a table may hold files of a format it had
 * before `file.format` was changed).
 */
#ifndef CP_TABLE_FILE_IO_H
#define CP_TABLE_FILE_IO_H

#include "format/parquet/reader.h"
#include "format/parquet/writer.h"
#include "table/table.h"

typedef enum cp_file_format { CP_FILE_PARQUET = 0, CP_FILE_AVRO } cp_file_format;

/* The format named by a `file.format` value (case-insensitive): parquet or avro; others are
 * EUNSUPPORTED naming the table. */
int cp_file_format_parse(const char *value, const char *table, cp_file_format *out,
                         paimon_error *err);

/* The extension of data file names ("parquet", "avro"). */
const char *cp_file_format_ext(cp_file_format f);

/* The extension of the data files the table writes (its file.format, checked). */
int cp_table_file_ext(const paimon_table *t, const char **ext, paimon_error *err);

/* Checks that rows of `row` can be written in `f` (Avro: Java's type limits). */
int cp_file_format_check_row(cp_file_format f, const cp_type *row, paimon_error *err);

/* ---- writers ---- */

typedef struct cp_file_writer cp_file_writer;

/* A writer of rows of `row` (borrowed, must outlive the writer) to `file`, in the table's format.
 * `opts` are the Parquet options (cp_table_writer_options); Avro takes its codec from them, or
 * from the table's `avro.codec` option. */
int cp_file_writer_open(cp_file_writer **out, const paimon_table *t, cp_wfile *file,
                        const char *path, const cp_type *row, const cp_pq_writer_options *opts,
                        paimon_error *err);
int cp_file_writer_write(cp_file_writer *w, const struct ArrowSchema *schema,
                         const struct ArrowArray *batch, paimon_error *err);
uint64_t cp_file_writer_estimated_size(const cp_file_writer *w);
int64_t cp_file_writer_row_count(const cp_file_writer *w);
/* Whether the writer compresses on threads of its own (Parquet's compress_threads). */
bool cp_file_writer_threaded(const cp_file_writer *w);
/* Finishes the file; *out's columns are owned by the writer. */
int cp_file_writer_close(cp_file_writer *w, cp_pq_file_stats *out, paimon_error *err);
void cp_file_writer_free(cp_file_writer *w);

/* ---- readers ---- */

typedef struct cp_file_reader cp_file_reader;

/* Opens a data file with the Parquet reader's options (Avro: columns by name or absent, with a
 * target type; row ranges; no row groups, no decode threads). */
int cp_file_reader_open(cp_file_reader **out, cp_fs *fs, const char *path,
                        const cp_pq_reader_options *opts, paimon_error *err);
int cp_file_reader_next(cp_file_reader *r, struct ArrowArray *out_batch,
                        struct ArrowSchema *out_schema, bool *eof, paimon_error *err);
void cp_file_reader_set_batch_size(cp_file_reader *r, int64_t rows);
int64_t cp_file_reader_selected_rows(const cp_file_reader *r);
/* Rows in the whole file. */
int64_t cp_file_reader_file_rows(const cp_file_reader *r);
/* Whether the file has a top-level column called `name`. */
bool cp_file_reader_has_column(const cp_file_reader *r, const char *name);
void cp_file_reader_free(cp_file_reader *r);

#endif
