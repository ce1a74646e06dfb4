/*
 * Tests for types/type.h and types/special_fields.h: constructors and their range checks (the
 * limits come from the Java constructors: DecimalType 1..38 / scale <= precision, TimeType and
 * TimestampType 0..9, CharType length >= 1, VectorType element kinds and length >= 1), validation,
 * deep copy, equality flags, classification, lookups, field-id helpers and the row-tracking
 * system fields (spec/data-evolution.md §0).
 */
#include "types/special_fields.h"
#include "types/type.h"
#include "types/type_sql.h"

#include "test.h"

/* Parses `s` or returns NULL (the parser itself is tested in test_type_sql.c). */
static cp_type *P(const char *s) {
  paimon_error err;
  cp_type *t = NULL;
  if (cp_type_parse(s, &t, &err) != 0) fprintf(stderr, "parse '%s': %s\n", s, err.message);
  return t;
}

static void test_constructors_and_defaults(void) {
  paimon_error err;
  cp_type *t = NULL;
  CHECK_OK(cp_type_new(&t, CP_TYPE_DECIMAL, true, &err), &err);
  CHECK_INT(t->precision, 10);
  CHECK_INT(t->scale, 0);
  cp_type_free(t);
  CHECK_OK(cp_type_new(&t, CP_TYPE_TIMESTAMP, false, &err), &err);
  CHECK_INT(t->precision, 6);
  CHECK(!t->nullable);
  cp_type_free(t);
  CHECK_OK(cp_type_new(&t, CP_TYPE_TIME, true, &err), &err);
  CHECK_INT(t->precision, 0);
  cp_type_free(t);
  CHECK_OK(cp_type_new(&t, CP_TYPE_VARCHAR, true, &err), &err);
  CHECK_INT(t->length, 1); /* Java VarCharType.DEFAULT_LENGTH */
  cp_type_free(t);
  CHECK_ERR(cp_type_new(&t, (cp_type_kind)99, true, &err), PAIMON_EINVAL);
  CHECK(t == NULL);

  CHECK_OK(cp_type_new_decimal(&t, 38, 38, true, &err), &err);
  cp_type_free(t);
  CHECK_ERR(cp_type_new_decimal(&t, 39, 2, true, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "precision 39");
  CHECK_ERR(cp_type_new_decimal(&t, 0, 0, true, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_decimal(&t, 5, 6, true, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "scale 6");
  CHECK_ERR(cp_type_new_precision(&t, CP_TYPE_TIMESTAMP, 10, true, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_precision(&t, CP_TYPE_TIME, -1, true, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_precision(&t, CP_TYPE_INT, 3, true, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_sized(&t, CP_TYPE_CHAR, 0, true, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_sized(&t, CP_TYPE_VARCHAR, (int64_t)INT32_MAX + 1, true, &err),
            PAIMON_EINVAL);
  CHECK_ERR(cp_type_new_sized(&t, CP_TYPE_DATE, 3, true, &err), PAIMON_EINVAL);
  CHECK_OK(cp_type_new_sized(&t, CP_TYPE_VARBINARY, INT32_MAX, false, &err), &err);
  CHECK_INT(t->length, INT32_MAX);
  cp_type_free(t);
}

static void test_consuming_constructors_free_on_failure(void) {
  paimon_error err;
  cp_type *t = NULL, *e = NULL, *k = NULL, *v = NULL;
  /* The element is consumed even when the constructor fails; ASan reports a leak otherwise. */
  CHECK_OK(cp_type_new(&e, CP_TYPE_VARCHAR, true, &err), &err);
  CHECK_ERR(cp_type_new_vector(&t, e, 4, true, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "invalid VECTOR element type VARCHAR");
  CHECK_OK(cp_type_new(&e, CP_TYPE_FLOAT, true, &err), &err);
  CHECK_ERR(cp_type_new_vector(&t, e, 0, true, &err), PAIMON_EINVAL);
  CHECK_OK(cp_type_new(&e, CP_TYPE_INT, true, &err), &err);
  CHECK_ERR(cp_type_new_collection(&t, CP_TYPE_MAP, e, true, &err), PAIMON_EINVAL);
  CHECK_OK(cp_type_new(&k, CP_TYPE_INT, true, &err), &err);
  CHECK_ERR(cp_type_new_map(&t, k, NULL, true, &err), PAIMON_EINVAL);
  CHECK(t == NULL);

  /* A valid map, built by hand. */
  CHECK_OK(cp_type_new(&k, CP_TYPE_INT, false, &err), &err);
  CHECK_OK(cp_type_new_sized(&v, CP_TYPE_VARCHAR, INT32_MAX, true, &err), &err);
  CHECK_OK(cp_type_new_map(&t, k, v, true, &err), &err);
  cp_type *expect = P("MAP<INT NOT NULL, STRING>");
  CHECK(cp_type_equals(t, expect, 0));
  cp_type_free(expect);
  cp_type_free(t);

  /* Rows: duplicate and blank names are rejected and the fields released. */
  cp_field f[2];
  CHECK_OK(cp_type_new(&e, CP_TYPE_INT, true, &err), &err);
  CHECK_OK(cp_field_init(&f[0], 0, "a", e, NULL, NULL, &err), &err);
  CHECK_OK(cp_type_new(&e, CP_TYPE_INT, true, &err), &err);
  CHECK_OK(cp_field_init(&f[1], 1, "a", e, "doc", NULL, &err), &err);
  CHECK_ERR(cp_type_new_row(&t, f, 2, true, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'a' appears twice");
  CHECK(f[0].name == NULL && f[1].type == NULL);
  CHECK_OK(cp_type_new(&e, CP_TYPE_INT, true, &err), &err);
  CHECK_OK(cp_field_init(&f[0], 0, "  ", e, NULL, NULL, &err), &err);
  CHECK_ERR(cp_type_new_row(&t, f, 1, true, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "non-whitespace");
  CHECK_ERR(cp_field_init(&f[0], 0, NULL, NULL, NULL, NULL, &err), PAIMON_EINVAL);
  CHECK_OK(cp_type_new_row(&t, NULL, 0, false, &err), &err);
  CHECK_INT(t->n_fields, 0);
  cp_type_free(t);
}

static void test_validate(void) {
  paimon_error err;
  cp_type *t = P("ROW<a DECIMAL(5, 2), b ARRAY<TIMESTAMP(3)>, m MAP<INT, VECTOR<FLOAT, 3>>>");
  CHECK(t != NULL);
  if (!t) return;
  CHECK_OK(cp_type_validate(t, &err), &err);
  t->fields[0].type->scale = 9; /* hand edit that breaks the DECIMAL */
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field 'a' (id 0)");
  CHECK_CONTAINS(err.message, "DECIMAL(5, 9)");
  t->fields[0].type->scale = 2;
  t->fields[1].type->element->precision = 12;
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "TIMESTAMP precision 12");
  t->fields[1].type->element->precision = 3;
  t->fields[2].type->value->element->kind = CP_TYPE_DATE;
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "VECTOR element");
  t->fields[2].type->value->element->kind = CP_TYPE_FLOAT;
  free(t->fields[1].name);
  t->fields[1].name = strdup("a");
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "unique");
  free(t->fields[1].name);
  t->fields[1].name = strdup("caf\xe9"); /* Latin-1, not UTF-8 */
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field name is not valid UTF-8 (bad byte at offset 3)");
  free(t->fields[1].name);
  t->fields[1].name = strdup("caf\xc3\xa9");
  CHECK_OK(cp_type_validate(t, &err), &err);
  t->fields[1].description = strdup("\xff");
  CHECK_ERR(cp_type_validate(t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field description is not valid UTF-8");
  cp_type_free(t);
  CHECK_ERR(cp_type_validate(NULL, &err), PAIMON_EINVAL);
}

static void test_copy_and_equality(void) {
  paimon_error err;
  cp_type *a = P("ROW<a INT NOT NULL COMMENT 'key', b ARRAY<MAP<STRING, ROW<x BIGINT>>>, "
                 "v VECTOR<DOUBLE, 8> NOT NULL>");
  cp_type *b = NULL;
  CHECK(a != NULL);
  if (!a) return;
  a->fields[1].default_value = strdup("[]");
  CHECK_OK(cp_type_copy(&b, a, &err), &err);
  CHECK(b != a && b->fields != a->fields);
  CHECK(cp_type_equals(a, b, 0));
  CHECK_STR(b->fields[0].description, "key");
  CHECK_STR(b->fields[1].default_value, "[]");

  /* Nullability differs deep inside. */
  b->fields[1].type->element->value->nullable = false;
  CHECK(!cp_type_equals(a, b, 0));
  CHECK(cp_type_equals(a, b, CP_TYPE_EQ_IGNORE_NULLABILITY));
  b->fields[1].type->element->value->nullable = true;

  /* A nested field id differs. */
  b->fields[1].type->element->value->fields[0].id = 77;
  CHECK(!cp_type_equals(a, b, 0));
  CHECK(cp_type_equals(a, b, CP_TYPE_EQ_IGNORE_FIELD_IDS));
  b->fields[1].type->element->value->fields[0].id = a->fields[1].type->element->value->fields[0].id;

  /* Docs differ. */
  free(b->fields[0].description);
  b->fields[0].description = NULL;
  CHECK(!cp_type_equals(a, b, 0));
  CHECK(cp_type_equals(a, b, CP_TYPE_EQ_IGNORE_FIELD_DOCS));
  CHECK(!cp_field_equals(&a->fields[0], &b->fields[0], 0));

  /* Parameters and names always count. */
  b->fields[2].type->length = 9;
  CHECK(!cp_type_equals(a, b,
                        CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS |
                            CP_TYPE_EQ_IGNORE_FIELD_DOCS));
  cp_type_free(b);

  CHECK_OK(cp_type_copy_nullable(&b, a, false, &err), &err);
  CHECK(!b->nullable && a->nullable);
  CHECK(!cp_type_equals(a, b, 0));
  CHECK(cp_type_equals(a, b, CP_TYPE_EQ_IGNORE_NULLABILITY));
  cp_type_free(b);

  cp_type *x = P("VARCHAR(10)"), *y = P("CHAR(10)"), *z = P("STRING");
  CHECK(!cp_type_equals(x, y, 0));
  CHECK(!cp_type_equals(x, z, 0));
  CHECK(!cp_type_equals(x, NULL, 0));
  CHECK(cp_type_equals(NULL, NULL, 0));
  cp_type_free(x);
  cp_type_free(y);
  cp_type_free(z);
  cp_type_free(a);
}

static void test_classification(void) {
  static const struct {
    const char *type;
    bool numeric, integer, string, binary, temporal, nested;
  } cases[] = {
      {"TINYINT", 1, 1, 0, 0, 0, 0},
      {"BIGINT", 1, 1, 0, 0, 0, 0},
      {"DOUBLE", 1, 0, 0, 0, 0, 0},
      {"DECIMAL(5, 2)", 1, 0, 0, 0, 0, 0},
      {"BOOLEAN", 0, 0, 0, 0, 0, 0},
      {"CHAR(3)", 0, 0, 1, 0, 0, 0},
      {"STRING", 0, 0, 1, 0, 0, 0},
      {"BYTES", 0, 0, 0, 1, 0, 0},
      {"BINARY(4)", 0, 0, 0, 1, 0, 0},
      {"BLOB", 0, 0, 0, 0, 0, 0},
      {"DATE", 0, 0, 0, 0, 1, 0},
      {"TIME(3)", 0, 0, 0, 0, 1, 0},
      {"TIMESTAMP_LTZ(3)", 0, 0, 0, 0, 1, 0},
      {"ARRAY<INT>", 0, 0, 0, 0, 0, 1},
      {"MAP<INT, INT>", 0, 0, 0, 0, 0, 1},
      {"MULTISET<INT>", 0, 0, 0, 0, 0, 1},
      {"ROW<a INT>", 0, 0, 0, 0, 0, 1},
      {"VECTOR<FLOAT, 2>", 0, 0, 0, 0, 0, 1},
      {"VARIANT", 0, 0, 0, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cp_type *t = P(cases[i].type);
    CHECK(t != NULL);
    if (!t) continue;
    if (cp_type_is_numeric(t) != cases[i].numeric || cp_type_is_integer(t) != cases[i].integer ||
        cp_type_is_string(t) != cases[i].string || cp_type_is_binary(t) != cases[i].binary ||
        cp_type_is_temporal(t) != cases[i].temporal || cp_type_is_nested(t) != cases[i].nested) {
      fprintf(stderr, "classification of %s is wrong\n", cases[i].type);
      CHECK(0);
    }
    cp_type_free(t);
  }
  CHECK_STR(cp_type_kind_name(CP_TYPE_TIMESTAMP_LTZ), "TIMESTAMP_LTZ");
  CHECK_STR(cp_type_kind_name((cp_type_kind)123), "UNKNOWN");
}

static void test_lookups_and_ids(void) {
  paimon_error err;
  /* Ids from the parser: pre-order 0..: a=0, st=1, x=2, y=3, z=4, tags=5, w=6, b=7. */
  cp_type *row = P("ROW<a INT, st ROW<x INT, y ROW<z STRING>>, "
                   "tags ARRAY<MAP<STRING, ROW<w INT>>>, b BIGINT, `Mixed` INT>");
  CHECK(row != NULL);
  if (!row) return;
  CHECK_INT(cp_row_field_index(row, "b"), 3);
  CHECK_INT(cp_row_field_index(row, "z"), -1); /* nested names are not top-level */
  CHECK_INT(cp_row_field_index(row, "mixed"), -1);
  CHECK_INT(cp_row_field_index_ci(row, "mixed"), 4);
  CHECK_INT(cp_row_field_index_ci(row, "TAGS"), 2);
  CHECK(cp_row_find_field(row, "st") == &row->fields[1]);
  CHECK(cp_row_find_field(row, "nope") == NULL);
  CHECK_INT(cp_row_field_index(row->fields[0].type, "a"), -1); /* not a ROW */

  const cp_field *f = cp_type_find_field_by_id(row, 4);
  CHECK(f != NULL && strcmp(f->name, "z") == 0);
  f = cp_type_find_field_by_id(row, 6);
  CHECK(f != NULL && strcmp(f->name, "w") == 0); /* found through ARRAY and MAP */
  CHECK(cp_type_find_field_by_id(row, 99) == NULL);
  CHECK_INT(cp_type_max_field_id(row), 8);
  CHECK_OK(cp_type_check_field_ids(row, &err), &err);

  /* System ids do not count towards highestFieldId. */
  row->fields[3].id = CP_ROW_ID_FIELD_ID;
  row->fields[4].id = CP_SYSTEM_FIELD_ID_START;
  CHECK_INT(cp_type_max_field_id(row), 6);
  row->fields[1].type->fields[1].type->fields[0].id = 5; /* z now collides with tags */
  CHECK_ERR(cp_type_check_field_ids(row, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "field id 5 is duplicated");

  /* Java's Schema.Builder order: a field, then the fields nested in its type. */
  int32_t next = 9;
  cp_type_reassign_field_ids(row, &next);
  CHECK_INT(next, 18);
  CHECK_INT(row->fields[0].id, 10);
  CHECK_INT(row->fields[1].id, 11);
  CHECK_INT(row->fields[1].type->fields[0].id, 12);
  CHECK_INT(row->fields[1].type->fields[1].id, 13);
  CHECK_INT(row->fields[1].type->fields[1].type->fields[0].id, 14);
  CHECK_INT(row->fields[2].id, 15);
  CHECK_INT(row->fields[2].type->element->value->fields[0].id, 16);
  CHECK_INT(row->fields[4].id, 18);
  CHECK_OK(cp_type_check_field_ids(row, &err), &err);
  cp_type_free(row);

  cp_type *empty = P("ROW<>");
  CHECK_INT(cp_type_max_field_id(empty), -1);
  cp_type_free(empty);
}

static void test_special_fields(void) {
  paimon_error err;
  cp_field f;
  CHECK_OK(cp_row_id_field(&f, false, &err), &err);
  CHECK_INT(f.id, 2147483642);
  CHECK_STR(f.name, "_ROW_ID");
  CHECK(f.type->kind == CP_TYPE_BIGINT && !f.type->nullable);
  cp_field_clear(&f);
  CHECK_OK(cp_sequence_number_field(&f, true, &err), &err);
  CHECK_INT(f.id, 2147483646);
  CHECK_STR(f.name, "_SEQUENCE_NUMBER");
  CHECK(f.type->kind == CP_TYPE_BIGINT && f.type->nullable);
  cp_field_clear(&f);
  CHECK(cp_is_system_field_id(2147483642));
  CHECK(cp_is_system_field_id(1073741823));
  CHECK(!cp_is_system_field_id(1073741822));
  CHECK(cp_is_row_tracking_field_name("_ROW_ID"));
  CHECK(!cp_is_row_tracking_field_name("_row_id"));
  CHECK(cp_is_system_field_name("_KEY_id"));
  CHECK(cp_is_system_field_name("_VALUE_KIND"));
  CHECK(cp_is_system_field_name("rowkind"));
  CHECK(!cp_is_system_field_name("id"));

  cp_type *row = P("ROW<id BIGINT NOT NULL, v STRING>"), *out = NULL;
  CHECK_OK(cp_row_with_row_tracking(row, false, false, &out, &err), &err);
  char *s = NULL;
  CHECK_OK(cp_type_to_sql(out, &s, &err), &err);
  CHECK_STR(s, "ROW<`id` BIGINT NOT NULL, `v` STRING, `_ROW_ID` BIGINT NOT NULL, "
               "`_SEQUENCE_NUMBER` BIGINT NOT NULL>");
  free(s);
  CHECK_INT(out->fields[2].id, CP_ROW_ID_FIELD_ID);
  CHECK_INT(out->fields[3].id, CP_SEQUENCE_NUMBER_FIELD_ID);
  CHECK_INT(cp_type_max_field_id(out), 1);
  cp_type *again = NULL;
  CHECK_ERR(cp_row_with_row_tracking(out, false, false, &again, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "Row tracking field name '_ROW_ID' conflicts with existing field names.");
  CHECK(again == NULL);
  CHECK_ERR(cp_row_with_row_tracking(row->fields[0].type, false, false, &again, &err),
            PAIMON_EINVAL);
  cp_type_free(out);
  cp_type_free(row);
}

int main(void) {
  RUN(test_constructors_and_defaults);
  RUN(test_consuming_constructors_free_on_failure);
  RUN(test_validate);
  RUN(test_copy_and_equality);
  RUN(test_classification);
  RUN(test_lookups_and_ids);
  RUN(test_special_fields);
  TEST_MAIN_END();
}
