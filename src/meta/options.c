/* Table options (options.h; spec/format.md §8). */
#include "meta/options.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"

static ptrdiff_t find(const cp_options *o, const char *key) {
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->keys[i], key) == 0) return (ptrdiff_t)i;
  return -1;
}

int cp_options_set(cp_options *o, const char *key, const char *value, paimon_error *err) {
  char *v = strdup(value);
  if (!v) return CP_ENOMEM(err, "table option");
  ptrdiff_t i = find(o, key);
  if (i >= 0) {
    free(o->values[i]);
    o->values[i] = v;
    return PAIMON_OK;
  }
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 8;
    char **k = realloc(o->keys, cap * sizeof *k);
    if (k) o->keys = k;
    char **vs = k ? realloc(o->values, cap * sizeof *vs) : NULL;
    if (!vs) {
      free(v);
      return CP_ENOMEM(err, "table options");
    }
    o->values = vs;
    o->cap = cap;
  }
  char *k = strdup(key);
  if (!k) {
    free(v);
    return CP_ENOMEM(err, "table option");
  }
  o->keys[o->n] = k;
  o->values[o->n] = v;
  o->n++;
  return PAIMON_OK;
}

const char *cp_options_get(const cp_options *o, const char *key) {
  ptrdiff_t i = find(o, key);
  return i < 0 ? NULL : o->values[i];
}

bool cp_options_remove(cp_options *o, const char *key) {
  ptrdiff_t i = find(o, key);
  if (i < 0) return false;
  free(o->keys[i]);
  free(o->values[i]);
  memmove(o->keys + i, o->keys + i + 1, (o->n - (size_t)i - 1) * sizeof *o->keys);
  memmove(o->values + i, o->values + i + 1, (o->n - (size_t)i - 1) * sizeof *o->values);
  o->n--;
  return true;
}

int cp_options_copy(cp_options *dst, const cp_options *src, paimon_error *err) {
  for (size_t i = 0; i < src->n; i++)
    CP_RETURN_IF_ERROR(cp_options_set(dst, src->keys[i], src->values[i], err));
  return PAIMON_OK;
}

void cp_options_free(cp_options *o) {
  for (size_t i = 0; i < o->n; i++) {
    free(o->keys[i]);
    free(o->values[i]);
  }
  free(o->keys);
  free(o->values);
  memset(o, 0, sizeof *o);
}

int cp_options_bool(const cp_options *o, const char *key, bool dflt, bool *out, paimon_error *err) {
  const char *v = cp_options_get(o, key);
  if (!v) {
    *out = dflt;
    return PAIMON_OK;
  }
  if (strcasecmp(v, "true") == 0)
    *out = true;
  else if (strcasecmp(v, "false") == 0)
    *out = false;
  else
    return paimon_error_set(err, PAIMON_EINVAL, "table option '%s' = '%s' is not a boolean", key,
                            v);
  return PAIMON_OK;
}

static int parse_int64(const char *v, int64_t *out) {
  char *end;
  errno = 0;
  while (isspace((unsigned char)*v)) v++;
  long long x = strtoll(v, &end, 10);
  if (end == v || errno) return -1;
  while (isspace((unsigned char)*end)) end++;
  if (*end) return -1;
  *out = x;
  return 0;
}

int cp_options_int64(const cp_options *o, const char *key, int64_t dflt, int64_t *out,
                     paimon_error *err) {
  const char *v = cp_options_get(o, key);
  if (!v) {
    *out = dflt;
    return PAIMON_OK;
  }
  if (parse_int64(v, out) != 0)
    return paimon_error_set(err, PAIMON_EINVAL, "table option '%s' = '%s' is not an integer", key,
                            v);
  return PAIMON_OK;
}

int cp_options_double(const cp_options *o, const char *key, double dflt, double *out,
                      paimon_error *err) {
  const char *v = cp_options_get(o, key);
  if (!v) {
    *out = dflt;
    return PAIMON_OK;
  }
  char *end = NULL;
  errno = 0;
  double d = strtod(v, &end);
  while (end && isspace((unsigned char)*end)) end++;
  if (end == v || !end || *end || errno == ERANGE || d != d)
    return paimon_error_set(err, PAIMON_EINVAL, "table option '%s' = '%s' is not a number", key, v);
  *out = d;
  return PAIMON_OK;
}

int cp_parse_memory_size(const char *text, int64_t *out, paimon_error *err) {
  static const struct {
    const char *names[4];
    int shift;
  } units[] = {{{"b", "bytes", NULL, NULL}, 0},
               {{"k", "kb", "kibibytes", NULL}, 10},
               {{"m", "mb", "mebibytes", NULL}, 20},
               {{"g", "gb", "gibibytes", NULL}, 30},
               {{"t", "tb", "tebibytes", NULL}, 40}};
  const char *p = text;
  while (isspace((unsigned char)*p)) p++;
  const char *digits = p;
  while (isdigit((unsigned char)*p)) p++;
  if (p == digits) goto bad;
  char num[32];
  size_t nd = (size_t)(p - digits);
  if (nd >= sizeof num) goto bad;
  memcpy(num, digits, nd);
  num[nd] = '\0';
  int64_t value;
  if (parse_int64(num, &value) != 0) goto bad;
  while (isspace((unsigned char)*p)) p++;
  const char *unit = p;
  size_t ul = strlen(unit);
  while (ul && isspace((unsigned char)unit[ul - 1])) ul--;
  int shift = 0;
  if (ul) {
    shift = -1;
    for (size_t u = 0; u < sizeof units / sizeof units[0] && shift < 0; u++)
      for (int k = 0; k < 4 && units[u].names[k]; k++)
        if (strlen(units[u].names[k]) == ul && strncasecmp(unit, units[u].names[k], ul) == 0)
          shift = units[u].shift;
    if (shift < 0) goto bad;
  }
  if (shift && value > (INT64_MAX >> shift)) goto bad;
  *out = value << shift;
  return PAIMON_OK;
bad:
  return paimon_error_set(err, PAIMON_EINVAL, "'%s' is not a memory size (e.g. '256 mb')", text);
}

int cp_options_memory_size(const cp_options *o, const char *key, int64_t dflt, int64_t *out,
                           paimon_error *err) {
  const char *v = cp_options_get(o, key);
  if (!v) {
    *out = dflt;
    return PAIMON_OK;
  }
  int rc = cp_parse_memory_size(v, out, err);
  if (rc) return paimon_error_prefix(err, "table option '%s'", key);
  return PAIMON_OK;
}
