/*
 * pyarrow reads what our encoders write. Where our bytes legitimately differ from pyarrow's — the
 * RLE-hybrid run choices in levels, dictionary indices and RLE booleans, 128-value INT64 delta
 * blocks — byte comparison (test_encoding_pyarrow.c) proves nothing, so this test encodes pages,
 * hands them to gen_encoding_vectors.py --read (which wraps them in a minimal Parquet file with a
 * hand-written footer and prints what pyarrow reads, one JSON value per line) and compares with
 * the values we encoded. Needs the project's .venv (scripts/setup.sh); fails if it is missing.
 */
#include <stdarg.h>
#include <unistd.h>

#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

enum { T_BOOLEAN = 0, T_INT32 = 1, T_INT64 = 2, T_BYTE_ARRAY = 6 };
enum { E_PLAIN = 0, E_RLE = 3, E_DELTA_BINARY_PACKED = 5, E_RLE_DICTIONARY = 8 };

typedef struct {
  cp_buf blob;     /* page bodies back to back */
  cp_buf pages;    /* JSON objects describing them */
  cp_buf expected; /* one JSON value per row, as Python's json.dumps writes it */
} interop_case;

static void add(cp_buf *b, const char *fmt, ...) PAIMON_PRINTF(2, 3);
static void add(cp_buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (cp_buf_append(b, tmp, (size_t)n, NULL) != 0) exit(2);
}

/* Records one page: kind "v1", "v2" or "dict". */
static void add_page(interop_case *c, const char *kind, const cp_buf *body, size_t num_values,
                     int encoding, size_t num_nulls, size_t num_rows, size_t def_len) {
  add(&c->pages,
      "%s{\"kind\":\"%s\",\"offset\":%zu,\"length\":%zu,\"num_values\":%zu,\"encoding\":%d,"
      "\"num_nulls\":%zu,\"num_rows\":%zu,\"def_len\":%zu,\"rep_len\":0}",
      c->pages.len ? "," : "", kind, c->blob.len, body->len, num_values, encoding, num_nulls,
      num_rows, def_len);
  if (cp_buf_append(&c->blob, body->data, body->len, NULL) != 0) exit(2);
}

/* Writes the case, runs the reader, compares its output with c->expected line by line. */
static void run_case(interop_case *c, const char *name, size_t rows, int type, int repetition,
                     int converted, int is_list) {
  const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char bin[512], desc[600], cmd[2048];
  snprintf(bin, sizeof bin, "%s/cp_pqenc_%s_%d.bin", tmpdir, name, (int)getpid());
  snprintf(desc, sizeof desc, "%s.json", bin);
  FILE *f = fopen(bin, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fwrite(c->blob.data, 1, c->blob.len, f);
  fclose(f);
  f = fopen(desc, "w");
  fprintf(f,
          "{\"rows\":%zu,\"list\":%s,\"file\":\"%s\",\"leaf\":{\"type\":%d,\"repetition\":%d,"
          "\"converted\":%s},\"pages\":[%.*s]}",
          rows, is_list ? "true" : "false", bin, type, repetition,
          converted < 0 ? "null" : (converted == 0 ? "0" : "3"), (int)c->pages.len,
          (const char *)c->pages.data);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "'%s/.venv/bin/python' '%s/tests/unit/parquet/gen_encoding_vectors.py' --read '%s'",
           CPAIMON_SOURCE_DIR, CPAIMON_SOURCE_DIR, desc);
  FILE *p = popen(cmd, "r");
  CHECK(p != NULL);
  cp_buf got = CP_BUF_INIT;
  char chunk[65536];
  size_t n;
  while (p && (n = fread(chunk, 1, sizeof chunk, p)) > 0) cp_buf_append(&got, chunk, n, NULL);
  int status = p ? pclose(p) : -1;
  CHECK_INT(status, 0);
  size_t i = 0, line = 1;
  while (i < got.len && i < c->expected.len && got.data[i] == c->expected.data[i])
    line += got.data[i++] == '\n';
  cp_test_checks++;
  if (i != got.len || got.len != c->expected.len) {
    cp_test_failures++;
    fprintf(stderr,
            "%s: pyarrow output differs from the encoded values at line %zu (%zu vs %zu "
            "bytes)\n",
            name, line, got.len, c->expected.len);
  }
  remove(bin);
  remove(desc);
  cp_buf_free(&got);
  cp_buf_free(&c->blob);
  cp_buf_free(&c->pages);
  cp_buf_free(&c->expected);
}

/* Optional INT32, v1 page: def levels with long runs, scattered nulls and alternation. */
static void test_optional_levels_v1(void) {
  const size_t rows = 5000;
  test_rng r = {41};
  int16_t *def = xmalloc(rows * sizeof *def);
  int32_t *vals = xmalloc(rows * sizeof *vals);
  interop_case c = {CP_BUF_INIT, CP_BUF_INIT, CP_BUF_INIT};
  size_t nv = 0;
  for (size_t i = 0; i < rows; i++) {
    int valid = i < 100 ? 1 : i < 150 ? 0 : i < 3000 ? rng_below(&r, 10) >= 3 : (int)(i % 2);
    def[i] = (int16_t)valid;
    if (valid) {
      vals[nv++] = (int32_t)i * 3 - 7;
      add(&c.expected, "%d\n", (int)i * 3 - 7);
    } else {
      add(&c.expected, "null\n");
    }
  }
  paimon_error err;
  cp_buf body = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&body, def, rows, 1, 1, &err), &err);
  CHECK_OK(cp_pq_plain_encode_fixed(&body, vals, nv, 4, &err), &err);
  add_page(&c, "v1", &body, rows, E_PLAIN, 0, 0, 0);
  run_case(&c, "optional_v1", rows, T_INT32, 1, -1, 0);
  cp_buf_free(&body);
  free(def);
  free(vals);
}

/* Optional list<optional int32>, v1 page: repetition and definition levels (§3.2 rules). */
static void test_list_levels(void) {
  const size_t rows = 2000;
  test_rng r = {43};
  int16_t *rep = xmalloc(rows * 5 * sizeof *rep), *def = xmalloc(rows * 5 * sizeof *def);
  int32_t *vals = xmalloc(rows * 5 * sizeof *vals);
  interop_case c = {CP_BUF_INIT, CP_BUF_INIT, CP_BUF_INIT};
  size_t ne = 0, nv = 0;
  for (size_t row = 0; row < rows; row++) {
    uint64_t k = rng_below(&r, 10);
    if (k == 0) { /* null list */
      rep[ne] = 0, def[ne++] = 0;
      add(&c.expected, "null\n");
      continue;
    }
    if (k == 1) { /* empty list */
      rep[ne] = 0, def[ne++] = 1;
      add(&c.expected, "[]\n");
      continue;
    }
    size_t len = 1 + rng_below(&r, 4);
    add(&c.expected, "[");
    for (size_t j = 0; j < len; j++) {
      rep[ne] = j ? 1 : 0;
      if (rng_below(&r, 5) == 0) {
        def[ne++] = 2;
        add(&c.expected, "%snull", j ? "," : "");
      } else {
        def[ne++] = 3;
        vals[nv] = (int32_t)rng_below(&r, 100);
        add(&c.expected, "%s%d", j ? "," : "", vals[nv++]);
      }
    }
    add(&c.expected, "]\n");
  }
  paimon_error err;
  cp_buf body = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&body, rep, ne, 1, 1, &err), &err);
  CHECK_OK(cp_pq_levels_encode(&body, def, ne, 3, 1, &err), &err);
  CHECK_OK(cp_pq_plain_encode_fixed(&body, vals, nv, 4, &err), &err);
  add_page(&c, "v1", &body, ne, E_PLAIN, 0, 0, 0);
  run_case(&c, "list_v1", rows, T_INT32, 1, -1, 1);
  cp_buf_free(&body);
  free(rep);
  free(def);
  free(vals);
}

/* Required STRING through our dictionary builder: PLAIN dictionary page, then RLE_DICTIONARY
 * indices at bit width 0 (one entry), 9 (300) and 17 (70000). */
static void dictionary_case(size_t rows, size_t distinct, const char *name) {
  test_rng r = {47 + distinct};
  interop_case c = {CP_BUF_INIT, CP_BUF_INIT, CP_BUF_INIT};
  cp_buf data = CP_BUF_INIT;
  int32_t *offs = xmalloc((rows + 1) * sizeof *offs), *idx = xmalloc(rows * sizeof *idx);
  offs[0] = 0;
  for (size_t i = 0; i < rows; i++) {
    /* The first `distinct` rows visit every value once, so the dictionary reaches its size. */
    size_t k = i < distinct ? i : rng_below(&r, distinct);
    add(&data, "s%zu", k * 7919 % 1000003);
    offs[i + 1] = (int32_t)data.len;
    add(&c.expected, "\"%.*s\"\n", (int)(offs[i + 1] - offs[i]), (const char *)data.data + offs[i]);
  }
  paimon_error err;
  cp_pq_dict_builder *b;
  CHECK_OK(cp_pq_dict_builder_new(&b, 0, &err), &err);
  CHECK_OK(cp_pq_dict_builder_put_binary(b, idx, offs, data.data, rows, &err), &err);
  CHECK_INT(cp_pq_dict_builder_count(b), distinct);
  cp_buf dict = CP_BUF_INIT, body = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &dict, &err), &err);
  CHECK_OK(cp_pq_dict_indices_encode(&body, idx, rows, distinct, &err), &err);
  add_page(&c, "dict", &dict, distinct, E_PLAIN, 0, 0, 0);
  add_page(&c, "v1", &body, rows, E_RLE_DICTIONARY, 0, 0, 0);
  run_case(&c, name, rows, T_BYTE_ARRAY, 0, 0, 0);
  cp_pq_dict_builder_free(b);
  cp_buf_free(&dict);
  cp_buf_free(&body);
  cp_buf_free(&data);
  free(offs);
  free(idx);
}

static void test_dictionary(void) {
  dictionary_case(1000, 1, "dict1");
  dictionary_case(3000, 300, "dict300");
  dictionary_case(80000, 70000, "dict70000");
}

/* Optional BOOLEAN in a v2 page: raw def levels (length in the header), RLE values. */
static void test_rle_booleans_v2(void) {
  const size_t rows = 3000;
  test_rng r = {53};
  int16_t *def = xmalloc(rows * sizeof *def);
  uint8_t *vals = xmalloc(rows);
  interop_case c = {CP_BUF_INIT, CP_BUF_INIT, CP_BUF_INIT};
  size_t nv = 0;
  for (size_t i = 0; i < rows; i++) {
    def[i] = rng_below(&r, 8) != 0;
    if (!def[i]) {
      add(&c.expected, "null\n");
      continue;
    }
    int v = i < 1000 ? (int)((i / 37) % 2) : (int)rng_below(&r, 2);
    vals[nv++] = (uint8_t)v;
    add(&c.expected, "%s\n", v ? "true" : "false");
  }
  paimon_error err;
  cp_buf body = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&body, def, rows, 1, 0, &err), &err);
  size_t def_len = body.len;
  CHECK_OK(cp_pq_rle_bool_encode(&body, vals, nv, &err), &err);
  add_page(&c, "v2", &body, rows, E_RLE, rows - nv, rows, def_len);
  run_case(&c, "rle_bool_v2", rows, T_BOOLEAN, 1, -1, 0);
  cp_buf_free(&body);
  free(def);
  free(vals);
}

/* Required INT64 DELTA_BINARY_PACKED with our 128-value blocks and overflowing deltas; PLAIN
 * booleans written in pieces. */
static void test_delta_and_plain_bool(void) {
  const size_t rows = 1000;
  test_rng r = {59};
  int64_t *v = xmalloc(rows * sizeof *v);
  interop_case c = {CP_BUF_INIT, CP_BUF_INIT, CP_BUF_INIT};
  for (size_t i = 0; i < rows; i++) {
    v[i] = i % 5 == 0 ? INT64_MIN : i % 5 == 1 ? INT64_MAX : (int64_t)rng_next(&r) / 1000;
    add(&c.expected, "%lld\n", (long long)v[i]);
  }
  paimon_error err;
  cp_buf body = CP_BUF_INIT;
  CHECK_OK(cp_pq_delta_encode_i64(&body, v, rows, &err), &err);
  add_page(&c, "v1", &body, rows, E_DELTA_BINARY_PACKED, 0, 0, 0);
  run_case(&c, "delta64", rows, T_INT64, 0, -1, 0);

  uint8_t b[100];
  for (size_t i = 0; i < 100; i++) {
    b[i] = rng_below(&r, 3) == 0;
    add(&c.expected, "%s\n", b[i] ? "true" : "false");
  }
  body.len = 0;
  size_t bits = 0;
  CHECK_OK(cp_pq_plain_encode_bool(&body, &bits, b, 13, &err), &err);
  CHECK_OK(cp_pq_plain_encode_bool(&body, &bits, b + 13, 80, &err), &err);
  CHECK_OK(cp_pq_plain_encode_bool(&body, &bits, b + 93, 7, &err), &err);
  add_page(&c, "v1", &body, 100, E_PLAIN, 0, 0, 0);
  run_case(&c, "plain_bool", 100, T_BOOLEAN, 0, -1, 0);
  cp_buf_free(&body);
  free(v);
}

int main(void) {
  RUN(test_optional_levels_v1);
  RUN(test_list_levels);
  RUN(test_dictionary);
  RUN(test_rle_booleans_v2);
  RUN(test_delta_and_plain_bool);
  TEST_MAIN_END();
}
