"""Corpus statistics for `newscorpus stats`: articles per site and day, duplicate and noise rates, a plot."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from newscorpus.store.builds import corpus_counts

# How a rate without data is shown: the noise rate of a site none of whose articles went through the line-noise
# stage (switched off, or not run yet), never a 0 % it did not measure.
NO_RATE = "n/a (no article went through the stage)"


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
        """Noise lines over the body lines of the articles the line-noise stage cleaned; None when it cleaned
        none of this site's articles."""
        if not self.cleaned_articles:
            return None
        return self.noise_lines / self.body_lines if self.body_lines else 0.0


@dataclass
class CorpusStats:
    per_day: dict[str, dict[date, int]] = field(default_factory=dict)   # site -> day -> published articles
    rates: dict[str, SiteRates] = field(default_factory=dict)

    def total(self, site: str) -> int:
        return sum(self.per_day.get(site, {}).values())


def corpus_stats(dsn: str, site: str | None = None, since: date | None = None,
                 until: date | None = None) -> CorpusStats:
    stats = CorpusStats()
    counts = corpus_counts(dsn, site, since, until)
    per_day: dict[str, dict[date, int]] = defaultdict(dict)
    for name, day, count in counts.per_site_day:
        per_day[name][day] = count
    stats.per_day = dict(per_day)
    for name, articles, distinct, near in counts.duplicates:
        stats.rates[name] = SiteRates(articles=articles, distinct_bodies=distinct, near_duplicates=near)
    for name, cleaned, noise, lines in counts.noise:
        rates = stats.rates.setdefault(name, SiteRates())
        rates.cleaned_articles, rates.noise_lines, rates.body_lines = cleaned, noise, lines
    return stats


# The plot's bin by the corpus's span: a point per day over a few months, per week over a few years, per month
# beyond (a 2004-2023 blog has ~7,000 days: as days the line is unreadable, as months 240 points).
DAY_BINS_UP_TO_DAYS = 120
WEEK_BINS_UP_TO_DAYS = 3 * 366


def bin_of(span_days: int) -> str:
    if span_days <= DAY_BINS_UP_TO_DAYS:
        return "day"
    return "week" if span_days <= WEEK_BINS_UP_TO_DAYS else "month"


def bin_start(day: date, unit: str) -> date:
    if unit == "week":
        return day - timedelta(days=day.weekday())   # Monday
    return day.replace(day=1) if unit == "month" else day


def next_bin(start: date, unit: str) -> date:
    if unit == "month":
        return date(start.year + start.month // 12, start.month % 12 + 1, 1)
    return start + timedelta(days=7 if unit == "week" else 1)


def binned(days: dict[date, int], unit: str, first: date, last: date) -> list[tuple[date, int]]:
    """Counts per ``unit`` from ``first``'s bin to ``last``'s, a bin without articles counted 0 (not left out,
    which would draw a line straight across a gap)."""
    counts: dict[date, int] = defaultdict(int)
    for day, count in days.items():
        counts[bin_start(day, unit)] += count
    series, start = [], bin_start(first, unit)
    while start <= last:
        series.append((start, counts.get(start, 0)))
        start = next_bin(start, unit)
    return series


def plot_articles_per_day(stats: CorpusStats, out: Path) -> None:
    """A PNG of articles per day, week or month (by the corpus's span), one line per site (matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure = articles_per_day_figure(stats, pyplot)
    try:
        figure.savefig(out, format="png")
    finally:
        pyplot.close(figure)


def articles_per_day_figure(stats: CorpusStats, pyplot):
    """The figure of articles per day: counts on a y-axis from 0 in whole numbers (an axis starting at 1.0 would
    draw a fall from 2 articles to 1 as a cliff)."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = pyplot.subplots(figsize=(10, 4.5), dpi=100)
    every_day = [day for days in stats.per_day.values() for day in days]
    unit = bin_of((max(every_day) - min(every_day)).days) if every_day else "day"
    for site, days in sorted(stats.per_day.items()):
        series = binned(days, unit, min(every_day), max(every_day))
        axes.plot([start for start, _ in series], [count for _, count in series],
                  marker="o" if len(series) <= 60 else None, markersize=3, label=site)
    axes.set_title(f"Articles per {unit} (published, else first seen)")
    axes.set_xlabel(f"{unit} (published, else first seen)")
    axes.set_ylabel(f"articles per {unit}")
    axes.set_ylim(bottom=0)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(alpha=0.3)
    if stats.per_day:
        axes.legend()
    figure.autofmt_xdate()
    figure.tight_layout()
    return figure
