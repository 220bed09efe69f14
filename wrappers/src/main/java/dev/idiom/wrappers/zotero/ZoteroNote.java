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
        t = decoded(t);
        return String.join("\n", t.lines().map(String::strip).toList()).replaceAll("\n{3,}", "\n\n").strip();
    }

    private static final java.util.regex.Pattern ENTITY = java.util.regex.Pattern.compile("&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,6});");
    private static final java.util.Map<String, String> NAMED = java.util.Map.of("nbsp", " ", "lt", "<", "gt", ">", "quot", "\"", "apos", "'", "amp", "&");

    /**
     * Character references decoded in one pass, so each is decoded once ({@code &amp;lt;} is the text
     * {@code &lt;}): the names HTML's serializer writes, and every numeric one (a web page's
     * {@code &#xa0;}, {@code &#8211;}); a no-break space reads as a space, as {@code &nbsp;} always did.
     * A reference that names no character is left as it is.
     */
    static String decoded(String t) {
        java.util.regex.Matcher m = ENTITY.matcher(t);
        StringBuilder out = new StringBuilder(t.length());
        while (m.find()) {
            String ref = m.group(1);
            String c = NAMED.get(ref);
            if (ref.startsWith("#")) {
                int cp = ref.length() > 1 && (ref.charAt(1) == 'x' || ref.charAt(1) == 'X') ? Integer.parseInt(ref.substring(2), 16) : Integer.parseInt(ref.substring(1));
                c = cp == 0xA0 ? " " : Character.isValidCodePoint(cp) && cp != 0 && !Character.isSurrogate((char) cp) ? Character.toString(cp) : null;
            }
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(c == null ? m.group() : c));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String escaped(String line) {
        return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
