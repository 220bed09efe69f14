/** A Netscape bookmark HTML file (every browser's export), read with jsoup; folders map to tags. */
package dev.idiom.wrappers.bookmarks;
