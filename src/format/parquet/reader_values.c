/*
 * Values of a column chunk into leaf batches (page_read.h; spec/parquet.md §2.7 encodings, §3.3
 * levels → Arrow): the decoders chosen per page encoding, conversion to the output representation,
 * and the two ways values reach a batch.
 *
 *  - dense: the non-null values one after another, as pages hold them; record assembly
 *    (levels_read.c) scatters them into their slots. Used below repetition.
 *  - spaced: for leaves without repetition, whose level entries are exactly the slots of the Arrow
 *    array. The definition levels are walked as runs of non-null and null entries: a run of values
 *    is copied (or gathered from the dictionary) into its slots at once and a run of nulls is one
 *    memset, so nothing is scattered one slot at a time and assembly hands the buffer over as is.
 *
 * (Lending PLAIN pages without nulls to batches, zero-copy, was tried and dropped: no measurable
 * gain, since the copy from a page still in cache is cheap, and +10% peak memory when a consumer
 * keeps every batch, because a batch kept a whole page alive for part of it.)
 *
 * Batch buffers handed to Arrow come back through the reader's pool (arrow/array.h) when the
 * consumer releases the batch, and are taken again for the next batch rather than faulting in
 * fresh memory.
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/page_read.h"

/* Entries of levels[0..n) equal to `level` (0..32767), four at a time: a lane of x ^ pattern is
 * zero exactly where the level matches, and (v & 0x7FFF) + 0x7FFF sets a lane's top bit iff its
 * low 15 bits are non-zero, without carrying into the next lane; multiplying the lane bits by
 * 0x0001000100010001 sums them in the top lane (no popcount instruction needed). */
static size_t count_level(const int16_t *levels, size_t n, int16_t level) {
  const uint64_t lanes = 0x0001000100010001ULL, low = 0x7FFF * lanes, top = 0x8000 * lanes;
  const uint64_t pattern = (uint64_t)(uint16_t)level * lanes;
  size_t i = 0, nonzero = 0;
  for (; i + 4 <= n; i += 4) {
    uint64_t x;
    memcpy(&x, levels + i, 8);
    uint64_t y = x ^ pattern;
    uint64_t mask = ((((y & low) + low) | y) & top) >> 15; /* one bit per non-matching lane */
    nonzero += (size_t)((mask * lanes) >> 48);             /* sum of the four lane bits */
  }
  size_t count = i - nonzero;
  for (; i < n; i++) count += levels[i] == level;
  return count;
}

/* Entries with def == max_def among the next k of the current page: known without counting when
 * the page has no nulls (the common case) or the k entries are the rest of the page. */
size_t cp_pq_values_present(const cp_pq_chunk_reader *cr, const int16_t *def, int64_t k) {
  if (!def || cr->page_values == cr->page_entries) return (size_t)k;
  if (cr->page_values == 0) return 0;
  if (cr->page_pos + k == cr->page_entries) return (size_t)(cr->page_values - cr->page_present_pos);
  return count_level(def, (size_t)k, cr->max_def);
}

/* ---- leaf batches ------------------------------------------------------------------------------
 */

/* Room for `need` bytes in a batch buffer; one that was handed to Arrow with the last batch is
 * replaced from the pool first, so its memory is already faulted in. */
static int batch_reserve(cp_pq_leaf_batch *b, cp_buf *buf, size_t need, paimon_error *err) {
  if (buf->data || need == 0) return cp_buf_reserve(buf, need, err);
  if (cp_buf_pool_take(b->pool, need, buf)) return cp_buf_reserve(buf, need, err);
  /* Fresh memory, about to be filled: map it in one go rather than fault by fault. */
  CP_RETURN_IF_ERROR(cp_buf_reserve(buf, need, err));
  cp_mem_prefault(buf->data, need);
  return PAIMON_OK;
}

int cp_pq_leaf_batch_reset(cp_pq_leaf_batch *b, int64_t rows, paimon_error *err) {
  b->n_entries = b->n_values = b->n_present = 0;
  b->def.len = b->rep.len = b->values.len = b->data.len = 0;
  size_t n = rows > 0 ? (size_t)rows : 0;
  if (b->max_def > 0) CP_RETURN_IF_ERROR(cp_buf_reserve(&b->def, n * sizeof(int16_t), err));
  if (b->max_rep > 0) CP_RETURN_IF_ERROR(cp_buf_reserve(&b->rep, n * sizeof(int16_t), err));
  switch (b->out_kind) {
  case CP_PQ_OUT_BOOL: return batch_reserve(b, &b->values, n, err);
  case CP_PQ_OUT_FIXED: return batch_reserve(b, &b->values, n * (size_t)b->out_width, err);
  case CP_PQ_OUT_BINARY: {
    int32_t zero = 0;
    CP_RETURN_IF_ERROR(batch_reserve(b, &b->values, (n + 1) * sizeof zero, err));
    size_t data = 0;
    if (b->data_hint_entries > 0)
      data = (size_t)((double)b->data_hint / (double)b->data_hint_entries * (double)n);
    CP_RETURN_IF_ERROR(batch_reserve(b, &b->data, data, err));
    return cp_buf_append(&b->values, &zero, sizeof zero, err);
  }
  default: return PAIMON_OK;
  }
}

void cp_pq_leaf_batch_free(cp_pq_leaf_batch *b) {
  cp_buf_free(&b->def);
  cp_buf_free(&b->rep);
  cp_buf_free(&b->values);
  cp_buf_free(&b->data);
}
/* ---- decoders ----------------------------------------------------------------------------------
 */

static int skip_plain_binary(cp_pq_chunk_reader *cr, size_t m, paimon_error *err) {
  size_t p = cr->plain_pos;
  for (size_t i = 0; i < m; i++) {
    uint32_t l;
    if (cr->vals_len - p < 4) goto short_data;
    memcpy(&l, cr->vals + p, 4);
    p += 4;
    if (l > cr->vals_len - p) goto short_data;
    p += l;
  }
  cr->plain_pos = p;
  return PAIMON_OK;
short_data:
  return paimon_error_set(err, PAIMON_ECORRUPT, "PLAIN byte arrays end early at byte %zu", p);
}

int cp_pq_values_skip(cp_pq_chunk_reader *cr, size_t m, paimon_error *err) {
  switch (cr->encoding) {
  case CP_PQ_ENC_PLAIN_DICTIONARY:
  case CP_PQ_ENC_RLE_DICTIONARY:
  case CP_PQ_ENC_RLE: CP_RETURN_IF_ERROR(cp_pq_rle_skip(&cr->rle, m, err)); break;
  case CP_PQ_ENC_PLAIN:
    if (cr->phys == CP_PQ_BYTE_ARRAY) {
      CP_RETURN_IF_ERROR(skip_plain_binary(cr, m, err));
    } else {
      size_t unit = cr->phys == CP_PQ_BOOLEAN ? 1 : (size_t)cr->width;
      size_t room = cr->phys == CP_PQ_BOOLEAN ? cr->vals_len * 8 : cr->vals_len;
      if (m * unit > room - cr->plain_pos)
        return paimon_error_set(err, PAIMON_ECORRUPT, "PLAIN values end early");
      cr->plain_pos += m * unit;
    }
    break;
  case CP_PQ_ENC_DELTA_BINARY_PACKED:
    for (size_t k = 0; k < m;) {
      int64_t tmp[512];
      size_t c = m - k < 256 ? m - k : 256;
      int rc = cr->phys == CP_PQ_INT32 ? cp_pq_delta_decode_i32(&cr->delta, (int32_t *)tmp, c, err)
                                       : cp_pq_delta_decode_i64(&cr->delta, tmp, c, err);
      CP_RETURN_IF_ERROR(rc);
      k += c;
    }
    break;
  default: break; /* page-decoded encodings and BYTE_STREAM_SPLIT index by page_values_pos */
  }
  cr->page_values_pos += (int64_t)m;
  return PAIMON_OK;
}

/* Decodes m fixed-width physical values (BOOLEAN: 0/1 bytes) into `out`. */
static int decode_phys_fixed(cp_pq_chunk_reader *cr, size_t m, void *out, paimon_error *err) {
  size_t used;
  size_t w = (size_t)cr->width;
  switch (cr->encoding) {
  case CP_PQ_ENC_PLAIN:
    if (cr->phys == CP_PQ_BOOLEAN) {
      CP_RETURN_IF_ERROR(
          cp_pq_plain_decode_bool(out, m, cr->vals, cr->vals_len, cr->plain_pos, err));
      cr->plain_pos += m;
      return PAIMON_OK;
    }
    CP_RETURN_IF_ERROR(cp_pq_plain_decode_fixed(out, m, &used, cr->vals + cr->plain_pos,
                                                cr->vals_len - cr->plain_pos, w, err));
    cr->plain_pos += used;
    return PAIMON_OK;
  case CP_PQ_ENC_RLE: return cp_pq_rle_decode_u8(&cr->rle, out, m, err);
  case CP_PQ_ENC_DELTA_BINARY_PACKED:
    return cr->phys == CP_PQ_INT32 ? cp_pq_delta_decode_i32(&cr->delta, out, m, err)
                                   : cp_pq_delta_decode_i64(&cr->delta, out, m, err);
  case CP_PQ_ENC_BYTE_STREAM_SPLIT:
    return cp_pq_bss_decode(out, m, cr->vals, cr->vals_len, w, (size_t)cr->page_values_pos, err);
  case CP_PQ_ENC_DELTA_BYTE_ARRAY:
    return cp_pq_binary_to_fixed(out, (const int32_t *)cr->dec_offsets.data + cr->page_values_pos,
                                 cr->dec_data.data, m, w, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "value encoding %s",
                            cp_pq_encoding_name(cr->encoding));
  }
}

/* Decodes m BYTE_ARRAY values appended to (offsets, data) in Arrow layout (`offsets` points at
 * the last offset already there). */
static int decode_phys_binary(cp_pq_chunk_reader *cr, size_t m, int32_t *offsets, cp_buf *data,
                              paimon_error *err) {
  if (cr->encoding == CP_PQ_ENC_PLAIN) {
    size_t used;
    CP_RETURN_IF_ERROR(cp_pq_plain_decode_binary(offsets, data, m, &used, cr->vals + cr->plain_pos,
                                                 cr->vals_len - cr->plain_pos, err));
    cr->plain_pos += used;
    return PAIMON_OK;
  }
  /* DELTA_(LENGTH_)BYTE_ARRAY: copy from the page-decoded values. */
  const int32_t *src = (const int32_t *)cr->dec_offsets.data + cr->page_values_pos;
  size_t bytes = (size_t)(src[m] - src[0]);
  if (data->len > (size_t)INT32_MAX || bytes > (size_t)INT32_MAX - data->len)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "byte arrays of one batch exceed 2 GiB; use a smaller batch size");
  int32_t base = (int32_t)data->len - src[0];
  CP_RETURN_IF_ERROR(cp_buf_append(data, cr->dec_data.data + src[0], bytes, err));
  offsets[0] = (int32_t)(data->len - bytes);
  for (size_t i = 1; i <= m; i++) offsets[i] = src[i] + base;
  return PAIMON_OK;
}

static bool is_dict_encoding(int enc) {
  return enc == CP_PQ_ENC_PLAIN_DICTIONARY || enc == CP_PQ_ENC_RLE_DICTIONARY;
}

static int indices(cp_pq_chunk_reader *cr, size_t m, const int32_t **out, paimon_error *err) {
  cr->scratch.len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->scratch, m * sizeof(int32_t), err));
  CP_RETURN_IF_ERROR(cp_pq_dict_indices_decode(&cr->rle, (int32_t *)cr->scratch.data, m,
                                               (size_t)cr->dict_count, err));
  *out = (const int32_t *)cr->scratch.data;
  return PAIMON_OK;
}

/* Decodes m byte arrays to offsets[0..m] (offsets[0] must already be data->len) with their bytes
 * appended to `data`. */
static int decode_binary_out(cp_pq_chunk_reader *cr, size_t m, int32_t *offsets, cp_buf *data,
                             paimon_error *err) {
  if (is_dict_encoding(cr->encoding)) {
    const int32_t *idx;
    CP_RETURN_IF_ERROR(indices(cr, m, &idx, err));
    return cp_pq_dict_gather_binary(offsets, data, idx, m, (const int32_t *)cr->dict_offsets.data,
                                    cr->dict_data.data, (size_t)cr->dict_count, err);
  }
  if (cr->phys == CP_PQ_FIXED_LEN_BYTE_ARRAY) {
    cr->scratch_data.len = 0;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->scratch_data, m * (size_t)cr->width + 1, err));
    CP_RETURN_IF_ERROR(decode_phys_fixed(cr, m, cr->scratch_data.data, err));
    return cp_pq_convert_fixed_to_binary(cr->scratch_data.data, m, (size_t)cr->width, offsets, data,
                                         err);
  }
  return decode_phys_binary(cr, m, offsets, data, err);
}

/* Decodes m fixed-width values in the output representation to dst. */
static int decode_fixed_out(cp_pq_chunk_reader *cr, size_t m, uint8_t *dst, paimon_error *err) {
  const cp_pq_leaf_conv *c = cr->conv;
  size_t ow = c->out_kind == CP_PQ_OUT_BOOL ? 1 : (size_t)c->out_width;
  if (is_dict_encoding(cr->encoding)) {
    const int32_t *idx;
    CP_RETURN_IF_ERROR(indices(cr, m, &idx, err));
    return cp_pq_dict_gather_fixed(dst, idx, m, cr->dict_fixed.data, (size_t)cr->dict_count, ow,
                                   err);
  }
  if (cr->phys == CP_PQ_BYTE_ARRAY) { /* BYTE_ARRAY decimals */
    cr->scratch_off.len = cr->scratch_data.len = 0;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->scratch_off, (m + 1) * sizeof(int32_t), err));
    int32_t *offs = (int32_t *)cr->scratch_off.data;
    offs[0] = 0;
    CP_RETURN_IF_ERROR(decode_phys_binary(cr, m, offs, &cr->scratch_data, err));
    return cp_pq_convert_binary(c, offs, cr->scratch_data.data, m, dst, cr->column, err);
  }
  if (c->conv == CP_PQ_CONV_COPY) return decode_phys_fixed(cr, m, dst, err);
  cr->scratch.len = 0;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->scratch, m * (size_t)cr->width + 1, err));
  CP_RETURN_IF_ERROR(decode_phys_fixed(cr, m, cr->scratch.data, err));
  return cp_pq_convert_fixed(c, cr->scratch.data, m, dst, cr->column, err);
}

static int read_binary_values(cp_pq_chunk_reader *cr, size_t m, cp_pq_leaf_batch *b,
                              paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(&b->values, m * sizeof(int32_t), err));
  int32_t *offsets = (int32_t *)b->values.data + b->n_values;
  CP_RETURN_IF_ERROR(decode_binary_out(cr, m, offsets, &b->data, err));
  b->values.len += m * sizeof(int32_t);
  return PAIMON_OK;
}

static int read_fixed_values(cp_pq_chunk_reader *cr, size_t m, cp_pq_leaf_batch *b,
                             paimon_error *err) {
  const cp_pq_leaf_conv *c = cr->conv;
  size_t ow = c->out_kind == CP_PQ_OUT_BOOL ? 1 : (size_t)c->out_width;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&b->values, m * ow, err));
  CP_RETURN_IF_ERROR(decode_fixed_out(cr, m, b->values.data + b->values.len, err));
  b->values.len += m * ow;
  return PAIMON_OK;
}

static int read_values(cp_pq_chunk_reader *cr, size_t m, cp_pq_leaf_batch *b, paimon_error *err) {
  if (m == 0) return PAIMON_OK;
  if ((int64_t)m > cr->page_values - cr->page_values_pos)
    return paimon_error_set(err, PAIMON_ESTATE, "values requested past the page");
  int rc = cr->conv->out_kind == CP_PQ_OUT_BINARY ? read_binary_values(cr, m, b, err)
                                                  : read_fixed_values(cr, m, b, err);
  CP_RETURN_IF_ERROR(rc);
  cr->page_values_pos += (int64_t)m;
  b->n_values += (int64_t)m;
  return PAIMON_OK;
}

/* ---- spaced values (leaves without repetition) -------------------------------------------------
 *
 * Every level entry of such a leaf is a slot of its Arrow array, valid iff def == max_def. Rather
 * than decoding the page's dense values and scattering them one slot at a time during assembly,
 * the definition levels are walked as runs: a run of non-null entries receives a run of values in
 * one copy (or one dictionary gather), a run of nulls one memset. With few nulls, runs are long;
 * with none, the dense decode already is the spaced one.
 */

/* The end of the run of entries starting at `pos` (< n) that are all valid (def == max) or all
 * null, four levels at a time with the lane trick of count_level: a lane of x ^ pattern is zero
 * exactly where the level equals max. */
static size_t run_end(const int16_t *def, size_t pos, size_t n, int16_t max, bool valid) {
  const uint64_t lanes = 0x0001000100010001ULL, low = 0x7FFF * lanes, top = 0x8000 * lanes;
  const uint64_t pattern = (uint64_t)(uint16_t)max * lanes;
  size_t i = pos;
  for (; i + 4 <= n; i += 4) {
    uint64_t x;
    memcpy(&x, def + i, 8);
    uint64_t y = x ^ pattern;
    uint64_t differ = (((y & low) + low) | y) & top; /* top bit of each lane != max */
    uint64_t stop = valid ? differ : ~differ & top;
    if (stop) return i + (size_t)(__builtin_ctzll(stop) >> 4);
  }
  while (i < n && (def[i] == max) == valid) i++;
  return i;
}

/* Spreads m dense values of w bytes from `src` over the valid entries of def[0..k), zeroing the
 * null ones. */
static void spread_fixed(uint8_t *dst, const uint8_t *src, const int16_t *def, size_t k,
                         int16_t max, size_t w) {
  for (size_t i = 0, j = 0; i < k;) {
    bool valid = def[i] == max;
    size_t e = run_end(def, i, k, max, valid);
    if (valid) {
      memcpy(dst + i * w, src + j * w, (e - i) * w);
      j += e - i;
    } else {
      memset(dst + i * w, 0, (e - i) * w);
    }
    i = e;
  }
}

/* The dictionary form: runs of valid entries gather their values straight into place. */
static int spread_dict(cp_pq_chunk_reader *cr, uint8_t *dst, const int32_t *idx, const int16_t *def,
                       size_t k, size_t w, paimon_error *err) {
  for (size_t i = 0, j = 0; i < k;) {
    bool valid = def[i] == cr->max_def;
    size_t e = run_end(def, i, k, cr->max_def, valid);
    if (valid) {
      CP_RETURN_IF_ERROR(cp_pq_dict_gather_fixed(dst + i * w, idx + j, e - i, cr->dict_fixed.data,
                                                 (size_t)cr->dict_count, w, err));
      j += e - i;
    } else {
      memset(dst + i * w, 0, (e - i) * w);
    }
    i = e;
  }
  return PAIMON_OK;
}

/* k entries (m of them valid) of a FIXED or BOOL leaf at their slots, appended to b->values. */
static int read_fixed_spaced(cp_pq_chunk_reader *cr, const int16_t *def, size_t k, size_t m,
                             cp_pq_leaf_batch *b, paimon_error *err) {
  const cp_pq_leaf_conv *c = cr->conv;
  size_t ow = c->out_kind == CP_PQ_OUT_BOOL ? 1 : (size_t)c->out_width;
  CP_RETURN_IF_ERROR(cp_buf_reserve(&b->values, k * ow, err));
  uint8_t *dst = b->values.data + b->values.len;
  if (m == k) {
    CP_RETURN_IF_ERROR(decode_fixed_out(cr, m, dst, err));
  } else if (m == 0) {
    memset(dst, 0, k * ow);
  } else if (is_dict_encoding(cr->encoding)) {
    const int32_t *idx;
    CP_RETURN_IF_ERROR(indices(cr, m, &idx, err));
    CP_RETURN_IF_ERROR(spread_dict(cr, dst, idx, def, k, ow, err));
  } else if (cr->encoding == CP_PQ_ENC_PLAIN && c->conv == CP_PQ_CONV_COPY &&
             c->out_kind == CP_PQ_OUT_FIXED && cr->phys != CP_PQ_BYTE_ARRAY &&
             (size_t)cr->width == ow) {
    /* PLAIN values are the output bytes already: copy runs straight from the page. */
    if (m * ow > cr->vals_len - cr->plain_pos)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "PLAIN: %zu values of %zu bytes need %zu bytes but only %zu remain",
                              m, ow, m * ow, cr->vals_len - cr->plain_pos);
    spread_fixed(dst, cr->vals + cr->plain_pos, def, k, cr->max_def, ow);
    cr->plain_pos += m * ow;
  } else {
    cr->spread.len = 0;
    CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->spread, m * ow, err));
    CP_RETURN_IF_ERROR(decode_fixed_out(cr, m, cr->spread.data, err));
    spread_fixed(dst, cr->spread.data, def, k, cr->max_def, ow);
  }
  b->values.len += k * ow;
  return PAIMON_OK;
}

/* k entries (m valid) of a BINARY leaf: the valid values are decoded dense (their bytes go to
 * b->data directly), then their end offsets are spread, null entries repeating the previous end. */
static int read_binary_spaced(cp_pq_chunk_reader *cr, const int16_t *def, size_t k, size_t m,
                              cp_pq_leaf_batch *b, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(&b->values, k * sizeof(int32_t), err));
  int32_t *offs = (int32_t *)b->values.data + b->n_entries; /* offs[0]: the current end */
  if (m == k) {
    CP_RETURN_IF_ERROR(decode_binary_out(cr, m, offs, &b->data, err));
  } else {
    int32_t *dense = offs;
    if (m > 0) {
      cr->spread.len = 0;
      CP_RETURN_IF_ERROR(cp_buf_reserve(&cr->spread, (m + 1) * sizeof(int32_t), err));
      dense = (int32_t *)cr->spread.data;
      dense[0] = offs[0];
      CP_RETURN_IF_ERROR(decode_binary_out(cr, m, dense, &b->data, err));
    }
    for (size_t i = 0, j = 0; i < k;) {
      bool valid = def[i] == cr->max_def;
      size_t e = run_end(def, i, k, cr->max_def, valid);
      if (valid) {
        memcpy(offs + i + 1, dense + j + 1, (e - i) * sizeof(int32_t));
        j += e - i;
      } else {
        for (size_t t = i; t < e; t++) offs[t + 1] = offs[i];
      }
      i = e;
    }
  }
  b->values.len += k * sizeof(int32_t);
  return PAIMON_OK;
}

static int read_values_spaced(cp_pq_chunk_reader *cr, const int16_t *def, size_t k, size_t m,
                              cp_pq_leaf_batch *b, paimon_error *err) {
  if ((int64_t)m > cr->page_values - cr->page_values_pos)
    return paimon_error_set(err, PAIMON_ESTATE, "values requested past the page");
  if (m < k && !def)
    return paimon_error_set(err, PAIMON_ESTATE, "null entries in a column without nulls");
  int rc;
  if (cr->conv->out_kind == CP_PQ_OUT_BINARY) {
    rc = read_binary_spaced(cr, def, k, m, b, err);
  } else {
    rc = read_fixed_spaced(cr, def, k, m, b, err);
  }
  CP_RETURN_IF_ERROR(rc);
  cr->page_values_pos += (int64_t)m;
  b->n_values += (int64_t)m;
  return PAIMON_OK;
}

int cp_pq_values_read(cp_pq_chunk_reader *cr, const int16_t *def, size_t k, size_t m,
                      cp_pq_leaf_batch *b, paimon_error *err) {
  return b->spaced ? read_values_spaced(cr, def, k, m, b, err) : read_values(cr, m, b, err);
}
