-- Who made and who last changed each object of a served library (the API's meta.createdByUser and
-- meta.lastModifiedByUser in group libraries), and who made a deleted one (an object made again under
-- the same key keeps its first maker, as the dataserver restores it from its delete log). NULL: not known.
ALTER TABLE zotero_object ADD COLUMN created_by BIGINT NULL, ADD COLUMN modified_by BIGINT NULL;
ALTER TABLE zotero_deletion ADD COLUMN created_by BIGINT NULL;
