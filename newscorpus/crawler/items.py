"""The item that travels through the pipeline: one fetched page, then what extraction and cleaning made of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class PageItem:
    # Set by the spider.
    url: str                              # the URL the spider asked for (first of a redirect chain)
    final_url: str                        # the URL that answered
    site: str
    status: int | None
    fetched_at: datetime
    content_type: str | None
    raw_body: bytes = field(repr=False)   # the page's bytes: never in a repr (logs, tracebacks)
    url_kind: str                         # "article" | "listing" | "other": what the URL looked like
    depth: int = 0
    outcome: str | None = None            # set as soon as it is known: "listing", "not_html", "too_large", ...
    outcome_detail: str | None = None
    warc_file: str | None = None          # set by the warc spider: the WARC file and record offset of the page
    warc_offset: int | None = None
    # Set by the extraction stage.
    encoding: str | None = None
    title: str | None = None
    author: str | None = None
    published_at: str | None = None       # ISO 8601 with the page's own offset (or a bare day) as found
    modified_at: str | None = None        # ISO 8601, when the page states a modification
    authors: list = field(default_factory=list)  # every author in byline order (author: them joined by ", ")
    site_name: str | None = None          # the site's name the page states (og:site_name ...), apart from the title
    body: str = ""
    language: str | None = None
    extraction_method: str | None = None
    confidence: float | None = None
    line_kinds: str | None = None         # one character per body line: code, heading, links, prose (line noise)
    # Set by the line-noise stage (newscorpus.pipelines.line_noise): body without the site's noise lines, the hashes
    # removed, how many lines, and RC of the statistics used.
    clean_body: str | None = None
    noise_hashes: list = field(default_factory=list)
    noise_lines: int | None = None
    cleaned_with_articles_seen: int | None = None
    # Free-form notes the later stages add (line-noise, near-duplicates).
    annotations: dict = field(default_factory=dict)

    @property
    def article_url(self) -> str:
        return self.final_url or self.url

    def apply_extraction(self, result) -> None:
        """Take the fields of a ``newscorpus.core.extraction.Extraction``; the outcome follows from it."""
        self.encoding = result.encoding
        self.title, self.author, self.published_at = result.title, result.author, result.published_at
        self.authors = list(getattr(result, "authors", ()) or ([result.author] if result.author else []))
        self.modified_at, self.site_name = getattr(result, "modified_at", None), getattr(result, "site_name", None)
        self.body, self.language = result.body, result.language
        self.extraction_method, self.confidence = result.method, result.confidence
        self.line_kinds = result.line_kinds
        self.outcome = result.outcome
