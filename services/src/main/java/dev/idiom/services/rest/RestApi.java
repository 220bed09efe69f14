package dev.idiom.services.rest;

import dev.idiom.services.app.Application;
import dev.idiom.services.http.PublicUrl;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** Wires the REST resources over the application layer. */
public final class RestApi {
    private RestApi() {}

    public static ResourceConfig resources(Application app, PublicUrl publicUrl) {
        JsonBodies json = new JsonBodies(app.codec(), app.writes().limits());
        return new ResourceConfig()
                .register(new EntitiesResource(app.reads(), app.writes(), app.lifecycle(), app.tools(), json, publicUrl))
                .register(new TrashResource(app.lifecycle(), json))
                .register(new DuplicatesResource(app.lifecycle(), json))
                .register(new ChangesResource(app.reads(), json))
                .register(new PingResource(app.reads()))
                .register(new ToolsResource(app.tools(), app.sync(), app.zotero().accounts(), json, publicUrl))
                .register(new ConsistencyResource(app.sync(), json))
                .register(new FidelityResource(app.sync(), json))
                .register(new SearchIndexResource(app.administration(), json))
                .register(new ImportsResource(app.imports(), json))
                .register(new ReplicasResource(app.replicas(), app.reads(), json))
                .register(new KeysResource(app.keys(), json, publicUrl))
                .register(new OpenApiResource(publicUrl))
                .register(new OperationNames())
                .register(new RoleCheck())
                .register(new ProblemMapper())
                .property(ServerProperties.WADL_FEATURE_DISABLE, true)
                .property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
    }
}
