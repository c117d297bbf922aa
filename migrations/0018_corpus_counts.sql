-- Corpus counts kept on write, so that `newscorpus stats` reads a few small tables instead of three scans of every
-- article (2.8-4.0 s at 1M articles: benchmarks/search_scale.py).
--
-- 1. Each article's non-empty body lines (the noise rate's denominator), counted when its body is written.
ALTER TABLE articles ADD COLUMN body_lines integer NOT NULL DEFAULT 0;  -- lines of body with a non-blank character

CREATE FUNCTION count_body_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.body_lines := (SELECT count(*) FROM regexp_split_to_table(NEW.body, E'\n') line WHERE btrim(line) <> '');
    RETURN NEW;
END
$$;

UPDATE articles a
SET body_lines = (SELECT count(*) FROM regexp_split_to_table(a.body, E'\n') line WHERE btrim(line) <> '');

CREATE TRIGGER articles_body_lines_insert BEFORE INSERT ON articles
    FOR EACH ROW EXECUTE FUNCTION count_body_lines();
CREATE TRIGGER articles_body_lines_update BEFORE UPDATE OF body ON articles
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION count_body_lines();

-- 2. What one article adds to the counts. `linked`: a near-duplicate mark on its URL (near_duplicate_features.
--    canonical_id set), which both takes it out of corpus_articles and counts it as a near duplicate. The day is
--    coalesce(published_at, first_seen) in 15-minute bins: a bin lies within one local day in every time zone whose
--    offset is a multiple of 15 minutes, so `stats` gives the days of the session's time zone, as corpus_articles does.
CREATE TYPE corpus_count AS (
    site_id      integer,
    day_bin      timestamptz,
    body_hash    text,
    published    boolean,   -- in corpus_articles: not linked, body (cleaned if cleaned) not empty
    linked       boolean,
    cleaned      boolean,   -- clean_body IS NOT NULL
    noise_lines  bigint,    -- 0 unless cleaned
    body_lines   bigint     -- 0 unless cleaned
);

CREATE FUNCTION corpus_count_of(a articles, linked boolean) RETURNS corpus_count LANGUAGE sql IMMUTABLE AS $$
    SELECT ROW(a.site_id,
               date_bin('15 minutes', coalesce(a.published_at, a.first_seen), timestamptz '2000-01-01 00:00+00'),
               a.body_hash, NOT linked AND coalesce(a.clean_body, a.body) <> '', linked, a.clean_body IS NOT NULL,
               CASE WHEN a.clean_body IS NOT NULL THEN coalesce(a.noise_lines, 0) ELSE 0 END,
               CASE WHEN a.clean_body IS NOT NULL THEN a.body_lines ELSE 0 END)::corpus_count
$$;

-- 3. Writers append what changed (-1 the article's old count, +1 its new one) and never update a shared row, so
--    concurrent crawls do not wait on each other; `stats` folds the changes into the totals below.
CREATE TABLE corpus_count_changes (
    sign         smallint NOT NULL,
    site_id      integer NOT NULL,
    day_bin      timestamptz NOT NULL,
    body_hash    text NOT NULL,
    published    boolean NOT NULL,
    linked       boolean NOT NULL,
    cleaned      boolean NOT NULL,
    noise_lines  bigint NOT NULL,
    body_lines   bigint NOT NULL
);

CREATE TABLE site_day_counts (   -- published articles per site and 15-minute bin
    site_id   integer NOT NULL,
    day_bin   timestamptz NOT NULL,
    articles  bigint NOT NULL,
    PRIMARY KEY (site_id, day_bin)
);

CREATE TABLE site_body_counts (  -- stored articles per site and body hash: a site's distinct bodies are its hashes > 0
    site_id    integer NOT NULL,
    body_hash  text NOT NULL,
    articles   bigint NOT NULL,
    PRIMARY KEY (site_id, body_hash)
);

CREATE TABLE site_counts (       -- per site, over every stored article
    site_id           integer PRIMARY KEY,
    articles          bigint NOT NULL,
    distinct_bodies   bigint NOT NULL,
    near_duplicates   bigint NOT NULL,
    cleaned_articles  bigint NOT NULL,
    noise_lines       bigint NOT NULL,   -- of the cleaned articles
    body_lines        bigint NOT NULL    -- of the cleaned articles
);

CREATE FUNCTION count_article_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    before corpus_count;
    after corpus_count;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        before := corpus_count_of(OLD, EXISTS (SELECT 1 FROM near_duplicate_features f
                                               WHERE f.url = OLD.url AND f.canonical_id IS NOT NULL));
    END IF;
    IF TG_OP <> 'DELETE' THEN
        after := corpus_count_of(NEW, EXISTS (SELECT 1 FROM near_duplicate_features f
                                              WHERE f.url = NEW.url AND f.canonical_id IS NOT NULL));
    END IF;
    IF before IS DISTINCT FROM after THEN  -- a re-crawl that only moves last_seen changes no count
        INSERT INTO corpus_count_changes
        SELECT -1, (before).* WHERE TG_OP <> 'INSERT'
        UNION ALL
        SELECT 1, (after).* WHERE TG_OP <> 'DELETE';
    END IF;
    RETURN NULL;
END
$$;

-- A near-duplicate mark set or cleared on a URL changes the counts of that URL's article, if it is stored.
CREATE FUNCTION count_link_change(p_url text, p_before boolean, p_after boolean) RETURNS void LANGUAGE sql AS $$
    INSERT INTO corpus_count_changes
    SELECT c.sign, (c.count).*
    FROM articles a
    CROSS JOIN LATERAL (VALUES (-1, corpus_count_of(a, p_before)), (1, corpus_count_of(a, p_after))) c (sign, count)
    WHERE a.url = p_url AND p_before <> p_after
$$;

CREATE FUNCTION count_near_duplicate_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.url = NEW.url THEN
        PERFORM count_link_change(NEW.url, OLD.canonical_id IS NOT NULL, NEW.canonical_id IS NOT NULL);
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM count_link_change(OLD.url, OLD.canonical_id IS NOT NULL, false);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM count_link_change(NEW.url, false, NEW.canonical_id IS NOT NULL);
    END IF;
    RETURN NULL;
END
$$;

-- 4. The fold: the changes taken off, added to the totals. One fold at a time (a transaction-scoped lock), so a
--    body hash's count and the site's distinct bodies move together.
CREATE FUNCTION corpus_counts_fold() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    folded bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('newscorpus/corpus_counts/' || current_schema(), 0));
    WITH taken AS (
        DELETE FROM corpus_count_changes RETURNING *
    ), days AS (
        INSERT INTO site_day_counts AS t (site_id, day_bin, articles)
        SELECT site_id, day_bin, sum(sign) FROM taken WHERE published GROUP BY 1, 2 HAVING sum(sign) <> 0
        ON CONFLICT (site_id, day_bin) DO UPDATE SET articles = t.articles + EXCLUDED.articles
    ), bodies AS (
        SELECT site_id, body_hash, sum(sign) AS n FROM taken GROUP BY 1, 2 HAVING sum(sign) <> 0
    ), bodies_after AS (
        INSERT INTO site_body_counts AS t (site_id, body_hash, articles)
        SELECT site_id, body_hash, n FROM bodies
        ON CONFLICT (site_id, body_hash) DO UPDATE SET articles = t.articles + EXCLUDED.articles
        RETURNING t.site_id, t.body_hash, t.articles
    ), distinct_change AS (  -- hashes whose count went from 0 to more (+1) or back to 0 (-1)
        SELECT a.site_id, sum((a.articles > 0)::int - (a.articles - b.n > 0)::int) AS n
        FROM bodies_after a JOIN bodies b USING (site_id, body_hash)
        GROUP BY 1
    ), sites AS (
        SELECT site_id, sum(sign) AS articles,
               coalesce(sum(sign) FILTER (WHERE linked), 0) AS near_duplicates,
               coalesce(sum(sign) FILTER (WHERE cleaned), 0) AS cleaned_articles,
               sum(sign * noise_lines) AS noise_lines, sum(sign * body_lines) AS body_lines,
               count(*) AS changes
        FROM taken GROUP BY 1
    ), totals AS (
        INSERT INTO site_counts AS t (site_id, articles, distinct_bodies, near_duplicates, cleaned_articles,
                                      noise_lines, body_lines)
        SELECT s.site_id, s.articles, coalesce(d.n, 0), s.near_duplicates, s.cleaned_articles, s.noise_lines,
               s.body_lines
        FROM sites s LEFT JOIN distinct_change d USING (site_id)
        ON CONFLICT (site_id) DO UPDATE SET
            articles = t.articles + EXCLUDED.articles,
            distinct_bodies = t.distinct_bodies + EXCLUDED.distinct_bodies,
            near_duplicates = t.near_duplicates + EXCLUDED.near_duplicates,
            cleaned_articles = t.cleaned_articles + EXCLUDED.cleaned_articles,
            noise_lines = t.noise_lines + EXCLUDED.noise_lines,
            body_lines = t.body_lines + EXCLUDED.body_lines
    )
    SELECT coalesce(sum(changes), 0) INTO folded FROM sites;
    RETURN folded;
END
$$;

-- 5. The counts made again from the articles: the backfill, and after a TRUNCATE (which fires no row trigger).
CREATE FUNCTION corpus_counts_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('newscorpus/corpus_counts/' || current_schema(), 0));
    DELETE FROM corpus_count_changes;
    DELETE FROM site_day_counts;
    DELETE FROM site_body_counts;
    DELETE FROM site_counts;
    INSERT INTO corpus_count_changes
    SELECT 1, (corpus_count_of(a, f.url IS NOT NULL)).*
    FROM articles a
    LEFT JOIN near_duplicate_features f ON f.url = a.url AND f.canonical_id IS NOT NULL;
    PERFORM corpus_counts_fold();
END
$$;

CREATE FUNCTION recount_corpus_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM corpus_counts_recount();
    RETURN NULL;
END
$$;

SELECT corpus_counts_recount();

CREATE TRIGGER articles_counts AFTER INSERT OR DELETE ON articles
    FOR EACH ROW EXECUTE FUNCTION count_article_change();
CREATE TRIGGER articles_counts_update AFTER UPDATE ON articles
    FOR EACH ROW WHEN ((OLD.site_id, OLD.url, OLD.published_at, OLD.first_seen, OLD.body_hash, OLD.body,
                        OLD.clean_body, OLD.noise_lines, OLD.body_lines)
                       IS DISTINCT FROM (NEW.site_id, NEW.url, NEW.published_at, NEW.first_seen, NEW.body_hash,
                                         NEW.body, NEW.clean_body, NEW.noise_lines, NEW.body_lines))
    EXECUTE FUNCTION count_article_change();
CREATE TRIGGER near_duplicate_counts_insert AFTER INSERT ON near_duplicate_features
    FOR EACH ROW WHEN (NEW.canonical_id IS NOT NULL) EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER near_duplicate_counts_update AFTER UPDATE OF url, canonical_id ON near_duplicate_features
    FOR EACH ROW WHEN ((OLD.canonical_id IS NULL) <> (NEW.canonical_id IS NULL)
                       OR (OLD.url IS DISTINCT FROM NEW.url AND NEW.canonical_id IS NOT NULL))
    EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER near_duplicate_counts_delete AFTER DELETE ON near_duplicate_features
    FOR EACH ROW WHEN (OLD.canonical_id IS NOT NULL) EXECUTE FUNCTION count_near_duplicate_change();
CREATE TRIGGER articles_counts_truncate AFTER TRUNCATE ON articles
    FOR EACH STATEMENT EXECUTE FUNCTION recount_corpus_counts();
CREATE TRIGGER near_duplicate_counts_truncate AFTER TRUNCATE ON near_duplicate_features
    FOR EACH STATEMENT EXECUTE FUNCTION recount_corpus_counts();
