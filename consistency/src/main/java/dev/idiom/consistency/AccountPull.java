package dev.idiom.consistency;

import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.consistency.report.Progress;
import dev.idiom.consistency.report.SyncRefusedException;
import dev.idiom.events.accounts.ToolAccountRepository;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.ToolIdentityChangedException;
import java.time.Clock;
import java.util.List;
import java.util.logging.Logger;

/**
 * A pull of one account: what changed there since its cursor comes in ({@link Pull}), then the
 * deletions it reports go through the deletion rules ({@link Deletions}). A tool that now answers
 * for another user holds the account. A send-only account is not pulled. A sync, a scheduled pull
 * and an import of a configured account ({@code POST /api/imports}, {@code ./idiom import --account})
 * all run this one pull, so none of them moves the account's cursor past deletions it did not apply.
 */
final class AccountPull {
    private static final Logger LOG = Logger.getLogger(AccountPull.class.getName());

    /** What a pull did. */
    record Pulled(ImportSummary summary, int unlinked, String held) {}

    private final Pull pull;
    private final Deletions deletions;
    private final ToolAccountRepository states;
    private final Clock clock;
    private final ToolDirectory tools;
    private final AccountExclusion exclusion;

    AccountPull(Pull pull, Deletions deletions, ToolAccountRepository states, ToolDirectory tools, Clock clock, AccountExclusion exclusion) {
        this.exclusion = exclusion;
        this.tools = tools;
        this.pull = pull;
        this.deletions = deletions;
        this.states = states;
        this.clock = clock;
    }

    Pulled run(AnnotationTool tool, boolean allowDeletions, Progress progress) {
        return run(tool, allowDeletions, false, progress);
    }

    /** @param fromStart the whole account, not what changed since the cursor (a snapshot: what it no longer lists is gone) */
    Pulled run(AnnotationTool tool, boolean allowDeletions, boolean fromStart, Progress progress) {
        return exclusion.holding(tool, () -> pulled(tool, allowDeletions, fromStart, progress)); // the listing and its deletions, no push between
    }

    private Pulled pulled(AnnotationTool tool, boolean allowDeletions, boolean fromStart, Progress progress) {
        if (!MirrorRules.of(tools).of(tool.kind(), tool.account()).rule().direction().read()) {
            return new Pulled(new ImportSummary(), 0, null); // send-only: Idiom never takes the account's changes
        }
        ImportSummary summary;
        try {
            summary = pull.importAll(tool, fromStart, progress);
        } catch (ToolIdentityChangedException other) {
            String why = tool.kind() + " " + tool.account() + ": " + other.getMessage();
            deletions.hold(tool, new HeldDeletions(why, List.of()));
            throw new SyncRefusedException("held: " + why);
        }
        Deletions.Applied d = deletions.apply(tool, summary.deletedRemoteIds(), allowDeletions);
        states.updateSyncState(tool.kind(), tool.account(), s -> s.pulled(clock.instant()), clock.instant());
        if (summary.records() > 0 || d.unlinked() > 0 || d.held() != null) { // an empty pull every interval would drown the log
            LOG.info("pulled " + tool.kind() + " " + tool.account() + ": " + summary + "; " + d.unlinked() + " unlinked"
                    + (d.held() == null ? "" : "; held: " + d.held()));
        }
        return new Pulled(summary, d.unlinked(), d.held());
    }
}
