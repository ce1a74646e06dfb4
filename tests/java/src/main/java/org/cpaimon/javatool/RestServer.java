/*
 * rest-server: the reference REST catalog server of Java Paimon 1.4.2
 * (org.apache.paimon.rest.RESTCatalogServer, from paimon-core's tests jar) as a process that
 * cpaimon's tests start and stop.
 *
 *   paimon-tool rest-server --data DIR --warehouse NAME [--prefix P] [--port N]
 *       (--token T | --dlf-access-key-id AK --dlf-access-key-secret SK
 *                    [--dlf-security-token ST] [--dlf-region R])
 *       [--default K=V]... [--override K=V]... [--log FILE]
 *       [--store K=V]... [--data-token K=V]... [--data-token-life-ms N]
 *
 * - Listens on 127.0.0.1 only, on --port (0 or absent: a free port chosen by the system).
 * - --data is the server's warehouse directory (tables at DIR/DB.db/TABLE); --warehouse is the
 *   catalog name clients send as ?warehouse= on GET /v1/config (the server answers the config
 *   call only for that name).
 * - Auth: a bearer token (the server recomputes "Bearer T" and compares), or DLF: the server
 *   recomputes the client's signature from the request and the given key (see DlfVerifier).
 *   A mismatch is a 401 with an empty body (RESTCatalogServer's own check).
 * - The config response has defaults {prefix: P} plus every --default, and overrides from
 *   --override.
 * - --log FILE appends one JSON object a request (method, path with query, headers with the
 *   secrets masked, body, status, response headers and body), in the order they were served.
 * - A request whose handling makes RESTCatalogServer's dispatcher itself throw gets a 500
 *   ErrorResponse with the header X-Cpaimon-Launcher: dispatcher-crashed (see SerialDispatcher);
 *   the bare server would leave the client waiting for its read timeout.
 * - Requests are served one at a time (the mock keeps its catalog in unsynchronised HashMaps;
 *   concurrent commits from several clients would race on them), over as many connections as
 *   the clients open.
 *
 * - --data may name an object store (s3://bucket/path): the server's own catalog (schema files,
 *   snapshots it publishes) then lives there, reached with the file-system options of --store
 *   (s3.endpoint, s3.access-key, ...; never sent to clients). RESTCatalogServer itself only
 *   knows a local warehouse, so the launcher swaps its catalog for one on the store.
 * - --data-token K=V (repeatable) is what GET .../tables/T/token vends for every table, valid
 *   --data-token-life-ms from each request (default 4000000, the mock's own); without it the
 *   mock's dummy token is served. Give --default data-token.enabled=true to make clients use it.
 *
 * When ready, one JSON line goes to stdout:
 *   {"uri":"http://127.0.0.1:PORT","port":PORT,"warehouse":NAME,"prefix":P,"auth":"bear"|"dlf",
 *    "data":DIR,"pid":PID}
 * and nothing else is ever written there. The server stops when stdin reaches end of file or on
 * SIGTERM/SIGINT (exit status 0).
 */
package org.cpaimon.javatool;

import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.CatalogOptions;
import org.apache.paimon.options.Options;
import org.apache.paimon.rest.RESTCatalogServer;
import org.apache.paimon.rest.RESTFileSystemCatalog;
import org.apache.paimon.rest.RESTToken;
import org.apache.paimon.rest.auth.AuthProvider;
import org.apache.paimon.rest.auth.BearTokenAuthProvider;
import org.apache.paimon.rest.responses.ConfigResponse;

import okhttp3.Headers;
import okhttp3.mockwebserver.Dispatcher;
import okhttp3.mockwebserver.MockResponse;
import okhttp3.mockwebserver.MockWebServer;
import okhttp3.mockwebserver.RecordedRequest;
import okio.Buffer;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

final class RestServer {
    private RestServer() {}

    static final String USAGE =
            "usage: paimon-tool rest-server --data DIR --warehouse NAME [--prefix P] [--port N]"
                    + " (--token T | --dlf-access-key-id AK --dlf-access-key-secret SK"
                    + " [--dlf-security-token ST] [--dlf-region R])"
                    + " [--default K=V]... [--override K=V]... [--log FILE]"
                    + " [--store K=V]... [--data-token K=V]... [--data-token-life-ms N]";

    private static final List<String> KNOWN =
            Arrays.asList(
                    "data", "warehouse", "prefix", "port", "token", "dlf-access-key-id",
                    "dlf-access-key-secret", "dlf-security-token", "dlf-region", "default",
                    "override", "log", "store", "data-token", "data-token-life-ms");
    private static final List<String> REPEATABLE =
            Arrays.asList("default", "override", "store", "data-token");

    static void main(String[] argv) throws Exception {
        PrintStream stdout =
                new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true,
                        StandardCharsets.UTF_8);
        // RESTCatalogServer prints stack traces and messages of its own: never onto stdout.
        System.setOut(System.err);

        Map<String, List<String>> args = parse(argv);
        String data = require(args, "data");
        String warehouse = require(args, "warehouse");
        String prefix = one(args, "prefix", "paimon");
        int port = Integer.parseInt(one(args, "port", "0"));

        AuthProvider auth;
        String authName;
        if (args.containsKey("token")) {
            if (args.containsKey("dlf-access-key-id")) {
                throw new IllegalArgumentException("--token and --dlf-* exclude each other");
            }
            auth = new BearTokenAuthProvider(one(args, "token", null));
            authName = "bear";
        } else if (args.containsKey("dlf-access-key-id")) {
            auth =
                    new DlfVerifier(
                            require(args, "dlf-access-key-id"),
                            require(args, "dlf-access-key-secret"),
                            one(args, "dlf-security-token", null),
                            one(args, "dlf-region", "cn-hangzhou"));
            authName = "dlf";
        } else {
            throw new IllegalArgumentException("give --token or --dlf-access-key-id; " + USAGE);
        }

        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("prefix", prefix);
        putAll(defaults, args.get("default"));
        Map<String, String> overrides = new LinkedHashMap<>();
        putAll(overrides, args.get("override"));

        Map<String, String> store = new LinkedHashMap<>();
        putAll(store, args.get("store"));
        boolean onStore = data.contains("://") && !data.startsWith("file:");
        String localData = data;
        if (onStore) {
            // The mock insists on a local warehouse at construction; it is left empty.
            localData = Files.createTempDirectory("rest-server-local-").toString();
        } else {
            Files.createDirectories(Paths.get(data));
        }
        RESTCatalogServer rest =
                new RESTCatalogServer(localData, auth, new ConfigResponse(defaults, overrides),
                        warehouse);
        if (onStore) {
            useStore(rest, data, defaults, store);
        }
        Map<String, String> dataToken = new LinkedHashMap<>();
        putAll(dataToken, args.get("data-token"));
        long tokenLife = Long.parseLong(one(args, "data-token-life-ms", "4000000"));
        MockWebServer web = mockWebServer(rest);
        String logPath = one(args, "log", null);
        Writer log =
                logPath == null
                        ? null
                        : new OutputStreamWriter(new FileOutputStream(logPath, true),
                                StandardCharsets.UTF_8);
        web.setDispatcher(
                new SerialDispatcher(
                        web.getDispatcher(), log, rest, prefix, dataToken, tokenLife));
        web.start(InetAddress.getByName("127.0.0.1"), port);

        AtomicBoolean stopped = new AtomicBoolean(false);
        Runnable stop =
                () -> {
                    if (stopped.compareAndSet(false, true)) {
                        try {
                            web.shutdown();
                        } catch (IOException e) {
                            System.err.println("rest-server: shutdown: " + e);
                        }
                        if (log != null) {
                            synchronized (log) {
                                try {
                                    log.close();
                                } catch (IOException e) {
                                    System.err.println("rest-server: closing the log: " + e);
                                }
                            }
                        }
                    }
                };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "rest-server-stop"));

        Map<String, Object> ready = new LinkedHashMap<>();
        ready.put("uri", "http://127.0.0.1:" + web.getPort());
        ready.put("port", web.getPort());
        ready.put("warehouse", warehouse);
        ready.put("prefix", prefix);
        ready.put("auth", authName);
        ready.put("data", data);
        ready.put("pid", ProcessHandle.current().pid());
        stdout.println(Json.write(ready));

        byte[] sink = new byte[256];
        while (System.in.read(sink) >= 0) {
            // Anything on stdin is ignored; its end stops the server.
        }
        stop.run();
        System.exit(0);
    }

    /**
     * Points RESTCatalogServer's catalog at the warehouse `data` on an object store: a
     * RESTFileSystemCatalog over the store's FileIO (found by scheme, configured by the config
     * defaults plus `store`), set into the server's private fields in place of the local one.
     */
    private static void useStore(
            RESTCatalogServer rest,
            String data,
            Map<String, String> defaults,
            Map<String, String> store)
            throws Exception {
        Options conf = new Options();
        defaults.forEach(conf::setString);
        store.forEach(conf::setString);
        conf.setString(CatalogOptions.WAREHOUSE.key(), data);
        CatalogContext context = CatalogContext.create(conf);
        Path warehouse = new Path(data);
        FileIO fileIO = FileIO.get(warehouse, context);
        RESTFileSystemCatalog catalog = new RESTFileSystemCatalog(fileIO, warehouse, context);
        setField(rest, "catalogContext", context);
        setField(rest, "catalog", catalog);
    }

    private static void setField(Object target, String name, Object value) throws Exception {
        Field f = RESTCatalogServer.class.getDeclaredField(name);
        f.setAccessible(true);
        f.set(target, value);
    }

    /** RESTCatalogServer keeps its MockWebServer private; start() would bind it to "localhost". */
    private static MockWebServer mockWebServer(RESTCatalogServer rest) throws Exception {
        Field f = RESTCatalogServer.class.getDeclaredField("server");
        f.setAccessible(true);
        return (MockWebServer) f.get(rest);
    }

    private static Map<String, List<String>> parse(String[] argv) {
        Map<String, List<String>> args = new LinkedHashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--") || !KNOWN.contains(a.substring(2))) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'; " + USAGE);
            }
            if (i + 1 >= argv.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String name = a.substring(2);
            List<String> values = args.computeIfAbsent(name, k -> new ArrayList<>());
            if (!values.isEmpty() && !REPEATABLE.contains(name)) {
                throw new IllegalArgumentException("option " + a + " given twice");
            }
            values.add(argv[++i]);
        }
        return args;
    }

    private static String one(Map<String, List<String>> args, String name, String fallback) {
        List<String> v = args.get(name);
        return v == null ? fallback : v.get(0);
    }

    private static String require(Map<String, List<String>> args, String name) {
        String v = one(args, name, null);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name + "; " + USAGE);
        }
        return v;
    }

    private static void putAll(Map<String, String> into, List<String> pairs) {
        if (pairs == null) {
            return;
        }
        for (String kv : pairs) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected KEY=VALUE, got '" + kv + "'");
            }
            into.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
    }

    /**
     * Serves one request at a time through RESTCatalogServer's dispatcher and, with a log, writes
     * each exchange as a JSON line.
     */
    static final class SerialDispatcher extends Dispatcher {
        private final Dispatcher inner;
        private final Writer log;
        private final RESTCatalogServer rest;
        private final String prefix;
        private final Map<String, String> dataToken;
        private final long tokenLife;
        private long seq;

        SerialDispatcher(
                Dispatcher inner,
                Writer log,
                RESTCatalogServer rest,
                String prefix,
                Map<String, String> dataToken,
                long tokenLife) {
            this.inner = inner;
            this.log = log;
            this.rest = rest;
            this.prefix = prefix;
            this.dataToken = dataToken;
            this.tokenLife = tokenLife;
        }

        /**
         * With --data-token: before the server answers GET .../databases/D/tables/T/token, the
         * token it will serve for D.T is set to the configured one, valid tokenLife from now.
         */
        private void vendToken(RecordedRequest request) {
            if (dataToken.isEmpty() || !"GET".equals(request.getMethod())) {
                return;
            }
            String path = request.getRequestUrl().encodedPath();
            String head = "/v1/" + (prefix.isEmpty() ? "" : prefix + "/") + "databases/";
            if (!path.startsWith(head) || !path.endsWith("/token")) {
                return;
            }
            String[] parts = path.substring(head.length()).split("/");
            if (parts.length != 4 || !"tables".equals(parts[1])) {
                return;
            }
            Identifier id =
                    Identifier.create(
                            URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
                            URLDecoder.decode(parts[2], StandardCharsets.UTF_8));
            rest.setDataToken(
                    id,
                    new RESTToken(
                            new LinkedHashMap<>(dataToken),
                            System.currentTimeMillis() + tokenLife));
        }

        @Override
        public synchronized MockResponse dispatch(RecordedRequest request)
                throws InterruptedException {
            // The inner dispatcher consumes the body; the log reads a copy.
            String body = log == null ? null : request.getBody().clone().readUtf8();
            MockResponse response;
            try {
                vendToken(request);
                response = inner.dispatch(request);
            } catch (RuntimeException e) {
                response = crashed(e);
            }
            if (log != null) {
                write(request, body, response);
            }
            return response;
        }

        /**
         * RESTCatalogServer's catch-all handler itself throws for some failures (a
         * NullPointerException on e.getCause().getCause() when an exception has a cause without
         * one, e.g. a schema validation error in ALTER TABLE); MockWebServer then drops the
         * exchange and the client waits for its read timeout (pypaimon: 180 s). The launcher
         * answers such a request with a 500 ErrorResponse instead, marked with the header
         * X-Cpaimon-Launcher: dispatcher-crashed so that tests can tell it from the server's
         * own answers.
         */
        private static MockResponse crashed(RuntimeException e) {
            StringBuilder message = new StringBuilder("RESTCatalogServer failed: ");
            message.append(PaimonTool.describe(e));
            System.err.println("rest-server: dispatcher crashed: " + PaimonTool.describe(e));
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("message", message.toString());
            error.put("resourceType", null);
            error.put("resourceName", null);
            error.put("code", 500);
            return new MockResponse()
                    .setResponseCode(500)
                    .addHeader("Content-Type", "application/json")
                    .addHeader("X-Cpaimon-Launcher", "dispatcher-crashed")
                    .setBody(Json.write(error));
        }

        @Override
        public void shutdown() {
            inner.shutdown();
        }

        private void write(RecordedRequest request, String body, MockResponse response) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("seq", ++seq);
            entry.put("method", request.getMethod());
            entry.put("path", request.getPath());
            entry.put("headers", headers(request.getHeaders()));
            entry.put("body", body);
            String status = response.getStatus();
            String[] parts = status.split(" ", 3);
            entry.put("status", parts.length > 1 ? Integer.valueOf(parts[1]) : null);
            entry.put("response_headers", headers(response.getHeaders()));
            Buffer rb = response.getBody();
            entry.put("response_body", rb == null ? null : rb.readUtf8());
            synchronized (log) {
                try {
                    log.write(Json.write(entry));
                    log.write('\n');
                    log.flush();
                } catch (IOException e) {
                    System.err.println("rest-server: writing the log: " + e);
                }
            }
        }

        /** Header name to value (repeated names joined by ", "), with secrets masked. */
        private static Map<String, Object> headers(Headers headers) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < headers.size(); i++) {
                String name = headers.name(i);
                String value = mask(name, headers.value(i));
                Object old = out.get(name);
                out.put(name, old == null ? value : old + ", " + value);
            }
            return out;
        }

        static String mask(String name, String value) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.equals("authorization")) {
                // Keep the scheme and, for DLF, the credential scope; drop the secret part.
                if (value.startsWith("Bearer ")) {
                    return "Bearer <token>";
                }
                int sig = value.indexOf("Signature=");
                if (sig >= 0) {
                    return value.substring(0, sig) + "Signature=<signature>";
                }
                int colon = value.indexOf(':');
                if (value.startsWith("acs ") && colon > 0) {
                    return value.substring(0, colon) + ":<signature>";
                }
                return "<redacted>";
            }
            if (n.endsWith("security-token")) {
                return "<security-token>";
            }
            return value;
        }
    }
}
