"""Tokens for scoring and training: each CJK character (Han, kana, hangul) is one token, other text is
lower-cased `\\w+` words (underscore splits words)."""

from __future__ import annotations

import re

_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK_CHARS}]|[^\\W_{_CJK_CHARS}]+")


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())
