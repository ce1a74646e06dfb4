/*
 * The condition language of merge_into clauses (spec/data-evolution.md §3.5): pypaimon hands the
 * text of WhenMatched/WhenNotMatched conditions to DataFusion's SQL parser over columns named
 * "s.<col>" (source) and "t.<col>" (target). cpaimon parses the same SQL expression subset here
 * into an unbound expression tree of the expr layer (expr.h), whose column references carry
 * those qualified names; binding and evaluation (Spark SQL semantics, three-valued logic) are the
 * expr layer's. The table layer cannot use the SQL front end's parser (layers point down).
 *
 * Grammar (lowest precedence first; keywords case-insensitive):
 *   or    := and (OR and)*
 *   and   := not (AND not)*
 *   not   := NOT not | pred
 *   pred  := sum [cmp sum | IS [NOT] NULL | [NOT] IN '(' sum (',' sum)* ')'
 *                | [NOT] BETWEEN sum AND sum | [NOT] LIKE sum]
 *   cmp   := = | == | != | <> | < | <= | > | >= | <=>
 *   sum   := prod ((+|-) prod)*      prod := unary ((*|/|%) unary)*
 *   unary := - unary | primary
 *   primary := integer | decimal | 'string' ('' escapes a quote) | TRUE | FALSE | NULL
 *            | (s|t).name | "s.name" | '(' or ')'
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "expr/expr.h"
#include "table/update_internal.h"

typedef struct parser {
  const char *text, *p;
  paimon_error *err;
  int depth; /* nesting of parentheses, NOT and unary minus: the recursion, bounded */
} parser;

enum { CONDITION_MAX_DEPTH = 200 };

static void skip_ws(parser *ps) {
  while (*ps->p && isspace((unsigned char)*ps->p)) ps->p++;
}

static int syntax(parser *ps, const char *what) {
  return paimon_error_set(ps->err, PAIMON_EINVAL, "merge_into condition \"%s\": %s at offset %d",
                          ps->text, what, (int)(ps->p - ps->text));
}

/* Consumes keyword `kw` (whole word, any case). */
static bool keyword(parser *ps, const char *kw) {
  skip_ws(ps);
  size_t n = strlen(kw);
  if (strncasecmp(ps->p, kw, n) != 0) return false;
  char next = ps->p[n];
  if (isalnum((unsigned char)next) || next == '_' || next == '.') return false;
  ps->p += n;
  return true;
}

/* One level deeper into the recursion (the caller decrements ps->depth after it). */
static int enter(parser *ps) {
  if (ps->depth >= CONDITION_MAX_DEPTH)
    return syntax(ps, "nested too deeply (more than 200 parentheses, NOT or minus signs)");
  ps->depth++;
  return PAIMON_OK;
}

static bool symbol(parser *ps, const char *sym) {
  skip_ws(ps);
  size_t n = strlen(sym);
  if (strncmp(ps->p, sym, n) != 0) return false;
  ps->p += n;
  return true;
}

static int parse_or(parser *ps, cp_expr **out);
static int parse_sum(parser *ps, cp_expr **out);

static int parse_string(parser *ps, cp_expr **out) {
  cp_buf b = CP_BUF_INIT;
  ps->p++; /* opening quote */
  for (;;) {
    if (!*ps->p) {
      cp_buf_free(&b);
      return syntax(ps, "unterminated string");
    }
    if (*ps->p == '\'') {
      if (ps->p[1] != '\'') break;
      ps->p++;
    }
    if (cp_buf_append(&b, ps->p, 1, ps->err)) {
      cp_buf_free(&b);
      return PAIMON_ENOMEM;
    }
    ps->p++;
  }
  ps->p++;
  int rc = cp_expr_string(out, b.data ? (const char *)b.data : "", b.len, ps->err);
  cp_buf_free(&b);
  return rc;
}

static int parse_number(parser *ps, cp_expr **out) {
  const char *start = ps->p;
  bool fraction = false;
  while (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
    if (*ps->p == '.') {
      if (fraction) return syntax(ps, "bad number");
      fraction = true;
    }
    ps->p++;
  }
  if (*ps->p == 'e' || *ps->p == 'E') {
    fraction = true;
    ps->p++;
    if (*ps->p == '+' || *ps->p == '-') ps->p++;
    while (isdigit((unsigned char)*ps->p)) ps->p++;
  }
  char buf[64];
  size_t n = (size_t)(ps->p - start);
  if (n >= sizeof buf) return syntax(ps, "number too long");
  memcpy(buf, start, n);
  buf[n] = 0;
  errno = 0;
  if (fraction) return cp_expr_double(out, strtod(buf, NULL), ps->err);
  long long v = strtoll(buf, NULL, 10);
  if (errno) return syntax(ps, "integer out of range");
  if (v >= INT32_MIN && v <= INT32_MAX) return cp_expr_int(out, (int32_t)v, ps->err);
  return cp_expr_bigint(out, (int64_t)v, ps->err);
}

/* (s|t).name, or the same in double quotes. */
static int parse_column(parser *ps, cp_expr **out) {
  char name[512];
  size_t n = 0;
  bool quoted = *ps->p == '"';
  if (quoted) ps->p++;
  while (
      *ps->p && n + 1 < sizeof name &&
      (quoted ? *ps->p != '"' : (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')))
    name[n++] = *ps->p++;
  name[n] = 0;
  if (quoted) {
    if (*ps->p != '"') return syntax(ps, "unterminated quoted name");
    ps->p++;
  }
  if (n < 3 || (name[0] != 's' && name[0] != 't') || name[1] != '.')
    return paimon_error_set(ps->err, PAIMON_EINVAL,
                            "merge_into condition \"%s\": column '%s' must be written s.<column> "
                            "(source) or t.<column> (target)",
                            ps->text, name);
  return cp_expr_column(out, name, ps->err);
}

static int parse_primary(parser *ps, cp_expr **out) {
  skip_ws(ps);
  char c = *ps->p;
  if (c == '(') {
    ps->p++;
    CP_RETURN_IF_ERROR(enter(ps));
    int rc = parse_or(ps, out);
    ps->depth--;
    CP_RETURN_IF_ERROR(rc);
    if (!symbol(ps, ")")) {
      cp_expr_free(*out);
      return syntax(ps, "expected ')'");
    }
    return PAIMON_OK;
  }
  if (c == '\'') return parse_string(ps, out);
  if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)ps->p[1])))
    return parse_number(ps, out);
  if (keyword(ps, "TRUE")) return cp_expr_bool(out, true, ps->err);
  if (keyword(ps, "FALSE")) return cp_expr_bool(out, false, ps->err);
  if (keyword(ps, "NULL")) return cp_expr_null(out, ps->err);
  if (isalpha((unsigned char)c) || c == '"') return parse_column(ps, out);
  return syntax(ps, c ? "unexpected character" : "unexpected end");
}

static int parse_unary(parser *ps, cp_expr **out) {
  if (symbol(ps, "-")) {
    cp_expr *arg = NULL;
    CP_RETURN_IF_ERROR(enter(ps));
    int rc = parse_unary(ps, &arg);
    ps->depth--;
    CP_RETURN_IF_ERROR(rc);
    return cp_expr_negate(out, arg, ps->err);
  }
  return parse_primary(ps, out);
}

static int parse_prod(parser *ps, cp_expr **out) {
  CP_RETURN_IF_ERROR(parse_unary(ps, out));
  for (;;) {
    cp_arith_op op;
    if (symbol(ps, "*"))
      op = CP_ARITH_MUL;
    else if (symbol(ps, "/"))
      op = CP_ARITH_DIV;
    else if (symbol(ps, "%"))
      op = CP_ARITH_MOD;
    else
      return PAIMON_OK;
    cp_expr *right = NULL;
    int rc = parse_unary(ps, &right);
    if (rc) {
      cp_expr_free(*out);
      return rc;
    }
    CP_RETURN_IF_ERROR(cp_expr_arith(out, op, *out, right, ps->err));
  }
}

static int parse_sum(parser *ps, cp_expr **out) {
  CP_RETURN_IF_ERROR(parse_prod(ps, out));
  for (;;) {
    cp_arith_op op;
    if (symbol(ps, "+"))
      op = CP_ARITH_ADD;
    else if (symbol(ps, "-"))
      op = CP_ARITH_SUB;
    else
      return PAIMON_OK;
    cp_expr *right = NULL;
    int rc = parse_prod(ps, &right);
    if (rc) {
      cp_expr_free(*out);
      return rc;
    }
    CP_RETURN_IF_ERROR(cp_expr_arith(out, op, *out, right, ps->err));
  }
}

static bool comparison(parser *ps, cp_cmp_op *op) {
  static const struct {
    const char *sym;
    cp_cmp_op op;
  } ops[] = {{"<=>", CP_CMP_EQ_NULL_SAFE},
             {"<=", CP_CMP_LE},
             {">=", CP_CMP_GE},
             {"<>", CP_CMP_NE},
             {"!=", CP_CMP_NE},
             {"==", CP_CMP_EQ},
             {"=", CP_CMP_EQ},
             {"<", CP_CMP_LT},
             {">", CP_CMP_GT}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (symbol(ps, ops[i].sym)) {
      *op = ops[i].op;
      return true;
    }
  return false;
}

static int parse_in_list(parser *ps, cp_expr *value, bool negated, cp_expr **out) {
  cp_expr *items[256];
  size_t n = 0;
  int rc = symbol(ps, "(") ? PAIMON_OK : syntax(ps, "expected '(' after IN");
  while (!rc) {
    if (n == 256) {
      rc = syntax(ps, "IN list longer than 256 items");
      break;
    }
    rc = parse_sum(ps, &items[n]);
    if (rc) break;
    n++;
    if (symbol(ps, ")")) break;
    if (!symbol(ps, ",")) rc = syntax(ps, "expected ',' or ')' in IN list");
  }
  if (rc) {
    cp_expr_free(value);
    for (size_t i = 0; i < n; i++) cp_expr_free(items[i]);
    return rc;
  }
  return cp_expr_in(out, value, items, n, negated, ps->err);
}

static int parse_pred(parser *ps, cp_expr **out) {
  cp_expr *left = NULL, *a = NULL, *b = NULL;
  CP_RETURN_IF_ERROR(parse_sum(ps, &left));
  cp_cmp_op op;
  if (comparison(ps, &op)) {
    int rc = parse_sum(ps, &a);
    if (rc) {
      cp_expr_free(left);
      return rc;
    }
    return cp_expr_compare(out, op, left, a, ps->err);
  }
  if (keyword(ps, "IS")) {
    bool neg = keyword(ps, "NOT");
    if (!keyword(ps, "NULL")) {
      cp_expr_free(left);
      return syntax(ps, "expected NULL after IS");
    }
    return cp_expr_is_null(out, left, neg, ps->err);
  }
  const char *save = ps->p;
  bool neg = keyword(ps, "NOT");
  if (keyword(ps, "IN")) return parse_in_list(ps, left, neg, out);
  if (keyword(ps, "BETWEEN")) {
    int rc = parse_sum(ps, &a);
    if (!rc && !keyword(ps, "AND")) rc = syntax(ps, "expected AND in BETWEEN");
    if (!rc) rc = parse_sum(ps, &b);
    if (rc) {
      cp_expr_free(left);
      cp_expr_free(a);
      return rc;
    }
    return cp_expr_between(out, left, a, b, neg, ps->err);
  }
  if (keyword(ps, "LIKE")) {
    int rc = parse_sum(ps, &a);
    if (rc) {
      cp_expr_free(left);
      return rc;
    }
    return cp_expr_like(out, CP_LIKE_PATTERN, left, a, '\\', neg, ps->err);
  }
  ps->p = save; /* a NOT that belongs to an outer level */
  *out = left;
  return PAIMON_OK;
}

static int parse_not(parser *ps, cp_expr **out) {
  if (keyword(ps, "NOT")) {
    cp_expr *arg = NULL;
    CP_RETURN_IF_ERROR(enter(ps));
    int rc = parse_not(ps, &arg);
    ps->depth--;
    CP_RETURN_IF_ERROR(rc);
    return cp_expr_not(out, arg, ps->err);
  }
  return parse_pred(ps, out);
}

static int parse_and(parser *ps, cp_expr **out) {
  CP_RETURN_IF_ERROR(parse_not(ps, out));
  while (keyword(ps, "AND")) {
    cp_expr *right = NULL;
    int rc = parse_not(ps, &right);
    if (rc) {
      cp_expr_free(*out);
      return rc;
    }
    CP_RETURN_IF_ERROR(cp_expr_and2(out, *out, right, ps->err));
  }
  return PAIMON_OK;
}

static int parse_or(parser *ps, cp_expr **out) {
  CP_RETURN_IF_ERROR(parse_and(ps, out));
  while (keyword(ps, "OR")) {
    cp_expr *right = NULL;
    int rc = parse_and(ps, &right);
    if (rc) {
      cp_expr_free(*out);
      return rc;
    }
    CP_RETURN_IF_ERROR(cp_expr_or2(out, *out, right, ps->err));
  }
  return PAIMON_OK;
}

int cp_merge_condition_parse(const char *text, cp_expr **out, paimon_error *err) {
  parser ps = {text, text, err, 0};
  *out = NULL;
  CP_RETURN_IF_ERROR(parse_or(&ps, out));
  skip_ws(&ps);
  if (*ps.p) {
    cp_expr_free(*out);
    *out = NULL;
    return syntax(&ps, "unexpected text");
  }
  return PAIMON_OK;
}
