/*
 * paimon-tool: Java Paimon (1.4.2, the reference implementation) as a command-line oracle for
 * cpaimon's interop tests (tests/python/test_java_interop.py). Sub-commands:
 *
 *   read WAREHOUSE DB.TABLE [--with-row-tracking] [--snapshot N] [--columns a,b] [--option k=v]...
 *       one JSON object per row, columns in schema order (+ _ROW_ID, _SEQUENCE_NUMBER); a
 *       system table "DB.TABLE$snapshots" (files, schemas, ...) reads its rows the same way
 *   write WAREHOUSE DB.TABLE --json FILE [--schema JSON|@FILE] [--option k=v]...
 *       appends the rows of a JSON-lines file in one commit, creating the database / table from
 *       --schema (Paimon's schema-file form) and --option when the table does not exist
 *   update-by-row-id WAREHOUSE DB.TABLE --json FILE [--columns a,b] [--base-snapshot N]
 *       Java's data-evolution partial write: for every row-id range group touched by the input
 *       rows (each carrying _ROW_ID), one file holding only the updated columns for the whole
 *       range, with the group's first_row_id (what Spark's DataEvolutionTableDataWrite does)
 *   files WAREHOUSE DB.TABLE [--snapshot N]   one JSON object per live data file
 *   schema WAREHOUSE DB.TABLE                  the current schema, Paimon's JSON form
 *   snapshot WAREHOUSE DB.TABLE                the latest snapshot, Paimon's JSON form
 *   history WAREHOUSE DB.TABLE --op OP ...     tags and rollback (History.java)
 *   serve                                      batch mode (below)
 *   rest-server --data DIR --warehouse NAME ...    Java Paimon's reference REST catalog server
 *                                              (RestServer; not available in batch mode)
 *
 * Every table command also takes --catalog KEY=VALUE (repeatable): the catalog is then built from
 * those options, with WAREHOUSE as the "warehouse" option, instead of a FileSystemCatalog on the
 * path WAREHOUSE. With metastore=rest, uri=..., token.provider=bear, token=... (or the dlf.*
 * options) that is Java's RESTCatalog, so the same commands read and write through a REST server:
 *
 *   read NAME db.t --with-row-tracking --catalog metastore=rest --catalog uri=http://127.0.0.1:P
 *        --catalog token.provider=bear --catalog token=T
 *
 * Batch mode keeps one JVM for a whole test session: every stdin line is a JSON array of the
 * arguments of one command; the answer is one stdout line, {"ok":true,"out":TEXT} or
 * {"ok":false,"error":MESSAGE}. Nothing else is written to stdout in that mode.
 *
 * The catalog (a FileSystemCatalog on the local warehouse path, or the --catalog one) is opened
 * afresh (and with its cache off) for every command so that commits made by cpaimon between
 * commands are seen.
 */
package org.cpaimon.javatool;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class PaimonTool {
    private PaimonTool() {}

    static final String USAGE =
            "usage: paimon-tool read|write|update-by-row-id|files|schema|snapshot|history WAREHOUSE"
                    + " DB.TABLE [options] [--catalog KEY=VALUE]... | serve | rest-server ...";

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("serve")) {
            serve();
            return;
        }
        if (args.length >= 1 && args[0].equals("rest-server")) {
            try {
                RestServer.main(Arrays.copyOfRange(args, 1, args.length));
            } catch (Exception | LinkageError e) {
                System.err.println("paimon-tool rest-server: " + describe(e));
                if (System.getenv("PAIMON_TOOL_TRACE") != null) {
                    e.printStackTrace();
                }
                System.exit(2);
            }
            return;
        }
        // UTF-8 whatever the locale (Java 17 follows it; the C locale would mangle strings).
        PrintStream stdout =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
                        StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        try {
            run(args, out);
        } catch (Exception e) {
            stdout.print(out);
            stdout.flush();
            System.err.println("paimon-tool: " + describe(e));
            if (System.getenv("PAIMON_TOOL_TRACE") != null) {
                e.printStackTrace();
            }
            System.exit(1);
        }
        stdout.print(out);
        stdout.flush();
    }

    private static void serve() throws Exception {
        PrintStream protocol =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                        StandardCharsets.UTF_8);
        // Stray prints (libraries) must not corrupt the protocol stream.
        System.setOut(System.err);
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            StringBuilder out = new StringBuilder();
            try {
                Object parsed = Json.parse(line);
                if (!(parsed instanceof List)) {
                    throw new IllegalArgumentException("a request is a JSON array of arguments");
                }
                List<String> args = new ArrayList<>();
                for (Object o : (List<?>) parsed) {
                    args.add(String.valueOf(o));
                }
                run(args.toArray(new String[0]), out);
                answer.put("ok", true);
                answer.put("out", out.toString());
            } catch (Exception | LinkageError e) {
                answer.put("ok", false);
                answer.put("error", describe(e));
            }
            protocol.println(Json.write(answer));
        }
    }

    /** A one-line description naming the exception type and the innermost cause. */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        Throwable t = e;
        while (t != null) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
            if (t.getCause() == t) {
                break;
            }
            t = t.getCause();
        }
        return sb.toString().replace('\n', ' ');
    }

    static void run(String[] argv, StringBuilder out) throws Exception {
        if (argv.length < 3) {
            throw new IllegalArgumentException(USAGE);
        }
        Args args = new Args(Arrays.copyOfRange(argv, 3, argv.length));
        args.checkKnown(argv[0]);
        TableCommands cmd = new TableCommands(argv[1], argv[2], args.all("catalog"));
        switch (argv[0]) {
            case "read":
                cmd.read(args, out);
                break;
            case "write":
                cmd.write(args, out);
                break;
            case "update-by-row-id":
                new RowIdUpdate(cmd).run(args, out);
                break;
            case "files":
                cmd.files(args, out);
                break;
            case "schema":
                cmd.schema(out);
                break;
            case "snapshot":
                cmd.snapshot(out);
                break;
            case "history":
                new History(cmd).run(args, out);
                break;
            default:
                throw new IllegalArgumentException("unknown command '" + argv[0] + "'; " + USAGE);
        }
    }

    /** Options after WAREHOUSE DB.TABLE: flags, "--name value" and repeatable "--option k=v". */
    static final class Args {
        /** The options each command takes; anything else is refused before the command runs. */
        private static final Map<String, List<String>> KNOWN =
                Map.of(
                        "read",
                                List.of("with-row-tracking", "snapshot", "columns", "option", "filter",
                                        "catalog"),
                        "write", List.of("json", "schema", "option", "catalog"),
                        "update-by-row-id",
                                List.of("json", "columns", "base-snapshot", "catalog"),
                        "files", List.of("snapshot", "catalog"),
                        "schema", List.of("catalog"),
                        "snapshot", List.of("catalog"),
                        "history",
                                List.of("op", "tag", "snapshot", "retain-ms", "to", "retain-max",
                                        "retain-min", "older-than-ms", "max-deletes", "dry-run", "option",
                                        "catalog"));

        private final Map<String, List<String>> values = new LinkedHashMap<>();

        Args(String[] argv) {
            for (int i = 0; i < argv.length; i++) {
                String a = argv[i];
                if (!a.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument '" + a + "'");
                }
                String name = a.substring(2);
                String value = null;
                if (!isFlag(name)) {
                    if (i + 1 >= argv.length) {
                        throw new IllegalArgumentException("option " + a + " needs a value");
                    }
                    value = argv[++i];
                }
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            }
        }

        private static boolean isFlag(String name) {
            return name.equals("with-row-tracking");
        }

        boolean flag(String name) {
            return values.containsKey(name);
        }

        String get(String name) {
            List<String> v = values.get(name);
            if (v == null) {
                return null;
            }
            if (v.size() > 1) {
                throw new IllegalArgumentException("option --" + name + " given twice");
            }
            return v.get(0);
        }

        String require(String name) {
            String v = get(name);
            if (v == null) {
                throw new IllegalArgumentException("missing --" + name);
            }
            return v;
        }

        List<String> all(String name) {
            return values.getOrDefault(name, new ArrayList<>());
        }

        void checkKnown(String command) {
            List<String> known = KNOWN.get(command);
            if (known == null) {
                throw new IllegalArgumentException("unknown command '" + command + "'; " + USAGE);
            }
            for (String name : values.keySet()) {
                if (!known.contains(name)) {
                    throw new IllegalArgumentException(
                            "option --" + name + " is not known to '" + command + "'");
                }
            }
        }
    }
}
