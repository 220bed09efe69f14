package dev.idiom.services.rest;

import dev.idiom.services.app.Operation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The operation a resource method is ({@link Operation}: the role it needs is that table's) (on the method, or on its class for all its methods). Every
 * resource method has one, or {@link Anonymous}: {@link RoleCheck} refuses to start otherwise.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@interface Needs {
    Operation value();
}
