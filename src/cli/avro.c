/*
 * `cpaimon avro`: inspect and rewrite Avro object container files — Paimon's manifests, manifest
 * lists and index manifests (spec/format.md §4). Built on src/format/avro.
 *
 *   cpaimon avro schema FILE              the writer schema from the header (avro.schema)
 *   cpaimon avro cat FILE [--format json] one JSON object per record
 *   cpaimon avro rewrite IN OUT --codec C decode every record and encode it again with codec C
 *
 * JSON output (cp_avro_value_to_json): bytes and fixed are strings whose code points 0-255 are
 * the bytes, written as \u00XX outside printable ASCII (as Avro's JSON encoding does); a union is
 * written as its plain value, not wrapped as {"type": value}, because for Paimon's ["null", T]
 * fields that is what a reader wants to see; logical types are shown as their underlying value
 * (timestamp-millis as a number). Exit status: 0 ok, 1 error, 2 usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fs.h"
#include "base/status.h"
#include "cli/cli.h"
#include "format/avro/container.h"

static const char avro_usage[] =
    "usage: cpaimon avro <command> [<args>]\n"
    "\n"
    "Inspect Avro object container files (Paimon manifests, manifest lists, index manifests).\n"
    "\n"
    "  schema FILE                         print the writer schema JSON from the file header\n"
    "  cat FILE [--format json]            print every record as one JSON object per line\n"
    "  rewrite IN OUT --codec CODEC        re-encode every record with CODEC (null, deflate,\n"
    "          [--level N] [--sync-interval BYTES]   snappy, zstandard)\n"
    "\n"
    "Run 'cpaimon avro <command> --help' for details.\n";

static const char schema_usage[] =
    "usage: cpaimon avro schema [--normalized] FILE\n"
    "\n"
    "Prints the avro.schema entry of FILE's header as written. With --normalized, prints the\n"
    "schema as cpaimon parses and writes it (compact JSON, same types, names and attributes).\n";

static const char cat_usage[] =
    "usage: cpaimon avro cat FILE [--format json]\n"
    "\n"
    "Prints each record of FILE as one JSON object per line, in file order. Bytes and fixed\n"
    "values are JSON strings whose code points U+0000-U+00FF are the bytes (non-ASCII as\n"
    "\\u00XX, as in Avro's JSON encoding); a union value is printed as the plain value of its\n"
    "branch (not as {\"type\": value}); logical types print their underlying value; non-finite\n"
    "floats print as NaN, Infinity, -Infinity.\n";

static const char rewrite_usage[] =
    "usage: cpaimon avro rewrite IN OUT --codec null|deflate|snappy|zstandard [--level N]\n"
    "                            [--sync-interval BYTES]\n"
    "\n"
    "Decodes every record of IN and writes it to OUT with the same schema and the chosen codec\n"
    "(level 0 = the codec's default; sync interval default 16000 bytes). Header metadata other\n"
    "than avro.* is copied. OUT is overwritten.\n";

static int usage_error(const char *usage, const char *fmt, const char *arg) {
  fprintf(stderr, "cpaimon avro: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n\n%s", usage);
  return 2;
}

static bool is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

static int fail(const paimon_error *err) {
  fprintf(stderr, "cpaimon avro: %s\n", err->message);
  return 1;
}

static int open_reader(const char *path, cp_fs **fs, cp_avro_reader **r, paimon_error *err) {
  *r = NULL;
  int rc = cp_fs_local_new(fs, err);
  if (!rc) rc = cp_avro_reader_open_file(r, *fs, path, NULL, err);
  return rc;
}

static int cmd_schema(int argc, char **argv) {
  const char *path = NULL;
  bool normalized = false;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) return fputs(schema_usage, stdout), 0;
    if (strcmp(argv[i], "--normalized") == 0)
      normalized = true;
    else if (argv[i][0] == '-' || path)
      return usage_error(schema_usage, "unexpected '%s'", argv[i]);
    else
      path = argv[i];
  }
  if (!path) return usage_error(schema_usage, "%s", "missing FILE");
  cp_fs *fs = NULL;
  cp_avro_reader *r = NULL;
  paimon_error err = {0};
  int rc = open_reader(path, &fs, &r, &err);
  if (!rc) {
    const uint8_t *text;
    size_t len;
    cp_buf out = CP_BUF_INIT;
    if (normalized) {
      const cp_avro_schema *s = cp_avro_reader_writer_schema(r);
      rc = cp_avro_schema_to_json(s, cp_avro_schema_root(s), &out, &err);
    } else if (cp_avro_reader_meta_get(r, "avro.schema", &text, &len)) {
      rc = cp_buf_append(&out, text, len, &err);
    }
    if (!rc) {
      fwrite(out.data, 1, out.len, stdout);
      fputc('\n', stdout);
    }
    cp_buf_free(&out);
  }
  cp_avro_reader_free(r);
  cp_fs_free(fs);
  return rc ? fail(&err) : 0;
}

static int cmd_cat(int argc, char **argv) {
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) return fputs(cat_usage, stdout), 0;
    if (strcmp(argv[i], "--format") == 0) {
      if (i + 1 >= argc) return usage_error(cat_usage, "%s", "--format needs a value");
      if (strcmp(argv[++i], "json") != 0)
        return usage_error(cat_usage, "unknown format '%s' (only json)", argv[i]);
    } else if (argv[i][0] == '-' || path) {
      return usage_error(cat_usage, "unexpected '%s'", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return usage_error(cat_usage, "%s", "missing FILE");
  cp_fs *fs = NULL;
  cp_avro_reader *r = NULL;
  paimon_error err = {0};
  int rc = open_reader(path, &fs, &r, &err);
  cp_buf line = CP_BUF_INIT;
  while (!rc) {
    const cp_avro_value *rec;
    rc = cp_avro_reader_next(r, &rec, &err);
    if (rc || !rec) break;
    cp_buf_clear(&line);
    rc = cp_avro_value_to_json(cp_avro_reader_record_schema(r), rec, &line, &err);
    if (!rc) rc = cp_buf_append(&line, "\n", 1, &err);
    if (!rc) fwrite(line.data, 1, line.len, stdout);
  }
  fflush(stdout);
  cp_buf_free(&line);
  cp_avro_reader_free(r);
  cp_fs_free(fs);
  return rc ? fail(&err) : 0;
}

typedef struct rewrite_args {
  const char *in, *out, *codec;
  int64_t level, sync_interval;
} rewrite_args;

static int parse_rewrite(int argc, char **argv, rewrite_args *a) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (is_help(arg)) return fputs(rewrite_usage, stdout), 0;
    bool takes_value = strcmp(arg, "--codec") == 0 || strcmp(arg, "--level") == 0 ||
                       strcmp(arg, "--sync-interval") == 0;
    if (takes_value && i + 1 >= argc) return usage_error(rewrite_usage, "%s needs a value", arg);
    if (strcmp(arg, "--codec") == 0)
      a->codec = argv[++i];
    else if (strcmp(arg, "--level") == 0) {
      if (cli_parse_int("avro rewrite", "--level", argv[++i], INT32_MIN, INT32_MAX, &a->level))
        return 2;
    } else if (strcmp(arg, "--sync-interval") == 0) {
      if (cli_parse_int("avro rewrite", "--sync-interval", argv[++i], 0, INT32_MAX,
                        &a->sync_interval))
        return 2;
    } else if (arg[0] == '-')
      return usage_error(rewrite_usage, "unknown option '%s'", arg);
    else if (!a->in)
      a->in = arg;
    else if (!a->out)
      a->out = arg;
    else
      return usage_error(rewrite_usage, "unexpected '%s'", arg);
  }
  if (!a->in || !a->out) return usage_error(rewrite_usage, "%s", "need IN and OUT");
  if (!a->codec) return usage_error(rewrite_usage, "%s", "missing --codec");
  cp_codec c;
  if (cp_avro_codec_from_name(a->codec, &c, NULL) != 0)
    return usage_error(rewrite_usage, "unknown codec '%s'", a->codec);
  return -1; /* parsed; go on */
}

/* Header metadata other than avro.* travels with the records. */
static int copy_meta(const cp_avro_reader *r, cp_avro_meta_entry **out, size_t *n) {
  size_t count = cp_avro_reader_meta_count(r);
  *out = calloc(count ? count : 1, sizeof **out);
  *n = 0;
  if (!*out) return -1;
  for (size_t i = 0; i < count; i++) {
    const char *key;
    const uint8_t *val;
    size_t len;
    cp_avro_reader_meta_at(r, i, &key, &val, &len);
    if (strncmp(key, "avro.", 5) != 0) (*out)[(*n)++] = (cp_avro_meta_entry){key, val, len};
  }
  return 0;
}

static int rewrite_records(cp_avro_reader *r, cp_avro_writer *w, paimon_error *err) {
  for (;;) {
    const cp_avro_value *rec;
    int rc = cp_avro_reader_next(r, &rec, err);
    if (rc || !rec) return rc;
    if ((rc = cp_avro_writer_append(w, rec, err))) return rc;
  }
}

static int cmd_rewrite(int argc, char **argv) {
  rewrite_args a = {0};
  int status = parse_rewrite(argc, argv, &a);
  if (status >= 0) return status;
  cp_fs *fs = NULL;
  cp_avro_reader *r = NULL;
  cp_avro_writer *w = NULL;
  cp_wfile *f = NULL;
  cp_avro_meta_entry *meta = NULL;
  size_t n_meta = 0;
  paimon_error err = {0};
  int rc = open_reader(a.in, &fs, &r, &err);
  if (!rc && copy_meta(r, &meta, &n_meta) != 0) rc = CP_ENOMEM(&err, "copying metadata");
  if (!rc) rc = cp_fs_create(fs, a.out, CP_CREATE_OVERWRITE, &f, &err);
  if (!rc) {
    cp_avro_writer_options o = {.codec = a.codec,
                                .level = (int)a.level,
                                .sync_interval = (size_t)a.sync_interval,
                                .meta = meta,
                                .n_meta = n_meta};
    rc = cp_avro_writer_new_file(&w, f, a.out, cp_avro_reader_writer_schema(r), &o, &err);
  }
  if (!rc) rc = rewrite_records(r, w, &err);
  if (!rc) rc = cp_avro_writer_finish(w, NULL, &err);
  cp_avro_writer_free(w);
  if (f) {
    if (rc)
      cp_wfile_abort(f);
    else
      rc = cp_wfile_close(f, &err);
  }
  free(meta);
  cp_avro_reader_free(r);
  cp_fs_free(fs);
  return rc ? fail(&err) : 0;
}

int cli_avro(int argc, char **argv) {
  if (argc < 2) {
    fputs(avro_usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (is_help(cmd) || strcmp(cmd, "help") == 0) return fputs(avro_usage, stdout), 0;
  if (strcmp(cmd, "schema") == 0) return cmd_schema(argc - 1, argv + 1);
  if (strcmp(cmd, "cat") == 0) return cmd_cat(argc - 1, argv + 1);
  if (strcmp(cmd, "rewrite") == 0) return cmd_rewrite(argc - 1, argv + 1);
  return usage_error(avro_usage, "unknown command '%s'", cmd);
}
