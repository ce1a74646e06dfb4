/*
 * libFuzzer harness for the Avro layer (src/format/avro): arbitrary bytes as an object container
 * file, read entirely in memory (cp_avro_reader_open_mem, no cp_fs), every record printed as JSON
 * and re-encoded with the file's schema; the same bytes read through a resolver into Paimon's
 * ManifestFileMeta shape; and the bytes decoded as raw datums of that schema. Nothing may crash,
 * leak, or allocate beyond the small limits set here.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/avro/container.h"

/* A ManifestFileMeta-like reader schema (spec/format.md §4.2). */
static const char reader_schema_text[] =
    "{\"type\":\"record\",\"name\":\"ManifestFileMeta\",\"fields\":["
    "{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
    "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
    "{\"name\":\"_PARTITION_STATS\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"S\","
    "\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":"
    "[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}],"
    "\"default\":null},"
    "{\"name\":\"_TAGS\",\"type\":{\"type\":\"map\",\"values\":\"double\"},\"default\":{}},"
    "{\"name\":\"_MIN_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}]}";

static void read_container(const uint8_t *data, size_t size, const cp_avro_node *reader_schema) {
  cp_avro_reader_options opts = {.reader_schema = reader_schema,
                                 .max_block_bytes = 1 << 20,
                                 .limits = {.max_depth = 32, .max_zero_width_items = 1 << 16}};
  cp_avro_reader *r = NULL;
  paimon_error err;
  if (cp_avro_reader_open_mem(&r, "fuzz", data, size, &opts, &err) != 0) return;
  const cp_avro_schema *ws = cp_avro_reader_writer_schema(r);
  cp_buf out = CP_BUF_INIT;
  for (int i = 0; i < 10000; i++) {
    const cp_avro_value *rec;
    if (cp_avro_reader_next(r, &rec, &err) != 0 || !rec) break;
    cp_buf_clear(&out);
    cp_avro_value_to_json(cp_avro_reader_record_schema(r), rec, &out, &err);
    if (!reader_schema) {
      cp_buf_clear(&out);
      cp_avro_encode(cp_avro_schema_root(ws), rec, &out, &err);
    }
  }
  cp_buf_free(&out);
  cp_avro_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cp_avro_schema *rs = NULL;
  if (cp_avro_schema_parse(&rs, reader_schema_text, sizeof reader_schema_text - 1, NULL, NULL))
    return 0;
  read_container(data, size, NULL);
  read_container(data, size, cp_avro_schema_root(rs));

  cp_arena arena = CP_ARENA_INIT;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, data, size);
  cp_avro_limits limits = {.max_depth = 32, .max_zero_width_items = 1 << 16};
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &arena, &limits);
  cp_avro_value v;
  for (int i = 0; i < 1000 && cp_avro_cursor_remaining(&c) > 0; i++)
    if (cp_avro_decode(&d, cp_avro_schema_root(rs), &v, NULL) != 0) break;
  cp_arena_free(&arena);
  cp_avro_schema_free(rs);
  return 0;
}
