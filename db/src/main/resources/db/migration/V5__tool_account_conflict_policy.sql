-- Which side wins when a field changed both in Idiom and in this account's replica since they last
-- synced: prefer-idiom (the default), prefer-remote, or tool:KIND. Both values are kept either way.
ALTER TABLE tool_account ADD COLUMN conflict_policy VARCHAR(40) CHARACTER SET ascii NOT NULL DEFAULT 'prefer-idiom';
