-- Line-noise statistics (issue 4, research base 000 section 2.2): per site, how many articles contained each
-- normalised line (LC, line_counts) and how many articles were counted (RC, site_line_stats); each counted
-- article's line hashes (line_noise_articles: re-cleaning, and no second count of an unchanged article);
-- per-site allow-list; the cleaned body of each article (articles.clean_body, NULL = not cleaned yet).

CREATE TABLE site_line_stats (
    site_id        integer PRIMARY KEY REFERENCES sites (id),
    articles_seen  bigint NOT NULL DEFAULT 0,   -- RC
    pruned_at      bigint NOT NULL DEFAULT 0,   -- articles_seen at the last pruning
    lines_pruned   bigint NOT NULL DEFAULT 0
);

-- No foreign key: one row per (site, line) is written per article; site_line_stats holds the reference.
CREATE TABLE line_counts (
    site_id    integer NOT NULL,
    line_hash  uuid NOT NULL,                   -- MD5 of the normalised line
    articles   integer NOT NULL,                -- LC
    PRIMARY KEY (site_id, line_hash)
);

-- A sample text of each line seen in at least two articles (what `newscorpus noise` shows).
CREATE TABLE line_samples (
    site_id    integer NOT NULL,
    line_hash  uuid NOT NULL,
    sample     text NOT NULL,
    PRIMARY KEY (site_id, line_hash)
);

-- No foreign key either: its check share-locks the sites row in every writer's transaction (MultiXacts).
CREATE TABLE line_noise_articles (
    url          text PRIMARY KEY,
    site_id      integer NOT NULL,
    body_hash    text NOT NULL,
    line_hashes  uuid[] NOT NULL,               -- distinct line hashes counted for this body, sorted
    counted_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX line_noise_articles_site_idx ON line_noise_articles (site_id);

CREATE TABLE line_noise_allowlist (
    site_id    integer NOT NULL REFERENCES sites (id),
    line_hash  uuid NOT NULL,
    sample     text,
    added_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (site_id, line_hash)
);

ALTER TABLE articles
    ADD COLUMN clean_body text,                     -- body without its noise lines; NULL = not cleaned yet
    ADD COLUMN noise_lines integer,                 -- lines removed from body
    ADD COLUMN noise_hashes uuid[],                 -- their distinct hashes
    ADD COLUMN cleaned_with_articles_seen bigint,   -- RC of the statistics it was cleaned with
    ADD COLUMN cleaned_at timestamptz;

-- Count one article's lines, in one round trip and one transaction. Every writer locks the site's
-- site_line_stats row before any line row, and line rows in hash order, so concurrent writers never
-- deadlock; an article already counted with the same body hash is not counted again; a changed body
-- moves its counts (old lines -1, new lines +1, RC unchanged). Returns RC before this article (the
-- paper's step 7), LC of each given hash after counting, which hashes are allow-listed, and what it did.
CREATE FUNCTION line_noise_count_article(
    p_site_id integer, p_url text, p_body_hash text, p_hashes uuid[], p_samples text[],
    p_prune_interval integer, p_prune_divisor integer, p_sample_min integer,
    OUT o_articles_seen bigint, OUT o_counts integer[], OUT o_allowed boolean[], OUT o_status text,
    OUT o_pruned integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_old_body text;
    v_old_hashes uuid[];
    v_add uuid[];
    v_remove uuid[] := '{}';
BEGIN
    o_pruned := 0;
    INSERT INTO site_line_stats (site_id) VALUES (p_site_id) ON CONFLICT (site_id) DO NOTHING;
    SELECT s.articles_seen INTO o_articles_seen FROM site_line_stats s WHERE s.site_id = p_site_id FOR UPDATE;
    SELECT a.body_hash, a.line_hashes INTO v_old_body, v_old_hashes
    FROM line_noise_articles a WHERE a.url = p_url FOR UPDATE;
    IF NOT FOUND THEN
        o_status := 'new';
        v_add := p_hashes;
        INSERT INTO line_noise_articles (url, site_id, body_hash, line_hashes)
        VALUES (p_url, p_site_id, p_body_hash, p_hashes);
        UPDATE site_line_stats SET articles_seen = articles_seen + 1 WHERE site_id = p_site_id;
    ELSIF v_old_body = p_body_hash THEN
        o_status := 'unchanged';
        v_add := '{}';
    ELSE
        o_status := 'changed';
        v_add := ARRAY(SELECT h FROM unnest(p_hashes) h EXCEPT SELECT h FROM unnest(v_old_hashes) h ORDER BY 1);
        v_remove := ARRAY(SELECT h FROM unnest(v_old_hashes) h EXCEPT SELECT h FROM unnest(p_hashes) h ORDER BY 1);
        UPDATE line_noise_articles SET body_hash = p_body_hash, line_hashes = p_hashes, counted_at = now()
        WHERE url = p_url;
    END IF;
    IF cardinality(v_remove) > 0 THEN
        UPDATE line_counts c SET articles = c.articles - 1
        FROM (SELECT h FROM unnest(v_remove) h ORDER BY h) r
        WHERE c.site_id = p_site_id AND c.line_hash = r.h;
        DELETE FROM line_counts c WHERE c.site_id = p_site_id AND c.line_hash = ANY (v_remove) AND c.articles <= 0;
    END IF;
    IF cardinality(v_add) > 0 THEN
        INSERT INTO line_counts AS c (site_id, line_hash, articles)
        SELECT p_site_id, h, 1 FROM unnest(v_add) h ORDER BY h
        ON CONFLICT (site_id, line_hash) DO UPDATE SET articles = c.articles + EXCLUDED.articles;
    END IF;
    SELECT coalesce(array_agg(coalesce(c.articles, 0) ORDER BY u.n), '{}'),
           coalesce(array_agg(w.line_hash IS NOT NULL ORDER BY u.n), '{}')
    INTO o_counts, o_allowed
    FROM unnest(p_hashes) WITH ORDINALITY AS u(h, n)
    LEFT JOIN line_counts c ON c.site_id = p_site_id AND c.line_hash = u.h
    LEFT JOIN line_noise_allowlist w ON w.site_id = p_site_id AND w.line_hash = u.h;
    INSERT INTO line_samples (site_id, line_hash, sample)
    SELECT p_site_id, u.h, left(u.s, 500)
    FROM unnest(p_hashes, p_samples, o_counts) AS u(h, s, lc)
    WHERE u.lc >= p_sample_min AND u.s IS NOT NULL
    ORDER BY u.h
    ON CONFLICT (site_id, line_hash) DO NOTHING;
    IF o_status = 'new' AND p_prune_interval > 0 AND (o_articles_seen + 1) % p_prune_interval = 0 THEN
        WITH gone AS (
            DELETE FROM line_counts c
            WHERE c.site_id = p_site_id AND c.articles::bigint * p_prune_divisor <= o_articles_seen + 1
            RETURNING c.line_hash
        ), samples_gone AS (
            DELETE FROM line_samples s USING gone WHERE s.site_id = p_site_id AND s.line_hash = gone.line_hash
        )
        SELECT count(*) INTO o_pruned FROM gone;
        UPDATE site_line_stats SET pruned_at = o_articles_seen + 1, lines_pruned = lines_pruned + o_pruned
        WHERE site_id = p_site_id;
    END IF;
END
$$;
