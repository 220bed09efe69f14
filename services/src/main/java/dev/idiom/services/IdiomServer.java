package dev.idiom.services;

import dev.idiom.services.web.Admission;
import dev.idiom.services.http.PublicUrl;
import java.time.Duration;
import dev.idiom.services.web.WebApp;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;

/** Idiom in an embedded Tomcat: both endpoints and the admin pages on one HTTP connector. */
public final class IdiomServer implements AutoCloseable {
    private final Idiom idiom;
    private final Tomcat tomcat;
    private final Admission admission;
    private final int port;
    private final String host;

    private IdiomServer(Idiom idiom, Tomcat tomcat, Admission admission, String host, int port) {
        this.admission = admission;
        this.idiom = idiom;
        this.tomcat = tomcat;
        this.host = host;
        this.port = port;
    }

    public static IdiomServer start(IdiomConfig config) {
        return start(config, idiom -> { });
    }

    /** Runs {@code beforeServing} on the started application before Tomcat opens its port. */
    public static IdiomServer start(IdiomConfig config, Consumer<Idiom> beforeServing) {
        Idiom idiom = Idiom.start(config);
        try {
            beforeServing.accept(idiom);
            return start(idiom, config);
        } catch (RuntimeException e) {
            idiom.close();
            throw e;
        }
    }

    private static IdiomServer start(Idiom idiom, IdiomConfig config) {
        Path base = config.data().resolve("tomcat").toAbsolutePath();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        Connector connector = new Connector(HeaderDeadline.class.getName()); // HTTP/1.1 with a deadline for the request line and headers
        connector.setPort(config.port());
        connector.setProperty("address", config.host());
        connector.setProperty("maxKeepAliveRequests", "-1");
        // a client that sends nothing for 20 s is let go (each read waits at most this); an idle kept-alive connection too
        connector.setProperty("connectionTimeout", "20000");
        connector.setProperty("keepAliveTimeout", "20000");
        connector.setProperty("acceptCount", "1000");
        connector.setProperty("maxConnections", "10000");
        connector.setProperty("maxSwallowSize", Long.toString(config.maxBody()));
        // Zotero's clients write a search's "or" unencoded (tag=a || b): a query may hold '|' (and the brackets PHP-style clients send)
        connector.setProperty("relaxedQueryChars", "|[]{}^`");
        // a client that asks "Expect: 100-continue" (curl does past 1 MB) hears 413 before sending an oversized body
        connector.setProperty("continueResponseTiming", "onRead");
        if (config.virtualThreads()) {
            connector.setProperty("useVirtualThreads", "true");
        }
        tomcat.setConnector(connector);
        tomcat.getHost().setAutoDeploy(false);
        // Tomcat's own error answers (a bad request line, headers too large) as problem documents
        ((StandardHost) tomcat.getHost()).setErrorReportValveClass(ProblemReportValve.class.getName());
        tomcat.getHost().getPipeline().addValve(new RefusalCloses());
        Context context = tomcat.addContext("", base.resolve("webroot").toString());
        if (context instanceof StandardContext standard) {
            // leak detection is for redeployable web apps; this context lives as long as the JVM
            standard.setClearReferencesThreadLocals(false);
            standard.setClearReferencesRmiTargets(false);
        }
        base.resolve("webroot").toFile().mkdirs();
        PublicUrl publicUrl = new PublicUrl(config.publicUrl(), PublicUrl.proxies(config.trustedProxies())); // a bad public-url fails here
        Admission admission = new Admission(config.maxInFlight(), config.admissionWait());
        context.addServletContainerInitializer(new org.apache.tomcat.websocket.server.WsSci(), null); // the WebSocket container, before the app mounts on it
        context.addServletContainerInitializer((classes, servletContext) ->
                WebApp.mount(servletContext, idiom.application(), config.maxBody(), config.baseline(), config.reports(), config.data().resolve("tmp").toAbsolutePath(), publicUrl, admission,
                        config.authFailureLimit(), config.minBodyRate(), config.maxDavBody()),
                null);
        try {
            tomcat.start();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat did not start: " + e.getMessage(), e);
        }
        if (connector.getLocalPort() < 0) {
            try {
                tomcat.stop();
                tomcat.destroy();
            } catch (LifecycleException ignored) {
                // already failing
            }
            throw new IllegalStateException("could not listen on " + config.host() + ":" + config.port() + " (in use?)");
        }
        IdiomServer server = new IdiomServer(idiom, tomcat, admission, config.host(), connector.getLocalPort());
        idiom.servingAt(java.net.URI.create(server.url())); // the engine reaches the Zotero libraries it serves here
        return server;
    }

    public int port() {
        return port;
    }

    /** The base URL, e.g. http://127.0.0.1:8080 */
    public String url() {
        String h = host.equals("0.0.0.0") ? "127.0.0.1" : host;
        return "http://" + h + ":" + port;
    }

    public Idiom idiom() {
        return idiom;
    }

    /** Requests refused by the admission limit since start. */
    public Admission admission() {
        return admission;
    }

    /** Graceful: stops admitting (503 Busy), lets the requests in service finish (at most 10 s), then stops. */
    @Override
    public void close() {
        try {
            int left = admission.drain(Duration.ofSeconds(10));
            if (left > 0) {
                java.util.logging.Logger.getLogger(IdiomServer.class.getName()).warning(left + " requests still in service after 10 s; stopping anyway");
            }
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        } finally {
            idiom.close();
        }
    }
}
