/* Growable byte buffers and arenas (buf.h). */
#include "base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/status.h"

int cp_buf_reserve(cp_buf *b, size_t extra, paimon_error *err) {
  if (extra <= b->cap - b->len) return PAIMON_OK;
  if (extra > SIZE_MAX / 2 - b->len)
    return paimon_error_set(err, PAIMON_ENOMEM, "buffer of %zu + %zu bytes is too large", b->len,
                            extra);
  size_t need = b->len + extra;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  uint8_t *p = realloc(b->data, cap);
  if (!p)
    return paimon_error_set(err, PAIMON_ENOMEM, "out of memory growing a buffer to %zu bytes", cap);
  b->data = p;
  b->cap = cap;
  return PAIMON_OK;
}

int cp_buf_append(cp_buf *b, const void *src, size_t n, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, n, err));
  memcpy(b->data + b->len, src, n);
  b->len += n;
  return PAIMON_OK;
}

int cp_buf_append_zeros(cp_buf *b, size_t n, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, n, err));
  memset(b->data + b->len, 0, n);
  b->len += n;
  return PAIMON_OK;
}

int cp_buf_appendf(cp_buf *b, paimon_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return paimon_error_set(err, PAIMON_EINVAL, "bad format string '%s'", fmt);
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, (size_t)n + 1, err));
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return PAIMON_OK;
}

int cp_buf_nul_terminate(cp_buf *b, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(b, 1, err));
  b->data[b->len] = 0;
  return PAIMON_OK;
}

uint8_t *cp_buf_detach(cp_buf *b) {
  uint8_t *p = b->data;
  cp_buf_init(b);
  return p;
}

void cp_secret_free(char *s) {
  if (!s) return;
  volatile char *v = s;
  for (size_t i = 0; v[i]; i++) v[i] = 0;
  free(s);
}

void cp_buf_free(cp_buf *b) {
  free(b->data);
  cp_buf_init(b);
}

struct cp_arena_chunk {
  cp_arena_chunk *next;
  size_t size;
  _Alignas(16) unsigned char data[];
};

enum { CP_ARENA_CHUNK = 16 * 1024 };

void *cp_arena_alloc(cp_arena *a, size_t n) {
  size_t rounded = (n + 15) & ~(size_t)15;
  if (rounded < n) return NULL;
  if (!a->head || a->head->size - a->used < rounded) {
    size_t size = rounded > CP_ARENA_CHUNK ? rounded : CP_ARENA_CHUNK;
    cp_arena_chunk *c = malloc(sizeof *c + size);
    if (!c) return NULL;
    c->size = size;
    /* A big allocation goes behind the current head so the head's free space is not wasted. */
    if (a->head && rounded > CP_ARENA_CHUNK) {
      c->next = a->head->next;
      a->head->next = c;
      a->total += n;
      return c->data;
    }
    c->next = a->head;
    a->head = c;
    a->used = 0;
  }
  void *p = a->head->data + a->used;
  a->used += rounded;
  a->total += n;
  return p;
}

void *cp_arena_calloc(cp_arena *a, size_t n) {
  void *p = cp_arena_alloc(a, n);
  if (p) memset(p, 0, n);
  return p;
}

char *cp_arena_strndup(cp_arena *a, const char *s, size_t n) {
  char *p = cp_arena_alloc(a, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n); /* an empty string may come as NULL (an empty token's text) */
  p[n] = '\0';
  return p;
}

char *cp_arena_strdup(cp_arena *a, const char *s) { return cp_arena_strndup(a, s, strlen(s)); }

void cp_arena_free(cp_arena *a) {
  cp_arena_chunk *c = a->head;
  while (c) {
    cp_arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = NULL;
  a->used = 0;
  a->total = 0;
}

int cp_chain_push(cp_chain *c, const void *node, paimon_error *err) {
  if (c->n == c->cap) {
    const void **grown = malloc(2 * c->cap * sizeof *grown);
    if (!grown) return paimon_error_set(err, PAIMON_ENOMEM, "out of memory (chain of %zu)", c->n);
    memcpy(grown, c->nodes, c->n * sizeof *grown);
    if (c->nodes != c->inline_nodes) free(c->nodes);
    c->nodes = grown;
    c->cap *= 2;
  }
  c->nodes[c->n++] = node;
  return PAIMON_OK;
}

int cp_chain_collect(cp_chain *c, const void *first, const void *(*next)(const void *),
                     paimon_error *err) {
  cp_chain_init(c);
  for (const void *node = first; node; node = next(node)) {
    int rc = cp_chain_push(c, node, err);
    if (rc != 0) {
      cp_chain_free(c);
      return rc;
    }
  }
  return PAIMON_OK;
}

void cp_chain_free(cp_chain *c) {
  if (c->nodes != c->inline_nodes) free(c->nodes);
  cp_chain_init(c);
}

int cp_buf_append_u32le(cp_buf *b, uint32_t v, paimon_error *err) {
  uint8_t p[4];
  cp_store_u32le(p, v);
  return cp_buf_append(b, p, 4, err);
}

int cp_buf_append_i64le(cp_buf *b, int64_t v, paimon_error *err) {
  int rc = cp_buf_append_u32le(b, (uint32_t)(uint64_t)v, err);
  return rc ? rc : cp_buf_append_u32le(b, (uint32_t)((uint64_t)v >> 32), err);
}
