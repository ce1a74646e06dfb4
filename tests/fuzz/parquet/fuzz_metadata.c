/*
 * libFuzzer harness for Parquet metadata (src/format/parquet/thrift.c, metadata.c, footer.c;
 * spec/parquet.md §2.1, §2.6): arbitrary bytes decoded as a FileMetaData (then the schema tree
 * and footer validation on it), as a whole file through cp_pq_footer_parse, and as a PageHeader.
 * Nothing may crash, leak or allocate beyond a small multiple of the input. Whatever decodes must
 * re-encode stably: encode(decode(encode(decode(x)))) == encode(decode(x)), otherwise the harness
 * traps — a field the decoder keeps but the encoder loses (or the reverse) is a bug.
 *
 * Seed corpus (not committed): footers and whole small files from parquet-testing, e.g.
 *   mkdir -p seeds
 *   find ../shared/testdata/parquet-testing -name '*.parquet' | while read -r f; do
 *     b=$(basename "$f"); cp "$f" "seeds/file_$b"
 *     python3 -c 'import sys, struct; d = open(sys.argv[1], "rb").read();
 *       n = struct.unpack("<I", d[-8:-4])[0]; open(sys.argv[2], "wb").write(d[-8 - n:-8])' \
 *       "$f" "seeds/footer_$b"
 *   done
 * (files over ~1 MB can be left out; libFuzzer's default -max_len is 4096 anyway). Page-header
 * seeds: the bytes at any ColumnMetaData.data_page_offset. Run: build-fuzz/fuzz_metadata seeds.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/parquet/footer.h"
#include "format/parquet/metadata.h"

static void check_meta_round_trip(const cp_pq_file_meta *m) {
  paimon_error err;
  cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
  cp_pq_file_meta again;
  /* Encoding may refuse what decoding tolerated (e.g. an unknown TimeUnit); that is fine. */
  if (cp_pq_file_meta_encode(m, &a, &err) == 0) {
    if (cp_pq_file_meta_decode(&again, a.data, a.len, 0, &err) != 0) __builtin_trap();
    if (cp_pq_file_meta_encode(&again, &b, &err) != 0) __builtin_trap();
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) __builtin_trap();
    cp_pq_file_meta_free(&again);
  }
  cp_buf_free(&a);
  cp_buf_free(&b);
}

static void fuzz_file_meta(const uint8_t *data, size_t size) {
  paimon_error err;
  cp_pq_file_meta m;
  if (cp_pq_file_meta_decode(&m, data, size, 0, &err) != 0) return;
  cp_pq_schema s;
  if (cp_pq_schema_build(&s, m.schema, m.num_schema, &err) == 0) {
    for (uint32_t i = 0; i < s.num_leaves; i++)
      if (s.leaves[i]->leaf_index != (int32_t)i) __builtin_trap();
    cp_pq_file_meta_validate(&m, &s, size, "fuzz", &err);
    cp_pq_schema_free(&s);
  }
  check_meta_round_trip(&m);
  cp_pq_file_meta_free(&m);
}

static void fuzz_page_header(const uint8_t *data, size_t size) {
  paimon_error err;
  cp_pq_page_header h, again;
  size_t len = 0, len2 = 0;
  bool truncated = false;
  if (cp_pq_page_header_decode(&h, data, size, 0, &len, &truncated, &err) != 0) return;
  if (len == 0 || len > size) __builtin_trap();
  cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
  if (cp_pq_page_header_encode(&h, &a, &err) == 0) {
    if (cp_pq_page_header_decode(&again, a.data, a.len, 0, &len2, NULL, &err) != 0)
      __builtin_trap();
    if (len2 != a.len || cp_pq_page_header_encode(&again, &b, &err) != 0) __builtin_trap();
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) __builtin_trap();
  }
  cp_buf_free(&a);
  cp_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  paimon_error err;
  fuzz_file_meta(data, size);
  cp_pq_footer ft;
  if (cp_pq_footer_parse(data, size, "fuzz.parquet", &ft, &err) == 0) cp_pq_footer_free(&ft);
  fuzz_page_header(data, size);
  return 0;
}
