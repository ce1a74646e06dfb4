/*
 * libFuzzer harness for the table metadata a reader takes from disk or from another process
 * (spec/format.md §3-§6): snapshot and schema JSON, hint files, manifest files, manifest lists and
 * index manifests (Avro records mapped onto ManifestEntry / ManifestFileMeta /
 * IndexManifestEntry) and serialized BinaryRows (partitions and statistics). Serialized commit
 * messages have their own harness (tests/fuzz/table/fuzz_commit_messages.c).
 *
 * The first input byte picks the parser; the rest is its input. Beyond "no crash, no leak, no
 * unbounded allocation", whatever a parser accepts must survive being written back: writing it
 * and parsing the result must succeed and give the same bytes when written again (a fixed point
 * after one round), which abort()s otherwise.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "format/avro/container.h"
#include "meta/binary_row.h"
#include "meta/manifest.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "types/type_sql.h"

/* Errors are expected and ignored; every call still gets somewhere to put its message. */
static paimon_error E;

static void require(int ok) {
  if (!ok) abort();
}

static void require_same(const cp_buf *a, const cp_buf *b) {
  require(a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0));
}

/* Parse, write, parse, write: the two writes must be the same bytes. */
#define JSON_ROUND_TRIP(TYPE, parse, write, destroy, name)                                         \
  do {                                                                                             \
    TYPE *got = NULL, *again = NULL;                                                               \
    cp_buf w1 = CP_BUF_INIT, w2 = CP_BUF_INIT;                                                     \
    if (parse(data, size, name, &got, &E) == 0) {                                                  \
      require(write(got, &w1, &E) == 0);                                                           \
      require(parse(w1.data, w1.len, name, &again, &E) == 0);                                      \
      require(write(again, &w2, &E) == 0);                                                         \
      require_same(&w1, &w2);                                                                      \
    }                                                                                              \
    destroy(got);                                                                                  \
    destroy(again);                                                                                \
    cp_buf_free(&w1);                                                                              \
    cp_buf_free(&w2);                                                                              \
  } while (0)

static void snapshot(const uint8_t *data, size_t size) {
  JSON_ROUND_TRIP(cp_snapshot, cp_snapshot_parse, cp_snapshot_write, cp_snapshot_free,
                  "snapshot-fuzz");
}

static void table_schema(const uint8_t *data, size_t size) {
  JSON_ROUND_TRIP(cp_table_schema, cp_table_schema_parse, cp_table_schema_write,
                  cp_table_schema_free, "schema-fuzz");
}

/* Zeroes every copy of the container's sync marker, which a writer draws at random per file. */
static void clear_sync(cp_buf *b) {
  cp_avro_reader *r = NULL;
  require(cp_avro_reader_open_mem(&r, "rt", b->data, b->len, NULL, &E) == 0);
  uint8_t sync[16];
  memcpy(sync, cp_avro_reader_sync(r), sizeof sync);
  cp_avro_reader_free(r);
  for (size_t i = 0; i + sizeof sync <= b->len; i++)
    if (memcmp(b->data + i, sync, sizeof sync) == 0) memset(b->data + i, 0, sizeof sync);
}

/* Decode, encode (null codec: the fuzzer's bytes are not worth compressing), decode, encode; the
 * two encodings must agree but for their sync markers. */
#define MANIFEST_ROUND_TRIP(VEC, decode, encode, name)                                             \
  do {                                                                                             \
    cp_arena arena = CP_ARENA_INIT;                                                                \
    VEC got = {0}, back = {0};                                                                     \
    cp_buf w1 = CP_BUF_INIT, w2 = CP_BUF_INIT;                                                     \
    const cp_manifest_write_options opts = {.codec = "null"};                                      \
    if (decode(name, data, size, &arena, &got, &E) == 0) {                                       \
      require(encode(got.items, got.n, &opts, &w1, &E) == 0);                                    \
      require(decode(name, w1.data, w1.len, &arena, &back, &E) == 0);                            \
      require(back.n == got.n);                                                                    \
      require(encode(back.items, back.n, &opts, &w2, &E) == 0);                                  \
      clear_sync(&w1);                                                                             \
      clear_sync(&w2);                                                                             \
      require_same(&w1, &w2);                                                                      \
    }                                                                                              \
    VEC##_free(&got);                                                                              \
    VEC##_free(&back);                                                                             \
    cp_buf_free(&w1);                                                                              \
    cp_buf_free(&w2);                                                                              \
    cp_arena_free(&arena);                                                                         \
  } while (0)

static void manifest(const uint8_t *data, size_t size) {
  MANIFEST_ROUND_TRIP(cp_entry_vec, cp_manifest_file_decode, cp_manifest_file_encode,
                      "manifest-fuzz-0");
}

static void manifest_list(const uint8_t *data, size_t size) {
  MANIFEST_ROUND_TRIP(cp_manifest_meta_vec, cp_manifest_list_decode, cp_manifest_list_encode,
                      "manifest-list-fuzz-0");
}

static void index_manifest(const uint8_t *data, size_t size) {
  MANIFEST_ROUND_TRIP(cp_index_entry_vec, cp_index_manifest_decode, cp_index_manifest_encode,
                      "index-manifest-fuzz-0");
}

/* Field types a row may hold: fixed-width ones, the variable-length ones, and the compact and
 * non-compact forms of decimals and timestamps (spec/format.md §5). */
static const char *const ROW_TYPES[] = {
    "BOOLEAN",       "TINYINT",       "SMALLINT",     "INT",          "BIGINT",
    "FLOAT",         "DOUBLE",        "STRING",       "BYTES",        "DECIMAL(10, 2)",
    "DECIMAL(38, 4)", "DATE",         "TIMESTAMP(3)", "TIMESTAMP(9)", "TIMESTAMP_LTZ(6)",
    "TIME",          "CHAR(3)",       "VARBINARY(5)",
};
#define N_ROW_TYPES (sizeof ROW_TYPES / sizeof ROW_TYPES[0])
#define MAX_ARITY 64

/* The row's arity comes from its bytes; field i gets ROW_TYPES[(i + shift) % N] so that every
 * type meets every offset. */
static void binary_row(const uint8_t *data, size_t size) {
  if (size < 1) return;
  const size_t shift = data[0];
  data++, size--;
  int32_t arity = 0;
  if (cp_binary_row_arity(data, size, &arity, &E) != 0 || arity < 0 || arity > MAX_ARITY) return;
  cp_type *types[MAX_ARITY] = {0};
  cp_datum got[MAX_ARITY], back[MAX_ARITY];
  cp_buf w1 = CP_BUF_INIT, w2 = CP_BUF_INIT;
  for (int32_t i = 0; i < arity; i++)
    require(cp_type_parse(ROW_TYPES[((size_t)i + shift) % N_ROW_TYPES], &types[i], &E) == 0);
  const cp_type *const *ts = (const cp_type *const *)types;
  if (cp_binary_row_read(data, size, ts, (size_t)arity, got, &E) == 0) {
    require(cp_binary_row_write(ts, got, (size_t)arity, &w1, &E) == 0);
    require(cp_binary_row_read(w1.data, w1.len, ts, (size_t)arity, back, &E) == 0);
    require(cp_binary_row_write(ts, back, (size_t)arity, &w2, &E) == 0);
    require_same(&w1, &w2);
  }
  for (int32_t i = 0; i < arity; i++) cp_type_free(types[i]);
  cp_buf_free(&w1);
  cp_buf_free(&w2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const uint8_t mode = data[0];
  data++, size--;
  int64_t id;
  switch (mode % 7) {
    case 0: snapshot(data, size); break;
    case 1: table_schema(data, size); break;
    case 2: (void)cp_hint_parse(data, size, &id); break;
    case 3: manifest(data, size); break;
    case 4: manifest_list(data, size); break;
    case 5: index_manifest(data, size); break;
    default: binary_row(data, size); break;
  }
  return 0;
}
