"""The stage's write path: decide and record a batch of articles in one transaction (the near-duplicate index
of newscorpus.store.near_duplicate_index; the concurrency argument is in that module's docstring).

Round trips per batch: (1) the advisory locks and every article's candidates (migrations/0006 and 0007:
near_duplicate_candidates_batch) with ids for the new articles; (2) only when some article is a duplicate of
a stored one: the row locks on those clusters' canonical articles; (3) the features, postings and block keys
of all new articles (one statement), the links and the commit. An article is compared with the stored index
and with the articles before it in the same batch, so a batch decides as the same articles recorded one by
one in batch order would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import psycopg
from psycopg.rows import dict_row

from newscorpus.core.near_duplicate import (
    DocumentFeatures,
    PairJudgement,
    judge_pair,
    prefers_as_canonical,
)
from newscorpus.core.near_duplicate import NearDuplicateConfig as DedupConfig
from newscorpus.core.near_duplicate_index import MAX_POSTINGS_PER_KEYWORD, InMemoryDedupIndex, find_duplicates
from newscorpus.core.simhash_fingerprint import block_keys, to_signed, to_unsigned
from newscorpus.store.near_duplicate_index import (
    LAYOUTS,
    Link,
    NewArticleRow,
    PostgresDedupIndex,
    cluster_root,
    dedup_sql,
    feature_params,
    lock_keys,
    new_rows_params,
    number_array_literal,
    row_features,
    text_array_literal,
)


@dataclass(frozen=True)
class ArticleToRecord:
    url: str
    site_id: int
    text_hash: str  # core.text.source_hash of the title and body: the same text again is "unchanged"
    features: DocumentFeatures


@dataclass(frozen=True)
class DedupOutcome:
    status: str                 # "canonical", "duplicate", or "unchanged" (same URL and text as stored)
    article_id: int
    canonical_url: str | None   # the cluster's canonical article (None: this one is canonical)
    method: str | None
    score: float | None
    promoted: bool = False      # this article replaced its cluster's canonical (the canonical rule)


def record_article(connection: psycopg.Connection, url: str, site_id: int, text_hash: str,
                   features: DocumentFeatures, config: DedupConfig, layout: str = "table") -> DedupOutcome:
    """One article: a batch of one."""
    return record_articles(connection, [ArticleToRecord(url, site_id, text_hash, features)], config, layout)[0]


def record_articles(connection: psycopg.Connection, articles: Sequence[ArticleToRecord], config: DedupConfig,
                    layout: str = "table") -> list[DedupOutcome]:
    """Decide each article against the index and the batch's earlier articles and record it: features, postings,
    the link to its cluster's canonical article. Idempotent per URL and text hash. A URL seen twice in the batch,
    and a stored article whose text changed (batch of more than one), go to a following transaction."""
    if layout not in LAYOUTS:
        raise ValueError(f"index layout must be one of {LAYOUTS}, not {layout!r}")
    outcomes: list[DedupOutcome | None] = [None] * len(articles)
    first: dict[str, int] = {}
    for position, article in enumerate(articles):
        first.setdefault(article.url, position)
    positions = sorted(first.values())
    decided = _record_batch(connection, [articles[p] for p in positions], config, layout)
    for position, outcome in zip(positions, decided, strict=True):
        outcomes[position] = outcome
    for position, outcome in enumerate(outcomes):  # one at a time, in order: a batch of one leaves none out
        if outcome is None:
            outcomes[position] = _record_batch(connection, [articles[position]], config, layout)[0]
    return outcomes  # type: ignore[return-value]


class ArticleCandidates:
    """`DedupIndex` answers for one article of a batch: its candidates among stored articles (what the batch
    lookup returned, read-only) plus the articles of the batch decided before it (in memory)."""

    def __init__(self, rows: list[dict], earlier: InMemoryDedupIndex):
        self.earlier = earlier
        self._exact = sorted(row["id"] for row in rows if row["exact"])
        self._near = sorted(row["id"] for row in rows if row["near"])
        self._shared = [(row["id"], row["shared"]) for row in rows if row["shared"]]
        self._features = {row["id"]: row_features(row) for row in rows}

    def add(self, doc_id, features) -> None:  # pragma: no cover - a snapshot is read-only
        raise TypeError("batch candidates are read-only")

    def exact_candidates(self, body_hash: str) -> list[int]:
        return self._exact + self.earlier.exact_candidates(body_hash)

    def simhash_candidates(self, fingerprint: int, max_distance: int) -> list[int]:
        return self._near + self.earlier.simhash_candidates(fingerprint, max_distance)

    def keyword_candidates(self, keywords: Iterable[str], limit: int) -> list[tuple[int, int]]:
        merged = self._shared + self.earlier.keyword_candidates(keywords, limit)
        return sorted(merged, key=lambda pair: (-pair[1], -pair[0]))[:limit]

    def features(self, doc_ids: Sequence[int]) -> dict[int, DocumentFeatures]:
        found = self.earlier.features(doc_ids)
        found.update((i, self._features[i]) for i in doc_ids if i in self._features)
        return found


def _lookup_params(articles: Sequence[ArticleToRecord], config: DedupConfig, layout: str) -> dict:
    keys: set[int] = set()
    block_articles, blocks, keyword_articles, keywords = [], [], [], []
    for number, article in enumerate(articles, start=1):
        features = article.features
        keys.update(lock_keys(article.url, features, config))
        if features.simhash is not None:
            article_blocks = block_keys(features.simhash, config.simhash_distance)
            blocks.extend(article_blocks)
            block_articles.extend([number] * len(article_blocks))
        keywords.extend(sorted(features.keywords))
        keyword_articles.extend([number] * len(features.keywords))
    return {  # arrays as literals: psycopg dumps a list element by element in Python (~1,000 keywords a batch)
        "lock_keys": number_array_literal(sorted(keys)),
        "urls": text_array_literal(a.url for a in articles),
        "body_hashes": text_array_literal(a.features.body_hash if a.features.token_count else None
                                          for a in articles),
        "simhashes": number_array_literal(None if a.features.simhash is None else to_signed(a.features.simhash)
                                          for a in articles),
        "min_shared": number_array_literal(max(1, min(config.min_shared_keywords, len(a.features.keywords)))
                                           for a in articles),
        "block_articles": number_array_literal(block_articles), "block_keys": number_array_literal(blocks),
        "keyword_articles": number_array_literal(keyword_articles), "keywords": text_array_literal(keywords),
        "max_distance": config.simhash_distance, "per_keyword": MAX_POSTINGS_PER_KEYWORD,
        "limit": config.candidate_limit, "layout": layout, "overlap": config.overlap, "tau": config.tau,
    }


@dataclass
class _Decision:
    article: ArticleToRecord
    article_id: int
    stored: dict | None       # the article's stored row (its text changed)
    best: PairJudgement | None


def _record_batch(connection: psycopg.Connection, batch: list[ArticleToRecord], config: DedupConfig,
                  layout: str) -> list[DedupOutcome | None]:
    """One transaction; None for the articles left to a following one (see record_articles)."""
    outcomes: list[DedupOutcome | None] = [None] * len(batch)
    with connection.pipeline(), connection.transaction():
        rows_cursor = connection.cursor(row_factory=dict_row, binary=True)
        rows_cursor.execute(dedup_sql("candidates_batch"), _lookup_params(batch, config, layout))
        ids_cursor = connection.execute(dedup_sql("allocate_ids"), {"count": len(batch)})
        stored_rows: dict[int, dict] = {}
        candidate_rows: dict[int, list[dict]] = defaultdict(list)
        for row in rows_cursor.fetchall():  # one round trip for both statements
            if row["role"] == "self":
                stored_rows[row["article"] - 1] = row
            else:
                candidate_rows[row["article"] - 1].append(row)
        new_ids = [i for (i,) in ids_cursor.fetchall()]

        # Each article's best match; it does not depend on how earlier articles were linked, only on their
        # features, so all matches are known before any cluster root is locked.
        earlier = InMemoryDedupIndex(config.simhash_distance)
        decisions: list[tuple[int, _Decision]] = []
        batch_root: dict[int, int] = {}  # a batch article's cluster root, as decided
        stored_root: dict[int, int] = {}  # a stored candidate's cluster root, as read by the lookup
        for position, article in enumerate(batch):
            stored = stored_rows.get(position)
            if stored is not None and stored["source_hash"] == article.text_hash:
                outcomes[position] = DedupOutcome("unchanged", stored["id"], stored["canonical_url"],
                                                  stored["duplicate_method"], stored["duplicate_score"])
                continue
            if stored is not None and len(batch) > 1:
                continue  # its old features are in the index: decided again alone, after this batch
            rows = candidate_rows[position]
            stored_root.update((row["id"], row["canonical_id"] or row["id"]) for row in rows)
            article_id = stored["id"] if stored is not None else new_ids[position]
            best = find_duplicates(article.features, ArticleCandidates(rows, earlier), config).best
            decisions.append((position, _Decision(article, article_id, stored, best)))
            earlier.add(article_id, article.features)

        roots_needed = sorted({stored_root[d.best.candidate_id] for _, d in decisions
                               if d.best is not None and d.best.candidate_id in stored_root})
        locked = _lock_roots(connection, roots_needed, config)
        features_of = {d.article_id: d.article.features for _, d in decisions}
        url_of = {d.article_id: d.article.url for _, d in decisions}
        replaced_by: dict[int, int] = {}  # a canonical article -> the batch article promoted over it

        def current_root(article_id: int) -> int:
            while article_id in replaced_by:
                article_id = replaced_by[article_id]
            return article_id

        writes: list[tuple[str, dict]] = []
        inserts: list[NewArticleRow] = []  # the new articles: one statement for the batch
        for position, decision in decisions:
            article, article_id, best = decision.article, decision.article_id, decision.best
            link = Link()
            outcome = DedupOutcome("canonical", article_id, None, None, None)
            root = None
            if best is not None:
                matched = best.candidate_id
                root = current_root(batch_root[matched] if matched in batch_root
                                    else locked.root_now[stored_root[matched]])
            if root is not None and root != article_id:
                features = features_of.get(root) or locked.features[root]
                against_root = judge_pair(article.features, root, features, config)
                if against_root.is_duplicate and prefers_as_canonical(article.features, features):
                    replaced_by[root] = article_id
                    writes.append(("link_duplicate", {"id": root, "canonical_id": article_id,
                                                      "method": against_root.method, "score": against_root.score,
                                                      "matched_id": article_id}))
                    writes.append(("relink_members", {"old_canonical_id": root, "new_canonical_id": article_id}))
                    outcome = DedupOutcome("canonical", article_id, None, None, None, promoted=True)
                else:
                    link = Link(root, best.method, best.score, best.candidate_id)
                    outcome = DedupOutcome("duplicate", article_id, url_of.get(root) or locked.url[root],
                                           best.method, best.score)
            batch_root[article_id] = link.canonical_id or article_id
            outcomes[position] = outcome
            if decision.stored is None:
                inserts.append(NewArticleRow(article_id, article.url, article.site_id, article.text_hash,
                                             article.features, link))
            else:
                _update_article(connection, decision, link, config, layout)
        if inserts:
            connection.execute(dedup_sql("insert_features_batch"), new_rows_params(inserts, config, layout))
        for name, params in writes:  # promotions after every row they may relink exists
            connection.execute(dedup_sql(name), params)
    return outcomes


@dataclass
class _LockedRoots:
    features: dict[int, DocumentFeatures]
    url: dict[int, str]
    root_now: dict[int, int]  # a root as the lookup read it -> the cluster's canonical article now


def _lock_roots(connection: psycopg.Connection, ids: list[int], config: DedupConfig) -> _LockedRoots:
    """Row-lock the stored cluster roots the batch links to, with their features. A root that a concurrent
    writer linked to another cluster after the lookup is followed to that cluster's canonical article."""
    locked = _LockedRoots({}, {}, {})
    if not ids:
        return locked
    cursor = connection.cursor(row_factory=dict_row, binary=True)
    moved = []
    for row in cursor.execute(dedup_sql("lock_roots"), {"ids": ids}).fetchall():
        if row["canonical_id"] is None:
            locked.features[row["id"]], locked.url[row["id"]] = row_features(row), row["url"]
            locked.root_now[row["id"]] = row["id"]
        else:
            moved.append(row["id"])
    if moved:  # rare: a concurrent promotion or merge
        index = PostgresDedupIndex(connection, config.simhash_distance)
        for article_id in moved:
            root = cluster_root(connection, article_id)
            locked.features[root] = index.features([root])[root]
            locked.url[root], locked.root_now[article_id] = index.url_of[root], root
    return locked


def _update_article(connection: psycopg.Connection, decision: _Decision, link: Link, config: DedupConfig,
                    layout: str) -> None:
    """A stored article whose text changed: its old postings and block keys go, the new ones are written with
    the row."""
    article, stored = decision.article, decision.stored
    params = feature_params(article.features, config, layout)
    params.update(id=decision.article_id, url=article.url, site_id=article.site_id, source_hash=article.text_hash,
                  canonical_id=link.canonical_id, method=link.method, score=link.score, matched_id=link.matched_id)
    connection.execute(dedup_sql("delete_postings"), {"id": stored["id"], "keywords": list(stored["keywords"])})
    if stored["simhash"] is not None:
        old_keys = block_keys(to_unsigned(stored["simhash"]), config.simhash_distance)
        connection.execute(dedup_sql("delete_blocks"), {"id": stored["id"], "keys": old_keys})
    connection.execute(dedup_sql("update_features"), params)
    if stored["has_members"] and params["canonical_id"] is not None:  # its members follow it
        connection.execute(dedup_sql("relink_members"),
                           {"old_canonical_id": stored["id"], "new_canonical_id": params["canonical_id"]})
