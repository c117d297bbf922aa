"""Corpus statistics and the plot, on the crawled demo site."""

from __future__ import annotations

from datetime import date

import psycopg

from newscorpus.builds.corpus_stats import (
    CorpusStats,
    SiteRates,
    articles_per_day_figure,
    bin_of,
    binned,
    corpus_stats,
    plot_articles_per_day,
)


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


def test_noise_rate_is_the_cleaned_articles_noise_lines_over_their_body_lines(crawled_demo):
    _, dsn, _, _ = crawled_demo
    rates = corpus_stats(dsn).rates["demo"]
    with psycopg.connect(dsn) as connection:
        cleaned, noise = connection.execute(
            "SELECT count(*), sum(noise_lines) FROM articles WHERE clean_body IS NOT NULL").fetchone()
    assert cleaned > 0 and noise > 0  # the demo site repeats its navigation lines: the stage removes them
    assert (rates.cleaned_articles, rates.noise_lines) == (cleaned, noise)
    assert 0 < rates.noise_rate == noise / rates.body_lines < 1


def test_a_site_the_line_noise_stage_cleaned_nothing_of_has_no_noise_rate():
    assert SiteRates(articles=3, cleaned_articles=0, noise_lines=0, body_lines=0).noise_rate is None
    assert SiteRates(articles=3).noise_rate is None
    assert SiteRates(articles=3, cleaned_articles=2, noise_lines=0, body_lines=40).noise_rate == 0.0


def test_the_plot_counts_from_zero_in_whole_articles():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    stats = CorpusStats(per_day={"demo": {date(2026, 11, 1): 2, date(2026, 11, 2): 1, date(2026, 11, 3): 2}})
    figure = articles_per_day_figure(stats, pyplot)
    try:
        axes = figure.axes[0]
        assert axes.get_ylim()[0] == 0 and axes.get_ylim()[1] >= 2
        assert all(tick == int(tick) for tick in axes.get_yticks())
    finally:
        pyplot.close(figure)


def test_plot_writes_a_png(crawled_demo, tmp_path):
    out = tmp_path / "per-day.png"
    plot_articles_per_day(corpus_stats(crawled_demo[1]), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 1000


def test_a_long_span_is_plotted_per_month_and_empty_bins_count_zero():
    days = {date(2004, 3, 9): 2, date(2004, 3, 20): 1, date(2023, 12, 31): 4}
    unit = bin_of((date(2023, 12, 31) - date(2004, 3, 9)).days)
    series = binned(days, unit, date(2004, 3, 9), date(2023, 12, 31))
    assert unit == "month" and len(series) == 12 * 20 - 2            # March 2004 to December 2023
    assert series[0] == (date(2004, 3, 1), 3) and series[-1] == (date(2023, 12, 1), 4)
    assert sum(count for _, count in series) == 7 and series[1] == (date(2004, 4, 1), 0)


def test_a_short_span_is_plotted_per_day_and_a_medium_one_per_week():
    assert bin_of(30) == "day" and bin_of(400) == "week"
    series = binned({date(2026, 11, 2): 1, date(2026, 11, 5): 2}, "day", date(2026, 11, 2), date(2026, 11, 5))
    assert [count for _, count in series] == [1, 0, 0, 2]
    weeks = binned({date(2026, 11, 4): 1, date(2026, 11, 8): 1, date(2026, 11, 9): 5}, "week",
                   date(2026, 11, 4), date(2026, 11, 9))
    assert weeks == [(date(2026, 11, 2), 2), (date(2026, 11, 9), 5)]   # weeks start on Monday


def test_the_plot_labels_its_axes_with_the_bin():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    stats = CorpusStats(per_day={"blog": {date(2004, 1, 5): 1, date(2023, 6, 1): 1}})
    figure = articles_per_day_figure(stats, pyplot)
    try:
        axes = figure.axes[0]
        assert axes.get_ylabel() == "articles per month" and "month" in axes.get_xlabel()
        assert len(axes.lines[0].get_xdata()) == 12 * 19 + 6
    finally:
        pyplot.close(figure)
