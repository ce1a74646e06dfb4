/*
 * The Paimon data type model (type.h): construction with Java's parameter checks, validation,
 * deep copy, equality, classification, and field lookups (spec/format.md §2.1-§2.2; ranges from
 * paimon-api org.apache.paimon.types.*Type constructors).
 */
#include "types/type.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/array.h"
#include "base/status.h"
#include "types/special_fields.h"

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

void cp_field_clear(cp_field *f) {
  if (!f) return;
  free(f->name);
  free(f->description);
  free(f->default_value);
  cp_type_free(f->type);
  memset(f, 0, sizeof *f);
}

void cp_type_free(cp_type *t) {
  if (!t) return;
  cp_type_free(t->element);
  cp_type_free(t->key);
  cp_type_free(t->value);
  for (size_t i = 0; i < t->n_fields; i++) cp_field_clear(&t->fields[i]);
  free(t->fields);
  free(t);
}

int cp_type_new(cp_type **out, cp_type_kind kind, bool nullable, paimon_error *err) {
  *out = NULL;
  if ((int)kind < 0 || (int)kind >= CP_TYPE_KIND_COUNT)
    return paimon_error_set(err, PAIMON_EINVAL, "unknown type kind %d", (int)kind);
  cp_type *t = calloc(1, sizeof *t);
  if (!t) return CP_ENOMEM(err, "type node");
  t->kind = kind;
  t->nullable = nullable;
  switch (kind) {
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_VECTOR: t->length = 1; break;
  case CP_TYPE_DECIMAL: t->precision = CP_DECIMAL_DEFAULT_PRECISION; break;
  case CP_TYPE_TIME: t->precision = CP_TIME_DEFAULT_PRECISION; break;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: t->precision = CP_TIMESTAMP_DEFAULT_PRECISION; break;
  default: break;
  }
  *out = t;
  return PAIMON_OK;
}

int cp_type_new_sized(cp_type **out, cp_type_kind kind, int64_t length, bool nullable,
                      paimon_error *err) {
  *out = NULL;
  if (kind != CP_TYPE_CHAR && kind != CP_TYPE_VARCHAR && kind != CP_TYPE_BINARY &&
      kind != CP_TYPE_VARBINARY)
    return paimon_error_set(err, PAIMON_EINVAL, "%s has no length", cp_type_kind_name(kind));
  if (length < 1 || length > CP_TYPE_MAX_LENGTH)
    return paimon_error_set(err, PAIMON_EINVAL, "%s length %lld must be between 1 and %d",
                            cp_type_kind_name(kind), (long long)length, CP_TYPE_MAX_LENGTH);
  CP_RETURN_IF_ERROR(cp_type_new(out, kind, nullable, err));
  (*out)->length = (int32_t)length;
  return PAIMON_OK;
}

int cp_type_new_precision(cp_type **out, cp_type_kind kind, int64_t precision, bool nullable,
                          paimon_error *err) {
  *out = NULL;
  if (kind != CP_TYPE_TIME && kind != CP_TYPE_TIMESTAMP && kind != CP_TYPE_TIMESTAMP_LTZ)
    return paimon_error_set(err, PAIMON_EINVAL, "%s has no precision", cp_type_kind_name(kind));
  if (precision < 0 || precision > CP_TIMESTAMP_MAX_PRECISION)
    return paimon_error_set(err, PAIMON_EINVAL, "%s precision %lld must be between 0 and %d",
                            cp_type_kind_name(kind), (long long)precision,
                            CP_TIMESTAMP_MAX_PRECISION);
  CP_RETURN_IF_ERROR(cp_type_new(out, kind, nullable, err));
  (*out)->precision = (int32_t)precision;
  return PAIMON_OK;
}

int cp_type_new_decimal(cp_type **out, int64_t precision, int64_t scale, bool nullable,
                        paimon_error *err) {
  *out = NULL;
  if (precision < 1 || precision > CP_DECIMAL_MAX_PRECISION)
    return paimon_error_set(err, PAIMON_EINVAL, "DECIMAL precision %lld must be between 1 and %d",
                            (long long)precision, CP_DECIMAL_MAX_PRECISION);
  if (scale < 0 || scale > precision)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "DECIMAL scale %lld must be between 0 and the precision %lld",
                            (long long)scale, (long long)precision);
  CP_RETURN_IF_ERROR(cp_type_new(out, CP_TYPE_DECIMAL, nullable, err));
  (*out)->precision = (int32_t)precision;
  (*out)->scale = (int32_t)scale;
  return PAIMON_OK;
}

int cp_type_new_collection(cp_type **out, cp_type_kind kind, cp_type *element, bool nullable,
                           paimon_error *err) {
  *out = NULL;
  int rc;
  if (kind != CP_TYPE_ARRAY && kind != CP_TYPE_MULTISET)
    rc = paimon_error_set(err, PAIMON_EINVAL, "%s is not ARRAY or MULTISET",
                          cp_type_kind_name(kind));
  else if (!element)
    rc = paimon_error_set(err, PAIMON_EINVAL, "%s needs an element type", cp_type_kind_name(kind));
  else
    rc = cp_type_new(out, kind, nullable, err);
  if (rc != 0) {
    cp_type_free(element);
    return rc;
  }
  (*out)->element = element;
  return PAIMON_OK;
}

int cp_type_new_map(cp_type **out, cp_type *key, cp_type *value, bool nullable, paimon_error *err) {
  *out = NULL;
  int rc;
  if (!key || !value)
    rc = paimon_error_set(err, PAIMON_EINVAL, "MAP needs a key and a value type");
  else
    rc = cp_type_new(out, CP_TYPE_MAP, nullable, err);
  if (rc != 0) {
    cp_type_free(key);
    cp_type_free(value);
    return rc;
  }
  (*out)->key = key;
  (*out)->value = value;
  return PAIMON_OK;
}

static bool vector_element_ok(const cp_type *e) {
  switch (e->kind) {
  case CP_TYPE_BOOLEAN:
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_FLOAT:
  case CP_TYPE_DOUBLE: return true;
  default: return false;
  }
}

int cp_type_new_vector(cp_type **out, cp_type *element, int64_t length, bool nullable,
                       paimon_error *err) {
  *out = NULL;
  int rc;
  if (!element)
    rc = paimon_error_set(err, PAIMON_EINVAL, "VECTOR needs an element type");
  else if (!vector_element_ok(element))
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "invalid VECTOR element type %s: must be BOOLEAN, TINYINT, SMALLINT, "
                          "INT, BIGINT, FLOAT or DOUBLE",
                          cp_type_kind_name(element->kind));
  else if (length < 1 || length > CP_TYPE_MAX_LENGTH)
    rc = paimon_error_set(err, PAIMON_EINVAL, "VECTOR length %lld must be between 1 and %d",
                          (long long)length, CP_TYPE_MAX_LENGTH);
  else
    rc = cp_type_new(out, CP_TYPE_VECTOR, nullable, err);
  if (rc != 0) {
    cp_type_free(element);
    return rc;
  }
  (*out)->element = element;
  (*out)->length = (int32_t)length;
  return PAIMON_OK;
}

static bool is_blank(const char *s) {
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) return false;
  return true;
}

/* Java RowType.validateFields: names must have a non-whitespace character and be unique. The
 * quadratic scan is fine for schema-sized rows and needs no allocation. */
static int check_row_names(const cp_field *fields, size_t n, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (!fields[i].name || is_blank(fields[i].name))
      return paimon_error_set(err, PAIMON_EINVAL,
                              "ROW field %zu (id %d): field names must contain at least one "
                              "non-whitespace character",
                              i, (int)fields[i].id);
    for (size_t j = 0; j < i; j++)
      if (strcmp(fields[i].name, fields[j].name) == 0)
        return paimon_error_set(err, PAIMON_EINVAL,
                                "ROW field names must be unique: '%s' appears twice",
                                fields[i].name);
  }
  return PAIMON_OK;
}

int cp_type_new_row(cp_type **out, cp_field *fields, size_t n, bool nullable, paimon_error *err) {
  *out = NULL;
  int rc = check_row_names(fields, n, err);
  for (size_t i = 0; rc == 0 && i < n; i++)
    if (!fields[i].type)
      rc = paimon_error_set(err, PAIMON_EINVAL, "ROW field '%s' has no type", fields[i].name);
  cp_field *copy = NULL;
  if (rc == 0 && n > 0) {
    copy = malloc(n * sizeof *copy);
    if (!copy) rc = CP_ENOMEM(err, "ROW fields");
  }
  if (rc == 0) rc = cp_type_new(out, CP_TYPE_ROW, nullable, err);
  if (rc != 0) {
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
    free(copy);
    return rc;
  }
  if (n > 0) {
    memcpy(copy, fields, n * sizeof *copy);
    memset(fields, 0, n * sizeof *fields);
  }
  (*out)->fields = copy;
  (*out)->n_fields = n;
  return PAIMON_OK;
}

int cp_field_init(cp_field *f, int32_t id, const char *name, cp_type *type, const char *description,
                  const char *default_value, paimon_error *err) {
  memset(f, 0, sizeof *f);
  f->id = id;
  f->type = type;
  if (!name || !type) {
    cp_field_clear(f);
    return paimon_error_set(err, PAIMON_EINVAL, "field (id %d) needs a name and a type", (int)id);
  }
  f->name = dup_str(name);
  if (description) f->description = dup_str(description);
  if (default_value) f->default_value = dup_str(default_value);
  if (!f->name || (description && !f->description) || (default_value && !f->default_value)) {
    cp_field_clear(f);
    return paimon_error_set(err, PAIMON_ENOMEM, "out of memory: field '%s'", name);
  }
  return PAIMON_OK;
}

int cp_check_utf8(const char *s, size_t len, const char *what, paimon_error *err) {
  int64_t bad = 0;
  if (cp_utf8_valid((const uint8_t *)s, (int64_t)len, &bad)) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_EINVAL, "%s is not valid UTF-8 (bad byte at offset %lld)",
                          what, (long long)bad);
}

/* Names, descriptions and default values of a field must be UTF-8 text. */
static int check_field_text(const cp_field *f, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_check_utf8(f->name, strlen(f->name), "field name", err));
  if (f->description)
    CP_RETURN_IF_ERROR(
        cp_check_utf8(f->description, strlen(f->description), "field description", err));
  if (f->default_value)
    CP_RETURN_IF_ERROR(
        cp_check_utf8(f->default_value, strlen(f->default_value), "field default value", err));
  return PAIMON_OK;
}

static int validate_at(const cp_type *t, int depth, paimon_error *err);

static int validate_children(const cp_type *t, int depth, paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
  case CP_TYPE_VECTOR:
    if (!t->element)
      return paimon_error_set(err, PAIMON_EINVAL, "%s without an element type",
                              cp_type_kind_name(t->kind));
    if (t->kind == CP_TYPE_VECTOR && !vector_element_ok(t->element))
      return paimon_error_set(err, PAIMON_EINVAL, "invalid VECTOR element type %s",
                              cp_type_kind_name(t->element->kind));
    return validate_at(t->element, depth + 1, err);
  case CP_TYPE_MAP:
    if (!t->key || !t->value)
      return paimon_error_set(err, PAIMON_EINVAL, "MAP without a key or value type");
    CP_RETURN_IF_ERROR(validate_at(t->key, depth + 1, err));
    return validate_at(t->value, depth + 1, err);
  case CP_TYPE_ROW:
    if (t->n_fields > 0 && !t->fields)
      return paimon_error_set(err, PAIMON_EINVAL, "ROW with %zu fields but no field array",
                              t->n_fields);
    CP_RETURN_IF_ERROR(check_row_names(t->fields, t->n_fields, err));
    for (size_t i = 0; i < t->n_fields; i++) {
      const cp_field *f = &t->fields[i];
      if (!f->type)
        return paimon_error_set(err, PAIMON_EINVAL, "field '%s' (id %d) has no type", f->name,
                                (int)f->id);
      int rc = check_field_text(f, err);
      if (rc == 0) rc = validate_at(f->type, depth + 1, err);
      if (rc != 0) return paimon_error_prefix(err, "field '%s' (id %d)", f->name, (int)f->id);
    }
    return PAIMON_OK;
  default: return PAIMON_OK;
  }
}

static int validate_at(const cp_type *t, int depth, paimon_error *err) {
  if (depth > CP_TYPE_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EINVAL, "type nested deeper than %d levels",
                            CP_TYPE_MAX_DEPTH);
  if ((int)t->kind < 0 || (int)t->kind >= CP_TYPE_KIND_COUNT)
    return paimon_error_set(err, PAIMON_EINVAL, "unknown type kind %d", (int)t->kind);
  const char *name = cp_type_kind_name(t->kind);
  switch (t->kind) {
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_VECTOR:
    if (t->length < 1)
      return paimon_error_set(err, PAIMON_EINVAL, "%s length %d must be between 1 and %d", name,
                              (int)t->length, CP_TYPE_MAX_LENGTH);
    break;
  case CP_TYPE_DECIMAL:
    if (t->precision < 1 || t->precision > CP_DECIMAL_MAX_PRECISION || t->scale < 0 ||
        t->scale > t->precision)
      return paimon_error_set(err, PAIMON_EINVAL, "invalid DECIMAL(%d, %d)", (int)t->precision,
                              (int)t->scale);
    break;
  case CP_TYPE_TIME:
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    if (t->precision < 0 || t->precision > CP_TIMESTAMP_MAX_PRECISION)
      return paimon_error_set(err, PAIMON_EINVAL, "%s precision %d must be between 0 and %d", name,
                              (int)t->precision, CP_TIMESTAMP_MAX_PRECISION);
    break;
  default: break;
  }
  return validate_children(t, depth, err);
}

int cp_type_validate(const cp_type *t, paimon_error *err) {
  if (!t) return paimon_error_set(err, PAIMON_EINVAL, "missing type");
  return validate_at(t, 0, err);
}

/* ---- copy ---------------------------------------------------------------------------------- */

int cp_field_copy(cp_field *dst, const cp_field *src, paimon_error *err) {
  cp_type *type = NULL;
  memset(dst, 0, sizeof *dst);
  CP_RETURN_IF_ERROR(cp_type_copy(&type, src->type, err));
  return cp_field_init(dst, src->id, src->name, type, src->description, src->default_value, err);
}

int cp_type_copy(cp_type **out, const cp_type *src, paimon_error *err) {
  *out = NULL;
  cp_type *t = calloc(1, sizeof *t);
  if (!t) return CP_ENOMEM(err, "type copy");
  t->kind = src->kind;
  t->nullable = src->nullable;
  t->length = src->length;
  t->precision = src->precision;
  t->scale = src->scale;
  int rc = 0;
  if (src->element) rc = cp_type_copy(&t->element, src->element, err);
  if (rc == 0 && src->key) rc = cp_type_copy(&t->key, src->key, err);
  if (rc == 0 && src->value) rc = cp_type_copy(&t->value, src->value, err);
  if (rc == 0 && src->n_fields > 0) {
    t->fields = calloc(src->n_fields, sizeof *t->fields);
    if (!t->fields) rc = CP_ENOMEM(err, "ROW fields copy");
    /* n_fields counts only the copied fields, so a failure part-way frees exactly those. */
    for (size_t i = 0; rc == 0 && i < src->n_fields; i++) {
      rc = cp_field_copy(&t->fields[i], &src->fields[i], err);
      if (rc == 0) t->n_fields = i + 1;
    }
  }
  if (rc != 0) {
    cp_type_free(t);
    return rc;
  }
  *out = t;
  return PAIMON_OK;
}

int cp_type_copy_nullable(cp_type **out, const cp_type *src, bool nullable, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_type_copy(out, src, err));
  (*out)->nullable = nullable;
  return PAIMON_OK;
}

/* ---- equality ------------------------------------------------------------------------------ */

static bool str_eq_nullable(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

bool cp_field_equals(const cp_field *a, const cp_field *b, unsigned flags) {
  if (!(flags & CP_TYPE_EQ_IGNORE_FIELD_IDS) && a->id != b->id) return false;
  if (!str_eq_nullable(a->name, b->name)) return false;
  if (!(flags & CP_TYPE_EQ_IGNORE_FIELD_DOCS) &&
      (!str_eq_nullable(a->description, b->description) ||
       !str_eq_nullable(a->default_value, b->default_value)))
    return false;
  return cp_type_equals(a->type, b->type, flags);
}

bool cp_type_equals(const cp_type *a, const cp_type *b, unsigned flags) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->kind != b->kind) return false;
  if (!(flags & CP_TYPE_EQ_IGNORE_NULLABILITY) && a->nullable != b->nullable) return false;
  if (a->length != b->length || a->precision != b->precision || a->scale != b->scale) return false;
  if (!cp_type_equals(a->element, b->element, flags)) return false;
  if (!cp_type_equals(a->key, b->key, flags)) return false;
  if (!cp_type_equals(a->value, b->value, flags)) return false;
  if (a->n_fields != b->n_fields) return false;
  for (size_t i = 0; i < a->n_fields; i++)
    if (!cp_field_equals(&a->fields[i], &b->fields[i], flags)) return false;
  return true;
}

/* ---- classification ------------------------------------------------------------------------ */

const char *cp_type_kind_name(cp_type_kind kind) {
  switch (kind) {
  case CP_TYPE_BOOLEAN: return "BOOLEAN";
  case CP_TYPE_TINYINT: return "TINYINT";
  case CP_TYPE_SMALLINT: return "SMALLINT";
  case CP_TYPE_INT: return "INT";
  case CP_TYPE_BIGINT: return "BIGINT";
  case CP_TYPE_FLOAT: return "FLOAT";
  case CP_TYPE_DOUBLE: return "DOUBLE";
  case CP_TYPE_DECIMAL: return "DECIMAL";
  case CP_TYPE_CHAR: return "CHAR";
  case CP_TYPE_VARCHAR: return "VARCHAR";
  case CP_TYPE_BINARY: return "BINARY";
  case CP_TYPE_VARBINARY: return "VARBINARY";
  case CP_TYPE_DATE: return "DATE";
  case CP_TYPE_TIME: return "TIME";
  case CP_TYPE_TIMESTAMP: return "TIMESTAMP";
  case CP_TYPE_TIMESTAMP_LTZ: return "TIMESTAMP_LTZ";
  case CP_TYPE_ARRAY: return "ARRAY";
  case CP_TYPE_MAP: return "MAP";
  case CP_TYPE_MULTISET: return "MULTISET";
  case CP_TYPE_ROW: return "ROW";
  case CP_TYPE_VARIANT: return "VARIANT";
  case CP_TYPE_BLOB: return "BLOB";
  case CP_TYPE_VECTOR: return "VECTOR";
  }
  return "UNKNOWN";
}

bool cp_type_is_integer(const cp_type *t) {
  return t->kind == CP_TYPE_TINYINT || t->kind == CP_TYPE_SMALLINT || t->kind == CP_TYPE_INT ||
         t->kind == CP_TYPE_BIGINT;
}

bool cp_type_is_numeric(const cp_type *t) {
  return cp_type_is_integer(t) || t->kind == CP_TYPE_FLOAT || t->kind == CP_TYPE_DOUBLE ||
         t->kind == CP_TYPE_DECIMAL;
}

bool cp_type_is_string(const cp_type *t) {
  return t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR;
}

bool cp_type_is_binary(const cp_type *t) {
  return t->kind == CP_TYPE_BINARY || t->kind == CP_TYPE_VARBINARY;
}

bool cp_type_is_temporal(const cp_type *t) {
  return t->kind == CP_TYPE_DATE || t->kind == CP_TYPE_TIME || t->kind == CP_TYPE_TIMESTAMP ||
         t->kind == CP_TYPE_TIMESTAMP_LTZ;
}

bool cp_type_is_nested(const cp_type *t) {
  return t->kind == CP_TYPE_ARRAY || t->kind == CP_TYPE_MAP || t->kind == CP_TYPE_MULTISET ||
         t->kind == CP_TYPE_ROW || t->kind == CP_TYPE_VECTOR;
}

/* ---- rows and field ids -------------------------------------------------------------------- */

ptrdiff_t cp_row_field_index(const cp_type *row, const char *name) {
  if (!row || row->kind != CP_TYPE_ROW || !name) return -1;
  for (size_t i = 0; i < row->n_fields; i++)
    if (strcmp(row->fields[i].name, name) == 0) return (ptrdiff_t)i;
  return -1;
}

ptrdiff_t cp_row_field_index_ci(const cp_type *row, const char *name) {
  if (!row || row->kind != CP_TYPE_ROW || !name) return -1;
  for (size_t i = 0; i < row->n_fields; i++)
    if (strcasecmp(row->fields[i].name, name) == 0) return (ptrdiff_t)i;
  return -1;
}

const cp_field *cp_row_find_field(const cp_type *row, const char *name) {
  ptrdiff_t i = cp_row_field_index(row, name);
  return i < 0 ? NULL : &row->fields[i];
}

const cp_field *cp_type_find_field_by_id(const cp_type *t, int32_t id) {
  if (!t) return NULL;
  for (size_t i = 0; i < t->n_fields; i++) {
    if (t->fields[i].id == id) return &t->fields[i];
    const cp_field *f = cp_type_find_field_by_id(t->fields[i].type, id);
    if (f) return f;
  }
  const cp_field *f = cp_type_find_field_by_id(t->element, id);
  if (!f) f = cp_type_find_field_by_id(t->key, id);
  if (!f) f = cp_type_find_field_by_id(t->value, id);
  return f;
}

int32_t cp_type_max_field_id(const cp_type *t) {
  int32_t max = -1;
  if (!t) return max;
  for (size_t i = 0; i < t->n_fields; i++) {
    int32_t id = t->fields[i].id;
    if (!cp_is_system_field_id(id) && id > max) max = id;
    int32_t nested = cp_type_max_field_id(t->fields[i].type);
    if (nested > max) max = nested;
  }
  const cp_type *kids[3] = {t->element, t->key, t->value};
  for (int k = 0; k < 3; k++) {
    int32_t nested = cp_type_max_field_id(kids[k]);
    if (nested > max) max = nested;
  }
  return max;
}

/* Collects every field id under `t` into `ids` (an array of `*n` entries growing by doubling). */
static int collect_ids(const cp_type *t, int32_t **ids, size_t *n, size_t *cap, paimon_error *err) {
  if (!t) return PAIMON_OK;
  for (size_t i = 0; i < t->n_fields; i++) {
    if (*n == *cap) {
      size_t ncap = *cap ? *cap * 2 : 32;
      int32_t *p = realloc(*ids, ncap * sizeof *p);
      if (!p) return CP_ENOMEM(err, "field id set");
      *ids = p;
      *cap = ncap;
    }
    (*ids)[(*n)++] = t->fields[i].id;
    CP_RETURN_IF_ERROR(collect_ids(t->fields[i].type, ids, n, cap, err));
  }
  CP_RETURN_IF_ERROR(collect_ids(t->element, ids, n, cap, err));
  CP_RETURN_IF_ERROR(collect_ids(t->key, ids, n, cap, err));
  return collect_ids(t->value, ids, n, cap, err);
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int cp_type_check_field_ids(const cp_type *t, paimon_error *err) {
  int32_t *ids = NULL;
  size_t n = 0, cap = 0;
  int rc = collect_ids(t, &ids, &n, &cap, err);
  if (rc == 0 && n > 1) {
    qsort(ids, n, sizeof *ids, cmp_i32);
    for (size_t i = 1; i < n; i++)
      if (ids[i] == ids[i - 1]) {
        rc = paimon_error_set(err, PAIMON_EINVAL, "broken schema: field id %d is duplicated",
                              (int)ids[i]);
        break;
      }
  }
  free(ids);
  return rc;
}

void cp_type_reassign_field_ids(cp_type *t, int32_t *next_id) {
  if (!t) return;
  for (size_t i = 0; i < t->n_fields; i++) {
    t->fields[i].id = ++*next_id;
    cp_type_reassign_field_ids(t->fields[i].type, next_id);
  }
  cp_type_reassign_field_ids(t->element, next_id);
  cp_type_reassign_field_ids(t->key, next_id);
  cp_type_reassign_field_ids(t->value, next_id);
}
