"""The default method's region choice: split bodies, headline items, captions, class hints, scripts."""

from __future__ import annotations

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree
from newscorpus.core.extraction.headline import find_headline
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.punctuation import punctuation_ratio
from newscorpus.core.extraction.region import choose_region

EN_PARAGRAPHS = [
    f"Paragraph {n} of the council story says the vote was close, and members argued for an hour before "
    "the chair called the question, which passed by one vote."
    for n in range(1, 7)
]
ZH_PARAGRAPHS = [
    f"第{n}段：市政府今天召开新闻发布会，介绍了今年城市交通改善计划的进展情况，"
    "有关负责人表示，新的公交线路将在下个月开通，市民出行将更加方便。"
    for n in range(1, 7)
]


def _page(title: str, body: str, tail: str = "") -> str:
    return (
        f"<html><head><title>{title} - Example News</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/world'>World</a> <a href='/sport'>Sport</a></nav>"
        f"{body}{tail}<footer>Copyright 2024 Example News. All rights reserved.</footer></body></html>"
    )


def _sections(paragraphs: list[str], per_section: int = 2) -> str:
    """A body split into sibling sections with an ad box between them (as some news sites render it)."""
    parts = []
    for start in range(0, len(paragraphs), per_section):
        chunk = "".join(f"<p class='para'>{p}</p>" for p in paragraphs[start : start + per_section])
        parts.append(f"<section class='companion'><div class='col'>{chunk}</div></section>")
        parts.append("<div class='advert'>Advertisement</div>")
    return "<article>" + "".join(parts) + "</article>"


def test_body_split_over_sibling_sections_is_taken_whole_en() -> None:
    page = _page("Council vote", "<h1>Council vote</h1>" + _sections(EN_PARAGRAPHS))
    body = extract(page).body
    assert body.split("\n") == EN_PARAGRAPHS


def test_body_split_over_sibling_sections_is_taken_whole_zh() -> None:
    page = _page("交通计划", "<h1>交通计划</h1>" + _sections(ZH_PARAGRAPHS, per_section=3))
    body = extract(page).body
    assert body.split("\n") == ZH_PARAGRAPHS


def test_widening_stops_at_teasers_of_another_make() -> None:
    teasers = "".join(
        f"<div class='teaser'><h3><a href='/a{n}'>Other story {n}</a></h3><span>{n} hours ago</span>"
        f"<div class='dek'>Another story summary number {n}, short and punctuated.</div></div>"
        for n in range(8)
    )
    page = _page(
        "Council vote", "<div class='wrap'><h1>Council vote</h1>" + _sections(EN_PARAGRAPHS) + teasers + "</div>"
    )
    body = extract(page).body
    assert "Paragraph 6" in body
    assert "Other story" not in body and "summary number" not in body


def test_headline_item_is_chosen_over_longer_teasers_zh() -> None:
    article = "<p>据新华社报道，今天上午，城市第一条无人驾驶公交线路正式开通运营。</p>"
    longer = "".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS)
    body_html = (
        "<div class='list'>"
        "<h1 class='article__title'>无人驾驶公交线路开通</h1>"
        f"<div class='article'>{article}</div>"
        "<h1 class='article__title'>另一篇文章的标题很长很长</h1>"
        f"<div class='article'>{longer}</div>"
        "</div>"
    )
    page = _page("无人驾驶公交线路开通", body_html)
    result = extract(page)
    assert result.body == "据新华社报道，今天上午，城市第一条无人驾驶公交线路正式开通运营。"
    assert "无人驾驶公交线路开通" not in result.body.split("\n")  # the headline is not body


def test_headline_needs_a_stated_title() -> None:
    root = parse_html(
        "<html><head><title>Site</title></head><body><h1>Section</h1><p>Text here, yes.</p></body></html>"
    )
    clean_tree(root)
    assert find_headline(build_blocks(root), ("Site",)) is None
    assert find_headline(build_blocks(root), ()) is None


def test_without_a_matching_headline_the_whole_page_is_scored() -> None:
    root = parse_html(
        _page("Nothing alike", "<h1>Council vote</h1><div>" + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS) + "</div>")
    )
    clean_tree(root)
    choice = choose_region(build_blocks(root), titles=("Nothing alike - Example News",))
    assert choice.headline is None
    assert choice.lines[-1] == EN_PARAGRAPHS[-1]


def test_captions_and_credit_boxes_are_dropped() -> None:
    body_html = (
        "<article>"
        f"<p>{EN_PARAGRAPHS[0]}</p>"
        "<figure><figcaption>The chair, at the meeting on Tuesday. Photo: J. Doe, Example News</figcaption></figure>"
        f"<p>{EN_PARAGRAPHS[1]}</p>"
        "<div class='image-credit'>Getty Images, for Example News.</div>"
        f"<p>{EN_PARAGRAPHS[2]}</p>"
        "</article>"
    )
    body = extract(_page("Council vote", body_html)).body
    assert body.split("\n") == EN_PARAGRAPHS[:3]


def test_paragraph_with_a_widget_class_of_its_own_is_kept() -> None:
    body_html = "<article>" + "".join(f"<p class='selectionShareable'>{p}</p>" for p in EN_PARAGRAPHS[:3])
    body_html += "<div class='share-bar'>Share this, on every network you use.</div></article>"
    body = extract(_page("Council vote", body_html)).body
    assert body.split("\n") == EN_PARAGRAPHS[:3]


def test_arabic_and_devanagari_sentence_marks_count_as_punctuation() -> None:
    assert punctuation_ratio("قال الوزير، إن المشروع سيبدأ قريبا؟") > 0
    assert punctuation_ratio("यह एक वाक्य है।") > 0


def test_the_tuned_constants_follow_the_language_of_the_page() -> None:
    from newscorpus.core.extraction import region

    def blocks(paragraphs: list[str]) -> list:
        root = parse_html(_page("Story", "".join(f"<p>{p}</p>" for p in paragraphs)))
        clean_tree(root)
        return build_blocks(root)

    assert region.page_language(blocks(ZH_PARAGRAPHS)) == "zh"
    assert region.page_language(blocks(EN_PARAGRAPHS)) == "en"
    module_values = {
        "EXPAND_PROSE_SHARE": region.EXPAND_PROSE_SHARE,
        "SIBLING_SHARE": region.SIBLING_SHARE,
        "SIMILAR_FROM_SHARE": region.SIMILAR_FROM_SHARE,
    }
    assert region.tuned_constants("en") == module_values
    assert region.tuned_constants(None) == module_values  # a language it cannot tell
    assert region.tuned_constants("ru") == module_values  # a language without values of its own
    assert region.tuned_constants("zh") == module_values | region.LANGUAGE_CONSTANTS["zh"]


def test_the_pages_language_is_its_prose_not_its_code() -> None:
    from newscorpus.core.extraction import region

    code = "\n".join(f"def handler_{n}(request, response):\n    return response.write(request.body)" for n in range(30))
    root = parse_html(_page("用 Python 写一个简单的服务器", "".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS)
                            + f"<pre><code>{code}</code></pre>"))
    clean_tree(root)
    assert region.page_language(build_blocks(root)) == "zh"
