-- Named queries of the near-duplicate index (migrations/0003_near_duplicates.sql); parameters always bound.

-- name: lock_keys
-- Transaction-scoped advisory locks on a story's candidate keys, taken in the (sorted) array's order so two
-- writers never wait on each other in a cycle. unnest yields the elements in array order.
SELECT count(pg_advisory_xact_lock(key)) FROM unnest(%(keys)s::bigint[]) AS key

-- name: exact_candidates
SELECT id FROM near_duplicate_features WHERE body_hash = %(body_hash)s ORDER BY id

-- name: simhash_candidates
-- Articles sharing a pigeonhole block with the fingerprint; the Hamming distance is checked by the caller.
SELECT DISTINCT f.id, f.simhash
FROM near_duplicate_blocks b
JOIN near_duplicate_features f ON f.id = b.article_id
WHERE b.block_key = ANY (%(keys)s::bigint[])

-- name: keyword_candidates
-- Table layout: each keyword's most recent `per_keyword` postings (a backward btree scan), counted.
SELECT p.article_id, count(*) AS shared
FROM unnest(%(keywords)b::text[]) AS k (keyword)
CROSS JOIN LATERAL (
    SELECT article_id FROM near_duplicate_keywords
    WHERE keyword = k.keyword
    ORDER BY article_id DESC
    LIMIT %(per_keyword)s
) p
GROUP BY p.article_id
ORDER BY shared DESC, p.article_id DESC
LIMIT %(limit)s

-- name: keyword_candidates_gin
-- GIN layout (benchmarks only: a GIN index on near_duplicate_features.keywords instead of the table).
SELECT p.id, count(*) AS shared
FROM unnest(%(keywords)b::text[]) AS k (keyword)
CROSS JOIN LATERAL (
    SELECT id FROM near_duplicate_features
    WHERE keywords @> ARRAY[k.keyword]
    ORDER BY id DESC
    LIMIT %(per_keyword)s
) p
GROUP BY p.id
ORDER BY shared DESC, p.id DESC
LIMIT %(limit)s

-- name: features
-- The sketch as array_send gives it (store/near_duplicate/index.py cached_sketch), as in every query row_features
-- reads.
SELECT id, url, language, keywords, title_keywords, simhash, array_send(sketch) AS sketch, shingle_count,
       token_count, body_hash, canonical_id, site_id, title_numbers
FROM near_duplicate_features
WHERE id = ANY (%(ids)s::bigint[])

-- name: insert_features_batch
-- A batch's new articles in one statement (ids from allocate_ids), their postings and block keys: one statement
-- instead of one per article (benchmarks/near_duplicate_throughput.py --postgres). Every array goes as a literal
-- but the sketches; keywords, title_keywords and title_numbers hold one array literal per article. The sketches
-- are one binary bigint[] of every row's hashes in order (store/near_duplicate/index.py BigintArrayBinary), a
-- row's the slice up to its end in sketch_ends, of sketch_lengths hashes. Scores go through float8, as a bound
-- float would.
WITH article AS (
    INSERT INTO near_duplicate_features (id, url, site_id, language, source_hash, body_hash, simhash, token_count,
                                         shingle_count, sketch, keywords, title_keywords, title_numbers,
                                         canonical_id, duplicate_method, duplicate_score, matched_id, resolved)
    SELECT a.id, a.url, a.site_id, a.language, a.source_hash, a.body_hash, a.simhash, a.token_count,
           a.shingle_count, (%(sketch_hashes)b::bigint[])[a.sketch_end - a.sketch_length + 1 : a.sketch_end],
           a.keywords::text[], a.title_keywords::text[],
           a.title_numbers::text[], a.canonical_id, a.method, a.score, a.matched_id, a.canonical_id IS NOT NULL
    FROM unnest(%(ids)s::bigint[], %(urls)s::text[], %(site_ids)s::integer[], %(languages)s::text[],
                %(source_hashes)s::text[], %(body_hashes)s::text[], %(simhashes)s::bigint[],
                %(token_counts)s::integer[], %(shingle_counts)s::integer[], %(sketch_ends)s::integer[],
                %(sketch_lengths)s::integer[],
                %(keywords)s::text[], %(title_keywords)s::text[], %(title_numbers)s::text[],
                %(canonical_ids)s::bigint[], %(methods)s::text[], %(scores)s::float8[], %(matched_ids)s::bigint[])
         AS a (id, url, site_id, language, source_hash, body_hash, simhash, token_count, shingle_count, sketch_end,
               sketch_length, keywords, title_keywords, title_numbers, canonical_id, method, score, matched_id)
    RETURNING id, keywords
), postings AS (
    INSERT INTO near_duplicate_keywords (keyword, article_id)
    SELECT k, article.id FROM article, unnest(article.keywords) AS k WHERE %(postings)s
), blocks AS (
    INSERT INTO near_duplicate_blocks (block_key, article_id)
    SELECT b.block_key, b.article_id FROM unnest(%(block_keys)s::bigint[], %(block_articles)s::bigint[])
         AS b (block_key, article_id)
)
SELECT count(*) FROM article

-- name: update_features
-- A re-crawl whose text changed: new features and decision (old postings deleted first, new ones written).
WITH article AS (
    UPDATE near_duplicate_features
    SET language = %(language)s, source_hash = %(source_hash)s, body_hash = %(body_hash)s, simhash = %(simhash)s,
        token_count = %(token_count)s, shingle_count = %(shingle_count)s, sketch = %(sketch)s::bigint[],
        keywords = %(keywords)b, title_keywords = %(title_keywords)b, title_numbers = %(title_numbers)b,
        canonical_id = %(canonical_id)s,
        duplicate_method = %(method)s, duplicate_score = %(score)s, matched_id = %(matched_id)s,
        resolved = %(canonical_id)s::bigint IS NOT NULL, checked_at = now()
    WHERE id = %(id)s
    RETURNING id, keywords
), postings AS (
    INSERT INTO near_duplicate_keywords (keyword, article_id)
    SELECT k, article.id FROM article, unnest(article.keywords) AS k WHERE %(postings)s
), blocks AS (
    INSERT INTO near_duplicate_blocks (block_key, article_id)
    SELECT k, article.id FROM article, unnest(%(block_keys)b::bigint[]) AS k
)
SELECT id FROM article

-- name: delete_postings
DELETE FROM near_duplicate_keywords WHERE article_id = %(id)s AND keyword = ANY (%(keywords)b::text[])

-- name: delete_blocks
DELETE FROM near_duplicate_blocks WHERE article_id = %(id)s AND block_key = ANY (%(keys)s::bigint[])

-- name: lock_canonical
-- The cluster's canonical row, locked: a concurrent promotion of the same cluster waits, and a promotion
-- that committed first is seen (canonical_id no longer NULL: follow it).
SELECT id, canonical_id FROM near_duplicate_features WHERE id = %(id)s FOR UPDATE

-- name: link_duplicate
UPDATE near_duplicate_features
SET canonical_id = %(canonical_id)s, duplicate_method = %(method)s, duplicate_score = %(score)s,
    matched_id = %(matched_id)s, resolved = true
WHERE id = %(id)s

-- name: relink_members
-- Promotion or merge: every member of the old canonical's cluster now points to the new canonical.
UPDATE near_duplicate_features SET canonical_id = %(new_canonical_id)s
WHERE canonical_id = %(old_canonical_id)s AND id <> %(new_canonical_id)s

-- name: mark_resolved
UPDATE near_duplicate_features SET resolved = true WHERE id = ANY (%(ids)s::bigint[])

-- name: unresolved_canonicals
SELECT f.id FROM near_duplicate_features f
JOIN sites s ON s.id = f.site_id
WHERE f.canonical_id IS NULL AND NOT f.resolved
  AND (%(sites)s::text[] IS NULL OR s.name = ANY (%(sites)s::text[]))
ORDER BY f.id
LIMIT %(limit)s

-- name: canonical_counts
SELECT count(*) FILTER (WHERE canonical_id IS NULL) AS canonical,
       count(*) FILTER (WHERE canonical_id IS NOT NULL) AS duplicates
FROM near_duplicate_features

-- name: clusters
-- `newscorpus dups`: clusters with at least one duplicate, largest first; members with method and score.
SELECT c.id, c.url, coalesce(a.title, '') AS title, s.name AS site,
       json_agg(json_build_object('url', m.url, 'method', m.duplicate_method, 'score', m.duplicate_score,
                                  'site', ms.name) ORDER BY m.id) AS members
FROM near_duplicate_features c
JOIN near_duplicate_features m ON m.canonical_id = c.id
JOIN sites s ON s.id = c.site_id
JOIN sites ms ON ms.id = m.site_id
LEFT JOIN articles a ON a.url = c.url
WHERE c.canonical_id IS NULL
GROUP BY c.id, c.url, a.title, s.name
HAVING %(site)s::text IS NULL OR bool_or(s.name = %(site)s OR ms.name = %(site)s)
ORDER BY count(*) DESC, c.id
LIMIT %(limit)s

-- name: candidates_batch
-- The stage's locked lookup for a batch of articles in one round trip (migrations/0006).
-- The arrays go as literals (newscorpus.store.array_literals), the lock and block keys
-- in binary (store/near_duplicate/index.py BigintArrayBinary). A candidate's features
-- come once per batch, on its first row (has_features), in the function's row order (WITH ORDINALITY): the batch's
-- articles share most of their candidates (a site's recent articles), whose features were read up to 64 times
-- over (megabytes of Python objects per batch of the demo crawl); the sketch as array_send gives it
-- (store/near_duplicate/index.py cached_sketch).
SELECT role, article, id, url, exact, near, shared, source_hash, canonical_id, canonical_url, duplicate_method,
       duplicate_score, has_members, has_features,
       CASE WHEN has_features THEN language END AS language,
       CASE WHEN has_features THEN keywords END AS keywords,
       CASE WHEN has_features THEN title_keywords END AS title_keywords,
       CASE WHEN has_features THEN simhash END AS simhash,
       CASE WHEN has_features THEN array_send(sketch) END AS sketch,
       CASE WHEN has_features THEN shingle_count END AS shingle_count,
       CASE WHEN has_features THEN token_count END AS token_count,
       CASE WHEN has_features THEN body_hash END AS body_hash,
       CASE WHEN has_features THEN site_id END AS site_id,
       CASE WHEN has_features THEN title_numbers END AS title_numbers
FROM (SELECT found.*, role = 'self' OR row_number() OVER (PARTITION BY role, id ORDER BY ordinality) = 1
                      AS has_features
      FROM near_duplicate_candidates_batch(%(lock_keys)b::bigint[], %(urls)s::text[], %(body_hashes)s::text[],
                                           %(simhashes)s::bigint[], %(min_shared)s::integer[],
                                           %(block_articles)s::integer[], %(block_keys)b::bigint[],
                                           %(keyword_articles)s::integer[], %(keywords)s::text[],
                                           %(max_distance)s, %(per_keyword)s, %(limit)s, %(layout)s,
                                           %(overlap)s, %(tau)s) WITH ORDINALITY AS found) AS numbered
ORDER BY ordinality

-- name: allocate_ids
-- Ids for a batch's new articles, taken before they are decided: a later article of the batch can be linked to
-- an earlier one in the same transaction. Unused ids (an unchanged re-crawl) leave gaps, as any sequence may.
SELECT nextval(pg_get_serial_sequence('near_duplicate_features', 'id')) FROM generate_series(1, %(count)s)

-- name: lock_roots
-- The canonical articles a batch links to, row-locked in id order (a concurrent promotion of the same cluster
-- waits; one that committed first shows as canonical_id NOT NULL: the caller follows it), with their features.
SELECT id, url, canonical_id, language, keywords, title_keywords, simhash, array_send(sketch) AS sketch,
       shingle_count, token_count, body_hash, site_id, title_numbers
FROM near_duplicate_features
WHERE id = ANY (%(ids)s::bigint[])
ORDER BY id
FOR UPDATE
