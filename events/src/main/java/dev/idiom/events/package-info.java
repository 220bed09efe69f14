/**
 * Events and digital entities: the immutable event records, the fold that turns an entity's
 * events into its current state, the decisions that turn a request into events, and the MySQL
 * event store that appends them (with the DE projection and search keys in the same transaction).
 */
package dev.idiom.events;
