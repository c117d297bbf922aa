"""`newscorpus clean|noise|eval line-noise` on a crawled demo site in a real Postgres and on a small labelled set."""

from __future__ import annotations

import json

import psycopg

from newscorpus.cli.main import main
from newscorpus.demo.pages import BODY_NOISE_EN, BODY_NOISE_ZH


def still_noisy(dsn: str) -> int:
    with psycopg.connect(dsn) as connection:
        return connection.execute(
            "SELECT count(*) FROM articles WHERE clean_body LIKE %s OR clean_body LIKE %s",
            (f"%{BODY_NOISE_ZH}%", f"%{BODY_NOISE_EN}%")).fetchone()[0]


def test_the_crawl_leaves_nothing_for_clean_to_change(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    # 31 articles < the default warm-up of 50, yet the crawl's end cleaned every one with the final statistics.
    assert still_noisy(dsn) == 0
    for _ in range(2):
        assert main(["clean", "--dsn", dsn, "--site", "demo"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert f"cleaned: {len(site.all_articles)}" in out and f"lines_removed: {len(site.all_articles)}" in out
        assert "changed: 0" in out
    assert still_noisy(dsn) == 0
    assert main(["clean", "--dsn", dsn, "--site", "nosuchsite"]) == 2


def test_noise_lists_the_lines_removed_most_often(crawled_demo, capsys):
    site, dsn, _, _ = crawled_demo
    assert main(["noise", "--dsn", dsn, "--site", "demo", "--limit", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    zh = sum(a.lang == "zh" for a in site.all_articles)
    assert lines[1].split()[:2] == [str(zh), str(zh)] and lines[1].endswith(BODY_NOISE_ZH)
    assert lines[2].endswith(BODY_NOISE_EN)
    assert main(["noise", "--dsn", dsn, "--site", "nosuchsite"]) == 2


def test_an_allowed_line_is_kept_by_the_next_clean(crawled_demo, capsys):
    _, dsn, _, _ = crawled_demo
    assert main(["noise", "--dsn", dsn, "--site", "demo", "--allow", "a line no article has"]) == 2
    assert "no stored article of demo has the line 'a line no article has'" in capsys.readouterr().err
    assert main(["noise", "--dsn", dsn, "--site", "demo", "--allow", BODY_NOISE_EN.upper()]) == 0
    assert main(["clean", "--dsn", dsn, "--site", "demo"]) == 0
    capsys.readouterr()
    with psycopg.connect(dsn) as connection:
        english = connection.execute(
            "SELECT count(*), count(*) FILTER (WHERE clean_body LIKE %s) FROM articles WHERE language = 'en'",
            (f"%{BODY_NOISE_EN}%",)).fetchone()
    assert english[0] > 0 and english[0] == english[1]
    assert main(["noise", "--dsn", dsn, "--site", "demo"]) == 0
    assert "[allowed]" not in capsys.readouterr().out  # no longer removed anywhere


def labelled_site(folder, pages: int = 5):
    items = []
    for number in range(pages):
        story = f"Story {chr(97 + number)} says something new about topic {chr(107 + number)}. " * 3
        html = (f"<html><body><div class='article-body'><p>{story}</p><p>{story}</p>"
                "<p>Share this article with your friends and family today.</p></div></body></html>")
        (folder / f"p{number}.html").write_text(html, encoding="utf-8")
        (folder / f"p{number}.txt").write_text(f"{story}\n{story}", encoding="utf-8")
        items.append({"stem": f"p{number}", "url": f"https://news.example.com/{number}.html", "lang": "en"})
    (folder / "manifest.json").write_text(json.dumps({"name": "tiny", "items": items}), encoding="utf-8")


def test_eval_line_noise_reports_precision_with_and_without_and_plots(tmp_path, capsys):
    labelled_site(tmp_path)
    plot = tmp_path / "curve.png"
    assert main(["eval", "line-noise", str(tmp_path), "--plot", str(plot), "--check"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("news.example.com"))
    values = [float(v) for v in row.split()[2:11]]
    assert values[3] > values[0] and values[6] > values[3]   # precision: none < as crawled < re-cleaned
    assert values[7] >= values[1] - 0.01                       # recall kept
    assert plot.stat().st_size > 10_000
    assert main(["eval", "line-noise", str(tmp_path), "-s", "NEWSCORPUS_LINENOISE_L=0"]) == 2
