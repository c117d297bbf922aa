"""Text concepts shared by every layer: what Postgres text may hold (NUL), and the content hashes stored with it."""

from __future__ import annotations

import hashlib


def without_nul(text: str | None) -> str | None:
    """Postgres text cannot hold NUL characters."""
    return text.replace("\x00", "") if text else text


def body_hash(text: str) -> str:
    """SHA-256 of a body as stored (articles.body_hash, line-noise per-article rows)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def source_hash(title: str | None, body: str) -> str:
    """What the near-duplicate stage fed the detector: a re-crawl with the same hash changes nothing."""
    return hashlib.sha256(f"{title or ''}\x00{body}".encode()).hexdigest()
