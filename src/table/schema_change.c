/*
 * ALTER TABLE: applies schema changes to the latest schema and publishes schema N+1 with
 * write-if-absent semantics, retrying on a concurrent alter (Java SchemaManager.commitChanges and
 * generateTableSchema; messages as Java's).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "base/time.h"
#include "table/file_io.h"
#include "table/rest_catalog.h"
#include "table/store.h"
#include "table/table.h"
#include "types/special_fields.h"
#include "types/type_sql.h"

/* CoreOptions.IMMUTABLE_OPTIONS (the @Immutable options of apache/paimon CoreOptions.java). */
static const char *const immutable_options[] = {"type",
                                                "bucket-key",
                                                "bucket-function.type",
                                                "data-file.path-directory",
                                                "merge-engine",
                                                "sequence.snapshot-ordering",
                                                "aggregation.remove-record-on-delete",
                                                "partial-update.remove-record-on-delete",
                                                "partial-update.remove-record-on-sequence-group",
                                                "rowkind.field",
                                                "primary-key",
                                                "primary-key.nullable",
                                                "partition",
                                                "dynamic-bucket.initial-buckets",
                                                "force-lookup",
                                                "row-tracking.enabled",
                                                "data-evolution.enabled",
                                                "index-file-in-data-file-dir",
                                                "blob-field",
                                                "blob-descriptor-field",
                                                "blob-view-field",
                                                "pk-clustering-override"};

static bool is_immutable(const char *key) {
  for (size_t i = 0; i < sizeof immutable_options / sizeof immutable_options[0]; i++)
    if (strcmp(immutable_options[i], key) == 0) return true;
  return false;
}

typedef struct alter_ctx {
  const char *table; /* "db.t" for messages */
  bool has_snapshots;
  paimon_error *err;
} alter_ctx;

static int set_option(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name || !c->value)
    return paimon_error_set(a->err, PAIMON_EINVAL, "SET option needs a key and a value");
  const char *old = cp_options_get(&s->options, c->name);
  if (old && strcmp(old, c->value) == 0) return PAIMON_OK;
  if (strcmp(c->name, "type") == 0)
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Change 'type' is not supported yet.");
  if (a->has_snapshots) {
    if (is_immutable(c->name))
      return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Change '%s' is not supported yet.",
                              c->name);
    if (strcmp(c->name, CP_OPT_BUCKET) == 0) {
      if (!old || strcmp(old, "-1") == 0)
        return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot change bucket when it is -1.");
      if (strcmp(c->value, "-1") == 0)
        return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot change bucket to -1.");
    }
  }
  return cp_options_set(&s->options, c->name, c->value, a->err);
}

static int remove_option(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name) return paimon_error_set(a->err, PAIMON_EINVAL, "RESET option needs a key");
  if (strcmp(c->name, "type") == 0)
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Change 'type' is not supported yet.");
  if (a->has_snapshots) {
    if (is_immutable(c->name))
      return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Change '%s' is not supported yet.",
                              c->name);
    if (strcmp(c->name, CP_OPT_BUCKET) == 0)
      return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot reset %s.", c->name);
  }
  cp_options_remove(&s->options, c->name);
  return PAIMON_OK;
}

static bool is_partition_key(const cp_table_schema *s, const char *name) {
  for (size_t i = 0; i < s->n_partition_keys; i++)
    if (strcmp(s->partition_keys[i], name) == 0) return true;
  return false;
}

static int column_missing(alter_ctx *a, const char *name) {
  return paimon_error_set(a->err, PAIMON_ENOTFOUND, "Column %s does not exist in the %s table.",
                          name, a->table);
}

static int column_exists(alter_ctx *a, const char *name) {
  return paimon_error_set(a->err, PAIMON_EEXIST, "Column %s already exists in the %s table.", name,
                          a->table);
}

/* Rebuilds the ROW with `fields` (consumed), keeping the old row's nullability. */
static int replace_fields(alter_ctx *a, cp_table_schema *s, cp_field *fields, size_t n) {
  cp_type *row;
  int rc = cp_type_new_row(&row, fields, n, s->row->nullable, a->err);
  free(fields);
  if (rc) return rc;
  cp_type_free(s->row);
  s->row = row;
  return PAIMON_OK;
}

/* Copies the fields of the row, optionally skipping index `skip` and leaving `extra` free slots. */
static int copy_fields(alter_ctx *a, const cp_table_schema *s, ptrdiff_t skip, size_t extra,
                       cp_field **out, size_t *n) {
  size_t cap = s->row->n_fields + extra;
  cp_field *f = calloc(cap ? cap : 1, sizeof *f);
  if (!f) return CP_ENOMEM(a->err, "schema");
  size_t k = 0;
  for (size_t i = 0; i < s->row->n_fields; i++) {
    if ((ptrdiff_t)i == skip) continue;
    int rc = cp_field_copy(&f[k], &s->row->fields[i], a->err);
    if (rc) {
      for (size_t j = 0; j < k; j++) cp_field_clear(&f[j]);
      free(f);
      return rc;
    }
    k++;
  }
  *out = f;
  *n = k;
  return PAIMON_OK;
}

static int add_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name || !c->type)
    return paimon_error_set(a->err, PAIMON_EINVAL, "ADD COLUMN needs a name and a type");
  cp_type *t;
  int rc = cp_type_parse(c->type, &t, a->err);
  if (rc) return paimon_error_prefix(a->err, "column '%s'", c->name);
  if (!t->nullable) {
    cp_type_free(t);
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "Column %s cannot specify NOT NULL in the %s table.", c->name,
                            a->table);
  }
  if (cp_row_field_index(s->row, c->name) >= 0) {
    cp_type_free(t);
    return column_exists(a, c->name);
  }
  int32_t id = ++s->highest_field_id;
  cp_type_reassign_field_ids(t, &s->highest_field_id);
  cp_field *fields;
  size_t n;
  rc = copy_fields(a, s, -1, 1, &fields, &n);
  if (rc) {
    cp_type_free(t);
    return rc;
  }
  rc = cp_field_init(&fields[n], id, c->name, t, c->comment, NULL, a->err);
  if (rc) {
    for (size_t j = 0; j < n; j++) cp_field_clear(&fields[j]);
    free(fields);
    return rc;
  }
  return replace_fields(a, s, fields, n + 1);
}

static int rename_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name || !c->value)
    return paimon_error_set(a->err, PAIMON_EINVAL, "RENAME COLUMN needs a name and a new name");
  if (is_partition_key(s, c->name))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot rename partition column: [%s]",
                            c->name);
  ptrdiff_t i = cp_row_field_index(s->row, c->name);
  if (i < 0) return column_missing(a, c->name);
  if (cp_row_field_index(s->row, c->value) >= 0) return column_exists(a, c->value);
  char *name = strdup(c->value);
  if (!name) return CP_ENOMEM(a->err, "schema");
  free(s->row->fields[i].name);
  s->row->fields[i].name = name;
  return PAIMON_OK;
}

static int drop_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name) return paimon_error_set(a->err, PAIMON_EINVAL, "DROP COLUMN needs a name");
  bool is_pk = false;
  for (size_t i = 0; i < s->n_primary_keys; i++)
    if (strcmp(s->primary_keys[i], c->name) == 0) is_pk = true;
  if (is_partition_key(s, c->name) || is_pk)
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                            "Cannot drop partition key or primary key: [%s]", c->name);
  ptrdiff_t i = cp_row_field_index(s->row, c->name);
  if (i < 0) return column_missing(a, c->name);
  if (s->row->n_fields == 1)
    return paimon_error_set(a->err, PAIMON_EINVAL, "Cannot drop all fields in table");
  cp_field *fields;
  size_t n;
  CP_RETURN_IF_ERROR(copy_fields(a, s, i, 0, &fields, &n));
  return replace_fields(a, s, fields, n);
}

static int column_comment(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  ptrdiff_t i = c->name ? cp_row_field_index(s->row, c->name) : -1;
  if (i < 0) return column_missing(a, c->name ? c->name : "(null)");
  char *comment = c->comment ? strdup(c->comment) : NULL;
  if (c->comment && !comment) return CP_ENOMEM(a->err, "schema");
  free(s->row->fields[i].description);
  s->row->fields[i].description = comment;
  return PAIMON_OK;
}

/* Whether files written with `from` read as `to` (the Parquet reader's widening, schema_read.h). */
static bool reads_as(const cp_type *from, const cp_type *to) {
  cp_type_kind f = from->kind, t = to->kind;
  bool fi = f >= CP_TYPE_TINYINT && f <= CP_TYPE_BIGINT,
       ti = t >= CP_TYPE_TINYINT && t <= CP_TYPE_BIGINT;
  if (fi && ti) return t >= f;
  if (f == CP_TYPE_FLOAT || f == CP_TYPE_DOUBLE) return t == CP_TYPE_DOUBLE || t == f;
  switch (f) {
  case CP_TYPE_DECIMAL:
    return t == CP_TYPE_DECIMAL && to->scale == from->scale && to->precision >= from->precision;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
    return (t == CP_TYPE_VARCHAR && to->length >= from->length) ||
           (t == CP_TYPE_CHAR && f == CP_TYPE_CHAR && to->length == from->length);
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
    return (t == CP_TYPE_VARBINARY && to->length >= from->length) ||
           (t == CP_TYPE_BINARY && f == CP_TYPE_BINARY && to->length == from->length);
  case CP_TYPE_TIME:
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return t == f && to->precision >= from->precision;
  default:
    return cp_type_equals(from, to,
                          CP_TYPE_EQ_IGNORE_NULLABILITY | CP_TYPE_EQ_IGNORE_FIELD_IDS |
                              CP_TYPE_EQ_IGNORE_FIELD_DOCS);
  }
}

/* Java's assertNullabilityChange (alter-column-null-to-not-null.disabled, default true). */
static int nullability_change(alter_ctx *a, const cp_table_schema *s, const char *name, bool from,
                              bool to) {
  const char *opt = cp_options_get(&s->options, "alter-column-null-to-not-null.disabled");
  bool disabled = !(opt && strcmp(opt, "false") == 0);
  if (disabled && from && !to)
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                            "Cannot update column type from nullable to non nullable for %s. You "
                            "can set table configuration option "
                            "'alter-column-null-to-not-null.disabled' = 'false' to allow "
                            "converting null columns to not null",
                            name);
  return PAIMON_OK;
}

static bool is_primary_key(const cp_table_schema *s, const char *name) {
  for (size_t i = 0; i < s->n_primary_keys; i++)
    if (strcmp(s->primary_keys[i], name) == 0) return true;
  return false;
}

/* Replaces field i's type by `t` (consumed). */
static int set_field_type(alter_ctx *a, cp_table_schema *s, ptrdiff_t i, cp_type *t) {
  cp_type_free(s->row->fields[i].type);
  s->row->fields[i].type = t;
  (void)a;
  return PAIMON_OK;
}

static int column_type(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  if (!c->name || !c->type)
    return paimon_error_set(a->err, PAIMON_EINVAL, "update_column_type needs a name and a type");
  if (is_partition_key(s, c->name))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot update partition column: [%s]",
                            c->name);
  if (is_primary_key(s, c->name))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot update primary key");
  ptrdiff_t i = cp_row_field_index(s->row, c->name);
  if (i < 0) return column_missing(a, c->name);
  const cp_type *old = s->row->fields[i].type;
  cp_type *parsed = NULL, *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(c->type, &parsed, a->err));
  bool keep = c->value && strcmp(c->value, "keep-nullability") == 0;
  int rc = cp_type_copy_nullable(&t, parsed, keep ? old->nullable : parsed->nullable, a->err);
  cp_type_free(parsed);
  if (!rc && !keep) rc = nullability_change(a, s, c->name, old->nullable, t->nullable);
  if (!rc && !reads_as(old, t)) {
    char *from = NULL, *to = NULL;
    cp_type_to_sql(old, &from, NULL);
    cp_type_to_sql(t, &to, NULL);
    rc = paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                          "Column type %s[%s] cannot be converted to %s: cpaimon reads older "
                          "files only through widening conversions",
                          c->name, from ? from : "?", to ? to : "?");
    free(from);
    free(to);
  }
  if (!rc && cp_type_is_nested(old)) {
    /* the same nested structure: keep its field ids and docs, take the new nullability */
    cp_type *same = NULL;
    rc = cp_type_copy_nullable(&same, old, t->nullable, a->err);
    cp_type_free(t);
    t = same;
  }
  if (!rc) return set_field_type(a, s, i, t);
  cp_type_free(t);
  return rc;
}

static int column_nullability(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  ptrdiff_t i = c->name ? cp_row_field_index(s->row, c->name) : -1;
  if (i < 0) return column_missing(a, c->name ? c->name : "(null)");
  if (!c->value || (strcmp(c->value, "true") != 0 && strcmp(c->value, "false") != 0))
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "update_column_nullability needs \"true\" or \"false\"");
  bool nullable = strcmp(c->value, "true") == 0;
  if (nullable && is_primary_key(s, c->name))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                            "Cannot change nullability of primary key");
  const cp_type *old = s->row->fields[i].type;
  CP_RETURN_IF_ERROR(nullability_change(a, s, c->name, old->nullable, nullable));
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy_nullable(&t, old, nullable, a->err));
  return set_field_type(a, s, i, t);
}

/* Java's SchemaManager.applyMove: FIRST, LAST, AFTER or BEFORE a reference column. */
static int column_position(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  cp_field *f = s->row->fields;
  size_t n = s->row->n_fields;
  ptrdiff_t from = c->name ? cp_row_field_index(s->row, c->name) : -1;
  if (from < 0)
    return paimon_error_set(a->err, PAIMON_EINVAL, "Field name not found: %s",
                            c->name ? c->name : "(null)");
  const char *how = c->value ? c->value : "";
  ptrdiff_t to;
  bool first = strcasecmp(how, "first") == 0, last = strcasecmp(how, "last") == 0;
  bool after = strcasecmp(how, "after") == 0, before = strcasecmp(how, "before") == 0;
  if (!first && !last && !after && !before)
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "update_column_position: move '%s' is not FIRST, LAST, AFTER or BEFORE",
                            how);
  if (first || last) {
    to = first ? 0 : (ptrdiff_t)n - 1;
  } else {
    ptrdiff_t ref = c->reference ? cp_row_field_index(s->row, c->reference) : -1;
    if (ref < 0)
      return paimon_error_set(a->err, PAIMON_EINVAL, "Reference field name not found: %s",
                              c->reference ? c->reference : "null");
    to = ref;
    if (after && from > ref) to++;
    if (before && from < ref) to--;
    if (ref == from) to = from;
    if (to > (ptrdiff_t)n - 1) to = (ptrdiff_t)n - 1;
    if (ref == from)
      return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot move itself for column %s",
                              c->name);
  }
  if ((first || last) && to == from)
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot move itself for column %s",
                            c->name);
  cp_field moved = f[from];
  if (to > from)
    memmove(&f[from], &f[from + 1], (size_t)(to - from) * sizeof *f);
  else if (to < from)
    memmove(&f[to + 1], &f[to], (size_t)(from - to) * sizeof *f);
  f[to] = moved;
  return PAIMON_OK;
}

static int apply_change(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  switch (c->kind) {
  case PAIMON_SET_OPTION: return set_option(a, s, c);
  case PAIMON_REMOVE_OPTION: return remove_option(a, s, c);
  case PAIMON_ADD_COLUMN: return add_column(a, s, c);
  case PAIMON_RENAME_COLUMN: return rename_column(a, s, c);
  case PAIMON_DROP_COLUMN: return drop_column(a, s, c);
  case PAIMON_UPDATE_COLUMN_COMMENT: return column_comment(a, s, c);
  case PAIMON_UPDATE_COLUMN_TYPE: return column_type(a, s, c);
  case PAIMON_UPDATE_COLUMN_NULLABILITY: return column_nullability(a, s, c);
  case PAIMON_UPDATE_COLUMN_POSITION: return column_position(a, s, c);
  case PAIMON_UPDATE_COMMENT: {
    char *comment = c->value ? strdup(c->value) : NULL;
    if (c->value && !comment) return CP_ENOMEM(a->err, "schema");
    free(s->comment);
    s->comment = comment;
    return PAIMON_OK;
  }
  }
  return paimon_error_set(a->err, PAIMON_EINVAL, "unknown schema change kind %d", (int)c->kind);
}

/* The rules a table must keep after any change (row tracking, option values). */
static int validate_altered(alter_ctx *a, const cp_table_schema *s) {
  cp_core_options o;
  CP_RETURN_IF_ERROR(cp_core_options_parse(s, &o, a->err));
  if (o.data_evolution && !o.row_tracking)
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "Data evolution config must enabled with row-tracking.enabled");
  if (o.row_tracking)
    for (size_t i = 0; i < s->row->n_fields; i++)
      if (cp_is_row_tracking_field_name(s->row->fields[i].name))
        return paimon_error_set(a->err, PAIMON_EINVAL,
                                "Row tracking field name '%s' conflicts with existing field names.",
                                s->row->fields[i].name);
  cp_file_format format;
  if (cp_file_format_parse(o.file_format, "", &format, NULL) == PAIMON_OK)
    CP_RETURN_IF_ERROR(cp_file_format_check_row(format, s->row, a->err));
  return cp_type_check_field_ids(s->row, a->err);
}

int paimon_catalog_alter_table(paimon_catalog *c, const char *identifier,
                               const paimon_schema_change *changes, size_t n_changes,
                               bool ignore_if_not_exists, paimon_error *err) {
  paimon_table *t;
  int rc = paimon_catalog_get_table(c, identifier, &t, err);
  if (rc == PAIMON_ENOTFOUND && ignore_if_not_exists) return PAIMON_OK;
  CP_RETURN_IF_ERROR(rc);
  for (int attempt = 0; attempt < 10; attempt++) {
    int64_t latest;
    CP_GOTO_IF_ERROR(rc, paimon_table_latest_snapshot_id(t, &latest, err), done);
    alter_ctx a = {t->full_name, latest > 0, err};
    cp_table_schema *next;
    CP_GOTO_IF_ERROR(rc, cp_table_schema_copy(&next, t->schema, err), done);
    for (size_t i = 0; i < n_changes && !rc; i++) rc = apply_change(&a, next, &changes[i]);
    if (!rc) rc = validate_altered(&a, next);
    bool lost_race = false;
    if (!rc && c->rest) {
      /* validated here with Paimon's rules and messages; the server applies and writes N+1 */
      rc = cp_rest_alter_table(c->rest, t->database, t->name, changes, n_changes, err);
    } else if (!rc) {
      next->id = t->schema->id + 1;
      next->version = CP_SCHEMA_VERSION;
      next->time_millis = cp_now_millis();
      rc = cp_schema_publish(t->fs, t->path, next, err);
      lost_race = rc == PAIMON_EEXIST;
    }
    cp_table_schema_free(next);
    if (!lost_race) goto done;
    /* Another ALTER published the same schema id first: reload and re-apply (Java does). */
    CP_GOTO_IF_ERROR(rc, cp_table_refresh_schema(t, err), done);
  }
  rc = paimon_error_set(err, PAIMON_ECONFLICT, "Table %s: too many concurrent schema changes",
                        identifier);
done:
  paimon_table_free(t);
  return rc;
}
