-- Whether records Idiom creates in a tool account are private (the default) or public, where the
-- tool has privacy (Pinboard's shared flag, BibSonomy's groups).
ALTER TABLE tool_account ADD COLUMN new_records VARCHAR(8) CHARACTER SET ascii NOT NULL DEFAULT 'private';
