/*
 * Avro object container file writer (Avro 1.11 specification, "Object Container Files";
 * spec/format.md §4.6 for the sync interval pypaimon uses, §4.7 for codecs).
 *
 * Records are encoded into an uncompressed block buffer; once it reaches the sync interval the
 * block is compressed and framed (count, size, data, sync). A memory writer keeps the whole file
 * in one cp_buf for the commit path; a file writer hands each framed block to cp_wfile_write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/status.h"
#include "format/avro/binary.h"
#include "format/avro/container.h"

struct cp_avro_writer {
  char *name;
  const cp_avro_schema *schema;
  cp_codec codec;
  int level;
  size_t sync_interval;
  uint8_t sync[CP_AVRO_SYNC_SIZE];
  cp_wfile *file;   /* NULL for a memory writer */
  cp_buf out;       /* memory: the whole file; file: framed bytes not yet written */
  uint64_t written; /* file: bytes already handed to cp_wfile_write */
  cp_buf block;     /* encoded records of the current block */
  size_t block_count;
  uint64_t total_count;
  cp_buf packed;           /* compressed block */
  cp_codec_ctx *codec_ctx; /* compression state kept across blocks (created on first use) */
  bool finished;
};

static int random_sync(uint8_t *sync, paimon_error *err) {
  size_t got = 0;
  while (got < CP_AVRO_SYNC_SIZE) {
    ssize_t n = getrandom(sync + got, CP_AVRO_SYNC_SIZE - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return paimon_error_set(err, PAIMON_EIO, "getrandom for an Avro sync marker: %s",
                              strerror(errno));
    got += (size_t)n;
  }
  return 0;
}

static int write_header(cp_avro_writer *w, const cp_avro_writer_options *opts,
                        const char *codec_name, paimon_error *err) {
  cp_buf schema_text = CP_BUF_INIT;
  int rc = 0;
  if (opts && opts->schema_json)
    rc = cp_buf_append(&schema_text, opts->schema_json, strlen(opts->schema_json), err);
  else
    rc = cp_avro_schema_to_json(w->schema, cp_avro_schema_root(w->schema), &schema_text, err);
  size_t n_meta = opts ? opts->n_meta : 0;
  cp_buf *o = &w->out;
  if (!rc) rc = cp_buf_append(o, "Obj\x01", 4, err);
  if (!rc) rc = cp_avro_write_long(o, (int64_t)(2 + n_meta), err);
  if (!rc) rc = cp_avro_write_string(o, "avro.schema", err);
  if (!rc) rc = cp_avro_write_bytes(o, schema_text.data, schema_text.len, err);
  if (!rc) rc = cp_avro_write_string(o, "avro.codec", err);
  if (!rc) rc = cp_avro_write_string(o, codec_name, err);
  for (size_t i = 0; !rc && i < n_meta; i++) {
    const cp_avro_meta_entry *m = &opts->meta[i];
    if (strncmp(m->key, "avro.", 5) == 0)
      rc = paimon_error_set(err, PAIMON_EINVAL, "metadata key '%s' is reserved", m->key);
    if (!rc) rc = cp_avro_write_string(o, m->key, err);
    if (!rc) rc = cp_avro_write_bytes(o, m->value, m->len, err);
  }
  if (!rc) rc = cp_avro_write_long(o, 0, err);
  if (!rc) rc = cp_buf_append(o, w->sync, CP_AVRO_SYNC_SIZE, err);
  cp_buf_free(&schema_text);
  return rc;
}

/* Hands framed bytes to the file (file writers only). */
static int drain(cp_avro_writer *w, paimon_error *err) {
  if (!w->file || w->out.len == 0) return 0;
  CP_RETURN_IF_ERROR(cp_wfile_write(w->file, w->out.data, w->out.len, err));
  w->written += w->out.len;
  cp_buf_clear(&w->out);
  return 0;
}

static int writer_new(cp_avro_writer **out, cp_wfile *file, const char *name,
                      const cp_avro_schema *schema, const cp_avro_writer_options *opts,
                      paimon_error *err) {
  *out = NULL;
  const char *codec_name = opts && opts->codec ? opts->codec : "null";
  cp_codec codec;
  CP_RETURN_IF_ERROR(cp_avro_codec_from_name(codec_name, &codec, err));
  if (codec == CP_CODEC_ZSTD) codec_name = "zstandard";
  cp_avro_writer *w = calloc(1, sizeof *w);
  if (!w || !(w->name = strdup(name ? name : "(memory)"))) {
    free(w);
    return CP_ENOMEM(err, "Avro writer");
  }
  w->schema = schema;
  w->codec = codec;
  w->level = opts ? opts->level : 0;
  w->sync_interval =
      opts && opts->sync_interval ? opts->sync_interval : CP_AVRO_DEFAULT_SYNC_INTERVAL;
  w->file = file;
  int rc = 0;
  if (opts && opts->sync_marker)
    memcpy(w->sync, opts->sync_marker, CP_AVRO_SYNC_SIZE);
  else
    rc = random_sync(w->sync, err);
  if (!rc) rc = write_header(w, opts, codec_name, err);
  if (!rc) rc = drain(w, err);
  if (rc) {
    paimon_error_prefix(err, "%s", w->name);
    cp_avro_writer_free(w);
    return rc;
  }
  *out = w;
  return 0;
}

int cp_avro_writer_new_mem(cp_avro_writer **out, const char *name, const cp_avro_schema *schema,
                           const cp_avro_writer_options *opts, paimon_error *err) {
  return writer_new(out, NULL, name, schema, opts, err);
}

int cp_avro_writer_new_file(cp_avro_writer **out, cp_wfile *file, const char *name,
                            const cp_avro_schema *schema, const cp_avro_writer_options *opts,
                            paimon_error *err) {
  return writer_new(out, file, name, schema, opts, err);
}

static void store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static int compress_block(cp_avro_writer *w, paimon_error *err) {
  cp_buf_clear(&w->packed);
  if (!w->codec_ctx) CP_RETURN_IF_ERROR(cp_codec_ctx_new(&w->codec_ctx, err));
  CP_RETURN_IF_ERROR(cp_compress_ctx(w->codec_ctx, w->codec, w->level, w->block.data, w->block.len,
                                     &w->packed, err));
  if (w->codec == CP_CODEC_SNAPPY) {
    uint8_t crc[4];
    store_be32(crc, cp_crc32(0, w->block.data, w->block.len));
    CP_RETURN_IF_ERROR(cp_buf_append(&w->packed, crc, 4, err));
  }
  return 0;
}

int cp_avro_writer_flush(cp_avro_writer *w, paimon_error *err) {
  if (w->block_count == 0) return 0;
  const cp_buf *payload = &w->block;
  int rc = 0;
  if (w->codec != CP_CODEC_NONE) {
    rc = compress_block(w, err);
    payload = &w->packed;
  }
  if (!rc) rc = cp_avro_write_long(&w->out, (int64_t)w->block_count, err);
  if (!rc) rc = cp_avro_write_long(&w->out, (int64_t)payload->len, err);
  if (!rc) rc = cp_buf_append(&w->out, payload->data, payload->len, err);
  if (!rc) rc = cp_buf_append(&w->out, w->sync, CP_AVRO_SYNC_SIZE, err);
  if (!rc) rc = drain(w, err);
  if (rc) {
    paimon_error_prefix(err, "%s", w->name);
    return rc;
  }
  cp_buf_clear(&w->block);
  w->block_count = 0;
  return 0;
}

static int check_open(const cp_avro_writer *w, paimon_error *err) {
  if (w->finished)
    return paimon_error_set(err, PAIMON_ESTATE, "%s: writer already finished", w->name);
  return 0;
}

int cp_avro_writer_append(cp_avro_writer *w, const cp_avro_value *record, paimon_error *err) {
  CP_RETURN_IF_ERROR(check_open(w, err));
  int rc = cp_avro_encode(cp_avro_schema_root(w->schema), record, &w->block, err);
  if (rc) {
    paimon_error_prefix(err, "%s: record %llu", w->name, (unsigned long long)w->total_count);
    return rc;
  }
  w->block_count++;
  w->total_count++;
  return w->block.len >= w->sync_interval ? cp_avro_writer_flush(w, err) : 0;
}

int cp_avro_writer_append_encoded(cp_avro_writer *w, const void *data, size_t len, size_t count,
                                  paimon_error *err) {
  CP_RETURN_IF_ERROR(check_open(w, err));
  CP_RETURN_IF_ERROR(cp_buf_append(&w->block, data, len, err));
  w->block_count += count;
  w->total_count += count;
  return w->block.len >= w->sync_interval ? cp_avro_writer_flush(w, err) : 0;
}

uint64_t cp_avro_writer_bytes(const cp_avro_writer *w) { return w->written + w->out.len; }
uint64_t cp_avro_writer_count(const cp_avro_writer *w) { return w->total_count; }

int cp_avro_writer_finish(cp_avro_writer *w, cp_buf *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(check_open(w, err));
  CP_RETURN_IF_ERROR(cp_avro_writer_flush(w, err));
  w->finished = true;
  if (w->file || !out) return 0;
  w->written = w->out.len; /* so cp_avro_writer_bytes still reports the file's size */
  if (out->len == 0) {
    cp_buf_free(out);
    *out = w->out;
    cp_buf_init(&w->out);
    return 0;
  }
  int rc = cp_buf_append(out, w->out.data, w->out.len, err);
  cp_buf_free(&w->out);
  return rc;
}

void cp_avro_writer_free(cp_avro_writer *w) {
  if (!w) return;
  cp_buf_free(&w->out);
  cp_buf_free(&w->block);
  cp_buf_free(&w->packed);
  cp_codec_ctx_free(w->codec_ctx);
  free(w->name);
  free(w);
}
