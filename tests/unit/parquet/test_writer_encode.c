/*
 * Tests for the writer's specialised encoders (writer_encode.c; spec/parquet.md §2.7): the
 * dictionary-index section decodes back through encoding.h's decoder and matches encoding.h's own
 * encoder byte for byte on runs, pads, widths 0..20 and long literals.
 */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/encoding.h"
#include "format/parquet/writer_internal.h"
#include "test.h"

static void check_indices(const int32_t *v, size_t n, size_t dict_count) {
  paimon_error err;
  cp_buf ours = CP_BUF_INIT, ref = CP_BUF_INIT;
  CHECK_OK(cp_pq_encode_dict_indices(&ours, v, n, dict_count, &err), &err);
  CHECK_OK(cp_pq_dict_indices_encode(&ref, v, n, dict_count, &err), &err);
  CHECK(ours.len == ref.len && (ours.len == 0 || memcmp(ours.data, ref.data, ours.len) == 0));
  int32_t *back = malloc((n + 1) * sizeof *back);
  cp_pq_rle_decoder d;
  CHECK_OK(cp_pq_dict_indices_init(&d, ours.data, ours.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, back, n, dict_count, &err), &err);
  CHECK(n == 0 || memcmp(back, v, n * sizeof *v) == 0);
  free(back);
  cp_buf_free(&ours);
  cp_buf_free(&ref);
}

static void test_dict_indices(void) {
  enum { N = 5000 };
  int32_t *v = malloc(N * sizeof *v);
  unsigned seed = 7;
  /* Every shape of run: short literals, runs right after odd literal counts, long runs. */
  for (int dict = 1; dict <= 1 << 20; dict = dict < 16 ? dict + 1 : dict * 4) {
    for (int i = 0; i < N;) {
      seed = seed * 1103515245u + 12345u;
      int len = (int)(seed >> 16) % 23 + 1, val = (int)((seed >> 8) % (unsigned)dict);
      for (int k = 0; k < len && i < N; k++, i++) v[i] = (seed & 1) ? val : (int)((i * 7u) % dict);
    }
    for (size_t n = 0; n < 40; n++) check_indices(v, n, (size_t)dict);
    check_indices(v, N, (size_t)dict);
  }
  /* All equal; all distinct. */
  for (int i = 0; i < N; i++) v[i] = 3;
  check_indices(v, N, 4);
  for (int i = 0; i < N; i++) v[i] = i;
  check_indices(v, N, N);
  free(v);
}

int main(void) {
  RUN(test_dict_indices);
  TEST_MAIN_END();
}
