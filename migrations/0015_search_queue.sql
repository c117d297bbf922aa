-- Search index maintenance without a corpus scan: triggers queue every article whose published text or place in
-- the published corpus may have changed (written, re-cleaned, marked or unmarked as a near-duplicate), and
-- newscorpus.builds.search_index reads the queue, so a search with nothing new reads one empty index page.
-- change: bumped by every new queueing, so an index pass dequeues only what it read (a write during the pass
-- stays queued for the next one).
CREATE TABLE article_search_queue (
    article_id  bigint PRIMARY KEY,
    change      bigserial NOT NULL
);

CREATE FUNCTION queue_article_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO article_search_queue (article_id) VALUES (NEW.id)
    ON CONFLICT (article_id) DO UPDATE SET change = EXCLUDED.change;
    RETURN NULL;
END
$$;

-- A near-duplicate mark (canonical_id set) takes the article of that URL out of corpus_articles; clearing it
-- puts the article back.
CREATE FUNCTION queue_article_search_of_url() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO article_search_queue (article_id)
    SELECT a.id FROM articles a
    WHERE a.url = CASE WHEN TG_OP = 'DELETE' THEN OLD.url ELSE NEW.url END
       OR (TG_OP = 'UPDATE' AND a.url = OLD.url)
    ON CONFLICT (article_id) DO UPDATE SET change = EXCLUDED.change;
    RETURN NULL;
END
$$;

CREATE TRIGGER articles_search_insert AFTER INSERT ON articles
    FOR EACH ROW EXECUTE FUNCTION queue_article_search();
CREATE TRIGGER articles_search_update AFTER UPDATE OF url, title, body, clean_body ON articles
    FOR EACH ROW WHEN (OLD.url IS DISTINCT FROM NEW.url OR OLD.title IS DISTINCT FROM NEW.title
                       OR OLD.body IS DISTINCT FROM NEW.body OR OLD.clean_body IS DISTINCT FROM NEW.clean_body)
    EXECUTE FUNCTION queue_article_search();
CREATE TRIGGER near_duplicate_search_insert AFTER INSERT ON near_duplicate_features
    FOR EACH ROW WHEN (NEW.canonical_id IS NOT NULL) EXECUTE FUNCTION queue_article_search_of_url();
CREATE TRIGGER near_duplicate_search_update AFTER UPDATE OF url, canonical_id ON near_duplicate_features
    FOR EACH ROW WHEN ((OLD.canonical_id IS NULL) <> (NEW.canonical_id IS NULL) OR OLD.url IS DISTINCT FROM NEW.url)
    EXECUTE FUNCTION queue_article_search_of_url();
CREATE TRIGGER near_duplicate_search_delete AFTER DELETE ON near_duplicate_features
    FOR EACH ROW WHEN (OLD.canonical_id IS NOT NULL) EXECUTE FUNCTION queue_article_search_of_url();

-- What the corpus scan used to find: published articles never indexed or revised since, and search rows of
-- articles no longer published.
INSERT INTO article_search_queue (article_id)
SELECT c.id FROM corpus_articles c
LEFT JOIN article_search s ON s.article_id = c.id
WHERE s.article_id IS NULL OR c.revised_at > s.indexed_at
UNION
SELECT s.article_id FROM article_search s
WHERE NOT EXISTS (SELECT 1 FROM corpus_articles c WHERE c.id = s.article_id);
