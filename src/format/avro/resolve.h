/*
 * The resolving reader: decode data written with one schema (the writer's, from the file header)
 * as values shaped by another (the reader's, what the caller's code expects). Avro 1.11
 * specification, "Schema Resolution", with the one rule Paimon's readers add (spec/format.md §4.1):
 * records match fields by *name* (or a reader field's alias) and record names and namespaces are
 * never compared, so manifests written by Java (21 DataFileMeta fields, `record__FILE` names),
 * pypaimon (its own names) and older versions (fewer fields) all read through one reader schema.
 *
 *   - writer fields the reader lacks are skipped;
 *   - reader fields the writer lacks get the field's "default", or null when the reader type is a
 *     union with a null branch and has no default; any other missing field is an error when the
 *     resolver is built;
 *   - promotions: int → long, float, double; long → float, double; float → double;
 *     string ↔ bytes;
 *   - unions: a writer union resolves each branch separately (a branch the reader cannot take
 *     fails only when a datum actually uses it, as the specification says); a non-union writer
 *     type read as a union picks the first reader branch of the same type (preferring the same
 *     name among named types), else the first it can be promoted to;
 *   - enums map symbols by name (unknown symbols take the reader's enum default, else fail when
 *     met); fixed sizes must agree; arrays and maps resolve their items.
 *
 * The resolver is built once per (writer, reader) pair and is immutable afterwards, so one
 * resolver may decode from several threads, each with its own cp_avro_decoder. It borrows both
 * schemas, which must outlive it; decoded values may share default values stored in the resolver,
 * so they too must not outlive it.
 */
#ifndef CP_FORMAT_AVRO_RESOLVE_H
#define CP_FORMAT_AVRO_RESOLVE_H

#include "cpaimon/error.h"
#include "format/avro/schema.h"
#include "format/avro/value.h"

typedef struct cp_avro_resolver cp_avro_resolver;

/* Errors (PAIMON_EINVAL) name the reader field path, e.g. "field _FILE._FILE_SIZE: writer type
 * string cannot be read as long". */
int cp_avro_resolver_new(cp_avro_resolver **out, const cp_avro_node *writer,
                         const cp_avro_node *reader, paimon_error *err);

void cp_avro_resolver_free(cp_avro_resolver *r);

/* Decodes one datum written with the writer schema into a value of the reader schema, allocating
 * in the decoder's arena. Data errors are PAIMON_ECORRUPT; a datum that uses a writer union
 * branch or enum symbol the reader cannot represent is PAIMON_EINVAL. Both name the field. */
int cp_avro_resolver_decode(const cp_avro_resolver *r, cp_avro_decoder *d, cp_avro_value *out,
                            paimon_error *err);

#endif
