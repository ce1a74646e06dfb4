/*
 * libFuzzer harness for cp_array_view_init (src/arrow/array.h): arrays imported from other
 * producers are untrusted, so validation must reject every malformed layout, and every operation
 * on a view that passed validation must stay inside the buffers.
 *
 * The arrays are built as owned arrays (cp_array_init / cp_array_alloc_buffer), whose buffer sizes
 * are known to the validator, from the input bytes: byte 0 picks a schema from a fixed list; then,
 * for each node in pre-order, 3 bytes give length, offset (low 4 bits) and null count (0xff = -1),
 * and for each buffer one size byte (0xff = NULL buffer) followed by that many content bytes.
 * Views that validate are printed, hashed, compared, sorted, taken, filtered and cast.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/print.h"
#include "arrow/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
  const uint8_t *p;
  size_t left;
} input;

static uint8_t next_byte(input *in) {
  if (!in->left) return 0;
  in->left--;
  return *in->p++;
}

/* Schemas as (format, child count) in pre-order; names are irrelevant. */
static const char *const specs[][6] = {{"i"},
                                       {"l"},
                                       {"b"},
                                       {"u"},
                                       {"U"},
                                       {"z"},
                                       {"w:3"},
                                       {"d:10,2"},
                                       {"g"},
                                       {"tsu:"},
                                       {"n"},
                                       {"+l", "i"},
                                       {"+L", "u"},
                                       {"+w:2", "c"},
                                       {"+s", "i", "u"},
                                       {"+m", "+s", "u", "i"},
                                       {"+l", "+s", "b", "z"}};

static int build_schema(struct ArrowSchema *s, const char *const *fmts, int *pos) {
  const char *f = fmts[(*pos)++];
  int64_t nc = f[0] != '+' ? 0 : strcmp(f, "+s") == 0 ? 2 : 1;
  if (cp_schema_init(s, f, "c", ARROW_FLAG_NULLABLE, nc, NULL) != 0) return -1;
  for (int64_t i = 0; i < nc; i++)
    if (!fmts[*pos] || build_schema(s->children[i], fmts, pos) != 0) return -1;
  return 0;
}

static int build_array(struct ArrowArray *a, const struct ArrowSchema *s, input *in) {
  cp_arrow_type_info t;
  if (cp_arrow_parse_format(s->format, &t, NULL) != 0) return -1;
  int nb = cp_arrow_type_n_buffers(t.id);
  if (cp_array_init(a, nb, s->n_children, NULL) != 0) return -1;
  a->length = next_byte(in);
  a->offset = next_byte(in) & 15;
  uint8_t nc = next_byte(in);
  a->null_count = nc == 0xff ? -1 : nc;
  for (int i = 0; i < nb; i++) {
    uint8_t sz = next_byte(in);
    if (sz == 0xff) continue;
    void *buf;
    if (cp_array_alloc_buffer(a, i, sz, &buf, NULL) != 0) return -1;
    size_t take = sz < in->left ? sz : in->left;
    memcpy(buf, in->p, take);
    in->p += take;
    in->left -= take;
  }
  for (int64_t i = 0; i < s->n_children; i++)
    if (build_array(a->children[i], s->children[i], in) != 0) return -1;
  return 0;
}

static void exercise(const struct ArrowSchema *s, const cp_array_view *v) {
  cp_buf text = CP_BUF_INIT;
  int64_t n = v->length;
  for (int64_t i = 0; i < n; i++) {
    cp_print_value(&text, v, i, NULL);
    (void)cp_hash_value(v, i, 1);
    if (!cp_rows_equal(v, i, v, i)) abort(); /* a value always equals itself */
    if (cp_compare_values(v, i, v, i) != 0) abort();
  }
  cp_buf_free(&text);
  int64_t *idx = malloc((size_t)(n + 1) * sizeof *idx);
  uint8_t *sel = calloc((size_t)(n / 8 + 2), 1);
  if (!idx || !sel) goto done;
  cp_sort_key key = {v, true, false};
  if (cp_sort_indices(&key, 1, idx, NULL) == 0) {
    struct ArrowArray out;
    if (cp_take(v, idx, n, &out, NULL) == 0) out.release(&out);
  }
  for (int64_t i = 0; i < n; i += 3) cp_bit_set(sel, i);
  struct ArrowArray out;
  if (cp_filter(v, sel, 0, &out, NULL) == 0) out.release(&out);
  if (cp_cast(v, s, &out, NULL) == 0) out.release(&out);
done:
  free(idx);
  free(sel);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  input in = {data + 1, size - 1};
  const char *const *fmts = specs[data[0] % (sizeof specs / sizeof specs[0])];
  struct ArrowSchema s;
  struct ArrowArray a;
  int pos = 0;
  memset(&a, 0, sizeof a);
  if (build_schema(&s, fmts, &pos) == 0 && build_array(&a, &s, &in) == 0) {
    cp_array_view v;
    paimon_error err;
    if (cp_array_view_init(&v, &s, &a, &err) == 0) {
      exercise(&s, &v);
      cp_array_view_reset(&v);
    } else if (err.message[0] == 0) {
      abort(); /* every failure explains itself */
    }
  }
  if (a.release) a.release(&a);
  if (s.release) s.release(&s);
  return 0;
}
