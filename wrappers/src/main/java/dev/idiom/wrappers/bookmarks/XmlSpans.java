package dev.idiom.wrappers.bookmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each element of an XML text stands in it: its start tag, its content, its end tag. Read
 * from the text itself (comments, CDATA, processing instructions and the doctype stepped over,
 * quoted attribute values may hold {@code >}), so that a change can be made to the text in place
 * and every other byte — attribute order, quotes, entities, white space — stays as it was written.
 * Only for text a parser has already accepted as well-formed: it checks nothing.
 */
final class XmlSpans {
    /**
     * One element.
     *
     * @param start where its start tag begins ({@code <})
     * @param startTagEnd just past its start tag's {@code >}
     * @param endTagStart where its end tag begins ({@code startTagEnd} for {@code <x/>})
     * @param end just past its end tag
     * @param selfClosed written {@code <x/>}
     */
    record Span(String name, int start, int startTagEnd, int endTagStart, int end, boolean selfClosed, List<Span> children) {
        /** Its first child element of this name, or null. */
        Span child(String name) {
            return children.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
        }
    }

    private XmlSpans() {}

    /** The document element's span, its descendants within. */
    static Span root(String text) {
        List<Builder> stack = new ArrayList<>();
        Builder top = new Builder(null, -1, -1);
        stack.add(top);
        int i = text.indexOf('<');
        while (i >= 0 && i < text.length()) {
            if (text.startsWith("<!--", i)) {
                i = after(text, "-->", i + 4);
            } else if (text.startsWith("<![CDATA[", i)) {
                i = after(text, "]]>", i + 9);
            } else if (text.startsWith("<?", i)) {
                i = after(text, "?>", i + 2);
            } else if (text.startsWith("<!", i)) { // the doctype, with its internal subset if it has one
                int depth = 0;
                int j = i + 2;
                for (; j < text.length(); j++) {
                    char c = text.charAt(j);
                    if (c == '[') {
                        depth++;
                    } else if (c == ']') {
                        depth--;
                    } else if (c == '>' && depth <= 0) {
                        break;
                    }
                }
                i = j + 1;
            } else if (text.startsWith("</", i)) {
                int close = text.indexOf('>', i);
                Builder b = stack.removeLast();
                stack.getLast().children.add(new Span(b.name, b.start, b.startTagEnd, i, close + 1, false, List.copyOf(b.children)));
                i = close + 1;
            } else {
                int j = i + 1;
                while (j < text.length() && !Character.isWhitespace(text.charAt(j)) && text.charAt(j) != '>' && text.charAt(j) != '/') {
                    j++;
                }
                String name = text.substring(i + 1, j);
                char quote = 0;
                for (; j < text.length(); j++) {
                    char c = text.charAt(j);
                    if (quote != 0) {
                        quote = c == quote ? 0 : quote;
                    } else if (c == '"' || c == '\'') {
                        quote = c;
                    } else if (c == '>') {
                        break;
                    }
                }
                if (text.charAt(j - 1) == '/') {
                    stack.getLast().children.add(new Span(name, i, j + 1, j + 1, j + 1, true, List.of()));
                } else {
                    stack.add(new Builder(name, i, j + 1));
                }
                i = j + 1;
            }
            i = i < text.length() ? text.indexOf('<', i) : -1;
        }
        return top.children.getFirst();
    }

    /** Every element in document order (the order a DOM's elements have). */
    static List<Span> all(Span root) {
        List<Span> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Span s, List<Span> out) {
        out.add(s);
        s.children().forEach(c -> collect(c, out));
    }

    private static int after(String text, String end, int from) {
        int at = text.indexOf(end, from);
        return at < 0 ? text.length() : at + end.length();
    }

    private static final class Builder {
        final String name;
        final int start;
        final int startTagEnd;
        final List<Span> children = new ArrayList<>();

        Builder(String name, int start, int startTagEnd) {
            this.name = name;
            this.start = start;
            this.startTagEnd = startTagEnd;
        }
    }
}
