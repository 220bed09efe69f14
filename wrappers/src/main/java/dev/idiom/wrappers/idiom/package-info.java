/** Another Idiom instance as an annotation tool, over its REST API, so two Idioms can federate. */
package dev.idiom.wrappers.idiom;
