/* Tests for the table checker behind `cpaimon check` (src/table/check.h): clean tables pass, and
 * each kind of damage — a missing or resized data file, an unreadable manifest, a bad LATEST hint,
 * a gap in the snapshot chain, overlapping or out-of-range row ids, an unknown schema id, a
 * deletion vector past its file's end, on a non-anchor file, naming a file that is not live, with
 * a wrong cardinality, or duplicated across index files — is reported as its own violation. The
 * damaged states are made by committing crafted messages (the committer does not check what a
 * writer claims) or by editing files on disk. */
#include "arrow/schema.h"
#include "cpaimon/delete.h"
#include "meta/binary_row.h"
#include "dv_test_util.h"
#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/file_store.h"
#include "table/store.h"

static const char *rt_opts[] = {"row-tracking.enabled=true"};
static const char *de_dv[] = {"row-tracking.enabled=true", "data-evolution.enabled=true",
                              "deletion-vectors.enabled=true"};

/* Runs the checker and requires a violation containing each of `needles` (NULL-terminated). */
static void expect_violations(paimon_table *t, const char *const *needles) {
  paimon_error err;
  cp_check_report rep;
  memset(&rep, 0, sizeof rep);
  CHECK_OK(cp_table_check(t->catalog, t->database, t->name, NULL, &rep, &err), &err);
  for (const char *const *n = needles; *n; n++) {
    bool found = false;
    for (size_t i = 0; i < rep.n_violations && !found; i++)
      found = strstr(rep.violations[i], *n) != NULL;
    CHECK(found);
    if (!found) {
      fprintf(stderr, "  no violation contains \"%s\"; got %zu:\n", *n, rep.n_violations);
      for (size_t i = 0; i < rep.n_violations; i++) fprintf(stderr, "    %s\n", rep.violations[i]);
    }
  }
  CHECK(rep.n_violations > 0);
  cp_check_report_free(&rep);
}

/* The path of the single live data file of the latest snapshot matching `index` (0-based). */
static char *live_file_path(paimon_table *t, size_t index, cp_manifest_entry *entry_out) {
  paimon_error err;
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  char *path = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, tu_latest(t), &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &files, &err), &err);
  if (index < files.n) {
    CHECK_OK(cp_data_file_path(t, files.items[index].partition, files.items[index].bucket,
                               &files.items[index].file, &path, &err),
             &err);
    if (entry_out) *entry_out = files.items[index]; /* strings dangle after return: names only */
  }
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  return path;
}

static void test_clean_tables(void) {
  paimon_table *t = tu_table("chk_clean", "dt", de_dv, 3);
  if (!t) return;
  tu_check_clean(t); /* no snapshot at all */
  int ids[] = {1, 2, 3, 4};
  const char *dts[] = {"a", "b", "a", "b"};
  tu_append(t, 4, ids, NULL, dts);
  tu_append(t, 4, ids, NULL, dts);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {0, 5, 7};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 3, &m, &err), &err);
  tu_commit(t, m, NULL);
  paimon_table *t2 = NULL;
  tu_check_clean(t);
  cp_check_report rep;
  memset(&rep, 0, sizeof rep);
  CHECK_OK(cp_table_check(t->catalog, "db", "chk_clean", NULL, &rep, &err), &err);
  CHECK_INT(rep.snapshots, 3);
  CHECK_INT(rep.data_files, 4);
  CHECK_INT(rep.dvs, 3);
  CHECK_INT(rep.rows, 5);
  cp_check_report_free(&rep);
  CHECK_ERR(cp_table_check(t->catalog, "db", "nope", NULL, &rep, &err), PAIMON_ENOTFOUND);
  paimon_table_free(t2);
  paimon_table_free(t);
}

static void test_missing_and_resized_files(void) {
  paimon_table *t = tu_table("chk_files", NULL, rt_opts, 1);
  if (!t) return;
  int ids[] = {1, 2};
  tu_append(t, 2, ids, NULL, NULL);
  tu_append(t, 2, ids, NULL, NULL);
  char *a = live_file_path(t, 0, NULL), *b = live_file_path(t, 1, NULL);
  if (!a || !b) return;
  CHECK(unlink(a) == 0);
  FILE *f = fopen(b, "ab");
  if (f) {
    fputs("junk", f);
    fclose(f);
  }
  const char *want[] = {"is missing", "bytes, its manifest entry says", NULL};
  expect_violations(t, want);
  free(a);
  free(b);
  paimon_table_free(t);
}

static void test_snapshot_chain_and_hints(void) {
  paimon_table *t = tu_table("chk_chain", NULL, rt_opts, 1);
  if (!t) return;
  int ids[] = {1};
  for (int i = 0; i < 3; i++) tu_append(t, 1, ids, NULL, NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/snapshot/snapshot-2", t->path);
  CHECK(unlink(path) == 0);
  snprintf(path, sizeof path, "%s/snapshot/LATEST", t->path);
  FILE *f = fopen(path, "w");
  if (f) {
    fputs("99", f);
    fclose(f);
  }
  const char *want[] = {"snapshots 2 .. 2 are missing", NULL};
  expect_violations(t, want);
  /* a hint gone wrong is a warning: Paimon's hints are advisory (readers list instead) */
  paimon_error err;
  cp_check_report rep;
  memset(&rep, 0, sizeof rep);
  CHECK_OK(cp_table_check(t->catalog, t->database, t->name, NULL, &rep, &err), &err);
  CHECK_INT(rep.n_warnings, 1);
  if (rep.n_warnings) CHECK_CONTAINS(rep.warnings[0], "LATEST hint names snapshot 99");
  for (size_t i = 0; i < rep.n_violations; i++) CHECK(!strstr(rep.violations[i], "hint"));
  cp_check_report_free(&rep);
  paimon_table_free(t);
}

static void test_unreadable_manifest(void) {
  paimon_table *t = tu_table("chk_manifest", NULL, rt_opts, 1);
  if (!t) return;
  int ids[] = {1};
  tu_append(t, 1, ids, NULL, NULL);
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 1, &s, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_manifest_meta_vec metas = {0};
  if (s)
    CHECK_OK(cp_read_manifest_list(t->fs, t->path, s->delta_manifest_list, &arena, &metas, &err),
             &err);
  if (metas.n) {
    char path[512];
    snprintf(path, sizeof path, "%s/manifest/%s", t->path, metas.items[0].file_name);
    FILE *f = fopen(path, "wb");
    if (f) {
      fputs("not avro", f);
      fclose(f);
    }
  }
  const char *want[] = {"is unreadable", NULL};
  expect_violations(t, want);
  cp_manifest_meta_vec_free(&metas);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  paimon_table_free(t);
}

/* Appends one file whose metadata is edited by `edit` before the commit. */
static void commit_edited(paimon_table *t, int n, const int *ids,
                          void (*edit)(cp_data_file_meta *f)) {
  paimon_commit_messages *m = tu_write(t, n, ids, NULL, NULL);
  if (!m || m->n != 1) return;
  edit(&m->items[0].new_files[0]);
  paimon_error err;
  int64_t id = tu_commit(t, m, &err);
  CHECK(id > 0);
}

static void at_zero(cp_data_file_meta *f) {
  f->has_first_row_id = true;
  f->first_row_id = 0;
}
static void far_away(cp_data_file_meta *f) {
  f->has_first_row_id = true;
  f->first_row_id = 1000;
}
static void bad_schema(cp_data_file_meta *f) { f->schema_id = 7; }

static void test_row_ids_and_schema_ids(void) {
  paimon_table *t = tu_table("chk_rowids", NULL, rt_opts, 1);
  paimon_table *u = tu_table("chk_schema", NULL, rt_opts, 1);
  if (!t || !u) return;
  int ids[] = {1, 2, 3};
  tu_append(t, 3, ids, NULL, NULL);
  commit_edited(t, 2, ids, at_zero);  /* [0, 1] again */
  commit_edited(t, 1, ids, far_away); /* [1000, 1000] >= nextRowId */
  const char *want[] = {"have overlapping row ids", "_ROW_ID 0 is visible more than once",
                        "are not below nextRowId", NULL};
  expect_violations(t, want);
  commit_edited(u, 1, ids, bad_schema);
  const char *want2[] = {"schema 7 does not exist", NULL};
  expect_violations(u, want2);
  paimon_table_free(t);
  paimon_table_free(u);
}

/* Writes an index file with the given DVs (data file name, one position each) and commits it as
 * an index add for the unpartitioned bucket 0; `cardinality` overrides the meta when >= 0. */
static void commit_dv_rc(paimon_table *t, const char *name, const char *const *files,
                         const int64_t *positions, size_t n, int64_t cardinality, int want) {
  paimon_error err;
  cp_dv *dvs[4] = {NULL};
  cp_dv_slot slots[4];
  for (size_t i = 0; i < n; i++) {
    CHECK_OK(cp_dv_new(&dvs[i], &err), &err);
    CHECK_OK(cp_dv_add(dvs[i], positions[i], NULL, &err), &err);
    slots[i] = (cp_dv_slot){files[i], dvs[i], 0, 0, 0};
  }
  cp_buf bytes = CP_BUF_INIT;
  CHECK_OK(cp_dv_index_write(slots, n, &bytes, &err), &err);
  char path[512];
  snprintf(path, sizeof path, "%s/index/%s", t->path, name);
  CHECK_OK(cp_fs_write_file(t->fs, path, bytes.data, bytes.len, CP_CREATE_EXCLUSIVE, false, &err),
           &err);
  cp_dv_meta metas[4];
  for (size_t i = 0; i < n; i++)
    metas[i] = (cp_dv_meta){files[i], slots[i].offset, slots[i].length, true,
                            cardinality >= 0 ? cardinality : slots[i].cardinality};
  cp_index_manifest_entry e;
  memset(&e, 0, sizeof e);
  e.partition = (cp_bytes){cp_binary_row_empty, 12};
  e.index_type = CP_DV_INDEX_TYPE;
  e.file_name = name;
  e.file_size = (int64_t)bytes.len;
  e.row_count = (int64_t)n;
  e.has_dv_ranges = true;
  e.dv_ranges = metas;
  e.n_dv_ranges = n;
  cp_commit_message msg;
  memset(&msg, 0, sizeof msg);
  msg.partition = e.partition;
  msg.total_buckets = -1;
  msg.index_adds = &e;
  msg.n_index_adds = 1;
  msg.check_from_snapshot = -1;
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_commit_messages_new(&m, &err), &err);
  CHECK_OK(cp_commit_messages_add(m, &msg, &err), &err);
  int64_t rc = tu_commit(t, m, &err);
  if (want)
    CHECK_INT(rc, want);
  else
    CHECK(rc > 0);
  cp_buf_free(&bytes);
  for (size_t i = 0; i < n; i++) cp_dv_free(dvs[i]);
}

static void commit_dv(paimon_table *t, const char *name, const char *const *files,
                      const int64_t *positions, size_t n, int64_t cardinality) {
  commit_dv_rc(t, name, files, positions, n, cardinality, 0);
}

/* The base names of the latest snapshot's live data files, in manifest order. */
static int live_names(paimon_table *t, char names[][128], int max) {
  paimon_error err;
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  CHECK_OK(cp_snapshot_load(t->fs, t->path, tu_latest(t), &s, &err), &err);
  if (s) CHECK_OK(cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &files, &err), &err);
  int n = 0;
  for (size_t i = 0; i < files.n && n < max; i++)
    snprintf(names[n++], 128, "%s", files.items[i].file.file_name);
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  return n;
}

static void commit_dv_expect_conflict(paimon_table *t, const char *const *files,
                                      const int64_t *positions) {
  int64_t before = tu_latest(t);
  commit_dv_rc(t, "index-dup", files, positions, 1, -1, PAIMON_ECONFLICT);
  CHECK_INT(tu_latest(t), before);
}

/* Rewrites the latest index manifest with its last entry listed twice (as "index-dup", a link to
 * that index file). */
static void duplicate_index_entry(paimon_table *t) {
  paimon_error err;
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, tu_latest(t), &s, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  if (s) CHECK_OK(cp_snapshot_index_entries(t->fs, t->path, s, &arena, &idx, &err), &err);
  if (idx.n) {
    cp_index_manifest_entry dup = idx.items[idx.n - 1];
    char from[512], to[512];
    snprintf(from, sizeof from, "%s/index/%s", t->path, dup.file_name);
    snprintf(to, sizeof to, "%s/index/index-dup2", t->path);
    CHECK_OK(cp_fs_link(t->fs, from, to, &err), &err);
    dup.file_name = "index-dup2";
    CHECK_OK(cp_index_entry_vec_push(&idx, &dup, &err), &err);
    cp_buf bytes = CP_BUF_INIT;
    cp_manifest_write_options opts = {.codec = "zstandard", .level = 1};
    CHECK_OK(cp_index_manifest_encode(idx.items, idx.n, &opts, &bytes, &err), &err);
    char path[512];
    snprintf(path, sizeof path, "%s/manifest/%s", t->path, s->index_manifest);
    CHECK_OK(cp_fs_write_file(t->fs, path, bytes.data, bytes.len, CP_CREATE_OVERWRITE, false, &err),
             &err);
    cp_buf_free(&bytes);
  }
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
}

static void test_deletion_vector_damage(void) {
  const char *rt_dv[] = {"row-tracking.enabled=true", "deletion-vectors.enabled=true"};
  paimon_table *t = tu_table("chk_dv", NULL, rt_dv, 2);
  if (!t) return;
  int ids[] = {1, 2, 3, 4, 5};
  tu_append(t, 5, ids, NULL, NULL);
  tu_append(t, 2, ids, NULL, NULL);
  char names[4][128];
  CHECK_INT(live_names(t, names, 4), 2);
  const char *f0[] = {names[0]}, *f1[] = {names[1]};
  int64_t past[] = {50}, one[] = {1};
  commit_dv(t, "index-past", f0, past, 1, -1); /* position 50 of a 5-row file */
  commit_dv(t, "index-card", f1, one, 1, 9);   /* cardinality 9 recorded, 1 stored */
  /* A second index file for the same data file: the committer refuses it (in a later commit and
   * in the same one), so the damage is made on disk by listing index-card twice. */
  commit_dv_expect_conflict(t, f1, one);
  duplicate_index_entry(t);
  const char *want[] = {"deletes position 50, past the file's 5 rows",
                        "holds 1 rows, its meta says 9",
                        "has deletion vectors in two live index files", NULL};
  expect_violations(t, want);
  paimon_table_free(t);
}

/* On a data-evolution table a DV must belong to the group's anchor (§2.6). */
static void test_dv_on_non_anchor(void) {
  paimon_table *t = tu_table("chk_anchor", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2};
  tu_append(t, 2, ids, NULL, NULL);
  /* A partial-column file over the same rows (newer sequence): the anchor stays the old one. */
  paimon_error err;
  paimon_write *w = NULL;
  const char *cols[] = {"age"};
  CHECK_OK(paimon_write_new(&w, t, cols, 1, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray a;
  CHECK_OK(cp_schema_init(&s, "+s", "", 0, 1, &err), &err);
  CHECK_OK(cp_schema_init(s.children[0], "i", "age", ARROW_FLAG_NULLABLE, 0, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, &s, &err), &err);
  for (int i = 0; i < 2; i++) {
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 0), 7, &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  cp_builder_free(b);
  CHECK_OK(paimon_write_batch(w, &s, &a, &err), &err);
  paimon_commit_messages *m = NULL;
  CHECK_OK(paimon_write_prepare_commit(w, &m, &err), &err);
  if (m && m->n == 1) {
    m->items[0].new_files[0].has_first_row_id = true;
    m->items[0].new_files[0].first_row_id = 0;
  }
  CHECK(tu_commit(t, m, &err) > 0);
  paimon_write_free(w);
  s.release(&s);
  a.release(&a);
  char names[4][128];
  CHECK_INT(live_names(t, names, 4), 2);
  const char *update_file[] = {names[1]};
  int64_t pos[] = {0};
  commit_dv(t, "index-wrong-anchor", update_file, pos, 1, -1);
  const char *want[] = {"its group's anchor is", NULL};
  expect_violations(t, want);
  paimon_table_free(t);
}

/* A DV naming a data file that is not live (the index manifest edited on disk). */
static void test_dv_naming_dead_file(void) {
  paimon_table *t = tu_table("chk_ghost", NULL, de_dv, 3);
  if (!t) return;
  int ids[] = {1, 2};
  tu_append(t, 2, ids, NULL, NULL);
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int64_t del[] = {1};
  CHECK_OK(paimon_delete_by_row_ids(t, del, 1, &m, &err), &err);
  tu_commit(t, m, NULL);
  cp_snapshot *s = NULL;
  CHECK_OK(cp_snapshot_load(t->fs, t->path, 2, &s, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  if (s) CHECK_OK(cp_snapshot_index_entries(t->fs, t->path, s, &arena, &idx, &err), &err);
  if (idx.n == 1 && idx.items[0].n_dv_ranges == 1) {
    cp_dv_meta meta = idx.items[0].dv_ranges[0];
    meta.data_file = "ghost.parquet";
    idx.items[0].dv_ranges = &meta;
    cp_buf bytes = CP_BUF_INIT;
    cp_manifest_write_options opts = {.codec = "zstandard", .level = 1};
    CHECK_OK(cp_index_manifest_encode(idx.items, 1, &opts, &bytes, &err), &err);
    char path[512];
    snprintf(path, sizeof path, "%s/manifest/%s", t->path, s->index_manifest);
    CHECK_OK(cp_fs_write_file(t->fs, path, bytes.data, bytes.len, CP_CREATE_OVERWRITE, false, &err),
             &err);
    cp_buf_free(&bytes);
  }
  const char *want[] = {"deletion vector of ghost.parquet, which is not a live data file", NULL};
  expect_violations(t, want);
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  paimon_table_free(t);
}

int main(void) {
  if (tu_open("check")) return 1;
  RUN(test_clean_tables);
  RUN(test_missing_and_resized_files);
  RUN(test_snapshot_chain_and_hints);
  RUN(test_unreadable_manifest);
  RUN(test_row_ids_and_schema_ids);
  RUN(test_deletion_vector_damage);
  RUN(test_dv_on_non_anchor);
  RUN(test_dv_naming_dead_file);
  paimon_catalog_free(tu_cat);
  TEST_MAIN_END();
}
