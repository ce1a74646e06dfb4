/* Ordering of cp_datum values (datum.h). */
#include "types/datum.h"

#include <math.h>
#include <string.h>

#include "types/type.h"

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int cmp_double(double a, double b) {
  bool na = isnan(a), nb = isnan(b);
  if (na || nb) return (int)na - (int)nb;
  return CMP(a, b);
}

int cp_datum_compare(const struct cp_type *t, const cp_datum *a, const cp_datum *b) {
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return CMP((int)a->v.b, (int)b->v.b);
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT:
  case CP_TYPE_DATE:
  case CP_TYPE_TIME: return CMP(a->v.i64, b->v.i64);
  case CP_TYPE_FLOAT: return cmp_double(a->v.f32, b->v.f32);
  case CP_TYPE_DOUBLE: return cmp_double(a->v.f64, b->v.f64);
  case CP_TYPE_DECIMAL: return CMP(a->v.dec, b->v.dec);
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    int c = CMP(a->v.ts.millis, b->v.ts.millis);
    return c ? c : CMP(a->v.ts.nanos_of_milli, b->v.ts.nanos_of_milli);
  }
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: {
    size_t n = a->v.bytes.len < b->v.bytes.len ? a->v.bytes.len : b->v.bytes.len;
    int c = n ? memcmp(a->v.bytes.data, b->v.bytes.data, n) : 0;
    return c ? (c < 0 ? -1 : 1) : CMP(a->v.bytes.len, b->v.bytes.len);
  }
  default: return 0;
  }
}

size_t cp_decimal_to_be_bytes(cp_int128 v, uint8_t out[16]) {
  uint8_t full[16];
  unsigned __int128 u = (unsigned __int128)v;
  for (int i = 15; i >= 0; i--) {
    full[i] = (uint8_t)u;
    u >>= 8;
  }
  /* Drop leading bytes that are pure sign extension of the next byte. */
  size_t start = 0;
  while (start < 15) {
    uint8_t b = full[start], next_sign = (full[start + 1] & 0x80) ? 0xFF : 0x00;
    if (b != next_sign) break;
    start++;
  }
  memcpy(out, full + start, 16 - start);
  return 16 - start;
}

cp_int128 cp_decimal_from_be_bytes(const uint8_t *p, size_t n) {
  unsigned __int128 u = (n > 0 && (p[0] & 0x80)) ? ~(unsigned __int128)0 : 0;
  for (size_t i = 0; i < n; i++) u = (u << 8) | p[i];
  return (cp_int128)u;
}
