package dev.idiom.events.hibernate;

/** Deliberate violation for the architecture tests: one store adapter importing the other. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.events.mysql.MySqlEventStore.class;
}
