/*
 * Tests for types/type_arrow.h: the Paimon <-> Arrow mapping of every type, nested to depth 3,
 * nullability flags and field-id metadata.
 *
 * Expected Arrow trees are written "name:format:flags{metadata}[children]". They were checked
 * against pyarrow 19.0.1 by exporting pypaimon 2.1.0's PyarrowFieldParser.from_paimon_type(...)
 * result through the C Data Interface (pyarrow's _export_to_c): e.g. TIMESTAMP(0) -> ":tss::2",
 * TIMESTAMP_LTZ(3) -> ":tsm:UTC:2", MAP<STRING, BIGINT> ->
 * ":+m:2[entries:+s:0[key:u:0,value:l:2]]", VARIANT -> ":+s:2[value:z:0,metadata:z:0]". The Arrow
 * -> Paimon expectations in test_schema_like_pypaimon are pypaimon 2.1.0's
 * PyarrowFieldParser.to_paimon_schema output for the same pyarrow schema (converted to Java's JSON
 * form: no "nullable" keys, TIMESTAMP_LTZ(9) spelt TIMESTAMP(9) WITH LOCAL TIME ZONE).
 */
#include "types/type_arrow.h"

#include <stdarg.h>

#include "arrow/schema.h"
#include "types/type_json.h"
#include "types/type_sql.h"

#include "test.h"

/* ---- helpers ------------------------------------------------------------------------------- */

/* Renders metadata pairs as {k=v;k=v}. */
static void render_meta(const char *md, cp_buf *out) {
  paimon_error err;
  cp_metadata_reader r;
  const char *k, *v;
  int32_t kl, vl;
  if (!md || cp_metadata_reader_init(&r, md, &err) != 0) return;
  cp_buf_appendf(out, &err, "{");
  for (int i = 0; cp_metadata_reader_next(&r, &k, &kl, &v, &vl, &err) == 1; i++)
    cp_buf_appendf(out, &err, "%s%.*s=%.*s", i ? ";" : "", (int)kl, k, (int)vl, v);
  cp_buf_appendf(out, &err, "}");
}

static void render_into(const struct ArrowSchema *s, cp_buf *out) {
  paimon_error err;
  cp_buf_appendf(out, &err, "%s:%s:%lld", s->name ? s->name : "", s->format, (long long)s->flags);
  render_meta(s->metadata, out);
  if (s->n_children > 0) {
    cp_buf_appendf(out, &err, "[");
    for (int64_t i = 0; i < s->n_children; i++) {
      if (i) cp_buf_appendf(out, &err, ",");
      render_into(s->children[i], out);
    }
    cp_buf_appendf(out, &err, "]");
  }
}

/* The rendering of `s` as a malloc'd string. */
static char *render(const struct ArrowSchema *s) {
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  render_into(s, &b);
  cp_buf_nul_terminate(&b, &err);
  return (char *)cp_buf_detach(&b);
}

/* Paimon type string -> rendered Arrow node (or "ERR ..."). */
static char *paimon_to_arrow(const char *type) {
  paimon_error err;
  cp_type *t = NULL;
  struct ArrowSchema s;
  char *r;
  if (cp_type_parse(type, &t, &err) != 0 || cp_type_to_arrow(t, "", &s, &err) != 0) {
    r = strdup(err.message);
  } else {
    r = render(&s);
    cp_schema_release(&s);
  }
  cp_type_free(t);
  return r;
}

#define CHECK_TO_ARROW(type, expected)                                                             \
  do {                                                                                             \
    char *r_ = paimon_to_arrow(type);                                                              \
    CHECK_STR(r_, expected);                                                                       \
    free(r_);                                                                                      \
  } while (0)

/* Builds an owned Arrow node with `n` children given as pointers to initialised schemas, which
 * are moved in. */
static struct ArrowSchema A(const char *fmt, const char *name, bool nullable, int n, ...) {
  paimon_error err;
  struct ArrowSchema s;
  if (cp_schema_init(&s, fmt, name, nullable ? ARROW_FLAG_NULLABLE : 0, n, &err) != 0) {
    fprintf(stderr, "cp_schema_init: %s\n", err.message);
    abort();
  }
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    struct ArrowSchema c = va_arg(ap, struct ArrowSchema);
    cp_schema_move(&c, s.children[i]);
  }
  va_end(ap);
  return s;
}

/* Arrow node -> Paimon type SQL (or "ERR <code>: message"); releases the node. */
static char *
arrow_to_paimon(struct ArrowSchema s) {
  paimon_error err;
  cp_type *t = NULL;
  char *r = NULL;
  int rc = cp_type_from_arrow(&s, &t, &err);
  if (rc != 0) {
    r = malloc(strlen(err.message) + 32);
    sprintf(r, "ERR %s: %s", paimon_status_name(rc), err.message);
  } else {
    cp_type_to_sql(t, &r, &err);
  }
  cp_type_free(t);
  cp_schema_release(&s);
  return r;
}

#define CHECK_FROM_ARROW(schema, expected)                                                         \
  do {                                                                                             \
    char *r_ = arrow_to_paimon(schema);                                                            \
    CHECK_STR(r_, expected);                                                                       \
    free(r_);                                                                                      \
  } while (0)

/* The same, for messages whose tail comes from the arrow layer. */
#define CHECK_FROM_ARROW_CONTAINS(schema, expected)                                                \
  do {                                                                                             \
    char *r_ = arrow_to_paimon(schema);                                                            \
    CHECK_CONTAINS(r_, expected);                                                                  \
    free(r_);                                                                                      \
  } while (0)

/* ---- Paimon -> Arrow ----------------------------------------------------------------------- */

static void test_atomic_to_arrow(void) {
  CHECK_TO_ARROW("BOOLEAN", ":b:2");
  CHECK_TO_ARROW("TINYINT", ":c:2");
  CHECK_TO_ARROW("SMALLINT", ":s:2");
  CHECK_TO_ARROW("INT", ":i:2");
  CHECK_TO_ARROW("BIGINT NOT NULL", ":l:0");
  CHECK_TO_ARROW("FLOAT", ":f:2");
  CHECK_TO_ARROW("DOUBLE", ":g:2");
  CHECK_TO_ARROW("DECIMAL(38, 18)", ":d:38,18:2");
  CHECK_TO_ARROW("DECIMAL(5, 0) NOT NULL", ":d:5,0:0");
  CHECK_TO_ARROW("CHAR(3)", ":u:2");
  CHECK_TO_ARROW("VARCHAR(10)", ":u:2");
  CHECK_TO_ARROW("STRING", ":u:2");
  CHECK_TO_ARROW("BINARY(16)", ":z:2");
  CHECK_TO_ARROW("VARBINARY(5)", ":z:2");
  CHECK_TO_ARROW("BYTES", ":z:2");
  CHECK_TO_ARROW("BLOB", ":Z:2");
  CHECK_TO_ARROW("DATE", ":tdD:2");
  CHECK_TO_ARROW("TIME(0)", ":ttm:2");
  CHECK_TO_ARROW("TIME(9)", ":ttm:2");
  CHECK_TO_ARROW("TIMESTAMP(0)", ":tss::2");
  CHECK_TO_ARROW("TIMESTAMP(2)", ":tsm::2");
  CHECK_TO_ARROW("TIMESTAMP(3)", ":tsm::2");
  CHECK_TO_ARROW("TIMESTAMP(5)", ":tsu::2");
  CHECK_TO_ARROW("TIMESTAMP(6)", ":tsu::2");
  CHECK_TO_ARROW("TIMESTAMP(7)", ":tsn::2");
  CHECK_TO_ARROW("TIMESTAMP(9) NOT NULL", ":tsn::0");
  CHECK_TO_ARROW("TIMESTAMP_LTZ(0)", ":tss:UTC:2");
  CHECK_TO_ARROW("TIMESTAMP_LTZ(3)", ":tsm:UTC:2");
  CHECK_TO_ARROW("TIMESTAMP(6) WITH LOCAL TIME ZONE", ":tsu:UTC:2");
  CHECK_TO_ARROW("TIMESTAMP_LTZ(9)", ":tsn:UTC:2");
  CHECK_TO_ARROW("VARIANT", ":+s:2[value:z:0,metadata:z:0]");
  CHECK_TO_ARROW("VARIANT NOT NULL", ":+s:0[value:z:0,metadata:z:0]");
}

static void test_nested_to_arrow(void) {
  CHECK_TO_ARROW("ARRAY<INT NOT NULL>", ":+l:2[item:i:0]");
  CHECK_TO_ARROW("ARRAY<STRING> NOT NULL", ":+l:0[item:u:2]");
  CHECK_TO_ARROW("MAP<STRING, BIGINT>", ":+m:2[entries:+s:0[key:u:0,value:l:2]]");
  CHECK_TO_ARROW("MAP<INT NOT NULL, STRING NOT NULL> NOT NULL",
                 ":+m:0[entries:+s:0[key:i:0,value:u:0]]");
  CHECK_TO_ARROW("VECTOR<FLOAT, 4>", ":+w:4:2[item:f:2]");
  CHECK_TO_ARROW("VECTOR<DOUBLE NOT NULL, 128> NOT NULL", ":+w:128:0[item:g:0]");
  CHECK_TO_ARROW("MULTISET<STRING>", ":+m:2[entries:+s:0[key:u:0,value:i:0]]");
  /* ROW fields carry their id (and description) as metadata; ids here come from the parser. */
  CHECK_TO_ARROW("ROW<a INT NOT NULL, b ARRAY<STRING>>",
                 ":+s:2[a:i:0{PARQUET:field_id=0},b:+l:2{PARQUET:field_id=1}[item:u:2]]");
  CHECK_TO_ARROW("ROW<a INT COMMENT 'the key'> NOT NULL",
                 ":+s:0[a:i:2{PARQUET:field_id=0;description=the key}]");
  /* Depth 3: ARRAY of MAP of ROW. */
  CHECK_TO_ARROW("ARRAY<MAP<STRING, ROW<x INT NOT NULL, y ARRAY<DOUBLE>>>>",
                 ":+l:2[item:+m:2[entries:+s:0[key:u:0,value:+s:2[x:i:0{PARQUET:field_id=0},"
                 "y:+l:2{PARQUET:field_id=1}[item:g:2]]]]]");
  CHECK_TO_ARROW("ROW<r ROW<s ROW<t TIMESTAMP_LTZ(6) NOT NULL>>>",
                 ":+s:2[r:+s:2{PARQUET:field_id=0}[s:+s:2{PARQUET:field_id=1}[t:tsu:UTC:0{PARQUET:"
                 "field_id=2}]]]");
}

static void test_row_to_arrow_schema(void) {
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_type_parse("ROW<id BIGINT NOT NULL, name STRING, tags ARRAY<STRING>>", &row, &err),
           &err);
  row->fields[0].id = 10;
  row->fields[1].id = 11;
  row->fields[2].id = 2147483642; /* any int32, including system ids */
  row->fields[1].description = strdup("who");
  row->fields[0].description = strdup(""); /* empty: no metadata entry, as pypaimon */
  struct ArrowSchema s;
  CHECK_OK(cp_row_to_arrow_schema(row, &s, &err), &err);
  char *r = render(&s);
  CHECK_STR(r, ":+s:0[id:l:0{PARQUET:field_id=10},name:u:2{PARQUET:field_id=11;description=who},"
               "tags:+l:2{PARQUET:field_id=2147483642}[item:u:2]]");
  free(r);
  CHECK_OK(cp_schema_validate(&s, &err), &err);
  cp_schema_release(&s);
  CHECK_ERR(cp_row_to_arrow_schema(row->fields[0].type, &s, &err), PAIMON_EINVAL);
  CHECK(s.release == NULL);
  cp_type_free(row);
}

/* ---- Arrow -> Paimon ----------------------------------------------------------------------- */

static void test_atomic_from_arrow(void) {
  CHECK_FROM_ARROW(A("b", "x", true, 0), "BOOLEAN");
  CHECK_FROM_ARROW(A("c", "x", true, 0), "TINYINT");
  CHECK_FROM_ARROW(A("s", "x", false, 0), "SMALLINT NOT NULL");
  CHECK_FROM_ARROW(A("i", "x", true, 0), "INT");
  CHECK_FROM_ARROW(A("l", "x", false, 0), "BIGINT NOT NULL");
  CHECK_FROM_ARROW(A("f", "x", true, 0), "FLOAT");
  CHECK_FROM_ARROW(A("g", "x", true, 0), "DOUBLE");
  CHECK_FROM_ARROW(A("d:38,18", "x", true, 0), "DECIMAL(38, 18)");
  CHECK_FROM_ARROW(A("d:7,2,128", "x", true, 0), "DECIMAL(7, 2)");
  CHECK_FROM_ARROW(A("u", "x", true, 0), "STRING");
  CHECK_FROM_ARROW(A("U", "x", false, 0), "STRING NOT NULL");
  CHECK_FROM_ARROW(A("z", "x", true, 0), "BYTES");
  CHECK_FROM_ARROW(A("Z", "x", true, 0), "BLOB");
  CHECK_FROM_ARROW(A("w:16", "x", true, 0), "BINARY(16)");
  CHECK_FROM_ARROW(A("tdD", "x", true, 0), "DATE");
  CHECK_FROM_ARROW(A("tts", "x", true, 0), "TIME(0)");
  CHECK_FROM_ARROW(A("ttm", "x", true, 0), "TIME(0)");
  CHECK_FROM_ARROW(A("ttu", "x", true, 0), "TIME(0)");
  CHECK_FROM_ARROW(A("ttn", "x", true, 0), "TIME(0)");
  CHECK_FROM_ARROW(A("tss:", "x", true, 0), "TIMESTAMP(0)");
  CHECK_FROM_ARROW(A("tsm:", "x", true, 0), "TIMESTAMP(3)");
  CHECK_FROM_ARROW(A("tsu:", "x", true, 0), "TIMESTAMP(6)");
  CHECK_FROM_ARROW(A("tsn:", "x", true, 0), "TIMESTAMP(9)");
  CHECK_FROM_ARROW(A("tsm:UTC", "x", true, 0), "TIMESTAMP(3) WITH LOCAL TIME ZONE");
  CHECK_FROM_ARROW(A("tsn:Europe/Paris", "x", false, 0),
                   "TIMESTAMP(9) WITH LOCAL TIME ZONE NOT NULL");
}

static void test_nested_from_arrow(void) {
  CHECK_FROM_ARROW(A("+l", "x", true, 1, A("i", "item", false, 0)), "ARRAY<INT NOT NULL>");
  CHECK_FROM_ARROW(A("+L", "x", false, 1, A("u", "element", true, 0)), "ARRAY<STRING> NOT NULL");
  CHECK_FROM_ARROW(A("+w:3", "x", true, 1, A("c", "item", true, 0)), "VECTOR<TINYINT, 3>");
  CHECK_FROM_ARROW(
      A("+m", "x", true, 1,
        A("+s", "entries", false, 2, A("u", "key", false, 0), A("l", "value", true, 0))),
      "MAP<STRING NOT NULL, BIGINT>");
  /* The VARIANT struct (either child order), and structs that only look like it. */
  CHECK_FROM_ARROW(A("+s", "v", false, 2, A("z", "metadata", false, 0), A("z", "value", false, 0)),
                   "VARIANT NOT NULL");
  CHECK_FROM_ARROW(A("+s", "v", true, 2, A("z", "value", true, 0), A("z", "metadata", true, 0)),
                   "ROW<`value` BYTES, `metadata` BYTES>");
  CHECK_FROM_ARROW(A("+s", "v", true, 2, A("z", "value", false, 0), A("Z", "metadata", false, 0)),
                   "ROW<`value` BYTES NOT NULL, `metadata` BLOB NOT NULL>");
  /* Depth 3, struct children numbered per struct like pypaimon's to_paimon_type. */
  char *r = arrow_to_paimon(A("+l", "x", true, 1,
                              A("+m", "item", true, 1,
                                A("+s", "entries", false, 2, A("u", "key", false, 0),
                                  A("+s", "value", true, 2, A("i", "p", false, 0),
                                    A("+l", "q", true, 1, A("g", "item", true, 0)))))));
  CHECK_STR(r, "ARRAY<MAP<STRING NOT NULL, ROW<`p` INT NOT NULL, `q` ARRAY<DOUBLE>>>>");
  free(r);
  paimon_error err;
  struct ArrowSchema s =
      A("+s", "r", true, 2, A("i", "a", true, 0), A("+s", "b", true, 1, A("tsu:", "c", true, 0)));
  cp_type *t = NULL;
  CHECK_OK(cp_type_from_arrow(&s, &t, &err), &err);
  CHECK_INT(t->fields[0].id, 0);
  CHECK_INT(t->fields[1].id, 1);
  CHECK_INT(t->fields[1].type->fields[0].id, 0);
  cp_type_free(t);
  cp_schema_release(&s);
}

/* Sets PARQUET:field_id / description metadata on an owned node (returned for chaining). */
static struct ArrowSchema with_meta(struct ArrowSchema s, const char *key, const char *value) {
  paimon_error err;
  if (cp_schema_metadata_put(&s, key, value, &err) != 0) abort();
  return s;
}

static void test_schema_like_pypaimon(void) {
  /* The pyarrow schema of the header comment, field by field. */
  struct ArrowSchema s =
      A("+s", "", false, 15, A("l", "id", false, 0),
        A("+s", "s", true, 2, A("i", "x", false, 0), A("+s", "y", true, 1, A("u", "z", true, 0))),
        A("+l", "l", true, 1,
          A("+s", "item", true, 2, A("i", "p", true, 0),
            A("+s", "q", true, 1, A("i", "r", true, 0)))),
        A("+m", "m", true, 1,
          A("+s", "entries", false, 2, A("u", "key", false, 0),
            A("+s", "value", true, 1, A("i", "v", true, 0)))),
        A("tsn:Europe/Paris", "t", true, 0), A("tts", "t32", true, 0), A("ttn", "t64", true, 0),
        A("w:4", "fb", true, 0), A("+w:3", "vec", true, 1, A("c", "item", true, 0)),
        A("U", "ls", true, 0), A("+L", "ll", true, 1, A("i", "e", false, 0)),
        A("+s", "var", false, 2, A("z", "metadata", false, 0), A("z", "value", false, 0)),
        A("+s", "notvar", true, 2, A("z", "value", true, 0), A("z", "metadata", true, 0)),
        with_meta(A("d:5,2", "d", true, 0), "description", "price"),
        with_meta(A("u", "u", true, 0), "PARQUET:field_id", "99"));
  paimon_error err;
  cp_type *row = NULL;
  CHECK_OK(cp_row_from_arrow_schema(&s, &row, &err), &err);
  cp_schema_release(&s);
  if (!row) return;
  json_t *j = NULL;
  CHECK_OK(cp_fields_to_json(row, &j, &err), &err);
  char *text = json_dumps(j, JSON_COMPACT);
  CHECK_STR(
      text,
      "[{\"id\":0,\"name\":\"id\",\"type\":\"BIGINT NOT NULL\"},"
      "{\"id\":1,\"name\":\"s\",\"type\":{\"type\":\"ROW\",\"fields\":["
      "{\"id\":2,\"name\":\"x\",\"type\":\"INT NOT NULL\"},"
      "{\"id\":4,\"name\":\"y\",\"type\":{\"type\":\"ROW\",\"fields\":["
      "{\"id\":3,\"name\":\"z\",\"type\":\"STRING\"}]}}]}},"
      "{\"id\":5,\"name\":\"l\",\"type\":{\"type\":\"ARRAY\",\"element\":{\"type\":\"ROW\","
      "\"fields\":[{\"id\":6,\"name\":\"p\",\"type\":\"INT\"},{\"id\":8,\"name\":\"q\",\"type\":"
      "{\"type\":\"ROW\",\"fields\":[{\"id\":7,\"name\":\"r\",\"type\":\"INT\"}]}}]}}},"
      "{\"id\":9,\"name\":\"m\",\"type\":{\"type\":\"MAP\",\"key\":\"STRING NOT NULL\",\"value\":"
      "{\"type\":\"ROW\",\"fields\":[{\"id\":10,\"name\":\"v\",\"type\":\"INT\"}]}}},"
      "{\"id\":11,\"name\":\"t\",\"type\":\"TIMESTAMP(9) WITH LOCAL TIME ZONE\"},"
      "{\"id\":12,\"name\":\"t32\",\"type\":\"TIME(0)\"},"
      "{\"id\":13,\"name\":\"t64\",\"type\":\"TIME(0)\"},"
      "{\"id\":14,\"name\":\"fb\",\"type\":\"BINARY(4)\"},"
      "{\"id\":15,\"name\":\"vec\",\"type\":{\"type\":\"VECTOR\",\"element\":\"TINYINT\","
      "\"length\":3}},"
      "{\"id\":16,\"name\":\"ls\",\"type\":\"STRING\"},"
      "{\"id\":17,\"name\":\"ll\",\"type\":{\"type\":\"ARRAY\",\"element\":\"INT NOT NULL\"}},"
      "{\"id\":18,\"name\":\"var\",\"type\":\"VARIANT NOT NULL\"},"
      "{\"id\":19,\"name\":\"notvar\",\"type\":{\"type\":\"ROW\",\"fields\":["
      "{\"id\":20,\"name\":\"value\",\"type\":\"BYTES\"},"
      "{\"id\":21,\"name\":\"metadata\",\"type\":\"BYTES\"}]}},"
      "{\"id\":22,\"name\":\"d\",\"type\":\"DECIMAL(5, 2)\",\"description\":\"price\"},"
      "{\"id\":23,\"name\":\"u\",\"type\":\"STRING\"}]");
  free(text);
  json_decref(j);
  CHECK(row->nullable);
  CHECK_INT(cp_type_max_field_id(row), 23);
  CHECK_OK(cp_type_check_field_ids(row, &err), &err);
  cp_type_free(row);
}

static void test_round_trips(void) {
  /* Paimon -> Arrow -> Paimon keeps the type where Arrow can say it, and otherwise gives what
   * pypaimon gives (left: original, right: after the trip). */
  static const char *const CASES[][2] = {
      {"BOOLEAN NOT NULL", "BOOLEAN NOT NULL"},
      {"TINYINT", "TINYINT"},
      {"SMALLINT", "SMALLINT"},
      {"INT", "INT"},
      {"BIGINT", "BIGINT"},
      {"FLOAT", "FLOAT"},
      {"DOUBLE", "DOUBLE"},
      {"DECIMAL(12, 3)", "DECIMAL(12, 3)"},
      {"STRING NOT NULL", "STRING NOT NULL"},
      {"CHAR(3)", "STRING"},
      {"VARCHAR(3)", "STRING"},
      {"BYTES", "BYTES"},
      {"BINARY(4)", "BYTES"},
      {"BLOB", "BLOB"},
      {"DATE", "DATE"},
      {"TIME(3)", "TIME(0)"},
      {"TIMESTAMP(0)", "TIMESTAMP(0)"},
      {"TIMESTAMP(3)", "TIMESTAMP(3)"},
      {"TIMESTAMP(6)", "TIMESTAMP(6)"},
      {"TIMESTAMP(9)", "TIMESTAMP(9)"},
      {"TIMESTAMP(4)", "TIMESTAMP(6)"},
      {"TIMESTAMP_LTZ(3) NOT NULL", "TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL"},
      {"VARIANT", "VARIANT"},
      {"ARRAY<ARRAY<INT NOT NULL> NOT NULL>", "ARRAY<ARRAY<INT NOT NULL> NOT NULL>"},
      {"MAP<STRING, INT>", "MAP<STRING NOT NULL, INT>"},
      {"MULTISET<STRING>", "MAP<STRING NOT NULL, INT NOT NULL>"},
      {"VECTOR<FLOAT, 4> NOT NULL", "VECTOR<FLOAT, 4> NOT NULL"},
      {"ROW<a INT COMMENT 'x', b ROW<c MAP<INT NOT NULL, ARRAY<STRING>>>>",
       "ROW<`a` INT COMMENT 'x', `b` ROW<`c` MAP<INT NOT NULL, ARRAY<STRING>>>>"},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    paimon_error err;
    cp_type *t = NULL, *back = NULL;
    struct ArrowSchema s;
    s.release = NULL;
    CHECK_OK(cp_type_parse(CASES[i][0], &t, &err), &err);
    if (t) CHECK_OK(cp_type_to_arrow(t, "c", &s, &err), &err);
    if (s.release) CHECK_OK(cp_type_from_arrow(&s, &back, &err), &err);
    char *sql = NULL;
    if (back) CHECK_OK(cp_type_to_sql(back, &sql, &err), &err);
    CHECK_STR(sql, CASES[i][1]);
    free(sql);
    cp_schema_release(&s);
    cp_type_free(t);
    cp_type_free(back);
  }
}

static void test_errors(void) {
  CHECK_FROM_ARROW(A("L", "u", true, 0),
                   "ERR EUNSUPPORTED: column 'u': Arrow type uint64 has no Paimon equivalent");
  CHECK_FROM_ARROW(A("+s", "s", true, 1, A("+l", "a", true, 1, A("C", "item", true, 0))),
                   "ERR EUNSUPPORTED: column 's.a.item': Arrow type uint8 has no Paimon "
                   "equivalent");
  CHECK_FROM_ARROW_CONTAINS(A("e", "h", true, 0), "ERR EUNSUPPORTED: column 'h': Arrow type ");
  CHECK_FROM_ARROW(A("n", "nul", true, 0), "ERR EUNSUPPORTED: column 'nul': Arrow type null has "
                                           "no Paimon equivalent");
  CHECK_FROM_ARROW(A("tdm", "d64", true, 0),
                   "ERR EUNSUPPORTED: column 'd64': Arrow type 'tdm' has no Paimon equivalent");
  CHECK_FROM_ARROW(A("+ud:0,1", "un", true, 2, A("i", "a", true, 0), A("u", "b", true, 0)),
                   "ERR EUNSUPPORTED: column 'un': Arrow type '+ud:0,1' has no Paimon "
                   "equivalent");
  CHECK_FROM_ARROW(A("d:10,2,256", "d", true, 0),
                   "ERR EUNSUPPORTED: column 'd': Arrow type 'd:10,2,256' has no Paimon "
                   "equivalent");
  CHECK_FROM_ARROW_CONTAINS(A("d:40,2", "big", true, 0), "ERR EINVAL: column 'big': ");
  CHECK_FROM_ARROW(A("+w:2", "v", true, 1, A("u", "item", true, 0)),
                   "ERR EINVAL: column 'v': invalid VECTOR element type VARCHAR: must be BOOLEAN, "
                   "TINYINT, SMALLINT, INT, BIGINT, FLOAT or DOUBLE");
  CHECK_FROM_ARROW(A("+w:0", "v0", true, 1, A("f", "item", true, 0)),
                   "ERR EINVAL: column 'v0': VECTOR length 0 must be between 1 and 2147483647");
  CHECK_FROM_ARROW(A("+l", "l", true, 0), "ERR EINVAL: column 'l': list needs 1 child(ren), has 0");
  CHECK_FROM_ARROW(A("+m", "m", true, 1, A("i", "entries", false, 0)),
                   "ERR EINVAL: column 'm': map entries must be a struct");
  CHECK_FROM_ARROW(A("+m", "m", true, 1, A("+s", "entries", false, 1, A("i", "key", false, 0))),
                   "ERR EINVAL: column 'm': map entries needs 2 child(ren), has 1");
  CHECK_FROM_ARROW(A("i", "x", true, 1, A("i", "y", true, 0)),
                   "ERR EINVAL: column 'x': int32 must have no children");
  CHECK_FROM_ARROW_CONTAINS(A("?", "q", true, 0),
                            "ERR EINVAL: column 'q': invalid Arrow format string '?'");
  CHECK_FROM_ARROW(A("+s", "r", true, 2, A("i", "a", true, 0), A("u", "a", true, 0)),
                   "ERR EINVAL: column 'r': ROW field names must be unique: 'a' appears twice");

  paimon_error err;
  cp_type *t = (cp_type *)1;
  /* Dictionary-encoded columns. */
  struct ArrowSchema s = A("i", "dict", true, 0), dict = A("u", NULL, true, 0);
  s.dictionary = &dict;
  CHECK_ERR(cp_type_from_arrow(&s, &t, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "column 'dict': dictionary-encoded");
  CHECK(t == NULL);
  s.dictionary = NULL;
  cp_schema_release(&dict);
  cp_schema_release(&s);
  /* Schemas that are not record batches, released, or have a NULL child. */
  s = A("i", "x", true, 0);
  CHECK_ERR(cp_row_from_arrow_schema(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "must be a struct");
  cp_schema_release(&s);
  CHECK_ERR(cp_type_from_arrow(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "released");
  CHECK_ERR(cp_row_from_arrow_schema(NULL, &t, &err), PAIMON_EINVAL);
  s = A("+s", "", false, 2, A("i", "a", true, 0), A("i", "b", true, 0));
  struct ArrowSchema *saved = s.children[1];
  s.children[1] = NULL;
  CHECK_ERR(cp_row_from_arrow_schema(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "struct child 1 is missing");
  s.children[1] = saved;
  cp_schema_release(&s);
  s = A("+s", "", false, 1, A("i", " ", true, 0));
  CHECK_ERR(cp_row_from_arrow_schema(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "non-whitespace");
  cp_schema_release(&s);

  s = A("+s", "", false, 1, A("+s", "st", true, 1, A("i", "\xc0\x80", true, 0)));
  CHECK_ERR(cp_row_from_arrow_schema(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'st': struct child 0: field name is not valid UTF-8");
  cp_schema_release(&s);
  s = A("+s", "", false, 1, with_meta(A("i", "a", true, 0), "description", "\xfe"));
  CHECK_ERR(cp_row_from_arrow_schema(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'a': description is not valid UTF-8");
  cp_schema_release(&s);

  /* 200 nested lists: a clean error, no stack exhaustion. */
  s = A("i", "item", true, 0);
  for (int i = 0; i < 200; i++) s = A("+l", "item", true, 1, s);
  CHECK_ERR(cp_type_from_arrow(&s, &t, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  cp_schema_release(&s);
}

int main(void) {
  RUN(test_atomic_to_arrow);
  RUN(test_nested_to_arrow);
  RUN(test_row_to_arrow_schema);
  RUN(test_atomic_from_arrow);
  RUN(test_nested_from_arrow);
  RUN(test_schema_like_pypaimon);
  RUN(test_round_trips);
  RUN(test_errors);
  TEST_MAIN_END();
}
