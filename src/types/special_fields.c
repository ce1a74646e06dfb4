/*
 * The row-tracking system fields `_ROW_ID` / `_SEQUENCE_NUMBER` and system-name checks
 * (special_fields.h; spec/data-evolution.md §0, Java SpecialFields).
 */
#include "types/special_fields.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"

bool cp_is_row_tracking_field_name(const char *name) {
  return strcmp(name, CP_ROW_ID_FIELD_NAME) == 0 ||
         strcmp(name, CP_SEQUENCE_NUMBER_FIELD_NAME) == 0;
}

bool cp_is_system_field_name(const char *name) {
  return strncmp(name, CP_KEY_FIELD_PREFIX, strlen(CP_KEY_FIELD_PREFIX)) == 0 ||
         cp_is_row_tracking_field_name(name) || strcmp(name, CP_VALUE_KIND_FIELD_NAME) == 0 ||
         strcmp(name, CP_LEVEL_FIELD_NAME) == 0 || strcmp(name, "rowkind") == 0;
}

static int bigint_field(cp_field *out, int32_t id, const char *name, bool nullable,
                        paimon_error *err) {
  cp_type *t = NULL;
  memset(out, 0, sizeof *out);
  CP_RETURN_IF_ERROR(cp_type_new(&t, CP_TYPE_BIGINT, nullable, err));
  return cp_field_init(out, id, name, t, NULL, NULL, err);
}

int cp_row_id_field(cp_field *out, bool nullable, paimon_error *err) {
  return bigint_field(out, CP_ROW_ID_FIELD_ID, CP_ROW_ID_FIELD_NAME, nullable, err);
}

int cp_sequence_number_field(cp_field *out, bool nullable, paimon_error *err) {
  return bigint_field(out, CP_SEQUENCE_NUMBER_FIELD_ID, CP_SEQUENCE_NUMBER_FIELD_NAME, nullable,
                      err);
}

int cp_row_with_row_tracking(const cp_type *row, bool row_id_nullable, bool seq_nullable,
                             cp_type **out, paimon_error *err) {
  *out = NULL;
  if (!row || row->kind != CP_TYPE_ROW)
    return paimon_error_set(err, PAIMON_EINVAL, "row tracking fields can only extend a ROW");
  for (size_t i = 0; i < row->n_fields; i++)
    if (cp_is_row_tracking_field_name(row->fields[i].name))
      return paimon_error_set(err, PAIMON_EINVAL,
                              "Row tracking field name '%s' conflicts with existing field names.",
                              row->fields[i].name);
  size_t n = row->n_fields + 2;
  cp_field *fields = calloc(n, sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "row tracking fields");
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < row->n_fields; i++)
    rc = cp_field_copy(&fields[i], &row->fields[i], err);
  if (rc == 0) rc = cp_row_id_field(&fields[n - 2], row_id_nullable, err);
  if (rc == 0) rc = cp_sequence_number_field(&fields[n - 1], seq_nullable, err);
  if (rc == 0)
    rc = cp_type_new_row(out, fields, n, row->nullable, err);
  else
    for (size_t i = 0; i < n; i++) cp_field_clear(&fields[i]);
  free(fields);
  return rc;
}
