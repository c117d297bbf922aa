"""The systems `newscorpus eval metadata` compares: ours (the whole extraction) and the anchor tools (`eval` extra).

Each maps (page bytes, url) to an Answer. Tools that need text get it from our decoder (as in `anchors.py`), and
the decoding is counted in their time. trafilatura runs its whole extraction (body and metadata), as we do, so
the speed ratio compares like with like; htmldate runs as trafilatura calls it (publication date, extensive search).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from newscorpus.core.decoding import decode_html
from newscorpus.evaluation.metadata_eval import Answer, System

_AUTHOR_SEPARATOR = re.compile(r"\s*;\s*")


def newscorpus() -> System:
    from newscorpus.core.extraction import extract

    def run(html: bytes, url: str | None) -> Answer:
        result = extract(html, url)
        return Answer(result.title, list(result.authors), result.published_at, result.modified_at)

    return run


def htmldate() -> System:
    from htmldate import find_date

    def run(html: bytes, url: str | None) -> Answer:
        return Answer(date=find_date(decode_html(html).text, url=url, original_date=True, extensive_search=True))

    return run


def trafilatura() -> System:
    import trafilatura as tool

    def run(html: bytes, url: str | None) -> Answer:
        document = tool.bare_extraction(html, url=url, with_metadata=True)
        if document is None:
            return Answer()
        author = document.author or ""
        return Answer(document.title, [a for a in _AUTHOR_SEPARATOR.split(author) if a], document.date)

    return run


def gne() -> System:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(html: bytes, url: str | None) -> Answer:
        found = extractor.extract(decode_html(html).text)
        date = found.get("publish_time") or None
        if date:  # GNE answers the page's own spelling; read it as a date with our parser
            from newscorpus.core.extraction.dates import parse_date

            date = parse_date(date)
        return Answer(found.get("title") or None, [found["author"]] if found.get("author") else [], date)

    return run


SYSTEMS: dict[str, Callable[[], System]] = {
    "newscorpus": newscorpus, "htmldate": htmldate, "trafilatura": trafilatura, "gne": gne,
}  # fmt: skip
