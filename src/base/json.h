/*
 * JSON helpers over jansson for the metadata layer: schema files, snapshot files and hint files
 * are JSON written by Java Paimon through Jackson (spec/format.md §2 schema, §3 snapshot).
 *
 * Reading: cp_json_parse() turns bytes into a jansson tree with an error naming the source (the
 * file path) and jansson's line:column; the typed getters fail with "<source>: key '<k>' missing"
 * or "... not a string / not an integer / ..." so that every metadata parser reports the file and
 * key of a problem without writing the checks itself. Errors from malformed or mistyped JSON are
 * PAIMON_ECORRUPT (the bytes came from storage).
 *
 * Writing: cp_json_write_pretty() prints exactly what Jackson's DefaultPrettyPrinter prints (Java
 * Paimon's format for schema and snapshot files), so files we write diff cleanly against Java's:
 *
 *   {
 *     "id" : 0,
 *     "fields" : [ {
 *       "name" : "f0"
 *     } ],
 *     "partitionKeys" : [ ],
 *     "options" : { }
 *   }
 *
 * Objects indent two spaces per nesting level; arrays stay on one line ("[ 1, 2 ]", "[ ]"), and an
 * object inside an array opens on the array's line; "key" : value has a space on both sides of
 * the colon; no newline at the end. Keys come out in insertion order (jansson keeps it).
 * Integers are exact int64; reals print as Java's Double.toString does ("1.0", "1.0E-5");
 * strings are escaped as Jackson does (", \, and control characters; \u00XX in upper-case hex;
 * everything else, including non-ASCII, is written as is).
 *
 * Ownership: cp_json_parse returns a new reference (json_decref it). Getters return borrowed
 * pointers that live as long as the tree they came from. jansson trees are not thread-safe to
 * modify concurrently; reading one tree from several threads is fine.
 */
#ifndef CP_BASE_JSON_H
#define CP_BASE_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* Parses `len` bytes of JSON text (any value at the top level; duplicate keys keep the last, as
 * Jackson does). `source` names the bytes' origin for messages, e.g. the file path. Malformed
 * input is ECORRUPT: "<source>: invalid JSON at line L, column C: <reason>"; empty input (or white
 * space only) "<source>: the file is empty". */
int cp_json_parse(const void *data, size_t len, const char *source, json_t **out,
                  paimon_error *err);

/* Typed getters on object `obj` (which must be a JSON object; otherwise ECORRUPT "<source>: not
 * an object"). A missing key is ECORRUPT "<source>: key '<key>' missing"; a value of the wrong
 * type is ECORRUPT "<source>: key '<key>' not a string" (or integer, boolean, object, array). */
int cp_json_get_string(const json_t *obj, const char *key, const char *source, const char **out,
                       paimon_error *err);
int cp_json_get_int64(const json_t *obj, const char *key, const char *source, int64_t *out,
                      paimon_error *err);
int cp_json_get_bool(const json_t *obj, const char *key, const char *source, bool *out,
                     paimon_error *err);
int cp_json_get_object(const json_t *obj, const char *key, const char *source, json_t **out,
                       paimon_error *err);
int cp_json_get_array(const json_t *obj, const char *key, const char *source, json_t **out,
                      paimon_error *err);

/* Optional variants: a missing key or a JSON null is not an error (Paimon omits or nulls
 * optional fields); *present (or *out == NULL) says which. A present value of the wrong type is
 * still ECORRUPT. */
int cp_json_get_opt_int64(const json_t *obj, const char *key, const char *source, int64_t *out,
                          bool *present, paimon_error *err);
int cp_json_get_opt_string(const json_t *obj, const char *key, const char *source, const char **out,
                           paimon_error *err);
int cp_json_get_opt_object(const json_t *obj, const char *key, const char *source, json_t **out,
                           paimon_error *err);

/* String-to-string objects (table options, Map<String, String> in Java). `what` names the object
 * in messages ("options"), so a non-string value reads "<source>: options.'<key>' not a string".
 *
 * The callback form calls fn(ctx, key, value, err) per entry in file order, stopping at (and
 * returning) the first non-zero result. The arena form copies every key and value into `arena`
 * and returns an arena-allocated array of *count pairs (all freed with the arena). */
typedef int (*cp_json_string_fn)(void *ctx, const char *key, const char *value, paimon_error *err);
int cp_json_foreach_string(const json_t *map, const char *source, const char *what,
                           cp_json_string_fn fn, void *ctx, paimon_error *err);

typedef struct cp_json_kv {
  const char *key;
  const char *value;
} cp_json_kv;
int cp_json_string_map(const json_t *map, const char *source, const char *what, cp_arena *arena,
                       cp_json_kv **out, size_t *count, paimon_error *err);

/* Appends `v` to `out` in Jackson's pretty-printed form (see the file comment). EINVAL for a
 * value nested deeper than 1000 levels or a real that is not finite. */
int cp_json_write_pretty(const json_t *v, cp_buf *out, paimon_error *err);

/* Appends `v` in Jackson's compact form ({"a":1,"b":[1,2]}), same escaping and numbers. */
int cp_json_write_compact(const json_t *v, cp_buf *out, paimon_error *err);

#endif
