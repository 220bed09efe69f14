/** The served Zotero libraries in MySQL/MariaDB. */
package dev.idiom.events.zotero.mysql;
