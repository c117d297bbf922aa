"""Decoding: header -> meta -> detection, GBK as GB18030, never raising."""

from __future__ import annotations

from newscorpus.core.decoding import charset_from_content_type, charset_from_meta, decode_html

CHINESE = (
    "<html><head><title>新闻</title></head><body>"
    "<p>北京时间今天上午，国务院召开常务会议，研究部署经济工作。</p></body></html>"
)


def test_charset_from_content_type() -> None:
    assert charset_from_content_type("text/html; charset=GBK") == "GBK"
    assert charset_from_content_type('text/html; charset="utf-8"') == "utf-8"
    assert charset_from_content_type("text/html") is None
    assert charset_from_content_type(None) is None


def test_charset_from_meta_both_forms() -> None:
    assert charset_from_meta(b'<html><head><meta charset="gb2312"></head>') == "gb2312"
    http_equiv = b'<meta http-equiv="Content-Type" content="text/html; charset=big5">'
    assert charset_from_meta(http_equiv) == "big5"
    assert charset_from_meta(b"<html><head><title>x</title></head>") is None


def test_header_wins_and_gbk_decodes_as_gb18030() -> None:
    page = decode_html(CHINESE.encode("gbk"), "text/html; charset=gbk")
    assert page.text == CHINESE
    assert (page.encoding, page.source) == ("gb18030", "header")


def test_meta_gb2312() -> None:
    html = CHINESE.replace("<head>", '<head><meta charset="gb2312">')
    page = decode_html(html.encode("gb2312"))
    assert page.text == html
    assert (page.encoding, page.source) == ("gb18030", "meta")


def test_declared_utf8_but_gbk_falls_through_to_detection() -> None:
    html = CHINESE.replace("<head>", '<head><meta charset="utf-8">')
    page = decode_html(html.encode("gbk"), "text/html; charset=utf-8")
    assert page.source == "detected"
    assert "国务院召开常务会议" in page.text


def test_undeclared_gbk_is_detected() -> None:
    body = CHINESE.replace("<p>", "<p>" + "记者从有关部门获悉，今年以来全国各地积极推进重点项目建设。" * 5)
    page = decode_html(body.encode("gbk"))
    assert page.source == "detected"
    assert page.text == body


def test_english_utf8_and_latin1() -> None:
    assert decode_html(b"<p>Hello world</p>").encoding == "utf-8"
    page = decode_html("<p>Café society</p>".encode("latin-1"), "text/html; charset=ISO-8859-1")
    assert page.text == "<p>Café society</p>"
    assert page.encoding == "windows-1252"


def test_bom() -> None:
    page = decode_html("<p>中文</p>".encode("utf-16"))
    assert (page.text, page.source) == ("<p>中文</p>", "bom")
    page = decode_html(b"\xef\xbb\xbf<p>x</p>")
    assert (page.text, page.source) == ("<p>x</p>", "bom")


def test_never_raises_on_garbage() -> None:
    for data in (b"", b"\xff\xfe\xfd\x00\x81" * 100, bytes(range(256)) * 10):
        page = decode_html(data, "text/html; charset=no-such-codec")
        assert isinstance(page.text, str)
        assert page.source in {"bom", "header", "meta", "detected", "fallback"}
