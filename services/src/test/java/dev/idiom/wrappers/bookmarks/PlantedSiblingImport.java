package dev.idiom.wrappers.bookmarks;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.wrappers.pinboard.PinboardTool.class;
}
