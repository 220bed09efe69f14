/** The Zotero libraries Idiom serves itself: their objects, versions, deletions, settings and keys. */
package dev.idiom.events.zotero;
