/*
 * Paimon ROW type -> Parquet SchemaElements and leaf descriptors (schema_build.h; spec/parquet.md
 * §1.1-§1.3, §2.6 annotation pairs, §3.1 levels; Java ParquetSchemaConverter.convertToParquetType
 * and SpecialFields for the field ids).
 *
 * One depth-first walk over the type emits the SchemaElements in footer order and, at every
 * atomic node, a leaf descriptor holding a copy of the walk's current stack (Parquet names, Paimon
 * steps, definition and repetition levels).
 */
#include "format/parquet/schema_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

int32_t cp_pq_array_element_field_id(int32_t id, int32_t depth) {
  return (int32_t)((uint32_t)CP_PQ_NESTED_ID_BASE + (uint32_t)id * CP_PQ_NESTED_ID_DEPTH_LIMIT +
                   (uint32_t)depth);
}

int32_t cp_pq_map_key_field_id(int32_t id, int32_t depth) {
  return (int32_t)((uint32_t)CP_PQ_NESTED_ID_BASE - (uint32_t)id * CP_PQ_NESTED_ID_DEPTH_LIMIT -
                   (uint32_t)depth);
}

int32_t cp_pq_map_value_field_id(int32_t id, int32_t depth) {
  return cp_pq_array_element_field_id(id, depth);
}

/* MULTISET<T> is stored as MAP<T, INT NOT NULL> (Java); this is that INT. Immutable. */
static const cp_type k_multiset_count = {.kind = CP_TYPE_INT, .nullable = false};

/* Deepest Paimon nesting walked; each level takes at most two Parquet levels. */
#define MAX_STEPS (CP_PQ_MAX_SCHEMA_DEPTH / 2)

typedef struct build_ctx {
  cp_arena *arena;
  cp_buf elements; /* cp_pq_schema_element[] */
  cp_buf leaves;   /* cp_pq_leaf[] */
  const char *names[CP_PQ_MAX_SCHEMA_DEPTH + 1];
  uint32_t n_names;
  cp_pq_step steps[MAX_STEPS + 1];
  uint32_t n_steps;
  int16_t def, rep;
  uint32_t column;
  paimon_error *err;
} build_ctx;

static cp_pq_schema_element *element_at(build_ctx *c, size_t i) {
  return (cp_pq_schema_element *)(void *)c->elements.data + i;
}

/* Appends an element named `name` and returns its index in *index. */
static int push_element(build_ctx *c, const char *name, int repetition, size_t *index) {
  cp_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = cp_arena_strdup(c->arena, name);
  if (!e.name) return CP_ENOMEM(c->err, "parquet schema name");
  if (repetition >= 0) e.repetition_type = (cp_pq_opt_i32){true, repetition};
  *index = c->elements.len / sizeof e;
  return cp_buf_append(&c->elements, &e, sizeof e, c->err);
}

static void set_id(build_ctx *c, size_t i, int32_t id) {
  element_at(c, i)->field_id = (cp_pq_opt_i32){true, id};
}

static void set_group(build_ctx *c, size_t i, int children, int logical, int converted) {
  cp_pq_schema_element *e = element_at(c, i);
  e->num_children = (cp_pq_opt_i32){true, children};
  e->logical_type.kind = logical;
  if (converted >= 0) e->converted_type = (cp_pq_opt_i32){true, converted};
}

/* n(p) of §1.1: the fewest bytes whose two's complement range holds 10^p - 1 (Java's
 * computeMinBytesForDecimalPrecision, done in exact integer arithmetic). */
static int32_t decimal_bytes(int32_t precision) {
  unsigned __int128 pow10 = 1;
  for (int32_t i = 0; i < precision; i++) pow10 *= 10;
  int32_t n = 1;
  while (((unsigned __int128)1 << (8 * n - 1)) < pow10) n++;
  return n;
}

/* Physical type, annotations and value conversion of an atomic Paimon type. */
static int atomic_element(build_ctx *c, cp_pq_schema_element *e, const cp_type *t,
                          cp_pq_value_kind *kind) {
  int ph = CP_PQ_INT32, lt = CP_PQ_LT_NONE, ct = -1;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: ph = CP_PQ_BOOLEAN, *kind = CP_PQ_VAL_BOOL; break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT: {
    bool tiny = t->kind == CP_TYPE_TINYINT;
    lt = CP_PQ_LT_INTEGER, ct = tiny ? CP_PQ_CT_INT_8 : CP_PQ_CT_INT_16;
    e->logical_type.integer.bit_width = tiny ? 8 : 16;
    e->logical_type.integer.is_signed = true;
    *kind = tiny ? CP_PQ_VAL_I8 : CP_PQ_VAL_I16;
    break;
  }
  case CP_TYPE_INT: *kind = CP_PQ_VAL_I32; break;
  case CP_TYPE_BIGINT: ph = CP_PQ_INT64, *kind = CP_PQ_VAL_I64; break;
  case CP_TYPE_FLOAT: ph = CP_PQ_FLOAT, *kind = CP_PQ_VAL_F32; break;
  case CP_TYPE_DOUBLE: ph = CP_PQ_DOUBLE, *kind = CP_PQ_VAL_F64; break;
  case CP_TYPE_DECIMAL:
    lt = CP_PQ_LT_DECIMAL, ct = CP_PQ_CT_DECIMAL;
    e->logical_type.decimal.precision = t->precision;
    e->logical_type.decimal.scale = t->scale;
    e->precision = (cp_pq_opt_i32){true, t->precision};
    e->scale = (cp_pq_opt_i32){true, t->scale};
    if (t->precision <= 9) {
      *kind = CP_PQ_VAL_DEC_I32;
    } else if (t->precision <= 18) {
      ph = CP_PQ_INT64, *kind = CP_PQ_VAL_DEC_I64;
    } else {
      ph = CP_PQ_FIXED_LEN_BYTE_ARRAY, *kind = CP_PQ_VAL_DEC_FLBA;
      e->type_length = (cp_pq_opt_i32){true, decimal_bytes(t->precision)};
    }
    break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
    ph = CP_PQ_BYTE_ARRAY, lt = CP_PQ_LT_STRING, ct = CP_PQ_CT_UTF8, *kind = CP_PQ_VAL_BYTES;
    break;
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: ph = CP_PQ_BYTE_ARRAY, *kind = CP_PQ_VAL_BYTES; break;
  case CP_TYPE_DATE: lt = CP_PQ_LT_DATE, ct = CP_PQ_CT_DATE, *kind = CP_PQ_VAL_I32; break;
  case CP_TYPE_TIME:
    lt = CP_PQ_LT_TIME, ct = CP_PQ_CT_TIME_MILLIS, *kind = CP_PQ_VAL_I32;
    e->logical_type.time.is_adjusted_to_utc = true;
    e->logical_type.time.unit = CP_PQ_MILLIS;
    break;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    int p = t->precision;
    ph = CP_PQ_INT64, lt = CP_PQ_LT_TIMESTAMP;
    e->logical_type.time.is_adjusted_to_utc = t->kind == CP_TYPE_TIMESTAMP_LTZ;
    /* Converted types exist for MILLIS and MICROS whatever isAdjustedToUTC says (§4 P11);
     * NANOS has none. */
    if (p <= 3) {
      e->logical_type.time.unit = CP_PQ_MILLIS, ct = CP_PQ_CT_TIMESTAMP_MILLIS;
      *kind = p == 0 ? CP_PQ_VAL_SEC_MS : CP_PQ_VAL_I64;
    } else if (p <= 6) {
      e->logical_type.time.unit = CP_PQ_MICROS, ct = CP_PQ_CT_TIMESTAMP_MICROS;
      *kind = CP_PQ_VAL_I64;
    } else {
      /* INT64 TIMESTAMP(NANOS), not Java's INT96: spec §1.1 note N1, see schema_build.h. */
      e->logical_type.time.unit = CP_PQ_NANOS, *kind = CP_PQ_VAL_I64;
    }
    break;
  }
  default:
    return paimon_error_set(c->err, PAIMON_EINVAL, "%s is not an atomic type",
                            cp_type_kind_name(t->kind));
  }
  e->type = (cp_pq_opt_i32){true, ph};
  e->logical_type.kind = lt;
  if (ct >= 0) e->converted_type = (cp_pq_opt_i32){true, ct};
  return PAIMON_OK;
}

static char *join_names(cp_arena *a, const char *const *names, uint32_t n) {
  size_t len = 0;
  for (uint32_t i = 0; i < n; i++) len += strlen(names[i]) + 1;
  char *s = cp_arena_alloc(a, len + 1);
  if (!s) return NULL;
  size_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    size_t k = strlen(names[i]);
    if (i) s[at++] = '.';
    memcpy(s + at, names[i], k);
    at += k;
  }
  s[at] = '\0';
  return s;
}

/* Records the leaf whose element was just pushed: a snapshot of the walk's stacks. */
static int add_leaf(build_ctx *c, const cp_type *t, int physical, int32_t type_length,
                    cp_pq_value_kind kind) {
  cp_pq_leaf leaf;
  memset(&leaf, 0, sizeof leaf);
  leaf.column = c->column;
  leaf.physical_type = physical;
  leaf.type_length = type_length;
  leaf.max_def = c->def;
  leaf.max_rep = c->rep;
  leaf.value_kind = kind;
  leaf.type = t;
  leaf.path_len = c->n_names;
  leaf.path = cp_arena_alloc(c->arena, c->n_names * sizeof *leaf.path);
  leaf.n_steps = c->n_steps;
  leaf.steps = cp_arena_alloc(c->arena, c->n_steps * sizeof *leaf.steps);
  leaf.path_str = leaf.path ? join_names(c->arena, c->names, c->n_names) : NULL;
  if (!leaf.path || !leaf.steps || !leaf.path_str) return CP_ENOMEM(c->err, "parquet leaf");
  memcpy(leaf.path, c->names, c->n_names * sizeof *leaf.path);
  memcpy(leaf.steps, c->steps, c->n_steps * sizeof *leaf.steps);
  return cp_buf_append(&c->leaves, &leaf, sizeof leaf, c->err);
}

static int add_node(build_ctx *c, const char *name, const char *paimon_path, const cp_type *t,
                    int32_t field_id, int32_t named_id, int32_t depth, bool force_required);

/* `name` with a '.'-joined prefix, in the arena (Paimon paths for messages). */
static const char *child_path(build_ctx *c, const char *parent, const char *name) {
  const char *parts[2] = {parent, name};
  return join_names(c->arena, parts, 2);
}

static int add_row_children(build_ctx *c, const cp_type *t, const char *ppath, size_t at) {
  if (t->n_fields == 0)
    return paimon_error_set(c->err, PAIMON_EINVAL,
                            "column '%s': a ROW without fields cannot be stored in Parquet", ppath);
  set_group(c, at, (int)t->n_fields, CP_PQ_LT_NONE, -1);
  for (size_t i = 0; i < t->n_fields; i++) {
    const cp_field *f = &t->fields[i];
    const char *path = child_path(c, ppath, f->name);
    if (!path) return CP_ENOMEM(c->err, "parquet schema path");
    c->steps[c->n_steps - 1].child = (int32_t)i;
    /* A ROW field is a named field: nested collections below it count depth from it (§1.3). */
    CP_RETURN_IF_ERROR(add_node(c, f->name, path, f->type, f->id, f->id, 0, false));
  }
  return PAIMON_OK;
}

/* VARIANT: Java's group {required binary value (id 0); required binary metadata (id 1)}. */
static int add_variant_children(build_ctx *c, const cp_type *t, const char *ppath, size_t at) {
  static const char *const names[2] = {"value", "metadata"};
  set_group(c, at, 2, CP_PQ_LT_NONE, -1);
  for (int i = 0; i < 2; i++) {
    size_t el = 0;
    CP_RETURN_IF_ERROR(push_element(c, names[i], CP_PQ_REQUIRED, &el));
    set_id(c, el, i);
    element_at(c, el)->type = (cp_pq_opt_i32){true, CP_PQ_BYTE_ARRAY};
    c->steps[c->n_steps - 1].child = i;
    const char *path = child_path(c, ppath, names[i]);
    if (!path) return CP_ENOMEM(c->err, "parquet schema path");
    c->names[c->n_names++] = names[i];
    c->steps[c->n_steps++] = (cp_pq_step){CP_PQ_STEP_LEAF, true, 0, 0, path};
    int rc = add_leaf(c, t, CP_PQ_BYTE_ARRAY, 0, CP_PQ_VAL_BYTES);
    c->n_steps--;
    c->n_names--;
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

/* ARRAY / VECTOR: 3-level LIST `name` (LIST) -> repeated group list -> element (§1.2). */
static int add_list_children(build_ctx *c, const cp_type *t, const char *ppath, size_t at,
                             int32_t named_id, int32_t depth) {
  set_group(c, at, 1, CP_PQ_LT_LIST, CP_PQ_CT_LIST);
  size_t rep_el = 0;
  CP_RETURN_IF_ERROR(push_element(c, "list", CP_PQ_REPEATED, &rep_el));
  set_group(c, rep_el, 1, CP_PQ_LT_NONE, -1);
  c->names[c->n_names++] = "list";
  c->def++, c->rep++;
  c->steps[c->n_steps - 1].rep_level = c->rep;
  const char *path = child_path(c, ppath, "element");
  int rc =
      path ? add_node(c, "element", path, t->element,
                      cp_pq_array_element_field_id(named_id, depth + 1), named_id, depth + 1, false)
           : CP_ENOMEM(c->err, "parquet schema path");
  c->def--, c->rep--;
  c->n_names--;
  return rc;
}

/* MAP / MULTISET: `name` (MAP) -> repeated group key_value (MAP_KEY_VALUE) -> required key, value
 * (§1.2; Java forces the key REQUIRED and stores a MULTISET's counts as INT NOT NULL values). */
static int add_map_children(build_ctx *c, const cp_type *t, const char *ppath, size_t at,
                            int32_t named_id, int32_t depth) {
  set_group(c, at, 1, CP_PQ_LT_MAP, CP_PQ_CT_MAP);
  size_t kv = 0;
  CP_RETURN_IF_ERROR(push_element(c, "key_value", CP_PQ_REPEATED, &kv));
  set_group(c, kv, 2, CP_PQ_LT_NONE, CP_PQ_CT_MAP_KEY_VALUE);
  c->names[c->n_names++] = "key_value";
  c->def++, c->rep++;
  c->steps[c->n_steps - 1].rep_level = c->rep;
  const cp_type *key = t->kind == CP_TYPE_MAP ? t->key : t->element;
  const cp_type *value = t->kind == CP_TYPE_MAP ? t->value : &k_multiset_count;
  const char *kpath = child_path(c, ppath, "key"), *vpath = child_path(c, ppath, "value");
  int rc = kpath && vpath ? PAIMON_OK : CP_ENOMEM(c->err, "parquet schema path");
  if (rc == 0) {
    c->steps[c->n_steps - 1].child = 0;
    rc = add_node(c, "key", kpath, key, cp_pq_map_key_field_id(named_id, depth + 1), named_id,
                  depth + 1, true);
  }
  if (rc == 0) {
    c->steps[c->n_steps - 1].child = 1;
    rc = add_node(c, "value", vpath, value, cp_pq_map_value_field_id(named_id, depth + 1), named_id,
                  depth + 1, false);
  }
  c->def--, c->rep--;
  c->n_names--;
  return rc;
}

static int add_node(build_ctx *c, const char *name, const char *paimon_path, const cp_type *t,
                    int32_t field_id, int32_t named_id, int32_t depth, bool force_required) {
  if (c->n_names + 2 > CP_PQ_MAX_SCHEMA_DEPTH || c->n_steps >= MAX_STEPS)
    return paimon_error_set(c->err, PAIMON_EINVAL,
                            "column '%s': nesting deeper than Parquet readers accept", paimon_path);
  bool required = force_required || !t->nullable;
  size_t at = 0;
  CP_RETURN_IF_ERROR(push_element(c, name, required ? CP_PQ_REQUIRED : CP_PQ_OPTIONAL, &at));
  set_id(c, at, field_id);
  if (!required) c->def++;
  c->names[c->n_names++] = element_at(c, at)->name;
  cp_pq_step *step = &c->steps[c->n_steps++];
  *step = (cp_pq_step){CP_PQ_STEP_LEAF, required, 0, 0, paimon_path};
  int rc;
  switch (t->kind) {
  case CP_TYPE_ROW:
    step->kind = CP_PQ_STEP_STRUCT;
    rc = add_row_children(c, t, paimon_path, at);
    break;
  case CP_TYPE_VARIANT:
    step->kind = CP_PQ_STEP_STRUCT;
    rc = add_variant_children(c, t, paimon_path, at);
    break;
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
    step->kind = CP_PQ_STEP_LIST;
    rc = add_list_children(c, t, paimon_path, at, named_id, depth);
    break;
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET:
    step->kind = CP_PQ_STEP_MAP;
    rc = add_map_children(c, t, paimon_path, at, named_id, depth);
    break;
  default: {
    cp_pq_value_kind kind = CP_PQ_VAL_I32;
    rc = atomic_element(c, element_at(c, at), t, &kind);
    if (rc == 0) {
      const cp_pq_schema_element *e = element_at(c, at);
      rc = add_leaf(c, t, e->type.value, e->type_length.is_set ? e->type_length.value : 0, kind);
    }
  }
  }
  c->n_steps--;
  c->n_names--;
  if (!required) c->def--;
  return rc;
}

/* Moves a cp_buf array into the arena. */
static void *arena_copy(cp_arena *a, const cp_buf *b) {
  void *p = cp_arena_alloc(a, b->len ? b->len : 1);
  if (p && b->len) memcpy(p, b->data, b->len);
  return p;
}

int cp_pq_write_schema_build(cp_pq_write_schema *out, const cp_type *row, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (!row || row->kind != CP_TYPE_ROW || row->n_fields == 0)
    return paimon_error_set(err, PAIMON_EINVAL, "a Parquet file needs a ROW type with fields");
  build_ctx c;
  memset(&c, 0, sizeof c);
  c.arena = &out->arena;
  c.err = err;
  size_t root = 0;
  int rc = push_element(&c, "paimon_schema", -1, &root);
  if (rc == 0) set_group(&c, root, (int)row->n_fields, CP_PQ_LT_NONE, -1);
  for (size_t i = 0; rc == 0 && i < row->n_fields; i++) {
    const cp_field *f = &row->fields[i];
    c.column = (uint32_t)i;
    rc = add_node(&c, f->name, f->name, f->type, f->id, f->id, 0, false);
  }
  if (rc == 0) {
    out->elements = arena_copy(&out->arena, &c.elements);
    out->leaves = arena_copy(&out->arena, &c.leaves);
    out->n_elements = (uint32_t)(c.elements.len / sizeof(cp_pq_schema_element));
    out->n_leaves = (uint32_t)(c.leaves.len / sizeof(cp_pq_leaf));
    if (!out->elements || !out->leaves) rc = CP_ENOMEM(err, "parquet schema");
  }
  cp_buf_free(&c.elements);
  cp_buf_free(&c.leaves);
  if (rc != 0) cp_pq_write_schema_free(out);
  return rc;
}

void cp_pq_write_schema_free(cp_pq_write_schema *s) {
  cp_arena_free(&s->arena);
  memset(s, 0, sizeof *s);
}
