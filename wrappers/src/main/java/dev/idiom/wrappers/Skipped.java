package dev.idiom.wrappers;

/** A record a tool returned that could not be read; nothing of it was imported. */
public record Skipped(String remoteId, String reason) {}
