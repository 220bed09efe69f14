/**
 * The optimistic-replication engine (CFDAR): outbox workers, pushes with preconditions, three-way
 * merge, anti-entropy. Not built yet; the module exists so the build's layout matches DESIGN.md.
 */
package dev.idiom.consistency;
