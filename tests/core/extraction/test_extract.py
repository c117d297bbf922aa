"""extract(): real bodies in Chinese and English, reasons for non-articles, never raising."""

from __future__ import annotations

import time

import pytest

from newscorpus.core.extraction import Extraction, extract

NAV = "".join(f'<li><a href="/s{i}">栏目{i}</a></li>' for i in range(15))
ZH_PARAGRAPHS = [
    "新华社北京3月5日电，第十四届全国人民代表大会第二次会议今天上午在人民大会堂开幕。",
    "国务院总理作政府工作报告，回顾过去一年的工作，提出今年经济社会发展的总体要求和政策取向。",
    "报告指出，今年发展主要预期目标是：国内生产总值增长百分之五左右，城镇新增就业一千二百万人以上。",
]
ZH_PAGE = f"""<html><head><meta charset="gbk"><title>两会开幕_新闻中心</title></head><body>
<div id="nav"><ul>{NAV}</ul></div>
<div class="main"><h1>两会开幕</h1><div class="content">{"".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS)}</div></div>
<div class="footer"><a href="/about">关于我们</a> | <a href="/contact">联系我们</a> | 版权所有</div>
</body></html>"""

EN_PARAGRAPHS = [
    "The city council voted on Tuesday to expand the bike lane network across the downtown area.",
    "Supporters said the plan would make streets safer, while some shop owners worried about parking.",
    "Construction is expected to begin next spring and will take about eighteen months to complete.",
]
EN_NAV = "".join(f'<a href="/section/{i}">Section {i}</a> ' for i in range(20))
EN_PAGE = f"""<!DOCTYPE html><html><head><title>Council backs bike lanes - The Daily</title></head><body>
<header><nav>{EN_NAV}</nav></header>
<main><article><h1>Council backs bike lanes</h1>
{"".join(f"<p>{p}</p>" for p in EN_PARAGRAPHS)}
</article></main>
<footer><p>Copyright 2024 The Daily. All rights reserved.</p></footer></body></html>"""


def test_chinese_gbk_page_body() -> None:
    result = extract(ZH_PAGE.encode("gbk"), "https://news.example.cn/a/1.html")
    assert isinstance(result, Extraction)
    assert result.is_article, result.reason
    for paragraph in ZH_PARAGRAPHS:
        assert paragraph in result.body.split("\n")
    assert "栏目3" not in result.body
    assert "联系我们" not in result.body
    assert result.language == "zh"
    assert result.encoding == "gb18030"
    assert 0.0 <= result.confidence <= 1.0


def test_english_page_body() -> None:
    result = extract(EN_PAGE, "https://daily.example.com/bikes")
    assert result.is_article
    assert result.body.split("\n")[-3:] == EN_PARAGRAPHS
    assert "Section 3" not in result.body
    assert result.language == "en"
    assert result.encoding is None


def test_short_body_is_kept() -> None:
    page = f"<html><body><div>{NAV}</div><div><p>{ZH_PARAGRAPHS[0]}</p></div></body></html>"
    result = extract(page)
    assert result.is_article
    assert ZH_PARAGRAPHS[0] in result.body


@pytest.mark.parametrize("method", ["default", "punctuation", "blocks"])
def test_every_method_finds_the_body(method: str) -> None:
    result = extract(EN_PAGE, method=method)
    assert result.method == method
    assert EN_PARAGRAPHS[1] in result.body


def test_unknown_method_does_not_raise() -> None:
    result = extract(EN_PAGE, method="nope")
    assert not result.is_article


def test_listing_page() -> None:
    links = "".join(
        f'<li><a href="/n/{i}">Markets rally as investors weigh rate outlook {i}</a></li>' for i in range(40)
    )
    result = extract(f"<html><body><h1>Business</h1><ul>{links}</ul></body></html>")
    assert result.reason == "listing_page"
    assert result.body == ""


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty"),
        ("", "empty"),
        ("   \n ", "empty"),
        (bytes(range(256)) * 40, "not_html"),
        (b"\x89PNG\r\n\x1a\n" + bytes(2000), "not_html"),
        ("<html><body></body></html>", "no_body"),
    ],
)
def test_reasons(data: bytes | str, reason: str) -> None:
    result = extract(data)
    assert result.reason == reason
    assert not result.is_article


def test_broken_markup() -> None:
    page = "<html><body><div><p>" + EN_PARAGRAPHS[0] + "<p>" + EN_PARAGRAPHS[1] + "</div></span></td><b>"
    result = extract(page)
    assert result.is_article
    assert EN_PARAGRAPHS[1] in result.body


def test_deeply_nested_tags_within_time_cap() -> None:
    page = "<html><body>" + "<div>" * 100_000 + "text." + "</div>" * 100_000 + "</body></html>"
    start = time.perf_counter()
    result = extract(page, max_seconds=5.0)
    assert time.perf_counter() - start < 5.0
    assert result.reason is None or result.reason in {"no_body", "timeout"}


def test_50mb_page_is_too_large_quickly() -> None:
    page = b"<html><body>" + b"<p>word word word.</p>" * (50_000_000 // 22) + b"</body></html>"
    start = time.perf_counter()
    result = extract(page)
    assert time.perf_counter() - start < 1.0
    assert result.reason == "too_large"


def test_time_cap_reports_timeout() -> None:
    result = extract(EN_PAGE, max_seconds=0.0)
    assert result.reason == "timeout"


def test_declared_utf8_but_gbk() -> None:
    page = ZH_PAGE.replace('charset="gbk"', 'charset="utf-8"').encode("gbk")
    result = extract(page, content_type="text/html; charset=utf-8")
    assert result.is_article
    assert ZH_PARAGRAPHS[1] in result.body
