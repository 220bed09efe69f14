package dev.idiom.wrappers.bibsonomy;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.wrappers.bibtex.BibTeXFile.class;
}
