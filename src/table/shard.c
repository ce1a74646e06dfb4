/*
 * The shard updater (include/cpaimon/update.h; spec/data-evolution.md §3.6, pypaimon
 * ShardTableUpdator): the row-id groups of the pinned snapshot are split into contiguous blocks,
 * one per shard; a shard's caller reads its rows, computes the update columns (e.g. an embedding)
 * and writes them back in the same order, and the rows fill the shard's groups one after another,
 * each group becoming one file with the group's first_row_id.
 *
 * Unlike pypaimon, a group left partly written is an error at prepare_commit (pypaimon silently
 * drops it, which loses the rows written to it). Shards are independent: separate processes each
 * open their own updater and shard, and their serialized messages are committed together or one
 * by one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "table/update_internal.h"

typedef struct shard_range {
  int64_t from, count;
  size_t split;
} shard_range;

typedef struct done_file {
  cp_bytes partition;
  int32_t bucket;
  cp_data_file_meta meta;
} done_file;

struct paimon_shard_updater {
  paimon_update *u;
  size_t *splits; /* the shard's splits, plan order */
  size_t n_splits;
  shard_range *ranges;
  size_t n_ranges, write_pos;
  int64_t total_rows;
  cp_type *row; /* the written columns */
  bool full;    /* every column: write_cols null */
  cp_group_writer w;
  bool open;
  done_file *done;
  size_t n_done, cap_done;
  cp_arena arena; /* the finished files' metadata */
};

void paimon_shard_updater_free(paimon_shard_updater *s) {
  if (!s) return;
  if (s->open) cp_group_writer_abort(&s->w);
  /* Files finished but never handed out through prepare_commit are deleted. */
  for (size_t i = 0; i < s->n_done; i++) {
    char *path = NULL;
    if (cp_data_file_path(s->u->t, s->done[i].partition, s->done[i].bucket, &s->done[i].meta, &path,
                          NULL) == 0)
      cp_fs_delete(s->u->t->fs, path, NULL);
    free(path);
  }
  free(s->done);
  free(s->splits);
  free(s->ranges);
  cp_type_free(s->row);
  cp_arena_free(&s->arena);
  free(s);
}

int64_t paimon_shard_updater_row_count(const paimon_shard_updater *s) { return s->total_rows; }

/* pypaimon's _divide_ranges: contiguous blocks, the first n % k shards one unit larger. */
static int select_splits(paimon_shard_updater *s, int32_t shard, int32_t total, paimon_error *err) {
  paimon_update *u = s->u;
  size_t n = u->n_groups, k = (size_t)total;
  s->splits = malloc((u->plan->n_splits + 1) * sizeof *s->splits);
  s->ranges = malloc((u->plan->n_splits + 1) * sizeof *s->ranges);
  if (!s->splits || !s->ranges) return CP_ENOMEM(err, "shard");
  if ((size_t)shard >= n) return PAIMON_OK;
  size_t base = n / k, extra = n % k, start, count;
  if ((size_t)shard < extra) {
    count = base + 1;
    start = (size_t)shard * (base + 1);
  } else {
    count = base;
    start = extra * (base + 1) + ((size_t)shard - extra) * base;
  }
  if (count == 0) return PAIMON_OK;
  int64_t lo = u->groups[start].first_row_id;
  const cp_row_group *last = &u->groups[start + count - 1];
  int64_t hi = last->first_row_id + last->row_count - 1;
  for (size_t i = 0; i < u->plan->n_splits; i++) {
    const cp_split *sp = &u->plan->splits[i];
    if (sp->first_row_id < lo || sp->first_row_id > hi) continue;
    s->splits[s->n_splits++] = i;
    s->ranges[s->n_ranges++] = (shard_range){sp->first_row_id, sp->row_count, i};
    s->total_rows += sp->row_count;
  }
  return PAIMON_OK;
}

int paimon_shard_updater_new(paimon_shard_updater **out, paimon_update *u, int32_t shard_num,
                             int32_t total_shards, paimon_error *err) {
  if (total_shards <= 0 || shard_num < 0 || shard_num >= total_shards)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "shard %d of %d: the shard number must be in [0, total shard count)",
                            (int)shard_num, (int)total_shards);
  CP_RETURN_IF_ERROR(cp_update_pin(u, err));
  paimon_shard_updater *s = calloc(1, sizeof *s);
  if (!s) return CP_ENOMEM(err, "shard");
  s->u = u;
  const cp_type *trow = u->t->schema->row;
  s->full = u->update_cols == NULL;
  const char **names = malloc((trow->n_fields + u->n_update_cols + 1) * sizeof *names);
  size_t n = 0;
  int rc = names ? PAIMON_OK : CP_ENOMEM(err, "shard");
  for (size_t i = 0; names && i < (s->full ? trow->n_fields : u->n_update_cols); i++)
    names[n++] = s->full ? trow->fields[i].name : u->update_cols[i];
  if (!rc) rc = cp_update_columns_row(u->t, names, n, &s->row, err);
  free(names);
  if (!rc) rc = select_splits(s, shard_num, total_shards, err);
  if (rc) {
    paimon_shard_updater_free(s);
    return rc;
  }
  *out = s;
  return PAIMON_OK;
}

int paimon_shard_updater_read(paimon_shard_updater *s, struct ArrowArrayStream *out,
                              paimon_error *err) {
  paimon_update *u = s->u;
  paimon_read_builder *rb = NULL;
  CP_RETURN_IF_ERROR(paimon_read_builder_new(&rb, u->t, err));
  int rc = u->projection ? paimon_read_builder_set_projection(
                               rb, (const char *const *)u->projection, u->n_projection, err)
                         : PAIMON_OK;
  if (!rc && s->n_splits) rc = paimon_plan_read(rb, u->plan, s->splits, s->n_splits, out, err);
  if (!rc && !s->n_splits) {
    /* No group for this shard: an empty stream with the projection's schema. */
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    rc = paimon_read_builder_schema(rb, &schema, err);
    if (!rc) rc = cp_stream_from_batches(out, &schema, NULL, 0, err);
  }
  paimon_read_builder_free(rb);
  return rc;
}

/* ------------------------------------ writing ------------------------------------ */

static int finish_current(paimon_shard_updater *s, paimon_error *err) {
  size_t need = s->n_done + 1 + s->w.n_blob;
  if (need > s->cap_done) {
    size_t cap = s->cap_done ? s->cap_done * 2 : 8;
    while (cap < need) cap *= 2;
    done_file *d = realloc(s->done, cap * sizeof *d);
    if (!d) return CP_ENOMEM(err, "shard");
    s->done = d;
    s->cap_done = cap;
  }
  cp_data_file_meta *metas = malloc((1 + s->w.n_blob) * sizeof *metas);
  if (!metas) return CP_ENOMEM(err, "shard");
  cp_bytes partition = s->w.partition;
  int32_t bucket = s->w.bucket;
  size_t n = 0;
  s->open = false;
  int rc = cp_group_writer_finish_files(&s->w, &s->arena, metas, &n, err);
  for (size_t i = 0; !rc && i < n; i++)
    s->done[s->n_done++] = (done_file){partition, bucket, metas[i]};
  free(metas);
  return rc;
}

static int open_next(paimon_shard_updater *s, paimon_error *err) {
  if (s->write_pos >= s->n_ranges)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "No more row ranges to write. Ensure you write exactly the same number "
                            "of rows as read from this shard.");
  const shard_range *r = &s->ranges[s->write_pos++];
  const cp_split *sp = &s->u->plan->splits[r->split];
  CP_RETURN_IF_ERROR(cp_group_writer_open(&s->w, s->u->t, s->row, s->full, sp->partition,
                                          sp->bucket, r->from, r->count, err));
  s->open = true;
  return PAIMON_OK;
}

/* The input's write columns converted to the table's types, as one struct array. */
static int normalize(paimon_shard_updater *s, const cp_array_view *in, struct ArrowSchema *schema,
                     struct ArrowArray *out, paimon_error *err) {
  size_t n = s->row->n_fields;
  CP_RETURN_IF_ERROR(cp_schema_init(schema, "+s", "", 0, (int64_t)n, err));
  int rc = cp_array_init(out, 1, (int64_t)n, err);
  for (size_t i = 0; !rc && i < n; i++) {
    int64_t c = cp_view_child_index(in, s->row->fields[i].name);
    if (c < 0) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "Column %s is missing in the input data.",
                            s->row->fields[i].name);
      break;
    }
    rc = cp_update_convert_column(&in->children[c], &s->row->fields[i], schema->children[i],
                                  out->children[i], err);
  }
  if (!rc) {
    out->length = in->length;
    out->null_count = 0;
  }
  return rc;
}

/* Rows [offset, offset + len) of `batch` as a new struct array sharing its children. */
static int slice_batch(struct ArrowArray *batch, int64_t offset, int64_t len,
                       struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 1, batch->n_children, err));
  int rc = PAIMON_OK;
  for (int64_t i = 0; !rc && i < batch->n_children; i++) {
    rc = cp_array_slice(batch->children[i], offset, len, out->children[i], err);
  }
  out->length = len;
  out->null_count = 0;
  return rc;
}

int paimon_shard_updater_write(paimon_shard_updater *s, const struct ArrowSchema *schema,
                               const struct ArrowArray *batch, paimon_error *err) {
  cp_array_view in;
  memset(&in, 0, sizeof in);
  struct ArrowSchema ns;
  memset(&ns, 0, sizeof ns);
  struct ArrowArray nb;
  memset(&nb, 0, sizeof nb);
  int rc = cp_array_view_init(&in, schema, batch, err);
  if (!rc && in.type.id != CP_ARROW_STRUCT)
    rc = paimon_error_set(err, PAIMON_EINVAL, "input must be a record batch (struct array)");
  if (!rc) rc = normalize(s, &in, &ns, &nb, err);
  for (int64_t offset = 0; !rc && offset < in.length;) {
    if (!s->open) rc = open_next(s, err);
    if (rc) break;
    int64_t room = s->w.row_count - s->w.written, len = in.length - offset;
    if (len > room) len = room;
    struct ArrowArray part;
    memset(&part, 0, sizeof part);
    rc = slice_batch(&nb, offset, len, &part, err);
    if (!rc) rc = cp_group_writer_write(&s->w, &part, err);
    cp_array_release(&part);
    offset += len;
    if (!rc && s->w.written == s->w.row_count) rc = finish_current(s, err);
  }
  cp_array_release(&nb);
  if (ns.release) ns.release(&ns);
  cp_array_view_reset(&in);
  return rc;
}

int paimon_shard_updater_prepare_commit(paimon_shard_updater *s, paimon_commit_messages **out,
                                        paimon_error *err) {
  *out = NULL;
  if (s->open)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "Shard updater of table %s: row range [%" PRId64 ", %" PRId64
                            "] received %" PRId64 " of its %" PRId64
                            " rows. Ensure you write exactly the same number of rows as read from "
                            "this shard.",
                            s->u->t->full_name, s->w.first_row_id,
                            s->w.first_row_id + s->w.row_count - 1, s->w.written, s->w.row_count);
  paimon_commit_messages *msgs = NULL;
  CP_RETURN_IF_ERROR(paimon_commit_messages_new(&msgs, err));
  cp_data_file_meta *files = malloc((s->n_done + 1) * sizeof *files);
  bool *taken = calloc(s->n_done + 1, 1);
  int rc = files && taken ? PAIMON_OK : CP_ENOMEM(err, "shard");
  /* One message per partition (and bucket), partitions in first-finished order. */
  for (size_t i = 0; !rc && i < s->n_done; i++) {
    if (taken[i]) continue;
    size_t k = 0;
    for (size_t j = i; j < s->n_done; j++) {
      const done_file *a = &s->done[i], *b = &s->done[j];
      if (taken[j] || a->bucket != b->bucket || a->partition.len != b->partition.len ||
          memcmp(a->partition.data, b->partition.data, a->partition.len) != 0)
        continue;
      files[k++] = b->meta;
      taken[j] = true;
    }
    cp_commit_message m;
    memset(&m, 0, sizeof m);
    m.partition = s->done[i].partition;
    m.bucket = s->done[i].bucket;
    m.total_buckets = (int32_t)s->u->t->options.bucket;
    m.new_files = files;
    m.n_new = k;
    m.check_from_snapshot = s->u->snapshot_id;
    rc = cp_commit_messages_add(msgs, &m, err);
  }
  free(files);
  free(taken);
  if (rc) {
    paimon_commit_messages_free(msgs);
    return rc;
  }
  s->n_done = 0; /* handed out: the messages own the files now */
  *out = msgs;
  return PAIMON_OK;
}
