package dev.idiom.services.zotero;

import dev.idiom.services.app.zotero.LibraryStream;
import jakarta.servlet.ServletContext;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.util.List;

/**
 * Zotero's streaming API as a WebSocket at {@code /stream} (point desktop's {@code
 * extensions.zotero.streaming.url} at {@code ws://host:port/stream}): it only translates frames to
 * and from {@link LibraryStream}. The key comes as stream.zotero.org takes it: the {@code
 * Zotero-API-Key} header or {@code ?key=} makes a single-key connection; otherwise the client
 * subscribes with {@code createSubscriptions}.
 */
public final class ZoteroStream extends Endpoint {
    public static final String PATH = "/stream";
    /** The subprotocol Zotero desktop asks for. */
    static final String SUBPROTOCOL = "zotero-streaming-api-v1";
    private static final String KEY = "zotero-api-key";

    private final LibraryStream stream;
    private volatile LibraryStream.Connection connection;

    ZoteroStream(LibraryStream stream) {
        this.stream = stream;
    }

    /** Mounts the endpoint on the context's WebSocket container (embedded Tomcat's, or the one a Tomcat running the WAR brings). */
    public static void mount(ServletContext context, LibraryStream stream) {
        ServerContainer container = (ServerContainer) context.getAttribute(ServerContainer.class.getName());
        if (container == null) {
            throw new IllegalStateException("no WebSocket container in this servlet container: Zotero's streaming API needs one");
        }
        ServerEndpointConfig config = ServerEndpointConfig.Builder.create(ZoteroStream.class, PATH).subprotocols(List.of(SUBPROTOCOL))
                .configurator(new ServerEndpointConfig.Configurator() {
                    @Override
                    public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {
                        List<String> key = request.getHeaders().entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase("Zotero-API-Key"))
                                .map(java.util.Map.Entry::getValue).findFirst().orElse(null);
                        if (key != null && !key.isEmpty()) {
                            sec.getUserProperties().put(KEY, key.getFirst()); // the properties are this connection's own (Jakarta WebSocket 2.1)
                        }
                    }

                    @Override
                    public <T> T getEndpointInstance(Class<T> endpointClass) {
                        return endpointClass.cast(new ZoteroStream(stream));
                    }
                }).build();
        try {
            container.addEndpoint(config);
        } catch (DeploymentException e) {
            throw new IllegalStateException("Zotero's streaming API could not be mounted: " + e.getMessage(), e);
        }
        // the upgrade is taken by the container's filter before this servlet; without one mapped here, a container with no
        // default servlet (embedded Tomcat) answers 404 before any filter runs. A plain request gets the stream server's 400.
        context.addServlet("zotero-stream", new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void service(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse resp) throws IOException {
                resp.setStatus(400);
                resp.setContentType("text/plain;charset=UTF-8");
                resp.getWriter().write("Zotero's streaming API is a WebSocket (subprotocol " + SUBPROTOCOL + "): connect with ws://\n");
            }
        }).addMapping(PATH);
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        session.setMaxTextMessageBufferSize(LibraryStream.MAX_MESSAGE);
        // as the stream server reads it: ?key= first, then the header
        String key = session.getRequestParameterMap().getOrDefault("key", List.of()).stream().findFirst()
                .orElse((String) config.getUserProperties().get(KEY));
        try {
            connection = stream.connect(key, text -> send(session, text));
        } catch (LibraryStream.StreamError refused) {
            send(session, LibraryStream.error(refused));
            close(session, refused.getMessage());
            return;
        }
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) message -> connection.received(message));
    }

    @Override
    public void onClose(Session session, CloseReason reason) {
        if (connection != null) {
            connection.closed();
        }
    }

    @Override
    public void onError(Session session, Throwable thrown) {
        if (connection != null) {
            connection.closed();
        }
    }

    /** One frame at a time: the watcher's announcements and a client's answers may meet. */
    private static void send(Session session, String text) {
        synchronized (session) {
            try {
                session.getBasicRemote().sendText(text);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static void close(Session session, String why) {
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(4403), why));
        } catch (IOException ignored) {
            // already gone
        }
    }
}
