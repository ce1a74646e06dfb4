/*
 * Where a table's files live (spec/format.md §1): schema/, snapshot/, manifest/, index/, and the
 * bucket directory of each partition, whose name is rendered from the partition values exactly as
 * Java renders it (§1.3: toString of the internal value in legacy mode, `__DEFAULT_PARTITION__`
 * for null or blank values, Java's path escaping). Readers recompute these directories, so the
 * strings must match Java byte for byte.
 */
#ifndef CP_TABLE_PATHS_H
#define CP_TABLE_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "types/datum.h"
#include "types/type.h"

#define CP_DEFAULT_PARTITION_NAME "__DEFAULT_PARTITION__"

/* Appends Java's escapePathName of `s[0..n)`: control characters, 0x7F and each of
 * " # % ' * / : = ? \ { } [ ] ^ become %XX with upper-case hex. */
int cp_path_escape(const char *s, size_t n, cp_buf *out, paimon_error *err);

/* Appends the text of a partition value as Java's legacy partition naming prints it (STRING as
 * is, integers in decimal, BOOLEAN true/false, DATE as the day number, TIMESTAMP as
 * LocalDateTime.toString, DECIMAL as a plain number). `*is_default` is set when the value is NULL,
 * empty or blank, in which case nothing is appended. FLOAT, DOUBLE and binary keys are
 * EUNSUPPORTED. */
int cp_partition_value_text(const cp_type *type, const cp_datum *value, cp_buf *out,
                            bool *is_default, paimon_error *err);

/* Appends "k1=v1/k2=v2/" (escaped, in key order) for the given partition keys and values;
 * nothing for an unpartitioned table. `default_name` replaces null/blank values. */
int cp_partition_path(const char *const *keys, const cp_type *const *types, const cp_datum *values,
                      size_t n, const char *default_name, cp_buf *out, paimon_error *err);

/* Joins table path, partition path (may be empty) and "bucket-<b>" into a malloc'd string. */
char *cp_bucket_dir(const char *table_path, const char *partition_path, int bucket);

#endif
