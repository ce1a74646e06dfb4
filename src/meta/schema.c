/* Table schema files: parse and write (spec/format.md §2.1; Java SchemaSerializer). */
#include "meta/schema.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/status.h"
#include "types/type_json.h"

void cp_table_schema_free(cp_table_schema *s) {
  if (!s) return;
  cp_type_free(s->row);
  for (size_t i = 0; i < s->n_partition_keys; i++) free(s->partition_keys[i]);
  for (size_t i = 0; i < s->n_primary_keys; i++) free(s->primary_keys[i]);
  free(s->partition_keys);
  free(s->primary_keys);
  cp_options_free(&s->options);
  free(s->comment);
  free(s);
}

/* Reads a JSON array of strings naming columns of `row`. */
static int read_key_list(const json_t *obj, const char *key, const char *source, const cp_type *row,
                         char ***out, size_t *n, paimon_error *err) {
  json_t *arr;
  CP_RETURN_IF_ERROR(cp_json_get_array(obj, key, source, &arr, err));
  size_t count = json_array_size(arr);
  *out = count ? calloc(count, sizeof **out) : NULL;
  if (count && !*out) return CP_ENOMEM(err, "schema keys");
  *n = count;
  for (size_t i = 0; i < count; i++) {
    const char *name = json_string_value(json_array_get(arr, i));
    if (!name)
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s[%zu] not a string", source, key, i);
    if (cp_row_field_index(row, name) < 0)
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s names unknown column '%s'", source, key,
                              name);
    if (!((*out)[i] = strdup(name))) return CP_ENOMEM(err, "schema keys");
  }
  return PAIMON_OK;
}

static int add_option(void *ctx, const char *key, const char *value, paimon_error *err) {
  return cp_options_set(ctx, key, value, err);
}

static int parse_object(const json_t *root, const char *source, cp_table_schema *s,
                        paimon_error *err) {
  int64_t v;
  bool present;
  CP_RETURN_IF_ERROR(cp_json_get_opt_int64(root, "version", source, &v, &present, err));
  s->version = present ? (int32_t)v : 1;
  CP_RETURN_IF_ERROR(cp_json_get_int64(root, "id", source, &s->id, err));
  json_t *fields;
  CP_RETURN_IF_ERROR(cp_json_get_array(root, "fields", source, &fields, err));
  if (cp_fields_from_json(fields, &s->row, err) != 0) {
    err->code = PAIMON_ECORRUPT;
    return paimon_error_prefix(err, "%s: fields", source);
  }
  CP_RETURN_IF_ERROR(cp_json_get_opt_int64(root, "highestFieldId", source, &v, &present, err));
  s->highest_field_id = present ? (int32_t)v : cp_type_max_field_id(s->row);
  CP_RETURN_IF_ERROR(read_key_list(root, "partitionKeys", source, s->row, &s->partition_keys,
                                   &s->n_partition_keys, err));
  CP_RETURN_IF_ERROR(read_key_list(root, "primaryKeys", source, s->row, &s->primary_keys,
                                   &s->n_primary_keys, err));
  json_t *opts;
  CP_RETURN_IF_ERROR(cp_json_get_object(root, "options", source, &opts, err));
  CP_RETURN_IF_ERROR(cp_json_foreach_string(opts, source, "options", add_option, &s->options, err));
  const char *comment;
  CP_RETURN_IF_ERROR(cp_json_get_opt_string(root, "comment", source, &comment, err));
  if (comment && !(s->comment = strdup(comment))) return CP_ENOMEM(err, "schema comment");
  CP_RETURN_IF_ERROR(cp_json_get_opt_int64(root, "timeMillis", source, &v, &present, err));
  s->time_millis = present ? v : 0;
  /* Defaults of older schema versions (Java SchemaSerializer.deserialize). */
  if (s->version <= 1 && !cp_options_get(&s->options, CP_OPT_BUCKET))
    CP_RETURN_IF_ERROR(cp_options_set(&s->options, CP_OPT_BUCKET, "1", err));
  if (s->version <= 2 && !cp_options_get(&s->options, CP_OPT_FILE_FORMAT))
    CP_RETURN_IF_ERROR(cp_options_set(&s->options, CP_OPT_FILE_FORMAT, "orc", err));
  return PAIMON_OK;
}

int cp_table_schema_parse(const void *data, size_t len, const char *source, cp_table_schema **out,
                          paimon_error *err) {
  json_t *root;
  CP_RETURN_IF_ERROR(cp_json_parse(data, len, source, &root, err));
  cp_table_schema *s = calloc(1, sizeof *s);
  if (!s) {
    json_decref(root);
    return CP_ENOMEM(err, "schema");
  }
  int rc = parse_object(root, source, s, err);
  json_decref(root);
  if (rc) {
    cp_table_schema_free(s);
    return rc;
  }
  *out = s;
  return PAIMON_OK;
}

static json_t *string_array(char *const *items, size_t n) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && i < n; i++)
    if (json_array_append_new(arr, json_string(items[i])) != 0) {
      json_decref(arr);
      return NULL;
    }
  return arr;
}

int cp_table_schema_write(const cp_table_schema *s, cp_buf *out, paimon_error *err) {
  json_t *root = json_object(), *fields = NULL, *opts = json_object();
  int rc = PAIMON_OK;
  if (!root || !opts) {
    rc = CP_ENOMEM(err, "schema JSON");
    goto done;
  }
  CP_GOTO_IF_ERROR(rc, cp_fields_to_json(s->row, &fields, err), done);
  for (size_t i = 0; i < s->options.n; i++)
    json_object_set_new(opts, s->options.keys[i], json_string(s->options.values[i]));
  json_object_set_new(root, "version", json_integer(CP_SCHEMA_VERSION));
  json_object_set_new(root, "id", json_integer(s->id));
  json_object_set_new(root, "fields", fields);
  fields = NULL;
  json_object_set_new(root, "highestFieldId", json_integer(s->highest_field_id));
  json_object_set_new(root, "partitionKeys", string_array(s->partition_keys, s->n_partition_keys));
  json_object_set_new(root, "primaryKeys", string_array(s->primary_keys, s->n_primary_keys));
  json_object_set_new(root, "options", opts);
  opts = NULL;
  if (s->comment) json_object_set_new(root, "comment", json_string(s->comment));
  json_object_set_new(root, "timeMillis", json_integer(s->time_millis));
  rc = cp_json_write_pretty(root, out, err);
done:
  json_decref(fields);
  json_decref(opts);
  json_decref(root);
  return rc;
}

static char **copy_strings(char *const *src, size_t n, bool *ok) {
  if (!n) return NULL;
  char **dst = calloc(n, sizeof *dst);
  if (!dst) {
    *ok = false;
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    if (!(dst[i] = strdup(src[i]))) *ok = false;
  return dst;
}

int cp_table_schema_copy(cp_table_schema **out, const cp_table_schema *s, paimon_error *err) {
  cp_table_schema *c = calloc(1, sizeof *c);
  if (!c) return CP_ENOMEM(err, "schema");
  *c = *s;
  c->row = NULL;
  c->options = (cp_options)CP_OPTIONS_INIT;
  c->comment = NULL;
  bool ok = true;
  c->partition_keys = copy_strings(s->partition_keys, s->n_partition_keys, &ok);
  c->primary_keys = copy_strings(s->primary_keys, s->n_primary_keys, &ok);
  int rc = ok ? PAIMON_OK : CP_ENOMEM(err, "schema");
  if (!rc) rc = cp_type_copy(&c->row, s->row, err);
  if (!rc) rc = cp_options_copy(&c->options, &s->options, err);
  if (!rc && s->comment && !(c->comment = strdup(s->comment))) rc = CP_ENOMEM(err, "schema");
  if (rc) {
    cp_table_schema_free(c);
    return rc;
  }
  *out = c;
  return PAIMON_OK;
}

size_t cp_table_schema_partition_index(const cp_table_schema *s, size_t i) {
  return (size_t)cp_row_field_index(s->row, s->partition_keys[i]);
}
