package dev.idiom.consistency;

import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.Lifecycle;
import dev.idiom.events.Metadata;
import dev.idiom.events.Outbox;
import dev.idiom.events.Replica;
import dev.idiom.wrappers.AnnotationTool;
import java.util.Optional;

/**
 * The one decision of every write Idiom owes a tool: given the owed row, the DE as it stands, the
 * account's rule, the copy's tool (null where no account is configured) and the DE's history there
 * ({@link PushFacts}), the {@link PushStep} to take. Pure: it calls no tool and writes nothing, so
 * the push, the batch of copies, an upload and a dry run all take the same step for the same facts.
 * The outbox's rule only says which copies may be owed; this says what is.
 */
final class PushDecision {
    private PushDecision() {}

    /** An owed row: a copy to make ({@link Outbox#NEW_COPY}) or a write to the copy the row names. */
    static PushStep decide(Outbox.Entry owed, DigitalEntity de, MirrorRules.Selection rule, AnnotationTool tool, PushFacts facts) {
        if (de == null) {
            return PushStep.settle(PushOutcome.GONE);
        }
        if (Outbox.NEW_COPY.equals(owed.remoteId())) {
            return copy(de, rule, tool, facts);
        }
        Optional<Replica> replica = de.replica(owed.tool(), emptyToNull(owed.account()), owed.remoteId())
                .or(() -> de.replica(owed.tool(), owed.account(), owed.remoteId()));
        if (replica.isEmpty()) { // unlinked since; owed back only if Idiom's deletion removed it and the DE is live again
            boolean back = de.live() && rule.rule().propagatesDeletions() && rule.rule().direction().written()
                    && facts.removedByDeletion(de.id()).contains(owed.remoteId());
            return !back ? PushStep.settle(PushOutcome.GONE) : tool == null ? unconfigured(owed.tool(), owed.account()) : new PushStep.Restore(owed.remoteId());
        }
        Replica r = replica.get();
        if (tool == null) {
            return unconfigured(r.tool(), r.account());
        }
        if (!rule.rule().direction().written()) { // the account feeds Idiom and is never written
            return PushStep.settle(PushOutcome.NOT_SENT);
        }
        if (de.lifecycle().state() == Lifecycle.State.MERGED) { // a copy the merge left beside the winner's in this account
            return rule.rule().propagatesDeletions() ? removal(de, r, rule) : PushStep.settle(PushOutcome.NOT_SENT); // kept: a curator removes it
        }
        if (removes(rule, de, r, facts)) {
            return removal(de, r, rule);
        }
        if (!de.live() && !de.lifecycle().trashed()) { // purged: nothing is written to its copies any more
            return PushStep.settle(PushOutcome.NOT_SENT);
        }
        Metadata wanted = ReplicaContent.forCopy(de, tool, r);
        if (!ReplicaContent.owed(r, wanted, tool.fieldsKept())) {
            return new PushStep.Settle(PushOutcome.ALREADY_IN_SYNC, de.version());
        }
        return new PushStep.Write(r, wanted, rule.rule().direction().read());
    }

    /**
     * A copy the account's rule asks for: made unless the DE is gone, the rule no longer selects it,
     * the account holds one already, the DE is private and the account cannot keep it so, or a
     * curator deleted this DE's copy in the tool (a rule does not put back what a curator took out).
     */
    static PushStep copy(DigitalEntity de, MirrorRules.Selection rule, AnnotationTool tool, PushFacts facts) {
        if (tool == null) {
            return unconfigured(rule.account().kind(), rule.account().account());
        }
        if (!de.live()) {
            return PushStep.settle(PushOutcome.GONE);
        }
        if (de.replicas().stream().anyMatch(rule::holds)) {
            return PushStep.settle(PushOutcome.ALREADY_IN_SYNC);
        }
        if (!owesCopy(rule, de, tool.keepsPrivate(), facts.deletedThere(de.id()))) {
            return PushStep.settle(PushOutcome.NOT_SENT);
        }
        return new PushStep.Copy(ReplicaContent.wanted(de, tool, null), ReplicaContent.keepPrivate(de), EventSources.mirror(tool.kind()), formFor(de, tool));
    }

    /** A curator's upload of the DE to the account: what a rule's copy would be, refused where the DE or the account cannot take it. */
    static PushStep upload(DigitalEntity de, MirrorRules.Selection rule, AnnotationTool tool) {
        if (!de.live()) { // in the trash, purged or merged: nothing of it is written to tools
            return new PushStep.Refuse("entity " + de.id() + " is " + de.lifecycle().state().name().toLowerCase(java.util.Locale.ROOT)
                    + (de.lifecycle().trashed() ? ": restore it first (POST /api/entities/" + de.id() + "/restore)" : ""));
        }
        if (!rule.rule().direction().written()) {
            return new PushStep.Refuse(tool.kind() + " " + tool.account() + " is receive-only: Idiom does not write to it");
        }
        Optional<Replica> held = de.replicas().stream().filter(r -> AccountReplicas.in(r, tool)).findFirst();
        if (held.isPresent()) {
            return new PushStep.Refuse("entity " + de.id() + " already has a replica in " + tool.kind() + " " + tool.account() + " (" + held.get().remoteId() + ")");
        }
        return new PushStep.Copy(ReplicaContent.wanted(de, tool, null), ReplicaContent.keepPrivate(de), EventSources.upload(tool.kind()), formFor(de, tool));
    }

    /**
     * True if a push would make a copy of {@code de} in the account now: Idiom writes to it, it holds
     * none, its rule selects the DE, the DE is not private or the account can keep it private, and no
     * curator deleted the DE's copy there.
     */
    static boolean owesCopy(MirrorRules.Selection s, DigitalEntity de, boolean accountKeepsPrivate, boolean deletedThere) {
        return s.rule().direction().written() && de.replicas().stream().noneMatch(s::holds) && s.selects(de)
                && (!ReplicaContent.keepPrivate(de) || accountKeepsPrivate) && !deletedThere;
    }

    /**
     * True if the account's copy {@code r} of {@code de} is to be removed: the DE is in Idiom's trash
     * and the account propagates deletions, or the account's rule made the copy and no longer selects
     * the DE (a live one: a DE in the trash keeps its copies where deletions are kept).
     */
    static boolean removes(MirrorRules.Selection s, DigitalEntity de, Replica r, PushFacts facts) {
        if (!s.rule().direction().written()) {
            return false;
        }
        if (de.lifecycle().trashed()) {
            return s.rule().propagatesDeletions();
        }
        return de.live() && s.rule().mirrors() && !s.selects(de) && facts.madeByRule(de, r);
    }

    private static PushStep.Remove removal(DigitalEntity de, Replica r, MirrorRules.Selection rule) {
        boolean deletion = de.lifecycle().trashed();
        String why = de.lifecycle().state() == Lifecycle.State.MERGED
                ? ": a duplicate of the copy entity " + de.lifecycle().mergedInto() + " has there, which this entity was merged into"
                : deletion ? ": the record was deleted in Idiom" : ": its replication rule no longer selects this record";
        return new PushStep.Remove(r, "removed from " + r.tool() + " " + r.account() + why, deletion, rule.rule().direction().read());
    }

    /**
     * Another copy of the DE in {@code tool}'s own form, as last synced (a Zotero item for a copy into
     * another Zotero library), that a new copy takes what Idiom does not model from; never a private
     * copy's (what it holds stays there), and null where there is none.
     */
    static String formFor(DigitalEntity de, AnnotationTool tool) {
        return de.replicas().stream().filter(r -> r.shadow() != null && !r.privateCopy() && tool.takesFormOf(r.tool())
                && !AccountReplicas.in(r, tool)).map(Replica::shadow).findFirst().orElse(null);
    }

    private static PushStep.Park unconfigured(String kind, String account) {
        return new PushStep.Park("no tool account of kind " + kind + " for " + account + " is configured");
    }

    static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** The account as outbox rows and tool directories name it ("" for none). */
    static String accountOf(String account) {
        return account == null ? "" : account;
    }
}
