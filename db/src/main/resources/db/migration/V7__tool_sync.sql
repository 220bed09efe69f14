-- The consistency engine's state per tool account (kind + account, as replicas name it), beside
-- the import cursor: paused by a curator or held (a mass deletion, a changed identity), when the
-- last pull and push succeeded, and what the last
-- anti-entropy pass found. A hold keeps what it held (the remote ids of a mass deletion) for the
-- curator who releases it.
CREATE TABLE tool_sync (
    kind            VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    account         VARCHAR(200)  NOT NULL,
    paused          BOOLEAN       NOT NULL DEFAULT FALSE,
    held            MEDIUMTEXT    NULL,
    last_pull_at    DATETIME(6)   NULL,
    last_push_at    DATETIME(6)   NULL,
    last_check_at   DATETIME(6)   NULL,
    divergent       INT           NOT NULL DEFAULT 0,
    updated_at      DATETIME(6)   NOT NULL,
    PRIMARY KEY (kind, account)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The overall conflict listing reads conflicts newest first without scanning the log.
CREATE INDEX event_type_position ON event (type, position);

-- Each tool account's worker claims only its own rows: with this index its locking read examines
-- (and locks) no other account's rows, so workers of different accounts never skip each other's.
CREATE INDEX outbox_account_due ON outbox (tool, account, parked, due_at);
