package dev.idiom.wrappers.pinboard;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.wrappers.zotero.ZoteroTool.class;
}
