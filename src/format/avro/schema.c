/*
 * Avro schema JSON → node tree, and back (Avro 1.11 specification, "Schema Declaration" and
 * "Names"; spec/format.md §4.1–4.5 for the manifest schemas this must handle).
 *
 * The parsed JSON stays referenced by the schema handle: field defaults and the attributes we do
 * not interpret point into it, so printing can reproduce them without a second copy. Everything
 * else lives in one arena freed with the handle.
 */
#include "format/avro/schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

/* JSON nesting deeper than this is refused before the C stack is at risk. */
#define CP_AVRO_SCHEMA_MAX_DEPTH 128
#define CP_AVRO_PATH_MAX 512

struct cp_avro_schema {
  cp_arena arena;
  json_t *json;
  cp_avro_node *root;
  cp_avro_node **named;
  size_t n_named, cap_named;
};

typedef struct parser {
  cp_avro_schema *s;
  const char *source;
  paimon_error *err;
  char path[CP_AVRO_PATH_MAX]; /* dotted field path of the node being parsed, for messages */
  size_t path_len;
  int depth;
} parser;

static const char *const type_names[] = {"null",   "boolean", "int",    "long",   "float",
                                         "double", "bytes",   "string", "record", "enum",
                                         "array",  "map",     "union",  "fixed"};

const char *cp_avro_type_name(cp_avro_type t) {
  return (unsigned)t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?";
}

static int primitive_from_name(const char *name, cp_avro_type *out) {
  for (int t = CP_AVRO_NULL; t <= CP_AVRO_STRING; t++) {
    if (strcmp(name, type_names[t]) == 0) {
      *out = (cp_avro_type)t;
      return 1;
    }
  }
  return 0;
}

PAIMON_PRINTF(2, 3)
static int fail(parser *p, const char *fmt, ...) {
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return paimon_error_set(p->err, PAIMON_EINVAL, "%s%s%s%s: %s", p->source ? p->source : "",
                          p->source ? ": " : "", p->path_len ? "field " : "schema",
                          p->path_len ? p->path : "", msg);
}

static size_t path_push(parser *p, const char *part, bool dot) {
  size_t old = p->path_len;
  int n = snprintf(p->path + old, sizeof p->path - old, "%s%s", dot && old ? "." : "", part);
  if (n > 0) p->path_len = old + (size_t)n < sizeof p->path ? old + (size_t)n : sizeof p->path - 1;
  return old;
}

static void path_pop(parser *p, size_t old) {
  p->path_len = old;
  p->path[old] = '\0';
}

static int oom(parser *p) { return CP_ENOMEM(p->err, "parsing Avro schema"); }

/* Avro names: [A-Za-z_][A-Za-z0-9_]*, dot-separated for full names. */
static bool valid_name(const char *s, bool dotted) {
  bool start = true;
  for (; *s; s++) {
    char c = *s;
    if (c == '.' && dotted && !start) {
      start = true;
      continue;
    }
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!alpha && (start || c < '0' || c > '9')) return false;
    start = false;
  }
  return !start;
}

static cp_avro_node *new_node(parser *p, cp_avro_type t) {
  cp_avro_node *n = cp_arena_calloc(&p->s->arena, sizeof *n);
  if (n) n->type = t;
  return n;
}

static char *join_name(parser *p, const char *ns, const char *name) {
  size_t a = strlen(ns), b = strlen(name);
  char *out = cp_arena_alloc(&p->s->arena, a + b + 2);
  if (!out) return NULL;
  memcpy(out, ns, a);
  if (a) out[a++] = '.';
  memcpy(out + a, name, b + 1);
  return out;
}

static const cp_avro_node *lookup(const cp_avro_schema *s, const char *full) {
  for (size_t i = 0; i < s->n_named; i++)
    if (strcmp(s->named[i]->name, full) == 0) return s->named[i];
  return NULL;
}

const cp_avro_node *cp_avro_schema_find(const cp_avro_schema *s, const char *full_name) {
  return lookup(s, full_name);
}

size_t cp_avro_schema_named_count(const cp_avro_schema *s) { return s->n_named; }

const cp_avro_node *cp_avro_schema_root(const cp_avro_schema *s) { return s->root; }

/* Resolves a type name used as a reference: as written, then within the enclosing namespace. */
static const cp_avro_node *resolve_ref(parser *p, const char *name, const char *ns) {
  if (!strchr(name, '.') && ns[0]) {
    char *full = join_name(p, ns, name);
    const cp_avro_node *n = full ? lookup(p->s, full) : NULL;
    if (n) return n;
  }
  return lookup(p->s, name);
}

/* Works out full name and namespace of a named type declaration, checks and registers it. */
static int declare_name(parser *p, json_t *obj, const char *enclosing_ns, cp_avro_node *n) {
  json_t *jname = json_object_get(obj, "name");
  if (!json_is_string(jname))
    return fail(p, "%s needs a string \"name\"", cp_avro_type_name(n->type));
  const char *name = json_string_value(jname);
  json_t *jns = json_object_get(obj, "namespace");
  if (jns && !json_is_string(jns) && !json_is_null(jns))
    return fail(p, "\"namespace\" of '%s' is not a string", name);
  const char *ns = enclosing_ns;
  if (json_is_string(jns)) ns = json_string_value(jns);
  const char *dot = strrchr(name, '.');
  char *full;
  if (dot) {
    full = cp_arena_strdup(&p->s->arena, name);
    char *nspart = cp_arena_strndup(&p->s->arena, name, (size_t)(dot - name));
    if (!full || !nspart) return oom(p);
    n->namespace_ = nspart;
  } else {
    full = join_name(p, ns, name);
    n->namespace_ = cp_arena_strdup(&p->s->arena, ns);
    if (!full || !n->namespace_) return oom(p);
  }
  if (!valid_name(full, true) || (n->namespace_[0] && !valid_name(n->namespace_, true)))
    return fail(p, "invalid name '%s'", full);
  cp_avro_type prim;
  if (primitive_from_name(dot ? dot + 1 : name, &prim))
    return fail(p, "'%s' redefines a primitive type name", full);
  if (lookup(p->s, full)) return fail(p, "type '%s' is defined twice", full);
  n->name = full;
  cp_avro_schema *s = p->s;
  if (s->n_named == s->cap_named) {
    size_t cap = s->cap_named ? s->cap_named * 2 : 8;
    cp_avro_node **grown = realloc(s->named, cap * sizeof *grown);
    if (!grown) return oom(p);
    s->named = grown;
    s->cap_named = cap;
  }
  n->named_index = s->n_named;
  s->named[s->n_named++] = n;
  return 0;
}

static int parse_node(parser *p, json_t *j, const char *ns, const cp_avro_node **out);

static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

static int parse_field(parser *p, json_t *jf, const char *ns, size_t index, cp_avro_field *f) {
  if (!json_is_object(jf)) return fail(p, "field %zu is not a JSON object", index);
  json_t *jname = json_object_get(jf, "name");
  if (!json_is_string(jname)) return fail(p, "field %zu needs a string \"name\"", index);
  const char *name = json_string_value(jname);
  if (!valid_name(name, false)) return fail(p, "invalid field name '%s'", name);
  json_t *jtype = json_object_get(jf, "type");
  size_t mark = path_push(p, name, true);
  if (!jtype) {
    int rc = fail(p, "no \"type\"");
    path_pop(p, mark);
    return rc;
  }
  f->name = name;
  f->index = index;
  f->default_json = json_object_get(jf, "default");
  f->props = jf;
  json_t *jal = json_object_get(jf, "aliases");
  int rc = 0;
  if (json_is_array(jal) && json_array_size(jal)) {
    const char **al = cp_arena_calloc(&p->s->arena, json_array_size(jal) * sizeof *al);
    if (!al) rc = oom(p);
    for (size_t i = 0; !rc && i < json_array_size(jal); i++) {
      json_t *a = json_array_get(jal, i);
      if (!json_is_string(a))
        rc = fail(p, "alias %zu is not a string", i);
      else
        al[f->n_aliases++] = json_string_value(a);
    }
    f->aliases = al;
  } else if (jal && !json_is_array(jal)) {
    rc = fail(p, "\"aliases\" is not an array");
  }
  if (!rc) rc = parse_node(p, jtype, ns, &f->type);
  path_pop(p, mark);
  return rc;
}

static int parse_record(parser *p, json_t *obj, const char *ns, cp_avro_node *n) {
  CP_RETURN_IF_ERROR(declare_name(p, obj, ns, n));
  json_t *jfields = json_object_get(obj, "fields");
  if (!json_is_array(jfields)) return fail(p, "record '%s' needs a \"fields\" array", n->name);
  size_t count = json_array_size(jfields);
  cp_avro_field *fields = cp_arena_calloc(&p->s->arena, (count ? count : 1) * sizeof *fields);
  if (!fields) return oom(p);
  n->fields = fields;
  for (size_t i = 0; i < count; i++) {
    CP_RETURN_IF_ERROR(parse_field(p, json_array_get(jfields, i), n->namespace_, i, &fields[i]));
    for (size_t k = 0; k < i; k++)
      if (strcmp(fields[k].name, fields[i].name) == 0)
        return fail(p, "record '%s' has two fields named '%s'", n->name, fields[i].name);
    n->min_size = add_sat(n->min_size, fields[i].type->min_size);
  }
  n->n_fields = count;
  return 0;
}

static int parse_enum(parser *p, json_t *obj, const char *ns, cp_avro_node *n) {
  CP_RETURN_IF_ERROR(declare_name(p, obj, ns, n));
  json_t *jsyms = json_object_get(obj, "symbols");
  if (!json_is_array(jsyms)) return fail(p, "enum '%s' needs a \"symbols\" array", n->name);
  size_t count = json_array_size(jsyms);
  const char **syms = cp_arena_calloc(&p->s->arena, (count ? count : 1) * sizeof *syms);
  if (!syms) return oom(p);
  for (size_t i = 0; i < count; i++) {
    json_t *js = json_array_get(jsyms, i);
    if (!json_is_string(js) || !valid_name(json_string_value(js), false))
      return fail(p, "enum '%s': symbol %zu is not a valid name", n->name, i);
    syms[i] = json_string_value(js);
    for (size_t k = 0; k < i; k++)
      if (strcmp(syms[k], syms[i]) == 0)
        return fail(p, "enum '%s': duplicate symbol '%s'", n->name, syms[i]);
  }
  n->symbols = syms;
  n->n_symbols = count;
  json_t *jdef = json_object_get(obj, "default");
  if (jdef) {
    const char *d = json_is_string(jdef) ? json_string_value(jdef) : NULL;
    bool found = false;
    for (size_t i = 0; d && i < count; i++) found = found || strcmp(syms[i], d) == 0;
    if (!found) return fail(p, "enum '%s': default is not one of its symbols", n->name);
    n->enum_default = d;
  }
  n->min_size = 1;
  return 0;
}

static int parse_fixed(parser *p, json_t *obj, const char *ns, cp_avro_node *n) {
  CP_RETURN_IF_ERROR(declare_name(p, obj, ns, n));
  json_t *jsize = json_object_get(obj, "size");
  if (!json_is_integer(jsize) || json_integer_value(jsize) < 0)
    return fail(p, "fixed '%s' needs a non-negative integer \"size\"", n->name);
  n->fixed_size = (size_t)json_integer_value(jsize);
  n->min_size = n->fixed_size;
  return 0;
}

static int parse_union(parser *p, json_t *arr, const char *ns, const cp_avro_node **out) {
  size_t count = json_array_size(arr);
  if (count == 0) return fail(p, "empty union");
  cp_avro_node *n = new_node(p, CP_AVRO_UNION);
  const cp_avro_node **br = cp_arena_calloc(&p->s->arena, count * sizeof *br);
  if (!n || !br) return oom(p);
  size_t min = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    char label[32];
    snprintf(label, sizeof label, "[branch %zu]", i);
    size_t mark = path_push(p, label, false);
    int rc = parse_node(p, json_array_get(arr, i), ns, &br[i]);
    path_pop(p, mark);
    if (rc) return rc;
    if (br[i]->type == CP_AVRO_UNION) return fail(p, "union branch %zu is itself a union", i);
    for (size_t k = 0; k < i; k++) {
      bool named = br[i]->name != NULL;
      if (br[k]->type == br[i]->type && (!named || strcmp(br[k]->name, br[i]->name) == 0))
        return fail(p, "union has two branches of type %s",
                    named ? br[i]->name : cp_avro_type_name(br[i]->type));
    }
    if (br[i]->min_size < min) min = br[i]->min_size;
  }
  n->branches = br;
  n->n_branches = count;
  n->min_size = add_sat(1, min);
  *out = n;
  return 0;
}

static void set_logical(json_t *obj, cp_avro_node *n) {
  json_t *lt = json_object_get(obj, "logicalType");
  if (!json_is_string(lt)) return;
  n->logical_type = json_string_value(lt);
  if (strcmp(n->logical_type, "decimal") == 0) {
    json_t *jp = json_object_get(obj, "precision"), *js = json_object_get(obj, "scale");
    if (json_is_integer(jp)) n->precision = (int32_t)json_integer_value(jp);
    if (json_is_integer(js)) n->scale = (int32_t)json_integer_value(js);
  }
}

static size_t primitive_min_size(cp_avro_type t) {
  switch (t) {
  case CP_AVRO_NULL: return 0;
  case CP_AVRO_FLOAT: return 4;
  case CP_AVRO_DOUBLE: return 8;
  default: return 1;
  }
}

static int parse_object(parser *p, json_t *obj, const char *ns, const cp_avro_node **out) {
  json_t *jtype = json_object_get(obj, "type");
  if (!jtype) return fail(p, "schema object has no \"type\"");
  if (!json_is_string(jtype)) {
    /* {"type": {...}} or {"type": [...]}: a wrapped schema; attributes beside it are ignored. */
    return parse_node(p, jtype, ns, out);
  }
  const char *t = json_string_value(jtype);
  cp_avro_type prim;
  cp_avro_node *n = NULL;
  int rc = 0;
  if (primitive_from_name(t, &prim)) {
    if (!(n = new_node(p, prim))) return oom(p);
    n->min_size = primitive_min_size(prim);
  } else if (strcmp(t, "record") == 0 || strcmp(t, "error") == 0) {
    if (!(n = new_node(p, CP_AVRO_RECORD))) return oom(p);
    rc = parse_record(p, obj, ns, n);
  } else if (strcmp(t, "enum") == 0) {
    if (!(n = new_node(p, CP_AVRO_ENUM))) return oom(p);
    rc = parse_enum(p, obj, ns, n);
  } else if (strcmp(t, "fixed") == 0) {
    if (!(n = new_node(p, CP_AVRO_FIXED))) return oom(p);
    rc = parse_fixed(p, obj, ns, n);
  } else if (strcmp(t, "array") == 0 || strcmp(t, "map") == 0) {
    bool is_array = t[0] == 'a';
    json_t *inner = json_object_get(obj, is_array ? "items" : "values");
    if (!inner) return fail(p, "%s needs \"%s\"", t, is_array ? "items" : "values");
    if (!(n = new_node(p, is_array ? CP_AVRO_ARRAY : CP_AVRO_MAP))) return oom(p);
    size_t mark = path_push(p, is_array ? "[items]" : "[values]", false);
    rc = parse_node(p, inner, ns, &n->items);
    path_pop(p, mark);
    n->min_size = 1;
  } else {
    const cp_avro_node *ref = resolve_ref(p, t, ns);
    if (!ref) return fail(p, "unknown type '%s'", t);
    *out = ref;
    return 0;
  }
  if (rc) return rc;
  n->props = obj;
  set_logical(obj, n);
  *out = n;
  return 0;
}

static int parse_node(parser *p, json_t *j, const char *ns, const cp_avro_node **out) {
  if (++p->depth > CP_AVRO_SCHEMA_MAX_DEPTH) {
    p->depth--;
    return fail(p, "nested deeper than %d levels", CP_AVRO_SCHEMA_MAX_DEPTH);
  }
  int rc = 0;
  if (json_is_string(j)) {
    const char *t = json_string_value(j);
    cp_avro_type prim;
    if (primitive_from_name(t, &prim)) {
      cp_avro_node *n = new_node(p, prim);
      if (!n)
        rc = oom(p);
      else {
        n->min_size = primitive_min_size(prim);
        *out = n;
      }
    } else if (!(*out = resolve_ref(p, t, ns))) {
      rc = fail(p, "unknown type '%s'", t);
    }
  } else if (json_is_array(j)) {
    rc = parse_union(p, j, ns, out);
  } else if (json_is_object(j)) {
    rc = parse_object(p, j, ns, out);
  } else {
    rc = fail(p, "a schema must be a JSON string, array or object");
  }
  p->depth--;
  return rc;
}

int cp_avro_schema_from_json(cp_avro_schema **out, json_t *json, const char *source,
                             paimon_error *err) {
  *out = NULL;
  cp_avro_schema *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "Avro schema");
  s->json = json_incref(json);
  parser p = {.s = s, .source = source, .err = err};
  const cp_avro_node *root = NULL;
  int rc = parse_node(&p, json, "", &root);
  if (rc) {
    cp_avro_schema_free(s);
    return rc;
  }
  s->root = (cp_avro_node *)root;
  *out = s;
  return 0;
}

int cp_avro_schema_parse(cp_avro_schema **out, const char *json_text, size_t len,
                         const char *source, paimon_error *err) {
  *out = NULL;
  json_error_t jerr;
  json_t *json =
      json_loadb(json_text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  if (!json)
    return paimon_error_set(err, PAIMON_EINVAL, "%s%sschema is not valid JSON: %s at %d:%d",
                            source ? source : "", source ? ": " : "", jerr.text, jerr.line,
                            jerr.column);
  int rc = cp_avro_schema_from_json(out, json, source, err);
  json_decref(json);
  return rc;
}

void cp_avro_schema_free(cp_avro_schema *s) {
  if (!s) return;
  cp_arena_free(&s->arena);
  json_decref(s->json);
  free(s->named);
  free(s);
}

const cp_avro_field *cp_avro_record_field(const cp_avro_node *record, const char *name) {
  if (!record || record->type != CP_AVRO_RECORD) return NULL;
  for (size_t i = 0; i < record->n_fields; i++)
    if (strcmp(record->fields[i].name, name) == 0) return &record->fields[i];
  return NULL;
}

bool cp_avro_node_is_nullable(const cp_avro_node *n, size_t *null_branch, size_t *value_branch) {
  if (!n || n->type != CP_AVRO_UNION || n->n_branches != 2) return false;
  size_t nb = n->branches[0]->type == CP_AVRO_NULL ? 0 : 1;
  if (n->branches[nb]->type != CP_AVRO_NULL || n->branches[1 - nb]->type == CP_AVRO_NULL)
    return false;
  if (null_branch) *null_branch = nb;
  if (value_branch) *value_branch = 1 - nb;
  return true;
}
