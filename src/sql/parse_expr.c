/*
 * Expression grammar of the SQL parser (parser.h), with Spark's precedence (SqlBaseParser.g4
 * booleanExpression / predicate / valueExpression / primaryExpression), loosest first:
 *
 *   OR;  AND;  NOT;  predicates: [NOT] BETWEEN / IN / LIKE, IS [NOT] NULL|TRUE|FALSE;
 *   comparisons = == <> != < <= > >= <=>;  + - ||;  * / %;  unary - + ~;  primary.
 *
 * A minus sign directly before a number is folded into the literal, as Spark's AstBuilder does,
 * so that -2147483648 is an INT and the column is named "-1" rather than "(- 1)".
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "sql/parser_internal.h"

static int new_expr(cp_sql_parser *p, cp_sql_expr_kind kind, cp_sql_pos pos, size_t n_args,
                    cp_sql_expr **out, paimon_error *err) {
  cp_sql_expr *e = cp_ps_alloc(p, sizeof *e, err);
  if (!e) return PAIMON_ENOMEM;
  e->kind = kind;
  e->pos = pos;
  if (n_args) {
    e->args = cp_ps_alloc(p, n_args * sizeof *e->args, err);
    if (!e->args) return PAIMON_ENOMEM;
    e->n_args = n_args;
  }
  *out = e;
  return PAIMON_OK;
}

static int binary(cp_sql_parser *p, cp_sql_op op, cp_sql_pos pos, cp_sql_expr *l, cp_sql_expr *r,
                  cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_BINARY, pos, 2, out, err));
  (*out)->op = op;
  (*out)->args[0] = l;
  (*out)->args[1] = r;
  return PAIMON_OK;
}

/* ---- primary expressions ------------------------------------------------------------------ */

static int literal(cp_sql_parser *p, cp_sql_lit_kind kind, cp_sql_pos pos, const char *text,
                   size_t len, cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_LITERAL, pos, 0, out, err));
  (*out)->lit.kind = kind;
  if (text) {
    /* Token texts die with the parser; the tree keeps its own copy. */
    text = cp_ps_strdup(p, text, len, err);
    if (!text) return PAIMON_ENOMEM;
  }
  (*out)->lit.text = text;
  (*out)->lit.len = len;
  return PAIMON_OK;
}

/* DATE '...', TIMESTAMP '...', TIMESTAMP_NTZ '...', TIMESTAMP_LTZ '...': 1 when parsed, 0 when
 * the next tokens are not a typed literal. */
static int typed_literal(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  if (t->kind != CP_TOK_IDENT || cp_ps_peek_at(p, 1)->kind != CP_TOK_STRING) return 0;
  cp_sql_lit_kind kind;
  if (cp_sql_tok_is(t, "date"))
    kind = CP_SQL_LIT_DATE;
  else if (cp_sql_tok_is(t, "timestamp") || cp_sql_tok_is(t, "timestamp_ltz"))
    kind = CP_SQL_LIT_TIMESTAMP;
  else if (cp_sql_tok_is(t, "timestamp_ntz"))
    kind = CP_SQL_LIT_TIMESTAMP_NTZ;
  else if (cp_sql_tok_is(t, "interval"))
    return cp_ps_error_at(p, cp_ps_pos(p), err, "INTERVAL literals are not supported");
  else
    return 0;
  cp_sql_pos pos = cp_ps_pos(p);
  cp_ps_next(p);
  const char *s;
  size_t len;
  CP_RETURN_IF_ERROR(cp_ps_string(p, &s, &len, err));
  CP_RETURN_IF_ERROR(literal(p, kind, pos, s, len, out, err));
  return 1;
}

static int case_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  cp_sql_pos pos = cp_ps_pos(p);
  cp_ps_next(p); /* CASE */
  cp_ps_vec args = {0};
  bool has_operand = false, has_else = false;
  cp_sql_expr *e = NULL;
  int rc = PAIMON_OK;
  if (cp_ps_kw(p, "end") || cp_ps_kw(p, "else")) rc = cp_ps_error(p, "WHEN", err);
  if (!rc && !cp_ps_kw(p, "when")) {
    has_operand = true;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&args, e, err);
  }
  if (!rc && !cp_ps_kw(p, "when")) rc = cp_ps_error(p, "WHEN", err);
  while (!rc && cp_ps_accept_kw(p, "when")) {
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&args, e, err);
    if (!rc) rc = cp_ps_expect_kw(p, "then", err);
    if (!rc) rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&args, e, err);
  }
  if (!rc && cp_ps_accept_kw(p, "else")) {
    has_else = true;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&args, e, err);
  }
  if (!rc && !cp_ps_accept_kw(p, "end"))
    rc = cp_ps_error(p, has_else ? "END" : "WHEN, ELSE or END", err);
  cp_sql_expr *c = NULL;
  if (!rc) rc = new_expr(p, CP_SQL_E_CASE, pos, 0, &c, err);
  if (!rc) {
    c->has_operand = has_operand;
    c->has_else = has_else;
    c->n_args = args.n;
    rc = cp_ps_vec_finish(p, &args, 0, (void **)&c->args, err);
    *out = c;
  }
  cp_ps_vec_free(&args);
  return rc;
}

/* '(' query ')' as a subquery expression of `kind` (IN's left operand in `left`). */
static int subquery_expr(cp_sql_parser *p, cp_sql_subquery_kind kind, cp_sql_pos pos,
                         cp_sql_expr *left, cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_SUBQUERY, pos, left ? 1 : 0, out, err));
  (*out)->subquery = kind;
  if (left) (*out)->args[0] = left;
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
  int rc = cp_ps_query(p, &(*out)->query, err);
  cp_ps_leave(p);
  CP_RETURN_IF_ERROR(rc);
  return cp_ps_expect(p, CP_TOK_RPAREN, err);
}

/* The rest of `(first, e, ...)` after `first`: a row value. */
static int row_value(cp_sql_parser *p, cp_sql_pos pos, cp_sql_expr **out, paimon_error *err) {
  cp_ps_vec v = {0};
  int rc = cp_ps_vec_push(&v, *out, err);
  while (!rc && cp_ps_accept(p, CP_TOK_COMMA)) {
    cp_sql_expr *e = NULL;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&v, e, err);
  }
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  cp_sql_expr *t = NULL;
  if (!rc) rc = new_expr(p, CP_SQL_E_FUNC, pos, 0, &t, err);
  if (!rc) {
    t->tuple = true;
    t->n_args = v.n;
    rc = cp_ps_vec_finish(p, &v, 0, (void **)&t->args, err);
    *out = t;
  }
  cp_ps_vec_free(&v);
  return rc;
}

static bool query_follows(const cp_sql_parser *p, size_t at) {
  return cp_ps_kw_at(p, at, "select") || cp_ps_kw_at(p, at, "with");
}

static int cast_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  cp_sql_pos pos = cp_ps_pos(p);
  cp_ps_next(p); /* CAST */
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_CAST, pos, 1, out, err));
  CP_RETURN_IF_ERROR(cp_ps_expr(p, &(*out)->args[0], err));
  CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "as", err));
  CP_RETURN_IF_ERROR(cp_ps_type(p, &(*out)->type, err));
  return cp_ps_expect(p, CP_TOK_RPAREN, err);
}

/* PRECEDING | FOLLOWING after UNBOUNDED (`unbounded`) or a row count. */
static int bound_direction(cp_sql_parser *p, bool unbounded, cp_sql_frame_bound *b,
                           paimon_error *err) {
  if (cp_ps_accept_kw(p, "preceding"))
    b->kind = unbounded ? CP_SQL_BOUND_UNBOUNDED_PRECEDING : CP_SQL_BOUND_PRECEDING;
  else if (cp_ps_accept_kw(p, "following"))
    b->kind = unbounded ? CP_SQL_BOUND_UNBOUNDED_FOLLOWING : CP_SQL_BOUND_FOLLOWING;
  else
    return cp_ps_error(p, "PRECEDING or FOLLOWING", err);
  return PAIMON_OK;
}

/* UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW | n PRECEDING | n FOLLOWING */
static int frame_bound(cp_sql_parser *p, cp_sql_frame_bound *b, paimon_error *err) {
  if (cp_ps_accept_kw(p, "unbounded")) return bound_direction(p, true, b, err);
  if (cp_ps_accept_kw(p, "current")) {
    b->kind = CP_SQL_BOUND_CURRENT_ROW;
    return cp_ps_expect_kw(p, "row", err);
  }
  const cp_sql_token *t = cp_ps_peek(p);
  char *end = NULL;
  long long v = t->kind == CP_TOK_NUMBER ? strtoll(t->text, &end, 10) : -1;
  if (t->kind != CP_TOK_NUMBER || !end || *end || v < 0)
    return cp_ps_error(p, "UNBOUNDED, CURRENT ROW or a row count", err);
  cp_ps_next(p);
  b->offset = v;
  return bound_direction(p, false, b, err);
}

/* OVER '(' [PARTITION BY e, ...] [ORDER BY ...] [ROWS | RANGE frame] ')' after OVER. */
static int window_spec(cp_sql_parser *p, cp_sql_window **out, paimon_error *err) {
  cp_sql_window *w = cp_ps_alloc(p, sizeof *w, err);
  if (!w) return PAIMON_ENOMEM;
  *out = w;
  w->pos = cp_ps_pos(p);
  if (!cp_ps_is(p, CP_TOK_LPAREN))
    return cp_ps_error_at(p, w->pos, err, "not supported: named windows (OVER name)");
  cp_ps_next(p);
  if (cp_ps_accept_kw(p, "partition") || cp_ps_accept_kw(p, "distribute")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "by", err));
    CP_RETURN_IF_ERROR(cp_ps_expr_items(p, &w->partition_by, &w->n_partition_by, err));
  }
  if (cp_ps_accept_kw(p, "order") || cp_ps_accept_kw(p, "sort")) {
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "by", err));
    CP_RETURN_IF_ERROR(cp_ps_order_items(p, &w->order_by, &w->n_order_by, err));
  }
  bool rows = cp_ps_kw(p, "rows"), range = cp_ps_kw(p, "range");
  if (rows || range) {
    cp_ps_next(p);
    w->has_frame = true;
    w->range = range;
    if (cp_ps_accept_kw(p, "between")) {
      CP_RETURN_IF_ERROR(frame_bound(p, &w->start, err));
      CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "and", err));
      CP_RETURN_IF_ERROR(frame_bound(p, &w->end, err));
    } else {
      CP_RETURN_IF_ERROR(frame_bound(p, &w->start, err));
      w->end.kind = CP_SQL_BOUND_CURRENT_ROW;
    }
  }
  return cp_ps_expect(p, CP_TOK_RPAREN, err);
}

/* [FILTER '(' WHERE cond ')'] [OVER window] after a call's ')'. */
static int after_call(cp_sql_parser *p, cp_sql_expr *f, paimon_error *err) {
  if (cp_ps_kw(p, "filter") && cp_ps_peek_at(p, 1)->kind == CP_TOK_LPAREN &&
      cp_ps_kw_at(p, 2, "where")) {
    cp_ps_next(p);
    cp_ps_next(p);
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expr(p, &f->filter, err));
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
  }
  return cp_ps_accept_kw(p, "over") ? window_spec(p, &f->window, err) : PAIMON_OK;
}

/* name '(' [DISTINCT] args | '*' ')' after the name was read. */
static int func_call(cp_sql_parser *p, cp_sql_name *name, cp_sql_expr **out, paimon_error *err) {
  cp_ps_next(p); /* ( */
  cp_sql_expr *f = NULL;
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_FUNC, name->pos, 0, &f, err));
  f->name = *name;
  *out = f;
  if (cp_ps_accept(p, CP_TOK_STAR)) {
    f->star_arg = true;
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RPAREN, err));
    return after_call(p, f, err);
  }
  if (cp_ps_accept_kw(p, "distinct"))
    f->distinct = true;
  else
    cp_ps_accept_kw(p, "all");
  if (cp_ps_accept(p, CP_TOK_RPAREN)) {
    if (f->distinct) return cp_ps_error(p, "an expression", err);
    return after_call(p, f, err);
  }
  cp_ps_vec args = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_expr *a = NULL;
    rc = cp_ps_expr(p, &a, err);
    if (!rc) rc = cp_ps_vec_push(&args, a, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  if (!rc) {
    f->n_args = args.n;
    rc = cp_ps_vec_finish(p, &args, 0, (void **)&f->args, err);
  }
  cp_ps_vec_free(&args);
  if (!rc) rc = after_call(p, f, err);
  return rc;
}

/* A column reference, qualifier.*, or a function call, starting at an identifier. */
static int name_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  cp_ps_vec parts = {0};
  cp_sql_pos pos = cp_ps_pos(p);
  int rc = PAIMON_OK;
  bool star = false;
  for (;;) {
    const char *id;
    rc = cp_ps_ident(p, &id, NULL, err);
    if (!rc) rc = cp_ps_vec_push(&parts, (void *)id, err);
    if (rc || !cp_ps_is(p, CP_TOK_DOT)) break;
    cp_ps_next(p);
    if (cp_ps_accept(p, CP_TOK_STAR)) {
      star = true;
      break;
    }
    if (parts.n >= 4) {
      rc = cp_ps_error(p, "at most 4 name parts", err);
      break;
    }
  }
  cp_sql_name name = {NULL, parts.n, pos};
  if (!rc) rc = cp_ps_vec_finish(p, &parts, 0, (void **)&name.parts, err);
  cp_ps_vec_free(&parts);
  CP_RETURN_IF_ERROR(rc);
  if (!star && name.n == 1 && cp_ps_is(p, CP_TOK_LPAREN)) return func_call(p, &name, out, err);
  CP_RETURN_IF_ERROR(new_expr(p, star ? CP_SQL_E_STAR : CP_SQL_E_COLUMN, pos, 0, out, err));
  (*out)->name = name;
  return PAIMON_OK;
}

static int primary(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  cp_sql_pos pos = cp_ps_pos(p);
  switch (t->kind) {
  case CP_TOK_NUMBER:
    cp_ps_next(p);
    return literal(p, CP_SQL_LIT_NUMBER, pos, t->text, t->text_len, out, err);
  case CP_TOK_HEX:
    cp_ps_next(p);
    return literal(p, CP_SQL_LIT_BINARY, pos, t->text, t->text_len, out, err);
  case CP_TOK_STRING: {
    const char *s;
    size_t len;
    CP_RETURN_IF_ERROR(cp_ps_string(p, &s, &len, err));
    return literal(p, CP_SQL_LIT_STRING, pos, s, len, out, err);
  }
  case CP_TOK_STAR: cp_ps_next(p); return new_expr(p, CP_SQL_E_STAR, pos, 0, out, err);
  case CP_TOK_LPAREN: {
    if (query_follows(p, 1)) return subquery_expr(p, CP_SQL_SUBQ_SCALAR, pos, NULL, out, err);
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(cp_ps_expr(p, out, err));
    if (cp_ps_is(p, CP_TOK_COMMA)) return row_value(p, pos, out, err);
    return cp_ps_expect(p, CP_TOK_RPAREN, err);
  }
  case CP_TOK_QIDENT: return name_expr(p, out, err);
  case CP_TOK_IDENT: break;
  default: return cp_ps_error(p, "an expression", err);
  }
  if (cp_sql_tok_is(t, "null") || cp_sql_tok_is(t, "true") || cp_sql_tok_is(t, "false")) {
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(literal(p, cp_sql_tok_is(t, "null") ? CP_SQL_LIT_NULL : CP_SQL_LIT_BOOL, pos,
                               NULL, 0, out, err));
    (*out)->lit.bool_value = cp_sql_tok_is(t, "true");
    return PAIMON_OK;
  }
  if (cp_sql_tok_is(t, "exists") && cp_ps_peek_at(p, 1)->kind == CP_TOK_LPAREN &&
      query_follows(p, 2)) {
    cp_ps_next(p);
    return subquery_expr(p, CP_SQL_SUBQ_EXISTS, pos, NULL, out, err);
  }
  if (cp_sql_tok_is(t, "case")) return case_expr(p, out, err);
  if (cp_sql_tok_is(t, "cast") && cp_ps_peek_at(p, 1)->kind == CP_TOK_LPAREN)
    return cast_expr(p, out, err);
  int rc = typed_literal(p, out, err);
  if (rc) return rc < 0 ? rc : PAIMON_OK;
  if (cp_ps_reserved(t)) return cp_ps_error(p, "an expression", err);
  return name_expr(p, out, err);
}

/* ---- operators ------------------------------------------------------------------------------ */

/* primary ('[' expr ']' | '.' field)*: Spark's a[i], m[k] and, after those or a parenthesized
 * expression or function call, .field of a ROW value (a.b.c on names is a column path, bound by
 * name resolution). */
static int postfix(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(primary(p, out, err));
  for (;;) {
    cp_sql_pos pos = cp_ps_pos(p);
    if (cp_ps_is(p, CP_TOK_DOT) && (*out)->kind != CP_SQL_E_COLUMN) {
      cp_ps_next(p);
      cp_sql_expr *f = NULL;
      CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_FUNC, pos, 1, &f, err));
      f->args[0] = *out;
      CP_RETURN_IF_ERROR(cp_ps_ident(p, &f->field, NULL, err));
      *out = f;
      continue;
    }
    if (!cp_ps_is(p, CP_TOK_LBRACKET)) break;
    cp_ps_next(p);
    cp_sql_expr *s = NULL;
    CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_FUNC, pos, 2, &s, err));
    s->subscript = true;
    s->args[0] = *out;
    CP_RETURN_IF_ERROR(cp_ps_expr(p, &s->args[1], err));
    CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_RBRACKET, err));
    *out = s;
  }
  return PAIMON_OK;
}

static int unary(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  const cp_sql_token *t = cp_ps_peek(p);
  cp_sql_pos pos = cp_ps_pos(p);
  cp_sql_op op;
  if (t->kind == CP_TOK_MINUS)
    op = CP_SQL_OP_NEG;
  else if (t->kind == CP_TOK_PLUS)
    op = CP_SQL_OP_PLUS;
  else if (t->kind == CP_TOK_TILDE)
    op = CP_SQL_OP_BITNOT;
  else
    return postfix(p, out, err);
  cp_ps_next(p);
  const cp_sql_token *n = cp_ps_peek(p);
  if (op == CP_SQL_OP_NEG && n->kind == CP_TOK_NUMBER) {
    cp_ps_next(p);
    size_t len = n->text_len + 1;
    char *text = cp_ps_alloc(p, len + 1, err);
    if (!text) return PAIMON_ENOMEM;
    text[0] = '-';
    memcpy(text + 1, n->text, n->text_len);
    return literal(p, CP_SQL_LIT_NUMBER, pos, text, len, out, err);
  }
  CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
  cp_sql_expr *arg = NULL;
  int rc = unary(p, &arg, err);
  cp_ps_leave(p);
  CP_RETURN_IF_ERROR(rc);
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_UNARY, pos, 1, out, err));
  (*out)->op = op;
  (*out)->args[0] = arg;
  return PAIMON_OK;
}

static cp_sql_op mul_op(const cp_sql_token *t) {
  switch (t->kind) {
  case CP_TOK_STAR: return CP_SQL_OP_MUL;
  case CP_TOK_SLASH: return CP_SQL_OP_DIV;
  case CP_TOK_PERCENT: return CP_SQL_OP_MOD;
  default: return CP_SQL_OP_NONE;
  }
}

static cp_sql_op add_op(const cp_sql_token *t) {
  switch (t->kind) {
  case CP_TOK_PLUS: return CP_SQL_OP_ADD;
  case CP_TOK_MINUS: return CP_SQL_OP_SUB;
  case CP_TOK_CONCAT: return CP_SQL_OP_CONCAT;
  default: return CP_SQL_OP_NONE;
  }
}

static cp_sql_op cmp_op(const cp_sql_token *t) {
  switch (t->kind) {
  case CP_TOK_EQ: return CP_SQL_OP_EQ;
  case CP_TOK_NE: return CP_SQL_OP_NE;
  case CP_TOK_LT: return CP_SQL_OP_LT;
  case CP_TOK_LE: return CP_SQL_OP_LE;
  case CP_TOK_GT: return CP_SQL_OP_GT;
  case CP_TOK_GE: return CP_SQL_OP_GE;
  case CP_TOK_NSEQ: return CP_SQL_OP_NSEQ;
  default: return CP_SQL_OP_NONE;
  }
}

typedef int (*rule_fn)(cp_sql_parser *, cp_sql_expr **, paimon_error *);
typedef cp_sql_op (*op_fn)(const cp_sql_token *);

/* A left-associative chain: operand (op operand)*. */
static int chain(cp_sql_parser *p, rule_fn operand, op_fn op_of, cp_sql_expr **out,
                 paimon_error *err) {
  CP_RETURN_IF_ERROR(operand(p, out, err));
  for (;;) {
    cp_sql_op op = op_of(cp_ps_peek(p));
    if (op == CP_SQL_OP_NONE) return PAIMON_OK;
    cp_sql_pos pos = cp_ps_pos(p);
    cp_ps_next(p);
    cp_sql_expr *r = NULL;
    CP_RETURN_IF_ERROR(operand(p, &r, err));
    CP_RETURN_IF_ERROR(binary(p, op, pos, *out, r, out, err));
  }
}

static int multiplicative(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  return chain(p, unary, mul_op, out, err);
}
static int additive(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  return chain(p, multiplicative, add_op, out, err);
}
static int comparison(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  return chain(p, additive, cmp_op, out, err);
}

/* The suffix of a predicate after its left operand `left` (already parsed). */
static int predicate_suffix(cp_sql_parser *p, cp_sql_expr *left, bool *done, cp_sql_expr **out,
                            paimon_error *err) {
  cp_sql_pos pos = cp_ps_pos(p);
  bool negated = false;
  if (cp_ps_kw(p, "is")) {
    cp_ps_next(p);
    negated = cp_ps_accept_kw(p, "not");
    bool is_null = cp_ps_kw(p, "null");
    if (!is_null && !cp_ps_kw(p, "true") && !cp_ps_kw(p, "false"))
      return cp_ps_error(p, "NULL, TRUE or FALSE", err);
    bool value = cp_ps_kw(p, "true");
    cp_ps_next(p);
    CP_RETURN_IF_ERROR(
        new_expr(p, is_null ? CP_SQL_E_IS_NULL : CP_SQL_E_IS_BOOL, pos, 1, out, err));
    (*out)->negated = negated;
    (*out)->bool_value = value;
    (*out)->args[0] = left;
    return PAIMON_OK;
  }
  if (cp_ps_kw(p, "not") &&
      (cp_ps_kw_at(p, 1, "in") || cp_ps_kw_at(p, 1, "between") || cp_ps_kw_at(p, 1, "like"))) {
    cp_ps_next(p);
    negated = true;
  }
  if (cp_ps_accept_kw(p, "between")) {
    CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_BETWEEN, pos, 3, out, err));
    (*out)->negated = negated;
    (*out)->args[0] = left;
    CP_RETURN_IF_ERROR(comparison(p, &(*out)->args[1], err));
    CP_RETURN_IF_ERROR(cp_ps_expect_kw(p, "and", err));
    return comparison(p, &(*out)->args[2], err);
  }
  if (cp_ps_accept_kw(p, "like")) {
    CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_LIKE, pos, 2, out, err));
    (*out)->negated = negated;
    (*out)->args[0] = left;
    CP_RETURN_IF_ERROR(comparison(p, &(*out)->args[1], err));
    if (cp_ps_accept_kw(p, "escape")) {
      size_t len;
      CP_RETURN_IF_ERROR(cp_ps_string(p, &(*out)->escape, &len, err));
    }
    return PAIMON_OK;
  }
  if (cp_ps_accept_kw(p, "in")) {
    if (cp_ps_is(p, CP_TOK_LPAREN) && query_follows(p, 1)) {
      CP_RETURN_IF_ERROR(subquery_expr(p, CP_SQL_SUBQ_IN, pos, left, out, err));
      (*out)->negated = negated;
      return PAIMON_OK;
    }
    cp_sql_expr **list;
    size_t n;
    CP_RETURN_IF_ERROR(cp_ps_expr_list(p, &list, &n, err));
    CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_IN, pos, n + 1, out, err));
    (*out)->negated = negated;
    (*out)->args[0] = left;
    memcpy((*out)->args + 1, list, n * sizeof *list);
    return PAIMON_OK;
  }
  if (negated) return cp_ps_error(p, "IN, BETWEEN or LIKE", err);
  *done = true;
  *out = left;
  return PAIMON_OK;
}

/* A run of suffixes (`x IS NULL IS NULL ...`, `a LIKE b LIKE c`) nests down args[0]; each one
 * after the first counts as a level of the nesting limit, as nothing real needs many. */
static int predicate(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(comparison(p, out, err));
  int depth = p->depth, rc = PAIMON_OK, suffixes = 0;
  for (bool done = false; !done && !rc;) {
    rc = predicate_suffix(p, *out, &done, out, err);
    if (!rc && !done && ++suffixes > 1) rc = cp_ps_enter(p, err);
  }
  p->depth = depth;
  return rc;
}

static int not_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  if (!cp_ps_kw(p, "not")) return predicate(p, out, err);
  cp_sql_pos pos = cp_ps_pos(p);
  cp_ps_next(p);
  CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
  cp_sql_expr *arg = NULL;
  int rc = not_expr(p, &arg, err);
  cp_ps_leave(p);
  CP_RETURN_IF_ERROR(rc);
  CP_RETURN_IF_ERROR(new_expr(p, CP_SQL_E_UNARY, pos, 1, out, err));
  (*out)->op = CP_SQL_OP_NOT;
  (*out)->args[0] = arg;
  return PAIMON_OK;
}

static cp_sql_op and_op(const cp_sql_token *t) {
  return cp_sql_tok_is(t, "and") ? CP_SQL_OP_AND : CP_SQL_OP_NONE;
}
static cp_sql_op or_op(const cp_sql_token *t) {
  return cp_sql_tok_is(t, "or") ? CP_SQL_OP_OR : CP_SQL_OP_NONE;
}
static int and_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  return chain(p, not_expr, and_op, out, err);
}

int cp_ps_expr(cp_sql_parser *p, cp_sql_expr **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_enter(p, err));
  int rc = chain(p, and_expr, or_op, out, err);
  cp_ps_leave(p);
  return rc;
}

int cp_ps_expr_list(cp_sql_parser *p, cp_sql_expr ***out, size_t *n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_ps_expect(p, CP_TOK_LPAREN, err));
  cp_ps_vec v = {0};
  int rc = PAIMON_OK;
  do {
    cp_sql_expr *e = NULL;
    rc = cp_ps_expr(p, &e, err);
    if (!rc) rc = cp_ps_vec_push(&v, e, err);
  } while (!rc && cp_ps_accept(p, CP_TOK_COMMA));
  if (!rc) rc = cp_ps_expect(p, CP_TOK_RPAREN, err);
  *n = v.n;
  if (!rc) rc = cp_ps_vec_finish(p, &v, 0, (void **)out, err);
  cp_ps_vec_free(&v);
  return rc;
}
