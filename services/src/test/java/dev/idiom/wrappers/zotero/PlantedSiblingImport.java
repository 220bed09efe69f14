package dev.idiom.wrappers.zotero;

/** Deliberate violation for the architecture tests: one tool adapter importing another. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.wrappers.bibtex.BibTeXFile.class;
}
