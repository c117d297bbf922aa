import json
import re

import psycopg

from newscorpus.cli.main import main
from newscorpus.core.site_aware.cascade import SiteAwareExtractor
from newscorpus.evaluation import site_aware_eval
from newscorpus.store.migrations import migrate
from newscorpus.store.site_aware import SiteTemplateStore
from tests.core.site_aware.pages import PARAGRAPHS_ZH, article, url


def _labelled_site(directory, pages: int = 6):
    items = []
    for n in range(1, pages + 1):
        stem = f"news.example.com_{n:02d}"
        (directory / f"{stem}.html").write_text(article(n), encoding="utf-8")
        (directory / f"{stem}.txt").write_text("\n".join(PARAGRAPHS_ZH), encoding="utf-8")
        items.append({"stem": stem, "url": url(n), "lang": "zh"})
    (directory / "manifest.json").write_text(json.dumps({"name": "synthetic", "items": items}), encoding="utf-8")


def test_eval_site_aware_prints_the_site_table_and_the_repair_experiment(tmp_path, capsys):
    _labelled_site(tmp_path)
    assert main(["eval", "site-aware", str(tmp_path), "--repair-experiment"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^\| news\.example\.com \| 6 \| ([\d.]+) \| ([\d.]+) \|", out, re.MULTILINE)
    assert row and float(row.group(2)) >= float(row.group(1)) > 0.9
    assert "template" in out
    repair = re.search(r"^\| news\.example\.com \| 3 \| 3 \| `[^`]+` \| 0 \| 1 \|", out, re.MULTILINE)
    assert repair, out


def test_eval_site_aware_held_out_prints_the_fitted_thresholds_per_site(tmp_path, capsys, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _labelled_site(tmp_path / "a", 4)
    for n in range(1, 4):  # a second site: leave-one-site-out needs another site to fit on
        stem = f"other.example.org_{n:02d}"
        (tmp_path / "b" / f"{stem}.html").write_text(article(n, english=True), encoding="utf-8")
        (tmp_path / "b" / f"{stem}.txt").write_text("bus network", encoding="utf-8")
    items = [{"stem": f"other.example.org_{n:02d}", "url": f"https://other.example.org/n/{n}.html", "lang": "en"}
             for n in range(1, 4)]
    (tmp_path / "b" / "manifest.json").write_text(json.dumps({"name": "b", "items": items}), encoding="utf-8")
    monkeypatch.setattr(site_aware_eval, "THRESHOLD_GRID", {"cluster_threshold": (0.4, 0.5)})  # 2, not 972
    assert main(["eval", "site-aware", str(tmp_path / "a"), str(tmp_path / "b"), "--held-out"]) == 0
    out = capsys.readouterr().out
    assert "# 2 configurations (cluster_threshold 2)" in out
    assert re.search(r"^\| news\.example\.com \| [\d.]+ \| [\d.]+ \| [\d.]+ \| as set \|$", out, re.MULTILINE), out
    assert "# sites where the held-out cascade is below generic: none" in out


def test_eval_site_aware_speed_prints_cold_and_warm_pages_per_second(tmp_path, capsys):
    _labelled_site(tmp_path)
    assert main(["eval", "site-aware", str(tmp_path), "--speed", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^# cold \(6 pages, best of 1\): generic [\d.]+ pages/s, cascade [\d.]+", out, re.MULTILINE), out
    assert re.search(r"^# warm \(\d+ template pages, best of 1\)", out, re.MULTILINE), out
    assert main(["eval", "site-aware", str(tmp_path), "--speed", "0"]) == 2
    assert "--speed ROUNDS must be at least 1" in capsys.readouterr().err


def test_eval_site_aware_time_cap_prints_one_row_per_generated_page(tmp_path, capsys, monkeypatch):
    _labelled_site(tmp_path, 2)
    monkeypatch.setattr(site_aware_eval, "TIME_CAP_SIZES", (20, 40))  # small pages: the table, not the timing
    assert main(["eval", "site-aware", str(tmp_path), "--time-cap"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\| (\d+) \| [\d.]+ \| [\d.]+ \| -?[\d.]+ \| [\d.]+ \| (\w+) \|$", out, re.MULTILINE)
    assert len(rows) == 2 and int(rows[0][0]) < int(rows[1][0]), out
    assert all(method.startswith("default") for _, method in rows)


def test_templates_command_lists_hits_and_repairs(database_dsn, capsys):
    with psycopg.connect(database_dsn) as connection:
        migrate(connection)
    extractor = SiteAwareExtractor()
    for n in range(1, 6):
        extractor.extract(article(n), url(n))
    SiteTemplateStore(database_dsn).save(extractor)
    assert main(["templates", "--site", "news.example.com", "--dsn", database_dsn]) == 0
    out = capsys.readouterr().out
    assert "news.example.com" in out and '//div[@class="article-body"]' in out
    assert main(["templates", "--site", "nothing.example", "--dsn", database_dsn]) == 0
    assert "no templates for nothing.example" in capsys.readouterr().out
