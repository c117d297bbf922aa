"""Punctuation statistics, block scoring, PSO and metadata, each alone."""

from __future__ import annotations

import numpy as np

from newscorpus.core.extraction import block_scoring
from newscorpus.core.extraction.metadata import Metadata, byline_metadata, head_metadata, iso_date
from newscorpus.core.extraction.parse import parse_html
from newscorpus.core.extraction.pso import PSOConfig, maximise
from newscorpus.core.extraction.punctuation import is_body_line, punctuation_ratio, select_lines


def test_preparation_drops_scripts_unwraps_inline_and_nbsp(blocks_of) -> None:
    blocks = blocks_of(
        "<html><head><style>p{}</style></head><body><script>var a='正文。';</script><!-- 注释 -->"
        "<div><p>第一段&nbsp;&nbsp;<b>加粗</b>文字，<a href='#'>链接</a>。<br>第二行。</p></div></body></html>"
    )
    paragraph = next(b for b in blocks if b.tag == "p")
    assert paragraph.text == "第一段 加粗文字，链接。\n第二行。"
    assert (paragraph.bold_count, paragraph.br_count, paragraph.nbsp_count) == (1, 1, 2)
    assert paragraph.link_chars == 2
    assert all("var a" not in b.text and "注释" not in b.text for b in blocks)


def test_punctuation_ratio_window() -> None:
    assert punctuation_ratio("今天天气很好，我们去公园散步。") == 2 / 15
    assert not is_body_line("首页 新闻 体育 财经")  # no punctuation: navigation
    assert not is_body_line("，。！？")  # all punctuation
    assert is_body_line("The council voted on Tuesday, and the plan passed.")
    assert not is_body_line("A sentence, with links.", link_ratio=0.9)


def test_punctuation_method_keeps_short_body(blocks_of) -> None:
    blocks = blocks_of("<body><ul><li><a>首页</a></li><li><a>国内</a></li></ul><p>只有一句话的新闻正文。</p></body>")
    assert select_lines(blocks) == ["只有一句话的新闻正文。"]


def test_block_scores_paper_model_prefers_body(blocks_of) -> None:
    blocks = blocks_of(
        "<body><div><a href='/'>Home</a></div>"
        "<div><p>The storm closed schools on Monday, officials said, and roads stayed shut.</p></div></body>"
    )
    model = block_scoring.BlockModel.from_dict(block_scoring.PAPER_MODEL)
    scores = block_scoring.block_scores(blocks, model)
    body = next(i for i, b in enumerate(blocks) if b.tag == "p")
    nav = next(i for i, b in enumerate(blocks) if b.text == "Home")
    assert scores[body] > model.threshold > scores[nav]
    assert block_scoring.select_blocks(blocks, model) == [blocks[body].text]


def test_shipped_model_records_its_provenance() -> None:
    import json

    model = json.loads(block_scoring.MODEL_PATH.read_text(encoding="utf-8"))
    assert model["source"]["seed"] is not None and model["source"]["data"]
    assert len(model["weights"]) == len(model["features"]) == len(model["supports"])
    assert 0.0 < model["threshold"] < 1.0


def test_pso_finds_maximum_and_is_seeded() -> None:
    def fitness(x: np.ndarray) -> float:
        return -float(((x - np.array([1.0, 2.0])) ** 2).sum())

    lower, upper = np.zeros(2), np.full(2, 3.0)
    config = PSOConfig(particles=20, iterations=60)
    first = maximise(fitness, lower, upper, seed=7, config=config)
    second = maximise(fitness, lower, upper, seed=7, config=config)
    assert np.allclose(first.position, [1.0, 2.0], atol=0.05)
    assert np.array_equal(first.position, second.position)


def test_metadata_from_head_and_json_ld() -> None:
    root = parse_html(
        "<html><head><title>Council backs bike lanes - The Daily</title>"
        '<meta property="og:title" content="Council backs bike lanes">'
        '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-03-05T08:30:00Z",'
        '"author":{"@type":"Person","name":"Jane Roe"}}</script></head><body><h1>Council backs bike lanes</h1>'
        "</body></html>"
    )
    meta = head_metadata(root)
    assert (meta.title, meta.author, meta.published_at) == (
        "Council backs bike lanes", "Jane Roe", "2024-03-05T08:30:00+00:00")


def test_metadata_chinese_byline() -> None:
    lines = ["首页 > 新闻", "2024年5月20日 14:33 来源：新华社 作者：张三", "正文第一段。"]
    meta = byline_metadata(lines, Metadata(title="标题"))
    assert meta.author == "张三"
    assert meta.published_at == "2024-05-20T14:33:00"


def test_metadata_english_byline_and_dates() -> None:
    meta = byline_metadata(["By Jane Roe and John Doe", "Published November 19, 2019"], Metadata())
    assert meta.authors == ("Jane Roe", "John Doe")
    assert meta.published_at == "2019-11-19"
    assert iso_date("2024/1/5") == "2024-01-05"
    assert iso_date("no date here") is None
