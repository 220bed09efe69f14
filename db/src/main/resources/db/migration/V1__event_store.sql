-- The event store: one row per event, in a total order (position) that follows commit order.
CREATE TABLE event (
    position     BIGINT       NOT NULL,
    event_id     CHAR(36)     CHARACTER SET ascii NOT NULL,
    entity_id    CHAR(36)     CHARACTER SET ascii NOT NULL,
    version      INT          NOT NULL,
    type         VARCHAR(40)  CHARACTER SET ascii NOT NULL,
    source       VARCHAR(200) NOT NULL,
    payload      MEDIUMTEXT   NOT NULL,
    recorded_at  DATETIME(6)  NOT NULL,
    PRIMARY KEY (position),
    UNIQUE KEY event_id_unique (event_id),
    UNIQUE KEY stream_version_unique (entity_id, version),
    KEY recorded_at_idx (recorded_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Positions are handed out under this row's lock, held until commit, so a reader of
-- "events after P" can never see P+2 before P+1 commits (no auto-increment gaps).
CREATE TABLE event_sequence (
    name          VARCHAR(40) CHARACTER SET ascii NOT NULL,
    last_position BIGINT      NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB;
INSERT INTO event_sequence (name, last_position) VALUES ('global', 0);

-- The DE projection: the fold of each entity's events, written in the append's transaction.
CREATE TABLE entity (
    entity_id    CHAR(36)    CHARACTER SET ascii NOT NULL,
    version      INT         NOT NULL,
    state        MEDIUMTEXT  NOT NULL,
    created_at   DATETIME(6) NOT NULL,
    updated_at   DATETIME(6) NOT NULL,
    PRIMARY KEY (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Search keys, kept with the projection (normalised: lower case, accents folded).
CREATE TABLE entity_tag (
    entity_id CHAR(36)     CHARACTER SET ascii NOT NULL,
    tag       VARCHAR(190) NOT NULL,
    PRIMARY KEY (entity_id, tag),
    KEY tag_idx (tag, entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE entity_author (
    entity_id CHAR(36)     CHARACTER SET ascii NOT NULL,
    family    VARCHAR(190) NOT NULL,
    PRIMARY KEY (entity_id, family),
    KEY family_idx (family, entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE entity_word (
    entity_id CHAR(36)     CHARACTER SET ascii NOT NULL,
    word      VARCHAR(190) NOT NULL,
    PRIMARY KEY (entity_id, word),
    KEY word_idx (word, entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
