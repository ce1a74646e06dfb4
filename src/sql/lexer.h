/*
 * The SQL lexer: turns statement text into tokens with their line:column, for the Spark SQL subset
 * that `cpaimon sql` accepts (docs/sql.md; Spark's SqlBaseLexer.g4 is the model for what a token
 * is).
 *
 *  - identifiers: [A-Za-z_][A-Za-z0-9_]* (case-insensitive; keywords are identifiers the parser
 *    recognises by text), or `back-quoted` with `` doubled inside;
 *  - string literals: '...' or "..." (Spark treats both as strings), with '' (resp. "") for a
 *    quote inside, and the backslash escapes of Spark's unescapeSQLString: \0 \b \n \r \t \Z
 *    \\ \' \" \uXXXX \ooo (three octal digits); \% and \_ keep their backslash (for LIKE);
 *    any other \c is c. Adjacent literals are concatenated by the parser, as in Spark;
 *  - numbers: 12, 1.5, .5, 1., 1e10, 1.5E-3, with Spark's type suffixes L S Y D F BD (any case);
 *  - X'0A1B' binary literals;
 *  - operators: ( ) , . ; * + - / % = == <> != < <= > >= <=> || : [ ] ~ & | ^;
 *  - comments: -- to the end of the line, and bracketed C-style comments (nesting allowed, as in
 *    Spark).
 *
 * Positions are 1-based; a column counts bytes from the start of the line, plus one.
 */
#ifndef CP_SQL_LEXER_H
#define CP_SQL_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef enum cp_sql_tok_kind {
  CP_TOK_EOF = 0,
  CP_TOK_IDENT,  /* plain identifier or keyword; text is the identifier as written */
  CP_TOK_QIDENT, /* back-quoted identifier; text is the decoded name */
  CP_TOK_STRING, /* text is the decoded value (may contain NUL bytes: use text_len) */
  CP_TOK_NUMBER, /* text is the literal as written, suffix included */
  CP_TOK_HEX,    /* X'..': text is the hex digits */
  CP_TOK_LPAREN,
  CP_TOK_RPAREN,
  CP_TOK_COMMA,
  CP_TOK_DOT,
  CP_TOK_SEMI,
  CP_TOK_STAR,
  CP_TOK_PLUS,
  CP_TOK_MINUS,
  CP_TOK_SLASH,
  CP_TOK_PERCENT,
  CP_TOK_EQ, /* = or == */
  CP_TOK_NE, /* <> or != */
  CP_TOK_LT,
  CP_TOK_LE,
  CP_TOK_GT,
  CP_TOK_GE,
  CP_TOK_NSEQ,   /* <=> */
  CP_TOK_CONCAT, /* || */
  CP_TOK_COLON,
  CP_TOK_LBRACKET,
  CP_TOK_RBRACKET,
  CP_TOK_TILDE,
  CP_TOK_AMP,
  CP_TOK_PIPE,
  CP_TOK_CARET,
  CP_TOK_ERROR /* a bad token: text is the message ("line L:C: unexpected character '$'") */
} cp_sql_tok_kind;

typedef struct cp_sql_token {
  cp_sql_tok_kind kind;
  int line, col;    /* where the token starts (1-based) */
  size_t offset;    /* byte offset of the token's first byte in the input */
  size_t end;       /* byte offset just after the token */
  const char *text; /* NUL-terminated, in the lexer's arena (see each kind above) */
  size_t text_len;  /* bytes of text, without the terminator */
} cp_sql_token;

/* The tokens of one input. `items` ends with a CP_TOK_EOF token (count includes it). */
typedef struct cp_sql_tokens {
  cp_sql_token *items; /* malloc'd */
  size_t count;
  cp_arena arena; /* token texts */
  /* Set when lexing failed: the tokens before the bad spot are kept, followed by an EOF token
   * at that spot, so that the statements before it can still run; `error` says what failed. */
  bool failed;
  paimon_error error;
} cp_sql_tokens;

/* Tokenizes src[0, len). On failure (EINVAL) the message is "line L:C: <what>", e.g.
 * "line 2:8: unterminated string literal". A bad character, number or binary literal becomes a
 * CP_TOK_ERROR token and lexing goes on after it (the call still fails with the first such
 * message); an unterminated string, quoted identifier or comment ends the input (see `failed`
 * above). Release *out with cp_sql_tokens_free in every case. */
int cp_sql_lex(const char *src, size_t len, cp_sql_tokens *out, paimon_error *err);

void cp_sql_tokens_free(cp_sql_tokens *t);

/* A short printable name of a token kind for messages ("','", "identifier", "end of input"). */
const char *cp_sql_tok_kind_name(cp_sql_tok_kind kind);

/* True when `tok` is an identifier (not back-quoted) spelled `word` in any case. */
bool cp_sql_tok_is(const cp_sql_token *tok, const char *word);
/* Words that cannot be unquoted identifiers (Spark's reserved words in the subset parsed here):
 * the parser reads them as keywords and the printer quotes names spelled like them. */
bool cp_sql_reserved_word(const char *word);

/* For the interactive shell: true when src[0, len) holds at least one complete statement, i.e.
 * tokenizes (no open string, quoted identifier or comment) and its last token is ';'. */
bool cp_sql_input_complete(const char *src, size_t len);

#endif
