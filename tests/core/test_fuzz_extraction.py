"""Fuzzing the extraction and decoding cores: any bytes or text in, an Extraction out, never an exception,
within a bounded time (a generous multiple of the per-page cap; speed itself is measured in benchmarks)."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newscorpus.core.decoding import decode_html
from newscorpus.core.extraction import REASONS, extract

CAP_SECONDS = 1.0
BOUND_SECONDS = 10 * CAP_SECONDS

TAGS = ["div", "p", "span", "table", "tr", "td", "a", "b", "br", "script", "style", "article", "h1", "title",
        "meta", "html", "body", "head", "ul", "li", "section", "iframe", "noscript", "!--", "![CDATA["]
TEXTS = ["新闻", "。", "，", "责任编辑：张三", "Hello, world.", "&nbsp;", "&#0;", "&#xD800;", "\x00", "\ufffd",
         "😀", "<", ">", "&", "\"", "'", "charset=gbk", "charset=utf-8", " ", "\n"]


@st.composite
def html_soup(draw) -> str:
    parts = draw(st.lists(st.one_of(
        st.sampled_from(TAGS).map(lambda tag: f"<{tag}>"),
        st.sampled_from(TAGS).map(lambda tag: f"</{tag}>"),
        st.sampled_from(TAGS).map(lambda tag: f'<{tag} class="{"x" * 50}" style="color:red">'),
        st.sampled_from(TEXTS),
        st.text(max_size=40),
    ), max_size=200))
    return "".join(parts)


def check(result) -> None:
    assert isinstance(result.body, str)
    assert (result.reason is None) == bool(result.body)
    assert result.reason is None or result.reason in REASONS
    assert 0.0 <= result.confidence <= 1.0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=5000), st.sampled_from([None, "text/html", "text/html; charset=gbk",
                                                  "text/html; charset=utf-8", "text/html; charset=nonsense"]))
def test_any_bytes(data, content_type):
    started = time.perf_counter()
    check(extract(data, "http://example.com/a.html", content_type=content_type, max_seconds=CAP_SECONDS))
    assert time.perf_counter() - started < BOUND_SECONDS
    decoded = decode_html(data, content_type)
    assert isinstance(decoded.text, str) and decoded.encoding


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_soup(), st.sampled_from(["utf-8", "gbk", "gb18030", "big5", "latin-1"]))
def test_broken_markup_in_any_encoding(markup, encoding):
    data = markup.encode(encoding, errors="ignore")
    started = time.perf_counter()
    check(extract(data, None, max_seconds=CAP_SECONDS))
    check(extract(markup, None, max_seconds=CAP_SECONDS))
    assert time.perf_counter() - started < 2 * BOUND_SECONDS


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=200_000), st.sampled_from(["div", "table", "b", "p"]))
def test_deep_nesting(depth, tag):
    page = f"<html><body>{f'<{tag}>' * depth}新闻正文。这是一个测试，内容很短。{f'</{tag}>' * depth}</body></html>"
    started = time.perf_counter()
    check(extract(page, None, max_seconds=CAP_SECONDS))
    assert time.perf_counter() - started < BOUND_SECONDS


def test_huge_attributes_and_invalid_byte_runs():
    page = (b'<html><body><div class="' + b"a" * 5_000_000 + b'"><p>' + "正文内容，足够长的一句话。".encode("gbk") * 20
            + b"\xff\xfe\x80\x81" * 1000 + b"\x00" * 1000 + b"</p></div></body></html>")
    started = time.perf_counter()
    check(extract(page, None, max_seconds=CAP_SECONDS))
    assert time.perf_counter() - started < BOUND_SECONDS
