/*
 * The row-level change interface (dml.h), on the table layer's APIs:
 *  - inserts: include/cpaimon/write.h (or rowops on tables that also change rows, so that the
 *    inserted rows commit with the changes);
 *  - updates on data-evolution tables: include/cpaimon/update.h (partial-column files per touched
 *    row-id group, pinned to the statement's base snapshot for conflict checks);
 *  - updates on other row-tracking tables and every delete: include/cpaimon/rowops.h
 *    (copy-on-write with _ROW_ID kept and changed rows' _SEQUENCE_NUMBER NULL, or deletion
 *    vectors);
 * and everything commits as one snapshot through include/cpaimon/commit.h.
 */
#include "sql/dml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "base/status.h"
#include "cpaimon/commit.h"
#include "cpaimon/rowops.h"
#include "cpaimon/update.h"
#include "cpaimon/write.h"

struct cp_dml {
  paimon_table *table;
  cp_dml_kind kind;
  int64_t base_snapshot;
  bool data_evolution;
  paimon_write *write;            /* inserts when no row changes are pending */
  paimon_row_changes *changes;    /* deletes, copy-on-write updates (and inserts after them) */
  paimon_commit_messages *update; /* data-evolution partial-column updates */
  bool overwrite;                 /* INSERT OVERWRITE with the static spec below (borrowed) */
  const char *const *ow_keys;
  const char *const *ow_values;
  size_t ow_n;
};

void cp_dml_set_overwrite(cp_dml *d, const char *const *keys, const char *const *values, size_t n) {
  d->overwrite = true;
  d->ow_keys = keys;
  d->ow_values = values;
  d->ow_n = n;
}

int cp_dml_begin(cp_dml **out, paimon_table *table, cp_dml_kind kind, int64_t base_snapshot,
                 paimon_error *err) {
  cp_dml *d = calloc(1, sizeof *d);
  if (!d) return CP_ENOMEM(err, "DML");
  d->table = table;
  d->kind = kind;
  d->base_snapshot = base_snapshot;
  const char *de = paimon_table_option(table, "data-evolution.enabled");
  d->data_evolution = de && strcmp(de, "true") == 0;
  *out = d;
  return PAIMON_OK;
}

static int changes(cp_dml *d, paimon_error *err) {
  if (d->changes) return PAIMON_OK;
  return paimon_row_changes_new(&d->changes, d->table, d->base_snapshot, err);
}

int cp_dml_insert(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err) {
  /* MERGE on a copy-on-write table: new rows go with the row changes (one set of files). */
  if (d->changes && !d->data_evolution)
    return paimon_row_changes_insert(d->changes, schema, batch, err);
  if (!d->write) CP_RETURN_IF_ERROR(paimon_write_new(&d->write, d->table, NULL, 0, err));
  return paimon_write_batch(d->write, schema, batch, err);
}

/* Data-evolution UPDATE: partial-column files for the columns the batch carries. */
static int update_data_evolution(cp_dml *d, const struct ArrowSchema *schema,
                                 const struct ArrowArray *batch, paimon_error *err) {
  const char *cols[256];
  size_t n = 0;
  for (int64_t i = 0; i < schema->n_children && n < 256; i++)
    if (strcmp(schema->children[i]->name, "_ROW_ID") != 0) cols[n++] = schema->children[i]->name;
  paimon_update *u = NULL;
  paimon_commit_messages *msgs = NULL;
  int rc = paimon_update_new(&u, d->table, err);
  if (!rc && d->base_snapshot > 0) rc = paimon_update_set_snapshot(u, d->base_snapshot, err);
  if (!rc) rc = paimon_update_set_update_cols(u, cols, n, err);
  if (!rc) rc = paimon_update_by_row_id(u, schema, batch, &msgs, err);
  if (!rc && !d->update) rc = paimon_commit_messages_new(&d->update, err);
  if (!rc) rc = paimon_commit_messages_append(d->update, msgs, err);
  paimon_commit_messages_free(msgs);
  paimon_update_free(u);
  return rc;
}

int cp_dml_update(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err) {
  if (batch->length == 0) return PAIMON_OK;
  if (d->data_evolution) return update_data_evolution(d, schema, batch, err);
  CP_RETURN_IF_ERROR(changes(d, err));
  return paimon_row_changes_update(d->changes, schema, batch, err);
}

int cp_dml_delete(cp_dml *d, const int64_t *row_ids, size_t n, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(changes(d, err));
  return paimon_row_changes_delete(d->changes, row_ids, n, err);
}

/* Appends the messages of `src` (freed) to `all`. */
static int take(paimon_commit_messages *all, paimon_commit_messages *src, paimon_error *err) {
  int rc = src ? paimon_commit_messages_append(all, src, err) : PAIMON_OK;
  paimon_commit_messages_free(src);
  return rc;
}

int cp_dml_commit(cp_dml *d, int64_t *snapshot_id, paimon_error *err) {
  if (snapshot_id) *snapshot_id = 0;
  paimon_commit_messages *all = NULL, *part = NULL;
  paimon_commit *commit = NULL;
  int rc = paimon_commit_messages_new(&all, err);
  if (!rc && d->write) {
    rc = paimon_write_prepare_commit(d->write, &part, err);
    if (!rc) rc = take(all, part, err);
  }
  if (!rc && d->changes) {
    part = NULL;
    rc = paimon_row_changes_prepare_commit(d->changes, &part, err);
    if (!rc) rc = take(all, part, err);
  }
  if (!rc && d->update) {
    rc = take(all, d->update, err);
    d->update = NULL;
  }
  if (!rc) rc = paimon_commit_new(&commit, d->table, err);
  if (!rc && d->overwrite)
    rc = paimon_commit_set_overwrite(commit, PAIMON_OVERWRITE_STATIC, d->ow_keys, d->ow_values,
                                     d->ow_n, err);
  /* One snapshot for the whole statement; none when nothing changed. */
  if (!rc) rc = paimon_commit_commit(commit, all, err);
  if (!rc && snapshot_id) *snapshot_id = paimon_commit_last_snapshot_id(commit);
  /* Files of a commit that failed are not referenced by any snapshot: delete them. */
  if (rc && all && commit) paimon_commit_abort(commit, all, NULL);
  paimon_commit_free(commit);
  paimon_commit_messages_free(all);
  return rc;
}

void cp_dml_free(cp_dml *d) {
  if (!d) return;
  paimon_write_free(d->write);
  paimon_row_changes_free(d->changes);
  if (d->update) { /* prepared but never committed: its files are orphans, delete them */
    paimon_commit *c = NULL;
    if (paimon_commit_new(&c, d->table, NULL) == 0) paimon_commit_abort(c, d->update, NULL);
    paimon_commit_free(c);
    paimon_commit_messages_free(d->update);
  }
  free(d);
}
