-- Privacy inside Idiom: a reader key may be given the right to see private records (curators and
-- admins always have it); a tool account may say its whole library is private (a Zotero library,
-- a file, a peer), which makes every copy in it a private one.
ALTER TABLE api_key ADD COLUMN sees_private BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tool_account ADD COLUMN private_library BOOLEAN NOT NULL DEFAULT FALSE;
