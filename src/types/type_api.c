/*
 * The public type conversions (include/cpaimon/types.h): thin wrappers over the SQL parser and
 * printer (type_sql), the schema-file JSON reader and writer (type_json) and the Arrow mapping
 * (type_arrow), so that bindings and engines need no internal header.
 */
#include "cpaimon/types.h"

#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/status.h"
#include "types/type_arrow.h"
#include "types/type_json.h"
#include "types/type_sql.h"

/* Writes `j` (consumed) as compact JSON text. */
static int dump(json_t *j, char **out, paimon_error *err) {
  *out = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
  json_decref(j);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "type JSON");
}

int paimon_type_normalize(const char *sql, char **out, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(sql ? sql : "", &t, err));
  int rc = cp_type_to_sql(t, out, err);
  cp_type_free(t);
  return rc;
}

int paimon_type_sql_to_json(const char *sql, char **json, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(sql ? sql : "", &t, err));
  json_t *j = NULL;
  int rc = cp_type_to_json(t, &j, err);
  cp_type_free(t);
  return rc ? rc : dump(j, json, err);
}

int paimon_type_json_to_sql(const char *json, char **sql, paimon_error *err) {
  json_t *j = NULL;
  const char *text = json ? json : "";
  CP_RETURN_IF_ERROR(cp_json_parse(text, strlen(text), "type", &j, err));
  cp_type *t = NULL;
  int rc = cp_type_from_json(j, &t, err);
  json_decref(j);
  if (!rc) rc = cp_type_to_sql(t, sql, err);
  cp_type_free(t);
  return rc;
}

int paimon_type_to_arrow(const char *sql, const char *name, struct ArrowSchema *out,
                         paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(sql ? sql : "", &t, err));
  int rc = cp_type_to_arrow(t, name, out, err);
  cp_type_free(t);
  return rc;
}

int paimon_type_from_arrow(const struct ArrowSchema *field, char **json, paimon_error *err) {
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_from_arrow(field, &t, err));
  json_t *j = NULL;
  int rc = cp_type_to_json(t, &j, err);
  cp_type_free(t);
  return rc ? rc : dump(j, json, err);
}

int paimon_arrow_schema_to_fields_json(const struct ArrowSchema *schema, char **json,
                                       paimon_error *err) {
  cp_type *row = NULL;
  CP_RETURN_IF_ERROR(cp_row_from_arrow_schema(schema, &row, err));
  json_t *j = NULL;
  int rc = cp_fields_to_json(row, &j, err);
  cp_type_free(row);
  return rc ? rc : dump(j, json, err);
}
