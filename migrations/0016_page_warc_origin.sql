-- Where an ingested page came from (`newscorpus ingest`): the WARC file and the offset of its record, so the
-- stored page can be traced back to the archive. NULL: fetched by a crawl.
ALTER TABLE pages
    ADD COLUMN warc_file text,
    ADD COLUMN warc_offset bigint;
