/* Tests for the system tables (include/cpaimon/system_table.h): Java's text forms (checked
 * against JDK 17 and Paimon 1.4.2 output: Double.toString, LocalDateTime.toString,
 * BigDecimal.toPlainString, String.hashCode / HashMap order, FilesTable's statistics maps), each
 * view's rows on tables written by cpaimon (appends, ALTER, a partial-column update, deletion
 * vectors), projection and filters, and the errors: unknown kinds and tables, branches, corrupt
 * metadata. Interop with pypaimon and Java is in tests/python/test_system_tables.py. */
#include <stdio.h>

#include "cpaimon/delete.h"
#include "arrow/print.h"
#include "cpaimon/system_table.h"
#include "table/system_table.h"
#include "update_test_util.h"

/* ---- Java text forms ------------------------------------------------------------------------ */

static void check_double(double v, bool is_float, const char *want) {
  cp_buf b = CP_BUF_INIT;
  paimon_error err;
  CHECK_OK(is_float ? cp_format_float_java(&b, (float)v, &err) : cp_format_double_java(&b, v, &err),
           &err);
  cp_buf_nul_terminate(&b, NULL);
  CHECK_STR((const char *)b.data, want);
  cp_buf_free(&b);
}

static void test_double_string(void) {
  /* Expected values printed by JDK 17's Double.toString / Float.toString. */
  check_double(0.1, false, "0.1");
  check_double(1e10, false, "1.0E10");
  check_double(1e-5, false, "1.0E-5");
  check_double(100.0, false, "100.0");
  check_double(1e7, false, "1.0E7");
  check_double(9999999.0, false, "9999999.0");
  check_double(0.001, false, "0.001");
  check_double(0.0001, false, "1.0E-4");
  check_double(-2.5, false, "-2.5");
  check_double(123456789.0, false, "1.23456789E8");
  check_double(0.0 / 0.0, false, "NaN");
  check_double(-1.0 / 0.0, false, "-Infinity");
  check_double(-0.0, false, "-0.0");
  check_double(1.0 / 3, false, "0.3333333333333333");
  check_double(1e21, false, "1.0E21");
  check_double(4.9e-324, false, "4.9E-324");
  check_double(1.5e-323, false, "1.5E-323");
  check_double(1.4e-45f, true, "1.4E-45");
  check_double(1.7976931348623157e308, false, "1.7976931348623157E308");
  check_double(1234567.125, false, "1234567.125");
  check_double(1.1f, true, "1.1");
  check_double(0.1f, true, "0.1");
  check_double(16777216.0f, true, "1.6777216E7");
  check_double(3.4028235e38f, true, "3.4028235E38");
  check_double(1e-10f, true, "1.0E-10");
  check_double(123.456f, true, "123.456");
}

static char *value_text(const char *type_sql, cp_datum d, bool cast) {
  cp_type *t = NULL;
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_type_parse(type_sql, &t, &err), &err);
  if (t)
    CHECK_OK(cast ? cp_java_cast_string(t, &d, &b, &err) : cp_java_value_string(t, &d, &b, &err),
             &err);
  cp_buf_nul_terminate(&b, NULL);
  cp_type_free(t);
  return (char *)b.data;
}

#define CHECK_TEXT(type, datum, cast, want)                                                        \
  do {                                                                                             \
    char *got_ = value_text((type), (datum), (cast));                                              \
    CHECK_STR(got_, (want));                                                                       \
    free(got_);                                                                                    \
  } while (0)

static cp_datum ts(int64_t millis, int32_t nanos) {
  cp_datum d = cp_datum_int(0);
  d.v.ts.millis = millis;
  d.v.ts.nanos_of_milli = nanos;
  return d;
}

static void test_value_strings(void) {
  /* 2024-01-02T03:04:05.120 is 1704164645120 ms; LocalDateTime.toString per JDK 17. */
  CHECK_TEXT("TIMESTAMP(3)", ts(1704164645120, 0), false, "2024-01-02T03:04:05.120");
  CHECK_TEXT("TIMESTAMP(6)", ts(1704164640000, 0), false, "2024-01-02T03:04");
  CHECK_TEXT("TIMESTAMP(6)", ts(1704164640000, 1000), false, "2024-01-02T03:04:00.000001");
  CHECK_TEXT("TIMESTAMP(9)", ts(1704164640000, 1), false, "2024-01-02T03:04:00.000000001");
  /* DateTimeUtils.formatTimestamp: trailing zeros dropped down to the precision. */
  CHECK_TEXT("TIMESTAMP(3)", ts(1704164645120, 0), true, "2024-01-02 03:04:05.120");
  CHECK_TEXT("TIMESTAMP(6)", ts(1704164645120, 0), true, "2024-01-02 03:04:05.120000");
  CHECK_TEXT("TIMESTAMP(9)", ts(1704164645120, 0), true, "2024-01-02 03:04:05.120000000");
  CHECK_TEXT("TIMESTAMP(0)", ts(1704164645000, 0), true, "2024-01-02 03:04:05");
  CHECK_TEXT("TIMESTAMP(3)", ts(1704164645000, 0), true, "2024-01-02 03:04:05.000");
  /* DATE: the day number as a statistic, ISO text as a cast (2024-02-29 is day 19782). */
  CHECK_TEXT("DATE", cp_datum_int(19782), false, "19782");
  CHECK_TEXT("DATE", cp_datum_int(19782), true, "2024-02-29");
  /* TIME(3) 01:02:03.100: formatTimestampMillis stops at the last non-zero digit. */
  CHECK_TEXT("TIME(3)", cp_datum_int(3723100), true, "01:02:03.1");
  CHECK_TEXT("TIME(0)", cp_datum_int(3723100), true, "01:02:03");
  CHECK_TEXT("TIME(3)", cp_datum_int(3723100), false, "3723100");
  cp_datum dec = cp_datum_int(0);
  dec.v.dec = -5;
  CHECK_TEXT("DECIMAL(5, 3)", dec, false, "-0.005");
  dec.v.dec = 150;
  CHECK_TEXT("DECIMAL(10, 2)", dec, true, "1.50");
  dec.v.dec = 7;
  CHECK_TEXT("DECIMAL(10, 0)", dec, false, "7");
  cp_datum b = cp_datum_int(0);
  b.v.b = true;
  CHECK_TEXT("BOOLEAN", b, true, "true");
  static const uint8_t bytes[] = {1, 2}, ff[] = {0xff};
  /* Arrays.hashCode of {1, 2} is 0x3e2, of {-1} 0x1e (JDK 17). */
  CHECK_TEXT("BYTES", cp_datum_bytes(bytes, 2), false, "[B@3e2");
  CHECK_TEXT("BYTES", cp_datum_bytes(ff, 1), false, "[B@1e");
  CHECK_TEXT("STRING", cp_datum_bytes("héllo", 6), false, "héllo");
  CHECK_TEXT("BIGINT", cp_datum_int(-9), true, "-9");
}

static void test_row_string(void) {
  paimon_error err;
  cp_type *t1 = NULL, *t2 = NULL;
  CHECK_OK(cp_type_parse("INT", &t1, &err), &err);
  CHECK_OK(cp_type_parse("STRING", &t2, &err), &err);
  const cp_type *types[] = {t1, t2};
  cp_datum vals[] = {cp_datum_int(3), cp_datum_null()};
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_java_row_string(types, vals, 2, &b, &err), &err);
  CHECK_OK(cp_java_row_string(types, vals, 0, &b, &err), &err);
  cp_buf_nul_terminate(&b, NULL);
  CHECK_STR((const char *)b.data, "{3, null}{}");
  cp_buf_free(&b);
  cp_type_free(t1);
  cp_type_free(t2);
}

static void test_hashmap_order(void) {
  paimon_error err;
  /* Java 1.4.2 printed these tables' $options in this order (a 16-bucket map and one that grew
   * to 32 buckets). */
  const char *small[] = {"row-tracking.enabled", "data-evolution.enabled", "my.opt"};
  size_t order[32];
  CHECK_OK(cp_java_hashmap_order(small, 3, order, &err), &err);
  CHECK_INT(order[0], 0);
  CHECK_INT(order[1], 1);
  CHECK_INT(order[2], 2);
  const char *big[] = {"row-tracking.enabled",
                       "a.b",
                       "zzz",
                       "snapshot.num-retained.min",
                       "file.format",
                       "metadata.stats-mode",
                       "k1",
                       "k2",
                       "k3",
                       "k4",
                       "k5",
                       "k6",
                       "k7",
                       "k8",
                       "k9",
                       "Ünïcode"};
  const char *want[] = {"k1",
                        "k2",
                        "k3",
                        "k4",
                        "k5",
                        "snapshot.num-retained.min",
                        "k6",
                        "k7",
                        "Ünïcode",
                        "k8",
                        "k9",
                        "a.b",
                        "row-tracking.enabled",
                        "zzz",
                        "file.format",
                        "metadata.stats-mode"};
  CHECK_OK(cp_java_hashmap_order(big, 16, order, &err), &err);
  for (size_t i = 0; i < 16; i++) CHECK_STR(big[order[i]], want[i]);
  CHECK_OK(cp_java_hashmap_order(big, 0, order, &err), &err);
}

/* ---- reading the views ---------------------------------------------------------------------- */

static const char *const COLS[] = {"a INT", "s STRING", "f DOUBLE", "pt STRING", NULL};
static const char *const PARTS[] = {"pt", NULL};
#define ROW "ROW<a INT, s STRING, f DOUBLE, pt STRING>"

/* Reads columns "x,y" (NULL: all) of `ident` rendered as text, optionally filtered. */
static char *sys_text(const char *ident, const char *cols, const paimon_predicate *filter) {
  paimon_error err;
  paimon_system_table *st = NULL;
  CHECK_OK(paimon_catalog_get_system_table(cat, ident, &st, &err), &err);
  if (!st) return strdup("");
  const char *names[32];
  size_t n = 0;
  char *copy = cols ? strdup(cols) : NULL, *save = NULL;
  for (char *c = copy ? strtok_r(copy, ",", &save) : NULL; c; c = strtok_r(NULL, ",", &save))
    names[n++] = c;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  CHECK_OK(paimon_system_table_read(st, copy ? names : NULL, n, filter, &s, &err), &err);
  char *out = s.release ? render_stream(&s) : strdup("");
  free(copy);
  paimon_system_table_free(st);
  return out;
}

#define CHECK_SYS(ident, cols, want)                                                               \
  do {                                                                                             \
    char *got_ = sys_text((ident), (cols), NULL);                                                  \
    CHECK_STR(got_, (want));                                                                       \
    free(got_);                                                                                    \
  } while (0)

static void test_empty_table(void) {
  paimon_table *t = create_table("db.empty", COLS, PARTS, NULL);
  const char *views[] = {"snapshots", "manifests",     "files", "file_key_ranges", "partitions",
                         "buckets",   "table_indexes", "tags",  "branches",        "consumers"};
  for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
    char ident[64];
    snprintf(ident, sizeof ident, "db.empty$%s", views[i]);
    CHECK_SYS(ident, NULL, "");
  }
  CHECK_SYS("db.empty$schemas", "schema_id,partition_keys,primary_keys,comment",
            "0|[\"pt\"]|[]|NULL");
  CHECK_SYS("db.empty$options", NULL, "row-tracking.enabled|true\ndata-evolution.enabled|true");
  paimon_table_free(t);
}

static void test_snapshots_and_schemas(void) {
  paimon_table *t = create_table("db.snap", COLS, PARTS, NULL);
  append_rows(t, ROW, "1,x,1.5,p;2,y,3.25,p");
  append_rows(t, ROW, "3,z,NULL,q");
  CHECK_SYS("db.snap$snapshots",
            "snapshot_id,schema_id,commit_identifier,commit_kind,total_record_count,"
            "delta_record_count,changelog_manifest_list,changelog_record_count,watermark,"
            "next_row_id",
            "1|0|9223372036854775807|APPEND|2|2|NULL|NULL|NULL|2\n"
            "2|0|9223372036854775807|APPEND|3|1|NULL|NULL|NULL|3");
  paimon_error err;
  paimon_schema_change add = {PAIMON_ADD_COLUMN, "extra", NULL, "BIGINT",
                              "a comment",       NULL,    NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(cat, "db.snap", &add, 1, false, &err), &err);
  /* The compact JSON of Java's JsonSerdeUtil.toFlatJson(schema.fields()). */
  CHECK_SYS("db.snap$schemas", "schema_id,fields,options",
            "0|[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},{\"id\":1,\"name\":\"s\",\"type\":"
            "\"STRING\"},{\"id\":2,\"name\":\"f\",\"type\":\"DOUBLE\"},{\"id\":3,\"name\":\"pt\","
            "\"type\":\"STRING\"}]|{\"row-tracking.enabled\":\"true\",\"data-evolution.enabled\":"
            "\"true\"}\n"
            "1|[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},{\"id\":1,\"name\":\"s\",\"type\":"
            "\"STRING\"},{\"id\":2,\"name\":\"f\",\"type\":\"DOUBLE\"},{\"id\":3,\"name\":\"pt\","
            "\"type\":\"STRING\"},{\"id\":4,\"name\":\"extra\",\"type\":\"BIGINT\","
            "\"description\":\"a comment\"}]|{\"row-tracking.enabled\":\"true\","
            "\"data-evolution.enabled\":\"true\"}");
  /* Snapshot and schema times are local wall clock; with TZ=UTC they are the stored millis. */
  paimon_table_free(t);
}

static void test_files_statistics(void) {
  paimon_table *t = create_table("db.files", COLS, PARTS, NULL);
  append_rows(t, ROW, "1,x,1.5,p;2,NULL,3.25,p");
  CHECK_SYS("db.files$files",
            "partition,bucket,file_format,schema_id,level,record_count,min_key,max_key,"
            "null_value_counts,min_value_stats,max_value_stats,file_source,first_row_id,write_cols",
            "{p}|0|parquet|0|0|2|NULL|NULL|{a=0, f=0, pt=0, s=1}|{a=1, f=1.5, pt=p, s=x}|"
            "{a=2, f=3.25, pt=p, s=x}|APPEND|0|NULL");
  /* Columns added later: no values, null count = the file's row count (NullCountsEvoArray). */
  paimon_error err;
  paimon_schema_change add = {PAIMON_ADD_COLUMN, "b", NULL, "INT", NULL, NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(cat, "db.files", &add, 1, false, &err), &err);
  paimon_table_free(t);
  t = open_table("db.files");
  /* A partial-column update: its statistics cover its write_cols only (Java HEAD). */
  const char *s_col[] = {"s"};
  paimon_commit_messages *m = NULL;
  CHECK_OK(update_rows(t, s_col, 1, "ROW<_ROW_ID BIGINT, s STRING>", "0,u;1,v", &m, &err), &err);
  commit_msgs(t, m);
  CHECK_READ(t, "a,s", "1|u\n2|v");
  CHECK_SYS("db.files$files", "null_value_counts,min_value_stats,max_value_stats,write_cols",
            "{a=0, b=2, f=0, pt=0, s=1}|{a=1, b=null, f=1.5, pt=p, s=x}|"
            "{a=2, b=null, f=3.25, pt=p, s=x}|NULL\n"
            "{a=2, b=2, f=2, pt=2, s=0}|{a=null, b=null, f=null, pt=null, s=u}|"
            "{a=null, b=null, f=null, pt=null, s=v}|[s]");
  CHECK_SYS("db.files$file_key_ranges", "partition,record_count,min_key,first_row_id",
            "{p}|2|NULL|0\n{p}|2|NULL|0");
  /* The full path: the table directory, partition path, bucket directory, file name. */
  char *paths = sys_text("db.files$files", "file_path", NULL);
  char prefix[1024];
  snprintf(prefix, sizeof prefix, "%s/pt=p/bucket-0/data-", paimon_table_path(t));
  CHECK(strncmp(paths, prefix, strlen(prefix)) == 0);
  CHECK_CONTAINS(paths, ".parquet\n");
  free(paths);
  paimon_table_free(t);
}

static void test_partitions_buckets_manifests(void) {
  paimon_table *t = create_table("db.parts", COLS, PARTS, NULL);
  append_rows(t, ROW, "1,x,1.5,p;2,y,2.5,q;3,z,NULL,NULL");
  append_rows(t, ROW, "4,w,0.5,q");
  CHECK_SYS("db.parts$partitions", "partition,record_count,file_count,created_by,options",
            "pt=__DEFAULT_PARTITION__|1|1|NULL|NULL\npt=p|1|1|NULL|NULL\npt=q|2|2|NULL|NULL");
  CHECK_SYS("db.parts$buckets", "partition,bucket,record_count,file_count",
            "{null}|0|1|1\n{p}|0|1|1\n{q}|0|2|2");
  /* One manifest per commit: partition stats over non-null values, the row-id ranges. */
  CHECK_SYS("db.parts$manifests",
            "num_added_files,num_deleted_files,schema_id,min_partition_stats,max_partition_stats,"
            "min_row_id,max_row_id",
            "3|0|0|{p}|{q}|0|2\n1|0|0|{q}|{q}|3|3");
  /* The sums are the files' sizes. */
  char *sizes = sys_text("db.parts$partitions", "file_size_in_bytes", NULL);
  char *files = sys_text("db.parts$files", "file_size_in_bytes", NULL);
  long total_p = 0, total_f = 0;
  for (char *p = sizes; *p;) total_p += strtol(p, &p, 10), p += *p == '\n';
  for (char *p = files; *p;) total_f += strtol(p, &p, 10), p += *p == '\n';
  CHECK(total_p > 0);
  CHECK_INT(total_p, total_f);
  free(sizes);
  free(files);
  paimon_table_free(t);
}

static void test_table_indexes(void) {
  const char *opts[] = {"deletion-vectors.enabled=true", NULL};
  paimon_table *t = create_table("db.dv", COLS, NULL, opts);
  append_rows(t, ROW, "1,x,1.5,p;2,y,2.5,p;3,z,3.5,p");
  CHECK_SYS("db.dv$table_indexes", NULL, "");
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t ids[] = {0, 2};
  CHECK_OK(paimon_delete_by_row_ids(t, ids, 2, &m, &err), &err);
  commit_msgs(t, m);
  char *rows = sys_text("db.dv$table_indexes", "partition,bucket,index_type,row_count", NULL);
  CHECK_STR(rows, "{}|0|DELETION_VECTORS|1");
  free(rows);
  /* dv_ranges: one entry (data file, offset, length, cardinality) per data file with deletes. */
  char *dv = sys_text("db.dv$table_indexes", "dv_ranges", NULL);
  char *file = sys_text("db.dv$files", "file_path", NULL);
  const char *name = strrchr(file, '/');
  CHECK(name != NULL);
  if (name) CHECK_CONTAINS(dv, name + 1);
  CHECK_CONTAINS(dv, ", 1, ");
  CHECK_CONTAINS(dv, ", 2}]");
  free(dv);
  free(file);
  CHECK_SYS("db.dv$partitions", "partition,record_count,file_count", "|3|1");
  paimon_table_free(t);
}

static void test_projection_and_filter(void) {
  paimon_table *t = create_table("db.proj", COLS, PARTS, NULL);
  append_rows(t, ROW, "1,x,1.5,p");
  append_rows(t, ROW, "2,x,1.5,p");
  append_rows(t, ROW, "3,x,1.5,p");
  paimon_error err;
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_GREATER_THAN, "snapshot_id", "1", &err),
           &err);
  char *got = sys_text("db.proj$snapshots", "total_record_count,snapshot_id", p);
  CHECK_STR(got, "2|2\n3|3");
  free(got);
  paimon_predicate_free(p);
  /* A filter on a column the projection leaves out. */
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, "key", "data-evolution.enabled",
                                         &err),
           &err);
  got = sys_text("db.proj$options", "value", p);
  CHECK_STR(got, "true");
  free(got);
  paimon_predicate_free(p);
  paimon_system_table *st = NULL;
  CHECK_OK(paimon_catalog_get_system_table(cat, "db.proj$snapshots", &st, &err), &err);
  struct ArrowArrayStream s;
  const char *bad[] = {"snapshot_id", "nope"};
  CHECK_ERR(paimon_system_table_read(st, bad, 2, NULL, &s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "db.proj$snapshots has no column 'nope'");
  /* No columns: a batch that only counts the rows (as SELECT count(*) needs). */
  CHECK_OK(paimon_system_table_read(st, bad, 0, NULL, &s, &err), &err);
  struct ArrowSchema none_schema;
  struct ArrowArray none;
  memset(&none, 0, sizeof none);
  CHECK_OK(cp_stream_get_schema(&s, &none_schema, &err), &err);
  CHECK_OK(cp_stream_next(&s, &none, &err), &err);
  CHECK_INT(none_schema.n_children, 0);
  CHECK_INT(none.length, 3);
  if (none.release) none.release(&none);
  if (none_schema.release) none_schema.release(&none_schema);
  if (s.release) s.release(&s);
  const char *dup[] = {"snapshot_id", "snapshot_id"};
  CHECK_ERR(paimon_system_table_read(st, dup, 2, NULL, &s, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_predicate_is_null(&p, "nope", &err), &err);
  CHECK_ERR(paimon_system_table_read(st, NULL, 0, p, &s, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "nope");
  paimon_predicate_free(p);
  /* Schema and metadata of the handle. */
  CHECK_STR(paimon_system_table_name(st), "db.proj$snapshots");
  CHECK_STR(paimon_system_table_kind(st), "snapshots");
  CHECK_INT(paimon_system_table_primary_key_count(st), 1);
  CHECK_STR(paimon_system_table_primary_key(st, 0), "snapshot_id");
  CHECK(paimon_system_table_primary_key(st, 1) == NULL);
  char *json = NULL;
  CHECK_OK(paimon_system_table_fields_json(st, &json, &err), &err);
  CHECK_CONTAINS(json, "{\"id\":0,\"name\":\"snapshot_id\",\"type\":\"BIGINT NOT NULL\"}");
  CHECK_CONTAINS(json, "{\"id\":5,\"name\":\"commit_time\",\"type\":\"TIMESTAMP(3) NOT NULL\"}");
  CHECK_CONTAINS(json, "{\"id\":13,\"name\":\"next_row_id\",\"type\":\"BIGINT\"}]");
  free(json);
  struct ArrowSchema schema;
  CHECK_OK(paimon_system_table_arrow_schema(st, &schema, &err), &err);
  CHECK_INT(schema.n_children, 14);
  CHECK_STR(schema.children[5]->format, "tsm:");
  CHECK_INT(schema.children[5]->flags & ARROW_FLAG_NULLABLE, 0);
  CHECK(schema.children[13]->flags & ARROW_FLAG_NULLABLE);
  schema.release(&schema);
  paimon_system_table_free(st);
  paimon_table_free(t);
}

static void test_open_errors(void) {
  paimon_error err;
  paimon_system_table *st = NULL;
  paimon_table *t = create_table("db.err", COLS, PARTS, NULL);
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.err$nope", &st, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table db.err$nope does not exist.");
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.missing$files", &st, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table db.missing$files does not exist.");
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.err$", &st, &err), PAIMON_ENOTFOUND);
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.err$branch_b", &st, &err),
            PAIMON_EUNSUPPORTED);
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.err$branch_b$files", &st, &err),
            PAIMON_EUNSUPPORTED);
  CHECK_ERR(paimon_catalog_get_system_table(cat, "err$files", &st, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_catalog_get_system_table(cat, "db.err", &st, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_catalog_get_system_table(cat, NULL, &st, &err), PAIMON_EINVAL);
  CHECK(st == NULL);
  /* Kinds are case-insensitive, as Java's SystemTableLoader. */
  CHECK_OK(paimon_catalog_get_system_table(cat, "db.err$SnapShots", &st, &err), &err);
  if (st) CHECK_STR(paimon_system_table_name(st), "db.err$snapshots");
  paimon_system_table_free(st);
  CHECK_ERR(paimon_system_table_open(t, "nope", &st, &err), PAIMON_ENOTFOUND);
  CHECK_STR(err.message, "Table db.err$nope does not exist.");
  CHECK_OK(paimon_system_table_open(t, "files", &st, &err), &err);
  CHECK(paimon_system_table_data_table(st) == t);
  paimon_system_table_free(st);
  CHECK(paimon_identifier_is_system_table("db.t$files"));
  CHECK(paimon_identifier_is_system_table("t$files"));
  CHECK(!paimon_identifier_is_system_table("db.t"));
  CHECK(!paimon_identifier_is_system_table("d$b.t"));
  CHECK(!paimon_identifier_is_system_table(NULL));
  const char *const *kinds = paimon_system_table_kinds();
  size_t n = 0;
  while (kinds[n]) n++;
  CHECK_INT(n, 12);
  for (size_t i = 0; i < n; i++) {
    CHECK_OK(paimon_system_table_open(t, kinds[i], &st, &err), &err);
    paimon_system_table_free(st);
  }
  paimon_table_free(t);
}

/* Metadata that cannot be read fails the read with the file named; nothing crashes. */
static void test_corrupt_metadata(void) {
  paimon_table *t = create_table("db.bad", COLS, PARTS, NULL);
  append_rows(t, ROW, "1,x,1.5,p");
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "for f in '%s'/manifest/manifest-list-*; do printf 'garbage' > \"$f\"; done",
           paimon_table_path(t));
  CHECK_INT(system(cmd), 0);
  paimon_error err;
  const char *views[] = {"db.bad$files", "db.bad$manifests", "db.bad$partitions", "db.bad$buckets"};
  for (size_t i = 0; i < 4; i++) {
    paimon_system_table *st = NULL;
    CHECK_OK(paimon_catalog_get_system_table(cat, views[i], &st, &err), &err);
    struct ArrowArrayStream s;
    memset(&s, 0, sizeof s);
    CHECK_ERR(paimon_system_table_read(st, NULL, 0, NULL, &s, &err), PAIMON_ECORRUPT);
    CHECK_CONTAINS(err.message, views[i]);
    CHECK_CONTAINS(err.message, "manifest-list-");
    CHECK(s.release == NULL);
    paimon_system_table_free(st);
  }
  /* The views over other files still work. */
  CHECK_SYS("db.bad$snapshots", "snapshot_id", "1");
  paimon_schema_change set = {PAIMON_SET_OPTION, "k", "v", NULL, NULL, NULL, NULL, 0};
  CHECK_OK(paimon_catalog_alter_table(cat, "db.bad", &set, 1, false, &err), &err);
  snprintf(cmd, sizeof cmd, "printf '{' > '%s'/schema/schema-0", paimon_table_path(t));
  CHECK_INT(system(cmd), 0);
  paimon_system_table *st = NULL;
  CHECK_OK(paimon_catalog_get_system_table(cat, "db.bad$schemas", &st, &err), &err);
  struct ArrowArrayStream s;
  if (st) CHECK_ERR(paimon_system_table_read(st, NULL, 0, NULL, &s, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "schema-0");
  paimon_system_table_free(st);
  CHECK_SYS("db.bad$options", NULL, "row-tracking.enabled|true\ndata-evolution.enabled|true\nk|v");
  paimon_table_free(t);
}

int main(void) {
  setenv("TZ", "UTC", 1);
  setup_catalog("systables");
  RUN(test_double_string);
  RUN(test_value_strings);
  RUN(test_row_string);
  RUN(test_hashmap_order);
  RUN(test_empty_table);
  RUN(test_snapshots_and_schemas);
  RUN(test_files_statistics);
  RUN(test_partitions_buckets_manifests);
  RUN(test_table_indexes);
  RUN(test_projection_and_filter);
  RUN(test_open_errors);
  RUN(test_corrupt_metadata);
  teardown_catalog();
  TEST_MAIN_END();
}
