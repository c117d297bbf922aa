"""Scores of what a crawl stored for one real site against the site's references (benchmarks/real_site.py).

Pure: the benchmark reads the database and hands over plain rows. Per reference page (matched by URL path):
title exact, author and date where the reference states them, body bag-of-tokens F1 of the extracted body
(articles) and of the published one (corpus_articles: line-noise cleaned, near-duplicates left out), the
same F1 of an anchor tool on the same raw bytes; the near-duplicate links; the reference lines that line noise
removed; bodies that are not text (punctuation only) and titles that are the site's name.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

from newscorpus.core.line_noise import is_text
from newscorpus.evaluation.extraction_scoring import bag_of_tokens
from newscorpus.evaluation.line_noise_eval import content_lines_removed

# A stored title shared by at least this many articles whose references have different titles is the
# site's own text (its name, a section label): "a site name as a title".
SITE_TITLE_MIN_ARTICLES = 3
# Two linked articles whose reference bodies score under this F1 against each other tell different stories.
SAME_STORY_F1 = 0.8
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Reference:
    path: str
    title: str | None
    author: str | None
    date: str | None  # YYYY-MM-DD
    body: str


@dataclass
class Stored:
    """One reference page as the crawl left it (None fields: not stored)."""

    fetched: bool = False           # a pages row with the page's bytes
    outcome: str | None = None      # the page's outcome (article, no_body, ...)
    raw: bytes | None = None        # the page bytes (for the anchor)
    title: str | None = None
    author: str | None = None
    published_at: datetime | None = None
    body: str | None = None         # articles.body (extracted)
    clean_body: str | None = None   # articles.clean_body (line noise), None = not cleaned
    published: str | None = None    # corpus_articles.body (None: not in the corpus)
    canonical_path: str | None = None  # the canonical article's path when linked as a near-duplicate
    method: str | None = None       # extraction method
    duplicate_method: str | None = None
    duplicate_score: float | None = None
    copies: int = 1                 # articles stored for this page (URLs that differ only in their query)


def url_path(url: str) -> str:
    """The page's path as references name it: unquoted, no query, a trailing index.html dropped."""
    path = unquote(urlsplit(url).path) or "/"
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def load_references(path: Path) -> dict[str, Reference]:
    references: dict[str, Reference] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = url_path(row["path"])
                references[key] = Reference(key, row.get("title"), row.get("author"), row.get("date"),
                                            row.get("body") or "")
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a reference line ({error})") from None
    return references


def same_text(a: str | None, b: str | None) -> bool:
    """Equal after NFKC, case folding and whitespace collapsing."""
    if a is None or b is None:
        return False
    fold = lambda text: _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()  # noqa: E731
    return fold(a) == fold(b)


def date_matches(published: datetime | None, stated: str) -> bool:
    """The instant is on the stated calendar day in some time zone (UTC-12 .. UTC+14): a stored
    timestamptz has lost the page's offset."""
    if published is None:
        return False
    day = date.fromisoformat(stated[:10])
    start = datetime(day.year, day.month, day.day, tzinfo=UTC) - timedelta(hours=14)
    end = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1, hours=12)
    moment = published if published.tzinfo else published.replace(tzinfo=UTC)
    return start <= moment < end


def removed_lines(body: str, clean_body: str | None) -> list[str]:
    """The lines line noise removed (body minus cleaned body, as multisets, in body order)."""
    if clean_body is None:
        return []
    kept = Counter(line.strip() for line in clean_body.split("\n"))
    removed = []
    for line in body.split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if kept[stripped] > 0:
            kept[stripped] -= 1
        else:
            removed.append(stripped)
    return removed


@dataclass
class Rate:
    hits: int = 0
    total: int = 0

    def add(self, hit: bool) -> None:
        self.hits += bool(hit)
        self.total += 1

    @property
    def share(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.share:.1%} ({self.hits}/{self.total})" if self.total else "n/a"


@dataclass
class SiteScore:
    references: int = 0
    fetched: int = 0
    articles: int = 0                     # references stored as articles
    outcomes: Counter = field(default_factory=Counter)  # outcome of the fetched reference pages
    title: Rate = field(default_factory=Rate)
    title_site_name: int = 0              # stored titles that are the site's own text
    site_titles: Counter = field(default_factory=Counter)
    author: Rate = field(default_factory=Rate)
    date: Rate = field(default_factory=Rate)
    f1_extracted: list[float] = field(default_factory=list)
    f1_published: list[float] = field(default_factory=list)
    f1_anchor: list[float] = field(default_factory=list)
    stored_articles: int = 0              # every page the crawl stored as an article (reference or not)
    url_copies: int = 0                   # more articles stored for those pages under other URLs (?replytocom=)
    duplicates: int = 0                   # of those, linked to a canonical
    duplicates_different_story: int = 0   # linked although the references tell different stories
    duplicate_examples: list[str] = field(default_factory=list)
    reference_lines: int = 0
    lines_removed: int = 0                # by line noise, over the matched articles
    content_lines_removed: int = 0
    content_removed_examples: Counter = field(default_factory=Counter)
    not_text_published: int = 0           # corpus bodies that are not text (newscorpus.core.line_noise.is_text)
    not_text_examples: list[str] = field(default_factory=list)
    title_misses: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    author_misses: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    date_misses: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    low_f1: list[tuple[str, float, float]] = field(default_factory=list)  # path, ours published, anchor


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def site_titles(stored: dict[str, Stored], references: dict[str, Reference]) -> Counter:
    """Stored titles shared by SITE_TITLE_MIN_ARTICLES or more articles whose reference titles differ."""
    holders: dict[str, set[str]] = {}
    for path, page in stored.items():
        if page.title and path in references and references[path].title:
            holders.setdefault(page.title.strip(), set()).add(references[path].title.strip())
    return Counter({title: len(titles) for title, titles in holders.items() if len(titles) >= SITE_TITLE_MIN_ARTICLES})


def score_site(references: dict[str, Reference], stored: dict[str, Stored],
               anchor: Callable[[bytes, str], str] | None = None) -> SiteScore:
    """Score the stored pages against the references; stored articles without a reference count in the
    near-duplicate share and are checked for non-text bodies."""
    scoring = _SiteScoring(references, anchor, SiteScore(references=len(references)))
    scoring.score.site_titles = site_titles(stored, references)
    for path, reference in sorted(references.items()):
        page = stored.get(path)
        if page is not None and page.fetched:
            scoring.reference_page(path, reference, page)
    for path, page in sorted(stored.items()):
        if path not in references and page.body is not None:
            scoring.unreferenced_article(path, page)
    return scoring.score


LOW_F1 = 0.8  # a published body under this F1 is listed with the anchor's F1 beside it


def _check(rate: Rate, misses: list, path: str, hit: bool, stored: str | None, stated: str) -> None:
    rate.add(hit)
    if not hit:
        misses.append((path, stored, stated))


@dataclass
class _SiteScoring:
    """The steps of score_site, each adding one measure of a page to ``score``."""

    references: dict[str, Reference]
    anchor: Callable[[bytes, str], str] | None
    score: SiteScore

    def reference_page(self, path: str, reference: Reference, page: Stored) -> None:
        self.bodies(path, reference, page)
        if page.body is None:
            return
        self.score.articles += 1
        self.score.stored_articles += 1
        self.score.url_copies += page.copies - 1
        self.title(path, reference, page)
        self.author(path, reference, page)
        self.date(path, reference, page)
        self.duplicate(path, reference, page)
        self.line_noise(reference, page)
        self.not_text(f"{path}: ", page)

    def bodies(self, path: str, reference: Reference, page: Stored) -> None:
        """The page's outcome, and the body F1 of the extracted, the published and the anchor's."""
        score = self.score
        score.fetched += 1
        score.outcomes[page.outcome or "-"] += 1
        if page.raw is not None and self.anchor is not None:
            score.f1_anchor.append(bag_of_tokens(self.anchor(page.raw, path), reference.body).f1)
        score.f1_extracted.append(bag_of_tokens(page.body or "", reference.body).f1)
        score.f1_published.append(bag_of_tokens(page.published or "", reference.body).f1)
        if score.f1_anchor and score.f1_published[-1] < LOW_F1:
            score.low_f1.append((path, score.f1_published[-1], score.f1_anchor[-1]))

    def title(self, path: str, reference: Reference, page: Stored) -> None:
        if reference.title:
            _check(self.score.title, self.score.title_misses, path, same_text(page.title, reference.title),
                   page.title, reference.title)
        if page.title and page.title.strip() in self.score.site_titles:
            self.score.title_site_name += 1

    def author(self, path: str, reference: Reference, page: Stored) -> None:
        if reference.author:
            _check(self.score.author, self.score.author_misses, path, same_text(page.author, reference.author),
                   page.author, reference.author)

    def date(self, path: str, reference: Reference, page: Stored) -> None:
        if reference.date:
            _check(self.score.date, self.score.date_misses, path, date_matches(page.published_at, reference.date),
                   str(page.published_at), reference.date)

    def duplicate(self, path: str, reference: Reference, page: Stored) -> None:
        """A link to a canonical article, and whether the two references tell different stories."""
        if page.canonical_path is None:
            return
        self.score.duplicates += 1
        other = self.references.get(page.canonical_path)
        different = other is None or bag_of_tokens(reference.body, other.body).f1 < SAME_STORY_F1
        self.score.duplicates_different_story += different
        self.score.duplicate_examples.append(f"{path} -> {page.canonical_path} ({page.duplicate_method} "
                                             f"{page.duplicate_score:.2f}{', different story' if different else ''})")

    def line_noise(self, reference: Reference, page: Stored) -> None:
        """The lines line noise removed, and those of them that are the reference's content."""
        score = self.score
        score.reference_lines += sum(1 for line in reference.body.split("\n") if line.strip())
        removed = removed_lines(page.body or "", page.clean_body)
        score.lines_removed += len(removed)
        content = content_lines_removed(removed, reference.body)
        score.content_lines_removed += len(content)
        score.content_removed_examples.update(content)

    def not_text(self, label: str, page: Stored) -> None:
        if page.published is not None and not is_text(page.published):
            self.score.not_text_published += 1
            self.score.not_text_examples.append(f"{label}{page.published[:60]!r}")

    def unreferenced_article(self, path: str, page: Stored) -> None:
        """A stored article with no reference: counted in the near-duplicate share, checked for a non-text body."""
        score = self.score
        score.stored_articles += 1
        score.url_copies += page.copies - 1
        if page.canonical_path is not None:
            score.duplicates += 1
            score.duplicate_examples.append(f"{path} -> {page.canonical_path} ({page.duplicate_method} "
                                            f"{page.duplicate_score:.2f}, no reference)")
        self.not_text(f"{path} (no reference): ", page)


def format_report(name: str, score: SiteScore, anchor_name: str | None, examples: int = 8) -> str:
    extracted, published, anchored = _mean(score.f1_extracted), _mean(score.f1_published), _mean(score.f1_anchor)
    dup_share = score.duplicates / score.stored_articles if score.stored_articles else 0.0
    content_share = score.content_lines_removed / score.reference_lines if score.reference_lines else 0.0
    rows = [
        f"## {name}",
        "",
        "| measure | value |",
        "|---|---|",
        f"| references / fetched / stored as articles | {score.references} / {score.fetched} / {score.articles} |",
        f"| outcomes of fetched reference pages | {dict(score.outcomes.most_common())} |",
        f"| title exact | {score.title} |",
        f"| site's own text as title (articles) | {score.title_site_name} {dict(score.site_titles.most_common(3))} |",
        f"| author (where stated) | {score.author} |",
        f"| date (where stated) | {score.date} |",
        f"| body F1 extracted (articles) | {extracted:.3f} |",
        f"| body F1 published (corpus_articles; 0 when left out) | {published:.3f} |",
    ]
    if anchor_name:
        ratio = published / anchored if anchored else 0.0
        rows.append(f"| body F1 {anchor_name} (same bytes) | {anchored:.3f} (ours published / it = {ratio:.3f}) |")
    rows += [
        f"| pages stored as articles (all) / linked as near-duplicates of another page | {score.stored_articles} / "
        f"{score.duplicates} ({dup_share:.2%}); of the referenced ones, different stories: "
        f"{score.duplicates_different_story}; more copies of stored pages under other URLs: {score.url_copies} |",
        f"| line noise: lines removed / reference lines removed (content) | {score.lines_removed} / "
        f"{score.content_lines_removed} = {content_share:.2%} of {score.reference_lines} reference lines |",
        f"| published bodies that are not text (punctuation only, or under the extractor's minimum) | "
        f"{score.not_text_published} |",
        "",
    ]
    sections = [
        ("title misses (path, stored, reference)", score.title_misses),
        ("author misses", score.author_misses),
        ("date misses", score.date_misses),
        ("lowest published F1 (path, ours, anchor)", sorted(score.low_f1, key=lambda row: row[1])),
        ("near-duplicate links", score.duplicate_examples),
        ("content lines removed by line noise (most frequent)", score.content_removed_examples.most_common()),
        ("non-text published bodies", score.not_text_examples),
    ]
    for title, items in sections:
        if items:
            rows.append(f"{title}: {len(items)}")
            rows.extend(f"  {item}" for item in items[:examples])
    return "\n".join(rows)
