"""`newscorpus eval metadata` on a tiny labelled set written by the test, and its scoring rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscorpus.cli.main import main
from newscorpus.evaluation import metadata_eval as ev
from newscorpus.evaluation.metadata_anchors import newscorpus
from newscorpus.evaluation.metadata_scoring import author_exact, date_scores, title_scores

BODY = ("<p>The river authority opened the new footbridge on a grey morning, and the first walkers crossed before the "
        "ribbon was cut.</p><p>Residents said the crossing halves the walk to the station.</p>")
EN_PAGE = ("<html><head><title>Footbridge opens | Example Gazette</title>"
           '<meta property="article:published_time" content="2025-03-04T23:30:00-05:00"></head><body>'
           f"<article><h1>Footbridge opens</h1><p>By Jane Roe and John Doe</p>{BODY}</article></body></html>")
ZH_PAGE = ("<html><head><title>城市新建人行桥正式通行_本地新闻网</title></head><body><h1>城市新建人行桥正式通行</h1>"
           "<p>2022-02-13 09:57 来源：本地日报</p><p>本报记者 王建宏 张文攀</p>"
           "<p>市河道管理部门在一个阴天的早晨开放了新建的人行桥，市民在剪彩前就已经走过桥面。工程人员整个冬天都在施工。</p>"
           "</body></html>")


def _dataset(tmp_path: Path) -> Path:
    (tmp_path / "en1.html").write_text(EN_PAGE, encoding="utf-8")
    (tmp_path / "zh1.html").write_bytes(ZH_PAGE.encode("gb18030"))
    (tmp_path / "l1.html").write_text(EN_PAGE.replace("Footbridge opens", "Bridge news"), encoding="utf-8")
    (tmp_path / "l1.txt").write_text("Bridge news\nThe river authority opened ...", encoding="utf-8")
    manifest = {"name": "tiny", "items": [
        {"stem": "en1", "lang": "en", "url": "https://www.gazette.example/a", "title": "Footbridge opens",
         "author": "Jane Roe and John Doe", "date": "2025-03-04"},
        {"stem": "zh1", "lang": "zh", "author": "王建宏 张文攀", "date": "2022-02-13 09:57"},
        {"stem": "l1", "lang": "en", "url": "https://news.example/b", "gold_has_title": True, "author": "UNKNOWN"},
    ]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_scores_on_a_tiny_set(tmp_path: Path) -> None:
    items = ev.load_items([_dataset(tmp_path)])
    assert [item.title for item in items] == ["Footbridge opens", None, "Bridge news"]  # first gold line
    assert items[2].author is None  # UNKNOWN is no author
    summary = ev.summarise(ev.run_system("newscorpus", newscorpus(), items))["all"]
    assert (summary.dated, summary.date_exact, summary.date_precision) == (2, 1.0, 1.0)
    assert (summary.titled, summary.title_exact) == (2, 1.0)
    assert (summary.authored, summary.author_exact) == (2, 1.0)
    assert summary.author_unauthored_answers == 1.0  # the third page names its authors; its gold does not
    assert summary.titles_are_site == 0
    assert ev.check_floors({"tiny": summary}, {"date_exact": {"tiny": 0.9}, "comment": "x"}) == []
    assert ev.check_floors({"tiny": summary}, {"author_exact": {"tiny": 1.1}, "date_exact": {"other": 0.5}}) == [
        "tiny author_exact: 1.000 below floor 1.100", "other date_exact: not measured (floor 0.500)"]


def test_a_failing_system_answers_nothing(tmp_path: Path) -> None:
    def broken(html: bytes, url: str | None) -> ev.Answer:
        raise RuntimeError("boom")

    scores = ev.run_system("broken", broken, ev.load_items([_dataset(tmp_path)]))
    assert all(score.error and not score.date_exact for score in scores)


@pytest.mark.parametrize(("answer", "gold", "expected"), [
    ("2025-03-04T23:30:00-05:00", "2025-03-04", (True, True)),  # the page's day, not UTC's 03-05
    ("2025-03-05", "2025-03-04", (False, True)),
    ("2005-05-07T21:23:57", "2005-5-7 21:23:57", (True, True)),
    ("1998-03-20", "1998-3", (True, True)),  # month gold: same month
    ("1998-03", "1998-3", (True, True)),
    ("1998-03", "1998-03-20", (False, False)),
    (None, "2025-03-04", (False, False)),
])
def test_date_scores(answer, gold, expected):
    assert date_scores(answer, gold) == expected


def test_title_and_author_rules():
    assert title_scores("We’ve  tried", "We've tried")[0]  # spaces and typographic quotes
    assert not title_scores("We tried", "We've tried")[0]
    assert author_exact(["John Doe", "Jane Roe"], "By Jane Roe and John Doe")
    assert author_exact(["王建宏张文攀"], "王建宏 张文攀")
    assert not author_exact(["Jane Roe"], "Jane Roe and John Doe")
    assert not author_exact([], "Jane Roe")


def test_cli_prints_the_table_and_checks_floors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data").mkdir()
    data = _dataset(tmp_path / "data")
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"date_exact": {"tiny": 0.5}, "author_exact": {"tiny": 0.5}}), encoding="utf-8")
    assert main(["eval", "metadata", str(data), "--floors", str(floors), "--jsonl", str(tmp_path / "p.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "newscorpus" in out and "floors: all met" in out
    assert len((tmp_path / "p.jsonl").read_text(encoding="utf-8").splitlines()) == 3
    floors.write_text(json.dumps({"date_exact": {"tiny": 1.5}}), encoding="utf-8")
    assert main(["eval", "metadata", str(data), "--floors", str(floors)]) == 1
    assert main(["eval", "metadata", str(tmp_path / "missing")]) == 2
    assert main(["eval", "metadata", str(data), "--compare", "nosuchtool"]) == 2


def test_cross_validation_gives_each_sets_held_out_author_share(tmp_path: Path) -> None:
    from newscorpus.evaluation.metadata_cv import cross_validate

    zh = tmp_path / "zh"
    zh.mkdir()
    (zh / "zh1.html").write_bytes(ZH_PAGE.encode("gb18030"))
    (zh / "zh2.html").write_bytes(ZH_PAGE.replace("王建宏 张文攀", "李明").encode("gb18030"))
    (zh / "manifest.json").write_text(json.dumps({"name": "tiny_zh", "items": [
        {"stem": "zh1", "lang": "zh", "author": "王建宏 张文攀"}, {"stem": "zh2", "lang": "zh", "author": "李明"}]}),
        encoding="utf-8")
    (tmp_path / "en").mkdir()
    items = ev.load_items([_dataset(tmp_path / "en"), zh])
    lines = list(cross_validate(items, folds=2))
    assert lines[-2] == "tiny: held-out author exact 1.000 (shipped order, in sample: 1.000; 2 authored pages)"
    assert lines[-1] == "tiny_zh: held-out author exact 1.000 (shipped order, in sample: 1.000; 2 authored pages)"


def test_date_sources_say_where_each_date_came_from_and_how_many_are_exact(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = _dataset(tmp_path)
    manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
    manifest["items"][2]["date"] = "2020-01-01"  # the third page states the first page's date: answered, not exact
    (data / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert main(["eval", "metadata", str(data), "--date-sources"]) == 0
    lines = capsys.readouterr().out.split("# our publication date of each dated page by its source")[1].splitlines()
    rows = [line.split() for line in lines[2:]]
    assert ["tiny", "meta", "2", "1", "50.0%"] in rows  # the English pages' article:published_time
    assert ["tiny", "line", "1", "1", "100.0%"] in rows  # the Chinese page's date line
    assert len(rows) == 2
