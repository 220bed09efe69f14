-- Search moved to a Lucene index fed from the change feed (cache module): the tag, author and
-- title-word key tables only served the old SQL search, and every append paid to keep them.
DROP TABLE IF EXISTS entity_word;
DROP TABLE IF EXISTS entity_author;
DROP TABLE IF EXISTS entity_tag;
