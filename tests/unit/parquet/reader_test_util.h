/*
 * Helpers shared by the Parquet reader tests: read a whole file through cp_pq_reader, validating
 * every batch with the arrow layer's view checks, and render rows as JSON lines (arrow/print.h)
 * for comparisons and for the `dump` mode the pytest suite drives.
 */
#ifndef CP_TEST_READER_UTIL_H
#define CP_TEST_READER_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/print.h"
#include "arrow/schema.h"
#include "base/fs.h"
#include "format/parquet/reader.h"

#ifndef CPAIMON_TESTDATA_DIR
#define CPAIMON_TESTDATA_DIR "../shared/testdata"
#endif

static inline const char *rt_corpus(const char *dir, const char *name) {
  static char buf[4][1024];
  static int k;
  k = (k + 1) & 3;
  snprintf(buf[k], sizeof buf[k], "%s/parquet-testing/%s/%s", CPAIMON_TESTDATA_DIR, dir, name);
  return buf[k];
}

/* Reads every batch of `path`; *rows receives the row count, `jsonl` (if not NULL) the rows as
 * JSON lines. Every batch is checked with cp_array_view_init and must not exceed the batch size. */
static inline int rt_read_all(cp_fs *fs, const char *path, const cp_pq_reader_options *opts,
                              int64_t *rows, cp_buf *jsonl, paimon_error *err) {
  cp_pq_reader *r;
  *rows = 0;
  int rc = cp_pq_reader_open(&r, fs, path, opts, err);
  if (rc) return rc;
  int64_t limit = opts && opts->batch_size > 0 ? opts->batch_size : CP_PQ_DEFAULT_BATCH_SIZE;
  struct ArrowSchema schema;
  schema.release = NULL;
  for (bool first = true;; first = false) {
    struct ArrowArray batch;
    bool eof;
    rc = cp_pq_reader_next(r, &batch, first ? &schema : NULL, &eof, err);
    if (rc || eof) break;
    cp_array_view v;
    rc = cp_array_view_init(&v, &schema, &batch, err);
    if (rc == 0) cp_array_view_reset(&v);
    if (rc == 0 && (batch.length <= 0 || batch.length > limit))
      rc = paimon_error_set(err, PAIMON_ESTATE, "batch of %lld rows", (long long)batch.length);
    if (rc == 0 && jsonl) rc = cp_print_jsonl(jsonl, &schema, &batch, err);
    *rows += batch.length;
    cp_array_release(&batch);
    if (rc) break;
  }
  cp_schema_release(&schema);
  cp_pq_reader_free(r);
  return rc;
}

#endif
