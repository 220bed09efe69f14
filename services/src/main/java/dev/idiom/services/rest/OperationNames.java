package dev.idiom.services.rest;

import dev.idiom.services.app.ServiceTime;
import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Names each request by the resource method that serves it, as its method and path template
 * ({@code GET /api/entities/{id}}), for the metrics: a bounded set of names, worked out once per
 * method at startup. Runs before the role check, so refused requests are counted under their operation.
 */
final class OperationNames implements DynamicFeature {
    @Override
    public void configure(ResourceInfo info, FeatureContext context) {
        Method m = info.getResourceMethod();
        Class<?> c = info.getResourceClass();
        if (!c.getPackageName().startsWith("dev.idiom.")) {
            return;
        }
        context.register(new Name(httpMethod(m) + " " + template(c, m)));
    }

    static String template(Class<?> c, Method m) {
        StringBuilder path = new StringBuilder("/api");
        for (Path p : new Path[] {c.getAnnotation(Path.class), m.getAnnotation(Path.class)}) {
            if (p != null && !p.value().isEmpty() && !p.value().equals("/")) {
                path.append(p.value().startsWith("/") ? "" : "/").append(p.value().endsWith("/") ? p.value().substring(0, p.value().length() - 1) : p.value());
            }
        }
        return path.toString().replaceAll("\\{(\\w+)\\s*:[^}]*}", "{$1}"); // {id: [0-9a-f-]+} reads as {id}
    }

    private static String httpMethod(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod h = a.annotationType().getAnnotation(HttpMethod.class);
            if (h != null) {
                return h.value();
            }
        }
        return "ANY"; // a sub-resource locator
    }

    /** Leaves the operation's name on the request (a servlet request attribute under Jersey's servlet container). */
    @Priority(Priorities.AUTHENTICATION - 1)
    static final class Name implements ContainerRequestFilter {
        private final String operation;

        Name(String operation) {
            this.operation = operation;
        }

        @Override
        public void filter(ContainerRequestContext ctx) {
            ctx.setProperty(ServiceTime.OPERATION, operation);
        }
    }
}
