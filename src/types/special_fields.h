/*
 * Paimon's special (system) fields: the hidden row-tracking columns `_ROW_ID` and
 * `_SEQUENCE_NUMBER` that scans project (spec/data-evolution.md §0) and the reserved field-id
 * ranges (spec/format.md §2.1; Java org.apache.paimon.table.SpecialFields, pypaimon
 * table/special_fields.py).
 *
 * Nullability: users always read both columns as BIGINT NOT NULL (spec/data-evolution.md §0;
 * pypaimon declares both NOT NULL). Java's SpecialFields.ROW_ID constant itself is nullable BIGINT
 * because a data file may physically hold NULL row ids that the reader fills in, and
 * rowTypeWithRowTracking() takes the nullability of each column as a parameter; so do the helpers
 * below.
 */
#ifndef CP_TYPES_SPECIAL_FIELDS_H
#define CP_TYPES_SPECIAL_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#include "types/type.h"

/* Field ids at or above this are system fields (Integer.MAX_VALUE / 2); user ids stay below. */
#define CP_SYSTEM_FIELD_ID_START 1073741823
/* Primary-key copies `_KEY_<name>` have id CP_KEY_FIELD_ID_START + the key field's id. */
#define CP_KEY_FIELD_ID_START CP_SYSTEM_FIELD_ID_START
#define CP_KEY_FIELD_PREFIX "_KEY_"

#define CP_SEQUENCE_NUMBER_FIELD_ID 2147483646 /* Integer.MAX_VALUE - 1 */
#define CP_VALUE_KIND_FIELD_ID 2147483645      /* Integer.MAX_VALUE - 2, TINYINT NOT NULL */
#define CP_LEVEL_FIELD_ID 2147483644           /* Integer.MAX_VALUE - 3, INT NOT NULL */
#define CP_ROW_ID_FIELD_ID 2147483642          /* Integer.MAX_VALUE - 5 */

#define CP_SEQUENCE_NUMBER_FIELD_NAME "_SEQUENCE_NUMBER"
#define CP_VALUE_KIND_FIELD_NAME "_VALUE_KIND"
#define CP_LEVEL_FIELD_NAME "_LEVEL"
#define CP_ROW_ID_FIELD_NAME "_ROW_ID"

/* True for ids reserved to system fields (Java SpecialFields.isSystemField(int)). */
static inline bool cp_is_system_field_id(int32_t id) { return id >= CP_SYSTEM_FIELD_ID_START; }

/* True for `_ROW_ID` and `_SEQUENCE_NUMBER` (exact case, as Java and pypaimon compare). */
bool cp_is_row_tracking_field_name(const char *name);

/* True for the names Java treats as system fields: `_SEQUENCE_NUMBER`, `_VALUE_KIND`, `_LEVEL`,
 * `rowkind`, `_ROW_ID`, and any name starting with `_KEY_` (SpecialFields.isSystemField(String)).
 */
bool cp_is_system_field_name(const char *name);

/* Fills `out` with the `_ROW_ID` field (id 2147483642, BIGINT, NOT NULL unless `nullable`).
 * `out` owns its contents afterwards (cp_field_clear). */
int cp_row_id_field(cp_field *out, bool nullable, paimon_error *err);

/* Fills `out` with the `_SEQUENCE_NUMBER` field (id 2147483646, BIGINT, NOT NULL unless
 * `nullable`). */
int cp_sequence_number_field(cp_field *out, bool nullable, paimon_error *err);

/* A new ROW (owned by the caller) holding copies of `row`'s fields followed by `_ROW_ID` and
 * `_SEQUENCE_NUMBER` (Java SpecialFields.rowTypeWithRowTracking). Fails with EINVAL when `row`
 * already has a field of either name: "Row tracking field name '_ROW_ID' conflicts with existing
 * field names." */
int cp_row_with_row_tracking(const cp_type *row, bool row_id_nullable, bool seq_nullable,
                             cp_type **out, paimon_error *err);

#endif
