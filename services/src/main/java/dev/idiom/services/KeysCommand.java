package dev.idiom.services;

import dev.idiom.services.app.ApiKeys;
import dev.idiom.services.app.Role;
import java.io.PrintStream;
import java.util.Map;

/** {@code ./idiom keys create|list|revoke}: API keys, against the data directory's database (or --db-url). */
final class KeysCommand {
    private final PrintStream out;

    KeysCommand(PrintStream out) {
        this.out = out;
    }

    int run(IdiomConfig config, String verb, Map<String, String> flags) {
        if (verb == null) {
            throw new IllegalArgumentException("keys needs a verb: create --name NAME --role reader|curator|admin [--private-records true], list, or revoke --name NAME");
        }
        try (Idiom idiom = Idiom.start(config)) {
            ApiKeys keys = idiom.application().keys();
            switch (verb) {
                case "create" -> {
                    ApiKeys.Issued issued = keys.create(required(flags, "name"), Role.parse(required(flags, "role")),
                            Boolean.parseBoolean(flags.getOrDefault("private-records", "false")), "command line");
                    out.println("idiom: created " + issued.key().role().id() + " key '" + issued.key().name() + "'; it is shown this once:");
                    out.println(issued.secret());
                }
                case "list" -> {
                    out.printf("%-24s %-8s %-28s %-16s %s%n", "NAME", "ROLE", "CREATED", "BY", "REVOKED");
                    keys.list().forEach(k -> out.printf("%-24s %-8s %-28s %-16s %s%n", k.name(), k.role().id(), k.createdAt(), k.createdBy(),
                            k.revokedAt() == null ? "-" : k.revokedAt().toString()));
                }
                case "revoke" -> {
                    String name = required(flags, "name");
                    keys.revoke(name);
                    out.println("idiom: revoked key '" + name + "' (other nodes stop accepting it within 5 s)");
                }
                default -> throw new IllegalArgumentException("unknown keys verb '" + verb + "'; use create, list or revoke");
            }
            return 0;
        }
    }

    private static String required(Map<String, String> flags, String name) {
        String v = flags.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("keys needs --" + name);
        }
        return v;
    }
}
