"""Adapters for the anchor tools (optional `eval` extra): each maps (page bytes, url, lang) to body text.

Tools that need text get it from our own decoder so every system sees the same characters; the
decoding time is counted in their pages/s like ours.
"""

from __future__ import annotations

from collections.abc import Callable

from pipelines.core.decoding import decode_html

Extractor = Callable[[bytes, "str | None", "str | None"], str]

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


def _trafilatura(favor_precision: bool, decoded: bool = False) -> Extractor:
    import trafilatura

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        page = decode_html(html).text if decoded else html
        return trafilatura.extract(page, url=url, favor_precision=favor_precision) or ""

    return run


def _readability() -> Extractor:
    import lxml.html
    from readability import Document

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        summary = Document(decode_html(html).text, url=url).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""

    return run


def _gne() -> Extractor:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(html: bytes, url: str | None, lang: str | None) -> str:
        return extractor.extract(decode_html(html).text).get("content", "") or ""

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
    "trafilatura_text": lambda: _trafilatura(False, decoded=True),
    "trafilatura_precision_text": lambda: _trafilatura(True, decoded=True),
    "readability": _readability,
    "gne": _gne,
    "justext": _justext,
    "resiliparse": _resiliparse,
}


# What each system is given, printed beside the table: trafilatura decodes bytes itself (and mis-detects
# some undeclared GB2312 pages), so it is also run on our decoded text for a like-for-like comparison.
INPUTS = {
    "newscorpus": "bytes (own decoder)",
    "trafilatura": "bytes (own decoder)",
    "trafilatura_precision": "bytes (own decoder)",
    "trafilatura_text": "decode_html text",
    "trafilatura_precision_text": "decode_html text",
    "readability": "decode_html text",
    "gne": "decode_html text",
    "justext": "bytes; manifest language stoplist",
    "resiliparse": "decode_html text",
}


def load_anchor(name: str) -> Extractor:
    """Build one anchor; raises KeyError for an unknown name, ImportError when the extra is missing."""
    return ANCHORS[name]()
