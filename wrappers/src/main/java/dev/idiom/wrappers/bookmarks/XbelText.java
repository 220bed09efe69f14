package dev.idiom.wrappers.bookmarks;

import org.w3c.dom.Attr;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * An XBEL element written back as XML text, every node as the parser gave it (white space,
 * comments, CDATA, processing instructions and every attribute), escaped as floccus' builder
 * escapes (quotes and apostrophes too): a file floccus wrote comes back as it was apart from what
 * Idiom changed (attributes in the parser's order: name order).
 */
final class XbelText {
    private XbelText() {}

    static void element(StringBuilder out, Node e) {
        out.append('<').append(e.getNodeName());
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            out.append(' ').append(a.getName()).append("=\"").append(escape(a.getValue(), true)).append('"');
        }
        if (!e.hasChildNodes()) {
            out.append("/>");
            return;
        }
        out.append('>');
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            switch (n.getNodeType()) {
                case Node.ELEMENT_NODE -> element(out, n);
                case Node.TEXT_NODE -> out.append(escape(n.getNodeValue(), false));
                case Node.CDATA_SECTION_NODE -> out.append("<![CDATA[").append(n.getNodeValue()).append("]]>");
                case Node.COMMENT_NODE -> out.append("<!--").append(n.getNodeValue()).append("-->");
                case Node.PROCESSING_INSTRUCTION_NODE -> out.append("<?").append(n.getNodeName())
                        .append(n.getNodeValue().isEmpty() ? "" : " " + n.getNodeValue()).append("?>");
                case Node.ENTITY_REFERENCE_NODE -> out.append('&').append(n.getNodeName()).append(';');
                default -> { } // nothing else can stand inside an element
            }
        }
        out.append("</").append(e.getNodeName()).append('>');
    }

    private static String escape(String s, boolean attribute) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;"); // as floccus' XML builder writes both
                case '\n' -> out.append(attribute ? "&#10;" : "\n");
                case '\r' -> out.append("&#13;");
                case '\t' -> out.append(attribute ? "&#9;" : "\t");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
