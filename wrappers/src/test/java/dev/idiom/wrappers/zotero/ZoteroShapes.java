package dev.idiom.wrappers.zotero;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Zotero items with the shapes real libraries hold (written here, not copied from anyone's
 * library): the common item types with their own fields, two-field and single-field creators in
 * several roles, particles, tags of both types, DOIs, ISBNs, {@code extra} lines, dates in
 * Zotero's many forms, non-ASCII names and titles; drawn from a seeded generator.
 */
public final class ZoteroShapes {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String[]> PEOPLE = List.of(new String[] {"Alan", "Demers"}, new String[] {"Yasushi", "Saito"},
            new String[] {"Marc", "Shapiro"}, new String[] {"Nuno", "Preguiça"}, new String[] {"Valeria", "de Paiva"},
            new String[] {"Ludwig", "van Beethoven"}, new String[] {"Jürgen", "Weißbecker-Klaus"}, new String[] {"Ōno", "Taiichi"},
            new String[] {"Barbara", "Liskov"}, new String[] {"Leslie", "Lamport"}, new String[] {"", "Anonymous"});
    private static final List<String> WORDS = List.of("replicated", "epidemic", "gossip", "consistency", "conflict-free", "optimistic",
            "bookmarks", "federation", "metadata", "provenance", "Zürich", "causal", "eventual", "annotations", "scholarly", "CRDTs");
    private static final List<String> DATES = List.of("1987", "2005-03", "March 2011", "2016/12/01", "7/1994", "22/09/2020", "2019-06-15", "Spring 2008");

    private final SplittableRandom random;

    public ZoteroShapes(SplittableRandom random) {
        this.random = random;
    }

    /** Item {@code n}'s data as a Zotero client writes it (a new item: no key, no version). */
    public String item(int n) {
        String[] types = {"journalArticle", "journalArticle", "book", "bookSection", "conferencePaper", "thesis", "report", "webpage"};
        String type = types[random.nextInt(types.length)];
        ObjectNode d = JSON.createObjectNode();
        d.put("itemType", type);
        d.put("title", title(n));
        ArrayNode creators = d.putArray("creators");
        int people = 1 + random.nextInt(3);
        for (int i = 0; i < people; i++) {
            creator(creators, i == 0 && random.nextInt(10) == 0 ? null : "author");
        }
        if (type.equals("bookSection") || type.equals("book") && random.nextBoolean()) {
            creator(creators, "editor");
        }
        d.put("date", DATES.get(random.nextInt(DATES.size())));
        switch (type) {
            case "journalArticle" -> {
                d.put("publicationTitle", "Journal of " + word() + " systems");
                d.put("volume", Integer.toString(1 + random.nextInt(40)));
                d.put("issue", Integer.toString(1 + random.nextInt(12)));
                d.put("pages", (1 + random.nextInt(300)) + "–" + (301 + random.nextInt(300)));
                if (random.nextBoolean()) {
                    d.put("DOI", "10." + (1000 + random.nextInt(8000)) + "/shape." + n);
                }
                d.put("ISSN", "1234-567X");
            }
            case "book" -> {
                d.put("publisher", "Springer");
                d.put("place", "Berlin");
                d.put("ISBN", "978-3-16-148410-" + (n % 10));
                d.put("edition", "2");
            }
            case "bookSection" -> {
                d.put("bookTitle", "Handbook of " + word() + " computing");
                d.put("publisher", "MIT Press");
                d.put("pages", "11-42");
            }
            case "conferencePaper" -> {
                d.put("proceedingsTitle", "Proceedings of the " + (1 + random.nextInt(30)) + "th symposium on " + word() + " systems");
                d.put("conferenceName", "SOSP");
                d.put("place", "Québec");
            }
            case "thesis" -> {
                d.put("university", "Universität Zürich");
                d.put("thesisType", random.nextBoolean() ? "PhD thesis" : "Master's thesis");
            }
            case "report" -> {
                d.put("institution", "Xerox PARC");
                d.put("reportNumber", "CSL-" + (80 + random.nextInt(20)) + "-" + random.nextInt(20));
                d.put("reportType", "Technical report");
            }
            default -> {
                d.put("websiteTitle", "The " + word() + " blog");
                d.put("url", "https://example.org/" + n + "/" + word());
                d.put("accessDate", "2026-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10));
            }
        }
        if (random.nextInt(3) == 0) {
            d.put("abstractNote", "We study " + word() + " and " + word() + " in " + word() + " settings.\nSecond paragraph: “quoted” & <angled>.");
        }
        if (random.nextInt(4) == 0) {
            d.put("extra", random.nextBoolean() ? "Citation Key: shape" + n : "Original Date: 1970\nGenre: " + word());
        }
        ArrayNode tags = d.putArray("tags");
        for (int i = random.nextInt(4); i > 0; i--) {
            ObjectNode tag = tags.addObject().put("tag", word());
            if (random.nextBoolean()) {
                tag.put("type", 1);
            }
        }
        d.putArray("collections");
        d.putObject("relations");
        return d.toString();
    }

    private void creator(ArrayNode creators, String role) {
        String[] p = PEOPLE.get(random.nextInt(PEOPLE.size()));
        ObjectNode c = creators.addObject();
        if (role == null) { // an institution: one field
            c.put("creatorType", "author").put("name", "The " + word() + " working group");
        } else {
            c.put("creatorType", role).put("firstName", p[0]).put("lastName", p[1]);
        }
    }

    private String title(int n) {
        String first = word();
        return Character.toUpperCase(first.charAt(0)) + first.substring(1) + " " + word() + " for " + word() + " " + word() + ", no. " + n;
    }

    private String word() {
        return WORDS.get(random.nextInt(WORDS.size()));
    }
}
