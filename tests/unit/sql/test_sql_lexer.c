/* Unit tests for the SQL lexer (src/sql/lexer.h): token kinds, decoded texts, positions, Spark's
 * escapes and number suffixes, comments, errors with line:column, and statement completeness. */
#include <string.h>

#include "sql/lexer.h"
#include "test.h"

static cp_sql_tokens lex_ok(const char *src) {
  cp_sql_tokens t;
  paimon_error err;
  CHECK_OK(cp_sql_lex(src, strlen(src), &t, &err), &err);
  return t;
}

static void test_basic_tokens(void) {
  const char *src = "SELECT a, `b``c` FROM t -- comment\n  WHERE x >= 1.5e3 <=> y <> z != w;";
  cp_sql_tokens t = lex_ok(src);
  static const cp_sql_tok_kind kinds[] = {
      CP_TOK_IDENT, CP_TOK_IDENT, CP_TOK_COMMA, CP_TOK_QIDENT, CP_TOK_IDENT, CP_TOK_IDENT,
      CP_TOK_IDENT, CP_TOK_IDENT, CP_TOK_GE,    CP_TOK_NUMBER, CP_TOK_NSEQ,  CP_TOK_IDENT,
      CP_TOK_NE,    CP_TOK_IDENT, CP_TOK_NE,    CP_TOK_IDENT,  CP_TOK_SEMI,  CP_TOK_EOF};
  CHECK_INT(t.count, sizeof kinds / sizeof kinds[0]);
  for (size_t i = 0; i < t.count && i < sizeof kinds / sizeof kinds[0]; i++)
    CHECK_INT(t.items[i].kind, kinds[i]);
  CHECK_STR(t.items[3].text, "b`c");
  CHECK_STR(t.items[9].text, "1.5e3");
  /* WHERE is on line 2, column 3. */
  CHECK_INT(t.items[6].line, 2);
  CHECK_INT(t.items[6].col, 3);
  CHECK(cp_sql_tok_is(&t.items[6], "where"));
  CHECK(!cp_sql_tok_is(&t.items[3], "b`c"));
  CHECK_INT(t.items[0].offset, 0);
  CHECK_INT(t.items[0].end, 6);
  cp_sql_tokens_free(&t);
}

static void test_strings(void) {
  /* 'it''s' is two literals, as in Spark (the parser joins adjacent ones); \' is a quote. */
  cp_sql_tokens t =
      lex_ok("'it''s' \"dq\" 'a\\nb' '\\u0041\\101' '\\%\\_' 'x\\qy' '\\0' 'it\\'s' \"a\"\"b\"");
  CHECK_INT(t.count, 12);
  CHECK_STR(t.items[0].text, "it");
  CHECK_STR(t.items[1].text, "s");
  CHECK_STR(t.items[2].text, "dq");
  CHECK_STR(t.items[3].text, "a\nb");
  CHECK_STR(t.items[4].text, "AA");
  CHECK_STR(t.items[5].text, "\\%\\_"); /* kept for LIKE, as Spark does */
  CHECK_STR(t.items[6].text, "xqy");
  CHECK_INT(t.items[7].text_len, 1);
  CHECK_INT(t.items[7].text[0], 0);
  CHECK_STR(t.items[8].text, "it's");
  CHECK_STR(t.items[9].text, "a");
  CHECK_STR(t.items[10].text, "b");
  for (int i = 0; i < 11; i++) CHECK_INT(t.items[i].kind, CP_TOK_STRING);
  cp_sql_tokens_free(&t);
}

static void test_numbers(void) {
  cp_sql_tokens t = lex_ok("1 1L 2s 3Y 4.5BD 1.5D 2f .5 1. 1e10 1.5E-3 X'0aFF'");
  static const char *const texts[] = {"1",  "1L", "2s", "3Y",   "4.5BD", "1.5D",
                                      "2f", ".5", "1.", "1e10", "1.5E-3"};
  for (size_t i = 0; i < 11; i++) {
    CHECK_INT(t.items[i].kind, CP_TOK_NUMBER);
    CHECK_STR(t.items[i].text, texts[i]);
  }
  CHECK_INT(t.items[11].kind, CP_TOK_HEX);
  CHECK_STR(t.items[11].text, "0aFF");
  cp_sql_tokens_free(&t);
}

static void test_comments(void) {
  cp_sql_tokens t = lex_ok("/* a /* nested */ still comment */ x -- tail\n/**/y");
  CHECK_INT(t.count, 3);
  CHECK_STR(t.items[0].text, "x");
  CHECK_STR(t.items[1].text, "y");
  CHECK_INT(t.items[1].line, 2);
  CHECK_INT(t.items[1].col, 5);
  cp_sql_tokens_free(&t);
}

/* A fatal error: the tokens before it are kept, then an EOF. */
static void check_lex_error(const char *src, const char *msg, size_t tokens_before) {
  cp_sql_tokens t;
  paimon_error err;
  CHECK_ERR(cp_sql_lex(src, strlen(src), &t, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, msg);
  CHECK(t.failed);
  CHECK_STR(t.error.message, msg);
  CHECK_INT(t.count, tokens_before + 1);
  if (t.count) CHECK_INT(t.items[t.count - 1].kind, CP_TOK_EOF);
  cp_sql_tokens_free(&t);
}

/* A bad token: an error token carries the message and lexing goes on after it. */
static void check_bad_token(const char *src, const char *msg, size_t at, size_t count) {
  cp_sql_tokens t;
  paimon_error err;
  CHECK_ERR(cp_sql_lex(src, strlen(src), &t, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, msg);
  CHECK(!t.failed);
  CHECK_INT(t.count, count);
  if (t.count > at) {
    CHECK_INT(t.items[at].kind, CP_TOK_ERROR);
    CHECK_STR(t.items[at].text, msg);
  }
  if (t.count) CHECK_INT(t.items[t.count - 1].kind, CP_TOK_EOF);
  cp_sql_tokens_free(&t);
}

static void test_errors(void) {
  check_lex_error("SELECT 1;\nSELECT 'abc", "line 2:8: unterminated string literal", 4);
  check_lex_error("a /* open", "line 1:3: unterminated comment", 1);
  check_lex_error("`x", "line 1:1: unterminated quoted identifier", 0);
  check_lex_error("X'0a", "line 1:1: unterminated binary literal", 0);
  check_bad_token("SELECT $x", "line 1:8: unexpected character '$'", 1, 4);
  check_bad_token("SELECT 12abc; SELECT 2", "line 1:10: invalid number literal", 1, 6);
  check_bad_token("X'0g' 1", "line 1:4: invalid hexadecimal digit in binary literal", 0, 3);
  check_bad_token("SELECT \x01", "line 1:8: unexpected byte 0x01", 1, 3);
  /* Only the first bad token is the call's error; each carries its own message. */
  cp_sql_tokens t;
  paimon_error err;
  CHECK_ERR(cp_sql_lex("$ ?", 3, &t, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "line 1:1: unexpected character '$'");
  CHECK_INT(t.count, 3);
  if (t.count == 3) CHECK_STR(t.items[1].text, "line 1:3: unexpected character '?'");
  cp_sql_tokens_free(&t);
}

static void test_complete(void) {
  CHECK(cp_sql_input_complete("SELECT 1;", 9));
  CHECK(cp_sql_input_complete("SELECT 1; -- done\n", 18));
  CHECK(!cp_sql_input_complete("SELECT 1", 8));
  CHECK(!cp_sql_input_complete("SELECT ';", 9));
  CHECK(!cp_sql_input_complete("SELECT 1 /* ; */", 16));
  CHECK(!cp_sql_input_complete("", 0));
  CHECK(cp_sql_input_complete("SELECT 1;\nSELECT 2;", 19));
  /* A bad character does not keep the shell waiting for more input. */
  CHECK(cp_sql_input_complete("SELECT $;", 9));
}

int main(void) {
  RUN(test_basic_tokens);
  RUN(test_strings);
  RUN(test_numbers);
  RUN(test_comments);
  RUN(test_errors);
  RUN(test_complete);
  TEST_MAIN_END();
}
