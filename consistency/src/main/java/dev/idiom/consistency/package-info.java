/**
 * The consistency engine (CFDAR, DESIGN.md § Consistency): how a replica's changes and Idiom's
 * are merged. Never sees HTTP or SOAP; called by the application layer.
 */
package dev.idiom.consistency;
