/** Tool accounts, import cursors, sync state and API keys: relational state beside the event log, behind repository ports. */
package dev.idiom.events.accounts;
