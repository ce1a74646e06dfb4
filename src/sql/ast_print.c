/*
 * Printing syntax trees (ast.h): canonical SQL that parses back to a tree printing the same (every
 * operator parenthesised, keywords upper case, identifiers quoted when needed), and the column
 * names Spark gives unaliased SELECT expressions (Spark's Expression.sql / toPrettySQL: "(id +
 * 1)", "count(1)", "(NOT (a = b))" for a <> b).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/print.h"
#include "base/status.h"
#include "sql/ast.h"
#include "sql/lexer.h"
#include "types/type_sql.h"

static int put(cp_buf *out, const char *s, paimon_error *err) {
  return cp_buf_append(out, s, strlen(s), err);
}

static bool plain_word(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (const char *c = s; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '_'))
      return false;
  /* Words the parser would read as keywords are quoted. */
  return !cp_sql_reserved_word(s);
}

int cp_sql_print_ident(const char *name, cp_buf *out, paimon_error *err) {
  if (plain_word(name)) return put(out, name, err);
  CP_RETURN_IF_ERROR(put(out, "`", err));
  for (const char *c = name; *c; c++) {
    CP_RETURN_IF_ERROR(cp_buf_append(out, c, 1, err));
    if (*c == '`') CP_RETURN_IF_ERROR(put(out, "`", err));
  }
  return put(out, "`", err);
}

static int print_name(const cp_sql_name *n, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < n->n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ".", err));
    CP_RETURN_IF_ERROR(cp_sql_print_ident(n->parts[i], out, err));
  }
  return PAIMON_OK;
}

/* A string literal that the lexer reads back to the same bytes. */
static int print_string(const char *s, size_t len, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(put(out, "'", err));
  for (size_t i = 0; i < len; i++) {
    const char *esc = NULL;
    switch (s[i]) {
    case '\'': esc = "\\'"; break; /* Spark has no doubled-quote escape */
    case '\\': esc = "\\\\"; break;
    case '\0': esc = "\\000"; break; /* three digits: a digit after it stays a digit */
    case '\n': esc = "\\n"; break;
    case '\r': esc = "\\r"; break;
    case '\t': esc = "\\t"; break;
    default: break;
    }
    CP_RETURN_IF_ERROR(esc ? put(out, esc, err) : cp_buf_append(out, s + i, 1, err));
  }
  return put(out, "'", err);
}

static const char *op_text(cp_sql_op op) {
  switch (op) {
  case CP_SQL_OP_NEG: return "-";
  case CP_SQL_OP_PLUS: return "+";
  case CP_SQL_OP_NOT: return "NOT";
  case CP_SQL_OP_BITNOT: return "~";
  case CP_SQL_OP_ADD: return "+";
  case CP_SQL_OP_SUB: return "-";
  case CP_SQL_OP_MUL: return "*";
  case CP_SQL_OP_DIV: return "/";
  case CP_SQL_OP_MOD: return "%";
  case CP_SQL_OP_EQ: return "=";
  case CP_SQL_OP_NE: return "<>";
  case CP_SQL_OP_LT: return "<";
  case CP_SQL_OP_LE: return "<=";
  case CP_SQL_OP_GT: return ">";
  case CP_SQL_OP_GE: return ">=";
  case CP_SQL_OP_NSEQ: return "<=>";
  case CP_SQL_OP_AND: return "AND";
  case CP_SQL_OP_OR: return "OR";
  case CP_SQL_OP_CONCAT: return "||";
  default: return "?";
  }
}

static int print_literal(const cp_sql_literal *l, cp_buf *out, paimon_error *err) {
  switch (l->kind) {
  case CP_SQL_LIT_NULL: return put(out, "NULL", err);
  case CP_SQL_LIT_BOOL: return put(out, l->bool_value ? "TRUE" : "FALSE", err);
  case CP_SQL_LIT_NUMBER: return put(out, l->text, err);
  case CP_SQL_LIT_STRING: return print_string(l->text, l->len, out, err);
  case CP_SQL_LIT_BINARY: return cp_buf_appendf(out, err, "X'%s'", l->text);
  case CP_SQL_LIT_DATE: CP_RETURN_IF_ERROR(put(out, "DATE ", err)); break;
  case CP_SQL_LIT_TIMESTAMP: CP_RETURN_IF_ERROR(put(out, "TIMESTAMP ", err)); break;
  case CP_SQL_LIT_TIMESTAMP_NTZ: CP_RETURN_IF_ERROR(put(out, "TIMESTAMP_NTZ ", err)); break;
  }
  return print_string(l->text, l->len, out, err);
}

/* ---- expressions ----------------------------------------------------------------------------
 *
 * Both printers write a node as prefix, first argument, suffix, and walk the chain of first
 * arguments with a loop (ast.h cp_sql_expr_spine): a left-associative chain of any length prints
 * without a stack frame per operator. Other arguments recurse (the parser bounds their nesting).
 * `display` selects Spark's display names instead of canonical SQL.
 */

static int expr_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err);

static int args_text(cp_sql_expr *const *args, size_t n, bool display, cp_buf *out,
                     paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(expr_text(args[i], display, out, err));
  }
  return PAIMON_OK;
}

/* A number as Spark's Literal.sql prints its value: without the type suffix (1L -> "1"),
 * doubles and floats in Java's notation (1e3 -> "1000.0"), decimals as BigDecimal does
 * (.5 -> "0.5", 1. -> "1"). */
static int display_number(const char *text, cp_buf *out, paimon_error *err) {
  size_t n = strlen(text);
  char suffix = 0;
  if (n > 2 && strcasecmp(text + n - 2, "bd") == 0)
    n -= 2;
  else if (n > 1 && strchr("lLsSyYdDfF", text[n - 1]))
    suffix = (char)(text[--n] | 0x20);
  char body[96];
  if (n >= sizeof body) return cp_buf_append(out, text, n, err);
  memcpy(body, text, n);
  body[n] = '\0';
  bool exp = strpbrk(body, "eE") != NULL;
  if (suffix == 'd' || suffix == 'f' || (exp && !suffix)) {
    double d = strtod(body, NULL);
    return suffix == 'f' ? cp_format_float_java(out, (float)d, err)
                         : cp_format_double_java(out, d, err);
  }
  const char *s = body;
  if (*s == '-' || *s == '+') CP_RETURN_IF_ERROR(cp_buf_append(out, s++, 1, err));
  if (*s == '.') CP_RETURN_IF_ERROR(cp_buf_append(out, "0", 1, err));
  size_t len = strlen(s);
  if (len > 1 && s[len - 1] == '.') len--;
  return cp_buf_append(out, s, len, err);
}

static int display_literal(const cp_sql_literal *l, cp_buf *out, paimon_error *err) {
  switch (l->kind) {
  case CP_SQL_LIT_NULL: return put(out, "NULL", err);
  case CP_SQL_LIT_BOOL: return put(out, l->bool_value ? "true" : "false", err);
  case CP_SQL_LIT_NUMBER: return display_number(l->text, out, err);
  case CP_SQL_LIT_STRING: return cp_buf_append(out, l->text, l->len, err);
  case CP_SQL_LIT_BINARY: return cp_buf_appendf(out, err, "X'%s'", l->text);
  case CP_SQL_LIT_DATE: return cp_buf_appendf(out, err, "DATE '%s'", l->text);
  case CP_SQL_LIT_TIMESTAMP: return cp_buf_appendf(out, err, "TIMESTAMP '%s'", l->text);
  case CP_SQL_LIT_TIMESTAMP_NTZ: return cp_buf_appendf(out, err, "TIMESTAMP_NTZ '%s'", l->text);
  }
  return PAIMON_OK;
}

static int func_name_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  if (!display) return print_name(&e->name, out, err);
  const char *name = e->name.parts[e->name.n - 1];
  for (const char *c = name; *c; c++) {
    char ch = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    CP_RETURN_IF_ERROR(cp_buf_append(out, &ch, 1, err));
  }
  return PAIMON_OK;
}

/* ---- window functions ---- */

/* Spark's kinds of window function by the frame it fixes (WindowFunctionFrame requirements). */
typedef enum win_class {
  WIN_AGG,
  WIN_ROWS_TO_CURRENT,
  WIN_RANGE_TO_CURRENT,
  WIN_LAG,
  WIN_LEAD
} win_class;

static win_class window_class(const cp_sql_expr *f) {
  const char *n = f->name.parts[f->name.n - 1];
  if (!strcasecmp(n, "row_number") || !strcasecmp(n, "rank") || !strcasecmp(n, "dense_rank") ||
      !strcasecmp(n, "percent_rank") || !strcasecmp(n, "ntile"))
    return WIN_ROWS_TO_CURRENT;
  if (!strcasecmp(n, "cume_dist")) return WIN_RANGE_TO_CURRENT;
  if (!strcasecmp(n, "lag")) return WIN_LAG;
  if (!strcasecmp(n, "lead")) return WIN_LEAD;
  return WIN_AGG;
}

static int bound_text(const cp_sql_frame_bound *b, cp_buf *out, paimon_error *err) {
  switch (b->kind) {
  case CP_SQL_BOUND_UNBOUNDED_PRECEDING: return put(out, "UNBOUNDED PRECEDING", err);
  case CP_SQL_BOUND_UNBOUNDED_FOLLOWING: return put(out, "UNBOUNDED FOLLOWING", err);
  case CP_SQL_BOUND_CURRENT_ROW: return put(out, "CURRENT ROW", err);
  case CP_SQL_BOUND_PRECEDING:
    return cp_buf_appendf(out, err, "%lld PRECEDING", (long long)b->offset);
  case CP_SQL_BOUND_FOLLOWING:
    return cp_buf_appendf(out, err, "%lld FOLLOWING", (long long)b->offset);
  }
  return PAIMON_OK;
}

static int order_items_text(const cp_sql_order_item *items, size_t n, bool display, cp_buf *out,
                            paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    const cp_sql_order_item *o = &items[i];
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(expr_text(o->expr, display, out, err));
    CP_RETURN_IF_ERROR(put(out, o->desc ? " DESC" : " ASC", err));
    if (display)
      CP_RETURN_IF_ERROR(put(out, cp_sql_nulls_first(o) ? " NULLS FIRST" : " NULLS LAST", err));
    else if (o->nulls != CP_SQL_NULLS_DEFAULT)
      CP_RETURN_IF_ERROR(
          put(out, o->nulls == CP_SQL_NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST", err));
  }
  return PAIMON_OK;
}

/* " OVER (...)" after a window function's call; as Spark names the column when `display`
 * (WindowSpecDefinition.sql: the frame the analyzer settles on is always spelled out). */
static int window_text(const cp_sql_expr *f, bool display, cp_buf *out, paimon_error *err) {
  const cp_sql_window *w = f->window;
  CP_RETURN_IF_ERROR(put(out, " OVER (", err));
  bool space = false;
  if (w->n_partition_by) {
    CP_RETURN_IF_ERROR(put(out, "PARTITION BY ", err));
    CP_RETURN_IF_ERROR(args_text(w->partition_by, w->n_partition_by, display, out, err));
    space = true;
  }
  if (w->n_order_by) {
    CP_RETURN_IF_ERROR(put(out, space ? " ORDER BY " : "ORDER BY ", err));
    CP_RETURN_IF_ERROR(order_items_text(w->order_by, w->n_order_by, display, out, err));
    space = true;
  }
  if (!display) {
    if (w->has_frame) {
      CP_RETURN_IF_ERROR(put(out, space ? " " : "", err));
      CP_RETURN_IF_ERROR(put(out, w->range ? "RANGE BETWEEN " : "ROWS BETWEEN ", err));
      CP_RETURN_IF_ERROR(bound_text(&w->start, out, err));
      CP_RETURN_IF_ERROR(put(out, " AND ", err));
      CP_RETURN_IF_ERROR(bound_text(&w->end, out, err));
    }
    return put(out, ")", err);
  }
  CP_RETURN_IF_ERROR(put(out, space ? " " : "", err));
  switch (window_class(f)) {
  case WIN_ROWS_TO_CURRENT:
    return put(out, "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", err);
  case WIN_RANGE_TO_CURRENT:
    return put(out, "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", err);
  case WIN_LAG:
  case WIN_LEAD: {
    long long off = 1;
    if (f->n_args > 1 && f->args[1]->kind == CP_SQL_E_LITERAL && f->args[1]->lit.text)
      off = strtoll(f->args[1]->lit.text, NULL, 10);
    if (window_class(f) == WIN_LAG) off = -off;
    return cp_buf_appendf(out, err, "ROWS BETWEEN %lld FOLLOWING AND %lld FOLLOWING)", off, off);
  }
  case WIN_AGG:
    if (w->has_frame) {
      CP_RETURN_IF_ERROR(put(out, w->range ? "RANGE BETWEEN " : "ROWS BETWEEN ", err));
      CP_RETURN_IF_ERROR(bound_text(&w->start, out, err));
      CP_RETURN_IF_ERROR(put(out, " AND ", err));
      CP_RETURN_IF_ERROR(bound_text(&w->end, out, err));
      return put(out, ")", err);
    }
    return put(out,
               w->n_order_by ? "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
                             : "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
               err);
  }
  return PAIMON_OK;
}

/* " FILTER (WHERE cond)" of an aggregate call, as Spark prints it too. */
static int filter_text(const cp_sql_expr *f, bool display, cp_buf *out, paimon_error *err) {
  if (!f->filter) return PAIMON_OK;
  CP_RETURN_IF_ERROR(put(out, " FILTER (WHERE ", err));
  CP_RETURN_IF_ERROR(expr_text(f->filter, display, out, err));
  return put(out, ")", err);
}

/* Spark's name of lag / lead shows the offset and default it fills in: lag(v, 1, NULL). */
static int window_args_tail(const cp_sql_expr *f, bool display, cp_buf *out, paimon_error *err) {
  if (!display || !f->window) return PAIMON_OK;
  win_class c = window_class(f);
  if (c != WIN_LAG && c != WIN_LEAD) return PAIMON_OK;
  if (f->n_args == 1) return put(out, ", 1, NULL", err);
  if (f->n_args == 2) return put(out, ", NULL", err);
  return PAIMON_OK;
}

/* A node without arguments. */
static int leaf_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  switch (e->kind) {
  case CP_SQL_E_COLUMN:
    return display ? put(out, e->name.parts[e->name.n - 1], err) : print_name(&e->name, out, err);
  case CP_SQL_E_STAR:
    if (e->name.n) {
      CP_RETURN_IF_ERROR(print_name(&e->name, out, err));
      CP_RETURN_IF_ERROR(put(out, ".", err));
    }
    return put(out, "*", err);
  case CP_SQL_E_LITERAL:
    return display ? display_literal(&e->lit, out, err) : print_literal(&e->lit, out, err);
  case CP_SQL_E_SUBQUERY: /* SCALAR and EXISTS: IN has its left operand */
    if (display)
      return put(out, e->subquery == CP_SQL_SUBQ_EXISTS ? "exists()" : "scalarsubquery()", err);
    CP_RETURN_IF_ERROR(put(out, e->subquery == CP_SQL_SUBQ_EXISTS ? "EXISTS (" : "(", err));
    CP_RETURN_IF_ERROR(cp_sql_print_query(e->query, out, err));
    return put(out, ")", err);
  case CP_SQL_E_FUNC:
    CP_RETURN_IF_ERROR(func_name_text(e, display, out, err));
    /* Spark rewrites count(*) to count(1) */
    CP_RETURN_IF_ERROR(put(out, e->star_arg ? (display ? "(1)" : "(*)") : "()", err));
    CP_RETURN_IF_ERROR(filter_text(e, display, out, err));
    return e->window ? window_text(e, display, out, err) : PAIMON_OK;
  default: return put(out, "?", err);
  }
}

/* ---- Spark's type names ---- */

static const char *spark_atomic(cp_type_kind k) {
  switch (k) {
  case CP_TYPE_BOOLEAN: return "boolean";
  case CP_TYPE_TINYINT: return "tinyint";
  case CP_TYPE_SMALLINT: return "smallint";
  case CP_TYPE_INT: return "int";
  case CP_TYPE_BIGINT: return "bigint";
  case CP_TYPE_FLOAT: return "float";
  case CP_TYPE_DOUBLE: return "double";
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: return "binary";
  case CP_TYPE_DATE: return "date";
  case CP_TYPE_TIMESTAMP: return "timestamp_ntz";
  case CP_TYPE_TIMESTAMP_LTZ: return "timestamp";
  case CP_TYPE_VARIANT: return "variant";
  default: return NULL;
  }
}

static int spark_word(cp_buf *b, bool sql, const char *word, paimon_error *err) {
  for (const char *c = word; *c; c++) {
    char ch = sql ? (char)toupper((unsigned char)*c) : *c;
    CP_RETURN_IF_ERROR(cp_buf_append(b, &ch, 1, err));
  }
  return PAIMON_OK;
}

int cp_sql_spark_type(const cp_type *t, bool sql, cp_buf *b, paimon_error *err) {
  const char *sep = sql ? ", " : ",", *colon = sql ? ": " : ":";
  const char *atomic = spark_atomic(t->kind);
  if (atomic) return spark_word(b, sql, atomic, err);
  switch (t->kind) {
  case CP_TYPE_DECIMAL:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "decimal", err));
    return cp_buf_appendf(b, err, "(%d,%d)", t->precision, t->scale);
  case CP_TYPE_CHAR:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "char", err));
    return cp_buf_appendf(b, err, "(%d)", t->length);
  case CP_TYPE_VARCHAR:
    if (t->length == CP_TYPE_MAX_LENGTH) return spark_word(b, sql, "string", err);
    CP_RETURN_IF_ERROR(spark_word(b, sql, "varchar", err));
    return cp_buf_appendf(b, err, "(%d)", t->length);
  case CP_TYPE_TIME:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "time", err));
    return cp_buf_appendf(b, err, "(%d)", t->precision);
  case CP_TYPE_ARRAY:
  case CP_TYPE_VECTOR:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "array<", err));
    CP_RETURN_IF_ERROR(cp_sql_spark_type(t->element, sql, b, err));
    return put(b, ">", err);
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "map<", err));
    CP_RETURN_IF_ERROR(
        cp_sql_spark_type(t->kind == CP_TYPE_MAP ? t->key : t->element, sql, b, err));
    CP_RETURN_IF_ERROR(put(b, sep, err));
    if (t->kind == CP_TYPE_MULTISET)
      CP_RETURN_IF_ERROR(spark_word(b, sql, "int", err));
    else
      CP_RETURN_IF_ERROR(cp_sql_spark_type(t->value, sql, b, err));
    return put(b, ">", err);
  case CP_TYPE_ROW:
    CP_RETURN_IF_ERROR(spark_word(b, sql, "struct<", err));
    for (size_t i = 0; i < t->n_fields; i++) {
      CP_RETURN_IF_ERROR(cp_buf_appendf(b, err, "%s%s%s", i ? sep : "", t->fields[i].name, colon));
      CP_RETURN_IF_ERROR(cp_sql_spark_type(t->fields[i].type, sql, b, err));
    }
    return put(b, ">", err);
  default: return PAIMON_OK;
  }
}

/* The target of a CAST in a column name: Spark's sql of the type, CHAR/VARCHAR as STRING (its
 * parser casts to STRING instead, CharVarcharUtils.replaceCharVarcharWithStringForCast). The
 * text is kept when it does not parse. */
static int cast_type_name(const char *text, cp_buf *out, paimon_error *err) {
  cp_type *t = NULL;
  paimon_error ignored;
  if (cp_type_parse(text, &t, &ignored) != 0) return put(out, text, err);
  int rc = t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR
               ? put(out, "STRING", err)
               : cp_sql_spark_type(t, true, out, err);
  cp_type_free(t);
  return rc;
}

static bool negated_predicate(const cp_sql_expr *e) {
  return e->kind == CP_SQL_E_IN || e->kind == CP_SQL_E_BETWEEN || e->kind == CP_SQL_E_LIKE ||
         e->kind == CP_SQL_E_SUBQUERY;
}

static int prefix_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  switch (e->kind) {
  case CP_SQL_E_UNARY:
    if (display) return cp_buf_appendf(out, err, "(%s ", op_text(e->op));
    return cp_buf_appendf(out, err, "(%s%s(", op_text(e->op), e->op == CP_SQL_OP_NOT ? " " : "");
  case CP_SQL_E_BINARY:
    if (display && e->op == CP_SQL_OP_CONCAT) return put(out, "concat(", err);
    return put(out, display && e->op == CP_SQL_OP_NE ? "(NOT (" : "(", err);
  case CP_SQL_E_CAST: return put(out, "CAST(", err);
  case CP_SQL_E_CASE: return put(out, e->has_operand ? "CASE " : "CASE WHEN ", err);
  case CP_SQL_E_FUNC:
    if (e->tuple) return put(out, "(", err);
    if (e->subscript || e->field) return PAIMON_OK;
    CP_RETURN_IF_ERROR(func_name_text(e, display, out, err));
    return put(out, e->distinct ? "(DISTINCT " : "(", err);
  default:
    if (display && negated_predicate(e) && e->negated) CP_RETURN_IF_ERROR(put(out, "(NOT ", err));
    return put(out, "(", err); /* IS, IN, BETWEEN, LIKE */
  }
}

static int case_suffix(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  size_t i = 1, end = e->n_args - (e->has_else ? 1 : 0);
  if (!e->has_operand) {
    CP_RETURN_IF_ERROR(put(out, " THEN ", err));
    CP_RETURN_IF_ERROR(expr_text(e->args[1], display, out, err));
    i = 2;
  }
  for (; i < end; i += 2) {
    CP_RETURN_IF_ERROR(put(out, " WHEN ", err));
    CP_RETURN_IF_ERROR(expr_text(e->args[i], display, out, err));
    CP_RETURN_IF_ERROR(put(out, " THEN ", err));
    CP_RETURN_IF_ERROR(expr_text(e->args[i + 1], display, out, err));
  }
  if (e->has_else) {
    CP_RETURN_IF_ERROR(put(out, " ELSE ", err));
    CP_RETURN_IF_ERROR(expr_text(e->args[e->n_args - 1], display, out, err));
  }
  return put(out, " END", err);
}

/* IN, BETWEEN, LIKE after their first operand. */
static int predicate_suffix(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  const char *op = e->kind == CP_SQL_E_IN ? "IN" : e->kind == CP_SQL_E_LIKE ? "LIKE" : "BETWEEN";
  if (display)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s ", op));
  else
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s%s ", e->negated ? "NOT " : "", op));
  if (e->kind == CP_SQL_E_IN) {
    CP_RETURN_IF_ERROR(put(out, "(", err));
    CP_RETURN_IF_ERROR(args_text(e->args + 1, e->n_args - 1, display, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
  } else {
    CP_RETURN_IF_ERROR(expr_text(e->args[1], display, out, err));
    if (e->kind == CP_SQL_E_BETWEEN) {
      CP_RETURN_IF_ERROR(put(out, " AND ", err));
      CP_RETURN_IF_ERROR(expr_text(e->args[2], display, out, err));
    } else if (e->escape && !display) {
      CP_RETURN_IF_ERROR(put(out, " ESCAPE ", err));
      CP_RETURN_IF_ERROR(print_string(e->escape, strlen(e->escape), out, err));
    }
  }
  CP_RETURN_IF_ERROR(put(out, ")", err));
  return display && e->negated ? put(out, ")", err) : PAIMON_OK;
}

static int suffix_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  switch (e->kind) {
  case CP_SQL_E_UNARY: return put(out, display ? ")" : "))", err);
  case CP_SQL_E_BINARY:
    if (display && e->op == CP_SQL_OP_CONCAT) {
      CP_RETURN_IF_ERROR(put(out, ", ", err));
    } else {
      bool ne = display && e->op == CP_SQL_OP_NE;
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s ", ne ? "=" : op_text(e->op)));
    }
    CP_RETURN_IF_ERROR(expr_text(e->args[1], display, out, err));
    return put(out, display && e->op == CP_SQL_OP_NE ? "))" : ")", err);
  case CP_SQL_E_IS_NULL:
  case CP_SQL_E_IS_BOOL:
    return cp_buf_appendf(out, err, " IS %s%s)", e->negated ? "NOT " : "",
                          e->kind == CP_SQL_E_IS_NULL ? "NULL"
                          : e->bool_value             ? "TRUE"
                                                      : "FALSE");
  case CP_SQL_E_IN:
  case CP_SQL_E_BETWEEN:
  case CP_SQL_E_LIKE: return predicate_suffix(e, display, out, err);
  case CP_SQL_E_CAST:
    if (!display) return cp_buf_appendf(out, err, " AS %s)", e->type);
    CP_RETURN_IF_ERROR(put(out, " AS ", err));
    CP_RETURN_IF_ERROR(cast_type_name(e->type, out, err));
    return put(out, ")", err);
  case CP_SQL_E_CASE: return case_suffix(e, display, out, err);
  case CP_SQL_E_SUBQUERY: /* IN: Spark names it (x IN (listquery())) */
    if (display) return put(out, e->negated ? " IN (listquery())))" : " IN (listquery()))", err);
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %sIN (", e->negated ? "NOT " : ""));
    CP_RETURN_IF_ERROR(cp_sql_print_query(e->query, out, err));
    return put(out, "))", err);
  case CP_SQL_E_FUNC:
    if (e->field) {
      CP_RETURN_IF_ERROR(put(out, ".", err));
      return cp_sql_print_ident(e->field, out, err);
    }
    if (e->subscript) {
      CP_RETURN_IF_ERROR(put(out, "[", err));
      CP_RETURN_IF_ERROR(expr_text(e->args[1], display, out, err));
      return put(out, "]", err);
    }
    if (e->n_args > 1) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(args_text(e->args + 1, e->n_args - 1, display, out, err));
    CP_RETURN_IF_ERROR(window_args_tail(e, display, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
    CP_RETURN_IF_ERROR(filter_text(e, display, out, err));
    return e->window ? window_text(e, display, out, err) : PAIMON_OK;
  default: return PAIMON_OK;
  }
}

static int expr_text(const cp_sql_expr *e, bool display, cp_buf *out, paimon_error *err) {
  if (display && e->kind == CP_SQL_E_STAR) return leaf_text(e, false, out, err);
  cp_chain s;
  CP_RETURN_IF_ERROR(cp_sql_expr_spine(&s, e, err));
  size_t k = s.n - 1;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < k; i++) rc = prefix_text(s.nodes[i], display, out, err);
  if (!rc) rc = leaf_text(s.nodes[k], display, out, err);
  for (size_t i = k; !rc && i-- > 0;) rc = suffix_text(s.nodes[i], display, out, err);
  cp_chain_free(&s);
  return rc;
}

static const void *first_arg(const void *node) {
  const cp_sql_expr *e = node;
  return e->n_args ? e->args[0] : NULL;
}

int cp_sql_expr_spine(cp_chain *c, const cp_sql_expr *e, paimon_error *err) {
  return cp_chain_collect(c, e, first_arg, err);
}

int cp_sql_print_expr(const cp_sql_expr *e, cp_buf *out, paimon_error *err) {
  return expr_text(e, false, out, err);
}

static int print_args(cp_sql_expr *const *args, size_t n, cp_buf *out, paimon_error *err) {
  return args_text(args, n, false, out, err);
}

int cp_sql_expr_display_name(const cp_sql_expr *e, cp_buf *out, paimon_error *err) {
  return expr_text(e, true, out, err);
}

/* ---- queries -------------------------------------------------------------------------------- */

int cp_sql_print_travel(const cp_sql_from *f, cp_buf *out, paimon_error *err) {
  if (f->has_timestamp) return cp_buf_appendf(out, err, " TIMESTAMP AS OF '%s'", f->timestamp_text);
  if (f->version_tag) return cp_buf_appendf(out, err, " VERSION AS OF '%s'", f->version_tag);
  if (f->has_version) return cp_buf_appendf(out, err, " VERSION AS OF %lld", (long long)f->version);
  return PAIMON_OK;
}

static int print_from(const cp_sql_from *f, cp_buf *out, paimon_error *err) {
  static const char *const joins[] = {"JOIN",       "LEFT JOIN",      "RIGHT JOIN",    "FULL JOIN",
                                      "CROSS JOIN", "LEFT SEMI JOIN", "LEFT ANTI JOIN"};
  switch (f->kind) {
  case CP_SQL_FROM_TABLE:
    CP_RETURN_IF_ERROR(print_name(&f->table, out, err));
    CP_RETURN_IF_ERROR(cp_sql_print_travel(f, out, err));
    break;
  case CP_SQL_FROM_SUBQUERY:
    CP_RETURN_IF_ERROR(put(out, "(", err));
    CP_RETURN_IF_ERROR(cp_sql_print_query(f->query, out, err));
    CP_RETURN_IF_ERROR(put(out, ")", err));
    break;
  case CP_SQL_FROM_JOIN:
    CP_RETURN_IF_ERROR(print_from(f->left, out, err));
    CP_RETURN_IF_ERROR(
        cp_buf_appendf(out, err, " %s%s ", f->natural ? "NATURAL " : "", joins[f->join]));
    CP_RETURN_IF_ERROR(print_from(f->right, out, err));
    if (f->on) {
      CP_RETURN_IF_ERROR(put(out, " ON ", err));
      CP_RETURN_IF_ERROR(cp_sql_print_expr(f->on, out, err));
    }
    for (size_t i = 0; i < f->n_using; i++) {
      CP_RETURN_IF_ERROR(put(out, i ? ", " : " USING (", err));
      CP_RETURN_IF_ERROR(cp_sql_print_ident(f->using_cols[i], out, err));
    }
    return f->n_using ? put(out, ")", err) : PAIMON_OK;
  }
  if (f->alias) {
    CP_RETURN_IF_ERROR(put(out, " AS ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_ident(f->alias, out, err));
  }
  return PAIMON_OK;
}

/* (left) UNION [ALL] (right): both sides parenthesised, so the grouping reads back as it was. The
 * chain of left operands is walked with a loop, as the executor does. */
static int print_set_query(const cp_sql_query *q, cp_buf *out, paimon_error *err) {
  static const char *const ops[] = {"", "UNION", "EXCEPT", "INTERSECT"};
  cp_chain chain;
  cp_chain_init(&chain);
  int rc = PAIMON_OK;
  for (; !rc && q->set_op != CP_SQL_SET_NONE; q = q->left) rc = cp_chain_push(&chain, q, err);
  for (size_t i = 0; !rc && i < chain.n; i++) rc = put(out, "(", err);
  if (!rc) rc = cp_sql_print_query(q, out, err);
  for (size_t i = chain.n; !rc && i-- > 0;) {
    const cp_sql_query *op = chain.nodes[i];
    rc = cp_buf_appendf(out, err, ") %s%s (", ops[op->set_op], op->set_all ? " ALL" : "");
    if (!rc) rc = cp_sql_print_query(op->right, out, err);
    if (!rc) rc = put(out, ")", err);
  }
  cp_chain_free(&chain);
  return rc;
}

int cp_sql_print_query(const cp_sql_query *q, cp_buf *out, paimon_error *err) {
  if (q->set_op != CP_SQL_SET_NONE) return print_set_query(q, out, err);
  CP_RETURN_IF_ERROR(put(out, q->distinct ? "SELECT DISTINCT " : "SELECT ", err));
  for (size_t i = 0; i < q->n_items; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ", ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(q->items[i].expr, out, err));
    if (q->items[i].alias) {
      CP_RETURN_IF_ERROR(put(out, " AS ", err));
      CP_RETURN_IF_ERROR(cp_sql_print_ident(q->items[i].alias, out, err));
    }
  }
  if (q->from) {
    CP_RETURN_IF_ERROR(put(out, " FROM ", err));
    CP_RETURN_IF_ERROR(print_from(q->from, out, err));
  }
  if (q->where) {
    CP_RETURN_IF_ERROR(put(out, " WHERE ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(q->where, out, err));
  }
  if (q->n_group_by) {
    CP_RETURN_IF_ERROR(put(out, " GROUP BY ", err));
    CP_RETURN_IF_ERROR(print_args(q->group_by, q->n_group_by, out, err));
  }
  if (q->having) {
    CP_RETURN_IF_ERROR(put(out, " HAVING ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(q->having, out, err));
  }
  if (q->n_order_by) {
    CP_RETURN_IF_ERROR(put(out, " ORDER BY ", err));
    CP_RETURN_IF_ERROR(order_items_text(q->order_by, q->n_order_by, false, out, err));
  }
  if (q->limit) {
    CP_RETURN_IF_ERROR(put(out, " LIMIT ", err));
    CP_RETURN_IF_ERROR(cp_sql_print_expr(q->limit, out, err));
  }
  return PAIMON_OK;
}

/* Statement printing lives in ast_print_stmt.c. */
