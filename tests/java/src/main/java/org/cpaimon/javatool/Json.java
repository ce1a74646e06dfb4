/*
 * A small JSON reader and writer for the tool's input and output (JSON lines of rows, schema
 * documents, batch-mode requests). Written for this harness so the tool depends on nothing but
 * Paimon's public classes.
 *
 * Parsed values: null, Boolean, String, BigDecimal (every number, so BIGINT and DECIMAL values keep
 * every digit), List<Object>, LinkedHashMap<String, Object> (key order kept). Python's json module
 * writes NaN / Infinity / -Infinity for non-finite floats; those literals are accepted and parsed as
 * Double.
 */
package org.cpaimon.javatool;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON document; trailing non-blank text is an error. */
    static Object parse(String text) {
        Json p = new Json(text);
        p.skipBlank();
        Object value = p.value();
        p.skipBlank();
        if (p.pos != text.length()) {
            throw p.error("unexpected trailing text");
        }
        return value;
    }

    private IllegalArgumentException error(String what) {
        int from = Math.max(0, pos - 20);
        int to = Math.min(text.length(), pos + 20);
        return new IllegalArgumentException(
                "malformed JSON at offset " + pos + ": " + what + " near '"
                        + text.substring(from, to) + "'");
    }

    private void skipBlank() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean consume(String word) {
        if (text.startsWith(word, pos)) {
            pos += word.length();
            return true;
        }
        return false;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            default:
                break;
        }
        if (consume("null")) {
            return null;
        }
        if (consume("true")) {
            return Boolean.TRUE;
        }
        if (consume("false")) {
            return Boolean.FALSE;
        }
        if (consume("NaN")) {
            return Double.NaN;
        }
        if (consume("Infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        if (consume("-Infinity")) {
            return Double.NEGATIVE_INFINITY;
        }
        return number();
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipBlank();
        if (consume("}")) {
            return map;
        }
        while (true) {
            skipBlank();
            if (pos >= text.length() || text.charAt(pos) != '"') {
                throw error("expected a string key");
            }
            String key = string();
            skipBlank();
            if (!consume(":")) {
                throw error("expected ':'");
            }
            skipBlank();
            map.put(key, value());
            skipBlank();
            if (consume("}")) {
                return map;
            }
            if (!consume(",")) {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipBlank();
        if (consume("]")) {
            return list;
        }
        while (true) {
            skipBlank();
            list.add(value());
            skipBlank();
            if (consume("]")) {
                return list;
            }
            if (!consume(",")) {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("unterminated escape");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    sb.append(e);
                    break;
                case 'b':
                    sb.append('\b');
                    break;
                case 'f':
                    sb.append('\f');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case 't':
                    sb.append('\t');
                    break;
                case 'u':
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                    break;
                default:
                    throw error("unknown escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        if (start == pos) {
            throw error("unexpected character");
        }
        try {
            return new BigDecimal(text.substring(start, pos));
        } catch (NumberFormatException ex) {
            pos = start;
            throw error("bad number");
        }
    }

    // ---- writing ----

    static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    /** Doubles as Python's json module reads them: shortest round-trip text or NaN/Infinity. */
    static void writeDouble(StringBuilder sb, double d) {
        if (Double.isNaN(d)) {
            sb.append("NaN");
        } else if (Double.isInfinite(d)) {
            sb.append(d > 0 ? "Infinity" : "-Infinity");
        } else {
            sb.append(Double.toString(d));
        }
    }

    /** Writes a parsed-form value (the types {@link #parse} returns, plus Long/Integer/Double). */
    @SuppressWarnings("unchecked")
    static void write(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            writeString(sb, (String) v);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer) {
            sb.append(v);
        } else if (v instanceof BigDecimal) {
            sb.append(((BigDecimal) v).toString());
        } else if (v instanceof Double) {
            writeDouble(sb, (Double) v);
        } else if (v instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object item : (List<Object>) v) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, item);
            }
            sb.append(']');
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeString(sb, e.getKey());
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
        }
    }

    static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v);
        return sb.toString();
    }
}
