/*
 * Binding (bind.h), part one: scopes and their binding rows, column resolution with Spark's
 * messages, aggregate detection and collection, structural equality for GROUP BY matching, and
 * the bind entry points. The conversion of each syntax node is in bind_expr.c.
 */
#include "sql/bind.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "sql/bind_internal.h"
#include "types/type_sql.h"

int cp_sql_error_at(paimon_error *err, int code, cp_sql_pos pos, const char *fmt, ...) {
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return paimon_error_set(err, code, "line %d:%d: %s", pos.line, pos.col, msg);
}

void cp_sql_type_name(const cp_type *t, char *buf, size_t size) {
  cp_buf b = CP_BUF_INIT;
  cp_type *copy = NULL;
  if (cp_type_copy_nullable(&copy, t, true, NULL) == 0 && cp_type_append_sql(copy, &b, NULL) == 0 &&
      cp_buf_nul_terminate(&b, NULL) == 0)
    snprintf(buf, size, "%s", (const char *)b.data);
  else
    snprintf(buf, size, "%s", cp_type_kind_name(t->kind));
  cp_type_free(copy);
  cp_buf_free(&b);
}

/* ---- scopes --------------------------------------------------------------------------------- */

static bool name_taken(char **names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && strcasecmp(names[i], name) == 0) return true;
  return false;
}

static size_t count_named(const cp_rel_col *cols, size_t n, const char *name) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += strcasecmp(cols[i].name, name) == 0;
  return k;
}

/* A field name for column i that no other column of the scope has. */
static char *bind_name(const cp_rel_col *cols, size_t n, size_t i, char **taken) {
  const cp_rel_col *c = &cols[i];
  char buf[512];
  if (c->name[0] && count_named(cols, n, c->name) == 1 && !name_taken(taken, i, c->name))
    return strdup(c->name);
  if (c->name[0] && c->qualifier) {
    snprintf(buf, sizeof buf, "%s.%s", c->qualifier, c->name);
    if (!name_taken(taken, i, buf)) {
      bool unique = true;
      for (size_t j = 0; j < n && unique; j++)
        if (j != i && cols[j].qualifier && strcasecmp(cols[j].qualifier, c->qualifier) == 0 &&
            strcasecmp(cols[j].name, c->name) == 0)
          unique = false;
      if (unique) return strdup(buf);
    }
  }
  snprintf(buf, sizeof buf, "%s#%zu", c->name[0] ? c->name : "col", i);
  return strdup(buf);
}

int cp_sql_scope_init(cp_sql_scope *s, const cp_rel_col *cols, size_t n_cols, const char *clause,
                      paimon_error *err) {
  memset(s, 0, sizeof *s);
  s->cols = cols;
  s->n_cols = n_cols;
  s->clause = clause;
  s->bind_names = calloc(n_cols ? n_cols : 1, sizeof *s->bind_names);
  cp_field *fields = calloc(n_cols ? n_cols : 1, sizeof *fields);
  int rc = (!s->bind_names || !fields) ? CP_ENOMEM(err, "scope") : PAIMON_OK;
  size_t made = 0;
  for (; !rc && made < n_cols; made++) {
    s->bind_names[made] = bind_name(cols, n_cols, made, s->bind_names);
    cp_type *t = NULL;
    rc = s->bind_names[made] ? cp_type_copy(&t, cols[made].type, err) : CP_ENOMEM(err, "scope");
    if (!rc)
      rc = cp_field_init(&fields[made], (int32_t)made, s->bind_names[made], t, NULL, NULL, err);
    if (rc) break;
  }
  if (!rc)
    rc = cp_type_new_row(&s->row, fields, n_cols, true, err);
  else
    for (size_t i = 0; i < made; i++) cp_field_clear(&fields[i]);
  free(fields);
  if (rc) cp_sql_scope_free(s);
  return rc;
}

void cp_sql_scope_free(cp_sql_scope *s) {
  if (!s) return;
  for (size_t i = 0; s->bind_names && i < s->n_cols; i++) free(s->bind_names[i]);
  free(s->bind_names);
  cp_type_free(s->row);
  memset(s, 0, sizeof *s);
}

/* ---- resolution ----------------------------------------------------------------------------- */

bool cp_sql_is_catalog_name(const char *name) {
  return strcasecmp(name, "paimon") == 0 || strcasecmp(name, "spark_catalog") == 0;
}

static bool col_matches(const cp_rel_col *c, const cp_sql_name *n) {
  const char *col = n->parts[n->n - 1];
  if (strcasecmp(c->name, col) != 0) return false;
  if (n->n == 1) return !c->qualified_only;
  if (!c->qualifier || strcasecmp(c->qualifier, n->parts[n->n - 2]) != 0) return false;
  if (n->n == 2) return true;
  if (!c->database || strcasecmp(c->database, n->parts[n->n - 3]) != 0) return false;
  return n->n == 3 || cp_sql_is_catalog_name(n->parts[0]);
}

static void name_text(const cp_sql_name *n, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n->n && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "." : "", n->parts[i]);
}

static int not_found(const cp_sql_scope *s, const cp_sql_name *name, paimon_error *err) {
  char text[256], list[600];
  name_text(name, text, sizeof text);
  size_t len = 0, shown = 0;
  list[0] = '\0';
  for (size_t i = 0; i < s->n_cols && len < sizeof list - 64; i++) {
    if (s->cols[i].hidden) continue;
    if (shown++ == 12) {
      len += (size_t)snprintf(list + len, sizeof list - len, ", ...");
      break;
    }
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s%s%s", shown > 1 ? ", " : "",
                            s->cols[i].qualifier && name->n > 1 ? s->cols[i].qualifier : "",
                            s->cols[i].qualifier && name->n > 1 ? "." : "", s->cols[i].name);
  }
  return cp_sql_error_at(err, PAIMON_ENOTFOUND, name->pos,
                         "A column or function parameter with name '%s' cannot be resolved. Did "
                         "you mean one of the following? [%s]",
                         text, list);
}

int cp_sql_resolve(const cp_sql_scope *s, const cp_sql_name *name, size_t *index,
                   paimon_error *err) {
  if (name->n > 4)
    return cp_sql_error_at(err, PAIMON_EINVAL, name->pos, "column name with more than 4 parts");
  size_t found = SIZE_MAX, matches = 0;
  for (size_t i = 0; i < s->n_cols; i++) {
    if (!col_matches(&s->cols[i], name)) continue;
    if (matches++ == 0) found = i;
  }
  if (matches == 1) {
    *index = found;
    return PAIMON_OK;
  }
  if (matches == 0) return not_found(s, name, err);
  char text[256], list[600];
  name_text(name, text, sizeof text);
  size_t len = 0;
  list[0] = '\0';
  for (size_t i = 0; i < s->n_cols && len < sizeof list - 64; i++)
    if (col_matches(&s->cols[i], name))
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s%s%s", len ? ", " : "",
                              s->cols[i].qualifier ? s->cols[i].qualifier : "",
                              s->cols[i].qualifier ? "." : "", s->cols[i].name);
  return cp_sql_error_at(err, PAIMON_EINVAL, name->pos,
                         "Reference '%s' is ambiguous, could be: %s.", text, list);
}

/* ---- aggregates ----------------------------------------------------------------------------- */

bool cp_sql_is_aggregate_call(const cp_sql_expr *e) {
  return !e->window && cp_sql_is_aggregate_function(e);
}

bool cp_sql_is_aggregate_function(const cp_sql_expr *e) {
  if (e->kind != CP_SQL_E_FUNC || e->name.n != 1) return false;
  static const char *const names[] = {"count", "sum", "min", "max", "avg", "mean"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(e->name.parts[0], names[i]) == 0) return true;
  return false;
}

/* The passes below go down first arguments with a loop (ast.h cp_sql_expr_spine). */
bool cp_sql_has_aggregate(const cp_sql_expr *e) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (cp_sql_is_aggregate_call(e)) return true;
    for (size_t i = 1; i < e->n_args; i++)
      if (cp_sql_has_aggregate(e->args[i])) return true;
  }
  return false;
}

/* Node a equals node b, their arguments aside. */
static bool node_equal(const cp_sql_expr *a, const cp_sql_expr *b) {
  if (a->kind != b->kind || a->op != b->op || a->negated != b->negated ||
      a->bool_value != b->bool_value || a->distinct != b->distinct || a->star_arg != b->star_arg ||
      a->has_operand != b->has_operand || a->has_else != b->has_else || a->n_args != b->n_args ||
      a->name.n != b->name.n)
    return false;
  for (size_t i = 0; i < a->name.n; i++)
    if (strcasecmp(a->name.parts[i], b->name.parts[i]) != 0) return false;
  if (a->kind == CP_SQL_E_LITERAL) {
    if (a->lit.kind != b->lit.kind || a->lit.bool_value != b->lit.bool_value ||
        a->lit.len != b->lit.len)
      return false;
    if (a->lit.len && memcmp(a->lit.text, b->lit.text, a->lit.len) != 0) return false;
    if (a->lit.kind == CP_SQL_LIT_NUMBER && strcasecmp(a->lit.text, b->lit.text) != 0) return false;
    if (a->lit.kind == CP_SQL_LIT_BINARY && strcasecmp(a->lit.text, b->lit.text) != 0) return false;
  }
  if ((a->type || b->type) && (!a->type || !b->type || strcmp(a->type, b->type) != 0)) return false;
  if ((a->escape || b->escape) && (!a->escape || !b->escape || strcmp(a->escape, b->escape) != 0))
    return false;
  /* subqueries and windows are equal only to themselves */
  if (a->query != b->query || a->window != b->window || a->tuple != b->tuple ||
      a->subscript != b->subscript)
    return false;
  if ((a->field || b->field) && (!a->field || !b->field || strcasecmp(a->field, b->field) != 0))
    return false;
  if ((a->filter || b->filter) && !cp_sql_expr_equal(a->filter, b->filter)) return false;
  return true;
}

bool cp_sql_expr_equal(const cp_sql_expr *a, const cp_sql_expr *b) {
  for (;;) {
    if (a == b) return true;
    if (!a || !b || !node_equal(a, b)) return false;
    for (size_t i = 1; i < a->n_args; i++)
      if (!cp_sql_expr_equal(a->args[i], b->args[i])) return false;
    if (!a->n_args) return true;
    a = a->args[0];
    b = b->args[0];
  }
}

static int collect(const cp_sql_expr *e, const cp_sql_expr *inside, cp_sql_expr ***list, size_t *n,
                   paimon_error *err);

/* The aggregate calls in the chain of first arguments of `e` first, top down, then the other
 * arguments bottom up: the order a recursive pre-order walk would meet them in. */
static int collect_chain(const cp_sql_expr *e, const cp_sql_expr *inside, cp_sql_expr ***list,
                         size_t *n, paimon_error *err) {
  cp_chain s;
  CP_RETURN_IF_ERROR(cp_sql_expr_spine(&s, e, err));
  size_t k = 0;
  while (k + 1 < s.n && !cp_sql_is_aggregate_call(s.nodes[k])) k++;
  int rc = collect(s.nodes[k], inside, list, n, err);
  for (size_t i = k; !rc && i-- > 0;) {
    const cp_sql_expr *node = s.nodes[i];
    for (size_t a = 1; !rc && a < node->n_args; a++)
      rc = collect(node->args[a], inside, list, n, err);
  }
  cp_chain_free(&s);
  return rc;
}

static int collect(const cp_sql_expr *e, const cp_sql_expr *inside, cp_sql_expr ***list, size_t *n,
                   paimon_error *err) {
  if (!e) return PAIMON_OK;
  if (!cp_sql_is_aggregate_call(e) && e->n_args) return collect_chain(e, inside, list, n, err);
  if (cp_sql_is_aggregate_call(e)) {
    if (inside) {
      char *name = NULL;
      cp_sql_display_name(inside, &name, NULL);
      int rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos,
                               "It is not allowed to use an aggregate function in the argument "
                               "of another aggregate function (%s).",
                               name ? name : "?");
      free(name);
      return rc;
    }
    for (size_t i = 0; i < e->n_args; i++) CP_RETURN_IF_ERROR(collect(e->args[i], e, list, n, err));
    for (size_t i = 0; i < *n; i++)
      if (cp_sql_expr_equal((*list)[i], e)) return PAIMON_OK;
    cp_sql_expr **grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown) return CP_ENOMEM(err, "aggregates");
    *list = grown;
    (*list)[(*n)++] = (cp_sql_expr *)e;
    return PAIMON_OK;
  }
  for (size_t i = 0; i < e->n_args; i++)
    CP_RETURN_IF_ERROR(collect(e->args[i], inside, list, n, err));
  return PAIMON_OK;
}

int cp_sql_collect_aggregates(const cp_sql_expr *e, cp_sql_expr ***list, size_t *n,
                              paimon_error *err) {
  return collect(e, NULL, list, n, err);
}

int cp_sql_display_name(const cp_sql_expr *e, char **out, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  int rc = cp_sql_expr_display_name(e, &b, err);
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (rc) {
    cp_buf_free(&b);
    *out = NULL;
    return rc;
  }
  *out = (char *)cp_buf_detach(&b);
  return PAIMON_OK;
}

/* ---- CHAR comparisons (Spark's ApplyCharTypePadding; sql/exec_char.c for the rest) --------- */

int64_t cp_sql_num_chars(const uint8_t *s, int64_t len) {
  int64_t n = 0;
  for (int64_t i = 0; i < len; i++) n += (s[i] & 0xC0) != 0x80;
  return n;
}

/* Pads a string literal to `n` characters when it is shorter. */
static int pad_literal(cp_expr *lit, int64_t n, paimon_error *err) {
  if (lit->kind != CP_EXPR_LITERAL || !lit->type || !cp_type_is_string(lit->type) ||
      lit->value.is_null)
    return PAIMON_OK;
  const uint8_t *s = lit->value.v.bytes.data;
  size_t len = lit->value.v.bytes.len;
  int64_t chars = cp_sql_num_chars(s, (int64_t)len);
  if (chars >= n) return PAIMON_OK;
  uint8_t *p = malloc(len + (size_t)(n - chars) + 1);
  if (!p) return CP_ENOMEM(err, "CHAR padding");
  if (len) memcpy(p, s, len);
  memset(p + len, ' ', (size_t)(n - chars));
  free(lit->storage);
  lit->storage = p;
  lit->value.v.bytes.data = p;
  lit->value.v.bytes.len = len + (size_t)(n - chars);
  return PAIMON_OK;
}

static bool char_column(const cp_expr *e) {
  return e->kind == CP_EXPR_COLUMN && e->type && e->type->kind == CP_TYPE_CHAR;
}

/* The chain of first arguments with a loop, the others by recursion (expr.h, "Depth"). */
int cp_sql_char_pad_comparisons(cp_expr *e, paimon_error *err) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->kind == CP_EXPR_COMPARE && e->n_args == 2) {
      if (char_column(e->args[0]))
        CP_RETURN_IF_ERROR(pad_literal(e->args[1], e->args[0]->type->length, err));
      else if (char_column(e->args[1]))
        CP_RETURN_IF_ERROR(pad_literal(e->args[0], e->args[1]->type->length, err));
    } else if (e->kind == CP_EXPR_IN && char_column(e->args[0])) {
      for (size_t i = 1; i < e->n_args; i++)
        CP_RETURN_IF_ERROR(pad_literal(e->args[i], e->args[0]->type->length, err));
    }
    for (size_t i = 1; i < e->n_args; i++)
      CP_RETURN_IF_ERROR(cp_sql_char_pad_comparisons(e->args[i], err));
  }
  return PAIMON_OK;
}

/* ---- entry points --------------------------------------------------------------------------- */

int cp_sql_bind(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out, paimon_error *err) {
  *out = NULL;
  cp_expr *unbound = NULL;
  CP_RETURN_IF_ERROR(cp_sql_convert(s, e, &unbound, err));
  int rc = cp_expr_bind(unbound, s->row, false, out, err);
  cp_expr_free(unbound);
  if (!rc) rc = cp_sql_char_pad_comparisons(*out, err);
  if (rc && *out) {
    cp_expr_free(*out);
    *out = NULL;
  }
  if (rc && rc != PAIMON_ENOMEM) paimon_error_prefix(err, "line %d:%d", e->pos.line, e->pos.col);
  return rc;
}

int cp_sql_bind_predicate(const cp_sql_scope *s, const cp_sql_expr *e, cp_expr **out,
                          paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sql_bind(s, e, out, err));
  if ((*out)->type->kind == CP_TYPE_BOOLEAN) return PAIMON_OK;
  char name[128];
  cp_sql_type_name((*out)->type, name, sizeof name);
  cp_expr_free(*out);
  *out = NULL;
  return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "%s must be a BOOLEAN expression, got %s",
                         s->clause ? s->clause : "the condition", name);
}

static bool reads_columns(const cp_sql_expr *e) {
  for (; e; e = e->n_args ? e->args[0] : NULL) {
    if (e->kind == CP_SQL_E_COLUMN || e->kind == CP_SQL_E_STAR) return true;
    for (size_t i = 1; i < e->n_args; i++)
      if (reads_columns(e->args[i])) return true;
  }
  return false;
}

int cp_sql_eval_constant_int(const cp_sql_expr *e, const char *what, int64_t *out,
                             paimon_error *err) {
  if (reads_columns(e))
    return cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "%s must be a constant integer", what);
  cp_sql_scope s;
  CP_RETURN_IF_ERROR(cp_sql_scope_init(&s, NULL, 0, what, err));
  cp_expr *b = NULL;
  int rc = cp_sql_bind(&s, e, &b, err);
  if (!rc && (!cp_type_is_integer(b->type) || !cp_expr_is_constant(b)))
    rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "%s must be a constant integer", what);
  cp_datum d;
  bool known = false;
  cp_arena arena = CP_ARENA_INIT;
  if (!rc) rc = cp_expr_eval_row_value(b, NULL, NULL, &arena, &d, &known, err);
  if (!rc && (!known || d.is_null || d.v.i64 < 0))
    rc = cp_sql_error_at(err, PAIMON_EINVAL, e->pos, "%s must be a non-negative integer", what);
  if (!rc) *out = d.v.i64;
  cp_arena_free(&arena);
  cp_expr_free(b);
  cp_sql_scope_free(&s);
  return rc;
}
