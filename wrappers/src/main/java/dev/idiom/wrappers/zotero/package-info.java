/** Zotero Web API v3: the versions-based sync loop, writes with version preconditions and write tokens. */
package dev.idiom.wrappers.zotero;
