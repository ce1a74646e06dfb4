/* Java's text forms of internal values (datum_text.h). */
#include "types/datum_text.h"

#include <inttypes.h>

#include "arrow/print.h"
#include "base/status.h"
#include "base/time.h"

cp_civil_time cp_civil_time_of(int64_t millis, int32_t nanos_of_milli) {
  cp_civil_time c;
  int64_t days = millis / 86400000 - (millis % 86400000 < 0 ? 1 : 0);
  int64_t ms = millis - days * 86400000;
  cp_civil_from_days(days, &c.year, &c.month, &c.day);
  c.hour = (int)(ms / 3600000);
  c.minute = (int)(ms / 60000 % 60);
  c.second = (int)(ms / 1000 % 60);
  c.nano = (int32_t)(ms % 1000) * 1000000 + nanos_of_milli;
  return c;
}

int cp_java_year_text(int64_t y, cp_buf *out, paimon_error *err) {
  if (y >= 0 && y <= 9999) return cp_buf_appendf(out, err, "%04" PRId64, y);
  if (y > 9999) return cp_buf_appendf(out, err, "+%" PRId64, y);
  return cp_buf_appendf(out, err, "-%04" PRId64, -y);
}

int cp_decimal_plain_text(cp_int128 unscaled, int scale, cp_buf *out, paimon_error *err) {
  cp_dec128 v;
  v.lo = (uint64_t)(unsigned __int128)unscaled;
  v.hi = (int64_t)(unscaled >> 64);
  return cp_format_decimal128(out, v, scale, err);
}

int cp_local_date_time_text(int64_t millis, int32_t nanos_of_milli, cp_buf *out,
                            paimon_error *err) {
  cp_civil_time c = cp_civil_time_of(millis, nanos_of_milli);
  CP_RETURN_IF_ERROR(cp_java_year_text(c.year, out, err));
  CP_RETURN_IF_ERROR(
      cp_buf_appendf(out, err, "-%02d-%02dT%02d:%02d", c.month, c.day, c.hour, c.minute));
  if (c.second == 0 && c.nano == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, ":%02d", c.second));
  if (c.nano == 0) return PAIMON_OK;
  if (c.nano % 1000000 == 0) return cp_buf_appendf(out, err, ".%03d", c.nano / 1000000);
  if (c.nano % 1000 == 0) return cp_buf_appendf(out, err, ".%06d", c.nano / 1000);
  return cp_buf_appendf(out, err, ".%09d", c.nano);
}
