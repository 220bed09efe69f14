/** The Ehcache 3 adapter of the DE view cache; Ehcache types stay inside this package. */
package dev.idiom.cache.ehcache;
