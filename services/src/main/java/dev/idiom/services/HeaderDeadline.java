package dev.idiom.services;

import dev.idiom.db.TimeSource;
import java.io.IOException;
import org.apache.coyote.Adapter;
import org.apache.coyote.Processor;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * A deadline for a request's line and headers. Tomcat's {@code connectionTimeout} bounds each read,
 * not the whole: a client trickling a header line every few seconds held a connection (and a
 * processor) for as long as it liked. Here the connection of a request whose line and headers have
 * not all arrived {@link #DEADLINE_NANOS} after their first byte is closed at its next read; a
 * client that sends nothing at all is closed by {@code connectionTimeout}.
 */
public final class HeaderDeadline extends Http11NioProtocol {
    /** Long enough for any client on any link (headers are at most 8 KB), short enough that a trickler gains nothing. */
    static final long DEADLINE_NANOS = 10_000_000_000L;

    @Override
    protected Processor createProcessor() {
        return new Bounded(this, getAdapter());
    }

    private static final class Bounded extends Http11Processor {
        Bounded(AbstractHttp11Protocol<?> protocol, Adapter adapter) {
            super(protocol, adapter);
        }

        @Override
        public SocketState service(SocketWrapperBase<?> socket) throws IOException {
            // service is entered for a read while no request is with the application: a start time set means
            // the first bytes of a request line arrived and it is not complete yet (a finished request is recycled to none)
            long started = request.getStartTimeNanos();
            if (started > 0 && TimeSource.nanoTime() - started > DEADLINE_NANOS) {
                socket.close(); // nothing was read into the application: there is no request to answer
                return SocketState.CLOSED;
            }
            return super.service(socket);
        }
    }
}
