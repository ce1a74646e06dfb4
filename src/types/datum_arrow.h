/*
 * cp_datum ⇄ Arrow: reading one value of a Paimon-typed Arrow column as a datum (partition values,
 * predicate evaluation, statistics), and appending a datum to an Arrow builder (literal columns,
 * partition columns filled in on read). The Arrow type must be the one types/type_arrow.h maps the
 * Paimon type to, or a compatible variant (string/large_string, binary/large_binary, any
 * timestamp unit, any integer width for integer kinds).
 */
#ifndef CP_TYPES_DATUM_ARROW_H
#define CP_TYPES_DATUM_ARROW_H

#include "arrow/array.h"
#include "types/datum.h"
#include "types/type.h"

/* Row `i` of `v` as a datum of Paimon type `t`. Variable-length datums point into the array.
 * EINVAL when the Arrow type cannot hold `t`'s values. */
int cp_datum_from_view(const cp_type *t, const cp_array_view *v, int64_t i, cp_datum *out,
                       paimon_error *err);

/* Appends `d` (of Paimon type `t`) to a builder of the matching Arrow type. */
int cp_datum_append(const cp_type *t, const cp_datum *d, cp_builder *b, paimon_error *err);

/* Converts a timestamp number in `unit` to Paimon's (millis, nanos of milli), flooring. */
void cp_timestamp_split(int64_t value, cp_time_unit unit, int64_t *millis, int32_t *nanos);
/* And back; EINVAL on overflow. */
int cp_timestamp_join(int64_t millis, int32_t nanos, cp_time_unit unit, int64_t *out,
                      paimon_error *err);

#endif
