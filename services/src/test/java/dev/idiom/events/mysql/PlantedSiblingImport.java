package dev.idiom.events.mysql;

/** Deliberate violation for the architecture tests: one adapter importing a sibling. */
final class PlantedSiblingImport {
    Object sibling = dev.idiom.events.hibernate.HibernateEventStore.class;
}
