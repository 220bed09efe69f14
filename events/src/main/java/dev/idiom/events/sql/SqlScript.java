package dev.idiom.events.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Statements with bound parameters sent as one multi-statement: one round trip however many
 * statements a batch needs (the connection allows multi-queries; every statement text here is a
 * constant of the code, never built from input). The first failing statement stops the rest; the
 * caller rolls back.
 */
public final class SqlScript {
    private final StringBuilder sql = new StringBuilder();
    private final List<Object> params = new ArrayList<>();
    private int statements;
    private int resultAt = -1;
    private int[] counts = new int[0];

    /** Adds one statement; its {@code ?} marks take {@code values} in order. */
    public SqlScript add(String statement, Object... values) {
        if (statements++ > 0) {
            sql.append(';');
        }
        sql.append(statement);
        Collections.addAll(params, values);
        return this;
    }

    /** Adds a query whose single value {@link #run} returns. */
    public SqlScript addResult(String query) {
        resultAt = statements;
        return add(query);
    }

    /** More parameters for the statement added last (rows of a multi-row insert). */
    public SqlScript bind(Object... values) {
        Collections.addAll(params, values);
        return this;
    }

    /** How many statements were added. */
    public int size() {
        return statements;
    }

    /** {@code n} copies of a row's marks, comma-separated: {@code (?, ?), (?, ?)}. */
    public static String rows(int n, String row) {
        return String.join(", ", Collections.nCopies(n, row));
    }

    /**
     * Runs every statement in one round trip, reading each statement's outcome so that a failure of
     * any is thrown (and a trailing COMMIT has run when this returns). Returns the long of the
     * {@link #addResult} query, or -1 without one.
     */
    public long run(Connection c) throws SQLException {
        if (statements == 0) {
            return -1;
        }
        long result = -1;
        counts = new int[statements];
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            boolean isResultSet = ps.execute();
            for (int i = 0; isResultSet || ps.getUpdateCount() != -1; i++, isResultSet = ps.getMoreResults()) {
                if (i < statements) {
                    counts[i] = isResultSet ? -1 : ps.getUpdateCount();
                }
                if (isResultSet && i == resultAt) {
                    try (ResultSet rs = ps.getResultSet()) {
                        if (!rs.next()) {
                            throw new SQLException("the batch's query gave no row back");
                        }
                        result = rs.getLong(1);
                    }
                }
            }
        }
        return result;
    }

    /** The rows statement {@code i} changed in the last {@link #run} (-1 for a query). */
    public int updateCount(int i) {
        return counts[i];
    }

    @Override
    public String toString() {
        return sql.toString();
    }
}
