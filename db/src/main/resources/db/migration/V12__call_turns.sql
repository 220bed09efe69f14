-- Turns at the calls a tool limits on its own (Pinboard's posts/all: once per five minutes, the
-- wait doubled after each 429), per tool account, shared by every Idiom node on this database: a
-- node takes the turn (moves next_at a whole wait on) before it calls, so no other node calls too.
CREATE TABLE call_turn (
    kind            VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    account         VARCHAR(200)  NOT NULL,
    call_name       VARCHAR(64)   CHARACTER SET ascii NOT NULL,
    next_at         DATETIME(6)   NOT NULL,
    wait_ms         BIGINT        NOT NULL,
    PRIMARY KEY (kind, account, call_name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
