/*
 * Relations (rel.h): building them column by column and the whole-relation operations the
 * executor composes (take, filter, column selection, side-by-side and row concatenation), all
 * through the batch operations of arrow/ops.h.
 */
#include "sql/rel.h"

#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"

void cp_rel_cols_free(cp_rel_col *cols, size_t n) {
  for (size_t i = 0; cols && i < n; i++) {
    free(cols[i].name);
    free(cols[i].qualifier);
    free(cols[i].database);
    cp_type_free(cols[i].type);
  }
  free(cols);
}

void cp_rel_free(cp_rel *r) {
  if (!r) return;
  cp_rel_cols_free(r->cols, r->n_cols);
  cp_schema_release(&r->schema);
  cp_array_release(&r->batch);
  memset(r, 0, sizeof *r);
}

int cp_rel_col_init(cp_rel_col *c, const char *name, const char *qualifier, const cp_type *type,
                    bool hidden, paimon_error *err) {
  memset(c, 0, sizeof *c);
  c->name = strdup(name ? name : "");
  c->qualifier = qualifier ? strdup(qualifier) : NULL;
  c->hidden = hidden;
  int rc = (!c->name || (qualifier && !c->qualifier)) ? CP_ENOMEM(err, "relation column") : 0;
  if (!rc) rc = cp_type_copy(&c->type, type, err);
  if (rc) {
    free(c->name);
    free(c->qualifier);
    memset(c, 0, sizeof *c);
  }
  return rc;
}

int cp_rel_col_set_database(cp_rel_col *c, const char *database, paimon_error *err) {
  free(c->database);
  c->database = database ? strdup(database) : NULL;
  return database && !c->database ? CP_ENOMEM(err, "relation column") : PAIMON_OK;
}

int cp_rel_cols_copy(const cp_rel_col *src, size_t n, cp_rel_col **out, paimon_error *err) {
  cp_rel_col *cols = calloc(n ? n : 1, sizeof *cols);
  if (!cols) return CP_ENOMEM(err, "relation columns");
  for (size_t i = 0; i < n; i++) {
    int rc =
        cp_rel_col_init(&cols[i], src[i].name, src[i].qualifier, src[i].type, src[i].hidden, err);
    if (!rc) rc = cp_rel_col_set_database(&cols[i], src[i].database, err);
    cols[i].qualified_only = src[i].qualified_only;
    if (rc) {
      cp_rel_cols_free(cols, i + 1); /* a failed init leaves cols[i] zeroed */
      return rc;
    }
  }
  *out = cols;
  return PAIMON_OK;
}

/* ---- builder -------------------------------------------------------------------------------- */

int cp_rel_builder_add(cp_rel_builder *b, const char *name, const char *qualifier,
                       const cp_type *type, bool hidden, struct ArrowSchema *schema,
                       struct ArrowArray *array, paimon_error *err) {
  int rc = PAIMON_OK;
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 8;
    cp_rel_col *cols = realloc(b->cols, cap * sizeof *cols);
    if (cols) b->cols = cols;
    struct ArrowSchema *schemas = cols ? realloc(b->schemas, cap * sizeof *schemas) : NULL;
    if (schemas) b->schemas = schemas;
    struct ArrowArray *arrays = schemas ? realloc(b->arrays, cap * sizeof *arrays) : NULL;
    if (arrays) b->arrays = arrays;
    if (arrays)
      b->cap = cap;
    else
      rc = CP_ENOMEM(err, "relation");
  }
  if (!rc) rc = cp_rel_col_init(&b->cols[b->n], name, qualifier, type, hidden, err);
  if (!rc) {
    rc = cp_schema_set_name(schema, name, err);
    if (rc) {
      free(b->cols[b->n].name);
      free(b->cols[b->n].qualifier);
      cp_type_free(b->cols[b->n].type);
    }
  }
  if (rc) {
    cp_schema_release(schema);
    cp_array_release(array);
    return rc;
  }
  cp_schema_move(schema, &b->schemas[b->n]);
  cp_array_move(array, &b->arrays[b->n]);
  b->n++;
  return PAIMON_OK;
}

/* A zero-copy handle on child i of r's batch, narrowed to the batch's rows. */
static int share_child(const cp_rel *r, size_t i, struct ArrowArray *out, paimon_error *err) {
  /* Sharing turns the child into a reference-counted handle; its contents stay as they are. */
  struct ArrowArray *child = r->batch.children[i];
  CP_RETURN_IF_ERROR(cp_array_share(child, out, err));
  if (r->batch.offset || out->length != r->batch.length) {
    int rc = cp_array_slice_inplace(out, r->batch.offset, r->batch.length, err);
    if (rc) {
      cp_array_release(out);
      return rc;
    }
  }
  return PAIMON_OK;
}

int cp_rel_column_share(const cp_rel *r, size_t i, struct ArrowSchema *schema,
                        struct ArrowArray *array, paimon_error *err) {
  memset(array, 0, sizeof *array);
  CP_RETURN_IF_ERROR(cp_schema_copy(schema, r->schema.children[i], err));
  int rc = share_child(r, i, array, err);
  if (rc) cp_schema_release(schema);
  return rc;
}

static int add_shared(cp_rel_builder *b, const cp_rel *r, size_t i, const char *name,
                      const char *qualifier, bool hidden, paimon_error *err) {
  struct ArrowSchema s;
  struct ArrowArray a;
  CP_RETURN_IF_ERROR(cp_rel_column_share(r, i, &s, &a, err));
  return cp_rel_builder_add(b, name, qualifier, r->cols[i].type, hidden, &s, &a, err);
}

int cp_rel_builder_add_from(cp_rel_builder *b, const cp_rel *r, size_t i, paimon_error *err) {
  const cp_rel_col *c = &r->cols[i];
  CP_RETURN_IF_ERROR(add_shared(b, r, i, c->name, c->qualifier, c->hidden, err));
  b->cols[b->n - 1].qualified_only = c->qualified_only;
  return cp_rel_col_set_database(&b->cols[b->n - 1], c->database, err);
}

int cp_rel_builder_add_renamed(cp_rel_builder *b, const cp_rel *r, size_t i, const char *name,
                               paimon_error *err) {
  return add_shared(b, r, i, name, NULL, false, err);
}

void cp_rel_builder_free(cp_rel_builder *b) {
  for (size_t i = 0; i < b->n; i++) {
    cp_schema_release(&b->schemas[i]);
    cp_array_release(&b->arrays[i]);
  }
  cp_rel_cols_free(b->cols, b->n);
  free(b->schemas);
  free(b->arrays);
  memset(b, 0, sizeof *b);
}

int cp_rel_builder_finish(cp_rel_builder *b, int64_t rows, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < b->n; i++)
    if (b->arrays[i].length != rows) {
      int rc =
          paimon_error_set(err, PAIMON_EINVAL, "internal: column %s has %lld rows, expected %lld",
                           b->cols[i].name, (long long)b->arrays[i].length, (long long)rows);
      cp_rel_builder_free(b);
      return rc;
    }
  int rc = cp_array_init(&out->batch, 1, (int64_t)b->n, err);
  if (!rc) {
    out->batch.length = rows;
    for (size_t i = 0; i < b->n; i++) cp_array_move(&b->arrays[i], out->batch.children[i]);
    /* Moves the children in, also when it fails (then they are released). */
    rc = cp_schema_make_struct(&out->schema, "", 0, b->schemas, (int64_t)b->n, err);
  }
  if (rc) {
    cp_rel_builder_free(b);
    cp_array_release(&out->batch);
    memset(out, 0, sizeof *out);
    return rc;
  }
  out->cols = b->cols;
  out->n_cols = b->n;
  b->cols = NULL;
  b->n = 0;
  cp_rel_builder_free(b);
  return PAIMON_OK;
}

/* ---- operations ----------------------------------------------------------------------------- */

int cp_rel_view(const cp_rel *r, cp_array_view *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  return cp_array_view_init(out, &r->schema, &r->batch, err);
}

int cp_rel_empty(int64_t rows, cp_rel *out, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  return cp_rel_builder_finish(&b, rows, out, err);
}

/* Wraps a new batch (same type as r's) in a relation with r's columns and schema. */
static int adopt_batch(const cp_rel *r, struct ArrowArray *batch, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  int rc = cp_schema_copy(&out->schema, &r->schema, err);
  if (!rc) rc = cp_rel_cols_copy(r->cols, r->n_cols, &out->cols, err);
  if (rc) {
    cp_array_release(batch);
    cp_rel_free(out);
    return rc;
  }
  out->n_cols = r->n_cols;
  cp_array_move(batch, &out->batch);
  return PAIMON_OK;
}

int cp_rel_take(const cp_rel *r, const int64_t *idx, int64_t n, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (r->n_cols == 0) return cp_rel_empty(n, out, err);
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  struct ArrowArray batch;
  memset(&batch, 0, sizeof batch);
  int rc = cp_take(&v, idx, n, &batch, err);
  cp_array_view_reset(&v);
  CP_RETURN_IF_ERROR(rc);
  /* Rows taken at -1 are NULL in the struct; the executor reads the children only, which hold
   * NULLs there too, so the struct's own validity is dropped. */
  batch.null_count = 0;
  batch.buffers[0] = NULL;
  return adopt_batch(r, &batch, out, err);
}

int cp_rel_take_keys(const cp_rel *r, const int64_t *idx, int64_t n, size_t n_keys, cp_rel *out,
                     paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_rel_take(r, idx, n, out, err));
  for (size_t c = 0; c < n_keys && c < out->n_cols; c++) {
    cp_type_kind k = out->cols[c].type->kind;
    if (k != CP_TYPE_FLOAT && k != CP_TYPE_DOUBLE) continue;
    /* cp_take built this column's buffers afresh: the relation alone owns them. */
    struct ArrowArray *a = out->batch.children[c];
    if (a->length == 0 || !a->buffers[1]) continue;
    if (k == CP_TYPE_FLOAT) {
      float *v = (float *)(uintptr_t)a->buffers[1] + a->offset;
      for (int64_t i = 0; i < a->length; i++)
        if (v[i] == 0) v[i] = 0.0f;
    } else {
      double *v = (double *)(uintptr_t)a->buffers[1] + a->offset;
      for (int64_t i = 0; i < a->length; i++)
        if (v[i] == 0) v[i] = 0.0;
    }
  }
  return PAIMON_OK;
}

int cp_rel_filter(const cp_rel *r, const uint8_t *bits, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (r->n_cols == 0) return cp_rel_empty(cp_bitmap_count_set(bits, 0, cp_rel_rows(r)), out, err);
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_rel_view(r, &v, err));
  struct ArrowArray batch;
  memset(&batch, 0, sizeof batch);
  int rc = cp_filter(&v, bits, 0, &batch, err);
  cp_array_view_reset(&v);
  CP_RETURN_IF_ERROR(rc);
  return adopt_batch(r, &batch, out, err);
}

int cp_rel_project_cols(const cp_rel *r, const size_t *keep, size_t n, cp_rel *out,
                        paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  for (size_t i = 0; i < n; i++) {
    int rc = cp_rel_builder_add_from(&b, r, keep[i], err);
    if (rc) {
      cp_rel_builder_free(&b);
      memset(out, 0, sizeof *out);
      return rc;
    }
  }
  return cp_rel_builder_finish(&b, cp_rel_rows(r), out, err);
}

int cp_rel_concat_cols(const cp_rel *a, const cp_rel *b, cp_rel *out, paimon_error *err) {
  cp_rel_builder bld = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < a->n_cols; i++) rc = cp_rel_builder_add_from(&bld, a, i, err);
  for (size_t i = 0; !rc && i < b->n_cols; i++) rc = cp_rel_builder_add_from(&bld, b, i, err);
  if (rc) {
    cp_rel_builder_free(&bld);
    memset(out, 0, sizeof *out);
    return rc;
  }
  return cp_rel_builder_finish(&bld, cp_rel_rows(a), out, err);
}

int cp_rel_set_qualifier(cp_rel *r, const char *qualifier, paimon_error *err) {
  for (size_t i = 0; i < r->n_cols; i++) {
    char *q = qualifier ? strdup(qualifier) : NULL;
    if (qualifier && !q) return CP_ENOMEM(err, "relation");
    free(r->cols[i].qualifier);
    r->cols[i].qualifier = q;
    free(r->cols[i].database); /* an alias hides the table's name */
    r->cols[i].database = NULL;
  }
  return PAIMON_OK;
}

int cp_rel_concat_rows(const cp_rel *parts, size_t n, cp_rel *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (n == 1 || parts[0].n_cols == 0) {
    int64_t rows = 0;
    for (size_t i = 0; i < n; i++) rows += cp_rel_rows(&parts[i]);
    if (parts[0].n_cols == 0) return cp_rel_empty(rows, out, err);
  }
  cp_array_view *views = calloc(n, sizeof *views);
  if (!views) return CP_ENOMEM(err, "relation");
  int rc = PAIMON_OK;
  size_t made = 0;
  for (; made < n && !rc; made++) rc = cp_rel_view(&parts[made], &views[made], err);
  struct ArrowArray batch;
  memset(&batch, 0, sizeof batch);
  if (!rc) rc = cp_concat(views, (int64_t)n, &batch, err);
  for (size_t i = 0; i < made; i++) cp_array_view_reset(&views[i]);
  free(views);
  CP_RETURN_IF_ERROR(rc);
  return adopt_batch(&parts[0], &batch, out, err);
}
