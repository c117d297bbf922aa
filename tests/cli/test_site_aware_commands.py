import json
import re

import psycopg

from crawler.cli.main import main
from migrations.runner import migrate
from pipelines.core.site_aware.cascade import SiteAwareExtractor
from pipelines.db.site_template_store import SiteTemplateStore
from tests.core.site_aware.pages import PARAGRAPHS_ZH, article, url


def _labelled_site(directory, pages: int = 6):
    items = []
    for n in range(1, pages + 1):
        stem = f"news.example.com_{n:02d}"
        (directory / f"{stem}.html").write_text(article(n), encoding="utf-8")
        (directory / f"{stem}.txt").write_text("\n".join(PARAGRAPHS_ZH), encoding="utf-8")
        items.append({"stem": stem, "url": url(n), "lang": "zh"})
    (directory / "manifest.json").write_text(json.dumps({"name": "synthetic", "items": items}), encoding="utf-8")


def test_eval_siteaware_prints_the_site_table_and_the_repair_experiment(tmp_path, capsys):
    _labelled_site(tmp_path)
    assert main(["eval", "siteaware", str(tmp_path), "--repair-experiment"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^\| news\.example\.com \| 6 \| ([\d.]+) \| ([\d.]+) \|", out, re.MULTILINE)
    assert row and float(row.group(2)) >= float(row.group(1)) > 0.9
    assert "template" in out
    repair = re.search(r"^\| news\.example\.com \| 3 \| 3 \| `[^`]+` \| 0 \| 1 \|", out, re.MULTILINE)
    assert repair, out


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
