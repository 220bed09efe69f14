-- Replication rules per tool account: which DEs the account should hold (null: none, as before;
-- otherwise the rule as JSON: {"all": true} or a filter) and which way copies flow ('both',
-- 'receive-only': the account feeds Idiom and is never written, 'send-only': Idiom writes and never
-- takes its changes).
ALTER TABLE tool_account ADD COLUMN mirror TEXT NULL;
ALTER TABLE tool_account ADD COLUMN direction VARCHAR(16) CHARACTER SET ascii NOT NULL DEFAULT 'both';

-- How far the change feed has been planned against an account's rule: every DE changed up to
-- `position` has its copy owed (or its removal) in the outbox. `rule` is the fingerprint of the rule
-- planned; a new rule starts again from position 0 (a first mirror), `head` is where the feed stood
-- when it did (the first mirror's progress). Advanced only after the outbox rows of a page committed,
-- so a node that dies mid-plan leaves the rest to be planned again (the rows are idempotent).
CREATE TABLE mirror_plan (
    kind        VARCHAR(16)   CHARACTER SET ascii NOT NULL,
    account     VARCHAR(200)  NOT NULL,
    rule        CHAR(32)      CHARACTER SET ascii NOT NULL,
    position    BIGINT        NOT NULL,
    head        BIGINT        NOT NULL,
    -- a curator allowed the removals planned up to here (a rule's removals past the mass-delete share hold the account)
    removals_allowed_to BIGINT NOT NULL DEFAULT 0,
    updated_at  DATETIME(6)   NOT NULL,
    PRIMARY KEY (kind, account)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
