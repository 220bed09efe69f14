package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A record's notes as the child note of a new Zotero item, as Zotero keeps notes: HTML, a
 * paragraph per run of lines between blank lines, a line break where the text has one, the
 * characters HTML gives a meaning escaped. (Zotero's notes are child items of their own, not a
 * field: see {@link ZoteroTool#createAll} for when one is written, {@link ZoteroTool#changedSince} for when one is read.)
 */
final class ZoteroNote {
    private ZoteroNote() {}

    /** The note's HTML for plain {@code text}. */
    static String html(String text) {
        StringBuilder out = new StringBuilder();
        for (String paragraph : text.strip().split("\\R\\s*\\R")) {
            if (paragraph.isBlank()) {
                continue;
            }
            out.append("<p>").append(String.join("<br>", paragraph.strip().lines().map(ZoteroNote::escaped).toList())).append("</p>");
        }
        return out.toString();
    }

    /** The child note of item {@code parentKey} holding {@code text}, as the API creates one (no collections: a child item has none). */
    static ObjectNode child(String parentKey, String text) {
        ObjectNode note = JsonNodeFactory.instance.objectNode().put("itemType", "note").put("parentItem", parentKey).put("note", html(text));
        note.putArray("tags");
        note.putObject("relations");
        return note;
    }

    /**
     * A note's HTML as plain text, as {@link #html} writes it back: a paragraph (or heading, list item,
     * block) ends with a blank line, {@code <br>} with a line end, entities decoded, other tags dropped.
     */
    static String text(String html) {
        String t = html.replaceAll("(?i)<br\\s*/?>", "\n").replaceAll("(?i)</(p|div|h[1-6]|li|blockquote|pre|tr)>", "\n\n")
                .replaceAll("(?s)<[^>]*>", "");
        t = t.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
        return String.join("\n", t.lines().map(String::strip).toList()).replaceAll("\n{3,}", "\n\n").strip();
    }

    private static String escaped(String line) {
        return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
