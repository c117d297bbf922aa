"""A page nested deeper than libxml2's cap (256 levels without huge_tree) keeps its text: the parse drops what lies
deeper, so such a page is parsed again with its nested containers flattened."""

from __future__ import annotations

import pytest

from newscorpus.core.extraction import extract
from newscorpus.core.extraction.parse import parse_html

ENGLISH = "The harbour council voted on the new railway budget after a long and stormy debate in the town hall. " * 4
CHINESE = "市议会经过长时间的激烈辩论，终于通过了新的铁路预算，居民们对此反应不一，许多人表示欢迎。" * 4


def nested(depth: int, text: str, tag: str = "div") -> str:
    return (f"<html><head><title>Deep</title></head><body>{f'<{tag}>' * depth}<p>{text}</p><p>{text}</p>"
            f"{f'</{tag}>' * depth}</body></html>")


@pytest.mark.parametrize("depth", [2_000, 100_000])
@pytest.mark.parametrize("text", [ENGLISH, CHINESE])
def test_a_deeply_nested_page_is_an_article_with_its_text(depth, text):
    result = extract(nested(depth, text).encode("utf-8"))
    assert result.is_article
    assert text.strip()[:60] in result.body


def test_interleaved_deep_containers_are_flattened_too():
    html = "<html><body>" + "<div><span>" * 5_000 + f"<p>{ENGLISH}</p>" + "</span></div>" * 5_000 + "</body></html>"
    root = parse_html(html)
    assert root is not None and ENGLISH.strip()[:60] in "".join(root.itertext())


def test_a_page_within_the_cap_keeps_its_containers():
    root = parse_html(nested(50, ENGLISH))
    assert len(root.findall(".//div")) == 50
