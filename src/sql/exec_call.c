/*
 * CALL statements (docs/sql.md, "Procedures"): Paimon's Spark procedures with Spark's names,
 * parameters and result columns (paimon-spark's CreateTagProcedure, RollbackProcedure, ...),
 * over include/cpaimon/history.h. Arguments are named (`table => 'db.t'`) or positional, in the
 * procedure's parameter order; the `sys.` prefix (and a catalog before it) may be left out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "base/time.h"
#include "cpaimon/compact.h"
#include "cpaimon/history.h"
#include "cpaimon/predicate.h"
#include "expr/predicate.h"
#include "sql/bind_internal.h"
#include "sql/exec.h"
#include "sql/parser.h"
#include "sql/rel.h"
#include "sql/result_table.h"
#include "table/system_table.h"
#include "table/table.h"

#define MAX_PARAMS 8

typedef struct proc_param {
  const char *name;
  char type; /* 's' string, 'l' BIGINT */
  bool required;
} proc_param;

/* The arguments bound to a procedure's parameters (NULL: not given, or NULL). */
typedef struct call_args {
  const char *text[MAX_PARAMS];
  int64_t num[MAX_PARAMS];
  cp_sql_pos pos;
} call_args;

typedef struct procedure {
  const char *name;
  proc_param params[MAX_PARAMS];
  size_t n_params;
  int (*run)(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
             paimon_error *err);
} procedure;

/* A one-row result of BIGINT columns `names` (the values in `v`), or of the boolean `result`
 * column when `names` is NULL (the tag procedures' `true`). */
static int result_row(const char *const *names, const int64_t *v, size_t n, cp_sql_result *out,
                      paimon_error *err) {
  static const char *const result[] = {"result"}, *const b[] = {"b"};
  static const char *const l[] = {"l", "l"};
  char text[2][24];
  const char *cells[2] = {"true", NULL};
  for (size_t i = 0; names && i < n; i++) {
    snprintf(text[i], sizeof text[i], "%" PRId64, v[i]);
    cells[i] = text[i];
  }
  cp_sql_text_table tt;
  int rc =
      cp_sql_text_table_init_typed(&tt, names ? names : result, names ? l : b, names ? n : 1, err);
  if (!rc) rc = cp_sql_text_table_row(&tt, cells, err);
  if (!rc) rc = cp_sql_text_table_finish(&tt, out, err);
  cp_sql_text_table_free(&tt);
  return rc;
}

static int result_true(cp_sql_result *out, paimon_error *err) {
  return result_row(NULL, NULL, 0, out, err);
}

/* RollbackProcedure's row: the latest snapshot before, the snapshot rolled back to. */
static int result_rollback(int64_t previous, int64_t current, cp_sql_result *out,
                           paimon_error *err) {
  static const char *const names[] = {"previous_snapshot_id", "current_snapshot_id"};
  const int64_t v[] = {previous, current};
  return result_row(names, v, 2, out, err);
}

/* An `older_than` argument: a local date-time ("2026-12-01 10:00:00") as epoch milliseconds, as
 * Java's DateTimeUtils.parseTimestampData in the default zone; 0 when not given. */
static int older_than_arg(const call_args *a, int i, int64_t *ms, paimon_error *err) {
  *ms = 0;
  if (!a->text[i] || !*a->text[i]) return PAIMON_OK;
  int64_t local;
  CP_RETURN_IF_ERROR(
      cp_parse_timestamp(a->text[i], strlen(a->text[i]), CP_UNIT_MILLI, &local, err));
  *ms = cp_java_epoch_millis(local);
  return PAIMON_OK;
}

static int retention(const call_args *a, int i, int64_t *ms, paimon_error *err) {
  *ms = -1;
  return a->text[i] ? paimon_parse_duration(a->text[i], ms, err) : PAIMON_OK;
}

static int create_tag(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                      paimon_error *err) {
  int64_t ms;
  CP_RETURN_IF_ERROR(retention(a, 3, &ms, err));
  CP_RETURN_IF_ERROR(
      paimon_table_create_tag(t, a->text[1], a->text[2] ? a->num[2] : 0, ms, false, err));
  return result_true(out, err);
}

static int replace_tag(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                       paimon_error *err) {
  int64_t ms;
  CP_RETURN_IF_ERROR(retention(a, 3, &ms, err));
  CP_RETURN_IF_ERROR(paimon_table_replace_tag(t, a->text[1], a->text[2] ? a->num[2] : 0, ms, err));
  return result_true(out, err);
}

/* Table.deleteTags: a comma-separated list. */
static int delete_tag(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                      paimon_error *err) {
  char *names = strdup(a->text[1]), *save = NULL;
  if (!names) return CP_ENOMEM(err, "CALL");
  int rc = PAIMON_OK;
  for (char *n = strtok_r(names, ",", &save); !rc && n; n = strtok_r(NULL, ",", &save))
    rc = paimon_table_delete_tag(t, n, NULL, err);
  free(names);
  return rc ? rc : result_true(out, err);
}

static int rename_tag(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                      paimon_error *err) {
  CP_RETURN_IF_ERROR(paimon_table_rename_tag(t, a->text[1], a->text[2], err));
  return result_true(out, err);
}

static bool digits(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

static int latest_or_fail(paimon_table *t, int64_t *id, paimon_error *err) {
  CP_RETURN_IF_ERROR(paimon_table_latest_snapshot_id(t, id, err));
  if (*id <= 0)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Latest snapshot is null, can not rollback.");
  return PAIMON_OK;
}

/* rollback(table, version | snapshot | tag): a version of digits is a snapshot id, else a tag. */
static int rollback_as(bool as_latest, paimon_table *t, const call_args *a, cp_sql_result *out,
                       paimon_error *err) {
  int given = (a->text[1] && *a->text[1]) + (a->text[2] != NULL) + (a->text[3] != NULL);
  if (given != 1)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "only can set one of version/snapshot/tag in RollbackProcedure.");
  int64_t previous, current;
  CP_RETURN_IF_ERROR(latest_or_fail(t, &previous, err));
  const char *tag = a->text[3];
  if (a->text[1] && !digits(a->text[1])) tag = a->text[1];
  if (tag) {
    paimon_tag g;
    CP_RETURN_IF_ERROR(paimon_table_get_tag(t, tag, &g, err));
    current = g.snapshot_id;
    free(g.name);
    CP_RETURN_IF_ERROR(as_latest ? paimon_table_rollback_to_as_latest(t, 0, tag, err)
                                 : paimon_table_rollback_to_tag(t, tag, err));
  } else {
    current = a->text[2] ? a->num[2] : strtoll(a->text[1], NULL, 10);
    CP_RETURN_IF_ERROR(as_latest ? paimon_table_rollback_to_as_latest(t, current, NULL, err)
                                 : paimon_table_rollback_to(t, current, err));
  }
  return result_rollback(previous, current, out, err);
}

static int rollback(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                    paimon_error *err) {
  return rollback_as(false, t, a, out, err);
}

/* Flink's rollback_to_as_latest: the same arguments; a new snapshot with the target's files. */
static int rollback_to_as_latest(cp_sql_session *s, paimon_table *t, const call_args *a,
                                 cp_sql_result *out, paimon_error *err) {
  return rollback_as(true, t, a, out, err);
}

static int rollback_to_timestamp(cp_sql_session *s, paimon_table *t, const call_args *a,
                                 cp_sql_result *out, paimon_error *err) {
  int64_t previous, current;
  bool found;
  CP_RETURN_IF_ERROR(latest_or_fail(t, &previous, err));
  CP_RETURN_IF_ERROR(paimon_table_snapshot_at(t, a->num[1], &current, &found, err));
  if (!found)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "count not find snapshot earlier than %" PRId64,
                            a->num[1]);
  CP_RETURN_IF_ERROR(paimon_table_rollback_to(t, current, err));
  return result_rollback(previous, current, out, err);
}

/* expire_snapshots(table, retain_max, retain_min, older_than, max_deletes, options): older_than
 * is a local date-time ("2026-12-01 10:00:00"), as Java's ProcedureUtils.fillInSnapshotOptions. */
static int expire_snapshots(cp_sql_session *s, paimon_table *t, const call_args *a,
                            cp_sql_result *out, paimon_error *err) {
  if (a->text[5])
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "expire_snapshots: the options argument is not supported; set the "
                            "table's snapshot.* options with ALTER TABLE ... SET TBLPROPERTIES");
  paimon_expire_options o = {0};
  static const int counts[] = {1, 2, 4}; /* retain_max, retain_min, max_deletes */
  for (size_t k = 0; k < 3; k++) {
    int i = counts[k];
    if (a->text[i] && (a->num[i] < 1 || a->num[i] > INT32_MAX))
      return paimon_error_set(err, PAIMON_EINVAL, "expire_snapshots: %s must be a positive integer",
                              i == 1   ? "retain_max"
                              : i == 2 ? "retain_min"
                                       : "max_deletes");
  }
  if (a->text[1]) o.retain_max = (int32_t)a->num[1];
  if (a->text[2]) o.retain_min = (int32_t)a->num[2];
  if (a->text[4]) o.max_deletes = (int32_t)a->num[4];
  CP_RETURN_IF_ERROR(older_than_arg(a, 3, &o.older_than_millis, err));
  paimon_expire_result r;
  CP_RETURN_IF_ERROR(paimon_table_expire_snapshots(t, &o, &r, err));
  static const char *const names[] = {"deleted_snapshots_count"};
  return result_row(names, &r.snapshots, 1, out, err);
}

/* remove_orphan_files(table, older_than, dry_run, parallelism, mode): Spark's columns
 * deletedFileCount and deletedFileTotalLenInBytes. */
static int remove_orphan_files(cp_sql_session *s, paimon_table *t, const call_args *a,
                               cp_sql_result *out, paimon_error *err) {
  const char *mode = a->text[4];
  if (mode && strcasecmp(mode, "LOCAL") != 0 && strcasecmp(mode, "DISTRIBUTED") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Unknown mode: %s. Only 'DISTRIBUTED' and 'LOCAL' are supported.",
                            mode);
  int64_t older_than;
  CP_RETURN_IF_ERROR(older_than_arg(a, 1, &older_than, err));
  bool dry_run = a->text[2] && strcasecmp(a->text[2], "true") == 0;
  paimon_orphan_result r;
  CP_RETURN_IF_ERROR(paimon_table_remove_orphan_files(t, older_than, dry_run, &r, NULL, err));
  static const char *const names[] = {"deletedFileCount", "deletedFileTotalLenInBytes"};
  const int64_t v[] = {r.files, r.bytes};
  return result_row(names, v, 2, out, err);
}

/* Spark's `where => 'dt = ...'` of compact: a SQL condition over the table's columns (parsed and
 * bound as WHERE is), as an unbound predicate; the compaction accepts only partition keys. */
static int where_predicate(paimon_table *t, const char *text, paimon_predicate **out,
                           paimon_error *err) {
  *out = NULL;
  const cp_type *row = t->schema->row;
  cp_rel_col *cols = calloc(row->n_fields + 1, sizeof *cols);
  if (!cols) return CP_ENOMEM(err, "CALL");
  int rc = PAIMON_OK;
  size_t n = 0;
  for (; !rc && n < row->n_fields; n++) {
    cols[n].name = strdup(row->fields[n].name);
    if (!cols[n].name) rc = CP_ENOMEM(err, "CALL");
    if (!rc) rc = cp_type_copy(&cols[n].type, row->fields[n].type, err);
  }
  cp_sql_stmt *owner = NULL;
  cp_sql_expr *e = NULL;
  cp_sql_scope scope;
  memset(&scope, 0, sizeof scope);
  cp_expr *bound = NULL, *unbound = NULL;
  if (!rc) rc = cp_sql_parse_expr(text, strlen(text), &owner, &e, err);
  if (!rc) rc = cp_sql_scope_init(&scope, cols, n, "WHERE", err);
  if (!rc) rc = cp_sql_bind_predicate(&scope, e, &bound, err);
  if (!rc) rc = cp_sql_convert(&scope, e, &unbound, err);
  if (!rc) {
    rc = cp_predicate_wrap(out, unbound, err);
    unbound = NULL;
  }
  if (rc) paimon_error_prefix(err, "compact: where '%s'", text);
  cp_expr_free(bound);
  cp_expr_free(unbound);
  cp_sql_scope_free(&scope);
  cp_sql_stmt_free(owner);
  cp_rel_cols_free(cols, n);
  return rc;
}

/* compact(table, partitions, compact_strategy, order_strategy, order_by, options, where): the
 * compaction of compact.h. Spark's `options` is "k1=v1,k2=v2"; `where` is a condition on
 * partition keys, `partitions` a list of their values (not both, as Spark). Sorting is not
 * supported (Java refuses it on data-evolution tables too). */
static int compact(cp_sql_session *s, paimon_table *t, const call_args *a, cp_sql_result *out,
                   paimon_error *err) {
  if (a->text[3] && *a->text[3] && strcasecmp(a->text[3], "none") != 0) {
    if (t->options.data_evolution)
      return paimon_error_set(err, PAIMON_EINVAL, "Data Evolution table cannot be sorted!");
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "compact: sort compaction (order_strategy '%s') of table %s is not "
                            "supported yet",
                            a->text[3], t->full_name);
  }
  bool where = a->text[6] && *a->text[6], partitions = a->text[1] && *a->text[1];
  if (where && partitions)
    return paimon_error_set(err, PAIMON_EINVAL, "partitions and where cannot be used together.");
  if (a->text[2] && *a->text[2] && strcasecmp(a->text[2], "full") != 0 &&
      strcasecmp(a->text[2], "minor") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "The compact strategy only supports 'full' or 'minor', but '%s' is "
                            "configured.",
                            a->text[2]);
  paimon_predicate *pred = NULL;
  if (partitions) CP_RETURN_IF_ERROR(paimon_predicate_partitions(a->text[1], &pred, err));
  if (where) CP_RETURN_IF_ERROR(where_predicate(t, a->text[6], &pred, err));
  char *opts = a->text[5] ? strdup(a->text[5]) : NULL, *save = NULL;
  const char *keys[64], *values[64];
  size_t n = 0;
  int rc = a->text[5] && !opts ? CP_ENOMEM(err, "CALL") : PAIMON_OK;
  for (char *kv = opts ? strtok_r(opts, ",", &save) : NULL; !rc && kv;
       kv = strtok_r(NULL, ",", &save)) {
    while (*kv == ' ') kv++;
    char *eq = strchr(kv, '=');
    if (!eq || n == 64)
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "compact: options must be 'key=value[,...]', got '%s'", a->text[5]);
    else {
      *eq = '\0';
      keys[n] = kv;
      values[n++] = eq + 1;
    }
  }
  paimon_compact_options o = {pred, keys, values, n};
  paimon_compact_result r;
  if (!rc) rc = paimon_table_compact(t, &o, &r, err);
  free(opts);
  paimon_predicate_free(pred);
  return rc ? rc : result_true(out, err);
}

static const procedure procedures[] = {
    {"create_tag",
     {{"table", 's', true},
      {"tag", 's', true},
      {"snapshot", 'l', false},
      {"time_retained", 's', false}},
     4,
     create_tag},
    {"replace_tag",
     {{"table", 's', true},
      {"tag", 's', true},
      {"snapshot", 'l', false},
      {"time_retained", 's', false}},
     4,
     replace_tag},
    {"delete_tag", {{"table", 's', true}, {"tag", 's', true}}, 2, delete_tag},
    {"rename_tag",
     {{"table", 's', true}, {"tag", 's', true}, {"target_tag", 's', true}},
     3,
     rename_tag},
    {"rollback",
     {{"table", 's', true}, {"version", 's', false}, {"snapshot", 'l', false}, {"tag", 's', false}},
     4,
     rollback},
    {"rollback_to_as_latest",
     {{"table", 's', true}, {"version", 's', false}, {"snapshot", 'l', false}, {"tag", 's', false}},
     4,
     rollback_to_as_latest},
    {"rollback_to_timestamp",
     {{"table", 's', true}, {"timestamp", 'l', true}},
     2,
     rollback_to_timestamp},
    {"expire_snapshots",
     {{"table", 's', true},
      {"retain_max", 'l', false},
      {"retain_min", 'l', false},
      {"older_than", 's', false},
      {"max_deletes", 'l', false},
      {"options", 's', false}},
     6,
     expire_snapshots},
    {"remove_orphan_files",
     {{"table", 's', true},
      {"older_than", 's', false},
      {"dry_run", 's', false},
      {"parallelism", 'l', false},
      {"mode", 's', false}},
     5,
     remove_orphan_files},
    {"compact",
     {{"table", 's', true},
      {"partitions", 's', false},
      {"compact_strategy", 's', false},
      {"order_strategy", 's', false},
      {"order_by", 's', false},
      {"options", 's', false},
      {"where", 's', false}},
     7,
     compact},
};

static const procedure *find_procedure(const cp_sql_name *n) {
  const char *last = n->parts[n->n - 1];
  /* [catalog.]sys.name or name */
  if (n->n >= 2 && strcasecmp(n->parts[n->n - 2], "sys") != 0) return NULL;
  for (size_t i = 0; i < sizeof procedures / sizeof *procedures; i++)
    if (strcasecmp(procedures[i].name, last) == 0) return &procedures[i];
  return NULL;
}

static int bind_args(const procedure *p, const cp_sql_call *c, call_args *a, paimon_error *err) {
  memset(a, 0, sizeof *a);
  bool named = c->n_args && c->args[0].name;
  if (c->n_args > p->n_params)
    return cp_sql_error_at(err, PAIMON_EINVAL, c->args[p->n_params].pos,
                           "procedure %s takes at most %zu arguments", p->name, p->n_params);
  for (size_t i = 0; i < c->n_args; i++) {
    const cp_sql_call_arg *g = &c->args[i];
    if ((g->name != NULL) != named)
      return cp_sql_error_at(err, PAIMON_EINVAL, g->pos,
                             "procedure %s: arguments are either all named or all positional",
                             p->name);
    size_t k = i;
    if (named) {
      for (k = 0; k < p->n_params && strcasecmp(p->params[k].name, g->name) != 0; k++) {
      }
      if (k == p->n_params)
        return cp_sql_error_at(err, PAIMON_EINVAL, g->pos, "procedure %s has no parameter '%s'",
                               p->name, g->name);
      if (a->text[k])
        return cp_sql_error_at(err, PAIMON_EINVAL, g->pos,
                               "procedure %s: parameter '%s' is given twice", p->name, g->name);
    }
    if (g->is_null) continue;
    a->text[k] = g->text;
    if (p->params[k].type == 'l') {
      char *end = NULL;
      a->num[k] = strtoll(g->text, &end, 10);
      if (!*g->text || *end)
        return cp_sql_error_at(err, PAIMON_EINVAL, g->pos,
                               "procedure %s: parameter '%s' must be an integer, got '%s'", p->name,
                               p->params[k].name, g->text);
    }
  }
  for (size_t k = 0; k < p->n_params; k++)
    if (p->params[k].required && !a->text[k])
      return paimon_error_set(err, PAIMON_EINVAL, "procedure %s: missing required parameter '%s'",
                              p->name, p->params[k].name);
  return PAIMON_OK;
}

int cp_sql_exec_call(cp_sql_session *s, const cp_sql_stmt *stmt, cp_sql_result *out,
                     paimon_error *err) {
  const cp_sql_call *c = &stmt->call;
  const procedure *p = find_procedure(&c->procedure);
  if (!p)
    return cp_sql_error_at(
        err, PAIMON_ENOTFOUND, stmt->pos,
        "procedure %s not found (cpaimon has sys.create_tag, replace_tag, "
        "delete_tag, rename_tag, rollback, rollback_to_as_latest, rollback_to_timestamp, "
        "expire_snapshots, remove_orphan_files)",
        c->procedure.parts[c->procedure.n - 1]);
  call_args a;
  CP_RETURN_IF_ERROR(bind_args(p, c, &a, err));
  /* The table argument: "db.t", or "t" in the session's database. */
  char ident[1024];
  if (strchr(a.text[0], '.'))
    snprintf(ident, sizeof ident, "%s", a.text[0]);
  else
    snprintf(ident, sizeof ident, "%s.%s", s->database, a.text[0]);
  paimon_table *t = NULL;
  CP_RETURN_IF_ERROR(paimon_catalog_get_table(s->catalog, ident, &t, err));
  int rc = p->run(s, t, &a, out, err);
  paimon_table_free(t);
  return rc;
}
