"""The near-duplicate decisions of a batch of articles, pure: which stored or earlier article each one matches,
and then which cluster it joins, whether it replaces that cluster's canonical article, or whether it is unchanged.

The store (newscorpus.store.near_duplicate.records) reads the batch's candidates, calls :func:`match_batch`,
row-locks the stored cluster roots it names, calls :func:`link_batch` and applies the writes it returns. An
article is compared with the stored candidates and with the articles before it in the same batch, so a batch
decides as the same articles recorded one by one in batch order would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import PairJudgement, judge_pair, prefers_as_canonical
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.index import InMemoryNearDuplicateIndex, find_duplicates


@dataclass(frozen=True)
class ArticleToRecord:
    url: str
    site_id: int
    text_hash: str  # core.text.source_hash of the title and body: the same text again is "unchanged"
    features: DocumentFeatures


@dataclass(frozen=True)
class NearDuplicateOutcome:
    status: str                 # "canonical", "duplicate", or "unchanged" (same URL and text as stored)
    article_id: int
    canonical_url: str | None   # the cluster's canonical article (None: this one is canonical)
    method: str | None
    score: float | None
    promoted: bool = False      # this article replaced its cluster's canonical (the canonical rule)


@dataclass(frozen=True)
class Link:
    """An article's decision as stored with its row."""
    canonical_id: int | None = None  # None: the article is canonical
    method: str | None = None
    score: float | None = None
    matched_id: int | None = None


@dataclass(frozen=True)
class StoredArticle:
    """The row already stored under a batch article's URL."""
    id: int
    text_hash: str
    canonical_url: str | None
    method: str | None
    score: float | None


@dataclass(frozen=True)
class Candidate:
    """A stored article the lookup found for a batch article: through which keys, and its cluster's root as read."""
    id: int
    exact: bool          # same body hash
    near: bool           # simhash within the distance
    shared: int          # keywords shared (0: not a keyword candidate)
    root: int            # its cluster's canonical article when the lookup read it (itself when canonical)
    features: DocumentFeatures


@dataclass(frozen=True)
class Lookup:
    """What the store read for one batch article."""
    stored: StoredArticle | None = None
    candidates: Sequence[Candidate] = ()


class BatchCandidates:
    """`NearDuplicateIndex` answers for one article of a batch: its stored candidates (read-only) plus the articles of
    the batch decided before it (in memory)."""

    def __init__(self, candidates: Sequence[Candidate], earlier: InMemoryNearDuplicateIndex):
        self.earlier = earlier
        self._exact = sorted(c.id for c in candidates if c.exact)
        self._near = sorted(c.id for c in candidates if c.near)
        self._shared = [(c.id, c.shared) for c in candidates if c.shared]
        self._features = {c.id: c.features for c in candidates}

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


@dataclass(frozen=True)
class Match:
    """A batch article to record: its id (new, or its stored row's) and its best match (None: no duplicate)."""
    position: int
    article: ArticleToRecord
    article_id: int
    stored: bool         # it replaces its stored row (its text changed)
    best: PairJudgement | None


@dataclass
class BatchMatches:
    outcomes: list[NearDuplicateOutcome | None]   # "unchanged" so far; None: decided by link_batch, or deferred
    matches: list[Match]
    stored_root: dict[int, int]           # a stored candidate -> its cluster root, as the lookup read it
    deferred: list[int]                   # positions left to a following transaction (see match_batch)

    def roots_to_lock(self) -> list[int]:
        """The stored cluster roots the batch links to, sorted (one lock order for every writer)."""
        return sorted({self.stored_root[m.best.candidate_id] for m in self.matches
                       if m.best is not None and m.best.candidate_id in self.stored_root})


def match_batch(batch: Sequence[ArticleToRecord], lookups: Sequence[Lookup], new_ids: Sequence[int],
                config: NearDuplicateConfig) -> BatchMatches:
    """Each article's best match among its candidates and the batch's earlier articles. It does not depend on
    how earlier articles were linked, only on their features, so every match is known before any cluster root
    is locked. An article stored with the same text is unchanged; one stored with another text, in a batch of
    more than one, is deferred (its old features are in the index: it is decided again alone)."""
    result = BatchMatches([None] * len(batch), [], {}, [])
    earlier = InMemoryNearDuplicateIndex(config.simhash_distance)
    for position, (article, lookup) in enumerate(zip(batch, lookups, strict=True)):
        stored = lookup.stored
        if stored is not None and stored.text_hash == article.text_hash:
            result.outcomes[position] = NearDuplicateOutcome("unchanged", stored.id, stored.canonical_url,
                                                             stored.method, stored.score)
            continue
        if stored is not None and len(batch) > 1:
            result.deferred.append(position)
            continue
        result.stored_root.update((c.id, c.root) for c in lookup.candidates)
        article_id = stored.id if stored is not None else new_ids[position]
        best = find_duplicates(article.features, BatchCandidates(lookup.candidates, earlier), config).best
        result.matches.append(Match(position, article, article_id, stored is not None, best))
        earlier.add(article_id, article.features)
    return result


@dataclass
class LockedRoots:
    """The stored cluster roots after their row locks. A concurrent writer may have linked a root elsewhere since
    the lookup: root_now follows it to its cluster's canonical article now."""
    root_now: dict[int, int] = field(default_factory=dict)   # a root as the lookup read it -> canonical now
    features: dict[int, DocumentFeatures] = field(default_factory=dict)  # of each canonical article now
    url: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Promotion:
    """A batch article replaces a cluster's canonical article: the old one is linked to it, and its members."""
    old_canonical_id: int
    new_canonical_id: int
    method: str | None
    score: float


@dataclass(frozen=True)
class Recorded:
    """A match's row to write: inserted (new) or updated (stored, its text changed), with its link."""
    match: Match
    link: Link


@dataclass
class BatchPlan:
    outcomes: list[NearDuplicateOutcome | None]
    rows: list[Recorded] = field(default_factory=list)             # in batch order
    promotions: list[Promotion] = field(default_factory=list)      # applied after every row is written


def link_batch(matches: BatchMatches, locked: LockedRoots, config: NearDuplicateConfig) -> BatchPlan:
    """Each matched article joins its match's cluster, as that cluster is after the batch's earlier articles, or
    becomes the cluster's canonical article when it is a duplicate of the canonical and preferred by the canonical
    rule (core.near_duplicate.prefers_as_canonical). ``locked``: the stored roots of roots_to_lock()."""
    plan = BatchPlan(list(matches.outcomes))
    features_of = {m.article_id: m.article.features for m in matches.matches}
    url_of = {m.article_id: m.article.url for m in matches.matches}
    batch_root: dict[int, int] = {}   # a batch article's cluster root, as decided
    replaced_by: dict[int, int] = {}  # a canonical article -> the batch article promoted over it

    def current_root(article_id: int) -> int:
        while article_id in replaced_by:
            article_id = replaced_by[article_id]
        return article_id

    for match in matches.matches:
        article, article_id, best = match.article, match.article_id, match.best
        link = Link()
        outcome = NearDuplicateOutcome("canonical", article_id, None, None, None)
        root = None
        if best is not None:
            matched = best.candidate_id
            root = current_root(batch_root[matched] if matched in batch_root
                                else locked.root_now[matches.stored_root[matched]])
        if root is not None and root != article_id:
            features = features_of.get(root) or locked.features[root]
            against_root = judge_pair(article.features, root, features, config)
            if against_root.is_duplicate and prefers_as_canonical(article.features, features):
                replaced_by[root] = article_id
                plan.promotions.append(Promotion(root, article_id, against_root.method, against_root.score))
                outcome = NearDuplicateOutcome("canonical", article_id, None, None, None, promoted=True)
            else:
                link = Link(root, best.method, best.score, best.candidate_id)
                outcome = NearDuplicateOutcome("duplicate", article_id, url_of.get(root) or locked.url[root],
                                               best.method, best.score)
        batch_root[article_id] = link.canonical_id or article_id
        plan.outcomes[match.position] = outcome
        plan.rows.append(Recorded(match, link))
    return plan
