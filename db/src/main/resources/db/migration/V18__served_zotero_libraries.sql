-- Zotero libraries Idiom serves itself (the Zotero Web API v3 face): one row a library, with the
-- library version that only grows (every write request takes the next one), the objects as the
-- API answers their `data`, what was deleted at which version (`deleted?since=`), the settings, and
-- the keys clients present (a SHA-256 of each: a key is shown once).
CREATE TABLE zotero_library (
    id             BIGINT        NOT NULL AUTO_INCREMENT,
    kind           VARCHAR(8)    CHARACTER SET ascii NOT NULL,  -- user | group
    number         BIGINT        NOT NULL,                      -- the userID or groupID in the API's paths
    account        VARCHAR(64)   CHARACTER SET ascii NULL,      -- the tool account it is (NULL: a test root's library)
    name           VARCHAR(255)  NOT NULL,
    version        BIGINT        NOT NULL,
    meta           TEXT          NOT NULL,                      -- a group's owner, type, members… (the API's group data, JSON)
    PRIMARY KEY (id),
    UNIQUE KEY zotero_library_path (kind, number)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE zotero_object (
    library_id     BIGINT        NOT NULL,
    object_type    VARCHAR(12)   CHARACTER SET ascii NOT NULL,  -- item | collection | search
    object_key     CHAR(8)       CHARACTER SET ascii NOT NULL,
    version        BIGINT        NOT NULL,
    parent_key     CHAR(8)       CHARACTER SET ascii NULL,      -- an item's parentItem, a collection's parentCollection
    trashed        BOOLEAN       NOT NULL,
    data           MEDIUMTEXT    NOT NULL,                      -- the object's `data` as JSON
    PRIMARY KEY (library_id, object_type, object_key),
    KEY zotero_object_since (library_id, object_type, version)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE zotero_deletion (
    library_id     BIGINT        NOT NULL,
    object_type    VARCHAR(12)   CHARACTER SET ascii NOT NULL,  -- item | collection | search | tag | setting
    object_key     VARCHAR(255)  NOT NULL,
    version        BIGINT        NOT NULL,
    PRIMARY KEY (library_id, object_type, object_key),
    KEY zotero_deletion_since (library_id, version)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE zotero_setting (
    library_id     BIGINT        NOT NULL,
    name           VARCHAR(255)  NOT NULL,
    value          MEDIUMTEXT    NOT NULL,                      -- JSON
    version        BIGINT        NOT NULL,
    PRIMARY KEY (library_id, name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE zotero_key (
    key_hash       CHAR(64)      CHARACTER SET ascii NOT NULL,
    user_number    BIGINT        NOT NULL,                      -- the user the key is for (keys/current answers it)
    name           VARCHAR(255)  NOT NULL,
    access         TEXT          NOT NULL,                      -- the API's access object, as JSON
    created_at     DATETIME(6)   NOT NULL,
    PRIMARY KEY (key_hash),
    KEY zotero_key_user (user_number)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
