package dev.idiom.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the documents under docs/ name only what exists: every Java type, package, file,
 * link, command-line option and environment variable they mention is checked against the
 * repository, so a rename that leaves a document behind fails the build.
 */
class DocsTest {
    private static final Path ROOT = Path.of("..");
    private static final List<String> MODULES = List.of("db", "events", "cache", "wrappers", "consistency", "services", "perf");
    /**
     * Words in code spans that look like Java types but name something else: SOAP 1.1's own fault
     * code, a cookie attribute, and the library classes the documents explain a choice by.
     */
    private static final Set<String> NOT_JAVA = Set.of("VersionMismatch", "HttpOnly", "SearcherLifetimeManager");

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern TYPE = Pattern.compile("^([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)(?:[.#][A-Za-z][A-Za-z0-9]*)*(?:\\(\\))?$");
    private static final Pattern PACKAGE = Pattern.compile("^(?:dev\\.idiom\\.)?((?:db|events|cache|wrappers|consistency|services|perf)(?:\\.[a-z][a-z0-9]*)*)"
            + "(?:\\.([A-Z][A-Za-z0-9]*))?(?:\\.[A-Za-z]+)*$");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9.-]*[a-z0-9])");
    private static final Pattern ENV = Pattern.compile("\\bIDIOM_[A-Z0-9_]+\\b");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum|@interface)\\s+([A-Z][A-Za-z0-9]*)");

    @Test
    void everyDocumentNamesOnlyWhatExists() throws IOException {
        Set<String> types = new HashSet<>();
        StringBuilder corpus = new StringBuilder(); // main code and scripts: where options and variables are defined
        for (String m : MODULES) {
            for (Path src : List.of(ROOT.resolve(m).resolve("src/main/java"), ROOT.resolve(m).resolve("src/test/java"))) {
                for (Path f : files(src, ".java")) {
                    String text = Files.readString(f);
                    Matcher d = DECLARED.matcher(text);
                    while (d.find()) {
                        types.add(d.group(1));
                    }
                    if (src.toString().contains("main")) {
                        corpus.append(text).append('\n');
                    }
                }
            }
        }
        for (Path script : List.of(ROOT.resolve("idiom"), ROOT.resolve("tomcat-conf/deploy"))) {
            corpus.append(Files.readString(script));
        }
        files(ROOT.resolve("perf"), ".sh").forEach(f -> corpus.append(read(f)));
        files(ROOT.resolve("db/cluster"), "").forEach(f -> corpus.append(read(f)));
        for (dev.idiom.services.app.ErrorCode c : dev.idiom.services.app.ErrorCode.values()) {
            types.add(c.code()); // fault codes and problem codes read like type names
        }
        Set<String> keys = new HashSet<>();
        Set<String> variables = new HashSet<>();
        IdiomConfig.KEYS.forEach(k -> {
            keys.add(k.name());
            variables.add(k.environmentVariable());
        });

        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            String name = ROOT.relativize(doc).toString();
            String text = Files.readString(doc);
            Matcher span = CODE_SPAN.matcher(text);
            while (span.find()) {
                String s = span.group(1).strip();
                Matcher t = TYPE.matcher(s);
                Matcher p = PACKAGE.matcher(s);
                if (t.matches() && !types.contains(t.group(1)) && !NOT_JAVA.contains(t.group(1))) {
                    problems.add(name + ": `" + s + "` names no type in the code");
                } else if (keys.contains(s) || s.matches(".*\\.(xml|md|json|properties|jmx|sql|sh|html|bib|war|jar)")) {
                    continue; // a configuration key, or a file named by itself (its folder is in the text around it)
                } else if (p.matches() && s.contains(".") && !s.contains(" ")) {
                    Path dir = packageDir(p.group(1));
                    if (dir == null) {
                        problems.add(name + ": `" + s + "` names no package in the code");
                    } else if (p.group(2) != null && !types.contains(p.group(2))) {
                        problems.add(name + ": `" + s + "` names no type in the code");
                    }
                } else if (isPath(s) && !Files.exists(ROOT.resolve(pathPart(s)))) {
                    problems.add(name + ": `" + s + "` names no file in the repository");
                }
            }
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                if (!target.startsWith("http") && !target.startsWith("#") && !target.startsWith("mailto:")) {
                    Path file = doc.getParent().resolve(target.replaceAll("#.*", ""));
                    if (!Files.exists(file)) {
                        problems.add(name + ": the link " + target + " leads to no file");
                    }
                }
            }
            Matcher o = OPTION.matcher(text);
            while (o.find()) {
                String option = o.group(1);
                if (!keys.contains(option) && corpus.indexOf("\"" + option + "\"") < 0 && corpus.indexOf("--" + option) < 0) {
                    problems.add(name + ": --" + option + " is no option of ./idiom or a script");
                }
            }
            Matcher e = ENV.matcher(text);
            while (e.find()) {
                if (!variables.contains(e.group()) && corpus.indexOf(e.group()) < 0) {
                    problems.add(name + ": " + e.group() + " is read by nothing");
                }
            }
        }
        assertEquals(List.of(), problems.stream().distinct().toList(), "documents that name what does not exist");
    }

    @Test
    void theReadmeIsAFrontPageThatLinksEveryDocument() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertTrue(readme.length() < 12 * 1024, "the README stays a front page: " + readme.length() + " bytes");
        for (Path doc : files(ROOT.resolve("docs"), ".md")) {
            assertTrue(readme.contains("(docs/" + doc.getFileName() + ")"), "the README links " + doc.getFileName());
            assertTrue(Files.readString(doc).contains("**Contents**"), doc.getFileName() + " has its own contents");
        }
    }

    @Test
    void theCheckFindsANameThatDoesNotExist() {
        assertTrue(TYPE.matcher("ThreeWayMerge").matches(), "a type-shaped name is checked");
        assertTrue(PACKAGE.matcher("cache.lucene").matches(), "a package-shaped name is checked");
        assertEquals(null, packageDir("cache.lucene"), "the search index moved to cache.search.lucene");
        assertTrue(packageDir("cache.search.lucene") != null);
    }

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(files(ROOT.resolve("docs"), ".md"));
        docs.add(ROOT.resolve("README.md"));
        docs.add(ROOT.resolve("SECURITY.md"));
        return docs;
    }

    /** The folder of a package such as {@code cache.search.lucene} in any module, or null. */
    private static Path packageDir(String pkg) {
        String rel = "dev/idiom/" + pkg.replace('.', '/');
        for (String m : MODULES) {
            for (String set : List.of("src/main/java", "src/test/java")) {
                Path d = ROOT.resolve(m).resolve(set).resolve(rel);
                if (Files.isDirectory(d)) {
                    return d;
                }
            }
        }
        return null;
    }

    /** A repository path: a slash, no spaces, not a URL path, a placeholder, a build output or a glob. */
    private static boolean isPath(String s) {
        boolean plain = s.contains("/") && !s.contains(" ") && !s.startsWith("/") && !s.contains("://") && !s.contains("<") && !s.contains("…")
                && !s.contains("*") && !s.contains("target/") && !s.contains("{") && !s.contains("=") && !s.contains("|") && !s.startsWith("$");
        return plain && Stream.concat(MODULES.stream(), Stream.of("tomcat-conf", "docs", ".ci", ".mvn")).anyMatch(m -> s.startsWith(m + "/"));
    }

    private static String pathPart(String s) {
        return s.replaceAll("[:#].*", "");
    }

    private static List<Path> files(Path dir, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(suffix) && !f.toString().contains("/target/")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
