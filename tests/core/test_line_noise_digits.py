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


def test_a_short_post_loses_the_rating_widget_its_own_line_stays():
    """In a one-line post the widget is a large part of the body, yet the post's own text is most of it."""
    stats = InMemoryLineStats()
    related = "相关文章"

    def post(number: int, own: list[str]) -> str:
        return "\n".join([*own, related, f"({number % 40 + 3} 人打了分，平均分： {number % 3 + 2}.{number % 97:02d} )"])

    def long_post(number: int) -> list[str]:
        return [f"第{number}篇长文的第{part}段，讲一个和别的文章都不一样的话题{chr(0x4e00 + number * 3 + part)}。" * 3
                for part in range(4)]

    for number in range(60):
        stats.count("blog", post(number, long_post(number)))
    short = f"中文的Google会不会出onebox来劝阻人们翻墙？编号{chr(0x4e00 + 99)}"
    cleaning = stats.reclean("blog", post(99, [short]))
    assert cleaning.body == short
    assert sorted(line for _, line in cleaning.removed)[0].startswith("(")
