/*
 * The Parquet reader's driver (reader.h): footer, plan, row-group and row-range selection, and
 * batches assembled from the column chunk readers (spec/parquet.md §2.5, §3.3).
 *
 * Rows are read in lock step across the projected leaf columns: for each selected interval of a
 * row group every chunk reader first skips to the interval's start, then reads the interval's
 * rows into its leaf batch; when the batch is full (or the row group ends) the plan's nodes are
 * assembled into the batch's arrays.
 *
 * A helper thread (cp_pq_reader_options.decode_threads = 1): the column chunks are independent
 * until assembly, so each batch's leaves can be read by two threads. At the start of each row
 * group the leaves are dealt to the side (calling thread or helper) with less work so far,
 * heaviest first, weighing a chunk by its compressed plus uncompressed bytes (decompression and
 * decoding both scale with them); each side then runs the batch's steps over its own leaves with
 * its own decompressor, and the calling thread waits for the helper before assembling. The sides
 * share only the file (ranged reads from two threads are safe) and the batch buffer pool (locked),
 * so the batches are those of one thread, in the same memory. An error is the one one thread
 * would have met first: the earliest in step order, then leaf order.
 */
#include "format/parquet/reader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "format/parquet/levels_read.h"

/* Bytes of released batch buffers a reader keeps for its next batches: two batches of a 20-column
 * projection, or a few batches of one long-string column, so streaming reuses warm memory. Held
 * only while the consumer releases batches faster than the reader needs new ones. */
#define CP_PQ_POOL_MAX_CACHED ((int64_t)64 << 20)

/* Rows of one selected interval of a batch: skip `skip` rows, then read `take`. */
typedef struct read_step {
  int64_t skip, take;
} read_step;

/* The helper thread (see above). `posted` and `finished` count batches handed to it and done by
 * it; everything below `mu` is written by the helper only while a batch is in its hands. */
typedef struct decode_helper {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint64_t posted, finished;
  bool stop;
  cp_codec_ctx *ctx;
  int rc;
  size_t err_at; /* step phase of the error (see run_steps) */
  uint32_t err_leaf;
  paimon_error err;
} decode_helper;

static void helper_free(decode_helper *h);

struct cp_pq_reader {
  cp_fs *owned_fs;
  cp_rfile *file;
  char *path;
  cp_pq_footer footer;
  cp_pq_plan plan;
  cp_pq_read_limits lim;
  int64_t batch_size;
  int32_t *rgs; /* selected row groups */
  size_t n_rgs, rg_cursor;
  int64_t *rg_first_row; /* file position of each row group's first row */
  cp_pq_row_range *ranges;
  size_t n_ranges;
  bool has_ranges;
  cp_codec_ctx *codec_ctx;     /* decompressor state shared by the chunk readers */
  cp_buf_pool *pool;           /* batch buffers coming back from released batches */
  cp_pq_chunk_reader **chunks; /* one per plan leaf */
  cp_pq_leaf_batch *batches;   /* one per plan leaf */
  cp_pq_leaf_batch **by_leaf;  /* indexed by Parquet leaf */
  /* the steps of the batch being read, and which side reads each plan leaf (1: the helper) */
  cp_buf steps; /* read_step[n_steps] */
  size_t n_steps;
  uint8_t *side;
  int decode_threads;    /* as asked; 0 once a helper could not be started */
  decode_helper *helper; /* started at the first row group with two leaves to share */
  bool helper_busy;      /* the helper has leaves in the current row group */
  /* the row group being read */
  bool in_rg;
  int32_t rg;
  int64_t rg_rows, pos;
  size_t range_cursor;
};

/* ---- options -----------------------------------------------------------------------------------
 */

static int copy_row_groups(cp_pq_reader *r, const cp_pq_reader_options *o, paimon_error *err) {
  uint32_t total = r->footer.meta.num_row_groups;
  size_t n = o && o->row_groups ? o->num_row_groups : total;
  r->rgs = malloc((n ? n : 1) * sizeof *r->rgs);
  if (!r->rgs) return CP_ENOMEM(err, "parquet reader");
  for (size_t i = 0; i < n; i++) {
    int32_t g = o && o->row_groups ? o->row_groups[i] : (int32_t)i;
    if (g < 0 || (uint32_t)g >= total)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "%s: row group %d does not exist (the file has %u)", r->path, (int)g,
                              total);
    r->rgs[i] = g;
  }
  r->n_rgs = n;
  r->rg_first_row = malloc(((size_t)total + 1) * sizeof *r->rg_first_row);
  if (!r->rg_first_row) return CP_ENOMEM(err, "parquet reader");
  r->rg_first_row[0] = 0;
  for (uint32_t g = 0; g < total; g++)
    r->rg_first_row[g + 1] = r->rg_first_row[g] + r->footer.meta.row_groups[g].num_rows;
  return PAIMON_OK;
}

static int copy_ranges(cp_pq_reader *r, const cp_pq_reader_options *o, paimon_error *err) {
  if (!o || !o->row_ranges) return PAIMON_OK;
  r->has_ranges = true;
  r->n_ranges = o->num_row_ranges;
  r->ranges = malloc((r->n_ranges ? r->n_ranges : 1) * sizeof *r->ranges);
  if (!r->ranges) return CP_ENOMEM(err, "parquet reader");
  for (size_t i = 0; i < r->n_ranges; i++) {
    cp_pq_row_range g = o->row_ranges[i];
    if (g.start < 0 || g.end < g.start || (i > 0 && g.start < r->ranges[i - 1].end))
      return paimon_error_set(err, PAIMON_EINVAL,
                              "%s: row range %zu [%lld, %lld) is empty-negative, unsorted or "
                              "overlaps the previous one",
                              r->path, i, (long long)g.start, (long long)g.end);
    r->ranges[i] = g;
  }
  return PAIMON_OK;
}

static int prepare_leaves(cp_pq_reader *r, paimon_error *err) {
  uint32_t n = r->plan.num_leaves;
  r->chunks = calloc(n ? n : 1, sizeof *r->chunks);
  r->batches = calloc(n ? n : 1, sizeof *r->batches);
  r->by_leaf =
      calloc(r->footer.schema.num_leaves ? r->footer.schema.num_leaves : 1, sizeof *r->by_leaf);
  r->side = calloc(2 * (size_t)n + 1, 1); /* each leaf's side, then scratch for deal_leaves */
  if (!r->chunks || !r->batches || !r->by_leaf || !r->side) return CP_ENOMEM(err, "parquet reader");
  for (uint32_t i = 0; i < n; i++) {
    int32_t leaf = r->plan.leaves[i];
    const cp_pq_schema_node *node = r->footer.schema.leaves[leaf];
    r->by_leaf[leaf] = &r->batches[i];
    r->batches[i].max_def = node->max_def;
    r->batches[i].max_rep = node->max_rep;
    r->batches[i].out_kind = CP_PQ_OUT_NONE;
  }
  return PAIMON_OK;
}

/* The conversion of the plan node that reads `leaf`'s values, and how many nodes do. */
static void find_conv(const cp_pq_rnode *node, int32_t leaf, const cp_pq_leaf_conv **out,
                      int *uses) {
  if (node->kind == CP_PQ_RNODE_LEAF && node->leaf == leaf) {
    *out = &node->conv;
    (*uses)++;
  }
  if (node->kind == CP_PQ_RNODE_ABSENT) return;
  for (uint32_t i = 0; i < node->num_children; i++) find_conv(&node->children[i], leaf, out, uses);
}

/* One chunk reader per leaf of the plan, reading values in the representation its node asks for
 * (levels only for leaves read just for a group's structure). */
static int make_chunk_readers(cp_pq_reader *r, paimon_error *err) {
  for (uint32_t i = 0; i < r->plan.num_leaves; i++) {
    int32_t leaf = r->plan.leaves[i];
    const cp_pq_leaf_conv *conv = NULL;
    int uses = 0;
    for (uint32_t c = 0; c < r->plan.num_columns; c++)
      find_conv(&r->plan.columns[c], leaf, &conv, &uses);
    if (uses > 1)
      return paimon_error_set(err, PAIMON_EINVAL, "%s: column '%s' is projected more than once",
                              r->path, r->footer.schema.leaves[leaf]->path_str);
    cp_pq_leaf_batch *b = &r->batches[i];
    if (conv) {
      b->out_kind = conv->out_kind;
      b->out_width = conv->out_width;
      /* A leaf without repetition has one slot per level entry: its values can be read straight
       * into their slots (page_read.h). */
      b->spaced = b->max_rep == 0;
    }
    b->pool = r->pool;
    CP_RETURN_IF_ERROR(cp_pq_chunk_reader_new(&r->chunks[i], r->file, r->path, &r->footer, leaf,
                                              conv, &r->lim, r->codec_ctx, err));
  }
  return PAIMON_OK;
}

/* Unsupported codecs (LZO, BROTLI) are reported at open, naming the first chunk that uses one,
 * rather than in the middle of a read. */
static int check_codecs(const cp_pq_reader *r, paimon_error *err) {
  for (size_t i = 0; i < r->n_rgs; i++) {
    const cp_pq_row_group *rg = &r->footer.meta.row_groups[r->rgs[i]];
    if (rg->num_rows == 0) continue;
    for (uint32_t k = 0; k < r->plan.num_leaves; k++) {
      int32_t leaf = r->plan.leaves[k];
      int codec = rg->columns[leaf].meta_data.codec;
      if (!cp_pq_codec_supported(codec))
        return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                                "%s: column '%s', row group %d: compression codec %s is not "
                                "supported",
                                r->path, r->footer.schema.leaves[leaf]->path_str, (int)r->rgs[i],
                                cp_pq_codec_name(codec));
    }
  }
  return PAIMON_OK;
}

static void set_limits(cp_pq_reader *r, const cp_pq_reader_options *o) {
  r->batch_size = o && o->batch_size > 0 ? o->batch_size : CP_PQ_DEFAULT_BATCH_SIZE;
  if (o) r->lim = o->limits;
  if (r->lim.max_page_size <= 0) r->lim.max_page_size = CP_PQ_DEFAULT_MAX_PAGE_SIZE;
  if (r->lim.max_page_values <= 0) r->lim.max_page_values = CP_PQ_DEFAULT_MAX_PAGE_VALUES;
}

int cp_pq_reader_open(cp_pq_reader **out, cp_fs *fs, const char *path,
                      const cp_pq_reader_options *opts, paimon_error *err) {
  *out = NULL;
  cp_pq_reader *r = calloc(1, sizeof *r);
  if (!r) return CP_ENOMEM(err, "parquet reader");
  r->path = strdup(path);
  int rc = r->path ? PAIMON_OK : CP_ENOMEM(err, "parquet reader");
  set_limits(r, opts);
  if (rc == 0) rc = cp_fs_open_read(fs, path, &r->file, err);
  if (rc == 0) rc = cp_pq_footer_read(r->file, &r->footer, err);
  if (rc == 0)
    rc = cp_pq_plan_build(&r->plan, &r->footer.schema, opts ? opts->columns : NULL,
                          opts ? opts->num_columns : 0, path, err);
  if (rc == 0) rc = copy_row_groups(r, opts, err);
  if (rc == 0) rc = copy_ranges(r, opts, err);
  if (rc == 0) rc = cp_codec_ctx_new(&r->codec_ctx, err);
  if (rc == 0) rc = cp_buf_pool_new(&r->pool, CP_PQ_POOL_MAX_CACHED, err);
  if (rc == 0 && opts && opts->decode_threads != 0 && opts->decode_threads != 1)
    rc = paimon_error_set(err, PAIMON_EINVAL, "parquet reader: decode_threads %d is not 0 or 1",
                          opts->decode_threads);
  r->decode_threads = opts ? opts->decode_threads : 0;
  if (rc == 0) rc = prepare_leaves(r, err);
  if (rc == 0) rc = make_chunk_readers(r, err);
  if (rc == 0) rc = check_codecs(r, err);
  if (rc) {
    cp_pq_reader_free(r);
    return rc;
  }
  *out = r;
  return PAIMON_OK;
}

void cp_pq_reader_free(cp_pq_reader *r) {
  if (!r) return;
  helper_free(r->helper); /* idle between batches: joined before its chunks go */
  cp_buf_free(&r->steps);
  free(r->side);
  for (uint32_t i = 0; r->chunks && i < r->plan.num_leaves; i++) {
    cp_pq_chunk_reader_free(r->chunks[i]);
    cp_pq_leaf_batch_free(&r->batches[i]);
  }
  free(r->chunks);
  free(r->batches);
  cp_buf_pool_release(r->pool); /* batches still held by the consumer free their buffers later */
  cp_codec_ctx_free(r->codec_ctx);
  free(r->by_leaf);
  free(r->rgs);
  free(r->rg_first_row);
  free(r->ranges);
  cp_pq_plan_free(&r->plan);
  cp_pq_footer_free(&r->footer);
  if (r->file) cp_rfile_close(r->file);
  cp_fs_free(r->owned_fs);
  free(r->path);
  free(r);
}

void cp_pq_reader_own_fs(cp_pq_reader *r, cp_fs *fs) { r->owned_fs = fs; }

const cp_pq_footer *cp_pq_reader_footer(const cp_pq_reader *r) { return &r->footer; }

int cp_pq_reader_schema(const cp_pq_reader *r, struct ArrowSchema *out, paimon_error *err) {
  return cp_schema_copy(out, &r->plan.schema, err);
}

/* ---- selection ---------------------------------------------------------------------------------
 */

/* The next selected rows [*start, *end) of the current row group at or after `pos` (row-group
 * relative); false when none remain. */
static bool next_selected(cp_pq_reader *r, int64_t *start, int64_t *end) {
  if (r->pos >= r->rg_rows) return false;
  if (!r->has_ranges) {
    *start = r->pos;
    *end = r->rg_rows;
    return true;
  }
  int64_t base = r->rg_first_row[r->rg];
  while (r->range_cursor < r->n_ranges && r->ranges[r->range_cursor].end <= base + r->pos)
    r->range_cursor++;
  if (r->range_cursor == r->n_ranges) return false;
  const cp_pq_row_range *g = &r->ranges[r->range_cursor];
  int64_t s = g->start - base, e = g->end - base;
  if (s < r->pos) s = r->pos;
  if (s >= r->rg_rows) return false;
  *start = s;
  *end = e < r->rg_rows ? e : r->rg_rows;
  return true;
}

int64_t cp_pq_reader_selected_rows(const cp_pq_reader *r) {
  int64_t total = 0;
  for (size_t i = 0; i < r->n_rgs; i++) {
    int32_t g = r->rgs[i];
    int64_t lo = r->rg_first_row[g], hi = r->rg_first_row[g + 1];
    if (!r->has_ranges) {
      total += hi - lo;
      continue;
    }
    for (size_t k = 0; k < r->n_ranges; k++) {
      int64_t s = r->ranges[k].start > lo ? r->ranges[k].start : lo;
      int64_t e = r->ranges[k].end < hi ? r->ranges[k].end : hi;
      if (e > s) total += e - s;
    }
  }
  return total;
}

/* ---- the helper thread ------------------------------------------------------------------------
 */

/* Runs the batch's steps over the leaves of `side`, in the order one thread would: for each step,
 * every leaf skips, then every leaf reads. On an error *at is the phase (2 * step, + 1 when
 * reading) and *leaf the leaf where it happened. */
static int run_steps(cp_pq_reader *r, uint8_t side, size_t *at, uint32_t *leaf, paimon_error *err) {
  for (size_t k = 0; k < r->n_steps; k++) {
    const read_step *st = (const read_step *)(void *)r->steps.data + k;
    for (int phase = 0; phase < 2; phase++) {
      if (phase == 0 && st->skip == 0) continue;
      for (uint32_t i = 0; i < r->plan.num_leaves; i++) {
        if (r->side[i] != side) continue;
        int rc = phase == 0 ? cp_pq_chunk_skip_rows(r->chunks[i], st->skip, err)
                            : cp_pq_chunk_read_rows(r->chunks[i], st->take, &r->batches[i], err);
        if (rc) {
          *at = 2 * k + (size_t)phase;
          *leaf = i;
          return rc;
        }
      }
    }
  }
  return PAIMON_OK;
}

static void *helper_main(void *arg) {
  cp_pq_reader *r = arg;
  decode_helper *h = r->helper;
  pthread_mutex_lock(&h->mu);
  for (;;) {
    while (!h->stop && h->finished == h->posted) pthread_cond_wait(&h->cv, &h->mu);
    if (h->stop) break;
    pthread_mutex_unlock(&h->mu);
    paimon_error e;
    size_t at = 0;
    uint32_t leaf = 0;
    int rc = run_steps(r, 1, &at, &leaf, &e);
    pthread_mutex_lock(&h->mu);
    h->rc = rc;
    if (rc) {
      h->err_at = at;
      h->err_leaf = leaf;
      h->err = e;
    }
    h->finished++;
    pthread_cond_broadcast(&h->cv);
  }
  pthread_mutex_unlock(&h->mu);
  return NULL;
}

static void helper_free(decode_helper *h) {
  if (!h) return;
  pthread_mutex_lock(&h->mu);
  h->stop = true;
  pthread_cond_broadcast(&h->cv);
  pthread_mutex_unlock(&h->mu);
  pthread_join(h->thread, NULL);
  pthread_mutex_destroy(&h->mu);
  pthread_cond_destroy(&h->cv);
  cp_codec_ctx_free(h->ctx);
  free(h);
}

/* Starts the helper; on any failure the reader goes on without one (decode_threads 0). */
static void helper_start(cp_pq_reader *r) {
  decode_helper *h = calloc(1, sizeof *h);
  paimon_error ignored;
  if (h && cp_codec_ctx_new(&h->ctx, &ignored) == 0) {
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    r->helper = h;
    if (pthread_create(&h->thread, NULL, helper_main, r) == 0) return;
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    r->helper = NULL;
  }
  if (h) cp_codec_ctx_free(h->ctx);
  free(h);
  r->decode_threads = 0;
}

/* Deals the leaves of row group `rg` to the two sides, heaviest first to the lighter side. */
static void deal_leaves(cp_pq_reader *r, int32_t rg) {
  const uint32_t n = r->plan.num_leaves;
  memset(r->side, 0, n);
  r->helper_busy = false;
  if (r->decode_threads < 1 || n < 2) return;
  if (!r->helper) helper_start(r);
  if (!r->helper) return;
  const cp_pq_column_chunk *cols = r->footer.meta.row_groups[rg].columns;
  uint64_t load[2] = {0, 0};
  uint8_t *dealt = r->side + n; /* scratch: 1 once a leaf is dealt */
  memset(dealt, 0, n);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t best = 0;
    uint64_t best_w = 0;
    bool found = false;
    for (uint32_t i = 0; i < n; i++) {
      if (dealt[i]) continue;
      const cp_pq_column_meta *m = &cols[r->plan.leaves[i]].meta_data;
      uint64_t w = (uint64_t)(m->total_compressed_size > 0 ? m->total_compressed_size : 0) +
                   (uint64_t)(m->total_uncompressed_size > 0 ? m->total_uncompressed_size : 0);
      if (!found || w > best_w) best = i, best_w = w, found = true;
    }
    dealt[best] = 1;
    uint8_t to = load[1] < load[0] ? 1 : 0;
    r->side[best] = to;
    load[to] += best_w + 1;
    if (to) r->helper_busy = true;
  }
  for (uint32_t i = 0; i < n; i++)
    cp_pq_chunk_reader_set_codec_ctx(r->chunks[i], r->side[i] ? r->helper->ctx : r->codec_ctx);
}

/* Tells the file which column chunks of row group `rg` are about to be read, so that an object
 * store fetches them all at once (pyarrow's pre-buffering); a local file ignores it. */
static int hint_row_group(cp_pq_reader *r, int32_t rg, paimon_error *err) {
  uint32_t n = r->plan.num_leaves;
  if (n == 0) return PAIMON_OK;
  cp_fs_range *ranges = malloc(n * sizeof *ranges);
  if (!ranges) return CP_ENOMEM(err, "read ranges");
  const cp_pq_file_meta *m = &r->footer.meta;
  for (uint32_t i = 0; i < n; i++) {
    const cp_pq_column_meta *cm = &m->row_groups[rg].columns[r->plan.leaves[i]].meta_data;
    ranges[i].offset = (uint64_t)cp_pq_column_chunk_start(cm);
    ranges[i].len =
        (uint64_t)cp_pq_column_chunk_read_len(m->created_by, cm, r->footer.metadata_offset);
  }
  int rc = cp_rfile_will_read(r->file, ranges, n, err);
  free(ranges);
  return rc;
}

static int start_row_group(cp_pq_reader *r, int32_t rg, paimon_error *err) {
  r->rg = rg;
  r->rg_rows = r->footer.meta.row_groups[rg].num_rows;
  r->pos = 0;
  r->range_cursor = 0;
  int64_t s, e;
  if (r->rg_rows == 0 || !next_selected(r, &s, &e)) return PAIMON_OK; /* nothing to read */
  for (uint32_t i = 0; i < r->plan.num_leaves; i++)
    CP_RETURN_IF_ERROR(cp_pq_chunk_reader_start(r->chunks[i], rg, err));
  CP_RETURN_IF_ERROR(hint_row_group(r, rg, err));
  deal_leaves(r, rg);
  r->in_rg = true;
  return PAIMON_OK;
}

static int add_step(cp_pq_reader *r, int64_t skip, int64_t take, paimon_error *err) {
  const read_step st = {skip, take};
  CP_RETURN_IF_ERROR(cp_buf_append(&r->steps, &st, sizeof st, err));
  r->n_steps++;
  return PAIMON_OK;
}

/* Reads the batch's steps: on this thread alone, or split with the helper. */
static int run_batch(cp_pq_reader *r, paimon_error *err) {
  size_t at = 0;
  uint32_t leaf = 0;
  if (!r->helper_busy) return run_steps(r, 0, &at, &leaf, err);
  decode_helper *h = r->helper;
  pthread_mutex_lock(&h->mu);
  h->posted++;
  pthread_cond_broadcast(&h->cv);
  pthread_mutex_unlock(&h->mu);
  int rc = run_steps(r, 0, &at, &leaf, err);
  pthread_mutex_lock(&h->mu);
  while (h->finished != h->posted) pthread_cond_wait(&h->cv, &h->mu);
  pthread_mutex_unlock(&h->mu);
  /* The error one thread would have met first. */
  if (h->rc && (!rc || h->err_at < at || (h->err_at == at && h->err_leaf < leaf))) {
    *err = h->err;
    rc = h->rc;
  }
  return rc;
}

void cp_pq_reader_set_batch_size(cp_pq_reader *r, int64_t rows) {
  r->batch_size = rows > 0 ? rows : CP_PQ_DEFAULT_BATCH_SIZE;
}

/* Reads up to batch_size selected rows of the current row group; *got = rows read. */
static int fill_batch(cp_pq_reader *r, int64_t *got, paimon_error *err) {
  *got = 0;
  /* Room for the rows this batch can take (capped: a footer's row count is not trusted for an
   * allocation; past the cap the buffers grow as needed). */
  int64_t hint = r->rg_rows - r->pos;
  if (hint > r->batch_size) hint = r->batch_size;
  if (hint > CP_PQ_DEFAULT_BATCH_SIZE) hint = CP_PQ_DEFAULT_BATCH_SIZE;
  for (uint32_t i = 0; i < r->plan.num_leaves; i++)
    CP_RETURN_IF_ERROR(cp_pq_leaf_batch_reset(&r->batches[i], hint, err));
  /* The intervals first (they depend on positions alone), then the reading. */
  int64_t s, e;
  r->n_steps = r->steps.len = 0;
  while (*got < r->batch_size && next_selected(r, &s, &e)) {
    int64_t skip = s > r->pos ? s - r->pos : 0;
    r->pos += skip;
    int64_t take = e - r->pos;
    if (take > r->batch_size - *got) take = r->batch_size - *got;
    CP_RETURN_IF_ERROR(add_step(r, skip, take, err));
    r->pos += take;
    *got += take;
  }
  return r->n_steps ? run_batch(r, err) : PAIMON_OK;
}

static int assemble_batch(cp_pq_reader *r, int64_t rows, struct ArrowArray *out,
                          paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 1, r->plan.num_columns, err));
  out->length = rows;
  for (uint32_t c = 0; c < r->plan.num_columns; c++) {
    int rc = cp_pq_assemble(&r->plan.columns[c], r->by_leaf, rows, out->children[c], err);
    if (rc) {
      paimon_error_prefix(err, "%s: row group %d", r->path, (int)r->rg);
      cp_array_release(out);
      return rc;
    }
  }
  return PAIMON_OK;
}

int cp_pq_reader_next(cp_pq_reader *r, struct ArrowArray *out_batch, struct ArrowSchema *out_schema,
                      bool *eof, paimon_error *err) {
  out_batch->release = NULL;
  *eof = false;
  if (out_schema) CP_RETURN_IF_ERROR(cp_pq_reader_schema(r, out_schema, err));
  for (;;) {
    if (!r->in_rg) {
      if (r->rg_cursor == r->n_rgs) {
        *eof = true;
        return PAIMON_OK;
      }
      int rc = start_row_group(r, r->rgs[r->rg_cursor++], err);
      if (rc) {
        if (out_schema) cp_schema_release(out_schema);
        return rc;
      }
      continue;
    }
    int64_t got;
    int rc = fill_batch(r, &got, err);
    if (rc == 0 && got == 0) {
      r->in_rg = false;
      continue;
    }
    if (rc == 0) rc = assemble_batch(r, got, out_batch, err);
    if (rc && out_schema) cp_schema_release(out_schema);
    return rc;
  }
}

/* ---- stream ------------------------------------------------------------------------------------
 */

static int stream_next(void *state, struct ArrowArray *out, paimon_error *err) {
  bool eof;
  int rc = cp_pq_reader_next(state, out, NULL, &eof, err);
  if (rc == 0 && eof) out->release = NULL;
  return rc;
}

static void stream_free(void *state) { cp_pq_reader_free(state); }

int cp_pq_reader_to_stream(cp_pq_reader *r, struct ArrowArrayStream *out, paimon_error *err) {
  struct ArrowSchema schema;
  int rc = cp_pq_reader_schema(r, &schema, err);
  if (rc) {
    out->release = NULL;
    cp_pq_reader_free(r);
    return rc;
  }
  return cp_stream_from_producer(out, &schema, stream_next, stream_free, r, err);
}
