"""Line-noise removal by per-site line statistics (research base 000, section 2.2): normalise and hash
each line of an extracted body, and drop the lines that too many articles of the same site contain.

Ours (a per-site stage removes only what it has evidence is the site's): a line is noise only when
it is in a large share of the site's articles (min_share) *and* in a boilerplate position in the article: in
the run of such lines at the start or the end of the body, or a line of links; in the middle of the body
only when a majority of the site's articles hold it (mid_body_share). Code lines (from <pre>/<code>, or that
read as code) are never noise, nor headings, except a heading whose whole section was removed (it titled
boilerplate). Lines repeated in a minority of the site's articles (a series' recurring sentence, shared code,
a heading many posts use) are content. A line with digits is counted twice, normalised (digits -> 0) and as
written (its digits kept), and is frequent only as often as both forms are: "© 2026" is the same in every
article, a score or a rate ("上证指数 3,245.67 点") differs in its digits and is the article's.

Pure: no Scrapy, Twisted or psycopg. The counts (LC per line hash, RC per site) live elsewhere (Postgres for
the crawl, a dict for the evaluation); this module only turns bodies into hashes and counts into decisions.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from newscorpus.core.config_checks import at_least, within
from newscorpus.core.extraction import MIN_BODY_CHARS, body_chars

__all__ = [
    "LineNoiseConfig", "Cleaning", "normalise_line", "line_hash", "body_lines", "article_hashes",
    "noise_threshold", "is_noise", "should_prune", "clean_body", "InMemoryLineStats", "is_text", "digits_hash",
]

_DIGITS = re.compile(r"\d")
_DIGIT_RUNS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^\w\s]|_")     # punctuation, symbols, controls (\w covers letters, digits, CJK)
_WORD_CHAR = re.compile(r"[^\W_]")
# A line that reads as code when the markup did not say (a body stored before line kinds, code in <p>): it ends
# with ; { or }, or is a preprocessor line. Boilerplate does not end so (Chinese prose ends with "；", not ";").
_CODE_LINE = re.compile(r"[;{}]\s*$|^\s*#\s*(?:include|define|import|pragma|if|endif)\b")
# Line kinds (newscorpus.core.extraction.line_kinds): code, heading, links, prose.
CODE, HEADING, LINKS = "c", "h", "l"


@dataclass(frozen=True)
class LineNoiseConfig:
    """The filter's parameters, with the paper's values unless said otherwise."""

    # L: one more repetition allowed per L articles processed (paper: L = 50).
    per_articles: int = 50
    # Lines with LC <= RC / prune_divisor are deleted from the table (paper: 1 %, i.e. 100).
    prune_divisor: int = 100
    # Prune every this many articles of a site (ours; 0 = never). 100 keeps a site's table near
    # 100 x (distinct lines per article) rows (benchmarks/line_noise_throughput.py).
    prune_interval: int = 100
    # Ours: a line is noise only when at least this many articles contain it. The paper's rule alone makes
    # a line noise on its 2nd article while RC < 50; 3 ("with fewer than 50 articles a line seen in 3 articles
    # is noise") also spares two articles that quote the same sentence.
    min_articles: int = 3
    # Guard rail (ours): a line that is at least this share of the body's characters is removed only with
    # evidence from guard_articles articles. 0.25 = a quarter of a short article; no gold line of the eval
    # sets is that large a share of a page, so it never changes the eval scores.
    guard_share: float = 0.25
    guard_articles: int = 10
    # Statistics of a site are mature after this many articles: earlier articles are cleaned again then
    # (ours; = L, the count at which the paper's threshold first rises).
    warmup: int = 50
    # Ours: a line is noise only when at least this share of the site's articles hold it. Set on the
    # coolshell.cn crawl (benchmarks/real_site.py): the lines the paper's rule removed that the
    # site's own markup keeps as content were in at most 6.2 % of its articles (code lines, "文章：来源", shared
    # headings), its boilerplate in 66-95 % (ratings, "相关文章", the copyright line); 0.2 lies ~3x from both.
    # A newsroom's recurring sentence ("Polls open at 7 a.m.") was in 2 % of its articles.
    min_share: float = 0.2
    # Ours: outside the start/end runs and link lines (mid-body), a line is noise only in a majority of articles.
    mid_body_share: float = 0.5

    def __post_init__(self) -> None:
        at_least(self, 1, "per_articles", "prune_divisor", "min_articles", "guard_articles")
        at_least(self, 0, "prune_interval", "warmup")
        within(self, 0, 1, "guard_share", low_open=True)
        within(self, 0, 1, "min_share", "mid_body_share")


def normalise_line(line: str) -> str:
    """The form a line is hashed in: NFKC (full width -> half width), case folded, each run of digits -> 0,
    punctuation and symbols dropped, whitespace folded (as CCNet normalises lines before hashing them, but for
    the runs: "(16 人打了分" and "(419 人打了分" are one widget line)."""
    text = unicodedata.normalize("NFKC", line).casefold()
    text = _DIGIT_RUNS.sub("0", _NOT_WORD.sub("", text))  # after the punctuation: "3.63" is one run
    return _SPACES.sub(" ", text).strip()


def digits_hash(line: str) -> uuid.UUID | None:
    """The hash of a line with digits as written (normalised but for its digits); None for a line without digits.
    The "#" prefix is dropped by normalise_line, so this hash never equals a normalised line's."""
    text = unicodedata.normalize("NFKC", line).casefold()
    if _DIGITS.search(text) is None:
        return None
    return line_hash("#" + _SPACES.sub(" ", _NOT_WORD.sub("", text)).strip())


def line_hash(normalised: str) -> uuid.UUID:
    """MD5 of the normalised line, as a UUID (16 bytes; Postgres ``uuid`` sorts like the bytes)."""
    return uuid.UUID(bytes=hashlib.md5(normalised.encode("utf-8")).digest())


def body_lines(body: str) -> list[tuple[str, uuid.UUID | None]]:
    """Each line of ``body`` with its hash; ``None`` for lines with nothing left after normalisation."""
    lines = []
    for line in body.split("\n"):
        normalised = normalise_line(line)
        lines.append((line, line_hash(normalised) if normalised else None))
    return lines


def article_hashes(body: str | list[tuple[str, uuid.UUID | None]]) -> tuple[list[uuid.UUID], list[str]]:
    """The distinct line hashes of an article (its body, or its ``body_lines``), sorted (the lock order of
    every batch), with a sample text each; a line with digits gives its digits_hash too (counted alike)."""
    samples: dict[uuid.UUID, str] = {}
    for line, digest in body_lines(body) if isinstance(body, str) else body:
        if digest is None:
            continue
        for found in (digest, digits_hash(line)):
            if found is not None and found not in samples:
                samples[found] = line.strip()
    hashes = sorted(samples, key=lambda h: h.bytes)
    return hashes, [samples[h] for h in hashes]


def noise_threshold(articles_seen: int, per_articles: int = 50) -> int:
    """int(1 + RC / L): a line seen in more articles than this is noise (paper, step 7)."""
    return int(1 + articles_seen / per_articles)


def is_noise(line_articles: int, articles_seen: int, config: LineNoiseConfig = LineNoiseConfig()) -> bool:
    """Frequent enough to be noise (the paper's rule, min_articles and min_share); where it stands in the
    article decides the rest (clean_body)."""
    return (line_articles > noise_threshold(articles_seen, config.per_articles)
            and line_articles >= config.min_articles
            and line_articles >= config.min_share * articles_seen)


def is_text(body: str) -> bool:
    """A cleaned body is still an article's text: at least the extractor's MIN_BODY_CHARS (non-space
    characters) and some letters, digits or CJK characters, not `}\n}`, "——" or a lone emoji."""
    return body_chars(body) >= MIN_BODY_CHARS and _WORD_CHAR.search(body) is not None


def is_code(line: str, kind: str | None) -> bool:
    return kind == CODE or _CODE_LINE.search(line) is not None


def should_prune(line_articles: int, articles_seen: int, prune_divisor: int = 100) -> bool:
    """LC <= RC / 100: the line is rare enough to forget (paper)."""
    return line_articles * prune_divisor <= articles_seen


@dataclass(frozen=True)
class Cleaning:
    body: str
    removed: tuple[tuple[uuid.UUID, str], ...]   # (hash, line) of every removed line, in body order
    guarded: int                                  # lines kept by the guard rail although frequent

    @property
    def noise_hashes(self) -> list[uuid.UUID]:
        return sorted({digest for digest, _ in self.removed}, key=lambda h: h.bytes)


@dataclass(frozen=True)
class LineFacts:
    """What the rules know of one line of a body."""

    text: str
    digest: uuid.UUID | None     # None: nothing left after normalisation
    articles: int                # LC: the site's articles holding the line
    kind: str | None             # the extractor's line kind; None: unknown
    at_edge: bool = False        # in the run of candidates at the start or the end of the body
    digits_vary: bool = False    # frequent only with its digits folded, and a small part of the body


@dataclass(frozen=True)
class SiteFacts:
    """What the rules know of the site and the body as a whole."""

    articles_seen: int           # RC
    config: LineNoiseConfig
    allowed: set[uuid.UUID]
    body_chars: int              # characters of the body's stripped lines (at least 1)


LineRule = Callable[[LineFacts, SiteFacts], str | None]


def no_text(line: LineFacts, site: SiteFacts) -> str | None:
    return "no text" if line.digest is None else None


def allow_listed(line: LineFacts, site: SiteFacts) -> str | None:
    return "allow-listed" if line.digest in site.allowed else None


def not_frequent(line: LineFacts, site: SiteFacts) -> str | None:
    return None if is_noise(line.articles, site.articles_seen, site.config) else "not frequent"


def a_heading(line: LineFacts, site: SiteFacts) -> str | None:
    return "heading" if line.kind == HEADING else None


def a_code_line(line: LineFacts, site: SiteFacts) -> str | None:
    return "code" if is_code(line.text, line.kind) else None


def mid_body_minority(line: LineFacts, site: SiteFacts) -> str | None:
    """Away from the edges and not a line of links, a line is noise only in a majority of the site's articles."""
    if line.at_edge or line.kind == LINKS or line.articles >= site.config.mid_body_share * site.articles_seen:
        return None
    return "mid-body, in a minority of the site's articles"


def digits_vary_mid_body(line: LineFacts, site: SiteFacts) -> str | None:
    """A line frequent only with its digits folded is the site's at the body's edge alone (a rating widget, "Last
    updated at 10:32"); in mid-body its digits make it the article's."""
    return "its digits differ between articles, away from the edge" if line.digits_vary and not line.at_edge else None


GUARD_RAIL = "guard rail: a large share of the body, seen in too few articles"


def guard_rail(line: LineFacts, site: SiteFacts) -> str | None:
    large = len(line.text.strip()) / site.body_chars >= site.config.guard_share
    return GUARD_RAIL if large and line.articles < site.config.guard_articles else None


# Each table is ordered; the first rule that answers gives the reason a line is kept.
FREQUENCY_RULES: tuple[LineRule, ...] = (no_text, allow_listed, not_frequent)   # passed: the line is frequent
CANDIDATE_RULES: tuple[LineRule, ...] = (a_heading, a_code_line)                 # passed too: a candidate
POSITION_RULES: tuple[LineRule, ...] = (digits_vary_mid_body, mid_body_minority, guard_rail)  # passed: removed


def kept_because(rules: tuple[LineRule, ...], line: LineFacts, site: SiteFacts) -> str | None:
    """The reason of the first rule that keeps the line; None when no rule does."""
    for rule in rules:
        reason = rule(line, site)
        if reason is not None:
            return reason
    return None


def clean_body(body: str, counts: Mapping[uuid.UUID, int], articles_seen: int,
               config: LineNoiseConfig = LineNoiseConfig(), allowed: Iterable[uuid.UUID] = (),
               lines: list[tuple[str, uuid.UUID | None]] | None = None, kinds: str | None = None) -> Cleaning:
    """Drop the lines of ``body`` that are noise given LC (``counts``) and RC (``articles_seen``) and where they
    stand (module docstring); ``lines`` = ``body_lines(body)`` when the caller has them already; ``kinds`` = the
    extractor's line kinds (one character per line; None or another length: unknown, read from the text)."""
    lines = body_lines(body) if lines is None else lines
    site = SiteFacts(articles_seen, config, set(allowed), max(sum(len(line.strip()) for line, _ in lines), 1))
    facts = _line_facts(lines, counts, kinds, site.body_chars)
    frequent = [kept_because(FREQUENCY_RULES, line, site) is None for line in facts]
    candidate = [is_frequent and kept_because(CANDIDATE_RULES, line, site) is None
                 for line, is_frequent in zip(facts, frequent, strict=True)]
    kind = [line.kind for line in facts]
    edge = _edge_runs(lines, candidate, kind)
    position = [kept_because(POSITION_RULES, replace(line, at_edge=at_edge), site) if is_candidate else None
                for line, is_candidate, at_edge in zip(facts, candidate, edge, strict=True)]
    remove = [is_candidate and reason is None for is_candidate, reason in zip(candidate, position, strict=True)]
    _remove_titled_boilerplate(lines, kind, frequent, remove)
    removed = tuple((digest, line) for (line, digest), gone in zip(lines, remove, strict=True) if gone)
    cleaned = "\n".join(line for (line, _), gone in zip(lines, remove, strict=True) if not gone).strip("\n")
    return Cleaning(cleaned if removed else body, removed, position.count(GUARD_RAIL))


# A line whose digits differ between articles counts by its digits folded when it is at most this share of the
# body's characters: a widget line beside an article's own text ("(16 人打了分，平均分： 3.63 )"), while the
# lines of a bulletin made of numbers are each a large part of it and count with their digits as written.
DIGITS_VARY_SHARE = 0.1
# ... or when all such lines together are at most this share: a two-line post keeps its own text beside the
# widget, while a bulletin is mostly such lines.
DIGITS_VARY_BODY_SHARE = 0.5


def _line_facts(lines: list[tuple[str, uuid.UUID | None]], counts: Mapping[uuid.UUID, int],
                kinds: str | None, body_chars: int) -> list[LineFacts]:
    """The facts of each line; kinds of another length than the body's lines are unknown."""
    if kinds is not None and len(kinds) != len(lines):
        kinds = None
    articles = [_line_articles(line, digest, counts) for line, digest in lines]
    varying_chars = sum(len(line.strip()) for (line, _), (folded, exact) in zip(lines, articles, strict=True)
                        if exact < folded)
    few_vary = varying_chars <= DIGITS_VARY_BODY_SHARE * body_chars
    facts = []
    for i, ((line, digest), (folded, exact)) in enumerate(zip(lines, articles, strict=True)):
        small = len(line.strip()) <= DIGITS_VARY_SHARE * body_chars
        varies = exact < folded and (small or few_vary)
        facts.append(LineFacts(line, digest, folded if varies else exact, kinds[i] if kinds else None,
                               digits_vary=varies))
    return facts


def _line_articles(line: str, digest: uuid.UUID | None, counts: Mapping[uuid.UUID, int]) -> tuple[int, int]:
    """LC of a line with its digits folded, and no more than of its digits as written (bulletins that differ
    only in their digits share the folded form, not the line)."""
    if digest is None:
        return 0, 0
    articles = counts.get(digest, 0)
    exact = digits_hash(line)
    return articles, (articles if exact is None else min(articles, counts.get(exact, 0)))


def _remove_titled_boilerplate(lines: list[tuple[str, uuid.UUID | None]], kind: list[str | None],
                               frequent: list[bool], remove: list[bool]) -> None:
    """A frequent heading whose whole section went titled boilerplate goes too (from the end, so a removed
    heading counts in the section of the one above it)."""
    for i in range(len(lines) - 1, -1, -1):
        if frequent[i] and kind[i] == HEADING and _section_removed(lines, kind, remove, i):
            remove[i] = True


def _edge_runs(lines: list[tuple[str, uuid.UUID | None]], candidate: list[bool], kind: list[str | None]) -> list[bool]:
    """The lines in the runs of candidates at the start and at the end of the body; blank lines, lines with no
    text (punctuation) and headings do not end a run."""
    edge = [False] * len(lines)
    for order in (range(len(lines)), range(len(lines) - 1, -1, -1)):
        for i in order:
            if candidate[i]:
                edge[i] = True
            elif lines[i][1] is not None and kind[i] != HEADING:
                break
    return edge


def _section_removed(lines: list[tuple[str, uuid.UUID | None]], kind: list[str | None], remove: list[bool],
                     heading: int) -> bool:
    """Every line with text under the heading is removed: up to the next kept heading, with at least one line
    removed, or up to the end of the body (a heading the body ends with, over nothing kept). A heading removed
    already (later in the body) counts as a removed line."""
    removed_any = False
    for i in range(heading + 1, len(lines)):
        if kind[i] == HEADING and not remove[i]:
            return removed_any
        if lines[i][1] is not None:
            if not remove[i]:
                return False
            removed_any = True
    return True


class InMemoryLineStats:
    """The Postgres statistics' algorithm over dicts, for the evaluation and tests: count, clean, prune."""

    def __init__(self, config: LineNoiseConfig = LineNoiseConfig()):
        self.config = config
        self.counts: dict[str, dict[uuid.UUID, int]] = {}
        self.articles_seen: dict[str, int] = {}

    def count(self, site: str, body: str) -> tuple[dict[uuid.UUID, int], int]:
        """Count the article's lines; return LC of its lines (itself included) and RC before it."""
        counts = self.counts.setdefault(site, {})
        rc = self.articles_seen.get(site, 0)
        hashes, _ = article_hashes(body)
        for digest in hashes:
            counts[digest] = counts.get(digest, 0) + 1
        self.articles_seen[site] = rc + 1
        seen = {digest: counts[digest] for digest in hashes}
        interval = self.config.prune_interval
        if interval and (rc + 1) % interval == 0:
            for digest in [h for h, lc in counts.items() if should_prune(lc, rc + 1, self.config.prune_divisor)]:
                del counts[digest]
        return seen, rc

    def process(self, site: str, body: str, kinds: str | None = None) -> Cleaning:
        counts, rc = self.count(site, body)
        return clean_body(body, counts, rc, self.config, kinds=kinds)

    def reclean(self, site: str, body: str, kinds: str | None = None) -> Cleaning:
        """Clean an already counted article with the site's current statistics."""
        return clean_body(body, self.counts.get(site, {}), self.articles_seen.get(site, 0), self.config,
                          kinds=kinds)
