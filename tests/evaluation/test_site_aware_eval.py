"""The held-out check of the cascade's thresholds: leave-one-site-out choice and the grid report."""

from __future__ import annotations

import json
from pathlib import Path

from newscorpus.core.site_aware.cascade import SiteAwareConfig
from newscorpus.evaluation.extraction_eval import load_items
from newscorpus.evaluation.site_aware_eval import (
    evaluate_sites,
    grid_configs,
    held_out_lines,
    leave_one_site_out,
    load_pages,
    multi_page_sites,
)
from tests.core.site_aware.pages import PARAGRAPHS_ZH, article, url


def test_grid_starts_with_the_thresholds_as_set():
    configs = grid_configs({"cluster_threshold": (0.4, 0.3), "induce_k": (3, 2)})
    assert len(configs) == 4
    assert configs[0] == SiteAwareConfig()
    assert {(c.cluster_threshold, c.induce_k) for c in configs} == {(0.4, 3), (0.4, 2), (0.3, 3), (0.3, 2)}


def test_each_site_is_scored_with_the_configuration_best_on_the_others():
    scores = {  # configuration 0 is best on a and b, configuration 1 on c alone
        "a": [0.9, 0.5],
        "b": [0.8, 0.6],
        "c": [0.2, 0.9],
    }
    rows = {row.site: row for row in leave_one_site_out(scores, {"a": 0.7, "b": 0.7, "c": 0.5})}
    assert rows["a"].chosen == 1 and rows["a"].held_out == 0.5  # b and c together prefer 1 (0.75 > 0.5)
    assert rows["c"].chosen == 0 and rows["c"].held_out == 0.2  # c's own preference is not used for c
    assert rows["b"].in_sample == 0.8 and rows["b"].generic == 0.7


def test_ties_keep_the_thresholds_as_set():
    rows = leave_one_site_out({"a": [0.5, 0.5], "b": [0.7, 0.7]}, {"a": 0.5, "b": 0.7})
    assert [row.chosen for row in rows] == [0, 0]


def small_site(tmp_path: Path) -> dict:
    items = []
    for n in range(1, 5):
        stem = f"news.example.com_{n:02d}"
        (tmp_path / f"{stem}.html").write_text(article(n), encoding="utf-8")
        (tmp_path / f"{stem}.txt").write_text("\n".join(PARAGRAPHS_ZH), encoding="utf-8")
        items.append({"stem": stem, "url": url(n), "lang": "zh"})
    (tmp_path / "manifest.json").write_text(json.dumps({"name": "synthetic", "items": items}), encoding="utf-8")
    return load_pages(multi_page_sites(load_items([str(tmp_path)])))


def test_held_out_report_on_a_small_labelled_site(tmp_path: Path):
    sites = small_site(tmp_path)
    lines = held_out_lines(sites, {"cluster_threshold": (0.4, 0.6)})
    assert lines[0].startswith("# 2 configurations (cluster_threshold 2)")
    assert any(line.startswith("| news.example.com | ") for line in lines)
    assert "# sites where the held-out cascade is below generic: none" in lines


def test_an_anchor_that_gives_title_and_body_is_scored_on_its_body(tmp_path: Path):
    sites = small_site(tmp_path)
    gold = "\n".join(PARAGRAPHS_ZH)
    anchors = {"titled": lambda html, page_url, lang: ("a headline", gold), "plain": lambda html, page_url, lang: ""}
    rows, seconds = evaluate_sites(sites, anchors)
    assert rows[0].f1["titled"] == 1.0 and rows[0].f1["plain"] == 0.0
    assert {"titled", "plain"} <= set(seconds)
