package dev.idiom.events;

import static dev.idiom.events.DecisionFixture.created;
import static dev.idiom.events.DecisionFixture.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The pure decisions, a rule a test: field changes, the three-way merge, match keys and normalisation. */
class DecisionRulesTest {
    private static Metadata paper(String title) {
        return Metadata.EMPTY.with(Field.TITLE, title);
    }

    private static TreeSet<String> tags(String... t) {
        return new TreeSet<>(Set.of(t));
    }

    // field changes (Changes)

    @Test
    void settingAFieldIsOneFieldChanged() {
        given(created("Replication")).when(m -> Changes.toSet(m, Field.VENUE, "CSUR")).expect(new FieldChanged(Field.VENUE, "CSUR"));
    }

    @Test
    void settingAFieldToItsValueDecidesNothing() {
        given(created("Replication"), new FieldChanged(Field.VENUE, "CSUR")).when(m -> Changes.toSet(m, Field.VENUE, "CSUR")).expectNothing();
    }

    @Test
    void clearingAFieldIsFieldChangedToNull() {
        given(created("Replication"), new FieldChanged(Field.VENUE, "CSUR")).when(m -> Changes.toSet(m, Field.VENUE, null))
                .expect(new FieldChanged(Field.VENUE, null));
    }

    @Test
    void settingTagsIsOneEventPerDifferenceRemovalsFirst() {
        given(created("Replication"), new TagAdded("a"), new TagAdded("b")).when(m -> Changes.toSet(m, Field.TAGS, tags("b", "c", "d")))
                .expect(new TagRemoved("a"), new TagAdded("c"), new TagAdded("d"));
    }

    @Test
    void aPatchDecidesItsFieldsInDeclarationOrder() {
        given(created("Replication")).when(m -> Changes.toSet(m, Map.of(Field.NOTES, "n", Field.TITLE, "T", Field.YEAR, 2005)))
                .expect(new FieldChanged(Field.TITLE, "T"), new FieldChanged(Field.YEAR, 2005), new FieldChanged(Field.NOTES, "n"));
    }

    @Test
    void aNewRecordNeedsATitleAndDefaultsToDocument() {
        assertThrows(InvalidValueException.class, () -> Changes.forNewRecord(Metadata.EMPTY.with(Field.VENUE, "x")));
        assertEquals("document", Changes.forNewRecord(paper("T")).type());
    }

    // the three-way merge lives in the consistency module (ReplicaMergeTest)

    // match keys and normalisation (MatchKeys, Normalized)

    @Test
    void foldingDropsCaseAccentsAndPunctuation() {
        assertEquals("epidemies replication", Normalized.fold("Épidémies & RÉPLICATION!"));
        assertEquals("", Normalized.fold(null));
    }

    @Test
    void aDoiIsFoundInItsFieldOrADoiUrlWhateverItsPrefixAndCase() {
        assertEquals("10.1145/1057977", MatchKeys.doi(Metadata.EMPTY.with(Field.DOI, "doi:10.1145/1057977")));
        assertEquals("10.1145/1057977", MatchKeys.doi(Metadata.EMPTY.with(Field.URL, "https://dx.doi.org/10.1145/1057977")));
        assertNull(MatchKeys.doi(Metadata.EMPTY.with(Field.DOI, "not a doi")));
    }

    @Test
    void aUrlKeyIgnoresSchemeWwwFragmentTrackingAndTrailingSlash() {
        assertEquals(MatchKeys.url("https://www.Example.org/p?id=1&utm_source=x#top"), MatchKeys.url("http://example.org/p/?id=1"));
        assertNull(MatchKeys.url("not a url"));
    }

    @Test
    void aTitleKeyNeedsTheFirstAuthorsFamilyName() {
        Metadata m = paper("Épidémies!").with(Field.AUTHORS, List.of(new Author("Müller", "A.")));
        assertTrue(MatchKeys.of(m).contains(new MatchKeys.Key(MatchKeys.TITLE, "epidemies|muller")));
        assertFalse(MatchKeys.of(paper("Épidémies!")).stream().anyMatch(k -> k.kind().equals(MatchKeys.TITLE)));
    }

    @Test
    void differentDoisOrYearsMoreThanOneApartNeverMatch() {
        Metadata a = paper("T").with(Field.DOI, "10.1/a").with(Field.YEAR, 2000);
        assertFalse(MatchKeys.compatible(a, a.with(Field.DOI, "10.1/b"), MatchKeys.TITLE));
        assertFalse(MatchKeys.compatible(a, a.with(Field.YEAR, 2002), MatchKeys.URL));
        assertTrue(MatchKeys.compatible(a, a.with(Field.YEAR, 2001), MatchKeys.TITLE));
        assertFalse(MatchKeys.compatible(a.with(Field.YEAR, null), a, MatchKeys.TITLE), "a title match needs both years");
    }
}
