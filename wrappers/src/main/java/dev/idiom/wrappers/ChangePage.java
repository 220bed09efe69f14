package dev.idiom.wrappers;

import java.util.List;

/**
 * One page of changes from a tool.
 *
 * @param records records created or changed since the cursor
 * @param deleted remote ids deleted since the cursor (empty for tools that do not say)
 * @param skipped records that could not be read, with the reason
 * @param cursor where the next call continues
 * @param more true if another page follows at once
 * @param complete true if the pages of this pass list every record the account holds (a full
 *     snapshot, as Pinboard's posts/all is): a copy Idiom knows that is not listed was deleted
 * @param present remote ids the listing showed unchanged since the cursor (not in {@code records}): a complete listing
 *     that leaves unchanged records out names them here, so that they are not taken for deleted
 */
public record ChangePage(List<RemoteRecord> records, List<String> deleted, List<Skipped> skipped, String cursor, boolean more, boolean complete,
                         List<String> present) {
    public ChangePage {
        records = List.copyOf(records);
        deleted = List.copyOf(deleted);
        skipped = List.copyOf(skipped);
        present = List.copyOf(present);
    }

    public ChangePage(List<RemoteRecord> records, List<String> deleted, List<Skipped> skipped, String cursor, boolean more, boolean complete) {
        this(records, deleted, skipped, cursor, more, complete, List.of());
    }

    public ChangePage(List<RemoteRecord> records, List<String> deleted, List<Skipped> skipped, String cursor, boolean more) {
        this(records, deleted, skipped, cursor, more, false);
    }
}
