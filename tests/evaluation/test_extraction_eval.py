"""The eval runner on a tiny labelled set written by the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from newscorpus.evaluation import extraction_eval as ev

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


TITLED_PAGE = (
    "<html><head><title>Bridge reopens after repairs</title></head><body><h1>Bridge reopens after repairs</h1>"
    "<p>The bridge reopened on Friday after two years of repairs, officials said.</p></body></html>"
)
LISTING_PAGE = (
    "<html><body><ul>" + "".join(f"<li><a href='/a{n}'>Story {n}</a></li>" for n in range(20)) + "</ul></body></html>"
)


def _titled_dataset(tmp_path: Path, gold_title: str) -> Path:
    (tmp_path / "t1.html").write_text(TITLED_PAGE, encoding="utf-8")
    (tmp_path / "t1.txt").write_text("Bridge reopens after repairs\n" + EN_GOLD, encoding="utf-8")
    (tmp_path / "l1.html").write_text(LISTING_PAGE, encoding="utf-8")
    (tmp_path / "l1.txt").write_text("Story 1\nStory 2", encoding="utf-8")
    manifest = {
        "name": "titled",
        "gold_title": gold_title,
        "items": [
            {"stem": "t1", "lang": "en", "url": "https://news.example.co.uk/a", "domain": "news.example.co.uk"},
            {"stem": "l1", "lang": "en", "url": "https://example.org/", "page_type": "listing"},
        ],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_a_gold_holding_the_headline_is_scored_with_the_title(tmp_path: Path) -> None:
    items = ev.load_items([_titled_dataset(tmp_path, "included (headline)")])
    assert [item.gold_has_title for item in items] == [True, True]
    results = ev.run_system("newscorpus", ev.newscorpus_system(), items)
    article = next(r for r in results if r.page_type == "article")
    assert article.title == "Bridge reopens after repairs"
    assert article.f1 == pytest.approx(1.0) and article.body_f1 == pytest.approx(1.0)

    def body_only(html: bytes, url: str | None, lang: str | None) -> str:
        return EN_GOLD

    plain = next(r for r in ev.run_system("x", body_only, items) if r.page_type == "article")
    assert plain.f1 < 1.0 and plain.body_f1 == pytest.approx(1.0)  # the headline is missed, the body is whole


def test_a_gold_without_the_headline_scores_the_body_alone(tmp_path: Path) -> None:
    items = ev.load_items([_titled_dataset(tmp_path, "excluded (title is a separate field)")])
    assert not items[0].gold_has_title
    assert not ev.gold_has_title({"gold_format": "plain text main content (title usually first line)"})


def test_listing_pages_are_counted_not_scored(tmp_path: Path) -> None:
    items = ev.load_items([_titled_dataset(tmp_path, "included")])
    results = ev.run_system("newscorpus", ev.newscorpus_system(), items)
    assert ev.summarise(results)["all"].pages == 1
    assert ev.not_article_rate(results) == (0, 1)  # the listing page got no article

    def everything(html: bytes, url: str | None, lang: str | None) -> str:
        return "some text"

    assert ev.not_article_rate(ev.run_system("x", everything, items)) == (1, 1)


def test_site_folds_group_by_registrable_domain(tmp_path: Path) -> None:
    assert ev.registrable_domain("www.news.example.co.uk") == "example.co.uk"
    assert ev.registrable_domain("blog.example.com") == "example.com"
    items = ev.load_items([_titled_dataset(tmp_path, "included")])
    assert ev.site_key(items[0]) == "example.co.uk"


def test_per_set_floors_and_the_listing_cap(tmp_path: Path) -> None:
    items = ev.load_items([_titled_dataset(tmp_path, "included")])
    results = ev.run_system("newscorpus", ev.newscorpus_system(), items)
    summary = ev.summarise(results)
    assert ev.check_floors(summary, {"sets": {"titled": {"en": 0.9}}, "listing_article_share": 0.0}, results) == []
    assert ev.check_floors(summary, {"sets": {"titled": {"en": 1.1}}}, results)
    assert ev.check_floors(summary, {"sets": {"other": {"en": 0.5}}}, results)

    def everything(html: bytes, url: str | None, lang: str | None) -> str:
        return "some text"

    assert ev.check_floors(summary, {"listing_article_share": 0.5}, ev.run_system("x", everything, items))


def test_cross_validation_chooses_per_fold_as_tuning_from_scratch(tmp_path: Path) -> None:
    # every page is extracted once per grid point and each fold chooses from its training pages' results:
    # the choice must be the one tuning on that fold's training pages alone gives
    items = ev.load_items([_dataset(tmp_path)])
    grid = {"EXPAND_PROSE_SHARE": (0.6, 0.8), "SIBLING_SHARE": (0.5,)}
    folds = ev.site_folds(items, 2, seed=1)
    lines = list(ev.cross_validate_default(folds, grid))
    for (name, train, _test), line in zip(folds, lines, strict=False):
        chosen = ev.tune_default(train, grid)
        assert f"held out {name}" in line
        assert ", ".join(f"{k}={v}" for k, v in chosen.items()) in line
    assert lines[-1].startswith("pooled held-out default")
    assert "zh F1 1.000" in lines[-1] and "en F1 1.000" in lines[-1]
    assert lines[-2].startswith("per-language choice")


def _page(dataset: str, stem: str, lang: str) -> ev.PageItem:
    return ev.PageItem(dataset, stem, Path(f"{stem}.html"), Path(f"{stem}.txt"), None, lang)


def _scored(item: ev.PageItem, f1: float) -> ev.PageResult:
    return ev.PageResult("newscorpus-default", item.dataset, item.stem, item.dataset, None, item.group, f1, f1, f1,
                         f1, f1, f1, 0.1, 10, 10, body_f1=f1)


def test_the_per_language_choice_takes_each_languages_best_point() -> None:
    # two grid points: zh pages are best at the first, en pages at the second, and en pages outnumber zh pages,
    # so one point for all pages is the second
    zh = [_page("a", f"zh{n}", "zh") for n in range(2)]
    en = [_page("b", f"en{n}", "en") for n in range(6)]
    other = _page("b", "de0", "de")
    f1 = {"zh": (1.0, 0.5), "en": (0.6, 1.0), "other": (0.2, 0.9)}
    results_by_point = [{(i.dataset, i.stem): _scored(i, f1[i.group][point]) for i in zh + en + [other]}
                        for point in (0, 1)]
    train = zh[:1] + en[:3] + [other]
    assert ev._best_point(results_by_point, train) == 1
    assert ev.language_choice(results_by_point, train) == {"zh": 0, "en": 1, "other": 1}
    # no zh training page: zh takes the choice over all training pages
    assert ev.language_choice(results_by_point, en[:3])["zh"] == 1

    folds = [("fold 1", train, zh[1:] + en[3:]), ("fold 2", zh[1:] + en[3:], train)]
    points = [{"SIMILAR_FROM_SHARE": 0.0}, {"SIMILAR_FROM_SHARE": 0.2}]
    lines = list(ev.cross_validation_report(folds, points, results_by_point))
    assert lines[0] == ("held out fold 1               default (SIMILAR_FROM_SHARE=0.2) zh F1 0.500 (n=1)  "
                        "en F1 1.000 (n=3)")
    assert lines[2] == ("held out fold 1               per language: zh (SIMILAR_FROM_SHARE=0.0) F1 1.000 (n=1); "
                        "en (SIMILAR_FROM_SHARE=0.2) F1 1.000 (n=3)")
    assert lines[-2].startswith("per-language choice, held-out default  zh F1 1.000")
    assert lines[-1].startswith("pooled held-out default      zh F1 0.500")
    assert any(line.startswith("pooled held-out a zh") and "F1 0.500" in line and "per language F1 1.000" in line
               for line in lines)


def test_the_extraction_eval_loads_no_crawl_or_database_library():
    """Kept from the per-module purity test tests/test_layers.py replaced: the evaluator runs without Scrapy,
    Twisted or psycopg (the layering alone would let the evaluation layer import them)."""
    import subprocess
    import sys

    code = (
        "import sys, newscorpus.core.extraction, newscorpus.core.decoding, "
        "newscorpus.evaluation.extraction_eval, newscorpus.evaluation.extraction_scoring; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'scrapy', 'twisted', 'psycopg'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_a_grid_point_holds_for_pages_of_every_language() -> None:
    from newscorpus.core.extraction import region

    seen = []

    def system(html: bytes, url: str | None, lang: str | None) -> str:
        seen.append((region.SIMILAR_FROM_SHARE, region.tuned_constants("zh")["SIMILAR_FROM_SHARE"]))
        return ""

    shipped = dict(region.LANGUAGE_CONSTANTS)
    ev._with_constants({"SIMILAR_FROM_SHARE": 0.15}, system)(b"", None, "zh")
    assert seen == [(0.15, 0.15)]
    assert region.LANGUAGE_CONSTANTS == shipped
