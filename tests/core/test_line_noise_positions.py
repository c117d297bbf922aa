"""Where a frequent line stands decides whether it is noise: code, headings, and lines in a minority of
a site's articles are content; boilerplate is the site's lines in the start/end runs or lines of links."""

from __future__ import annotations

from newscorpus.core.line_noise import InMemoryLineStats, LineNoiseConfig, article_hashes, clean_body, is_text

FOOTER = "转载本站文章请注明作者和出处，请勿用于任何商业用途"
RATING = "(12 人打了分，平均分： 3.58 )"


def post(number: int, middle: list[str]) -> str:
    opening = f"第{number}篇文章讲一个小技巧，编号{chr(0x4e00 + number)}，内容和别的文章都不一样。"
    return "\n".join([RATING, opening, *middle, f"结尾{chr(0x4e00 + number)}：这篇就写到这里。", FOOTER])


def test_code_lines_the_site_repeats_stay_and_the_boilerplate_goes():
    stats = InMemoryLineStats()
    code = ["#include <stdio.h>", "int main()", "{", "    return 0;", "}"]
    results = []
    for number in range(1, 41):
        middle = code if number % 2 else [f"第{number}段正文，没有代码。"]
        kinds = "pp" + ("ccccc" if number % 2 else "p") + "pp"
        results.append(stats.process("blog", post(number, middle), kinds))
    last = results[-2]  # a post with code, the statistics mature (code in half the posts)
    assert "return 0;" in last.body and "#include <stdio.h>" in last.body and "int main()" in last.body
    assert RATING not in last.body and FOOTER not in last.body
    # Without markup (kinds unknown) the text still reads as code for lines ending in ; { }.
    again = stats.reclean("blog", post(39, code))
    assert "    return 0;" in again.body and "#include <stdio.h>" in again.body


def test_a_heading_many_posts_share_is_content_unless_it_titles_removed_boilerplate():
    stats = InMemoryLineStats()
    for number in range(1, 31):
        body = post(number, ["总结", f"总结第{number}篇：记住这一点。"]) + "\n相关文章"
        cleaning = stats.process("blog", body, "pphppph")  # rating, opening, 总结 (h2), its text, end, footer, h3
    assert "总结" in cleaning.body.split("\n")  # a shared heading over the post's own text
    assert "相关文章" not in cleaning.body     # the body ends with it, over nothing: it titled boilerplate


def test_a_recurring_sentence_in_a_minority_of_articles_is_content():
    """A newsroom's election stories all say when polls open; they are a tenth of its articles."""
    stats = InMemoryLineStats()
    polls = "Polls open at 7 a.m. and close at 8 p.m.; voters in line at 8 p.m. may still vote."
    last_election = None
    for number in range(1, 201):
        story = f"Story {number:03d} reports on topic {chr(65 + number % 26)}{chr(65 + number // 26)} in detail."
        election = number % 10 == 0
        lines = [story, polls, "Read more local news"] if election else [story, "Read more local news"]
        cleaning = stats.process("news", "\n".join(lines), "ppl" if election else "pl")
        if election:
            last_election = cleaning
    assert polls in last_election.body
    assert "Read more local news" not in last_election.body


def test_a_mid_body_line_needs_a_majority_and_an_edge_line_a_fifth():
    lines = ["Own lead paragraph of this article.", "Advertisement", "Own second paragraph.", "Share this"]
    body = "\n".join(lines)
    counts = {digest: 30 for digest in article_hashes("Advertisement\nShare this")[0]}
    cleaned = clean_body(body, counts, 100)  # both in 30 % of 100 articles
    assert cleaned.body == "\n".join(lines[:3])  # the end run goes, the mid-body line stays
    counts = {digest: 60 for digest in article_hashes("Advertisement\nShare this")[0]}
    assert clean_body(body, counts, 100).body == "\n".join([lines[0], lines[2]])  # a majority: noise anywhere
    # A line of links is a boilerplate position anywhere in the body.
    counts = {digest: 30 for digest in article_hashes("Advertisement\nShare this")[0]}
    assert clean_body(body, counts, 100, kinds="plpp").body == "\n".join([lines[0], lines[2]])


def test_copies_of_one_post_do_not_make_its_lines_noise():
    """An ad-hoc crawl that fetched each post many times (?replytocom=): a post's own lines are in its copies
    only, a minority of the site's articles, so they stay; the copies' bodies keep their text."""
    stats = InMemoryLineStats()
    posts = [post(n, [f"第{n}篇的代码如下：", "}"]) for n in range(1, 31)]
    results = []
    for _copy in range(5):
        for body in posts:
            results.append(stats.process("blog", body))
    for cleaning in results[-30:]:
        assert is_text(cleaning.body) and "篇文章讲一个小技巧" in cleaning.body


def test_only_text_is_an_article():
    assert not is_text("}\n}") and not is_text("—— * ——\n……") and not is_text("")
    assert not is_text("return 0;\n}")  # under the extractor's 20 characters
    assert is_text("一季度经济运行总体平稳，主要指标好于预期。")
    assert is_text("The council voted to expand the bus network.")


def test_min_share_and_mid_body_share_are_checked():
    import pytest

    with pytest.raises(ValueError, match="min_share"):
        LineNoiseConfig(min_share=1.5)
    with pytest.raises(ValueError, match="mid_body_share"):
        LineNoiseConfig(mid_body_share=-0.1)
