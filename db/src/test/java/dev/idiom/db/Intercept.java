package dev.idiom.db;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/** Wraps a JDBC object (DataSource, Connection, Statement) so a test can act around its calls. */
public final class Intercept {
    private Intercept() {}

    /** What runs instead of a call; {@code proceed} makes the real call. */
    public interface Around {
        Object call(Method method, Object[] args, Proceed proceed) throws Throwable;
    }

    public interface Proceed {
        Object call() throws Throwable;
    }

    public static <T> T around(Class<T> type, T target, Around around) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> around.call(m, args, () -> {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        })));
    }
}
