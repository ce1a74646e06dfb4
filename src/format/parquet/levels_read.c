/*
 * Record assembly from levels (levels_read.h; spec/parquet.md §3.1–§3.3).
 *
 * One pass over a representative leaf's levels gives a node its slots, validity and (for lists and
 * maps) offsets; the pass counts the child's slots at the same time, so the offsets need no second
 * walk. Columns without repetition take a shorter loop that looks at definition levels only.
 */
#include "format/parquet/levels_read.h"

#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/bitmap.h"
#include "arrow/ops.h"
#include "base/status.h"

typedef struct slots {
  int64_t n;
  int64_t null_count;
  uint8_t *validity; /* malloc'd, NULL when no slot is null */
  int32_t *offsets;  /* lists and maps: n + 1 entries, malloc'd */
  int64_t items;     /* lists and maps: child slots */
} slots;

static void slots_free(slots *s) {
  free(s->validity);
  free(s->offsets);
  s->validity = NULL;
  s->offsets = NULL;
}

/* Validity of n entries that are all slots: bit e = def[e] >= t, eight entries per output byte.
 * Levels are 0..32767, so lane + (0x8000 - t) has its top bit set iff lane >= t, with no carry
 * between 16-bit lanes. Returns the number of set bits. */
static int64_t validity_ge(uint8_t *bits, const int16_t *def, int64_t n, int16_t t) {
  const uint64_t lanes = 0x0001000100010001ULL, top = 0x8000 * lanes;
  const uint64_t k = (uint64_t)(0x8000 - t) * lanes;
  int64_t e = 0, valid = 0;
  for (; e + 8 <= n; e += 8) {
    uint64_t a, b;
    memcpy(&a, def + e, 8);
    memcpy(&b, def + e + 4, 8);
    a = (a + k) & top;
    b = (b + k) & top;
    unsigned byte =
        (unsigned)(((a >> 15) & 1) | ((a >> 30) & 2) | ((a >> 45) & 4) | ((a >> 60) & 8) |
                   ((b >> 11) & 16) | ((b >> 26) & 32) | ((b >> 41) & 64) | ((b >> 56) & 128));
    bits[e >> 3] = (uint8_t)byte;
    valid += (int64_t)((((a >> 15) * lanes) >> 48) + (((b >> 15) * lanes) >> 48));
  }
  for (; e < n; e++)
    if (def[e] >= t) {
      cp_bit_set(bits, e);
      valid++;
    }
  return valid;
}

/* Slots of `node` over the levels of `lb`; `child` (lists and maps) also gets its slots counted
 * and the offsets filled. */
static int compute_slots(const cp_pq_rnode *node, const cp_pq_leaf_batch *lb,
                         const cp_pq_rnode *child, slots *s, paimon_error *err) {
  int64_t n = lb->n_entries;
  const int16_t *def = lb->max_def > 0 ? (const int16_t *)lb->def.data : NULL;
  const int16_t *rep = lb->max_rep > 0 ? (const int16_t *)lb->rep.data : NULL;
  memset(s, 0, sizeof *s);
  if (n > INT32_MAX) /* list offsets are int32: one batch holds fewer level entries */
    return paimon_error_set(err, PAIMON_EINVAL,
                            "column '%s': more than 2^31 level entries in one batch; use a "
                            "smaller batch size",
                            node->path);
  s->validity = calloc((size_t)cp_bitmap_bytes(n) + 1, 1);
  if (child) s->offsets = malloc(((size_t)n + 1) * sizeof(int32_t));
  if (!s->validity || (child && !s->offsets)) {
    slots_free(s);
    return CP_ENOMEM(err, "parquet record assembly");
  }
  int64_t k = 0, valid = 0, items = 0;
  const int16_t node_def = node->def, slot_def = node->slot_def, node_rep = node->rep;
  /* A node at the leaf's own repetition depth (any node without repetition below it: a flat
   * column, a list element, a map's key and value) opens a slot for every entry at or above its
   * slot level; repetition levels need not be looked at. */
  bool flat = !child && (!rep || node_rep >= lb->max_rep);
  if (flat && lb->n_present == n) { /* every entry is a value: all slots valid */
    k = valid = n;
  } else if (flat && slot_def == 0) { /* every entry is a slot */
    k = n;
    valid = validity_ge(s->validity, def, n, node_def);
  } else if (flat) {
    for (int64_t e = 0; e < n; e++) {
      int16_t d = def ? def[e] : 0;
      if (d < slot_def) continue;
      if (d >= node_def) {
        cp_bit_set(s->validity, k);
        valid++;
      }
      k++;
    }
  } else {
    /* The general case, branch-free: the offset slot k and the validity byte are written for
     * every entry and kept only when the entry opens a slot (k advances then). */
    const int16_t c_rep = child ? child->rep : 0, c_def = child ? child->slot_def : 0;
    int32_t *offsets = s->offsets;
    uint8_t *bits = s->validity;
    for (int64_t e = 0; e < n; e++) {
      int16_t d = def ? def[e] : 0, r = rep ? rep[e] : 0;
      int open = (r <= node_rep) & (d >= slot_def);
      int ok = open & (d >= node_def);
      if (offsets) offsets[k] = (int32_t)items;
      bits[k >> 3] |= (uint8_t)(ok << (k & 7));
      valid += ok;
      k += open;
      items += (r <= c_rep) & (d >= c_def);
    }
    if (child) s->offsets[k] = (int32_t)items;
  }
  s->n = k;
  s->items = items;
  s->null_count = k - valid;
  if (s->null_count == 0) {
    free(s->validity);
    s->validity = NULL;
  }
  return PAIMON_OK;
}

/* Moves the validity bitmap into buffer 0 of `out`. */
static int put_validity(struct ArrowArray *out, slots *s, paimon_error *err) {
  out->length = s->n;
  out->null_count = s->null_count;
  if (!s->validity) return PAIMON_OK;
  uint8_t *v = s->validity;
  s->validity = NULL;
  return cp_array_adopt_buffer(out, 0, v, cp_bitmap_bytes(out->length), err);
}

/* Hands a batch buffer (the first `size` bytes of `b`) to `out` as buffer i; it comes back to the
 * leaf batch's pool when the array is released. */
static int give(struct ArrowArray *out, int64_t i, const cp_pq_leaf_batch *lb, cp_buf *b,
                int64_t size, paimon_error *err) {
  if (!b->data) CP_RETURN_IF_ERROR(cp_buf_reserve(b, 8, err));
  if (size < 0 || (size_t)size > b->cap)
    return paimon_error_set(err, PAIMON_ESTATE, "buffer of %zu bytes handed out as %lld", b->cap,
                            (long long)size);
  b->len = (size_t)size;
  return cp_array_adopt_pooled(out, i, b, lb->pool, err);
}

/* Spreads dense values over their valid slots. The common widths run branch-free: every slot is
 * written with the next dense value and the source index advances only past valid slots, so a
 * null slot holds a copy of the following value (Arrow leaves null slots' values undefined). The
 * source must have one readable value past its end (see leaf_fixed). */
#define CP_SCATTER(T)                                                                              \
  do {                                                                                             \
    const T *s_ = (const T *)src;                                                                  \
    T *d_ = (T *)dst;                                                                              \
    int64_t j_ = 0;                                                                                \
    for (int64_t i_ = 0; i_ < n; i_++) {                                                           \
      d_[i_] = s_[j_];                                                                             \
      j_ += (validity[i_ >> 3] >> (i_ & 7)) & 1;                                                   \
    }                                                                                              \
  } while (0)

typedef struct pair64 {
  uint64_t lo, hi;
} pair64;

static void scatter_fixed(uint8_t *dst, const uint8_t *src, const uint8_t *validity, int64_t n,
                          size_t w) {
  switch (w) {
  case 1: CP_SCATTER(uint8_t); return;
  case 2: CP_SCATTER(uint16_t); return;
  case 4: CP_SCATTER(uint32_t); return;
  case 8: CP_SCATTER(uint64_t); return;
  case 16: CP_SCATTER(pair64); return;
  default:
    for (int64_t i = 0, j = 0; i < n; i++)
      if (cp_bit_get(validity, i)) memcpy(dst + w * (size_t)i, src + w * (size_t)j++, w);
  }
}

static int leaf_fixed(cp_pq_leaf_batch *lb, slots *s, size_t w, struct ArrowArray *out,
                      paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 2, 0, err));
  /* Spaced values are in their slots already (null ones zeroed). */
  if (!s->validity || lb->spaced) return give(out, 1, lb, &lb->values, s->n * (int64_t)w, err);
  /* the one value of slack scatter_fixed reads past the dense values */
  CP_RETURN_IF_ERROR(cp_buf_append_zeros(&lb->values, w, err));
  void *dst;
  CP_RETURN_IF_ERROR(cp_array_alloc_buffer(out, 1, s->n * (int64_t)w, &dst, err));
  scatter_fixed(dst, lb->values.data, s->validity, s->n, w);
  return PAIMON_OK;
}

static int leaf_bool(cp_pq_leaf_batch *lb, slots *s, struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 2, 0, err));
  void *dst;
  CP_RETURN_IF_ERROR(cp_array_alloc_buffer(out, 1, cp_bitmap_bytes(s->n), &dst, err));
  const uint8_t *src = lb->values.data;
  if (lb->spaced) { /* one 0/1 byte per slot, nulls 0 */
    for (int64_t i = 0; i < s->n; i++)
      ((uint8_t *)dst)[i >> 3] |= (uint8_t)((src[i] != 0) << (i & 7));
    return PAIMON_OK;
  }
  int64_t j = 0;
  for (int64_t i = 0; i < s->n; i++) {
    if (s->validity && !cp_bit_get(s->validity, i)) continue;
    if (src[j++]) cp_bit_set(dst, i);
  }
  return PAIMON_OK;
}

static int leaf_binary(const cp_pq_rnode *node, cp_pq_leaf_batch *lb, slots *s,
                       struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 3, 0, err));
  const int32_t *src = (const int32_t *)lb->values.data;
  bool large = cp_arrow_type_has_large_offsets(node->type.id);
  int64_t data_len = (int64_t)lb->data.len;
  lb->data_hint = lb->data.len;
  lb->data_hint_entries = lb->n_entries;
  if ((!s->validity || lb->spaced) && !large) {
    CP_RETURN_IF_ERROR(give(out, 1, lb, &lb->values, (s->n + 1) * 4, err));
  } else if (lb->spaced) { /* spaced offsets, widened */
    void *dst;
    CP_RETURN_IF_ERROR(cp_array_alloc_buffer(out, 1, (s->n + 1) * 8, &dst, err));
    for (int64_t i = 0; i <= s->n; i++) ((int64_t *)dst)[i] = src[i];
  } else {
    void *dst;
    size_t ow = large ? 8 : 4;
    CP_RETURN_IF_ERROR(cp_array_alloc_buffer(out, 1, (s->n + 1) * (int64_t)ow, &dst, err));
    int64_t j = 0, cur = src[0];
    for (int64_t i = 0; i < s->n; i++) {
      if (!s->validity || cp_bit_get(s->validity, i)) {
        cur = src[j + 1];
        j++;
      }
      if (large)
        ((int64_t *)dst)[i + 1] = cur;
      else
        ((int32_t *)dst)[i + 1] = (int32_t)cur;
    }
    if (large)
      ((int64_t *)dst)[0] = src[0];
    else
      ((int32_t *)dst)[0] = src[0];
  }
  return give(out, 2, lb, &lb->data, data_len, err);
}

static int leaf_array(const cp_pq_rnode *node, cp_pq_leaf_batch *lb, slots *s,
                      struct ArrowArray *out, paimon_error *err) {
  if (node->kind == CP_PQ_RNODE_NULL_LEAF) {
    CP_RETURN_IF_ERROR(cp_array_init(out, 0, 0, err));
    out->length = out->null_count = s->n;
    return PAIMON_OK;
  }
  if (s->n - s->null_count != lb->n_values)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "column '%s': %lld values for %lld non-null slots", node->path,
                            (long long)lb->n_values, (long long)(s->n - s->null_count));
  if (lb->spaced && s->n != lb->n_entries) /* spaced values are laid out one per entry */
    return paimon_error_set(err, PAIMON_ESTATE,
                            "column '%s': %lld slots for %lld spaced level entries", node->path,
                            (long long)s->n, (long long)lb->n_entries);
  int rc;
  switch (node->conv.out_kind) {
  case CP_PQ_OUT_BOOL: rc = leaf_bool(lb, s, out, err); break;
  case CP_PQ_OUT_BINARY: rc = leaf_binary(node, lb, s, out, err); break;
  default: rc = leaf_fixed(lb, s, (size_t)node->conv.out_width, out, err);
  }
  if (rc == 0) rc = put_validity(out, s, err);
  return rc;
}

static int absent_array(const cp_pq_rnode *node, int64_t n, struct ArrowArray *out,
                        paimon_error *err) {
  cp_builder *b = NULL;
  int rc = cp_builder_create(&b, node->arrow, err);
  if (rc == 0) rc = cp_builder_append_nulls(b, n, err);
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

/* A Parquet list read as fixed_size_list (VECTOR): every non-null list must hold exactly `size`
 * items; null lists get `size` null placeholders, as the layout requires. */
static int to_fixed_list(const cp_pq_rnode *node, slots *s, struct ArrowArray *child,
                         struct ArrowArray *out, paimon_error *err) {
  int64_t size = node->type.list_size;
  bool exact = true;
  for (int64_t i = 0; i < s->n; i++) {
    int64_t len = s->offsets[i + 1] - s->offsets[i];
    bool ok = len == size || (len == 0 && s->validity && !cp_bit_get(s->validity, i));
    if (!ok) {
      cp_array_release(child);
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "column '%s': VECTOR of %lld elements has a list of %lld at slot "
                              "%lld",
                              node->path, (long long)size, (long long)len, (long long)i);
    }
    exact = exact && len == size;
  }
  int rc = cp_array_init(out, 1, 1, err);
  if (rc) {
    cp_array_release(child);
    return rc;
  }
  if (!exact) {
    int64_t *idx = malloc(((size_t)(s->n * size) + 1) * sizeof *idx);
    if (!idx) {
      cp_array_release(child);
      return CP_ENOMEM(err, "VECTOR column");
    }
    for (int64_t i = 0, k = 0; i < s->n; i++)
      for (int64_t j = 0; j < size; j++, k++)
        idx[k] = s->offsets[i + 1] > s->offsets[i] ? s->offsets[i] + j : -1;
    cp_array_view v;
    rc = cp_array_view_init(&v, node->arrow->children[0], child, err);
    if (rc == 0) {
      rc = cp_take(&v, idx, s->n * size, out->children[0], err);
      cp_array_view_reset(&v);
    }
    free(idx);
    cp_array_release(child);
    CP_RETURN_IF_ERROR(rc);
  } else {
    cp_array_move(child, out->children[0]);
  }
  return put_validity(out, s, err);
}

static int list_array(const cp_pq_rnode *node, cp_pq_leaf_batch *const *by_leaf, slots *s,
                      struct ArrowArray *out, paimon_error *err) {
  const cp_pq_rnode *child = &node->children[0];
  struct ArrowArray items;
  CP_RETURN_IF_ERROR(cp_pq_assemble(child, by_leaf, s->items, &items, err));
  if (node->type.id == CP_ARROW_FIXED_SIZE_LIST) return to_fixed_list(node, s, &items, out, err);
  int rc = cp_array_init(out, 2, 1, err);
  if (rc) {
    cp_array_release(&items);
    return rc;
  }
  cp_array_move(&items, out->children[0]);
  int32_t *offs = s->offsets;
  s->offsets = NULL;
  CP_RETURN_IF_ERROR(cp_array_adopt_buffer(out, 1, offs, (s->n + 1) * 4, err));
  if (node->kind == CP_PQ_RNODE_MAP && node->key_nullable_in_file &&
      out->children[0]->n_children > 0 && out->children[0]->children[0]->null_count != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "column '%s': a map key is NULL", node->path);
  return put_validity(out, s, err);
}

static int struct_array(const cp_pq_rnode *node, cp_pq_leaf_batch *const *by_leaf, slots *s,
                        struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 1, node->num_children, err));
  for (uint32_t i = 0; i < node->num_children; i++)
    CP_RETURN_IF_ERROR(cp_pq_assemble(&node->children[i], by_leaf, s->n, out->children[i], err));
  return put_validity(out, s, err);
}

int cp_pq_assemble(const cp_pq_rnode *node, cp_pq_leaf_batch *const *by_leaf, int64_t expected,
                   struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  if (node->kind == CP_PQ_RNODE_ABSENT) return absent_array(node, expected, out, err);
  cp_pq_leaf_batch *lb = by_leaf[node->leaf];
  if (!lb) return paimon_error_set(err, PAIMON_ESTATE, "column '%s': leaf not read", node->path);
  bool is_list = node->kind == CP_PQ_RNODE_LIST || node->kind == CP_PQ_RNODE_MAP;
  slots s;
  CP_RETURN_IF_ERROR(compute_slots(node, lb, is_list ? &node->children[0] : NULL, &s, err));
  int rc = PAIMON_OK;
  if (expected >= 0 && s.n != expected)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "column '%s': its levels give %lld slots where %lld are expected "
                          "(the file's columns disagree)",
                          node->path, (long long)s.n, (long long)expected);
  else if (is_list)
    rc = list_array(node, by_leaf, &s, out, err);
  else if (node->kind == CP_PQ_RNODE_STRUCT)
    rc = struct_array(node, by_leaf, &s, out, err);
  else
    rc = leaf_array(node, lb, &s, out, err);
  slots_free(&s);
  if (rc) cp_array_release(out);
  return rc;
}
