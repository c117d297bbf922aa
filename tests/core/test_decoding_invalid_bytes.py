"""A page with one invalid byte is still decoded with its charset, the byte replaced by U+FFFD: were strict decoding
to fail it, detection would pick mac-iceland and the whole article would be stored as mojibake."""

from __future__ import annotations

import pytest

from newscorpus.core.decoding import decode_html

ZH = "<html><head>{meta}<title>港口扩建</title></head><body><p>{text}</p></body></html>"
TEXT = "市政府周二宣布港口扩建计划正式启动，预计三年内完工，新增泊位十二个。" * 20


def page(encoding: str, meta: str = "", stray: bytes = b"\xff") -> bytes:
    """The page with ``stray`` inserted between two characters in the middle of its text."""
    html = ZH.format(meta=meta, text=TEXT)
    middle = html.index("<p>") + 3 + len(TEXT) // 2
    return html[:middle].encode(encoding) + stray + html[middle:].encode(encoding)


@pytest.mark.parametrize("content_type, meta, source", [
    ("text/html; charset=utf-8", "", "header"),
    ("text/html", '<meta charset="utf-8">', "meta"),
    ("text/html", "", "detected"),
    (None, "", "detected"),
])
def test_utf8_page_with_one_invalid_byte_stays_utf8(content_type, meta, source):
    decoded = decode_html(page("utf-8", meta), content_type)
    assert (decoded.encoding, decoded.source) == ("utf-8", source)
    assert decoded.text.count("\ufffd") == 1
    assert "市政府周二宣布港口扩建计划正式启动" in decoded.text and "港口扩建" in decoded.text


def test_utf8_page_cut_inside_a_character_stays_utf8():
    body = page("utf-8", stray=b"")
    middle = body.index(b"<p>") + 3 + 301   # inside the 101st three-byte character
    decoded = decode_html(body[:middle] + body[middle + 1:], "text/html; charset=utf-8")
    assert decoded.encoding == "utf-8" and decoded.text.count("\ufffd") == 1 and TEXT[:20] in decoded.text


def test_gbk_page_with_one_invalid_byte_keeps_its_declared_charset():
    decoded = decode_html(page("gbk", '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'))
    assert (decoded.encoding, decoded.source) == ("gb18030", "meta")
    assert decoded.text.count("\ufffd") == 1 and "市政府周二宣布港口扩建计划正式启动" in decoded.text


def test_a_page_in_another_charset_is_not_taken_for_a_broken_utf8_page():
    decoded = decode_html(page("gbk", stray=b""), "text/html; charset=utf-8")   # declared wrongly
    assert decoded.encoding == "gb18030" and "市政府周二宣布港口扩建计划正式启动" in decoded.text
    latin = ("<html><body><p>" + "Café crème brûlée, déjà vu à la française. " * 30 + "</p></body></html>")
    decoded = decode_html(latin.encode("windows-1252"), "text/html")    # every é invalid as UTF-8
    assert decoded.encoding != "utf-8" and decoded.text.count("\ufffd") == 0
