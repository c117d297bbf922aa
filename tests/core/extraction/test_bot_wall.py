"""Bot walls (challenge, captcha, access-denied pages answered with 200) are no article; an article that talks
about them is still one."""

from __future__ import annotations

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.bot_wall import bot_wall

WALLS = {
    "cloudflare": ("<title>Just a moment...</title>", "<h1>127.0.0.1</h1><p>Checking if the site connection is "
                   "secure</p><p>Enable JavaScript and cookies to continue</p>"),
    "akamai": ("<title>Access Denied</title>", "<h1>Access Denied</h1><p>You don't have permission to access "
               "\"http://example.com/news/1.html\" on this server.</p><p>Reference #18.6f2</p>"),
    "captcha": ("<title>Security check</title>", "<p>Please verify you are a human.</p><div class=g-recaptcha>"
                "</div>"),
    "zh_slider": ("<title>安全验证</title>", "<p>请完成下方安全验证后继续访问</p><p>拖动滑块完成拼图</p>"),
    "zh_busy": ("<title>提示</title>", "<p>您的访问出现异常，请输入验证码后继续。</p>"),
}


@pytest.mark.parametrize("name", sorted(WALLS))
def test_a_wall_is_no_article(name):
    title, body = WALLS[name]
    result = extract(f"<html><head>{title}</head><body>{body}</body></html>".encode(), "http://example.com/a.html")
    assert result.reason == "bot_wall" and result.outcome == "bot_wall" and result.body == ""


def test_an_article_about_captchas_and_cloudflare_is_an_article():
    paragraph = ("When readers saw the page saying Just a moment while Cloudflare checked their browser, many left; "
                 "the captcha that followed asked them to verify you are human, the newsroom said on Monday. ")
    html = (f"<html><head><title>Why readers leave at the captcha</title></head><body><article>"
            f"<h1>Why readers leave at the captcha</h1>{''.join(f'<p>{paragraph * 2}</p>' for _ in range(4))}"
            f"</article></body></html>")
    result = extract(html.encode(), "http://example.com/b.html")
    assert result.is_article and "captcha" in result.body
    zh = "当读者看到请完成安全验证的页面时，很多人离开了；报社周一表示，滑动验证让老年读者尤其困扰。"
    page = (f"<html><head><title>安全验证劝退读者</title></head><body><article><h1>安全验证劝退读者</h1>"
            f"{''.join(f'<p>{zh * 3}</p>' for _ in range(4))}</article></body></html>")
    assert extract(page.encode(), "http://example.com/c.html").is_article


def test_the_rules_need_a_short_page():
    assert bot_wall("Just a moment...", "x" * 100) == "challenge_title"
    assert bot_wall("News", "please complete the captcha") == "challenge_text"
    assert bot_wall("Just a moment...", "x" * 5000) is None
    assert bot_wall("The moment we met", "a short poem") is None
    assert bot_wall("安全验证劝退读者", "x" * 500) is None                # a headline about walls
    assert bot_wall("Attention Required! | Cloudflare", "x" * 500) == "challenge_title"
