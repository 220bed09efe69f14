/**
 * Idiom's database: versioned schema migrations (Flyway, MySQL 8 / MariaDB 10.6+), the connection
 * pool, and the embedded MariaDB used by the default run and the tests.
 */
package dev.idiom.db;
