/*
 * Store assignment: converting the values of INSERT, UPDATE SET and MERGE clauses to the types of
 * the columns they are written to, with Spark's default policy (spark.sql.storeAssignmentPolicy =
 * ANSI; Cast.canANSIStoreAssign): numbers to any numeric type, any atomic value to a string type,
 * dates and timestamps to each other, binaries to binaries, strings parsed into numbers, BOOLEAN,
 * dates and timestamps (what Spark with the Paimon connector stores), nested types when their parts
 * are assignable; anything else ('abc' into an INT column) is refused before writing, naming the
 * column. A value that does not fit its column (300 into TINYINT, 1e20 into BIGINT, a decimal with
 * too many digits) fails the statement at run time, as Spark's CAST_OVERFLOW_IN_TABLE_INSERT does,
 * instead of wrapping as a non-ANSI CAST would.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static bool is_temporal_point(const cp_type *t) {
  return t->kind == CP_TYPE_DATE || t->kind == CP_TYPE_TIMESTAMP ||
         t->kind == CP_TYPE_TIMESTAMP_LTZ;
}

static bool is_bytes(const cp_type *t) { return cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB; }

static bool assignable_at(const cp_type *from, const cp_type *to, bool top) {
  if (from->kind == to->kind && !cp_type_is_nested(from)) return true;
  if (cp_type_is_numeric(from) && cp_type_is_numeric(to)) return true;
  if (cp_type_is_string(to) && !cp_type_is_nested(from) && from->kind != CP_TYPE_VARIANT)
    return true;
  if (is_temporal_point(from) && is_temporal_point(to)) return true;
  if (is_bytes(from) && is_bytes(to)) return true;
  /* A string into a number, BOOLEAN, DATE or TIMESTAMP column is parsed, as Spark with the Paimon
   * connector stores '7' into INT; one that does not parse fails the statement. */
  if (top && cp_type_is_string(from) &&
      (cp_type_is_numeric(to) || to->kind == CP_TYPE_BOOLEAN || is_temporal_point(to)))
    return true;
  switch (to->kind) {
  case CP_TYPE_ARRAY:
  case CP_TYPE_MULTISET:
  case CP_TYPE_VECTOR:
    return (from->kind == CP_TYPE_ARRAY || from->kind == to->kind) && from->element &&
           assignable_at(from->element, to->element, false);
  case CP_TYPE_MAP:
    return from->kind == CP_TYPE_MAP && assignable_at(from->key, to->key, false) &&
           assignable_at(from->value, to->value, false);
  case CP_TYPE_ROW:
    if (from->kind != CP_TYPE_ROW || from->n_fields != to->n_fields) return false;
    for (size_t i = 0; i < to->n_fields; i++)
      if (!assignable_at(from->fields[i].type, to->fields[i].type, false)) return false;
    return true;
  default: return false;
  }
}

static bool assignable(const cp_type *from, const cp_type *to) {
  return assignable_at(from, to, true);
}

static void type_name(const cp_type *t, char *buf, size_t size) { cp_sql_type_name(t, buf, size); }

int cp_sql_assign_check(const cp_type *from, const cp_type *to, const char *table,
                        const char *column, cp_sql_pos pos, paimon_error *err) {
  if (assignable(from, to)) return PAIMON_OK;
  char a[128], b[128];
  type_name(from, a, sizeof a);
  type_name(to, b, sizeof b);
  return cp_sql_error_at(err, PAIMON_EINVAL, pos,
                         "Cannot write incompatible data to table '%s': Cannot safely cast '%s': "
                         "%s to %s",
                         table, column, a, b);
}

/* ---- run-time conversion -------------------------------------------------------------------- */

static cp_int128 pow10i(int n) {
  cp_int128 p = 1;
  for (int i = 0; i < n; i++) p *= 10;
  return p;
}

/* Whether the non-NULL value `d` of type `from` is within the range of integer type `to`. */
static bool fits_integer(const cp_type *from, const cp_datum *d, const cp_type *to) {
  static const int64_t lo[] = {INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN};
  static const int64_t hi[] = {INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX};
  int k = to->kind == CP_TYPE_TINYINT    ? 0
          : to->kind == CP_TYPE_SMALLINT ? 1
          : to->kind == CP_TYPE_INT      ? 2
                                         : 3;
  if (cp_type_is_integer(from)) return d->v.i64 >= lo[k] && d->v.i64 <= hi[k];
  if (from->kind == CP_TYPE_FLOAT || from->kind == CP_TYPE_DOUBLE) {
    double v = from->kind == CP_TYPE_FLOAT ? d->v.f32 : d->v.f64;
    if (!isfinite(v)) return false;
    v = trunc(v);
    /* 2^63 is exactly representable; INT64_MAX is not. */
    return v >= (double)lo[k] && (k == 3 ? v < 9223372036854775808.0 : v <= (double)hi[k]);
  }
  if (from->kind == CP_TYPE_DECIMAL) {
    cp_int128 v = d->v.dec / pow10i(from->scale);
    return v >= lo[k] && v <= hi[k];
  }
  return true;
}

/* Fails on the first row whose value did not survive the conversion. */
static int check_rows(const cp_type *from, const cp_array_view *src, const cp_type *to,
                      const cp_array_view *dst, const char *column, paimon_error *err) {
  bool int_target = cp_type_is_integer(to) && cp_type_is_numeric(from);
  for (int64_t i = 0; i < src->length; i++) {
    if (cp_view_is_null(src, i)) continue;
    bool ok = !cp_view_is_null(dst, i);
    if (ok && int_target) {
      cp_datum d;
      CP_RETURN_IF_ERROR(cp_datum_from_view(from, src, i, &d, err));
      ok = fits_integer(from, &d, to);
    }
    if (ok) continue;
    char a[128], b[128];
    type_name(from, a, sizeof a);
    type_name(to, b, sizeof b);
    if (cp_type_is_string(from)) {
      cp_datum d;
      CP_RETURN_IF_ERROR(cp_datum_from_view(from, src, i, &d, err));
      return paimon_error_set(err, PAIMON_EINVAL,
                              "[CAST_INVALID_INPUT] The value '%.*s' of the type \"STRING\" "
                              "cannot be cast to \"%s\" because it is malformed (column '%s')",
                              (int)(d.v.bytes.len > 200 ? 200 : d.v.bytes.len),
                              (const char *)d.v.bytes.data, b, column);
    }
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Fail to assign a value of %s type to the %s type column '%s' due to "
                            "an overflow",
                            a, b, column);
  }
  return PAIMON_OK;
}

/* CAST(value AS to) evaluated over the one-column relation holding the values. */
static int cast_values(const cp_type *from, const struct ArrowSchema *schema,
                       const struct ArrowArray *array, const cp_type *to, const char *column,
                       struct ArrowSchema *out_schema, struct ArrowArray *out, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  struct ArrowSchema s;
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  CP_RETURN_IF_ERROR(cp_schema_copy(&s, schema, err));
  int rc = cp_array_share((struct ArrowArray *)array, &a, err);
  if (rc) cp_schema_release(&s);
  if (!rc) rc = cp_rel_builder_add(&b, "v", NULL, from, false, &s, &a, err);
  cp_rel in;
  memset(&in, 0, sizeof in);
  if (!rc)
    rc = cp_rel_builder_finish(&b, array->length, &in, err);
  else
    cp_rel_builder_free(&b);
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  cp_expr *col = NULL, *cast = NULL, *bound = NULL;
  cp_type *target = NULL;
  /* NOT NULL is the writer's to enforce, with Paimon's message. */
  if (!rc) rc = cp_type_copy_nullable(&target, to, true, err);
  if (!rc) rc = cp_sql_scope_init(&scope, in.cols, in.n_cols, "SET", err);
  if (!rc) rc = cp_expr_column(&col, scope.bind_names[0], err);
  if (!rc) rc = cp_expr_cast(&cast, col, target, err);
  if (!rc) rc = cp_expr_bind(cast, scope.row, false, &bound, err);
  if (!rc) rc = cp_sql_eval(&in, bound, column, out_schema, out, err);
  cp_array_view sv, dv;
  memset(&sv, 0, sizeof sv);
  memset(&dv, 0, sizeof dv);
  if (!rc) rc = cp_array_view_init(&sv, schema, array, err);
  if (!rc) rc = cp_array_view_init(&dv, out_schema, out, err);
  if (!rc) rc = check_rows(from, &sv, to, &dv, column, err);
  if (rc && out->release) {
    cp_array_release(out);
    cp_schema_release(out_schema);
  }
  cp_array_view_reset(&sv);
  cp_array_view_reset(&dv);
  cp_expr_free(cast);
  cp_expr_free(bound);
  cp_type_free(target);
  cp_sql_scope_free(&scope);
  cp_rel_free(&in);
  return rc;
}

int cp_sql_bind_assigned(const cp_sql_scope *scope, const cp_sql_expr *value, const cp_type *to,
                         cp_expr **out, paimon_error *err) {
  if (!(value->kind == CP_SQL_E_LITERAL && value->lit.kind == CP_SQL_LIT_NULL) ||
      cp_type_is_nested(to) || to->kind == CP_TYPE_VARIANT)
    return cp_sql_bind(scope, value, out, err);
  cp_expr *lit = NULL;
  cp_datum null = cp_datum_null();
  CP_RETURN_IF_ERROR(cp_expr_literal(&lit, to, &null, err));
  int rc = cp_expr_bind(lit, scope->row, false, out, err);
  cp_expr_free(lit);
  return rc;
}

int cp_sql_assign_array(const cp_type *from, const struct ArrowSchema *schema,
                        const struct ArrowArray *array, const cp_type *to, const char *column,
                        struct ArrowSchema *out_schema, struct ArrowArray *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  unsigned same =
      CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS | CP_TYPE_EQ_IGNORE_FIELD_DOCS;
  if (cp_type_equals(from, to, same) || cp_type_is_nested(to) || to->kind == CP_TYPE_VARIANT) {
    /* Same values, or nested values the writer converts (arrow/ops.h cp_cast): shared as they
     * are, named after the column. */
    struct ArrowSchema want;
    CP_RETURN_IF_ERROR(cp_type_to_arrow(to, column, &want, err));
    bool ok =
        cp_schema_equal(schema, &want, CP_SCHEMA_CMP_TYPES) || cp_cast_supported(schema, &want);
    cp_schema_release(&want);
    if (!ok) {
      char a[128], b[128];
      type_name(from, a, sizeof a);
      type_name(to, b, sizeof b);
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "column '%s': converting %s values to %s is not supported", column, a,
                              b);
    }
    CP_RETURN_IF_ERROR(cp_schema_copy(out_schema, schema, err));
    int rc = cp_schema_set_name(out_schema, column, err);
    if (!rc) rc = cp_array_share((struct ArrowArray *)array, out, err);
    if (rc) cp_schema_release(out_schema);
    return rc;
  }
  CP_RETURN_IF_ERROR(cast_values(from, schema, array, to, column, out_schema, out, err));
  int rc = cp_sql_char_write(to, column, out_schema, out, err);
  if (rc) {
    cp_array_release(out);
    cp_schema_release(out_schema);
  }
  return rc;
}
