/*
 * Paimon type strings: parsing every atomic type string Java and pypaimon write or accept
 * (spec/format.md §2.2 table) plus the SQL text of nested types (`ARRAY<FLOAT>`,
 * `MAP<STRING, INT>`, `ROW<a INT, b STRING>`, `MULTISET<STRING>`, `VECTOR<FLOAT, 4>`) that the SQL
 * front end and pypaimon's AtomicType use; and printing in Java's DataType.asSQLString form.
 *
 * Accepted grammar (keywords ASCII case-insensitive, any whitespace between tokens):
 *
 *   type     := base null? (("ARRAY" | "MULTISET") null?)*      -- "INT ARRAY" suffix notation
 *   null     := "NOT" "NULL" | "NULL"
 *   base     := BOOLEAN | TINYINT | SMALLINT | INT | INTEGER | BIGINT | FLOAT
 *             | DOUBLE [PRECISION] | CHAR[(n)] | VARCHAR[(n)] | STRING | BINARY[(n)]
 *             | VARBINARY[(n)] | BYTES | (DECIMAL | NUMERIC | DEC)[(p[, s])] | DATE
 *             | TIME[(p)] [WITHOUT TIME ZONE]
 *             | TIMESTAMP[(p)] [WITHOUT TIME ZONE | WITH LOCAL TIME ZONE] | TIMESTAMP_LTZ[(p)]
 *             | VARIANT | BLOB | ARRAY<type> | MULTISET<type> | MAP<type, type>
 *             | VECTOR<type, n> | ROW<field, ...> | ROW<> | ROW(field, ...)
 *   field    := name [":"] type [COMMENT 'text']       -- name: a word or a `quoted` identifier
 *
 * Defaults are Java's: CHAR/VARCHAR/BINARY/VARBINARY without a length have length 1 (so a bare
 * `VARCHAR` is VARCHAR(1), not STRING), DECIMAL is DECIMAL(10, 0), TIME is TIME(0), TIMESTAMP and
 * TIMESTAMP_LTZ have precision 6. Fields of a ROW parsed from text get ids 0, 1, 2, ... in the
 * order they appear (a field before the fields nested in it, like Java's parser for JSON without
 * ids); callers building a schema reassign them.
 *
 * Errors (EINVAL; EUNSUPPORTED for INTERVAL/RAW/GEOMETRY/GEOGRAPHY) quote the input and give the
 * 0-based byte offset of the offending token, e.g. "type 'DECIMAL(5' at offset 9: expected ')'".
 */
#ifndef CP_TYPES_TYPE_SQL_H
#define CP_TYPES_TYPE_SQL_H

#include <stddef.h>

#include "base/buf.h"
#include "types/type.h"

/* Parses the NUL-terminated `text`; *out (owned by the caller) is NULL on failure. */
int cp_type_parse(const char *text, cp_type **out, paimon_error *err);

/* Parses `len` bytes of `text` (which need not be NUL-terminated; a NUL byte is an error). */
int cp_type_parse_n(const char *text, size_t len, cp_type **out, paimon_error *err);

/* Appends Java's asSQLString of `t` to `out` (not NUL-terminated): `INT NOT NULL`, `STRING`,
 * `BYTES`, `DECIMAL(38, 18)`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `ARRAY<INT NOT NULL>`,
 * `MAP<STRING, INT>`, ``ROW<`a` INT, `b` STRING COMMENT 'x'>``, `VECTOR<FLOAT, 4> NOT NULL`. */
int cp_type_append_sql(const cp_type *t, cp_buf *out, paimon_error *err);

/* The same as a malloc'd NUL-terminated string in *out (the caller frees it with free()). */
int cp_type_to_sql(const cp_type *t, char **out, paimon_error *err);

/* Appends Java's DataField.asSQLString: `` `name` TYPE[ COMMENT 'desc'][ DEFAULT value] `` (the
 * name in backticks with ` doubled, the description with ' doubled, the default value verbatim). */
int cp_field_append_sql(const cp_field *f, cp_buf *out, paimon_error *err);

#endif
