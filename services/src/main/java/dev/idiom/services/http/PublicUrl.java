package dev.idiom.services.http;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The address clients reach Idiom at, for the URLs Idiom writes (the WSDL's {@code soap:address},
 * REST {@code Location} headers, the OpenAPI {@code servers}, admin links). A configured
 * {@code public-url} wins; otherwise {@code Forwarded} (RFC 7239) or {@code X-Forwarded-Proto/Host/Port}
 * are honoured only when the request comes from a configured trusted proxy (anyone else could
 * forge them); otherwise the request's own scheme and {@code Host} header, parsed properly
 * (IPv6 literals in brackets, ports).
 */
public final class PublicUrl {
    private final String configured;
    private final Set<String> trustedProxies;

    /**
     * @param configured the {@code public-url} setting (scheme, host, port and path prefix), or null
     * @param trustedProxies addresses of proxies whose forwarding headers are believed
     */
    public PublicUrl(String configured, Set<String> trustedProxies) {
        this.configured = configured == null || configured.isBlank() ? null : configured.strip().replaceAll("/+$", "");
        this.trustedProxies = Set.copyOf(trustedProxies);
        if (this.configured != null) {
            URI u = URI.create(this.configured);
            if (u.getScheme() == null || u.getHost() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))) {
                throw new IllegalArgumentException("public-url must be an absolute http(s) URL, got '" + configured + "'");
            }
        }
    }

    /** The base URL (no trailing slash) the client of this request reaches Idiom's web application at. */
    public String of(HttpServletRequest request) {
        if (configured != null) {
            return configured;
        }
        String scheme = request.getScheme();
        String host = request.getHeader("Host");
        if (trustedProxies.contains(request.getRemoteAddr())) {
            Forward f = forwarded(request);
            if (f.proto != null) {
                scheme = f.proto;
            }
            if (f.host != null) {
                host = f.host;
            }
            if (f.port != null && host != null) {
                host = hostOnly(host) + ":" + f.port;
            }
        }
        if (host == null || host.isBlank() || !validHost(host)) {
            host = bracketed(request.getServerName()) + ":" + request.getServerPort();
        }
        return scheme.toLowerCase(Locale.ROOT) + "://" + withoutDefaultPort(scheme, host) + request.getContextPath();
    }

    /**
     * The client's address: the connection's peer, or — when that peer is a trusted proxy — the
     * nearest address in {@code X-Forwarded-For} (or {@code Forwarded: for=}) that is not a trusted
     * proxy itself. A client cannot name itself past a proxy that appends what it saw, and behind no
     * trusted proxy the headers are ignored.
     */
    public String clientAddress(HttpServletRequest request) {
        String peer = request.getRemoteAddr();
        if (!trustedProxies.contains(peer)) {
            return peer;
        }
        java.util.List<String> hops = new java.util.ArrayList<>();
        String xff = request.getHeader("X-Forwarded-For");
        if (xff != null) {
            for (String h : xff.split(",")) {
                hops.add(h.strip());
            }
        } else if (request.getHeader("Forwarded") != null) {
            for (String element : request.getHeader("Forwarded").split(",")) {
                for (String pair : element.split(";")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0 && pair.substring(0, eq).strip().equalsIgnoreCase("for")) {
                        hops.add(unquoted(pair.substring(eq + 1).strip()));
                    }
                }
            }
        }
        for (int i = hops.size() - 1; i >= 0; i--) { // the nearest hop first: those beyond the first untrusted one could be made up
            String hop = hops.get(i);
            if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
                return hop;
            }
        }
        return peer;
    }

    private static String unquoted(String v) {
        String out = v.startsWith("\"") && v.endsWith("\"") && v.length() > 1 ? v.substring(1, v.length() - 1) : v;
        return out.startsWith("[") && out.contains("]") ? out.substring(1, out.indexOf(']')) : out;
    }

    private record Forward(String proto, String host, String port) {}

    /** The first hop of {@code Forwarded}, else the first values of the X-Forwarded headers. */
    private static Forward forwarded(HttpServletRequest request) {
        String forwarded = request.getHeader("Forwarded");
        if (forwarded != null && !forwarded.isBlank()) {
            String proto = null;
            String host = null;
            for (String pair : forwarded.split(",")[0].split(";")) {
                int eq = pair.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String key = pair.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                String value = pair.substring(eq + 1).strip().replaceAll("^\"|\"$", "");
                if (key.equals("proto")) {
                    proto = value.toLowerCase(Locale.ROOT);
                } else if (key.equals("host")) {
                    host = value;
                }
            }
            return new Forward(validScheme(proto), host, null);
        }
        return new Forward(validScheme(first(request.getHeader("X-Forwarded-Proto"))), first(request.getHeader("X-Forwarded-Host")),
                digits(first(request.getHeader("X-Forwarded-Port"))));
    }

    private static String first(String header) {
        return header == null || header.isBlank() ? null : header.split(",")[0].strip();
    }

    private static String validScheme(String s) {
        return s != null && (s.equalsIgnoreCase("http") || s.equalsIgnoreCase("https")) ? s.toLowerCase(Locale.ROOT) : null;
    }

    private static String digits(String s) {
        return s != null && s.matches("\\d{1,5}") ? s : null;
    }

    /** A host header: a name or IPv4 address, or an IPv6 literal in brackets, each with an optional port. */
    static boolean validHost(String host) {
        return host.matches("\\[[0-9A-Fa-f:.]+\\](:\\d{1,5})?") || host.matches("[A-Za-z0-9._-]+(:\\d{1,5})?");
    }

    /** The host without its port ({@code [::1]:9999} → {@code [::1]}). */
    static String hostOnly(String host) {
        if (host.startsWith("[")) {
            return host.substring(0, host.indexOf(']') + 1);
        }
        int colon = host.lastIndexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static String bracketed(String name) {
        return name.contains(":") && !name.startsWith("[") ? "[" + name + "]" : name;
    }

    private static String withoutDefaultPort(String scheme, String host) {
        String port = host.startsWith("[") ? (host.indexOf("]:") > 0 ? host.substring(host.indexOf("]:") + 2) : null)
                : host.contains(":") ? host.substring(host.lastIndexOf(':') + 1) : null;
        boolean standard = port != null && (scheme.equalsIgnoreCase("http") && port.equals("80") || scheme.equalsIgnoreCase("https") && port.equals("443"));
        return standard ? hostOnly(host) : host;
    }

    /** Trusted proxy addresses from the {@code trusted-proxies} setting (comma-separated). */
    public static Set<String> proxies(String setting) {
        if (setting == null || setting.isBlank()) {
            return Set.of();
        }
        return Set.copyOf(List.of(setting.split("\\s*,\\s*")));
    }
}
