"""The pure line-noise core: normalisation, the paper's thresholds, pruning, guard rails, cleaning."""

from __future__ import annotations

import pytest

from newscorpus.core.line_noise import (
    GUARD_RAIL,
    HEADING,
    LINKS,
    POSITION_RULES,
    InMemoryLineStats,
    LineFacts,
    LineNoiseConfig,
    SiteFacts,
    a_code_line,
    a_heading,
    allow_listed,
    article_hashes,
    clean_body,
    guard_rail,
    is_noise,
    kept_because,
    line_hash,
    mid_body_minority,
    no_text,
    noise_threshold,
    normalise_line,
    not_frequent,
    should_prune,
)

PAPER = LineNoiseConfig(min_articles=1, min_share=0)   # the paper's rule alone


def test_normalisation_folds_width_case_digits_punctuation_and_spaces():
    assert normalise_line("  © 2024 Demo News.  All rights   reserved. ") == "0 demo news all rights reserved"
    assert normalise_line("Copyright © 1999 DEMO NEWS, all rights reserved") == \
        normalise_line("copyright 2026 Demo News all rights reserved!")
    # Full-width letters, digits, punctuation and the ideographic space fold to their half-width forms.
    assert normalise_line("ＡＢＣ　１２３，") == "abc 0"
    assert normalise_line("责任编辑：李明　【纠错】") == normalise_line("责任编辑:李明 [纠错]") == "责任编辑李明 纠错"
    assert normalise_line("阅读 1234 次") == normalise_line("阅读 56 次") == "阅读 0 次"
    assert normalise_line("—— * ——") == ""


def test_view_counters_and_dates_hash_the_same():
    first, again = normalise_line("Last updated at 10:08 GMT"), normalise_line("Last updated at 13:25 GMT")
    assert line_hash(first) == line_hash(again)
    assert line_hash(normalise_line("浏览次数：1234")) == line_hash(normalise_line("浏览次数：5678"))
    assert line_hash(normalise_line("如果你对新闻频道有任何意见或建议，请到交流平台反馈。")) != \
        line_hash(normalise_line("如果你对体育频道有任何意见或建议，请到交流平台反馈。"))


def test_article_hashes_are_distinct_sorted_and_skip_empty_lines():
    hashes, samples = article_hashes("Share this\n\nBody line one.\nShare this!\n***\n正文第二段。")
    assert len(hashes) == 3 and [h.bytes for h in hashes] == sorted(h.bytes for h in hashes)
    assert set(samples) == {"Share this", "Body line one.", "正文第二段。"}


@pytest.mark.parametrize(("articles_seen", "threshold"), [(0, 1), (10, 1), (49, 1), (50, 2), (99, 2), (100, 3)])
def test_paper_threshold_int_of_1_plus_rc_over_l(articles_seen, threshold):
    assert noise_threshold(articles_seen, 50) == threshold


def test_noise_rule_at_rc_10_49_50_100():
    # The paper's rule alone: LC > int(1 + RC / 50).
    assert not is_noise(1, 10, PAPER) and is_noise(2, 10, PAPER)
    assert not is_noise(1, 49, PAPER) and is_noise(2, 49, PAPER)
    assert not is_noise(2, 50, PAPER) and is_noise(3, 50, PAPER)
    assert not is_noise(3, 100, PAPER) and is_noise(4, 100, PAPER)
    # Ours (default): also at least 3 articles, so under 50 articles a line seen in 3 is noise, not in 2 ...
    default = LineNoiseConfig()
    assert not is_noise(2, 10, default) and is_noise(3, 10, default)
    # ... and in at least a fifth of the site's articles: a line in a minority of them is content.
    assert not is_noise(9, 49, default) and is_noise(10, 49, default)
    assert not is_noise(19, 100, default) and is_noise(20, 100, default)


def test_prune_rule_lc_at_most_one_percent_of_rc():
    assert should_prune(1, 100) and not should_prune(2, 100)
    assert should_prune(50, 5000) and not should_prune(51, 5000)


def words(number: int) -> str:
    """A distinct letters-only word per number (digits would all normalise to 0)."""
    letters = ""
    while number:
        number, rest = divmod(number, 26)
        letters += chr(97 + rest)
    return letters


def test_pruning_keeps_the_table_bounded():
    stats = InMemoryLineStats(LineNoiseConfig(prune_interval=100))
    boilerplate = "责任编辑：李明\nShare this article"
    sizes = []
    for number in range(1, 2001):
        word = words(number)
        stats.process("site", f"{boilerplate}\nUnique story line {word} about topic.\n独有的一行{word}号")
        if number % 500 == 0:
            sizes.append(len(stats.counts["site"]))
    assert stats.articles_seen["site"] == 2000
    assert max(sizes) < 300            # without pruning: 2 x 2000 unique lines
    assert sizes[-1] <= sizes[0] + 50  # near constant as the site grows
    assert stats.counts["site"][article_hashes("Share this article")[0][0]] == 2000


def test_cleaning_removes_repeated_lines_in_chinese_and_english_and_keeps_the_rest():
    stats = InMemoryLineStats()
    cleaned = []
    for number in range(1, 6):
        opening = f"第{number}篇新闻的正文，内容各不相同，编号{chr(0x4e00 + number)}。" * 4
        zh = f"{opening}\n责任编辑：李明\n如果你对新闻频道有任何意见或建议，请到交流平台反馈。"
        en = f"Story {chr(65 + number)} tells something else entirely. " * 4 + "\nShare this article\n© 2026 Demo News"
        cleaned.append((stats.process("zh", zh), stats.process("en", en)))
    # Articles 1 and 2 came before the lines were known; from the 3rd on, the repeated lines are gone.
    assert cleaned[0][0].removed == () and cleaned[1][1].removed == ()
    for zh, en in cleaned[2:]:
        assert zh.body.startswith("第") and "责任编辑" not in zh.body and "交流平台" not in zh.body
        assert en.body.startswith("Story") and "Share" not in en.body and "©" not in en.body
    # Re-cleaning with the mature statistics cleans the first articles too.
    first = stats.reclean("zh", "第1篇新闻的正文，内容各不相同，编号丁。" * 4 + "\n责任编辑：李明")
    assert first.body == "第1篇新闻的正文，内容各不相同，编号丁。" * 4 and len(first.removed) == 1


def test_guard_rail_keeps_a_line_that_is_most_of_a_short_article_until_many_articles_agree():
    body = "Short note.\nThis very long repeated line is most of this short article body text."
    digest = article_hashes("This very long repeated line is most of this short article body text.")[0][0]
    kept = clean_body(body, {digest: 5}, 10)
    assert kept.body == body and kept.guarded == 1
    removed = clean_body(body, {digest: 10}, 10)
    assert removed.body == "Short note." and removed.guarded == 0
    # In a long article the same line is a small share: the paper's rule applies at once.
    long_body = "\n".join(["A body paragraph long enough to dominate the article text. " * 3] * 3 + [body])
    assert clean_body(long_body, {digest: 5}, 10).guarded == 0


def test_allow_list_and_everything_removed():
    body = "Share this article\nFollow us"
    counts = {h: 9 for h in article_hashes(body)[0]}
    assert clean_body(body, counts, 20, LineNoiseConfig(guard_articles=5)).body == ""
    allowed = [article_hashes("Follow us")[0][0]]
    assert clean_body(body, counts, 20, LineNoiseConfig(guard_articles=5), allowed).body == "Follow us"


def test_config_is_checked():
    with pytest.raises(ValueError, match="per_articles"):
        LineNoiseConfig(per_articles=0)
    with pytest.raises(ValueError, match="guard_share"):
        LineNoiseConfig(guard_share=0)


def test_each_keeping_rule_answers_alone_with_its_reason():
    digest = line_hash("share this")
    site = SiteFacts(articles_seen=100, config=LineNoiseConfig(), allowed={digest}, body_chars=1000)
    line = LineFacts("Share this", digest, articles=60, kind=None)
    assert no_text(LineFacts("——", None, 0, None), site) == "no text"
    assert allow_listed(line, site) == "allow-listed"
    assert not_frequent(LineFacts("rare", line_hash("rare"), 2, None), site) == "not frequent"
    assert not_frequent(line, site) is None
    assert a_heading(LineFacts("Related", line_hash("related"), 60, HEADING), site) == "heading"
    assert a_code_line(LineFacts("int x = 1;", line_hash("int x 0"), 60, None), site) == "code"
    assert mid_body_minority(LineFacts("Read more", digest, 30, None), site) is not None
    assert mid_body_minority(LineFacts("Read more", digest, 30, LINKS), site) is None
    assert mid_body_minority(LineFacts("Read more", digest, 30, None, at_edge=True), site) is None
    assert guard_rail(LineFacts("x" * 300, digest, 5, None), site) == GUARD_RAIL
    assert guard_rail(LineFacts("x" * 300, digest, 10, None), site) is None


def test_the_first_rule_of_a_table_that_keeps_a_line_gives_the_reason():
    site = SiteFacts(articles_seen=100, config=LineNoiseConfig(), allowed=set(), body_chars=100)
    small_mid_body = LineFacts("Read more", line_hash("read more"), 5, None)
    assert kept_because(POSITION_RULES, small_mid_body, site) == "mid-body, in a minority of the site's articles"
    assert kept_because(POSITION_RULES, LineFacts("x" * 30, line_hash("x"), 5, None, at_edge=True),
                        site) == GUARD_RAIL
    assert kept_because(POSITION_RULES, LineFacts("Read more", line_hash("read more"), 60, None), site) is None
