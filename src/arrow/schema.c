/*
 * Owned ArrowSchema trees and their binary metadata (schema.h); Arrow C Data Interface,
 * "The ArrowSchema structure" and "Metadata" sections.
 */
#include "arrow/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

/* What an owned schema node allocates; freed by schema_release. */
typedef struct schema_private {
  char *format;
  char *name;
  char *metadata;
  struct ArrowSchema *child_structs; /* n_children structs the `children` pointers point at */
  struct ArrowSchema **child_ptrs;
} schema_private;

static void schema_release(struct ArrowSchema *s) {
  schema_private *p = s->private_data;
  for (int64_t i = 0; i < s->n_children; i++) {
    struct ArrowSchema *c = s->children[i];
    if (c && c->release) c->release(c);
  }
  if (s->dictionary && s->dictionary->release) s->dictionary->release(s->dictionary);
  if (p) {
    free(p->format);
    free(p->name);
    free(p->metadata);
    free(p->child_structs);
    free(p->child_ptrs);
    free(p);
  }
  s->release = NULL;
}

static bool is_owned(const struct ArrowSchema *s) { return s->release == schema_release; }

static char *dup_or_null(const char *s, bool *failed) {
  if (!s) return NULL;
  char *d = strdup(s);
  if (!d) *failed = true;
  return d;
}

int cp_schema_init(struct ArrowSchema *out, const char *format, const char *name, int64_t flags,
                   int64_t n_children, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (!format) return paimon_error_set(err, PAIMON_EINVAL, "schema format must not be NULL");
  if (n_children < 0 || n_children > (1 << 24))
    return paimon_error_set(err, PAIMON_EINVAL, "bad schema child count %lld",
                            (long long)n_children);
  schema_private *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "schema node");
  bool failed = false;
  p->format = dup_or_null(format, &failed);
  p->name = dup_or_null(name, &failed);
  if (n_children > 0) {
    p->child_structs = calloc((size_t)n_children, sizeof *p->child_structs);
    p->child_ptrs = calloc((size_t)n_children, sizeof *p->child_ptrs);
    if (!p->child_structs || !p->child_ptrs) failed = true;
  }
  out->private_data = p;
  out->release = schema_release;
  if (failed) {
    schema_release(out);
    return CP_ENOMEM(err, "schema node");
  }
  for (int64_t i = 0; i < n_children; i++) p->child_ptrs[i] = &p->child_structs[i];
  out->format = p->format;
  out->name = p->name;
  out->flags = flags;
  out->n_children = n_children;
  out->children = p->child_ptrs;
  return PAIMON_OK;
}

int cp_schema_init_type(struct ArrowSchema *out, const cp_arrow_type_info *type, const char *name,
                        int64_t flags, int64_t n_children, paimon_error *err) {
  char fmt[96];
  out->release = NULL;
  CP_RETURN_IF_ERROR(cp_arrow_format_string(type, fmt, sizeof fmt, err));
  return cp_schema_init(out, fmt, name, flags, n_children, err);
}

static int require_owned(const struct ArrowSchema *s, const char *what, paimon_error *err) {
  if (!s->release || !is_owned(s))
    return paimon_error_set(err, PAIMON_ESTATE, "%s: schema was not made by cp_schema_init", what);
  return PAIMON_OK;
}

int cp_schema_set_format(struct ArrowSchema *s, const char *format, paimon_error *err) {
  CP_RETURN_IF_ERROR(require_owned(s, "set format", err));
  if (!format) return paimon_error_set(err, PAIMON_EINVAL, "schema format must not be NULL");
  char *d = strdup(format);
  if (!d) return CP_ENOMEM(err, "schema format");
  schema_private *p = s->private_data;
  free(p->format);
  p->format = d;
  s->format = d;
  return PAIMON_OK;
}

int cp_schema_set_name(struct ArrowSchema *s, const char *name, paimon_error *err) {
  CP_RETURN_IF_ERROR(require_owned(s, "set name", err));
  char *d = NULL;
  if (name && !(d = strdup(name))) return CP_ENOMEM(err, "schema name");
  schema_private *p = s->private_data;
  free(p->name);
  p->name = d;
  s->name = d;
  return PAIMON_OK;
}

/* ---- metadata ------------------------------------------------------------------------------- */

static int32_t read_i32(const char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

int cp_metadata_reader_init(cp_metadata_reader *r, const char *metadata, paimon_error *err) {
  r->pos = NULL;
  r->remaining = 0;
  if (!metadata) return PAIMON_OK;
  int32_t n = read_i32(metadata);
  if (n < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "schema metadata has a negative pair count %d",
                            (int)n);
  r->pos = metadata + 4;
  r->remaining = n;
  return PAIMON_OK;
}

int cp_metadata_reader_next(cp_metadata_reader *r, const char **key, int32_t *key_len,
                            const char **value, int32_t *value_len, paimon_error *err) {
  if (r->remaining <= 0) return 0;
  int32_t kl = read_i32(r->pos);
  if (kl < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "schema metadata has a negative key length %d",
                            (int)kl);
  const char *k = r->pos + 4;
  int32_t vl = read_i32(k + kl);
  if (vl < 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "schema metadata key '%.*s' has a negative value "
                            "length %d",
                            (int)kl, k, (int)vl);
  *key = k;
  *key_len = kl;
  *value = k + kl + 4;
  *value_len = vl;
  r->pos = *value + vl;
  r->remaining--;
  return 1;
}

int cp_metadata_get(const char *metadata, const char *key, const char **value, int32_t *value_len,
                    paimon_error *err) {
  cp_metadata_reader r;
  const char *k, *v;
  int32_t kl, vl;
  size_t want = strlen(key);
  *value = NULL;
  *value_len = 0;
  CP_RETURN_IF_ERROR(cp_metadata_reader_init(&r, metadata, err));
  int rc;
  while ((rc = cp_metadata_reader_next(&r, &k, &kl, &v, &vl, err)) == 1) {
    if ((size_t)kl == want && memcmp(k, key, want) == 0) {
      *value = v;
      *value_len = vl;
      return PAIMON_OK;
    }
  }
  return rc;
}

int64_t cp_metadata_size(const char *metadata, paimon_error *err) {
  cp_metadata_reader r;
  const char *k, *v;
  int32_t kl, vl;
  if (!metadata) return 0;
  CP_RETURN_IF_ERROR(cp_metadata_reader_init(&r, metadata, err));
  int rc;
  while ((rc = cp_metadata_reader_next(&r, &k, &kl, &v, &vl, err)) == 1) {
  }
  if (rc < 0) return rc;
  return (int64_t)(r.pos - metadata);
}

int cp_metadata_builder_add(cp_metadata_builder *b, const char *key, int32_t key_len,
                            const char *value, int32_t value_len, paimon_error *err) {
  if (key_len < 0 || value_len < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "metadata key/value length must be >= 0");
  if (b->buf.len == 0) CP_RETURN_IF_ERROR(cp_buf_append_zeros(&b->buf, 4, err));
  CP_RETURN_IF_ERROR(cp_buf_reserve(&b->buf, 8 + (size_t)key_len + (size_t)value_len, err));
  cp_buf_append(&b->buf, &key_len, 4, err);
  cp_buf_append(&b->buf, key, (size_t)key_len, err);
  cp_buf_append(&b->buf, &value_len, 4, err);
  cp_buf_append(&b->buf, value, (size_t)value_len, err);
  b->n++;
  memcpy(b->buf.data, &b->n, 4);
  return PAIMON_OK;
}

int cp_schema_set_metadata(struct ArrowSchema *s, const char *metadata, paimon_error *err) {
  CP_RETURN_IF_ERROR(require_owned(s, "set metadata", err));
  char *d = NULL;
  if (metadata) {
    int64_t size = cp_metadata_size(metadata, err);
    if (size < 0) return (int)size;
    d = malloc((size_t)size);
    if (!d) return CP_ENOMEM(err, "schema metadata");
    memcpy(d, metadata, (size_t)size);
  }
  schema_private *p = s->private_data;
  free(p->metadata);
  p->metadata = d;
  s->metadata = d;
  return PAIMON_OK;
}

int cp_schema_metadata_put(struct ArrowSchema *s, const char *key, const char *value,
                           paimon_error *err) {
  CP_RETURN_IF_ERROR(require_owned(s, "put metadata", err));
  cp_metadata_builder b = CP_METADATA_BUILDER_INIT;
  cp_metadata_reader r;
  const char *k, *v;
  int32_t kl, vl;
  size_t klen = strlen(key), vlen = strlen(value);
  bool replaced = false;
  int rc = cp_metadata_reader_init(&r, s->metadata, err);
  while (rc == 0 && (rc = cp_metadata_reader_next(&r, &k, &kl, &v, &vl, err)) == 1) {
    if ((size_t)kl == klen && memcmp(k, key, klen) == 0) {
      v = value, vl = (int32_t)vlen;
      replaced = true;
    }
    rc = cp_metadata_builder_add(&b, k, kl, v, vl, err);
  }
  if (rc == 0 && !replaced)
    rc = cp_metadata_builder_add(&b, key, (int32_t)klen, value, (int32_t)vlen, err);
  if (rc == 0) rc = cp_schema_set_metadata(s, (const char *)b.buf.data, err);
  cp_metadata_builder_free(&b);
  return rc;
}

/* ---- children and composite schemas -------------------------------------------------------- */

int cp_schema_set_child(struct ArrowSchema *s, int64_t i, struct ArrowSchema *child,
                        paimon_error *err) {
  int rc = require_owned(s, "set child", err);
  if (rc == 0 && (i < 0 || i >= s->n_children))
    rc = paimon_error_set(err, PAIMON_EINVAL, "child index %lld out of range (%lld children)",
                          (long long)i, (long long)s->n_children);
  if (rc != 0) {
    cp_schema_release(child);
    return rc;
  }
  cp_schema_release(s->children[i]);
  cp_schema_move(child, s->children[i]);
  return PAIMON_OK;
}

int cp_schema_make_struct(struct ArrowSchema *out, const char *name, int64_t flags,
                          struct ArrowSchema *children, int64_t n, paimon_error *err) {
  int rc = cp_schema_init(out, "+s", name, flags, n, err);
  for (int64_t i = 0; i < n; i++) {
    if (rc == 0)
      cp_schema_move(&children[i], out->children[i]);
    else
      cp_schema_release(&children[i]);
  }
  return rc;
}

int cp_schema_make_list(struct ArrowSchema *out, const char *name, int64_t flags, bool large,
                        struct ArrowSchema *item, paimon_error *err) {
  int rc = cp_schema_init(out, large ? "+L" : "+l", name, flags, 1, err);
  if (rc != 0) {
    cp_schema_release(item);
    return rc;
  }
  cp_schema_move(item, out->children[0]);
  return PAIMON_OK;
}

int cp_schema_make_map(struct ArrowSchema *out, const char *name, int64_t flags,
                       struct ArrowSchema *key, struct ArrowSchema *value, paimon_error *err) {
  int rc = cp_schema_init(out, "+m", name, flags, 1, err);
  if (rc == 0) rc = cp_schema_init(out->children[0], "+s", "entries", 0, 2, err);
  if (rc != 0) {
    cp_schema_release(out);
    cp_schema_release(key);
    cp_schema_release(value);
    return rc;
  }
  key->flags &= ~(int64_t)ARROW_FLAG_NULLABLE;
  cp_schema_move(key, out->children[0]->children[0]);
  cp_schema_move(value, out->children[0]->children[1]);
  return PAIMON_OK;
}

int cp_schema_copy(struct ArrowSchema *out, const struct ArrowSchema *src, paimon_error *err) {
  out->release = NULL;
  if (!src || !src->release)
    return paimon_error_set(err, PAIMON_EINVAL, "cannot copy a released schema");
  if (src->dictionary)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "column '%s': dictionary-encoded schemas are not supported",
                            src->name ? src->name : "");
  CP_RETURN_IF_ERROR(cp_schema_init(out, src->format, src->name, src->flags, src->n_children, err));
  int rc = cp_schema_set_metadata(out, src->metadata, err);
  for (int64_t i = 0; rc == 0 && i < src->n_children; i++)
    rc = cp_schema_copy(out->children[i], src->children[i], err);
  if (rc != 0) cp_schema_release(out);
  return rc;
}

/* ---- comparison, validation, rendering ------------------------------------------------------- */

static bool type_info_equal(const cp_arrow_type_info *a, const cp_arrow_type_info *b) {
  return a->id == b->id && a->byte_width == b->byte_width && a->precision == b->precision &&
         a->scale == b->scale && a->unit == b->unit && a->list_size == b->list_size &&
         strcmp(a->timezone, b->timezone) == 0;
}

static bool str_equal(const char *a, const char *b) {
  if (!a || !b) return (a ? *a : 0) == (b ? *b : 0);
  return strcmp(a, b) == 0;
}

bool cp_schema_equal(const struct ArrowSchema *a, const struct ArrowSchema *b, int what) {
  cp_arrow_type_info ta, tb;
  if (cp_arrow_parse_format(a->format, &ta, NULL) == 0 &&
      cp_arrow_parse_format(b->format, &tb, NULL) == 0) {
    if (!type_info_equal(&ta, &tb)) return false;
  } else if (!str_equal(a->format, b->format)) {
    return false;
  }
  if (a->n_children != b->n_children) return false;
  if ((what & CP_SCHEMA_CMP_NAMES) && !str_equal(a->name, b->name)) return false;
  if ((what & CP_SCHEMA_CMP_FLAGS) && a->flags != b->flags) return false;
  if (what & CP_SCHEMA_CMP_METADATA) {
    int64_t sa = cp_metadata_size(a->metadata, NULL), sb = cp_metadata_size(b->metadata, NULL);
    if (sa < 0 || sb < 0 || sa != sb) return false;
    if (sa > 0 && memcmp(a->metadata, b->metadata, (size_t)sa) != 0) return false;
  }
  for (int64_t i = 0; i < a->n_children; i++)
    if (!cp_schema_equal(a->children[i], b->children[i], what)) return false;
  return true;
}

/* Appends ".name" (or "name" at the root) to a path buffer of `cap` bytes; returns the old length
 * so the caller can cut it back. */
static size_t path_push(char *path, size_t cap, const char *name) {
  size_t len = strlen(path);
  snprintf(path + len, cap - len, "%s%s", len ? "." : "", name && *name ? name : "?");
  return len;
}

/* Deeper trees are refused: every recursive walk of a schema (views, builders, copies) would
 * otherwise let a hostile producer exhaust the stack. Paimon types nest a handful of levels. */
#define CP_SCHEMA_MAX_DEPTH 64

static int validate_node(const struct ArrowSchema *s, char *path, size_t cap, int depth,
                         paimon_error *err) {
  if (depth > CP_SCHEMA_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': nested deeper than %d levels",
                            path, CP_SCHEMA_MAX_DEPTH);
  cp_arrow_type_info t;
  if (!s || !s->release)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': schema is NULL or released", path);
  int rc = cp_arrow_parse_format(s->format, &t, err);
  if (rc != 0) {
    paimon_error_prefix(err, "column '%s'", path);
    return rc;
  }
  if (s->dictionary)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "column '%s': dictionary-encoded columns are not supported", path);
  int64_t want = -1;
  switch (t.id) {
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST:
  case CP_ARROW_MAP: want = 1; break;
  case CP_ARROW_STRUCT: break;
  default: want = 0; break;
  }
  if (s->n_children < 0 || (want >= 0 && s->n_children != want))
    return paimon_error_set(err, PAIMON_EINVAL,
                            "column '%s': %s schema has %lld children, "
                            "expected %lld",
                            path, cp_arrow_type_name(t.id), (long long)s->n_children,
                            (long long)(want < 0 ? 0 : want));
  if (s->n_children > 0 && !s->children)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': children array is NULL", path);
  if (t.id == CP_ARROW_MAP) {
    const struct ArrowSchema *e = s->children[0];
    if (!e || !e->format || strcmp(e->format, "+s") != 0 || e->n_children != 2)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "column '%s': map entries must be a struct of key and value", path);
  }
  int64_t md = cp_metadata_size(s->metadata, err);
  if (md < 0) {
    paimon_error_prefix(err, "column '%s'", path);
    return (int)md;
  }
  for (int64_t i = 0; i < s->n_children; i++) {
    const struct ArrowSchema *c = s->children[i];
    size_t old = path_push(path, cap, c ? c->name : NULL);
    rc = validate_node(c, path, cap, depth + 1, err);
    path[old] = 0;
    if (rc != 0) return rc;
  }
  return PAIMON_OK;
}

int cp_schema_validate(const struct ArrowSchema *s, paimon_error *err) {
  char path[512] = "";
  if (s && s->name) snprintf(path, sizeof path, "%s", s->name);
  return validate_node(s, path, sizeof path, 0, err);
}

static const char *const unit_names[4] = {"s", "ms", "us", "ns"}; /* by unit / 3 */

int cp_schema_to_string(const struct ArrowSchema *s, cp_buf *out, paimon_error *err) {
  cp_arrow_type_info t;
  CP_RETURN_IF_ERROR(cp_arrow_parse_format(s->format, &t, err));
  const char *name = cp_arrow_type_name(t.id);
  switch (t.id) {
  case CP_ARROW_DECIMAL128:
    return cp_buf_appendf(out, err, "decimal128(%d, %d)", (int)t.precision, (int)t.scale);
  case CP_ARROW_FIXED_SIZE_BINARY:
    return cp_buf_appendf(out, err, "fixed_size_binary[%d]", (int)t.byte_width);
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64: return cp_buf_appendf(out, err, "%s[%s]", name, unit_names[t.unit / 3]);
  case CP_ARROW_TIMESTAMP:
    if (t.has_timezone)
      return cp_buf_appendf(out, err, "timestamp[%s, tz=%s]", unit_names[t.unit / 3], t.timezone);
    return cp_buf_appendf(out, err, "timestamp[%s]", unit_names[t.unit / 3]);
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST:
  case CP_ARROW_STRUCT:
  case CP_ARROW_MAP: break;
  default: return cp_buf_appendf(out, err, "%s", name);
  }
  const struct ArrowSchema *parent = s;
  if (t.id == CP_ARROW_MAP) {
    if (s->n_children != 1 || s->children[0]->n_children != 2)
      return paimon_error_set(err, PAIMON_EINVAL, "malformed map schema");
    parent = s->children[0];
  }
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s<", name));
  for (int64_t i = 0; i < parent->n_children; i++) {
    const struct ArrowSchema *c = parent->children[i];
    if (i) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
    if (t.id != CP_ARROW_MAP)
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s: ", c->name ? c->name : ""));
    CP_RETURN_IF_ERROR(cp_schema_to_string(c, out, err));
    if (!(c->flags & ARROW_FLAG_NULLABLE) && t.id != CP_ARROW_MAP)
      CP_RETURN_IF_ERROR(cp_buf_append(out, " not null", 9, err));
  }
  CP_RETURN_IF_ERROR(cp_buf_append(out, ">", 1, err));
  if (t.id == CP_ARROW_FIXED_SIZE_LIST)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "[%d]", (int)t.list_size));
  return PAIMON_OK;
}
