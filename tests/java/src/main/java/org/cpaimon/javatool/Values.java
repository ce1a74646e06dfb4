/*
 * Conversion between Paimon's internal data structures (what Java Paimon's readers return and
 * writers take) and the tool's JSON value form, which Python compares exactly:
 *
 *   BOOLEAN            true / false
 *   TINYINT..BIGINT    integer
 *   FLOAT, DOUBLE      number, text that round-trips the double (a FLOAT is widened to double
 *                      first, as pyarrow's to_pylist does); NaN / Infinity / -Infinity literals
 *                      (Python's json module reads them; as input the strings "NaN" etc. also do)
 *   DECIMAL(p, s)      string, plain notation with exactly s fraction digits ("-1.50")
 *   CHAR, VARCHAR      string
 *   BINARY, VARBINARY  string, standard base64
 *   DATE               "YYYY-MM-DD"
 *   TIME(p)            "HH:MM:SS.fff" (milliseconds, which is what Paimon stores)
 *   TIMESTAMP(p)       "YYYY-MM-DDTHH:MM:SS.ffffff", nine fraction digits when p > 6
 *   TIMESTAMP_LTZ(p)   the same in UTC, followed by "Z"
 *   ARRAY              JSON array
 *   MAP                JSON array of [key, value] pairs in stored order (keys need not be strings)
 *   ROW                JSON object, fields in declaration order
 *
 * Writing accepts the same forms; numbers are also accepted for DECIMAL, and a JSON object for a
 * MAP whose keys are strings. Errors name the column path and the offending value.
 */
package org.cpaimon.javatool;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Values {
    private Values() {}

    // ---- internal -> JSON ----

    /** Appends the JSON form of {@code v}, a value of Paimon's internal representation. */
    static void render(StringBuilder sb, Object v, DataType type) {
        if (v == null) {
            sb.append("null");
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                sb.append(v);
                return;
            case FLOAT:
                Json.writeDouble(sb, (double) (Float) v);
                return;
            case DOUBLE:
                Json.writeDouble(sb, (Double) v);
                return;
            case DECIMAL:
                Json.writeString(sb, ((Decimal) v).toBigDecimal().toPlainString());
                return;
            case CHAR:
            case VARCHAR:
                Json.writeString(sb, v.toString());
                return;
            case BINARY:
            case VARBINARY:
                Json.writeString(sb, Base64.getEncoder().encodeToString((byte[]) v));
                return;
            case BLOB:
                Json.writeString(
                        sb,
                        Base64.getEncoder()
                                .encodeToString(((org.apache.paimon.data.Blob) v).toData()));
                return;
            case DATE:
                Json.writeString(sb, LocalDate.ofEpochDay((Integer) v).toString());
                return;
            case TIME_WITHOUT_TIME_ZONE:
                Json.writeString(sb, formatTime((Integer) v));
                return;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                Json.writeString(
                        sb,
                        formatTimestamp(
                                ((Timestamp) v).toLocalDateTime(),
                                ((TimestampType) type).getPrecision()));
                return;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                Json.writeString(
                        sb,
                        formatTimestamp(
                                        ((Timestamp) v).toLocalDateTime(),
                                        ((LocalZonedTimestampType) type).getPrecision())
                                + "Z");
                return;
            case ARRAY:
                renderArray(sb, (InternalArray) v, ((ArrayType) type).getElementType());
                return;
            case MAP:
                renderMap(sb, (InternalMap) v, (MapType) type);
                return;
            case ROW:
                renderRow(sb, (InternalRow) v, (RowType) type);
                return;
            default:
                throw new IllegalArgumentException("type " + type + " is not supported by the tool");
        }
    }

    /** The row as one JSON object of all the fields of {@code type}. */
    static void renderRow(StringBuilder sb, InternalRow row, RowType type) {
        sb.append('{');
        List<DataField> fields = type.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            DataField f = fields.get(i);
            Json.writeString(sb, f.name());
            sb.append(':');
            render(sb, InternalRow.createFieldGetter(f.type(), i).getFieldOrNull(row), f.type());
        }
        sb.append('}');
    }

    private static void renderArray(StringBuilder sb, InternalArray a, DataType elem) {
        InternalArray.ElementGetter getter = InternalArray.createElementGetter(elem);
        sb.append('[');
        for (int i = 0; i < a.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            render(sb, getter.getElementOrNull(a, i), elem);
        }
        sb.append(']');
    }

    private static void renderMap(StringBuilder sb, InternalMap m, MapType type) {
        InternalArray keys = m.keyArray();
        InternalArray values = m.valueArray();
        InternalArray.ElementGetter kg = InternalArray.createElementGetter(type.getKeyType());
        InternalArray.ElementGetter vg = InternalArray.createElementGetter(type.getValueType());
        sb.append('[');
        for (int i = 0; i < m.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('[');
            render(sb, kg.getElementOrNull(keys, i), type.getKeyType());
            sb.append(',');
            render(sb, vg.getElementOrNull(values, i), type.getValueType());
            sb.append(']');
        }
        sb.append(']');
    }

    private static String formatTime(int millisOfDay) {
        LocalTime t = LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L);
        return String.format(
                "%02d:%02d:%02d.%03d",
                t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1_000_000);
    }

    private static String formatTimestamp(LocalDateTime t, int precision) {
        String fraction =
                precision > 6
                        ? String.format("%09d", t.getNano())
                        : String.format("%06d", t.getNano() / 1000);
        return String.format(
                "%04d-%02d-%02dT%02d:%02d:%02d.%s",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond(),
                fraction);
    }

    // ---- JSON -> internal ----

    /** The internal value for JSON value {@code v} of column {@code path} with type {@code type}. */
    static Object toInternal(Object v, DataType type, String path) {
        if (v == null) {
            if (!type.isNullable()) {
                throw new IllegalArgumentException("column " + path + " is NOT NULL but got null");
            }
            return null;
        }
        try {
            return convert(v, type, path);
        } catch (ClassCastException | ArithmeticException | DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "column " + path + " (" + type + "): cannot convert " + Json.write(shorten(v))
                            + ": " + e.getMessage(),
                    e);
        }
    }

    private static Object shorten(Object v) {
        return v instanceof String && ((String) v).length() > 60
                ? ((String) v).substring(0, 60) + "..."
                : v;
    }

    private static Object convert(Object v, DataType type, String path) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (Boolean) v;
            case TINYINT:
                return ((BigDecimal) v).byteValueExact();
            case SMALLINT:
                return ((BigDecimal) v).shortValueExact();
            case INTEGER:
                return ((BigDecimal) v).intValueExact();
            case BIGINT:
                return ((BigDecimal) v).longValueExact();
            case FLOAT:
                return (float) toDouble(v);
            case DOUBLE:
                return toDouble(v);
            case DECIMAL:
                return toDecimal(v, (DecimalType) type);
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString((String) v);
            case BINARY:
            case VARBINARY:
                return Base64.getDecoder().decode((String) v);
            case DATE:
                return (int) LocalDate.parse((String) v).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (LocalTime.parse((String) v).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromLocalDateTime(LocalDateTime.parse((String) v));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                java.time.Instant instant =
                        LocalDateTime.parse(stripZone((String) v)).toInstant(ZoneOffset.UTC);
                return Timestamp.fromEpochMillis(
                        instant.toEpochMilli(), instant.getNano() % 1_000_000);
            case ARRAY:
                return toArray(v, ((ArrayType) type).getElementType(), path);
            case MAP:
                return toMap(v, (MapType) type, path);
            case ROW:
                return toRow(v, (RowType) type, path);
            default:
                throw new IllegalArgumentException(
                        "column " + path + ": type " + type + " is not supported by the tool");
        }
    }

    private static double toDouble(Object v) {
        if (v instanceof Double) {
            return (Double) v;
        }
        if (v instanceof String) {
            // The rendered form of non-finite values also round-trips as input.
            switch ((String) v) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                case "-0.0":
                    // JSON numbers go through BigDecimal, which has no negative zero.
                    return -0.0;
                default:
                    throw new ClassCastException("not a number: " + v);
            }
        }
        return ((BigDecimal) v).doubleValue();
    }

    private static Decimal toDecimal(Object v, DecimalType type) {
        BigDecimal bd = v instanceof String ? new BigDecimal((String) v) : (BigDecimal) v;
        // Exact: a value that needs more fraction digits than the scale is an error, not rounded.
        bd = bd.setScale(type.getScale(), RoundingMode.UNNECESSARY);
        Decimal d = Decimal.fromBigDecimal(bd, type.getPrecision(), type.getScale());
        if (d == null) {
            throw new ArithmeticException("does not fit precision " + type.getPrecision());
        }
        return d;
    }

    private static String stripZone(String s) {
        if (s.endsWith("Z")) {
            return s.substring(0, s.length() - 1);
        }
        if (s.endsWith("+00:00")) {
            return s.substring(0, s.length() - 6);
        }
        throw new DateTimeParseException("expected a UTC time ending in Z", s, s.length());
    }

    @SuppressWarnings("unchecked")
    private static GenericArray toArray(Object v, DataType elem, String path) {
        List<Object> list = (List<Object>) v;
        Object[] out = new Object[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = toInternal(list.get(i), elem, path + "[" + i + "]");
        }
        return new GenericArray(out);
    }

    @SuppressWarnings("unchecked")
    private static GenericMap toMap(Object v, MapType type, String path) {
        // Insertion order is kept so the file stores the entries in the order given.
        Map<Object, Object> out = new LinkedHashMap<>();
        if (v instanceof Map) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                out.put(
                        toInternal(e.getKey(), type.getKeyType(), path + ".key"),
                        toInternal(e.getValue(), type.getValueType(), path + "." + e.getKey()));
            }
            return new GenericMap(out);
        }
        for (Object pair : (List<Object>) v) {
            List<Object> kv = (List<Object>) pair;
            if (kv.size() != 2) {
                throw new IllegalArgumentException(
                        "column " + path + ": map entries are [key, value] pairs");
            }
            out.put(
                    toInternal(kv.get(0), type.getKeyType(), path + ".key"),
                    toInternal(kv.get(1), type.getValueType(), path + ".value"));
        }
        return new GenericMap(out);
    }

    @SuppressWarnings("unchecked")
    static GenericRow toRow(Object v, RowType type, String path) {
        Map<String, Object> obj = (Map<String, Object>) v;
        List<DataField> fields = type.getFields();
        GenericRow row = new GenericRow(fields.size());
        for (String key : obj.keySet()) {
            if (type.getFieldIndex(key) < 0) {
                throw new IllegalArgumentException(
                        (path.isEmpty() ? "row" : "column " + path) + " has unknown field '" + key
                                + "'; fields are " + type.getFieldNames());
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            DataField f = fields.get(i);
            String sub = path.isEmpty() ? f.name() : path + "." + f.name();
            row.setField(i, toInternal(obj.get(f.name()), f.type(), sub));
        }
        return row;
    }

    /** Helper for callers that collect lists of parsed rows. */
    static List<GenericRow> toRows(List<Object> objects, RowType type) {
        List<GenericRow> rows = new ArrayList<>(objects.size());
        for (Object o : objects) {
            rows.add(toRow(o, type, ""));
        }
        return rows;
    }
}
