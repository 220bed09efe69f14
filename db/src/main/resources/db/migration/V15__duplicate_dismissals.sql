-- Pairs of DEs a curator said are different works although they share a DOI, URL or title: the
-- suggested-duplicates listing leaves them out from then on. first_id sorts before second_id.
CREATE TABLE duplicate_dismissal (
    first_id     CHAR(36)    CHARACTER SET ascii NOT NULL,
    second_id    CHAR(36)    CHARACTER SET ascii NOT NULL,
    dismissed_at DATETIME(6) NOT NULL,
    dismissed_by VARCHAR(200) NULL,
    PRIMARY KEY (first_id, second_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
