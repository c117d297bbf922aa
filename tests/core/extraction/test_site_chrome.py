"""Site chrome around a short article: e-mail sign-up boxes and <footer>/<nav>/<aside> landmarks do not
compete with the article."""

from __future__ import annotations

from newscorpus.core.extraction import extract, region
from newscorpus.core.extraction.block_tree import build_blocks
from newscorpus.core.extraction.cleaning import clean_tree, signup_box
from newscorpus.core.extraction.parse import parse_html

EN_CAPTION = "The actor explains, in some detail, how the prosthetic head for the series was made."
EN_PARAGRAPHS = [
    f"Paragraph {n} of the council story says the vote was close, and members argued for an hour before "
    "the chair called the question, which passed by one vote."
    for n in range(1, 4)
]
ZH_STORY = "昨天下午，市议会就新的公交线路进行表决，议员们讨论了一个小时，最后以一票之差通过。"

SIGNUP_EN = (
    "<div class='py-9 px-6'><div class='font-bold'>The biggest stories of the day delivered to your inbox.</div>"
    "<form><input type='email' placeholder='Email Address'><button>Subscribe</button></form>"
    "<div class='mt-4'>This newsletter may contain advertising, deals, or affiliate links. Subscribing to a "
    "newsletter indicates your consent to our Terms of Use and Privacy Policy, and you may unsubscribe at any "
    "time.</div><div class='header-300'>Thanks for signing up. See you at your inbox!</div></div>"
)
SIGNUP_ZH = (
    "<section class='box'><div>订阅我们的每日新闻简报，每天早上把最重要的新闻发到您的邮箱。</div>"
    "<form><input type='EMAIL'><button>订阅</button></form>"
    "<div>订阅即表示您同意我们的服务条款和隐私政策，您可以随时取消订阅，我们不会向第三方提供您的邮箱。</div></section>"
)
FOOTER_EN = (
    "<footer><div class='my-8'><div class='max-w-3xl'>Example Media supports the mission to increase diversity in "
    "media voices and media ownership, and our coverage reflects it every day.</div>"
    "<div class='font-sans'>©2005–2024 Example Media, Inc. All Rights Reserved, in every country of the world.</div>"
    "<div class='font-sans'>Example is a registered trademark and may not be used by third parties without "
    "express written permission.</div></div></footer>"
)


def _texts(html: str) -> list[str]:
    root = parse_html(html)
    clean_tree(root)
    return [block.text for block in build_blocks(root) if block.text]


def test_an_email_signup_box_is_removed_en() -> None:
    page = f"<html><body><article><p>{EN_PARAGRAPHS[0]}</p>{SIGNUP_EN}<p>{EN_PARAGRAPHS[1]}</p></article></body></html>"
    assert _texts(page) == [EN_PARAGRAPHS[0], EN_PARAGRAPHS[1]]


def test_an_email_signup_box_is_removed_zh() -> None:
    page = f"<html><body><div class='text'><p>{ZH_STORY}</p>{SIGNUP_ZH}</div></body></html>"
    assert _texts(page) == [ZH_STORY]


def test_the_box_stops_below_an_ancestor_holding_the_article() -> None:
    # The field's nearest containers are the box; the article around it is too long to be part of it.
    article = "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS * 3)
    box = "<div id='b'><form><input type='email'></form></div>"
    root = parse_html(f"<html><body><div id='a'>{article}{box}</div></body></html>")
    field = root.xpath("//input")[0]
    assert signup_box(field.getparent()).get("id") == "b"


def test_other_inputs_are_not_signup_boxes() -> None:
    page = f"<html><body><div><p>{EN_PARAGRAPHS[0]}</p><form><input type='search'></form></div></body></html>"
    assert _texts(page) == [EN_PARAGRAPHS[0]]


def _video_page(after: str) -> str:
    return (
        "<html><head><title>The many heads of the actor | Example</title></head><body>"
        "<header><h1>The many heads of the actor</h1></header>"
        f"<main><article><p>{EN_CAPTION}</p></article></main>{after}</body></html>"
    )


def test_a_short_article_beats_a_signup_box_and_a_footer_en() -> None:
    # Before: the footer's "about us" lines (after the sign-up box's) outscored the one-sentence article.
    assert extract(_video_page(SIGNUP_EN + FOOTER_EN)).body == EN_CAPTION


def test_prose_in_footer_nav_aside_does_not_score() -> None:
    html = _video_page(FOOTER_EN + "<aside><p>" + " ".join(EN_PARAGRAPHS) + "</p></aside>")
    root = parse_html(html)
    clean_tree(root)
    blocks = build_blocks(root)
    chrome = [i for i, b in enumerate(blocks) if b.chars and region.in_site_chrome(blocks, i)]
    assert chrome and all(blocks[i].text != EN_CAPTION for i in chrome)
    assert extract(html).body == EN_CAPTION


def test_a_header_landmark_still_scores_zh() -> None:
    # Some pages put the whole article inside <header>; only footer/nav/aside are site chrome.
    html = (
        "<html><head><title>市议会表决新公交线路</title></head><body>"
        f"<header><div class='content'><p>{ZH_STORY}</p><p>{ZH_STORY}</p></div></header>"
        "<footer><p>版权所有，未经许可不得转载。</p></footer></body></html>"
    )
    assert extract(html).body == f"{ZH_STORY}\n{ZH_STORY}"


def test_an_article_only_in_an_aside_is_still_found_en() -> None:
    html = (
        "<html><body><aside><div class='post'>"
        + "".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS)
        + "</div></aside></body></html>"
    )
    assert extract(html).body.split("\n") == EN_PARAGRAPHS
