package dev.idiom.wrappers.bibtex;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.wrappers.bibsonomy.BibSonomyTool.class;
}
