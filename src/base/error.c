/* Status names and error-message formatting (include/cpaimon/error.h). */
#include "cpaimon/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *paimon_status_name(int code) {
  switch (code) {
  case PAIMON_OK: return "OK";
  case PAIMON_EINVAL: return "EINVAL";
  case PAIMON_ENOMEM: return "ENOMEM";
  case PAIMON_EIO: return "EIO";
  case PAIMON_ENOTFOUND: return "ENOTFOUND";
  case PAIMON_EEXIST: return "EEXIST";
  case PAIMON_ECORRUPT: return "ECORRUPT";
  case PAIMON_EUNSUPPORTED: return "EUNSUPPORTED";
  case PAIMON_ECONFLICT: return "ECONFLICT";
  case PAIMON_ESTATE: return "ESTATE";
  default: return "unknown";
  }
}

int paimon_error_set(paimon_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->code = code;
  }
  return code;
}

int paimon_error_prefix(paimon_error *err, const char *fmt, ...) {
  if (!err) return PAIMON_OK;
  char prefix[PAIMON_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  if (n < 0) return err->code;
  /* Build "<prefix>: <old message>" by hand: both parts may be truncated to fit. */
  char joined[PAIMON_ERROR_MESSAGE_SIZE];
  size_t cap = sizeof joined - 1, len = strnlen(prefix, cap);
  memcpy(joined, prefix, len);
  for (const char *p = ": "; *p && len < cap; p++) joined[len++] = *p;
  size_t old_len = strnlen(err->message, sizeof err->message);
  if (old_len > cap - len) old_len = cap - len;
  memcpy(joined + len, err->message, old_len);
  len += old_len;
  joined[len] = '\0';
  memcpy(err->message, joined, len + 1);
  return err->code;
}

void paimon_error_clear(paimon_error *err) {
  if (!err) return;
  err->code = 0;
  err->message[0] = '\0';
}
