package dev.idiom.db;

/**
 * Where Idiom's database is and how to reach it.
 *
 * @param url a Connector/J URL, {@code jdbc:mysql://host:port/database}
 * @param user the database user ({@code root} on the embedded server)
 * @param password the password, empty for the embedded server
 * @param poolSize the most connections the pool opens (default 16)
 */
public record DatabaseSettings(String url, String user, String password, int poolSize) {
    public DatabaseSettings {
        if (url == null || !url.startsWith("jdbc:mysql:")) {
            throw new IllegalArgumentException("database URL must start with jdbc:mysql:// (Connector/J), got: " + url);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("pool size must be at least 1, got: " + poolSize);
        }
        user = user == null ? "root" : user;
        password = password == null ? "" : password;
    }

    public static DatabaseSettings of(String url) {
        return new DatabaseSettings(url, "root", "", 16);
    }

    /** The same settings with another pool size. */
    public DatabaseSettings withPoolSize(int size) {
        return new DatabaseSettings(url, user, password, size);
    }
}
