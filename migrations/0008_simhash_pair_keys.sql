-- Issue 6, per-article cost flat as the index grows (docs/dedup_results.md, round 4): two costs that grew with the
-- number of indexed articles.
--
-- 1. Simhash pigeonhole keys by pairs of blocks: up to a Hamming distance of 4 the fingerprint is cut into d + 2
-- blocks and each pair of blocks is a key (pipelines.core.simhash_fingerprint.block_keys): 10 keys of 25-26 bits
-- for d = 3 instead of 4 of 16 bits. The 16-bit keys matched ~N * 4 / 65536 stored articles per lookup by chance
-- (~16 at 250k indexed), each read from its wide near_duplicate_features row to check the distance.
--
-- The stored keys are rebuilt from the stored simhash. The distance they were built for is read from them: the
-- old keys are (block index << 32) | block value for blocks 0..d. Articles indexed for d > 4 keep their
-- single-block keys (the scheme is unchanged there). The table is unchanged.
CREATE TEMPORARY TABLE old_block_distance ON COMMIT DROP AS
SELECT article_id, max(block_key >> 32)::integer AS distance
FROM near_duplicate_blocks
GROUP BY article_id
HAVING max(block_key >> 32) <= 4 AND max(block_key) < (1::bigint << 36);

DELETE FROM near_duplicate_blocks b USING old_block_distance o WHERE b.article_id = o.article_id;

-- Blocks i = 0 .. d + 1 of the unsigned fingerprint u (stored simhash = u - 2^63: flipping the sign bit gives u's
-- bits), the first 64 % (d + 2) one bit wider, block 0 the highest bits; key (i, j), i < j, numbered in order:
-- 2^56 | number << 48 | block i << width j | block j.
WITH block AS (
    SELECT o.article_id, o.distance + 2 AS blocks, i.i,
           64 / (o.distance + 2) + (i.i < 64 % (o.distance + 2))::integer AS width,
           f.simhash # (-9223372036854775808)::bigint AS bits
    FROM old_block_distance o
    JOIN near_duplicate_features f ON f.id = o.article_id
    CROSS JOIN LATERAL generate_series(0, o.distance + 1) AS i (i)
    WHERE f.simhash IS NOT NULL
), placed AS (
    SELECT article_id, blocks, i, width,
           (bits >> (64 - sum(width) OVER (PARTITION BY article_id ORDER BY i))::integer)
               & ((1::bigint << width) - 1) AS value
    FROM block
)
INSERT INTO near_duplicate_blocks (block_key, article_id)
SELECT (1::bigint << 56) | ((a.i * a.blocks - a.i * (a.i + 1) / 2 + b.i - a.i - 1)::bigint << 48)
       | (a.value << b.width) | b.value,
       a.article_id
FROM placed a
JOIN placed b ON b.article_id = a.article_id AND b.i > a.i;

-- 2. No JIT compilation for the batch lookup: its generic plan's estimated cost grows with the tables (the 'gin'
-- branch's estimate scales with near_duplicate_features) and passed jit_above_cost (100,000) past ~100k
-- indexed articles; compiling the plan then cost ~69 ms of server CPU per call, ~1.1 ms per article in batches
-- of 64 at 250k indexed, more than running it (auto_explain, 2026-11-22, docs/dedup_results.md, round 4).
ALTER FUNCTION near_duplicate_candidates_batch(bigint[], text[], text[], bigint[], integer[], integer[], bigint[],
                                               integer[], text[], integer, integer, integer, text, text,
                                               double precision)
    SET jit = off;
