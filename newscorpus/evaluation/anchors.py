"""Adapters for the anchor tools (optional `eval` extra): each maps (page bytes, url, lang) to body text.

Tools that need text get it from our own decoder so every system sees the same characters; the
decoding time is counted in their pages/s like ours.
"""

from __future__ import annotations

from collections.abc import Callable

from newscorpus.core.decoding import decode_html

Extractor = Callable[[bytes, "str | None", "str | None"], "str | tuple[str | None, str]"]

# justext needs a stoplist per language; for languages it lacks (Chinese, Japanese) it is given
# an empty stoplist with stopword thresholds at 0, as its documentation suggests for such cases.
_JUSTEXT_STOPLISTS = {
    "en": "English",
    "pt": "Portuguese",
    "it": "Italian",
    "ru": "Russian",
    "ko": "Korean",
    "de": "German",
    "pl": "Polish",
    "tr": "Turkish",
    "ar": "Arabic",
    "ur": "Urdu",
}


def _trafilatura(favor_precision: bool, decoded: bool = True) -> Extractor:
    """Title and text as `trafilatura.extract` gives them (its text output appends the comments it keeps by
    default, so they are appended here too)."""
    import trafilatura

    def run(html: bytes, url: str | None, lang: str | None) -> tuple[str | None, str]:
        page = decode_html(html).text if decoded else html
        document = trafilatura.bare_extraction(page, url=url, favor_precision=favor_precision, with_metadata=True)
        if document is None:
            return None, ""
        text = "\n".join(part for part in (document.text, document.comments) if part)
        return document.title, text

    return run


def _trafilatura_plain() -> Extractor:
    """`trafilatura.extract` on our decoded text, body only, no metadata: the cheapest call, for speed ratios."""
    import trafilatura

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        return trafilatura.extract(decode_html(html).text, url=url) or ""

    return run


def _readability() -> Extractor:
    import lxml.html
    from readability import Document

    def run(html: bytes, url: str | None, lang: str | None) -> tuple[str | None, str]:
        document = Document(decode_html(html).text, url=url)
        summary = document.summary(html_partial=True)
        body = lxml.html.fromstring(summary).text_content() if summary.strip() else ""
        return document.short_title() or None, body

    return run


def _gne() -> Extractor:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(html: bytes, url: str | None, lang: str | None) -> tuple[str | None, str]:
        result = extractor.extract(decode_html(html).text)
        return result.get("title") or None, result.get("content", "") or ""

    return run


def _justext() -> Extractor:
    import justext

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        name = _JUSTEXT_STOPLISTS.get(lang or "")
        if name:
            paragraphs = justext.justext(html, justext.get_stoplist(name))
        else:
            paragraphs = justext.justext(html, frozenset(), stopwords_low=0, stopwords_high=0)
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    return run


def _resiliparse() -> Extractor:
    from resiliparse.extract.html2text import extract_plain_text

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        return extract_plain_text(decode_html(html).text, main_content=True)

    return run


ANCHORS: dict[str, Callable[[], Extractor]] = {
    "trafilatura": lambda: _trafilatura(False),
    "trafilatura_precision": lambda: _trafilatura(True),
    "trafilatura_plain": _trafilatura_plain,
    # The issue-3 names of the decoded-text variants, kept so the commands recorded then still run.
    "trafilatura_text": lambda: _trafilatura(False),
    "trafilatura_precision_text": lambda: _trafilatura(True),
    "trafilatura_bytes": lambda: _trafilatura(False, decoded=False),
    "trafilatura_precision_bytes": lambda: _trafilatura(True, decoded=False),
    "readability": _readability,
    "gne": _gne,
    "justext": _justext,
    "resiliparse": _resiliparse,
}


# What each system is given, printed beside the table. Trafilatura gets our decoded text (decoding bytes itself it
# misreads undeclared GB2312 pages and loses zh F1, `newscorpus eval extraction --compare`); the `_bytes` variants
# keep its own decoding for reference. Anchors that give a title return it, for the sets whose gold holds the
# headline.
INPUTS = {
    "newscorpus": "bytes (own decoder)",
    "trafilatura": "decode_html text",
    "trafilatura_precision": "decode_html text",
    "trafilatura_plain": "decode_html text; extract(), body only, no metadata",
    "trafilatura_text": "decode_html text",
    "trafilatura_precision_text": "decode_html text",
    "trafilatura_bytes": "bytes (own decoder)",
    "trafilatura_precision_bytes": "bytes (own decoder)",
    "readability": "decode_html text",
    "gne": "decode_html text",
    "justext": "bytes; manifest language stoplist",
    "resiliparse": "decode_html text",
}


def anchor_body(output: str | tuple[str | None, str] | None) -> str:
    """The body of an anchor's output: its text, or the second of (title, body)."""
    if isinstance(output, tuple):
        output = output[1]
    return output or ""


def load_anchor(name: str) -> Extractor:
    """Build one anchor; raises KeyError for an unknown name, ImportError when the extra is missing."""
    return ANCHORS[name]()
