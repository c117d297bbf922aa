"""jieba (CPU and memory in every process that loads it, benchmarks/near_duplicate_startup.py) is loaded only when
Chinese text is met: the crawl's stages import without it and an English article goes through extraction, line
noise and the near-duplicate features without loading it; a Chinese one loads it."""

from __future__ import annotations

import subprocess
import sys

from tests.local_crawl import PROJECT_ROOT

ENGLISH_PAGE = """<html lang="en"><head><title>Harbour bridge reopens after repairs</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/world/">World</a></div><article><h1>Harbour bridge reopens after
repairs</h1>""" + "".join(
    f"<p>Paragraph {n}: the harbour bridge reopened on Monday after six months of repairs to its cables, and the "
    f"city council said traffic would return to normal within a week while engineers keep watching it.</p>"
    for n in range(6)) + "</article></body></html>"
CHINESE_BODY = "南宁市教育局推进老旧停车保障机制，今年新增停车位两千个。" * 8

SCRIPT = """
import sys
import scrapy.utils.misc
from newscorpus.crawler.settings import ITEM_PIPELINES
for path in ITEM_PIPELINES:  # the crawl's stages and everything they import
    scrapy.utils.misc.load_object(path)
from newscorpus.core.extraction import extract
from newscorpus.core.line_noise import article_hashes, body_lines
from newscorpus.core.near_duplicate.keywords import segmentation_language
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.core.near_duplicate.features import build_features
page = sys.stdin.read()
result = extract(page.encode(), "https://example.org/world/2026/11/02/bridge.html")
body = result.body or ""
assert len(body) > 300, result
article_hashes(body_lines(body))
build_features(result.title or "", body, segmentation_language(body), NearDuplicateConfig(), 1)
print("english", "jieba" in sys.modules, "marisa_trie" in sys.modules)
chinese = sys.argv[1]
build_features("南宁推进停车保障", chinese, segmentation_language(chinese), NearDuplicateConfig(), 1)
print("chinese", "jieba" in sys.modules, "marisa_trie" in sys.modules)
"""


def test_jieba_is_loaded_only_for_chinese_text():
    result = subprocess.run([sys.executable, "-c", SCRIPT, CHINESE_BODY], input=ENGLISH_PAGE, cwd=PROJECT_ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split("\n")[:2] == ["english False False", "chinese True True"]
