/*
 * Owned ArrowArrays, aligned buffers, buffer pools, zero-copy sharing and in-place slicing
 * (array.h, part a).
 *
 * Arrow C Data Interface, "The ArrowArray structure" and "Release callback semantics": an owned
 * array's release frees exactly what its private data records and then marks the struct released.
 * Children are released through their own callbacks, so a consumer may move a child out before
 * releasing the parent, as the specification allows. A pooled buffer goes back to its pool only
 * from that release callback, which is how a producer knows the consumer is done with it.
 */
#include "arrow/array.h"

#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>

#include "base/status.h"

/* ---- aligned buffers ----------------------------------------------------------------------- */

/* From this size on, buffers are separate anonymous mappings: page aligned (so 64-byte aligned),
 * zero-filled by the kernel, and grown with mremap, which moves page tables instead of copying. */
#define CP_MAP_THRESHOLD ((int64_t)1 << 20)
#define CP_PAGE ((int64_t)4096)
/* Smaller ranges are mostly resident heap memory already; the call would cost more than it saves.
 */
#define CP_PREFAULT_MIN ((int64_t)64 << 10)

static int64_t round_up64(int64_t n) { return (n + 63) & ~(int64_t)63; }

static void *alloc_aligned(int64_t size) {
  int64_t rounded = round_up64(size > 0 ? size : 1);
  return aligned_alloc(CP_ARROW_ALIGNMENT, (size_t)rounded);
}

static void *map_zeroed(int64_t size) {
  void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Grows a mapped buffer from `old` to `cap` bytes (both page multiples). */
static void *map_grow(void *data, int64_t old, int64_t cap) {
#ifdef MREMAP_MAYMOVE
  void *p = mremap(data, (size_t)old, (size_t)cap, MREMAP_MAYMOVE);
  return p == MAP_FAILED ? NULL : p;
#else
  void *p = map_zeroed(cap);
  if (p) {
    memcpy(p, data, (size_t)old);
    munmap(data, (size_t)old);
  }
  return p;
#endif
}

int cp_abuf_reserve(cp_abuf *b, int64_t extra, paimon_error *err) {
  if (extra < 0) return paimon_error_set(err, PAIMON_EINVAL, "negative buffer reservation");
  if (extra <= b->cap - b->len) return PAIMON_OK;
  if (extra > INT64_MAX / 4 - b->len)
    return paimon_error_set(err, PAIMON_ENOMEM, "buffer of %lld + %lld bytes is too large",
                            (long long)b->len, (long long)extra);
  int64_t need = b->len + extra;
  int64_t cap = b->cap ? b->cap * 2 : 64;
  if (cap < need) cap = need;
  cap = round_up64(cap);
  uint8_t *p;
  if (cap >= CP_MAP_THRESHOLD) {
    cap = (cap + CP_PAGE - 1) & ~(CP_PAGE - 1);
    if (b->mapped) {
      p = map_grow(b->data, b->cap, cap);
    } else if ((p = map_zeroed(cap)) != NULL) {
      if (b->len) memcpy(p, b->data, (size_t)b->len);
      free(b->data);
    }
  } else if ((p = alloc_aligned(cap)) != NULL) {
    if (b->len) memcpy(p, b->data, (size_t)b->len);
    memset(p + b->len, 0, (size_t)(cap - b->len));
    free(b->data);
  }
  if (!p)
    return paimon_error_set(err, PAIMON_ENOMEM, "out of memory growing a buffer to %lld bytes",
                            (long long)cap);
  b->data = p;
  b->cap = cap;
  b->mapped = cap >= CP_MAP_THRESHOLD;
  return PAIMON_OK;
}

int cp_abuf_append(cp_abuf *b, const void *src, int64_t n, paimon_error *err) {
  if (n <= 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_abuf_reserve(b, n, err));
  memcpy(b->data + b->len, src, (size_t)n);
  b->len += n;
  return PAIMON_OK;
}

void cp_abuf_free(cp_abuf *b) {
  if (b->mapped)
    munmap(b->data, (size_t)b->cap);
  else
    free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->mapped = false;
}

/* ---- prefaulting ------------------------------------------------------------------------------
 */

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL and nothing happens */
#endif

void cp_mem_prefault(void *p, size_t n) {
  if (n < (size_t)CP_PREFAULT_MIN) return;
  uintptr_t start = ((uintptr_t)p + (uintptr_t)CP_PAGE - 1) & ~(uintptr_t)(CP_PAGE - 1);
  uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)(CP_PAGE - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
}

/* ---- buffer pools ---------------------------------------------------------------------------- */

/* Cached buffers per pool: enough for the buffers of a few batches of a wide projection. */
#define CP_POOL_MAX_ENTRIES 64

typedef struct pool_entry {
  void *data;
  size_t cap;
} pool_entry;

struct cp_buf_pool {
  pthread_mutex_t lock;
  int64_t refs; /* the owner's, until cp_buf_pool_release, plus one per buffer out in an array */
  bool owner_gone;
  size_t max_cached, cached;
  int n;
  pool_entry entries[CP_POOL_MAX_ENTRIES];
};

int cp_buf_pool_new(cp_buf_pool **out, int64_t max_cached, paimon_error *err) {
  *out = NULL;
  cp_buf_pool *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "buffer pool");
  if (pthread_mutex_init(&p->lock, NULL) != 0) {
    free(p);
    return CP_ENOMEM(err, "buffer pool lock");
  }
  p->refs = 1;
  p->max_cached = max_cached > 0 ? (size_t)max_cached : 0;
  *out = p;
  return PAIMON_OK;
}

static void pool_destroy(cp_buf_pool *p) {
  for (int i = 0; i < p->n; i++) free(p->entries[i].data);
  pthread_mutex_destroy(&p->lock);
  free(p);
}

/* Drops one reference (under the lock); true when it was the last. */
static bool pool_unref_locked(cp_buf_pool *p) { return --p->refs == 0; }

void cp_buf_pool_release(cp_buf_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->lock);
  /* Cached memory goes now; buffers still out in arrays are freed as they come back. */
  for (int i = 0; i < p->n; i++) free(p->entries[i].data);
  p->n = 0;
  p->cached = 0;
  p->owner_gone = true;
  bool last = pool_unref_locked(p);
  pthread_mutex_unlock(&p->lock);
  if (last) pool_destroy(p);
}

bool cp_buf_pool_take(cp_buf_pool *p, size_t min_cap, cp_buf *b) {
  if (!p || b->data) return false;
  pthread_mutex_lock(&p->lock);
  int best = -1;
  for (int i = 0; i < p->n; i++)
    if (p->entries[i].cap >= min_cap && (best < 0 || p->entries[i].cap < p->entries[best].cap))
      best = i;
  if (best >= 0) {
    b->data = p->entries[best].data;
    b->cap = p->entries[best].cap;
    b->len = 0;
    p->cached -= b->cap;
    p->entries[best] = p->entries[--p->n];
  }
  pthread_mutex_unlock(&p->lock);
  return best >= 0;
}

/* A pooled buffer comes back from a released array: cached for the owner while there is room,
 * freed otherwise (or once the owner is gone). */
static void pool_put(cp_buf_pool *p, void *data, size_t cap) {
  pthread_mutex_lock(&p->lock);
  bool keep = !p->owner_gone && data && p->n < CP_POOL_MAX_ENTRIES && cap <= p->max_cached &&
              p->cached <= p->max_cached - cap;
  if (keep) {
    p->entries[p->n++] = (pool_entry){data, cap};
    p->cached += cap;
  }
  bool last = pool_unref_locked(p);
  pthread_mutex_unlock(&p->lock);
  if (!keep) free(data);
  if (last) pool_destroy(p);
}

int64_t cp_buf_pool_cached_bytes(cp_buf_pool *p) {
  pthread_mutex_lock(&p->lock);
  int64_t n = (int64_t)p->cached;
  pthread_mutex_unlock(&p->lock);
  return n;
}

/* ---- owned arrays -------------------------------------------------------------------------- */

/* One buffer slot of an owned array: what to give back when the slot is released. */
typedef struct buffer_slot {
  void *owned;       /* memory to release, or NULL */
  int64_t mapped;    /* length of the mapping when `owned` is an mmap, else 0 */
  int64_t size;      /* byte size, or -1 when unknown */
  cp_buf_pool *pool; /* `owned` returns to this pool (with capacity pool_cap) instead of free() */
  int64_t pool_cap;
} buffer_slot;

typedef struct array_private {
  const void **buffers; /* what array->buffers points at */
  buffer_slot *slots;   /* per buffer */
  struct ArrowArray *child_structs;
  struct ArrowArray **child_ptrs;
  struct ArrowArray *kept; /* arrays kept alive for buffers that point into them */
  int64_t n_kept;
} array_private;

static void pool_put(cp_buf_pool *p, void *data, size_t cap);

static void slot_release(buffer_slot *s) {
  if (s->pool)
    pool_put(s->pool, s->owned, (size_t)s->pool_cap);
  else if (s->mapped)
    munmap(s->owned, (size_t)s->mapped);
  else
    free(s->owned);
  s->owned = NULL;
  s->pool = NULL;
  s->mapped = s->pool_cap = 0;
}

static void array_release(struct ArrowArray *a) {
  array_private *p = a->private_data;
  for (int64_t i = 0; i < a->n_children; i++) cp_array_release(a->children[i]);
  if (a->dictionary) cp_array_release(a->dictionary);
  if (p) {
    for (int64_t i = 0; p->slots && i < a->n_buffers; i++) slot_release(&p->slots[i]);
    for (int64_t i = 0; i < p->n_kept; i++) cp_array_release(&p->kept[i]);
    free(p->kept);
    free(p->buffers);
    free(p->slots);
    free(p->child_structs);
    free(p->child_ptrs);
    free(p);
  }
  a->release = NULL;
}

int cp_array_init(struct ArrowArray *out, int64_t n_buffers, int64_t n_children,
                  paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (n_buffers < 0 || n_buffers > 16 || n_children < 0 || n_children > (1 << 24))
    return paimon_error_set(err, PAIMON_EINVAL, "bad array shape: %lld buffers, %lld children",
                            (long long)n_buffers, (long long)n_children);
  array_private *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "array node");
  out->private_data = p;
  out->release = array_release;
  size_t nb = (size_t)(n_buffers ? n_buffers : 1), nc = (size_t)n_children;
  p->buffers = calloc(nb, sizeof *p->buffers);
  p->slots = calloc(nb, sizeof *p->slots);
  if (nc) {
    p->child_structs = calloc(nc, sizeof *p->child_structs);
    p->child_ptrs = calloc(nc, sizeof *p->child_ptrs);
  }
  if (!p->buffers || !p->slots || (nc && (!p->child_structs || !p->child_ptrs))) {
    array_release(out);
    return CP_ENOMEM(err, "array node");
  }
  for (size_t i = 0; i < nc; i++) p->child_ptrs[i] = &p->child_structs[i];
  out->n_buffers = n_buffers;
  out->n_children = n_children;
  out->buffers = p->buffers;
  out->children = nc ? p->child_ptrs : NULL;
  return PAIMON_OK;
}

static int check_slot(const struct ArrowArray *a, int64_t i, paimon_error *err) {
  if (!a->release || a->release != array_release)
    return paimon_error_set(err, PAIMON_ESTATE, "array was not made by cp_array_init");
  if (i < 0 || i >= a->n_buffers)
    return paimon_error_set(err, PAIMON_EINVAL, "buffer index %lld out of range (%lld buffers)",
                            (long long)i, (long long)a->n_buffers);
  return PAIMON_OK;
}

/* Installs buffer i, releasing the previous one. `mapped` is the mapping length when `owned` is an
 * mmap (0 otherwise). */
static void put_buffer(struct ArrowArray *a, int64_t i, void *owned, int64_t mapped,
                       const void *data, int64_t size) {
  array_private *p = a->private_data;
  buffer_slot *s = &p->slots[i];
  slot_release(s);
  s->owned = owned;
  s->mapped = owned ? mapped : 0;
  s->size = size;
  p->buffers[i] = data;
}

int cp_array_alloc_buffer(struct ArrowArray *a, int64_t i, int64_t size, void **data,
                          paimon_error *err) {
  CP_RETURN_IF_ERROR(check_slot(a, i, err));
  if (size < 0 || size > INT64_MAX / 2)
    return paimon_error_set(err, PAIMON_EINVAL, "bad buffer size %lld", (long long)size);
  int64_t mapped = 0;
  void *mem;
  if (size >= CP_MAP_THRESHOLD) {
    mapped = (size + CP_PAGE - 1) & ~(CP_PAGE - 1);
    mem = map_zeroed(mapped);
  } else if ((mem = alloc_aligned(size)) != NULL) {
    memset(mem, 0, (size_t)round_up64(size > 0 ? size : 1));
  }
  if (!mem)
    return paimon_error_set(err, PAIMON_ENOMEM, "out of memory allocating a %lld-byte buffer",
                            (long long)size);
  put_buffer(a, i, mem, mapped, mem, size);
  *data = mem;
  return PAIMON_OK;
}

int cp_array_adopt_buffer(struct ArrowArray *a, int64_t i, void *data, int64_t size,
                          paimon_error *err) {
  int rc = check_slot(a, i, err);
  if (rc != 0) {
    free(data);
    return rc;
  }
  put_buffer(a, i, data, 0, data, size);
  return PAIMON_OK;
}

int cp_array_adopt_abuf(struct ArrowArray *a, int64_t i, cp_abuf *b, paimon_error *err) {
  CP_RETURN_IF_ERROR(check_slot(a, i, err));
  put_buffer(a, i, b->data, b->mapped ? b->cap : 0, b->data, b->len);
  b->data = NULL;
  b->len = b->cap = 0;
  b->mapped = false;
  return PAIMON_OK;
}

int cp_array_adopt_pooled(struct ArrowArray *a, int64_t i, cp_buf *b, cp_buf_pool *pool,
                          paimon_error *err) {
  int rc = check_slot(a, i, err);
  if (rc != 0) {
    cp_buf_free(b);
    return rc;
  }
  void *data = b->data;
  int64_t size = (int64_t)b->len, cap = (int64_t)b->cap;
  b->data = NULL;
  b->len = b->cap = 0;
  put_buffer(a, i, data, 0, data, size);
  if (pool && data) {
    array_private *p = a->private_data;
    pthread_mutex_lock(&pool->lock);
    pool->refs++;
    pthread_mutex_unlock(&pool->lock);
    p->slots[i].pool = pool;
    p->slots[i].pool_cap = cap;
  }
  return PAIMON_OK;
}

int cp_array_set_buffer_ref(struct ArrowArray *a, int64_t i, const void *data, int64_t size,
                            paimon_error *err) {
  CP_RETURN_IF_ERROR(check_slot(a, i, err));
  put_buffer(a, i, NULL, 0, data, size);
  return PAIMON_OK;
}

int cp_array_keep_alive(struct ArrowArray *a, struct ArrowArray *other, paimon_error *err) {
  if (!a->release || a->release != array_release) {
    cp_array_release(other);
    return paimon_error_set(err, PAIMON_ESTATE, "array was not made by cp_array_init");
  }
  array_private *p = a->private_data;
  struct ArrowArray *k = realloc(p->kept, (size_t)(p->n_kept + 1) * sizeof *k);
  if (!k) {
    cp_array_release(other);
    return CP_ENOMEM(err, "kept-alive array list");
  }
  p->kept = k;
  cp_array_move(other, &p->kept[p->n_kept++]);
  return PAIMON_OK;
}

int64_t cp_array_buffer_size(const struct ArrowArray *a, int64_t i) {
  if (!a || a->release != array_release || i < 0 || i >= a->n_buffers) return -1;
  const array_private *p = a->private_data;
  return p->slots[i].size;
}

/* ---- sharing --------------------------------------------------------------------------------- */

/* The array every handle shares; released with the last handle. */
typedef struct share_root {
  struct ArrowArray original;
  int64_t refs; /* updated atomically: handles may be released on different threads */
} share_root;

typedef struct share_private {
  share_root *root;
  struct ArrowArray *child_structs;
  struct ArrowArray **child_ptrs;
} share_private;

static void share_release(struct ArrowArray *a) {
  share_private *p = a->private_data;
  for (int64_t i = 0; i < a->n_children; i++) cp_array_release(a->children[i]);
  share_root *root = p->root;
  free(p->child_structs);
  free(p->child_ptrs);
  free(p);
  if (__atomic_sub_fetch(&root->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    cp_array_release(&root->original);
    free(root);
  }
  a->release = NULL;
}

/* Makes `out` a handle on `root` that mirrors the node `src` (the original or another handle). */
static int make_handle(share_root *root, const struct ArrowArray *src, struct ArrowArray *out,
                       paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (src->dictionary)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "cannot share a dictionary array");
  share_private *p = calloc(1, sizeof *p);
  if (!p) return CP_ENOMEM(err, "shared array handle");
  int64_t nc = src->n_children;
  if (nc > 0) {
    p->child_structs = calloc((size_t)nc, sizeof *p->child_structs);
    p->child_ptrs = calloc((size_t)nc, sizeof *p->child_ptrs);
    if (!p->child_structs || !p->child_ptrs) {
      free(p->child_structs);
      free(p->child_ptrs);
      free(p);
      return CP_ENOMEM(err, "shared array handle");
    }
  }
  p->root = root;
  __atomic_add_fetch(&root->refs, 1, __ATOMIC_RELAXED);
  *out = *src;
  out->children = p->child_ptrs;
  out->n_children = nc;
  out->private_data = p;
  out->release = share_release;
  out->n_children = 0; /* children are counted in as they are made, for a partial release */
  for (int64_t i = 0; i < nc; i++) {
    p->child_ptrs[i] = &p->child_structs[i];
    const struct ArrowArray *c = src->children[i];
    int rc = (c && c->release)
                 ? make_handle(root, c, p->child_ptrs[i], err)
                 : paimon_error_set(err, PAIMON_EINVAL, "cannot share: child %lld is released",
                                    (long long)i);
    if (rc != 0) {
      share_release(out);
      return rc;
    }
    out->n_children = i + 1;
  }
  return PAIMON_OK;
}

int cp_array_share(struct ArrowArray *a, struct ArrowArray *out, paimon_error *err) {
  out->release = NULL;
  if (!a || !a->release)
    return paimon_error_set(err, PAIMON_EINVAL, "cannot share a released array");
  if (a->release == share_release) {
    share_private *p = a->private_data;
    return make_handle(p->root, a, out, err);
  }
  share_root *root = calloc(1, sizeof *root);
  if (!root) return CP_ENOMEM(err, "shared array");
  cp_array_move(a, &root->original);
  root->refs = 1; /* held by this function until both handles exist */
  int rc = make_handle(root, &root->original, a, err);
  if (rc == 0) {
    rc = make_handle(root, &root->original, out, err);
    if (rc != 0) share_release(a); /* drops a's reference; ours keeps the original alive */
  }
  if (rc != 0) {
    /* Give the caller back the original array untouched. */
    cp_array_move(&root->original, a);
    free(root);
    return rc;
  }
  if (__atomic_sub_fetch(&root->refs, 1, __ATOMIC_ACQ_REL) == 0) { /* cannot happen: 2 handles */
    cp_array_release(&root->original);
    free(root);
  }
  return PAIMON_OK;
}

int cp_array_slice_inplace(struct ArrowArray *a, int64_t offset, int64_t length,
                           paimon_error *err) {
  if (offset < 0 || length < 0 || offset > a->length || length > a->length - offset)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "slice [%lld, %lld) is outside an array of %lld rows",
                            (long long)offset, (long long)(offset + length), (long long)a->length);
  a->offset += offset;
  a->length = length;
  if (a->n_buffers == 0) {
    a->null_count = length; /* the null type */
  } else if (a->buffers[0] == NULL) {
    a->null_count = 0;
  } else {
    a->null_count = length - cp_bitmap_count_set(a->buffers[0], a->offset, length);
  }
  return PAIMON_OK;
}

int cp_array_pick_children(const cp_array_view *v, const size_t *idx, size_t n, int64_t length,
                           struct ArrowArray *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_array_init(out, 1, (int64_t)n, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++)
    rc = cp_array_share((struct ArrowArray *)v->children[idx[i]].array, out->children[i], err);
  if (rc) {
    out->release(out);
    return rc;
  }
  out->length = length;
  return PAIMON_OK;
}

int cp_array_init_large_binary(struct ArrowArray *out, int64_t n, int64_t bytes, uint8_t **valid,
                               int64_t **offsets, uint8_t **data, paimon_error *err) {
  int rc = cp_array_init(out, 3, 0, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 0, (n + 7) / 8, (void **)valid, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 1, (n + 1) * 8, (void **)offsets, err);
  if (!rc) rc = cp_array_alloc_buffer(out, 2, bytes, (void **)data, err);
  if (rc && out->release) out->release(out);
  return rc;
}
