"""Search terms of a text: jieba's search-mode words for Chinese, lower-cased words otherwise; and snippets."""

from __future__ import annotations

import re

from newscorpus.core.text import HAN_RANGES, characters

# CJK ideographs (URO + extension A + compatibility): segmented by jieba; everything else by word characters.
_CJK_RUN = re.compile(f"[{characters(*HAN_RANGES)}]+")
_WORD = re.compile(r"\w+")
_CJK_CHAR = re.compile(f"[{characters(*HAN_RANGES)}]")

SNIPPET_CHARS = 160        # about two lines of a terminal; a Chinese sentence and a half
HIGHLIGHT = ("«", "»")


def _jieba():  # noqa: ANN202 - the jieba module, its whole dictionary loaded once (newscorpus.core.jieba_dictionary)
    from newscorpus.core.jieba_dictionary import jieba_module

    return jieba_module()


def search_terms(text: str | None, *, query: bool = False) -> list[str]:
    """The words of ``text`` in order: CJK runs cut with ``jieba.cut_for_search`` (words and their sub-words,
    so that a query for 公共交通 finds 城市公共交通), other runs split into lower-cased word-character runs.
    ``query``: a short text (a user's query), cut with the dictionary entries of its own characters only
    (newscorpus.core.query_dictionary: the same words, without loading the whole dictionary)."""
    if not text:
        return []
    terms: list[str] = []
    position = 0
    tokenizer = None
    for match in _CJK_RUN.finditer(text):
        if tokenizer is None:
            if query:
                from newscorpus.core.query_dictionary import query_tokenizer

                tokenizer = query_tokenizer(text)  # not the whole dictionary: a query's characters' entries
            else:
                tokenizer = _jieba()
        terms.extend(word.lower() for word in _WORD.findall(text[position : match.start()]))
        terms.extend(word for word in tokenizer.cut_for_search(match.group()) if word.strip())
        position = match.end()
    terms.extend(word.lower() for word in _WORD.findall(text[position:]))
    return terms


def _all_of(terms: list[str], operator: str = "&") -> str:
    return f" {operator} ".join(f"'{term}'" for term in terms)


def query_expression(text: str | None) -> str:
    """A ``to_tsquery('simple', ...)`` expression for a user's query: every whitespace-separated part must
    match, either as one indexed word or as all of its segments. A word alone is cut differently than in a
    sentence (jieba cuts 与此 alone into 与 + 此, but keeps 与此 inside 与此同时), so both forms are tried.
    Terms are ``\\w`` runs or CJK words, which never hold a quote or a backslash."""
    clauses = []
    for part in (text or "").split():
        terms = list(dict.fromkeys(search_terms(part, query=True)))
        if not terms:
            continue
        whole = part.lower()
        pieces = [term for term in terms if term != whole]
        if pieces and len(terms) > 1 and _CJK_RUN.fullmatch(whole):
            clauses.append(f"('{whole}' | ({_all_of(pieces, '<->')}))")  # the pieces next to each other
        else:
            clauses.append(f"({_all_of(terms)})")
    return " & ".join(clauses)


def segmented(text: str | None) -> str:
    """``text`` as space-separated search terms: what goes into ``to_tsvector('simple', ...)`` and, for a
    query, into ``plainto_tsquery('simple', ...)``, so both sides are tokenised the same way."""
    return " ".join(search_terms(text))


def _term_pattern(term: str) -> str:
    escaped = re.escape(term)
    if _CJK_CHAR.search(term):
        return escaped
    return rf"(?<!\w){escaped}(?!\w)"  # whole words only: "rail" is not found in "trail"


def snippet(text: str, terms: list[str], width: int = SNIPPET_CHARS) -> str:
    """A window of about ``width`` characters of ``text`` around the first occurrence of any of ``terms``
    (case-insensitive), every occurrence inside it marked «like this»; the start of the text when none occurs.
    Built here rather than with ts_headline, which cannot find words in unsegmented Chinese text."""
    flat = " ".join(text.split())
    unique = sorted({term for term in terms if term.strip()}, key=len, reverse=True)  # longest first
    if not unique:
        return flat[:width] + ("…" if len(flat) > width else "")
    pattern = re.compile("|".join(_term_pattern(term) for term in unique), re.IGNORECASE)
    first = pattern.search(flat)
    if first is None:
        return flat[:width] + ("…" if len(flat) > width else "")
    start = max(0, first.start() - width // 3)
    end = min(len(flat), start + width)
    start = max(0, min(start, end - width))
    window = pattern.sub(lambda m: f"{HIGHLIGHT[0]}{m.group()}{HIGHLIGHT[1]}", flat[start:end])
    return ("…" if start > 0 else "") + window + ("…" if end < len(flat) else "")
