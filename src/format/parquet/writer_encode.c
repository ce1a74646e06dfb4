/*
 * The dictionary-index section of a data page, specialised (spec/parquet.md §2.7 RLE /
 * bit-packing hybrid and dictionary encoding; §2.3 item 2): the bit-width byte, then the RLE
 * hybrid of int32 indices (repeats of 8 or more as RLE runs, the rest bit-packed in groups of 8
 * with encoding.h's packer) — the same runs as encoding.h's general encoder, without its
 * per-value type dispatch.
 */
#include <string.h>

#include "base/status.h"
#include "format/parquet/writer_internal.h"

/* ---- RLE hybrid of dictionary indices ---- */

/* Appends `n` values starting at v as one bit-packed run (the last group zero-padded). */
static int put_literal(cp_buf *out, const int32_t *v, size_t n, int bw, paimon_error *err) {
  const size_t groups = (n + 7) / 8, full = n / 8;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + groups * (size_t)bw, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)groups << 1 | 1);
  cp_pq_pack32(out->data + out->len, (const uint32_t *)v, full, bw);
  out->len += full * (size_t)bw;
  if (groups > full) {
    uint32_t tail[8] = {0};
    memcpy(tail, v + full * 8, (n - full * 8) * sizeof *tail);
    cp_pq_pack32(out->data + out->len, tail, 1, bw);
    out->len += (size_t)bw;
  }
  return PAIMON_OK;
}

static int put_run(cp_buf *out, int32_t value, size_t count, int bw, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 10 + 4, err));
  out->len += cp_pq_uleb128_put(out->data + out->len, (uint64_t)count << 1);
  for (int i = 0; i < (bw + 7) / 8; i++) cp_buf_push_unchecked(out, (uint8_t)(value >> (8 * i)));
  return PAIMON_OK;
}

int cp_pq_encode_dict_indices(cp_buf *out, const int32_t *v, size_t n, size_t dict_count,
                              paimon_error *err) {
  const int bw = dict_count > 1 ? cp_pq_bit_width((uint64_t)dict_count - 1) : 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, 1, err));
  cp_buf_push_unchecked(out, (uint8_t)bw);
  size_t lit = 0, i = 0;
  while (i < n) {
    size_t run = 1;
    while (i + run < n && v[i + run] == v[i]) run++;
    /* A bit-packed run holds whole groups: lend the pending literal what completes its group,
     * and make an RLE run of the rest if 8 or more remain. */
    const size_t pad = (8 - (i - lit) % 8) % 8;
    if (run >= pad + 8) {
      if (i + pad > lit) CP_RETURN_IF_ERROR(put_literal(out, v + lit, i + pad - lit, bw, err));
      /* Runs are at most 2^31 - 1 long (§2.7); pages hold fewer entries than that. */
      CP_RETURN_IF_ERROR(put_run(out, v[i], run - pad, bw, err));
      lit = i + run;
    }
    i += run;
  }
  return lit < n ? put_literal(out, v + lit, n - lit, bw, err) : PAIMON_OK;
}
