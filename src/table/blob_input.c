#include "table/blob_input.h"

#include "cpaimon/blob.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "table/table.h"
#include "types/type.h"

#define COPY_CHUNK (1u << 20)
#define DESCRIPTOR_PREFIX "blob-descriptor."

/* Whether comma list `list` (blanks around names ignored) holds `name`. */
static bool listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    while (*p == ' ' || *p == ',') p++;
    const char *e = p;
    while (*e && *e != ',') e++;
    const char *t = e;
    while (t > p && t[-1] == ' ') t--;
    if ((size_t)(t - p) == n && memcmp(p, name, n) == 0) return true;
    p = e;
  }
  return false;
}

cp_blob_store cp_blob_storage(const paimon_table *t, const cp_field *f) {
  if (f->type->kind != CP_TYPE_BLOB) return CP_BLOB_STORE_NONE;
  const cp_options *o = &t->schema->options;
  const char *d = cp_options_get(o, "blob-descriptor-field");
  if (!d) d = cp_options_get(o, "blob.stored-descriptor-fields");
  if (listed(d, f->name)) return CP_BLOB_STORE_DESCRIPTOR;
  if (listed(cp_options_get(o, "blob-view-field"), f->name)) return CP_BLOB_STORE_VIEW;
  return CP_BLOB_STORE_FILES;
}

void cp_blob_sources_init(cp_blob_sources *s, paimon_table *t) {
  memset(s, 0, sizeof *s);
  s->t = t;
}

void cp_blob_sources_free(cp_blob_sources *s) {
  cp_fs_free(s->local);
  cp_fs_free(s->other);
  free(s->buf);
  memset(s, 0, sizeof *s);
}

/* The catalog's and table's file-system options with blob-descriptor.* (prefix removed) last. */
static int open_other(cp_blob_sources *s, const char *uri, paimon_error *err) {
  const cp_options *o = &s->t->schema->options;
  cp_fs_conf base;
  CP_RETURN_IF_ERROR(cp_catalog_fs_conf(s->t->catalog, o, &base, err));
  const char **keys = malloc((base.n + o->n + 1) * sizeof *keys);
  const char **values = malloc((base.n + o->n + 1) * sizeof *values);
  int rc = keys && values ? PAIMON_OK : CP_ENOMEM(err, "blob descriptor");
  size_t n = 0;
  for (size_t i = 0; !rc && i < base.n; i++, n++) {
    keys[n] = base.keys[i];
    values[n] = base.values[i];
  }
  size_t plen = strlen(DESCRIPTOR_PREFIX);
  for (size_t i = 0; !rc && i < o->n; i++)
    if (strncmp(o->keys[i], DESCRIPTOR_PREFIX, plen) == 0 && o->keys[i][plen]) {
      keys[n] = o->keys[i] + plen;
      values[n++] = o->values[i];
    }
  cp_fs_conf conf = {keys, values, n};
  if (!rc) rc = cp_fs_open(uri, &conf, &s->other, err);
  free(keys);
  free(values);
  free((void *)base.keys);
  free((void *)base.values);
  return rc;
}

/* The file system to read `uri` through. */
static int fs_for(cp_blob_sources *s, const char *uri, cp_fs **out, paimon_error *err) {
  const char *sep = strstr(uri, "://");
  bool local = !sep || (sep - uri == 4 && strncmp(uri, "file", 4) == 0);
  bool table_remote = cp_fs_is_object_store(s->t->fs);
  if (local && !table_remote) {
    *out = s->t->fs;
  } else if (!local && table_remote && cp_uri_is_object_store(uri)) {
    *out = s->t->fs;
  } else if (local) {
    if (!s->local) CP_RETURN_IF_ERROR(cp_fs_local_new(&s->local, err));
    *out = s->local;
  } else {
    if (!s->other) CP_RETURN_IF_ERROR(open_other(s, uri, err));
    *out = s->other;
  }
  return PAIMON_OK;
}

/* The descriptor of a value known to be one, its URI as a string (the caller frees *uri). */
static int parse(const uint8_t *v, int64_t n, cp_blob_descriptor *d, char **uri,
                 paimon_error *err) {
  *uri = NULL;
  CP_RETURN_IF_ERROR(cp_blob_descriptor_parse(v, (size_t)n, d, err));
  if (d->uri_len == 0 || memchr(d->uri, '\0', d->uri_len))
    return paimon_error_set(err, PAIMON_EINVAL, "Invalid BlobDescriptor data: empty URI");
  if (!(*uri = strndup(d->uri, d->uri_len))) return CP_ENOMEM(err, "blob descriptor");
  return PAIMON_OK;
}

/* Resolves one descriptor: its range checked against the object's size, *len its byte count. */
static int resolve(cp_blob_sources *s, const uint8_t *v, int64_t n, int64_t *len,
                   paimon_error *err) {
  cp_blob_descriptor d;
  char *uri = NULL;
  cp_fs *fs = NULL;
  uint64_t size = 0;
  int rc = parse(v, n, &d, &uri, err);
  if (!rc) rc = fs_for(s, uri, &fs, err);
  if (!rc) rc = cp_fs_size(fs, uri, &size, err);
  if (!rc && ((uint64_t)d.offset > size ||
              (d.length >= 0 && (uint64_t)d.length > size - (uint64_t)d.offset)))
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "BlobDescriptor range [%" PRId64 ", +%" PRId64 ") lies past the end of "
                          "%s (%" PRIu64 " bytes)",
                          d.offset, d.length, uri, size);
  if (!rc) *len = d.length >= 0 ? d.length : (int64_t)(size - (uint64_t)d.offset);
  free(uri);
  return rc;
}

int cp_blob_sources_check(cp_blob_sources *s, const cp_array_view *col, const char *column,
                          int64_t *lens, paimon_error *err) {
  for (int64_t r = 0; r < col->length; r++) {
    lens[r] = -1;
    if (cp_view_is_null(col, r)) continue;
    int64_t n = 0;
    const uint8_t *v = cp_view_get_bytes(col, r, &n);
    if (!cp_blob_is_descriptor(v, (size_t)n)) continue;
    int rc = resolve(s, v, n, &lens[r], err);
    if (rc) return paimon_error_prefix(err, "column %s, row %" PRId64, column, r);
  }
  return PAIMON_OK;
}

/* Opens the object `uri` of descriptor `d` and checks that it holds the `len` bytes of its range;
 * `code` for a range past its end (EIO for a source that shrank since the check, ECORRUPT for a
 * stored descriptor). */
static int open_range(cp_blob_sources *s, const cp_blob_descriptor *d, const char *uri, int64_t len,
                      int code, cp_rfile **f, paimon_error *err) {
  cp_fs *fs = NULL;
  CP_RETURN_IF_ERROR(fs_for(s, uri, &fs, err));
  CP_RETURN_IF_ERROR(cp_fs_open_read(fs, uri, f, err));
  if ((uint64_t)d->offset + (uint64_t)len <= cp_rfile_size(*f)) return PAIMON_OK;
  int rc = paimon_error_set(err, code,
                            "BlobDescriptor range [%" PRId64 ", +%" PRId64 ") lies past the end "
                            "of %s (%" PRIu64 " bytes)",
                            d->offset, len, uri, cp_rfile_size(*f));
  cp_rfile_close(*f);
  *f = NULL;
  return rc;
}

static int copy(cp_blob_sources *s, cp_blob_writer *w, const uint8_t *v, int64_t n, int64_t len,
                paimon_error *err) {
  cp_blob_descriptor d;
  char *uri = NULL;
  cp_rfile *f = NULL;
  int rc = parse(v, n, &d, &uri, err);
  if (!rc) rc = open_range(s, &d, uri, len, PAIMON_EIO, &f, err);
  if (!rc && !s->buf && !(s->buf = malloc(COPY_CHUNK))) rc = CP_ENOMEM(err, "blob descriptor");
  if (!rc) rc = cp_blob_writer_begin(w, (uint64_t)len, err);
  for (int64_t at = 0; !rc && at < len;) {
    size_t k = len - at < COPY_CHUNK ? (size_t)(len - at) : COPY_CHUNK;
    rc = cp_rfile_read_at(f, (uint64_t)(d.offset + at), s->buf, k, err);
    if (!rc) rc = cp_blob_writer_append(w, s->buf, k, err);
    at += (int64_t)k;
  }
  if (!rc) rc = cp_blob_writer_end(w, err);
  if (f) cp_rfile_close(f);
  free(uri);
  return rc;
}

int cp_blob_sources_put(cp_blob_sources *s, cp_blob_writer *w, const cp_array_view *col, int64_t r,
                        int64_t len, const char *column, paimon_error *err) {
  if (cp_view_is_null(col, r)) return cp_blob_writer_add_null(w, err);
  int64_t n = 0;
  const uint8_t *v = cp_view_get_bytes(col, r, &n);
  if (len < 0) return cp_blob_writer_add(w, v, (size_t)n, err);
  int rc = copy(s, w, v, n, len, err);
  return rc ? paimon_error_prefix(err, "column %s, row %" PRId64, column, r) : PAIMON_OK;
}

/* The length of the range descriptor `d` names (a length of -1 asks the object's size). */
static int range_length(cp_blob_sources *s, const cp_blob_descriptor *d, const char *uri,
                        int64_t *len, paimon_error *err) {
  if (d->length >= 0) {
    *len = d->length;
    return PAIMON_OK;
  }
  cp_fs *fs = NULL;
  uint64_t size = 0;
  CP_RETURN_IF_ERROR(fs_for(s, uri, &fs, err));
  CP_RETURN_IF_ERROR(cp_fs_size(fs, uri, &size, err));
  if ((uint64_t)d->offset > size)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "BlobDescriptor offset %" PRId64 " lies past the end of %s (%" PRIu64
                            " bytes)",
                            d->offset, uri, size);
  *len = (int64_t)(size - (uint64_t)d->offset);
  return PAIMON_OK;
}

static int fetch(cp_blob_sources *s, const cp_blob_descriptor *d, const char *uri, uint8_t *dst,
                 int64_t len, paimon_error *err) {
  cp_rfile *f = NULL;
  CP_RETURN_IF_ERROR(open_range(s, d, uri, len, PAIMON_ECORRUPT, &f, err));
  int rc = len ? cp_rfile_read_at(f, (uint64_t)d->offset, dst, (size_t)len, err) : PAIMON_OK;
  cp_rfile_close(f);
  return rc;
}

int cp_blob_sources_resolve(cp_blob_sources *s, const cp_array_view *col, const char *column,
                            struct ArrowArray *out, paimon_error *err) {
  int64_t n = col->length, total = 0, nulls = 0;
  int64_t *lens = malloc(((size_t)n + 1) * sizeof *lens);
  if (!lens) return CP_ENOMEM(err, "read");
  int rc = PAIMON_OK;
  int64_t bad = -1; /* the row an error is about */
  /* Pass 1: each value's length, for one data buffer. */
  for (int64_t r = 0; !rc && r < n; r++) {
    lens[r] = -1;
    if (cp_view_is_null(col, r)) {
      nulls++;
      continue;
    }
    int64_t k = 0;
    const uint8_t *v = cp_view_get_bytes(col, r, &k);
    if (!cp_blob_is_descriptor(v, (size_t)k)) {
      total += k;
      continue;
    }
    cp_blob_descriptor d;
    char *uri = NULL;
    rc = parse(v, k, &d, &uri, err);
    if (!rc) rc = range_length(s, &d, uri, &lens[r], err);
    if (!rc) total += lens[r];
    if (rc) bad = r;
    free(uri);
  }
  int64_t *offsets = NULL;
  uint8_t *valid = NULL, *data = NULL;
  if (!rc) rc = cp_array_init_large_binary(out, n, total, &valid, &offsets, &data, err);
  /* Pass 2: the bytes. */
  int64_t pos = 0;
  for (int64_t r = 0; !rc && r < n; r++) {
    offsets[r] = pos;
    if (cp_view_is_null(col, r)) continue;
    int64_t k = 0;
    const uint8_t *v = cp_view_get_bytes(col, r, &k);
    if (lens[r] < 0) {
      memcpy(data + pos, v, (size_t)k);
      pos += k;
    } else {
      cp_blob_descriptor d;
      char *uri = NULL;
      rc = parse(v, k, &d, &uri, err);
      if (!rc) rc = fetch(s, &d, uri, data + pos, lens[r], err);
      if (rc) bad = r;
      free(uri);
      pos += lens[r];
    }
    valid[r / 8] |= (uint8_t)(1u << (r % 8));
  }
  free(lens);
  if (rc) {
    if (out->release) out->release(out);
    return bad < 0 ? rc : paimon_error_prefix(err, "column %s, row %" PRId64, column, bad);
  }
  offsets[n] = pos;
  out->length = n;
  out->null_count = nulls;
  return PAIMON_OK;
}

/* ------------------------------------ public API (cpaimon/blob.h)
 * ------------------------------------ */

size_t paimon_blob_descriptor_size(size_t uri_len) { return cp_blob_descriptor_size(uri_len); }

int paimon_blob_descriptor_write(uint8_t *dst, const char *uri, size_t uri_len, int64_t offset,
                                 int64_t length, paimon_error *err) {
  if (!uri_len || uri_len > INT32_MAX || offset < 0 || length < -1)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "BlobDescriptor: a URI of 1 to 2^31-1 bytes, an offset >= 0 and a "
                            "length >= -1 are needed (got %zu bytes, %" PRId64 ", %" PRId64 ")",
                            uri_len, offset, length);
  cp_blob_descriptor_write(dst, uri, uri_len, offset, length);
  return PAIMON_OK;
}

bool paimon_blob_is_descriptor(const uint8_t *data, size_t len) {
  return cp_blob_is_descriptor(data, len);
}

int paimon_blob_descriptor_parse(const uint8_t *data, size_t len, int *version, const char **uri,
                                 size_t *uri_len, int64_t *offset, int64_t *length,
                                 paimon_error *err) {
  cp_blob_descriptor d;
  CP_RETURN_IF_ERROR(cp_blob_descriptor_parse(data, len, &d, err));
  *version = d.version;
  *uri = d.uri;
  *uri_len = d.uri_len;
  *offset = d.offset;
  *length = d.length;
  return PAIMON_OK;
}
