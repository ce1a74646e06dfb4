/*
 * Growable byte buffers and arenas: the two ways the library holds memory it builds up.
 *
 * cp_buf is a plain (data, len, cap) vector of bytes; it owns `data` (malloc'd) until
 * cp_buf_free() or cp_buf_detach(). cp_arena hands out many small allocations that are all freed
 * together by cp_arena_free(), for parsed metadata whose pieces share one lifetime.
 */
#ifndef CP_BASE_BUF_H
#define CP_BASE_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cpaimon/error.h"

typedef struct cp_buf {
  uint8_t *data;
  size_t len;
  size_t cap;
} cp_buf;

#define CP_BUF_INIT                                                                                \
  { NULL, 0, 0 }

static inline void cp_buf_init(cp_buf *b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
}

/* Makes room for `extra` more bytes after `len` (capacity grows geometrically). */
int cp_buf_reserve(cp_buf *b, size_t extra, paimon_error *err);

/* Appends `n` bytes. */
int cp_buf_append(cp_buf *b, const void *src, size_t n, paimon_error *err);

/* Appends `n` zero bytes. */
int cp_buf_append_zeros(cp_buf *b, size_t n, paimon_error *err);

/* Appends a printf-formatted string without its NUL terminator. */
int cp_buf_appendf(cp_buf *b, paimon_error *err, const char *fmt, ...) PAIMON_PRINTF(3, 4);

/* Appends one byte; the caller must have reserved room (hot-path helper). */
static inline void cp_buf_push_unchecked(cp_buf *b, uint8_t v) { b->data[b->len++] = v; }

/* Little-endian integers, for the byte forms cpaimon defines itself (serialized commit messages
 * and splits). */
static inline void cp_store_u32le(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t cp_load_u32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline int64_t cp_load_i64le(const uint8_t *p) {
  return (int64_t)((uint64_t)cp_load_u32le(p) | (uint64_t)cp_load_u32le(p + 4) << 32);
}
int cp_buf_append_u32le(cp_buf *b, uint32_t v, paimon_error *err);
int cp_buf_append_i64le(cp_buf *b, int64_t v, paimon_error *err);

/* Ensures data[len] == 0 (without counting it in len), so the contents can be used as a C string.
 */
int cp_buf_nul_terminate(cp_buf *b, paimon_error *err);

/* Returns the storage to the caller (who must free() it) and leaves `b` empty. */
uint8_t *cp_buf_detach(cp_buf *b);

static inline void cp_buf_clear(cp_buf *b) { b->len = 0; }

void cp_buf_free(cp_buf *b);

/* Overwrites a malloc'd string with zeros, then frees it (for secrets: keys, tokens, the headers
 * that carry them), so they do not linger in freed memory. NULL is fine. */
void cp_secret_free(char *s);

/* An arena: bump allocation in chunks, everything freed at once. */
typedef struct cp_arena_chunk cp_arena_chunk;
typedef struct cp_arena {
  cp_arena_chunk *head;
  size_t used;  /* bytes used in head */
  size_t total; /* bytes handed out over the arena's life (for accounting) */
} cp_arena;

#define CP_ARENA_INIT                                                                              \
  { NULL, 0, 0 }

/* Returns `n` bytes aligned to 16, or NULL when out of memory. The memory is not zeroed. */
void *cp_arena_alloc(cp_arena *a, size_t n);

/* Like cp_arena_alloc, zero-filled. */
void *cp_arena_calloc(cp_arena *a, size_t n);

/* Copies `n` bytes of `s` into the arena with a NUL after them; NULL when out of memory. */
char *cp_arena_strndup(cp_arena *a, const char *s, size_t n);
char *cp_arena_strdup(cp_arena *a, const char *s);

void cp_arena_free(cp_arena *a);

/* The nodes met along a chain of pointers (a tree's first arguments, a query's left operands),
 * collected so that a pass can walk the chain from its end with a loop where recursion would need
 * a stack frame per node. Eight nodes need no allocation. */
typedef struct cp_chain {
  const void **nodes;
  size_t n, cap;
  const void *inline_nodes[8];
} cp_chain;

static inline void cp_chain_init(cp_chain *c) {
  c->nodes = c->inline_nodes;
  c->n = 0;
  c->cap = sizeof c->inline_nodes / sizeof c->inline_nodes[0];
}

/* Appends `node`; ENOMEM leaves the chain as it was. */
int cp_chain_push(cp_chain *c, const void *node, paimon_error *err);

/* Initialises `c` and collects first, next(first), next(next(first)), ... until NULL. On ENOMEM
 * the chain is freed. */
int cp_chain_collect(cp_chain *c, const void *first, const void *(*next)(const void *),
                     paimon_error *err);

void cp_chain_free(cp_chain *c);

#endif
