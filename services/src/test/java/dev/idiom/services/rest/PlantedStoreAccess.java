package dev.idiom.services.rest;

/** Deliberate violations for the architecture tests: REST reaching past the application layer, and into SOAP. */
final class PlantedStoreAccess {
    Object store = dev.idiom.events.EventStore.class;
    Object sibling = dev.idiom.services.soap.SoapEndpoint.class;
}
