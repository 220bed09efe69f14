package dev.idiom.services.rest;

import dev.idiom.services.app.Caller;
import dev.idiom.services.app.Operation;
import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.reflect.Method;

/**
 * Gives each resource method the check of the role it {@link Needs}. Fails closed: a resource
 * method with neither {@link Needs} nor {@link Anonymous} stops the application from starting.
 */
final class RoleCheck implements DynamicFeature {
    @Override
    public void configure(ResourceInfo info, FeatureContext context) {
        Method m = info.getResourceMethod();
        Class<?> c = info.getResourceClass();
        if (!c.getPackageName().startsWith("dev.idiom.")) {
            return; // Jersey's own OPTIONS answers: the key check has run, they reveal nothing more
        }
        if (m.isAnnotationPresent(Anonymous.class) || c.isAnnotationPresent(Anonymous.class)) {
            return;
        }
        Needs needs = m.isAnnotationPresent(Needs.class) ? m.getAnnotation(Needs.class) : c.getAnnotation(Needs.class);
        if (needs == null) {
            throw new IllegalStateException(c.getSimpleName() + "." + m.getName() + " declares neither the role it needs (@Needs) nor @Anonymous");
        }
        context.register(new Check(needs.value()));
    }

    /** Reads the caller the key check left on the request (a servlet request attribute) and compares its role. */
    @Priority(Priorities.AUTHORIZATION)
    static final class Check implements ContainerRequestFilter {
        private final Operation needed;

        Check(Operation needed) {
            this.needed = needed;
        }

        @Override
        public void filter(ContainerRequestContext ctx) {
            Caller.of(ctx.getProperty(Caller.ATTRIBUTE)).require(needed);
        }
    }

    /** The caller of this request; the key check ran before any resource. */
    static Caller caller(HttpServletRequest request) {
        return Caller.of(request.getAttribute(Caller.ATTRIBUTE));
    }
}
