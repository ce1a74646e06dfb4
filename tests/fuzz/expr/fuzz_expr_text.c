/*
 * libFuzzer harness for the text the expr layer reads from users and from files: literal values
 * (cp_datum_parse_text, the lenient parsers behind CAST from STRING, SQL number literals) and LIKE
 * patterns. None may crash or read out of bounds on any input; and a value that parses must
 * print (CAST to STRING) as text that parses back to the same value.
 *
 * Input layout: byte 0 picks the type (and byte 1 the LIKE escape character); the rest is the
 * text.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_internal.h"
#include "expr/like.h"
#include "types/type_sql.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const TYPES[] = {"BOOLEAN",
                                    "TINYINT",
                                    "SMALLINT",
                                    "INT",
                                    "BIGINT",
                                    "FLOAT",
                                    "DOUBLE",
                                    "DECIMAL(10, 2)",
                                    "DECIMAL(38, 0)",
                                    "DECIMAL(38, 38)",
                                    "DATE",
                                    "TIME",
                                    "TIMESTAMP(3)",
                                    "TIMESTAMP(9)",
                                    "TIMESTAMP_LTZ(6)",
                                    "STRING",
                                    "BYTES"};

static void round_trip(const cp_type *t, const cp_datum *d) {
  if (cp_type_is_string(t) || cp_type_is_binary(t)) return;
  cp_buf text = CP_BUF_INIT;
  paimon_error err;
  if (cp_datum_append_text(t, d, &text, &err) != 0) abort();
  if (cp_buf_nul_terminate(&text, &err) != 0) abort();
  cp_arena arena = CP_ARENA_INIT;
  cp_datum back;
  /* An LTZ value printed without its zone is UTC, which parses back to itself. */
  if (cp_datum_parse_text(t, (const char *)text.data, &arena, &back, &err) != 0) abort();
  if (cp_datum_compare(t, d, &back) != 0) abort();
  cp_arena_free(&arena);
  cp_buf_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  const cp_type *t;
  cp_type *owned = NULL;
  paimon_error err;
  if (cp_type_parse(TYPES[data[0] % (sizeof TYPES / sizeof *TYPES)], &owned, &err) != 0) abort();
  t = owned;
  size_t n = size - 2;
  char *text = malloc(n + 1);
  if (!text) return 0;
  memcpy(text, data + 2, n);
  text[n] = '\0';

  cp_arena arena = CP_ARENA_INIT;
  cp_datum d;
  int rc = cp_datum_parse_text(t, text, &arena, &d, &err);
  if (rc != 0 && rc != PAIMON_EINVAL && rc != PAIMON_ENOMEM) abort();
  if (rc == 0 && strlen(text) == n) round_trip(t, &d);
  const char *why;
  (void)cp_parse_value(t, text, n, false, &arena, &d, &why);
  cp_type *nt;
  if (cp_parse_number_literal(text, n, &nt, &d) == 0) cp_type_free(nt);

  cp_like_pattern *p;
  rc = cp_like_compile(CP_LIKE_PATTERN, data + 2, n, data[1], &p, &err);
  if (rc != 0 && rc != PAIMON_EINVAL && rc != PAIMON_ENOMEM) abort();
  if (rc == 0) {
    (void)cp_like_match(p, data + 2, n);
    (void)cp_like_match(p, (const uint8_t *)"", 0);
    cp_like_free(p);
  }
  cp_arena_free(&arena);
  cp_type_free(owned);
  free(text);
  return 0;
}
