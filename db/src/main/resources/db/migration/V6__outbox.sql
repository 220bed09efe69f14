-- One row per replica that does not yet hold a DE's latest content, written by the append
-- transaction that changed the DE (so no acknowledged change can miss its push). Ten quick edits
-- of one DE leave one row: the push sends the DE's latest state. Workers on any number of nodes
-- claim rows with SELECT … FOR UPDATE SKIP LOCKED and a lease; a row is deleted only after the
-- tool acknowledged a push of at least entity_version.
CREATE TABLE outbox (
    entity_id      CHAR(36)     CHARACTER SET ascii NOT NULL,
    tool           VARCHAR(16)  CHARACTER SET ascii NOT NULL,
    account        VARCHAR(200) NOT NULL,
    remote_id      VARCHAR(700) NOT NULL,
    replica_key    CHAR(32)     CHARACTER SET ascii NOT NULL,
    entity_version INT          NOT NULL,
    enqueued_at    DATETIME(6)  NOT NULL,
    due_at         DATETIME(6)  NOT NULL,
    attempts       INT          NOT NULL DEFAULT 0,
    lease_owner    VARCHAR(64)  NULL,
    lease_until    DATETIME(6)  NULL,
    parked         BOOLEAN      NOT NULL DEFAULT FALSE,
    last_error     VARCHAR(1000) NULL,
    PRIMARY KEY (entity_id, replica_key),
    KEY outbox_due (parked, due_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
