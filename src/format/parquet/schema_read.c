/*
 * The read plan's structure and the natural Parquet → Arrow mapping (schema_read.h;
 * spec/parquet.md §1.1, §1.3, §2.5 "3-level lists with any names, and the 2-level legacy forms per
 * LogicalTypes.md Backward-compatibility rules; maps whose repeated group is annotated
 * MAP_KEY_VALUE or not", §3.1 levels). The natural types are the ones pyarrow infers from a
 * Parquet schema without ARROW:schema (§2.10), so a file reads the same through either library.
 */
#include "format/parquet/schema_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "types/type_arrow.h"

/* ---- shape of Parquet groups ------------------------------------------------------------------
 */

static bool is_group(const cp_pq_schema_node *n) { return !n->element->type.is_set; }

static int converted(const cp_pq_schema_node *n) {
  return n->element->converted_type.is_set ? n->element->converted_type.value : -1;
}

bool cp_pq_node_is_list(const cp_pq_schema_node *n) {
  if (!is_group(n)) return false;
  return n->element->logical_type.kind == CP_PQ_LT_LIST || converted(n) == CP_PQ_CT_LIST;
}

bool cp_pq_node_is_map(const cp_pq_schema_node *n) {
  if (!is_group(n)) return false;
  if (n->element->logical_type.kind == CP_PQ_LT_MAP || converted(n) == CP_PQ_CT_MAP) return true;
  /* Old writers put MAP_KEY_VALUE on the outer group (LogicalTypes.md); on a repeated group it is
   * the key_value level of a proper map and is handled there. */
  return converted(n) == CP_PQ_CT_MAP_KEY_VALUE && n->repetition != CP_PQ_REPEATED;
}

int cp_pq_list_shape_of(const cp_pq_schema_node *g, cp_pq_list_shape *out, paimon_error *err) {
  if (g->num_children != 1)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "LIST group '%s' has %u children; it must have exactly one",
                            g->path_str, g->num_children);
  const cp_pq_schema_node *r = g->children[0];
  if (r->repetition != CP_PQ_REPEATED)
    return paimon_error_set(err, PAIMON_ECORRUPT, "LIST group '%s': its child '%s' is not REPEATED",
                            g->path_str, r->element->name);
  out->repeated = r;
  /* LogicalTypes.md backward-compatibility rules, in their order. */
  bool two = !is_group(r) || r->num_children > 1;
  if (!two && r->num_children == 1) {
    size_t gl = strlen(g->element->name);
    const char *rn = r->element->name;
    two = strcmp(rn, "array") == 0 ||
          (strncmp(rn, g->element->name, gl) == 0 && strcmp(rn + gl, "_tuple") == 0);
  }
  if (is_group(r) && r->num_children == 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "LIST group '%s' has an empty repeated group",
                            g->path_str);
  out->two_level = two;
  out->element = two ? r : r->children[0];
  return PAIMON_OK;
}

int cp_pq_map_children(const cp_pq_schema_node *kv, const cp_pq_schema_node **key,
                       const cp_pq_schema_node **value, paimon_error *err) {
  if (!is_group(kv) || kv->num_children < 1 || kv->num_children > 2)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "MAP '%s': the repeated key/value group must have one or two children",
                            kv->path_str);
  *key = NULL;
  *value = NULL;
  for (uint32_t i = 0; i < kv->num_children; i++) {
    const char *n = kv->children[i]->element->name;
    if (strcmp(n, "key") == 0) *key = kv->children[i];
    if (strcmp(n, "value") == 0) *value = kv->children[i];
  }
  /* Java looks the children up by name (§1.3); other writers (and pyarrow) go by position. */
  if (!*key || (kv->num_children == 2 && !*value) || *key == *value) {
    *key = kv->children[0];
    *value = kv->num_children == 2 ? kv->children[1] : NULL;
  }
  return PAIMON_OK;
}

const cp_pq_schema_node *cp_pq_schema_find_column(const cp_pq_schema *s, const char *name) {
  const cp_pq_schema_node *root = &s->nodes[0];
  for (uint32_t i = 0; i < root->num_children; i++)
    if (strcmp(root->children[i]->element->name, name) == 0) return root->children[i];
  return NULL;
}

const cp_pq_schema_node *cp_pq_schema_find_column_id(const cp_pq_schema *s, int32_t id) {
  const cp_pq_schema_node *root = &s->nodes[0];
  for (uint32_t i = 0; i < root->num_children; i++) {
    const cp_pq_schema_element *e = root->children[i]->element;
    if (e->field_id.is_set && e->field_id.value == id) return root->children[i];
  }
  return NULL;
}

/* ---- descriptions ------------------------------------------------------------------------------
 */

static const char *unit_name(int unit) {
  switch (unit) {
  case CP_PQ_MILLIS: return "MILLIS";
  case CP_PQ_MICROS: return "MICROS";
  case CP_PQ_NANOS: return "NANOS";
  default: return "?";
  }
}

static const char *const k_converted_names[] = {"UTF8",
                                                "MAP",
                                                "MAP_KEY_VALUE",
                                                "LIST",
                                                "ENUM",
                                                "DECIMAL",
                                                "DATE",
                                                "TIME_MILLIS",
                                                "TIME_MICROS",
                                                "TIMESTAMP_MILLIS",
                                                "TIMESTAMP_MICROS",
                                                "UINT_8",
                                                "UINT_16",
                                                "UINT_32",
                                                "UINT_64",
                                                "INT_8",
                                                "INT_16",
                                                "INT_32",
                                                "INT_64",
                                                "JSON",
                                                "BSON",
                                                "INTERVAL"};

static const char *simple_logical_name(int kind) {
  switch (kind) {
  case CP_PQ_LT_STRING: return "STRING";
  case CP_PQ_LT_MAP: return "MAP";
  case CP_PQ_LT_LIST: return "LIST";
  case CP_PQ_LT_ENUM: return "ENUM";
  case CP_PQ_LT_DATE: return "DATE";
  case CP_PQ_LT_UNKNOWN: return "UNKNOWN";
  case CP_PQ_LT_JSON: return "JSON";
  case CP_PQ_LT_BSON: return "BSON";
  case CP_PQ_LT_UUID: return "UUID";
  case CP_PQ_LT_FLOAT16: return "FLOAT16";
  default: return NULL;
  }
}

int cp_pq_describe_annotation(const cp_pq_schema_element *e, cp_buf *out, paimon_error *err) {
  const cp_pq_logical_type *lt = &e->logical_type;
  switch (lt->kind) {
  case CP_PQ_LT_NONE: break;
  case CP_PQ_LT_DECIMAL:
    return cp_buf_appendf(out, err, "DECIMAL(%d,%d)", (int)lt->decimal.precision,
                          (int)lt->decimal.scale);
  case CP_PQ_LT_TIME:
  case CP_PQ_LT_TIMESTAMP:
    return cp_buf_appendf(out, err, "%s(%s,%s)", lt->kind == CP_PQ_LT_TIME ? "TIME" : "TIMESTAMP",
                          unit_name(lt->time.unit), lt->time.is_adjusted_to_utc ? "true" : "false");
  case CP_PQ_LT_INTEGER:
    return cp_buf_appendf(out, err, "INTEGER(%d,%s)", (int)lt->integer.bit_width,
                          lt->integer.is_signed ? "true" : "false");
  case CP_PQ_LT_OTHER: return cp_buf_appendf(out, err, "LOGICAL_TYPE_%d", lt->other_id);
  default: return cp_buf_appendf(out, err, "%s", simple_logical_name(lt->kind));
  }
  if (!e->converted_type.is_set) return PAIMON_OK;
  int ct = e->converted_type.value;
  if (ct == CP_PQ_CT_DECIMAL)
    return cp_buf_appendf(out, err, "DECIMAL(%d,%d)", e->precision.is_set ? e->precision.value : 0,
                          e->scale.is_set ? e->scale.value : 0);
  if (ct >= 0 && ct < (int)(sizeof k_converted_names / sizeof k_converted_names[0]))
    return cp_buf_appendf(out, err, "%s", k_converted_names[ct]);
  return cp_buf_appendf(out, err, "CONVERTED_TYPE_%d", ct);
}

int cp_pq_describe_type(const cp_pq_schema_element *e, cp_buf *out, paimon_error *err) {
  if (!e->type.is_set) {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "group"));
  } else if (e->type.value == CP_PQ_FIXED_LEN_BYTE_ARRAY) {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "FIXED_LEN_BYTE_ARRAY(%d)",
                                      e->type_length.is_set ? e->type_length.value : -1));
  } else {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s", cp_pq_type_name(e->type.value)));
  }
  size_t before = out->len;
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " ("));
  size_t mark = out->len;
  CP_RETURN_IF_ERROR(cp_pq_describe_annotation(e, out, err));
  if (out->len == mark) {
    out->len = before;
    return PAIMON_OK;
  }
  return cp_buf_appendf(out, err, ")");
}

/* ---- natural leaf types ------------------------------------------------------------------------
 */

/* Decimal precision and scale of a leaf, from the logical type or the legacy fields. */
static bool leaf_decimal(const cp_pq_schema_element *e, int32_t *precision, int32_t *scale) {
  if (e->logical_type.kind == CP_PQ_LT_DECIMAL) {
    *precision = e->logical_type.decimal.precision;
    *scale = e->logical_type.decimal.scale;
    return true;
  }
  if (e->logical_type.kind == CP_PQ_LT_NONE && e->converted_type.is_set &&
      e->converted_type.value == CP_PQ_CT_DECIMAL) {
    *precision = e->precision.is_set ? e->precision.value : -1;
    *scale = e->scale.is_set ? e->scale.value : 0;
    return true;
  }
  return false;
}

static int bad_annotation(const cp_pq_schema_element *e, const char *column, paimon_error *err) {
  cp_buf d = CP_BUF_INIT;
  int rc = cp_pq_describe_type(e, &d, err);
  if (rc == 0) rc = cp_buf_nul_terminate(&d, err);
  if (rc == 0)
    rc = paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': Parquet type %s is not readable",
                          column, (const char *)d.data);
  cp_buf_free(&d);
  return rc;
}

static void set_time(cp_arrow_type_info *t, cp_arrow_type id, int pq_unit) {
  cp_arrow_type_info_init(t, id);
  t->unit = pq_unit == CP_PQ_MILLIS   ? CP_UNIT_MILLI
            : pq_unit == CP_PQ_MICROS ? CP_UNIT_MICRO
                                      : CP_UNIT_NANO;
  t->byte_width = id == CP_ARROW_TIME32 ? 4 : 8;
}

static void set_timestamp(cp_arrow_type_info *t, int pq_unit, bool utc) {
  set_time(t, CP_ARROW_TIMESTAMP, pq_unit);
  if (utc) {
    t->has_timezone = true;
    strcpy(t->timezone, "UTC");
  }
}

/* Integer leaves: (bits, signed) from the annotation, mapped to the Arrow integer type. */
static bool natural_int(const cp_pq_schema_element *e, cp_arrow_type_info *t) {
  const cp_pq_logical_type *lt = &e->logical_type;
  int bits = 0;
  bool sign = true;
  if (lt->kind == CP_PQ_LT_INTEGER) {
    bits = lt->integer.bit_width;
    sign = lt->integer.is_signed;
  } else if (lt->kind == CP_PQ_LT_NONE && e->converted_type.is_set) {
    int ct = e->converted_type.value;
    if (ct >= CP_PQ_CT_UINT_8 && ct <= CP_PQ_CT_UINT_64) {
      bits = 8 << (ct - CP_PQ_CT_UINT_8);
      sign = false;
    } else if (ct >= CP_PQ_CT_INT_8 && ct <= CP_PQ_CT_INT_64) {
      bits = 8 << (ct - CP_PQ_CT_INT_8);
    }
  }
  if (bits == 0) return false;
  int phys_bits = e->type.value == CP_PQ_INT32 ? 32 : 64;
  if ((phys_bits == 32 && bits > 32) || (phys_bits == 64 && bits != 64)) return false;
  static const cp_arrow_type s_ids[] = {CP_ARROW_INT8, CP_ARROW_INT16, CP_ARROW_INT32,
                                        CP_ARROW_INT64};
  static const cp_arrow_type u_ids[] = {CP_ARROW_UINT8, CP_ARROW_UINT16, CP_ARROW_UINT32,
                                        CP_ARROW_UINT64};
  int k = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : -1;
  if (k < 0) return false;
  cp_arrow_type_info_init(t, sign ? s_ids[k] : u_ids[k]);
  return true;
}

static bool natural_int32(const cp_pq_schema_element *e, cp_arrow_type_info *t) {
  const cp_pq_logical_type *lt = &e->logical_type;
  int ct =
      lt->kind == CP_PQ_LT_NONE ? (e->converted_type.is_set ? e->converted_type.value : -1) : -1;
  if (lt->kind == CP_PQ_LT_DATE || ct == CP_PQ_CT_DATE) {
    cp_arrow_type_info_init(t, CP_ARROW_DATE32);
    return true;
  }
  if ((lt->kind == CP_PQ_LT_TIME && lt->time.unit == CP_PQ_MILLIS) || ct == CP_PQ_CT_TIME_MILLIS) {
    set_time(t, CP_ARROW_TIME32, CP_PQ_MILLIS);
    return true;
  }
  if (lt->kind == CP_PQ_LT_NONE && ct < 0) {
    cp_arrow_type_info_init(t, CP_ARROW_INT32);
    return true;
  }
  return natural_int(e, t);
}

static bool natural_int64(const cp_pq_schema_element *e, cp_arrow_type_info *t) {
  const cp_pq_logical_type *lt = &e->logical_type;
  int ct =
      lt->kind == CP_PQ_LT_NONE ? (e->converted_type.is_set ? e->converted_type.value : -1) : -1;
  if (lt->kind == CP_PQ_LT_TIME &&
      (lt->time.unit == CP_PQ_MICROS || lt->time.unit == CP_PQ_NANOS)) {
    set_time(t, CP_ARROW_TIME64, lt->time.unit);
    return true;
  }
  if (ct == CP_PQ_CT_TIME_MICROS) {
    set_time(t, CP_ARROW_TIME64, CP_PQ_MICROS);
    return true;
  }
  if (lt->kind == CP_PQ_LT_TIMESTAMP && lt->time.unit >= CP_PQ_MILLIS &&
      lt->time.unit <= CP_PQ_NANOS) {
    set_timestamp(t, lt->time.unit, lt->time.is_adjusted_to_utc);
    return true;
  }
  /* A converted type alone means UTC-adjusted (§2.6). */
  if (ct == CP_PQ_CT_TIMESTAMP_MILLIS || ct == CP_PQ_CT_TIMESTAMP_MICROS) {
    set_timestamp(t, ct == CP_PQ_CT_TIMESTAMP_MILLIS ? CP_PQ_MILLIS : CP_PQ_MICROS, true);
    return true;
  }
  if (lt->kind == CP_PQ_LT_NONE && ct < 0) {
    cp_arrow_type_info_init(t, CP_ARROW_INT64);
    return true;
  }
  return natural_int(e, t);
}

static bool is_string_annotation(const cp_pq_schema_element *e) {
  int k = e->logical_type.kind;
  if (k == CP_PQ_LT_STRING || k == CP_PQ_LT_ENUM || k == CP_PQ_LT_JSON) return true;
  if (k != CP_PQ_LT_NONE || !e->converted_type.is_set) return false;
  int ct = e->converted_type.value;
  return ct == CP_PQ_CT_UTF8 || ct == CP_PQ_CT_ENUM || ct == CP_PQ_CT_JSON;
}

/* The Arrow type pyarrow gives leaf `e`; *is_null for the UNKNOWN (always-null) logical type. */
static int natural_leaf_type(const cp_pq_schema_element *e, const char *column,
                             cp_arrow_type_info *t, bool *is_null, paimon_error *err) {
  *is_null = e->logical_type.kind == CP_PQ_LT_UNKNOWN;
  if (*is_null) {
    cp_arrow_type_info_init(t, CP_ARROW_NA);
    return PAIMON_OK;
  }
  int32_t precision, scale;
  if (leaf_decimal(e, &precision, &scale)) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      if (precision > 38 && scale >= 0 && scale <= precision)
        return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                                "column '%s': DECIMAL(%d,%d) exceeds the 38 digits of decimal128",
                                column, (int)precision, (int)scale);
      return paimon_error_set(err, PAIMON_ECORRUPT, "column '%s': invalid DECIMAL(%d,%d)", column,
                              (int)precision, (int)scale);
    }
    cp_arrow_type_info_init(t, CP_ARROW_DECIMAL128);
    t->byte_width = 16;
    t->precision = precision;
    t->scale = scale;
    return PAIMON_OK;
  }
  bool ok = true;
  switch (e->type.value) {
  case CP_PQ_BOOLEAN: cp_arrow_type_info_init(t, CP_ARROW_BOOL); break;
  case CP_PQ_INT32: ok = natural_int32(e, t); break;
  case CP_PQ_INT64: ok = natural_int64(e, t); break;
  case CP_PQ_INT96: set_timestamp(t, CP_PQ_NANOS, false); break;
  case CP_PQ_FLOAT: cp_arrow_type_info_init(t, CP_ARROW_FLOAT); break;
  case CP_PQ_DOUBLE: cp_arrow_type_info_init(t, CP_ARROW_DOUBLE); break;
  case CP_PQ_BYTE_ARRAY:
    cp_arrow_type_info_init(t, is_string_annotation(e) ? CP_ARROW_STRING : CP_ARROW_BINARY);
    break;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY:
    if (e->logical_type.kind == CP_PQ_LT_FLOAT16) {
      ok = e->type_length.value == 2;
      cp_arrow_type_info_init(t, CP_ARROW_HALF_FLOAT);
    } else {
      cp_arrow_type_info_init(t, CP_ARROW_FIXED_SIZE_BINARY);
      t->byte_width = e->type_length.value;
      ok = t->byte_width > 0;
    }
    break;
  default: ok = false;
  }
  return ok ? PAIMON_OK : bad_annotation(e, column, err);
}

/* ---- building nodes ----------------------------------------------------------------------------
 */

/* The first Parquet leaf under `n` (every group has at least one child; schema_build checks). */
static int32_t first_leaf(const cp_pq_schema_node *n) {
  while (n->num_children > 0) n = n->children[0];
  return n->leaf_index;
}

static char *join_path(cp_pq_plan *plan, const char *parent, const char *name) {
  size_t a = parent ? strlen(parent) : 0, b = strlen(name);
  char *s = cp_arena_alloc(&plan->arena, a + b + 2);
  if (!s) return NULL;
  if (a) {
    memcpy(s, parent, a);
    s[a++] = '.';
  }
  memcpy(s + a, name, b + 1);
  return s;
}

static int alloc_children(cp_pq_plan *plan, cp_pq_rnode *node, uint32_t n, paimon_error *err) {
  node->num_children = n;
  node->children = n ? cp_arena_calloc(&plan->arena, n * sizeof *node->children) : NULL;
  if (n && !node->children) return CP_ENOMEM(err, "parquet read plan");
  return PAIMON_OK;
}

static int put_field_id(const cp_pq_schema_node *pq, struct ArrowSchema *s, paimon_error *err) {
  if (!pq->element->field_id.is_set) return PAIMON_OK;
  char id[16];
  snprintf(id, sizeof id, "%d", (int)pq->element->field_id.value);
  return cp_schema_metadata_put(s, CP_ARROW_FIELD_ID_KEY, id, err);
}

static int natural_leaf(cp_pq_plan *plan, const cp_pq_schema_node *pq, const char *name,
                        int64_t flags, cp_pq_rnode *node, struct ArrowSchema *out,
                        paimon_error *err) {
  bool is_null;
  /* A logical type newer than this code is read by its physical (and converted) type, the way
   * readers are meant to treat files from newer writers (parquet-testing
   * unknown-logical-type.parquet). */
  cp_pq_schema_element e = *pq->element;
  if (e.logical_type.kind == CP_PQ_LT_OTHER) e.logical_type.kind = CP_PQ_LT_NONE;
  CP_RETURN_IF_ERROR(natural_leaf_type(&e, node->path, &node->type, &is_null, err));
  node->kind = is_null ? CP_PQ_RNODE_NULL_LEAF : CP_PQ_RNODE_LEAF;
  node->leaf = pq->leaf_index;
  if (!is_null)
    CP_RETURN_IF_ERROR(cp_pq_leaf_conv_resolve(&e, &node->type, node->path, &node->conv, err));
  (void)plan;
  return cp_schema_init_type(out, &node->type, name, flags, 0, err);
}

/* Map group `pq`: map<key, value>, or list<key> when the key/value group has no value (pyarrow).
 */
static int natural_map(cp_pq_plan *plan, const cp_pq_schema_node *pq, const char *name,
                       int64_t flags, cp_pq_rnode *node, struct ArrowSchema *out,
                       paimon_error *err) {
  if (pq->num_children != 1 || pq->children[0]->repetition != CP_PQ_REPEATED)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "MAP group '%s' must have exactly one REPEATED child", pq->path_str);
  const cp_pq_schema_node *kv = pq->children[0], *key, *value;
  CP_RETURN_IF_ERROR(cp_pq_map_children(kv, &key, &value, err));
  CP_RETURN_IF_ERROR(alloc_children(plan, node, 1, err));
  if (!value) {
    node->kind = CP_PQ_RNODE_LIST;
    cp_arrow_type_info_init(&node->type, CP_ARROW_LIST);
    CP_RETURN_IF_ERROR(cp_schema_init(out, "+l", name, flags, 1, err));
    return cp_pq_plan_natural(plan, key, kv->max_rep, kv->max_def, false, key->element->name,
                              &node->children[0], out->children[0], err);
  }
  node->kind = CP_PQ_RNODE_MAP;
  node->key_nullable_in_file = key->repetition != CP_PQ_REQUIRED;
  cp_arrow_type_info_init(&node->type, CP_ARROW_MAP);
  CP_RETURN_IF_ERROR(cp_schema_init(out, "+m", name, flags, 1, err));
  cp_pq_rnode *entries = &node->children[0];
  entries->kind = CP_PQ_RNODE_STRUCT;
  entries->pq = kv;
  entries->rep = kv->max_rep;
  entries->slot_def = kv->max_def;
  entries->def = kv->max_def;
  entries->leaf = first_leaf(kv);
  entries->path = join_path(plan, node->path, kv->element->name);
  if (!entries->path) return CP_ENOMEM(err, "parquet read plan");
  cp_arrow_type_info_init(&entries->type, CP_ARROW_STRUCT);
  CP_RETURN_IF_ERROR(alloc_children(plan, entries, 2, err));
  struct ArrowSchema *es = out->children[0];
  CP_RETURN_IF_ERROR(cp_schema_init(es, "+s", kv->element->name, 0, 2, err));
  CP_RETURN_IF_ERROR(cp_pq_plan_natural(plan, key, kv->max_rep, kv->max_def, false, "key",
                                        &entries->children[0], es->children[0], err));
  es->children[0]->flags &= ~(int64_t)ARROW_FLAG_NULLABLE; /* Arrow map keys are never null */
  return cp_pq_plan_natural(plan, value, kv->max_rep, kv->max_def, false, "value",
                            &entries->children[1], es->children[1], err);
}

static int natural_list(cp_pq_plan *plan, const cp_pq_schema_node *pq, bool repeated_field,
                        const char *name, int64_t flags, cp_pq_rnode *node, struct ArrowSchema *out,
                        paimon_error *err) {
  cp_pq_list_shape shape;
  if (repeated_field) { /* an unannotated repeated field is a list of required elements */
    shape.repeated = pq;
    shape.element = pq;
    shape.two_level = true;
  } else {
    CP_RETURN_IF_ERROR(cp_pq_list_shape_of(pq, &shape, err));
  }
  node->kind = CP_PQ_RNODE_LIST;
  cp_arrow_type_info_init(&node->type, CP_ARROW_LIST);
  CP_RETURN_IF_ERROR(alloc_children(plan, node, 1, err));
  CP_RETURN_IF_ERROR(cp_schema_init(out, "+l", name, flags, 1, err));
  const cp_pq_schema_node *el = shape.element;
  return cp_pq_plan_natural(plan, el, shape.repeated->max_rep, shape.repeated->max_def,
                            shape.two_level, el->element->name, &node->children[0],
                            out->children[0], err);
}

static int natural_struct(cp_pq_plan *plan, const cp_pq_schema_node *pq, const char *name,
                          int64_t flags, cp_pq_rnode *node, struct ArrowSchema *out,
                          paimon_error *err) {
  if (pq->num_children == 0)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': empty groups are not readable",
                            node->path);
  node->kind = CP_PQ_RNODE_STRUCT;
  cp_arrow_type_info_init(&node->type, CP_ARROW_STRUCT);
  CP_RETURN_IF_ERROR(alloc_children(plan, node, pq->num_children, err));
  CP_RETURN_IF_ERROR(cp_schema_init(out, "+s", name, flags, pq->num_children, err));
  for (uint32_t i = 0; i < pq->num_children; i++) {
    const cp_pq_schema_node *c = pq->children[i];
    CP_RETURN_IF_ERROR(cp_pq_plan_natural(plan, c, node->rep, node->slot_def, false,
                                          c->element->name, &node->children[i], out->children[i],
                                          err));
  }
  return PAIMON_OK;
}

int cp_pq_plan_natural(cp_pq_plan *plan, const cp_pq_schema_node *pq, int16_t rep, int16_t slot_def,
                       bool as_element, const char *name, cp_pq_rnode *node,
                       struct ArrowSchema *out, paimon_error *err) {
  out->release = NULL;
  if (pq->depth > CP_PQ_MAX_SCHEMA_DEPTH)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s' is nested too deeply",
                            pq->path_str);
  memset(node, 0, sizeof *node);
  node->pq = pq;
  node->rep = rep;
  node->slot_def = slot_def;
  node->def = pq->max_def;
  node->leaf = first_leaf(pq);
  node->path = pq->path_str;
  bool repeated_field = pq->repetition == CP_PQ_REPEATED && !as_element;
  int64_t flags = pq->repetition == CP_PQ_OPTIONAL && !as_element ? ARROW_FLAG_NULLABLE : 0;
  int rc;
  if (repeated_field) {
    node->def = slot_def; /* the list itself is never null */
    rc = natural_list(plan, pq, true, name, 0, node, out, err);
  } else if (cp_pq_node_is_list(pq)) {
    rc = natural_list(plan, pq, false, name, flags, node, out, err);
  } else if (cp_pq_node_is_map(pq)) {
    rc = natural_map(plan, pq, name, flags, node, out, err);
  } else if (is_group(pq)) {
    rc = natural_struct(plan, pq, name, flags, node, out, err);
  } else {
    rc = natural_leaf(plan, pq, name, flags, node, out, err);
  }
  if (rc == 0 && out->release) rc = put_field_id(pq, out, err);
  return rc;
}

/* ---- the plan ----------------------------------------------------------------------------------
 */

/* Points every node at its node of the finished output schema (children are addressed through
 * stable pointers once the tree is complete) and parses the formats of targeted nodes. */
static int bind_arrow(cp_pq_rnode *node, const struct ArrowSchema *s, paimon_error *err) {
  node->arrow = s;
  if (node->kind == CP_PQ_RNODE_ABSENT || node->kind == CP_PQ_RNODE_STRUCT ||
      node->kind == CP_PQ_RNODE_LIST || node->kind == CP_PQ_RNODE_MAP)
    CP_RETURN_IF_ERROR(cp_arrow_parse_format(s->format, &node->type, err));
  if (node->kind == CP_PQ_RNODE_ABSENT) return PAIMON_OK;
  if ((int64_t)node->num_children != s->n_children)
    return paimon_error_set(err, PAIMON_ESTATE, "column '%s': plan and schema disagree",
                            node->path ? node->path : "");
  for (uint32_t i = 0; i < node->num_children; i++)
    CP_RETURN_IF_ERROR(bind_arrow(&node->children[i], s->children[i], err));
  return PAIMON_OK;
}

static void mark_leaves(const cp_pq_rnode *node, uint8_t *use) {
  if (node->kind == CP_PQ_RNODE_ABSENT) return;
  if (node->kind == CP_PQ_RNODE_LEAF) {
    use[node->leaf] = 2;
  } else if (use[node->leaf] == 0) {
    use[node->leaf] = 1;
  }
  for (uint32_t i = 0; i < node->num_children; i++) mark_leaves(&node->children[i], use);
}

static int collect_leaves(cp_pq_plan *plan, const cp_pq_schema *s, paimon_error *err) {
  uint8_t *use = calloc(s->num_leaves ? s->num_leaves : 1, 1);
  if (!use) return CP_ENOMEM(err, "parquet read plan");
  for (uint32_t i = 0; i < plan->num_columns; i++) mark_leaves(&plan->columns[i], use);
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->num_leaves; i++) n += use[i] != 0;
  plan->leaves = cp_arena_alloc(&plan->arena, (n ? n : 1) * sizeof *plan->leaves);
  plan->values_needed = cp_arena_alloc(&plan->arena, (n ? n : 1) * sizeof *plan->values_needed);
  if (!plan->leaves || !plan->values_needed) {
    free(use);
    return CP_ENOMEM(err, "parquet read plan");
  }
  for (uint32_t i = 0; i < s->num_leaves; i++) {
    if (!use[i]) continue;
    plan->leaves[plan->num_leaves] = (int32_t)i;
    plan->values_needed[plan->num_leaves++] = use[i] == 2;
  }
  free(use);
  return PAIMON_OK;
}

static int build_request(cp_pq_plan *plan, const cp_pq_schema *s, const cp_pq_column_request *rq,
                         uint32_t i, paimon_error *err) {
  const cp_pq_schema_node *pq = rq->name ? cp_pq_schema_find_column(s, rq->name)
                                         : cp_pq_schema_find_column_id(s, rq->field_id);
  const char *name = rq->output_name ? rq->output_name : rq->name;
  if (!name && pq) name = pq->element->name;
  cp_pq_rnode *node = &plan->columns[i];
  if (!rq->type) {
    if (!pq) {
      if (rq->name)
        return paimon_error_set(err, PAIMON_ENOTFOUND, "column '%s' is not in the file", rq->name);
      return paimon_error_set(err, PAIMON_ENOTFOUND, "no column with field id %d in the file",
                              (int)rq->field_id);
    }
    return cp_pq_plan_natural(plan, pq, 0, 0, false, name, node, plan->schema.children[i], err);
  }
  if (!name)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "column with field id %d is not in the file and has no output name",
                            (int)rq->field_id);
  struct ArrowSchema tmp;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(rq->type, name, &tmp, err));
  int rc = cp_schema_set_child(&plan->schema, i, &tmp, err);
  if (rc) {
    cp_schema_release(&tmp);
    return rc;
  }
  memset(node, 0, sizeof *node);
  node->path = name;
  return cp_pq_plan_targeted(plan, pq, 0, 0, false, rq->type, plan->schema.children[i],
                             rq->name == NULL || rq->nested_by_id, node, err);
}

int cp_pq_plan_build(cp_pq_plan *out, const cp_pq_schema *s, const cp_pq_column_request *requests,
                     size_t n, const char *path, paimon_error *err) {
  memset(out, 0, sizeof *out);
  const cp_pq_schema_node *root = &s->nodes[0];
  uint32_t ncols = requests ? (uint32_t)n : root->num_children;
  if (requests && n > UINT32_MAX / 2)
    return paimon_error_set(err, PAIMON_EINVAL, "%s: too many projected columns", path);
  int rc = cp_schema_init(&out->schema, "+s", "", 0, ncols, err);
  out->num_columns = ncols;
  out->columns = cp_arena_calloc(&out->arena, (ncols ? ncols : 1) * sizeof *out->columns);
  if (rc == 0 && !out->columns) rc = CP_ENOMEM(err, "parquet read plan");
  for (uint32_t i = 0; rc == 0 && i < ncols; i++) {
    if (requests) {
      rc = build_request(out, s, &requests[i], i, err);
    } else {
      const cp_pq_schema_node *c = root->children[i];
      rc = cp_pq_plan_natural(out, c, 0, 0, false, c->element->name, &out->columns[i],
                              out->schema.children[i], err);
    }
  }
  for (uint32_t i = 0; rc == 0 && i < ncols; i++)
    rc = bind_arrow(&out->columns[i], out->schema.children[i], err);
  if (rc == 0) rc = collect_leaves(out, s, err);
  if (rc) {
    paimon_error_prefix(err, "%s", path);
    cp_pq_plan_free(out);
  }
  return rc;
}

void cp_pq_plan_free(cp_pq_plan *p) {
  cp_schema_release(&p->schema);
  cp_arena_free(&p->arena);
  memset(p, 0, sizeof *p);
}
