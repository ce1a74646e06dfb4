/*
 * Avro data-file reader (data_file.h): records decoded straight into Arrow builders through a
 * plan built once per file from (the file's Avro schema, the requested Paimon types): fields are
 * matched by name at every level, fields not asked for are skipped, absent ones read as NULLs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "format/avro/binary.h"
#include "format/avro/container.h"
#include "format/avro/data_file.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

#define DEFAULT_BATCH 65536

typedef enum op {
  OP_SKIP = 0, /* a file field nobody asked for */
  OP_BOOL,
  OP_INTEGER, /* int/long -> any integer type */
  OP_INT_TO_FLOAT,
  OP_FLOAT, /* float/double -> float/double */
  OP_BYTES, /* string/bytes/fixed */
  OP_DECIMAL,
  OP_DATE,
  OP_TIME,
  OP_TIMESTAMP,
  OP_RECORD,
  OP_ARRAY,
  OP_MAP,       /* Avro map (string keys) */
  OP_ARRAY_MAP, /* array of {key, value} records */
  OP_KV         /* one {key, value} record of an array map */
} op;

typedef struct dnode dnode;
struct dnode {
  op op;
  const cp_avro_node *file; /* the file's type, unions unwrapped */
  bool is_union;
  size_t null_branch, value_branch;
  cp_builder *b;
  const char *name; /* for messages */
  cp_time_unit file_unit, unit;
  size_t fixed; /* fixed size of a fixed-typed value; 0 otherwise */
  /* OP_RECORD / OP_KV: one child per file field (OP_SKIP for those not read) and the target
   * children the file lacks (filled with NULLs). OP_ARRAY: child 0 is the item. OP_MAP: child 0
   * the value (keys go to key_b). OP_ARRAY_MAP: child 0 the KV record. */
  dnode *children;
  size_t n_children;
  cp_builder **absent;
  size_t n_absent;
  cp_builder *key_b;
  bool end_element; /* OP_RECORD: close a struct element after the fields */
};

struct cp_avro_dr {
  char *path;
  cp_avro_reader *reader;
  struct ArrowSchema schema; /* the batch's struct schema */
  cp_builder *top;
  const cp_avro_node *root; /* the file's schema */
  dnode plan;
  cp_arena arena;
  cp_avro_dr_range *ranges;
  size_t n_ranges, cur_range;
  int64_t batch_size;
  int64_t file_rows, selected;
  /* The block being read. */
  bool in_block;
  cp_avro_cursor cur;
  size_t block_left; /* records of the block not read yet */
  int64_t row;       /* file position of the next record */
  bool done;
};

/* ---- plan ---- */

static int incompatible(const char *name, const cp_avro_node *f, const cp_type *t,
                        paimon_error *err) {
  char *ts = NULL;
  paimon_error e2;
  memset(&e2, 0, sizeof e2);
  cp_type_to_sql(t, &ts, &e2);
  int rc = paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "column %s: the file's Avro type %s%s%s cannot be read as %s", name,
                            cp_avro_type_name(f->type), f->logical_type ? " " : "",
                            f->logical_type ? f->logical_type : "", ts ? ts : "this type");
  free(ts);
  return rc;
}

static bool logical_is(const cp_avro_node *f, const char *lt) {
  return f->logical_type && strcmp(f->logical_type, lt) == 0;
}

static cp_time_unit target_unit(const cp_type *t) {
  int p = t->precision;
  return p == 0 ? CP_UNIT_SECOND : p <= 3 ? CP_UNIT_MILLI : p <= 6 ? CP_UNIT_MICRO : CP_UNIT_NANO;
}

static int plan_node(cp_avro_dr *r, dnode *n, const cp_avro_node *f, const cp_type *t,
                     cp_builder *b, const char *name, paimon_error *err);

/* Children of a record node: one per file field, matched by name to `fields`/`builders`. */
static int plan_fields(cp_avro_dr *r, dnode *n, const cp_avro_node *f, const cp_field *fields,
                       cp_builder **builders, size_t n_fields, paimon_error *err) {
  n->n_children = f->n_fields;
  n->children = cp_arena_calloc(&r->arena, (f->n_fields ? f->n_fields : 1) * sizeof *n->children);
  n->absent = cp_arena_calloc(&r->arena, (n_fields ? n_fields : 1) * sizeof *n->absent);
  if (!n->children || !n->absent) return CP_ENOMEM(err, "Avro reader");
  for (size_t k = 0; k < f->n_fields; k++) n->children[k].file = f->fields[k].type;
  for (size_t i = 0; i < n_fields; i++) {
    const cp_avro_field *af = fields[i].name ? cp_avro_record_field(f, fields[i].name) : NULL;
    if (!af) {
      n->absent[n->n_absent++] = builders[i];
      continue;
    }
    dnode *c = &n->children[af->index];
    if (c->op != OP_SKIP)
      return paimon_error_set(err, PAIMON_EINVAL, "column %s is requested twice", fields[i].name);
    CP_RETURN_IF_ERROR(plan_node(r, c, af->type, fields[i].type, builders[i], fields[i].name, err));
  }
  return 0;
}

static int plan_map(cp_avro_dr *r, dnode *n, const cp_avro_node *f, const cp_type *key,
                    const cp_type *value, const char *name, paimon_error *err) {
  cp_builder *kb = cp_builder_map_keys(n->b), *vb = cp_builder_map_values(n->b);
  n->children = cp_arena_calloc(&r->arena, sizeof *n->children);
  if (!n->children || !kb || !vb) return CP_ENOMEM(err, "Avro reader");
  n->n_children = 1;
  if (f->type == CP_AVRO_MAP) {
    if (key->kind != CP_TYPE_CHAR && key->kind != CP_TYPE_VARCHAR)
      return incompatible(name, f, key, err);
    n->op = OP_MAP;
    n->key_b = kb;
    return plan_node(r, &n->children[0], f->items, value, vb, name, err);
  }
  const cp_avro_node *rec = f->items;
  if (f->type != CP_AVRO_ARRAY || rec->type != CP_AVRO_RECORD ||
      !cp_avro_record_field(rec, "key") || !cp_avro_record_field(rec, "value"))
    return incompatible(name, f, value, err);
  n->op = OP_ARRAY_MAP;
  dnode *kv = &n->children[0];
  kv->op = OP_KV;
  kv->file = rec;
  kv->name = name;
  cp_field kvf[2] = {{0, (char *)"key", (cp_type *)key, NULL, NULL},
                     {0, (char *)"value", (cp_type *)value, NULL, NULL}};
  cp_builder *kvb[2] = {kb, vb};
  return plan_fields(r, kv, rec, kvf, kvb, 2, err);
}

static int plan_node(cp_avro_dr *r, dnode *n, const cp_avro_node *f, const cp_type *t,
                     cp_builder *b, const char *name, paimon_error *err) {
  n->b = b;
  n->name = name;
  if (f->type == CP_AVRO_UNION) {
    if (!cp_avro_node_is_nullable(f, &n->null_branch, &n->value_branch))
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "column %s: Avro unions other than [\"null\", T] are not supported",
                              name);
    n->is_union = true;
    f = f->branches[n->value_branch];
  }
  n->file = f;
  cp_avro_type ft = f->type;
  bool integer = (ft == CP_AVRO_INT || ft == CP_AVRO_LONG) && !f->logical_type;
  bool ok = false;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN:
    ok = ft == CP_AVRO_BOOLEAN;
    n->op = OP_BOOL;
    break;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
    ok = integer;
    n->op = OP_INTEGER;
    break;
  case CP_TYPE_FLOAT:
  case CP_TYPE_DOUBLE:
    ok = ft == CP_AVRO_FLOAT || (ft == CP_AVRO_DOUBLE && t->kind == CP_TYPE_DOUBLE) || integer;
    n->op = integer ? OP_INT_TO_FLOAT : OP_FLOAT;
    break;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB:
    ok = (ft == CP_AVRO_STRING || ft == CP_AVRO_BYTES || ft == CP_AVRO_FIXED) &&
         !logical_is(f, "decimal");
    n->fixed = ft == CP_AVRO_FIXED ? f->fixed_size : 0;
    n->op = OP_BYTES;
    break;
  case CP_TYPE_DECIMAL:
    ok = (ft == CP_AVRO_BYTES || ft == CP_AVRO_FIXED) && logical_is(f, "decimal") &&
         f->scale == t->scale && f->precision <= t->precision;
    n->fixed = ft == CP_AVRO_FIXED ? f->fixed_size : 0;
    n->op = OP_DECIMAL;
    break;
  case CP_TYPE_DATE:
    ok = ft == CP_AVRO_INT && logical_is(f, "date");
    n->op = OP_DATE;
    break;
  case CP_TYPE_TIME:
    ok = (ft == CP_AVRO_INT && logical_is(f, "time-millis")) ||
         (ft == CP_AVRO_LONG && logical_is(f, "time-micros"));
    n->file_unit = ft == CP_AVRO_INT ? CP_UNIT_MILLI : CP_UNIT_MICRO;
    n->op = OP_TIME;
    break;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    bool millis = logical_is(f, "timestamp-millis") || logical_is(f, "local-timestamp-millis");
    bool micros = logical_is(f, "timestamp-micros") || logical_is(f, "local-timestamp-micros");
    ok = ft == CP_AVRO_LONG && (millis || micros);
    n->file_unit = millis ? CP_UNIT_MILLI : CP_UNIT_MICRO;
    n->unit = target_unit(t);
    n->op = OP_TIMESTAMP;
    break;
  }
  case CP_TYPE_ROW: {
    if (ft != CP_AVRO_RECORD) break;
    n->op = OP_RECORD;
    n->end_element = true;
    cp_builder **builders =
        cp_arena_alloc(&r->arena, (t->n_fields ? t->n_fields : 1) * sizeof *builders);
    if (!builders) return CP_ENOMEM(err, "Avro reader");
    for (size_t i = 0; i < t->n_fields; i++) builders[i] = cp_builder_child(b, (int64_t)i);
    return plan_fields(r, n, f, t->fields, builders, t->n_fields, err);
  }
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
    if (ft != CP_AVRO_ARRAY) break;
    n->op = OP_ARRAY;
    n->children = cp_arena_calloc(&r->arena, sizeof *n->children);
    if (!n->children) return CP_ENOMEM(err, "Avro reader");
    n->n_children = 1;
    return plan_node(r, &n->children[0], f->items, t->element, cp_builder_child(b, 0), name, err);
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET: {
    static const cp_type int_not_null = {.kind = CP_TYPE_INT, .nullable = false};
    if (ft != CP_AVRO_MAP && ft != CP_AVRO_ARRAY) break;
    bool ms = t->kind == CP_TYPE_MULTISET;
    return plan_map(r, n, f, ms ? t->element : t->key, ms ? &int_not_null : t->value, name, err);
  }
  default: break;
  }
  return ok ? 0 : incompatible(name, f, t, err);
}

/* ---- decoding ---- */

static int dec(dnode *n, cp_avro_decoder *d, paimon_error *err);

static int dec_fields(dnode *n, cp_avro_decoder *d, paimon_error *err) {
  for (size_t k = 0; k < n->n_children; k++) {
    dnode *c = &n->children[k];
    int rc = c->op == OP_SKIP ? cp_avro_skip(d, c->file, err) : dec(c, d, err);
    if (rc) return rc;
  }
  for (size_t k = 0; k < n->n_absent; k++)
    CP_RETURN_IF_ERROR(cp_builder_append_null(n->absent[k], err));
  return 0;
}

static int read_raw_bytes(dnode *n, cp_avro_decoder *d, const uint8_t **data, size_t *len,
                          paimon_error *err) {
  if (!n->fixed) return cp_avro_read_bytes(d->cur, data, len, err);
  *len = n->fixed;
  return cp_avro_read_raw(d->cur, n->fixed, data, err);
}

static int dec_decimal(dnode *n, cp_avro_decoder *d, paimon_error *err) {
  const uint8_t *data;
  size_t len;
  CP_RETURN_IF_ERROR(read_raw_bytes(n, d, &data, &len, err));
  if (len == 0 || len > 16)
    return paimon_error_set(err, PAIMON_ECORRUPT, "column %s: a decimal of %zu bytes", n->name,
                            len);
  cp_int128 u = cp_decimal_from_be_bytes(data, len);
  cp_dec128 v;
  memcpy(&v, &u, sizeof v);
  return cp_builder_append_decimal128(n->b, v, err);
}

static int dec_items(dnode *n, cp_avro_decoder *d, paimon_error *err) {
  bool is_map = n->op == OP_MAP;
  const cp_avro_node *item = n->file->items;
  for (;;) {
    int64_t count;
    CP_RETURN_IF_ERROR(cp_avro_read_block_count(d, item->min_size, is_map, &count, err));
    if (count == 0) break;
    for (int64_t i = 0; i < count; i++) {
      if (is_map) {
        const uint8_t *key;
        size_t len;
        CP_RETURN_IF_ERROR(cp_avro_read_bytes(d->cur, &key, &len, err));
        CP_RETURN_IF_ERROR(cp_builder_append_bytes(n->key_b, key, (int64_t)len, err));
      }
      CP_RETURN_IF_ERROR(dec(&n->children[0], d, err));
    }
  }
  return cp_builder_end_element(n->b, err);
}

static int dec(dnode *n, cp_avro_decoder *d, paimon_error *err) {
  if (n->is_union) {
    int64_t branch;
    CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &branch, err));
    if (branch == (int64_t)n->null_branch) return cp_builder_append_null(n->b, err);
    if (branch != (int64_t)n->value_branch)
      return paimon_error_set(err, PAIMON_ECORRUPT, "column %s: union branch %lld out of range",
                              n->name, (long long)branch);
  }
  int64_t l;
  int32_t i32;
  float f32;
  double f64;
  bool bv;
  const uint8_t *data;
  size_t len;
  switch (n->op) {
  case OP_BOOL:
    CP_RETURN_IF_ERROR(cp_avro_read_boolean(d->cur, &bv, err));
    return cp_builder_append_bool(n->b, bv, err);
  case OP_INTEGER:
  case OP_INT_TO_FLOAT:
  case OP_DATE:
    if (n->file->type == CP_AVRO_INT) {
      CP_RETURN_IF_ERROR(cp_avro_read_int(d->cur, &i32, err));
      l = i32;
    } else {
      CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &l, err));
    }
    return n->op == OP_INT_TO_FLOAT ? cp_builder_append_double(n->b, (double)l, err)
                                    : cp_builder_append_int64(n->b, l, err);
  case OP_FLOAT:
    if (n->file->type == CP_AVRO_FLOAT) {
      CP_RETURN_IF_ERROR(cp_avro_read_float(d->cur, &f32, err));
      f64 = f32;
    } else {
      CP_RETURN_IF_ERROR(cp_avro_read_double(d->cur, &f64, err));
    }
    return cp_builder_append_double(n->b, f64, err);
  case OP_BYTES:
    CP_RETURN_IF_ERROR(read_raw_bytes(n, d, &data, &len, err));
    return cp_builder_append_bytes(n->b, data, (int64_t)len, err);
  case OP_DECIMAL: return dec_decimal(n, d, err);
  case OP_TIME:
    if (n->file_unit == CP_UNIT_MILLI) {
      CP_RETURN_IF_ERROR(cp_avro_read_int(d->cur, &i32, err));
      return cp_builder_append_int64(n->b, i32, err);
    }
    CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &l, err));
    return cp_builder_append_int64(n->b, l / 1000, err);
  case OP_TIMESTAMP: {
    CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &l, err));
    int64_t millis, v;
    int32_t nanos;
    cp_timestamp_split(l, n->file_unit, &millis, &nanos);
    CP_RETURN_IF_ERROR(cp_timestamp_join(millis, nanos, n->unit, &v, err));
    return cp_builder_append_int64(n->b, v, err);
  }
  case OP_RECORD:
  case OP_KV:
    CP_RETURN_IF_ERROR(cp_avro_decoder_enter(d, err));
    CP_RETURN_IF_ERROR(dec_fields(n, d, err));
    cp_avro_decoder_leave(d);
    return n->end_element ? cp_builder_end_element(n->b, err) : 0;
  case OP_ARRAY:
  case OP_MAP:
  case OP_ARRAY_MAP:
    CP_RETURN_IF_ERROR(cp_avro_decoder_enter(d, err));
    CP_RETURN_IF_ERROR(dec_items(n, d, err));
    cp_avro_decoder_leave(d);
    return 0;
  case OP_SKIP: return cp_avro_skip(d, n->file, err);
  }
  return 0;
}

/* ---- the reader ---- */

static int fail(cp_avro_dr *r, int rc, paimon_error *err) {
  paimon_error_prefix(err, "Avro data file %s: record %lld", r->path, (long long)r->row);
  r->done = true;
  return rc;
}

/* Builds the reader around r->reader (opened by the caller): the plan, the batch builder and the
 * selection. */
static int setup(cp_avro_dr *r, const cp_avro_dr_options *opts, paimon_error *err);

static int finish_open(cp_avro_dr **out, cp_avro_dr *r, int rc, const cp_avro_dr_options *opts,
                       const char *path, paimon_error *err) {
  if (!rc) rc = setup(r, opts, err);
  if (rc) {
    paimon_error_prefix(err, "Avro data file %s", path);
    cp_avro_dr_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

static cp_avro_dr *new_reader(const char *path, const cp_avro_dr_options *opts) {
  cp_avro_dr *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->arena = (cp_arena)CP_ARENA_INIT;
  r->path = strdup(path);
  r->batch_size = opts && opts->batch_size > 0 ? opts->batch_size : DEFAULT_BATCH;
  if (!r->path) {
    free(r);
    return NULL;
  }
  return r;
}

int cp_avro_dr_open(cp_avro_dr **out, cp_fs *fs, const char *path, const cp_avro_dr_options *opts,
                    paimon_error *err) {
  *out = NULL;
  cp_avro_dr *r = new_reader(path, opts);
  if (!r) return CP_ENOMEM(err, "Avro reader");
  int rc = cp_avro_reader_open_file(&r->reader, fs, path, NULL, err);
  return finish_open(out, r, rc, opts, path, err);
}

int cp_avro_dr_open_mem(cp_avro_dr **out, const char *name, const void *data, size_t len,
                        const cp_avro_dr_options *opts, paimon_error *err) {
  *out = NULL;
  cp_avro_dr *r = new_reader(name, opts);
  if (!r) return CP_ENOMEM(err, "Avro reader");
  cp_avro_reader_options ro;
  memset(&ro, 0, sizeof ro);
  ro.max_block_bytes = opts ? opts->max_block_bytes : 0;
  int rc = cp_avro_reader_open_mem(&r->reader, name, data, len, &ro, err);
  return finish_open(out, r, rc, opts, name, err);
}

static int setup(cp_avro_dr *r, const cp_avro_dr_options *opts, paimon_error *err) {
  size_t n = opts ? opts->num_columns : 0;
  int rc = 0;
  uint64_t rows = 0;
  if (!rc) rc = cp_avro_reader_count_records(r->reader, &rows, err);
  r->file_rows = (int64_t)rows;
  /* The batch's schema: a struct of the requested columns. */
  cp_type row = {.kind = CP_TYPE_ROW, .nullable = false};
  cp_field *fields = n ? calloc(n, sizeof *fields) : NULL;
  if (!rc && n && !fields) rc = CP_ENOMEM(err, "Avro reader");
  for (size_t i = 0; !rc && i < n; i++) {
    const cp_avro_dr_column *c = &opts->columns[i];
    fields[i] = (cp_field){0, (char *)(c->output_name ? c->output_name : c->name),
                           (cp_type *)c->type, NULL, NULL};
    if (!fields[i].name) fields[i].name = (char *)"";
  }
  row.fields = fields;
  row.n_fields = n;
  if (!rc) rc = cp_row_to_arrow_schema(&row, &r->schema, err);
  if (!rc) rc = cp_builder_create(&r->top, &r->schema, err);
  cp_builder **builders = n ? calloc(n, sizeof *builders) : NULL;
  if (!rc && n && !builders) rc = CP_ENOMEM(err, "Avro reader");
  for (size_t i = 0; !rc && i < n; i++) {
    builders[i] = cp_builder_child(r->top, (int64_t)i);
    fields[i].name = (char *)opts->columns[i].name; /* matched by the file's name */
  }
  if (!rc) {
    /* Java writes the files of partial-column writes with a nullable row: ["null", record]. */
    const cp_avro_node *root = r->root = cp_avro_reader_record_schema(r->reader);
    if (cp_avro_node_is_nullable(root, &r->plan.null_branch, &r->plan.value_branch)) {
      r->plan.is_union = true;
      root = root->branches[r->plan.value_branch];
    }
    if (root->type != CP_AVRO_RECORD)
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "the file's schema is not a record");
    r->plan.op = OP_RECORD;
    r->plan.file = root;
    r->plan.b = r->top;
    r->plan.name = "";
    r->plan.end_element = true;
    if (!rc) rc = plan_fields(r, &r->plan, root, fields, builders, n, err);
  }
  free(fields);
  free(builders);
  /* The selection. */
  if (!rc && opts && opts->ranges) {
    r->ranges = malloc((opts->num_ranges ? opts->num_ranges : 1) * sizeof *r->ranges);
    if (!r->ranges) rc = CP_ENOMEM(err, "Avro reader");
    for (size_t i = 0; !rc && i < opts->num_ranges; i++) {
      cp_avro_dr_range g = opts->ranges[i];
      if (g.end > r->file_rows) g.end = r->file_rows;
      if (g.start < 0 || (r->n_ranges && g.start < r->ranges[r->n_ranges - 1].end))
        rc = paimon_error_set(err, PAIMON_EINVAL, "row ranges must be sorted and disjoint");
      else if (g.end > g.start)
        r->ranges[r->n_ranges++] = g;
    }
  } else if (!rc) {
    r->ranges = malloc(sizeof *r->ranges);
    if (!r->ranges)
      rc = CP_ENOMEM(err, "Avro reader");
    else if (r->file_rows > 0)
      r->ranges[r->n_ranges++] = (cp_avro_dr_range){0, r->file_rows};
  }
  for (size_t i = 0; !rc && i < r->n_ranges; i++)
    r->selected += r->ranges[i].end - r->ranges[i].start;
  return rc;
}

/* Moves to the block holding row r->ranges[cur_range].start or later, skipping whole blocks
 * before it without decompressing them. */
static int next_block(cp_avro_dr *r, paimon_error *err) {
  int64_t want = r->ranges[r->cur_range].start;
  for (;;) {
    size_t count;
    bool has;
    CP_RETURN_IF_ERROR(cp_avro_reader_peek_block(r->reader, &count, &has, err));
    if (has && r->row + (int64_t)count <= want) {
      CP_RETURN_IF_ERROR(cp_avro_reader_skip_block(r->reader, &count, &has, err));
      r->row += (int64_t)count;
      continue;
    }
    cp_avro_block b;
    if (has) CP_RETURN_IF_ERROR(cp_avro_reader_next_raw_block(r->reader, &b, &has, err));
    if (!has)
      return paimon_error_set(err, PAIMON_ECORRUPT, "the file ends before row %lld",
                              (long long)want);
    cp_avro_cursor_init(&r->cur, b.data, b.len);
    r->block_left = b.count;
    r->in_block = true;
    return 0;
  }
}

int cp_avro_dr_next(cp_avro_dr *r, struct ArrowArray *out_batch, struct ArrowSchema *out_schema,
                    bool *eof, paimon_error *err) {
  memset(out_batch, 0, sizeof *out_batch);
  *eof = false;
  if (out_schema) {
    memset(out_schema, 0, sizeof *out_schema);
    CP_RETURN_IF_ERROR(cp_schema_copy(out_schema, &r->schema, err));
  }
  int64_t got = 0;
  int rc = 0;
  while (!rc && !r->done && got < r->batch_size) {
    if (r->cur_range >= r->n_ranges) {
      r->done = true;
      break;
    }
    const cp_avro_dr_range *g = &r->ranges[r->cur_range];
    if (r->row >= g->end) {
      r->cur_range++;
      continue;
    }
    if (!r->in_block || r->block_left == 0) {
      r->in_block = false;
      rc = next_block(r, err);
      continue;
    }
    cp_avro_decoder d;
    cp_avro_decoder_init(&d, &r->cur, &r->arena, NULL);
    if (r->row < g->start)
      rc = cp_avro_skip(&d, r->root, err);
    else {
      rc = dec(&r->plan, &d, err);
      got++;
    }
    if (rc) break;
    r->row++;
    if (--r->block_left == 0 && cp_avro_cursor_remaining(&r->cur))
      rc = paimon_error_set(err, PAIMON_ECORRUPT, "%zu bytes left over after the block's records",
                            cp_avro_cursor_remaining(&r->cur));
  }
  if (rc) {
    if (out_schema && out_schema->release) out_schema->release(out_schema);
    return fail(r, rc, err);
  }
  if (got == 0) {
    *eof = true;
    if (out_schema && out_schema->release) out_schema->release(out_schema);
    return 0;
  }
  rc = cp_builder_finish(r->top, out_batch, err);
  return rc ? fail(r, rc, err) : 0;
}

void cp_avro_dr_set_batch_size(cp_avro_dr *r, int64_t rows) {
  r->batch_size = rows > 0 ? rows : DEFAULT_BATCH;
}

int64_t cp_avro_dr_selected_rows(const cp_avro_dr *r) { return r->selected; }
int64_t cp_avro_dr_file_rows(const cp_avro_dr *r) { return r->file_rows; }

bool cp_avro_dr_has_column(const cp_avro_dr *r, const char *name) {
  return cp_avro_record_field(r->plan.file, name) != NULL;
}

void cp_avro_dr_free(cp_avro_dr *r) {
  if (!r) return;
  cp_builder_free(r->top);
  if (r->schema.release) r->schema.release(&r->schema);
  cp_avro_reader_free(r->reader);
  cp_arena_free(&r->arena);
  free(r->ranges);
  free(r->path);
  free(r);
}
