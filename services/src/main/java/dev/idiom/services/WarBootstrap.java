package dev.idiom.services;

import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.web.Admission;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.web.WebApp;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.Map;

/**
 * Starts Idiom inside a standalone Tomcat (the WAR): configuration from IDIOM_* environment
 * variables or idiom.* system properties (e.g. in setenv.sh), endpoints mounted as in the
 * embedded server. Without a database URL the embedded MariaDB runs under {@code data}.
 */
public final class WarBootstrap implements ServletContextListener {
    private Idiom idiom;
    private Admission admission;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        IdiomConfig config = IdiomConfig.from(Map.of(), System.getenv(), System::getProperty);
        idiom = Idiom.start(config);
        idiom.application().keys().firstAdminKey(config.data()).ifPresent(key -> event.getServletContext()
                .log("Idiom: a first admin key was created and written to " + config.data().resolve(ApiKeys.ADMIN_KEY_FILE).toAbsolutePath()
                        + " (owner-only); it is not logged"));
        WebApp.mount(event.getServletContext(), idiom.application(), config.maxBody(), config.baseline(), config.reports(), config.data().resolve("tmp").toAbsolutePath(),
                new PublicUrl(config.publicUrl(), PublicUrl.proxies(config.trustedProxies())), admission = new Admission(config.maxInFlight(), config.admissionWait()),
                config.authFailureLimit(), config.minBodyRate(), config.maxDavBody());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (admission != null) {
            admission.drain(java.time.Duration.ofSeconds(10));
        }
        if (idiom != null) {
            idiom.close();
        }
    }
}
