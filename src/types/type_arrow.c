/*
 * Paimon types <-> Arrow schemas (type_arrow.h; spec/parquet.md §1.1, pypaimon
 * PyarrowFieldParser). ArrowSchema trees are built with the arrow layer's owned-schema helpers
 * (arrow/schema.h) and read through its format-string parser (arrow/type.h).
 */
#include "types/type_arrow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "arrow/type.h"
#include "base/status.h"

/* ---- Paimon -> Arrow ----------------------------------------------------------------------- */

static int64_t null_flag(const cp_type *t) { return t->nullable ? ARROW_FLAG_NULLABLE : 0; }

/* Format strings of the types without children. */
static int atomic_format(const cp_type *t, char *fmt, size_t cap, paimon_error *err) {
  static const char UNIT[] = {'s', 'm', 'u', 'n'};
  const char *f = NULL;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: f = "b"; break;
  case CP_TYPE_TINYINT: f = "c"; break;
  case CP_TYPE_SMALLINT: f = "s"; break;
  case CP_TYPE_INT: f = "i"; break;
  case CP_TYPE_BIGINT: f = "l"; break;
  case CP_TYPE_FLOAT: f = "f"; break;
  case CP_TYPE_DOUBLE: f = "g"; break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: f = "u"; break;
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY: f = "z"; break;
  case CP_TYPE_BLOB: f = "Z"; break;
  case CP_TYPE_DATE: f = "tdD"; break;
  case CP_TYPE_TIME: f = "ttm"; break;
  case CP_TYPE_DECIMAL:
    snprintf(fmt, cap, "d:%d,%d", (int)t->precision, (int)t->scale);
    return PAIMON_OK;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    /* pypaimon: precision 0 -> s, 1-3 -> ms, 4-6 -> us, 7-9 -> ns. */
    int p = t->precision;
    int unit = p == 0 ? 0 : p <= 3 ? 1 : p <= 6 ? 2 : 3;
    snprintf(fmt, cap, "ts%c:%s", UNIT[unit], t->kind == CP_TYPE_TIMESTAMP_LTZ ? "UTC" : "");
    return PAIMON_OK;
  }
  default:
    return paimon_error_set(err, PAIMON_EINVAL, "%s is not an atomic type",
                            cp_type_kind_name(t->kind));
  }
  snprintf(fmt, cap, "%s", f);
  return PAIMON_OK;
}

static int variant_to_arrow(const char *name, int64_t flags, struct ArrowSchema *out,
                            paimon_error *err) {
  struct ArrowSchema kids[2];
  kids[1].release = NULL;
  int rc = cp_schema_init(&kids[0], "z", "value", 0, 0, err);
  if (rc == 0) rc = cp_schema_init(&kids[1], "z", "metadata", 0, 0, err);
  if (rc != 0) {
    cp_schema_release(&kids[0]);
    cp_schema_release(&kids[1]);
    return rc;
  }
  return cp_schema_make_struct(out, name, flags, kids, 2, err);
}

static int row_to_arrow(const cp_type *row, const char *name, int64_t flags,
                        struct ArrowSchema *out, paimon_error *err) {
  size_t n = row->n_fields;
  struct ArrowSchema *kids = n ? calloc(n, sizeof *kids) : NULL;
  if (n && !kids) return CP_ENOMEM(err, "Arrow struct children");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) rc = cp_field_to_arrow(&row->fields[i], &kids[i], err);
  if (rc == 0) {
    rc = cp_schema_make_struct(out, name, flags, kids, (int64_t)n, err);
  } else {
    for (size_t i = 0; i < n; i++) cp_schema_release(&kids[i]);
  }
  free(kids);
  return rc;
}

/* ARRAY (+l), VECTOR (+w:n): one child "item" for the element. */
static int list_to_arrow(const cp_type *t, const char *name, struct ArrowSchema *out,
                         paimon_error *err) {
  struct ArrowSchema item;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(t->element, "item", &item, err));
  if (t->kind == CP_TYPE_ARRAY)
    return cp_schema_make_list(out, name, null_flag(t), false, &item, err);
  char fmt[32];
  snprintf(fmt, sizeof fmt, "+w:%d", (int)t->length);
  int rc = cp_schema_init(out, fmt, name, null_flag(t), 1, err);
  if (rc != 0) {
    cp_schema_release(&item);
    return rc;
  }
  cp_schema_move(&item, out->children[0]);
  return PAIMON_OK;
}

/* MAP, and MULTISET as Java stores it: a map from the element to its INT NOT NULL count. */
static int map_to_arrow(const cp_type *t, const char *name, struct ArrowSchema *out,
                        paimon_error *err) {
  struct ArrowSchema key, value;
  const cp_type *k = t->kind == CP_TYPE_MAP ? t->key : t->element;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(k, "key", &key, err));
  int rc;
  if (t->kind == CP_TYPE_MAP)
    rc = cp_type_to_arrow(t->value, "value", &value, err);
  else
    rc = cp_schema_init(&value, "i", "value", 0, 0, err);
  if (rc != 0) {
    cp_schema_release(&key);
    return rc;
  }
  return cp_schema_make_map(out, name, null_flag(t), &key, &value, err);
}

int cp_type_to_arrow(const cp_type *t, const char *name, struct ArrowSchema *out,
                     paimon_error *err) {
  out->release = NULL;
  if (!t) return paimon_error_set(err, PAIMON_EINVAL, "cannot convert a missing type to Arrow");
  switch (t->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR: return list_to_arrow(t, name, out, err);
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET: return map_to_arrow(t, name, out, err);
  case CP_TYPE_ROW: return row_to_arrow(t, name, null_flag(t), out, err);
  case CP_TYPE_VARIANT: return variant_to_arrow(name, null_flag(t), out, err);
  default: {
    char fmt[48];
    CP_RETURN_IF_ERROR(atomic_format(t, fmt, sizeof fmt, err));
    return cp_schema_init(out, fmt, name, null_flag(t), 0, err);
  }
  }
}

int cp_field_to_arrow(const cp_field *f, struct ArrowSchema *out, paimon_error *err) {
  int rc = cp_type_to_arrow(f->type, f->name, out, err);
  if (rc != 0) return paimon_error_prefix(err, "column '%s'", f->name);
  char id[16];
  snprintf(id, sizeof id, "%d", (int)f->id);
  rc = cp_schema_metadata_put(out, CP_ARROW_FIELD_ID_KEY, id, err);
  if (rc == 0 && f->description && f->description[0]) /* pypaimon skips empty ones too */
    rc = cp_schema_metadata_put(out, CP_ARROW_DESCRIPTION_KEY, f->description, err);
  if (rc != 0) {
    cp_schema_release(out);
    return paimon_error_prefix(err, "column '%s'", f->name);
  }
  return PAIMON_OK;
}

int cp_row_to_arrow_schema(const cp_type *row, struct ArrowSchema *out, paimon_error *err) {
  out->release = NULL;
  if (!row || row->kind != CP_TYPE_ROW)
    return paimon_error_set(err, PAIMON_EINVAL, "an Arrow record-batch schema needs a ROW type");
  return row_to_arrow(row, "", 0, out, err);
}

/* ---- Arrow -> Paimon ----------------------------------------------------------------------- */

/* The dotted path of the node being converted, for messages ("a.b.item"). */
typedef struct path {
  char text[256];
} path;

static void path_push(const path *parent, const char *name, path *child) {
  const char *p = parent ? parent->text : "";
  size_t cap = sizeof child->text, n = strlen(p);
  if (n > cap - 2) n = cap - 2; /* keep room for the separator and the NUL */
  memcpy(child->text, p, n);
  if (n > 0) child->text[n++] = '.';
  child->text[n] = '\0';
  if (name) strncat(child->text, name, cap - 1 - n);
}

static int arrow_node(const struct ArrowSchema *s, const path *where, int depth, cp_type **out,
                      paimon_error *err);

/* Reads the "description" metadata of a field (NULL when absent) into a malloc'd copy. */
static int arrow_description(const struct ArrowSchema *s, char **out, paimon_error *err) {
  const char *v;
  int32_t len;
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_metadata_get(s->metadata, CP_ARROW_DESCRIPTION_KEY, &v, &len, err));
  if (!v) return PAIMON_OK;
  if (memchr(v, '\0', (size_t)len))
    return paimon_error_set(err, PAIMON_EINVAL, "description contains a NUL byte");
  CP_RETURN_IF_ERROR(cp_check_utf8(v, (size_t)len, "description", err));
  *out = strndup(v, (size_t)len);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "field description");
}

static const struct ArrowSchema *child_at(const struct ArrowSchema *s, int64_t i) {
  return s->children ? s->children[i] : NULL;
}

/* The fields of a struct node, numbered 0..n-1 (pypaimon's to_paimon_type). */
static int arrow_struct_fields(const struct ArrowSchema *s, const path *where, int depth,
                               cp_type **out, paimon_error *err) {
  size_t n = (size_t)s->n_children;
  cp_field *fields = n ? calloc(n, sizeof *fields) : NULL;
  if (n && !fields) return CP_ENOMEM(err, "ROW fields");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    const struct ArrowSchema *c = child_at(s, (int64_t)i);
    cp_type *t = NULL;
    char *desc = NULL;
    path sub;
    path_push(where, c && c->name ? c->name : "?", &sub);
    if (!c || !c->name || !c->format) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "column '%s': struct child %zu is %s", where->text,
                            i, !c ? "missing" : "unnamed or has no format");
      break;
    }
    rc = cp_check_utf8(c->name, strlen(c->name), "field name", err);
    if (rc != 0) {
      paimon_error_prefix(err, "column '%s': struct child %zu", where->text, i);
      break;
    }
    rc = arrow_node(c, &sub, depth + 1, &t, err);
    if (rc == 0 && (rc = arrow_description(c, &desc, err)) != 0)
      paimon_error_prefix(err, "column '%s'", sub.text);
    if (rc == 0)
      rc = cp_field_init(&fields[i], (int32_t)i, c->name, t, desc, NULL, err);
    else
      cp_type_free(t);
    free(desc);
  }
  if (rc == 0)
    rc = cp_type_new_row(out, fields, n, (s->flags & ARROW_FLAG_NULLABLE) != 0, err);
  else
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
  free(fields);
  if (rc != 0 && rc != PAIMON_ENOMEM && err && strncmp(err->message, "column '", 8) != 0)
    paimon_error_prefix(err, "column '%s'", where->text[0] ? where->text : "(root)");
  return rc;
}

/* pypaimon's is_variant_struct: exactly {value, metadata}, both non-nullable binary. */
static bool is_variant_struct(const struct ArrowSchema *s) {
  if (s->n_children != 2 || !s->children) return false;
  bool seen_value = false, seen_metadata = false;
  for (int i = 0; i < 2; i++) {
    const struct ArrowSchema *c = s->children[i];
    if (!c || !c->name || !c->format || strcmp(c->format, "z") != 0 ||
        (c->flags & ARROW_FLAG_NULLABLE))
      return false;
    if (strcmp(c->name, "value") == 0)
      seen_value = true;
    else if (strcmp(c->name, "metadata") == 0)
      seen_metadata = true;
  }
  return seen_value && seen_metadata;
}

static int want_children(const struct ArrowSchema *s, const path *where, int64_t n,
                         const char *what, paimon_error *err) {
  if (s->n_children != n || !s->children)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': %s needs %lld child(ren), has %lld",
                            where->text, what, (long long)n, (long long)s->n_children);
  for (int64_t i = 0; i < n; i++)
    if (!s->children[i] || !s->children[i]->format)
      return paimon_error_set(err, PAIMON_EINVAL, "column '%s': %s child %lld is missing",
                              where->text, what, (long long)i);
  return PAIMON_OK;
}

/* list / large_list / fixed_size_list / map: the element, key and value children. */
static int arrow_collection(const struct ArrowSchema *s, const cp_arrow_type_info *info,
                            const path *where, int depth, bool nullable, cp_type **out,
                            paimon_error *err) {
  path sub;
  cp_type *a = NULL, *b = NULL;
  if (info->id != CP_ARROW_MAP) {
    CP_RETURN_IF_ERROR(want_children(s, where, 1, cp_arrow_type_name(info->id), err));
    path_push(where, s->children[0]->name ? s->children[0]->name : "item", &sub);
    CP_RETURN_IF_ERROR(arrow_node(s->children[0], &sub, depth + 1, &a, err));
    if (info->id != CP_ARROW_FIXED_SIZE_LIST)
      return cp_type_new_collection(out, CP_TYPE_ARRAY, a, nullable, err);
    int rc = cp_type_new_vector(out, a, info->list_size, nullable, err);
    return rc ? paimon_error_prefix(err, "column '%s'", where->text) : 0;
  }
  CP_RETURN_IF_ERROR(want_children(s, where, 1, "map", err));
  const struct ArrowSchema *entries = s->children[0];
  if (strcmp(entries->format, "+s") != 0)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': map entries must be a struct",
                            where->text);
  CP_RETURN_IF_ERROR(want_children(entries, where, 2, "map entries", err));
  path_push(where, "key", &sub);
  CP_RETURN_IF_ERROR(arrow_node(entries->children[0], &sub, depth + 1, &a, err));
  path_push(where, "value", &sub);
  int rc = arrow_node(entries->children[1], &sub, depth + 1, &b, err);
  if (rc != 0) {
    cp_type_free(a);
    return rc;
  }
  return cp_type_new_map(out, a, b, nullable, err);
}

/* The timestamp precision a unit stands for (pypaimon: s 0, ms 3, us 6, ns 9). */
static int unit_precision(cp_time_unit unit) {
  switch (unit) {
  case CP_UNIT_SECOND: return 0;
  case CP_UNIT_MILLI: return 3;
  case CP_UNIT_MICRO: return 6;
  default: return 9;
  }
}

/* Atomic Arrow types; EUNSUPPORTED for those Paimon lacks. */
static int arrow_atomic(const cp_arrow_type_info *info, const path *where, bool nullable,
                        cp_type **out, paimon_error *err) {
  switch (info->id) {
  case CP_ARROW_BOOL: return cp_type_new(out, CP_TYPE_BOOLEAN, nullable, err);
  case CP_ARROW_INT8: return cp_type_new(out, CP_TYPE_TINYINT, nullable, err);
  case CP_ARROW_INT16: return cp_type_new(out, CP_TYPE_SMALLINT, nullable, err);
  case CP_ARROW_INT32: return cp_type_new(out, CP_TYPE_INT, nullable, err);
  case CP_ARROW_INT64: return cp_type_new(out, CP_TYPE_BIGINT, nullable, err);
  case CP_ARROW_FLOAT: return cp_type_new(out, CP_TYPE_FLOAT, nullable, err);
  case CP_ARROW_DOUBLE: return cp_type_new(out, CP_TYPE_DOUBLE, nullable, err);
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
    return cp_type_new_sized(out, CP_TYPE_VARCHAR, CP_TYPE_MAX_LENGTH, nullable, err);
  case CP_ARROW_BINARY:
    return cp_type_new_sized(out, CP_TYPE_VARBINARY, CP_TYPE_MAX_LENGTH, nullable, err);
  case CP_ARROW_LARGE_BINARY: return cp_type_new(out, CP_TYPE_BLOB, nullable, err);
  case CP_ARROW_FIXED_SIZE_BINARY:
    return cp_type_new_sized(out, CP_TYPE_BINARY, info->byte_width, nullable, err);
  case CP_ARROW_DECIMAL128:
    return cp_type_new_decimal(out, info->precision, info->scale, nullable, err);
  case CP_ARROW_DATE32: return cp_type_new(out, CP_TYPE_DATE, nullable, err);
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64: return cp_type_new_precision(out, CP_TYPE_TIME, 0, nullable, err);
  case CP_ARROW_TIMESTAMP:
    return cp_type_new_precision(out,
                                 info->has_timezone ? CP_TYPE_TIMESTAMP_LTZ : CP_TYPE_TIMESTAMP,
                                 unit_precision(info->unit), nullable, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "column '%s': Arrow type %s has no Paimon equivalent", where->text,
                            cp_arrow_type_name(info->id));
  }
}

static int arrow_node(const struct ArrowSchema *s, const path *where, int depth, cp_type **out,
                      paimon_error *err) {
  *out = NULL;
  if (depth > CP_TYPE_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EINVAL, "column '%s': nested deeper than %d levels",
                            where->text, CP_TYPE_MAX_DEPTH);
  if (s->dictionary)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "column '%s': dictionary-encoded Arrow columns have no Paimon "
                            "equivalent",
                            where->text);
  cp_arrow_type_info info;
  int rc = cp_arrow_parse_format(s->format, &info, err);
  if (rc == PAIMON_EUNSUPPORTED)
    return paimon_error_set(err, rc, "column '%s': Arrow type '%s' has no Paimon equivalent",
                            where->text, s->format);
  if (rc != 0) return paimon_error_prefix(err, "column '%s'", where->text);
  bool nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
  switch (info.id) {
  case CP_ARROW_STRUCT:
    if (is_variant_struct(s)) return cp_type_new(out, CP_TYPE_VARIANT, nullable, err);
    return arrow_struct_fields(s, where, depth, out, err);
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST:
  case CP_ARROW_MAP: return arrow_collection(s, &info, where, depth, nullable, out, err);
  default:
    if (s->n_children != 0)
      return paimon_error_set(err, PAIMON_EINVAL, "column '%s': %s must have no children",
                              where->text, cp_arrow_type_name(info.id));
    rc = arrow_atomic(&info, where, nullable, out, err);
    if (rc != 0 && rc != PAIMON_EUNSUPPORTED && rc != PAIMON_ENOMEM)
      paimon_error_prefix(err, "column '%s'", where->text);
    return rc;
  }
}

int cp_type_from_arrow(const struct ArrowSchema *schema, cp_type **out, paimon_error *err) {
  *out = NULL;
  if (!schema || !schema->release || !schema->format)
    return paimon_error_set(err, PAIMON_EINVAL, "missing or released Arrow schema");
  path root;
  path_push(NULL, schema->name && schema->name[0] ? schema->name : "(root)", &root);
  return arrow_node(schema, &root, 0, out, err);
}

/* pypaimon's reassign_field_id: within a nested type, a field's own id is taken after the ids of
 * the fields nested in it. */
static void reassign_children_first(cp_type *t, int32_t *counter) {
  if (!t) return;
  for (size_t i = 0; i < t->n_fields; i++) {
    reassign_children_first(t->fields[i].type, counter);
    t->fields[i].id = ++*counter;
  }
  reassign_children_first(t->element, counter);
  reassign_children_first(t->key, counter);
  reassign_children_first(t->value, counter);
}

int cp_row_from_arrow_schema(const struct ArrowSchema *schema, cp_type **out, paimon_error *err) {
  *out = NULL;
  if (!schema || !schema->release || !schema->format)
    return paimon_error_set(err, PAIMON_EINVAL, "missing or released Arrow schema");
  if (strcmp(schema->format, "+s") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "an Arrow record-batch schema must be a struct (\"+s\"), not '%s'",
                            schema->format);
  if (schema->dictionary)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "an Arrow record-batch schema cannot be a "
                            "dictionary");
  path root = {{0}};
  cp_type *row = NULL;
  CP_RETURN_IF_ERROR(arrow_struct_fields(schema, &root, 0, &row, err));
  row->nullable = true;
  int32_t counter = -1;
  for (size_t i = 0; i < row->n_fields; i++) {
    row->fields[i].id = ++counter;
    reassign_children_first(row->fields[i].type, &counter);
  }
  *out = row;
  return PAIMON_OK;
}
