/*
 * Tags and rollback (include/cpaimon/history.h; spec/maintenance-and-blob.md §4.3, §4.4), after
 * Java Paimon's TagManager, AbstractFileStoreTable.rollbackTo and RollbackHelper: same files,
 * same order of steps, same messages.
 */
#include "cpaimon/history.h"

#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/buf.h"
#include "base/fs.h"
#include "base/status.h"
#include "base/time.h"
#include "cpaimon/commit.h"
#include "table/history_internal.h"
#include "table/store.h"
#include "table/table.h"

#define TAG_PREFIX "tag-"
#define MAX_TAG_FILE (16u << 20)

void paimon_tag_list_free(paimon_tag_list *list) {
  if (!list) return;
  for (size_t i = 0; i < list->count; i++) free(list->items[i].name);
  free(list->items);
  list->items = NULL;
  list->count = 0;
}

/* ---- durations (Paimon's TimeUtils.parseDuration) ------------------------------------------ */

int paimon_parse_duration(const char *text, int64_t *millis, paimon_error *err) {
  static const struct {
    const char *unit;
    int64_t num, den; /* milliseconds = value * num / den */
  } units[] = {
      {"d", 86400000, 1},
      {"day", 86400000, 1},
      {"days", 86400000, 1},
      {"h", 3600000, 1},
      {"hour", 3600000, 1},
      {"hours", 3600000, 1},
      {"min", 60000, 1},
      {"m", 60000, 1},
      {"minute", 60000, 1},
      {"minutes", 60000, 1},
      {"s", 1000, 1},
      {"sec", 1000, 1},
      {"secs", 1000, 1},
      {"second", 1000, 1},
      {"seconds", 1000, 1},
      {"ms", 1, 1},
      {"milli", 1, 1},
      {"millis", 1, 1},
      {"millisecond", 1, 1},
      {"milliseconds", 1, 1},
      {"us", 1, 1000},
      {"micro", 1, 1000},
      {"micros", 1, 1000},
      {"microsecond", 1, 1000},
      {"microseconds", 1, 1000},
      {"ns", 1, 1000000},
      {"nano", 1, 1000000},
      {"nanos", 1, 1000000},
      {"nanosecond", 1, 1000000},
      {"nanoseconds", 1, 1000000},
  };
  const char *p = text ? text : "";
  while (isspace((unsigned char)*p)) p++;
  const char *digits = p;
  int64_t v = 0;
  while (isdigit((unsigned char)*p)) {
    if (v > (INT64_MAX - 9) / 10) goto bad;
    v = v * 10 + (*p++ - '0');
  }
  if (p == digits) goto bad;
  while (isspace((unsigned char)*p)) p++;
  size_t ulen = strlen(p);
  while (ulen && isspace((unsigned char)p[ulen - 1])) ulen--;
  if (ulen == 0) {
    *millis = v;
    return PAIMON_OK;
  }
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    if (strlen(units[i].unit) == ulen && strncasecmp(units[i].unit, p, ulen) == 0) {
      if (units[i].num > 1 && v > INT64_MAX / units[i].num) goto bad;
      *millis = v * units[i].num / units[i].den;
      return PAIMON_OK;
    }
  }
bad:
  return paimon_error_set(err, PAIMON_EINVAL,
                          "invalid duration '%s' (a number and a unit: d, h, min, s, ms, ...)",
                          text ? text : "");
}

/* ---- tag files ------------------------------------------------------------------------------ */

static bool blank(const char *s) {
  if (!s) return true;
  for (; *s; s++)
    if (!isspace((unsigned char)*s)) return false;
  return true;
}

static int refuse_rest(paimon_table *t, const char *what, paimon_error *err) {
  if (!t->rest_commit) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "table %s: %s of a table whose commits go through the REST catalog "
                          "server belong to the server's endpoints, which cpaimon does not call",
                          t->full_name, what);
}

static char *tag_dir(const paimon_table *t) { return cp_path_join(t->path, "tag"); }

static char *tag_path(const paimon_table *t, const char *name) {
  size_t len = strlen(t->path) + strlen(name) + 16;
  char *p = malloc(len);
  if (p) snprintf(p, len, "%s/tag/" TAG_PREFIX "%s", t->path, name);
  return p;
}

/* Local date-time fields of a LocalDateTime JSON array [y, M, d, H, m(, s(, nanos))] as epoch
 * milliseconds of that wall-clock time. */
static bool local_date_time(json_t *a, int64_t *millis) {
  if (!json_is_array(a) || json_array_size(a) < 5) return false;
  int64_t f[7] = {0};
  for (size_t i = 0; i < json_array_size(a) && i < 7; i++) {
    json_t *v = json_array_get(a, i);
    if (!json_is_integer(v)) return false;
    f[i] = json_integer_value(v);
  }
  /* Only plausible values (no overflow below): years of int32, fields of their ranges. */
  static const int64_t max[7] = {1000000000, 12, 31, 23, 59, 59, 999999999};
  for (size_t i = 0; i < 7; i++)
    if (f[i] < (i == 0 ? -max[0] : 0) || f[i] > max[i]) return false;
  int64_t days = cp_days_from_civil(f[0], (int)f[1], (int)f[2]);
  *millis = ((days * 24 + f[3]) * 60 + f[4]) * 60000 + f[5] * 1000 + f[6] / 1000000;
  return true;
}

int cp_tag_parse(const void *data, size_t len, const char *source, const char *name,
                 cp_snapshot **snap, paimon_tag *tag, paimon_error *err) {
  cp_snapshot *s = NULL;
  CP_RETURN_IF_ERROR(cp_snapshot_parse(data, len, source, &s, err));
  if (tag) {
    memset(tag, 0, sizeof *tag);
    tag->name = strdup(name);
    if (!tag->name) {
      cp_snapshot_free(s);
      return CP_ENOMEM(err, "tag");
    }
    tag->snapshot_id = s->id;
    tag->schema_id = s->schema_id;
    tag->commit_time_millis = s->time_millis;
    tag->record_count = s->total_record_count;
    json_t *root = json_loadb(data, len, 0, NULL);
    if (root) {
      tag->has_create_time =
          local_date_time(json_object_get(root, "tagCreateTime"), &tag->create_time_millis);
      json_t *r = json_object_get(root, "tagTimeRetained");
      double secs = json_is_number(r) ? json_number_value(r) : -1;
      if (secs >= 0 && secs < 9e12) { /* a sane retention: below ~285,000 years */
        tag->has_time_retained = true;
        tag->time_retained_millis = (int64_t)(secs * 1000.0 + 0.5);
      }
      json_decref(root);
    }
  }
  if (snap)
    *snap = s;
  else
    cp_snapshot_free(s);
  return PAIMON_OK;
}

/* Loads tag `name`: ENOTFOUND with Java's message when there is no such tag. */
int cp_tag_load(paimon_table *t, const char *name, cp_snapshot **snap, paimon_tag *tag,
                paimon_error *err) {
  char *p = tag_path(t, name);
  if (!p) return CP_ENOMEM(err, "path");
  cp_buf b = CP_BUF_INIT;
  int rc = cp_fs_read_file(t->fs, p, &b, MAX_TAG_FILE, err);
  if (rc == PAIMON_ENOTFOUND)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Tag '%s' doesn't exist. (table %s)", name,
                          t->full_name);
  if (!rc) rc = cp_tag_parse(b.data, b.len, p, name, snap, tag, err);
  cp_buf_free(&b);
  free(p);
  return rc;
}

static int tag_exists(paimon_table *t, const char *name, bool *out, paimon_error *err) {
  char *p = tag_path(t, name);
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_file_exists(t->fs, p, out, err);
  free(p);
  return rc;
}

static int cmp_tag(const void *a, const void *b) {
  const paimon_tag *x = a, *y = b;
  if (x->snapshot_id != y->snapshot_id) return x->snapshot_id < y->snapshot_id ? -1 : 1;
  return strcmp(x->name, y->name);
}

int paimon_table_list_tags(paimon_table *t, paimon_tag_list *out, paimon_error *err) {
  out->items = NULL;
  out->count = 0;
  char *dir = tag_dir(t);
  if (!dir) return CP_ENOMEM(err, "path");
  cp_fs_list_result l = {0};
  int rc = cp_fs_list(t->fs, dir, &l, err);
  free(dir);
  if (rc == PAIMON_ENOTFOUND) {
    paimon_error_clear(err);
    return PAIMON_OK;
  }
  if (rc) return rc;
  if (l.count && !(out->items = calloc(l.count, sizeof *out->items))) rc = CP_ENOMEM(err, "tags");
  for (size_t i = 0; !rc && i < l.count; i++) {
    const char *n = l.entries[i].name;
    if (l.entries[i].is_dir || strncmp(n, TAG_PREFIX, strlen(TAG_PREFIX)) != 0) continue;
    rc = cp_tag_load(t, n + strlen(TAG_PREFIX), NULL, &out->items[out->count], err);
    /* Deleted between listing and reading: no longer a tag. */
    if (rc == PAIMON_ENOTFOUND) {
      paimon_error_clear(err);
      rc = PAIMON_OK;
      continue;
    }
    if (!rc) out->count++;
  }
  cp_fs_list_free(&l);
  if (rc) {
    paimon_tag_list_free(out);
    return rc;
  }
  if (out->count) qsort(out->items, out->count, sizeof *out->items, cmp_tag);
  return PAIMON_OK;
}

int paimon_table_get_tag(paimon_table *t, const char *name, paimon_tag *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (blank(name)) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  return cp_tag_load(t, name, NULL, out, err);
}

/* Snapshot `id` from its file or, when it was expired, from the first tag that kept a copy of it
 * (Java's findSnapshot); *out NULL when neither has it. *tag (optional) receives the name of that
 * tag, malloc'd, or NULL when the snapshot file was there. */
static int snapshot_or_tag_copy(paimon_table *t, int64_t id, cp_snapshot **out, char **tag,
                                paimon_error *err) {
  *out = NULL;
  if (tag) *tag = NULL;
  bool exists;
  CP_RETURN_IF_ERROR(cp_snapshot_exists(t->fs, t->path, id, &exists, err));
  if (exists) return cp_snapshot_load(t->fs, t->path, id, out, err);
  paimon_tag_list tags;
  CP_RETURN_IF_ERROR(paimon_table_list_tags(t, &tags, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && !*out && i < tags.count; i++) {
    if (tags.items[i].snapshot_id != id) continue;
    rc = cp_tag_load(t, tags.items[i].name, out, NULL, err);
    if (!rc && tag && !(*tag = strdup(tags.items[i].name))) rc = CP_ENOMEM(err, "tag");
  }
  paimon_tag_list_free(&tags);
  if (rc) {
    cp_snapshot_free(*out);
    *out = NULL;
  }
  return rc;
}

/* The snapshot to tag: snapshot `id` (<= 0: the latest), or a tag's copy of it. */
static int find_snapshot(paimon_table *t, int64_t id, const char *verb, cp_snapshot **out,
                         paimon_error *err) {
  *out = NULL;
  if (id <= 0) {
    bool exists;
    CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(t, &id, &exists, err));
    if (!exists)
      return paimon_error_set(err, PAIMON_ENOTFOUND,
                              "Cannot %s tag because latest snapshot doesn't exist. (table %s)",
                              verb, t->full_name);
    return cp_snapshot_load(t->fs, t->path, id, out, err);
  }
  CP_RETURN_IF_ERROR(snapshot_or_tag_copy(t, id, out, NULL, err));
  if (*out) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ENOTFOUND,
                          "Cannot %s tag because given snapshot #%" PRId64
                          " doesn't exist. (table %s)",
                          verb, id, t->full_name);
}

/* The snapshot's JSON, with Java's two tag keys when the tag has a retention: tagCreateTime as a
 * LocalDateTime array of the local wall clock (trailing zero seconds / nanos left out, as
 * Jackson) and tagTimeRetained as decimal seconds with nine fraction digits. */
static int tag_json(const cp_snapshot *s, int64_t retained_ms, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_snapshot_write(s, out, err));
  if (retained_ms < 0) return PAIMON_OK;
  while (out->len && (out->data[out->len - 1] == '}' || out->data[out->len - 1] == '\n' ||
                      out->data[out->len - 1] == ' '))
    out->len--;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  localtime_r(&ts.tv_sec, &tm);
  char created[128];
  int n = snprintf(created, sizeof created, "[ %d, %d, %d, %d, %d", tm.tm_year + 1900,
                   tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
  if (tm.tm_sec || ts.tv_nsec) n += snprintf(created + n, sizeof created - n, ", %d", tm.tm_sec);
  if (ts.tv_nsec) snprintf(created + n, sizeof created - n, ", %ld", ts.tv_nsec);
  return cp_buf_appendf(out, err,
                        ",\n  \"tagCreateTime\" : %s ],\n  \"tagTimeRetained\" : %" PRId64
                        ".%03" PRId64 "000000\n}",
                        created, retained_ms / 1000, retained_ms % 1000);
}

static int write_tag(paimon_table *t, const char *name, int64_t snapshot_id, int64_t retained_ms,
                     const char *verb, paimon_error *err) {
  if (retained_ms < 0) {
    const char *def = cp_options_get(&t->schema->options, "tag.default-time-retained");
    if (def) CP_RETURN_IF_ERROR(paimon_parse_duration(def, &retained_ms, err));
  }
  cp_snapshot *s = NULL;
  CP_RETURN_IF_ERROR(find_snapshot(t, snapshot_id, verb, &s, err));
  cp_buf json = CP_BUF_INIT;
  char *p = tag_path(t, name);
  int rc = p ? tag_json(s, retained_ms, &json, err) : CP_ENOMEM(err, "path");
  /* Java overwrites the tag file (TagManager.createOrReplaceTag); readers see all of it or none. */
  if (!rc) rc = cp_fs_publish(t->fs, p, json.data, json.len, true, err);
  free(p);
  cp_buf_free(&json);
  cp_snapshot_free(s);
  return rc;
}

int paimon_table_create_tag(paimon_table *t, const char *name, int64_t snapshot_id,
                            int64_t time_retained_millis, bool ignore_if_exists,
                            paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "tags", err));
  if (blank(name)) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  if (strchr(name, '/'))
    return paimon_error_set(err, PAIMON_EINVAL, "tag name '%s' (table %s) must not contain '/'",
                            name, t->full_name);
  bool exists;
  CP_RETURN_IF_ERROR(tag_exists(t, name, &exists, err));
  if (exists) {
    if (ignore_if_exists) return PAIMON_OK;
    return paimon_error_set(err, PAIMON_EEXIST, "Tag '%s' already exists. (table %s)", name,
                            t->full_name);
  }
  return write_tag(t, name, snapshot_id, time_retained_millis, "create", err);
}

int paimon_table_replace_tag(paimon_table *t, const char *name, int64_t snapshot_id,
                             int64_t time_retained_millis, paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "tags", err));
  if (blank(name)) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  bool exists;
  CP_RETURN_IF_ERROR(tag_exists(t, name, &exists, err));
  if (!exists)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Tag '%s' doesn't exist. (table %s)", name,
                            t->full_name);
  return write_tag(t, name, snapshot_id, time_retained_millis, "replace", err);
}

/* The neighbours TagDeletion keeps the files of: the previous tagged snapshot, and the earliest
 * snapshot or the next tagged one, whichever is older (`tags` sorted by snapshot, the deleted
 * tag still listed). */
static int tag_neighbours(paimon_table *t, const paimon_tag_list *tags, int64_t id,
                          cp_snapshot **left, cp_snapshot **right, paimon_error *err) {
  *left = *right = NULL;
  const paimon_tag *prev = NULL, *next = NULL;
  for (size_t i = 0; i < tags->count; i++) {
    if (tags->items[i].snapshot_id < id) prev = &tags->items[i];
    if (tags->items[i].snapshot_id > id && !next) next = &tags->items[i];
  }
  if (prev) CP_RETURN_IF_ERROR(cp_tag_load(t, prev->name, left, NULL, err));
  int64_t earliest = 0;
  bool has = false;
  CP_RETURN_IF_ERROR(cp_snapshot_earliest_id(t->fs, t->path, &earliest, &has, err));
  if (next && (!has || next->snapshot_id < earliest))
    return cp_tag_load(t, next->name, right, NULL, err);
  if (has) return cp_snapshot_load(t->fs, t->path, earliest, right, err);
  return PAIMON_OK;
}

int paimon_table_delete_tag(paimon_table *t, const char *name, bool *existed, paimon_error *err) {
  if (existed) *existed = false;
  CP_RETURN_IF_ERROR(refuse_rest(t, "tags", err));
  if (blank(name)) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  char *p = tag_path(t, name);
  if (!p) return CP_ENOMEM(err, "path");
  bool exists = false, snapshot_lives = true;
  cp_snapshot *tagged = NULL, *left = NULL, *right = NULL;
  paimon_tag_list tags = {0};
  int rc = cp_fs_file_exists(t->fs, p, &exists, err);
  /* A tag whose snapshot is expired may hold the last reference to files (Java's TagDeletion):
   * the tags are listed before the tag file goes, as Java does. An unreadable tag file is only
   * deleted. */
  if (!rc && exists && cp_tag_load(t, name, &tagged, NULL, err) == 0)
    rc = cp_snapshot_exists(t->fs, t->path, tagged->id, &snapshot_lives, err);
  else if (!rc && exists)
    paimon_error_clear(err);
  if (!rc && tagged && !snapshot_lives) rc = paimon_table_list_tags(t, &tags, err);
  if (!rc && exists) {
    rc = cp_fs_delete(t->fs, p, err);
    if (!rc && existed) *existed = true;
  }
  size_t sharing = 0;
  for (size_t i = 0; tagged && i < tags.count; i++)
    if (tags.items[i].snapshot_id == tagged->id) sharing++;
  if (!rc && tagged && !snapshot_lives && sharing == 1) {
    rc = tag_neighbours(t, &tags, tagged->id, &left, &right, err);
    if (!rc) rc = cp_tag_clean_files(t, tagged, left, right, err);
    if (rc)
      paimon_error_prefix(err, "tag '%s' of table %s was deleted, but cleaning its files failed",
                          name, t->full_name);
  }
  cp_snapshot_free(tagged);
  cp_snapshot_free(left);
  cp_snapshot_free(right);
  paimon_tag_list_free(&tags);
  free(p);
  return rc;
}

int paimon_table_rename_tag(paimon_table *t, const char *from, const char *to, paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "tags", err));
  if (blank(from))
    return paimon_error_set(err, PAIMON_EINVAL, "Original tag name shouldn't be blank.");
  if (blank(to)) return paimon_error_set(err, PAIMON_EINVAL, "New tag name shouldn't be blank.");
  if (strchr(to, '/'))
    return paimon_error_set(err, PAIMON_EINVAL, "tag name '%s' (table %s) must not contain '/'", to,
                            t->full_name);
  bool exists;
  CP_RETURN_IF_ERROR(tag_exists(t, from, &exists, err));
  if (!exists)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Tag '%s' doesn't exist. (table %s)", from,
                            t->full_name);
  char *a = tag_path(t, from), *b = tag_path(t, to);
  int rc = a && b ? PAIMON_OK : CP_ENOMEM(err, "path");
  /* Renaming without replacing refuses an existing target atomically. On an object store, where
   * a rename is a copy and a delete, the conditional copy does the same. */
  if (!rc) rc = cp_fs_rename_noreplace(t->fs, a, b, err);
  if (rc == PAIMON_EEXIST)
    rc = paimon_error_set(err, PAIMON_EEXIST, "Tag '%s' already exists. (table %s)", to,
                          t->full_name);
  free(a);
  free(b);
  return rc;
}

/* ---- rollback ------------------------------------------------------------------------------- */

/* RollbackHelper.cleanLargerThan: LATEST names the target, then the later snapshots go from the
 * newest down (a crash leaves a shorter but consistent history), then the later tags. */
static int clean_larger_than(paimon_table *t, int64_t target, paimon_error *err) {
  int64_t earliest, latest;
  bool has_e, has_l;
  CP_RETURN_IF_ERROR(cp_snapshot_earliest_id(t->fs, t->path, &earliest, &has_e, err));
  CP_RETURN_IF_ERROR(cp_snapshot_latest_id(t->fs, t->path, &latest, &has_l, err));
  if (!has_e || !has_l)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "table %s: Cannot find %s snapshot.",
                            t->full_name, has_e ? "latest" : "earliest");
  CP_RETURN_IF_ERROR(cp_snapshot_write_hint(t->fs, t->path, "LATEST", target, err));
  int64_t to = earliest > target + 1 ? earliest : target + 1;
  for (int64_t i = latest; i >= to; i--)
    CP_RETURN_IF_ERROR(cp_snapshot_delete(t->fs, t->path, i, err));
  paimon_tag_list tags;
  CP_RETURN_IF_ERROR(paimon_table_list_tags(t, &tags, err));
  int rc = PAIMON_OK;
  for (size_t i = tags.count; !rc && i-- > 0;) {
    if (tags.items[i].snapshot_id <= target) break;
    /* The tag file only, as Java's RollbackHelper.cleanTags: no TagDeletion here, the files of
     * the discarded history become orphans. */
    char *p = tag_path(t, tags.items[i].name);
    rc = p ? cp_fs_delete(t->fs, p, err) : CP_ENOMEM(err, "path");
    if (rc == PAIMON_ENOTFOUND) {
      paimon_error_clear(err);
      rc = PAIMON_OK;
    }
    free(p);
  }
  paimon_tag_list_free(&tags);
  return rc;
}

int paimon_table_rollback_to_tag(paimon_table *t, const char *name, paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "rollbacks", err));
  if (blank(name)) return paimon_error_set(err, PAIMON_EINVAL, "Tag name shouldn't be blank.");
  cp_snapshot *s = NULL;
  CP_RETURN_IF_ERROR(cp_tag_load(t, name, &s, NULL, err));
  int rc = clean_larger_than(t, s->id, err);
  /* The tagged snapshot was expired: bring it back from the tag, as the earliest. */
  bool exists = true;
  if (!rc) rc = cp_snapshot_exists(t->fs, t->path, s->id, &exists, err);
  if (!rc && !exists) {
    rc = cp_snapshot_publish(t->fs, t->path, s, err);
    if (!rc) rc = cp_snapshot_write_hint(t->fs, t->path, "EARLIEST", s->id, err);
  }
  cp_snapshot_free(s);
  return rc;
}

static int no_rollback_snapshot(paimon_table *t, int64_t id, paimon_error *err) {
  return paimon_error_set(err, PAIMON_ENOTFOUND,
                          "Rollback snapshot '%" PRId64 "' doesn't exist. (table %s)", id,
                          t->full_name);
}

int paimon_table_rollback_to(paimon_table *t, int64_t snapshot_id, paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "rollbacks", err));
  cp_snapshot *s = NULL;
  char *tag = NULL;
  CP_RETURN_IF_ERROR(snapshot_or_tag_copy(t, snapshot_id, &s, &tag, err));
  /* One that survives only as a tag is rolled back to through the tag (Java's rollbackTo). */
  int rc = !s    ? no_rollback_snapshot(t, snapshot_id, err)
           : tag ? paimon_table_rollback_to_tag(t, tag, err)
                 : clean_larger_than(t, snapshot_id, err);
  cp_snapshot_free(s);
  free(tag);
  return rc;
}

int paimon_table_rollback_to_as_latest(paimon_table *t, int64_t snapshot_id, const char *tag,
                                       paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "rollbacks", err));
  cp_snapshot *target = NULL;
  if (tag)
    CP_RETURN_IF_ERROR(cp_tag_load(t, tag, &target, NULL, err));
  else
    CP_RETURN_IF_ERROR(snapshot_or_tag_copy(t, snapshot_id, &target, NULL, err));
  if (!target) return no_rollback_snapshot(t, snapshot_id, err);
  paimon_commit *c = NULL;
  int rc = paimon_commit_new(&c, t, err);
  if (!rc) rc = cp_commit_as_latest(c, target, err);
  paimon_commit_free(c);
  cp_snapshot_free(target);
  return rc;
}

int paimon_table_snapshot_at(paimon_table *t, int64_t epoch_millis, int64_t *snapshot_id,
                             bool *found, paimon_error *err) {
  *found = false;
  int64_t lo, hi;
  bool has_e, has_l;
  CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(t, &hi, &has_l, err));
  if (!has_l) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_snapshot_earliest_id(t->fs, t->path, &lo, &has_e, err));
  if (!has_e) return PAIMON_OK;
  /* SnapshotManager.earlierOrEqualTimeMills: commit times grow with ids. */
  while (lo <= hi) {
    int64_t mid = lo + (hi - lo) / 2;
    cp_snapshot *s = NULL;
    CP_RETURN_IF_ERROR(cp_snapshot_load(t->fs, t->path, mid, &s, err));
    int64_t when = s->time_millis;
    cp_snapshot_free(s);
    if (when > epoch_millis) {
      hi = mid - 1;
    } else {
      *found = true;
      *snapshot_id = mid;
      if (when == epoch_millis) break;
      lo = mid + 1;
    }
  }
  return PAIMON_OK;
}

int paimon_table_rollback_to_timestamp(paimon_table *t, int64_t epoch_millis, paimon_error *err) {
  CP_RETURN_IF_ERROR(refuse_rest(t, "rollbacks", err));
  int64_t id;
  bool found;
  CP_RETURN_IF_ERROR(paimon_table_snapshot_at(t, epoch_millis, &id, &found, err));
  if (!found)
    return paimon_error_set(err, PAIMON_ENOTFOUND,
                            "table %s: no snapshot earlier than or equal to timestamp %" PRId64,
                            t->full_name, epoch_millis);
  return paimon_table_rollback_to(t, id, err);
}
