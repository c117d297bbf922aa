"""The stage's write path: decide and record a batch of articles in one transaction (the near-duplicate index
of newscorpus.store.near_duplicate.index; the concurrency argument is in that module's docstring). The decisions
are newscorpus.core.near_duplicate.batch's (pure); this module reads what they need and writes what they say.

Round trips per batch: (1) the advisory locks and every article's candidates (migrations/0006 and 0007:
near_duplicate_candidates_batch) with ids for the new articles; (2) only when some article is a duplicate of
a stored one: the row locks on those clusters' canonical articles; (3) the features, postings and block keys
of all new articles (one statement), the links and the commit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import psycopg
from psycopg.rows import dict_row

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.batch import (
    ArticleToRecord,
    Candidate,
    LockedRoots,
    Lookup,
    NearDuplicateOutcome,
    Recorded,
    StoredArticle,
    link_batch,
    match_batch,
)
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import DocumentFeatures, build_features_batch
from newscorpus.core.near_duplicate.index import MAX_POSTINGS_PER_KEYWORD
from newscorpus.core.near_duplicate.simhash import block_keys, to_signed, to_unsigned
from newscorpus.core.text import source_hash
from newscorpus.store.array_literals import number_array_literal, text_array_literal
from newscorpus.store.held_connection import HeldConnection
from newscorpus.store.near_duplicate.index import (
    LAYOUTS,
    BigintArrayBinary,
    NewArticleRow,
    PostgresNearDuplicateIndex,
    cluster_root,
    feature_params,
    insert_new_rows,
    lock_keys,
    row_features,
    use_binary_bigint_arrays,
)
from newscorpus.store.sql import query

T = TypeVar("T")

__all__ = ["ArticleToRecord", "NearDuplicateOutcome", "decide_batch", "record_article", "record_articles"]

# An article the stage asks about: (url, site id, title, body, language as the extraction found it or None).
ArticleToDecide = tuple[str, int, str, str, "str | None"]
# How the batch's pure steps (the features, the matching, the links) are run: called with the function and its
# arguments, it returns what the function returns. `here` runs them in the calling thread; the crawl's recorder runs
# them on its event loop while its thread keeps the connection (newscorpus.store.near_duplicate.recorder).
Compute = Callable[..., Any]


def here(function: Callable[..., T], *args: Any) -> T:
    return function(*args)


def decide_batch(held: HeldConnection, batch: Sequence[ArticleToDecide], config: NearDuplicateConfig,
                 compute: Compute = here) -> list[NearDuplicateOutcome | None]:
    """The stage's decision for a batch: the features, then one transaction (record_articles, retried on
    ``held`` while the server is away: it is idempotent per URL and text); None for a body too short to compare.
    Run by newscorpus.store.near_duplicate.recorder's thread or by its process of its own
    (newscorpus.store.near_duplicate.process): the same code either way."""
    outcomes: list[NearDuplicateOutcome | None] = [None] * len(batch)
    built = compute(build_features_batch, [(title, body, site_id, language)
                                           for _, site_id, title, body, language in batch], config)
    articles, positions = [], []
    for position, ((url, site_id, title, body, _), features) in enumerate(zip(batch, built, strict=True)):
        if features.token_count >= config.min_simhash_tokens:
            articles.append(ArticleToRecord(url, site_id, source_hash(title, body), features))
            positions.append(position)
    if not articles:
        return outcomes
    what = f"the near-duplicate check of {len(articles)} article(s) from {articles[0].url[:200]}"
    recorded = held.run(lambda connection: record_articles(connection, articles, config, compute=compute), what)
    for position, outcome in zip(positions, recorded, strict=True):
        outcomes[position] = outcome
    return outcomes


def record_article(connection: psycopg.Connection, url: str, site_id: int, text_hash: str,
                   features: DocumentFeatures, config: NearDuplicateConfig,
                   layout: str = "table") -> NearDuplicateOutcome:
    """One article: a batch of one."""
    return record_articles(connection, [ArticleToRecord(url, site_id, text_hash, features)], config, layout)[0]


def record_articles(connection: psycopg.Connection, articles: Sequence[ArticleToRecord], config: NearDuplicateConfig,
                    layout: str = "table", compute: Compute = here) -> list[NearDuplicateOutcome]:
    """Decide each article against the index and the batch's earlier articles and record it: features, postings,
    the link to its cluster's canonical article. Idempotent per URL and text hash. A URL seen twice in the batch,
    and a stored article whose text changed (batch of more than one), go to a following transaction."""
    if layout not in LAYOUTS:
        raise ValueError(f"index layout must be one of {LAYOUTS}, not {layout!r}")
    outcomes: list[NearDuplicateOutcome | None] = [None] * len(articles)
    first: dict[str, int] = {}
    for position, article in enumerate(articles):
        first.setdefault(article.url, position)
    positions = sorted(first.values())
    decided = _record_batch(connection, [articles[p] for p in positions], config, layout, compute)
    for position, outcome in zip(positions, decided, strict=True):
        outcomes[position] = outcome
    for position, outcome in enumerate(outcomes):  # one at a time, in order: a batch of one leaves none out
        if outcome is None:
            outcomes[position] = _record_batch(connection, [articles[position]], config, layout, compute)[0]
    return outcomes  # type: ignore[return-value]


def _lookup_params(articles: Sequence[ArticleToRecord], config: NearDuplicateConfig, layout: str) -> dict:
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
    locks = np.fromiter(keys, dtype=np.int64, count=len(keys))
    locks.sort()  # the order Python sorts them in: every key is a signed 64-bit value
    return {  # arrays as literals (psycopg dumps a list element by element in Python: ~1,000 keywords a batch), the
        # ~3,000 lock keys and ~600 block keys as binary bigint[] (no text of 19 digits made and parsed per key)
        "lock_keys": BigintArrayBinary.of(locks),
        "urls": text_array_literal(a.url for a in articles),
        "body_hashes": text_array_literal(a.features.body_hash if a.features.token_count else None
                                          for a in articles),
        "simhashes": number_array_literal(None if a.features.simhash is None else to_signed(a.features.simhash)
                                          for a in articles),
        "min_shared": number_array_literal(max(1, min(config.min_shared_keywords, len(a.features.keywords)))
                                           for a in articles),
        "block_articles": number_array_literal(block_articles),
        "block_keys": BigintArrayBinary.of(np.array(blocks, dtype=np.int64)),
        "keyword_articles": number_array_literal(keyword_articles), "keywords": text_array_literal(keywords),
        "max_distance": config.simhash_distance, "per_keyword": MAX_POSTINGS_PER_KEYWORD,
        "limit": config.candidate_limit, "layout": layout, "overlap": config.overlap, "tau": config.tau,
    }


def _lookups(rows: list[dict], size: int) -> list[Lookup]:
    """Each batch article's stored row and candidates, from the batch lookup's rows (role "self": its own row)."""
    stored: dict[int, StoredArticle] = {}
    candidates: dict[int, list[Candidate]] = defaultdict(list)
    features: dict[int, DocumentFeatures] = {}  # a candidate's features come on its first row only
    for row in rows:
        position = row["article"] - 1
        if row["role"] == "self":
            stored[position] = StoredArticle(row["id"], row["source_hash"], row["canonical_url"],
                                             row["duplicate_method"], row["duplicate_score"])
        else:
            if row["has_features"]:
                features[row["id"]] = row_features(row)
            candidates[position].append(frozen_instance(Candidate, {  # Candidate(...) without its __init__
                "id": row["id"], "exact": row["exact"], "near": row["near"], "shared": row["shared"],
                "root": row["canonical_id"] or row["id"], "features": features[row["id"]]}))
    return [Lookup(stored.get(position), candidates[position]) for position in range(size)]


def _record_batch(connection: psycopg.Connection, batch: list[ArticleToRecord], config: NearDuplicateConfig,
                  layout: str, compute: Compute = here) -> list[NearDuplicateOutcome | None]:
    """One transaction; None for the articles left to a following one (see record_articles)."""
    use_binary_bigint_arrays(connection)
    with connection.pipeline(), connection.transaction():
        rows_cursor = connection.cursor(row_factory=dict_row, binary=True)
        rows_cursor.execute(query("near_duplicate.candidates_batch"), _lookup_params(batch, config, layout))
        ids_cursor = connection.execute(query("near_duplicate.allocate_ids"), {"count": len(batch)})
        rows = rows_cursor.fetchall()  # one round trip for both statements
        stored_rows = {row["article"] - 1: row for row in rows if row["role"] == "self"}
        new_ids = [i for (i,) in ids_cursor.fetchall()]

        matches = compute(_match, batch, rows, new_ids, config)
        plan = compute(link_batch, matches, _lock_roots(connection, matches.roots_to_lock(), config), config)
        inserts: list[NewArticleRow] = []  # the new articles: one statement for the batch
        for recorded in plan.rows:
            match = recorded.match
            if match.stored:
                _update_article(connection, recorded, stored_rows[match.position], config, layout)
            else:
                article = match.article
                inserts.append(NewArticleRow(match.article_id, article.url, article.site_id, article.text_hash,
                                             article.features, recorded.link))
        if inserts:
            insert_new_rows(connection, inserts, config, layout)
        for promotion in plan.promotions:  # after every row they may relink exists
            connection.execute(query("near_duplicate.link_duplicate"), {
                "id": promotion.old_canonical_id, "canonical_id": promotion.new_canonical_id,
                "method": promotion.method, "score": promotion.score, "matched_id": promotion.new_canonical_id})
            connection.execute(query("near_duplicate.relink_members"), {
                "old_canonical_id": promotion.old_canonical_id, "new_canonical_id": promotion.new_canonical_id})
    return plan.outcomes


def _match(batch: list[ArticleToRecord], rows: list[dict], new_ids: list[int], config: NearDuplicateConfig):
    return match_batch(batch, _lookups(rows, len(batch)), new_ids, config)


def _lock_roots(connection: psycopg.Connection, ids: list[int], config: NearDuplicateConfig) -> LockedRoots:
    """Row-lock the stored cluster roots the batch links to, with their features. A root that a concurrent
    writer linked to another cluster after the lookup is followed to that cluster's canonical article."""
    locked = LockedRoots()
    if not ids:
        return locked
    cursor = connection.cursor(row_factory=dict_row, binary=True)
    moved = []
    for row in cursor.execute(query("near_duplicate.lock_roots"), {"ids": ids}).fetchall():
        if row["canonical_id"] is None:
            locked.features[row["id"]], locked.url[row["id"]] = row_features(row), row["url"]
            locked.root_now[row["id"]] = row["id"]
        else:
            moved.append(row["id"])
    if moved:  # rare: a concurrent promotion or merge
        index = PostgresNearDuplicateIndex(connection, config.simhash_distance)
        for article_id in moved:
            root = cluster_root(connection, article_id)
            locked.features[root] = index.features([root])[root]
            locked.url[root], locked.root_now[article_id] = index.url_of[root], root
    return locked


def _update_article(connection: psycopg.Connection, recorded: Recorded, stored: dict, config: NearDuplicateConfig,
                    layout: str) -> None:
    """A stored article whose text changed: its old postings and block keys go, the new ones are written with
    the row."""
    article, link = recorded.match.article, recorded.link
    params = feature_params(article.features, config, layout)
    params.update(id=recorded.match.article_id, url=article.url, site_id=article.site_id, source_hash=article.text_hash,
                  canonical_id=link.canonical_id, method=link.method, score=link.score, matched_id=link.matched_id)
    connection.execute(query("near_duplicate.delete_postings"),
                       {"id": stored["id"], "keywords": list(stored["keywords"])})
    if stored["simhash"] is not None:
        old_keys = block_keys(to_unsigned(stored["simhash"]), config.simhash_distance)
        connection.execute(query("near_duplicate.delete_blocks"), {"id": stored["id"], "keys": old_keys})
    connection.execute(query("near_duplicate.update_features"), params)
    if stored["has_members"] and params["canonical_id"] is not None:  # its members follow it
        connection.execute(query("near_duplicate.relink_members"),
                           {"old_canonical_id": stored["id"], "new_canonical_id": params["canonical_id"]})
