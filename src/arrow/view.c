/*
 * Validated array views (array.h, part b): checks an imported (ArrowSchema, ArrowArray) pair
 * against the buffer layouts of the Arrow columnar format ("Physical Memory Layout") before any
 * accessor touches it, so that malformed input from a foreign producer fails with a message
 * instead of reading out of bounds.
 *
 * What cannot be checked: the C Data Interface carries no buffer sizes, so for foreign arrays the
 * buffers are trusted to be as long as the lengths and offsets say; for arrays made by this module
 * (cp_array_buffer_size ≥ 0) the sizes are checked too.
 */
#include "arrow/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"

static int64_t count_nodes(const struct ArrowSchema *s) {
  int64_t n = 1;
  for (int64_t i = 0; i < s->n_children; i++) n += count_nodes(s->children[i]);
  return n;
}

typedef struct view_ctx {
  cp_array_view *next; /* next free descendant view in the storage block */
  char path[512];
  paimon_error *err;
} view_ctx;

/* Records a message and prefixes it with the column path; returns `code` (even when err is NULL,
 * where paimon_error_prefix would return 0). */
#define VIEW_FAIL(ctx, code, ...)                                                                  \
  with_path((ctx), paimon_error_set((ctx)->err, (code), __VA_ARGS__))

static int with_path(view_ctx *ctx, int rc) {
  paimon_error_prefix(ctx->err, "column '%s'", ctx->path);
  return rc;
}

/* Checks that buffer `i` of `a` (when its size is known) holds at least `need` bytes, and that it
 * is not NULL when `need` > 0. */
static int check_buffer(view_ctx *ctx, const struct ArrowArray *a, int64_t i, int64_t need,
                        const char *what) {
  if (need <= 0) return PAIMON_OK;
  if (a->buffers[i] == NULL)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "%s buffer is NULL but %lld bytes are needed", what,
                     (long long)need);
  int64_t size = cp_array_buffer_size(a, i);
  if (size >= 0 && size < need)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "%s buffer has %lld bytes, %lld needed", what,
                     (long long)size, (long long)need);
  return PAIMON_OK;
}

/* Validates offsets[off .. off+len] (len+1 entries): non-negative start, monotone, and the last
 * one ≤ `limit` (when limit ≥ 0). Returns the last offset in *last. */
static int check_offsets(view_ctx *ctx, const void *buf, bool large, int64_t off, int64_t len,
                         int64_t limit, const char *limit_what, int64_t *last) {
  int64_t prev = large ? ((const int64_t *)buf)[off] : ((const int32_t *)buf)[off];
  if (prev < 0) return VIEW_FAIL(ctx, PAIMON_EINVAL, "negative first offset %lld", (long long)prev);
  for (int64_t k = 1; k <= len; k++) {
    int64_t cur = large ? ((const int64_t *)buf)[off + k] : ((const int32_t *)buf)[off + k];
    if (cur < prev)
      return VIEW_FAIL(ctx, PAIMON_EINVAL, "%s offsets not monotonic at index %lld",
                       large ? "large" : "list/binary", (long long)(k - 1));
    prev = cur;
  }
  if (limit >= 0 && prev > limit)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "last offset %lld is beyond the %s (%lld)",
                     (long long)prev, limit_what, (long long)limit);
  *last = prev;
  return PAIMON_OK;
}

/* Validity and null count of the node's own rows, and of the window [off, off+len) it is viewed
 * through. */
static int init_validity(view_ctx *ctx, cp_array_view *v, const struct ArrowArray *a, int64_t off,
                         int64_t len) {
  const uint8_t *bits = a->buffers[0];
  v->validity = NULL;
  v->null_count = 0;
  if (bits == NULL) {
    if (a->null_count > 0)
      return VIEW_FAIL(ctx, PAIMON_EINVAL, "null_count is %lld but there is no validity bitmap",
                       (long long)a->null_count);
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(check_buffer(ctx, a, 0, cp_bitmap_bytes(a->offset + a->length), "validity"));
  if (a->null_count >= 0) {
    int64_t own = a->length - cp_bitmap_count_set(bits, a->offset, a->length);
    if (own != a->null_count)
      return VIEW_FAIL(ctx, PAIMON_EINVAL,
                       "null_count is %lld but the validity bitmap has %lld nulls",
                       (long long)a->null_count, (long long)own);
    if (off == a->offset && len == a->length) {
      v->null_count = own;
      if (own > 0) v->validity = bits;
      return PAIMON_OK;
    }
  }
  v->null_count = len - cp_bitmap_count_set(bits, off, len);
  if (v->null_count > 0) v->validity = bits;
  return PAIMON_OK;
}

static int init_node(view_ctx *ctx, cp_array_view *v, const struct ArrowSchema *s,
                     const struct ArrowArray *a, int64_t off, int64_t len);

static int init_children(view_ctx *ctx, cp_array_view *v, const struct ArrowSchema *s,
                         const struct ArrowArray *a) {
  v->n_children = s->n_children;
  v->children = NULL;
  if (s->n_children == 0) return PAIMON_OK;
  v->children = ctx->next;
  ctx->next += s->n_children;
  for (int64_t i = 0; i < s->n_children; i++) {
    const struct ArrowArray *c = a->children[i];
    size_t old = strlen(ctx->path);
    const char *cn = s->children[i]->name;
    snprintf(ctx->path + old, sizeof ctx->path - old, "%s%s", old ? "." : "", cn && *cn ? cn : "?");
    int rc;
    if (c->length < 0 || c->offset < 0 || c->offset > INT64_MAX / 2 - c->length) {
      rc = VIEW_FAIL(ctx, PAIMON_EINVAL, "bad length %lld / offset %lld", (long long)c->length,
                     (long long)c->offset);
    } else if (v->type.id == CP_ARROW_STRUCT) {
      /* Struct children are aligned with the parent: fold its window into theirs. */
      if (c->length < v->offset + v->length)
        rc = VIEW_FAIL(ctx, PAIMON_EINVAL, "struct child has %lld rows, parent needs %lld",
                       (long long)c->length, (long long)(v->offset + v->length));
      else
        rc = init_node(ctx, &v->children[i], s->children[i], c, c->offset + v->offset, v->length);
    } else {
      rc = init_node(ctx, &v->children[i], s->children[i], c, c->offset, c->length);
    }
    ctx->path[old] = 0;
    if (rc != 0) return rc;
  }
  return PAIMON_OK;
}

/* The type-specific buffer checks. */
static int check_layout(view_ctx *ctx, cp_array_view *v, const struct ArrowArray *a, int64_t off,
                        int64_t len) {
  cp_arrow_type id = v->type.id;
  int64_t end = off + len, last;
  if (id == CP_ARROW_BOOL) {
    CP_RETURN_IF_ERROR(check_buffer(ctx, a, 1, cp_bitmap_bytes(end), "values"));
    v->values.data = a->buffers[1];
  } else if (v->type.byte_width > 0) {
    if (end > INT64_MAX / v->type.byte_width)
      return VIEW_FAIL(ctx, PAIMON_EINVAL, "array too long (%lld rows)", (long long)end);
    CP_RETURN_IF_ERROR(check_buffer(ctx, a, 1, end * v->type.byte_width, "values"));
    v->values.data = a->buffers[1];
  } else if (cp_arrow_type_is_var_binary(id) || cp_arrow_type_is_list_like(id)) {
    bool large = cp_arrow_type_has_large_offsets(id);
    int64_t w = large ? 8 : 4;
    if (end == 0 && a->buffers[1] == NULL) return PAIMON_OK; /* empty: producers may omit */
    CP_RETURN_IF_ERROR(check_buffer(ctx, a, 1, (end + 1) * w, "offsets"));
    if (large)
      v->offsets64 = a->buffers[1];
    else
      v->offsets32 = a->buffers[1];
    if (cp_arrow_type_is_var_binary(id)) {
      int64_t data_size = cp_array_buffer_size(a, 2);
      CP_RETURN_IF_ERROR(
          check_offsets(ctx, a->buffers[1], large, off, len, data_size, "data buffer size", &last));
      if (last > 0 && a->buffers[2] == NULL)
        return VIEW_FAIL(ctx, PAIMON_EINVAL, "data buffer is NULL but offsets reach %lld",
                         (long long)last);
      /* An all-empty column may come without data; point at an empty byte so that accessors
       * never do arithmetic on NULL. */
      static const uint8_t no_bytes[1] = {0};
      v->data = a->buffers[2] ? a->buffers[2] : no_bytes;
    } else {
      CP_RETURN_IF_ERROR(check_offsets(ctx, a->buffers[1], large, off, len, a->children[0]->length,
                                       "child array length", &last));
    }
  } else if (id == CP_ARROW_FIXED_SIZE_LIST) {
    int64_t need = end * (int64_t)v->type.list_size;
    if (a->children[0]->length < need)
      return VIEW_FAIL(ctx, PAIMON_EINVAL, "fixed_size_list child has %lld values, %lld needed",
                       (long long)a->children[0]->length, (long long)need);
  }
  return PAIMON_OK;
}

static int init_node(view_ctx *ctx, cp_array_view *v, const struct ArrowSchema *s,
                     const struct ArrowArray *a, int64_t off, int64_t len) {
  memset(v, 0, sizeof *v);
  v->schema = s;
  v->array = a;
  v->name = s->name ? s->name : "";
  v->nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
  int rc = cp_arrow_parse_format(s->format, &v->type, ctx->err);
  if (rc != 0) return with_path(ctx, rc);
  v->length = len;
  v->offset = off;
  int64_t want_buffers = cp_arrow_type_n_buffers(v->type.id);
  if (a->n_buffers != want_buffers)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "%s array has %lld buffers, expected %lld",
                     cp_arrow_type_name(v->type.id), (long long)a->n_buffers,
                     (long long)want_buffers);
  if (a->n_children != s->n_children)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "array has %lld children but its schema has %lld",
                     (long long)a->n_children, (long long)s->n_children);
  if (a->n_buffers > 0 && !a->buffers)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "buffers array is NULL");
  if (a->n_children > 0 && !a->children)
    return VIEW_FAIL(ctx, PAIMON_EINVAL, "children array is NULL");
  if (a->dictionary)
    return VIEW_FAIL(ctx, PAIMON_EUNSUPPORTED, "dictionary-encoded arrays are not supported");
  if (v->type.id == CP_ARROW_NA) {
    v->null_count = len;
    return PAIMON_OK;
  }
  for (int64_t i = 0; i < a->n_children; i++) {
    if (!a->children[i] || !a->children[i]->release) {
      const char *cn = s->children[i]->name;
      size_t old = strlen(ctx->path);
      snprintf(ctx->path + old, sizeof ctx->path - old, "%s%s", old ? "." : "",
               cn && *cn ? cn : "?");
      return VIEW_FAIL(ctx, PAIMON_EINVAL, "child array is NULL or released");
    }
  }
  CP_RETURN_IF_ERROR(init_validity(ctx, v, a, off, len));
  CP_RETURN_IF_ERROR(check_layout(ctx, v, a, off, len));
  return init_children(ctx, v, s, a);
}

int cp_array_view_init(cp_array_view *v, const struct ArrowSchema *schema,
                       const struct ArrowArray *array, paimon_error *err) {
  memset(v, 0, sizeof *v);
  CP_RETURN_IF_ERROR(cp_schema_validate(schema, err));
  if (!array || !array->release)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': array is NULL or released",
                            schema->name ? schema->name : "");
  if (array->length < 0 || array->offset < 0 || array->offset > INT64_MAX / 2 - array->length)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': bad length %lld / offset %lld",
                            schema->name ? schema->name : "", (long long)array->length,
                            (long long)array->offset);
  view_ctx ctx;
  ctx.err = err;
  snprintf(ctx.path, sizeof ctx.path, "%s", schema->name ? schema->name : "");
  int64_t n = count_nodes(schema) - 1;
  void *storage = NULL;
  if (n > 0 && !(storage = calloc((size_t)n, sizeof(cp_array_view))))
    return CP_ENOMEM(err, "array view");
  ctx.next = storage;
  int rc = init_node(&ctx, v, schema, array, array->offset, array->length);
  v->storage_ = storage;
  if (rc != 0) cp_array_view_reset(v);
  return rc;
}

void cp_array_view_reset(cp_array_view *v) {
  free(v->storage_);
  memset(v, 0, sizeof *v);
}

int64_t cp_view_child_index(const cp_array_view *v, const char *name) {
  for (int64_t i = 0; i < v->n_children; i++)
    if (strcmp(v->children[i].name, name) == 0) return i;
  return -1;
}
