/*
 * CHAR(n) and VARCHAR(n) as Spark treats them (CharVarcharUtils, with Spark 3.5's defaults;
 * docs/sql.md, "CHAR and VARCHAR"):
 *   - written (INSERT, UPDATE SET, MERGE): a value longer than n characters loses trailing spaces
 *     down to n and, still too long, fails with [EXCEED_LIMIT_LENGTH]; a CHAR value shorter than
 *     n is padded with spaces to n (charTypeWriteSideCheck / varcharTypeWriteSideCheck);
 *   - read (spark.sql.readSideCharPadding): CHAR columns are padded to n, so values another
 *     writer stored unpadded read the same as padded ones, and length(c) is n;
 *   - compared (ApplyCharTypePadding): a string literal compared with a CHAR(n) column (=, <>,
 *     <, <=, >, >=, <=>, IN) is padded to n, so c = 'ab' matches what was written as 'ab'.
 * Lengths are counted in characters (UTF-8 code points), as Spark's numChars does.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "sql/bind.h"
#include "sql/exec.h"
#include "types/type_arrow.h"

/* Whether values of `t` have a length limit that Spark checks on write. */
static bool limited(const cp_type *t) {
  return t->kind == CP_TYPE_CHAR || (t->kind == CP_TYPE_VARCHAR && t->length < CP_TYPE_MAX_LENGTH);
}

/* Appends `s` to `b` as it is written to a column of type `t`, or fails for a value too long. */
static int write_value(const cp_type *t, const uint8_t *s, int64_t len, const char *column,
                       cp_buf *b, paimon_error *err) {
  int64_t chars = cp_sql_num_chars(s, len), limit = t->length;
  cp_buf_clear(b);
  while (chars > limit && len > 0 && s[len - 1] == ' ') len--, chars--;
  if (chars > limit)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "[EXCEED_LIMIT_LENGTH] Exceeds char/varchar type length limitation: "
                            "%lld. (column '%s')",
                            (long long)limit, column);
  CP_RETURN_IF_ERROR(cp_buf_append(b, s, (size_t)len, err));
  if (t->kind == CP_TYPE_CHAR)
    for (; chars < limit; chars++) CP_RETURN_IF_ERROR(cp_buf_append(b, " ", 1, err));
  return PAIMON_OK;
}

/* Rebuilds the string array `array` (of `schema`) with fn applied to every non-null value. */
typedef int (*value_fn)(const cp_type *t, const uint8_t *s, int64_t len, const char *column,
                        cp_buf *out, paimon_error *err);

static int rebuild(const cp_type *t, value_fn fn, const char *column, struct ArrowSchema *schema,
                   struct ArrowArray *array, paimon_error *err) {
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, array, err));
  cp_builder *b = NULL;
  int rc = cp_builder_create(&b, schema, err);
  cp_buf val = CP_BUF_INIT;
  for (int64_t i = 0; rc == 0 && i < v.length; i++) {
    if (cp_view_is_null(&v, i)) {
      rc = cp_builder_append_null(b, err);
      continue;
    }
    int64_t len;
    const uint8_t *s = cp_view_get_bytes(&v, i, &len);
    rc = fn(t, s, len, column, &val, err);
    if (rc == 0)
      rc = cp_builder_append_bytes(b, val.data ? val.data : (const uint8_t *)"", (int64_t)val.len,
                                   err);
  }
  struct ArrowArray out;
  memset(&out, 0, sizeof out);
  if (rc == 0) rc = cp_builder_finish(b, &out, err);
  cp_builder_free(b);
  cp_buf_free(&val);
  cp_array_view_reset(&v);
  if (rc) return rc;
  cp_array_release(array);
  cp_array_move(&out, array);
  return PAIMON_OK;
}

int cp_sql_char_write(const cp_type *to, const char *column, struct ArrowSchema *schema,
                      struct ArrowArray *array, paimon_error *err) {
  if (!limited(to)) return PAIMON_OK;
  return rebuild(to, write_value, column, schema, array, err);
}

static int pad_value(const cp_type *t, const uint8_t *s, int64_t len, const char *column, cp_buf *b,
                     paimon_error *err) {
  (void)column;
  cp_buf_clear(b);
  CP_RETURN_IF_ERROR(cp_buf_append(b, s, (size_t)len, err));
  for (int64_t chars = cp_sql_num_chars(s, len); chars < t->length; chars++)
    CP_RETURN_IF_ERROR(cp_buf_append(b, " ", 1, err));
  return PAIMON_OK;
}

int cp_sql_char_pad_rel(cp_rel *r, paimon_error *err) {
  bool any = false;
  for (size_t i = 0; i < r->n_cols; i++) any = any || r->cols[i].type->kind == CP_TYPE_CHAR;
  if (!any) return PAIMON_OK;
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < r->n_cols; i++) {
    const cp_rel_col *c = &r->cols[i];
    if (c->type->kind != CP_TYPE_CHAR) {
      rc = cp_rel_builder_add_from(&b, r, i, err);
      continue;
    }
    struct ArrowSchema s;
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    rc = cp_rel_column_share(r, i, &s, &a, err);
    if (!rc) rc = rebuild(c->type, pad_value, c->name, &s, &a, err);
    if (rc) {
      if (a.release) cp_array_release(&a);
      if (s.release) cp_schema_release(&s);
      break;
    }
    rc = cp_rel_builder_add(&b, c->name, c->qualifier, c->type, c->hidden, &s, &a, err);
    if (!rc) rc = cp_rel_col_set_database(&b.cols[b.n - 1], c->database, err);
  }
  cp_rel padded;
  memset(&padded, 0, sizeof padded);
  if (rc) {
    cp_rel_builder_free(&b);
    return rc;
  }
  CP_RETURN_IF_ERROR(cp_rel_builder_finish(&b, cp_rel_rows(r), &padded, err));
  cp_rel_free(r);
  *r = padded;
  return PAIMON_OK;
}
