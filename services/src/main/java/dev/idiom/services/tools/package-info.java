/**
 * Annotation-tool accounts: stored with their secrets sealed under a key from the environment,
 * never logged or returned; and the factory that opens the right adapter for an account or file.
 */
package dev.idiom.services.tools;
