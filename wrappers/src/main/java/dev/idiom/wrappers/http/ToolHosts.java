package dev.idiom.wrappers.http;

import dev.idiom.wrappers.ToolException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Which hosts Idiom may call as annotation tools. By default only public ones: an admin must not be
 * able to point an account at this machine, the cloud's metadata service or the private network
 * (loopback, link-local, private, carrier-grade NAT, unique-local, multicast, unspecified), nor at a
 * name that does not resolve. Checked when an account is configured and again before every call, so a
 * name that later resolves elsewhere (DNS rebinding) is caught at the next call. Tests and local
 * tools turn it off ({@code local-tool-hosts}).
 */
public final class ToolHosts {
    /** Every host: files, tests, a developer's local stubs. */
    public static final ToolHosts ANY = new ToolHosts(true);
    /** Public hosts only: the service's default. */
    public static final ToolHosts PUBLIC = new ToolHosts(false);

    private final boolean localAllowed;

    private ToolHosts(boolean localAllowed) {
        this.localAllowed = localAllowed;
    }

    public static ToolHosts of(boolean localAllowed) {
        return localAllowed ? ANY : PUBLIC;
    }

    /** @throws ToolException the host of {@code uri} is not one Idiom may call (the message names the rule, not what the host answered) */
    public void check(URI uri) {
        if (localAllowed) {
            return;
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new ToolException("the address " + uri.getScheme() + "://… names no host");
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new ToolException(host + " does not resolve to a public address; Idiom calls public hosts only (local-tool-hosts)");
        }
        for (InetAddress a : addresses) {
            if (!isPublic(a)) {
                throw new ToolException(host + " is a loopback, link-local or private address; Idiom calls public hosts only unless "
                        + "local-tool-hosts is true");
            }
        }
    }

    static boolean isPublic(InetAddress a) {
        if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isAnyLocalAddress() || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet6Address) {
            return (b[0] & 0xfe) != 0xfc; // unique-local fc00::/7
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        return first != 0 && !(first == 100 && second >= 64 && second < 128) // 0.0.0.0/8, carrier-grade NAT 100.64/10
                && !(first == 192 && second == 0 && (b[2] & 0xff) == 0) && first < 224; // IETF 192.0.0/24, reserved 240/4
    }
}
