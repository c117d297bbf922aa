-- The languages a site's articles are kept in (a site config's `languages` or NEWSCORPUS_EXTRACTION_LANGUAGES, as
-- the site's last crawl derived it; empty: any), so that `newscorpus reextract` derives with the same filter.
ALTER TABLE sites ADD COLUMN languages text[] NOT NULL DEFAULT '{}';
