"""The record of a stored article, as the crawl's feed exports write it (`scrapy crawl site -o FILE`): the
article's fields, never the page's bytes."""

from __future__ import annotations

import pyarrow as pa

from newscorpus.store.article_metadata import metadata_columns

# The feed's columns, in order; docs/crawling.md ("Feed exports") describes each.
ARTICLE_FIELDS = ("url", "canonical_url", "site", "title", "authors", "published_at", "published_date",
                  "published_utc_offset", "language", "body", "duplicate_of")
ARTICLE_SCHEMA = pa.schema([
    ("url", pa.string()), ("canonical_url", pa.string()), ("site", pa.string()), ("title", pa.string()),
    ("authors", pa.list_(pa.string())), ("published_at", pa.string()), ("published_date", pa.string()),
    ("published_utc_offset", pa.string()), ("language", pa.string()), ("body", pa.string()),
    ("duplicate_of", pa.string()),
])


def article_record(item) -> dict | None:
    """The feed record of a page item that came out of the pipeline; None when it holds no article (a listing, a
    sitemap, an HTTP error, ...). The body is the published one: the cleaned body when the line-noise stage made
    one, else the extracted body (what the corpus_articles view shows)."""
    if getattr(item, "outcome", None) != "article":
        return None
    metadata = metadata_columns(item)
    near_duplicate = item.annotations.get("near_duplicate") or {}
    day = metadata["published_date"]
    return {
        "url": item.url,
        "canonical_url": item.article_url,
        "site": item.site,
        "title": item.title,
        "authors": list(metadata["authors"] or []),
        "published_at": item.published_at,
        "published_date": day.isoformat() if day is not None else None,
        "published_utc_offset": metadata["published_utc_offset"],
        "language": item.language,
        "body": item.clean_body if item.clean_body is not None else item.body,
        "duplicate_of": near_duplicate.get("canonical_url") if near_duplicate.get("status") == "duplicate" else None,
    }
