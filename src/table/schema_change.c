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

/* ---- column paths (Java's String[] fieldNames) ---- */

/* The column a change names: `path` when given, else the single top-level `name`. */
typedef struct col_path {
  const char *const *p;
  size_t n;
  char text[512]; /* "r.x" for messages (truncated if longer) */
} col_path;

/* The first `n` names joined with '.' into `out`. */
static void join_names(const char *const *p, size_t n, const char *last, char *out, size_t cap) {
  size_t k = 0;
  out[0] = '\0';
  for (size_t i = 0; i <= n && k + 1 < cap; i++) {
    const char *part = i < n ? p[i] : last;
    if (!part) continue;
    int w = snprintf(out + k, cap - k, "%s%s", k ? "." : "", part);
    if (w < 0) break;
    k += (size_t)w < cap - k ? (size_t)w : cap - k - 1;
  }
}

static int path_of(alter_ctx *a, const paimon_schema_change *c, const char *what, col_path *out) {
  if (c->n_path) {
    out->p = c->path;
    out->n = c->n_path;
  } else {
    out->p = &c->name;
    out->n = c->name ? 1 : 0;
  }
  for (size_t i = 0; i < out->n; i++)
    if (!out->p || !out->p[i] || !*out->p[i]) out->n = 0;
  if (!out->n) return paimon_error_set(a->err, PAIMON_EINVAL, "%s needs a column name", what);
  join_names(out->p, out->n, NULL, out->text, sizeof out->text);
  return PAIMON_OK;
}

/* Where a path leads (Java's NestedColumnModifier): the ROW whose fields hold the last name, or,
 * for a path that ends inside an ARRAY or MAP ("v", "element"), the type slot it names and the
 * field that holds it. ARRAY and MAP are stepped through with the names "element" and "value"
 * (checked, as pypaimon does: Java ignores the names of these steps). */
typedef struct col_target {
  cp_type *row;
  const char *name;
  cp_field *field;
  cp_type **slot;
} col_target;

static int resolve(alter_ctx *a, cp_table_schema *s, const col_path *cp, col_target *out) {
  memset(out, 0, sizeof *out);
  cp_type *row = s->row;
  size_t d = 0;
  for (;;) {
    if (d == cp->n - 1) {
      out->row = row;
      out->name = cp->p[d];
      return PAIMON_OK;
    }
    ptrdiff_t i = cp_row_field_index(row, cp->p[d]);
    if (i < 0) {
      char prefix[512];
      join_names(cp->p, d + 1, NULL, prefix, sizeof prefix);
      return column_missing(a, prefix);
    }
    cp_field *f = &row->fields[i];
    cp_type **slot = &f->type;
    d++;
    while ((*slot)->kind == CP_TYPE_ARRAY || (*slot)->kind == CP_TYPE_MAP) {
      bool array = (*slot)->kind == CP_TYPE_ARRAY;
      if (strcmp(cp->p[d], array ? "element" : "value") != 0) return column_missing(a, cp->text);
      slot = array ? &(*slot)->element : &(*slot)->value;
      if (++d == cp->n) {
        out->field = f;
        out->slot = slot;
        return PAIMON_OK;
      }
    }
    if ((*slot)->kind != CP_TYPE_ROW) return column_missing(a, cp->text);
    row = *slot;
  }
}

/* The field a path names (for changes of a field's own properties). */
static int resolve_field(alter_ctx *a, cp_table_schema *s, const col_path *cp, col_target *t) {
  CP_RETURN_IF_ERROR(resolve(a, s, cp, t));
  if (t->row) {
    ptrdiff_t i = cp_row_field_index(t->row, t->name);
    if (i < 0) return column_missing(a, cp->text);
    t->field = &t->row->fields[i];
    t->slot = &t->field->type;
  }
  return PAIMON_OK;
}

/* Changes that add, rename or drop a field need the ROW that holds it. */
static int resolve_row(alter_ctx *a, cp_table_schema *s, const col_path *cp, col_target *t) {
  CP_RETURN_IF_ERROR(resolve(a, s, cp, t));
  if (!t->row)
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "Column %s names the element or value of an ARRAY or MAP, not a field",
                            cp->text);
  return PAIMON_OK;
}

/* ADD COLUMN's move (Java's addColumn with a Move): the field just appended to `row` goes FIRST,
 * AFTER or BEFORE a sibling, or stays LAST. */
static int move_added(alter_ctx *a, cp_type *row, const paimon_schema_change *c) {
  if (!c->value) return PAIMON_OK;
  size_t n = row->n_fields, to;
  if (strcasecmp(c->value, "first") == 0) {
    to = 0;
  } else if (strcasecmp(c->value, "last") == 0) {
    return PAIMON_OK;
  } else if (strcasecmp(c->value, "after") == 0 || strcasecmp(c->value, "before") == 0) {
    ptrdiff_t ref = c->reference ? cp_row_field_index(row, c->reference) : -1;
    if (ref < 0 || (size_t)ref == n - 1) {
      cp_field_clear(&row->fields[n - 1]);
      row->n_fields--;
      return column_missing(a, c->reference ? c->reference : "null");
    }
    to = (size_t)ref + (strcasecmp(c->value, "after") == 0 ? 1 : 0);
  } else {
    cp_field_clear(&row->fields[n - 1]);
    row->n_fields--;
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "ADD COLUMN: move '%s' is not FIRST, LAST, AFTER or BEFORE", c->value);
  }
  cp_field added = row->fields[n - 1];
  memmove(&row->fields[to + 1], &row->fields[to], (n - 1 - to) * sizeof *row->fields);
  row->fields[to] = added;
  return PAIMON_OK;
}

static int add_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target t;
  CP_RETURN_IF_ERROR(path_of(a, c, "ADD COLUMN", &cp));
  if (!c->type) return paimon_error_set(a->err, PAIMON_EINVAL, "ADD COLUMN needs a type");
  CP_RETURN_IF_ERROR(resolve_row(a, s, &cp, &t));
  cp_type *type;
  int rc = cp_type_parse(c->type, &type, a->err);
  if (rc) return paimon_error_prefix(a->err, "column '%s'", cp.text);
  if (!type->nullable) {
    cp_type_free(type);
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "Column %s cannot specify NOT NULL in the %s table.", cp.text,
                            a->table);
  }
  if (cp_row_field_index(t.row, t.name) >= 0) {
    cp_type_free(type);
    return column_exists(a, cp.text);
  }
  cp_field *fields = realloc(t.row->fields, (t.row->n_fields + 1) * sizeof *fields);
  if (!fields) {
    cp_type_free(type);
    return CP_ENOMEM(a->err, "schema");
  }
  t.row->fields = fields;
  int32_t id = ++s->highest_field_id;
  cp_type_reassign_field_ids(type, &s->highest_field_id);
  rc = cp_field_init(&fields[t.row->n_fields], id, t.name, type, c->comment, NULL, a->err);
  if (rc) return rc;
  t.row->n_fields++;
  return move_added(a, t.row, c);
}

static int rename_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target t;
  CP_RETURN_IF_ERROR(path_of(a, c, "RENAME COLUMN", &cp));
  if (!c->value || !*c->value)
    return paimon_error_set(a->err, PAIMON_EINVAL, "RENAME COLUMN needs a new name");
  if (cp.n == 1 && is_partition_key(s, cp.p[0]))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot rename partition column: [%s]",
                            cp.p[0]);
  CP_RETURN_IF_ERROR(resolve_row(a, s, &cp, &t));
  ptrdiff_t i = cp_row_field_index(t.row, t.name);
  if (i < 0) return column_missing(a, cp.text);
  if (cp_row_field_index(t.row, c->value) >= 0) {
    char renamed[512];
    join_names(cp.p, cp.n - 1, c->value, renamed, sizeof renamed);
    return column_exists(a, renamed);
  }
  char *name = strdup(c->value);
  if (!name) return CP_ENOMEM(a->err, "schema");
  free(t.row->fields[i].name);
  t.row->fields[i].name = name;
  return PAIMON_OK;
}

static int drop_column(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target t;
  CP_RETURN_IF_ERROR(path_of(a, c, "DROP COLUMN", &cp));
  if (cp.n == 1) {
    bool is_pk = false;
    for (size_t i = 0; i < s->n_primary_keys; i++)
      if (strcmp(s->primary_keys[i], cp.p[0]) == 0) is_pk = true;
    if (is_partition_key(s, cp.p[0]) || is_pk)
      return paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                              "Cannot drop partition key or primary key: [%s]", cp.p[0]);
  }
  CP_RETURN_IF_ERROR(resolve_row(a, s, &cp, &t));
  ptrdiff_t i = cp_row_field_index(t.row, t.name);
  if (i < 0) return column_missing(a, cp.text);
  if (t.row->n_fields == 1)
    return paimon_error_set(a->err, PAIMON_EINVAL, "Cannot drop all fields in table");
  cp_field_clear(&t.row->fields[i]);
  memmove(&t.row->fields[i], &t.row->fields[i + 1],
          (t.row->n_fields - (size_t)i - 1) * sizeof *t.row->fields);
  t.row->n_fields--;
  return PAIMON_OK;
}

static int column_comment(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target t;
  CP_RETURN_IF_ERROR(path_of(a, c, "update_column_comment", &cp));
  CP_RETURN_IF_ERROR(resolve_field(a, s, &cp, &t));
  char *comment = c->comment ? strdup(c->comment) : NULL;
  if (c->comment && !comment) return CP_ENOMEM(a->err, "schema");
  free(t.field->description);
  t.field->description = comment;
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

static int column_type(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target tg;
  CP_RETURN_IF_ERROR(path_of(a, c, "update_column_type", &cp));
  if (!c->type) return paimon_error_set(a->err, PAIMON_EINVAL, "update_column_type needs a type");
  if (is_partition_key(s, cp.p[0]))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot update partition column: [%s]",
                            cp.p[0]);
  if (is_primary_key(s, cp.p[0]))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED, "Cannot update primary key");
  CP_RETURN_IF_ERROR(resolve_field(a, s, &cp, &tg));
  const cp_type *old = *tg.slot;
  cp_type *parsed = NULL, *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_parse(c->type, &parsed, a->err));
  bool keep = c->value && strcmp(c->value, "keep-nullability") == 0;
  int rc = cp_type_copy_nullable(&t, parsed, keep ? old->nullable : parsed->nullable, a->err);
  cp_type_free(parsed);
  if (!rc && !keep) rc = nullability_change(a, s, cp.text, old->nullable, t->nullable);
  if (!rc && !reads_as(old, t)) {
    char *from = NULL, *to = NULL;
    cp_type_to_sql(old, &from, NULL);
    cp_type_to_sql(t, &to, NULL);
    rc = paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                          "Column type %s[%s] cannot be converted to %s: cpaimon reads older "
                          "files only through widening conversions",
                          tg.field->name, from ? from : "?", to ? to : "?");
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
  if (rc) {
    cp_type_free(t);
    return rc;
  }
  cp_type_free(*tg.slot);
  *tg.slot = t;
  return PAIMON_OK;
}

static int column_nullability(alter_ctx *a, cp_table_schema *s, const paimon_schema_change *c) {
  col_path cp;
  col_target tg;
  CP_RETURN_IF_ERROR(path_of(a, c, "update_column_nullability", &cp));
  CP_RETURN_IF_ERROR(resolve_field(a, s, &cp, &tg));
  if (!c->value || (strcmp(c->value, "true") != 0 && strcmp(c->value, "false") != 0))
    return paimon_error_set(a->err, PAIMON_EINVAL,
                            "update_column_nullability needs \"true\" or \"false\"");
  bool nullable = strcmp(c->value, "true") == 0;
  if (nullable && is_primary_key(s, cp.p[0]))
    return paimon_error_set(a->err, PAIMON_EUNSUPPORTED,
                            "Cannot change nullability of primary key");
  const cp_type *old = *tg.slot;
  CP_RETURN_IF_ERROR(nullability_change(a, s, cp.text, old->nullable, nullable));
  cp_type *t = NULL;
  CP_RETURN_IF_ERROR(cp_type_copy_nullable(&t, old, nullable, a->err));
  cp_type_free(*tg.slot);
  *tg.slot = t;
  return PAIMON_OK;
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
