"""Regex alternations of plain words ("comment|cookie|disqus"), grouped by first letter so that they match the same
text for less CPU."""

from __future__ import annotations

import re


def grouped_by_first_letter(alternation: str, ignore_case: bool = False, order: str = "") -> str:
    """The same alternation of words ("comment|disqus|cookie|...", no groups inside) with the words that start with
    one letter grouped under it ("c(?:omment|ookie)|d(?:isqus)"), in their order within each group.

    Every word that can match at a position starts with the letter there, and their order is kept, so each match is
    the same; the regex engine tries one group per position instead of every word: half the CPU for the class/id
    hints of the dev sets, and for the month names of dates (benchmarks/extraction_cpu_ab.py;
    tests/core/test_word_patterns.py compares the two forms). `ignore_case`: the pattern is compiled with
    re.IGNORECASE, so no two group letters may match each other then (one text letter would then start words of two
    groups). `order`: the groups of these letters first, in
    this order, the others after them: the engine tries the groups in turn at each position, and no two groups can
    match at one position, so their order changes no match, only how many letters are compared (most common first).
    """
    groups: dict[str, list[str]] = {}
    for word in alternation.split("|"):
        if not word[:1].isalpha() or word[1:2] == "?" or any(char in ".^$*+{}[]()\\" for char in word):
            raise ValueError(f"not a plain word: {word!r}")
        groups.setdefault(word[0], []).append(word[1:])
    if ignore_case:
        letters = list(groups)
        for index, letter in enumerate(letters):
            for other in letters[index + 1:]:
                if re.fullmatch(re.escape(letter), other, re.IGNORECASE):
                    raise ValueError(f"{letter!r} and {other!r} match each other ignoring case")
    letters = sorted(groups, key=lambda letter: order.find(letter) % (len(order) + 1))  # stable: the rest keep theirs
    return "|".join(f"{letter}(?:{'|'.join(groups[letter])})" for letter in letters)
