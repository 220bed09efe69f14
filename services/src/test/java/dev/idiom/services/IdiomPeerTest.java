package dev.idiom.services;

import dev.idiom.events.Field;
import dev.idiom.wrappers.AnnotationTool;
import dev.idiom.wrappers.AnnotationToolContract;
import dev.idiom.wrappers.http.ToolHttp;
import dev.idiom.wrappers.idiom.IdiomPeer;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The shared tool contract, with a real second Idiom as the tool. */
class IdiomPeerTest extends AnnotationToolContract {
    private static RunningIdiom remote;

    @BeforeAll
    static void start() {
        remote = new RunningIdiom(Map.of());
    }

    @AfterAll
    static void stop() {
        remote.close();
    }

    @Override
    protected AnnotationTool tool() {
        return new IdiomPeer(URI.create(remote.server.url()), RunningIdiom.ADMIN_TOKEN, new ToolHttp("Idiom", IdiomPeer.LIMITS));
    }

    @Override
    protected Set<Field> fieldsKept() {
        return EnumSet.allOf(Field.class);
    }

    @Override
    protected boolean deletes() {
        return false;
    }
}
