/*
 * Paimon row types -> the Avro schema of a data file, as Java's AvroSchemaConverter builds it
 * (data_file.h lists the mapping).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/avro/data_file.h"

#define TOP_RECORD "org.apache.paimon.avro.generated.record"

static int unsupported_precision(const char *what, int32_t p, const char *limit,
                                 paimon_error *err) {
  return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "Avro does not support %s type with precision: %d, it only supports "
                          "precision less than %s.",
                          what, (int)p, limit);
}

/* Checks one type (recursively) against what Avro data files hold. */
static int check_type(const cp_type *t, paimon_error *err) {
  switch (t->kind) {
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return t->precision > 6 ? unsupported_precision("TIMESTAMP", t->precision, "6", err) : 0;
  case CP_TYPE_TIME:
    return t->precision > 3 ? unsupported_precision("TIME", t->precision, "3", err) : 0;
  case CP_TYPE_VARIANT:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "Unsupported to derive Schema for type: VARIANT (file.format avro)");
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
  case CP_TYPE_MULTISET: return check_type(t->element, err);
  case CP_TYPE_MAP: CP_RETURN_IF_ERROR(check_type(t->key, err)); return check_type(t->value, err);
  case CP_TYPE_ROW:
    for (size_t i = 0; i < t->n_fields; i++) {
      int rc = check_type(t->fields[i].type, err);
      if (rc) {
        paimon_error_prefix(err, "column %s", t->fields[i].name);
        return rc;
      }
    }
    return 0;
  default: return 0;
  }
}

int cp_avro_data_check_row(const cp_type *row, paimon_error *err) { return check_type(row, err); }

static json_t *logical(const char *base, const char *logical_type) {
  return json_pack("{s:s, s:s}", "type", base, "logicalType", logical_type);
}

static json_t *type_json(const cp_type *t, const char *row_name);

static json_t *nullable(const cp_type *t, json_t *inner) {
  if (!inner || !t->nullable) return inner;
  return json_pack("[s, o]", "null", inner);
}

/* A record of `fields` named `name`; nested record names are `name_<field>`. */
static json_t *record_json(const char *name, const cp_field *fields, size_t n) {
  json_t *list = json_array();
  for (size_t i = 0; list && i < n; i++) {
    size_t len = strlen(name) + strlen(fields[i].name) + 2;
    char *child = malloc(len);
    if (!child) {
      json_decref(list);
      return NULL;
    }
    snprintf(child, len, "%s_%s", name, fields[i].name);
    json_t *ft = type_json(fields[i].type, child);
    free(child);
    json_t *f = ft ? json_pack("{s:s, s:o}", "name", fields[i].name, "type", ft) : NULL;
    if (f && fields[i].type->nullable) json_object_set_new(f, "default", json_null());
    if (!f || json_array_append_new(list, f) != 0) {
      json_decref(list);
      return NULL;
    }
  }
  return list ? json_pack("{s:s, s:s, s:o}", "type", "record", "name", name, "fields", list) : NULL;
}

static json_t *map_json(const cp_type *key, const cp_type *value, const char *row_name) {
  if (key->kind == CP_TYPE_CHAR || key->kind == CP_TYPE_VARCHAR) {
    json_t *v = type_json(value, row_name);
    return v ? json_pack("{s:s, s:o}", "type", "map", "values", v) : NULL;
  }
  /* Non-string keys: an array of {key, value} records named after the field. */
  size_t len = strlen(row_name) + 8;
  char *kname = malloc(len), *vname = malloc(len);
  json_t *k = NULL, *v = NULL, *out = NULL;
  if (kname && vname) {
    snprintf(kname, len, "%s_key", row_name);
    snprintf(vname, len, "%s_value", row_name);
    k = type_json(key, kname);
    v = type_json(value, vname);
  }
  json_t *vf = v ? json_pack("{s:s, s:O}", "name", "value", "type", v) : NULL;
  if (vf && value->nullable) json_object_set_new(vf, "default", json_null());
  json_t *rec = k && vf ? json_pack("{s:s, s:s, s:[{s:s, s:O}, o]}", "type", "record", "name",
                                    row_name, "fields", "name", "key", "type", k, vf)
                        : NULL;
  if (!rec) json_decref(vf);
  if (rec) out = json_pack("{s:s, s:o, s:s}", "type", "array", "items", rec, "logicalType", "map");
  json_decref(k);
  json_decref(v);
  free(kname);
  free(vname);
  return out;
}

static json_t *type_json(const cp_type *t, const char *row_name) {
  static cp_type int_not_null = {.kind = CP_TYPE_INT, .nullable = false};
  json_t *j = NULL;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: j = json_string("boolean"); break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT: j = json_string("int"); break;
  case CP_TYPE_BIGINT: j = json_string("long"); break;
  case CP_TYPE_FLOAT: j = json_string("float"); break;
  case CP_TYPE_DOUBLE: j = json_string("double"); break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: j = json_string("string"); break;
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: j = json_string("bytes"); break;
  case CP_TYPE_DATE: j = logical("int", "date"); break;
  case CP_TYPE_TIME: j = logical("int", "time-millis"); break;
  case CP_TYPE_TIMESTAMP:
    j = logical("long", t->precision <= 3 ? "timestamp-millis" : "timestamp-micros");
    break;
  case CP_TYPE_TIMESTAMP_LTZ:
    j = logical("long", t->precision <= 3 ? "local-timestamp-millis" : "local-timestamp-micros");
    break;
  case CP_TYPE_DECIMAL:
    j = json_pack("{s:s, s:s, s:i, s:i}", "type", "bytes", "logicalType", "decimal", "precision",
                  (int)t->precision, "scale", (int)t->scale);
    break;
  case CP_TYPE_ROW: j = record_json(row_name, t->fields, t->n_fields); break;
  case CP_TYPE_MAP: j = map_json(t->key, t->value, row_name); break;
  case CP_TYPE_MULTISET: j = map_json(t->element, &int_not_null, row_name); break;
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR: {
    json_t *items = type_json(t->element, row_name);
    j = items ? json_pack("{s:s, s:o}", "type", "array", "items", items) : NULL;
    break;
  }
  default: return NULL;
  }
  return nullable(t, j);
}

int cp_avro_data_schema_json(const cp_type *row, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(check_type(row, err));
  json_t *j = record_json(TOP_RECORD, row->fields, row->n_fields);
  char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  json_decref(j);
  if (!text) return CP_ENOMEM(err, "Avro schema");
  int rc = cp_buf_append(out, text, strlen(text), err);
  free(text);
  return rc;
}
