/**
 * Adapters to annotation tools (Zotero, Pinboard, BibSonomy, BibTeX and bookmark files, other
 * Idiom instances) behind one {@code AnnotationTool} port. Not built yet (issue 3): the module
 * exists so the build's module layout matches DESIGN.md.
 */
package dev.idiom.wrappers;
