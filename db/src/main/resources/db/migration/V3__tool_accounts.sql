-- Annotation-tool accounts: where a tool is and how to sign in. The secret is sealed with
-- AES-GCM under a key from the environment (IDIOM_SECRET_KEY); it is never stored in clear.
CREATE TABLE tool_account (
    name       VARCHAR(64)   CHARACTER SET ascii NOT NULL,
    kind       VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    base_url   VARCHAR(1000) NOT NULL,
    account    VARCHAR(200)  NOT NULL,
    secret     TEXT          CHARACTER SET ascii NULL,
    updated_at DATETIME(6)   NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Where the last import from a tool account stopped; saved only after its events committed.
CREATE TABLE tool_cursor (
    kind       VARCHAR(16)  CHARACTER SET ascii NOT NULL,
    account    VARCHAR(200) NOT NULL,
    cursor_value VARCHAR(1000) NULL,
    updated_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (kind, account)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
