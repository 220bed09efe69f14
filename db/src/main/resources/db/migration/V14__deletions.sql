-- Whether a DE deleted in Idiom has its copies in the account deleted too ('propagate': Zotero to its
-- trash), and whether a copy deleted there deletes the DE when it was its last; 'keep' (the default,
-- as before): copies stay, and a copy deleted there is only unlinked.
ALTER TABLE tool_account ADD COLUMN deletions VARCHAR(16) CHARACTER SET ascii NOT NULL DEFAULT 'keep';
