/*
 * `cpaimon sql`: the SQL shell over a warehouse (docs/sql.md).
 *
 *   cpaimon sql --warehouse DIR [-e SQL | -f FILE] [--format table|csv|json] [--truncate N]
 *               [--echo] [--continue]
 *
 * With -e or -f (or SQL on standard input) the statements run in order and the command stops at
 * the first error with a non-zero exit status and the statement's line:column; --continue reports
 * errors and goes on (the exit status still says something failed). Without them, on a terminal,
 * it is interactive: line editing and history (libedit, ~/.cpaimon_history), statements spanning
 * lines until a ';', `quit` or `exit` to leave.
 *
 * Query results print as Spark show() tables (arrow/print.h) with every row: Spark's default limit
 * of 20 rows does not apply to this shell; cells longer than 20 characters are cut as Spark does
 * unless --truncate 0. --format csv / json print CSV with a header or JSON lines instead. --echo
 * prints each statement before its result ("sql> ..."), which makes a transcript (the golden tests
 * in tests/sql/ are such transcripts).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/print.h"
#include "base/status.h"
#include "cli/cli.h"
#include "sql/lexer.h"
#include "sql/parser.h"
#include "sql/session.h"

#ifdef CPAIMON_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

static const char usage[] =
    "usage: cpaimon sql --warehouse DIR [-e SQL | -f FILE] [--format table|csv|json]\n"
    "                   [--truncate N] [--echo] [--continue]\n"
    "\n"
    "Runs SQL statements (Spark SQL dialect) against the tables of a warehouse. With -e or -f the\n"
    "statements run in order and the first error stops the command (exit status 1); without them\n"
    "the shell is interactive. Query results print as Spark show() tables with all rows.\n"
    "\n"
    "  --warehouse DIR   the warehouse: a directory or an object-store URI (s3://bucket/path),\n"
    "                    or a REST catalog's name; --catalog KEY=VALUE / --catalog-file FILE\n"
    "                    give catalog options (metastore=rest, uri=..., token.provider=...)\n"
    "  -e SQL            run these statements\n"
    "  -f FILE           run the statements in FILE ('-' for standard input)\n"
    "  --format FMT      table (default), csv or json (JSON lines)\n"
    "  --truncate N      cut table cells to N characters as Spark does (default 20, 0: never)\n"
    "  --echo            print each statement before its result\n"
    "  --continue        report errors and keep going\n";

typedef struct sql_opts {
  const char *warehouse;
  const char *exec_text;
  const char *file;
  const char *format;
  int truncate;
  bool echo;
  bool keep_going;
} sql_opts;

static bool takes_value(const char *a) {
  static const char *const opts[] = {"--warehouse", "-w",     "-e",       "--execute",
                                     "-f",          "--file", "--format", "--truncate"};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    if (strcmp(a, opts[i]) == 0) return true;
  return false;
}

static int parse_args(int argc, char **argv, sql_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--echo") == 0) {
      o->echo = true;
    } else if (strcmp(a, "--continue") == 0) {
      o->keep_going = true;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return -1;
    } else if (!takes_value(a)) {
      fprintf(stderr, "cpaimon sql: unknown option %s\n%s", a, usage);
      return 2;
    } else if (i + 1 >= argc) {
      fprintf(stderr, "cpaimon sql: %s needs a value\n%s", a, usage);
      return 2;
    } else {
      const char *v = argv[++i];
      int64_t n;
      if (strcmp(a, "--warehouse") == 0 || strcmp(a, "-w") == 0)
        o->warehouse = v;
      else if (strcmp(a, "-e") == 0 || strcmp(a, "--execute") == 0)
        o->exec_text = v;
      else if (strcmp(a, "-f") == 0 || strcmp(a, "--file") == 0)
        o->file = v;
      else if (strcmp(a, "--format") == 0)
        o->format = v;
      else if (cli_parse_int("sql", "--truncate", v, 0, INT32_MAX, &n))
        return 2;
      else
        o->truncate = (int)n;
    }
  }
  if (!o->warehouse && !cli_catalog_option("warehouse")) {
    fprintf(stderr, "cpaimon sql: --warehouse is required\n%s", usage);
    return 2;
  }
  if (strcmp(o->format, "table") && strcmp(o->format, "csv") && strcmp(o->format, "json")) {
    fprintf(stderr, "cpaimon sql: --format must be table, csv or json\n");
    return 2;
  }
  if (o->exec_text && o->file) {
    fprintf(stderr, "cpaimon sql: give -e or -f, not both\n");
    return 2;
  }
  return 0;
}

static void report(const paimon_error *err) {
  fflush(stdout);
  fprintf(stderr, "cpaimon sql: %s\n",
          err->message[0] ? err->message : paimon_status_name(err->code));
  fflush(stderr);
}

static void echo_statement(const char *text, size_t len) {
  bool first = true;
  size_t start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && text[i] != '\n') continue;
    printf("%s%.*s\n", first ? "sql> " : "  -> ", (int)(i - start), text + start);
    first = false;
    start = i + 1;
  }
}

static int print_result(const sql_opts *o, cp_sql_result *r, paimon_error *err) {
  cp_buf out = CP_BUF_INIT;
  int rc;
  if (strcmp(o->format, "csv") == 0) {
    rc = cp_print_csv(&out, &r->schema, &r->batch, true, err);
  } else if (strcmp(o->format, "json") == 0) {
    rc = cp_print_jsonl(&out, &r->schema, &r->batch, err);
  } else {
    cp_print_options po = {-1, o->truncate};
    rc = cp_print_table(&out, &r->schema, &r->batch, &po, err);
  }
  if (!rc && out.len) fwrite(out.data, 1, out.len, stdout);
  fflush(stdout);
  cp_buf_free(&out);
  return rc;
}

/* Runs every statement of text[0, len); returns the number of failed statements (stops at the
 * first unless --continue). */
static int run_text(cp_sql_session *s, const sql_opts *o, const char *text, size_t len) {
  paimon_error err;
  cp_sql_parser *p = NULL;
  if (cp_sql_parser_new(&p, text, len, &err)) {
    report(&err);
    return 1;
  }
  int failures = 0;
  for (;;) {
    cp_sql_stmt *stmt = NULL;
    int rc = cp_sql_parse_next(p, &stmt, &err);
    if (!rc && !stmt) break;
    if (!rc) {
      if (o->echo) echo_statement(text + stmt->text_start, stmt->text_end - stmt->text_start);
      cp_sql_result r;
      rc = cp_sql_execute(s, stmt, &r, &err);
      if (!rc && r.has_rows) rc = print_result(o, &r, &err);
      cp_sql_result_release(&r);
      cp_sql_stmt_free(stmt);
    }
    if (rc) {
      report(&err);
      failures++;
      if (!o->keep_going) break;
    }
  }
  cp_sql_parser_free(p);
  return failures;
}

static char *read_stream(FILE *f, size_t *len) {
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
    if (n == cap) {
      char *grown = realloc(buf, cap *= 2);
      if (!grown) {
        free(buf);
        return NULL;
      }
      buf = grown;
    }
  }
  if (buf) *len = n;
  return buf;
}

/* ---- interactive ---------------------------------------------------------------------------- */

static bool is_quit(const char *line) {
  while (*line == ' ' || *line == '\t') line++;
  static const char *const words[] = {"quit", "exit", "quit;", "exit;", "\\q"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
    size_t n = strlen(words[i]);
    if (strncasecmp(line, words[i], n) == 0 &&
        (line[n] == '\0' || line[n] == ' ' || line[n] == '\n'))
      return true;
  }
  return false;
}

static char *next_line(const char *prompt) {
#ifdef CPAIMON_HAVE_LIBEDIT
  return readline(prompt);
#else
  fputs(prompt, stdout);
  fflush(stdout);
  size_t len = 0;
  char *line = NULL;
  if (getline(&line, &len, stdin) < 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\n")] = '\0';
  return line;
#endif
}

static int interactive(cp_sql_session *s, const sql_opts *o) {
  char history[4096] = "";
  const char *home = getenv("HOME");
  if (home) snprintf(history, sizeof history, "%s/.cpaimon_history", home);
#ifdef CPAIMON_HAVE_LIBEDIT
  using_history();
  if (history[0]) read_history(history);
#endif
  printf("cpaimon sql shell on %s; statements end with ';', quit with 'quit'.\n",
         o->warehouse ? o->warehouse : cli_catalog_option("warehouse"));
  cp_buf pending = CP_BUF_INIT;
  for (;;) {
    char prompt[160];
    const char *db = cp_sql_session_database(s);
    if (pending.len)
      snprintf(prompt, sizeof prompt, "%*s> ", (int)strlen(db) + 10, "");
    else
      snprintf(prompt, sizeof prompt, "cpaimon (%.100s)> ", db);
    char *line = next_line(prompt);
    if (!line) break;
    if (!pending.len && is_quit(line)) {
      free(line);
      break;
    }
    if (pending.len) cp_buf_append(&pending, "\n", 1, NULL);
    cp_buf_append(&pending, line, strlen(line), NULL);
    free(line);
    if (!cp_sql_input_complete((const char *)pending.data, pending.len)) continue;
#ifdef CPAIMON_HAVE_LIBEDIT
    cp_buf_nul_terminate(&pending, NULL);
    add_history((const char *)pending.data);
#endif
    run_text(s, o, (const char *)pending.data, pending.len);
    cp_buf_clear(&pending);
  }
#ifdef CPAIMON_HAVE_LIBEDIT
  if (history[0]) write_history(history);
#endif
  cp_buf_free(&pending);
  printf("\n");
  return 0;
}

int cli_sql(int argc, char **argv) {
  sql_opts o = {NULL, NULL, NULL, "table", 20, false, false};
  int urc = parse_args(argc, argv, &o);
  if (urc) return urc < 0 ? 0 : urc;
  paimon_error err;
  cp_sql_session *s = NULL;
  paimon_catalog *cat = NULL;
  if (cli_catalog_open(&cat, o.warehouse, &err) || cp_sql_session_open_catalog(&s, cat, &err)) {
    report(&err);
    return 1;
  }
  int failures = 0;
  if (o.exec_text) {
    failures = run_text(s, &o, o.exec_text, strlen(o.exec_text));
  } else if (o.file || !isatty(STDIN_FILENO)) {
    bool from_stdin = !o.file || strcmp(o.file, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(o.file, "rb");
    size_t len = 0;
    char *text = f ? read_stream(f, &len) : NULL;
    if (f && !from_stdin) fclose(f);
    if (!text) {
      fprintf(stderr, "cpaimon sql: cannot read %s\n", from_stdin ? "standard input" : o.file);
      cp_sql_session_free(s);
      return 1;
    }
    failures = run_text(s, &o, text, len);
    free(text);
  } else {
    failures = interactive(s, &o);
  }
  cp_sql_session_free(s);
  return failures ? 1 : 0;
}
