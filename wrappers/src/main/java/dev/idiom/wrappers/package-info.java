/**
 * Adapters to annotation tools behind one port, {@link dev.idiom.wrappers.AnnotationTool}: each
 * tool's records come out as canonical metadata with the remote id and version; vendor formats
 * and HTTP stay inside the adapter's package.
 */
package dev.idiom.wrappers;
