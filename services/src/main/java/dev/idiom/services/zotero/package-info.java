/**
 * The Zotero Web API v3 face: Zotero's own clients (desktop, pyzotero, zotero-api-client) read and
 * write the libraries Idiom serves. It translates the API's paths, parameters and headers into the
 * served libraries' application layer ({@code services.app.zotero}) and writes the API's answers.
 */
package dev.idiom.services.zotero;
