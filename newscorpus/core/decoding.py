"""Decode page bytes: HTTP header charset, then <meta>, then detection; a few invalid bytes are replaced."""

from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass

# WHATWG prescan looks at 1024 bytes; real Chinese portals often put <meta charset> after long
# comments/scripts, so we look at 4 KB as the brief asks.
META_SCAN_BYTES = 4096
# charset-normalizer's cost grows with input size; 64 KB is enough text for a stable verdict on the
# zh_web_content_69 undeclared pages (checked by tests/core/test_decoding.py and the eval run).
DETECTION_SAMPLE_BYTES = 65536
# A page whose declared (or UTF-8) decoding fails on at most this share of its non-ASCII bytes is that charset
# with a few broken bytes (a truncated character, one stray byte), decoded with U+FFFD in their place. A page
# in another charset fails on far more: GB18030 pages decoded as UTF-8 fail on most of their non-ASCII
# bytes (64-70 %: all 29 non-UTF-8 pages of ../shared/data/extraction, benchmarks/decoding_invalid_share.py), a
# windows-1252 page on nearly all of them. 1 % leaves a margin of 64x.
MAX_INVALID_SHARE = 0.01
_ASCII = bytes(range(128))

_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?\s*([\w.:+-]+)""", re.IGNORECASE)
_META_TAG = re.compile(rb"<meta\b[^>]*>", re.IGNORECASE)
_META_CHARSET_ATTR = re.compile(rb"""charset\s*=\s*["']?\s*([\w.:+-]+)""", re.IGNORECASE)

# Declared names that must be decoded with a superset codec (as browsers do).
_SUPERSET = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "gb_2312-80": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "ms936": "gb18030",
    "euc-cn": "gb18030",
    "hz-gb-2312": "gb18030",
    "big5": "big5hkscs",
    "iso-8859-1": "windows-1252",
    "latin-1": "windows-1252",
    "latin1": "windows-1252",
    "us-ascii": "windows-1252",
    "ascii": "windows-1252",
}
# Python codec names -> the names we report.
_REPORTED = {
    "utf_8": "utf-8",
    "cp1252": "windows-1252",
    "gb18030": "gb18030",
    "big5hkscs": "big5",
    "big5": "big5",
    "shift_jis": "shift_jis",
    "euc_jp": "euc-jp",
    "euc_kr": "euc-kr",
    "cp949": "euc-kr",
    "cp1251": "windows-1251",
    "cp1250": "windows-1250",
    "utf-16-le": "utf-16le",
    "utf-16-be": "utf-16be",
}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)


@dataclass(frozen=True)
class DecodedPage:
    text: str
    encoding: str  # codec actually used, normalised name, e.g. "utf-8", "gb18030", "big5", "windows-1252"
    source: str  # "bom" | "header" | "meta" | "detected" | "fallback"
    strict: bool = False  # `text` is the whole body decoded strictly as `encoding` (no BOM cut, no byte replaced)


def normalise_encoding(name: str | None) -> str | None:
    """Return the codec to decode a declared charset with, or None when Python does not know it."""
    if not name:
        return None
    key = name.strip().strip("\"'").lower()
    key = _SUPERSET.get(key, key)
    try:
        codec = codecs.lookup(key).name
    except LookupError:
        return None
    if codec in {"gbk", "gb2312", "hz"}:
        return "gb18030"
    if codec in {"latin_1", "ascii"}:
        return "windows-1252"
    return _REPORTED.get(codec, codec.replace("_", "-"))


def _python_codec(encoding: str) -> str:
    return "big5hkscs" if encoding == "big5" else encoding


def charset_from_content_type(content_type: str | None) -> str | None:
    """The charset parameter of an HTTP Content-Type header, as given (not normalised)."""
    if not content_type:
        return None
    match = _CHARSET_PARAM.search(content_type)
    return match.group(1) if match else None


def charset_from_meta(head: bytes) -> str | None:
    """<meta charset=..> or <meta http-equiv=Content-Type content="...; charset=..">, first 4 KB."""
    for tag in _META_TAG.finditer(head[:META_SCAN_BYTES]):
        text = tag.group(0)
        # Both forms carry "charset=": as an attribute, or inside the http-equiv content value.
        match = _META_CHARSET_ATTR.search(text)
        if match is not None:
            return match.group(1).decode("ascii", "ignore") or None
    return None


def _try_decode(body: bytes, encoding: str | None) -> str | None:
    if encoding is None:
        return None
    try:
        return body.decode(_python_codec(encoding))
    except (UnicodeDecodeError, LookupError):
        return None


_invalid = threading.local()


def _replace_and_count(error: UnicodeDecodeError) -> tuple[str, int]:
    _invalid.bytes += error.end - error.start
    return "\ufffd", error.end


codecs.register_error("newscorpus-count-invalid", _replace_and_count)


def invalid_byte_share(body: bytes, encoding: str) -> tuple[str, float] | None:
    """``body`` decoded with invalid bytes replaced, and their share of its non-ASCII bytes (None: no codec)."""
    _invalid.bytes = 0
    try:
        text = body.decode(_python_codec(encoding), errors="newscorpus-count-invalid")
    except LookupError:
        return None
    return text, _invalid.bytes / max(len(body.translate(None, _ASCII)), 1)


def _decode_with_few_invalid(body: bytes, encoding: str | None) -> str | None:
    if encoding is None:
        return None
    decoded = invalid_byte_share(body, encoding)
    if decoded is None or decoded[1] > MAX_INVALID_SHARE:
        return None
    return decoded[0]


def _detect(body: bytes) -> str | None:
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(body[:DETECTION_SAMPLE_BYTES]).best()
    except Exception:  # noqa: BLE001 - detection is best effort
        return None
    return normalise_encoding(best.encoding) if best is not None else None


def decode_html(body: bytes, content_type: str | None = None) -> DecodedPage:
    """Decode page bytes. Never raises. A declared charset that decodes without error wins, then strict UTF-8;
    then a declared charset, or UTF-8, that fails on only a few bytes (replaced); then detection."""
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            text = body[len(bom) :].decode(encoding, errors="replace")
            return DecodedPage(text, encoding, "bom")
    declared = [(source, normalise_encoding(charset)) for source, charset in (
        ("header", charset_from_content_type(content_type)),
        ("meta", charset_from_meta(body)),
    )]
    for source, encoding in declared:
        text = _try_decode(body, encoding)
        if text is not None and encoding is not None:
            return DecodedPage(text, encoding, source, strict=True)
    # Most undeclared pages are UTF-8: a strict UTF-8 decode is cheap and unambiguous.
    text = _try_decode(body, "utf-8")
    if text is not None:
        return DecodedPage(text, "utf-8", "detected", strict=True)
    # A stray invalid byte must not hand the page to detection (which then picks a single-byte charset and
    # turns the whole article into mojibake).
    for source, encoding in [*declared, ("detected", "utf-8")]:
        text = _decode_with_few_invalid(body, encoding)
        if text is not None and encoding is not None:
            return DecodedPage(text, encoding, source)
    detected = _detect(body)
    for candidate in (detected, "gb18030"):
        text = _try_decode(body, candidate)
        if text is not None and candidate is not None:
            return DecodedPage(text, candidate, "detected", strict=True)
    return DecodedPage(body.decode("utf-8", errors="replace"), "utf-8", "fallback")
