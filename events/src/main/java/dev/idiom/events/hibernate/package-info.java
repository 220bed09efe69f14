/**
 * The event store through Hibernate ORM (JPA entities for the event table and the projection
 * row; the shared SQL projection for search keys). Passes the same contract tests as the JDBC
 * adapter; the service runs on the JDBC one, which measured faster on the append path
 * (perf/RESULTS.md).
 */
package dev.idiom.events.hibernate;
