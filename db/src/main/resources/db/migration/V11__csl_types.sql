-- The canonical record follows CSL-JSON: three former types are now CSL's (article → article-journal,
-- inproceedings → paper-conference, misc → document; Field.FORMER_TYPES). Events keep what they said and are
-- read into the new model on load; the stored projections are the fold's output, so they say the new names,
-- which keeps a rebuild's byte-for-byte check clean. The projection is compact JSON written by Jackson: a type
-- is exactly "type":"…" there (a shadow's copy inside a string is escaped, \"type\":\"…\", and not matched).
UPDATE entity SET state = REPLACE(REPLACE(REPLACE(state,
        '"type":"article"', '"type":"article-journal"'),
        '"type":"inproceedings"', '"type":"paper-conference"'),
        '"type":"misc"', '"type":"document"')
    WHERE state LIKE '%"type":"article"%' OR state LIKE '%"type":"inproceedings"%' OR state LIKE '%"type":"misc"%';
