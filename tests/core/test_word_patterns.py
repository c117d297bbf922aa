"""Word alternations grouped by first letter match what the flat alternations match."""

import random
import re

import pytest

from newscorpus.core.extraction import dates
from newscorpus.core.word_patterns import grouped_by_first_letter


def test_groups_keep_the_order_within_each_letter():
    assert grouped_by_first_letter("ab|ac|b") == "a(?:b|c)|b(?:)"
    assert grouped_by_first_letter("hot-?news|tags?-list|tag") == "h(?:ot-?news)|t(?:ags?-list|ag)"


def test_groups_in_the_order_asked_then_the_others():
    assert grouped_by_first_letter("ab|c|bd|ac|e", order="eb") == "e(?:)|b(?:d)|a(?:b|c)|c(?:)"


@pytest.mark.parametrize("pattern", ["a|(b)", "?a", "a|.b", "a|b.", "a|b\\d", "a|b+"])
def test_refuses_what_is_not_a_plain_word(pattern):
    with pytest.raises(ValueError):
        grouped_by_first_letter(pattern)


def test_refuses_letters_equal_ignoring_case_when_asked():
    assert grouped_by_first_letter("ab|Ac") == "a(?:b)|A(?:c)"
    with pytest.raises(ValueError):
        grouped_by_first_letter("ab|Ac", ignore_case=True)


def _texts(words: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    glue = [" ", "", ", ", ". ", "-", "st ", "th of ", " de "]
    numbers = ["1", "12", "2024", "1999", "31", "05", "2021年", "3"]
    return ["".join(rng.choice(words + numbers + glue)[: rng.randint(1, 12)] if rng.random() < 0.3
                    else rng.choice(words + numbers + glue) for _ in range(rng.randint(1, 10))) for _ in range(count)]


def test_grouped_hint_words_match_the_flat_alternation():
    from newscorpus.core.extraction import class_hints

    flat = re.compile(f"{class_hints.NEGATIVE_HINT.pattern.lower()}|{class_hints.POSITIVE_HINT.pattern.lower()}")
    words = flat.pattern.replace("?", "").split("|")
    samples = _texts(words, 4000, 5) + ["mainav footer commentary tagslist tag-list hotnews hot-news"]
    for sample in samples:
        assert [m.span() for m in class_hints._HINT_WORDS.finditer(sample)] == \
            [m.span() for m in flat.finditer(sample)], sample


def test_grouped_month_names_match_the_flat_alternation():
    flat_month = "(" + "|".join(sorted(map(re.escape, dates.MONTHS), key=len, reverse=True)) + r")\.?"
    words = list(dates.MONTHS) + [word.upper() for word in dates.MONTHS] + [word.title() for word in dates.MONTHS]
    rng = random.Random(9)
    shapes = ["{m} {d}, {y}", "{d} {m} {y}", "{y} {m} {d}", "updated: {m} {y}", "{d}th of {m}, {y}", "{m}. {d} {y}",
              "{d}-{m}-{y}", "on {m} {d}th {y} at 2:04 p.m.", "x{m} {d} {y}", "{m}{d} {y}", "{d} {m}x {y}"]
    samples = [rng.choice(shapes).format(m=rng.choice(words)[: rng.choice([2, 3, 4, 20, 20])],
                                         d=rng.randint(1, 32), y=rng.choice([1989, 1999, 2024, 2031]))
               for _ in range(4000)]
    samples += _texts(words, 1000, 9) + ["May 20, 2024", "20 Juli 2014", "2023 Jan 7", "5 de mayo de 2024",
                                        "29th of December, 2019", "Sept. 3, 2021", "3 ŞUBAT 2020"]
    for name in ("MONTH_FIRST", "DAY_FIRST", "YEAR_MONTH_DAY", "LABELLED_MONTH"):
        grouped = getattr(dates, name)
        assert dates._MONTH in grouped.pattern
        flat = re.compile(grouped.pattern.replace(dates._MONTH, flat_month), grouped.flags)
        assert sum(1 for sample in samples if grouped.search(sample)) > 100, name  # the samples do hold dates
        for sample in samples:
            assert [m.groups() for m in grouped.finditer(sample)] == [m.groups() for m in flat.finditer(sample)], \
                (name, sample)
