"""newscorpus: crawl news sites into a clean, deduplicated text corpus in Postgres (layers: README "Layout").

``from newscorpus import extract``: ``extract(html, url=None)`` gives one page's ``Extraction`` (title, authors,
dates, body, or the ``reason`` there is none) and never raises (docs/extraction.md). It is loaded on first use, so
that ``import newscorpus`` and the command line's start stay cheap."""

from __future__ import annotations

__all__ = ["Extraction", "extract"]


def __getattr__(name: str):
    if name in __all__:
        from newscorpus.core import extraction

        return getattr(extraction, name)
    raise AttributeError(f"module 'newscorpus' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
