package dev.idiom.consistency;

import dev.idiom.events.Author;
import dev.idiom.events.Field;
import dev.idiom.events.Fingerprint;
import dev.idiom.events.Metadata;
import java.text.Normalizer;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The form in which two copies of a record are compared: per field, Unicode NFC, runs of
 * whitespace as one space, trimmed; tags as a sorted set; fields in one fixed order. So the same
 * content hashes the same whatever field order, whitespace or encoding a tool returns it in.
 */
public final class CanonicalForm {
    private CanonicalForm() {}

    /** The canonical value of one field. */
    public static Object value(Metadata m, Field f) {
        return canonical(m.get(f));
    }

    private static Object canonical(Object v) {
        return switch (v) {
            case null -> null;
            case String s -> {
                String t = Normalizer.normalize(s, Normalizer.Form.NFC).replaceAll("\\s+", " ").strip();
                yield t.isEmpty() ? null : t;
            }
            case Author a -> new Author((String) canonical(a.family()), (String) canonical(a.given()));
            case List<?> l -> l.isEmpty() ? null : l.stream().map(CanonicalForm::canonical).toList();
            case Set<?> s -> s.isEmpty() ? null : s.stream().map(CanonicalForm::canonical).filter(Objects::nonNull)
                    .map(Object::toString).collect(Collectors.toCollection(TreeSet::new));
            default -> v;
        };
    }

    /** True if {@code a} and {@code b} hold the same content in every field of {@code fields}. */
    public static boolean agree(Metadata a, Metadata b, Collection<Field> fields) {
        for (Field f : fields) {
            if (!Objects.equals(value(a, f), value(b, f))) {
                return false;
            }
        }
        return true;
    }

    /** A hash of the canonical content of {@code fields} (anti-entropy compares these). */
    public static String hash(Metadata m, Collection<Field> fields) {
        StringBuilder b = new StringBuilder();
        for (Field f : new TreeSet<>(fields)) {
            b.append(f.jsonName()).append('=').append(value(m, f)).append('\n');
        }
        return Fingerprint.of(b.toString());
    }
}
