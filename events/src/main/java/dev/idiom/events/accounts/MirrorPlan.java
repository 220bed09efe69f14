package dev.idiom.events.accounts;

/**
 * How far an account's replication rule has been planned against the change feed.
 *
 * @param rule the fingerprint of the rule planned (a new rule starts again from position 0)
 * @param position every DE changed up to here has what it owes this account in the outbox
 * @param head where the feed stood when planning of this rule began (a first mirror's end)
 * @param removalsAllowedTo a curator allowed the removals this rule plans up to this position (past the mass-delete share)
 */
public record MirrorPlan(String rule, long position, long head, long removalsAllowedTo) {
    public MirrorPlan(String rule, long position, long head) {
        this(rule, position, head, 0);
    }
}
