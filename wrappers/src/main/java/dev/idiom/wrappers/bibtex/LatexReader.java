package dev.idiom.wrappers.bibtex;

import dev.idiom.wrappers.Braces;
import java.text.Normalizer;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A BibTeX value's LaTeX read as TeX reads it, into the text it prints: braces group and vanish; a
 * control word ends at its first non-letter and eats the spaces after it ({@code Wei\ss becker} is
 * "Weißbecker", {@code \LaTeX{} and} keeps its space); accents compose with their letter (a group, a
 * letter or {@code \i}); the text symbols of LaTeX, textcomp and biblatex are their characters; a
 * tie ({@code ~}) is a no-break space; font commands show their argument; math of only letters,
 * digits and the symbols below is its characters, other math stays as written. What a curator types
 * stays as typed ({@code --}, {@code ``}, {@code '}: the file's text is not typeset). A command this
 * reader does not know is kept as written, its arguments with it, so nothing is lost to a guess.
 * The cases it is held to, with the manuals they come from, are in its test's table.
 */
final class LatexReader {
    /** Text symbols (LaTeX's base set, textcomp, T1's letters, biblatex's and hyperref's words) and what they print. */
    private static final Map<String, String> SYMBOLS = symbols();
    /** Math-mode commands a title uses on their own ({@code $\alpha$-helix}) and their characters. */
    private static final Map<String, String> MATH = mathSymbols();
    /** Commands whose one argument is printed as text (font changes, boxes, biblatex's formatting wrappers). */
    private static final Set<String> SHOWN = Set.of("emph", "textit", "textbf", "textsc", "texttt", "textrm", "textsf", "textsl",
            "textup", "textmd", "textnormal", "mbox", "hbox", "text", "textsuperscript", "textsubscript", "mkbibemph", "mkbibitalic",
            "mkbibbold", "textcolor", "ensuremath", "protect", "textenglish", "foreignlanguage", "hl", "underline", "uline");
    /** Declarations that change the font or spacing and print nothing themselves. */
    private static final Set<String> DECLARATIONS = Set.of("bf", "it", "em", "sc", "tt", "rm", "sf", "sl", "up", "md", "normalfont",
            "bfseries", "itshape", "scshape", "ttfamily", "rmfamily", "sffamily", "upshape", "mdseries", "slshape", "relax", "noindent",
            "newblock", "nobreak", "nolinebreak", "smallskip", "medskip", "bigskip", "selectlanguage", "unskip", "ignorespaces");
    /** Commands whose argument is printed as written, not read as LaTeX (addresses). */
    private static final Set<String> VERBATIM = Set.of("url", "nolinkurl", "path", "doi", "verb");
    /** Commands whose one argument prints nothing ({@code \noopsort{1973b}}: a sort key BibTeX styles hide). */
    private static final Set<String> HIDDEN = Set.of("noopsort", "SortNoop", "sortnoop", "phantom", "hphantom", "vphantom", "label", "index");
    /** Accent commands (control words) and the combining mark each puts on its letter; {@code \t} ties two letters. */
    private static final Map<String, Character> WORD_ACCENTS = new HashMap<>();
    /** Accent control symbols ({@code \'}, {@code \"}, …) and their marks. */
    private static final Map<Character, Character> SYMBOL_ACCENTS = new HashMap<>();

    static {
        LatexAccents.ACCENTS.forEach((mark, command) -> {
            if (Character.isLetter(command.charAt(0))) {
                WORD_ACCENTS.put(command, mark);
            } else {
                SYMBOL_ACCENTS.put(command.charAt(0), mark);
            }
        });
        WORD_ACCENTS.put("t", '\u0361');
        WORD_ACCENTS.put("G", '\u030F');
    }

    private final String s;
    private int i;
    private final StringBuilder out;

    private LatexReader(String s, StringBuilder out) {
        this.s = s;
        this.out = out;
    }

    /** The text {@code raw} prints. */
    static String read(String raw) {
        LatexReader r = new LatexReader(raw, new StringBuilder(raw.length()));
        r.text(false);
        return r.out.toString();
    }

    /** Reads to the end, or (in a group) to the brace that closes it. */
    private void text(boolean inGroup) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                text(true);
            } else if (c == '}') {
                i++;
                if (inGroup) {
                    return;
                } // a stray closing brace prints nothing
            } else if (c == '\\') {
                command();
            } else if (c == '~') {
                i++;
                out.append('\u00A0');
            } else if (c == '$') {
                math();
            } else {
                out.append(c);
                i++;
            }
        }
    }

    private void command() {
        i++;
        if (i >= s.length()) {
            out.append('\\');
            return;
        }
        char c = s.charAt(i);
        if (!isLetter(c)) {
            i++;
            controlSymbol(c);
            return;
        }
        int start = i;
        while (i < s.length() && isLetter(s.charAt(i))) {
            i++;
        }
        String name = s.substring(start, i);
        int afterName = i;
        skipSpaces();
        if (WORD_ACCENTS.containsKey(name)) {
            accent(WORD_ACCENTS.get(name));
        } else if (SYMBOLS.containsKey(name)) {
            out.append(SYMBOLS.get(name));
            emptyGroup();
        } else if (SHOWN.contains(name)) {
            if (name.equals("textcolor") || name.equals("foreignlanguage")) {
                skipArgument(); // the colour, the language
            }
            argument();
        } else if (name.equals("href")) {
            skipArgument();
            argument();
        } else if (name.equals("enquote") || name.equals("mkbibquote")) {
            out.append('“');
            argument();
            out.append('”');
        } else if (name.equals("MakeUppercase") || name.equals("uppercase") || name.equals("MakeLowercase") || name.equals("lowercase")) {
            int from = out.length();
            argument();
            String arg = out.substring(from);
            out.setLength(from);
            out.append(name.toLowerCase(Locale.ROOT).contains("upper") ? arg.toUpperCase(Locale.ROOT) : arg.toLowerCase(Locale.ROOT));
        } else if (VERBATIM.contains(name) && i < s.length() && s.charAt(i) == '{') {
            int end = Braces.closing(s, i);
            out.append(s, i + 1, end < 0 ? s.length() : end);
            i = end < 0 ? s.length() : end + 1;
        } else if (HIDDEN.contains(name)) {
            skipArgument();
        } else if (DECLARATIONS.contains(name)) {
            emptyGroup();
        } else {
            // unknown: kept as written with its arguments, spaces after it too
            i = afterName;
            out.append('\\').append(name);
            while (i < s.length() && s.charAt(i) == '{') {
                int end = Braces.closing(s, i);
                out.append(s, i, end < 0 ? s.length() : end + 1);
                i = end < 0 ? s.length() : end + 1;
            }
        }
    }

    private void controlSymbol(char c) {
        Character mark = SYMBOL_ACCENTS.get(c);
        if (mark != null) {
            skipSpaces();
            accent(mark);
            return;
        }
        switch (c) {
            case '&', '%', '$', '#', '_', '{', '}' -> out.append(c);
            case ' ', '\t', '\n', '\r' -> out.append(' ');
            case '\\' -> out.append('\n'); // a line break
            case ',' -> out.append('\u2009'); // a thin space
            case ';' -> out.append('\u2005');
            case '-', '/', '@' -> { } // a hyphenation point, an italic correction, a spacing hint: nothing printed
            default -> out.append('\\').append(c);
        }
    }

    /** An accent's letter: a group ({@code \'{e}}, {@code \"{\i}}), a command ({@code \'\i}) or one character. */
    private void accent(char mark) {
        if (i >= s.length()) {
            out.append(mark);
            return;
        }
        int from = out.length();
        argument();
        String base = out.substring(from);
        out.setLength(from);
        if (base.isEmpty()) {
            out.append(mark);
            return;
        }
        int first = Character.charCount(base.codePointAt(0));
        String letter = base.substring(0, first);
        letter = letter.equals("ı") ? "i" : letter.equals("ȷ") ? "j" : letter; // an accent on \i is on i
        out.append(Normalizer.normalize(letter + mark, Normalizer.Form.NFC)).append(base, first, base.length());
    }

    /** One argument read as text into {@code out}: a group, a command, or one character. */
    private void argument() {
        skipSpaces();
        if (i >= s.length()) {
            return;
        }
        char c = s.charAt(i);
        if (c == '{') {
            i++;
            text(true);
        } else if (c == '\\') {
            command();
        } else if (c != '}') {
            out.appendCodePoint(s.codePointAt(i));
            i += Character.charCount(s.codePointAt(i));
        }
    }

    private void skipArgument() {
        int from = out.length();
        argument();
        out.setLength(from);
    }

    private void emptyGroup() {
        if (s.startsWith("{}", i)) {
            i += 2;
        }
    }

    /** {@code $…$}: its characters if it holds only letters, digits, plain symbols and {@link #MATH}'s commands; else as written. */
    private void math() {
        int open = s.startsWith("$$", i) ? 2 : 1;
        int end = s.indexOf(open == 2 ? "$$" : "$", i + open);
        while (end > 0 && s.charAt(end - 1) == '\\') {
            end = s.indexOf(open == 2 ? "$$" : "$", end + 1);
        }
        if (end < 0) {
            out.append('$');
            i++;
            return;
        }
        String inside = s.substring(i + open, end);
        String printed = mathText(inside);
        out.append(printed != null ? printed : s.substring(i, end + open));
        i = end + open;
    }

    private static String mathText(String inside) {
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < inside.length(); ) {
            char c = inside.charAt(j);
            if (c == '\\') {
                int k = j + 1;
                while (k < inside.length() && isLetter(inside.charAt(k))) {
                    k++;
                }
                String symbol = MATH.get(inside.substring(j + 1, k));
                if (symbol == null) {
                    return null;
                }
                text.append(symbol);
                j = k;
                while (j < inside.length() && inside.charAt(j) == ' ') {
                    j++;
                }
            } else if (Character.isLetterOrDigit(c) || " +-=<>()[]/.,;:'|!*".indexOf(c) >= 0) {
                text.append(c == '-' ? '−' : c);
                j++;
            } else {
                return null; // sub- and superscripts, groups, anything typeset: kept as written
            }
        }
        return text.toString();
    }

    private void skipSpaces() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private static boolean isLetter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static Map<String, String> symbols() {
        Map<String, String> m = new HashMap<>();
        LatexAccents.LETTERS.forEach((letter, command) -> m.put(command.substring(1), String.valueOf(letter)));
        String[] table = {
            // letters of T1 and the OT1 set LaTeX's manual lists (\i and \j dotless)
            "j", "ȷ", "ng", "ŋ", "NG", "Ŋ", "th", "þ", "TH", "Þ", "dh", "ð", "DH", "Ð", "SS", "SS", "ij", "ĳ", "IJ", "Ĳ",
            // LaTeX's text symbols (LaTeX2e's font encodings guide, textcomp)
            "textgreater", ">", "textless", "<", "textbar", "|", "textbackslash", "\\", "textasciitilde", "~", "textasciicircum", "^",
            "textunderscore", "_", "textbraceleft", "{", "textbraceright", "}", "textdollar", "$", "textendash", "–", "textemdash", "—",
            "textquoteleft", "‘", "textquoteright", "’", "textquotedblleft", "“", "textquotedblright", "”", "textquotesingle", "'",
            "textquotedbl", "\"", "guillemotleft", "«", "guillemotright", "»", "guillemetleft", "«", "guillemetright", "»",
            "guilsinglleft", "‹", "guilsinglright", "›", "quotedblbase", "„", "quotesinglbase", "‚", "textexclamdown", "¡",
            "textquestiondown", "¿", "textbullet", "•", "textperiodcentered", "·", "textdegree", "°", "S", "§", "textsection", "§",
            "P", "¶", "textparagraph", "¶", "dag", "†", "textdagger", "†", "ddag", "‡", "textdaggerdbl", "‡", "copyright", "©",
            "textcopyright", "©", "textregistered", "®", "texttrademark", "™", "pounds", "£", "textsterling", "£", "texteuro", "€",
            "euro", "€", "textyen", "¥", "textcent", "¢", "ldots", "…", "dots", "…", "textellipsis", "…", "textmu", "µ",
            "textonehalf", "½", "textonequarter", "¼", "textthreequarters", "¾", "texttimes", "×", "textdiv", "÷", "textpm", "±",
            "textminus", "−", "textasteriskcentered", "∗", "textvisiblespace", "␣", "textordfeminine", "ª", "textordmasculine", "º",
            "textnumero", "№", "textperthousand", "‰", "textonesuperior", "¹", "texttwosuperior", "²", "textthreesuperior", "³",
            "textlangle", "〈", "textrangle", "〉", "textleftarrow", "←", "textrightarrow", "→", "textuparrow", "↑", "textdownarrow", "↓",
            "textcelsius", "℃", "textohm", "Ω", "textflorin", "ƒ", "textbrokenbar", "¦", "textlnot", "¬", "textcurrency", "¤",
            "textasciimacron", "¯", "textasciiacute", "´", "textasciidieresis", "¨", "textasciigrave", "`", "textasciicaron", "ˇ",
            "textasciibreve", "˘", "textblank", "␢", "textestimated", "℮", "textinterrobang", "‽", "textdiscount", "⁒",
            // hyphens and spaces (biblatex's \hyphen, hyphenat's \hyp, LaTeX's \slash, \nobreakspace, \thinspace, \quad)
            "hyphen", "-", "hyp", "-", "slash", "/", "textslash", "/", "nobreakdash", "", "nobreakspace", "\u00A0", "space", " ",
            "thinspace", "\u2009", "enspace", "\u2002", "quad", "\u2003", "qquad", "\u2003\u2003", "enskip", "\u2002",
            "newline", "\n", "linebreak", "\n", "par", "\n", "textnbsp", "\u00A0", "textnbhyphen", "\u2011",
            "allowbreak", "", "hfill", " ", "break", "",
            // logos (LaTeX's manual; biblatex's \bibtex words)
            "TeX", "TeX", "LaTeX", "LaTeX", "LaTeXe", "LaTeX2ε", "BibTeX", "BibTeX", "XeTeX", "XeTeX", "XeLaTeX", "XeLaTeX",
            "LuaTeX", "LuaTeX", "LuaLaTeX", "LuaLaTeX", "pdfTeX", "pdfTeX", "pdfLaTeX", "pdfLaTeX", "ConTeXt", "ConTeXt",
            "biblatex", "biblatex", "BibLaTeX", "BibLaTeX", "AmS", "AMS", "AmSTeX", "AMS-TeX",
        };
        for (int k = 0; k < table.length; k += 2) {
            m.put(table[k], table[k + 1]);
        }
        return Map.copyOf(m);
    }

    private static Map<String, String> mathSymbols() {
        String[] table = {
            "alpha", "α", "beta", "β", "gamma", "γ", "delta", "δ", "epsilon", "ϵ", "varepsilon", "ε", "zeta", "ζ", "eta", "η",
            "theta", "θ", "vartheta", "ϑ", "iota", "ι", "kappa", "κ", "lambda", "λ", "mu", "μ", "nu", "ν", "xi", "ξ", "pi", "π",
            "varpi", "ϖ", "rho", "ρ", "varrho", "ϱ", "sigma", "σ", "varsigma", "ς", "tau", "τ", "upsilon", "υ", "phi", "ϕ",
            "varphi", "φ", "chi", "χ", "psi", "ψ", "omega", "ω", "Gamma", "Γ", "Delta", "Δ", "Theta", "Θ", "Lambda", "Λ", "Xi", "Ξ",
            "Pi", "Π", "Sigma", "Σ", "Upsilon", "Υ", "Phi", "Φ", "Psi", "Ψ", "Omega", "Ω",
            "pm", "±", "mp", "∓", "times", "×", "div", "÷", "cdot", "⋅", "leq", "≤", "le", "≤", "geq", "≥", "ge", "≥", "neq", "≠",
            "ne", "≠", "approx", "≈", "sim", "∼", "simeq", "≃", "equiv", "≡", "infty", "∞", "rightarrow", "→", "to", "→",
            "leftarrow", "←", "leftrightarrow", "↔", "Rightarrow", "⇒", "Leftarrow", "⇐", "partial", "∂", "nabla", "∇", "sum", "∑",
            "prod", "∏", "int", "∫", "in", "∈", "notin", "∉", "subset", "⊂", "subseteq", "⊆", "cup", "∪", "cap", "∩", "emptyset", "∅",
            "forall", "∀", "exists", "∃", "neg", "¬", "wedge", "∧", "vee", "∨", "ll", "≪", "gg", "≫", "propto", "∝", "circ", "∘",
            "ast", "∗", "star", "⋆", "prime", "′", "ell", "ℓ", "hbar", "ℏ", "degree", "°", "langle", "⟨", "rangle", "⟩",
            "ldots", "…", "cdots", "⋯", "sqrt", "√",
        };
        Map<String, String> m = new HashMap<>();
        for (int k = 0; k < table.length; k += 2) {
            m.put(table[k], table[k + 1]);
        }
        return Map.copyOf(m);
    }
}
