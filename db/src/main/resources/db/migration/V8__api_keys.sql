-- API keys: who may call Idiom, in which role. Only a SHA-256 of each key is kept (keys are 256
-- random bits, so an unsalted hash cannot be reversed by guessing); the key itself is shown once.
CREATE TABLE api_key (
    name       VARCHAR(64)  CHARACTER SET ascii NOT NULL,
    role       VARCHAR(16)  CHARACTER SET ascii NOT NULL,
    key_hash   CHAR(64)     CHARACTER SET ascii NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    created_by VARCHAR(64)  CHARACTER SET ascii NOT NULL,
    revoked_at DATETIME(6)  NULL,
    PRIMARY KEY (name),
    UNIQUE KEY api_key_hash (key_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
