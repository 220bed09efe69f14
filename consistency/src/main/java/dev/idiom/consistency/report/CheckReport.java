package dev.idiom.consistency.report;

/**
 * What an anti-entropy check of one account found and did.
 *
 * @param reread copies unchanged in their tool (same version) that Idiom reads otherwise now: re-based, their DEs unchanged, nothing written
 * @param shared copies of the account that more than one DE holds (each copy is one DE's: a curator merges or unlinks them), logged with their DEs
 */
public record CheckReport(String account, int listed, int replicas, int divergent, int repaired, int reEnqueued, int missing, String held, int reread,
                          int shared) {}
