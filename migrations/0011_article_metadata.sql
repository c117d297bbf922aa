-- Article metadata (issue 17): the publication day and UTC offset as the page states them, the modification
-- time, every author, and the site's name kept apart from the title. published_at stays the instant (a time
-- stated without an offset is stored as written, read as UTC, so its day is the page's day); published_date is
-- the calendar day the page states (per-day counts: no day shift); published_utc_offset is the offset the page
-- wrote (NULL when it wrote none), so published_at AT TIME ZONE published_utc_offset is the page's own clock.
ALTER TABLE articles
    ADD COLUMN published_date        date,
    ADD COLUMN published_utc_offset  interval,
    ADD COLUMN modified_at           timestamptz,   -- when the page states a modification
    ADD COLUMN authors               text[],        -- in byline order; author holds them joined by ", "
    ADD COLUMN site_name             text;          -- og:site_name or kin; never part of the title
CREATE INDEX articles_site_published_date_idx ON articles (site_id, published_date);

-- corpus_articles (migrations/0004) with the new columns at its end.
CREATE OR REPLACE VIEW corpus_articles AS
SELECT a.id, a.site_id, s.name AS site, a.url, a.title, a.author, a.published_at, a.language,
       coalesce(a.clean_body, a.body) AS body, a.extraction_method, a.first_seen, a.last_seen, a.updated_at,
       greatest(a.updated_at, a.cleaned_at) AS revised_at,
       a.published_date, a.published_utc_offset, a.modified_at, a.authors, a.site_name
FROM articles a
JOIN sites s ON s.id = a.site_id
WHERE NOT EXISTS (SELECT 1 FROM near_duplicate_features d WHERE d.url = a.url AND d.canonical_id IS NOT NULL);
