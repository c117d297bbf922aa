"""Bot walls: a challenge, captcha or access-denied page answered with 200 instead of the article.

Such a page is no article (outcome ``bot_wall``), and a site giving many of them is blocking the crawl (the
crawl warns). Each rule is small and named; every rule needs a page with little text, so an article that quotes
"Just a moment" or talks about captchas is never taken for a wall."""

from __future__ import annotations

import re
from collections.abc import Callable

# A wall says a sentence or two; the shortest labelled article page of ../shared/data has 150+ characters of
# body among 1,000+ of page text, and the challenge pages we know (Cloudflare, Akamai, Incapsula, DataDome,
# 163/sina/qq's 安全验证) have under 600 characters of visible text.
MAX_WALL_CHARS = 1200
# A phrase alone ("captcha", "请完成安全验证") is a wall only in a page of a sentence or two: a 300-character
# Chinese news brief can quote one.
MAX_PHRASE_PAGE_CHARS = 400

_TITLES = re.compile(
    r"^\s*(just a moment|attention required|access denied|access to this page has been denied|"
    r"pardon our interruption|are you a (robot|human)|robot check|checking your browser|ddos-guard|"
    r"security check|403 forbidden|请稍候|安全验证|人机验证|验证码|访问验证|访问受限|访问被拒绝)"
    r"\s*([.…!！|｜\-–—_:：].*)?$",    # the whole title, or it and a site's name ("Attention Required! | Cloudflare")
    re.IGNORECASE)
_CHALLENGE = re.compile(
    r"(enable javascript and cookies to continue|checking (if the site connection is secure|your browser)|"
    r"verify (that )?you are (a )?human|complete the security check|you don't have permission to access|"
    r"request unsuccessful\. incapsula|captcha|请完成(下方)?安全验证|请输入验证码|滑动(滑块)?验证|拖动滑块|"
    r"人机验证|访问过于频繁|您的访问出现异常)",
    re.IGNORECASE)


def _challenge_title(title: str, text: str) -> bool:
    return bool(_TITLES.match(title))


def _challenge_text(title: str, text: str) -> bool:
    return len(text) <= MAX_PHRASE_PAGE_CHARS and _CHALLENGE.search(text) is not None


RULES: tuple[tuple[str, Callable[[str, str], bool]], ...] = (
    ("challenge_title", _challenge_title),
    ("challenge_text", _challenge_text),
)


def bot_wall(title: str | None, text: str) -> str | None:
    """The name of the rule that takes a page of ``text`` (its visible text) titled ``title`` for a bot wall,
    else None."""
    if len(text) > MAX_WALL_CHARS:
        return None
    for name, rule in RULES:
        if rule(title or "", text):
            return name
    return None
