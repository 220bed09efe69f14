package dev.idiom.services.web;

import dev.idiom.services.app.Application;
import jakarta.servlet.http.HttpServlet;

/**
 * What each of the workspace's page groups (the library, the accounts) works with: the
 * application layer, the workspace's sessions, its frame ({@link CuratorWorkspace#chrome}), its
 * inbox and templates.
 */
abstract class CuratorPages extends HttpServlet {
    protected final transient Application app;
    protected final transient AdminSessions sessions;
    protected final transient CuratorWorkspace workspace;
    protected final transient CuratorInbox inbox;
    protected final transient PageTemplates pages;

    CuratorPages(Application app, AdminSessions sessions, CuratorWorkspace workspace, CuratorInbox inbox) {
        this.app = app;
        this.sessions = sessions;
        this.workspace = workspace;
        this.inbox = inbox;
        this.pages = inbox.pages();
    }
}
