package dev.idiom.consistency.report;

/** What an anti-entropy check of one account found and did. */
public record CheckReport(String account, int listed, int replicas, int divergent, int repaired, int reEnqueued, int missing, String held) {}
