/* Table file locations and Java-compatible partition directory names (paths.h, format.md §1.3). */
#include "table/paths.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "types/datum_text.h"

/* The characters Java's PartitionPathUtils.escapeChar escapes, besides controls and 0x7F. */
static bool needs_escape(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  return strchr("\"#%'*/:=?\\{}[]^", c) != NULL && c != '\0';
}

int cp_path_escape(const char *s, size_t n, cp_buf *out, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (needs_escape(c))
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%%%02X", c));
    else
      CP_RETURN_IF_ERROR(cp_buf_append(out, &c, 1, err));
  }
  return PAIMON_OK;
}

static bool is_blank(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace(p[i])) return false;
  return true;
}

int cp_partition_value_text(const cp_type *type, const cp_datum *value, cp_buf *out,
                            bool *is_default, paimon_error *err) {
  *is_default = value->is_null;
  if (value->is_null) return PAIMON_OK;
  switch (type->kind) {
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
    if (is_blank(value->v.bytes.data, value->v.bytes.len)) {
      *is_default = true;
      return PAIMON_OK;
    }
    return cp_buf_append(out, value->v.bytes.data, value->v.bytes.len, err);
  case CP_TYPE_BOOLEAN: return cp_buf_appendf(out, err, "%s", value->v.b ? "true" : "false");
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: return cp_buf_appendf(out, err, "%" PRId64, value->v.i64);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ:
    return cp_local_date_time_text(value->v.ts.millis, value->v.ts.nanos_of_milli, out, err);
  case CP_TYPE_DECIMAL: return cp_decimal_plain_text(value->v.dec, type->scale, out, err);
  default:
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "partition keys of type %s are not supported by cpaimon",
                            cp_type_kind_name(type->kind));
  }
}

int cp_partition_path(const char *const *keys, const cp_type *const *types, const cp_datum *values,
                      size_t n, const char *default_name, cp_buf *out, paimon_error *err) {
  cp_buf text = CP_BUF_INIT;
  int rc = PAIMON_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    bool is_default;
    cp_buf_clear(&text);
    CP_GOTO_IF_ERROR(rc, cp_partition_value_text(types[i], &values[i], &text, &is_default, err),
                     done);
    if (is_default) {
      cp_buf_clear(&text);
      CP_GOTO_IF_ERROR(rc, cp_buf_append(&text, default_name, strlen(default_name), err), done);
    }
    CP_GOTO_IF_ERROR(rc, cp_path_escape(keys[i], strlen(keys[i]), out, err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append(out, "=", 1, err), done);
    CP_GOTO_IF_ERROR(rc, cp_path_escape((const char *)text.data, text.len, out, err), done);
    CP_GOTO_IF_ERROR(rc, cp_buf_append(out, "/", 1, err), done);
  }
done:
  cp_buf_free(&text);
  return rc;
}

char *cp_bucket_dir(const char *table_path, const char *partition_path, int bucket) {
  size_t n = strlen(table_path) + strlen(partition_path) + 32;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%sbucket-%d", table_path, partition_path, bucket);
  return p;
}
