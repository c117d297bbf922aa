-- What produced each article (newscorpus.store.derivation): the extractor's version, the digest of the site's
-- learnt model the derivation ended with, and the digest of the line statistics it was cleaned with. NULL: the
-- crawl's provisional extraction, not derived yet.
ALTER TABLE articles
    ADD COLUMN extractor_version text,
    ADD COLUMN site_model_version text,
    ADD COLUMN line_stats_version text;
