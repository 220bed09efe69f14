package dev.idiom.services.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The saturation reports {@code ./idiom perf} wrote (one folder each, with summary.json): listed
 * newest first, and their files served read-only, never anything outside the folder.
 */
final class SaturationReports {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    SaturationReports(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    Path dir() {
        return dir;
    }

    /** One report as the listing shows it. */
    record Listed(String name, boolean complete, String incompleteReason, String startedAt, String target, int operations, String baselineSaturation) {}

    List<Listed> list() {
        List<Listed> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> folders = Files.list(dir)) {
            for (Path f : folders.filter(p -> Files.isRegularFile(p.resolve("summary.json"))).sorted(Comparator.reverseOrder()).toList()) {
                try {
                    JsonNode s = JSON.readTree(f.resolve("summary.json").toFile());
                    JsonNode base = null;
                    for (JsonNode o : s.path("operations")) {
                        if (o.path("name").asText().equals(s.path("baseline").asText())) {
                            base = o;
                        }
                    }
                    out.add(new Listed(f.getFileName().toString(), s.path("complete").asBoolean(), s.path("incompleteReason").asText(null),
                            s.path("startedAt").asText(), s.path("target").asText(), s.path("operations").size(),
                            base == null ? null : point(base)));
                } catch (IOException e) {
                    out.add(new Listed(f.getFileName().toString(), false, "summary.json unreadable: " + e.getMessage(), "", "", 0, null));
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The file at {@code relative} inside the reports folder, if it is one (no way out of the folder). */
    Optional<Path> file(String relative) {
        if (relative.isEmpty() || relative.contains("\\") || relative.contains("\0")) {
            return Optional.empty();
        }
        for (String part : relative.split("/")) {
            if (part.equals("..") || part.startsWith(".")) {
                return Optional.empty();
            }
        }
        Path p = dir.resolve(relative).normalize();
        if (!p.startsWith(dir)) {
            return Optional.empty();
        }
        try {
            if (Files.isDirectory(p)) {
                p = p.resolve(Files.exists(p.resolve("report.html")) ? "report.html" : "index.html");
            }
            return Files.isRegularFile(p) && p.toRealPath().startsWith(dir.toRealPath()) ? Optional.of(p) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String contentType(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = n.lastIndexOf('.');
        return switch (dot < 0 ? "" : n.substring(dot + 1)) {
            case "html", "htm" -> "text/html;charset=UTF-8";
            case "json" -> "application/json";
            case "js" -> "text/javascript;charset=UTF-8";
            case "css" -> "text/css;charset=UTF-8";
            case "csv" -> "text/csv;charset=UTF-8";
            case "png" -> "image/png";
            case "svg" -> "image/svg+xml";
            case "txt", "log" -> "text/plain;charset=UTF-8";
            default -> "application/octet-stream";
        };
    }

    /**
     * An operation's saturation point as its report writes it: the rate, "+" when the run stopped
     * before it saturated, and "< X" when it was saturated at the first step offered (X msg/s).
     */
    static String point(JsonNode operation) {
        JsonNode s = operation.path("saturation");
        if (s.isMissingNode() || s.isNull()) {
            return null;
        }
        double rate = s.path("msgPerSecond").asDouble();
        boolean reached = s.path("reached").asBoolean();
        if (rate == 0 && reached && operation.path("open").size() > 0) {
            return "< " + String.format(Locale.ROOT, "%,.0f", operation.path("open").get(0).path("offered").asDouble());
        }
        return String.format(Locale.ROOT, "%,.0f", rate) + (reached ? "" : "+");
    }
}
