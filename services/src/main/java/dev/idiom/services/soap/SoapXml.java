package dev.idiom.services.soap;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.idiom.events.Author;
import dev.idiom.events.DigitalEntity;
import dev.idiom.events.EntityEvent;
import dev.idiom.events.Field;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.FieldChanged;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.Metadata;
import dev.idiom.events.PrivacyMarked;
import dev.idiom.events.RecordedEvent;
import dev.idiom.events.ReplicaEvent;
import dev.idiom.events.SearchPage;
import dev.idiom.events.Replica;
import dev.idiom.events.TagAdded;
import dev.idiom.events.TagRemoved;
import dev.idiom.events.Visibility;
import dev.idiom.services.app.InputLimits;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;

/** The XML of the SOAP contract (DigitalEntityService.wsdl), to and from the domain types. */
final class SoapXml {
    static final String NS = "http://idiom.dev/de/1";

    private final OMFactory om = OMAbstractFactory.getOMFactory();
    private final OMNamespace ns = om.createOMNamespace(NS, "de");

    OMElement element(String name) {
        return om.createOMElement(name, ns);
    }

    OMElement child(OMElement parent, String name, String text) {
        OMElement e = om.createOMElement(name, ns, parent);
        if (text != null) {
            e.setText(text);
        }
        return e;
    }

    /** {@code <entity>} with every field the DE has. */
    OMElement entity(OMElement parent, DigitalEntity de) {
        OMElement e = om.createOMElement("entity", ns, parent);
        child(e, "id", de.id().toString());
        child(e, "version", Integer.toString(de.version()));
        child(e, "createdAt", de.createdAt().toString());
        child(e, "updatedAt", de.updatedAt().toString());
        Metadata m = de.metadata();
        for (Field f : Field.values()) {
            Object value = m.get(f);
            switch (f.kind()) {
                case NAMES -> names(e, f, (List<?>) value);
                case TAGS -> {
                    if (!m.tags().isEmpty()) {
                        OMElement tags = child(e, "tags", null);
                        m.tags().forEach(t -> child(tags, "tag", t));
                    }
                }
                case EXTRAS -> {
                    if (value != null) {
                        OMElement extras = child(e, f.jsonName(), null);
                        m.extras(f).forEach((name, v) -> child(extras, "field", v).addAttribute("name", name, null));
                    }
                }
                default -> text(e, f.jsonName(), value == null ? null : value.toString());
            }
        }
        if (!de.replicas().isEmpty()) {
            OMElement replicas = child(e, "replicas", null);
            de.replicas().forEach(r -> replica(replicas, r));
        }
        if (Visibility.hidden(de)) {
            child(e, "private", "true");
        }
        if (!de.lifecycle().live()) {
            child(e, "lifecycle", de.lifecycle().state().name().toLowerCase(java.util.Locale.ROOT));
        }
        return e;
    }

    /** {@code <authors><author><family/><given/></author>…</authors>} (and so for editors, translators), when there are any. */
    private void names(OMElement parent, Field f, List<?> names) {
        if (names.isEmpty()) {
            return;
        }
        OMElement list = child(parent, f.jsonName(), null);
        for (Object o : names) {
            Author a = (Author) o;
            OMElement name = child(list, NAME_ELEMENT.get(f), null);
            child(name, "family", a.family());
            if (!a.given().isEmpty()) {
                child(name, "given", a.given());
            }
        }
    }

    /** The element of one name in each list of names. */
    private static final Map<Field, String> NAME_ELEMENT = Map.of(Field.AUTHORS, "author", Field.EDITORS, "editor", Field.TRANSLATORS, "translator");

    OMElement replica(OMElement parent, Replica r) {
        OMElement e = child(parent, "replica", null);
        child(e, "tool", r.tool());
        text(e, "account", r.account());
        child(e, "remoteId", r.remoteId());
        text(e, "remoteVersion", r.remoteVersion());
        return e;
    }

    private void text(OMElement parent, String name, String value) {
        if (value != null) {
            child(parent, name, value);
        }
    }

    OMElement event(OMElement parent, RecordedEvent r) {
        return event(parent, r, false);
    }

    /** {@code withheld}: the DE has private parts the caller may not see; neither the source nor the content is written. */
    OMElement event(OMElement parent, RecordedEvent r, boolean withheld) {
        OMElement e = child(parent, "event", null);
        child(e, "position", Long.toString(r.position()));
        child(e, "version", Integer.toString(r.version()));
        child(e, "type", r.event().type());
        child(e, "major", Boolean.toString(r.event().major()));
        if (!withheld) {
            child(e, "source", r.source());
        }
        child(e, "recordedAt", r.recordedAt().toString());
        if (withheld) {
            child(e, "withheld", "true");
            return e;
        }
        EntityEvent ev = r.event();
        switch (ev) {
            case FieldChanged c -> {
                child(e, "field", c.field().jsonName());
                child(e, "value", c.field().toText(c.value()));
            }
            case TagAdded t -> child(e, "tag", t.tag());
            case TagRemoved t -> child(e, "tag", t.tag());
            case ConflictResolved c -> { // the field and the value that won; both values are in the REST history and conflicts
                child(e, "field", c.field().jsonName());
                child(e, "value", c.field().toText(c.winner()));
            }
            case dev.idiom.events.ConflictSettled c -> { // the field and the value a curator chose
                child(e, "field", c.field().jsonName());
                child(e, "value", c.field().toText(c.value()));
            }
            case ReplicaEvent copy -> { // imported, linked, pushed, unlinked: the copy it names
                child(e, "tool", copy.tool());
                child(e, "remoteId", copy.remoteId());
            }
            case PrivacyMarked p -> child(e, "value", Boolean.toString(p.marked()));
            case dev.idiom.events.EntityDeleted d -> child(e, "value", d.reason());
            case dev.idiom.events.EntityMerged m -> child(e, "value", m.into().toString());
            case dev.idiom.events.EntityRestored restored -> { }
            case dev.idiom.events.EntityPurged purged -> { }
        }
        return e;
    }

    /** Reads {@code <entity>} of createDE into metadata; unknown elements are an error; lists are held to {@code limits} as sent. */
    Metadata metadata(OMElement entity, InputLimits limits) {
        if (entity == null) {
            throw new InvalidValueException("createDE needs an <entity> element with the record's fields");
        }
        Metadata m = Metadata.EMPTY;
        for (Iterator<OMElement> it = entity.getChildElements(); it.hasNext(); ) {
            OMElement f = it.next();
            if (!NS.equals(f.getNamespace() == null ? "" : f.getNamespace().getNamespaceURI())) {
                throw new InvalidValueException("<" + f.getLocalName() + "> in <entity> must be in namespace " + NS);
            }
            Field field = Field.named(f.getLocalName());
            Object value = switch (field.kind()) {
                case NAMES -> {
                    List<Author> authors = new ArrayList<>();
                    for (Iterator<OMElement> a = f.getChildElements(); a.hasNext(); ) {
                        OMElement author = a.next();
                        authors.add(new Author(text(author, "family"), text(author, "given")));
                    }
                    limits.checkSent(field, authors.size());
                    yield List.copyOf(authors);
                }
                case TAGS -> {
                    var tags = JsonNodeFactory.instance.arrayNode();
                    for (Iterator<OMElement> t = f.getChildElements(); t.hasNext(); ) {
                        tags.add(t.next().getText());
                    }
                    limits.checkSent(field, tags.size());
                    yield Field.TAGS.fromJson(tags); // one <tag> is one tag, commas and all
                }
                case EXTRAS -> {
                    var extras = JsonNodeFactory.instance.objectNode();
                    for (Iterator<OMElement> x = f.getChildElements(); x.hasNext(); ) {
                        OMElement one = x.next();
                        String name = one.getAttributeValue(new QName("name"));
                        if (!"field".equals(one.getLocalName()) || name == null) {
                            throw new InvalidValueException("<" + field.jsonName() + "> holds <field name=\"…\">value</field> elements only");
                        }
                        extras.put(name, one.getText());
                    }
                    yield field.fromJson(extras);
                }
                default -> field.fromText(f.getText());
            };
            m = m.with(field, value);
        }
        return m;
    }

    /**
     * The text of a child element in Idiom's namespace (the schema is element-qualified), or null
     * when it is absent; an {@code xsi:nil} element reads as empty, which clears a field.
     */
    static String text(OMElement parent, String name) {
        OMElement c = parent.getFirstChildWithName(new QName(NS, name));
        return c == null ? null : c.getText();
    }

    /** The {@code detail} of every fault Idiom sends: {@code <de:fault><de:code/><de:message/></de:fault>}. */
    static OMElement faultDetail(String code, String message) {
        SoapXml xml = new SoapXml();
        OMElement detail = xml.element("fault");
        xml.child(detail, "code", code);
        xml.child(detail, "message", message);
        return detail;
    }

    /** The message of the deepest cause that has one: what went wrong, not the wrapper saying so. */
    static String rootMessage(Throwable e) {
        String m = e.getMessage();
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c.getMessage() != null) {
                m = c.getMessage();
            }
        }
        return m;
    }

    static String required(OMElement parent, String name) {
        String v = text(parent, name);
        if (v == null || v.isBlank()) {
            throw new InvalidValueException("<" + parent.getLocalName() + "> needs a <" + name + "> element");
        }
        return v.strip();
    }

    /** A year element (1–9999), or null when absent. */
    static Integer year(OMElement parent, String name) {
        Integer y = integer(parent, name);
        if (y != null && (y < 1 || y > 9999)) {
            throw new InvalidValueException("<" + name + "> must be between 1 and 9999, got " + y);
        }
        return y;
    }

    /** A search answer: the page's entities, the next cursor, the total, whether it is estimated and the facets, in the schema's order. */
    void searchPage(OMElement response, SearchPage page) {
        page.entities().forEach(de -> entity(response, de));
        if (page.nextCursor() != null) {
            child(response, "next", page.nextCursor());
        }
        child(response, "total", Long.toString(page.total()));
        child(response, "estimated", Boolean.toString(page.estimated()));
        for (String name : SearchPage.FACETS) {
            OMElement facet = child(response, "facet", null);
            facet.addAttribute("name", name, null);
            for (SearchPage.FacetCount f : page.facets().getOrDefault(name, List.of())) {
                child(facet, "value", f.value()).addAttribute("count", Long.toString(f.count()), null);
            }
        }
    }

    static Integer integer(OMElement parent, String name) {
        String v = text(parent, name);
        if (v == null || v.isBlank()) {
            return null;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new InvalidValueException("<" + name + "> must be a whole number, got '" + v + "'");
        }
    }
}
