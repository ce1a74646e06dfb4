/* Reading `.blob` files (blob_file.h). */
#include "format/blob/blob_file.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/codec.h"
#include "base/status.h"

#define FOOTER 5      /* index_len i32 + version u8 */
#define MIN_RECORD 16 /* magic + rec_len + crc with an empty payload */
#define FIRST_READ 65536

static int corrupt(const char *name, paimon_error *err, const char *what) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "Corrupt blob file %s: %s", name, what);
}

static int64_t zigzag_decode(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* One LEB128 varint of up to 64 bits from [*p, end). */
static bool read_varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p >= end) return false;
    uint8_t b = *(*p)++;
    if (shift == 63 && (b & 0x7e)) return false; /* more than 64 bits */
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

void cp_blob_index_free(cp_blob_index *ix) {
  free(ix->kinds);
  free(ix->offsets);
  free(ix->lengths);
  memset(ix, 0, sizeof *ix);
}

int cp_blob_index_parse(const uint8_t *tail, size_t tail_len, uint64_t file_size, const char *name,
                        cp_blob_index *out, size_t *need, paimon_error *err) {
  memset(out, 0, sizeof *out);
  *need = 0;
  if (file_size < FOOTER || tail_len < FOOTER || tail_len > file_size)
    return corrupt(name, err, "shorter than its 5-byte footer");
  const uint8_t *foot = tail + tail_len - FOOTER;
  if (foot[4] != CP_BLOB_VERSION)
    return paimon_error_set(err, PAIMON_ECORRUPT, "Unsupported version: %u (blob file %s)", foot[4],
                            name);
  int32_t index_len = (int32_t)((uint32_t)foot[0] | (uint32_t)foot[1] << 8 |
                                (uint32_t)foot[2] << 16 | (uint32_t)foot[3] << 24);
  if (index_len < 0 || (uint64_t)index_len > file_size - FOOTER)
    return corrupt(name, err, "index length out of range");
  if ((size_t)index_len + FOOTER > tail_len) {
    *need = (size_t)index_len + FOOTER;
    return PAIMON_OK;
  }
  const uint8_t *p = foot - index_len, *end = foot;
  uint64_t data_size = file_size - FOOTER - (uint64_t)index_len;
  /* Each row takes at least one index byte. */
  size_t cap = (size_t)index_len + 1;
  out->kinds = malloc(cap);
  out->offsets = malloc(cap * sizeof *out->offsets);
  out->lengths = malloc(cap * sizeof *out->lengths);
  if (!out->kinds || !out->offsets || !out->lengths) {
    cp_blob_index_free(out);
    return CP_ENOMEM(err, "blob index");
  }
  int64_t prev = 0, offset = 0;
  int rc = PAIMON_OK;
  for (int64_t row = 0; p < end; row++) {
    uint64_t raw;
    if (!read_varint(&p, end, &raw)) {
      rc = corrupt(name, err, "truncated or overlong varint in the index");
      break;
    }
    int64_t delta = zigzag_decode(raw), len;
    if (row == 0)
      len = delta;
    else if (__builtin_add_overflow(prev, delta, &len)) {
      rc = corrupt(name, err, "record length overflows");
      break;
    }
    prev = len;
    if (len == -1 || len == -2) {
      out->kinds[row] = len == -1 ? CP_BLOB_NULL : CP_BLOB_PLACEHOLDER;
      out->offsets[row] = out->lengths[row] = 0;
    } else if (len < MIN_RECORD || (uint64_t)len > data_size - (uint64_t)offset) {
      rc = corrupt(name, err, "a record length is out of range");
      break;
    } else {
      out->kinds[row] = CP_BLOB_VALUE;
      out->offsets[row] = offset + 4;
      out->lengths[row] = len - MIN_RECORD;
      offset += len;
    }
    out->n_rows = row + 1;
  }
  if (!rc && (uint64_t)offset != data_size)
    rc = corrupt(name, err, "record lengths do not add up to the data size");
  if (rc) cp_blob_index_free(out);
  return rc;
}

struct cp_blob_file {
  cp_rfile *file;
  char *path;
  cp_blob_index index;
};

int cp_blob_file_open(cp_fs *fs, const char *path, cp_blob_file **out, paimon_error *err) {
  *out = NULL;
  cp_blob_file *f = calloc(1, sizeof *f);
  if (!f || !(f->path = strdup(path))) {
    free(f);
    return CP_ENOMEM(err, "blob file");
  }
  int rc = cp_fs_open_read(fs, path, &f->file, err);
  uint64_t size = rc ? 0 : cp_rfile_size(f->file);
  size_t want = size < FIRST_READ ? (size_t)size : FIRST_READ, need = 0;
  uint8_t *tail = NULL;
  for (int attempt = 0; !rc && attempt < 2; attempt++) {
    free(tail);
    tail = malloc(want + 1);
    if (!tail) {
      rc = CP_ENOMEM(err, "blob file");
      break;
    }
    if (want >= FOOTER) rc = cp_rfile_read_at(f->file, size - want, tail, want, err);
    if (!rc) rc = cp_blob_index_parse(tail, want, size, path, &f->index, &need, err);
    if (rc || !need) break;
    want = need;
  }
  if (!rc && need) rc = corrupt(path, err, "index length out of range");
  free(tail);
  if (rc) {
    cp_blob_file_free(f);
    return rc;
  }
  *out = f;
  return PAIMON_OK;
}

const cp_blob_index *cp_blob_file_index(const cp_blob_file *f) { return &f->index; }

const char *cp_blob_file_path(const cp_blob_file *f) { return f->path; }

int cp_blob_file_read(cp_blob_file *f, int64_t offset, void *dst, size_t len, paimon_error *err) {
  if (len == 0) return PAIMON_OK;
  return cp_rfile_read_at(f->file, (uint64_t)offset, dst, len, err);
}

void cp_blob_file_free(cp_blob_file *f) {
  if (!f) return;
  if (f->file) cp_rfile_close(f->file);
  cp_blob_index_free(&f->index);
  free(f->path);
  free(f);
}

/* ------------------------------------ writing ------------------------------------ */

/* Small writes (record framing, small payloads, the index) are gathered here and written
 * together; a payload that does not fit goes to the file directly, uncopied. */
#define STAGE_CAP ((size_t)64 << 10)

struct cp_blob_writer {
  cp_wfile *file;
  int64_t *lengths; /* per row: rec_len, -1 NULL, -2 placeholder */
  size_t n, cap;
  uint64_t position;
  uint8_t *stage;
  size_t staged;
  /* a record being streamed (cp_blob_writer_begin): payload bytes still due, CRC so far */
  bool open;
  uint64_t due, rec;
  uint32_t crc;
};

int cp_blob_writer_new(cp_blob_writer **out, cp_wfile *file, paimon_error *err) {
  *out = calloc(1, sizeof **out);
  if (*out) (*out)->stage = malloc(STAGE_CAP);
  if (!*out || !(*out)->stage) {
    cp_blob_writer_free(*out);
    *out = NULL;
    return CP_ENOMEM(err, "blob writer");
  }
  (*out)->file = file;
  return PAIMON_OK;
}

static int stage_flush(cp_blob_writer *w, paimon_error *err) {
  size_t n = w->staged;
  w->staged = 0;
  return n ? cp_wfile_write(w->file, w->stage, n, err) : PAIMON_OK;
}

static int put(cp_blob_writer *w, const void *data, size_t len, paimon_error *err) {
  if (len > STAGE_CAP - w->staged) {
    CP_RETURN_IF_ERROR(stage_flush(w, err));
    if (len >= STAGE_CAP) return cp_wfile_write(w->file, data, len, err);
  }
  memcpy(w->stage + w->staged, data, len);
  w->staged += len;
  return PAIMON_OK;
}

static int push_length(cp_blob_writer *w, int64_t len, paimon_error *err) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 256;
    int64_t *l = realloc(w->lengths, cap * sizeof *l);
    if (!l) return CP_ENOMEM(err, "blob writer");
    w->lengths = l;
    w->cap = cap;
  }
  w->lengths[w->n++] = len;
  return PAIMON_OK;
}

static void le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int cp_blob_writer_begin(cp_blob_writer *w, uint64_t len, paimon_error *err) {
  if (w->open || len > (uint64_t)INT64_MAX - MIN_RECORD)
    return paimon_error_set(err, PAIMON_ESTATE,
                            "blob writer: a record of %" PRIu64 " bytes cannot begin here", len);
  uint8_t head[4];
  le(head, CP_BLOB_MAGIC, 4);
  w->crc = cp_crc32(0, head, 4);
  w->open = true;
  w->due = len;
  w->rec = len + MIN_RECORD;
  return put(w, head, 4, err);
}

int cp_blob_writer_append(cp_blob_writer *w, const void *data, size_t n, paimon_error *err) {
  if (!w->open || n > w->due)
    return paimon_error_set(err, PAIMON_ESTATE,
                            "blob writer: %zu payload bytes more than the "
                            "record's length",
                            n);
  w->crc = cp_crc32(w->crc, data, n);
  w->due -= n;
  return n ? put(w, data, n, err) : PAIMON_OK;
}

int cp_blob_writer_end(cp_blob_writer *w, paimon_error *err) {
  if (!w->open || w->due)
    return paimon_error_set(err, PAIMON_ESTATE,
                            "blob writer: the record ends %" PRIu64 " bytes short of its length",
                            w->due);
  uint8_t tail[12];
  le(tail, w->rec, 8);
  le(tail + 8, cp_crc32(w->crc, tail, 8), 4);
  w->open = false;
  CP_RETURN_IF_ERROR(put(w, tail, 12, err));
  w->position += w->rec;
  return push_length(w, (int64_t)w->rec, err);
}

int cp_blob_writer_add(cp_blob_writer *w, const void *data, size_t len, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_blob_writer_begin(w, len, err));
  CP_RETURN_IF_ERROR(cp_blob_writer_append(w, data, len, err));
  return cp_blob_writer_end(w, err);
}

int cp_blob_writer_add_null(cp_blob_writer *w, paimon_error *err) {
  return push_length(w, -1, err);
}

int cp_blob_writer_add_placeholder(cp_blob_writer *w, paimon_error *err) {
  return push_length(w, -2, err);
}

int64_t cp_blob_writer_rows(const cp_blob_writer *w) { return (int64_t)w->n; }

uint64_t cp_blob_writer_position(const cp_blob_writer *w) { return w->position; }

int cp_blob_writer_finish(cp_blob_writer *w, uint64_t *size, paimon_error *err) {
  uint8_t *index = malloc(w->n * 10 + 6);
  if (!index) return CP_ENOMEM(err, "blob writer");
  size_t k = 0;
  for (size_t i = 0; i < w->n; i++) {
    int64_t d = i ? w->lengths[i] - w->lengths[i - 1] : w->lengths[0];
    uint64_t z = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
    do {
      uint8_t b = z & 0x7f;
      z >>= 7;
      index[k++] = b | (z ? 0x80 : 0);
    } while (z);
  }
  le(index + k, (uint64_t)k, 4);
  index[k + 4] = CP_BLOB_VERSION;
  int rc = put(w, index, k + FOOTER, err);
  if (!rc) rc = stage_flush(w, err);
  free(index);
  if (!rc) *size = w->position + k + FOOTER;
  return rc;
}

void cp_blob_writer_free(cp_blob_writer *w) {
  if (!w) return;
  free(w->lengths);
  free(w->stage);
  free(w);
}

/* ------------------------------------ BlobDescriptor ------------------------------------ */

static uint64_t rd_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

bool cp_blob_is_descriptor(const uint8_t *v, size_t len) {
  return len >= 9 && v[0] <= CP_BLOB_DESCRIPTOR_VERSION &&
         rd_le(v + 1, 8) == CP_BLOB_DESCRIPTOR_MAGIC;
}

int cp_blob_descriptor_parse(const uint8_t *v, size_t len, cp_blob_descriptor *out,
                             paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (len < 5)
    return paimon_error_set(err, PAIMON_EINVAL, "Invalid BlobDescriptor data: too short");
  size_t at = 1;
  out->version = v[0];
  if (out->version > CP_BLOB_DESCRIPTOR_VERSION)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Expecting BlobDescriptor version to be less than or equal to %d, but "
                            "found %d.",
                            CP_BLOB_DESCRIPTOR_VERSION, out->version);
  if (out->version > 1) {
    if (len < at + 8 || rd_le(v + at, 8) != CP_BLOB_DESCRIPTOR_MAGIC)
      return paimon_error_set(err, PAIMON_EINVAL, "Invalid BlobDescriptor: missing magic header");
    at += 8;
  }
  if (len < at + 4)
    return paimon_error_set(err, PAIMON_EINVAL, "Invalid BlobDescriptor data: too short");
  int32_t uri_len = (int32_t)(uint32_t)rd_le(v + at, 4);
  at += 4;
  if (uri_len < 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Invalid BlobDescriptor data: negative URI length: %d", (int)uri_len);
  if ((size_t)uri_len > len - at)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Invalid BlobDescriptor data: URI length exceeds data size");
  out->uri = (const char *)v + at;
  out->uri_len = (size_t)uri_len;
  at += (size_t)uri_len;
  if (len - at < 16)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Invalid BlobDescriptor data: missing offset/length");
  out->offset = (int64_t)rd_le(v + at, 8);
  out->length = (int64_t)rd_le(v + at + 8, 8);
  if (out->offset < 0 || out->length < -1)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Invalid BlobDescriptor data: offset %" PRId64 ", length %" PRId64,
                            out->offset, out->length);
  return PAIMON_OK;
}

void cp_blob_descriptor_write(uint8_t *dst, const char *uri, size_t uri_len, int64_t offset,
                              int64_t length) {
  dst[0] = CP_BLOB_DESCRIPTOR_VERSION;
  le(dst + 1, CP_BLOB_DESCRIPTOR_MAGIC, 8);
  le(dst + 9, (uint64_t)uri_len, 4);
  memcpy(dst + 13, uri, uri_len);
  le(dst + 13 + uri_len, (uint64_t)offset, 8);
  le(dst + 21 + uri_len, (uint64_t)length, 8);
}

/* ------------------------------------ ARRAY<BLOB> payloads ------------------------------------ */

static int bad_array(paimon_error *err, const char *what) {
  return paimon_error_set(err, PAIMON_ECORRUPT, "Invalid ARRAY<BLOB> payload: %s", what);
}

int cp_blob_array_payload_parse(const uint8_t *p, size_t len, int64_t **lens, int64_t *count,
                                paimon_error *err) {
  *lens = NULL;
  *count = 0;
  if (len < CP_BLOB_ARRAY_HEADER + 4) return bad_array(err, "too short");
  if (rd_le(p, 4) != CP_BLOB_ARRAY_MAGIC) return bad_array(err, "wrong magic number");
  if (p[4] != 1) return bad_array(err, "unsupported version");
  uint64_t n = rd_le(p + 5, 4), index_len = rd_le(p + len - 4, 4);
  if (n > 0x7fffffff) return bad_array(err, "element count out of range");
  if (index_len > len - CP_BLOB_ARRAY_HEADER - 4)
    return bad_array(err, "index length out of range");
  if (n > index_len) return bad_array(err, "element count exceeds the index length");
  const uint8_t *q = p + len - 4 - index_len, *end = p + len - 4;
  uint64_t data = (uint64_t)(q - p) - CP_BLOB_ARRAY_HEADER, sum = 0;
  int64_t *out = malloc((size_t)(n + 1) * sizeof *out);
  if (!out) return CP_ENOMEM(err, "ARRAY<BLOB> payload");
  int64_t prev = 0;
  uint64_t k = 0;
  int rc = PAIMON_OK;
  for (; q < end && !rc; k++) {
    uint64_t raw;
    if (k >= n || !read_varint(&q, end, &raw)) {
      rc = bad_array(err, k >= n ? "more index entries than elements" : "bad varint in the index");
      break;
    }
    int64_t v = k ? prev + zigzag_decode(raw) : zigzag_decode(raw);
    prev = v;
    if (v < -1 || (v >= 0 && (uint64_t)v > data - sum)) {
      rc = bad_array(err, "element lengths exceed the element bytes");
      break;
    }
    if (v >= 0) sum += (uint64_t)v;
    out[k] = v;
  }
  if (!rc && k != n) rc = bad_array(err, "element count does not match the index");
  if (!rc && sum != data) rc = bad_array(err, "element lengths do not match the element bytes");
  if (rc) {
    free(out);
    return rc;
  }
  *lens = out;
  *count = (int64_t)n;
  return PAIMON_OK;
}
