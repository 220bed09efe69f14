/**
 * The MySQL adapters of tool accounts (with their sync state and import cursors) and API keys:
 * relational state kept outside the event log, in the same database as the store.
 */
package dev.idiom.events.accounts.mysql;
