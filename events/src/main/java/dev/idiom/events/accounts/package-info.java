/** Tool accounts and import cursors: relational state beside the event log, behind a repository port. */
package dev.idiom.events.accounts;
