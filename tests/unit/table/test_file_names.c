/*
 * File names taken from commit messages cannot reach outside the table (issue 14, item 3): a
 * message whose data file is named "../../../victim" used to make abort() delete that file and
 * commit() publish a snapshot pointing at it. Commit and abort now refuse such messages, naming
 * the table, the message and the file; serialized messages with such names do not deserialize;
 * and the path builders refuse them too. External paths must be absolute, without "." or ".."
 * segments, and (in messages) under the root the table's options name (Java writes them there).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commit_test_util.h"
#include "table/commit_message.h"
#include "table/table.h"

static paimon_table *make_table(paimon_catalog *c, const char *external_root) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "BIGINT", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "v", "STRING", NULL, &err), &err);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  if (external_root)
    CHECK_OK(paimon_schema_set_option(s, "data-file.external-paths", external_root, &err), &err);
  CHECK_OK(paimon_catalog_create_table(c, "db.t", s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(c, "db.t", &t, &err), &err);
  return t;
}

static void text(const char *column, int64_t id, char *buf, size_t cap) {
  snprintf(buf, cap, "%s%lld", column, (long long)id);
}

/* Messages of one uncommitted write of ids 0..2. */
static paimon_commit_messages *pending_write(paimon_table *t) {
  struct ArrowSchema schema;
  struct ArrowArray array;
  rows_batch("ROW<id BIGINT, v STRING>", 0, 3, text, &schema, &array);
  paimon_commit_messages *m = write_arrow(t, &schema, &array);
  schema.release(&schema);
  array.release(&array);
  return m;
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static int64_t latest(paimon_table *t) {
  int64_t id = -1;
  paimon_error err;
  CHECK_OK(paimon_table_latest_snapshot_id(t, &id, &err), &err);
  return id;
}

/* Both commit and abort refuse `m` with a message containing `needle`, and nothing changes. */
static void check_refused(paimon_table *t, paimon_commit_messages *m, const char *needle) {
  paimon_error err;
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  int64_t before = latest(t);
  CHECK_ERR(paimon_commit_abort(c, m, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, needle);
  CHECK_CONTAINS(err.message, "table db.t: commit message 1");
  CHECK_ERR(paimon_commit_commit(c, m, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, needle);
  CHECK_INT(latest(t), before);
  paimon_commit_free(c);
}

static void test_escaping_names_are_refused(void) {
  paimon_catalog *cat = temp_catalog("cp-names");
  paimon_table *t = make_table(cat, NULL);
  /* A file the escape would name: the warehouse is three levels above the bucket directory. */
  char victim[512];
  snprintf(victim, sizeof victim, "%s/victim", paimon_catalog_warehouse(cat));
  FILE *f = fopen(victim, "w");
  CHECK(f != NULL);
  if (f) fclose(f);
  paimon_commit_messages *m = pending_write(t);
  CHECK(m->n == 1 && m->items[0].n_new == 1);
  cp_data_file_meta *file = &m->items[0].new_files[0];
  const char *real = file->file_name;

  static const char *const bad[] = {"../../../victim", "/etc/passwd", "..", ".", "", "a/b"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    file->file_name = bad[i];
    check_refused(t, m, "is not a plain file name");
  }
  CHECK(exists(victim));

  /* The byte form: a deserializer meets the name first and refuses it, naming the entry. */
  file->file_name = "../../../victim";
  uint8_t *bytes = NULL;
  size_t len = 0;
  paimon_error err;
  CHECK_OK(paimon_commit_messages_serialize(m, &bytes, &len, &err), &err);
  paimon_commit_messages *back = NULL;
  CHECK_ERR(paimon_commit_messages_deserialize(&back, bytes, len, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "commit messages: record 0: data file name '../../../victim'");
  CHECK(back == NULL);
  free(bytes);

  /* An extra file and an index file with such names. */
  file->file_name = real;
  const char *extra[] = {"../x"};
  file->extra_files = (cp_strings){extra, 1};
  check_refused(t, m, "extra file name '../x'");
  file->extra_files = (cp_strings){NULL, 0};
  cp_index_manifest_entry idx = {0};
  idx.index_type = "DELETION_VECTORS";
  idx.file_name = "../../victim";
  m->items[0].index_adds = &idx;
  m->items[0].n_index_adds = 1;
  check_refused(t, m, "index file name '../../victim'");
  m->items[0].n_index_adds = 0;

  /* Without data-file.external-paths a message may not name an external path at all. */
  file->external_path = "/tmp/elsewhere/data.parquet";
  check_refused(t, m, "is not under the table's data-file.external-paths (not set)");
  file->external_path = NULL;
  char *path = NULL;
  file->file_name = "../../../victim";
  CHECK_ERR(cp_data_file_path(t, m->items[0].partition, 0, file, &path, &err), PAIMON_ECORRUPT);
  CHECK(path == NULL);
  file->file_name = real;

  /* The untouched messages still commit (and abort afterwards deletes nothing outside). */
  paimon_commit *c = NULL;
  CHECK_OK(paimon_commit_new(&c, t, &err), &err);
  CHECK_OK(paimon_commit_commit(c, m, &err), &err);
  CHECK_INT(latest(t), 1);
  paimon_commit_free(c);
  CHECK(exists(victim));
  paimon_commit_messages_free(m);
  paimon_table_free(t);
  paimon_catalog_free(cat);
}

static void test_external_paths_under_the_configured_root(void) {
  paimon_catalog *cat = temp_catalog("cp-ext");
  char root[512];
  snprintf(root, sizeof root, "file://%s/ext", paimon_catalog_warehouse(cat));
  paimon_table *t = make_table(cat, root);
  paimon_commit_messages *m = pending_write(t);
  cp_data_file_meta *file = &m->items[0].new_files[0];
  char ok[1024], outside[1024], dotted[1024];
  snprintf(ok, sizeof ok, "%s/bucket-0/%s", root, file->file_name);
  snprintf(outside, sizeof outside, "file://%s/other/%s", paimon_catalog_warehouse(cat),
           file->file_name);
  snprintf(dotted, sizeof dotted, "%s/../../victim", root);
  paimon_error err;
  /* Under the root, as Java's ExternalPathProvider writes: accepted by the check. */
  file->external_path = ok;
  CHECK_OK(cp_commit_messages_check(t, m, &err), &err);
  file->external_path = outside;
  CHECK_ERR(cp_commit_messages_check(t, m, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "is not under the table's data-file.external-paths");
  file->external_path = dotted;
  CHECK_ERR(cp_commit_messages_check(t, m, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "without '.' and '..' segments");
  file->external_path = "relative/path.parquet";
  CHECK_ERR(cp_commit_messages_check(t, m, &err), PAIMON_ECORRUPT);
  file->external_path = NULL;
  paimon_commit_messages_free(m);
  paimon_table_free(t);
  paimon_catalog_free(cat);
}

int main(void) {
  RUN(test_escaping_names_are_refused);
  RUN(test_external_paths_under_the_configured_root);
  TEST_MAIN_END();
}
