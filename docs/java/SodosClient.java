// A complete sodos client in Java 17, with nothing but the JDK (java.net.http).
//
// It posts a JSON tournament (sodos schema) to a running `sodos serve` and prints the
// standings. Build and run:
//
//     javac -d out docs/java/SodosClient.java
//     java -cp out SodosClient docs/json/league.json http://127.0.0.1:8000
//
// The JDK has no JSON parser, so a small one is at the end (objects, arrays, strings,
// numbers kept as their exact decimal text, true, false, null).

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class SodosClient {
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: java SodosClient TOURNAMENT.json [http://127.0.0.1:8000]");
            System.exit(2);
        }
        String base = args.length == 2 ? args[1] : "http://127.0.0.1:8000";
        byte[] tournament = Files.readAllBytes(Path.of(args[0]));

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/standings"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(tournament))
                .build();
        HttpResponse<String> response =
                client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        Map<String, Object> body = asObject(new Json(response.body()).parse());
        if (response.statusCode() != 200) {  // every error names what to fix
            System.err.printf("sodos: %d: %s (field: %s)%n",
                    response.statusCode(), body.get("error"), body.getOrDefault("field", "-"));
            System.exit(1);
        }
        Map<String, Object> about = asObject(body.get("tournament"));
        List<Object> criteria = asArray(body.get("criteria"));
        System.out.printf("%s: standings after round %s (%s)%n",
                about.get("name"), about.get("rounds"), about.get("system"));
        StringBuilder header = new StringBuilder(String.format("%-4s %-12s %-4s", "Pl", "Name", "Rank"));
        for (Object name : criteria) {
            header.append(String.format(" %7s", name));
        }
        System.out.println(header);
        for (Object item : asArray(body.get("standings"))) {
            Map<String, Object> row = asObject(item);
            Map<String, Object> player = asObject(row.get("player"));
            Map<String, Object> values = asObject(row.get("values"));
            String place = row.get("place") + (Boolean.TRUE.equals(row.get("tied")) ? "=" : "");
            StringBuilder line = new StringBuilder(
                    String.format("%-4s %-12s %-4s", place, player.get("name"), player.get("rank")));
            for (Object name : criteria) {
                line.append(String.format(" %7s", ((BigDecimal) values.get(name)).toPlainString()));
            }
            System.out.println(line);
        }
        for (Object warning : asArray(body.get("warnings"))) {
            System.out.println("warning: " + warning);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asObject(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> asArray(Object value) {
        return (List<Object>) value;
    }

    /** A small, strict JSON parser (RFC 8259): enough for sodos' answers. */
    static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object parse() {
            Object value = value();
            space();
            if (at != text.length()) {
                throw error("text after the value");
            }
            return value;
        }

        private Object value() {
            space();
            if (at >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(at);
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return string();
                case 't': return literal("true", Boolean.TRUE);
                case 'f': return literal("false", Boolean.FALSE);
                case 'n': return literal("null", null);
                default: return number();
            }
        }

        private Map<String, Object> object() {
            Map<String, Object> result = new LinkedHashMap<>();
            at++;
            space();
            if (peek('}')) {
                at++;
                return result;
            }
            while (true) {
                space();
                String key = string();
                space();
                expect(':');
                result.put(key, value());
                space();
                if (peek(',')) {
                    at++;
                } else {
                    expect('}');
                    return result;
                }
            }
        }

        private List<Object> array() {
            List<Object> result = new ArrayList<>();
            at++;
            space();
            if (peek(']')) {
                at++;
                return result;
            }
            while (true) {
                result.add(value());
                space();
                if (peek(',')) {
                    at++;
                } else {
                    expect(']');
                    return result;
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escape = text.charAt(at++);
                switch (escape) {
                    case 'n': out.append('\n'); break;
                    case 't': out.append('\t'); break;
                    case 'r': out.append('\r'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'u':
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                        break;
                    default: out.append(escape);  // \" \\ \/
                }
            }
        }

        private BigDecimal number() {
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            if (start == at) {
                throw error("unexpected character");
            }
            return new BigDecimal(text.substring(start, at));  // exact: 2.5 stays 2.5
        }

        private Object literal(String word, Object value) {
            if (!text.startsWith(word, at)) {
                throw error("unexpected word");
            }
            at += word.length();
            return value;
        }

        private void space() {
            while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
        }

        private boolean peek(char c) {
            return at < text.length() && text.charAt(at) == c;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
            at++;
        }

        private IllegalArgumentException error(String message) {
            return new IllegalArgumentException("bad JSON at " + at + ": " + message);
        }
    }
}
