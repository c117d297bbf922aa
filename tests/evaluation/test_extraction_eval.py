"""The eval runner on a tiny labelled set written by the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.evaluation import extraction_eval as ev

PAGE = (
    "<html><body><div><a href='/'>首页</a> <a href='/n'>新闻</a></div>"
    "<div><p>记者今天从市政府获悉，新的公交线路将于下月开通。</p><p>线路全长二十公里，设站十五座。</p></div>"
    "</body></html>"
)
GOLD = "记者今天从市政府获悉，新的公交线路将于下月开通。\n线路全长二十公里，设站十五座。"
EN_PAGE = "<html><body><p>The bridge reopened on Friday after two years of repairs, officials said.</p></body></html>"
EN_GOLD = "The bridge reopened on Friday after two years of repairs, officials said."


def _dataset(tmp_path: Path) -> Path:
    (tmp_path / "zh1.html").write_bytes(PAGE.encode("gbk"))
    (tmp_path / "zh1.txt").write_text(GOLD, encoding="utf-8")
    (tmp_path / "en1.html").write_text(EN_PAGE, encoding="utf-8")
    (tmp_path / "en1.txt").write_text(EN_GOLD, encoding="utf-8")
    manifest = {
        "name": "tiny",
        "items": [
            {"stem": "zh1", "lang": "zh", "url": None},
            {"stem": "en1", "lang": "en", "url": "https://www.example.com/a"},
        ],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_eval_scores_our_extractor(tmp_path: Path) -> None:
    items = ev.load_items([_dataset(tmp_path)])
    assert {item.site for item in items} == {"tiny", "example.com"}
    results = ev.run_system("newscorpus", ev.newscorpus_system(), items)
    summary = ev.summarise(results)
    assert summary["zh"].f1 == pytest.approx(1.0)
    assert summary["en"].f1 == pytest.approx(1.0)
    assert summary["all"].pages == 2
    out = tmp_path / "pages.jsonl"
    ev.write_jsonl(results, out)
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    assert ev.check_floors(summary, {"f1": {"zh": 0.9, "en": 0.9}}) == []
    assert ev.check_floors(summary, {"f1": {"zh": 1.1}})


def test_missing_manifest_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ev.DatasetError):
        ev.load_items([tmp_path])


def test_a_failing_system_scores_zero(tmp_path: Path) -> None:
    def broken(html: bytes, url: str | None, lang: str | None) -> str:
        raise RuntimeError("boom")

    results = ev.run_system("broken", broken, ev.load_items([_dataset(tmp_path)]))
    assert all(r.f1 == 0.0 and r.error for r in results)
