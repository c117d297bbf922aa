"""Scores for extracted metadata against gold: date (exact day, within a day), title (exact, token F1), author.

- Date: the gold may be a day (`2024-05-20`, `2005-5-7 21:23:57`) or a month (`1998-3`); the answer (a day, or a
  month `1998-03` for a page that states no day) is compared at the gold's precision, by its calendar date as the
  page states it (an ISO string's first ten characters).
- Title: exact after whitespace and typographic-quote normalisation (NFKC, ’ -> '); token F1 with the
  extraction scoring's tokens (CJK characters).
- Author: normalised exact. Names are compared as the sorted list of their lower-cased `\\w+` tokens with the
  connectors `by`/`and` dropped, so `By Jane Roe and John Doe` equals ``["John Doe", "Jane Roe"]``; a text that
  differs only in spacing (`王建宏张文攀` / `王建宏 张文攀`) is also equal.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from newscorpus.evaluation.extraction_scoring import bag_of_tokens

_GOLD_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})(?:-(\d{1,2}))?")
_ANSWER_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")
_ANSWER_MONTH = re.compile(r"^\s*(\d{4})-(\d{2})$")
_WORDS = re.compile(r"\w+")
_SPACES = re.compile(r"\s+")
AUTHOR_CONNECTORS = frozenset({"by", "and"})
# Gold values that mean "no value" (zh_web_content_69 writes UNKNOWN).
MISSING = frozenset({"", "unknown", "none", "null"})


def gold_value(value) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in MISSING else text


def gold_date(text: str | None) -> tuple[int, int, int | None] | None:
    """(year, month, day or None for a month-only gold)."""
    match = _GOLD_DATE.match(text or "")
    if not match:
        return None
    year, month, day = match.groups()
    return int(year), int(month), int(day) if day else None


def answer_date(text: str | None) -> date | None:
    match = _ANSWER_DATE.match(text or "")
    if not match:
        return None
    try:
        return date(*map(int, match.groups()))
    except ValueError:
        return None


def date_scores(answer: str | None, gold: str | None) -> tuple[bool, bool]:
    """(exact, within one day) of an answer against a gold date (month-only gold: both mean same month)."""
    expected, got = gold_date(gold), answer_date(answer)
    month_only = _ANSWER_MONTH.match(answer or "")
    if expected is not None and month_only and expected[2] is None:  # a month answered for a month gold
        same = (int(month_only.group(1)), int(month_only.group(2))) == expected[:2]
        return same, same
    if expected is None or got is None:
        return False, False
    year, month, day = expected
    if day is None:
        same = (got.year, got.month) == (year, month)
        return same, same
    try:
        target = date(year, month, day)
    except ValueError:
        return False, False
    return got == target, abs((got - target).days) <= 1


# Typographic quotes as their ASCII forms: WCXB's gold writes "We've" where the page writes "We’ve".
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "′": "'"})


def normalise_title(text: str | None) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text or "").translate(_QUOTES)).strip()


def title_scores(answer: str | None, gold: str) -> tuple[bool, float]:
    """(exact after whitespace normalisation, token F1)."""
    return normalise_title(answer) == normalise_title(gold), bag_of_tokens(answer or "", gold).f1


def author_words(names: list[str] | str | None) -> list[str]:
    """Lower-cased words of the names, in order, connectors dropped."""
    text = " ".join(names) if isinstance(names, list) else (names or "")
    words = _WORDS.findall(unicodedata.normalize("NFKC", text).lower().replace("_", " "))
    return [word for word in words if word not in AUTHOR_CONNECTORS]


def author_exact(answer: list[str] | None, gold: str) -> bool:
    got, expected = author_words(answer), author_words(gold)
    return bool(expected) and (sorted(got) == sorted(expected) or "".join(got) == "".join(expected))
