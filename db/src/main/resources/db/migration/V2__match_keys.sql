-- Keys that recognise an imported record as a work Idiom already has (MatchKeys): normalised
-- DOI, URL, and title + first author's family name; of the DE and of each replica's record.
CREATE TABLE entity_match (
    entity_id CHAR(36)     CHARACTER SET ascii NOT NULL,
    kind      VARCHAR(8)   CHARACTER SET ascii NOT NULL,
    match_key VARCHAR(190) NOT NULL,
    PRIMARY KEY (entity_id, kind, match_key),
    KEY match_idx (kind, match_key, entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
