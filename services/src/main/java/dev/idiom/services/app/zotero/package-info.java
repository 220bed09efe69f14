/**
 * The Zotero libraries Idiom serves (the Zotero Web API v3 face's application layer): keys and
 * their access, libraries as accounts, reads over a library's current version, and writes with the
 * API's own rules (versions, per-object answers, the schema's validation).
 */
package dev.idiom.services.app.zotero;
