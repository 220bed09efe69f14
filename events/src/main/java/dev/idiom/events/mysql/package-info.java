/** The event store on MySQL 8 / MariaDB through Connector/J: plain JDBC on the append hot path. */
package dev.idiom.events.mysql;
