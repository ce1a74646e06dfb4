/*
 * Reading Parquet columns as a requested Paimon type (schema_read.h "targeted"): matching nested
 * fields by name or field id (spec/parquet.md §1.3), and choosing the value conversion of each
 * leaf with Java's widening rules (§2.5; Java ParquetVectorUpdaterFactory): narrower integers into
 * wider ones, FLOAT into DOUBLE, every decimal physical form into decimal128 of the target,
 * timestamp/time units into the target's unit, INT96 into any timestamp unit, FLBA into binary.
 * Natural reads go through the same resolver with the natural Arrow type as the target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "format/parquet/schema_read.h"
#include "types/type_sql.h"

/* ---- leaf conversions --------------------------------------------------------------------------
 */

/* (bits, signed) of an integer-valued leaf: plain INT32/INT64 or INT(...)/INT_x/UINT_x. False for
 * other annotations (DATE, TIME, DECIMAL, TIMESTAMP, ...). */
static bool file_int(const cp_pq_schema_element *e, int *bits, bool *is_signed) {
  int phys = e->type.value;
  if (phys != CP_PQ_INT32 && phys != CP_PQ_INT64) return false;
  *bits = phys == CP_PQ_INT32 ? 32 : 64;
  *is_signed = true;
  const cp_pq_logical_type *lt = &e->logical_type;
  if (lt->kind == CP_PQ_LT_INTEGER) {
    *bits = lt->integer.bit_width;
    *is_signed = lt->integer.is_signed;
    return *bits == 8 || *bits == 16 || *bits == 32 || *bits == 64;
  }
  if (lt->kind != CP_PQ_LT_NONE) return false;
  if (!e->converted_type.is_set) return true;
  int ct = e->converted_type.value;
  if (ct >= CP_PQ_CT_UINT_8 && ct <= CP_PQ_CT_UINT_64) {
    *bits = 8 << (ct - CP_PQ_CT_UINT_8);
    *is_signed = false;
    return true;
  }
  if (ct >= CP_PQ_CT_INT_8 && ct <= CP_PQ_CT_INT_64) {
    *bits = 8 << (ct - CP_PQ_CT_INT_8);
    return true;
  }
  return false;
}

static bool file_decimal(const cp_pq_schema_element *e, int32_t *precision, int32_t *scale) {
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

/* Unit (1 = MILLIS, 2 = MICROS, 3 = NANOS) of a TIME or TIMESTAMP leaf; 0 if it is not one. */
static int file_time_unit(const cp_pq_schema_element *e, bool timestamp) {
  const cp_pq_logical_type *lt = &e->logical_type;
  if (lt->kind == (timestamp ? CP_PQ_LT_TIMESTAMP : CP_PQ_LT_TIME)) return lt->time.unit;
  if (lt->kind != CP_PQ_LT_NONE || !e->converted_type.is_set) return 0;
  int ct = e->converted_type.value;
  if (timestamp)
    return ct == CP_PQ_CT_TIMESTAMP_MILLIS ? 1 : ct == CP_PQ_CT_TIMESTAMP_MICROS ? 2 : 0;
  return ct == CP_PQ_CT_TIME_MILLIS ? 1 : ct == CP_PQ_CT_TIME_MICROS ? 2 : 0;
}

static int64_t pq_unit_per_second(int u) { return u == 1 ? 1000 : u == 2 ? 1000000 : 1000000000; }

/* mul/div turning values in units-per-second `from` into `to`. */
static void unit_scale(int64_t from, int64_t to, cp_pq_leaf_conv *c) {
  c->mul = to > from ? to / from : 1;
  c->div = from > to ? from / to : 1;
}

static int32_t arrow_width(const cp_arrow_type_info *t) {
  switch (t->id) {
  case CP_ARROW_INT8:
  case CP_ARROW_UINT8: return 1;
  case CP_ARROW_INT16:
  case CP_ARROW_UINT16:
  case CP_ARROW_HALF_FLOAT: return 2;
  case CP_ARROW_INT32:
  case CP_ARROW_UINT32:
  case CP_ARROW_FLOAT:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32: return 4;
  case CP_ARROW_DECIMAL128: return 16;
  case CP_ARROW_FIXED_SIZE_BINARY: return t->byte_width;
  default: return 8;
  }
}

static bool is_integer_target(cp_arrow_type id) { return cp_arrow_type_is_integer(id); }

/* Integer into integer: widening only (narrowing would silently change values). */
static bool resolve_int(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                        cp_pq_leaf_conv *c) {
  int bits;
  bool sgn;
  if (!file_int(e, &bits, &sgn)) return false;
  int phys = e->type.value;
  bool to_signed = cp_arrow_type_is_signed_int(to->id);
  int to_bits = arrow_width(to) * 8;
  if (to_signed ? !(sgn ? bits <= to_bits : bits < to_bits) : (sgn || bits > to_bits)) return false;
  if (phys == CP_PQ_INT64) return to_bits == 64 ? (c->conv = CP_PQ_CONV_COPY, true) : false;
  if (to_bits == 8)
    c->conv = CP_PQ_CONV_I32_TO_I8;
  else if (to_bits == 16)
    c->conv = CP_PQ_CONV_I32_TO_I16;
  else if (to_bits == 32)
    c->conv = CP_PQ_CONV_COPY;
  else
    c->conv = sgn ? CP_PQ_CONV_I32_TO_I64 : CP_PQ_CONV_U32_TO_I64;
  return true;
}

static bool resolve_decimal(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                            cp_pq_leaf_conv *c) {
  int32_t p, s;
  if (!file_decimal(e, &p, &s) || p < 1 || p > 38 || s < 0 || s > p || s > to->scale) return false;
  switch (e->type.value) {
  case CP_PQ_INT32: c->conv = CP_PQ_CONV_I32_TO_DEC; break;
  case CP_PQ_INT64: c->conv = CP_PQ_CONV_I64_TO_DEC; break;
  case CP_PQ_FIXED_LEN_BYTE_ARRAY: c->conv = CP_PQ_CONV_FIXED_TO_DEC; break;
  case CP_PQ_BYTE_ARRAY: c->conv = CP_PQ_CONV_BINARY_TO_DEC; break;
  default: return false;
  }
  c->dec_rescale = to->scale - s;
  /* Values of the file's precision always fit unless the target has fewer integer digits: then
   * check every value (the file's own precision is not re-checked, as pyarrow does not). */
  c->dec_check = p - s > to->precision - to->scale ? to->precision : 0;
  return true;
}

static bool resolve_timestamp(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                              cp_pq_leaf_conv *c) {
  int64_t to_ps = cp_time_unit_per_second(to->unit);
  if (e->type.value == CP_PQ_INT96) {
    c->conv = CP_PQ_CONV_INT96_TO_TS;
    c->unit = to->unit;
    return true;
  }
  int u = file_time_unit(e, true);
  if (e->type.value != CP_PQ_INT64 || u < 1 || u > 3) return false;
  unit_scale(pq_unit_per_second(u), to_ps, c);
  c->conv = c->mul == 1 && c->div == 1 ? CP_PQ_CONV_COPY : CP_PQ_CONV_I64_SCALE;
  return true;
}

static bool resolve_time(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                         cp_pq_leaf_conv *c) {
  int u = file_time_unit(e, false);
  int phys = e->type.value;
  if (u == 0 && e->logical_type.kind == CP_PQ_LT_NONE && !e->converted_type.is_set &&
      phys == CP_PQ_INT32)
    u = 1; /* plain INT32 read as milliseconds of the day (Java IntegerUpdater) */
  if (u < 1 || u > 3 || (phys == CP_PQ_INT32) != (u == 1) ||
      (phys != CP_PQ_INT32 && phys != CP_PQ_INT64))
    return false;
  unit_scale(pq_unit_per_second(u), cp_time_unit_per_second(to->unit), c);
  bool same = c->mul == 1 && c->div == 1;
  if (to->id == CP_ARROW_TIME32)
    c->conv = phys == CP_PQ_INT32 ? (same ? CP_PQ_CONV_COPY : CP_PQ_CONV_I32_SCALE)
                                  : CP_PQ_CONV_I64_TO_I32_SCALE;
  else if (phys == CP_PQ_INT64)
    c->conv = same ? CP_PQ_CONV_COPY : CP_PQ_CONV_I64_SCALE;
  else
    return false;
  return true;
}

static bool is_plain_or_string(const cp_pq_schema_element *e) {
  int32_t p, s;
  return !file_decimal(e, &p, &s);
}

static bool resolve_kind(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                         cp_pq_leaf_conv *c) {
  int phys = e->type.value;
  int32_t p, s;
  switch (to->id) {
  case CP_ARROW_BOOL: return phys == CP_PQ_BOOLEAN;
  case CP_ARROW_FLOAT: return phys == CP_PQ_FLOAT;
  case CP_ARROW_DOUBLE:
    if (phys == CP_PQ_DOUBLE) return true;
    if (phys == CP_PQ_FLOAT) return c->conv = CP_PQ_CONV_F32_TO_F64, true;
    {
      int bits;
      bool sgn;
      if (!file_int(e, &bits, &sgn) || !sgn) return false;
      c->conv = phys == CP_PQ_INT32 ? CP_PQ_CONV_I32_TO_F64 : CP_PQ_CONV_I64_TO_F64;
      return true;
    }
  case CP_ARROW_HALF_FLOAT:
    return phys == CP_PQ_FIXED_LEN_BYTE_ARRAY && e->type_length.value == 2 &&
           e->logical_type.kind == CP_PQ_LT_FLOAT16;
  case CP_ARROW_DECIMAL128: return resolve_decimal(e, to, c);
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY:
    if (phys == CP_PQ_BYTE_ARRAY) return is_plain_or_string(e);
    if (phys == CP_PQ_FIXED_LEN_BYTE_ARRAY && !file_decimal(e, &p, &s))
      return c->conv = CP_PQ_CONV_FIXED_TO_BINARY, true;
    return false;
  case CP_ARROW_FIXED_SIZE_BINARY:
    return phys == CP_PQ_FIXED_LEN_BYTE_ARRAY && e->type_length.value == to->byte_width;
  case CP_ARROW_DATE32:
    if (phys != CP_PQ_INT32) return false;
    return e->logical_type.kind == CP_PQ_LT_DATE ||
           (e->logical_type.kind == CP_PQ_LT_NONE &&
            (!e->converted_type.is_set || e->converted_type.value == CP_PQ_CT_DATE));
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64: return resolve_time(e, to, c);
  case CP_ARROW_TIMESTAMP: return resolve_timestamp(e, to, c);
  default: return is_integer_target(to->id) && resolve_int(e, to, c);
  }
}

int cp_pq_leaf_conv_resolve(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                            const char *column, cp_pq_leaf_conv *c, paimon_error *err) {
  memset(c, 0, sizeof *c);
  c->mul = c->div = 1;
  c->conv = CP_PQ_CONV_COPY;
  int phys = e->type.value;
  c->phys_width = phys == CP_PQ_INT32 || phys == CP_PQ_FLOAT    ? 4
                  : phys == CP_PQ_INT64 || phys == CP_PQ_DOUBLE ? 8
                  : phys == CP_PQ_INT96                         ? 12
                  : phys == CP_PQ_FIXED_LEN_BYTE_ARRAY          ? e->type_length.value
                  : phys == CP_PQ_BOOLEAN                       ? 1
                                                                : 0;
  if (resolve_kind(e, to, c)) {
    if (to->id == CP_ARROW_BOOL) {
      c->out_kind = CP_PQ_OUT_BOOL;
    } else if (cp_arrow_type_is_var_binary(to->id)) {
      c->out_kind = CP_PQ_OUT_BINARY;
    } else {
      c->out_kind = CP_PQ_OUT_FIXED;
      c->out_width = arrow_width(to);
    }
    return PAIMON_OK;
  }
  cp_buf d = CP_BUF_INIT;
  int rc = cp_pq_describe_type(e, &d, err);
  if (rc == 0) rc = cp_buf_nul_terminate(&d, err);
  char fmt[96] = "?";
  if (rc == 0) (void)cp_arrow_format_string(to, fmt, sizeof fmt, NULL);
  if (rc == 0)
    rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "column '%s': cannot read Parquet %s as Arrow %s (%s)", column,
                          (const char *)d.data, cp_arrow_type_name(to->id), fmt);
  cp_buf_free(&d);
  return rc;
}

/* ---- targeted nodes ----------------------------------------------------------------------------
 */

static int mismatch(const cp_pq_schema_node *pq, const cp_type *target, const char *what,
                    paimon_error *err) {
  char *sql = NULL;
  (void)cp_type_to_sql(target, &sql, NULL);
  int rc =
      paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': cannot read Parquet %s as Paimon %s",
                       pq->path_str, what, sql ? sql : cp_type_kind_name(target->kind));
  free(sql);
  return rc;
}

static int alloc_kids(cp_pq_plan *plan, cp_pq_rnode *node, uint32_t n, paimon_error *err) {
  node->num_children = n;
  node->children = n ? cp_arena_calloc(&plan->arena, n * sizeof *node->children) : NULL;
  if (n && !node->children) return CP_ENOMEM(err, "parquet read plan");
  return PAIMON_OK;
}

static int32_t first_leaf_of(const cp_pq_schema_node *n) {
  while (n->num_children > 0) n = n->children[0];
  return n->leaf_index;
}

/* The Parquet child of group `g` matching output field `i` of a ROW / VARIANT target. */
static const cp_pq_schema_node *match_child(const cp_pq_schema_node *g, const cp_type *target,
                                            const struct ArrowSchema *arrow, int64_t i,
                                            bool by_id) {
  bool use_id = by_id && target->kind == CP_TYPE_ROW;
  if (use_id) { /* a group written without field ids (pyarrow's default) is matched by name */
    bool any = false;
    for (uint32_t k = 0; k < g->num_children && !any; k++)
      any = g->children[k]->element->field_id.is_set;
    use_id = any;
  }
  for (uint32_t k = 0; k < g->num_children; k++) {
    const cp_pq_schema_element *e = g->children[k]->element;
    if (use_id ? (e->field_id.is_set && e->field_id.value == target->fields[i].id)
               : strcmp(e->name, arrow->children[i]->name) == 0)
      return g->children[k];
  }
  return NULL;
}

static const cp_type *child_type(const cp_type *target, int64_t i, cp_type **owned,
                                 paimon_error *err) {
  *owned = NULL;
  if (target->kind == CP_TYPE_ROW) return target->fields[i].type;
  /* VARIANT: both children are BYTES NOT NULL (types/type_arrow.h). */
  if (cp_type_new_sized(owned, CP_TYPE_VARBINARY, CP_TYPE_MAX_LENGTH, false, err) != 0) return NULL;
  return *owned;
}

static int targeted_struct(cp_pq_plan *plan, const cp_pq_schema_node *pq, const cp_type *target,
                           const struct ArrowSchema *arrow, bool by_id, cp_pq_rnode *node,
                           paimon_error *err) {
  if (pq->element->type.is_set || cp_pq_node_is_list(pq) || cp_pq_node_is_map(pq))
    return mismatch(pq, target, pq->element->type.is_set ? "primitive" : "LIST/MAP group", err);
  node->kind = CP_PQ_RNODE_STRUCT;
  CP_RETURN_IF_ERROR(alloc_kids(plan, node, (uint32_t)arrow->n_children, err));
  for (int64_t i = 0; i < arrow->n_children; i++) {
    cp_type *owned;
    const cp_type *ct = child_type(target, i, &owned, err);
    if (!ct) return PAIMON_ENOMEM;
    const cp_pq_schema_node *c = match_child(pq, target, arrow, i, by_id);
    cp_pq_rnode *kid = &node->children[i];
    memset(kid, 0, sizeof *kid);
    kid->path = c ? c->path_str : arrow->children[i]->name;
    int rc = cp_pq_plan_targeted(plan, c, node->rep, node->slot_def, false, ct, arrow->children[i],
                                 by_id, kid, err);
    cp_type_free(owned);
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

/* ARRAY / VECTOR targets: a Parquet list (annotated, or an unannotated repeated field). */
static int targeted_list(cp_pq_plan *plan, const cp_pq_schema_node *pq, bool repeated_field,
                         const cp_type *target, const struct ArrowSchema *arrow, bool by_id,
                         cp_pq_rnode *node, paimon_error *err) {
  cp_pq_list_shape shape = {pq, pq, true};
  if (!repeated_field) {
    if (!cp_pq_node_is_list(pq)) return mismatch(pq, target, "non-list node", err);
    CP_RETURN_IF_ERROR(cp_pq_list_shape_of(pq, &shape, err));
  }
  node->kind = CP_PQ_RNODE_LIST;
  CP_RETURN_IF_ERROR(alloc_kids(plan, node, 1, err));
  const cp_pq_schema_node *el = shape.element;
  node->children[0].path = el->path_str;
  return cp_pq_plan_targeted(plan, el, shape.repeated->max_rep, shape.repeated->max_def,
                             shape.two_level, target->element, arrow->children[0], by_id,
                             &node->children[0], err);
}

static int targeted_map(cp_pq_plan *plan, const cp_pq_schema_node *pq, const cp_type *target,
                        const struct ArrowSchema *arrow, bool by_id, cp_pq_rnode *node,
                        paimon_error *err) {
  if (!cp_pq_node_is_map(pq) || pq->num_children != 1 ||
      pq->children[0]->repetition != CP_PQ_REPEATED)
    return mismatch(pq, target, "non-map node", err);
  const cp_pq_schema_node *kv = pq->children[0], *key, *value;
  CP_RETURN_IF_ERROR(cp_pq_map_children(kv, &key, &value, err));
  if (!value) return mismatch(pq, target, "map without values", err);
  node->kind = CP_PQ_RNODE_MAP;
  node->key_nullable_in_file = key->repetition != CP_PQ_REQUIRED;
  CP_RETURN_IF_ERROR(alloc_kids(plan, node, 1, err));
  cp_pq_rnode *entries = &node->children[0];
  entries->kind = CP_PQ_RNODE_STRUCT;
  entries->pq = kv;
  entries->rep = kv->max_rep;
  entries->def = entries->slot_def = kv->max_def;
  entries->leaf = first_leaf_of(kv);
  entries->path = kv->path_str;
  CP_RETURN_IF_ERROR(alloc_kids(plan, entries, 2, err));
  const struct ArrowSchema *es = arrow->children[0];
  cp_type *count = NULL;
  const cp_type *vt = target->value;
  if (target->kind == CP_TYPE_MULTISET) {
    CP_RETURN_IF_ERROR(cp_type_new(&count, CP_TYPE_INT, false, err));
    vt = count;
  }
  const cp_type *kt = target->kind == CP_TYPE_MULTISET ? target->element : target->key;
  entries->children[0].path = key->path_str;
  entries->children[1].path = value->path_str;
  int rc = cp_pq_plan_targeted(plan, key, kv->max_rep, kv->max_def, false, kt, es->children[0],
                               by_id, &entries->children[0], err);
  if (rc == 0)
    rc = cp_pq_plan_targeted(plan, value, kv->max_rep, kv->max_def, false, vt, es->children[1],
                             by_id, &entries->children[1], err);
  cp_type_free(count);
  return rc;
}

static int targeted_leaf(const cp_pq_schema_node *pq, const cp_type *target,
                         const struct ArrowSchema *arrow, cp_pq_rnode *node, paimon_error *err) {
  if (!pq->element->type.is_set) return mismatch(pq, target, "group", err);
  node->kind = CP_PQ_RNODE_LEAF;
  node->leaf = pq->leaf_index;
  CP_RETURN_IF_ERROR(cp_arrow_parse_format(arrow->format, &node->type, err));
  cp_pq_schema_element e = *pq->element; /* newer logical types: by physical type, as natural */
  if (e.logical_type.kind == CP_PQ_LT_OTHER) e.logical_type.kind = CP_PQ_LT_NONE;
  int rc = cp_pq_leaf_conv_resolve(&e, &node->type, pq->path_str, &node->conv, err);
  if (rc == PAIMON_EUNSUPPORTED) {
    char *sql = NULL;
    (void)cp_type_to_sql(target, &sql, NULL);
    paimon_error_prefix(err, "Paimon type %s", sql ? sql : "?");
    free(sql);
  }
  return rc;
}

int cp_pq_plan_targeted(cp_pq_plan *plan, const cp_pq_schema_node *pq, int16_t rep,
                        int16_t slot_def, bool as_element, const cp_type *target,
                        const struct ArrowSchema *arrow, bool by_id, cp_pq_rnode *node,
                        paimon_error *err) {
  const char *path = node->path;
  memset(node, 0, sizeof *node);
  node->path = path ? path : (arrow->name ? arrow->name : "");
  node->rep = rep;
  node->slot_def = slot_def;
  if (!pq) {
    node->kind = CP_PQ_RNODE_ABSENT;
    node->leaf = -1;
    return PAIMON_OK;
  }
  if (pq->depth > CP_PQ_MAX_SCHEMA_DEPTH)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s' is nested too deeply",
                            pq->path_str);
  node->pq = pq;
  node->path = pq->path_str;
  node->def = pq->max_def;
  node->leaf = first_leaf_of(pq);
  bool repeated_field = pq->repetition == CP_PQ_REPEATED && !as_element;
  if (repeated_field) node->def = slot_def;
  switch (target->kind) {
  case CP_TYPE_ROW:
  case CP_TYPE_VARIANT:
    if (repeated_field) return mismatch(pq, target, "repeated field", err);
    return targeted_struct(plan, pq, target, arrow, by_id, node, err);
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
    return targeted_list(plan, pq, repeated_field, target, arrow, by_id, node, err);
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET:
    if (repeated_field) return mismatch(pq, target, "repeated field", err);
    return targeted_map(plan, pq, target, arrow, by_id, node, err);
  default:
    if (repeated_field) return mismatch(pq, target, "repeated field", err);
    return targeted_leaf(pq, target, arrow, node, err);
  }
}
