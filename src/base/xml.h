/*
 * A small streaming reader of XML responses (S3 listings, errors, multipart results) over expat:
 * each element is reported when it ends, with its path from the root and its own text.
 */
#ifndef CP_BASE_XML_H
#define CP_BASE_XML_H

#include <stddef.h>

#include "cpaimon/error.h"

/* Called at the end of each element: `path` is the '/'-joined names from the root
 * ("ListBucketResult/Contents/Key"), `text` the element's own character data (NUL-terminated,
 * `len` bytes; empty for elements with only children). A non-zero return stops the parse and is
 * returned by cp_xml_parse. */
typedef int (*cp_xml_element_fn)(void *ud, const char *path, const char *text, size_t len,
                                 paimon_error *err);

/* Parses `data`; malformed XML is ECORRUPT naming `what` (e.g. the request) and the position.
 * Documents nested deeper than 32 elements, or with DOCTYPE declarations, are refused. */
int cp_xml_parse(const void *data, size_t len, cp_xml_element_fn on_element, void *ud,
                 const char *what, paimon_error *err);

#endif
