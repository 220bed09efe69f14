package dev.idiom.events.hibernate;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.events.mysql.MySqlEventStore.class;
}
