/*
 * Helpers shared by the expr layer's unit tests: batches built from text cells, a compact
 * s-expression notation for expression trees, and evaluation rendered as text — every evaluation
 * is also checked row by row against the reference per-value semantics (cp_expr_eval_row_value),
 * so each test exercises the vectorized kernels and the scalar path together.
 *
 * Notation (test-only):
 *   a, b          column references (any identifier that is not a keyword below)
 *   12  -3        INT literal (BIGINT if it does not fit); 12L BIGINT; 1.5 DECIMAL(2,1) (SQL);
 *   1.5d 2e3d     DOUBLE; 1.5f FLOAT; nan / inf / -inf DOUBLE
 *   'it''s'       STRING literal (typed: Spark rules apply)
 *   t'12'         text literal (typed by what it meets; see expr.h)
 *   null          untyped NULL;  true / false  BOOLEAN
 *   (lit 'TYPE' 'text')   typed literal parsed with cp_datum_parse_text; (lit 'TYPE' null)
 *   (op arg ...)  op: = <> < <= > >= <=> and or not is_null is_not_null in not_in between
 *                 not_between like not_like (like x p 'esc') startswith endswith contains
 *                 + - * / % neg (cast x 'TYPE') coalesce case if concat upper lower length
 *                 substring trim abs
 */
#ifndef CP_EXPR_TEST_H
#define CP_EXPR_TEST_H

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/ops.h"
#include "arrow/schema.h"
#include "expr/expr.h"
#include "expr/expr_internal.h"
#include "test.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

/* ---- batches --------------------------------------------------------------------------------- */

typedef struct tb {
  cp_type *row;
  struct ArrowSchema schema;
  struct ArrowArray array;
  cp_array_view view;
  int64_t rows;
} tb;

static inline cp_type *tt_type(const char *text) {
  cp_type *t = NULL;
  paimon_error err;
  if (cp_type_parse(text, &t, &err) != 0) {
    fprintf(stderr, "bad test type '%s': %s\n", text, err.message);
    exit(2);
  }
  return t;
}

/* A batch of `rows` rows for the ROW type `row_type`; cells[r * n_fields + c] is the text of the
 * value (cp_datum_parse_text) or NULL for a NULL. The Arrow schema is the canonical one, or
 * `arrow` (a caller-built struct schema, moved in) to test other layouts of the same values. */
static inline void tb_make_arrow(tb *t, const char *row_type, struct ArrowSchema *arrow,
                                 int64_t rows, const char *const *cells) {
  paimon_error err;
  memset(t, 0, sizeof *t);
  t->row = tt_type(row_type);
  t->rows = rows;
  if (arrow)
    cp_schema_move(arrow, &t->schema);
  else
    CHECK_OK(cp_row_to_arrow_schema(t->row, &t->schema, &err), &err);
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &t->schema, &err), &err);
  size_t nf = t->row->n_fields;
  cp_arena arena = CP_ARENA_INIT;
  for (int64_t r = 0; r < rows; r++) {
    for (size_t c = 0; c < nf; c++) {
      const char *cell = cells[r * (int64_t)nf + (int64_t)c];
      cp_datum d = cp_datum_null();
      if (cell) CHECK_OK(cp_datum_parse_text(t->row->fields[c].type, cell, &arena, &d, &err), &err);
      CHECK_OK(cp_datum_append(t->row->fields[c].type, &d, cp_builder_child(b, (int64_t)c), &err),
               &err);
    }
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, &t->array, &err), &err);
  cp_builder_free(b);
  cp_arena_free(&arena);
  CHECK_OK(cp_array_view_init(&t->view, &t->schema, &t->array, &err), &err);
}

static inline void tb_make(tb *t, const char *row_type, int64_t rows, const char *const *cells) {
  tb_make_arrow(t, row_type, NULL, rows, cells);
}

static inline void tb_free(tb *t) {
  cp_array_view_reset(&t->view);
  cp_array_release(&t->array);
  cp_schema_release(&t->schema);
  cp_type_free(t->row);
  memset(t, 0, sizeof *t);
}

/* ---- s-expressions --------------------------------------------------------------------------- */

typedef struct sx {
  const char *p;
  const char *text;
} sx;

static inline void sx_fail(sx *s, const char *why) {
  fprintf(stderr, "bad test expression '%s' at '%s': %s\n", s->text, s->p, why);
  exit(2);
}

static inline void sx_space(sx *s) {
  while (isspace((unsigned char)*s->p)) s->p++;
}

/* A quoted token ('...' with '' for a quote) into a malloc'd string. */
static inline char *sx_quoted(sx *s) {
  size_t cap = strlen(s->p) + 1, n = 0;
  char *out = malloc(cap);
  s->p++;
  for (;;) {
    if (!*s->p) sx_fail(s, "unterminated quote");
    if (*s->p == '\'') {
      if (s->p[1] == '\'') {
        out[n++] = '\'';
        s->p += 2;
        continue;
      }
      s->p++;
      break;
    }
    out[n++] = *s->p++;
  }
  out[n] = 0;
  return out;
}

static inline char *sx_word(sx *s) {
  const char *start = s->p;
  while (*s->p && !isspace((unsigned char)*s->p) && *s->p != '(' && *s->p != ')') s->p++;
  size_t n = (size_t)(s->p - start);
  char *w = malloc(n + 1);
  memcpy(w, start, n);
  w[n] = 0;
  return w;
}

static inline cp_expr *sx_expr(sx *s);

static inline cp_expr *sx_number(sx *s, char *w) {
  paimon_error err;
  cp_expr *e = NULL;
  size_t n = strlen(w);
  char last = w[n - 1];
  if (last == 'd' || last == 'f' || last == 'L') {
    w[n - 1] = 0;
    cp_type *t = tt_type(last == 'd' ? "DOUBLE" : last == 'f' ? "FLOAT" : "BIGINT");
    cp_datum d;
    cp_arena a = CP_ARENA_INIT;
    if (cp_datum_parse_text(t, w, &a, &d, &err) != 0) sx_fail(s, err.message);
    if (cp_expr_literal(&e, t, &d, &err) != 0) sx_fail(s, err.message);
    cp_arena_free(&a);
    cp_type_free(t);
    return e;
  }
  cp_type *t;
  cp_datum d;
  if (cp_parse_number_literal(w, n, &t, &d) != 0) sx_fail(s, "bad number");
  if (cp_expr_literal(&e, t, &d, &err) != 0) sx_fail(s, err.message);
  cp_type_free(t);
  return e;
}

static inline cp_expr *sx_atom(sx *s) {
  paimon_error err;
  cp_expr *e = NULL;
  if (*s->p == '\'') {
    char *q = sx_quoted(s);
    if (cp_expr_string(&e, q, strlen(q), &err) != 0) sx_fail(s, err.message);
    free(q);
    return e;
  }
  if (s->p[0] == 't' && s->p[1] == '\'') {
    s->p++;
    char *q = sx_quoted(s);
    if (cp_expr_text(&e, q, &err) != 0) sx_fail(s, err.message);
    free(q);
    return e;
  }
  char *w = sx_word(s);
  if (!*w) sx_fail(s, "expected a token");
  if (strcmp(w, "null") == 0)
    cp_expr_null(&e, &err);
  else if (strcmp(w, "true") == 0 || strcmp(w, "false") == 0)
    cp_expr_bool(&e, w[0] == 't', &err);
  else if (strcmp(w, "nan") == 0 || strcmp(w, "inf") == 0 || strcmp(w, "-inf") == 0)
    cp_expr_double(&e, w[0] == 'n' ? NAN : w[0] == '-' ? -INFINITY : INFINITY, &err);
  else if (isdigit((unsigned char)w[0]) || (w[0] == '-' && isdigit((unsigned char)w[1])))
    e = sx_number(s, w);
  else if (cp_expr_column(&e, w, &err) != 0)
    sx_fail(s, err.message);
  free(w);
  return e;
}

/* Reads arguments up to ')' into args (capacity 64); returns the count. */
static inline size_t sx_args(sx *s, cp_expr **args) {
  size_t n = 0;
  for (;;) {
    sx_space(s);
    if (*s->p == ')') {
      s->p++;
      return n;
    }
    if (!*s->p) sx_fail(s, "missing ')'");
    if (n == 64) sx_fail(s, "too many arguments");
    args[n++] = sx_expr(s);
  }
}

static inline cp_expr *sx_lit(sx *s) {
  paimon_error err;
  sx_space(s);
  if (*s->p != '\'') sx_fail(s, "lit needs a quoted type");
  char *type = sx_quoted(s);
  sx_space(s);
  cp_type *t = tt_type(type);
  free(type);
  cp_datum d = cp_datum_null();
  cp_arena a = CP_ARENA_INIT;
  if (*s->p == '\'') {
    char *v = sx_quoted(s);
    if (cp_datum_parse_text(t, v, &a, &d, &err) != 0) sx_fail(s, err.message);
    free(v);
  } else {
    free(sx_word(s)); /* null */
  }
  sx_space(s);
  if (*s->p != ')') sx_fail(s, "lit takes two arguments");
  s->p++;
  cp_expr *e;
  if (cp_expr_literal(&e, t, &d, &err) != 0) sx_fail(s, err.message);
  cp_arena_free(&a);
  cp_type_free(t);
  return e;
}

static inline int sx_cmp(const char *op) {
  static const char *const OPS[] = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
  for (int i = 0; i < 7; i++)
    if (strcmp(op, OPS[i]) == 0) return i;
  return -1;
}

static inline int sx_func(const char *op) {
  static const char *const F[] = {"concat", "upper", "lower", "length", "substring", "trim", "abs"};
  for (int i = 0; i < 7; i++)
    if (strcmp(op, F[i]) == 0) return i;
  return -1;
}

static inline cp_expr *sx_call(sx *s, const char *op) {
  paimon_error err;
  cp_expr *args[64], *e = NULL;
  int rc = 0;
  if (strcmp(op, "lit") == 0) return sx_lit(s);
  if (strcmp(op, "cast") == 0) {
    sx_space(s);
    cp_expr *x = sx_expr(s);
    sx_space(s);
    char *type = sx_quoted(s);
    cp_type *t = tt_type(type);
    free(type);
    sx_space(s);
    s->p++;
    rc = cp_expr_cast(&e, x, t, &err);
    cp_type_free(t);
    if (rc) sx_fail(s, err.message);
    return e;
  }
  size_t n = sx_args(s, args);
  const char *arith = "+-*/%";
  int c = sx_cmp(op), f = sx_func(op);
  if (c >= 0 && n == 2)
    rc = cp_expr_compare(&e, (cp_cmp_op)c, args[0], args[1], &err);
  else if (strlen(op) == 1 && strchr(arith, op[0]) && n == 2)
    rc = cp_expr_arith(&e, (cp_arith_op)(strchr(arith, op[0]) - arith), args[0], args[1], &err);
  else if (strcmp(op, "and") == 0)
    rc = cp_expr_and(&e, args, n, &err);
  else if (strcmp(op, "or") == 0)
    rc = cp_expr_or(&e, args, n, &err);
  else if (strcmp(op, "not") == 0)
    rc = cp_expr_not(&e, args[0], &err);
  else if (strcmp(op, "neg") == 0)
    rc = cp_expr_negate(&e, args[0], &err);
  else if (strcmp(op, "is_null") == 0)
    rc = cp_expr_is_null(&e, args[0], false, &err);
  else if (strcmp(op, "is_not_null") == 0)
    rc = cp_expr_is_null(&e, args[0], true, &err);
  else if (strcmp(op, "in") == 0 || strcmp(op, "not_in") == 0)
    rc = cp_expr_in(&e, args[0], args + 1, n - 1, op[0] == 'n', &err);
  else if (strcmp(op, "between") == 0 || strcmp(op, "not_between") == 0)
    rc = cp_expr_between(&e, args[0], args[1], args[2], op[0] == 'n', &err);
  else if (strcmp(op, "like") == 0 || strcmp(op, "not_like") == 0) {
    uint32_t esc = '\\';
    if (n == 3) {
      esc = args[2]->value.v.bytes.len ? args[2]->value.v.bytes.data[0] : 0;
      cp_expr_free(args[2]);
    }
    rc = cp_expr_like(&e, CP_LIKE_PATTERN, args[0], args[1], esc, op[0] == 'n', &err);
  } else if (strcmp(op, "startswith") == 0)
    rc = cp_expr_like(&e, CP_LIKE_STARTS_WITH, args[0], args[1], 0, false, &err);
  else if (strcmp(op, "endswith") == 0)
    rc = cp_expr_like(&e, CP_LIKE_ENDS_WITH, args[0], args[1], 0, false, &err);
  else if (strcmp(op, "contains") == 0)
    rc = cp_expr_like(&e, CP_LIKE_CONTAINS, args[0], args[1], 0, false, &err);
  else if (strcmp(op, "coalesce") == 0)
    rc = cp_expr_coalesce(&e, args, n, &err);
  else if (strcmp(op, "if") == 0)
    rc = cp_expr_if(&e, args[0], args[1], args[2], &err);
  else if (strcmp(op, "case") == 0) {
    cp_expr *conds[32], *vals[32];
    size_t k = n / 2;
    for (size_t i = 0; i < k; i++) conds[i] = args[2 * i], vals[i] = args[2 * i + 1];
    rc = cp_expr_case(&e, conds, vals, k, n % 2 ? args[n - 1] : NULL, &err);
  } else if (f >= 0)
    rc = cp_expr_func(&e, (cp_func)f, args, n, &err);
  else
    sx_fail(s, "unknown operator");
  if (rc) sx_fail(s, err.message);
  return e;
}

static inline cp_expr *sx_expr(sx *s) {
  sx_space(s);
  if (*s->p != '(') return sx_atom(s);
  s->p++;
  sx_space(s);
  char *op = sx_word(s);
  cp_expr *e = sx_call(s, op);
  free(op);
  return e;
}

/* Parses the notation above into an unbound tree (exits on a typo in the test). */
static inline cp_expr *px(const char *text) {
  sx s = {text, text};
  cp_expr *e = sx_expr(&s);
  sx_space(&s);
  if (*s.p) sx_fail(&s, "trailing text");
  return e;
}

/* Parses and binds against t's row type; NULL (and a failed check) when binding fails. */
static inline cp_expr *bx(const tb *t, const char *text) {
  paimon_error err;
  cp_expr *u = px(text), *b = NULL;
  int rc = cp_expr_bind(u, t->row, false, &b, &err);
  cp_expr_free(u);
  if (rc != 0) {
    fprintf(stderr, "bind of '%s' failed: %s\n", text, err.message);
    CHECK(rc == 0);
    return NULL;
  }
  return b;
}

/* Binding must fail with `code` and a message containing `needle`. */
#define CHECK_BIND_FAILS(t, text, code, needle)                                                    \
  do {                                                                                             \
    paimon_error e_;                                                                               \
    cp_expr *u_ = px(text), *b_ = NULL;                                                            \
    CHECK_ERR(cp_expr_bind(u_, (t)->row, false, &b_, &e_), code);                                  \
    CHECK_CONTAINS(e_.message, needle);                                                            \
    CHECK(b_ == NULL);                                                                             \
    cp_expr_free(b_);                                                                              \
    cp_expr_free(u_);                                                                              \
  } while (0)

/* ---- rendering results ------------------------------------------------------------------------
 */

static inline void tt_append_value(const cp_type *t, const cp_datum *d, cp_buf *out) {
  if (d->is_null) {
    cp_buf_appendf(out, NULL, "NULL");
  } else if (cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB) {
    cp_buf_appendf(out, NULL, "X'");
    for (size_t i = 0; i < d->v.bytes.len; i++)
      cp_buf_appendf(out, NULL, "%02X", d->v.bytes.data[i]);
    cp_buf_appendf(out, NULL, "'");
  } else {
    cp_datum_append_text(t, d, out, NULL);
  }
}

/* Evaluates `e` over t's batch (or `view` when not NULL) and renders the rows as "v|v|NULL".
 * Also checks every row against the per-row reference evaluation and the Arrow type of the
 * result. The returned string is malloc'd. */
static inline char *tt_eval_view(const tb *t, const cp_array_view *view, const cp_expr *e) {
  paimon_error err;
  struct ArrowArray out;
  cp_buf text = CP_BUF_INIT;
  if (!view) view = &t->view;
  int rc = cp_expr_eval(e, view, &out, &err);
  if (rc != 0) {
    cp_buf_appendf(&text, NULL, "ERROR %s: %s", paimon_status_name(rc), err.message);
    cp_buf_nul_terminate(&text, NULL);
    return (char *)text.data;
  }
  struct ArrowSchema schema;
  CHECK_OK(cp_expr_arrow_schema(e, "r", &schema, &err), &err);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &schema, &out, &err), &err);
  CHECK_INT(v.length, view->length);
  cp_arena arena = CP_ARENA_INIT;
  for (int64_t i = 0; i < v.length; i++) {
    cp_datum d, ref;
    CHECK_OK(cp_datum_from_view(e->type, &v, i, &d, &err), &err);
    if (i) cp_buf_appendf(&text, NULL, "|");
    tt_append_value(e->type, &d, &text);
    /* The reference: the same expression on row i as datums. */
    cp_datum *row = calloc(view->n_children + 1, sizeof *row);
    for (int64_t c = 0; c < view->n_children; c++)
      CHECK_OK(cp_datum_from_view(t->row->fields[c].type, &view->children[c], i, &row[c], &err),
               &err);
    bool known;
    CHECK_OK(cp_expr_eval_row_value(e, row, NULL, &arena, &ref, &known, &err), &err);
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    tt_append_value(e->type, &d, &a);
    tt_append_value(e->type, &ref, &b);
    bool same = a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
    if (!same)
      fprintf(stderr, "row %lld: vectorized %.*s, per-row %.*s\n", (long long)i, (int)a.len,
              (char *)a.data, (int)b.len, (char *)b.data);
    CHECK(same);
    cp_buf_free(&a);
    cp_buf_free(&b);
    free(row);
  }
  cp_arena_free(&arena);
  cp_array_view_reset(&v);
  cp_schema_release(&schema);
  cp_array_release(&out);
  cp_buf_nul_terminate(&text, NULL);
  return text.data ? (char *)text.data : strdup("");
}

static inline char *tt_eval(const tb *t, const cp_expr *e) { return tt_eval_view(t, NULL, e); }

/* Binds `text` against t, evaluates it and checks the rendering; also checks a slice of the
 * batch (rows 1..) gives the tail of the same answer. */
#define CHECK_EVAL(t, text, expected)                                                              \
  do {                                                                                             \
    cp_expr *e_ = bx(t, text);                                                                     \
    if (e_) {                                                                                      \
      char *got_ = tt_eval(t, e_);                                                                 \
      if (strcmp(got_, expected) != 0) fprintf(stderr, "  expression: %s\n", text);                \
      CHECK_STR(got_, expected);                                                                   \
      tt_check_slice(t, e_, got_);                                                                 \
      free(got_);                                                                                  \
      cp_expr_free(e_);                                                                            \
    }                                                                                              \
  } while (0)

/* Evaluates over rows [1, n) of the batch, through a sliced copy (offset 1), and compares with
 * the full result minus its first row. */
static inline void tt_check_slice(const tb *t, const cp_expr *e, const char *full) {
  if (t->rows < 2) return;
  paimon_error err;
  struct ArrowArray copy, sliced;
  CHECK_OK(cp_array_share((struct ArrowArray *)&t->array, &copy, &err), &err);
  CHECK_OK(cp_array_slice(&copy, 1, t->rows - 1, &sliced, &err), &err);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &t->schema, &sliced, &err), &err);
  char *got = tt_eval_view(t, &v, e);
  const char *tail = strchr(full, '|');
  CHECK_STR(got, tail ? tail + 1 : "");
  free(got);
  cp_array_view_reset(&v);
  cp_array_release(&sliced);
  cp_array_release(&copy);
}

#endif
