/*
 * The JSON form of Paimon types and DataFields inside schema files (spec/format.md §2.1 DataField,
 * §2.2 type representation), read with Java's rules plus pypaimon's quirks and written in Java's
 * form. Uses jansson.
 *
 * Reading a type node:
 *   - a JSON string is a type string (type_sql.h): `"INT NOT NULL"`, `"TIMESTAMP_LTZ(6)"`, also
 *     `"VECTOR<FLOAT, 4>"` and the nested SQL text Java itself would reject;
 *   - a JSON object dispatches on the keyword its "type" string starts with (ARRAY, MULTISET, MAP,
 *     ROW, VECTOR; any case) and reads "element" / "key" + "value" / "fields" / "element" +
 *     "length". Nullability: a boolean "nullable" key wins when present (pypaimon writes it);
 *     otherwise only a ` NOT NULL` after the keyword, or after the closing `>` when the "type"
 *     string is full SQL text such as pypaimon's `"MAP<STRING NOT NULL, INT>"` (Java would read
 *     that map as NOT NULL because the text *contains* NOT NULL: a pypaimon bug we do not copy).
 *     An object whose "type" is an atomic type string is read like that string (pypaimon does).
 *   - Field ids: a DataField read by cp_field_from_json / cp_fields_from_json must carry "id"
 *     (Java reads top-level fields that way). Inside cp_type_from_json, ROW fields without ids get
 *     0, 1, 2, ... in document order as Java's parseDataType(json) does; mixing fields with and
 *     without ids is an error.
 *   - "description" / "defaultValue" that are JSON null count as absent (pypaimon's reading).
 *
 * Writing follows Java's serializeJson: atomic types as their asSQLString, complex types as
 * objects with "type" : "ARRAY" | "ARRAY NOT NULL" (etc.) and no "nullable" key; DataField keys in
 * the order id, name, type, description (omitted when NULL), defaultValue (omitted when NULL).
 * jansson keeps insertion order, so dumping the result reproduces Java's key order.
 *
 * Errors (EINVAL) name the field path: "field 'tags' (id 3): type: element: unknown type 'FOO'".
 * Every json_t returned is a new reference owned by the caller (json_decref).
 */
#ifndef CP_TYPES_TYPE_JSON_H
#define CP_TYPES_TYPE_JSON_H

#include <jansson.h>

#include "types/type.h"

/* Reads a type node (string or object). *out is owned by the caller. */
int cp_type_from_json(const json_t *node, cp_type **out, paimon_error *err);

/* Reads one DataField object into *out (zeroed on failure; cp_field_clear releases it). */
int cp_field_from_json(const json_t *obj, cp_field *out, paimon_error *err);

/* Reads a schema file's "fields" array into a nullable ROW (*out owned by the caller), checking
 * that names are unique and that field ids are unique across the whole tree. */
int cp_fields_from_json(const json_t *array, cp_type **out, paimon_error *err);

/* Java's JSON form of a type: a string for atomic types, an object for ARRAY / MAP / MULTISET /
 * ROW / VECTOR. */
int cp_type_to_json(const cp_type *t, json_t **out, paimon_error *err);

/* Java's JSON form of a DataField. */
int cp_field_to_json(const cp_field *f, json_t **out, paimon_error *err);

/* The fields of a ROW as a JSON array of DataField objects (a schema file's "fields"). */
int cp_fields_to_json(const cp_type *row, json_t **out, paimon_error *err);

#endif
