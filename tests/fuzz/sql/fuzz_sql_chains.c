/*
 * libFuzzer harness for the expression planner and executor on long chains (issue 14): the
 * fuzzer's expression text is repeated hundreds to thousands of times joined by an operator —
 * in a SELECT list, in a WHERE clause, or as the branches of a chain of set operations — and the
 * statement is parsed, bound (SQL binder, then cp_expr binding), evaluated over a small table and
 * printed. None of it may crash (stack overflow included: chains are walked with loops) or leak,
 * and every error carries a message.
 *
 * Input layout: byte 0 picks the place (SELECT list, WHERE, set operations), byte 1 the joining
 * operator, byte 2 the length of the chain (scaled); the rest is the expression text.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "sql/parser.h"
#include "sql/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const OPS[] = {" + ",   " - ",   " * ",  " / ",          " % ",
                                  " || ",  " AND ", " OR ", " = ",          " < ",
                                  " <=> ", " <> ",  " >= ", " IS NULL OR ", " LIKE "};
static const char *const SET_OPS[] = {" UNION ALL SELECT ", " UNION SELECT ", " EXCEPT SELECT ",
                                      " INTERSECT SELECT ", " INTERSECT ALL SELECT "};

static cp_sql_session *session;
static char warehouse[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void cleanup(void) {
  cp_sql_session_free(session);
  if (warehouse[0]) nftw(warehouse, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void run(const char *text, size_t len) {
  cp_sql_stmt **stmts = NULL;
  size_t n = 0;
  paimon_error err;
  if (cp_sql_parse(text, len, &stmts, &n, &err) != 0) {
    if (!err.message[0]) __builtin_trap();
    return;
  }
  for (size_t i = 0; i < n; i++) {
    cp_sql_result r;
    int rc = cp_sql_execute(session, stmts[i], &r, &err);
    if (rc != 0 && !err.message[0]) __builtin_trap(); /* every error says what went wrong */
    if (rc == 0) cp_sql_result_release(&r);
  }
  cp_sql_stmts_free(stmts, n);
}

static int setup(void) {
  strcpy(warehouse, "/tmp/fuzz_sql_chains.XXXXXX");
  if (!mkdtemp(warehouse)) return -1;
  atexit(cleanup);
  paimon_error err;
  if (cp_sql_session_open(&session, warehouse, &err) != 0) return -1;
  static const char SETUP[] =
      "CREATE TABLE t (a INT, b BIGINT, c DOUBLE, d DECIMAL(10, 2), s STRING, f BOOLEAN, "
      "dt DATE) TBLPROPERTIES ('row-tracking.enabled' = 'true');"
      "INSERT INTO t VALUES (1, 2, 0.5, 1.25, 'x', true, DATE '2024-01-31'),"
      " (-7, NULL, -0.0, NULL, '', false, NULL), (NULL, 9, NULL, -3.5, NULL, NULL, DATE "
      "'1970-01-01');";
  run(SETUP, sizeof SETUP - 1);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready = 0;
  if (!ready) ready = setup() == 0 ? 1 : -1;
  if (ready < 0 || size < 4 || size > 4 + 256) return 0;
  const char *frag = (const char *)data + 3;
  size_t frag_len = size - 3;
  if (memchr(frag, ';', frag_len) || memchr(frag, '\0', frag_len)) return 0;
  int place = data[0] % 3;
  /* Set operations read the table once per branch: shorter chains there. */
  size_t count = place == 2 ? 1 + data[2] % 64 : 1 + (size_t)data[2] * 16;
  const char *op = place == 2 ? SET_OPS[data[1] % (sizeof SET_OPS / sizeof SET_OPS[0])]
                              : OPS[data[1] % (sizeof OPS / sizeof OPS[0])];
  cp_buf q = CP_BUF_INIT;
  cp_buf_appendf(&q, NULL, place == 1 ? "SELECT a FROM t WHERE " : "SELECT ");
  for (size_t i = 0; i < count; i++) {
    if (i) cp_buf_appendf(&q, NULL, "%s", op);
    cp_buf_append(&q, frag, frag_len, NULL);
    if (place == 2) cp_buf_appendf(&q, NULL, " FROM t");
  }
  if (place == 0) cp_buf_appendf(&q, NULL, " FROM t");
  if (q.data) run((const char *)q.data, q.len);
  cp_buf_free(&q);
  return 0;
}
