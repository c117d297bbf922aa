"""The near-duplicate index in Postgres: the core's `NearDuplicateIndex` protocol over the near_duplicate_* tables
(migrations/0003), the keys and rows shared with the stage's batched recording
(newscorpus.store.near_duplicate.records), the resolution pass and clusters.

Synchronous psycopg on purpose: the core's protocol is synchronous, so the stage runs the recording in a
thread, which keeps the reactor free while the lookup and the write run.

Concurrency: the recording takes transaction-scoped advisory locks on every key through which another
article could find this one or be found by it (the URL, the exact body hash, the simhash pigeonhole keys, every
keyword), sorted, before it looks up candidates. Two articles that the decision could call duplicates share
at least one key (a duplicate is always found through one of them; two fingerprints within the Hamming bound
share a pigeonhole key, tested for every distance the setting allows), so their transactions run one after the
other and the second sees the first: a story cannot get two canonicals from two writers racing. Cluster
roots are row-locked (FOR UPDATE) before being linked to or replaced, so a promotion and a link to the same
cluster do not interleave either. `resolve_duplicates` is the safety net (e.g. clusters bridged later).
"""

from __future__ import annotations

import hashlib
import struct
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain

import numpy as np
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format

from newscorpus.core.frozen_instance import frozen_instance
from newscorpus.core.near_duplicate.batch import Link
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import prefers_as_canonical
from newscorpus.core.near_duplicate.features import DocumentFeatures
from newscorpus.core.near_duplicate.index import MAX_POSTINGS_PER_KEYWORD, find_duplicates
from newscorpus.core.near_duplicate.shingle_sketch import ShingleSketch
from newscorpus.core.near_duplicate.simhash import block_keys, hamming_distance, to_signed, to_unsigned
from newscorpus.store.array_literals import number_array_literal, text_array_literal
from newscorpus.store.connection import connect
from newscorpus.store.sql import query

LAYOUTS = ("table", "gin")  # keyword postings: a (keyword, article) btree table, or a GIN index on keywords
_LOCK_NAMESPACE = b"newscorpus/near-duplicates/"


def _lock_key(kind: str, value: object) -> int:
    digest = hashlib.blake2b(_LOCK_NAMESPACE + f"{kind}:{value}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


# Lock keys of keywords and block keys remembered (a crawl's keywords repeat: ~800 distinct in a batch of 64 of the
# dedup set's ~1,000, and each article's block keys are asked again on the way), emptied when this many are held
# (~6 MB each): a blake2b and an f-string per key are a measurable share of the stage's client CPU
# (benchmarks/near_duplicate_throughput.py --postgres). The URL and body hash are new with each article: not
# remembered.
LOCK_KEY_MEMO_SIZE = 1 << 16


class _LockKeyMemo(dict):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, value: object) -> int:
        if len(self) >= LOCK_KEY_MEMO_SIZE:
            self.clear()
        key = self[value] = _lock_key(self.kind, value)
        return key


_KEYWORD_LOCK_KEYS, _BLOCK_LOCK_KEYS = _LockKeyMemo("keyword"), _LockKeyMemo("block")


def lock_keys(url: str, features: DocumentFeatures, config: NearDuplicateConfig) -> list[int]:
    """Advisory-lock keys of an article, sorted (one global order: no deadlock between writers)."""
    keys = {_lock_key("url", url)}
    if features.token_count:
        keys.add(_lock_key("exact", features.body_hash))
    if features.simhash is not None:
        keys.update(map(_BLOCK_LOCK_KEYS.__getitem__, block_keys(features.simhash, config.simhash_distance)))
    keys.update(map(_KEYWORD_LOCK_KEYS.__getitem__, features.keywords))
    return sorted(keys)


# Candidate sketches read again by later batches: the same value gives the same sketch object, whose sorted array
# (ShingleSketch.hash_array) is then built once, not once per batch. A site's recent articles are the
# usual candidates; 1,024 sketches (~19 KB each as a tuple of ints and its array, tracemalloc: ~20 MB) hold a
# 300-article demo crawl's whole working set.
SKETCH_CACHE_SIZE = 1024
_sketches: OrderedDict[tuple, ShingleSketch] = OrderedDict()
_sketches_lock = threading.Lock()
# A sketch column is read as `array_send(sketch)` (the queries of store/sql/near_duplicate.sql that feed
# row_features): Postgres's binary array format, one bytes object per row, where a bigint[] column became a list of
# 256 Python ints per candidate row (the batch lookup returns up to 64 x 30 rows: tens of MB of a demo crawl's
# traced peak), to be copied into a tuple to look the cache up.
_ARRAY_HEADER = np.dtype([("ndim", ">i4"), ("flags", ">i4"), ("element_type", ">u4")])
_ARRAY_ELEMENT = np.dtype([("length", ">i4"), ("value", ">i8")])
_BIGINT_OID = 20
_HEADER_FIELDS = struct.Struct(">iiI")  # _ARRAY_HEADER's fields


class BigintArrayBinary(bytes):
    """A bigint[] in Postgres's binary array format (`array_send`'s), sent as a binary parameter (`%(name)b`)."""

    @classmethod
    def of(cls, values: np.ndarray) -> BigintArrayBinary:
        """One dimension, lower bound 1, no NULL: the header, then each value's length (8) and big-endian value."""
        if not len(values):
            return cls(np.array([(0, 0, _BIGINT_OID)], dtype=_ARRAY_HEADER).tobytes())
        header = np.array([(1, 0, _BIGINT_OID)], dtype=_ARRAY_HEADER).tobytes()
        elements = np.empty(len(values), dtype=_ARRAY_ELEMENT)
        elements["length"] = 8
        elements["value"] = values
        return cls(header + struct.pack(">ii", len(values), 1) + elements.tobytes())


class _BigintArrayBinaryDumper(Dumper):
    format = Format.BINARY
    oid = 0  # the statement casts it (::bigint[]); no oid: psycopg's own int8[] dumpers stay as they are

    def dump(self, obj: BigintArrayBinary) -> bytes:
        return obj


def use_binary_bigint_arrays(connection: psycopg.Connection) -> None:
    """Let `connection` send BigintArrayBinary values (idempotent)."""
    connection.adapters.register_dumper(BigintArrayBinary, _BigintArrayBinaryDumper)


def sketch_hashes(data: bytes) -> np.ndarray:
    """The values of a bigint[] sent in Postgres's binary array format (`array_send`), as int64, in order."""
    ndim, _, element_type = _HEADER_FIELDS.unpack_from(data)  # struct: a numpy record's fields cost more a row
    if ndim == 0:
        return np.zeros(0, dtype=np.int64)
    if ndim != 1 or element_type != _BIGINT_OID:
        raise ValueError(f"a sketch is a one-dimensional bigint[], not ndim {ndim} of type {element_type}")
    count = int.from_bytes(data[12:16], "big", signed=True)
    elements = np.frombuffer(data, dtype=_ARRAY_ELEMENT, count=count, offset=20)
    if (elements["length"] != 8).any():  # the method: np.any's wrapper costs more a row
        raise ValueError("a sketch holds a NULL")
    return elements["value"].astype(np.int64)


def cached_sketch(data: bytes, shingle_count: int, token_count: int) -> ShingleSketch:
    """The sketch of a row (its hashes as `array_send` gives them), one object per value while cached."""
    key = (bytes(data), shingle_count, token_count)
    with _sketches_lock:
        sketch = _sketches.get(key)
        if sketch is not None:
            _sketches.move_to_end(key)
            return sketch
    sketch = ShingleSketch.of_array(sketch_hashes(key[0]), shingle_count, token_count)
    with _sketches_lock:
        sketch = _sketches.setdefault(key, sketch)
        _sketches.move_to_end(key)
        if len(_sketches) > SKETCH_CACHE_SIZE:
            _sketches.popitem(last=False)
        return sketch


def row_features(row: dict) -> DocumentFeatures:
    return frozen_instance(DocumentFeatures, {  # DocumentFeatures(...) without its __init__: ~30 rows an article
        "lang": row["language"],
        "keywords": frozenset(row["keywords"]),
        "title_keywords": tuple(row["title_keywords"]),
        "simhash": None if row["simhash"] is None else to_unsigned(row["simhash"]),
        "sketch": cached_sketch(row["sketch"], row["shingle_count"], row["token_count"]),
        "body_hash": row["body_hash"],
        "token_count": row["token_count"],
        # sites.id starts at 1: 0 (PostgresNearDuplicateIndex.add's default) = unknown
        "site": row.get("site_id") or None,
        "title_numbers": tuple(row.get("title_numbers") or ()),
    })


def feature_params(features: DocumentFeatures, config: NearDuplicateConfig, layout: str) -> dict:
    """update_features' parameters of an article's features (the row's other columns are added by the caller)."""
    keywords = sorted(features.keywords)
    blocks = [] if features.simhash is None else block_keys(features.simhash, config.simhash_distance)
    return {
        "language": features.lang,
        "body_hash": features.body_hash,
        "simhash": None if features.simhash is None else to_signed(features.simhash),
        "token_count": features.token_count,
        "shingle_count": features.sketch.shingle_count,
        "sketch": number_array_literal(features.sketch.hashes),
        "keywords": keywords,
        "title_keywords": list(features.title_keywords),
        "title_numbers": list(features.title_numbers),
        "postings": layout == "table",  # the row's keywords also go to the posting table
        "block_keys": blocks,
    }


@dataclass(frozen=True)
class NewArticleRow:
    """A new article's near_duplicate_features row, its id taken from allocate_ids."""
    id: int
    url: str
    site_id: int
    text_hash: str
    features: DocumentFeatures
    link: Link = field(default_factory=Link)


def new_rows_params(rows: Sequence[NewArticleRow], config: NearDuplicateConfig, layout: str) -> dict:
    """insert_features_batch's parameters: the rows, their postings and block keys, in order."""
    features = [row.features for row in rows]
    return {
        **_row_columns(rows),
        **_feature_columns(features),
        **_sketch_columns(features),
        **_keyword_columns(features),
        **_link_columns([row.link for row in rows]),
        "postings": layout == "table",  # the rows' keywords also go to the posting table
        **_block_columns(rows, config),
    }


def _row_columns(rows: Sequence[NewArticleRow]) -> dict:
    return {
        "ids": number_array_literal(row.id for row in rows),
        "urls": text_array_literal(row.url for row in rows),
        "site_ids": number_array_literal(row.site_id for row in rows),
        "source_hashes": text_array_literal(row.text_hash for row in rows),
    }


def _feature_columns(features: list[DocumentFeatures]) -> dict:
    return {
        "languages": text_array_literal(f.lang for f in features),
        "body_hashes": text_array_literal(f.body_hash for f in features),
        "simhashes": number_array_literal(None if f.simhash is None else to_signed(f.simhash) for f in features),
        "token_counts": number_array_literal(f.token_count for f in features),
        "shingle_counts": number_array_literal(f.sketch.shingle_count for f in features),
    }


def _sketch_columns(features: list[DocumentFeatures]) -> dict:
    """Every sketch's hashes in one binary bigint[], and where each row's end: as text literals, the ~16,000
    hashes of a batch of 64 cost the client about twice the CPU (benchmarks/near_duplicate_throughput.py)."""
    return {
        "sketch_hashes": BigintArrayBinary.of(np.fromiter(chain.from_iterable(f.sketch.hashes for f in features),
                                                          dtype=np.int64)),
        "sketch_ends": number_array_literal(accumulate(len(f.sketch.hashes) for f in features)),
        "sketch_lengths": number_array_literal(len(f.sketch.hashes) for f in features),
    }


def _keyword_columns(features: list[DocumentFeatures]) -> dict:
    return {
        "keywords": text_array_literal(text_array_literal(sorted(f.keywords)) for f in features),
        "title_keywords": text_array_literal(text_array_literal(f.title_keywords) for f in features),
        "title_numbers": text_array_literal(text_array_literal(f.title_numbers) for f in features),
    }


def _link_columns(links: list[Link]) -> dict:
    return {
        "canonical_ids": number_array_literal(link.canonical_id for link in links),
        "methods": text_array_literal(link.method for link in links),
        "scores": number_array_literal(link.score for link in links),
        "matched_ids": number_array_literal(link.matched_id for link in links),
    }


def _block_columns(rows: Sequence[NewArticleRow], config: NearDuplicateConfig) -> dict:
    """The simhash block keys of every row with a fingerprint, and the row each belongs to."""
    blocks, block_articles = [], []
    for row in rows:
        if row.features.simhash is not None:
            keys = block_keys(row.features.simhash, config.simhash_distance)
            blocks.extend(keys)
            block_articles.extend([row.id] * len(keys))
    return {"block_keys": number_array_literal(blocks), "block_articles": number_array_literal(block_articles)}


def insert_new_rows(connection: psycopg.Connection, rows: Sequence[NewArticleRow], config: NearDuplicateConfig,
                    layout: str) -> None:
    """insert_features_batch: the rows, their postings and block keys in one statement."""
    use_binary_bigint_arrays(connection)
    connection.execute(query("near_duplicate.insert_features_batch"), new_rows_params(rows, config, layout))


class PostgresNearDuplicateIndex:
    """`NearDuplicateIndex` over Postgres; doc ids are near_duplicate_features.id (larger = added later).

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
        return self.connection.execute(query(f"near_duplicate.{name}"), params, binary=True).fetchall()

    def add(self, doc_id: str, features: DocumentFeatures, *, site_id: int = 0, text_hash: str = "") -> int:
        """Index an article as canonical under its URL (`doc_id`); returns its id."""
        article_id = self._rows("allocate_ids", {"count": 1})[0][0]
        row = NewArticleRow(article_id, doc_id, site_id, text_hash, features)
        config = NearDuplicateConfig(simhash_distance=self.simhash_distance)
        insert_new_rows(self.connection, [row], config, self.layout)
        return article_id

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
            for row in cursor.execute(query("near_duplicate.features"), {"ids": missing}):
                self._fetched[row["id"]] = row_features(row)
                self.canonical_of[row["id"]] = row["canonical_id"]
                self.url_of[row["id"]] = row["url"]
        return {i: self._fetched[i] for i in doc_ids if i in self._fetched}


def cluster_root(connection: psycopg.Connection, article_id: int) -> int:
    """The canonical article of `article_id`'s cluster, row-locked; follows links moved by concurrent writers."""
    for _ in range(16):
        row = connection.execute(query("near_duplicate.lock_canonical"), {"id": article_id}).fetchone()
        if row is None or row[1] is None:
            return article_id
        article_id = row[1]
    raise RuntimeError(f"near-duplicate links do not end at a canonical article (from id {article_id})")


def _merge(connection: psycopg.Connection, index: PostgresNearDuplicateIndex, article_id: int,
           features: DocumentFeatures, config: NearDuplicateConfig) -> int:
    """Resolution of one canonical article: when it is a duplicate of another cluster's canonical, the two
    clusters become one (the earlier canonical stays unless this one wins by the canonical rule)."""
    decision = find_duplicates(features, index, config)
    rank = {"exact": 0, "simhash": 1, "keywords": 2}
    for judgement in sorted(decision.duplicates, key=lambda j: (rank[j.method], -j.score)):
        other = cluster_root(connection, index.canonical_of.get(judgement.candidate_id) or judgement.candidate_id)
        if other == article_id:
            continue
        cluster_root(connection, article_id)
        found = {article_id: features, other: index.features([other])[other]}
        earlier, later = sorted(found)
        keep, lose = (later, earlier) if prefers_as_canonical(found[later], found[earlier]) else (earlier, later)
        connection.execute(query("near_duplicate.link_duplicate"), {
            "id": lose, "canonical_id": keep, "method": judgement.method, "score": judgement.score,
            "matched_id": judgement.candidate_id if lose == article_id else article_id})
        connection.execute(query("near_duplicate.relink_members"), {"old_canonical_id": lose, "new_canonical_id": keep})
        return 1
    return 0


def resolve_duplicates(dsn: str, sites: list[str] | None = None, config: NearDuplicateConfig | None = None,
                       layout: str = "table", batch_size: int = 500) -> dict:
    """Maintenance pass: every canonical article not yet checked is compared with the index again; two
    clusters of one story (a link missed, a story bridged by a later reprint) are merged. Safe to re-run."""
    config = config or NearDuplicateConfig()
    totals = {"checked": 0, "merged": 0}
    with connect(dsn, autocommit=True) as connection:
        while True:
            ids = [i for (i,) in connection.execute(query("near_duplicate.unresolved_canonicals"),
                                                    {"sites": sites or None, "limit": batch_size})]
            if not ids:
                return totals
            for article_id in ids:
                with connection.transaction():
                    index = PostgresNearDuplicateIndex(connection, config.simhash_distance, layout, exclude=article_id)
                    features = index.features([article_id]).get(article_id)
                    if features is not None and index.canonical_of[article_id] is None:
                        connection.execute(query("near_duplicate.lock_keys"), {
                            "keys": lock_keys(index.url_of[article_id], features, config)})
                        totals["merged"] += _merge(connection, index, article_id, features, config)
                    connection.execute(query("near_duplicate.mark_resolved"), {"ids": [article_id]})
                totals["checked"] += 1


def resolve_duplicates_step(dsn: str, sites: list[str]) -> dict:
    """`newscorpus.builds.maintenance` step: resolution of the build's sites."""
    return resolve_duplicates(dsn, sites)


def list_clusters(dsn: str, site: str | None = None, limit: int = 20) -> list[dict]:
    """Clusters with at least one duplicate, largest first: canonical id, url, title, site and members."""
    with connect(dsn) as connection:
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row)
        return cursor.execute(query("near_duplicate.clusters"), {"site": site, "limit": limit}).fetchall()


def canonical_counts(dsn: str) -> dict:
    with connect(dsn) as connection:
        cursor = connection.cursor(row_factory=psycopg.rows.dict_row)
        return dict(cursor.execute(query("near_duplicate.canonical_counts")).fetchone())
