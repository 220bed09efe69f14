package dev.idiom.perf.saturation;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One request as JMeter recorded it: when it started (ms since the epoch), how long until the last
 * byte of the answer (ms, JMeter's resolution), whether it succeeded, and its sizes.
 */
record Sample(long startMillis, long elapsedMillis, boolean success, String code, long sentBytes, long receivedBytes) {

    /** Reads a JMeter CSV results file (the header names the columns; quoted fields may hold commas). */
    static List<Sample> read(Path csv) throws IOException {
        List<Sample> samples = new ArrayList<>();
        if (!Files.exists(csv)) {
            return samples;
        }
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                return samples;
            }
            List<String> names = fields(header);
            int ts = names.indexOf("timeStamp");
            int elapsed = names.indexOf("elapsed");
            int success = names.indexOf("success");
            int code = names.indexOf("responseCode");
            int sent = names.indexOf("sentBytes");
            int bytes = names.indexOf("bytes");
            if (ts < 0 || elapsed < 0 || success < 0) {
                throw new IOException(csv + " is not a JMeter CSV results file (no timeStamp, elapsed, success columns)");
            }
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                List<String> f = fields(line);
                if (f.size() < names.size()) {
                    continue; // a line cut off by an interrupted run
                }
                samples.add(new Sample(Long.parseLong(f.get(ts)), Long.parseLong(f.get(elapsed)), Boolean.parseBoolean(f.get(success)),
                        code < 0 ? "" : f.get(code), sent < 0 ? 0 : Long.parseLong(f.get(sent)), bytes < 0 ? 0 : Long.parseLong(f.get(bytes))));
            }
        }
        return samples;
    }

    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    f.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(c);
            }
        }
        out.add(f.toString());
        return out;
    }
}
