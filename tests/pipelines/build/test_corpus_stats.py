"""Corpus statistics and the plot, on the crawled demo site."""

from __future__ import annotations

import psycopg

from pipelines.build.corpus_stats import corpus_stats, plot_articles_per_day


def test_articles_per_site_and_day_add_up_to_the_published_corpus(crawled_demo):
    _, dsn, _, _ = crawled_demo
    stats = corpus_stats(dsn)
    with psycopg.connect(dsn) as connection:
        stored = connection.execute("SELECT count(*) FROM corpus_articles").fetchone()[0]
    assert stats.total("demo") == stored
    assert len(stats.per_day["demo"]) > 1
    rates = stats.rates["demo"]
    assert rates.articles >= stored and 0 <= rates.exact_duplicate_rate < 1
    assert corpus_stats(dsn, site="nothing").per_day == {}


def test_noise_rate_comes_from_the_line_noise_columns_when_installed(crawled_demo):
    _, dsn, _, _ = crawled_demo
    stats = corpus_stats(dsn)
    rates = stats.rates["demo"]
    if stats.noise_installed:
        assert rates.noise_rate is not None and 0 <= rates.noise_rate <= 1
    else:
        assert rates.noise_rate is None


def test_plot_writes_a_png(crawled_demo, tmp_path):
    out = tmp_path / "per-day.png"
    plot_articles_per_day(corpus_stats(crawled_demo[1]), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 1000
