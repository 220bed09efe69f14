package dev.idiom.wrappers.bibsonomy;

import java.util.List;
import java.util.Locale;

/**
 * BibSonomy's system tags: tags with a meaning beyond a keyword (its help page "How to use tags",
 * and the blog's "Feature of the week: System Tags"). Executable ones act when a post is saved:
 * {@code for:<group>} copies it into the group's collection (the copy stays), {@code send:<user>}
 * puts it in a user's inbox, {@code myown} adds it to the CV page, {@code sys:relevantFor:<group>}
 * marks it for a group, {@code sys:hidden:<tag>} hides a tag; {@code from:} and {@code sent:} are
 * what BibSonomy itself leaves behind. Matched without regard to case, as BibSonomy matches tags.
 */
public final class SystemTags {
    private static final List<String> PREFIXES = List.of("for:", "send:", "sent:", "from:", "sys:", "system:", "relevantfor:");

    private SystemTags() {}

    /** True when writing {@code tag} to a BibSonomy post would do something. */
    public static boolean acts(String tag) {
        String t = tag.strip().toLowerCase(Locale.ROOT);
        return t.equals("myown") || PREFIXES.stream().anyMatch(t::startsWith);
    }
}
