/*
 * The row-level change interface (dml.h). Inserts go through the public write and commit API
 * (include/cpaimon/write.h, commit.h); updates and deletes wait for the table layer's update API
 * and report PAIMON_EUNSUPPORTED until it lands.
 */
#include "sql/dml.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/status.h"
#include "cpaimon/commit.h"
#include "cpaimon/write.h"

struct cp_dml {
  paimon_table *table;
  cp_dml_kind kind;
  int64_t base_snapshot;
  paimon_write *write; /* created on the first insert */
};

static const char *verb(cp_dml_kind kind) {
  switch (kind) {
  case CP_DML_INSERT: return "INSERT";
  case CP_DML_UPDATE: return "UPDATE";
  case CP_DML_DELETE: return "DELETE";
  case CP_DML_MERGE: return "MERGE INTO";
  }
  return "DML";
}

int cp_dml_begin(cp_dml **out, paimon_table *table, cp_dml_kind kind, int64_t base_snapshot,
                 paimon_error *err) {
  cp_dml *d = calloc(1, sizeof *d);
  if (!d) return CP_ENOMEM(err, "DML");
  d->table = table;
  d->kind = kind;
  d->base_snapshot = base_snapshot;
  *out = d;
  return PAIMON_OK;
}

int cp_dml_insert(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err) {
  if (!d->write) CP_RETURN_IF_ERROR(paimon_write_new(&d->write, d->table, NULL, 0, err));
  return paimon_write_batch(d->write, schema, batch, err);
}

static int not_yet(const cp_dml *d, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "%s on %s is not supported yet: updating and deleting rows needs the "
                          "table layer's update API",
                          verb(d->kind), paimon_table_name(d->table));
}

int cp_dml_update(cp_dml *d, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                  paimon_error *err) {
  (void)schema;
  (void)batch;
  return not_yet(d, err);
}

int cp_dml_delete(cp_dml *d, const int64_t *row_ids, size_t n, paimon_error *err) {
  (void)row_ids;
  (void)n;
  return not_yet(d, err);
}

int cp_dml_commit(cp_dml *d, int64_t *snapshot_id, paimon_error *err) {
  if (snapshot_id) *snapshot_id = 0;
  if (!d->write) return PAIMON_OK;
  paimon_commit_messages *msgs = NULL;
  paimon_commit *commit = NULL;
  int rc = paimon_write_prepare_commit(d->write, &msgs, err);
  if (!rc) rc = paimon_commit_new(&commit, d->table, err);
  if (!rc) rc = paimon_commit_commit(commit, msgs, err);
  if (!rc && snapshot_id) *snapshot_id = paimon_commit_last_snapshot_id(commit);
  /* Files of a commit that failed are not referenced by any snapshot: delete them. */
  if (rc && msgs && commit) paimon_commit_abort(commit, msgs, NULL);
  paimon_commit_free(commit);
  paimon_commit_messages_free(msgs);
  return rc;
}

void cp_dml_free(cp_dml *d) {
  if (!d) return;
  paimon_write_free(d->write);
  free(d);
}
