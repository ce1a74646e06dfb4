/*
 * libFuzzer harness for the whole Parquet reader (src/format/parquet/reader.h and everything
 * below it: footer, plan, pages, codecs, encodings, levels → Arrow; spec/parquet.md §2.5, §3, §4):
 * the input is a file. It is read completely with the natural types, again through row ranges in
 * small batches, and the statistics of every chunk are decoded. Nothing may crash, leak, or
 * allocate beyond the limits given to the reader; every batch the reader returns must pass the
 * arrow layer's validation (cp_array_view_init), otherwise the harness traps — an invalid Arrow
 * array is a reader bug even when the file is garbage.
 *
 * The input reaches the reader through the file-I/O seam as a real path: an anonymous memfd,
 * opened again as /proc/self/fd/N, so nothing is written to disk.
 *
 * Build and run (the lead wires `make fuzz`; CTest never runs this):
 *   make fuzz        # or: CC=clang cmake -S . -B build-fuzz -DCPAIMON_FUZZ=ON
 *                    #       -DCPAIMON_SANITIZE=ON && cmake --build build-fuzz
 *   mkdir -p seeds
 *   find ../shared/testdata/parquet-testing -name '*.parquet' -size -200k -exec cp {} seeds \;
 *   build-fuzz/fuzz_reader -max_len=65536 -rss_limit_mb=1024 seeds
 * (seeds larger than max_len are truncated by libFuzzer, which is itself a useful mutation).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "format/parquet/reader.h"

/* Reads everything `opts` selects, validating every batch. */
static void read_all(cp_fs *fs, const char *path, const cp_pq_reader_options *opts) {
  paimon_error err;
  cp_pq_reader *r;
  if (cp_pq_reader_open(&r, fs, path, opts, &err) != 0) return;
  struct ArrowSchema schema;
  if (cp_pq_reader_schema(r, &schema, &err) != 0) {
    cp_pq_reader_free(r);
    return;
  }
  int64_t limit = opts->batch_size, rows = 0, max_rows = cp_pq_reader_selected_rows(r);
  for (;;) {
    struct ArrowArray batch;
    bool eof;
    if (cp_pq_reader_next(r, &batch, NULL, &eof, &err) != 0 || eof) break;
    cp_array_view v;
    if (cp_array_view_init(&v, &schema, &batch, &err) != 0) __builtin_trap();
    cp_array_view_reset(&v);
    if (batch.length <= 0 || batch.length > limit) __builtin_trap();
    rows += batch.length;
    if (rows > max_rows) __builtin_trap(); /* more rows than the selection holds */
    cp_array_release(&batch);
    /* A footer may claim ~2^63 rows that cost nothing to produce (no columns, or one RLE run per
     * page); a few million rows are enough to exercise everything. */
    if (rows > (1 << 24)) break;
  }
  cp_schema_release(&schema);
  cp_pq_reader_free(r);
}

static void read_stats(cp_fs *fs, const char *path) {
  paimon_error err;
  cp_pq_reader *r;
  if (cp_pq_reader_open(&r, fs, path, NULL, &err) != 0) return;
  const cp_pq_footer *ft = cp_pq_reader_footer(r);
  cp_type *types[4] = {NULL, NULL, NULL, NULL};
  cp_type_new(&types[0], CP_TYPE_BIGINT, true, &err);
  cp_type_new_sized(&types[1], CP_TYPE_VARCHAR, CP_TYPE_MAX_LENGTH, true, &err);
  cp_type_new_decimal(&types[2], 38, 10, true, &err);
  cp_type_new_precision(&types[3], CP_TYPE_TIMESTAMP, 6, true, &err);
  for (uint32_t g = 0; g < ft->meta.num_row_groups && g < 16; g++)
    for (uint32_t c = 0; c < ft->schema.num_leaves && c < 64; c++)
      for (int t = 0; t < 4; t++) {
        cp_pq_chunk_stats st;
        if (types[t]) (void)cp_pq_chunk_stats_get(ft, (int32_t)g, (int32_t)c, types[t], &st, &err);
      }
  for (int t = 0; t < 4; t++) cp_type_free(types[t]);
  cp_pq_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int fd = memfd_create("fuzz_reader", 0);
  if (fd < 0) return 0;
  size_t done = 0;
  while (done < size) {
    ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) break;
    done += (size_t)n;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  paimon_error err;
  cp_fs *fs;
  if (done == size && cp_fs_local_new(&fs, &err) == 0) {
    cp_pq_reader_options o;
    memset(&o, 0, sizeof o);
    o.limits.max_page_size = 4 << 20;
    o.limits.max_page_values = 1 << 20;
    o.batch_size = 1000;
    read_all(fs, path, &o);
    cp_pq_row_range ranges[] = {{1, 3}, {5, 1 << 20}};
    o.row_ranges = ranges;
    o.num_row_ranges = 2;
    o.batch_size = 3;
    read_all(fs, path, &o);
    read_stats(fs, path);
    cp_fs_free(fs);
  }
  close(fd);
  return 0;
}
