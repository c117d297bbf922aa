"""A site's published articles derived again from its stored pages (queries in store/sql/derivation.sql): the one
code path of the crawl's end, `newscorpus reextract` and `newscorpus clean`.

In one transaction per site, under the site's derivation lock:
1. extraction (``extract=True``): every stored page's latest content, in URL order, by one extractor starting from
   the site config's templates (newscorpus.core.derivation); each article row written only where it differs, the
   articles no page derives to any more removed, the pages' outcomes set;
2. line noise: the site's line statistics counted again from its articles in URL order, every article cleaned
   with the final statistics (a body left without text is kept unpublished, its page ``empty_after_cleaning``);
3. near-duplicates: every published article whose title or cleaned body changed is checked again, in URL order.

Readers see the site's corpus as it was until the transaction commits, then as derived. Nothing depends on the
order pages were crawled in, so the same pages give the same corpus, and a second run writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import groupby

import psycopg

from newscorpus.core.derivation import Derivation, StoredPage, extractor_version
from newscorpus.core.extraction import Extraction, in_languages
from newscorpus.core.line_noise import LineNoiseConfig, article_hashes, clean_body, is_text
from newscorpus.core.near_duplicate.batch import ArticleToRecord
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.decision import CANONICAL_GROWTH
from newscorpus.core.near_duplicate.features import build_features_batch
from newscorpus.core.site_aware.cascade import SiteAwareConfig
from newscorpus.core.site_aware.templates import SiteTemplate
from newscorpus.core.text import body_hash, source_hash, without_nul
from newscorpus.store.article_metadata import metadata_columns
from newscorpus.store.connection import connect
from newscorpus.store.line_noise import count_params, site_statistics
from newscorpus.store.near_duplicate.records import record_articles
from newscorpus.store.sql import query

logger = logging.getLogger(__name__)

FETCH_ROWS = 100         # raw pages held in memory at once
NEAR_DUPLICATE_BATCH = 64  # as the crawl's stage (NearDuplicateConfig.batch_size)
# Outcomes the spider gives a page before extraction (newscorpus.crawler.spiders.site): never derived.
NOT_EXTRACTED = ("sitemap", "feed", "not_html", "http_error", "too_large", "fetch_error",
                 # the outcomes the warc spider gives a record before extraction (newscorpus/crawler/spiders/warc.py)
                 "redirect", "http_status", "warc_revisit", "skipped_url")


@dataclass(frozen=True)
class DerivationSettings:
    """What a site is derived with: the crawl's stage configs (None: the stage is off)."""

    site_aware: SiteAwareConfig | None = field(default_factory=SiteAwareConfig)
    templates: tuple[SiteTemplate, ...] = ()   # the site config's hand-written templates
    line_noise: LineNoiseConfig | None = field(default_factory=LineNoiseConfig)
    near_duplicate: NearDuplicateConfig | None = field(default_factory=NearDuplicateConfig)
    max_seconds: float = 5.0
    # Only articles in these are kept (core.extraction.in_languages), empty: any; recorded on the site's row.
    # None: the languages the site was last derived with (`reextract`, which has no crawl settings).
    languages: tuple[str, ...] | None = None


@dataclass
class _Article:
    """A derived article as newscorpus.store.article_metadata reads it (store.page_record's article part)."""

    title: str | None
    author: str | None
    authors: tuple
    published_at: str | None
    modified_at: str | None
    site_name: str | None


def _article_row(site_id: int, page: StoredPage, result: Extraction, model_version: str, version: str) -> dict:
    body = without_nul(result.body) or ""
    metadata = metadata_columns(_Article(without_nul(result.title), without_nul(result.author),
                                         tuple(result.authors or ()), result.published_at, result.modified_at,
                                         result.site_name))
    return {
        "site_id": site_id, "url": page.final_url, "page_id": page.page_id,
        "title": without_nul(result.title), "author": without_nul(result.author), **metadata,
        "body": body, "language": result.language, "body_hash": body_hash(body), "encoding": result.encoding,
        "extraction_method": result.method, "confidence": result.confidence, "seen_at": page.fetched_at,
        "extractor_version": version, "site_model_version": model_version,
    }


def _stored_pages(dsn: str, site_id: int) -> Iterator[StoredPage]:
    with connect(dsn) as connection, connection.cursor(name="pages_to_derive") as cursor:
        cursor.itersize = FETCH_ROWS
        cursor.execute(query("derivation.site_pages"), {"site_id": site_id, "not_extracted": list(NOT_EXTRACTED)})
        for page_id, url, final_url, content_type, content_hash, raw_body, fetched_at in cursor:
            yield StoredPage(page_id, url, final_url, content_type, content_hash, zlib.decompress(raw_body),
                             fetched_at)


def derive_site(dsn: str, site: str, settings: DerivationSettings = DerivationSettings(), *,
                extract: bool = True, progress: Callable[[Counter], None] | None = None) -> Counter:
    """Derive one site's articles (module docstring); ``extract=False`` keeps the stored extraction and runs
    the line-noise and near-duplicate steps only (`newscorpus clean`). Returns what it did and changed."""
    totals: Counter = Counter()
    with connect(dsn) as connection:
        row = connection.execute(query("line_noise.site_by_name"), {"site": site}).fetchone()
        if row is None:
            return totals
        site_id = row[0]
        with connection.transaction():
            connection.execute(query("derivation.lock_site"), {"site_id": site_id})
            if extract:
                _extract(connection, dsn, site_id, settings, totals, progress)
            _clean(connection, site_id, settings.line_noise, totals)
            # an article's page says whether its body was left with text (as the crawl's line-noise stage does)
            totals["pages_changed"] += len(connection.execute(query("derivation.set_article_page_outcomes"),
                                                              {"site_id": site_id}).fetchall())
            if settings.near_duplicate is not None:
                _recheck_near_duplicates(connection, site_id, settings.near_duplicate, totals)
                totals["canonicals_moved"] += settle_canonicals(connection, site_id)
    totals["changed"] = (totals["articles_written"] + totals["articles_removed"] + totals["cleaned_changed"]
                         + totals["pages_changed"] + totals["canonicals_moved"])
    if progress:
        progress(totals)
    return totals


def _extract(connection: psycopg.Connection, dsn: str, site_id: int, settings: DerivationSettings,
             totals: Counter, progress: Callable[[Counter], None] | None) -> None:
    derivation = Derivation(settings.site_aware, settings.templates, settings.max_seconds)
    version = extractor_version()
    languages = settings.languages
    if languages is None:
        languages = tuple(connection.execute(query("derivation.site_languages"), {"site_id": site_id}).fetchone()[0])
    else:
        connection.execute(query("derivation.set_site_languages"), {"site_id": site_id, "languages": list(languages)})
    derived: list[tuple[StoredPage, Extraction]] = []
    urls: dict[str, int] = {}  # article URL -> position in `derived` (redirects: the last page in URL order wins)
    for page, result in derivation.extract_all(_stored_pages(dsn, site_id)):
        result = in_languages(result, languages)
        totals["pages"] += 1
        if result.is_article:
            urls[page.final_url] = len(derived)
        derived.append((replace(page, raw_body=b""), result))  # the raw bytes are not kept past extraction
        if progress and totals["pages"] % FETCH_ROWS == 0:
            progress(totals)
    model_version = derivation.model_version()
    winners = set(urls.values())
    outcomes, articles, kinds = [], [], []
    for position, (page, result) in enumerate(derived):
        if position not in winners:  # not an article, or a second URL redirected to the same article
            outcomes.append({"page_id": page.page_id, "outcome": result.outcome,
                             "encoding": without_nul(result.encoding)})
            continue
        row = _article_row(site_id, page, result, model_version, version)
        articles.append(row)
        if result.line_kinds is not None:
            kinds.append({"url": row["url"], "body_hash": row["body_hash"], "kinds": result.line_kinds})
        totals[f"method/{result.method}"] += 1
    totals["articles"] += len(articles)
    with connection.cursor() as cursor:
        totals["pages_changed"] += _written(cursor, query("derivation.set_page_outcome"), outcomes)
        totals["articles_written"] += _written(cursor, query("derivation.upsert_article"), articles)
        if kinds:
            cursor.executemany(query("derivation.set_line_kinds"), kinds)
        stale = [url for _id, url in cursor.execute(query("derivation.stale_articles"),
                                                     {"site_id": site_id, "urls": sorted(urls)}).fetchall()]
        if stale:
            cursor.execute(query("derivation.unlink_members"), {"urls": stale})
            cursor.execute(query("derivation.delete_articles"), {"urls": stale})
            totals["articles_removed"] += len(stale)


def _written_ids(cursor: psycopg.Cursor, statement: str, rows: list[dict]) -> list:
    """Run ``statement`` (one RETURNING id, or nothing when it writes nothing) for each row in one batch; the ids
    written."""
    if not rows:
        return []
    cursor.executemany(statement, rows, returning=True)
    ids = []
    while True:
        row = cursor.fetchone()
        if row is not None:
            ids.append(row[0])
        if not cursor.nextset():
            return ids


def _written(cursor: psycopg.Cursor, statement: str, rows: list[dict]) -> int:
    return len(_written_ids(cursor, statement, rows))


def line_stats_version(articles_seen: int, counts: dict, allowed: Iterable, config: LineNoiseConfig) -> str:
    """A digest of the statistics an article was cleaned with: RC, the lines that can be noise with their LC,
    the allow-list and the filter's parameters."""
    state = [articles_seen, sorted((str(digest), count) for digest, count in counts.items()),
             sorted(str(digest) for digest in allowed), repr(config)]
    return hashlib.sha256(json.dumps(state).encode()).hexdigest()[:16]


def _clean(connection: psycopg.Connection, site_id: int, config: LineNoiseConfig | None, totals: Counter) -> None:
    """Count the site's lines again in URL order and clean every article with the final statistics."""
    if config is None:
        return
    articles = connection.execute(query("derivation.site_articles"), {"site_id": site_id}).fetchall()
    connection.execute(query("derivation.reset_line_statistics"), {"site_id": site_id})
    with connection.cursor() as cursor:
        # in URL order, one statement each (the order pruning sees), sent together
        cursor.executemany(query("line_noise.count_article"), [
            count_params(site_id, url, digest, *article_hashes(body), config, kinds)
            for _id, url, _title, body, digest, _language, kinds in articles])
    articles_seen, counts, allowed = site_statistics(connection, site_id, config)
    version = line_stats_version(articles_seen, counts, allowed, config)
    updates = []
    for article_id, _url, _title, body, _digest, _language, kinds in articles:
        cleaning = clean_body(body, counts, articles_seen, config, allowed, kinds=kinds)
        text = cleaning.body if is_text(cleaning.body) else ""
        totals["cleaned"] += 1
        totals["lines_removed"] += len(cleaning.removed)
        totals["empty_after_cleaning"] += not text
        updates.append({"id": article_id, "clean_body": text, "noise_lines": len(cleaning.removed),
                        "noise_hashes": cleaning.noise_hashes, "articles_seen": articles_seen,
                        "line_stats_version": version})
    with connection.cursor() as cursor:
        totals["cleaned_changed"] += _written(cursor, query("derivation.set_clean_body"), updates)


def _recheck_near_duplicates(connection: psycopg.Connection, site_id: int, config: NearDuplicateConfig,
                             totals: Counter) -> None:
    """Check again, in URL order, the published articles whose checked text is not their text now."""
    unpublished = [url for (url,) in connection.execute(query("derivation.unpublished_with_features"),
                                                         {"site_id": site_id}).fetchall()]
    if unpublished:  # left without text: out of the index, as the crawl never indexes such a page
        connection.execute(query("derivation.unlink_members"), {"urls": unpublished})
        connection.execute(query("derivation.delete_features"), {"urls": unpublished})
        totals["near_duplicates_removed"] += len(unpublished)
    checked = dict(connection.execute(query("derivation.near_duplicate_sources"), {"site_id": site_id}).fetchall())
    rows = connection.execute(query("derivation.published_articles"), {"site_id": site_id}).fetchall()
    todo = [(url, title or "", body, language, text_hash) for url, title, body, language in rows
            if checked.get(url) != (text_hash := source_hash(title or "", body))]
    for start in range(0, len(todo), NEAR_DUPLICATE_BATCH):
        batch = todo[start:start + NEAR_DUPLICATE_BATCH]
        features = build_features_batch([(title, body, site_id, language) for _, title, body, language, _ in batch],
                                        config)
        articles = [ArticleToRecord(url, site_id, text_hash, feature)
                    for (url, _, _, _, text_hash), feature in zip(batch, features, strict=True)
                    if feature.token_count >= config.min_simhash_tokens]
        if articles:
            record_articles(connection, articles, config)
        totals["near_duplicates_rechecked"] += len(articles)


def canonical_key(token_count: int, longest: int, published_at, url: str) -> tuple:
    """The canonical rule without arrival order: of a story's articles, the first published (then the smallest
    URL) among those not shorter than the longest by more than CANONICAL_GROWTH (a truncated or abridged copy
    gives way to the full text, as core.near_duplicate.decision.prefers_as_canonical has it). The crawl links
    reprints as they arrive; this settles each cluster the same whatever the order was."""
    truncated = token_count * (1 + CANONICAL_GROWTH) < longest
    return truncated, published_at is None, published_at or datetime.min.replace(tzinfo=UTC), url


def settle_canonicals(connection: psycopg.Connection, site_id: int) -> int:
    """Give each near-duplicate cluster holding an article of the site its canonical by :func:`canonical_key`;
    returns the clusters whose canonical moved."""
    rows = connection.execute(query("derivation.clusters_of_site"), {"site_id": site_id}).fetchall()
    moved = 0
    for root, members in groupby(rows, key=lambda row: row[0]):
        members = list(members)
        if len(members) < 2:
            continue
        longest = max(row[3] for row in members)
        winner = min(members, key=lambda row: canonical_key(row[3], longest, row[4], row[2]))
        if winner[1] == root:
            continue
        _root, winner_id, _url, _tokens, _published, method, score, matched_id = winner
        connection.execute(query("derivation.make_canonical"), {"id": winner_id})
        for row in members:
            if row[1] == winner_id:
                continue
            # the former canonical takes the link that joined the winner to the story; the others keep theirs
            link = (method, score, matched_id) if row[1] == root else (row[5], row[6], row[7])
            connection.execute(query("derivation.link_to_canonical"), {
                "id": row[1], "canonical_id": winner_id, "method": link[0], "score": link[1], "matched_id": link[2]})
        moved += 1
    return moved


def has_provisional_articles(dsn: str, site: str) -> bool:
    """Some article of ``site`` is the crawl's own extraction, not derived yet."""
    with connect(dsn) as connection:
        return connection.execute(query("derivation.provisional_article"), {"site": site}).fetchone() is not None


def published_articles(dsn: str, site: str | None = None) -> Iterator[dict]:
    """What the corpus digest covers, one dict per stored article with a published body (of ``site``, or of all),
    in URL order: url, title, authors, published (instant), published_date, utc_offset, language, body (as
    published), duplicate_of (the URL of the canonical article it duplicates, or None)."""
    with connect(dsn) as connection, connection.cursor(name="published_articles") as cursor:
        cursor.itersize = 500
        cursor.execute(query("derivation.published_digest_rows"), {"site": site})
        for url, title, authors, published_at, day, offset, language, body, duplicate_of in cursor:
            yield {"url": url, "title": title, "authors": list(authors or []), "published": _iso(published_at),
                   "published_date": _iso(day), "utc_offset": str(offset) if offset is not None else None,
                   "language": language, "body": body, "duplicate_of": duplicate_of}


def corpus_digest(dsn: str, site: str | None = None) -> tuple[str, int]:
    """(sha256, articles) over :func:`published_articles` (docs/database.md): equal digests, the same corpus."""
    digest = hashlib.sha256()
    count = 0
    for record in published_articles(dsn, site):
        digest.update(json.dumps(list(record.values()), ensure_ascii=False).encode())
        digest.update(b"\n")
        count += 1
    return digest.hexdigest(), count


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None
