/*
 * The read builder (include/cpaimon/read.h): projection, filters, time travel, shard / slice /
 * limit, the output columns and planning. Reading the planned splits is read.c's; see there for
 * how files, schemas and hidden columns are read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arrow/array.h"
#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "expr/expr.h"
#include "expr/predicate.h"
#include "format/parquet/reader.h"
#include "table/dv.h"
#include "table/history_internal.h"
#include "table/read_internal.h"
#include "table/scan.h"
#include "table/store.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

void cp_read_builder_ignore_deletion_vectors(paimon_read_builder *rb) {
  rb->ignore_deletion_vectors = true;
}

int paimon_read_builder_new(paimon_read_builder **out, paimon_table *t, paimon_error *err) {
  paimon_read_builder *rb = calloc(1, sizeof *rb);
  if (!rb) return CP_ENOMEM(err, "read builder");
  rb->t = t;
  rb->schema_id = -1;
  rb->batch_size = CP_PQ_DEFAULT_BATCH_SIZE;
  rb->read_threads = -1;
  rb->read_ahead = 2;
  rb->decode_threads = -1;
  rb->blob_as_descriptor = -1;
  *out = rb;
  return PAIMON_OK;
}

static void free_projection(paimon_read_builder *rb) {
  for (size_t i = 0; i < rb->n_projection; i++) free(rb->projection[i]);
  free(rb->projection);
  rb->projection = NULL;
  rb->n_projection = 0;
}

void paimon_read_builder_free(paimon_read_builder *rb) {
  if (!rb) return;
  free_projection(rb);
  cp_expr_free(rb->filter);
  cp_expr_free(rb->part_filter);
  free(rb->tag);
  free(rb);
}

/* The schema reads through `rb` use (borrowed from the table): the time-travel snapshot's, else
 * the table's. */
int cp_rb_read_schema(paimon_read_builder *rb, const cp_table_schema **out, paimon_error *err) {
  if (rb->schema_id < 0) {
    *out = rb->t->schema;
    return PAIMON_OK;
  }
  return cp_table_schema_by_id(rb->t, rb->schema_id, out, err);
}

/* The filter bound to the filter row of `schema` (its columns + hidden), or NULL when there is
 * none. */
int cp_rb_bind_filter(paimon_read_builder *rb, const cp_table_schema *schema, cp_expr **out,
                      paimon_error *err) {
  *out = NULL;
  if (!rb->filter) return PAIMON_OK;
  cp_type *row;
  CP_RETURN_IF_ERROR(cp_schema_filter_row(rb->t, schema, &row, err));
  int rc = cp_expr_bind(rb->filter, row, false, out, err);
  cp_type_free(row);
  /* An unknown column in a filter is a mistake in the caller's input, not a missing object. */
  if (rc == PAIMON_ENOTFOUND && err) rc = err->code = PAIMON_EINVAL;
  if (rc && rb->schema_id >= 0)
    paimon_error_prefix(err, "filter on table %s at snapshot %" PRId64, rb->t->full_name,
                        rb->snapshot_id);
  else if (rc)
    paimon_error_prefix(err, "filter on table %s", rb->t->full_name);
  return rc;
}

static int bind_part_filter(paimon_read_builder *rb, const cp_table_schema *schema, cp_expr **out,
                            paimon_error *err);

/* Binds the filters now, so that errors name the caller's mistake where it is made. */
static int check_filter(paimon_read_builder *rb, paimon_error *err) {
  const cp_table_schema *schema;
  CP_RETURN_IF_ERROR(cp_rb_read_schema(rb, &schema, err));
  cp_expr *bound = NULL;
  int rc = cp_rb_bind_filter(rb, schema, &bound, err);
  cp_expr_free(bound);
  bound = NULL;
  if (!rc) rc = bind_part_filter(rb, schema, &bound, err);
  cp_expr_free(bound);
  return rc;
}

int paimon_read_builder_set_filter(paimon_read_builder *rb, const paimon_predicate *p,
                                   paimon_error *err) {
  cp_expr *copy = NULL;
  if (p) CP_RETURN_IF_ERROR(cp_expr_copy(&copy, p->expr, err));
  cp_expr_free(rb->filter);
  rb->filter = copy;
  int rc = check_filter(rb, err);
  if (rc) {
    cp_expr_free(rb->filter);
    rb->filter = NULL;
  }
  return rc;
}

static int resolve_one(paimon_read_builder *rb, const cp_table_schema *schema, const char *name,
                       struct out_col *c, paimon_error *err);
static void clear_col(out_col *c);

/* Resolves every projected name, so that unknown names fail where the caller made the mistake. */
static int check_projection(paimon_read_builder *rb, paimon_error *err) {
  if (!rb->has_projection) return PAIMON_OK;
  const cp_table_schema *schema;
  CP_RETURN_IF_ERROR(cp_rb_read_schema(rb, &schema, err));
  for (size_t i = 0; i < rb->n_projection; i++) {
    out_col c;
    memset(&c, 0, sizeof c);
    int rc = resolve_one(rb, schema, rb->projection[i], &c, err);
    clear_col(&c);
    if (rc) return rc;
  }
  return PAIMON_OK;
}

int paimon_read_builder_set_projection(paimon_read_builder *rb, const char *const *cols, size_t n,
                                       paimon_error *err) {
  free_projection(rb);
  rb->has_projection = false;
  rb->projection = calloc(n ? n : 1, sizeof *rb->projection);
  if (!rb->projection) return CP_ENOMEM(err, "projection");
  for (size_t i = 0; i < n; i++) {
    if (!(rb->projection[i] = strdup(cols[i]))) {
      rb->n_projection = i;
      free_projection(rb);
      return CP_ENOMEM(err, "projection");
    }
  }
  rb->n_projection = n;
  rb->has_projection = true;
  int rc = check_projection(rb, err);
  if (rc) {
    free_projection(rb);
    rb->has_projection = false;
  }
  return rc;
}

int paimon_read_builder_with_row_tracking(paimon_read_builder *rb, paimon_error *err) {
  if (!rb->t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table %s: _ROW_ID and _SEQUENCE_NUMBER need row-tracking.enabled",
                            rb->t->full_name);
  rb->row_tracking = true;
  return PAIMON_OK;
}

/* Points the builder at snapshot `id` (or, with `tag`, at the tag's copy of its snapshot), with
 * that snapshot's schema when `travel`, else the table's; the projection and filter already set
 * must resolve in the new schema, or nothing changes. */
static int switch_snapshot(paimon_read_builder *rb, int64_t id, const char *tag, bool travel,
                           paimon_error *err) {
  cp_snapshot *snap = NULL;
  char *tag_copy = NULL;
  if (tag) {
    CP_RETURN_IF_ERROR(cp_tag_load(rb->t, tag, &snap, NULL, err));
    id = snap->id;
    if (!(tag_copy = strdup(tag))) {
      cp_snapshot_free(snap);
      return CP_ENOMEM(err, "tag");
    }
  }
  if (id <= 0) return paimon_error_set(err, PAIMON_EINVAL, "snapshot id %" PRId64, id);
  bool had = rb->has_snapshot;
  int64_t old_id = rb->snapshot_id, old_schema = rb->schema_id;
  int old_rc = rb->travel_rc;
  paimon_error old_err = rb->travel_err;
  rb->has_snapshot = true;
  rb->snapshot_id = id;
  rb->schema_id = -1;
  rb->travel_rc = PAIMON_OK;
  paimon_error_clear(&rb->travel_err);
  if (travel && !snap)
    rb->travel_rc = cp_snapshot_load(rb->t->fs, rb->t->path, id, &snap, &rb->travel_err);
  if (travel && !rb->travel_rc) rb->schema_id = snap->schema_id;
  cp_snapshot_free(snap);
  int rc = check_projection(rb, err);
  if (!rc) rc = check_filter(rb, err);
  if (rc) {
    rb->has_snapshot = had;
    rb->snapshot_id = old_id;
    rb->schema_id = old_schema;
    rb->travel_rc = old_rc;
    rb->travel_err = old_err;
    free(tag_copy);
  } else {
    free(rb->tag);
    rb->tag = tag_copy;
  }
  return rc;
}

int paimon_read_builder_set_snapshot(paimon_read_builder *rb, int64_t id, paimon_error *err) {
  return switch_snapshot(rb, id, NULL, true, err);
}

int paimon_read_builder_set_tag(paimon_read_builder *rb, const char *tag, paimon_error *err) {
  if (!tag || !*tag) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  return switch_snapshot(rb, 0, tag, true, err);
}

int paimon_read_builder_set_timestamp(paimon_read_builder *rb, int64_t epoch_millis,
                                      paimon_error *err) {
  int64_t id;
  bool found;
  CP_RETURN_IF_ERROR(paimon_table_snapshot_at(rb->t, epoch_millis, &id, &found, err));
  if (!found) {
    int64_t earliest;
    bool exists;
    cp_snapshot *s = NULL;
    if (cp_snapshot_earliest_id(rb->t->fs, rb->t->path, &earliest, &exists, NULL) == 0 && exists)
      cp_snapshot_load(rb->t->fs, rb->t->path, earliest, &s, NULL);
    char first[24] = "null";
    if (s) snprintf(first, sizeof first, "%" PRId64, s->time_millis);
    cp_snapshot_free(s);
    return paimon_error_set(err, PAIMON_ENOTFOUND,
                            "table %s: There is currently no snapshot earlier than or equal to "
                            "timestamp [%" PRId64 "], the earliest snapshot's timestamp is [%s]",
                            rb->t->full_name, epoch_millis, first);
  }
  return switch_snapshot(rb, id, NULL, true, err);
}

int cp_read_builder_pin_snapshot(paimon_read_builder *rb, int64_t id, paimon_error *err) {
  return switch_snapshot(rb, id, NULL, false, err);
}

int paimon_read_builder_read_schema(paimon_read_builder *rb, int64_t *id, char **json,
                                    paimon_error *err) {
  if (json) *json = NULL;
  *id = rb->t->schema->id;
  if (rb->travel_rc) {
    if (err) *err = rb->travel_err;
    return rb->travel_rc;
  }
  const cp_table_schema *schema;
  CP_RETURN_IF_ERROR(cp_rb_read_schema(rb, &schema, err));
  *id = schema->id;
  if (!json) return PAIMON_OK;
  cp_buf b = CP_BUF_INIT;
  int rc = cp_table_schema_write(schema, &b, err);
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (rc) {
    cp_buf_free(&b);
    return rc;
  }
  *json = (char *)cp_buf_detach(&b);
  return PAIMON_OK;
}

void paimon_read_builder_set_batch_size(paimon_read_builder *rb, int64_t rows) {
  rb->batch_size = rows > 0 ? rows : CP_PQ_DEFAULT_BATCH_SIZE;
}

int paimon_read_builder_set_read_threads(paimon_read_builder *rb, int threads, paimon_error *err) {
  if (threads < -1 || threads == 0 || threads > 64)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "read threads must be -1 (automatic) or 1..64, got %d", threads);
  rb->read_threads = threads;
  return PAIMON_OK;
}

int paimon_read_builder_set_blob_as_descriptor(paimon_read_builder *rb, bool on,
                                               paimon_error *err) {
  (void)err;
  rb->blob_as_descriptor = on ? 1 : 0;
  return PAIMON_OK;
}

int paimon_read_builder_set_decode_threads(paimon_read_builder *rb, int threads,
                                           paimon_error *err) {
  if (threads < -1 || threads > 1)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "decode threads must be -1 (automatic), 0 or 1, got %d", threads);
  rb->decode_threads = threads;
  return PAIMON_OK;
}

int paimon_read_builder_set_read_ahead(paimon_read_builder *rb, int64_t batches,
                                       paimon_error *err) {
  if (batches < -1 || batches == 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "read-ahead must be -1 (no bound) or at least 1 batch, got %" PRId64,
                            batches);
  rb->read_ahead = batches;
  return PAIMON_OK;
}

/* The partition filter's partition conjuncts bound to the filter row of `schema` (NULL when no
 * partition filter is set). The whole predicate is bound first, so that an unknown column is
 * an error even in a conjunct that trimming drops. */
static int bind_part_filter(paimon_read_builder *rb, const cp_table_schema *schema, cp_expr **out,
                            paimon_error *err) {
  *out = NULL;
  if (!rb->part_filter) return PAIMON_OK;
  cp_type *row = NULL;
  cp_expr *whole = NULL, *trimmed = NULL;
  int rc = cp_schema_filter_row(rb->t, schema, &row, err);
  if (!rc) rc = cp_expr_bind(rb->part_filter, row, false, &whole, err);
  if (rc == PAIMON_ENOTFOUND && err) rc = err->code = PAIMON_EINVAL;
  if (!rc) rc = cp_partition_conjuncts(rb->part_filter, schema, &trimmed, err);
  if (!rc) rc = cp_expr_bind(trimmed, row, false, out, err);
  if (rc) paimon_error_prefix(err, "partition filter on table %s", rb->t->full_name);
  cp_expr_free(whole);
  cp_expr_free(trimmed);
  cp_type_free(row);
  return rc;
}

int paimon_read_builder_set_partition_filter(paimon_read_builder *rb, const paimon_predicate *p,
                                             paimon_error *err) {
  cp_expr *copy = NULL, *old = rb->part_filter;
  if (p) CP_RETURN_IF_ERROR(cp_expr_copy(&copy, p->expr, err));
  rb->part_filter = copy;
  int rc = check_filter(rb, err);
  if (rc) {
    rb->part_filter = old;
    cp_expr_free(copy);
  } else {
    cp_expr_free(old);
  }
  return rc;
}

int paimon_read_builder_set_limit(paimon_read_builder *rb, int64_t limit, paimon_error *err) {
  if (limit < 0)
    return paimon_error_set(err, PAIMON_EINVAL, "limit %" PRId64 " on table %s: must be >= 0",
                            limit, rb->t->full_name);
  rb->select.has_limit = true;
  rb->select.limit = limit;
  return PAIMON_OK;
}

void paimon_read_builder_clear_limit(paimon_read_builder *rb) { rb->select.has_limit = false; }

int paimon_read_builder_set_shard(paimon_read_builder *rb, int64_t index, int64_t count,
                                  paimon_error *err) {
  return cp_plan_selection_shard(&rb->select, index, count, err);
}

int paimon_read_builder_set_slice(paimon_read_builder *rb, int64_t start, int64_t end,
                                  paimon_error *err) {
  return cp_plan_selection_slice(&rb->select, start, end, err);
}

/* ------------------------------------ output columns ------------------------------------ */

static void clear_col(out_col *c) {
  if (c->kind == COL_FIELD) cp_field_clear(&c->field);
  if (c->has_out) cp_field_clear(&c->out);
  free(c->path);
  memset(c, 0, sizeof *c);
}

void cp_rb_free_cols(out_col *cols, size_t n) {
  for (size_t i = 0; cols && i < n; i++) clear_col(&cols[i]);
  free(cols);
}

/* "r.x.y" naming a field nested in ROW column r (Java's nested projection steps through ROWs
 * only); a top-level column with that exact name wins. ENOTFOUND-style EINVAL naming the path
 * otherwise. */
static int resolve_nested(paimon_read_builder *rb, const cp_table_schema *schema, const char *name,
                          out_col *c, paimon_error *err) {
  char *copy = strdup(name);
  if (!copy) return CP_ENOMEM(err, "projection");
  int rc = PAIMON_OK;
  size_t cap = 1;
  for (const char *q = name; *q; q++) cap += *q == '.';
  c->path = calloc(cap, sizeof *c->path);
  if (!c->path) rc = CP_ENOMEM(err, "projection");
  char *save = NULL, *part = rc ? NULL : strtok_r(copy, ".", &save);
  const cp_field *top = part ? cp_row_find_field(schema->row, part) : NULL;
  const cp_field *cur = top;
  while (!rc && cur && (part = strtok_r(NULL, ".", &save))) {
    ptrdiff_t k = cur->type->kind == CP_TYPE_ROW ? cp_row_field_index(cur->type, part) : -1;
    cur = k >= 0 ? &cur->type->fields[k] : NULL;
    if (cur) c->path[c->n_path++] = (int32_t)k;
  }
  if (!rc && (!cur || !c->n_path))
    rc = paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table %s.", name,
                          rb->t->full_name);
  bool copied = false;
  if (!rc) rc = cp_field_copy(&c->field, top, err);
  if (!rc) {
    copied = true;
    c->kind = COL_FIELD;
    rc = cp_field_copy(&c->out, cur, err);
    c->has_out = rc == 0;
  }
  free(copy);
  if (rc) { /* the caller clears a COL_FIELD's field: leave it empty */
    if (copied) cp_field_clear(&c->field);
    memset(&c->field, 0, sizeof c->field);
    free(c->path);
    c->path = NULL;
    c->n_path = 0;
  }
  return rc;
}

/* Java's NestedProjection.project names, used as soon as one column is nested: the path's names
 * joined with "_" (r_x), a name already taken followed by "_$<n>" with one counter for all. */
static int name_nested(out_col *cols, size_t n, paimon_error *err) {
  bool nested = false;
  for (size_t i = 0; i < n; i++) nested |= cols[i].n_path > 0;
  if (!nested) return PAIMON_OK;
  int dup = 0;
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    if (cols[i].kind != COL_FIELD) continue;
    cp_buf b = CP_BUF_INIT;
    rc = cp_buf_appendf(&b, err, "%s", cols[i].field.name);
    const cp_type *t = cols[i].field.type;
    for (size_t k = 0; !rc && k < cols[i].n_path; k++) {
      rc = cp_buf_appendf(&b, err, "_%s", t->fields[cols[i].path[k]].name);
      t = t->fields[cols[i].path[k]].type;
    }
    char *name = rc ? NULL : strndup(b.data ? (const char *)b.data : "", b.len);
    cp_buf_free(&b);
    if (!rc && !name) rc = CP_ENOMEM(err, "projection");
    for (bool taken = true; !rc && taken;) {
      taken = false;
      for (size_t j = 0; j < i && !taken; j++) {
        const cp_field *o = cols[j].has_out ? &cols[j].out : &cols[j].field;
        taken = cols[j].kind == COL_FIELD && strcmp(o->name, name) == 0;
      }
      char *longer = NULL;
      if (taken && asprintf(&longer, "%s_$%d", name, dup++) < 0) rc = CP_ENOMEM(err, "projection");
      if (longer) {
        free(name);
        name = longer;
      }
    }
    if (!rc && !cols[i].has_out) {
      rc = cp_field_copy(&cols[i].out, &cols[i].field, err);
      cols[i].has_out = rc == 0;
    }
    if (!rc) {
      free(cols[i].out.name);
      cols[i].out.name = name;
      name = NULL;
    }
    free(name);
  }
  return rc;
}

static int resolve_one(paimon_read_builder *rb, const cp_table_schema *schema, const char *name,
                       out_col *c, paimon_error *err) {
  bool rt = rb->t->options.row_tracking;
  if (rt && strcmp(name, CP_ROW_ID_FIELD_NAME) == 0) {
    c->kind = COL_ROW_ID;
    return PAIMON_OK;
  }
  if (rt && strcmp(name, CP_SEQUENCE_NUMBER_FIELD_NAME) == 0) {
    c->kind = COL_SEQ;
    return PAIMON_OK;
  }
  const cp_field *f = cp_row_find_field(schema->row, name);
  if (!f && strchr(name, '.')) return resolve_nested(rb, schema, name, c, err);
  if (!f && rb->schema_id >= 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Column %s is not in table %s at snapshot %" PRId64 ".", name,
                            rb->t->full_name, rb->snapshot_id);
  if (!f)
    return paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table %s.", name,
                            rb->t->full_name);
  c->kind = COL_FIELD;
  return cp_field_copy(&c->field, f, err);
}

int cp_rb_resolve_cols(paimon_read_builder *rb, const cp_table_schema *schema, out_col **out,
                       size_t *n, paimon_error *err) {
  const cp_type *row = schema->row;
  size_t base = rb->has_projection ? rb->n_projection : row->n_fields;
  size_t total = base + (rb->row_tracking ? 2 : 0);
  out_col *cols = calloc(total ? total : 1, sizeof *cols);
  if (!cols) return CP_ENOMEM(err, "read");
  int rc = PAIMON_OK;
  size_t k = 0;
  for (; k < base && !rc; k++)
    rc = resolve_one(rb, schema, rb->has_projection ? rb->projection[k] : row->fields[k].name,
                     &cols[k], err);
  if (!rc && rb->row_tracking) {
    cols[k++].kind = COL_ROW_ID;
    cols[k++].kind = COL_SEQ;
  }
  if (!rc) rc = name_nested(cols, k, err);
  if (rc) {
    cp_rb_free_cols(cols, k);
    return rc;
  }
  *out = cols;
  *n = total;
  return PAIMON_OK;
}

int cp_rb_cols_schema(const out_col *cols, size_t n, struct ArrowSchema *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_schema_init(out, "+s", "", 0, (int64_t)n, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    if (cols[i].kind == COL_FIELD) {
      rc =
          cp_field_to_arrow(cols[i].has_out ? &cols[i].out : &cols[i].field, out->children[i], err);
    } else {
      cp_field f;
      memset(&f, 0, sizeof f);
      rc = cols[i].kind == COL_ROW_ID ? cp_row_id_field(&f, false, err)
                                      : cp_sequence_number_field(&f, false, err);
      if (!rc) rc = cp_field_to_arrow(&f, out->children[i], err);
      cp_field_clear(&f);
    }
  }
  if (rc) out->release(out);
  return rc;
}

int paimon_read_builder_schema(paimon_read_builder *rb, struct ArrowSchema *out,
                               paimon_error *err) {
  const cp_table_schema *schema;
  CP_RETURN_IF_ERROR(cp_rb_read_schema(rb, &schema, err));
  out_col *cols;
  size_t n;
  CP_RETURN_IF_ERROR(cp_rb_resolve_cols(rb, schema, &cols, &n, err));
  int rc = cp_rb_cols_schema(cols, n, out, err);
  cp_rb_free_cols(cols, n);
  return rc;
}

int paimon_read_builder_plan(paimon_read_builder *rb, paimon_plan **out, paimon_error *err) {
  paimon_table *t = rb->t;
  cp_snapshot *snap = NULL;
  int rc = PAIMON_OK;
  if (rb->has_snapshot && rb->travel_rc) {
    /* Never read the snapshot's files with a schema other than its own. */
    if (err) *err = rb->travel_err;
    rc = rb->travel_rc;
  } else if (rb->has_snapshot && rb->tag) {
    rc = cp_tag_load(t, rb->tag, &snap, NULL, err);
  } else if (rb->has_snapshot) {
    rc = cp_snapshot_load(t->fs, t->path, rb->snapshot_id, &snap, err);
  } else {
    int64_t id;
    bool exists;
    rc = cp_table_latest_snapshot_id(t, &id, &exists, err);
    if (!rc && exists) rc = cp_snapshot_load(t->fs, t->path, id, &snap, err);
  }
  const cp_table_schema *schema = NULL;
  cp_expr *filter = NULL;
  if (!rc) rc = cp_rb_read_schema(rb, &schema, err);
  cp_expr *part_filter = NULL;
  if (!rc) rc = cp_rb_bind_filter(rb, schema, &filter, err);
  if (!rc) rc = bind_part_filter(rb, schema, &part_filter, err);
  cp_plan_selection sel = rb->select;
  if (!rc && sel.has_limit)
    rc = cp_filter_reads_partitions_only(filter, schema, &sel.push_limit, err);
  paimon_plan *plan = NULL;
  if (!rc) rc = cp_plan_snapshot_parts(t, schema, snap, filter, part_filter, &plan, err);
  if (!rc) rc = cp_plan_select(t, plan, &sel, err);
  if (!rc)
    *out = plan;
  else
    paimon_plan_free(plan);
  cp_expr_free(filter);
  cp_expr_free(part_filter);
  cp_snapshot_free(snap);
  if (rc) paimon_error_prefix(err, "table %s", t->full_name);
  return rc;
}
