/*
 * Avro object container file reader (Avro 1.11 specification, "Object Container Files";
 * spec/format.md §4.1 and §4.7 for the codecs Paimon uses). See container.h for the checks made on
 * untrusted files; the order matters: sizes are checked against the file, decompression is
 * bounded, and counts are checked against the decompressed bytes before any record is allocated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/avro/binary.h"
#include "format/avro/container.h"

static const uint8_t avro_magic[4] = {'O', 'b', 'j', 1};

typedef struct meta_kv {
  const char *key;
  const uint8_t *value;
  size_t len;
} meta_kv;

struct cp_avro_reader {
  char *name;
  cp_buf owned; /* the file's bytes when the reader read them itself */
  const uint8_t *data;
  size_t len;
  cp_avro_reader_options opts;
  cp_avro_schema *writer_schema;
  const cp_avro_node *record_schema;
  cp_avro_resolver *resolver;
  const char *codec_name;
  cp_codec codec;
  uint8_t sync[CP_AVRO_SYNC_SIZE];
  cp_arena header_arena;
  meta_kv *meta;
  size_t n_meta;
  size_t pos;        /* offset of the next block */
  size_t next_block; /* index of the next block */
  bool failed;
  /* The current block. */
  cp_buf inflated;
  cp_codec_ctx *codec_ctx; /* decompression state kept across blocks (created on first use) */
  cp_arena block_arena;
  cp_avro_block block;
  cp_avro_value *records;
  size_t consumed; /* records of the current block already returned */
};

int cp_avro_codec_from_name(const char *name, cp_codec *out, paimon_error *err) {
  if (strcmp(name, "null") == 0)
    *out = CP_CODEC_NONE;
  else if (strcmp(name, "deflate") == 0)
    *out = CP_CODEC_DEFLATE;
  else if (strcmp(name, "snappy") == 0)
    *out = CP_CODEC_SNAPPY;
  else if (strcmp(name, "zstandard") == 0 || strcmp(name, "zstd") == 0)
    *out = CP_CODEC_ZSTD;
  else
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "Avro codec '%s' is not supported", name);
  return 0;
}

/* ---- header ---- */

static int read_meta_entry(cp_avro_reader *r, cp_avro_cursor *c, paimon_error *err) {
  const uint8_t *key, *value;
  size_t key_len, value_len;
  CP_RETURN_IF_ERROR(cp_avro_read_bytes(c, &key, &key_len, err));
  CP_RETURN_IF_ERROR(cp_avro_read_bytes(c, &value, &value_len, err));
  char *k = cp_arena_strndup(&r->header_arena, (const char *)key, key_len);
  if (!k) return CP_ENOMEM(err, "Avro header");
  r->meta[r->n_meta++] = (meta_kv){k, value, value_len};
  return 0;
}

/* The metadata map: blocks of (count, entries) ended by a zero count, like any Avro map. */
static int read_meta(cp_avro_reader *r, cp_avro_cursor *c, paimon_error *err) {
  size_t cap = 0;
  for (;;) {
    size_t at = cp_avro_cursor_offset(c);
    int64_t n;
    CP_RETURN_IF_ERROR(cp_avro_read_long(c, &n, err));
    if (n == 0) return 0;
    if (n < 0) {
      int64_t block_size;
      if (n == INT64_MIN) return paimon_error_set(err, PAIMON_ECORRUPT, "bad metadata count");
      n = -n;
      CP_RETURN_IF_ERROR(cp_avro_read_long(c, &block_size, err));
    }
    /* Each entry is at least two length bytes. */
    if ((uint64_t)n > cp_avro_cursor_remaining(c) / 2)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "at byte %zu: %lld metadata entries cannot fit in the file", at,
                              (long long)n);
    if (r->n_meta + (size_t)n > cap) {
      size_t new_cap = r->n_meta + (size_t)n;
      meta_kv *grown = cp_arena_alloc(&r->header_arena, new_cap * sizeof *grown);
      if (!grown) return CP_ENOMEM(err, "Avro header");
      if (r->n_meta) memcpy(grown, r->meta, r->n_meta * sizeof *grown);
      r->meta = grown;
      cap = new_cap;
    }
    for (int64_t i = 0; i < n; i++) CP_RETURN_IF_ERROR(read_meta_entry(r, c, err));
  }
}

static int setup_schemas(cp_avro_reader *r, paimon_error *err) {
  const uint8_t *text;
  size_t text_len;
  if (!cp_avro_reader_meta_get(r, "avro.schema", &text, &text_len))
    return paimon_error_set(err, PAIMON_ECORRUPT, "header has no avro.schema");
  int rc =
      cp_avro_schema_parse(&r->writer_schema, (const char *)text, text_len, "avro.schema", err);
  if (rc == PAIMON_EINVAL) { /* a bad schema inside a file is a corrupt file */
    rc = PAIMON_ECORRUPT;
    if (err) err->code = rc;
  }
  if (rc) return rc;
  r->record_schema = cp_avro_schema_root(r->writer_schema);
  if (r->opts.reader_schema) {
    rc = cp_avro_resolver_new(&r->resolver, r->record_schema, r->opts.reader_schema, err);
    if (rc) {
      paimon_error_prefix(err, "reader schema does not match the file's");
      return rc;
    }
    r->record_schema = r->opts.reader_schema;
  }
  const uint8_t *codec;
  size_t codec_len;
  r->codec_name = "null";
  if (cp_avro_reader_meta_get(r, "avro.codec", &codec, &codec_len)) {
    char *name = cp_arena_strndup(&r->header_arena, (const char *)codec, codec_len);
    if (!name) return CP_ENOMEM(err, "Avro header");
    r->codec_name = name;
  }
  return cp_avro_codec_from_name(r->codec_name, &r->codec, err);
}

static int read_header(cp_avro_reader *r, paimon_error *err) {
  if (r->len < sizeof avro_magic || memcmp(r->data, avro_magic, sizeof avro_magic) != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "not an Avro container file (bad magic at offset 0)");
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, r->data, r->len);
  c.pos += sizeof avro_magic;
  int rc = read_meta(r, &c, err);
  const uint8_t *sync;
  if (!rc) rc = cp_avro_read_raw(&c, CP_AVRO_SYNC_SIZE, &sync, err);
  if (rc) {
    paimon_error_prefix(err, "header");
    return rc;
  }
  memcpy(r->sync, sync, CP_AVRO_SYNC_SIZE);
  r->pos = cp_avro_cursor_offset(&c);
  return setup_schemas(r, err);
}

int cp_avro_reader_open_mem(cp_avro_reader **out, const char *name, const void *data, size_t len,
                            const cp_avro_reader_options *opts, paimon_error *err) {
  *out = NULL;
  cp_avro_reader *r = calloc(1, sizeof *r);
  if (!r || !(r->name = strdup(name ? name : "(memory)"))) {
    free(r);
    return CP_ENOMEM(err, "Avro reader");
  }
  if (opts) r->opts = *opts;
  if (!r->opts.max_block_bytes) r->opts.max_block_bytes = CP_AVRO_DEFAULT_MAX_BLOCK_BYTES;
  r->data = data;
  r->len = len;
  int rc = read_header(r, err);
  if (rc) {
    paimon_error_prefix(err, "%s", r->name);
    cp_avro_reader_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

int cp_avro_reader_open_file(cp_avro_reader **out, cp_fs *fs, const char *path,
                             const cp_avro_reader_options *opts, paimon_error *err) {
  *out = NULL;
  size_t max = opts && opts->max_file_bytes ? opts->max_file_bytes : CP_AVRO_DEFAULT_MAX_FILE_BYTES;
  cp_buf bytes = CP_BUF_INIT;
  int rc = cp_fs_read_file(fs, path, &bytes, max, err);
  if (!rc) rc = cp_avro_reader_open_mem(out, path, bytes.data, bytes.len, opts, err);
  if (rc) {
    cp_buf_free(&bytes);
    return rc;
  }
  (*out)->owned = bytes;
  return 0;
}

void cp_avro_reader_free(cp_avro_reader *r) {
  if (!r) return;
  cp_avro_resolver_free(r->resolver);
  cp_avro_schema_free(r->writer_schema);
  cp_arena_free(&r->header_arena);
  cp_arena_free(&r->block_arena);
  cp_buf_free(&r->inflated);
  cp_codec_ctx_free(r->codec_ctx);
  cp_buf_free(&r->owned);
  free(r->name);
  free(r);
}

const cp_avro_schema *cp_avro_reader_writer_schema(const cp_avro_reader *r) {
  return r->writer_schema;
}
const cp_avro_node *cp_avro_reader_record_schema(const cp_avro_reader *r) {
  return r->record_schema;
}
const char *cp_avro_reader_codec(const cp_avro_reader *r) { return r->codec_name; }
const uint8_t *cp_avro_reader_sync(const cp_avro_reader *r) { return r->sync; }
size_t cp_avro_reader_meta_count(const cp_avro_reader *r) { return r->n_meta; }

void cp_avro_reader_meta_at(const cp_avro_reader *r, size_t i, const char **key,
                            const uint8_t **value, size_t *len) {
  *key = r->meta[i].key;
  *value = r->meta[i].value;
  *len = r->meta[i].len;
}

bool cp_avro_reader_meta_get(const cp_avro_reader *r, const char *key, const uint8_t **value,
                             size_t *len) {
  for (size_t i = r->n_meta; i-- > 0;) { /* the last of duplicate keys wins, as in a map */
    if (strcmp(r->meta[i].key, key) == 0) {
      *value = r->meta[i].value;
      *len = r->meta[i].len;
      return true;
    }
  }
  return false;
}

/* ---- blocks ---- */

static uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* fastavro writes a deflate block as zlib.compress(data)[2:-1]: the raw stream followed by three
 * bytes of the zlib Adler-32 trailer, which Python's and Java's inflaters ignore. cp_codec refuses
 * bytes after the end of a stream, so when a deflate block fails, retry without up to four
 * trailing bytes; if none of those decode, the block's own error stands. */
/* Decompresses src into the reader's buffer (or points at src for the null codec). */
static int inflate_block(cp_avro_reader *r, const uint8_t *src, size_t n, paimon_error *err) {
  size_t max = r->opts.max_block_bytes;
  cp_buf_clear(&r->inflated);
  if (r->codec == CP_CODEC_NONE) {
    if (n > max)
      return paimon_error_set(err, PAIMON_ECORRUPT, "block of %zu bytes exceeds the %zu-byte limit",
                              n, max);
    r->block.data = src;
    r->block.len = n;
    return 0;
  }
  size_t body = n;
  if (r->codec == CP_CODEC_SNAPPY) {
    if (n < 4) return paimon_error_set(err, PAIMON_ECORRUPT, "snappy block shorter than its CRC");
    body = n - 4;
  }
  if (!r->codec_ctx) CP_RETURN_IF_ERROR(cp_codec_ctx_new(&r->codec_ctx, err));
  int rc = cp_decompress_append_ctx(r->codec_ctx, r->codec, src, body, &r->inflated, max, err);
  if (rc) return rc;
  if (r->codec == CP_CODEC_SNAPPY) {
    uint32_t want = load_be32(src + body);
    uint32_t got = cp_crc32(0, r->inflated.data, r->inflated.len);
    if (want != got)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "snappy CRC mismatch (stored %08x, computed %08x)", want, got);
  }
  r->block.data = r->inflated.data;
  r->block.len = r->inflated.len;
  return 0;
}

/* Reads the block framing at `pos`: count, size, the sync marker after the data; *next is where
 * the following block starts. Changes nothing in the reader. */
static int frame_at(const cp_avro_reader *r, size_t pos, int64_t *count, const uint8_t **payload,
                    size_t *payload_len, size_t *next, paimon_error *err) {
  *count = 0;
  *payload = NULL;
  *payload_len = 0;
  *next = pos;
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, r->data, r->len);
  c.pos += pos;
  int64_t size;
  CP_RETURN_IF_ERROR(cp_avro_read_long(&c, count, err));
  CP_RETURN_IF_ERROR(cp_avro_read_long(&c, &size, err));
  if (*count < 0 || size < 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "negative record count %lld or size %lld",
                            (long long)*count, (long long)size);
  size_t left = cp_avro_cursor_remaining(&c);
  if ((uint64_t)size > left || left - (size_t)size < CP_AVRO_SYNC_SIZE)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "block size %lld and sync marker exceed the %zu bytes left in the file",
                            (long long)size, left);
  *payload = c.pos;
  *payload_len = (size_t)size;
  const uint8_t *sync = c.pos + size;
  if (memcmp(sync, r->sync, CP_AVRO_SYNC_SIZE) != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "sync marker mismatch at offset %zu",
                            (size_t)(sync - r->data));
  *next = (size_t)(sync - r->data) + CP_AVRO_SYNC_SIZE;
  return 0;
}

static int frame_block(cp_avro_reader *r, const uint8_t **payload, size_t *payload_len,
                       paimon_error *err) {
  int64_t count = 0;
  size_t next = r->pos;
  CP_RETURN_IF_ERROR(frame_at(r, r->pos, &count, payload, payload_len, &next, err));
  r->block.count = (size_t)count;
  r->pos = next;
  return 0;
}

int cp_avro_reader_count_records(const cp_avro_reader *r, uint64_t *count, paimon_error *err) {
  *count = 0;
  for (size_t pos = r->pos, i = r->next_block; pos < r->len; i++) {
    int64_t n = 0;
    const uint8_t *payload = NULL;
    size_t len = 0;
    int rc = frame_at(r, pos, &n, &payload, &len, &pos, err);
    if (rc) {
      paimon_error_prefix(err, "%s: block %zu", r->name, i);
      return rc;
    }
    *count += (uint64_t)n;
  }
  return 0;
}

int cp_avro_reader_peek_block(const cp_avro_reader *r, size_t *count, bool *has_block,
                              paimon_error *err) {
  *has_block = false;
  *count = 0;
  if (r->failed || r->pos >= r->len) return 0;
  int64_t n = 0;
  const uint8_t *payload = NULL;
  size_t len = 0, next = 0;
  int rc = frame_at(r, r->pos, &n, &payload, &len, &next, err);
  if (rc) {
    paimon_error_prefix(err, "%s: block %zu", r->name, r->next_block);
    return rc;
  }
  *count = (size_t)n;
  *has_block = true;
  return 0;
}

int cp_avro_reader_skip_block(cp_avro_reader *r, size_t *count, bool *has_block,
                              paimon_error *err) {
  *has_block = false;
  *count = 0;
  if (r->failed)
    return paimon_error_set(err, PAIMON_ESTATE, "%s: reading stopped at an earlier error", r->name);
  if (r->pos >= r->len) return 0;
  memset(&r->block, 0, sizeof r->block);
  r->records = NULL;
  r->consumed = 0;
  const uint8_t *payload;
  size_t len;
  int rc = frame_block(r, &payload, &len, err);
  if (rc) {
    r->failed = true;
    paimon_error_prefix(err, "%s: block %zu", r->name, r->next_block);
    return rc;
  }
  *count = r->block.count;
  r->block.count = 0;
  r->next_block++;
  *has_block = true;
  return 0;
}

/* A count no block of this many bytes can hold is refused before allocating records for it. */
static int check_record_count(cp_avro_reader *r, paimon_error *err) {
  size_t min =
      r->resolver ? cp_avro_schema_root(r->writer_schema)->min_size : r->record_schema->min_size;
  uint64_t zero_budget = r->opts.limits.max_zero_width_items ? r->opts.limits.max_zero_width_items
                                                             : CP_AVRO_DEFAULT_MAX_ZERO_WIDTH_ITEMS;
  bool ok = min ? r->block.count <= r->block.len / min : r->block.count <= zero_budget;
  if (!ok)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%zu records cannot fit in the block's %zu bytes",
                            r->block.count, r->block.len);
  return 0;
}

static int decode_records(cp_avro_reader *r, paimon_error *err) {
  if (!r->opts.retain_records) {
    cp_arena_free(&r->block_arena);
    r->block_arena = (cp_arena)CP_ARENA_INIT;
  }
  r->records = NULL;
  if (r->block.count) {
    r->records = cp_arena_alloc(&r->block_arena, r->block.count * sizeof *r->records);
    if (!r->records) return CP_ENOMEM(err, "Avro block");
  }
  cp_avro_cursor c;
  cp_avro_cursor_init(&c, r->block.data, r->block.len);
  cp_avro_decoder d;
  cp_avro_decoder_init(&d, &c, &r->block_arena, &r->opts.limits);
  for (size_t i = 0; i < r->block.count; i++) {
    int rc = r->resolver ? cp_avro_resolver_decode(r->resolver, &d, &r->records[i], err)
                         : cp_avro_decode(&d, r->record_schema, &r->records[i], err);
    if (rc) {
      paimon_error_prefix(err, "record %zu", i);
      return rc;
    }
  }
  if (cp_avro_cursor_remaining(&c))
    return paimon_error_set(err, PAIMON_ECORRUPT, "%zu bytes left over after %zu records",
                            cp_avro_cursor_remaining(&c), r->block.count);
  r->block.records = r->records;
  return 0;
}

/* Loads (and optionally decodes) the next block; *has = false at the end of the file. */
static int load_block(cp_avro_reader *r, bool decode, bool *has, paimon_error *err) {
  if (r->failed)
    return paimon_error_set(err, PAIMON_ESTATE, "%s: reading stopped at an earlier error", r->name);
  *has = false;
  r->consumed = 0;
  memset(&r->block, 0, sizeof r->block);
  r->records = NULL;
  if (r->pos >= r->len) return 0;
  r->block.index = r->next_block;
  r->block.file_offset = r->pos;
  const uint8_t *payload = NULL;
  size_t payload_len = 0;
  int rc = frame_block(r, &payload, &payload_len, err);
  if (!rc) rc = inflate_block(r, payload, payload_len, err);
  if (!rc) rc = check_record_count(r, err);
  if (!rc && decode) rc = decode_records(r, err);
  if (rc) {
    r->failed = true;
    r->records = NULL; /* nothing of a block that failed may be returned later */
    r->block.count = 0;
    paimon_error_prefix(err, "%s: block %zu at offset %llu", r->name, r->block.index,
                        (unsigned long long)r->block.file_offset);
    return rc;
  }
  r->next_block++;
  *has = true;
  return 0;
}

int cp_avro_reader_next(cp_avro_reader *r, const cp_avro_value **out, paimon_error *err) {
  *out = NULL;
  while (!r->records || r->consumed >= r->block.count) {
    bool has = false;
    CP_RETURN_IF_ERROR(load_block(r, true, &has, err));
    if (!has) return 0;
  }
  *out = &r->records[r->consumed++];
  return 0;
}

int cp_avro_reader_next_block(cp_avro_reader *r, cp_avro_block *out, bool *has_block,
                              paimon_error *err) {
  *has_block = false;
  if (!r->records || r->consumed >= r->block.count) {
    bool has = false;
    CP_RETURN_IF_ERROR(load_block(r, true, &has, err));
    if (!has) return 0;
  }
  *out = r->block;
  out->records = r->records + r->consumed;
  out->count = r->block.count - r->consumed;
  r->consumed = r->block.count;
  *has_block = true;
  return 0;
}

int cp_avro_reader_next_raw_block(cp_avro_reader *r, cp_avro_block *out, bool *has_block,
                                  paimon_error *err) {
  CP_RETURN_IF_ERROR(load_block(r, false, has_block, err));
  if (*has_block) {
    *out = r->block;
    out->records = NULL;
  }
  return 0;
}
