package dev.idiom.events;

import dev.idiom.db.Intercept;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Lets a test act at the commits a store makes, however it makes them: {@code Connection.commit()}
 * (the Hibernate adapter) or the COMMIT that ends an append batch's multi-statement (the JDBC
 * adapter).
 */
public final class Commits {
    private Commits() {}

    /** What a test does at one commit, given the connection and how many commits came before. */
    public interface Hook {
        void run(Connection c, int commitsBefore) throws SQLException;
    }

    /**
     * Wraps {@code real} so that {@code before} runs just before each commit reaches the server (it
     * may throw: the commit is then never sent) and {@code after}, unless null, just after it has
     * completed (when the store has read the last result of its multi-statement).
     */
    public static DataSource around(DataSource real, Hook before, Hook after) {
        int[] commits = {0};
        return Intercept.around(DataSource.class, real, (m, args, proceed) -> !m.getName().equals("getConnection") ? proceed.call()
                : connection((Connection) proceed.call(), before, after, commits));
    }

    private static Connection connection(Connection c, Hook before, Hook after, int[] commits) {
        return Intercept.around(Connection.class, c, (m, args, proceed) -> {
            if (m.getName().equals("commit")) {
                int n = next(commits);
                before.run(c, n);
                Object result = proceed.call();
                if (after != null) {
                    after.run(c, n);
                }
                return result;
            }
            Object result = proceed.call();
            if (m.getName().equals("prepareStatement") && ((String) args[0]).endsWith(";COMMIT")) {
                return statement(c, (PreparedStatement) result, before, after, commits);
            }
            return result;
        });
    }

    private static PreparedStatement statement(Connection c, PreparedStatement ps, Hook before, Hook after, int[] commits) {
        int[] n = {-1};
        return Intercept.around(PreparedStatement.class, ps, (m, args, proceed) -> {
            if (m.getName().equals("execute") && (args == null || args.length == 0)) {
                n[0] = next(commits);
                before.run(c, n[0]);
                return proceed.call();
            }
            Object result = proceed.call();
            if (after != null && n[0] >= 0 && m.getName().equals("getMoreResults") && !((Boolean) result) && ps.getUpdateCount() == -1) {
                after.run(c, n[0]); // the multi-statement's last result, its COMMIT's, has been read
                n[0] = -1;
            }
            return result;
        });
    }

    private static synchronized int next(int[] commits) {
        return commits[0]++;
    }

    /**
     * Wraps {@code real} so that every commit first waits, inside the transaction and after its
     * positions were taken, for the MariaDB user lock {@code lock} (which the test holds on a
     * connection of its own while it wants commits stalled): in the server, so that a commit sent
     * as the last statement of a multi-statement stalls as one sent alone does.
     */
    public static DataSource stalledOn(DataSource real, String lock) {
        String wait = "DO GET_LOCK('" + lock + "', 60)";
        return Intercept.around(DataSource.class, real, (m, args, proceed) -> {
            if (!m.getName().equals("getConnection")) {
                return proceed.call();
            }
            Connection c = (Connection) proceed.call();
            return Intercept.around(Connection.class, c, (cm, cargs, cproceed) -> {
                if (cm.getName().equals("commit")) {
                    try (Statement s = c.createStatement()) {
                        s.execute(wait);
                        s.execute("DO RELEASE_LOCK('" + lock + "')");
                    }
                } else if (cm.getName().equals("prepareStatement") && ((String) cargs[0]).endsWith(";COMMIT")) {
                    String sql = (String) cargs[0];
                    cargs[0] = sql.substring(0, sql.length() - "COMMIT".length()) + wait + ";DO RELEASE_LOCK('" + lock + "');COMMIT";
                }
                return cproceed.call();
            });
        });
    }

    /** How many connections wait for the user lock of {@link #stalledOn} now. */
    public static int waitingOn(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.processlist WHERE state = 'User lock'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
