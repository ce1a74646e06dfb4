/*
 * libFuzzer harness for the SQL lexer and parser (src/sql/parser.h): any input must parse or fail
 * with a message, never crash or leak, and every statement that parses must print (ast.h
 * cp_sql_print_stmt) as text that parses back to a statement printing the same — the round trip
 * the unit tests check on fixed inputs, here on whatever the fuzzer finds — unless the printed
 * text passes the parser's nesting limit (printing adds parentheses). Display names
 * (cp_sql_expr_display_name) are computed for every SELECT item too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/parser.h"

static char *print(const cp_sql_stmt *s) {
  cp_buf b = CP_BUF_INIT;
  if (cp_sql_print_stmt(s, &b, NULL) != 0 || cp_buf_nul_terminate(&b, NULL) != 0) {
    cp_buf_free(&b);
    return NULL;
  }
  return (char *)cp_buf_detach(&b);
}

static void check_round_trip(const cp_sql_stmt *s) {
  char *first = print(s);
  if (!first) return; /* out of memory */
  cp_sql_stmt **again = NULL;
  size_t n = 0;
  paimon_error err;
  int rc = cp_sql_parse(first, strlen(first), &again, &n, &err);
  /* The printed form parenthesizes every operator and operand, so a statement near the parser's
   * nesting limit (a long run of unary operators, say) can print deeper than the parser accepts:
   * that limit guards the stack and is no round-trip failure. */
  if (rc != 0 && strstr(err.message, "nested too deeply")) {
    free(first);
    return;
  }
  if (rc != 0 || n != 1) {
    fprintf(stderr, "printed statement does not parse back: %s\n  %s\n", first, err.message);
    __builtin_trap();
  }
  char *second = print(again[0]);
  if (second && strcmp(first, second) != 0) {
    fprintf(stderr, "round trip changed the statement:\n  %s\n  %s\n", first, second);
    __builtin_trap();
  }
  free(second);
  cp_sql_stmts_free(again, n);
  free(first);
}

static void display_names(const cp_sql_stmt *s) {
  if (s->kind != CP_SQL_S_SELECT) return;
  for (size_t i = 0; i < s->query->n_items; i++) {
    cp_buf b = CP_BUF_INIT;
    cp_sql_expr_display_name(s->query->items[i].expr, &b, NULL);
    cp_buf_free(&b);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  cp_sql_parser *p = NULL;
  paimon_error err;
  if (cp_sql_parser_new(&p, (const char *)data, size, &err) != 0) return 0;
  /* Bounded: each call consumes at least one token or ends the input. */
  for (int i = 0; i < 1000; i++) {
    cp_sql_stmt *s = NULL;
    int rc = cp_sql_parse_next(p, &s, &err);
    if (rc == 0 && !s) break;
    if (rc) {
      if (strncmp(err.message, "line ", 5) != 0) __builtin_trap(); /* every error has a position */
      continue;
    }
    display_names(s);
    check_round_trip(s);
    cp_sql_stmt_free(s);
  }
  cp_sql_parser_free(p);
  return 0;
}
