package dev.idiom.services.soap;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.services.rest.RestApi.class;
}
