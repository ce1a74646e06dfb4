/*
 * The XML reader (xml.h). Object-store responses are small, flat documents, so the parser keeps
 * the current element path and the text of the innermost open element, and nothing else; it
 * refuses DOCTYPE declarations, so no entity a server defines is ever expanded.
 */
#include "base/xml.h"

#include <expat.h>
#include <string.h>

#include "base/buf.h"
#include "base/status.h"

enum { CP_XML_MAX_DEPTH = 32 };

typedef struct xml_state {
  XML_Parser parser;
  cp_buf path;                         /* "a/b/c" */
  size_t starts[CP_XML_MAX_DEPTH + 1]; /* path length before each open element's name */
  int depth;
  cp_buf text; /* character data of the innermost open element */
  cp_xml_element_fn on_element;
  void *ud;
  paimon_error *err;
  int rc;
  const char *what;
} xml_state;

static void stop(xml_state *s, int rc) {
  if (!s->rc) s->rc = rc;
  XML_StopParser(s->parser, XML_FALSE);
}

static void XMLCALL on_start(void *ud, const XML_Char *name, const XML_Char **attrs) {
  xml_state *s = ud;
  if (s->rc) return;
  if (s->depth >= CP_XML_MAX_DEPTH) {
    stop(s, paimon_error_set(s->err, PAIMON_ECORRUPT, "%s: XML nested deeper than %d elements",
                             s->what, CP_XML_MAX_DEPTH));
    return;
  }
  s->starts[s->depth++] = s->path.len;
  int rc = s->path.len ? cp_buf_append(&s->path, "/", 1, s->err) : 0;
  if (!rc) rc = cp_buf_append(&s->path, name, strlen(name), s->err);
  if (!rc) rc = cp_buf_nul_terminate(&s->path, s->err);
  s->text.len = 0;
  if (rc) stop(s, rc);
}

static void XMLCALL on_end(void *ud, const XML_Char *name) {
  xml_state *s = ud;
  if (s->rc) return;
  int rc = cp_buf_nul_terminate(&s->text, s->err);
  if (!rc) rc = cp_buf_nul_terminate(&s->path, s->err);
  if (!rc)
    rc = s->on_element(s->ud, (const char *)s->path.data, (const char *)s->text.data, s->text.len,
                       s->err);
  s->path.len = s->starts[--s->depth];
  s->text.len = 0;
  if (rc) stop(s, rc);
}

static void XMLCALL on_chars(void *ud, const XML_Char *p, int len) {
  xml_state *s = ud;
  if (s->rc) return;
  int rc = cp_buf_append(&s->text, p, (size_t)len, s->err);
  if (rc) stop(s, rc);
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid,
                               const XML_Char *pubid, int has_internal) {
  xml_state *s = ud;
  stop(s, paimon_error_set(s->err, PAIMON_ECORRUPT, "%s: XML with a DOCTYPE is refused", s->what));
}

int cp_xml_parse(const void *data, size_t len, cp_xml_element_fn on_element, void *ud,
                 const char *what, paimon_error *err) {
  xml_state s = {.on_element = on_element, .ud = ud, .err = err, .what = what};
  s.parser = XML_ParserCreate("UTF-8");
  if (!s.parser) return CP_ENOMEM(err, "XML parser");
  XML_SetUserData(s.parser, &s);
  XML_SetElementHandler(s.parser, on_start, on_end);
  XML_SetCharacterDataHandler(s.parser, on_chars);
  XML_SetStartDoctypeDeclHandler(s.parser, on_doctype);
  if (len > (size_t)1 << 30) {
    XML_ParserFree(s.parser);
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: XML response of %zu bytes is too large",
                            what, len);
  }
  enum XML_Status st = XML_Parse(s.parser, data, (int)len, XML_TRUE);
  int rc = s.rc;
  if (!rc && st != XML_STATUS_OK)
    rc = paimon_error_set(err, PAIMON_ECORRUPT, "%s: malformed XML at line %lu, column %lu: %s",
                          what, (unsigned long)XML_GetCurrentLineNumber(s.parser),
                          (unsigned long)XML_GetCurrentColumnNumber(s.parser),
                          XML_ErrorString(XML_GetErrorCode(s.parser)));
  XML_ParserFree(s.parser);
  cp_buf_free(&s.path);
  cp_buf_free(&s.text);
  return rc;
}
