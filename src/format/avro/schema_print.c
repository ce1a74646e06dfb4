/*
 * Avro schema node tree → JSON text, for the `avro.schema` entry of container headers
 * (spec/format.md §4.1; Avro 1.11 specification, "Object Container Files" and "Names").
 *
 * Attributes are emitted in the order they were declared, so a schema we read from a Java or
 * pypaimon file prints back the way its writer spelled it, minus whitespace. Named types are
 * defined once and referenced by name afterwards, which is also what makes recursive schemas
 * printable.
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/avro/schema.h"

typedef struct printer {
  bool *seen; /* per named_index: already defined in the output */
} printer;

static json_t *print_node(printer *pr, const cp_avro_node *n, const char *ns);

static const char *short_name(const char *full) {
  const char *dot = strrchr(full, '.');
  return dot ? dot + 1 : full;
}

/* Adds `key: value` taking ownership of `value`; false (and nothing leaked) on failure. */
static bool set_new(json_t *obj, const char *key, json_t *value) {
  return value && json_object_set_new(obj, key, value) == 0;
}

static json_t *print_fields(printer *pr, const cp_avro_node *n) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && i < n->n_fields; i++) {
    const cp_avro_field *f = &n->fields[i];
    json_t *jf = json_object();
    bool ok = jf != NULL;
    const char *key;
    json_t *val;
    /* The original field object keeps declaration order for doc, default, aliases, order. */
    json_object_foreach((json_t *)f->props, key, val) {
      if (!ok) break;
      if (strcmp(key, "type") == 0)
        ok = set_new(jf, key, print_node(pr, f->type, n->namespace_));
      else
        ok = json_object_set(jf, key, val) == 0;
    }
    if (!ok || json_array_append_new(arr, jf) != 0) {
      json_decref(jf);
      json_decref(arr);
      return NULL;
    }
  }
  return arr;
}

/* Copies the declared attributes of a complex or annotated node, replacing the nested schemas
 * with their printed form. */
static bool copy_attributes(printer *pr, const cp_avro_node *n, const char *ns, json_t *obj) {
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)n->props, key, val) {
    bool ok = true;
    if (strcmp(key, "type") == 0 || strcmp(key, "name") == 0 || strcmp(key, "namespace") == 0)
      continue;
    if (n->type == CP_AVRO_RECORD && strcmp(key, "fields") == 0)
      ok = set_new(obj, key, print_fields(pr, n));
    else if ((n->type == CP_AVRO_ARRAY && strcmp(key, "items") == 0) ||
             (n->type == CP_AVRO_MAP && strcmp(key, "values") == 0))
      ok = set_new(obj, key, print_node(pr, n->items, ns));
    else
      ok = json_object_set(obj, key, val) == 0;
    if (!ok) return false;
  }
  return true;
}

static json_t *print_union(printer *pr, const cp_avro_node *n, const char *ns) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && i < n->n_branches; i++) {
    json_t *b = print_node(pr, n->branches[i], ns);
    if (!b || json_array_append_new(arr, b) != 0) {
      json_decref(arr);
      return NULL;
    }
  }
  return arr;
}

static json_t *print_node(printer *pr, const cp_avro_node *n, const char *ns) {
  if (n->type == CP_AVRO_UNION) return print_union(pr, n, ns);
  if (n->name) {
    if (pr->seen[n->named_index])
      return json_string(strcmp(n->namespace_, ns) == 0 ? short_name(n->name) : n->name);
    pr->seen[n->named_index] = true;
  }
  bool annotated = false;
  if (n->props) annotated = json_object_size(n->props) > 1 || n->type > CP_AVRO_STRING;
  if (!annotated) return json_string(cp_avro_type_name(n->type));
  json_t *obj = json_object();
  if (!obj || !set_new(obj, "type", json_string(cp_avro_type_name(n->type)))) goto fail;
  if (n->name) {
    if (!set_new(obj, "name", json_string(short_name(n->name)))) goto fail;
    if (strcmp(n->namespace_, ns) != 0 && !set_new(obj, "namespace", json_string(n->namespace_)))
      goto fail;
  }
  /* Nested schemas inherit the namespace of the closest enclosing named type. */
  if (!copy_attributes(pr, n, n->name ? n->namespace_ : ns, obj)) goto fail;
  return obj;
fail:
  json_decref(obj);
  return NULL;
}

int cp_avro_schema_to_json(const cp_avro_schema *s, const cp_avro_node *node, cp_buf *out,
                           paimon_error *err) {
  size_t n_named = cp_avro_schema_named_count(s);
  printer pr = {.seen = calloc(n_named ? n_named : 1, sizeof(bool))};
  if (!pr.seen) return CP_ENOMEM(err, "printing an Avro schema");
  json_t *j = print_node(&pr, node, "");
  free(pr.seen);
  char *text = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  json_decref(j);
  if (!text) return CP_ENOMEM(err, "printing an Avro schema");
  int rc = cp_buf_append(out, text, strlen(text), err);
  free(text);
  return rc;
}
