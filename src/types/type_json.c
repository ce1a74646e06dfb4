/*
 * JSON form of types and DataFields (type_json.h; spec/format.md §2.1-§2.2, Java
 * DataTypeJsonParser / DataType.serializeJson, pypaimon schema/data_types.py).
 */
#include "types/type_json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "types/type_sql.h"

/* How ROW fields without an "id" are treated: Java's AtomicInteger fieldId, or none. */
typedef struct id_ctx {
  bool allow_auto;   /* false: every field must carry "id" */
  int32_t counter;   /* last auto-assigned id; -1 before the first */
  bool saw_explicit; /* a field with an explicit id was read */
} id_ctx;

static int type_from_json(const json_t *node, int depth, id_ctx *ids, cp_type **out,
                          paimon_error *err);

static const char *json_kind_name(const json_t *v) {
  if (!v) return "nothing";
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

/* Reads a JSON integer in [lo, hi] from obj[key] into *v. */
static int get_int(const json_t *obj, const char *key, int64_t lo, int64_t hi, int64_t *v,
                   paimon_error *err) {
  const json_t *n = json_object_get(obj, key);
  if (!n) return paimon_error_set(err, PAIMON_EINVAL, "missing \"%s\"", key);
  if (!json_is_integer(n))
    return paimon_error_set(err, PAIMON_EINVAL, "\"%s\" must be an integer, found %s", key,
                            json_kind_name(n));
  json_int_t x = json_integer_value(n);
  if (x < lo || x > hi)
    return paimon_error_set(err, PAIMON_EINVAL, "\"%s\" %lld must be between %lld and %lld", key,
                            (long long)x, (long long)lo, (long long)hi);
  *v = x;
  return PAIMON_OK;
}

/* Reads an optional string obj[key] (JSON null = absent) into a malloc'd copy or NULL. */
static int get_opt_string(const json_t *obj, const char *key, char **out, paimon_error *err) {
  *out = NULL;
  const json_t *n = json_object_get(obj, key);
  if (!n || json_is_null(n)) return PAIMON_OK;
  if (!json_is_string(n))
    return paimon_error_set(err, PAIMON_EINVAL, "\"%s\" must be a string, found %s", key,
                            json_kind_name(n));
  size_t len = json_string_length(n);
  if (memchr(json_string_value(n), '\0', len))
    return paimon_error_set(err, PAIMON_EINVAL, "\"%s\" contains a NUL character", key);
  *out = strndup(json_string_value(n), len);
  if (!*out) return CP_ENOMEM(err, key);
  return PAIMON_OK;
}

/* Reads a child type obj[key], prefixing errors with the key. */
static int child_type(const json_t *obj, const char *key, int depth, id_ctx *ids, cp_type **out,
                      paimon_error *err) {
  *out = NULL;
  const json_t *n = json_object_get(obj, key);
  if (!n) return paimon_error_set(err, PAIMON_EINVAL, "missing \"%s\"", key);
  if (type_from_json(n, depth + 1, ids, out, err) != 0) return paimon_error_prefix(err, "%s", key);
  return PAIMON_OK;
}

/* ---- DataField ----------------------------------------------------------------------------- */

/* `index` (or SIZE_MAX) names the field in messages when it has no usable name. */
static int field_from_json(const json_t *obj, size_t index, int depth, id_ctx *ids, cp_field *out,
                           paimon_error *err) {
  memset(out, 0, sizeof *out);
  char where[48] = "field";
  if (index != SIZE_MAX) snprintf(where, sizeof where, "field #%zu", index);
  if (!json_is_object(obj))
    return paimon_error_set(err, PAIMON_EINVAL, "%s must be an object, found %s", where,
                            json_kind_name(obj));
  int64_t id;
  const json_t *id_node = json_object_get(obj, "id");
  if (id_node && !json_is_null(id_node)) {
    if (ids->allow_auto && ids->counter != -1)
      return paimon_error_set(err, PAIMON_EINVAL, "%s: partial field ids are not allowed", where);
    if (get_int(obj, "id", INT32_MIN, INT32_MAX, &id, err) != 0)
      return paimon_error_prefix(err, "%s", where);
    ids->saw_explicit = true;
  } else if (ids->allow_auto && !ids->saw_explicit) {
    id = ++ids->counter;
  } else {
    return paimon_error_set(err, PAIMON_EINVAL, "%s: missing \"id\"", where);
  }
  const json_t *name = json_object_get(obj, "name");
  if (!json_is_string(name) || memchr(json_string_value(name), '\0', json_string_length(name)))
    return paimon_error_set(err, PAIMON_EINVAL, "%s (id %d): \"name\" must be a string", where,
                            (int)id);
  const char *nm = json_string_value(name);
  cp_type *type = NULL;
  char *desc = NULL, *dflt = NULL;
  int rc = child_type(obj, "type", depth, ids, &type, err);
  if (rc == 0) rc = get_opt_string(obj, "description", &desc, err);
  if (rc == 0) rc = get_opt_string(obj, "defaultValue", &dflt, err);
  if (rc == 0)
    rc = cp_field_init(out, (int32_t)id, nm, type, desc, dflt, err);
  else
    cp_type_free(type);
  free(desc);
  free(dflt);
  if (rc != 0) return paimon_error_prefix(err, "field '%s' (id %d)", nm, (int)id);
  return PAIMON_OK;
}

/* Reads a JSON array of DataField objects into a ROW. */
static int row_from_json_array(const json_t *arr, int depth, id_ctx *ids, bool nullable,
                               cp_type **out, paimon_error *err) {
  if (!json_is_array(arr))
    return paimon_error_set(err, PAIMON_EINVAL, "\"fields\" must be an array, found %s",
                            json_kind_name(arr));
  size_t n = json_array_size(arr);
  cp_field *fields = n ? calloc(n, sizeof *fields) : NULL;
  if (n && !fields) return CP_ENOMEM(err, "ROW fields");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = field_from_json(json_array_get(arr, i), i, depth, ids, &fields[i], err);
  if (rc == 0)
    rc = cp_type_new_row(out, fields, n, nullable, err);
  else
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
  free(fields);
  return rc;
}

/* ---- type nodes ---------------------------------------------------------------------------- */

/* Nullability of a complex-type object: the "nullable" key, else a trailing NOT NULL after the
 * keyword or after the last '>' of a full SQL type text. */
static int object_nullability(const json_t *obj, const char *type_str, size_t kw_len,
                              bool *nullable, paimon_error *err) {
  const json_t *n = json_object_get(obj, "nullable");
  if (n && !json_is_null(n)) {
    if (!json_is_boolean(n))
      return paimon_error_set(err, PAIMON_EINVAL, "\"nullable\" must be a boolean, found %s",
                              json_kind_name(n));
    *nullable = json_is_true(n);
    return PAIMON_OK;
  }
  const char *rest = type_str + kw_len;
  const char *gt = strrchr(type_str, '>');
  if (gt) rest = gt + 1;
  while (isspace((unsigned char)*rest)) rest++;
  size_t len = strlen(rest);
  while (len > 0 && isspace((unsigned char)rest[len - 1])) len--;
  /* Collapse the one legal shape, NOT <spaces> NULL, by comparing its two words. */
  const char *sp = memchr(rest, ' ', len);
  if (len == 0 || (len == 4 && strncasecmp(rest, "NULL", 4) == 0)) {
    *nullable = true;
  } else if (sp && (size_t)(sp - rest) == 3 && strncasecmp(rest, "NOT", 3) == 0) {
    const char *w = sp;
    while (*w == ' ') w++;
    if ((size_t)(rest + len - w) != 4 || strncasecmp(w, "NULL", 4) != 0) goto bad;
    *nullable = false;
  } else {
    goto bad;
  }
  return PAIMON_OK;
bad:
  return paimon_error_set(err, PAIMON_EINVAL, "unexpected text in \"type\" '%s'", type_str);
}

/* The complex kind a "type" string starts with, or -1; *kw_len gets the keyword's length. */
static int complex_kind(const char *s, size_t *kw_len) {
  static const struct {
    const char *word;
    cp_type_kind kind;
  } KW[] = {{"ARRAY", CP_TYPE_ARRAY},
            {"MULTISET", CP_TYPE_MULTISET},
            {"MAP", CP_TYPE_MAP},
            {"ROW", CP_TYPE_ROW},
            {"VECTOR", CP_TYPE_VECTOR}};
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  for (size_t i = 0; i < sizeof KW / sizeof KW[0]; i++)
    if (strlen(KW[i].word) == n && strncasecmp(s, KW[i].word, n) == 0) {
      *kw_len = n;
      return (int)KW[i].kind;
    }
  return -1;
}

static int object_type(const json_t *obj, int depth, id_ctx *ids, cp_type **out,
                       paimon_error *err) {
  const json_t *tn = json_object_get(obj, "type");
  if (!json_is_string(tn))
    return paimon_error_set(err, PAIMON_EINVAL, "type object needs a string \"type\", found %s",
                            tn ? json_kind_name(tn) : "none");
  const char *ts = json_string_value(tn);
  if (memchr(ts, '\0', json_string_length(tn)))
    return paimon_error_set(err, PAIMON_EINVAL, "\"type\" contains a NUL character");
  size_t kw_len = 0;
  int kind = complex_kind(ts, &kw_len);
  bool nullable = true;
  if (kind < 0) { /* an atomic type in object clothing (pypaimon reads it) */
    CP_RETURN_IF_ERROR(cp_type_parse(ts, out, err));
    const json_t *n = json_object_get(obj, "nullable");
    if (json_is_boolean(n)) (*out)->nullable = json_is_true(n);
    return PAIMON_OK;
  }
  CP_RETURN_IF_ERROR(object_nullability(obj, ts, kw_len, &nullable, err));
  cp_type *a = NULL, *b = NULL;
  int64_t length = 0;
  switch ((cp_type_kind)kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
    CP_RETURN_IF_ERROR(child_type(obj, "element", depth, ids, &a, err));
    return cp_type_new_collection(out, (cp_type_kind)kind, a, nullable, err);
  case CP_TYPE_VECTOR:
    CP_RETURN_IF_ERROR(get_int(obj, "length", 1, CP_TYPE_MAX_LENGTH, &length, err));
    CP_RETURN_IF_ERROR(child_type(obj, "element", depth, ids, &a, err));
    return cp_type_new_vector(out, a, length, nullable, err);
  case CP_TYPE_MAP: {
    CP_RETURN_IF_ERROR(child_type(obj, "key", depth, ids, &a, err));
    int rc = child_type(obj, "value", depth, ids, &b, err);
    if (rc != 0) {
      cp_type_free(a);
      return rc;
    }
    return cp_type_new_map(out, a, b, nullable, err);
  }
  default: {
    const json_t *fields = json_object_get(obj, "fields");
    if (!fields) return cp_type_new_row(out, NULL, 0, nullable, err); /* pypaimon: [] */
    return row_from_json_array(fields, depth + 1, ids, nullable, out, err);
  }
  }
}

static int type_from_json(const json_t *node, int depth, id_ctx *ids, cp_type **out,
                          paimon_error *err) {
  *out = NULL;
  if (depth > CP_TYPE_MAX_DEPTH)
    return paimon_error_set(err, PAIMON_EINVAL, "type nested deeper than %d levels",
                            CP_TYPE_MAX_DEPTH);
  if (json_is_string(node)) {
    const char *s = json_string_value(node);
    return cp_type_parse_n(s, json_string_length(node), out, err);
  }
  if (json_is_object(node)) return object_type(node, depth, ids, out, err);
  return paimon_error_set(err, PAIMON_EINVAL, "expected a type string or object, found %s",
                          json_kind_name(node));
}

int cp_type_from_json(const json_t *node, cp_type **out, paimon_error *err) {
  id_ctx ids = {true, -1, false};
  return type_from_json(node, 0, &ids, out, err);
}

int cp_field_from_json(const json_t *obj, cp_field *out, paimon_error *err) {
  id_ctx ids = {false, -1, false};
  return field_from_json(obj, SIZE_MAX, 0, &ids, out, err);
}

int cp_fields_from_json(const json_t *array, cp_type **out, paimon_error *err) {
  *out = NULL;
  id_ctx ids = {false, -1, false};
  CP_RETURN_IF_ERROR(row_from_json_array(array, 0, &ids, true, out, err));
  int rc = cp_type_check_field_ids(*out, err);
  if (rc != 0) {
    cp_type_free(*out);
    *out = NULL;
  }
  return rc;
}

/* ---- writing ------------------------------------------------------------------------------- */

/* Sets obj[key] = v, consuming v; ENOMEM when either is missing. */
static int put(json_t *obj, const char *key, json_t *v, paimon_error *err) {
  if (!v || json_object_set_new(obj, key, v) != 0) return CP_ENOMEM(err, "JSON type");
  return PAIMON_OK;
}

static int complex_to_json(const cp_type *t, json_t *obj, paimon_error *err) {
  char tname[32];
  snprintf(tname, sizeof tname, "%s%s", cp_type_kind_name(t->kind), t->nullable ? "" : " NOT NULL");
  CP_RETURN_IF_ERROR(put(obj, "type", json_string(tname), err));
  json_t *a = NULL, *b = NULL;
  switch (t->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
  case CP_TYPE_VECTOR:
    CP_RETURN_IF_ERROR(cp_type_to_json(t->element, &a, err));
    CP_RETURN_IF_ERROR(put(obj, "element", a, err));
    if (t->kind == CP_TYPE_VECTOR)
      CP_RETURN_IF_ERROR(put(obj, "length", json_integer(t->length), err));
    return PAIMON_OK;
  case CP_TYPE_MAP:
    CP_RETURN_IF_ERROR(cp_type_to_json(t->key, &a, err));
    CP_RETURN_IF_ERROR(put(obj, "key", a, err));
    CP_RETURN_IF_ERROR(cp_type_to_json(t->value, &b, err));
    return put(obj, "value", b, err);
  default: CP_RETURN_IF_ERROR(cp_fields_to_json(t, &a, err)); return put(obj, "fields", a, err);
  }
}

int cp_type_to_json(const cp_type *t, json_t **out, paimon_error *err) {
  *out = NULL;
  if (!t) return paimon_error_set(err, PAIMON_EINVAL, "cannot serialize a missing type");
  if (!cp_type_is_nested(t)) {
    char *s = NULL;
    CP_RETURN_IF_ERROR(cp_type_to_sql(t, &s, err));
    *out = json_string(s);
    free(s);
    return *out ? PAIMON_OK : CP_ENOMEM(err, "JSON type string");
  }
  json_t *obj = json_object();
  if (!obj) return CP_ENOMEM(err, "JSON type object");
  int rc = complex_to_json(t, obj, err);
  if (rc != 0) {
    json_decref(obj);
    return rc;
  }
  *out = obj;
  return PAIMON_OK;
}

int cp_field_to_json(const cp_field *f, json_t **out, paimon_error *err) {
  *out = NULL;
  int rc = cp_check_utf8(f->name, strlen(f->name), "name", err);
  if (rc == 0 && f->description)
    rc = cp_check_utf8(f->description, strlen(f->description), "description", err);
  if (rc == 0 && f->default_value)
    rc = cp_check_utf8(f->default_value, strlen(f->default_value), "default value", err);
  if (rc != 0) return paimon_error_prefix(err, "field (id %d)", (int)f->id);
  json_t *obj = json_object(), *type = NULL;
  if (!obj) return CP_ENOMEM(err, "JSON field");
  rc = put(obj, "id", json_integer(f->id), err);
  if (rc == 0) rc = put(obj, "name", json_string(f->name), err);
  if (rc == 0) rc = cp_type_to_json(f->type, &type, err);
  if (rc == 0) rc = put(obj, "type", type, err);
  if (rc == 0 && f->description) rc = put(obj, "description", json_string(f->description), err);
  if (rc == 0 && f->default_value)
    rc = put(obj, "defaultValue", json_string(f->default_value), err);
  if (rc != 0) {
    json_decref(obj);
    return paimon_error_prefix(err, "field '%s' (id %d)", f->name, (int)f->id);
  }
  *out = obj;
  return PAIMON_OK;
}

int cp_fields_to_json(const cp_type *row, json_t **out, paimon_error *err) {
  *out = NULL;
  if (!row || row->kind != CP_TYPE_ROW)
    return paimon_error_set(err, PAIMON_EINVAL, "DataField list needs a ROW type");
  json_t *arr = json_array();
  if (!arr) return CP_ENOMEM(err, "JSON fields");
  for (size_t i = 0; i < row->n_fields; i++) {
    json_t *f = NULL;
    int rc = cp_field_to_json(&row->fields[i], &f, err);
    if (rc == 0 && json_array_append_new(arr, f) != 0) rc = CP_ENOMEM(err, "JSON fields");
    if (rc != 0) {
      json_decref(arr);
      return rc;
    }
  }
  *out = arr;
  return PAIMON_OK;
}
