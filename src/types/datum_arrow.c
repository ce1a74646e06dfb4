/* cp_datum ⇄ Arrow values (datum_arrow.h). */
#include "types/datum_arrow.h"

#include "base/status.h"

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void cp_timestamp_split(int64_t value, cp_time_unit unit, int64_t *millis, int32_t *nanos) {
  switch (unit) {
  case CP_UNIT_SECOND:
    *millis = value * 1000;
    *nanos = 0;
    return;
  case CP_UNIT_MILLI:
    *millis = value;
    *nanos = 0;
    return;
  case CP_UNIT_MICRO:
    *millis = floor_div(value, 1000);
    *nanos = (int32_t)((value - *millis * 1000) * 1000);
    return;
  case CP_UNIT_NANO:
    *millis = floor_div(value, 1000000);
    *nanos = (int32_t)(value - *millis * 1000000);
    return;
  }
}

int cp_timestamp_join(int64_t millis, int32_t nanos, cp_time_unit unit, int64_t *out,
                      paimon_error *err) {
  int64_t r;
  bool overflow = false;
  switch (unit) {
  case CP_UNIT_SECOND: r = floor_div(millis, 1000); break;
  case CP_UNIT_MILLI: r = millis; break;
  case CP_UNIT_MICRO:
    overflow =
        __builtin_mul_overflow(millis, 1000, &r) || __builtin_add_overflow(r, nanos / 1000, &r);
    break;
  default:
    overflow = __builtin_mul_overflow(millis, 1000000, &r) || __builtin_add_overflow(r, nanos, &r);
  }
  if (overflow)
    return paimon_error_set(err, PAIMON_EINVAL, "timestamp %lld ms is out of range for the unit",
                            (long long)millis);
  *out = r;
  return PAIMON_OK;
}

static int mismatch(const cp_type *t, const cp_array_view *v, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "column '%s': Arrow type %s cannot hold %s values",
                          v->name, cp_arrow_type_name(v->type.id), cp_type_kind_name(t->kind));
}

int cp_datum_from_view(const cp_type *t, const cp_array_view *v, int64_t i, cp_datum *out,
                       paimon_error *err) {
  if (cp_view_is_null(v, i)) {
    *out = cp_datum_null();
    return PAIMON_OK;
  }
  out->is_null = false;
  cp_arrow_type id = v->type.id;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN:
    if (id != CP_ARROW_BOOL) return mismatch(t, v, err);
    out->v.b = cp_view_get_bool(v, i);
    return PAIMON_OK;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME:
    if (!cp_arrow_type_is_integer(id) && id != CP_ARROW_DATE32 && id != CP_ARROW_TIME32 &&
        id != CP_ARROW_TIME64)
      return mismatch(t, v, err);
    out->v.i64 = cp_view_get_int64(v, i);
    if (t->kind == CP_TYPE_TIME && id == CP_ARROW_TIME64)
      out->v.i64 /= v->type.unit == CP_UNIT_NANO ? 1000000 : 1000;
    else if (t->kind == CP_TYPE_TIME && id == CP_ARROW_TIME32 && v->type.unit == CP_UNIT_SECOND)
      out->v.i64 *= 1000;
    return PAIMON_OK;
  case CP_TYPE_FLOAT:
    if (id == CP_ARROW_FLOAT)
      out->v.f32 = v->values.f32[v->offset + i];
    else
      return mismatch(t, v, err);
    return PAIMON_OK;
  case CP_TYPE_DOUBLE:
    if (!cp_arrow_type_is_floating(id)) return mismatch(t, v, err);
    out->v.f64 = cp_view_get_double(v, i);
    return PAIMON_OK;
  case CP_TYPE_DECIMAL: {
    if (id != CP_ARROW_DECIMAL128) return mismatch(t, v, err);
    cp_dec128 d = cp_view_get_decimal128(v, i);
    out->v.dec = (cp_int128)(((unsigned __int128)(uint64_t)d.hi << 64) | d.lo);
    return PAIMON_OK;
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    if (id != CP_ARROW_TIMESTAMP) return mismatch(t, v, err);
    cp_timestamp_split(cp_view_get_int64(v, i), v->type.unit, &out->v.ts.millis,
                       &out->v.ts.nanos_of_milli);
    return PAIMON_OK;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: {
    if (!cp_arrow_type_is_var_binary(id) && id != CP_ARROW_FIXED_SIZE_BINARY)
      return mismatch(t, v, err);
    int64_t len;
    out->v.bytes.data = cp_view_get_bytes(v, i, &len);
    out->v.bytes.len = (size_t)len;
    return PAIMON_OK;
  }
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "column '%s': %s values are not scalars",
                            v->name, cp_type_kind_name(t->kind));
  }
}

int cp_datum_append(const cp_type *t, const cp_datum *d, cp_builder *b, paimon_error *err) {
  if (d->is_null) return cp_builder_append_null(b, err);
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return cp_builder_append_bool(b, d->v.b, err);
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: return cp_builder_append_int64(b, d->v.i64, err);
  case CP_TYPE_FLOAT: return cp_builder_append_double(b, d->v.f32, err);
  case CP_TYPE_DOUBLE: return cp_builder_append_double(b, d->v.f64, err);
  case CP_TYPE_DECIMAL: {
    cp_dec128 v;
    v.lo = (uint64_t)(unsigned __int128)d->v.dec;
    v.hi = (int64_t)((unsigned __int128)d->v.dec >> 64);
    return cp_builder_append_decimal128(b, v, err);
  }
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    int64_t raw;
    CP_RETURN_IF_ERROR(cp_timestamp_join(d->v.ts.millis, d->v.ts.nanos_of_milli,
                                         cp_builder_type(b)->unit, &raw, err));
    return cp_builder_append_int64(b, raw, err);
  }
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB:
    return cp_builder_append_bytes(b, d->v.bytes.data, (int64_t)d->v.bytes.len, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "cannot append a %s datum",
                            cp_type_kind_name(t->kind));
  }
}
