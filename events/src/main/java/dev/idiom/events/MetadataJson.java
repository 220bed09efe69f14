package dev.idiom.events;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ResolvableDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@link Metadata} to and from JSON field by field, in {@link Field}'s order, for the event store's
 * codec: Jackson's record support calls each of the accessors by reflection and, reading,
 * looks for every absent creator argument, which made (de)coding a DE the larger part of a read
 * from the database. The output is the bytes the annotations on {@link Metadata} give (property
 * order, nulls and empty name lists left out); each value is read as Jackson reads that
 * component's type, so stored and peer JSON mean what they meant.
 */
final class MetadataJson {
    private static final Map<String, Field> BY_JSON_NAME = Stream.of(Field.values()).collect(Collectors.toMap(Field::jsonName, Function.identity()));
    private static final JavaType AUTHORS = TypeFactory.defaultInstance().constructCollectionType(List.class, Author.class);
    private static final JavaType TAGS = TypeFactory.defaultInstance().constructCollectionType(SortedSet.class, String.class);

    private MetadataJson() {
    }

    static SimpleModule module() {
        return new SimpleModule("idiom-metadata").addSerializer(Metadata.class, new Writer()).addDeserializer(Metadata.class, new Reader());
    }

    private static final class Writer extends JsonSerializer<Metadata> {
        @Override
        public void serialize(Metadata m, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeStartObject();
            for (Field f : Field.values()) {
                Object v = m.get(f);
                if (v == null || ((f == Field.EDITORS || f == Field.TRANSLATORS) && ((Collection<?>) v).isEmpty())) {
                    continue;
                }
                gen.writeFieldName(f.jsonName());
                switch (v) {
                    case String s -> gen.writeString(s);
                    case Map<?, ?> extras -> { // as the API gives them: [{"name": …, "value": …}]
                        gen.writeStartArray();
                        for (Map.Entry<?, ?> e : extras.entrySet()) {
                            gen.writeStartObject();
                            gen.writeStringField("name", (String) e.getKey());
                            gen.writeStringField("value", (String) e.getValue());
                            gen.writeEndObject();
                        }
                        gen.writeEndArray();
                    }
                    case Integer i -> gen.writeNumber(i);
                    case SortedSet<?> tags -> {
                        gen.writeStartArray();
                        for (Object t : tags) {
                            gen.writeString((String) t);
                        }
                        gen.writeEndArray();
                    }
                    case List<?> names -> {
                        gen.writeStartArray();
                        for (Object o : names) {
                            Author a = (Author) o;
                            gen.writeStartObject();
                            gen.writeStringField("family", a.family());
                            gen.writeStringField("given", a.given());
                            gen.writeEndObject();
                        }
                        gen.writeEndArray();
                    }
                    default -> throw new IllegalStateException("no JSON form for " + f + " values of " + v.getClass());
                }
            }
            gen.writeEndObject();
        }
    }

    private static final class Reader extends JsonDeserializer<Metadata> implements ResolvableDeserializer {
        /** Found once: a lookup per value walked the types' annotations each time. */
        private JsonDeserializer<Object> authors;
        private JsonDeserializer<Object> tags;

        @Override
        public void resolve(DeserializationContext ctxt) throws JsonMappingException {
            authors = ctxt.findRootValueDeserializer(AUTHORS);
            tags = ctxt.findRootValueDeserializer(TAGS);

        }

        @Override
        public Metadata deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken()) {
                return (Metadata) ctxt.handleUnexpectedToken(Metadata.class, p);
            }
            Object[] values = new Object[Field.values().length];
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken t = p.nextToken();
                Field f = BY_JSON_NAME.get(name);
                if (f == null) {
                    p.skipChildren(); // unknown properties are ignored, as the codec's mapper says
                    continue;
                }
                values[f.ordinal()] = t == JsonToken.VALUE_NULL ? null : switch (f.kind()) {
                    case NAMES -> names(p, ctxt);
                    case TAGS -> tags.deserialize(p, ctxt);
                    case EXTRAS -> extras(f, p, ctxt);
                    case YEAR, MONTH, DAY -> t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT ? p.getIntValue()
                            : ctxt.readValue(p, Integer.class);
                    default -> t == JsonToken.VALUE_STRING ? p.getText() : ctxt.readValue(p, String.class);
                };
            }
            try {
                return Metadata.fromValues(values);
            } catch (RuntimeException refused) { // as Jackson reports a record constructor's refusal
                throw ctxt.instantiationException(Metadata.class, refused);
            }
        }

        /** An extras part: the array of {name, value} pairs it is written as (or an object of names and values). */
        private Object extras(Field part, JsonParser p, DeserializationContext ctxt) throws IOException {
            try {
                return part.fromJson(ctxt.readTree(p));
            } catch (RuntimeException refused) {
                throw ctxt.instantiationException(Metadata.class, refused);
            }
        }

        /** An array of {family, given} objects read directly; any other shape as Jackson reads a list of authors. */
        private Object names(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                return authors.deserialize(p, ctxt);
            }
            List<Author> names = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    return ctxt.handleUnexpectedToken(AUTHORS, p);
                }
                String family = null;
                String given = null;
                for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                    p.nextToken();
                    switch (name) {
                        case "family" -> family = text(p, ctxt);
                        case "given" -> given = text(p, ctxt);
                        default -> p.skipChildren(); // unknown properties are ignored
                    }
                }
                try {
                    names.add(new Author(family, given));
                } catch (RuntimeException refused) {
                    throw ctxt.instantiationException(Author.class, refused);
                }
            }
            return names;
        }

        private static String text(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            return t == JsonToken.VALUE_STRING ? p.getText() : t == JsonToken.VALUE_NULL ? null : ctxt.readValue(p, String.class);
        }
    }
}
