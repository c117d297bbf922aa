"""A normalised article body read once as code points, and the words every near-duplicate feature cuts from it
(plus the character folding that makes its NFKC normalisation cheap).

Rather than each of the window words, simhash features, shingle sketch and exact hash scanning the body with
`\\w+` (and the CJK-run patterns) again, the body is encoded once and each code point classed by one table
lookup (`\\w` character as `re` decides it, CJK ideograph); words and character arrays are cut from that, equal
to what the patterns found.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import numpy as np

from newscorpus.core.text import HAN_RANGES

WORD_CHAR = 1  # matches `\w`
CJK_CHAR = 2  # a CJK ideograph, in text.HAN_RANGES (a few unassigned code points there are not WORD_CHAR)
BMP_SIZE = 0x10000
CJK_CODES = tuple(code for first, last in HAN_RANGES for code in range(first, last + 1))
CJK_COUNT = len(CJK_CODES)  # 28,096
CJK_RANK = np.zeros(BMP_SIZE, dtype=np.uint32)  # position of a CJK code point in CJK_CODES (0 elsewhere)
CJK_RANK[list(CJK_CODES)] = np.arange(CJK_COUNT, dtype=np.uint32)
# CRCs remembered per memo (words and CJK bigrams repeat across bodies), emptied when this many are held (~8 MB).
# A lookup costs ~1/4 of encoding and two CRC-32s (en bodies of ../shared/data/dedup: 12.6k distinct words in
# 357k); 65k entries keep the frequent words of a crawl's vocabulary.
CRC_MEMO_SIZE = 1 << 16

_WORD = re.compile(r"\w+")
_NOT_WORD = re.compile(r"\W")


@cache
def _bmp_classes() -> np.ndarray:
    """Flags of every BMP code point, the `\\w` flag taken from `re` itself over all of them (once a process)."""
    not_words_blanked = _NOT_WORD.sub("\0", _bmp_text())  # U+0000 is not `\w` either
    classes = (code_points(not_words_blanked) != 0).astype(np.uint8) * WORD_CHAR
    for first, last in HAN_RANGES:
        classes[first : last + 1] |= CJK_CHAR
    return classes


@lru_cache(maxsize=1 << 12)
def _astral_class(code: int) -> int:
    return WORD_CHAR if _WORD.fullmatch(chr(code)) else 0  # no CJK range lies beyond the BMP


def code_points(text: str) -> np.ndarray:
    """uint32 code points of a text, one per character (lone surrogates kept as their own value)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def classify(codes: np.ndarray) -> np.ndarray:
    """WORD_CHAR | CJK_CHAR flags of each code point."""
    classes = _bmp_classes()[codes & (BMP_SIZE - 1)]
    astral = np.flatnonzero(codes >= BMP_SIZE)
    if astral.size:  # rare (emoji, CJK extension B): asked one distinct code point at a time
        classes[astral] = [_astral_class(code) for code in codes[astral].tolist()]
    return classes


def fold_nfkc_characters(text: str) -> str:
    """Each character that NFKC rewrites on its own replaced by its NFKC, so that an NFKC call after meets a
    normal text and returns from its quick check (see `keywords.normalize_text`), instead of rewriting a whole zh
    body for its full-width commas, at about a tenth of the cost (benchmarks/near_duplicate_features_ab.py). The
    NFKC of the text is unchanged: a character and its own NFKC have the same full decomposition, so swapping one
    for the other anywhere leaves the text's NFKC as it was."""
    if len(text) < SHORT_TEXT:
        return _fold_short(text)
    codes = code_points(text)
    one_char, several_chars = _nfkc_of_bmp()
    in_bmp = codes < BMP_SIZE
    low = codes & (BMP_SIZE - 1)
    text = np.where(in_bmp, one_char[low], codes).tobytes().decode("utf-32-le", "surrogatepass")
    # rare: "…", "½", emoji, …; in order of code point (sorted, not np.unique: its first call imports numpy.ma, a
    # cost at every crawl's start, benchmarks/near_duplicate_startup.py)
    for code in sorted(set(codes[~in_bmp | several_chars[low]].tolist())):
        char = chr(code)
        if (folded := unicodedata.normalize("NFKC", char)) != char:
            text = text.replace(char, folded)
    return text


# Texts shorter than this are folded by `str.translate` (`_fold_short`): the arrays' fixed cost a call is most of a
# title's fold; on texts of the demo and dedup sets the arrays win from about 64 characters on
# (benchmarks/near_duplicate_features_ab.py).
SHORT_TEXT = 64


def _fold_short(text: str) -> str:
    """`fold_nfkc_characters` character by character: the one-character folds by a translation table, then the
    others in the order of their code points, as the array version does."""
    table, several = _short_fold_tables()
    folded = text.translate(table)
    rare = [char for char in set(text) if char in several or char > "\uffff"]
    for char in sorted(rare):  # the array version's order
        if (replacement := unicodedata.normalize("NFKC", char)) != char:
            folded = folded.replace(char, replacement)
    return folded


@cache
def _short_fold_tables() -> tuple[dict[int, int], frozenset[str]]:
    """`_nfkc_of_bmp` as a translation table of the characters it changes, and the set of those whose NFKC is
    several characters."""
    one_char, several_chars = _nfkc_of_bmp()
    changed = np.flatnonzero(one_char != np.arange(BMP_SIZE, dtype=np.uint32))
    table = dict(zip(changed.tolist(), one_char[changed].tolist(), strict=True))
    return table, frozenset(map(chr, np.flatnonzero(several_chars).tolist()))


@cache
def _nfkc_of_bmp() -> tuple[np.ndarray, np.ndarray]:
    """Per BMP code point: its NFKC when that is one character (else itself), and whether its NFKC is several
    characters (once a process)."""
    one_char = np.arange(BMP_SIZE, dtype=np.uint32)
    several_chars = np.zeros(BMP_SIZE, dtype=bool)
    text = _bmp_text()
    for start in range(0, BMP_SIZE, NFKC_CHUNK):
        # The characters apart (a line feed between two: it composes with none, and a starter stops what comes
        # before it from composing with what comes after), so the chunk is normalised when each of them is.
        if unicodedata.is_normalized("NFKC", "\n".join(text[start : start + NFKC_CHUNK])):
            continue
        for code in range(start, min(start + NFKC_CHUNK, BMP_SIZE)):
            folded = unicodedata.normalize("NFKC", chr(code))
            if len(folded) == 1:
                one_char[code] = ord(folded)
            else:
                several_chars[code] = True
    return one_char, several_chars


# Characters checked at once by `_nfkc_of_bmp`: 98 of the 1,024 chunks of 64 hold a character NFKC changes, so ~6k
# characters are normalised one at a time instead of 65k, at every crawl's start (benchmarks/near_duplicate_startup.py;
# tests/core/near_duplicate/test_body_text.py compares the tables with those of every character normalised alone).
NFKC_CHUNK = 64


def _bmp_text() -> str:
    """Every BMP code point in order (lone surrogates too), from their array (about ten times faster than chr())."""
    return np.arange(BMP_SIZE, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


@dataclass(frozen=True, eq=False)
class BodyText:
    normalized: str  # the body through keywords.normalize_text
    codes: np.ndarray  # its code points
    classes: np.ndarray  # their WORD_CHAR | CJK_CHAR flags

    @classmethod
    def of(cls, normalized: str) -> BodyText:
        codes = code_points(normalized)
        return cls(normalized, codes, classify(codes))

    def words_where(self, inside: np.ndarray) -> list[str]:
        """Maximal runs of the characters where `inside` holds, in text order (`inside` must hold only on `\\w`
        characters, which are never whitespace): the others become spaces and `str.split` cuts the runs, ~2.5x
        faster than `re.findall` on ../shared/data/dedup."""
        return np.where(inside, self.codes, np.uint32(ord(" "))).tobytes().decode("utf-32-le").split()

    @cached_property
    def words(self) -> list[str]:
        """`\\w+` words, as `re.findall(r"\\w+", normalized)`."""
        return self.words_where(self.is_word)

    @cached_property
    def latin_words(self) -> list[str]:
        """`\\w+` words with the CJK ideographs taken out as separators (the non-Chinese words of a zh body)."""
        return self.words_where(self.classes == WORD_CHAR)

    @cached_property
    def is_word(self) -> np.ndarray:
        return (self.classes & WORD_CHAR).astype(bool)

    @cached_property
    def word_codes(self) -> np.ndarray:
        """Code points of the word characters, the words joined without separators."""
        return self.codes[self.is_word]

    @cached_property
    def word_chars(self) -> str:
        return self.word_codes.tobytes().decode("utf-32-le")

    @cached_property
    def cjk_codes(self) -> np.ndarray:
        """Code points of the CJK ideographs, the CJK runs joined without separators."""
        return self.codes[(self.classes & CJK_CHAR).astype(bool)]


class CrcMemo(dict):
    """key → CRC-32 (seed 0) << 32 | CRC-32 (seed 1) of the UTF-8 of its text, computed on first ask."""

    def __init__(self, text_of: Callable[[Hashable], str]) -> None:
        super().__init__()
        self.text_of = text_of

    def __missing__(self, key: Hashable) -> int:
        if len(self) >= CRC_MEMO_SIZE:
            self.clear()
        encoded = self.text_of(key).encode()
        crcs = self[key] = zlib.crc32(encoded) << 32 | zlib.crc32(encoded, 1)
        return crcs

    def pairs(self, keys: list) -> np.ndarray:
        return np.fromiter(map(self.__getitem__, keys), dtype=np.uint64, count=len(keys))


WORD_CRCS = CrcMemo(str)
