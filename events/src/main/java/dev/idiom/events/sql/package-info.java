/**
 * SQL both event-store adapters share: the projection tables (DE rows, search and match keys), the
 * lookups over them and the rebuild check. Neutral ground, so the adapters never import each other.
 */
package dev.idiom.events.sql;
