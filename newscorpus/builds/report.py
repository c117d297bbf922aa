"""The build's run report: crawl counters (from crawl_runs), maintenance counters, errors by reason."""

from __future__ import annotations

from collections import Counter

# Page outcomes that are failures to get an article (the others: article, listing, sitemap, feed, not_html).
ERROR_OUTCOMES = ("http_error", "fetch_error", "too_large", "decode_error", "empty", "no_body")
# Other crawl stats counted as errors, by the name they get in the report.
ERROR_STATS = {"newscorpus/spider/bad_sitemap": "bad_sitemap", "newscorpus/spider/bad_feed": "bad_feed",
               "log_count/ERROR": "logged_errors", "newscorpus/storage/pages_unsaved": "pages_unsaved"}
# Headline figures summed from the crawl stats whose names start with these prefixes, and from maintenance
# counters of the same name. A stage that is switched off has no such counter: the figure is then None
# ("n/a"), never 0.
HEADLINE_CRAWL_STATS = {
    "noise_lines_removed": ("newscorpus/line_noise/lines_removed",),
    "duplicates": ("newscorpus/near_duplicate/duplicate/",),   # one counter per method (exact, simhash, keywords)
}


def crawl_summary(runs: list[dict]) -> dict:
    """``runs``: rows of crawl_runs (site, finish_reason, counters). Per site and in total."""
    by_site: dict[str, Counter] = {}
    reasons: dict[str, list] = {}
    for run in runs:
        counters = run["counters"] or {}
        site = by_site.setdefault(run["site"] or "?", Counter())
        site["crawl_runs"] += 1
        site["pages_fetched"] += counters.get("response_received_count", 0)
        for name in ("articles_new", "articles_updated", "articles_unchanged", "pages_new", "pages_seen_again"):
            site[name] += counters.get(f"newscorpus/storage/{name}", 0)
        reasons.setdefault(run["site"] or "?", []).append(run["finish_reason"] or "not finished")
    total: Counter = Counter()
    for counters in by_site.values():
        total.update(counters)
    return {**{k: total.get(k, 0) for k in ("pages_fetched", "articles_new", "articles_updated",
                                            "articles_unchanged")},
            "by_site": {site: dict(counters) for site, counters in sorted(by_site.items())},
            "finish_reasons": reasons}


def errors_by_reason(runs: list[dict], crawl_exit_code: int | None, maintenance: dict) -> dict:
    errors: Counter = Counter()
    for run in runs:
        counters = run["counters"] or {}
        for outcome in ERROR_OUTCOMES:
            errors[outcome] += counters.get(f"newscorpus/outcome/{outcome}", 0)
        for stat, name in ERROR_STATS.items():
            errors[name] += counters.get(stat, 0)
        if run["finish_reason"] not in ("finished", None):
            errors[f"crawl_finished_{run['finish_reason']}"] += 1
    if crawl_exit_code not in (0, None):
        errors["crawl_process_failed"] += 1
    for step, counters in maintenance.items():
        if "error" in counters:
            errors[f"maintenance_{step}_failed"] += 1
    return {reason: count for reason, count in sorted(errors.items()) if count}


def headline(runs: list[dict], maintenance: dict, name: str, installed: bool = False) -> int | None:
    """The figure ``name`` summed over the crawl runs and maintenance steps; None when no stage counts it
    and the stage is not ``installed`` (a stage that ran and found nothing gives 0)."""
    values = [value for run in runs for stat, value in (run["counters"] or {}).items()
              if stat.startswith(HEADLINE_CRAWL_STATS[name])]
    values += [counters[name] for counters in maintenance.values() if name in counters]
    if not values:
        return 0 if installed else None
    return sum(values)


def human_summary(report: dict) -> str:
    crawl, snapshot = report.get("crawl", {}), report.get("snapshot") or {}

    def figure(value) -> str:
        return "n/a (stage off)" if value is None else str(value)

    lines = [
        f"build {report['build_id']}: {report['status']} (attempt {report['attempts']}, sites: "
        f"{', '.join(report['sites'])})",
        f"  pages fetched {crawl.get('pages_fetched', 0)}, articles new {crawl.get('articles_new', 0)}, "
        f"updated {crawl.get('articles_updated', 0)}, unchanged {crawl.get('articles_unchanged', 0)}",
        f"  noise lines removed: {figure(report.get('noise_lines_removed'))}; "
        f"duplicates: {figure(report.get('duplicates'))}",
    ]
    for step, counters in report.get("maintenance", {}).items():
        lines.append(f"  maintenance {step}: " + ", ".join(f"{k} {v}" for k, v in counters.items()))
    errors = report.get("errors") or {}
    lines.append("  errors: " + (", ".join(f"{k} {v}" for k, v in errors.items()) if errors else "none"))
    if snapshot:
        lines.append(f"  snapshot {snapshot.get('dir')}: {snapshot.get('rows')} articles "
                     f"({', '.join(f'{k} {v}' for k, v in snapshot.get('counts_per_site', {}).items())})")
    return "\n".join(lines)
