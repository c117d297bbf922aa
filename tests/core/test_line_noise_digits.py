"""Lines that differ only in their digits (scores, rates, weather) are each bulletin's own text; a footer the site
repeats word for word, its year included, is still noise."""

from __future__ import annotations

from newscorpus.core.line_noise import InMemoryLineStats, digits_hash, is_text, line_hash, normalise_line

FOOTER = ["Copyright 2026 Example News. All rights reserved.", "© 2026"]


def bulletin(number: int) -> list[str]:
    return [f"上证指数 {3000 + number * 7 % 900:,}.{number % 100:02d} 点，涨 {number % 5}.{number % 97:02d}%",
            f"Score: Arsenal {number % 6} Chelsea {number // 6 % 5}, attendance {40000 + number * 13}",
            f"Weather: {number % 35} °C, wind {number % 17} km/h, humidity {number % 90 + 10}%"][: 3 + number % 2]


def test_bulletins_that_differ_only_in_digits_keep_every_line_and_the_footer_goes():
    stats = InMemoryLineStats()
    for number in range(300):
        stats.count("bulletins", "\n".join(bulletin(number) + FOOTER))
    for number in range(300):
        cleaning = stats.reclean("bulletins", "\n".join(bulletin(number) + FOOTER))
        assert cleaning.body.split("\n") == bulletin(number), number
        assert is_text(cleaning.body)
        assert sorted(line for _, line in cleaning.removed) == sorted(FOOTER)


def test_a_line_with_digits_is_hashed_twice_and_a_line_without_once():
    assert digits_hash("Score: Arsenal 2 Chelsea 1") != digits_hash("Score: Arsenal 3 Chelsea 1")
    assert digits_hash("Score: Arsenal 2 Chelsea 1") != line_hash(normalise_line("Score: Arsenal 2 Chelsea 1"))
    assert digits_hash("Share this story") is None
