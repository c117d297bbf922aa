"""Corpus statistics for `newscorpus stats`: articles per site and day, duplicate and noise rates, a plot."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from pipelines.db.connection import connect
from pipelines.db.named_queries import query

# The one place that says which stage columns the rates need; a rate whose column is absent is None, shown as
# "n/a (stage not installed)".
NOISE_COLUMNS = ("clean_body", "noise_lines")   # migrations/0002_line_noise.sql
NOT_INSTALLED = "n/a (stage not installed)"


@dataclass
class SiteRates:
    articles: int = 0
    distinct_bodies: int = 0
    near_duplicates: int = 0
    cleaned_articles: int | None = None
    noise_lines: int | None = None
    body_lines: int | None = None

    @property
    def exact_duplicate_rate(self) -> float:
        return 1 - self.distinct_bodies / self.articles if self.articles else 0.0

    @property
    def near_duplicate_rate(self) -> float:
        return self.near_duplicates / self.articles if self.articles else 0.0

    @property
    def noise_rate(self) -> float | None:
        if self.body_lines is None:
            return None
        return self.noise_lines / self.body_lines if self.body_lines else 0.0


@dataclass
class CorpusStats:
    per_day: dict[str, dict[date, int]] = field(default_factory=dict)   # site -> day -> published articles
    rates: dict[str, SiteRates] = field(default_factory=dict)
    noise_installed: bool = False

    def total(self, site: str) -> int:
        return sum(self.per_day.get(site, {}).values())


def noise_stage_installed(connection) -> bool:
    present = {row[0] for row in connection.execute(query("stage_columns", filename="build.sql"),
                                                   {"columns": list(NOISE_COLUMNS)})}
    return present == set(NOISE_COLUMNS)


def corpus_stats(dsn: str, site: str | None = None, since: date | None = None,
                 until: date | None = None) -> CorpusStats:
    stats = CorpusStats()
    filters = {"site": site, "since": since, "until": until}
    with connect(dsn) as connection:
        per_day: dict[str, dict[date, int]] = defaultdict(dict)
        for name, day, count in connection.execute(query("articles_per_site_day", filename="build.sql"), filters):
            per_day[name][day] = count
        stats.per_day = dict(per_day)
        for name, articles, distinct, near in connection.execute(query("duplicate_counts", filename="build.sql"),
                                                                 {"site": site}):
            stats.rates[name] = SiteRates(articles=articles, distinct_bodies=distinct, near_duplicates=near)
        stats.noise_installed = noise_stage_installed(connection)
        if stats.noise_installed:
            for name, cleaned, noise, lines in connection.execute(query("noise_counts", filename="build.sql"),
                                                                  {"site": site}):
                rates = stats.rates.setdefault(name, SiteRates())
                rates.cleaned_articles, rates.noise_lines, rates.body_lines = cleaned, noise, lines
    return stats


def plot_articles_per_day(stats: CorpusStats, out: Path) -> None:
    """A PNG of articles per day, one line per site (matplotlib, the `eval` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(10, 4.5), dpi=100)
    try:
        for site, days in sorted(stats.per_day.items()):
            ordered = sorted(days)
            axes.plot(ordered, [days[day] for day in ordered], marker="o", markersize=3, label=site)
        axes.set_title("Articles per day (published, else first seen)")
        axes.set_ylabel("articles")
        axes.grid(alpha=0.3)
        if stats.per_day:
            axes.legend()
        figure.autofmt_xdate()
        figure.tight_layout()
        figure.savefig(out, format="png")
    finally:
        pyplot.close(figure)
