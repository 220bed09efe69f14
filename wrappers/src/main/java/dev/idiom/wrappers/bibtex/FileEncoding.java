package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.ToolException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a BibTeX file is stored: its charset (UTF-8, or what JabRef's {@code % Encoding:} header names)
 * and whether it starts with a byte-order mark; a rewrite keeps both.
 */
record FileEncoding(Charset charset, boolean bom) {
    private static final Pattern HEADER = Pattern.compile("\\A(?:\uFEFF)?%\\s*Encoding:\\s*([A-Za-z0-9_.:-]+)");
    /** The bytes {@link #of} needs to see: a byte-order mark and the 200 after it. */
    static final int HEAD_BYTES = 203;

    static FileEncoding of(byte[] bytes) {
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
        // the header is ASCII in every charset JabRef writes, so reading the start as Latin-1 finds it
        String head = new String(bytes, bom ? 3 : 0, Math.min(bytes.length - (bom ? 3 : 0), HEAD_BYTES - 3), StandardCharsets.ISO_8859_1);
        Matcher m = HEADER.matcher(head);
        Charset cs = StandardCharsets.UTF_8;
        if (m.find()) {
            try {
                cs = Charset.forName(m.group(1));
            } catch (IllegalArgumentException unknown) {
                throw new ToolException("BibTeX file names an encoding Java does not know: " + m.group(1));
            }
        }
        return new FileEncoding(cs, bom);
    }

    String decode(byte[] bytes) {
        return new String(bytes, bom ? 3 : 0, bytes.length - (bom ? 3 : 0), charset);
    }

    byte[] encode(String text) {
        byte[] body = LatexAccents.encodable(text, charset).getBytes(charset);
        if (!bom) {
            return body;
        }
        byte[] out = new byte[body.length + 3];
        out[0] = (byte) 0xEF;
        out[1] = (byte) 0xBB;
        out[2] = (byte) 0xBF;
        System.arraycopy(body, 0, out, 3, body.length);
        return out;
    }
}
