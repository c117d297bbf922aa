"""The near-duplicate index in Postgres: the core's `DedupIndex` protocol over the near_duplicate_* tables
(migrations/0003), the transaction that decides and records one article, the resolution pass and clusters.

Synchronous psycopg on purpose: the core's protocol is synchronous, so the stage runs `record_article` in a
thread (`asyncio.to_thread`), which keeps the reactor free while the lookup and the write run.

Concurrency: `record_article` takes transaction-scoped advisory locks on every key through which another
article could find this one or be found by it (the URL, the exact body hash, the simhash block keys, every
keyword), sorted, before it looks up candidates. Two articles that the decision could call duplicates share
at least one key (a duplicate is always found through one of them), so their transactions run one after the
other and the second sees the first: a story cannot get two canonicals from two writers racing. Cluster
roots are row-locked (FOR UPDATE) before being linked to or replaced, so a promotion and a link to the same
cluster do not interleave either. `resolve_duplicates` is the safety net (e.g. clusters bridged later).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import psycopg

from pipelines.core.dedup_index import MAX_POSTINGS_PER_KEYWORD, find_duplicates
from pipelines.core.near_duplicate import DedupConfig, DocumentFeatures, judge_pair, prefers_as_canonical
from pipelines.core.shingle_sketch import ShingleSketch
from pipelines.core.simhash_fingerprint import block_keys, hamming_distance, to_signed, to_unsigned
from pipelines.db.connection import connect
from pipelines.db.named_queries import query

LAYOUTS = ("table", "gin")  # keyword postings: a (keyword, article) btree table, or a GIN index on keywords
_LOCK_NAMESPACE = b"newscorpus/near-duplicates/"


def _sql(name: str) -> str:
    return query(name, filename="near_duplicates.sql")


def source_hash(title: str | None, body: str) -> str:
    """What the stage fed the detector: a re-crawl with the same hash changes nothing."""
    return hashlib.sha256(f"{title or ''}\x00{body}".encode()).hexdigest()


def _lock_key(kind: str, value: object) -> int:
    digest = hashlib.blake2b(_LOCK_NAMESPACE + f"{kind}:{value}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock_keys(url: str, features: DocumentFeatures, config: DedupConfig) -> list[int]:
    """Advisory-lock keys of an article, sorted (one global order: no deadlock between writers)."""
    keys = {_lock_key("url", url)}
    if features.token_count:
        keys.add(_lock_key("exact", features.body_hash))
    if features.simhash is not None:
        keys.update(_lock_key("block", key) for key in block_keys(features.simhash, config.simhash_distance))
    keys.update(_lock_key("keyword", keyword) for keyword in features.keywords)
    return sorted(keys)


def _row_features(row: dict) -> DocumentFeatures:
    return DocumentFeatures(
        lang=row["language"],
        keywords=frozenset(row["keywords"]),
        title_keywords=tuple(row["title_keywords"]),
        simhash=None if row["simhash"] is None else to_unsigned(row["simhash"]),
        sketch=ShingleSketch(tuple(row["sketch"]), row["shingle_count"], row["token_count"]),
        body_hash=row["body_hash"],
        token_count=row["token_count"],
    )


def _feature_params(features: DocumentFeatures, config: DedupConfig, layout: str) -> dict:
    keywords = sorted(features.keywords)
    blocks = [] if features.simhash is None else block_keys(features.simhash, config.simhash_distance)
    return {
        "language": features.lang,
        "body_hash": features.body_hash,
        "simhash": None if features.simhash is None else to_signed(features.simhash),
        "token_count": features.token_count,
        "shingle_count": features.sketch.shingle_count,
        "sketch": list(features.sketch.hashes),
        "keywords": keywords,
        "title_keywords": list(features.title_keywords),
        "postings": keywords if layout == "table" else [],
        "block_keys": blocks,
    }


class PostgresDedupIndex:
    """`DedupIndex` over Postgres; doc ids are near_duplicate_features.id (larger = added later).

    `exclude`: an id never returned (the article being re-decided); `canonical_of` is filled by `features`.
    """

    def __init__(self, connection: psycopg.Connection, simhash_distance: int, layout: str = "table",
                 exclude: int | None = None):
        if layout not in LAYOUTS:
            raise ValueError(f"index layout must be one of {LAYOUTS}, not {layout!r}")
        self.connection = connection
        self.simhash_distance = simhash_distance
        self.layout = layout
        self.exclude = exclude
        self.canonical_of: dict[int, int | None] = {}
        self.url_of: dict[int, str] = {}
        self._fetched: dict[int, DocumentFeatures] = {}  # rows read in this transaction

    def _rows(self, name: str, params: dict) -> list[tuple]:
        return self.connection.execute(_sql(name), params, binary=True).fetchall()

    def add(self, doc_id: str, features: DocumentFeatures, *, site_id: int = 0, text_hash: str = "") -> int:
        """Index an article as canonical under its URL (`doc_id`); returns its id."""
        params = _feature_params(features, DedupConfig(simhash_distance=self.simhash_distance), self.layout)
        params.update(url=doc_id, site_id=site_id, source_hash=text_hash, canonical_id=None, method=None,
                      score=None, matched_id=None)
        return self._rows("insert_features", params)[0][0]

    def exact_candidates(self, body_hash: str) -> list[int]:
        return [i for (i,) in self._rows("exact_candidates", {"body_hash": body_hash}) if i != self.exclude]

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[int]:
        if max_distance > self.simhash_distance:
            raise ValueError(f"index built for Hamming ≤ {self.simhash_distance}, asked {max_distance}")
        rows = self._rows("simhash_candidates", {"keys": block_keys(fingerprint, self.simhash_distance)})
        return sorted(i for i, signed in rows
                      if i != self.exclude and hamming_distance(fingerprint, to_unsigned(signed)) <= max_distance)

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[int, int]]:
        name = "keyword_candidates" if self.layout == "table" else "keyword_candidates_gin"
        extra = 1 if self.exclude is not None else 0
        rows = self._rows(name, {"keywords": sorted(set(keywords)), "per_keyword": MAX_POSTINGS_PER_KEYWORD,
                                 "limit": limit + extra})
        return [(i, shared) for i, shared in rows if i != self.exclude][:limit]

    def features(self, doc_ids: Sequence[int]) -> dict[int, DocumentFeatures]:
        missing = [i for i in doc_ids if i not in self._fetched]
        if missing:
            cursor = self.connection.cursor(row_factory=psycopg.rows.dict_row, binary=True)
            for row in cursor.execute(_sql("features"), {"ids": missing}):
                self._fetched[row["id"]] = _row_features(row)
                self.canonical_of[row["id"]] = row["canonical_id"]
                self.url_of[row["id"]] = row["url"]
        return {i: self._fetched[i] for i in doc_ids if i in self._fetched}


class PrefetchedCandidates:
    """`DedupIndex` answers for one article, read in one round trip by the near_duplicate_candidates function
    (locks first, then the same lookups as PostgresDedupIndex, less the keyword candidates whose keyword
    overlap is under tau: they cannot be duplicates); `stored` is the article's own row, if any."""

    def __init__(self, connection: psycopg.Connection, url: str, features: DocumentFeatures, config: DedupConfig,
                 layout: str = "table"):
        if layout not in LAYOUTS:
            raise ValueError(f"index layout must be one of {LAYOUTS}, not {layout!r}")
        blocks = [] if features.simhash is None else block_keys(features.simhash, config.simhash_distance)
        params = {
            "lock_keys": lock_keys(url, features, config), "url": url,
            "body_hash": features.body_hash if features.token_count else None,
            "simhash": None if features.simhash is None else to_signed(features.simhash),
            "max_distance": config.simhash_distance, "block_keys": blocks, "keywords": sorted(features.keywords),
            "per_keyword": MAX_POSTINGS_PER_KEYWORD, "limit": config.candidate_limit,
            "min_shared": max(1, min(config.min_shared_keywords, len(features.keywords))), "layout": layout,
            "overlap": config.overlap, "tau": config.tau,
        }
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row, binary=True)
        rows = cursor.execute(_sql("candidates"), params).fetchall()
        self.stored = next((row for row in rows if row["role"] == "self"), None)
        candidates = [row for row in rows if row["role"] == "candidate"]
        self._exact = sorted(row["id"] for row in candidates if row["exact"])
        self._near = sorted(row["id"] for row in candidates if row["near"])
        self._shared = sorted(((row["id"], row["shared"]) for row in candidates if row["shared"]),
                              key=lambda pair: (-pair[1], -pair[0]))
        self._features = {row["id"]: _row_features(row) for row in candidates}
        self.canonical_of = {row["id"]: row["canonical_id"] for row in candidates}
        self.url_of = {row["id"]: row["url"] for row in candidates}

    def add(self, doc_id, features) -> None:  # pragma: no cover - a snapshot is read-only
        raise TypeError("prefetched candidates are read-only")

    def exact_candidates(self, body_hash: str) -> list[int]:
        return list(self._exact)

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[int]:
        return list(self._near)

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[int, int]]:
        return self._shared[:limit]

    def features(self, doc_ids: Sequence[int]) -> dict[int, DocumentFeatures]:
        return {i: self._features[i] for i in doc_ids if i in self._features}


@dataclass(frozen=True)
class DedupOutcome:
    status: str                 # "canonical", "duplicate", or "unchanged" (same URL and text as stored)
    article_id: int
    canonical_url: str | None   # the cluster's canonical article (None: this one is canonical)
    method: str | None
    score: float | None
    promoted: bool = False      # this article replaced its cluster's canonical (the canonical rule)


def _root(connection: psycopg.Connection, article_id: int) -> int:
    """The canonical article of `article_id`'s cluster, row-locked; follows links moved by concurrent writers."""
    for _ in range(16):
        row = connection.execute(_sql("lock_canonical"), {"id": article_id}).fetchone()
        if row is None or row[1] is None:
            return article_id
        article_id = row[1]
    raise RuntimeError(f"near-duplicate links do not end at a canonical article (from id {article_id})")


def record_article(connection: psycopg.Connection, url: str, site_id: int, text_hash: str,
                   features: DocumentFeatures, config: DedupConfig, layout: str = "table") -> DedupOutcome:
    """Decide whether the article is a near-duplicate and record its features, postings and link, in one
    transaction under advisory locks (module docstring). Idempotent per URL and text hash. Round trips: the
    locked lookup, the write and the commit (pipelined), plus the cluster root's row lock for a duplicate."""
    with connection.pipeline(), connection.transaction():
        found = PrefetchedCandidates(connection, url, features, config, layout)
        stored = found.stored
        if stored is not None and stored["source_hash"] == text_hash:
            return DedupOutcome("unchanged", stored["id"], stored["canonical_url"], stored["duplicate_method"],
                                stored["duplicate_score"])
        if stored is not None:  # the text changed: its old postings go, the decision is made again
            connection.execute(_sql("delete_postings"), {"id": stored["id"], "keywords": list(stored["keywords"])})
            if stored["simhash"] is not None:
                old_keys = block_keys(to_unsigned(stored["simhash"]), config.simhash_distance)
                connection.execute(_sql("delete_blocks"), {"id": stored["id"], "keys": old_keys})
        best = find_duplicates(features, found, config).best
        params = _feature_params(features, config, layout)
        params.update(url=url, site_id=site_id, source_hash=text_hash, canonical_id=None, method=None,
                      score=None, matched_id=None)
        promoted_over = root_url = None
        if best is not None:
            index = PostgresDedupIndex(connection, config.simhash_distance, layout)
            root = _root(connection, found.canonical_of.get(best.candidate_id) or best.candidate_id)
            root_features = found.features([root]).get(root) or index.features([root])[root]
            root_url = found.url_of.get(root) or index.url_of[root]
            against_root = judge_pair(features, root, root_features, config)
            if against_root.is_duplicate and prefers_as_canonical(features, root_features):
                promoted_over = (root, against_root)
            else:
                params.update(canonical_id=root, method=best.method, score=best.score, matched_id=best.candidate_id)
        if stored is None:
            cursor = connection.execute(_sql("insert_features"), params)
        else:
            cursor = connection.execute(_sql("update_features"), {**params, "id": stored["id"]})
            if stored["has_members"] and params["canonical_id"] is not None:  # its members follow it
                connection.execute(_sql("relink_members"),
                                   {"old_canonical_id": stored["id"], "new_canonical_id": params["canonical_id"]})
        if promoted_over is not None:
            article_id = cursor.fetchone()[0]
            old_root, judgement = promoted_over
            connection.execute(_sql("link_duplicate"), {"id": old_root, "canonical_id": article_id,
                                                        "method": judgement.method, "score": judgement.score,
                                                        "matched_id": article_id})
            connection.execute(_sql("relink_members"),
                               {"old_canonical_id": old_root, "new_canonical_id": article_id})
            return DedupOutcome("canonical", article_id, None, None, None, promoted=True)
    article_id = cursor.fetchone()[0]
    if params["canonical_id"] is None:
        return DedupOutcome("canonical", article_id, None, None, None)
    return DedupOutcome("duplicate", article_id, root_url, best.method, best.score)


def _merge(connection: psycopg.Connection, index: PostgresDedupIndex, article_id: int,
           features: DocumentFeatures, config: DedupConfig) -> int:
    """Resolution of one canonical article: when it is a duplicate of another cluster's canonical, the two
    clusters become one (the earlier canonical stays unless this one wins by the canonical rule)."""
    decision = find_duplicates(features, index, config)
    rank = {"exact": 0, "simhash": 1, "keywords": 2}
    for judgement in sorted(decision.duplicates, key=lambda j: (rank[j.method], -j.score)):
        other = _root(connection, index.canonical_of.get(judgement.candidate_id) or judgement.candidate_id)
        if other == article_id:
            continue
        _root(connection, article_id)
        found = {article_id: features, other: index.features([other])[other]}
        earlier, later = sorted(found)
        keep, lose = (later, earlier) if prefers_as_canonical(found[later], found[earlier]) else (earlier, later)
        connection.execute(_sql("link_duplicate"), {"id": lose, "canonical_id": keep, "method": judgement.method,
                                                    "score": judgement.score,
                                                    "matched_id": judgement.candidate_id if lose == article_id
                                                    else article_id})
        connection.execute(_sql("relink_members"), {"old_canonical_id": lose, "new_canonical_id": keep})
        return 1
    return 0


def resolve_duplicates(dsn: str, sites: list[str] | None = None, config: DedupConfig | None = None,
                       layout: str = "table", batch_size: int = 500) -> dict:
    """Maintenance pass: every canonical article not yet checked is compared with the index again; two
    clusters of one story (a link missed, a story bridged by a later reprint) are merged. Safe to re-run."""
    config = config or DedupConfig()
    totals = {"checked": 0, "merged": 0}
    with connect(dsn, autocommit=True) as connection:
        while True:
            ids = [i for (i,) in connection.execute(_sql("unresolved_canonicals"),
                                                    {"sites": sites or None, "limit": batch_size})]
            if not ids:
                return totals
            for article_id in ids:
                with connection.transaction():
                    index = PostgresDedupIndex(connection, config.simhash_distance, layout, exclude=article_id)
                    features = index.features([article_id]).get(article_id)
                    if features is not None and index.canonical_of[article_id] is None:
                        connection.execute(_sql("lock_keys"), {
                            "keys": lock_keys(index.url_of[article_id], features, config)})
                        totals["merged"] += _merge(connection, index, article_id, features, config)
                    connection.execute(_sql("mark_resolved"), {"ids": [article_id]})
                totals["checked"] += 1


def resolve_duplicates_step(dsn: str, sites: list[str]) -> dict:
    """`pipelines.maintenance` step: resolution of the build's sites."""
    return resolve_duplicates(dsn, sites)


def list_clusters(dsn: str, site: str | None = None, limit: int = 20) -> list[dict]:
    """Clusters with at least one duplicate, largest first: canonical id, url, title, site and members."""
    with connect(dsn) as connection:
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row)
        return cursor.execute(_sql("clusters"), {"site": site, "limit": limit}).fetchall()


def canonical_counts(dsn: str) -> dict:
    with connect(dsn) as connection:
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row)
        return dict(cursor.execute(_sql("canonical_counts")).fetchone())
