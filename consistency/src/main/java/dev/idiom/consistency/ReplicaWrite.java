package dev.idiom.consistency;

import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.consistency.report.PushOutcome;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EventStore;
import dev.idiom.events.Metadata;
import dev.idiom.events.NewEvent;
import dev.idiom.events.Outbox;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.Replica;
import dev.idiom.events.ReplicaLinked;
import dev.idiom.events.ReplicaPushed;
import dev.idiom.events.ReplicaUnlinked;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.RecordRefusedException;
import dev.idiom.wrappers.RemoteChangedException;
import dev.idiom.wrappers.RemoteRecord;
import dev.idiom.wrappers.ToolException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * The executor of {@link PushStep}s: calls the tool and says what came of it ({@link PushResult}),
 * recording nothing itself. A write is changes-only against the last synced record with the
 * copy's last known version as the precondition; a change met there is pulled and merged first
 * (the one decision of imports and pulls), or written over in a send-only account. Failures are
 * due again after a capped exponential backoff with jitter (or the wait the tool asked for); a
 * record the tool refuses for good is parked with the reason.
 */
final class ReplicaWrite {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(ReplicaWrite.class.getName());
    static final Duration FIRST_RETRY = Duration.ofSeconds(2);
    static final Duration LONGEST_RETRY = Duration.ofMinutes(15);

    private final EventStore store;
    private final Pull pull;
    private final Clock clock;
    private final RandomGenerator random;

    ReplicaWrite(EventStore store, Pull pull, Clock clock, RandomGenerator random) {
        this.store = store;
        this.pull = pull;
        this.clock = clock;
        this.random = random;
    }

    /** Carries out {@code step} for the row {@code owed} of {@code de} in {@code tool}'s account. */
    PushResult run(PushStep step, Outbox.Entry owed, DigitalEntity de, AnnotationTool tool) {
        return switch (step) {
            case PushStep.Settle s -> PushResult.settled(s.outcome(), s.version());
            case PushStep.Park p -> PushResult.parked(p.reason());
            case PushStep.Refuse r -> PushResult.parked(r.reason());
            case PushStep.Write w -> write(owed, de, tool, w.replica(), w.wanted(), w.takesRemoteChanges());
            case PushStep.Copy c -> {
                try {
                    ReplicaLinked link = make(tool, de, c); // made from the DE as loaded: a change since is owed to the copy once it is linked
                    yield PushResult.reached(PushOutcome.COPIED, new NewEvent(UUID.randomUUID(), c.source(), link), Integer.MAX_VALUE, link.remoteId());
                } catch (ToolException failed) {
                    yield notTaken(owed, failed);
                }
            }
            case PushStep.Restore r -> restore(owed, de, tool, r.remoteId());
            case PushStep.Remove r -> remove(owed, de, tool, r);
        };
    }

    /** Makes the copy and says how to link it (a rule's copy, an upload, a restore's fallback: one copy path). */
    ReplicaLinked make(AnnotationTool tool, DigitalEntity de, PushStep.Copy c) {
        return linkOf(tool, c.wanted(), tool.create(new AnnotationTool.NewCopy(c.wanted(), c.keepPrivate(), de.id(), c.form())));
    }

    /** The link of a copy just made: what the tool holds, its tags read through what was written. */
    static ReplicaLinked linkOf(AnnotationTool tool, Metadata wanted, RemoteRecord created) {
        Metadata held = ReplicaMerge.asHeld(wanted, tool.tagsAsRead(created.metadata(), wanted), tool.fieldsKept());
        return new ReplicaLinked(tool.kind(), tool.account(), created.remoteId(), created.version(), held, created.shadow(), null, created.privateCopy());
    }

    private PushResult write(Outbox.Entry owed, DigitalEntity de, AnnotationTool tool, Replica r, Metadata wanted, boolean takesRemoteChanges) {
        RemoteRecord known = new RemoteRecord(r.remoteId(), r.remoteVersion(), r.synced(), r.identityHint(), r.shadow(), r.privateCopy());
        try {
            return pushed(de, r, tool, wanted, tool.update(known, wanted));
        } catch (RemoteChangedException moved) {
            return remoteChange(owed, de, r, tool, takesRemoteChanges, moved);
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
    }

    /** What the tool acknowledged, as a {@link ReplicaPushed}; a copy the tool re-keyed is owed any change that came meanwhile under its new id. */
    private PushResult pushed(DigitalEntity de, Replica r, AnnotationTool tool, Metadata wanted, RemoteRecord written) {
        // what the tool holds now, its tags read through what was just written (a "_" written for a space is that space)
        Metadata held = ReplicaMerge.asHeld(wanted, tool.tagsAsRead(written.metadata(), wanted), tool.fieldsKept());
        String replaces = written.remoteId().equals(r.remoteId()) ? null : r.remoteId();
        String source = EventSources.push(r.tool());
        if (replaces == null && tool.versionNamesContent() && java.util.Objects.equals(written.version(), r.remoteVersion())) {
            // the copy is as it was: what it reads otherwise than wanted it cannot hold so, and is not owed again (no write per check)
            dev.idiom.events.ReplicaReread same = Reread.unwritable(tool, written, held, de, r, wanted);
            return new PushResult(PushOutcome.ALREADY_IN_SYNC, same == null ? null : new NewEvent(UUID.randomUUID(), source, same),
                    new PushResult.Row.Acknowledged(de.version()), false, null);
        }
        // a write keeps the copy's privacy as it was (adapters re-send it); a pull brings news of it
        NewEvent event = new NewEvent(UUID.randomUUID(), source, new ReplicaPushed(r.tool(), r.account(), written.remoteId(), written.version(), held,
                written.shadow(), replaces, de.version(), r.privateCopy() || written.privateCopy()));
        // re-keyed: the row names the copy's former id and goes; a change that came meanwhile is owed under the new id
        return replaces == null ? PushResult.reached(PushOutcome.PUSHED, event, de.version(), null)
                : PushResult.reached(PushOutcome.PUSHED, event, Integer.MAX_VALUE, written.remoteId());
    }

    /** A DE back from Idiom's trash: its copy taken back out of the tool's trash where the tool has one, else made again; linked. */
    private PushResult restore(Outbox.Entry owed, DigitalEntity de, AnnotationTool tool, String remoteId) {
        Metadata wanted = ReplicaContent.wanted(de, tool, null);
        ReplicaLinked link;
        try {
            Optional<RemoteRecord> back = tool.restore(remoteId, keptByDeletion(de, owed));
            link = back.isPresent()
                    ? new ReplicaLinked(tool.kind(), tool.account(), back.get().remoteId(), back.get().version(),
                            ReplicaMerge.asHeld(back.get().metadata(), tool.tagsAsRead(back.get().metadata(), wanted), tool.fieldsKept()),
                            back.get().shadow(), null, back.get().privateCopy())
                    : make(tool, de, new PushStep.Copy(wanted, ReplicaContent.keepPrivate(de), EventSources.deletion(tool.kind()), PushDecision.formFor(de, tool)));
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
        return PushResult.reached(PushOutcome.COPIED, new NewEvent(UUID.randomUUID(), EventSources.deletion(tool.kind()), link), Integer.MAX_VALUE,
                link.remoteId());
    }

    /** What the deletion that removed this copy kept of it (the last such unlink in the DE's history), or null. */
    private String keptByDeletion(DigitalEntity de, Outbox.Entry owed) {
        List<RecordedEvent> history = store.history(de.id());
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).event() instanceof ReplicaUnlinked u && u.tool().equals(owed.tool()) && u.remoteId().equals(owed.remoteId())
                    && PushDecision.accountOf(u.account()).equals(PushDecision.accountOf(owed.account()))) {
                return u.kept();
            }
        }
        return null;
    }

    /** The copy goes: deleted in the tool (a tool with a trash keeps it there, with what a restore needs) and unlinked. */
    private PushResult remove(Outbox.Entry owed, DigitalEntity de, AnnotationTool tool, PushStep.Remove step) {
        Replica r = step.replica();
        String kept;
        try {
            kept = tool.deleteKeeping(r.remoteId(), r.remoteVersion());
        } catch (RemoteChangedException moved) {
            return remoteChange(owed, de, r, tool, step.takesRemoteChanges(), moved); // merged first; the removal is decided again next round
        } catch (ToolException failed) {
            return due(owed, failed);
        }
        return PushResult.reached(PushOutcome.REMOVED, new NewEvent(UUID.randomUUID(), step.deletion() ? EventSources.deletion(r.tool()) : EventSources.mirror(r.tool()),
                new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), step.why(), false, kept)), Integer.MAX_VALUE, null);
    }

    /** The copy moved there: its changes come in through the one merge (or, send-only, are written over); the push follows. */
    private PushResult remoteChange(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool, boolean takesRemoteChanges, RemoteChangedException moved) {
        Optional<RemoteRecord> current;
        try {
            current = tool.fetch(r.remoteId());
        } catch (ToolException failed) {
            return due(owed, failed);
        }
        if (current.isEmpty()) { // deleted in the tool: the replica is unlinked, the DE stays
            return PushResult.settled(PushOutcome.GONE, Integer.MAX_VALUE).withEvent(new NewEvent(UUID.randomUUID(), EventSources.push(r.tool()),
                    new ReplicaUnlinked(r.tool(), r.account(), r.remoteId(), r.synced(), "deleted in " + r.tool() + " (met by a push: " + moved.getMessage() + ")")));
        }
        if (!takesRemoteChanges) {
            return overwrite(owed, de, r, tool, current.get());
        }
        ImportOutcome merged = pull.one(tool, current.get());
        return switch (merged.kind()) {
            // a copy Idiom cannot read back would meet the same precondition forever: a curator looks
            case SKIPPED -> PushResult.parked("the copy changed in " + r.tool() + " and its change could not be merged: " + merged.reason());
            // the tool refused our version although it holds what we last synced: not at once again
            case UNCHANGED -> due(owed, new ToolException(r.tool() + " refused the push's precondition for an unchanged copy: " + moved.getMessage()));
            default -> PushResult.due(PushOutcome.MERGED_REMOTE_CHANGES, clock.instant(), null); // at once, from the merged state
        };
    }

    /** A send-only account's copy changed there: Idiom writes its own content over the copy as it now is. */
    private PushResult overwrite(Outbox.Entry owed, DigitalEntity de, Replica r, AnnotationTool tool, RemoteRecord current) {
        Metadata wanted = ReplicaContent.forCopy(de, tool, r);
        try {
            return pushed(de, r, tool, wanted, tool.update(current, wanted));
        } catch (RemoteChangedException again) { // changed once more meanwhile: the next round tries again
            return PushResult.due(PushOutcome.RETRY_LATER, clock.instant(), again.getMessage());
        } catch (ToolException failed) {
            return notTaken(owed, failed);
        }
    }

    /** A write the tool did not take: parked if it refused the record for good, else due again after the backoff. */
    PushResult notTaken(Outbox.Entry owed, ToolException failed) {
        if (failed instanceof RecordRefusedException refused) {
            LOG.warning(owed.tool() + " " + owed.account() + " refused a write of entity " + owed.entityId() + " (parked until it changes or is retried): "
                    + refused.getMessage());
            return PushResult.parked(refused.getMessage());
        }
        return due(owed, failed);
    }

    /** Due again after the backoff, or after the wait the tool asked for if that is longer. */
    private PushResult due(Outbox.Entry owed, ToolException failed) {
        Duration wait = backoff(owed.attempts());
        if (failed.retryAfter().isPresent() && failed.retryAfter().get().compareTo(wait) > 0) {
            wait = failed.retryAfter().get();
        }
        return PushResult.due(PushOutcome.RETRY_LATER, clock.instant().plus(wait), failed.getMessage());
    }

    /** Exponential from 2 s, capped at 15 min, with full jitter on the upper half so that retries of many rows spread out. */
    Duration backoff(int attempts) {
        long max = Math.min(LONGEST_RETRY.toMillis(), FIRST_RETRY.toMillis() << Math.min(attempts, 20));
        return Duration.ofMillis(max / 2 + random.nextLong(max / 2 + 1));
    }
}
