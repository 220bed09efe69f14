package dev.idiom.services.web;

import dev.idiom.services.http.AuthFailures;
import dev.idiom.services.http.PublicUrl;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.HealthChecks;
import dev.idiom.services.baseline.BareEcho;
import dev.idiom.services.baseline.BareServlet;
import dev.idiom.services.rest.RestApi;
import dev.idiom.services.soap.SoapEndpoint;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.glassfish.jersey.servlet.ServletContainer;

/** Mounts Idiom's endpoints on a servlet context. */
public final class WebApp {
    /** Everything Idiom serves: the filters apply here, and not to the baselines. */
    private static final String[] IDIOM_PATHS = {"/api/*", "/services/*", "/admin", "/admin/*", "/curator", "/curator/*", ""};

    private WebApp() {}

    /** The browsers' WebDAV folders: every filter but the key check (a browser gives its account's password, checked by the servlet). */
    private static final String DAV = "/dav/*";
    /** The Zotero Web API's paths (Zotero's clients put them at the root): every filter but the key check (Zotero's keys are checked by the face). */
    static final String[] ZOTERO = {"/users/*", "/groups/*", "/keys", "/keys/*", "/items/*", "/test/*", "/itemTypes", "/itemFields",
        "/itemTypeFields", "/itemTypeCreatorTypes", "/creatorFields"};

    private static void filter(ServletContext context, String name, jakarta.servlet.Filter filter, boolean afterOthers) {
        filter(context, name, filter, afterOthers, true);
    }

    private static void filter(ServletContext context, String name, jakarta.servlet.Filter filter, boolean afterOthers, boolean dav) {
        FilterRegistration.Dynamic f = context.addFilter(name, filter);
        f.setAsyncSupported(true);
        java.util.List<String> paths = new java.util.ArrayList<>(java.util.Arrays.asList(IDIOM_PATHS));
        if (dav) {
            paths.add(DAV);
            paths.addAll(java.util.Arrays.asList(ZOTERO));
        }
        f.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), afterOthers, paths.toArray(String[]::new));
    }

    /**
     * @param maxBodyBytes the largest request body accepted (413 beyond)
     * @param baseline also mount the bare servlet and Axis2 echo that saturation reports compare with
     * @param reports the folder of saturation reports served under /admin/reports
     * @param tempDir Axis2's scratch folder (otherwise it writes {@code _axis2} into the working directory)
     * @param publicUrl how the URLs Idiom writes are formed
     * @param admission the bound on requests in service, drained on shutdown
     * @param authFailureLimit wrong keys one address may present in a minute before it is throttled (0: no limit)
     * @param minBodyRate bytes a second a request body must arrive at after a grace of seconds (0: no minimum)
     * @param maxDavBodyBytes the largest file a WebDAV client may put into a browsers' folder (a whole bookmark file)
     */
    public static void mount(ServletContext context, Application app, long maxBodyBytes, boolean baseline, Path reports, Path tempDir, PublicUrl publicUrl,
                             Admission admission, int authFailureLimit, long minBodyRate, long maxDavBodyBytes) {
        File temp = tempDir.toFile();
        temp.mkdirs();
        context.setAttribute("javax.servlet.context.tempdir", temp);

        // timing first, so refusals are counted too; then the cheapest refusals: a suspicious path, then no key
        // (a guesser is throttled per address); then the body is read, at a minimum rate, before a place is
        // taken (a slow sender waits on its own thread, not in one of max-in-flight's places); then too busy,
        // then too large; only then any parsing.
        // Idiom's own paths only: the baselines are measured without any of Idiom's code.
        // Each filter allows async: the console's live view holds its response open (and frees its admission place at once).
        Meters meters = new Meters(app, admission);
        AdminSessions sessions = new AdminSessions(app.keys(), app.clock());
        AdminSessions curatorSessions = new AdminSessions(app.keys(), app.clock(), "idiom_curator", "/curator", dev.idiom.services.app.Operation.CURATOR_WORKSPACE.role(),
                "the curator's workspace");
        filter(context, "request-timing", new RequestTiming(meters), false);
        filter(context, "path-check", new PathCheck(), false);
        filter(context, "security-headers", new SecurityHeaders(), false);
        AuthFailures authFailures = new AuthFailures(authFailureLimit, app.clock()); // one count for API keys, console logins, WebDAV and Zotero clients
        filter(context, "key-check", new KeyCheck(app.keys(), sessions, curatorSessions, authFailures, publicUrl), false, false);
        filter(context, "slow-bodies", new SlowBodies(minBodyRate), false);
        filter(context, "admission", admission, false);
        filter(context, "request-limits", new RequestLimits(maxBodyBytes), false, false);
        // a browser puts its whole bookmark file at once: the folders take files up to their own limit
        FilterRegistration.Dynamic davLimits = context.addFilter("dav-request-limits", new RequestLimits(maxDavBodyBytes, "max-dav-body"));
        davLimits.setAsyncSupported(true);
        davLimits.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, DAV);
        FilterRegistration.Dynamic zoteroLimits = context.addFilter("zotero-request-limits", new RequestLimits(maxBodyBytes));
        zoteroLimits.setAsyncSupported(true);
        zoteroLimits.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, ZOTERO);

        ServletRegistration.Dynamic rest = context.addServlet("rest", new ServletContainer(RestApi.resources(app, publicUrl)));
        rest.addMapping("/api/*");
        rest.setLoadOnStartup(1);

        ServletRegistration.Dynamic soap = context.addServlet("soap", new SoapEndpoint(app, publicUrl));
        soap.addMapping("/services/*");
        soap.setLoadOnStartup(1);

        AdminPages pages = new AdminPages(app, publicUrl, admission, new SaturationReports(reports), meters,
                new HealthChecks(app.administration(), app.sync(), app.clock()), new RecentLog());
        ServletRegistration.Dynamic admin = context.addServlet("admin", pages);
        admin.addMapping("/admin", "/admin/*", "");
        LiveFeed live = new LiveFeed("figures", pages::liveSnapshot, Duration.ofMillis(500), false); // a change shows within a second
        ServletRegistration.Dynamic console = context.addServlet("admin-console", new AdminConsole(app, sessions, live, publicUrl, authFailures));
        console.addMapping("/admin/login", "/admin/logout", "/admin/live", "/admin/assets/*", "/admin/actions/*");
        console.setAsyncSupported(true);
        CuratorInbox inbox = new CuratorInbox(app, new PageTemplates());
        LiveFeed curatorLive = new LiveFeed("inbox", inbox::live, Duration.ofSeconds(1), true); // counts and states, sent when they change
        CuratorWorkspace workspace = new CuratorWorkspace(app, curatorSessions, publicUrl, authFailures, inbox, curatorLive);
        ServletRegistration.Dynamic curator = context.addServlet("curator-workspace", workspace);
        curator.addMapping("/curator", "/curator/*");
        curator.setAsyncSupported(true);
        context.addServlet("curator-library", new CuratorLibrary(app, curatorSessions, workspace, inbox))
                .addMapping("/curator/library", "/curator/trash", "/curator/merge", "/curator/records", "/curator/records/*");
        context.addServlet("curator-accounts", new CuratorAccounts(app, curatorSessions, workspace, inbox)).addMapping("/curator/accounts", "/curator/accounts/*");
        context.addServlet("curator-zotero-login", new ZoteroLogin(app, curatorSessions, workspace, inbox)).addMapping(ZoteroLogin.PATH + "/*");

        context.addServlet("browsers-dav", new BookmarkDav(new dev.idiom.services.app.BookmarkFolders(new dev.idiom.services.app.BrowserReplicas(
                app.tools(), app.sync(), app.clock()), app.clock()), authFailures, publicUrl)).addMapping(DAV);

        context.addServlet("zotero-api", new dev.idiom.services.zotero.ZoteroApi(app.zotero(), publicUrl,
                new dev.idiom.services.zotero.TestRoot(app.zotero(), app.zotero().testRoot(), publicUrl), authFailures, admission::backoffSeconds))
                .addMapping(ZOTERO);
        dev.idiom.services.zotero.ZoteroStream.mount(context, app.zotero().stream());

        if (baseline) {
            context.addServlet("baseline-servlet", new BareServlet()).addMapping("/baseline/servlet");
            // under .../services/ because Axis2 finds the service name after its servicePath
            ServletRegistration.Dynamic echo = context.addServlet("baseline-axis2", new BareEcho());
            echo.addMapping("/baseline/services/*");
            echo.setLoadOnStartup(2); // after Idiom's Axis2 (see BareEcho.init)
        }
    }
}
