/*
 * The Arrow type of a batch against the Paimon row type the file was opened with (writer.h;
 * types/type_arrow.h gives the Arrow type of each Paimon type, spec/parquet.md §1.1).
 *
 * Accepted besides the exact mapping: utf8 or large_utf8 for strings, binary or large_binary for
 * BINARY/VARBINARY/BLOB (and VARIANT's children), list or large_list for ARRAY, and any non-empty
 * time zone for TIMESTAMP_LTZ (the values are UTC instants whatever zone they are shown in).
 * Nullability flags are not compared: a NOT NULL Paimon type only needs the data to hold no NULL,
 * which the level walk checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "arrow/type.h"
#include "base/status.h"
#include "format/parquet/writer_internal.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static bool is_string(cp_arrow_type id) {
  return id == CP_ARROW_STRING || id == CP_ARROW_LARGE_STRING;
}
static bool is_binary(cp_arrow_type id) {
  return id == CP_ARROW_BINARY || id == CP_ARROW_LARGE_BINARY;
}

/* The timestamp unit type_arrow.h gives a precision. */
static cp_time_unit timestamp_unit(int32_t p) {
  return p == 0 ? CP_UNIT_SECOND : p <= 3 ? CP_UNIT_MILLI : p <= 6 ? CP_UNIT_MICRO : CP_UNIT_NANO;
}

/* Whether the node itself (not its children) has an acceptable Arrow type for `t`, and how many
 * children it must have. */
static bool node_matches(const cp_type *t, const cp_arrow_type_info *a, int64_t *n_children) {
  *n_children = 0;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return a->id == CP_ARROW_BOOL;
  case CP_TYPE_TINYINT: return a->id == CP_ARROW_INT8;
  case CP_TYPE_SMALLINT: return a->id == CP_ARROW_INT16;
  case CP_TYPE_INT: return a->id == CP_ARROW_INT32;
  case CP_TYPE_BIGINT: return a->id == CP_ARROW_INT64;
  case CP_TYPE_FLOAT: return a->id == CP_ARROW_FLOAT;
  case CP_TYPE_DOUBLE: return a->id == CP_ARROW_DOUBLE;
  case CP_TYPE_DECIMAL:
    return a->id == CP_ARROW_DECIMAL128 && a->precision == t->precision && a->scale == t->scale;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: return is_string(a->id);
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: return is_binary(a->id);
  case CP_TYPE_DATE: return a->id == CP_ARROW_DATE32;
  case CP_TYPE_TIME: return a->id == CP_ARROW_TIME32 && a->unit == CP_UNIT_MILLI;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return a->id == CP_ARROW_TIMESTAMP && a->unit == timestamp_unit(t->precision) &&
           a->has_timezone == (t->kind == CP_TYPE_TIMESTAMP_LTZ);
  case CP_TYPE_ARRAY:
    *n_children = 1;
    return a->id == CP_ARROW_LIST || a->id == CP_ARROW_LARGE_LIST;
  case CP_TYPE_VECTOR:
    *n_children = 1;
    return a->id == CP_ARROW_FIXED_SIZE_LIST && a->list_size == t->length;
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET: *n_children = 1; return a->id == CP_ARROW_MAP;
  case CP_TYPE_ROW: *n_children = (int64_t)t->n_fields; return a->id == CP_ARROW_STRUCT;
  case CP_TYPE_VARIANT: *n_children = 2; return a->id == CP_ARROW_STRUCT;
  }
  return false;
}

/* "column 'p': Arrow type X does not match Paimon type Y (expected Z)". */
static int mismatch(const char *path, const cp_type *t, const struct ArrowSchema *s,
                    paimon_error *err) {
  cp_buf got = CP_BUF_INIT, want = CP_BUF_INIT;
  char *sql = NULL;
  struct ArrowSchema expected;
  expected.release = NULL;
  int rc = cp_schema_to_string(s, &got, err);
  if (rc == 0) rc = cp_buf_nul_terminate(&got, err);
  if (rc == 0) rc = cp_type_to_sql(t, &sql, err);
  if (rc == 0) rc = cp_type_to_arrow(t, NULL, &expected, err);
  if (rc == 0) rc = cp_schema_to_string(&expected, &want, err);
  if (rc == 0) rc = cp_buf_nul_terminate(&want, err);
  if (rc == 0)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "column '%s': Arrow type %s does not match Paimon type %s (expected %s)",
                          path, (const char *)got.data, sql, (const char *)want.data);
  cp_schema_release(&expected);
  free(sql);
  cp_buf_free(&got);
  cp_buf_free(&want);
  return rc;
}

static int check_node(const cp_type *t, const struct ArrowSchema *s, const char *path, int depth,
                      paimon_error *err);

static int check_child(const cp_type *t, const struct ArrowSchema *s, const char *path,
                       const char *name, int depth, paimon_error *err) {
  char sub[512];
  snprintf(sub, sizeof sub, "%s.%s", path, name);
  return check_node(t, s, sub, depth + 1, err);
}

/* VARIANT: struct<value binary, metadata binary>, in that order (type_arrow.h). */
static int check_variant(const cp_type *t, const struct ArrowSchema *s, const char *path,
                         paimon_error *err) {
  static const char *const names[2] = {"value", "metadata"};
  for (int i = 0; i < 2; i++) {
    const struct ArrowSchema *c = s->children[i];
    cp_arrow_type_info a;
    if (cp_arrow_parse_format(c->format, &a, NULL) != 0 || !is_binary(a.id) ||
        (c->name && strcmp(c->name, names[i]) != 0))
      return mismatch(path, t, s, err);
  }
  return PAIMON_OK;
}

static int check_node(const cp_type *t, const struct ArrowSchema *s, const char *path, int depth,
                      paimon_error *err) {
  if (depth > CP_TYPE_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': nested too deeply", path);
  cp_arrow_type_info a;
  int64_t n_children;
  if (!s || !s->format || cp_arrow_parse_format(s->format, &a, NULL) != 0 ||
      !node_matches(t, &a, &n_children) || s->n_children != n_children ||
      (n_children > 0 && !s->children))
    return s && s->format
               ? mismatch(path, t, s, err)
               : paimon_error_set(err, PAIMON_EINVAL, "column '%s': no Arrow type", path);
  for (int64_t i = 0; i < n_children; i++)
    if (!s->children[i]) return mismatch(path, t, s, err);
  switch (t->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR: return check_child(t->element, s->children[0], path, "element", depth, err);
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET: {
    const struct ArrowSchema *entries = s->children[0];
    if (entries->n_children != 2 || !entries->children) return mismatch(path, t, s, err);
    const cp_type *k = t->kind == CP_TYPE_MAP ? t->key : t->element;
    CP_RETURN_IF_ERROR(check_child(k, entries->children[0], path, "key", depth, err));
    if (t->kind == CP_TYPE_MAP)
      return check_child(t->value, entries->children[1], path, "value", depth, err);
    const cp_type count = {.kind = CP_TYPE_INT, .nullable = false};
    return check_child(&count, entries->children[1], path, "value", depth, err);
  }
  case CP_TYPE_ROW:
    for (size_t i = 0; i < t->n_fields; i++)
      CP_RETURN_IF_ERROR(
          check_child(t->fields[i].type, s->children[i], path, t->fields[i].name, depth, err));
    return PAIMON_OK;
  case CP_TYPE_VARIANT: return check_variant(t, s, path, err);
  default: return PAIMON_OK;
  }
}

int cp_pq_check_arrow_schema(const cp_type *row, const struct ArrowSchema *schema,
                             paimon_error *err) {
  cp_arrow_type_info a;
  if (!schema || !schema->format || cp_arrow_parse_format(schema->format, &a, NULL) != 0 ||
      a.id != CP_ARROW_STRUCT)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "a Parquet batch must be an Arrow struct (record batch), got '%s'",
                            schema && schema->format ? schema->format : "(none)");
  if (schema->n_children != (int64_t)row->n_fields || (row->n_fields && !schema->children))
    return paimon_error_set(err, PAIMON_EINVAL,
                            "the batch has %lld columns but the file has %zu (first: '%s')",
                            (long long)schema->n_children, row->n_fields, row->fields[0].name);
  for (size_t i = 0; i < row->n_fields; i++)
    CP_RETURN_IF_ERROR(
        check_node(row->fields[i].type, schema->children[i], row->fields[i].name, 0, err));
  return PAIMON_OK;
}
