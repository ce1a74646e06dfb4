/* The global-index.column-update-action check of a commit (global_index.h). */
#include "table/global_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "meta/options.h"
#include "table/commit_message.h"
#include "table/file_store.h"
#include "table/table.h"

#define ACTION_KEY "global-index.column-update-action"

typedef enum action { THROW_ERROR, DROP_PARTITION_INDEX, IGNORE } action;

/* Java parses enum options ignoring case (OptionsUtil.convertToEnum). */
static int parse_action(const paimon_table *t, action *out, paimon_error *err) {
  static const char *const names[] = {"THROW_ERROR", "DROP_PARTITION_INDEX", "IGNORE"};
  const char *v = cp_options_get(&t->schema->options, ACTION_KEY);
  *out = THROW_ERROR;
  if (!v) return PAIMON_OK;
  for (int i = 0; i < 3; i++)
    if (strcasecmp(v, names[i]) == 0) {
      *out = (action)i;
      return PAIMON_OK;
    }
  return paimon_error_set(err, PAIMON_EINVAL,
                          "table %s: Could not parse value '%s' for key '%s' (THROW_ERROR, "
                          "DROP_PARTITION_INDEX or IGNORE).",
                          t->full_name, v, ACTION_KEY);
}

/* A set of names as a list ("a, b"), kept in first-seen order. */
typedef struct names {
  const char **items;
  size_t n, cap;
} names;

static int names_add(names *s, const char *name, paimon_error *err) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->items[i], name) == 0) return PAIMON_OK;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    const char **grown = realloc(s->items, cap * sizeof *grown);
    if (!grown) return CP_ENOMEM(err, "global index check");
    s->items = grown;
    s->cap = cap;
  }
  s->items[s->n++] = name;
  return PAIMON_OK;
}

static bool names_has(const names *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->items[i], name) == 0) return true;
  return false;
}

static void names_text(const names *s, char *buf, size_t cap) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->n && at < cap; i++)
    at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", s->items[i]);
}

static bool same_partition(cp_bytes a, cp_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* The name of table field `id` in the current schema, or NULL. */
static const char *field_name(const paimon_table *t, int32_t id) {
  const cp_type *row = t->schema->row;
  for (size_t i = 0; i < row->n_fields; i++)
    if (row->fields[i].id == id) return row->fields[i].name;
  return NULL;
}

/* Whether the update touches an indexed field of `e`; adds the ones it touches to `hit`. */
static int overlaps(const paimon_table *t, const cp_index_manifest_entry *e, const names *updated,
                    names *hit, bool *out, paimon_error *err) {
  const cp_global_index_meta *g = &e->global_index;
  *out = false;
  for (size_t k = 0; k <= g->n_extra_field_ids; k++) {
    int32_t id = k == 0 ? g->index_field_id : g->extra_field_ids[k - 1];
    const char *name = field_name(t, id);
    if (!name || !names_has(updated, name)) continue;
    *out = true;
    CP_RETURN_IF_ERROR(names_add(hit, name, err));
  }
  return PAIMON_OK;
}

/* The columns the updates among `msgs` rewrite (write_cols of their partial files). */
static int updated_columns(const paimon_commit_messages *msgs, names *cols, paimon_error *err) {
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    if (m->check_from_snapshot < 0) continue;
    for (size_t j = 0; j < m->n_new; j++) {
      const cp_data_file_meta *f = &m->new_files[j];
      if (!f->has_write_cols) continue;
      for (size_t k = 0; k < f->write_cols.n; k++)
        CP_RETURN_IF_ERROR(names_add(cols, f->write_cols.items[k], err));
    }
  }
  return PAIMON_OK;
}

/* Whether those updates write to partition `p`. */
static bool written(const paimon_commit_messages *msgs, cp_bytes p) {
  for (size_t i = 0; i < msgs->n; i++) {
    const cp_commit_message *m = &msgs->items[i];
    if (m->check_from_snapshot < 0) continue;
    for (size_t j = 0; j < m->n_new; j++)
      if (m->new_files[j].has_write_cols && same_partition(m->partition, p)) return true;
  }
  return false;
}

int cp_global_index_update_action(paimon_table *t, const paimon_commit_messages *msgs,
                                  const cp_snapshot *latest, cp_arena *arena,
                                  cp_index_entry_vec *deletes, paimon_error *err) {
  if (!latest || !latest->index_manifest) return PAIMON_OK;
  for (size_t i = 0; i < msgs->n; i++)
    if (msgs->items[i].n_index_deletes) return PAIMON_OK;
  action act;
  CP_RETURN_IF_ERROR(parse_action(t, &act, err));
  if (act == IGNORE) return PAIMON_OK;
  names updated = {0}, hit = {0};
  cp_index_entry_vec idx = {0};
  int rc = updated_columns(msgs, &updated, err);
  if (!rc && updated.n) rc = cp_snapshot_index_entries(t->fs, t->path, latest, arena, &idx, err);
  for (size_t i = 0; !rc && i < idx.n; i++) {
    const cp_index_manifest_entry *e = &idx.items[i];
    bool touched = false;
    if (!e->has_global_index || !written(msgs, e->partition)) continue;
    rc = overlaps(t, e, &updated, &hit, &touched, err);
    if (!rc && touched && act == DROP_PARTITION_INDEX) {
      cp_index_manifest_entry del = *e;
      del.kind = CP_FILE_KIND_DELETE;
      rc = cp_index_entry_vec_push(deletes, &del, err);
    }
  }
  if (!rc && hit.n && act == THROW_ERROR) {
    char u[512], c[512];
    names_text(&updated, u, sizeof u);
    names_text(&hit, c, sizeof c);
    rc = paimon_error_set(err, PAIMON_ESTATE,
                          "table %s: Update columns contain globally indexed columns, not "
                          "supported now. Updated columns: [%s]. Conflicted columns: [%s]. (%s "
                          "is THROW_ERROR; DROP_PARTITION_INDEX drops the affected index "
                          "entries, IGNORE keeps them)",
                          t->full_name, u, c, ACTION_KEY);
  }
  free(updated.items);
  free(hit.items);
  cp_index_entry_vec_free(&idx);
  return rc;
}
