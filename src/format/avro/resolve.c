/*
 * Schema resolution (Avro 1.11 specification, "Schema Resolution"; spec/format.md §4.1 for
 * Paimon's by-name rule). The resolver compiles the (writer, reader) pair into a plan graph once,
 * so per-datum work is a walk over precomputed decisions: which writer fields to skip, where each
 * kept field lands in the reader record, which defaults fill the rest. See resolve.h for the rules.
 *
 * Plans are memoised per (writer node, reader node), which both shares work between repeated
 * named types and terminates on recursive schemas.
 */
#include "format/avro/resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

typedef enum plan_kind {
  PLAN_DECODE,       /* same type: decode with the writer schema */
  PLAN_PROMOTE,      /* primitive promotion */
  PLAN_RECORD,       /* field mapping by name */
  PLAN_LIST,         /* array or map with resolved items */
  PLAN_ENUM,         /* symbol mapping */
  PLAN_WRITER_UNION, /* one plan per writer branch */
  PLAN_READER_UNION, /* non-union writer into one reader branch */
  PLAN_FAIL          /* incompatible; fails when a datum needs it */
} plan_kind;

typedef struct plan plan;

typedef struct step {
  const plan *plan;    /* how to read the writer field into the reader field */
  size_t reader_index; /* SIZE_MAX: the reader has no such field, skip it */
} step;

struct plan {
  plan_kind kind;
  const cp_avro_node *w, *r;
  const plan *inner;     /* list items; reader-union payload */
  size_t reader_branch;  /* reader union */
  const plan **branches; /* writer union, one per writer branch */
  step *steps;           /* record: one per writer field */
  cp_avro_value *fill;   /* record: per reader field, the default used when the writer lacks it */
  bool *from_writer;     /* record: per reader field, whether a writer field supplies it */
  size_t *enum_map;      /* enum: writer symbol index -> reader index or SIZE_MAX */
  const char *message;   /* PLAN_FAIL */
};

struct cp_avro_resolver {
  cp_arena arena;
  const plan *root;
};

typedef struct memo_entry {
  const cp_avro_node *w, *r;
  plan *p;
} memo_entry;

typedef struct builder {
  cp_arena *arena;
  memo_entry *memo;
  size_t n_memo, cap_memo;
  char path[512];
  size_t path_len;
  paimon_error *err;
} builder;

static int build(builder *b, const cp_avro_node *w, const cp_avro_node *r, const plan **out);

PAIMON_PRINTF(2, 3)
static int incompatible(builder *b, const char *fmt, ...) {
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (b->path_len) return paimon_error_set(b->err, PAIMON_EINVAL, "field %s: %s", b->path, msg);
  return paimon_error_set(b->err, PAIMON_EINVAL, "%s", msg);
}

static const char *describe(const cp_avro_node *n) {
  return n->name ? n->name : cp_avro_type_name(n->type);
}

static bool promotable(cp_avro_type w, cp_avro_type r) {
  switch (w) {
  case CP_AVRO_INT: return r == CP_AVRO_LONG || r == CP_AVRO_FLOAT || r == CP_AVRO_DOUBLE;
  case CP_AVRO_LONG: return r == CP_AVRO_FLOAT || r == CP_AVRO_DOUBLE;
  case CP_AVRO_FLOAT: return r == CP_AVRO_DOUBLE;
  case CP_AVRO_STRING: return r == CP_AVRO_BYTES;
  case CP_AVRO_BYTES: return r == CP_AVRO_STRING;
  default: return false;
  }
}

static plan *new_plan(builder *b, plan_kind kind, const cp_avro_node *w, const cp_avro_node *r) {
  plan *p = cp_arena_calloc(b->arena, sizeof *p);
  if (!p) return NULL;
  p->kind = kind;
  p->w = w;
  p->r = r;
  if (b->n_memo == b->cap_memo) {
    size_t cap = b->cap_memo ? b->cap_memo * 2 : 16;
    memo_entry *grown = realloc(b->memo, cap * sizeof *grown);
    if (!grown) return NULL;
    b->memo = grown;
    b->cap_memo = cap;
  }
  b->memo[b->n_memo++] = (memo_entry){w, r, p};
  return p;
}

static size_t push_path(builder *b, const char *name) {
  size_t old = b->path_len;
  int n = snprintf(b->path + old, sizeof b->path - old, "%s%s", old ? "." : "", name);
  if (n > 0) b->path_len = old + (size_t)n < sizeof b->path ? old + (size_t)n : sizeof b->path - 1;
  return old;
}

static void pop_path(builder *b, size_t old) {
  b->path_len = old;
  b->path[old] = '\0';
}

/* The value a reader field takes when the writer does not have it. */
static int field_fill(builder *b, const cp_avro_field *rf, cp_avro_value *out) {
  if (rf->default_json) {
    int rc = cp_avro_value_from_json(rf->type, rf->default_json, b->arena, out, b->err);
    if (rc) paimon_error_prefix(b->err, "field %s%s%s", b->path, b->path_len ? "." : "", rf->name);
    return rc;
  }
  size_t null_branch;
  if (rf->type->type == CP_AVRO_UNION) {
    for (null_branch = 0; null_branch < rf->type->n_branches; null_branch++)
      if (rf->type->branches[null_branch]->type == CP_AVRO_NULL) break;
    if (null_branch < rf->type->n_branches) {
      cp_avro_value *inner = cp_arena_calloc(b->arena, sizeof *inner);
      if (!inner) return CP_ENOMEM(b->err, "Avro resolver");
      inner->type = CP_AVRO_NULL;
      *out = cp_avro_branch(null_branch, inner);
      return 0;
    }
  }
  if (rf->type->type == CP_AVRO_NULL) {
    *out = cp_avro_null();
    return 0;
  }
  size_t mark = push_path(b, rf->name);
  int rc = incompatible(b, "missing in the writer schema and has no default");
  pop_path(b, mark);
  return rc;
}

static const cp_avro_field *match_reader_field(const cp_avro_node *r, const char *name,
                                               const bool *taken) {
  for (size_t j = 0; j < r->n_fields; j++)
    if (!taken[j] && strcmp(r->fields[j].name, name) == 0) return &r->fields[j];
  for (size_t j = 0; j < r->n_fields; j++)
    for (size_t a = 0; !taken[j] && a < r->fields[j].n_aliases; a++)
      if (strcmp(r->fields[j].aliases[a], name) == 0) return &r->fields[j];
  return NULL;
}

static int build_record(builder *b, plan *p) {
  const cp_avro_node *w = p->w, *r = p->r;
  p->steps = cp_arena_calloc(b->arena, (w->n_fields ? w->n_fields : 1) * sizeof *p->steps);
  p->fill = cp_arena_calloc(b->arena, (r->n_fields ? r->n_fields : 1) * sizeof *p->fill);
  p->from_writer = cp_arena_calloc(b->arena, (r->n_fields ? r->n_fields : 1) * sizeof(bool));
  if (!p->steps || !p->fill || !p->from_writer) return CP_ENOMEM(b->err, "Avro resolver");
  for (size_t i = 0; i < w->n_fields; i++) {
    const cp_avro_field *wf = &w->fields[i];
    const cp_avro_field *rf = match_reader_field(r, wf->name, p->from_writer);
    p->steps[i].reader_index = SIZE_MAX;
    p->steps[i].plan = NULL;
    if (!rf) continue;
    p->from_writer[rf->index] = true;
    p->steps[i].reader_index = rf->index;
    size_t mark = push_path(b, rf->name);
    int rc = build(b, wf->type, rf->type, &p->steps[i].plan);
    pop_path(b, mark);
    if (rc) return rc;
  }
  for (size_t j = 0; j < r->n_fields; j++)
    if (!p->from_writer[j]) CP_RETURN_IF_ERROR(field_fill(b, &r->fields[j], &p->fill[j]));
  return 0;
}

static int build_enum(builder *b, plan *p) {
  const cp_avro_node *w = p->w, *r = p->r;
  p->enum_map = cp_arena_alloc(b->arena, (w->n_symbols ? w->n_symbols : 1) * sizeof(size_t));
  if (!p->enum_map) return CP_ENOMEM(b->err, "Avro resolver");
  size_t fallback = SIZE_MAX;
  for (size_t j = 0; r->enum_default && j < r->n_symbols; j++)
    if (strcmp(r->symbols[j], r->enum_default) == 0) fallback = j;
  for (size_t i = 0; i < w->n_symbols; i++) {
    p->enum_map[i] = fallback;
    for (size_t j = 0; j < r->n_symbols; j++)
      if (strcmp(w->symbols[i], r->symbols[j]) == 0) p->enum_map[i] = j;
  }
  return 0;
}

/* Picks the reader union branch for a non-union writer type: same type (same name first among
 * named types), else the first promotion target. */
static size_t pick_branch(const cp_avro_node *w, const cp_avro_node *r) {
  size_t same = SIZE_MAX;
  for (size_t i = 0; i < r->n_branches; i++) {
    const cp_avro_node *br = r->branches[i];
    if (br->type != w->type) continue;
    if (!w->name || (br->name && strcmp(br->name, w->name) == 0)) return i;
    if (same == SIZE_MAX) same = i;
  }
  if (same != SIZE_MAX) return same;
  for (size_t i = 0; i < r->n_branches; i++)
    if (promotable(w->type, r->branches[i]->type)) return i;
  return SIZE_MAX;
}

/* A writer union branch the reader cannot take becomes a plan that fails when used (build() has
 * already turned it into PLAN_FAIL). Its message is made relative to the union: the decoder adds
 * the field path when the branch is met. */
static int build_writer_union(builder *b, plan *p) {
  size_t n = p->w->n_branches;
  p->branches = cp_arena_calloc(b->arena, n * sizeof *p->branches);
  if (!p->branches) return CP_ENOMEM(b->err, "Avro resolver");
  char saved[sizeof b->path];
  size_t saved_len = b->path_len;
  memcpy(saved, b->path, sizeof saved);
  pop_path(b, 0);
  int rc = 0;
  for (size_t i = 0; i < n && rc != PAIMON_ENOMEM; i++) {
    rc = build(b, p->w->branches[i], p->r, &p->branches[i]);
    if (rc == PAIMON_ENOMEM) break;
    rc = 0;
  }
  memcpy(b->path, saved, sizeof saved);
  b->path_len = saved_len;
  return rc;
}

static int build_same_type(builder *b, plan *p) {
  switch (p->r->type) {
  case CP_AVRO_RECORD: p->kind = PLAN_RECORD; return build_record(b, p);
  case CP_AVRO_ENUM: p->kind = PLAN_ENUM; return build_enum(b, p);
  case CP_AVRO_FIXED:
    if (p->w->fixed_size != p->r->fixed_size)
      return incompatible(b, "fixed %s of size %zu cannot be read as size %zu", describe(p->w),
                          p->w->fixed_size, p->r->fixed_size);
    return 0;
  case CP_AVRO_ARRAY:
  case CP_AVRO_MAP: {
    p->kind = PLAN_LIST;
    size_t mark = push_path(b, p->r->type == CP_AVRO_ARRAY ? "[items]" : "[values]");
    int rc = build(b, p->w->items, p->r->items, &p->inner);
    pop_path(b, mark);
    return rc;
  }
  default: return 0; /* primitives decode as written */
  }
}

static int build_new(builder *b, plan *p);

/* Returns the memoised plan for (w, r) or builds it. A plan whose build fails becomes PLAN_FAIL
 * carrying the message, so a later memo hit (or a writer union branch) never sees a half-built
 * plan. */
static int build(builder *b, const cp_avro_node *w, const cp_avro_node *r, const plan **out) {
  for (size_t i = 0; i < b->n_memo; i++) {
    if (b->memo[i].w == w && b->memo[i].r == r) {
      *out = b->memo[i].p;
      return 0;
    }
  }
  plan *p = new_plan(b, PLAN_DECODE, w, r);
  if (!p) return CP_ENOMEM(b->err, "Avro resolver");
  *out = p;
  int rc = build_new(b, p);
  if (rc && rc != PAIMON_ENOMEM) {
    p->kind = PLAN_FAIL;
    p->message = cp_arena_strdup(b->arena, b->err->message);
    if (!p->message) return CP_ENOMEM(b->err, "Avro resolver");
  }
  return rc;
}

static int build_new(builder *b, plan *p) {
  const cp_avro_node *w = p->w, *r = p->r;
  if (w->type == CP_AVRO_UNION) {
    p->kind = PLAN_WRITER_UNION;
    return build_writer_union(b, p);
  }
  if (r->type == CP_AVRO_UNION) {
    size_t k = pick_branch(w, r);
    if (k == SIZE_MAX)
      return incompatible(b, "writer type %s matches no branch of the reader union", describe(w));
    p->kind = PLAN_READER_UNION;
    p->reader_branch = k;
    return build(b, w, r->branches[k], &p->inner);
  }
  if (w->type == r->type) return build_same_type(b, p);
  if (promotable(w->type, r->type)) {
    p->kind = PLAN_PROMOTE;
    return 0;
  }
  return incompatible(b, "writer type %s cannot be read as %s", describe(w), describe(r));
}

int cp_avro_resolver_new(cp_avro_resolver **out, const cp_avro_node *writer,
                         const cp_avro_node *reader, paimon_error *err) {
  *out = NULL;
  cp_avro_resolver *res = calloc(1, sizeof *res);
  if (!res) return CP_ENOMEM(err, "Avro resolver");
  paimon_error local = {0};
  builder b = {.arena = &res->arena, .err = &local};
  int rc = build(&b, writer, reader, &res->root);
  free(b.memo);
  if (rc) {
    cp_avro_resolver_free(res);
    return paimon_error_set(err, rc, "%s", local.message);
  }
  *out = res;
  return 0;
}

void cp_avro_resolver_free(cp_avro_resolver *r) {
  if (!r) return;
  cp_arena_free(&r->arena);
  free(r);
}

/* ---- decoding with a plan ---- */

static int run(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err);

static int run_item(cp_avro_decoder *d, const void *ctx, cp_avro_value *out, paimon_error *err) {
  return run(d, (const plan *)ctx, out, err);
}

static int run_promote(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err) {
  cp_avro_value w;
  CP_RETURN_IF_ERROR(cp_avro_decode_node(d, p->w, &w, err));
  cp_avro_type rt = p->r->type;
  double real = 0;
  switch (w.type) {
  case CP_AVRO_INT: real = w.u.i32; break;
  case CP_AVRO_LONG: real = (double)w.u.i64; break;
  case CP_AVRO_FLOAT: real = w.u.f32; break;
  default: /* string <-> bytes: same bytes, new type */
    *out = w;
    out->type = rt;
    return 0;
  }
  out->type = rt;
  if (rt == CP_AVRO_LONG)
    out->u.i64 = w.u.i32;
  else if (rt == CP_AVRO_FLOAT)
    out->u.f32 = w.type == CP_AVRO_LONG ? (float)w.u.i64 : (float)real;
  else
    out->u.f64 = real;
  return 0;
}

static int run_record(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err) {
  size_t n = p->r->n_fields;
  cp_avro_value *fields = NULL;
  if (n) {
    fields = cp_arena_alloc(d->arena, n * sizeof *fields);
    if (!fields) return CP_ENOMEM(err, "decoding an Avro record");
    for (size_t j = 0; j < n; j++)
      if (!p->from_writer[j]) fields[j] = p->fill[j];
  }
  int slot = d->path_len++;
  for (size_t i = 0; i < p->w->n_fields; i++) {
    if (slot < CP_AVRO_PATH_DEPTH) d->path[slot] = p->w->fields[i].name;
    const step *s = &p->steps[i];
    if (s->reader_index == SIZE_MAX)
      CP_RETURN_IF_ERROR(cp_avro_skip(d, p->w->fields[i].type, err));
    else
      CP_RETURN_IF_ERROR(run(d, s->plan, &fields[s->reader_index], err));
  }
  d->path_len--;
  out->type = CP_AVRO_RECORD;
  out->u.record.fields = fields;
  out->u.record.count = n;
  return 0;
}

static int run_enum(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_avro_decode_node(d, p->w, out, err));
  size_t mapped = p->enum_map[out->u.enum_index];
  if (mapped == SIZE_MAX)
    return paimon_error_set(err, PAIMON_EINVAL, "enum symbol '%s' is unknown to the reader",
                            p->w->symbols[out->u.enum_index]);
  out->u.enum_index = mapped;
  return 0;
}

static int run_nested(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err) {
  switch (p->kind) {
  case PLAN_RECORD: return run_record(d, p, out, err);
  case PLAN_LIST:
    return cp_avro_decode_blocks(d, p->w->type == CP_AVRO_MAP, p->w->items->min_size, run_item,
                                 p->inner, out, err);
  case PLAN_WRITER_UNION: {
    const uint8_t *at = d->cur->pos;
    int64_t index;
    CP_RETURN_IF_ERROR(cp_avro_read_long(d->cur, &index, err));
    if (index < 0 || (uint64_t)index >= p->w->n_branches)
      return paimon_error_set(err, PAIMON_ECORRUPT, "at byte %zu: union branch out of range: %lld",
                              (size_t)(at - d->cur->base), (long long)index);
    return run(d, p->branches[index], out, err);
  }
  default: { /* PLAN_READER_UNION */
    cp_avro_value *inner = cp_arena_alloc(d->arena, sizeof *inner);
    if (!inner) return CP_ENOMEM(err, "decoding an Avro union");
    *out = cp_avro_branch(p->reader_branch, inner);
    return run(d, p->inner, inner, err);
  }
  }
}

static int run(cp_avro_decoder *d, const plan *p, cp_avro_value *out, paimon_error *err) {
  switch (p->kind) {
  case PLAN_DECODE: return cp_avro_decode_node(d, p->w, out, err);
  case PLAN_PROMOTE: return run_promote(d, p, out, err);
  case PLAN_ENUM: return run_enum(d, p, out, err);
  case PLAN_FAIL: return paimon_error_set(err, PAIMON_EINVAL, "%s", p->message);
  default: break;
  }
  CP_RETURN_IF_ERROR(cp_avro_decoder_enter(d, err));
  int rc = run_nested(d, p, out, err);
  if (rc == 0) cp_avro_decoder_leave(d);
  return rc;
}

int cp_avro_resolver_decode(const cp_avro_resolver *r, cp_avro_decoder *d, cp_avro_value *out,
                            paimon_error *err) {
  d->path_len = 0;
  d->depth = 0;
  int rc = run(d, r->root, out, err);
  return rc ? cp_avro_decoder_fail(d, rc, err) : 0;
}
